/* chrono-memory-view.h: each device's memory peak and what held it, the
 * largest allocations alive then, and the memory findings, beside the
 * timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-memory.h"
#include "chrono-timeline.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_MEMORY_VIEW (chrono_memory_view_get_type ())
G_DECLARE_FINAL_TYPE (ChronoMemoryView, chrono_memory_view, CHRONO, MEMORY_VIEW, GtkWidget)

GtkWidget      *chrono_memory_view_new          (void);
/* The timeline whose spans a chosen allocation selects. */
void            chrono_memory_view_set_timeline (ChronoMemoryView *self,
                                                 ChronoTimeline   *timeline);
ChronoTimeline *chrono_memory_view_get_timeline (ChronoMemoryView *self);
void            chrono_memory_view_set_analysis (ChronoMemoryView *self,
                                                 ChronoAnalysis   *analysis);
ChronoAnalysis *chrono_memory_view_get_analysis (ChronoMemoryView *self);
/* The allocation row at POSITION of the list, or NULL for a heading or
 * a finding. */
const ChronoMemoryAllocation *chrono_memory_view_get_allocation (ChronoMemoryView *self,
                                                                 guint             position);
/* Selects the operator that made the allocation at POSITION and marks
 * it with the one that freed it, as choosing the row does. */
void            chrono_memory_view_activate_row (ChronoMemoryView *self,
                                                 guint             position);

G_END_DECLS
