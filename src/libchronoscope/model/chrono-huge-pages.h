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
