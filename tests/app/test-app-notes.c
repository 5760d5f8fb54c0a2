/* test-app-notes.c: notes through the application's actions: added from
 * the dialog, with a colour from its palette, and by text, undone and
 * redone, saved in the project file and found again on reopening,
 * listed, filtered, edited and deleted in the notes panel, exported,
 * imported into the trace opened afresh and drawn in their colour
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "app-test-utils.h"
#include "chrono-annotation-editor.h"
#include "chrono-annotations.h"
#include "chrono-application.h"
#include "chrono-document-page.h"
#include "chrono-export-dialog.h"
#include "chrono-notes-panel.h"
#include "chrono-sidecar.h"
#include "chrono-timeline-view.h"

#define REAL_TRACE "kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz"

static char *trace_path;

typedef struct {
  ChronoWindow       *window;
  ChronoDocumentPage *page;
  ChronoTimelineView *view;
  ChronoTimeline     *timeline;
  ChronoTrace        *trace;
} Fixture;

static void
open_trace (Fixture *f)
{
  ChronoDocumentPage *page = app_test_open_trace (f->window, trace_path);

  f->page = page;
  f->view = chrono_document_page_get_timeline_view (page);
  f->timeline = chrono_timeline_view_get_timeline (f->view);
  f->trace = chrono_document_page_get_trace (page);
}

static ChronoAnnotations *
annotations (Fixture *f)
{
  return chrono_timeline_get_annotations (f->timeline);
}

/* The first span of the first track that has any. */
static ChronoSpanRef
some_span (ChronoTrace *trace)
{
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    if (chrono_trace_get_track (trace, t)->n_spans > 0)
      return (ChronoSpanRef) { t, 0 };
  g_assert_not_reached ();
}

static gboolean
has_message_dialog (gpointer data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        {
          *(AdwMessageDialog **) data = ADW_MESSAGE_DIALOG (window);
          return TRUE;
        }
    }
  return FALSE;
}

/* Clicks the editor's Nth colour of its palette. */
static void
choose_swatch (ChronoAnnotationEditor *editor,
               guint                   n)
{
  GtkWidget *swatch = app_test_find_widget (GTK_WIDGET (editor), GTK_TYPE_TOGGLE_BUTTON);

  for (guint i = 0; i < n && swatch != NULL; i++)
    swatch = gtk_widget_get_next_sibling (swatch);
  g_assert_true (GTK_IS_TOGGLE_BUTTON (swatch));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (swatch), TRUE);
  g_assert_cmphex (chrono_annotation_editor_get_color (editor), ==, chrono_annotation_editor_palette_color (n));
}

/* Answers the dialog that asks for an annotation's text and colour:
 * TEXT, the palette's colour SWATCH, and RESPONSE. */
