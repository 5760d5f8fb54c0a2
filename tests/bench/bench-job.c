/* bench-job.c: the job analysis of many ranks, its memory and its time
 *
 * Usage: bench-job CHRONOSCOPE_CLI [RANKS]
 *
 * Generates a data-parallel job of RANKS ranks (default 1024) and of 64
 * ranks, then for each: the peak RSS of "analyze --jobs 2" (the parent,
 * and the largest of its workers) against the peak RSS of summarising
 * the largest rank alone, measured in the same run; and in this process
 * the time to summarise a rank and to reduce, per rank. Peak memory
 * should follow the largest rank, not the number of ranks. It exits 0
 * unless it cannot run at all.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "chrono-example-job.h"
#include "chrono-job.h"
#include "chrono-loader.h"

typedef struct {
  double seconds;
  double cpu_seconds;    /* user and system, the process and what it waited for */
  long   max_rss_kb;     /* likewise */
  char  *err;
} Run;

static Run
run (const char * const *argv)
{
  Run r = { 0 };
  GPid pid;
  gint err_fd;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) err = g_string_new (NULL);
  struct rusage usage;
  gint64 t0 = g_get_monotonic_time ();
  int status;
  char buf[4096];
  gssize n;

  if (!g_spawn_async_with_pipes (NULL, (char **) argv, NULL,
                                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                 NULL, NULL, &pid, NULL, NULL, &err_fd, &error))
    g_error ("%s: %s", argv[0], error->message);
  while ((n = read (err_fd, buf, sizeof buf)) > 0)
    g_string_append_len (err, buf, n);
  close (err_fd);
  if (wait4 (pid, &status, 0, &usage) != pid || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    g_error ("%s %s failed: %s", argv[0], argv[1], err->str);
  r.seconds = (g_get_monotonic_time () - t0) / 1e6;
  r.max_rss_kb = usage.ru_maxrss;
  r.cpu_seconds = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  r.err = g_string_free (g_steal_pointer (&err), FALSE);
  return r;
}

/* This process's CPU time, all its threads, in ms. */
static double
process_cpu_ms (void)
{
  struct rusage u;

  getrusage (RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
}

static void
measure (const char *cli,
         guint       world_size)
{
  g_autofree char *dir = g_dir_make_tmp ("bench-job-XXXXXX", NULL);
  g_autofree char *job_out = g_strconcat (dir, ".job.json", NULL);
  g_autofree char *largest = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) manifest = NULL;
  g_autoptr(GPtrArray) summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_rank_summary_free);
  guint stragglers[] = { 1, world_size / 2, world_size - 1 };
  ChronoExampleOffset offsets[] = { { world_size / 3, 80000000 } };
  ChronoExampleJobOptions o;
  goffset largest_size = 0, total = 0;
  gint64 t0, t_sum = 0, t_reduce;
  double cpu0, cpu_sum;
  Run one, jobs;
  const char *rss_line;

  chrono_example_job_options_init (&o);
  o.world_size = world_size;
  o.stragglers = stragglers;
  o.n_stragglers = G_N_ELEMENTS (stragglers);
  o.offsets = offsets;
  o.n_offsets = G_N_ELEMENTS (offsets);
  t0 = g_get_monotonic_time ();
  manifest = chrono_example_job_write (dir, &o, &error);
  g_assert_no_error (error);
  printf ("%u ranks: generated in %.2f s\n", world_size, (g_get_monotonic_time () - t0) / 1e6);

  /* The largest rank, and the subprocess runs first, while this process
   * is small (a forked child starts with its parent's pages). */
  for (guint r = 0; r < world_size; r++)
    {
      g_autofree char *name = g_strdup_printf ("rank-%04u.pt.trace.json", r);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      GStatBuf st;

      g_stat (path, &st);
      total += st.st_size;
      if (st.st_size > largest_size)
        {
          largest_size = st.st_size;
          g_free (largest);
          largest = g_strdup (path);
        }
    }
  one = run ((const char *[]) { cli, "summarize", largest, "-o", job_out, NULL });
  jobs = run ((const char *[]) { cli, "analyze", "--jobs", "2", "--timing", dir, "-o", job_out, NULL });
  cpu0 = process_cpu_ms ();
  for (guint r = 0; r < world_size; r++)
    {
      g_autofree char *name = g_strdup_printf ("rank-%04u.pt.trace.json", r);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(ChronoTrace) trace = NULL;

      t0 = g_get_monotonic_time ();
      trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_ptr_array_add (summaries, chrono_rank_summary_new_from_trace (trace, NULL, NULL, &error));
      g_assert_no_error (error);
      t_sum += g_get_monotonic_time () - t0;
    }
  cpu_sum = process_cpu_ms () - cpu0;
  t0 = g_get_monotonic_time ();
  g_free (chrono_job_reduce_to_json ((ChronoRankSummary * const *) summaries->pdata, summaries->len, NULL, &error));
  g_assert_no_error (error);
  t_reduce = g_get_monotonic_time () - t0;
  rss_line = strstr (jobs.err, "peak RSS");

  printf ("  %.1f MB of traces (largest rank %.1f KB)\n", total / 1e6, largest_size / 1e3);
  printf ("  in this process: summarise %.2f ms per rank (%.2f ms CPU; load and analyse), reduce %.3f ms per rank "
          "(%.3f s)\n", t_sum / 1e3 / world_size, cpu_sum / world_size, t_reduce / 1e3 / world_size, t_reduce / 1e6);
  printf ("  summarize the largest rank alone: %.3f s, peak RSS %ld KiB (baseline)\n", one.seconds, one.max_rss_kb);
  printf ("  analyze --jobs 2: %.2f s (%.2f ms per rank; CPU %.2f ms per rank, %.2f× this process's), "
          "peak RSS %ld KiB = %.2f× the baseline; %s",
          jobs.seconds, jobs.seconds * 1e3 / world_size, jobs.cpu_seconds * 1e3 / world_size,
          jobs.cpu_seconds * 1e3 / MAX (cpu_sum, 1e-3), jobs.max_rss_kb,
          (double) jobs.max_rss_kb / MAX (one.max_rss_kb, 1), rss_line ? rss_line : "\n");
  g_free (one.err);
  g_free (jobs.err);
  g_unlink (job_out);
  remove_dir (dir);
}

int
main (int    argc,
      char **argv)
{
  guint64 ranks = 1024;

  if (argc < 2 || (argc > 2 && !g_ascii_string_to_unsigned (argv[2], 10, 2, 4096, &ranks, NULL)))
    {
      g_printerr ("Usage: bench-job CHRONOSCOPE_CLI [RANKS]\n");
      return 2;
    }
  measure (argv[1], 64);
  measure (argv[1], (guint) ranks);
  return 0;
}
