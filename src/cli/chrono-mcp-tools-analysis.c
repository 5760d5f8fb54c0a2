/* chrono-mcp-tools-analysis.c: analyze, critical_path and memory, from the analysis report
 *
 * The structured content is the analysis' own JSON report (schema
 * "chronoscope.analysis/N", docs/analysis-schema.md), parsed, so that what
 * the analysis adds to it reaches agents without changes here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>

#include "chrono-format.h"
#include "chrono-mcp-page.h"
#include "chrono-mcp-scope.h"
#include "chrono-mcp-spans.h"
#include "chrono-profiler-overlap.h"

/* Steps listed beside one step's path. */
#define MAX_STEPS_LISTED 200

static const char analyze_input[] =
  "{\"type\":\"object\",\"additionalProperties\":false,\"required\":[\"handle\"],\"properties\":{"
  CHRONO_MCP_SCHEMA_HANDLE "," CHRONO_MCP_SCHEMA_SCOPE_IN "," CHRONO_MCP_SCHEMA_PAGE_IN "}}";

static const char analyze_output[] =
  "{\"type\":\"object\",\"required\":[\"handle\",\"schema\",\"traces\",\"breakdown\",\"critical_path\",\"findings\",\"returned\",\"truncated\"],"
  "\"properties\":{"
  "\"handle\":{\"type\":\"string\"},"
  "\"window\":{\"type\":\"object\",\"properties\":{\"start_ns\":{\"type\":\"integer\"},\"end_ns\":{\"type\":\"integer\"},\"step\":{\"type\":\"string\"}}},"
  "\"schema\":{\"type\":\"string\",\"description\":\"the analysis report's schema, docs/analysis-schema.md\"},"
  "\"traces\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}},"
  "\"breakdown\":{\"type\":\"array\",\"items\":{\"type\":\"object\"},\"description\":\"per device, then its streams\"},"
  "\"critical_path\":{\"type\":\"array\",\"items\":{\"type\":\"object\"},\"description\":\"per step\"},"
  "\"profiler_overlap\":{\"type\":\"array\",\"items\":{\"type\":\"object\"},\"description\":\"per device whose "
  "trace holds its profiler's own overlap analysis (Ascend NPU): theirs beside our ledger over their window\"},"
  "\"efficiency_rows\":{\"type\":\"integer\",\"description\":\"the report's operator efficiency rows, which top_operators gives with each operator\"},"
  "\"findings\":{\"type\":\"array\",\"description\":\"most costly first\",\"items\":{\"type\":\"object\",\"required\":[\"rule\",\"title\"],"
  "\"properties\":{\"rule\":{\"type\":\"string\"},\"severity\":{\"type\":\"string\"},\"title\":{\"type\":\"string\"},"
  "\"recommendation\":{\"type\":\"string\"}}}},"
  CHRONO_MCP_SCHEMA_PAGE_OUT "}}";

static const char path_input[] =
  "{\"type\":\"object\",\"additionalProperties\":false,\"required\":[\"handle\"],\"properties\":{"
  CHRONO_MCP_SCHEMA_HANDLE ","
  "\"step\":{\"type\":[\"string\",\"integer\"],\"description\":\"The step: its number (12) or name (ProfilerStep#12); default: the longest\"},"
  "\"rank\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"The rank whose step it is (default: any)\"},"
  CHRONO_MCP_SCHEMA_PAGE_IN "}}";

