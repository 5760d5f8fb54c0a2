/* chrono-summary-row.h: one row of the trace summary: a process or a track
 *
 * Counts are kept as text, formatted once, because list rows only show them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define CHRONO_TYPE_SUMMARY_ROW (chrono_summary_row_get_type ())
G_DECLARE_FINAL_TYPE (ChronoSummaryRow, chrono_summary_row, CHRONO, SUMMARY_ROW, GObject)

ChronoSummaryRow *chrono_summary_row_new          (const char       *name,
                                                   const char       *kind,
                                                   guint64           spans,
                                                   guint64           instants,
                                                   guint64           samples,
                                                   GListModel       *children);
GListModel       *chrono_summary_row_get_children (ChronoSummaryRow *self);

G_END_DECLS
