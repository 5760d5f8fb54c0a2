/* test-app-findings.c: the findings panel beside the timeline, on a real
 * Kineto trace: the same findings as the analysis, in the same order;
 * filtering by rule; a finding shown on the timeline; thresholds changed
 * in the preferences analysed again; a folder of ranks analysed as ranks;
 * the summary over the findings read whole at every width
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <unistd.h>

#include "app-test-utils.h"
#include "chrono-analysis-settings.h"
#include "chrono-document-page.h"
#include "chrono-findings-panel.h"
#include "chrono-loader.h"
#include "chrono-preferences-window.h"
#include "chrono-span-details.h"
#include "chrono-timeline.h"

#define REAL_TRACE "kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz"

static char *trace_path;

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

static void
set_true (gboolean *flag)
{
  *flag = TRUE;
}

static GtkWidget *
find_named (GtkWidget  *root,
            const char *name)
{
  if (g_str_equal (gtk_widget_get_name (root), name))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_named (child, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The rows of the findings list that the filter lets through, in order,
 * each batch after the first shown by activating "Show more". */
static GPtrArray *
get_shown_rows (GtkListBox *list)
{
  GPtrArray *rows = g_ptr_array_new ();
  GtkWidget *more;

  while ((more = app_test_find_css_class (GTK_WIDGET (list), "findings-more")) != NULL)
    g_signal_emit_by_name (list, "row-activated", more);
  for (int i = 0; gtk_list_box_get_row_at_index (list, i) != NULL; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (list, i);

      if (gtk_widget_get_child_visible (GTK_WIDGET (row)))
        g_ptr_array_add (rows, row);
    }
  return rows;
}

static const char *
get_row_title (GtkListBoxRow *row)
{
  GtkWidget *label = app_test_find_css_class (GTK_WIDGET (row), "finding-title");

  g_assert_nonnull (label);
  return gtk_label_get_label (GTK_LABEL (label));
}

static ChronoAnalysis *
analyse (ChronoTrace *trace,
         GSettings   *settings)
{
  g_autoptr(GError) error = NULL;
  ChronoAnalysisOptions options;
  ChronoAnalysis *analysis;

  chrono_analysis_options_init (&options);
  chrono_analysis_settings_read (settings, &options.thresholds);
  analysis = chrono_analysis_run (&trace, 1, &options, NULL, &error);
  g_assert_no_error (error);
  return analysis;
}

/* The list shows exactly the analysis's findings, most costly first. */
static void
assert_lists (ChronoFindingsPanel *panel,
              GtkListBox          *list,
              ChronoAnalysis      *expected)
{
  g_autoptr(GPtrArray) rows = get_shown_rows (list);

  g_assert_cmpuint (rows->len, ==, chrono_analysis_get_n_findings (expected));
  for (guint i = 0; i < rows->len; i++)
    {
      const ChronoFinding *finding = chrono_analysis_get_finding (expected, i);

      g_assert_cmpstr (get_row_title (g_ptr_array_index (rows, i)), ==, finding->title);
      if (i > 0)
        g_assert_cmpint (chrono_analysis_get_finding (expected, i - 1)->time_lost_ns, >=, finding->time_lost_ns);
    }
}

