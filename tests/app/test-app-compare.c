/* test-app-compare.c: the comparison view on HTA's trace-diff pair (a
 * control and a test run of one job): both timelines drawn, their zoom
 * linked both ways, B's steps stretched to A's, the diff table sorted and
 * filtered, a row's calls shown in both timelines, `--compare` on the
 * command line, the comparison kept in A's project file, and exported as
 * a picture and a report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "app-test-utils.h"
#include "chrono-comparison-view.h"
#include "chrono-document-page.h"
#include "chrono-picture.h"
#include "chrono-scene-colors.h"
#include "chrono-sidecar.h"
#include "chrono-timeline.h"

#define TRACE_A "hta__trace_diff_control__control.json.gz"
#define TRACE_B "hta__trace_diff_test__test.json.gz"

static char *path_a;
static char *path_b;

static gboolean
has_comparison (gpointer data)
{
  ChronoComparisonView *view = data;

  return chrono_comparison_view_get_comparison (view) != NULL || chrono_comparison_view_get_error (view) != NULL;
}

/* A compared with B in a fresh window, once both timelines have drawn. */
static ChronoComparisonView *
open_comparison (ChronoDocumentPage **page_out)
{
  ChronoWindow *window = app_test_get_window ();
  g_autoptr(GFile) a = g_file_new_for_path (path_a);
  g_autoptr(GFile) b = g_file_new_for_path (path_b);
  ChronoDocumentPage *page;
  ChronoComparisonView *view;

  app_test_close_all_tabs (window);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 1000);
  page = chrono_window_open_comparison (window, a, b);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 30000));
  view = chrono_document_page_get_comparison_view (page);
  g_assert_nonnull (view);
  g_assert_true (app_test_spin_until (has_comparison, view, 30000));
  g_assert_no_error ((GError *) chrono_comparison_view_get_error (view));
  for (guint side = 0; side < 2; side++)
    g_assert_true (app_test_wait_for_paint (GTK_WIDGET (chrono_comparison_view_get_timeline (view, side)), 5000));
  if (page_out != NULL)
    *page_out = page;
  return view;
}

/* Pixels of the track area unlike the background: spans drawn. */
static guint
count_drawn (ChronoTimeline *timeline)
{
  cairo_surface_t *surface = app_test_render (GTK_WIDGET (timeline));
  ChronoSceneColors colors;
  guint n;

  chrono_scene_colors_init (&colors, chrono_timeline_get_dark (timeline));
  n = (cairo_image_surface_get_width (surface) - CHRONO_TIMELINE_HEADER_WIDTH) *
      (cairo_image_surface_get_height (surface) - CHRONO_TIMELINE_RULER_HEIGHT) -
      app_test_count_color (surface, CHRONO_TIMELINE_HEADER_WIDTH, CHRONO_TIMELINE_RULER_HEIGHT,
                            cairo_image_surface_get_width (surface) - 1, cairo_image_surface_get_height (surface) - 1,
                            &colors.background, 30);
  cairo_surface_destroy (surface);
  return n;
}

/* The used pair whose window on SIDE holds TIME_NS. */
static const ChronoCompareWindow *
window_at (ChronoComparison   *comparison,
           ChronoCompareSideId side,
           gint64              time_ns,
           const ChronoCompareWindow **other)
{
  *other = NULL;
  for (guint i = 0; i < chrono_comparison_get_n_pairs (comparison); i++)
    {
      const ChronoComparePair *pair = chrono_comparison_get_pair (comparison, i);
      const ChronoCompareWindow *a, *b;

      if (!pair->used)
        continue;
      a = chrono_comparison_get_window (comparison, CHRONO_COMPARE_SIDE_A, pair->a);
      b = chrono_comparison_get_window (comparison, CHRONO_COMPARE_SIDE_B, pair->b);
      if ((side == CHRONO_COMPARE_SIDE_A ? a : b)->start_ns <= time_ns &&
          time_ns < (side == CHRONO_COMPARE_SIDE_A ? a : b)->end_ns)
        {
          *other = side == CHRONO_COMPARE_SIDE_A ? b : a;
          return side == CHRONO_COMPARE_SIDE_A ? a : b;
        }
    }
  return NULL;
}

