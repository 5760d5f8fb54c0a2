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
