/* chrono-analysis-graph.c: the dependency graph around one span
 *
 * Edges are found on demand from the model: nesting and order from the
 * track structure, launches and other flows from the trace's flows,
 * synchronisation from the host waits, collective peers by matching the
 * n-th collective of each rank.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-analysis-private.h"

#define MAX_SCAN 4096
#define MAX_CHILDREN 64

typedef struct {
  ChronoNodeRef  other;
  ChronoEdgeType type;
  gboolean       outgoing;   /* from the span to OTHER */
} Link;

static void
add_link (GArray         *out,
      guint32         trace,
      guint32         track,
      guint32         index,
      ChronoEdgeType  type,
      gboolean        outgoing)
{
  Link l = { { trace, { track, index } }, type, outgoing };
  g_array_append_val (out, l);
}

static void
structure_links (ChronoRankData *data,
                 ChronoSpanRef   span,
                 GArray         *out)
{
  const ChronoTrack *t = chrono_trace_get_track (data->trace, span.track);
  ChronoEdgeType order = t->type == CHRONO_TRACK_STREAM ? CHRONO_EDGE_STREAM_ORDER : CHRONO_EDGE_THREAD_ORDER;
  guint16 depth = t->depth[span.index];
  guint16 lane = t->lane[span.index];
  gint64 end = chrono_track_get_end (t, span.index);
  guint children = 0;
  gboolean found_prev = FALSE;

  /* Backwards: the previous sibling, then the parent. */
  for (guint32 k = span.index, n = 0; k-- > 0 && n < MAX_SCAN; n++)
    {
      if (t->lane[k] != lane || t->depth[k] > depth)
        continue;
      if (t->depth[k] == depth && !found_prev)
        {
          add_link (out, data->trace_index, span.track, k, order, FALSE);
          found_prev = TRUE;
        }
      else if (t->depth[k] + 1 == depth)
        {
          add_link (out, data->trace_index, span.track, k, CHRONO_EDGE_NESTING, FALSE);
          break;
        }
    }
  /* Forwards: the children, then the next sibling. */
  for (guint32 k = span.index + 1, n = 0; k < t->n_spans && n < MAX_SCAN; k++, n++)
    {
      if (t->lane[k] != lane)
        continue;
      if (t->depth[k] < depth)
        break;
      if (t->depth[k] == depth + 1 && t->start[k] < end && children++ < MAX_CHILDREN)
        add_link (out, data->trace_index, span.track, k, CHRONO_EDGE_NESTING, TRUE);
      else if (t->depth[k] == depth)
        {
          add_link (out, data->trace_index, span.track, k, order, TRUE);
          break;
        }
    }
}

static GHashTable *
flows_of (ChronoRankData *data)
{
  if (data->flows_of == NULL)
    {
      data->flows_of = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                              (GDestroyNotify) g_array_unref);
      for (guint f = 0; f < chrono_trace_get_n_flows (data->trace); f++)
        {
          const ChronoFlow *flow = chrono_trace_get_flow (data->trace, f);
          guint64 keys[2] = { chrono_span_key (flow->from.track, flow->from.index),
                              chrono_span_key (flow->to.track, flow->to.index) };

          for (guint e = 0; e < 2; e++)
            {
              GArray *list = g_hash_table_lookup (data->flows_of, &keys[e]);
              if (list == NULL)
                {
                  list = g_array_new (FALSE, FALSE, sizeof (guint));
                  g_hash_table_insert (data->flows_of, g_memdup2 (&keys[e], sizeof (guint64)), list);
                }
              g_array_append_val (list, f);
            }
        }
    }
  return data->flows_of;
}

