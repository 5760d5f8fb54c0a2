/* chrono-cli.h: the commands of chronoscope-cli
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "chrono-analysis.h"
#include "chrono-comparison.h"
#include "chrono-rank-summary.h"

G_BEGIN_DECLS

int chrono_cli_info    (int argc, char **argv);
int chrono_cli_analyze (int argc, char **argv);
int chrono_cli_query   (int argc, char **argv);
int chrono_cli_example (int argc, char **argv);
int chrono_cli_mcp     (int argc, char **argv);
int chrono_cli_summarize (int argc, char **argv);
int chrono_cli_job     (int argc, char **argv);

/* summarize's exit status for a file that is no trace. */
#define CHRONO_CLI_EXIT_NOT_A_TRACE 3

/* Reduces SUMMARIES and writes the job's JSON, or with MARKDOWN its
 * report, to OUTPUT (NULL: standard output), atomically. */
gboolean chrono_cli_write_job    (ChronoRankSummary * const *summaries,
                                  guint                      n_summaries,
                                  gboolean                   markdown,
                                  const char                *output,
                                  GError                   **error);
/* --format of COMMAND: MARKDOWN TRUE for "markdown", FALSE for "json" or
 * none; FALSE with a message for anything else. */
gboolean chrono_cli_parse_format   (const char                *command,
                                  const char                *format,
                                  gboolean                  *markdown);

/* analyze --jobs N: summarises FILES (traces, or folders of them) in N
 * processes at a time and writes the job's analysis. */
int      chrono_cli_analyze_jobs (char * const *files,
                                  guint         n_jobs,
                                  gboolean      markdown,
                                  const char   *output,
                                  gboolean      timing);
int chrono_cli_compare (int argc, char **argv);
/* compare's --steps N:M and --align step|start|marker:NAME into OPTIONS;
 * FALSE when TEXT is neither. The marker points into TEXT. */
gboolean chrono_cli_compare_parse_steps (const char           *text,
                                         ChronoCompareOptions *options);
gboolean chrono_cli_compare_parse_align (const char           *text,
                                         ChronoCompareOptions *options);
int chrono_cli_export  (int argc, char **argv);
int chrono_cli_report  (int argc, char **argv);

G_END_DECLS
