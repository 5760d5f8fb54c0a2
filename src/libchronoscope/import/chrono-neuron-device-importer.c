/* chrono-neuron-device-importer.c
 *
 * The legacy device profile of the Neuron profiler is one JSON object of
 * tables, each an array of flat records: "instruction", "dma",
 * "semaphore_update", "cc_op", "cc_instruction" and "summary" (every key
 * optional, in any order). One streaming pass reads the few fields the
 * model needs; a span's args are the offset of its whole record, so the
 * details pane shows every field as the profiler wrote it.
 *
 * Times are integer nanoseconds from the start of the profile. Ids are
 * 64-bit: an instruction's own id is often printed signed and the same id
 * unsigned in another's inst_dep_ids, so ids are compared as guint64.
 *
 * Dependencies come from inst_dep_ids, and from the semaphores: a wait
 * "$S[n]>=v" in an instruction's operands is satisfied by the update
 * ("S[n] (owner)++@complete", or a DMA's completion semaphore) that made
 * S[n] reach v.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-json-scanner.h"
#include "chrono-neuron.h"
#include "chrono-neuron-device-importer.h"

#define MAX_WAIT_WALK      256

typedef enum {
  TABLE_INSTRUCTION,
  TABLE_DMA,
  TABLE_SEMAPHORE,
  TABLE_CC_OP,
  TABLE_CC_INSTRUCTION,
  N_TABLES
} Table;

static const char * const table_keys[N_TABLES + 1] = {
  "instruction", "dma", "semaphore_update", "cc_op", "cc_instruction", NULL
};

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

typedef struct {
  const guint8    *start;
  ChronoNeuronTimes t;
  guint64          end, id, core;
  gboolean         has_end, has_id, has_core, has_value;
  gdouble          value;
  ChronoJsonString label, subgroup, opcode, operands, semaphore, name;
  const guint8    *deps;           /* '[' of inst_dep_ids */
  Table            table;
  ChronoNeuronReader *reader;      /* which names members of the wrong type */
} Record;

/* The rows that the last labels and queue names led to: a profile has a
 * handful, and finding one costs string compares and a hash lookup. */
#define ROW_CACHE 16

typedef struct {
  const guint8       *text;   /* the name as written, in the source */
  gsize               len;
  Table               table;
  guint               engine;
  ChronoTrackBuilder *b;
} RowCacheEntry;

typedef struct {
  ChronoNeuronReader *reader;
  RowCacheEntry       row_cache[ROW_CACHE];
  guint               row_cache_next;
  ChronoTrackBuilder *engine_tracks[N_ENGINES];
  guint               n_queues;
  guint32             cats[N_TABLES];
  GArray             *edges;          /* ChronoSpanEdge */
  GArray             *ids;            /* InstId */
  GArray             *deps;           /* InstId: predecessor id, successor span */
  GHashTable         *sem_updates;    /* semaphore number -> GArray of SemUpdate */
  GArray             *waits;          /* SemWait */
  guint32             update_seq;
  guint64             unresolved_deps;
  guint64             unmatched_waits;
} Importer;

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

static RowCacheEntry *
cached_row (Importer               *imp,
            Table                   table,
            const ChronoJsonString *name)
{
  for (guint i = 0; i < ROW_CACHE; i++)
    {
      RowCacheEntry *e = &imp->row_cache[i];

      if (e->b != NULL && e->table == table && e->len == name->len &&
          memcmp (e->text, name->start, name->len) == 0)
        return e;
    }
  return NULL;
}

static void
cache_row (Importer               *imp,
           Table                   table,
           const ChronoJsonString *name,
           guint                   engine,
           ChronoTrackBuilder     *b)
{
  imp->row_cache[imp->row_cache_next] = (RowCacheEntry) { name->start, name->len, table, engine, b };
  imp->row_cache_next = (imp->row_cache_next + 1) % ROW_CACHE;
}