static const char path_output[] =
  "{\"type\":\"object\",\"required\":[\"handle\",\"step\",\"trace\",\"start_ns\",\"end_ns\",\"total_ns\",\"by_category\",\"stretches\",\"steps\",\"returned\",\"truncated\"],"
  "\"properties\":{"
  "\"handle\":{\"type\":\"string\"},\"step\":{\"type\":\"string\"},\"trace\":{\"type\":\"integer\"},\"rank\":{\"type\":\"integer\"},"
  "\"start_ns\":{\"type\":\"integer\"},\"end_ns\":{\"type\":\"integer\"},\"total_ns\":{\"type\":\"integer\"},"
  "\"by_category\":{\"type\":\"object\",\"description\":\"ns per category, as the analysis report gives them\"},"
  "\"stretches\":{\"type\":\"array\",\"description\":\"the path in time order\",\"items\":{\"type\":\"object\","
  "\"required\":[\"category\",\"start_ns\",\"end_ns\",\"dur_ns\"],\"properties\":{"
  "\"category\":{\"type\":\"string\"},\"start_ns\":{\"type\":\"integer\"},\"end_ns\":{\"type\":\"integer\"},\"dur_ns\":{\"type\":\"integer\"},"
  "\"span\":" CHRONO_MCP_SCHEMA_SPAN "}}},"
  "\"steps\":{\"type\":\"array\",\"description\":\"every step's path: step, trace, total_ns\",\"items\":{\"type\":\"object\","
  "\"properties\":{\"step\":{\"type\":\"string\"},\"trace\":{\"type\":\"integer\"},\"total_ns\":{\"type\":\"integer\"}}}},"
  CHRONO_MCP_SCHEMA_PAGE_OUT "}}";

static const char memory_input[] =
  "{\"type\":\"object\",\"additionalProperties\":false,\"required\":[\"handle\"],\"properties\":{"
  CHRONO_MCP_SCHEMA_HANDLE "," CHRONO_MCP_SCHEMA_SCOPE_IN "}}";

static const char memory_output[] =
  "{\"type\":\"object\",\"required\":[\"handle\",\"devices\",\"findings\",\"notes\"],"
  "\"properties\":{"
  "\"handle\":{\"type\":\"string\"},"
  "\"devices\":{\"type\":\"array\",\"description\":\"per device and the host: peak_allocated_bytes, peak_ns, "
  "reserved_at_peak_bytes, live_at_peak (by_operator, by_module, by_category, largest), steps; "
  "the analysis report's memory member, docs/analysis-schema.md\",\"items\":{\"type\":\"object\","
  "\"required\":[\"device\",\"peak_allocated_bytes\",\"peak_ns\"],\"properties\":{"
  "\"device\":{\"type\":\"string\"},\"peak_allocated_bytes\":{\"type\":\"integer\"},\"peak_ns\":{\"type\":\"integer\"}}}},"
  "\"findings\":{\"type\":\"array\",\"description\":\"leaks, fragmentation, a full device, large temporaries: "
  "they cost no time, ranked on a scale of their own\",\"items\":{\"type\":\"object\"}},"
  "\"notes\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"description\":\"what the memory events leave unknown\"}}}";

static ChronoMcpAnalysis *
scoped_analysis (ChronoMcpEntry  *entry,
                 ChronoMcpScope  *scope,
                 GError         **error)
{
  return chrono_mcp_entry_get_analysis (entry, scope->key, scope->indices, scope->n_indices, &scope->options, error);
}

static void
summarise_findings (GString   *text,
                    JsonArray *findings,
                    guint      total)
{
  guint n = MIN (json_array_get_length (findings), 5);

  g_string_append_printf (text, "%u %s", total, total == 1 ? "finding" : "findings");
  if (n > 0)
    g_string_append (text, ", most costly first:");
  for (guint i = 0; i < n; i++)
    {
      JsonObject *f = json_array_get_object_element (findings, i);

      g_string_append_printf (text, "\n- [%s] %s",
                              json_object_get_string_member_with_default (f, "severity", "?"),
                              json_object_get_string_member_with_default (f, "title", ""));
    }
}

static void
summarise_devices (GString   *text,
                   JsonArray *breakdown)
{
  for (guint i = 0; i < json_array_get_length (breakdown); i++)
    {
      JsonObject *row = json_array_get_object_element (breakdown, i);
      gint64 busy = json_object_get_int_member_with_default (row, "busy_ns", 0);
      gint64 window = json_object_get_int_member_with_default (row, "end_ns", 0) -
                      json_object_get_int_member_with_default (row, "start_ns", 0);

      if (g_strcmp0 (json_object_get_string_member_with_default (row, "scope", NULL), "device") != 0 || window <= 0)
        continue;
      g_string_append_printf (text, "\nTrace %" G_GINT64_FORMAT ", device %" G_GINT64_FORMAT ": busy %.1f%% of its window",
                              json_object_get_int_member_with_default (row, "trace", 0),
                              json_object_get_int_member_with_default (row, "device", -1), 100.0 * busy / window);
    }
}

