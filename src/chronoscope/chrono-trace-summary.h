/* chrono-trace-summary.h: what a loaded trace holds, at a glance
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-trace.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_TRACE_SUMMARY (chrono_trace_summary_get_type ())
G_DECLARE_FINAL_TYPE (ChronoTraceSummary, chrono_trace_summary, CHRONO, TRACE_SUMMARY, GtkWidget)

void chrono_trace_summary_set_trace (ChronoTraceSummary *self,
                                     ChronoTrace        *trace);

G_END_DECLS
