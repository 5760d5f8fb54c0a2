/* chrono-mcp-tools-compare.c: compare, two opened traces side by side
 *
 * The structured content is the comparison's own JSON report (schema
 * "chronoscope.compare/1", docs/compare-schema.md), parsed: its summary
 * sections whole, and one of its tables at a time, paged.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>

#include "chrono-cli.h"
#include "chrono-format.h"
#include "chrono-mcp-page.h"
#include "chrono-mcp-scope.h"

/* The report's tables, which a call pages one at a time. */
static const char * const tables[] = { "ops", "kernels", "steps", "findings_diff", "efficiency", NULL };

static const char compare_input[] =
  "{\"type\":\"object\",\"additionalProperties\":false,\"required\":[\"a\",\"b\"],\"properties\":{"
  "\"a\":{\"type\":\"string\",\"description\":\"The baseline run: a handle open_trace returned (its first rank)\"},"
  "\"b\":{\"type\":\"string\",\"description\":\"The run compared with it: another handle\"},"
  "\"steps\":{\"type\":\"string\",\"description\":\"N:M: compare steps N to M (ProfilerStep numbers, else positions from 0) "
  "instead of leaving out warm-up and outliers\"},"
  "\"align\":{\"type\":\"string\",\"description\":\"step (the default when both have steps), marker:NAME (every span named NAME) "
  "or start (the whole traces)\"},"
  "\"table\":{\"type\":\"string\",\"enum\":[\"ops\",\"kernels\",\"steps\",\"findings_diff\",\"efficiency\"],"
  "\"description\":\"The table to return, paged (default ops: operators, largest change first)\"},"
  CHRONO_MCP_SCHEMA_PAGE_IN "}}";

static const char compare_output[] =
  "{\"type\":\"object\",\"required\":[\"a_handle\",\"b_handle\",\"schema\",\"align\",\"a\",\"b\",\"summary\",\"table\",\"tables\","
  "\"returned\",\"truncated\"],\"properties\":{"
  "\"a_handle\":{\"type\":\"string\"},\"b_handle\":{\"type\":\"string\"},"
  "\"schema\":{\"type\":\"string\",\"description\":\"the comparison report's schema, docs/compare-schema.md\"},"
  "\"align\":{\"type\":\"string\"},\"paired_by\":{\"type\":\"string\"},"
  "\"a\":{\"type\":\"object\"},\"b\":{\"type\":\"object\"},"
  "\"summary\":{\"type\":\"object\",\"description\":\"over the used steps: steps, a_ns, b_ns, delta_ns and its attribution to the ledger's states\"},"
  "\"first_divergence\":{\"type\":\"object\"},"
  "\"table\":{\"type\":\"string\",\"description\":\"the table this call returns, under its own name\"},"
  "\"tables\":{\"type\":\"object\",\"description\":\"rows of each table of the report\",\"additionalProperties\":{\"type\":\"integer\"}},"
  "\"ops\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}},"
  "\"kernels\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}},"
  "\"steps\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}},"
  "\"findings_diff\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}},"
  "\"efficiency\":{\"type\":\"array\",\"items\":{\"type\":\"object\"},\"description\":\"each side's efficiency per operator shape\"},"
  "\"devices\":{\"type\":\"object\",\"description\":\"a and b: each device of the side over the used steps\"},"
  CHRONO_MCP_SCHEMA_PAGE_OUT "}}";

/* The analysis of the whole of ENTRY, as compare analyses a file. */
static ChronoAnalysis *
whole_analysis (ChronoMcpEntry  *entry,
                GError         **error)
{
  g_autoptr(JsonObject) none = json_object_new ();
  g_auto(ChronoMcpScope) scope = { 0 };
  ChronoMcpAnalysis *a;

  if (!chrono_mcp_scope_init (&scope, entry, none, error) ||
      (a = chrono_mcp_entry_get_analysis (entry, scope.key, scope.indices, scope.n_indices, &scope.options, error)) == NULL)
    return NULL;
  return a->analysis;
}

static void
summarise (GString    *text,
           JsonObject *report)
{
  JsonObject *summary = json_object_get_object_member (report, "summary");
  gint64 a_ns = json_object_get_int_member_with_default (summary, "a_ns", 0);
  gint64 b_ns = json_object_get_int_member_with_default (summary, "b_ns", 0);
  gint64 steps = json_object_get_int_member_with_default (summary, "steps", 0);
  g_autofree char *a = chrono_format_duration (steps > 0 ? a_ns / steps : a_ns);
  g_autofree char *b = chrono_format_duration (steps > 0 ? b_ns / steps : b_ns);

  g_string_append_printf (text, "Aligned by %s over %" G_GINT64_FORMAT " %s: A %s, B %s%s",
                          json_object_get_string_member_with_default (report, "align", "?"), steps,
                          steps == 1 ? "window" : "windows", a, b, steps > 1 ? " per window" : "");
  if (a_ns > 0)
    g_string_append_printf (text, " (B %+.1f%%)", 100.0 * (b_ns - a_ns) / a_ns);
  if (json_object_has_member (summary, "attribution"))
    {
      JsonObject *attribution = json_object_get_object_member (summary, "attribution");
      g_autoptr(GList) states = json_object_get_members (attribution);

      g_string_append_printf (text, "; B − A over the %s by state:", steps == 1 ? "window" : "windows");
      for (GList *l = states; l; l = l->next)
        {
          gint64 ns = json_object_get_int_member (attribution, l->data);
          g_autofree char *d = chrono_format_duration (ns < 0 ? -ns : ns);

          if (ns != 0)
            g_string_append_printf (text, " %s %s%s", (const char *) l->data, ns < 0 ? "-" : "+", d);
        }
    }
}

