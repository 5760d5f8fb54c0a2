/* chrono-neuron-device.c
 *
 * Dependencies are resolved after every table is read, because a
 * predecessor may come later: ids sorted once and looked up by binary
 * search. A wait "$S[n]>=v" is satisfied by the update (an instruction's
 * "S[n] (owner)++@complete", or a DMA's completion semaphore) that made
 * S[n] reach v.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <inttypes.h>
#include <string.h>

#include "chrono-neuron-device.h"

#define MAX_WAIT_WALK      256

typedef enum {
  ENGINE_TENSOR,
  ENGINE_TENSOR_MATRIX,
  ENGINE_VECTOR,
  ENGINE_SCALAR,
  ENGINE_GPSIMD,
  ENGINE_SYNC,
  N_ENGINES
} Engine;

typedef struct {
  const char *key;        /* as in "engines" of the load statistics */
  const char *display;    /* the timeline row */
  const char *aliases[5]; /* labels and subgroups the profiler writes */
} EngineInfo;

static const EngineInfo engines[N_ENGINES] = {
  { "Tensor", "Tensor (PE)", { "Tensor", "TensorE", "PE", NULL } },
  { "TensorMatrix", "TensorMatrix (PE)", { "TensorMatrix", "TensorMatrixE", NULL } },
  { "Vector", "Vector (DVE)", { "Vector", "VectorE", "DVE", NULL } },
  { "Scalar", "Scalar (ACT)", { "Scalar", "ScalarE", "ACT", "Activation", NULL } },
  { "GpSimd", "GpSimd (POOL)", { "GpSimd", "GpSimdE", "Pool", "POOL", NULL } },
  { "Sync", "Sync (SP)", { "Sync", "SyncE", "SP", NULL } },
};

/* Row order inside a NeuronCore: engines, DMA queues, collectives,
 * semaphores. */
enum {
  SORT_ENGINE = 0,
  SORT_OTHER_ENGINE = 20,
  SORT_DMA = 1000,
  SORT_COLLECTIVES = 100000,
  SORT_CC_CORE = 100001,
  SORT_SEMAPHORE = 200000,
};

typedef struct {
  guint64             id;
  ChronoTrackBuilder *b;
  guint32             span;
} InstId;

typedef struct {
  guint64             in_id, out_id;
  ChronoNeuronIdTable in_table, out_table;
} FlowIds;

typedef struct {
  gint64              ts;
  gint32              delta;
  guint32             seq;
  ChronoTrackBuilder *b;
  guint32             span;
} SemUpdate;

typedef struct {
  guint32             sem;
  gint64              value;
  gint64              ts;
  ChronoTrackBuilder *b;
  guint32             span;
} SemWait;

enum { ROW_ENGINE, ROW_QUEUE };

G_STATIC_ASSERT (G_N_ELEMENTS (((ChronoNeuronDevice *) 0)->engine_tracks) == N_ENGINES);

void
chrono_neuron_device_init (ChronoNeuronDevice *dev,
                           ChronoNeuronReader *reader)
{
  memset (dev, 0, sizeof *dev);
  dev->reader = reader;
  dev->edges = g_array_new (FALSE, FALSE, sizeof (ChronoSpanEdge));
  for (guint t = 0; t < CHRONO_NEURON_N_ID_TABLES; t++)
    dev->ids[t] = g_array_new (FALSE, FALSE, sizeof (InstId));
  dev->deps = g_array_new (FALSE, FALSE, sizeof (InstId));
  dev->flows = g_array_new (FALSE, FALSE, sizeof (FlowIds));
  dev->sem_updates = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  dev->waits = g_array_new (FALSE, FALSE, sizeof (SemWait));
}

void
chrono_neuron_device_clear (ChronoNeuronDevice *dev)
{
  g_clear_pointer (&dev->edges, g_array_unref);
  for (guint t = 0; t < CHRONO_NEURON_N_ID_TABLES; t++)
    g_clear_pointer (&dev->ids[t], g_array_unref);
  g_clear_pointer (&dev->deps, g_array_unref);
  g_clear_pointer (&dev->flows, g_array_unref);
  g_clear_pointer (&dev->sem_updates, g_hash_table_unref);
  g_clear_pointer (&dev->waits, g_array_unref);
}

/* -------------------------------------------------------------------- */
/* Tracks                                                               */

