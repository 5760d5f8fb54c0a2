/* chrono-timeline.c: the zoomable timeline of a trace: a time ruler over
 * one block of rows per track, grouped by process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "chrono-background.h"
#include "chrono-format.h"
#include "chrono-palette.h"
#include "chrono-timeline.h"
#include "chrono-timeline-scene.h"
#include "chrono-track-index.h"
#include "chrono-track-layout.h"
#include "chrono-zoom-controllers.h"

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

G_DEFINE_FINAL_TYPE (ChronoTimeline, chrono_timeline, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TRACE,
  PROP_DARK,
  PROP_SHOW_ALL_FLOWS,
  PROP_FLOWS_READY,
  N_PROPS
};

enum {
  SPAN_ACTIVATED,
  MEASURED,
  AREA_SELECTED,
  LINKED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static double
get_track_area_height (ChronoTimeline *self)
{
  return chrono_timeline_scene_get_track_area_height (self->scene);
}

static double
get_pinned_visible (ChronoTimeline *self)
{
  return chrono_timeline_scene_get_pinned_visible (self->scene);
}

static double
get_scroll_offset (ChronoTimeline *self)
{
  return chrono_timeline_scene_get_scroll_offset (self->scene);
}

static double
get_scroll_y (ChronoTimeline *self)
{
  return self->scene != NULL ? chrono_timeline_scene_get_scroll_y (self->scene) : 0;
}

static void
set_scroll_y (ChronoTimeline *self,
              double          scroll_y)
{
  if (self->scene != NULL)
    chrono_timeline_scene_set_scroll_y (self->scene, scroll_y);
}

static guint
n_rows (ChronoTimeline *self)
{
  return self->scene != NULL ? chrono_timeline_scene_get_n_rows (self->scene) : 0;
}

static const Row *
get_row (ChronoTimeline *self,
         guint           i)
{
  return chrono_timeline_scene_get_row (self->scene, i);
}

static guint
own_row (ChronoTimeline *self,
         guint           track)
{
  return chrono_timeline_scene_get_own_row (self->scene, track);
}

static double
get_row_top (ChronoTimeline *self,
             const Row      *row)
{
  return chrono_timeline_scene_get_row_top (self->scene, row);
}

static guint
find_row_at (ChronoTimeline *self,
             double          y)
{
  return chrono_timeline_scene_find_row_at (self->scene, y);
}

static guint
get_track_row (ChronoTimeline *self,
               guint           track)
{
  return chrono_timeline_scene_get_track_row (self->scene, track);
}

/* -------------------------------------------------------------------- */
/* Flows                                                                */

static void
index_flows_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  g_task_return_pointer (task, chrono_flow_index_new (task_data), g_object_unref);
}

static void
index_flows_done_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  ChronoTimeline *self = CHRONO_TIMELINE (object);
  g_autoptr(ChronoFlowIndex) index = NULL;

  /* Cancelled when the trace changed meanwhile: the index is another
   * trace's. */
  index = g_task_propagate_pointer (G_TASK (result), NULL);
  if (index == NULL)
    return;
  chrono_timeline_scene_set_flow_index (self->scene, index);
  self->flows_ready = TRUE;
  g_clear_object (&self->flows_cancellable);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FLOWS_READY]);
}

/* Sorting a million flows takes a quarter of a second: it runs on a
 * worker thread while the trace is first looked at. */
static void
index_flows (ChronoTimeline *self)
{
  g_autoptr(GTask) task = NULL;

  g_cancellable_cancel (self->flows_cancellable);
  g_clear_object (&self->flows_cancellable);
  if (self->flows_ready)
    {
      self->flows_ready = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FLOWS_READY]);
    }
  if (self->trace == NULL || chrono_trace_get_n_flows (self->trace) == 0)
    return;

  self->flows_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->flows_cancellable, index_flows_done_cb, NULL);
  g_task_set_source_tag (task, index_flows);
  g_task_set_task_data (task, g_object_ref (self->trace), g_object_unref);
  chrono_background_run (task, index_flows_thread, "chrono-flow-index");
}

/* -------------------------------------------------------------------- */
/* Drawing                                                              */

/* What is being dragged out: a range over the track area, or an area. */
static void
snapshot_marking (ChronoTimeline *self,
                  GtkSnapshot    *snapshot)
{
  GdkRGBA background, text, accent;
  double x = MIN (self->mark_x0, self->mark_x1), width = fabs (self->mark_x1 - self->mark_x0);
  double y = RULER_HEIGHT, height = gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT;

  chrono_palette_canvas_colors (self->dark, &background, &text, &accent);
  accent.alpha = 0.25;
  if (self->marking == MARK_AREA)
    {
      y = MIN (self->mark_y0, self->mark_y1);
      height = fabs (self->mark_y1 - self->mark_y0);
    }
  gtk_snapshot_append_color (snapshot, &accent, &GRAPHENE_RECT_INIT (x, y, MAX (width, 1), MAX (height, 1)));
}

static void
chrono_timeline_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  GdkRGBA background, text, accent;

  if (self->scene != NULL)
    {
      chrono_timeline_scene_snapshot (self->scene, snapshot);
      if (self->marking != MARK_NONE)
        snapshot_marking (self, snapshot);
      return;
    }
  chrono_palette_canvas_colors (self->dark, &background, &text, &accent);
  gtk_snapshot_append_color (snapshot, &background,
                             &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                  gtk_widget_get_height (widget)));
}

