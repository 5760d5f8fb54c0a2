/* chrono-neuron-facts.c
 *
 * A device profile has millions of records, and reading their members
 * again from the text after the import cost the analysis as much as the
 * import itself. The few members the analysis reads are kept instead,
 * packed: a record takes 16 bytes and 8 for each member it has.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-json-scanner.h"
#include "chrono-neuron-facts.h"
#include "chrono-string-table.h"
#include "chrono-trace-private.h"

#define KEY(text) { text, sizeof text - 1 }

/* Looked up for every member of every record while importing. */
static const struct {
  const char *text;
  gsize       len;
} field_keys[CHRONO_NEURON_N_FIELDS] = {
  KEY ("raw_flops"), KEY ("adjusted_flops"), KEY ("flops_transpose"), KEY ("adjusted_flops_transpose"),
  KEY ("elements"), KEY ("tensor_elements"), KEY ("hbm_read_bytes"), KEY ("hbm_write_bytes"),
  KEY ("spill_save_bytes"), KEY ("spill_reload_bytes"), KEY ("transfer_size"), KEY ("transfer_bytes"),
  KEY ("operands"),
  KEY ("tensor_instruction_type"), KEY ("instruction_type"), KEY ("hlo_name"), KEY ("hlo_attrs"), KEY ("layer"),
  KEY ("nki_source_location"), KEY ("source"), KEY ("dest"),
};

#undef KEY

typedef struct {
  guint64 offset;
  guint32 present;
  guint32 first;     /* its first cell */
} Entry;

struct _ChronoNeuronFacts {
  GArray            *entries;  /* Entry */
  GArray            *cells;    /* guint64: a number's bits or a text's id */
  ChronoStringTable *texts;    /* its own: the trace's may be being read */
  gboolean           sorted;
};

ChronoNeuronFacts *
chrono_neuron_facts_new (void)
{
  ChronoNeuronFacts *facts = g_new0 (ChronoNeuronFacts, 1);

  facts->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  facts->cells = g_array_new (FALSE, FALSE, sizeof (guint64));
  facts->texts = chrono_string_table_new ();
  facts->sorted = TRUE;
  return facts;
}

void
chrono_neuron_facts_free (ChronoNeuronFacts *facts)
{
  if (facts == NULL)
    return;
  g_array_unref (facts->entries);
  g_array_unref (facts->cells);
  chrono_string_table_free (facts->texts);
  g_free (facts);
}

guint
chrono_neuron_count_waits (const char *operands,
                           gsize       len)
{
  const char *p = operands, *end = operands + len;
  guint n = 0;

  /* memchr runs through the text many bytes at a time; memmem does not. */
  while ((p = memchr (p, '$', end - p)) != NULL)
    {
      n += end - p >= 3 && p[1] == 'S' && p[2] == '[';
      p++;
    }
  return n;
}

gint
chrono_neuron_field_of_key (const char *key,
                            gsize       len)
{
  for (guint f = 0; f < CHRONO_NEURON_N_FIELDS; f++)
    if (field_keys[f].len == len && memcmp (field_keys[f].text, key, len) == 0)
      return f;
  return -1;
}

void
chrono_neuron_facts_add (ChronoNeuronFacts         *facts,
                         guint64                    offset,
                         const ChronoNeuronFactRow *row)
{
  Entry e = { offset, row->present, facts->cells->len };

  if (row->present == 0)
    return;
  if (facts->entries->len > 0 && g_array_index (facts->entries, Entry, facts->entries->len - 1).offset >= offset)
    facts->sorted = FALSE;
  g_array_append_val (facts->entries, e);
  for (guint f = 0; f < CHRONO_NEURON_N_FIELDS; f++)
    if (row->present & (1u << f))
      {
        guint64 cell = 0;

        if (f < CHRONO_NEURON_N_NUMBERS)
          memcpy (&cell, &row->number[f], sizeof cell);
        else
          cell = row->text[f - CHRONO_NEURON_N_NUMBERS];
        g_array_append_val (facts->cells, cell);
      }
}

guint32
chrono_neuron_facts_intern (ChronoNeuronFacts *facts,
                            const char        *text,
                            gsize              len)
{
  return chrono_string_table_intern (facts->texts, text, len);
}

const char *
chrono_neuron_facts_text (const ChronoNeuronFacts *facts,
                          guint32                  id)
{
  return chrono_string_table_get (facts->texts, id);
}

static gint
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const Entry *x = a, *y = b;

  return (x->offset > y->offset) - (x->offset < y->offset);
}

void
chrono_neuron_facts_seal (ChronoNeuronFacts *facts)
{
  if (!facts->sorted)
    g_array_sort (facts->entries, compare_entries);
  facts->sorted = TRUE;
}

