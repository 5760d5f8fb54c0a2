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
/* The area under VALUE (one a column, NAN for none; LO at the foot,
 * SCALE pixels a unit) in whole pixels over what IMAGE (ARGB32) has:
 * each column's top in LINE, 2 px, down the side to a lower
 * neighbour's top, over FILL down to the foot. A path of thousands of
 * steps costs cairo milliseconds; this, a store a pixel. */
void           chrono_image_node_draw_area (cairo_surface_t *image,
                                            const double    *value,
                                            int              columns,
                                            double           lo,
                                            double           scale,
                                            const GdkRGBA   *fill,
                                            const GdkRGBA   *line);
/* A node that paints IMAGE (ARGB32, written and marked dirty) with its
 * top left corner at X, Y. Takes IMAGE, whose pixels the node keeps
 * without a copy. */
GskRenderNode *chrono_image_node_new   (cairo_surface_t *image,
                                        int              x,
                                        int              y);

G_END_DECLS
