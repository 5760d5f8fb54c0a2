/* chrono-analysis-rules.c: the bottleneck rules
 *
 * Each rule claims its time lost from the devices' ledgers: time in the
 * states its cause explains, inside the range its evidence covers, that
 * no earlier rule has claimed. Causes run before the symptoms they
 * explain (data loading before the idle gap it leaves), so a symptom
 * keeps only what no cause explains. docs/analysis.md defines every rule.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "chrono-rules-private.h"

static const ChronoRule rules[] = {
  { "collective-straggler", N_("Straggler rank"),
    N_("With several ranks, the n-th collective of every rank is matched; the rank that starts it last "
    "makes the others wait inside their collective. Reported per rank when it is last to collectives by "
    "at least straggler-min-skew-us. Time lost: the other ranks' device time spent waiting for it.") },
  { "data-loading", N_("Data loading in the step"),
    N_("Host time in the data loader (spans named after DataLoader) above data-loading-percent of the "
    "step. Time lost: the device idle time while the launching thread loaded data.") },
  { "device-sync", N_("Device synchronisation in a step"),
    N_("Host calls that block until the device catches up (cudaDeviceSynchronize, "
    "cudaStreamSynchronize, cudaEventSynchronize) and did wait for work. Time lost: the device idle "
    "time after the queue ran dry, until the host launched again; the time the host sat blocked while "
    "the device worked costs nothing.") },
  { "sync-memcpy", N_("Synchronous or pageable copies"),
    N_("Copies issued with a blocking call (cudaMemcpy rather than cudaMemcpyAsync) or to or from "
    "pageable host memory. Time lost: the device idle time after each such copy, while the host, held "
    "by the copy, had not launched the next work.") },
  { "launch-bound", N_("Launch-bound kernels"),
    N_("At least launch-bound-min-kernels consecutive kernels on a stream, each at most "
    "launch-bound-kernel-max-us long and each preceded by an idle gap longer than itself: the host "
    "launches slower than the device runs. Time lost: the device's wait for the host and for the "
    "launches in that stretch.") },
  { "host-bound", N_("Host-bound step"),
    N_("A step (or, without steps, a device's whole window) in which a device waits for the host to "
    "launch work (ledger states idle_host and idle_launch) for more than host-bound-percent of the "
    "time. Time lost: that wait, less what more specific causes claimed.") },
  { "dependency-wait", N_("Waits on other streams or engines"),
    N_("Work on a critical path that could not start when its stream or engine was free because it "
    "waited for work on another one: a cudaStreamWaitEvent, or a dependency flow (Neuron instruction "
    "dependencies and semaphore waits). Time lost: the device time of those waits in which no "
    "computation ran.") },
  { "collective-outlier", N_("Slow collectives"),
    N_("Collectives of one name (at least five) of which some take more than twice the median. "
    "Time lost: their communication time over the median that no computation hides. On a NeuronCore, CC ops of "
    "one type and size; time lost: the Tensor engine's wait for collectives past the median.") },
  { "exposed-communication", N_("Exposed communication"),
    N_("Collective kernels that run while no computation kernel runs on the device, when this exposed "
    "part is more than exposed-communication-percent of all communication time. Time lost: the "
    "exposed time (ledger state communication).") },
  { "small-copies", N_("Many small copies"),
    N_("Copies or DMA transfers of at most small-dma-max-bytes (from the \"bytes\" or "
    "\"transfer_size\" arg), at least launch-bound-min-kernels of them. Time lost, an upper bound: "
    "their time with no computation beside them, most of which is fixed per-transfer cost.") },
  { "exposed-copies", N_("Copies not overlapped by computation"),
    N_("Memory copies, sets or DMA transfers that run while no computation does, when this exposed part "
    "is more than exposed-communication-percent of all their time (a DMA-bound device). Time lost: the "
    "exposed time (ledger state copy).") },
  { "neuron-transpose", N_("Transposes on the Tensor engine"),
    N_("A stretch of a NeuronCore in which its Tensor engine runs only transposes for more than "
    "neuron-transpose-percent of its busy time. Time lost: that transpose-only time (ledger state transpose).") },
  { "neuron-throttling", N_("Tensor engine throttled"),
    N_("A stretch of a NeuronCore's Throttle records (the Tensor engine held to k of n of its rate). Time lost: "
    "the Tensor engine's busy time under each record times 1 − k/n, the time it would not have taken at its "
    "full rate (ledger states compute and transpose).") },
  { "neuron-dma-bound", N_("Tensor engine waiting for DMA"),
    N_("A stretch of a NeuronCore in which the Tensor engine's idle gaps were held by DMA transfers (found "
    "along each gap's dependency chain) for at least engine-bound-percent of its idle time. Time lost: those "
    "gaps (ledger state idle_dma).") },
  { "neuron-small-dma", N_("Tensor engine waiting for small DMA transfers"),
    N_("The same, where the transfers that held the Tensor engine are under small-dma-max-bytes. Time lost: "
    "those gaps (ledger state idle_dma).") },
  { "neuron-spill-reload", N_("Tensor engine waiting for spill reloads"),
    N_("The same, where the transfers that held the Tensor engine are on a spill queue: tensors that did not "
    "fit in SBUF coming back, when the stretch's spill reloads are more than spill-reload-percent of its HBM "
    "reads (where the profile gives its bytes). Time lost: those gaps (ledger state idle_dma).") },
  { "neuron-low-model-flops", N_("Tensor engine busy on little model work"),
    N_("A NeuronCore whose profile gives its model FLOPs (the compiler's HLO statistics) where they are less than "
    "neuron-model-flops-percent of what its Tensor engine could do in its active time: padding, transposes or "
    "tiles smaller than the array. Time lost: none the ledger shows, as the engine computes; the ratio is the "
    "evidence.") },
  { "neuron-nki-coverage", N_("Engines running little NKI code"),
    N_("A NeuronCore whose profile has NKI instructions where fewer than nki-coverage-percent of the "
    "instructions of its Tensor, Vector or Scalar engine have an NKI source location. Time lost: none the "
    "ledger shows; the coverage is the evidence.") },
  { "neuron-engine-bound", N_("Tensor engine waiting for another engine"),
    N_("A stretch of a NeuronCore in which the Tensor engine's idle gaps were held by the Vector, Scalar or "
    "GpSimd engine for at least engine-bound-percent of its idle time. Time lost: those gaps (ledger states "
    "idle_vector, idle_scalar, idle_gpsimd).") },
  { "neuron-collective-wait", N_("Tensor engine waiting for collectives"),
    N_("A stretch of a NeuronCore in which the Tensor engine's idle gaps were held by collectives for at least "
    "engine-bound-percent of its idle time. Time lost: those gaps (ledger state idle_collective).") },
  { "neuron-late-start", N_("Tensor engine work issued late"),
    N_("A stretch of a NeuronCore in which the Tensor engine's idle gaps were held by nothing in the profile "
    "(the runtime or the host issued the work late) for at least engine-bound-percent of its idle time. Time "
    "lost: those gaps (ledger state idle_not_queued).") },
  { "low-efficiency", N_("Operators far from the hardware's limit"),
    N_("Operators recorded with shapes whose measured device time is more than their roofline time (their "
    "FLOPs and bytes at the device's peaks, docs/efficiency.md) and which reach less than "
    "low-efficiency-percent of it (a roofline of at least 3 µs a call: no kernel runs faster); the ten "
    "with the most excess. Time lost, an upper bound: the excess, claimed from the computation time of "
    "their device work.") },
  { "slow-step", N_("Slow step"),
    N_("A step longer than the median step by more than slow-step-percent. Time lost: the difference "
    "to the median, less what other findings claimed in the step.") },
  { "gpu-idle-gap", N_("Accelerator idle gap"),
    N_("A stretch of at least idle-gap-min-us in which a device runs no kernel, copy or set, between "
    "two pieces of its work, that no cause above explains. Time lost: its idle time no other "
    "finding claimed.") },
  { "low-utilization", N_("Low accelerator utilization"),
    N_("A step (or the whole trace when there are no steps) in which a device is busy for less than "
    "low-utilization-percent of the time. Time lost: its idle time in the step that no other finding "
    "claimed.") },
};

const ChronoRule *
chrono_analysis_get_rules (guint *n_rules)
{
  *n_rules = G_N_ELEMENTS (rules);
  return rules;
}

void
chrono_finding_clear (ChronoFinding *finding)
{
  g_free (finding->title);
  g_free (finding->tracks);
  for (guint i = 0; i < finding->n_evidence; i++)
    g_free (finding->evidence[i].key);
  g_free (finding->evidence);
  g_free (finding->recommendation);
  g_free (finding->shares);
}

static gint64
window_of (ChronoRankData *data)
{
  gint64 start = MAX (chrono_trace_get_start_ns (data->trace), data->range_start);
  gint64 end = MIN (chrono_trace_get_end_ns (data->trace), data->range_end);
  return MAX (end - start, 1);
}

/* Adds a finding that costs LOST, the time CLAIM gets (see
 * chrono_rule_measure()), and takes that time from the ledgers; with no
 * CLAIM, a finding of a ratio that costs no time the ledgers show. */
