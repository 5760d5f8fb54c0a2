/* chrono-analysis-deps.c: where a rank's work items are, and the
 * dependencies between them
 *
 * A dependency is a flow of the trace from work on one stream or engine
 * to work on another (a Neuron instruction's inst_dep_ids and semaphore
 * waits, an NPU's task flows), or a CUDA event wait. The ledgers and the
 * critical paths ask for the dependencies into every gap they walk, so
 * they are indexed by the item they lead to.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-analysis-private.h"

/* Where each span of a stream track is among its device's items: a
 * flow's two ends are found in constant time, not by searching. */
typedef struct {
  guint   device;
  guint32 item[];        /* by span index; G_MAXUINT32 when not an item */
} ChronoTrackItems;

GPtrArray *
chrono_rank_data_index_items (ChronoRankData *data)
{
  GPtrArray *map = g_ptr_array_new_full (chrono_trace_get_n_tracks (data->trace), g_free);

  g_ptr_array_set_size (map, chrono_trace_get_n_tracks (data->trace));
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);

      for (guint s = 0; s < d->streams->len; s++)
        {
          guint32 track = g_array_index (d->streams, ChronoStreamWork, s).track;
          guint32 n = chrono_trace_get_track (data->trace, track)->n_spans;
          ChronoTrackItems *entry = g_malloc (sizeof *entry + n * sizeof (guint32));

          entry->device = di;
          memset (entry->item, 0xff, n * sizeof (guint32));
          map->pdata[track] = entry;
        }
      for (guint k = 0; k < d->items->len; k++)
        {
          const ChronoWorkItem *it = &g_array_index (d->items, ChronoWorkItem, k);
          ChronoTrackItems *entry = map->pdata[it->track];

          entry->item[it->index] = k;
        }
    }
  return map;
}

gboolean
chrono_rank_data_find_item (ChronoRankData *data,
                            ChronoSpanRef   span,
                            guint          *device,
                            guint          *item)
{
  const ChronoTrackItems *entry;

  g_assert (data->item_of != NULL);
  entry = span.track < data->item_of->len ? data->item_of->pdata[span.track] : NULL;
  if (entry == NULL || entry->item[span.index] == G_MAXUINT32)
    return FALSE;
  *device = entry->device;
  *item = entry->item[span.index];
  return TRUE;
}

static void
add_dep (ChronoRankData *data,
         ChronoWorkDep   dep)
{
  g_array_append_val (data->deps, dep);
}

/* Each device's deps by the item they lead to, counted into place: the
 * ledger and the paths ask for the dependencies of every gap they walk.
 * A dependency's index grows as they are read, so an item's keep their
 * order. */
static void
index_deps (ChronoRankData *data)
{
  const ChronoWorkDep *deps = (const ChronoWorkDep *) data->deps->data;

  for (guint di = 0; di < data->devices->len; di++)
    {
      ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);

      d->deps_start = g_new0 (guint, d->items->len + 1);
    }
  for (guint i = 0; i < data->deps->len; i++)
    g_array_index (data->devices, ChronoDeviceWork, deps[i].to_device).deps_start[deps[i].to_item + 1]++;
  for (guint di = 0; di < data->devices->len; di++)
    {
      ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);

      for (guint k = 0; k < d->items->len; k++)
        d->deps_start[k + 1] += d->deps_start[k];
      d->deps_into = g_new (guint, MAX (d->deps_start[d->items->len], 1));
    }
  for (guint i = 0; i < data->deps->len; i++)
    {
      ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, deps[i].to_device);

      /* The start of the item after fills the item backwards: shifted
       * back at the end. */
      d->deps_into[d->deps_start[deps[i].to_item]++] = i;
    }
  for (guint di = 0; di < data->devices->len; di++)
    {
      ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);

      for (guint k = d->items->len; k-- > 0;)
        d->deps_start[k + 1] = d->deps_start[k];
      d->deps_start[0] = 0;
    }
}

