/* chrono-area-stats.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-area-stats.h"
#include "chrono-sort.h"

/* Past this many nesting slots a track's self times are its wall times. */
#define MAX_NESTING_SLOTS (1u << 24)
/* Spans between two looks at the cancellable. */
#define CANCEL_STRIDE (1u << 16)
#define NO_GROUP G_MAXUINT32

typedef struct {
  ChronoAreaRow row;
  guint64       first;  /* into the spans, once grouped */
} Group;

typedef struct {
  guint32 group;
  ChronoSpanRef ref;
  gint64  wall;
} Entry;

struct _ChronoAreaStats
{
  GObject            parent_instance;

  ChronoTrace       *trace;
  gint64             start_ns;
  gint64             end_ns;
  ChronoAreaGrouping grouping;
  guint64            n_spans;
  gint64             wall_ns;
  GArray            *groups;    /* Group, most wall time first */
  ChronoSpanRef     *spans;     /* n_spans, by group */
  GArray            *counters;  /* ChronoAreaCounter */
};

G_DEFINE_FINAL_TYPE (ChronoAreaStats, chrono_area_stats, G_TYPE_OBJECT)

static void
chrono_area_stats_finalize (GObject *object)
{
  ChronoAreaStats *self = CHRONO_AREA_STATS (object);

  g_clear_object (&self->trace);
  g_clear_pointer (&self->groups, g_array_unref);
  g_clear_pointer (&self->counters, g_array_unref);
  g_free (self->spans);

  G_OBJECT_CLASS (chrono_area_stats_parent_class)->finalize (object);
}

static void
chrono_area_stats_class_init (ChronoAreaStatsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_area_stats_finalize;
}

static void
chrono_area_stats_init (ChronoAreaStats *self)
{
  self->groups = g_array_new (FALSE, FALSE, sizeof (Group));
  self->counters = g_array_new (FALSE, FALSE, sizeof (ChronoAreaCounter));
}

const char *
chrono_area_grouping_to_string (ChronoAreaGrouping grouping)
{
  switch (grouping)
    {
    case CHRONO_AREA_BY_CATEGORY:
      return "category";
    case CHRONO_AREA_BY_KIND:
      return "kind";
    case CHRONO_AREA_BY_NAME:
    default:
      return "name";
    }
}

static inline gint64
clip (gint64 start,
      gint64 end,
      gint64 area_start,
      gint64 area_end)
{
  return MAX (MIN (end, area_end) - MAX (start, area_start), 0);
}

/* The cut time of the spans nested directly inside each of the first N
 * spans of TRACK, or NULL when its nesting is too wide to follow. */
