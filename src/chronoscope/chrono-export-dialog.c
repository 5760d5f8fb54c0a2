/* chrono-export-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "chrono-error-dialog.h"
#include "chrono-export-dialog.h"
#include "chrono-finding-scene.h"
#include "chrono-format.h"
#include "chrono-picture.h"

/* The preview is drawn this wide at most, then scaled to fit. */
#define PREVIEW_WIDTH 1200

static const char *const extensions[] = { ".png", ".svg", ".pdf" };

struct _ChronoExportDialog
{
  GtkWindow            parent_instance;

  GPtrArray           *scenes;  /* ChronoTimelineScene, top to bottom */
  GArray              *shares;  /* double: each one's part of the height */
  char                *subtitle;
  char                *stem;
  GtkFileChooserNative *chooser;

  GtkEntry            *title_entry;
  GtkDropDown         *format_dropdown;
  GtkSpinButton       *scale_spin;
  GtkDropDown         *theme_dropdown;
  GtkSpinButton       *width_spin;
  GtkSpinButton       *height_spin;
  GtkCheckButton      *legend_check;
  GtkPicture          *preview;
};

G_DEFINE_FINAL_TYPE (ChronoExportDialog, chrono_export_dialog, GTK_TYPE_WINDOW)

static void
get_options (ChronoExportDialog   *self,
             ChronoPictureOptions *options)
{
  options->title = gtk_editable_get_text (GTK_EDITABLE (self->title_entry));
  options->subtitle = self->subtitle;
  options->legend = gtk_check_button_get_active (self->legend_check);
  options->scale = gtk_spin_button_get_value (self->scale_spin);
}

/* The scene at the dialog's size and theme, then the preview of it. */
static void
options_changed_cb (ChronoExportDialog *self)
{
  ChronoPictureOptions options;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  cairo_surface_t *surface;
  double width, height, zoom;
  cairo_t *cr;

  if (self->scenes == NULL)
    return;
  for (guint i = 0; i < self->scenes->len; i++)
    {
      ChronoTimelineScene *scene = self->scenes->pdata[i];

      chrono_timeline_scene_set_dark (scene, gtk_drop_down_get_selected (self->theme_dropdown) == 1);
      chrono_timeline_scene_set_size (scene, gtk_spin_button_get_value (self->width_spin),
                                      round (gtk_spin_button_get_value (self->height_spin) *
                                             g_array_index (self->shares, double, i)));
    }
  /* Only PNG has a scale. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->scale_spin), gtk_drop_down_get_selected (self->format_dropdown) == 0);

  get_options (self, &options);
  width = chrono_timeline_scene_get_width (self->scenes->pdata[0]);
  height = chrono_picture_get_stack_height ((ChronoTimelineScene **) self->scenes->pdata, self->scenes->len,
                                            &options);
  zoom = MIN (1, PREVIEW_WIDTH / width);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (width * zoom), (int) ceil (height * zoom));
  cr = cairo_create (surface);
  cairo_scale (cr, zoom, zoom);
  chrono_picture_draw_stack ((ChronoTimelineScene **) self->scenes->pdata, self->scenes->len, &options, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  bytes = g_bytes_new (cairo_image_surface_get_data (surface),
                       cairo_image_surface_get_stride (surface) * cairo_image_surface_get_height (surface));
  texture = gdk_memory_texture_new (cairo_image_surface_get_width (surface), cairo_image_surface_get_height (surface),
                                    GDK_MEMORY_DEFAULT, bytes, cairo_image_surface_get_stride (surface));
  gtk_picture_set_paintable (self->preview, GDK_PAINTABLE (texture));
  cairo_surface_destroy (surface);
}

static void
chooser_response_cb (GtkNativeDialog    *chooser,
                     int                 response,
                     ChronoExportDialog *self)
{
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL && !chrono_export_dialog_write (self, path, &error))
        chrono_show_error (GTK_WIDGET (self), _("Could Not Export the Picture"), error);
      else if (path != NULL)
        gtk_window_close (GTK_WINDOW (self));
    }
  g_clear_object (&self->chooser);
}

static void
export_clicked_cb (ChronoExportDialog *self)
{
  g_autofree char *name = g_strconcat (self->stem, extensions[gtk_drop_down_get_selected (self->format_dropdown)],
                                       NULL);

  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Export Picture"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE, NULL, NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (chooser_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
chrono_export_dialog_dispose (GObject *object)
{
  ChronoExportDialog *self = CHRONO_EXPORT_DIALOG (object);

  g_clear_object (&self->chooser);
  g_clear_pointer (&self->scenes, g_ptr_array_unref);
  g_clear_pointer (&self->shares, g_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_EXPORT_DIALOG);

  G_OBJECT_CLASS (chrono_export_dialog_parent_class)->dispose (object);
}

static void
chrono_export_dialog_finalize (GObject *object)
{
  ChronoExportDialog *self = CHRONO_EXPORT_DIALOG (object);

  g_free (self->subtitle);
  g_free (self->stem);

  G_OBJECT_CLASS (chrono_export_dialog_parent_class)->finalize (object);
}

static void
chrono_export_dialog_class_init (ChronoExportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_export_dialog_dispose;
  object_class->finalize = chrono_export_dialog_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-export-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoExportDialog, title_entry);
  gtk_widget_class_bind_template_child (widget_class, ChronoExportDialog, format_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ChronoExportDialog, scale_spin);
  gtk_widget_class_bind_template_child (widget_class, ChronoExportDialog, theme_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ChronoExportDialog, width_spin);
  gtk_widget_class_bind_template_child (widget_class, ChronoExportDialog, height_spin);
  gtk_widget_class_bind_template_child (widget_class, ChronoExportDialog, legend_check);
  gtk_widget_class_bind_template_child (widget_class, ChronoExportDialog, preview);
  gtk_widget_class_bind_template_callback (widget_class, options_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, export_clicked_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
chrono_export_dialog_init (ChronoExportDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
chrono_export_dialog_new (GtkWindow           *parent,
                          ChronoTimelineScene *scene,
                          const char          *title,
                          const char          *subtitle,
                          const char          *stem)
{
  return chrono_export_dialog_new_for_stack (parent, &scene, 1, title, subtitle, stem);
}

GtkWidget *
chrono_export_dialog_new_for_finding (GtkWindow           *parent,
                                      ChronoAnalysis      *analysis,
                                      const ChronoFinding *finding,
                                      GtkWidget           *style_from,
                                      int                  width,
                                      gboolean             dark)
{
  g_autoptr(ChronoTimelineScene) scene = chrono_finding_scene_new (analysis, finding, NULL, width, dark);
  ChronoTrace *trace = chrono_timeline_scene_get_trace (scene);
  ChronoViewport *viewport = chrono_timeline_scene_get_viewport (scene);
  gint64 zero = chrono_trace_get_start_ns (trace);
  g_autofree char *name = g_path_get_basename (chrono_trace_get_path (trace));
  g_autofree char *stem = g_strndup (name, strcspn (name, "."));
  g_autofree char *from = chrono_format_duration (chrono_viewport_get_start_ns (viewport) - zero);
  g_autofree char *to = chrono_format_duration (chrono_viewport_get_end_ns (viewport) - zero);
  /* Translators: a picture's subtitle: the file, then the time range it shows */
  g_autofree char *subtitle = g_strdup_printf (_("%s · %s to %s from the start"), name, from, to);

  chrono_timeline_scene_set_pango_context (scene, gtk_widget_get_pango_context (style_from));
  chrono_timeline_scene_set_size (scene, width, chrono_timeline_scene_get_ruler_height (scene) +
                                                chrono_timeline_scene_get_content_height (scene));
  return chrono_export_dialog_new (parent, scene, finding->title, subtitle, stem);
}