const guint *
chrono_rank_data_deps_to (ChronoRankData       *data,
                          const ChronoWorkItem *it,
                          guint                *n_deps)
{
  const ChronoDeviceWork *d;
  guint device, item;

  *n_deps = 0;
  if (!chrono_rank_data_find_item (data, (ChronoSpanRef) { it->track, it->index }, &device, &item))
    return NULL;
  d = &g_array_index (data->devices, ChronoDeviceWork, device);
  *n_deps = d->deps_start[item + 1] - d->deps_start[item];
  return d->deps_into + d->deps_start[item];
}

/* An integer member of the args object at OFFSET, read from the raw text. */
gboolean
chrono_analysis_arg_number (ChronoTrace *trace,
                            guint64      offset,
                            const char  *quoted_key,
                            gdouble     *value)
{
  gsize len, key_len = strlen (quoted_key);
  const char *text, *hit, *end;

  if (offset == CHRONO_NO_ARGS || (text = chrono_trace_get_raw_value (trace, offset, &len)) == NULL)
    return FALSE;
  if ((hit = memmem (text, len, quoted_key, key_len)) == NULL)
    return FALSE;
  end = text + len;
  hit += key_len;
  while (hit < end && (*hit == ' ' || *hit == ':' || *hit == '"'))
    hit++;
  if (hit >= end || !(g_ascii_isdigit (*hit) || *hit == '-' || *hit == '.'))
    return FALSE;
  *value = g_ascii_strtod (hit, NULL);
  return TRUE;
}

typedef struct {
  guint32 track;         /* the Stream Wait Event span */
  guint32 index;
  gint64  record_corr;
  gint64  wait_on_stream;
} EventWait;

/* cudaStreamWaitEvent: Kineto's "Stream Wait Event" on the waiting stream
 * names the stream waited on and the correlation of the cudaEventRecord
 * call; the recorded work is the last launched on that stream before the
 * record call, the waiting work the next on the waiting stream. */
