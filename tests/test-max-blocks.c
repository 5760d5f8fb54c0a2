/* test-max-blocks.c: walks and searches over block maxima give what a
 * walk over every element gives, at every block edge and length
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-max-blocks.h"

/* Lengths around the blocks' sizes (16, 256, 4096) and their neighbours. */
static const guint lengths[] = { 0, 1, 2, 15, 16, 17, 63, 255, 256, 257, 4095, 4096, 4097, 4096 * 3 + 70, 300000 };

static void
test_seek (void)
{
  for (guint l = 0; l < G_N_ELEMENTS (lengths); l++)
    {
      guint n = lengths[l];
      g_autofree gint64 *times = g_new (gint64, MAX (n, 1));
      g_autoptr(GRand) rand = g_rand_new_with_seed (n);
      ChronoMaxBlocks blocks;
      gint64 t = 0;

      /* Increasing, with runs of equal times. */
      for (guint i = 0; i < n; i++)
        times[i] = t += g_rand_int_range (rand, 0, 3) == 0 ? 0 : g_rand_int_range (rand, 1, 50);
      chrono_max_blocks_init (&blocks, times, n);
      for (guint k = 0; k < 2000; k++)
        {
          guint from = n > 0 ? g_rand_int_range (rand, 0, n + 1) : 0;
          gint64 limit = g_rand_int_range (rand, -10, (gint32) MIN (t + 10, G_MAXINT32));
          guint expected = from;

          while (expected < n && times[expected] < limit)
            expected++;
          g_assert_cmpuint (chrono_max_blocks_seek (&blocks, times, from, limit), ==, expected);
        }
      chrono_max_blocks_clear (&blocks);
    }
}

/* The most of a range, over blocks, is the most of its elements; a
 * step passes what a walk over every element passes. */
static void
test_range (void)
{
  for (guint l = 0; l < G_N_ELEMENTS (lengths); l++)
    {
      guint n = lengths[l];
      g_autofree gint64 *values = g_new (gint64, MAX (n, 1));
      g_autoptr(GRand) rand = g_rand_new_with_seed (n + 7);
      ChronoMaxBlocks blocks;

      for (guint i = 0; i < n; i++)
        values[i] = g_rand_int_range (rand, -1000000, 1000000);
      chrono_max_blocks_init (&blocks, values, n);
      for (guint k = 0; k < 300; k++)
        {
          guint from = g_rand_int_range (rand, 0, n + 1);
          guint length = g_rand_int_range (rand, 0, 20000);
          guint to = k % 3 == 0 ? n : MIN (from + length, n);
          gint64 limit = g_rand_int_range (rand, 0, 1000000);
          gint64 expected = G_MININT64;
          guint p = from, end = from, size;

          for (guint i = from; i < to; i++)
            expected = MAX (expected, values[i]);
          g_assert_cmpint (chrono_max_blocks_range (&blocks, values, from, to), ==, expected);

          while ((size = chrono_max_blocks_step (&blocks, values, p, limit)) > 0)
            p += size;
          while (end < n && values[end] < limit)
            end++;
          g_assert_cmpuint (p, ==, end);
        }
      chrono_max_blocks_clear (&blocks);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/max-blocks/seek", test_seek);
  g_test_add_func ("/max-blocks/range", test_range);
  return g_test_run ();
}