static void
cross_links (ChronoRankData **ranks,
             guint            n_ranks,
             ChronoNodeRef    node,
             GArray          *out)
{
  ChronoRankData *data = chrono_analysis_rank_of_node (ranks, n_ranks, node);
  guint64 key = chrono_span_key (node.span.track, node.span.index);
  GArray *flows = g_hash_table_lookup (flows_of (data), &key);

  for (guint i = 0; flows && i < flows->len; i++)
    {
      const ChronoFlow *f = chrono_trace_get_flow (data->trace, g_array_index (flows, guint, i));
      ChronoEdgeType type = f->type == CHRONO_FLOW_LAUNCH ? CHRONO_EDGE_LAUNCH : CHRONO_EDGE_FLOW;
      gboolean outgoing = f->from.track == node.span.track && f->from.index == node.span.index;
      ChronoSpanRef other = outgoing ? f->to : f->from;

      add_link (out, node.trace, other.track, other.index, type, outgoing);
    }

  for (guint i = 0; i < data->syncs->len; i++)
    {
      const ChronoSyncWait *s = &g_array_index (data->syncs, ChronoSyncWait, i);
      const ChronoWorkItem *it;

      if (s->device < 0)
        continue;
      it = &g_array_index (g_array_index (data->devices, ChronoDeviceWork, s->device).items, ChronoWorkItem, s->item);
      if (s->track == node.span.track && s->index == node.span.index)
        add_link (out, node.trace, it->track, it->index, CHRONO_EDGE_SYNC, FALSE);
      else if (it->track == node.span.track && it->index == node.span.index)
        add_link (out, node.trace, s->track, s->index, CHRONO_EDGE_SYNC, TRUE);
    }

  /* Event waits; flows between streams came with the flows above. */
  for (guint i = 0; i < data->deps->len; i++)
    {
      const ChronoWorkDep *d = &g_array_index (data->deps, ChronoWorkDep, i);
      const ChronoWorkItem *from, *to;

      if (d->type != CHRONO_EDGE_EVENT_WAIT)
        continue;
      from = &g_array_index (g_array_index (data->devices, ChronoDeviceWork, d->from_device).items, ChronoWorkItem, d->from_item);
      to = &g_array_index (g_array_index (data->devices, ChronoDeviceWork, d->to_device).items, ChronoWorkItem, d->to_item);
      if (from->track == node.span.track && from->index == node.span.index)
        add_link (out, node.trace, to->track, to->index, CHRONO_EDGE_EVENT_WAIT, TRUE);
      if (to->track == node.span.track && to->index == node.span.index)
        add_link (out, node.trace, from->track, from->index, CHRONO_EDGE_EVENT_WAIT, FALSE);
    }

  for (guint r = 0; r < n_ranks; r++)
    {
      ChronoSpanRef peer;
      if (chrono_analysis_collective_peer (ranks, n_ranks, node.trace, node.span, r, &peer))
        add_link (out, ranks[r]->trace_index, peer.track, peer.index, CHRONO_EDGE_COLLECTIVE, TRUE);
    }
}

static guint
node_hash (gconstpointer p)
{
  const ChronoNodeRef *n = p;
  return (n->trace * 2654435761u) ^ (n->span.track * 40503u) ^ n->span.index;
}

static gboolean
node_equal (gconstpointer a,
            gconstpointer b)
{
  const ChronoNodeRef *x = a;
  const ChronoNodeRef *y = b;
  return x->trace == y->trace && x->span.track == y->span.track && x->span.index == y->span.index;
}

