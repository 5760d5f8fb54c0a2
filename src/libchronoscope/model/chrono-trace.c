/* chrono-trace.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-json-scanner.h"
#include "chrono-neuron-facts.h"
#include "chrono-trace-private.h"

G_DEFINE_FINAL_TYPE (ChronoTrace, chrono_trace, G_TYPE_OBJECT)

void
chrono_track_clear (ChronoTrack *track)
{
  g_free (track->start);
  chrono_int_column_clear (&track->dur);
  chrono_int_column_clear (&track->name_id);
  chrono_int_column_clear (&track->cat_id);
  chrono_int_column_clear (&track->args_off);
  g_free (track->depth);
  g_free (track->lane);
  g_free (track->kind);
  g_free (track->flags);
  chrono_int_column_clear (&track->correlation);
  g_free (track->inst_ts);
  chrono_int_column_clear (&track->inst_name);
  chrono_int_column_clear (&track->inst_cat);
  chrono_int_column_clear (&track->inst_args_off);
  g_free (track->sample_ts);
  g_free (track->sample_value);
}

void
chrono_track_free (ChronoTrack *track)
{
  if (track == NULL)
    return;
  chrono_track_clear (track);
  g_free (track);
}

static void
clear_part (gpointer data)
{
  ChronoTracePart *part = data;

  g_free ((char *) part->path);
}

static void
chrono_trace_finalize (GObject *object)
{
  ChronoTrace *self = CHRONO_TRACE (object);

  g_free (self->path);
  g_clear_pointer (&self->source, chrono_source_unref);
  g_clear_pointer (&self->args_json, g_byte_array_unref);
  g_clear_pointer (&self->more_sources, g_ptr_array_unref);
  g_clear_pointer (&self->row_args, g_ptr_array_unref);
  g_clear_pointer (&self->neuron_facts, chrono_neuron_facts_free);
  g_clear_pointer (&self->strings, chrono_string_table_free);
  g_clear_pointer (&self->processes, g_array_unref);
  g_clear_pointer (&self->tracks, g_ptr_array_unref);
  g_clear_pointer (&self->flows, g_array_unref);
  g_clear_pointer (&self->metadata, g_hash_table_unref);
  g_clear_pointer (&self->parts, g_array_unref);
  g_clear_pointer (&self->stats.phases, g_hash_table_unref);
  g_clear_pointer (&self->stats.engines, g_hash_table_unref);
  g_clear_pointer (&self->stats.warnings, g_ptr_array_unref);
  g_clear_pointer (&self->stats.quirks, g_array_unref);

  G_OBJECT_CLASS (chrono_trace_parent_class)->finalize (object);
}

static void
chrono_trace_class_init (ChronoTraceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_trace_finalize;
}

static void
chrono_trace_init (ChronoTrace *self)
{
  self->strings = chrono_string_table_new ();
  self->processes = g_array_new (FALSE, TRUE, sizeof (ChronoProcess));
  self->tracks = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_track_free);
  self->flows = g_array_new (FALSE, FALSE, sizeof (ChronoFlow));
  self->metadata = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->parts = g_array_new (FALSE, TRUE, sizeof (ChronoTracePart));
  g_array_set_clear_func (self->parts, clear_part);
  self->stats.phases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->stats.engines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->stats.warnings = g_ptr_array_new_with_free_func (g_free);
  self->stats.quirks = g_array_new (FALSE, FALSE, sizeof (gboolean));
  self->rank = -1;
  self->world_size = -1;
  self->format = "unknown";
}

ChronoTrace *
chrono_trace_new (const char   *path,
                  ChronoSource *source)
{
  ChronoTrace *self = g_object_new (CHRONO_TYPE_TRACE, NULL);

  self->path = g_strdup (path);
  self->source = source ? chrono_source_ref (source) : NULL;
  return self;
}

static void
row_args_free (gpointer data)
{
  ChronoRowArgs *row_args = data;

  if (row_args != NULL)
    row_args->free (row_args);
}

ChronoNeuronFacts *
chrono_trace_get_neuron_facts (ChronoTrace *self)
{
  return self->neuron_facts;
}

void
chrono_trace_set_neuron_facts (ChronoTrace       *self,
                               ChronoNeuronFacts *facts)
{
  g_clear_pointer (&self->neuron_facts, chrono_neuron_facts_free);
  self->neuron_facts = facts;
}

void
chrono_trace_set_row_args (ChronoTrace   *self,
                           guint          source,
                           ChronoRowArgs *row_args)
{
  if (self->row_args == NULL)
    self->row_args = g_ptr_array_new_with_free_func (row_args_free);
  while (self->row_args->len <= source)
    g_ptr_array_add (self->row_args, NULL);
  row_args_free (self->row_args->pdata[source]);
  self->row_args->pdata[source] = row_args;
}

/* The JSON text of the table row that OFFSET names, or NULL when its
 * source keeps args as text. */
