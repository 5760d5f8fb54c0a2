/* chrono-analysis-rules.c: the bottleneck rules
 *
 * Each rule reports what it costs as time lost: the time the step would
 * be shorter without it (an upper bound where the rule says so).
 * docs/analysis.md defines every rule.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "chrono-analysis-private.h"

#define MAX_GAPS_PER_DEVICE 10

static const ChronoRule rules[] = {
  { "gpu-idle-gap", N_("Accelerator idle gap"),
    N_("A stretch of at least idle-gap-min-us in which a device runs no kernel, copy or set, between "
    "two pieces of its work. The cause is “host” when the call that launched the next work started "
    "after the gap began, “sync” when the host sat in a synchronising call, “other” otherwise.") },
  { "low-utilization", N_("Low accelerator utilization"),
    N_("A step (or the whole trace when there are no steps) in which a device is busy for less than "
    "low-utilization-percent of the time. Time lost: its idle time in the step.") },
  { "launch-bound", N_("Launch-bound kernels"),
    N_("At least launch-bound-min-kernels consecutive kernels on a stream, each at most "
    "launch-bound-kernel-max-us long and each preceded by an idle gap longer than itself: the host "
    "launches slower than the device runs. Time lost: the gaps.") },
  { "exposed-communication", N_("Exposed communication"),
    N_("Collective kernels that run while no computation kernel runs on the device, when this exposed "
    "part is more than exposed-communication-percent of all communication time. Time lost: the "
    "exposed time.") },
  { "collective-straggler", N_("Straggler rank"),
    N_("With several ranks, the n-th collective of every rank is matched; the rank that starts it last "
    "makes the others wait. Reported per rank when the skew is at least straggler-min-skew-us. "
    "Time lost: the summed skew of the collectives it was last to.") },
  { "sync-memcpy", N_("Synchronous or pageable copies"),
    N_("Copies issued with a blocking call (cudaMemcpy rather than cudaMemcpyAsync) or to or from "
    "pageable host memory. Time lost: how long they kept the host or the device.") },
  { "device-sync", N_("Device synchronisation in a step"),
    N_("Host calls that block until the device catches up (cudaDeviceSynchronize, "
    "cudaStreamSynchronize, cudaEventSynchronize) and did wait for work. Time lost: the blocked "
    "time, during which the host launched nothing.") },
  { "slow-step", N_("Slow step"),
    N_("A step longer than the median step by more than slow-step-percent. Time lost: the difference "
    "to the median.") },
  { "data-loading", N_("Data loading in the step"),
    N_("Host time in the data loader (spans named after DataLoader) above data-loading-percent of the "
    "step. Time lost: the loading time.") },
  { "host-bound", N_("Host-bound step"),
    N_("A step whose critical path spends more than host-bound-percent on host computation and launch "
    "overhead. Time lost: that host time.") },
  { "dependency-wait", N_("Waits on other streams or engines"),
    N_("Work that could not start when its stream or engine was free because it waited for work on "
    "another one: a cudaStreamWaitEvent, or a dependency flow (Neuron instruction dependencies and "
    "semaphore waits). Time lost: the waits of work on a critical path, from the later of the "
    "previous work's end and the launch to the end of the work waited for.") },
  { "exposed-copies", N_("Copies not overlapped by computation"),
    N_("Memory copies or DMA transfers that run while no computation does, when this exposed part is "
    "more than exposed-communication-percent of all copy time (a DMA-bound device). Time lost: the "
    "exposed copy time.") },
  { "small-copies", N_("Many small copies"),
    N_("Copies or DMA transfers of at most small-dma-max-bytes (from the \"bytes\" or "
    "\"transfer_size\" arg), at least launch-bound-min-kernels of them. Time lost, an upper bound: "
    "their time, most of which is fixed per-transfer cost.") },
  { "collective-outlier", N_("Slow collectives"),
    N_("Collectives of one name (at least five) of which some take more than twice the median. "
    "Time lost: the time over the median.") },
  { "low-occupancy", N_("Low achieved occupancy"),
    N_("Kernels whose estimated achieved occupancy (the profiler's “est. achieved occupancy %”) is "
    "below low-occupancy-percent. Time lost, an upper bound: their time scaled by the missing "
    "occupancy.") },
  { "engine-bound", N_("Bound on a non-matrix engine"),
    N_("A NeuronCore whose busiest engine is not a Tensor (matrix) engine and is busy more than "
    "engine-bound-percent longer than the busiest Tensor engine: vector, scalar, GpSimd or sync work "
    "sets the pace instead of the matrix multiplications. Time lost, an upper bound: the busy time "
    "above the Tensor engine's.") },
};

const ChronoRule *
chrono_analysis_get_rules (guint *n_rules)
{
  *n_rules = G_N_ELEMENTS (rules);
  return rules;
}

typedef struct {
  ChronoRankData               **ranks;
  guint                          n_ranks;
  const ChronoAnalysisThresholds *th;
  GArray                        *out;
} Ctx;

void
chrono_finding_clear (ChronoFinding *finding)
{
  g_free (finding->title);
  g_free (finding->tracks);
  for (guint i = 0; i < finding->n_evidence; i++)
    g_free (finding->evidence[i].key);
  g_free (finding->evidence);
  g_free (finding->recommendation);
}

static gint64
window_of (ChronoRankData *data)
{
  gint64 start = MAX (chrono_trace_get_start_ns (data->trace), data->range_start);
  gint64 end = MIN (chrono_trace_get_end_ns (data->trace), data->range_end);
  return MAX (end - start, 1);
}

static ChronoFinding *
add_finding (Ctx            *c,
             const char     *rule,
             ChronoRankData *data,
             gint64          start,
             gint64          end,
             gint64          lost,
             const char     *recommendation,
             const char     *format,
             ...) G_GNUC_PRINTF (8, 9);

static ChronoFinding *
add_finding (Ctx            *c,
             const char     *rule,
             ChronoRankData *data,
             gint64          start,
             gint64          end,
             gint64          lost,
             const char     *recommendation,
             const char     *format,
             ...)
{
  ChronoFinding f = { 0 };
  gint64 window = window_of (data);
  va_list args;

  if (lost < c->th->min_time_lost_ns)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    if (strcmp (rules[i].id, rule) == 0)
      f.rule = rules[i].id;
  g_assert (f.rule != NULL);
  va_start (args, format);
  f.title = g_strdup_vprintf (format, args);
  va_end (args);
  f.start_ns = start;
  f.end_ns = end;
  f.time_lost_ns = lost;
  f.severity = lost * 10 >= window ? CHRONO_SEVERITY_HIGH
             : lost * 100 >= window * 3 ? CHRONO_SEVERITY_MEDIUM
             : CHRONO_SEVERITY_LOW;
  f.recommendation = g_strdup (recommendation);
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

/* The tracks of every copy on device D. */
static void
add_copy_tracks (ChronoFinding          *f,
                 ChronoRankData         *data,
                 const ChronoDeviceWork *d)
{
  const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;

  for (guint k = 0; k < d->items->len; k++)
    if (items[k].cls == CHRONO_WORK_MEMCPY)
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

static double
ms (gint64 ns)
{
  return ns / 1e6;
}

static char *
device_label (ChronoRankData *data,
              const ChronoDeviceWork *d)
{
  const ChronoProcess *p = chrono_trace_get_process (data->trace, d->process);
  const char *name = chrono_trace_get_string (data->trace, p->display_name);

  if (chrono_trace_get_rank (data->trace) >= 0)
    return g_strdup_printf ("%s (rank %d)", name, chrono_trace_get_rank (data->trace));
  return g_strdup (name);
}

/* ------------------------------------------------------------------ */

static gboolean
host_in_sync (ChronoRankData *data,
              gint64          start,
              gint64          end)
{
  const ChronoSyncWait *syncs = (const ChronoSyncWait *) data->syncs->data;

  for (guint i = 0; i < data->syncs->len && syncs[i].start < end; i++)
    if (syncs[i].end > start && syncs[i].start <= start + (end - start) / 2)
      return TRUE;
  return FALSE;
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
      for (guint i = 0; i < MIN (gaps->len, MAX_GAPS_PER_DEVICE); i++)
        {
          const Gap *g = &g_array_index (gaps, Gap, i);
          const ChronoWorkItem *next = &items[g->next];
          gboolean late_launch = next->launch_start != G_MININT64 && next->launch_start > g->start;
          gboolean sync = !late_launch && host_in_sync (data, g->start, g->end);
          const char *cause = late_launch ? _("host") : sync ? _("sync") : _("other");
          ChronoFinding *f;

          f = add_finding (c, "gpu-idle-gap", data, g->start, g->end, g->end - g->start,
                           late_launch ? _("The host launched the next work late: look at what the host thread did "
                                         "before the launch (data loading, Python overhead, a synchronisation), "
                                         "and overlap it with device work.")
                           : sync ? _("The host waited for the device and then had to launch again: remove the "
                                    "synchronisation (.item(), .cpu(), cudaDeviceSynchronize) or move it out of the step.")
                           : _("The device waited on something else (an event from another stream, a copy, a "
                             "collective peer): follow the dependencies of the next work in the graph."),
                           _("%s idle for %.3f ms (cause: %s)"), label, ms (g->end - g->start), cause);
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
          const ChronoWorkItem *first = &g_array_index (d->items, ChronoWorkItem, 0);
          gint64 start = step ? step->start : first->start;
          gint64 end = step ? step->work_end : MIN (chrono_trace_get_end_ns (data->trace), data->range_end);
          gint64 busy = chrono_intervals_length_in (d->busy, start, end);
          ChronoFinding *f;

          if (end <= start || busy * 100 >= (end - start) * (gint64) c->th->low_utilization_percent)
            continue;
          f = add_finding (c, "low-utilization", data, start, end, (end - start) - busy,
                           _("Give the device more work per launch (larger batches, fused kernels, CUDA graphs) "
                           "or find what keeps it waiting in the idle gaps."),
                           _("%s busy %.0f%% of %s"), label, 100.0 * busy / (end - start),
                           step ? chrono_trace_get_string (data->trace,
                                    chrono_track_get_name (chrono_trace_get_track (data->trace, step->track), step->index))
                                : _("the trace"));
          add_evidence (f, "busy_ns", busy);
          add_evidence (f, "window_ns", end - start);
          add_evidence (f, "utilization_percent", 100.0 * busy / (end - start));
          for (guint k = 0; k < d->streams->len; k++)
            add_track (f, data->trace_index, g_array_index (d->streams, ChronoStreamWork, k).track);
        }
    }
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
              gboolean bound = FALSE;

              if (i < sw->items->len)
                {
                  gint64 dur = items[i].end - items[i].start;
                  gint64 gap = items[i].start - items[i - 1].end;
                  bound = items[i].cls == CHRONO_WORK_COMPUTE && dur <= c->th->launch_bound_kernel_max_ns &&
                          gap > dur && items[i].launch_start != G_MININT64;
                  if (bound)
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
                  ChronoFinding *f;

                  f = add_finding (c, "launch-bound", data, items[run_start - 1].end, last->end, run_gaps,
                                   _("Launch fewer, larger kernels: fuse elementwise operations (torch.compile), "
                                   "capture the sequence in a CUDA graph, or move host work off the launching thread."),
                                   _("%u short kernels on %s wait for their launches (%.3f ms of gaps)"), run_len,
                                   chrono_trace_get_string (data->trace, t->display_name), ms (run_gaps));
                  add_evidence (f, "kernels", run_len);
                  add_evidence (f, "kernel_time_ns", run_busy);
                  add_evidence (f, "gap_time_ns", run_gaps);
                  add_track (f, data->trace_index, sw->track);
                  add_track (f, data->trace_index, first->launch_track);
                  set_node (f, data->trace_index, first->track, first->index);
                }
              run_len = 0;
            }
        }
    }
}

