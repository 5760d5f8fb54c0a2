/* bench-flows.c: what flow arrows and step bands cost a timeline frame
 *
 * Usage: bench-flows TRACE [--width PX] [--zooms N] [--repeat N] [--seed S]
 *
 * Loads TRACE, indexes its tracks and its flows (timed, with the flow
 * index's bytes a flow) and finds its steps. Then at full-trace zoom and
 * at N random zoom levels (log-uniform between 10 µs and the whole
 * trace), REPEAT times each, paints: the spans of every track (the
 * baseline, as the timeline's rows), the arrows of every flow in the
 * window (the All Flows layer, rasterized: it is one cairo node), the
 * arrows of a selected span and the step bands. Prints the p50 and p95
 * thread CPU time of each and their ratio to the baseline, with how many
 * flows the window queries looked at and how many arrows were drawn.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "chrono-flow-painter.h"
#include "chrono-loader.h"
#include "chrono-step-bands.h"
#include "chrono-track-painter.h"

#define ROW_HEIGHT  18.0
#define MIN_ZOOM_NS 10000.0

typedef struct {
  GPtrArray *indexes;  /* ChronoTrackIndex by track */
  double    *track_y;
} Layout;

static double
cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static gboolean
place_cb (ChronoSpanRef span,
          double       *y,
          gpointer      user_data)
{
  Layout *layout = user_data;

  *y = layout->track_y[span.track] +
       (chrono_track_index_get_span_row (g_ptr_array_index (layout->indexes, span.track), span.index) + 0.5) * ROW_HEIGHT;
  return TRUE;
}

static void
collect_cb (guint    flow,
            gpointer user_data)
{
  g_array_append_val ((GArray *) user_data, flow);
}

