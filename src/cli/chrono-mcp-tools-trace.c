/* chrono-mcp-tools-trace.c: open_trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gio.h>

#include "chrono-cli-load.h"
#include "chrono-format.h"
#include "chrono-mcp-tool.h"

#define MAX_FILES 64

static const char open_input[] =
  "{\"type\":\"object\",\"additionalProperties\":false,\"properties\":{"
  "\"path\":{\"type\":\"string\",\"minLength\":1,\"description\":\"A trace file, or a profile folder read as one trace; relative to the server's first root\"},"
  "\"paths\":{\"type\":\"array\",\"minItems\":1,\"maxItems\":64,\"items\":{\"type\":\"string\",\"minLength\":1},"
  "\"description\":\"Several files: the ranks of one job, in rank order\"}}}";

/* One object of `chronoscope-cli info --json`. */
#define SUMMARY_SCHEMA \
  "{\"type\":\"object\",\"required\":[\"file\",\"format\",\"events\",\"spans\",\"tracks\",\"start_ns\",\"end_ns\",\"truncated\",\"warnings\"]," \
  "\"properties\":{\"file\":{\"type\":\"string\"},\"format\":{\"type\":\"string\"},\"compression\":{\"type\":\"string\"}," \
  "\"bytes\":{\"type\":\"integer\"},\"phases\":{\"type\":\"object\"},\"events\":{\"type\":\"integer\"}," \
  "\"spans\":{\"type\":\"integer\"},\"async_spans\":{\"type\":\"integer\"},\"instants\":{\"type\":\"integer\"}," \
  "\"counter_samples\":{\"type\":\"integer\"},\"flows\":{\"type\":\"integer\"},\"launch_links\":{\"type\":\"integer\"}," \
  "\"engines\":{\"type\":\"object\"},\"dependencies\":{\"type\":\"integer\"},\"processes\":{\"type\":\"integer\"}," \
  "\"tracks\":{\"type\":\"integer\"},\"start_ns\":{\"type\":\"integer\"},\"end_ns\":{\"type\":\"integer\"}," \
  "\"base_time_ns\":{\"type\":\"integer\"},\"rank\":{\"type\":\"integer\"},\"world_size\":{\"type\":\"integer\"}," \
  "\"truncated\":{\"type\":\"boolean\"},\"dropped\":{\"type\":\"integer\"}," \
  "\"warnings\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},\"kinds\":{\"type\":\"object\"}}}"

static const char open_output[] =
  "{\"type\":\"object\",\"required\":[\"handle\",\"traces\",\"memory_bytes\",\"memory_limit_bytes\",\"unloaded\"],"
  "\"properties\":{"
  "\"handle\":{\"type\":\"string\",\"description\":\"pass to the other tools\"},"
  "\"reused\":{\"type\":\"boolean\",\"description\":\"the same files were already loaded under this handle\"},"
  "\"traces\":{\"type\":\"array\",\"items\":" SUMMARY_SCHEMA ",\"description\":\"what chronoscope-cli info --json says of each, in rank order\"},"
  "\"memory_bytes\":{\"type\":\"integer\",\"description\":\"memory these traces take: the model, the source text kept for args and the spans by name\"},"
  "\"loaded_bytes\":{\"type\":\"integer\",\"description\":\"memory all loaded traces take\"},"
  "\"memory_limit_bytes\":{\"type\":\"integer\"},"
  "\"unloaded\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"description\":\"handles unloaded to make room\"}}}";

