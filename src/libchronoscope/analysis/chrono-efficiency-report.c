/* chrono-efficiency-report.c: the efficiency in the JSON and Markdown reports
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "chrono-efficiency-private.h"
#include "chrono-format.h"
#include "chrono-json-util.h"
#include "chrono-neuron-metrics.h"

/* A report people read: the operators that take most GPU time. */
#define MAX_TABLE_ROWS 20

/* The trace's own JSON array, kept as JSON rather than as a string. */
static void
add_raw_array (JsonBuilder *b,
               const char  *name,
               const char  *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  json_builder_set_member_name (b, name);
  if (text != NULL && json_parser_load_from_data (parser, text, -1, NULL))
    json_builder_add_value (b, json_node_copy (json_parser_get_root (parser)));
  else
    json_builder_add_null_value (b);
}

/* Each step's utilisation on each device its work ran on. */
static void
write_steps (ChronoAnalysis *self,
             JsonBuilder    *b)
{
  guint n_ranks;
  ChronoRankData **ranks = chrono_analysis_get_ranks (self, &n_ranks);

  json_builder_set_member_name (b, "model_flops_utilization");
  json_builder_begin_array (b);
  for (guint r = 0; r < n_ranks && chrono_analysis_get_n_efficiency (self) > 0; r++)
    for (guint s = 0; s < ranks[r]->steps->len; s++)
      {
        const ChronoStep *step = &g_array_index (ranks[r]->steps, ChronoStep, s);
        const ChronoTrack *t = chrono_trace_get_track (ranks[r]->trace, step->track);
        gint64 end = MAX (step->end, step->work_end);

        for (guint d = 0; d < ranks[r]->devices->len; d++)
          {
            gdouble flops;
            gdouble mfu = chrono_analysis_get_mfu (self, r, d, step->start, end, &flops);

            if (flops == 0)
              continue;
            json_builder_begin_object (b);
            chrono_json_add_int (b, "trace", ranks[r]->trace_index);
            chrono_json_add_int (b, "rank_index", r);
            chrono_json_add_string (b, "step", chrono_trace_get_string (ranks[r]->trace,
                                                                        chrono_track_get_name (t, step->index)));
            chrono_json_add_int (b, "device", g_array_index (ranks[r]->devices, ChronoDeviceWork, d).device);
            chrono_json_add_int (b, "start_ns", step->start);
            chrono_json_add_int (b, "end_ns", end);
            chrono_json_add_double (b, "flops", flops);
            chrono_json_add_double (b, "mfu", mfu);
            json_builder_end_object (b);
          }
      }
  json_builder_end_array (b);
}

