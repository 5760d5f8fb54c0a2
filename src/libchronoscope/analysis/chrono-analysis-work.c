/* chrono-analysis-work.c: the device work, host waits and steps of a trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-analysis-private.h"
#include "chrono-neuron-metrics.h"

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

/* The operator that reads a device's scalar into the host (under
 * .item(), a bool of a tensor, printing one): it returns only when the
 * device's queue has run up to it. Taken as a synchronising call only
 * where the trace records no runtime calls, which would name the wait
 * themselves. */
static gboolean
name_is_op_sync (const char *name)
{
  return strcmp (name, "aten::_local_scalar_dense") == 0;
}

gboolean
chrono_analysis_name_is_data_loading (const char *name)
{
  /* enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__, and
   * the dataloader spans of Lightning and of custom loops. */
  return strstr (name, "DataLoader") != NULL || strstr (name, "dataloader") != NULL;
}

gboolean
chrono_rank_data_has_track (ChronoRankData *data,
                            guint32         track)
{
  guint32 process = data->tracks[track]->process;

  return process >= data->first_process && process - data->first_process < data->n_processes;
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
      if (strstr (chrono_trace_get_string (trace, chrono_track_get_cat (t, i)), "annotation") != NULL)
        return -1;
      return CHRONO_WORK_COMMUNICATION;
    case CHRONO_KIND_INSTRUCTION:
      return CHRONO_WORK_COMPUTE;
    case CHRONO_KIND_DMA:
      return CHRONO_WORK_MEMCPY;
    default:
      return -1;
    }
}