static void
answer_dialog (const char *text,
               guint       swatch,
               const char *response)
{
  AdwMessageDialog *dialog = NULL;
  ChronoAnnotationEditor *editor;

  g_assert_true (app_test_spin_until (has_message_dialog, &dialog, 2000));
  editor = CHRONO_ANNOTATION_EDITOR (adw_message_dialog_get_extra_child (dialog));
  chrono_annotation_editor_set_text (editor, text);
  choose_swatch (editor, swatch);
  adw_message_dialog_response (dialog, response);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
test_notes (void)
{
  Fixture f = { .window = app_test_get_window () };
  g_autoptr(ChronoSidecar) sidecar = chrono_sidecar_new (trace_path, NULL);
  g_autofree char *notes_path = g_build_filename (app_test_tmp_dir (), "shared.notes.json", NULL);
  g_autofree char *picture = g_build_filename (app_test_tmp_dir (), "view.png", NULL);
  g_autofree char *saved = NULL;
  ChronoSpanRef span;
  cairo_surface_t *png;

  g_unlink (chrono_sidecar_get_path (sidecar));
  open_trace (&f);
  span = some_span (f.trace);
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 0);

  /* N without a selection does nothing. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.add-note-text", "s", "lost"));
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 0);

  chrono_timeline_select (f.timeline, &span);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.add-note-text", "s", "first note"));
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 1);

  /* Add Note… asks for the text and the colour, which the next one gets
   * too; Cancel adds nothing. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.add-note", NULL));
  answer_dialog ("not this one", 1, "cancel");
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.add-note", NULL));
  answer_dialog ("second note", 5, "add");
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 2);
  g_assert_cmpstr (chrono_annotations_get (annotations (&f), 1)->text, ==, "second note");
  g_assert_cmphex (chrono_annotations_get (annotations (&f), 1)->color, ==, chrono_annotation_editor_palette_color (5));
  g_assert_cmphex (chrono_annotations_get (annotations (&f), 0)->color, ==, 0);
  g_assert_cmphex (chrono_timeline_view_get_annotation_color (f.view), ==, chrono_annotation_editor_palette_color (5));
  /* Or any colour, from Custom Colour. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.add-note", NULL));
  {
    AdwMessageDialog *dialog = NULL;
    GtkWidget *custom;

    g_assert_true (app_test_spin_until (has_message_dialog, &dialog, 2000));
    custom = app_test_find_widget (adw_message_dialog_get_extra_child (dialog), GTK_TYPE_COLOR_BUTTON);
    gtk_color_chooser_set_rgba (GTK_COLOR_CHOOSER (custom), &(GdkRGBA) { 0.2f, 0.4f, 0.6f, 1 });
    g_signal_emit_by_name (custom, "color-set");
    adw_message_dialog_response (dialog, "add");
    gtk_window_destroy (GTK_WINDOW (dialog));
  }
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 3);
  g_assert_cmphex (chrono_annotations_get (annotations (&f), 2)->color, ==, 0x336699ff);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.undo", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.annotation-color", "u", 0));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.undo", NULL));
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.redo", NULL));
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.undo", NULL));

  /* Saved as it goes, in the project file. */
  g_assert_true (g_file_get_contents (chrono_sidecar_get_path (sidecar), &saved, NULL, NULL));
  g_assert_nonnull (strstr (saved, "first note"));
  g_assert_null (strstr (saved, "second note"));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.export-notes-to", "s", notes_path));
  g_assert_true (g_file_test (notes_path, G_FILE_TEST_EXISTS));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.export-picture-to", "s", picture));
  png = cairo_image_surface_create_from_png (picture);
  g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (png), ==, gtk_widget_get_width (GTK_WIDGET (f.timeline)));
  /* The title over it, the legend under it. */
  g_assert_cmpint (cairo_image_surface_get_height (png), >, gtk_widget_get_height (GTK_WIDGET (f.timeline)));
  cairo_surface_destroy (png);

  /* Open again: the note is back, on the same span. */
  app_test_close_all_tabs (f.window);
  open_trace (&f);
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 1);
  g_assert_cmpstr (chrono_annotations_get (annotations (&f), 0)->text, ==, "first note");
  g_assert_cmpint (chrono_annotations_get (annotations (&f), 0)->span.start_ns, ==,
                   chrono_trace_get_track (f.trace, span.track)->start[span.index]);
  g_assert_false (chrono_annotations_can_undo (annotations (&f)));

  /* A colleague's notes come in as one step. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.import-notes-from", "s", notes_path));
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.undo", NULL));
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 1);

  app_test_close_all_tabs (f.window);
  g_unlink (notes_path);
  g_unlink (picture);
}

/* Dragging in the ruler measures; an area's menu notes, measures and
 * exports it; Link to… then a click on another span draws an arrow. */
