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

#define SIGN G_GUINT64_CONSTANT (0x8000000000000000)

typedef struct {
  guint64 key;     /* the time with its sign bit flipped: unsigned order */
  gsize   index;
} Pair;

/* The key of record I, FLIP (SIGN or 0) applied. */
static inline guint64
key_at (const guint8 *base,
        gsize         i,
        gsize         size,
        gsize         key_offset,
        guint64       flip)
{
  gint64 v;

  memcpy (&v, base + i * size + key_offset, sizeof v);
  return (guint64) v ^ flip;
}

static inline void
copy_record (guint8       *to,
             const guint8 *from,
             gsize         size)
{
  /* Constant sizes let the compiler move them in registers. */
  if (size == 16)
    memcpy (to, from, 16);
  else if (size == 8)
    memcpy (to, from, 8);
  else
    memcpy (to, from, size);
}

/* Sorts the N records of SIZE bytes at *DATA by the digits their keys
 * DIFFER in, scattering them between *DATA and *SPARE, which it swaps
 * as it goes: the sorted records end at *DATA. */
static void
radix_passes (guint8  **data,
              guint8  **spare,
              gsize     n,
              gsize     size,
              gsize     key_offset,
              guint64   flip,
              guint64   differ)
{
  g_autofree gsize *count = g_new (gsize, N_BUCKETS);

  /* Digits where every key is the same leave the order as it is. */
  for (guint shift = 0; shift < 64; shift += DIGIT_BITS)
    {
      guint8 *swap;
      gsize sum = 0;

      if (((differ >> shift) & (N_BUCKETS - 1)) == 0)
        continue;
      memset (count, 0, N_BUCKETS * sizeof *count);
      for (gsize i = 0; i < n; i++)
        count[(key_at (*data, i, size, key_offset, flip) >> shift) & (N_BUCKETS - 1)]++;
      for (guint b = 0; b < N_BUCKETS; b++)
        {
          gsize c = count[b];

          count[b] = sum;
          sum += c;
        }
      for (gsize i = 0; i < n; i++)
        {
          gsize to = count[(key_at (*data, i, size, key_offset, flip) >> shift) & (N_BUCKETS - 1)]++;

          copy_record (*spare + to * size, *data + i * size, size);
        }
      swap = *data;
      *data = *spare;
      *spare = swap;
    }
}

void
chrono_sort_by_int64 (gpointer base,
                      gsize    n,
                      gsize    size,
                      gsize    key_offset)
{
  guint8 *bytes = base;
  guint8 *data, *spare;
  g_autofree guint8 *made = NULL, *other = NULL, *held = NULL;
  Pair *pairs;
  guint64 first, prev, differ = 0;
  gboolean sorted = TRUE;

  g_return_if_fail (key_offset + sizeof (gint64) <= size);
  if (n < 2)
    return;
  first = prev = key_at (bytes, 0, size, key_offset, SIGN);
  for (gsize i = 1; i < n; i++)
    {
      guint64 k = key_at (bytes, i, size, key_offset, SIGN);

      sorted = sorted && k >= prev;
      differ |= k ^ first;
      prev = k;
    }
  if (sorted)
    return;

  /* Records as small as a (key, index) pair are sorted themselves. */
  if (size <= sizeof (Pair))
    {
      data = bytes;
      spare = other = g_malloc (n * size);
      radix_passes (&data, &spare, n, size, key_offset, SIGN, differ);
      if (data != bytes)
        memcpy (bytes, data, n * size);
      return;
    }

  pairs = (Pair *) (made = g_malloc (n * sizeof (Pair)));
  other = g_malloc (n * sizeof (Pair));
  for (gsize i = 0; i < n; i++)
    pairs[i] = (Pair) { key_at (bytes, i, size, key_offset, SIGN), i };
  data = made;
  spare = other;
  radix_passes (&data, &spare, n, sizeof (Pair), G_STRUCT_OFFSET (Pair, key), 0, differ);
  pairs = (Pair *) data;

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
