/* bench-graph-layout.c: time to lay out the 500-node neighbourhood of a
 * kernel in a real trace, against the same layout without crossing
 * reduction (the floor: columns, bends and rows only); with --dot, against
 * Graphviz's dot on the same graphs (run with a 60 s limit): its time, how
 * many pairs of nodes it draws out of time order, and, for both, crossings
 * of straight lines between node centres (a rough measure, the same for
 * both)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>

#include "chrono-analysis.h"
#include "chrono-graph-layout.h"
#include "chrono-loader.h"

#define RUNS 20
#define DOT_LIMIT_S "60"

typedef struct {
  double x;
  double y;
} Point;

static gboolean
ccw (Point a,
     Point b,
     Point c)
{
  return (c.y - a.y) * (b.x - a.x) > (b.y - a.y) * (c.x - a.x);
}

/* Pairs of edges whose straight lines between node centres cross. */
static guint64
count_straight_crossings (const Point      *centre,
                          ChronoSubgraph   *graph)
{
  guint64 n = 0;

  for (guint i = 0; i < graph->edges->len; i++)
    for (guint j = i + 1; j < graph->edges->len; j++)
      {
        const ChronoGraphEdge *e = &g_array_index (graph->edges, ChronoGraphEdge, i);
        const ChronoGraphEdge *f = &g_array_index (graph->edges, ChronoGraphEdge, j);
        Point a = centre[e->from], b = centre[e->to], c = centre[f->from], d = centre[f->to];

        /* Edges that share a node meet there, they do not cross. */
        if (e->from == f->from || e->from == f->to || e->to == f->from || e->to == f->to)
          continue;
        n += ccw (a, c, d) != ccw (b, c, d) && ccw (a, b, c) != ccw (a, b, d);
      }
  return n;
}

/* Pairs of nodes drawn further left than one that started before them. */
static double
share_out_of_time_order (const Point    *centre,
                         ChronoSubgraph *graph)
{
  guint64 out = 0, pairs = 0;

  for (guint i = 0; i < graph->nodes->len; i++)
    for (guint j = 0; j < graph->nodes->len; j++)
      {
        gint64 si = g_array_index (graph->nodes, ChronoGraphNode, i).start_ns;
        gint64 sj = g_array_index (graph->nodes, ChronoGraphNode, j).start_ns;

        if (si < sj)
          {
            pairs++;
            out += centre[i].x > centre[j].x + 1e-6;
          }
      }
  return pairs > 0 ? (double) out / pairs : 0;
}

/* Runs dot on GRAPH; fills CENTRE from its output. */
static gboolean
run_dot (ChronoSubgraph *graph,
         Point          *centre,
         double         *seconds)
{
  g_autoptr(GString) dot = g_string_new ("digraph G { rankdir=LR; node [shape=box width=2.2 height=0.55 fixedsize=true label=\"\"];\n");
  const char *argv[] = { "timeout", DOT_LIMIT_S, "dot", "-Tplain", NULL };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GBytes) input = NULL;
  g_autoptr(GBytes) output = NULL;
  g_auto(GStrv) lines = NULL;
  gint64 t0;

  for (guint i = 0; i < graph->nodes->len; i++)
    g_string_append_printf (dot, "n%u;\n", i);
  for (guint i = 0; i < graph->edges->len; i++)
    {
      const ChronoGraphEdge *e = &g_array_index (graph->edges, ChronoGraphEdge, i);
      g_string_append_printf (dot, "n%u -> n%u;\n", e->from, e->to);
    }
  g_string_append (dot, "}\n");
  input = g_bytes_new (dot->str, dot->len);

  t0 = g_get_monotonic_time ();
  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL);
  if (process == NULL || !g_subprocess_communicate (process, input, NULL, &output, NULL, NULL) ||
      !g_subprocess_get_successful (process))
    return FALSE;
  *seconds = (g_get_monotonic_time () - t0) / 1e6;

  lines = g_strsplit (g_bytes_get_data (output, NULL), "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      guint n;
      double x, y;

      if (sscanf (lines[i], "node n%u %lf %lf", &n, &x, &y) == 3 && n < graph->nodes->len)
        centre[n] = (Point) { x, y };
    }
  return TRUE;
}

