/* chrono-neuron-path.c: the critical path of a NeuronCore, through its
 * engines, DMA queues and semaphores
 *
 * The Tensor engine sets a NeuronCore's pace: while it computes, it is
 * the path; in each of its gaps the path runs back along the gap's chain,
 * through the work that held it (a DMA transfer, another engine's
 * instruction, a collective) and the semaphore hops between them. What
 * the chain does not cover is the wait before the cause started: work
 * issued late counts as launch overhead, anything else as waiting.
 *
 * On a NeuronCore the categories read: device_compute for engine
 * instructions, memcpy for DMA transfers, communication for collectives,
 * kernel_overhead for semaphore and dependency hops (a Sync instruction
 * passing one on included), launch_overhead for work issued late, idle
 * for waits the profile does not explain (another core, a barrier).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-analysis-private.h"

static ChronoPathCategory
category_of_unit (ChronoNeuronUnit unit)
{
  switch (unit)
    {
    case CHRONO_NEURON_UNIT_DMA:        return CHRONO_PATH_MEMCPY;
    case CHRONO_NEURON_UNIT_COLLECTIVE: return CHRONO_PATH_COMMUNICATION;
    case CHRONO_NEURON_UNIT_SYNC:       return CHRONO_PATH_KERNEL_OVERHEAD;
    case CHRONO_NEURON_UNIT_TENSOR:
    case CHRONO_NEURON_UNIT_VECTOR:
    case CHRONO_NEURON_UNIT_SCALAR:
    case CHRONO_NEURON_UNIT_GPSIMD:
    case CHRONO_NEURON_UNIT_OTHER:
    case CHRONO_NEURON_N_UNITS:
    default:                            return CHRONO_PATH_DEVICE_COMPUTE;
    }
}

/* Segments are made from the end of a gap back to its start. */
static void
emit_back (GArray             *back,
           ChronoPathCategory  category,
           gint64              start,
           gint64              end,
           guint32             trace,
           const ChronoWorkItem *it)
{
  ChronoPathSegment s = { category, start, end, it != NULL, { 0 } };

  if (end <= start)
    return;
  if (it != NULL)
    s.node = (ChronoNodeRef) { trace, { it->track, it->index } };
  g_array_append_val (back, s);
}

/* Of the dependencies of DEVICE's ITEM and the work before it on its
 * row, the one that ended last, if after G0. */
static gboolean
held_by (ChronoRankData *data,
         guint          *device,
         guint          *item,
         gint64          g0)
{
  const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, *device);
  const ChronoWorkItem *it = &g_array_index (d->items, ChronoWorkItem, *item);
  guint n_deps;
  const guint *deps = chrono_rank_data_deps_to (data, it, &n_deps);
  gint64 best = g0;
  guint best_device = *device, best_item = G_MAXUINT;

  if (it->stream_prev != G_MAXUINT32 && g_array_index (d->items, ChronoWorkItem, it->stream_prev).end > best)
    {
      best = g_array_index (d->items, ChronoWorkItem, it->stream_prev).end;
      best_item = it->stream_prev;
    }
  for (guint k = 0; k < n_deps; k++)
    {
      const ChronoWorkDep *dep = &g_array_index (data->deps, ChronoWorkDep, deps[k]);
      const ChronoWorkItem *p = &g_array_index (g_array_index (data->devices, ChronoDeviceWork, dep->from_device).items,
                                                ChronoWorkItem, dep->from_item);
      if (p->end > best)
        {
          best = p->end;
          best_device = dep->from_device;
          best_item = dep->from_item;
        }
    }
  if (best_item == G_MAXUINT)
    return FALSE;
  *device = best_device;
  *item = best_item;
  return TRUE;
}

/* The work of DEVICE of the unit UNIT that ended last in (G0, G1]: what a
 * wait on its semaphore's record waited for. */
