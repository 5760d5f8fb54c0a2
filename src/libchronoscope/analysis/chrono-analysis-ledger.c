/* chrono-analysis-ledger.c: the time ledger of each device, and the
 * claims findings make on it
 *
 * A device's window, from its first to its last work, is cut into
 * segments of one state each. Work states come from the kinds of work
 * running (computation over communication over copies); idle states from
 * what the device waited for: the work after a gap names its launching
 * call, and the host thread of that call says what it was doing.
 *
 * A finding claims time from segments of the states its cause explains,
 * inside the intervals its evidence covers. Each segment keeps how much of
 * it has been claimed, so no finding can claim time another already has,
 * and the findings of a device never claim more than its window.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-analysis-private.h"
#include "chrono-neuron-metrics.h"

const char *
chrono_ledger_state_to_string (ChronoLedgerState state)
{
  static const char * const names[] = {
    "compute", "communication", "copy", "idle_host", "idle_launch", "idle_sync",
    "idle_peer", "idle_data", "idle_other", "transpose", "idle_dma", "idle_vector", "idle_scalar",
    "idle_gpsimd", "idle_collective", "idle_semaphore", "idle_not_queued",
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (names) == CHRONO_N_LEDGER_STATES);

  g_return_val_if_fail (state < CHRONO_N_LEDGER_STATES, NULL);
  return names[state];
}

static void
push (GArray            *segments,
      gint64             start,
      gint64             end,
      ChronoLedgerState  state,
      guint32            cause)
{
  ChronoLedgerSegment *last;

  if (end <= start)
    return;
  last = segments->len ? &g_array_index (segments, ChronoLedgerSegment, segments->len - 1) : NULL;
  if (last && last->end == start && last->state == state && last->cause == cause)
    {
      last->end = end;
      return;
    }
  g_array_append_val (segments, ((ChronoLedgerSegment) { start, end, 0, cause, state }));
}

/* Busy time [START, END) as segments of the work states, from the merged
 * intervals of each class. */
static void
push_busy (GArray *segments,
           GArray *classes[3],
           guint   pos[3],
           gint64  start,
           gint64  end)
{
  gint64 t = start;

  while (t < end)
    {
      gint64 next = end;
      gint state = -1;

      for (guint c = 0; c < 3; c++)
        {
          GArray *list = classes[c];

          while (pos[c] < list->len && g_array_index (list, ChronoInterval, pos[c]).end <= t)
            pos[c]++;
          if (pos[c] < list->len)
            {
              const ChronoInterval *v = &g_array_index (list, ChronoInterval, pos[c]);
              if (v->start <= t)
                {
                  if (state < 0)
                    state = c;
                  /* A higher state stays until it ends; a lower one only
                   * until a higher one begins. */
                  if ((gint) c == state)
                    next = MIN (next, v->end);
                }
              else
                next = MIN (next, v->start);
            }
        }
      g_assert (state >= 0);
      push (segments, t, next, (ChronoLedgerState) state, G_MAXUINT32);
      t = next;
    }
}

/* Merged [start, end) spans on TRACK whose names mark data loading. */
static GArray *
loading_intervals (ChronoTrace *trace,
                   guint32      track,
                   guint8      *is_loader)
{
  const ChronoTrack *t = chrono_trace_get_track (trace, track);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (ChronoInterval));

  for (guint32 i = 0; i < t->n_spans; i++)
    {
      guint32 name = chrono_track_get_name (t, i);
      gint64 start = t->start[i], end = chrono_track_get_end (t, i);
      ChronoInterval *last;

      if (is_loader[name] == 0)
        is_loader[name] = chrono_analysis_name_is_data_loading (chrono_trace_get_string (trace, name)) ? 2 : 1;
      if (is_loader[name] != 2)
        continue;
      last = out->len ? &g_array_index (out, ChronoInterval, out->len - 1) : NULL;
      if (last && start <= last->end)
        last->end = MAX (last->end, end);
      else
        g_array_append_val (out, ((ChronoInterval) { start, end, i }));
    }
  return out;
}

/* The synchronising call on THREAD (or, when the trace does not say which
 * thread launched, on any thread) that ended inside [START, END) after
 * waiting for the device, as an index into the rank's syncs. */
