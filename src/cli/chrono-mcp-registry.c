/* chrono-mcp-registry.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-mcp-registry.h"
#include "chrono-mcp-schema.h"

/* Each family of tools lives in a file of its own (chrono-mcp-tools-*.c). */
static const ChronoMcpTool *(* const families[]) (guint *n_tools) = {
  chrono_mcp_trace_tools,
  chrono_mcp_analysis_tools,
  chrono_mcp_span_tools,
  chrono_mcp_top_tools,
  chrono_mcp_compare_tools,
  chrono_mcp_query_tools,
#ifdef CHRONO_CLI_EXPORT
  chrono_mcp_view_tools,
#endif
};

typedef struct {
  const ChronoMcpTool *tool;
  JsonNode            *input_schema;
  JsonNode            *output_schema;
} Entry;

struct _ChronoMcpRegistry {
  GArray *entries;   /* Entry */
};

static void
entry_clear (Entry *e)
{
  json_node_unref (e->input_schema);
  json_node_unref (e->output_schema);
}

static JsonNode *
parse_schema (const char *name,
              const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (text, &error);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    g_error ("the schema of the tool %s is not a JSON object: %s", name, error ? error->message : text);
  return node;
}

ChronoMcpRegistry *
chrono_mcp_registry_new (void)
{
  ChronoMcpRegistry *registry = g_new0 (ChronoMcpRegistry, 1);

  registry->entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  g_array_set_clear_func (registry->entries, (GDestroyNotify) entry_clear);
  for (guint f = 0; f < G_N_ELEMENTS (families); f++)
    {
      guint n;
      const ChronoMcpTool *tools = families[f] (&n);

      for (guint i = 0; i < n; i++)
        {
          Entry e = {
            .tool = &tools[i],
            .input_schema = parse_schema (tools[i].name, tools[i].input_schema),
            .output_schema = parse_schema (tools[i].name, tools[i].output_schema),
          };
          g_array_append_val (registry->entries, e);
        }
    }
  return registry;
}

void
chrono_mcp_registry_free (ChronoMcpRegistry *registry)
{
  g_array_unref (registry->entries);
  g_free (registry);
}

static const Entry *
find (ChronoMcpRegistry *registry,
      const char        *name)
{
  for (guint i = 0; i < registry->entries->len; i++)
    {
      const Entry *e = &g_array_index (registry->entries, Entry, i);

      if (strcmp (e->tool->name, name) == 0)
        return e;
    }
  return NULL;
}

gboolean
chrono_mcp_registry_has (ChronoMcpRegistry *registry,
                         const char        *name)
{
  return find (registry, name) != NULL;
}

JsonNode *
chrono_mcp_registry_list (ChronoMcpRegistry *registry)
{
  JsonObject *result = json_object_new ();
  JsonArray *tools = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  for (guint i = 0; i < registry->entries->len; i++)
    {
      const Entry *e = &g_array_index (registry->entries, Entry, i);
      JsonObject *tool = json_object_new ();
      JsonObject *annotations = json_object_new ();

      json_object_set_string_member (tool, "name", e->tool->name);
      json_object_set_string_member (tool, "title", e->tool->title);
      json_object_set_string_member (tool, "description", e->tool->description);
      json_object_set_member (tool, "inputSchema", json_node_copy (e->input_schema));
      json_object_set_member (tool, "outputSchema", json_node_copy (e->output_schema));
      /* every tool only reads, and only local files */
      json_object_set_boolean_member (annotations, "readOnlyHint", TRUE);
      json_object_set_boolean_member (annotations, "openWorldHint", FALSE);
      json_object_set_object_member (tool, "annotations", annotations);
      json_array_add_object_element (tools, tool);
    }
  json_object_set_array_member (result, "tools", tools);
  json_node_take_object (node, result);
  return node;
}

static JsonNode *
call_result (const char *text,
             JsonArray  *more,
             JsonNode   *structured,
             gboolean    is_error)
{
  JsonObject *result = json_object_new ();
  JsonArray *content = json_array_new ();
  JsonObject *item = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (item, "type", "text");
  json_object_set_string_member (item, "text", text);
  json_array_add_object_element (content, item);
  for (guint i = 0; more && i < json_array_get_length (more); i++)
    json_array_add_element (content, json_node_copy (json_array_get_element (more, i)));
  json_object_set_array_member (result, "content", content);
  if (structured != NULL)
    json_object_set_member (result, "structuredContent", structured);
  json_object_set_boolean_member (result, "isError", is_error);
  json_node_take_object (node, result);
  return node;
}

JsonNode *
chrono_mcp_registry_call (ChronoMcpRegistry *registry,
                          ChronoMcpContext  *ctx,
                          const char        *name,
                          JsonNode          *arguments)
{
  const Entry *e = find (registry, name);
  g_autoptr(JsonNode) args = arguments ? json_node_ref (arguments) : json_node_new (JSON_NODE_OBJECT);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  JsonNode *structured;

  g_return_val_if_fail (e != NULL, NULL);

  if (JSON_NODE_HOLDS_OBJECT (args) && json_node_get_object (args) == NULL)
    json_node_take_object (args, json_object_new ());
  if (!chrono_mcp_schema_check (e->input_schema, args, "arguments", &error))
    {
      g_autofree char *message = g_strdup_printf ("%s: %s", name, error->message);
      return call_result (message, NULL, NULL, TRUE);
    }
  g_clear_pointer (&ctx->content, json_array_unref);
  ctx->content = json_array_new ();
  structured = e->tool->call (ctx, json_node_get_object (args), text, &error);
  if (structured == NULL)
    {
      g_autofree char *message = g_strdup_printf ("%s: %s", name, error->message);
      return call_result (message, NULL, NULL, TRUE);
    }
  return call_result (text->str, ctx->content, structured, FALSE);
}