static void
test_marking (void)
{
  Fixture f = { .window = app_test_get_window () };
  g_autoptr(ChronoSidecar) sidecar = chrono_sidecar_new (trace_path, NULL);
  g_autofree char *picture = g_build_filename (app_test_tmp_dir (), "area.png", NULL);
  g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (guint));
  GtkEventController *drag, *click;
  ChronoViewport *viewport;
  const ChronoAnnotation *a;
  graphene_rect_t area;
  ChronoSpanRef from, to, hit;
  gint64 t0, t1;
  cairo_surface_t *png;

  g_unlink (chrono_sidecar_get_path (sidecar));
  open_trace (&f);
  viewport = chrono_timeline_get_viewport (f.timeline);
  drag = app_test_find_controller (GTK_WIDGET (f.timeline), GTK_TYPE_GESTURE_DRAG);
  click = app_test_find_controller (GTK_WIDGET (f.timeline), GTK_TYPE_GESTURE_CLICK);

  /* From 300 px to 500 px in the ruler. */
  g_signal_emit_by_name (drag, "drag-begin", 300.0, 10.0);
  g_signal_emit_by_name (drag, "drag-update", 200.0, 4.0);
  g_signal_emit_by_name (drag, "drag-end", 200.0, 4.0);
  /* Labelled, in a colour, once the dialog is answered. */
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 0);
  answer_dialog ("step gap", 2, "add");
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 1);
  a = chrono_annotations_get (annotations (&f), 0);
  g_assert_cmpint (a->kind, ==, CHRONO_ANNOTATION_MEASUREMENT);
  g_assert_cmpstr (a->text, ==, "step gap");
  g_assert_cmphex (a->color, ==, chrono_annotation_editor_palette_color (2));
  g_assert_cmpint (a->start_ns, ==, chrono_viewport_x_to_time (viewport, 300 - CHRONO_TIMELINE_HEADER_WIDTH));
  g_assert_cmpint (a->end_ns, ==, chrono_viewport_x_to_time (viewport, 500 - CHRONO_TIMELINE_HEADER_WIDTH));

  /* An area of the first two tracks, as Shift+drag selects it. */
  t0 = a->start_ns;
  t1 = a->end_ns;
  from = some_span (f.trace);
  g_array_append_val (tracks, from.track);
  g_signal_emit_by_name (f.timeline, "area-selected", t0, t1, tracks);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.area-note-text", "s", "an area"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.area-measure", NULL));
  answer_dialog ("", 0, "add");
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 3);
  a = chrono_annotations_get (annotations (&f), 1);
  g_assert_cmpint (a->anchor, ==, CHRONO_ANCHOR_AREA);
  g_assert_cmpstr (a->text, ==, "an area");
  g_assert_cmpuint (g_strv_length (a->tracks), ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.export-area-to", "s", picture));
  png = cairo_image_surface_create_from_png (picture);
  g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
  /* Only the area's track: far shorter than the timeline. */
  g_assert_cmpint (cairo_image_surface_get_height (png), <, gtk_widget_get_height (GTK_WIDGET (f.timeline)));
  cairo_surface_destroy (png);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.area-zoom", NULL));
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, t0);

  /* Link to…: from the selected span to the one clicked next. */
  to = (ChronoSpanRef) { from.track, 1 };
  chrono_timeline_reveal_span (f.timeline, to);
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (f.timeline), 2000));
  chrono_timeline_select (f.timeline, &from);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.timeline), "timeline.link-to", NULL));
  g_assert_true (chrono_timeline_get_span_area (f.timeline, to, &area));
  g_assert_true (chrono_timeline_hit_test (f.timeline, area.origin.x + area.size.width / 2,
                                           area.origin.y + area.size.height / 2, &hit));
  g_assert_false (hit.track == from.track && hit.index == from.index);
  g_signal_emit_by_name (click, "pressed", 1, (double) area.origin.x + area.size.width / 2,
                         (double) area.origin.y + area.size.height / 2);
  answer_dialog ("waits for", 6, "add");
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 4);
  a = chrono_annotations_get (annotations (&f), 3);
  g_assert_cmpint (a->kind, ==, CHRONO_ANNOTATION_ARROW);
  g_assert_cmpstr (a->text, ==, "waits for");
  g_assert_cmphex (a->color, ==, chrono_annotation_editor_palette_color (6));
  g_assert_cmpint (a->span.start_ns, ==, chrono_trace_get_track (f.trace, from.track)->start[from.index]);
  g_assert_cmpint (a->to.start_ns, ==, chrono_trace_get_track (f.trace, hit.track)->start[hit.index]);
  /* The next click is a click again. */
  g_signal_emit_by_name (click, "pressed", 1, (double) area.origin.x + area.size.width / 2,
                         (double) area.origin.y + area.size.height / 2);
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 4);

  app_test_close_all_tabs (f.window);
  g_unlink (picture);
}

