/* chrono-track-builder.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <sys/mman.h>

#include "chrono-kineto.h"
#include "chrono-track-builder.h"

/* Pathological inputs (thousands of partly overlapping spans) must not
 * make layout quadratic: past this many lanes, spans share the last one. */
#define MAX_LANES 1024
#define PARALLEL_MIN_ITEMS 50000
#define MAX_DEPTH G_MAXUINT16

guint
chrono_track_key_hash (gconstpointer key)
{
  const ChronoTrackKey *k = key;
  guint64 h = ((guint64) k->process << 8) ^ k->type ^ ((guint64) k->tid.is_string << 7);

  h ^= (guint64) k->tid.value * 0x9e3779b97f4a7c15ull;
  return (guint) (h ^ (h >> 32));
}

gboolean
chrono_track_key_equal (gconstpointer a,
                        gconstpointer b)
{
  const ChronoTrackKey *x = a;
  const ChronoTrackKey *y = b;

  return x->process == y->process && x->type == y->type &&
         x->tid.value == y->tid.value && x->tid.is_string == y->tid.is_string;
}

ChronoTrackBuilder *
chrono_track_builder_new (const ChronoTrackKey *key,
                          ChronoId              pid)
{
  ChronoTrackBuilder *self = g_new0 (ChronoTrackBuilder, 1);

  self->key = *key;
  self->pid = pid;
  self->track.type = key->type;
  self->track.process = key->process;
  self->track.tid = key->tid;
  return self;
}

void
chrono_track_builder_free (ChronoTrackBuilder *self)
{
  if (self == NULL)
    return;
  g_free (self->dur);
  g_free (self->name_id);
  g_free (self->cat);
  g_free (self->args_off);
  g_free (self->correlation);
  g_free (self->inst_name);
  g_free (self->inst_cat);
  g_free (self->inst_args_off);
  chrono_track_clear (&self->track);
  if (self->marks)
    g_array_unref (self->marks);
  g_free (self->new_index);
  g_free (self);
}

/* Doubling: every growth copies the columns, so grow rarely. The final
 * size is trimmed when the track is taken. */
static guint32
grow_capacity (guint32 cap)
{
  if (cap < 16)
    return 16;
  return cap <= G_MAXUINT32 / 2 ? cap * 2 : G_MAXUINT32;
}

/* Columns from this size ask for transparent huge pages: one fault makes
 * 2 MiB ready where 4 KiB pages take 512, and growing a column this large
 * moves its mapping (mremap) with the hint. Smaller ones would round up. */
#define HUGE_COLUMN ((gsize) 8 << 20)
#define HUGE_PAGE   ((guintptr) 2 << 20)