static void
test_both_drawn_and_linked (void)
{
  ChronoComparisonView *view;
  ChronoComparison *comparison;
  ChronoViewport *va, *vb;
  const ChronoCompareWindow *wa, *wb;
  gint64 centre;

  if (path_a == NULL)
    {
      g_test_skip ("the shared traces are missing");
      return;
    }
  view = open_comparison (NULL);
  comparison = chrono_comparison_view_get_comparison (view);
  g_assert_cmpuint (chrono_comparison_get_n_used (comparison), >, 1);
  for (guint side = 0; side < 2; side++)
    {
      ChronoTimeline *timeline = chrono_comparison_view_get_timeline (view, side);

      g_assert_cmpstr (chrono_timeline_scene_get_badge (chrono_timeline_get_scene (timeline)), ==,
                       side == 0 ? "A" : "B");
      g_assert_cmpuint (count_drawn (timeline), >, 2000);
    }

  /* It opens on the first pair, A's window filling the view, B from the
   * start of its partner. */
  va = chrono_timeline_get_viewport (chrono_comparison_view_get_timeline (view, CHRONO_COMPARE_SIDE_A));
  vb = chrono_timeline_get_viewport (chrono_comparison_view_get_timeline (view, CHRONO_COMPARE_SIDE_B));

  /* Zooming A moves B: the same time from the start of the step pair at
   * A's centre, the same length. */
  chrono_viewport_zoom (va, 3.0, chrono_viewport_get_width_px (va) * 0.3);
  app_test_spin_for (50);
  centre = (chrono_viewport_get_start_ns (va) + chrono_viewport_get_end_ns (va)) / 2;
  wa = window_at (comparison, CHRONO_COMPARE_SIDE_A, centre, &wb);
  g_assert_nonnull (wa);
  g_assert_cmpint (llabs ((chrono_viewport_get_end_ns (vb) - chrono_viewport_get_start_ns (vb)) -
                          (chrono_viewport_get_end_ns (va) - chrono_viewport_get_start_ns (va))), <=, 2);
  g_assert_cmpint (llabs ((chrono_viewport_get_start_ns (vb) - wb->start_ns) -
                          (chrono_viewport_get_start_ns (va) - wa->start_ns)), <=, 2);

  /* And the other way: panning B moves A. */
  {
    gint64 a_before = chrono_viewport_get_start_ns (va);

    chrono_viewport_pan (vb, 200);
    app_test_spin_for (50);
    g_assert_cmpint (chrono_viewport_get_start_ns (va), !=, a_before);
    centre = (chrono_viewport_get_start_ns (vb) + chrono_viewport_get_end_ns (vb)) / 2;
    wb = window_at (comparison, CHRONO_COMPARE_SIDE_B, centre, &wa);
    g_assert_nonnull (wb);
    g_assert_cmpint (llabs ((chrono_viewport_get_start_ns (va) - wa->start_ns) -
                            (chrono_viewport_get_start_ns (vb) - wb->start_ns)), <=, 2);
  }
}