static void
chrono_timeline_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  /* Never the trace's size: the timeline scrolls and zooms itself. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = HEADER_WIDTH + 100;
  else
    *minimum = *natural = RULER_HEIGHT + 4 * ROW_HEIGHT;
}

static void
chrono_timeline_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);

  if (self->scene != NULL)
    chrono_timeline_scene_set_size (self->scene, width, height);
  else
    chrono_viewport_set_width_px (self->viewport, MAX (1, width - HEADER_WIDTH));
  gtk_popover_present (GTK_POPOVER (self->track_menu));
}

/* Pinned tracks are far from their process: they name it too. */
static void
set_track_tooltip (ChronoTimeline *self,
                   GtkTooltip     *tooltip,
                   const Row      *row)
{
  const ChronoTrack *track = chrono_trace_get_track (self->trace, row->track);
  const char *name = chrono_trace_get_string (self->trace, track->display_name);
  g_autofree char *text = NULL;

  if (row->pinned)
    /* Translators: a pinned track's tooltip: the track, then its process */
    text = g_strdup_printf (_("%s\n%s"), name,
                            chrono_trace_get_string (self->trace,
                                                     chrono_trace_get_process (self->trace, row->process)->display_name));
  gtk_tooltip_set_text (tooltip, text != NULL ? text : name);
}

static gboolean
chrono_timeline_query_tooltip (GtkWidget  *widget,
                               int         x,
                               int         y,
                               gboolean    keyboard_tooltip,
                               GtkTooltip *tooltip)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  const ChronoTrack *track;
  g_autofree char *duration = NULL;
  g_autofree char *markup = NULL;
  ChronoSpanRef span;

  /* Nothing over the track menu while it is open. */
  if (gtk_widget_get_visible (self->track_menu))
    return FALSE;
  /* Names cut short in the header column show whole here. */
  if (!keyboard_tooltip && self->trace != NULL && x < HEADER_WIDTH && y >= RULER_HEIGHT)
    {
      guint i = find_row_at (self, y);
      const Row *row;

      if (i == G_MAXUINT)
        return FALSE;
      row = get_row (self, i);
      if (row->track == NO_TRACK && row->process == NO_TRACK)
        return FALSE;
      if (row->track == NO_TRACK)
        gtk_tooltip_set_text (tooltip, chrono_trace_get_string (self->trace,
                                                                chrono_trace_get_process (self->trace, row->process)->display_name));
      else
        set_track_tooltip (self, tooltip, row);
      return TRUE;
    }

  if (keyboard_tooltip)
    {
      if (!self->has_selection)
        return FALSE;
      span = self->selection;
    }
  else if (!chrono_timeline_hit_test (self, x, y, &span))
    return FALSE;

  track = chrono_trace_get_track (self->trace, span.track);
  duration = chrono_format_duration (chrono_track_get_dur (track, span.index));
  /* Translators: a span's tooltip: its name, then its duration and kind */
  markup = g_markup_printf_escaped (_("<b>%s</b>\n%s · %s"),
                                    chrono_trace_get_string (self->trace, chrono_track_get_name (track, span.index)),
                                    duration,
                                    chrono_kind_to_string (track->kind[span.index]));
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static void
scene_changed_cb (ChronoTimeline *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
zoom_at (ChronoTimeline *self,
         double          factor,
         double          x)
{
  chrono_viewport_zoom (self->viewport, factor,
                        CLAMP (x - HEADER_WIDTH, 0, chrono_viewport_get_width_px (self->viewport)));
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           ChronoTimeline           *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (self->trace == NULL)
    return FALSE;

  if (state & GDK_CONTROL_MASK)
    zoom_at (self, pow (ZOOM_STEP, -dy), self->pointer_x);
  else if (state & GDK_SHIFT_MASK)
    chrono_viewport_pan (self->viewport, (dx + dy) * SCROLL_STEP_PX);
  else
    {
      chrono_viewport_pan (self->viewport, dx * SCROLL_STEP_PX);
      set_scroll_y (self, get_scroll_y (self) + dy * SCROLL_STEP_PX);
    }
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           ChronoTimeline           *self)
{
  self->pointer_x = x;
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               ChronoTimeline *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  self->drag_x = 0;
  self->drag_y = 0;
  self->marking = MARK_NONE;
  if (self->trace != NULL && x >= HEADER_WIDTH)
    {
      if (y < RULER_HEIGHT)
        self->marking = MARK_MEASURE;
      else if (state & GDK_SHIFT_MASK)
        self->marking = MARK_AREA;
    }
  self->mark_x0 = self->mark_x1 = x;
  self->mark_y0 = self->mark_y1 = y;
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          offset_x,
                double          offset_y,
                ChronoTimeline *self)
{
  if (self->dragged_track != NO_TRACK)
    return;
  if (self->marking != MARK_NONE)
    {
      self->mark_x1 = CLAMP (self->mark_x0 + offset_x, HEADER_WIDTH, gtk_widget_get_width (GTK_WIDGET (self)));
      self->mark_y1 = self->mark_y0 + offset_y;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  /* The content follows the pointer, so time moves against it. */
  chrono_viewport_pan (self->viewport, self->drag_x - offset_x);
  set_scroll_y (self, get_scroll_y (self) + self->drag_y - offset_y);
  self->drag_x = offset_x;
  self->drag_y = offset_y;
}

static void
popup_menu (ChronoTimeline *self,
            GMenuModel     *model,
            double          x,
            double          y)
{
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->track_menu), model);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->track_menu), &(GdkRectangle) { x, y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->track_menu));
  /* A tooltip already shown goes. */
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
}

/* The tracks with rows from Y0 to Y1, top to bottom. */
static GArray *
get_tracks_between (ChronoTimeline *self,
                    double          y0,
                    double          y1)
{
  GArray *tracks = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < n_rows (self); i++)
    {
      const Row *row = get_row (self, i);
      double top = get_row_top (self, row);

      if (row->track != NO_TRACK && top < MAX (y0, y1) && top + row->height > MIN (y0, y1))
        g_array_append_val (tracks, row->track);
    }
  return tracks;
}

