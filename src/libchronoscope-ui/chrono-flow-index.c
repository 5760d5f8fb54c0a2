/* chrono-flow-index.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdlib.h>

#include "chrono-flow-index.h"
#include "chrono-sort.h"

/* Flows are grouped by length class, the order of magnitude (base 16)
 * of the time their arrow spans, then by source track, target track and type, and each
 * group sorted by its earlier time. A window then finds its flows with
 * two binary searches a group, one very long flow does not make every
 * window look at the flows before it, and far out, where a group's
 * arrows are shorter than a pixel, it can step from pixel to pixel. */
/* Far out, flows between the same two tracks that span less than this
 * many pixel columns and start in the same one draw as one arrow: they
 * end at most this far apart, inside a crowd of arrows. */
#define MERGE_COLUMNS 8

typedef struct {
  gint64  t_min;
  gint64  t_max;
  guint32 flow;
  guint32 from_track;
  guint32 to_track;
  guint8  type;
  guint8  klass;
} TimeEntry;

typedef struct {
  guint64 key;     /* track << 32 | span */
  guint64 other;   /* the flow's other span, the same way */
  guint32 flow;
  guint8  type;
} SpanEntry;

struct _ChronoFlowIndex
{
  GObject      parent_instance;

  ChronoTrace *trace;
  guint        n_flows;
  guint        n_arrows;    /* flows with ends no other flow has */

  guint        n_groups;
  guint32     *group_first; /* n_groups + 1 */
  gint64      *group_reach; /* the longest flow of each group */
  gint64      *t_min;       /* by group, then earlier time */
  gint64      *t_max;
  guint32     *by_time;     /* flow numbers in that order */

  guint32     *by_from;     /* flow numbers by source span */
  guint32     *by_to;       /* flow numbers by target span */
};

G_DEFINE_FINAL_TYPE (ChronoFlowIndex, chrono_flow_index, G_TYPE_OBJECT)

static inline guint64
span_key (ChronoSpanRef ref)
{
  return ((guint64) ref.track << 32) | ref.index;
}

/* The smallest k with LENGTH < 16^k. Classes sixteen times apart keep
 * the groups few: far out, each steps over every pixel column; within
 * one, the longest flow bounds how far back a window looks. */
static guint8
length_class (guint64 length)
{
  guint8 k = 0;

  while (k < 16 && (length >> (4 * k)) != 0)
    k++;
  return k;
}

static int
compare_time_entries (const void *a,
                      const void *b)
{
  const TimeEntry *x = a, *y = b;

  if (x->klass != y->klass)
    return x->klass < y->klass ? -1 : 1;
  if (x->from_track != y->from_track)
    return x->from_track < y->from_track ? -1 : 1;
  if (x->to_track != y->to_track)
    return x->to_track < y->to_track ? -1 : 1;
  if (x->type != y->type)
    return x->type < y->type ? -1 : 1;
  if (x->t_min != y->t_min)
    return x->t_min < y->t_min ? -1 : 1;
  return x->flow < y->flow ? -1 : x->flow > y->flow;
}

/* By span, then other span, launch links before flow events. */
static int
compare_span_entries (const void *a,
                      const void *b)
{
  const SpanEntry *x = a, *y = b;

  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  if (x->other != y->other)
    return x->other < y->other ? -1 : 1;
  if (x->type != y->type)
    return x->type > y->type ? -1 : 1;
  return x->flow < y->flow ? -1 : x->flow > y->flow;
}

/* The flows FLOWS (all of the trace's when NULL), by source or target
 * span. */
static SpanEntry *
sort_by_span (ChronoTrace   *trace,
              const guint32 *flows,
              guint          n_flows,
              gboolean       target)
{
  SpanEntry *entries = g_new (SpanEntry, n_flows);

  for (guint i = 0; i < n_flows; i++)
    {
      guint32 number = flows != NULL ? flows[i] : i;
      const ChronoFlow *flow = chrono_trace_get_flow (trace, number);

      entries[i].key = span_key (target ? flow->to : flow->from);
      entries[i].other = span_key (target ? flow->from : flow->to);
      entries[i].flow = number;
      entries[i].type = flow->type;
    }
  qsort (entries, n_flows, sizeof (SpanEntry), compare_span_entries);
  return entries;
}

static void
chrono_flow_index_finalize (GObject *object)
{
  ChronoFlowIndex *self = CHRONO_FLOW_INDEX (object);

  g_clear_object (&self->trace);
  g_free (self->group_first);
  g_free (self->group_reach);
  g_free (self->t_min);
  g_free (self->t_max);
  g_free (self->by_time);
  g_free (self->by_from);
  g_free (self->by_to);

  G_OBJECT_CLASS (chrono_flow_index_parent_class)->finalize (object);
}

