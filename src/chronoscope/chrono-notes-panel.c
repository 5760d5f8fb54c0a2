/* chrono-notes-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "chrono-annotation-editor.h"
#include "chrono-format.h"
#include "chrono-notes-panel.h"
#include "chrono-palette.h"

/* The kind filter's rows, as the template lists them. */
enum {
  SHOW_ALL,
  SHOW_NOTES,
  SHOW_ARROWS,
  SHOW_MEASUREMENTS,
  SHOW_HIGHLIGHTS,
};

struct _ChronoNotesPanel
{
  GtkWidget          parent_instance;

  ChronoAnnotations *annotations;
  ChronoTrace       *trace;
  guint              n_shown;
  guint              selected_id;  /* the row last jumped to, or 0 */

  GtkSearchEntry    *filter_entry;
  GtkDropDown       *kind_dropdown;
  GtkStack          *stack;
  GtkListBox        *list;
};

G_DEFINE_FINAL_TYPE (ChronoNotesPanel, chrono_notes_panel, GTK_TYPE_WIDGET)

enum {
  JUMP,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *
kind_icon (const ChronoAnnotation *a)
{
  switch (a->kind)
    {
    case CHRONO_ANNOTATION_ARROW: return "go-next-symbolic";
    case CHRONO_ANNOTATION_MEASUREMENT: return "object-flip-horizontal-symbolic";
    case CHRONO_ANNOTATION_HIGHLIGHT: return "color-select-symbolic";
    case CHRONO_ANNOTATION_NOTE:
    default:
      return "text-editor-symbolic";
    }
}

static const char *
kind_label (const ChronoAnnotation *a)
{
  switch (a->kind)
    {
    case CHRONO_ANNOTATION_ARROW: return _("Arrow");
    case CHRONO_ANNOTATION_MEASUREMENT: return _("Measurement");
    case CHRONO_ANNOTATION_HIGHLIGHT: return _("Highlight");
    case CHRONO_ANNOTATION_NOTE:
    default:
      return _("Note");
    }
}

/* When it is, from the trace's start: "at 12.500 ms". */
static char *
describe_time (ChronoNotesPanel       *self,
               const ChronoAnnotation *a)
{
  gint64 at = a->anchor == CHRONO_ANCHOR_SPAN ? a->span.start_ns : a->start_ns;
  g_autofree char *when = chrono_format_duration (at - chrono_trace_get_start_ns (self->trace));

  /* Translators: when an annotation is, from the trace's start */
  return g_strdup_printf (_("at %s"), when);
}

/* What it is on: a span's name, an arrow's two spans, an area's length
 * and tracks; NULL for an instant. */
static char *
describe_anchor (const ChronoAnnotation *a)
{
  if (a->kind == CHRONO_ANNOTATION_ARROW)
    /* Translators: the two spans an arrow joins */
    return g_strdup_printf (_("%s → %s"), a->span.name, a->to.name);
  if (a->anchor == CHRONO_ANCHOR_AREA)
    {
      g_autofree char *length = chrono_format_duration (a->end_ns - a->start_ns);
      guint n_tracks = a->tracks != NULL ? g_strv_length (a->tracks) : 0;

      if (n_tracks == 0)
        /* Translators: an area of every track: its length */
        return g_strdup_printf (_("%s over every track"), length);
      /* Translators: an area of some tracks: its length, how many */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s over %u track", "%s over %u tracks", n_tracks),
                              length, n_tracks);
    }
  if (a->anchor == CHRONO_ANCHOR_SPAN)
    return g_strdup (a->span.name);
  return NULL;
}

static gboolean
kind_matches (guint                   shown,
              const ChronoAnnotation *a)
{
  switch (shown)
    {
    case SHOW_NOTES: return a->kind == CHRONO_ANNOTATION_NOTE;
    case SHOW_ARROWS: return a->kind == CHRONO_ANNOTATION_ARROW;
    case SHOW_MEASUREMENTS: return a->kind == CHRONO_ANNOTATION_MEASUREMENT;
    case SHOW_HIGHLIGHTS: return a->kind == CHRONO_ANNOTATION_HIGHLIGHT;
    case SHOW_ALL:
    default:
      return TRUE;
    }
}

static gboolean
contains (const char *haystack,
          const char *folded)
{
  g_autofree char *text = g_utf8_casefold (haystack != NULL ? haystack : "", -1);

  return strstr (text, folded) != NULL;
}

/* FOLDED: the filter's text, case folded; empty for any. */
static gboolean
matches (ChronoNotesPanel       *self,
         const ChronoAnnotation *a,
         const char             *folded)
{
  if (!kind_matches (gtk_drop_down_get_selected (self->kind_dropdown), a))
    return FALSE;
  return *folded == '\0' || contains (a->text, folded) || contains (a->span.name, folded) ||
         contains (a->to.name, folded);
}

/* An edit, committed from an idle: the update rebuilds the list, which
 * must not destroy the popover while it handles the click or the key. */
typedef struct {
  ChronoNotesPanel *self;
  guint             id;
  char             *text;
  guint32           color;
} Edit;