static JsonNode *
open_trace (ChronoMcpContext  *ctx,
            JsonObject        *args,
            GString           *text,
            GError           **error)
{
  const char *path = chrono_mcp_arg_string (args, "path");
  JsonArray *list = json_object_has_member (args, "paths") ? json_object_get_array_member (args, "paths") : NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) unloaded = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  ChronoMcpEntry *entry;
  gboolean reused;

  if ((path == NULL) == (list == NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "give either path (one file or folder) or paths (several ranks' files), not %s",
                   path ? "both" : "neither");
      return NULL;
    }
  for (guint i = 0; i < (list ? json_array_get_length (list) : 1); i++)
    {
      char *real = chrono_mcp_roots_resolve (ctx->roots, list ? json_array_get_string_element (list, i) : path, error);

      if (real == NULL)
        return NULL;
      g_ptr_array_add (paths, real);
    }

  entry = chrono_mcp_cache_find (ctx->cache, paths);
  reused = entry != NULL;
  if (entry == NULL)
    {
      g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);

      g_ptr_array_add (paths, NULL);
      for (guint i = 0; i + 1 < paths->len; i++)
        {
          /* each file alone, as analyze takes the ranks of a job */
          ChronoTrace *trace = chrono_cli_load_input ((char * const *) paths->pdata, FALSE, i, error);

          if (trace == NULL)
            return NULL;
          g_ptr_array_add (traces, trace);
        }
      g_ptr_array_remove_index (paths, paths->len - 1);
      entry = chrono_mcp_cache_add (ctx->cache, g_steal_pointer (&traces), g_steal_pointer (&paths), unloaded, error);
      if (entry == NULL)
        return NULL;
    }

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "handle");
  json_builder_add_string_value (b, entry->handle);
  json_builder_set_member_name (b, "reused");
  json_builder_add_boolean_value (b, reused);
  json_builder_set_member_name (b, "traces");
  json_builder_begin_array (b);
  for (guint i = 0; i < entry->traces->len; i++)
    json_builder_add_value (b, chrono_cli_trace_summary (g_ptr_array_index (entry->traces, i)));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "memory_bytes");
  json_builder_add_int_value (b, entry->bytes);
  json_builder_set_member_name (b, "loaded_bytes");
  json_builder_add_int_value (b, chrono_mcp_cache_get_bytes (ctx->cache));
  json_builder_set_member_name (b, "memory_limit_bytes");
  json_builder_add_int_value (b, chrono_mcp_cache_get_limit (ctx->cache));
  json_builder_set_member_name (b, "unloaded");
  json_builder_begin_array (b);
  for (guint i = 0; i < unloaded->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (unloaded, i));
  json_builder_end_array (b);
  json_builder_end_object (b);

  g_string_append_printf (text, "Handle %s%s:", entry->handle, reused ? " (already loaded)" : "");
  for (guint i = 0; i < entry->traces->len; i++)
    {
      ChronoTrace *trace = g_ptr_array_index (entry->traces, i);
      const ChronoLoadStats *stats = chrono_trace_get_stats (trace);
      g_autofree char *duration = chrono_format_duration (chrono_trace_get_end_ns (trace) - chrono_trace_get_start_ns (trace));

      g_string_append_printf (text, "\n- %s: %s, %s long, %" G_GUINT64_FORMAT " spans on %u tracks, from %"
                              G_GINT64_FORMAT " to %" G_GINT64_FORMAT " ns",
                              chrono_trace_get_path (trace), chrono_trace_get_format (trace), duration,
                              stats->spans, chrono_trace_get_n_tracks (trace),
                              chrono_trace_get_start_ns (trace), chrono_trace_get_end_ns (trace));
      if (chrono_trace_get_rank (trace) >= 0 && chrono_trace_get_world_size (trace) > 0)
        g_string_append_printf (text, ", rank %d of %d", chrono_trace_get_rank (trace), chrono_trace_get_world_size (trace));
      else if (chrono_trace_get_rank (trace) >= 0)
        g_string_append_printf (text, ", rank %d (world size unknown)", chrono_trace_get_rank (trace));
      if (stats->truncated)
        g_string_append (text, "; the file is incomplete: what it holds is analysed");
      if (stats->warnings->len > 0)
        g_string_append_printf (text, "; %u warnings (see traces[].warnings)", stats->warnings->len);
    }
  for (guint i = 0; i < unloaded->len; i++)
    g_string_append_printf (text, "\nUnloaded %s to stay under the memory limit.", (const char *) g_ptr_array_index (unloaded, i));
  return json_builder_get_root (b);
}

static const ChronoMcpTool tools[] = {
  { "open_trace", "Open a trace",
    "Loads a trace file (Kineto/PyTorch profiler JSON, Chrome trace events, Perfetto protobuf, AWS Neuron "
    "profiles; gzip, zstd and zip too), several files as the ranks of one job, or a profile folder, and "
    "returns a handle for the other tools with what the trace holds. The traces stay loaded; the least "
    "recently used are unloaded when memory runs short.",
    open_input, open_output, open_trace },
};

const ChronoMcpTool *
chrono_mcp_trace_tools (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (tools);
  return tools;
}
