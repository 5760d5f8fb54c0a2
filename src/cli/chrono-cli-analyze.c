/* chrono-cli-analyze.c: chronoscope-cli analyze
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "chrono-analysis.h"
#include "chrono-cli.h"
#include "chrono-loader.h"

#define ANALYSIS_SCHEMA "io.github.chronoscope.Chronoscope.analysis"

/* Each key of the analysis schema and the threshold it sets: SCALE turns
 * the key's unit into nanoseconds for gint64 fields; 0 marks a guint
 * field, -1 a guint64 one. */
static const struct {
  const char *key;
  gsize       offset;
  gint64      scale;
} threshold_keys[] = {
  { "idle-gap-min-us", G_STRUCT_OFFSET (ChronoAnalysisThresholds, idle_gap_min_ns), 1000 },
  { "kernel-wait-max-ns", G_STRUCT_OFFSET (ChronoAnalysisThresholds, kernel_wait_max_ns), 1 },
  { "launch-bound-kernel-max-us", G_STRUCT_OFFSET (ChronoAnalysisThresholds, launch_bound_kernel_max_ns), 1000 },
  { "straggler-min-skew-us", G_STRUCT_OFFSET (ChronoAnalysisThresholds, straggler_min_skew_ns), 1000 },
  { "min-time-lost-us", G_STRUCT_OFFSET (ChronoAnalysisThresholds, min_time_lost_ns), 1000 },
  { "small-dma-max-bytes", G_STRUCT_OFFSET (ChronoAnalysisThresholds, small_dma_max_bytes), -1 },
  { "low-utilization-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, low_utilization_percent), 0 },
  { "launch-bound-min-kernels", G_STRUCT_OFFSET (ChronoAnalysisThresholds, launch_bound_min_kernels), 0 },
  { "slow-step-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, slow_step_percent), 0 },
  { "data-loading-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, data_loading_percent), 0 },
  { "exposed-communication-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, exposed_comm_percent), 0 },
  { "low-occupancy-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, low_occupancy_percent), 0 },
  { "host-bound-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, host_bound_percent), 0 },
};

/* Thresholds from GSettings when the schema is installed, else the
 * defaults (which match the schema's). A key that an older installed
 * schema lacks keeps its default. */
static void
read_thresholds (ChronoAnalysisThresholds *th)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, ANALYSIS_SCHEMA, TRUE) : NULL;
  g_autoptr(GSettings) settings = NULL;

  chrono_analysis_thresholds_init (th);
  if (schema == NULL)
    return;
  settings = g_settings_new_full (schema, NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (threshold_keys); i++)
    {
      guint value;

      if (!g_settings_schema_has_key (schema, threshold_keys[i].key))
        continue;
      value = g_settings_get_uint (settings, threshold_keys[i].key);
      if (threshold_keys[i].scale > 0)
        G_STRUCT_MEMBER (gint64, th, threshold_keys[i].offset) = (gint64) value * threshold_keys[i].scale;
      else if (threshold_keys[i].scale == 0)
        G_STRUCT_MEMBER (guint, th, threshold_keys[i].offset) = value;
      else
        G_STRUCT_MEMBER (guint64, th, threshold_keys[i].offset) = value;
    }
}

static gboolean
parse_range (const char            *text,
             ChronoAnalysisOptions *options)
{
  g_auto(GStrv) parts = g_strsplit (text, ":", 2);
  gint64 start, end;

  if (g_strv_length (parts) != 2 ||
      !g_ascii_string_to_signed (parts[0], 10, G_MININT64, G_MAXINT64, &start, NULL) ||
      !g_ascii_string_to_signed (parts[1], 10, G_MININT64, G_MAXINT64, &end, NULL) ||
      end <= start)
    return FALSE;
  options->range_start_ns = start;
  options->range_end_ns = end;
  return TRUE;
}

int
chrono_cli_analyze (int    argc,
                    char **argv)
{
  g_autofree char *format = NULL;
  gboolean timing = FALSE;
  g_autofree char *range = NULL;
  g_auto(GStrv) files = NULL;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: markdown (default) or json", "FORMAT" },
    { "range", 'r', 0, G_OPTION_ARG_STRING, &range, "Analyse only START to END, in the traces' nanoseconds", "START:END" },
    { "timing", 0, 0, G_OPTION_ARG_NONE, &timing, "Print loading and analysis times to standard error", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "FILE…" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE… — find where the time goes (several files: one per rank)");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autofree char *text = NULL;
  ChronoAnalysisOptions options;
  gint64 t0, t1;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("chronoscope-cli analyze: %s\n", error->message);
      return 2;
    }
  if (format && strcmp (format, "json") != 0 && strcmp (format, "markdown") != 0)
    {
      g_printerr ("chronoscope-cli analyze: unknown format “%s” (json or markdown)\n", format);
      return 2;
    }
  if (files == NULL)
    {
      g_printerr ("chronoscope-cli analyze: no trace file given\n");
      return 2;
    }
  chrono_analysis_options_init (&options);
  if (range && !parse_range (range, &options))
    {
      g_printerr ("chronoscope-cli analyze: --range wants START:END in nanoseconds, START below END, not “%s”\n", range);
      return 2;
    }

  t0 = g_get_monotonic_time ();
  for (guint i = 0; files[i]; i++)
    {
      ChronoTrace *trace = chrono_trace_load_file (files[i], NULL, NULL, NULL, &error);
      if (trace == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      if (chrono_trace_get_stats (trace)->truncated)
        g_printerr ("%s: the file is incomplete; analysing what it holds\n", files[i]);
      g_ptr_array_add (traces, trace);
    }
  t1 = g_get_monotonic_time ();

  read_thresholds (&options.thresholds);
  analysis = chrono_analysis_run ((ChronoTrace * const *) traces->pdata, traces->len, &options, NULL, &error);
  if (analysis == NULL)
    {
      g_printerr ("chronoscope-cli analyze: %s\n", error->message);
      return 1;
    }
  if (timing)
    g_printerr ("load %.3f s, analysis %.3f s\n", (t1 - t0) / 1e6, (g_get_monotonic_time () - t1) / 1e6);

  text = format && strcmp (format, "json") == 0 ? chrono_analysis_to_json (analysis)
                                                : chrono_analysis_to_markdown (analysis);
  fputs (text, stdout);
  fputc ('\n', stdout);
  return 0;
}
