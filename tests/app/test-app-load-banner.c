/* test-app-load-banner.c: a load that is empty, cut short or lossy says so
 * over the timeline and the findings, with what was lost and why; a whole
 * load shows no banner, nor does one whose only warnings are the format's
 * own ways (Kineto's flow ends), which the Summary page tells
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <unistd.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-example-trace.h"
#include "chrono-load-banner.h"
#include "chrono-trace-summary.h"
#include "perfetto-writer.h"

#define DLRM_PREFIX "param__dlrm_8rank__worker"

static char *
write_file (const char   *name,
            const guint8 *data,
            gsize         len)
{
  g_autofree char *path = g_build_filename (app_test_tmp_dir (), name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, (const char *) data, len, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static ChronoLoadBanner *
open_and_find_banner (const char          *path,
                      ChronoDocumentPage **page_out)
{
  ChronoWindow *window = app_test_get_window ();
  ChronoDocumentPage *page;
  GtkWidget *banner;

  app_test_close_all_tabs (window);
  page = app_test_open_trace (window, path);
  banner = app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_LOAD_BANNER);
  g_assert_nonnull (banner);
  app_test_spin_for (50);
  if (page_out != NULL)
    *page_out = page;
  return CHRONO_LOAD_BANNER (banner);
}

/* The banner shows above the timeline and the findings panel, across both. */
static void
assert_over_timeline_and_findings (ChronoLoadBanner   *banner,
                                   ChronoDocumentPage *page)
{
  ChronoTimeline *timeline = chrono_timeline_view_get_timeline (chrono_document_page_get_timeline_view (page));
  GtkWidget *panel = app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL);
  graphene_rect_t b, t, f;

  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (banner)));
  g_assert_nonnull (panel);
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (banner), GTK_WIDGET (page), &b));
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (timeline), GTK_WIDGET (page), &t));
  g_assert_true (gtk_widget_compute_bounds (panel, GTK_WIDGET (page), &f));
  g_assert_cmpfloat (b.size.height, >, 20);
  g_assert_cmpfloat (b.origin.y + b.size.height, <=, t.origin.y);
  g_assert_cmpfloat (b.origin.y + b.size.height, <=, f.origin.y);
  g_assert_cmpfloat (b.origin.x, <=, f.origin.x);
  g_assert_cmpfloat (b.origin.x + b.size.width, >=, t.origin.x + t.size.width);
}

/* A Perfetto trace of ftrace and frame timeline packets only, as an
 * Android system trace may be. */
static void
test_empty (void)
{
  g_autoptr(GByteArray) trace = msg ();
  GByteArray *ftrace = msg ();
  GByteArray *frames = msg ();
  GByteArray *bundle = msg ();
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  ChronoDocumentPage *page;
  ChronoLoadBanner *banner;

  put_uint (bundle, 1, 0);
  put_message (ftrace, 1, bundle);
  put_uint (ftrace, 8, 1000);
  add_packet (trace, ftrace);
  put_uint (frames, 76, 0);
  put_uint (frames, 8, 2000);
  add_packet (trace, frames);
  path = write_file ("android.pftrace", trace->data, trace->len);

  banner = open_and_find_banner (path, &page);
  g_assert_cmpint (chrono_load_banner_get_state (banner), ==, CHRONO_LOAD_EMPTY);
  assert_over_timeline_and_findings (banner, page);
  text = app_test_get_text (GTK_WIDGET (banner));
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "Nothing in This Trace to Show"));
  g_assert_nonnull (strstr (text, "ftrace_events (field 1)"));
  g_assert_nonnull (strstr (text, "frame_timeline_event (field 76)"));
}

/* The first half of CONTENTS as NAME, opened: the banner says it is cut
 * short, over the timeline and the findings. Returns its text. */
static char *
open_cut (const char          *name,
          const char          *contents,
          gsize                len,
          ChronoDocumentPage **page_out)
{
  g_autofree char *path = write_file (name, (const guint8 *) contents, len / 2);
  ChronoDocumentPage *page;
  ChronoLoadBanner *banner = open_and_find_banner (path, &page);
  char *text;

  g_assert_cmpint (chrono_load_banner_get_state (banner), ==, CHRONO_LOAD_TRUNCATED);
  assert_over_timeline_and_findings (banner, page);
  text = app_test_get_text (GTK_WIDGET (banner));
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "The File Is Cut Short"));
  if (page_out != NULL)
    *page_out = page;
  return text;
}

