/* test-gen.h: a small Kineto trace writer for the tests that plant
 * bottlenecks: one GPU (pid 0), the launching thread (pid 100, tid 100),
 * times in µs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-loader.h"

G_BEGIN_DECLS

typedef struct {
  GString *s;
  gint64   corr;
} Gen;

void         gen_init      (Gen        *g);
void         gen_event     (Gen        *g,
                            const char *cat,
                            const char *name,
                            int         pid,
                            int         tid,
                            gint64      ts_us,
                            gint64      dur_us,
                            const char *args);
/* A launch at LAUNCH_US of device work of category CAT on STREAM at
 * START_US, with EXTRA args. */
void         gen_work      (Gen        *g,
                            const char *cat,
                            const char *name,
                            int         stream,
                            gint64      launch_us,
                            gint64      start_us,
                            gint64      dur_us,
                            const char *extra);
void         gen_kernel    (Gen        *g,
                            const char *name,
                            gint64      launch_us,
                            gint64      start_us,
                            gint64      dur_us);
/* ProfilerStep#N, 1000 µs from START_US. */
void         gen_step      (Gen        *g,
                            guint       n,
                            gint64      start_us);
/* A step of 20 back-to-back 49 µs kernels launched ahead, starting
 * DELAY_US into the step. */
void         gen_busy_step (Gen        *g,
                            guint       n,
                            gint64      delay_us);
/* Step 0 busy; step 1 loads data from 1000 to 1400 µs, then launches
 * its work; steps 2 and 3 busy. */
void         gen_data_loading (Gen        *g);
/* Step 0 busy; step 1 (1000–5000 µs) of ten 100 µs kernels named
 * KERNEL, each launched 300 µs after the one before ended: the host sets
 * the pace. */
void         gen_host_paced   (Gen        *g,
                               const char *kernel);
/* The trace written, as rank RANK of two. */
ChronoTrace *gen_finish    (Gen        *g,
                            const char *name,
                            int         rank);

G_END_DECLS
