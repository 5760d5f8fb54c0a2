/* chrono-diff-row.h: one operator or kernel of a comparison, as an item
 * of the diff table's list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "chrono-comparison.h"

G_BEGIN_DECLS

/* Which of the comparison's tables. */
typedef enum {
  CHRONO_DIFF_OPERATORS,
  CHRONO_DIFF_KERNELS,
} ChronoDiffKind;

#define CHRONO_TYPE_DIFF_ROW (chrono_diff_row_get_type ())
G_DECLARE_FINAL_TYPE (ChronoDiffRow, chrono_diff_row, CHRONO, DIFF_ROW, GObject)

ChronoDiffRow          *chrono_diff_row_new   (ChronoComparison *comparison,
                                               ChronoDiffKind    kind,
                                               guint             index);
ChronoDiffKind          chrono_diff_row_get_kind  (ChronoDiffRow *self);
/* Its position in the comparison's table, which orders by |delta|. */
guint                   chrono_diff_row_get_index (ChronoDiffRow *self);
const ChronoCompareRow *chrono_diff_row_get_row   (ChronoDiffRow *self);

/* A list of every row of KIND, in the comparison's order. */
GListModel             *chrono_diff_row_list_new  (ChronoComparison *comparison,
                                                   ChronoDiffKind    kind);

G_END_DECLS
