/* test-app-query.c: the Query page: a query's rows in the table, a row's
 * span shown on the timeline, all rows' spans marked; faults, writes,
 * ATTACH and runaway queries refused inline, a query stopped; the
 * history kept across runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-query-page.h"
#include "chrono-query-row.h"
#include "chrono-timeline-view.h"

#define REAL_TRACE "param__dlrm_8rank__worker0_step_12.1694128201545.pt.trace.json"

static char *trace_path;

static gboolean
is_done (gpointer data)
{
  return !chrono_query_page_is_running (data);
}

static void
run (ChronoQueryPage *page,
     const char      *sql,
     guint            timeout_ms)
{
  chrono_query_page_run (page, sql);
  g_assert_true (app_test_spin_until (is_done, page, timeout_ms));
}

static guint
count_named (ChronoTrace *trace,
             const char  *name)
{
  guint n = 0;

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      for (guint32 i = 0; i < track->n_spans; i++)
        n += g_str_equal (chrono_trace_get_string (trace, chrono_track_get_name (track, i)), name);
    }
  return n;
}

static void
assert_refused (ChronoQueryPage *page,
                const char      *sql,
                const char      *says)
{
  g_auto(GStrv) words = NULL;
  gboolean found = FALSE;

  run (page, sql, 30000);
  g_assert_null (chrono_query_page_get_result (page));
  g_assert_nonnull (chrono_query_page_get_error (page));
  /* SAYS: what the message may say, a|b for either. */
  words = g_strsplit (says, "|", -1);
  for (guint i = 0; words[i] != NULL && !found; i++)
    found = strstr (chrono_query_page_get_error (page), words[i]) != NULL;
  if (!found)
    g_error ("%s: \"%s\" does not say \"%s\"", sql, chrono_query_page_get_error (page), says);
  /* Inline, under the editor. */
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (page), chrono_query_page_get_error (page)));
}

/* The timeline's selection is the span of row POSITION of ROWS: the
 * aten::to span that starts at the row's ts and lasts its dur. */
static void
assert_selected (ChronoTimeline    *timeline,
                 ChronoTrace       *trace,
                 ChronoQueryResult *result,
                 GListModel        *rows,
                 guint              position)
{
  g_autoptr(ChronoQueryRow) row = g_list_model_get_item (rows, position);
  guint r = chrono_query_row_get_row (row);
  const ChronoTrack *track;
  ChronoSpanRef selected;

  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  track = chrono_trace_get_track (trace, selected.track);
  g_assert_cmpstr (chrono_trace_get_string (trace, chrono_track_get_name (track, selected.index)), ==, "aten::to");
  g_assert_cmpint (track->start[selected.index], ==, chrono_query_result_get_int (result, r, 2));
  g_assert_cmpint (chrono_track_get_dur (track, selected.index), ==, chrono_query_result_get_int (result, r, 3));
}

static char *
history_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "chronoscope", "query-history.json", NULL);
}

/* The history file's queries, the last run first. */
static GStrv
read_history (void)
{
  g_autofree char *path = history_path ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)));
  array = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (array); i++)
    g_strv_builder_add (builder, json_array_get_string_element (array, i));
  return g_strv_builder_end (builder);
}

/* The history of a run before: the page offers it, and each query run
 * goes first in the file, once, in at most twenty. */
static void
test_history (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *path = history_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;
  ChronoDocumentPage *doc;
  AdwViewStack *stack;
  ChronoQueryPage *page;
  GMenuModel *menu;
  g_autofree char *label = NULL;
  g_auto(GStrv) history = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, "[\"SELECT 1 AS earlier\", \"SELECT 2 AS before\", \"SELECT 1 AS earlier\"]", -1, &error);
  g_assert_no_error (error);

  doc = app_test_open_trace (window, trace_path);
  stack = ADW_VIEW_STACK (app_test_find_widget (GTK_WIDGET (doc), ADW_TYPE_VIEW_STACK));
  page = CHRONO_QUERY_PAGE (adw_view_stack_get_child_by_name (stack, "query"));
  menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (app_test_find_widget (GTK_WIDGET (page), GTK_TYPE_MENU_BUTTON)));
  g_assert_nonnull (menu);
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 2);
  g_assert_true (g_menu_model_get_item_attribute (menu, 0, G_MENU_ATTRIBUTE_LABEL, "s", &label));
  g_assert_cmpstr (label, ==, "SELECT 1 AS earlier");

  /* Run again, a query goes first and only once. */
  run (page, "SELECT 2 AS before", 30000);
  history = read_history ();
  g_assert_cmpuint (g_strv_length (history), ==, 2);
  g_assert_cmpstr (history[0], ==, "SELECT 2 AS before");
  g_assert_cmpstr (history[1], ==, "SELECT 1 AS earlier");

  /* Bounded: the oldest fall out. */
  for (guint i = 0; i < 25; i++)
    {
      g_autofree char *sql = g_strdup_printf ("SELECT %u AS n", i);

      run (page, sql, 30000);
    }
  g_clear_pointer (&history, g_strfreev);
  history = read_history ();
  g_assert_cmpuint (g_strv_length (history), ==, 20);
  g_assert_cmpstr (history[0], ==, "SELECT 24 AS n");
  g_assert_cmpstr (history[19], ==, "SELECT 5 AS n");
  menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (app_test_find_widget (GTK_WIDGET (page), GTK_TYPE_MENU_BUTTON)));
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 20);

  app_test_close_all_tabs (window);
}

