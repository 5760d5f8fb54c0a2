/* bench-stats.h: timings and their percentiles, for the benchmarks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>
#include <time.h>

#include <glib.h>

static inline int
bench_compare_doubles (gconstpointer a,
                       gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The nearest-rank P-th percentile of VALUES (doubles), which it sorts. */
static inline double
bench_percentile (GArray *values,
                  double  p)
{
  guint rank;

  g_return_val_if_fail (values->len > 0, 0.0);

  g_array_sort (values, bench_compare_doubles);
  rank = (guint) ceil (p / 100.0 * values->len);
  return g_array_index (values, double, MIN (MAX (rank, 1), values->len) - 1);
}

/* The calling thread's CPU time, in ms: steadier than wall time when
 * other work shares the cores. */
static inline double
bench_thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The process's CPU time over all its threads, in seconds: what a phase
 * costs whatever else shares the cores. */
static inline double
bench_process_cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}
