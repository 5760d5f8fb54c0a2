/* chrono-timeline-tracks.c: the timeline's tracks: the current one, its
 * menu, pinning, hiding, moving and collapsing, by key, menu or drag
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>

#include "chrono-timeline-private.h"

void
_chrono_timeline_popup_menu (ChronoTimeline *self,
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

/* -------------------------------------------------------------------- */
/* Tracks: the current one, its menu, pinning, hiding and moving        */

guint
_chrono_timeline_get_track_at (ChronoTimeline *self,
                               double          y)
{
  guint i = find_row_at (self, y);

  return i == NO_TRACK ? NO_TRACK : get_row (self, i)->track;
}

void
_chrono_timeline_update_track_actions (ChronoTimeline *self)
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

void
_chrono_timeline_set_current_track (ChronoTimeline *self,
                                    guint           track)
{
  if (self->current_track == track)
    return;
  self->current_track = track;
  if (self->scene != NULL)
    chrono_timeline_scene_set_current_track (self->scene, track);
  _chrono_timeline_update_track_actions (self);
}

/* Scrolls so that CONTENT_Y to CONTENT_Y + HEIGHT of a scrolling row
 * shows below the pinned ones. */
void
_chrono_timeline_reveal_content (ChronoTimeline *self,
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

void
_chrono_timeline_layout_changed_cb (ChronoTimeline *self)
{
  chrono_timeline_scene_update_rows (self->scene);
  if (self->current_track != NO_TRACK && get_track_row (self, self->current_track) == NO_TRACK)
    _chrono_timeline_set_current_track (self, NO_TRACK);
  _chrono_timeline_update_track_actions (self);
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
    _chrono_timeline_reveal_content (self, row->y, MIN (row->height, get_track_area_height (self) - get_pinned_visible (self)));
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
  _chrono_timeline_set_current_track (self, track);
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
  _chrono_timeline_set_current_track (self, next);
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

void
_chrono_timeline_toggle_process (ChronoTimeline *self,
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

  _chrono_timeline_toggle_process (self, chrono_trace_get_track (self->trace, track)->process);
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
void
_chrono_timeline_track_drag_begin_cb (GtkGestureDrag *gesture,
                                      double          x,
                                      double          y,
                                      ChronoTimeline *self)
{
  self->dragged_track = NO_TRACK;
  if (self->trace == NULL || x >= HEADER_WIDTH)
    return;
  self->dragged_track = _chrono_timeline_get_track_at (self, y);
  self->drag_start_y = y;
  if (self->dragged_track != NO_TRACK)
    _chrono_timeline_set_current_track (self, self->dragged_track);
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

void
_chrono_timeline_track_drag_update_cb (GtkGestureDrag *gesture,
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

void
_chrono_timeline_track_drag_end_cb (GtkGestureDrag *gesture,
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

  _chrono_timeline_popup_menu (self, G_MENU_MODEL (menu), x, y);
}

/* A derived counter hides as a track does. */
static void
popup_counter_menu (ChronoTimeline *self,
                    guint           process,
                    double          x,
                    double          y)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenuItem) hide = g_menu_item_new (_("_Hide"), NULL);

  g_menu_item_set_action_and_target_value (hide, "timeline.hide-counter", g_variant_new_uint32 (process));
  g_menu_append_item (menu, hide);
  g_menu_append (menu, _("_Show All Tracks"), "timeline.show-all-tracks");
  _chrono_timeline_popup_menu (self, G_MENU_MODEL (menu), x, y);
}

static void
hide_counter_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  guint process = g_variant_get_uint32 (parameter);

  if (self->layout != NULL && process < chrono_trace_get_n_processes (self->trace))
    chrono_track_layout_set_counter_hidden (self->layout, process, TRUE);
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
void
_chrono_timeline_header_menu_requested (ChronoTimeline *self,
                                        double          x,
                                        double          y)
{
  guint track, i;

  if (self->trace != NULL && x < HEADER_WIDTH && (i = find_row_at (self, y)) != NO_TRACK &&
      get_row (self, i)->derived)
    {
      popup_counter_menu (self, get_row (self, i)->process, x, y);
      return;
    }
  if (self->trace == NULL || x >= HEADER_WIDTH || (track = _chrono_timeline_get_track_at (self, y)) == NO_TRACK)
    return;
  _chrono_timeline_set_current_track (self, track);
  popup_track_menu (self, x, y);
}


void
_chrono_timeline_class_init_tracks (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "timeline.previous-track", NULL, step_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.next-track", NULL, step_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.pin-track", NULL, pin_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.hide-track", NULL, hide_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.hide-counter", "u", hide_counter_action);
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
}
