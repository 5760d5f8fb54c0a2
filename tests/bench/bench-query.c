/* bench-query.c: SQL over a big trace against plain C loops over the same
 * columns, in the same run
 *
 * Usage: bench-query TRACE
 *
 * For the 10-million-span figures: chronoscope-cli example --size 4.5GB
 * -o big.json, then bench-query big.json. It times the load, then a full
 * GROUP BY name over spans (best of three) beside a C loop that sums the
 * same columns per name id, and queries of one track in a 1 ms window
 * (20 windows over the trace) beside a C loop that binary-searches and
 * walks that track; the first of these also finds the track's longest
 * span, once, and is given apart. The windows give median and worst,
 * each against the C loop's, and for the worst query its CPU time, how
 * often the scheduler took the core from it and its page faults: a worst
 * wall time far above its CPU time is time spent waiting for a core.
 * Then device_work: a count(*) of its rows beside a loop over the
 * streams' kinds, and its rows grouped by op_name (the launches found
 * once, in the first run, which is given apart).
 * Each figure is given as wall time and as the CPU
 * time of the thread that ran it (the load: of the process, over its two
 * threads), which is steadier when other work shares the cores. It
 * checks that both give the same numbers, reports, and exits 1 only when
 * they differ or it cannot run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench-stats.h"
#include "chrono-loader.h"
#include "chrono-query.h"

#define RUNS    3
#define WINDOWS 20
#define WINDOW_NS 1000000

/* Wall and CPU seconds of one measurement. */
typedef struct {
  double wall;
  double cpu;
  gint64 wall_start;
  double cpu_start;
  long   preempted;        /* involuntary context switches of the thread */
  long   preempted_start;
  long   faults;           /* page faults of the thread */
  long   faults_start;
} Timing;

static void
thread_usage (long *preempted,
              long *faults)
{
  struct rusage usage;

  getrusage (RUSAGE_THREAD, &usage);
  *preempted = usage.ru_nivcsw;
  *faults = usage.ru_minflt + usage.ru_majflt;
}

static void
timing_start (Timing *t)
{
  thread_usage (&t->preempted_start, &t->faults_start);
  t->wall_start = g_get_monotonic_time ();
  t->cpu_start = bench_thread_cpu_ms ();
}

static void
timing_stop (Timing *t)
{
  t->wall = (g_get_monotonic_time () - t->wall_start) / 1e6;
  t->cpu = (bench_thread_cpu_ms () - t->cpu_start) / 1e3;
  thread_usage (&t->preempted, &t->faults);
  t->preempted -= t->preempted_start;
  t->faults -= t->faults_start;
}

/* Keeps in BEST the smaller of each figure. */
static void
timing_keep_best (Timing       *best,
                  const Timing *t)
{
  best->wall = MIN (best->wall, t->wall);
  best->cpu = MIN (best->cpu, t->cpu);
}

/* Count and total duration per name id, over every span: what the
 * GROUP BY reads. Returns the number of names seen. */
static guint
group_by_name_loop (ChronoTrace *trace,
                    guint64     *counts,
                    gint64      *totals)
{
  guint n_names = 0;

  memset (counts, 0, chrono_trace_get_n_strings (trace) * sizeof *counts);
  memset (totals, 0, chrono_trace_get_n_strings (trace) * sizeof *totals);
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      for (guint32 i = 0; i < track->n_spans; i++)
        {
          guint32 name = chrono_track_get_name (track, i);

          n_names += counts[name] == 0;
          counts[name]++;
          totals[name] += chrono_track_get_dur (track, i);
        }
    }
  return n_names;
}

/* Spans of TRACK overlapping [W0, W1): count and total duration. */
static void
window_loop (const ChronoTrack *track,
             gint64             longest,
             gint64             w0,
             gint64             w1,
             gint64            *count,
             gint64            *total)
{
  guint32 lo = 0, hi = track->n_spans;

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (track->start[mid] < w0 - longest)
        lo = mid + 1;
      else
        hi = mid;
    }
  *count = *total = 0;
  for (guint32 i = lo; i < track->n_spans && track->start[i] < w1; i++)
    if (chrono_track_get_end (track, i) > w0)
      {
        (*count)++;
        *total += chrono_track_get_dur (track, i);
      }
}

/* The spans device_work holds: the work on the devices' streams. */
static guint64
device_work_loop (ChronoTrace *trace)
{
  guint64 n = 0;

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      if (track->type != CHRONO_TRACK_STREAM)
        continue;
      for (guint32 i = 0; i < track->n_spans; i++)
        switch (track->kind[i])
          {
          case CHRONO_KIND_KERNEL:
          case CHRONO_KIND_MEMCPY:
          case CHRONO_KIND_MEMSET:
          case CHRONO_KIND_COLLECTIVE:
          case CHRONO_KIND_INSTRUCTION:
          case CHRONO_KIND_DMA:
            n++;
            break;
          default:
            break;
          }
    }
  return n;
}

