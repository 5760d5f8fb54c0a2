/* chrono-int-column.h: a column of integers stored as narrow deltas
 *
 * Most per-span values (durations, args offsets, category ids,
 * correlation ids) span a small range within one track: stored as 16- or
 * 32-bit deltas from the track's smallest value they cost a quarter or a
 * half of 64 bits. The representation is lossless: a column whose range
 * does not fit keeps 64-bit values.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A narrow value is BASE + delta, except the all-ones delta, which stands
 * for -1 (CHRONO_NO_ARGS as gint64, "no correlation"): sentinels survive
 * narrowing and -1 stays exact whatever the base. With WIDTH 8 the values
 * are stored as they are and BASE is 0. */
typedef struct {
  gpointer data;
  gint64   base;
  guint8   width;   /* bytes per value: 2, 4 or 8; 0 while DATA is NULL */
} ChronoIntColumn;

static inline gint64
chrono_int_column_get (const ChronoIntColumn *column,
                       guint32                i)
{
  /* The width is constant per column: the branch predicts. */
  switch (column->width)
    {
    case 2:
      {
        guint16 d = ((const guint16 *) column->data)[i];
        return d == G_MAXUINT16 ? -1 : column->base + d;
      }
    case 4:
      {
        guint32 d = ((const guint32 *) column->data)[i];
        return d == G_MAXUINT32 ? -1 : column->base + d;
      }
    default:
      return ((const gint64 *) column->data)[i];
    }
}

#define CHRONO_INT_COLUMN_LOOP_(type, n, i, value, ...)                 \
  for (guint32 i = 0; i < (n); i++)                                     \
    {                                                                   \
      type d_ = ((const type *) data_)[i];                              \
      gint64 value = d_ == (type) -1 ? -1 : base_ + d_;                 \
      __VA_ARGS__                                                       \
    }

/* Runs the statements after VALUE for I from 0 to N - 1, with VALUE the
 * Ith value of COLUMN (which has data unless N is 0): for hot loops, which
 * then test the width once and not once a value. Not nested. */
#define CHRONO_INT_COLUMN_FOREACH(column, n, i, value, ...)               \
  G_STMT_START {                                                        \
    const void *data_ = (column)->data;                                 \
    gint64 base_ = (column)->base;                                      \
                                                                        \
    switch ((column)->width)                                            \
      {                                                                 \
      case 2:                                                           \
        CHRONO_INT_COLUMN_LOOP_ (guint16, n, i, value, __VA_ARGS__)     \
        break;                                                          \
      case 4:                                                           \
        CHRONO_INT_COLUMN_LOOP_ (guint32, n, i, value, __VA_ARGS__)     \
        break;                                                          \
      default:                                                          \
        for (guint32 i = 0; i < (n); i++)                               \
          {                                                             \
            gint64 value = ((const gint64 *) data_)[i];                 \
            __VA_ARGS__                                                 \
          }                                                             \
        break;                                                          \
      }                                                                 \
  } G_STMT_END

/* Takes VALUES (N of them, allocated with g_malloc; NULL for no column)
 * and stores them in the narrowest width that holds them exactly. */
void   chrono_int_column_take   (ChronoIntColumn *column,
                                 gint64          *values,
                                 guint32          n);
/* The same for 32-bit ids (names, categories), which are never -1. */
void   chrono_int_column_take_ids (ChronoIntColumn *column,
                                   guint32         *ids,
                                   guint32          n);
/* The N values at full width, leaving COLUMN empty. Free with g_free. */
gint64 *chrono_int_column_steal (ChronoIntColumn *column,
                                 guint32          n);
/* Adds DELTA to every value but -1, which no value reaches or leaves by
 * the addition (the caller knows the range). */
void   chrono_int_column_add    (ChronoIntColumn *column,
                                 guint32          n,
                                 gint64           delta);
void   chrono_int_column_clear  (ChronoIntColumn *column);
gsize  chrono_int_column_bytes  (const ChronoIntColumn *column,
                                 guint32                n);

G_END_DECLS
