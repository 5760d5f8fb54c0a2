/* chrono-mcp-tools-top.c: top_operators and top_kernels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>

#include "chrono-format.h"
#include "chrono-mcp-page.h"
#include "chrono-mcp-scope.h"
#include "chrono-mcp-spans.h"

/* Past this many depth slots a track's self times are not worked out. */
#define MAX_NESTING_SLOTS (1u << 24)

static const char top_input[] =
  "{\"type\":\"object\",\"additionalProperties\":false,\"required\":[\"handle\"],\"properties\":{"
  CHRONO_MCP_SCHEMA_HANDLE "," CHRONO_MCP_SCHEMA_SCOPE_IN ","
  "\"sort\":{\"enum\":[\"time\",\"count\"],\"description\":\"time: most total time first (default); count: most calls first\"},"
  CHRONO_MCP_SCHEMA_PAGE_IN "}}";

static const char top_output[] =
  "{\"type\":\"object\",\"required\":[\"handle\",\"rows\",\"all_ns\",\"returned\",\"total\",\"truncated\"],\"properties\":{"
  "\"handle\":{\"type\":\"string\"},"
  "\"window\":{\"type\":\"object\",\"properties\":{\"start_ns\":{\"type\":\"integer\"},\"end_ns\":{\"type\":\"integer\"},\"step\":{\"type\":\"string\"}}},"
  "\"all_ns\":{\"type\":\"integer\",\"description\":\"time of every span counted, summed\"},"
  "\"rows\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"required\":[\"name\",\"count\",\"total_ns\",\"mean_ns\",\"min_ns\",\"max_ns\",\"share\"],"
  "\"properties\":{\"name\":{\"type\":\"string\"},\"short_name\":{\"type\":\"string\"},\"kinds\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
  "\"count\":{\"type\":\"integer\"},\"total_ns\":{\"type\":\"integer\",\"description\":\"summed durations, cut to the window\"},"
  "\"self_ns\":{\"type\":\"integer\",\"description\":\"total_ns less the time of the spans nested directly inside (operators only)\"},"
  "\"mean_ns\":{\"type\":\"integer\"},\"min_ns\":{\"type\":\"integer\"},\"max_ns\":{\"type\":\"integer\"},"
  "\"share\":{\"type\":\"number\",\"description\":\"total_ns over all_ns\"},"
  "\"efficiency\":{\"type\":\"array\",\"items\":{\"type\":\"object\"},\"description\":\"operators only, where the trace "
  "records shapes: the analysis report's efficiency rows of this operator (one per shape and device: FLOPs, bytes, "
  "achieved TFLOP/s and TB/s, roofline share, bound)\"}}}},"
  CHRONO_MCP_SCHEMA_PAGE_OUT "}}";

typedef struct {
  const char *name;
  guint32     kinds;      /* mask of ChronoKind */
  guint64     count;
  gint64      total, self, min, max;
} Row;

typedef struct {
  guint32  kinds;         /* what is counted */
  gboolean self_time;
  gboolean efficiency;    /* the analysis report's efficiency rows of each name */
  gboolean by_count;
} Top;

/* The report's efficiency rows by operator ("op"), copied. */
static GHashTable *
efficiency_by_op (ChronoMcpAnalysis *a)
{
  JsonObject *report = json_node_get_object (a->report);
  GHashTable *by_op = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) json_array_unref);
  JsonArray *rows = json_object_has_member (report, "efficiency") &&
                    JSON_NODE_HOLDS_ARRAY (json_object_get_member (report, "efficiency"))
                    ? json_object_get_array_member (report, "efficiency") : NULL;

  for (guint i = 0; rows && i < json_array_get_length (rows); i++)
    {
      JsonNode *row = json_array_get_element (rows, i);
      const char *op = JSON_NODE_HOLDS_OBJECT (row)
                       ? json_object_get_string_member_with_default (json_node_get_object (row), "op", NULL) : NULL;
      JsonArray *list;

      if (op == NULL)
        continue;
      list = g_hash_table_lookup (by_op, op);
      if (list == NULL)
        g_hash_table_insert (by_op, g_strdup (op), list = json_array_new ());
      json_array_add_element (list, json_node_copy (row));
    }
  return by_op;
}

