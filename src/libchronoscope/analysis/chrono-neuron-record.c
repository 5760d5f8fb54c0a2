/* chrono-neuron-record.c
 *
 * A record's members are those its importer kept (chrono-neuron-facts.c),
 * looked up by the record's args offset.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "chrono-neuron-record.h"

void
chrono_neuron_record_init (ChronoNeuronRecord *r,
                           ChronoTrace        *trace)
{
  memset (r, 0, sizeof *r);
  r->facts = chrono_neuron_facts_of_trace (trace);
  r->attrs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  r->name = g_string_new (NULL);
}

void
chrono_neuron_record_clear (ChronoNeuronRecord *r)
{
  g_clear_pointer (&r->attrs, g_hash_table_unref);
  g_string_free (r->name, TRUE);
}

void
chrono_neuron_record_read (ChronoNeuronRecord *r,
                           guint64             offset)
{
  chrono_neuron_record_read_near (r, offset, &r->near);
}

void
chrono_neuron_record_read_near (ChronoNeuronRecord *r,
                                guint64             offset,
                                guint              *near)
{
  chrono_neuron_facts_find (r->facts, offset, near, &r->row);
}

const char *
chrono_neuron_record_text (const ChronoNeuronRecord *r,
                           ChronoNeuronField         f)
{
  g_assert (f >= CHRONO_NEURON_N_NUMBERS);
  if (!chrono_neuron_record_has (r, f))
    return NULL;
  return chrono_neuron_facts_text (r->facts, r->row.text[f - CHRONO_NEURON_N_NUMBERS]);
}

gboolean
chrono_neuron_record_number (const ChronoNeuronRecord *r,
                             ChronoNeuronField         f,
                             gdouble                  *value)
{
  g_assert (f < CHRONO_NEURON_N_NUMBERS);
  if (!chrono_neuron_record_has (r, f) || isnan (r->row.number[f]))
    return FALSE;
  *value = r->row.number[f];
  return TRUE;
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
  const char *name = chrono_neuron_record_text (r, CHRONO_NEURON_F_HLO_NAME), *eq;

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
  const char *layer = chrono_neuron_record_text (r, CHRONO_NEURON_F_LAYER);
  const char *attrs = chrono_neuron_record_text (r, CHRONO_NEURON_F_HLO_ATTRS);
  const char *nki = chrono_neuron_record_text (r, CHRONO_NEURON_F_NKI);
  guint64 key;
  const char *name;

  if (layer != NULL && *layer != '\0' && strcmp (layer, "Unknown") != 0)
    return layer;
  if (attrs == NULL)
    return nki != NULL && *nki != '\0' ? nki : NULL;
  /* Debug info repeats from instruction to instruction: parsed once for
   * each pair of texts, which the facts keep once each. */
  key = (guint64) r->row.text[CHRONO_NEURON_F_HLO_ATTRS - CHRONO_NEURON_N_NUMBERS] << 32 |
        (nki != NULL ? r->row.text[CHRONO_NEURON_F_NKI - CHRONO_NEURON_N_NUMBERS] + 1 : 0);
  name = g_hash_table_lookup (r->attrs, &key);
  if (name == NULL && !g_hash_table_contains (r->attrs, &key))
    {
      char *made = attrs_name (attrs, nki);

      g_hash_table_insert (r->attrs, g_memdup2 (&key, sizeof key), made);
      name = made;
    }
  return name;
}
