/* chrono-sort.c
 *
 * The analysis sorts hundreds of thousands of records by time: with a
 * comparison function a merge sort spent a tenth of a Neuron profile's
 * analysis there. Times within one profile differ only in their low
 * bits, so a least-significant-digit radix sort of (key, index) pairs
 * needs three or four passes over the digits that do differ; the records
 * are then moved once, in place.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-sort.h"

#define DIGIT_BITS 11
#define N_BUCKETS (1u << DIGIT_BITS)

typedef struct {
  guint64 key;     /* the time with its sign bit flipped: unsigned order */
  gsize   index;
} Pair;

static inline guint64
key_at (const guint8 *base,
        gsize         i,
        gsize         size,
        gsize         key_offset)
{
  gint64 v;

  memcpy (&v, base + i * size + key_offset, sizeof v);
  return (guint64) v ^ G_GUINT64_CONSTANT (0x8000000000000000);
}

void
chrono_sort_by_int64 (gpointer base,
                      gsize    n,
                      gsize    size,
                      gsize    key_offset)
{
  guint8 *bytes = base;
  g_autofree Pair *pairs = NULL, *other = NULL;
  g_autofree guint8 *held = NULL;
  g_autofree gsize *count = NULL;
  guint64 first, differ = 0;
  gboolean sorted = TRUE;

  g_return_if_fail (key_offset + sizeof (gint64) <= size);
  if (n < 2)
    return;
  first = key_at (bytes, 0, size, key_offset);
  for (gsize i = 1; i < n; i++)
    {
      guint64 k = key_at (bytes, i, size, key_offset);

      sorted = sorted && k >= key_at (bytes, i - 1, size, key_offset);
      differ |= k ^ first;
    }
  if (sorted)
    return;

  pairs = g_new (Pair, n);
  other = g_new (Pair, n);
  count = g_new (gsize, N_BUCKETS);
  for (gsize i = 0; i < n; i++)
    pairs[i] = (Pair) { key_at (bytes, i, size, key_offset), i };
  /* Digits where every key is the same leave the order as it is. */
  for (guint shift = 0; shift < 64; shift += DIGIT_BITS)
    {
      Pair *swap;
      gsize sum = 0;

      if (((differ >> shift) & (N_BUCKETS - 1)) == 0)
        continue;
      memset (count, 0, N_BUCKETS * sizeof *count);
      for (gsize i = 0; i < n; i++)
        count[(pairs[i].key >> shift) & (N_BUCKETS - 1)]++;
      for (guint b = 0; b < N_BUCKETS; b++)
        {
          gsize c = count[b];

          count[b] = sum;
          sum += c;
        }
      for (gsize i = 0; i < n; i++)
        other[count[(pairs[i].key >> shift) & (N_BUCKETS - 1)]++] = pairs[i];
      swap = pairs;
      pairs = other;
      other = swap;
    }

  /* Each record to its place, cycle by cycle: the place of record i is
   * taken by record pairs[i].index, and a place done points at itself. */
  held = g_malloc (size);
  for (gsize i = 0; i < n; i++)
    {
      gsize j = i;

      if (pairs[i].index == i)
        continue;
      memcpy (held, bytes + i * size, size);
      while (pairs[j].index != i)
        {
          gsize from = pairs[j].index;

          memcpy (bytes + j * size, bytes + from * size, size);
          pairs[j].index = j;
          j = from;
        }
      memcpy (bytes + j * size, held, size);
      pairs[j].index = j;
    }
}

void
chrono_array_sort_by_int64 (GArray *array,
                            gsize   key_offset)
{
  chrono_sort_by_int64 (array->data, array->len, g_array_get_element_size (array), key_offset);
}
