/* chrono-timeline.h: the zoomable timeline of a trace: a time ruler over
 * one block of rows per track, grouped by process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-trace.h"
#include "chrono-viewport.h"

G_BEGIN_DECLS

/* Width of the column of process and track names. */
#define CHRONO_TIMELINE_HEADER_WIDTH 200
/* The ruler: time labels over a strip that names the training steps. */
#define CHRONO_TIMELINE_RULER_HEIGHT 46
#define CHRONO_TIMELINE_STEP_STRIP_HEIGHT 18
#define CHRONO_TIMELINE_ROW_HEIGHT   18

#define CHRONO_TYPE_TIMELINE (chrono_timeline_get_type ())
G_DECLARE_FINAL_TYPE (ChronoTimeline, chrono_timeline, CHRONO, TIMELINE, GtkWidget)

GtkWidget      *chrono_timeline_new           (ChronoTrace    *trace);
ChronoTrace    *chrono_timeline_get_trace     (ChronoTimeline *self);
void            chrono_timeline_set_trace     (ChronoTimeline *self,
                                               ChronoTrace    *trace);
gboolean        chrono_timeline_get_dark      (ChronoTimeline *self);
void            chrono_timeline_set_dark      (ChronoTimeline *self,
                                               gboolean        dark);
/* Its time window; the track area starts HEADER_WIDTH px from the left. */
ChronoViewport *chrono_timeline_get_viewport  (ChronoTimeline *self);

/* The span under (X, Y), in widget coordinates. */
gboolean        chrono_timeline_hit_test      (ChronoTimeline *self,
                                               double          x,
                                               double          y,
                                               ChronoSpanRef  *span);
/* Where SPAN is drawn, in widget coordinates; FALSE when its track has
 * no rows. The rectangle may lie outside the widget. */
gboolean        chrono_timeline_get_span_area (ChronoTimeline *self,
                                               ChronoSpanRef   span,
                                               graphene_rect_t *area);
gboolean        chrono_timeline_get_selection (ChronoTimeline *self,
                                               ChronoSpanRef  *span);
void            chrono_timeline_select        (ChronoTimeline *self,
                                               const ChronoSpanRef *span);
/* Whether the trace's flows are indexed (on a worker thread, after the
 * trace is set): until then no arrows show. FALSE without flows. */
gboolean        chrono_timeline_get_flows_ready    (ChronoTimeline *self);
/* Arrows for every flow in view; without, only the selected span's. */
gboolean        chrono_timeline_get_show_all_flows (ChronoTimeline *self);
void            chrono_timeline_set_show_all_flows (ChronoTimeline *self,
                                                    gboolean        show_all_flows);

G_END_DECLS
