/* chrono-analysis-work.c: the device work, host waits and steps of a trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-analysis-private.h"

gboolean
chrono_analysis_name_is_sync (const char *name)
{
  /* cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize,
   * hip*, and the copies that return only when done (cudaMemcpy,
   * cudaMemcpy2D, but not cudaMemcpyAsync). */
  if (strstr (name, "Synchronize") != NULL)
    return TRUE;
  if (g_str_has_prefix (name, "cudaMemcpy") || g_str_has_prefix (name, "hipMemcpy") ||
      g_str_has_prefix (name, "cuMemcpy"))
    return strstr (name, "Async") == NULL && strstr (name, "ToSymbol") == NULL;
  return FALSE;
}

static gint
work_class (ChronoTrace       *trace,
            const ChronoTrack *t,
            guint32            i)
{
  switch (t->kind[i])
    {
    case CHRONO_KIND_KERNEL:
      return CHRONO_WORK_COMPUTE;
    case CHRONO_KIND_MEMCPY:
      return CHRONO_WORK_MEMCPY;
    case CHRONO_KIND_MEMSET:
      return CHRONO_WORK_MEMSET;
    case CHRONO_KIND_COLLECTIVE:
      /* The GPU copy of an nccl:* user annotation is not work. */
      if (strstr (chrono_trace_get_string (trace, t->cat_id[i]), "annotation") != NULL)
        return -1;
      return CHRONO_WORK_COMMUNICATION;
    default:
      return -1;
    }
}

static gint
compare_items (gconstpointer a,
               gconstpointer b)
{
  const ChronoWorkItem *x = a;
  const ChronoWorkItem *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->end != y->end)
    return x->end > y->end ? -1 : 1;
  return x->track < y->track ? -1 : x->track > y->track;
}

static gint
compare_steps (gconstpointer a,
               gconstpointer b)
{
  const ChronoStep *x = a;
  const ChronoStep *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

static gint
compare_syncs (gconstpointer a,
               gconstpointer b)
{
  const ChronoSyncWait *x = a;
  const ChronoSyncWait *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

static ChronoDeviceWork *
device_for_process (GArray  *devices,
                    guint32  process,
                    gint     device)
{
  for (guint i = 0; i < devices->len; i++)
    {
      ChronoDeviceWork *d = &g_array_index (devices, ChronoDeviceWork, i);
      if (d->process == process)
        return d;
    }
  g_array_append_val (devices, ((ChronoDeviceWork) {
    .process = process,
    .device = device,
    .streams = g_array_new (FALSE, FALSE, sizeof (ChronoStreamWork)),
    .items = g_array_new (FALSE, FALSE, sizeof (ChronoWorkItem)),
  }));
  return &g_array_index (devices, ChronoDeviceWork, devices->len - 1);
}

/* The launching call of each span on stream tracks: track -> ChronoSpanRef[n_spans]. */
static GHashTable *
launchers_by_track (ChronoTrace *trace)
{
  GHashTable *map = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  guint n = chrono_trace_get_n_flows (trace);

  for (guint f = 0; f < n; f++)
    {
      const ChronoFlow *flow = chrono_trace_get_flow (trace, f);
      ChronoSpanRef *refs;

      if (flow->type != CHRONO_FLOW_LAUNCH)
        continue;
      refs = g_hash_table_lookup (map, GUINT_TO_POINTER (flow->to.track));
      if (refs == NULL)
        {
          const ChronoTrack *t = chrono_trace_get_track (trace, flow->to.track);
          refs = g_new (ChronoSpanRef, t->n_spans);
          for (guint32 i = 0; i < t->n_spans; i++)
            refs[i].track = G_MAXUINT32;
          g_hash_table_insert (map, GUINT_TO_POINTER (flow->to.track), refs);
        }
      refs[flow->to.index] = flow->from;
    }
  return map;
}

static void
collect_work (ChronoRankData *data)
{
  ChronoTrace *trace = data->trace;
  g_autoptr(GHashTable) launchers = launchers_by_track (trace);

  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);
      const ChronoProcess *p;
      const ChronoSpanRef *launch;
      ChronoDeviceWork *d;
      ChronoStreamWork sw = { .track = ti };

      if (t->type != CHRONO_TRACK_STREAM)
        continue;
      p = chrono_trace_get_process (trace, t->process);
      launch = g_hash_table_lookup (launchers, GUINT_TO_POINTER (ti));
      sw.items = g_array_new (FALSE, FALSE, sizeof (ChronoWorkItem));
      for (guint32 i = 0; i < t->n_spans; i++)
        {
          gint cls = work_class (trace, t, i);
          gint64 start = t->start[i];
          gint64 end = start + t->dur[i];
          ChronoWorkItem item = { .track = ti, .index = i, .launch_start = G_MININT64, .stream_prev = G_MAXUINT32 };

          if (cls < 0 || end <= data->range_start || start >= data->range_end)
            continue;
          item.start = MAX (start, data->range_start);
          item.end = MIN (end, data->range_end);
          item.cls = cls;
          if (launch && launch[i].track != G_MAXUINT32)
            {
              const ChronoTrack *lt = chrono_trace_get_track (trace, launch[i].track);
              item.launch_start = lt->start[launch[i].index];
              item.launch_track = launch[i].track;
              item.launch_index = launch[i].index;
            }
          g_array_append_val (sw.items, item);
        }
      if (sw.items->len == 0)
        {
          g_array_unref (sw.items);
          continue;
        }
      d = device_for_process (data->devices, t->process, p->is_device ? p->device_index : -1);
      g_array_append_vals (d->items, sw.items->data, sw.items->len);
      g_array_append_val (d->streams, sw);
    }
  for (guint i = 0; i < data->devices->len; i++)
    {
      ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, i);
      g_autoptr(GHashTable) last = g_hash_table_new (NULL, NULL);

      g_array_sort (d->items, compare_items);
      for (guint k = 0; k < d->items->len; k++)
        {
          ChronoWorkItem *it = &g_array_index (d->items, ChronoWorkItem, k);
          gpointer prev;

          it->stream_prev = g_hash_table_lookup_extended (last, GUINT_TO_POINTER (it->track), NULL, &prev)
                            ? GPOINTER_TO_UINT (prev) : G_MAXUINT32;
          g_hash_table_insert (last, GUINT_TO_POINTER (it->track), GUINT_TO_POINTER (k));
        }
    }
}

