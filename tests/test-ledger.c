/* test-ledger.c: the time ledger and the claims findings make on it, on a
 * clean Hopper training trace, and on traces that lack what the analysis
 * needs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gstdio.h>

#include "chrono-analysis.h"
#include "chrono-efficiency.h"
#include "chrono-example-trace.h"
#include "chrono-loader.h"
#include "chrono-trace-set.h"
#include "test-utils.h"

static ChronoAnalysis *
analyse (ChronoTrace **traces,
         guint         n)
{
  g_autoptr(GError) error = NULL;
  ChronoAnalysis *a = chrono_analysis_run (traces, n, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (a);
  return a;
}

static gboolean
has_limitation (ChronoAnalysis *a,
                const char     *id)
{
  for (guint i = 0; i < chrono_analysis_get_n_limitations (a); i++)
    if (strcmp (chrono_analysis_get_limitation (a, i)->id, id) == 0)
      return TRUE;
  return FALSE;
}

static gint64
total_lost (ChronoAnalysis *a)
{
  gint64 lost = 0;

  for (guint i = 0; i < chrono_analysis_get_n_findings (a); i++)
    lost += chrono_analysis_get_finding (a, i)->time_lost_ns;
  return lost;
}

/* The example writes what a healthy bf16 training step on H100 looks like
 * to Kineto: warp-specialised cuBLAS GEMMs at 9 % estimated occupancy,
 * flash attention, NCCL all-reduces overlapped with the backward pass.
 * Nothing in it is a bottleneck worth more than 2 % of the time. */
static void
test_hopper_clean (void)
{
  g_autofree char *dir = g_dir_make_tmp ("chrono-ledger-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "h100.pt.trace.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  guint n_rules, low_occupancy = 0;
  const ChronoRule *rules = chrono_analysis_get_rules (&n_rules);
  gint64 window = 0;

  g_assert_true (chrono_example_trace_write (path, NULL, NULL, &error));
  g_assert_no_error (error);
  trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  /* The trace is what the rule used to misread: Hopper GEMMs far below
   * 25 % estimated occupancy. */
  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);
      for (guint32 i = 0; i < t->n_spans && t->type == CHRONO_TRACK_STREAM; i++)
        {
          g_autoptr(JsonNode) args = NULL;
          JsonObject *o;

          if (!g_str_has_prefix (chrono_trace_get_string (trace, chrono_track_get_name (t, i)), "sm90_xmma_gemm"))
            continue;
          args = chrono_trace_get_span_args (trace, (ChronoSpanRef) { ti, i });
          o = args ? json_node_get_object (args) : NULL;
          if (o && json_object_has_member (o, "est. achieved occupancy %") &&
              json_object_get_double_member (o, "est. achieved occupancy %") < 20)
            low_occupancy++;
        }
    }
  g_assert_cmpuint (low_occupancy, >, 1000);

  a = analyse (&trace, 1);
  for (guint i = 0; i < chrono_analysis_get_n_ledger_rows (a); i++)
    if (chrono_analysis_get_ledger_row (a, i)->step < 0)
      window += chrono_analysis_get_ledger_row (a, i)->end_ns - chrono_analysis_get_ledger_row (a, i)->start_ns;
  for (guint i = 0; i < chrono_analysis_get_n_findings (a); i++)
    g_test_message ("%s: %s", chrono_analysis_get_finding (a, i)->rule, chrono_analysis_get_finding (a, i)->title);
  g_assert_cmpint (window, >, 0);
  g_assert_cmpint (total_lost (a) * 50, <=, window);
  /* Occupancy is a property of a kernel, not a cost. */
  for (guint i = 0; i < n_rules; i++)
    g_assert_cmpstr (rules[i].id, !=, "low-occupancy");

  g_unlink (path);
  g_rmdir (dir);
}

/* A host thread that launched work, and no device activity at all: the
 * device's time is unknown, and the analysis says so instead of "no
 * bottleneck". */
