/* chrono-graph-view.h: the dependencies around a span, or the critical
 * path of a step, drawn as a graph left to right in time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-analysis.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_GRAPH_VIEW (chrono_graph_view_get_type ())
G_DECLARE_FINAL_TYPE (ChronoGraphView, chrono_graph_view, CHRONO, GRAPH_VIEW, GtkWidget)

GtkWidget      *chrono_graph_view_new               (void);
ChronoAnalysis *chrono_graph_view_get_analysis      (ChronoGraphView *self);
/* Clears the graph. */
void            chrono_graph_view_set_analysis      (ChronoGraphView *self,
                                                     ChronoAnalysis  *analysis);
gboolean        chrono_graph_view_get_dark          (ChronoGraphView *self);
void            chrono_graph_view_set_dark          (ChronoGraphView *self,
                                                     gboolean         dark);
guint           chrono_graph_view_get_hops          (ChronoGraphView *self);
void            chrono_graph_view_set_hops          (ChronoGraphView *self,
                                                     guint            hops);

/* The spans within the view's hops of CENTRE. */
void            chrono_graph_view_show_neighbourhood (ChronoGraphView *self,
                                                     ChronoNodeRef    centre);
/* The spans of critical path PATH, each linked to the next. */
void            chrono_graph_view_show_path         (ChronoGraphView *self,
                                                     guint            path);
/* Outlines NODE's span when it is drawn; NULL for none. */
void            chrono_graph_view_set_selection     (ChronoGraphView *self,
                                                     const ChronoNodeRef *node);

guint           chrono_graph_view_get_n_nodes       (ChronoGraphView *self);
const ChronoGraphNode *chrono_graph_view_get_node   (ChronoGraphView *self,
                                                     guint            index);
/* Where node INDEX is drawn, in widget coordinates. */
void            chrono_graph_view_get_node_area     (ChronoGraphView *self,
                                                     guint            index,
                                                     graphene_rect_t *area);
/* The edge types drawn, each after a line of its colour, in Pango markup. */
char           *chrono_graph_view_dup_legend_markup (ChronoGraphView *self);
/* Centres node INDEX in the view, across; as near as the graph allows,
 * down. */
void            chrono_graph_view_scroll_to_node    (ChronoGraphView *self,
                                                     guint            index);
/* The whole graph at the largest scale that shows it, wrapped into bands
 * when one row would be too small to read; when even so it would be, fitted
 * to the width from its first node, with a hint for the rest. The view
 * fits each graph it is given (action graph.fit, key 0). */
void            chrono_graph_view_fit               (ChronoGraphView *self);
/* How to see the rest of a graph too big to show whole; NULL when it is
 * shown whole. Property "hint". */
const char     *chrono_graph_view_get_hint          (ChronoGraphView *self);
/* Bands the graph is wrapped into: 1 for one row; 0 with no graph. */
guint           chrono_graph_view_get_n_bands       (ChronoGraphView *self);
/* Widget pixels per pixel of the drawing. */
double          chrono_graph_view_get_scale         (ChronoGraphView *self);

G_END_DECLS