static ChronoNotesPanel *
notes_panel (Fixture *f)
{
  return CHRONO_NOTES_PANEL (app_test_find_widget (GTK_WIDGET (f->page), CHRONO_TYPE_NOTES_PANEL));
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

/* Laid out once at least: a widget is mapped before that. */
static gboolean
is_allocated (gpointer data)
{
  return gtk_widget_get_width (data) > 0;
}

typedef struct {
  ChronoNotesPanel *panel;
  guint             n;
} Shown;

static gboolean
shows (gpointer data)
{
  Shown *shown = data;

  return chrono_notes_panel_get_n_shown (shown->panel) == shown->n;
}

typedef struct {
  GtkWidget *widget;
  int        width;
} Width;

static gboolean
is_wide (gpointer data)
{
  Width *width = data;

  return gtk_widget_get_width (width->widget) == width->width;
}

typedef struct {
  ChronoAnnotations *annotations;
  guint              index;
  const char        *text;
} Expected;

static gboolean
text_is (gpointer data)
{
  Expected *expected = data;

  return g_strcmp0 (chrono_annotations_get (expected->annotations, expected->index)->text, expected->text) == 0;
}

/* "list", "empty" or "no-match". */
static const char *
panel_state (ChronoNotesPanel *panel)
{
  return gtk_stack_get_visible_child_name (app_test_find_stack (GTK_WIDGET (panel), "no-match"));
}

static GtkListBox *
panel_list (ChronoNotesPanel *panel)
{
  return GTK_LIST_BOX (app_test_find_widget (GTK_WIDGET (panel), GTK_TYPE_LIST_BOX));
}

/* The trash button closes a row. */
static GtkWidget *
delete_button (GtkListBoxRow *row)
{
  return gtk_widget_get_last_child (gtk_list_box_row_get_child (row));
}

static gboolean
find_file_chooser (gpointer data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        {
          *(GtkDialog **) data = GTK_DIALOG (window);
          return TRUE;
        }
    }
  return FALSE;
}

/* The docked notes panel: toggled and remembered, the annotations made
 * with the colour and label chosen, filtered by text and kind, jumped to,
 * edited in their popover and deleted, each step undone and redone; the
 * notes file exported and imported into the trace opened afresh, where
 * the timeline draws them in their colour. */
