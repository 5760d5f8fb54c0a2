/* test-job.c: per-rank summaries and the job analysis reduced from them,
 * on the 8-rank DLRM job and on generated jobs that know what they hold
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "chrono-example-job.h"
#include "chrono-job.h"
#include "chrono-job-table.h"
#include "chrono-loader.h"
#include "test-utils.h"

#define DLRM_PREFIX "param__dlrm_8rank__worker"

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static GPtrArray *
list_dir (const char *dir,
          const char *prefix,
          const char *suffix)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (d && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, prefix) && g_str_has_suffix (name, suffix))
      g_ptr_array_add (paths, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (paths, compare_strings);
  return paths;
}

static ChronoRankSummary *
summarize (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);
  ChronoRankSummary *summary;

  g_assert_no_error (error);
  summary = chrono_rank_summary_new_from_trace (trace, NULL, NULL, &error);
  g_assert_no_error (error);
  return summary;
}

static GPtrArray *
summarize_all (GPtrArray *paths)
{
  GPtrArray *summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_rank_summary_free);

  for (guint i = 0; i < paths->len; i++)
    g_ptr_array_add (summaries, summarize (paths->pdata[i]));
  return summaries;
}

static JsonObject *
reduce (GPtrArray  *summaries,
        JsonNode  **root_out)
{
  g_autoptr(GError) error = NULL;

  *root_out = chrono_job_reduce ((ChronoRankSummary * const *) summaries->pdata, summaries->len, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (*root_out), "schema"), ==, CHRONO_JOB_SCHEMA);
  return json_node_get_object (*root_out);
}

static gint
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* The ranks in the objects of ARRAY whose BOOL_MEMBER is true (or all
 * when NULL), in order, as "3,17". */
static char *
ranks_of (JsonArray  *array,
          const char *bool_member)
{
  g_autoptr(GString) s = g_string_new (NULL);
  g_autoptr(GArray) ranks = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *o = json_array_get_object_element (array, i);
      gint64 rank = json_object_get_int_member (o, "rank");

      if (bool_member == NULL || json_object_get_boolean_member (o, bool_member))
        g_array_append_val (ranks, rank);
    }
  g_array_sort (ranks, compare_int64);
  for (guint i = 0; i < ranks->len; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? "," : "", g_array_index (ranks, gint64, i));
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* -------------------------------------------------------------------- */
/* The DLRM job                                                         */

static void
test_dlrm (void)
{
  const char *dir = g_getenv ("CHRONO_TRACES_DIR");
  g_autoptr(GPtrArray) paths = dir ? list_dir (dir, DLRM_PREFIX, ".json") : NULL;
  g_autoptr(GPtrArray) summaries = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *job;
  JsonArray *ranking, *ranks;

  if (paths == NULL || paths->len != 8)
    {
      g_test_skip ("no 8-rank DLRM job (set CHRONO_TRACES_DIR)");
      return;
    }
  summaries = summarize_all (paths);
  for (guint i = 0; i < summaries->len; i++)
    {
      const ChronoRankSummary *s = summaries->pdata[i];

      g_assert_cmpint (s->rank, ==, (gint) i);
      g_assert_cmpint (s->world_size, ==, 8);
      g_assert_cmpuint (s->steps->len, ==, 1);
      /* 5 all-to-alls and 3 all-reduces, named by their nccl: annotations */
      g_assert_cmpuint (s->collectives->len, ==, 8);
      g_assert_cmpstr (g_array_index (s->collectives, ChronoSummaryCollective, 0).collective, ==, "all_to_all");
      g_assert_cmpstr (g_array_index (s->collectives, ChronoSummaryCollective, 7).collective, ==, "all_reduce");
    }
  job = reduce (summaries, &root);

  /* HTA's get_potential_stragglers picks 2 and 7: 7 reaches 5 of the 8
   * collectives last and is 3.4 ms past the median at the first; 2 and 6
   * arrive 3 µs apart at the first two all-to-alls, 2.9 ms past the
   * median, so 2 leads 6 by tens of microseconds of lateness. */
  ranking = json_object_get_array_member (job, "straggler_ranking");
  g_assert_cmpuint (json_array_get_length (ranking), >=, 3);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (ranking, 0), "rank"), ==, 7);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (ranking, 1), "rank"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (ranking, 2), "rank"), ==, 6);
  /* One host: the collectives end within microseconds, no clock offset. */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (
                      json_object_get_object_member (job, "alignment"), "offsets")), ==, 0);
  ranks = json_object_get_array_member (job, "ranks");
  for (guint r = 0; r < json_array_get_length (ranks); r++)
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (ranks, r), "clock_spread_ns"), <, 10000);
  /* Kineto wrote no sizes there, and the job says so. */
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (
                     json_object_get_array_member (job, "limitations"), 0), "id"), ==, "no-sizes");
}

