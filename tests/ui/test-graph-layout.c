/* test-graph-layout.c: the layered drawing of dependency graphs: columns
 * follow the edges and time, nodes never overlap, sweeps remove crossings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-analysis.h"
#include "chrono-graph-layout.h"
#include "chrono-loader.h"
#include "test-utils.h"

#define REAL_TRACE "kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz"

/* Edges run left to right, and no node stands left of one that starts
 * before it. */
static void
assert_columns_follow_time (ChronoGraphLayout      *layout,
                            guint                   n_nodes,
                            const gint64           *start,
                            guint                   n_edges,
                            const ChronoLayoutEdge *edges)
{
  for (guint e = 0; e < n_edges; e++)
    {
      guint a = edges[e].from, b = edges[e].to;

      if (a == b)
        continue;
      if (start[b] < start[a] || (start[b] == start[a] && b < a))
        {
          guint t = a;
          a = b;
          b = t;
        }
      g_assert_cmpuint (chrono_graph_layout_get_layer (layout, a), <, chrono_graph_layout_get_layer (layout, b));
    }
  for (guint i = 0; i < n_nodes; i++)
    for (guint j = 0; j < n_nodes; j++)
      if (start[i] < start[j])
        g_assert_cmpuint (chrono_graph_layout_get_layer (layout, i), <=, chrono_graph_layout_get_layer (layout, j));
}

static void
assert_no_overlap (ChronoGraphLayout             *layout,
                   guint                          n_nodes,
                   const ChronoGraphLayoutParams *params)
{
  double width, height;

  chrono_graph_layout_get_size (layout, &width, &height);
  for (guint i = 0; i < n_nodes; i++)
    {
      double xi, yi;

      chrono_graph_layout_get_node_origin (layout, i, &xi, &yi);
      g_assert_cmpfloat (xi, >=, 0);
      g_assert_cmpfloat (yi, >=, -1e-6);
      g_assert_cmpfloat (xi + params->node_width, <=, width + 1e-6);
      g_assert_cmpfloat (yi + params->node_height, <=, height + 1e-6);
      for (guint j = i + 1; j < n_nodes; j++)
        {
          double xj, yj;

          chrono_graph_layout_get_node_origin (layout, j, &xj, &yj);
          g_assert_true (xi + params->node_width <= xj + 1e-6 || xj + params->node_width <= xi + 1e-6 ||
                         yi + params->node_height + params->node_gap <= yj + 1e-6 ||
                         yj + params->node_height + params->node_gap <= yi + 1e-6);
        }
    }
}

/* Each edge leaves its FROM node's side and reaches its TO node's side,
 * its polyline never going back in x. */
static void
assert_edges_attached (ChronoGraphLayout             *layout,
                       guint                          n_edges,
                       const ChronoLayoutEdge        *edges,
                       const ChronoGraphLayoutParams *params)
{
  for (guint e = 0; e < n_edges; e++)
    {
      const ChronoLayoutPoint *p;
      double fx, fy, tx, ty;
      guint n;

      p = chrono_graph_layout_get_edge_points (layout, e, &n);
      if (edges[e].from == edges[e].to)
        {
          g_assert_null (p);
          continue;
        }
      g_assert_nonnull (p);
      g_assert_cmpuint (n, >=, 2);
      chrono_graph_layout_get_node_origin (layout, edges[e].from, &fx, &fy);
      chrono_graph_layout_get_node_origin (layout, edges[e].to, &tx, &ty);
      g_assert_cmpfloat_with_epsilon (p[0].y, fy + params->node_height / 2, 1e-6);
      g_assert_cmpfloat_with_epsilon (p[n - 1].y, ty + params->node_height / 2, 1e-6);
      g_assert_true (p[0].x == fx || p[0].x == fx + params->node_width);
      g_assert_true (p[n - 1].x == tx || p[n - 1].x == tx + params->node_width);
      for (guint k = 1; k < n; k++)
        if (p[0].x < p[n - 1].x)
          g_assert_cmpfloat (p[k - 1].x, <=, p[k].x);
        else
          g_assert_cmpfloat (p[k - 1].x, >=, p[k].x);
    }
}

