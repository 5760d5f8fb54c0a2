/* test-app-loading.c: a big trace loads without blocking, and cancels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-test-utils.h"
#include "chrono-loader.h"

#define BIG_TRACE_BYTES (200 * 1000 * 1000)
#define LOAD_TIMEOUT_MS 120000

static char *big_trace;

static GtkProgressBar *
progress_bar (ChronoDocumentPage *page)
{
  GtkWidget *bar = app_test_find_widget (GTK_WIDGET (page), GTK_TYPE_PROGRESS_BAR);

  g_assert_nonnull (bar);
  return GTK_PROGRESS_BAR (bar);
}

static void
count_update (guint *updates)
{
  (*updates)++;
}

static gboolean
has_progress (gpointer data)
{
  return gtk_progress_bar_get_fraction (data) > 0.0;
}

static void
test_responsive (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autoptr(GFile) file = g_file_new_for_path (big_trace);
  ChronoDocumentPage *page;
  AdwTabPage *tab;
  AppTestTicker ticker;
  guint updates = 0;
  gint64 start;
  double seconds;

  app_test_close_all_tabs (window);
  app_test_spin_for (100);

  start = g_get_monotonic_time ();
  page = chrono_window_open_file (window, file);
  tab = adw_tab_view_get_page (chrono_window_get_tab_view (window), GTK_WIDGET (page));
  g_signal_connect_swapped (progress_bar (page), "notify::fraction", G_CALLBACK (count_update), &updates);
  g_assert_true (adw_tab_page_get_loading (tab));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (app_test_find_stack (GTK_WIDGET (page), "loading")),
                   ==, "loading");

  /* Building the tab and drawing it the first time is the window's work,
   * whatever the file: measure from the first frame that shows progress. */
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (progress_bar (page)), 5000));
  g_test_message ("the loading page was on screen %.0f ms after opening",
                  (g_get_monotonic_time () - start) / 1e3);
  g_assert_cmpint (chrono_document_page_get_state (page), ==, CHRONO_DOCUMENT_STATE_LOADING);
  app_test_ticker_start (&ticker);

  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, LOAD_TIMEOUT_MS));
  seconds = (g_get_monotonic_time () - start) / 1e6;
  app_test_ticker_stop (&ticker);

  g_test_message ("loaded %.0f MB in %.2f s; %u progress updates; %u ticks; longest gap %.1f ms; %u over %.0f ms",
                  BIG_TRACE_BYTES / 1e6, seconds, updates, ticker.ticks, ticker.max_gap_us / 1e3,
                  ticker.long_gaps, APP_TEST_LONG_GAP_US / 1e3);
  app_test_ticker_assert_responsive (&ticker);
  g_assert_false (adw_tab_page_get_loading (tab));
  /* Throttled to about 30 a second, and some did arrive. */
  g_assert_cmpuint (updates, >, 0);
  g_assert_cmpfloat (updates, <=, 31 * seconds + 2);

  app_test_close_all_tabs (window);
}

static void
test_cancel (void)
{
  ChronoWindow *window = app_test_get_window ();
  AdwTabView *tab_view = chrono_window_get_tab_view (window);
  g_autoptr(GFile) file = g_file_new_for_path (big_trace);
  g_autoptr(ChronoDocumentPage) page = NULL;
  const GError *error;
  AppTestTicker ticker;
  GtkWidget *cancel;
  gint64 cancelled_at;

  app_test_close_all_tabs (window);
  page = g_object_ref (chrono_window_open_file (window, file));
  g_assert_true (app_test_spin_until (has_progress, progress_bar (page), LOAD_TIMEOUT_MS));
  app_test_ticker_start (&ticker);
  g_assert_cmpint (chrono_document_page_get_state (page), ==, CHRONO_DOCUMENT_STATE_LOADING);

  cancel = app_test_find_button (GTK_WIDGET (page), "document.cancel");
  g_assert_true (gtk_widget_get_mapped (cancel));
  cancelled_at = g_get_monotonic_time ();
  g_signal_emit_by_name (cancel, "clicked");

  /* The tab goes at once; the loading thread lets go soon after. */
  g_assert_cmpuint (adw_tab_view_get_n_pages (tab_view), ==, 0);
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_CANCELLED, LOAD_TIMEOUT_MS));
  g_test_message ("the loading thread stopped %.0f ms after Cancel",
                  (g_get_monotonic_time () - cancelled_at) / 1e3);
  g_assert_cmpint (g_get_monotonic_time () - cancelled_at, <, 5 * G_USEC_PER_SEC);
  error = chrono_document_page_get_error (page);
  g_assert_true (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
                 g_error_matches (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_CANCELLED));
  g_assert_null (chrono_document_page_get_trace (page));

  app_test_spin_for (50);
  app_test_ticker_stop (&ticker);
  app_test_ticker_assert_responsive (&ticker);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (app_test_find_stack (GTK_WIDGET (window), "welcome")),
                   ==, "welcome");
}

static gboolean
is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static void
test_close_window_while_loading (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autoptr(GFile) file = g_file_new_for_path (big_trace);
  ChronoDocumentPage *page = chrono_window_open_file (window, file);

  g_object_add_weak_pointer (G_OBJECT (page), (gpointer *) &page);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  g_assert_true (app_test_spin_until (has_progress, progress_bar (page), LOAD_TIMEOUT_MS));

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_true (app_test_spin_until (is_null, &window, 5000));
  /* The page outlives its window until the loading thread lets go. */
  g_assert_true (app_test_spin_until (is_null, &page, LOAD_TIMEOUT_MS));
}

int
main (int   argc,
      char *argv[])
{
  gint64 start;

  if (!app_test_init (&argc, &argv))
    return 77;

  start = g_get_monotonic_time ();
  big_trace = app_test_write_trace ("big.pt.trace.json", BIG_TRACE_BYTES, 0);
  g_test_message ("wrote %s in %.1f s", big_trace, (g_get_monotonic_time () - start) / 1e6);

  g_test_add_func ("/app/loading/responsive", test_responsive);
  g_test_add_func ("/app/loading/cancel", test_cancel);
  g_test_add_func ("/app/loading/close-window-while-loading", test_close_window_while_loading);
  return g_test_run ();
}
