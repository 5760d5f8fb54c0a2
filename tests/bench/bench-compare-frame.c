/* bench-compare-frame.c: how long the comparison view takes per frame
 *
 * Usage: xvfb-run -a -s "-screen 0 1920x1200x24" \
 *          bench-compare-frame [A B] [--size SIZE] [--cli PATH] [--keep]
 *
 * Compares A with B (without them: two example traces of SIZE, 3GB by
 * default, about ten million events each, written with different seeds
 * by `chronoscope-cli example` into a temporary folder) in the
 * application's own window, 1600 x 1000 px, and waits for the
 * comparison. Then it drives A's timeline, which B's follows in the same
 * frame: zooms in step by step at three points, from the whole trace
 * down to a few microseconds, and out again; pans left and right at
 * four zoom levels; the same with B stretched to A's steps. Each step is
 * one real frame of the window's frame clock, timed as
 * bench-frame-clock.h says, the snapshots being both timelines'.
 *
 * It prints their p50/p95/p99, per kind of step, and against a baseline
 * measured last: frames in which both timelines, without a trace, only
 * change their background colour.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>

#include <glib/gstdio.h>

#include "app-test-utils.h"
#include "bench-frame-clock.h"
#include "chrono-comparison-view.h"
#include "chrono-document-page.h"
#include "chrono-timeline.h"

#define WINDOW_WIDTH   1600
#define WINDOW_HEIGHT  1000
#define ZOOM_STEP      1.25
#define MIN_WINDOW_NS  4000
#define PAN_STEPS      24

typedef enum {
  STEP_ZOOM,
  STEP_PAN,
  N_STEP_KINDS
} StepKind;

static const char *step_names[N_STEP_KINDS] = { "zoom", "pan" };

typedef struct {
  BenchFrame frame;   /* first: bench_frame_print() reads it */
  StepKind   kind;
  gboolean   stretched;
} FrameTimes;

static ChronoComparisonView *view;

static gboolean
step (StepKind kind,
      GArray  *all)
{
  FrameTimes times = { .kind = kind, .stretched = chrono_comparison_view_get_stretch (view) };

  if (!bench_frame_clock_next (GTK_WIDGET (view), &times.frame))
    return FALSE;
  g_array_append_val (all, times);
  return TRUE;
}

static gboolean
zoom_in_and_out (ChronoViewport *viewport,
                 double          x,
                 GArray         *all)
{
  gint64 whole;

  chrono_viewport_show_all (viewport);
  whole = chrono_viewport_get_duration (viewport);
  while (chrono_viewport_get_duration (viewport) > MIN_WINDOW_NS)
    {
      gint64 before = chrono_viewport_get_duration (viewport);

      chrono_viewport_zoom (viewport, ZOOM_STEP, x);
      if (chrono_viewport_get_duration (viewport) == before || !step (STEP_ZOOM, all))
        return FALSE;
    }
  while (chrono_viewport_get_duration (viewport) < whole)
    {
      chrono_viewport_zoom (viewport, 1 / ZOOM_STEP, x);
      if (!step (STEP_ZOOM, all))
        return FALSE;
    }
  return TRUE;
}

static gboolean
pan_at (ChronoViewport *viewport,
        double          duration,
        GArray         *all)
{
  double width = chrono_viewport_get_width_px (viewport);
  gint64 middle;

  chrono_viewport_show_all (viewport);
  middle = chrono_viewport_get_start_ns (viewport) + chrono_viewport_get_duration (viewport) / 2;
  chrono_viewport_zoom_to_range (viewport, middle - (gint64) (duration / 2), middle + (gint64) (duration / 2));
  for (int i = 0; i < 2 * PAN_STEPS; i++)
    {
      chrono_viewport_pan (viewport, (i < PAN_STEPS ? 0.1 : -0.1) * width);
      if (!step (STEP_PAN, all))
        return FALSE;
    }
  return TRUE;
}