/* -------------------------------------------------------------------- */
/* Generated jobs                                                       */

typedef struct {
  guint  world_size;
  guint  stragglers[4];
  guint  n_stragglers;
  ChronoExampleSkew   skews[4];
  guint  n_skews;
  ChronoExampleOffset offsets[4];
  guint  n_offsets;
} Plan;

static const Plan plan_8 = {
  8, { 3 }, 1,
  { { 5, 6, 1500000 }, { 1, 13, 2500000 } }, 2,
  { { 2, 40000000 }, { 6, -7000000 } }, 2,
};

static const Plan plan_64 = {
  64, { 5, 40, 63 }, 3,
  { { 10, 3, 1500000 }, { 22, 9, 3000000 }, { 41, 15, 1200000 } }, 3,
  { { 7, 250000000 }, { 33, -1200000000 }, { 50, 3000000 } }, 3,
};

static char *
generate (const Plan *plan,
          JsonNode  **manifest)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("chrono-job-XXXXXX", &error);
  ChronoExampleJobOptions o;

  g_assert_no_error (error);
  chrono_example_job_options_init (&o);
  o.world_size = plan->world_size;
  o.stragglers = (guint *) plan->stragglers;
  o.n_stragglers = plan->n_stragglers;
  o.skews = (ChronoExampleSkew *) plan->skews;
  o.n_skews = plan->n_skews;
  o.offsets = (ChronoExampleOffset *) plan->offsets;
  o.n_offsets = plan->n_offsets;
  *manifest = chrono_example_job_write (dir, &o, &error);
  g_assert_no_error (error);
  g_assert_nonnull (*manifest);
  return dir;
}