gboolean
chrono_rank_data_last_work (ChronoRankData *data,
                            gint64          start,
                            gint64          end,
                            gint           *device,
                            guint          *item)
{
  gint64 best = G_MININT64;

  for (guint di = 0; di < data->devices->len; di++)
    {
      ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;
      guint lo = 0, hi = d->items->len;

      /* Items are by start; anything ending by END started before it. */
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          if (items[mid].start < end)
            lo = mid + 1;
          else
            hi = mid;
        }
      /* Walk back over the items that started before END. One that
       * started before START can still end inside; a few hundred more
       * cover the streams running alongside it. */
      for (guint k = lo, extra = 0; k-- > 0;)
        {
          if (items[k].start < start && ++extra > 256)
            break;
          if (items[k].end <= end && items[k].end >= start && items[k].end > best)
            {
              best = items[k].end;
              *device = di;
              *item = k;
            }
        }
    }
  return best != G_MININT64;
}

static void
collect_host (ChronoRankData *data)
{
  ChronoTrace *trace = data->trace;
  guint n_strings = chrono_trace_get_n_strings (trace);
  g_autofree guint8 *is_sync = g_new0 (guint8, n_strings);

  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);

      if (t->type != CHRONO_TRACK_THREAD)
        continue;
      for (guint32 i = 0; i < t->n_spans; i++)
        {
          gint64 start = t->start[i];
          gint64 end = start + t->dur[i];

          if (end <= data->range_start || start >= data->range_end)
            continue;
          if (t->kind[i] == CHRONO_KIND_STEP)
            {
              ChronoStep step = { ti, i, start, end, end };
              g_array_append_val (data->steps, step);
            }
          else if (t->kind[i] == CHRONO_KIND_RUNTIME || t->kind[i] == CHRONO_KIND_DRIVER)
            {
              guint32 name = t->name_id[i];
              ChronoSyncWait w = { ti, i, start, end, -1, 0 };

              if (is_sync[name] == 0)
                is_sync[name] = chrono_analysis_name_is_sync (chrono_trace_get_string (trace, name)) ? 2 : 1;
              if (is_sync[name] == 2)
                {
                  chrono_rank_data_last_work (data, start, end, &w.device, &w.item);
                  g_array_append_val (data->syncs, w);
                }
            }
        }
    }
  g_array_sort (data->syncs, compare_syncs);
  g_array_sort (data->steps, compare_steps);

  /* A step lasts until the device work it launched is done. */
  for (guint di = 0; di < data->devices->len && data->steps->len > 0; di++)
    {
      ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      ChronoStep *steps = (ChronoStep *) data->steps->data;

      for (guint k = 0; k < d->items->len; k++)
        {
          const ChronoWorkItem *it = &g_array_index (d->items, ChronoWorkItem, k);
          guint lo = 0, hi = data->steps->len;

          if (it->launch_start == G_MININT64)
            continue;
          while (lo < hi)
            {
              guint mid = lo + (hi - lo) / 2;
              if (steps[mid].start <= it->launch_start)
                lo = mid + 1;
              else
                hi = mid;
            }
          if (lo > 0 && it->launch_start < steps[lo - 1].end)
            steps[lo - 1].work_end = MAX (steps[lo - 1].work_end, it->end);
        }
    }
}

