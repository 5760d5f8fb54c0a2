/* chrono-mcp-args.c: reading the arguments of a tool call
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-mcp-tool.h"

const char *
chrono_mcp_arg_string (JsonObject *args,
                       const char *name)
{
  JsonNode *node = json_object_get_member (args, name);

  return node && json_node_get_value_type (node) == G_TYPE_STRING ? json_node_get_string (node) : NULL;
}

gboolean
chrono_mcp_arg_int (JsonObject *args,
                    const char *name,
                    gint64     *value)
{
  JsonNode *node = json_object_get_member (args, name);

  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE)
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    *value = json_node_get_int (node);
  else if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    *value = (gint64) json_node_get_double (node);
  else
    return FALSE;
  return TRUE;
}

gint64
chrono_mcp_arg_int_or (JsonObject *args,
                       const char *name,
                       gint64      fallback)
{
  gint64 value;

  return chrono_mcp_arg_int (args, name, &value) ? value : fallback;
}

ChronoMcpEntry *
chrono_mcp_arg_entry (ChronoMcpContext  *ctx,
                      JsonObject        *args,
                      GError           **error)
{
  return chrono_mcp_cache_lookup (ctx->cache, chrono_mcp_arg_string (args, "handle"), error);
}
