/* bench-analysis.c: how long the analyses take next to loading
 *
 * Usage: bench-analysis [TRACES_DIR] [--big PATH]
 *
 * For the largest Kineto trace of TRACES_DIR and for a ~1 GB trace from
 * the example generator (written to PATH, or a temporary file), it loads
 * the trace and runs every analysis, and reports both times and their
 * ratio; the target is that analysing takes no longer than loading. It
 * always exits 0 unless it cannot run at all.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "bench-stats.h"
#include "chrono-analysis.h"
#include "chrono-efficiency.h"
#include "chrono-example-trace.h"
#include "chrono-loader.h"

static void
measure (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) analysis = NULL;
  gint64 t0, t1, t2;
  double c0, c1, c2;
  struct rusage usage;

  c0 = bench_process_cpu_s ();
  t0 = g_get_monotonic_time ();
  trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("%s\n", error->message);
      return;
    }
  t1 = g_get_monotonic_time ();
  c1 = bench_process_cpu_s ();
  analysis = chrono_analysis_run (&trace, 1, NULL, NULL, &error);
  t2 = g_get_monotonic_time ();
  c2 = bench_process_cpu_s ();
  g_assert_no_error (error);
  getrusage (RUSAGE_SELF, &usage);
  printf ("%s\n  %.1f MB, load %.3f s, analysis %.3f s (%.2f× loading), %u findings, "
          "%u operator efficiency rows, peak RSS %ld MB\n"
          "  CPU time over all threads: load %.3f s, analysis %.3f s (%.2f×)\n",
          path, chrono_trace_get_source_size (trace) / 1e6, (t1 - t0) / 1e6, (t2 - t1) / 1e6,
          (double) (t2 - t1) / MAX (t1 - t0, 1), chrono_analysis_get_n_findings (analysis),
          chrono_analysis_get_n_efficiency (analysis), usage.ru_maxrss / 1024,
          c1 - c0, c2 - c1, (c2 - c1) / MAX (c1 - c0, 1e-9));
}

int
main (int    argc,
      char **argv)
{
  const char *dir = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
  const char *big = NULL;
  g_autofree char *largest = NULL;
  g_autofree char *tmp = NULL;
  goffset largest_size = 0;
  ChronoExampleOptions options;
  g_autoptr(GError) error = NULL;

  for (int i = 1; i < argc - 1; i++)
    if (strcmp (argv[i], "--big") == 0)
      big = argv[i + 1];

  if (dir)
    {
      g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
      const char *name;

      while (d && (name = g_dir_read_name (d)))
        {
          g_autofree char *path = g_build_filename (dir, name, NULL);
          GStatBuf st;

          if ((g_str_has_prefix (name, "hta__") || g_str_has_prefix (name, "kineto__") ||
               g_str_has_prefix (name, "param__")) && g_stat (path, &st) == 0 && st.st_size > largest_size)
            {
              largest_size = st.st_size;
              g_free (largest);
              largest = g_steal_pointer (&path);
            }
        }
      if (largest)
        measure (largest);
    }

  if (big == NULL)
    {
      int fd = g_file_open_tmp ("bench-analysis-XXXXXX.json", &tmp, &error);
      if (fd < 0)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      close (fd);
      big = tmp;
    }
  if (!g_file_test (big, G_FILE_TEST_EXISTS) || tmp)
    {
      chrono_example_options_init (&options);
      options.target_bytes = G_GUINT64_CONSTANT (1000000000);
      if (!chrono_example_trace_write (big, &options, NULL, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
    }
  measure (big);
  if (tmp)
    g_unlink (tmp);
  return 0;
}
