/* chrono-track-index.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-track-index.h"
#include "chrono-viewport-private.h"

/* The pyramid starts at blocks of 8 spans: smaller blocks would cost
 * more memory than stepping over up to 7 spans saves. */
#define BASE_LEVEL  3

typedef struct {
  guint32  first;       /* position of its first span in ORDER */
  guint32  n_spans;
  guint32  levels;      /* its first entry in LEVEL_FIRST */
  guint32  n_levels;
  gboolean overlaps;    /* only past the model's depth cap */
} Row;

struct _ChronoTrackIndex
{
  GObject            parent_instance;

  ChronoTrace       *trace;
  const ChronoTrack *track;
  guint              track_number;

  guint              n_rows;
  Row               *rows;
  guint32           *lane_row;     /* first row of each lane */
  guint32           *order;        /* span indices, row after row, by start */
  /* The start and end, and the kind, of the span at each position of
   * ORDER: walks read them in row order, where the track's own columns
   * are scattered in memory. */
  gint64            *bounds;
  guint8            *kinds;

  /* Level k >= BASE_LEVEL of a row merges 2^k adjacent spans into a
   * block [start of its first span, end of its last-ending one] of the
   * kind that covers most of its time. Only the end and the kind are
   * stored: walks never need a block's start (see tail_fits()). */
  guint32           *level_first;  /* first block of each level of each row */
  guint32            n_level_entries;
  gint64            *block_end;
  guint8            *block_kind;
  gsize              n_blocks;

  double             value_min;
  double             value_max;
  gboolean           has_values;
};

G_DEFINE_FINAL_TYPE (ChronoTrackIndex, chrono_track_index, G_TYPE_OBJECT)

static inline gint64
span_end (const ChronoTrack *t,
          guint32            i)
{
  return t->start[i] + t->dur[i];
}

/* Spans count by their duration, plus one so zero-length ones count. */
static inline gint64
span_weight (const ChronoTrack *t,
             guint32            i)
{
  return MAX (t->dur[i], 0) + 1;
}

static inline guint
span_row (const ChronoTrackIndex *self,
          guint32                 i)
{
  return self->lane_row[self->track->lane[i]] + self->track->depth[i];
}

static ChronoKind
dominant_kind (const gint64 *weights)
{
  guint best = 0;

  for (guint k = 1; k < CHRONO_N_KINDS; k++)
    if (weights[k] > weights[best])
      best = k;
  return best;
}

static void
build_rows (ChronoTrackIndex *self)
{
  const ChronoTrack *t = self->track;
  g_autofree guint32 *lane_depth = g_new0 (guint32, MAX (t->n_lanes, 1));
  g_autofree guint32 *fill = NULL;
  g_autofree gint64 *last_end = NULL;
  guint32 row = 0;

  for (guint32 i = 0; i < t->n_spans; i++)
    lane_depth[t->lane[i]] = MAX (lane_depth[t->lane[i]], t->depth[i]);

  self->lane_row = g_new (guint32, MAX (t->n_lanes, 1));
  for (guint l = 0; l < t->n_lanes; l++)
    {
      self->lane_row[l] = row;
      row += lane_depth[l] + 1;
    }
  self->n_rows = t->n_spans > 0 ? row : 0;
  self->rows = g_new0 (Row, MAX (self->n_rows, 1));

  for (guint32 i = 0; i < t->n_spans; i++)
    self->rows[span_row (self, i)].n_spans++;
  for (guint r = 0, first = 0; r < self->n_rows; r++)
    {
      self->rows[r].first = first;
      first += self->rows[r].n_spans;
    }

  /* Spans come sorted by start, so each row's list is too. */
  self->order = g_new (guint32, MAX (t->n_spans, 1));
  self->bounds = g_new (gint64, 2 * (gsize) MAX (t->n_spans, 1));
  self->kinds = g_new (guint8, MAX (t->n_spans, 1));
  fill = g_new0 (guint32, MAX (self->n_rows, 1));
  last_end = g_new (gint64, MAX (self->n_rows, 1));
  for (guint r = 0; r < self->n_rows; r++)
    last_end[r] = G_MININT64;
  for (guint32 i = 0; i < t->n_spans; i++)
    {
      guint r = span_row (self, i);
      Row *rw = &self->rows[r];

      self->bounds[2 * (rw->first + fill[r])] = t->start[i];
      self->bounds[2 * (rw->first + fill[r]) + 1] = span_end (t, i);
      self->kinds[rw->first + fill[r]] = t->kind[i];
      self->order[rw->first + fill[r]++] = i;
      if (t->start[i] < last_end[r])
        rw->overlaps = TRUE;
      last_end[r] = MAX (last_end[r], span_end (t, i));
    }
}

