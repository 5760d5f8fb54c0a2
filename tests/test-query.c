/* test-query.c: the SQL engine over traces, against the model read
 * directly, and its refusals and limits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-query.h"
#include "test-utils.h"

static ChronoQueryResult *
run (ChronoQuery *engine,
     const char  *sql)
{
  g_autoptr(GError) error = NULL;
  ChronoQueryResult *result = chrono_query_run (engine, sql, NULL, NULL, &error);

  if (error != NULL)
    g_printerr ("%s\n", sql);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

static gint64
run_int (ChronoQuery *engine,
         const char  *sql)
{
  g_autoptr(ChronoQueryResult) result = run (engine, sql);

  g_assert_cmpuint (chrono_query_result_get_n_rows (result), ==, 1);
  g_assert_cmpint (chrono_query_result_get_cell_type (result, 0, 0), ==, CHRONO_QUERY_INTEGER);
  return chrono_query_result_get_int (result, 0, 0);
}

static ChronoQuery *
engine_for (ChronoTrace    *trace,
            ChronoAnalysis *analysis)
{
  g_autoptr(GError) error = NULL;
  ChronoQuery *engine = chrono_query_new (&trace, 1, analysis, &error);

  g_assert_no_error (error);
  return engine;
}

/* aten::linear > aten::addmm > cudaLaunchKernel (correlation 7), which
 * launches a kernel on stream 7; a second thread's op launches nothing. */
static ChronoTrace *
load_small (void)
{
  g_autoptr(GString) s = g_string_new ("{\"traceEvents\":[");

  test_append_complete_event (s, "cpu_op", "aten::linear", 1, 1, 100, 50, "");
  test_append_complete_event (s, "cpu_op", "aten::addmm", 1, 1, 110, 30, "\"Input Dims\": [[2, 3]]");
  test_append_complete_event (s, "cuda_runtime", "cudaLaunchKernel", 1, 1, 115, 5, "\"correlation\": 7");
  test_append_complete_event (s, "kernel", "gemm_kernel", 0, 7, 130, 20,
                              "\"correlation\": 7, \"stream\": 7, \"device\": 0, \"grid\": [4, 1, 1]");
  test_append_complete_event (s, "cpu_op", "aten::relu", 1, 2, 200, 10, "");
  g_string_append (s, "]}");
  return test_load_json (s->str);
}

