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
#define CHRONO_TIMELINE_RULER_HEIGHT 28
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

/* What the analysis points at: a time range over some tracks, and the
 * spans of a critical path. */
void            chrono_timeline_set_highlight (ChronoTimeline *self,
                                               gint64          start_ns,
                                               gint64          end_ns,
                                               const guint    *tracks,
                                               guint           n_tracks);
void            chrono_timeline_set_path      (ChronoTimeline *self,
                                               const ChronoSpanRef *spans,
                                               guint           n_spans);
void            chrono_timeline_scroll_to_track (ChronoTimeline *self,
                                               guint           track);

G_END_DECLS