static guint32
n_blocks_at (guint32 n_spans,
             guint   level)
{
  return (guint32) (((guint64) n_spans + (G_GUINT64_CONSTANT (1) << level) - 1) >> level);
}

static void
build_pyramid (ChronoTrackIndex *self)
{
  const ChronoTrack *t = self->track;
  g_autofree gint64 *weights = NULL;
  guint32 max_base_blocks = 0;
  gsize block = 0;

  /* Levels run from BASE_LEVEL up to the one with a single block. */
  for (guint r = 0; r < self->n_rows; r++)
    {
      Row *rw = &self->rows[r];

      rw->levels = self->n_level_entries;
      for (guint k = BASE_LEVEL; ; k++)
        {
          guint32 n = n_blocks_at (rw->n_spans, k);

          rw->n_levels++;
          self->n_blocks += n;
          if (n <= 1)
            break;
        }
      self->n_level_entries += rw->n_levels;
      max_base_blocks = MAX (max_base_blocks, n_blocks_at (rw->n_spans, BASE_LEVEL));
    }

  self->level_first = g_new (guint32, MAX (self->n_level_entries, 1));
  self->block_end = g_new (gint64, MAX (self->n_blocks, 1));
  self->block_kind = g_new (guint8, MAX (self->n_blocks, 1));

  /* Weights per kind of the current level's blocks; each level is summed
   * from the one below in place, parent b overwriting child b only after
   * reading children 2b and 2b + 1. */
  weights = g_new (gint64, (gsize) MAX (max_base_blocks, 1) * CHRONO_N_KINDS);

  for (guint r = 0; r < self->n_rows; r++)
    {
      const Row *rw = &self->rows[r];
      const guint32 *order = self->order + rw->first;

      for (guint level = 0; level < rw->n_levels; level++)
        {
          guint k = BASE_LEVEL + level;
          guint32 n = n_blocks_at (rw->n_spans, k);

          self->level_first[rw->levels + level] = block;
          for (guint32 b = 0; b < n; b++, block++)
            {
              gint64 *w = weights + (gsize) b * CHRONO_N_KINDS;
              gint64 end = G_MININT64;

              if (level == 0)
                {
                  guint32 p_end = MIN ((b + 1) << BASE_LEVEL, rw->n_spans);

                  memset (w, 0, sizeof (gint64) * CHRONO_N_KINDS);
                  for (guint32 p = b << BASE_LEVEL; p < p_end; p++)
                    {
                      guint32 i = order[p];

                      w[t->kind[i]] += span_weight (t, i);
                      end = MAX (end, span_end (t, i));
                    }
                }
              else
                {
                  guint32 below = self->level_first[rw->levels + level - 1];
                  guint32 n_below = n_blocks_at (rw->n_spans, k - 1);
                  const gint64 *left = weights + (gsize) (2 * b) * CHRONO_N_KINDS;

                  end = self->block_end[below + 2 * b];
                  if (2 * b + 1 < n_below)
                    {
                      const gint64 *right = left + CHRONO_N_KINDS;

                      for (guint c = 0; c < CHRONO_N_KINDS; c++)
                        w[c] = left[c] + right[c];
                      end = MAX (end, self->block_end[below + 2 * b + 1]);
                    }
                  else
                    memmove (w, left, sizeof (gint64) * CHRONO_N_KINDS);
                }
              self->block_end[block] = end;
              self->block_kind[block] = dominant_kind (w);
            }
        }
    }
}

