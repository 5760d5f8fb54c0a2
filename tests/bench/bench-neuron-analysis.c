/* bench-neuron-analysis.c: how long a Neuron device profile's analysis
 * takes next to loading it
 *
 * Usage: bench-neuron-analysis [--size MB] [--keep PATH] [--pause MS]
 *
 * Writes a device profile of about SIZE MB (200 by default) with the
 * Neuron generator, loads it and runs every analysis (the NeuronCore
 * ledger with each gap's dependency chain, its findings and critical
 * path among them), and reports both times and their ratio; the target
 * is that analysing takes at most 0.3 × loading. --keep PATH writes the
 * profile there, or reads it when it exists; a folder (Explorer's Parquet
 * tables, say) is read whole, as the CLI reads it. With --pause, it waits
 * MS milliseconds between the two: on a virtual machine that hands freed
 * memory back to its host (free page reporting), memory the load freed
 * is then the host's again, and the analysis's first writes to it cost
 * more. It exits 0 unless it cannot run at all.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "bench-memory.h"
#include "bench-stats.h"
#include "chrono-analysis.h"
#include "chrono-loader.h"
#include "chrono-trace-set.h"
#include "chrono-neuron-ledger.h"
#include "neuron-gen.h"

static long
minor_faults (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

/* Huge pages faulted in on the whole machine so far, or -1. */
static long
huge_page_faults (void)
{
  g_autofree char *vmstat = NULL;
  const char *at;

  if (!g_file_get_contents ("/proc/vmstat", &vmstat, NULL, NULL) ||
      (at = strstr (vmstat, "\nthp_fault_alloc ")) == NULL)
    return -1;
  return atol (at + strlen ("\nthp_fault_alloc "));
}

static void
measure (const char *path,
         guint       pause_ms)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) analysis = NULL;
  guint gaps = 0;
  gint64 t0, t_loaded, t1, t2;
  double c0, c1, c2;
  long f0, f1, f2, huge;
  gint64 anon, anon_after;
  struct rusage usage;

  f0 = minor_faults ();
  c0 = bench_process_cpu_s ();
  t0 = g_get_monotonic_time ();
  /* A folder is read as the CLI and the app read it: Explorer's Parquet
   * tables, or a device profile with its system profile. */
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      const char *one[] = { path, NULL };
      trace = chrono_trace_load_set (one, NULL, NULL, NULL, &error);
    }
  else
    trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("%s\n", error->message);
      return;
    }
  t_loaded = g_get_monotonic_time ();
  g_usleep ((gulong) pause_ms * 1000);
  t1 = g_get_monotonic_time ();
  c1 = bench_process_cpu_s ();
  f1 = minor_faults ();
  anon = bench_memory_of (0).rss_anon;
  huge = huge_page_faults ();
  analysis = chrono_analysis_run (&trace, 1, NULL, NULL, &error);
  t2 = g_get_monotonic_time ();
  c2 = bench_process_cpu_s ();
  f2 = minor_faults ();
  anon_after = bench_memory_of (0).rss_anon;
  huge = huge_page_faults () - huge;
  g_assert_no_error (error);
  for (guint b = 0; b < chrono_analysis_get_n_breakdowns (analysis); b++)
    {
      const ChronoNeuronLedger *ledger = chrono_analysis_get_neuron_ledger (analysis, b);
      if (ledger != NULL)
        gaps += chrono_neuron_ledger_get_n_gaps (ledger);
    }
  getrusage (RUSAGE_SELF, &usage);
  printf ("%s\n  %.1f MB, load %.3f s, analysis %.3f s (%.2f× loading; target 0.30×), "
          "%u Tensor engine gaps walked, %u findings, peak RSS %ld MB\n"
          "  CPU time over all threads: load %.3f s, analysis %.3f s (%.2f×)\n"
          "  page faults: load %ld, analysis %ld\n"
          /* What the analysis made ready in fresh memory: on a virtual
           * machine the kernel clears fresh pages at a speed that varies
           * from run to run. */
          "  anonymous memory: %" G_GINT64_FORMAT " MB after loading, %" G_GINT64_FORMAT " MB after the analysis; "
          "huge pages faulted in during the analysis: %ld (machine-wide)\n",
          path, chrono_trace_get_source_size (trace) / 1e6, (t_loaded - t0) / 1e6, (t2 - t1) / 1e6,
          (double) (t2 - t1) / MAX (t_loaded - t0, 1), gaps, chrono_analysis_get_n_findings (analysis),
          usage.ru_maxrss / 1024, c1 - c0, c2 - c1, (c2 - c1) / MAX (c1 - c0, 1e-9), f1 - f0, f2 - f1,
          anon >> 20, anon_after >> 20, huge);
}

int
main (int    argc,
      char **argv)
{
  guint64 megabytes = 200;
  guint pause_ms = 0;
  const char *keep = NULL;
  g_autofree char *tmp = NULL;
  g_autoptr(GError) error = NULL;
  NeuronGenOptions options;
  NeuronGenCounts counts;
  const char *path;

  for (int i = 1; i < argc - 1; i++)
    if (strcmp (argv[i], "--size") == 0)
      megabytes = g_ascii_strtoull (argv[i + 1], NULL, 10);
    else if (strcmp (argv[i], "--keep") == 0)
      keep = argv[i + 1];
    else if (strcmp (argv[i], "--pause") == 0)
      pause_ms = (guint) g_ascii_strtoull (argv[i + 1], NULL, 10);
  if (keep == NULL)
    {
      int fd = g_file_open_tmp ("bench-neuron-analysis-XXXXXX.json", &tmp, &error);
      if (fd < 0)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      close (fd);
    }
  path = keep ? keep : tmp;
  if (tmp || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      neuron_gen_options_init (&options);
      options.target_bytes = megabytes * 1000 * 1000;
      if (!neuron_gen_write_device (path, &options, &counts, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
    }
  measure (path, pause_ms);
  if (tmp)
    g_unlink (tmp);
  return 0;
}