gint64
chrono_analysis_stream_id (ChronoTrace       *trace,
                           const ChronoTrack *t)
{
  const char *text, *digits;

  if (!t->tid.is_string)
    return t->tid.value;
  text = chrono_trace_get_string (trace, (guint32) t->tid.value);
  digits = strrchr (text, ' ');
  digits = digits ? digits + 1 : text;
  return g_ascii_isdigit (*digits) ? g_ascii_strtoll (digits, NULL, 10) : -1;
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

guint
chrono_lower_bound (gconstpointer base,
                    guint         n,
                    gsize         size,
                    gsize         offset,
                    gint64        value)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (G_STRUCT_MEMBER (gint64, (const guint8 *) base + (gsize) mid * size, offset) < value)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint
chrono_lower_bound_near (gconstpointer base,
                         guint         n,
                         gsize         size,
                         gsize         offset,
                         gint64        value,
                         guint         hint)
{
#define AT(i) G_STRUCT_MEMBER (gint64, (const guint8 *) base + (gsize) (i) * size, offset)
  for (guint k = hint; k <= MIN (hint + 1, n); k++)
    if ((k == 0 || AT (k - 1) < value) && (k == n || AT (k) >= value))
      return k;
#undef AT
  return chrono_lower_bound (base, n, size, offset, value);
}

/* An NPU's streams and its collectives are processes of their own, with
 * the device's index. */
static gint
find_device (GArray  *devices,
             guint32  process,
             gint     device)
{
  for (guint i = 0; i < devices->len; i++)
    {
      ChronoDeviceWork *d = &g_array_index (devices, ChronoDeviceWork, i);

      if (d->process == process || (device >= 0 && d->device == device))
        return (gint) i;
    }
  return -1;
}

gint
chrono_rank_data_device_of_track (ChronoRankData *data,
                                  guint32         track)
{
  guint32 process = chrono_trace_get_track (data->trace, track)->process;
  const ChronoProcess *p = chrono_trace_get_process (data->trace, process);

  return find_device (data->devices, process, p->is_device ? p->device_index : -1);
}

static ChronoDeviceWork *
device_for_process (GArray  *devices,
                    guint32  process,
                    gint     device)
{
  gint i = find_device (devices, process, device);

  if (i >= 0)
    return &g_array_index (devices, ChronoDeviceWork, i);
  g_array_append_val (devices, ((ChronoDeviceWork) {
    .process = process,
    .device = device,
    .streams = g_array_new (FALSE, FALSE, sizeof (ChronoStreamWork)),
    .items = g_array_new (FALSE, FALSE, sizeof (ChronoWorkItem)),
  }));
  return &g_array_index (devices, ChronoDeviceWork, devices->len - 1);
}

/* The item span SPAN of stream track T (index TRACK) makes, as far as
 * its span can tell: its times within the range and its class, without
 * its launch and its place on the stream. */
static inline ChronoWorkItem
span_item (const ChronoRankData *data,
           const ChronoTrack    *t,
           guint32               track,
           guint32               span)
{
  ChronoWorkItem item = {
    .track = track, .index = span,
    .launch_start = G_MININT64, .stream_prev = G_MAXUINT32,
    .cls = (guint8) work_class (data->trace, t, span),
  };

  chrono_rank_data_span_times (data, t, span, &item.start, &item.end);
  return item;
}

/* What the items of one stream are made from. */
typedef struct {
  const ChronoTrack   *t;
  const ChronoSpanRef *launch;   /* by span, or NULL */
  const ChronoTrack   *lt;       /* the thread of the last launch looked up */
  guint32              lt_index;
} StreamSource;

/* The item span SPAN of stream SW makes, with its launch. */
static ChronoWorkItem
make_item (const ChronoRankData   *data,
           const ChronoStreamWork *sw,
           StreamSource           *src,
           guint32                 span)
{
  ChronoWorkItem item = span_item (data, src->t, sw->track, span);

  if (src->launch && src->launch[span].track != G_MAXUINT32)
    {
      /* Most of a stream's work is launched from one thread. */
      if (src->launch[span].track != src->lt_index)
        src->lt = chrono_trace_get_track (data->trace, src->lt_index = src->launch[span].track);
      item.launch_start = src->lt->start[src->launch[span].index];
      item.launch_track = src->launch[span].track;
      item.launch_index = src->launch[span].index;
    }
  return item;
}

/* A stream's spans in the order of their items. A track's spans come by
 * start; those of equal starts are put longest first, as the sort of the
 * items would, by inserting each where it belongs: the few out of order
 * move a few places. */
static void
order_spans (const ChronoRankData *data,
             ChronoStreamWork     *sw)
{
  const ChronoTrack *t = chrono_trace_get_track (data->trace, sw->track);
  guint32 *spans = (guint32 *) sw->spans->data;

  for (guint k = 1; k < sw->spans->len; k++)
    {
      guint32 span = spans[k];
      gint64 start, end;
      guint j = k;

      chrono_rank_data_span_times (data, t, span, &start, &end);
      for (; j > 0; j--)
        {
          gint64 before_start, before_end;

          /* By start, then longest first: as compare_items() on one track. */
          chrono_rank_data_span_times (data, t, spans[j - 1], &before_start, &before_end);
          if (before_start < start || (before_start == start && before_end >= end))
            break;
          spans[j] = spans[j - 1];
        }
      spans[j] = span;
    }
}

/* Whether stream A's next item, of HEAD, comes before stream B's. */
static gboolean
stream_before (guint         a,
               guint         b,
               gconstpointer head)
{
  return compare_items (&((const ChronoWorkItem *) head)[a], &((const ChronoWorkItem *) head)[b]) < 0;
}

/* The device's items, every stream's in order, each with its previous
 * on its stream, and each stream's items' positions among them. Merging
 * the streams gives the order a stable sort of all the items would
 * (items of different streams never compare equal). */
static void
merge_streams (ChronoRankData   *data,
               ChronoDeviceWork *d,
               GHashTable       *launchers)
{
  guint n_streams = d->streams->len, total = 0, k = 0;
  g_autofree StreamSource *src = g_new0 (StreamSource, n_streams);
  g_autofree guint *pos = g_new0 (guint, n_streams);
  g_autofree guint *last = g_new (guint, n_streams);
  g_autofree ChronoWorkItem *head = g_new (ChronoWorkItem, n_streams);
  g_autofree guint *heap = g_new (guint, n_streams);
  guint n_heap = 0;
  ChronoWorkItem *out;

  for (guint s = 0; s < n_streams; s++)
    {
      ChronoStreamWork *sw = &g_array_index (d->streams, ChronoStreamWork, s);

      src[s] = (StreamSource) { chrono_trace_get_track (data->trace, sw->track),
                                g_hash_table_lookup (launchers, GUINT_TO_POINTER (sw->track)), NULL, G_MAXUINT32 };
      sw->positions = g_array_sized_new (FALSE, FALSE, sizeof (guint), sw->spans->len);
      g_array_set_size (sw->positions, sw->spans->len);
      total += sw->spans->len;
      last[s] = G_MAXUINT32;
    }
  g_array_set_size (d->items, total);
  out = (ChronoWorkItem *) d->items->data;
  /* A heap of the streams by their next item; the first stream's items
   * go out until one comes after the next stream's. */
  for (guint s = 0; s < n_streams; s++)
    {
      ChronoStreamWork *sw = &g_array_index (d->streams, ChronoStreamWork, s);

      head[s] = make_item (data, sw, &src[s], g_array_index (sw->spans, guint32, 0));
      heap[n_heap++] = s;
    }
  for (guint h = n_heap; h-- > 0;)
    chrono_heap_sift (heap, n_heap, h, stream_before, head);
  while (n_heap > 0)
    {
      guint from = heap[0];
      ChronoStreamWork *sw = &g_array_index (d->streams, ChronoStreamWork, from);
      const ChronoWorkItem *next = n_heap < 2 ? NULL
                                 : &head[n_heap > 2 && stream_before (heap[2], heap[1], head) ? heap[2] : heap[1]];
      gboolean done = FALSE;

      do
        {
          out[k] = head[from];
          out[k].stream_prev = last[from];
          g_array_index (sw->positions, guint, pos[from]) = k;
          last[from] = k++;
          if (++pos[from] < sw->spans->len)
            head[from] = make_item (data, sw, &src[from], g_array_index (sw->spans, guint32, pos[from]));
          else
            done = TRUE;
        }
      while (!done && (next == NULL || compare_items (&head[from], next) < 0));
      if (done)
        heap[0] = heap[--n_heap];
      chrono_heap_sift (heap, n_heap, 0, stream_before, head);
    }
}

/* The device's items merged, all and by class, in one pass: an
 * interval at most per item. */
static void
merge_classes (ChronoDeviceWork *d)
{
  const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;
  guint n = d->items->len;
  ChronoFill busy, compute, communication, copies;

  chrono_fill_start (&busy, g_array_new (FALSE, FALSE, sizeof (ChronoInterval)), n);
  chrono_fill_start (&compute, g_array_new (FALSE, FALSE, sizeof (ChronoInterval)), n);
  chrono_fill_start (&communication, g_array_new (FALSE, FALSE, sizeof (ChronoInterval)), n);
  chrono_fill_start (&copies, g_array_new (FALSE, FALSE, sizeof (ChronoInterval)), n);
  for (guint i = 0; i < n; i++)
    {
      d->n_of_class[items[i].cls]++;
      if (items[i].end <= items[i].start)
        continue;
      chrono_fill_merge (&busy, items[i].start, items[i].end, i);
      if (items[i].cls == CHRONO_WORK_COMPUTE)
        chrono_fill_merge (&compute, items[i].start, items[i].end, i);
      else if (items[i].cls == CHRONO_WORK_COMMUNICATION)
        chrono_fill_merge (&communication, items[i].start, items[i].end, i);
      else if (items[i].cls == CHRONO_WORK_MEMCPY || items[i].cls == CHRONO_WORK_MEMSET)
        chrono_fill_merge (&copies, items[i].start, items[i].end, i);
    }
  d->busy = chrono_fill_end (&busy);
  d->compute = chrono_fill_end (&compute);
  d->communication = chrono_fill_end (&communication);
  d->copies = chrono_fill_end (&copies);
}

/* A per-span array of track T in MAP, made of N_BYTES zero bytes when
 * first asked for. */
static gpointer
per_span (GHashTable *map,
          guint32     track,
          gsize       n_bytes)
{
  gpointer v = g_hash_table_lookup (map, GUINT_TO_POINTER (track));

  if (v == NULL)
    g_hash_table_insert (map, GUINT_TO_POINTER (track), v = g_malloc0 (MAX (n_bytes, 1)));
  return v;
}

/* The launching call of each span on stream tracks: track ->
 * ChronoSpanRef[n_spans]; in LAUNCHED, the spans of host threads that
 * launched work: track -> guint8[n_spans]; in OTHERS, the indices of the
 * other flows between two streams or engines. */
static GHashTable *
launchers_by_track (ChronoTrace *trace,
                    GHashTable  *launched,
                    GArray      *others)
{
  GHashTable *map = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  guint n = chrono_trace_get_n_flows (trace), n_tracks = chrono_trace_get_n_tracks (trace);
  const ChronoFlow *flows = chrono_trace_get_flows (trace);
  g_autofree guint8 *stream = g_new (guint8, MAX (n_tracks, 1));
  guint32 last_track = G_MAXUINT32, last_from = G_MAXUINT32;
  ChronoSpanRef *refs = NULL;
  guint8 *bits = NULL;
  ChronoFill other;

  for (guint t = 0; t < n_tracks; t++)
    stream[t] = chrono_trace_get_track (trace, t)->type == CHRONO_TRACK_STREAM;
  chrono_fill_start (&other, others, n);
  for (guint f = 0; f < n; f++)
    {
      const ChronoFlow *flow = &flows[f];

      if (flow->type != CHRONO_FLOW_LAUNCH)
        {
          /* Most are between host threads (forward to backward). */
          if (flow->from.track != flow->to.track && stream[flow->from.track] && stream[flow->to.track])
            *(guint *) chrono_fill_next (&other) = f;
          continue;
        }
      /* Launches from one thread mostly come together too. */
      if (flow->from.track != last_from)
        bits = per_span (launched, last_from = flow->from.track, chrono_trace_get_track (trace, flow->from.track)->n_spans);
      bits[flow->from.index] = 1;
      /* Flows to one stream mostly come together. */
      if (flow->to.track != last_track)
        {
          last_track = flow->to.track;
          refs = g_hash_table_lookup (map, GUINT_TO_POINTER (flow->to.track));
        }
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
  chrono_fill_end (&other);
  return map;
}

typedef struct {
  ChronoRankData                 *data;
  const ChronoAnalysisThresholds *thresholds;
} MetricsJob;

/* Each NeuronCore's metrics read every instruction's record again: they
 * need only its rows of work, so they are read while the rows are merged
 * and the dependencies and the ledgers are made, and the rules find them
 * ready. */
static gpointer
read_metrics (gpointer user_data)
{
  g_autofree MetricsJob *job = user_data;

  for (guint d = 0; d < job->data->devices->len; d++)
    chrono_neuron_metrics_of (job->data, d, job->thresholds);
  return NULL;
}

static void
start_metrics (ChronoRankData                 *data,
               const ChronoAnalysisThresholds *thresholds)
{
  MetricsJob *job;

  for (guint d = 0; d < data->devices->len; d++)
    if (chrono_neuron_is_core (data->trace, &g_array_index (data->devices, ChronoDeviceWork, d)))
      {
        job = g_new (MetricsJob, 1);
        *job = (MetricsJob) { data, thresholds };
        data->metrics = g_thread_new ("chrono-neuron", read_metrics, job);
        return;
      }
}

static void
collect_work (ChronoRankData                 *data,
              const ChronoAnalysisThresholds *thresholds,
              GHashTable                     *launched,
              GArray                         *other_flows)
{
  ChronoTrace *trace = data->trace;
  g_autoptr(GHashTable) launchers = launchers_by_track (trace, launched, other_flows);
  ChronoFill collectives;
  guint n_items = 0;

  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);
      const ChronoProcess *p;
      ChronoDeviceWork *d;
      ChronoStreamWork sw;
      ChronoFill spans;

      if (t->type != CHRONO_TRACK_STREAM || !chrono_rank_data_has_track (data, ti))
        continue;
      sw = (ChronoStreamWork) { .track = ti, .stream = chrono_analysis_stream_id (trace, t) };
      p = chrono_trace_get_process (trace, t->process);
      /* At most one per span. */
      chrono_fill_start (&spans, g_array_new (FALSE, FALSE, sizeof (guint32)), t->n_spans);
      for (guint32 i = 0; i < t->n_spans; i++)
        {
          gint64 start = t->start[i];
          gint64 end = start + chrono_track_get_dur (t, i);

          if (end > data->range_start && start < data->range_end && work_class (trace, t, i) >= 0)
            *(guint32 *) chrono_fill_next (&spans) = i;
        }
      sw.spans = chrono_fill_end (&spans);
      if (sw.spans->len == 0)
        {
          g_array_unref (sw.spans);
          continue;
        }
      order_spans (data, &sw);
      d = device_for_process (data->devices, t->process, p->is_device ? p->device_index : -1);
      g_array_append_val (d->streams, sw);
    }
  /* The devices and their rows are all found: what follows adds none,
   * and the NeuronCores' metrics read only the rows' spans. */
  start_metrics (data, thresholds);
  for (guint i = 0; i < data->devices->len; i++)
    {
      ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, i);

      merge_streams (data, d, launchers);
      merge_classes (d);
      n_items += d->items->len;
    }
  chrono_fill_start (&collectives, data->collectives, n_items);
  for (guint i = 0; i < data->devices->len; i++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, i);

      for (guint k = 0; k < d->items->len; k++)
        {
          const ChronoWorkItem *it = &g_array_index (d->items, ChronoWorkItem, k);

          if (it->cls == CHRONO_WORK_COMMUNICATION)
            *(ChronoWorkItem *) chrono_fill_next (&collectives) = *it;
        }
    }
  chrono_fill_end (&collectives);
  chrono_array_sort_by_int64 (data->collectives, G_STRUCT_OFFSET (ChronoWorkItem, start));
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
      /* Items are by start; anything ending by END started before it. */
      guint lo = chrono_lower_bound (items, d->items->len, sizeof *items,
                                     G_STRUCT_OFFSET (ChronoWorkItem, start), end);

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

