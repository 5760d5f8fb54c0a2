/* chrono-mcp-tool.h: what a tool of the MCP server is, and what it is given
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-mcp-cache.h"
#include "chrono-mcp-roots.h"

G_BEGIN_DECLS

/* Rows of a list per call unless the call asks for others (its `limit`,
 * at most 500: the schemas say so). */
#define CHRONO_MCP_DEFAULT_ROWS 50

typedef struct {
  ChronoMcpRoots *roots;
  ChronoMcpCache *cache;
  gsize           max_bytes;   /* of a result's structured content */
  /* The last comparison's report, parsed, and the handles and options
   * that made it: paging it does not run it again. */
  char           *comparison_key;
  JsonNode       *comparison;
  /* Content items a call gives after its text summary (an image); the
   * registry empties it before each call. */
  JsonArray      *content;
} ChronoMcpContext;

/* Returns the structured content (an object) and appends a short summary
 * for people and models to TEXT; NULL with an error that the caller turns
 * into an isError result. ARGS has been checked against the input schema. */
typedef JsonNode *(*ChronoMcpToolFunc) (ChronoMcpContext  *ctx,
                                        JsonObject        *args,
                                        GString           *text,
                                        GError           **error);

typedef struct {
  const char        *name;
  const char        *title;
  const char        *description;
  const char        *input_schema;    /* JSON Schema, as text */
  const char        *output_schema;
  ChronoMcpToolFunc  call;
} ChronoMcpTool;

/* The families of tools; chrono-mcp-registry.c lists them. */
const ChronoMcpTool *chrono_mcp_trace_tools    (guint *n_tools);
const ChronoMcpTool *chrono_mcp_analysis_tools (guint *n_tools);
const ChronoMcpTool *chrono_mcp_span_tools     (guint *n_tools);
const ChronoMcpTool *chrono_mcp_top_tools      (guint *n_tools);
const ChronoMcpTool *chrono_mcp_compare_tools  (guint *n_tools);
const ChronoMcpTool *chrono_mcp_query_tools    (guint *n_tools);
#ifdef CHRONO_CLI_EXPORT
const ChronoMcpTool *chrono_mcp_view_tools     (guint *n_tools);
#endif

/* Argument readers, for arguments that passed the schema. */
const char *chrono_mcp_arg_string (JsonObject  *args,
                                   const char  *name);
gboolean    chrono_mcp_arg_int    (JsonObject  *args,
                                   const char  *name,
                                   gint64      *value);
gint64      chrono_mcp_arg_int_or (JsonObject  *args,
                                   const char  *name,
                                   gint64       fallback);

/* The loaded entry named by the "handle" argument. */
ChronoMcpEntry *chrono_mcp_arg_entry (ChronoMcpContext  *ctx,
                                      JsonObject        *args,
                                      GError           **error);

/* Pieces of JSON Schema the tools share. */
#define CHRONO_MCP_SCHEMA_HANDLE \
  "\"handle\":{\"type\":\"string\",\"description\":\"What open_trace returned\"}"
#define CHRONO_MCP_SCHEMA_PAGE_IN \
  "\"limit\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":500,\"description\":\"Rows to return (default 50)\"}," \
  "\"cursor\":{\"type\":\"string\",\"description\":\"next_cursor of the previous call with the same arguments\"}"
#define CHRONO_MCP_SCHEMA_PAGE_OUT \
  "\"returned\":{\"type\":\"integer\"}," \
  "\"total\":{\"type\":\"integer\",\"description\":\"rows the query has in all\"}," \
  "\"truncated\":{\"type\":\"boolean\",\"description\":\"more rows follow: pass next_cursor, or narrow the query\"}," \
  "\"next_cursor\":{\"type\":\"string\"}"
#define CHRONO_MCP_SCHEMA_SCOPE_IN \
  "\"start_ns\":{\"type\":\"integer\",\"description\":\"Start of the window, in the trace's nanoseconds (start_ns of open_trace)\"}," \
  "\"end_ns\":{\"type\":\"integer\",\"description\":\"End of the window, above start_ns\"}," \
  "\"step\":{\"type\":[\"string\",\"integer\"],\"description\":\"A profiler step: its number (12) or name (ProfilerStep#12); its time on the host becomes the window\"}," \
  "\"rank\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"Only this rank's trace (its distributedInfo rank, or its position among the files opened when the traces do not say)\"}"

G_END_DECLS
