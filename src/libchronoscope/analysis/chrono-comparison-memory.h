/* chrono-comparison-memory.h: each device's memory peak on both sides,
 * and the operators whose allocations alive at it changed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-comparison.h"
#include "chrono-memory.h"

G_BEGIN_DECLS

/* Bytes alive at each side's peak that one operator allocated. */
typedef struct {
  const char *op;                /* NULL: outside any operator */
  gint64      a_bytes;
  gint64      b_bytes;
} ChronoCompareMemoryOp;

/* A device of both sides ("cuda:0", "cuda:0 / hip:0"); a side without
 * it has NULL. */
typedef struct {
  char                     *device;
  const ChronoMemoryDevice *a;
  const ChronoMemoryDevice *b;
  GArray                   *ops;  /* ChronoCompareMemoryOp, the largest change first */
} ChronoCompareMemory;

void       chrono_compare_memory_free (ChronoCompareMemory *row);

/* The devices of either side's first file, in A's order then B's own;
 * empty when neither side has memory events. */
GPtrArray *chrono_comparison_get_memory_rows (ChronoComparison *comparison);

/* The report's "memory" member and its Markdown section. */
void       chrono_compare_memory_write_json      (GPtrArray   *rows,
                                                  JsonBuilder *builder);
void       chrono_compare_memory_append_markdown (GPtrArray   *rows,
                                                  GString     *out);

G_END_DECLS