static void
find_value_range (ChronoTrackIndex *self)
{
  const ChronoTrack *t = self->track;

  for (guint32 i = 0; i < t->n_samples; i++)
    {
      double v = t->sample_value[i];

      if (!isfinite (v))
        continue;
      if (!self->has_values)
        {
          self->value_min = self->value_max = v;
          self->has_values = TRUE;
        }
      self->value_min = MIN (self->value_min, v);
      self->value_max = MAX (self->value_max, v);
    }
}

static void
chrono_track_index_finalize (GObject *object)
{
  ChronoTrackIndex *self = CHRONO_TRACK_INDEX (object);

  g_clear_object (&self->trace);
  g_free (self->rows);
  g_free (self->lane_row);
  g_free (self->order);
  g_free (self->bounds);
  g_free (self->kinds);
  g_free (self->level_first);
  g_free (self->block_end);
  g_free (self->block_kind);

  G_OBJECT_CLASS (chrono_track_index_parent_class)->finalize (object);
}

static void
chrono_track_index_class_init (ChronoTrackIndexClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_track_index_finalize;
}

static void
chrono_track_index_init (ChronoTrackIndex *self)
{
}

ChronoTrackIndex *
chrono_track_index_new (ChronoTrace *trace,
                        guint        track)
{
  ChronoTrackIndex *self;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (track < chrono_trace_get_n_tracks (trace), NULL);

  self = g_object_new (CHRONO_TYPE_TRACK_INDEX, NULL);
  self->trace = g_object_ref (trace);
  self->track_number = track;
  self->track = chrono_trace_get_track (trace, track);
  build_rows (self);
  build_pyramid (self);
  find_value_range (self);
  return self;
}

/**
 * chrono_track_index_new_all:
 *
 * Indexes every track of TRACE, for a loading thread to do before the
 * timeline needs them.
 *
 * Returns: (transfer container): one index per track, in track order,
 *   or %NULL when CANCELLABLE was cancelled
 */
GPtrArray *
chrono_track_index_new_all (ChronoTrace  *trace,
                            GCancellable *cancellable)
{
  g_autoptr(GPtrArray) indexes = NULL;
  guint n_tracks;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);

  n_tracks = chrono_trace_get_n_tracks (trace);
  indexes = g_ptr_array_new_full (n_tracks, g_object_unref);
  for (guint t = 0; t < n_tracks; t++)
    {
      if (g_cancellable_is_cancelled (cancellable))
        return NULL;
      g_ptr_array_add (indexes, chrono_track_index_new (trace, t));
    }
  return g_steal_pointer (&indexes);
}

ChronoTrace *
chrono_track_index_get_trace (ChronoTrackIndex *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_INDEX (self), NULL);
  return self->trace;
}

guint
chrono_track_index_get_track_number (ChronoTrackIndex *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_INDEX (self), 0);
  return self->track_number;
}

const ChronoTrack *
chrono_track_index_get_track (ChronoTrackIndex *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_INDEX (self), NULL);
  return self->track;
}

guint
chrono_track_index_get_n_rows (ChronoTrackIndex *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_INDEX (self), 0);
  return self->n_rows;
}

guint
chrono_track_index_get_span_row (ChronoTrackIndex *self,
                                 guint32           span)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_INDEX (self), 0);
  g_return_val_if_fail (span < self->track->n_spans, 0);
  return span_row (self, span);
}