static void
remove_dir (const char *dir)
{
  g_autoptr(GPtrArray) files = list_dir (dir, "", "");

  for (guint i = 0; i < files->len; i++)
    g_assert_cmpint (g_unlink (files->pdata[i]), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static gboolean
planted_straggler (const Plan *plan,
                   gint64      rank)
{
  for (guint i = 0; i < plan->n_stragglers; i++)
    if (plan->stragglers[i] == rank)
      return TRUE;
  return FALSE;
}

static void
check_found (const Plan *plan,
             JsonObject *job,
             JsonObject *manifest)
{
  g_autoptr(GString) want = g_string_new (NULL);
  g_autofree char *stragglers = ranks_of (json_object_get_array_member (job, "stragglers"), "straggler");
  JsonArray *offsets = json_object_get_array_member (json_object_get_object_member (job, "alignment"), "offsets");
  JsonArray *late = json_object_get_array_member (job, "late_arrivals");
  JsonArray *steps = json_object_get_array_member (job, "steps");
  JsonArray *outliers = json_object_get_array_member (job, "ledger_outliers");
  JsonArray *truth = json_object_get_array_member (manifest, "collectives");
  JsonArray *collectives = json_object_get_array_member (job, "collectives");

  g_assert_cmpint (json_object_get_int_member (job, "n_ranks"), ==, plan->world_size);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (job, "limitations")), ==, 0);

  /* every straggler and no other */
  for (guint i = 0; i < plan->n_stragglers; i++)
    g_string_append_printf (want, "%s%u", i ? "," : "", plan->stragglers[i]);
  g_assert_cmpstr (stragglers, ==, want->str);

  /* every clock offset, to within the collectives' end jitter, and no other */
  g_assert_cmpuint (json_array_get_length (offsets), ==, plan->n_offsets);
  for (guint i = 0; i < plan->n_offsets; i++)
    {
      JsonObject *o = json_array_get_object_element (offsets, i);

      g_assert_cmpint (json_object_get_int_member (o, "rank"), ==, plan->offsets[i].rank);
      g_assert_cmpint (ABS (json_object_get_int_member (o, "offset_ns") - plan->offsets[i].offset_ns), <, 5000);
    }

  /* every one-off late arrival at its collective, and no other */
  g_assert_cmpuint (json_array_get_length (late), ==, plan->n_skews);
  for (guint i = 0; i < plan->n_skews; i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < json_array_get_length (late); j++)
        {
          JsonObject *o = json_array_get_object_element (late, j);

          if (json_object_get_int_member (o, "rank") == plan->skews[i].rank &&
              json_object_get_int_member (o, "collective") == plan->skews[i].collective)
            {
              found = TRUE;
              g_assert_cmpint (ABS (json_object_get_int_member (o, "beyond_usual_ns") - plan->skews[i].delay_ns), <,
                               50000);
            }
        }
      g_assert_true (found);
    }

  /* who arrived last, as the generator knows it, wherever that matters */
  g_assert_cmpuint (json_array_get_length (collectives), ==, json_array_get_length (truth));
  for (guint k = 0; k < json_array_get_length (truth); k++)
    {
      JsonObject *t = json_array_get_object_element (truth, k);
      JsonObject *c = json_array_get_object_element (collectives, k);

      g_assert_cmpint (ABS (json_object_get_int_member (c, "skew_ns") - json_object_get_int_member (t, "skew_ns")), <, 5000);
      if (json_object_get_int_member (t, "skew_ns") >= 1000000)
        g_assert_cmpint (json_object_get_int_member (c, "last_rank"), ==, json_object_get_int_member (t, "last_rank"));
    }

  /* slow in every step: the stragglers, and only they */
  for (guint s = 0; s < json_array_get_length (steps); s++)
    {
      g_autofree char *slow = ranks_of (json_object_get_array_member (json_array_get_object_element (steps, s),
                                                                      "slow_ranks"), NULL);
      g_assert_cmpstr (slow, ==, want->str);
    }

  /* a ledger that differs belongs to a straggler */
  for (guint i = 0; i < json_array_get_length (outliers); i++)
    g_assert_true (planted_straggler (plan, json_object_get_int_member (json_array_get_object_element (outliers, i),
                                                                        "rank")));
  /* one group on one fabric: nobody moves data slower */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (
                      json_array_get_object_element (json_object_get_array_member (job, "bandwidth"), 0),
                      "slow_ranks")), ==, 0);
}

static void
check_generated (const Plan *plan)
{
  g_autoptr(JsonNode) manifest = NULL;
  g_autofree char *dir = generate (plan, &manifest);
  g_autoptr(GPtrArray) paths = list_dir (dir, "rank-", ".json");
  g_autoptr(GPtrArray) summaries = NULL;
  g_autoptr(JsonNode) root = NULL;

  g_assert_cmpuint (paths->len, ==, plan->world_size);
  summaries = summarize_all (paths);
  for (guint i = 0; i < summaries->len; i++)
    {
      const ChronoRankSummary *s = summaries->pdata[i];
      const ChronoSummaryCollective *c = &g_array_index (s->collectives, ChronoSummaryCollective, 0);

      g_assert_cmpint (s->rank, ==, (gint) i);
      g_assert_cmpuint (s->steps->len, ==, 4);
      g_assert_cmpuint (s->collectives->len, ==, 16);
      g_assert_cmpstr (c->group, ==, "0");
      g_assert_cmpint (c->group_seq, ==, 1);
      g_assert_cmpint (c->bytes, ==, c->nelems * 4);
    }
  check_found (plan, reduce (summaries, &root), json_node_get_object (manifest));
  remove_dir (dir);
}

