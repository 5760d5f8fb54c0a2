/* chrono-neuron.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <inttypes.h>
#include <string.h>

#include "chrono-neuron.h"

#define SNIFF_KEYS 64

static gboolean
key_in (const ChronoJsonString *key,
        const char * const     *names)
{
  for (guint i = 0; names[i]; i++)
    if (strlen (names[i]) == key->len && memcmp (names[i], key->start, key->len) == 0)
      return TRUE;
  return FALSE;
}

ChronoNeuronFormat
chrono_neuron_sniff (const guint8 *data,
                     gsize         len)
{
  /* Legacy keys, and the snake_case table names of newer exports. */
  static const char * const device_keys[] = {
    "instruction", "dma", "semaphore_update", "cc_op", "cc_instruction",
    "instruction_usage", "stack_frame_function_name", "cc_stream", NULL
  };
  static const char * const system_keys[] = {
    "trace_event", "trace_events", "mem_usage", "cpu_util", "device_mem_usage", NULL
  };
  ChronoJsonScanner s = { data, data + len, NULL, NULL };
  gboolean done = FALSE;
  gboolean summary = FALSE;

  chrono_json_skip_ws (&s);
  if (s.p >= s.end || *s.p != '{')
    return CHRONO_NEURON_NONE;
  s.p++;
  for (guint i = 0; i < SNIFF_KEYS; i++)
    {
      ChronoJsonString key;

      if (chrono_json_next_member (&s, i == 0, &key, &done) != CHRONO_JSON_OK || done)
        break;
      if (key_in (&key, device_keys))
        return CHRONO_NEURON_DEVICE;
      if (key_in (&key, system_keys))
        return CHRONO_NEURON_SYSTEM;
      /* A Chrome trace: skipping its events would read the whole file. */
      if (key.len == 11 && memcmp (key.start, "traceEvents", 11) == 0)
        break;
      /* "summary" is an array in the device profile; summary-json is a
       * different thing. */
      if (key.len == 7 && memcmp (key.start, "summary", 7) == 0)
        {
          chrono_json_skip_ws (&s);
          summary = s.p < s.end && *s.p == '[';
        }
      if (chrono_json_skip_value (&s) != CHRONO_JSON_OK)
        break;
    }
  return summary ? CHRONO_NEURON_DEVICE : CHRONO_NEURON_NONE;
}

static ChronoJsonStatus
read_text (ChronoJsonScanner  *s,
           const guint8      **text,
           gsize              *len,
           gboolean           *ok)
{
  ChronoJsonStatus st;

  *ok = FALSE;
  if (*s->p == '"')
    {
      ChronoJsonString str;

      if ((st = chrono_json_read_string (s, &str)) != CHRONO_JSON_OK)
        return st;
      *text = str.start;
      *len = str.len;
      *ok = !str.escaped;
      return CHRONO_JSON_OK;
    }
  if (*s->p == '-' || (*s->p >= '0' && *s->p <= '9'))
    {
      if ((st = chrono_json_read_number (s, text, len)) != CHRONO_JSON_OK)
        return st;
      *ok = TRUE;
      return CHRONO_JSON_OK;
    }
  return chrono_json_skip_value (s);
}

ChronoJsonStatus
chrono_neuron_read_int (ChronoJsonScanner *s,
                        guint64           *value,
                        gboolean          *ok)
{
  const guint8 *text = NULL;
  gsize len = 0;
  ChronoJsonStatus st = read_text (s, &text, &len, ok);
  gint64 v;

  if (st != CHRONO_JSON_OK || !*ok)
    return st;
  if (len > 0 && text[0] == '-')
    {
      *ok = chrono_json_parse_int64 (text, len, &v);
      *value = (guint64) v;
    }
  else
    *ok = chrono_json_parse_uint64 (text, len, value);
  if (!*ok)
    {
      /* 2397972.0: an integer written as a float. */
      gdouble d;

      *ok = chrono_json_parse_double (text, len, &d) && d > -9.2e18 && d < 9.2e18;
      if (*ok)
        *value = (guint64) (gint64) d;
    }
  return CHRONO_JSON_OK;
}

ChronoJsonStatus
chrono_neuron_read_double (ChronoJsonScanner *s,
                           gdouble           *value,
                           gboolean          *ok)
{
  const guint8 *text = NULL;
  gsize len = 0;
  ChronoJsonStatus st = read_text (s, &text, &len, ok);

  if (st != CHRONO_JSON_OK || !*ok)
    return st;
  *ok = chrono_json_parse_double (text, len, value);
  return CHRONO_JSON_OK;
}

