/* chrono-comparison-align.c: each side's windows, paired, chosen, and
 * attributed to the main device's time ledger
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>

#include "chrono-comparison-private.h"
#include "chrono-format.h"

/* Outliers lie further from the median than this many robust standard
 * deviations (1.4826 MAD), and at least OUTLIER_MIN_FRACTION of it:
 * identical steps have no spread, and a 1% difference is no outlier. */
#define OUTLIER_K 3.0
#define OUTLIER_MIN_FRACTION 0.05
/* Fewer pairs than these keep their first, or their outliers. */
#define WARMUP_MIN_PAIRS 3
#define OUTLIER_MIN_PAIRS 4

static const char *
side_file (ChronoCompareSideData *s)
{
  return s->data->path ? s->data->path : chrono_trace_get_path (s->data->trace);
}

static gint64
step_number (const char *name)
{
  const char *hash = strrchr (name, '#');
  gint64 n;

  if (hash == NULL || !g_ascii_string_to_signed (hash + 1, 10, 0, G_MAXINT64, &n, NULL))
    return -1;
  return n;
}

static void
add_span_window (ChronoCompareSideData *s,
                 guint32                track,
                 guint32                index)
{
  const ChronoTrack *t = chrono_trace_get_track (s->data->trace, track);
  const char *name = chrono_trace_get_string (s->data->trace, chrono_track_get_name (t, index));
  ChronoCompareWindow w = {
    .name = g_strdup (name),
    .number = step_number (name),
    .start_ns = MAX (t->start[index], s->data->range_start),
    .host_end_ns = MIN (chrono_track_get_end (t, index), s->data->range_end),
  };

  w.end_ns = w.host_end_ns;
  g_array_append_val (s->windows, w);
}

static void
collect_markers (ChronoCompareSideData *s,
                 const char            *marker)
{
  ChronoTrace *trace = s->data->trace;
  guint32 wanted = G_MAXUINT32;   /* the marker's string, once seen: names are interned */

  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);

      if (t->type != CHRONO_TRACK_THREAD || !chrono_rank_data_has_track (s->data, ti))
        continue;
      for (guint32 i = 0; i < t->n_spans; i++)
        {
          guint32 name = chrono_track_get_name (t, i);

          if (wanted == G_MAXUINT32 && strcmp (chrono_trace_get_string (trace, name), marker) == 0)
            wanted = name;
          if (name == wanted && chrono_track_get_end (t, i) > s->data->range_start &&
              t->start[i] < s->data->range_end)
            add_span_window (s, ti, i);
        }
    }
}

static gint
compare_windows (gconstpointer a,
                 gconstpointer b)
{
  const ChronoCompareWindow *x = a, *y = b;

  return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/* A window lasts until the device work launched in it is done, as the
 * analysis's steps do. */
static void
extend_windows (ChronoCompareSideData *s)
{
  ChronoCompareWindow *w = (ChronoCompareWindow *) s->windows->data;
  guint n = s->windows->len;

  for (guint di = 0; di < s->data->devices->len; di++)
    {
      ChronoDeviceWork *d = &g_array_index (s->data->devices, ChronoDeviceWork, di);
      guint lo = 0;

      for (guint k = 0; k < d->items->len; k++)
        {
          const ChronoWorkItem *it = &g_array_index (d->items, ChronoWorkItem, k);
          gint64 at = it->launch_start != G_MININT64 ? it->launch_start : it->start;

          /* Work comes nearly in the order it was launched. */
          lo = chrono_lower_bound_near (w, n, sizeof *w, G_STRUCT_OFFSET (ChronoCompareWindow, start_ns), at + 1, lo);
          if (lo > 0 && at < w[lo - 1].host_end_ns)
            w[lo - 1].end_ns = MAX (w[lo - 1].end_ns, it->end);
        }
    }
}

static gboolean
collect_windows (ChronoCompareSideData *s,
                 ChronoCompareAlign     align,
                 const char            *marker,
                 GError               **error)
{
  if (align == CHRONO_COMPARE_ALIGN_STEP)
    {
      for (guint k = 0; k < s->data->steps->len; k++)
        {
          const ChronoStep *step = &g_array_index (s->data->steps, ChronoStep, k);
          add_span_window (s, step->track, step->index);
        }
      if (s->windows->len == 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       "%s: no ProfilerStep#N spans to align by; use --align start or --align marker:NAME",
                       side_file (s));
          return FALSE;
        }
    }
  else if (align == CHRONO_COMPARE_ALIGN_MARKER)
    {
      collect_markers (s, marker);
      if (s->windows->len == 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       "%s: no span named “%s” to align by", side_file (s), marker);
          return FALSE;
        }
    }
  else
    {
      const ChronoTracePart *part = chrono_trace_get_part (s->data->trace, 0);
      gint64 start = s->data->range_end > s->data->range_start ? s->data->range_start : part->start_ns;
      gint64 end = s->data->range_end > s->data->range_start ? s->data->range_end : part->end_ns;
      ChronoCompareWindow w = { .name = g_strdup ("trace"), .number = -1, .start_ns = MAX (start, part->start_ns),
                                .host_end_ns = MIN (end, part->end_ns) };

      w.end_ns = w.host_end_ns;
      g_array_append_val (s->windows, w);
    }
  g_array_sort (s->windows, compare_windows);
  extend_windows (s);
  return TRUE;
}

