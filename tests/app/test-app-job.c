/* test-app-job.c: the job view: a JOB.json of 1,024 ranks drawn within a
 * second with its straggler's row apart; hover and choice of a cell
 * loading its ranks at that moment, on a generated job and on the DLRM
 * job's folder; bad files and moved traces named
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <unistd.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "app-test-utils.h"
#include "chrono-job-page.h"
#include "chrono-timeline.h"
#include "chrono-timeline-view.h"
#include "chrono-viewport.h"

#define BIG_RANKS 1024
#define BIG_STRAGGLER 700
#define SMALL_RANKS 8
#define SMALL_STRAGGLER 5

static char *big_job;
static JsonNode *big_manifest;
static char *small_job;

static ChronoJobPage *
open_job (const char *path)
{
  ChronoWindow *window = app_test_get_window ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GListStore) files = g_list_store_new (G_TYPE_FILE);
  AdwTabPage *tab;

  g_list_store_append (files, file);
  g_assert_null (chrono_window_open_files (window, G_LIST_MODEL (files), FALSE));
  tab = adw_tab_view_get_selected_page (chrono_window_get_tab_view (window));
  g_assert_true (CHRONO_IS_JOB_PAGE (adw_tab_page_get_child (tab)));
  return CHRONO_JOB_PAGE (adw_tab_page_get_child (tab));
}

static gboolean
job_settled (gpointer data)
{
  return chrono_job_page_get_state (data) != CHRONO_DOCUMENT_STATE_LOADING;
}

static gboolean
wait_for_job (ChronoJobPage *page,
              guint          timeout_ms)
{
  return app_test_spin_until (job_settled, page, timeout_ms) &&
         chrono_job_page_get_state (page) == CHRONO_DOCUMENT_STATE_LOADED;
}

static gboolean
document_settled (gpointer data)
{
  ChronoDocumentPage *document = chrono_job_page_get_document (data);

  return document != NULL && chrono_document_page_get_state (document) != CHRONO_DOCUMENT_STATE_LOADING;
}

/* The pixel row of the chart's plot that shows ROW. */
static int
row_y (ChronoRankChartView *view,
       guint                row)
{
  cairo_rectangle_t area;

  g_assert_true (chrono_rank_chart_get_cell_area (chrono_rank_chart_view_get_chart (view),
                                                  gtk_widget_get_width (GTK_WIDGET (view)),
                                                  gtk_widget_get_height (GTK_WIDGET (view)), row, 0, &area));
  return (int) floor (area.y + area.height / 2);
}

/* The pixel column of the middle of column COL. */
static int
cell_x (ChronoRankChartView *view,
        guint                col)
{
  cairo_rectangle_t area;

  g_assert_true (chrono_rank_chart_get_cell_area (chrono_rank_chart_view_get_chart (view),
                                                  gtk_widget_get_width (GTK_WIDGET (view)),
                                                  gtk_widget_get_height (GTK_WIDGET (view)), 0, col, &area));
  return (int) (area.x + area.width / 2);
}

static gboolean
after_paint (gpointer data)
{
  return *(gboolean *) data;
}

static void
on_after_paint (GdkFrameClock *clock,
                gboolean      *painted)
{
  *painted = TRUE;
}

/* For people to look at (ADW_DEBUG_COLOR_SCHEME=prefer-dark for the
 * dark style): the window as drawn, on its style's background, which
 * GTK paints around a window's own drawing. */