static guint
sync_ending_in (ChronoRankData *data,
                guint32         thread,
                gint64          start,
                gint64          end)
{
  const ChronoSyncWait *syncs = (const ChronoSyncWait *) data->syncs->data;
  /* Calls are by start; a call ending in the gap started before its end. */
  guint hi = chrono_lower_bound (syncs, data->syncs->len, sizeof *syncs,
                                 G_STRUCT_OFFSET (ChronoSyncWait, start), end);

  for (guint k = hi; k-- > 0;)
    {
      if (syncs[k].device >= 0 && syncs[k].end >= start && syncs[k].end < end && syncs[k].start < start &&
          (thread == G_MAXUINT32 || syncs[k].track == thread))
        return k;
      /* Calls long before the gap cannot end in it; a few overlap. */
      if (syncs[k].end < start && hi - k > 64)
        break;
    }
  return G_MAXUINT32;
}

typedef struct {
  ChronoRankData                 *data;
  const ChronoAnalysisThresholds *th;
  GHashTable                     *loading;    /* thread -> GArray of ChronoInterval */
  guint8                         *is_loader;  /* per string: 0 unknown, 1 no, 2 yes */
} GapCtx;

static GArray *
loading_of (GapCtx  *g,
            guint32  thread)
{
  GArray *list = g_hash_table_lookup (g->loading, GUINT_TO_POINTER (thread));

  if (list == NULL)
    {
      list = loading_intervals (g->data->trace, thread, g->is_loader);
      g_hash_table_insert (g->loading, GUINT_TO_POINTER (thread), list);
    }
  return list;
}

/* The idle time [START, END) before NEXT, by cause. */
static void
push_gap (GapCtx               *g,
          GArray               *segments,
          gint64                start,
          gint64                end,
          const ChronoWorkItem *next)
{
  gint64 launch = next->launch_start;

  if (launch != G_MININT64 && launch > start)
    {
      /* The host launched late: until the launch the device waited for
       * the host, then for the launch call and the latency after it;
       * work that starts long after its launch waited for something
       * else. */
      const ChronoTrack *lt = chrono_trace_get_track (g->data->trace, next->launch_track);
      gint64 launched = MIN (MAX (chrono_track_get_end (lt, next->launch_index), launch) + g->th->idle_gap_min_ns, end);
      gint64 host_end = MIN (launch, end);
      GArray *loading = loading_of (g, next->launch_track);
      const ChronoInterval *v = (const ChronoInterval *) loading->data;
      guint k = chrono_lower_bound (v, loading->len, sizeof *v, G_STRUCT_OFFSET (ChronoInterval, end), start + 1);
      guint sync = sync_ending_in (g->data, next->launch_track, start, host_end);
      gint64 t = start;

      /* Data loading where the thread loaded data; the rest of the wait
       * is the refill after a synchronisation if one drained the queue,
       * else plain host time. */
      for (; k < loading->len && v[k].start < host_end; k++)
        {
          push (segments, t, MAX (t, v[k].start),
                sync != G_MAXUINT32 ? CHRONO_LEDGER_IDLE_SYNC : CHRONO_LEDGER_IDLE_HOST, sync);
          t = MAX (t, v[k].start);
          push (segments, t, MIN (v[k].end, host_end), CHRONO_LEDGER_IDLE_DATA, G_MAXUINT32);
          t = MAX (t, MIN (v[k].end, host_end));
        }
      push (segments, t, host_end, sync != G_MAXUINT32 ? CHRONO_LEDGER_IDLE_SYNC : CHRONO_LEDGER_IDLE_HOST, sync);
      push (segments, host_end, launched, CHRONO_LEDGER_IDLE_LAUNCH, G_MAXUINT32);
      push (segments, launched, end, CHRONO_LEDGER_IDLE_OTHER, G_MAXUINT32);
    }
  else if (end - start < g->th->idle_gap_min_ns)
    /* Queued work that started a little after its stream was free: the
     * device's own latency between launches. */
    push (segments, start, end, CHRONO_LEDGER_IDLE_LAUNCH, G_MAXUINT32);
  else if (launch == G_MININT64)
    {
      /* No launch recorded: a synchronisation ending in the gap still
       * explains it. */
      guint sync = sync_ending_in (g->data, G_MAXUINT32, start, end);
      push (segments, start, end, sync != G_MAXUINT32 ? CHRONO_LEDGER_IDLE_SYNC : CHRONO_LEDGER_IDLE_OTHER, sync);
    }
  else
    push (segments, start, end, CHRONO_LEDGER_IDLE_OTHER, G_MAXUINT32);
}

/* Turns communication time before the last rank arrived at each matched
 * collective into waiting for a peer. WAITS are sorted, disjoint. */