GtkWidget *
chrono_export_dialog_new_for_stack (GtkWindow                   *parent,
                                    ChronoTimelineScene * const *scenes,
                                    guint                        n_scenes,
                                    const char                  *title,
                                    const char                  *subtitle,
                                    const char                  *stem)
{
  ChronoExportDialog *self;
  double height = 0;

  g_return_val_if_fail (n_scenes > 0, NULL);
  for (guint i = 0; i < n_scenes; i++)
    {
      g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (scenes[i]), NULL);
      height += chrono_timeline_scene_get_height (scenes[i]);
    }

  self = g_object_new (CHRONO_TYPE_EXPORT_DIALOG, "transient-for", parent, NULL);
  self->subtitle = g_strdup (subtitle);
  self->stem = g_strdup (stem);
  gtk_editable_set_text (GTK_EDITABLE (self->title_entry), title != NULL ? title : "");
  gtk_spin_button_set_value (self->width_spin, chrono_timeline_scene_get_width (scenes[0]));
  gtk_spin_button_set_value (self->height_spin, height);
  gtk_drop_down_set_selected (self->theme_dropdown, chrono_timeline_scene_get_dark (scenes[0]) ? 1 : 0);
  /* The height spin sets the whole: each scene keeps its part of it. */
  self->scenes = g_ptr_array_new_with_free_func (g_object_unref);
  self->shares = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < n_scenes; i++)
    {
      double share = height > 0 ? chrono_timeline_scene_get_height (scenes[i]) / height : 1.0 / n_scenes;

      g_ptr_array_add (self->scenes, g_object_ref (scenes[i]));
      g_array_append_val (self->shares, share);
    }
  options_changed_cb (self);
  return GTK_WIDGET (self);
}

gboolean
chrono_export_dialog_write (ChronoExportDialog  *self,
                            const char          *path,
                            GError             **error)
{
  ChronoPictureOptions options;

  g_return_val_if_fail (CHRONO_IS_EXPORT_DIALOG (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  options_changed_cb (self);
  get_options (self, &options);
  return chrono_picture_write_stack ((ChronoTimelineScene **) self->scenes->pdata, self->scenes->len, &options,
                                     gtk_drop_down_get_selected (self->format_dropdown), path, error);
}

GdkPaintable *
chrono_export_dialog_get_preview (ChronoExportDialog *self)
{
  g_return_val_if_fail (CHRONO_IS_EXPORT_DIALOG (self), NULL);
  return gtk_picture_get_paintable (self->preview);
}

/**
 * chrono_export_dialog_get_scene:
 *
 * Returns: (transfer none): the scene it draws, the top one of a stack
 */
ChronoTimelineScene *
chrono_export_dialog_get_scene (ChronoExportDialog *self)
{
  g_return_val_if_fail (CHRONO_IS_EXPORT_DIALOG (self), NULL);
  return self->scenes->pdata[0];
}
