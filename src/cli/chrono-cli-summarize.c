/* chrono-cli-summarize.c: chronoscope-cli summarize, one rank's summary
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>

#include "chrono-cli.h"
#include "chrono-cli-load.h"
#include "chrono-loader.h"
#include "chrono-rank-summary.h"

int
chrono_cli_summarize (int    argc,
                      char **argv)
{
  g_autofree char *output = NULL;
  g_auto(GStrv) files = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "File to write (default: standard output)", "FILE" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "RANK_TRACE" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("RANK_TRACE — what a job analysis needs from one rank");
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoRankSummary) summary = NULL;
  ChronoAnalysisOptions options;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context,
                                "Writes the rank's summary (chronoscope.rank-summary/1): its steps, time ledger,\n"
                                "collectives and findings; “chronoscope-cli job reduce” analyses the job from them.");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("chronoscope-cli summarize: %s\n", error->message);
      return 2;
    }
  if (files == NULL || files[1] != NULL)
    {
      g_printerr ("chronoscope-cli summarize: %s\n", files == NULL ? "no trace file given" : "one trace file at a time");
      return 2;
    }

  trace = chrono_trace_load_file (files[0], NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("%s\n", error->message);
      /* A folder's other files are skipped by analyze --jobs, not fatal. */
      return g_error_matches (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT) ? CHRONO_CLI_EXIT_NOT_A_TRACE : 1;
    }
  if (chrono_trace_get_part (trace, 0)->truncated)
    g_printerr ("%s: the file is incomplete; summarising what it holds\n", files[0]);
  chrono_analysis_options_init (&options);
  chrono_cli_read_thresholds (&options.thresholds);
  summary = chrono_rank_summary_new_from_trace (trace, &options, NULL, &error);
  if (summary == NULL)
    {
      g_printerr ("chronoscope-cli summarize: %s\n", error->message);
      return 1;
    }
  if (output == NULL)
    {
      g_autofree char *text = chrono_rank_summary_to_json (summary);

      puts (text);
      return 0;
    }
  if (!chrono_rank_summary_write (summary, output, &error))
    {
      g_printerr ("chronoscope-cli summarize: %s\n", error->message);
      return 1;
    }
  return 0;
}