/* Whether a runtime call asks if device work is done without blocking:
 * a loop of them is the host waiting for the device. */
static gboolean
name_is_poll (const char *name)
{
  return strstr (name, "EventQuery") != NULL || strstr (name, "StreamQuery") != NULL;
}

/* Polls at most this far apart are one wait. */
#define POLL_GAP_NS (50 * 1000)

/* A run of polls as one wait: from the first poll's start to the last's
 * end, for the device work that finished while the host polled. */
static void
close_poll (ChronoRankData *data,
            ChronoSyncWait *poll)
{
  if (poll->track != G_MAXUINT32 &&
      chrono_rank_data_last_work (data, poll->start, poll->end, &poll->device, &poll->item))
    g_array_append_val (data->syncs, *poll);
  poll->track = G_MAXUINT32;
}

/* Host ops looked at for recorded shapes: record_shapes=True writes them on
 * every op, so the first ones tell. */
#define SHAPE_SAMPLE 4096

static gboolean
is_launch (const char *name)
{
  return strstr (name, "Launch") != NULL || strstr (name, "launch") != NULL;
}

static gboolean
is_graph_launch (const char *name)
{
  return strstr (name, "GraphLaunch") != NULL;
}

/* The rank's host launches, which of them have work in the trace (the
 * spans of LAUNCHED), and whether its first operators record shapes. */
