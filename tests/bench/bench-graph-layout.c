/* bench-graph-layout.c: time to lay out the 500-node neighbourhood of a
 * kernel in a real trace, against the same layout without crossing
 * reduction (the floor: columns, bends and rows only)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>

#include "chrono-analysis.h"
#include "chrono-graph-layout.h"
#include "chrono-loader.h"

#define RUNS 20

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
  guint max_nodes = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 500;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s TRACE [MAX_NODES]\n", argv[0]);
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
        }
      break;
    }
  return 0;
}
