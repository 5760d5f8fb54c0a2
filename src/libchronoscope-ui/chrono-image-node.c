/* chrono-image-node.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-image-node-private.h"

static cairo_user_data_key_t image_key;

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
  cairo_surface_set_user_data (gsk_cairo_node_get_surface (node), &image_key,
                               image, (cairo_destroy_func_t) cairo_surface_destroy);
  return node;
}