static void
test_no_device_activity (void)
{
  GString *s = g_string_new ("{\"traceEvents\":[");
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autofree char *md = NULL;
  g_autofree char *json = NULL;

  g_string_append (s, "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#0\",\"pid\":1,\"tid\":1,"
                      "\"ts\":0,\"dur\":5000}");
  for (int k = 0; k < 20; k++)
    g_string_append_printf (s, ",{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
                               "\"tid\":1,\"ts\":%d,\"dur\":5,\"args\":{\"correlation\":%d}}", 10 + 100 * k, k + 1);
  g_string_append (s, "]}");
  trace = test_load_json (s->str);
  g_string_free (s, TRUE);
  a = analyse (&trace, 1);

  g_assert_cmpuint (chrono_analysis_get_n_findings (a), ==, 0);
  g_assert_true (has_limitation (a, "no-device-activity"));
  md = chrono_analysis_to_markdown (a);
  g_assert_nonnull (strstr (md, "no device activity"));
  json = chrono_analysis_to_json (a);
  g_assert_nonnull (strstr (json, "\"no-device-activity\""));
}

/* A CUDA-graph step: twenty graph launches, two kernels recorded. The
 * device looks idle between them but ran the graphs' kernels: no idle
 * time may be counted as lost. */
static void
test_graph_capture (void)
{
  GString *s = g_string_new ("{\"traceEvents\":[");
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;

  g_string_append (s, "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#0\",\"pid\":1,\"tid\":1,"
                      "\"ts\":0,\"dur\":5000}");
  for (int k = 0; k < 20; k++)
    g_string_append_printf (s, ",{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaGraphLaunch\",\"pid\":1,"
                               "\"tid\":1,\"ts\":%d,\"dur\":5,\"args\":{\"correlation\":%d}}", 10 + 200 * k, k + 1);
  for (int k = 0; k < 2; k++)
    g_string_append_printf (s, ",{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"void at::native::vectorized_elementwise_kernel<4>\","
                               "\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":20,\"args\":{\"correlation\":%d,\"stream\":7,"
                               "\"device\":0}}", 20 + 3800 * k, 1 + 19 * k);
  g_string_append (s, ",{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"GPU 0\"}}]}");
  trace = test_load_json (s->str);
  g_string_free (s, TRUE);
  a = analyse (&trace, 1);

  g_assert_true (has_limitation (a, "missing-device-activity"));
  for (guint i = 0; i < chrono_analysis_get_n_findings (a); i++)
    g_test_message ("unexpected: %s", chrono_analysis_get_finding (a, i)->title);
  g_assert_cmpuint (chrono_analysis_get_n_findings (a), ==, 0);
  /* The ledger still says what the trace shows. */
  g_assert_cmpint (chrono_analysis_get_ledger_row (a, 0)->state_ns[CHRONO_LEDGER_IDLE_HOST], >, 0);
}

/* A real trace cut short: what it holds is analysed, and the cut is said
 * in the report. */
static void
test_truncated (void)
{
  g_autoptr(GPtrArray) files = test_traces_list ();
  g_autofree char *text = NULL;
  gsize len;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *md = NULL;
  const char *path = NULL;

  if (files == NULL)
    return;
  for (guint i = 0; i < files->len && path == NULL; i++)
    if (g_str_has_suffix (files->pdata[i], "param__dlrm_8rank__worker0_step_12.1694128201545.pt.trace.json"))
      path = files->pdata[i];
  if (path == NULL)
    {
      g_test_skip ("no DLRM rank 0 trace");
      return;
    }
  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  bytes = g_bytes_new (text, len * 2 / 3);
  trace = chrono_trace_load_bytes (bytes, "cut.json", &error);
  g_assert_no_error (error);
  g_assert_true (chrono_trace_get_stats (trace)->truncated);
  a = analyse (&trace, 1);
  g_assert_true (has_limitation (a, "truncated"));
  md = chrono_analysis_to_markdown (a);
  g_assert_nonnull (strstr (md, "cut short"));
}

