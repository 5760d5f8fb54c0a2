/* test-app-summary.c: the Summary page of real traces leads with what a
 * person checks first (devices, versions, ranks, steps, what was
 * recorded), opens with nothing selected, says the compression in words,
 * sizes a Parquet folder by its files, and names Kineto's threads by
 * their unsigned ids
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-format.h"
#include "chrono-trace-summary.h"
#include "neuron-gen.h"

/* The grid's lines, "Name: value" each. */
static char *
get_facts (GtkWidget *summary)
{
  GtkWidget *grid = app_test_find_widget (summary, GTK_TYPE_GRID);
  GString *text = g_string_new (NULL);

  g_assert_nonnull (grid);
  for (int row = 0; gtk_grid_get_child_at (GTK_GRID (grid), 0, row) != NULL; row++)
    g_string_append_printf (text, "%s: %s\n",
                            gtk_label_get_label (GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (grid), 0, row))),
                            gtk_label_get_label (GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (grid), 1, row))));
  return g_string_free (text, FALSE);
}

/* The page shown, first in its column above all other figures. */
static GtkWidget *
show_summary (ChronoDocumentPage *page)
{
  GtkWidget *summary = app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TRACE_SUMMARY);

  g_assert_nonnull (summary);
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (app_test_find_widget (GTK_WIDGET (page),
                                                                              ADW_TYPE_VIEW_STACK)),
                                         "summary");
  app_test_spin_for (200);
  g_assert_true (gtk_widget_get_mapped (summary));
  return summary;
}

/* No label of the page has text selected. */
static void
assert_nothing_selected (GtkWidget *widget)
{
  int start, end;

  if (GTK_IS_LABEL (widget))
    g_assert_false (gtk_label_get_selection_bounds (GTK_LABEL (widget), &start, &end));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    assert_nothing_selected (child);
}

static GtkWidget *
find_label_with (GtkWidget  *root,
                 const char *text)
{
  if (GTK_IS_LABEL (root) && strstr (gtk_label_get_label (GTK_LABEL (root)), text) != NULL)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label_with (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The real trace NAME opened on its Summary page: its facts, or NULL
 * when the trace is missing. */
static char *
open_facts (const char          *name,
            ChronoDocumentPage **page,
            GtkWidget          **summary)
{
  g_autofree char *path = app_test_real_trace (name);
  char *facts;

  if (path == NULL)
    return NULL;
  *page = app_test_open_trace (app_test_get_window (), path);
  *summary = show_summary (*page);
  facts = get_facts (*summary);
  g_test_message ("%s", facts);
  return facts;
}

/* A Kineto trace of an H100 with CUDA's versions, shapes and stacks. */
static void
test_kineto_facts (void)
{
  ChronoWindow *window = app_test_get_window ();
  ChronoDocumentPage *page;
  GtkWidget *summary, *title;
  g_autofree char *facts = open_facts ("tracelens__h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz", &page, &summary);
  g_autofree char *all = NULL;
  graphene_rect_t facts_bounds, stats_bounds;

  if (facts == NULL)
    return;
  g_assert_nonnull (strstr (facts, "Devices: NVIDIA H100 80GB HBM3 ("));
  g_assert_nonnull (strstr (facts, "CUDA: runtime 12.4, driver 12.9"));
  g_assert_nonnull (strstr (facts, "PyTorch: Not recorded in the trace"));
  g_assert_nonnull (strstr (facts, "Steps: "));
  g_assert_nonnull (strstr (facts, "ProfilerStep#"));
  g_assert_nonnull (strstr (facts, "Shapes: Recorded"));
  g_assert_nonnull (strstr (facts, "Python stacks: Recorded"));

  /* The facts lead: above the figures. */
  g_assert_true (gtk_widget_compute_bounds (app_test_find_widget (summary, GTK_TYPE_GRID), summary, &facts_bounds));
  g_assert_true (gtk_widget_compute_bounds (find_label_with (summary, "Duration"), summary, &stats_bounds));
  g_assert_cmpfloat (facts_bounds.origin.y + facts_bounds.size.height, <=, stats_bounds.origin.y);

  /* Opened with nothing selected; the name's tooltip has the path. */
  assert_nothing_selected (summary);
  title = find_label_with (summary, "tracelens__h100");
  g_assert_nonnull (title);
  g_assert_false (gtk_label_get_selectable (GTK_LABEL (title)));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (title), ==, chrono_trace_get_path (chrono_document_page_get_trace (page)));

  /* The compression in words, never "none". */
  all = app_test_get_text (summary);
  g_assert_nonnull (strstr (all, "from a gzip file"));
  g_assert_null (strstr (all, "· none ·"));
  if (g_getenv ("CHRONO_SCREENSHOT_DIR") != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
      app_test_spin_for (500);
      app_test_screenshot (GTK_WIDGET (window), "summary.png");
    }
  app_test_close_all_tabs (window);
}

/* A rank of a two-rank NCCL job, with a thread Kineto names by its
 * pthread id cut to 32 bits: written -549452224, shown 3745515072. */
static void
test_distributed_threads (void)
{
  ChronoDocumentPage *page;
  GtkWidget *summary;
  g_autofree char *facts = open_facts ("hta__nccl_parser__nccl_data.json.gz", &page, &summary);
  g_autofree char *all = NULL;
  ChronoTrace *trace;
  gboolean named = FALSE;

  if (facts == NULL)
    return;
  g_assert_nonnull (strstr (facts, "Distributed: rank 0 of 2 · nccl 2.17.1"));
  g_assert_nonnull (strstr (facts, "Devices: 8 × NVIDIA A100-PG509-200"));
  g_assert_nonnull (strstr (facts, "Shapes: Not recorded"));
  g_assert_nonnull (strstr (facts, "CUDA or ROCm: Not recorded in the trace"));

  trace = chrono_document_page_get_trace (page);
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const char *name = chrono_trace_get_string (trace, chrono_trace_get_track (trace, t)->display_name);

      g_assert_null (strstr (name, "-549452224"));
      named |= g_str_equal (name, "thread 3745515072");
    }
  g_assert_true (named);
  all = app_test_get_text (summary);
  g_assert_null (strstr (all, "thread -"));
  app_test_close_all_tabs (app_test_get_window ());
}

