/* chrono-flops-painter.c: a device's achieved TFLOP/s as a counter
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>

#include "chrono-flops-painter.h"
#include "chrono-image-node-private.h"
#include "chrono-palette.h"
#include "chrono-track-painter.h"

/* The series' colour, the same in every trace. */
#define SERIES_NAME "achieved TFLOP/s"
#define LABEL_HEIGHT 14.0
#define LABEL_INSET  4.0

double
chrono_flops_painter_column_tflops (const ChronoFlopsSeries *series,
                                    ChronoViewport          *viewport,
                                    double                   x)
{
  gint64 t0 = chrono_viewport_x_to_time (viewport, x);
  gint64 t1 = MAX (chrono_viewport_x_to_time (viewport, x + 1), t0 + 1);

  /* FLOPs per ns are GFLOP/s. */
  return chrono_flops_series_get_flops (series, t0, t1) / (gdouble) (t1 - t0) / 1e3;
}

/* 1, 2 or 5 times a power of ten, at least V. */
static double
nice_ceiling (double v)
{
  double p = pow (10, floor (log10 (v)));

  if (v <= p)
    return p;
  if (v <= 2 * p)
    return 2 * p;
  if (v <= 5 * p)
    return 5 * p;
  return 10 * p;
}

GskRenderNode *
chrono_flops_painter_paint (const ChronoFlopsSeries *series,
                            ChronoViewport          *viewport,
                            double                   height,
                            gboolean                 dark,
                            gboolean                 vector,
                            double                  *top)
{
  double width = chrono_viewport_get_width_px (viewport);
  int columns = (int) ceil (width);
  g_autofree double *value = NULL;
  double highest = 0, scale;
  gint64 t0;
  gdouble f0;
  guint cursor = 0;
  GskRenderNode *node;
  GdkRGBA fill, line;
  cairo_t *cr;

  *top = 0;
  if (columns <= 0 || height <= 0)
    return NULL;
  value = g_new (double, columns);
  /* Neighbouring columns share their edge, and edges only move on. */
  t0 = chrono_viewport_x_to_time (viewport, 0);
  f0 = chrono_flops_series_at_after (series, t0, &cursor);
  for (int c = 0; c < columns; c++)
    {
      gint64 t1 = MAX (chrono_viewport_x_to_time (viewport, c + 1), t0 + 1);
      gdouble f1 = chrono_flops_series_at_after (series, t1, &cursor);

      /* FLOPs per ns are GFLOP/s. */
      value[c] = (f1 - f0) / (gdouble) (t1 - t0) / 1e3;
      t0 = t1;
      f0 = f1;
      highest = MAX (highest, value[c]);
      /* Columns with nothing modelled running are gaps, not zeros. */
      if (value[c] <= 0)
        value[c] = NAN;
    }
  if (highest <= 0)
    return NULL;
  *top = nice_ceiling (MAX (highest, series->peak_tflops));
  scale = (height - 1) / *top;

  chrono_palette_series_fill_color (SERIES_NAME, dark, &fill);
  chrono_palette_series_color (SERIES_NAME, dark, &line);
  if (!vector)
    {
      cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, columns, (int) height);

      chrono_image_node_draw_area (image, value, columns, 0, scale, &fill, &line);
      return chrono_image_node_new (image, 0, 0);
    }
  node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, width, height));
  cr = gsk_cairo_node_get_draw_context (node);
  chrono_track_painter_draw_area (cr, value, columns, 0, scale, height, &fill, &line);
  cairo_destroy (cr);
  return node;
}

char *
chrono_flops_painter_format (double tflops)
{
  if (tflops >= 100)
    return g_strdup_printf (_("%.0f TFLOP/s"), tflops);
  if (tflops >= 1)
    return g_strdup_printf (_("%.1f TFLOP/s"), tflops);
  return g_strdup_printf (_("%.1f GFLOP/s"), tflops * 1e3);
}

void
chrono_flops_painter_snapshot_axis (GtkSnapshot             *snapshot,
                                    ChronoTextCache         *text,
                                    const ChronoSceneColors *colors,
                                    const ChronoFlopsSeries *series,
                                    double                   x,
                                    double                   y,
                                    double                   width,
                                    double                   height,
                                    double                   top)
{
  g_autofree char *top_label = chrono_flops_painter_format (top);

  if (top <= 0)
    return;
  if (series->peak_tflops > 0)
    {
      double py = y + height - 1 - (height - 1) * series->peak_tflops / top;
      g_autofree char *rate = chrono_flops_painter_format (series->peak_tflops);
      /* Translators: the reference line of the achieved TFLOP/s counter:
       * "bf16 matrix peak 989 TFLOP/s". */
      g_autofree char *label = g_strdup_printf (_("%s %s peak %s"), chrono_dtype_to_string (series->peak_dtype),
                                                series->peak_matrix ? _("matrix") : _("vector"), rate);
      double label_width = chrono_text_cache_measure (text, label);
      /* Clear of the scale's top when level with it. */
      double from = py < y + LABEL_HEIGHT ? chrono_text_cache_measure (text, top_label) + 2 * LABEL_INSET : 0;

      /* Dashes in whole pixels: the same in an image and on screen. */
      for (double dx = from; dx < width; dx += 8)
        gtk_snapshot_append_color (snapshot, &colors->dim_text,
                                   &GRAPHENE_RECT_INIT (x + dx, floor (py), MIN (4, width - dx), 1));
      chrono_text_cache_append (text, snapshot, label,
                                x + width - label_width - LABEL_INSET,
                                MAX (y, floor (py) - LABEL_HEIGHT), 0, LABEL_HEIGHT, &colors->dim_text);
    }
  /* The scale's top, and its zero. */
  chrono_text_cache_append (text, snapshot, top_label, x + LABEL_INSET, y, 0, LABEL_HEIGHT, &colors->dim_text);
  chrono_text_cache_append (text, snapshot, "0", x + LABEL_INSET, y + height - LABEL_HEIGHT, 0, LABEL_HEIGHT,
                            &colors->dim_text);
}
