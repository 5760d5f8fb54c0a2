/* chrono-efficiency-neuron.c: how busy each engine of a NeuronCore is, per
 * step, and the Neuron profiler's own utilisation figures beside ours
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include <glib/gi18n-lib.h>

#include "chrono-efficiency-private.h"
#include "chrono-json-util.h"
#include "chrono-neuron-metrics.h"

/* Steps listed in the Markdown; the JSON has them all. */
#define MAX_TABLE_STEPS 10

/* The windows busy shares are taken over: the trace's steps, or the
 * device's work from first to last when it has none (device profiles). */
static GArray *
windows_of (ChronoRankData         *data,
            const ChronoDeviceWork *d)
{
  GArray *windows = g_array_new (FALSE, FALSE, sizeof (ChronoStep));

  for (guint s = 0; s < data->steps->len; s++)
    {
      ChronoStep step = g_array_index (data->steps, ChronoStep, s);

      step.end = MAX (step.end, step.work_end);
      g_array_append_val (windows, step);
    }
  if (windows->len == 0 && d->busy->len > 0)
    {
      ChronoStep all = { CHRONO_NO_TRACK, 0, g_array_index (d->busy, ChronoInterval, 0).start,
                         g_array_index (d->busy, ChronoInterval, d->busy->len - 1).end, 0 };
      g_array_append_val (windows, all);
    }
  return windows;
}

/* Each engine's work merged: GArray of ChronoInterval per stream. */
static GPtrArray *
engines_busy (const ChronoRankData     *data,
              const ChronoDeviceWork *d)
{
  GPtrArray *busy = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint k = 0; k < d->streams->len; k++)
    {
      const ChronoStreamWork *st = &g_array_index (d->streams, ChronoStreamWork, k);
      g_ptr_array_add (busy, chrono_intervals_of_stream (data, st));
    }
  return busy;
}

static const char *
engine_name (ChronoRankData         *data,
             const ChronoDeviceWork *d,
             guint                   k)
{
  ChronoTrace *trace = data->trace;

  return chrono_trace_get_string (trace, chrono_trace_get_track (trace, g_array_index (d->streams, ChronoStreamWork, k).track)->display_name);
}

static const char *
window_name (ChronoRankData   *data,
             const ChronoStep *w)
{
  if (w->track == CHRONO_NO_TRACK)
    return _("whole profile");
  return chrono_trace_get_string (data->trace,
                                  chrono_track_get_name (chrono_trace_get_track (data->trace, w->track), w->index));
}

