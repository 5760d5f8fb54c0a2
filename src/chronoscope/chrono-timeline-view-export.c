/* chrono-timeline-view-export.c: the timeline view's files: the view or
 * an area as a picture, and its notes exported and imported
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "chrono-error-dialog.h"
#include "chrono-export-dialog.h"
#include "chrono-format.h"
#include "chrono-picture.h"
#include "chrono-timeline-view-private.h"

static void
export_notes_to_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (widget);
  g_autofree char *name = g_path_get_basename (chrono_trace_get_path (self->trace));
  g_autoptr(GError) error = NULL;

  if (!chrono_annotations_export (self->annotations, g_variant_get_string (parameter, NULL), name, &error))
    chrono_show_error (GTK_WIDGET (self), _("Could Not Export the Notes"), error);
}

static void
import_notes_from_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (widget);
  g_autoptr(GError) error = NULL;

  if (!chrono_annotations_import (self->annotations, g_variant_get_string (parameter, NULL), &error))
    chrono_show_error (GTK_WIDGET (self), _("Could Not Import the Notes"), error);
}

/* START to END of the timeline as it shows, without the selection;
 * ONLY, when not NULL, the tracks to keep. *SUBTITLE gets the range. */
static ChronoTimelineScene *
make_scene (ChronoTimelineView  *self,
            gint64               start,
            gint64               end,
            GArray              *only,
            char               **subtitle)
{
  ChronoViewport *shown = chrono_timeline_get_viewport (self->timeline);
  ChronoTrackLayout *layout = chrono_timeline_get_track_layout (self->timeline);
  g_autoptr(ChronoTrackLayout) own = NULL;
  g_autoptr(ChronoViewport) viewport = chrono_viewport_new ();
  g_autofree char *from = NULL, *to = NULL;
  ChronoTimelineScene *scene;
  gint64 zero = chrono_trace_get_start_ns (self->trace);

  if (only != NULL)
    {
      g_autoptr(JsonNode) order = chrono_track_layout_to_json (layout);
      g_autofree gboolean *keep = g_new0 (gboolean, chrono_trace_get_n_tracks (self->trace));

      own = chrono_track_layout_new (self->trace);
      chrono_track_layout_load_json (own, order, NULL);
      for (guint i = 0; i < only->len; i++)
        keep[g_array_index (only, guint, i)] = TRUE;
      for (guint t = 0; t < chrono_trace_get_n_tracks (self->trace); t++)
        if (!keep[t])
          chrono_track_layout_set_hidden (own, t, TRUE);
      layout = own;
    }
  chrono_viewport_set_bounds (viewport, chrono_viewport_get_bounds_start_ns (shown),
                              chrono_viewport_get_bounds_end_ns (shown));
  scene = chrono_timeline_scene_new (self->trace, NULL, layout, viewport);
  chrono_timeline_scene_set_pango_context (scene, gtk_widget_get_pango_context (GTK_WIDGET (self->timeline)));
  chrono_timeline_scene_set_dark (scene, chrono_timeline_get_dark (self->timeline));
  chrono_timeline_scene_set_annotations (scene, self->annotations);
  /* An area's tracks whole; the view as tall as it shows. */
  chrono_timeline_scene_set_size (scene, gtk_widget_get_width (GTK_WIDGET (self->timeline)),
                                  only != NULL ? chrono_timeline_scene_get_ruler_height (scene) +
                                                 chrono_timeline_scene_get_content_height (scene)
                                               : gtk_widget_get_height (GTK_WIDGET (self->timeline)));
  chrono_viewport_zoom_to_range (viewport, start, end);
  from = chrono_format_duration (chrono_viewport_get_start_ns (viewport) - zero);
  to = chrono_format_duration (chrono_viewport_get_end_ns (viewport) - zero);
  /* Translators: a picture's subtitle: the time range it shows */
  *subtitle = g_strdup_printf (_("%s to %s from the start"), from, to);
  return scene;
}

/* The area last selected, or the view as it shows. */
static ChronoTimelineScene *
make_export_scene (ChronoTimelineView  *self,
                   gboolean             area,
                   char               **subtitle)
{
  ChronoViewport *shown = chrono_timeline_get_viewport (self->timeline);

  if (area)
    return make_scene (self, self->area_start, self->area_end, self->area_tracks, subtitle);
  return make_scene (self, chrono_viewport_get_start_ns (shown), chrono_viewport_get_end_ns (shown), NULL,
                     subtitle);
}