static ChronoQueryResult *
run (ChronoQuery *engine,
     const char  *sql,
     Timing      *timing)
{
  g_autoptr(GError) error = NULL;
  ChronoQueryLimits limits = { .max_rows = 0, .max_time_ms = 0 };
  ChronoQueryResult *result;

  timing_start (timing);
  result = chrono_query_run (engine, sql, &limits, NULL, &error);
  timing_stop (timing);
  if (result == NULL)
    {
      g_printerr ("%s: %s\n", sql, error->message);
      exit (1);
    }
  return result;
}

/* Whether RESULT (name, count, total) holds the counts and totals the
 * loop found for each name id. */
static gboolean
same_groups (ChronoTrace       *trace,
             ChronoQueryResult *result,
             guint              n_names,
             const guint64     *counts,
             const gint64      *totals)
{
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);

  if (chrono_query_result_get_n_rows (result) != n_names)
    return FALSE;
  for (guint32 id = 0; id < chrono_trace_get_n_strings (trace); id++)
    if (counts[id] > 0)
      g_hash_table_insert (ids, (gpointer) chrono_trace_get_string (trace, id), GUINT_TO_POINTER (id + 1));
  for (guint i = 0; i < n_names; i++)
    {
      guint id = GPOINTER_TO_UINT (g_hash_table_lookup (ids, chrono_query_result_get_text (result, i, 0)));

      if (id == 0 || counts[id - 1] != (guint64) chrono_query_result_get_int (result, i, 1) ||
          totals[id - 1] != chrono_query_result_get_int (result, i, 2))
        return FALSE;
    }
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoQuery) engine = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint64 *counts = NULL;
  g_autofree gint64 *totals = NULL;
  g_autoptr(GArray) sql_window = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) sql_window_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) loop_window = g_array_new (FALSE, FALSE, sizeof (double));
  Timing best_sql = { G_MAXDOUBLE, G_MAXDOUBLE }, best_loop = { G_MAXDOUBLE, G_MAXDOUBLE }, first_query = { 0 }, worst_query = { 0 };
  double load_wall, load_cpu;
  guint64 n_spans = 0;
  guint busiest = 0, n_names = 0;
  const ChronoTrack *track;
  gint64 longest = 0, t0;
  gboolean same = TRUE;

  if (argc < 2)
    {
      g_printerr ("Usage: %s TRACE\n", argv[0]);
      return 1;
    }
  t0 = g_get_monotonic_time ();
  load_cpu = bench_process_cpu_s ();
  trace = chrono_trace_load_file (argv[1], NULL, NULL, NULL, &error);
  load_wall = (g_get_monotonic_time () - t0) / 1e6;
  load_cpu = bench_process_cpu_s () - load_cpu;
  if (trace == NULL || (engine = chrono_query_new (&trace, 1, NULL, &error)) == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      n_spans += chrono_trace_get_track (trace, t)->n_spans;
      if (chrono_trace_get_track (trace, t)->n_spans > chrono_trace_get_track (trace, busiest)->n_spans)
        busiest = t;
    }
  g_print ("%s: %" G_GUINT64_FORMAT " spans on %u tracks, loaded in %.2f s (%.2f s of CPU)\n",
           argv[1], n_spans, chrono_trace_get_n_tracks (trace), load_wall, load_cpu);

  /* The whole trace, grouped by name. */
  counts = g_new (guint64, chrono_trace_get_n_strings (trace));
  totals = g_new (gint64, chrono_trace_get_n_strings (trace));
  for (guint r = 0; r < RUNS; r++)
    {
      g_autoptr(ChronoQueryResult) result = NULL;
      Timing timing;

      timing_start (&timing);
      n_names = group_by_name_loop (trace, counts, totals);
      timing_stop (&timing);
      timing_keep_best (&best_loop, &timing);
      result = run (engine, "SELECT name, count(*), sum(dur) FROM spans GROUP BY name", &timing);
      timing_keep_best (&best_sql, &timing);
      same = same && same_groups (trace, result, n_names, counts, totals);
    }
  g_print ("GROUP BY name over every span (%u names), best of %d, wall (CPU):\n"
           "  SQL     %9.1f ms (%9.1f)   %.2f x the load (%.2f of its CPU) (aim: at most 0.5)\n"
           "  C loop  %9.1f ms (%9.1f)   SQL / C loop: %.1f (%.1f)\n",
           n_names, RUNS, best_sql.wall * 1e3, best_sql.cpu * 1e3, best_sql.wall / load_wall, best_sql.cpu / load_cpu,
           best_loop.wall * 1e3, best_loop.cpu * 1e3, best_sql.wall / best_loop.wall, best_sql.cpu / best_loop.cpu);

  /* One track, a 1 ms window at a time. */
  track = chrono_trace_get_track (trace, busiest);
  for (guint32 i = 0; i < track->n_spans; i++)
    longest = MAX (longest, chrono_track_get_dur (track, i));
  for (guint w = 0; w < WINDOWS && track->n_spans > 0; w++)
    {
      gint64 first = track->start[0];
      gint64 last = chrono_track_get_end (track, track->n_spans - 1);
      gint64 w0 = first + (last - first) / (WINDOWS + 1) * (w + 1);
      g_autofree char *sql = g_strdup_printf ("SELECT count(*), total(dur) FROM spans WHERE track_id = %u "
                                              "AND ts < %" G_GINT64_FORMAT " AND ts_end > %" G_GINT64_FORMAT,
                                              busiest, w0 + WINDOW_NS, w0);
      g_autoptr(ChronoQueryResult) result = NULL;
      gint64 count, total;
      Timing timing;

      result = run (engine, sql, &timing);
      if (w == 0)
        first_query = timing;
      else
        {
          if (timing.wall > worst_query.wall)
            worst_query = timing;
          g_array_append_val (sql_window, timing.wall);
          g_array_append_val (sql_window_cpu, timing.cpu);
        }
      timing_start (&timing);
      window_loop (track, longest, w0, w0 + WINDOW_NS, &count, &total);
      timing_stop (&timing);
      g_array_append_val (loop_window, timing.wall);
      same = same && chrono_query_result_get_int (result, 0, 0) == count &&
             (gint64) chrono_query_result_get_real (result, 0, 1) == total;
    }
  g_print ("one track (%u spans), a 1 ms window, %d windows:\n"
           "  SQL     first %7.3f ms (CPU %7.3f), with the track's longest span found once\n"
           "  SQL     then median %7.3f ms  worst %7.3f ms (aim: under 10)\n"
           "          CPU: median %7.3f ms  worst %7.3f ms\n"
           "  C loop  median %7.3f ms  worst %7.3f ms\n"
           "  SQL / C loop: median %.1f, worst %.1f\n"
           "  the worst SQL query: %.3f ms of CPU, preempted %ld times, %ld page faults\n",
           track->n_spans, WINDOWS, first_query.wall * 1e3, first_query.cpu * 1e3,
           bench_percentile (sql_window, 50) * 1e3, bench_percentile (sql_window, 100) * 1e3,
           bench_percentile (sql_window_cpu, 50) * 1e3, bench_percentile (sql_window_cpu, 100) * 1e3,
           bench_percentile (loop_window, 50) * 1e3, bench_percentile (loop_window, 100) * 1e3,
           bench_percentile (sql_window, 50) / MAX (bench_percentile (loop_window, 50), 1e-9),
           bench_percentile (sql_window, 100) / MAX (bench_percentile (loop_window, 100), 1e-9),
           worst_query.cpu * 1e3, worst_query.preempted, worst_query.faults);

  /* device_work: its rows counted, then grouped by the launching operator. */
  {
    Timing best_count = { G_MAXDOUBLE, G_MAXDOUBLE }, best_count_loop = { G_MAXDOUBLE, G_MAXDOUBLE };
    Timing first_ops = { 0 }, best_ops = { G_MAXDOUBLE, G_MAXDOUBLE };
    guint64 n_device = 0;
    guint n_ops = 0;

    for (guint r = 0; r < RUNS; r++)
      {
        g_autoptr(ChronoQueryResult) result = NULL;
        Timing timing;

        timing_start (&timing);
        n_device = device_work_loop (trace);
        timing_stop (&timing);
        timing_keep_best (&best_count_loop, &timing);
        result = run (engine, "SELECT count(*) FROM device_work", &timing);
        timing_keep_best (&best_count, &timing);
        same = same && (guint64) chrono_query_result_get_int (result, 0, 0) == n_device;
      }
    for (guint r = 0; r < RUNS + 1; r++)
      {
        g_autoptr(ChronoQueryResult) result = NULL;
        Timing timing;
        guint64 rows = 0;

        result = run (engine, "SELECT op_name, count(*), sum(dur) FROM device_work GROUP BY op_name", &timing);
        if (r == 0)
          first_ops = timing;
        else
          timing_keep_best (&best_ops, &timing);
        n_ops = chrono_query_result_get_n_rows (result);
        for (guint i = 0; i < n_ops; i++)
          rows += (guint64) chrono_query_result_get_int (result, i, 1);
        same = same && rows == n_device;
      }
    g_print ("device_work (%" G_GUINT64_FORMAT " rows), wall (CPU):\n"
             "  count(*) best of %d  %9.1f ms (%9.1f)   C loop %7.1f ms (%7.1f)   SQL / C loop: %.1f (%.1f)\n"
             "  GROUP BY op_name (%u operators): first %9.1f ms (%9.1f), with the launches found once; "
             "then best of %d %9.1f ms (%9.1f)\n",
             n_device, RUNS, best_count.wall * 1e3, best_count.cpu * 1e3, best_count_loop.wall * 1e3,
             best_count_loop.cpu * 1e3, best_count.wall / MAX (best_count_loop.wall, 1e-9),
             best_count.cpu / MAX (best_count_loop.cpu, 1e-9), n_ops, first_ops.wall * 1e3, first_ops.cpu * 1e3,
             RUNS, best_ops.wall * 1e3, best_ops.cpu * 1e3);
  }
  g_print ("%s\n", same ? "SQL and the C loops give the same numbers" : "SQL and the C loops DIFFER");
  return same ? 0 : 1;
}
