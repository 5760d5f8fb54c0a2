/* chrono-string-table.h: interned strings addressed by 32-bit ids
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _ChronoStringTable ChronoStringTable;

ChronoStringTable *chrono_string_table_new     (void);
void               chrono_string_table_free    (ChronoStringTable *self);
/* Interns LEN bytes (no NUL needed); id 0 is always the empty string. */
guint32            chrono_string_table_intern  (ChronoStringTable *self,
                                                const char        *str,
                                                gsize              len);
const char        *chrono_string_table_get     (ChronoStringTable *self,
                                                guint32            id);
gsize              chrono_string_table_get_len (ChronoStringTable *self,
                                                guint32            id);
guint              chrono_string_table_size    (ChronoStringTable *self);
gsize              chrono_string_table_bytes   (ChronoStringTable *self);
/* Once a trace is read: every string in one block of its exact size, and
 * no lookup slots until the next intern builds them again. Pointers from
 * chrono_string_table_get() taken before are no longer valid. */
void               chrono_string_table_compact (ChronoStringTable *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoStringTable, chrono_string_table_free)

G_END_DECLS
