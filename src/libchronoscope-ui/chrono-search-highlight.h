/* chrono-search-highlight.h: a layer over a track's spans that dims the
 * spans a search did not find and outlines those it did
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-search.h"
#include "chrono-track-index.h"
#include "chrono-viewport.h"

G_BEGIN_DECLS

/* In the coordinates of chrono_track_painter_paint_spans(): rows of
 * ROW_HEIGHT from y = 0. DIM covers what did not match, OUTLINE rings
 * what did. NULL when the track shows nothing. */
GskRenderNode *chrono_search_highlight_paint (ChronoSearch     *search,
                                              ChronoTrackIndex *index,
                                              ChronoViewport   *viewport,
                                              double            row_height,
                                              const GdkRGBA    *dim,
                                              const GdkRGBA    *outline);

G_END_DECLS
