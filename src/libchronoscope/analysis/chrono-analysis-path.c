/* chrono-analysis-path.c: the critical path of each step
 *
 * The path is found backwards from whatever finishes the step last,
 * following at each span the dependency that was satisfied last (the
 * "last arriving" predecessor): for device work the previous work on its
 * stream or the runtime call that launched it; for a host thread the last
 * synchronising call that waited for the device. In a recorded trace this
 * chain is the longest one through the dependency graph, since every span
 * started as soon as its last dependency was met or later.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-analysis-private.h"
#include "chrono-neuron-metrics.h"
#include "chrono-packed-devices.h"

typedef struct {
  ChronoRankData *data;
  const ChronoAnalysisThresholds *thresholds;
  GArray *segments;     /* ChronoPathSegment, latest first */
  gint64  window_start;
  gint64  cursor;       /* the path covers [cursor, window end] */
} Walk;

/* Adds [start, cursor) to the path; the part after the cursor is already
 * covered by later segments. */
static void
emit (Walk               *w,
      ChronoPathCategory  category,
      gint64              start,
      const ChronoNodeRef *node)
{
  ChronoPathSegment seg = { .category = category, .end_ns = w->cursor };

  start = MAX (start, w->window_start);
  if (start >= w->cursor)
    return;
  seg.start_ns = start;
  if (node)
    {
      seg.has_node = TRUE;
      seg.node = *node;
    }
  else if (w->segments->len > 0)
    {
      ChronoPathSegment *last = &g_array_index (w->segments, ChronoPathSegment, w->segments->len - 1);
      if (!last->has_node && last->category == category && last->start_ns == w->cursor)
        {
          last->start_ns = start;
          w->cursor = start;
          return;
        }
    }
  g_array_append_val (w->segments, seg);
  w->cursor = start;
}

static ChronoPathCategory
category_of (guint8 cls)
{
  switch (cls)
    {
    case CHRONO_WORK_COMMUNICATION:
      return CHRONO_PATH_COMMUNICATION;
    case CHRONO_WORK_MEMCPY:
    case CHRONO_WORK_MEMSET:
      return CHRONO_PATH_MEMCPY;
    default:
      return CHRONO_PATH_DEVICE_COMPUTE;
    }
}

/* The last synchronising call on TRACK's thread that ended by T and
 * waited for work. */
static const ChronoSyncWait *
last_sync (Walk    *w,
           guint32  track,
           gint64   t)
{
  const ChronoSyncWait *syncs = (const ChronoSyncWait *) w->data->syncs->data;
  guint lo = chrono_lower_bound (syncs, w->data->syncs->len, sizeof *syncs,
                                 G_STRUCT_OFFSET (ChronoSyncWait, start), t);

  for (guint k = lo; k-- > 0;)
    {
      if (syncs[k].start < w->window_start)
        break;
      if (syncs[k].end <= t && syncs[k].device >= 0 &&
          chrono_packed_devices_same_thread (w->data->trace, syncs[k].track, track))
        return &syncs[k];
    }
  return NULL;
}

/* Of the work IT depends on across streams, what ended last. */
static const ChronoWorkItem *
latest_dep (ChronoRankData       *data,
            const ChronoWorkItem *it,
            guint                *device,
            guint                *item)
{
  guint n_deps;
  const guint *deps = chrono_rank_data_deps_to (data, it, &n_deps);
  const ChronoWorkItem *best = NULL;

  for (guint i = 0; i < n_deps; i++)
    {
      const ChronoWorkDep *d = &g_array_index (data->deps, ChronoWorkDep, deps[i]);
      const ChronoWorkItem *from = &g_array_index (g_array_index (data->devices, ChronoDeviceWork, d->from_device).items,
                                                   ChronoWorkItem, d->from_item);
      if (from->end <= it->start && (best == NULL || from->end > best->end))
        {
          best = from;
          *device = d->from_device;
          *item = d->from_item;
        }
    }
  return best;
}

