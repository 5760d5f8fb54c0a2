/* chrono-track-painter.h: render nodes for the spans, instants and
 * counter of one track in a viewport
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-track-index.h"
#include "chrono-viewport.h"

G_BEGIN_DECLS

/* Spans narrower than this merge with their neighbours into runs. */
#define CHRONO_TRACK_PAINTER_MERGE_WIDTH_PX 2.0
/* Room a label keeps from each side of its box. */
#define CHRONO_TRACK_PAINTER_LABEL_PAD_PX   3.0

/* It caches colours and shaped labels: one painter per trace, used from
 * one thread. */
#define CHRONO_TYPE_TRACK_PAINTER (chrono_track_painter_get_type ())
G_DECLARE_FINAL_TYPE (ChronoTrackPainter, chrono_track_painter, CHRONO, TRACK_PAINTER, GObject)

ChronoTrackPainter *chrono_track_painter_new               (ChronoTrace        *trace);
ChronoTrace        *chrono_track_painter_get_trace         (ChronoTrackPainter *self);
gboolean            chrono_track_painter_get_dark          (ChronoTrackPainter *self);
void                chrono_track_painter_set_dark          (ChronoTrackPainter *self,
                                                            gboolean            dark);
const PangoFontDescription *
                    chrono_track_painter_get_font          (ChronoTrackPainter *self);
void                chrono_track_painter_set_font          (ChronoTrackPainter *self,
                                                            const PangoFontDescription *font);
PangoContext       *chrono_track_painter_get_pango_context (ChronoTrackPainter *self);
void                chrono_track_painter_set_pango_context (ChronoTrackPainter *self,
                                                            PangoContext       *context);
/* Rows at least this tall get labels. */
double              chrono_track_painter_get_line_height   (ChronoTrackPainter *self);

/* Row r of INDEX spans y = r * ROW_HEIGHT to (r + 1) * ROW_HEIGHT and
 * x = 0 to the viewport's width. NULL when nothing shows. */
GskRenderNode      *chrono_track_painter_paint_spans       (ChronoTrackPainter *self,
                                                            ChronoTrackIndex   *index,
                                                            ChronoViewport     *viewport,
                                                            double              row_height);
/* Markers in a strip from y = 0 to HEIGHT. */
GskRenderNode      *chrono_track_painter_paint_instants    (ChronoTrackPainter *self,
                                                            ChronoTrackIndex   *index,
                                                            ChronoViewport     *viewport,
                                                            double              height);
/* An area chart from y = 0 to HEIGHT, scaled to the track's whole range. */
GskRenderNode      *chrono_track_painter_paint_counter     (ChronoTrackPainter *self,
                                                            ChronoTrackIndex   *index,
                                                            ChronoViewport     *viewport,
                                                            double              height);
/* One strip for N_INDEXES tracks: where any of them has a span, darker
 * where more of them do. Only the visible part of their outermost rows
 * is walked. */
GskRenderNode      *chrono_track_painter_paint_busy        (ChronoTrackPainter *self,
                                                            ChronoTrackIndex  **indexes,
                                                            guint               n_indexes,
                                                            ChronoViewport     *viewport,
                                                            double              height);

/* Columns 0 to COLUMNS − 1 of TOP (NAN for none) as an area from 0 up
 * (LO the value at HEIGHT, SCALE px per unit) in FILL, its top a 2 px
 * LINE: the look of every counter. */
void               chrono_track_painter_draw_area      (cairo_t            *cr,
                                                        const double       *top,
                                                        int                 columns,
                                                        double              lo,
                                                        double              scale,
                                                        double              height,
                                                        const GdkRGBA      *fill,
                                                        const GdkRGBA      *line);

G_END_DECLS