static void
add_metric (JsonBuilder *b,
            const char  *name,
            gboolean     known,
            gdouble      value)
{
  json_builder_set_member_name (b, name);
  if (known)
    json_builder_add_double_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_summary_metric (JsonBuilder *b,
                    const char  *name,
                    JsonObject  *summary,
                    const char  *key,
                    gboolean     percent)
{
  gdouble v = 0;
  gboolean known = percent ? chrono_neuron_summary_percent (summary, key, &v) : chrono_neuron_summary_number (summary, key, &v);

  add_metric (b, name, known, v);
}

/* The summary's model FLOPs over its time at the peak set in the
 * settings; the "neuron" member has ours, from the instructions. */
static gboolean
our_mfu (ChronoAnalysis *self,
         JsonObject     *summary,
         gdouble        *percent)
{
  const ChronoAnalysisThresholds *th = chrono_efficiency_get_thresholds (chrono_analysis_get_efficiency_data (self));
  gdouble flops, seconds;

  if (th->peak_gflops == 0 || !chrono_neuron_summary_number (summary, "model_flops", &flops) ||
      !(chrono_neuron_summary_number (summary, "total_active_time", &seconds) || chrono_neuron_summary_number (summary, "total_time", &seconds)) ||
      seconds <= 0)
    return FALSE;
  *percent = 100 * flops / (seconds * th->peak_gflops * 1e9);
  return TRUE;
}

void
chrono_efficiency_neuron_write_json (ChronoAnalysis *self,
                                     JsonBuilder    *b)
{
  guint n_ranks;
  ChronoRankData **ranks = chrono_analysis_get_ranks (self, &n_ranks);

  json_builder_set_member_name (b, "neuron_engines");
  json_builder_begin_array (b);
  for (guint r = 0; r < n_ranks; r++)
    for (guint di = 0; di < ranks[r]->devices->len; di++)
      {
        const ChronoDeviceWork *d = &g_array_index (ranks[r]->devices, ChronoDeviceWork, di);
        g_autoptr(GArray) windows = NULL;
        g_autoptr(GPtrArray) busy = NULL;
        g_autoptr(JsonNode) summary = NULL;
        gdouble v = 0;
        gboolean known;

        if (!chrono_neuron_is_core (ranks[r]->trace, d))
          continue;
        windows = windows_of (ranks[r], d);
        busy = engines_busy (ranks[r], d);
        summary = chrono_trace_get_metadata (ranks[r]->trace, "neuron_summary");
        json_builder_begin_object (b);
        chrono_json_add_int (b, "trace", ranks[r]->trace_index);
        chrono_json_add_int (b, "rank_index", r);
        chrono_json_add_int (b, "device", d->device);
        if (summary != NULL && JSON_NODE_HOLDS_OBJECT (summary))
          {
            JsonObject *o = json_node_get_object (summary);

            json_builder_set_member_name (b, "profiler");
            json_builder_begin_object (b);
            add_summary_metric (b, "mfu_percent", o, "mfu_estimated_percent", TRUE);
            add_summary_metric (b, "mbu_percent", o, "mbu_estimated_percent", TRUE);
            add_summary_metric (b, "hfu_percent", o, "hfu_estimated_percent", TRUE);
            add_summary_metric (b, "model_flops", o, "model_flops", FALSE);
            add_summary_metric (b, "hardware_flops", o, "hardware_flops", FALSE);
            json_builder_end_object (b);
            known = our_mfu (self, o, &v);
            add_metric (b, "mfu_percent", known, v);
          }
        json_builder_set_member_name (b, "steps");
        json_builder_begin_array (b);
        for (guint w = 0; w < windows->len; w++)
          {
            const ChronoStep *win = &g_array_index (windows, ChronoStep, w);

            json_builder_begin_object (b);
            chrono_json_add_string (b, "step", window_name (ranks[r], win));
            chrono_json_add_int (b, "start_ns", win->start);
            chrono_json_add_int (b, "end_ns", win->end);
            json_builder_set_member_name (b, "engines");
            json_builder_begin_array (b);
            for (guint k = 0; k < d->streams->len; k++)
              {
                gint64 busy_ns = chrono_intervals_length_in (g_ptr_array_index (busy, k), win->start, win->end);

                json_builder_begin_object (b);
                chrono_json_add_string (b, "engine", engine_name (ranks[r], d, k));
                chrono_json_add_int (b, "busy_ns", busy_ns);
                add_metric (b, "busy_share", win->end > win->start, (gdouble) busy_ns / MAX (win->end - win->start, 1));
                json_builder_end_object (b);
              }
            json_builder_end_array (b);
            json_builder_end_object (b);
          }
        json_builder_end_array (b);
        json_builder_end_object (b);
      }
  json_builder_end_array (b);
}

void
chrono_efficiency_neuron_append_markdown (ChronoAnalysis *self,
                                          GString        *s)
{
  guint n_ranks;
  ChronoRankData **ranks = chrono_analysis_get_ranks (self, &n_ranks);

  for (guint r = 0; r < n_ranks; r++)
    for (guint di = 0; di < ranks[r]->devices->len; di++)
      {
        const ChronoDeviceWork *d = &g_array_index (ranks[r]->devices, ChronoDeviceWork, di);
        g_autoptr(GArray) windows = NULL;
        g_autoptr(GPtrArray) busy = NULL;
        g_autoptr(JsonNode) summary = NULL;
        gdouble v;

        if (!chrono_neuron_is_core (ranks[r]->trace, d))
          continue;
        windows = windows_of (ranks[r], d);
        busy = engines_busy (ranks[r], d);
        summary = chrono_trace_get_metadata (ranks[r]->trace, "neuron_summary");
        g_string_append_printf (s, "\n## %s\n\n", _("NeuronCore engines"));
        if (summary != NULL && JSON_NODE_HOLDS_OBJECT (summary))
          {
            JsonObject *o = json_node_get_object (summary);

            if (chrono_neuron_summary_percent (o, "mfu_estimated_percent", &v))
              g_string_append_printf (s, _("- The profiler's MFU: %.1f %%\n"), v);
            if (chrono_neuron_summary_percent (o, "mbu_estimated_percent", &v))
              g_string_append_printf (s, _("- The profiler's MBU: %.1f %%\n"), v);
          }
        g_string_append_printf (s, "\n%s\n\n| %s | %s | %s |\n|---|---|---:|\n",
                                _("Each engine's busy share of each step."), _("Step"), _("Engine"), _("Busy"));
        for (guint w = 0; w < MIN (windows->len, MAX_TABLE_STEPS); w++)
          {
            const ChronoStep *win = &g_array_index (windows, ChronoStep, w);

            for (guint k = 0; k < d->streams->len; k++)
              {
                gint64 busy_ns = chrono_intervals_length_in (g_ptr_array_index (busy, k), win->start, win->end);

                g_string_append_printf (s, "| %s | %s | %.1f%% |\n", window_name (ranks[r], win),
                                        engine_name (ranks[r], d, k), 100.0 * busy_ns / MAX (win->end - win->start, 1));
              }
          }
        if (windows->len > MAX_TABLE_STEPS)
          g_string_append_printf (s, _("\n…and %u more steps in the JSON report.\n"), windows->len - MAX_TABLE_STEPS);
      }
}
