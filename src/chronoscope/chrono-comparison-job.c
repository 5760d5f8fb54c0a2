/* chrono-comparison-job.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "chrono-analysis-settings.h"
#include "chrono-comparison-job.h"
#include "chrono-loader.h"
#include "chrono-trace-set.h"
#include "chrono-track-index.h"

struct _ChronoComparisonJob
{
  GObject               parent_instance;

  /* Set before the thread starts; read by it. */
  ChronoTrace          *traces[2];
  char                 *path_b;
  ChronoCompareOptions  options;
  char                 *marker;
  ChronoAnalysisOptions analysis;

  /* Written by the thread (unless an earlier run made them), read once
   * it has finished. */
  GPtrArray            *indexes[2];
  ChronoAnalysis       *analyses[2];

  GMutex                lock;
  const char           *stage;  /* translated, static */
  guint64               done;
  guint64               total;
};

G_DEFINE_FINAL_TYPE (ChronoComparisonJob, chrono_comparison_job, G_TYPE_OBJECT)

static void
chrono_comparison_job_finalize (GObject *object)
{
  ChronoComparisonJob *self = CHRONO_COMPARISON_JOB (object);

  for (guint i = 0; i < 2; i++)
    {
      g_clear_object (&self->traces[i]);
      g_clear_pointer (&self->indexes[i], g_ptr_array_unref);
      g_clear_object (&self->analyses[i]);
    }
  g_free (self->path_b);
  g_free (self->marker);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (chrono_comparison_job_parent_class)->finalize (object);
}

static void
chrono_comparison_job_class_init (ChronoComparisonJobClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_comparison_job_finalize;
}

static void
chrono_comparison_job_init (ChronoComparisonJob *self)
{
  g_mutex_init (&self->lock);
  self->stage = _("Starting…");
}

/* OPTIONS, with a marker of the job's own. */
static void
set_options (ChronoComparisonJob        *self,
             const ChronoCompareOptions *options)
{
  self->options = *options;
  self->marker = g_strdup (options->marker);
  self->options.marker = self->marker;
}

ChronoComparisonJob *
chrono_comparison_job_new (ChronoTrace                *trace_a,
                           ChronoTrace                *trace_b,
                           const char                 *path_b,
                           const ChronoCompareOptions *options,
                           GSettings                  *thresholds)
{
  ChronoComparisonJob *self;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace_a), NULL);
  g_return_val_if_fail (trace_b != NULL || path_b != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  self = g_object_new (CHRONO_TYPE_COMPARISON_JOB, NULL);
  self->traces[0] = g_object_ref (trace_a);
  self->traces[1] = trace_b != NULL ? g_object_ref (trace_b) : NULL;
  self->path_b = g_strdup (path_b);
  set_options (self, options);
  chrono_analysis_options_init (&self->analysis);
  chrono_analysis_settings_read (thresholds, &self->analysis.thresholds);
  return self;
}