static void
rule_exposed_comm (Ctx            *c,
                   GArray         *breakdowns)
{
  guint trace = G_MAXUINT, device = 0;

  for (guint i = 0; i < breakdowns->len; i++)
    {
      const ChronoBreakdown *b = &g_array_index (breakdowns, ChronoBreakdown, i);
      ChronoRankData *data = c->ranks[b->where.trace];
      gint64 exposed = b->communication_ns - b->overlap_ns;
      g_autofree char *label = NULL;
      ChronoFinding *f;

      if (b->where.track != CHRONO_NO_TRACK)
        continue;
      /* Device rows come in the order of the rank's devices. */
      device = b->where.trace == trace ? device + 1 : 0;
      trace = b->where.trace;
      if (b->communication_ns == 0 ||
          exposed * 100 <= b->communication_ns * (gint64) c->th->exposed_comm_percent)
        continue;
      label = device_label (data, &g_array_index (data->devices, ChronoDeviceWork, device));
      f = add_finding (c, "exposed-communication", data, b->start_ns, b->end_ns, exposed,
                       _("Overlap communication with computation: bucket gradients so all-reduces start during the "
                       "backward pass (DDP bucket_cap_mb), prefetch parameters (FSDP), or use a separate stream."),
                       _("%.0f%% of communication on %s is not overlapped (%.3f ms)"),
                       100.0 * exposed / b->communication_ns, label, ms (exposed));
      add_evidence (f, "communication_ns", b->communication_ns);
      add_evidence (f, "overlap_ns", b->overlap_ns);
      add_evidence (f, "exposed_ns", exposed);
      for (guint k = i + 1; k < breakdowns->len; k++)
        {
          const ChronoBreakdown *s = &g_array_index (breakdowns, ChronoBreakdown, k);
          if (s->where.track == CHRONO_NO_TRACK || s->where.trace != b->where.trace)
            break;
          if (s->communication_ns > 0)
            add_track (f, s->where.trace, s->where.track);
        }
    }
}

