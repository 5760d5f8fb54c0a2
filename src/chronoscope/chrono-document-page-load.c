/* chrono-document-page-load.c: the document page's trace read on a
 * thread, with its progress shown and the reason it failed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "chrono-document-page-private.h"
#include "chrono-format.h"
#include "chrono-loader.h"
#include "chrono-trace-set.h"
#include "chrono-track-index.h"

/* Progress reaches the main thread at most this often. */
#define PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 30)

/* Shared by the page (main thread) and the loading thread. */
struct _LoadJob
{
  ChronoDocumentPage *page;  /* main thread only; NULL once the page stops listening */
  char              **paths;   /* one file or folder, or several files as one */
  GPtrArray          *indexes; /* the timeline's, built by the loading thread */

  GMutex              lock;
  guint64             done;
  guint64             total;
  gint64              posted_at;
  gboolean            posted;  /* an update waits in the main loop */
};

static LoadJob *
load_job_new (ChronoDocumentPage *page,
              char              **paths)
{
  LoadJob *job = g_atomic_rc_box_new0 (LoadJob);

  job->page = page;
  job->paths = paths;
  g_mutex_init (&job->lock);
  return job;
}

static void
load_job_clear (LoadJob *job)
{
  g_strfreev (job->paths);
  g_clear_pointer (&job->indexes, g_ptr_array_unref);
  g_mutex_clear (&job->lock);
}

static void
load_job_unref (gpointer job)
{
  g_atomic_rc_box_release_full (job, (GDestroyNotify) load_job_clear);
}

static void
show_progress (ChronoDocumentPage *self,
               guint64             done,
               guint64             total)
{
  g_autofree char *done_text = g_strdup_printf ("%.1f", done / 1e6);
  g_autofree char *total_text = chrono_format_bytes (total);
  /* Translators: megabytes read of the total, "12.3 of 40.0 MB" */
  g_autofree char *text = g_strdup_printf (_("%s of %s"), done_text, total_text);

  gtk_progress_bar_set_fraction (self->progress_bar, total ? MIN (1.0, (double) done / total) : 0.0);
  gtk_progress_bar_set_text (self->progress_bar, text);
}

static gboolean
show_progress_cb (gpointer user_data)
{
  LoadJob *job = user_data;
  guint64 done, total;

  g_mutex_lock (&job->lock);
  done = job->done;
  total = job->total;
  job->posted = FALSE;
  g_mutex_unlock (&job->lock);

  if (job->page != NULL)
    show_progress (job->page, done, total);
  return G_SOURCE_REMOVE;
}

/* Runs on the loading thread, often: keep the latest numbers and wake the
 * main thread only when the last update was shown long enough ago. */