static void
check_layout (guint                   n_nodes,
              const gint64           *start,
              guint                   n_edges,
              const ChronoLayoutEdge *edges)
{
  g_autoptr(ChronoGraphLayout) layout = NULL;
  ChronoGraphLayoutParams params;

  chrono_graph_layout_params_init (&params);
  layout = chrono_graph_layout_new (n_nodes, start, n_edges, edges, &params);
  assert_columns_follow_time (layout, n_nodes, start, n_edges, edges);
  assert_no_overlap (layout, n_nodes, &params);
  assert_edges_attached (layout, n_edges, edges, &params);
}

static guint64
count_crossings (guint                   n_nodes,
                 const gint64           *start,
                 guint                   n_edges,
                 const ChronoLayoutEdge *edges,
                 guint                   sweeps)
{
  g_autoptr(ChronoGraphLayout) layout = NULL;
  ChronoGraphLayoutParams params;

  chrono_graph_layout_params_init (&params);
  params.sweeps = sweeps;
  layout = chrono_graph_layout_new (n_nodes, start, n_edges, edges, &params);
  return chrono_graph_layout_count_crossings (layout);
}

/* Five nodes wired in reverse to the five after them: time order has every
 * pair of edges cross; sorted by their neighbours, none do. */
static void
test_reversed_bipartite (void)
{
  gint64 start[10];
  ChronoLayoutEdge edges[5];

  for (guint i = 0; i < 10; i++)
    start[i] = i < 5 ? i : 100 + i;
  for (guint i = 0; i < 5; i++)
    edges[i] = (ChronoLayoutEdge) { i, 9 - i };

  g_assert_cmpuint (count_crossings (10, start, 5, edges, 0), ==, 10);
  g_assert_cmpuint (count_crossings (10, start, 5, edges, 12), ==, 0);
  check_layout (10, start, 5, edges);
}

/* A chain, an edge back in time, ties, a self-loop and an edge to a node
 * that is not there. */
static void
test_edge_cases (void)
{
  const gint64 start[] = { 0, 10, 10, 20, 5, 30 };
  const ChronoLayoutEdge edges[] = {
    { 0, 1 }, { 1, 3 }, { 3, 5 },   /* chain */
    { 3, 4 },                       /* drawn from 4, which starts first */
    { 1, 2 },                       /* same start: by index */
    { 2, 2 },                       /* to itself */
    { 0, 5 },                       /* long: bent through three columns */
  };
  g_autoptr(ChronoGraphLayout) layout = NULL;
  const ChronoLayoutPoint *points;
  ChronoGraphLayoutParams params;
  guint n;

  chrono_graph_layout_params_init (&params);
  layout = chrono_graph_layout_new (G_N_ELEMENTS (start), start, G_N_ELEMENTS (edges), edges, &params);
  g_assert_cmpuint (chrono_graph_layout_get_layer (layout, 0), ==, 0);
  g_assert_cmpuint (chrono_graph_layout_get_layer (layout, 4), ==, 0);
  g_assert_cmpuint (chrono_graph_layout_get_layer (layout, 1), ==, 1);
  g_assert_cmpuint (chrono_graph_layout_get_layer (layout, 2), ==, 2);
  g_assert_cmpuint (chrono_graph_layout_get_layer (layout, 3), ==, 2);
  g_assert_cmpuint (chrono_graph_layout_get_layer (layout, 5), ==, 3);
  g_assert_cmpuint (chrono_graph_layout_get_n_layers (layout), ==, 4);
  points = chrono_graph_layout_get_edge_points (layout, 6, &n);
  g_assert_cmpuint (n, ==, 2 + 2 * 2);
  /* Edge 3 runs from node 3 back to node 4. */
  points = chrono_graph_layout_get_edge_points (layout, 3, &n);
  g_assert_cmpfloat (points[0].x, >, points[n - 1].x);
  check_layout (G_N_ELEMENTS (start), start, G_N_ELEMENTS (edges), edges);

  /* Nothing at all. */
  g_clear_pointer (&layout, chrono_graph_layout_free);
  layout = chrono_graph_layout_new (0, NULL, 0, NULL, NULL);
  g_assert_cmpuint (chrono_graph_layout_get_n_layers (layout), ==, 0);
  g_assert_cmpuint (chrono_graph_layout_count_crossings (layout), ==, 0);
}