static void
test_panel (void)
{
  Fixture f = { .window = app_test_get_window () };
  g_autoptr(ChronoSidecar) sidecar = chrono_sidecar_new (trace_path, NULL);
  g_autofree char *notes_path = g_build_filename (app_test_tmp_dir (), "panel.notes.json", NULL);
  g_autofree char *bad_path = g_build_filename (app_test_tmp_dir (), "bad.notes.json", NULL);
  GSettings *settings = chrono_application_get_settings (app_test_get_application ());
  guint32 purple = chrono_annotation_editor_palette_color (6);
  GdkRGBA purple_rgba = { (purple >> 24) / 255.f, ((purple >> 16) & 0xff) / 255.f, ((purple >> 8) & 0xff) / 255.f, 1 };
  ChronoNotesPanel *panel;
  ChronoViewport *viewport;
  GtkEventController *drag;
  GtkListBox *list;
  GtkListBoxRow *row;
  GtkWidget *entry, *menu_button, *save;
  GtkDropDown *kinds;
  GtkPopover *popover;
  GtkDialog *chooser = NULL;
  ChronoAnnotationEditor *editor;
  AdwMessageDialog *dialog = NULL;
  const ChronoAnnotation *a;
  ChronoSpanRef span, selected;
  gint64 whole, m_start, m_end;
  cairo_surface_t *before, *after;
  guint n_before, n_after;
  int width;

  g_assert_nonnull (settings);
  g_unlink (chrono_sidecar_get_path (sidecar));
  open_trace (&f);
  viewport = chrono_timeline_get_viewport (f.timeline);
  panel = notes_panel (&f);
  g_assert_nonnull (panel);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (panel)));

  /* Shown by its action, and remembered; empty, it says how to add. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "document.show-notes", NULL));
  g_assert_true (app_test_spin_until (is_mapped, panel, 2000));
  g_assert_true (g_settings_get_boolean (settings, "notes-panel-shown"));
  g_assert_cmpstr (panel_state (panel), ==, "empty");
  list = panel_list (panel);

  /* A measurement dragged in the ruler, labelled, in reddish purple. */
  drag = app_test_find_controller (GTK_WIDGET (f.timeline), GTK_TYPE_GESTURE_DRAG);
  g_signal_emit_by_name (drag, "drag-begin", 300.0, 10.0);
  g_signal_emit_by_name (drag, "drag-update", 120.0, 4.0);
  g_signal_emit_by_name (drag, "drag-end", 120.0, 4.0);
  answer_dialog ("Step gap", 6, "add");
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 1);
  a = chrono_annotations_get (annotations (&f), 0);
  g_assert_cmpstr (a->text, ==, "Step gap");
  g_assert_cmphex (a->color, ==, purple);
  m_start = a->start_ns;
  m_end = a->end_ns;
  g_assert_cmpuint (chrono_notes_panel_get_n_shown (panel), ==, 1);
  g_assert_cmpstr (panel_state (panel), ==, "list");

  /* A note on a span in the colour set by the view's action. */
  span = some_span (f.trace);
  chrono_timeline_select (f.timeline, &span);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.annotation-color", "u",
                                             chrono_annotation_editor_palette_color (1)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.add-note-text", "s", "Slow data loader"));
  g_assert_cmphex (chrono_annotations_get (annotations (&f), 1)->color, ==, chrono_annotation_editor_palette_color (1));
  g_assert_cmpuint (chrono_notes_panel_get_n_shown (panel), ==, 2);

  /* Filtered by text, then by kind as well. */
  entry = app_test_find_widget (GTK_WIDGET (panel), GTK_TYPE_SEARCH_ENTRY);
  kinds = GTK_DROP_DOWN (app_test_find_widget (GTK_WIDGET (panel), GTK_TYPE_DROP_DOWN));
  gtk_editable_set_text (GTK_EDITABLE (entry), "LOADER");
  g_assert_true (app_test_spin_until (shows, &(Shown) { panel, 1 }, 2000));
  gtk_drop_down_set_selected (kinds, 3);  /* measurements */
  g_assert_cmpuint (chrono_notes_panel_get_n_shown (panel), ==, 0);
  g_assert_cmpstr (panel_state (panel), ==, "no-match");
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  g_assert_true (app_test_spin_until (shows, &(Shown) { panel, 1 }, 2000));
  gtk_drop_down_set_selected (kinds, 0);
  g_assert_cmpuint (chrono_notes_panel_get_n_shown (panel), ==, 2);

  /* Activating the measurement's row zooms round it from the whole trace
   * and selects the row; the note's row selects its span. */
  chrono_viewport_zoom_to_range (viewport, chrono_trace_get_start_ns (f.trace), chrono_trace_get_end_ns (f.trace));
  whole = chrono_viewport_get_duration (viewport);
  chrono_timeline_select (f.timeline, NULL);
  g_signal_emit_by_name (list, "row-activated", gtk_list_box_get_row_at_index (list, 0));
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), <, m_start);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), >, m_end);
  g_assert_cmpint (chrono_viewport_get_duration (viewport), <, whole);
  g_assert_true (gtk_list_box_get_selected_row (list) == gtk_list_box_get_row_at_index (list, 0));
  g_signal_emit_by_name (list, "row-activated", gtk_list_box_get_row_at_index (list, 1));
  g_assert_true (chrono_timeline_get_selection (f.timeline, &selected));
  g_assert_cmpuint (selected.track, ==, span.track);
  g_assert_cmpuint (selected.index, ==, span.index);

  /* Edited in its popover: text and colour, one step to undo. */
  menu_button = app_test_find_widget (GTK_WIDGET (gtk_list_box_get_row_at_index (list, 1)), GTK_TYPE_MENU_BUTTON);
  gtk_menu_button_popup (GTK_MENU_BUTTON (menu_button));
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (menu_button));
  g_assert_true (app_test_spin_until (is_mapped, popover, 2000));
  editor = CHRONO_ANNOTATION_EDITOR (app_test_find_widget (GTK_WIDGET (popover), CHRONO_TYPE_ANNOTATION_EDITOR));
  g_assert_cmpstr (chrono_annotation_editor_get_text (editor), ==, "Slow data loader");
  g_assert_cmphex (chrono_annotation_editor_get_color (editor), ==, chrono_annotation_editor_palette_color (1));
  chrono_annotation_editor_set_text (editor, "Slow data loader: 40 ms a step");
  choose_swatch (editor, 3);
  save = gtk_widget_get_last_child (gtk_popover_get_child (popover));
  g_assert_true (GTK_IS_BUTTON (save));
  g_signal_emit_by_name (save, "clicked");
  g_assert_true (app_test_spin_until (text_is, &(Expected) { annotations (&f), 1, "Slow data loader: 40 ms a step" },
                                      2000));
  g_assert_cmphex (chrono_annotations_get (annotations (&f), 1)->color, ==, chrono_annotation_editor_palette_color (3));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.undo", NULL));
  g_assert_cmpstr (chrono_annotations_get (annotations (&f), 1)->text, ==, "Slow data loader");
  g_assert_cmphex (chrono_annotations_get (annotations (&f), 1)->color, ==, chrono_annotation_editor_palette_color (1));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.redo", NULL));
  g_assert_cmpstr (chrono_annotations_get (annotations (&f), 1)->text, ==, "Slow data loader: 40 ms a step");

  /* Deleted from its row, and back with undo. */
  row = gtk_list_box_get_row_at_index (list, 0);
  g_signal_emit_by_name (delete_button (row), "clicked");
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 1);
  g_assert_cmpuint (chrono_notes_panel_get_n_shown (panel), ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.undo", NULL));
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 2);
  g_assert_cmpuint (chrono_notes_panel_get_n_shown (panel), ==, 2);

  /* Export Notes… in the document's menu offers a file named after the
   * trace; the file itself is written by the action it leads to. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "document.export-notes", NULL));
  g_assert_true (app_test_spin_until (find_file_chooser, &chooser, 5000));
  g_assert_cmpstr (gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (chooser)), ==,
                   "kineto__tbplugin_resnet50_nw0__worker0.notes.json");
  gtk_dialog_response (chooser, GTK_RESPONSE_CANCEL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.export-notes-to", "s", notes_path));
  g_assert_true (g_file_test (notes_path, G_FILE_TEST_EXISTS));

  /* Hidden, it keeps its width for next time. */
  g_assert_true (app_test_spin_until (is_allocated, panel, 5000));
  width = gtk_widget_get_width (GTK_WIDGET (panel));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "document.show-notes", NULL));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (panel)));
  g_assert_false (g_settings_get_boolean (settings, "notes-panel-shown"));
  g_assert_cmpint (g_settings_get_int (settings, "notes-panel-width"), ==, width);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "document.show-notes", NULL));

  /* Ctrl+Shift+N toggles it from the timeline. */
  g_assert_true (app_test_press_key (GTK_WIDGET (f.timeline), GDK_KEY_N, GDK_CONTROL_MASK | GDK_SHIFT_MASK));
  g_assert_false (chrono_document_page_get_show_notes (f.page));
  g_assert_true (app_test_press_key (GTK_WIDGET (f.timeline), GDK_KEY_N, GDK_CONTROL_MASK | GDK_SHIFT_MASK));
  g_assert_true (chrono_document_page_get_show_notes (f.page));

  /* The same trace opened afresh, with none of its own: the panel shows
   * at the width last given, empty, and the colour is nowhere. */
  app_test_close_all_tabs (f.window);
  g_unlink (chrono_sidecar_get_path (sidecar));
  g_settings_set_int (settings, "notes-panel-width", 420);
  open_trace (&f);
  panel = notes_panel (&f);
  g_assert_true (app_test_spin_until (is_mapped, panel, 2000));
  g_assert_true (app_test_spin_until (is_wide, &(Width) { GTK_WIDGET (panel), 420 }, 2000));
  g_assert_cmpstr (panel_state (panel), ==, "empty");
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (f.timeline), 2000));
  before = app_test_render (GTK_WIDGET (f.timeline));
  n_before = app_test_count_color (before, 0, 0, cairo_image_surface_get_width (before) - 1,
                                   cairo_image_surface_get_height (before) - 1, &purple_rgba, 24);

  /* Imported: listed, and drawn in reddish purple; one step to undo. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.import-notes-from", "s", notes_path));
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 2);
  g_assert_cmpuint (chrono_notes_panel_get_n_shown (panel), ==, 2);
  a = chrono_annotations_get (annotations (&f), 0);
  g_assert_cmpstr (a->text, ==, "Step gap");
  g_assert_cmphex (a->color, ==, purple);
  g_assert_cmpstr (chrono_annotations_get (annotations (&f), 1)->text, ==, "Slow data loader: 40 ms a step");
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (f.timeline), 2000));
  after = app_test_render (GTK_WIDGET (f.timeline));
  n_after = app_test_count_color (after, 0, 0, cairo_image_surface_get_width (after) - 1,
                                  cairo_image_surface_get_height (after) - 1, &purple_rgba, 24);
  g_test_message ("reddish purple pixels: %u before the import, %u after", n_before, n_after);
  /* At least the measurement's 2 px line over most of its width. */
  g_assert_cmpuint (n_after, >, n_before + 100);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.undo", NULL));
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 0);
  g_assert_cmpstr (panel_state (panel), ==, "empty");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.redo", NULL));
  g_assert_cmpuint (chrono_notes_panel_get_n_shown (panel), ==, 2);

  /* A broken notes file: the error names the file and the annotation,
   * and nothing of it is taken. */
  g_assert_true (g_file_set_contents (bad_path,
                                      "{\"format\": \"chronoscope-notes\", \"version\": 1, \"annotations\": ["
                                      "{\"kind\": \"note\", \"anchor\": \"instant\", \"start_ns\": 1,"
                                      " \"text\": \"x\", \"color\": \"purple\"}]}",
                                      -1, NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.import-notes-from", "s", bad_path));
  g_assert_true (app_test_spin_until (has_message_dialog, &dialog, 2000));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), bad_path));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "annotation 1"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_cmpuint (chrono_annotations_get_n (annotations (&f)), ==, 2);

  cairo_surface_destroy (before);
  cairo_surface_destroy (after);
  g_settings_reset (settings, "notes-panel-shown");
  g_settings_reset (settings, "notes-panel-width");
  app_test_close_all_tabs (f.window);
  g_unlink (notes_path);
  g_unlink (bad_path);
}

