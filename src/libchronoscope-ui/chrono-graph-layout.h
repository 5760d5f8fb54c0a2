/* chrono-graph-layout.h: a layered drawing of a dependency graph, left to
 * right in time. Plain GLib: tests and benchmarks run it without a display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint from;
  guint to;
} ChronoLayoutEdge;

typedef struct {
  double x;
  double y;
} ChronoLayoutPoint;

typedef struct {
  double node_width;    /* every node is this big */
  double node_height;
  double layer_gap;     /* between two columns */
  double node_gap;      /* between two nodes of a column */
  double band_gap;      /* between two bands of a wrapped drawing */
  guint  sweeps;        /* barycentre sweeps (down and up); 0 keeps the time order */
} ChronoGraphLayoutParams;

void chrono_graph_layout_params_init (ChronoGraphLayoutParams *params);

typedef struct _ChronoGraphLayout ChronoGraphLayout;

/* Lays out N_NODES nodes that start at START_NS[i]. Every edge points
 * from the node that starts first (so the graph has no cycle); a node
 * stands in a column right of everything it depends on, and never left of
 * a node that starts before it. Edges to the node itself are ignored. */
ChronoGraphLayout *chrono_graph_layout_new           (guint                          n_nodes,
                                                      const gint64                  *start_ns,
                                                      guint                          n_edges,
                                                      const ChronoLayoutEdge        *edges,
                                                      const ChronoGraphLayoutParams *params);
void               chrono_graph_layout_free          (ChronoGraphLayout             *layout);

guint              chrono_graph_layout_get_n_layers  (ChronoGraphLayout             *layout);
guint              chrono_graph_layout_get_layer     (ChronoGraphLayout             *layout,
                                                      guint                          node);
/* The node's rank from the top of its column, counting the bends of
 * long edges that pass through the column. */
guint              chrono_graph_layout_get_position  (ChronoGraphLayout             *layout,
                                                      guint                          node);
/* The top left corner of the node; its size is the params'. */
void               chrono_graph_layout_get_node_origin (ChronoGraphLayout           *layout,
                                                      guint                          node,
                                                      double                        *x,
                                                      double                        *y);
void               chrono_graph_layout_get_size      (ChronoGraphLayout             *layout,
                                                      double                        *width,
                                                      double                        *height);
/* Edge EDGE as a polyline from its FROM node to its TO node, through its
 * bends; NULL for an edge to the node itself. */
const ChronoLayoutPoint *chrono_graph_layout_get_edge_points (ChronoGraphLayout     *layout,
                                                      guint                          edge,
                                                      guint                         *n_points);
/* Wraps the drawing into bands of as many columns as fit in WIDTH, one
 * band under another, each read left to right: a long chain becomes rows.
 * An edge from one band to a later one leaves along its row to the lane
 * right of the bands, runs back left in the gap below its band, down the
 * lane on the left and into its node from the left, so it still points
 * the way of time. 0 undoes the wrapping. Columns, their order and the
 * rows within a band stay as they are: this is cheap to call again. */
void               chrono_graph_layout_set_wrap_width (ChronoGraphLayout        *layout,
                                                      double                         width);
/* 1 when the drawing is not wrapped. */
guint              chrono_graph_layout_get_n_bands   (ChronoGraphLayout             *layout);
guint              chrono_graph_layout_get_band      (ChronoGraphLayout             *layout,
                                                      guint                          node);
/* Where band BAND ends, down. */
double             chrono_graph_layout_get_band_bottom (ChronoGraphLayout           *layout,
                                                      guint                          band);
/* Whether edge EDGE bends through the columns between its nodes. */
gboolean           chrono_graph_layout_edge_is_long  (ChronoGraphLayout             *layout,
                                                      guint                          edge);
/* Crossings between segments of neighbouring columns. */
guint64            chrono_graph_layout_count_crossings (ChronoGraphLayout           *layout);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoGraphLayout, chrono_graph_layout_free)

G_END_DECLS