static void
carve_peer_waits (GArray *segments,
                  GArray *waits)
{
  g_autoptr(GArray) out = g_array_sized_new (FALSE, FALSE, sizeof (ChronoLedgerSegment), segments->len);
  const ChronoInterval *w = (const ChronoInterval *) waits->data;
  guint k = 0;

  for (guint i = 0; i < segments->len; i++)
    {
      ChronoLedgerSegment s = g_array_index (segments, ChronoLedgerSegment, i);
      gint64 t = s.start;

      if (s.state != CHRONO_LEDGER_COMMUNICATION)
        {
          push (out, s.start, s.end, s.state, s.cause);
          continue;
        }
      while (k < waits->len && w[k].end <= t)
        k++;
      for (guint j = k; j < waits->len && w[j].start < s.end; j++)
        {
          push (out, t, MAX (t, w[j].start), CHRONO_LEDGER_COMMUNICATION, s.cause);
          t = MAX (t, w[j].start);
          push (out, t, MIN (w[j].end, s.end), CHRONO_LEDGER_IDLE_PEER, w[j].first);
          t = MAX (t, MIN (w[j].end, s.end));
        }
      push (out, t, s.end, CHRONO_LEDGER_COMMUNICATION, s.cause);
    }
  g_array_set_size (segments, 0);
  g_array_append_vals (segments, out->data, out->len);
}

void
chrono_rank_data_build_ledgers (ChronoRankData                 *data,
                                GArray                         *peer_waits,
                                const ChronoAnalysisThresholds *thresholds)
{
  g_autofree guint8 *is_loader = g_new0 (guint8, chrono_trace_get_n_strings (data->trace));
  g_autoptr(GHashTable) loading = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  GapCtx g = { data, thresholds, loading, is_loader };

  for (guint di = 0; di < data->devices->len; di++)
    {
      ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;
      GArray *classes[3] = { d->compute, d->communication, d->copies };
      guint pos[3] = { 0, 0, 0 };

      if (chrono_neuron_is_core (data->trace, d))
        {
          chrono_neuron_build_ledger (data, di);
          continue;
        }
      d->ledger = g_array_new (FALSE, FALSE, sizeof (ChronoLedgerSegment));
      for (guint i = 0; i < d->busy->len; i++)
        {
          const ChronoInterval *v = &g_array_index (d->busy, ChronoInterval, i);
          if (i > 0)
            push_gap (&g, d->ledger, g_array_index (d->busy, ChronoInterval, i - 1).end, v->start, &items[v->first]);
          push_busy (d->ledger, classes, pos, v->start, v->end);
        }
      if (peer_waits && di < peer_waits->len && g_array_index (peer_waits, GArray *, di))
        carve_peer_waits (d->ledger, g_array_index (peer_waits, GArray *, di));
    }
}

/* Host thread states, in their order of precedence. */
enum { HOST_SYNC, HOST_DATA, HOST_LAUNCH, HOST_RUN, N_HOST_STATES };

/* Adds an interval of state CLS to the union of each state with those
 * before it in precedence; intervals come by start. */
static inline void
add_host_interval (ChronoRun prefix[N_HOST_STATES],
                   guint     cls,
                   gint64    start,
                   gint64    end)
{
  for (guint c = cls; c < N_HOST_STATES; c++)
    chrono_run_add (&prefix[c], start, end);
}

static void
host_ledger (ChronoRankData *data,
             guint32         thread,
             guint8         *kind_of,
             GArray         *out)
{
  ChronoTrace *trace = data->trace;
  const ChronoTrack *t = chrono_trace_get_track (trace, thread);
  const ChronoSyncWait *syncs = (const ChronoSyncWait *) data->syncs->data;
  ChronoRun prefix[N_HOST_STATES] = { { 0 } };
  ChronoHostLedgerRow row = { data->rank_index, data->trace_index, thread, G_MAXINT64, G_MININT64 };
  gint64 u[N_HOST_STATES];
  guint k = 0;

  /* Spans and the thread's waits both come by start: each state's union
   * with those before it is merged as they are read, in one pass. */
  for (guint32 i = 0; i < t->n_spans; i++)
    {
      guint32 name = chrono_track_get_name (t, i);
      gint64 start = MAX (t->start[i], data->range_start);
      gint64 end = MIN (chrono_track_get_end (t, i), data->range_end);
      guint cls = HOST_RUN;

      if (end <= start)
        continue;
      for (; k < data->syncs->len && syncs[k].start <= start; k++)
        if (syncs[k].track == thread && syncs[k].device >= 0)
          add_host_interval (prefix, HOST_SYNC, syncs[k].start, syncs[k].end);
      if (kind_of[name] == 0)
        {
          const char *text = chrono_trace_get_string (trace, name);
          kind_of[name] = chrono_analysis_name_is_data_loading (text) ? 2
                          : strstr (text, "Launch") != NULL ? 3 : 1;
        }
      if (kind_of[name] == 2)
        cls = HOST_DATA;
      else if (kind_of[name] == 3 && (t->kind[i] == CHRONO_KIND_RUNTIME || t->kind[i] == CHRONO_KIND_DRIVER))
        cls = HOST_LAUNCH;
      row.start_ns = MIN (row.start_ns, start);
      row.end_ns = MAX (row.end_ns, end);
      add_host_interval (prefix, cls, start, end);
    }
  for (; k < data->syncs->len; k++)
    if (syncs[k].track == thread && syncs[k].device >= 0)
      add_host_interval (prefix, HOST_SYNC, syncs[k].start, syncs[k].end);
  if (row.end_ns <= row.start_ns)
    return;
  for (guint c = 0; c < N_HOST_STATES; c++)
    u[c] = chrono_run_length (&prefix[c]);
  row.sync_ns = u[HOST_SYNC];
  row.data_loading_ns = u[HOST_DATA] - u[HOST_SYNC];
  row.launch_ns = u[HOST_LAUNCH] - u[HOST_DATA];
  row.running_ns = u[HOST_RUN] - u[HOST_LAUNCH];
  row.untraced_ns = (row.end_ns - row.start_ns) - u[HOST_RUN];
  g_array_append_val (out, row);
}