/* "timestamp" or "start_ts", "duration" or "duration_ns". */
static gboolean
read_time (ChronoJsonScanner      *s,
           const ChronoJsonString *key,
           ChronoNeuronTimes      *times,
           ChronoJsonStatus       *st)
{
  gboolean ok = TRUE;
  const guint8 *value = s->p;
  const char *name;

  if (chrono_neuron_str_is (key, "timestamp", 9) || chrono_neuron_str_is (key, "start_ts", 8))
    {
      name = chrono_neuron_str_is (key, "timestamp", 9) ? "timestamp" : "start_ts";
      *st = chrono_neuron_read_int (s, &times->ts, &ok);
      times->has_ts = ok;
    }
  else if (chrono_neuron_str_is (key, "duration", 8) || chrono_neuron_str_is (key, "duration_ns", 11))
    {
      name = chrono_neuron_str_is (key, "duration", 8) ? "duration" : "duration_ns";
      *st = chrono_neuron_read_int (s, &times->dur, &ok);
      times->has_dur = ok;
    }
  else
    return FALSE;
  if (!ok && !times->bad)
    {
      times->bad_key = name;
      times->bad_at = value;
    }
  times->bad |= !ok;
  return TRUE;
}

ChronoJsonStatus
chrono_neuron_read_record (ChronoJsonScanner      *s,
                           ChronoNeuronTimes      *times,
                           ChronoNeuronMemberFunc  member,
                           gpointer                record)
{
  gboolean done = FALSE;

  memset (times, 0, sizeof *times);
  s->p++;  /* '{' */
  for (gboolean first = TRUE;; first = FALSE)
    {
      ChronoJsonString key;
      ChronoJsonStatus st;

      if ((st = chrono_json_next_member (s, first, &key, &done)) != CHRONO_JSON_OK)
        return st;
      if (done)
        break;
      if (!read_time (s, &key, times, &st))
        st = member (s, &key, record);
      if (st != CHRONO_JSON_OK)
        return st;
    }
  if (times->bad)
    times->has_ts = FALSE;
  return CHRONO_JSON_OK;
}

/* -------------------------------------------------------------------- */
/* The reader                                                           */

#define PROGRESS_EVERY (1u << 15)
#define MAX_WARNINGS   10

void
chrono_neuron_reader_watch (ChronoNeuronReader *reader,
                            GCancellable       *cancellable,
                            ChronoProgressFunc  progress,
                            gpointer            progress_data)
{
  reader->cancellable = cancellable;
  reader->progress = progress;
  reader->progress_data = progress_data;
}

void
chrono_neuron_reader_init (ChronoNeuronReader     *reader,
                           ChronoTrace            *trace,
                           ChronoSource           *source,
                           const char * const     *tables,
                           ChronoNeuronRecordFunc  record,
                           ChronoNeuronKeyFunc     other,
                           gpointer                data)
{
  gboolean finished = FALSE;
  gsize avail = 0;

  while (!finished)
    avail = chrono_source_wait (source, avail, &finished);
  chrono_neuron_reader_init_model (reader, trace);
  reader->base = chrono_source_get_data (source);
  reader->s.p = reader->base;
  reader->s.end = reader->base + avail;
  reader->tables = tables;
  reader->record = record;
  reader->other = other;
  reader->data = data;
}

void
chrono_neuron_reader_init_model (ChronoNeuronReader *reader,
                                 ChronoTrace        *trace)
{
  memset (reader, 0, sizeof *reader);
  reader->trace = trace;
  reader->builders = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_track_builder_free);
  reader->named_tracks = g_hash_table_new (chrono_track_key_hash, chrono_track_key_equal);
  reader->scratch = g_string_new (NULL);
  reader->min_ts = G_MAXINT64;
  reader->max_ts = G_MININT64;
  reader->until_progress = PROGRESS_EVERY;
}

void
chrono_neuron_reader_clear (ChronoNeuronReader *reader)
{
  g_clear_pointer (&reader->builders, g_ptr_array_unref);
  g_clear_pointer (&reader->named_tracks, g_hash_table_unref);
  if (reader->scratch)
    g_string_free (g_steal_pointer (&reader->scratch), TRUE);
}

guint32
chrono_neuron_intern (ChronoNeuronReader     *reader,
                      const ChronoJsonString *str)
{
  if (str->escaped && chrono_json_unescape (str, reader->scratch))
    return chrono_string_table_intern (reader->trace->strings, reader->scratch->str, reader->scratch->len);
  return chrono_string_table_intern (reader->trace->strings, (const char *) str->start, str->len);
}

guint32
chrono_neuron_intern_text (ChronoNeuronReader *reader,
                           const char         *text)
{
  return chrono_string_table_intern (reader->trace->strings, text, strlen (text));
}