static void
test_generated_8 (void)
{
  check_generated (&plan_8);
}

static void
test_generated_64 (void)
{
  check_generated (&plan_64);
}

/* A job with nothing planted has no straggler, late arrival or offset. */
static void
test_generated_clean (void)
{
  Plan clean = { .world_size = 16 };
  g_autoptr(JsonNode) manifest = NULL;
  g_autofree char *dir = generate (&clean, &manifest);
  g_autoptr(GPtrArray) paths = list_dir (dir, "rank-", ".json");
  g_autoptr(GPtrArray) summaries = summarize_all (paths);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *job = reduce (summaries, &root);

  check_found (&clean, job, json_node_get_object (manifest));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (job, "ledger_outliers")), ==, 0);
  remove_dir (dir);
}

/* -------------------------------------------------------------------- */
/* One process or many, any order                                       */

static char *
run_cli (const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status;

  g_ptr_array_add (argv, (gpointer) g_getenv ("CHRONO_CLI"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s failed: %s", (char *) argv->pdata[1], err);
  return out;
}

static char *
read_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static void
test_same_everywhere (void)
{
  g_autoptr(JsonNode) manifest = NULL;
  g_autofree char *dir = generate (&plan_8, &manifest);
  g_autofree char *sums = g_dir_make_tmp ("chrono-sums-XXXXXX", NULL);
  g_autofree char *jobs_out = g_build_filename (sums, "jobs.json", NULL);
  g_autofree char *reduce_out = g_build_filename (sums, "reduce.json", NULL);
  g_autoptr(GPtrArray) paths = list_dir (dir, "rank-", ".json");
  g_autoptr(GPtrArray) summaries = summarize_all (paths);
  g_autoptr(GPtrArray) reversed = g_ptr_array_new ();
  g_autoptr(GPtrArray) reduce_args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *in_process = chrono_job_reduce_to_json ((ChronoRankSummary * const *) summaries->pdata,
                                                           summaries->len, NULL, &error);
  g_autofree char *in_reverse = NULL;
  g_autofree char *by_jobs = NULL;
  g_autofree char *by_reduce = NULL;
  g_autofree char *ignored = NULL;

  g_assert_no_error (error);
  for (guint i = summaries->len; i > 0; i--)
    g_ptr_array_add (reversed, summaries->pdata[i - 1]);
  in_reverse = chrono_job_reduce_to_json ((ChronoRankSummary * const *) reversed->pdata, reversed->len, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (in_reverse, ==, in_process);

  /* analyze --jobs 3 over the folder */
  g_free (run_cli ((const char *[]) { "analyze", "--jobs", "3", dir, "-o", jobs_out, NULL }));
  by_jobs = read_file (jobs_out);
  g_assert_cmpstr (by_jobs, ==, in_process);

  /* summarize each rank, then job reduce */
  g_ptr_array_add (reduce_args, g_strdup ("job"));
  g_ptr_array_add (reduce_args, g_strdup ("reduce"));
  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *name = g_strdup_printf ("%u.summary.json", i);
      char *out = g_build_filename (sums, name, NULL);
      g_autoptr(ChronoRankSummary) back = NULL;
      g_autofree char *again = NULL;
      g_autofree char *text = NULL;

      g_free (run_cli ((const char *[]) { "summarize", paths->pdata[i], "-o", out, NULL }));
      /* the file reads back to the same summary */
      back = chrono_rank_summary_load (out, &error);
      g_assert_no_error (error);
      again = chrono_rank_summary_to_json (back);
      text = read_file (out);
      g_assert_cmpstr (again, ==, text);
      /* kilobytes per step, not per span */
      g_assert_cmpuint (strlen (text), <, 8 * 1024 * back->steps->len);
      g_ptr_array_add (reduce_args, out);
    }
  g_ptr_array_add (reduce_args, g_strdup ("-o"));
  g_ptr_array_add (reduce_args, g_strdup (reduce_out));
  g_ptr_array_add (reduce_args, NULL);
  ignored = run_cli ((const char * const *) reduce_args->pdata);
  by_reduce = read_file (reduce_out);
  g_assert_cmpstr (by_reduce, ==, in_process);

  remove_dir (sums);
  remove_dir (dir);
}

/* The job as a report: the same from the library and from `analyze
 * --jobs --format markdown`; its straggler, one row a rank with the
 * JSON's shares, every rule the ranks found; --format json is the JSON
 * --jobs writes, and no other format is taken. */
static void
test_report (void)
{
  g_autoptr(JsonNode) manifest = NULL;
  g_autofree char *dir = generate (&plan_8, &manifest);
  g_autoptr(GPtrArray) paths = list_dir (dir, "rank-", ".json");
  g_autoptr(GPtrArray) summaries = summarize_all (paths);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *job = reduce (summaries, &root);
  g_autoptr(GError) error = NULL;
  g_autofree char *md = chrono_job_reduce_to_markdown ((ChronoRankSummary * const *) summaries->pdata,
                                                       summaries->len, NULL, &error);
  g_autofree char *json = chrono_job_reduce_to_json ((ChronoRankSummary * const *) summaries->pdata,
                                                     summaries->len, NULL, &error);
  g_autofree char *by_cli = run_cli ((const char *[]) { "analyze", "--jobs", "2", "--format", "markdown", dir, NULL });
  g_autofree char *json_by_cli = run_cli ((const char *[]) { "analyze", "--jobs", "2", "--format", "json", dir, NULL });
  g_autofree char *md_line = NULL;
  g_autofree char *json_line = NULL;
  const char *argv[] = { g_getenv ("CHRONO_CLI"), "analyze", "--jobs", "2", "--format", "yaml", dir, NULL };
  JsonArray *ranks = json_object_get_array_member (job, "ranks");
  g_auto(GStrv) lines = NULL;
  guint rows = 0;
  int status;

  g_assert_no_error (error);
  md_line = g_strconcat (md, "\n", NULL);
  json_line = g_strconcat (json, "\n", NULL);
  g_assert_cmpstr (by_cli, ==, md_line);
  g_assert_cmpstr (json_by_cli, ==, json_line);

  g_assert_true (g_str_has_prefix (md, "# Where the job's time goes\n\n8 ranks, "));
  g_assert_nonnull (strstr (md, "\n## Stragglers\n\n- **rank 3** arrives "));
  lines = g_strsplit (md, "\n", -1);
  for (guint r = 0; r < json_array_get_length (ranks); r++)
    {
      JsonObject *o = json_array_get_object_element (ranks, r);
      JsonObject *ledger = json_object_get_object_member (o, "ledger");
      gint64 rank = json_object_get_int_member (o, "rank");
      gint64 window = json_object_get_int_member (ledger, "window_ns");
      g_autofree char *start = g_strdup_printf (rank == 3 ? "| **rank %" G_GINT64_FORMAT "** |" : "| rank %" G_GINT64_FORMAT " |", rank);
      g_autofree char *shares = g_strdup_printf (" | %.1f%% | %.1f%% | %.1f%% |",
                                                 100.0 * json_object_get_int_member (ledger, "compute_ns") / window,
                                                 100.0 * json_object_get_int_member (ledger, "communication_ns") / window,
                                                 100.0 * json_object_get_int_member (ledger, "copy_ns") / window);
      gboolean found = FALSE;

      for (guint i = 0; lines[i] && !found; i++)
        found = g_str_has_prefix (lines[i], start) && strstr (lines[i], shares) != NULL;
      if (!found)
        g_error ("no row “%s…%s” in\n%s", start, shares, md);
      rows++;
    }
  g_assert_cmpuint (rows, ==, 8);
  for (guint i = 0; i < summaries->len; i++)
    {
      const ChronoRankSummary *sum = summaries->pdata[i];

      for (guint k = 0; k < sum->findings->len; k++)
        {
          g_autofree char *row = g_strdup_printf ("\n| %s | ", g_array_index (sum->findings, ChronoSummaryFinding, k).rule);
          g_assert_nonnull (strstr (md, row));
        }
    }

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  remove_dir (dir);
}

/* -------------------------------------------------------------------- */
/* Bad input                                                            */

static void
check_bad_summary (const char *text,
                   const char *expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoRankSummary) s = chrono_rank_summary_new_from_data (text, -1, "bad.summary.json", &error);

  g_assert_null (s);
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "bad.summary.json: "));
  if (strstr (error->message, expected) == NULL)
    g_error ("“%s” does not say “%s”", error->message, expected);
}