static void
test_stretch (void)
{
  ChronoComparisonView *view;
  ChronoComparison *comparison;
  ChronoViewport *va, *vb;
  const ChronoCompareWindow *wa, *wb;
  ChronoTimeline *timeline_b;
  cairo_surface_t *before, *after;
  double expected;
  gint64 duration_a, duration_b;

  if (path_a == NULL)
    {
      g_test_skip ("the shared traces are missing");
      return;
    }
  view = open_comparison (NULL);
  comparison = chrono_comparison_view_get_comparison (view);
  timeline_b = chrono_comparison_view_get_timeline (view, CHRONO_COMPARE_SIDE_B);
  va = chrono_timeline_get_viewport (chrono_comparison_view_get_timeline (view, CHRONO_COMPARE_SIDE_A));
  vb = chrono_timeline_get_viewport (timeline_b);
  before = app_test_render (GTK_WIDGET (timeline_b));

  gtk_widget_activate_action (GTK_WIDGET (view), "comparison.stretch", NULL);
  g_assert_true (chrono_comparison_view_get_stretch (view));
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (timeline_b), 5000));

  /* B's window is A's scaled by the length of B's step over A's. */
  wa = window_at (comparison, CHRONO_COMPARE_SIDE_A,
                  (chrono_viewport_get_start_ns (va) + chrono_viewport_get_end_ns (va)) / 2, &wb);
  g_assert_nonnull (wa);
  g_assert_cmpint (wb->end_ns - wb->start_ns, !=, wa->end_ns - wa->start_ns);
  expected = (double) (wb->end_ns - wb->start_ns) / (wa->end_ns - wa->start_ns);
  duration_a = chrono_viewport_get_end_ns (va) - chrono_viewport_get_start_ns (va);
  duration_b = chrono_viewport_get_end_ns (vb) - chrono_viewport_get_start_ns (vb);
  g_assert_cmpfloat (fabs ((double) duration_b / duration_a - expected), <, 1e-3);
  /* The step pair starts together. */
  g_assert_cmpint (llabs ((gint64) llround ((chrono_viewport_get_start_ns (va) - wa->start_ns) * expected) -
                          (chrono_viewport_get_start_ns (vb) - wb->start_ns)), <=, 2);

  after = app_test_render (GTK_WIDGET (timeline_b));
  g_assert_cmpuint (app_test_count_changed (before, after, CHRONO_TIMELINE_HEADER_WIDTH, CHRONO_TIMELINE_RULER_HEIGHT,
                                            cairo_image_surface_get_width (after) - 1,
                                            cairo_image_surface_get_height (after) - 1), >, 1000);
  cairo_surface_destroy (before);
  cairo_surface_destroy (after);

  /* Off again, B's window is as long as A's. */
  chrono_comparison_view_set_stretch (view, FALSE);
  g_assert_cmpint (llabs ((chrono_viewport_get_end_ns (vb) - chrono_viewport_get_start_ns (vb)) - duration_a), <=, 2);
}

static double
row_value (ChronoDiffRow *item,
           guint          column)
{
  const ChronoCompareRow *row = chrono_diff_row_get_row (item);

  return column == 5 ? row->delta_ns : row->b.device_ns_per_step;
}

static void
check_sorted (ChronoDiffTable *table,
              guint            column,
              GtkSortType      order)
{
  GtkColumnView *view = chrono_diff_table_get_column_view (table);
  g_autoptr(GtkColumnViewColumn) sort_column = g_list_model_get_item (gtk_column_view_get_columns (view), column);
  GListModel *rows = chrono_diff_table_get_rows (table);
  guint n = g_list_model_get_n_items (rows);

  gtk_column_view_sort_by_column (view, sort_column, order);
  g_assert_cmpuint (n, >, 10);
  for (guint i = 1; i < n; i++)
    {
      g_autoptr(ChronoDiffRow) prev = g_list_model_get_item (rows, i - 1);
      g_autoptr(ChronoDiffRow) next = g_list_model_get_item (rows, i);

      if (order == GTK_SORT_ASCENDING)
        g_assert_cmpfloat (row_value (prev, column), <=, row_value (next, column));
      else
        g_assert_cmpfloat (row_value (prev, column), >=, row_value (next, column));
    }
}

static void
test_table (void)
{
  ChronoComparisonView *view;
  ChronoComparison *comparison;
  ChronoDiffTable *table;
  GListModel *rows;

  if (path_a == NULL)
    {
      g_test_skip ("the shared traces are missing");
      return;
    }
  view = open_comparison (NULL);
  comparison = chrono_comparison_view_get_comparison (view);
  table = chrono_comparison_view_get_diff_table (view);
  rows = chrono_diff_table_get_rows (table);

  /* Every operator of the comparison, then every kernel. */
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, chrono_comparison_get_n_ops (comparison));
  check_sorted (table, 5, GTK_SORT_DESCENDING);
  check_sorted (table, 4, GTK_SORT_ASCENDING);
  chrono_diff_table_set_kind (table, CHRONO_DIFF_KERNELS);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, chrono_comparison_get_n_kernels (comparison));
  check_sorted (table, 5, GTK_SORT_ASCENDING);

  /* The search keeps the kernels named so on either side, or launched by
   * an operator named so, and only those. */
  chrono_diff_table_set_filter_text (table, "nccl");
  g_assert_cmpuint (g_list_model_get_n_items (rows), >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (rows), <, chrono_comparison_get_n_kernels (comparison));
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(ChronoDiffRow) item = g_list_model_get_item (rows, i);
      const ChronoCompareRow *row = chrono_diff_row_get_row (item);
      g_autofree char *name = g_ascii_strdown (row->name, -1);
      g_autofree char *op = row->op != NULL ? g_ascii_strdown (row->op, -1) : NULL;
      g_autofree char *b_name = row->b.name != NULL ? g_ascii_strdown (row->b.name, -1) : NULL;

      g_assert_true (strstr (name, "nccl") != NULL || (op != NULL && strstr (op, "nccl") != NULL) ||
                     (b_name != NULL && strstr (b_name, "nccl") != NULL));
    }
  chrono_diff_table_set_filter_text (table, NULL);
  chrono_diff_table_set_kind (table, CHRONO_DIFF_OPERATORS);
}

