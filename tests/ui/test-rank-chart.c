/* test-rank-chart.c: the rank chart painter, drawn with cairo into
 * images: rows merged into pixels keep the one that stands out, hits
 * name the rows under a pixel, the view scrolls and zooms within the
 * rows there are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-rank-chart.h"

#define WIDTH 300
#define HEIGHT 400

static void
get_pixel (cairo_surface_t *surface,
           int              x,
           int              y,
           GdkRGBA         *color)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 pixel = *(const guint32 *) (data + y * cairo_image_surface_get_stride (surface) + x * 4);

  color->red = ((pixel >> 16) & 0xff) / 255.0;
  color->green = ((pixel >> 8) & 0xff) / 255.0;
  color->blue = (pixel & 0xff) / 255.0;
  color->alpha = 1;
}

static gboolean
near (const GdkRGBA *a,
      const GdkRGBA *b)
{
  return fabs (a->red - b->red) + fabs (a->green - b->green) + fabs (a->blue - b->blue) < 0.08;
}

static cairo_surface_t *
draw (ChronoRankChart *chart,
      gboolean         dark)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);

  chrono_rank_chart_draw (chart, cr, WIDTH, HEIGHT, dark);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static ChronoRankChart *
new_heat_map (guint n_rows,
              guint hot_row)
{
  ChronoRankChart *chart = chrono_rank_chart_new (CHRONO_RANK_CHART_HEAT_MAP, n_rows, 3);

  for (guint r = 0; r < n_rows; r++)
    {
      g_autofree char *label = g_strdup_printf ("%u", r);

      chrono_rank_chart_set_row_label (chart, r, label);
      for (guint c = 0; c < 3; c++)
        chrono_rank_chart_set_value (chart, r, c, r == hot_row ? 2e6 : 1e4 + (r % 7) * 100);
    }
  chrono_rank_chart_set_col_label (chart, 0, "ProfilerStep#1", "#1");
  chrono_rank_chart_set_col_label (chart, 1, "ProfilerStep#2", "#2");
  chrono_rank_chart_set_col_label (chart, 2, "ProfilerStep#3", "#3");
  chrono_rank_chart_set_value_name (chart, "step time");
  return chart;
}

/* 4,096 ranks in a few hundred pixels: the one late rank's pixel shows
 * the top of the scale, every other pixel the bottom part. */
static void
test_merged_rows_keep_the_largest (void)
{
  g_autoptr(ChronoRankChart) chart = new_heat_map (4096, 3000);
  cairo_surface_t *surface;
  cairo_rectangle_t plot, cell;
  GdkRGBA hot, seen;
  guint hot_pixels = 0;
  int x;

  surface = draw (chart, FALSE);
  chrono_rank_chart_get_plot (chart, WIDTH, HEIGHT, &plot);
  g_assert_cmpfloat (plot.height, <, 4096);
  chrono_rank_chart_scale_color (1, &hot);
  g_assert_true (chrono_rank_chart_get_cell_area (chart, WIDTH, HEIGHT, 3000, 1, &cell));
  g_assert_cmpfloat (cell.height, <, 1);
  x = (int) (cell.x + cell.width / 2);
  for (int y = (int) plot.y; y < plot.y + plot.height; y++)
    {
      get_pixel (surface, x, y, &seen);
      if (near (&seen, &hot))
        {
          hot_pixels++;
          g_assert_cmpint (y, ==, (int) floor (cell.y));
        }
    }
  g_assert_cmpuint (hot_pixels, ==, 1);
  cairo_surface_destroy (surface);
}

/* A pixel of many rows is hit as those rows, the late one shown; its
 * tooltip says so. */
static void
test_hit_and_describe (void)
{
  g_autoptr(ChronoRankChart) chart = new_heat_map (4096, 3000);
  ChronoRankChartHit hit;
  cairo_rectangle_t cell;
  g_autofree char *text = NULL;
  g_autofree char *one = NULL;

  g_assert_true (chrono_rank_chart_get_cell_area (chart, WIDTH, HEIGHT, 3000, 2, &cell));
  g_assert_true (chrono_rank_chart_hit_test (chart, WIDTH, HEIGHT, cell.x + 1, floor (cell.y) + 0.5, &hit));
  g_assert_cmpuint (hit.first_row, <=, 3000);
  g_assert_cmpuint (hit.last_row, >=, 3000);
  g_assert_cmpuint (hit.last_row, >, hit.first_row);
  g_assert_cmpuint (hit.row, ==, 3000);
  g_assert_cmpuint (hit.col, ==, 2);
  text = chrono_rank_chart_describe (chart, &hit);
  g_assert_nonnull (strstr (text, "largest: rank 3000, 2.000 ms step time"));
  g_assert_nonnull (strstr (text, "ProfilerStep#3"));
  /* Outside the plot, nothing. */
  g_assert_false (chrono_rank_chart_hit_test (chart, WIDTH, HEIGHT, 2, 2, &hit));

  /* Zoomed in, a row is a cell of its own. */
  chrono_rank_chart_set_view (chart, 2990, 20);
  g_assert_true (chrono_rank_chart_get_cell_area (chart, WIDTH, HEIGHT, 3000, 0, &cell));
  g_assert_cmpfloat (cell.height, >, 10);
  g_assert_true (chrono_rank_chart_hit_test (chart, WIDTH, HEIGHT, cell.x + 2, cell.y + cell.height / 2, &hit));
  g_assert_cmpuint (hit.first_row, ==, 3000);
  g_assert_cmpuint (hit.last_row, ==, 3000);
  one = chrono_rank_chart_describe (chart, &hit);
  g_assert_cmpstr (one, ==, "Rank 3000, ProfilerStep#1: 2.000 ms step time");

  /* The hovered cell is outlined in the text's colour. */
  {
    cairo_surface_t *surface;
    GdkRGBA seen;
    int x = (int) (cell.x + cell.width / 2), y = (int) floor (cell.y) - 1;

    surface = draw (chart, FALSE);
    get_pixel (surface, x, y, &seen);
    g_assert_cmpfloat (seen.red + seen.green + seen.blue, >, 1.0);
    cairo_surface_destroy (surface);
    chrono_rank_chart_set_hover (chart, &hit);
    surface = draw (chart, FALSE);
    get_pixel (surface, x, y, &seen);
    g_assert_cmpfloat (seen.red + seen.green + seen.blue, <, 0.6);
    cairo_surface_destroy (surface);
  }
}

