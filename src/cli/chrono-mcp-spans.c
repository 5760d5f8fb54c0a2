/* chrono-mcp-spans.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>

#include "chrono-format.h"
#include "chrono-mcp-spans.h"

char *
chrono_mcp_span_id (guint         trace,
                    ChronoSpanRef ref)
{
  return g_strdup_printf ("%u:%u:%u", trace, ref.track, ref.index);
}

gboolean
chrono_mcp_span_parse_id (ChronoMcpEntry  *entry,
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
                   "“%s” is not a span id: ids look like 0:12:345, as find_spans returns them", id);
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
  g_autofree char *id = chrono_mcp_span_id (trace, ref);
  gint64 start = track->start[ref.index], dur = chrono_track_get_dur (track, ref.index);

  json_object_set_string_member (row, "id", id);
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
