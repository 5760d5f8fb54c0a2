/* chrono-packed-devices.h: the device processes torch_npu packs under its
 * host process's id
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-trace-private.h"

G_BEGIN_DECLS

/* Makes devices of the processes whose pid packs a host process's pid
 * above ten bits and a device id in the lowest five, as torch_npu's
 * profiler writes an NPU's streams, collectives, counters and its own
 * overlap analysis, when none of their spans is host work: their rows
 * become device rows, their device index that id, and their name
 * "NPU 0 · Ascend Hardware", the word taken from their labels. A trace
 * with such devices that declares no rank takes the one its HCCL tasks
 * or its path name. Runs once the processes and tracks are named. */
void chrono_packed_devices_find (ChronoTrace *trace);

/* Whether row TRACK is in a device chrono_packed_devices_find() made of
 * a process packed under a host process. */
gboolean chrono_packed_devices_holds_track (ChronoTrace *trace,
                                            guint32      track);

/* torch_npu's operators hand their work to a second thread that
 * launches it, so no operator encloses a launch; it writes a flow from
 * the operator's thread to each task instead. For a trace with packed
 * devices, each task's (track << 32 | span, a gint64) host span the flow
 * comes from (a ChronoSpanRef); NULL for other traces. */
GHashTable *chrono_packed_devices_flows_in (ChronoTrace *trace);

/* Whether thread rows A and B are one thread of the system: the same
 * row, or rows of the same thread id in a host process and a process
 * packed under it, as torch_npu writes the CANN runtime's calls beside
 * the Python thread that made them. */
gboolean chrono_packed_devices_same_thread (ChronoTrace *trace,
                                            guint32      a,
                                            guint32      b);

G_END_DECLS
