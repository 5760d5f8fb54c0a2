/* bench-frame-clock.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>

#include "app-test-utils.h"
#include "bench-frame-clock.h"
#include "bench-stats.h"

/* Filled in by the frame clock and the wrapped snapshot vfunc. */
static struct {
  GtkWidgetClass *timed_class;
  void          (*snapshot) (GtkWidget *, GtkSnapshot *);
  gint64          before_paint;
  gint64          layout_done;
  double          layout_done_cpu;
  gint64          snapshot_us;   /* the timed widgets', in the current frame */
  double          snapshot_cpu;
  guint           snapshots;     /* ever */
  guint           frames;        /* after-paint signals seen */
  BenchFrame      last;
  gboolean        last_drew;     /* a timed widget */
} clock_state;

static void
timed_snapshot (GtkWidget   *widget,
                GtkSnapshot *snapshot)
{
  gint64 start = g_get_monotonic_time ();
  double cpu = bench_thread_cpu_ms ();

  clock_state.snapshot (widget, snapshot);
  clock_state.snapshot_cpu += bench_thread_cpu_ms () - cpu;
  clock_state.snapshot_us += g_get_monotonic_time () - start;
  clock_state.snapshots++;
}

static void
before_paint_cb (GdkFrameClock *clock)
{
  clock_state.before_paint = g_get_monotonic_time ();
  clock_state.layout_done = 0;
  clock_state.layout_done_cpu = bench_thread_cpu_ms ();
  clock_state.snapshot_us = 0;
  clock_state.snapshot_cpu = 0;
}

static void
layout_done_cb (GdkFrameClock *clock)
{
  clock_state.layout_done = g_get_monotonic_time ();
  clock_state.layout_done_cpu = bench_thread_cpu_ms ();
}

static void
after_paint_cb (GdkFrameClock *clock,
                GdkDisplay    *display)
{
  gint64 paint_start = clock_state.layout_done ? clock_state.layout_done : clock_state.before_paint;
  gint64 now;

  clock_state.last.frame_cpu_ms = bench_thread_cpu_ms () - clock_state.layout_done_cpu;
  clock_state.last.snapshot_cpu_ms = clock_state.snapshot_cpu;
  gdk_display_sync (display);
  now = g_get_monotonic_time ();
  clock_state.last.frame_ms = (now - paint_start) / 1e3;
  clock_state.last.snapshot_ms = clock_state.snapshot_us / 1e3;
  clock_state.last.render_ms = clock_state.last.frame_ms - clock_state.last.snapshot_ms;
  clock_state.last_drew = clock_state.snapshot_us > 0;
  clock_state.frames++;
}

void
bench_frame_clock_watch (GtkWidget *window,
                         GType      timed_type)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);

  clock_state.timed_class = g_type_class_ref (timed_type);
  clock_state.snapshot = clock_state.timed_class->snapshot;
  clock_state.timed_class->snapshot = timed_snapshot;
  g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint_cb), NULL);
  /* After the window's own handler: layout is done, painting starts. */
  g_signal_connect_after (clock, "layout", G_CALLBACK (layout_done_cb), NULL);
  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), gtk_widget_get_display (window));
}

void
bench_frame_clock_unwatch (void)
{
  if (clock_state.timed_class == NULL)
    return;
  clock_state.timed_class->snapshot = clock_state.snapshot;
  g_type_class_unref (clock_state.timed_class);
  clock_state.timed_class = NULL;
}

static gboolean
frames_past (gpointer data)
{
  return clock_state.frames > GPOINTER_TO_UINT (data) && clock_state.last_drew;
}

gboolean
bench_frame_clock_next (GtkWidget  *widget,
                        BenchFrame *frame)
{
  guint seen = clock_state.frames;

  gtk_widget_queue_draw (widget);
  if (!app_test_spin_until (frames_past, GUINT_TO_POINTER (seen), BENCH_FRAME_TIMEOUT_MS))
    return FALSE;
  *frame = clock_state.last;
  return TRUE;
}

gboolean
bench_frame_clock_drawn (void)
{
  return clock_state.snapshots > 0 && clock_state.last_drew;
}

const BenchFrame *
bench_frame_clock_get_last (void)
{
  return &clock_state.last;
}

/* Returns the p95. */
static double
print_percentiles (const char   *what,
                   gconstpointer frames,
                   guint         n,
                   gsize         stride,
                   gsize         offset)
{
  g_autoptr(GArray) ms = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < n; i++)
    {
      double value = *(const double *) ((const char *) frames + i * stride + offset);

      g_array_append_val (ms, value);
    }
  if (ms->len == 0)
    return 0;
  printf ("  %-18s p50 %7.2f ms  p95 %7.2f ms  p99 %7.2f ms  max %7.2f ms  (%u frames)\n",
          what, bench_percentile (ms, 50), bench_percentile (ms, 95), bench_percentile (ms, 99),
          bench_percentile (ms, 100), ms->len);
  return bench_percentile (ms, 95);
}

double
bench_frame_print (const char   *title,
                   gconstpointer frames,
                   guint         n,
                   gsize         stride)
{
  double p95;

  printf ("%s\n", title);
  p95 = print_percentiles ("frame", frames, n, stride, G_STRUCT_OFFSET (BenchFrame, frame_ms));
  print_percentiles ("  snapshot", frames, n, stride, G_STRUCT_OFFSET (BenchFrame, snapshot_ms));
  print_percentiles ("  render", frames, n, stride, G_STRUCT_OFFSET (BenchFrame, render_ms));
  print_percentiles ("frame, CPU", frames, n, stride, G_STRUCT_OFFSET (BenchFrame, frame_cpu_ms));
  print_percentiles ("  snapshot, CPU", frames, n, stride, G_STRUCT_OFFSET (BenchFrame, snapshot_cpu_ms));
  return p95;
}

/* The default size counts the margins of client-side decorations too. */
void
bench_frame_size_window (GtkWidget *window,
                         int        width,
                         int        height)
{
  for (int attempt = 0; attempt < 3; attempt++)
    {
      int shown_width = gtk_widget_get_width (window), shown_height = gtk_widget_get_height (window);
      int default_width, default_height;

      if (shown_width == width && shown_height == height)
        return;
      gtk_window_get_default_size (GTK_WINDOW (window), &default_width, &default_height);
      gtk_window_set_default_size (GTK_WINDOW (window),
                                   attempt == 0 ? width : default_width + width - shown_width,
                                   attempt == 0 ? height : default_height + height - shown_height);
      g_assert_true (app_test_wait_for_paint (window, BENCH_FRAME_TIMEOUT_MS));
    }
}

char *
bench_frame_write_example (const char *cli,
                           const char *size,
                           guint       seed,
                           const char *dir,
                           const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *seed_text = g_strdup_printf ("%u", seed);
  char *argv[] = { (char *) cli, "example", "--size", (char *) size, "--seed", seed_text, "-o", path, NULL };
  int status;

  if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                     &status, NULL) || !g_spawn_check_wait_status (status, NULL))
    return NULL;
  return g_steal_pointer (&path);
}