/* Spans of TRACE named NAME, counted here from the trace itself. */
static guint
count_named (ChronoTrace *trace,
             const char  *name)
{
  guint n = 0;

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      for (guint32 i = 0; i < track->n_spans; i++)
        n += strcmp (chrono_trace_get_string (trace, chrono_int_column_get (&track->name_id, i)), name) == 0;
    }
  return n;
}

static gboolean
both_searched (gpointer data)
{
  ChronoComparisonView *view = data;

  return chrono_timeline_get_search (chrono_comparison_view_get_timeline (view, 0)) != NULL &&
         chrono_timeline_get_search (chrono_comparison_view_get_timeline (view, 1)) != NULL;
}

static void
test_row_shows_calls (void)
{
  ChronoComparisonView *view;
  ChronoDiffTable *table;
  GListModel *rows;
  g_autoptr(ChronoDiffRow) chosen = NULL;
  cairo_surface_t *before[2];

  if (path_a == NULL)
    {
      g_test_skip ("the shared traces are missing");
      return;
    }
  view = open_comparison (NULL);
  table = chrono_comparison_view_get_diff_table (view);
  rows = chrono_diff_table_get_rows (table);
  /* The costliest operator that both runs call. */
  for (guint i = 0; i < g_list_model_get_n_items (rows) && chosen == NULL; i++)
    {
      g_autoptr(ChronoDiffRow) item = g_list_model_get_item (rows, i);
      const ChronoCompareRow *row = chrono_diff_row_get_row (item);

      if (row->a.count > 0 && row->b.count > 0)
        chosen = g_steal_pointer (&item);
    }
  g_assert_nonnull (chosen);
  for (guint side = 0; side < 2; side++)
    before[side] = app_test_render (GTK_WIDGET (chrono_comparison_view_get_timeline (view, side)));

  g_signal_emit_by_name (table, "row-activated", chosen);
  g_assert_true (app_test_spin_until (both_searched, view, 10000));
  for (guint side = 0; side < 2; side++)
    {
      ChronoTimeline *timeline = chrono_comparison_view_get_timeline (view, side);
      ChronoSearch *search = chrono_timeline_get_search (timeline);
      cairo_surface_t *after;

      /* Exactly the calls of that name, as the trace holds them. */
      g_assert_cmpuint (chrono_search_get_n_matches (search), ==,
                        count_named (chrono_timeline_get_trace (timeline), chrono_diff_row_get_row (chosen)->name));
      g_assert_cmpuint (chrono_search_get_n_matches (search), >, 0);
      g_assert_true (app_test_wait_for_paint (GTK_WIDGET (timeline), 5000));
      after = app_test_render (GTK_WIDGET (timeline));
      /* The rest dims: the pictures differ. */
      g_assert_cmpuint (app_test_count_changed (before[side], after, CHRONO_TIMELINE_HEADER_WIDTH,
                                                CHRONO_TIMELINE_RULER_HEIGHT,
                                                cairo_image_surface_get_width (after) - 1,
                                                cairo_image_surface_get_height (after) - 1), >, 500);
      cairo_surface_destroy (before[side]);
      cairo_surface_destroy (after);
    }
}