/* Ten bf16 GEMMs of 4096³ on an H100, each taking DUR_US. */
static ChronoTrace *
gemm_trace (gint64 dur_us)
{
  GString *s = g_string_new ("{\"deviceProperties\":[{\"id\":0,\"name\":\"NVIDIA H100 80GB HBM3\"}],"
                             "\"traceEvents\":[");
  ChronoTrace *trace;

  g_string_append (s, "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#0\",\"pid\":1,"
                      "\"tid\":1,\"ts\":0,\"dur\":100}");
  for (int k = 0; k < 10; k++)
    {
      gint64 t = 10 + k * 5;
      g_string_append_printf (s, ",{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,"
                                 "\"ts\":%" G_GINT64_FORMAT ",\"dur\":4,\"args\":{\"Input Dims\":[[4096, 4096], [4096, 4096]],"
                                 "\"Input type\":[\"c10::BFloat16\", \"c10::BFloat16\"]}}", t);
      g_string_append_printf (s, ",{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
                                 "\"tid\":1,\"ts\":%" G_GINT64_FORMAT ",\"dur\":2,\"args\":{\"correlation\":%d}}", t + 1, k + 1);
      g_string_append_printf (s, ",{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_"
                                 "tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas\",\"pid\":0,"
                                 "\"tid\":7,\"ts\":%" G_GINT64_FORMAT ",\"dur\":%" G_GINT64_FORMAT ",\"args\":{\"correlation\":%d,"
                                 "\"stream\":7,\"device\":0}}", 100 + k * (dur_us + 2), dur_us, k + 1);
    }
  g_string_append (s, ",{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"GPU 0\"}}"
                      ",{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":0,\"args\":{\"labels\":\"GPU 0\"}}]}");
  trace = test_load_json (s->str);
  g_string_free (s, TRUE);
  return trace;
}

/* A GEMM at a fifth of an H100's peak is named, and costs its time over
 * the roofline; one at two thirds of the peak is not. */
static void
test_low_efficiency (void)
{
  for (guint pass = 0; pass < 2; pass++)
    {
      /* 2·4096³ FLOPs take about 140 µs at the bf16 peak. */
      g_autoptr(ChronoTrace) trace = gemm_trace (pass == 0 ? 700 : 210);
      g_autoptr(ChronoAnalysis) a = analyse (&trace, 1);
      const ChronoEfficiencyRow *row;
      const ChronoFinding *f = NULL;

      g_assert_cmpuint (chrono_analysis_get_n_efficiency (a), ==, 1);
      row = chrono_analysis_get_efficiency (a, 0);
      g_assert_true (row->has_roofline);
      g_assert_cmpfloat (row->flops, ==, 2.0 * 4096 * 4096 * 4096);
      g_assert_cmpint (row->gpu_time_ns, ==, 10 * (pass == 0 ? 700 : 210) * 1000);
      for (guint i = 0; i < chrono_analysis_get_n_findings (a); i++)
        if (g_str_equal (chrono_analysis_get_finding (a, i)->rule, "low-efficiency"))
          f = chrono_analysis_get_finding (a, i);
      if (pass == 1)
        {
          g_assert_cmpfloat (row->roofline_share, >, 0.5);
          g_assert_null (f);
          continue;
        }
      g_assert_cmpfloat (row->roofline_share, <, 0.25);
      g_assert_nonnull (f);
      g_assert_cmpint (f->time_lost_ns, ==, row->gpu_time_ns - row->roofline_ns);
      g_assert_nonnull (strstr (f->title, "aten::mm"));
    }
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

/* What each finding and ledger row says, keyed by rank, not by index. */
static GPtrArray *
describe (ChronoAnalysis *a)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < chrono_analysis_get_n_findings (a); i++)
    {
      const ChronoFinding *f = chrono_analysis_get_finding (a, i);
      g_ptr_array_add (lines, g_strdup_printf ("finding %s rank %d lost %" G_GINT64_FORMAT " at %" G_GINT64_FORMAT,
                                               f->rule, chrono_analysis_get_rank (a, f->rank)->rank,
                                               f->time_lost_ns, f->start_ns));
    }
  for (guint i = 0; i < chrono_analysis_get_n_ledger_rows (a); i++)
    {
      const ChronoLedgerRow *r = chrono_analysis_get_ledger_row (a, i);
      GString *line = g_string_new (NULL);

      g_string_printf (line, "ledger rank %d device %d step %s", chrono_analysis_get_rank (a, r->rank)->rank,
                       chrono_analysis_get_breakdown (a, r->breakdown)->device, r->name ? r->name : "-");
      for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
        g_string_append_printf (line, " %" G_GINT64_FORMAT, r->state_ns[k]);
      g_string_append_printf (line, " recoverable %" G_GINT64_FORMAT, r->recoverable_ns);
      g_ptr_array_add (lines, g_string_free (line, FALSE));
    }
  g_ptr_array_sort (lines, compare_strings);
  return lines;
}

