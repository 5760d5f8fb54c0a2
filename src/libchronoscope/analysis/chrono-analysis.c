/* chrono-analysis.c: runs the analyses and holds their results
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-analysis-private.h"
#include "chrono-efficiency-private.h"

struct _ChronoAnalysis
{
  GObject    parent_instance;

  GPtrArray *ranks;       /* ChronoRankData * */
  ChronoAnalysisOptions options;
  GArray    *breakdowns;  /* ChronoBreakdown */
  GArray    *paths;       /* ChronoCriticalPath */
  GArray    *findings;    /* ChronoFinding */
  ChronoEfficiency *efficiency;
};

G_DEFINE_FINAL_TYPE (ChronoAnalysis, chrono_analysis, G_TYPE_OBJECT)

void
chrono_analysis_thresholds_init (ChronoAnalysisThresholds *thresholds)
{
  /* The same defaults as the GSettings schema. */
  *thresholds = (ChronoAnalysisThresholds) {
    .idle_gap_min_ns = 50 * 1000,
    .kernel_wait_max_ns = 30,
    .launch_bound_kernel_max_ns = 5 * 1000,
    .small_dma_max_bytes = 4096,
    .straggler_min_skew_ns = 1000 * 1000,
    .low_utilization_percent = 50,
    .launch_bound_min_kernels = 20,
    .slow_step_percent = 20,
    .data_loading_percent = 10,
    .exposed_comm_percent = 30,
    .low_occupancy_percent = 25,
    .host_bound_percent = 50,
    .engine_bound_percent = 50,
    .min_time_lost_ns = 10 * 1000,
  };
}

void
chrono_analysis_options_init (ChronoAnalysisOptions *options)
{
  *options = (ChronoAnalysisOptions) { 0 };
  chrono_analysis_thresholds_init (&options->thresholds);
}

const char *
chrono_path_category_to_string (ChronoPathCategory category)
{
  static const char * const names[] = {
    "host_compute", "device_compute", "communication", "memcpy",
    "launch_overhead", "kernel_overhead", "idle",
  };

  g_return_val_if_fail (category < CHRONO_N_PATH_CATEGORIES, NULL);
  return names[category];
}

const char *
chrono_severity_to_string (ChronoSeverity severity)
{
  static const char * const names[] = { "low", "medium", "high" };

  g_return_val_if_fail (severity <= CHRONO_SEVERITY_HIGH, NULL);
  return names[severity];
}

const char *
chrono_edge_type_to_string (ChronoEdgeType type)
{
  static const char * const names[] = {
    "nesting", "thread_order", "launch", "stream_order", "sync", "event_wait",
    "collective", "flow",
  };

  g_return_val_if_fail (type < CHRONO_N_EDGE_TYPES, NULL);
  return names[type];
}

void
chrono_subgraph_free (ChronoSubgraph *graph)
{
  g_array_unref (graph->nodes);
  g_array_unref (graph->edges);
  g_free (graph);
}

static void
chrono_analysis_finalize (GObject *object)
{
  ChronoAnalysis *self = CHRONO_ANALYSIS (object);

  for (guint i = 0; i < self->paths->len; i++)
    chrono_critical_path_clear (&g_array_index (self->paths, ChronoCriticalPath, i));
  for (guint i = 0; i < self->findings->len; i++)
    chrono_finding_clear (&g_array_index (self->findings, ChronoFinding, i));
  g_array_unref (self->paths);
  g_array_unref (self->findings);
  g_array_unref (self->breakdowns);
  g_clear_pointer (&self->efficiency, chrono_efficiency_free);
  g_ptr_array_unref (self->ranks);

  G_OBJECT_CLASS (chrono_analysis_parent_class)->finalize (object);
}

static void
chrono_analysis_class_init (ChronoAnalysisClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_analysis_finalize;
}