/* A random layered graph: sweeps must beat time order by a wide margin. */
static void
test_random_layers (void)
{
  const guint n_layers = 8, per_layer = 12, n_nodes = n_layers * per_layer;
  g_autofree gint64 *start = g_new (gint64, n_nodes);
  g_autoptr(GArray) edges = g_array_new (FALSE, FALSE, sizeof (ChronoLayoutEdge));
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  guint64 naive, swept;

  for (guint i = 0; i < n_nodes; i++)
    start[i] = (i / per_layer) * 1000 + g_rand_int_range (rand, 0, 100);
  for (guint l = 0; l + 1 < n_layers; l++)
    for (guint i = 0; i < per_layer; i++)
      {
        /* Each node feeds about two in the next layer, near its mirror. */
        for (guint k = 0; k < 2; k++)
          {
            guint to = (per_layer - 1 - i + g_rand_int_range (rand, -1, 2) + per_layer) % per_layer;
            ChronoLayoutEdge edge = { l * per_layer + i, (l + 1) * per_layer + to };
            g_array_append_val (edges, edge);
          }
      }

  naive = count_crossings (n_nodes, start, edges->len, (ChronoLayoutEdge *) edges->data, 0);
  swept = count_crossings (n_nodes, start, edges->len, (ChronoLayoutEdge *) edges->data, 12);
  g_test_message ("crossings: time order %" G_GUINT64_FORMAT ", after sweeps %" G_GUINT64_FORMAT, naive, swept);
  g_assert_cmpuint (naive, >, 0);
  g_assert_cmpuint (swept * 4, <, naive);
  check_layout (n_nodes, start, edges->len, (ChronoLayoutEdge *) edges->data);
}

/* The neighbourhood of a kernel in a real Kineto trace, 500 nodes. */
static void
test_real_neighbourhood (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (REAL_TRACE);
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(ChronoSubgraph) graph = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree gint64 *start = NULL;
  g_autofree ChronoLayoutEdge *edges = NULL;
  ChronoNodeRef centre = { 0 };
  gboolean found = FALSE;

  if (trace == NULL)
    return;
  analysis = chrono_analysis_run (&trace, 1, NULL, NULL, &error);
  g_assert_no_error (error);

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace) && !found; t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      for (guint i = track->n_spans / 2; i < track->n_spans && !found; i++)
        if (track->kind[i] == CHRONO_KIND_KERNEL)
          {
            centre.span.track = t;
            centre.span.index = i;
            found = TRUE;
          }
    }
  g_assert_true (found);

  graph = chrono_analysis_dup_neighbourhood (analysis, centre, 12, 500);
  g_assert_cmpuint (graph->nodes->len, >, 100);
  start = g_new (gint64, graph->nodes->len);
  for (guint i = 0; i < graph->nodes->len; i++)
    start[i] = g_array_index (graph->nodes, ChronoGraphNode, i).start_ns;
  edges = g_new (ChronoLayoutEdge, MAX (1, graph->edges->len));
  for (guint i = 0; i < graph->edges->len; i++)
    {
      const ChronoGraphEdge *edge = &g_array_index (graph->edges, ChronoGraphEdge, i);
      edges[i] = (ChronoLayoutEdge) { edge->from, edge->to };
    }
  g_test_message ("%u nodes, %u edges; crossings: time order %" G_GUINT64_FORMAT ", after sweeps %" G_GUINT64_FORMAT,
                  graph->nodes->len, graph->edges->len,
                  count_crossings (graph->nodes->len, start, graph->edges->len, edges, 0),
                  count_crossings (graph->nodes->len, start, graph->edges->len, edges, 12));
  g_assert_cmpuint (count_crossings (graph->nodes->len, start, graph->edges->len, edges, 12), <=,
                    count_crossings (graph->nodes->len, start, graph->edges->len, edges, 0));
  check_layout (graph->nodes->len, start, graph->edges->len, edges);
}

/* Whether the axis-aligned segment from A to B passes through the inside
 * of the rectangle at X, Y of size W by H. */
static gboolean
segment_enters (ChronoLayoutPoint a,
                ChronoLayoutPoint b,
                double            x,
                double            y,
                double            w,
                double            h)
{
  if (a.x == b.x)
    return a.x > x + 1e-6 && a.x < x + w - 1e-6 && MAX (a.y, b.y) > y + 1e-6 && MIN (a.y, b.y) < y + h - 1e-6;
  if (a.y == b.y)
    return a.y > y + 1e-6 && a.y < y + h - 1e-6 && MAX (a.x, b.x) > x + 1e-6 && MIN (a.x, b.x) < x + w - 1e-6;
  return FALSE;
}