static void
edit_free (gpointer data)
{
  Edit *edit = data;

  g_object_unref (edit->self);
  g_free (edit->text);
  g_free (edit);
}

static gboolean
commit_edit (gpointer data)
{
  Edit *edit = data;
  const ChronoAnnotation *a = chrono_annotations_lookup (edit->self->annotations, edit->id);
  g_autoptr(ChronoAnnotation) edited = NULL;

  if (a == NULL || (g_strcmp0 (a->text, edit->text) == 0 && a->color == edit->color))
    return G_SOURCE_REMOVE;
  edited = chrono_annotation_copy (a);
  g_free (edited->text);
  edited->text = g_strdup (edit->text);
  edited->color = edit->color;
  chrono_annotations_update (edit->self->annotations, edited);
  return G_SOURCE_REMOVE;
}

static void
save_clicked_cb (GtkButton        *button,
                 ChronoNotesPanel *self)
{
  GtkPopover *popover = GTK_POPOVER (gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_POPOVER));
  ChronoAnnotationEditor *editor = g_object_get_data (G_OBJECT (popover), "chrono-editor");
  Edit *edit = g_new0 (Edit, 1);

  edit->self = g_object_ref (self);
  edit->id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (popover), "chrono-id"));
  edit->text = g_strdup (chrono_annotation_editor_get_text (editor));
  edit->color = chrono_annotation_editor_get_color (editor);
  gtk_popover_popdown (popover);
  g_idle_add_full (G_PRIORITY_DEFAULT, commit_edit, edit, edit_free);
}

static void
delete_clicked_cb (GtkButton        *button,
                   ChronoNotesPanel *self)
{
  chrono_annotations_remove (self->annotations,
                             GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "chrono-id")));
}

static void
draw_dot (GtkDrawingArea *area,
          cairo_t        *cr,
          int             width,
          int             height,
          gpointer        data)
{
  guint32 color = GPOINTER_TO_UINT (data);
  GdkRGBA rgba;

  if (color == 0)
    {
      GdkRGBA background, text;

      chrono_palette_canvas_colors (adw_style_manager_get_dark (adw_style_manager_get_default ()),
                                    &background, &text, &rgba);
    }
  else
    rgba = (GdkRGBA) { (color >> 24) / 255.f, ((color >> 16) & 0xff) / 255.f, ((color >> 8) & 0xff) / 255.f, 1 };
  cairo_arc (cr, width / 2.0, height / 2.0, MIN (width, height) / 2.0, 0, 2 * G_PI);
  gdk_cairo_set_source_rgba (cr, &rgba);
  cairo_fill (cr);
}

/* The row's edit button: a popover with the text and the colour. */
static GtkWidget *
make_edit_button (ChronoNotesPanel       *self,
                  const ChronoAnnotation *a)
{
  GtkWidget *button = gtk_menu_button_new ();
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *editor = chrono_annotation_editor_new ();
  GtkWidget *save = gtk_button_new_with_mnemonic (_("_Save"));

  chrono_annotation_editor_set_text (CHRONO_ANNOTATION_EDITOR (editor), a->text);
  chrono_annotation_editor_set_color (CHRONO_ANNOTATION_EDITOR (editor), a->color);
  chrono_annotation_editor_set_placeholder (CHRONO_ANNOTATION_EDITOR (editor),
                                            a->kind == CHRONO_ANNOTATION_NOTE ? _("Note") : _("Label"));
  chrono_annotation_editor_set_activates_default (CHRONO_ANNOTATION_EDITOR (editor), TRUE);
  gtk_widget_add_css_class (save, "suggested-action");
  gtk_widget_set_halign (save, GTK_ALIGN_END);
  g_signal_connect (save, "clicked", G_CALLBACK (save_clicked_cb), self);
  gtk_box_append (GTK_BOX (box), editor);
  gtk_box_append (GTK_BOX (box), save);
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  gtk_popover_set_default_widget (GTK_POPOVER (popover), save);
  g_object_set_data (G_OBJECT (popover), "chrono-editor", editor);
  g_object_set_data (G_OBJECT (popover), "chrono-id", GUINT_TO_POINTER (a->id));
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "document-edit-symbolic");
  gtk_widget_set_tooltip_text (button, _("Edit"));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  return button;
}

