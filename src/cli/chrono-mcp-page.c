/* chrono-mcp-page.c
 *
 * A cursor is "POSITION@DIGEST": where to go on from, and a digest of the
 * call's other arguments, so that a cursor given to another query is
 * refused instead of answering something else.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>

#include "chrono-mcp-page.h"

struct _ChronoMcpPage {
  JsonObject *args;
  char       *position;
  guint       limit;
  gsize       max_bytes;
  gsize       bytes;
  gboolean    full;
  JsonArray  *rows;
};

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The arguments that make the query, in a fixed order. */
static char *
query_digest (JsonObject *args)
{
  g_autoptr(GList) names = json_object_get_members (args);
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
  g_autoptr(GString) text = g_string_new (NULL);

  for (GList *l = names; l; l = l->next)
    if (strcmp (l->data, "cursor") != 0 && strcmp (l->data, "limit") != 0)
      g_ptr_array_add (sorted, l->data);
  g_ptr_array_sort (sorted, compare_strings);
  for (guint i = 0; i < sorted->len; i++)
    {
      const char *name = g_ptr_array_index (sorted, i);
      g_autofree char *value = json_to_string (json_object_get_member (args, name), FALSE);

      g_string_append_printf (text, "%s=%s;", name, value);
    }
  return g_compute_checksum_for_string (G_CHECKSUM_SHA1, text->str, text->len);
}

ChronoMcpPage *
chrono_mcp_page_new (ChronoMcpContext *ctx,
                     JsonObject       *args,
                     GError          **error)
{
  g_autoptr(ChronoMcpPage) page = g_new0 (ChronoMcpPage, 1);
  const char *cursor = chrono_mcp_arg_string (args, "cursor");

  page->args = json_object_ref (args);
  page->limit = chrono_mcp_arg_int_or (args, "limit", CHRONO_MCP_DEFAULT_ROWS);
  page->max_bytes = ctx->max_bytes;
  page->rows = json_array_new ();
  if (cursor != NULL)
    {
      const char *at = strrchr (cursor, '@');
      g_autofree char *digest = query_digest (args);

      if (at == NULL || strncmp (at + 1, digest, 12) != 0 || strlen (at + 1) != 12)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "the cursor “%s” is not one of this query's: pass the next_cursor of a call "
                       "with the same arguments, or leave cursor out to start again", cursor);
          return NULL;
        }
      page->position = g_strndup (cursor, at - cursor);
    }
  return g_steal_pointer (&page);
}

void
chrono_mcp_page_free (ChronoMcpPage *page)
{
  json_object_unref (page->args);
  g_free (page->position);
  json_array_unref (page->rows);
  g_free (page);
}

guint
chrono_mcp_page_get_limit (ChronoMcpPage *page)
{
  return page->limit;
}

const char *
chrono_mcp_page_get_position (ChronoMcpPage *page)
{
  return page->position;
}

gboolean
chrono_mcp_page_get_offset (ChronoMcpPage  *page,
                            guint64        *offset,
                            GError        **error)
{
  *offset = 0;
  if (page->position != NULL &&
      !g_ascii_string_to_unsigned (page->position, 10, 0, G_MAXUINT64, offset, NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "the cursor is damaged: pass next_cursor exactly as it was returned");
      return FALSE;
    }
  return TRUE;
}

char *
chrono_mcp_page_offset_position (guint64 offset)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, offset);
}

gboolean
chrono_mcp_page_add (ChronoMcpPage *page,
                     JsonNode      *row)
{
  gsize size;
  g_autofree char *text = NULL;

  if (page->full || json_array_get_length (page->rows) >= page->limit)
    {
      page->full = TRUE;
      json_node_unref (row);
      return FALSE;
    }
  text = json_to_string (row, FALSE);
  size = strlen (text) + 1;
  /* the first row always goes in, so that a page makes progress */
  if (page->bytes + size > page->max_bytes && json_array_get_length (page->rows) > 0)
    {
      page->full = TRUE;
      json_node_unref (row);
      return FALSE;
    }
  page->bytes += size;
  json_array_add_element (page->rows, row);
  return TRUE;
}

guint
chrono_mcp_page_get_n_rows (ChronoMcpPage *page)
{
  return json_array_get_length (page->rows);
}

void
chrono_mcp_page_finish (ChronoMcpPage *page,
                        JsonObject    *out,
                        const char    *member,
                        gint64         total,
                        const char    *next,
                        GString       *text)
{
  guint n = json_array_get_length (page->rows);

  json_object_set_array_member (out, member, json_array_ref (page->rows));
  json_object_set_int_member (out, "returned", n);
  if (total >= 0)
    json_object_set_int_member (out, "total", total);
  json_object_set_boolean_member (out, "truncated", next != NULL);
  if (next != NULL)
    {
      g_autofree char *digest = query_digest (page->args);
      g_autofree char *cursor = g_strdup_printf ("%s@%.12s", next, digest);

      json_object_set_string_member (out, "next_cursor", cursor);
      if (total >= 0)
        g_string_append_printf (text, "\nShowing %u of %" G_GINT64_FORMAT " %s", n, total, member);
      else
        g_string_append_printf (text, "\nShowing %u %s, more follow", n, member);
      g_string_append_printf (text, " (at most %u rows and %" G_GSIZE_FORMAT " KB a call): narrow the query, "
                              "or call again with the same arguments and cursor “%s”.",
                              page->limit, page->max_bytes / 1024, cursor);
    }
}
