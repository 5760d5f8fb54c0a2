/* chrono-huge-pages.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <sys/mman.h>

#include "chrono-huge-pages.h"

#define HUGE_PAGE ((guintptr) 2 << 20)

void
chrono_huge_pages_advise (gpointer p,
                          gsize    bytes)
{
#ifdef MADV_HUGEPAGE
  guintptr start = ((guintptr) p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  guintptr end = ((guintptr) p + bytes) & ~(HUGE_PAGE - 1);

  if (p != NULL && bytes >= CHRONO_HUGE_BLOCK && end > start)
    madvise ((void *) start, end - start, MADV_HUGEPAGE);
#endif
}

GArray *
chrono_huge_array_sized_new (guint element_size,
                             guint reserved)
{
  GArray *array = g_array_sized_new (FALSE, FALSE, element_size, reserved);

  chrono_huge_pages_advise (array->data, (gsize) reserved * element_size);
  return array;
}

GArray *
chrono_huge_array_set_size (GArray *array,
                            guint   n)
{
  g_array_set_size (array, n);
  chrono_huge_pages_advise (array->data, (gsize) n * g_array_get_element_size (array));
  return array;
}
