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

#include "chrono-analysis-private.h"
#include "chrono-efficiency.h"
#include "chrono-format.h"

#define MAX_GAPS_PER_DEVICE 10
#define MAX_EFFICIENCY_FINDINGS 10
/* No kernel runs in less than a few microseconds, whatever its work: an
 * operator's roofline is at least this per call. */
#define KERNEL_FLOOR_NS (3 * 1000)

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

typedef ChronoRuleContext Ctx;

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

/* What CLAIM can get, at most LIMIT; 0 when that is below the least a
 * finding must cost, so the rule reports nothing. */
static gint64
measure (Ctx         *c,
         ChronoClaim *claim,
         gint64       limit)
{
  gint64 lost = chrono_claim_measure (claim, limit);

  return lost >= MAX (c->th->min_time_lost_ns, 1) ? lost : 0;
}

/* Adds a finding that costs LOST, the time CLAIM gets (see measure()),
 * and takes that time from the ledgers; with no CLAIM, a finding of a
 * ratio that costs no time the ledgers show. */
static ChronoFinding *
add_finding (Ctx            *c,
             const char     *rule,
             ChronoRankData *data,
             gint64          start,
             gint64          end,
             ChronoClaim    *claim,
             gint64          lost,
             const char     *recommendation,
             const char     *format,
             ...) G_GNUC_PRINTF (9, 10);

