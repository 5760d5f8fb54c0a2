/* bench-frame.c: how long the application's timeline takes per frame
 *
 * Usage: xvfb-run -a -s "-screen 0 1920x1200x24" \
 *          bench-frame [TRACE] [--size SIZE] [--cli PATH] [--keep] [--frames FILE]
 *                      [--after-findings]
 *
 * Opens TRACE (without one: an example trace of SIZE, 3GB by default,
 * about ten million events, written by `chronoscope-cli example` into a
 * temporary folder) in the application's own window, 1600 x 1000 px,
 * and waits for it to load. Then it drives the timeline: zooms in step
 * by step at three points, from the whole trace down to a few
 * microseconds, and out again; pans left and right at four zoom levels;
 * scrolls the tracks down and up. Each step is one real frame of the
 * window's frame clock, and for each it measures:
 *
 *   frame     the frame clock's paint phase, the timeline's snapshot plus
 *             the window's (the other widgets' nodes are cached) plus GSK
 *             rendering the window, and then the time the X server takes
 *             to finish drawing (a round trip): the cairo renderer leaves
 *             the rasterizing to the server
 *   snapshot  the timeline's snapshot alone (its snapshot vfunc, timed
 *             around the call GTK makes)
 *   render    frame minus snapshot
 *
 * and the main thread's CPU time for the paint phase and the snapshot
 * (without the X server's part): steadier than wall time when other
 * work shares the cores.
 *
 * The renderer is the application's choice (cairo without a GPU, see
 * chrono_application_choose_renderer()); GSK_RENDERER=gl measures GTK's
 * GL renderer instead.
 *
 * The steps start as soon as the timeline is drawn, as a user would
 * start, while the findings are still worked out on a worker thread;
 * with --after-findings, once the findings are ready, which draws every
 * step with the lanes the analysis adds (achieved TFLOP/s, memory).
 *
 * It prints their p50/p95/p99, also per kind of step and for the steps
 * drawn before the findings were ready, and against a
 * baseline measured last: frames in which the timeline, without a trace,
 * only changes its background colour, so the renderer redraws the same
 * area with nothing in it. It prints how long after the document turned
 * loaded (the track indexes are built by then, on the loading thread)
 * the first frame that drew the timeline was done, and the peak RSS (VmHWM) of this process, which is
 * the application, against `chronoscope-cli info TRACE` run as a child
 * process beforehand (its ru_maxrss). With --frames, it writes each
 * step's times to FILE, one line a frame.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "app-test-utils.h"
#include "bench-frame-clock.h"
#include "bench-stats.h"
#include "chrono-timeline.h"

#define WINDOW_WIDTH   1600
#define WINDOW_HEIGHT  1000
#define ZOOM_STEP      1.25
#define MIN_WINDOW_NS  4000
#define PAN_STEPS      24
#define SCROLL_STEPS   24
#define FRAME_TIMEOUT_MS BENCH_FRAME_TIMEOUT_MS

extern char **environ;

typedef enum {
  STEP_ZOOM,
  STEP_PAN,
  STEP_SCROLL,
  N_STEP_KINDS
} StepKind;

static const char *step_names[N_STEP_KINDS] = { "zoom", "pan", "scroll" };

typedef struct {
  BenchFrame frame;         /* first: bench_frame_print() reads it */
  gint64 window_ns;         /* the viewport's duration */
  StepKind kind;
  gboolean analysing;       /* the findings were being worked out */
} FrameTimes;

/* The page's findings panel: its analysis runs on a worker thread after
 * the trace is loaded, while the first steps are already drawn. */
static ChronoFindingsPanel *findings;

static double
print_frames_of (const char *title,
                 GArray     *frames)
{
  return bench_frame_print (title, frames->data, frames->len, sizeof (FrameTimes));
}

static void
record (GtkWidget  *timeline,
        StepKind    kind,
        GArray     *all,
        FrameTimes *times)
{
  times->window_ns = chrono_viewport_get_duration (chrono_timeline_get_viewport (CHRONO_TIMELINE (timeline)));
  times->kind = kind;
  times->analysing = chrono_findings_panel_get_analysis (findings) == NULL;
  g_array_append_val (all, *times);
}

/* The frames of KIND, or with KIND < 0 those drawn while the findings
 * were worked out. */
static GArray *
select_frames (GArray *all,
               int     kind)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (FrameTimes));

  for (guint i = 0; i < all->len; i++)
    {
      const FrameTimes *f = &g_array_index (all, FrameTimes, i);

      if (kind >= 0 ? f->kind == (StepKind) kind : f->analysing)
        g_array_append_val (frames, *f);
    }
  return frames;
}

/* One line a frame, in the order they came, for a closer look at the
 * slow ones. */