ChronoFinding *
chrono_rule_add_finding_printf (Ctx            *c,
                                const char     *rule,
                                ChronoRankData *data,
                                gint64          start,
                                gint64          end,
                                ChronoClaim    *claim,
                                gint64          lost,
                                const char     *recommendation,
                                const char     *format,
                                ...)
{
  ChronoFinding f = { 0 };
  g_autoptr(GArray) shares = g_array_new (FALSE, FALSE, sizeof (ChronoClaimShare));
  gint64 window = window_of (data);
  va_list args;

  if (lost <= 0 && claim != NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    if (strcmp (rules[i].id, rule) == 0)
      f.rule = rules[i].id;
  g_assert (f.rule != NULL);
  f.time_lost_ns = claim != NULL ? chrono_claim_take (claim, lost, shares) : 0;
  g_assert (f.time_lost_ns == lost);
  f.rank = data->rank_index;
  va_start (args, format);
  f.title = g_strdup_vprintf (format, args);
  va_end (args);
  /* The range covers the time claimed, which may lie after the cause
   * (the idle time after a synchronising call). */
  f.start_ns = claim != NULL ? MIN (start, claim->first) : start;
  f.end_ns = claim != NULL ? MAX (end, claim->last) : end;
  f.severity = lost * 10 >= window ? CHRONO_SEVERITY_HIGH
             : lost * 100 >= window * 3 ? CHRONO_SEVERITY_MEDIUM
             : CHRONO_SEVERITY_LOW;
  f.recommendation = g_strdup (recommendation);
  f.n_shares = shares->len;
  f.shares = (ChronoClaimShare *) g_array_steal (shares, NULL);
  g_array_append_val (c->out, f);
  return &g_array_index (c->out, ChronoFinding, c->out->len - 1);
}

/* The tracks of every copy and set on device D. */
void
chrono_rule_add_copy_tracks (ChronoFinding          *f,
                             ChronoRankData         *data,
                             const ChronoDeviceWork *d)
{
  const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;

  for (guint k = 0; k < d->items->len; k++)
    if (items[k].cls == CHRONO_WORK_MEMCPY || items[k].cls == CHRONO_WORK_MEMSET)
      chrono_finding_add_track (f, data->trace_index, items[k].track);
}

/* For the rules in files of their own: TITLE is taken. */
ChronoFinding *
chrono_rule_add_finding (ChronoRuleContext *c,
                         const char        *rule,
                         ChronoRankData    *data,
                         gint64             start,
                         gint64             end,
                         ChronoClaim       *claim,
                         gint64             lost,
                         const char        *recommendation,
                         char              *title)
{
  g_autofree char *owned = title;

  return chrono_rule_add_finding_printf (c, rule, data, start, end, claim, lost, recommendation, "%s", owned);
}

/* What CLAIM can get, at most LIMIT; 0 when that is below the least a
 * finding must cost, so the rule reports nothing. */
gboolean
chrono_rule_device_can_hold (const ChronoDeviceWork *d,
                             guint                   mask)
{
  const guint neuron = CHRONO_LEDGER_MASK (CHRONO_LEDGER_COMPUTE) | CHRONO_LEDGER_MASK (CHRONO_LEDGER_TRANSPOSE) |
                       CHRONO_LEDGER_NEURON_IDLE_MASK;

  return d->neuron == NULL || (mask & neuron) != 0;
}

gint64
chrono_rule_measure (ChronoRuleContext *c,
                     ChronoClaim       *claim,
                     gint64             limit)
{
  gint64 lost = chrono_claim_measure (claim, limit);

  return lost >= MAX (c->th->min_time_lost_ns, 1) ? lost : 0;
}

void
chrono_finding_add_track (ChronoFinding *f,
                          guint32        trace,
                          guint32        track)
{
  if (f == NULL)
    return;
  for (guint i = 0; i < f->n_tracks; i++)
    if (f->tracks[i].trace == trace && f->tracks[i].track == track)
      return;
  f->tracks = g_renew (ChronoTrackRef, f->tracks, f->n_tracks + 1);
  f->tracks[f->n_tracks++] = (ChronoTrackRef) { trace, track };
}

void
chrono_finding_add_evidence (ChronoFinding *f,
                             const char    *key,
                             gdouble        value)
{
  if (f == NULL)
    return;
  f->evidence = g_renew (ChronoEvidence, f->evidence, f->n_evidence + 1);
  f->evidence[f->n_evidence++] = (ChronoEvidence) { g_strdup (key), value };
}

void
chrono_finding_set_node (ChronoFinding *f,
                         guint32        trace,
                         guint32        track,
                         guint32        index)
{
  if (f == NULL)
    return;
  f->has_node = TRUE;
  f->node = (ChronoNodeRef) { trace, { track, index } };
}

/* The ledger states the finding's time came from, as its claim's
 * measure found them: "claimed_idle_data_ns" = … */
void
chrono_rule_add_claimed_states (ChronoFinding     *f,
                                const ChronoClaim *claim)
{
  for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
    if (claim->state_ns[k] > 0)
      {
        g_autofree char *key = g_strdup_printf ("claimed_%s_ns", chrono_ledger_state_to_string (k));

        chrono_finding_add_evidence (f, key, claim->state_ns[k]);
      }
}

/* The idle state most of CLAIM's measured time was in. */
ChronoLedgerState
chrono_rule_main_idle_state (const ChronoClaim *claim)
{
  return chrono_ledger_main_state (claim->state_ns, CHRONO_LEDGER_IDLE_MASK | CHRONO_LEDGER_NEURON_IDLE_MASK,
                                   CHRONO_LEDGER_IDLE_OTHER);
}

double
chrono_rule_ms (gint64 ns)
{
  return ns / 1e6;
}

static char *
rank_label (ChronoRankData *data)
{
  return data->rank >= 0 ? g_strdup_printf (_("rank %d"), data->rank) : NULL;
}

char *
chrono_rule_device_label (ChronoRankData         *data,
                          const ChronoDeviceWork *d)
{
  const ChronoProcess *p = chrono_trace_get_process (data->trace, d->process);
  const char *name = chrono_trace_get_string (data->trace, p->display_name);
  g_autofree char *rank = rank_label (data);

  if (rank != NULL && strstr (name, "ank ") == NULL)
    return g_strdup_printf ("%s (%s)", name, rank);
  return g_strdup (name);
}

const char *
chrono_rule_step_name (ChronoRankData   *data,
                       const ChronoStep *step)
{
  return chrono_trace_get_string (data->trace,
                                  chrono_track_get_name (chrono_trace_get_track (data->trace, step->track), step->index));
}

/* ------------------------------------------------------------------ */
/* Causes                                                             */


/* The clocks of the ranks disagree when the matched collectives start
 * further apart than they last: then the matching says nothing about who
 * waited for whom. */
static gboolean
clocks_agree (ChronoRankData **ranks,
              guint            n_ranks,
              guint            n)
{
  g_autofree gint64 *skews = g_new (gint64, n);
  g_autofree gint64 *durs = g_new (gint64, n);

  for (guint k = 0; k < n; k++)
    {
      gint64 first = G_MAXINT64, last = G_MININT64, longest = 0;
      for (guint r = 0; r < n_ranks; r++)
        {
          const ChronoWorkItem *it = &g_array_index (ranks[r]->collectives, ChronoWorkItem, k);
          first = MIN (first, it->start);
          last = MAX (last, it->start);
          longest = MAX (longest, it->end - it->start);
        }
      skews[k] = last - first;
      durs[k] = longest;
    }
  chrono_sort_by_int64 (skews, n, sizeof (gint64), 0);
  chrono_sort_by_int64 (durs, n, sizeof (gint64), 0);
  return skews[n / 2] <= durs[n / 2];
}

guint
chrono_rule_n_matched (ChronoRankData **ranks,
                       guint            n_ranks)
{
  guint n = G_MAXUINT;

  for (guint r = 0; r < n_ranks; r++)
    n = MIN (n, ranks[r]->collectives->len);
  return n_ranks < 2 ? 0 : n;
}

static void
clear_array (GArray **array)
{
  g_clear_pointer (array, g_array_unref);
}

gboolean
chrono_analysis_clocks_agree (ChronoRankData **ranks,
                              guint            n_ranks)
{
  guint n = chrono_rule_n_matched (ranks, n_ranks);

  return n == 0 || clocks_agree (ranks, n_ranks, n);
}

void
chrono_analysis_match_collectives (ChronoRankData **ranks,
                                   guint            n_ranks,
                                   GPtrArray       *peer_waits)
{
  guint n = chrono_rule_n_matched (ranks, n_ranks);

  if (n == 0 || !chrono_analysis_clocks_agree (ranks, n_ranks))
    return;
  for (guint r = 0; r < n_ranks; r++)
    {
      GArray *per_device = g_array_new (FALSE, TRUE, sizeof (GArray *));

      g_array_set_clear_func (per_device, (GDestroyNotify) clear_array);
      g_array_set_size (per_device, ranks[r]->devices->len);
      g_ptr_array_add (peer_waits, per_device);
    }
  for (guint k = 0; k < n; k++)
    {
      gint64 last = G_MININT64;
      guint last_rank = 0;

      for (guint r = 0; r < n_ranks; r++)
        {
          const ChronoWorkItem *it = &g_array_index (ranks[r]->collectives, ChronoWorkItem, k);
          if (it->start > last)
            {
              last = it->start;
              last_rank = r;
            }
        }
      for (guint r = 0; r < n_ranks; r++)
        {
          const ChronoWorkItem *it = &g_array_index (ranks[r]->collectives, ChronoWorkItem, k);
          gint di = chrono_rank_data_device_of_track (ranks[r], it->track);
          GArray **waits;
          ChronoInterval *tail;
          ChronoInterval w = { it->start, MIN (last, it->end), last_rank };

          if (di < 0 || w.end <= w.start)
            continue;
          waits = &g_array_index ((GArray *) peer_waits->pdata[r], GArray *, di);
          if (*waits == NULL)
            *waits = g_array_new (FALSE, FALSE, sizeof (ChronoInterval));
          /* Collectives on one device may overlap: keep the waits disjoint. */
          tail = (*waits)->len ? &g_array_index (*waits, ChronoInterval, (*waits)->len - 1) : NULL;
          if (tail && w.start < tail->end)
            w.start = tail->end;
          if (w.end > w.start)
            g_array_append_val (*waits, w);
        }
    }
}

void
chrono_analysis_run_rules (ChronoAnalysis                 *analysis,
                           ChronoRankData                **ranks,
                           guint                           n_ranks,
                           GArray                         *breakdowns,
                           GArray                         *paths,
                           GThread                        *paths_pending,
                           const ChronoAnalysisThresholds *thresholds,
                           GArray                         *out)
{
  Ctx c = { ranks, n_ranks, thresholds, out };

  /* Causes first, most specific first; then the symptoms, which keep
   * what no cause explains. */
  chrono_rule_stragglers (&c);
  for (guint r = 0; r < n_ranks; r++)
    {
      chrono_neuron_run_rules (&c, ranks[r]);
      chrono_rule_data_loading (&c, ranks[r]);
      chrono_rule_device_syncs (&c, ranks[r]);
      chrono_rule_copies (&c, ranks[r]);
      chrono_rule_launch_bound (&c, ranks[r]);
      if (paths_pending != NULL)
        g_thread_join (g_steal_pointer (&paths_pending));
      chrono_rule_host_bound (&c, ranks[r], paths);
      chrono_rule_dependency_waits (&c, ranks[r], paths);
      chrono_rule_collective_outliers (&c, ranks[r]);
      chrono_rule_exposed_comm (&c, ranks[r], breakdowns);
      chrono_rule_small_copies (&c, ranks[r]);
      chrono_rule_copies_exposed (&c, ranks[r]);
    }
  if (paths_pending != NULL)
    g_thread_join (paths_pending);
  chrono_rule_low_efficiency (&c, analysis);
  for (guint r = 0; r < n_ranks; r++)
    {
      chrono_rule_slow_steps (&c, ranks[r]);
      chrono_rule_idle_gaps (&c, ranks[r]);
      chrono_rule_low_utilization (&c, ranks[r]);
    }
}

ChronoRankData *
chrono_analysis_rank_of_node (ChronoRankData **ranks,
                              guint            n_ranks,
                              ChronoNodeRef    node)
{
  for (guint r = 0; r < n_ranks; r++)
    if (ranks[r]->trace_index == node.trace && chrono_rank_data_has_track (ranks[r], node.span.track))
      return ranks[r];
  return NULL;
}

gboolean
chrono_analysis_collective_peer (ChronoRankData **ranks,
                                 guint            n_ranks,
                                 guint32          trace,
                                 ChronoSpanRef    span,
                                 guint32          peer_trace,
                                 ChronoSpanRef   *peer)
{
  ChronoRankData *mine_rank = chrono_analysis_rank_of_node (ranks, n_ranks, (ChronoNodeRef) { trace, span });
  GArray *mine;

  if (mine_rank == NULL || peer_trace >= n_ranks || peer_trace == mine_rank->rank_index)
    return FALSE;
  mine = mine_rank->collectives;
  for (guint k = 0; k < mine->len && k < ranks[peer_trace]->collectives->len; k++)
    {
      const ChronoWorkItem *it = &g_array_index (mine, ChronoWorkItem, k);
      if (it->track == span.track && it->index == span.index)
        {
          const ChronoWorkItem *p = &g_array_index (ranks[peer_trace]->collectives, ChronoWorkItem, k);
          *peer = (ChronoSpanRef) { p->track, p->index };
          return TRUE;
        }
    }
  return FALSE;
}