/* The device whose ledger explains the steps: the one busiest overall. */
static void
choose_main_device (ChronoCompareSideData *s)
{
  gint64 best = -1;

  s->main_device = G_MAXUINT;
  for (guint di = 0; di < s->data->devices->len; di++)
    {
      ChronoDeviceWork *d = &g_array_index (s->data->devices, ChronoDeviceWork, di);
      gint64 busy;

      if (d->ledger == NULL || d->ledger->len == 0)
        continue;
      busy = chrono_intervals_length (d->busy);
      if (busy > best)
        {
          best = busy;
          s->main_device = di;
        }
    }
}

static void
ledger_bounds (ChronoDeviceWork *d,
               gint64           *start,
               gint64           *end)
{
  *start = g_array_index (d->ledger, ChronoLedgerSegment, 0).start;
  *end = g_array_index (d->ledger, ChronoLedgerSegment, d->ledger->len - 1).end;
}

/* The main device's ledger inside each window; the rest is outside its
 * work, so the states and OUTSIDE_NS add up to the window exactly. */
static void
attribute_windows (ChronoCompareSideData *s)
{
  ChronoDeviceWork *d = s->main_device != G_MAXUINT
                        ? &g_array_index (s->data->devices, ChronoDeviceWork, s->main_device) : NULL;
  gint64 ls = 0, le = 0;

  if (d)
    ledger_bounds (d, &ls, &le);
  for (guint i = 0; i < s->windows->len; i++)
    {
      ChronoCompareWindow *w = &g_array_index (s->windows, ChronoCompareWindow, i);
      gint64 start = MAX (w->start_ns, ls), end = MIN (w->end_ns, le);
      gint64 inside = 0;

      if (d && end > start)
        {
          chrono_ledger_sum (d->ledger, start, end, w->state_ns);
          inside = end - start;
        }
      w->outside_ns = (w->end_ns - w->start_ns) - inside;
    }
}

static void
add_pair (ChronoComparison *self,
          gint              a,
          gint              b)
{
  ChronoComparePair p = { .a = a, .b = b, .used = a >= 0 && b >= 0 };

  if (!p.used)
    p.excluded = g_strdup (a >= 0 ? "only in A" : "only in B");
  g_array_append_val (self->pairs, p);
}

static gboolean
all_numbered (GArray *windows)
{
  for (guint i = 0; i < windows->len; i++)
    if (g_array_index (windows, ChronoCompareWindow, i).number < 0)
      return FALSE;
  return windows->len > 0;
}

/* By ProfilerStep number when both sides number every step and share
 * one, else by order. */
static void
pair_windows (ChronoComparison *self)
{
  GArray *wa = self->side[0].windows, *wb = self->side[1].windows;
  g_autoptr(GHashTable) in_b = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree gboolean *b_paired = g_new0 (gboolean, wb->len + 1);
  gboolean shared = FALSE;

  if (all_numbered (wa) && all_numbered (wb))
    {
      for (guint j = 0; j < wb->len; j++)
        g_hash_table_insert (in_b, &g_array_index (wb, ChronoCompareWindow, j).number, GUINT_TO_POINTER (j + 1));
      for (guint i = 0; i < wa->len && !shared; i++)
        shared = g_hash_table_contains (in_b, &g_array_index (wa, ChronoCompareWindow, i).number);
    }
  self->by_number = shared;
  if (!shared)
    {
      for (guint i = 0; i < MAX (wa->len, wb->len); i++)
        add_pair (self, i < wa->len ? (gint) i : -1, i < wb->len ? (gint) i : -1);
      return;
    }
  for (guint i = 0; i < wa->len; i++)
    {
      guint j = GPOINTER_TO_UINT (g_hash_table_lookup (in_b, &g_array_index (wa, ChronoCompareWindow, i).number));

      if (j > 0 && !b_paired[j - 1])
        {
          b_paired[j - 1] = TRUE;
          add_pair (self, i, j - 1);
        }
      else
        add_pair (self, i, -1);
    }
  for (guint j = 0; j < wb->len; j++)
    if (!b_paired[j])
      add_pair (self, -1, j);
}