static gboolean
write_frames (const char *path,
              GArray     *frames,
              GError    **error)
{
  g_autoptr(GString) out = g_string_new ("kind\twindow_ns\tframe_ms\tsnapshot_ms\trender_ms\tframe_cpu_ms\tsnapshot_cpu_ms\tanalysing\n");

  for (guint i = 0; i < frames->len; i++)
    {
      const FrameTimes *f = &g_array_index (frames, FrameTimes, i);

      g_string_append_printf (out, "%s\t%" G_GINT64_FORMAT "\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%d\n",
                              step_names[f->kind], f->window_ns, f->frame.frame_ms, f->frame.snapshot_ms,
                              f->frame.render_ms, f->frame.frame_cpu_ms, f->frame.snapshot_cpu_ms, f->analysing);
    }
  return g_file_set_contents (path, out->str, out->len, error);
}

/* Zooms by ZOOM_STEP at X (in the track area) until the window is
 * shorter than MIN_WINDOW_NS, then back out to the whole trace. */
static gboolean
zoom_in_and_out (GtkWidget *timeline,
                 double     x,
                 GArray    *all)
{
  ChronoViewport *viewport = chrono_timeline_get_viewport (CHRONO_TIMELINE (timeline));
  gint64 whole;
  FrameTimes times;

  chrono_viewport_show_all (viewport);
  whole = chrono_viewport_get_duration (viewport);
  while (chrono_viewport_get_duration (viewport) > MIN_WINDOW_NS)
    {
      gint64 before = chrono_viewport_get_duration (viewport);

      chrono_viewport_zoom (viewport, ZOOM_STEP, x);
      if (chrono_viewport_get_duration (viewport) == before || !bench_frame_clock_next (timeline, &times.frame))
        return FALSE;
      record (timeline, STEP_ZOOM, all, &times);
    }
  while (chrono_viewport_get_duration (viewport) < whole)
    {
      chrono_viewport_zoom (viewport, 1 / ZOOM_STEP, x);
      if (!bench_frame_clock_next (timeline, &times.frame))
        return FALSE;
      record (timeline, STEP_ZOOM, all, &times);
    }
  return TRUE;
}

/* Pans right, then back left, at a window of DURATION around the middle
 * of the trace. */
static gboolean
pan_at (GtkWidget *timeline,
        double     duration,
        GArray    *all)
{
  ChronoViewport *viewport = chrono_timeline_get_viewport (CHRONO_TIMELINE (timeline));
  double width = chrono_viewport_get_width_px (viewport);
  FrameTimes times;
  gint64 middle;

  chrono_viewport_show_all (viewport);
  middle = chrono_viewport_get_start_ns (viewport) + chrono_viewport_get_duration (viewport) / 2;
  chrono_viewport_zoom_to_range (viewport, middle - (gint64) (duration / 2),
                                 middle + (gint64) (duration / 2));
  for (int i = 0; i < 2 * PAN_STEPS; i++)
    {
      chrono_viewport_pan (viewport, (i < PAN_STEPS ? 0.1 : -0.1) * width);
      if (!bench_frame_clock_next (timeline, &times.frame))
        return FALSE;
      record (timeline, STEP_PAN, all, &times);
    }
  return TRUE;
}

/* Where the first span of the first track with spans is drawn: it moves
 * when the tracks scroll. */
static double
first_span_y (GtkWidget *timeline)
{
  ChronoTrace *trace = chrono_timeline_get_trace (CHRONO_TIMELINE (timeline));
  graphene_rect_t area;

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      ChronoSpanRef span = { t, 0 };

      if (chrono_trace_get_track (trace, t)->n_spans > 0 &&
          chrono_timeline_get_span_area (CHRONO_TIMELINE (timeline), span, &area))
        return area.origin.y;
    }
  return 0;
}

/* Only the steps that moved the tracks count: when they all fit, none do. */
static gboolean
scroll_tracks (GtkWidget *timeline,
               GArray    *all)
{
  FrameTimes times;

  chrono_viewport_show_all (chrono_timeline_get_viewport (CHRONO_TIMELINE (timeline)));
  for (int i = 0; i < 2 * SCROLL_STEPS; i++)
    {
      double y = first_span_y (timeline);

      gtk_widget_activate_action (timeline, i < SCROLL_STEPS ? "timeline.scroll-down"
                                                             : "timeline.scroll-up", NULL);
      if (!bench_frame_clock_next (timeline, &times.frame))
        return FALSE;
      if (first_span_y (timeline) != y)
        record (timeline, STEP_SCROLL, all, &times);
    }
  return TRUE;
}

/* The renderer's own cost for the same area: the timeline, without a
 * trace, changes only its background colour from frame to frame. */
