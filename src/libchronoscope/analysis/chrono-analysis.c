/* chrono-analysis.c: runs the analyses and holds their results
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-analysis-private.h"
#include "chrono-efficiency-private.h"
#include "chrono-memory.h"
#include "chrono-neuron-metrics.h"
#include "chrono-neuron-series.h"

struct _ChronoAnalysis
{
  GObject    parent_instance;

  GPtrArray *traces;      /* ChronoTrace * */
  GPtrArray *ranks;       /* ChronoRankData * */
  GArray    *rank_info;   /* ChronoRankInfo */
  ChronoAnalysisOptions options;
  GArray    *breakdowns;  /* ChronoBreakdown */
  GArray    *ledger;      /* ChronoLedgerRow */
  GArray    *host_ledger; /* ChronoHostLedgerRow */
  GArray    *paths;       /* ChronoCriticalPath */
  GArray    *findings;    /* ChronoFinding */
  GArray    *limitations; /* ChronoLimitation */
  ChronoEfficiency *efficiency;
  GPtrArray *memories;    /* ChronoMemory *, one per trace */
  GPtrArray *neuron_series; /* ChronoNeuronSeries *, made with the FLOPs series; else NULL */
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
    .host_bound_percent = 50,
    .engine_bound_percent = 50,
    .neuron_transpose_percent = 10,
    .model_flops_percent = 50,
    .nki_coverage_percent = 50,
    .spill_reload_percent = 25,
    .min_time_lost_ns = 10 * 1000,
    .low_efficiency_percent = 25,
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
  for (guint i = 0; i < self->ledger->len; i++)
    g_free (g_array_index (self->ledger, ChronoLedgerRow, i).name);
  for (guint i = 0; i < self->rank_info->len; i++)
    g_free (g_array_index (self->rank_info, ChronoRankInfo, i).label);
  for (guint i = 0; i < self->limitations->len; i++)
    g_free (g_array_index (self->limitations, ChronoLimitation, i).message);
  g_array_unref (self->paths);
  g_array_unref (self->findings);
  g_array_unref (self->breakdowns);
  g_array_unref (self->ledger);
  g_array_unref (self->host_ledger);
  g_array_unref (self->rank_info);
  g_array_unref (self->limitations);
  g_clear_pointer (&self->efficiency, chrono_efficiency_free);
  g_clear_pointer (&self->memories, g_ptr_array_unref);
  g_clear_pointer (&self->neuron_series, g_ptr_array_unref);
  g_ptr_array_unref (self->ranks);
  g_ptr_array_unref (self->traces);

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
  self->traces = g_ptr_array_new_with_free_func (g_object_unref);
  self->ranks = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_rank_data_free);
  self->rank_info = g_array_new (FALSE, FALSE, sizeof (ChronoRankInfo));
  self->ledger = g_array_new (FALSE, FALSE, sizeof (ChronoLedgerRow));
  self->host_ledger = g_array_new (FALSE, FALSE, sizeof (ChronoHostLedgerRow));
  self->limitations = g_array_new (FALSE, FALSE, sizeof (ChronoLimitation));
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

  /* Ties broken to the end, so the same traces always list the same. */
  if (x->time_lost_ns != y->time_lost_ns)
    return x->time_lost_ns > y->time_lost_ns ? -1 : 1;
  if (x->start_ns != y->start_ns)
    return x->start_ns < y->start_ns ? -1 : 1;
  /* The title names the rank; its index follows the order of the files. */
  if (strcmp (x->rule, y->rule) != 0)
    return strcmp (x->rule, y->rule);
  if (g_strcmp0 (x->title, y->title) != 0)
    return g_strcmp0 (x->title, y->title);
  return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The ranks of TRACE: one for each file it was read from. */
static void
add_ranks (ChronoAnalysis *self,
           ChronoTrace    *trace,
           guint32         trace_index)
{
  guint n_parts = chrono_trace_get_n_parts (trace);

  for (guint p = 0; p < n_parts; p++)
    {
      const ChronoTracePart *part = chrono_trace_get_part (trace, p);
      guint index = self->ranks->len;
      g_autofree char *base = g_path_get_basename (part->path ? part->path : chrono_trace_get_path (trace));
      ChronoRankInfo info = {
        .trace = trace_index,
        .rank = part->rank,
        .label = part->rank >= 0 ? g_strdup_printf ("rank %d", part->rank)
                 : n_parts > 1 ? g_steal_pointer (&base)
                 : g_strdup_printf ("trace %u", trace_index),
      };

      g_ptr_array_add (self->ranks, chrono_rank_data_new (trace, trace_index, index, part, &self->options));
      g_array_append_val (self->rank_info, info);
      chrono_efficiency_add_rank (self->efficiency, self->ranks->pdata[index]);
    }
}