static void
mark_end_cb (GtkGestureDrag *gesture,
             double          offset_x,
             double          offset_y,
             ChronoTimeline *self)
{
  Marking marking = self->marking;
  gint64 t0, t1;

  self->marking = MARK_NONE;
  if (marking == MARK_NONE)
    return;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (fabs (self->mark_x1 - self->mark_x0) < MARK_MIN_PX)
    return;
  t0 = chrono_viewport_x_to_time (self->viewport, MIN (self->mark_x0, self->mark_x1) - HEADER_WIDTH);
  t1 = chrono_viewport_x_to_time (self->viewport, MAX (self->mark_x0, self->mark_x1) - HEADER_WIDTH);
  if (marking == MARK_MEASURE)
    g_signal_emit (self, signals[MEASURED], 0, t0, t1);
  else
    {
      g_autoptr(GArray) tracks = get_tracks_between (self, self->mark_y0, self->mark_y1);

      g_signal_emit (self, signals[AREA_SELECTED], 0, t0, t1, tracks);
      if (self->area_menu != NULL)
        popup_menu (self, self->area_menu, self->mark_x1, self->mark_y1);
    }
}

/* -------------------------------------------------------------------- */
/* Tracks: the current one, its menu, pinning, hiding and moving        */

static guint
get_track_at (ChronoTimeline *self,
              double          y)
{
  guint i = find_row_at (self, y);

  return i == NO_TRACK ? NO_TRACK : get_row (self, i)->track;
}

static void
update_track_actions (ChronoTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  guint track = self->current_track;
  /* A track folded into its process's header is out of reach of all but
   * the group actions. */
  gboolean has_track = track != NO_TRACK && own_row (self, track) != NO_TRACK;
  guint n_processes = self->trace != NULL ? chrono_trace_get_n_processes (self->trace) : 0;
  guint n_collapsed = self->layout != NULL ? chrono_track_layout_get_n_collapsed (self->layout) : 0;

  gtk_widget_action_set_enabled (widget, "timeline.pin-track", has_track);
  gtk_widget_action_set_enabled (widget, "timeline.hide-track", has_track);
  gtk_widget_action_set_enabled (widget, "timeline.expand-track",
                                 has_track && (chrono_track_layout_is_expanded (self->layout, track) ||
                                               chrono_timeline_scene_get_row (self->scene, own_row (self, track))->n_rows_hidden > 0));
  gtk_widget_action_set_enabled (widget, "timeline.track-menu", has_track);
  gtk_widget_action_set_enabled (widget, "timeline.move-track-up",
                                 has_track && chrono_track_layout_can_move (self->layout, track, -1));
  gtk_widget_action_set_enabled (widget, "timeline.move-track-down",
                                 has_track && chrono_track_layout_can_move (self->layout, track, 1));
  gtk_widget_action_set_enabled (widget, "timeline.show-all-tracks",
                                 self->layout != NULL && chrono_track_layout_get_n_hidden (self->layout) > 0);
  gtk_widget_action_set_enabled (widget, "timeline.toggle-group", track != NO_TRACK);
  gtk_widget_action_set_enabled (widget, "timeline.collapse-all", n_collapsed < n_processes);
  gtk_widget_action_set_enabled (widget, "timeline.expand-all", n_collapsed > 0);
}

static void
set_current_track (ChronoTimeline *self,
                   guint           track)
{
  if (self->current_track == track)
    return;
  self->current_track = track;
  if (self->scene != NULL)
    chrono_timeline_scene_set_current_track (self->scene, track);
  update_track_actions (self);
}

/* Scrolls so that CONTENT_Y to CONTENT_Y + HEIGHT of a scrolling row
 * shows below the pinned ones. */
static void
reveal_content (ChronoTimeline *self,
                double          content_y,
                double          height)
{
  double area = get_track_area_height (self);
  double top = content_y - get_scroll_offset (self);

  if (top + height > area)
    set_scroll_y (self, get_scroll_y (self) + top + height - area);
  top = content_y - get_scroll_offset (self);
  if (top < get_pinned_visible (self))
    set_scroll_y (self, get_scroll_y (self) - (get_pinned_visible (self) - top));
}

static void
layout_changed_cb (ChronoTimeline *self)
{
  chrono_timeline_scene_update_rows (self->scene);
  if (self->current_track != NO_TRACK && get_track_row (self, self->current_track) == NO_TRACK)
    set_current_track (self, NO_TRACK);
  update_track_actions (self);
}

/* The track rows above (DELTA -1) or below (+1) the current track's, in
 * the order they are drawn. */
static guint
get_next_track (ChronoTimeline *self,
                int             delta)
{
  gint64 i;

  if (n_rows (self) == 0)
    return NO_TRACK;
  if (self->current_track == NO_TRACK)
    i = delta > 0 ? -1 : (gint64) n_rows (self);
  else
    i = get_track_row (self, self->current_track);
  for (i += delta; i >= 0 && i < n_rows (self); i += delta)
    {
      const Row *row = get_row (self, i);

      if (row->track != NO_TRACK)
        return row->track;
      /* A collapsed header stands for its first track. */
      if (row->collapsed && row->n_members > 0)
        return chrono_timeline_scene_get_member (self->scene, row, 0);
    }
  return NO_TRACK;
}

static void
reveal_track (ChronoTimeline *self,
              guint           track)
{
  const Row *row;
  guint i;

  if (track == NO_TRACK || (i = get_track_row (self, track)) == NO_TRACK)
    return;
  row = get_row (self, i);
  if (!row->pinned)
    reveal_content (self, row->y, MIN (row->height, get_track_area_height (self) - get_pinned_visible (self)));
}

