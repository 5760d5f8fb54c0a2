/* chrono-comparison.c: two runs side by side, and what they say
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gio.h>

#include "chrono-comparison-private.h"

G_DEFINE_FINAL_TYPE (ChronoComparison, chrono_comparison, G_TYPE_OBJECT)

void
chrono_compare_options_init (ChronoCompareOptions *options)
{
  *options = (ChronoCompareOptions) { .align = CHRONO_COMPARE_ALIGN_AUTO };
}

const char *
chrono_compare_match_to_string (ChronoCompareMatch match)
{
  static const char * const names[] = { "name", "operator", "none" };

  g_return_val_if_fail (match <= CHRONO_COMPARE_MATCH_NONE, NULL);
  return names[match];
}

const char *
chrono_finding_change_to_string (ChronoFindingChange change)
{
  static const char * const names[] = { "same", "appeared", "disappeared", "changed" };

  g_return_val_if_fail (change <= CHRONO_FINDING_CHANGED, NULL);
  return names[change];
}

static void
chrono_comparison_finalize (GObject *object)
{
  ChronoComparison *self = CHRONO_COMPARISON (object);

  for (guint side = 0; side < 2; side++)
    {
      ChronoCompareSideData *s = &self->side[side];

      for (guint i = 0; i < s->windows->len; i++)
        g_free (g_array_index (s->windows, ChronoCompareWindow, i).name);
      for (guint i = 0; i < s->devices->len; i++)
        g_free (g_array_index (s->devices, ChronoCompareDevice, i).name);
      g_array_unref (s->windows);
      g_array_unref (s->devices);
      g_clear_object (&s->analysis);
    }
  for (guint i = 0; i < self->pairs->len; i++)
    g_free (g_array_index (self->pairs, ChronoComparePair, i).excluded);
  g_array_unref (self->pairs);
  g_array_unref (self->used);
  g_ptr_array_unref (self->ops);
  g_ptr_array_unref (self->kernels);
  g_array_unref (self->findings_diff);
  g_free (self->divergence.a_op);
  g_free (self->divergence.b_op);

  G_OBJECT_CLASS (chrono_comparison_parent_class)->finalize (object);
}

static void
chrono_comparison_class_init (ChronoComparisonClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_comparison_finalize;
}

static void
chrono_comparison_init (ChronoComparison *self)
{
  for (guint side = 0; side < 2; side++)
    {
      self->side[side].windows = g_array_new (FALSE, TRUE, sizeof (ChronoCompareWindow));
      self->side[side].devices = g_array_new (FALSE, TRUE, sizeof (ChronoCompareDevice));
    }
  self->pairs = g_array_new (FALSE, TRUE, sizeof (ChronoComparePair));
  self->used = g_array_new (FALSE, FALSE, sizeof (guint));
  self->ops = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_compare_row_free);
  self->kernels = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_compare_row_free);
  self->findings_diff = g_array_new (FALSE, TRUE, sizeof (ChronoFindingDiff));
}

/* Findings by rule: each side's count, time lost, and where its
 * costliest stands in that side's list (most costly first). */
static void
diff_findings (ChronoComparison *self)
{
  guint n_rules;
  const ChronoRule *rules = chrono_analysis_get_rules (&n_rules);

  for (guint r = 0; r < n_rules; r++)
    {
      ChronoFindingDiff d = { .rule = rules[r].id, .a_position = -1, .b_position = -1 };

      for (guint side = 0; side < 2; side++)
        {
          ChronoAnalysis *an = self->side[side].analysis;

          for (guint i = 0; i < chrono_analysis_get_n_findings (an); i++)
            {
              const ChronoFinding *f = chrono_analysis_get_finding (an, i);

              if (g_strcmp0 (f->rule, rules[r].id) != 0 || f->rank != self->side[side].data->rank_index)
                continue;
              if (side == 0)
                {
                  d.a_count++;
                  d.a_time_lost_ns += f->time_lost_ns;
                  if (d.a_position < 0)
                    d.a_position = i;
                }
              else
                {
                  d.b_count++;
                  d.b_time_lost_ns += f->time_lost_ns;
                  if (d.b_position < 0)
                    d.b_position = i;
                }
            }
        }
      if (d.a_count == 0 && d.b_count == 0)
        continue;
      d.change = d.a_count == 0 ? CHRONO_FINDING_APPEARED
                 : d.b_count == 0 ? CHRONO_FINDING_DISAPPEARED
                 : d.a_time_lost_ns != d.b_time_lost_ns || d.a_count != d.b_count ? CHRONO_FINDING_CHANGED
                 : CHRONO_FINDING_SAME;
      g_array_append_val (self->findings_diff, d);
    }
}

