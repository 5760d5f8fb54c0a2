/* test-app-diff-flame.c: the differential flame graph widget under a
 * display: hover, click to focus, keys, and the calls it hands on
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "app-test-utils.h"
#include "chrono-diff-flame.h"
#include "chrono-diff-flame-painter.h"
#include "compare-pairs.h"
#include "test-utils.h"

#define GEMM "cutlass::Kernel2<>()"

typedef struct {
  guint  emitted;
  const ChronoFlameNode *node;
  guint  a_len;
  guint  b_len;
  gboolean a_kernels_are_kernels;
} Selected;

static ChronoComparison *
compare_runs (PairRun *a,
              PairRun *b)
{
  g_autofree char *ja = pair_run_json (a);
  g_autofree char *jb = pair_run_json (b);
  g_autoptr(ChronoTrace) ta = test_load_json (ja);
  g_autoptr(ChronoTrace) tb = test_load_json (jb);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoAnalysis) aa = chrono_analysis_run (&ta, 1, NULL, NULL, &error);
  g_autoptr(ChronoAnalysis) ab = chrono_analysis_run (&tb, 1, NULL, NULL, &error);
  ChronoComparison *c = chrono_comparison_run (aa, ab, NULL, NULL, &error);

  g_assert_no_error (error);
  return c;
}

static void
calls_selected_cb (ChronoDiffFlame       *flame,
                   const ChronoFlameNode *node,
                   GArray                *a,
                   GArray                *b,
                   Selected              *s)
{
  ChronoComparison *c = chrono_diff_flame_get_comparison (flame);
  ChronoTrace *trace = chrono_analysis_get_trace (chrono_comparison_get_analysis (c, CHRONO_COMPARE_SIDE_A), 0);

  s->emitted++;
  s->node = node;
  s->a_len = a->len;
  s->b_len = b->len;
  s->a_kernels_are_kernels = TRUE;
  for (guint i = 0; i < a->len; i++)
    {
      ChronoSpanRef ref = g_array_index (a, ChronoSpanRef, i);
      const ChronoTrack *t = chrono_trace_get_track (trace, ref.track);
      ChronoKind kind = t->kind[ref.index];

      if (kind != CHRONO_KIND_KERNEL && kind != CHRONO_KIND_HOST_OP)
        s->a_kernels_are_kernels = FALSE;
    }
}

static const ChronoFlameNode *
find_node (const ChronoFlameNode *n,
           const char            *name)
{
  if (strcmp (n->name, name) == 0)
    return n;
  for (guint i = 0; i < n->n_children; i++)
    {
      const ChronoFlameNode *hit = find_node (n->children[i], name);

      if (hit)
        return hit;
    }
  return NULL;
}

static void
test_widget (void)
{
  g_autoptr(ChronoComparison) c = NULL;
  GtkWidget *flame = chrono_diff_flame_new ();
  GtkWidget *window;
  GtkEventController *motion, *click;
  const ChronoFlameNode *root, *gemm, *linear;
  graphene_rect_t area;
  Selected s = { 0 };
  cairo_surface_t *before, *after;
  PairRun a, b;

  pair_run_init (&a);
  pair_run_init (&b);
  b.gemm_us = 80;
  b.jitter_shift = 1;
  c = compare_runs (&a, &b);

  g_object_ref_sink (flame);
  chrono_diff_flame_set_comparison (CHRONO_DIFF_FLAME (flame), c);
  g_signal_connect (flame, "calls-selected", G_CALLBACK (calls_selected_cb), &s);
  window = app_test_present (flame, 800, 200);
  root = chrono_comparison_tree_get_root (chrono_diff_flame_get_tree (CHRONO_DIFF_FLAME (flame)));
  gemm = find_node (root, GEMM);
  linear = find_node (root, "Linear_0");
  g_assert_nonnull (gemm);
  g_assert_true (chrono_diff_flame_get_focus (CHRONO_DIFF_FLAME (flame)) == root);
  g_assert_true (chrono_diff_flame_get_node_area (CHRONO_DIFF_FLAME (flame), gemm, &area));

  /* Hover outlines the frame and its tooltip says A, B and Δ. */
  motion = app_test_find_controller (flame, GTK_TYPE_EVENT_CONTROLLER_MOTION);
  click = app_test_find_controller (flame, GTK_TYPE_GESTURE_CLICK);
  before = app_test_render (flame);
  g_signal_emit_by_name (motion, "motion", area.origin.x + area.size.width / 2, area.origin.y + area.size.height / 2);
  after = app_test_render (flame);
  g_assert_cmpuint (app_test_count_changed (before, after, (int) area.origin.x, (int) area.origin.y,
                                            (int) (area.origin.x + area.size.width), (int) (area.origin.y + area.size.height)), >, 0);
  cairo_surface_destroy (before);
  cairo_surface_destroy (after);
  {
    g_autoptr(GtkTooltip) tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);
    gboolean shown = FALSE;
    g_autofree char *expected = chrono_diff_flame_node_describe (gemm);

    g_signal_emit_by_name (flame, "query-tooltip", (int) (area.origin.x + area.size.width / 2),
                           (int) (area.origin.y + area.size.height / 2), FALSE, tooltip, &shown);
    g_assert_true (shown);
    g_assert_nonnull (strstr (expected, "B "));
    g_assert_nonnull (strstr (expected, "A "));
    g_assert_nonnull (strstr (expected, "Δ +"));
    g_assert_nonnull (strstr (expected, "beyond the noise"));
  }

  /* A click focuses the frame and hands on its calls on both sides. */
  g_signal_emit_by_name (click, "released", 1, area.origin.x + area.size.width / 2, area.origin.y + area.size.height / 2);
  g_assert_cmpuint (s.emitted, ==, 1);
  g_assert_true (s.node == gemm);
  g_assert_cmpuint (s.a_len, ==, 5);
  g_assert_cmpuint (s.b_len, ==, 5);
  g_assert_true (s.a_kernels_are_kernels);
  g_assert_true (chrono_diff_flame_get_focus (CHRONO_DIFF_FLAME (flame)) == gemm);
  g_assert_true (chrono_diff_flame_get_node_area (CHRONO_DIFF_FLAME (flame), gemm, &area));
  g_assert_cmpfloat_with_epsilon (area.size.width, gtk_widget_get_width (flame), 1e-6);
  /* Assistive technologies hear what it is and what is selected. */
  {
    g_autofree char *text = chrono_diff_flame_node_describe (gemm);
    g_autofree char *label_error = gtk_test_accessible_check_property (GTK_ACCESSIBLE (flame), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                                       "Differential flame graph");
    g_autofree char *description_error = gtk_test_accessible_check_property (GTK_ACCESSIBLE (flame),
                                                                             GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text);

    g_assert_null (label_error);
    g_assert_null (description_error);
  }

  /* Escape backs out one level, Backspace another. */
  gtk_widget_grab_focus (flame);
  g_assert_true (app_test_press_key (flame, GDK_KEY_Escape, 0));
  g_assert_true (chrono_diff_flame_get_focus (CHRONO_DIFF_FLAME (flame)) == gemm->parent);
  g_assert_true (app_test_press_key (flame, GDK_KEY_BackSpace, 0));
  g_assert_true (chrono_diff_flame_get_focus (CHRONO_DIFF_FLAME (flame)) == gemm->parent->parent);
  g_assert_true (chrono_diff_flame_get_focus (CHRONO_DIFF_FLAME (flame)) == linear);

  /* Keys move the selection: up to the parent, down to the widest
   * child, across to a sibling; Return activates. */
  chrono_diff_flame_set_focus (CHRONO_DIFF_FLAME (flame), NULL);
  chrono_diff_flame_set_selected (CHRONO_DIFF_FLAME (flame), linear);
  g_assert_true (app_test_press_key (flame, GDK_KEY_Up, 0));
  g_assert_true (chrono_diff_flame_get_selected (CHRONO_DIFF_FLAME (flame)) == linear->parent);
  g_assert_true (app_test_press_key (flame, GDK_KEY_Down, 0));
  g_assert_true (chrono_diff_flame_get_selected (CHRONO_DIFF_FLAME (flame)) == linear->parent->children[0]);
  chrono_diff_flame_set_selected (CHRONO_DIFF_FLAME (flame), linear);
  g_assert_true (app_test_press_key (flame, GDK_KEY_Right, 0));
  g_assert_cmpstr (chrono_diff_flame_get_selected (CHRONO_DIFF_FLAME (flame))->name, ==, "Act_0");
  g_assert_true (app_test_press_key (flame, GDK_KEY_Left, 0));
  g_assert_true (chrono_diff_flame_get_selected (CHRONO_DIFF_FLAME (flame)) == linear);
  g_assert_true (app_test_press_key (flame, GDK_KEY_Return, 0));
  g_assert_cmpuint (s.emitted, ==, 2);
  g_assert_true (s.node == linear);
  g_assert_true (chrono_diff_flame_get_focus (CHRONO_DIFF_FLAME (flame)) == linear);
  /* Its calls: the GEMM's kernels and the aten::addmm calls that
   * launched them, one each per step. */
  g_assert_cmpuint (s.b_len, ==, 5 * 2);

  /* For people to look at: focused on Linear_0, light and dark. */
  if (g_getenv ("CHRONO_SCREENSHOT_DIR") != NULL)
    for (guint dark = 0; dark < 2; dark++)
      {
        g_autofree char *png = g_build_filename (g_getenv ("CHRONO_SCREENSHOT_DIR"),
                                                 dark ? "diff-flame-widget-dark.png" : "diff-flame-widget-light.png", NULL);
        cairo_surface_t *shot;

        chrono_diff_flame_set_dark (CHRONO_DIFF_FLAME (flame), dark);
        shot = app_test_render (flame);
        cairo_surface_write_to_png (shot, png);
        cairo_surface_destroy (shot);
      }

  /* Dark draws dark. */
  chrono_diff_flame_set_dark (CHRONO_DIFF_FLAME (flame), FALSE);
  chrono_diff_flame_set_dark (CHRONO_DIFF_FLAME (flame), TRUE);
  after = app_test_render (flame);
  {
    const guint8 *px = cairo_image_surface_get_data (after) +
                       (gsize) (gtk_widget_get_height (flame) - 2) * cairo_image_surface_get_stride (after);
    guint32 v;

    memcpy (&v, px + 4 * 2, 4);
    g_assert_cmpuint ((v >> 16) & 0xff, <, 80);
  }
  cairo_surface_destroy (after);

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (flame);
}

int
main (int    argc,
      char **argv)
{
  /* The accessible properties are read back. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  if (!app_test_init (&argc, &argv))
    return 77;
  g_test_add_func ("/diff-flame/widget", test_widget);
  return g_test_run ();
}