/* The eight DLRM ranks merged into one document, as the app opens a
 * folder, are analysed as the ranks they are: the same findings, ledger
 * and stragglers as the eight files given apart. */
static void
test_merged_ranks (void)
{
  g_autoptr(GPtrArray) files = test_traces_list ();
  g_autoptr(GPtrArray) ranks = g_ptr_array_new ();
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(ChronoTrace) merged = NULL;
  g_autoptr(ChronoAnalysis) apart = NULL;
  g_autoptr(ChronoAnalysis) together = NULL;
  g_autoptr(GPtrArray) a = NULL;
  g_autoptr(GPtrArray) b = NULL;
  g_autoptr(GError) error = NULL;
  guint stragglers = 0;

  if (files == NULL)
    return;
  for (guint i = 0; i < files->len; i++)
    if (strstr (files->pdata[i], "param__dlrm_8rank__worker") != NULL)
      g_ptr_array_add (ranks, files->pdata[i]);
  if (ranks->len != 8)
    {
      g_test_skip ("the 8-rank set is not complete");
      return;
    }
  for (guint i = 0; i < ranks->len; i++)
    {
      ChronoTrace *t = chrono_trace_load_file (ranks->pdata[i], NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_ptr_array_add (traces, t);
    }
  apart = analyse ((ChronoTrace **) traces->pdata, traces->len);
  g_ptr_array_add (ranks, NULL);
  merged = chrono_trace_load_set ((const char * const *) ranks->pdata, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  together = analyse (&merged, 1);

  g_assert_cmpuint (chrono_analysis_get_n_ranks (together), ==, 8);
  for (guint i = 0; i < 8; i++)
    {
      g_assert_cmpint (chrono_analysis_get_rank (together, i)->rank, ==, (gint) i);
      g_assert_cmpstr (chrono_analysis_get_rank (together, i)->label, ==,
                       chrono_analysis_get_rank (apart, i)->label);
    }
  a = describe (apart);
  b = describe (together);
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    g_assert_cmpstr (a->pdata[i], ==, b->pdata[i]);
  for (guint i = 0; i < chrono_analysis_get_n_findings (together); i++)
    stragglers += g_str_equal (chrono_analysis_get_finding (together, i)->rule, "collective-straggler");
  g_assert_cmpuint (stragglers, >, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ledger/hopper-clean", test_hopper_clean);
  g_test_add_func ("/ledger/no-device-activity", test_no_device_activity);
  g_test_add_func ("/ledger/graph-capture", test_graph_capture);
  g_test_add_func ("/ledger/truncated", test_truncated);
  g_test_add_func ("/ledger/merged-ranks", test_merged_ranks);
  g_test_add_func ("/ledger/low-efficiency", test_low_efficiency);
  return g_test_run ();
}