static void
test_bad_input (void)
{
  g_autoptr(ChronoRankSummary) a = chrono_rank_summary_new ();
  g_autoptr(ChronoRankSummary) b = chrono_rank_summary_new ();
  ChronoRankSummary *both[] = { a, b };
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) job = NULL;
  g_autofree char *good = NULL;
  g_autofree char *bad_step = NULL;

  check_bad_summary ("{\"schema\": 3", "not JSON");
  check_bad_summary ("[]", "expected a JSON object");
  check_bad_summary ("{\"schema\": \"chronoscope.rank-summary/9\"}", "expected “chronoscope.rank-summary/1”");

  a->path = g_strdup ("a.json");
  a->rank = 3;
  g_array_append_vals (a->collectives, &(ChronoSummaryCollective) {
    .name = g_strdup ("ncclKernel"), .step = -1, .group_seq = -1, .nelems = -1, .bytes = -1,
    .start_ns = 10, .end_ns = 5 }, 1);
  good = chrono_rank_summary_to_json (a);
  check_bad_summary (good, "collectives[0]: “end_ns” is before “start_ns”");
  g_array_index (a->collectives, ChronoSummaryCollective, 0).end_ns = 20;
  g_array_index (a->collectives, ChronoSummaryCollective, 0).step = 2;
  bad_step = chrono_rank_summary_to_json (a);
  check_bad_summary (bad_step, "collectives[0]: “step” 2 names no step");

  b->path = g_strdup ("b.json");
  b->rank = 3;
  job = chrono_job_reduce (both, 2, NULL, &error);
  g_assert_null (job);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "a.json and b.json both say they are rank 3");
}