/* Perfetto-style rows ("Vector Engine - Row 3") name the same engine. */
static gsize
engine_name_len (const ChronoJsonString *label)
{
  static const char * const suffixes[] = { " Engine", " - Row" };
  gsize len = label->len;

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      const guint8 *hit = memmem (label->start, len, suffixes[i], strlen (suffixes[i]));
      if (hit != NULL)
        len = hit - label->start;
    }
  return len;
}

static ChronoNeuronRowCache *
cached_row (ChronoNeuronDevice     *dev,
            guint                   kind,
            const ChronoJsonString *name)
{
  for (guint i = 0; i < CHRONO_NEURON_ROW_CACHE; i++)
    {
      ChronoNeuronRowCache *e = &dev->row_cache[i];

      if (e->b != NULL && e->kind == kind && e->len == name->len &&
          memcmp (e->text, name->start, name->len) == 0)
        return e;
    }
  return NULL;
}

static void
cache_row (ChronoNeuronDevice     *dev,
           guint                   kind,
           const ChronoJsonString *name,
           guint                   engine,
           ChronoTrackBuilder     *b)
{
  dev->row_cache[dev->row_cache_next] = (ChronoNeuronRowCache) { name->start, name->len, kind, engine, b };
  dev->row_cache_next = (dev->row_cache_next + 1) % CHRONO_NEURON_ROW_CACHE;
}

static ChronoTrackBuilder *
find_engine_track (ChronoNeuronDevice     *dev,
                   const ChronoJsonString *label,
                   guint                  *engine_out)
{
  gsize len;

  if (label->start == NULL || label->len == 0)
    {
      *engine_out = N_ENGINES;
      return chrono_neuron_track (dev->reader, 0, CHRONO_TRACK_STREAM, chrono_neuron_intern_text (dev->reader, "Unknown engine"), SORT_OTHER_ENGINE);
    }
  len = engine_name_len (label);
  for (guint e = 0; e < N_ENGINES; e++)
    for (guint a = 0; engines[e].aliases[a]; a++)
      if (len == strlen (engines[e].aliases[a]) &&
          g_ascii_strncasecmp ((const char *) label->start, engines[e].aliases[a], len) == 0)
        {
          *engine_out = e;
          if (dev->engine_tracks[e] == NULL)
            dev->engine_tracks[e] = chrono_neuron_track (dev->reader, 0, CHRONO_TRACK_STREAM,
                                               chrono_neuron_intern_text (dev->reader, engines[e].display), SORT_ENGINE + e);
          return dev->engine_tracks[e];
        }
  *engine_out = N_ENGINES;
  return chrono_neuron_track (dev->reader, 0, CHRONO_TRACK_STREAM,
                      chrono_string_table_intern (dev->reader->trace->strings, (const char *) label->start, len),
                      SORT_OTHER_ENGINE);
}

ChronoTrackBuilder *
chrono_neuron_device_engine_track (ChronoNeuronDevice     *dev,
                                   const ChronoJsonString *label)
{
  ChronoNeuronRowCache *e;
  ChronoTrackBuilder *b;
  guint engine;

  if (label->start != NULL && (e = cached_row (dev, ROW_ENGINE, label)) != NULL)
    return e->b;
  b = find_engine_track (dev, label, &engine);
  if (label->start != NULL)
    cache_row (dev, ROW_ENGINE, label, engine, b);
  return b;
}

void
chrono_neuron_device_forget_names (ChronoNeuronDevice *dev)
{
  memset (dev->row_cache, 0, sizeof dev->row_cache);
  dev->row_cache_next = 0;
}

ChronoTrackBuilder *
chrono_neuron_device_queue_track (ChronoNeuronDevice     *dev,
                                  const ChronoJsonString *queue)
{
  ChronoNeuronRowCache *e;
  ChronoTrackBuilder *b;
  g_autofree char *row = NULL;

  if (queue->start != NULL && (e = cached_row (dev, ROW_QUEUE, queue)) != NULL)
    return e->b;
  row = g_strdup_printf ("DMA queue %.*s", queue->start ? (int) queue->len : 1,
                         queue->start ? (const char *) queue->start : "?");
  b = chrono_neuron_track (dev->reader, 0, CHRONO_TRACK_STREAM, chrono_neuron_intern_text (dev->reader, row),
                           SORT_DMA + dev->n_queues);
  if (b->track.sort_index == SORT_DMA + dev->n_queues)
    dev->n_queues++;
  if (queue->start != NULL)
    cache_row (dev, ROW_QUEUE, queue, N_ENGINES, b);
  return b;
}