static gboolean
measure_baseline (GtkWidget *timeline,
                  GArray    *baseline)
{
  FrameTimes times;

  chrono_timeline_set_trace (CHRONO_TIMELINE (timeline), NULL);
  for (int i = 0; i < 2 * SCROLL_STEPS; i++)
    {
      chrono_timeline_set_dark (CHRONO_TIMELINE (timeline),
                                !chrono_timeline_get_dark (CHRONO_TIMELINE (timeline)));
      if (!bench_frame_clock_next (timeline, &times.frame))
        return FALSE;
      g_array_append_val (baseline, times);
    }
  return TRUE;
}

/* Runs ARGV and returns its peak RSS in bytes, 0 when it failed. */
static guint64
child_peak_rss (char **argv)
{
  posix_spawn_file_actions_t actions;
  struct rusage usage;
  pid_t pid;
  int status, spawned;

  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_addopen (&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  spawned = posix_spawn (&pid, argv[0], &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy (&actions);
  if (spawned != 0)
    return 0;
  while (wait4 (pid, &status, 0, &usage) < 0)
    if (errno != EINTR)
      return 0;
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return 0;
  return (guint64) usage.ru_maxrss * 1024;
}

/* VmHWM of this process, in bytes. */
static guint64
own_peak_rss (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, "VmHWM:");
  return line != NULL ? g_ascii_strtoull (line + 6, NULL, 10) * 1024 : 0;
}

typedef struct {
  gint64 loaded_at;
  gint64 analysed_at;
} LoadWatch;

static void
state_changed_cb (ChronoDocumentPage *page,
                  GParamSpec         *pspec,
                  LoadWatch          *watch)
{
  if (chrono_document_page_get_state (page) == CHRONO_DOCUMENT_STATE_LOADED)
    watch->loaded_at = g_get_monotonic_time ();
}

static void
analysis_changed_cb (ChronoFindingsPanel *panel,
                     GParamSpec          *pspec,
                     LoadWatch           *watch)
{
  if (chrono_findings_panel_get_analysis (panel) != NULL && watch->analysed_at == 0)
    watch->analysed_at = g_get_monotonic_time ();
}

static gboolean
timeline_drawn (gpointer data)
{
  return bench_frame_clock_drawn ();
}

static gboolean
findings_ready (gpointer data)
{
  const LoadWatch *watch = data;

  return watch->analysed_at != 0;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *cli = NULL;
  g_autofree char *size = NULL;
  g_autofree char *trace = NULL;
  g_autofree char *example_dir = NULL;
  g_autofree char *frames_path = NULL;
  gboolean keep = FALSE, after_findings = FALSE;
  const GOptionEntry entries[] = {
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, "Size of the example trace written without TRACE (default 3GB)", "SIZE" },
    { "cli", 0, 0, G_OPTION_ARG_FILENAME, &cli, "chronoscope-cli to compare memory with (default $CHRONO_CLI)", "PATH" },
    { "keep", 0, 0, G_OPTION_ARG_NONE, &keep, "Keep the example trace", NULL },
    { "frames", 0, 0, G_OPTION_ARG_FILENAME, &frames_path, "Write each frame's times to FILE, tab-separated", "FILE" },
    { "after-findings", 0, 0, G_OPTION_ARG_NONE, &after_findings, "Start the steps once the findings are ready", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) options = g_option_context_new ("[TRACE] - frame times of the timeline");
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (FrameTimes));
  g_autoptr(GArray) baseline = g_array_new (FALSE, FALSE, sizeof (FrameTimes));
  ChronoWindow *window;
  ChronoDocumentPage *page;
  GtkWidget *timeline;
  GtkNative *native;
  LoadWatch watch = { 0 };
  char *cli_argv[4];
  guint64 cli_rss, app_rss;
  gint64 opened_at, first_frame_at;
  double track_width;
  double p95, baseline_p95;
  gboolean ok = TRUE;

  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error) || argc > 2)
    {
      fprintf (stderr, "%s\n", error ? error->message : "Usage: bench-frame [TRACE]");
      return 2;
    }
  if (cli == NULL)
    cli = g_strdup (g_getenv ("CHRONO_CLI"));
  if (cli == NULL)
    {
      fprintf (stderr, "bench-frame: give --cli or set CHRONO_CLI\n");
      return 2;
    }

  /* As the application's main() does. */
  chrono_application_choose_renderer ();
  if (!app_test_init (&argc, &argv))
    return 77;

  if (argc == 2)
    trace = g_strdup (argv[1]);
  else
    {
      example_dir = g_dir_make_tmp ("bench-frame-XXXXXX", &error);
      g_assert_no_error (error);
      trace = bench_frame_write_example (cli, size != NULL ? size : "3GB", 1, example_dir, "bench-frame.json");
      if (trace == NULL)
        {
          fprintf (stderr, "bench-frame: %s could not write the example trace\n", cli);
          return 1;
        }
    }

  /* The CLI first, alone, so that neither run pays for the other. */
  cli_argv[0] = cli;
  cli_argv[1] = "info";
  cli_argv[2] = trace;
  cli_argv[3] = NULL;
  cli_rss = child_peak_rss (cli_argv);
  if (cli_rss == 0)
    {
      fprintf (stderr, "bench-frame: %s info %s failed\n", cli, trace);
      return 1;
    }

  window = app_test_get_window ();
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (window), FRAME_TIMEOUT_MS));
  bench_frame_size_window (GTK_WIDGET (window), WINDOW_WIDTH, WINDOW_HEIGHT);
  bench_frame_clock_watch (GTK_WIDGET (window), CHRONO_TYPE_TIMELINE);

  file = g_file_new_for_path (trace);
  opened_at = g_get_monotonic_time ();
  page = chrono_window_open_file (window, file);
  g_signal_connect (page, "notify::state", G_CALLBACK (state_changed_cb), &watch);
  if (!app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 600000))
    {
      fprintf (stderr, "bench-frame: %s did not load\n", trace);
      return 1;
    }
  g_assert_true (app_test_spin_until (timeline_drawn, NULL, 60000));
  first_frame_at = g_get_monotonic_time ();
  findings = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  g_signal_connect (findings, "notify::analysis", G_CALLBACK (analysis_changed_cb), &watch);
  analysis_changed_cb (findings, NULL, &watch);
  if (after_findings && !app_test_spin_until (findings_ready, &watch, 600000))
    {
      fprintf (stderr, "bench-frame: the findings of %s were not ready within 600 s\n", trace);
      return 1;
    }

  timeline = app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE);
  native = gtk_widget_get_native (timeline);
  track_width = chrono_viewport_get_width_px (chrono_timeline_get_viewport (CHRONO_TIMELINE (timeline)));
  printf ("trace %s\n", trace);
  printf ("window %d x %d px, timeline %d x %d px, renderer %s\n",
          gtk_widget_get_width (GTK_WIDGET (window)), gtk_widget_get_height (GTK_WIDGET (window)),
          gtk_widget_get_width (timeline), gtk_widget_get_height (timeline),
          G_OBJECT_TYPE_NAME (gtk_native_get_renderer (native)));
  printf ("load (open to loaded)       %.2f s\n", (watch.loaded_at - opened_at) / 1e6);
  printf ("loaded to first full frame  %.0f ms (frame %.1f ms, timeline snapshot %.1f ms)\n",
          (first_frame_at - watch.loaded_at) / 1e3,
          bench_frame_clock_get_last ()->frame_ms, bench_frame_clock_get_last ()->snapshot_ms);

  for (int p = 1; p <= 3 && ok; p++)
    ok = zoom_in_and_out (timeline, track_width * p / 4, all);
  for (double d = chrono_viewport_get_duration (chrono_timeline_get_viewport (CHRONO_TIMELINE (timeline))) / 8;
       d >= 1e4 && ok; d /= 100)
    ok = pan_at (timeline, d, all);
  if (ok)
    ok = scroll_tracks (timeline, all);
  app_rss = own_peak_rss ();
  if (ok)
    ok = measure_baseline (timeline, baseline);
  if (!ok)
    {
      fprintf (stderr, "bench-frame: a frame did not come within %d ms\n", FRAME_TIMEOUT_MS);
      return 1;
    }

  p95 = print_frames_of ("all steps", all);
  for (int k = 0; k < N_STEP_KINDS; k++)
    {
      g_autoptr(GArray) frames = select_frames (all, k);

      print_frames_of (step_names[k], frames);
    }
  {
    g_autoptr(GArray) busy = select_frames (all, -1);

    print_frames_of ("steps while the findings were worked out (among all steps)", busy);
  }
  baseline_p95 = print_frames_of ("baseline (the same area, nothing in it)", baseline);
  printf ("frame p95 / baseline p95: %.2f\n", baseline_p95 > 0 ? p95 / baseline_p95 : 0.0);
  if (watch.analysed_at > 0)
    printf ("findings ready %.2f s after loading\n", (watch.analysed_at - watch.loaded_at) / 1e6);
  else
    printf ("findings not ready by the end of the steps\n");
  if (frames_path != NULL && !write_frames (frames_path, all, &error))
    {
      fprintf (stderr, "bench-frame: %s\n", error->message);
      return 1;
    }

  printf ("peak RSS: app %.0f MB, chronoscope-cli info %.0f MB, ratio %.2f\n",
          app_rss / 1e6, cli_rss / 1e6, (double) app_rss / cli_rss);

  app_test_close_all_tabs (window);
  if (example_dir != NULL && !keep)
    {
      g_unlink (trace);
      g_rmdir (example_dir);
    }
  bench_frame_clock_unwatch ();
  return 0;
}