gboolean
chrono_analysis_collective_peer (ChronoRankData **ranks,
                                 guint            n_ranks,
                                 guint32          trace,
                                 ChronoSpanRef    span,
                                 guint32          peer_trace,
                                 ChronoSpanRef   *peer)
{
  GArray *mine, *theirs;

  if (trace >= n_ranks || peer_trace >= n_ranks || trace == peer_trace)
    return FALSE;
  mine = ranks[trace]->collectives;
  theirs = ranks[peer_trace]->collectives;
  for (guint k = 0; k < mine->len && k < theirs->len; k++)
    {
      const ChronoWorkItem *it = &g_array_index (mine, ChronoWorkItem, k);
      if (it->track == span.track && it->index == span.index)
        {
          const ChronoWorkItem *p = &g_array_index (theirs, ChronoWorkItem, k);
          *peer = (ChronoSpanRef) { p->track, p->index };
          return TRUE;
        }
    }
  return FALSE;
}

static void
rule_stragglers (Ctx *c)
{
  g_autoptr(GPtrArray) lists = g_ptr_array_new ();
  g_autofree gint64 *lost = g_new0 (gint64, c->n_ranks);
  g_autofree gint64 *worst = g_new0 (gint64, c->n_ranks);
  g_autofree guint *count = g_new0 (guint, c->n_ranks);
  guint n = G_MAXUINT;

  if (c->n_ranks < 2)
    return;
  for (guint r = 0; r < c->n_ranks; r++)
    {
      GArray *list = c->ranks[r]->collectives;
      g_ptr_array_add (lists, list);
      n = MIN (n, list->len);
    }
  for (guint k = 0; k < n; k++)
    {
      gint64 first = G_MAXINT64, last = G_MININT64;
      guint last_rank = 0;

      for (guint r = 0; r < c->n_ranks; r++)
        {
          const ChronoWorkItem *it = &g_array_index ((GArray *) lists->pdata[r], ChronoWorkItem, k);
          first = MIN (first, it->start);
          if (it->start > last)
            {
              last = it->start;
              last_rank = r;
            }
        }
      if (last - first >= c->th->straggler_min_skew_ns)
        {
          lost[last_rank] += last - first;
          worst[last_rank] = MAX (worst[last_rank], last - first);
          count[last_rank]++;
        }
    }
  for (guint r = 0; r < c->n_ranks; r++)
    {
      GArray *list = lists->pdata[r];
      gint rank = chrono_trace_get_rank (c->ranks[r]->trace);
      g_autofree char *who = rank >= 0 ? g_strdup_printf (_("Rank %d"), rank) : g_strdup_printf (_("Trace %u"), r);
      ChronoFinding *f;

      if (count[r] == 0)
        continue;
      f = add_finding (c, "collective-straggler", c->ranks[r],
                       g_array_index (list, ChronoWorkItem, 0).start,
                       g_array_index (list, ChronoWorkItem, n - 1).end, lost[r],
                       _("The other ranks wait for this one at collectives: compare its host activity and input "
                       "sizes with a fast rank (data loading, uneven shards, a slower device or link)."),
                       _("%s is the last to reach %u of %u collectives (worst skew %.3f ms)"),
                       who, count[r], n, ms (worst[r]));
      add_evidence (f, "collectives_late", count[r]);
      add_evidence (f, "collectives_matched", n);
      add_evidence (f, "max_skew_ns", worst[r]);
      add_evidence (f, "rank", chrono_trace_get_rank (c->ranks[r]->trace));
      for (guint k = 0; k < list->len && f; k++)
        add_track (f, r, g_array_index (list, ChronoWorkItem, k).track);
    }
}

