/* chrono-mcp-tools-view.c: render_view, the timeline as a PNG
 *
 * Drawn by the same headless scene as chronoscope-cli export, without a
 * display; the picture goes back as an image content item.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "chrono-cli-picture.h"
#include "chrono-format.h"
#include "chrono-mcp-scope.h"
#include "chrono-picture.h"

/* Pictures an agent may ask for: large enough to read, small enough to
 * send (a 4096 px square PNG is some MB). */
#define MIN_WIDTH 256
#define MIN_HEIGHT 64
#define MAX_SIZE 4096
#define DEFAULT_WIDTH 1600

G_STATIC_ASSERT (MIN_WIDTH > CHRONO_SCENE_HEADER_WIDTH);
G_STATIC_ASSERT (MIN_HEIGHT > CHRONO_SCENE_RULER_HEIGHT);
G_STATIC_ASSERT (MAX_SIZE > CHRONO_CLI_MAX_AUTO_HEIGHT);

static const char view_input[] =
  "{\"type\":\"object\",\"additionalProperties\":false,\"required\":[\"handle\"],\"properties\":{"
  CHRONO_MCP_SCHEMA_HANDLE ","
  "\"rank\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"The rank to draw, when the handle has several\"},"
  "\"range\":{\"type\":\"string\",\"description\":\"START:END from the trace's start, with a unit (ns, us, ms, s; ms when none), "
  "as chronoscope-cli export --range takes it; default: the whole trace\"},"
  "\"finding\":{\"type\":\"integer\",\"minimum\":1,\"description\":\"Draw the Nth finding of analyze (from 1, on this rank): "
  "its range with some context, its range and tracks shaded\"},"
  "\"tracks\":{\"type\":\"string\",\"description\":\"Only the tracks whose name or process's name matches a glob (comma-separated)\"},"
  "\"width\":{\"type\":\"integer\",\"minimum\":256,\"maximum\":4096,\"description\":\"Width in px, at most 4096 (default 1600)\"},"
  "\"height\":{\"type\":\"integer\",\"minimum\":64,\"maximum\":4096,\"description\":\"Height in px, at most 4096 "
  "(default: all the tracks, up to 4000); the legend adds to it\"},"
  "\"theme\":{\"type\":\"string\",\"enum\":[\"light\",\"dark\"],\"description\":\"Colours (default light)\"},"
  "\"legend\":{\"type\":\"boolean\",\"description\":\"Add the legend of colours under the timeline (default false)\"}}}";

static const char view_output[] =
  "{\"type\":\"object\",\"required\":[\"handle\",\"trace\",\"start_ns\",\"end_ns\",\"width\",\"height\",\"mime_type\",\"bytes\",\"cut\"],"
  "\"properties\":{"
  "\"handle\":{\"type\":\"string\"},\"trace\":{\"type\":\"integer\",\"description\":\"the position of the trace drawn among the handle's\"},"
  "\"start_ns\":{\"type\":\"integer\",\"description\":\"what the picture shows, in the trace's nanoseconds\"},"
  "\"end_ns\":{\"type\":\"integer\"},"
  "\"width\":{\"type\":\"integer\",\"description\":\"of the PNG, in px\"},\"height\":{\"type\":\"integer\"},"
  "\"mime_type\":{\"type\":\"string\"},\"bytes\":{\"type\":\"integer\",\"description\":\"of the PNG, before base64\"},"
  "\"cut\":{\"type\":\"boolean\",\"description\":\"tracks below the height were left out: choose some with tracks, or set height\"},"
  "\"finding\":{\"type\":\"object\",\"properties\":{\"rule\":{\"type\":\"string\"},\"title\":{\"type\":\"string\"},"
  "\"start_ns\":{\"type\":\"integer\"},\"end_ns\":{\"type\":\"integer\"}}}}}";

static JsonNode *
fail (GError    **error,
      const char *format,
      ...) G_GNUC_PRINTF (2, 3);

static JsonNode *
fail (GError    **error,
      const char *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, message);
  return NULL;
}