/* The first operator frame under NODE that both runs call. */
static const ChronoFlameNode *
find_shared_operator (const ChronoFlameNode *node)
{
  if (node->kind == CHRONO_FLAME_OPERATOR && node->a.count > 0 && node->b.count > 0)
    return node;
  for (guint i = 0; i < node->n_children; i++)
    {
      const ChronoFlameNode *found = find_shared_operator (node->children[i]);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The flame graph is a page of the view, on the view's comparison, and
 * a frame chosen in it shows that operator's calls in both timelines, as
 * a row of the table does. */
static void
test_flame_shows_calls (void)
{
  ChronoComparisonView *view;
  ChronoDiffFlame *flame;
  ChronoComparison *comparison;
  const ChronoFlameNode *node;
  const char *name = NULL;

  if (path_a == NULL)
    {
      g_test_skip ("the shared traces are missing");
      return;
    }
  view = open_comparison (NULL);
  comparison = chrono_comparison_view_get_comparison (view);
  flame = chrono_comparison_view_get_diff_flame (view);
  g_assert_true (chrono_diff_flame_get_comparison (flame) == comparison);
  node = find_shared_operator (chrono_comparison_tree_get_root (chrono_diff_flame_get_tree (flame)));
  g_assert_nonnull (node);
  for (guint i = 0; i < chrono_comparison_get_n_ops (comparison) && name == NULL; i++)
    if (strcmp (chrono_comparison_get_op (comparison, i)->key, node->name) == 0)
      name = chrono_comparison_get_op (comparison, i)->name;
  g_assert_nonnull (name);

  g_signal_emit_by_name (flame, "calls-selected", node, NULL, NULL);
  g_assert_true (app_test_spin_until (both_searched, view, 10000));
  for (guint side = 0; side < 2; side++)
    {
      ChronoTimeline *timeline = chrono_comparison_view_get_timeline (view, side);
      guint n = chrono_search_get_n_matches (chrono_timeline_get_search (timeline));

      g_assert_cmpuint (n, ==, count_named (chrono_timeline_get_trace (timeline), name));
      g_assert_cmpuint (n, >, 0);
    }
}

/* What TRACE's project file on disk keeps of its comparison. */
static ChronoComparisonSetup *
read_setup (const char *trace,
            GError    **error)
{
  g_autoptr(ChronoSidecar) sidecar = chrono_sidecar_new (trace, NULL);

  if (!chrono_sidecar_load (sidecar, error))
    return NULL;
  return chrono_comparison_setup_load (sidecar, error);
}

/* Closed, a comparison leaves null in the file, not nothing. */
static gboolean
read_setup_section_is_null (const char *trace)
{
  g_autoptr(ChronoSidecar) sidecar = chrono_sidecar_new (trace, NULL);
  JsonNode *section;

  g_assert_true (chrono_sidecar_load (sidecar, NULL));
  section = chrono_sidecar_get_section (sidecar, "comparison");
  return section != NULL && JSON_NODE_HOLDS_NULL (section);
}

static gboolean
has_comparison_view (gpointer data)
{
  return chrono_document_page_get_comparison_view (data) != NULL;
}

static void
test_project_round_trip (void)
{
  ChronoDocumentPage *page;
  ChronoComparisonView *view;
  g_autoptr(ChronoComparisonSetup) setup = NULL;
  const ChronoComparisonSetup *restored;
  g_autoptr(GError) error = NULL;

  if (path_a == NULL)
    {
      g_test_skip ("the shared traces are missing");
      return;
    }
  view = open_comparison (&page);
  chrono_comparison_view_set_stretch (view, TRUE);

  /* Written beside A's other state, as it changes. */
  setup = read_setup (path_a, &error);
  g_assert_no_error (error);
  if (setup == NULL)
    g_error ("%s: no comparison in its project file", path_a);
  g_assert_cmpstr (setup->path_b, ==, path_b);
  g_assert_true (setup->stretch);
  g_assert_cmpint (setup->options.align, ==, CHRONO_COMPARE_ALIGN_AUTO);

  /* A opened again offers it again, as it was, behind the timeline. */
  app_test_close_all_tabs (app_test_get_window ());
  page = app_test_open_trace (app_test_get_window (), path_a);
  g_assert_true (app_test_spin_until (has_comparison_view, page, 5000));
  view = chrono_document_page_get_comparison_view (page);
  restored = chrono_comparison_view_get_setup (view);
  if (restored == NULL)
    g_error ("the restored view has no setup");
  g_assert_cmpstr (restored->path_b, ==, path_b);
  g_assert_true (chrono_comparison_view_get_stretch (view));
  g_assert_true (app_test_spin_until (has_comparison, view, 30000));
  g_assert_nonnull (chrono_comparison_view_get_comparison (view));

  /* Closed, it is gone from the file too. */
  gtk_widget_activate_action (GTK_WIDGET (view), "comparison.close", NULL);
  g_assert_null (chrono_document_page_get_comparison_view (page));
  g_clear_pointer (&setup, chrono_comparison_setup_free);
  g_assert_true (read_setup_section_is_null (path_a));
}

/* Compared again by the whole traces: the view and the project file
 * follow, and B is not loaded again, nor either side analysed again. */
static void
test_align (void)
{
  ChronoComparisonView *view;
  ChronoComparison *comparison;
  g_autoptr(ChronoComparisonSetup) setup = NULL;
  g_autoptr(GError) error = NULL;
  ChronoAnalysis *analyses[2];
  ChronoTrace *trace_b;
  ChronoCompareOptions options;

  if (path_a == NULL)
    {
      g_test_skip ("the shared traces are missing");
      return;
    }
  view = open_comparison (NULL);
  g_assert_cmpint (chrono_comparison_get_align (chrono_comparison_view_get_comparison (view)), ==,
                   CHRONO_COMPARE_ALIGN_STEP);
  trace_b = chrono_timeline_get_trace (chrono_comparison_view_get_timeline (view, CHRONO_COMPARE_SIDE_B));
  for (guint side = 0; side < 2; side++)
    analyses[side] = g_object_ref (chrono_comparison_get_analysis (chrono_comparison_view_get_comparison (view), side));

  chrono_compare_options_init (&options);
  options.align = CHRONO_COMPARE_ALIGN_START;
  chrono_comparison_view_set_options (view, &options);
  g_assert_null (chrono_comparison_view_get_comparison (view));
  g_assert_true (app_test_spin_until (has_comparison, view, 30000));
  comparison = chrono_comparison_view_get_comparison (view);
  g_assert_nonnull (comparison);
  g_assert_cmpint (chrono_comparison_get_align (comparison), ==, CHRONO_COMPARE_ALIGN_START);
  g_assert_cmpuint (chrono_comparison_get_n_used (comparison), ==, 1);
  g_assert_true (chrono_timeline_get_trace (chrono_comparison_view_get_timeline (view, CHRONO_COMPARE_SIDE_B)) ==
                 trace_b);
  for (guint side = 0; side < 2; side++)
    {
      g_assert_true (chrono_comparison_get_analysis (comparison, side) == analyses[side]);
      g_object_unref (analyses[side]);
    }
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (chrono_comparison_view_get_timeline (view, 1)), 5000));
  g_assert_cmpuint (count_drawn (chrono_comparison_view_get_timeline (view, 1)), >, 2000);

  setup = read_setup (path_a, &error);
  g_assert_no_error (error);
  if (setup == NULL)
    g_error ("%s: no comparison in its project file", path_a);
  g_assert_cmpint (setup->options.align, ==, CHRONO_COMPARE_ALIGN_START);
}