/* When work starts long after both its stream and its launch were ready
 * and the trace records no dependency (older Kineto writes no Stream Wait
 * Event), it most likely waited for the work on another stream of the
 * device that finished last before it started: an event wait. */
static const ChronoWorkItem *
inferred_dep (Walk                 *w,
              gint                  device,
              const ChronoWorkItem *it,
              gint64                ready,
              guint                *dep_device,
              guint                *dep_item)
{
  gint found_device;
  guint found_item;
  const ChronoWorkItem *found;

  if (ready == G_MININT64 || it->start - ready < w->thresholds->idle_gap_min_ns ||
      !chrono_rank_data_last_work (w->data, ready, it->start, &found_device, &found_item) ||
      found_device != device)
    return NULL;
  found = &g_array_index (g_array_index (w->data->devices, ChronoDeviceWork, device).items, ChronoWorkItem, found_item);
  if (found->track == it->track || found->end > it->start)
    return NULL;
  *dep_device = found_device;
  *dep_item = found_item;
  return found;
}

static void
walk (Walk    *w,
      gboolean on_device,
      gint     device,
      guint    item,
      guint32  thread,
      gint64   t)
{
  ChronoRankData *data = w->data;
  guint budget = 4;

  for (guint i = 0; i < data->devices->len; i++)
    budget += 2 * g_array_index (data->devices, ChronoDeviceWork, i).items->len;
  budget += 2 * data->syncs->len;

  while (w->cursor > w->window_start && budget-- > 0)
    {
      if (on_device)
        {
          const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, device);
          const ChronoWorkItem *it = &g_array_index (d->items, ChronoWorkItem, item);
          const ChronoWorkItem *prev = it->stream_prev != G_MAXUINT32
                                       ? &g_array_index (d->items, ChronoWorkItem, it->stream_prev) : NULL;
          ChronoNodeRef node = { data->trace_index, { it->track, it->index } };
          /* When the host issued the work: a launch call may return after
           * its kernel started, so its start, not its end, says whether
           * the work was queued before its stream was free. */
          gint64 launched = it->launch_start != G_MININT64 && it->launch_start < it->start
                            ? it->launch_start : G_MININT64;
          const ChronoWorkItem *dep;
          guint dep_device = 0, dep_item = 0;

          emit (w, category_of (it->cls), it->start, &node);
          dep = latest_dep (data, it, &dep_device, &dep_item);
          if (dep == NULL)
            dep = inferred_dep (w, device, it, MAX (prev ? prev->end : G_MININT64, launched), &dep_device, &dep_item);
          if (dep && dep->end > w->window_start && dep->end >= launched && (!prev || dep->end > prev->end))
            {
              /* Waiting for work on another stream or engine. */
              emit (w, CHRONO_PATH_IDLE, dep->end, NULL);
              device = dep_device;
              item = dep_item;
            }
          else if (prev && prev->end > w->window_start && prev->end >= launched)
            {
              /* Queued behind the work before it: the device set the pace. */
              gint64 gap = it->start - prev->end;
              emit (w, gap < w->thresholds->kernel_wait_max_ns ? CHRONO_PATH_KERNEL_OVERHEAD : CHRONO_PATH_IDLE,
                    prev->end, NULL);
              item = it->stream_prev;
            }
          else if (launched != G_MININT64 && launched >= w->window_start)
            {
              ChronoNodeRef call = { data->trace_index, { it->launch_track, it->launch_index } };
              const ChronoTrack *lt = chrono_trace_get_track (data->trace, it->launch_track);
              gint64 launch_end = MIN (chrono_track_get_end (lt, it->launch_index), it->start);

              emit (w, CHRONO_PATH_LAUNCH_OVERHEAD, launch_end, NULL);
              emit (w, CHRONO_PATH_LAUNCH_OVERHEAD, launched, &call);
              on_device = FALSE;
              thread = it->launch_track;
              t = it->launch_start;
            }
          else
            {
              emit (w, CHRONO_PATH_IDLE, w->window_start, NULL);
            }
        }
      else
        {
          const ChronoSyncWait *s = last_sync (w, thread, t);

          if (s == NULL)
            {
              emit (w, CHRONO_PATH_HOST_COMPUTE, w->window_start, NULL);
              break;
            }
          emit (w, CHRONO_PATH_HOST_COMPUTE, s->end, NULL);
          {
            const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, s->device);
            const ChronoWorkItem *it = &g_array_index (d->items, ChronoWorkItem, s->item);
            ChronoNodeRef call = { data->trace_index, { s->track, s->index } };

            /* The host sat in the call until the work ended. */
            emit (w, CHRONO_PATH_HOST_COMPUTE, it->end, &call);
            on_device = TRUE;
            device = s->device;
            item = s->item;
          }
        }
    }
  emit (w, CHRONO_PATH_IDLE, w->window_start, NULL);
}

