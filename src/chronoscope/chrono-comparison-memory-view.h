/* chrono-comparison-memory-view.h: each device's memory peak in both runs,
 * the change, and the operators holding the most at each run's peak
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-comparison.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_COMPARISON_MEMORY_VIEW (chrono_comparison_memory_view_get_type ())
G_DECLARE_FINAL_TYPE (ChronoComparisonMemoryView, chrono_comparison_memory_view, CHRONO, COMPARISON_MEMORY_VIEW, GtkWidget)

/* Operators listed per run and device. */
#define CHRONO_COMPARISON_MEMORY_TOP_OPS 5

GtkWidget        *chrono_comparison_memory_view_new            (void);
void              chrono_comparison_memory_view_set_comparison (ChronoComparisonMemoryView *self,
                                                                ChronoComparison           *comparison);
ChronoComparison *chrono_comparison_memory_view_get_comparison (ChronoComparisonMemoryView *self);
/* The devices shown (ChronoCompareMemory), in order. */
GPtrArray        *chrono_comparison_memory_view_get_rows       (ChronoComparisonMemoryView *self);
/* Device INDEX's grid: a header row; "Peak" with A's, B's and the
 * change in columns 1–3; then the operators at each run's peak, most
 * bytes first, A's in column 1 and B's in column 2. */
GtkGrid          *chrono_comparison_memory_view_get_grid       (ChronoComparisonMemoryView *self,
                                                                guint                       index);

G_END_DECLS
