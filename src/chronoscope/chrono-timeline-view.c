/* chrono-timeline-view.c: the timeline with its span details, area
 * table, track layout and notes; its search is in
 * chrono-timeline-view-search.c, its pictures and notes files in
 * chrono-timeline-view-export.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "chrono-annotation-editor.h"
#include "chrono-format.h"
#include "chrono-timeline-view-private.h"
#include "chrono-track-keys.h"

/* The name of the track layout in the sidecar. */
#define TRACKS_SECTION "tracks"
/* And the annotations, as the notes file holds them. */
#define ANNOTATIONS_SECTION "annotations"


G_DEFINE_FINAL_TYPE (ChronoTimelineView, chrono_timeline_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TRACE,
  PROP_INDEXES,
  PROP_ANNOTATION_COLOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* -------------------------------------------------------------------- */
/* Track layout and its sidecar                                         */

static void
update_hidden_menu (ChronoTimelineView *self)
{
  ChronoTrackLayout *layout = chrono_timeline_get_track_layout (self->timeline);
  const guint *order;
  guint n_tracks;
  g_autoptr(GMenu) tracks = g_menu_new ();
  g_autoptr(GMenu) all = g_menu_new ();

  order = chrono_track_layout_get_order (layout, &n_tracks);
  for (guint i = 0; i < n_tracks; i++)
    {
      const ChronoTrack *track;
      g_autofree char *label = NULL;
      g_auto(GStrv) parts = NULL;
      g_autofree char *escaped = NULL;
      g_autoptr(GMenuItem) item = NULL;

      if (!chrono_track_layout_is_hidden (layout, order[i]))
        continue;
      track = chrono_trace_get_track (self->trace, order[i]);
      /* Translators: a hidden track in the menu that shows it again: the
       * track, then its process */
      label = g_strdup_printf (_("%s — %s"),
                               chrono_trace_get_string (self->trace, track->display_name),
                               chrono_trace_get_string (self->trace,
                                                        chrono_trace_get_process (self->trace, track->process)->display_name));
      /* Menus read underscores as mnemonics; names have plenty. */
      parts = g_strsplit (label, "_", -1);
      escaped = g_strjoinv ("__", parts);
      item = g_menu_item_new (escaped, NULL);
      g_menu_item_set_action_and_target (item, "document.show-track", "u", order[i]);
      g_menu_append_item (tracks, item);
    }
  g_menu_append (all, _("_Show All Tracks"), "document.show-all-tracks");

  g_menu_remove_all (self->hidden_menu);
  g_menu_append_section (self->hidden_menu, _("Hidden Tracks"), G_MENU_MODEL (tracks));
  g_menu_append_section (self->hidden_menu, NULL, G_MENU_MODEL (all));
}

static void
layout_changed_cb (ChronoTimelineView *self,
                   ChronoTrackLayout  *layout)
{
  g_autoptr(GError) error = NULL;

  update_hidden_menu (self);
  /* Matches in tracks just hidden or shown come and go. */
  if (self->search != NULL || self->search_cancellable != NULL)
    chrono_timeline_view_run_search (self);

  chrono_sidecar_set_section (self->sidecar, TRACKS_SECTION, chrono_track_layout_to_json (layout));
  if (!chrono_sidecar_save (self->sidecar, &error))
    g_warning ("Could not save the track layout: %s", error->message);
}

/* -------------------------------------------------------------------- */
/* Notes and pictures                                                   */

static void
update_note_actions (ChronoTimelineView *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.undo", chrono_annotations_can_undo (self->annotations));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.redo", chrono_annotations_can_redo (self->annotations));
}

static void
annotations_changed_cb (ChronoTimelineView *self)
{
  g_autoptr(GError) error = NULL;

  update_note_actions (self);
  chrono_sidecar_set_section (self->sidecar, ANNOTATIONS_SECTION, chrono_annotations_to_json (self->annotations));
  if (!chrono_sidecar_save (self->sidecar, &error))
    g_warning ("Could not save the annotations: %s", error->message);
}

