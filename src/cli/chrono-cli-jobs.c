/* chrono-cli-jobs.c: analyze --jobs, the ranks summarised in worker
 * processes, then reduced
 *
 * Each worker is this program's summarize command on one rank, so a
 * worker's memory is one rank's and is given back when it exits: peak
 * memory follows the largest rank and the number of workers, not the
 * number of ranks. The parent keeps only the summaries.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "chrono-cli.h"
#include "chrono-cli-load.h"

typedef struct {
  GPid  pid;
  guint file;
} Worker;

static gboolean
start_worker (const char  *self_exe,
              const char  *file,
              const char  *summary,
              GPid        *pid,
              GError     **error)
{
  const char *argv[] = { self_exe, "summarize", file, "-o", summary, NULL };

  return g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                        NULL, NULL, pid, error);
}

int
chrono_cli_analyze_jobs (char * const *files,
                         guint         n_jobs,
                         const char   *output,
                         gboolean      timing)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_rank_summary_free);
  g_autoptr(GArray) running = g_array_new (FALSE, FALSE, sizeof (Worker));
  g_autoptr(GHashTable) from_folder = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree gboolean *done = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *self_exe = g_file_read_link ("/proc/self/exe", &error);
  g_autofree char *tmp = NULL;
  glong max_worker_rss_kb = 0;
  guint next = 0, failed = 0, skipped = 0;
  gint64 t0 = g_get_monotonic_time (), t1;
  int status = 0;

  if (self_exe == NULL)
    {
      g_printerr ("chronoscope-cli analyze: cannot find this program to run workers: %s\n", error->message);
      return 1;
    }
  for (guint i = 0; files[i]; i++)
    {
      guint before = paths->len;

      if (!chrono_cli_list_files (files[i], NULL, paths, &error))
        {
          g_printerr ("chronoscope-cli analyze: %s\n", error->message);
          return 1;
        }
      if (g_file_test (files[i], G_FILE_TEST_IS_DIR))
        for (guint j = before; j < paths->len; j++)
          g_hash_table_add (from_folder, paths->pdata[j]);
    }
  if ((tmp = g_dir_make_tmp ("chronoscope-job-XXXXXX", &error)) == NULL)
    {
      g_printerr ("chronoscope-cli analyze: %s\n", error->message);
      return 1;
    }
  done = g_new0 (gboolean, paths->len);

  while (next < paths->len || running->len > 0)
    {
      struct rusage usage;
      int wstatus;
      pid_t pid;

      while (next < paths->len && running->len < n_jobs && failed == 0)
        {
          g_autofree char *summary = g_strdup_printf ("%s/%u.summary.json", tmp, next);
          Worker w = { 0, next };

          if (!start_worker (self_exe, paths->pdata[next], summary, &w.pid, &error))
            {
              g_printerr ("chronoscope-cli analyze: %s: %s\n", (char *) paths->pdata[next], error->message);
              g_clear_error (&error);
              failed++;
              break;
            }
          g_array_append_val (running, w);
          next++;
        }
      if (running->len == 0)
        break;
      pid = wait4 (-1, &wstatus, 0, &usage);
      if (pid < 0)
        {
          if (errno == EINTR)
            continue;
          g_printerr ("chronoscope-cli analyze: waiting for the workers: %s\n", g_strerror (errno));
          return 1;
        }
      for (guint i = 0; i < running->len; i++)
        {
          Worker *w = &g_array_index (running, Worker, i);
          const char *path;

          if (w->pid != pid)
            continue;
          path = paths->pdata[w->file];
          max_worker_rss_kb = MAX (max_worker_rss_kb, usage.ru_maxrss);
          if (WIFEXITED (wstatus) && WEXITSTATUS (wstatus) == 0)
            done[w->file] = TRUE;
          else if (WIFEXITED (wstatus) && WEXITSTATUS (wstatus) == CHRONO_CLI_EXIT_NOT_A_TRACE &&
                   g_hash_table_contains (from_folder, path))
            {
              g_printerr ("%s: not a trace; skipped\n", path);
              skipped++;
            }
          else
            {
              g_printerr ("chronoscope-cli analyze: %s: %s\n", path,
                          WIFSIGNALED (wstatus) ? "the worker was killed" : "could not be summarised");
              failed++;
            }
          g_spawn_close_pid (pid);
          g_array_remove_index_fast (running, i);
          break;
        }
    }
  t1 = g_get_monotonic_time ();

  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *summary = g_strdup_printf ("%s/%u.summary.json", tmp, i);

      if (done[i] && failed == 0)
        {
          ChronoRankSummary *s = chrono_rank_summary_load (summary, &error);

          if (s == NULL)
            {
              g_printerr ("chronoscope-cli analyze: %s\n", error->message);
              g_clear_error (&error);
              failed++;
            }
          else
            g_ptr_array_add (summaries, s);
        }
      g_unlink (summary);
    }
  g_rmdir (tmp);
  if (failed > 0)
    return 1;

  if (!chrono_cli_write_job ((ChronoRankSummary * const *) summaries->pdata, summaries->len, output, &error))
    {
      g_printerr ("chronoscope-cli analyze: %s\n", error->message);
      status = 1;
    }
  if (timing)
    {
      struct rusage self_usage;

      getrusage (RUSAGE_SELF, &self_usage);
      g_printerr ("summarise %.3f s (%u ranks, %u skipped, %u workers), reduce %.3f s, "
                  "peak RSS: largest worker %ld KiB, this process %ld KiB\n",
                  (t1 - t0) / 1e6, summaries->len, skipped, n_jobs,
                  (g_get_monotonic_time () - t1) / 1e6, max_worker_rss_kb, self_usage.ru_maxrss);
    }
  return status;
}