static gpointer
renew_column (gpointer p,
              gsize    bytes)
{
  p = g_realloc (p, bytes);
#ifdef MADV_HUGEPAGE
  if (bytes >= HUGE_COLUMN)
    {
      guintptr start = ((guintptr) p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
      guintptr end = ((guintptr) p + bytes) & ~(HUGE_PAGE - 1);

      madvise ((void *) start, end - start, MADV_HUGEPAGE);
    }
#endif
  return p;
}

#define RENEW_COLUMN(type, p, n) ((type *) renew_column ((p), sizeof (type) * (gsize) (n)))

guint32
chrono_track_builder_add_span (ChronoTrackBuilder *self,
                               gint64              start,
                               gint64              dur,
                               guint32             name,
                               guint32             cat,
                               guint64             args_off,
                               guint8              kind,
                               guint8              flags)
{
  ChronoTrack *t = &self->track;
  guint32 i = t->n_spans;

  if (G_UNLIKELY (i == self->cap_spans))
    {
      guint32 cap = grow_capacity (self->cap_spans);

      t->start = RENEW_COLUMN (gint64, t->start, cap);
      self->dur = RENEW_COLUMN (gint64, self->dur, cap);
      self->name_id = RENEW_COLUMN (guint32, self->name_id, cap);
      self->cat = RENEW_COLUMN (guint32, self->cat, cap);
      self->args_off = RENEW_COLUMN (guint64, self->args_off, cap);
      t->kind = RENEW_COLUMN (guint8, t->kind, cap);
      t->flags = RENEW_COLUMN (guint8, t->flags, cap);
      if (self->correlation)
        self->correlation = RENEW_COLUMN (gint64, self->correlation, cap);
      self->cap_spans = cap;
    }
  t->start[i] = start;
  self->dur[i] = dur;
  self->name_id[i] = name;
  self->cat[i] = cat;
  self->args_off[i] = args_off;
  t->kind[i] = kind;
  t->flags[i] = flags;
  if (self->correlation)
    self->correlation[i] = -1;
  t->n_spans = i + 1;
  return i;
}

void
chrono_track_builder_set_correlation (ChronoTrackBuilder *self,
                                      guint32             index,
                                      gint64              value)
{
  /* A side column: only tracks with launches or GPU work have one. */
  if (self->correlation == NULL)
    {
      self->correlation = g_new (gint64, self->cap_spans);
      for (guint32 i = 0; i < self->track.n_spans; i++)
        self->correlation[i] = -1;
    }
  self->correlation[index] = value;
}

void
chrono_track_builder_add_mark (ChronoTrackBuilder *self,
                               const ChronoMark   *mark)
{
  if (self->marks == NULL)
    self->marks = g_array_new (FALSE, FALSE, sizeof (ChronoMark));
  g_array_append_val (self->marks, *mark);
}

void
chrono_track_builder_add_instant (ChronoTrackBuilder *self,
                                  gint64              ts,
                                  guint32             name,
                                  guint32             cat,
                                  guint64             args_off)
{
  ChronoTrack *t = &self->track;
  guint32 i = t->n_instants;

  if (G_UNLIKELY (i == self->cap_instants))
    {
      guint32 cap = grow_capacity (self->cap_instants);

      t->inst_ts = RENEW_COLUMN (gint64, t->inst_ts, cap);
      self->inst_name = RENEW_COLUMN (guint32, self->inst_name, cap);
      self->inst_cat = RENEW_COLUMN (guint32, self->inst_cat, cap);
      self->inst_args_off = RENEW_COLUMN (guint64, self->inst_args_off, cap);
      self->cap_instants = cap;
    }
  t->inst_ts[i] = ts;
  self->inst_name[i] = name;
  self->inst_cat[i] = cat;
  self->inst_args_off[i] = args_off;
  t->n_instants = i + 1;
}

void
chrono_track_builder_add_sample (ChronoTrackBuilder *self,
                                 gint64              ts,
                                 gdouble             value)
{
  ChronoTrack *t = &self->track;
  guint32 i = t->n_samples;

  if (G_UNLIKELY (i == self->cap_samples))
    {
      guint32 cap = grow_capacity (self->cap_samples);

      t->sample_ts = RENEW_COLUMN (gint64, t->sample_ts, cap);
      t->sample_value = RENEW_COLUMN (gdouble, t->sample_value, cap);
      self->cap_samples = cap;
    }
  t->sample_ts[i] = ts;
  t->sample_value[i] = value;
  t->n_samples = i + 1;
}

/* The columns of SELF, which it keeps for nothing but its key after an
 * append. */
static void
release_columns (ChronoTrackBuilder *self)
{
  ChronoTrack *t = &self->track;

  g_clear_pointer (&self->dur, g_free);
  g_clear_pointer (&self->name_id, g_free);
  g_clear_pointer (&self->cat, g_free);
  g_clear_pointer (&self->args_off, g_free);
  g_clear_pointer (&self->correlation, g_free);
  g_clear_pointer (&self->inst_name, g_free);
  g_clear_pointer (&self->inst_cat, g_free);
  g_clear_pointer (&self->inst_args_off, g_free);
  g_clear_pointer (&self->marks, g_array_unref);
  chrono_track_clear (t);
  /* What names the track stays; its contents go. */
  *t = (ChronoTrack) { .type = t->type, .process = t->process, .tid = t->tid, .name = t->name,
                       .display_name = t->display_name, .sort_index = t->sort_index,
                       .has_sort_index = t->has_sort_index };
  self->cap_spans = self->cap_instants = self->cap_samples = 0;
}

void
chrono_track_builder_append (ChronoTrackBuilder *self,
                             ChronoTrackBuilder *src,
                             const guint32      *strings,
                             guint32             v2_offset)
{
  const ChronoTrack *t = &src->track;

  self->merge_offset = self->track.n_spans;
  for (guint32 i = 0; i < t->n_spans; i++)
    {
      guint32 index = chrono_track_builder_add_span (self, t->start[i], src->dur[i],
                                                     strings[src->name_id[i]], strings[src->cat[i]],
                                                     src->args_off[i], t->kind[i], t->flags[i]);
      if (src->correlation && src->correlation[i] >= 0)
        chrono_track_builder_set_correlation (self, index, src->correlation[i]);
    }
  for (guint32 i = 0; i < t->n_instants; i++)
    chrono_track_builder_add_instant (self, t->inst_ts[i], strings[src->inst_name[i]], strings[src->inst_cat[i]],
                                      src->inst_args_off[i]);
  for (guint32 i = 0; i < t->n_samples; i++)
    chrono_track_builder_add_sample (self, t->sample_ts[i], t->sample_value[i]);
  for (guint i = 0; src->marks != NULL && i < src->marks->len; i++)
    {
      ChronoMark mark = g_array_index (src->marks, ChronoMark, i);

      mark.name = strings[mark.name];
      mark.cat = strings[mark.cat];
      if (mark.bind != G_MAXUINT32)
        mark.bind += v2_offset;
      chrono_track_builder_add_mark (self, &mark);
    }
  self->device_votes += src->device_votes;
  self->host_votes += src->host_votes;
  /* Later metadata wins, as in one pass. */
  if (t->name != CHRONO_NO_STRING)
    self->track.name = strings[t->name];
  if (t->has_sort_index)
    {
      self->track.sort_index = t->sort_index;
      self->track.has_sort_index = TRUE;
    }
  /* Freed track by track, not with the whole half: two copies of a
   * large trace's columns would otherwise be the peak of its load. */
  release_columns (src);
}

/* -------------------------------------------------------------------- */
/* Sorting                                                              */

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

/* The sorted order, or NULL when the data is in order already. */
static guint32 *
sort_order (const gint64 *k1,
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
  g_autofree guint32 *order = sort_order (t->start, b->dur, n);
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
  g_autofree guint32 *order = sort_order (t->inst_ts, NULL, n);
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
  g_autofree guint32 *order = sort_order (t->sample_ts, NULL, n);
  g_autofree guint64 *scratch = NULL;

  if (order == NULL)
    return;
  scratch = g_new (guint64, n);
  PERMUTE (gint64, t->sample_ts, order, n, scratch);
  PERMUTE (gdouble, t->sample_value, order, n, scratch);
}

/* -------------------------------------------------------------------- */
/* B/E pairing, nesting and lanes                                       */

/* Gives the bind FIRST, and the binds after it of the same slice, their
 * span. */
static void
set_bind_span (GArray  *v2_binds,
               guint32  first,
               guint32  span)
{
  g_array_index (v2_binds, ChronoV2Bind, first).span = span;
  for (guint32 i = first + 1;
       i < v2_binds->len && g_array_index (v2_binds, ChronoV2Bind, i).span == CHRONO_BIND_SAME_SPAN; i++)
    g_array_index (v2_binds, ChronoV2Bind, i).span = span;
}

static guint64
pair_marks (ChronoTrace        *trace,
            ChronoTrackBuilder *b,
            GArray             *v2_binds)
{
  ChronoMark *marks = (ChronoMark *) b->marks->data;
  guint32 n = b->marks->len;
  g_autofree gint64 *ts = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *begin_first = g_new (gint64, MAX (n, 1));
  g_autofree guint32 *order = NULL;
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint64 stray = 0;

  /* At equal times an E closes before a B opens. */
  for (guint32 i = 0; i < n; i++)
    {
      ts[i] = marks[i].ts;
      begin_first[i] = marks[i].is_end ? 1 : 0;
    }
  order = sort_order (ts, begin_first, n);

  for (guint32 k = 0; k < n; k++)
    {
      ChronoMark *m = &marks[order ? order[k] : k];

      if (!m->is_end)
        {
          guint32 id = k;
          g_array_append_val (stack, id);
          continue;
        }
      if (stack->len == 0)
        {
          stray++;
          continue;
        }
      {
        guint32 top = g_array_index (stack, guint32, stack->len - 1);
        ChronoMark *open = &marks[order ? order[top] : top];
        gboolean on_device;
        guint8 kind;
        guint32 index;
        const char *cat = chrono_string_table_get (trace->strings, open->cat);
        const char *name = chrono_string_table_get (trace->strings, open->name);

        g_array_set_size (stack, stack->len - 1);
        kind = chrono_kineto_classify (cat, strlen (cat), name, strlen (name), &on_device);
        /* The E's args merge into the slice: keep whichever has some. */
        index = chrono_track_builder_add_span (b, open->ts, m->ts - open->ts, open->name, open->cat,
                                               open->args_off != CHRONO_NO_ARGS ? open->args_off : m->args_off,
                                               kind, 0);
        if (on_device)
          b->device_votes++;
        else
          b->host_votes++;
        if (open->bind != G_MAXUINT32)
          set_bind_span (v2_binds, open->bind, index);
      }
    }

  /* Slices still open run to the end of the trace. */
  for (guint32 s = 0; s < stack->len; s++)
    {
      guint32 k = g_array_index (stack, guint32, s);
      ChronoMark *open = &marks[order ? order[k] : k];
      const char *cat = chrono_string_table_get (trace->strings, open->cat);
      const char *name = chrono_string_table_get (trace->strings, open->name);
      gboolean on_device;
      guint8 kind = chrono_kineto_classify (cat, strlen (cat), name, strlen (name), &on_device);
      guint32 index = chrono_track_builder_add_span (b, open->ts, -1, open->name, open->cat,
                                                     open->args_off, kind, 0);

      if (open->bind != G_MAXUINT32)
        set_bind_span (v2_binds, open->bind, index);
    }

  g_clear_pointer (&b->marks, g_array_unref);
  return stray;
}

static void
lay_out (ChronoTrackBuilder *b)
{
  ChronoTrack *t = &b->track;
  guint32 n = t->n_spans;
  GArray *lanes[MAX_LANES];
  guint n_lanes = 0;
  guint16 max_depth = 0;

  t->depth = g_new (guint16, MAX (n, 1));
  t->lane = g_new (guint16, MAX (n, 1));

  for (guint32 i = 0; i < n; i++)
    {
      gint64 start = t->start[i];
      gint64 end = start + b->dur[i];
      guint lane;

      for (lane = 0; ; lane++)
        {
          GArray *stack;
          gint64 *ends;

          if (lane == n_lanes)
            lanes[n_lanes++] = g_array_new (FALSE, FALSE, sizeof (gint64));
          stack = lanes[lane];
          ends = (gint64 *) stack->data;
          while (stack->len > 0 && ends[stack->len - 1] <= start)
            g_array_set_size (stack, stack->len - 1);
          if (stack->len == 0 || ends[stack->len - 1] >= end || lane == MAX_LANES - 1)
            break;
        }

      {
        GArray *stack = lanes[lane];
        guint depth = MIN (stack->len, MAX_DEPTH);

        g_array_append_val (stack, end);
        t->depth[i] = depth;
        t->lane[i] = lane;
        max_depth = MAX (max_depth, depth);
      }
    }

  for (guint l = 0; l < n_lanes; l++)
    g_array_unref (lanes[l]);
  t->n_lanes = MAX (n_lanes, n > 0 ? 1 : 0);
  t->max_depth = max_depth;
}

/* -------------------------------------------------------------------- */
/* Binding flows to spans                                               */

#define REF_UNBOUND G_MAXUINT32   /* an event bound to no span */

/* The deepest span enclosing TS, given LAST, the last span starting at or
 * before TS: walking back from it, only shallower spans can still be
 * ancestors. */
static gint64
find_enclosing (const ChronoTrackBuilder *b,
                gint64                    ts,
                gint64                    last)
{
  const ChronoTrack *t = &b->track;
  guint min_depth = G_MAXUINT;

  for (gint64 i = last; i >= 0; i--)
    {
      if (t->lane[i] != 0)
        {
          if (chrono_track_get_end (t, i) >= ts)
            return i;
          continue;
        }
      if (t->depth[i] >= min_depth)
        continue;
      if (chrono_track_get_end (t, i) >= ts)
        return i;
      min_depth = t->depth[i];
      if (min_depth == 0)
        break;
    }
  return -1;
}

/* Binds each flow event to a span of its track. Events are visited track
 * by track in time order, so one cursor per track walks the spans forward
 * instead of a binary search per event: a million flows of a large trace
 * would otherwise spend most of their time in cache misses. */
static void
bind_flow_events (const ChronoFlowEvent *ev,
                  const guint32         *order,
                  guint32                n,
                  guint                  n_tracks,
                  GPtrArray             *builders,
                  ChronoSpanRef         *refs)
{
  g_autofree guint32 *first = g_new0 (guint32, n_tracks + 1);
  g_autofree guint32 *by_track = g_new (guint32, MAX (n, 1));
  g_autofree const ChronoTrackBuilder **tracks = g_new0 (const ChronoTrackBuilder *, MAX (n_tracks, 1));

  for (guint i = 0; i < builders->len; i++)
    {
      const ChronoTrackBuilder *b = g_ptr_array_index (builders, i);
      if (b->final_index != G_MAXUINT32)
        tracks[b->final_index] = b;
    }
  for (guint32 k = 0; k < n; k++)
    {
      guint32 t = ev[k].track->final_index;
      if (t != G_MAXUINT32)
        first[t + 1]++;
      refs[k] = (ChronoSpanRef) { REF_UNBOUND, 0 };
    }
  for (guint t = 0; t < n_tracks; t++)
    first[t + 1] += first[t];
  {
    g_autofree guint32 *fill = g_memdup2 (first, (n_tracks + 1) * sizeof *first);

    for (guint32 k = 0; k < n; k++)
      {
        guint32 e = order ? order[k] : k;
        guint32 t = ev[e].track->final_index;
        if (t != G_MAXUINT32)
          by_track[fill[t]++] = e;
      }
  }

  for (guint t = 0; t < n_tracks; t++)
    {
      const ChronoTrack *track = &tracks[t]->track;
      guint32 at_or_before = 0;   /* spans starting at or before the event */
      guint32 before = 0;         /* spans starting before it */

      for (guint32 j = first[t]; j < first[t + 1]; j++)
        {
          const ChronoFlowEvent *f = &ev[by_track[j]];
          gint64 i;

          while (at_or_before < track->n_spans && track->start[at_or_before] <= f->ts)
            at_or_before++;
          while (before < track->n_spans && track->start[before] < f->ts)
            before++;
          if (f->enclosing)
            i = find_enclosing (tracks[t], f->ts, (gint64) at_or_before - 1);
          else
            i = before < track->n_spans ? (gint64) before : -1;
          if (i >= 0)
            refs[by_track[j]] = (ChronoSpanRef) { t, (guint32) i };
        }
    }
}

static void
add_flow (GArray         *flows,
          ChronoSpanRef   from,
          ChronoSpanRef   to,
          ChronoFlowType  type)
{
  ChronoFlow flow = { from, to, type };
  g_array_append_val (flows, flow);
}

/* 64-bit key -> span, open addressing. Flows and launches come by the
 * million; GHashTable's allocation per entry shows there. */
typedef struct {
  guint64       *keys;
  ChronoSpanRef *refs;
  guint8        *used;
  guint64        mask;
} RefMap;


static void
ref_map_init (RefMap  *map,
              guint64  n)
{
  guint64 size = 16;

  while (size < 2 * n)
    size *= 2;
  map->mask = size - 1;
  map->keys = g_new (guint64, size);
  map->refs = g_new (ChronoSpanRef, size);
  map->used = g_new0 (guint8, size);
}

static void
ref_map_clear (RefMap *map)
{
  g_free (map->keys);
  g_free (map->refs);
  g_free (map->used);
}

/* The entry for KEY; with CREATE, a new one (its ref unset) if absent. */
static ChronoSpanRef *
ref_map_find (RefMap   *map,
              guint64   key,
              gboolean  create)
{
  guint64 i = (key * 0x9e3779b97f4a7c15ull >> 17) & map->mask;

  while (map->used[i])
    {
      if (map->keys[i] == key)
        return &map->refs[i];
      i = (i + 1) & map->mask;
    }
  if (!create)
    return NULL;
  map->used[i] = 1;
  map->keys[i] = key;
  map->refs[i] = (ChronoSpanRef) { REF_UNBOUND, 0 };
  return &map->refs[i];
}

/* Links s/t/f chains; returns the events left without a partner, and
 * counts in *NO_START those of them that are ends on a slice of an id that
 * never started: Kineto writes one on every runtime call, also those that
 * launch nothing. */
static guint64
bind_v1_flows (GArray    *events,
               guint      n_tracks,
               GPtrArray *builders,
               GArray    *flows,
               guint64   *no_start)
{
  ChronoFlowEvent *ev = (ChronoFlowEvent *) events->data;
  guint32 n = events->len;
  g_autofree gint64 *ts = g_new (gint64, MAX (n, 1));
  g_autofree ChronoSpanRef *refs = g_new (ChronoSpanRef, MAX (n, 1));
  g_autofree guint32 *order = NULL;
  RefMap open;
  guint64 unmatched = 0;
  guint32 n_keys = 0;

  for (guint32 i = 0; i < n; i++)
    {
      ts[i] = ev[i].ts;
      n_keys += ev[i].ph != 'f';
    }
  order = sort_order (ts, NULL, n);
  bind_flow_events (ev, order, n, n_tracks, builders, refs);
  /* Only an 's' or a 't' adds a key: the map is sized for those. */
  ref_map_init (&open, n_keys);

  for (guint32 k = 0; k < n; k++)
    {
      guint32 e = order ? order[k] : k;
      const ChronoFlowEvent *f = &ev[e];
      ChronoSpanRef *last = ref_map_find (&open, f->key, f->ph != 'f');

      if (f->ph != 's')
        {
          if (last == NULL)
            {
              /* Only an 'f' looks without making: an end of an id that
               * never started. */
              unmatched++;
              if (refs[e].track != REF_UNBOUND)
                (*no_start)++;
            }
          else if (last->track == REF_UNBOUND || refs[e].track == REF_UNBOUND)
            unmatched++;
          else
            add_flow (flows, *last, refs[e], CHRONO_FLOW_V1);
        }
      /* An 'f' keeps the flow open: one launch of a CUDA graph fans out
       * to many kernels with the same id. */
      if (f->ph != 'f')
        *last = refs[e];
    }
  ref_map_clear (&open);
  return unmatched;
}

static void
bind_v2_flows (GArray *binds,
               GArray *flows)
{
  ChronoV2Bind *bv = (ChronoV2Bind *) binds->data;
  guint32 n = binds->len;
  g_autofree gint64 *ts = g_new (gint64, MAX (n, 1));
  g_autofree guint32 *order = NULL;
  RefMap open;

  for (guint32 i = 0; i < n; i++)
    ts[i] = bv[i].ts;
  order = sort_order (ts, NULL, n);
  ref_map_init (&open, n);

  for (guint32 k = 0; k < n; k++)
    {
      ChronoV2Bind *b = &bv[order ? order[k] : k];
      ChronoSpanRef ref;
      ChronoSpanRef *last;

      if (b->track->final_index == G_MAXUINT32 || b->span >= CHRONO_BIND_SAME_SPAN)
        continue;
      ref.track = b->track->final_index;
      ref.index = b->track->new_index ? b->track->new_index[b->span] : b->span;
      last = ref_map_find (&open, b->key, b->out);
      if (b->in && last != NULL && last->track != REF_UNBOUND)
        add_flow (flows, *last, ref, CHRONO_FLOW_V2);
      /* A flow_in without flow_out ends the flow. */
      if (last != NULL)
        *last = b->out ? ref : (ChronoSpanRef) { REF_UNBOUND, 0 };
    }
  ref_map_clear (&open);
}

/* A runtime call and the GPU work it launched share a correlation id. */
static inline gboolean
is_launch (const ChronoTrack *t,
           guint32            i,
           gint64             correlation)
{
  return correlation >= 0 && (t->kind[i] == CHRONO_KIND_RUNTIME || t->kind[i] == CHRONO_KIND_DRIVER);
}

/* The tracks of TYPE that have correlations and became rows. */
static inline gboolean
has_correlations (const ChronoTrackBuilder *b,
                  ChronoTrackType           type)
{
  return b->final_index != G_MAXUINT32 && b->track.correlation.data != NULL && b->track.type == type;
}

static void
link_launches (GPtrArray *builders,
               GArray    *flows)
{
  RefMap launches;
  guint64 n = 0;

  /* Sized for the launches alone: most host spans with a correlation do
   * not launch, and the map is the largest thing a load holds then. */
  for (guint bi = 0; bi < builders->len; bi++)
    {
      const ChronoTrackBuilder *b = g_ptr_array_index (builders, bi);
      const ChronoTrack *t = &b->track;

      if (has_correlations (b, CHRONO_TRACK_THREAD))
        CHRONO_INT_COLUMN_FOREACH (&t->correlation, t->n_spans, i, correlation,
                                   n += is_launch (t, i, correlation););
    }
  ref_map_init (&launches, n);

  for (guint bi = 0; bi < builders->len; bi++)
    {
      const ChronoTrackBuilder *b = g_ptr_array_index (builders, bi);
      const ChronoTrack *t = &b->track;

      if (!has_correlations (b, CHRONO_TRACK_THREAD))
        continue;
      CHRONO_INT_COLUMN_FOREACH (&t->correlation, t->n_spans, i, correlation,
        if (is_launch (t, i, correlation))
          {
            /* The first launch with an id wins. */
            ChronoSpanRef *ref = ref_map_find (&launches, (guint64) correlation, FALSE);
            if (ref == NULL)
              *ref_map_find (&launches, (guint64) correlation, TRUE) = (ChronoSpanRef) { b->final_index, i };
          });
    }

  for (guint bi = 0; bi < builders->len; bi++)
    {
      const ChronoTrackBuilder *b = g_ptr_array_index (builders, bi);
      const ChronoTrack *t = &b->track;

      if (!has_correlations (b, CHRONO_TRACK_STREAM))
        continue;
      CHRONO_INT_COLUMN_FOREACH (&t->correlation, t->n_spans, i, correlation,
        const ChronoSpanRef *from = correlation >= 0 ? ref_map_find (&launches, (guint64) correlation, FALSE) : NULL;

        if (from != NULL)
          add_flow (flows, *from, (ChronoSpanRef) { b->final_index, i }, CHRONO_FLOW_LAUNCH););
    }
  ref_map_clear (&launches);
}

/* Edges the importer made itself, from span indices at add time. */
static void
add_span_edges (ChronoTrace *trace,
                GArray      *edges)
{
  for (guint i = 0; i < edges->len; i++)
    {
      const ChronoSpanEdge *e = &g_array_index (edges, ChronoSpanEdge, i);
      ChronoSpanRef from, to;

      if (e->from->final_index == G_MAXUINT32 || e->to->final_index == G_MAXUINT32)
        continue;
      from.track = e->from->final_index;
      from.index = e->from->new_index ? e->from->new_index[e->from_span] : e->from_span;
      to.track = e->to->final_index;
      to.index = e->to->new_index ? e->to->new_index[e->to_span] : e->to_span;
      add_flow (trace->flows, from, to, e->type);
      trace->stats.dependencies++;
    }
}

/* -------------------------------------------------------------------- */
/* Names                                                                */

static guint32
intern_printf (ChronoTrace *trace,
               const char  *format,
               ...) G_GNUC_PRINTF (2, 3);

static guint32
intern_printf (ChronoTrace *trace,
               const char  *format,
               ...)
{
  g_autofree char *s = NULL;
  va_list args;

  va_start (args, format);
  s = g_strdup_vprintf (format, args);
  va_end (args);
  return chrono_string_table_intern (trace->strings, s, strlen (s));
}

static char *
id_to_string (ChronoTrace *trace,
              ChronoId     id)
{
  if (id.is_string)
    return g_strdup (chrono_string_table_get (trace->strings, (guint32) id.value));
  return g_strdup_printf ("%" G_GINT64_FORMAT, id.value);
}

static void
name_processes (ChronoTrace *trace)
{
  for (guint i = 0; i < trace->processes->len; i++)
    {
      ChronoProcess *p = &g_array_index (trace->processes, ChronoProcess, i);
      const char *labels = chrono_string_table_get (trace->strings, p->labels);
      const char *name = chrono_string_table_get (trace->strings, p->name);
      g_autofree char *pid = id_to_string (trace, p->pid);
      gint device = chrono_kineto_device_from_label (labels);

      if (device >= 0)
        {
          p->is_device = TRUE;
          p->device_index = device;
        }
      if (p->is_device && *labels)
        p->display_name = chrono_string_table_intern (trace->strings, labels, strlen (labels));
      else if (p->is_device)
        p->display_name = intern_printf (trace, "Device %s", pid);
      else if (p->pid.is_string)
        p->display_name = chrono_string_table_intern (trace->strings, *name ? name : pid,
                                                      strlen (*name ? name : pid));
      else if (*name && trace->rank >= 0)
        p->display_name = intern_printf (trace, "Rank %d · %s (%s)", trace->rank, name, pid);
      else if (*name)
        p->display_name = intern_printf (trace, "%s (%s)", name, pid);
      else if (trace->rank >= 0)
        p->display_name = intern_printf (trace, "Rank %d · process %s", trace->rank, pid);
      else
        p->display_name = intern_printf (trace, "Process %s", pid);
    }
}

static void
name_track (ChronoTrace *trace,
            ChronoTrack *t)
{
  g_autofree char *tid = id_to_string (trace, t->tid);
  g_autofree char *name = g_strstrip (g_strdup (chrono_string_table_get (trace->strings, t->name)));

  switch (t->type)
    {
    case CHRONO_TRACK_STREAM:
      if (*name)
        t->display_name = chrono_string_table_intern (trace->strings, name, strlen (name));
      /* Older Kineto writes the tid as "stream 7" already. */
      else if (g_ascii_strncasecmp (tid, "stream ", 7) == 0)
        t->display_name = chrono_string_table_intern (trace->strings, tid, strlen (tid));
      else
        t->display_name = intern_printf (trace, "stream %s", tid);
      break;
    case CHRONO_TRACK_THREAD:
      if (*name)
        t->display_name = chrono_string_table_intern (trace->strings, name, strlen (name));
      /* Kineto writes some threads by their pthread id cut to 32 bits,
       * which JSON carries signed: shown as the unsigned id it is. */
      else if (g_strcmp0 (trace->format, "kineto") == 0 && !t->tid.is_string && t->tid.value < 0 &&
               t->tid.value >= G_MININT32)
        t->display_name = intern_printf (trace, "thread %" G_GUINT32_FORMAT, (guint32) t->tid.value);
      else
        t->display_name = intern_printf (trace, "thread %s", tid);
      break;
    case CHRONO_TRACK_INSTANTS:
      t->display_name = intern_printf (trace, "Instant events");
      break;
    case CHRONO_TRACK_ASYNC:
    case CHRONO_TRACK_COUNTER:
    default:
      /* Named by their id unless the importer gave a name. */
      if (*name)
        t->display_name = chrono_string_table_intern (trace->strings, name, strlen (name));
      else
        t->display_name = chrono_string_table_intern (trace->strings, tid, strlen (tid));
      break;
    }
}

static void
read_distributed_info (ChronoTrace *trace)
{
  g_autoptr(JsonNode) info = chrono_trace_get_metadata (trace, "distributedInfo");
  JsonObject *o;

  if (info == NULL || !JSON_NODE_HOLDS_OBJECT (info))
    return;
  o = json_node_get_object (info);
  if (json_object_has_member (o, "rank"))
    trace->rank = (gint) json_object_get_int_member (o, "rank");
  if (json_object_has_member (o, "world_size"))
    trace->world_size = (gint) json_object_get_int_member (o, "world_size");
}

/* -------------------------------------------------------------------- */
/* Putting it together                                                  */

static void
shift_times (ChronoTrack *t,
             gint64       base)
{
  for (guint32 i = 0; i < t->n_spans; i++)
    t->start[i] += base;
  for (guint32 i = 0; i < t->n_instants; i++)
    t->inst_ts[i] += base;
  for (guint32 i = 0; i < t->n_samples; i++)
    t->sample_ts[i] += base;
}

#define SHRINK(type, column, n)                          \
  G_STMT_START {                                         \
    if ((column) != NULL)                                \
      (column) = g_renew (type, (column), MAX ((n), 1)); \
  } G_STMT_END

/* Makes the model's columns from the full-width ones, each freed as soon
 * as its narrow copy exists: done per track as soon as it is laid out, so
 * that binding flows, the most a load holds at once, runs beside the
 * narrow columns only. */
static void
narrow_columns (ChronoTrackBuilder *b)
{
  ChronoTrack *t = &b->track;

  SHRINK (gint64, t->start, t->n_spans);
  SHRINK (guint8, t->kind, t->n_spans);
  SHRINK (guint8, t->flags, t->n_spans);
  SHRINK (gint64, t->inst_ts, t->n_instants);
  /* Most values fit in 16 or 32 bits from the track's smallest. */
  chrono_int_column_take (&t->dur, g_steal_pointer (&b->dur), t->n_spans);
  chrono_int_column_take_ids (&t->name_id, g_steal_pointer (&b->name_id), t->n_spans);
  chrono_int_column_take_ids (&t->cat_id, g_steal_pointer (&b->cat), t->n_spans);
  chrono_int_column_take (&t->args_off, (gint64 *) g_steal_pointer (&b->args_off), t->n_spans);
  chrono_int_column_take (&t->correlation, g_steal_pointer (&b->correlation), t->n_spans);
  chrono_int_column_take_ids (&t->inst_name, g_steal_pointer (&b->inst_name), t->n_instants);
  chrono_int_column_take_ids (&t->inst_cat, g_steal_pointer (&b->inst_cat), t->n_instants);
  chrono_int_column_take (&t->inst_args_off, (gint64 *) g_steal_pointer (&b->inst_args_off), t->n_instants);
  SHRINK (gint64, t->sample_ts, t->n_samples);
  SHRINK (gdouble, t->sample_value, t->n_samples);
}

static ChronoTrack *
take_track (ChronoTrackBuilder *b)
{
  ChronoTrack *t = g_new (ChronoTrack, 1);

  *t = b->track;
  memset (&b->track, 0, sizeof b->track);
  return t;
}

/* The finishing passes run on two threads: tracks are independent of each
 * other, and so are flows and launches. */

typedef struct {
  ChronoTrace *trace;
  GPtrArray   *builders;   /* this thread's share */
  GArray      *v2_binds;
  gint64       end;
  guint64      stray;
  guint64      unclosed;
} PrepareJob;

static gpointer
prepare_tracks (gpointer data)
{
  PrepareJob *job = data;

  for (guint i = 0; i < job->builders->len; i++)
    {
      ChronoTrackBuilder *b = g_ptr_array_index (job->builders, i);
      ChronoTrack *t = &b->track;

      if (b->marks != NULL)
        job->stray += pair_marks (job->trace, b, job->v2_binds);
      for (guint32 s = 0; s < t->n_spans; s++)
        if (b->dur[s] < 0)
          {
            b->dur[s] = MAX (job->end - t->start[s], 0);
            t->flags[s] |= CHRONO_SPAN_UNCLOSED;
            job->unclosed++;
          }
      sort_spans (b);
      sort_instants (b);
      sort_samples (t);
      lay_out (b);
      narrow_columns (b);
    }
  return NULL;
}

typedef struct {
  ChronoBuildInput *input;
  guint             n_tracks;
  GArray           *v1;
  GArray           *v2;
  GArray           *launches;
  guint64           unmatched;
  guint64           no_start;     /* of those: ends of flows that never started */
} LinkJob;

static gpointer
bind_flows (gpointer data)
{
  LinkJob *job = data;

  job->unmatched = bind_v1_flows (job->input->flow_events, job->n_tracks, job->input->builders, job->v1,
                                  &job->no_start);
  bind_v2_flows (job->input->v2_binds, job->v2);
  return NULL;
}

/* What finishing a track costs, in items to sort and lay out. */
static guint64
builder_work (const ChronoTrackBuilder *b)
{
  return (guint64) b->track.n_spans + b->track.n_instants + b->track.n_samples +
         (b->marks ? b->marks->len : 0);
}

static gint
compare_by_size (gconstpointer a,
                 gconstpointer b)
{
  guint64 sx = builder_work (*(ChronoTrackBuilder * const *) a);
  guint64 sy = builder_work (*(ChronoTrackBuilder * const *) b);

  return sx < sy ? 1 : sx > sy ? -1 : 0;
}

static void
prepare_all_tracks (ChronoTrace      *trace,
                    ChronoBuildInput *input,
                    gint64            end,
                    guint64          *stray,
                    guint64          *unclosed)
{
  g_autoptr(GPtrArray) by_size = g_ptr_array_sized_new (input->builders->len);
  g_autoptr(GPtrArray) share0 = g_ptr_array_new ();
  g_autoptr(GPtrArray) share1 = g_ptr_array_new ();
  PrepareJob jobs[2] = {
    { trace, share0, input->v2_binds, end, 0, 0 },
    { trace, share1, input->v2_binds, end, 0, 0 },
  };
  guint64 load[2] = { 0, 0 };

  /* Largest first, each to the lighter share. The builders stay owned by
   * the input. */
  for (guint i = 0; i < input->builders->len; i++)
    g_ptr_array_add (by_size, g_ptr_array_index (input->builders, i));
  g_ptr_array_sort (by_size, compare_by_size);
  for (guint i = 0; i < by_size->len; i++)
    {
      ChronoTrackBuilder *b = g_ptr_array_index (by_size, i);
      guint k = load[1] < load[0];

      g_ptr_array_add (k ? share1 : share0, b);
      load[k] += builder_work (b) + 1;
    }
  /* Below some work, starting a thread costs more than it saves. */
  if (load[1] >= PARALLEL_MIN_ITEMS)
    {
      GThread *thread = g_thread_new ("chrono-finish", prepare_tracks, &jobs[1]);
      prepare_tracks (&jobs[0]);
      g_thread_join (thread);
    }
  else
    {
      prepare_tracks (&jobs[0]);
      prepare_tracks (&jobs[1]);
    }
  *stray = jobs[0].stray + jobs[1].stray;
  *unclosed = jobs[0].unclosed + jobs[1].unclosed;
}

void
chrono_track_builder_finish_trace (ChronoTrace      *trace,
                                   ChronoBuildInput *input)
{
  GPtrArray *builders = input->builders;
  ChronoLoadStats *stats = &trace->stats;
  gint64 end = input->max_ts;
  gint64 shifted;
  guint64 stray = 0;
  guint64 unclosed = 0;
  g_autofree gboolean *process_has_host = NULL;
  g_autofree gboolean *process_has_stream = NULL;
  g_autoptr(GArray) v1 = g_array_new (FALSE, FALSE, sizeof (ChronoFlow));
  g_autoptr(GArray) v2 = g_array_new (FALSE, FALSE, sizeof (ChronoFlow));
  g_autoptr(GArray) launches = g_array_new (FALSE, FALSE, sizeof (ChronoFlow));
  LinkJob links = { input, 0, v1, v2, launches, 0 };

  read_distributed_info (trace);
  if (input->min_ts > input->max_ts)
    input->min_ts = input->max_ts = end = 0;
  prepare_all_tracks (trace, input, end, &stray, &unclosed);

  /* Tracks with nothing on them (a thread that only has a name, say) are
   * not rows. */
  process_has_host = g_new0 (gboolean, trace->processes->len);
  process_has_stream = g_new0 (gboolean, trace->processes->len);
  for (guint i = 0; i < builders->len; i++)
    {
      ChronoTrackBuilder *b = g_ptr_array_index (builders, i);
      ChronoTrack *t = &b->track;

      if (t->n_spans == 0 && t->n_instants == 0 && t->n_samples == 0)
        {
          b->final_index = G_MAXUINT32;
          continue;
        }
      if (t->type == CHRONO_TRACK_THREAD && b->device_votes > b->host_votes)
        t->type = CHRONO_TRACK_STREAM;
      if (t->type == CHRONO_TRACK_STREAM)
        process_has_stream[t->process] = TRUE;
      else if (t->type == CHRONO_TRACK_THREAD && t->n_spans > 0)
        process_has_host[t->process] = TRUE;
      b->final_index = trace->tracks->len;
      g_ptr_array_add (trace->tracks, NULL);  /* filled when the track is taken */
    }

  /* Flows bind on the relative times, before the base is added. */
  links.n_tracks = trace->tracks->len;
  if (input->flow_events->len + input->v2_binds->len >= PARALLEL_MIN_ITEMS)
    {
      GThread *thread = g_thread_new ("chrono-flows", bind_flows, &links);
      link_launches (builders, launches);
      g_thread_join (thread);
    }
  else
    {
      bind_flows (&links);
      link_launches (builders, launches);
    }
  g_array_append_vals (trace->flows, v1->data, v1->len);
  g_array_append_vals (trace->flows, v2->data, v2->len);
  g_array_append_vals (trace->flows, launches->data, launches->len);
  if (input->edges != NULL)
    add_span_edges (trace, input->edges);
  stats->flows = v1->len + v2->len;
  stats->launch_links = launches->len;
  if (links.no_start > 0)
    chrono_trace_add_quirk (trace, g_dngettext (GETTEXT_PACKAGE,
                                                  "%" G_GUINT64_FORMAT " flow end has no start, so no arrow "
                                                  "(Kineto writes such an end on every runtime call, also on "
                                                  "those that launch nothing)",
                                                  "%" G_GUINT64_FORMAT " flow ends have no start, so no arrow "
                                                  "(Kineto writes such an end on every runtime call, also on "
                                                  "those that launch nothing)", links.no_start),
                              links.no_start);
  if (links.unmatched > links.no_start)
    chrono_trace_add_warning (trace, g_dngettext (GETTEXT_PACKAGE, "%" G_GUINT64_FORMAT " flow event has no partner or no slice to attach to",
                              "%" G_GUINT64_FORMAT " flow events have no partner or no slice to attach to",
                              links.unmatched - links.no_start),
                              links.unmatched - links.no_start);

  /* A base that would carry the times past the 64-bit range does not
   * belong to them: they are absolute already. */
  if (trace->base_time_ns != 0 &&
      (__builtin_add_overflow (input->min_ts, trace->base_time_ns, &shifted) ||
       __builtin_add_overflow (end, trace->base_time_ns, &shifted)))
    {
      chrono_trace_add_quirk (trace, "baseTimeNanoseconds %" G_GINT64_FORMAT " ignored: it would carry the "
                                "times past the 64-bit range", trace->base_time_ns);
      trace->base_time_ns = 0;
    }
  for (guint i = 0; i < builders->len; i++)
    {
      ChronoTrackBuilder *b = g_ptr_array_index (builders, i);

      if (b->final_index == G_MAXUINT32)
        continue;
      if (trace->base_time_ns != 0)
        shift_times (&b->track, trace->base_time_ns);
      trace->tracks->pdata[b->final_index] = take_track (b);
    }

  for (guint p = 0; p < trace->processes->len; p++)
    {
      ChronoProcess *process = &g_array_index (trace->processes, ChronoProcess, p);

      /* Kineto gives GPU rows the device index as pid. */
      if (process_has_stream[p] && !process_has_host[p] && !process->pid.is_string)
        {
          process->is_device = TRUE;
          process->device_index = (gint) process->pid.value;
        }
    }
  name_processes (trace);
  for (guint i = 0; i < trace->tracks->len; i++)
    name_track (trace, g_ptr_array_index (trace->tracks, i));

  trace->start_ns = input->min_ts + trace->base_time_ns;
  trace->end_ns = end + trace->base_time_ns;

  for (guint i = 0; i < trace->tracks->len; i++)
    {
      const ChronoTrack *t = g_ptr_array_index (trace->tracks, i);

      stats->instants += t->n_instants;
      stats->counter_samples += t->n_samples;
      for (guint32 s = 0; s < t->n_spans; s++)
        stats->kinds[t->kind[s]]++;
    }
  stats->async_spans = stats->kinds[CHRONO_KIND_ASYNC];
  for (guint k = 0; k < CHRONO_N_KINDS; k++)
    if (k != CHRONO_KIND_ASYNC)
      stats->spans += stats->kinds[k];
  if (stray > 0)
    {
      stats->dropped += stray;
      chrono_trace_add_warning (trace, g_dngettext (GETTEXT_PACKAGE, "%" G_GUINT64_FORMAT " end event ('E') closes no slice", "%" G_GUINT64_FORMAT " end events ('E') close no slice", stray), stray);
    }
  if (unclosed > 0)
    chrono_trace_add_quirk (trace, g_dngettext (GETTEXT_PACKAGE, "%" G_GUINT64_FORMAT " slice did not end; it runs to the end of the trace",
                              "%" G_GUINT64_FORMAT " slices did not end; they run to the end of the trace", unclosed),
                              unclosed);
}
