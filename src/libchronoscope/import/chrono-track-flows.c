/* chrono-track-flows.c: flow events bound to the spans of the laid-out
 * tracks, flow v1 chains and v2 binds linked, and runtime calls to the GPU
 * work they launched
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-track-builder-private.h"

#define REF_UNBOUND G_MAXUINT32   /* an event bound to no span */

/* The deepest span enclosing TS, given LAST, the last span starting at or
 * before TS: walking back from it, only shallower spans can still be
 * ancestors. */
static gint64
find_enclosing (const ChronoTrackBuilder *b,
                gint64                    ts,
                gint64                    last)
{
  const ChronoTrack *t = &b->track;
  guint min_depth = G_MAXUINT;

  for (gint64 i = last; i >= 0; i--)
    {
      if (t->lane[i] != 0)
        {
          if (chrono_track_get_end (t, i) >= ts)
            return i;
          continue;
        }
      if (t->depth[i] >= min_depth)
        continue;
      if (chrono_track_get_end (t, i) >= ts)
        return i;
      min_depth = t->depth[i];
      if (min_depth == 0)
        break;
    }
  return -1;
}

/* Binds each flow event to a span of its track. Events are visited track
 * by track in time order, so one cursor per track walks the spans forward
 * instead of a binary search per event: a million flows of a large trace
 * would otherwise spend most of their time in cache misses. */
static void
bind_flow_events (const ChronoFlowEvent *ev,
                  const guint32         *order,
                  guint32                n,
                  guint                  n_tracks,
                  GPtrArray             *builders,
                  ChronoSpanRef         *refs)
{
  g_autofree guint32 *first = g_new0 (guint32, n_tracks + 1);
  g_autofree guint32 *by_track = g_new (guint32, MAX (n, 1));
  g_autofree const ChronoTrackBuilder **tracks = g_new0 (const ChronoTrackBuilder *, MAX (n_tracks, 1));

  for (guint i = 0; i < builders->len; i++)
    {
      const ChronoTrackBuilder *b = g_ptr_array_index (builders, i);
      if (b->final_index != G_MAXUINT32)
        tracks[b->final_index] = b;
    }
  for (guint32 k = 0; k < n; k++)
    {
      guint32 t = ev[k].track->final_index;
      if (t != G_MAXUINT32)
        first[t + 1]++;
      refs[k] = (ChronoSpanRef) { REF_UNBOUND, 0 };
    }
  for (guint t = 0; t < n_tracks; t++)
    first[t + 1] += first[t];
  {
    g_autofree guint32 *fill = g_memdup2 (first, (n_tracks + 1) * sizeof *first);

    for (guint32 k = 0; k < n; k++)
      {
        guint32 e = order ? order[k] : k;
        guint32 t = ev[e].track->final_index;
        if (t != G_MAXUINT32)
          by_track[fill[t]++] = e;
      }
  }

  for (guint t = 0; t < n_tracks; t++)
    {
      const ChronoTrack *track = &tracks[t]->track;
      guint32 at_or_before = 0;   /* spans starting at or before the event */
      guint32 before = 0;         /* spans starting before it */

      for (guint32 j = first[t]; j < first[t + 1]; j++)
        {
          const ChronoFlowEvent *f = &ev[by_track[j]];
          gint64 i;

          while (at_or_before < track->n_spans && track->start[at_or_before] <= f->ts)
            at_or_before++;
          while (before < track->n_spans && track->start[before] < f->ts)
            before++;
          if (f->enclosing)
            i = find_enclosing (tracks[t], f->ts, (gint64) at_or_before - 1);
          else
            i = before < track->n_spans ? (gint64) before : -1;
          if (i >= 0)
            refs[by_track[j]] = (ChronoSpanRef) { t, (guint32) i };
        }
    }
}

static void
add_flow (GArray         *flows,
          ChronoSpanRef   from,
          ChronoSpanRef   to,
          ChronoFlowType  type)
{
  ChronoFlow flow = { from, to, type };
  g_array_append_val (flows, flow);
}

/* 64-bit key -> span, open addressing. Flows and launches come by the
 * million; GHashTable's allocation per entry shows there. */
typedef struct {
  guint64       *keys;
  ChronoSpanRef *refs;
  guint8        *used;
  guint64        mask;
} RefMap;


static void
ref_map_init (RefMap  *map,
              guint64  n)
{
  guint64 size = 16;

  while (size < 2 * n)
    size *= 2;
  map->mask = size - 1;
  map->keys = g_new (guint64, size);
  map->refs = g_new (ChronoSpanRef, size);
  map->used = g_new0 (guint8, size);
}

static void
ref_map_clear (RefMap *map)
{
  g_free (map->keys);
  g_free (map->refs);
  g_free (map->used);
}

/* The entry for KEY; with CREATE, a new one (its ref unset) if absent. */
static ChronoSpanRef *
ref_map_find (RefMap   *map,
              guint64   key,
              gboolean  create)
{
  guint64 i = (key * 0x9e3779b97f4a7c15ull >> 17) & map->mask;

  while (map->used[i])
    {
      if (map->keys[i] == key)
        return &map->refs[i];
      i = (i + 1) & map->mask;
    }
  if (!create)
    return NULL;
  map->used[i] = 1;
  map->keys[i] = key;
  map->refs[i] = (ChronoSpanRef) { REF_UNBOUND, 0 };
  return &map->refs[i];
}

