/* chrono-mcp-tools-query.c: query, SQL over an opened trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gio.h>

#include "chrono-mcp-page.h"
#include "chrono-mcp-scope.h"
#include "chrono-query.h"

/* An agent's query runs at most this long unless it asks for less. */
#define DEFAULT_TIME_MS 10000
#define MAX_TIME_MS 60000

static const char query_input[] =
  "{\"type\":\"object\",\"additionalProperties\":false,\"required\":[\"handle\",\"sql\"],\"properties\":{"
  CHRONO_MCP_SCHEMA_HANDLE ","
  "\"sql\":{\"type\":\"string\",\"minLength\":1,\"description\":\"One SQLite SELECT statement over the tables the tool's description lists\"},"
  "\"max_time_ms\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":60000,\"description\":\"Stop the query after this long (default 10000)\"},"
  CHRONO_MCP_SCHEMA_PAGE_IN "}}";

static const char query_output[] =
  "{\"type\":\"object\",\"required\":[\"handle\",\"columns\",\"rows\",\"returned\",\"truncated\",\"elapsed_ms\"],\"properties\":{"
  "\"handle\":{\"type\":\"string\"},"
  "\"columns\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
  "\"rows\":{\"type\":\"array\",\"items\":{\"type\":\"array\",\"items\":{\"type\":[\"integer\",\"number\",\"string\",\"null\"]}},"
  "\"description\":\"one array of cells per row, in the order of columns\"},"
  "\"elapsed_ms\":{\"type\":\"number\",\"description\":\"how long the query ran\"},"
  CHRONO_MCP_SCHEMA_PAGE_OUT "}}";

static JsonNode *
query (ChronoMcpContext  *ctx,
       JsonObject        *args,
       GString           *text,
       GError           **error)
{
  ChronoMcpEntry *entry = chrono_mcp_arg_entry (ctx, args, error);
  const char *sql = chrono_mcp_arg_string (args, "sql");
  g_auto(ChronoMcpScope) scope = { 0 };
  g_autoptr(ChronoMcpPage) page = NULL;
  g_autoptr(ChronoQuery) engine = NULL;
  g_autoptr(ChronoQueryResult) result = NULL;
  g_autofree char *next = NULL;
  ChronoMcpAnalysis *analysis = NULL;
  ChronoQueryLimits limits;
  guint64 offset;
  guint n_rows;
  guint64 r;
  JsonObject *out;
  JsonNode *node;
  JsonArray *columns;

  if (entry == NULL || (page = chrono_mcp_page_new (ctx, args, error)) == NULL ||
      !chrono_mcp_page_get_offset (page, &offset, error))
    return NULL;
  if (chrono_query_sql_reads_analysis (sql) &&
      (!chrono_mcp_scope_init (&scope, entry, args, error) ||
       (analysis = chrono_mcp_entry_get_analysis (entry, scope.key, scope.indices, scope.n_indices,
                                                  &scope.options, error)) == NULL))
    return NULL;
  /* A query of the trace alone runs on the entry's engine, whose indexes
   * are built once; one that reads the analysis, on an engine with it. */
  if (analysis != NULL)
    engine = chrono_query_new ((ChronoTrace * const *) entry->traces->pdata, entry->traces->len,
                               analysis->analysis, error);
  else if ((engine = chrono_mcp_entry_get_query (entry, error)) != NULL)
    g_object_ref (engine);
  if (engine == NULL)
    return NULL;

  /* The rows before this page, the page, and one more to know whether
   * more follow. */
  if (offset > G_MAXUINT - chrono_mcp_page_get_limit (page) - 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "the cursor is past any query's rows");
      return NULL;
    }
  limits.max_rows = (guint) offset + chrono_mcp_page_get_limit (page) + 1;
  limits.max_time_ms = chrono_mcp_arg_int_or (args, "max_time_ms", DEFAULT_TIME_MS);
  limits.max_time_ms = CLAMP (limits.max_time_ms, 1, MAX_TIME_MS);
  result = chrono_query_run (engine, sql, &limits, NULL, error);
  if (result == NULL)
    return NULL;

  n_rows = chrono_query_result_get_n_rows (result);
  node = json_node_new (JSON_NODE_OBJECT);
  out = json_object_new ();
  json_node_take_object (node, out);
  json_object_set_string_member (out, "handle", entry->handle);
  columns = json_array_new ();
  for (guint c = 0; c < chrono_query_result_get_n_columns (result); c++)
    json_array_add_string_element (columns, chrono_query_result_get_column_name (result, c));
  json_object_set_array_member (out, "columns", columns);
  json_object_set_double_member (out, "elapsed_ms", chrono_query_result_get_elapsed_ns (result) / 1e6);
  g_string_append_printf (text, "%u column%s", json_array_get_length (columns),
                          json_array_get_length (columns) == 1 ? "" : "s");
  for (r = offset; r < n_rows; r++)
    if (!chrono_mcp_page_add (page, chrono_query_result_row_to_json (result, (guint) r)))
      break;
  if (r < n_rows)
    next = chrono_mcp_page_offset_position (r);
  g_string_append_printf (text, ", %u row%s from row %" G_GUINT64_FORMAT " in %.1f ms",
                          chrono_mcp_page_get_n_rows (page), chrono_mcp_page_get_n_rows (page) == 1 ? "" : "s",
                          offset, chrono_query_result_get_elapsed_ns (result) / 1e6);
  chrono_mcp_page_finish (page, out, "rows", chrono_query_result_is_truncated (result) ? -1 : (gint64) n_rows,
                          next, text);
  return node;
}