/* What the report says the trace lacks, and what each device could
 * recover, for reports that have them. */
static void
summarise_report (GString    *text,
                  JsonObject *report)
{
  JsonArray *limitations = json_object_has_member (report, "limitations")
                           ? json_object_get_array_member (report, "limitations") : NULL;
  JsonArray *ledger = json_object_has_member (report, "ledger")
                      ? json_object_get_array_member (report, "ledger") : NULL;

  for (guint i = 0; limitations && i < json_array_get_length (limitations); i++)
    {
      JsonNode *row = json_array_get_element (limitations, i);

      if (JSON_NODE_HOLDS_OBJECT (row))
        g_string_append_printf (text, "\nNot shown by the trace: %s",
                                json_object_get_string_member_with_default (json_node_get_object (row), "message", ""));
    }
  for (guint i = 0; ledger && i < json_array_get_length (ledger); i++)
    {
      JsonObject *row = json_array_get_object_element (ledger, i);
      g_autofree char *recoverable = NULL;

      if (row == NULL || json_object_has_member (row, "step") || !json_object_has_member (row, "recoverable_ns"))
        continue;
      recoverable = chrono_format_duration (json_object_get_int_member (row, "recoverable_ns"));
      g_string_append_printf (text, "\n%s (trace %" G_GINT64_FORMAT "): the findings could recover %s",
                              json_object_get_string_member_with_default (row, "device_name", "a device"),
                              json_object_get_int_member_with_default (row, "trace", 0), recoverable);
    }
}

/* The profiler's own split of each device's time beside our ledger, in
 * the words the app and the report use. */
static void
summarise_overlap (GString        *text,
                   ChronoAnalysis *analysis)
{
  g_autoptr(GArray) overlaps = chrono_profiler_overlap_find (analysis);

  for (guint i = 0; i < overlaps->len; i++)
    {
      g_autofree char *line = chrono_profiler_overlap_describe (&g_array_index (overlaps, ChronoProfilerOverlap, i));

      g_string_append_printf (text, "\n%s", line);
    }
}