static void
check_bad_table (const char *text,
                 const char *expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoJobTable) t = chrono_job_table_new_from_data (text, -1, "JOB.json", &error);

  g_assert_null (t);
  g_assert_nonnull (error);
  if (strcmp (error->message, expected) != 0)
    g_error ("“%s” is not “%s”", error->message, expected);
}

/* JOB.json read back for display: each rank's arrival at each
 * collective, the last of them at the skew, the straggler, each rank's
 * step start on the reference clock; a folder summarised the same; bad
 * files named with the place; what a job looks like told from its
 * first bytes. */
static void
test_table (void)
{
  g_autoptr(JsonNode) manifest = NULL;
  g_autofree char *dir = generate (&plan_8, &manifest);
  g_autoptr(GPtrArray) paths = list_dir (dir, "rank-", ".json");
  g_autoptr(GPtrArray) summaries = summarize_all (paths);
  g_autoptr(GError) error = NULL;
  g_autofree char *json = chrono_job_reduce_to_json ((ChronoRankSummary * const *) summaries->pdata, summaries->len,
                                                     NULL, &error);
  g_autofree char *from_folder = NULL;
  g_autofree char *job_path = g_build_filename (dir, "JOB.json", NULL);
  g_autofree char *bad = NULL;
  g_autoptr(ChronoJobTable) t = NULL;
  gint straggler;

  g_assert_no_error (error);
  t = chrono_job_table_new_from_data (json, -1, "JOB.json", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->n_ranks, ==, plan_8.world_size);
  g_assert_cmpuint (t->n_collectives, ==, 16);
  g_assert_cmpuint (t->n_steps, ==, 4);
  for (guint c = 0; c < t->n_collectives; c++)
    {
      const ChronoJobCollective *col = &t->collectives[c];
      gint64 first = G_MAXINT64;

      g_assert_true (col->matched);
      for (guint r = 0; r < t->n_ranks; r++)
        {
          g_assert_cmpint (col->arrival_ns[r], >=, 0);
          g_assert_cmpint (col->arrival_ns[r], <=, col->skew_ns);
          first = MIN (first, col->arrival_ns[r]);
        }
      g_assert_cmpint (first, ==, 0);
      g_assert_cmpint (col->arrival_ns[col->last_rank], ==, col->skew_ns);
    }
  straggler = chrono_job_table_find_rank (t, plan_8.stragglers[0]);
  g_assert_cmpuint (t->stragglers->len, ==, plan_8.n_stragglers);
  g_assert_cmpint (g_array_index (t->stragglers, guint, 0), ==, straggler);
  g_assert_true (t->ranks[straggler].straggler);
  /* Step starts on the reference clock: a rank whose clock was moved
   * starts its steps with the others. */
  for (guint r = 0; r < t->n_ranks; r++)
    g_assert_cmpint (llabs (t->steps[1].start_ns[r] - t->steps[1].start_ns[0]), <, 10 * G_TIME_SPAN_MILLISECOND * 1000);
  g_assert_cmpint (t->ranks[chrono_job_table_find_rank (t, 7)].clock_offset_ns, !=, 0);

  /* The folder gives the same job, byte for byte, as `analyze --jobs`
   * does, and its traces are found. */
  from_folder = chrono_job_reduce_folder (dir, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (from_folder, ==, json);
  {
    g_autofree char *out_dir = g_dir_make_tmp ("chrono-job-out-XXXXXX", &error);
    g_autofree char *out = g_build_filename (out_dir, "JOB.json", NULL);
    g_autofree char *analyzed = NULL;

    g_assert_no_error (error);
    g_free (run_cli ((const char *[]) { "analyze", "--jobs", "2", dir, "-o", out, NULL }));
    analyzed = read_file (out);
    g_assert_cmpstr (g_strstrip (analyzed), ==, g_strstrip (from_folder));
    g_assert_cmpint (g_unlink (out), ==, 0);
    g_assert_cmpint (g_rmdir (out_dir), ==, 0);
  }
  g_assert_cmpint (chrono_job_sniff (dir), ==, CHRONO_JOB_SOURCE_RANKS);
  g_assert_cmpint (chrono_job_sniff (paths->pdata[0]), ==, CHRONO_JOB_SOURCE_NONE);
  g_assert_true (g_file_set_contents (job_path, json, -1, &error));
  g_assert_cmpint (chrono_job_sniff (job_path), ==, CHRONO_JOB_SOURCE_FILE);
  {
    g_autoptr(ChronoJobTable) loaded = chrono_job_table_load (job_path, &error);
    g_autofree char *trace = NULL;

    g_assert_no_error (error);
    trace = chrono_job_table_find_trace (loaded, 0);
    g_assert_cmpstr (trace, ==, paths->pdata[0]);
  }
  g_assert_cmpint (g_unlink (job_path), ==, 0);

  check_bad_table ("{\"schema\": \"chronoscope.job/2\"}", "JOB.json: schema “chronoscope.job/2”, expected “chronoscope.job/1”");
  check_bad_table ("[1]", "JOB.json: expected a JSON object");
  /* One arrival too many in the first collective. */
  bad = g_strdup (json);
  {
    char *at = strstr (bad, "\"arrival_ns\" : [");
    g_autofree char *longer = NULL;

    g_assert_nonnull (at);
    at += strlen ("\"arrival_ns\" : [");
    longer = g_strdup_printf ("%.*s1, %s", (int) (at - bad), bad, at);
    check_bad_table (longer, "JOB.json: collectives[0]: “arrival_ns” should be an array of 8 integers");
  }
  remove_dir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/job/dlrm", test_dlrm);
  g_test_add_func ("/job/generated-8", test_generated_8);
  g_test_add_func ("/job/generated-64", test_generated_64);
  g_test_add_func ("/job/generated-clean", test_generated_clean);
  g_test_add_func ("/job/same-everywhere", test_same_everywhere);
  g_test_add_func ("/job/report", test_report);
  g_test_add_func ("/job/bad-input", test_bad_input);
  g_test_add_func ("/job/table", test_table);
  return g_test_run ();
}
