/* chrono-timeline.h: the zoomable timeline of a trace: a time ruler over
 * one block of rows per track, grouped by process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-search.h"
#include "chrono-timeline-scene.h"
#include "chrono-trace.h"
#include "chrono-track-layout.h"
#include "chrono-viewport.h"

G_BEGIN_DECLS

/* Its drawing is a ChronoTimelineScene's, laid out the same. */
#define CHRONO_TIMELINE_HEADER_WIDTH      CHRONO_SCENE_HEADER_WIDTH
#define CHRONO_TIMELINE_RULER_HEIGHT      CHRONO_SCENE_RULER_HEIGHT
#define CHRONO_TIMELINE_STEP_STRIP_HEIGHT CHRONO_SCENE_STEP_STRIP_HEIGHT
#define CHRONO_TIMELINE_ROW_HEIGHT        CHRONO_SCENE_ROW_HEIGHT

#define CHRONO_TYPE_TIMELINE (chrono_timeline_get_type ())
G_DECLARE_FINAL_TYPE (ChronoTimeline, chrono_timeline, CHRONO, TIMELINE, GtkWidget)

GtkWidget      *chrono_timeline_new           (ChronoTrace    *trace);
/* INDEXES holds one ChronoTrackIndex per track of TRACE, built on a
 * worker thread (chrono_track_index_new_all()), so that showing the
 * timeline does not index the trace on the main thread. */
GtkWidget      *chrono_timeline_new_indexed   (ChronoTrace    *trace,
                                               GPtrArray      *indexes);
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

ChronoTrackLayout *chrono_timeline_get_track_layout (ChronoTimeline *self);
/* What the track actions (pin, hide, move) act on: the track last
 * clicked, or the selected span's; G_MAXUINT for none. */
guint           chrono_timeline_get_current_track (ChronoTimeline *self);
/* Where TRACK's rows are drawn, name column included, in widget
 * coordinates; FALSE when it is hidden or its process collapsed. */
gboolean        chrono_timeline_get_track_area (ChronoTimeline  *self,
                                                guint            track,
                                                graphene_rect_t *area);
/* Where PROCESS's header row is drawn, in widget coordinates; FALSE when
 * none of its tracks shows below the pinned ones. */
gboolean        chrono_timeline_get_process_area (ChronoTimeline  *self,
                                                  guint            process,
                                                  graphene_rect_t *area);

/* Dims the spans SEARCH did not find and outlines those it did; NULL
 * shows all alike again. */
void            chrono_timeline_set_search    (ChronoTimeline *self,
                                               ChronoSearch   *search);
ChronoSearch   *chrono_timeline_get_search    (ChronoTimeline *self);
/* Zooms and scrolls so that SPAN shows, wide enough to see. */
void            chrono_timeline_reveal_span   (ChronoTimeline *self,
                                               ChronoSpanRef   span);

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
/* Each device's achieved TFLOP/s under its tracks; NULL for none. */
void            chrono_timeline_set_efficiency (ChronoTimeline *self,
                                                ChronoAnalysis *analysis);
void            chrono_timeline_scroll_to_track (ChronoTimeline *self,
                                               guint           track);

/* Drawn over the rows, following their changes; NULL for none. */
void            chrono_timeline_set_annotations (ChronoTimeline    *self,
                                                 ChronoAnnotations *annotations);
ChronoAnnotations *chrono_timeline_get_annotations (ChronoTimeline *self);
/* A secondary click on a span selects it and opens MENU; an area
 * dragged out with Shift emits area-selected, then opens MENU. */
void            chrono_timeline_set_span_menu  (ChronoTimeline *self,
                                                GMenuModel     *menu);
void            chrono_timeline_set_area_menu  (ChronoTimeline *self,
                                                GMenuModel     *menu);

G_END_DECLS
