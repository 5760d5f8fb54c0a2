/* chrono-flops-series.c: the FLOPs a device did over time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>

#include "chrono-flops-series.h"

/* Where the rate of FLOPs per ns changes. */
typedef struct {
  gint64  t;
  gdouble rate;
} Step;

static int
compare_steps (const void *a,
               const void *b)
{
  const Step *x = a, *y = b;

  return x->t < y->t ? -1 : x->t > y->t;
}

void
chrono_flops_series_init (ChronoFlopsSeries      *self,
                          const ChronoFlopsPiece *pieces,
                          guint                   n_pieces)
{
  g_autofree Step *steps = g_new (Step, MAX (2 * (gsize) n_pieces, 1));
  gdouble rate = 0, total = 0;
  guint n = 0;

  for (guint i = 0; i < n_pieces; i++)
    {
      gint64 end = MAX (pieces[i].end_ns, pieces[i].start_ns + 1);
      gdouble r = pieces[i].flops / (gdouble) (end - pieces[i].start_ns);

      steps[n++] = (Step) { pieces[i].start_ns, r };
      steps[n++] = (Step) { end, -r };
    }
  qsort (steps, n, sizeof *steps, compare_steps);

  self->times = g_new (gint64, MAX (n, 1));
  self->cumulative = g_new (gdouble, MAX (n, 1));
  self->n_points = 0;
  for (guint i = 0; i < n; i++)
    {
      if (self->n_points > 0)
        {
          gint64 last = self->times[self->n_points - 1];

          total += rate * (gdouble) (steps[i].t - last);
          if (steps[i].t == last)
            self->n_points--;
        }
      self->times[self->n_points] = steps[i].t;
      self->cumulative[self->n_points] = total;
      self->n_points++;
      rate += steps[i].rate;
    }
  self->total_flops = total;
  chrono_max_blocks_init (&self->blocks, self->times, self->n_points);
}

void
chrono_flops_series_clear (ChronoFlopsSeries *self)
{
  g_clear_pointer (&self->times, g_free);
  g_clear_pointer (&self->cumulative, g_free);
  chrono_max_blocks_clear (&self->blocks);
  self->n_points = 0;
}

/* F(T), with LO the last point at or before T. */
static gdouble
interpolate (const ChronoFlopsSeries *self,
             guint                    lo,
             gint64                   t)
{
  return self->cumulative[lo] + (self->cumulative[lo + 1] - self->cumulative[lo]) *
         (gdouble) (t - self->times[lo]) / (gdouble) (self->times[lo + 1] - self->times[lo]);
}

gdouble
chrono_flops_series_at (const ChronoFlopsSeries *self,
                        gint64                   t)
{
  guint lo = 0, hi = self->n_points;

  if (self->n_points == 0 || t <= self->times[0])
    return 0;
  if (t >= self->times[self->n_points - 1])
    return self->total_flops;
  /* The last point at or before T. */
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->times[mid] <= t)
        lo = mid;
      else
        hi = mid;
    }
  return interpolate (self, lo, t);
}

gdouble
chrono_flops_series_at_after (const ChronoFlopsSeries *self,
                              gint64                   t,
                              guint                   *cursor)
{
  if (self->n_points == 0 || t <= self->times[0])
    return 0;
  if (t >= self->times[self->n_points - 1])
    return self->total_flops;
  /* The first point after T, walking on: T is below the last point. */
  *cursor = chrono_max_blocks_seek (&self->blocks, self->times, *cursor, t + 1);
  return interpolate (self, *cursor - 1, t);
}

gdouble
chrono_flops_series_get_flops (const ChronoFlopsSeries *self,
                               gint64                   start_ns,
                               gint64                   end_ns)
{
  if (end_ns <= start_ns)
    return 0;
  return chrono_flops_series_at (self, end_ns) - chrono_flops_series_at (self, start_ns);
}