/* A gzip file cut in the middle: its later events are lost. */
static void
test_truncated (void)
{
  g_autofree char *whole = g_build_filename (app_test_tmp_dir (), "whole.json.gz", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  ChronoExampleOptions options;
  gsize len;

  chrono_example_options_init (&options);
  options.gzip = TRUE;
  options.target_bytes = 2 * 1000 * 1000;
  g_assert_true (chrono_example_trace_write (whole, &options, NULL, &error));
  g_assert_true (g_file_get_contents (whole, &contents, &len, &error));
  text = open_cut ("cut.json.gz", contents, len, NULL);
  /* Where it ends, as the decompressor saw it. */
  g_assert_nonnull (strstr (text, "compressed data ends early at byte"));
}

/* An event whose timestamp is no number is read but shown nowhere. */
static void
test_lossy (void)
{
  static const char json[] =
    "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":5},"
    "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":\"soon\",\"dur\":2}]}";
  g_autofree char *path = write_file ("lossy.json", (const guint8 *) json, sizeof json - 1);
  g_autofree char *text = NULL;
  ChronoLoadBanner *banner = open_and_find_banner (path, NULL);

  g_assert_cmpint (chrono_load_banner_get_state (banner), ==, CHRONO_LOAD_LOSSY);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (banner)));
  text = app_test_get_text (GTK_WIDGET (banner));
  g_assert_nonnull (strstr (text, "Some of the Trace Is Not Shown"));
  g_assert_nonnull (strstr (text, "1 event is not shown."));
  /* In the singular, as ngettext makes it. */
  g_assert_nonnull (strstr (text, "1 timestamp or duration is not a number"));
}

static void
test_complete (void)
{
  static const char json[] =
    "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":5},"
    "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":2}]}";
  g_autofree char *path = write_file ("whole.json", (const guint8 *) json, sizeof json - 1);
  ChronoLoadBanner *banner = open_and_find_banner (path, NULL);

  g_assert_cmpint (chrono_load_banner_get_state (banner), ==, CHRONO_LOAD_COMPLETE);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (banner)));
}

/* The labels of WIDGET and below whose text has TEXT, outside any
 * expander's child when SKIP_EXPANDED. */
static void
collect_matching (GtkWidget  *widget,
                  const char *text,
                  gboolean    skip_expanded,
                  GPtrArray  *found)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_label (GTK_LABEL (widget)), text) != NULL)
    g_ptr_array_add (found, widget);
  if (skip_expanded && GTK_IS_EXPANDER (widget))
    {
      collect_matching (gtk_expander_get_label_widget (GTK_EXPANDER (widget)), text, skip_expanded, found);
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect_matching (child, text, skip_expanded, found);
}

/* The window at a usual size, for people to look at. */
static void
shoot (ChronoDocumentPage *page,
       const char         *name)
{
  GtkWidget *window = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (page)));

  if (g_getenv ("CHRONO_SCREENSHOT_DIR") == NULL)
    return;
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  app_test_spin_for (500);
  app_test_screenshot (window, name);
}

/* A folder of eight ranks that each warn of their flow ends, which
 * Kineto writes on every runtime call: no banner, and on the Summary page
 * one line for the eight files, which are listed behind it. */