static void
chrono_flow_index_class_init (ChronoFlowIndexClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_flow_index_finalize;
}

static void
chrono_flow_index_init (ChronoFlowIndex *self)
{
}

ChronoFlowIndex *
chrono_flow_index_new (ChronoTrace *trace)
{
  ChronoFlowIndex *self;
  g_autofree TimeEntry *entries = NULL;
  g_autofree SpanEntry *by_from = NULL;
  g_autofree SpanEntry *by_to = NULL;
  guint n = 0;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);

  self = g_object_new (CHRONO_TYPE_FLOW_INDEX, NULL);
  self->trace = g_object_ref (trace);
  self->n_flows = chrono_trace_get_n_flows (trace);

  /* Kineto writes a launch twice, as a flow event and as a correlation
   * id: one arrow, of the most specific type, stands for flows with the
   * same two ends. */
  by_from = sort_by_span (trace, NULL, self->n_flows, FALSE);
  self->by_from = g_new (guint32, self->n_flows);
  for (guint i = 0; i < self->n_flows; i++)
    if (i == 0 || by_from[i].key != by_from[i - 1].key || by_from[i].other != by_from[i - 1].other)
      self->by_from[n++] = by_from[i].flow;
  self->n_arrows = n;
  self->by_from = g_renew (guint32, self->by_from, n);

  by_to = sort_by_span (trace, self->by_from, n, TRUE);
  self->by_to = g_new (guint32, n);
  for (guint i = 0; i < n; i++)
    self->by_to[i] = by_to[i].flow;

  entries = g_new (TimeEntry, n);
  for (guint i = 0; i < n; i++)
    {
      const ChronoFlow *flow = chrono_trace_get_flow (trace, self->by_from[i]);
      gint64 from_ns, to_ns;

      chrono_flow_index_get_times (self, self->by_from[i], &from_ns, &to_ns);
      entries[i].t_min = MIN (from_ns, to_ns);
      entries[i].t_max = MAX (from_ns, to_ns);
      entries[i].flow = self->by_from[i];
      entries[i].from_track = flow->from.track;
      entries[i].to_track = flow->to.track;
      entries[i].type = flow->type;
      entries[i].klass = length_class ((guint64) (entries[i].t_max - entries[i].t_min));
    }
  qsort (entries, n, sizeof (TimeEntry), compare_time_entries);

  self->group_first = g_new (guint32, n + 1);
  self->group_reach = g_new (gint64, n + 1);
  for (guint i = 0; i < n; i++)
    {
      if (i == 0 || entries[i].klass != entries[i - 1].klass ||
          entries[i].from_track != entries[i - 1].from_track ||
          entries[i].to_track != entries[i - 1].to_track || entries[i].type != entries[i - 1].type)
        {
          self->group_first[self->n_groups] = i;
          self->group_reach[self->n_groups++] = 0;
        }
      self->group_reach[self->n_groups - 1] = MAX (self->group_reach[self->n_groups - 1],
                                                   entries[i].t_max - entries[i].t_min);
    }
  self->group_first[self->n_groups] = n;
  self->group_first = g_renew (guint32, self->group_first, self->n_groups + 1);
  self->group_reach = g_renew (gint64, self->group_reach, self->n_groups + 1);

  self->t_min = g_new (gint64, n);
  self->t_max = g_new (gint64, n);
  self->by_time = g_new (guint32, n);
  for (guint i = 0; i < n; i++)
    {
      self->t_min[i] = entries[i].t_min;
      self->t_max[i] = entries[i].t_max;
      self->by_time[i] = entries[i].flow;
    }
  return self;
}

ChronoTrace *
chrono_flow_index_get_trace (ChronoFlowIndex *self)
{
  g_return_val_if_fail (CHRONO_IS_FLOW_INDEX (self), NULL);
  return self->trace;
}

void
chrono_flow_index_get_times (ChronoFlowIndex *self,
                             guint            flow,
                             gint64          *from_ns,
                             gint64          *to_ns)
{
  const ChronoFlow *f;
  const ChronoTrack *from, *to;
  gint64 start, end, target;

  g_return_if_fail (CHRONO_IS_FLOW_INDEX (self));
  g_return_if_fail (flow < self->n_flows);

  f = chrono_trace_get_flow (self->trace, flow);
  from = chrono_trace_get_track (self->trace, f->from.track);
  to = chrono_trace_get_track (self->trace, f->to.track);
  start = from->start[f->from.index];
  end = start + chrono_track_get_dur (from, f->from.index);
  target = to->start[f->to.index];

  /* A kernel often starts before the call that launched it returns: its
   * arrow then drops straight down instead of running back in time. */
  *from_ns = CLAMP (target, start, end);
  *to_ns = target;
}