static void
count_host (ChronoRankData    *data,
            const ChronoTrack *t,
            guint32            i,
            const guint8      *launched,
            guint8            *launch_kind,
            guint             *sampled,
            gint64            *linked_until)
{
  ChronoHostCounts *c = &data->host;
  guint32 name;

  if (t->kind[i] == CHRONO_KIND_HOST_OP)
    {
      c->host_ops++;
      if (!c->shapes && (*sampled)++ < SHAPE_SAMPLE)
        {
          gsize len;
          guint64 off = chrono_track_get_args (t, i);
          const char *text = off != CHRONO_NO_ARGS ? chrono_trace_get_raw_value (data->trace, off, &len) : NULL;

          c->shapes = text != NULL && memmem (text, len, "\"Input Dims\"", 12) != NULL;
        }
      return;
    }
  if (t->kind[i] != CHRONO_KIND_RUNTIME && t->kind[i] != CHRONO_KIND_DRIVER)
    return;
  name = chrono_track_get_name (t, i);
  if (launch_kind[name] == 0)
    {
      const char *text = chrono_trace_get_string (data->trace, name);

      launch_kind[name] = is_graph_launch (text) ? 3 : is_launch (text) ? 2 : 1;
    }
  /* A launch inside a linked one is a lower layer of the same launch
   * (CANN's Runtime@KernelLaunch inside Node@launch), not one of its own. */
  if (launch_kind[name] == 1 || t->start[i] < *linked_until)
    return;
  c->launches++;
  c->graph_launches += launch_kind[name] == 3;
  if (launched != NULL && launched[i])
    {
      c->linked++;
      *linked_until = MAX (*linked_until, chrono_track_get_end (t, i));
    }
}