typedef struct {
  ChronoAnalysis *self;
  GThread        *others;  /* walking the other devices' paths */
} NeuronPaths;

/* The NeuronCores' critical paths read only their ledgers: they are
 * walked while the breakdowns are made, the metrics read and the rules
 * that need no path run. They follow the other devices' paths, which
 * they wait for: whoever joins them has all the paths. */
static gpointer
add_neuron_paths (gpointer user_data)
{
  g_autofree NeuronPaths *job = user_data;
  ChronoAnalysis *self = job->self;
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (ChronoCriticalPath));

  for (guint r = 0; r < self->ranks->len; r++)
    chrono_neuron_add_paths (self->ranks->pdata[r], found);
  g_thread_join (job->others);
  g_array_append_vals (self->paths, found->data, found->len);
  return NULL;
}

/* Each device's ledger over its window, then over each step of its rank
 * (or each execution of a NeuronCore). */
static void
add_ledger_rows (ChronoAnalysis *self,
                 ChronoRankData *data)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      const ChronoBreakdown *b;
      ChronoLedgerRow row = { .rank = data->rank_index, .breakdown = d->breakdown, .step = -1,
                              .neuron_core = d->neuron != NULL };

      if (d->ledger == NULL || d->ledger->len == 0)
        continue;
      b = &g_array_index (self->breakdowns, ChronoBreakdown, d->breakdown);
      row.start_ns = b->start_ns;
      row.end_ns = b->end_ns;
      chrono_ledger_sum (d->ledger, row.start_ns, row.end_ns, row.state_ns);
      row.recoverable_ns = chrono_ledger_claimed_in (d->ledger, row.start_ns, row.end_ns);
      g_array_append_val (self->ledger, row);
      for (guint k = 0; k < data->steps->len; k++)
        {
          const ChronoStep *step = &g_array_index (data->steps, ChronoStep, k);
          const ChronoTrack *t = chrono_trace_get_track (data->trace, step->track);
          ChronoLedgerRow sr = {
            .rank = data->rank_index, .breakdown = d->breakdown, .step = k,
            .start_ns = MAX (step->start, b->start_ns), .end_ns = MIN (step->work_end, b->end_ns),
            .neuron_core = d->neuron != NULL,
          };

          if (sr.end_ns <= sr.start_ns)
            continue;
          sr.name = g_strdup (chrono_trace_get_string (data->trace, chrono_track_get_name (t, step->index)));
          chrono_ledger_sum (d->ledger, sr.start_ns, sr.end_ns, sr.state_ns);
          sr.recoverable_ns = chrono_ledger_claimed_in (d->ledger, sr.start_ns, sr.end_ns);
          g_array_append_val (self->ledger, sr);
        }
      /* A NeuronCore's executions are its steps. */
      if (d->neuron != NULL && data->steps->len == 0)
        chrono_neuron_add_execution_rows (data, d, self->ledger);
    }
}

/* The parts of the analysis that read only the ranks' work, not their
 * ledgers or one another: the critical paths, which the rules need, and
 * the host threads' ledgers. They run beside the ledgers and breakdowns. */
static gpointer
run_paths (gpointer user_data)
{
  ChronoAnalysis *self = user_data;

  for (guint r = 0; r < self->ranks->len; r++)
    {
      chrono_analysis_compute_paths (self->ranks->pdata[r], &self->options.thresholds, self->paths);
      if (!self->options.without_ledger_rows)
        chrono_rank_data_host_ledgers (self->ranks->pdata[r], self->host_ledger);
    }
  return NULL;
}

