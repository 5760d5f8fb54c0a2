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
 * S[n] reach v. The rows and edges are the device model's
 * (chrono-neuron-device.c), which the Parquet importer fills too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-json-scanner.h"
#include "chrono-neuron-device.h"
#include "chrono-neuron-facts.h"
#include "chrono-neuron-device-importer.h"

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
  ChronoNeuronFactRow facts;       /* the members the analysis reads */
  ChronoNeuronFacts  *facts_table;
} Record;

typedef struct {
  ChronoNeuronReader *reader;
  ChronoNeuronDevice  dev;
  guint32             cats[N_TABLES];
  ChronoNeuronFacts  *facts;
} Importer;

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
        chrono_neuron_device_add_dep (&imp->dev, id, b, span);
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

/* A member the analysis reads: a number as a number, or a text as it is
 * written (a string's contents, else the JSON value). */
static ChronoJsonStatus
read_fact (Record            *r,
           ChronoJsonScanner *s,
           ChronoNeuronField  f)
{
  const guint8 *start = s->p;
  ChronoJsonString text;
  ChronoJsonStatus st;

  if (f < CHRONO_NEURON_N_NUMBERS)
    {
      gdouble *value = &r->facts.number[f];
      gboolean ok;

      st = chrono_neuron_read_double (s, value, &ok);
      if (!ok || !isfinite (*value))
        *value = NAN;
    }
  else
    {
      GString *scratch = r->reader->scratch;

      if (*s->p == '"')
        st = chrono_json_read_string (s, &text);
      else
        {
          st = chrono_json_skip_value (s);
          text = (ChronoJsonString) { start, s->p - start, FALSE };
        }
      if (st == CHRONO_JSON_OK && text.escaped && chrono_json_unescape (&text, scratch))
        r->facts.text[f - CHRONO_NEURON_N_NUMBERS] = chrono_neuron_facts_intern (r->facts_table, scratch->str, scratch->len);
      else if (st == CHRONO_JSON_OK)
        r->facts.text[f - CHRONO_NEURON_N_NUMBERS] = chrono_neuron_facts_intern (r->facts_table, (const char *) text.start, text.len);
    }
  if (st == CHRONO_JSON_OK)
    r->facts.present |= 1u << f;
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
  else if (!key->escaped && *s->p != 'n' && (r->table == TABLE_INSTRUCTION || r->table == TABLE_DMA))
    {
      gint f = chrono_neuron_field_of_key ((const char *) key->start, key->len);

      if (f >= 0)
        return read_fact (r, s, f);
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
  r->facts_table = imp->facts;
  return chrono_neuron_read_record (s, &r->t, read_member, r);
}

/* Its operands' semaphore waits, which the ledger asks of every
 * instruction it walks back to: counted here, where they are read, and
 * kept when there are any (none kept is none). */
static void
count_waits (Record *r)
{
  guint n;

  if (r->operands.start == NULL ||
      (n = chrono_neuron_count_waits ((const char *) r->operands.start, r->operands.len)) == 0)
    return;
  r->facts.number[CHRONO_NEURON_F_SEM_WAITS] = n;
  r->facts.present |= 1u << CHRONO_NEURON_F_SEM_WAITS;
}

static void
handle_instruction (Importer *imp,
                    Record   *r)
{
  ChronoTrackBuilder *b;
  guint32 span;
  gint64 start = (gint64) r->t.ts;
  gint64 dur = r->t.has_dur ? (gint64) r->t.dur : 0;

  b = chrono_neuron_device_engine_track (&imp->dev, r->label.start ? &r->label : &r->subgroup);
  span = chrono_track_builder_add_span (b, start, dur, r->opcode.start ? chrono_neuron_intern (imp->reader, &r->opcode) : 0,
                                        imp->cats[TABLE_INSTRUCTION], r->start - imp->reader->base,
                                        CHRONO_KIND_INSTRUCTION, r->t.has_dur ? 0 : CHRONO_SPAN_NO_DUR);
  count_waits (r);
  chrono_neuron_facts_add (imp->facts, r->start - imp->reader->base, &r->facts);
  chrono_neuron_note_time (imp->reader, start, start + dur);
  if (r->has_id)
    chrono_neuron_device_add_id (&imp->dev, CHRONO_NEURON_ID_INSTRUCTION, r->id, b, span);
  if (r->deps != NULL)
    read_deps (imp, r->deps, b, span);
  if (r->operands.start != NULL)
    chrono_neuron_device_scan_operands (&imp->dev, r->operands.start, r->operands.len, b, span, start, start + dur);
}

static void
handle_dma (Importer *imp,
            Record   *r)
{
  gint64 start = (gint64) r->t.ts;
  gint64 dur = r->t.has_dur ? (gint64) r->t.dur : 0;
  const ChronoJsonString *queue = &r->subgroup;
  ChronoTrackBuilder *b = chrono_neuron_device_queue_track (&imp->dev, queue);
  guint32 span;

  span = chrono_track_builder_add_span (b, start, dur, queue->start ? chrono_neuron_intern (imp->reader, queue) : 0,
                                        imp->cats[TABLE_DMA], r->start - imp->reader->base,
                                        CHRONO_KIND_DMA, r->t.has_dur ? 0 : CHRONO_SPAN_NO_DUR);
  count_waits (r);
  chrono_neuron_facts_add (imp->facts, r->start - imp->reader->base, &r->facts);
  chrono_neuron_note_time (imp->reader, start, start + dur);
  if (r->semaphore.start != NULL)
    chrono_neuron_device_dma_semaphore (&imp->dev, r->semaphore.start, r->semaphore.len, start + dur, b, span);
}

static void
handle_semaphore (Importer *imp,
                  Record   *r)
{
  ChronoTrackBuilder *b;
  guint32 name;

  if (r->name.start == NULL || !r->has_value)
    {
      chrono_neuron_skip_record (imp->reader, r->start, TABLE_SEMAPHORE, "has no \"id\" or \"value\"");
      return;
    }
  name = chrono_neuron_intern (imp->reader, &r->name);
  b = chrono_neuron_device_semaphore_track (&imp->dev, name, r->name.start, r->name.len);
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

  b = chrono_neuron_device_cc_track (&imp->dev, table == TABLE_CC_INSTRUCTION, r->has_core ? r->core : 0);
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
  if ((st = chrono_json_skip_value (s)) != CHRONO_JSON_OK)
    return st;
  /* The metrics read the hardware's figures, the throttling and the
   * executions. */
  if (chrono_neuron_str_is (key, "metadata", 8))
    chrono_neuron_keep_metadata (reader, "neuron_metadata", start, s->p);
  else if (chrono_neuron_str_is (key, "throttle", 8))
    chrono_neuron_keep_metadata (reader, "neuron_throttle", start, s->p);
  else if (chrono_neuron_str_is (key, "execution_info", 14))
    chrono_neuron_keep_metadata (reader, "neuron_executions", start, s->p);
  return st;
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
  imp.facts = chrono_neuron_facts_new ();
  chrono_neuron_device_init (&imp.dev, &reader);
  for (guint t = 0; t < N_TABLES; t++)
    imp.cats[t] = chrono_neuron_intern_text (&reader, table_keys[t]);

  ok = chrono_neuron_reader_run (&reader, error);
  if (ok)
    {
      chrono_neuron_device_finish (&imp.dev, "inst_dep_ids");
      chrono_neuron_facts_seal (imp.facts);
      chrono_trace_set_neuron_facts (trace, g_steal_pointer (&imp.facts));
    }
  g_clear_pointer (&imp.facts, chrono_neuron_facts_free);

  chrono_neuron_device_clear (&imp.dev);
  chrono_neuron_reader_clear (&reader);
  return ok;
}
