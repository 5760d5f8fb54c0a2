/* chrono-flops-painter.h: a device's achieved TFLOP/s as a counter: per
 * pixel column, the FLOPs its series puts in the column's time over that
 * time, so the chart is right at every zoom and costs per pixel, not per
 * kernel; the device's peak as a line over it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-flops-series.h"
#include "chrono-scene-colors.h"
#include "chrono-text-cache.h"
#include "chrono-viewport.h"

G_BEGIN_DECLS

/* The achieved TFLOP/s of pixel column X of the viewport. */
double         chrono_flops_painter_column_tflops (const ChronoFlopsSeries *series,
                                                   ChronoViewport          *viewport,
                                                   double                   x);
/* The area over the viewport's width, HEIGHT px tall, from 0 up to the
 * scale's top: the peak or the highest column, whichever is higher,
 * rounded up; TOP gets it. An image in whole pixels, or with VECTOR
 * shapes (SVG, PDF). NULL when nothing ran in the window. */
GskRenderNode *chrono_flops_painter_paint         (const ChronoFlopsSeries *series,
                                                   ChronoViewport          *viewport,
                                                   double                   height,
                                                   gboolean                 dark,
                                                   gboolean                 vector,
                                                   double                  *top);
/* The peak's line and the axis's labels over the area at X, Y, WIDTH ×
 * HEIGHT, whose scale goes up to TOP. */
void           chrono_flops_painter_snapshot_axis (GtkSnapshot             *snapshot,
                                                   ChronoTextCache         *text,
                                                   const ChronoSceneColors *colors,
                                                   const ChronoFlopsSeries *series,
                                                   double                   x,
                                                   double                   y,
                                                   double                   width,
                                                   double                   height,
                                                   double                   top);
/* "412 TFLOP/s", as the labels and the tooltip write rates. */
char          *chrono_flops_painter_format        (double                   tflops);

G_END_DECLS
