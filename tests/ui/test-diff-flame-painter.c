/* test-diff-flame-painter.c: the differential flame graph drawn without a
 * display, read back pixel by pixel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "chrono-diff-flame-painter.h"
#include "compare-pairs.h"
#include "test-utils.h"

#define WIDTH 800

static ChronoComparisonTree *
tree_of_runs (PairRun *a,
              PairRun *b)
{
  g_autofree char *ja = pair_run_json (a);
  g_autofree char *jb = pair_run_json (b);
  g_autoptr(ChronoTrace) ta = test_load_json (ja);
  g_autoptr(ChronoTrace) tb = test_load_json (jb);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoAnalysis) aa = chrono_analysis_run (&ta, 1, NULL, NULL, &error);
  g_autoptr(ChronoAnalysis) ab = chrono_analysis_run (&tb, 1, NULL, NULL, &error);
  g_autoptr(ChronoComparison) c = chrono_comparison_run (aa, ab, NULL, NULL, &error);

  g_assert_no_error (error);
  return chrono_comparison_tree_new (c);
}

typedef struct {
  double r, g, b;
} Rgb;

/* The pixel at (X, Y) of an ARGB32 surface. */
static Rgb
pixel (cairo_surface_t *surface,
       int              x,
       int              y)
{
  const guint8 *row = cairo_image_surface_get_data (surface) + (gsize) y * cairo_image_surface_get_stride (surface);
  guint32 v;

  memcpy (&v, row + 4 * x, 4);
  return (Rgb) { ((v >> 16) & 0xff) / 255.0, ((v >> 8) & 0xff) / 255.0, (v & 0xff) / 255.0 };
}

static const ChronoDiffFlameFrame *
frame_named (ChronoDiffFlamePainter *painter,
             const char             *name)
{
  guint n;
  const ChronoDiffFlameFrame *frames = chrono_diff_flame_painter_layout (painter, WIDTH, &n);

  for (guint i = 0; i < n; i++)
    if (strcmp (frames[i].node->name, name) == 0)
      return &frames[i];
  g_error ("no frame %s", name);
}

/* The frame's fill, next to its top-left corner where no text is. */
static Rgb
fill_of (cairo_surface_t            *surface,
         const ChronoDiffFlameFrame *f)
{
  return pixel (surface, (int) f->x + 1, (int) (f->row * CHRONO_DIFF_FLAME_ROW_HEIGHT) + 2);
}

static cairo_surface_t *
draw (ChronoDiffFlamePainter *painter)
{
  double height = chrono_diff_flame_painter_get_height (painter, WIDTH);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, (int) height);
  cairo_t *cr = cairo_create (surface);

  chrono_diff_flame_painter_draw (painter, cr, WIDTH);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static gboolean
reddish (Rgb c)
{
  return c.r > c.g + 0.25 && c.r > c.b + 0.25;
}

static gboolean
bluish (Rgb c)
{
  return c.b > c.r + 0.25 && c.b > c.g + 0.1;
}

static gboolean
greyish (Rgb c)
{
  return fabs (c.r - c.g) < 0.04 && fabs (c.g - c.b) < 0.06;
}

#define GEMM "cutlass::Kernel2<>()"
#define RELU "at::native::vectorized_elementwise_kernel<>()"

static void
test_colours (void)
{
  PairRun a, slow;

  pair_run_init (&a);
  pair_run_init (&slow);
  slow.gemm_us = 80;
  slow.jitter_shift = 1;

  for (guint dark = 0; dark < 2; dark++)
    for (guint reversed = 0; reversed < 2; reversed++)
      {
        g_autoptr(ChronoComparisonTree) tree = reversed ? tree_of_runs (&slow, &a) : tree_of_runs (&a, &slow);
        g_autoptr(ChronoDiffFlamePainter) painter = chrono_diff_flame_painter_new ();
        cairo_surface_t *surface;
        const ChronoDiffFlameFrame *gemm, *relu, *linear;
        Rgb c;

        chrono_diff_flame_painter_set_tree (painter, tree);
        chrono_diff_flame_painter_set_dark (painter, dark);
        surface = draw (painter);
        gemm = frame_named (painter, GEMM);
        relu = frame_named (painter, RELU);
        linear = frame_named (painter, "Linear_0");

        /* B slower: red, its module too; B faster: blue. */
        c = fill_of (surface, gemm);
        g_assert_true (reversed ? bluish (c) : reddish (c));
        c = fill_of (surface, linear);
        g_assert_true (reversed ? bluish (c) : reddish (c));
        /* Jitter only: grey, lighter than the background's contrast needs
         * on light, darker on dark. */
        c = fill_of (surface, relu);
        g_assert_true (greyish (c));
        g_assert_true (dark ? c.r < 0.5 : c.r > 0.7);
        cairo_surface_destroy (surface);
      }
}

/* Widths are B's time: the step's children fill it, the GEMM takes its
 * share, and clicking there finds it. */
