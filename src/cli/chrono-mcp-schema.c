/* chrono-mcp-schema.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "chrono-mcp-schema.h"

static const char *
type_of (JsonNode *value)
{
  switch (JSON_NODE_TYPE (value))
    {
    case JSON_NODE_OBJECT: return "object";
    case JSON_NODE_ARRAY: return "array";
    case JSON_NODE_NULL: return "null";
    case JSON_NODE_VALUE:
    default:
      switch (json_node_get_value_type (value))
        {
        case G_TYPE_BOOLEAN: return "boolean";
        case G_TYPE_STRING: return "string";
        case G_TYPE_INT64: return "integer";
        default:
          {
            gdouble d = json_node_get_double (value);
            return d == floor (d) && fabs (d) < 9e15 ? "integer" : "number";
          }
        }
    }
}

static gboolean
has_type (JsonNode   *value,
          const char *type)
{
  const char *actual = type_of (value);

  return strcmp (actual, type) == 0 ||
         (strcmp (type, "number") == 0 && strcmp (actual, "integer") == 0);
}

static gboolean
fail (GError    **error,
      const char *where,
      const char *format,
      ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (GError    **error,
      const char *where,
      const char *format,
      ...)
{
  va_list ap;
  g_autofree char *what = NULL;

  va_start (ap, format);
  what = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s: %s", where, what);
  return FALSE;
}

static gboolean
check_type (JsonObject  *schema,
            JsonNode    *value,
            const char  *where,
            GError     **error)
{
  JsonNode *type = json_object_get_member (schema, "type");
  g_autoptr(GString) wanted = g_string_new (NULL);

  if (type == NULL)
    return TRUE;
  if (JSON_NODE_HOLDS_ARRAY (type))
    {
      JsonArray *types = json_node_get_array (type);

      for (guint i = 0; i < json_array_get_length (types); i++)
        {
          const char *t = json_array_get_string_element (types, i);

          if (has_type (value, t))
            return TRUE;
          g_string_append_printf (wanted, "%s%s", i ? " or " : "", t);
        }
    }
  else if (has_type (value, json_node_get_string (type)))
    return TRUE;
  else
    g_string_append (wanted, json_node_get_string (type));
  return fail (error, where, "expected %s %s, got %s", strchr ("aeiou", wanted->str[0]) ? "an" : "a",
               wanted->str, type_of (value));
}

gboolean
chrono_mcp_schema_check (JsonNode    *schema_node,
                         JsonNode    *value,
                         const char  *where,
                         GError     **error)
{
  JsonObject *schema = json_node_get_object (schema_node);
  g_autoptr(GList) keywords = json_object_get_members (schema);

  if (!check_type (schema, value, where, error))
    return FALSE;

  for (GList *l = keywords; l; l = l->next)
    {
      const char *key = l->data;
      JsonNode *arg = json_object_get_member (schema, key);

      if (strcmp (key, "type") == 0 || strcmp (key, "description") == 0 ||
          strcmp (key, "default") == 0 || strcmp (key, "title") == 0 ||
          strcmp (key, "properties") == 0 || strcmp (key, "additionalProperties") == 0)
        continue;
      else if (strcmp (key, "enum") == 0)
        {
          JsonArray *choices = json_node_get_array (arg);
          g_autoptr(GString) list = g_string_new (NULL);
          gboolean found = FALSE;

          for (guint i = 0; i < json_array_get_length (choices) && !found; i++)
            {
              JsonNode *choice = json_array_get_element (choices, i);
              g_autofree char *text = json_to_string (choice, FALSE);

              found = json_node_equal (choice, value);
              g_string_append_printf (list, "%s%s", i ? ", " : "", text);
            }
          if (!found)
            {
              g_autofree char *got = json_to_string (value, FALSE);
              return fail (error, where, "expected one of %s, got %s", list->str, got);
            }
        }
      else if (strcmp (key, "minimum") == 0 || strcmp (key, "maximum") == 0)
        {
          if (!has_type (value, "number"))
            continue;
          gdouble bound = json_node_get_double (arg);
          gdouble v = json_node_get_double (value);

          if (key[1] == 'i' ? v < bound : v > bound)
            return fail (error, where, "expected a number %s %g, got %g",
                         key[1] == 'i' ? "of at least" : "of at most", bound, v);
        }
      else if (strcmp (key, "minLength") == 0)
        {
          if (!has_type (value, "string"))
            continue;
          if ((gint64) g_utf8_strlen (json_node_get_string (value), -1) < json_node_get_int (arg))
            return fail (error, where, "expected at least %" G_GINT64_FORMAT " characters",
                         json_node_get_int (arg));
        }
      else if (strcmp (key, "minItems") == 0 || strcmp (key, "maxItems") == 0)
        {
          if (!has_type (value, "array"))
            continue;
          gint64 n = json_array_get_length (json_node_get_array (value));

          if (key[1] == 'i' ? n < json_node_get_int (arg) : n > json_node_get_int (arg))
            return fail (error, where, "expected %s %" G_GINT64_FORMAT " items, got %" G_GINT64_FORMAT,
                         key[1] == 'i' ? "at least" : "at most", json_node_get_int (arg), n);
        }
      else if (strcmp (key, "items") == 0)
        {
          if (!has_type (value, "array"))
            continue;
          JsonArray *items = json_node_get_array (value);

          for (guint i = 0; i < json_array_get_length (items); i++)
            {
              g_autofree char *item_where = g_strdup_printf ("%s[%u]", where, i);

              if (!chrono_mcp_schema_check (arg, json_array_get_element (items, i), item_where, error))
                return FALSE;
            }
        }
      else if (strcmp (key, "required") == 0)
        {
          if (!has_type (value, "object"))
            continue;
          JsonArray *names = json_node_get_array (arg);

          for (guint i = 0; i < json_array_get_length (names); i++)
            if (!json_object_has_member (json_node_get_object (value), json_array_get_string_element (names, i)))
              return fail (error, where, "the argument “%s” is required", json_array_get_string_element (names, i));
        }
      else
        g_error ("input schema keyword “%s” is not checked", key);
    }

  if (JSON_NODE_HOLDS_OBJECT (value) && json_object_has_member (schema, "properties"))
    {
      JsonObject *props = json_object_get_object_member (schema, "properties");
      gboolean closed = json_object_has_member (schema, "additionalProperties") &&
                        !json_object_get_boolean_member (schema, "additionalProperties");
      g_autoptr(GList) members = json_object_get_members (json_node_get_object (value));

      for (GList *l = members; l; l = l->next)
        {
          JsonNode *prop = json_object_get_member (props, l->data);
          g_autofree char *prop_where = g_strdup_printf ("argument “%s”", (const char *) l->data);

          if (prop == NULL)
            {
              if (closed)
                {
                  g_autoptr(GList) known = json_object_get_members (props);
                  g_autoptr(GString) list = g_string_new (NULL);

                  for (GList *k = known; k; k = k->next)
                    g_string_append_printf (list, "%s%s", k == known ? "" : ", ", (const char *) k->data);
                  return fail (error, prop_where, "not an argument of this tool (it takes %s)", list->str);
                }
              continue;
            }
          if (!chrono_mcp_schema_check (prop, json_object_get_member (json_node_get_object (value), l->data),
                                        prop_where, error))
            return FALSE;
        }
    }
  return TRUE;
}