static void
count_cb (guint    flow,
          gpointer user_data)
{
  (*(guint64 *) user_data)++;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
percentile (GArray *ms,
            guint   p)
{
  g_array_sort (ms, compare_doubles);
  return g_array_index (ms, double, (ms->len - 1) * p / 100);
}

static void
print_row (const char *what,
           GArray     *ms,
           GArray     *baseline)
{
  double p50 = percentile (ms, 50), p95 = percentile (ms, 95);

  printf ("%-22s p50 %8.3f ms   p95 %8.3f ms   %6.2fx / %6.2fx the spans\n", what, p50, p95,
          p50 / MAX (percentile (baseline, 50), 1e-6), p95 / MAX (percentile (baseline, 95), 1e-6));
}

int
main (int   argc,
      char *argv[])
{
  int width = 1600, zooms = 20, repeat = 5;
  gint64 seed = 1;
  GOptionEntry entries[] = {
    { "width", 0, 0, G_OPTION_ARG_INT, &width, "Timeline width in px (1600)", "PX" },
    { "zooms", 0, 0, G_OPTION_ARG_INT, &zooms, "Random zoom levels (20)", "N" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "Frames per zoom level (5)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of the zoom levels (1)", "S" },
    { NULL }
  };
  g_autoptr(GOptionContext) options = g_option_context_new ("TRACE");
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoTrackPainter) painter = NULL;
  g_autoptr(ChronoFlowIndex) flow_index = NULL;
  g_autoptr(ChronoFlowPainter) flow_painter = NULL;
  g_autoptr(ChronoStepBands) steps = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  g_autoptr(GRand) rand = NULL;
  g_autoptr(GArray) spans_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) all_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) selected_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) steps_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) flows = g_array_new (FALSE, FALSE, sizeof (guint));
  Layout layout;
  gint64 start, end;
  guint64 visited = 0, in_window = 0, visited_merged = 0, merged = 0, arrows = 0;
  guint max_arrows = 0;
  double t0, height = 0;

  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error) || argc != 2)
    {
      g_printerr ("%s\n", error ? error->message : "Usage: bench-flows TRACE");
      return 2;
    }

  trace = chrono_trace_load_file (argv[1], NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  start = chrono_trace_get_start_ns (trace);
  end = MAX (chrono_trace_get_end_ns (trace), start + CHRONO_VIEWPORT_MIN_DURATION_NS);

  layout.indexes = g_ptr_array_new_with_free_func (g_object_unref);
  layout.track_y = g_new (double, chrono_trace_get_n_tracks (trace));
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      ChronoTrackIndex *index = chrono_track_index_new (trace, t);

      g_ptr_array_add (layout.indexes, index);
      layout.track_y[t] = height;
      height += MAX (1, chrono_track_index_get_n_rows (index)) * ROW_HEIGHT;
    }

  t0 = cpu_ms ();
  flow_index = chrono_flow_index_new (trace);
  printf ("%u flows: index built in %.1f ms, %.1f bytes a flow\n", chrono_trace_get_n_flows (trace),
          cpu_ms () - t0,
          (double) chrono_flow_index_get_memory_size (flow_index) / MAX (chrono_trace_get_n_flows (trace), 1));
  t0 = cpu_ms ();
  steps = chrono_step_bands_new (trace);
  printf ("%u steps found in %.1f ms\n", chrono_step_bands_get_n_bands (steps), cpu_ms () - t0);

  painter = chrono_track_painter_new (trace);
  flow_painter = chrono_flow_painter_new (flow_index);
  viewport = chrono_viewport_new ();
  chrono_viewport_set_width_px (viewport, width);
  chrono_viewport_set_bounds (viewport, start, end);
  rand = g_rand_new_with_seed ((guint32) seed);

  for (int z = 0; z <= zooms; z++)
    {
      if (z == 0)
        chrono_viewport_show_all (viewport);
      else
        {
          double duration = exp (g_rand_double_range (rand, log (MIN_ZOOM_NS), log ((double) (end - start))));
          gint64 s = start + (gint64) g_rand_double_range (rand, 0, MAX ((end - start) - duration, 0));

          chrono_viewport_zoom_to_range (viewport, s, s + (gint64) duration);
        }
      /* The span a person selects: one with flows at the window's middle. */
      g_array_set_size (flows, 0);
      chrono_flow_index_foreach_in_range (flow_index, chrono_viewport_x_to_time (viewport, width / 2.0),
                                          chrono_viewport_x_to_time (viewport, width / 2.0 + 1),
                                          collect_cb, flows);
      if (flows->len > 0)
        {
          ChronoSpanRef span = chrono_trace_get_flow (trace, g_array_index (flows, guint, 0))->to;

          g_array_set_size (flows, 0);
          chrono_flow_index_get_span_flows (flow_index, span, flows);
        }
      visited += chrono_flow_index_foreach_in_range (flow_index, chrono_viewport_get_start_ns (viewport),
                                                     chrono_viewport_get_end_ns (viewport),
                                                     count_cb, &in_window);
      visited_merged += chrono_flow_index_foreach_in_columns (flow_index, chrono_viewport_get_start_ns (viewport),
                                                              chrono_viewport_get_end_ns (viewport),
                                                              chrono_viewport_get_start_ns (viewport),
                                                              1 / chrono_viewport_get_px_per_ns (viewport),
                                                              count_cb, &merged);

      for (int r = 0; r < repeat; r++)
        {
          const GdkRGBA fill = { 0, 0, 0, 0.04 };
          GskRenderNode *node;
          guint n_arrows;
          double ms;

          t0 = cpu_ms ();
          for (guint t = 0; t < layout.indexes->len; t++)
            {
              node = chrono_track_painter_paint_spans (painter, g_ptr_array_index (layout.indexes, t),
                                                       viewport, ROW_HEIGHT);
              g_clear_pointer (&node, gsk_render_node_unref);
            }
          ms = cpu_ms () - t0;
          g_array_append_val (spans_ms, ms);

          t0 = cpu_ms ();
          node = chrono_flow_painter_paint_range (flow_painter, viewport, place_cb, &layout, height, &n_arrows);
          ms = cpu_ms () - t0;
          g_clear_pointer (&node, gsk_render_node_unref);
          g_array_append_val (all_ms, ms);
          if (r == 0)
            {
              arrows += n_arrows;
              max_arrows = MAX (max_arrows, n_arrows);
            }

          t0 = cpu_ms ();
          node = chrono_flow_painter_paint_flows (flow_painter, viewport, (const guint *) flows->data,
                                                  flows->len, place_cb, &layout, height);
          ms = cpu_ms () - t0;
          g_clear_pointer (&node, gsk_render_node_unref);
          g_array_append_val (selected_ms, ms);

          t0 = cpu_ms ();
          node = chrono_step_bands_paint (steps, viewport, height, &fill, &fill);
          ms = cpu_ms () - t0;
          g_clear_pointer (&node, gsk_render_node_unref);
          g_array_append_val (steps_ms, ms);
        }
    }

  printf ("%d px wide, %.0f px of rows, %d zoom levels x %d frames\n", width, height, zooms + 1, repeat);
  print_row ("spans (baseline)", spans_ms, spans_ms);
  print_row ("all flows in view", all_ms, spans_ms);
  print_row ("selected span's flows", selected_ms, spans_ms);
  print_row ("step bands", steps_ms, spans_ms);
  printf ("a level: %.0f flows in the window, %.0f looked at to find them; %.0f looked at a pixel\n"
          "column at a time (%.0f handed out), %.0f arrows drawn (max %u)\n",
          (double) in_window / (zooms + 1), (double) visited / (zooms + 1),
          (double) visited_merged / (zooms + 1), (double) merged / (zooms + 1),
          (double) arrows / (zooms + 1), max_arrows);

  g_ptr_array_unref (layout.indexes);
  g_free (layout.track_y);
  return 0;
}