ChronoAnalysis *
chrono_analysis_run (ChronoTrace * const          *traces,
                     guint                         n_traces,
                     const ChronoAnalysisOptions  *options,
                     GCancellable                 *cancellable,
                     GError                      **error)
{
  g_autoptr(ChronoAnalysis) self = g_object_new (CHRONO_TYPE_ANALYSIS, NULL);
  g_autoptr(GPtrArray) peer_waits = NULL;
  GThread *paths, *neuron_paths;
  NeuronPaths *neuron_job;
  ChronoRankData **ranks;
  guint n_ranks;

  g_return_val_if_fail (n_traces == 0 || traces != NULL, NULL);

  if (options)
    self->options = *options;
  else
    chrono_analysis_options_init (&self->options);
  self->efficiency = chrono_efficiency_new (&self->options.thresholds, self->options.with_flops_series);

  for (guint i = 0; i < n_traces; i++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      g_ptr_array_add (self->traces, g_object_ref (traces[i]));
      /* The efficiency collects the trace's calls while its ranks' work is gathered. */
      chrono_efficiency_add_trace (self->efficiency, traces[i]);
      add_ranks (self, traces[i], i);
    }
  /* Memory is an account of its own, beside the time. */
  self->memories = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_traces; i++)
    {
      ChronoMemory *memory = chrono_memory_new (traces[i], self->options.range_start_ns,
                                                self->options.range_end_ns, cancellable, error);
      if (memory == NULL)
        return NULL;
      g_ptr_array_add (self->memories, memory);
    }
  ranks = (ChronoRankData **) self->ranks->pdata;
  n_ranks = self->ranks->len;

  peer_waits = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  chrono_analysis_match_collectives (ranks, n_ranks, peer_waits);
  paths = g_thread_new ("chrono-paths", run_paths, self);
  for (guint r = 0; r < n_ranks && !g_cancellable_is_cancelled (cancellable); r++)
    chrono_rank_data_build_ledgers (ranks[r], r < peer_waits->len ? peer_waits->pdata[r] : NULL,
                                    &self->options.thresholds);
  neuron_job = g_new (NeuronPaths, 1);
  *neuron_job = (NeuronPaths) { self, paths };
  neuron_paths = g_thread_new ("chrono-neuron-paths", add_neuron_paths, neuron_job);
  for (guint r = 0; r < n_ranks && !g_cancellable_is_cancelled (cancellable); r++)
    chrono_analysis_compute_breakdowns (ranks[r], &self->options.thresholds, self->breakdowns);
  for (guint r = 0; r < n_ranks; r++)
    chrono_rank_data_join_metrics (ranks[r]);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      g_thread_join (neuron_paths);
      return NULL;
    }
  /* The efficiency read the operators' shapes meanwhile; its rule needs it. */
  chrono_efficiency_finish (self->efficiency);
  /* What the traces lack decides what the rules may claim. */
  chrono_analysis_find_limitations (ranks, n_ranks, self->limitations);
  chrono_analysis_run_rules (self, ranks, n_ranks, self->breakdowns, self->paths, neuron_paths,
                             &self->options.thresholds, self->findings);
  g_array_sort (self->findings, compare_findings);
  for (guint r = 0; r < n_ranks && !self->options.without_ledger_rows; r++)
    add_ledger_rows (self, ranks[r]);
  /* Whoever draws the series asks for them here, off its main thread. */
  if (self->options.with_flops_series)
    self->neuron_series = chrono_neuron_series_for_analysis (self);
  return g_steal_pointer (&self);
}

typedef struct {
  ChronoPairLoadFunc           load;
  gpointer                     data;
  const ChronoAnalysisOptions *options;
  GCancellable                *cancellable;
  ChronoAnalysis              *analysis;
  GError                      *error;
} PairSide;

static gpointer
run_side (gpointer user_data)
{
  PairSide *side = user_data;
  g_autoptr(ChronoTrace) trace = side->load (side->data, &side->error);

  if (trace != NULL)
    side->analysis = chrono_analysis_run (&trace, 1, side->options, side->cancellable, &side->error);
  return NULL;
}

gboolean
chrono_analysis_load_pair (ChronoPairLoadFunc            load,
                           gpointer                      data_a,
                           gpointer                      data_b,
                           const ChronoAnalysisOptions  *options,
                           GCancellable                 *cancellable,
                           ChronoAnalysis              **out_a,
                           ChronoAnalysis              **out_b,
                           GError                      **error)
{
  ChronoAnalysisOptions pair_options;
  PairSide sides[2] = {
    { load, data_a, &pair_options, cancellable, NULL, NULL },
    { load, data_b, &pair_options, cancellable, NULL, NULL },
  };

  g_return_val_if_fail (load != NULL && out_a != NULL && out_b != NULL, FALSE);

  if (options)
    pair_options = *options;
  else
    chrono_analysis_options_init (&pair_options);
  pair_options.without_ledger_rows = TRUE;
  chrono_both_at_once (run_side, &sides[0], &sides[1]);
  for (guint k = 0; k < 2; k++)
    if (sides[k].analysis == NULL)
      {
        /* A's fault first, as loading one after the other would report it. */
        g_propagate_error (error, g_steal_pointer (&sides[k].error));
        g_clear_error (&sides[1 - k].error);
        g_clear_object (&sides[0].analysis);
        g_clear_object (&sides[1].analysis);
        return FALSE;
      }
  *out_a = sides[0].analysis;
  *out_b = sides[1].analysis;
  return TRUE;
}