static void
collect_host (ChronoRankData *data,
              GHashTable     *launched)
{
  ChronoTrace *trace = data->trace;
  guint n_strings = chrono_trace_get_n_strings (trace);
  g_autofree guint8 *is_sync = g_new0 (guint8, n_strings);   /* 0 unknown, 1 no, 2 sync, 3 poll, 4 operator sync */
  g_autofree guint8 *launch_kind = g_new0 (guint8, n_strings); /* 0 unknown, 1 other, 2 launch, 3 graph launch */
  g_autoptr(GArray) op_syncs = g_array_new (FALSE, FALSE, sizeof (ChronoSyncWait));
  guint64 runtime_calls = 0;
  guint sampled = 0;

  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);
      const guint8 *bits = g_hash_table_lookup (launched, GUINT_TO_POINTER (ti));
      ChronoSyncWait poll = { .track = G_MAXUINT32 };
      gint64 linked_until = G_MININT64;

      if (t->type != CHRONO_TRACK_THREAD || !chrono_rank_data_has_track (data, ti))
        continue;
      for (guint32 i = 0; i < t->n_spans; i++)
        {
          gint64 start = t->start[i];
          gint64 end = start + chrono_track_get_dur (t, i);

          if (end <= data->range_start || start >= data->range_end)
            continue;
          count_host (data, t, i, bits, launch_kind, &sampled, &linked_until);
          if (t->kind[i] == CHRONO_KIND_STEP)
            {
              ChronoStep step = { ti, i, start, end, end };
              g_array_append_val (data->steps, step);
            }
          else if (t->kind[i] == CHRONO_KIND_HOST_OP && data->devices->len > 0)
            {
              guint32 name = chrono_track_get_name (t, i);

              if (is_sync[name] == 0)
                is_sync[name] = name_is_op_sync (chrono_trace_get_string (trace, name)) ? 4 : 1;
              if (is_sync[name] == 4)
                {
                  ChronoSyncWait w = { ti, i, start, end, -1, 0 };

                  chrono_rank_data_last_work (data, start, end, &w.device, &w.item);
                  g_array_append_val (op_syncs, w);
                }
            }
          else if (t->kind[i] == CHRONO_KIND_RUNTIME || t->kind[i] == CHRONO_KIND_DRIVER)
            {
              guint32 name = chrono_track_get_name (t, i);
              ChronoSyncWait w = { ti, i, start, end, -1, 0 };

              runtime_calls++;

              if (is_sync[name] == 0)
                {
                  const char *text = chrono_trace_get_string (trace, name);
                  is_sync[name] = chrono_analysis_name_is_sync (text) ? 2 : name_is_poll (text) ? 3 : 1;
                }
              if (is_sync[name] == 2)
                {
                  chrono_rank_data_last_work (data, start, end, &w.device, &w.item);
                  g_array_append_val (data->syncs, w);
                }
              else if (is_sync[name] == 3)
                {
                  if (poll.track != G_MAXUINT32 && start - poll.end > POLL_GAP_NS)
                    close_poll (data, &poll);
                  if (poll.track == G_MAXUINT32)
                    poll = w;
                  poll.track = ti;
                  poll.index = i;
                  poll.end = MAX (poll.end, end);
                }
            }
        }
      close_poll (data, &poll);
    }
  if (runtime_calls == 0)
    g_array_append_vals (data->syncs, op_syncs->data, op_syncs->len);
  chrono_array_sort_by_int64 (data->syncs, G_STRUCT_OFFSET (ChronoSyncWait, start));
  chrono_array_sort_by_int64 (data->steps, G_STRUCT_OFFSET (ChronoStep, start));

  /* A step lasts until the device work it launched is done. */
  for (guint di = 0; di < data->devices->len && data->steps->len > 0; di++)
    {
      ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      ChronoStep *steps = (ChronoStep *) data->steps->data;

      for (guint k = 0; k < d->items->len; k++)
        {
          const ChronoWorkItem *it = &g_array_index (d->items, ChronoWorkItem, k);
          guint lo;

          if (it->launch_start == G_MININT64)
            continue;
          /* The last step that started by the launch. */
          lo = chrono_lower_bound (steps, data->steps->len, sizeof *steps,
                                   G_STRUCT_OFFSET (ChronoStep, start), it->launch_start + 1);
          if (lo > 0 && it->launch_start < steps[lo - 1].end)
            steps[lo - 1].work_end = MAX (steps[lo - 1].work_end, it->end);
        }
    }
}