static void
test_exports (void)
{
  ChronoComparisonView *view;
  g_autofree char *png = g_build_filename (app_test_tmp_dir (), "comparison.png", NULL);
  g_autofree char *md = g_build_filename (app_test_tmp_dir (), "comparison.md", NULL);
  g_autofree char *bad = g_build_filename (app_test_tmp_dir (), "comparison.bmp", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  cairo_surface_t *surface;
  int height_a, height_b;

  if (path_a == NULL)
    {
      g_test_skip ("the shared traces are missing");
      return;
    }
  view = open_comparison (NULL);
  g_assert_true (chrono_comparison_view_write_picture (view, png, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  height_a = gtk_widget_get_height (GTK_WIDGET (chrono_comparison_view_get_timeline (view, 0)));
  height_b = gtk_widget_get_height (GTK_WIDGET (chrono_comparison_view_get_timeline (view, 1)));
  /* Both scenes, one over the other, under a title and over a legend. */
  g_assert_cmpint (cairo_image_surface_get_height (surface), >, height_a + height_b);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==,
                   gtk_widget_get_width (GTK_WIDGET (chrono_comparison_view_get_timeline (view, 0))));
  cairo_surface_destroy (surface);

  g_assert_false (chrono_comparison_view_write_picture (view, bad, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
  g_assert_nonnull (strstr (error->message, bad));
  g_clear_error (&error);

  g_assert_true (chrono_comparison_view_write_report (view, md, &error));
  g_assert_true (g_file_get_contents (md, &text, NULL, &error));
  expected = chrono_comparison_to_markdown (chrono_comparison_view_get_comparison (view));
  g_assert_cmpstr (text, ==, expected);
  g_unlink (png);
  g_unlink (md);
}

/* A B that does not load fails in the view, naming the file. */
static void
test_missing_b (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *missing = g_build_filename (app_test_tmp_dir (), "no-such-trace.json", NULL);
  g_autoptr(GFile) a = NULL;
  g_autoptr(GFile) b = g_file_new_for_path (missing);
  ChronoDocumentPage *page;
  ChronoComparisonView *view;

  if (path_a == NULL)
    {
      g_test_skip ("the shared traces are missing");
      return;
    }
  a = g_file_new_for_path (path_a);
  app_test_close_all_tabs (window);
  page = chrono_window_open_comparison (window, a, b);
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 30000));
  view = chrono_document_page_get_comparison_view (page);
  g_assert_true (app_test_spin_until (has_comparison, view, 10000));
  g_assert_null (chrono_comparison_view_get_comparison (view));
  g_assert_nonnull (strstr (chrono_comparison_view_get_error (view)->message, missing));
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (view), "Could Not Compare"));
  gtk_widget_activate_action (GTK_WIDGET (view), "comparison.close", NULL);
}