static ChronoFinding *
add_finding (Ctx            *c,
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

static void
add_track (ChronoFinding *f,
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

/* The tracks of every copy and set on device D. */
static void
add_copy_tracks (ChronoFinding          *f,
                 ChronoRankData         *data,
                 const ChronoDeviceWork *d)
{
  const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;

  for (guint k = 0; k < d->items->len; k++)
    if (items[k].cls == CHRONO_WORK_MEMCPY || items[k].cls == CHRONO_WORK_MEMSET)
      add_track (f, data->trace_index, items[k].track);
}

static void
add_evidence (ChronoFinding *f,
              const char    *key,
              gdouble        value)
{
  if (f == NULL)
    return;
  f->evidence = g_renew (ChronoEvidence, f->evidence, f->n_evidence + 1);
  f->evidence[f->n_evidence++] = (ChronoEvidence) { g_strdup (key), value };
}

static void
set_node (ChronoFinding *f,
          guint32        trace,
          guint32        track,
          guint32        index)
{
  if (f == NULL)
    return;
  f->has_node = TRUE;
  f->node = (ChronoNodeRef) { trace, { track, index } };
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

  return add_finding (c, rule, data, start, end, claim, lost, recommendation, "%s", owned);
}

gint64
chrono_rule_measure (ChronoRuleContext *c,
                     ChronoClaim       *claim,
                     gint64             limit)
{
  return measure (c, claim, limit);
}

void
chrono_finding_add_track (ChronoFinding *f,
                          guint32        trace,
                          guint32        track)
{
  add_track (f, trace, track);
}

void
chrono_finding_add_evidence (ChronoFinding *f,
                             const char    *key,
                             gdouble        value)
{
  add_evidence (f, key, value);
}

void
chrono_finding_set_node (ChronoFinding *f,
                         guint32        trace,
                         guint32        track,
                         guint32        index)
{
  set_node (f, trace, track, index);
}

/* The ledger states the finding's time came from, as its claim's
 * measure found them: "claimed_idle_data_ns" = … */
static void
add_claimed_states (ChronoFinding     *f,
                    const ChronoClaim *claim)
{
  for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
    if (claim->state_ns[k] > 0)
      {
        g_autofree char *key = g_strdup_printf ("claimed_%s_ns", chrono_ledger_state_to_string (k));

        add_evidence (f, key, claim->state_ns[k]);
      }
}

/* The idle state most of CLAIM's measured time was in. */
static ChronoLedgerState
main_idle_state (const ChronoClaim *claim)
{
  return chrono_ledger_main_state (claim->state_ns, CHRONO_LEDGER_IDLE_MASK | CHRONO_LEDGER_NEURON_IDLE_MASK,
                                   CHRONO_LEDGER_IDLE_OTHER);
}

static double
ms (gint64 ns)
{
  return ns / 1e6;
}

static char *
rank_label (ChronoRankData *data)
{
  return data->rank >= 0 ? g_strdup_printf (_("rank %d"), data->rank) : NULL;
}

static char *
device_label (ChronoRankData         *data,
              const ChronoDeviceWork *d)
{
  const ChronoProcess *p = chrono_trace_get_process (data->trace, d->process);
  const char *name = chrono_trace_get_string (data->trace, p->display_name);
  g_autofree char *rank = rank_label (data);

  if (rank != NULL && strstr (name, "ank ") == NULL)
    return g_strdup_printf ("%s (%s)", name, rank);
  return g_strdup (name);
}

static const char *
step_name (ChronoRankData   *data,
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
  g_qsort_with_data (skews, n, sizeof (gint64), chrono_compare_int64_at, GSIZE_TO_POINTER (0));
  g_qsort_with_data (durs, n, sizeof (gint64), chrono_compare_int64_at, GSIZE_TO_POINTER (0));
  return skews[n / 2] <= durs[n / 2];
}

static guint
n_matched (ChronoRankData **ranks,
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
  guint n = n_matched (ranks, n_ranks);

  return n == 0 || clocks_agree (ranks, n_ranks, n);
}

void
chrono_analysis_match_collectives (ChronoRankData **ranks,
                                   guint            n_ranks,
                                   GPtrArray       *peer_waits)
{
  guint n = n_matched (ranks, n_ranks);

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

static void
rule_stragglers (Ctx *c)
{
  guint n = n_matched (c->ranks, c->n_ranks);

  for (guint r = 0; r < c->n_ranks && n > 0; r++)
    {
      GArray *list = c->ranks[r]->collectives;
      g_auto(ChronoClaim) claim = { NULL };
      gint64 worst = 0, lost;
      guint count = 0;
      g_autofree char *who = c->ranks[r]->rank >= 0 ? g_strdup_printf (_("Rank %d"), c->ranks[r]->rank)
                                                     : g_strdup_printf (_("Trace %u"), c->ranks[r]->trace_index);
      ChronoFinding *f;

      chrono_claim_init (&claim);
      for (guint k = 0; k < n; k++)
        {
          const ChronoWorkItem *mine = &g_array_index (list, ChronoWorkItem, k);
          gint64 first = G_MAXINT64;
          gboolean last = TRUE;

          for (guint q = 0; q < c->n_ranks && last; q++)
            {
              const ChronoWorkItem *it = &g_array_index (c->ranks[q]->collectives, ChronoWorkItem, k);
              first = MIN (first, it->start);
              last = q == r || it->start < mine->start || (it->start == mine->start && q < r);
            }
          if (!last || mine->start - first < c->th->straggler_min_skew_ns)
            continue;
          count++;
          worst = MAX (worst, mine->start - first);
          for (guint q = 0; q < c->n_ranks; q++)
            {
              const ChronoWorkItem *it = &g_array_index (c->ranks[q]->collectives, ChronoWorkItem, k);
              gint di = chrono_rank_data_device_of_track (c->ranks[q], it->track);
              if (q != r && di >= 0)
                chrono_claim_add (&claim, c->ranks[q], di, it->start, it->end,
                                  CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_PEER), r, G_MAXINT64);
            }
        }
      if (count == 0 || (lost = measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      f = add_finding (c, "collective-straggler", c->ranks[r],
                       g_array_index (list, ChronoWorkItem, 0).start,
                       g_array_index (list, ChronoWorkItem, n - 1).end, &claim, lost,
                       _("The other ranks wait for this one at collectives: compare its host activity and input "
                       "sizes with a fast rank (data loading, uneven shards, a slower device or link)."),
                       _("%s is the last to reach %u of %u collectives; the other ranks wait %.3f ms for it "
                       "(worst skew %.3f ms)"),
                       who, count, n, ms (lost), ms (worst));
      add_evidence (f, "collectives_late", count);
      add_evidence (f, "collectives_matched", n);
      add_evidence (f, "max_skew_ns", worst);
      add_evidence (f, "rank", c->ranks[r]->rank);
      for (guint k = 0; k < list->len && f; k++)
        add_track (f, c->ranks[r]->trace_index, g_array_index (list, ChronoWorkItem, k).track);
    }
}

static void
rule_data_loading (Ctx            *c,
                   ChronoRankData *data)
{
  ChronoTrace *trace = data->trace;

  for (guint i = 0; i < data->steps->len; i++)
    {
      const ChronoStep *s = &g_array_index (data->steps, ChronoStep, i);
      const ChronoTrack *t = chrono_trace_get_track (trace, s->track);
      gint64 loading = 0, step = s->work_end - s->start, lost;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;

      for (guint32 k = s->index + 1; k < t->n_spans && t->start[k] < s->end; k++)
        {
          if (t->depth[k] != t->depth[s->index] + 1 || t->lane[k] != t->lane[s->index])
            continue;
          if (chrono_analysis_name_is_data_loading (chrono_trace_get_string (trace, chrono_track_get_name (t, k))))
            loading += chrono_track_get_dur (t, k);
        }
      if (step <= 0 || loading * 100 <= step * (gint64) c->th->data_loading_percent)
        continue;
      /* From the end of the step before: loading for this step often
       * starts while the last one's work still runs. */
      chrono_claim_init (&claim);
      chrono_claim_add_rank (&claim, data, i > 0 ? g_array_index (data->steps, ChronoStep, i - 1).work_end : s->start,
                             s->work_end, CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_DATA));
      if ((lost = measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      f = add_finding (c, "data-loading", data, s->start, s->work_end, &claim, lost,
                       chrono_advice_for_state (CHRONO_LEDGER_IDLE_DATA),
                       _("Data loading takes %.0f%% of %s (%.3f ms); the device waits %.3f ms for it"),
                       100.0 * loading / step, step_name (data, s), ms (loading), ms (lost));
      add_evidence (f, "loading_ns", loading);
      add_evidence (f, "step_ns", step);
      add_evidence (f, "device_wait_ns", lost);
      add_track (f, data->trace_index, s->track);
      set_node (f, data->trace_index, s->track, s->index);
    }
}

/* Synchronising calls whose name contains WHAT that waited for work (in a
 * step, when there are steps): the device idle time after each drained
 * the queue. */
static void
rule_syncs_of (Ctx            *c,
               ChronoRankData *data,
               const char     *what,
               ChronoClaim    *claim,
               guint          *n,
               gint64         *blocked,
               gint64         *first,
               gint64         *last,
               const ChronoSyncWait **worst)
{
  ChronoTrace *trace = data->trace;
  gint64 longest = 0;

  for (guint i = 0; i < data->syncs->len; i++)
    {
      const ChronoSyncWait *s = &g_array_index (data->syncs, ChronoSyncWait, i);
      const ChronoTrack *t = chrono_trace_get_track (trace, s->track);
      gboolean in_step = data->steps->len == 0;

      if (s->device < 0 || strstr (chrono_trace_get_string (trace, chrono_track_get_name (t, s->index)), what) == NULL)
        continue;
      for (guint k = 0; k < data->steps->len && !in_step; k++)
        {
          const ChronoStep *step = &g_array_index (data->steps, ChronoStep, k);
          in_step = s->start >= step->start && s->start < step->end;
        }
      if (!in_step)
        continue;
      (*n)++;
      *blocked += s->end - s->start;
      *first = MIN (*first, s->start);
      *last = MAX (*last, s->end);
      if (s->end - s->start > longest)
        {
          longest = s->end - s->start;
          *worst = s;
        }
      /* Its idle time lies in the gap it ended in, up to the next work. */
      for (guint di = 0; di < data->devices->len; di++)
        {
          GArray *busy = g_array_index (data->devices, ChronoDeviceWork, di).busy;
          const ChronoInterval *v = (const ChronoInterval *) busy->data;
          guint next = chrono_lower_bound (v, busy->len, sizeof *v, G_STRUCT_OFFSET (ChronoInterval, start), s->end);

          if (next < busy->len)
            chrono_claim_add (claim, data, di, s->start, v[next].start,
                              CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_SYNC), i, G_MAXINT64);
        }
    }
}

static void
rule_device_syncs (Ctx            *c,
                   ChronoRankData *data)
{
  gint64 blocked = 0, first = G_MAXINT64, last = G_MININT64, lost;
  guint n = 0;
  const ChronoSyncWait *worst = NULL;
  g_auto(ChronoClaim) claim = { NULL };
  ChronoFinding *f;

  chrono_claim_init (&claim);
  rule_syncs_of (c, data, "Synchronize", &claim, &n, &blocked, &first, &last, &worst);
  if (n == 0 || (lost = measure (c, &claim, G_MAXINT64)) == 0)
    return;
  f = add_finding (c, "device-sync", data, first, last, &claim, lost,
                   _("Avoid host–device synchronisation inside the step: keep values on the device instead of "
                   ".item() / .cpu() / print, and replace cudaDeviceSynchronize with events where ordering is needed."),
                   g_dngettext (GETTEXT_PACKAGE, "%u synchronising call drains the device's queue: it then idles %.3f ms until the "
                             "host launches again (the host sat blocked %.3f ms)",
                             "%u synchronising calls drain the device's queue: it then idles %.3f ms until the "
                             "host launches again (the host sat blocked %.3f ms)", n),
                   n, ms (lost), ms (blocked));
  add_evidence (f, "calls", n);
  add_evidence (f, "blocked_ns", blocked);
  add_evidence (f, "device_idle_ns", lost);
  add_track (f, data->trace_index, worst->track);
  set_node (f, data->trace_index, worst->track, worst->index);
}

static void
rule_copies (Ctx            *c,
             ChronoRankData *data)
{
  ChronoTrace *trace = data->trace;
  gint64 sync_time = 0, pageable_time = 0, first = G_MAXINT64, last = G_MININT64, lost;
  guint n_sync = 0, n_pageable = 0;
  const ChronoSyncWait *worst = NULL;
  g_autofree char *what = NULL;
  g_auto(ChronoClaim) claim = { NULL };
  ChronoFinding *f;
  g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (guint32));

  chrono_claim_init (&claim);
  rule_syncs_of (c, data, "Memcpy", &claim, &n_sync, &sync_time, &first, &last, &worst);
  if (worst)
    g_array_append_val (tracks, worst->track);
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      for (guint k = 0; k < d->items->len; k++)
        {
          const ChronoWorkItem *it = &g_array_index (d->items, ChronoWorkItem, k);
          const ChronoTrack *t;

          if (it->cls != CHRONO_WORK_MEMCPY)
            continue;
          t = chrono_trace_get_track (trace, it->track);
          if (strstr (chrono_trace_get_string (trace, chrono_track_get_name (t, it->index)), "Pageable") == NULL)
            continue;
          n_pageable++;
          pageable_time += it->end - it->start;
          first = MIN (first, it->start);
          last = MAX (last, it->end);
          g_array_append_val (tracks, it->track);
          /* The call staging a pageable copy holds the host until the copy
           * is done, so nothing was queued behind it: the device idles
           * from the copy's end until the host launches again. */
          {
            const ChronoInterval *busy = (const ChronoInterval *) d->busy->data;
            guint next = chrono_lower_bound (busy, d->busy->len, sizeof *busy,
                                             G_STRUCT_OFFSET (ChronoInterval, start), it->end);
            if (next < d->busy->len)
              chrono_claim_add (&claim, data, di, it->end, busy[next].start,
                                CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_HOST) |
                                CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_LAUNCH), G_MAXUINT32, G_MAXINT64);
          }
        }
    }
  if (n_sync + n_pageable == 0 || (lost = measure (c, &claim, G_MAXINT64)) == 0)
    return;
  if (n_sync == 0)
    what = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u pageable copy", "%u pageable copies", n_pageable), n_pageable);
  else if (n_pageable == 0)
    what = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u synchronous copy", "%u synchronous copies", n_sync), n_sync);
  else
    what = g_strdup_printf (_("%u synchronous and %u pageable copies"), n_sync, n_pageable);
  f = add_finding (c, "sync-memcpy", data, first, last, &claim, lost,
                   _("Allocate host buffers pinned (pin_memory=True, tensor.pin_memory()) and copy with "
                   "non_blocking=True so copies run asynchronously and overlap computation."),
                   _("%s cost the device %.3f ms"), what, ms (lost));
  add_evidence (f, "synchronous_copies", n_sync);
  add_evidence (f, "synchronous_copy_ns", sync_time);
  add_evidence (f, "pageable_copies", n_pageable);
  add_evidence (f, "pageable_copy_ns", pageable_time);
  for (guint i = 0; i < tracks->len; i++)
    add_track (f, data->trace_index, g_array_index (tracks, guint32, i));
}

