/* chrono-flops-series.h: the FLOPs a device did over time, as the
 * efficiency models them: each call's FLOPs spread over the device work
 * it launched, in proportion to each piece's duration and evenly within
 * it, summed over the pieces that run at once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-analysis.h"
#include "chrono-device-peaks.h"
#include "chrono-max-blocks.h"

G_BEGIN_DECLS

/* One piece of device work and the FLOPs it is given. */
typedef struct {
  gint64  start_ns;
  gint64  end_ns;       /* a piece of no duration is given 1 ns */
  gdouble flops;
} ChronoFlopsPiece;

/* The cumulative FLOPs F(t): 0 before the first point, linear between
 * points, the total after the last, so the FLOPs of [a, b) are
 * F(b) − F(a), found in O(log n) whatever the range. */
typedef struct {
  guint32     trace;            /* as in the efficiency rows */
  guint       rank;
  guint       device_position;
  gint        device;           /* the device index the trace gives, -1 when none */
  guint32     process;          /* the device's process in the trace */
  const char *device_name;      /* from deviceProperties, or NULL */
  gdouble     peak_tflops;      /* the reference: 0 when the device's peaks are unknown */
  ChronoDtype peak_dtype;       /* the type that did most of the FLOPs, whose peak it is */
  gboolean    peak_matrix;      /* on matrix units */
  gdouble     total_flops;
  guint       n_points;
  gint64     *times;            /* increasing */
  gdouble    *cumulative;       /* F at each time */
  ChronoMaxBlocks blocks;       /* of the times, for walks over columns */
} ChronoFlopsSeries;

/* From N_PIECES pieces, in any order; the caller fills in the rest. */
void    chrono_flops_series_init  (ChronoFlopsSeries      *self,
                                   const ChronoFlopsPiece *pieces,
                                   guint                   n_pieces);
void    chrono_flops_series_clear (ChronoFlopsSeries      *self);
/* F(T). */
gdouble chrono_flops_series_at    (const ChronoFlopsSeries *self,
                                   gint64                   t);
/* F(T) for T not before the last asked with the same CURSOR (0 at
 * first): found walking on from there, as a picture's columns ask. */
gdouble chrono_flops_series_at_after (const ChronoFlopsSeries *self,
                                      gint64                   t,
                                      guint                   *cursor);
/* The FLOPs done in [START_NS, END_NS). */
gdouble chrono_flops_series_get_flops (const ChronoFlopsSeries *self,
                                       gint64                   start_ns,
                                       gint64                   end_ns);

/* One series per device whose modelled operators launched work, by
 * trace, rank and device. */
guint                    chrono_analysis_get_n_flops_series (ChronoAnalysis *self);
const ChronoFlopsSeries *chrono_analysis_get_flops_series   (ChronoAnalysis *self,
                                                             guint           index);

G_END_DECLS