ChronoRankData *
chrono_rank_data_new (ChronoTrace                 *trace,
                      guint32                      trace_index,
                      const ChronoAnalysisOptions *options)
{
  ChronoRankData *data = g_new0 (ChronoRankData, 1);

  data->trace = g_object_ref (trace);
  data->trace_index = trace_index;
  data->range_start = G_MININT64;
  data->range_end = G_MAXINT64;
  if (options->range_end_ns > options->range_start_ns)
    {
      data->range_start = options->range_start_ns;
      data->range_end = options->range_end_ns;
    }
  data->devices = g_array_new (FALSE, FALSE, sizeof (ChronoDeviceWork));
  data->syncs = g_array_new (FALSE, FALSE, sizeof (ChronoSyncWait));
  data->steps = g_array_new (FALSE, FALSE, sizeof (ChronoStep));
  collect_work (data);
  collect_host (data);
  return data;
}

void
chrono_rank_data_free (ChronoRankData *data)
{
  for (guint i = 0; i < data->devices->len; i++)
    {
      ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, i);
      for (guint s = 0; s < d->streams->len; s++)
        g_array_unref (g_array_index (d->streams, ChronoStreamWork, s).items);
      g_array_unref (d->streams);
      g_array_unref (d->items);
    }
  g_array_unref (data->devices);
  g_array_unref (data->syncs);
  g_array_unref (data->steps);
  g_clear_pointer (&data->flows_of, g_hash_table_unref);
  g_object_unref (data->trace);
  g_free (data);
}

/* ------------------------------------------------------------------ */
/* Intervals                                                          */

GArray *
chrono_intervals_merge (const ChronoWorkItem *items,
                        guint                 n_items,
                        guint                 class_mask)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (ChronoInterval));

  for (guint i = 0; i < n_items; i++)
    {
      ChronoInterval *last;

      if (((1u << items[i].cls) & class_mask) == 0 || items[i].end <= items[i].start)
        continue;
      last = out->len ? &g_array_index (out, ChronoInterval, out->len - 1) : NULL;
      if (last && items[i].start <= last->end)
        last->end = MAX (last->end, items[i].end);
      else
        g_array_append_val (out, ((ChronoInterval) { items[i].start, items[i].end, i }));
    }
  return out;
}

gint64
chrono_intervals_length (GArray *intervals)
{
  gint64 sum = 0;

  for (guint i = 0; i < intervals->len; i++)
    {
      const ChronoInterval *v = &g_array_index (intervals, ChronoInterval, i);
      sum += v->end - v->start;
    }
  return sum;
}

gint64
chrono_intervals_overlap (GArray *a,
                          GArray *b)
{
  gint64 sum = 0;
  guint i = 0, j = 0;

  while (i < a->len && j < b->len)
    {
      const ChronoInterval *x = &g_array_index (a, ChronoInterval, i);
      const ChronoInterval *y = &g_array_index (b, ChronoInterval, j);
      gint64 lo = MAX (x->start, y->start);
      gint64 hi = MIN (x->end, y->end);

      if (hi > lo)
        sum += hi - lo;
      if (x->end < y->end)
        i++;
      else
        j++;
    }
  return sum;
}