/* What a file's own times need added to be on the trace's clock, for
 * PROCESS's file: its metadata keeps the file's clock when the file is
 * one of a profile folder's. */
gint64
chrono_rank_data_clock_shift (ChronoRankData *data,
                              guint32         process)
{
  for (guint i = 0; i < chrono_trace_get_n_parts (data->trace); i++)
    {
      const ChronoTracePart *part = chrono_trace_get_part (data->trace, i);

      if (process >= part->first_process && process < part->first_process + part->n_processes)
        return part->shift_ns;
    }
  return 0;
}

void
chrono_rank_data_join_metrics (ChronoRankData *data)
{
  if (data->metrics != NULL)
    g_thread_join (g_steal_pointer (&data->metrics));
}

ChronoRankData *
chrono_rank_data_new (ChronoTrace                 *trace,
                      guint32                      trace_index,
                      guint                        rank_index,
                      const ChronoTracePart       *part,
                      const ChronoAnalysisOptions *options)
{
  ChronoRankData *data = g_new0 (ChronoRankData, 1);

  data->trace = g_object_ref (trace);
  data->trace_index = trace_index;
  data->rank_index = rank_index;
  data->rank = part->rank;
  data->first_process = part->first_process;
  data->n_processes = part->n_processes;
  data->truncated = part->truncated;
  data->path = part->path ? part->path : chrono_trace_get_path (trace);
  data->range_start = G_MININT64;
  data->range_end = G_MAXINT64;
  if (options->range_end_ns > options->range_start_ns)
    {
      data->range_start = options->range_start_ns;
      data->range_end = options->range_end_ns;
    }
  data->tracks = g_new (const ChronoTrack *, chrono_trace_get_n_tracks (trace));
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    data->tracks[t] = chrono_trace_get_track (trace, t);
  data->devices = g_array_new (FALSE, FALSE, sizeof (ChronoDeviceWork));
  data->syncs = g_array_new (FALSE, FALSE, sizeof (ChronoSyncWait));
  data->steps = g_array_new (FALSE, FALSE, sizeof (ChronoStep));
  data->collectives = g_array_new (FALSE, FALSE, sizeof (ChronoWorkItem));
  {
    g_autoptr(GHashTable) launched = g_hash_table_new_full (NULL, NULL, NULL, g_free);
    g_autoptr(GArray) other_flows = g_array_new (FALSE, FALSE, sizeof (guint));

    collect_work (data, &options->thresholds, launched, other_flows);
    /* Made here, not on first use: the paths, the ledgers and the rules
     * look work items up from several threads. */
    data->item_of = chrono_rank_data_index_items (data);
    /* A dependency at most per flow, and a few event waits: reserved, so
     * that a million of them are not copied as they grow. */
    data->deps = g_array_sized_new (FALSE, FALSE, sizeof (ChronoWorkDep), other_flows->len + 64);
    collect_host (data, launched);
    chrono_rank_data_collect_deps (data, other_flows);
  }
  return data;
}

