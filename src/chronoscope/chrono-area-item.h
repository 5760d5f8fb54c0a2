/* chrono-area-item.h: one row of an area's table, a group of spans or a
 * counter, as a list model holds it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "chrono-area-stats.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_AREA_ITEM (chrono_area_item_get_type ())
G_DECLARE_FINAL_TYPE (ChronoAreaItem, chrono_area_item, CHRONO, AREA_ITEM, GObject)

/* Row INDEX of STATS, or its counter INDEX when COUNTER. */
ChronoAreaItem          *chrono_area_item_new         (ChronoAreaStats *stats,
                                                       guint            index,
                                                       gboolean         counter);
ChronoAreaStats         *chrono_area_item_get_stats   (ChronoAreaItem  *self);
guint                    chrono_area_item_get_index   (ChronoAreaItem  *self);
/* NULL for a counter. */
const ChronoAreaRow     *chrono_area_item_get_row     (ChronoAreaItem  *self);
/* NULL for a group of spans. */
const ChronoAreaCounter *chrono_area_item_get_counter (ChronoAreaItem  *self);

G_END_DECLS
