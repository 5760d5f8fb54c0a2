/* chrono-timeline-scene.h: what the timeline draws (a ruler over one
 * block of rows per track, grouped by process, with steps, flows, the
 * selection and highlights), for a widget's snapshot or any cairo
 * surface, with no display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-annotations.h"
#include "chrono-flops-series.h"
#include "chrono-flow-index.h"
#include "chrono-memory.h"
#include "chrono-neuron-series.h"
#include "chrono-search.h"
#include "chrono-trace.h"
#include "chrono-track-index.h"
#include "chrono-track-layout.h"
#include "chrono-viewport.h"

G_BEGIN_DECLS

/* Width of the column of process and track names. */
#define CHRONO_SCENE_HEADER_WIDTH      200
/* The ruler: time labels over a strip that names the training steps. */
#define CHRONO_SCENE_RULER_HEIGHT      46
#define CHRONO_SCENE_STEP_STRIP_HEIGHT 18
#define CHRONO_SCENE_ROW_HEIGHT        18
#define CHRONO_SCENE_GROUP_HEIGHT      24.0
/* Room above and below the rows of a track, so neighbours stay apart. */
#define CHRONO_SCENE_TRACK_PAD         3.0
/* Text without a display, until a widget gives its own context. */
#define CHRONO_SCENE_DEFAULT_FONT      "Sans 10"
/* Of ROWS, for headers and for rows that are no track's. */
#define CHRONO_SCENE_NO_ROW            G_MAXUINT

/* One block of the scene, top to bottom: a process's header (TRACK is
 * CHRONO_SCENE_NO_ROW), the header of the pinned tracks (PROCESS too),
 * a track's rows, or under a device's tracks the counter of its achieved
 * TFLOP/s (TRACK is CHRONO_SCENE_NO_ROW, DERIVED set). */
typedef struct
{
  guint             track;
  guint             process;
  gboolean          pinned;     /* stays at the top: never scrolls */
  gboolean          collapsed;  /* a process's header standing for its tracks */
  guint             first_member;  /* its tracks, for get_member() ... */
  guint             n_members;     /* ... this many */
  double            y;          /* below the ruler, before scrolling */
  double            height;
  guint             n_rows_hidden; /* deeper rows a capped track leaves out */
  ChronoTrackIndex *index;      /* a track's */
  gboolean          derived;    /* the achieved TFLOP/s of PROCESS, a device */
  const ChronoFlopsSeries *flops; /* a derived row's: NULL when the trace has
                                   * no shapes, and the row says so */
  const ChronoNeuronSeries *neuron; /* a derived row above a NeuronCore's
                                     * engines: its utilisation lanes */
  const ChronoMemoryDevice *memory; /* a derived row under a device's (or
                                     * host's) tracks: its memory over time */
} ChronoSceneRow;

/* The scene spans x = 0 to its width and y = 0 to its height: the name
 * column on the left, the ruler at the top, the track area in the rest.
 * Scenes that share a viewport share their time axis: a comparison
 * stacks two, the lower without its ruler. */
#define CHRONO_TYPE_TIMELINE_SCENE (chrono_timeline_scene_get_type ())
G_DECLARE_FINAL_TYPE (ChronoTimelineScene, chrono_timeline_scene, CHRONO, TIMELINE_SCENE, GObject)

/* INDEXES holds one ChronoTrackIndex per track or NULL, filled in when
 * first needed; LAYOUT orders, pins and hides TRACE's tracks. The scene
 * follows VIEWPORT, and sets its width from the scene's. */
ChronoTimelineScene *chrono_timeline_scene_new             (ChronoTrace         *trace,
                                                            GPtrArray           *indexes,
                                                            ChronoTrackLayout   *layout,
                                                            ChronoViewport      *viewport);
ChronoTrace         *chrono_timeline_scene_get_trace       (ChronoTimelineScene *self);
ChronoViewport      *chrono_timeline_scene_get_viewport    (ChronoTimelineScene *self);
ChronoTrackLayout   *chrono_timeline_scene_get_layout      (ChronoTimelineScene *self);