static char *
row_text (ChronoTrace *self,
          guint64      offset)
{
  guint index = (guint) (offset >> CHRONO_SOURCE_SHIFT);
  ChronoRowArgs *row_args;

  if (offset == CHRONO_NO_ARGS || self->row_args == NULL || index >= self->row_args->len ||
      (row_args = g_ptr_array_index (self->row_args, index)) == NULL)
    return NULL;
  return row_args->row (row_args, offset & CHRONO_OFFSET_MASK);
}

gboolean
chrono_trace_row_fields (ChronoTrace        *self,
                         guint64             offset,
                         const char * const *only,
                         ChronoRowFieldFunc  func,
                         gpointer            user_data)
{
  guint index = (guint) (offset >> CHRONO_SOURCE_SHIFT);
  ChronoRowArgs *row_args;

  if (offset == CHRONO_NO_ARGS || self->row_args == NULL || index >= self->row_args->len ||
      (row_args = g_ptr_array_index (self->row_args, index)) == NULL)
    return FALSE;
  return row_args->fields (row_args, offset & CHRONO_OFFSET_MASK, only, func, user_data);
}

static gboolean
has_row_args (ChronoTrace *self,
              guint64      offset)
{
  guint index = (guint) (offset >> CHRONO_SOURCE_SHIFT);

  return offset != CHRONO_NO_ARGS && self->row_args != NULL && index < self->row_args->len &&
         g_ptr_array_index (self->row_args, index) != NULL;
}

void
chrono_trace_set_single_part (ChronoTrace *self)
{
  ChronoTracePart part = {
    .path = g_strdup (self->path),
    .format = self->format,
    .rank = self->rank,
    .world_size = self->world_size,
    .base_time_ns = self->base_time_ns,
    .start_ns = self->start_ns,
    .end_ns = self->end_ns,
    .truncated = self->stats.truncated,
    .n_processes = self->processes->len,
    .n_tracks = self->tracks->len,
  };

  g_array_set_size (self->parts, 0);
  g_array_append_val (self->parts, part);
}

static void
add_message (ChronoTrace *self,
             gboolean     quirk,
             char        *text)
{
  g_ptr_array_add (self->stats.warnings, text);
  g_array_append_val (self->stats.quirks, quirk);
}

void
chrono_trace_add_warning (ChronoTrace *self,
                          const char  *format,
                          ...)
{
  va_list args;

  va_start (args, format);
  add_message (self, FALSE, g_strdup_vprintf (format, args));
  va_end (args);
}

void
chrono_trace_add_quirk (ChronoTrace *self,
                        const char  *format,
                        ...)
{
  va_list args;

  va_start (args, format);
  add_message (self, TRUE, g_strdup_vprintf (format, args));
  va_end (args);
}

void
chrono_trace_append_warnings (ChronoTrace *self,
                              ChronoTrace *from,
                              const char  *file)
{
  const ChronoLoadStats *b = &from->stats;

  for (guint i = 0; i < b->warnings->len; i++)
    {
      const char *text = g_ptr_array_index (b->warnings, i);

      add_message (self, g_array_index (b->quirks, gboolean, i),
                   file != NULL ? g_strdup_printf ("%s: %s", file, text) : g_strdup (text));
    }
}

