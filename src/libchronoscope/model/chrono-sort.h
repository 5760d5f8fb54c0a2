/* chrono-sort.h: sorting records by a 64-bit time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sorts the N records of SIZE bytes at BASE by the gint64 at KEY_OFFSET
 * in each, stably: what g_qsort_with_data() with a comparison of those
 * keys gives, in linear time. Records already in order cost one pass. */
void chrono_sort_by_int64 (gpointer base,
                           gsize    n,
                           gsize    size,
                           gsize    key_offset);

/* The same for a GArray. */
void chrono_array_sort_by_int64 (GArray *array,
                                 gsize   key_offset);

G_END_DECLS
