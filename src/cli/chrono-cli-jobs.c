/* chrono-cli-jobs.c: analyze --jobs, the ranks summarised in worker
 * processes, then reduced
 *
 * Each worker is this program's summarize command on a chunk of ranks,
 * which it loads one at a time, so a worker's memory is one rank's: peak
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

/* A worker summarises a chunk of ranks one after the other, so that
 * starting a process costs little next to the ranks; chunks are small
 * enough that the workers finish together. */
#define MAX_CHUNK 32

typedef struct {
  guint    first;            /* into the paths */
  guint    n;
  gboolean from_folder;      /* files that are not traces are skipped */
  char    *dir;              /* where its summaries go */
} Chunk;

typedef struct {
  GPid  pid;
  guint chunk;
} Worker;

static gboolean
start_worker (const char  *self_exe,
              GPtrArray   *paths,
              const Chunk *chunk,
              GPid        *pid,
              GError     **error)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  if (g_mkdir (chunk->dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", chunk->dir, g_strerror (saved));
      return FALSE;
    }
  g_ptr_array_add (argv, (gpointer) self_exe);
  g_ptr_array_add (argv, "summarize");
  g_ptr_array_add (argv, "--output-dir");
  g_ptr_array_add (argv, chunk->dir);
  if (chunk->from_folder)
    g_ptr_array_add (argv, "--skip-non-traces");
  for (guint i = 0; i < chunk->n; i++)
    g_ptr_array_add (argv, paths->pdata[chunk->first + i]);
  g_ptr_array_add (argv, NULL);
  return g_spawn_async (NULL, (char **) argv->pdata, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                        NULL, NULL, pid, error);
}

static void
chunk_clear (Chunk *chunk)
{
  g_free (chunk->dir);
}

int
chrono_cli_analyze_jobs (char * const *files,
                         guint         n_jobs,
                         gboolean      markdown,
                         const char   *output,
                         gboolean      timing)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_rank_summary_free);
  g_autoptr(GArray) running = g_array_new (FALSE, FALSE, sizeof (Worker));
  g_autoptr(GHashTable) from_folder = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) chunks = g_array_new (FALSE, TRUE, sizeof (Chunk));
  g_autoptr(GError) error = NULL;
  g_autofree char *self_exe = g_file_read_link ("/proc/self/exe", &error);
  g_autofree char *tmp = NULL;
  glong max_worker_rss_kb = 0;
  guint next = 0, failed = 0, skipped = 0, chunk_size;
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
  g_array_set_clear_func (chunks, (GDestroyNotify) chunk_clear);
  chunk_size = CLAMP (paths->len / (n_jobs * 4), 1, MAX_CHUNK);
  for (guint i = 0; i < paths->len;)
    {
      Chunk c = { .first = i, .from_folder = g_hash_table_contains (from_folder, paths->pdata[i]) };
      g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

      /* A chunk's summaries are named after its files: no two alike. */
      while (i < paths->len && c.n < chunk_size &&
             g_hash_table_contains (from_folder, paths->pdata[i]) == c.from_folder &&
             g_hash_table_add (names, g_path_get_basename (paths->pdata[i])))
        c.n++, i++;
      c.dir = g_strdup_printf ("%s/%u", tmp, chunks->len);
      g_array_append_val (chunks, c);
    }

  while (next < chunks->len || running->len > 0)
    {
      struct rusage usage;
      int wstatus;
      pid_t pid;

      while (next < chunks->len && running->len < n_jobs && failed == 0)
        {
          Worker w = { 0, next };

          if (!start_worker (self_exe, paths, &g_array_index (chunks, Chunk, next), &w.pid, &error))
            {
              g_printerr ("chronoscope-cli analyze: %s\n", error->message);
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

          if (w->pid != pid)
            continue;
          max_worker_rss_kb = MAX (max_worker_rss_kb, usage.ru_maxrss);
          if (!WIFEXITED (wstatus) || WEXITSTATUS (wstatus) != 0)
            {
              const Chunk *c = &g_array_index (chunks, Chunk, w->chunk);

              g_printerr ("chronoscope-cli analyze: %s%s: %s\n", (char *) paths->pdata[c->first],
                          c->n > 1 ? " and the ranks after it" : "",
                          WIFSIGNALED (wstatus) ? "the worker was killed" : "could not be summarised");
              failed++;
            }
          g_spawn_close_pid (pid);
          g_array_remove_index_fast (running, i);
          break;
        }
    }
  t1 = g_get_monotonic_time ();

  /* Each chunk's summaries, then the folders, removed. */
  for (guint i = 0; i < chunks->len; i++)
    {
      const Chunk *c = &g_array_index (chunks, Chunk, i);

      for (guint j = 0; j < c->n; j++)
        {
          g_autofree char *base = g_path_get_basename (paths->pdata[c->first + j]);
          g_autofree char *name = g_strconcat (base, ".summary.json", NULL);
          g_autofree char *summary = g_build_filename (c->dir, name, NULL);

          if (failed == 0 && g_file_test (summary, G_FILE_TEST_EXISTS))
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
          else if (failed == 0)
            skipped++;
          g_unlink (summary);
        }
      g_rmdir (c->dir);
    }
  g_rmdir (tmp);
  if (failed > 0)
    return 1;

  if (!chrono_cli_write_job ((ChronoRankSummary * const *) summaries->pdata, summaries->len, markdown, output, &error))
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