static void
test_small (void)
{
  g_autoptr(ChronoTrace) trace = load_small ();
  g_autoptr(ChronoQuery) engine = engine_for (trace, NULL);
  g_autoptr(ChronoQueryResult) kernel = NULL;
  g_autoptr(ChronoQueryResult) parents = NULL;

  g_assert_cmpint (run_int (engine, "SELECT count(*) FROM spans"), ==, 5);
  g_assert_cmpint (run_int (engine, "SELECT sum(dur) FROM spans WHERE category = 'cpu_op'"), ==, 90000);
  g_assert_cmpint (run_int (engine, "SELECT ts FROM spans WHERE name = 'aten::relu'"), ==, 200000);
  g_assert_cmpint (run_int (engine, "SELECT count(*) FROM spans WHERE name = 'no such name'"), ==, 0);

  /* The kernel, its launch, and the operator around the launch. */
  kernel = run (engine, "SELECT d.name, l.name, d.op_name, o.name, arg(d.id, 'stream'), arg(d.id, 'grid'), "
                        "ancestor(d.launch_id, 'aten::linear') IS NOT NULL, d.kind "
                        "FROM device_work d JOIN spans l ON l.id = d.launch_id JOIN spans o ON o.id = d.op_id");
  g_assert_cmpuint (chrono_query_result_get_n_rows (kernel), ==, 1);
  g_assert_cmpstr (chrono_query_result_get_text (kernel, 0, 0), ==, "gemm_kernel");
  g_assert_cmpstr (chrono_query_result_get_text (kernel, 0, 1), ==, "cudaLaunchKernel");
  g_assert_cmpstr (chrono_query_result_get_text (kernel, 0, 2), ==, "aten::addmm");
  g_assert_cmpstr (chrono_query_result_get_text (kernel, 0, 3), ==, "aten::addmm");
  g_assert_cmpint (chrono_query_result_get_int (kernel, 0, 4), ==, 7);
  g_assert_cmpstr (chrono_query_result_get_text (kernel, 0, 5), ==, "[4,1,1]");
  g_assert_cmpint (chrono_query_result_get_int (kernel, 0, 6), ==, 1);
  g_assert_cmpstr (chrono_query_result_get_text (kernel, 0, 7), ==, "kernel");

  /* Each span's parent, by name. */
  parents = run (engine, "SELECT s.name, p.name FROM spans s LEFT JOIN spans p ON p.id = s.parent_id "
                         "WHERE s.category != 'kernel' ORDER BY s.ts");
  g_assert_cmpuint (chrono_query_result_get_n_rows (parents), ==, 4);
  g_assert_null (chrono_query_result_get_text (parents, 0, 1));
  g_assert_cmpstr (chrono_query_result_get_text (parents, 1, 1), ==, "aten::linear");
  g_assert_cmpstr (chrono_query_result_get_text (parents, 2, 1), ==, "aten::addmm");
  g_assert_null (chrono_query_result_get_text (parents, 3, 1));

  g_assert_cmpint (run_int (engine, "SELECT count(*) FROM flows WHERE type = 'launch'"), ==, 1);
  g_assert_cmpint (run_int (engine, "SELECT count(*) FROM tracks WHERE type = 'stream'"), ==, 1);
  g_assert_cmpint (run_int (engine, "SELECT count(*) FROM ranks"), ==, 1);
  g_assert_cmpint (run_int (engine, "SELECT count(*) FROM findings"), ==, 0);
  g_assert_cmpint (run_int (engine, "SELECT json_extract(args(id), '$.correlation') FROM spans WHERE kind = 'runtime'"),
                   ==, 7);
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The rows of SQL as "cell|cell|..." lines, sorted: for results whose
 * order is not fixed. */
static char *
dup_sorted_rows (ChronoQuery *engine,
                 const char  *sql)
{
  g_autoptr(ChronoQueryResult) result = run (engine, sql);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint r = 0; r < chrono_query_result_get_n_rows (result); r++)
    {
      GString *line = g_string_new (NULL);

      for (guint c = 0; c < chrono_query_result_get_n_columns (result); c++)
        {
          g_autofree char *cell = chrono_query_result_dup_cell_string (result, r, c);

          g_string_append_printf (line, "%s|", cell);
        }
      g_ptr_array_add (lines, g_string_free (line, FALSE));
    }
  g_ptr_array_sort (lines, compare_lines);
  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (out, "%s\n", (const char *) g_ptr_array_index (lines, i));
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* A GROUP BY name read from spans grouped by name gives what SQLite's
 * own sort gives (GROUP BY +name hides the column from the planner). */
static void
assert_grouping_alike (ChronoQuery *engine,
                       const char  *table)
{
  g_autofree char *grouped = g_strdup_printf ("SELECT name, count(*), sum(dur), min(ts) FROM %s GROUP BY name", table);
  g_autofree char *sorted = g_strdup_printf ("SELECT name, count(*), sum(dur), min(ts) FROM %s GROUP BY +name", table);
  g_autofree char *distinct = g_strdup_printf ("SELECT DISTINCT name FROM %s", table);
  g_autofree char *distinct_sorted = g_strdup_printf ("SELECT DISTINCT +name FROM %s", table);
  g_autofree char *a = dup_sorted_rows (engine, grouped);
  g_autofree char *b = dup_sorted_rows (engine, sorted);
  g_autofree char *c = dup_sorted_rows (engine, distinct);
  g_autofree char *d = dup_sorted_rows (engine, distinct_sorted);

  g_assert_cmpstr (a, ==, b);
  g_assert_cmpstr (c, ==, d);
  g_assert_cmpuint (strlen (a), >, 0);
}

/* Replaces each '@' of TEMPLATE by PREFIX. */
static char *
fill (const char *template,
      const char *prefix)
{
  g_auto(GStrv) parts = g_strsplit (template, "@", -1);

  return g_strjoinv (prefix, parts);
}

/* Every query is answered the same with its constraints taken into the
 * scan and, written with a unary + that hides the column from the
 * planner, tested by SQLite on every row; and a window's count is the
 * one a loop over the model finds. */
/* The plan of SQL scans spans with the constraints SCAN says (the
 * letters of the scan's index). */
static void
assert_plan (ChronoQuery *engine,
             const char  *sql,
             const char  *scan)
{
  g_autofree char *explain = g_strconcat ("EXPLAIN QUERY PLAN ", sql, NULL);
  g_autoptr(ChronoQueryResult) plan = run (engine, explain);
  gboolean found = FALSE;

  for (guint r = 0; r < chrono_query_result_get_n_rows (plan); r++)
    {
      const char *detail = chrono_query_result_get_text (plan, r, 3);

      found |= g_str_has_suffix (detail, scan);
    }
  if (!found)
    g_error ("%s: the plan does not scan with %s", sql, scan);
}

static void
test_pushdown (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load ("kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz");
  g_autoptr(ChronoQuery) engine = NULL;
  gint64 start, end;
  static const char * const filters[] = {
    "@ts >= %1$lld AND @ts < %2$lld",
    "@ts < %2$lld AND @ts_end > %1$lld",
    "@ts <= %2$lld AND @ts_end >= %1$lld AND @track_id = 2",
    "@ts > %1$lld AND @ts <= %2$lld AND @name = 'cudaLaunchKernel'",
    "@ts = %1$lld",
    "@ts_end > %1$lld AND @rank = 0",
    "@id = 35571 AND @ts > %1$lld",
    "@track_id = 1 AND @name = 'aten::add_'",
    "@ts > %1$lld + 0.5 AND @ts < %2$lld - 0.5",
    "@track_id IN (1, 3, 2, 99999, NULL) AND @ts < %2$lld AND @ts_end > %1$lld",
    "@name IN ('cudaLaunchKernel', 'aten::add_', 'no such name') AND @ts_end > %1$lld",
    "@track_id IN (1, 2) AND @name IN ('aten::add_', 'aten::empty')",
    "@name IN (SELECT name FROM spans WHERE id < 50) AND @ts >= %1$lld",
  };

  if (trace == NULL)
    return;
  engine = engine_for (trace, NULL);
  start = run_int (engine, "SELECT min(ts) FROM spans");
  end = run_int (engine, "SELECT max(ts_end) FROM spans");
  for (guint w = 1; w < 8; w++)
    {
      gint64 w0 = start + (end - start) * w / 9;
      gint64 w1 = w0 + (end - start) / 50;
      g_autofree char *window = g_strdup_printf ("SELECT count(*) FROM spans WHERE ts < %lld AND ts_end > %lld",
                                                 (long long) w1, (long long) w0);
      gint64 n = 0;

      for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
        {
          const ChronoTrack *track = chrono_trace_get_track (trace, t);

          for (guint32 i = 0; i < track->n_spans; i++)
            n += track->start[i] < w1 && chrono_track_get_end (track, i) > w0;
        }
      g_assert_cmpint (run_int (engine, window), ==, n);

      for (guint f = 0; f < G_N_ELEMENTS (filters); f++)
        {
          g_autofree char *pushed_filter = fill (filters[f], "");
          g_autofree char *plain_filter = fill (filters[f], "+");
          g_autofree char *format = g_strdup_printf ("SELECT count(*), total(dur), total(id) FROM spans WHERE %s",
                                                     pushed_filter);
          g_autofree char *plain_format = g_strdup_printf ("SELECT count(*), total(dur), total(id) FROM spans WHERE %s",
                                                           plain_filter);
          g_autofree char *pushed = g_strdup_printf (format, (long long) w0, (long long) w1);
          g_autofree char *plain = g_strdup_printf (plain_format, (long long) w0, (long long) w1);
          g_autoptr(ChronoQueryResult) a = run (engine, pushed);
          g_autoptr(ChronoQueryResult) b = run (engine, plain);

          for (guint c = 0; c < 3; c++)
            g_assert_cmpfloat (chrono_query_result_get_real (a, 0, c), ==, chrono_query_result_get_real (b, 0, c));
        }
    }
  assert_grouping_alike (engine, "spans");
  assert_grouping_alike (engine, "device_work");
  /* IN lists reach the scan whole (T, N), not as one scan per value or a
   * scan of every span tested afterwards. */
  assert_plan (engine, "SELECT count(*) FROM spans WHERE track_id IN (1, 2)", "INDEX 0:T");
  assert_plan (engine, "SELECT count(*) FROM spans WHERE name IN ('a', 'b')", "INDEX 0:N");
  assert_plan (engine, "SELECT count(*) FROM device_work WHERE track_id IN (1, 2) AND name IN ('a', 'b')",
               "INDEX 0:TN");
  assert_plan (engine, "SELECT count(*) FROM spans WHERE track_id IN (SELECT id FROM tracks WHERE type = 'stream')",
               "INDEX 0:T");
  /* A real query's answer is not empty. */
  g_assert_cmpint (run_int (engine, "SELECT count(*) FROM spans WHERE name = 'cudaLaunchKernel'"), >, 1000);
}

static void
assert_refused (ChronoQuery *engine,
                const char  *sql,
                int          code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoQueryResult) result = chrono_query_run (engine, sql, NULL, NULL, &error);

  g_assert_null (result);
  g_assert_error (error, CHRONO_QUERY_ERROR, code);
}