static gint64
clipped (const ChronoMcpScope *scope,
         gint64                start,
         gint64                end)
{
  if (scope->options.range_end_ns > scope->options.range_start_ns)
    {
      start = MAX (start, scope->options.range_start_ns);
      end = MIN (end, scope->options.range_end_ns);
    }
  return MAX (end - start, 0);
}

/* The time of the spans nested directly inside each span of TRACK. */
static gint64 *
children_time (const ChronoTrack    *track,
               const ChronoMcpScope *scope)
{
  gsize slots = (gsize) MAX (track->n_lanes, 1) * (track->max_depth + 1);
  g_autofree guint32 *open = NULL;
  gint64 *children;

  if (track->type != CHRONO_TRACK_THREAD || slots > MAX_NESTING_SLOTS)
    return NULL;
  open = g_new (guint32, slots);
  children = g_new0 (gint64, track->n_spans);
  for (guint32 i = 0; i < track->n_spans; i++)
    {
      gsize base = (gsize) track->lane[i] * (track->max_depth + 1);

      open[base + track->depth[i]] = i;
      if (track->depth[i] > 0)
        children[open[base + track->depth[i] - 1]] +=
          clipped (scope, track->start[i], chrono_track_get_end (track, i));
    }
  return children;
}

static gint
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const Row *x = *(const Row * const *) a, *y = *(const Row * const *) b;
  const Top *top = user_data;

  if (top->by_count && x->count != y->count)
    return x->count > y->count ? -1 : 1;
  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return strcmp (x->name, y->name);
}