guint64
chrono_track_bind_v1_flows (GArray    *events,
                            guint      n_tracks,
                            GPtrArray *builders,
                            GArray    *flows,
                            guint64   *no_start)
{
  ChronoFlowEvent *ev = (ChronoFlowEvent *) events->data;
  guint32 n = events->len;
  g_autofree gint64 *ts = g_new (gint64, MAX (n, 1));
  g_autofree ChronoSpanRef *refs = g_new (ChronoSpanRef, MAX (n, 1));
  g_autofree guint32 *order = NULL;
  RefMap open;
  guint64 unmatched = 0;
  guint32 n_keys = 0;

  for (guint32 i = 0; i < n; i++)
    {
      ts[i] = ev[i].ts;
      n_keys += ev[i].ph != 'f';
    }
  order = chrono_track_sort_order (ts, NULL, n);
  bind_flow_events (ev, order, n, n_tracks, builders, refs);
  /* Only an 's' or a 't' adds a key: the map is sized for those. */
  ref_map_init (&open, n_keys);

  for (guint32 k = 0; k < n; k++)
    {
      guint32 e = order ? order[k] : k;
      const ChronoFlowEvent *f = &ev[e];
      ChronoSpanRef *last = ref_map_find (&open, f->key, f->ph != 'f');

      if (f->ph != 's')
        {
          if (last == NULL)
            {
              /* Only an 'f' looks without making: an end of an id that
               * never started. */
              unmatched++;
              if (refs[e].track != REF_UNBOUND)
                (*no_start)++;
            }
          else if (last->track == REF_UNBOUND || refs[e].track == REF_UNBOUND)
            unmatched++;
          else
            add_flow (flows, *last, refs[e], CHRONO_FLOW_V1);
        }
      /* An 'f' keeps the flow open: one launch of a CUDA graph fans out
       * to many kernels with the same id. */
      if (f->ph != 'f')
        *last = refs[e];
    }
  ref_map_clear (&open);
  return unmatched;
}

void
chrono_track_bind_v2_flows (GArray *binds,
                            GArray *flows)
{
  ChronoV2Bind *bv = (ChronoV2Bind *) binds->data;
  guint32 n = binds->len;
  g_autofree gint64 *ts = g_new (gint64, MAX (n, 1));
  g_autofree guint32 *order = NULL;
  RefMap open;

  for (guint32 i = 0; i < n; i++)
    ts[i] = bv[i].ts;
  order = chrono_track_sort_order (ts, NULL, n);
  ref_map_init (&open, n);

  for (guint32 k = 0; k < n; k++)
    {
      ChronoV2Bind *b = &bv[order ? order[k] : k];
      ChronoSpanRef ref;
      ChronoSpanRef *last;

      if (b->track->final_index == G_MAXUINT32 || b->span >= CHRONO_BIND_SAME_SPAN)
        continue;
      ref.track = b->track->final_index;
      ref.index = b->track->new_index ? b->track->new_index[b->span] : b->span;
      last = ref_map_find (&open, b->key, b->out);
      if (b->in && last != NULL && last->track != REF_UNBOUND)
        add_flow (flows, *last, ref, CHRONO_FLOW_V2);
      /* A flow_in without flow_out ends the flow. */
      if (last != NULL)
        *last = b->out ? ref : (ChronoSpanRef) { REF_UNBOUND, 0 };
    }
  ref_map_clear (&open);
}

/* A runtime call and the GPU work it launched share a correlation id. */
static inline gboolean
is_launch (const ChronoTrack *t,
           guint32            i,
           gint64             correlation)
{
  return correlation >= 0 && (t->kind[i] == CHRONO_KIND_RUNTIME || t->kind[i] == CHRONO_KIND_DRIVER);
}

/* The tracks of TYPE that have correlations and became rows. */
static inline gboolean
has_correlations (const ChronoTrackBuilder *b,
                  ChronoTrackType           type)
{
  return b->final_index != G_MAXUINT32 && b->track.correlation.data != NULL && b->track.type == type;
}

