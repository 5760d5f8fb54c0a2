/* chrono-annotation-editor.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "chrono-annotation-editor.h"
#include "chrono-palette.h"

/* Okabe and Ito's colours, less black (lost on a dark canvas) and yellow
 * (lost on a light one): apart for readers with any common colour-vision
 * deficiency, and a 2 px line of each shows on either theme. Labels are
 * boxes of the colour with ink that contrasts, so they read too. */
static const struct {
  guint32     rgba;
  const char *name;
} palette[] = {
  { 0, N_("Accent") },
  { 0xd55e00ff, N_("Vermilion") },
  { 0xe69f00ff, N_("Orange") },
  { 0x009e73ff, N_("Bluish Green") },
  { 0x56b4e9ff, N_("Sky Blue") },
  { 0x0072b2ff, N_("Blue") },
  { 0xcc79a7ff, N_("Reddish Purple") },
};

struct _ChronoAnnotationEditor
{
  GtkWidget       parent_instance;

  guint32         color;
  gboolean        syncing;   /* the buttons follow COLOR, not the other way */

  GtkEntry       *entry;
  GtkBox         *swatches;
  GtkColorButton *custom_button;
  GtkToggleButton *toggles[G_N_ELEMENTS (palette)];
};

G_DEFINE_FINAL_TYPE (ChronoAnnotationEditor, chrono_annotation_editor, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TEXT,
  PROP_COLOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
rgba_of (guint32  color,
         GdkRGBA *rgba)
{
  if (color == 0)
    {
      GdkRGBA background, text;

      chrono_palette_canvas_colors (adw_style_manager_get_dark (adw_style_manager_get_default ()),
                                    &background, &text, rgba);
      return;
    }
  *rgba = (GdkRGBA) { (color >> 24) / 255.f, ((color >> 16) & 0xff) / 255.f, ((color >> 8) & 0xff) / 255.f,
                      (color & 0xff) / 255.f };
}

static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        data)
{
  GdkRGBA rgba;
  double r = MIN (width, height) / 2.0;

  rgba_of (GPOINTER_TO_UINT (data), &rgba);
  cairo_arc (cr, width / 2.0, height / 2.0, r - 1, 0, 2 * G_PI);
  gdk_cairo_set_source_rgba (cr, &rgba);
  cairo_fill (cr);
}

static void
sync_buttons (ChronoAnnotationEditor *self)
{
  GdkRGBA rgba;

  self->syncing = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (palette); i++)
    gtk_toggle_button_set_active (self->toggles[i], palette[i].rgba == self->color);
  rgba_of (self->color, &rgba);
  gtk_color_chooser_set_rgba (GTK_COLOR_CHOOSER (self->custom_button), &rgba);
  self->syncing = FALSE;
}

static void
swatch_toggled_cb (GtkToggleButton        *button,
                   ChronoAnnotationEditor *self)
{
  if (self->syncing || !gtk_toggle_button_get_active (button))
    return;
  chrono_annotation_editor_set_color (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "chrono-color")));
}

static void
custom_color_set_cb (ChronoAnnotationEditor *self)
{
  GdkRGBA rgba;
  guint32 color;

  gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (self->custom_button), &rgba);
  color = (guint32) (CLAMP (rgba.red, 0, 1) * 255 + 0.5) << 24 | (guint32) (CLAMP (rgba.green, 0, 1) * 255 + 0.5) << 16 |
          (guint32) (CLAMP (rgba.blue, 0, 1) * 255 + 0.5) << 8 | 0xff;
  chrono_annotation_editor_set_color (self, color);
}

static void
text_changed_cb (ChronoAnnotationEditor *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

static void
chrono_annotation_editor_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), CHRONO_TYPE_ANNOTATION_EDITOR);

  G_OBJECT_CLASS (chrono_annotation_editor_parent_class)->dispose (object);
}

/* Focus goes to the text. */
static gboolean
chrono_annotation_editor_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (GTK_WIDGET (CHRONO_ANNOTATION_EDITOR (widget)->entry));
}

