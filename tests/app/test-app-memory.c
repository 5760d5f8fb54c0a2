/* test-app-memory.c: the Memory tab beside the findings: each device's
 * peak and the largest allocations alive then, one chosen selecting the
 * operator that allocated it; the
 * memory lanes under the devices on the timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-format.h"
#include "chrono-findings-panel.h"
#include "chrono-memory-view.h"
#include "chrono-timeline.h"

#define TRACE "tracelens__h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz"

static guint
count_memory_rows (ChronoTimeline *timeline)
{
  ChronoTimelineScene *scene = chrono_timeline_get_scene (timeline);
  guint n = 0;

  for (guint i = 0; i < chrono_timeline_scene_get_n_rows (scene); i++)
    n += chrono_timeline_scene_get_row (scene, i)->memory != NULL;
  return n;
}

static void
test_memory_tab (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *path = app_test_real_trace (TRACE);
  ChronoDocumentPage *page;
  ChronoFindingsPanel *panel;
  ChronoMemoryView *view;
  ChronoTimeline *timeline;
  ChronoAnalysis *analysis;
  ChronoMemory * const *memories;
  const ChronoMemoryAllocation *a = NULL;
  const ChronoMemoryDevice *gpu;
  ChronoSpanRef selected;
  GtkStack *stack;
  guint n, position;

  if (path == NULL)
    {
      g_test_skip ("no shared traces");
      return;
    }
  page = app_test_open_trace (window, path);
  panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  timeline = CHRONO_TIMELINE (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE));
  g_assert_true (app_test_wait_for_analysis (panel, 60000));
  analysis = chrono_findings_panel_get_analysis (panel);
  view = CHRONO_MEMORY_VIEW (app_test_find_widget (GTK_WIDGET (panel), CHRONO_TYPE_MEMORY_VIEW));
  g_assert_nonnull (view);
  g_assert_true (chrono_memory_view_get_analysis (view) == analysis);
  g_assert_true (chrono_memory_view_get_timeline (view) == timeline);
  /* Its tab shows, as the trace has memory events. */
  stack = app_test_find_stack (GTK_WIDGET (panel), "memory");
  g_assert_true (gtk_stack_page_get_visible (gtk_stack_get_page (stack, GTK_WIDGET (view))));
  gtk_stack_set_visible_child_name (stack, "memory");

  /* One lane for the GPU and one for the host, as the trace has both. */
  memories = chrono_analysis_get_memories (analysis, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (chrono_memory_get_n_devices (memories[0]), ==, 2);
  g_assert_cmpuint (count_memory_rows (timeline), ==, 2);

  /* The first allocation row is the GPU's largest alive at its peak. */
  gpu = chrono_memory_find_device (memories[0], 0, 0);
  g_assert_nonnull (gpu);
  for (position = 0; (a = chrono_memory_view_get_allocation (view, position)) == NULL; position++)
    g_assert_cmpuint (position, <, 50);
  g_assert_true (a == &g_array_index (gpu->allocations, ChronoMemoryAllocation, g_array_index (gpu->largest, guint, 0)));
  g_assert_cmpuint (a->op.track, !=, CHRONO_MEMORY_NONE);

  /* Choosing it selects the operator that allocated it. */
  chrono_memory_view_activate_row (view, position);
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpuint (selected.track, ==, a->op.track);
  g_assert_cmpuint (selected.index, ==, a->op.index);
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (view), 5000));
  app_test_screenshot (GTK_WIDGET (window), "memory.png");
  app_test_close_all_tabs (window);
}

/* Whether TEXT has BEFORE, BYTES as the app writes them, then AFTER. */
static gboolean
has_line (const char *text,
          const char *before,
          gint64      bytes,
          const char *after)
{
  g_autofree char *size = chrono_format_bytes (bytes);
  g_autofree char *line = g_strconcat (before, size, after, NULL);

  return strstr (text, line) != NULL;
}

/* A Neuron system profile: its HBM's categories at the peak in the
 * tab, and a lane for the host and for each HBM. */
