/* chrono-int-column.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-int-column.h"

/* The input of narrowing: 64-bit values, or 32-bit ids. */
typedef struct {
  const gint64  *v64;
  const guint32 *v32;
} Values;

static inline gint64
value_at (Values   values,
          guint32  i)
{
  return values.v64 != NULL ? values.v64[i] : (gint64) values.v32[i];
}

/* The narrowest width at which every value but -1 is BASE plus a delta
 * below the all-ones sentinel. */
static guint8
pick_width (Values   values,
            guint32  n,
            gint64  *base)
{
  gint64 lo = G_MAXINT64;
  gint64 hi = G_MININT64;
  guint64 range;

  for (guint32 i = 0; i < n; i++)
    {
      gint64 v = value_at (values, i);

      if (v != -1)
        {
          lo = MIN (lo, v);
          hi = MAX (hi, v);
        }
    }
  if (lo > hi)
    {
      /* Only sentinels, or nothing. */
      *base = 0;
      return 2;
    }
  /* Unsigned: the difference of any two gint64 fits. */
  range = (guint64) hi - (guint64) lo;
  *base = lo;
  if (range < G_MAXUINT16)
    return 2;
  if (range < G_MAXUINT32)
    return 4;
  *base = 0;
  return 8;
}

#define STORE_DELTAS(type, out, values, n, base)                              \
  G_STMT_START {                                                              \
    type *o_ = (out);                                                         \
    for (guint32 i_ = 0; i_ < (n); i_++)                                      \
      {                                                                       \
        gint64 v_ = value_at ((values), i_);                                  \
        o_[i_] = v_ == -1 ? (type) -1 : (type) ((guint64) v_ - (guint64) (base)); \
      }                                                                       \
  } G_STMT_END

/* Stores VALUES at the width and base chosen for them. */
static void
store (ChronoIntColumn *column,
       Values           values,
       guint32          n)
{
  switch (column->width)
    {
    case 2:
      column->data = g_new (guint16, MAX (n, 1));
      STORE_DELTAS (guint16, column->data, values, n, column->base);
      break;
    case 4:
      column->data = g_new (guint32, MAX (n, 1));
      STORE_DELTAS (guint32, column->data, values, n, column->base);
      break;
    default:
      column->data = g_new (gint64, MAX (n, 1));
      STORE_DELTAS (gint64, column->data, values, n, column->base);
      break;
    }
}

void
chrono_int_column_take (ChronoIntColumn *column,
                        gint64          *values,
                        guint32          n)
{
  Values in = { values, NULL };

  column->data = NULL;
  column->base = 0;
  column->width = 0;
  if (values == NULL)
    return;
  column->width = pick_width (in, n, &column->base);
  if (column->width == 8)
    {
      /* Kept as they are; growable arrays have spare room at the end. */
      column->data = g_renew (gint64, values, MAX (n, 1));
      return;
    }
  store (column, in, n);
  g_free (values);
}

void
chrono_int_column_take_ids (ChronoIntColumn *column,
                            guint32         *ids,
                            guint32          n)
{
  Values in = { NULL, ids };

  column->data = NULL;
  column->base = 0;
  column->width = 0;
  if (ids == NULL)
    return;
  column->width = pick_width (in, n, &column->base);
  store (column, in, n);
  g_free (ids);
}

gint64 *
chrono_int_column_steal (ChronoIntColumn *column,
                         guint32          n)
{
  gint64 *values;

  if (column->data == NULL)
    return NULL;
  if (column->width == 8)
    {
      values = g_steal_pointer (&column->data);
    }
  else
    {
      values = g_new (gint64, MAX (n, 1));
      for (guint32 i = 0; i < n; i++)
        values[i] = chrono_int_column_get (column, i);
      g_clear_pointer (&column->data, g_free);
    }
  column->base = 0;
  column->width = 0;
  return values;
}

void
chrono_int_column_add (ChronoIntColumn *column,
                       guint32          n,
                       gint64           delta)
{
  gint64 *values;

  if (column->width != 8)
    {
      /* Every value but -1 is base plus its delta. */
      column->base = (gint64) ((guint64) column->base + (guint64) delta);
      return;
    }
  values = column->data;
  for (guint32 i = 0; i < n; i++)
    if (values[i] != -1)
      values[i] = (gint64) ((guint64) values[i] + (guint64) delta);
}

void
chrono_int_column_clear (ChronoIntColumn *column)
{
  g_clear_pointer (&column->data, g_free);
  column->base = 0;
  column->width = 0;
}

gsize
chrono_int_column_bytes (const ChronoIntColumn *column,
                         guint32                n)
{
  return column->data != NULL ? (gsize) n * column->width : 0;
}
