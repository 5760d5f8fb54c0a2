/* chrono-huge-pages.h: large columns on transparent huge pages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Advises the whole 2 MiB pages of [P, P + BYTES); a hint only, without
 * effect where the kernel has no transparent huge pages. Only for memory
 * that will be written whole: a huge page is made ready, and cleared, all
 * at once. */
void    chrono_huge_pages_advise (gpointer p,
                                  gsize    bytes);

G_END_DECLS
