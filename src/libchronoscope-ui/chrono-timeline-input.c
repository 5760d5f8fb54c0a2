/* chrono-timeline-input.c: the timeline's pointer and keys: zooming,
 * panning and scrolling, clicks on spans and names, ranges measured in
 * the ruler, areas dragged out with Shift, and spans linked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>

#include "chrono-timeline-private.h"
#include "chrono-zoom-controllers.h"

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
    g_signal_emit (self, _chrono_timeline_signals[MEASURED], 0, t0, t1);
  else
    {
      g_autoptr(GArray) tracks = get_tracks_between (self, self->mark_y0, self->mark_y1);

      g_signal_emit (self, _chrono_timeline_signals[AREA_SELECTED], 0, t0, t1, tracks);
      if (self->area_menu != NULL)
        _chrono_timeline_popup_menu (self, self->area_menu, self->mark_x1, self->mark_y1);
    }
}

static void
long_pressed_cb (GtkGestureLongPress *gesture,
                 double               x,
                 double               y,
                 ChronoTimeline      *self)
{
  _chrono_timeline_header_menu_requested (self, x, y);
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
          _chrono_timeline_popup_menu (self, self->span_menu, x, y);
        }
      else
        _chrono_timeline_header_menu_requested (self, x, y);
      return;
    }
  /* Link to…: the span clicked is the arrow's head. */
  if (self->linking)
    {
      self->linking = FALSE;
      if (chrono_timeline_hit_test (self, x, y, &span))
        {
          g_signal_emit (self, _chrono_timeline_signals[LINKED], 0, self->link_from.track, self->link_from.index,
                         span.track, span.index);
          chrono_timeline_select (self, &span);
        }
      return;
    }
  /* A track's name makes it the one the track actions act on. */
  if (x < HEADER_WIDTH && _chrono_timeline_get_track_at (self, y) != NO_TRACK)
    {
      _chrono_timeline_set_current_track (self, _chrono_timeline_get_track_at (self, y));
      return;
    }
  /* A process's name collapses or expands it. */
  if (x < HEADER_WIDTH && (i = find_row_at (self, y)) != NO_TRACK &&
      get_row (self, i)->process != NO_TRACK && get_row (self, i)->track == NO_TRACK && !get_row (self, i)->derived)
    {
      _chrono_timeline_toggle_process (self, get_row (self, i)->process);
      return;
    }

  if (chrono_timeline_hit_test (self, x, y, &span))
    {
      chrono_timeline_select (self, &span);
      g_signal_emit (self, _chrono_timeline_signals[SPAN_ACTIVATED], 0, span.track, span.index);
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

void
_chrono_timeline_class_init_input (GtkWidgetClass *widget_class)
{
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
}

void
_chrono_timeline_init_input (ChronoTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkGesture *gesture;

  chrono_zoom_controllers_add (widget, G_CALLBACK (scroll_cb), G_CALLBACK (motion_cb), self);

  gesture = gtk_gesture_drag_new ();
  /* Before panning, which gives way to a track dragged by its name. */
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (_chrono_timeline_track_drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (_chrono_timeline_track_drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (_chrono_timeline_track_drag_end_cb), self);
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