gboolean
chrono_trace_warning_is_quirk (ChronoTrace *self,
                               guint        index)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), FALSE);
  g_return_val_if_fail (index < self->stats.quirks->len, FALSE);

  return g_array_index (self->stats.quirks, gboolean, index);
}

const char *
chrono_trace_get_path (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);
  return self->path;
}

const char *
chrono_trace_get_format (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);
  return self->format;
}

const char *
chrono_trace_get_compression (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);
  if (self->source == NULL)
    return "none";
  return chrono_compression_to_string (chrono_source_get_compression (self->source));
}

const char *
chrono_trace_get_text_dir (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);
  return self->source ? chrono_source_get_text_dir (self->source) : NULL;
}

gsize
chrono_trace_get_source_size (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), 0);
  if (self->stats.file_bytes > 0)
    return self->stats.file_bytes;
  return self->source ? chrono_source_get_available (self->source) : 0;
}

const char *
chrono_trace_get_string (ChronoTrace *self,
                         guint32      id)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), "");
  return chrono_string_table_get (self->strings, id);
}

guint
chrono_trace_get_n_strings (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), 0);
  return chrono_string_table_size (self->strings);
}

guint
chrono_trace_get_n_processes (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), 0);
  return self->processes->len;
}

const ChronoProcess *
chrono_trace_get_process (ChronoTrace *self,
                          guint        index)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->processes->len, NULL);
  return &g_array_index (self->processes, ChronoProcess, index);
}

guint
chrono_trace_get_n_tracks (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), 0);
  return self->tracks->len;
}

const ChronoTrack *
chrono_trace_get_track (ChronoTrace *self,
                        guint        index)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->tracks->len, NULL);
  return g_ptr_array_index (self->tracks, index);
}

guint
chrono_trace_get_n_flows (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), 0);
  return self->flows->len;
}

const ChronoFlow *
chrono_trace_get_flow (ChronoTrace *self,
                       guint        index)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->flows->len, NULL);
  return &g_array_index (self->flows, ChronoFlow, index);
}

const ChronoFlow *
chrono_trace_get_flows (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);
  return (const ChronoFlow *) self->flows->data;
}

gint64
chrono_trace_get_start_ns (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), 0);
  return self->start_ns;
}

gint64
chrono_trace_get_end_ns (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), 0);
  return self->end_ns;
}

gint64
chrono_trace_get_base_time_ns (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), 0);
  return self->base_time_ns;
}

gint
chrono_trace_get_rank (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), -1);
  return self->rank;
}

gint
chrono_trace_get_world_size (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), -1);
  return self->world_size;
}

const ChronoLoadStats *
chrono_trace_get_stats (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);
  return &self->stats;
}

guint
chrono_trace_get_n_parts (ChronoTrace *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), 0);
  return self->parts->len;
}

const ChronoTracePart *
chrono_trace_get_part (ChronoTrace *self,
                       guint        index)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->parts->len, NULL);
  return &g_array_index (self->parts, ChronoTracePart, index);
}

gint
chrono_trace_get_part_of_process (ChronoTrace *self,
                                  guint        process)
{
  guint lo = 0, hi;

  g_return_val_if_fail (CHRONO_IS_TRACE (self), -1);

  if (process >= self->processes->len)
    return -1;
  /* Parts hold consecutive processes: the last that starts at or before. */
  hi = self->parts->len;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->parts, ChronoTracePart, mid).first_process <= process)
        lo = mid;
      else
        hi = mid;
    }
  return self->parts->len > 0 ? (gint) lo : -1;
}