static void
write_screenshot (const char *name)
{
  GtkWidget *window = GTK_WIDGET (app_test_get_window ());
  g_autofree char *png = NULL;
  cairo_surface_t *drawn, *shot;
  cairo_t *cr;

  if (g_getenv ("CHRONO_SCREENSHOT_DIR") == NULL)
    return;
  png = g_build_filename (g_getenv ("CHRONO_SCREENSHOT_DIR"), name, NULL);
  app_test_spin_for (300);
  drawn = app_test_render (window);
  shot = cairo_image_surface_create (CAIRO_FORMAT_RGB24, cairo_image_surface_get_width (drawn),
                                     cairo_image_surface_get_height (drawn));
  cr = cairo_create (shot);
  if (adw_style_manager_get_dark (adw_style_manager_get_default ()))
    cairo_set_source_rgb (cr, 0x24 / 255.0, 0x24 / 255.0, 0x24 / 255.0);
  else
    cairo_set_source_rgb (cr, 0xfa / 255.0, 0xfa / 255.0, 0xfa / 255.0);
  cairo_paint (cr);
  cairo_set_source_surface (cr, drawn, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_write_to_png (shot, png);
  cairo_surface_destroy (shot);
  cairo_surface_destroy (drawn);
}

/* Open to first frame: the JOB.json is read in a worker, the charts are
 * built, and the first frame after them paints them. */
static void
test_big_job (void)
{
  ChronoWindow *window = app_test_get_window ();
  ChronoRankChartView *view;
  ChronoJobTable *table;
  JsonArray *planted = json_object_get_array_member (json_node_get_object (big_manifest), "stragglers");
  cairo_surface_t *surface;
  GdkFrameClock *clock;
  gboolean painted = FALSE;
  gulong handler;
  gint64 t0, elapsed;
  GdkRGBA hot;
  int straggler_y, hot_rows = 0;
  ChronoJobPage *page;
  gint straggler;

  app_test_close_all_tabs (window);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  app_test_spin_for (200);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  t0 = g_get_monotonic_time ();
  page = open_job (big_job);
  g_assert_true (wait_for_job (page, 10000));
  view = chrono_job_page_get_collectives_view (page);
  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &painted);
  g_assert_true (app_test_spin_until (after_paint, &painted, 10000));
  elapsed = g_get_monotonic_time () - t0;
  g_signal_handler_disconnect (clock, handler);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (view)));
  g_test_message ("a %u-rank JOB.json: open to first frame of the job view %.0f ms", BIG_RANKS, elapsed / 1e3);
  g_assert_cmpint (elapsed, <, G_USEC_PER_SEC);

  table = chrono_job_page_get_table (page);
  g_assert_cmpuint (table->n_ranks, ==, BIG_RANKS);
  g_assert_cmpuint (json_array_get_length (planted), ==, 1);
  straggler = chrono_job_table_find_rank (table, json_array_get_int_element (planted, 0));
  g_assert_cmpint (straggler, >=, 0);
  g_assert_cmpuint (table->stragglers->len, ==, 1);
  g_assert_cmpuint (g_array_index (table->stragglers, guint, 0), ==, straggler);

  /* More ranks than pixels: rows merge, and the straggler's pixel row
   * shows its lateness, the top of the scale, in every collective, and
   * no other row comes near. */
  g_assert_cmpfloat (chrono_rank_chart_view_get_visible_rows (view), ==, BIG_RANKS);
  surface = app_test_render (GTK_WIDGET (view));
  straggler_y = row_y (view, straggler);
  chrono_rank_chart_scale_color (1, &hot);
  for (guint c = 0; c < table->n_collectives; c++)
    g_assert_true (app_test_near_color (surface, cell_x (view, c), straggler_y, &hot, 120));
  /* Down the first collective's column, only there. */
  for (int y = row_y (view, 0); y <= row_y (view, BIG_RANKS - 1); y++)
    hot_rows += app_test_near_color (surface, cell_x (view, 0), y, &hot, 120);
  /* The straggler's pixel row, and at most its neighbour where it
   * straddles two. */
  g_assert_cmpint (hot_rows, >=, 1);
  g_assert_cmpint (hot_rows, <=, 2);
  cairo_surface_destroy (surface);

  /* Zoomed on the straggler, the charts follow one another, and their
   * rows grow past a pixel each. */
  chrono_rank_chart_view_set_focus_cell (view, straggler, 0);
  g_assert_true (app_test_press_key (GTK_WIDGET (view), GDK_KEY_plus, 0));
  g_assert_true (app_test_press_key (GTK_WIDGET (view), GDK_KEY_plus, 0));
  g_assert_true (app_test_press_key (GTK_WIDGET (view), GDK_KEY_plus, 0));
  g_assert_cmpfloat (chrono_rank_chart_view_get_visible_rows (view), ==, BIG_RANKS / 8);
  g_assert_cmpfloat (chrono_rank_chart_view_get_visible_rows (chrono_job_page_get_steps_view (page)), ==,
                     BIG_RANKS / 8);
  g_assert_cmpfloat (chrono_rank_chart_view_get_first_row (chrono_job_page_get_ledger_view (page)), ==,
                     chrono_rank_chart_view_get_first_row (view));
  g_assert_cmpfloat (chrono_rank_chart_view_get_first_row (view), <=, straggler);
  g_assert_cmpfloat (chrono_rank_chart_view_get_first_row (view) + BIG_RANKS / 8, >, straggler);
  /* A page down moves the focus a screen of ranks on, into view. */
  g_assert_true (app_test_press_key (GTK_WIDGET (view), GDK_KEY_Page_Down, 0));
  {
    guint row, col;

    g_assert_true (chrono_rank_chart_view_get_focus_cell (view, &row, &col));
    g_assert_cmpuint (row, ==, straggler + BIG_RANKS / 8);
    g_assert_cmpfloat (chrono_rank_chart_view_get_first_row (view) + BIG_RANKS / 8, >=, row + 1);
  }
  g_assert_true (app_test_press_key (GTK_WIDGET (view), GDK_KEY_0, 0));
  g_assert_cmpfloat (chrono_rank_chart_view_get_visible_rows (chrono_job_page_get_ledger_view (page)), ==, BIG_RANKS);

  write_screenshot ("job-1024.png");
  app_test_close_all_tabs (window);
}

