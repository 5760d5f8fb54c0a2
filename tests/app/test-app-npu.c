/* test-app-npu.c: the findings panel of an Ascend NPU trace sets the
 * profiler's own overlap analysis beside the ledger, and a trace with host
 * operators and no device work says so
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "app-test-utils.h"
#include "chrono-analysis-settings.h"
#include "chrono-document-page.h"
#include "chrono-findings-panel.h"
#include "chrono-window.h"

#define NPU_TRACE "msinsight__npu_ddp_level2_rank0__trace_view.json"
#define NPU_LEVEL0_TRACE "msinsight__npu_ddp_level0_rank0__trace_view.json"
#define CPU_TRACE "hta__cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"

/* The findings panel's text once the trace NAME is analysed, its tab
 * VIEW shown (NULL: the findings) in the pictures PICTURES (light, then
 * dark when there is a second). */
static char *
panel_view_text (const char         *name,
                 const char         *view,
                 const char * const *pictures)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *path = app_test_real_trace (name);
  g_autoptr(GFile) file = NULL;
  ChronoDocumentPage *page;
  ChronoFindingsPanel *panel;
  char *text;

  g_assert_nonnull (path);
  file = g_file_new_for_path (path);
  page = chrono_window_open_file (window, file);
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 20000));
  panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  g_assert_nonnull (panel);
  g_assert_true (app_test_wait_for_analysis (panel, 30000));
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (panel), 5000));
  if (view != NULL)
    {
      GtkStack *stack = app_test_find_stack (GTK_WIDGET (panel), view);

      g_assert_nonnull (stack);
      gtk_stack_set_visible_child_name (stack, view);
    }
  for (guint i = 0; pictures[i] != NULL; i++)
    {
      adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                          i == 0 ? ADW_COLOR_SCHEME_FORCE_LIGHT : ADW_COLOR_SCHEME_FORCE_DARK);
      app_test_spin_for (300);
      app_test_screenshot (GTK_WIDGET (window), pictures[i]);
    }
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
  text = app_test_get_text (GTK_WIDGET (panel));
  app_test_close_all_tabs (window);
  return text;
}

static char *
panel_text (const char *name,
            const char *picture)
{
  const char *pictures[] = { picture, NULL };

  return panel_view_text (name, NULL, pictures);
}

static void
test_overlap (void)
{
  g_autofree char *text = panel_text (NPU_TRACE, "npu-findings.png");

  g_assert_nonnull (strstr (text, "NPU 0 · Ascend Hardware, the profiler's own overlap analysis over 129.863 ms: "
                                  "computing 8.868 (ours 8.868)"));
  g_assert_nonnull (strstr (text, "Within 1 % of the window."));
  g_assert_null (strstr (text, "no device work the analysis recognises"));
}

/* The Critical Path tab of the NPU step: the host's wait in CANN's
 * synchronisation leads into HCCL's all-reduce and the device's tasks. */
static void
test_critical_path (void)
{
  const char *pictures[] = { "npu-critical-path.png", "npu-critical-path-dark.png", NULL };
  g_autofree char *text = panel_view_text (NPU_TRACE, "path", pictures);

  g_assert_nonnull (strstr (text, "148.786 ms along"));
  g_assert_nonnull (strstr (text, "Communication  99.973 ms (67%)"));
  g_assert_nonnull (strstr (text, "Device compute"));
}

/* The level-0 trace has no CANN calls: the operators' flows launch the
 * tasks, and the host's wait in aten::item leads into the all-reduce. */
static void
test_critical_path_level0 (void)
{
  const char *pictures[] = { "npu-level0-critical-path.png", NULL };
  g_autofree char *text = panel_view_text (NPU_LEVEL0_TRACE, "path", pictures);

  g_assert_nonnull (strstr (text, "136.898 ms along"));
  g_assert_nonnull (strstr (text, "(62%)"));
  g_assert_nonnull (strstr (text, "Device compute"));
}

static void
test_no_device (void)
{
  g_autofree char *text = panel_text (CPU_TRACE, "cpu-only-findings.png");

  g_assert_nonnull (strstr (text, "host operators but no device work the analysis recognises"));
  g_assert_null (strstr (text, "overlap analysis"));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *schemas = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "..", "..", "data", NULL);
  g_autofree char *npu = NULL;
  g_autofree char *cpu = NULL;
  g_autofree char *level0 = NULL;

  g_setenv ("GSETTINGS_SCHEMA_DIR", schemas, TRUE);
  if (!app_test_init (&argc, &argv))
    return 77;
  /* Without the shared traces there is nothing to look at: a skip. */
  if ((npu = app_test_real_trace (NPU_TRACE)) == NULL || (cpu = app_test_real_trace (CPU_TRACE)) == NULL ||
      (level0 = app_test_real_trace (NPU_LEVEL0_TRACE)) == NULL)
    return 77;
  g_test_add_func ("/app/npu/overlap", test_overlap);
  g_test_add_func ("/app/npu/critical-path", test_critical_path);
  g_test_add_func ("/app/npu/critical-path/level0", test_critical_path_level0);
  g_test_add_func ("/app/npu/no-device", test_no_device);
  return g_test_run ();
}
