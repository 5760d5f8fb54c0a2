/* chrono-track-painter-private.h: how the painter chooses between colour
 * nodes and one image for a frame's rectangles, for tests that compare
 * the two
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-track-painter.h"

G_BEGIN_DECLS

/* The default. Measured with the cairo renderer on 1200 x 600 px: a
 * colour node costs about 1 µs to draw, so 3000 of them 3 ms; cairo's
 * own fill of as many rectangles in one path 1 to 1.4 ms, most of it
 * sorting them into boxes that do not overlap; an image about 1.5 ns a
 * pixel of its bounds, to fill and to paint, and next to nothing a
 * rectangle. */
#define CHRONO_TRACK_PAINTER_IMAGE_PX_PER_RECT 512.0

/* A frame's rectangles go into one image when their bounds hold at most
 * PX_PER_RECT pixels per rectangle: 0 never, G_MAXDOUBLE always (on
 * whole pixels). */
void _chrono_track_painter_set_image_px_per_rect (ChronoTrackPainter *self,
                                                  double              px_per_rect);

G_END_DECLS