static void
test_findings (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autoptr(GFile) file = g_file_new_for_path (trace_path);
  g_autoptr(ChronoAnalysis) expected = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GSettings) settings = NULL;
  GSettings *app_settings = chrono_application_get_settings (app_test_get_application ());
  ChronoDocumentPage *page;
  ChronoFindingsPanel *panel;
  ChronoTimeline *timeline;
  ChronoSpanDetails *details;
  ChronoViewport *viewport;
  GtkListBox *list;
  GtkDropDown *dropdown;
  const ChronoFinding *finding = NULL;
  const char *rule;
  ChronoSpanRef selected, shown;
  graphene_rect_t row_bounds;
  GtkWidget *preferences = NULL;
  GtkWidget *spin;
  gboolean reanalysed = FALSE;
  guint index = G_MAXUINT, n_rule = 0, n_before;

  /* The schema is compiled into the build directory for the tests. */
  g_assert_nonnull (app_settings);
  settings = g_settings_get_child (app_settings, CHRONO_ANALYSIS_SCHEMA_CHILD);

  page = chrono_window_open_file (window, file);
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 20000));
  panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  timeline = CHRONO_TIMELINE (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE));
  details = CHRONO_SPAN_DETAILS (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_SPAN_DETAILS));
  g_assert_nonnull (panel);
  g_assert_true (app_test_wait_for_analysis (panel, 30000));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (panel)));

  expected = analyse (chrono_document_page_get_trace (page), settings);
  g_assert_cmpuint (chrono_analysis_get_n_findings (expected), >, 5);
  list = GTK_LIST_BOX (app_test_find_css_class (GTK_WIDGET (panel), "findings"));
  g_assert_nonnull (list);
  assert_lists (panel, list, expected);

  /* One rule: only its findings, in the same order. */
  dropdown = GTK_DROP_DOWN (app_test_find_widget (GTK_WIDGET (panel), GTK_TYPE_DROP_DOWN));
  rule = chrono_analysis_get_finding (expected, chrono_analysis_get_n_findings (expected) - 1)->rule;
  for (guint i = 1; i < g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)); i++)
    {
      GtkStringObject *item = g_list_model_get_item (gtk_drop_down_get_model (dropdown), i);
      const ChronoRule *rules;
      guint n_rules;

      rules = chrono_analysis_get_rules (&n_rules);
      for (guint r = 0; r < n_rules; r++)
        if (g_str_equal (rules[r].id, rule) && g_str_has_prefix (gtk_string_object_get_string (item), rules[r].title))
          gtk_drop_down_set_selected (dropdown, i);
      g_object_unref (item);
    }
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), >, 0);
  rows = get_shown_rows (list);
  for (guint i = 0, k = 0; i < chrono_analysis_get_n_findings (expected); i++)
    if (g_str_equal (chrono_analysis_get_finding (expected, i)->rule, rule))
      {
        g_assert_cmpuint (k, <, rows->len);
        g_assert_cmpstr (get_row_title (g_ptr_array_index (rows, k)), ==, chrono_analysis_get_finding (expected, i)->title);
        k++;
        n_rule = k;
      }
  g_assert_cmpuint (rows->len, ==, n_rule);
  g_assert_cmpuint (n_rule, <, chrono_analysis_get_n_findings (expected));
  gtk_drop_down_set_selected (dropdown, 0);
  g_clear_pointer (&rows, g_ptr_array_unref);

  /* Activating a finding with a span zooms to its range and selects it. */
  for (guint i = 0; i < chrono_analysis_get_n_findings (expected) && index == G_MAXUINT; i++)
    if (chrono_analysis_get_finding (expected, i)->has_node)
      index = i;
  g_assert_cmpuint (index, !=, G_MAXUINT);
  finding = chrono_analysis_get_finding (expected, index);
  rows = get_shown_rows (list);
  g_signal_emit_by_name (list, "row-activated", g_ptr_array_index (rows, index));
  viewport = chrono_timeline_get_viewport (timeline);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), <=, finding->start_ns);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), >=, finding->end_ns);
  /* Zoomed in, not the whole trace. */
  g_assert_cmpfloat (chrono_viewport_get_duration (viewport), <=, 2.0 * (finding->end_ns - finding->start_ns) + 1000);
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpuint (selected.track, ==, finding->node.span.track);
  g_assert_cmpuint (selected.index, ==, finding->node.span.index);
  g_assert_true (chrono_span_details_get_span (details, &shown));
  g_assert_cmpuint (shown.index, ==, finding->node.span.index);
  /* For people to look at: an idle gap of the GPU selected and shown. */
  if (g_getenv ("CHRONO_SCREENSHOT_DIR") != NULL)
    for (guint i = 0; i < rows->len; i++)
      if (g_str_equal (chrono_analysis_get_finding (expected, i)->rule, "gpu-idle-gap"))
        {
          g_signal_emit_by_name (list, "row-activated", g_ptr_array_index (rows, i));
          gtk_list_box_select_row (list, g_ptr_array_index (rows, i));
          app_test_spin_for (200);
          /* In view in the list too. */
          g_assert_true (gtk_widget_compute_bounds (g_ptr_array_index (rows, i), GTK_WIDGET (list), &row_bounds));
          gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (
                                      GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (GTK_WIDGET (list),
                                                                                    GTK_TYPE_SCROLLED_WINDOW))),
                                    row_bounds.origin.y);
          app_test_spin_for (300);
          app_test_screenshot (GTK_WIDGET (window), "findings.png");
          break;
        }

  /* The panel hides and comes back with its action. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "document.show-findings", NULL));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (panel)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "document.show-findings", NULL));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (panel)));

  /* A threshold changed in the preferences: analysed again, the same as
   * the analysis with that threshold. */
  g_action_group_activate_action (G_ACTION_GROUP (app_test_get_application ()), "preferences", NULL);
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app_test_get_application ())); l; l = l->next)
    if (CHRONO_IS_PREFERENCES_WINDOW (l->data))
      preferences = l->data;
  g_assert_nonnull (preferences);
  spin = find_named (GTK_WIDGET (preferences), "min-time-lost-us");
  g_assert_true (GTK_IS_SPIN_BUTTON (spin));
  n_before = chrono_analysis_get_n_findings (expected);
  g_signal_connect_swapped (panel, "notify::analysis", G_CALLBACK (set_true), &reanalysed);
  /* Findings under 5 ms are left out. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 5000);
  g_assert_cmpuint (g_settings_get_uint (settings, "min-time-lost-us"), ==, 5000);
  g_assert_true (app_test_spin_until (is_true, &reanalysed, 30000));
  g_assert_true (app_test_wait_for_analysis (panel, 30000));
  g_clear_object (&expected);
  expected = analyse (chrono_document_page_get_trace (page), settings);
  g_assert_cmpuint (chrono_analysis_get_n_findings (expected), <, n_before);
  assert_lists (panel, list, expected);

  gtk_window_destroy (GTK_WINDOW (preferences));
  g_settings_reset (settings, "min-time-lost-us");
  app_test_close_all_tabs (window);
}

/* Closing the tab while the analysis runs: the panel goes with it, and
 * nothing is left once the worker has stopped. */
