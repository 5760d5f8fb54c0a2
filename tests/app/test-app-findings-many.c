/* test-app-findings-many.c: a profile with hundreds of findings lists a
 * batch of them at first, with a row that shows the next batch: the same
 * findings as the analysis, in the same order, once all are shown; the
 * first selected; a rule's findings batched alike; the keyboard focus
 * kept in the list as the last batch comes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-findings-panel.h"
#include "neuron-gen.h"

/* As the panel lists them at a time. */
#define BATCH 50
#define LOAD_TIMEOUT_MS 60000

static GtkListBoxRow *
get_more_row (GtkListBox *list)
{
  return (GtkListBoxRow *) app_test_find_css_class (GTK_WIDGET (list), "findings-more");
}

/* Rows of the list, each a finding's, but the row for the next batch. */
static gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

static guint
count_finding_rows (GtkListBox *list)
{
  guint n = 0;

  for (int i = 0; gtk_list_box_get_row_at_index (list, i) != NULL; i++)
    n += gtk_list_box_get_row_at_index (list, i) != get_more_row (list);
  return n;
}

/* Shows batches until none is left, checking each adds a batch or the
 * rest. Returns how many findings are listed. */
static guint
show_all (GtkListBox *list,
          guint       n_expected)
{
  GtkListBoxRow *more;
  guint n = count_finding_rows (list);

  g_assert_cmpuint (n, ==, MIN (n_expected, BATCH));
  while ((more = get_more_row (list)) != NULL)
    {
      g_assert_cmpuint (n, <, n_expected);
      /* It is the last row, and never selected. */
      g_assert_true (gtk_list_box_get_row_at_index (list, (int) n) == more);
      g_assert_false (gtk_list_box_row_get_selectable (more));
      g_signal_emit_by_name (list, "row-activated", more);
      g_assert_cmpuint (count_finding_rows (list), ==, MIN (n_expected, n + BATCH));
      n = count_finding_rows (list);
    }
  g_assert_cmpuint (n, ==, n_expected);
  return n;
}

static void
test_many (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *dir = g_build_filename (app_test_tmp_dir (), "neuron-many", NULL);
  g_autofree char *device = g_build_filename (dir, "device_profile_model_1.json", NULL);
  g_autofree char *system = g_build_filename (dir, "system_profile.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (dir);
  g_autoptr(GError) error = NULL;
  NeuronGenOptions options;
  NeuronGenCounts counts;
  ChronoDocumentPage *page;
  ChronoFindingsPanel *panel;
  ChronoAnalysis *analysis;
  GtkListBox *list;
  GtkDropDown *dropdown;
  GtkListBoxRow *more, *first_new;
  GtkAdjustment *adjustment;
  const char *rule;
  guint n_findings, n_rule = 0;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  neuron_gen_options_init (&options);
  options.plant = "compute,dma-bound,engine-bound,small-dma,spill,transpose,collective";
  options.plant_executions = 24;
  g_assert_true (neuron_gen_write_device (device, &options, &counts, &error));
  g_assert_no_error (error);
  g_assert_true (neuron_gen_write_system (system, &options, &counts, &error));
  g_assert_no_error (error);

  app_test_close_all_tabs (window);
  page = chrono_window_open_file (window, file);
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, LOAD_TIMEOUT_MS));
  panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  g_assert_true (app_test_wait_for_analysis (panel, LOAD_TIMEOUT_MS));
  analysis = chrono_findings_panel_get_analysis (panel);
  n_findings = chrono_analysis_get_n_findings (analysis);
  g_test_message ("%u findings", n_findings);
  g_assert_cmpuint (n_findings, >, 2 * BATCH);
  list = GTK_LIST_BOX (app_test_find_css_class (GTK_WIDGET (panel), "findings"));
  g_assert_nonnull (list);

  /* A batch, the costliest selected, and a row for the next batch. */
  g_assert_cmpuint (count_finding_rows (list), ==, BATCH);
  g_assert_true (gtk_list_box_get_selected_row (list) == gtk_list_box_get_row_at_index (list, 0));
  more = get_more_row (list);
  g_assert_nonnull (more);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (gtk_list_box_row_get_child (more))), ==, "Show 50 More Findings");

  /* All of them once shown, in the analysis's order. */
  show_all (list, n_findings);
  for (guint i = 0; i < n_findings; i++)
    {
      GtkWidget *title = app_test_find_css_class (GTK_WIDGET (gtk_list_box_get_row_at_index (list, (int) i)),
                                                  "finding-title");

      g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (title)), ==, chrono_analysis_get_finding (analysis, i)->title);
    }

  /* One rule: its findings, batched alike, and counted whole. */
  dropdown = GTK_DROP_DOWN (app_test_find_widget (GTK_WIDGET (panel), GTK_TYPE_DROP_DOWN));
  rule = chrono_analysis_get_finding (analysis, 0)->rule;
  for (guint i = 0; i < n_findings; i++)
    n_rule += g_str_equal (chrono_analysis_get_finding (analysis, i)->rule, rule);
  for (guint i = 1; i < g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (gtk_drop_down_get_model (dropdown), i);
      g_autofree char *suffix = g_strdup_printf ("(%u)", n_rule);

      if (g_str_has_suffix (gtk_string_object_get_string (item), suffix))
        gtk_drop_down_set_selected (dropdown, i);
    }
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), >, 0);
  show_all (list, n_rule);
  for (guint i = 0, k = 0; i < n_findings; i++)
    if (g_str_equal (chrono_analysis_get_finding (analysis, i)->rule, rule))
      {
        GtkWidget *title = app_test_find_css_class (GTK_WIDGET (gtk_list_box_get_row_at_index (list, (int) k++)),
                                                    "finding-title");

        g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (title)), ==, chrono_analysis_get_finding (analysis, i)->title);
      }

  /* By keyboard: the focus stays on the row for the next batch, and
   * moves to the first of the last batch when that row goes. */
  gtk_drop_down_set_selected (dropdown, 0);
  g_assert_cmpuint (count_finding_rows (list), ==, BATCH);
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (app_test_find_widget (GTK_WIDGET (page), ADW_TYPE_VIEW_STACK)),
                                         "timeline");
  g_assert_true (app_test_spin_until (is_mapped, get_more_row (list), 5000));
  /* At the end of the list, as tall as a line of text. */
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (list), 5000));
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (
    gtk_widget_get_ancestor (GTK_WIDGET (list), GTK_TYPE_SCROLLED_WINDOW)));
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  app_test_spin_for (300);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (get_more_row (list))), >, 16);
  app_test_screenshot (GTK_WIDGET (window), "findings-more.png");
  while ((more = get_more_row (list)) != NULL)
    {
      int index = gtk_list_box_row_get_index (more);

      gtk_widget_grab_focus (GTK_WIDGET (more));
      g_assert_true (gtk_widget_has_focus (GTK_WIDGET (more)));
      g_signal_emit_by_name (more, "activate");
      first_new = gtk_list_box_get_row_at_index (list, index);
      if (get_more_row (list) != NULL)
        g_assert_true (gtk_widget_has_focus (GTK_WIDGET (more)));
      else
        g_assert_true (gtk_widget_has_focus (GTK_WIDGET (first_new)));
    }
  g_assert_cmpuint (count_finding_rows (list), ==, n_findings);
  app_test_close_all_tabs (window);
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;
  g_test_add_func ("/app/findings-many/batches", test_many);
  return g_test_run ();
}