static void
step_track_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  guint track = get_next_track (self, g_str_equal (action_name, "timeline.previous-track") ? -1 : 1);

  if (track == NO_TRACK)
    return;
  set_current_track (self, track);
  reveal_track (self, track);
}

static void
pin_track_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  guint track = self->current_track;

  chrono_track_layout_set_pinned (self->layout, track,
                                  !chrono_track_layout_is_pinned (self->layout, track));
  reveal_track (self, track);
}

static void
expand_track_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  guint track = self->current_track;

  chrono_track_layout_set_expanded (self->layout, track,
                                    !chrono_track_layout_is_expanded (self->layout, track));
  reveal_track (self, track);
}

static void
hide_track_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  guint track = self->current_track;
  guint next = get_next_track (self, 1);

  /* The next track becomes current, so that H pressed again goes on. */
  if (next == NO_TRACK)
    next = get_next_track (self, -1);
  chrono_track_layout_set_hidden (self->layout, track, TRUE);
  set_current_track (self, next);
}

static void
move_track_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);

  chrono_track_layout_move (self->layout, self->current_track,
                            g_str_equal (action_name, "timeline.move-track-up") ? -1 : 1);
  reveal_track (self, self->current_track);
}

static void
show_all_tracks_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  chrono_track_layout_show_all (CHRONO_TIMELINE (widget)->layout);
}

static void
toggle_process (ChronoTimeline *self,
                guint           process)
{
  chrono_track_layout_set_collapsed (self->layout, process,
                                     !chrono_track_layout_is_collapsed (self->layout, process));
}

/* Collapses or expands the current track's process. */
static void
toggle_group_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  guint track = self->current_track;

  toggle_process (self, chrono_trace_get_track (self->trace, track)->process);
  reveal_track (self, track);
}

static void
collapse_all_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);

  chrono_track_layout_set_all_collapsed (self->layout, g_str_equal (action_name, "timeline.collapse-all"));
  reveal_track (self, self->current_track);
}

/* A track's name dragged up or down moves the track past its neighbours
 * in the same block (its process, or the pinned tracks). */
static void
track_drag_begin_cb (GtkGestureDrag *gesture,
                     double          x,
                     double          y,
                     ChronoTimeline *self)
{
  self->dragged_track = NO_TRACK;
  if (self->trace == NULL || x >= HEADER_WIDTH)
    return;
  self->dragged_track = get_track_at (self, y);
  self->drag_start_y = y;
  if (self->dragged_track != NO_TRACK)
    set_current_track (self, self->dragged_track);
}

/* The row next to ROW in DELTA's direction that the track could trade
 * places with, or NULL. */
static const Row *
get_neighbour_row (ChronoTimeline *self,
                   guint           i,
                   int             delta)
{
  const Row *row = get_row (self, i);
  const Row *other;

  if ((delta < 0 && i == 0) || (delta > 0 && i + 1 >= n_rows (self)))
    return NULL;
  other = get_row (self, i + delta);
  if (other->track == NO_TRACK || other->pinned != row->pinned)
    return NULL;
  return other;
}

static void
track_drag_update_cb (GtkGestureDrag *gesture,
                      double          offset_x,
                      double          offset_y,
                      ChronoTimeline *self)
{
  double y = self->drag_start_y + offset_y;

  if (self->dragged_track == NO_TRACK)
    return;
  /* Past the middle of a neighbour, trade places with it. Swapped, the
   * neighbour's middle is beyond the pointer the other way, so the
   * track does not flip back. */
  for (;;)
    {
      guint i = own_row (self, self->dragged_track);
      const Row *up = get_neighbour_row (self, i, -1);
      const Row *down = get_neighbour_row (self, i, 1);

      if (up != NULL && y < get_row_top (self, up) + up->height / 2)
        chrono_track_layout_move (self->layout, self->dragged_track, -1);
      else if (down != NULL && y > get_row_top (self, down) + down->height / 2)
        chrono_track_layout_move (self->layout, self->dragged_track, 1);
      else
        break;
    }
}

static void
track_drag_end_cb (GtkGestureDrag *gesture,
                   double          offset_x,
                   double          offset_y,
                   ChronoTimeline *self)
{
  self->dragged_track = NO_TRACK;
}

static void
popup_track_menu (ChronoTimeline *self,
                  double          x,
                  double          y)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) section = g_menu_new ();

  g_menu_append (section, chrono_track_layout_is_pinned (self->layout, self->current_track) ?
                 _("_Unpin") : _("_Pin to Top"), "timeline.pin-track");
  g_menu_append (section, _("_Hide"), "timeline.hide-track");
  g_menu_append (section, chrono_track_layout_is_expanded (self->layout, self->current_track) ?
                 _("Show _Fewer Levels") : _("Show All _Levels"), "timeline.expand-track");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  section = g_menu_new ();
  g_menu_append (section, _("Move _Up"), "timeline.move-track-up");
  g_menu_append (section, _("Move _Down"), "timeline.move-track-down");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  section = g_menu_new ();
  g_menu_append (section, _("_Show All Tracks"), "timeline.show-all-tracks");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));

  popup_menu (self, G_MENU_MODEL (menu), x, y);
}

static void
track_menu_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  const Row *row;

  reveal_track (self, self->current_track);
  row = get_row (self, get_track_row (self, self->current_track));
  popup_track_menu (self, HEADER_WIDTH / 2.0, get_row_top (self, row) + MIN (row->height, GROUP_HEIGHT) / 2);
}