static void
test_close_while_analysing (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autoptr(GFile) file = g_file_new_for_path (trace_path);
  ChronoDocumentPage *page = chrono_window_open_file (window, file);
  GWeakRef panel_ref;
  ChronoFindingsPanel *panel;

  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 20000));
  panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  g_weak_ref_init (&panel_ref, panel);
  app_test_close_all_tabs (window);
  /* The worker holds no reference to the panel. */
  for (guint i = 0; i < 3000; i++)
    {
      g_autoptr(GObject) alive = g_weak_ref_get (&panel_ref);

      if (alive == NULL)
        break;
      app_test_spin_for (10);
    }
  g_assert_null (g_weak_ref_get (&panel_ref));
  g_weak_ref_clear (&panel_ref);
}

/* A folder of the eight DLRM ranks opens as one document, analysed as
 * the eight ranks: the same findings as the eight files analysed apart,
 * a straggler among them, and each finding naming its rank. */
static void
test_ranks (void)
{
  ChronoWindow *window = app_test_get_window ();
  const char *dir = g_getenv ("CHRONO_TRACES_DIR");
  g_autofree char *folder = g_build_filename (app_test_tmp_dir (), "dlrm-job", NULL);
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GDir) d = NULL;
  g_autoptr(ChronoAnalysis) expected = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GSettings) settings = NULL;
  ChronoAnalysisOptions options;
  ChronoDocumentPage *page;
  ChronoFindingsPanel *panel;
  GtkListBox *list;
  const char *name;
  guint stragglers = 0;

  if (dir == NULL || (d = g_dir_open (dir, 0, NULL)) == NULL)
    {
      g_test_skip ("no real traces");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  while ((name = g_dir_read_name (d)))
    if (g_str_has_prefix (name, "param__dlrm_8rank__worker"))
      g_ptr_array_add (names, g_strdup (name));
  if (names->len != 8)
    {
      g_test_skip ("the 8-rank set is not complete");
      return;
    }
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *source = g_build_filename (dir, names->pdata[i], NULL);
      g_autofree char *link = g_build_filename (folder, names->pdata[i], NULL);
      g_autoptr(GError) error = NULL;
      ChronoTrace *t;

      g_assert_cmpint (symlink (source, link), ==, 0);
      t = chrono_trace_load_file (source, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_ptr_array_add (traces, t);
    }
  settings = g_settings_get_child (chrono_application_get_settings (app_test_get_application ()),
                                  CHRONO_ANALYSIS_SCHEMA_CHILD);
  chrono_analysis_options_init (&options);
  chrono_analysis_settings_read (settings, &options.thresholds);
  expected = chrono_analysis_run ((ChronoTrace **) traces->pdata, traces->len, &options, NULL, NULL);
  g_assert_nonnull (expected);

  file = g_file_new_for_path (folder);
  page = chrono_window_open_file (window, file);
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 30000));
  panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  g_assert_true (app_test_wait_for_analysis (panel, 30000));
  list = GTK_LIST_BOX (app_test_find_css_class (GTK_WIDGET (panel), "findings"));
  rows = get_shown_rows (list);
  g_assert_cmpuint (rows->len, ==, chrono_analysis_get_n_findings (expected));
  for (guint i = 0; i < rows->len; i++)
    {
      const ChronoFinding *f = chrono_analysis_get_finding (expected, i);
      GtkWidget *numbers = app_test_find_css_class (GTK_WIDGET (g_ptr_array_index (rows, i)), "finding-numbers");
      g_autofree char *rank = g_strdup_printf ("· rank %d", chrono_analysis_get_rank (expected, f->rank)->rank);

      g_assert_cmpstr (get_row_title (g_ptr_array_index (rows, i)), ==, f->title);
      g_assert_true (g_str_has_suffix (gtk_label_get_label (GTK_LABEL (numbers)), rank));
      stragglers += g_str_equal (f->rule, "collective-straggler");
    }
  g_assert_cmpuint (stragglers, >, 0);
  app_test_close_all_tabs (window);
}