ChronoComparisonJob *
chrono_comparison_job_new_again (ChronoComparisonJob        *finished,
                                 const ChronoCompareOptions *options)
{
  ChronoComparisonJob *self;

  g_return_val_if_fail (CHRONO_IS_COMPARISON_JOB (finished), NULL);
  g_return_val_if_fail (finished->traces[1] != NULL && finished->analyses[1] != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  self = g_object_new (CHRONO_TYPE_COMPARISON_JOB, NULL);
  for (guint i = 0; i < 2; i++)
    {
      self->traces[i] = g_object_ref (finished->traces[i]);
      self->indexes[i] = g_ptr_array_ref (finished->indexes[i]);
      self->analyses[i] = g_object_ref (finished->analyses[i]);
    }
  self->path_b = g_strdup (finished->path_b);
  set_options (self, options);
  self->analysis = finished->analysis;
  return self;
}

static void
set_stage (ChronoComparisonJob *self,
           const char          *stage)
{
  g_mutex_lock (&self->lock);
  self->stage = stage;
  self->done = self->total = 0;
  g_mutex_unlock (&self->lock);
}

static void
load_progress_cb (guint64  done,
                  guint64  total,
                  gpointer user_data)
{
  ChronoComparisonJob *self = user_data;

  g_mutex_lock (&self->lock);
  self->done = done;
  self->total = total;
  g_mutex_unlock (&self->lock);
}

static ChronoTrace *
load_b (ChronoComparisonJob *self,
        GCancellable        *cancellable,
        GError             **error)
{
  const char *paths[] = { self->path_b, NULL };

  set_stage (self, _("Loading B…"));
  if (g_file_test (self->path_b, G_FILE_TEST_IS_DIR))
    return chrono_trace_load_set (paths, cancellable, load_progress_cb, self, error);
  return chrono_trace_load_file (self->path_b, cancellable, load_progress_cb, self, error);
}

/* What failed on one side, with its file. */
static void
prefix_side (GError      **error,
             ChronoTrace  *trace)
{
  if (error != NULL && *error != NULL && !g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      strstr ((*error)->message, chrono_trace_get_path (trace)) == NULL)
    g_prefix_error (error, "%s: ", chrono_trace_get_path (trace));
}

typedef struct {
  ChronoComparisonJob *self;
  guint                side;
  GCancellable        *cancellable;
  GError              *error;
} SidePrep;

/* A side's tracks indexed for its timeline, then analysed; what an
 * earlier run made is kept. Only B's steps are told: A's run beside
 * them. */
static gpointer
prepare_side (gpointer data)
{
  SidePrep *p = data;
  ChronoComparisonJob *self = p->self;
  guint i = p->side;

  if (self->indexes[i] == NULL)
    {
      if (i == 1)
        set_stage (self, _("Indexing B…"));
      if ((self->indexes[i] = chrono_track_index_new_all (self->traces[i], p->cancellable)) == NULL)
        {
          g_set_error_literal (&p->error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
          return NULL;
        }
    }
  if (self->analyses[i] == NULL)
    {
      if (i == 1)
        set_stage (self, _("Analysing B…"));
      self->analyses[i] = chrono_analysis_run (&self->traces[i], 1, &self->analysis, p->cancellable, &p->error);
      if (self->analyses[i] == NULL)
        prefix_side (&p->error, self->traces[i]);
    }
  return NULL;
}

static void
cancel_sides_cb (GCancellable *cancellable,
                 gpointer      sides)
{
  g_cancellable_cancel (sides);
}

/* The first of ERRORS (some NULL) that is a real fault, else the first:
 * a cancelling. The others are freed. */
static GError *
first_error (GError **errors,
             guint    n)
{
  GError *first = NULL;

  for (guint k = 0; k < n && first == NULL; k++)
    if (errors[k] != NULL && !g_error_matches (errors[k], G_IO_ERROR, G_IO_ERROR_CANCELLED))
      first = errors[k];
  for (guint k = 0; k < n && first == NULL; k++)
    first = errors[k];
  for (guint k = 0; k < n; k++)
    if (errors[k] != first)
      g_clear_error (&errors[k]);
  return first;
}

static void
run_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  ChronoComparisonJob *self = source_object;
  /* A fault on one side stops the other. */
  g_autoptr(GCancellable) sides = g_cancellable_new ();
  gulong handler = cancellable != NULL ? g_cancellable_connect (cancellable, G_CALLBACK (cancel_sides_cb), sides, NULL) : 0;
  SidePrep a = { self, 0, sides, NULL }, b = { self, 1, sides, NULL };
  g_autoptr(ChronoComparison) comparison = NULL;
  GError *load_error = NULL, *error = NULL, *errors[3];
  GThread *thread;

  /* A is indexed and analysed while B loads. */
  thread = g_thread_new ("chrono-compare-a", prepare_side, &a);
  if (self->traces[1] == NULL && (self->traces[1] = load_b (self, sides, &load_error)) == NULL)
    /* The loader names the file, and the place in it. */
    g_cancellable_cancel (sides);
  else
    {
      prepare_side (&b);
      if (b.error != NULL)
        g_cancellable_cancel (sides);
      else
        set_stage (self, _("Analysing A…"));
    }
  g_thread_join (thread);
  g_cancellable_disconnect (cancellable, handler);
  errors[0] = a.error;
  errors[1] = load_error;
  errors[2] = b.error;
  if ((error = first_error (errors, G_N_ELEMENTS (errors))) != NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  set_stage (self, _("Comparing…"));
  comparison = chrono_comparison_run (self->analyses[0], self->analyses[1], &self->options, cancellable, &error);
  if (comparison == NULL)
    {
      /* The comparison's own faults (no steps, no marker) are the pair's. */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_prefix_error (&error, _("Comparing %s with %s: "), chrono_trace_get_path (self->traces[0]),
                        chrono_trace_get_path (self->traces[1]));
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, g_steal_pointer (&comparison), g_object_unref);
}

void
chrono_comparison_job_run_async (ChronoComparisonJob *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (CHRONO_IS_COMPARISON_JOB (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, chrono_comparison_job_run_async);
  g_task_run_in_thread (task, run_thread);
}

ChronoComparison *
chrono_comparison_job_run_finish (ChronoComparisonJob  *self,
                                  GAsyncResult         *result,
                                  GError              **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

char *
chrono_comparison_job_dup_progress (ChronoComparisonJob *self,
                                    double              *fraction)
{
  char *stage;

  g_return_val_if_fail (CHRONO_IS_COMPARISON_JOB (self), NULL);

  g_mutex_lock (&self->lock);
  stage = g_strdup (self->stage);
  *fraction = self->total > 0 ? MIN (1.0, (double) self->done / self->total) : -1;
  g_mutex_unlock (&self->lock);
  return stage;
}

/**
 * chrono_comparison_job_get_trace:
 *
 * Returns: (transfer none) (nullable): the side's trace; B is %NULL until
 *   it has loaded
 */
ChronoTrace *
chrono_comparison_job_get_trace (ChronoComparisonJob *self,
                                 ChronoCompareSideId  side)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_JOB (self), NULL);
  return self->traces[side == CHRONO_COMPARE_SIDE_B];
}

/**
 * chrono_comparison_job_get_indexes:
 *
 * Returns: (transfer none) (nullable): the side's track indexes, once
 *   the job has finished
 */
GPtrArray *
chrono_comparison_job_get_indexes (ChronoComparisonJob *self,
                                   ChronoCompareSideId  side)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_JOB (self), NULL);
  return self->indexes[side == CHRONO_COMPARE_SIDE_B];
}