/* A note on the selected span; FALSE without one. */
static gboolean
add_note (ChronoTimelineView *self,
          const char         *text)
{
  ChronoAnnotation note = { .kind = CHRONO_ANNOTATION_NOTE, .anchor = CHRONO_ANCHOR_SPAN, .text = (char *) text,
                            .color = self->annotation_color };
  ChronoSpanRef span;

  if (!chrono_timeline_get_selection (self->timeline, &span))
    return FALSE;
  chrono_span_anchor_set (&note.span, self->trace, (const char * const *) self->track_keys, span);
  chrono_annotations_add (self->annotations, &note);
  chrono_span_anchor_clear (&note.span);
  return TRUE;
}

static void
add_note_text_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  if (!add_note (CHRONO_TIMELINE_VIEW (widget), g_variant_get_string (parameter, NULL)))
    gtk_widget_error_bell (widget);
}

static void
note_response_cb (AdwMessageDialog   *dialog,
                  const char         *response,
                  ChronoTimelineView *self)
{
  ChronoAnnotationEditor *editor = CHRONO_ANNOTATION_EDITOR (adw_message_dialog_get_extra_child (dialog));
  const char *action = g_object_get_data (G_OBJECT (dialog), "chrono-action");

  if (!g_str_equal (response, "add"))
    {
      if (g_str_equal (action, "view.add-pending-text"))
        g_clear_pointer (&self->pending, chrono_annotation_free);
      return;
    }
  /* The colour chosen is the next one's too. */
  chrono_timeline_view_set_annotation_color (self, chrono_annotation_editor_get_color (editor));
  gtk_widget_activate_action (GTK_WIDGET (self), action, "s", chrono_annotation_editor_get_text (editor));
}

/* Asks for an annotation's text and colour; the text goes to TEXT_ACTION,
 * the colour to the view's annotation colour. */
static void
ask_for_annotation (ChronoTimelineView *self,
                    const char         *heading,
                    const char         *body,
                    const char         *placeholder,
                    const char         *text_action)
{
  GtkWidget *dialog, *editor;

  dialog = adw_message_dialog_new (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))), heading, body);
  g_object_set_data (G_OBJECT (dialog), "chrono-action", (gpointer) text_action);
  editor = chrono_annotation_editor_new ();
  chrono_annotation_editor_set_color (CHRONO_ANNOTATION_EDITOR (editor), self->annotation_color);
  chrono_annotation_editor_set_placeholder (CHRONO_ANNOTATION_EDITOR (editor), placeholder);
  chrono_annotation_editor_set_activates_default (CHRONO_ANNOTATION_EDITOR (editor), TRUE);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), editor);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "add", _("_Add"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "add", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "add");
  g_signal_connect_object (dialog, "response", G_CALLBACK (note_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (editor);
}

/* The measurement or arrow drawn last, with its label TEXT. */
static void
add_pending_text_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (widget);
  g_autoptr(ChronoAnnotation) pending = g_steal_pointer (&self->pending);

  if (pending == NULL)
    {
      gtk_widget_error_bell (widget);
      return;
    }
  g_free (pending->text);
  pending->text = g_variant_dup_string (parameter, NULL);
  pending->color = self->annotation_color;
  chrono_annotations_add (self->annotations, pending);
}

/* A measurement of START to END, once labelled. */
static void
ask_for_measurement (ChronoTimelineView *self,
                     gint64              start,
                     gint64              end)
{
  ChronoAnnotation measure = { .kind = CHRONO_ANNOTATION_MEASUREMENT, .anchor = CHRONO_ANCHOR_AREA,
                               .start_ns = start, .end_ns = end };
  g_autofree char *length = chrono_format_duration (end - start);

  g_clear_pointer (&self->pending, chrono_annotation_free);
  self->pending = chrono_annotation_copy (&measure);
  ask_for_annotation (self, _("Add Measurement"), length, _("Label (optional)"), "view.add-pending-text");
}

static void
add_note_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (widget);
  const ChronoTrack *track;
  ChronoSpanRef span;

  if (!chrono_timeline_get_selection (self->timeline, &span))
    {
      gtk_widget_error_bell (widget);
      return;
    }
  track = chrono_trace_get_track (self->trace, span.track);
  ask_for_annotation (self, _("Add Note"), chrono_trace_get_string (self->trace, chrono_track_get_name (track, span.index)),
                      _("Note"), "view.add-note-text");
}

static void
measured_cb (ChronoTimelineView *self,
             gint64              start,
             gint64              end)
{
  ask_for_measurement (self, start, end);
}