gboolean
chrono_neuron_facts_find (const ChronoNeuronFacts *facts,
                          guint64                  offset,
                          guint                   *near,
                          ChronoNeuronFactRow     *row)
{
  const Entry *entries = (const Entry *) facts->entries->data;
  guint n = facts->entries->len, lo = 0, hi = n;
  const guint64 *cell;

  g_assert (facts->sorted);
  row->present = 0;
  /* Records are mostly read in the order of the file, a few apart: the
   * search gallops on from the last one found. */
  if (*near < n && entries[*near].offset <= offset)
    {
      guint step = 1;

      lo = *near;
      while (lo + step < n && entries[lo + step].offset < offset)
        {
          lo += step;
          step *= 2;
        }
      hi = MIN (lo + step + 1, n);
    }
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (entries[mid].offset < offset)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == n || entries[lo].offset != offset)
    return FALSE;
  *near = lo;
  row->present = entries[lo].present;
  cell = &g_array_index (facts->cells, guint64, entries[lo].first);
  /* The cells of the members present, lowest field first. */
  for (guint32 bits = row->present; bits != 0; bits &= bits - 1)
    {
      /* GLib's g_bit_nth_lsf() tests one bit at a time. */
      guint f = (guint) __builtin_ctz (bits);

      if (f < CHRONO_NEURON_N_NUMBERS)
        memcpy (&row->number[f], cell, sizeof *cell);
      else
        row->text[f - CHRONO_NEURON_N_NUMBERS] = (guint32) *cell;
      cell++;
    }
  return TRUE;
}

void
chrono_neuron_facts_absorb (ChronoNeuronFacts *facts,
                            ChronoNeuronFacts *src,
                            guint64            tag)
{
  guint n_texts = chrono_string_table_size (src->texts);
  g_autofree guint32 *map = g_new (guint32, MAX (n_texts, 1));

  for (guint i = 0; i < n_texts; i++)
    map[i] = chrono_neuron_facts_intern (facts, chrono_string_table_get (src->texts, i),
                                         chrono_string_table_get_len (src->texts, i));
  for (guint k = 0; k < src->entries->len; k++)
    {
      Entry e = g_array_index (src->entries, Entry, k);
      const guint64 *cell = &g_array_index (src->cells, guint64, e.first);

      e.offset |= tag;
      if (facts->entries->len > 0 && g_array_index (facts->entries, Entry, facts->entries->len - 1).offset >= e.offset)
        facts->sorted = FALSE;
      e.first = facts->cells->len;
      g_array_append_val (facts->entries, e);
      for (guint32 bits = e.present; bits != 0; bits &= bits - 1, cell++)
        {
          guint64 v = *cell;

          if ((guint) __builtin_ctz (bits) >= CHRONO_NEURON_N_NUMBERS)
            v = map[v];
          g_array_append_val (facts->cells, v);
        }
    }
  facts->sorted = facts->sorted && src->sorted;
  chrono_neuron_facts_free (src);
}

gsize
chrono_neuron_facts_size (const ChronoNeuronFacts *facts)
{
  return facts->entries->len * sizeof (Entry) + facts->cells->len * sizeof (guint64);
}

/* -------------------------------------------------------------------- */
/* Gathering them from the records, for traces whose importer did not   */

static void
set_text (ChronoNeuronFacts   *facts,
          ChronoNeuronFactRow *row,
          gint                 f,
          const char          *text,
          gsize                len)
{
  if (f == CHRONO_NEURON_F_SEM_WAITS)
    {
      /* None kept is none. */
      if ((row->number[f] = chrono_neuron_count_waits (text, len)) == 0)
        return;
    }
  else if (f < CHRONO_NEURON_N_NUMBERS)
    {
      if (!chrono_json_parse_double ((const guint8 *) text, len, &row->number[f]) || !isfinite (row->number[f]))
        row->number[f] = NAN;
    }
  else
    row->text[f - CHRONO_NEURON_N_NUMBERS] = chrono_neuron_facts_intern (facts, text, len);
  row->present |= 1u << f;
}

/* The wanted members of the JSON object at TEXT; FALSE when it is not
 * one. */
