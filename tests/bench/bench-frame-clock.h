/* bench-frame-clock.h: real frames of the application's window, timed:
 * the frame clock's paint phase with the X server's part, and the
 * timelines' snapshots within it, for the frame benchmarks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define BENCH_FRAME_TIMEOUT_MS 10000

/* One frame:
 *   frame     the paint phase, the timelines' snapshots plus the window's
 *             plus GSK rendering it, and then the time the X server takes
 *             to finish drawing (a round trip): the cairo renderer leaves
 *             the rasterizing to the server
 *   snapshot  the timelines' snapshots alone (their snapshot vfunc,
 *             timed around the calls GTK makes), summed
 *   render    frame minus snapshot
 * and the main thread's CPU time for the paint phase and the snapshots. */
typedef struct {
  double frame_ms;
  double snapshot_ms;
  double render_ms;
  double frame_cpu_ms;
  double snapshot_cpu_ms;
} BenchFrame;

/* Times every widget of TIMED_TYPE's snapshot, and WINDOW's frames. */
void     bench_frame_clock_watch   (GtkWidget  *window,
                                    GType       timed_type);
void     bench_frame_clock_unwatch (void);
/* Waits for the frame that draws the change just made to WIDGET. */
gboolean bench_frame_clock_next    (GtkWidget  *widget,
                                    BenchFrame *frame);
/* Whether a frame has drawn a timed widget yet; the last frame's times. */
gboolean bench_frame_clock_drawn   (void);
const BenchFrame *bench_frame_clock_get_last (void);

/* The p50/p95/p99 of N frames, each the BenchFrame at the start of an
 * element STRIDE bytes long; returns the frames' p95. */
double   bench_frame_print         (const char *title,
                                    gconstpointer frames,
                                    guint       n,
                                    gsize       stride);

/* Sets the window's size in widget pixels. */
void     bench_frame_size_window   (GtkWidget  *window,
                                    int         width,
                                    int         height);
/* `CLI example --size SIZE --seed SEED` into DIR/NAME; NULL on failure. */
char    *bench_frame_write_example (const char *cli,
                                    const char *size,
                                    guint       seed,
                                    const char *dir,
                                    const char *name);

G_END_DECLS