static void
linked_cb (ChronoTimelineView *self,
           guint               from_track,
           guint               from_index,
           guint               to_track,
           guint               to_index)
{
  ChronoAnnotation arrow = { .kind = CHRONO_ANNOTATION_ARROW, .anchor = CHRONO_ANCHOR_SPAN };
  g_autofree char *body = NULL;

  chrono_span_anchor_set (&arrow.span, self->trace, (const char * const *) self->track_keys,
                          (ChronoSpanRef) { from_track, from_index });
  chrono_span_anchor_set (&arrow.to, self->trace, (const char * const *) self->track_keys,
                          (ChronoSpanRef) { to_track, to_index });
  g_clear_pointer (&self->pending, chrono_annotation_free);
  self->pending = chrono_annotation_copy (&arrow);
  /* Translators: the spans an arrow joins, in the dialog that labels it */
  body = g_strdup_printf (_("From %s to %s"), arrow.span.name, arrow.to.name);
  chrono_span_anchor_clear (&arrow.span);
  chrono_span_anchor_clear (&arrow.to);
  ask_for_annotation (self, _("Add Arrow"), body, _("Label (optional)"), "view.add-pending-text");
}

static void
area_selected_cb (ChronoTimelineView *self,
                  gint64              start,
                  gint64              end,
                  GArray             *tracks)
{
  self->area_start = start;
  self->area_end = end;
  g_array_set_size (self->area_tracks, 0);
  g_array_append_vals (self->area_tracks, tracks->data, tracks->len);
}

/* The area's annotation of KIND, over its tracks. */
static void
add_area_annotation (ChronoTimelineView   *self,
                     ChronoAnnotationKind  kind,
                     const char           *text)
{
  g_autoptr(GStrvBuilder) keys = g_strv_builder_new ();
  g_auto(GStrv) tracks = NULL;
  ChronoAnnotation a = { .kind = kind, .anchor = CHRONO_ANCHOR_AREA, .start_ns = self->area_start,
                         .end_ns = self->area_end, .text = (char *) text, .color = self->annotation_color };

  for (guint i = 0; i < self->area_tracks->len; i++)
    g_strv_builder_add (keys, self->track_keys[g_array_index (self->area_tracks, guint, i)]);
  a.tracks = tracks = g_strv_builder_end (keys);
  chrono_annotations_add (self->annotations, &a);
}

static void
area_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (widget);

  if (self->area_end <= self->area_start)
    return;
  if (g_str_equal (action_name, "view.area-zoom"))
    chrono_viewport_zoom_to_range (chrono_timeline_get_viewport (self->timeline), self->area_start, self->area_end);
  else if (g_str_equal (action_name, "view.area-summarize"))
    chrono_area_pane_summarize (self->area_pane, self->area_start, self->area_end,
                                (const guint *) self->area_tracks->data, self->area_tracks->len);
  else if (g_str_equal (action_name, "view.area-measure"))
    ask_for_measurement (self, self->area_start, self->area_end);
  else if (g_str_equal (action_name, "view.area-note"))
    ask_for_annotation (self, _("Add Note"), NULL, _("Note"), "view.area-note-text");
  else if (g_str_equal (action_name, "view.area-note-text"))
    add_area_annotation (self, CHRONO_ANNOTATION_NOTE, g_variant_get_string (parameter, NULL));
}

static void
history_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (widget);

  if (g_str_equal (action_name, "view.undo"))
    chrono_annotations_undo (self->annotations);
  else
    chrono_annotations_redo (self->annotations);
}

/* The selected span's time on its track: it and what it holds. */
static void
span_summarize_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (widget);
  ChronoSpanRef span;
  const ChronoTrack *track;

  if (!chrono_timeline_get_selection (self->timeline, &span))
    return;
  track = chrono_trace_get_track (self->trace, span.track);
  chrono_timeline_view_summarize (self, track->start[span.index],
                                  MAX (chrono_track_get_end (track, span.index), track->start[span.index] + 1),
                                  &span.track, 1);
}

/* A range and its tracks from elsewhere (a finding): every track when it
 * names none. */
static void
summarize_range_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (widget);
  g_autoptr(GVariant) list = NULL;
  g_autofree guint *all = NULL;
  const guint32 *tracks;
  gint64 start, end;
  gsize n;

  g_variant_get (parameter, "(xx@au)", &start, &end, &list);
  tracks = g_variant_get_fixed_array (list, &n, sizeof (guint32));
  if (n == 0)
    {
      n = chrono_trace_get_n_tracks (self->trace);
      all = g_new (guint, MAX (n, 1));
      for (guint t = 0; t < n; t++)
        all[t] = t;
      tracks = all;
    }
  chrono_timeline_view_summarize (self, start, end, tracks, (guint) n);
}