/* Hovering a cell names its rank, step and value; choosing it loads the
 * rank and the straggler it waited for, at that collective. */
static void
test_small_job_click (void)
{
  ChronoWindow *window = app_test_get_window ();
  ChronoJobPage *page;
  ChronoRankChartView *view;
  ChronoJobTable *table;
  ChronoDocumentPage *document;
  ChronoViewport *viewport;
  GListModel *files;
  cairo_rectangle_t area;
  g_autofree char *tip = NULL;
  g_autofree char *expected_step = NULL;
  g_autofree char *straggler_path = NULL;
  gint64 start, end;
  gint straggler;
  gboolean has_straggler = FALSE;

  app_test_close_all_tabs (window);
  page = open_job (small_job);
  g_assert_true (wait_for_job (page, 10000));
  table = chrono_job_page_get_table (page);
  g_assert_cmpuint (table->n_ranks, ==, SMALL_RANKS);
  straggler = chrono_job_table_find_rank (table, SMALL_STRAGGLER);
  g_assert_cmpint (straggler, >=, 0);
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (chrono_job_page_get_steps_view (page)), 5000));

  /* The step heat map's tooltip at rank 0's first cell. */
  view = chrono_job_page_get_steps_view (page);
  g_assert_true (chrono_rank_chart_get_cell_area (chrono_rank_chart_view_get_chart (view),
                                                  gtk_widget_get_width (GTK_WIDGET (view)),
                                                  gtk_widget_get_height (GTK_WIDGET (view)), 0, 0, &area));
  tip = chrono_rank_chart_view_dup_tooltip_at (view, area.x + area.width / 2, area.y + area.height / 2);
  expected_step = g_strdup_printf ("Rank %d, %s: ", table->ranks[0].rank, table->steps[0].name);
  g_assert_nonnull (tip);
  g_assert_true (g_str_has_prefix (tip, expected_step));
  g_assert_nonnull (strstr (tip, "step time"));
  g_clear_pointer (&tip, g_free);

  /* Rank 0 at collective 2, chosen with the keyboard. */
  view = chrono_job_page_get_collectives_view (page);
  gtk_widget_grab_focus (GTK_WIDGET (view));
  chrono_rank_chart_view_set_focus_cell (view, 0, 1);
  g_assert_true (app_test_press_key (GTK_WIDGET (view), GDK_KEY_Right, 0));
  g_assert_true (app_test_press_key (GTK_WIDGET (view), GDK_KEY_Return, 0));
  g_assert_true (app_test_spin_until (document_settled, page, 30000));
  document = chrono_job_page_get_document (page);
  g_assert_cmpint (chrono_document_page_get_state (document), ==, CHRONO_DOCUMENT_STATE_LOADED);
  /* Rank 0, and the straggler it waited for. */
  files = chrono_document_page_get_files (document);
  g_assert_cmpuint (g_list_model_get_n_items (files), >=, 2);
  straggler_path = chrono_job_table_find_trace (table, straggler);
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);
      g_autofree char *path = g_file_get_path (file);
      g_autofree char *first = chrono_job_table_find_trace (table, 0);

      if (i == 0)
        g_assert_cmpstr (path, ==, first);
      has_straggler |= g_strcmp0 (path, straggler_path) == 0;
    }
  g_assert_true (has_straggler);
  /* At that collective: its arrivals, on rank 0's clock. */
  g_assert_true (chrono_job_page_get_moment (page, &start, &end));
  g_assert_cmpint (start, <, table->collectives[2].first_arrival_ns + table->ranks[0].clock_offset_ns);
  g_assert_cmpint (end, >, table->collectives[2].first_arrival_ns + table->collectives[2].skew_ns +
                           table->ranks[0].clock_offset_ns);
  viewport = chrono_timeline_get_viewport (chrono_timeline_view_get_timeline (
    chrono_document_page_get_timeline_view (document)));
  g_assert_cmpint (llabs (chrono_viewport_get_start_ns (viewport) - start), <, 1000);
  g_assert_cmpint (llabs (chrono_viewport_get_end_ns (viewport) - end), <, 1000);
  /* The job stays in view beside it. */
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (view)));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (document)));

  /* A click on the ledger loads the rank alone. */
  chrono_job_page_load_rank (page, straggler, G_MAXUINT, G_MAXUINT);
  g_assert_true (app_test_spin_until (document_settled, page, 30000));
  g_assert_cmpuint (g_list_model_get_n_items (chrono_document_page_get_files (chrono_job_page_get_document (page))),
                    ==, 1);
  g_assert_false (chrono_job_page_get_moment (page, &start, &end));
  app_test_close_all_tabs (window);
}