static void
add_path (ChronoRankData                 *data,
          const ChronoAnalysisThresholds *thresholds,
          const char                     *name,
          guint32                         thread,
          gint64                          start,
          gint64                          host_end,
          gint64                          end,
          GArray                         *out)
{
  g_autoptr(GArray) segments = g_array_new (FALSE, FALSE, sizeof (ChronoPathSegment));
  Walk w = { data, thresholds, segments, start, end };
  ChronoCriticalPath path = { 0 };
  gint device;
  guint item;

  if (chrono_rank_data_last_work (data, start, end, &device, &item) &&
      g_array_index (g_array_index (data->devices, ChronoDeviceWork, device).items,
                     ChronoWorkItem, item).end > host_end)
    walk (&w, TRUE, device, item, thread, end);
  else if (thread != CHRONO_NO_TRACK)
    walk (&w, FALSE, -1, 0, thread, host_end);
  else
    return;

  path.name = g_strdup (name);
  path.trace = data->trace_index;
  path.rank = data->rank_index;
  path.track = thread;
  path.start_ns = start;
  path.end_ns = end;
  path.total_ns = end - start;
  path.n_segments = segments->len;
  path.segments = g_new (ChronoPathSegment, segments->len);
  for (guint i = 0; i < segments->len; i++)
    {
      const ChronoPathSegment *s = &g_array_index (segments, ChronoPathSegment, segments->len - 1 - i);
      path.segments[i] = *s;
      path.by_category[s->category] += s->end_ns - s->start_ns;
    }
  g_array_append_val (out, path);
}

void
chrono_analysis_compute_paths (ChronoRankData                 *data,
                               const ChronoAnalysisThresholds *thresholds,
                               GArray                         *out)
{
  ChronoTrace *trace = data->trace;

  for (guint i = 0; i < data->steps->len; i++)
    {
      const ChronoStep *step = &g_array_index (data->steps, ChronoStep, i);
      const ChronoTrack *t = chrono_trace_get_track (trace, step->track);

      add_path (data, thresholds, chrono_trace_get_string (trace, chrono_track_get_name (t, step->index)), step->track,
                MAX (step->start, data->range_start), MIN (step->end, data->range_end),
                MIN (step->work_end, data->range_end), out);
    }
  if (data->steps->len == 0)
    {
      gboolean neuron = data->devices->len > 0;
      gint64 start = MAX (chrono_trace_get_start_ns (trace), data->range_start);
      gint64 end = MIN (chrono_trace_get_end_ns (trace), data->range_end);

      /* NeuronCores alone: their paths follow their ledgers
       * (chrono-neuron-path.c). */
      for (guint di = 0; di < data->devices->len && neuron; di++)
        neuron = chrono_neuron_is_core (data->trace, &g_array_index (data->devices, ChronoDeviceWork, di));
      if (end > start && !neuron)
        add_path (data, thresholds, data->range_end != G_MAXINT64 ? "range" : "trace", CHRONO_NO_TRACK,
                  start, G_MININT64, end, out);
    }
}

void
chrono_critical_path_clear (ChronoCriticalPath *path)
{
  g_free (path->name);
  g_free (path->segments);
}
