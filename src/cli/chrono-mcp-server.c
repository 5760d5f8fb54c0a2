/* chrono-mcp-server.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-mcp-registry.h"
#include "chrono-mcp-server.h"
#include "chrono-mcp-transport.h"

/* Protocol versions spoken, the latest first: a client asking for another
 * is answered with the latest, and decides whether it can go on. */
static const char * const protocol_versions[] = { "2025-11-25", "2025-06-18" };

/* Bigger messages are refused without being parsed: no argument of any
 * tool comes near. */
#define MAX_MESSAGE_BYTES (4 * 1024 * 1024)
/* Bytes of structured content in one tool result. */
#define MAX_RESULT_BYTES (256 * 1024)

#define INSTRUCTIONS \
  "Chronoscope reads profiler traces (PyTorch/Kineto JSON, Chrome trace events, Perfetto, AWS Neuron) " \
  "from local files and answers where the time goes. Start with open_trace (a file, several ranks' " \
  "files, or a profile folder) and keep its handle. analyze gives the bottleneck findings with the " \
  "time each costs, the device time breakdown and the critical path of each step; critical_path " \
  "lists one step's stretches; top_operators and top_kernels rank by time or count; find_spans " \
  "searches spans and span_details explains one (args, flows, launch and kernels, enclosing " \
  "operators, dependencies). Times are integer nanoseconds on the trace's clock. Lists are bounded: " \
  "when truncated is true, narrow the query or pass next_cursor."

struct _ChronoMcpServer {
  GObject            parent_instance;
  ChronoMcpRoots    *roots;
  ChronoMcpCache    *cache;
  ChronoMcpRegistry *registry;
  ChronoMcpContext   ctx;
  gboolean           initialized;
  char              *protocol_version;
};

G_DEFINE_FINAL_TYPE (ChronoMcpServer, chrono_mcp_server, G_TYPE_OBJECT)

static void
chrono_mcp_server_finalize (GObject *object)
{
  ChronoMcpServer *self = CHRONO_MCP_SERVER (object);

  g_clear_pointer (&self->roots, chrono_mcp_roots_free);
  g_clear_object (&self->cache);
  g_clear_pointer (&self->registry, chrono_mcp_registry_free);
  g_free (self->ctx.comparison_key);
  g_clear_pointer (&self->ctx.comparison, json_node_unref);
  g_clear_pointer (&self->ctx.content, json_array_unref);
  g_free (self->protocol_version);
  G_OBJECT_CLASS (chrono_mcp_server_parent_class)->finalize (object);
}

static void
chrono_mcp_server_class_init (ChronoMcpServerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_mcp_server_finalize;
}

static void
chrono_mcp_server_init (ChronoMcpServer *self)
{
  self->registry = chrono_mcp_registry_new ();
}

ChronoMcpServer *
chrono_mcp_server_new (ChronoMcpRoots *roots,
                       gsize           memory_limit)
{
  ChronoMcpServer *self = g_object_new (CHRONO_MCP_TYPE_SERVER, NULL);

  self->roots = roots;
  self->cache = chrono_mcp_cache_new (memory_limit);
  self->ctx.roots = self->roots;
  self->ctx.cache = self->cache;
  self->ctx.max_bytes = MAX_RESULT_BYTES;
  return self;
}

static JsonNode *
object_node (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, object);
  return node;
}

static JsonNode *
initialize (ChronoMcpServer *self,
            JsonObject      *params)
{
  const char *asked = params && json_object_has_member (params, "protocolVersion") &&
                      JSON_NODE_HOLDS_VALUE (json_object_get_member (params, "protocolVersion")) &&
                      json_node_get_value_type (json_object_get_member (params, "protocolVersion")) == G_TYPE_STRING
                      ? json_object_get_string_member (params, "protocolVersion") : NULL;
  const char *version = protocol_versions[0];
  JsonObject *result = json_object_new ();
  JsonObject *capabilities = json_object_new ();
  JsonObject *tools = json_object_new ();
  JsonObject *info = json_object_new ();

  for (guint i = 0; asked && i < G_N_ELEMENTS (protocol_versions); i++)
    if (strcmp (asked, protocol_versions[i]) == 0)
      version = protocol_versions[i];
  if (asked && strcmp (asked, version) != 0)
    g_printerr ("chronoscope-cli mcp: the client asked for protocol version %s; offering %s\n", asked, version);
  g_free (self->protocol_version);
  self->protocol_version = g_strdup (version);
  self->initialized = TRUE;

  json_object_set_boolean_member (tools, "listChanged", FALSE);
  json_object_set_object_member (capabilities, "tools", tools);
  json_object_set_string_member (info, "name", "chronoscope");
  json_object_set_string_member (info, "title", "Chronoscope");
  json_object_set_string_member (info, "version", PACKAGE_VERSION);
  json_object_set_string_member (result, "protocolVersion", version);
  json_object_set_object_member (result, "capabilities", capabilities);
  json_object_set_object_member (result, "serverInfo", info);
  json_object_set_string_member (result, "instructions", INSTRUCTIONS);
  return object_node (result);
}