/* Right click or long press on a track's name. */
static void
header_menu_requested (ChronoTimeline *self,
                       double          x,
                       double          y)
{
  guint track;

  if (self->trace == NULL || x >= HEADER_WIDTH || (track = get_track_at (self, y)) == NO_TRACK)
    return;
  set_current_track (self, track);
  popup_track_menu (self, x, y);
}

static void
long_pressed_cb (GtkGestureLongPress *gesture,
                 double               x,
                 double               y,
                 ChronoTimeline      *self)
{
  header_menu_requested (self, x, y);
}

static void
click_pressed_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  ChronoTimeline  *self)
{
  ChronoSpanRef span;
  guint i;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (self->trace == NULL || n_press != 1)
    return;
  if (gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture)) == GDK_BUTTON_SECONDARY)
    {
      /* On a span: it is selected, and its menu opens. */
      if (x >= HEADER_WIDTH && self->span_menu != NULL && chrono_timeline_hit_test (self, x, y, &span))
        {
          chrono_timeline_select (self, &span);
          popup_menu (self, self->span_menu, x, y);
        }
      else
        header_menu_requested (self, x, y);
      return;
    }
  /* Link to…: the span clicked is the arrow's head. */
  if (self->linking)
    {
      self->linking = FALSE;
      if (chrono_timeline_hit_test (self, x, y, &span))
        {
          g_signal_emit (self, signals[LINKED], 0, self->link_from.track, self->link_from.index,
                         span.track, span.index);
          chrono_timeline_select (self, &span);
        }
      return;
    }
  /* A track's name makes it the one the track actions act on. */
  if (x < HEADER_WIDTH && get_track_at (self, y) != NO_TRACK)
    {
      set_current_track (self, get_track_at (self, y));
      return;
    }
  /* A process's name collapses or expands it. */
  if (x < HEADER_WIDTH && (i = find_row_at (self, y)) != NO_TRACK &&
      get_row (self, i)->process != NO_TRACK && get_row (self, i)->track == NO_TRACK)
    {
      toggle_process (self, get_row (self, i)->process);
      return;
    }

  if (chrono_timeline_hit_test (self, x, y, &span))
    {
      chrono_timeline_select (self, &span);
      g_signal_emit (self, signals[SPAN_ACTIVATED], 0, span.track, span.index);
    }
  else
    chrono_timeline_select (self, NULL);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  double centre = HEADER_WIDTH + chrono_viewport_get_width_px (self->viewport) / 2.0;

  if (g_str_equal (action_name, "timeline.zoom-in"))
    zoom_at (self, ZOOM_STEP, centre);
  else
    zoom_at (self, 1 / ZOOM_STEP, centre);
}

static void
pan_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  double step = PAN_FRACTION * chrono_viewport_get_width_px (self->viewport);

  chrono_viewport_pan (self->viewport,
                       g_str_equal (action_name, "timeline.pan-left") ? -step : step);
}

static void
scroll_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);

  set_scroll_y (self, get_scroll_y (self) +
                (g_str_equal (action_name, "timeline.scroll-up") ? -SCROLL_STEP_PX : SCROLL_STEP_PX));
}

static void
show_all_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  chrono_viewport_show_all (CHRONO_TIMELINE (widget)->viewport);
}

/* The selected span is an arrow's tail; the next span clicked its head. */
static void
link_to_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);

  self->linking = self->has_selection;
  self->link_from = self->selection;
  if (!self->linking)
    gtk_widget_error_bell (widget);
}

static void
chrono_timeline_dispose (GObject *object)
{
  ChronoTimeline *self = CHRONO_TIMELINE (object);

  if (self->scene != NULL)
    g_signal_handlers_disconnect_by_func (self->scene, scene_changed_cb, self);
  g_clear_object (&self->scene);
  g_clear_object (&self->search);
  g_clear_object (&self->annotations);
  if (self->layout != NULL)
    g_signal_handlers_disconnect_by_func (self->layout, layout_changed_cb, self);
  g_clear_object (&self->layout);
  g_clear_pointer (&self->track_menu, gtk_widget_unparent);
  g_clear_object (&self->span_menu);
  g_clear_object (&self->area_menu);
  g_cancellable_cancel (self->flows_cancellable);
  g_clear_object (&self->flows_cancellable);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (chrono_timeline_parent_class)->dispose (object);
}

static void
chrono_timeline_finalize (GObject *object)
{
  ChronoTimeline *self = CHRONO_TIMELINE (object);

  g_clear_object (&self->viewport);

  G_OBJECT_CLASS (chrono_timeline_parent_class)->finalize (object);
}