/* A JOB.json whose rank traces moved says which and where it looked. */
static void
test_missing_trace (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *dir = g_build_filename (app_test_tmp_dir (), "moved", NULL);
  g_autofree char *job = g_build_filename (dir, "JOB.json", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  ChronoJobTable *table;
  ChronoJobPage *page;
  GtkWidget *label;

  /* The job alone, away from its ranks, which then move too. */
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_get_contents (small_job, &contents, NULL, &error));
  g_assert_true (g_file_set_contents (job, contents, -1, &error));
  app_test_close_all_tabs (window);
  page = open_job (job);
  g_assert_true (wait_for_job (page, 10000));
  table = chrono_job_page_get_table (page);
  {
    g_autofree char *moved = g_strconcat (table->ranks[1].path, ".moved", NULL);

    g_assert_cmpint (g_rename (table->ranks[1].path, moved), ==, 0);
    chrono_job_page_load_rank (page, 1, G_MAXUINT, G_MAXUINT);
    expected = g_strdup_printf ("The trace of rank %d is no longer at %s.", table->ranks[1].rank,
                                table->ranks[1].path);
    label = app_test_find_label (GTK_WIDGET (page), expected);
    g_assert_nonnull (label);
    g_assert_true (gtk_widget_get_visible (label));
    g_assert_null (chrono_job_page_get_document (page));
    g_assert_cmpint (g_rename (moved, table->ranks[1].path), ==, 0);
  }
  app_test_close_all_tabs (window);
}