/**
 * chrono_timeline_view_summarize:
 *
 * Opens the table of what TRACKS hold over [START_NS, END_NS) under the
 * timeline.
 */
void
chrono_timeline_view_summarize (ChronoTimelineView *self,
                                gint64              start_ns,
                                gint64              end_ns,
                                const guint        *tracks,
                                guint               n_tracks)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_VIEW (self));
  chrono_area_pane_summarize (self->area_pane, start_ns, end_ns, tracks, n_tracks);
}

ChronoAreaPane *
chrono_timeline_view_get_area_pane (ChronoTimelineView *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_VIEW (self), NULL);
  return self->area_pane;
}

/* The span and area menus, and what the timeline's drags make. */
static void
set_up_marking (ChronoTimelineView *self)
{
  g_autoptr(GMenu) span_menu = g_menu_new ();
  g_autoptr(GMenu) area_menu = g_menu_new ();

  g_menu_append (span_menu, _("Add _Note…"), "view.add-note");
  g_menu_append (span_menu, _("_Link to…"), "timeline.link-to");
  g_menu_append (span_menu, _("_Summarize Its Time"), "view.span-summarize");
  chrono_timeline_set_span_menu (self->timeline, G_MENU_MODEL (span_menu));
  g_menu_append (area_menu, _("_Summarize"), "view.area-summarize");
  g_menu_append (area_menu, _("_Zoom"), "view.area-zoom");
  g_menu_append (area_menu, _("Add _Note…"), "view.area-note");
  g_menu_append (area_menu, _("_Measure"), "view.area-measure");
  g_menu_append (area_menu, _("_Export Picture…"), "view.area-export");
  chrono_timeline_set_area_menu (self->timeline, G_MENU_MODEL (area_menu));
  g_signal_connect_object (self->timeline, "measured", G_CALLBACK (measured_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "linked", G_CALLBACK (linked_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "area-selected", G_CALLBACK (area_selected_cb), self, G_CONNECT_SWAPPED);
}

/* Shows what the annotation ID points at: its span, selected, or its
 * time. */
void
chrono_timeline_view_show_annotation (ChronoTimelineView *self,
                                      guint               id)
{
  const ChronoAnnotation *a;
  g_autoptr(GHashTable) keys = NULL;
  ChronoSpanRef span;
  gint64 start, end, pad;

  g_return_if_fail (CHRONO_IS_TIMELINE_VIEW (self));

  a = chrono_annotations_lookup (self->annotations, id);
  if (a == NULL)
    return;
  keys = chrono_annotations_index_keys ((const char * const *) self->track_keys);
  if (a->anchor == CHRONO_ANCHOR_SPAN)
    {
      if (!chrono_span_anchor_resolve (&a->span, self->trace, keys, &span))
        {
          gtk_widget_error_bell (GTK_WIDGET (self));
          return;
        }
      chrono_timeline_reveal_span (self->timeline, span);
      chrono_timeline_select (self->timeline, &span);
      chrono_span_details_show_span (self->details, &span);
      return;
    }
  start = a->start_ns;
  end = a->anchor == CHRONO_ANCHOR_AREA ? a->end_ns : a->start_ns;
  /* Its own length of context either side, or a little round an instant. */
  pad = MAX (end - start, CHRONO_VIEWPORT_MIN_DURATION_NS * 10);
  chrono_viewport_zoom_to_range (chrono_timeline_get_viewport (self->timeline), start - pad, end + pad);
}

static void
load_sidecar (ChronoTimelineView *self)
{
  ChronoTrackLayout *layout = chrono_timeline_get_track_layout (self->timeline);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) notes_error = NULL;
  JsonNode *section;

  self->sidecar = chrono_sidecar_new (chrono_trace_get_path (self->trace), NULL);
  if (!chrono_sidecar_load (self->sidecar, &error))
    g_warning ("Ignoring the saved state of %s: %s", chrono_trace_get_path (self->trace),
               error->message);
  else if ((section = chrono_sidecar_get_section (self->sidecar, TRACKS_SECTION)) != NULL &&
           !chrono_track_layout_load_json (layout, section, &error))
    g_warning ("Ignoring the saved track layout of %s: %s", chrono_trace_get_path (self->trace),
               error->message);
  if ((section = chrono_sidecar_get_section (self->sidecar, ANNOTATIONS_SECTION)) != NULL &&
      !chrono_annotations_load_json (self->annotations, section, chrono_sidecar_get_path (self->sidecar),
                                     &notes_error))
    g_warning ("Ignoring the saved annotations of %s: %s", chrono_trace_get_path (self->trace),
               notes_error->message);
  update_hidden_menu (self);
  update_note_actions (self);
  /* Only now: loading is no change to write back. */
  g_signal_connect_object (layout, "changed", G_CALLBACK (layout_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->annotations, "changed", G_CALLBACK (annotations_changed_cb), self,
                           G_CONNECT_SWAPPED);
}

/* -------------------------------------------------------------------- */

static void
span_activated_cb (ChronoTimelineView *self,
                   guint               track,
                   guint               index)
{
  ChronoSpanRef span = { track, index };

  chrono_span_details_show_span (self->details, &span);
}

static void
chrono_timeline_view_constructed (GObject *object)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (object);

  G_OBJECT_CLASS (chrono_timeline_view_parent_class)->constructed (object);

  g_return_if_fail (CHRONO_IS_TRACE (self->trace));

  if (self->indexes != NULL)
    self->timeline = CHRONO_TIMELINE (chrono_timeline_new_indexed (self->trace, self->indexes));
  else
    self->timeline = CHRONO_TIMELINE (chrono_timeline_new (self->trace));
  g_clear_pointer (&self->indexes, g_ptr_array_unref);
  self->details = CHRONO_SPAN_DETAILS (chrono_span_details_new (self->timeline));
  g_object_bind_property (adw_style_manager_get_default (), "dark",
                          self->timeline, "dark", G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->timeline, "span-activated", G_CALLBACK (span_activated_cb), self,
                           G_CONNECT_SWAPPED);
  self->track_keys = chrono_track_keys_new (self->trace);
  chrono_timeline_set_annotations (self->timeline, self->annotations);
  set_up_marking (self);
  gtk_paned_set_start_child (self->paned, GTK_WIDGET (self->timeline));
  gtk_paned_set_end_child (self->paned, GTK_WIDGET (self->details));
  chrono_area_pane_set_timeline (self->area_pane, self->timeline);
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  load_sidecar (self);
  chrono_timeline_view_update_matches (self);
}

static void
chrono_timeline_view_dispose (GObject *object)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (object);
  GtkWidget *child;

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_TIMELINE_VIEW);
  /* The panes round the timeline have no name to be disposed by. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (chrono_timeline_view_parent_class)->dispose (object);
}

static void
chrono_timeline_view_finalize (GObject *object)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (object);

  g_clear_object (&self->trace);
  g_clear_object (&self->sidecar);
  g_clear_object (&self->search);
  g_clear_object (&self->hidden_menu);
  g_clear_object (&self->annotations);
  g_clear_object (&self->chooser);
  g_strfreev (self->track_keys);
  g_clear_pointer (&self->area_tracks, g_array_unref);
  g_clear_pointer (&self->pending, chrono_annotation_free);

  G_OBJECT_CLASS (chrono_timeline_view_parent_class)->finalize (object);
}

static void
chrono_timeline_view_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      g_value_set_object (value, self->trace);
      break;
    case PROP_ANNOTATION_COLOR:
      g_value_set_uint (value, self->annotation_color);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_timeline_view_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      self->trace = g_value_dup_object (value);
      break;
    case PROP_INDEXES:
      self->indexes = g_value_dup_boxed (value);
      break;
    case PROP_ANNOTATION_COLOR:
      chrono_timeline_view_set_annotation_color (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_timeline_view_class_init (ChronoTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = chrono_timeline_view_constructed;
  object_class->dispose = chrono_timeline_view_dispose;
  object_class->finalize = chrono_timeline_view_finalize;
  object_class->get_property = chrono_timeline_view_get_property;
  object_class->set_property = chrono_timeline_view_set_property;

  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL, CHRONO_TYPE_TRACE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* The timeline's track indexes, one per track, when already built. */
  properties[PROP_INDEXES] =
    g_param_spec_boxed ("indexes", NULL, NULL, G_TYPE_PTR_ARRAY,
                        G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* The colour new annotations get, 0xRRGGBBAA; 0 for the accent. */
  properties[PROP_ANNOTATION_COLOR] =
    g_param_spec_uint ("annotation-color", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);


  gtk_widget_class_install_action (widget_class, "view.add-note", NULL, add_note_action);
  gtk_widget_class_install_property_action (widget_class, "view.annotation-color", "annotation-color");
  /* The text of a note on the selected span. */
  gtk_widget_class_install_action (widget_class, "view.add-note-text", "s", add_note_text_action);
  /* The label of the measurement or arrow just drawn. */
  gtk_widget_class_install_action (widget_class, "view.add-pending-text", "s", add_pending_text_action);
  gtk_widget_class_install_action (widget_class, "view.undo", NULL, history_action);
  gtk_widget_class_install_action (widget_class, "view.redo", NULL, history_action);
  /* On the area last dragged out with Shift. */
  gtk_widget_class_install_action (widget_class, "view.area-zoom", NULL, area_action);
  gtk_widget_class_install_action (widget_class, "view.area-note", NULL, area_action);
  gtk_widget_class_install_action (widget_class, "view.area-note-text", "s", area_action);
  gtk_widget_class_install_action (widget_class, "view.area-measure", NULL, area_action);
  gtk_widget_class_install_action (widget_class, "view.area-summarize", NULL, area_action);
  gtk_widget_class_install_action (widget_class, "view.span-summarize", NULL, span_summarize_action);
  gtk_widget_class_install_action (widget_class, "view.summarize-range", "(xxau)", summarize_range_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, 0, "view.add-note", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "view.undo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "view.redo", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "timelineview");
  g_type_ensure (CHRONO_TYPE_AREA_PANE);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-timeline-view.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoTimelineView, search_bar);
  gtk_widget_class_bind_template_child (widget_class, ChronoTimelineView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, ChronoTimelineView, match_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoTimelineView, paned);
  gtk_widget_class_bind_template_child (widget_class, ChronoTimelineView, area_pane);
  chrono_timeline_view_class_add_search (widget_class);
  chrono_timeline_view_class_add_export (widget_class);
}

