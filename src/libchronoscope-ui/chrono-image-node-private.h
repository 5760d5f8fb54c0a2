/* chrono-image-node-private.h: pixels written straight into an image,
 * which one cairo node paints: for painters whose many rectangles would
 * cost the cairo renderer a node each
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* COLOR as cairo writes it into an ARGB32 image: premultiplied, each
 * channel rounded to 16 bits, then cut to 8. */
guint32        chrono_image_node_pixel (const GdkRGBA   *color);
/* SRC over DST, both premultiplied, rounded as pixman blends. */
guint32        chrono_image_node_blend (guint32          src,
                                        guint32          dst);
/* A node that paints IMAGE (ARGB32, written and marked dirty) with its
 * top left corner at X, Y. Takes IMAGE, which lives as long as the
 * node: painting it copies nothing. */
GskRenderNode *chrono_image_node_new   (cairo_surface_t *image,
                                        int              x,
                                        int              y);

G_END_DECLS