ChronoTrackBuilder *
chrono_neuron_device_cc_track (ChronoNeuronDevice *dev,
                               gboolean            has_core,
                               guint64             core)
{
  g_autofree char *row = NULL;

  if (!has_core)
    return chrono_neuron_track (dev->reader, 0, CHRONO_TRACK_STREAM,
                                chrono_neuron_intern_text (dev->reader, "Collectives"), SORT_COLLECTIVES);
  row = g_strdup_printf ("CC-core %" G_GUINT64_FORMAT, core);
  return chrono_neuron_track (dev->reader, 0, CHRONO_TRACK_STREAM, chrono_neuron_intern_text (dev->reader, row),
                              SORT_CC_CORE + (gint64) MIN (core, 10000));
}

/* -------------------------------------------------------------------- */
/* Semaphores                                                           */

static void
add_update (ChronoNeuronDevice *dev,
            guint32             sem,
            gint64              ts,
            gint32              delta,
            ChronoTrackBuilder *b,
            guint32             span)
{
  GArray *updates = g_hash_table_lookup (dev->sem_updates, GUINT_TO_POINTER (sem));
  SemUpdate u = { ts, delta, dev->update_seq++, b, span };

  if (updates == NULL)
    {
      updates = g_array_new (FALSE, FALSE, sizeof (SemUpdate));
      g_hash_table_insert (dev->sem_updates, GUINT_TO_POINTER (sem), updates);
    }
  g_array_append_val (updates, u);
}

/* "S[12]" or "$S[12]" at P: the number, and P moved past ']'. */
static gboolean
parse_sem_ref (const guint8 **p,
               const guint8  *end,
               guint32       *sem)
{
  const guint8 *q = *p;
  guint64 n = 0;

  if (q < end && *q == '$')
    q++;
  if (end - q < 4 || q[0] != 'S' || q[1] != '[')
    return FALSE;
  q += 2;
  if (q >= end || *q < '0' || *q > '9')
    return FALSE;
  while (q < end && *q >= '0' && *q <= '9' && n < G_MAXUINT32)
    n = n * 10 + (*q++ - '0');
  if (q >= end || *q != ']' || n >= G_MAXUINT32)
    return FALSE;
  *p = q + 1;
  *sem = (guint32) n;
  return TRUE;
}

/* Waits ($S[n]>=v) and updates (S[n] (owner)++@complete) of an operand
 * string; other tokens are left alone. */
void
chrono_neuron_device_scan_operands (ChronoNeuronDevice *dev,
                                    const guint8       *operands,
                                    gsize               len,
                                    ChronoTrackBuilder *b,
                                    guint32             span,
                                    gint64              start,
                                    gint64              end_ts)
{
  const guint8 *p = operands;
  const guint8 *end = p + len;

  while (p < end)
    {
      const guint8 *tok = p;
      const guint8 *tok_end = memchr (p, ' ', end - p);
      guint32 sem;

      if (tok_end == NULL)
        tok_end = end;
      p = tok_end + 1;
      if (!parse_sem_ref (&tok, tok_end, &sem))
        continue;
      if (tok_end - tok >= 3 && tok[0] == '>' && tok[1] == '=')
        {
          gint64 v;

          if (chrono_json_parse_int64 (tok + 2, tok_end - (tok + 2), &v))
            {
              SemWait w = { sem, v, start, b, span };
              g_array_append_val (dev->waits, w);
            }
          continue;
        }
      /* The owner may follow as its own token: "S[5] (Tensor)++@complete". */
      if (tok == tok_end && p < end && *p == '(')
        {
          tok = p;
          tok_end = memchr (p, ' ', end - p);
          if (tok_end == NULL)
            tok_end = end;
          p = tok_end + 1;
        }
      {
        const guint8 *inc = memmem (tok, tok_end - tok, "++", 2);
        const guint8 *dec = memmem (tok, tok_end - tok, "--", 2);
        const guint8 *at = inc ? inc : dec;

        if (at != NULL)
          {
            gboolean on_read = memmem (at, tok_end - at, "@read", 5) != NULL;
            add_update (dev, sem, on_read ? start : end_ts, inc ? 1 : -1, b, span);
          }
      }
    }
}

