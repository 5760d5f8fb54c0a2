/* chrono-query-format.c: a query's result as a table, CSV, JSON or Markdown
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-query-result.h"

gboolean
chrono_query_format_parse (const char        *text,
                           ChronoQueryFormat *format)
{
  static const char * const names[] = { "table", "csv", "json", "markdown" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (text, names[i]) == 0)
      {
        *format = (ChronoQueryFormat) i;
        return TRUE;
      }
  return FALSE;
}

static void
add_cell (JsonBuilder       *builder,
          ChronoQueryResult *self,
          guint              row,
          guint              column)
{
  switch (chrono_query_result_get_cell_type (self, row, column))
    {
    case CHRONO_QUERY_INTEGER:
      json_builder_add_int_value (builder, chrono_query_result_get_int (self, row, column));
      break;
    case CHRONO_QUERY_REAL:
      json_builder_add_double_value (builder, chrono_query_result_get_real (self, row, column));
      break;
    case CHRONO_QUERY_TEXT:
      json_builder_add_string_value (builder, chrono_query_result_get_text (self, row, column));
      break;
    default:
      json_builder_add_null_value (builder);
      break;
    }
}

static void
add_row (JsonBuilder       *builder,
         ChronoQueryResult *self,
         guint              row)
{
  json_builder_begin_array (builder);
  for (guint c = 0; c < chrono_query_result_get_n_columns (self); c++)
    add_cell (builder, self, row, c);
  json_builder_end_array (builder);
}

JsonNode *
chrono_query_result_row_to_json (ChronoQueryResult *self,
                                 guint              row)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  add_row (builder, self, row);
  return json_builder_get_root (builder);
}

JsonNode *
chrono_query_result_to_json (ChronoQueryResult *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "columns");
  json_builder_begin_array (builder);
  for (guint c = 0; c < chrono_query_result_get_n_columns (self); c++)
    json_builder_add_string_value (builder, chrono_query_result_get_column_name (self, c));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "rows");
  json_builder_begin_array (builder);
  for (guint r = 0; r < chrono_query_result_get_n_rows (self); r++)
    add_row (builder, self, r);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static char *
format_json (ChronoQueryResult *self)
{
  g_autoptr(JsonNode) root = chrono_query_result_to_json (self);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  GString *out;

  json_object_set_boolean_member (json_node_get_object (root), "truncated",
                                  chrono_query_result_is_truncated (self));
  json_generator_set_root (generator, root);
  out = g_string_new (NULL);
  json_generator_to_gstring (generator, out);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

static void
append_csv_field (GString    *out,
                  const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/* Pipes and line breaks would end a Markdown cell. */
static void
append_markdown_field (GString    *out,
                       const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '|')
        g_string_append (out, "\\|");
      else if (*p == '\n' || *p == '\r')
        g_string_append_c (out, ' ');
      else
        g_string_append_c (out, *p);
    }
}

/* The cells as text, row after row, the header first. */
static GPtrArray *
dup_texts (ChronoQueryResult *self)
{
  guint n_rows = chrono_query_result_get_n_rows (self);
  guint n_columns = chrono_query_result_get_n_columns (self);
  GPtrArray *texts = g_ptr_array_new_full ((n_rows + 1) * n_columns, g_free);

  for (guint c = 0; c < n_columns; c++)
    g_ptr_array_add (texts, g_strdup (chrono_query_result_get_column_name (self, c)));
  for (guint r = 0; r < n_rows; r++)
    for (guint c = 0; c < n_columns; c++)
      g_ptr_array_add (texts, chrono_query_result_dup_cell_string (self, r, c));
  return texts;
}

static char *
format_table (ChronoQueryResult *self,
              gboolean           markdown)
{
  guint n_columns = chrono_query_result_get_n_columns (self);
  g_autoptr(GPtrArray) texts = dup_texts (self);
  g_autofree glong *widths = g_new0 (glong, n_columns);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < texts->len; i++)
    widths[i % n_columns] = MAX (widths[i % n_columns],
                                 g_utf8_strlen (g_ptr_array_index (texts, i), -1));
  for (guint i = 0; i < texts->len; i++)
    {
      guint c = i % n_columns;
      const char *text = g_ptr_array_index (texts, i);
      /* Numbers to the right, as people compare them. */
      gboolean right = i >= n_columns &&
                       chrono_query_result_get_cell_type (self, i / n_columns - 1, c) != CHRONO_QUERY_TEXT;
      glong pad = widths[c] - g_utf8_strlen (text, -1);

      if (markdown)
        g_string_append (out, c == 0 ? "| " : " | ");
      else if (c > 0)
        g_string_append (out, "  ");
      if (right)
        g_string_append_printf (out, "%*s", (int) pad, "");
      if (markdown)
        append_markdown_field (out, text);
      else
        g_string_append (out, text);
      if (!right && (markdown || c + 1 < n_columns))
        g_string_append_printf (out, "%*s", (int) pad, "");
      if (c + 1 < n_columns)
        continue;
      g_string_append (out, markdown ? " |\n" : "\n");
      if (i + 1 == n_columns)
        for (guint k = 0; k < n_columns; k++)
          {
            if (markdown)
              g_string_append_c (out, '|');
            else if (k > 0)
              g_string_append (out, "  ");
            for (glong w = 0; w < widths[k] + (markdown ? 2 : 0); w++)
              g_string_append_c (out, '-');
            if (markdown && k + 1 == n_columns)
              g_string_append (out, "|");
            if (k + 1 == n_columns)
              g_string_append_c (out, '\n');
          }
    }
  return g_string_free (out, FALSE);
}

static char *
format_csv (ChronoQueryResult *self)
{
  guint n_columns = chrono_query_result_get_n_columns (self);
  g_autoptr(GPtrArray) texts = dup_texts (self);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < texts->len; i++)
    {
      append_csv_field (out, g_ptr_array_index (texts, i));
      g_string_append (out, (i + 1) % n_columns == 0 ? "\r\n" : ",");
    }
  return g_string_free (out, FALSE);
}

char *
chrono_query_result_format (ChronoQueryResult *self,
                            ChronoQueryFormat  format)
{
  g_return_val_if_fail (CHRONO_IS_QUERY_RESULT (self), NULL);

  if (chrono_query_result_get_n_columns (self) == 0 && format != CHRONO_QUERY_FORMAT_JSON)
    return g_strdup ("");
  switch (format)
    {
    case CHRONO_QUERY_FORMAT_CSV:
      return format_csv (self);
    case CHRONO_QUERY_FORMAT_JSON:
      return format_json (self);
    case CHRONO_QUERY_FORMAT_MARKDOWN:
      return format_table (self, TRUE);
    default:
      return format_table (self, FALSE);
    }
}