gsize
chrono_trace_get_model_bytes (ChronoTrace *self)
{
  gsize bytes;

  g_return_val_if_fail (CHRONO_IS_TRACE (self), 0);

  bytes = chrono_string_table_bytes (self->strings);
  bytes += self->processes->len * sizeof (ChronoProcess);
  bytes += self->flows->len * sizeof (ChronoFlow);
  if (self->args_json != NULL)
    bytes += self->args_json->len;
  for (guint i = 0; i < self->tracks->len; i++)
    {
      const ChronoTrack *t = g_ptr_array_index (self->tracks, i);
      gsize per_span = 8 + 2 + 2 + 1 + 1;  /* start, depth, lane, kind, flags */

      bytes += sizeof *t + (gsize) t->n_spans * per_span;
      bytes += chrono_int_column_bytes (&t->dur, t->n_spans);
      bytes += chrono_int_column_bytes (&t->name_id, t->n_spans);
      bytes += chrono_int_column_bytes (&t->cat_id, t->n_spans);
      bytes += chrono_int_column_bytes (&t->args_off, t->n_spans);
      bytes += chrono_int_column_bytes (&t->correlation, t->n_spans);
      bytes += (gsize) t->n_instants * 8;
      bytes += chrono_int_column_bytes (&t->inst_name, t->n_instants);
      bytes += chrono_int_column_bytes (&t->inst_cat, t->n_instants);
      bytes += chrono_int_column_bytes (&t->inst_args_off, t->n_instants);
      bytes += (gsize) t->n_samples * (8 + 8);
    }
  return bytes;
}

/* The file an offset points into, and the byte inside it. */
static ChronoSource *
source_of (ChronoTrace *self,
           guint64     *offset)
{
  guint index = (guint) (*offset >> CHRONO_SOURCE_SHIFT);

  *offset &= CHRONO_OFFSET_MASK;
  if (index == 0)
    return self->source;
  if (self->more_sources == NULL || index > self->more_sources->len)
    return NULL;
  return g_ptr_array_index (self->more_sources, index - 1);
}

static JsonNode *
parse_range (const guint8 *data,
             guint64       offset,
             gsize         length)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();

  if (!json_parser_load_from_data (parser, (const char *) data + offset, length, NULL))
    return NULL;
  return json_node_copy (json_parser_get_root (parser));
}

/* The JSON text an args offset points into, the byte inside it, and how
 * much text there is: the file's, or for the first file the JSON its
 * importer wrote when the format has none of its own. */
static const guint8 *
args_text (ChronoTrace *self,
           guint64     *offset,
           gsize       *available)
{
  ChronoSource *source;

  if (self->args_json != NULL && *offset >> CHRONO_SOURCE_SHIFT == 0)
    {
      *available = self->args_json->len;
      return self->args_json->data;
    }
  source = source_of (self, offset);
  if (source == NULL)
    {
      *available = 0;
      return NULL;
    }
  *available = chrono_source_get_available (source);
  return chrono_source_get_data (source);
}

const char *
chrono_trace_get_raw_text (ChronoTrace *self,
                           guint64      offset,
                           gsize       *available)
{
  const guint8 *data;
  gsize all;

  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);

  if (offset == CHRONO_NO_ARGS || has_row_args (self, offset) || (data = args_text (self, &offset, &all)) == NULL ||
      offset >= all)
    return NULL;
  *available = all - offset;
  return (const char *) data + offset;
}

void
chrono_trace_prefetch_value (ChronoTrace *self,
                             guint64      offset)
{
  const guint8 *data;
  gsize available;

  if (offset != CHRONO_NO_ARGS && (data = args_text (self, &offset, &available)) != NULL)
    chrono_prefetch_text ((const char *) data, available, offset);
}

void
chrono_args_text_init (ChronoArgsText *view,
                       ChronoTrace    *trace)
{
  guint64 offset = 0;
  const guint8 *data;
  gsize available;

  g_return_if_fail (CHRONO_IS_TRACE (trace));

  *view = (ChronoArgsText) { trace, NULL, 0 };
  /* One text holds every args offset unless the trace merges files or
   * keeps args as table rows. */
  if (trace->more_sources != NULL || trace->row_args != NULL || (data = args_text (trace, &offset, &available)) == NULL)
    return;
  view->text = (const char *) data;
  view->length = available;
}

