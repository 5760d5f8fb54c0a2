/* chrono-cli-summarize.c: chronoscope-cli summarize, ranks' summaries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>

#include "chrono-cli.h"
#include "chrono-cli-load.h"
#include "chrono-loader.h"
#include "chrono-rank-summary.h"

/* Summarises FILE into OUTPUT (NULL: standard output). Loads one rank
 * and frees it before the next. */
static int
summarize_one (const char                  *file,
               const char                  *output,
               const ChronoAnalysisOptions *options,
               gboolean                     skip_non_traces)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = chrono_trace_load_file (file, NULL, NULL, NULL, &error);
  g_autoptr(ChronoRankSummary) summary = NULL;

  if (trace == NULL)
    {
      gboolean not_a_trace = g_error_matches (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT);

      if (not_a_trace && skip_non_traces)
        {
          g_printerr ("%s; skipped\n", error->message);
          return 0;
        }
      g_printerr ("%s\n", error->message);
      return not_a_trace ? CHRONO_CLI_EXIT_NOT_A_TRACE : 1;
    }
  if (chrono_trace_get_part (trace, 0)->truncated)
    g_printerr ("%s: the file is incomplete; summarising what it holds\n", file);
  summary = chrono_rank_summary_new_from_trace (trace, options, NULL, &error);
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

int
chrono_cli_summarize (int    argc,
                      char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *output_dir = NULL;
  gboolean skip = FALSE;
  g_auto(GStrv) files = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "File to write, for one rank (default: standard output)", "FILE" },
    { "output-dir", 'd', 0, G_OPTION_ARG_FILENAME, &output_dir, "Folder to write NAME.summary.json to for each RANK_TRACE", "DIR" },
    { "skip-non-traces", 0, 0, G_OPTION_ARG_NONE, &skip, "Skip files that are not traces, with a message", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("RANK_TRACE… — what a job analysis needs from each rank");
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) error = NULL;
  ChronoAnalysisOptions options;
  guint n;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context,
                                "Writes each rank's summary (chronoscope.rank-summary/1): its steps, time ledger,\n"
                                "collectives and findings; “chronoscope-cli job reduce” analyses the job from them.\n"
                                "The ranks are read one at a time.");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("chronoscope-cli summarize: %s\n", error->message);
      return 2;
    }
  n = files ? g_strv_length (files) : 0;
  if (n == 0 || (output && output_dir) || (n > 1 && output_dir == NULL))
    {
      g_printerr ("chronoscope-cli summarize: %s\n",
                  n == 0 ? "no trace file given"
                  : output && output_dir ? "--output or --output-dir, not both"
                  : "several traces need --output-dir");
      return 2;
    }
  for (guint i = 0; output_dir && i < n; i++)
    {
      char *name = g_path_get_basename (files[i]);

      if (!g_hash_table_add (names, name))
        {
          g_printerr ("chronoscope-cli summarize: two traces are named “%s”: their summaries would collide in %s\n",
                      name, output_dir);
          return 2;
        }
    }

  chrono_analysis_options_init (&options);
  chrono_cli_read_thresholds (&options.thresholds);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *base = g_path_get_basename (files[i]);
      g_autofree char *name = g_strconcat (base, ".summary.json", NULL);
      g_autofree char *path = output_dir ? g_build_filename (output_dir, name, NULL) : g_strdup (output);
      int status = summarize_one (files[i], path, &options, skip);

      if (status != 0)
        return status;
    }
  return 0;
}