static void
chrono_timeline_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  ChronoTimeline *self = CHRONO_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      g_value_set_object (value, self->trace);
      break;
    case PROP_DARK:
      g_value_set_boolean (value, self->dark);
      break;
    case PROP_SHOW_ALL_FLOWS:
      g_value_set_boolean (value, self->show_all_flows);
      break;
    case PROP_FLOWS_READY:
      g_value_set_boolean (value, chrono_timeline_get_flows_ready (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_timeline_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  ChronoTimeline *self = CHRONO_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      chrono_timeline_set_trace (self, g_value_get_object (value));
      break;
    case PROP_DARK:
      chrono_timeline_set_dark (self, g_value_get_boolean (value));
      break;
    case PROP_SHOW_ALL_FLOWS:
      chrono_timeline_set_show_all_flows (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_timeline_class_init (ChronoTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_timeline_dispose;
  object_class->finalize = chrono_timeline_finalize;
  object_class->get_property = chrono_timeline_get_property;
  object_class->set_property = chrono_timeline_set_property;

  widget_class->snapshot = chrono_timeline_snapshot;
  widget_class->measure = chrono_timeline_measure;
  widget_class->size_allocate = chrono_timeline_size_allocate;
  widget_class->query_tooltip = chrono_timeline_query_tooltip;

  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL, CHRONO_TYPE_TRACE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DARK] =
    g_param_spec_boolean ("dark", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Arrows for every flow in view, not only the selected span's. */
  properties[PROP_SHOW_ALL_FLOWS] =
    g_param_spec_boolean ("show-all-flows", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Whether the flows are indexed and their arrows can show. */
  properties[PROP_FLOWS_READY] =
    g_param_spec_boolean ("flows-ready", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The span clicked: its track and its index in the track. */
  signals[SPAN_ACTIVATED] =
    g_signal_new ("span-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  /* A range dragged out in the ruler: its start and end. */
  signals[MEASURED] =
    g_signal_new ("measured", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);
  /* An area dragged out with Shift: its range and its tracks (a GArray
   * of guint), before the area menu opens. */
  signals[AREA_SELECTED] =
    g_signal_new ("area-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT64, G_TYPE_INT64, G_TYPE_ARRAY);
  /* After Link to…, the span clicked: from its track and index to the
   * other's. */
  signals[LINKED] =
    g_signal_new ("linked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT);

  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-up", NULL, scroll_action);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-down", NULL, scroll_action);
  gtk_widget_class_install_action (widget_class, "timeline.show-all", NULL, show_all_action);
  gtk_widget_class_install_action (widget_class, "timeline.link-to", NULL, link_to_action);
  gtk_widget_class_install_property_action (widget_class, "timeline.show-all-flows", "show-all-flows");

  /* The keys of web-based trace viewers, which people already know. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "timeline.scroll-up", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "timeline.scroll-down", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "timeline.show-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_0, 0, "timeline.show-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, 0, "timeline.show-all-flows", NULL);

  gtk_widget_class_install_action (widget_class, "timeline.previous-track", NULL, step_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.next-track", NULL, step_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.pin-track", NULL, pin_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.hide-track", NULL, hide_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.expand-track", NULL, expand_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.move-track-up", NULL, move_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.move-track-down", NULL, move_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.show-all-tracks", NULL, show_all_tracks_action);
  gtk_widget_class_install_action (widget_class, "timeline.track-menu", NULL, track_menu_action);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-group", NULL, toggle_group_action);
  gtk_widget_class_install_action (widget_class, "timeline.collapse-all", NULL, collapse_all_action);
  gtk_widget_class_install_action (widget_class, "timeline.expand-all", NULL, collapse_all_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_CONTROL_MASK, "timeline.previous-track", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_CONTROL_MASK, "timeline.next-track", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_p, 0, "timeline.pin-track", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_h, 0, "timeline.hide-track", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, 0, "timeline.expand-track", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_ALT_MASK, "timeline.move-track-up", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_ALT_MASK, "timeline.move-track-down", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_h, GDK_SHIFT_MASK, "timeline.show-all-tracks", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "timeline.track-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "timeline.track-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "timeline.toggle-group", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "timeline.toggle-group", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "timeline.toggle-group", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketleft, 0, "timeline.collapse-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketright, 0, "timeline.expand-all", NULL);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_WIDGET);
}

static void
chrono_timeline_init (ChronoTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkGesture *gesture;

  self->viewport = chrono_viewport_new ();
  self->current_track = NO_TRACK;
  self->dragged_track = NO_TRACK;
  self->track_menu = gtk_popover_menu_new_from_model (NULL);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->track_menu), FALSE);
  gtk_popover_set_position (GTK_POPOVER (self->track_menu), GTK_POS_BOTTOM);
  gtk_widget_set_halign (self->track_menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->track_menu, widget);
  update_track_actions (self);

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_vexpand (widget, TRUE);

  chrono_zoom_controllers_add (widget, G_CALLBACK (scroll_cb), G_CALLBACK (motion_cb), self);

  gesture = gtk_gesture_drag_new ();
  /* Before panning, which gives way to a track dragged by its name. */
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (track_drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (track_drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (track_drag_end_cb), self);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (mark_end_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  /* The secondary button opens the track menu. */
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect (gesture, "pressed", G_CALLBACK (click_pressed_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_long_press_new ();
  gtk_gesture_single_set_touch_only (GTK_GESTURE_SINGLE (gesture), TRUE);
  g_signal_connect (gesture, "pressed", G_CALLBACK (long_pressed_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));
}

GtkWidget *
chrono_timeline_new (ChronoTrace *trace)
{
  return g_object_new (CHRONO_TYPE_TIMELINE, "trace", trace, NULL);
}

ChronoTrace *
chrono_timeline_get_trace (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), NULL);

  return self->trace;
}

/* INDEXES: every track's index, built ahead of time, or NULL to build
 * them when first needed. */
static void
set_trace (ChronoTimeline *self,
           ChronoTrace    *trace,
           GPtrArray      *indexes)
{
  if (!g_set_object (&self->trace, trace))
    return;

  self->has_selection = FALSE;
  self->current_track = NO_TRACK;
  g_clear_object (&self->search);
  g_clear_object (&self->annotations);
  if (self->scene != NULL)
    g_signal_handlers_disconnect_by_func (self->scene, scene_changed_cb, self);
  g_clear_object (&self->scene);
  if (self->layout != NULL)
    g_signal_handlers_disconnect_by_func (self->layout, layout_changed_cb, self);
  g_clear_object (&self->layout);
  if (trace != NULL)
    {
      self->layout = chrono_track_layout_new (trace);
      g_signal_connect_swapped (self->layout, "changed", G_CALLBACK (layout_changed_cb), self);
      chrono_viewport_set_bounds (self->viewport, chrono_trace_get_start_ns (trace),
                                  MAX (chrono_trace_get_end_ns (trace),
                                       chrono_trace_get_start_ns (trace) + CHRONO_VIEWPORT_MIN_DURATION_NS));
      chrono_viewport_show_all (self->viewport);
      self->scene = chrono_timeline_scene_new (trace, indexes, self->layout, self->viewport);
      chrono_timeline_scene_set_pango_context (self->scene, gtk_widget_get_pango_context (GTK_WIDGET (self)));
      chrono_timeline_scene_set_dark (self->scene, self->dark);
      chrono_timeline_scene_set_show_all_flows (self->scene, self->show_all_flows);
      chrono_timeline_scene_set_size (self->scene, gtk_widget_get_width (GTK_WIDGET (self)),
                                      gtk_widget_get_height (GTK_WIDGET (self)));
      g_signal_connect_swapped (self->scene, "changed", G_CALLBACK (scene_changed_cb), self);
    }
  index_flows (self);
  update_track_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRACE]);
}

void
chrono_timeline_set_trace (ChronoTimeline *self,
                           ChronoTrace    *trace)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));
  g_return_if_fail (trace == NULL || CHRONO_IS_TRACE (trace));

  set_trace (self, trace, NULL);
}

GtkWidget *
chrono_timeline_new_indexed (ChronoTrace *trace,
                             GPtrArray   *indexes)
{
  ChronoTimeline *self;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (indexes != NULL, NULL);
  g_return_val_if_fail (indexes->len == chrono_trace_get_n_tracks (trace), NULL);

  self = g_object_new (CHRONO_TYPE_TIMELINE, NULL);
  set_trace (self, trace, indexes);
  return GTK_WIDGET (self);
}

gboolean
chrono_timeline_get_dark (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);

  return self->dark;
}

void
chrono_timeline_set_dark (ChronoTimeline *self,
                          gboolean        dark)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));

  dark = !!dark;
  if (self->dark == dark)
    return;
  self->dark = dark;
  if (self->scene != NULL)
    chrono_timeline_scene_set_dark (self->scene, dark);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
}

