/* chrono-cli-load.c: the traces that a command's FILE… arguments name, and what is said of them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-analysis-settings.h"
#include "chrono-cli-load.h"
#include "chrono-json-util.h"
#include "chrono-loader.h"
#include "chrono-trace-set.h"

#define ANALYSIS_SCHEMA "io.github.chronoscope.Chronoscope.analysis"

guint
chrono_cli_n_inputs (char * const *files,
                     gboolean      merge)
{
  guint n = g_strv_length ((char **) files);

  return merge ? MIN (n, 1) : n;
}

ChronoTrace *
chrono_cli_load_input (char * const *files,
                       gboolean      merge,
                       guint         index,
                       GError      **error)
{
  const char *one[] = { files[index], NULL };

  if (merge)
    return chrono_trace_load_set ((const char * const *) files, NULL, NULL, NULL, error);
  if (g_file_test (files[index], G_FILE_TEST_IS_DIR))
    return chrono_trace_load_set (one, NULL, NULL, NULL, error);
  return chrono_trace_load_file (files[index], NULL, NULL, NULL, error);
}

static void
add_counts (JsonBuilder *b,
            GHashTable  *table)
{
  g_autoptr(GList) keys = g_list_sort (g_hash_table_get_keys (table), (GCompareFunc) g_strcmp0);

  json_builder_begin_object (b);
  for (GList *l = keys; l; l = l->next)
    chrono_json_add_int (b, l->data, GPOINTER_TO_SIZE (g_hash_table_lookup (table, l->data)));
  json_builder_end_object (b);
}

JsonNode *
chrono_cli_trace_summary (ChronoTrace *trace)
{
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  chrono_json_add_string (b, "file", chrono_trace_get_path (trace));
  chrono_json_add_string (b, "format", chrono_trace_get_format (trace));
  chrono_json_add_string (b, "compression", chrono_trace_get_compression (trace));
  chrono_json_add_int (b, "bytes", chrono_trace_get_source_size (trace));
  json_builder_set_member_name (b, "phases");
  add_counts (b, stats->phases);
  chrono_json_add_int (b, "events", stats->events);
  chrono_json_add_int (b, "spans", stats->spans);
  chrono_json_add_int (b, "async_spans", stats->async_spans);
  chrono_json_add_int (b, "instants", stats->instants);
  chrono_json_add_int (b, "counter_samples", stats->counter_samples);
  chrono_json_add_int (b, "flows", stats->flows);
  chrono_json_add_int (b, "launch_links", stats->launch_links);
  json_builder_set_member_name (b, "engines");
  add_counts (b, stats->engines);
  chrono_json_add_int (b, "dependencies", stats->dependencies);
  chrono_json_add_int (b, "processes", chrono_trace_get_n_processes (trace));
  chrono_json_add_int (b, "tracks", chrono_trace_get_n_tracks (trace));
  chrono_json_add_int (b, "start_ns", chrono_trace_get_start_ns (trace));
  chrono_json_add_int (b, "end_ns", chrono_trace_get_end_ns (trace));
  chrono_json_add_int (b, "base_time_ns", chrono_trace_get_base_time_ns (trace));
  chrono_json_add_int (b, "rank", chrono_trace_get_rank (trace));
  chrono_json_add_int (b, "world_size", chrono_trace_get_world_size (trace));
  json_builder_set_member_name (b, "truncated");
  json_builder_add_boolean_value (b, stats->truncated);
  chrono_json_add_int (b, "dropped", stats->dropped);
  json_builder_set_member_name (b, "warnings");
  json_builder_begin_array (b);
  for (guint i = 0; i < stats->warnings->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (stats->warnings, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "kinds");
  json_builder_begin_object (b);
  for (guint k = 0; k < CHRONO_N_KINDS; k++)
    if (stats->kinds[k] > 0)
      chrono_json_add_int (b, chrono_kind_to_string (k), stats->kinds[k]);
  json_builder_end_object (b);
  json_builder_end_object (b);

  return json_builder_get_root (b);
}

void
chrono_cli_read_thresholds (ChronoAnalysisThresholds *thresholds)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, ANALYSIS_SCHEMA, TRUE) : NULL;
  g_autoptr(GSettings) settings = schema ? g_settings_new_full (schema, NULL, NULL) : NULL;

  chrono_analysis_settings_read (settings, thresholds);
}
