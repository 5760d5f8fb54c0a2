/* chrono-memory-painter.h: a device's allocated and reserved bytes as a
 * counter: per pixel column the most each reached in the column's time,
 * so no peak falls between pixels at any zoom; the peak marked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-memory.h"
#include "chrono-scene-colors.h"
#include "chrono-text-cache.h"
#include "chrono-viewport.h"

G_BEGIN_DECLS

/* The most allocated and reserved (-1 without totals) in pixel column X
 * of the viewport; FALSE before the device's first event. */
gboolean       chrono_memory_painter_column       (const ChronoMemoryDevice *device,
                                                   ChronoViewport           *viewport,
                                                   double                    x,
                                                   gint64                   *allocated,
                                                   gint64                   *reserved);
/* Reserved behind allocated over the viewport's width, HEIGHT px tall,
 * from 0 up to TOP, the most either reaches over the whole trace (so
 * the scale stays put while scrolling). An image in whole pixels, or
 * with VECTOR shapes (SVG, PDF). NULL when the window has no events. */
GskRenderNode *chrono_memory_painter_paint        (const ChronoMemoryDevice *device,
                                                   ChronoViewport           *viewport,
                                                   double                    height,
                                                   gboolean                  dark,
                                                   gboolean                  vector,
                                                   double                   *top);
/* The peak's mark and the scale's labels over the area at X, Y, WIDTH ×
 * HEIGHT, whose scale goes up to TOP. */
void           chrono_memory_painter_snapshot_axis (GtkSnapshot             *snapshot,
                                                    ChronoTextCache         *text,
                                                    const ChronoSceneColors *colors,
                                                    const ChronoMemoryDevice *device,
                                                    ChronoViewport          *viewport,
                                                    double                   x,
                                                    double                   y,
                                                    double                   width,
                                                    double                   height,
                                                    double                   top);

/* The tooltip's markup at pixel column X: the most allocated and
 * reserved (or in use, for a counter) over the column's time, and the
 * largest allocation made in it, with its operator and its lifetime. */
char          *chrono_memory_painter_dup_tooltip   (const ChronoMemoryDevice *device,
                                                    ChronoTrace              *trace,
                                                    ChronoViewport           *viewport,
                                                    double                    x);

G_END_DECLS