ChronoTrackBuilder *
chrono_neuron_track (ChronoNeuronReader *reader,
                     guint32             process,
                     ChronoTrackType     type,
                     guint32             name,
                     gint64              sort_index)
{
  ChronoTrackKey key = { process, type, { name, TRUE } };
  ChronoTrackBuilder *b = g_hash_table_lookup (reader->named_tracks, &key);

  if (b == NULL)
    {
      ChronoId pid = { process, FALSE };

      b = chrono_track_builder_new (&key, pid);
      b->track.name = name;
      b->track.sort_index = sort_index;
      b->track.has_sort_index = TRUE;
      g_ptr_array_add (reader->builders, b);
      g_hash_table_insert (reader->named_tracks, &b->key, b);
    }
  return b;
}

void
chrono_neuron_note_time (ChronoNeuronReader *reader,
                         gint64              start,
                         gint64              end)
{
  reader->min_ts = MIN (reader->min_ts, start);
  reader->max_ts = MAX (reader->max_ts, end);
}

void
chrono_neuron_keep_metadata (ChronoNeuronReader *reader,
                             const char         *key,
                             const guint8       *start,
                             const guint8       *end)
{
  ChronoRange *range = g_new (ChronoRange, 1);

  range->offset = start - reader->base;
  range->length = (guint32) MIN (end - start, G_MAXUINT32);
  g_hash_table_insert (reader->trace->metadata, g_strdup (key), range);
}

void
chrono_neuron_skip_record (ChronoNeuronReader *reader,
                           const guint8       *start,
                           guint               table,
                           const char         *what)
{
  reader->skipped++;
  if (reader->skipped <= MAX_WARNINGS)
    chrono_trace_add_warning (reader->trace, "byte %" G_GUINT64_FORMAT ": a record of \"%s\" %s; skipped",
                              (guint64) (start - reader->base), reader->tables[table], what);
}

const char *
chrono_neuron_json_type (const guint8 *value)
{
  switch (*value)
    {
    case '{':
      return "an object";
    case '[':
      return "an array";
    case '"':
      return "a string";
    case 't':
    case 'f':
      return "a boolean";
    case 'n':
      return "null";
    default:
      return "a number";
    }
}

void
chrono_neuron_bad_value (ChronoNeuronReader     *reader,
                         const guint8           *record,
                         guint                   table,
                         const ChronoJsonString *key,
                         const guint8           *value,
                         const char             *expected)
{
  reader->bad_values++;
  if (reader->bad_values <= MAX_WARNINGS)
    chrono_trace_add_warning (reader->trace,
                              "byte %" G_GUINT64_FORMAT ": \"%.*s\" of the record of \"%s\" at byte %"
                              G_GUINT64_FORMAT " is %s, expected %s; left out",
                              (guint64) (value - reader->base), (int) key->len, (const char *) key->start,
                              reader->tables[table], (guint64) (record - reader->base),
                              chrono_neuron_json_type (value), expected);
}

void
chrono_neuron_skip_untimed (ChronoNeuronReader      *reader,
                            const guint8            *record,
                            guint                    table,
                            const ChronoNeuronTimes *times)
{
  g_autofree char *what = NULL;

  if (times->bad_key != NULL)
    what = g_strdup_printf ("has a \"%s\" (byte %" G_GUINT64_FORMAT ") that is %s, expected a number",
                            times->bad_key, (guint64) (times->bad_at - reader->base),
                            /* a string that holds no number reads as a string */
                            chrono_neuron_json_type (times->bad_at));
  else
    what = g_strdup ("has no \"timestamp\"");
  chrono_neuron_skip_record (reader, record, table, what);
}

ChronoJsonStatus
chrono_neuron_read_string (ChronoJsonScanner *s,
                           ChronoJsonString  *out)
{
  if (*s->p == '"')
    return chrono_json_read_string (s, out);
  return chrono_json_skip_value (s);
}

static gboolean
syntax_error (ChronoNeuronReader  *reader,
              GError             **error)
{
  g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_SYNTAX,
               "%s: byte %" G_GUINT64_FORMAT ": expected %s",
               reader->trace->path,
               (guint64) ((reader->s.error_at ? reader->s.error_at : reader->s.p) - reader->base),
               reader->s.expected ? reader->s.expected : "JSON");
  return FALSE;
}

static void
truncated (ChronoNeuronReader *reader,
           const char         *where)
{
  reader->trace->stats.truncated = TRUE;
  chrono_trace_add_warning (reader->trace,
                            "the file ends inside %s at byte %" G_GUINT64_FORMAT
                            ": loaded the %" G_GUINT64_FORMAT " complete records before it",
                            where, (guint64) (reader->s.end - reader->base), reader->records);
}

/* The records of one table; FALSE on a syntax error or cancellation,
 * *STOP at the end of a truncated file. */