static gint
compare_pointers (gconstpointer a,
                  gconstpointer b)
{
  return (GPOINTER_TO_UINT (a) > GPOINTER_TO_UINT (b)) - (GPOINTER_TO_UINT (a) < GPOINTER_TO_UINT (b));
}

void
chrono_rank_data_host_ledgers (ChronoRankData *data,
                               GArray         *out)
{
  g_autoptr(GHashTable) threads = g_hash_table_new (NULL, NULL);
  g_autofree guint8 *kind_of = g_new0 (guint8, chrono_trace_get_n_strings (data->trace));
  g_autoptr(GList) keys = NULL;

  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      for (guint k = 0; k < d->items->len; k++)
        {
          const ChronoWorkItem *it = &g_array_index (d->items, ChronoWorkItem, k);
          if (it->launch_start != G_MININT64)
            g_hash_table_add (threads, GUINT_TO_POINTER (it->launch_track + 1));
        }
    }
  keys = g_list_sort (g_hash_table_get_keys (threads), compare_pointers);
  for (GList *l = keys; l; l = l->next)
    host_ledger (data, GPOINTER_TO_UINT (l->data) - 1, kind_of, out);
}

/* ------------------------------------------------------------------ */
/* Reading and claiming                                               */

static guint
first_segment (GArray *ledger,
               gint64  start)
{
  const ChronoLedgerSegment *s = (const ChronoLedgerSegment *) ledger->data;

  return chrono_lower_bound (s, ledger->len, sizeof *s, G_STRUCT_OFFSET (ChronoLedgerSegment, end), start + 1);
}

void
chrono_ledger_sum (GArray *ledger,
                   gint64  start,
                   gint64  end,
                   gint64  state_ns[CHRONO_N_LEDGER_STATES])
{
  const ChronoLedgerSegment *s = (const ChronoLedgerSegment *) ledger->data;

  for (guint i = first_segment (ledger, start); i < ledger->len && s[i].start < end; i++)
    state_ns[s[i].state] += MIN (s[i].end, end) - MAX (s[i].start, start);
}

gint64
chrono_ledger_time_in (GArray *ledger,
                       gint64  start,
                       gint64  end,
                       guint   states)
{
  gint64 sum[CHRONO_N_LEDGER_STATES] = { 0 };
  gint64 total = 0;

  chrono_ledger_sum (ledger, start, end, sum);
  for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
    if (states & (1u << k))
      total += sum[k];
  return total;
}

gint64
chrono_ledger_claimed_in (GArray *ledger,
                          gint64  start,
                          gint64  end)
{
  const ChronoLedgerSegment *s = (const ChronoLedgerSegment *) ledger->data;
  gint64 total = 0;

  /* A segment partly inside counts in proportion, at most its claims. */
  for (guint i = first_segment (ledger, start); i < ledger->len && s[i].start < end; i++)
    {
      gint64 inside = MIN (s[i].end, end) - MAX (s[i].start, start);
      total += MIN (s[i].claimed, inside);
    }
  return total;
}

/* Claims from the segments of STATES inside [START, END), at most LIMIT,
 * only where CAUSE matches (G_MAXUINT32: any). Returns what it took. */