void
chrono_both_at_once (GThreadFunc func,
                     gpointer    a,
                     gpointer    b)
{
  GThread *thread = g_thread_new ("chrono-side-b", func, b);

  func (a);
  g_thread_join (thread);
}

static ChronoTrace *
loaded (gpointer  data,
        GError  **error)
{
  return g_object_ref (data);
}

gboolean
chrono_analysis_run_pair (ChronoTrace                  *a,
                          ChronoTrace                  *b,
                          const ChronoAnalysisOptions  *options,
                          GCancellable                 *cancellable,
                          ChronoAnalysis              **out_a,
                          ChronoAnalysis              **out_b,
                          GError                      **error)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  return chrono_analysis_load_pair (loaded, a, b, options, cancellable, out_a, out_b, error);
}

guint
chrono_analysis_get_n_traces (ChronoAnalysis *self)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), 0);
  return self->traces->len;
}

ChronoTrace *
chrono_analysis_get_trace (ChronoAnalysis *self,
                           guint           index)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);
  g_return_val_if_fail (index < self->traces->len, NULL);
  return g_ptr_array_index (self->traces, index);
}

guint
chrono_analysis_get_n_ranks (ChronoAnalysis *self)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), 0);
  return self->rank_info->len;
}

const ChronoRankInfo *
chrono_analysis_get_rank (ChronoAnalysis *self,
                          guint           index)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);
  g_return_val_if_fail (index < self->rank_info->len, NULL);
  return &g_array_index (self->rank_info, ChronoRankInfo, index);
}

guint
chrono_analysis_get_n_ledger_rows (ChronoAnalysis *self)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), 0);
  return self->ledger->len;
}

const ChronoLedgerRow *
chrono_analysis_get_ledger_row (ChronoAnalysis *self,
                                guint           index)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);
  g_return_val_if_fail (index < self->ledger->len, NULL);
  return &g_array_index (self->ledger, ChronoLedgerRow, index);
}

static gint
compare_rule_shares (gconstpointer a,
                     gconstpointer b)
{
  const ChronoRuleShare *x = a, *y = b;

  return x->ns != y->ns ? (x->ns > y->ns ? -1 : 1) : g_strcmp0 (x->rule, y->rule);
}

GArray *
chrono_analysis_dup_recoverable_by_rule (ChronoAnalysis *self,
                                         guint           breakdown)
{
  GArray *out;

  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);

  out = g_array_new (FALSE, FALSE, sizeof (ChronoRuleShare));
  for (guint k = 0; k < self->findings->len; k++)
    {
      const ChronoFinding *f = &g_array_index (self->findings, ChronoFinding, k);

      for (guint j = 0; j < f->n_shares; j++)
        {
          ChronoRuleShare *found = NULL;

          if (f->shares[j].breakdown != breakdown)
            continue;
          for (guint q = 0; q < out->len && found == NULL; q++)
            if (strcmp (g_array_index (out, ChronoRuleShare, q).rule, f->rule) == 0)
              found = &g_array_index (out, ChronoRuleShare, q);
          if (found)
            found->ns += f->shares[j].ns;
          else
            g_array_append_val (out, ((ChronoRuleShare) { f->rule, f->shares[j].ns }));
        }
    }
  g_array_sort (out, compare_rule_shares);
  return out;
}

guint
chrono_analysis_get_n_host_ledger_rows (ChronoAnalysis *self)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), 0);
  return self->host_ledger->len;
}

const ChronoHostLedgerRow *
chrono_analysis_get_host_ledger_row (ChronoAnalysis *self,
                                     guint           index)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);
  g_return_val_if_fail (index < self->host_ledger->len, NULL);
  return &g_array_index (self->host_ledger, ChronoHostLedgerRow, index);
}

guint
chrono_analysis_get_n_limitations (ChronoAnalysis *self)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), 0);
  return self->limitations->len;
}

const ChronoLimitation *
chrono_analysis_get_limitation (ChronoAnalysis *self,
                                guint           index)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);
  g_return_val_if_fail (index < self->limitations->len, NULL);
  return &g_array_index (self->limitations, ChronoLimitation, index);
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

GPtrArray *
chrono_analysis_get_neuron_series (ChronoAnalysis *self)
{
  return self->neuron_series;
}

ChronoMemory * const *
chrono_analysis_get_memories (ChronoAnalysis *self,
                              guint          *n_memories)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);
  *n_memories = self->memories->len;
  return (ChronoMemory * const *) self->memories->pdata;
}