static gboolean
drive (ChronoViewport *viewport,
       GArray         *all)
{
  double width = chrono_viewport_get_width_px (viewport);
  gboolean ok = TRUE;

  for (int p = 1; p <= 3 && ok; p++)
    ok = zoom_in_and_out (viewport, width * p / 4, all);
  chrono_viewport_show_all (viewport);
  for (double d = chrono_viewport_get_duration (viewport) / 8; d >= 1e4 && ok; d /= 100)
    ok = pan_at (viewport, d, all);
  return ok;
}

static gboolean
measure_baseline (GArray *baseline)
{
  ChronoTimeline *timelines[2] = {
    chrono_comparison_view_get_timeline (view, CHRONO_COMPARE_SIDE_A),
    chrono_comparison_view_get_timeline (view, CHRONO_COMPARE_SIDE_B),
  };

  for (guint side = 0; side < 2; side++)
    {
      chrono_timeline_set_trace (timelines[side], NULL);
    }
  for (int i = 0; i < 48; i++)
    {
      FrameTimes times = { 0 };

      for (guint side = 0; side < 2; side++)
        chrono_timeline_set_dark (timelines[side], !chrono_timeline_get_dark (timelines[side]));
      if (!bench_frame_clock_next (GTK_WIDGET (view), &times.frame))
        return FALSE;
      g_array_append_val (baseline, times);
    }
  return TRUE;
}

static guint64
count_spans (ChronoTimeline *timeline)
{
  ChronoTrace *trace = chrono_timeline_get_trace (timeline);
  guint64 n = 0;

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    n += chrono_trace_get_track (trace, t)->n_spans;
  return n;
}

static GArray *
select_frames (GArray *all,
               int     kind,
               int     stretched)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (FrameTimes));

  for (guint i = 0; i < all->len; i++)
    {
      const FrameTimes *f = &g_array_index (all, FrameTimes, i);

      if ((kind < 0 || f->kind == (StepKind) kind) && (stretched < 0 || f->stretched == stretched))
        g_array_append_val (frames, *f);
    }
  return frames;
}

