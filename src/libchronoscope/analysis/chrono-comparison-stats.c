/* chrono-comparison-stats.c: per-call and per-step figures, and whether a
 * change is beyond the step-to-step noise
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "chrono-comparison-private.h"

/* t(0.975, df) for df = 1..30. */
static const gdouble t975[] = {
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
  2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
  2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

gdouble
chrono_student_t_975 (gdouble df)
{
  const gdouble z = 1.959964;
  guint lo;

  if (df < 1)
    df = 1;
  if (df < G_N_ELEMENTS (t975))
    {
      /* Welch's degrees of freedom are fractional: between the table's. */
      lo = (guint) floor (df);
      return t975[lo - 1] + (df - lo) * (t975[lo] - t975[lo - 1]);
    }
  /* Cornish–Fisher expansion, within 0.001 of the exact value above 30. */
  return z + (z * z * z + z) / (4 * df) + (5 * pow (z, 5) + 16 * z * z * z + 3 * z) / (96 * df * df);
}

static inline void
swap_int64 (gint64 *x,
            gint64 *y)
{
  gint64 t = *x;

  *x = *y;
  *y = t;
}

/* The K-th smallest of the N values at V (from 0), reordering them so
 * that none after it is smaller: a selection with three-way partitions,
 * as durations repeat a lot. */
static gint64
select_nth (gint64 *v,
            guint   n,
            guint   k)
{
  guint lo = 0, hi = n;

  while (hi - lo > 1)
    {
      gint64 a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi - 1];
      gint64 pivot = MAX (MIN (a, b), MIN (MAX (a, b), c));
      guint lt = lo, i = lo, gt = hi;

      while (i < gt)
        {
          if (v[i] < pivot)
            swap_int64 (&v[lt++], &v[i++]);
          else if (v[i] > pivot)
            swap_int64 (&v[i], &v[--gt]);
          else
            i++;
        }
      if (k < lt)
        hi = lt;
      else if (k >= gt)
        lo = gt;
      else
        return pivot;
    }
  return v[lo];
}

/* The nearest rank, from 0, of the P-th percentile of N values: in
 * integers, as 0.95 × N in floating point may land just above a whole
 * rank. */
static guint
percentile_rank (guint n,
                 guint p)
{
  guint rank = (guint) (((guint64) n * p + 99) / 100);

  return MIN (MAX (rank, 1), n) - 1;
}

void
chrono_compare_side_finish (ChronoCompareSide *side,
                            gint64            *v,
                            guint              n,
                            guint              n_used)
{
  side->count_per_step = (gdouble) side->count / n_used;
  side->device_ns_per_step = (gdouble) side->device_ns / n_used;
  side->mean_ns = side->count ? (gdouble) side->device_ns / side->count : 0;
  side->p50_ns = side->p95_ns = 0;
  if (n > 0)
    {
      guint k50 = percentile_rank (n, 50), k95 = percentile_rank (n, 95);

      side->p50_ns = select_nth (v, n, k50);
      /* The selection leaves no smaller value after the median. */
      side->p95_ns = select_nth (v + k50, n - k50, k95 - k50);
    }
}

static gdouble
variance (const gint64 *x,
          guint         n,
          gdouble       mean)
{
  gdouble sum = 0;

  for (guint i = 0; i < n; i++)
    sum += (x[i] - mean) * (x[i] - mean);
  return sum / (n - 1);
}

/* Welch's t interval for the difference of the per-step means: the steps
 * of two runs are independent samples whose variances may differ. */
void
chrono_compare_row_finish (ChronoCompareRow *row,
                           guint             n_used)
{
  gdouble ma = row->a.device_ns_per_step, mb = row->b.device_ns_per_step;
  gdouble va, vb, se2, df, half;

  row->delta_ns = mb - ma;
  row->delta_percent = ma > 0 ? 100.0 * row->delta_ns / ma : NAN;
  row->ci_low_ns = row->ci_high_ns = row->delta_ns;
  if (n_used < 2)
    {
      row->noise = CHRONO_COMPARE_NOISE_UNKNOWN;
      return;
    }
  va = variance (row->a.step_device_ns, n_used, ma) / n_used;
  vb = variance (row->b.step_device_ns, n_used, mb) / n_used;
  se2 = va + vb;
  if (se2 <= 0)
    {
      /* No spread at all: any difference is a change. */
      row->noise = row->delta_ns != 0 ? CHRONO_COMPARE_NOISE_BEYOND : CHRONO_COMPARE_NOISE_WITHIN;
      return;
    }
  df = se2 * se2 / (va * va / (n_used - 1) + vb * vb / (n_used - 1));
  half = chrono_student_t_975 (df) * sqrt (se2);
  row->ci_low_ns = row->delta_ns - half;
  row->ci_high_ns = row->delta_ns + half;
  row->noise = row->ci_low_ns > 0 || row->ci_high_ns < 0 ? CHRONO_COMPARE_NOISE_BEYOND
                                                           : CHRONO_COMPARE_NOISE_WITHIN;
}

static void
side_clear (ChronoCompareSide *side)
{
  g_free (side->name);
  g_free (side->step_device_ns);
}

void
chrono_compare_row_free (ChronoCompareRow *row)
{
  g_free (row->key);
  g_free (row->name);
  g_free (row->shapes);
  g_free (row->op);
  side_clear (&row->a);
  side_clear (&row->b);
  g_free (row);
}
