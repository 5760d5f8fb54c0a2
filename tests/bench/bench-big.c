/* bench-big.c: a trace bigger than the machine would seem to allow
 *
 * Usage: bench-big CLI [--size GB] [--dir DIR] [--gzip] [--compare] [--keep]
 *
 * Writes a Kineto-shaped trace of --size GB (10 by default) with the
 * example generator into DIR (g_get_tmp_dir() by default), after checking
 * that DIR has room, and runs `CLI info` and `CLI analyze` on it, each in
 * a process of its own: their wall-clock time, the most anonymous memory
 * they held (RssAnon, sampled every 2 ms; what the kernel cannot drop
 * without swap), that per event, their page faults per MB and their peak
 * RSS. With --gzip it also writes the same trace gzip-compressed (the
 * same seed gives the same text) and runs `CLI info` on that; with
 * --compare, `CLI compare` of the trace with itself. The files are removed
 * afterwards unless --keep. It reports; it exits 0 unless it cannot run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/statvfs.h>
#include <sys/wait.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "chrono-example-trace.h"
#include "bench-memory.h"

#define GB 1e9
#define MB 1e6

extern char **environ;

static char *written[2];

static void
remove_written (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (written); i++)
    if (written[i] != NULL)
      g_unlink (written[i]);
}

static void
remove_and_exit (int signum)
{
  remove_written ();
  _exit (128 + signum);
}

typedef struct {
  gboolean ok;
  double   seconds;
  gint64   peak_anon;
  guint64  faults;
  gint64   max_rss;
} Run;

/* Runs ARGV with its output thrown away, sampling its RssAnon. */
static Run
run_measured (char **argv)
{
  posix_spawn_file_actions_t actions;
  BenchAnonPeak peak;
  struct rusage ru;
  Run run = { 0 };
  gint64 start = g_get_monotonic_time ();
  pid_t pid;
  int status = 0;

  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_addopen (&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  if (posix_spawn (&pid, argv[0], &actions, NULL, argv, environ) != 0)
    {
      posix_spawn_file_actions_destroy (&actions);
      return run;
    }
  posix_spawn_file_actions_destroy (&actions);
  bench_anon_peak_start (&peak, pid);
  while (wait4 (pid, &status, 0, &ru) < 0 && errno == EINTR)
    ;
  run.seconds = (g_get_monotonic_time () - start) / 1e6;
  run.peak_anon = bench_anon_peak_stop (&peak);
  run.ok = WIFEXITED (status) && WEXITSTATUS (status) == 0;
  run.faults = ru.ru_minflt + ru.ru_majflt;
  run.max_rss = (gint64) ru.ru_maxrss * 1024;
  return run;
}

static void
report (const char *what,
        Run         run,
        guint64     bytes,
        guint64     events)
{
  if (!run.ok)
    {
      printf ("  %-28s failed\n", what);
      return;
    }
  printf ("  %-28s %8.1f s %8.1f MB/s | peak anon %8.1f MB, %6.1f B/event | %6.0f faults/MB | peak RSS %8.1f MB\n",
          what, run.seconds, bytes / MB / run.seconds, run.peak_anon / MB, (double) run.peak_anon / events,
          run.faults / (bytes / MB), run.max_rss / MB);
}

static gboolean
write_trace (const char           *path,
             ChronoExampleOptions *options,
             ChronoExampleCounts  *counts)
{
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  if (!chrono_example_trace_write (path, options, counts, &error))
    {
      printf ("(cannot write %s: %s)\n", path, error->message);
      return FALSE;
    }
  printf ("wrote %s: %.2f GB of JSON, %.2f GB on disk, %" G_GUINT64_FORMAT " events in %.1f s\n", path,
          counts->uncompressed_bytes / GB, counts->file_bytes / GB, counts->events,
          (g_get_monotonic_time () - start) / 1e6);
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  double size_gb = 10;
  g_autofree char *dir = NULL;
  gboolean gzip = FALSE, compare = FALSE, keep = FALSE;
  const GOptionEntry entries[] = {
    { "size", 0, 0, G_OPTION_ARG_DOUBLE, &size_gb, "Uncompressed size of the trace (default 10)", "GB" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "Where to write it (default: the temporary folder)", "DIR" },
    { "gzip", 0, 0, G_OPTION_ARG_NONE, &gzip, "Also the same trace gzip-compressed", NULL },
    { "compare", 0, 0, G_OPTION_ARG_NONE, &compare, "Also compare the trace with itself", NULL },
    { "keep", 0, 0, G_OPTION_ARG_NONE, &keep, "Keep the files", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("CLI — a 10 GB trace loaded by info and analyze");
  g_autoptr(GError) error = NULL;
  ChronoExampleOptions options;
  ChronoExampleCounts counts;
  struct statvfs st;
  guint64 room, needed;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || size_gb <= 0)
    {
      fprintf (stderr, "bench-big: %s\n", error ? error->message : "expected the path of chronoscope-cli");
      return 2;
    }
  if (dir == NULL)
    dir = g_strdup (g_get_tmp_dir ());
  /* Each figure as soon as it is measured: a run takes many minutes. */
  setvbuf (stdout, NULL, _IOLBF, 0);

  /* The text and, with --gzip, the compressed copy and its inflated text. */
  needed = (guint64) (size_gb * GB * (gzip ? 2.2 : 1.05));
  room = statvfs (dir, &st) == 0 ? (guint64) st.f_bavail * st.f_frsize : 0;
  if (room < needed)
    {
      printf ("(skipped: %s has %.1f GB free, the trace needs %.1f GB)\n", dir, room / GB, needed / GB);
      return 0;
    }

  signal (SIGINT, remove_and_exit);
  signal (SIGTERM, remove_and_exit);
  chrono_example_options_init (&options);
  options.target_bytes = (guint64) (size_gb * GB);
  written[0] = g_build_filename (dir, "bench-big.pt.trace.json", NULL);
  if (write_trace (written[0], &options, &counts))
    {
      guint64 bytes = counts.uncompressed_bytes;
      char *info[] = { argv[1], "info", written[0], NULL };
      char *analyze[] = { argv[1], "analyze", written[0], NULL };
      char *self_compare[] = { argv[1], "compare", written[0], written[0], NULL };

      report ("info", run_measured (info), bytes, counts.events);
      report ("analyze", run_measured (analyze), bytes, counts.events);
      if (compare)
        report ("compare (itself)", run_measured (self_compare), 2 * bytes, 2 * counts.events);
    }
  if (gzip)
    {
      written[1] = g_strconcat (written[0], ".gz", NULL);
      options.gzip = TRUE;
      if (write_trace (written[1], &options, &counts))
        {
          char *info[] = { argv[1], "info", written[1], NULL };

          report ("info, gzip", run_measured (info), counts.uncompressed_bytes, counts.events);
        }
    }
  if (!keep)
    remove_written ();
  return 0;
}