static void
rule_launch_bound (Ctx            *c,
                   ChronoRankData *data)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);

      for (guint s = 0; s < d->streams->len; s++)
        {
          const ChronoStreamWork *sw = &g_array_index (d->streams, ChronoStreamWork, s);
          const ChronoWorkItem *items = (const ChronoWorkItem *) sw->items->data;
          guint run_start = 0, run_len = 0;
          gint64 run_gaps = 0, run_busy = 0;

          for (guint i = 1; i <= sw->items->len; i++)
            {
              if (i < sw->items->len)
                {
                  gint64 dur = items[i].end - items[i].start;
                  gint64 gap = items[i].start - items[i - 1].end;
                  if (items[i].cls == CHRONO_WORK_COMPUTE && dur <= c->th->launch_bound_kernel_max_ns &&
                      gap > dur && items[i].launch_start != G_MININT64)
                    {
                      if (run_len == 0)
                        {
                          run_start = i;
                          run_gaps = run_busy = 0;
                        }
                      run_len++;
                      run_gaps += gap;
                      run_busy += dur;
                      continue;
                    }
                }
              if (run_len >= c->th->launch_bound_min_kernels)
                {
                  const ChronoWorkItem *first = &items[run_start];
                  const ChronoWorkItem *last = &items[run_start + run_len - 1];
                  const ChronoTrack *t = chrono_trace_get_track (data->trace, sw->track);
                  g_auto(ChronoClaim) claim = { NULL };
                  ChronoFinding *f;
                  gint64 lost;

                  chrono_claim_init (&claim);
                  chrono_claim_add (&claim, data, di, items[run_start - 1].end, last->end,
                                    CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_HOST) |
                                    CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_LAUNCH), G_MAXUINT32, G_MAXINT64);
                  if ((lost = measure (c, &claim, G_MAXINT64)) > 0)
                    {
                      f = add_finding (c, "launch-bound", data, items[run_start - 1].end, last->end, &claim, lost,
                                       _("Launch fewer, larger kernels: fuse elementwise operations (torch.compile), "
                                       "capture the sequence in a CUDA graph, or move host work off the launching thread."),
                                       _("%u short kernels on %s wait for their launches: the device idles %.3f ms"),
                                       run_len, chrono_trace_get_string (data->trace, t->display_name), ms (lost));
                      add_evidence (f, "kernels", run_len);
                      add_evidence (f, "kernel_time_ns", run_busy);
                      add_evidence (f, "gap_time_ns", run_gaps);
                      add_track (f, data->trace_index, sw->track);
                      add_track (f, data->trace_index, first->launch_track);
                      set_node (f, data->trace_index, first->track, first->index);
                    }
                }
              run_len = 0;
            }
        }
    }
}