static JsonNode *
analyze (ChronoMcpContext  *ctx,
         JsonObject        *args,
         GString           *text,
         GError           **error)
{
  ChronoMcpEntry *entry = chrono_mcp_arg_entry (ctx, args, error);
  g_auto(ChronoMcpScope) scope = { 0 };
  g_autoptr(ChronoMcpPage) page = NULL;
  g_autofree char *next = NULL;
  ChronoMcpAnalysis *a;
  JsonObject *report, *out;
  JsonArray *findings;
  JsonNode *result;
  guint64 offset;
  guint n;

  if (entry == NULL || !chrono_mcp_scope_init (&scope, entry, args, error) ||
      (page = chrono_mcp_page_new (ctx, args, error)) == NULL ||
      !chrono_mcp_page_get_offset (page, &offset, error) ||
      (a = scoped_analysis (entry, &scope, error)) == NULL)
    return NULL;

  report = json_node_get_object (a->report);
  findings = json_object_get_array_member (report, "findings");
  n = json_array_get_length (findings);
  result = json_node_new (JSON_NODE_OBJECT);
  out = json_object_new ();
  json_node_take_object (result, out);
  json_object_set_string_member (out, "handle", entry->handle);
  if (scope.options.range_end_ns > scope.options.range_start_ns)
    {
      JsonObject *window = json_object_new ();

      json_object_set_int_member (window, "start_ns", scope.options.range_start_ns);
      json_object_set_int_member (window, "end_ns", scope.options.range_end_ns);
      if (scope.step)
        json_object_set_string_member (window, "step", scope.step);
      json_object_set_object_member (out, "window", window);
    }
  {
    g_autoptr(GList) members = json_object_get_members (report);

    for (GList *l = members; l; l = l->next)
      if (g_strcmp0 (l->data, "findings") != 0 && g_strcmp0 (l->data, "efficiency") != 0)
        json_object_set_member (out, l->data, json_node_copy (json_object_get_member (report, l->data)));
    /* one row per operator, shape and device: top_operators gives them
     * with each operator, paged */
    if (json_object_has_member (report, "efficiency") &&
        JSON_NODE_HOLDS_ARRAY (json_object_get_member (report, "efficiency")))
      json_object_set_int_member (out, "efficiency_rows",
                                  json_array_get_length (json_object_get_array_member (report, "efficiency")));
  }

  {
    /* the sections besides the findings are one row per device, stream
     * and step: bounded only by narrowing the scope */
    g_autofree char *rest = json_to_string (result, FALSE);

    if (strlen (rest) > ctx->max_bytes)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                     "the report of handle “%s” is %" G_GSIZE_FORMAT " KB before its findings, over the %" G_GSIZE_FORMAT
                     " KB a call may return: narrow the query to one rank, one step or a window (start_ns, end_ns)",
                     entry->handle, strlen (rest) / 1024, ctx->max_bytes / 1024);
        json_node_unref (result);
        return NULL;
      }
  }

  for (guint64 i = offset; i < n; i++)
    if (!chrono_mcp_page_add (page, json_node_copy (json_array_get_element (findings, i))))
      {
        next = chrono_mcp_page_offset_position (i);
        break;
      }

  if (scope.step)
    g_string_append_printf (text, "Handle %s, %s: ", entry->handle, scope.step);
  else if (scope.options.range_end_ns > scope.options.range_start_ns)
    g_string_append_printf (text, "Handle %s, %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT " ns: ", entry->handle,
                            scope.options.range_start_ns, scope.options.range_end_ns);
  else
    g_string_append_printf (text, "Handle %s: ", entry->handle);
  {
    g_autoptr(JsonArray) shown = json_array_new ();

    for (guint64 i = offset; i < n && i < offset + MIN (5, chrono_mcp_page_get_limit (page)); i++)
      json_array_add_element (shown, json_node_copy (json_array_get_element (findings, i)));
    summarise_findings (text, shown, n);
  }
  summarise_devices (text, json_object_get_array_member (report, "breakdown"));
  summarise_report (text, report);
  summarise_overlap (text, a->analysis);
  chrono_mcp_page_finish (page, out, "findings", n, next, text);
  return result;
}

/* The report's entry for path INDEX: the two list the same paths in the
 * same order. */
static JsonObject *
report_path (ChronoMcpAnalysis *a,
             guint              index)
{
  JsonArray *paths = json_object_get_array_member (json_node_get_object (a->report), "critical_path");

  return index < json_array_get_length (paths) ? json_array_get_object_element (paths, index) : NULL;
}

