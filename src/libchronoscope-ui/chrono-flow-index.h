/* chrono-flow-index.h: the flows of a trace by time and by span, so a
 * frame visits only the arrows that touch its time window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-trace.h"

G_BEGIN_DECLS

typedef void (*ChronoFlowFunc) (guint    flow,
                                gpointer user_data);

/* Immutable once built; building sorts the flows three times and keeps
 * 28 bytes an arrow. */
#define CHRONO_TYPE_FLOW_INDEX (chrono_flow_index_get_type ())
G_DECLARE_FINAL_TYPE (ChronoFlowIndex, chrono_flow_index, CHRONO, FLOW_INDEX, GObject)

ChronoFlowIndex *chrono_flow_index_new               (ChronoTrace     *trace);
ChronoTrace     *chrono_flow_index_get_trace         (ChronoFlowIndex *self);

/* Where FLOW's arrow leaves its source, the time in the source span
 * nearest to the target's start (its end when the target starts later),
 * and where it lands, the target's start. */
void             chrono_flow_index_get_times         (ChronoFlowIndex *self,
                                                      guint            flow,
                                                      gint64          *from_ns,
                                                      gint64          *to_ns);

/* Flows with the same two ends (a launch Kineto records both as a flow
 * event and by correlation id) make one arrow: the launch link, or the
 * flow that comes first. This counts the arrows. */
guint            chrono_flow_index_get_n_arrows      (ChronoFlowIndex *self);

/* Hands FUNC every arrow's flow that crosses [START_NS, END_NS].
 * Returns how many flows it looked at. */
guint            chrono_flow_index_foreach_in_range  (ChronoFlowIndex *self,
                                                      gint64           start_ns,
                                                      gint64           end_ns,
                                                      ChronoFlowFunc   func,
                                                      gpointer         user_data);

/* The same, far out: of the flows between the same two tracks, of one
 * type and about the same length, shorter than a few columns of
 * NS_PER_COLUMN, only the first that starts in each column (columns
 * counted from ORIGIN_NS): their arrows land within pixels of one
 * another. */
guint            chrono_flow_index_foreach_in_columns (ChronoFlowIndex *self,
                                                      gint64           start_ns,
                                                      gint64           end_ns,
                                                      gint64           origin_ns,
                                                      double           ns_per_column,
                                                      ChronoFlowFunc   func,
                                                      gpointer         user_data);

/* Appends to FLOWS (guint) the arrows' flows that leave or reach SPAN. */
void             chrono_flow_index_get_span_flows    (ChronoFlowIndex *self,
                                                      ChronoSpanRef    span,
                                                      GArray          *flows);

gsize            chrono_flow_index_get_memory_size   (ChronoFlowIndex *self);

G_END_DECLS
