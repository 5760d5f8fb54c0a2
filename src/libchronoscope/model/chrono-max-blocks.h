/* chrono-max-blocks.h: the most of each block of an array, to pass many
 * elements at once
 *
 * A column of the timeline a whole trace wide stands for thousands of
 * samples. Walking them one by one costs milliseconds a frame, and a
 * binary search for each column's edge a cache miss at nearly every
 * level. With the most of every 16 elements, of every 256 and of every
 * 4096, the most of a range reads its whole blocks' maxima and only
 * the elements at its ends; in an increasing array (times), whose
 * blocks' maxima are their last elements, a search gallops over the
 * maxima from where the last one ended and bisects a single block.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CHRONO_MAX_BLOCK_BITS 4
#define CHRONO_MAX_BLOCK_LEVELS 3

typedef struct {
  guint   n;
  /* Level K: the most of each block of 16^(K+1) elements; the last
   * block of a level may be short. */
  gint64 *max[CHRONO_MAX_BLOCK_LEVELS];
} ChronoMaxBlocks;

void  chrono_max_blocks_init  (ChronoMaxBlocks *self,
                               const gint64    *values,
                               guint            n);
void  chrono_max_blocks_clear (ChronoMaxBlocks *self);

/* From P, the most elements of VALUES one step can pass while each is
 * below LIMIT: the largest block starting at P whose most is, or P
 * alone. Returns how many, 0 when P is past the end or VALUES[P] is
 * LIMIT or more. */
static inline guint
chrono_max_blocks_step (const ChronoMaxBlocks *self,
                        const gint64          *values,
                        guint                  p,
                        gint64                 limit)
{
  guint size = 1;

  if (p >= self->n || values[p] >= limit)
    return 0;
  for (guint k = 0; k < CHRONO_MAX_BLOCK_LEVELS; k++)
    {
      guint bits = CHRONO_MAX_BLOCK_BITS * (k + 1);

      if ((p & ((1u << bits) - 1)) != 0 || self->max[k][p >> bits] >= limit)
        break;
      size = 1u << bits;
    }
  return MIN (size, self->n - p);
}

/* The most of VALUES[FROM, TO), G_MININT64 when that is empty. */
gint64 chrono_max_blocks_range (const ChronoMaxBlocks *self,
                                const gint64          *values,
                                guint                  from,
                                guint                  to);

/* In increasing VALUES, the first index at or after FROM whose value is
 * LIMIT or more (N when none). */
guint chrono_max_blocks_seek (const ChronoMaxBlocks *self,
                              const gint64          *values,
                              guint                  from,
                              gint64                 limit);

G_END_DECLS