static const ChronoMcpTool tools[] = {
  { "query", "Ask the trace in SQL",
    "Runs one read-only SQLite SELECT over an opened trace and returns its columns and rows (paged; "
    "at most max_time_ms). Times are integer nanoseconds on the trace's clock (start_ns of open_trace); "
    "several files opened together are ranks. Tables: "
    "spans(id, rank, track_id, ts, dur, ts_end, name, category, kind, depth, lane, parent_id, correlation) "
    "with kind one of host_op, python, annotation, step, runtime, driver, kernel, memcpy, memset, sync, "
    "collective, gpu_annotation, async, overhead, trace, instruction, dma, other; "
    "device_work(the same columns, launch_id, op_id, op_name): kernels, copies, sets, collectives, "
    "Neuron instructions and DMA with the runtime call that launched them and the operator around that call; "
    "tracks(id, rank, process_id, type, tid, name, display_name, n_spans, n_instants, n_samples); "
    "processes(id, rank, pid, name, display_name, is_device, device_index); "
    "ranks(rank, path, format, declared_rank, world_size, start_ns, end_ns, truncated); "
    "flows(id, type, from_id, to_id) with type flow, bind, launch, dependency or semaphore; "
    "counters(track_id, rank, name, ts, value); instants(track_id, rank, ts, name, category); "
    "and the analysis: findings(rank, rule, severity, title, start_ns, end_ns, time_lost_ns, recommendation, span_id), "
    "ledger(rank, device, step, start_ns, end_ns, state, ns), "
    "efficiency(rank, device, op, family, input_dims, calls, flops, bytes, gpu_time_ns, achieved_tflops, bound, roofline_ns, excess_ns), "
    "critical_path(rank, path, name, segment, category, start_ns, end_ns, span_id). "
    "Functions: args(id) is a span's args as JSON text, arg(id, key) one of them, "
    "ancestor(id, name) the nearest enclosing span of that name. Constraints on ts, ts_end, track_id, "
    "rank, id and name = '...' are searched, not scanned: for a window use ts < END AND ts_end > START. "
    "Writes, ATTACH and PRAGMAs that change settings are refused.",
    query_input, query_output, query },
};

const ChronoMcpTool *
chrono_mcp_query_tools (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (tools);
  return tools;
}
