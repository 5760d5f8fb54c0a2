/* chrono-mcp-spans.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>

#include "chrono-format.h"
#include "chrono-mcp-spans.h"

/* The numbering of the entry's spans, as the query tool's engine gives it. */
static ChronoQuery *
numbering (ChronoMcpEntry *entry)
{
  g_autoptr(GError) error = NULL;
  ChronoQuery *query = chrono_mcp_entry_get_query (entry, &error);

  /* Only a failure to allocate SQLite's connection gets here. */
  if (query == NULL)
    g_error ("%s", error->message);
  return query;
}

gint64
chrono_mcp_span_id (ChronoMcpEntry *entry,
                    guint           trace,
                    ChronoSpanRef   ref)
{
  return chrono_query_get_span_id (numbering (entry), trace, ref);
}

/* The older "TRACE:TRACK:INDEX" form. */
static gboolean
parse_triple (ChronoMcpEntry  *entry,
              const char      *id,
              guint           *trace,
              ChronoSpanRef   *ref,
              GError         **error)
{
  g_auto(GStrv) parts = g_strsplit (id, ":", -1);
  guint64 v[3];
  ChronoTrace *t;

  if (g_strv_length (parts) != 3 ||
      !g_ascii_string_to_unsigned (parts[0], 10, 0, G_MAXUINT32, &v[0], NULL) ||
      !g_ascii_string_to_unsigned (parts[1], 10, 0, G_MAXUINT32, &v[1], NULL) ||
      !g_ascii_string_to_unsigned (parts[2], 10, 0, G_MAXUINT32, &v[2], NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” is not a span id: ids are integers, as find_spans and the query tool's spans.id give them", id);
      return FALSE;
    }
  if (v[0] >= entry->traces->len ||
      v[1] >= chrono_trace_get_n_tracks ((t = g_ptr_array_index (entry->traces, v[0]))) ||
      v[2] >= chrono_trace_get_track (t, v[1])->n_spans)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "handle “%s” has no span %s: span ids belong to the handle that returned them", entry->handle, id);
      return FALSE;
    }
  *trace = v[0];
  ref->track = v[1];
  ref->index = v[2];
  return TRUE;
}

gboolean
chrono_mcp_span_parse_id (ChronoMcpEntry  *entry,
                          JsonNode        *id,
                          guint           *trace,
                          ChronoSpanRef   *ref,
                          GError         **error)
{
  gint64 number;
  const char *text;

  if (id != NULL && json_node_get_value_type (id) == G_TYPE_INT64)
    number = json_node_get_int (id);
  else if (id != NULL && json_node_get_value_type (id) == G_TYPE_STRING)
    {
      text = json_node_get_string (id);
      if (strchr (text, ':') != NULL)
        return parse_triple (entry, text, trace, ref, error);
      if (!g_ascii_string_to_signed (text, 10, 0, G_MAXINT64, &number, NULL))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "“%s” is not a span id: ids are integers, as find_spans and the query tool's spans.id give them", text);
          return FALSE;
        }
    }
  else
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           "a span id is an integer, as find_spans and the query tool's spans.id give them");
      return FALSE;
    }
  if (!chrono_query_find_span (numbering (entry), number, trace, ref))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "handle “%s” has no span %" G_GINT64_FORMAT ": span ids belong to the handle that returned them",
                   entry->handle, number);
      return FALSE;
    }
  return TRUE;
}

void
chrono_mcp_set_name (JsonObject *o,
                     const char *name)
{
  g_autofree char *short_name = chrono_format_short_name (name, CHRONO_SHORT_NAME_WIDTH);

  json_object_set_string_member (o, "name", name);
  if (strcmp (short_name, name) != 0)
    json_object_set_string_member (o, "short_name", short_name);
}

JsonNode *
chrono_mcp_span_row (ChronoMcpEntry *entry,
                     guint           trace,
                     ChronoSpanRef   ref)
{
  ChronoTrace *t = g_ptr_array_index (entry->traces, trace);
  const ChronoTrack *track = chrono_trace_get_track (t, ref.track);
  const ChronoProcess *process = chrono_trace_get_process (t, track->process);
  JsonObject *row = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  gint64 start = track->start[ref.index], dur = chrono_track_get_dur (track, ref.index);

  json_object_set_int_member (row, "id", chrono_mcp_span_id (entry, trace, ref));
  chrono_mcp_set_name (row, chrono_trace_get_string (t, chrono_track_get_name (track, ref.index)));
  json_object_set_string_member (row, "kind", chrono_kind_to_string (track->kind[ref.index]));
  json_object_set_string_member (row, "category", chrono_trace_get_string (t, chrono_track_get_cat (track, ref.index)));
  json_object_set_int_member (row, "trace", trace);
  json_object_set_int_member (row, "rank", chrono_trace_get_rank (t));
  json_object_set_int_member (row, "track", ref.track);
  json_object_set_string_member (row, "track_name", chrono_trace_get_string (t, track->display_name));
  json_object_set_string_member (row, "process", chrono_trace_get_string (t, process->display_name));
  json_object_set_int_member (row, "start_ns", start);
  json_object_set_int_member (row, "end_ns", start + dur);
  json_object_set_int_member (row, "dur_ns", dur);
  json_object_set_int_member (row, "depth", track->depth[ref.index]);
  json_node_take_object (node, row);
  return node;
}

gboolean
chrono_mcp_kind_parse (const char *text,
                       ChronoKind *kind)
{
  for (guint k = 0; k < CHRONO_N_KINDS; k++)
    if (strcmp (text, chrono_kind_to_string (k)) == 0)
      {
        *kind = k;
        return TRUE;
      }
  return FALSE;
}
