/* chrono-memory-private.h: what the parts of the memory analysis share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-memory.h"

G_BEGIN_DECLS

/* Adds the findings of DEVICE (index INDEX) to FINDINGS (ChronoMemoryFinding). */
void chrono_memory_find_issues   (ChronoTrace              *trace,
                                  const ChronoMemoryDevice *device,
                                  guint                     index,
                                  GArray                   *findings);
void chrono_memory_finding_clear (ChronoMemoryFinding      *finding);

/* The index of the step of DEVICE that holds TS, or -1. */
gint chrono_memory_step_at       (const ChronoMemoryDevice *device,
                                  gint64                    ts);

/* Once DEVICE's points are written: its steps, from its file's
 * ProfilerStep spans, and the bytes at each one's start and end and its
 * peak (BEFORE_FIRST is what was in use before the first point); and its
 * points' block maxima. */
void chrono_memory_device_finish_points  (ChronoTrace        *trace,
                                          ChronoMemoryDevice *device,
                                          gint64              before_first);
/* Empty groups for a device whose allocations cannot be matched. */
void chrono_memory_device_init_unmatched (ChronoMemoryDevice *device);

/* chrono-memory-counters.c: adds to DEVICES (ChronoMemoryDevice) one
 * device per counter track of TRACE that samples memory in use, in
 * bytes, with its samples within [START_NS, END_NS). */
void   chrono_memory_read_counters (ChronoTrace *trace,
                                    gint64       start_ns,
                                    gint64       end_ns,
                                    GArray      *devices);
/* How many bytes one unit of the counter named NAME is; 0 when its name
 * does not say it samples memory in use in bytes, KB or MB. */
gint64 chrono_memory_counter_scale (const char  *name);

/* The analysis report's "memory" member, and its Markdown section, over
 * one ChronoMemory per analysed trace. */
void chrono_memory_write_json      (ChronoMemory * const *memories,
                                    guint                 n_memories,
                                    JsonBuilder          *builder);
void chrono_memory_append_markdown (ChronoMemory * const *memories,
                                    guint                 n_memories,
                                    GString              *out);

G_END_DECLS