ChronoViewport *
chrono_timeline_get_viewport (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), NULL);

  return self->viewport;
}

/**
 * chrono_timeline_get_scene:
 *
 * Returns: (transfer none) (nullable): what the timeline draws, %NULL
 *   without a trace; a new trace makes a new scene
 */
ChronoTimelineScene *
chrono_timeline_get_scene (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), NULL);

  return self->scene;
}

gboolean
chrono_timeline_hit_test (ChronoTimeline *self,
                          double          x,
                          double          y,
                          ChronoSpanRef  *span)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (span != NULL, FALSE);

  return self->scene != NULL && chrono_timeline_scene_hit_test (self->scene, x, y, span);
}

gboolean
chrono_timeline_get_span_area (ChronoTimeline  *self,
                               ChronoSpanRef    span,
                               graphene_rect_t *area)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (area != NULL, FALSE);

  return self->scene != NULL && chrono_timeline_scene_get_span_area (self->scene, span, area);
}

gboolean
chrono_timeline_get_selection (ChronoTimeline *self,
                               ChronoSpanRef  *span)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);

  if (self->has_selection && span != NULL)
    *span = self->selection;
  return self->has_selection;
}

void
chrono_timeline_select (ChronoTimeline      *self,
                        const ChronoSpanRef *span)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));

  self->has_selection = span != NULL;
  if (span != NULL)
    {
      self->selection = *span;
      set_current_track (self, span->track);
    }
  if (self->scene != NULL)
    chrono_timeline_scene_set_selection (self->scene, span);
}

/**
 * chrono_timeline_get_track_layout:
 *
 * Returns: (transfer none) (nullable): the order, pinned and hidden
 *   tracks of the timeline; changing it redraws
 */
ChronoTrackLayout *
chrono_timeline_get_track_layout (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), NULL);
  return self->layout;
}

guint
chrono_timeline_get_current_track (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), G_MAXUINT);
  return self->current_track;
}

gboolean
chrono_timeline_get_track_area (ChronoTimeline  *self,
                                guint            track,
                                graphene_rect_t *area)
{
  const Row *row;

  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (area != NULL, FALSE);

  if (self->trace == NULL || own_row (self, track) == NO_TRACK)
    return FALSE;
  row = get_row (self, own_row (self, track));
  graphene_rect_init (area, 0, get_row_top (self, row), gtk_widget_get_width (GTK_WIDGET (self)),
                      row->height);
  return TRUE;
}

gboolean
chrono_timeline_get_process_area (ChronoTimeline  *self,
                                  guint            process,
                                  graphene_rect_t *area)
{
  const Row *row;

  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (area != NULL, FALSE);

  if (self->trace == NULL ||
      chrono_timeline_scene_get_process_row (self->scene, process) == NO_TRACK)
    return FALSE;
  row = get_row (self, chrono_timeline_scene_get_process_row (self->scene, process));
  graphene_rect_init (area, 0, get_row_top (self, row), gtk_widget_get_width (GTK_WIDGET (self)),
                      row->height);
  return TRUE;
}

void
chrono_timeline_set_search (ChronoTimeline *self,
                            ChronoSearch   *search)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));
  g_return_if_fail (search == NULL || CHRONO_IS_SEARCH (search));

  if (!g_set_object (&self->search, search))
    return;
  if (self->scene != NULL)
    chrono_timeline_scene_set_search (self->scene, search);
}

ChronoSearch *
chrono_timeline_get_search (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), NULL);
  return self->search;
}

