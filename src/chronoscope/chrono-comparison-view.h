/* chrono-comparison-view.h: two runs compared: A's timeline above B's on
 * one time axis from the aligned step start, zoom and pan linked, and
 * what the comparison found below them (the diff table and the
 * differential flame graph)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-comparison.h"
#include "chrono-comparison-memory-view.h"
#include "chrono-comparison-setup.h"
#include "chrono-diff-flame.h"
#include "chrono-diff-row.h"
#include "chrono-diff-table.h"
#include "chrono-timeline.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_COMPARISON_VIEW (chrono_comparison_view_get_type ())
G_DECLARE_FINAL_TYPE (ChronoComparisonView, chrono_comparison_view, CHRONO, COMPARISON_VIEW, GtkWidget)

/* A against B as SETUP says: B is TRACE_B when open already, else loaded
 * from SETUP's path. The comparison runs on a worker thread at once; the
 * view shows its progress, then the comparison or what failed. */
GtkWidget        *chrono_comparison_view_new            (ChronoTrace                 *trace_a,
                                                        ChronoTrace                 *trace_b,
                                                        const ChronoComparisonSetup *setup);

/* NULL until it has run, and after it failed. */
ChronoComparison *chrono_comparison_view_get_comparison (ChronoComparisonView *self);
const GError     *chrono_comparison_view_get_error      (ChronoComparisonView *self);
const ChronoComparisonSetup *chrono_comparison_view_get_setup (ChronoComparisonView *self);
/* Compares again by other windows (steps, a marker, the whole traces). */
void              chrono_comparison_view_set_options    (ChronoComparisonView       *self,
                                                        const ChronoCompareOptions *options);
void              chrono_comparison_view_cancel         (ChronoComparisonView *self);

/* NULL until the comparison has run. */
ChronoTimeline   *chrono_comparison_view_get_timeline   (ChronoComparisonView *self,
                                                        ChronoCompareSideId   side);
ChronoDiffTable  *chrono_comparison_view_get_diff_table (ChronoComparisonView *self);
/* The Memory page: each device's peak in both runs. */
ChronoComparisonMemoryView *chrono_comparison_view_get_memory_view (ChronoComparisonView *self);

/* B's time scaled by the lengths of the step pair in view, so that B's
 * step is drawn as long as A's; the pair starts together either way. */
gboolean          chrono_comparison_view_get_stretch    (ChronoComparisonView *self);
void              chrono_comparison_view_set_stretch    (ChronoComparisonView *self,
                                                        gboolean              stretch);

/* Dims every span but the calls of NAME (an operator's name, or a
 * kernel's name as the comparison normalises it) in both timelines, and
 * outlines those; NULL shows all alike again. Runs on a worker thread. */
void              chrono_comparison_view_highlight_calls (ChronoComparisonView *self,
                                                         ChronoDiffKind        kind,
                                                         const char           *name);

ChronoDiffFlame  *chrono_comparison_view_get_diff_flame (ChronoComparisonView *self);

/* Both timelines as they show, stacked into one picture (PNG, SVG or PDF
 * by PATH's name), and the comparison's Markdown report; both written
 * atomically. */
gboolean          chrono_comparison_view_write_picture  (ChronoComparisonView *self,
                                                        const char           *path,
                                                        GError              **error);
gboolean          chrono_comparison_view_write_report   (ChronoComparisonView *self,
                                                        const char           *path,
                                                        GError              **error);

G_END_DECLS
