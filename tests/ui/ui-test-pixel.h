/* ui-test-pixel.h: a pixel of an image surface the painter tests drew
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

/* The ARGB32 value at X, Y, premultiplied as cairo keeps it. */
static inline guint32
ui_test_pixel (cairo_surface_t *surface,
               int              x,
               int              y)
{
  return *(guint32 *) (cairo_image_surface_get_data (surface) + y * cairo_image_surface_get_stride (surface) + 4 * x);
}
