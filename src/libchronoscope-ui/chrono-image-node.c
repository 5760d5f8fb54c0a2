/* chrono-image-node.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "chrono-image-node-private.h"

static guint32
channel (double value,
         double alpha)
{
  return (guint32) (CLAMP (value, 0, 1) * CLAMP (alpha, 0, 1) * 65535.0 + 0.5) >> 8;
}

guint32
chrono_image_node_pixel (const GdkRGBA *color)
{
  return channel (1, color->alpha) << 24 | channel (color->red, color->alpha) << 16
         | channel (color->green, color->alpha) << 8 | channel (color->blue, color->alpha);
}

/* A * B / 255, rounded. */
static guint32
mul_un8 (guint32 a,
         guint32 b)
{
  guint32 t = a * b + 0x80;

  return ((t >> 8) + t) >> 8;
}

guint32
chrono_image_node_blend (guint32 src,
                         guint32 dst)
{
  guint32 keep = 255 - (src >> 24);
  guint32 out = 0;

  for (int shift = 0; shift < 32; shift += 8)
    out |= MIN (((src >> shift) & 0xff) + mul_un8 ((dst >> shift) & 0xff, keep), 255) << shift;
  return out;
}

void
chrono_image_node_draw_area (cairo_surface_t *image,
                             const double    *value,
                             int              columns,
                             double           lo,
                             double           scale,
                             const GdkRGBA   *fill,
                             const GdkRGBA   *line)
{
  int height = cairo_image_surface_get_height (image);
  int stride = cairo_image_surface_get_stride (image);
  guint32 fill_px = chrono_image_node_pixel (fill), line_px = chrono_image_node_pixel (line);
  /* The last blend: over another area a column meets few colours. */
  guint32 last_src = 0, last_dst = 0, last_out = 0;
  g_autofree int *tops = g_new (int, columns + 2);
  guint8 *data;

  cairo_surface_flush (image);
  data = cairo_image_surface_get_data (image);
  columns = MIN (columns, cairo_image_surface_get_width (image));
  /* Columns' tops, with nothing (the foot) either side. */
  tops[0] = tops[columns + 1] = height;
  for (int c = 0; c < columns; c++)
    tops[c + 1] = isnan (value[c]) ? height
                                   : (int) CLAMP (floor (height - (value[c] - lo) * scale), 0, height - 2);
  for (int c = 0; c < columns; c++)
    {
      int y0 = tops[c + 1];
      /* The line goes down the side to a lower neighbour's top. */
      int line_end = MAX (y0 + 2, MIN (MAX (tops[c], tops[c + 2]), height));

      if (isnan (value[c]))
        continue;
      for (int y = y0; y < height; y++)
        {
          guint32 *px = (guint32 *) (data + (gsize) y * stride + 4 * c);
          guint32 src = y < line_end ? line_px : fill_px;

          if (*px == 0)
            *px = src;
          else
            {
              if (src != last_src || *px != last_dst)
                {
                  last_src = src;
                  last_dst = *px;
                  last_out = chrono_image_node_blend (src, *px);
                }
              *px = last_out;
            }
        }
    }
  cairo_surface_mark_dirty (image);
}

GskRenderNode *
chrono_image_node_new (cairo_surface_t *image,
                       int              x,
                       int              y)
{
  int width = cairo_image_surface_get_width (image);
  int height = cairo_image_surface_get_height (image);
  GskRenderNode *node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (x, y, width, height));
  cairo_t *cr = gsk_cairo_node_get_draw_context (node);

  cairo_set_source_surface (cr, image, x, y);
  cairo_paint (cr);
  cairo_destroy (cr);
  /* The node's recording holds a snapshot of IMAGE: let go of it now,
   * and the snapshot takes its pixels. Kept alive, IMAGE would be
   * copied into the snapshot when it goes, a copy a node a frame. */
  cairo_surface_destroy (image);
  return node;
}