static void
load_progress_cb (guint64  done,
                  guint64  total,
                  gpointer user_data)
{
  LoadJob *job = user_data;
  gint64 now = g_get_monotonic_time ();
  gboolean post = FALSE;

  g_mutex_lock (&job->lock);
  job->done = done;
  job->total = total;
  if (!job->posted && now - job->posted_at >= PROGRESS_INTERVAL_US)
    {
      job->posted = TRUE;
      job->posted_at = now;
      post = TRUE;
    }
  g_mutex_unlock (&job->lock);

  /* Above redraw priority: while frames are slow, idle-priority updates
   * would wait until loading is over. Throttled, they cost the frames
   * nothing. */
  if (post)
    g_idle_add_full (G_PRIORITY_DEFAULT, show_progress_cb,
                     g_atomic_rc_box_acquire (job), load_job_unref);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadJob *job = task_data;
  GError *error = NULL;
  ChronoTrace *trace;

  /* A folder is one document (a Neuron profile, or several ranks), and so
   * are several files opened together. */
  if (job->paths[1] != NULL || g_file_test (job->paths[0], G_FILE_TEST_IS_DIR))
    trace = chrono_trace_load_set ((const char * const *) job->paths, cancellable,
                                   load_progress_cb, job, &error);
  else
    trace = chrono_trace_load_file (job->paths[0], cancellable, load_progress_cb, job, &error);
  if (trace == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* Indexed here too, so that the timeline shows without a pause. */
  job->indexes = chrono_track_index_new_all (trace, cancellable);
  if (job->indexes != NULL)
    g_task_return_pointer (task, trace, g_object_unref);
  else
    {
      g_task_return_error_if_cancelled (task);
      g_object_unref (trace);
    }
}

void
chrono_document_page_drop_load_job (ChronoDocumentPage *self)
{
  if (self->job == NULL)
    return;
  self->job->page = NULL;
  g_clear_pointer (&self->job, load_job_unref);
}

static void
show_error (ChronoDocumentPage *self)
{
  g_autofree char *name = chrono_document_page_dup_title (self);
  g_autofree char *title = NULL;
  g_autofree char *description = g_markup_escape_text (self->error->message, -1);

  if (self->state == CHRONO_DOCUMENT_STATE_CANCELLED)
    title = g_strdup (_("Loading Cancelled"));
  else
    /* Translators: the file name, or “3 traces” */
    title = g_strdup_printf (_("Could Not Open “%s”"), name);
  adw_status_page_set_title (self->error_page, title);
  adw_status_page_set_description (self->error_page, description);
  gtk_stack_set_visible_child_name (self->stack, "error");
}

static void
load_done_cb (GObject      *source_object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(ChronoDocumentPage) self = user_data;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(GPtrArray) indexes = NULL;
  g_autoptr(GError) error = NULL;

  trace = g_task_propagate_pointer (G_TASK (result), &error);
  if (self->job == NULL)  /* disposed while loading */
    return;
  indexes = g_steal_pointer (&self->job->indexes);
  chrono_document_page_drop_load_job (self);

  if (trace != NULL)
    {
      self->trace = g_steal_pointer (&trace);
      chrono_document_page_build_views (self, indexes);
      return;
    }

  self->error = g_steal_pointer (&error);
  if (g_error_matches (self->error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_error_matches (self->error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_CANCELLED))
    chrono_document_page_set_state (self, CHRONO_DOCUMENT_STATE_CANCELLED);
  else
    chrono_document_page_set_state (self, CHRONO_DOCUMENT_STATE_FAILED);
  show_error (self);
}

void
chrono_document_page_load (ChronoDocumentPage *self)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *title = chrono_document_page_dup_title (self);
  guint n_files = g_list_model_get_n_items (self->files);
  g_auto(GStrv) paths = g_new0 (char *, n_files + 1);
  /* Translators: the file name, or “3 traces” */
  g_autofree char *loading = g_strdup_printf (_("Loading “%s”"), title);

  gtk_label_set_label (self->file_label, loading);
  gtk_progress_bar_set_text (self->progress_bar, _("Opening…"));

  for (guint i = 0; i < n_files; i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (self->files, i);

      if ((paths[i] = g_file_get_path (file)) == NULL)
        {
          g_autofree char *uri = g_file_get_uri (file);

          /* Traces are memory-mapped, which needs a local path. */
          self->error = g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                     _("%s: only local files can be opened"), uri);
          chrono_document_page_set_state (self, CHRONO_DOCUMENT_STATE_FAILED);
          show_error (self);
          return;
        }
    }

  self->job = load_job_new (self, g_steal_pointer (&paths));
  self->cancellable = g_cancellable_new ();
  /* The page rides in user_data, not as the source object, so that its last
   * reference is never dropped on the loading thread. */
  task = g_task_new (NULL, self->cancellable, load_done_cb, g_object_ref (self));
  g_task_set_source_tag (task, chrono_document_page_load);
  g_task_set_task_data (task, g_atomic_rc_box_acquire (self->job), load_job_unref);
  g_task_run_in_thread (task, load_thread);
}