const guint32 *
chrono_track_index_get_row_spans (ChronoTrackIndex *self,
                                  guint             row,
                                  guint32          *n_spans)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_INDEX (self), NULL);
  g_return_val_if_fail (row < self->n_rows, NULL);

  *n_spans = self->rows[row].n_spans;
  return self->order + self->rows[row].first;
}

/* -------------------------------------------------------------------- */
/* Walking a row                                                        */

typedef struct {
  ChronoTrackIndex  *self;
  const Row         *row;
  const guint32     *order;     /* the row's spans */
  const gint64      *bounds;    /* their starts and ends */
  const guint8      *kinds;
  ChronoTimeMap      map;
  double             width;
  double             min_width;
  ChronoRowItemFunc  func;
  gpointer           user_data;
  guint              visits;
  guint              level_hint;

  gboolean           in_run;
  ChronoRowItem      run;
  gint64             run_end;     /* ns; where run.x1 comes from */
  gint64             weights[CHRONO_N_KINDS];
} Walk;

static inline double
start_x (const Walk *w,
         guint32     p)
{
  return chrono_time_map_to_x (&w->map, w->bounds[2 * p]);
}

static inline double
end_x (const Walk *w,
       guint32     p)
{
  return chrono_time_map_to_x (&w->map, w->bounds[2 * p + 1]);
}

/* The first position whose span ends at or after x = 0; in a row whose
 * spans do not overlap, ends grow with starts. */