static gint
compare_updates (gconstpointer a,
                 gconstpointer b)
{
  const SemUpdate *x = a, *y = b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Each wait comes from the update that made the semaphore reach its value,
 * the latest such update at or before the wait. */
static void
match_waits (ChronoNeuronDevice *dev)
{
  GHashTableIter iter;
  gpointer key, value;
  g_autoptr(GHashTable) values = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  g_hash_table_iter_init (&iter, dev->sem_updates);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *updates = value;
      gint64 *running = g_new (gint64, MAX (updates->len, 1));
      gint64 v = 0;

      g_array_sort (updates, compare_updates);
      for (guint i = 0; i < updates->len; i++)
        running[i] = v += g_array_index (updates, SemUpdate, i).delta;
      g_hash_table_insert (values, key, running);
    }

  for (guint i = 0; i < dev->waits->len; i++)
    {
      const SemWait *w = &g_array_index (dev->waits, SemWait, i);
      GArray *updates = g_hash_table_lookup (dev->sem_updates, GUINT_TO_POINTER (w->sem));
      const gint64 *running = g_hash_table_lookup (values, GUINT_TO_POINTER (w->sem));
      guint lo = 0, hi, steps = 0;
      const SemUpdate *u;
      ChronoSpanEdge edge;

      if (updates == NULL)
        {
          dev->unmatched_waits++;
          continue;
        }
      /* The first update after the wait's start. */
      hi = updates->len;
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          if (g_array_index (updates, SemUpdate, mid).ts <= w->ts)
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo == 0 || running[lo - 1] < w->value)
        {
          dev->unmatched_waits++;
          continue;
        }
      lo--;
      while (lo > 0 && running[lo - 1] >= w->value && steps++ < MAX_WAIT_WALK)
        lo--;
      u = &g_array_index (updates, SemUpdate, lo);
      edge = (ChronoSpanEdge) { u->b, w->b, u->span, w->span, CHRONO_FLOW_SEMAPHORE };
      g_array_append_val (dev->edges, edge);
    }
}

ChronoTrackBuilder *
chrono_neuron_device_semaphore_track (ChronoNeuronDevice *dev,
                                      guint32             name,
                                      const guint8       *text,
                                      gsize               len)
{
  guint32 sem = 0;

  parse_sem_ref (&text, text + len, &sem);
  return chrono_neuron_track (dev->reader, 0, CHRONO_TRACK_COUNTER, name, SORT_SEMAPHORE + sem);
}

void
chrono_neuron_device_dma_semaphore (ChronoNeuronDevice *dev,
                                    const guint8       *text,
                                    gsize               len,
                                    gint64              end,
                                    ChronoTrackBuilder *b,
                                    guint32             span)
{
  guint32 sem;

  if (parse_sem_ref (&text, text + len, &sem))
    add_update (dev, sem, end, 1, b, span);
}

/* -------------------------------------------------------------------- */
/* Dependencies                                                         */

void
chrono_neuron_device_add_id (ChronoNeuronDevice  *dev,
                             ChronoNeuronIdTable  table,
                             guint64              id,
                             ChronoTrackBuilder  *b,
                             guint32              span)
{
  InstId v = { id, b, span };

  g_array_append_val (dev->ids[table], v);
}

void
chrono_neuron_device_add_dep (ChronoNeuronDevice *dev,
                              guint64             pred,
                              ChronoTrackBuilder *b,
                              guint32             span)
{
  InstId d = { pred, b, span };

  g_array_append_val (dev->deps, d);
}

void
chrono_neuron_device_add_flow (ChronoNeuronDevice  *dev,
                               ChronoNeuronIdTable  in_table,
                               guint64              in_id,
                               ChronoNeuronIdTable  out_table,
                               guint64              out_id)
{
  FlowIds f = { in_id, out_id, in_table, out_table };

  g_array_append_val (dev->flows, f);
}

static gint
compare_ids (gconstpointer a,
             gconstpointer b)
{
  guint64 x = ((const InstId *) a)->id, y = ((const InstId *) b)->id;
  return x < y ? -1 : x > y;
}

/* The span of row ID of TABLE, or NULL (IDS sorted). */
static const InstId *
find_id (GArray  *ids,
         guint64  id)
{
  const InstId *v = (const InstId *) ids->data;
  guint lo = 0, hi = ids->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (v[mid].id < id)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < ids->len && v[lo].id == id ? &v[lo] : NULL;
}