const char *
chrono_trace_get_raw_value (ChronoTrace *self,
                            guint64      offset,
                            gsize       *length)
{
  ChronoJsonScanner s;
  const guint8 *data;
  gsize available;

  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);

  if (offset == CHRONO_NO_ARGS || has_row_args (self, offset))
    return NULL;
  data = args_text (self, &offset, &available);
  if (data == NULL || offset >= available)
    return NULL;
  /* The importer read this value whole, so it ends before the data does. */
  s.p = data + offset;
  s.end = data + available;
  if (chrono_json_skip_value (&s) != CHRONO_JSON_OK)
    return NULL;
  *length = s.p - (data + offset);
  return (const char *) data + offset;
}

void
chrono_arg_free (ChronoArg *arg)
{
  if (arg == NULL)
    return;
  g_free (arg->key);
  g_free (arg->text);
  g_free (arg);
}

static char *
arg_text (const guint8 *text,
          gsize         len)
{
  if (text[0] == '"')
    {
      ChronoJsonScanner s = { text, text + len, NULL, NULL };
      ChronoJsonString str;
      g_autoptr(GString) out = g_string_new (NULL);

      if (chrono_json_read_string (&s, &str) == CHRONO_JSON_OK && chrono_json_unescape (&str, out))
        return g_string_free (g_steal_pointer (&out), FALSE);
    }
  else if (text[0] == '{' || text[0] == '[')
    {
      /* Compact, but by hand: json-glib would wrap integers above 2^63
       * (Neuron's inst_dep_ids) into negative ones. */
      GString *out = g_string_sized_new (len);
      gboolean in_string = FALSE;

      for (gsize i = 0; i < len; i++)
        {
          guint8 c = text[i];

          if (in_string && c == '\\' && i + 1 < len)
            {
              g_string_append_c (out, c);
              c = text[++i];
            }
          else if (c == '"')
            in_string = !in_string;
          else if (!in_string && (c == ' ' || c == '\n' || c == '\r' || c == '\t'))
            continue;
          g_string_append_c (out, c);
        }
      return g_string_free (out, FALSE);
    }
  return g_strndup ((const char *) text, len);
}

GPtrArray *
chrono_trace_dup_args (ChronoTrace *self,
                       guint64      offset)
{
  GPtrArray *args;
  g_autofree char *row = NULL;
  const char *raw;
  gsize len = 0;
  ChronoJsonScanner s;

  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);

  args = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_arg_free);
  if ((row = row_text (self, offset)) != NULL)
    {
      raw = row;
      len = strlen (row);
    }
  else
    raw = chrono_trace_get_raw_value (self, offset, &len);
  if (raw == NULL || len == 0 || raw[0] != '{')
    return args;
  s.p = (const guint8 *) raw + 1;
  s.end = (const guint8 *) raw + len;
  /* The importer read this object whole: anything odd just ends it. */
  for (gboolean first = TRUE;; first = FALSE)
    {
      ChronoJsonString key;
      g_autoptr(GString) key_text = g_string_new (NULL);
      const guint8 *value;
      gboolean done;
      ChronoArg *arg;

      if (chrono_json_next_member (&s, first, &key, &done) != CHRONO_JSON_OK || done)
        break;
      value = s.p;
      if (chrono_json_skip_value (&s) != CHRONO_JSON_OK || !chrono_json_unescape (&key, key_text))
        break;
      arg = g_new (ChronoArg, 1);
      arg->key = g_string_free (g_steal_pointer (&key_text), FALSE);
      arg->text = arg_text (value, s.p - value);
      g_ptr_array_add (args, arg);
    }
  return args;
}

typedef struct {
  const char * const *keys;
  guint               found;   /* the index of the key TEXT is of */
  char               *text;
} FindField;

/* Keeps the first field of the earliest of the keys. */
static void
find_field (const char *key,
            const char *text,
            gsize       len,
            gpointer    user_data)
{
  FindField *ff = user_data;

  for (guint k = 0; ff->keys[k] != NULL && k < ff->found; k++)
    if (strcmp (key, ff->keys[k]) == 0)
      {
        g_free (ff->text);
        ff->text = text != NULL ? g_strndup (text, len) : g_strdup ("null");
        ff->found = k;
        return;
      }
}