guint
chrono_flow_index_get_n_arrows (ChronoFlowIndex *self)
{
  g_return_val_if_fail (CHRONO_IS_FLOW_INDEX (self), 0);
  return self->n_arrows;
}

/* The walk behind both queries; NS_PER_COLUMN 0 merges nothing. */
static guint
walk_range (ChronoFlowIndex *self,
            gint64           start_ns,
            gint64           end_ns,
            gint64           origin_ns,
            double           ns_per_column,
            ChronoFlowFunc   func,
            gpointer         user_data)
{
  guint visited = 0;

  if (end_ns < start_ns)
    return 0;

  for (guint g = 0; g < self->n_groups; g++)
    {
      guint first = self->group_first[g];
      guint last = self->group_first[g + 1];
      /* Flows that start earlier than their group's longest before
       * the window end before it. */
      gint64 reach = self->group_reach[g];
      gint64 from = start_ns >= G_MININT64 + reach ? start_ns - reach : G_MININT64;
      gboolean merge = ns_per_column > 0 && reach <= MERGE_COLUMNS * ns_per_column;
      guint lo, hi;

      lo = chrono_times_lower_bound (self->t_min, first, last, from);
      hi = end_ns == G_MAXINT64 ? last : chrono_times_lower_bound (self->t_min, lo, last, end_ns + 1);
      for (guint i = lo; i < hi; )
        {
          double column;

          visited++;
          if (self->t_max[i] >= start_ns)
            func (self->by_time[i], user_data);
          if (!merge)
            {
              i++;
              continue;
            }
          /* On to the first flow that starts in a later column. */
          column = floor ((double) (self->t_min[i] - origin_ns) / ns_per_column);
          i = chrono_times_lower_bound (self->t_min, i + 1, hi,
                                        origin_ns + (gint64) ceil ((column + 1) * ns_per_column));
        }
    }
  return visited;
}

guint
chrono_flow_index_foreach_in_range (ChronoFlowIndex *self,
                                    gint64           start_ns,
                                    gint64           end_ns,
                                    ChronoFlowFunc   func,
                                    gpointer         user_data)
{
  g_return_val_if_fail (CHRONO_IS_FLOW_INDEX (self), 0);
  g_return_val_if_fail (func != NULL, 0);

  return walk_range (self, start_ns, end_ns, 0, 0, func, user_data);
}

guint
chrono_flow_index_foreach_in_columns (ChronoFlowIndex *self,
                                      gint64           start_ns,
                                      gint64           end_ns,
                                      gint64           origin_ns,
                                      double           ns_per_column,
                                      ChronoFlowFunc   func,
                                      gpointer         user_data)
{
  g_return_val_if_fail (CHRONO_IS_FLOW_INDEX (self), 0);
  g_return_val_if_fail (ns_per_column > 0, 0);
  g_return_val_if_fail (func != NULL, 0);

  return walk_range (self, start_ns, end_ns, origin_ns, ns_per_column, func, user_data);
}

/* Appends the flows of SORTED whose span (source or target) is SPAN. */
static void
append_span_flows (ChronoFlowIndex *self,
                   const guint32   *sorted,
                   gboolean         target,
                   ChronoSpanRef    span,
                   GArray          *flows)
{
  guint64 key = span_key (span);
  guint lo = 0, hi = self->n_arrows;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const ChronoFlow *f = chrono_trace_get_flow (self->trace, sorted[mid]);

      if (span_key (target ? f->to : f->from) < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (; lo < self->n_arrows; lo++)
    {
      const ChronoFlow *f = chrono_trace_get_flow (self->trace, sorted[lo]);
      guint flow = sorted[lo];

      if (span_key (target ? f->to : f->from) != key)
        break;
      g_array_append_val (flows, flow);
    }
}

void
chrono_flow_index_get_span_flows (ChronoFlowIndex *self,
                                  ChronoSpanRef    span,
                                  GArray          *flows)
{
  g_return_if_fail (CHRONO_IS_FLOW_INDEX (self));
  g_return_if_fail (flows != NULL);

  append_span_flows (self, self->by_from, FALSE, span, flows);
  append_span_flows (self, self->by_to, TRUE, span, flows);
}

gsize
chrono_flow_index_get_memory_size (ChronoFlowIndex *self)
{
  g_return_val_if_fail (CHRONO_IS_FLOW_INDEX (self), 0);
  return sizeof (*self) + (gsize) self->n_arrows * (2 * sizeof (gint64) + 3 * sizeof (guint32)) +
         (gsize) (self->n_groups + 1) * (sizeof (guint32) + sizeof (gint64));
}