static void
test_ranks_grouped (void)
{
  g_autofree char *traces = g_strdup (g_getenv ("CHRONO_TRACES_DIR"));
  g_autofree char *folder = g_build_filename (app_test_tmp_dir (), "dlrm-job", NULL);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) lines = g_ptr_array_new ();
  g_autoptr(GPtrArray) files = g_ptr_array_new ();
  g_autoptr(GPtrArray) others = g_ptr_array_new ();
  g_autofree char *text = NULL;
  ChronoDocumentPage *page;
  ChronoLoadBanner *banner;
  GtkWidget *expander, *summary;
  const char *name;
  guint n = 0;

  if (traces == NULL || (dir = g_dir_open (traces, 0, NULL)) == NULL)
    {
      g_test_skip ("no real traces");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, DLRM_PREFIX))
      {
        g_autofree char *target = g_build_filename (traces, name, NULL);
        g_autofree char *link = g_build_filename (folder, name, NULL);

        g_assert_cmpint (symlink (target, link), ==, 0);
        n++;
      }
  if (n != 8)
    {
      g_test_skip ("the eight DLRM ranks are not among the real traces");
      return;
    }

  banner = open_and_find_banner (folder, &page);
  g_assert_cmpint (chrono_load_banner_get_state (banner), ==, CHRONO_LOAD_COMPLETE);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (banner)));
  summary = app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TRACE_SUMMARY);
  g_assert_nonnull (summary);
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (app_test_find_widget (GTK_WIDGET (page), ADW_TYPE_VIEW_STACK)),
                                         "summary");
  app_test_spin_for (100);
  g_assert_true (gtk_widget_get_mapped (summary));
  text = app_test_get_text (summary);
  g_test_message ("%s", text);

  shoot (page, "summary-ranks.png");

  /* Said once, as a message of eight files, after a heading that says
   * the profiler writes them so... */
  g_assert_nonnull (strstr (text, "Written this way by the profiler"));
  collect_matching (summary, "flow ends have no start", TRUE, lines);
  g_assert_cmpuint (lines->len, ==, 1);
  g_assert_true (g_str_has_prefix (gtk_label_get_label (lines->pdata[0]), "8 files: "));
  g_assert_true (g_regex_match_simple ("^8 files: [0-9]+–[0-9]+ flow ends", gtk_label_get_label (lines->pdata[0]), 0, 0));
  expander = gtk_widget_get_ancestor (lines->pdata[0], GTK_TYPE_EXPANDER);
  g_assert_nonnull (expander);
  /* ... whose files are listed, each with its own count, once opened. */
  g_assert_false (gtk_expander_get_expanded (GTK_EXPANDER (expander)));
  g_assert_false (gtk_widget_get_mapped (gtk_expander_get_child (GTK_EXPANDER (expander))));
  gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
  app_test_spin_for (50);
  g_assert_true (gtk_widget_get_mapped (gtk_expander_get_child (GTK_EXPANDER (expander))));
  shoot (page, "summary-ranks-open.png");
  collect_matching (gtk_expander_get_child (GTK_EXPANDER (expander)), DLRM_PREFIX, FALSE, files);
  g_assert_cmpuint (files->len, ==, 8);
  for (guint i = 0; i < files->len; i++)
    g_assert_true (g_regex_match_simple ("^" DLRM_PREFIX "[0-9]_.*: [0-9]+ flow ends have no start",
                                         gtk_label_get_label (files->pdata[i]), 0, 0));
  /* No other line names a rank's file. */
  collect_matching (summary, DLRM_PREFIX, TRUE, others);
  g_assert_cmpuint (others->len, ==, 0);
}

/* Real Kineto traces of several profilers and versions: none shows a
 * banner; their warnings are on the Summary page, as the format's ways. */
static void
test_kineto_quiet (void)
{
  static const char *const names[] = {
    "kineto__plugin_resnet50_nw0__worker0.pt.trace.json.gz",
    "param__linear_kineto.json.gz",
    "hta__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz",
    "tracelens__h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = app_test_real_trace (names[i]);
      g_autofree char *text = NULL;
      ChronoDocumentPage *page;
      ChronoLoadBanner *banner;
      GtkWidget *summary;

      if (path == NULL)
        {
          g_test_skip ("the real Kineto traces are missing");
          return;
        }
      banner = open_and_find_banner (path, &page);
      g_assert_cmpint (chrono_load_banner_get_state (banner), ==, CHRONO_LOAD_COMPLETE);
      g_assert_false (gtk_widget_get_visible (GTK_WIDGET (banner)));
      summary = app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TRACE_SUMMARY);
      text = app_test_get_text (summary);
      g_assert_nonnull (strstr (text, "Written this way by the profiler"));
    }
}

/* A real Kineto trace cut in the middle: the banner says so, and leaves
 * Kineto's flow ends to the Summary page. */
static void
test_kineto_truncated (void)
{
  g_autofree char *real = app_test_real_trace ("param__dlrm_8rank__worker0_step_12.1694128201545.pt.trace.json");
  g_autofree char *contents = NULL, *text = NULL;
  gsize len;
  ChronoDocumentPage *page;

  if (real == NULL)
    return;
  g_assert_true (g_file_get_contents (real, &contents, &len, NULL));
  text = open_cut ("kineto-cut.json", contents, len, &page);
  g_assert_nonnull (strstr (text, "the file ends inside the event array"));
  g_assert_null (strstr (text, "flow ends have no start"));
  shoot (page, "banner-truncated.png");
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;

  g_test_add_func ("/app/load-banner/empty", test_empty);
  g_test_add_func ("/app/load-banner/truncated", test_truncated);
  g_test_add_func ("/app/load-banner/lossy", test_lossy);
  g_test_add_func ("/app/load-banner/complete", test_complete);
  g_test_add_func ("/app/load-banner/ranks-grouped", test_ranks_grouped);
  g_test_add_func ("/app/load-banner/kineto-quiet", test_kineto_quiet);
  g_test_add_func ("/app/load-banner/kineto-truncated", test_kineto_truncated);
  return g_test_run ();
}