static JsonNode *
call_tool (ChronoMcpServer *self,
           JsonNode        *id,
           JsonObject      *params)
{
  JsonNode *name = params ? json_object_get_member (params, "name") : NULL;
  JsonNode *arguments = params ? json_object_get_member (params, "arguments") : NULL;
  const char *tool;
  g_autofree char *message = NULL;
  gint64 started = g_get_monotonic_time ();
  JsonNode *result;

  if (name == NULL || !JSON_NODE_HOLDS_VALUE (name) || json_node_get_value_type (name) != G_TYPE_STRING)
    return chrono_mcp_message_error (id, CHRONO_MCP_INVALID_PARAMS, "tools/call needs params.name, a string");
  tool = json_node_get_string (name);
  if (!chrono_mcp_registry_has (self->registry, tool))
    {
      message = g_strdup_printf ("Unknown tool: %s (tools/list says which there are)", tool);
      return chrono_mcp_message_error (id, CHRONO_MCP_INVALID_PARAMS, message);
    }
  if (arguments != NULL && !JSON_NODE_HOLDS_OBJECT (arguments) && !JSON_NODE_HOLDS_NULL (arguments))
    return chrono_mcp_message_error (id, CHRONO_MCP_INVALID_PARAMS, "tools/call: params.arguments must be an object");

  result = chrono_mcp_registry_call (self->registry, &self->ctx, tool,
                                     arguments && JSON_NODE_HOLDS_OBJECT (arguments) ? arguments : NULL);
  g_printerr ("chronoscope-cli mcp: %s %s in %.1f ms\n", tool,
              json_object_get_boolean_member (json_node_get_object (result), "isError") ? "failed" : "answered",
              (g_get_monotonic_time () - started) / 1e3);
  return chrono_mcp_message_result (id, result);
}

static JsonNode *
handle_request (ChronoMcpServer *self,
                JsonNode        *id,
                const char      *method,
                JsonObject      *params)
{
  g_autofree char *message = NULL;

  if (strcmp (method, "initialize") == 0)
    return chrono_mcp_message_result (id, initialize (self, params));
  if (strcmp (method, "ping") == 0)
    return chrono_mcp_message_result (id, object_node (json_object_new ()));
  if (strcmp (method, "tools/list") == 0 || strcmp (method, "tools/call") == 0)
    {
      if (!self->initialized)
        return chrono_mcp_message_error (id, CHRONO_MCP_INVALID_REQUEST, "send initialize first");
      if (method[6] == 'l')
        return chrono_mcp_message_result (id, chrono_mcp_registry_list (self->registry));
      return call_tool (self, id, params);
    }
  message = g_strdup_printf ("Method not found: %s (this server has initialize, ping, tools/list and tools/call)",
                             method);
  return chrono_mcp_message_error (id, CHRONO_MCP_METHOD_NOT_FOUND, message);
}