static void
collect_event_waits (ChronoRankData *data)
{
  ChronoTrace *trace = data->trace;
  g_autoptr(GArray) waits = g_array_new (FALSE, FALSE, sizeof (EventWait));
  g_autoptr(GHashTable) records = g_hash_table_new (g_int64_hash, g_int64_equal);  /* corr -> start of the record call */

  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);

      if (t->type != CHRONO_TRACK_STREAM || !chrono_rank_data_has_track (data, ti))
        continue;
      for (guint32 i = 0; i < t->n_spans; i++)
        {
          EventWait w = { ti, i, -1, -1 };
          gdouble v;

          if (t->kind[i] != CHRONO_KIND_SYNC ||
              strcmp (chrono_trace_get_string (trace, chrono_track_get_name (t, i)), "Stream Wait Event") != 0)
            continue;
          if (!chrono_analysis_arg_number (trace, chrono_track_get_args (t, i), "\"wait_on_cuda_event_record_corr_id\"", &v) || v < 0)
            continue;
          w.record_corr = (gint64) v;
          if (!chrono_analysis_arg_number (trace, chrono_track_get_args (t, i), "\"wait_on_stream\"", &v) || v < 0)
            continue;
          w.wait_on_stream = (gint64) v;
          g_array_append_val (waits, w);
        }
    }
  if (waits->len == 0)
    return;

  for (guint i = 0; i < waits->len; i++)
    g_hash_table_insert (records, &g_array_index (waits, EventWait, i).record_corr, NULL);
  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);

      if (t->type != CHRONO_TRACK_THREAD || t->correlation.data == NULL || !chrono_rank_data_has_track (data, ti))
        continue;
      for (guint32 i = 0; i < t->n_spans; i++)
        {
          gint64 corr = chrono_track_get_correlation (t, i);

          /* Inserting under a key the table has keeps the table's key:
           * CORR's address does not stay in it. */
          if (corr >= 0 && t->kind[i] == CHRONO_KIND_RUNTIME && g_hash_table_contains (records, &corr))
            g_hash_table_insert (records, &corr, (gpointer) &t->start[i]);
        }
    }

  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;
      g_autoptr(GHashTable) by_track = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
      g_autoptr(GHashTable) by_stream = g_hash_table_new (g_int64_hash, g_int64_equal);

      /* Each stream's items, as indices into the device's items. */
      for (guint k = 0; k < d->items->len; k++)
        {
          GArray *list = g_hash_table_lookup (by_track, GUINT_TO_POINTER (items[k].track));
          if (list == NULL)
            {
              list = g_array_new (FALSE, FALSE, sizeof (guint));
              g_hash_table_insert (by_track, GUINT_TO_POINTER (items[k].track), list);
            }
          g_array_append_val (list, k);
        }
      for (guint si = 0; si < d->streams->len; si++)
        {
          ChronoStreamWork *sw = &g_array_index (d->streams, ChronoStreamWork, si);
          g_hash_table_insert (by_stream, &sw->stream, g_hash_table_lookup (by_track, GUINT_TO_POINTER (sw->track)));
        }

      for (guint w = 0; w < waits->len; w++)
        {
          const EventWait *ew = &g_array_index (waits, EventWait, w);
          const gint64 *record_start = g_hash_table_lookup (records, &ew->record_corr);
          GArray *from = g_hash_table_lookup (by_stream, &ew->wait_on_stream);
          GArray *to = g_hash_table_lookup (by_track, GUINT_TO_POINTER (ew->track));
          gint64 wait_start = chrono_trace_get_track (trace, ew->track)->start[ew->index];
          ChronoWorkDep dep = { G_MAXUINT, 0, di, 0, CHRONO_EDGE_EVENT_WAIT };
          guint lo, hi;

          if (record_start == NULL || from == NULL || to == NULL)
            continue;
          /* Launches on a stream come in the order the work runs. */
          for (lo = 0, hi = from->len; lo < hi;)
            {
              guint mid = lo + (hi - lo) / 2;
              if (items[g_array_index (from, guint, mid)].launch_start <= *record_start)
                lo = mid + 1;
              else
                hi = mid;
            }
          if (lo == 0)
            continue;
          dep.from_device = di;
          dep.from_item = g_array_index (from, guint, lo - 1);
          for (lo = 0, hi = to->len; lo < hi;)
            {
              guint mid = lo + (hi - lo) / 2;
              if (items[g_array_index (to, guint, mid)].start < wait_start)
                lo = mid + 1;
              else
                hi = mid;
            }
          if (lo == to->len)
            continue;
          dep.to_item = g_array_index (to, guint, lo);
          add_dep (data, dep);
        }
    }
}

/* Flows of the trace from work on one stream or engine to work on
 * another, among FLOWS (indices of such flows that are not launches). */
static void
collect_flow_deps (ChronoRankData *data,
                   GArray         *flows)
{
  const ChronoFlow *all = chrono_trace_get_flows (data->trace);
  ChronoFill deps;

  /* A dependency at most per flow, after the event waits: filled in place. */
  chrono_fill_start (&deps, data->deps, data->deps->len + flows->len);
  for (guint k = 0; k < flows->len; k++)
    {
      const ChronoFlow *flow = &all[g_array_index (flows, guint, k)];
      ChronoWorkDep dep = { .type = CHRONO_EDGE_FLOW, .semaphore = flow->type == CHRONO_FLOW_SEMAPHORE };

      if (!chrono_rank_data_has_track (data, flow->from.track) || !chrono_rank_data_has_track (data, flow->to.track))
        continue;
      if (chrono_rank_data_find_item (data, flow->from, &dep.from_device, &dep.from_item) &&
          chrono_rank_data_find_item (data, flow->to, &dep.to_device, &dep.to_item))
        *(ChronoWorkDep *) chrono_fill_next (&deps) = dep;
    }
  chrono_fill_end (&deps);
}

void
chrono_rank_data_collect_deps (ChronoRankData *data,
                               GArray         *flows)
{
  collect_event_waits (data);
  collect_flow_deps (data, flows);
  index_deps (data);
}
