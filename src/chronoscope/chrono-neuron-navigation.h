/* chrono-neuron-navigation.h: a NeuronCore's window on the timeline: an
 * execution, or the whole profile, zoomed to and marked over the core's
 * tracks, from the NeuronCores page or from any span of an execution
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-timeline.h"

G_BEGIN_DECLS

/* TIMELINE zoomed to [START, END) with a small margin either side, the
 * window highlighted over the tracks of PROCESS (the NeuronCore). */
void     chrono_neuron_show_window       (ChronoTimeline *timeline,
                                          guint32         process,
                                          gint64          start,
                                          gint64          end);
/* The execution SPAN belongs to (its nc_exec_running, an instruction it
 * ran, the host call that launched it) shown so, over the tracks of the
 * core that ran it, its first instruction selected. FALSE when SPAN
 * belongs to no execution the trace holds. */
gboolean chrono_neuron_show_execution_of (ChronoTimeline *timeline,
                                          ChronoSpanRef   span);

G_END_DECLS