void
chrono_track_link_launches (GPtrArray *builders,
                            GArray    *flows)
{
  RefMap launches;
  guint64 n = 0;

  /* Sized for the launches alone: most host spans with a correlation do
   * not launch, and the map is the largest thing a load holds then. */
  for (guint bi = 0; bi < builders->len; bi++)
    {
      const ChronoTrackBuilder *b = g_ptr_array_index (builders, bi);
      const ChronoTrack *t = &b->track;

      if (has_correlations (b, CHRONO_TRACK_THREAD))
        CHRONO_INT_COLUMN_FOREACH (&t->correlation, t->n_spans, i, correlation,
                                   n += is_launch (t, i, correlation););
    }
  ref_map_init (&launches, n);

  for (guint bi = 0; bi < builders->len; bi++)
    {
      const ChronoTrackBuilder *b = g_ptr_array_index (builders, bi);
      const ChronoTrack *t = &b->track;

      if (!has_correlations (b, CHRONO_TRACK_THREAD))
        continue;
      CHRONO_INT_COLUMN_FOREACH (&t->correlation, t->n_spans, i, correlation,
        if (is_launch (t, i, correlation))
          {
            /* The first launch with an id wins. */
            ChronoSpanRef *ref = ref_map_find (&launches, (guint64) correlation, FALSE);
            if (ref == NULL)
              *ref_map_find (&launches, (guint64) correlation, TRUE) = (ChronoSpanRef) { b->final_index, i };
          });
    }

  for (guint bi = 0; bi < builders->len; bi++)
    {
      const ChronoTrackBuilder *b = g_ptr_array_index (builders, bi);
      const ChronoTrack *t = &b->track;

      if (!has_correlations (b, CHRONO_TRACK_STREAM))
        continue;
      CHRONO_INT_COLUMN_FOREACH (&t->correlation, t->n_spans, i, correlation,
        const ChronoSpanRef *from = correlation >= 0 ? ref_map_find (&launches, (guint64) correlation, FALSE) : NULL;

        if (from != NULL)
          add_flow (flows, *from, (ChronoSpanRef) { b->final_index, i }, CHRONO_FLOW_LAUNCH););
    }
  ref_map_clear (&launches);
}

/* Some profilers link an operator to its device work by a flow alone,
 * with no runtime call and no correlation between them (torch_npu's
 * "async_npu" flows when it records no CANN calls). A flow from a host
 * thread's span to a stream's span that nothing else launched is then
 * that span's launch: the first such flow, by the order they were bound.
 * Which spans are launched is a bit per span of the streams flows reach,
 * not a map: a large trace has millions of launches. */
static inline gboolean
host_to_stream (const ChronoTrack **track,
                const ChronoFlow   *f)
{
  return track[f->from.track]->type == CHRONO_TRACK_THREAD && track[f->to.track]->type == CHRONO_TRACK_STREAM;
}

void
chrono_track_promote_launch_flows (GPtrArray *builders,
                                   guint      n_tracks,
                                   GArray    *flows,
                                   GArray    *launches)
{
  g_autofree const ChronoTrack **track = g_new0 (const ChronoTrack *, MAX (n_tracks, 1));
  g_autofree guint8 **launched = NULL;
  guint kept = 0, candidates = 0;

  for (guint bi = 0; bi < builders->len; bi++)
    {
      const ChronoTrackBuilder *b = g_ptr_array_index (builders, bi);

      if (b->final_index != G_MAXUINT32)
        track[b->final_index] = &b->track;
    }
  for (guint i = 0; i < flows->len; i++)
    candidates += host_to_stream (track, &g_array_index (flows, ChronoFlow, i));
  if (candidates == 0)
    return;

  launched = g_new0 (guint8 *, n_tracks);
  for (guint i = 0; i < flows->len; i++)
    {
      const ChronoFlow *f = &g_array_index (flows, ChronoFlow, i);

      if (host_to_stream (track, f) && launched[f->to.track] == NULL)
        launched[f->to.track] = g_malloc0 (track[f->to.track]->n_spans / 8 + 1);
    }
  for (guint i = 0; i < launches->len; i++)
    {
      const ChronoFlow *l = &g_array_index (launches, ChronoFlow, i);

      if (launched[l->to.track] != NULL)
        launched[l->to.track][l->to.index / 8] |= 1u << (l->to.index % 8);
    }
  for (guint i = 0; i < flows->len; i++)
    {
      ChronoFlow f = g_array_index (flows, ChronoFlow, i);
      guint8 *bits = launched[f.to.track];
      guint8 bit = 1u << (f.to.index % 8);

      if (host_to_stream (track, &f) && (bits[f.to.index / 8] & bit) == 0)
        {
          bits[f.to.index / 8] |= bit;
          f.type = CHRONO_FLOW_LAUNCH;
          g_array_append_val (launches, f);
          continue;
        }
      g_array_index (flows, ChronoFlow, kept++) = f;
    }
  g_array_set_size (flows, kept);
  for (guint t = 0; t < n_tracks; t++)
    g_free (launched[t]);
}

void
chrono_track_add_span_edges (ChronoTrace *trace,
                             GArray      *edges)
{
  for (guint i = 0; i < edges->len; i++)
    {
      const ChronoSpanEdge *e = &g_array_index (edges, ChronoSpanEdge, i);
      ChronoSpanRef from, to;

      if (e->from->final_index == G_MAXUINT32 || e->to->final_index == G_MAXUINT32)
        continue;
      from.track = e->from->final_index;
      from.index = e->from->new_index ? e->from->new_index[e->from_span] : e->from_span;
      to.track = e->to->final_index;
      to.index = e->to->new_index ? e->to->new_index[e->to_span] : e->to_span;
      add_flow (trace->flows, from, to, e->type);
      trace->stats.dependencies++;
    }
}
