/* test-app-area.c: an area summarized from the timeline's area menu: the
 * table under the timeline with the library's numbers, filtered, grouped
 * otherwise, a row's spans marked and stepped through, copied as TSV and
 * Markdown, closed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "app-test-utils.h"
#include "chrono-area-item.h"
#include "chrono-document-page.h"
#include "chrono-findings-panel.h"
#include "chrono-timeline-view.h"

#define REAL_TRACE "param__dlrm_8rank__worker0_step_12.1694128201545.pt.trace.json"

static char *trace_path;

static gboolean
has_stats (gpointer data)
{
  return chrono_area_pane_get_stats (data) != NULL;
}

/* The first widget of TYPE under ROOT outside the popovers of menus and
 * drop-downs, which have entries of their own. */
static GtkWidget *
find_outside_popovers (GtkWidget *root,
                       GType      type)
{
  if (GTK_IS_POPOVER (root))
    return NULL;
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_outside_popovers (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The host threads of the rank, which hold its operators. */
static GArray *
thread_tracks (ChronoTrace *trace)
{
  GArray *tracks = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    if (chrono_trace_get_track (trace, t)->type == CHRONO_TRACK_THREAD &&
        chrono_trace_get_track (trace, t)->n_spans > 0)
      g_array_append_val (tracks, t);
  return tracks;
}

static void
test_area (void)
{
  ChronoWindow *window = app_test_get_window ();
  ChronoDocumentPage *page = app_test_open_trace (window, trace_path);
  ChronoTimelineView *view = chrono_document_page_get_timeline_view (page);
  ChronoTimeline *timeline = chrono_timeline_view_get_timeline (view);
  ChronoAreaPane *pane = chrono_timeline_view_get_area_pane (view);
  ChronoTrace *trace = chrono_document_page_get_trace (page);
  g_autoptr(GArray) tracks = thread_tracks (trace);
  g_autoptr(ChronoAreaStats) expected = NULL;
  g_autoptr(ChronoAreaItem) first = NULL;
  g_autofree char *tsv = NULL, *markdown = NULL;
  g_auto(GStrv) lines = NULL;
  gint64 start = chrono_trace_get_start_ns (trace), end = chrono_trace_get_end_ns (trace);
  gint64 s = start + (end - start) / 3, e = start + 2 * (end - start) / 3;
  const ChronoSpanRef *marked;
  ChronoSpanRef selected;
  GListModel *rows;
  guint n_marked, current;
  GtkDropDown *grouping;
  GtkEditable *filter;

  g_assert_cmpuint (tracks->len, >=, 2);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (pane)));

  /* As Shift+drag selects an area, then Summarize from its menu. */
  g_signal_emit_by_name (timeline, "area-selected", s, e, tracks);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.area-summarize", NULL));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (pane)));
  g_assert_true (app_test_spin_until (has_stats, pane, 10000));

  expected = chrono_area_stats_new (trace, (guint *) tracks->data, tracks->len, s, e, CHRONO_AREA_BY_NAME, FALSE,
                                    NULL, NULL);
  rows = chrono_area_pane_get_rows (pane);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, chrono_area_stats_get_n_rows (expected));
  g_assert_cmpuint (g_list_model_get_n_items (rows), >, 20);
  /* Most wall time first, as the library orders them. */
  first = g_list_model_get_item (rows, 0);
  g_assert_cmpstr (chrono_area_item_get_row (first)->label, ==, chrono_area_stats_get_row (expected, 0)->label);
  g_assert_cmpint (chrono_area_item_get_row (first)->wall_ns, ==, chrono_area_stats_get_row (expected, 0)->wall_ns);

  /* Copied as the table shows it: a header and a line a row. */
  tsv = chrono_area_pane_dup_text (pane, FALSE);
  lines = g_strsplit (tsv, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, g_list_model_get_n_items (rows) + 2);
  g_assert_true (g_str_has_prefix (lines[0], "Name\tCount\tWall Time\tSelf Time"));
  g_assert_true (g_str_has_prefix (lines[1], chrono_area_item_get_row (first)->label));
  markdown = chrono_area_pane_dup_text (pane, TRUE);
  g_assert_true (g_str_has_prefix (markdown, "| Name | Count | Wall Time |"));
  g_assert_nonnull (strstr (markdown, "\n| --- | ---: |"));

  /* The first row's spans marked on the timeline, stepped through in time. */
  gtk_selection_model_select_item (gtk_column_view_get_model (GTK_COLUMN_VIEW (app_test_find_widget (GTK_WIDGET (pane), GTK_TYPE_COLUMN_VIEW))),
                                   0, TRUE);
  marked = chrono_area_pane_get_marked (pane, &n_marked, &current);
  g_assert_cmpuint (n_marked, ==, chrono_area_item_get_row (first)->count);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (pane), "area.next-span", NULL));
  marked = chrono_area_pane_get_marked (pane, &n_marked, &current);
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpuint (selected.track, ==, marked[current].track);
  g_assert_cmpuint (selected.index, ==, marked[current].index);
  g_assert_cmpuint (current, ==, MIN (1, n_marked - 1));
  if (n_marked > 1)
    g_assert_cmpint (chrono_trace_get_track (trace, marked[0].track)->start[marked[0].index], <=,
                     chrono_trace_get_track (trace, marked[1].track)->start[marked[1].index]);

  /* Filtered by name. */
  filter = GTK_EDITABLE (find_outside_popovers (GTK_WIDGET (pane), GTK_TYPE_SEARCH_ENTRY));
  gtk_editable_set_text (filter, "aten::");
  g_assert_cmpuint (g_list_model_get_n_items (rows), >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (rows), <, chrono_area_stats_get_n_rows (expected));
  for (guint r = 0; r < g_list_model_get_n_items (rows); r++)
    {
      g_autoptr(ChronoAreaItem) item = g_list_model_get_item (rows, r);

      g_assert_nonnull (strstr (chrono_area_item_get_row (item)->label, "aten::"));
    }
  /* For people to look at: the first of them marked on the timeline. */
  gtk_selection_model_select_item (gtk_column_view_get_model (GTK_COLUMN_VIEW (app_test_find_widget (GTK_WIDGET (pane), GTK_TYPE_COLUMN_VIEW))),
                                   0, TRUE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (pane), "area.next-span", NULL));
  app_test_spin_for (300);
  app_test_screenshot (GTK_WIDGET (window), "area-table.png");
  gtk_editable_set_text (filter, "");

  /* By kind: worked out again, a row a kind. */
  grouping = GTK_DROP_DOWN (app_test_find_widget (GTK_WIDGET (pane), GTK_TYPE_DROP_DOWN));
  gtk_drop_down_set_selected (grouping, CHRONO_AREA_BY_KIND);
  g_assert_true (app_test_spin_until (has_stats, pane, 10000));
  g_assert_cmpint (chrono_area_stats_get_grouping (chrono_area_pane_get_stats (pane)), ==, CHRONO_AREA_BY_KIND);
  g_assert_cmpuint (g_list_model_get_n_items (rows), <, 10);
  g_assert_cmpuint (chrono_area_stats_get_n_spans (chrono_area_pane_get_stats (pane)), ==,
                    chrono_area_stats_get_n_spans (expected));

  /* Closed, it marks nothing. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (pane), "area.close", NULL));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (pane)));
  chrono_area_pane_get_marked (pane, &n_marked, NULL);
  g_assert_cmpuint (n_marked, ==, 0);

  app_test_close_all_tabs (window);
}

/* A finding's Summarize: its range, on its tracks. */
static void
test_finding (void)
{
  ChronoWindow *window = app_test_get_window ();
  ChronoDocumentPage *page = app_test_open_trace (window, trace_path);
  ChronoAreaPane *pane = chrono_timeline_view_get_area_pane (chrono_document_page_get_timeline_view (page));
  ChronoFindingsPanel *panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  GtkListBox *list;
  GtkListBoxRow *row;
  const ChronoFinding *finding;
  ChronoAreaStats *stats;

  g_assert_true (app_test_wait_for_analysis (panel, 60000));
  list = GTK_LIST_BOX (app_test_find_widget (GTK_WIDGET (panel), GTK_TYPE_LIST_BOX));
  row = gtk_list_box_get_row_at_index (list, 0);
  g_assert_nonnull (row);
  gtk_list_box_select_row (list, row);
  finding = chrono_analysis_get_finding (chrono_findings_panel_get_analysis (panel),
                                         GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "finding")));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel), "findings.summarize", NULL));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (pane)));
  g_assert_true (app_test_spin_until (has_stats, pane, 10000));
  stats = chrono_area_pane_get_stats (pane);
  g_assert_cmpint (chrono_area_stats_get_start_ns (stats), ==, finding->start_ns);
  g_assert_cmpint (chrono_area_stats_get_end_ns (stats), ==, finding->end_ns);
  g_assert_cmpuint (chrono_area_stats_get_n_spans (stats), >, 0);

  app_test_close_all_tabs (window);
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

  g_test_add_func ("/app/area/summarize", test_area);
  g_test_add_func ("/app/area/finding", test_finding);
  return g_test_run ();
}