void
chrono_timeline_reveal_span (ChronoTimeline *self,
                             ChronoSpanRef   span)
{
  const ChronoTrack *track;
  const Row *row;
  gint64 start, end, view_start, view_end;
  double width_px;

  g_return_if_fail (CHRONO_IS_TIMELINE (self));
  g_return_if_fail (self->trace != NULL);
  g_return_if_fail (span.track < chrono_trace_get_n_tracks (self->trace));

  track = chrono_trace_get_track (self->trace, span.track);
  g_return_if_fail (span.index < track->n_spans);

  /* A span folded into its process's header must show: the process
   * opens. */
  if (own_row (self, span.track) == NO_TRACK && !chrono_track_layout_is_hidden (self->layout, span.track))
    chrono_track_layout_set_collapsed (self->layout, track->process, FALSE);
  /* So must a span below the rows a capped track shows. */
  if (own_row (self, span.track) != NO_TRACK &&
      chrono_track_index_get_span_row (chrono_timeline_scene_get_row (self->scene, own_row (self, span.track))->index,
                                       span.index) >=
      chrono_track_layout_get_max_rows (self->layout, span.track))
    chrono_track_layout_set_expanded (self->layout, span.track, TRUE);

  start = track->start[span.index];
  end = start + MAX (chrono_track_get_dur (track, span.index), 0);
  view_start = chrono_viewport_get_start_ns (self->viewport);
  view_end = chrono_viewport_get_end_ns (self->viewport);
  width_px = (end - start) * chrono_viewport_get_px_per_ns (self->viewport);

  /* Wide enough where it is: at most a pan to bring it in. Too narrow
   * to find: zoom to it, with its own length of context either side. */
  if (width_px >= REVEAL_MIN_PX && end - start <= view_end - view_start)
    {
      if (start < view_start || end > view_end)
        chrono_viewport_zoom_to_range (self->viewport, (start + end) / 2 - (view_end - view_start) / 2,
                                       (start + end) / 2 + (view_end - view_start) / 2);
    }
  else
    {
      gint64 pad = MAX (end - start, CHRONO_VIEWPORT_MIN_DURATION_NS);

      chrono_viewport_zoom_to_range (self->viewport, start - pad, end + pad);
    }

  if (own_row (self, span.track) == NO_TRACK)
    return;
  row = get_row (self, own_row (self, span.track));
  if (!row->pinned)
    reveal_content (self, row->y + TRACK_PAD +
                    chrono_track_index_get_span_row (row->index, span.index) * ROW_HEIGHT,
                    ROW_HEIGHT);
}

gboolean
chrono_timeline_get_show_all_flows (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);

  return self->show_all_flows;
}

void
chrono_timeline_set_show_all_flows (ChronoTimeline *self,
                                    gboolean        show_all_flows)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));

  show_all_flows = !!show_all_flows;
  if (self->show_all_flows == show_all_flows)
    return;
  self->show_all_flows = show_all_flows;
  if (self->scene != NULL)
    chrono_timeline_scene_set_show_all_flows (self->scene, show_all_flows);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_ALL_FLOWS]);
}

gboolean
chrono_timeline_get_flows_ready (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);

  return self->flows_ready;
}

/**
 * chrono_timeline_set_highlight:
 * @tracks: (array length=n_tracks) (nullable): tracks of the trace
 *
 * Shades [START_NS, END_NS) and the rows of TRACKS; an empty range and no
 * tracks clear it.
 */
void
chrono_timeline_set_highlight (ChronoTimeline *self,
                               gint64          start_ns,
                               gint64          end_ns,
                               const guint    *tracks,
                               guint           n_tracks)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));

  if (self->scene != NULL)
    chrono_timeline_scene_set_highlight (self->scene, start_ns, end_ns, tracks, n_tracks);
}

/**
 * chrono_timeline_set_path:
 * @spans: (array length=n_spans) (nullable): spans of the trace
 *
 * Underlines SPANS, such as the steps of a critical path.
 */
void
chrono_timeline_set_path (ChronoTimeline      *self,
                          const ChronoSpanRef *spans,
                          guint                n_spans)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));

  if (self->scene != NULL)
    chrono_timeline_scene_set_path (self->scene, spans, n_spans);
}

/* Scrolls so that TRACK's rows start near the top of the track area. */
void
chrono_timeline_scroll_to_track (ChronoTimeline *self,
                                 guint           track)
{
  const Row *row;

  g_return_if_fail (CHRONO_IS_TIMELINE (self));

  if (self->trace == NULL || own_row (self, track) == NO_TRACK)
    return;
  row = get_row (self, own_row (self, track));
  /* Pinned rows are always in view. */
  if (!row->pinned)
    set_scroll_y (self, row->y - chrono_timeline_scene_get_pinned_height (self->scene) - GROUP_HEIGHT);
}

/**
 * chrono_timeline_set_annotations:
 * @annotations: (nullable): of the timeline's trace
 */
void
chrono_timeline_set_annotations (ChronoTimeline    *self,
                                 ChronoAnnotations *annotations)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));
  g_return_if_fail (annotations == NULL || CHRONO_IS_ANNOTATIONS (annotations));

  if (!g_set_object (&self->annotations, annotations))
    return;
  if (self->scene != NULL)
    chrono_timeline_scene_set_annotations (self->scene, annotations);
}

ChronoAnnotations *
chrono_timeline_get_annotations (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), NULL);
  return self->annotations;
}

/**
 * chrono_timeline_set_span_menu:
 * @menu: (nullable): what a secondary click on a span opens
 */
void
chrono_timeline_set_span_menu (ChronoTimeline *self,
                               GMenuModel     *menu)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));
  g_set_object (&self->span_menu, menu);
}

/**
 * chrono_timeline_set_area_menu:
 * @menu: (nullable): what opens over an area dragged out with Shift
 */
void
chrono_timeline_set_area_menu (ChronoTimeline *self,
                               GMenuModel     *menu)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));
  g_set_object (&self->area_menu, menu);
}
