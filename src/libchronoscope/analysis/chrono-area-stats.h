/* chrono-area-stats.h: what an area of the timeline (some tracks over a
 * time range) holds: its spans grouped by name, category or kind, and its
 * counters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "chrono-trace.h"

G_BEGIN_DECLS

typedef enum {
  CHRONO_AREA_BY_NAME,
  CHRONO_AREA_BY_CATEGORY,
  CHRONO_AREA_BY_KIND,
} ChronoAreaGrouping;

/* A span is in the area when it overlaps [start, end), or, when it has no
 * length, starts inside it. Every time is cut to the area: wall_ns sums the
 * spans' parts inside it, self_ns the same less the parts of the spans
 * nested directly inside each, and min, max, mean and the percentiles go
 * by those cut durations (nearest rank: p50 is the value of rank
 * ceil(0.5 count) in ascending order). Share is wall_ns over the wall_ns of
 * all the rows. */
typedef struct {
  const char *label;     /* the name, category or kind; owned by the trace or static */
  guint32     label_id;  /* the string id, or the ChronoKind */
  gint        track;     /* the track when grouped per track, else -1 */
  guint64     count;
  gint64      wall_ns;
  gint64      self_ns;
  gint64      min_ns;
  gint64      max_ns;
  gint64      p50_ns;
  gint64      p95_ns;
  gdouble     mean_ns;
  gdouble     share;
} ChronoAreaRow;

/* A counter's samples in the area: the one in force when it starts and
 * those taken inside it. The time-weighted mean weighs each by how long it
 * holds inside the area (the last until the area's end). */
typedef struct {
  guint       track;
  const char *label;     /* the track's display name */
  guint64     count;
  gdouble     min;
  gdouble     max;
  gdouble     mean;
  gdouble     weighted_mean;
} ChronoAreaCounter;

#define CHRONO_TYPE_AREA_STATS (chrono_area_stats_get_type ())
G_DECLARE_FINAL_TYPE (ChronoAreaStats, chrono_area_stats, CHRONO, AREA_STATS, GObject)

/* The spans and counters of TRACKS of TRACE over [START_NS, END_NS);
 * the rows most wall time first. Linear in the spans that start before
 * END_NS; safe on a worker thread. NULL with G_IO_ERROR_CANCELLED when
 * CANCELLABLE is. */
ChronoAreaStats         *chrono_area_stats_new            (ChronoTrace        *trace,
                                                           const guint        *tracks,
                                                           guint               n_tracks,
                                                           gint64              start_ns,
                                                           gint64              end_ns,
                                                           ChronoAreaGrouping  grouping,
                                                           gboolean            per_track,
                                                           GCancellable       *cancellable,
                                                           GError            **error);
/* The same on a worker thread. */
void                     chrono_area_stats_new_async      (ChronoTrace        *trace,
                                                           const guint        *tracks,
                                                           guint               n_tracks,
                                                           gint64              start_ns,
                                                           gint64              end_ns,
                                                           ChronoAreaGrouping  grouping,
                                                           gboolean            per_track,
                                                           GCancellable       *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer            user_data);
ChronoAreaStats         *chrono_area_stats_new_finish     (GAsyncResult       *result,
                                                           GError            **error);

ChronoTrace             *chrono_area_stats_get_trace      (ChronoAreaStats *self);
gint64                   chrono_area_stats_get_start_ns   (ChronoAreaStats *self);
gint64                   chrono_area_stats_get_end_ns     (ChronoAreaStats *self);
ChronoAreaGrouping       chrono_area_stats_get_grouping   (ChronoAreaStats *self);
/* Spans in the area, and their wall time summed. */
guint64                  chrono_area_stats_get_n_spans    (ChronoAreaStats *self);
gint64                   chrono_area_stats_get_wall_ns    (ChronoAreaStats *self);
guint                    chrono_area_stats_get_n_rows     (ChronoAreaStats *self);
const ChronoAreaRow     *chrono_area_stats_get_row        (ChronoAreaStats *self,
                                                           guint            row);
/* The spans of ROW, by track then start. */
const ChronoSpanRef     *chrono_area_stats_get_row_spans  (ChronoAreaStats *self,
                                                           guint            row,
                                                           guint           *n_spans);
guint                    chrono_area_stats_get_n_counters (ChronoAreaStats *self);
const ChronoAreaCounter *chrono_area_stats_get_counter    (ChronoAreaStats *self,
                                                           guint            counter);

const char              *chrono_area_grouping_to_string   (ChronoAreaGrouping grouping);

G_END_DECLS
