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

/* The analysis report's "memory" member, and its Markdown section, over
 * one ChronoMemory per analysed trace. */
void chrono_memory_write_json      (ChronoMemory * const *memories,
                                    guint                 n_memories,
                                    JsonBuilder          *builder);
void chrono_memory_append_markdown (ChronoMemory * const *memories,
                                    guint                 n_memories,
                                    GString              *out);

G_END_DECLS