static gint
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

static gint64
median_of (GArray *values)
{
  g_array_sort (values, compare_int64);
  return g_array_index (values, gint64, values->len / 2);
}

/* Median and robust spread of the window lengths of SIDE over the pairs
 * still used. */
static void
side_spread (ChronoComparison *self,
             guint             side,
             gint64           *median,
             gint64           *bound)
{
  g_autoptr(GArray) len = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) dev = g_array_new (FALSE, FALSE, sizeof (gint64));
  GArray *w = self->side[side].windows;

  for (guint i = 0; i < self->pairs->len; i++)
    {
      const ChronoComparePair *p = &g_array_index (self->pairs, ChronoComparePair, i);
      const ChronoCompareWindow *x;
      gint64 v;

      if (!p->used)
        continue;
      x = &g_array_index (w, ChronoCompareWindow, side == 0 ? p->a : p->b);
      v = x->end_ns - x->start_ns;
      g_array_append_val (len, v);
    }
  *median = median_of (len);
  for (guint i = 0; i < len->len; i++)
    {
      gint64 v = ABS (g_array_index (len, gint64, i) - *median);
      g_array_append_val (dev, v);
    }
  *bound = (gint64) MAX (OUTLIER_K * 1.4826 * median_of (dev), OUTLIER_MIN_FRACTION * *median);
}

static void
exclude_outliers (ChronoComparison *self)
{
  gint64 median[2], bound[2];
  g_autofree gboolean *out = g_new0 (gboolean, self->pairs->len);

  for (guint side = 0; side < 2; side++)
    side_spread (self, side, &median[side], &bound[side]);
  for (guint i = 0; i < self->pairs->len; i++)
    {
      ChronoComparePair *p = &g_array_index (self->pairs, ChronoComparePair, i);

      if (!p->used)
        continue;
      for (guint side = 0; side < 2 && p->excluded == NULL; side++)
        {
          const ChronoCompareWindow *x = &g_array_index (self->side[side].windows, ChronoCompareWindow,
                                                         side == 0 ? p->a : p->b);
          gint64 v = x->end_ns - x->start_ns;

          if (ABS (v - median[side]) > bound[side])
            {
              g_autofree char *len = chrono_format_duration (v);
              g_autofree char *med = chrono_format_duration (median[side]);
              g_autofree char *bnd = chrono_format_duration (bound[side]);

              p->excluded = g_strdup_printf ("outlier in %c: %s, outside the median %s ± %s",
                                             side == 0 ? 'A' : 'B', len, med, bnd);
              out[i] = TRUE;
            }
        }
    }
  /* Applied after all are judged, against the same median. */
  for (guint i = 0; i < self->pairs->len; i++)
    if (out[i])
      g_array_index (self->pairs, ChronoComparePair, i).used = FALSE;
}

static guint
count_used (ChronoComparison *self)
{
  guint n = 0;

  for (guint i = 0; i < self->pairs->len; i++)
    n += g_array_index (self->pairs, ChronoComparePair, i).used;
  return n;
}

static gboolean
choose_pairs (ChronoComparison           *self,
              const ChronoCompareOptions *options,
              GError                    **error)
{
  guint matched = count_used (self);

  if (options->has_steps)
    {
      guint position = 0;

      for (guint i = 0; i < self->pairs->len; i++)
        {
          ChronoComparePair *p = &g_array_index (self->pairs, ChronoComparePair, i);
          gint64 key;

          if (!p->used)
            continue;
          key = self->by_number ? g_array_index (self->side[0].windows, ChronoCompareWindow, p->a).number
                                : (gint64) position;
          position++;
          if (key < options->first_step || key > options->last_step)
            {
              p->used = FALSE;
              p->excluded = g_strdup_printf ("outside --steps %" G_GINT64_FORMAT ":%" G_GINT64_FORMAT,
                                             options->first_step, options->last_step);
            }
        }
      if (count_used (self) == 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "--steps %" G_GINT64_FORMAT ":%" G_GINT64_FORMAT " chooses none of the %u paired steps (%s)",
                       options->first_step, options->last_step, matched,
                       self->by_number ? "by ProfilerStep number" : "by position from 0");
          return FALSE;
        }
      return TRUE;
    }
  if (matched >= WARMUP_MIN_PAIRS && self->align != CHRONO_COMPARE_ALIGN_START)
    for (guint i = 0; i < self->pairs->len; i++)
      {
        ChronoComparePair *p = &g_array_index (self->pairs, ChronoComparePair, i);

        if (p->used)
          {
            p->used = FALSE;
            p->excluded = g_strdup ("warm-up: the first step");
            break;
          }
      }
  if (count_used (self) >= OUTLIER_MIN_PAIRS)
    exclude_outliers (self);
  if (count_used (self) == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "%s and %s have no steps that pair: %u and %u windows",
                   side_file (&self->side[0]), side_file (&self->side[1]),
                   self->side[0].windows->len, self->side[1].windows->len);
      return FALSE;
    }
  return TRUE;
}