/* A bad JOB.json names the file, the place and what was expected. */
static void
test_bad_job (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *path = g_build_filename (app_test_tmp_dir (), "bad-JOB.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *bad = NULL;
  g_autofree char *expected = NULL;
  const char *message;
  ChronoJobPage *page;
  char *at;

  /* The small job with a rank's path made a number. */
  g_assert_true (g_file_get_contents (small_job, &contents, NULL, &error));
  at = strstr (contents, "\"path\"");
  g_assert_nonnull (at);
  bad = g_strdup_printf ("%.*s\"path\" : 12,%s", (int) (at - contents), contents, strchr (at, ',') + 1);
  g_assert_true (g_file_set_contents (path, bad, -1, &error));

  app_test_close_all_tabs (window);
  page = open_job (path);
  g_assert_false (wait_for_job (page, 10000));
  g_assert_cmpint (chrono_job_page_get_state (page), ==, CHRONO_DOCUMENT_STATE_FAILED);
  message = chrono_job_page_get_error (page)->message;
  expected = g_strdup_printf ("%s: ranks[0]: “path” should be a string", path);
  g_assert_cmpstr (message, ==, expected);
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (page), message));
  app_test_close_all_tabs (window);
}

/* The eight DLRM ranks as a folder: summarised in a worker, with its
 * progress, into the job of the two stragglers; a collective's cell
 * loads its rank with those it waited for. */
static void
test_dlrm_folder (void)
{
  ChronoWindow *window = app_test_get_window ();
  const char *dir = g_getenv ("CHRONO_TRACES_DIR");
  g_autofree char *folder = g_build_filename (app_test_tmp_dir (), "dlrm", NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) d = NULL;
  ChronoRankChartView *view;
  ChronoJobTable *table;
  ChronoJobPage *page;
  ChronoDocumentPage *document;
  const char *name;
  gint rank2, rank7;

  if (dir == NULL || (d = g_dir_open (dir, 0, NULL)) == NULL)
    {
      g_test_skip ("no real traces");
      return;
    }
  while ((name = g_dir_read_name (d)))
    if (g_str_has_prefix (name, "param__dlrm_8rank__worker"))
      g_ptr_array_add (names, g_strdup (name));
  if (names->len != 8)
    {
      g_test_skip ("the 8-rank DLRM job is not complete");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *source = g_build_filename (dir, names->pdata[i], NULL);
      g_autofree char *link = g_build_filename (folder, names->pdata[i], NULL);

      g_assert_cmpint (symlink (source, link), ==, 0);
    }
  g_assert_cmpint (chrono_job_sniff (folder), ==, CHRONO_JOB_SOURCE_RANKS);

  app_test_close_all_tabs (window);
  page = open_job (folder);
  g_assert_cmpint (chrono_job_page_get_state (page), ==, CHRONO_DOCUMENT_STATE_LOADING);
  g_assert_true (wait_for_job (page, 60000));
  table = chrono_job_page_get_table (page);
  g_assert_cmpuint (table->n_ranks, ==, 8);
  g_assert_cmpuint (table->n_collectives, >, 0);
  rank2 = chrono_job_table_find_rank (table, 2);
  rank7 = chrono_job_table_find_rank (table, 7);
  g_assert_cmpint (rank2, >=, 0);
  g_assert_cmpint (rank7, >=, 0);
  /* None late at half its collectives by the threshold, so the list
   * offers the latest in all: 7, then 2, as Holistic Trace Analysis
   * ranks them. */
  g_assert_cmpuint (table->stragglers->len, ==, 0);
  g_assert_cmpuint (table->ranking->len, >=, 2);
  g_assert_cmpuint (g_array_index (table->ranking, guint, 0), ==, rank7);
  g_assert_cmpuint (g_array_index (table->ranking, guint, 1), ==, rank2);
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (page), "Rank 7"));
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (page), "Rank 2"));
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (chrono_job_page_get_collectives_view (page)), 5000));

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  write_screenshot ("job-dlrm.png");

  /* Rank 2 at the first collective it did not arrive at last. */
  view = chrono_job_page_get_collectives_view (page);
  for (guint c = 0; c < table->n_collectives; c++)
    if (table->collectives[c].matched && table->collectives[c].last_rank != (guint) rank2)
      {
        g_autofree char *tip = NULL;
        cairo_rectangle_t area;

        g_assert_true (chrono_rank_chart_get_cell_area (chrono_rank_chart_view_get_chart (view),
                                                        gtk_widget_get_width (GTK_WIDGET (view)),
                                                        gtk_widget_get_height (GTK_WIDGET (view)), rank2, c, &area));
        tip = chrono_rank_chart_view_dup_tooltip_at (view, area.x + area.width / 2, area.y + area.height / 2);
        g_assert_true (g_str_has_prefix (tip, "Rank 2, "));
        chrono_rank_chart_view_set_focus_cell (view, rank2, c);
        gtk_widget_grab_focus (GTK_WIDGET (view));
        g_assert_true (app_test_press_key (GTK_WIDGET (view), GDK_KEY_space, 0));
        break;
      }
  g_assert_true (app_test_spin_until (document_settled, page, 60000));
  document = chrono_job_page_get_document (page);
  g_assert_cmpint (chrono_document_page_get_state (document), ==, CHRONO_DOCUMENT_STATE_LOADED);
  g_assert_cmpuint (g_list_model_get_n_items (chrono_document_page_get_files (document)), >=, 1);
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (document), 5000));
  write_screenshot ("job-dlrm-rank.png");
  app_test_close_all_tabs (window);
}

