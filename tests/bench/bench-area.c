/* bench-area.c: how long an area's aggregates take when the area holds a
 * million spans or more
 *
 * Usage: bench-area [--size MB] [TRACE]
 *
 * Without TRACE it writes the example trace (chronoscope-cli example) of
 * about MB megabytes (default 500, over a million spans) to a temporary
 * file and loads it. The area is the whole trace over every track; it is
 * aggregated by name, by name per track, by category and by kind, five
 * times each, and the first, median and worst wall times are reported
 * with the CPU time and page faults of a run, against
 * the 0.3 s the area table is meant to take. It reports; it exits 0
 * unless it cannot run at all.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench-stats.h"
#include "chrono-area-stats.h"
#include "chrono-example-trace.h"
#include "chrono-loader.h"

#define RUNS 5
#define TARGET_S 0.3

/* Page faults of the process so far. */
static long
page_faults (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_minflt + usage.ru_majflt;
}

static ChronoTrace *
load_example (guint64   megabytes,
              GError  **error)
{
  ChronoExampleOptions options;
  g_autofree char *path = NULL;
  ChronoTrace *trace;
  int fd;

  chrono_example_options_init (&options);
  options.target_bytes = megabytes * 1000 * 1000;
  if ((fd = g_file_open_tmp ("bench-area-XXXXXX.json", &path, error)) < 0)
    return NULL;
  close (fd);
  if (!chrono_example_trace_write (path, &options, NULL, error))
    return NULL;
  trace = chrono_trace_load_file (path, NULL, NULL, NULL, error);
  g_unlink (path);
  return trace;
}

int
main (int argc, char **argv)
{
  static const struct { const char *what; ChronoAreaGrouping grouping; gboolean per_track; } cases[] = {
    { "name", CHRONO_AREA_BY_NAME, FALSE },
    { "name per track", CHRONO_AREA_BY_NAME, TRUE },
    { "category", CHRONO_AREA_BY_CATEGORY, FALSE },
    { "kind", CHRONO_AREA_BY_KIND, FALSE },
  };
  gint64 megabytes = 500;
  GOptionEntry entries[] = {
    { "size", 0, 0, G_OPTION_ARG_INT64, &megabytes, "Size of the example trace in MB", "MB" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[TRACE]");
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint *tracks = NULL;
  guint n_tracks;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  trace = argc > 1 ? chrono_trace_load_file (argv[1], NULL, NULL, NULL, &error)
                   : load_example ((guint64) megabytes, &error);
  if (trace == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  n_tracks = chrono_trace_get_n_tracks (trace);
  tracks = g_new (guint, MAX (n_tracks, 1));
  for (guint t = 0; t < n_tracks; t++)
    tracks[t] = t;

  g_print ("%-16s %10s %6s %10s %10s %10s %10s %8s  %s\n", "grouping", "spans", "rows", "first s", "median s",
           "worst s", "cpu s", "faults", "within 0.3 s");
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(GArray) walls = g_array_new (FALSE, FALSE, sizeof (double));
      guint64 n_spans = 0;
      guint n_rows = 0;
      double cpu0 = bench_process_cpu_s (), worst, first = 0;
      long faults0 = page_faults ();

      for (guint r = 0; r < RUNS; r++)
        {
          gint64 t0 = g_get_monotonic_time ();
          g_autoptr(ChronoAreaStats) stats =
            chrono_area_stats_new (trace, tracks, n_tracks, chrono_trace_get_start_ns (trace),
                                   chrono_trace_get_end_ns (trace) + 1, cases[c].grouping, cases[c].per_track,
                                   NULL, NULL);
          double wall = (g_get_monotonic_time () - t0) / 1e6;

          g_array_append_val (walls, wall);
          if (r == 0)
            first = wall;
          n_spans = chrono_area_stats_get_n_spans (stats);
          n_rows = chrono_area_stats_get_n_rows (stats);
        }
      worst = bench_percentile (walls, 100);
      g_print ("%-16s %10" G_GUINT64_FORMAT " %6u %10.3f %10.3f %10.3f %10.3f %8ld  %s\n", cases[c].what, n_spans,
               n_rows, first, bench_percentile (walls, 50), worst,
               (bench_process_cpu_s () - cpu0) / RUNS, (page_faults () - faults0) / RUNS,
               worst <= TARGET_S ? "yes" : "no");
    }
  return 0;
}