/* Into PATH, PNG, SVG or PDF by its name, as the dialog's defaults are. */
static void
export_picture_to_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (widget);
  const char *path = g_variant_get_string (parameter, NULL);
  g_autofree char *name = g_path_get_basename (chrono_trace_get_path (self->trace));
  g_autofree char *subtitle = NULL;
  g_autoptr(ChronoTimelineScene) scene = NULL;
  g_autoptr(GError) error = NULL;
  ChronoPictureOptions options = { name, NULL, TRUE, 1 };
  ChronoPictureFormat format;

  if (!chrono_picture_format_for_path (path, &format))
    {
      g_set_error (&error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _("%s: the name must end in .png, .svg or .pdf"), path);
      chrono_show_error (GTK_WIDGET (self), _("Could Not Export the Picture"), error);
      return;
    }
  scene = make_export_scene (self, g_str_equal (action_name, "view.export-area-to"), &subtitle);
  options.subtitle = subtitle;
  if (!chrono_picture_write (scene, &options, format, path, &error))
    chrono_show_error (GTK_WIDGET (self), _("Could Not Export the Picture"), error);
}

/* Export Picture…: the dialog, for the view or the area. */
static void
export_dialog_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (widget);
  g_autofree char *name = g_path_get_basename (chrono_trace_get_path (self->trace));
  g_autofree char *stem = g_strndup (name, strcspn (name, "."));
  g_autofree char *subtitle = NULL;
  g_autoptr(ChronoTimelineScene) scene = make_export_scene (self, g_str_equal (action_name, "view.area-export"),
                                                            &subtitle);

  gtk_window_present (GTK_WINDOW (chrono_export_dialog_new (GTK_WINDOW (gtk_widget_get_root (widget)), scene, name,
                                                            subtitle, stem)));
}

static void
chooser_response_cb (GtkNativeDialog    *chooser,
                     int                 response,
                     ChronoTimelineView *self)
{
  const char *action = g_object_get_data (G_OBJECT (chooser), "chrono-action");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL)
        gtk_widget_activate_action (GTK_WIDGET (self), action, "s", path);
    }
  g_clear_object (&self->chooser);
}

/* A file chooser whose file goes to ACTION, which takes its path. */
static void
choose_file (ChronoTimelineView   *self,
             const char           *title,
             GtkFileChooserAction  mode,
             const char           *suggested,
             const char           *action)
{
  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))),
                                               mode, NULL, NULL);
  if (suggested != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), suggested);
  g_object_set_data (G_OBJECT (self->chooser), "chrono-action", (gpointer) action);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (chooser_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
choose_file_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  ChronoTimelineView *self = CHRONO_TIMELINE_VIEW (widget);
  g_autofree char *base = g_path_get_basename (chrono_trace_get_path (self->trace));
  g_autofree char *stem = g_strndup (base, strcspn (base, "."));
  g_autofree char *notes = g_strconcat (stem, ".notes.json", NULL);

  if (g_str_equal (action_name, "view.export-notes"))
    choose_file (self, _("Export Notes"), GTK_FILE_CHOOSER_ACTION_SAVE, notes, "view.export-notes-to");
  else
    choose_file (self, _("Import Notes"), GTK_FILE_CHOOSER_ACTION_OPEN, NULL, "view.import-notes-from");
}


void
chrono_timeline_view_class_add_export (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "view.export-notes", NULL, choose_file_action);
  gtk_widget_class_install_action (widget_class, "view.import-notes", NULL, choose_file_action);
  gtk_widget_class_install_action (widget_class, "view.export-picture", NULL, export_dialog_action);
  gtk_widget_class_install_action (widget_class, "view.area-export", NULL, export_dialog_action);
  /* The same, given the file's path. */
  gtk_widget_class_install_action (widget_class, "view.export-notes-to", "s", export_notes_to_action);
  gtk_widget_class_install_action (widget_class, "view.import-notes-from", "s", import_notes_from_action);
  gtk_widget_class_install_action (widget_class, "view.export-picture-to", "s", export_picture_to_action);
  gtk_widget_class_install_action (widget_class, "view.export-area-to", "s", export_picture_to_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "view.export-picture", NULL);
}
