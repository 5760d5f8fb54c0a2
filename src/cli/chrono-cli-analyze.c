/* chrono-cli-analyze.c: chronoscope-cli analyze
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "chrono-analysis.h"
#include "chrono-analysis-settings.h"
#include "chrono-cli.h"
#include "chrono-loader.h"

#define ANALYSIS_SCHEMA "io.github.chronoscope.Chronoscope.analysis"

/* Thresholds from GSettings when the schema is installed, else the
 * defaults (which match the schema's). */
void
chrono_cli_read_thresholds (ChronoAnalysisThresholds *th)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, ANALYSIS_SCHEMA, TRUE) : NULL;
  g_autoptr(GSettings) settings = schema ? g_settings_new_full (schema, NULL, NULL) : NULL;

  chrono_analysis_settings_read (settings, th);
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

  chrono_cli_read_thresholds (&options.thresholds);
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