char *
chrono_trace_dup_first_arg (ChronoTrace        *self,
                            guint64             offset,
                            const char * const *keys)
{
  g_autoptr(GPtrArray) args = NULL;
  FindField ff = { keys, G_MAXUINT, NULL };

  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);
  g_return_val_if_fail (keys != NULL, NULL);

  /* A table row's fields are read once for all the keys. */
  if (chrono_trace_row_fields (self, offset, keys, find_field, &ff))
    return ff.text;
  args = chrono_trace_dup_args (self, offset);
  for (guint k = 0; keys[k] != NULL; k++)
    for (guint i = 0; i < args->len; i++)
      if (strcmp (((ChronoArg *) g_ptr_array_index (args, i))->key, keys[k]) == 0)
        return g_strdup (((ChronoArg *) g_ptr_array_index (args, i))->text);
  return NULL;
}

char *
chrono_trace_dup_arg (ChronoTrace *self,
                      guint64      offset,
                      const char  *key)
{
  const char *keys[] = { key, NULL };

  g_return_val_if_fail (key != NULL, NULL);
  return chrono_trace_dup_first_arg (self, offset, keys);
}

JsonNode *
chrono_trace_parse_value_at (ChronoTrace *self,
                             guint64      offset)
{
  gsize length;
  gsize available;
  const guint8 *data;

  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);

  if (has_row_args (self, offset))
    {
      g_autofree char *row = row_text (self, offset);

      return row ? parse_range ((const guint8 *) row, 0, strlen (row)) : NULL;
    }
  if (chrono_trace_get_raw_value (self, offset, &length) == NULL)
    return NULL;
  data = args_text (self, &offset, &available);
  return parse_range (data, offset, length);
}

static gint
compare_tracks (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  ChronoTrace *self = user_data;
  const ChronoTrack *x = g_ptr_array_index (self->tracks, *(const guint *) a);
  const ChronoTrack *y = g_ptr_array_index (self->tracks, *(const guint *) b);

  if (x->process != y->process)
    return x->process < y->process ? -1 : 1;
  if (x->type != y->type)
    return x->type < y->type ? -1 : 1;
  /* The order the profiler asked for (thread_sort_index, engine order). */
  if (x->has_sort_index && y->has_sort_index && x->sort_index != y->sort_index)
    return x->sort_index < y->sort_index ? -1 : 1;
  /* The busiest track of a kind first: that is where the time goes. */
  return x->n_spans > y->n_spans ? -1 : x->n_spans < y->n_spans;
}

guint *
chrono_trace_dup_track_order (ChronoTrace *self,
                              guint       *n_tracks)
{
  guint *order;

  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);

  order = g_new (guint, MAX (self->tracks->len, 1));
  for (guint i = 0; i < self->tracks->len; i++)
    order[i] = i;
  g_qsort_with_data (order, self->tracks->len, sizeof *order, compare_tracks, self);
  *n_tracks = self->tracks->len;
  return order;
}

JsonNode *
chrono_trace_get_span_args (ChronoTrace   *self,
                            ChronoSpanRef  span)
{
  const ChronoTrack *track;

  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);
  g_return_val_if_fail (span.track < self->tracks->len, NULL);

  track = g_ptr_array_index (self->tracks, span.track);
  g_return_val_if_fail (span.index < track->n_spans, NULL);
  return chrono_trace_parse_value_at (self, chrono_track_get_args (track, span.index));
}

JsonNode *
chrono_trace_get_metadata (ChronoTrace *self,
                           const char  *key)
{
  ChronoRange *range;
  ChronoSource *source;
  guint64 offset;

  g_return_val_if_fail (CHRONO_IS_TRACE (self), NULL);

  range = g_hash_table_lookup (self->metadata, key);
  if (range == NULL)
    return NULL;
  offset = range->offset;
  source = source_of (self, &offset);
  if (source == NULL)
    return NULL;
  return parse_range (chrono_source_get_data (source), offset, range->length);
}