/* Ctrl+E: the dialog previews the picture, and writes it in the format,
 * scale, theme and size chosen. */
static void
test_export_dialog (void)
{
  Fixture f = { .window = app_test_get_window () };
  g_autofree char *png_path = g_build_filename (app_test_tmp_dir (), "dialog.png", NULL);
  g_autofree char *pdf_path = g_build_filename (app_test_tmp_dir (), "dialog.pdf", NULL);
  g_autofree char *pdf = NULL;
  ChronoExportDialog *dialog = NULL;
  GdkPaintable *preview;
  cairo_surface_t *png;
  GtkWidget *widget;

  open_trace (&f);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "view.export-picture", NULL));
  g_assert_true (app_test_spin_until (app_test_find_export_dialog, &dialog, 2000));
  preview = chrono_export_dialog_get_preview (dialog);
  g_assert_nonnull (preview);
  g_assert_cmpint (gdk_paintable_get_intrinsic_width (preview), ==, gtk_widget_get_width (GTK_WIDGET (f.timeline)));

  /* 900 px at twice the pixels. */
  widget = app_test_find_widget (GTK_WIDGET (dialog), GTK_TYPE_SPIN_BUTTON);
  g_assert_nonnull (widget);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (widget), 2);
  for (widget = gtk_widget_get_next_sibling (widget); widget != NULL && !GTK_IS_SPIN_BUTTON (widget);
       widget = gtk_widget_get_next_sibling (widget))
    ;
  g_assert_nonnull (widget);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (widget), 900);
  g_assert_true (chrono_export_dialog_write (dialog, png_path, NULL));
  png = cairo_image_surface_create_from_png (png_path);
  g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (png), ==, 1800);
  cairo_surface_destroy (png);
  g_assert_cmpint (gdk_paintable_get_intrinsic_width (chrono_export_dialog_get_preview (dialog)), ==, 900);

  /* PDF whatever the name says. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (app_test_find_widget (GTK_WIDGET (dialog), GTK_TYPE_DROP_DOWN)), 2);
  g_assert_true (chrono_export_dialog_write (dialog, pdf_path, NULL));
  g_assert_true (g_file_get_contents (pdf_path, &pdf, NULL, NULL));
  g_assert_true (g_str_has_prefix (pdf, "%PDF"));

  gtk_window_destroy (GTK_WINDOW (dialog));
  app_test_close_all_tabs (f.window);
  g_unlink (png_path);
  g_unlink (pdf_path);
}

/* The child: notes on and on, each saving the project file. */
static void
keep_writing (void)
{
  Fixture f = { .window = app_test_get_window () };
  ChronoSpanRef span;

  g_autoptr(ChronoSidecar) sidecar = chrono_sidecar_new (trace_path, NULL);
  g_autofree char *where = g_strdup_printf ("%s\n%s", app_test_tmp_dir (), chrono_sidecar_get_path (sidecar));

  /* Killed, the child cannot clean up: the parent does. */
  g_assert_true (g_file_set_contents (g_getenv ("CHRONO_TEST_HANDOFF"), where, -1, NULL));
  open_trace (&f);
  span = some_span (f.trace);
  chrono_timeline_select (f.timeline, &span);
  for (guint i = 0;; i++)
    {
      g_autofree char *text = g_strdup_printf ("note %u, long enough that a save takes a while: %0200u", i, i);

      gtk_widget_activate_action (GTK_WIDGET (f.view), "view.add-note-text", "s", text);
      if (i == 10)
        g_print ("writing\n");
    }
}

