/* chrono-example-rng.h: the example generators' random numbers
 * (splitmix64), the same on every platform so a seed gives the same bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

static inline guint64
rng_next (guint64 *state)
{
  guint64 z = (*state += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static inline gint64
rng_range (guint64 *state,
           gint64   lo,
           gint64   hi)
{
  return lo + (gint64) (rng_next (state) % (guint64) (hi - lo + 1));
}

static inline gboolean
rng_chance (guint64 *state,
            guint    one_in)
{
  return rng_next (state) % one_in == 0;
}