static JsonNode *
render_view (ChronoMcpContext  *ctx,
             JsonObject        *args,
             GString           *text,
             GError           **error)
{
  ChronoMcpEntry *entry = chrono_mcp_arg_entry (ctx, args, error);
  const char *range = chrono_mcp_arg_string (args, "range");
  const char *tracks = chrono_mcp_arg_string (args, "tracks");
  gint64 finding_n = chrono_mcp_arg_int_or (args, "finding", 0);
  int width = chrono_mcp_arg_int_or (args, "width", DEFAULT_WIDTH);
  int height = chrono_mcp_arg_int_or (args, "height", 0);
  gboolean dark = g_strcmp0 (chrono_mcp_arg_string (args, "theme"), "dark") == 0;
  g_autoptr(JsonObject) rank_only = json_object_new ();
  g_auto(ChronoMcpScope) scope = { 0 };
  g_autoptr(ChronoTrackLayout) layout = NULL;
  g_autoptr(ChronoTimelineScene) scene = NULL;
  g_autoptr(GOutputStream) stream = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autofree char *base64 = NULL;
  g_autofree char *subtitle = NULL;
  const ChronoFinding *finding = NULL;
  ChronoPictureOptions picture = { .scale = 1 };
  ChronoTrace *trace;
  JsonObject *out, *image;
  JsonNode *result;
  gint64 start, end;
  gboolean cut;

  if (entry == NULL)
    return NULL;
  if (json_object_has_member (args, "rank"))
    json_object_set_member (rank_only, "rank", json_node_copy (json_object_get_member (args, "rank")));
  if (!chrono_mcp_scope_init (&scope, entry, rank_only, error))
    return NULL;
  if (scope.n_indices != 1)
    return fail (error, "handle “%s” has %u traces: give the rank to draw", entry->handle, scope.n_indices);
  if (range != NULL && finding_n > 0)
    return fail (error, "range and finding choose the same thing: give one");

  trace = g_ptr_array_index (entry->traces, scope.indices[0]);
  start = chrono_trace_get_start_ns (trace);
  end = MAX (chrono_trace_get_end_ns (trace), start + CHRONO_VIEWPORT_MIN_DURATION_NS);
  if (range != NULL)
    {
      gint64 from, to;

      if (!chrono_cli_parse_range (range, &from, &to))
        return fail (error, "range wants START:END from the trace's start, with a unit (ns, us, ms, s; ms when "
                     "none), START below END, not “%s”", range);
      start = chrono_trace_get_start_ns (trace) + from;
      end = chrono_trace_get_start_ns (trace) + to;
    }
  if (finding_n > 0)
    {
      ChronoMcpAnalysis *a = chrono_mcp_entry_get_analysis (entry, scope.key, scope.indices, scope.n_indices,
                                                            &scope.options, error);

      if (a == NULL)
        return NULL;
      if (finding_n > chrono_analysis_get_n_findings (a->analysis))
        return fail (error, "handle “%s” has no finding %" G_GINT64_FORMAT ": analyze found %u on this trace",
                     entry->handle, finding_n, chrono_analysis_get_n_findings (a->analysis));
      finding = chrono_analysis_get_finding (a->analysis, finding_n - 1);
      /* Framed on its evidence, its other rows folded away. */
      scene = chrono_cli_finding_scene_new (a->analysis, finding, tracks, width, height, dark, &cut);
    }
  else
    {
      layout = chrono_track_layout_new (trace);
      if (tracks == NULL || chrono_cli_filter_tracks (trace, layout, tracks))
        scene = chrono_cli_scene_new (trace, layout, start, end, width, height, dark, &cut);
    }
  if (scene == NULL)
    return fail (error, "no track's or process's name matches “%s”: find_spans and open_trace name them", tracks);
  picture.legend = json_object_get_boolean_member_with_default (args, "legend", FALSE);

  stream = g_memory_output_stream_new_resizable ();
  if (!chrono_picture_write_to_stream (scene, &picture, CHRONO_PICTURE_PNG, stream, error) ||
      !g_output_stream_close (stream, NULL, error))
    return NULL;
  png = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (stream));
  base64 = g_base64_encode (g_bytes_get_data (png, NULL), g_bytes_get_size (png));

  image = json_object_new ();
  json_object_set_string_member (image, "type", "image");
  json_object_set_string_member (image, "data", base64);
  json_object_set_string_member (image, "mimeType", "image/png");
  json_array_add_object_element (ctx->content, image);

  result = json_node_new (JSON_NODE_OBJECT);
  out = json_object_new ();
  json_node_take_object (result, out);
  json_object_set_string_member (out, "handle", entry->handle);
  json_object_set_int_member (out, "trace", scope.indices[0]);
  json_object_set_int_member (out, "start_ns", chrono_viewport_get_start_ns (chrono_timeline_scene_get_viewport (scene)));
  json_object_set_int_member (out, "end_ns", chrono_viewport_get_end_ns (chrono_timeline_scene_get_viewport (scene)));
  json_object_set_int_member (out, "width", (gint64) ceil (chrono_timeline_scene_get_width (scene)));
  json_object_set_int_member (out, "height", (gint64) chrono_picture_get_height (scene, &picture));
  json_object_set_string_member (out, "mime_type", "image/png");
  json_object_set_int_member (out, "bytes", g_bytes_get_size (png));
  json_object_set_boolean_member (out, "cut", cut);
  if (finding != NULL)
    {
      JsonObject *f = json_object_new ();

      json_object_set_string_member (f, "rule", finding->rule);
      json_object_set_string_member (f, "title", finding->title);
      json_object_set_int_member (f, "start_ns", finding->start_ns);
      json_object_set_int_member (f, "end_ns", finding->end_ns);
      json_object_set_object_member (out, "finding", f);
    }

  subtitle = chrono_cli_subtitle (scene, chrono_trace_get_part (trace, 0)->path, chrono_trace_get_n_parts (trace) - 1);
  g_string_append_printf (text, "Handle %s, trace %u: %s; %d × %d px PNG, %" G_GSIZE_FORMAT " KB.",
                          entry->handle, scope.indices[0], subtitle, (int) ceil (chrono_timeline_scene_get_width (scene)),
                          (int) chrono_picture_get_height (scene, &picture), g_bytes_get_size (png) / 1024);
  if (finding != NULL)
    g_string_append_printf (text, " Finding %" G_GINT64_FORMAT ", shaded: %s.", finding_n, finding->title);
  if (cut)
    g_string_append_printf (text, " The tracks are taller than %d px: those below are left out "
                            "(choose some with tracks, or set height).", CHRONO_CLI_MAX_AUTO_HEIGHT);
  return result;
}

static const ChronoMcpTool tools[] = {
  { "render_view", "Draw the timeline",
    "Draws an opened trace's timeline as chronoscope-cli export does, as a PNG image: the whole trace, a "
    "range (START:END from its start), or one finding of analyze with its range and tracks shaded; only "
    "the tracks matching a pattern if asked; light or dark; at most 4096 px each way. Returns the image "
    "and what it shows.",
    view_input, view_output, render_view },
};

const ChronoMcpTool *
chrono_mcp_view_tools (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (tools);
  return tools;
}