/* The critical path of STEP of DATA, if one was found. */
static const ChronoCriticalPath *
path_of (GArray         *paths,
         ChronoRankData *data,
         gint64          start)
{
  for (guint i = 0; i < paths->len; i++)
    {
      const ChronoCriticalPath *p = &g_array_index (paths, ChronoCriticalPath, i);
      if (p->rank == data->rank_index && p->start_ns == start)
        return p;
    }
  return NULL;
}

/* Without steps, the whole of a device's window is one step. */
static void
rule_host_bound_trace (Ctx            *c,
                       ChronoRankData *data,
                       guint           states)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      gint64 start = g_array_index (d->busy, ChronoInterval, 0).start;
      gint64 end = g_array_index (d->busy, ChronoInterval, d->busy->len - 1).end;
      gint64 wait = chrono_ledger_time_in (d->ledger, start, end, states), lost;
      g_autofree char *label = NULL;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;

      if (end <= start || wait * 100 <= (end - start) * (gint64) c->th->host_bound_percent)
        continue;
      chrono_claim_init (&claim);
      chrono_claim_add (&claim, data, di, start, end, states, G_MAXUINT32, G_MAXINT64);
      if ((lost = measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      label = device_label (data, d);
      f = add_finding (c, "host-bound", data, start, end, &claim, lost,
                       chrono_advice_for_state (chrono_ledger_main_state (claim.state_ns, states, CHRONO_LEDGER_IDLE_HOST)),
                       _("%s is host-bound: it waits for the host %.0f%% of the trace (%.3f ms)"),
                       label, 100.0 * wait / (end - start), ms (lost));
      add_claimed_states (f, &claim);
      add_evidence (f, "device_host_wait_ns", wait);
      add_evidence (f, "window_ns", end - start);
      for (guint k = 0; k < d->streams->len; k++)
        add_track (f, data->trace_index, g_array_index (d->streams, ChronoStreamWork, k).track);
    }
}

