/* chrono-track-index.h: rows of a track, the spans of each in start
 * order, and a summary pyramid, so a frame visits O(pixels), not O(spans)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>

#include "chrono-trace.h"
#include "chrono-viewport.h"

G_BEGIN_DECLS

/* Hit tests reach this far past a span's edges: narrow spans and runs
 * are drawn out to whole pixels. */
#define CHRONO_TRACK_INDEX_HIT_SLOP_PX  1.0

/* What a walk over a row hands out: a span wide enough to stand alone,
 * or a run of adjacent narrow spans merged into one block that covers
 * every one of them. */
typedef struct {
  double     x0;        /* px; for a run, from its first start ... */
  double     x1;        /* ... to its last end */
  guint32    first;     /* position of the first span in the row */
  guint32    n_spans;   /* 1 for a span on its own */
  guint32    span;      /* the first span's index in the track */
  ChronoKind kind;      /* the span's kind, or the one covering most time */
} ChronoRowItem;

/* Whether a narrow span starting at X0 joins a run ending at RUN_X1:
 * runs are drawn out to whole pixels, so it does when no empty pixel
 * column would show between them. Steps of work a pixel or so apart
 * then make one run, not one each. */
static inline gboolean
chrono_track_index_joins_run (double run_x1,
                              double x0)
{
  return floor (x0) <= ceil (run_x1);
}

typedef void (*ChronoRowItemFunc) (const ChronoRowItem *item,
                                   gpointer             user_data);

/* Immutable once built: build it on a worker thread, read it from any.
 * Building takes linear time and about 23 bytes per span. */
#define CHRONO_TYPE_TRACK_INDEX (chrono_track_index_get_type ())
G_DECLARE_FINAL_TYPE (ChronoTrackIndex, chrono_track_index, CHRONO, TRACK_INDEX, GObject)

ChronoTrackIndex  *chrono_track_index_new              (ChronoTrace      *trace,
                                                        guint             track);
GPtrArray         *chrono_track_index_new_all          (ChronoTrace      *trace,
                                                        GCancellable     *cancellable);
ChronoTrace       *chrono_track_index_get_trace        (ChronoTrackIndex *self);
guint              chrono_track_index_get_track_number (ChronoTrackIndex *self);
const ChronoTrack *chrono_track_index_get_track        (ChronoTrackIndex *self);

/* Rows are (lane, depth) pairs: a lane takes as many rows as its
 * deepest span needs, lanes follow each other, so the row of a span is
 * its lane's first row plus its depth. Host threads read as a flame
 * chart (spans nest by depth), streams as Gantt lanes (work overlapping
 * without nesting goes to the next lane): both are this one layout.
 * The spans of a row never overlap, except past the model's depth
 * cap; they are listed by start. */
guint              chrono_track_index_get_n_rows       (ChronoTrackIndex *self);
guint              chrono_track_index_get_span_row     (ChronoTrackIndex *self,
                                                        guint32           span);
const guint32     *chrono_track_index_get_row_spans    (ChronoTrackIndex *self,
                                                        guint             row,
                                                        guint32          *n_spans);

/* Hands FUNC, in time order, every span of ROW that shows in the
 * viewport, spans narrower than MIN_WIDTH_PX merged into runs (0 merges
 * nothing). Returns how many spans and pyramid blocks it looked at. */
guint              chrono_track_index_walk_row         (ChronoTrackIndex *self,
                                                        guint             row,
                                                        ChronoViewport   *viewport,
                                                        double            min_width_px,
                                                        ChronoRowItemFunc func,
                                                        gpointer          user_data);

/* The span drawn under (X, Y) in its row: the nearest to X (0 px when
 * it contains X) within the slop; on a tie the longer one, then the
 * earlier one. */
gboolean           chrono_track_index_hit_test         (ChronoTrackIndex *self,
                                                        ChronoViewport   *viewport,
                                                        double            row_height,
                                                        double            x,
                                                        double            y,
                                                        guint32          *span);

/* Counter tracks: the smallest and largest finite sample value. */
gboolean           chrono_track_index_get_value_range  (ChronoTrackIndex *self,
                                                        double           *min,
                                                        double           *max);

gsize              chrono_track_index_get_memory_size  (ChronoTrackIndex *self);

G_END_DECLS