/* Text is shaped in CONTEXT: the widget's, or a cairo font map's. */
void                 chrono_timeline_scene_set_pango_context (ChronoTimelineScene *self,
                                                              PangoContext        *context);
void                 chrono_timeline_scene_set_size        (ChronoTimelineScene *self,
                                                            double               width,
                                                            double               height);
double               chrono_timeline_scene_get_width       (ChronoTimelineScene *self);
double               chrono_timeline_scene_get_height      (ChronoTimelineScene *self);
gboolean             chrono_timeline_scene_get_dark        (ChronoTimelineScene *self);
void                 chrono_timeline_scene_set_dark        (ChronoTimelineScene *self,
                                                            gboolean             dark);
/* The Pango context its text is shaped in, for text drawn beside it. */
PangoContext        *chrono_timeline_scene_get_pango_context (ChronoTimelineScene *self);
/* Without, the track area starts at the top. */
void                 chrono_timeline_scene_set_show_ruler  (ChronoTimelineScene *self,
                                                            gboolean             show_ruler);
double               chrono_timeline_scene_get_ruler_height (ChronoTimelineScene *self);
/* The ruler counts from ZERO_NS, which LABEL names in its header (NULL
 * for "Time from start"); by default from the trace's start. */
void                 chrono_timeline_scene_set_time_zero   (ChronoTimelineScene *self,
                                                            gint64               zero_ns,
                                                            const char          *label);
/* A short tag drawn before every process and track name, such as the
 * side of a comparison; NULL for none. */
void                 chrono_timeline_scene_set_badge       (ChronoTimelineScene *self,
                                                            const char          *badge);
const char          *chrono_timeline_scene_get_badge       (ChronoTimelineScene *self);
/* Spans as shapes, never merged into an image: for SVG and PDF. */
void                 chrono_timeline_scene_set_vector      (ChronoTimelineScene *self,
                                                            gboolean             vector);

/* The rows again, after the layout changed. */
void                 chrono_timeline_scene_update_rows     (ChronoTimelineScene *self);
guint                chrono_timeline_scene_get_n_rows      (ChronoTimelineScene *self);
const ChronoSceneRow *chrono_timeline_scene_get_row        (ChronoTimelineScene *self,
                                                            guint                i);
/* The Nth track a collapsed header stands for. */
guint                chrono_timeline_scene_get_member      (ChronoTimelineScene *self,
                                                            const ChronoSceneRow *row,
                                                            guint                n);
/* TRACK's own row, or CHRONO_SCENE_NO_ROW when hidden or collapsed. */
guint                chrono_timeline_scene_get_own_row     (ChronoTimelineScene *self,
                                                            guint                track);
/* The row that shows TRACK: its own, or its collapsed process's header. */
guint                chrono_timeline_scene_get_track_row   (ChronoTimelineScene *self,
                                                            guint                track);
guint                chrono_timeline_scene_get_process_row (ChronoTimelineScene *self,
                                                            guint                process);
/* The row at height Y: pinned rows cover those scrolled under them. */
guint                chrono_timeline_scene_find_row_at     (ChronoTimelineScene *self,
                                                            double               y);
/* Where ROW starts, scrolled. */
double               chrono_timeline_scene_get_row_top     (ChronoTimelineScene *self,
                                                            const ChronoSceneRow *row);
/* All rows, pinned ones included, unscrolled. */
double               chrono_timeline_scene_get_content_height (ChronoTimelineScene *self);
double               chrono_timeline_scene_get_pinned_height  (ChronoTimelineScene *self);
/* How much of the pinned tracks shows. */
double               chrono_timeline_scene_get_pinned_visible (ChronoTimelineScene *self);
double               chrono_timeline_scene_get_track_area_height (ChronoTimelineScene *self);
/* How far up the scrolling rows are drawn. */
double               chrono_timeline_scene_get_scroll_offset (ChronoTimelineScene *self);
double               chrono_timeline_scene_get_scroll_y    (ChronoTimelineScene *self);
/* Clamped to the rows; FALSE when it did not move. */
gboolean             chrono_timeline_scene_set_scroll_y    (ChronoTimelineScene *self,
                                                            double               scroll_y);