static gint64
claim_range (ChronoClaim *claim,
             GArray      *ledger,
             gint64       start,
             gint64       end,
             guint        states,
             guint32      cause,
             gint64       limit,
             gboolean     take)
{
  ChronoLedgerSegment *s = (ChronoLedgerSegment *) ledger->data;
  gint64 got = 0;

  for (guint i = first_segment (ledger, start); i < ledger->len && s[i].start < end && got < limit; i++)
    {
      gint64 inside, free, n;

      if ((states & (1u << s[i].state)) == 0 || (cause != G_MAXUINT32 && s[i].cause != cause))
        continue;
      inside = MIN (s[i].end, end) - MAX (s[i].start, start);
      free = (s[i].end - s[i].start) - s[i].claimed;
      n = MIN (MIN (inside, free), limit - got);
      if (n <= 0)
        continue;
      got += n;
      s[i].claimed += n;
      if (take)
        {
          claim->first = MIN (claim->first, MAX (s[i].start, start));
          claim->last = MAX (claim->last, MIN (s[i].end, end));
        }
      else
        g_array_append_val (claim->trial, ((ChronoClaimTrial) { ledger, i, n }));
    }
  return got;
}

void
chrono_claim_init (ChronoClaim *claim)
{
  *claim = (ChronoClaim) {
    .parts = g_array_new (FALSE, FALSE, sizeof (ChronoClaimPart)),
    .trial = g_array_new (FALSE, FALSE, sizeof (ChronoClaimTrial)),
    .first = G_MAXINT64,
    .last = G_MININT64,
  };
}

void
chrono_claim_clear (ChronoClaim *claim)
{
  g_clear_pointer (&claim->parts, g_array_unref);
  g_clear_pointer (&claim->trial, g_array_unref);
}

void
chrono_claim_add (ChronoClaim    *claim,
                  ChronoRankData *data,
                  guint           device,
                  gint64          start,
                  gint64          end,
                  guint           states,
                  guint32         cause,
                  gint64          limit)
{
  /* Where the trace lost device work, idle time may have been busy. */
  if (data->device_incomplete)
    states &= ~CHRONO_LEDGER_IDLE_MASK;
  if (end > start && limit > 0 && states != 0)
    g_array_append_val (claim->parts, ((ChronoClaimPart) { data, device, start, end, states, cause, limit }));
}

void
chrono_claim_add_rank (ChronoClaim    *claim,
                       ChronoRankData *data,
                       gint64          start,
                       gint64          end,
                       guint           states)
{
  for (guint di = 0; di < data->devices->len; di++)
    chrono_claim_add (claim, data, di, start, end, states, G_MAXUINT32, G_MAXINT64);
}

/* Measures (TAKE false) or takes what the claim's parts can get, at most
 * LIMIT in all, in the order the parts were added. */
static gint64
claim_walk (ChronoClaim *claim,
            gint64       limit,
            gboolean     take,
            GArray      *shares)
{
  gint64 got = 0;

  for (guint i = 0; i < claim->parts->len && got < limit; i++)
    {
      const ChronoClaimPart *p = &g_array_index (claim->parts, ChronoClaimPart, i);
      ChronoDeviceWork *d = &g_array_index (p->data->devices, ChronoDeviceWork, p->device);
      gint64 n = claim_range (claim, d->ledger, p->start, p->end, p->states, p->cause, MIN (p->limit, limit - got), take);

      got += n;
      if (shares && n > 0)
        {
          gboolean found = FALSE;
          for (guint k = 0; k < shares->len && !found; k++)
            {
              ChronoClaimShare *s = &g_array_index (shares, ChronoClaimShare, k);
              if (s->breakdown == d->breakdown)
                {
                  s->ns += n;
                  found = TRUE;
                }
            }
          if (!found)
            g_array_append_val (shares, ((ChronoClaimShare) { d->breakdown, n }));
        }
    }
  return got;
}

/* Parts may overlap: measuring takes the time as taking would, so no
 * nanosecond counts twice, then gives it back. */
gint64
chrono_claim_measure (ChronoClaim *claim,
                      gint64       limit)
{
  gint64 got = claim_walk (claim, limit, FALSE, NULL);

  memset (claim->state_ns, 0, sizeof claim->state_ns);
  for (guint i = 0; i < claim->trial->len; i++)
    {
      const ChronoClaimTrial *t = &g_array_index (claim->trial, ChronoClaimTrial, i);
      ChronoLedgerSegment *s = &g_array_index (t->ledger, ChronoLedgerSegment, t->segment);

      s->claimed -= t->ns;
      claim->state_ns[s->state] += t->ns;
    }
  g_array_set_size (claim->trial, 0);
  return got;
}

gint64
chrono_claim_take (ChronoClaim *claim,
                   gint64       limit,
                   GArray      *shares)
{
  return claim_walk (claim, limit, TRUE, shares);
}