static gint64 *
children_wall (const ChronoTrack *track,
               guint32            n,
               gint64             area_start,
               gint64             area_end)
{
  gsize depths = (gsize) track->max_depth + 1;
  gsize slots = (gsize) MAX (track->n_lanes, 1) * depths;
  g_autofree guint32 *open = NULL;
  gint64 *children;

  if (slots > MAX_NESTING_SLOTS)
    return NULL;
  open = g_new (guint32, slots);
  children = g_new0 (gint64, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    {
      gsize base = (gsize) track->lane[i] * depths;

      open[base + track->depth[i]] = i;
      if (track->depth[i] > 0)
        children[open[base + track->depth[i] - 1]] +=
          clip (track->start[i], chrono_track_get_end (track, i), area_start, area_end);
    }
  return children;
}

static guint32
label_of (const ChronoTrack  *track,
          guint32             i,
          ChronoAreaGrouping  grouping)
{
  switch (grouping)
    {
    case CHRONO_AREA_BY_CATEGORY:
      return chrono_track_get_cat (track, i);
    case CHRONO_AREA_BY_KIND:
      return track->kind[i];
    case CHRONO_AREA_BY_NAME:
    default:
      return chrono_track_get_name (track, i);
    }
}

typedef struct {
  ChronoAreaStats *self;
  GArray          *entries;   /* Entry */
  guint32         *group_of;  /* label -> group, NO_GROUP when none yet */
  guint32          n_labels;
  gint             track;     /* per track, or -1 */
} Collect;

static guint32
group_for (Collect *c,
           guint32  label)
{
  Group g = { { 0 } };

  if (label >= c->n_labels)
    label = CHRONO_NO_STRING;
  if (c->group_of[label] != NO_GROUP)
    return c->group_of[label];
  g.row.label_id = label;
  g.row.label = c->self->grouping == CHRONO_AREA_BY_KIND
                ? chrono_kind_to_string ((ChronoKind) label)
                : chrono_trace_get_string (c->self->trace, label);
  g.row.track = c->track;
  g.row.min_ns = G_MAXINT64;
  g_array_append_val (c->self->groups, g);
  return c->group_of[label] = c->self->groups->len - 1;
}

static gboolean
collect_spans (Collect           *c,
               guint              t,
               const ChronoTrack *track,
               GCancellable      *cancellable)
{
  gint64 s = c->self->start_ns, e = c->self->end_ns;
  guint32 n = chrono_times_lower_bound (track->start, 0, track->n_spans, e);
  g_autofree gint64 *children = children_wall (track, n, s, e);

  for (guint32 i = 0; i < n; i++)
    {
      gint64 end = chrono_track_get_end (track, i);
      Entry entry;
      Group *g;

      if (i % CANCEL_STRIDE == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
      if (end <= s && !(end == track->start[i] && end == s))
        continue;
      entry.group = group_for (c, label_of (track, i, c->self->grouping));
      entry.ref = (ChronoSpanRef) { t, i };
      entry.wall = clip (track->start[i], end, s, e);
      g = &g_array_index (c->self->groups, Group, entry.group);
      g->row.count++;
      g->row.wall_ns += entry.wall;
      g->row.self_ns += children != NULL ? MAX (entry.wall - children[i], 0) : entry.wall;
      g->row.min_ns = MIN (g->row.min_ns, entry.wall);
      g->row.max_ns = MAX (g->row.max_ns, entry.wall);
      g_array_append_val (c->entries, entry);
    }
  return TRUE;
}

static void
collect_counter (ChronoAreaStats   *self,
                 guint              t,
                 const ChronoTrack *track)
{
  gint64 s = self->start_ns, e = self->end_ns;
  guint32 j = chrono_times_lower_bound (track->sample_ts, 0, track->n_samples, s);
  guint32 first = j > 0 && (j == track->n_samples || track->sample_ts[j] > s) ? j - 1 : j;
  ChronoAreaCounter counter = { .track = t, .min = G_MAXDOUBLE, .max = -G_MAXDOUBLE };
  gdouble sum = 0, weighted = 0;
  gint64 held = 0;

  for (guint32 i = first; i < track->n_samples && track->sample_ts[i] < e; i++)
    {
      gdouble v = track->sample_value[i];
      gint64 until = i + 1 < track->n_samples ? MIN (track->sample_ts[i + 1], e) : e;
      gint64 hold = MAX (until - MAX (track->sample_ts[i], s), 0);

      counter.count++;
      counter.min = MIN (counter.min, v);
      counter.max = MAX (counter.max, v);
      sum += v;
      weighted += v * (gdouble) hold;
      held += hold;
    }
  if (counter.count == 0)
    return;
  counter.label = chrono_trace_get_string (self->trace, chrono_trace_get_track (self->trace, t)->display_name);
  counter.mean = sum / (gdouble) counter.count;
  counter.weighted_mean = held > 0 ? weighted / (gdouble) held : counter.mean;
  g_array_append_val (self->counters, counter);
}

/* Moves the Kth smallest of V[0..N) to V[K], smaller ones before it. */
static void
select_nth (gint64 *v,
            gint64  n,
            gint64  k)
{
  gint64 lo = 0, hi = n - 1;

  while (lo < hi)
    {
      gint64 pivot = v[lo + (hi - lo) / 2];
      gint64 i = lo, j = hi;

      while (i <= j)
        {
          while (v[i] < pivot)
            i++;
          while (v[j] > pivot)
            j--;
          if (i <= j)
            {
              gint64 tmp = v[i];

              v[i++] = v[j];
              v[j--] = tmp;
            }
        }
      if (k <= j)
        hi = j;
      else if (k >= i)
        lo = i;
      else
        return;
    }
}

/* The value of rank ceil(PERCENT/100 · N) among V[0..N). */
static gint64
percentile (gint64 *v,
            guint64 n,
            guint   percent)
{
  guint64 rank = (percent * n + 99) / 100;
  guint64 k = rank > 0 ? rank - 1 : 0;

  select_nth (v, (gint64) n, (gint64) k);
  return v[k];
}

static gint
compare_groups (gconstpointer a,
                gconstpointer b)
{
  const ChronoAreaRow *x = &((const Group *) a)->row, *y = &((const Group *) b)->row;
  int c;

  if (x->wall_ns != y->wall_ns)
    return x->wall_ns > y->wall_ns ? -1 : 1;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  if ((c = g_strcmp0 (x->label, y->label)) != 0)
    return c;
  return x->track < y->track ? -1 : x->track > y->track;
}

/* Spans grouped in place, the percentiles and the order of the rows. */
static void
finish_groups (ChronoAreaStats *self,
               GArray          *entries)
{
  guint n_groups = self->groups->len;
  g_autofree guint64 *fill = g_new0 (guint64, MAX (n_groups, 1));
  g_autofree gint64 *walls = g_new (gint64, MAX (entries->len, 1));
  guint64 first = 0;

  for (guint g = 0; g < n_groups; g++)
    {
      Group *group = &g_array_index (self->groups, Group, g);

      group->first = first;
      fill[g] = first;
      first += group->row.count;
      self->wall_ns += group->row.wall_ns;
    }
  self->n_spans = entries->len;
  self->spans = g_new (ChronoSpanRef, MAX (entries->len, 1));
  for (guint i = 0; i < entries->len; i++)
    {
      const Entry *entry = &g_array_index (entries, Entry, i);
      guint64 at = fill[entry->group]++;

      self->spans[at] = entry->ref;
      walls[at] = entry->wall;
    }
  for (guint g = 0; g < n_groups; g++)
    {
      ChronoAreaRow *row = &g_array_index (self->groups, Group, g).row;
      gint64 *v = walls + g_array_index (self->groups, Group, g).first;

      row->mean_ns = (gdouble) row->wall_ns / (gdouble) row->count;
      row->share = self->wall_ns > 0 ? (gdouble) row->wall_ns / (gdouble) self->wall_ns : 0;
      row->p95_ns = percentile (v, row->count, 95);
      row->p50_ns = percentile (v, row->count, 50);
    }
  g_array_sort (self->groups, compare_groups);
}

ChronoAreaStats *
chrono_area_stats_new (ChronoTrace        *trace,
                       const guint        *tracks,
                       guint               n_tracks,
                       gint64              start_ns,
                       gint64              end_ns,
                       ChronoAreaGrouping  grouping,
                       gboolean            per_track,
                       GCancellable       *cancellable,
                       GError            **error)
{
  g_autoptr(ChronoAreaStats) self = NULL;
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  g_autofree guint32 *group_of = NULL;
  Collect c;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (tracks != NULL || n_tracks == 0, NULL);

  self = g_object_new (CHRONO_TYPE_AREA_STATS, NULL);
  self->trace = g_object_ref (trace);
  self->start_ns = start_ns;
  self->end_ns = end_ns;
  self->grouping = grouping;
  c.self = self;
  c.entries = entries;
  c.n_labels = grouping == CHRONO_AREA_BY_KIND ? CHRONO_N_KINDS : MAX (chrono_trace_get_n_strings (trace), 1);
  c.group_of = group_of = g_new (guint32, c.n_labels);
  memset (group_of, 0xff, sizeof (guint32) * c.n_labels);
  c.track = -1;

  for (guint k = 0; k < n_tracks; k++)
    {
      guint t = tracks[k];
      const ChronoTrack *track;

      if (t >= chrono_trace_get_n_tracks (trace))
        continue;
      track = chrono_trace_get_track (trace, t);
      if (track->type == CHRONO_TRACK_COUNTER)
        collect_counter (self, t, track);
      if (track->n_spans == 0)
        continue;
      if (per_track)
        {
          /* Labels start afresh on each track. */
          memset (group_of, 0xff, sizeof (guint32) * c.n_labels);
          c.track = (gint) t;
        }
      if (!collect_spans (&c, t, track, cancellable))
        break;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  finish_groups (self, entries);
  return g_steal_pointer (&self);
}

typedef struct {
  ChronoTrace        *trace;
  guint              *tracks;
  guint               n_tracks;
  gint64              start_ns;
  gint64              end_ns;
  ChronoAreaGrouping  grouping;
  gboolean            per_track;
} Job;

static void
job_free (Job *job)
{
  g_object_unref (job->trace);
  g_free (job->tracks);
  g_free (job);
}

static void
stats_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  ChronoAreaStats *stats = chrono_area_stats_new (job->trace, job->tracks, job->n_tracks, job->start_ns,
                                                  job->end_ns, job->grouping, job->per_track, cancellable,
                                                  &error);

  if (stats == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, stats, g_object_unref);
}

void
chrono_area_stats_new_async (ChronoTrace        *trace,
                             const guint        *tracks,
                             guint               n_tracks,
                             gint64              start_ns,
                             gint64              end_ns,
                             ChronoAreaGrouping  grouping,
                             gboolean            per_track,
                             GCancellable       *cancellable,
                             GAsyncReadyCallback callback,
                             gpointer            user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Job *job = g_new0 (Job, 1);

  job->trace = g_object_ref (trace);
  job->tracks = g_memdup2 (tracks, sizeof (guint) * n_tracks);
  job->n_tracks = n_tracks;
  job->start_ns = start_ns;
  job->end_ns = end_ns;
  job->grouping = grouping;
  job->per_track = per_track;
  g_task_set_source_tag (task, chrono_area_stats_new_async);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, stats_thread);
}

ChronoAreaStats *
chrono_area_stats_new_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

ChronoTrace *
chrono_area_stats_get_trace (ChronoAreaStats *self)
{
  return self->trace;
}

gint64
chrono_area_stats_get_start_ns (ChronoAreaStats *self)
{
  return self->start_ns;
}

gint64
chrono_area_stats_get_end_ns (ChronoAreaStats *self)
{
  return self->end_ns;
}

ChronoAreaGrouping
chrono_area_stats_get_grouping (ChronoAreaStats *self)
{
  return self->grouping;
}

guint64
chrono_area_stats_get_n_spans (ChronoAreaStats *self)
{
  return self->n_spans;
}

gint64
chrono_area_stats_get_wall_ns (ChronoAreaStats *self)
{
  return self->wall_ns;
}

guint
chrono_area_stats_get_n_rows (ChronoAreaStats *self)
{
  return self->groups->len;
}

const ChronoAreaRow *
chrono_area_stats_get_row (ChronoAreaStats *self,
                           guint            row)
{
  g_return_val_if_fail (row < self->groups->len, NULL);

  return &g_array_index (self->groups, Group, row).row;
}

const ChronoSpanRef *
chrono_area_stats_get_row_spans (ChronoAreaStats *self,
                                 guint            row,
                                 guint           *n_spans)
{
  const Group *g;

  g_return_val_if_fail (row < self->groups->len, NULL);

  g = &g_array_index (self->groups, Group, row);
  *n_spans = (guint) g->row.count;
  return self->spans + g->first;
}

guint
chrono_area_stats_get_n_counters (ChronoAreaStats *self)
{
  return self->counters->len;
}

const ChronoAreaCounter *
chrono_area_stats_get_counter (ChronoAreaStats *self,
                               guint            counter)
{
  g_return_val_if_fail (counter < self->counters->len, NULL);

  return &g_array_index (self->counters, ChronoAreaCounter, counter);
}