static gboolean
read_table (ChronoNeuronReader  *reader,
            guint                table,
            gboolean            *stop,
            GError             **error)
{
  ChronoJsonScanner *s = &reader->s;

  s->p++;  /* '[' */
  for (;;)
    {
      const guint8 *start;
      ChronoJsonStatus st;

      chrono_json_skip_ws (s);
      if (s->p >= s->end)
        st = CHRONO_JSON_TRUNCATED;
      else if (*s->p == ']')
        {
          s->p++;
          return TRUE;
        }
      else if (*s->p == ',')
        {
          s->p++;
          continue;
        }
      else if (*s->p != '{')
        {
          start = s->p;
          if ((st = chrono_json_skip_value (s)) == CHRONO_JSON_OK)
            {
              chrono_neuron_skip_record (reader, start, table, "is not an object");
              continue;
            }
        }
      else
        {
          st = reader->record (reader, table, reader->data);
          if (st == CHRONO_JSON_OK)
            reader->records++;
        }
      if (st == CHRONO_JSON_SYNTAX)
        return syntax_error (reader, error);
      if (st == CHRONO_JSON_TRUNCATED)
        {
          truncated (reader, "a record");
          *stop = TRUE;
          return TRUE;
        }
      if (--reader->until_progress == 0)
        {
          reader->until_progress = PROGRESS_EVERY;
          if (g_cancellable_set_error_if_cancelled (reader->cancellable, error))
            return FALSE;
          if (reader->progress)
            reader->progress (s->p - reader->base, s->end - reader->base, reader->progress_data);
        }
    }
}

gboolean
chrono_neuron_reader_run (ChronoNeuronReader  *reader,
                          GError             **error)
{
  ChronoJsonScanner *s = &reader->s;
  gboolean stop = FALSE;

  chrono_json_skip_ws (s);
  if (s->p >= s->end || *s->p != '{')
    {
      reader->s.expected = "'{' of a Neuron profile";
      return syntax_error (reader, error);
    }
  s->p++;
  for (gboolean first = TRUE; !stop; first = FALSE)
    {
      ChronoJsonString key;
      gboolean done = FALSE;
      ChronoJsonStatus st;
      guint table;

      st = chrono_json_next_member (s, first, &key, &done);
      if (st == CHRONO_JSON_OK && done)
        {
          chrono_json_skip_ws (s);
          if (s->p < s->end)
            chrono_trace_add_warning (reader->trace, "byte %" G_GUINT64_FORMAT ": data after the end of the profile is ignored",
                                      (guint64) (s->p - reader->base));
          return TRUE;
        }
      if (st == CHRONO_JSON_OK)
        {
          for (table = 0; reader->tables[table]; table++)
            if (chrono_neuron_str_is (&key, reader->tables[table], strlen (reader->tables[table])))
              break;
          if (reader->tables[table] && *s->p == '[')
            {
              if (!read_table (reader, table, &stop, error))
                return FALSE;
              continue;
            }
          if (reader->tables[table])
            {
              /* A table of another shape: none of its records can be read. */
              chrono_trace_add_warning (reader->trace,
                                        "byte %" G_GUINT64_FORMAT ": the table \"%s\" is %s, expected an "
                                        "array of records; skipped whole",
                                        (guint64) (s->p - reader->base), reader->tables[table],
                                        chrono_neuron_json_type (s->p));
              st = chrono_json_skip_value (s);
            }
          else
            st = reader->other (reader, &key, reader->data);
        }
      if (st == CHRONO_JSON_SYNTAX)
        return syntax_error (reader, error);
      if (st == CHRONO_JSON_TRUNCATED)
        break;
    }
  if (!stop)
    truncated (reader, "the top-level object");
  return TRUE;
}

void
chrono_neuron_reader_finish (ChronoNeuronReader *reader,
                             const char         *format,
                             GArray             *edges)
{
  ChronoTrace *trace = reader->trace;
  ChronoBuildInput input = { 0 };

  trace->format = format;
  trace->stats.events = reader->records;
  trace->stats.dropped = reader->skipped;
  if (reader->skipped > MAX_WARNINGS)
    chrono_trace_add_warning (trace, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " record was skipped in all", "%" PRIu64 " records were skipped in all", reader->skipped), reader->skipped);
  if (reader->bad_values > MAX_WARNINGS)
    chrono_trace_add_warning (trace, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " value of the wrong type was left out in all",
                              "%" PRIu64 " values of the wrong type were left out in all", reader->bad_values),
                              reader->bad_values);
  input.builders = reader->builders;
  input.flow_events = g_array_new (FALSE, FALSE, sizeof (ChronoFlowEvent));
  input.v2_binds = g_array_new (FALSE, FALSE, sizeof (ChronoV2Bind));
  input.edges = edges;
  input.min_ts = reader->min_ts;
  input.max_ts = reader->max_ts;
  chrono_track_builder_finish_trace (trace, &input);
  g_array_unref (input.flow_events);
  g_array_unref (input.v2_binds);
}