static ChronoTrackBuilder *
find_engine_track (Importer               *imp,
                   const ChronoJsonString *label,
                   guint                  *engine_out)
{
  gsize len;

  if (label->start == NULL || label->len == 0)
    {
      *engine_out = N_ENGINES;
      return chrono_neuron_track (imp->reader, 0, CHRONO_TRACK_STREAM, chrono_neuron_intern_text (imp->reader, "Unknown engine"), SORT_OTHER_ENGINE);
    }
  len = engine_name_len (label);
  for (guint e = 0; e < N_ENGINES; e++)
    for (guint a = 0; engines[e].aliases[a]; a++)
      if (len == strlen (engines[e].aliases[a]) && memcmp (label->start, engines[e].aliases[a], len) == 0)
        {
          *engine_out = e;
          if (imp->engine_tracks[e] == NULL)
            imp->engine_tracks[e] = chrono_neuron_track (imp->reader, 0, CHRONO_TRACK_STREAM,
                                               chrono_neuron_intern_text (imp->reader, engines[e].display), SORT_ENGINE + e);
          return imp->engine_tracks[e];
        }
  *engine_out = N_ENGINES;
  return chrono_neuron_track (imp->reader, 0, CHRONO_TRACK_STREAM,
                      chrono_string_table_intern (imp->reader->trace->strings, (const char *) label->start, len),
                      SORT_OTHER_ENGINE);
}

static ChronoTrackBuilder *
engine_track (Importer *imp,
              Record   *r,
              guint    *engine_out)
{
  const ChronoJsonString *label = r->label.start ? &r->label : &r->subgroup;
  RowCacheEntry *e;
  ChronoTrackBuilder *b;

  if (label->start != NULL && (e = cached_row (imp, TABLE_INSTRUCTION, label)) != NULL)
    {
      *engine_out = e->engine;
      return e->b;
    }
  b = find_engine_track (imp, label, engine_out);
  if (label->start != NULL)
    cache_row (imp, TABLE_INSTRUCTION, label, *engine_out, b);
  return b;
}

static ChronoTrackBuilder *
queue_track (Importer               *imp,
             const ChronoJsonString *queue)
{
  RowCacheEntry *e;
  ChronoTrackBuilder *b;
  g_autofree char *row = NULL;

  if (queue->start != NULL && (e = cached_row (imp, TABLE_DMA, queue)) != NULL)
    return e->b;
  row = g_strdup_printf ("DMA queue %.*s", queue->start ? (int) queue->len : 1,
                         queue->start ? (const char *) queue->start : "?");
  b = chrono_neuron_track (imp->reader, 0, CHRONO_TRACK_STREAM, chrono_neuron_intern_text (imp->reader, row),
                           SORT_DMA + imp->n_queues);
  if (b->track.sort_index == SORT_DMA + imp->n_queues)
    imp->n_queues++;
  if (queue->start != NULL)
    cache_row (imp, TABLE_DMA, queue, N_ENGINES, b);
  return b;
}

/* -------------------------------------------------------------------- */
/* Semaphores                                                           */

