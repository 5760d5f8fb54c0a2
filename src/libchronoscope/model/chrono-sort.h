/* chrono-sort.h: sorting records by a 64-bit time, and searching sorted
 * times
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

/* In increasing VALUES[LO, HI), the first index whose value is LIMIT or
 * more; HI when none is. */
static inline guint
chrono_times_lower_bound (const gint64 *values,
                          guint         lo,
                          guint         hi,
                          gint64        limit)
{
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (values[mid] < limit)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

G_END_DECLS