static void
chrono_analysis_init (ChronoAnalysis *self)
{
  self->ranks = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_rank_data_free);
  self->breakdowns = g_array_new (FALSE, FALSE, sizeof (ChronoBreakdown));
  self->paths = g_array_new (FALSE, FALSE, sizeof (ChronoCriticalPath));
  self->findings = g_array_new (FALSE, FALSE, sizeof (ChronoFinding));
}

static gint
compare_findings (gconstpointer a,
                  gconstpointer b)
{
  const ChronoFinding *x = a;
  const ChronoFinding *y = b;

  if (x->time_lost_ns != y->time_lost_ns)
    return x->time_lost_ns > y->time_lost_ns ? -1 : 1;
  return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

ChronoAnalysis *
chrono_analysis_run (ChronoTrace * const          *traces,
                     guint                         n_traces,
                     const ChronoAnalysisOptions  *options,
                     GCancellable                 *cancellable,
                     GError                      **error)
{
  g_autoptr(ChronoAnalysis) self = g_object_new (CHRONO_TYPE_ANALYSIS, NULL);

  g_return_val_if_fail (n_traces == 0 || traces != NULL, NULL);

  if (options)
    self->options = *options;
  else
    chrono_analysis_options_init (&self->options);
  self->efficiency = chrono_efficiency_new (&self->options.thresholds);

  for (guint i = 0; i < n_traces; i++)
    {
      ChronoRankData *data;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      data = chrono_rank_data_new (traces[i], i, &self->options);
      g_ptr_array_add (self->ranks, data);
      chrono_efficiency_add_rank (self->efficiency, data);
      chrono_analysis_compute_breakdowns (data, &self->options.thresholds, self->breakdowns);
      chrono_analysis_compute_paths (data, &self->options.thresholds, self->paths);
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  chrono_analysis_run_rules ((ChronoRankData **) self->ranks->pdata, self->ranks->len,
                             self->breakdowns, self->paths, &self->options.thresholds, self->findings);
  g_array_sort (self->findings, compare_findings);
  chrono_efficiency_finish (self->efficiency);
  return g_steal_pointer (&self);
}

guint
chrono_analysis_get_n_traces (ChronoAnalysis *self)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), 0);
  return self->ranks->len;
}

ChronoTrace *
chrono_analysis_get_trace (ChronoAnalysis *self,
                           guint           index)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);
  g_return_val_if_fail (index < self->ranks->len, NULL);
  return ((ChronoRankData *) g_ptr_array_index (self->ranks, index))->trace;
}

guint
chrono_analysis_get_n_breakdowns (ChronoAnalysis *self)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), 0);
  return self->breakdowns->len;
}

const ChronoBreakdown *
chrono_analysis_get_breakdown (ChronoAnalysis *self,
                               guint           index)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);
  g_return_val_if_fail (index < self->breakdowns->len, NULL);
  return &g_array_index (self->breakdowns, ChronoBreakdown, index);
}

guint
chrono_analysis_get_n_paths (ChronoAnalysis *self)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), 0);
  return self->paths->len;
}

const ChronoCriticalPath *
chrono_analysis_get_path (ChronoAnalysis *self,
                          guint           index)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);
  g_return_val_if_fail (index < self->paths->len, NULL);
  return &g_array_index (self->paths, ChronoCriticalPath, index);
}

guint
chrono_analysis_get_n_findings (ChronoAnalysis *self)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), 0);
  return self->findings->len;
}

const ChronoFinding *
chrono_analysis_get_finding (ChronoAnalysis *self,
                             guint           index)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);
  g_return_val_if_fail (index < self->findings->len, NULL);
  return &g_array_index (self->findings, ChronoFinding, index);
}

ChronoRankData **
chrono_analysis_get_ranks (ChronoAnalysis *self,
                           guint          *n_ranks)
{
  *n_ranks = self->ranks->len;
  return (ChronoRankData **) self->ranks->pdata;
}

ChronoEfficiency *
chrono_analysis_get_efficiency_data (ChronoAnalysis *self)
{
  return self->efficiency;
}
