/* chrono-row-painter.h: the rows of a timeline scene, one at a time:
 * a track's spans, instants or counter beside its name, a process's
 * header with the busy strip of its collapsed tracks, a device's achieved
 * TFLOP/s; what was painted for the viewport is kept until it moves
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-scene-colors.h"
#include "chrono-scene-rows.h"
#include "chrono-search.h"
#include "chrono-text-cache.h"
#include "chrono-track-painter.h"

G_BEGIN_DECLS

/* What a frame draws the rows with. */
typedef struct {
  const ChronoSceneColors *colors;
  ChronoTextCache         *text;
  ChronoSearch            *search;        /* NULL for none */
  guint                    current_track; /* its name stands out; CHRONO_SCENE_NO_ROW for none */
  double                   width;         /* the scene's */
  double                   name_top;      /* names of scrolling rows stay below it */
  gboolean                 dark;
  const char              *flops_note;    /* why a derived row has no series */
  gboolean                 vector;        /* shapes, not images: for SVG and PDF */
} ChronoRowFrame;

typedef struct _ChronoRowPainter ChronoRowPainter;

ChronoRowPainter   *chrono_row_painter_new        (ChronoTrace      *trace,
                                                   ChronoSceneRows  *rows,
                                                   ChronoViewport   *viewport);
void                chrono_row_painter_free       (ChronoRowPainter *self);
ChronoTrackPainter *chrono_row_painter_get_track_painter (ChronoRowPainter *self);
/* Everything painted again when next drawn, for as many rows as there
 * are now. */
void                chrono_row_painter_invalidate (ChronoRowPainter *self);
/* Only the search's layers. */
void                chrono_row_painter_invalidate_search (ChronoRowPainter *self);
/* Row I at its place in content coordinates. */
void                chrono_row_painter_snapshot   (ChronoRowPainter     *self,
                                                   GtkSnapshot          *snapshot,
                                                   const ChronoRowFrame *frame,
                                                   guint                 i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoRowPainter, chrono_row_painter_free)

G_END_DECLS
