/* chrono-json-reader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-json-reader.h"

gboolean
chrono_json_reader_init (ChronoJsonReader *r,
                         const char       *data,
                         gssize            length,
                         const char       *name,
                         GError          **error)
{
  g_autoptr(GError) local = NULL;
  JsonNode *root;

  r->name = name;
  r->parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (r->parser, data, length, &local))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not JSON: %s", name, local->message);
      return FALSE;
    }
  root = json_parser_get_root (r->parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: expected a JSON object", name);
      return FALSE;
    }
  r->root = json_node_get_object (root);
  return TRUE;
}

void
chrono_json_reader_clear (ChronoJsonReader *r)
{
  g_clear_object (&r->parser);
  g_clear_pointer (&r->where, g_free);
  g_clear_error (&r->error);
}

gboolean
chrono_json_reader_fail (ChronoJsonReader *r,
                         const char       *format,
                         ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (r->error != NULL)
    return FALSE;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (&r->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s%s%s", r->name,
               r->where ? r->where : "", r->where ? ": " : "", message);
  return FALSE;
}

void
chrono_json_reader_propagate (ChronoJsonReader *r,
                              GError          **error)
{
  if (r->error == NULL)
    chrono_json_reader_fail (r, "unreadable");
  g_propagate_error (error, g_steal_pointer (&r->error));
}

JsonArray *
chrono_json_reader_array (ChronoJsonReader *r,
                          JsonObject       *o,
                          const char       *key)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n))
    {
      chrono_json_reader_fail (r, "“%s” should be an array", key);
      return NULL;
    }
  return json_node_get_array (n);
}

JsonObject *
chrono_json_reader_element (ChronoJsonReader *r,
                            JsonArray        *a,
                            const char       *array_name,
                            guint             i)
{
  JsonNode *n = json_array_get_element (a, i);

  g_free (r->where);
  r->where = g_strdup_printf ("%s[%u]", array_name, i);
  if (!JSON_NODE_HOLDS_OBJECT (n))
    {
      chrono_json_reader_fail (r, "expected an object");
      return NULL;
    }
  return json_node_get_object (n);
}

gboolean
chrono_json_reader_int (ChronoJsonReader *r,
                        JsonObject       *o,
                        const char       *key,
                        gboolean          required,
                        gint64           *out)
{
  JsonNode *n = json_object_get_member (o, key);

  if ((n == NULL || JSON_NODE_HOLDS_NULL (n)) && !required)
    return TRUE;
  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64)
    return chrono_json_reader_fail (r, "“%s” should be an integer", key);
  *out = json_node_get_int (n);
  return TRUE;
}

gboolean
chrono_json_reader_string (ChronoJsonReader *r,
                           JsonObject       *o,
                           const char       *key,
                           gboolean          required,
                           char            **out)
{
  JsonNode *n = json_object_get_member (o, key);

  if ((n == NULL || JSON_NODE_HOLDS_NULL (n)) && !required)
    return TRUE;
  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return chrono_json_reader_fail (r, "“%s” should be a string", key);
  g_free (*out);
  *out = g_strdup (json_node_get_string (n));
  return TRUE;
}

static gboolean
read_int_array (ChronoJsonReader *r,
                JsonObject       *o,
                const char       *key,
                gint64           *out,
                guint             n,
                gboolean          nullable,
                gint64            missing)
{
  JsonNode *node = json_object_get_member (o, key);
  JsonArray *a;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (a = json_node_get_array (node)) != n)
    return chrono_json_reader_fail (r, "“%s” should be an array of %u integers", key, n);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *e = json_array_get_element (a, i);

      if (nullable && JSON_NODE_HOLDS_NULL (e))
        {
          out[i] = missing;
          continue;
        }
      if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_INT64)
        return chrono_json_reader_fail (r, "“%s”[%u] should be an integer%s", key, i,
                                        nullable ? " or null" : "");
      out[i] = json_node_get_int (e);
    }
  return TRUE;
}

gboolean
chrono_json_reader_int_array (ChronoJsonReader *r,
                              JsonObject       *o,
                              const char       *key,
                              gint64           *out,
                              guint             n)
{
  return read_int_array (r, o, key, out, n, FALSE, 0);
}

gboolean
chrono_json_reader_nullable_int_array (ChronoJsonReader *r,
                                       JsonObject       *o,
                                       const char       *key,
                                       gint64           *out,
                                       guint             n,
                                       gint64            missing)
{
  return read_int_array (r, o, key, out, n, TRUE, missing);
}