void
chrono_efficiency_write_json (ChronoAnalysis *self,
                              JsonBuilder    *b)
{
  const char * const *notes = chrono_analysis_get_efficiency_notes (self);

  json_builder_set_member_name (b, "efficiency");
  json_builder_begin_array (b);
  for (guint i = 0; i < chrono_analysis_get_n_efficiency (self); i++)
    {
      const ChronoEfficiencyRow *r = chrono_analysis_get_efficiency (self, i);

      json_builder_begin_object (b);
      chrono_json_add_string (b, "op", r->op);
      add_raw_array (b, "input_dims", r->input_dims);
      add_raw_array (b, "input_types", r->input_types);
      if (r->concrete_inputs)
        add_raw_array (b, "concrete_inputs", r->concrete_inputs);
      chrono_json_add_string (b, "family", r->family);
      chrono_json_add_string (b, "dtype", chrono_dtype_to_string (r->dtype));
      chrono_json_add_string (b, "units", r->matrix ? "matrix" : "vector");
      chrono_json_add_int (b, "trace", r->trace);
      chrono_json_add_int (b, "rank_index", r->rank);
      chrono_json_add_int (b, "device", r->device);
      chrono_json_add_string (b, "device_name", r->device_name);
      chrono_json_add_string (b, "peaks", r->peaks ? r->peaks->name : r->has_roofline ? "settings" : NULL);
      chrono_json_add_int (b, "count", r->count);
      chrono_json_add_double (b, "flops", r->flops);
      chrono_json_add_double (b, "bytes", r->bytes);
      chrono_json_add_int (b, "gpu_time_ns", r->gpu_time_ns);
      chrono_json_add_double (b, "achieved_tflops", r->achieved_tflops);
      chrono_json_add_double (b, "achieved_tbps", r->achieved_tbps);
      if (r->has_roofline)
        {
          chrono_json_add_int (b, "roofline_ns", r->roofline_ns);
          chrono_json_add_string (b, "bound", chrono_bound_to_string (r->bound));
          chrono_json_add_double (b, "roofline_share", r->roofline_share);
          chrono_json_add_int (b, "excess_ns", r->excess_ns);
        }
      else
        {
          json_builder_set_member_name (b, "roofline_ns");
          json_builder_add_null_value (b);
          json_builder_set_member_name (b, "bound");
          json_builder_add_null_value (b);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "efficiency_notes");
  json_builder_begin_array (b);
  for (guint i = 0; notes[i]; i++)
    json_builder_add_string_value (b, notes[i]);
  json_builder_end_array (b);

  write_steps (self, b);
  chrono_efficiency_neuron_write_json (self, b);
  chrono_neuron_metrics_write_json (self, b);
}

void
chrono_efficiency_append_markdown (ChronoAnalysis *self,
                                   GString        *s)
{
  const char * const *notes = chrono_analysis_get_efficiency_notes (self);
  guint n = chrono_analysis_get_n_efficiency (self);

  chrono_neuron_metrics_append_markdown (self, s);
  chrono_efficiency_neuron_append_markdown (self, s);
  g_string_append_printf (s, "\n## %s\n\n", _("Operator efficiency"));
  for (guint i = 0; notes[i]; i++)
    g_string_append_printf (s, "- %s\n", notes[i]);
  if (n == 0)
    return;
  if (notes[0])
    g_string_append (s, "\n");
  g_string_append_printf (s, "%s\n\n| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n"
                             "|---|---|---:|---:|---:|---:|---:|---:|---|\n",
                          _("The operators that take most GPU time, against the roofline at the device’s peaks."),
                          _("Operator"), _("Input shapes"), _("Calls"), _("GPU time (ms)"), _("GFLOPs / call"),
                          _("TFLOP/s"), _("TB/s"), _("Of roofline"), _("Bound"));
  for (guint i = 0; i < MIN (n, MAX_TABLE_ROWS); i++)
    {
      const ChronoEfficiencyRow *r = chrono_analysis_get_efficiency (self, i);
      g_autofree char *calls = g_strdup_printf ("%" G_GUINT64_FORMAT, r->count);
      g_autofree char *time = g_strdup_printf ("%.3f", r->gpu_time_ns / 1e6);
      g_autofree char *gflops = g_strdup_printf ("%.3f", r->flops / 1e9);
      g_autofree char *tflops = g_strdup_printf ("%.2f", r->achieved_tflops);
      g_autofree char *tbps = g_strdup_printf ("%.3f", r->achieved_tbps);
      g_autofree char *share = r->has_roofline ? g_strdup_printf ("%.1f%%", 100 * r->roofline_share) : g_strdup ("–");
      g_autofree char *op = chrono_format_short_name (r->op, CHRONO_SHORT_NAME_WIDTH);

      g_string_append (s, "|");
      chrono_format_markdown_cell (s, op);
      chrono_format_markdown_cell (s, r->input_dims);
      chrono_format_markdown_cell (s, calls);
      chrono_format_markdown_cell (s, time);
      chrono_format_markdown_cell (s, gflops);
      chrono_format_markdown_cell (s, tflops);
      chrono_format_markdown_cell (s, tbps);
      chrono_format_markdown_cell (s, share);
      chrono_format_markdown_cell (s, r->has_roofline ? chrono_bound_to_string (r->bound) : _("no peaks"));
      g_string_append (s, "\n");
    }
  if (n > MAX_TABLE_ROWS)
    g_string_append_printf (s, _("\n…and %u more in the JSON report.\n"), n - MAX_TABLE_ROWS);
}