static JsonNode *
critical_path (ChronoMcpContext  *ctx,
               JsonObject        *args,
               GString           *text,
               GError           **error)
{
  ChronoMcpEntry *entry = chrono_mcp_arg_entry (ctx, args, error);
  g_autoptr(JsonObject) rank_only = json_object_new ();
  g_auto(ChronoMcpScope) scope = { 0 };
  g_autoptr(ChronoMcpPage) page = NULL;
  g_autofree char *wanted = chrono_mcp_step_arg (args);
  g_autofree char *next = NULL;
  const ChronoCriticalPath *path = NULL;
  JsonObject *out, *entry_json;
  JsonArray *steps;
  JsonNode *result;
  ChronoMcpAnalysis *a;
  guint64 offset;
  guint chosen = 0;

  if (entry == NULL)
    return NULL;
  /* the whole steps: a window would cut them */
  if (json_object_has_member (args, "rank"))
    json_object_set_member (rank_only, "rank", json_node_copy (json_object_get_member (args, "rank")));
  if (!chrono_mcp_scope_init (&scope, entry, rank_only, error) ||
      (page = chrono_mcp_page_new (ctx, args, error)) == NULL ||
      !chrono_mcp_page_get_offset (page, &offset, error) ||
      (a = scoped_analysis (entry, &scope, error)) == NULL)
    return NULL;

  steps = json_array_new ();
  for (guint i = 0; i < chrono_analysis_get_n_paths (a->analysis); i++)
    {
      const ChronoCriticalPath *p = chrono_analysis_get_path (a->analysis, i);

      if (i < MAX_STEPS_LISTED)
        {
          JsonObject *s = json_object_new ();

          json_object_set_string_member (s, "step", p->name);
          json_object_set_int_member (s, "trace", scope.indices[p->trace]);
          json_object_set_int_member (s, "total_ns", p->total_ns);
          json_array_add_object_element (steps, s);
        }
      if (wanted ? path == NULL && chrono_mcp_step_matches (p->name, wanted)
                 : path == NULL || p->total_ns > path->total_ns)
        {
          path = p;
          chosen = i;
        }
    }
  if (path == NULL)
    {
      json_array_unref (steps);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "handle “%s” has no critical path for step “%s”: the steps list of a call without step "
                   "says which there are", entry->handle, wanted);
      return NULL;
    }
  entry_json = report_path (a, chosen);

  result = json_node_new (JSON_NODE_OBJECT);
  out = json_object_new ();
  json_node_take_object (result, out);
  json_object_set_string_member (out, "handle", entry->handle);
  json_object_set_string_member (out, "step", path->name);
  json_object_set_int_member (out, "trace", scope.indices[path->trace]);
  json_object_set_int_member (out, "rank",
                              chrono_trace_get_rank (chrono_analysis_get_trace (a->analysis, path->trace)));
  json_object_set_int_member (out, "start_ns", path->start_ns);
  json_object_set_int_member (out, "end_ns", path->end_ns);
  json_object_set_int_member (out, "total_ns", path->total_ns);
  json_object_set_member (out, "by_category",
                          entry_json && json_object_has_member (entry_json, "by_category")
                          ? json_node_copy (json_object_get_member (entry_json, "by_category"))
                          : json_from_string ("{}", NULL));
  json_object_set_array_member (out, "steps", steps);

  for (guint64 i = offset; i < path->n_segments; i++)
    {
      const ChronoPathSegment *seg = &path->segments[i];
      JsonObject *row = json_object_new ();
      JsonNode *node = json_node_init_object (json_node_alloc (), row);

      json_object_set_string_member (row, "category", chrono_path_category_to_string (seg->category));
      json_object_set_int_member (row, "start_ns", seg->start_ns);
      json_object_set_int_member (row, "end_ns", seg->end_ns);
      json_object_set_int_member (row, "dur_ns", seg->end_ns - seg->start_ns);
      if (seg->has_node)
        json_object_set_member (row, "span", chrono_mcp_span_row (entry, scope.indices[seg->node.trace], seg->node.span));
      json_object_unref (row);
      if (!chrono_mcp_page_add (page, node))
        {
          next = chrono_mcp_page_offset_position (i);
          break;
        }
    }

  {
    g_autofree char *total = chrono_format_duration (path->total_ns);

    g_string_append_printf (text, "Critical path of %s (trace %u): %s in %u stretches;", path->name,
                            scope.indices[path->trace], total, path->n_segments);
    for (guint c = 0; c < CHRONO_N_PATH_CATEGORIES; c++)
      if (path->by_category[c] > 0 && path->total_ns > 0)
        g_string_append_printf (text, " %s %.1f%%", chrono_path_category_to_string (c),
                                100.0 * path->by_category[c] / path->total_ns);
  }
  chrono_mcp_page_finish (page, out, "stretches", path->n_segments, next, text);
  return result;
}

