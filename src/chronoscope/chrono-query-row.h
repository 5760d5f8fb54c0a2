/* chrono-query-row.h: one row of a query's result, as a list model holds
 * it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "chrono-query-result.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_QUERY_ROW (chrono_query_row_get_type ())
G_DECLARE_FINAL_TYPE (ChronoQueryRow, chrono_query_row, CHRONO, QUERY_ROW, GObject)

ChronoQueryRow    *chrono_query_row_new        (ChronoQueryResult *result,
                                                guint              row);
ChronoQueryResult *chrono_query_row_get_result (ChronoQueryRow    *self);
guint              chrono_query_row_get_row    (ChronoQueryRow    *self);

G_END_DECLS
