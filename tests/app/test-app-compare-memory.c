/* test-app-compare-memory.c: the comparison view's Memory page on the
 * Qwen pair (one model on an H100 and on an MI300): each device's peak in
 * both runs, the change, and the operators holding the most at each
 * run's peak, as the two memory analyses say
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "app-test-utils.h"
#include "chrono-comparison-memory.h"
#include "chrono-comparison-view.h"
#include "chrono-document-page.h"
#include "chrono-format.h"

#define TRACE_A "tracelens__h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz"
#define TRACE_B "tracelens__mi300__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz"

static char *path_a;
static char *path_b;

/* The Memory page has the comparison, or the comparison failed. */
static gboolean
memory_page_filled (gpointer data)
{
  ChronoComparisonView *view = data;

  return chrono_comparison_memory_view_get_comparison (chrono_comparison_view_get_memory_view (view)) != NULL ||
         chrono_comparison_view_get_error (view) != NULL;
}

static const char *
cell_text (GtkGrid *grid,
           int      column,
           int      row)
{
  GtkWidget *child = gtk_grid_get_child_at (grid, column, row);

  g_assert_true (GTK_IS_LABEL (child));
  return gtk_label_get_text (GTK_LABEL (child));
}

/* "aten::empty · 12 MB": the K-th operator of D's peak, as TRACE names it. */
static char *
expected_op (ChronoTrace              *trace,
             const ChronoMemoryDevice *d,
             guint                     k)
{
  const ChronoMemoryGroup *g = &g_array_index (d->by_operator, ChronoMemoryGroup, k);
  g_autofree char *bytes = chrono_format_bytes (g->bytes);

  return g_strdup_printf ("%s · %s", g->name != CHRONO_NO_STRING ? chrono_trace_get_string (trace, g->name)
                                                                 : "outside any operator", bytes);
}

static void
check_ops (GtkGrid                  *grid,
           int                       column,
           ChronoTrace              *trace,
           const ChronoMemoryDevice *d)
{
  g_assert_cmpuint (d->by_operator->len, >, 0);
  for (guint k = 0; k < MIN (d->by_operator->len, CHRONO_COMPARISON_MEMORY_TOP_OPS); k++)
    {
      g_autofree char *want = expected_op (trace, d, k);
      g_assert_cmpstr (cell_text (grid, column, 2 + (int) k), ==, want);
    }
}

static void
test_peaks (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autoptr(GFile) a = NULL;
  g_autoptr(GFile) b = NULL;
  ChronoDocumentPage *page;
  ChronoComparisonView *view;
  ChronoComparisonMemoryView *memory;
  ChronoComparison *comparison;
  ChronoTrace *traces[2];
  GPtrArray *rows;
  gboolean checked_gpu = FALSE;

  if (path_a == NULL)
    {
      g_test_skip ("the shared traces are missing");
      return;
    }
  a = g_file_new_for_path (path_a);
  b = g_file_new_for_path (path_b);
  app_test_close_all_tabs (window);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 1000);
  page = chrono_window_open_comparison (window, a, b);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 60000));
  view = chrono_document_page_get_comparison_view (page);
  g_assert_true (app_test_spin_until (memory_page_filled, view, 60000));
  g_assert_no_error ((GError *) chrono_comparison_view_get_error (view));
  comparison = chrono_comparison_view_get_comparison (view);
  memory = chrono_comparison_view_get_memory_view (view);
  g_assert_true (chrono_comparison_memory_view_get_comparison (memory) == comparison);
  for (guint s = 0; s < 2; s++)
    {
      guint n;
      traces[s] = chrono_memory_get_trace (chrono_analysis_get_memories (chrono_comparison_get_analysis (comparison, s), &n)[0]);
    }

  rows = chrono_comparison_memory_view_get_rows (memory);
  g_assert_nonnull (rows);
  g_assert_cmpuint (rows->len, >, 0);
  for (guint i = 0; i < rows->len; i++)
    {
      const ChronoCompareMemory *row = rows->pdata[i];
      GtkGrid *grid = chrono_comparison_memory_view_get_grid (memory, i);
      g_autofree char *peak_a = NULL;
      g_autofree char *peak_b = NULL;
      g_autofree char *change = NULL;
      gint64 delta;

      g_assert_cmpstr (cell_text (grid, 0, 0), ==, row->device);
      if (row->a == NULL || row->b == NULL)
        continue;
      peak_a = chrono_format_bytes (row->a->peak_allocated_bytes);
      peak_b = chrono_format_bytes (row->b->peak_allocated_bytes);
      delta = row->b->peak_allocated_bytes - row->a->peak_allocated_bytes;
      change = chrono_format_bytes ((guint64) ABS (delta));
      g_assert_cmpstr (cell_text (grid, 1, 1), ==, peak_a);
      g_assert_cmpstr (cell_text (grid, 2, 1), ==, peak_b);
      g_assert_nonnull (strstr (cell_text (grid, 3, 1), change));
      g_assert_true (g_str_has_prefix (cell_text (grid, 3, 1), delta > 0 ? "+" : delta < 0 ? "−" : "no change"));
      if (row->a->device_id >= 0 && row->b->device_id >= 0)
        {
          /* The GPU's peak is held by operators the trace names. */
          check_ops (grid, 1, traces[0], row->a);
          check_ops (grid, 2, traces[1], row->b);
          checked_gpu = TRUE;
        }
    }
  g_assert_true (checked_gpu);

  /* The page shown, for people to look at. */
  gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (memory))), GTK_WIDGET (memory));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (chrono_comparison_memory_view_get_grid (memory, 0))));
  app_test_spin_for (300);
  app_test_screenshot (GTK_WIDGET (window), "compare-memory.png");
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;

  path_a = app_test_real_trace (TRACE_A);
  path_b = app_test_real_trace (TRACE_B);
  if (path_b == NULL)
    g_clear_pointer (&path_a, g_free);

  g_test_add_func ("/compare-memory/peaks", test_peaks);
  return g_test_run ();
}