/* Killed while it writes, the application leaves a whole project file:
 * one of the states it saved, every note in it complete. */
static void
test_killed_while_writing (void)
{
  g_autofree char *handoff = g_build_filename (app_test_tmp_dir (), "child", NULL);
  g_autoptr(GError) error = NULL;

  if (g_test_subprocess ())
    {
      keep_writing ();
      return;
    }
  g_setenv ("CHRONO_TEST_HANDOFF", handoff, TRUE);
  for (int round = 0; round < 3; round++)
    {
      g_autoptr(ChronoAnnotations) read = chrono_annotations_new ();
      g_autoptr(ChronoSidecar) sidecar = NULL;
      g_autofree char *where = NULL, *folder = NULL;
      g_auto(GStrv) lines = NULL;
      JsonNode *section;

      /* Killed at the timeout, in the middle of its saves. */
      g_test_trap_subprocess (NULL, (6 + round) * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_failed ();
      g_test_trap_assert_stdout ("*writing*");
      g_assert_true (g_file_get_contents (handoff, &where, NULL, NULL));
      lines = g_strsplit (where, "\n", 2);

      /* The sidecar of the child's trace, in the child's folders. */
      folder = g_path_get_dirname (lines[1]);
      sidecar = chrono_sidecar_new (trace_path, folder);
      g_assert_cmpstr (chrono_sidecar_get_path (sidecar), ==, lines[1]);
      g_assert_true (chrono_sidecar_load (sidecar, &error));
      g_assert_no_error (error);
      section = chrono_sidecar_get_section (sidecar, "annotations");
      g_assert_nonnull (section);
      g_assert_true (chrono_annotations_load_json (read, section, lines[1], &error));
      g_assert_no_error (error);
      g_assert_cmpuint (chrono_annotations_get_n (read), >, 10);
      for (guint i = 0; i < chrono_annotations_get_n (read); i++)
        g_assert_true (g_str_has_prefix (chrono_annotations_get (read, i)->text, "note "));
      app_test_remove_tree (lines[0]);
    }
  g_unlink (handoff);
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;
  trace_path = app_test_real_trace (REAL_TRACE);
  if (trace_path == NULL)
    return 77;

  g_test_add_func ("/app/notes/actions", test_notes);
  g_test_add_func ("/app/notes/marking", test_marking);
  g_test_add_func ("/app/notes/panel", test_panel);
  g_test_add_func ("/app/notes/export-dialog", test_export_dialog);
  g_test_add_func ("/app/notes/killed-while-writing", test_killed_while_writing);
  return g_test_run ();
}
