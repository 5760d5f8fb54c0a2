/* chrono-cli-analyze.c: chronoscope-cli analyze
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "chrono-analysis.h"
#include "chrono-cli.h"
#include "chrono-cli-load.h"

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

/* A peak in tera-units into the thresholds' giga-units; 0 keeps the setting. */
static gboolean
set_peak (gdouble     tera,
          const char *option,
          guint      *giga)
{
  if (tera == 0)
    return TRUE;
  if (!(tera > 0 && tera * 1000 <= G_MAXUINT))
    {
      g_printerr ("chronoscope-cli analyze: %s wants a number above 0 and at most %u, not %g\n",
                  option, G_MAXUINT / 1000, tera);
      return FALSE;
    }
  *giga = MAX (1, (guint) (tera * 1000 + 0.5));
  return TRUE;
}

int
chrono_cli_analyze (int    argc,
                    char **argv)
{
  g_autofree char *format = NULL;
  gboolean timing = FALSE;
  gboolean merge = FALSE;
  gboolean markdown;
  g_autofree char *range = NULL;
  g_autofree char *output = NULL;
  gint jobs = 0;
  gdouble peak_tflops = 0, peak_tbps = 0;
  g_auto(GStrv) files = NULL;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: markdown or json (default: markdown; with --jobs, json)", "FORMAT" },
    { "range", 'r', 0, G_OPTION_ARG_STRING, &range, "Analyse only START to END, in the traces' nanoseconds", "START:END" },
    { "merge", 0, 0, G_OPTION_ARG_NONE, &merge, "All files as one trace on a shared clock", NULL },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "Analyse the job: summarise the ranks in N processes at a time, then reduce (chronoscope.job/1, or a report with --format markdown)", "N" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "With --jobs: the file to write (default: standard output)", "FILE" },
    { "peak-tflops", 0, 0, G_OPTION_ARG_DOUBLE, &peak_tflops, "Every device's compute peak, for every number type, instead of the built-in table", "TFLOPS" },
    { "peak-tbps", 0, 0, G_OPTION_ARG_DOUBLE, &peak_tbps, "Every device's memory bandwidth instead of the built-in table", "TBPS" },
    { "timing", 0, 0, G_OPTION_ARG_NONE, &timing, "Print loading and analysis times to standard error", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE… — find where the time goes (several files: one per rank; a folder is read as one set)");
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
  if (!chrono_cli_parse_format ("analyze", format, &markdown))
    return 2;
  if (files == NULL)
    {
      g_printerr ("chronoscope-cli analyze: no trace file given\n");
      return 2;
    }
  if (jobs != 0 || output != NULL)
    {
      if (jobs < 1 || merge || range || peak_tflops != 0 || peak_tbps != 0)
        {
          g_printerr ("chronoscope-cli analyze: %s\n",
                      jobs < 1 ? "--jobs wants a number of processes of at least 1 (and --output goes with it)"
                               : "--jobs analyses each rank whole with the settings' peaks: --merge, --range and the peaks do not apply");
          return 2;
        }
      /* The job's JSON unless a report is asked for: the format --jobs writes by default. */
      return chrono_cli_analyze_jobs (files, jobs, markdown, output, timing);
    }
  chrono_analysis_options_init (&options);
  if (range && !parse_range (range, &options))
    {
      g_printerr ("chronoscope-cli analyze: --range wants START:END in nanoseconds, START below END, not “%s”\n", range);
      return 2;
    }

  chrono_cli_read_thresholds (&options.thresholds);
  if (!set_peak (peak_tflops, "--peak-tflops", &options.thresholds.peak_gflops) ||
      !set_peak (peak_tbps, "--peak-tbps", &options.thresholds.peak_memory_gbps))
    return 2;

  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < chrono_cli_n_inputs (files, merge); i++)
    {
      ChronoTrace *trace = chrono_cli_load_input (files, merge, i, &error);

      if (trace == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      for (guint p = 0; p < chrono_trace_get_n_parts (trace); p++)
        if (chrono_trace_get_part (trace, p)->truncated)
          g_printerr ("%s: the file is incomplete; analysing what it holds\n",
                      chrono_trace_get_part (trace, p)->path);
      g_ptr_array_add (traces, trace);
    }
  t1 = g_get_monotonic_time ();

  analysis = chrono_analysis_run ((ChronoTrace * const *) traces->pdata, traces->len, &options, NULL, &error);
  if (analysis == NULL)
    {
      g_printerr ("chronoscope-cli analyze: %s\n", error->message);
      return 1;
    }
  if (timing)
    g_printerr ("load %.3f s, analysis %.3f s\n", (t1 - t0) / 1e6, (g_get_monotonic_time () - t1) / 1e6);

  text = format && !markdown ? chrono_analysis_to_json (analysis) : chrono_analysis_to_markdown (analysis);
  fputs (text, stdout);
  fputc ('\n', stdout);
  return 0;
}