void
chrono_rank_data_free (ChronoRankData *data)
{
  chrono_rank_data_join_metrics (data);
  for (guint i = 0; i < data->devices->len; i++)
    {
      ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, i);
      for (guint s = 0; s < d->streams->len; s++)
        {
          g_array_unref (g_array_index (d->streams, ChronoStreamWork, s).spans);
          g_array_unref (g_array_index (d->streams, ChronoStreamWork, s).positions);
        }
      g_array_unref (d->streams);
      g_array_unref (d->items);
      g_array_unref (d->busy);
      g_array_unref (d->compute);
      g_array_unref (d->communication);
      g_array_unref (d->copies);
      g_clear_pointer (&d->ledger, g_array_unref);
      chrono_neuron_ledger_free (d->neuron);
      g_clear_pointer (&d->neuron_metrics, chrono_neuron_metrics_free);
      g_free (d->deps_start);
      g_free (d->deps_into);
    }
  g_array_unref (data->devices);
  g_array_unref (data->syncs);
  g_array_unref (data->steps);
  g_array_unref (data->collectives);
  g_array_unref (data->deps);
  g_clear_pointer (&data->flows_of, g_hash_table_unref);
  g_clear_pointer (&data->item_of, g_ptr_array_unref);
  g_free (data->tracks);
  g_object_unref (data->trace);
  g_free (data);
}

