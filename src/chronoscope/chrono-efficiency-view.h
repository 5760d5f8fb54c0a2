/* chrono-efficiency-view.h: how close each operator ran to the device's
 * limit, as a sortable table beside the timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-analysis.h"
#include "chrono-timeline.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_EFFICIENCY_VIEW (chrono_efficiency_view_get_type ())
G_DECLARE_FINAL_TYPE (ChronoEfficiencyView, chrono_efficiency_view, CHRONO, EFFICIENCY_VIEW, GtkWidget)

GtkWidget      *chrono_efficiency_view_new          (void);
/* The timeline whose spans an activated row selects. */
void            chrono_efficiency_view_set_timeline (ChronoEfficiencyView *self,
                                                     ChronoTimeline       *timeline);
ChronoTimeline *chrono_efficiency_view_get_timeline (ChronoEfficiencyView *self);
void            chrono_efficiency_view_set_analysis (ChronoEfficiencyView *self,
                                                     ChronoAnalysis       *analysis);
ChronoAnalysis *chrono_efficiency_view_get_analysis (ChronoEfficiencyView *self);
/* Shows the calls of the row at POSITION (in the sorted table) on the
 * timeline, as activating it does. */
void            chrono_efficiency_view_activate_row (ChronoEfficiencyView *self,
                                                     guint                 position);

G_END_DECLS