/* A Neuron profile in Parquet is a folder: its size is its files'. */
static void
test_parquet_size (void)
{
  g_autofree char *dir = g_build_filename (app_test_tmp_dir (), "parquet-size", NULL);
  g_autofree char *json = g_build_filename (dir, "device.json", NULL);
  g_autofree char *folder = g_build_filename (dir, "profile", NULL);
  g_autofree char *why = NULL, *expected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) files = NULL;
  g_autofree char *all = NULL;
  g_autoptr(GFile) location = NULL;
  ChronoWindow *window = app_test_get_window ();
  NeuronGenParquetOptions parquet;
  NeuronGenOptions options;
  NeuronGenCounts counts;
  ChronoDocumentPage *page;
  const char *name;
  guint64 total = 0;

  if (!neuron_gen_parquet_available (&why))
    {
      g_test_skip (why);
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  neuron_gen_options_init (&options);
  options.n_blocks = 10;
  g_assert_true (neuron_gen_write_device (json, &options, &counts, &error));
  neuron_gen_parquet_options_init (&parquet);
  g_assert_true (neuron_gen_write_parquet (json, folder, &parquet, NULL, &error));
  g_assert_no_error (error);
  files = g_dir_open (folder, 0, NULL);
  while ((name = g_dir_read_name (files)) != NULL)
    {
      g_autofree char *file = g_build_filename (folder, name, NULL);
      GStatBuf st;

      if (g_stat (file, &st) == 0 && S_ISREG (st.st_mode))
        total += st.st_size;
    }
  g_assert_cmpuint (total, >, 0);
  expected = chrono_format_bytes (total);

  /* Loaded, whichever page it opens on. */
  location = g_file_new_for_path (folder);
  page = chrono_window_open_file (window, location);
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 20000));
  all = app_test_get_text (show_summary (page));
  g_test_message ("%s", all);
  g_assert_nonnull (strstr (all, expected));
  g_assert_null (strstr (all, "0.0 MB"));
  app_test_close_all_tabs (window);
  app_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;

  g_test_add_func ("/app/summary/kineto-facts", test_kineto_facts);
  g_test_add_func ("/app/summary/distributed-threads", test_distributed_threads);
  g_test_add_func ("/app/summary/parquet-size", test_parquet_size);
  return g_test_run ();
}