static gboolean
progress_shown (gpointer data)
{
  return gtk_progress_bar_get_fraction (data) > 0;
}

/* A folder is summarised in a worker with its progress in view, and the
 * window answers meanwhile; Cancel stops it. */
static void
test_folder_progress_cancel (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *job = app_test_write_job ("progress-job", 48, G_MAXUINT, NULL);
  g_autofree char *dir = g_path_get_dirname (job);
  g_autofree char *ranks = g_build_filename (dir, "ranks", NULL);
  GtkProgressBar *bar;
  ChronoJobPage *page;
  AppTestTicker ticker;

  app_test_close_all_tabs (window);
  app_test_ticker_start (&ticker);
  page = open_job (ranks);
  bar = GTK_PROGRESS_BAR (app_test_find_widget (GTK_WIDGET (page), GTK_TYPE_PROGRESS_BAR));
  g_assert_true (app_test_spin_until (progress_shown, bar, 30000));
  g_assert_true (g_str_has_suffix (gtk_progress_bar_get_text (bar), " of 48 files"));
  g_assert_cmpint (chrono_job_page_get_state (page), ==, CHRONO_DOCUMENT_STATE_LOADING);
  gtk_widget_activate_action (GTK_WIDGET (page), "job.cancel", NULL);
  g_assert_true (app_test_spin_until (job_settled, page, 30000));
  app_test_ticker_stop (&ticker);
  g_assert_cmpint (chrono_job_page_get_state (page), ==, CHRONO_DOCUMENT_STATE_CANCELLED);
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (page), "Loading Cancelled"));
  g_test_message ("longest main loop turn while summarising: %" G_GINT64_FORMAT " ms", ticker.max_gap_us / 1000);
  app_test_ticker_assert_responsive (&ticker);
  app_test_close_all_tabs (window);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  if (!app_test_init (&argc, &argv))
    return 77;
  big_job = app_test_write_job ("big-job", BIG_RANKS, BIG_STRAGGLER, &big_manifest);
  small_job = app_test_write_job ("small-job", SMALL_RANKS, SMALL_STRAGGLER, NULL);
  g_test_add_func ("/app/job/open-1024-ranks", test_big_job);
  g_test_add_func ("/app/job/hover-click-small", test_small_job_click);
  g_test_add_func ("/app/job/missing-trace", test_missing_trace);
  g_test_add_func ("/app/job/bad-job", test_bad_job);
  g_test_add_func ("/app/job/dlrm-folder", test_dlrm_folder);
  g_test_add_func ("/app/job/folder-progress-cancel", test_folder_progress_cancel);
  status = g_test_run ();
  json_node_unref (big_manifest);
  g_free (big_job);
  g_free (small_job);
  return status;
}