static void
rule_copies (Ctx            *c,
             ChronoRankData *data)
{
  ChronoTrace *trace = data->trace;
  gint64 sync_time = 0, pageable_time = 0, first = G_MAXINT64, last = G_MININT64;
  guint n_sync = 0, n_pageable = 0;
  g_autofree char *what = NULL;
  ChronoFinding *f;
  g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i < data->syncs->len; i++)
    {
      const ChronoSyncWait *s = &g_array_index (data->syncs, ChronoSyncWait, i);
      const ChronoTrack *t = chrono_trace_get_track (trace, s->track);
      const char *name = chrono_trace_get_string (trace, chrono_track_get_name (t, s->index));

      if (strstr (name, "Memcpy") == NULL)
        continue;
      n_sync++;
      sync_time += s->end - s->start;
      first = MIN (first, s->start);
      last = MAX (last, s->end);
      g_array_append_val (tracks, s->track);
    }
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
        }
    }
  if (n_sync + n_pageable == 0)
    return;
  if (n_sync == 0)
    what = g_strdup_printf (_("%u pageable copies"), n_pageable);
  else if (n_pageable == 0)
    what = g_strdup_printf (_("%u synchronous copies"), n_sync);
  else
    what = g_strdup_printf (_("%u synchronous and %u pageable copies"), n_sync, n_pageable);
  f = add_finding (c, "sync-memcpy", data, first, last, sync_time + pageable_time,
                   _("Allocate host buffers pinned (pin_memory=True, tensor.pin_memory()) and copy with "
                   "non_blocking=True so copies run asynchronously and overlap computation."),
                   _("%s take %.3f ms"), what, ms (sync_time + pageable_time));
  add_evidence (f, "synchronous_copies", n_sync);
  add_evidence (f, "synchronous_copy_ns", sync_time);
  add_evidence (f, "pageable_copies", n_pageable);
  add_evidence (f, "pageable_copy_ns", pageable_time);
  for (guint i = 0; i < tracks->len; i++)
    add_track (f, data->trace_index, g_array_index (tracks, guint32, i));
}