static void
chrono_annotation_editor_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  ChronoAnnotationEditor *self = CHRONO_ANNOTATION_EDITOR (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, chrono_annotation_editor_get_text (self));
      break;
    case PROP_COLOR:
      g_value_set_uint (value, self->color);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_annotation_editor_set_property (GObject      *object,
                                       guint         prop_id,
                                       const GValue *value,
                                       GParamSpec   *pspec)
{
  ChronoAnnotationEditor *self = CHRONO_ANNOTATION_EDITOR (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      chrono_annotation_editor_set_text (self, g_value_get_string (value));
      break;
    case PROP_COLOR:
      chrono_annotation_editor_set_color (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_annotation_editor_class_init (ChronoAnnotationEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_annotation_editor_dispose;
  object_class->get_property = chrono_annotation_editor_get_property;
  object_class->set_property = chrono_annotation_editor_set_property;

  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* 0xRRGGBBAA, or 0 for the accent. */
  properties[PROP_COLOR] =
    g_param_spec_uint ("color", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  widget_class->grab_focus = chrono_annotation_editor_grab_focus;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "annotationeditor");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-annotation-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoAnnotationEditor, entry);
  gtk_widget_class_bind_template_child (widget_class, ChronoAnnotationEditor, swatches);
  gtk_widget_class_bind_template_child (widget_class, ChronoAnnotationEditor, custom_button);
  gtk_widget_class_bind_template_callback (widget_class, text_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, custom_color_set_cb);
}

static void
chrono_annotation_editor_init (ChronoAnnotationEditor *self)
{
  GtkBoxLayout *layout;

  gtk_widget_init_template (GTK_WIDGET (self));
  layout = GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self)));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (layout, 8);

  for (guint i = 0; i < G_N_ELEMENTS (palette); i++)
    {
      GtkWidget *button = gtk_toggle_button_new ();
      GtkWidget *swatch = gtk_drawing_area_new ();

      gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 16);
      gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (swatch), 16);
      gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch, GUINT_TO_POINTER (palette[i].rgba), NULL);
      gtk_button_set_child (GTK_BUTTON (button), swatch);
      gtk_widget_set_tooltip_text (button, _(palette[i].name));
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, _(palette[i].name), -1);
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_add_css_class (button, "circular");
      gtk_widget_add_css_class (button, "swatch");
      g_object_set_data (G_OBJECT (button), "chrono-color", GUINT_TO_POINTER (palette[i].rgba));
      if (i > 0)
        gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (button), self->toggles[0]);
      g_signal_connect (button, "toggled", G_CALLBACK (swatch_toggled_cb), self);
      gtk_box_insert_child_after (self->swatches, button, i > 0 ? GTK_WIDGET (self->toggles[i - 1]) : NULL);
      self->toggles[i] = GTK_TOGGLE_BUTTON (button);
    }
  sync_buttons (self);
}

GtkWidget *
chrono_annotation_editor_new (void)
{
  return g_object_new (CHRONO_TYPE_ANNOTATION_EDITOR, NULL);
}

const char *
chrono_annotation_editor_get_text (ChronoAnnotationEditor *self)
{
  g_return_val_if_fail (CHRONO_IS_ANNOTATION_EDITOR (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->entry));
}

void
chrono_annotation_editor_set_text (ChronoAnnotationEditor *self,
                                   const char             *text)
{
  g_return_if_fail (CHRONO_IS_ANNOTATION_EDITOR (self));

  /* The entry's "changed" notifies. */
  gtk_editable_set_text (GTK_EDITABLE (self->entry), text != NULL ? text : "");
}

guint32
chrono_annotation_editor_get_color (ChronoAnnotationEditor *self)
{
  g_return_val_if_fail (CHRONO_IS_ANNOTATION_EDITOR (self), 0);
  return self->color;
}

void
chrono_annotation_editor_set_color (ChronoAnnotationEditor *self,
                                    guint32                 color)
{
  g_return_if_fail (CHRONO_IS_ANNOTATION_EDITOR (self));

  if (self->color == color)
    return;
  self->color = color;
  sync_buttons (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR]);
}

void
chrono_annotation_editor_set_placeholder (ChronoAnnotationEditor *self,
                                          const char             *text)
{
  g_return_if_fail (CHRONO_IS_ANNOTATION_EDITOR (self));
  gtk_entry_set_placeholder_text (self->entry, text);
}

void
chrono_annotation_editor_set_activates_default (ChronoAnnotationEditor *self,
                                                gboolean                activates)
{
  g_return_if_fail (CHRONO_IS_ANNOTATION_EDITOR (self));
  gtk_entry_set_activates_default (self->entry, activates);
}

guint32
chrono_annotation_editor_palette_color (guint n)
{
  return n < G_N_ELEMENTS (palette) ? palette[n].rgba : 0;
}
