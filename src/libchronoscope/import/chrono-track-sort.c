/* chrono-track-sort.c: a track's spans, instants and samples put in time
 * order, with the map from each span's index at add time to its new one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-track-builder-private.h"

/* Order by K1 ascending, then K2 descending (longer spans first, so that
 * parents come before the children that start with them), then by index:
 * stable. */
static inline gboolean
before (const gint64 *k1,
        const gint64 *k2,
        guint32       a,
        guint32       b)
{
  if (k1[a] != k1[b])
    return k1[a] < k1[b];
  if (k2 != NULL && k2[a] != k2[b])
    return k2[a] > k2[b];
  return a < b;
}

static void
merge_sort (const gint64 *k1,
            const gint64 *k2,
            guint32      *idx,
            guint32      *tmp,
            guint32       n)
{
  guint32 mid, i, j, k;

  if (n < 24)
    {
      for (i = 1; i < n; i++)
        {
          guint32 v = idx[i];
          for (j = i; j > 0 && before (k1, k2, v, idx[j - 1]); j--)
            idx[j] = idx[j - 1];
          idx[j] = v;
        }
      return;
    }
  mid = n / 2;
  merge_sort (k1, k2, idx, tmp, mid);
  merge_sort (k1, k2, idx + mid, tmp, n - mid);
  /* Traces are mostly in order: most merges are no-ops. */
  if (!before (k1, k2, idx[mid], idx[mid - 1]))
    return;
  memcpy (tmp, idx, mid * sizeof *idx);
  for (i = 0, j = mid, k = 0; i < mid && j < n; k++)
    idx[k] = before (k1, k2, idx[j], tmp[i]) ? idx[j++] : tmp[i++];
  while (i < mid)
    idx[k++] = tmp[i++];
}

guint32 *
chrono_track_sort_order (const gint64 *k1,
                         const gint64 *k2,
                         guint32       n)
{
  guint32 *idx;
  guint32 *tmp;
  guint32 i;

  for (i = 1; i < n; i++)
    if (before (k1, k2, i, i - 1))
      break;
  if (i >= n)
    return NULL;

  idx = g_new (guint32, n);
  tmp = g_new (guint32, n / 2 + 1);
  for (i = 0; i < n; i++)
    idx[i] = i;
  merge_sort (k1, k2, idx, tmp, n);
  g_free (tmp);
  return idx;
}

/* Reorders a column through one scratch buffer of 8 bytes per entry, so
 * that sorting allocates no new columns. */
#define PERMUTE(type, column, order, n, scratch)                 \
  G_STMT_START {                                                 \
    if ((column) != NULL)                                        \
      {                                                          \
        type *copy_ = (type *) (scratch);                        \
        memcpy (copy_, (column), (gsize) (n) * sizeof (type));   \
        for (guint32 i_ = 0; i_ < (n); i_++)                     \
          (column)[i_] = copy_[(order)[i_]];                     \
      }                                                          \
  } G_STMT_END

static void
sort_spans (ChronoTrackBuilder *b)
{
  ChronoTrack *t = &b->track;
  guint32 n = t->n_spans;
  g_autofree guint32 *order = chrono_track_sort_order (t->start, b->dur, n);
  g_autofree guint64 *scratch = NULL;

  if (order == NULL)
    return;
  scratch = g_new (guint64, n);
  PERMUTE (gint64, t->start, order, n, scratch);
  PERMUTE (gint64, b->dur, order, n, scratch);
  PERMUTE (guint32, b->name_id, order, n, scratch);
  PERMUTE (guint32, b->cat, order, n, scratch);
  PERMUTE (guint64, b->args_off, order, n, scratch);
  PERMUTE (guint8, t->kind, order, n, scratch);
  PERMUTE (guint8, t->flags, order, n, scratch);
  PERMUTE (gint64, b->correlation, order, n, scratch);

  b->new_index = g_new (guint32, n);
  for (guint32 i = 0; i < n; i++)
    b->new_index[order[i]] = i;
}

static void
sort_instants (ChronoTrackBuilder *b)
{
  ChronoTrack *t = &b->track;
  guint32 n = t->n_instants;
  g_autofree guint32 *order = chrono_track_sort_order (t->inst_ts, NULL, n);
  g_autofree guint64 *scratch = NULL;

  if (order == NULL)
    return;
  scratch = g_new (guint64, n);
  PERMUTE (gint64, t->inst_ts, order, n, scratch);
  PERMUTE (guint32, b->inst_name, order, n, scratch);
  PERMUTE (guint32, b->inst_cat, order, n, scratch);
  PERMUTE (guint64, b->inst_args_off, order, n, scratch);
}

static void
sort_samples (ChronoTrack *t)
{
  guint32 n = t->n_samples;
  g_autofree guint32 *order = chrono_track_sort_order (t->sample_ts, NULL, n);
  g_autofree guint64 *scratch = NULL;

  if (order == NULL)
    return;
  scratch = g_new (guint64, n);
  PERMUTE (gint64, t->sample_ts, order, n, scratch);
  PERMUTE (gdouble, t->sample_value, order, n, scratch);
}

void
chrono_track_builder_sort (ChronoTrackBuilder *b)
{
  sort_spans (b);
  sort_instants (b);
  sort_samples (&b->track);
}