static JsonNode *
top (ChronoMcpContext  *ctx,
     JsonObject        *args,
     GString           *text,
     Top               *how,
     GError           **error)
{
  ChronoMcpEntry *entry = chrono_mcp_arg_entry (ctx, args, error);
  g_auto(ChronoMcpScope) scope = { 0 };
  g_autoptr(ChronoMcpPage) page = NULL;
  g_autoptr(GHashTable) by_name = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GHashTable) efficiency = NULL;
  g_autofree char *next = NULL;
  gint64 all = 0;
  guint64 offset;
  JsonObject *out;
  JsonNode *result;

  if (entry == NULL || !chrono_mcp_scope_init (&scope, entry, args, error) ||
      (page = chrono_mcp_page_new (ctx, args, error)) == NULL ||
      !chrono_mcp_page_get_offset (page, &offset, error))
    return NULL;
  how->by_count = g_strcmp0 (chrono_mcp_arg_string (args, "sort"), "count") == 0;
  if (how->efficiency)
    {
      ChronoMcpAnalysis *a = chrono_mcp_entry_get_analysis (entry, scope.key, scope.indices, scope.n_indices,
                                                            &scope.options, error);

      if (a == NULL)
        return NULL;
      efficiency = efficiency_by_op (a);
    }

  for (guint n = 0; n < scope.n_indices; n++)
    {
      ChronoTrace *trace = g_ptr_array_index (entry->traces, scope.indices[n]);

      for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
        {
          const ChronoTrack *track = chrono_trace_get_track (trace, t);
          g_autofree gint64 *children = how->self_time ? children_time (track, &scope) : NULL;

          for (guint32 i = 0; i < track->n_spans; i++)
            {
              gint64 start = track->start[i], end = chrono_track_get_end (track, i), dur;
              const char *name;
              Row *row;

              if (!(how->kinds & (1u << track->kind[i])) || !chrono_mcp_scope_meets (&scope, start, end))
                continue;
              dur = clipped (&scope, start, end);
              name = chrono_trace_get_string (trace, chrono_track_get_name (track, i));
              row = g_hash_table_lookup (by_name, name);
              if (row == NULL)
                {
                  row = g_new0 (Row, 1);
                  row->name = name;
                  row->min = G_MAXINT64;
                  g_hash_table_insert (by_name, (gpointer) name, row);
                }
              row->kinds |= 1u << track->kind[i];
              row->count++;
              row->total += dur;
              row->self += children ? MAX (dur - children[i], 0) : dur;
              row->min = MIN (row->min, dur);
              row->max = MAX (row->max, dur);
              all += dur;
            }
        }
    }

  rows = g_ptr_array_sized_new (g_hash_table_size (by_name));
  {
    GHashTableIter iter;
    gpointer value;

    g_hash_table_iter_init (&iter, by_name);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      g_ptr_array_add (rows, value);
  }
  g_ptr_array_sort_with_data (rows, compare_rows, how);

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
  json_object_set_int_member (out, "all_ns", all);
  for (guint64 i = offset; i < rows->len; i++)
    {
      const Row *row = g_ptr_array_index (rows, i);
      JsonObject *o = json_object_new ();
      JsonArray *kinds = json_array_new ();
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);

      chrono_mcp_set_name (o, row->name);
      for (guint k = 0; k < CHRONO_N_KINDS; k++)
        if (row->kinds & (1u << k))
          json_array_add_string_element (kinds, chrono_kind_to_string (k));
      json_object_set_array_member (o, "kinds", kinds);
      json_object_set_int_member (o, "count", row->count);
      json_object_set_int_member (o, "total_ns", row->total);
      if (how->self_time)
        json_object_set_int_member (o, "self_ns", row->self);
      json_object_set_int_member (o, "mean_ns", row->total / (gint64) row->count);
      json_object_set_int_member (o, "min_ns", row->min);
      json_object_set_int_member (o, "max_ns", row->max);
      json_object_set_double_member (o, "share", all > 0 ? (gdouble) row->total / all : 0.0);
      if (efficiency && g_hash_table_contains (efficiency, row->name))
        json_object_set_array_member (o, "efficiency", json_array_ref (g_hash_table_lookup (efficiency, row->name)));
      json_node_take_object (node, o);
      if (!chrono_mcp_page_add (page, node))
        {
          next = chrono_mcp_page_offset_position (i);
          break;
        }
    }

  {
    g_autofree char *all_text = chrono_format_duration (all);

    g_string_append_printf (text, "%u names, %s in all%s", rows->len, all_text, rows->len > offset ? ":" : ".");
    for (guint64 i = offset; i < rows->len && i < offset + MIN (5, chrono_mcp_page_get_limit (page)); i++)
      {
        const Row *row = g_ptr_array_index (rows, i);
        g_autofree char *total = chrono_format_duration (row->total);
        g_autofree char *name = chrono_format_short_name (row->name, CHRONO_SHORT_NAME_WIDTH);

        g_string_append_printf (text, "\n- %s: %s (%.1f%%), %" G_GUINT64_FORMAT " %s", name, total,
                                all > 0 ? 100.0 * row->total / all : 0.0, row->count, row->count == 1 ? "call" : "calls");
      }
  }
  chrono_mcp_page_finish (page, out, "rows", rows->len, next, text);
  return result;
}

static JsonNode *
top_operators (ChronoMcpContext  *ctx,
               JsonObject        *args,
               GString           *text,
               GError           **error)
{
  Top how = { .kinds = 1u << CHRONO_KIND_HOST_OP, .self_time = TRUE, .efficiency = TRUE };

  return top (ctx, args, text, &how, error);
}

static JsonNode *
top_kernels (ChronoMcpContext  *ctx,
             JsonObject        *args,
             GString           *text,
             GError           **error)
{
  Top how = { .kinds = 1u << CHRONO_KIND_KERNEL | 1u << CHRONO_KIND_COLLECTIVE };

  return top (ctx, args, text, &how, error);
}

static const ChronoMcpTool tools[] = {
  { "top_operators", "Top host operators",
    "The framework operators (aten::…, the host_op spans) that take the most time, or are called most, "
    "over the whole trace, a window, a step or a rank: calls, total and self time, mean, min and max, "
    "and where the trace records shapes their efficiency against the device's roofline, as the "
    "analysis reports it. Names are summed over all threads and ranks in scope.",
    top_input, top_output, top_operators },
  { "top_kernels", "Top device kernels",
    "The device kernels, collectives included, that take the most time, or run most often, over the "
    "whole trace, a window, a step or a rank: count, total, mean, min and max duration.",
    top_input, top_output, top_kernels },
};

const ChronoMcpTool *
chrono_mcp_top_tools (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (tools);
  return tools;
}