static guint32
first_visible (const Walk *w)
{
  guint32 lo = 0, hi = w->row->n_spans;

  if (w->row->overlaps)
    return 0;
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (end_x (w, mid) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The first position whose span starts after X. */
static guint32
first_starting_after (const Walk *w,
                      double      x)
{
  guint32 lo = 0, hi = w->row->n_spans;

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (start_x (w, mid) <= x)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* span_weight() of the span at position P. */
static inline gint64
position_weight (const Walk *w,
                 guint32     p)
{
  return MAX (w->bounds[2 * p + 1] - w->bounds[2 * p], 0) + 1;
}

static void
flush_run (Walk *w)
{
  if (!w->in_run)
    return;
  w->run.kind = dominant_kind (w->weights);
  w->func (&w->run, w->user_data);
  w->in_run = FALSE;
}

static void
start_run (Walk   *w,
           guint32 p,
           double  x0,
           double  x1)
{
  flush_run (w);
  w->in_run = TRUE;
  w->run.x0 = x0;
  w->run.x1 = x1;
  w->run.first = p;
  w->run.n_spans = 1;
  w->run.span = w->order[p];
  w->run_end = w->bounds[2 * p + 1];
  memset (w->weights, 0, sizeof w->weights);
  w->weights[w->kinds[p]] = position_weight (w, p);
}

static void
extend_run (Walk       *w,
            guint32     n_spans,
            gint64      end,
            ChronoKind  kind,
            gint64      weight)
{
  w->run.n_spans += n_spans;
  if (end > w->run_end)
    {
      w->run_end = end;
      w->run.x1 = MAX (w->run.x1, chrono_time_map_to_x (&w->map, end));
    }
  w->weights[kind] += weight;
}

/* The tail of the level-LEVEL block holding position P: from P to the
 * block's end. Returns how many spans it holds. */
static guint32
block_tail (const Walk *w,
            guint       level,
            guint32     p,
            guint32    *block)
{
  const Row *rw = w->row;
  guint k = BASE_LEVEL + level;

  *block = w->self->level_first[rw->levels + level] + (p >> k);
  return (guint32) MIN (((guint64) (p >> k) + 1) << k, rw->n_spans) - p;
}

/* Whether the tail at LEVEL may join the run whole. In a row without
 * overlaps its spans start at or after the run's end, so if the tail
 * ends before LIMIT, each of its spans is narrower than the run's
 * distance to LIMIT and starts before LIMIT: each would have joined
 * one by one. It must also end inside the window. Reads only the
 * block, not the spans, whose starts are scattered in memory. */
static gboolean
tail_fits (const Walk *w,
           guint       level,
           guint32     p,
           guint32     stop,
           double      limit)
{
  guint32 block;
  guint32 n = block_tail (w, level, p, &block);

  return p + n <= stop
         && chrono_time_map_to_x (&w->map, w->self->block_end[block]) < limit;
}

/* Whether P lies in the second half of the block above its LEVEL
 * block: then the tails at both levels are the same spans. */
static inline gboolean
same_tail_above (guint32 p,
                 guint   level)
{
  return (p >> (BASE_LEVEL + level)) & 1;
}

/* Swallows, at position P, the largest block tail that fits (a larger
 * block's tail holds every smaller one's, so fitting is monotonic in the
 * level). Block ends are scattered in memory, so reads are few: the
 * smallest tail first, which fails often and then settles it; then the
 * level that fitted last, since at one zoom runs fit at about the same
 * level; and never a level whose tail is the one just tested. Returns
 * how many spans it took, 0 when none fits. */
static guint32
swallow_block (Walk    *w,
               guint32  p,
               guint32  stop)
{
  const Row *rw = w->row;
  /* Spans starting before the pixel after the run's last one join it
   * (chrono_track_index_joins_run()); narrower than MIN_WIDTH, they
   * are not boxes of their own. */
  double limit = MIN (ceil (w->run.x1) + 1, w->run.x1 + w->min_width);
  guint hint = MIN (w->level_hint, rw->n_levels - 1);
  guint level = 0;
  guint32 n, block;
  gint64 end;

  if (!tail_fits (w, 0, p, stop, limit))
    return 0;
  if (hint > 0)
    {
      /* Down from the hint to the first level that fits, 0 at worst. */
      for (level = hint; level > 0; level--)
        if (!same_tail_above (p, level) && tail_fits (w, level, p, stop, limit))
          break;
    }
  while (level + 1 < rw->n_levels
         && (same_tail_above (p, level) || tail_fits (w, level + 1, p, stop, limit)))
    level++;
  w->level_hint = level;

  n = block_tail (w, level, p, &block);
  end = w->self->block_end[block];
  w->visits++;
  /* The tail's own start is not read; it counts from the run's end. */
  extend_run (w, n, end, w->self->block_kind[block], end - w->run_end + 1);
  return n;
}

guint
chrono_track_index_walk_row (ChronoTrackIndex  *self,
                             guint              row,
                             ChronoViewport    *viewport,
                             double             min_width_px,
                             ChronoRowItemFunc  func,
                             gpointer           user_data)
{
  Walk w = { 0 };
  guint32 p, stop;

  g_return_val_if_fail (CHRONO_IS_TRACK_INDEX (self), 0);
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (viewport), 0);
  g_return_val_if_fail (row < self->n_rows, 0);
  g_return_val_if_fail (func != NULL, 0);

  w.self = self;
  w.row = &self->rows[row];
  w.order = self->order + w.row->first;
  w.bounds = self->bounds + 2 * (gsize) w.row->first;
  w.kinds = self->kinds + w.row->first;
  _chrono_viewport_get_time_map (viewport, &w.map);
  w.width = chrono_viewport_get_width_px (viewport);
  w.min_width = min_width_px;
  w.func = func;
  w.user_data = user_data;

  /* A window without width shows nothing. */
  if (w.map.px_per_ns <= 0)
    return 0;

  p = first_visible (&w);
  stop = first_starting_after (&w, w.width);
  while (p < stop)
    {
      double x0 = start_x (&w, p);
      double x1 = end_x (&w, p);

      w.visits++;
      if (x1 < 0)
        {
          /* Only rows with overlapping spans get here. */
          p++;
          continue;
        }
      if (x1 - x0 >= min_width_px)
        {
          ChronoRowItem item = { x0, x1, p, 1, w.order[p], w.kinds[p] };

          flush_run (&w);
          func (&item, user_data);
          p++;
          continue;
        }

      if (w.in_run && chrono_track_index_joins_run (w.run.x1, x0))
        extend_run (&w, 1, w.bounds[2 * p + 1], w.kinds[p], position_weight (&w, p));
      else
        start_run (&w, p, x0, x1);
      p++;

      /* Blocks are for rows without overlaps (see tail_fits()); the rare
       * others go span by span. */
      if (!w.row->overlaps)
        {
          guint32 taken;

          while (p < stop && (taken = swallow_block (&w, p, stop)) > 0)
            p += taken;
        }
    }
  flush_run (&w);
  return w.visits;
}

/* -------------------------------------------------------------------- */
/* Hit testing                                                          */

typedef struct {
  gboolean found;
  guint32  span;
  double   distance;
  gint64   dur;
  guint32  position;
} Hit;

static void
consider (Hit        *hit,
          const Walk *w,
          guint32     p,
          double      x)
{
  double distance = MAX (0.0, MAX (start_x (w, p) - x, x - end_x (w, p)));
  gint64 dur = w->self->track->dur[w->order[p]];

  if (distance > CHRONO_TRACK_INDEX_HIT_SLOP_PX)
    return;
  if (hit->found
      && (distance > hit->distance
          || (distance == hit->distance
              && (dur < hit->dur || (dur == hit->dur && p > hit->position)))))
    return;
  hit->found = TRUE;
  hit->span = w->order[p];
  hit->distance = distance;
  hit->dur = dur;
  hit->position = p;
}

gboolean
chrono_track_index_hit_test (ChronoTrackIndex *self,
                             ChronoViewport   *viewport,
                             double            row_height,
                             double            x,
                             double            y,
                             guint32          *span)
{
  Walk w = { 0 };
  Hit hit = { 0 };
  double row;
  guint32 after;

  g_return_val_if_fail (CHRONO_IS_TRACK_INDEX (self), FALSE);
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (viewport), FALSE);
  g_return_val_if_fail (row_height > 0, FALSE);

  row = floor (y / row_height);
  if (!(row >= 0 && row < self->n_rows))
    return FALSE;

  w.self = self;
  w.row = &self->rows[(guint) row];
  w.order = self->order + w.row->first;
  w.bounds = self->bounds + 2 * (gsize) w.row->first;
  _chrono_viewport_get_time_map (viewport, &w.map);
  if (w.map.px_per_ns <= 0)
    return FALSE;

  /* Spans starting after x, nearest first; then those starting by x,
   * which in a row without overlaps end in start order too. */
  after = first_starting_after (&w, x);
  for (guint32 p = after; p < w.row->n_spans; p++)
    {
      if (start_x (&w, p) - x > CHRONO_TRACK_INDEX_HIT_SLOP_PX)
        break;
      consider (&hit, &w, p, x);
    }
  for (guint32 p = after; p-- > 0; )
    {
      if (!w.row->overlaps && x - end_x (&w, p) > CHRONO_TRACK_INDEX_HIT_SLOP_PX)
        break;
      consider (&hit, &w, p, x);
    }

  if (hit.found && span != NULL)
    *span = hit.span;
  return hit.found;
}

gboolean
chrono_track_index_get_value_range (ChronoTrackIndex *self,
                                    double           *min,
                                    double           *max)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_INDEX (self), FALSE);

  if (min != NULL)
    *min = self->value_min;
  if (max != NULL)
    *max = self->value_max;
  return self->has_values;
}

gsize
chrono_track_index_get_memory_size (ChronoTrackIndex *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_INDEX (self), 0);

  return sizeof *self
       + sizeof (Row) * self->n_rows
       + sizeof (guint32) * self->track->n_lanes
       + (sizeof (guint32) + 2 * sizeof (gint64) + sizeof (guint8)) * self->track->n_spans
       + sizeof (guint32) * self->n_level_entries
       + (sizeof (gint64) + sizeof (guint8)) * self->n_blocks;
}