static gboolean
compared (gpointer data)
{
  return chrono_comparison_view_get_comparison (view) != NULL || chrono_comparison_view_get_error (view) != NULL;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *cli = NULL;
  g_autofree char *size = NULL;
  g_autofree char *example_dir = NULL;
  char *paths[2] = { NULL, NULL };
  gboolean keep = FALSE;
  const GOptionEntry entries[] = {
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, "Size of each example trace written without A and B (default 3GB)", "SIZE" },
    { "cli", 0, 0, G_OPTION_ARG_FILENAME, &cli, "chronoscope-cli to write them with (default $CHRONO_CLI)", "PATH" },
    { "keep", 0, 0, G_OPTION_ARG_NONE, &keep, "Keep the example traces", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) options = g_option_context_new ("[A B] - frame times of the comparison view");
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) a = NULL;
  g_autoptr(GFile) b = NULL;
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (FrameTimes));
  g_autoptr(GArray) baseline = g_array_new (FALSE, FALSE, sizeof (FrameTimes));
  ChronoWindow *window;
  ChronoDocumentPage *page;
  ChronoViewport *viewport;
  gint64 opened_at;
  double p95, baseline_p95;
  gboolean ok;

  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error) || (argc != 1 && argc != 3))
    {
      fprintf (stderr, "%s\n", error ? error->message : "Usage: bench-compare-frame [A B]");
      return 2;
    }
  if (cli == NULL)
    cli = g_strdup (g_getenv ("CHRONO_CLI"));
  if (argc == 1 && cli == NULL)
    {
      fprintf (stderr, "bench-compare-frame: give --cli or set CHRONO_CLI\n");
      return 2;
    }

  chrono_application_choose_renderer ();
  if (!app_test_init (&argc, &argv))
    return 77;

  if (argc == 3)
    {
      paths[0] = g_strdup (argv[1]);
      paths[1] = g_strdup (argv[2]);
    }
  else
    {
      example_dir = g_dir_make_tmp ("bench-compare-frame-XXXXXX", &error);
      g_assert_no_error (error);
      for (guint side = 0; side < 2; side++)
        if ((paths[side] = bench_frame_write_example (cli, size != NULL ? size : "3GB", side + 1, example_dir,
                                                       side == 0 ? "a.json" : "b.json")) == NULL)
          {
            fprintf (stderr, "bench-compare-frame: %s could not write the example traces\n", cli);
            return 1;
          }
    }

  window = app_test_get_window ();
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (window), BENCH_FRAME_TIMEOUT_MS));
  bench_frame_size_window (GTK_WIDGET (window), WINDOW_WIDTH, WINDOW_HEIGHT);
  bench_frame_clock_watch (GTK_WIDGET (window), CHRONO_TYPE_TIMELINE);

  a = g_file_new_for_path (paths[0]);
  b = g_file_new_for_path (paths[1]);
  opened_at = g_get_monotonic_time ();
  page = chrono_window_open_comparison (window, a, b);
  if (!app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 600000))
    {
      fprintf (stderr, "bench-compare-frame: %s did not load\n", paths[0]);
      return 1;
    }
  view = chrono_document_page_get_comparison_view (page);
  if (!app_test_spin_until (compared, NULL, 1200000) || chrono_comparison_view_get_comparison (view) == NULL)
    {
      fprintf (stderr, "bench-compare-frame: %s\n",
               chrono_comparison_view_get_error (view) ? chrono_comparison_view_get_error (view)->message
                                                       : "the comparison did not finish");
      return 1;
    }
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (chrono_comparison_view_get_timeline (view, 1)), 60000));

  printf ("A %s (%" G_GUINT64_FORMAT " spans)\nB %s (%" G_GUINT64_FORMAT " spans)\n",
          paths[0], count_spans (chrono_comparison_view_get_timeline (view, 0)),
          paths[1], count_spans (chrono_comparison_view_get_timeline (view, 1)));
  printf ("window %d x %d px, each timeline %d x %d px, renderer %s\n",
          gtk_widget_get_width (GTK_WIDGET (window)), gtk_widget_get_height (GTK_WIDGET (window)),
          gtk_widget_get_width (GTK_WIDGET (chrono_comparison_view_get_timeline (view, 0))),
          gtk_widget_get_height (GTK_WIDGET (chrono_comparison_view_get_timeline (view, 0))),
          G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (window))));
  printf ("open to compared  %.2f s\n", (g_get_monotonic_time () - opened_at) / 1e6);

  viewport = chrono_timeline_get_viewport (chrono_comparison_view_get_timeline (view, CHRONO_COMPARE_SIDE_A));
  ok = drive (viewport, all);
  if (ok)
    {
      chrono_comparison_view_set_stretch (view, TRUE);
      ok = drive (viewport, all);
    }
  if (ok)
    ok = measure_baseline (baseline);
  if (!ok)
    {
      fprintf (stderr, "bench-compare-frame: a frame did not come within %d ms\n", BENCH_FRAME_TIMEOUT_MS);
      return 1;
    }

  p95 = bench_frame_print ("all steps", all->data, all->len, sizeof (FrameTimes));
  for (int k = 0; k < N_STEP_KINDS; k++)
    for (int stretched = 0; stretched < 2; stretched++)
      {
        g_autoptr(GArray) frames = select_frames (all, k, stretched);
        g_autofree char *title = g_strdup_printf ("%s%s", step_names[k], stretched ? ", B stretched" : "");

        bench_frame_print (title, frames->data, frames->len, sizeof (FrameTimes));
      }
  baseline_p95 = bench_frame_print ("baseline (the same areas, nothing in them)", baseline->data, baseline->len,
                                    sizeof (FrameTimes));
  printf ("frame p95 / baseline p95: %.2f\n", baseline_p95 > 0 ? p95 / baseline_p95 : 0.0);
  printf ("frame p95 %.2f ms: %s the 16 ms target\n", p95, p95 <= 16 ? "within" : "over");

  app_test_close_all_tabs (window);
  bench_frame_clock_unwatch ();
  if (example_dir != NULL && !keep)
    {
      for (guint side = 0; side < 2; side++)
        g_unlink (paths[side]);
      g_rmdir (example_dir);
    }
  g_free (paths[0]);
  g_free (paths[1]);
  return 0;
}
