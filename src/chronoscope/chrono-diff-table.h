/* chrono-diff-table.h: a comparison's operators or kernels side by side:
 * calls and time per step of A and B, the delta and whether it is
 * beyond the noise; sortable by every column, filtered by a search
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-comparison.h"
#include "chrono-diff-row.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_DIFF_TABLE (chrono_diff_table_get_type ())
G_DECLARE_FINAL_TYPE (ChronoDiffTable, chrono_diff_table, CHRONO, DIFF_TABLE, GtkWidget)

GtkWidget        *chrono_diff_table_new            (void);
ChronoComparison *chrono_diff_table_get_comparison (ChronoDiffTable  *self);
void              chrono_diff_table_set_comparison (ChronoDiffTable  *self,
                                                    ChronoComparison *comparison);
ChronoDiffKind    chrono_diff_table_get_kind       (ChronoDiffTable  *self);
void              chrono_diff_table_set_kind       (ChronoDiffTable  *self,
                                                    ChronoDiffKind    kind);
/* Rows whose name (or, for kernels, launching operator) contains TEXT,
 * case aside. */
void              chrono_diff_table_set_filter_text (ChronoDiffTable *self,
                                                    const char       *text);
GtkColumnView    *chrono_diff_table_get_column_view (ChronoDiffTable *self);
/* The rows as shown: filtered and sorted (ChronoDiffRow). */
GListModel       *chrono_diff_table_get_rows       (ChronoDiffTable  *self);

G_END_DECLS