/* A chain of 300 spans, as a long critical path is, with a few edges
 * that skip ahead and one given from its later end, wrapped into bands. */
static void
test_wrapped_chain (void)
{
  const guint n_nodes = 300;
  const double wrap = 1000;
  g_autofree gint64 *start = g_new (gint64, n_nodes);
  g_autoptr(GArray) edges = g_array_new (FALSE, FALSE, sizeof (ChronoLayoutEdge));
  g_autoptr(ChronoGraphLayout) layout = NULL;
  g_autofree double *plain_x = g_new (double, n_nodes);
  g_autofree double *plain_y = g_new (double, n_nodes);
  ChronoGraphLayoutParams params;
  double width, height;
  guint per_band, n_returns = 0;

  for (guint i = 0; i < n_nodes; i++)
    start[i] = 10 * (gint64) i;
  for (guint i = 0; i + 1 < n_nodes; i++)
    {
      /* Edge 40 runs from node 41 back to node 40. */
      ChronoLayoutEdge edge = i == 40 ? (ChronoLayoutEdge) { i + 1, i } : (ChronoLayoutEdge) { i, i + 1 };
      g_array_append_val (edges, edge);
    }
  for (guint i = 2; i + 3 < n_nodes; i += 37)
    {
      ChronoLayoutEdge edge = { i, i + 3 };
      g_array_append_val (edges, edge);
    }

  chrono_graph_layout_params_init (&params);
  layout = chrono_graph_layout_new (n_nodes, start, edges->len, (ChronoLayoutEdge *) edges->data, &params);
  g_assert_cmpuint (chrono_graph_layout_get_n_bands (layout), ==, 1);
  for (guint i = 0; i < n_nodes; i++)
    chrono_graph_layout_get_node_origin (layout, i, &plain_x[i], &plain_y[i]);

  chrono_graph_layout_set_wrap_width (layout, wrap);
  chrono_graph_layout_get_size (layout, &width, &height);
  /* The two lanes beside the bands take one gap between columns. */
  per_band = (guint) (wrap / (params.node_width + params.layer_gap));
  g_test_message ("%u columns in %u bands of %u; %.0f by %.0f", chrono_graph_layout_get_n_layers (layout),
                  chrono_graph_layout_get_n_bands (layout), per_band, width, height);
  g_assert_cmpfloat (width, <=, wrap);
  g_assert_cmpuint (chrono_graph_layout_get_n_bands (layout), ==,
                    (chrono_graph_layout_get_n_layers (layout) + per_band - 1) / per_band);
  g_assert_cmpuint (chrono_graph_layout_get_n_bands (layout), >, 10);
  assert_columns_follow_time (layout, n_nodes, start, edges->len, (ChronoLayoutEdge *) edges->data);
  assert_no_overlap (layout, n_nodes, &params);

  /* Read in order: band by band, left to right in each; a band wholly
   * above the next, the gap between them clear. */
  for (guint i = 0; i + 1 < n_nodes; i++)
    {
      guint a = chrono_graph_layout_get_band (layout, i), b = chrono_graph_layout_get_band (layout, i + 1);
      double xa, ya, xb, yb;

      chrono_graph_layout_get_node_origin (layout, i, &xa, &ya);
      chrono_graph_layout_get_node_origin (layout, i + 1, &xb, &yb);
      g_assert_cmpuint (b, >=, a);
      g_assert_cmpuint (b, <=, a + 1);
      if (a == b)
        g_assert_cmpfloat (xa, <, xb);
      else
        {
          g_assert_cmpfloat (xb, <, xa);
          g_assert_cmpfloat (ya + params.node_height + params.band_gap, <=, yb + 1e-6);
          g_assert_cmpfloat (ya + params.node_height, <=, chrono_graph_layout_get_band_bottom (layout, a) + 1e-6);
        }
    }

  /* Each edge leaves its FROM node's side and reaches its TO node's; one
   * that changes band turns back through the gap below its band, in the
   * lanes beside the bands, past no node. */
  for (guint e = 0; e < edges->len; e++)
    {
      ChronoLayoutEdge edge = g_array_index (edges, ChronoLayoutEdge, e);
      const ChronoLayoutPoint *p;
      double fx, fy, tx, ty;
      guint n;

      p = chrono_graph_layout_get_edge_points (layout, e, &n);
      g_assert_nonnull (p);
      chrono_graph_layout_get_node_origin (layout, edge.from, &fx, &fy);
      chrono_graph_layout_get_node_origin (layout, edge.to, &tx, &ty);
      g_assert_cmpfloat_with_epsilon (p[0].y, fy + params.node_height / 2, 1e-6);
      g_assert_cmpfloat_with_epsilon (p[n - 1].y, ty + params.node_height / 2, 1e-6);
      g_assert_true (p[0].x == fx || p[0].x == fx + params.node_width);
      g_assert_true (p[n - 1].x == tx || p[n - 1].x == tx + params.node_width);
      /* Into the later node from the left, out of the earlier on the right. */
      if (start[edge.from] < start[edge.to])
        g_assert_true (p[n - 1].x == tx && p[0].x == fx + params.node_width);
      else
        g_assert_true (p[n - 1].x == tx + params.node_width && p[0].x == fx);
      for (guint k = 0; k < n; k++)
        {
          g_assert_cmpfloat (p[k].x, >=, 0);
          g_assert_cmpfloat (p[k].x, <=, width);
          g_assert_cmpfloat (p[k].y, >=, 0);
          g_assert_cmpfloat (p[k].y, <=, height);
        }
      if (chrono_graph_layout_get_band (layout, edge.from) == chrono_graph_layout_get_band (layout, edge.to))
        continue;
      n_returns++;
      for (guint k = 1; k < n; k++)
        for (guint i = 0; i < n_nodes; i++)
          {
            double x, y;

            chrono_graph_layout_get_node_origin (layout, i, &x, &y);
            g_assert_false (segment_enters (p[k - 1], p[k], x, y, params.node_width, params.node_height));
          }
    }
  g_assert_cmpuint (n_returns, >=, chrono_graph_layout_get_n_bands (layout) - 1);

  /* Unwrapped again: the drawing as it was. */
  chrono_graph_layout_set_wrap_width (layout, 0);
  g_assert_cmpuint (chrono_graph_layout_get_n_bands (layout), ==, 1);
  for (guint i = 0; i < n_nodes; i++)
    {
      double x, y;

      chrono_graph_layout_get_node_origin (layout, i, &x, &y);
      g_assert_cmpfloat (x, ==, plain_x[i]);
      g_assert_cmpfloat (y, ==, plain_y[i]);
    }
  assert_edges_attached (layout, edges->len, (ChronoLayoutEdge *) edges->data, &params);
}

