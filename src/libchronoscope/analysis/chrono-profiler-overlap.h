/* chrono-profiler-overlap.h: the profiler's own split of a device's time
 * beside the ledger
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-analysis.h"

G_BEGIN_DECLS

/* torch_npu's Overlap Analysis rows, in this order. */
typedef enum {
  CHRONO_OVERLAP_COMPUTING,
  CHRONO_OVERLAP_COMMUNICATION,
  CHRONO_OVERLAP_NOT_OVERLAPPED,
  CHRONO_OVERLAP_FREE,
  CHRONO_N_OVERLAP_ROWS
} ChronoOverlapRow;

/* One device's overlap analysis as the trace wrote it, and the ledger's
 * states over the same window. */
typedef struct {
  guint   rank;                  /* index into the analysis's ranks */
  gint    device;                /* the device's index */
  guint   breakdown;             /* the device's row in the breakdowns */
  const char *device_name;       /* its process's name in the trace */
  gint64  start_ns;              /* the profiler's window: its rows' first start to last end */
  gint64  end_ns;
  gint64  theirs_ns[CHRONO_N_OVERLAP_ROWS];
  gint64  compute_ns;            /* the ledger's states inside that window */
  gint64  communication_ns;      /* all communication, beside computation or not */
  gint64  exposed_ns;            /* the ledger's communication state */
  gint64  copy_ns;
  gint64  idle_ns;               /* every idle state, and what the ledger's window leaves out */
} ChronoProfilerOverlap;

const char *chrono_overlap_row_to_string (ChronoOverlapRow row);

/* The overlap analyses the traces of ANALYSIS hold (ChronoProfilerOverlap),
 * one per device that has one; empty for traces without. */
GArray *chrono_profiler_overlap_find      (ChronoAnalysis              *analysis);
/* Where ours and theirs differ by more than a hundredth of the window,
 * and why; NULL when they agree. */
char   *chrono_profiler_overlap_note      (const ChronoProfilerOverlap *overlap);
/* One line for a person: theirs and ours side by side, and the note. */
char   *chrono_profiler_overlap_describe  (const ChronoProfilerOverlap *overlap);
void    chrono_profiler_overlap_write_json (ChronoAnalysis             *analysis,
                                            JsonBuilder                *builder);
void    chrono_profiler_overlap_append_markdown (ChronoAnalysis        *analysis,
                                                 GString               *s);

G_END_DECLS
