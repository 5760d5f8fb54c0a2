/* bench-compare.c: comparing two runs next to loading them
 *
 * Usage: bench-compare [--size SIZE] [--repeat N] [A B]
 *
 * Writes two example traces of SIZE (default 500MB) with different seeds
 * (or takes A and B), then measures in the same run: loading each alone,
 * and the whole comparison as chronoscope-cli compare does it (each side
 * loaded and analysed in a thread of its own, both at once, then
 * compared). It reports the comparison's time as a ratio to the sum of
 * the loads, and what the comparison itself adds. With --repeat, the
 * comparison step alone is run N times more on the same analyses, and
 * its fastest and median times are told: a steadier figure on a noisy
 * machine. It always exits 0 unless it cannot run at all.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "bench-stats.h"
#include "chrono-comparison.h"
#include "chrono-example-trace.h"
#include "chrono-format.h"
#include "chrono-loader.h"

/* CPU time, over all threads, of the loads. */
static double load_cpu_s;

static ChronoTrace *
load (const char *path,
      gint64     *us)
{
  g_autoptr(GError) error = NULL;
  double c0 = bench_process_cpu_s ();
  gint64 t0 = g_get_monotonic_time ();
  ChronoTrace *trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);

  if (trace == NULL)
    {
      g_printerr ("%s\n", error->message);
      exit (1);
    }
  *us = g_get_monotonic_time () - t0;
  load_cpu_s += bench_process_cpu_s () - c0;
  return trace;
}

static ChronoTrace *
load_side (gpointer   path,
           GError   **error)
{
  return chrono_trace_load_file (path, NULL, NULL, NULL, error);
}

static char *
write_example (guint64 bytes,
               guint64 seed)
{
  g_autoptr(GError) error = NULL;
  ChronoExampleOptions options;
  char *path = NULL;
  int fd = g_file_open_tmp ("bench-compare-XXXXXX.json", &path, &error);

  if (fd < 0)
    {
      g_printerr ("%s\n", error->message);
      exit (1);
    }
  close (fd);
  chrono_example_options_init (&options);
  options.target_bytes = bytes;
  options.seed = seed;
  if (!chrono_example_trace_write (path, &options, NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      exit (1);
    }
  return path;
}

int
main (int    argc,
      char **argv)
{
  guint64 bytes = 500 * G_GUINT64_CONSTANT (1000000);
  const char *given[2] = { NULL, NULL };
  g_autofree char *tmp[2] = { NULL, NULL };
  const char *path[2];
  gint64 load_us[2], pair_us, compare_us;
  double alone_cpu_s, c0, c1, c2;
  g_autoptr(GError) error = NULL;
  struct rusage usage;
  guint n_given = 0, repeat = 0;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--repeat") == 0 && i + 1 < argc)
        repeat = (guint) g_ascii_strtoull (argv[++i], NULL, 10);
      else if (strcmp (argv[i], "--size") == 0 && i + 1 < argc)
        {
          if (!chrono_format_parse_size (argv[++i], &bytes, &error))
            {
              g_printerr ("%s\n", error->message);
              return 1;
            }
        }
      else if (n_given < 2)
        given[n_given++] = argv[i];
    }
  for (guint k = 0; k < 2; k++)
    {
      if (n_given == 2)
        path[k] = given[k];
      else
        path[k] = tmp[k] = write_example (bytes, k + 1);
    }

  /* Each alone, freed before the next. */
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(ChronoTrace) trace = load (path[k], &load_us[k]);
    }
  alone_cpu_s = load_cpu_s;

  {
    g_autoptr(ChronoAnalysis) aa = NULL;
    g_autoptr(ChronoAnalysis) ab = NULL;
    g_autoptr(ChronoComparison) c = NULL;
    gint64 t0, t1, t2;
    ChronoTrace *a, *b;

    t0 = g_get_monotonic_time ();
    c0 = bench_process_cpu_s ();
    chrono_analysis_load_pair (load_side, (gpointer) path[0], (gpointer) path[1], NULL, NULL, &aa, &ab, &error);
    g_assert_no_error (error);
    t1 = g_get_monotonic_time ();
    c1 = bench_process_cpu_s ();
    c = chrono_comparison_run (aa, ab, NULL, NULL, &error);
    g_assert_no_error (error);
    t2 = g_get_monotonic_time ();
    c2 = bench_process_cpu_s ();
    pair_us = t1 - t0;
    compare_us = t2 - t1;
    a = chrono_analysis_get_trace (aa, 0);
    b = chrono_analysis_get_trace (ab, 0);
    getrusage (RUSAGE_SELF, &usage);
    printf ("A %s (%.1f MB), B %s (%.1f MB)\n", path[0], chrono_trace_get_source_size (a) / 1e6,
            path[1], chrono_trace_get_source_size (b) / 1e6);
    printf ("  load alone: A %.3f s, B %.3f s, sum %.3f s\n", load_us[0] / 1e6, load_us[1] / 1e6,
            (load_us[0] + load_us[1]) / 1e6);
    printf ("  compare: load and analyse both at once %.3f s + compare %.3f s = %.3f s, %.2f× the sum of the loads "
            "(the comparison alone %.2f×); %u steps used, %u operators, %u kernels; peak RSS %ld MB\n",
            pair_us / 1e6, compare_us / 1e6, (pair_us + compare_us) / 1e6,
            (double) (pair_us + compare_us) / MAX (load_us[0] + load_us[1], 1),
            (double) compare_us / MAX (load_us[0] + load_us[1], 1),
            chrono_comparison_get_n_used (c), chrono_comparison_get_n_ops (c), chrono_comparison_get_n_kernels (c),
            usage.ru_maxrss / 1024);
    printf ("  CPU time over all threads: loads alone %.3f s; load and analyse %.3f s + compare %.3f s, "
            "%.2f× and %.2f× of it\n",
            alone_cpu_s, c1 - c0, c2 - c1, (c1 - c0) / MAX (alone_cpu_s, 1e-9), (c2 - c1) / MAX (alone_cpu_s, 1e-9));
    if (repeat > 0)
      {
        g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));

        for (guint r = 0; r < repeat; r++)
          {
            gint64 t = g_get_monotonic_time ();
            g_autoptr(ChronoComparison) again = chrono_comparison_run (aa, ab, NULL, NULL, &error);
            double s;

            g_assert_no_error (error);
            s = (g_get_monotonic_time () - t) / 1e6;
            g_array_append_val (times, s);
          }
        printf ("  the comparison alone, %u times more: fastest %.3f s, median %.3f s\n", repeat,
                bench_percentile (times, 0), bench_percentile (times, 50));
      }
  }
  for (guint k = 0; k < 2; k++)
    if (tmp[k])
      g_unlink (tmp[k]);
  return 0;
}