ChronoSubgraph *
chrono_analysis_dup_neighbourhood (ChronoAnalysis *self,
                                   ChronoNodeRef   centre,
                                   guint           max_hops,
                                   guint           max_nodes)
{
  guint n_ranks;
  ChronoRankData **ranks = chrono_analysis_get_ranks (self, &n_ranks);
  ChronoSubgraph *g = g_new0 (ChronoSubgraph, 1);
  g_autoptr(GHashTable) index_of = g_hash_table_new (node_hash, node_equal);
  g_autoptr(GHashTable) on_path = g_hash_table_new (node_hash, node_equal);
  g_autoptr(GHashTable) edges_seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) edge_keys = g_ptr_array_new_with_free_func (g_free);

  g->nodes = g_array_new (FALSE, FALSE, sizeof (ChronoGraphNode));
  g->edges = g_array_new (FALSE, FALSE, sizeof (ChronoGraphEdge));
  g_return_val_if_fail (centre.trace < chrono_analysis_get_n_traces (self), g);
  g_return_val_if_fail (centre.span.track < chrono_trace_get_n_tracks (chrono_analysis_get_trace (self, centre.trace)), g);
  g_return_val_if_fail (centre.span.index < chrono_trace_get_track (chrono_analysis_get_trace (self, centre.trace),
                                                                      centre.span.track)->n_spans, g);
  g_return_val_if_fail (chrono_analysis_rank_of_node (ranks, n_ranks, centre) != NULL, g);

  for (guint i = 0; i < chrono_analysis_get_n_paths (self); i++)
    {
      const ChronoCriticalPath *p = chrono_analysis_get_path (self, i);
      for (guint k = 0; k < p->n_segments; k++)
        if (p->segments[k].has_node)
          g_hash_table_add (on_path, (gpointer) &p->segments[k].node);
    }

  {
    ChronoGraphNode first = { .ref = centre };
    g_array_append_val (g->nodes, first);
  }
  /* Node 0's ref lives in the array: key by a copy that does not move. */
  for (guint at = 0; at < g->nodes->len; at++)
    {
      ChronoGraphNode *n = &g_array_index (g->nodes, ChronoGraphNode, at);
      ChronoNodeRef ref = n->ref;
      guint distance = n->distance;
      ChronoRankData *rank = chrono_analysis_rank_of_node (ranks, n_ranks, ref);
      const ChronoTrack *t = chrono_trace_get_track (rank->trace, ref.span.track);
      g_autoptr(GArray) links = g_array_new (FALSE, FALSE, sizeof (Link));

      n->start_ns = t->start[ref.span.index];
      n->end_ns = n->start_ns + chrono_track_get_dur (t, ref.span.index);
      n->on_critical_path = g_hash_table_contains (on_path, &ref);
      if (at == 0)
        g_hash_table_insert (index_of, g_memdup2 (&ref, sizeof ref), GUINT_TO_POINTER (1));

      structure_links (rank, ref.span, links);
      cross_links (ranks, n_ranks, ref, links);
      for (guint i = 0; i < links->len; i++)
        {
          const Link *l = &g_array_index (links, Link, i);
          gpointer found = g_hash_table_lookup (index_of, &l->other);
          guint other;
          ChronoGraphEdge e;
          char *key;

          if (found)
            other = GPOINTER_TO_UINT (found) - 1;
          else if (distance < max_hops && g->nodes->len < max_nodes)
            {
              ChronoGraphNode next = { .ref = l->other, .distance = distance + 1 };
              other = g->nodes->len;
              g_array_append_val (g->nodes, next);
              n = &g_array_index (g->nodes, ChronoGraphNode, at);
              g_hash_table_insert (index_of, g_memdup2 (&l->other, sizeof l->other), GUINT_TO_POINTER (other + 1));
            }
          else
            continue;
          e = l->outgoing ? (ChronoGraphEdge) { at, other, l->type } : (ChronoGraphEdge) { other, at, l->type };
          key = g_strdup_printf ("%u %u %d", e.from, e.to, e.type);
          if (g_hash_table_contains (edges_seen, key))
            {
              g_free (key);
              continue;
            }
          g_hash_table_add (edges_seen, key);
          g_ptr_array_add (edge_keys, key);
          g_array_append_val (g->edges, e);
        }
    }
  /* The keys of index_of were duplicated; free them. */
  {
    GHashTableIter iter;
    gpointer k;
    g_hash_table_iter_init (&iter, index_of);
    while (g_hash_table_iter_next (&iter, &k, NULL))
      g_free (k);
  }
  return g;
}
