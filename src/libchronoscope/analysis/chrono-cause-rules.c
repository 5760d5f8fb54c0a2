/* chrono-cause-rules.c: the causes found on the host and between ranks:
 * stragglers, data loading, synchronising calls, copies, launches, a host
 * that keeps the device waiting, and waits on the critical path
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "chrono-rules-private.h"

void
chrono_rule_stragglers (Ctx *c)
{
  guint n = chrono_rule_n_matched (c->ranks, c->n_ranks);

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
      if (count == 0 || (lost = chrono_rule_measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      f = chrono_rule_add_finding_printf (c, "collective-straggler", c->ranks[r],
                                          g_array_index (list, ChronoWorkItem, 0).start,
                                          g_array_index (list, ChronoWorkItem, n - 1).end, &claim, lost,
                                          _("The other ranks wait for this one at collectives: compare its host activity and input "
                                          "sizes with a fast rank (data loading, uneven shards, a slower device or link)."),
                                          _("%s is the last to reach %u of %u collectives; the other ranks wait %.3f ms for it "
                                          "(worst skew %.3f ms)"),
                                          who, count, n, chrono_rule_ms (lost), chrono_rule_ms (worst));
      chrono_finding_add_evidence (f, "collectives_late", count);
      chrono_finding_add_evidence (f, "collectives_matched", n);
      chrono_finding_add_evidence (f, "max_skew_ns", worst);
      chrono_finding_add_evidence (f, "rank", c->ranks[r]->rank);
      for (guint k = 0; k < list->len && f; k++)
        chrono_finding_add_track (f, c->ranks[r]->trace_index, g_array_index (list, ChronoWorkItem, k).track);
    }
}

void
chrono_rule_data_loading (Ctx            *c,
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
      if ((lost = chrono_rule_measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      f = chrono_rule_add_finding_printf (c, "data-loading", data, s->start, s->work_end, &claim, lost,
                                          chrono_advice_for_state (CHRONO_LEDGER_IDLE_DATA),
                                          _("Data loading takes %.0f%% of %s (%.3f ms); the device waits %.3f ms for it"),
                                          100.0 * loading / step, chrono_rule_step_name (data, s), chrono_rule_ms (loading), chrono_rule_ms (lost));
      chrono_finding_add_evidence (f, "loading_ns", loading);
      chrono_finding_add_evidence (f, "step_ns", step);
      chrono_finding_add_evidence (f, "device_wait_ns", lost);
      chrono_finding_add_track (f, data->trace_index, s->track);
      chrono_finding_set_node (f, data->trace_index, s->track, s->index);
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

void
chrono_rule_device_syncs (Ctx            *c,
                          ChronoRankData *data)
{
  gint64 blocked = 0, first = G_MAXINT64, last = G_MININT64, lost;
  guint n = 0;
  const ChronoSyncWait *worst = NULL;
  g_auto(ChronoClaim) claim = { NULL };
  ChronoFinding *f;

  chrono_claim_init (&claim);
  rule_syncs_of (c, data, "Synchronize", &claim, &n, &blocked, &first, &last, &worst);
  if (n == 0 || (lost = chrono_rule_measure (c, &claim, G_MAXINT64)) == 0)
    return;
  f = chrono_rule_add_finding_printf (c, "device-sync", data, first, last, &claim, lost,
                                      _("Avoid host–device synchronisation inside the step: keep values on the device instead of "
                                      ".item() / .cpu() / print, and replace cudaDeviceSynchronize with events where ordering is needed."),
                                      g_dngettext (GETTEXT_PACKAGE, "%u synchronising call drains the device's queue: it then idles %.3f ms until the "
                                                "host launches again (the host sat blocked %.3f ms)",
                                                "%u synchronising calls drain the device's queue: it then idles %.3f ms until the "
                                                "host launches again (the host sat blocked %.3f ms)", n),
                                      n, chrono_rule_ms (lost), chrono_rule_ms (blocked));
  chrono_finding_add_evidence (f, "calls", n);
  chrono_finding_add_evidence (f, "blocked_ns", blocked);
  chrono_finding_add_evidence (f, "device_idle_ns", lost);
  chrono_finding_add_track (f, data->trace_index, worst->track);
  chrono_finding_set_node (f, data->trace_index, worst->track, worst->index);
}

void
chrono_rule_copies (Ctx            *c,
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

      if (!chrono_rule_device_can_hold (d, CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_HOST) |
                                           CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_LAUNCH)))
        continue;
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
  if (n_sync + n_pageable == 0 || (lost = chrono_rule_measure (c, &claim, G_MAXINT64)) == 0)
    return;
  if (n_sync == 0)
    what = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u pageable copy", "%u pageable copies", n_pageable), n_pageable);
  else if (n_pageable == 0)
    what = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u synchronous copy", "%u synchronous copies", n_sync), n_sync);
  else
    what = g_strdup_printf (_("%u synchronous and %u pageable copies"), n_sync, n_pageable);
  f = chrono_rule_add_finding_printf (c, "sync-memcpy", data, first, last, &claim, lost,
                                      _("Allocate host buffers pinned (pin_memory=True, tensor.pin_memory()) and copy with "
                                      "non_blocking=True so copies run asynchronously and overlap computation."),
                                      _("%s cost the device %.3f ms"), what, chrono_rule_ms (lost));
  chrono_finding_add_evidence (f, "synchronous_copies", n_sync);
  chrono_finding_add_evidence (f, "synchronous_copy_ns", sync_time);
  chrono_finding_add_evidence (f, "pageable_copies", n_pageable);
  chrono_finding_add_evidence (f, "pageable_copy_ns", pageable_time);
  for (guint i = 0; i < tracks->len; i++)
    chrono_finding_add_track (f, data->trace_index, g_array_index (tracks, guint32, i));
}

void
chrono_rule_launch_bound (Ctx            *c,
                          ChronoRankData *data)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);

      if (!chrono_rule_device_can_hold (d, CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_HOST) |
                                           CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_LAUNCH)))
        continue;
      for (guint s = 0; s < d->streams->len; s++)
        {
          const ChronoStreamWork *sw = &g_array_index (d->streams, ChronoStreamWork, s);
          const ChronoWorkItem *all = (const ChronoWorkItem *) d->items->data;
          const guint *at = (const guint *) sw->positions->data;
          guint run_start = 0, run_len = 0;
          gint64 run_gaps = 0, run_busy = 0;

          for (guint i = 1; i <= sw->positions->len; i++)
            {
              if (i < sw->positions->len)
                {
                  gint64 dur = all[at[i]].end - all[at[i]].start;
                  gint64 gap = all[at[i]].start - all[at[i - 1]].end;
                  if (all[at[i]].cls == CHRONO_WORK_COMPUTE && dur <= c->th->launch_bound_kernel_max_ns &&
                      gap > dur && all[at[i]].launch_start != G_MININT64)
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
                  const ChronoWorkItem *first = &all[at[run_start]];
                  const ChronoWorkItem *last = &all[at[run_start + run_len - 1]];
                  const ChronoTrack *t = chrono_trace_get_track (data->trace, sw->track);
                  g_auto(ChronoClaim) claim = { NULL };
                  ChronoFinding *f;
                  gint64 lost;

                  chrono_claim_init (&claim);
                  chrono_claim_add (&claim, data, di, all[at[run_start - 1]].end, last->end,
                                    CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_HOST) |
                                    CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_LAUNCH), G_MAXUINT32, G_MAXINT64);
                  if ((lost = chrono_rule_measure (c, &claim, G_MAXINT64)) > 0)
                    {
                      f = chrono_rule_add_finding_printf (c, "launch-bound", data, all[at[run_start - 1]].end, last->end, &claim, lost,
                                                          _("Launch fewer, larger kernels: fuse elementwise operations (torch.compile), "
                                                          "capture the sequence in a CUDA graph, or move host work off the launching thread."),
                                                          _("%u short kernels on %s wait for their launches: the device idles %.3f ms"),
                                                          run_len, chrono_trace_get_string (data->trace, t->display_name), chrono_rule_ms (lost));
                      chrono_finding_add_evidence (f, "kernels", run_len);
                      chrono_finding_add_evidence (f, "kernel_time_ns", run_busy);
                      chrono_finding_add_evidence (f, "gap_time_ns", run_gaps);
                      chrono_finding_add_track (f, data->trace_index, sw->track);
                      chrono_finding_add_track (f, data->trace_index, first->launch_track);
                      chrono_finding_set_node (f, data->trace_index, first->track, first->index);
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
      if ((lost = chrono_rule_measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      label = chrono_rule_device_label (data, d);
      f = chrono_rule_add_finding_printf (c, "host-bound", data, start, end, &claim, lost,
                                          chrono_advice_for_state (chrono_ledger_main_state (claim.state_ns, states, CHRONO_LEDGER_IDLE_HOST)),
                                          _("%s is host-bound: it waits for the host %.0f%% of the trace (%.3f ms)"),
                                          label, 100.0 * wait / (end - start), chrono_rule_ms (lost));
      chrono_rule_add_claimed_states (f, &claim);
      chrono_finding_add_evidence (f, "device_host_wait_ns", wait);
      chrono_finding_add_evidence (f, "window_ns", end - start);
      for (guint k = 0; k < d->streams->len; k++)
        chrono_finding_add_track (f, data->trace_index, g_array_index (d->streams, ChronoStreamWork, k).track);
    }
}

void
chrono_rule_host_bound (Ctx            *c,
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
      if ((lost = chrono_rule_measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      f = chrono_rule_add_finding_printf (c, "host-bound", data, s->start, s->work_end, &claim, lost,
                                          chrono_advice_for_state (chrono_ledger_main_state (claim.state_ns, host, CHRONO_LEDGER_IDLE_HOST)),
                                          _("%s is host-bound: the device waits for the host %.0f%% of the step (%.3f ms)"),
                                          chrono_rule_step_name (data, s), 100.0 * worst / step, chrono_rule_ms (lost));
      chrono_rule_add_claimed_states (f, &claim);
      chrono_finding_add_evidence (f, "device_host_wait_ns", worst);
      chrono_finding_add_evidence (f, "step_ns", step);
      if ((p = path_of (paths, data, MAX (s->start, data->range_start))) != NULL)
        {
          chrono_finding_add_evidence (f, "path_host_compute_ns", p->by_category[CHRONO_PATH_HOST_COMPUTE]);
          chrono_finding_add_evidence (f, "path_launch_overhead_ns", p->by_category[CHRONO_PATH_LAUNCH_OVERHEAD]);
          for (guint k = 0; k < p->n_segments && f; k++)
            if (p->segments[k].has_node && p->segments[k].category == CHRONO_PATH_LAUNCH_OVERHEAD)
              chrono_finding_add_track (f, p->trace, p->segments[k].node.span.track);
        }
      chrono_finding_add_track (f, data->trace_index, s->track);
      chrono_finding_set_node (f, data->trace_index, s->track, s->index);
    }
}

static const ChronoWorkItem *
item_at (ChronoRankData *data,
         guint           device,
         guint           item)
{
  return &g_array_index (g_array_index (data->devices, ChronoDeviceWork, device).items, ChronoWorkItem, item);
}

/* Which items of each of DATA's devices lie on its critical paths and
 * wait on a dependency: a flag an item, or NULL for a device with none.
 * FALSE when no item does. */
