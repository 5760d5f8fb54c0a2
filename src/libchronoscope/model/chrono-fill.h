/* chrono-fill.h: arrays filled in place
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* An array filled in place: made as long as it can become, written an
 * element at a time with no call, cut to what was written at the end.
 * It is never copied as it grows, and the room left is never touched, so
 * it costs no memory; past what was foreseen it grows by doubling. */
typedef struct {
  GArray *array;
  guint   n;
  guint   size;
} ChronoFill;

/* Starts filling ARRAY after the elements it has, with room for ROOM
 * elements in all. */
static inline void
chrono_fill_start (ChronoFill *fill,
                   GArray     *array,
                   guint       room)
{
  fill->n = array->len;
  fill->array = g_array_set_size (array, MAX (MAX (room, fill->n), 1));
  fill->size = g_array_get_element_size (array);
}

/* The next element, to be written. */
static inline gpointer
chrono_fill_next (ChronoFill *fill)
{
  if (G_UNLIKELY (fill->n == fill->array->len))
    g_array_set_size (fill->array, 2 * fill->array->len);
  return fill->array->data + (gsize) fill->n++ * fill->size;
}

/* The last element written, or NULL. */
static inline gpointer
chrono_fill_last (const ChronoFill *fill)
{
  return fill->n > 0 ? fill->array->data + (gsize) (fill->n - 1) * fill->size : NULL;
}

/* Cuts the array to what was written; returns it. */
static inline GArray *
chrono_fill_end (ChronoFill *fill)
{
  return g_array_set_size (fill->array, fill->n);
}

G_END_DECLS