static gboolean
scan_object (ChronoNeuronFacts   *facts,
             const char          *text,
             gsize                available,
             GString             *scratch,
             ChronoNeuronFactRow *row)
{
  ChronoJsonScanner s = { (const guint8 *) text, (const guint8 *) text + available, NULL, NULL };
  ChronoJsonString key;
  gboolean done = FALSE, first = TRUE;

  chrono_json_skip_ws (&s);
  if (s.p >= s.end || *s.p != '{')
    return FALSE;
  s.p++;
  while (chrono_json_next_member (&s, first, &key, &done) == CHRONO_JSON_OK && !done)
    {
      gint f = key.escaped ? -1 : chrono_neuron_field_of_key ((const char *) key.start, key.len);
      const guint8 *start = s.p;
      ChronoJsonString value;

      first = FALSE;
      if (f < 0 || *s.p == 'n')
        {
          if (chrono_json_skip_value (&s) != CHRONO_JSON_OK)
            return FALSE;
          continue;
        }
      if (*s.p != '"')
        {
          if (chrono_json_skip_value (&s) != CHRONO_JSON_OK)
            return FALSE;
          /* Operands are a string or none. */
          if (f != CHRONO_NEURON_F_SEM_WAITS)
            set_text (facts, row, f, (const char *) start, s.p - start);
        }
      else if (chrono_json_read_string (&s, &value) != CHRONO_JSON_OK)
        return FALSE;
      else if (value.escaped && chrono_json_unescape (&value, scratch))
        set_text (facts, row, f, scratch->str, scratch->len);
      else
        set_text (facts, row, f, (const char *) value.start, value.len);
    }
  return done;
}

/* Records of table rows (Parquet) have no JSON text of their own: their
 * fields come from the table, or else from their args. */
typedef struct {
  ChronoNeuronFacts   *facts;
  ChronoNeuronFactRow *row;
} RowFields;

void
chrono_neuron_facts_set_cell (ChronoNeuronFacts   *facts,
                              ChronoNeuronFactRow *row,
                              ChronoNeuronField    f,
                              const char          *text,
                              gsize                len)
{
  if (text != NULL && !(len == 4 && memcmp (text, "null", 4) == 0))
    set_text (facts, row, f, text, len);
}

static void
add_field (const char *key,
           const char *text,
           gsize       len,
           gpointer    user_data)
{
  RowFields *rf = user_data;
  gint f = chrono_neuron_field_of_key (key, strlen (key));

  if (f >= 0)
    chrono_neuron_facts_set_cell (rf->facts, rf->row, f, text, len);
}

static void
read_members (ChronoNeuronFacts   *facts,
              ChronoTrace         *trace,
              guint64              offset,
              ChronoNeuronFactRow *row)
{
  g_autoptr(GPtrArray) args = NULL;
  RowFields rf = { facts, row };

  if (chrono_trace_row_fields (trace, offset, NULL, add_field, &rf))
    return;
  args = chrono_trace_dup_args (trace, offset);
  for (guint i = 0; i < args->len; i++)
    {
      const ChronoArg *a = g_ptr_array_index (args, i);

      add_field (a->key, a->text, strlen (a->text), &rf);
    }
}

static gint
compare_offsets (gconstpointer a,
                 gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return (x > y) - (x < y);
}

static ChronoNeuronFacts *
gather (ChronoTrace *trace)
{
  ChronoNeuronFacts *facts = chrono_neuron_facts_new ();
  g_autoptr(GString) scratch = g_string_new (NULL);
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (guint64));
  ChronoArgsText view;

  chrono_args_text_init (&view, trace);
  for (guint k = 0; k < chrono_trace_get_n_tracks (trace); k++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, k);

      for (guint32 i = 0; i < t->n_spans; i++)
        {
          guint64 offset = chrono_track_get_args (t, i);
          ChronoNeuronFactRow row = { 0 };
          gsize available = 0;
          const char *text;

          if ((t->kind[i] != CHRONO_KIND_INSTRUCTION && t->kind[i] != CHRONO_KIND_DMA) || offset == CHRONO_NO_ARGS)
            continue;
          text = chrono_args_text_get (&view, offset, &available);
          if (text == NULL || !scan_object (facts, text, available, scratch, &row))
            g_array_append_val (rows, offset);
          else
            chrono_neuron_facts_add (facts, offset, &row);
        }
    }
  /* In the order of the tables, each part of which is then decoded once. */
  g_array_sort (rows, compare_offsets);
  for (guint i = 0; i < rows->len; i++)
    {
      ChronoNeuronFactRow row = { 0 };

      read_members (facts, trace, g_array_index (rows, guint64, i), &row);
      chrono_neuron_facts_add (facts, g_array_index (rows, guint64, i), &row);
    }
  chrono_neuron_facts_seal (facts);
  return facts;
}

const ChronoNeuronFacts *
chrono_neuron_facts_of_trace (ChronoTrace *trace)
{
  static GMutex lock;
  ChronoNeuronFacts *facts;

  g_mutex_lock (&lock);
  facts = chrono_trace_get_neuron_facts (trace);
  if (facts == NULL)
    {
      facts = gather (trace);
      chrono_trace_set_neuron_facts (trace, facts);
    }
  g_mutex_unlock (&lock);
  return facts;
}
