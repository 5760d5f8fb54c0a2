/* chronoscope-cli.c: the headless front end
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "chrono-cli.h"

typedef struct {
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} Command;

static const Command commands[] = {
  { "info", chrono_cli_info, "Summarise what a trace holds" },
  { "analyze", chrono_cli_analyze, "Find where the time goes and the bottlenecks" },
  { "query", chrono_cli_query, "Ask the traces anything in SQL (read-only)" },
  { "compare", chrono_cli_compare, "Compare two runs step by step: where the difference comes from" },
  { "summarize", chrono_cli_summarize, "Write what a job analysis needs from one rank" },
  { "job", chrono_cli_job, "Analyse a job from its ranks' summaries (job reduce)" },
  { "example", chrono_cli_example, "Write an example PyTorch-profiler trace, or the ranks of a job" },
  { "mcp", chrono_cli_mcp, "Answer agents over the Model Context Protocol (stdio)" },
#ifdef CHRONO_CLI_EXPORT
  { "export", chrono_cli_export, "Draw the timeline as PNG, SVG or PDF" },
  { "report", chrono_cli_report, "Write the analysis as a document with pictures" },
#endif
};

static void
usage (FILE *out)
{
  fprintf (out, "Usage: chronoscope-cli COMMAND [OPTION…] [FILE…]\n\nCommands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf (out, "\nRun “chronoscope-cli COMMAND --help” for a command's options.\n");
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");

  if (argc < 2)
    {
      usage (stderr);
      return 2;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      usage (stdout);
      return 0;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);

  fprintf (stderr, "chronoscope-cli: unknown command “%s”\n\n", argv[1]);
  usage (stderr);
  return 2;
}