/* The view stays within the rows there are. */
static void
test_view_clamped (void)
{
  g_autoptr(ChronoRankChart) chart = new_heat_map (100, 0);

  chrono_rank_chart_set_view (chart, 95, 10);
  g_assert_cmpfloat (chrono_rank_chart_get_first_row (chart), ==, 90);
  g_assert_cmpfloat (chrono_rank_chart_get_n_visible (chart), ==, 10);
  chrono_rank_chart_set_view (chart, -5, 1000);
  g_assert_cmpfloat (chrono_rank_chart_get_first_row (chart), ==, 0);
  g_assert_cmpfloat (chrono_rank_chart_get_n_visible (chart), ==, 100);
  chrono_rank_chart_set_view (chart, 0, 0.1);
  g_assert_cmpfloat (chrono_rank_chart_get_n_visible (chart), ==, 1);
}

/* Bars are their parts' colours in proportion; merged, the bar least
 * like the others shows. */
static void
test_bars (void)
{
  g_autoptr(ChronoRankChart) chart = chrono_rank_chart_new (CHRONO_RANK_CHART_BARS, 2048, 2);
  GdkRGBA compute = { 0.2, 0.6, 0.2, 1 }, idle = { 0.3, 0.3, 0.3, 1 }, seen;
  cairo_rectangle_t plot, cell;
  cairo_surface_t *surface;
  ChronoRankChartHit hit;
  g_autofree char *text = NULL;

  for (guint r = 0; r < 2048; r++)
    {
      g_autofree char *label = g_strdup_printf ("%u", r);

      chrono_rank_chart_set_row_label (chart, r, label);
      chrono_rank_chart_set_value (chart, r, 0, r == 1500 ? 50 : 90);
      chrono_rank_chart_set_value (chart, r, 1, r == 1500 ? 50 : 10);
    }
  chrono_rank_chart_set_part_color (chart, 0, &compute, &compute);
  chrono_rank_chart_set_part_color (chart, 1, &idle, &idle);
  chrono_rank_chart_set_col_label (chart, 0, "Compute", NULL);
  chrono_rank_chart_set_col_label (chart, 1, "Idle", NULL);
  surface = draw (chart, TRUE);
  chrono_rank_chart_get_plot (chart, WIDTH, HEIGHT, &plot);
  g_assert_true (chrono_rank_chart_get_cell_area (chart, WIDTH, HEIGHT, 1500, 0, &cell));
  /* At 70% across: idle in the odd rank's pixel, compute elsewhere. */
  get_pixel (surface, (int) (plot.x + plot.width * 0.7), (int) floor (cell.y), &seen);
  g_assert_true (near (&seen, &idle));
  get_pixel (surface, (int) (plot.x + plot.width * 0.7), (int) plot.y + 3, &seen);
  g_assert_true (near (&seen, &compute));
  get_pixel (surface, (int) (plot.x + plot.width * 0.95), (int) plot.y + 3, &seen);
  g_assert_true (near (&seen, &idle));
  cairo_surface_destroy (surface);

  g_assert_true (chrono_rank_chart_hit_test (chart, WIDTH, HEIGHT, plot.x + 5, floor (cell.y) + 0.5, &hit));
  g_assert_cmpuint (hit.row, ==, 1500);
  text = chrono_rank_chart_describe (chart, &hit);
  g_assert_nonnull (strstr (text, "rank 1500:"));
  g_assert_nonnull (strstr (text, "Idle 50 ns (50%)"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rank-chart/merged-rows-keep-the-largest", test_merged_rows_keep_the_largest);
  g_test_add_func ("/rank-chart/hit-and-describe", test_hit_and_describe);
  g_test_add_func ("/rank-chart/view-clamped", test_view_clamped);
  g_test_add_func ("/rank-chart/bars", test_bars);
  return g_test_run ();
}
