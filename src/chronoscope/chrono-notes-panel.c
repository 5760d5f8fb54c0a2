/* chrono-notes-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "chrono-format.h"
#include "chrono-notes-panel.h"

struct _ChronoNotesPanel
{
  GtkWidget          parent_instance;

  ChronoAnnotations *annotations;
  ChronoTrace       *trace;
  char              *filter;      /* folded, or NULL for all */

  GtkSearchEntry    *filter_entry;
  GtkListBox        *list;
  guint              n_shown;
};

G_DEFINE_FINAL_TYPE (ChronoNotesPanel, chrono_notes_panel, GTK_TYPE_WIDGET)

enum {
  JUMP,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

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
      return a->anchor == CHRONO_ANCHOR_SPAN ? _("Note on a span")
             : a->anchor == CHRONO_ANCHOR_INSTANT ? _("Note on an instant") : _("Note on an area");
    }
}

/* "Note on a span · aten::mm · +12.500 ms" */
static char *
describe (ChronoNotesPanel       *self,
          const ChronoAnnotation *a)
{
  gint64 zero = chrono_trace_get_start_ns (self->trace);
  gint64 at = a->anchor == CHRONO_ANCHOR_SPAN ? a->span.start_ns : a->start_ns;
  g_autofree char *when = chrono_format_duration (at - zero);

  if (a->kind == CHRONO_ANNOTATION_MEASUREMENT || a->anchor == CHRONO_ANCHOR_AREA)
    {
      g_autofree char *length = chrono_format_duration (a->end_ns - a->start_ns);

      /* Translators: an area's line in the notes panel: kind, start, length */
      return g_strdup_printf (_("%s · at %s · %s long"), kind_label (a), when, length);
    }
  if (a->anchor == CHRONO_ANCHOR_SPAN)
    /* Translators: a span's line in the notes panel: kind, span name, start */
    return g_strdup_printf (_("%s · %s · at %s"), kind_label (a), a->span.name, when);
  return g_strdup_printf (_("%s · at %s"), kind_label (a), when);
}

static gboolean
matches (ChronoNotesPanel       *self,
         const ChronoAnnotation *a)
{
  g_autofree char *text = NULL, *span = NULL;

  if (self->filter == NULL)
    return TRUE;
  text = g_utf8_casefold (a->text != NULL ? a->text : "", -1);
  span = g_utf8_casefold (a->span.name != NULL ? a->span.name : "", -1);
  return strstr (text, self->filter) != NULL || strstr (span, self->filter) != NULL;
}

typedef struct {
  ChronoNotesPanel *self;
  guint             id;
  char             *text;
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

  if (a == NULL || g_strcmp0 (a->text, edit->text) == 0)
    return G_SOURCE_REMOVE;
  edited = chrono_annotation_copy (a);
  g_free (edited->text);
  edited->text = g_strdup (edit->text);
  chrono_annotations_update (edit->self->annotations, edited);
  return G_SOURCE_REMOVE;
}

/* Committed from an idle: the update rebuilds the list, which must not
 * destroy ENTRY while it handles the key. */
static void
text_activate_cb (GtkEntry         *entry,
                  ChronoNotesPanel *self)
{
  Edit *edit = g_new0 (Edit, 1);

  edit->self = g_object_ref (self);
  edit->id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (entry), "chrono-id"));
  edit->text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry)));
  g_idle_add_full (G_PRIORITY_DEFAULT, commit_edit, edit, edit_free);
}

static void
delete_clicked_cb (GtkButton        *button,
                   ChronoNotesPanel *self)
{
  chrono_annotations_remove (self->annotations,
                             GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "chrono-id")));
}

