/* chrono-timeline-view-search.c: the timeline view's search bar: matches
 * found off the main thread, counted, and stepped through
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "chrono-format.h"
#include "chrono-timeline-view-private.h"

void
chrono_timeline_view_update_matches (ChronoTimelineView *self)
{
  guint n = self->search != NULL ? chrono_search_get_n_matches (self->search) : 0;
  g_autofree char *total = chrono_format_count (n);
  g_autofree char *text = NULL;

  if (self->search == NULL)
    text = g_strdup ("");
  else if (n == 0)
    text = g_strdup (_("No matches"));
  else if (self->current_match == NO_MATCH)
    /* Translators: how many spans a search found */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s match", "%s matches", n), total);
  else
    {
      g_autofree char *current = chrono_format_count (self->current_match + 1);

      /* Translators: the match shown and how many there are, "12 of 3,456" */
      text = g_strdup_printf (_("%s of %s"), current, total);
    }
  gtk_label_set_label (self->match_label, text);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.find-next", n > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.find-previous", n > 0);
}

static void
go_to_match (ChronoTimelineView *self,
             ChronoSpanRef       span)
{
  self->current = span;
  self->current_match = chrono_search_get_rank (self->search, span);
  chrono_timeline_select (self->timeline, &span);
  chrono_timeline_reveal_span (self->timeline, span);
  chrono_span_details_show_span (self->details, &span);
  chrono_timeline_view_update_matches (self);
}

static void
set_search (ChronoTimelineView *self,
            ChronoSearch       *search)
{
  g_set_object (&self->search, search);
  self->current_match = NO_MATCH;
  chrono_timeline_set_search (self->timeline, search);
  chrono_timeline_view_update_matches (self);
}

static void
search_done_cb (GObject      *source_object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(ChronoTimelineView) self = user_data;
  g_autoptr(ChronoSearch) search = NULL;
  g_autoptr(GError) error = NULL;
  gboolean new_text;

  search = chrono_search_new_finish (result, &error);
  if (search == NULL)
    return;  /* cancelled by a newer search */
  g_clear_object (&self->search_cancellable);
  new_text = self->search == NULL ||
             !g_str_equal (chrono_search_get_text (self->search), chrono_search_get_text (search));
  set_search (self, search);
  /* Like a browser: new text goes to the first match from where the
   * person is looking; the same text again (tracks shown or hidden)
   * stays put. */
  if (new_text && chrono_search_get_n_matches (search) > 0)
    chrono_timeline_view_find (self, 1);
}

void
chrono_timeline_view_run_search (ChronoTimelineView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  ChronoTrackLayout *layout = chrono_timeline_get_track_layout (self->timeline);
  guint n_tracks = chrono_trace_get_n_tracks (self->trace);
  g_autofree gboolean *hidden = g_new (gboolean, MAX (n_tracks, 1));

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  if (*text == '\0')
    {
      set_search (self, NULL);
      return;
    }

  /* Hidden tracks are out of sight: their matches would lead nowhere. */
  for (guint t = 0; t < n_tracks; t++)
    hidden[t] = chrono_track_layout_is_hidden (layout, t);
  self->search_cancellable = g_cancellable_new ();
  chrono_search_new_async (self->trace, text, hidden, self->search_cancellable,
                           search_done_cb, g_object_ref (self));
}

static void
search_changed_cb (ChronoTimelineView *self)
{
  chrono_timeline_view_run_search (self);
}

static void
search_mode_changed_cb (ChronoTimelineView *self)
{
  if (gtk_search_bar_get_search_mode (self->search_bar))
    return;
  /* Closing the search clears it, and its marks. */
  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  set_search (self, NULL);
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
}

static void
entry_activate_cb (ChronoTimelineView *self)
{
  chrono_timeline_view_find (self, 1);
}

static void
entry_next_match_cb (ChronoTimelineView *self)
{
  chrono_timeline_view_find (self, 1);
}

static void
entry_previous_match_cb (ChronoTimelineView *self)
{
  chrono_timeline_view_find (self, -1);
}

static gboolean
entry_key_pressed_cb (ChronoTimelineView *self,
                      guint               keyval,
                      guint               keycode,
                      GdkModifierType     state)
{
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter) && (state & GDK_SHIFT_MASK))
    {
      chrono_timeline_view_find (self, -1);
      return GDK_EVENT_STOP;
    }
  return GDK_EVENT_PROPAGATE;
}

static void
close_search_cb (ChronoTimelineView *self)
{
  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
}

/* Escape closes the search wherever the focus is in the view, not only in
 * its entry. */
/* Escape closes the search first, then the details of the selected span. */
static gboolean
escape_cb (GtkWidget *widget,
           GVariant  *args,
           gpointer   user_data)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (widget);

  if (gtk_search_bar_get_search_mode (self->search_bar))
    {
      gtk_search_bar_set_search_mode (self->search_bar, FALSE);
      return TRUE;
    }
  if (gtk_widget_get_visible (GTK_WIDGET (self->details)))
    return gtk_widget_activate_action (GTK_WIDGET (self->details), "details.close", NULL);
  return FALSE;
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  chrono_timeline_view_find (CHRONO_TIMELINE_VIEW (widget),
                             g_str_equal (action_name, "view.find-next") ? 1 : -1);
}


GtkSearchBar *
chrono_timeline_view_get_search_bar (ChronoTimelineView *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_VIEW (self), NULL);
  return self->search_bar;
}

void
chrono_timeline_view_start_search (ChronoTimelineView *self)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_VIEW (self));

  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

void
chrono_timeline_view_find (ChronoTimelineView *self,
                           int                 direction)
{
  ChronoSpanRef match;
  gboolean found;

  g_return_if_fail (CHRONO_IS_TIMELINE_VIEW (self));

  if (self->search == NULL || chrono_search_get_n_matches (self->search) == 0)
    return;
  direction = direction > 0 ? 1 : -1;
  if (self->current_match != NO_MATCH)
    found = chrono_search_step (self->search, &self->current, direction, &match);
  else if (direction > 0)
    /* From the left edge of the view: the first match at or after it ... */
    found = chrono_search_find_from (self->search,
                                     chrono_viewport_get_start_ns (chrono_timeline_get_viewport (self->timeline)),
                                     &match);
  else
    {
      /* ... or the last one before it. */
      ChronoSpanRef edge;

      found = chrono_search_find_from (self->search,
                                       chrono_viewport_get_start_ns (chrono_timeline_get_viewport (self->timeline)),
                                       &edge) &&
              chrono_search_step (self->search, &edge, -1, &match);
    }
  /* Past the last match comes the first, and the other way round. */
  if (!found)
    found = chrono_search_step (self->search, NULL, direction, &match);
  g_return_if_fail (found);
  go_to_match (self, match);
}

ChronoSearch *
chrono_timeline_view_get_search (ChronoTimelineView *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_VIEW (self), NULL);
  return self->search;
}

guint
chrono_timeline_view_get_current_match (ChronoTimelineView *self,
                                        ChronoSpanRef      *span)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_VIEW (self), NO_MATCH);

  if (span != NULL && self->current_match != NO_MATCH)
    *span = self->current;
  return self->current_match;
}

void
chrono_timeline_view_class_add_search (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "view.find-next", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "view.find-previous", NULL, find_action);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, 0, escape_cb, NULL);
  gtk_widget_class_bind_template_callback (widget_class, close_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_mode_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, entry_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, entry_next_match_cb);
  gtk_widget_class_bind_template_callback (widget_class, entry_previous_match_cb);
  gtk_widget_class_bind_template_callback (widget_class, entry_key_pressed_cb);
}
