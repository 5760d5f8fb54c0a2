/* chrono-mcp-transport.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>

#include "chrono-mcp-transport.h"

#define READ_CHUNK (64 * 1024)

struct _ChronoMcpReader {
  int      fd;
  gsize    max_line;
  GString *buffer;     /* bytes read and not yet handed out */
  gsize    consumed;   /* of buffer: the line handed out last, with its newline */
  gboolean eof;
};

ChronoMcpReader *
chrono_mcp_reader_new (int   fd,
                       gsize max_line)
{
  ChronoMcpReader *reader = g_new0 (ChronoMcpReader, 1);

  reader->fd = fd;
  reader->max_line = max_line;
  reader->buffer = g_string_sized_new (READ_CHUNK);
  return reader;
}

void
chrono_mcp_reader_free (ChronoMcpReader *reader)
{
  g_string_free (reader->buffer, TRUE);
  g_free (reader);
}

/* Appends up to one chunk; FALSE on end of input or error. */
static gboolean
fill (ChronoMcpReader  *reader,
      GError          **error)
{
  gsize old = reader->buffer->len;
  gssize n;

  g_string_set_size (reader->buffer, old + READ_CHUNK);
  do
    n = read (reader->fd, reader->buffer->str + old, READ_CHUNK);
  while (n < 0 && errno == EINTR);
  g_string_set_size (reader->buffer, old + MAX (n, 0));
  if (n < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "reading standard input: %s",
                   g_strerror (saved));
      return FALSE;
    }
  if (n == 0)
    reader->eof = TRUE;
  return n > 0;
}

ChronoMcpReadStatus
chrono_mcp_reader_next (ChronoMcpReader  *reader,
                        const char      **line,
                        gsize            *length,
                        gsize            *dropped,
                        GError          **error)
{
  GString *buf = reader->buffer;
  gsize scanned = 0;
  gsize skipped = 0;   /* bytes of an overlong line thrown away */

  g_string_erase (buf, 0, reader->consumed);
  reader->consumed = 0;
  *dropped = 0;

  for (;;)
    {
      const char *nl = memchr (buf->str + scanned, '\n', buf->len - scanned);

      if (nl != NULL)
        {
          gsize len = nl - buf->str;

          if (skipped > 0 || len > reader->max_line)
            {
              *dropped = skipped + len;
              reader->consumed = len + 1;
              return CHRONO_MCP_READ_TOO_LONG;
            }
          buf->str[len] = '\0';
          if (len > 0 && buf->str[len - 1] == '\r')
            buf->str[--len] = '\0';
          *line = buf->str;
          *length = len;
          reader->consumed = nl - buf->str + 1;
          return CHRONO_MCP_READ_LINE;
        }
      scanned = buf->len;
      if (buf->len > reader->max_line)
        {
          /* keep reading to the newline without keeping the bytes */
          skipped += buf->len;
          g_string_truncate (buf, 0);
          scanned = 0;
        }
      if (reader->eof || !fill (reader, error))
        {
          if (!reader->eof)
            return CHRONO_MCP_READ_ERROR;
          *dropped = skipped + buf->len;
          g_string_truncate (buf, 0);
          return CHRONO_MCP_READ_EOF;
        }
    }
}

gboolean
chrono_mcp_write_message (int        fd,
                          JsonNode  *message,
                          GError   **error)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  gsize length, done = 0;
  g_autofree char *text = NULL;

  json_generator_set_root (gen, message);
  text = json_generator_to_data (gen, &length);
  /* json-glib escapes control characters, so the text holds no newline */
  text = g_realloc (text, length + 1);
  text[length++] = '\n';
  while (done < length)
    {
      gssize n = write (fd, text + done, length - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int saved = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "writing standard output: %s",
                       g_strerror (saved));
          return FALSE;
        }
      done += n;
    }
  return TRUE;
}

static JsonNode *
envelope (JsonNode   *id,
          const char *member,
          JsonNode   *value)
{
  JsonObject *object = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (object, "jsonrpc", "2.0");
  json_object_set_member (object, "id", id ? json_node_copy (id) : json_node_new (JSON_NODE_NULL));
  json_object_set_member (object, member, value);
  json_node_take_object (node, object);
  return node;
}

JsonNode *
chrono_mcp_message_result (JsonNode *id,
                           JsonNode *result)
{
  return envelope (id, "result", result);
}

JsonNode *
chrono_mcp_message_error (JsonNode   *id,
                          int         code,
                          const char *message)
{
  JsonObject *error = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_int_member (error, "code", code);
  json_object_set_string_member (error, "message", message);
  json_node_take_object (node, error);
  return envelope (id, "error", node);
}