/* Each device over the used windows, cut to the device's own window. */
void
chrono_compare_measure_devices (ChronoComparison *self,
                                guint             side)
{
  ChronoCompareSideData *s = &self->side[side];

  for (guint di = 0; di < s->data->devices->len; di++)
    {
      ChronoDeviceWork *d = &g_array_index (s->data->devices, ChronoDeviceWork, di);
      GArray *comp = d->compute, *comm = d->communication;
      ChronoCompareDevice dev = { .main = di == s->main_device };
      gint64 ls, le;

      if (d->ledger == NULL || d->ledger->len == 0)
        continue;
      ledger_bounds (d, &ls, &le);
      dev.name = g_strdup (chrono_trace_get_string (s->data->trace,
                                                    chrono_trace_get_process (s->data->trace, d->process)->display_name));
      for (guint u = 0; u < self->used->len; u++)
        {
          const ChronoCompareWindow *w = chrono_comparison_used_window (self, side, u);
          gint64 start = MAX (w->start_ns, ls), end = MIN (w->end_ns, le);
          gint64 states[CHRONO_N_LEDGER_STATES] = { 0 };
          gint64 busy;

          if (end <= start)
            continue;
          busy = chrono_intervals_length_in (d->busy, start, end);
          dev.busy_ns += busy;
          dev.idle_ns += (end - start) - busy;
          dev.compute_ns += chrono_intervals_length_in (comp, start, end);
          dev.communication_ns += chrono_intervals_length_in (comm, start, end);
          chrono_ledger_sum (d->ledger, start, end, states);
          dev.exposed_communication_ns += states[CHRONO_LEDGER_COMMUNICATION];
          dev.copy_ns += states[CHRONO_LEDGER_COPY];
        }
      g_array_append_val (s->devices, dev);
    }
}

typedef struct {
  ChronoCompareSideData *side;
  ChronoCompareAlign     align;
  const char            *marker;
  GError                *error;
} SideWindows;

/* A side's windows and what its main device did in each: the sides'
 * are found at once. */
static gpointer
side_windows (gpointer data)
{
  SideWindows *w = data;

  if (collect_windows (w->side, w->align, w->marker, &w->error))
    {
      choose_main_device (w->side);
      attribute_windows (w->side);
    }
  return NULL;
}

gboolean
chrono_comparison_align (ChronoComparison           *self,
                         const ChronoCompareOptions *options,
                         GError                    **error)
{
  SideWindows sides[2];

  self->align = options->align;
  if (self->align == CHRONO_COMPARE_ALIGN_AUTO)
    self->align = self->side[0].data->steps->len > 0 && self->side[1].data->steps->len > 0
                  ? CHRONO_COMPARE_ALIGN_STEP : CHRONO_COMPARE_ALIGN_START;
  for (guint k = 0; k < 2; k++)
    sides[k] = (SideWindows) { &self->side[k], self->align, options->marker, NULL };
  chrono_both_at_once (side_windows, &sides[0], &sides[1]);
  /* A's fault first, as finding one side after the other would. */
  for (guint k = 0; k < 2; k++)
    if (sides[k].error)
      {
        g_propagate_error (error, sides[k].error);
        g_clear_error (&sides[1 - k].error);
        return FALSE;
      }
  pair_windows (self);
  if (!choose_pairs (self, options, error))
    return FALSE;
  for (guint i = 0; i < self->pairs->len; i++)
    if (g_array_index (self->pairs, ChronoComparePair, i).used)
      g_array_append_val (self->used, i);
  return TRUE;
}

const ChronoCompareWindow *
chrono_comparison_used_window (ChronoComparison *self,
                               guint             side,
                               guint             u)
{
  const ChronoComparePair *p = &g_array_index (self->pairs, ChronoComparePair, g_array_index (self->used, guint, u));

  return &g_array_index (self->side[side].windows, ChronoCompareWindow, side == 0 ? p->a : p->b);
}