static void
test_query (void)
{
  ChronoWindow *window = app_test_get_window ();
  ChronoDocumentPage *doc = app_test_open_trace (window, trace_path);
  ChronoTimeline *timeline = chrono_timeline_view_get_timeline (chrono_document_page_get_timeline_view (doc));
  ChronoTrace *trace = chrono_document_page_get_trace (doc);
  AdwViewStack *stack = ADW_VIEW_STACK (app_test_find_widget (GTK_WIDGET (doc), ADW_TYPE_VIEW_STACK));
  ChronoQueryPage *page = CHRONO_QUERY_PAGE (adw_view_stack_get_child_by_name (stack, "query"));
  ChronoQueryResult *result;
  GListModel *rows;
  g_autoptr(ChronoQuery) engine = NULL;
  g_autoptr(GError) error = NULL;
  ChronoSpanRef span;
  guint n = count_named (trace, "aten::to");

  g_assert_nonnull (page);
  adw_view_stack_set_visible_child_name (stack, "query");
  app_test_spin_for (100);

  /* The example in the editor, as Run runs it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "query.run", NULL));
  g_assert_true (app_test_spin_until (is_done, page, 30000));
  g_assert_null (chrono_query_page_get_error (page));
  g_assert_cmpuint (chrono_query_result_get_n_rows (chrono_query_page_get_result (page)), >, 0);
  app_test_spin_for (200);
  app_test_screenshot (GTK_WIDGET (window), "query-page.png");

  /* Each row's id is the span it names, in the engine's public numbering. */
  g_assert_cmpuint (n, >, 5);
  run (page, "SELECT id, name, ts, dur FROM spans WHERE name = 'aten::to' ORDER BY ts", 30000);
  result = chrono_query_page_get_result (page);
  g_assert_nonnull (result);
  g_assert_cmpuint (chrono_query_result_get_n_rows (result), ==, n);
  rows = chrono_query_page_get_rows (page);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n);
  engine = chrono_query_new (&trace, 1, NULL, &error);
  g_assert_no_error (error);
  for (guint r = 0; r < n; r++)
    {
      gint64 id = chrono_query_result_get_int (result, r, 0);
      const ChronoTrack *track;
      guint t;

      g_assert_true (chrono_query_find_span (engine, id, &t, &span));
      g_assert_cmpuint (t, ==, 0);
      g_assert_cmpint (chrono_query_get_span_id (engine, 0, span), ==, id);
      track = chrono_trace_get_track (trace, span.track);
      g_assert_cmpstr (chrono_trace_get_string (trace, chrono_track_get_name (track, span.index)), ==, "aten::to");
      g_assert_cmpint (track->start[span.index], ==, chrono_query_result_get_int (result, r, 2));
      g_assert_cmpint (chrono_track_get_dur (track, span.index), ==, chrono_query_result_get_int (result, r, 3));
    }

  /* A row chosen: its span selected, on the timeline. */
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (rows), 2, TRUE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "query.show-row", NULL));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "timeline");
  assert_selected (timeline, trace, result, rows, 2);
  adw_view_stack_set_visible_child_name (stack, "query");
  app_test_spin_for (100);

  /* A row activated in the table (Enter or a double click): the same. */
  chrono_timeline_select (timeline, NULL);
  g_signal_emit_by_name (app_test_find_widget (GTK_WIDGET (page), GTK_TYPE_COLUMN_VIEW), "activate", 4);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "timeline");
  assert_selected (timeline, trace, result, rows, 4);
  adw_view_stack_set_visible_child_name (stack, "query");

  /* Faults, writes, ATTACH and runaway queries, refused inline. */
  assert_refused (page, "SELEC name FROM spans", "syntax error");
  app_test_spin_for (200);
  app_test_screenshot (GTK_WIDGET (window), "query-error.png");
  assert_refused (page, "DELETE FROM spans", "refused|may not be modified");
  assert_refused (page, "CREATE TABLE t(x)", "refused|read-only|readonly");
  assert_refused (page, "ATTACH DATABASE ':memory:' AS other", "ATTACH");
  assert_refused (page, "PRAGMA temp_store = FILE", "PRAGMA statements that change settings");
  assert_refused (page, "SELECT load_extension('libm')", "loading extensions is refused");
  assert_refused (page, "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r",
                  "time");

  /* Stopped by hand. */
  chrono_query_page_run (page, "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r");
  app_test_spin_for (200);
  g_assert_true (chrono_query_page_is_running (page));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "query.stop", NULL));
  g_assert_true (app_test_spin_until (is_done, page, 5000));
  g_assert_nonnull (chrono_query_page_get_error (page));
  g_assert_null (chrono_query_page_get_result (page));

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

  g_test_add_func ("/app/query/page", test_query);
  g_test_add_func ("/app/query/history", test_history);
  return g_test_run ();
}