ChronoComparison *
chrono_comparison_run (ChronoAnalysis              *a,
                       ChronoAnalysis              *b,
                       const ChronoCompareOptions  *options,
                       GCancellable                *cancellable,
                       GError                     **error)
{
  g_autoptr(ChronoComparison) self = g_object_new (CHRONO_TYPE_COMPARISON, NULL);
  ChronoCompareOptions defaults;
  ChronoAnalysis *sides[2] = { a, b };

  g_return_val_if_fail (CHRONO_IS_ANALYSIS (a) && CHRONO_IS_ANALYSIS (b), NULL);

  if (options == NULL)
    {
      chrono_compare_options_init (&defaults);
      options = &defaults;
    }
  g_return_val_if_fail (options->align != CHRONO_COMPARE_ALIGN_MARKER || options->marker != NULL, NULL);

  for (guint side = 0; side < 2; side++)
    {
      guint n_ranks;
      ChronoRankData **ranks = chrono_analysis_get_ranks (sides[side], &n_ranks);

      if (n_ranks == 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "side %c holds no trace", side == 0 ? 'A' : 'B');
          return NULL;
        }
      self->side[side].analysis = g_object_ref (sides[side]);
      self->side[side].data = ranks[0];
    }
  if (!chrono_comparison_align (self, options, error))
    return NULL;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  chrono_comparison_match (self);
  diff_findings (self);
  return g_steal_pointer (&self);
}

ChronoAnalysis *
chrono_comparison_get_analysis (ChronoComparison    *self,
                                ChronoCompareSideId  side)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self) && side <= CHRONO_COMPARE_SIDE_B, NULL);
  return self->side[side].analysis;
}

ChronoCompareAlign
chrono_comparison_get_align (ChronoComparison *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self), CHRONO_COMPARE_ALIGN_AUTO);
  return self->align;
}

gboolean
chrono_comparison_get_by_number (ChronoComparison *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self), FALSE);
  return self->by_number;
}

const char *
chrono_comparison_get_device_name (ChronoComparison    *self,
                                   ChronoCompareSideId  side)
{
  GArray *devices;

  g_return_val_if_fail (CHRONO_IS_COMPARISON (self) && side <= CHRONO_COMPARE_SIDE_B, NULL);
  devices = self->side[side].devices;
  for (guint i = 0; i < devices->len; i++)
    if (g_array_index (devices, ChronoCompareDevice, i).main)
      return g_array_index (devices, ChronoCompareDevice, i).name;
  return NULL;
}

guint
chrono_comparison_get_n_windows (ChronoComparison    *self,
                                 ChronoCompareSideId  side)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self) && side <= CHRONO_COMPARE_SIDE_B, 0);
  return self->side[side].windows->len;
}

const ChronoCompareWindow *
chrono_comparison_get_window (ChronoComparison    *self,
                              ChronoCompareSideId  side,
                              guint                index)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self) && side <= CHRONO_COMPARE_SIDE_B, NULL);
  g_return_val_if_fail (index < self->side[side].windows->len, NULL);
  return &g_array_index (self->side[side].windows, ChronoCompareWindow, index);
}

guint
chrono_comparison_get_n_pairs (ChronoComparison *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self), 0);
  return self->pairs->len;
}

const ChronoComparePair *
chrono_comparison_get_pair (ChronoComparison *self,
                            guint             index)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (index < self->pairs->len, NULL);
  return &g_array_index (self->pairs, ChronoComparePair, index);
}

guint
chrono_comparison_get_n_used (ChronoComparison *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self), 0);
  return self->used->len;
}

guint
chrono_comparison_get_n_devices (ChronoComparison    *self,
                                 ChronoCompareSideId  side)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self) && side <= CHRONO_COMPARE_SIDE_B, 0);
  return self->side[side].devices->len;
}

const ChronoCompareDevice *
chrono_comparison_get_device (ChronoComparison    *self,
                              ChronoCompareSideId  side,
                              guint                index)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self) && side <= CHRONO_COMPARE_SIDE_B, NULL);
  g_return_val_if_fail (index < self->side[side].devices->len, NULL);
  return &g_array_index (self->side[side].devices, ChronoCompareDevice, index);
}

guint
chrono_comparison_get_n_ops (ChronoComparison *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self), 0);
  return self->ops->len;
}

const ChronoCompareRow *
chrono_comparison_get_op (ChronoComparison *self,
                          guint             index)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (index < self->ops->len, NULL);
  return self->ops->pdata[index];
}

guint
chrono_comparison_get_n_kernels (ChronoComparison *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self), 0);
  return self->kernels->len;
}

const ChronoCompareRow *
chrono_comparison_get_kernel (ChronoComparison *self,
                              guint             index)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (index < self->kernels->len, NULL);
  return self->kernels->pdata[index];
}

guint
chrono_comparison_get_n_findings_diff (ChronoComparison *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self), 0);
  return self->findings_diff->len;
}

const ChronoFindingDiff *
chrono_comparison_get_findings_diff (ChronoComparison *self,
                                     guint             index)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (index < self->findings_diff->len, NULL);
  return &g_array_index (self->findings_diff, ChronoFindingDiff, index);
}

const ChronoCompareDivergence *
chrono_comparison_get_divergence (ChronoComparison *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON (self), NULL);
  return &self->divergence;
}