gboolean             chrono_timeline_scene_hit_test        (ChronoTimelineScene *self,
                                                            double               x,
                                                            double               y,
                                                            ChronoSpanRef       *span);
gboolean             chrono_timeline_scene_get_span_area   (ChronoTimelineScene *self,
                                                            ChronoSpanRef        span,
                                                            graphene_rect_t     *area);

void                 chrono_timeline_scene_set_selection   (ChronoTimelineScene *self,
                                                            const ChronoSpanRef *span);
/* Its name stands out: G_MAXUINT for none. */
void                 chrono_timeline_scene_set_current_track (ChronoTimelineScene *self,
                                                              guint                track);
void                 chrono_timeline_scene_set_search      (ChronoTimelineScene *self,
                                                            ChronoSearch        *search);
/* NULL until the flows are indexed. */
void                 chrono_timeline_scene_set_flow_index  (ChronoTimelineScene *self,
                                                            ChronoFlowIndex     *index);
void                 chrono_timeline_scene_set_show_all_flows (ChronoTimelineScene *self,
                                                               gboolean             show_all_flows);
void                 chrono_timeline_scene_set_highlight   (ChronoTimelineScene *self,
                                                            gint64               start_ns,
                                                            gint64               end_ns,
                                                            const guint         *tracks,
                                                            guint                n_tracks);
void                 chrono_timeline_scene_set_path        (ChronoTimelineScene *self,
                                                            const ChronoSpanRef *spans,
                                                            guint                n_spans);
/* Outlines SPANS, the evidence of a finding, each at least a few px wide. */
void                 chrono_timeline_scene_set_marks       (ChronoTimelineScene *self,
                                                            const ChronoSpanRef *spans,
                                                            guint                n_spans);
const ChronoSpanRef *chrono_timeline_scene_get_marks       (ChronoTimelineScene *self,
                                                            guint               *n_spans);

/* Under each device's tracks, the achieved TFLOP/s of ANALYSIS's series
 * of the scene's trace; when it has none, a note of why. NULL for none. */
void                 chrono_timeline_scene_set_efficiency  (ChronoTimelineScene *self,
                                                            ChronoAnalysis      *analysis);
ChronoAnalysis      *chrono_timeline_scene_get_efficiency  (ChronoTimelineScene *self);
/* Why a derived row has no series: the analysis's own words. */
const char          *chrono_timeline_scene_get_flops_note  (ChronoTimelineScene *self);

/* Drawn over the rows, following their changes; NULL for none. */
void                 chrono_timeline_scene_set_annotations (ChronoTimelineScene *self,
                                                            ChronoAnnotations   *annotations);
ChronoAnnotations   *chrono_timeline_scene_get_annotations (ChronoTimelineScene *self);

void                 chrono_timeline_scene_snapshot        (ChronoTimelineScene *self,
                                                            GtkSnapshot         *snapshot);
/* The same into CR, from its origin: image, SVG and PDF surfaces alike. */
void                 chrono_timeline_scene_draw            (ChronoTimelineScene *self,
                                                            cairo_t             *cr);
/* The drawing as render nodes, and those drawn into CR. A vector surface
 * may refer to the nodes' recordings until it is finished: keep NODE
 * until then (cairo 1.16 leaks what it copies of those freed before). */
GskRenderNode       *chrono_timeline_scene_get_node        (ChronoTimelineScene *self);
void                 chrono_timeline_scene_draw_node       (ChronoTimelineScene *self,
                                                            GskRenderNode       *node,
                                                            cairo_t             *cr);

G_END_DECLS