static gboolean
last_of_unit (ChronoRankData   *data,
              const guint8     *units,
              guint             device,
              ChronoNeuronUnit  unit,
              gint64            g0,
              gint64            g1,
              guint            *item)
{
  const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, device);
  const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;
  guint hi = chrono_lower_bound (items, d->items->len, sizeof *items, G_STRUCT_OFFSET (ChronoWorkItem, start), g1);
  gint64 best = g0;

  *item = G_MAXUINT;
  for (guint k = hi; k-- > 0 && items[k].start > g0 - (g1 - g0);)
    if (items[k].end > best && items[k].end <= g1 &&
        units[items[k].track] == unit)
      {
        best = items[k].end;
        *item = k;
      }
  return *item != G_MAXUINT;
}

static const ChronoNeuronUnit unit_of_cause[CHRONO_N_LEDGER_STATES] = {
  [CHRONO_LEDGER_IDLE_DMA] = CHRONO_NEURON_UNIT_DMA,
  [CHRONO_LEDGER_IDLE_VECTOR] = CHRONO_NEURON_UNIT_VECTOR,
  [CHRONO_LEDGER_IDLE_SCALAR] = CHRONO_NEURON_UNIT_SCALAR,
  [CHRONO_LEDGER_IDLE_GPSIMD] = CHRONO_NEURON_UNIT_GPSIMD,
  [CHRONO_LEDGER_IDLE_COLLECTIVE] = CHRONO_NEURON_UNIT_COLLECTIVE,
};

/* The gap's stretch of the path, into BACK from its end: back from the
 * work that ended it (the Tensor instruction after it, or
 * for the tail the work that ends the window), through whatever held
 * each piece of work, while that ended inside the gap. BACK is room for
 * the stretch as it is found, from its end. */
static void
gap_path (ChronoRankData           *data,
          const guint8             *units,
          guint                     device,
          const ChronoNeuronLedger *ledger,
          const ChronoNeuronGap    *gap,
          GArray                   *back)
{
  const ChronoNeuronLink *first = chrono_neuron_ledger_get_link (ledger, gap->first_link);
  gint64 cursor = gap->end_ns;
  guint d = device, item, budget = 4096;
  gboolean on;

  g_array_set_size (back, 0);
  on = chrono_rank_data_find_item (data, first->span, &d, &item);
  if (on && !gap->tail)
    {
      /* The Tensor instruction starts at the gap's end: the path goes on
       * from what held it. A wait on a semaphore's record (a CC-core's)
       * has no edge: then through the work of the unit that raised it. */
      on = held_by (data, &d, &item, gap->start_ns);
      if (!on && unit_of_cause[gap->cause] != CHRONO_NEURON_UNIT_TENSOR)
        {
          d = device;
          on = last_of_unit (data, units, device, unit_of_cause[gap->cause], gap->start_ns, gap->end_ns, &item);
        }
    }
  for (; on && cursor > gap->start_ns && budget-- > 0; on = held_by (data, &d, &item, gap->start_ns))
    {
      const ChronoWorkItem *it = &g_array_index (g_array_index (data->devices, ChronoDeviceWork, d).items,
                                                 ChronoWorkItem, item);
      gint64 end = CLAMP (it->end, gap->start_ns, cursor);
      gint64 start = CLAMP (it->start, gap->start_ns, end);

      emit_back (back, CHRONO_PATH_KERNEL_OVERHEAD, end, cursor, data->trace_index, NULL);
      emit_back (back, category_of_unit (units[it->track]), start, end,
                 data->trace_index, it);
      cursor = start;
    }
  emit_back (back, gap->cause == CHRONO_LEDGER_IDLE_NOT_QUEUED ? CHRONO_PATH_LAUNCH_OVERHEAD : CHRONO_PATH_IDLE,
             gap->start_ns, cursor, data->trace_index, NULL);
}

/* The path over gaps [FIRST, LAST) of a core's ledger, from where the
 * gap before ended to the next gap's start, or to the window's end for
 * the last part: counted first, then written from OUT on. */
typedef struct {
  ChronoRankData           *data;
  const guint8             *units;   /* ChronoNeuronUnit by track */
  guint                     device;
  const ChronoNeuronLedger *ledger;
  guint                     first;
  guint                     last;
  guint                     n;       /* its segments */
  ChronoPathSegment        *out;     /* NULL while counting */
} PathPart;

static void
put (PathPart                *part,
     const ChronoPathSegment *s)
{
  if (part->out != NULL)
    part->out[part->n] = *s;
  part->n++;
}

