/* chrono-flow-index.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>

#include "chrono-flow-index.h"

/* Flows are grouped by length class, the bit length of the time their
 * arrow spans, and each group sorted by its earlier time. A window then
 * finds its flows with two binary searches a class, and one very long
 * flow does not make every window look at the flows before it. */
#define N_CLASSES 65

typedef struct {
  gint64  t_min;
  gint64  t_max;
  guint32 flow;
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

  guint        class_first[N_CLASSES + 1];
  gint64      *t_min;       /* by class, then earlier time */
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

/* The bit length of LENGTH: the smallest k with LENGTH < 2^k. */
static guint8
length_class (guint64 length)
{
  guint8 k = 0;

  while (k < 64 && (length >> k) != 0)
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
      gint64 from_ns, to_ns;

      chrono_flow_index_get_times (self, self->by_from[i], &from_ns, &to_ns);
      entries[i].t_min = MIN (from_ns, to_ns);
      entries[i].t_max = MAX (from_ns, to_ns);
      entries[i].flow = self->by_from[i];
      entries[i].klass = length_class ((guint64) (entries[i].t_max - entries[i].t_min));
      self->class_first[entries[i].klass + 1]++;
    }
  qsort (entries, n, sizeof (TimeEntry), compare_time_entries);
  for (guint k = 1; k <= N_CLASSES; k++)
    self->class_first[k] += self->class_first[k - 1];

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
  end = start + from->dur[f->from.index];
  target = to->start[f->to.index];

  /* A kernel often starts before the call that launched it returns: its
   * arrow then drops straight down instead of running back in time. */
  *from_ns = CLAMP (target, start, end);
  *to_ns = target;
}

/* The first of the N sorted TIMES at or after T. */
static guint
lower_bound (const gint64 *times,
             guint         lo,
             guint         hi,
             gint64        t)
{
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (times[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint
chrono_flow_index_get_n_arrows (ChronoFlowIndex *self)
{
  g_return_val_if_fail (CHRONO_IS_FLOW_INDEX (self), 0);
  return self->n_arrows;
}

guint
chrono_flow_index_foreach_in_range (ChronoFlowIndex *self,
                                    gint64           start_ns,
                                    gint64           end_ns,
                                    ChronoFlowFunc   func,
                                    gpointer         user_data)
{
  guint visited = 0;

  g_return_val_if_fail (CHRONO_IS_FLOW_INDEX (self), 0);
  g_return_val_if_fail (func != NULL, 0);

  if (end_ns < start_ns)
    return 0;

  for (guint k = 0; k < N_CLASSES; k++)
    {
      guint first = self->class_first[k];
      guint last = self->class_first[k + 1];
      /* Flows of class k span less than 2^k ns: those that start
       * earlier than that before the window end before it. */
      gint64 reach = k >= 63 ? G_MAXINT64 : (gint64) 1 << k;
      gint64 from = start_ns >= G_MININT64 + reach ? start_ns - reach : G_MININT64;
      guint lo, hi;

      if (first == last)
        continue;
      lo = lower_bound (self->t_min, first, last, from);
      hi = end_ns == G_MAXINT64 ? last : lower_bound (self->t_min, lo, last, end_ns + 1);
      for (guint i = lo; i < hi; i++)
        {
          visited++;
          if (self->t_max[i] >= start_ns)
            func (self->by_time[i], user_data);
        }
    }
  return visited;
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
  return sizeof (*self) + (gsize) self->n_arrows * (2 * sizeof (gint64) + 3 * sizeof (guint32));
}
