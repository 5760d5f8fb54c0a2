/* chrono-timeline-private.h: what the parts of the timeline widget
 * share: its state, and the row helpers over its scene
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-timeline.h"
#include "chrono-timeline-scene.h"
#include "chrono-track-layout.h"

G_BEGIN_DECLS

#define HEADER_WIDTH   CHRONO_TIMELINE_HEADER_WIDTH
#define RULER_HEIGHT   CHRONO_TIMELINE_RULER_HEIGHT
#define ROW_HEIGHT     CHRONO_TIMELINE_ROW_HEIGHT
#define GROUP_HEIGHT   CHRONO_SCENE_GROUP_HEIGHT
#define TRACK_PAD      CHRONO_SCENE_TRACK_PAD
/* A wheel notch or arrow key moves this far; drags move with the pointer. */
#define SCROLL_STEP_PX 48.0
#define ZOOM_STEP      1.25
/* A key pans by this fraction of the visible time. */
#define PAN_FRACTION   0.1
#define NO_TRACK       CHRONO_SCENE_NO_ROW
/* A span found by search gets at least this wide when revealed. */
#define REVEAL_MIN_PX  24.0

typedef ChronoSceneRow Row;

typedef enum {
  MARK_NONE,
  MARK_MEASURE,
  MARK_AREA,
} Marking;

/* Drags shorter than this are clicks. */
#define MARK_MIN_PX 3.0

struct _ChronoTimeline
{
  GtkWidget            parent_instance;

  ChronoTrace         *trace;
  gboolean             dark;
  ChronoViewport      *viewport;
  /* What it draws: NULL without a trace. */
  ChronoTimelineScene *scene;

  ChronoTrackLayout   *layout;
  guint                current_track;  /* what the track actions act on */
  guint                dragged_track;  /* moved by dragging its name, or NO_TRACK */
  double               drag_start_y;
  GtkWidget           *track_menu;
  ChronoSearch        *search;
  ChronoAnnotations   *annotations;

  double               pointer_x;
  double               drag_x;
  double               drag_y;

  gboolean             has_selection;
  ChronoSpanRef        selection;

  GCancellable        *flows_cancellable;
  gboolean             flows_ready;
  gboolean             show_all_flows;

  /* A range dragged out in the ruler, or an area with Shift, shown as
   * it is dragged; and a span waiting to be linked to the next one
   * clicked. */
  Marking              marking;
  double               mark_x0;
  double               mark_y0;
  double               mark_x1;
  double               mark_y1;
  GMenuModel          *span_menu;
  GMenuModel          *area_menu;
  gboolean             linking;
  ChronoSpanRef        link_from;
};


static inline double
get_track_area_height (ChronoTimeline *self)
{
  return chrono_timeline_scene_get_track_area_height (self->scene);
}

static inline double
get_pinned_visible (ChronoTimeline *self)
{
  return chrono_timeline_scene_get_pinned_visible (self->scene);
}

static inline double
get_scroll_offset (ChronoTimeline *self)
{
  return chrono_timeline_scene_get_scroll_offset (self->scene);
}

static inline double
get_scroll_y (ChronoTimeline *self)
{
  return self->scene != NULL ? chrono_timeline_scene_get_scroll_y (self->scene) : 0;
}

static inline void
set_scroll_y (ChronoTimeline *self,
              double          scroll_y)
{
  if (self->scene != NULL)
    chrono_timeline_scene_set_scroll_y (self->scene, scroll_y);
}

static inline guint
n_rows (ChronoTimeline *self)
{
  return self->scene != NULL ? chrono_timeline_scene_get_n_rows (self->scene) : 0;
}

static inline const Row *
get_row (ChronoTimeline *self,
         guint           i)
{
  return chrono_timeline_scene_get_row (self->scene, i);
}

static inline guint
own_row (ChronoTimeline *self,
         guint           track)
{
  return chrono_timeline_scene_get_own_row (self->scene, track);
}

static inline double
get_row_top (ChronoTimeline *self,
             const Row      *row)
{
  return chrono_timeline_scene_get_row_top (self->scene, row);
}

static inline guint
find_row_at (ChronoTimeline *self,
             double          y)
{
  return chrono_timeline_scene_find_row_at (self->scene, y);
}

static inline guint
get_track_row (ChronoTimeline *self,
               guint           track)
{
  return chrono_timeline_scene_get_track_row (self->scene, track);
}


enum {
  SPAN_ACTIVATED,
  MEASURED,
  AREA_SELECTED,
  LINKED,
  SELECTION_CHANGED,
  N_SIGNALS
};

/* The widget's signals, emitted where the input is handled. */
extern guint _chrono_timeline_signals[N_SIGNALS];

/* chrono-timeline-input.c: zooming, panning, scrolling, clicks, ranges
 * measured, areas dragged out and spans linked. */
void     _chrono_timeline_class_init_input    (GtkWidgetClass *widget_class);
void     _chrono_timeline_init_input          (ChronoTimeline *self);

/* chrono-timeline-tracks.c: the current track, its menu and actions,
 * pinning, hiding, moving and collapsing. */
void     _chrono_timeline_class_init_tracks   (GtkWidgetClass *widget_class);
guint    _chrono_timeline_get_track_at        (ChronoTimeline *self,
                                               double          y);
void     _chrono_timeline_update_track_actions (ChronoTimeline *self);
void     _chrono_timeline_set_current_track   (ChronoTimeline *self,
                                               guint           track);
void     _chrono_timeline_reveal_content      (ChronoTimeline *self,
                                               double          content_y,
                                               double          height);
void     _chrono_timeline_layout_changed_cb   (ChronoTimeline *self);
void     _chrono_timeline_toggle_process      (ChronoTimeline *self,
                                               guint           process);
void     _chrono_timeline_popup_menu          (ChronoTimeline *self,
                                               GMenuModel     *model,
                                               double          x,
                                               double          y);
void     _chrono_timeline_header_menu_requested (ChronoTimeline *self,
                                                 double          x,
                                                 double          y);
void     _chrono_timeline_track_drag_begin_cb  (GtkGestureDrag *gesture,
                                                double          start_x,
                                                double          start_y,
                                                ChronoTimeline *self);
void     _chrono_timeline_track_drag_update_cb (GtkGestureDrag *gesture,
                                                double          offset_x,
                                                double          offset_y,
                                                ChronoTimeline *self);
void     _chrono_timeline_track_drag_end_cb    (GtkGestureDrag *gesture,
                                                double          offset_x,
                                                double          offset_y,
                                                ChronoTimeline *self);

/* chrono-timeline-tooltip.c: the names cut short, spans and counters. */
gboolean _chrono_timeline_query_tooltip      (GtkWidget      *widget,
                                              int             x,
                                              int             y,
                                              gboolean        keyboard_tooltip,
                                              GtkTooltip     *tooltip);

G_END_DECLS
