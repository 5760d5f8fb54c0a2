/* chrono-cli-query.c: chronoscope-cli query
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>

#include "chrono-cli.h"
#include "chrono-cli-load.h"
#include "chrono-query.h"

static ChronoQuery *
open_engine (char * const *files,
             const char   *sql,
             GError      **error)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(ChronoAnalysis) analysis = NULL;

  for (guint i = 0; i < chrono_cli_n_inputs (files, FALSE); i++)
    {
      ChronoTrace *trace = chrono_cli_load_input (files, FALSE, i, error);

      if (trace == NULL)
        return NULL;
      g_ptr_array_add (traces, trace);
    }
  if (chrono_query_sql_reads_analysis (sql))
    {
      ChronoAnalysisOptions options;

      chrono_analysis_options_init (&options);
      chrono_cli_read_thresholds (&options.thresholds);
      analysis = chrono_analysis_run ((ChronoTrace * const *) traces->pdata, traces->len, &options, NULL, error);
      if (analysis == NULL)
        return NULL;
    }
  return chrono_query_new ((ChronoTrace * const *) traces->pdata, traces->len, analysis, error);
}

int
chrono_cli_query (int    argc,
                  char **argv)
{
  g_autofree char *format_name = NULL;
  g_autofree char *sql_file = NULL;
  g_autofree char *sql = NULL;
  g_auto(GStrv) args = NULL;
  gint max_rows = 10000;
  gdouble max_seconds = 30;
  gboolean schema = FALSE;
  const GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &format_name, "table (the default), csv, json or markdown", "FORMAT" },
    { "file", 'f', 0, G_OPTION_ARG_FILENAME, &sql_file, "Read the query from FILE", "FILE" },
    { "max-rows", 0, 0, G_OPTION_ARG_INT, &max_rows, "Print at most N rows, and say so when there were more (default 10000; 0: no limit)", "N" },
    { "max-time", 0, 0, G_OPTION_ARG_DOUBLE, &max_seconds, "Stop the query after S seconds (default 30; 0: no limit)", "S" },
    { "schema", 0, 0, G_OPTION_ARG_NONE, &schema, "Print the tables and their columns, and run no query", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &args, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    g_option_context_new ("TRACE… \"SQL\" — ask the traces anything in SQL (read-only; several files: one rank each)");
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoQuery) engine = NULL;
  g_autoptr(ChronoQueryResult) result = NULL;
  g_autofree char *text = NULL;
  ChronoQueryFormat format = CHRONO_QUERY_FORMAT_TABLE;
  ChronoQueryLimits limits;
  guint n_args;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
                                    "The tables, their columns and examples are in docs/query.md; --schema lists them.\n"
                                    "Times are nanoseconds on the trace's clock.");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("chronoscope-cli query: %s\n", error->message);
      return 2;
    }
  if (format_name != NULL && !chrono_query_format_parse (format_name, &format))
    {
      g_printerr ("chronoscope-cli query: unknown --format “%s”: expected table, csv, json or markdown\n", format_name);
      return 2;
    }
  if (max_rows < 0 || max_seconds < 0)
    {
      g_printerr ("chronoscope-cli query: --max-rows and --max-time take 0 or more\n");
      return 2;
    }
  n_args = args != NULL ? g_strv_length (args) : 0;
  if (sql_file != NULL)
    {
      if (!g_file_get_contents (sql_file, &sql, NULL, &error))
        {
          g_printerr ("chronoscope-cli query: %s\n", error->message);
          return 2;
        }
    }
  else if (!schema && n_args > 0)
    {
      sql = g_strdup (args[n_args - 1]);
      g_clear_pointer (&args[--n_args], g_free);
    }
  if (n_args == 0 || (sql == NULL && !schema))
    {
      g_printerr ("chronoscope-cli query: expected TRACE… and then the query (or -f FILE)\n");
      return 2;
    }

  engine = open_engine (args, schema ? "" : sql, &error);
  if (engine == NULL)
    {
      g_printerr ("chronoscope-cli query: %s\n", error->message);
      return 1;
    }
  if (schema)
    {
      text = chrono_query_dup_schema (engine);
      fputs (text, stdout);
      return 0;
    }

  limits.max_rows = (guint) max_rows;
  limits.max_time_ms = (gint64) (max_seconds * 1000);
  result = chrono_query_run (engine, sql, &limits, NULL, &error);
  if (result == NULL)
    {
      g_printerr ("chronoscope-cli query: %s\n", error->message);
      return 1;
    }
  text = chrono_query_result_format (result, format);
  fputs (text, stdout);
  fflush (stdout);
  if (chrono_query_result_is_truncated (result))
    g_printerr ("chronoscope-cli query: only the first %u rows are shown: add a LIMIT, narrow the query or raise --max-rows\n",
                limits.max_rows);
  return 0;
}
