/* chrono-query-functions.c: args(id), arg(id, key) and ancestor(id, name)
 *
 * Args stay text in the trace until a query asks for them; these parse
 * the one span's args then.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-query-private.h"

/* The span ARG names, as (track, index); FALSE when there is none. */
static gboolean
read_span (ChronoQueryModel *model,
           sqlite3_value    *arg,
           guint32          *track,
           guint32          *index)
{
  sqlite3_int64 id;

  if (sqlite3_value_numeric_type (arg) != SQLITE_INTEGER)
    return FALSE;
  id = sqlite3_value_int64 (arg);
  if (id < 0 || (guint64) id >= model->span_base[model->n_tracks])
    return FALSE;
  *track = chrono_query_model_find_track (model, (guint64) id);
  *index = (guint32) ((guint64) id - model->span_base[*track]);
  return TRUE;
}

static JsonNode *
parse_args (ChronoQueryModel *model,
            guint32           track,
            guint32           index)
{
  guint64 offset = chrono_track_get_args (model->tracks[track], index);

  if (offset == CHRONO_NO_ARGS)
    return NULL;
  return chrono_trace_parse_value_at (model->track_trace[track], offset);
}

/* TEXT (LENGTH bytes of JSON) without the blanks between its tokens. */
static char *
dup_compact (const char *text,
             gsize       length)
{
  GString *out = g_string_sized_new (length);
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c = text[i];

      if (in_string)
        {
          g_string_append_c (out, c);
          if (c == '\\' && i + 1 < length)
            g_string_append_c (out, text[++i]);
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        {
          in_string = TRUE;
          g_string_append_c (out, c);
        }
      else if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
        g_string_append_c (out, c);
    }
  return g_string_free (out, FALSE);
}

static void
args_function (sqlite3_context  *ctx,
               int               argc,
               sqlite3_value   **argv)
{
  ChronoQueryModel *model = sqlite3_user_data (ctx);
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  guint32 track, index;
  const char *raw;
  gsize length = 0;

  if (!read_span (model, argv[0], &track, &index))
    {
      sqlite3_result_null (ctx);
      return;
    }
  /* The text as the profiler wrote it keeps every digit of large ids. */
  raw = chrono_trace_get_raw_value (model->track_trace[track],
                                    chrono_track_get_args (model->tracks[track], index), &length);
  if (raw != NULL && length > 0 && raw[0] == '{')
    {
      sqlite3_result_text (ctx, dup_compact (raw, length), -1, g_free);
      return;
    }
  node = parse_args (model, track, index);
  if (node == NULL)
    {
      sqlite3_result_null (ctx);
      return;
    }
  text = json_to_string (node, FALSE);
  sqlite3_result_text (ctx, text, -1, SQLITE_TRANSIENT);
}

static void
result_json (sqlite3_context *ctx,
             JsonNode        *value)
{
  g_autofree char *text = NULL;

  switch (json_node_get_node_type (value))
    {
    case JSON_NODE_NULL:
      sqlite3_result_null (ctx);
      return;
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (value))
        {
        case G_TYPE_INT64:
          sqlite3_result_int64 (ctx, json_node_get_int (value));
          return;
        case G_TYPE_DOUBLE:
          sqlite3_result_double (ctx, json_node_get_double (value));
          return;
        case G_TYPE_BOOLEAN:
          sqlite3_result_int (ctx, json_node_get_boolean (value));
          return;
        default:
          sqlite3_result_text (ctx, json_node_get_string (value), -1, SQLITE_TRANSIENT);
          return;
        }
    default:
      text = json_to_string (value, FALSE);
      sqlite3_result_text (ctx, text, -1, SQLITE_TRANSIENT);
      return;
    }
}

static void
arg_function (sqlite3_context  *ctx,
              int               argc,
              sqlite3_value   **argv)
{
  ChronoQueryModel *model = sqlite3_user_data (ctx);
  g_autoptr(JsonNode) node = NULL;
  const char *key = (const char *) sqlite3_value_text (argv[1]);
  JsonObject *object;
  guint32 track, index;

  if (key == NULL || !read_span (model, argv[0], &track, &index) ||
      (node = parse_args (model, track, index)) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (node))
    {
      sqlite3_result_null (ctx);
      return;
    }
  object = json_node_get_object (node);
  if (!json_object_has_member (object, key))
    sqlite3_result_null (ctx);
  else
    result_json (ctx, json_object_get_member (object, key));
}

/* The nearest span around span ID (not itself) named NAME, or NULL. */
static void
ancestor_function (sqlite3_context  *ctx,
                   int               argc,
                   sqlite3_value   **argv)
{
  ChronoQueryModel *model = sqlite3_user_data (ctx);
  const char *name = (const char *) sqlite3_value_text (argv[1]);
  guint32 track, index;

  if (name == NULL || !read_span (model, argv[0], &track, &index))
    {
      sqlite3_result_null (ctx);
      return;
    }
  while ((index = chrono_query_model_get_parent (model, track, index)) != CHRONO_QUERY_NO_PARENT)
    {
      const char *text = chrono_trace_get_string (model->track_trace[track],
                                                  chrono_track_get_name (model->tracks[track], index));

      if (strcmp (text, name) == 0)
        {
          sqlite3_result_int64 (ctx, (sqlite3_int64) chrono_query_model_span_id (model, track, index));
          return;
        }
    }
  sqlite3_result_null (ctx);
}

int
chrono_query_register_functions (sqlite3          *db,
                                 ChronoQueryModel *model)
{
  int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY;
  int rc = sqlite3_create_function (db, "args", 1, flags, model, args_function, NULL, NULL);

  if (rc == SQLITE_OK)
    rc = sqlite3_create_function (db, "arg", 2, flags, model, arg_function, NULL, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function (db, "ancestor", 2, flags, model, ancestor_function, NULL, NULL);
  return rc;
}
