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

  /* Written by the thread, read once it has finished. */
  GPtrArray            *indexes[2];

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
  self->options = *options;
  self->marker = g_strdup (options->marker);
  self->options.marker = self->marker;
  chrono_analysis_options_init (&self->analysis);
  chrono_analysis_settings_read (thresholds, &self->analysis.thresholds);
  self->stage = _("Starting…");
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

static void
run_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  ChronoComparisonJob *self = source_object;
  g_autoptr(ChronoAnalysis) analysis_a = NULL;
  g_autoptr(ChronoAnalysis) analysis_b = NULL;
  ChronoAnalysis **analyses[2] = { &analysis_a, &analysis_b };
  g_autoptr(ChronoComparison) comparison = NULL;
  GError *error = NULL;

  if (self->traces[1] == NULL && (self->traces[1] = load_b (self, cancellable, &error)) == NULL)
    {
      /* The loader names the file, and the place in it. */
      g_task_return_error (task, error);
      return;
    }
  for (guint i = 0; i < 2; i++)
    {
      set_stage (self, i == 0 ? _("Indexing A…") : _("Indexing B…"));
      if ((self->indexes[i] = chrono_track_index_new_all (self->traces[i], cancellable)) == NULL)
        {
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
          return;
        }
      set_stage (self, i == 0 ? _("Analysing A…") : _("Analysing B…"));
      *analyses[i] = chrono_analysis_run (&self->traces[i], 1, &self->analysis, cancellable, &error);
      if (*analyses[i] == NULL)
        {
          prefix_side (&error, self->traces[i]);
          g_task_return_error (task, error);
          return;
        }
    }
  set_stage (self, _("Comparing…"));
  comparison = chrono_comparison_run (analysis_a, analysis_b, &self->options, cancellable, &error);
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
