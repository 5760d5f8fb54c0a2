/* chrono-graph-pane.h: the dependency graph below a timeline: around the
 * span selected there, or along a critical path the findings panel asks
 * for; a node clicked is selected in the timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-findings-panel.h"
#include "chrono-graph-view.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_GRAPH_PANE (chrono_graph_pane_get_type ())
G_DECLARE_FINAL_TYPE (ChronoGraphPane, chrono_graph_pane, CHRONO, GRAPH_PANE, GtkWidget)

/* Follows PANEL's analysis and TIMELINE's selection. */
GtkWidget       *chrono_graph_pane_new      (ChronoTimeline      *timeline,
                                             ChronoFindingsPanel *panel);
ChronoGraphView *chrono_graph_pane_get_view (ChronoGraphPane     *self);

G_END_DECLS