static gpointer
walk_part (gpointer user_data)
{
  PathPart *part = user_data;
  const ChronoNeuronLedger *ledger = part->ledger;
  g_autoptr(GArray) back = g_array_new (FALSE, FALSE, sizeof (ChronoPathSegment));
  gint64 t = part->first == 0 ? chrono_neuron_ledger_get_start (ledger)
                              : chrono_neuron_ledger_get_gap (ledger, part->first - 1)->end_ns;

  part->n = 0;
  for (guint g = part->first; g < part->last; g++)
    {
      const ChronoNeuronGap *gap = chrono_neuron_ledger_get_gap (ledger, g);

      /* Between gaps the Tensor engine computes. */
      if (gap->start_ns > t)
        put (part, &(ChronoPathSegment) { CHRONO_PATH_DEVICE_COMPUTE, t, gap->start_ns });
      gap_path (part->data, part->units, part->device, ledger, gap, back);
      for (guint i = back->len; i-- > 0;)
        put (part, &g_array_index (back, ChronoPathSegment, i));
      t = gap->end_ns;
    }
  if (part->last == chrono_neuron_ledger_get_n_gaps (ledger) && chrono_neuron_ledger_get_end (ledger) > t)
    put (part, &(ChronoPathSegment) { CHRONO_PATH_DEVICE_COMPUTE, t, chrono_neuron_ledger_get_end (ledger) });
  return NULL;
}

/* Both parts walked at once, the second on another thread. */
static void
walk_parts (PathPart parts[2])
{
  GThread *helper = NULL;

  if (parts[1].first < parts[1].last)
    helper = g_thread_new ("chrono-neuron-path", walk_part, &parts[1]);
  walk_part (&parts[0]);
  if (helper != NULL)
    g_thread_join (helper);
  else
    walk_part (&parts[1]);
}

/* Gaps walked on a second thread beyond this many: the walks are the
 * analysis's last step, with a core to spare. */
#define SPLIT_GAPS 4096

void
chrono_neuron_add_paths (ChronoRankData *data,
                         GArray         *out)
{
  guint n_tracks = chrono_trace_get_n_tracks (data->trace);
  g_autofree guint8 *units = g_new (guint8, MAX (n_tracks, 1));

  /* Told apart by name, looked up at every step back. */
  for (guint t = 0; t < n_tracks; t++)
    units[t] = (guint8) chrono_neuron_unit_of_track (data->trace, t);
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      const ChronoNeuronLedger *ledger = d->neuron;
      guint n_gaps;
      PathPart parts[2];
      ChronoCriticalPath path = { 0 };

      if (ledger == NULL || chrono_neuron_ledger_get_end (ledger) <= chrono_neuron_ledger_get_start (ledger))
        continue;
      n_gaps = chrono_neuron_ledger_get_n_gaps (ledger);
      parts[0] = (PathPart) { data, units, di, ledger, 0, n_gaps > SPLIT_GAPS ? n_gaps / 2 : n_gaps, 0, NULL };
      parts[1] = (PathPart) { data, units, di, ledger, parts[0].last, n_gaps, 0, NULL };
      /* Walked twice, to count and to write: a path of hundreds of
       * thousands of segments, made in pieces and joined, would be
       * written twice instead, which costs more than the walks. */
      walk_parts (parts);
      path.n_segments = parts[0].n + parts[1].n;
      path.segments = g_new (ChronoPathSegment, MAX (path.n_segments, 1));
      parts[0].out = path.segments;
      parts[1].out = path.segments + parts[0].n;
      walk_parts (parts);
      path.name = g_strdup (data->range_end != G_MAXINT64 ? "range" : "trace");
      path.trace = data->trace_index;
      path.rank = data->rank_index;
      path.track = CHRONO_NO_TRACK;
      path.start_ns = chrono_neuron_ledger_get_start (ledger);
      path.end_ns = chrono_neuron_ledger_get_end (ledger);
      path.total_ns = path.end_ns - path.start_ns;
      for (guint i = 0; i < path.n_segments; i++)
        path.by_category[path.segments[i].category] += path.segments[i].end_ns - path.segments[i].start_ns;
      g_array_append_val (out, path);
    }
}