/* ------------------------------------------------------------------ */
/* Intervals                                                          */

GArray *
chrono_intervals_of_stream (const ChronoRankData   *data,
                            const ChronoStreamWork *sw)
{
  const ChronoTrack *t = chrono_trace_get_track (data->trace, sw->track);
  ChronoFill out;

  /* An interval at most per item. */
  chrono_fill_start (&out, g_array_new (FALSE, FALSE, sizeof (ChronoInterval)), sw->spans->len);
  for (guint j = 0; j < sw->spans->len; j++)
    {
      gint64 start, end;

      chrono_rank_data_span_times (data, t, g_array_index (sw->spans, guint32, j), &start, &end);
      if (end > start)
        chrono_fill_merge (&out, start, end, j);
    }
  return chrono_fill_end (&out);
}

GArray *
chrono_intervals_union (GArray *a,
                        GArray *b)
{
  const ChronoInterval *x = (const ChronoInterval *) a->data;
  const ChronoInterval *y = (const ChronoInterval *) b->data;
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (ChronoInterval), a->len + b->len);
  guint i = 0, j = 0;

  while (i < a->len || j < b->len)
    {
      const ChronoInterval *v = j >= b->len || (i < a->len && x[i].start <= y[j].start) ? &x[i++] : &y[j++];
      ChronoInterval *last = out->len ? &g_array_index (out, ChronoInterval, out->len - 1) : NULL;

      if (last && v->start <= last->end)
        last->end = MAX (last->end, v->end);
      else
        g_array_append_val (out, *v);
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

gint64
chrono_intervals_length_in (GArray *intervals,
                            gint64  start,
                            gint64  end)
{
  const ChronoInterval *v = (const ChronoInterval *) intervals->data;
  /* The first interval that ends after START. */
  guint lo = chrono_lower_bound (v, intervals->len, sizeof *v, G_STRUCT_OFFSET (ChronoInterval, end), start + 1);
  gint64 sum = 0;

  for (guint i = lo; i < intervals->len && v[i].start < end; i++)
    sum += MIN (v[i].end, end) - MAX (v[i].start, start);
  return sum;
}
