/* chrono-thrift-compact.h: reading Apache Thrift's compact protocol, as
 * Parquet's footer and page headers are written
 *
 * Fields are (id delta, type) bytes, integers zigzag varints, lists and
 * binaries have their length up front. Every read is checked against
 * END: past it, or on a malformed value, BAD is set and reads return 0.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CHRONO_THRIFT_MAX_NESTING 32

typedef struct {
  const guint8 *p;
  const guint8 *end;
  guint         depth;
  gboolean      bad;
} ChronoThrift;

enum {
  CHRONO_THRIFT_STOP = 0, CHRONO_THRIFT_TRUE = 1, CHRONO_THRIFT_FALSE = 2, CHRONO_THRIFT_BYTE = 3,
  CHRONO_THRIFT_I16 = 4, CHRONO_THRIFT_I32 = 5, CHRONO_THRIFT_I64 = 6, CHRONO_THRIFT_DOUBLE = 7,
  CHRONO_THRIFT_BINARY = 8, CHRONO_THRIFT_LIST = 9, CHRONO_THRIFT_SET = 10, CHRONO_THRIFT_MAP = 11,
  CHRONO_THRIFT_STRUCT = 12,
};

guint64       chrono_thrift_varint (ChronoThrift *t);
/* A zigzag-encoded integer (i16, i32, i64). */
gint64        chrono_thrift_int    (ChronoThrift *t);
/* The next field's id (*ID holds the previous one) and type; FALSE at
 * the struct's end or on damage. */
gboolean      chrono_thrift_field  (ChronoThrift *t,
                                    gint         *id,
                                    guint        *type);
/* A list's or set's element type and length. */
guint64       chrono_thrift_list   (ChronoThrift *t,
                                    guint        *elem_type);
const guint8 *chrono_thrift_binary (ChronoThrift *t,
                                    gsize        *len);
/* Skips a value of TYPE; IN_LIST for list elements, where a bool is a
 * byte of its own. Nesting deeper than CHRONO_THRIFT_MAX_NESTING is bad. */
void          chrono_thrift_skip   (ChronoThrift *t,
                                    guint         type,
                                    gboolean      in_list);

G_END_DECLS
