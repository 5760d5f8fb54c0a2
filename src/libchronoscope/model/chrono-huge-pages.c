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

  if (p != NULL && end > start)
    madvise ((void *) start, end - start, MADV_HUGEPAGE);
#endif
}

GArray *
chrono_huge_array_sized_new (guint element_size,
                             guint reserved)
{
  GArray *array = g_array_sized_new (FALSE, FALSE, element_size, reserved);
  gsize bytes = (gsize) reserved * element_size;

  if (bytes >= CHRONO_HUGE_BLOCK)
    chrono_huge_pages_advise (array->data, bytes);
  return array;
}

GArray *
chrono_huge_array_set_size (GArray *array,
                            guint   n)
{
  gsize bytes = (gsize) n * g_array_get_element_size (array);

  g_array_set_size (array, n);
  if (bytes >= CHRONO_HUGE_BLOCK)
    chrono_huge_pages_advise (array->data, bytes);
  return array;
}