/* `chronoscope --compare A B` opens A compared with B: seen in the
 * project file that the other process writes. */
static void
test_command_line (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(ChronoSidecar) sidecar = NULL;
  g_autoptr(ChronoComparisonSetup) seen = NULL;
  gint64 deadline;

  if (path_a == NULL)
    {
      g_test_skip ("the shared traces are missing");
      return;
    }
  /* What the other tests left is no evidence. */
  sidecar = chrono_sidecar_new (path_a, NULL);
  g_unlink (chrono_sidecar_get_path (sidecar));

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, g_getenv ("CHRONOSCOPE"), "--compare", path_a, path_b,
                              NULL);
  g_assert_no_error (error);
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (seen == NULL && g_get_monotonic_time () < deadline)
    {
      g_usleep (100 * 1000);
      seen = read_setup (path_a, NULL);
    }
  g_subprocess_force_exit (process);
  g_subprocess_wait (process, NULL, NULL);
  if (seen == NULL)
    g_error ("%s: chronoscope --compare wrote no comparison into its project file", path_a);
  g_assert_cmpstr (seen->path_b, ==, path_b);
}

/* As the application keeps it: GFile's path, ".." resolved. */
static char *
canonical (char *path)
{
  g_autofree char *owned = path;
  g_autoptr(GFile) file = NULL;

  if (path == NULL)
    return NULL;
  file = g_file_new_for_path (path);
  return g_file_get_path (file);
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;

  path_a = canonical (app_test_real_trace (TRACE_A));
  path_b = canonical (app_test_real_trace (TRACE_B));
  if (path_b == NULL)
    g_clear_pointer (&path_a, g_free);

  g_test_add_func ("/compare/both-drawn-and-linked", test_both_drawn_and_linked);
  g_test_add_func ("/compare/stretch", test_stretch);
  g_test_add_func ("/compare/table", test_table);
  g_test_add_func ("/compare/row-shows-calls", test_row_shows_calls);
  g_test_add_func ("/compare/flame-shows-calls", test_flame_shows_calls);
  g_test_add_func ("/compare/align", test_align);
  g_test_add_func ("/compare/exports", test_exports);
  g_test_add_func ("/compare/missing-b", test_missing_b);
  g_test_add_func ("/compare/project-round-trip", test_project_round_trip);
  g_test_add_func ("/compare/command-line", test_command_line);

  return g_test_run ();
}