static void
add_update (Importer           *imp,
            guint32             sem,
            gint64              ts,
            gint32              delta,
            ChronoTrackBuilder *b,
            guint32             span)
{
  GArray *updates = g_hash_table_lookup (imp->sem_updates, GUINT_TO_POINTER (sem));
  SemUpdate u = { ts, delta, imp->update_seq++, b, span };

  if (updates == NULL)
    {
      updates = g_array_new (FALSE, FALSE, sizeof (SemUpdate));
      g_hash_table_insert (imp->sem_updates, GUINT_TO_POINTER (sem), updates);
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
static void
scan_operands (Importer           *imp,
               const Record       *r,
               ChronoTrackBuilder *b,
               guint32             span,
               gint64              start,
               gint64              end_ts)
{
  const guint8 *p = r->operands.start;
  const guint8 *end = p + r->operands.len;

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
              g_array_append_val (imp->waits, w);
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
            add_update (imp, sem, on_read ? start : end_ts, inc ? 1 : -1, b, span);
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
match_waits (Importer *imp)
{
  GHashTableIter iter;
  gpointer key, value;
  g_autoptr(GHashTable) values = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  g_hash_table_iter_init (&iter, imp->sem_updates);
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

  for (guint i = 0; i < imp->waits->len; i++)
    {
      const SemWait *w = &g_array_index (imp->waits, SemWait, i);
      GArray *updates = g_hash_table_lookup (imp->sem_updates, GUINT_TO_POINTER (w->sem));
      const gint64 *running = g_hash_table_lookup (values, GUINT_TO_POINTER (w->sem));
      guint lo = 0, hi, steps = 0;
      const SemUpdate *u;
      ChronoSpanEdge edge;

      if (updates == NULL)
        {
          imp->unmatched_waits++;
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
          imp->unmatched_waits++;
          continue;
        }
      lo--;
      while (lo > 0 && running[lo - 1] >= w->value && steps++ < MAX_WAIT_WALK)
        lo--;
      u = &g_array_index (updates, SemUpdate, lo);
      edge = (ChronoSpanEdge) { u->b, w->b, u->span, w->span, CHRONO_FLOW_SEMAPHORE };
      g_array_append_val (imp->edges, edge);
    }
}

/* -------------------------------------------------------------------- */
/* Dependencies                                                         */

static gint
compare_ids (gconstpointer a,
             gconstpointer b)
{
  guint64 x = ((const InstId *) a)->id, y = ((const InstId *) b)->id;
  return x < y ? -1 : x > y;
}

static void
resolve_deps (Importer *imp)
{
  const InstId *ids;
  guint n;

  g_array_sort (imp->ids, compare_ids);
  ids = (const InstId *) imp->ids->data;
  n = imp->ids->len;
  for (guint i = 0; i < imp->deps->len; i++)
    {
      const InstId *d = &g_array_index (imp->deps, InstId, i);
      guint lo = 0, hi = n;
      ChronoSpanEdge edge;

      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          if (ids[mid].id < d->id)
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo == n || ids[lo].id != d->id)
        {
          imp->unresolved_deps++;
          continue;
        }
      edge = (ChronoSpanEdge) { ids[lo].b, d->b, ids[lo].span, d->span, CHRONO_FLOW_DEPENDENCY };
      g_array_append_val (imp->edges, edge);
    }
}

/* The predecessor ids of an inst_dep_ids array (already checked by the
 * scan of the record). */
static void
read_deps (Importer           *imp,
           const guint8       *at,
           ChronoTrackBuilder *b,
           guint32             span)
{
  ChronoJsonScanner s = { at + 1, imp->reader->s.end, NULL, NULL };

  for (;;)
    {
      guint64 id;
      gboolean ok;

      chrono_json_skip_ws (&s);
      if (s.p >= s.end || *s.p == ']')
        return;
      if (*s.p == ',')
        {
          s.p++;
          continue;
        }
      if (chrono_neuron_read_int (&s, &id, &ok) != CHRONO_JSON_OK)
        return;
      if (ok)
        {
          InstId d = { id, b, span };
          g_array_append_val (imp->deps, d);
        }
    }
}

/* -------------------------------------------------------------------- */
/* Records                                                              */

/* A member read as a string: any other value is named and left out. */
static ChronoJsonStatus
read_string (Record                 *r,
             ChronoJsonScanner      *s,
             const ChronoJsonString *key,
             ChronoJsonString       *out)
{
  if (*s->p != '"')
    chrono_neuron_bad_value (r->reader, r->start, r->table, key, s->p, "a string");
  return chrono_neuron_read_string (s, out);
}

/* A member read as an integer, or a number: the same. */
static ChronoJsonStatus
read_int (Record                 *r,
          ChronoJsonScanner      *s,
          const ChronoJsonString *key,
          guint64                *out,
          gboolean               *ok)
{
  const guint8 *value = s->p;
  ChronoJsonStatus st = chrono_neuron_read_int (s, out, ok);

  if (st == CHRONO_JSON_OK && !*ok)
    chrono_neuron_bad_value (r->reader, r->start, r->table, key, value, "an integer");
  return st;
}

static ChronoJsonStatus
read_member (ChronoJsonScanner      *s,
             const ChronoJsonString *key,
             gpointer                data)
{
  Record *r = data;

  if (chrono_neuron_str_is (key, "end_ts", 6))
    return read_int (r, s, key, &r->end, &r->has_end);
  if (chrono_neuron_str_is (key, "id", 2) && r->table == TABLE_SEMAPHORE)
    return read_string (r, s, key, &r->name);
  if (chrono_neuron_str_is (key, "id", 2))
    return read_int (r, s, key, &r->id, &r->has_id);
  if (chrono_neuron_str_is (key, "label", 5))
    return read_string (r, s, key, &r->label);
  /* A queue's name alone groups better than name-Q-E. */
  if (chrono_neuron_str_is (key, "subgroup", 8) ||
      (chrono_neuron_str_is (key, "queue_name", 10) && r->subgroup.start == NULL))
    return read_string (r, s, key, &r->subgroup);
  if (chrono_neuron_str_is (key, "opcode", 6) || chrono_neuron_str_is (key, "description", 11) ||
      chrono_neuron_str_is (key, "operation", 9))
    return read_string (r, s, key, &r->opcode);
  if (chrono_neuron_str_is (key, "operands", 8))
    return read_string (r, s, key, &r->operands);
  if (chrono_neuron_str_is (key, "semaphore_id", 12))
    return read_string (r, s, key, &r->semaphore);
  if (chrono_neuron_str_is (key, "core_idx", 8))
    return read_int (r, s, key, &r->core, &r->has_core);
  if (chrono_neuron_str_is (key, "value", 5))
    {
      const guint8 *value = s->p;
      ChronoJsonStatus st = chrono_neuron_read_double (s, &r->value, &r->has_value);

      if (st == CHRONO_JSON_OK && !r->has_value)
        chrono_neuron_bad_value (r->reader, r->start, r->table, key, value, "a number");
      return st;
    }
  if (chrono_neuron_str_is (key, "inst_dep_ids", 12))
    {
      if (*s->p == '[')
        r->deps = s->p;
      else
        chrono_neuron_bad_value (r->reader, r->start, r->table, key, s->p, "an array of instruction ids");
    }
  return chrono_json_skip_value (s);
}

static ChronoJsonStatus
parse_record (Importer *imp,
              Table     table,
              Record   *r)
{
  ChronoJsonScanner *s = &imp->reader->s;

  memset (r, 0, sizeof *r);
  r->start = s->p;
  r->table = table;
  r->reader = imp->reader;
  return chrono_neuron_read_record (s, &r->t, read_member, r);
}

static void
handle_instruction (Importer *imp,
                    Record   *r)
{
  ChronoTrackBuilder *b;
  guint engine;
  guint32 span;
  gint64 start = (gint64) r->t.ts;
  gint64 dur = r->t.has_dur ? (gint64) r->t.dur : 0;

  b = engine_track (imp, r, &engine);
  span = chrono_track_builder_add_span (b, start, dur, r->opcode.start ? chrono_neuron_intern (imp->reader, &r->opcode) : 0,
                                        imp->cats[TABLE_INSTRUCTION], r->start - imp->reader->base,
                                        CHRONO_KIND_INSTRUCTION, r->t.has_dur ? 0 : CHRONO_SPAN_NO_DUR);
  chrono_neuron_note_time (imp->reader, start, start + dur);
  if (r->has_id)
    {
      InstId id = { r->id, b, span };
      g_array_append_val (imp->ids, id);
    }
  if (r->deps != NULL)
    read_deps (imp, r->deps, b, span);
  if (r->operands.start != NULL)
    scan_operands (imp, r, b, span, start, start + dur);
}

static void
handle_dma (Importer *imp,
            Record   *r)
{
  gint64 start = (gint64) r->t.ts;
  gint64 dur = r->t.has_dur ? (gint64) r->t.dur : 0;
  const ChronoJsonString *queue = &r->subgroup;
  ChronoTrackBuilder *b = queue_track (imp, queue);
  guint32 span;

  span = chrono_track_builder_add_span (b, start, dur, queue->start ? chrono_neuron_intern (imp->reader, queue) : 0,
                                        imp->cats[TABLE_DMA], r->start - imp->reader->base,
                                        CHRONO_KIND_DMA, r->t.has_dur ? 0 : CHRONO_SPAN_NO_DUR);
  chrono_neuron_note_time (imp->reader, start, start + dur);
  if (r->semaphore.start != NULL)
    {
      const guint8 *p = r->semaphore.start;
      guint32 sem;

      /* "-1" is no semaphore. */
      if (parse_sem_ref (&p, r->semaphore.start + r->semaphore.len, &sem))
        add_update (imp, sem, start + dur, 1, b, span);
    }
}

static void
handle_semaphore (Importer *imp,
                  Record   *r)
{
  ChronoTrackBuilder *b;
  guint32 name;
  const guint8 *p;
  guint32 sem = 0;

  if (r->name.start == NULL || !r->has_value)
    {
      chrono_neuron_skip_record (imp->reader, r->start, TABLE_SEMAPHORE, "has no \"id\" or \"value\"");
      return;
    }
  name = chrono_neuron_intern (imp->reader, &r->name);
  p = r->name.start;
  parse_sem_ref (&p, r->name.start + r->name.len, &sem);
  b = chrono_neuron_track (imp->reader, 0, CHRONO_TRACK_COUNTER, name, SORT_SEMAPHORE + sem);
  chrono_track_builder_add_sample (b, (gint64) r->t.ts, r->value);
  chrono_neuron_note_time (imp->reader, (gint64) r->t.ts, (gint64) r->t.ts);
}

static void
handle_collective (Importer *imp,
                   Table     table,
                   Record   *r)
{
  ChronoTrackBuilder *b;
  gint64 start = (gint64) r->t.ts;
  gint64 dur = r->t.has_dur ? (gint64) r->t.dur : r->has_end ? (gint64) r->end - start : 0;

  if (table == TABLE_CC_OP)
    b = chrono_neuron_track (imp->reader, 0, CHRONO_TRACK_STREAM, chrono_neuron_intern_text (imp->reader, "Collectives"), SORT_COLLECTIVES);
  else
    {
      g_autofree char *row = g_strdup_printf ("CC-core %" G_GUINT64_FORMAT, r->has_core ? r->core : 0);
      b = chrono_neuron_track (imp->reader, 0, CHRONO_TRACK_STREAM, chrono_neuron_intern_text (imp->reader, row),
                       SORT_CC_CORE + (r->has_core ? (gint64) MIN (r->core, 10000) : 0));
    }
  chrono_track_builder_add_span (b, start, MAX (dur, 0), r->opcode.start ? chrono_neuron_intern (imp->reader, &r->opcode) : 0,
                                 imp->cats[table], r->start - imp->reader->base,
                                 CHRONO_KIND_COLLECTIVE, 0);
  chrono_neuron_note_time (imp->reader, start, start + MAX (dur, 0));
}

static ChronoJsonStatus
read_record (ChronoNeuronReader *reader,
             guint               table,
             gpointer            data)
{
  Importer *imp = data;
  ChronoJsonStatus st;
  Record r;

  if ((st = parse_record (imp, table, &r)) != CHRONO_JSON_OK)
    return st;
  if (!r.t.has_ts)
    {
      chrono_neuron_skip_untimed (reader, r.start, table, &r.t);
      return CHRONO_JSON_OK;
    }
  switch (table)
    {
    case TABLE_INSTRUCTION:
      handle_instruction (imp, &r);
      break;
    case TABLE_DMA:
      handle_dma (imp, &r);
      break;
    case TABLE_SEMAPHORE:
      handle_semaphore (imp, &r);
      break;
    case TABLE_CC_OP:
    case TABLE_CC_INSTRUCTION:
      handle_collective (imp, table, &r);
      break;
    default:
      g_assert_not_reached ();
    }
  return CHRONO_JSON_OK;
}

/* -------------------------------------------------------------------- */
/* The pass                                                             */

/* summary: an array whose first element is the summary metrics (or,
 * tolerated, the metrics object itself). */
static ChronoJsonStatus
read_summary (Importer *imp)
{
  ChronoJsonScanner *s = &imp->reader->s;
  const guint8 *start = s->p;
  const guint8 *element;
  ChronoJsonStatus st;

  if (*start == '[')
    {
      s->p++;
      chrono_json_skip_ws (s);
      element = s->p;
      if (s->p < s->end && *s->p == '{')
        {
          if ((st = chrono_json_skip_value (s)) != CHRONO_JSON_OK)
            return st;
          chrono_neuron_keep_metadata (imp->reader, "neuron_summary", element, s->p);
        }
      s->p = start;
    }
  if ((st = chrono_json_skip_value (s)) != CHRONO_JSON_OK)
    return st;
  if (*start == '{')
    chrono_neuron_keep_metadata (imp->reader, "neuron_summary", start, s->p);
  return CHRONO_JSON_OK;
}

static ChronoJsonStatus
read_other (ChronoNeuronReader     *reader,
            const ChronoJsonString *key,
            gpointer                data)
{
  ChronoJsonScanner *s = &reader->s;
  const guint8 *start = s->p;
  ChronoJsonStatus st;

  if (chrono_neuron_str_is (key, "summary", 7))
    return read_summary (data);
  if ((st = chrono_json_skip_value (s)) == CHRONO_JSON_OK &&
      chrono_neuron_str_is (key, "metadata", 8))
    chrono_neuron_keep_metadata (reader, "neuron_metadata", start, s->p);
  return st;
}

/* -------------------------------------------------------------------- */
/* After the pass                                                       */

static void
name_core (Importer *imp)
{
  g_autoptr(JsonNode) summary = chrono_trace_get_metadata (imp->reader->trace, "neuron_summary");
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
  process.name = chrono_neuron_intern_text (imp->reader, name);
  process.labels = process.name;
  process.is_device = TRUE;
  process.device_index = (gint) CLAMP (nc, 0, G_MAXINT);
  g_array_append_val (imp->reader->trace->processes, process);
}

static void
count_engines (Importer *imp)
{
  GHashTable *counts = imp->reader->trace->stats.engines;

  for (guint e = 0; e < N_ENGINES; e++)
    if (imp->engine_tracks[e] != NULL)
      g_hash_table_insert (counts, g_strdup (engines[e].key),
                           GSIZE_TO_POINTER (imp->engine_tracks[e]->track.n_spans));
  for (guint i = 0; i < imp->reader->builders->len; i++)
    {
      ChronoTrackBuilder *b = g_ptr_array_index (imp->reader->builders, i);

      if (b->track.sort_index == SORT_OTHER_ENGINE && b->track.n_spans > 0)
        g_hash_table_insert (counts, g_strdup (chrono_string_table_get (imp->reader->trace->strings, b->track.name)),
                             GSIZE_TO_POINTER (b->track.n_spans));
    }
}


gboolean
chrono_neuron_device_importer_run (ChronoTrace        *trace,
                                   ChronoSource       *source,
                                   GCancellable       *cancellable,
                                   ChronoProgressFunc  progress,
                                   gpointer            user_data,
                                   GError            **error)
{
  ChronoNeuronReader reader;
  Importer imp = { 0 };
  gboolean ok;

  chrono_neuron_reader_init (&reader, trace, source, table_keys, read_record, read_other, &imp);
  chrono_neuron_reader_watch (&reader, cancellable, progress, user_data);
  imp.reader = &reader;
  imp.edges = g_array_new (FALSE, FALSE, sizeof (ChronoSpanEdge));
  imp.ids = g_array_new (FALSE, FALSE, sizeof (InstId));
  imp.deps = g_array_new (FALSE, FALSE, sizeof (InstId));
  imp.sem_updates = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  imp.waits = g_array_new (FALSE, FALSE, sizeof (SemWait));
  for (guint t = 0; t < N_TABLES; t++)
    imp.cats[t] = chrono_neuron_intern_text (&reader, table_keys[t]);

  ok = chrono_neuron_reader_run (&reader, error);
  if (ok)
    {
      resolve_deps (&imp);
      match_waits (&imp);
      name_core (&imp);
      count_engines (&imp);
      if (imp.unresolved_deps > 0)
        chrono_trace_add_warning (trace, g_dngettext (GETTEXT_PACKAGE, "%" G_GUINT64_FORMAT " inst_dep_ids entry names no instruction of the profile",
                                  "%" G_GUINT64_FORMAT " inst_dep_ids name no instruction of the profile", imp.unresolved_deps),
                                  imp.unresolved_deps);
      if (imp.unmatched_waits > 0)
        chrono_trace_add_warning (trace, g_dngettext (GETTEXT_PACKAGE, "%" G_GUINT64_FORMAT " semaphore wait matches no earlier update",
                                  "%" G_GUINT64_FORMAT " semaphore waits match no earlier update", imp.unmatched_waits),
                                  imp.unmatched_waits);
      chrono_neuron_reader_finish (&reader, "neuron-device", imp.edges);
    }

  chrono_neuron_reader_clear (&reader);
  g_array_unref (imp.edges);
  g_array_unref (imp.ids);
  g_array_unref (imp.deps);
  g_hash_table_unref (imp.sem_updates);
  g_array_unref (imp.waits);
  return ok;
}
