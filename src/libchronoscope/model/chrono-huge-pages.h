/* chrono-huge-pages.h: large arrays on transparent huge pages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* From this size an array asks for transparent huge pages: one fault then
 * makes 2 MiB ready where 4 KiB pages take 512, which on a virtual
 * machine is most of the cost of filling a fresh array. */
#define CHRONO_HUGE_BLOCK ((gsize) 4 << 20)

/* Advises the whole 2 MiB pages of [P, P + BYTES); a hint only, without
 * effect where the kernel has no transparent huge pages. */
void    chrono_huge_pages_advise (gpointer p,
                                  gsize    bytes);

/* An empty GArray with room for RESERVED elements, advised when that is
 * CHRONO_HUGE_BLOCK or more: the room it does not fill is never touched. */
GArray *chrono_huge_array_sized_new (guint element_size,
                                     guint reserved);

/* Sets ARRAY's length to N (its new elements unset), advised as above;
 * returns ARRAY. */
GArray *chrono_huge_array_set_size (GArray *array,
                                    guint   n);

/* An array filled in place: made as long as it can become, written an
 * element at a time with no call, cut to what was written at the end.
 * It is never copied as it grows, and the room left is never touched;
 * past what was foreseen it grows by doubling. */
typedef struct {
  GArray *array;
  guint   n;
  guint   size;
} ChronoFill;

/* Starts filling ARRAY after the elements it has, with room for ROOM
 * elements in all. */
static inline void
chrono_fill_start (ChronoFill *fill,
                   GArray     *array,
                   guint       room)
{
  fill->n = array->len;
  fill->array = chrono_huge_array_set_size (array, MAX (MAX (room, fill->n), 1));
  fill->size = g_array_get_element_size (array);
}

/* The next element, to be written. */
static inline gpointer
chrono_fill_next (ChronoFill *fill)
{
  if (G_UNLIKELY (fill->n == fill->array->len))
    chrono_huge_array_set_size (fill->array, 2 * fill->array->len);
  return fill->array->data + (gsize) fill->n++ * fill->size;
}

/* The last element written, or NULL. */
static inline gpointer
chrono_fill_last (const ChronoFill *fill)
{
  return fill->n > 0 ? fill->array->data + (gsize) (fill->n - 1) * fill->size : NULL;
}

/* Cuts the array to what was written; returns it. */
static inline GArray *
chrono_fill_end (ChronoFill *fill)
{
  return g_array_set_size (fill->array, fill->n);
}

/* Starts the program again, once, with glibc's malloc advising
 * transparent huge pages for its heap and large blocks (the tunable
 * glibc.malloc.hugetlb=1), where the kernel gives them only on advice.
 * Call first in main() with its ARGV; returns when nothing is to be done
 * or the program cannot be started again. A GLIBC_TUNABLES already set,
 * even empty, is left as it is. */
void    chrono_huge_pages_restart (char **argv);

/* Whether this program was started again by chrono_huge_pages_restart(). */
gboolean chrono_huge_pages_restarted (void);

G_END_DECLS