static void
rule_host_bound (Ctx            *c,
                 ChronoRankData *data,
                 GArray         *paths)
{
  const guint host = CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_HOST) | CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_LAUNCH);

  if (data->steps->len == 0)
    rule_host_bound_trace (c, data, host);
  for (guint i = 0; i < data->steps->len; i++)
    {
      const ChronoStep *s = &g_array_index (data->steps, ChronoStep, i);
      gint64 step = s->work_end - s->start, worst = 0, lost;
      const ChronoCriticalPath *p;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;

      /* Only where a device waits for the host. */
      for (guint di = 0; di < data->devices->len; di++)
        worst = MAX (worst, chrono_ledger_time_in (g_array_index (data->devices, ChronoDeviceWork, di).ledger,
                                                   s->start, s->work_end, host));
      if (step <= 0 || worst * 100 <= step * (gint64) c->th->host_bound_percent)
        continue;
      chrono_claim_init (&claim);
      chrono_claim_add_rank (&claim, data, s->start, s->work_end, host);
      if ((lost = measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      f = add_finding (c, "host-bound", data, s->start, s->work_end, &claim, lost,
                       chrono_advice_for_state (chrono_ledger_main_state (claim.state_ns, host, CHRONO_LEDGER_IDLE_HOST)),
                       _("%s is host-bound: the device waits for the host %.0f%% of the step (%.3f ms)"),
                       step_name (data, s), 100.0 * worst / step, ms (lost));
      add_claimed_states (f, &claim);
      add_evidence (f, "device_host_wait_ns", worst);
      add_evidence (f, "step_ns", step);
      if ((p = path_of (paths, data, MAX (s->start, data->range_start))) != NULL)
        {
          add_evidence (f, "path_host_compute_ns", p->by_category[CHRONO_PATH_HOST_COMPUTE]);
          add_evidence (f, "path_launch_overhead_ns", p->by_category[CHRONO_PATH_LAUNCH_OVERHEAD]);
          for (guint k = 0; k < p->n_segments && f; k++)
            if (p->segments[k].has_node && p->segments[k].category == CHRONO_PATH_LAUNCH_OVERHEAD)
              add_track (f, p->trace, p->segments[k].node.span.track);
        }
      add_track (f, data->trace_index, s->track);
      set_node (f, data->trace_index, s->track, s->index);
    }
}

static const ChronoWorkItem *
item_at (ChronoRankData *data,
         guint           device,
         guint           item)
{
  return &g_array_index (g_array_index (data->devices, ChronoDeviceWork, device).items, ChronoWorkItem, item);
}

static guint
span_ref_hash (gconstpointer key)
{
  const ChronoSpanRef *ref = key;

  return g_int64_hash (&(gint64) { (gint64) chrono_span_key (ref->track, ref->index) });
}

static gboolean
span_ref_equal (gconstpointer a,
                gconstpointer b)
{
  const ChronoSpanRef *x = a, *y = b;

  return x->track == y->track && x->index == y->index;
}

/* The spans of DATA's critical paths that wait on a dependency. */
static GHashTable *
waits_on_path (ChronoRankData *data,
               GArray         *paths)
{
  GHashTable *spans = g_hash_table_new (span_ref_hash, span_ref_equal);
  const ChronoDepTo *deps_to = (const ChronoDepTo *) data->deps_to->data;

  /* The dependencies are sorted by the span that waits: a path's span
   * waits when it is found among them. */
  for (guint i = 0; i < paths->len && data->deps->len > 0; i++)
    {
      const ChronoCriticalPath *p = &g_array_index (paths, ChronoCriticalPath, i);

      if (p->rank != data->rank_index)
        continue;
      for (guint k = 0; k < p->n_segments; k++)
        {
          const ChronoSpanRef *span = &p->segments[k].node.span;
          gint64 key;
          guint at;

          if (!p->segments[k].has_node)
            continue;
          key = chrono_span_key (span->track, span->index);
          at = chrono_lower_bound (deps_to, data->deps_to->len, sizeof *deps_to, G_STRUCT_OFFSET (ChronoDepTo, key), key);
          if (at < data->deps_to->len && deps_to[at].key == key)
            g_hash_table_add (spans, (gpointer) span);
        }
    }
  return spans;
}

static void
rule_dependency_waits (Ctx            *c,
                       ChronoRankData *data,
                       GArray         *paths)
{
  g_autoptr(GHashTable) on_path = waits_on_path (data, paths);
  const guint not_compute = CHRONO_LEDGER_ALL_MASK & ~CHRONO_LEDGER_MASK (CHRONO_LEDGER_COMPUTE);

  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      g_autofree char *label = NULL;
      gint64 total = 0, worst = 0, first = G_MAXINT64, last = G_MININT64, lost;
      guint n = 0;
      const ChronoWorkItem *worst_item = NULL;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;
      g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (guint32));

      chrono_claim_init (&claim);
      for (guint i = 0; i < data->deps->len; i++)
        {
          const ChronoWorkDep *dep = &g_array_index (data->deps, ChronoWorkDep, i);
          const ChronoWorkItem *to, *from, *prev;
          gint64 free_at, wait;

          if (dep->to_device != di)
            continue;
          to = item_at (data, dep->to_device, dep->to_item);
          /* Off the critical path a wait delays nothing. */
          if (!g_hash_table_contains (on_path, &(ChronoSpanRef) { to->track, to->index }))
            continue;
          from = item_at (data, dep->from_device, dep->from_item);
          prev = to->stream_prev != G_MAXUINT32 ? item_at (data, di, to->stream_prev) : NULL;
          free_at = MAX (prev ? prev->end : to->start, to->launch_start != G_MININT64 ? to->launch_start : G_MININT64);
          wait = MIN (to->start, from->end) - free_at;
          if (wait <= 0)
            continue;
          n++;
          total += wait;
          chrono_claim_add (&claim, data, di, free_at, free_at + wait, not_compute, G_MAXUINT32, G_MAXINT64);
          first = MIN (first, free_at);
          last = MAX (last, to->start);
          g_array_append_val (tracks, to->track);
          g_array_append_val (tracks, from->track);
          if (wait > worst)
            {
              worst = wait;
              worst_item = to;
            }
        }
      if (n == 0 || (lost = measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      label = device_label (data, d);
      f = add_finding (c, "dependency-wait", data, first, last, &claim, lost,
                       _("Work waits for other streams or engines: start the work it depends on earlier (prefetch "
                       "inputs, issue copies and collectives ahead), split it so the waiting work can start on a "
                       "part, or reorder independent work in between."),
                       _("Work on the critical path of %s waits %.3f ms for other streams or engines with no "
                       "computation running (%u waits)"),
                       label, ms (lost), n);
      add_evidence (f, "waits", n);
      add_evidence (f, "wait_ns", total);
      add_evidence (f, "longest_wait_ns", worst);
      for (guint i = 0; i < tracks->len; i++)
        add_track (f, data->trace_index, g_array_index (tracks, guint32, i));
      set_node (f, data->trace_index, worst_item->track, worst_item->index);
    }
}

static gint
compare_by_name_then_dur (gconstpointer a,
                          gconstpointer b,
                          gpointer      user_data)
{
  ChronoTrace *trace = user_data;
  const ChronoWorkItem *x = a, *y = b;
  guint32 nx = chrono_track_get_name (chrono_trace_get_track (trace, x->track), x->index);
  guint32 ny = chrono_track_get_name (chrono_trace_get_track (trace, y->track), y->index);
  gint64 dx = x->end - x->start, dy = y->end - y->start;

  if (nx != ny)
    return nx < ny ? -1 : 1;
  return dx < dy ? -1 : dx > dy;
}

static void
rule_collective_outliers (Ctx            *c,
                          ChronoRankData *data)
{
  ChronoTrace *trace = data->trace;
  g_autoptr(GArray) list = g_array_copy (data->collectives);
  guint start = 0;

  g_array_sort_with_data (list, compare_by_name_then_dur, trace);
  while (start < list->len)
    {
      const ChronoWorkItem *items = (const ChronoWorkItem *) list->data;
      guint32 name = chrono_track_get_name (chrono_trace_get_track (trace, items[start].track), items[start].index);
      guint end = start, n, outliers = 0;
      gint64 median, first = G_MAXINT64, last = G_MININT64, lost;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;

      chrono_claim_init (&claim);
      while (end < list->len && chrono_track_get_name (chrono_trace_get_track (trace, items[end].track), items[end].index) == name)
        end++;
      n = end - start;
      median = items[start + n / 2].end - items[start + n / 2].start;
      for (guint k = start; k < end && n >= 5; k++)
        {
          gint64 dur = items[k].end - items[k].start;
          gint di;

          if (dur <= 2 * median || (di = chrono_rank_data_device_of_track (data, items[k].track)) < 0)
            continue;
          outliers++;
          first = MIN (first, items[k].start);
          last = MAX (last, items[k].end);
          chrono_claim_add (&claim, data, di, items[k].start, items[k].end,
                            CHRONO_LEDGER_MASK (CHRONO_LEDGER_COMMUNICATION), G_MAXUINT32, dur - median);
        }
      if (outliers > 0 && (lost = measure (c, &claim, G_MAXINT64)) > 0)
        {
          const ChronoWorkItem *worst = &items[end - 1];
          g_autofree char *kernel = chrono_format_short_name (chrono_trace_get_string (trace, name),
                                                              CHRONO_SHORT_NAME_WIDTH);

          f = add_finding (c, "collective-outlier", data, first, last, &claim, lost,
                           _("Some collectives take much longer than usual: they wait for a late peer (see the "
                           "straggler findings with all ranks loaded), compete with copies or other collectives for "
                           "the links, or move more data than usual."),
                           _("%u of %u %s take over twice the median %.3f ms (%.3f ms exposed over it)"), outliers, n,
                           kernel, ms (median), ms (lost));
          add_evidence (f, "collectives", n);
          add_evidence (f, "outliers", outliers);
          add_evidence (f, "median_ns", median);
          add_evidence (f, "longest_ns", worst->end - worst->start);
          add_track (f, data->trace_index, worst->track);
          set_node (f, data->trace_index, worst->track, worst->index);
        }
      start = end;
    }
}

static void
rule_exposed_comm (Ctx            *c,
                   ChronoRankData *data,
                   GArray         *breakdowns)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      const ChronoBreakdown *b = &g_array_index (breakdowns, ChronoBreakdown, d->breakdown);
      gint64 exposed = b->communication_ns - b->overlap_ns, lost;
      g_autofree char *label = NULL;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;

      if (b->communication_ns == 0 ||
          exposed * 100 <= b->communication_ns * (gint64) c->th->exposed_comm_percent)
        continue;
      chrono_claim_init (&claim);
      chrono_claim_add (&claim, data, di, b->start_ns, b->end_ns, CHRONO_LEDGER_MASK (CHRONO_LEDGER_COMMUNICATION),
                        G_MAXUINT32, G_MAXINT64);
      if ((lost = measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      label = device_label (data, d);
      f = add_finding (c, "exposed-communication", data, b->start_ns, b->end_ns, &claim, lost,
                       _("Overlap communication with computation: bucket gradients so all-reduces start during the "
                       "backward pass (DDP bucket_cap_mb), prefetch parameters (FSDP), or use a separate stream."),
                       _("%.0f%% of communication on %s is not overlapped (%.3f ms)"),
                       100.0 * exposed / b->communication_ns, label, ms (lost));
      add_evidence (f, "communication_ns", b->communication_ns);
      add_evidence (f, "overlap_ns", b->overlap_ns);
      add_evidence (f, "exposed_ns", exposed);
      for (guint k = 0; k < d->streams->len; k++)
        {
          const ChronoStreamWork *sw = &g_array_index (d->streams, ChronoStreamWork, k);
          for (guint j = 0; j < sw->items->len; j++)
            if (g_array_index (sw->items, ChronoWorkItem, j).cls == CHRONO_WORK_COMMUNICATION)
              {
                add_track (f, data->trace_index, sw->track);
                break;
              }
        }
    }
}

static void
rule_small_copies (Ctx            *c,
                   ChronoRankData *data)
{
  ChronoTrace *trace = data->trace;

  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;
      gint64 time = 0, first = G_MAXINT64, last = G_MININT64, lost;
      gdouble bytes = 0;
      guint n = 0;
      g_autofree char *label = NULL;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;

      chrono_claim_init (&claim);
      for (guint k = 0; k < d->items->len; k++)
        {
          const ChronoTrack *t;
          gdouble size;

          if (items[k].cls != CHRONO_WORK_MEMCPY)
            continue;
          t = chrono_trace_get_track (trace, items[k].track);
          if (!chrono_analysis_arg_number (trace, chrono_track_get_args (t, items[k].index), "\"bytes\"", &size) &&
              !chrono_analysis_arg_number (trace, chrono_track_get_args (t, items[k].index), "\"transfer_size\"", &size))
            continue;
          if (size > c->th->small_dma_max_bytes)
            continue;
          n++;
          bytes += size;
          time += items[k].end - items[k].start;
          first = MIN (first, items[k].start);
          last = MAX (last, items[k].end);
          chrono_claim_add (&claim, data, di, items[k].start, items[k].end, CHRONO_LEDGER_MASK (CHRONO_LEDGER_COPY),
                            G_MAXUINT32, G_MAXINT64);
        }
      if (n < MAX (c->th->launch_bound_min_kernels, 2) || (lost = measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      label = device_label (data, d);
      f = add_finding (c, "small-copies", data, first, last, &claim, lost,
                       _("Batch small transfers into larger ones: gather scalars and small tensors into one buffer "
                       "before copying, keep them on the device, or on Neuron coalesce DMA descriptors."),
                       _("%u copies of at most %.0f bytes on %s take %.3f ms, %.3f ms of it with nothing else running"),
                       n, (gdouble) c->th->small_dma_max_bytes, label, ms (time), ms (lost));
      add_evidence (f, "copies", n);
      add_evidence (f, "bytes", bytes);
      add_evidence (f, "copy_ns", time);
      add_copy_tracks (f, data, d);
    }
}

static void
rule_copies_exposed (Ctx            *c,
                     ChronoRankData *data)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      /* Sets too: the ledger's copy state holds both. */
      GArray *copies = d->copies, *compute = d->compute;
      gint64 copy_time = chrono_intervals_length (copies);
      gint64 exposed = copy_time - chrono_intervals_overlap (copies, compute), lost, start, end;
      g_autofree char *label = NULL;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;

      if (copy_time == 0 || exposed * 100 <= copy_time * (gint64) c->th->exposed_comm_percent)
        continue;
      start = g_array_index (copies, ChronoInterval, 0).start;
      end = g_array_index (copies, ChronoInterval, copies->len - 1).end;
      chrono_claim_init (&claim);
      chrono_claim_add (&claim, data, di, start, end, CHRONO_LEDGER_MASK (CHRONO_LEDGER_COPY), G_MAXUINT32, G_MAXINT64);
      if ((lost = measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      label = device_label (data, d);
      f = add_finding (c, "exposed-copies", data, start, end, &claim, lost,
                       _("Overlap copies with computation: prefetch the next batch on a separate stream "
                       "(non_blocking copies from pinned memory), keep data resident on the device, or on "
                       "Neuron double-buffer DMA so engines do not wait for it."),
                       _("%.0f%% of copy and set time on %s runs with no computation (%.3f ms)"),
                       100.0 * exposed / copy_time, label, ms (lost));
      add_evidence (f, "copy_ns", copy_time);
      add_evidence (f, "exposed_ns", exposed);
      add_copy_tracks (f, data, d);
    }
}

/* The least time an operator's calls can take: its roofline, and never
 * less than the least a kernel takes. */
static gint64
least_ns (const ChronoEfficiencyRow *r)
{
  return MAX (r->roofline_ns, (gint64) r->count * KERNEL_FLOOR_NS);
}

static gint
compare_excess (gconstpointer a,
                gconstpointer b)
{
  const ChronoEfficiencyRow *x = *(const ChronoEfficiencyRow * const *) a;
  const ChronoEfficiencyRow *y = *(const ChronoEfficiencyRow * const *) b;
  gint64 ex = x->gpu_time_ns - least_ns (x), ey = y->gpu_time_ns - least_ns (y);
  gint c;

  if (ex != ey)
    return ex > ey ? -1 : 1;
  if ((c = g_strcmp0 (x->op, y->op)) != 0 || (c = g_strcmp0 (x->input_dims, y->input_dims)) != 0)
    return c;
  if (x->device != y->device)
    return x->device < y->device ? -1 : 1;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return (x->device_position > y->device_position) - (x->device_position < y->device_position);
}

/* Shapes as the trace wrote them may spread over lines: on one. */
static char *
compact_dims (const char *dims)
{
  GString *out = g_string_new (NULL);

  for (const char *p = dims; *p; p++)
    if (!g_ascii_isspace (*p))
      g_string_append_c (out, *p);
  return g_string_free (out, FALSE);
}

static void
rule_low_efficiency (Ctx            *c,
                     ChronoAnalysis *analysis)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  for (guint i = 0; i < chrono_analysis_get_n_efficiency (analysis); i++)
    {
      const ChronoEfficiencyRow *r = chrono_analysis_get_efficiency (analysis, i);
      if (r->has_roofline && r->rank < c->n_ranks && r->gpu_time_ns > 0 &&
          least_ns (r) * 100 < r->gpu_time_ns * (gint64) c->th->low_efficiency_percent)
        g_ptr_array_add (rows, (gpointer) r);
    }
  g_ptr_array_sort (rows, compare_excess);
  for (guint i = 0, reported = 0; i < rows->len && reported < MAX_EFFICIENCY_FINDINGS; i++)
    {
      const ChronoEfficiencyRow *r = rows->pdata[i];
      ChronoRankData *data = c->ranks[r->rank];
      const ChronoDeviceWork *d;
      g_autofree char *label = NULL;
      g_autofree char *op = NULL;
      g_autofree char *dims = NULL;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;
      gint64 lost;

      if (r->device_position >= data->devices->len || r->n_intervals == 0)
        continue;
      d = &g_array_index (data->devices, ChronoDeviceWork, r->device_position);
      chrono_claim_init (&claim);
      for (guint k = 0; k < r->n_intervals; k++)
        chrono_claim_add (&claim, data, r->device_position, r->intervals[k].start_ns, r->intervals[k].end_ns,
                          CHRONO_LEDGER_MASK (CHRONO_LEDGER_COMPUTE), G_MAXUINT32, G_MAXINT64);
      if ((lost = measure (c, &claim, r->gpu_time_ns - least_ns (r))) == 0)
        continue;
      reported++;
      label = device_label (data, d);
      op = chrono_format_short_name (r->op, CHRONO_SHORT_NAME_WIDTH);
      dims = compact_dims (r->input_dims);
      f = add_finding (c, "low-efficiency", data, r->intervals[0].start_ns, r->intervals[r->n_intervals - 1].end_ns,
                       &claim, lost,
                       r->bound == CHRONO_BOUND_COMPUTE
                       ? _("A compute-bound operator far from the device's peak: check that it runs on the matrix "
                         "units in a fast type (bf16, fp8, TF32 allowed), that its shapes are multiples of the "
                         "tile sizes (pad to 64 or 128), that shapes too small to fill the device are batched, and "
                         "whether larger fused kernels (FlashAttention 3, torch.compile, a tuned GEMM) exist for it.")
                       : _("A memory-bound operator far from the device's bandwidth: fuse it with its neighbours "
                         "(torch.compile), avoid strided or non-contiguous inputs, and use wider types for "
                         "loads (vectorised kernels)."),
                       _("%s %s on %s reaches %.0f%% of its roofline: %" G_GUINT64_FORMAT " calls take %.3f ms "
                         "against %.3f ms at the device's peaks (%s-bound)"),
                       op, dims, label, 100.0 * r->roofline_share, r->count, ms (r->gpu_time_ns),
                       ms (r->roofline_ns), chrono_bound_to_string (r->bound));
      add_evidence (f, "calls", r->count);
      add_evidence (f, "gpu_time_ns", r->gpu_time_ns);
      add_evidence (f, "roofline_ns", r->roofline_ns);
      add_evidence (f, "roofline_percent", 100.0 * r->roofline_share);
      add_evidence (f, "achieved_tflops", r->achieved_tflops);
      add_evidence (f, "achieved_tbps", r->achieved_tbps);
      for (guint k = 0; k < d->streams->len; k++)
        add_track (f, data->trace_index, g_array_index (d->streams, ChronoStreamWork, k).track);
      if (r->n_calls > 0)
        {
          add_track (f, data->trace_index, r->calls[0].track);
          set_node (f, data->trace_index, r->calls[0].track, r->calls[0].index);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Symptoms: what is left after the causes                           */

static void
rule_slow_steps (Ctx            *c,
                 ChronoRankData *data)
{
  guint n = data->steps->len;
  g_autofree gint64 *durs = NULL;
  gint64 median;

  if (n < 3)
    return;
  durs = g_new (gint64, n);
  for (guint i = 0; i < n; i++)
    {
      const ChronoStep *s = &g_array_index (data->steps, ChronoStep, i);
      durs[i] = s->work_end - s->start;
    }
  g_qsort_with_data (durs, n, sizeof (gint64), chrono_compare_int64_at, GSIZE_TO_POINTER (0));
  median = durs[n / 2];
  for (guint i = 0; i < n; i++)
    {
      const ChronoStep *s = &g_array_index (data->steps, ChronoStep, i);
      gint64 dur = s->work_end - s->start, explained = 0, lost;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;

      if (dur * 100 <= median * (100 + (gint64) c->th->slow_step_percent))
        continue;
      /* What other findings claimed in the step explains as much of it. */
      for (guint di = 0; di < data->devices->len; di++)
        explained = MAX (explained, chrono_ledger_claimed_in (g_array_index (data->devices, ChronoDeviceWork, di).ledger,
                                                              s->start, s->work_end));
      chrono_claim_init (&claim);
      chrono_claim_add_rank (&claim, data, s->start, s->work_end, CHRONO_LEDGER_ALL_MASK);
      if (dur - median - explained <= 0 || (lost = measure (c, &claim, dur - median - explained)) == 0)
        continue;
      f = add_finding (c, "slow-step", data, s->start, s->work_end, &claim, lost,
                       chrono_advice_for_state (chrono_ledger_main_state (claim.state_ns, CHRONO_LEDGER_ALL_MASK,
                                                                          CHRONO_LEDGER_IDLE_OTHER)),
                       _("%s takes %.3f ms, %.0f%% over the median step; other findings explain %.3f ms of it"),
                       step_name (data, s), ms (dur), 100.0 * (dur - median) / MAX (median, 1), ms (explained));
      add_evidence (f, "step_ns", dur);
      add_evidence (f, "median_step_ns", median);
      add_evidence (f, "explained_ns", explained);
      add_claimed_states (f, &claim);
      add_track (f, data->trace_index, s->track);
      set_node (f, data->trace_index, s->track, s->index);
    }
}

typedef struct {
  gint64 start;
  gint64 end;
  guint  next;
} Gap;

static gint
compare_gaps (gconstpointer a,
              gconstpointer b)
{
  const Gap *x = a;
  const Gap *y = b;
  gint64 lx = x->end - x->start, ly = y->end - y->start;

  return lx != ly ? (lx > ly ? -1 : 1) : (x->start < y->start ? -1 : x->start > y->start);
}

static void
rule_idle_gaps (Ctx            *c,
                ChronoRankData *data)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;
      GArray *all = d->busy;
      g_autoptr(GArray) gaps = g_array_new (FALSE, FALSE, sizeof (Gap));
      g_autofree char *label = device_label (data, d);
      gint64 total = 0;
      guint reported = 0;

      for (guint i = 1; i < all->len; i++)
        {
          const ChronoInterval *prev = &g_array_index (all, ChronoInterval, i - 1);
          const ChronoInterval *next = &g_array_index (all, ChronoInterval, i);
          Gap g = { prev->end, next->start, next->first };

          if (g.end - g.start >= c->th->idle_gap_min_ns)
            {
              g_array_append_val (gaps, g);
              total += g.end - g.start;
            }
        }
      g_array_sort (gaps, compare_gaps);
      for (guint i = 0; i < gaps->len && reported < MAX_GAPS_PER_DEVICE; i++)
        {
          const Gap *g = &g_array_index (gaps, Gap, i);
          const ChronoWorkItem *next = &items[g->next];
          g_auto(ChronoClaim) claim = { NULL };
          ChronoLedgerState cause;
          ChronoFinding *f;
          gint64 lost;

          chrono_claim_init (&claim);
          chrono_claim_add (&claim, data, di, g->start, g->end, CHRONO_LEDGER_IDLE_MASK, G_MAXUINT32, G_MAXINT64);
          /* What is left must still be a gap worth reporting. */
          if ((lost = measure (c, &claim, G_MAXINT64)) < c->th->idle_gap_min_ns)
            continue;
          reported++;
          /* The cause and its advice: the state of the time claimed, not
           * of the whole gap, part of which other findings explain. */
          cause = main_idle_state (&claim);
          f = add_finding (c, "gpu-idle-gap", data, g->start, g->end, &claim, lost, chrono_advice_for_state (cause),
                           _("%s idle for %.3f ms (cause: %s), %.3f ms of it explained by no other finding"),
                           label, ms (g->end - g->start), chrono_advice_cause (cause), ms (lost));
          add_claimed_states (f, &claim);
          add_evidence (f, "gap_ns", g->end - g->start);
          add_evidence (f, "gaps_over_threshold", gaps->len);
          add_evidence (f, "all_gaps_ns", total);
          if (next->launch_start != G_MININT64)
            add_evidence (f, "launch_delay_ns", next->launch_start - g->start);
          add_track (f, data->trace_index, next->track);
          if (next->launch_start != G_MININT64)
            add_track (f, data->trace_index, next->launch_track);
          set_node (f, data->trace_index, next->track, next->index);
        }
    }
}

static void
rule_low_utilization (Ctx            *c,
                      ChronoRankData *data)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      g_autofree char *label = device_label (data, d);
      guint n = MAX (data->steps->len, 1);

      for (guint s = 0; s < n; s++)
        {
          const ChronoStep *step = data->steps->len ? &g_array_index (data->steps, ChronoStep, s) : NULL;
          const ChronoInterval *first = &g_array_index (d->busy, ChronoInterval, 0);
          const ChronoInterval *last = &g_array_index (d->busy, ChronoInterval, d->busy->len - 1);
          gint64 start = MAX (step ? step->start : first->start, first->start);
          gint64 end = MIN (step ? step->work_end : last->end, last->end);
          gint64 busy, lost;
          g_auto(ChronoClaim) claim = { NULL };
          ChronoLedgerState cause;
          ChronoFinding *f;

          if (end <= start)
            continue;
          busy = chrono_intervals_length_in (d->busy, start, end);
          if (busy * 100 >= (end - start) * (gint64) c->th->low_utilization_percent)
            continue;
          chrono_claim_init (&claim);
          chrono_claim_add (&claim, data, di, start, end, CHRONO_LEDGER_IDLE_MASK, G_MAXUINT32, G_MAXINT64);
          if ((lost = measure (c, &claim, G_MAXINT64)) == 0)
            continue;
          cause = main_idle_state (&claim);
          f = add_finding (c, "low-utilization", data, start, end, &claim, lost, chrono_advice_for_state (cause),
                           _("%s busy %.0f%% of %s; %.3f ms of its idle time is explained by no other finding "
                             "(cause: %s)"),
                           label, 100.0 * busy / (end - start), step ? step_name (data, step) : _("the trace"),
                           ms (lost), chrono_advice_cause (cause));
          add_claimed_states (f, &claim);
          add_evidence (f, "busy_ns", busy);
          add_evidence (f, "window_ns", end - start);
          add_evidence (f, "utilization_percent", 100.0 * busy / (end - start));
          for (guint k = 0; k < d->streams->len; k++)
            add_track (f, data->trace_index, g_array_index (d->streams, ChronoStreamWork, k).track);
        }
    }
}