static gboolean
waits_on_path (ChronoRankData *data,
               GArray         *paths,
               GPtrArray      *marks)
{
  gboolean any = FALSE;

  g_ptr_array_set_size (marks, data->devices->len);
  /* A path's span waits when some dependency leads into it. */
  for (guint i = 0; i < paths->len && data->deps->len > 0; i++)
    {
      const ChronoCriticalPath *p = &g_array_index (paths, ChronoCriticalPath, i);

      if (p->rank != data->rank_index)
        continue;
      for (guint k = 0; k < p->n_segments; k++)
        {
          const ChronoDeviceWork *d;
          guint device, item;

          if (!p->segments[k].has_node || !chrono_rank_data_find_item (data, p->segments[k].node.span, &device, &item))
            continue;
          d = &g_array_index (data->devices, ChronoDeviceWork, device);
          if (d->deps_start[item + 1] == d->deps_start[item])
            continue;
          if (marks->pdata[device] == NULL)
            marks->pdata[device] = g_new0 (guint8, d->items->len);
          ((guint8 *) marks->pdata[device])[item] = TRUE;
          any = TRUE;
        }
    }
  return any;
}

void
chrono_rule_dependency_waits (Ctx            *c,
                              ChronoRankData *data,
                              GArray         *paths)
{
  g_autoptr(GPtrArray) on_path = g_ptr_array_new_with_free_func (g_free);
  const guint not_compute = CHRONO_LEDGER_ALL_MASK & ~CHRONO_LEDGER_MASK (CHRONO_LEDGER_COMPUTE);

  /* No path through the work that waits: nothing to look at. */
  if (!waits_on_path (data, paths, on_path))
    return;
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      const guint8 *waits = on_path->pdata[di];
      g_autofree char *label = NULL;
      gint64 total = 0, worst = 0, first = G_MAXINT64, last = G_MININT64, lost;
      guint n = 0;
      const ChronoWorkItem *worst_item = NULL;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;
      g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (guint32));

      /* Off the critical path a wait delays nothing. */
      if (waits == NULL)
        continue;
      chrono_claim_init (&claim);
      for (guint i = 0; i < data->deps->len; i++)
        {
          const ChronoWorkDep *dep = &g_array_index (data->deps, ChronoWorkDep, i);
          const ChronoWorkItem *to, *from, *prev;
          gint64 free_at, wait;

          if (dep->to_device != di || !waits[dep->to_item])
            continue;
          to = item_at (data, dep->to_device, dep->to_item);
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
      if (n == 0 || (lost = chrono_rule_measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      label = chrono_rule_device_label (data, d);
      f = chrono_rule_add_finding_printf (c, "dependency-wait", data, first, last, &claim, lost,
                                          _("Work waits for other streams or engines: start the work it depends on earlier (prefetch "
                                          "inputs, issue copies and collectives ahead), split it so the waiting work can start on a "
                                          "part, or reorder independent work in between."),
                                          _("Work on the critical path of %s waits %.3f ms for other streams or engines with no "
                                          "computation running (%u waits)"),
                                          label, chrono_rule_ms (lost), n);
      chrono_finding_add_evidence (f, "waits", n);
      chrono_finding_add_evidence (f, "wait_ns", total);
      chrono_finding_add_evidence (f, "longest_wait_ns", worst);
      for (guint i = 0; i < tracks->len; i++)
        chrono_finding_add_track (f, data->trace_index, g_array_index (tracks, guint32, i));
      chrono_finding_set_node (f, data->trace_index, worst_item->track, worst_item->index);
    }
}