static void
test_neuron_hbm (void)
{
  static const char json[] =
    "{\"trace_events\":[],"
    "\"mem_usage\":[{\"timestamp\":1700000000000000000,\"instance_id\":\"i-1\",\"usage\":5000000000},"
    "{\"timestamp\":1700000000000100000,\"instance_id\":\"i-1\",\"usage\":5100000000}],"
    "\"device_mem_usage\":["
    "{\"timestamp\":1700000000000000000,\"instance_id\":\"i-1\",\"device_idx\":0,\"hbm_idx\":0,"
    "\"total_bytes\":3000000000,\"weights_bytes\":2000000000,\"tensors_bytes\":1000000000},"
    "{\"timestamp\":1700000000000100000,\"instance_id\":\"i-1\",\"device_idx\":0,\"hbm_idx\":0,"
    "\"total_bytes\":4000000000,\"weights_bytes\":2000000000,\"tensors_bytes\":2000000000},"
    "{\"timestamp\":1700000000000050000,\"instance_id\":\"i-1\",\"device_idx\":0,\"hbm_idx\":1,"
    "\"total_bytes\":1000000000,\"weights_bytes\":1000000000}]}";
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *path = g_build_filename (app_test_tmp_dir (), "system_profile.json", NULL);
  g_autofree char *text = NULL;
  ChronoDocumentPage *page;
  ChronoFindingsPanel *panel;
  GtkWidget *view;

  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  page = app_test_open_trace (window, path);
  panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  g_assert_true (app_test_wait_for_analysis (panel, 60000));
  view = app_test_find_widget (GTK_WIDGET (panel), CHRONO_TYPE_MEMORY_VIEW);
  g_assert_true (gtk_stack_page_get_visible (gtk_stack_get_page (app_test_find_stack (GTK_WIDGET (panel), "memory"), view)));
  text = app_test_get_text (view);
  g_assert_true (has_line (text, "Device 0 HBM 0: peak ", 4000000000, " at "));
  g_assert_true (has_line (text, "", 2000000000, " in weights"));
  g_assert_true (has_line (text, "", 2000000000, " in tensors"));
  g_assert_true (has_line (text, "Device 0 HBM 1: peak ", 1000000000, " at "));
  g_assert_true (has_line (text, "host: peak ", 5100000000, " at "));
  g_assert_cmpuint (count_memory_rows (CHRONO_TIMELINE (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE))), ==, 3);
  gtk_stack_set_visible_child_name (app_test_find_stack (GTK_WIDGET (panel), "memory"), "memory");
  g_assert_true (app_test_wait_for_paint (view, 5000));
  app_test_screenshot (GTK_WIDGET (window), "memory-neuron.png");
  app_test_close_all_tabs (window);
}

/* Without memory events, no tab. */
static void
test_no_memory (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *path = app_test_real_trace ("hta__nccl_parser__nccl_data.json.gz");
  ChronoDocumentPage *page;
  ChronoFindingsPanel *panel;
  GtkWidget *view;

  if (path == NULL)
    {
      g_test_skip ("no shared traces");
      return;
    }
  page = app_test_open_trace (window, path);
  panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  g_assert_true (app_test_wait_for_analysis (panel, 60000));
  view = app_test_find_widget (GTK_WIDGET (panel), CHRONO_TYPE_MEMORY_VIEW);
  g_assert_false (gtk_stack_page_get_visible (gtk_stack_get_page (app_test_find_stack (GTK_WIDGET (panel), "memory"), view)));
  g_assert_cmpuint (count_memory_rows (CHRONO_TIMELINE (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE))), ==, 0);
  app_test_close_all_tabs (window);
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;
  g_test_add_func ("/app/memory/tab-and-lanes", test_memory_tab);
  g_test_add_func ("/app/memory/neuron-hbm", test_neuron_hbm);
  g_test_add_func ("/app/memory/none", test_no_memory);
  return g_test_run ();
}
