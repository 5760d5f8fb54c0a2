/* test-app-efficiency.c: the Efficiency tab beside the findings: the
 * analysis's rows, sortable by each column, and a row's calls selected
 * on the timeline when it is activated
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-efficiency-item.h"
#include "chrono-efficiency-view.h"
#include "chrono-findings-panel.h"
#include "chrono-timeline.h"

static const ChronoEfficiencyRow *
row_at (GListModel *model,
        guint       position)
{
  g_autoptr(ChronoEfficiencyItem) item = g_list_model_get_item (model, position);

  return chrono_efficiency_item_get_row (item);
}

static GtkColumnViewColumn *
column_titled (GtkColumnView *view,
               const char    *title)
{
  GListModel *columns = gtk_column_view_get_columns (view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        return column;
    }
  g_error ("no column %s", title);
}

static void
test_efficiency_tab (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *path = app_test_write_trace ("efficiency.json", 0, 4);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  ChronoDocumentPage *page = chrono_window_open_file (window, file);
  ChronoFindingsPanel *panel;
  ChronoEfficiencyView *view;
  ChronoTimeline *timeline;
  ChronoAnalysis *analysis;
  GtkColumnView *columns;
  GListModel *model;
  GtkStack *stack;
  ChronoSpanRef selected;
  const ChronoEfficiencyRow *first;
  guint n;

  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 20000));
  panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  timeline = CHRONO_TIMELINE (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE));
  g_assert_true (app_test_wait_for_analysis (panel, 30000));
  analysis = chrono_findings_panel_get_analysis (panel);
  view = CHRONO_EFFICIENCY_VIEW (app_test_find_widget (GTK_WIDGET (panel), CHRONO_TYPE_EFFICIENCY_VIEW));
  g_assert_nonnull (view);
  g_assert_true (chrono_efficiency_view_get_analysis (view) == analysis);
  g_assert_true (chrono_efficiency_view_get_timeline (view) == timeline);
  stack = app_test_find_stack (GTK_WIDGET (panel), "efficiency");
  gtk_stack_set_visible_child_name (stack, "efficiency");

  /* Every row of the analysis, the most GPU time first. */
  columns = GTK_COLUMN_VIEW (app_test_find_widget (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW));
  model = G_LIST_MODEL (gtk_column_view_get_model (columns));
  n = g_list_model_get_n_items (model);
  g_assert_cmpuint (n, ==, chrono_analysis_get_n_efficiency (analysis));
  g_assert_cmpuint (n, >, 5);
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (row_at (model, i - 1)->gpu_time_ns, >=, row_at (model, i)->gpu_time_ns);

  /* By achieved TFLOP/s, both ways. */
  gtk_column_view_sort_by_column (columns, column_titled (columns, "TFLOP/s"), GTK_SORT_ASCENDING);
  for (guint i = 1; i < n; i++)
    g_assert_cmpfloat (row_at (model, i - 1)->achieved_tflops, <=, row_at (model, i)->achieved_tflops);
  gtk_column_view_sort_by_column (columns, column_titled (columns, "Of Roofline"), GTK_SORT_DESCENDING);
  for (guint i = 1; i < n; i++)
    g_assert_cmpfloat (row_at (model, i - 1)->roofline_share, >=, row_at (model, i)->roofline_share);

  /* Activating a row selects its first call and marks all of them. */
  first = row_at (model, 0);
  g_assert_cmpuint (first->n_calls, >, 1);
  chrono_efficiency_view_activate_row (view, 0);
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpuint (selected.track, ==, first->calls[0].track);
  g_assert_cmpuint (selected.index, ==, first->calls[0].index);
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (view), 5000));

  /* For people to look at (ADW_DEBUG_COLOR_SCHEME=prefer-dark for the dark style). */
  if (g_getenv ("CHRONO_SCREENSHOT_DIR") != NULL)
    {
      g_autofree char *png = g_build_filename (g_getenv ("CHRONO_SCREENSHOT_DIR"), "efficiency.png", NULL);
      cairo_surface_t *shot;

      /* Room for every column. */
      gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
      gtk_paned_set_position (GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (panel), GTK_TYPE_PANED)), 820);
      app_test_spin_for (500);
      shot = app_test_render (GTK_WIDGET (window));

      cairo_surface_write_to_png (shot, png);
      cairo_surface_destroy (shot);
      /* Time for a screenshot of the display too. */
      app_test_spin_for (3000);
    }
  app_test_close_all_tabs (window);
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;
  g_test_add_func ("/app/efficiency/rows-sort-activate", test_efficiency_tab);
  return g_test_run ();
}