static GtkWidget *
make_row (ChronoNotesPanel       *self,
          const ChronoAnnotation *a)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *icon = gtk_image_new_from_icon_name (kind_icon (a));
  GtkWidget *dot = gtk_drawing_area_new ();
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *text = gtk_label_new (a->text != NULL && *a->text != '\0' ? a->text : kind_label (a));
  g_autofree char *when = describe_time (self, a);
  g_autofree char *what = describe_anchor (a);
  GtkWidget *details = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *time = gtk_label_new (when);
  GtkWidget *delete = gtk_button_new_from_icon_name ("user-trash-symbolic");

  g_object_set_data (G_OBJECT (row), "chrono-id", GUINT_TO_POINTER (a->id));
  g_object_set_data (G_OBJECT (delete), "chrono-id", GUINT_TO_POINTER (a->id));
  gtk_widget_set_tooltip_text (icon, kind_label (a));
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL, kind_label (a), -1);
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (dot), 10);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (dot), 10);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (dot), draw_dot, GUINT_TO_POINTER (a->color), NULL);
  gtk_widget_set_valign (dot, GTK_ALIGN_CENTER);
  gtk_label_set_xalign (GTK_LABEL (text), 0);
  gtk_label_set_wrap (GTK_LABEL (text), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (text), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_lines (GTK_LABEL (text), 3);
  gtk_label_set_ellipsize (GTK_LABEL (text), PANGO_ELLIPSIZE_END);
  if (a->text == NULL || *a->text == '\0')
    gtk_widget_add_css_class (text, "dim-label");
  gtk_widget_add_css_class (time, "numeric");
  gtk_box_append (GTK_BOX (details), time);
  if (what != NULL)
    {
      GtkWidget *anchor = gtk_label_new (what);

      /* The time stays whole; a long span name gives way. */
      gtk_label_set_xalign (GTK_LABEL (anchor), 0);
      gtk_label_set_ellipsize (GTK_LABEL (anchor), PANGO_ELLIPSIZE_END);
      gtk_widget_set_hexpand (anchor, TRUE);
      gtk_widget_set_tooltip_text (anchor, what);
      gtk_box_append (GTK_BOX (details), anchor);
    }
  gtk_widget_add_css_class (details, "dim-label");
  gtk_widget_add_css_class (details, "caption");
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (texts), text);
  gtk_box_append (GTK_BOX (texts), details);
  gtk_widget_set_tooltip_text (delete, _("Delete"));
  gtk_widget_set_valign (delete, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (delete, "flat");
  g_signal_connect (delete, "clicked", G_CALLBACK (delete_clicked_cb), self);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), dot);
  gtk_box_append (GTK_BOX (box), texts);
  gtk_box_append (GTK_BOX (box), make_edit_button (self, a));
  gtk_box_append (GTK_BOX (box), delete);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  return row;
}

static void
rebuild (ChronoNotesPanel *self)
{
  g_autofree char *folded = g_utf8_casefold (gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)), -1);
  guint n = chrono_annotations_get_n (self->annotations);
  GtkListBoxRow *row;

  while ((row = gtk_list_box_get_row_at_index (self->list, 0)) != NULL)
    gtk_list_box_remove (self->list, GTK_WIDGET (row));
  self->n_shown = 0;
  for (guint i = 0; i < n; i++)
    {
      const ChronoAnnotation *a = chrono_annotations_get (self->annotations, i);
      GtkWidget *added;

      if (!matches (self, a, folded))
        continue;
      added = make_row (self, a);
      gtk_list_box_append (self->list, added);
      if (a->id == self->selected_id)
        gtk_list_box_select_row (self->list, GTK_LIST_BOX_ROW (added));
      self->n_shown++;
    }
  gtk_stack_set_visible_child_name (self->stack, self->n_shown > 0 ? "list" : n == 0 ? "empty" : "no-match");
}

static void
filter_changed_cb (ChronoNotesPanel *self)
{
  rebuild (self);
}

static void
row_activated_cb (ChronoNotesPanel *self,
                  GtkListBoxRow    *row)
{
  self->selected_id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "chrono-id"));
  gtk_list_box_select_row (self->list, row);
  g_signal_emit (self, signals[JUMP], 0, self->selected_id);
}

static void
chrono_notes_panel_dispose (GObject *object)
{
  ChronoNotesPanel *self = CHRONO_NOTES_PANEL (object);
  GtkWidget *child;

  if (self->annotations != NULL)
    g_signal_handlers_disconnect_by_func (self->annotations, rebuild, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_NOTES_PANEL);
  /* The filter's row is no template child of its own. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->annotations);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (chrono_notes_panel_parent_class)->dispose (object);
}

static void
chrono_notes_panel_class_init (ChronoNotesPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_notes_panel_dispose;

  /* An annotation was activated: its id. */
  signals[JUMP] = g_signal_new ("jump", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "notespanel");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-notes-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoNotesPanel, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, ChronoNotesPanel, kind_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ChronoNotesPanel, stack);
  gtk_widget_class_bind_template_child (widget_class, ChronoNotesPanel, list);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
}

static void
chrono_notes_panel_init (ChronoNotesPanel *self)
{
  GtkBoxLayout *layout;

  gtk_widget_init_template (GTK_WIDGET (self));
  layout = GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self)));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (layout, 6);
}

GtkWidget *
chrono_notes_panel_new (ChronoAnnotations *annotations,
                        ChronoTrace       *trace)
{
  ChronoNotesPanel *self;

  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (annotations), NULL);
  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);

  self = g_object_new (CHRONO_TYPE_NOTES_PANEL, NULL);
  self->annotations = g_object_ref (annotations);
  self->trace = g_object_ref (trace);
  g_signal_connect_swapped (annotations, "changed", G_CALLBACK (rebuild), self);
  rebuild (self);
  return GTK_WIDGET (self);
}

guint
chrono_notes_panel_get_n_shown (ChronoNotesPanel *self)
{
  g_return_val_if_fail (CHRONO_IS_NOTES_PANEL (self), 0);
  return self->n_shown;
}