static JsonNode *
compare (ChronoMcpContext  *ctx,
         JsonObject        *args,
         GString           *text,
         GError           **error)
{
  const char *handles[2] = { chrono_mcp_arg_string (args, "a"), chrono_mcp_arg_string (args, "b") };
  const char *steps = chrono_mcp_arg_string (args, "steps");
  const char *align = chrono_mcp_arg_string (args, "align");
  const char *table = chrono_mcp_arg_string (args, "table");
  ChronoAnalysis *analyses[2];
  g_autoptr(ChronoMcpPage) page = NULL;
  g_autofree char *key = NULL;
  g_autofree char *next = NULL;
  ChronoCompareOptions options;
  JsonObject *report, *out, *counts;
  JsonArray *rows;
  JsonNode *result;
  guint64 offset;
  guint n;

  if (table == NULL)
    table = tables[0];
  chrono_compare_options_init (&options);
  if (steps != NULL && !chrono_cli_compare_parse_steps (steps, &options))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "steps wants N:M, N at most M, not “%s”", steps);
      return NULL;
    }
  if (align != NULL && !chrono_cli_compare_parse_align (align, &options))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "align wants step, start or marker:NAME, not “%s”", align);
      return NULL;
    }
  if ((page = chrono_mcp_page_new (ctx, args, error)) == NULL ||
      !chrono_mcp_page_get_offset (page, &offset, error))
    return NULL;
  /* handles are never given twice, so the key names one comparison */
  key = g_strdup_printf ("%s\n%s\n%s\n%s", handles[0], handles[1], steps ? steps : "", align ? align : "");
  for (guint i = 0; i < 2; i++)
    {
      ChronoMcpEntry *entry = chrono_mcp_cache_lookup (ctx->cache, handles[i], error);

      if (entry == NULL ||
          (g_strcmp0 (key, ctx->comparison_key) != 0 && (analyses[i] = whole_analysis (entry, error)) == NULL))
        return NULL;
    }
  if (g_strcmp0 (key, ctx->comparison_key) != 0)
    {
      g_autoptr(ChronoComparison) comparison = chrono_comparison_run (analyses[0], analyses[1], &options, NULL, error);
      g_autofree char *json = NULL;
      JsonNode *parsed;

      if (comparison == NULL)
        return NULL;
      json = chrono_comparison_to_json (comparison);
      if ((parsed = json_from_string (json, error)) == NULL)
        return NULL;
      g_clear_pointer (&ctx->comparison, json_node_unref);
      ctx->comparison = parsed;
      g_free (ctx->comparison_key);
      ctx->comparison_key = g_steal_pointer (&key);
    }
  report = json_node_get_object (ctx->comparison);

  result = json_node_new (JSON_NODE_OBJECT);
  out = json_object_new ();
  json_node_take_object (result, out);
  json_object_set_string_member (out, "a_handle", handles[0]);
  json_object_set_string_member (out, "b_handle", handles[1]);
  counts = json_object_new ();
  {
    g_autoptr(GList) members = json_object_get_members (report);

    for (GList *l = members; l; l = l->next)
      {
        JsonNode *member = json_object_get_member (report, l->data);

        /* The flame graph's tree is for pictures, and larger than all
         * the rest: compare --format json has it. */
        if (g_str_equal (l->data, "flame"))
          continue;
        if (g_strv_contains ((const char * const *) tables, l->data) && JSON_NODE_HOLDS_ARRAY (member))
          json_object_set_int_member (counts, l->data, json_array_get_length (json_node_get_array (member)));
        else
          json_object_set_member (out, l->data, json_node_copy (member));
      }
  }
  json_object_set_object_member (out, "tables", counts);
  json_object_set_string_member (out, "table", table);

  rows = json_object_has_member (report, table) ? json_object_get_array_member (report, table) : NULL;
  n = rows ? json_array_get_length (rows) : 0;
  for (guint64 i = offset; i < n; i++)
    if (!chrono_mcp_page_add (page, json_node_copy (json_array_get_element (rows, i))))
      {
        next = chrono_mcp_page_offset_position (i);
        break;
      }

  g_string_append_printf (text, "%s against %s: ", handles[1], handles[0]);
  summarise (text, report);
  g_string_append_printf (text, "\nTable %s (others: the table argument), from row %" G_GUINT64_FORMAT ":",
                          table, offset);
  /* the operators and kernels that changed most, per window */
  for (guint64 i = offset; i < n && i < offset + MIN (5, chrono_mcp_page_get_n_rows (page)); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);

      if (json_object_has_member (row, "delta_ns") && json_object_has_member (row, "name"))
        {
          gint64 delta = json_object_get_int_member (row, "delta_ns");
          g_autofree char *d = chrono_format_duration (delta < 0 ? -delta : delta);

          g_string_append_printf (text, "\n- %s: %s%s a window", json_object_get_string_member (row, "name"),
                                  delta < 0 ? "-" : "+", d);
        }
    }
  chrono_mcp_page_finish (page, out, table, n, next, text);
  return result;
}

static const ChronoMcpTool tools[] = {
  { "compare", "Compare two runs",
    "Compares two opened traces (the first rank of each) as chronoscope-cli compare --format json does: "
    "their steps aligned by ProfilerStep number (or a marker span, or the whole traces), the step-time "
    "difference attributed to the ledger's states (compute, communication, copy, kinds of idle), and "
    "each device's busy, compute and communication time, and tables of operators and kernels by "
    "change with their noise, of the steps paired, of the findings that appeared or went, and of each side's efficiency per operator shape. The summary comes whole; one table a call, paged (table, limit, cursor).",
    compare_input, compare_output, compare },
};

const ChronoMcpTool *
chrono_mcp_compare_tools (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (tools);
  return tools;
}