static double
time_layout (guint                   n_nodes,
             const gint64           *start,
             guint                   n_edges,
             const ChronoLayoutEdge *edges,
             guint                   sweeps,
             guint64                *crossings)
{
  ChronoGraphLayoutParams params;
  double best = G_MAXDOUBLE;

  chrono_graph_layout_params_init (&params);
  params.sweeps = sweeps;
  for (guint run = 0; run < RUNS; run++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(ChronoGraphLayout) layout = chrono_graph_layout_new (n_nodes, start, n_edges, edges, &params);

      best = MIN (best, (g_get_monotonic_time () - t0) / 1000.0);
      *crossings = chrono_graph_layout_count_crossings (layout);
    }
  return best;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(GError) error = NULL;
  gboolean with_dot = argc > 2 && g_str_equal (argv[2], "--dot");
  guint max_nodes = 500;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s TRACE [--dot]\n", argv[0]);
      return 2;
    }
  trace = chrono_trace_load_file (argv[1], NULL, NULL, NULL, &error);
  if (trace == NULL || !(analysis = chrono_analysis_run (&trace, 1, NULL, NULL, &error)))
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }

  printf ("| centre kernel | nodes | edges | layers | crossings, time order | crossings, 12 sweeps | ms, no sweeps | ms, 12 sweeps | ratio |\n");
  printf ("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  /* Three kernels, a quarter, half and three quarters into their stream. */
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);
      guint n_kernels = 0;

      for (guint i = 0; i < track->n_spans; i++)
        n_kernels += track->kind[i] == CHRONO_KIND_KERNEL;
      if (n_kernels < 100)
        continue;
      for (guint q = 1; q <= 3; q++)
        {
          ChronoNodeRef centre = { 0, { t, q * track->n_spans / 4 } };
          g_autoptr(ChronoSubgraph) graph = NULL;
          g_autofree gint64 *start = NULL;
          g_autofree ChronoLayoutEdge *edges = NULL;
          g_autoptr(ChronoGraphLayout) layout = NULL;
          guint64 naive, swept;
          double floor_ms, full_ms;

          graph = chrono_analysis_dup_neighbourhood (analysis, centre, 64, max_nodes);
          start = g_new (gint64, graph->nodes->len);
          edges = g_new (ChronoLayoutEdge, MAX (1, graph->edges->len));
          for (guint i = 0; i < graph->nodes->len; i++)
            start[i] = g_array_index (graph->nodes, ChronoGraphNode, i).start_ns;
          for (guint i = 0; i < graph->edges->len; i++)
            {
              const ChronoGraphEdge *edge = &g_array_index (graph->edges, ChronoGraphEdge, i);
              edges[i] = (ChronoLayoutEdge) { edge->from, edge->to };
            }
          floor_ms = time_layout (graph->nodes->len, start, graph->edges->len, edges, 0, &naive);
          full_ms = time_layout (graph->nodes->len, start, graph->edges->len, edges, 12, &swept);
          layout = chrono_graph_layout_new (graph->nodes->len, start, graph->edges->len, edges, NULL);
          printf ("| %u:%u | %u | %u | %u | %" G_GUINT64_FORMAT " | %" G_GUINT64_FORMAT " | %.2f | %.2f | %.1f |\n",
                  centre.span.track, centre.span.index, graph->nodes->len, graph->edges->len,
                  chrono_graph_layout_get_n_layers (layout), naive, swept, floor_ms, full_ms,
                  full_ms / MAX (floor_ms, 1e-3));

          if (with_dot)
            {
              g_autofree Point *ours = g_new (Point, graph->nodes->len);
              g_autofree Point *theirs = g_new0 (Point, graph->nodes->len);
              double seconds;

              for (guint i = 0; i < graph->nodes->len; i++)
                {
                  chrono_graph_layout_get_node_origin (layout, i, &ours[i].x, &ours[i].y);
                  ours[i].x += 80;
                  ours[i].y += 20;
                }
              printf ("|   this layout: %.1f%% of node pairs out of time order, %" G_GUINT64_FORMAT " straight-line crossings |\n",
                      100 * share_out_of_time_order (ours, graph), count_straight_crossings (ours, graph));
              if (run_dot (graph, theirs, &seconds))
                printf ("|   dot: %.2f s, %.1f%% of node pairs out of time order, %" G_GUINT64_FORMAT " straight-line crossings |\n",
                        seconds, 100 * share_out_of_time_order (theirs, graph), count_straight_crossings (theirs, graph));
              else
                printf ("|   dot: failed or took over " DOT_LIMIT_S " s |\n");
            }
        }
      break;
    }
  return 0;
}
