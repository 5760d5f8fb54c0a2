/* chrono-max-blocks.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-max-blocks.h"
#include "chrono-sort.h"

void
chrono_max_blocks_init (ChronoMaxBlocks *self,
                        const gint64    *values,
                        guint            n)
{
  const gint64 *below = values;
  guint n_below = n;

  self->n = n;
  /* Each level from the one below it, a block of 16 a block. */
  for (guint k = 0; k < CHRONO_MAX_BLOCK_LEVELS; k++)
    {
      guint n_blocks = (n_below + (1u << CHRONO_MAX_BLOCK_BITS) - 1) >> CHRONO_MAX_BLOCK_BITS;

      self->max[k] = g_new (gint64, MAX (n_blocks, 1));
      for (guint b = 0; b < n_blocks; b++)
        {
          guint first = b << CHRONO_MAX_BLOCK_BITS;
          guint end = MIN (first + (1u << CHRONO_MAX_BLOCK_BITS), n_below);
          gint64 most = below[first];

          for (guint i = first + 1; i < end; i++)
            most = MAX (most, below[i]);
          self->max[k][b] = most;
        }
      below = self->max[k];
      n_below = n_blocks;
    }
}

void
chrono_max_blocks_clear (ChronoMaxBlocks *self)
{
  for (guint k = 0; k < CHRONO_MAX_BLOCK_LEVELS; k++)
    g_clear_pointer (&self->max[k], g_free);
  self->n = 0;
}

guint
chrono_max_blocks_seek (const ChronoMaxBlocks *self,
                        const gint64          *values,
                        guint                  from,
                        gint64                 limit)
{
  const gint64 *blocks = self->max[0];
  guint n_blocks = (self->n + (1u << CHRONO_MAX_BLOCK_BITS) - 1) >> CHRONO_MAX_BLOCK_BITS;
  guint b, step = 1;

  if (from >= self->n || values[from] >= limit)
    return from;
  /* A block's most is its last value: the blocks' maxima increase too,
   * and the search gallops over them, then bisects one block. */
  b = from >> CHRONO_MAX_BLOCK_BITS;
  if (blocks[b] < limit)
    {
      guint lo = b + 1;

      while (lo + step - 1 < n_blocks && blocks[lo + step - 1] < limit)
        {
          lo += step;
          step *= 2;
        }
      b = chrono_times_lower_bound (blocks, lo, MIN (lo + step, n_blocks), limit);
      if (b == n_blocks)
        return self->n;
      from = b << CHRONO_MAX_BLOCK_BITS;
    }
  return chrono_times_lower_bound (values, from, (guint) MIN ((guint64) (b + 1) << CHRONO_MAX_BLOCK_BITS, self->n), limit);
}

/* The elements (LEVEL -1) or the block maxima of LEVEL. */
static inline const gint64 *
level_values (const ChronoMaxBlocks *self,
              const gint64          *values,
              gint                   level)
{
  return level < 0 ? values : self->max[level];
}

gint64
chrono_max_blocks_range (const ChronoMaxBlocks *self,
                         const gint64          *values,
                         guint                  from,
                         guint                  to)
{
  gint64 most = G_MININT64;
  guint p = from;
  gint level = -1;

  to = MIN (to, self->n);
  /* Up: elements, then ever larger blocks, until P sits on the edge of a
   * block of the next level or the next block would pass TO ... */
  for (; level < CHRONO_MAX_BLOCK_LEVELS; level++)
    {
      guint bits = CHRONO_MAX_BLOCK_BITS * (level + 1);
      const gint64 *v = level_values (self, values, level);
      guint64 size = (guint64) 1 << bits, next = size << CHRONO_MAX_BLOCK_BITS;

      while (p < to && MIN (p + size, self->n) <= to && (level + 1 == CHRONO_MAX_BLOCK_LEVELS || p % next != 0))
        {
          most = MAX (most, v[p >> bits]);
          p = (guint) MIN (p + size, self->n);
        }
      if (level + 1 == CHRONO_MAX_BLOCK_LEVELS || p >= to || MIN (p + next, self->n) > to)
        break;
    }
  /* ... then down, the largest blocks that fit first. */
  for (; level >= -1 && p < to; level--)
    {
      guint bits = CHRONO_MAX_BLOCK_BITS * (level + 1);
      const gint64 *v = level_values (self, values, level);
      guint64 size = (guint64) 1 << bits;

      for (; p < to && MIN (p + size, self->n) <= to; p = (guint) MIN (p + size, self->n))
        most = MAX (most, v[p >> bits]);
    }
  return most;
}

