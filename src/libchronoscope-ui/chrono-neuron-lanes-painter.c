/* chrono-neuron-lanes-painter.c: a NeuronCore's utilisation over time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "chrono-image-node-private.h"
#include "chrono-neuron-lanes-painter.h"
#include "chrono-track-painter.h"

/* One hue a lane, far apart, so a cause in the Tensor engine's ledger
 * has the colour of the engine it waited for: GNOME's palette, its 3
 * on light themes and its 1 on dark ones. */
static const char *const lane_hues[CHRONO_NEURON_N_LANES][2] = {
  [CHRONO_NEURON_LANE_HFU] = { "#1c71d8", "#62a0ea" },
  [CHRONO_NEURON_LANE_TENSOR] = { "#2ec27e", "#8ff0a4" },
  [CHRONO_NEURON_LANE_VECTOR] = { "#e66100", "#ffbe6f" },
  [CHRONO_NEURON_LANE_SCALAR] = { "#9141ac", "#dc8add" },
  [CHRONO_NEURON_LANE_GPSIMD] = { "#986a44", "#cdab8f" },
  [CHRONO_NEURON_LANE_DMA] = { "#e01b24", "#f66151" },
};

void
chrono_neuron_lanes_painter_lane_color (ChronoNeuronLane lane,
                                        gboolean         dark,
                                        GdkRGBA         *color)
{
  g_return_if_fail (lane < CHRONO_NEURON_N_LANES);
  gdk_rgba_parse (color, lane_hues[lane][dark ? 1 : 0]);
}

/* The bar under its top line: the hue, half seen through. */
static void
lane_colors (ChronoNeuronLane lane,
             gboolean         dark,
             GdkRGBA         *fill,
             GdkRGBA         *line)
{
  chrono_neuron_lanes_painter_lane_color (lane, dark, line);
  *fill = *line;
  fill->alpha = 0.45f;
}

guint
chrono_neuron_lanes_painter_get_lanes (const ChronoNeuronSeries *series,
                                       ChronoNeuronLane          lanes[CHRONO_NEURON_N_LANES])
{
  guint n = 0;

  for (ChronoNeuronLane lane = 0; lane < CHRONO_NEURON_N_LANES; lane++)
    if (chrono_neuron_series_has_lane (series, lane))
      lanes[n++] = lane;
  return n;
}

ChronoNeuronLane
chrono_neuron_lanes_painter_lane_at (const ChronoNeuronSeries *series,
                                     double                    y)
{
  ChronoNeuronLane lanes[CHRONO_NEURON_N_LANES];
  guint n = chrono_neuron_lanes_painter_get_lanes (series, lanes);
  int i = (int) floor (y / CHRONO_NEURON_LANE_HEIGHT);

  return i >= 0 && (guint) i < n ? lanes[i] : CHRONO_NEURON_N_LANES;
}

double
chrono_neuron_lanes_painter_column (const ChronoNeuronSeries *series,
                                    ChronoViewport           *viewport,
                                    ChronoNeuronLane          lane,
                                    double                    x)
{
  gint64 t0 = chrono_viewport_x_to_time (viewport, x);

  return chrono_neuron_series_get (series, lane, t0, MAX (chrono_viewport_x_to_time (viewport, x + 1), t0 + 1));
}

/* Each column a bar from the lane's foot, its top pixel in LINE: bars,
 * not a line, as a share of a column is a count of busy time. */
static void
paint_lane (guint8        *data,
            int            stride,
            int            top,
            const double  *value,
            int            columns,
            int            height,
            const GdkRGBA *fill,
            const GdkRGBA *line)
{
  guint32 fill_px = chrono_image_node_pixel (fill), line_px = chrono_image_node_pixel (line);

  for (int c = 0; c < columns; c++)
    {
      int bar;

      if (isnan (value[c]) || value[c] <= 0)
        continue;
      /* Any busy time shows: at least the line's pixel. */
      bar = CLAMP ((int) lround (value[c] * (height - 1)), 1, height - 1);
      for (int y = height - bar; y < height; y++)
        *(guint32 *) (data + (gsize) (top + y) * stride + 4 * c) = y == height - bar ? line_px : fill_px;
    }
}

GskRenderNode *
chrono_neuron_lanes_painter_paint (const ChronoNeuronSeries *series,
                                   ChronoViewport           *viewport,
                                   gboolean                  dark,
                                   gboolean                  vector)
{
  ChronoNeuronLane lanes[CHRONO_NEURON_N_LANES];
  guint n = chrono_neuron_lanes_painter_get_lanes (series, lanes);
  int columns = chrono_viewport_get_width_px (viewport);
  int lane_px = (int) CHRONO_NEURON_LANE_HEIGHT;
  g_autofree gint64 *edges = NULL;
  g_autofree double *value = NULL;
  cairo_surface_t *image = NULL;
  GskRenderNode *node = NULL;
  cairo_t *cr = NULL;

  if (n == 0 || columns <= 0)
    return NULL;
  edges = g_new (gint64, columns + 1);
  value = g_new (double, columns);
  for (int c = 0; c <= columns; c++)
    edges[c] = chrono_viewport_x_to_time (viewport, c);
  for (int c = 1; c <= columns; c++)
    edges[c] = MAX (edges[c], edges[c - 1] + 1);

  if (vector)
    {
      node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, columns, n * lane_px));
      cr = gsk_cairo_node_get_draw_context (node);
    }
  else
    {
      image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, columns, (int) n * lane_px);
    }
  for (guint i = 0; i < n; i++)
    {
      GdkRGBA fill, line;

      lane_colors (lanes[i], dark, &fill, &line);
      chrono_neuron_series_sample (series, lanes[i], edges, columns, value);
      if (cr == NULL)
        {
          paint_lane (cairo_image_surface_get_data (image), cairo_image_surface_get_stride (image), (int) i * lane_px,
                      value, columns, lane_px, &fill, &line);
          continue;
        }
      for (int c = 0; c < columns; c++)
        if (value[c] <= 0)
          value[c] = NAN;
      cairo_save (cr);
      cairo_translate (cr, 0, i * lane_px);
      chrono_track_painter_draw_area (cr, value, columns, 0, lane_px - 1, lane_px, &fill, &line);
      cairo_restore (cr);
    }
  if (cr != NULL)
    {
      cairo_destroy (cr);
      return node;
    }
  cairo_surface_mark_dirty (image);
  return chrono_image_node_new (image, 0, 0);
}