static void
chrono_timeline_view_init (ChronoTimelineView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  self->current_match = NO_MATCH;
  self->hidden_menu = g_menu_new ();
  self->annotations = chrono_annotations_new ();
  self->area_tracks = g_array_new (FALSE, FALSE, sizeof (guint));
}

/* INDEXES: the track indexes built off the main thread, or NULL to build
 * them here. */
GtkWidget *
chrono_timeline_view_new (ChronoTrace *trace,
                          GPtrArray   *indexes)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);

  return g_object_new (CHRONO_TYPE_TIMELINE_VIEW, "trace", trace, "indexes", indexes, NULL);
}

guint32
chrono_timeline_view_get_annotation_color (ChronoTimelineView *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_VIEW (self), 0);
  return self->annotation_color;
}

void
chrono_timeline_view_set_annotation_color (ChronoTimelineView *self,
                                           guint32             color)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_VIEW (self));

  if (self->annotation_color == color)
    return;
  self->annotation_color = color;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANNOTATION_COLOR]);
}

ChronoTimeline *
chrono_timeline_view_get_timeline (ChronoTimelineView *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_VIEW (self), NULL);
  return self->timeline;
}

ChronoSpanDetails *
chrono_timeline_view_get_details (ChronoTimelineView *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_VIEW (self), NULL);
  return self->details;
}

/**
 * chrono_timeline_view_get_sidecar:
 *
 * Returns: (transfer none): the trace's project file, loaded, which the
 *   page's other parts keep their sections in too
 */
ChronoSidecar *
chrono_timeline_view_get_sidecar (ChronoTimelineView *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_VIEW (self), NULL);
  return self->sidecar;
}

GMenuModel *
chrono_timeline_view_get_hidden_menu (ChronoTimelineView *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_VIEW (self), NULL);
  return G_MENU_MODEL (self->hidden_menu);
}

void
chrono_timeline_view_show_track (ChronoTimelineView *self,
                                 guint               track)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_VIEW (self));
  g_return_if_fail (track < chrono_trace_get_n_tracks (self->trace));

  chrono_track_layout_set_hidden (chrono_timeline_get_track_layout (self->timeline), track, FALSE);
}