static void
resolve_deps (ChronoNeuronDevice *dev)
{
  for (guint t = 0; t < CHRONO_NEURON_N_ID_TABLES; t++)
    g_array_sort (dev->ids[t], compare_ids);
  for (guint i = 0; i < dev->deps->len; i++)
    {
      const InstId *d = &g_array_index (dev->deps, InstId, i);
      const InstId *pred = find_id (dev->ids[CHRONO_NEURON_ID_INSTRUCTION], d->id);
      ChronoSpanEdge edge;

      if (pred == NULL)
        {
          dev->unresolved_deps++;
          continue;
        }
      edge = (ChronoSpanEdge) { pred->b, d->b, pred->span, d->span, CHRONO_FLOW_DEPENDENCY };
      g_array_append_val (dev->edges, edge);
    }
  for (guint i = 0; i < dev->flows->len; i++)
    {
      const FlowIds *f = &g_array_index (dev->flows, FlowIds, i);
      const InstId *from = find_id (dev->ids[f->in_table], f->in_id);
      const InstId *to = find_id (dev->ids[f->out_table], f->out_id);
      ChronoSpanEdge edge;

      if (from == NULL || to == NULL)
        {
          dev->unresolved_flows++;
          continue;
        }
      edge = (ChronoSpanEdge) { from->b, to->b, from->span, to->span, CHRONO_FLOW_DEPENDENCY };
      g_array_append_val (dev->edges, edge);
    }
}

static void
name_core (ChronoNeuronDevice *dev)
{
  g_autoptr(JsonNode) summary = chrono_trace_get_metadata (dev->reader->trace, "neuron_summary");
  ChronoProcess process = { 0 };
  g_autofree char *name = NULL;
  gint64 nc = 0;

  if (summary != NULL && JSON_NODE_HOLDS_OBJECT (summary))
    {
      JsonNode *node = json_object_get_member (json_node_get_object (summary), "nc_idx");

      if (node != NULL && JSON_NODE_HOLDS_VALUE (node))
        {
          if (json_node_get_value_type (node) == G_TYPE_INT64)
            nc = json_node_get_int (node);
          else if (json_node_get_value_type (node) == G_TYPE_STRING)
            nc = g_ascii_strtoll (json_node_get_string (node), NULL, 10);
        }
    }
  name = g_strdup_printf ("NeuronCore %" G_GINT64_FORMAT, nc);
  process.pid.value = nc;
  process.name = chrono_neuron_intern_text (dev->reader, name);
  process.labels = process.name;
  process.is_device = TRUE;
  process.device_index = (gint) CLAMP (nc, 0, G_MAXINT);
  g_array_append_val (dev->reader->trace->processes, process);
}

static void
count_engines (ChronoNeuronDevice *dev)
{
  GHashTable *counts = dev->reader->trace->stats.engines;

  for (guint e = 0; e < N_ENGINES; e++)
    if (dev->engine_tracks[e] != NULL)
      g_hash_table_insert (counts, g_strdup (engines[e].key),
                           GSIZE_TO_POINTER (dev->engine_tracks[e]->track.n_spans));
  for (guint i = 0; i < dev->reader->builders->len; i++)
    {
      ChronoTrackBuilder *b = g_ptr_array_index (dev->reader->builders, i);

      if (b->track.sort_index == SORT_OTHER_ENGINE && b->track.n_spans > 0)
        g_hash_table_insert (counts, g_strdup (chrono_string_table_get (dev->reader->trace->strings, b->track.name)),
                             GSIZE_TO_POINTER (b->track.n_spans));
    }
}

void
chrono_neuron_device_finish (ChronoNeuronDevice *dev,
                             const char         *dep_source)
{
  ChronoTrace *trace = dev->reader->trace;

  resolve_deps (dev);
  match_waits (dev);
  name_core (dev);
  count_engines (dev);
  if (dev->unresolved_deps > 0)
    chrono_trace_add_warning (trace, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " %s entry names no instruction of the profile",
                                                  "%" PRIu64 " %s entries name no instruction of the profile",
                                                  dev->unresolved_deps),
                              dev->unresolved_deps, dep_source);
  if (dev->unresolved_flows > 0)
    chrono_trace_add_warning (trace, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " Flow row names no row of the profile",
                                                  "%" PRIu64 " Flow rows name no row of the profile",
                                                  dev->unresolved_flows),
                              dev->unresolved_flows);
  if (dev->unmatched_waits > 0)
    chrono_trace_add_warning (trace, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " semaphore wait matches no earlier update",
                                                  "%" PRIu64 " semaphore waits match no earlier update",
                                                  dev->unmatched_waits),
                              dev->unmatched_waits);
  chrono_neuron_reader_finish (dev->reader, "neuron-device", dev->edges);
}