/* Each line of the summary over the list: as tall as its text needs at
 * its width, not ellipsized, and above the count, which it never
 * overlaps. Returns how many lines there are. */
static guint
check_summary (GtkWidget *panel)
{
  GtkWidget *box = find_named (panel, "summary");
  GtkWidget *count;
  graphene_rect_t count_bounds;
  guint n = 0;

  g_assert_nonnull (box);
  count = app_test_find_css_class (panel, "findings-count");
  g_assert_nonnull (count);
  g_assert_true (gtk_widget_compute_bounds (count, panel, &count_bounds));
  for (GtkWidget *line = gtk_widget_get_first_child (box); line; line = gtk_widget_get_next_sibling (line))
    {
      graphene_rect_t bounds;
      int minimum;

      if (!gtk_widget_get_visible (line))
        continue;
      g_assert_true (GTK_IS_LABEL (line));
      g_assert_true (gtk_widget_compute_bounds (line, panel, &bounds));
      gtk_widget_measure (line, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (line), &minimum, NULL, NULL, NULL);
      g_assert_cmpint (gtk_widget_get_height (line), >=, minimum);
      g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (line))));
      g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (panel) + 0.5);
      g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, count_bounds.origin.y + 0.5);
      n++;
    }
  return n;
}

static gboolean
is_laid_out (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

/* A trace whose device could win back time of several rules, at the
 * window's sizes and the panel's widths a person uses. */
static void
test_summary_fits (void)
{
  static const int sizes[][2] = { { 1920, 1080 }, { 1280, 800 }, { 1024, 700 }, { 800, 600 } };
  static const int panels[] = { 340, 420, 560 };
  g_autofree char *path = app_test_real_trace ("hta__nccl_parser__nccl_data.json.gz");
  ChronoWindow *window = app_test_get_window ();
  ChronoDocumentPage *page;
  GtkWidget *panel;
  GtkPaned *paned;
  int natural, requested, minimum;

  if (path == NULL)
    return;
  page = app_test_open_trace (window, path);
  panel = app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL);
  g_assert_true (app_test_wait_for_analysis (CHRONO_FINDINGS_PANEL (panel), 60000));
  paned = GTK_PANED (gtk_widget_get_parent (panel));
  g_assert_true (GTK_IS_PANED (paned));
  chrono_document_page_set_show_findings (page, TRUE);
  g_assert_true (app_test_spin_until (is_laid_out, panel, 5000));
  /* The wrapped lines ask for no width beyond the panel's own: the
   * timeline keeps the window. */
  gtk_widget_get_size_request (panel, &requested, NULL);
  /* The panel can be as narrow as it asks to be: its tabs fit. */
  gtk_widget_measure (panel, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  g_assert_cmpint (minimum, <=, requested);
  gtk_widget_measure (find_named (panel, "summary"), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  g_assert_cmpint (natural, <=, requested * 5 / 4);
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint p = 0; p < G_N_ELEMENTS (panels); p++)
      {
        gtk_window_set_default_size (GTK_WINDOW (window), sizes[s][0], sizes[s][1]);
        gtk_paned_set_position (paned, panels[p]);
        app_test_spin_for (150);
        g_test_message ("%d × %d, panel %d px wide", sizes[s][0], sizes[s][1], gtk_widget_get_width (panel));
        g_assert_cmpint (gtk_widget_get_width (panel), <=, MAX (panels[p], requested) + 1);
        g_assert_cmpuint (check_summary (panel), >, 0);
      }
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_paned_set_position (paned, 340);
  app_test_spin_for (300);
  app_test_screenshot (GTK_WIDGET (window), "findings-summary.png");
  app_test_close_all_tabs (window);
}

/* The selected finding's Export Picture… opens the dialog on the picture
 * the report draws: titled with the finding, its evidence outlined, in
 * the frame and on rows in view. */
static void
test_export_picture (void)
{
  g_autofree char *path = app_test_real_trace ("tracelens__h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
  ChronoWindow *window = app_test_get_window ();
  ChronoExportDialog *dialog = NULL;
  ChronoFindingsPanel *panel;
  ChronoTimelineScene *scene;
  ChronoAnalysis *analysis;
  ChronoViewport *viewport;
  GtkListBoxRow *row = NULL;
  const ChronoSpanRef *marks;
  const ChronoFinding *finding = NULL;
  GtkWidget *entry, *button;
  guint n_marks;

  if (path == NULL)
    return;
  panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (app_test_open_trace (window, path)),
                                                       CHRONO_TYPE_FINDINGS_PANEL));
  g_assert_true (app_test_wait_for_analysis (panel, 60000));
  analysis = chrono_findings_panel_get_analysis (panel);
  for (guint i = 0; (row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (app_test_find_css_class (GTK_WIDGET (panel), "findings")), i)); i++)
    {
      finding = chrono_analysis_get_finding (analysis, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "finding")));
      if (g_str_equal (finding->rule, "low-efficiency"))
        break;
    }
  g_assert_nonnull (row);
  gtk_list_box_select_row (GTK_LIST_BOX (gtk_widget_get_parent (GTK_WIDGET (row))), row);
  app_test_spin_for (50);
  /* The button shows in the selected row. */
  button = app_test_find_button (GTK_WIDGET (row), "findings.export-picture");
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_mapped (button));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel), "findings.export-picture", NULL));
  g_assert_true (app_test_spin_until (app_test_find_export_dialog, &dialog, 5000));

  entry = app_test_find_widget (GTK_WIDGET (dialog), GTK_TYPE_ENTRY);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, finding->title);
  scene = chrono_export_dialog_get_scene (dialog);
  viewport = chrono_timeline_scene_get_viewport (scene);
  marks = chrono_timeline_scene_get_marks (scene, &n_marks);
  g_assert_cmpuint (n_marks, >, 1);
  for (guint i = 0; i < n_marks; i++)
    {
      const ChronoTrack *track = chrono_trace_get_track (chrono_timeline_scene_get_trace (scene), marks[i].track);
      graphene_rect_t area;

      g_assert_cmpint (track->start[marks[i].index], >=, chrono_viewport_get_start_ns (viewport));
      g_assert_cmpint (chrono_track_get_end (track, marks[i].index), <=, chrono_viewport_get_end_ns (viewport));
      g_assert_true (chrono_timeline_scene_get_span_area (scene, marks[i], &area));
      g_assert_cmpfloat (area.origin.y + area.size.height, <=, chrono_timeline_scene_get_height (scene));
    }
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (dialog), 5000));
  app_test_screenshot (GTK_WIDGET (dialog), "export-finding.png");
  gtk_window_destroy (GTK_WINDOW (dialog));
  app_test_close_all_tabs (window);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *schemas = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "..", "..", "data", NULL);

  /* The analysis thresholds live in the settings; the schema compiled
   * for the build serves. */
  g_setenv ("GSETTINGS_SCHEMA_DIR", schemas, TRUE);
  if (!app_test_init (&argc, &argv))
    return 77;

  trace_path = app_test_real_trace (REAL_TRACE);
  if (trace_path == NULL)
    return 77;
  g_test_add_func ("/app/findings/list-filter-show-preferences", test_findings);
  g_test_add_func ("/app/findings/close-while-analysing", test_close_while_analysing);
  g_test_add_func ("/app/findings/ranks", test_ranks);
  g_test_add_func ("/app/findings/summary-fits", test_summary_fits);
  g_test_add_func ("/app/findings/export-picture", test_export_picture);
  return g_test_run ();
}