/* A layered graph wrapped keeps its columns apart and in order. */
static void
test_wrapped_layers (void)
{
  const guint n_layers = 12, per_layer = 5, n_nodes = n_layers * per_layer;
  g_autofree gint64 *start = g_new (gint64, n_nodes);
  g_autoptr(GArray) edges = g_array_new (FALSE, FALSE, sizeof (ChronoLayoutEdge));
  g_autoptr(ChronoGraphLayout) layout = NULL;
  ChronoGraphLayoutParams params;

  for (guint i = 0; i < n_nodes; i++)
    start[i] = (i / per_layer) * 1000 + i % per_layer;
  for (guint l = 0; l + 1 < n_layers; l++)
    for (guint i = 0; i < per_layer; i++)
      {
        ChronoLayoutEdge edge = { l * per_layer + i, (l + 1) * per_layer + (i * 3) % per_layer };
        g_array_append_val (edges, edge);
      }
  chrono_graph_layout_params_init (&params);
  layout = chrono_graph_layout_new (n_nodes, start, edges->len, (ChronoLayoutEdge *) edges->data, &params);
  chrono_graph_layout_set_wrap_width (layout, 3 * (params.node_width + params.layer_gap) + params.layer_gap);
  g_assert_cmpuint (chrono_graph_layout_get_n_bands (layout), ==, 4);
  assert_columns_follow_time (layout, n_nodes, start, edges->len, (ChronoLayoutEdge *) edges->data);
  assert_no_overlap (layout, n_nodes, &params);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/graph-layout/reversed-bipartite", test_reversed_bipartite);
  g_test_add_func ("/graph-layout/edge-cases", test_edge_cases);
  g_test_add_func ("/graph-layout/random-layers", test_random_layers);
  g_test_add_func ("/graph-layout/real-neighbourhood", test_real_neighbourhood);
  g_test_add_func ("/graph-layout/wrapped-chain", test_wrapped_chain);
  g_test_add_func ("/graph-layout/wrapped-layers", test_wrapped_layers);
  return g_test_run ();
}