static GtkWidget *
make_row (ChronoNotesPanel       *self,
          const ChronoAnnotation *a)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *text = gtk_entry_new ();
  g_autofree char *line = describe (self, a);
  GtkWidget *detail = gtk_label_new (line);
  GtkWidget *delete = gtk_button_new_from_icon_name ("user-trash-symbolic");

  g_object_set_data (G_OBJECT (row), "chrono-id", GUINT_TO_POINTER (a->id));
  g_object_set_data (G_OBJECT (text), "chrono-id", GUINT_TO_POINTER (a->id));
  g_object_set_data (G_OBJECT (delete), "chrono-id", GUINT_TO_POINTER (a->id));
  gtk_editable_set_text (GTK_EDITABLE (text), a->text != NULL ? a->text : "");
  gtk_widget_set_tooltip_text (text, _("Edit, then press Enter"));
  gtk_widget_add_css_class (text, "flat");
  g_signal_connect (text, "activate", G_CALLBACK (text_activate_cb), self);
  gtk_label_set_xalign (GTK_LABEL (detail), 0);
  gtk_label_set_ellipsize (GTK_LABEL (detail), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (detail, "dim-label");
  gtk_widget_add_css_class (detail, "caption");
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (texts), text);
  gtk_box_append (GTK_BOX (texts), detail);
  gtk_widget_set_tooltip_text (delete, _("Delete"));
  gtk_widget_set_valign (delete, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (delete, "flat");
  g_signal_connect (delete, "clicked", G_CALLBACK (delete_clicked_cb), self);
  gtk_box_append (GTK_BOX (box), texts);
  gtk_box_append (GTK_BOX (box), delete);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  return row;
}

static void
rebuild (ChronoNotesPanel *self)
{
  GtkListBoxRow *row;

  while ((row = gtk_list_box_get_row_at_index (self->list, 0)) != NULL)
    gtk_list_box_remove (self->list, GTK_WIDGET (row));
  self->n_shown = 0;
  for (guint i = 0; i < chrono_annotations_get_n (self->annotations); i++)
    {
      const ChronoAnnotation *a = chrono_annotations_get (self->annotations, i);

      if (!matches (self, a))
        continue;
      gtk_list_box_append (self->list, make_row (self, a));
      self->n_shown++;
    }
}

static void
filter_changed_cb (ChronoNotesPanel *self)
{
  chrono_notes_panel_set_filter (self, gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)));
}

static void
row_activated_cb (ChronoNotesPanel *self,
                  GtkListBoxRow    *row)
{
  g_signal_emit (self, signals[JUMP], 0, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "chrono-id")));
}

static void
chrono_notes_panel_dispose (GObject *object)
{
  ChronoNotesPanel *self = CHRONO_NOTES_PANEL (object);
  GtkWidget *child;

  if (self->annotations != NULL)
    g_signal_handlers_disconnect_by_func (self->annotations, rebuild, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_NOTES_PANEL);
  /* The list's scrolled window is no template child of its own. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->annotations);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (chrono_notes_panel_parent_class)->dispose (object);
}

static void
chrono_notes_panel_finalize (GObject *object)
{
  g_free (CHRONO_NOTES_PANEL (object)->filter);

  G_OBJECT_CLASS (chrono_notes_panel_parent_class)->finalize (object);
}

static void
chrono_notes_panel_class_init (ChronoNotesPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_notes_panel_dispose;
  object_class->finalize = chrono_notes_panel_finalize;

  /* An annotation was activated: its id. */
  signals[JUMP] = g_signal_new ("jump", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "notespanel");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-notes-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoNotesPanel, filter_entry);
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

void
chrono_notes_panel_set_filter (ChronoNotesPanel *self,
                               const char       *text)
{
  g_return_if_fail (CHRONO_IS_NOTES_PANEL (self));

  g_clear_pointer (&self->filter, g_free);
  if (text != NULL && *text != '\0')
    self->filter = g_utf8_casefold (text, -1);
  rebuild (self);
}

guint
chrono_notes_panel_get_n_shown (ChronoNotesPanel *self)
{
  g_return_val_if_fail (CHRONO_IS_NOTES_PANEL (self), 0);
  return self->n_shown;
}
