/* chrono-cli-job.c: chronoscope-cli job reduce, the job from its ranks'
 * summaries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "chrono-cli.h"
#include "chrono-cli-load.h"
#include "chrono-job.h"

gboolean
chrono_cli_parse_format (const char *command,
                       const char *format,
                       gboolean   *markdown)
{
  *markdown = g_strcmp0 (format, "markdown") == 0;
  if (format == NULL || *markdown || strcmp (format, "json") == 0)
    return TRUE;
  g_printerr ("chronoscope-cli %s: unknown format “%s” (json or markdown)\n", command, format);
  return FALSE;
}

gboolean
chrono_cli_write_job (ChronoRankSummary * const *summaries,
                      guint                      n_summaries,
                      gboolean                   markdown,
                      const char                *output,
                      GError                   **error)
{
  ChronoAnalysisThresholds thresholds;
  g_autofree char *text = NULL;

  chrono_cli_read_thresholds (&thresholds);
  text = markdown ? chrono_job_reduce_to_markdown (summaries, n_summaries, &thresholds, error)
                  : chrono_job_reduce_to_json (summaries, n_summaries, &thresholds, error);
  if (text == NULL)
    return FALSE;
  if (output == NULL)
    {
      puts (text);
      return TRUE;
    }
  return g_file_set_contents_full (output, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
}

static int
job_reduce (int    argc,
            char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *format = NULL;
  gboolean markdown;
  g_auto(GStrv) files = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "File to write (default: standard output)", "FILE" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "json (default: chronoscope.job/1) or markdown (a report to read)", "FORMAT" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("SUMMARY… — the job analysis from its ranks' summaries");
  g_autoptr(GPtrArray) summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_rank_summary_free);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context,
                                "Reads summaries written by “chronoscope-cli summarize” (files, or folders of\n"
                                "*.summary.json) and writes the job's analysis (chronoscope.job/1, or a report\n"
                                "with --format markdown).");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("chronoscope-cli job reduce: %s\n", error->message);
      return 2;
    }
  if (!chrono_cli_parse_format ("job reduce", format, &markdown))
    return 2;
  if (files == NULL)
    {
      g_printerr ("chronoscope-cli job reduce: no summary given\n");
      return 2;
    }
  for (guint i = 0; files[i]; i++)
    if (!chrono_cli_list_files (files[i], ".summary.json", paths, &error))
      {
        g_printerr ("chronoscope-cli job reduce: %s\n", error->message);
        return 1;
      }
  for (guint i = 0; i < paths->len; i++)
    {
      ChronoRankSummary *s = chrono_rank_summary_load (paths->pdata[i], &error);

      if (s == NULL)
        {
          g_printerr ("chronoscope-cli job reduce: %s\n", error->message);
          return 1;
        }
      g_ptr_array_add (summaries, s);
    }
  if (!chrono_cli_write_job ((ChronoRankSummary * const *) summaries->pdata, summaries->len, markdown, output, &error))
    {
      g_printerr ("chronoscope-cli job reduce: %s\n", error->message);
      return 1;
    }
  return 0;
}

int
chrono_cli_job (int    argc,
                char **argv)
{
  static const char usage[] =
    "Usage: chronoscope-cli job reduce SUMMARY… [--format json|markdown] [-o JOB.json]\n\n"
    "Run “chronoscope-cli job reduce --help” for its options.\n";

  if (argc >= 2 && strcmp (argv[1], "reduce") == 0)
    return job_reduce (argc - 1, argv + 1);
  if (argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      fputs (usage, stdout);
      return 0;
    }
  fputs (usage, stderr);
  return 2;
}
