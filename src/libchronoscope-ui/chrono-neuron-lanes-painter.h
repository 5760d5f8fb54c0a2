/* chrono-neuron-lanes-painter.h: a NeuronCore's utilisation over time, one
 * lane a row: HFU, then each engine's busy share and the DMA queues',
 * each from 0 at its foot to 100 % at its top, sampled per pixel column
 * so every zoom is exact and costs per pixel, not per instruction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-neuron-series.h"
#include "chrono-viewport.h"

G_BEGIN_DECLS

#define CHRONO_NEURON_LANE_HEIGHT 18.0

/* LANE's colour, the line over its bars. */
void           chrono_neuron_lanes_painter_lane_color (ChronoNeuronLane lane,
                                                       gboolean         dark,
                                                       GdkRGBA         *color);
/* The lanes SERIES has something for, top to bottom, into LANES; how many. */
guint          chrono_neuron_lanes_painter_get_lanes (const ChronoNeuronSeries *series,
                                                      ChronoNeuronLane          lanes[CHRONO_NEURON_N_LANES]);
/* Lane N of them at Y px below the lanes' top, or CHRONO_NEURON_N_LANES. */
ChronoNeuronLane chrono_neuron_lanes_painter_lane_at (const ChronoNeuronSeries *series,
                                                      double                    y);
/* The lanes over the viewport's width, CHRONO_NEURON_LANE_HEIGHT each:
 * an image in whole pixels, or with VECTOR shapes (SVG, PDF). NULL
 * when SERIES has no lane. */
GskRenderNode *chrono_neuron_lanes_painter_paint     (const ChronoNeuronSeries *series,
                                                      ChronoViewport           *viewport,
                                                      gboolean                  dark,
                                                      gboolean                  vector);
/* LANE's share of pixel column X of the viewport, 0 to 1; NAN for none. */
double         chrono_neuron_lanes_painter_column    (const ChronoNeuronSeries *series,
                                                      ChronoViewport           *viewport,
                                                      ChronoNeuronLane          lane,
                                                      double                    x);

G_END_DECLS