static void
rule_device_syncs (Ctx            *c,
                   ChronoRankData *data)
{
  ChronoTrace *trace = data->trace;
  gint64 blocked = 0, first = G_MAXINT64, last = G_MININT64, longest = 0;
  guint n = 0;
  const ChronoSyncWait *worst = NULL;
  ChronoFinding *f;

  for (guint i = 0; i < data->syncs->len; i++)
    {
      const ChronoSyncWait *s = &g_array_index (data->syncs, ChronoSyncWait, i);
      const ChronoTrack *t = chrono_trace_get_track (trace, s->track);
      gboolean in_step = data->steps->len == 0;

      if (s->device < 0 || strstr (chrono_trace_get_string (trace, chrono_track_get_name (t, s->index)), "Synchronize") == NULL)
        continue;
      for (guint k = 0; k < data->steps->len && !in_step; k++)
        {
          const ChronoStep *step = &g_array_index (data->steps, ChronoStep, k);
          in_step = s->start >= step->start && s->start < step->end;
        }
      if (!in_step)
        continue;
      n++;
      blocked += s->end - s->start;
      first = MIN (first, s->start);
      last = MAX (last, s->end);
      if (s->end - s->start > longest)
        {
          longest = s->end - s->start;
          worst = s;
        }
    }
  if (n == 0)
    return;
  f = add_finding (c, "device-sync", data, first, last, blocked,
                   _("Avoid host–device synchronisation inside the step: keep values on the device instead of "
                   ".item() / .cpu() / print, and replace cudaDeviceSynchronize with events where ordering is needed."),
                   _("%u synchronising calls block the host for %.3f ms"), n, ms (blocked));
  add_evidence (f, "calls", n);
  add_evidence (f, "blocked_ns", blocked);
  add_evidence (f, "longest_ns", longest);
  add_track (f, data->trace_index, worst->track);
  set_node (f, data->trace_index, worst->track, worst->index);
}

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
      gint64 dur = s->work_end - s->start;
      ChronoFinding *f;

      if (dur * 100 <= median * (100 + (gint64) c->th->slow_step_percent))
        continue;
      f = add_finding (c, "slow-step", data, s->start, s->work_end, dur - median,
                       _("Compare this step with a typical one: look for a first-step warm-up, a checkpoint, "
                       "garbage collection, recompilation or an uneven batch."),
                       _("%s takes %.3f ms, %.0f%% over the median step"),
                       chrono_trace_get_string (data->trace, chrono_track_get_name (chrono_trace_get_track (data->trace, s->track), s->index)),
                       ms (dur), 100.0 * (dur - median) / MAX (median, 1));
      add_evidence (f, "step_ns", dur);
      add_evidence (f, "median_step_ns", median);
      add_track (f, data->trace_index, s->track);
      set_node (f, data->trace_index, s->track, s->index);
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
      gint64 loading = 0, step = s->work_end - s->start;
      ChronoFinding *f;

      for (guint32 k = s->index + 1; k < t->n_spans && t->start[k] < s->end; k++)
        {
          const char *name;

          if (t->depth[k] != t->depth[s->index] + 1 || t->lane[k] != t->lane[s->index])
            continue;
          name = chrono_trace_get_string (trace, chrono_track_get_name (t, k));
          if (strstr (name, "DataLoader") != NULL || strstr (name, "dataloader") != NULL)
            loading += chrono_track_get_dur (t, k);
        }
      if (step <= 0 || loading * 100 <= step * (gint64) c->th->data_loading_percent)
        continue;
      f = add_finding (c, "data-loading", data, s->start, s->work_end, loading,
                       _("Load data in background workers (DataLoader num_workers > 0, persistent_workers=True, "
                       "prefetch_factor) with pin_memory=True so the next batch is ready when the step starts."),
                       _("Data loading takes %.0f%% of %s (%.3f ms)"), 100.0 * loading / step,
                       chrono_trace_get_string (trace, chrono_track_get_name (t, s->index)), ms (loading));
      add_evidence (f, "loading_ns", loading);
      add_evidence (f, "step_ns", step);
      add_track (f, data->trace_index, s->track);
    }
}