static void
test_layout (void)
{
  g_autoptr(ChronoComparisonTree) tree = NULL;
  g_autoptr(ChronoDiffFlamePainter) painter = chrono_diff_flame_painter_new ();
  const ChronoFlameNode *root;
  const ChronoDiffFlameFrame *gemm, *hit;
  guint n;
  const ChronoDiffFlameFrame *frames;
  double sum = 0;
  PairRun a, b;

  pair_run_init (&a);
  pair_run_init (&b);
  b.gemm_us = 80;
  tree = tree_of_runs (&a, &b);
  root = chrono_comparison_tree_get_root (tree);
  chrono_diff_flame_painter_set_tree (painter, tree);

  frames = chrono_diff_flame_painter_layout (painter, WIDTH, &n);
  g_assert_true (frames[0].node == root);
  g_assert_cmpfloat (frames[0].width, ==, WIDTH);
  for (guint i = 0; i < n; i++)
    if (frames[i].row == 1)
      sum += frames[i].width;
  g_assert_cmpfloat_with_epsilon (sum, WIDTH, 1e-6);

  gemm = frame_named (painter, GEMM);
  g_assert_cmpfloat_with_epsilon (gemm->width, WIDTH * gemm->node->b.ns_per_step / root->b.ns_per_step, 1e-6);
  hit = chrono_diff_flame_painter_frame_at (painter, WIDTH, gemm->x + gemm->width / 2,
                                            (gemm->row + 0.5) * CHRONO_DIFF_FLAME_ROW_HEIGHT);
  g_assert_true (hit && hit->node == gemm->node);

  /* Focused, a node takes the whole width below its ancestors. */
  chrono_diff_flame_painter_set_focus (painter, gemm->node->parent);
  gemm = frame_named (painter, GEMM);
  g_assert_cmpfloat_with_epsilon (gemm->width, WIDTH, 1e-6);
  g_assert_cmpuint (gemm->row, ==, 4);
  frames = chrono_diff_flame_painter_layout (painter, WIDTH, &n);
  g_assert_cmpuint (n, ==, 5);
  g_assert_true (frames[0].node == root);
  g_assert_cmpfloat (chrono_diff_flame_painter_get_height (painter, WIDTH), ==, 5 * CHRONO_DIFF_FLAME_ROW_HEIGHT);
}

static void
test_describe (void)
{
  ChronoFlameNode node = {
    .kind = CHRONO_FLAME_KERNEL, .name = (char *) "gemm", .match = CHRONO_COMPARE_MATCH_NAME,
    .a = { 5, 1000000 }, .b = { 5, 1200000 }, .delta_ns = 200000, .delta_percent = 20,
    .noise = CHRONO_COMPARE_NOISE_WITHIN,
  };
  g_autofree char *text = chrono_diff_flame_node_describe (&node);

  g_assert_nonnull (strstr (text, "gemm"));
  g_assert_nonnull (strstr (text, "B 1.200 ms"));
  g_assert_nonnull (strstr (text, "A 1.000 ms"));
  g_assert_nonnull (strstr (text, "+200.000 µs (+20.0%)"));
  g_assert_nonnull (strstr (text, "within noise"));
}

/* compare --flame writes a picture without a display. */
static void
test_cli (void)
{
  const char *cli = g_getenv ("CHRONO_CLI");
  g_autofree char *dir = g_dir_make_tmp ("flame-XXXXXX", NULL);
  g_autofree char *pa = g_build_filename (dir, "a.json", NULL);
  g_autofree char *pb = g_build_filename (dir, "b.json", NULL);
  g_autofree char *png = g_build_filename (dir, "flame.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "flame.svg", NULL);
  g_autofree char *ja = NULL, *jb = NULL, *out = NULL, *err = NULL, *svg_text = NULL;
  g_autoptr(GError) error = NULL;
  cairo_surface_t *surface;
  PairRun a, b;
  int status;

  if (cli == NULL)
    {
      g_test_skip ("CHRONO_CLI is not set");
      return;
    }
  pair_run_init (&a);
  pair_run_init (&b);
  b.gemm_us = 80;
  ja = pair_run_json (&a);
  jb = pair_run_json (&b);
  g_assert_true (g_file_set_contents (pa, ja, -1, NULL));
  g_assert_true (g_file_set_contents (pb, jb, -1, NULL));
  {
    const char *argv[] = { cli, "compare", pa, pb, "--flame", png, "--theme", "dark", "--width", "900", NULL };
    g_auto(GStrv) env = g_environ_unsetenv (g_get_environ (), "DISPLAY");

    env = g_environ_unsetenv (env, "WAYLAND_DISPLAY");
    g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 900);
  /* Dark: the top-left corner is the dark background. */
  g_assert_cmpfloat (pixel (surface, 0, 0).r, <, 0.3);
  cairo_surface_destroy (surface);
  {
    const char *argv[] = { cli, "compare", pa, pb, "--flame", svg, NULL };

    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    g_assert_true (g_file_get_contents (svg, &svg_text, NULL, NULL));
    g_assert_nonnull (strstr (svg_text, "<svg"));
  }
  {
    const char *argv[] = { cli, "compare", pa, pb, "--flame", "flame.gif", NULL };

    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
    g_assert_no_error (error);
    g_assert_false (g_spawn_check_wait_status (status, NULL));
    g_assert_nonnull (strstr (err, "flame.gif: the name must end in .png, .svg or .pdf"));
  }
  g_unlink (png);
  g_unlink (svg);
  g_unlink (pa);
  g_unlink (pb);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/diff-flame-painter/colours", test_colours);
  g_test_add_func ("/diff-flame-painter/layout", test_layout);
  g_test_add_func ("/diff-flame-painter/describe", test_describe);
  g_test_add_func ("/diff-flame-painter/cli", test_cli);
  return g_test_run ();
}