JsonNode *
chrono_mcp_server_handle_line (ChronoMcpServer *self,
                               const char      *line,
                               gsize            length)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  JsonObject *object;
  JsonNode *root, *id, *method, *params;

  if (length == 0 || strspn (line, " \t") == length)
    return NULL;   /* blank lines between messages carry nothing */
  if (!json_parser_load_from_data (parser, line, length, &error))
    {
      message = g_strdup_printf ("Parse error: %s", error->message);
      return chrono_mcp_message_error (NULL, CHRONO_MCP_PARSE_ERROR, message);
    }
  root = json_parser_get_root (parser);
  if (JSON_NODE_HOLDS_ARRAY (root))
    return chrono_mcp_message_error (NULL, CHRONO_MCP_INVALID_REQUEST,
                                     "Invalid request: batches are not part of protocol 2025-06-18 and later; "
                                     "send one message per line");
  if (!JSON_NODE_HOLDS_OBJECT (root))
    return chrono_mcp_message_error (NULL, CHRONO_MCP_INVALID_REQUEST, "Invalid request: a message is a JSON object");
  object = json_node_get_object (root);
  id = json_object_get_member (object, "id");
  method = json_object_get_member (object, "method");
  params = json_object_get_member (object, "params");
  if (id != NULL && !(JSON_NODE_HOLDS_VALUE (id) &&
                      (json_node_get_value_type (id) == G_TYPE_STRING || json_node_get_value_type (id) == G_TYPE_INT64)))
    return chrono_mcp_message_error (NULL, CHRONO_MCP_INVALID_REQUEST, "Invalid request: id must be a string or an integer");
  if (g_strcmp0 (json_object_get_string_member_with_default (object, "jsonrpc", NULL), "2.0") != 0)
    return chrono_mcp_message_error (id, CHRONO_MCP_INVALID_REQUEST, "Invalid request: jsonrpc must be \"2.0\"");
  if (method == NULL)
    {
      /* a response: this server sends no requests, so none is awaited */
      if (id == NULL)
        return chrono_mcp_message_error (NULL, CHRONO_MCP_INVALID_REQUEST, "Invalid request: no method");
      g_printerr ("chronoscope-cli mcp: ignoring a response to a request never sent\n");
      return NULL;
    }
  if (!JSON_NODE_HOLDS_VALUE (method) || json_node_get_value_type (method) != G_TYPE_STRING)
    return chrono_mcp_message_error (id, CHRONO_MCP_INVALID_REQUEST, "Invalid request: method must be a string");
  if (params != NULL && !JSON_NODE_HOLDS_OBJECT (params))
    return chrono_mcp_message_error (id, CHRONO_MCP_INVALID_PARAMS, "Invalid params: params must be an object");

  if (id == NULL)
    {
      /* notifications: initialized, cancelled (calls run to the end), progress… */
      if (strcmp (json_node_get_string (method), "notifications/initialized") != 0 &&
          strcmp (json_node_get_string (method), "notifications/cancelled") != 0)
        g_printerr ("chronoscope-cli mcp: ignoring the notification %s\n", json_node_get_string (method));
      return NULL;
    }
  return handle_request (self, id, json_node_get_string (method), params ? json_node_get_object (params) : NULL);
}

gboolean
chrono_mcp_server_run (ChronoMcpServer *self,
                       int              in_fd,
                       int              out_fd)
{
  g_autoptr(ChronoMcpReader) reader = chrono_mcp_reader_new (in_fd, MAX_MESSAGE_BYTES);

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) reply = NULL;
      const char *line;
      gsize length, dropped;

      switch (chrono_mcp_reader_next (reader, &line, &length, &dropped, &error))
        {
        case CHRONO_MCP_READ_LINE:
          reply = chrono_mcp_server_handle_line (self, line, length);
          break;
        case CHRONO_MCP_READ_TOO_LONG:
          {
            g_autofree char *message =
              g_strdup_printf ("Invalid request: a message of %" G_GSIZE_FORMAT " bytes, over the limit of %d; "
                               "it was not read", dropped, MAX_MESSAGE_BYTES);
            g_printerr ("chronoscope-cli mcp: %s\n", message);
            reply = chrono_mcp_message_error (NULL, CHRONO_MCP_INVALID_REQUEST, message);
          }
          break;
        case CHRONO_MCP_READ_EOF:
          if (dropped > 0)
            g_printerr ("chronoscope-cli mcp: the input closed inside a message (%" G_GSIZE_FORMAT
                        " bytes without a newline); it was not handled\n", dropped);
          return TRUE;
        case CHRONO_MCP_READ_ERROR:
        default:
          g_printerr ("chronoscope-cli mcp: %s\n", error->message);
          return TRUE;
        }
      if (reply != NULL && !chrono_mcp_write_message (out_fd, reply, &error))
        {
          g_printerr ("chronoscope-cli mcp: %s\n", error->message);
          return FALSE;
        }
    }
}
