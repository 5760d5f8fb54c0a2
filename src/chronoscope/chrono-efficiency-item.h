/* chrono-efficiency-item.h: one row of the operator efficiency, for list models
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-efficiency.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_EFFICIENCY_ITEM (chrono_efficiency_item_get_type ())
G_DECLARE_FINAL_TYPE (ChronoEfficiencyItem, chrono_efficiency_item, CHRONO, EFFICIENCY_ITEM, GObject)

/* Row INDEX of ANALYSIS, which the item keeps alive. */
ChronoEfficiencyItem      *chrono_efficiency_item_new     (ChronoAnalysis       *analysis,
                                                          guint                 index);
const ChronoEfficiencyRow *chrono_efficiency_item_get_row (ChronoEfficiencyItem *self);

G_END_DECLS