static void
test_read_only (void)
{
  g_autoptr(ChronoTrace) trace = load_small ();
  g_autoptr(ChronoQuery) engine = engine_for (trace, NULL);
  g_autofree char *dir = g_dir_make_tmp ("chrono-query-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "out.db", NULL);
  const char *writes[] = {
    "DELETE FROM findings", "INSERT INTO findings (rule) VALUES ('x')", "UPDATE ledger SET ns = 0",
    "CREATE TABLE t (x)", "CREATE TEMP TABLE t (x)", "DROP TABLE findings", "BEGIN", "PRAGMA temp_store = FILE",
    "PRAGMA writable_schema = ON", "SELECT load_extension('libm')", "CREATE VIRTUAL TABLE s USING spans",
  };
  g_autofree char *attach = g_strdup_printf ("ATTACH '%s' AS out", file);
  g_autofree char *vacuum = g_strdup_printf ("VACUUM INTO '%s'", file);

  for (guint i = 0; i < G_N_ELEMENTS (writes); i++)
    assert_refused (engine, writes[i], CHRONO_QUERY_ERROR_READ_ONLY);
  assert_refused (engine, attach, CHRONO_QUERY_ERROR_READ_ONLY);
  assert_refused (engine, vacuum, CHRONO_QUERY_ERROR_READ_ONLY);
  /* Defensive mode refuses this one before the authorizer sees it. */
  assert_refused (engine, "UPDATE sqlite_master SET type = 'x'", CHRONO_QUERY_ERROR_SQL);
  g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
  /* Reading pragmas are allowed, and the tables still there. */
  g_assert_cmpint (run_int (engine, "SELECT count(*) FROM pragma_table_info('spans')"), ==, 13);
  g_assert_cmpint (run_int (engine, "SELECT count(*) FROM spans"), ==, 5);
  test_remove_tree (dir);
}

static void
test_errors (void)
{
  g_autoptr(ChronoTrace) trace = load_small ();
  g_autoptr(ChronoQuery) engine = engine_for (trace, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(ChronoQueryResult) some = NULL;
  ChronoQueryLimits limits = { .max_rows = 3, .max_time_ms = 200 };
  const char *bad = "SELECT name,\n  count( FROM spans";
  const char *forever = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
  gint64 t0;

  g_assert_null (chrono_query_run (engine, bad, NULL, NULL, &error));
  g_assert_error (error, CHRONO_QUERY_ERROR, CHRONO_QUERY_ERROR_SQL);
  g_assert_cmpint (chrono_query_get_error_offset (engine), ==, strstr (bad, "FROM") - bad);
  g_assert_nonnull (strstr (error->message, "line 2, column 10"));
  g_clear_error (&error);

  g_assert_null (chrono_query_run (engine, "SELECT 1; SELECT 2", NULL, NULL, &error));
  g_assert_error (error, CHRONO_QUERY_ERROR, CHRONO_QUERY_ERROR_SQL);
  g_clear_error (&error);

  t0 = g_get_monotonic_time ();
  g_assert_null (chrono_query_run (engine, forever, &limits, NULL, &error));
  g_assert_error (error, CHRONO_QUERY_ERROR, CHRONO_QUERY_ERROR_TIME_LIMIT);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);
  g_clear_error (&error);

  g_cancellable_cancel (cancellable);
  g_assert_null (chrono_query_run (engine, forever, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  some = chrono_query_run (engine, "SELECT id FROM spans", &limits, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_query_result_get_n_rows (some), ==, 3);
  g_assert_true (chrono_query_result_is_truncated (some));
}

/* Two traces as two ranks: ids run on, and each rank's numbers are its
 * trace's. */
static void
test_ranks (void)
{
  g_autoptr(ChronoTrace) a = load_small ();
  g_autoptr(ChronoTrace) b = test_traces_load ("hta__cp_alexnet__benchmark_result_2869224_1695835535_trace.json.gz");
  ChronoTrace *traces[2];
  g_autoptr(ChronoQuery) engine = NULL;
  g_autoptr(GError) error = NULL;
  guint64 spans_b = 0;

  if (b == NULL)
    return;
  traces[0] = a;
  traces[1] = b;
  engine = chrono_query_new (traces, 2, NULL, &error);
  g_assert_no_error (error);
  for (guint t = 0; t < chrono_trace_get_n_tracks (b); t++)
    spans_b += chrono_trace_get_track (b, t)->n_spans;
  g_assert_cmpint (run_int (engine, "SELECT count(*) FROM spans WHERE rank = 0"), ==, 5);
  g_assert_cmpint (run_int (engine, "SELECT count(*) FROM spans WHERE rank = 1"), ==, (gint64) spans_b);
  g_assert_cmpint (run_int (engine, "SELECT count(DISTINCT id) FROM spans"), ==, (gint64) spans_b + 5);
  g_assert_cmpint (run_int (engine, "SELECT count(*) FROM spans s JOIN tracks t ON t.id = s.track_id WHERE s.rank != t.rank"),
                   ==, 0);
  g_assert_cmpint (run_int (engine, "SELECT count(*) FROM ranks"), ==, 2);
  assert_grouping_alike (engine, "spans");
}

/* The analysis tables hold the analysis's rows. */
static void
test_analysis (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load ("kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz");
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(ChronoQuery) engine = NULL;
  g_autoptr(GError) error = NULL;
  const ChronoLedgerRow *whole;
  g_autofree char *sum = NULL;

  if (trace == NULL)
    return;
  analysis = chrono_analysis_run (&trace, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  engine = engine_for (trace, analysis);
  g_assert_cmpint (run_int (engine, "SELECT count(*) FROM findings"), ==, chrono_analysis_get_n_findings (analysis));
  g_assert_cmpint (chrono_analysis_get_n_findings (analysis), >, 0);
  g_assert_cmpint (run_int (engine, "SELECT count(*) FROM findings f JOIN spans s ON s.id = f.span_id"),
                   ==, run_int (engine, "SELECT count(*) FROM findings WHERE span_id IS NOT NULL"));
  whole = chrono_analysis_get_ledger_row (analysis, 0);
  g_assert_null (whole->name);
  sum = g_strdup_printf ("SELECT sum(ns) FROM ledger WHERE step IS NULL AND start_ns = %" G_GINT64_FORMAT, whole->start_ns);
  g_assert_cmpint (run_int (engine, sum), ==, whole->end_ns - whole->start_ns);
  g_assert_cmpint (run_int (engine, "SELECT count(DISTINCT path) FROM critical_path"), ==, chrono_analysis_get_n_paths (analysis));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/query/small", test_small);
  g_test_add_func ("/query/pushdown", test_pushdown);
  g_test_add_func ("/query/read-only", test_read_only);
  g_test_add_func ("/query/errors", test_errors);
  g_test_add_func ("/query/ranks", test_ranks);
  g_test_add_func ("/query/analysis", test_analysis);
  return g_test_run ();
}
