/* chrono-int-column.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-int-column.h"

/* Each value as BASE plus a delta of TYPE, -1 as the all-ones delta. */
#define STORE_DELTAS(type, out, values, n, base)                                  \
  G_STMT_START {                                                                  \
    type *o_ = (out);                                                             \
    for (guint32 i_ = 0; i_ < (n); i_++)                                          \
      {                                                                           \
        gint64 v_ = (gint64) (values)[i_];                                        \
        o_[i_] = v_ == -1 ? (type) -1 : (type) ((guint64) v_ - (guint64) (base)); \
      }                                                                           \
  } G_STMT_END

/* The narrowest width at which every value in LO..HI is BASE plus a delta
 * below the all-ones sentinel. */
static void
choose_width (ChronoIntColumn *column,
              gint64           lo,
              gint64           hi)
{
  /* Unsigned: the difference of any two gint64 fits. */
  guint64 range = (guint64) hi - (guint64) lo;

  column->base = lo;
  if (lo > hi)
    {
      /* Only sentinels, or nothing. */
      column->base = 0;
      column->width = 2;
    }
  else if (range < G_MAXUINT16)
    column->width = 2;
  else if (range < G_MAXUINT32)
    column->width = 4;
  else
    {
      column->base = 0;
      column->width = 8;
    }
}

/* Chooses the width for VALUES: their range, -1 left out, as 64-bit
 * values or 32-bit ids (one loop for each, so that neither tests which on
 * every value). */
#define CHOOSE_WIDTH(column, values, n)          \
  G_STMT_START {                                 \
    gint64 lo_ = G_MAXINT64;                     \
    gint64 hi_ = G_MININT64;                     \
    for (guint32 i_ = 0; i_ < (n); i_++)         \
      {                                          \
        gint64 v_ = (gint64) (values)[i_];       \
        if (v_ != -1)                            \
          {                                      \
            lo_ = MIN (lo_, v_);                 \
            hi_ = MAX (hi_, v_);                 \
          }                                      \
      }                                          \
    choose_width ((column), lo_, hi_);           \
  } G_STMT_END

/* VALUES at the width and base chosen for them, in a new allocation. */
#define STORE(column, values, n)                                                   \
  G_STMT_START {                                                                   \
    (column)->data = g_malloc (MAX ((n), 1) * (gsize) (column)->width);            \
    if ((column)->width == 2)                                                      \
      STORE_DELTAS (guint16, (column)->data, (values), (n), (column)->base);       \
    else if ((column)->width == 4)                                                 \
      STORE_DELTAS (guint32, (column)->data, (values), (n), (column)->base);       \
    else                                                                           \
      STORE_DELTAS (gint64, (column)->data, (values), (n), 0);                     \
  } G_STMT_END

void
chrono_int_column_take (ChronoIntColumn *column,
                        gint64          *values,
                        guint32          n)
{
  *column = (ChronoIntColumn) { NULL, 0, 0 };
  if (values == NULL)
    return;
  CHOOSE_WIDTH (column, values, n);
  if (column->width == 8)
    {
      /* Kept as they are; growable arrays have spare room at the end. */
      column->data = g_renew (gint64, values, MAX (n, 1));
      return;
    }
  STORE (column, values, n);
  g_free (values);
}

void
chrono_int_column_take_ids (ChronoIntColumn *column,
                            guint32         *ids,
                            guint32          n)
{
  *column = (ChronoIntColumn) { NULL, 0, 0 };
  if (ids == NULL)
    return;
  CHOOSE_WIDTH (column, ids, n);
  STORE (column, ids, n);
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