static JsonNode *
memory (ChronoMcpContext  *ctx,
        JsonObject        *args,
        GString           *text,
        GError           **error)
{
  ChronoMcpEntry *entry = chrono_mcp_arg_entry (ctx, args, error);
  g_auto(ChronoMcpScope) scope = { 0 };
  ChronoMcpAnalysis *a;
  JsonObject *report, *out;
  JsonArray *devices, *notes;
  JsonNode *result;

  if (entry == NULL || !chrono_mcp_scope_init (&scope, entry, args, error) ||
      (a = scoped_analysis (entry, &scope, error)) == NULL)
    return NULL;
  report = json_object_get_object_member (json_node_get_object (a->report), "memory");
  result = json_node_new (JSON_NODE_OBJECT);
  out = json_object_new ();
  json_node_take_object (result, out);
  json_object_set_string_member (out, "handle", entry->handle);
  for (const char * const *m = (const char * const[]) { "devices", "findings", "notes", NULL }; *m != NULL; m++)
    json_object_set_member (out, *m, json_node_copy (json_object_get_member (report, *m)));

  devices = json_object_get_array_member (report, "devices");
  notes = json_object_get_array_member (report, "notes");
  g_string_append_printf (text, "Handle %s: memory of %u %s.", entry->handle, json_array_get_length (devices),
                          json_array_get_length (devices) == 1 ? "device" : "devices");
  for (guint i = 0; i < json_array_get_length (devices); i++)
    {
      JsonObject *d = json_array_get_object_element (devices, i);
      g_autofree char *peak = chrono_format_bytes (json_object_get_int_member (d, "peak_allocated_bytes"));
      JsonNode *live = json_object_get_member (d, "live_at_peak");
      JsonArray *ops = JSON_NODE_HOLDS_OBJECT (live) ? json_object_get_array_member (json_node_get_object (live), "by_operator") : NULL;

      g_string_append_printf (text, "\n%s: peak %s at %" G_GINT64_FORMAT " ns", json_object_get_string_member (d, "device"),
                              peak, json_object_get_int_member (d, "peak_ns"));
      for (guint k = 0; ops != NULL && k < MIN (json_array_get_length (ops), 3); k++)
        {
          JsonObject *g = json_array_get_object_element (ops, k);
          g_autofree char *bytes = chrono_format_bytes (json_object_get_int_member (g, "bytes"));

          g_string_append_printf (text, "%s %s %s", k == 0 ? "; alive then:" : ",", bytes,
                                  json_object_get_string_member_with_default (g, "operator", NULL) ?: "outside any operator");
        }
    }
  for (guint i = 0; i < json_array_get_length (notes); i++)
    g_string_append_printf (text, "\n%s", json_array_get_string_element (notes, i));
  return result;
}

static const ChronoMcpTool tools[] = {
  { "analyze", "Find the bottlenecks",
    "Runs Chronoscope's analysis on an opened trace, optionally over a window (start_ns/end_ns), one "
    "step or one rank: the bottleneck findings with the time each loses and what to try, the time "
    "breakdown of each device and stream, and the critical path of each step, as the analysis report "
    "(chronoscope-cli analyze --format json) gives them. Findings are paged; the operator efficiency "
    "rows come with top_operators.",
    analyze_input, analyze_output, analyze },
  { "critical_path", "Critical path of a step",
    "The longest dependency chain through one profiler step (the longest step when none is named): "
    "its stretches in time order, each with its category (host compute, device compute, communication, "
    "memcpy, launch or kernel overhead, idle) and the span that made it (with its integer id, the query "
    "tool's spans.id, for span_details), and the time per category.",
    path_input, path_output, critical_path },
  { "memory", "Memory peak and what held it",
    "Each device's (and the host's) memory from the profiler's memory events (profile_memory=True), "
    "optionally over a window, one step or one rank: the peak allocated bytes and when, the reserved "
    "bytes then, what was alive at the peak by operator, nn.Module and category, the largest "
    "allocations, each step's start, end and peak, and findings on leaks, fragmentation, a full "
    "device and large temporaries.",
    memory_input, memory_output, memory },
};

const ChronoMcpTool *
chrono_mcp_analysis_tools (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (tools);
  return tools;
}