void
chrono_analysis_run_rules (ChronoAnalysis                 *analysis,
                           ChronoRankData                **ranks,
                           guint                           n_ranks,
                           GArray                         *breakdowns,
                           GArray                         *paths,
                           const ChronoAnalysisThresholds *thresholds,
                           GArray                         *out)
{
  Ctx c = { ranks, n_ranks, thresholds, out };

  /* Causes first, most specific first; then the symptoms, which keep
   * what no cause explains. */
  rule_stragglers (&c);
  for (guint r = 0; r < n_ranks; r++)
    {
      chrono_neuron_run_rules (&c, ranks[r]);
      rule_data_loading (&c, ranks[r]);
      rule_device_syncs (&c, ranks[r]);
      rule_copies (&c, ranks[r]);
      rule_launch_bound (&c, ranks[r]);
      rule_host_bound (&c, ranks[r], paths);
      rule_dependency_waits (&c, ranks[r], paths);
      rule_collective_outliers (&c, ranks[r]);
      rule_exposed_comm (&c, ranks[r], breakdowns);
      rule_small_copies (&c, ranks[r]);
      rule_copies_exposed (&c, ranks[r]);
    }
  rule_low_efficiency (&c, analysis);
  for (guint r = 0; r < n_ranks; r++)
    {
      rule_slow_steps (&c, ranks[r]);
      rule_idle_gaps (&c, ranks[r]);
      rule_low_utilization (&c, ranks[r]);
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