static void
rule_host_bound (Ctx    *c,
                 GArray *paths)
{
  for (guint i = 0; i < paths->len; i++)
    {
      const ChronoCriticalPath *p = &g_array_index (paths, ChronoCriticalPath, i);
      gint64 host = p->by_category[CHRONO_PATH_HOST_COMPUTE] + p->by_category[CHRONO_PATH_LAUNCH_OVERHEAD];
      ChronoFinding *f;

      if (p->total_ns <= 0 || host * 100 <= p->total_ns * (gint64) c->th->host_bound_percent)
        continue;
      f = add_finding (c, "host-bound", c->ranks[p->trace], p->start_ns, p->end_ns, host,
                       _("The host sets the pace: reduce Python and framework overhead (torch.compile, CUDA graphs, "
                       "larger batches), and move data preparation to worker processes."),
                       _("%s is host-bound: %.0f%% of its critical path is on the host"),
                       p->name, 100.0 * host / p->total_ns);
      add_evidence (f, "host_compute_ns", p->by_category[CHRONO_PATH_HOST_COMPUTE]);
      add_evidence (f, "launch_overhead_ns", p->by_category[CHRONO_PATH_LAUNCH_OVERHEAD]);
      add_evidence (f, "path_ns", p->total_ns);
      if (p->track != CHRONO_NO_TRACK)
        add_track (f, p->trace, p->track);
      for (guint k = 0; k < p->n_segments && f; k++)
        if (p->segments[k].has_node)
          add_track (f, p->trace, p->segments[k].node.span.track);
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

/* The spans of RANK's critical paths. */
static GHashTable *
path_spans (GArray *paths,
            guint   rank)
{
  GHashTable *spans = g_hash_table_new (span_ref_hash, span_ref_equal);

  for (guint i = 0; i < paths->len; i++)
    {
      const ChronoCriticalPath *p = &g_array_index (paths, ChronoCriticalPath, i);

      for (guint k = 0; k < p->n_segments; k++)
        if (p->segments[k].has_node && p->segments[k].node.trace == rank)
          g_hash_table_add (spans, &p->segments[k].node.span);
    }
  return spans;
}

static void
rule_dependency_waits (Ctx            *c,
                       ChronoRankData *data,
                       GArray         *paths)
{
  g_autoptr(GHashTable) on_path = path_spans (paths, data->trace_index);

  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      g_autofree char *label = NULL;
      gint64 total = 0, worst = 0, first = G_MAXINT64, last = G_MININT64, lost;
      guint n = 0;
      const ChronoWorkItem *worst_item = NULL;
      ChronoFinding *f;
      g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_autoptr(GArray) waits = g_array_new (FALSE, TRUE, sizeof (ChronoWorkItem));
      g_autoptr(GArray) waiting = NULL;

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
          g_array_append_val (waits, ((ChronoWorkItem) { .start = free_at, .end = free_at + wait,
                                                         .cls = CHRONO_WORK_COMPUTE }));
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
      if (n == 0)
        continue;
      /* Paths of several steps may share work: count each moment once. */
      g_array_sort_with_data (waits, chrono_compare_int64_at,
                              GSIZE_TO_POINTER (G_STRUCT_OFFSET (ChronoWorkItem, start)));
      waiting = chrono_intervals_merge ((const ChronoWorkItem *) waits->data, waits->len,
                                        1u << CHRONO_WORK_COMPUTE);
      lost = chrono_intervals_length (waiting);
      label = device_label (data, d);
      f = add_finding (c, "dependency-wait", data, first, last, lost,
                       _("Work waits for other streams or engines: start the work it depends on earlier (prefetch "
                       "inputs, issue copies and collectives ahead), split it so the waiting work can start on a "
                       "part, or reorder independent work in between."),
                       _("Work on the critical path of %s waits %.3f ms for other streams or engines (%u waits)"),
                       label, ms (lost), n);
      add_evidence (f, "waits", n);
      add_evidence (f, "wait_ns", total);
      add_evidence (f, "longest_wait_ns", worst);
      for (guint i = 0; i < tracks->len; i++)
        add_track (f, data->trace_index, g_array_index (tracks, guint32, i));
      set_node (f, data->trace_index, worst_item->track, worst_item->index);
    }
}

static void
rule_copies_exposed (Ctx            *c,
                     ChronoRankData *data)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;
      g_autoptr(GArray) copies = chrono_intervals_merge (items, d->items->len, 1u << CHRONO_WORK_MEMCPY);
      g_autoptr(GArray) compute = chrono_intervals_merge (items, d->items->len, 1u << CHRONO_WORK_COMPUTE);
      gint64 copy_time = chrono_intervals_length (copies);
      gint64 exposed = copy_time - chrono_intervals_overlap (copies, compute);
      g_autofree char *label = NULL;
      ChronoFinding *f;

      if (copy_time == 0 || exposed * 100 <= copy_time * (gint64) c->th->exposed_comm_percent)
        continue;
      label = device_label (data, d);
      f = add_finding (c, "exposed-copies", data, g_array_index (copies, ChronoInterval, 0).start,
                       g_array_index (copies, ChronoInterval, copies->len - 1).end, exposed,
                       _("Overlap copies with computation: prefetch the next batch on a separate stream "
                       "(non_blocking copies from pinned memory), keep data resident on the device, or on "
                       "Neuron double-buffer DMA so engines do not wait for it."),
                       _("%.0f%% of copy time on %s runs with no computation (%.3f ms)"),
                       100.0 * exposed / copy_time, label, ms (exposed));
      add_evidence (f, "copy_ns", copy_time);
      add_evidence (f, "exposed_ns", exposed);
      add_copy_tracks (f, data, d);
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
      gint64 time = 0, first = G_MAXINT64, last = G_MININT64;
      gdouble bytes = 0;
      guint n = 0;
      g_autofree char *label = NULL;
      ChronoFinding *f;

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
        }
      if (n < MAX (c->th->launch_bound_min_kernels, 2))
        continue;
      label = device_label (data, d);
      f = add_finding (c, "small-copies", data, first, last, time,
                       _("Batch small transfers into larger ones: gather scalars and small tensors into one buffer "
                       "before copying, keep them on the device, or on Neuron coalesce DMA descriptors."),
                       _("%u copies of at most %.0f bytes on %s take %.3f ms"),
                       n, (gdouble) c->th->small_dma_max_bytes, label, ms (time));
      add_evidence (f, "copies", n);
      add_evidence (f, "bytes", bytes);
      add_evidence (f, "copy_ns", time);
      add_copy_tracks (f, data, d);
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
      gint64 median, lost = 0, first = G_MAXINT64, last = G_MININT64;
      ChronoFinding *f;

      while (end < list->len && chrono_track_get_name (chrono_trace_get_track (trace, items[end].track), items[end].index) == name)
        end++;
      n = end - start;
      median = items[start + n / 2].end - items[start + n / 2].start;
      for (guint k = start; k < end && n >= 5; k++)
        {
          gint64 dur = items[k].end - items[k].start;
          if (dur <= 2 * median)
            continue;
          outliers++;
          lost += dur - median;
          first = MIN (first, items[k].start);
          last = MAX (last, items[k].end);
        }
      if (outliers > 0)
        {
          const ChronoWorkItem *worst = &items[end - 1];
          f = add_finding (c, "collective-outlier", data, first, last, lost,
                           _("Some collectives take much longer than usual: they wait for a late peer (see the "
                           "straggler findings with all ranks loaded), compete with copies or other collectives for "
                           "the links, or move more data than usual."),
                           _("%u of %u %s take over twice the median %.3f ms"), outliers, n,
                           chrono_trace_get_string (trace, name), ms (median));
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
rule_low_occupancy (Ctx            *c,
                    ChronoRankData *data)
{
  ChronoTrace *trace = data->trace;
  gint64 lost = 0, time = 0, first = G_MAXINT64, last = G_MININT64;
  guint n = 0;
  ChronoFinding *f;
  g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      for (guint k = 0; k < d->items->len; k++)
        {
          const ChronoWorkItem *it = &g_array_index (d->items, ChronoWorkItem, k);
          const ChronoTrack *t = chrono_trace_get_track (trace, it->track);
          gdouble occ;

          if (it->cls != CHRONO_WORK_COMPUTE ||
              !chrono_analysis_arg_number (trace, chrono_track_get_args (t, it->index), "\"est. achieved occupancy %\"", &occ) ||
              occ >= c->th->low_occupancy_percent)
            continue;
          n++;
          time += it->end - it->start;
          lost += (gint64) ((it->end - it->start) * (1.0 - occ / 100.0));
          first = MIN (first, it->start);
          last = MAX (last, it->end);
          if (tracks->len == 0 || g_array_index (tracks, guint32, tracks->len - 1) != it->track)
            g_array_append_val (tracks, it->track);
        }
    }
  if (n == 0)
    return;
  f = add_finding (c, "low-occupancy", data, first, last, lost,
                   _("Launch more blocks or threads per block, reduce registers or shared memory per thread, "
                   "or fuse small kernels so the device's multiprocessors stay full."),
                   _("%u kernels (%.3f ms) run below %u%% estimated occupancy"), n, ms (time),
                   c->th->low_occupancy_percent);
  add_evidence (f, "kernels", n);
  add_evidence (f, "kernel_time_ns", time);
  for (guint i = 0; i < tracks->len; i++)
    add_track (f, data->trace_index, g_array_index (tracks, guint32, i));
}

