/* chrono-findings-panel.h: what the analysis found in a trace, beside its
 * timeline: the bottlenecks, the time of each device and stream, and the
 * critical path of each step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-analysis.h"
#include "chrono-timeline.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_FINDINGS_PANEL (chrono_findings_panel_get_type ())
G_DECLARE_FINAL_TYPE (ChronoFindingsPanel, chrono_findings_panel, CHRONO, FINDINGS_PANEL, GtkWidget)

/* Analyses TIMELINE's trace on a worker thread, and again whenever the
 * thresholds in the settings change. */
GtkWidget      *chrono_findings_panel_new              (ChronoTimeline      *timeline);
ChronoAnalysis *chrono_findings_panel_get_analysis     (ChronoFindingsPanel *self);
gboolean        chrono_findings_panel_get_analysing    (ChronoFindingsPanel *self);
/* Shows finding INDEX of the analysis on the timeline: zoomed to its
 * range, its tracks shaded, its span selected. */
void            chrono_findings_panel_show_finding     (ChronoFindingsPanel *self,
                                                        guint                index);

G_END_DECLS
