/* chrono-neuron-record.c
 *
 * A JSON profile's records are walked in place with the trace scanner,
 * only the wanted members copied, into buffers reused from record to
 * record: a profile has millions of them. Records of Parquet rows, which
 * have no JSON text, are read through chrono_trace_dup_args().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "chrono-json-scanner.h"
#include "chrono-neuron-record.h"

static const char * const field_keys[CHRONO_NEURON_N_FIELDS] = {
  "raw_flops", "adjusted_flops", "flops_transpose", "adjusted_flops_transpose", "tensor_instruction_type",
  "elements", "tensor_elements", "hbm_read_bytes", "hbm_write_bytes", "spill_save_bytes", "spill_reload_bytes",
  "hlo_name", "hlo_attrs", "layer", "nki_source_location",
  "transfer_size", "transfer_bytes", "source", "dest",
};

void
chrono_neuron_record_init (ChronoNeuronRecord *r,
                           ChronoTrace        *trace)
{
  memset (r, 0, sizeof *r);
  chrono_args_text_init (&r->view, trace);
  for (guint f = 0; f < CHRONO_NEURON_N_FIELDS; f++)
    {
      r->buffers[f] = g_string_new (NULL);
      r->key_len[f] = strlen (field_keys[f]);
    }
  r->attrs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  r->name = g_string_new (NULL);
}

void
chrono_neuron_record_clear (ChronoNeuronRecord *r)
{
  g_clear_pointer (&r->args, g_ptr_array_unref);
  for (guint f = 0; f < CHRONO_NEURON_N_FIELDS; f++)
    g_string_free (r->buffers[f], TRUE);
  g_clear_pointer (&r->attrs, g_hash_table_unref);
  g_string_free (r->name, TRUE);
}

static gint
field_of (const ChronoNeuronRecord *r,
          const ChronoJsonString   *key)
{
  if (key->escaped)
    return -1;
  for (guint f = 0; f < CHRONO_NEURON_N_FIELDS; f++)
    if (r->key_len[f] == key->len && field_keys[f][0] == key->start[0] &&
        memcmp (field_keys[f], key->start, key->len) == 0)
      return f;
  return -1;
}

/* The members of the object at TEXT; FALSE when it is not one. */
static gboolean
scan_object (ChronoNeuronRecord *r,
             const char         *text,
             gsize               available)
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
      gint f = field_of (r, &key);
      const guint8 *start = s.p;

      first = FALSE;
      if (f < 0 || *s.p == 'n')
        {
          if (chrono_json_skip_value (&s) != CHRONO_JSON_OK)
            return FALSE;
          continue;
        }
      if (*s.p == '"')
        {
          ChronoJsonString value;

          if (chrono_json_read_string (&s, &value) != CHRONO_JSON_OK)
            return FALSE;
          if (value.escaped)
            chrono_json_unescape (&value, r->buffers[f]);
          else
            g_string_append_len (g_string_truncate (r->buffers[f], 0), (const char *) value.start, value.len);
        }
      else
        {
          if (chrono_json_skip_value (&s) != CHRONO_JSON_OK)
            return FALSE;
          g_string_append_len (g_string_truncate (r->buffers[f], 0), (const char *) start, s.p - start);
        }
      r->text[f] = r->buffers[f]->str;
    }
  return done;
}

void
chrono_neuron_record_read (ChronoNeuronRecord *r,
                           guint64             offset)
{
  const char *text;
  gsize available = 0;

  memset (r->text, 0, sizeof r->text);
  if (offset == CHRONO_NO_ARGS)
    return;
  text = chrono_args_text_get (&r->view, offset, &available);
  if (text != NULL && scan_object (r, text, available))
    return;
  memset (r->text, 0, sizeof r->text);
  g_clear_pointer (&r->args, g_ptr_array_unref);
  r->args = chrono_trace_dup_args (r->view.trace, offset);
  for (guint i = 0; i < r->args->len; i++)
    {
      ChronoArg *a = g_ptr_array_index (r->args, i);

      if (strcmp (a->text, "null") == 0)
        continue;
      for (guint f = 0; f < CHRONO_NEURON_N_FIELDS; f++)
        if (strcmp (a->key, field_keys[f]) == 0)
          r->text[f] = a->text;
    }
}

gboolean
chrono_neuron_record_number (const ChronoNeuronRecord *r,
                             ChronoNeuronField         f,
                             gdouble                  *value)
{
  char *end = NULL;

  if (r->text[f] == NULL)
    return FALSE;
  *value = g_ascii_strtod (r->text[f], &end);
  return end != r->text[f] && isfinite (*value);
}

gdouble
chrono_neuron_record_number_or (const ChronoNeuronRecord *r,
                                ChronoNeuronField         f,
                                gdouble                   fallback)
{
  gdouble v;

  return chrono_neuron_record_number (r, f, &v) ? v : fallback;
}

const char *
chrono_neuron_record_hlo_op (ChronoNeuronRecord *r)
{
  const char *name = r->text[CHRONO_NEURON_F_HLO_NAME], *eq;

  if (name == NULL || *name == '\0')
    return NULL;
  eq = strstr (name, " = ");
  if (*name == '%')
    name++;
  g_string_truncate (r->name, 0);
  if (eq && eq > name)
    g_string_append_len (r->name, name, eq - name);
  else
    g_string_append (r->name, name);
  return r->name->str;
}

/* "op_type (source_file:source_line)" of the first debug-info object. */
static char *
attrs_name (const char *attrs,
            const char *nki)
{
  g_autoptr(JsonNode) node = json_from_string (attrs, NULL);
  g_autofree char *where = NULL;
  const char *op_type = NULL;
  JsonObject *o = NULL;

  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node) && json_array_get_length (json_node_get_array (node)) > 0 &&
      JSON_NODE_HOLDS_OBJECT (json_array_get_element (json_node_get_array (node), 0)))
    o = json_array_get_object_element (json_node_get_array (node), 0);
  else if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    o = json_node_get_object (node);
  if (o != NULL)
    op_type = json_object_get_string_member_with_default (o, "op_type", NULL);
  if (o != NULL && json_object_has_member (o, "source_file"))
    where = g_strdup_printf ("%s:%s", json_object_get_string_member_with_default (o, "source_file", "?"),
                             json_object_get_string_member_with_default (o, "source_line", "?"));
  if (where == NULL && nki != NULL)
    where = g_strdup (nki);
  if (op_type != NULL && where != NULL)
    return g_strdup_printf ("%s (%s)", op_type, where);
  return op_type != NULL ? g_strdup (op_type) : g_steal_pointer (&where);
}

const char *
chrono_neuron_record_framework_op (ChronoNeuronRecord *r)
{
  const char *layer = r->text[CHRONO_NEURON_F_LAYER];
  const char *attrs = r->text[CHRONO_NEURON_F_HLO_ATTRS], *nki = r->text[CHRONO_NEURON_F_NKI];
  g_autofree char *key = NULL;
  const char *name;

  if (layer != NULL && *layer != '\0' && strcmp (layer, "Unknown") != 0)
    return layer;
  if (attrs == NULL)
    return nki != NULL && *nki != '\0' ? nki : NULL;
  /* Debug info repeats from instruction to instruction: parsed once. */
  key = g_strconcat (attrs, "\n", nki ? nki : "", NULL);
  name = g_hash_table_lookup (r->attrs, key);
  if (name == NULL && !g_hash_table_contains (r->attrs, key))
    {
      char *made = attrs_name (attrs, nki);

      g_hash_table_insert (r->attrs, g_steal_pointer (&key), made);
      name = made;
    }
  return name;
}