/* Neuron names its matrix engines "Tensor (PE)" and "TensorMatrix (PE)". */
static gboolean
is_matrix_engine (ChronoTrace *trace,
                  guint32      track)
{
  const char *name = chrono_trace_get_string (trace, chrono_trace_get_track (trace, track)->display_name);

  return g_str_has_prefix (name, "Tensor");
}

static void
rule_engine_bound (Ctx            *c,
                   ChronoRankData *data)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      const ChronoStreamWork *busiest = NULL;
      gint64 busiest_ns = 0, matrix_ns = -1, start, end;
      g_autofree char *label = NULL;
      ChronoFinding *f;

      for (guint k = 0; k < d->streams->len; k++)
        {
          const ChronoStreamWork *s = &g_array_index (d->streams, ChronoStreamWork, k);
          const ChronoTrack *track = chrono_trace_get_track (data->trace, s->track);
          g_autoptr(GArray) busy = NULL;
          gint64 ns;

          if (s->items->len == 0 ||
              track->kind[g_array_index (s->items, ChronoWorkItem, 0).index] != CHRONO_KIND_INSTRUCTION)
            continue;
          busy = chrono_intervals_merge ((const ChronoWorkItem *) s->items->data, s->items->len,
                                         1u << CHRONO_WORK_COMPUTE);
          ns = chrono_intervals_length (busy);
          if (is_matrix_engine (data->trace, s->track))
            matrix_ns = MAX (matrix_ns, ns);
          else if (ns > busiest_ns)
            {
              busiest_ns = ns;
              busiest = s;
            }
        }
      /* Only a core with matrix engines and another engine busier. */
      if (busiest == NULL || matrix_ns < 0 ||
          busiest_ns * 100 <= matrix_ns * (gint64) (100 + c->th->engine_bound_percent))
        continue;

      start = g_array_index (busiest->items, ChronoWorkItem, 0).start;
      end = g_array_index (d->busy, ChronoInterval, d->busy->len - 1).end;
      label = device_label (data, d);
      f = add_finding (c, "engine-bound", data, start, end, busiest_ns - matrix_ns,
                       _("Move work off the busiest engine: fuse elementwise operations and activations into "
                       "fewer passes, use lower precision, express reductions as matrix multiplications, avoid "
                       "GpSimd for work the Vector or Scalar engine can do, and check the compiler's engine "
                       "assignment for the hot operators."),
                       _("%s is bound on %s: busy %.3f ms against %.3f ms for its busiest Tensor engine"),
                       label,
                       chrono_trace_get_string (data->trace,
                                                chrono_trace_get_track (data->trace, busiest->track)->display_name),
                       ms (busiest_ns), ms (matrix_ns));
      add_evidence (f, "engine_busy_ns", busiest_ns);
      add_evidence (f, "tensor_busy_ns", matrix_ns);
      add_track (f, data->trace_index, busiest->track);
    }
}

void
chrono_analysis_run_rules (ChronoRankData                **ranks,
                           guint                           n_ranks,
                           GArray                         *breakdowns,
                           GArray                         *paths,
                           const ChronoAnalysisThresholds *thresholds,
                           GArray                         *out)
{
  Ctx c = { ranks, n_ranks, thresholds, out };

  for (guint r = 0; r < n_ranks; r++)
    {
      rule_idle_gaps (&c, ranks[r]);
      rule_low_utilization (&c, ranks[r]);
      rule_launch_bound (&c, ranks[r]);
      rule_copies (&c, ranks[r]);
      rule_device_syncs (&c, ranks[r]);
      rule_slow_steps (&c, ranks[r]);
      rule_data_loading (&c, ranks[r]);
      rule_low_occupancy (&c, ranks[r]);
      rule_dependency_waits (&c, ranks[r], paths);
      rule_copies_exposed (&c, ranks[r]);
      rule_small_copies (&c, ranks[r]);
      rule_collective_outliers (&c, ranks[r]);
      rule_engine_bound (&c, ranks[r]);
    }
  rule_exposed_comm (&c, breakdowns);
  rule_stragglers (&c);
  rule_host_bound (&c, paths);
}
