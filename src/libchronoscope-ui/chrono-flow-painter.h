/* chrono-flow-painter.h: arrows from span to span, for one selected
 * span or for every flow in a time window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-flow-index.h"
#include "chrono-viewport.h"

G_BEGIN_DECLS

/* Arrow heads are this long; the line stops at their base. */
#define CHRONO_FLOW_PAINTER_HEAD_PX 7.0

/* Where the caller draws SPAN: the middle of its row, in the painted
 * area's y (rows above the area are negative). FALSE when the span is
 * not drawn at all: its arrows are left out. */
typedef gboolean (*ChronoFlowPlaceFunc) (ChronoSpanRef span,
                                         double       *y,
                                         gpointer      user_data);

/* An arrow in the painted area: x from the viewport's left edge. */
typedef struct {
  double         x0;
  double         y0;
  double         x1;   /* the tip, at the target's start */
  double         y1;
  ChronoFlowType type;
} ChronoFlowArrow;

#define CHRONO_TYPE_FLOW_PAINTER (chrono_flow_painter_get_type ())
G_DECLARE_FINAL_TYPE (ChronoFlowPainter, chrono_flow_painter, CHRONO, FLOW_PAINTER, GObject)

ChronoFlowPainter *chrono_flow_painter_new         (ChronoFlowIndex     *index);
ChronoFlowIndex   *chrono_flow_painter_get_index   (ChronoFlowPainter   *self);
gboolean           chrono_flow_painter_get_dark    (ChronoFlowPainter   *self);
void               chrono_flow_painter_set_dark    (ChronoFlowPainter   *self,
                                                    gboolean             dark);

/* FALSE when PLACE leaves an end out. */
gboolean           chrono_flow_painter_get_arrow   (ChronoFlowPainter   *self,
                                                    ChronoViewport      *viewport,
                                                    guint                flow,
                                                    ChronoFlowPlaceFunc  place,
                                                    gpointer             user_data,
                                                    ChronoFlowArrow     *arrow);

/* The arrows of FLOWS, bold, in an area of the viewport's width and
 * HEIGHT px. NULL when none shows. */
GskRenderNode     *chrono_flow_painter_paint_flows (ChronoFlowPainter   *self,
                                                    ChronoViewport      *viewport,
                                                    const guint         *flows,
                                                    guint                n_flows,
                                                    ChronoFlowPlaceFunc  place,
                                                    gpointer             user_data,
                                                    double               height);
/* Every flow that crosses the viewport's time window, thin; arrows that
 * land on the same pixels are drawn once. N_ARROWS, when not NULL, gets
 * how many were drawn. */
GskRenderNode     *chrono_flow_painter_paint_range (ChronoFlowPainter   *self,
                                                    ChronoViewport      *viewport,
                                                    ChronoFlowPlaceFunc  place,
                                                    gpointer             user_data,
                                                    double               height,
                                                    guint               *n_arrows);

G_END_DECLS
