/* test-analysis.c: the analyses on traces with planted bottlenecks of
 * known size and place, on a clean trace, and on the real traces
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "chrono-analysis.h"
#include "chrono-loader.h"
#include "neuron-gen.h"
#include "test-gen.h"
#include "test-utils.h"

#define US 1000

/* ------------------------------------------------------------------ */

/* Invariants every result keeps, whatever the trace. */
static void
check_consistency (ChronoAnalysis *a)
{
  for (guint i = 0; i < chrono_analysis_get_n_breakdowns (a); i++)
    {
      const ChronoBreakdown *b = chrono_analysis_get_breakdown (a, i);

      g_assert_cmpint (b->busy_ns + b->idle_ns, ==, b->end_ns - b->start_ns);
      g_assert_cmpint (b->idle_ns, >=, 0);
      g_assert_cmpint (b->compute_ns + b->communication_ns + b->memcpy_ns + b->memset_ns, >=, b->busy_ns);
      g_assert_cmpint (b->overlap_ns, <=, MIN (b->compute_ns, b->communication_ns));
      /* Gaps are counted once each, by the work that ends them. */
      g_assert_cmpint (b->idle_host_wait_ns + b->idle_kernel_wait_ns + b->idle_other_ns, ==, b->idle_ns);
    }
  for (guint i = 0; i < chrono_analysis_get_n_paths (a); i++)
    {
      const ChronoCriticalPath *p = chrono_analysis_get_path (a, i);
      gint64 sum = 0, at = p->start_ns;

      for (guint c = 0; c < CHRONO_N_PATH_CATEGORIES; c++)
        sum += p->by_category[c];
      g_assert_cmpint (sum, ==, p->total_ns);
      g_assert_cmpint (p->total_ns, ==, p->end_ns - p->start_ns);
      for (guint k = 0; k < p->n_segments; k++)
        {
          g_assert_cmpint (p->segments[k].start_ns, ==, at);
          g_assert_cmpint (p->segments[k].end_ns, >, p->segments[k].start_ns);
          at = p->segments[k].end_ns;
        }
      g_assert_cmpint (at, ==, p->end_ns);
    }
  {
    /* Each device's findings claim at most its window, and each finding's
     * claims add up to its time lost. */
    g_autofree gint64 *claimed = g_new0 (gint64, chrono_analysis_get_n_breakdowns (a));

    for (guint i = 0; i < chrono_analysis_get_n_findings (a); i++)
      {
        const ChronoFinding *f = chrono_analysis_get_finding (a, i);
        gint64 sum = 0;

        for (guint k = 0; k < f->n_shares; k++)
          {
            g_assert_cmpuint (f->shares[k].breakdown, <, chrono_analysis_get_n_breakdowns (a));
            claimed[f->shares[k].breakdown] += f->shares[k].ns;
            sum += f->shares[k].ns;
          }
        g_assert_cmpint (sum, ==, f->time_lost_ns);
        g_assert_cmpuint (f->rank, <, chrono_analysis_get_n_ranks (a));
      }
    for (guint i = 0; i < chrono_analysis_get_n_ledger_rows (a); i++)
      {
        const ChronoLedgerRow *r = chrono_analysis_get_ledger_row (a, i);
        const ChronoBreakdown *b = chrono_analysis_get_breakdown (a, r->breakdown);
        gint64 sum = 0;

        for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
          {
            g_assert_cmpint (r->state_ns[k], >=, 0);
            sum += r->state_ns[k];
          }
        g_assert_cmpint (sum, ==, r->end_ns - r->start_ns);
        g_assert_cmpint (r->recoverable_ns, <=, r->end_ns - r->start_ns);
        if (r->step < 0)
          {
            /* The work states are the busy time, the idle states the idle time. */
            g_assert_cmpint (r->state_ns[CHRONO_LEDGER_COMPUTE] + r->state_ns[CHRONO_LEDGER_COMMUNICATION] +
                             r->state_ns[CHRONO_LEDGER_COPY] + r->state_ns[CHRONO_LEDGER_IDLE_PEER], ==, b->busy_ns);
            g_assert_cmpint (r->state_ns[CHRONO_LEDGER_COMPUTE], ==, b->compute_ns);
            g_assert_cmpint (claimed[r->breakdown], <=, r->end_ns - r->start_ns);
            g_assert_cmpint (claimed[r->breakdown], ==, r->recoverable_ns);
          }
      }
  }
  for (guint i = 0; i < chrono_analysis_get_n_host_ledger_rows (a); i++)
    {
      const ChronoHostLedgerRow *r = chrono_analysis_get_host_ledger_row (a, i);
      g_assert_cmpint (r->sync_ns, >=, 0);
      g_assert_cmpint (r->data_loading_ns, >=, 0);
      g_assert_cmpint (r->launch_ns, >=, 0);
      g_assert_cmpint (r->running_ns, >=, 0);
      g_assert_cmpint (r->untraced_ns, >=, 0);
      g_assert_cmpint (r->sync_ns + r->data_loading_ns + r->launch_ns + r->running_ns + r->untraced_ns, ==,
                       r->end_ns - r->start_ns);
    }
  for (guint i = 0; i < chrono_analysis_get_n_findings (a); i++)
    {
      const ChronoFinding *f = chrono_analysis_get_finding (a, i);
      g_assert_cmpint (f->end_ns, >=, f->start_ns);
      g_assert_cmpint (f->time_lost_ns, >, 0);
      if (f->n_tracks == 0)
        g_test_message ("%s has no tracks", f->rule);
      g_assert_cmpuint (f->n_tracks, >, 0);
      if (i > 0)
        g_assert_cmpint (f->time_lost_ns, <=, chrono_analysis_get_finding (a, i - 1)->time_lost_ns);
    }
}

/* Runs the analyses and checks the invariants of the result. */
static ChronoAnalysis *
analyse (ChronoTrace **traces,
         guint         n)
{
  g_autoptr(GError) error = NULL;
  ChronoAnalysis *a = chrono_analysis_run (traces, n, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (a);
  check_consistency (a);
  return a;
}

static guint
count_rule (ChronoAnalysis *a,
            const char     *rule)
{
  guint n = 0;

  for (guint i = 0; i < chrono_analysis_get_n_findings (a); i++)
    n += strcmp (chrono_analysis_get_finding (a, i)->rule, rule) == 0;
  return n;
}

static const ChronoFinding *
find_rule (ChronoAnalysis *a,
           const char     *rule)
{
  for (guint i = 0; i < chrono_analysis_get_n_findings (a); i++)
    if (strcmp (chrono_analysis_get_finding (a, i)->rule, rule) == 0)
      return chrono_analysis_get_finding (a, i);
  return NULL;
}

static void
test_clean (void)
{
  Gen g;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  const ChronoBreakdown *device;

  gen_init (&g);
  for (guint n = 0; n < 4; n++)
    gen_busy_step (&g, n, 0);
  trace = gen_finish (&g, "clean.json", 0);
  a = analyse (&trace, 1);

  for (guint i = 0; i < chrono_analysis_get_n_findings (a); i++)
    g_test_message ("unexpected: %s", chrono_analysis_get_finding (a, i)->title);
  g_assert_cmpuint (chrono_analysis_get_n_findings (a), ==, 0);

  /* 80 kernels of 49 µs with 1 µs gaps between them. */
  g_assert_cmpuint (chrono_analysis_get_n_breakdowns (a), ==, 2);
  device = chrono_analysis_get_breakdown (a, 0);
  g_assert_cmpuint (device->where.track, ==, CHRONO_NO_TRACK);
  g_assert_cmpint (device->busy_ns, ==, 80 * 49 * US);
  g_assert_cmpint (device->idle_ns, ==, 79 * US);
  g_assert_cmpint (device->compute_ns, ==, device->busy_ns);
  g_assert_cmpuint (device->n_kernels, ==, 80);

  /* The path of each step is the device's work: its 20 kernels, and in
   * later steps the first 9 µs, when the last kernel of the step before
   * still runs. */
  g_assert_cmpuint (chrono_analysis_get_n_paths (a), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      const ChronoCriticalPath *p = chrono_analysis_get_path (a, i);
      g_assert_cmpint (p->by_category[CHRONO_PATH_DEVICE_COMPUTE], ==, (20 * 49 + (i ? 9 : 0)) * US);
      g_assert_cmpint (p->by_category[CHRONO_PATH_HOST_COMPUTE], <=, 2 * US);
    }
}

static void
test_planted_gap (void)
{
  Gen g;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  const ChronoFinding *f;
  const ChronoLedgerRow *ledger;

  /* Step 1 loads data for 400 µs before it launches anything. */
  gen_data_loading (&g);
  trace = gen_finish (&g, "gap.json", 0);
  a = analyse (&trace, 1);

  /* Step 0's work ends at 1009 µs, step 1's begins at 1410 µs, launched
   * at 1402 µs. The loader ran 1000–1400 µs; its first 9 µs overlapped
   * step 0's last kernel, so the device lost 391 µs to it. */
  ledger = chrono_analysis_get_ledger_row (a, 0);
  g_assert_cmpint (ledger->step, ==, -1);
  g_assert_cmpint (ledger->state_ns[CHRONO_LEDGER_IDLE_DATA], ==, 391 * US);
  g_assert_cmpint (ledger->state_ns[CHRONO_LEDGER_IDLE_HOST], ==, 2 * US);
  /* The 8 µs from the launch to the kernel, and the 1 µs gaps between
   * kernels launched ahead: step 1's late kernels run in time with step
   * 2's first eight, so 70 gaps remain of 79. */
  g_assert_cmpint (ledger->state_ns[CHRONO_LEDGER_IDLE_LAUNCH], ==, (8 + 70) * US);
  g_assert_cmpint (ledger->state_ns[CHRONO_LEDGER_COMPUTE], ==, 72 * 49 * US);

  /* The launching thread spent the 400 µs in the loader. */
  g_assert_cmpuint (chrono_analysis_get_n_host_ledger_rows (a), ==, 1);
  g_assert_cmpint (chrono_analysis_get_host_ledger_row (a, 0)->data_loading_ns, ==, 400 * US);

  f = find_rule (a, "data-loading");
  g_assert_nonnull (f);
  g_assert_cmpint (f->time_lost_ns, ==, 391 * US);
  g_assert_cmpint (f->start_ns, ==, 1000 * US);
  g_assert_cmpuint (count_rule (a, "data-loading"), ==, 1);

  /* The idle gap and the slow step (1409 µs against a median of 1009 µs)
   * are what the data loading left: explained, they cost nothing more. */
  g_assert_cmpuint (count_rule (a, "gpu-idle-gap"), ==, 0);
  g_assert_cmpuint (count_rule (a, "slow-step"), ==, 0);
  g_assert_cmpuint (count_rule (a, "low-utilization"), ==, 0);

  /* The idle device time shows as host wait in the breakdown. */
  g_assert_cmpint (chrono_analysis_get_breakdown (a, 0)->idle_host_wait_ns, >=, 401 * US);
}

static void
test_planted_launch_bound (void)
{
  Gen g;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  const ChronoFinding *f;

  gen_init (&g);
  gen_busy_step (&g, 0, 0);
  /* 30 kernels of 2 µs, launched every 20 µs: the device waits 18 µs
   * for each. */
  gen_step (&g, 1, 1000);
  for (int k = 0; k < 30; k++)
    gen_kernel (&g, "elementwise", 1010 + 20 * k, 1015 + 20 * k, 2);
  trace = gen_finish (&g, "launch.json", 0);
  a = analyse (&trace, 1);

  f = find_rule (a, "launch-bound");
  g_assert_nonnull (f);
  g_assert_cmpuint (count_rule (a, "launch-bound"), ==, 1);
  /* The run starts when step 0's work ends at 1009 µs: a gap of 6 µs
   * before the first small kernel, then 29 of 18 µs. */
  g_assert_cmpint (f->start_ns, ==, 1009 * US);
  g_assert_cmpint (f->end_ns, ==, (1015 + 20 * 29 + 2) * US);
  g_assert_cmpint (f->time_lost_ns, ==, (6 + 29 * 18) * US);
  g_assert_cmpfloat (f->evidence[0].value, ==, 30);

  /* Step 1 waits for the host, but the launches explain all of it: no
   * second finding claims the same gaps. */
  g_assert_cmpuint (chrono_analysis_get_n_paths (a), ==, 2);
  g_assert_cmpuint (count_rule (a, "host-bound"), ==, 0);
  g_assert_cmpuint (count_rule (a, "gpu-idle-gap"), ==, 0);
}

/* Ten 100 µs kernels, each launched 300 µs after the one before ended:
 * the host sets the pace with long kernels, not launch-bound. */
static void
test_planted_host_bound (void)
{
  Gen g;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  const ChronoFinding *f;

  gen_host_paced (&g, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_"
                      "segment_k_off_kernel__5x_cublas");
  trace = gen_finish (&g, "host-bound.json", 0);
  a = analyse (&trace, 1);

  f = find_rule (a, "host-bound");
  g_assert_nonnull (f);
  g_assert_cmpuint (count_rule (a, "host-bound"), ==, 1);
  g_assert_cmpint (f->start_ns, ==, 1000 * US);
  /* From step 0's end at 1009 µs to the first kernel at 1309 µs, then
   * nine gaps of 300 µs: all of it waiting for the host and the launch. */
  g_assert_cmpint (f->time_lost_ns, ==, 10 * 300 * US);
  g_assert_cmpuint (count_rule (a, "launch-bound"), ==, 0);
  g_assert_cmpuint (count_rule (a, "gpu-idle-gap"), ==, 0);
  g_assert_cmpuint (count_rule (a, "low-utilization"), ==, 0);
}

/* A kernel queued behind the one before it on its stream waits for the
 * device, however late its launch call returned. */
static void
test_path_queued (void)
{
  Gen g;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  const ChronoCriticalPath *p;

  gen_init (&g);
  gen_event (&g, "user_annotation", "ProfilerStep#0", 100, 100, 0, 50, "");
  /* Three 200 µs kernels launched at 10, 20 and 30 µs. The second call
   * returns only at 250 µs, after its kernel started at 220 µs, 5 µs
   * after the first ended: it was queued, and waited for the device. */
  gen_kernel (&g, "gemm", 10, 15, 200);
  g.corr++;
  gen_event (&g, "cuda_runtime", "cudaLaunchKernel", 100, 100, 20, 230,
             "\"correlation\":2");
  gen_event (&g, "kernel", "gemm", 0, 7, 220, 200, "\"correlation\":2,\"stream\":7,\"device\":0");
  gen_kernel (&g, "gemm", 30, 420, 200);
  trace = gen_finish (&g, "queued.json", 0);
  a = analyse (&trace, 1);

  /* The kernels, the first launch (10–15 µs) and the host before it. */
  p = chrono_analysis_get_path (a, 0);
  g_assert_cmpint (p->end_ns, ==, 620 * US);
  g_assert_cmpint (p->by_category[CHRONO_PATH_DEVICE_COMPUTE], ==, 600 * US);
  g_assert_cmpint (p->by_category[CHRONO_PATH_LAUNCH_OVERHEAD], ==, 5 * US);
  g_assert_cmpint (p->by_category[CHRONO_PATH_HOST_COMPUTE], ==, 10 * US);
  g_assert_cmpuint (count_rule (a, "host-bound"), ==, 0);
}

static void
test_planted_sync (void)
{
  Gen g;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autoptr(ChronoSubgraph) graph = NULL;
  const ChronoFinding *f;
  gboolean sync_edge = FALSE;

  gen_init (&g);
  gen_busy_step (&g, 0, 0);
  /* The host waits from 100 µs until the 20th kernel ends at 1009 µs:
   * the device works all along, so the wait alone costs nothing. */
  gen_event (&g, "cuda_runtime", "cudaDeviceSynchronize", 100, 100, 100, 910, "");
  trace = gen_finish (&g, "sync-busy.json", 0);
  a = analyse (&trace, 1);
  g_assert_cmpuint (count_rule (a, "device-sync"), ==, 0);
  g_clear_object (&a);
  g_clear_object (&trace);

  /* Then the host prepares step 1 and launches it at 1252 µs: the device,
   * its queue drained by the synchronisation, idles from 1009 µs. */
  gen_init (&g);
  gen_busy_step (&g, 0, 0);
  gen_event (&g, "cuda_runtime", "cudaDeviceSynchronize", 100, 100, 100, 910, "");
  gen_busy_step (&g, 1, 250);
  trace = gen_finish (&g, "sync.json", 0);
  a = analyse (&trace, 1);

  f = find_rule (a, "device-sync");
  g_assert_nonnull (f);
  g_assert_cmpint (f->start_ns, ==, 100 * US);
  g_assert_cmpint (f->end_ns, ==, 1252 * US);
  g_assert_cmpint (f->time_lost_ns, ==, (1252 - 1009) * US);
  g_assert_true (f->has_node);
  g_assert_cmpint (chrono_analysis_get_ledger_row (a, 0)->state_ns[CHRONO_LEDGER_IDLE_SYNC], ==, 243 * US);

  /* The call waited for the last kernel. */
  graph = chrono_analysis_dup_neighbourhood (a, f->node, 1, 32);
  for (guint i = 0; i < graph->edges->len; i++)
    {
      const ChronoGraphEdge *e = &g_array_index (graph->edges, ChronoGraphEdge, i);
      const ChronoGraphNode *from = &g_array_index (graph->nodes, ChronoGraphNode, e->from);
      if (e->type == CHRONO_EDGE_SYNC && e->to == 0)
        {
          g_assert_cmpint (from->end_ns, ==, 1009 * US);
          sync_edge = TRUE;
        }
    }
  g_assert_true (sync_edge);
}

static void
test_neighbourhood (void)
{
  Gen g;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autoptr(ChronoSubgraph) graph = NULL;
  guint kernel_track = G_MAXUINT;
  guint seen[CHRONO_N_EDGE_TYPES] = { 0 };

  gen_init (&g);
  gen_busy_step (&g, 0, 0);
  trace = gen_finish (&g, "graph.json", 0);
  a = analyse (&trace, 1);

  for (guint i = 0; i < chrono_trace_get_n_tracks (trace); i++)
    if (chrono_trace_get_track (trace, i)->type == CHRONO_TRACK_STREAM)
      kernel_track = i;
  g_assert_cmpuint (kernel_track, !=, G_MAXUINT);

  /* The fifth kernel: launched by a call, between two kernels. */
  graph = chrono_analysis_dup_neighbourhood (a, (ChronoNodeRef) { 0, { kernel_track, 4 } }, 2, 50);
  g_assert_cmpuint (graph->nodes->len, >, 3);
  for (guint i = 0; i < graph->edges->len; i++)
    {
      const ChronoGraphEdge *e = &g_array_index (graph->edges, ChronoGraphEdge, i);
      g_assert_cmpuint (e->from, <, graph->nodes->len);
      g_assert_cmpuint (e->to, <, graph->nodes->len);
      seen[e->type]++;
    }
  g_assert_cmpuint (seen[CHRONO_EDGE_LAUNCH], >=, 1);
  g_assert_cmpuint (seen[CHRONO_EDGE_STREAM_ORDER], >=, 2);
  /* Two hops reach the step that the launching call is nested in. */
  g_assert_cmpuint (seen[CHRONO_EDGE_NESTING], >=, 1);
  g_assert_true (g_array_index (graph->nodes, ChronoGraphNode, 0).on_critical_path);
}

static void
test_straggler (void)
{
  ChronoTrace *traces[2];
  g_autoptr(ChronoAnalysis) a = NULL;
  const ChronoFinding *f;

  for (int r = 0; r < 2; r++)
    {
      Gen g;
      gen_init (&g);
      for (guint n = 0; n < 3; n++)
        {
          gen_busy_step (&g, 4 * n, 0);
          /* After each step's computation, an all-reduce that rank 1
           * reaches 1.5 ms late: rank 0's waits inside it until then. */
          gen_work (&g, "kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 8, n * 4000 + 1020,
                    n * 4000 + 1100 + r * 1500, r ? 5 : 1505, "");
        }
      traces[r] = gen_finish (&g, r ? "rank1.json" : "rank0.json", r);
    }
  a = analyse (traces, 2);

  f = find_rule (a, "collective-straggler");
  g_assert_nonnull (f);
  g_assert_cmpuint (count_rule (a, "collective-straggler"), ==, 1);
  g_assert_cmpuint (f->tracks[0].trace, ==, 1);
  g_assert_cmpuint (f->rank, ==, 1);
  /* Rank 0's device time, waiting for rank 1. */
  g_assert_cmpint (f->time_lost_ns, ==, 3 * 1500 * US);
  g_assert_cmpuint (f->n_shares, ==, 1);
  g_assert_cmpuint (chrono_analysis_get_breakdown (a, f->shares[0].breakdown)->rank, ==, 0);
  g_object_unref (traces[0]);
  g_object_unref (traces[1]);
}

static void
test_planted_copies (void)
{
  Gen g;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  const ChronoFinding *f;

  gen_init (&g);
  gen_busy_step (&g, 0, 0);
  /* Step 1 copies 25 scalars of 64 bytes, 10 µs each, and computes nothing. */
  gen_step (&g, 1, 1000);
  for (int k = 0; k < 25; k++)
    gen_work (&g, "gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 7, 1010 + 20 * k, 1012 + 20 * k, 10, ",\"bytes\":64");
  /* A large copy is not small. */
  gen_work (&g, "gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 7, 1600, 1602, 10, ",\"bytes\":1048576");
  trace = gen_finish (&g, "copies.json", 0);
  a = analyse (&trace, 1);

  f = find_rule (a, "small-copies");
  g_assert_nonnull (f);
  g_assert_cmpint (f->time_lost_ns, ==, 250 * US);
  g_assert_cmpint (f->start_ns, ==, 1012 * US);
  g_assert_cmpint (f->end_ns, ==, (1012 + 20 * 24 + 10) * US);
  g_assert_cmpfloat (f->evidence[0].value, ==, 25);
  /* The stream the copies ran on, once. */
  g_assert_cmpuint (f->n_tracks, ==, 1);
  g_assert_cmpstr (chrono_trace_get_string (trace, chrono_trace_get_track (trace, f->tracks[0].track)->display_name),
                   ==, "stream 7");

  /* The small copies claimed theirs; the large one is what is left. */
  f = find_rule (a, "exposed-copies");
  g_assert_nonnull (f);
  g_assert_cmpint (f->time_lost_ns, ==, 10 * US);
  g_assert_cmpuint (f->n_tracks, ==, 1);
  g_assert_cmpstr (chrono_trace_get_string (trace, chrono_trace_get_track (trace, f->tracks[0].track)->display_name),
                   ==, "stream 7");
  g_assert_cmpint (chrono_analysis_get_breakdown (a, 0)->memcpy_ns, ==, 260 * US);
}

static void
test_planted_collective_outlier (void)
{
  Gen g;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  const ChronoFinding *f;

  gen_init (&g);
  /* Six all-reduces of 10 µs after the steps' computation, one of them
   * 50 µs; and one slow one hidden under computation, which costs nothing. */
  for (guint n = 0; n < 6; n++)
    {
      gen_busy_step (&g, 2 * n, 0);
      gen_work (&g, "kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 8, n * 2000 + 1020, n * 2000 + 1100,
                n == 4 ? 50 : 10, "");
    }
  gen_work (&g, "kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 8, 10000, 10100, 60, "");
  trace = gen_finish (&g, "outlier.json", 0);
  a = analyse (&trace, 1);

  f = find_rule (a, "collective-outlier");
  g_assert_nonnull (f);
  g_assert_cmpuint (count_rule (a, "collective-outlier"), ==, 1);
  g_assert_cmpint (f->start_ns, ==, 9100 * US);
  g_assert_cmpint (f->end_ns, ==, 10160 * US);
  /* 40 µs over the median, and of the hidden one only the two 1 µs gaps
   * between the kernels it runs beside. */
  g_assert_cmpint (f->time_lost_ns, ==, (40 + 2) * US);
}

static void
test_planted_dependency (void)
{
  Gen g;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  const ChronoFinding *f;
  const ChronoCriticalPath *p;
  gboolean crosses = FALSE;

  gen_init (&g);
  /* No step: the path covers the whole trace. Stream 7 copies until
   * 600 µs; stream 8 runs 100–150 µs, then its next kernel, launched at
   * 160 µs, depends on stream 7's copy and starts at 600 µs: it waited
   * 440 µs from its launch, with no computation running. */
  gen_work (&g, "gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 7, 10, 20, 580, "");
  gen_work (&g, "kernel", "early", 8, 90, 100, 50, "");
  gen_work (&g, "kernel", "consumer", 8, 160, 600, 100, "");
  g_string_append (g.s, ",\n{\"ph\":\"s\",\"id\":77,\"pid\":0,\"tid\":7,\"ts\":599,\"cat\":\"dep\",\"name\":\"dep\"}");
  g_string_append (g.s, ",\n{\"ph\":\"f\",\"bp\":\"e\",\"id\":77,\"pid\":0,\"tid\":8,\"ts\":600,\"cat\":\"dep\",\"name\":\"dep\"}");
  trace = gen_finish (&g, "dependency.json", 0);
  a = analyse (&trace, 1);

  f = find_rule (a, "dependency-wait");
  g_assert_nonnull (f);
  g_assert_cmpint (f->start_ns, ==, 160 * US);
  g_assert_cmpint (f->end_ns, ==, 600 * US);
  g_assert_cmpint (f->time_lost_ns, ==, 440 * US);

  /* The critical path goes from the consumer back to the producer. */
  g_assert_cmpuint (chrono_analysis_get_n_paths (a), ==, 1);
  p = chrono_analysis_get_path (a, 0);
  g_assert_cmpstr (p->name, ==, "trace");
  for (guint k = 0; k < p->n_segments; k++)
    if (p->segments[k].has_node && p->segments[k].category == CHRONO_PATH_MEMCPY &&
        p->segments[k].end_ns == 600 * US)
      crosses = TRUE;
  g_assert_true (crosses);
  g_clear_object (&a);
  g_clear_object (&trace);

  /* With a kernel as the producer the device computes all along: the
   * wait shows on the path but costs no device time. */
  gen_init (&g);
  gen_kernel (&g, "producer", 10, 20, 580);
  gen_work (&g, "kernel", "early", 8, 90, 100, 50, "");
  gen_work (&g, "kernel", "consumer", 8, 160, 600, 100, "");
  g_string_append (g.s, ",\n{\"ph\":\"s\",\"id\":77,\"pid\":0,\"tid\":7,\"ts\":599,\"cat\":\"dep\",\"name\":\"dep\"}");
  g_string_append (g.s, ",\n{\"ph\":\"f\",\"bp\":\"e\",\"id\":77,\"pid\":0,\"tid\":8,\"ts\":600,\"cat\":\"dep\",\"name\":\"dep\"}");
  trace = gen_finish (&g, "dependency-busy.json", 0);
  a = analyse (&trace, 1);
  g_assert_cmpuint (count_rule (a, "dependency-wait"), ==, 0);
}

/* Only what falls in the range is analysed. */
static void
test_range (void)
{
  Gen g;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autoptr(GError) error = NULL;
  ChronoAnalysisOptions options;
  const ChronoBreakdown *device;

  gen_init (&g);
  gen_busy_step (&g, 0, 0);
  gen_busy_step (&g, 1, 400);
  gen_busy_step (&g, 2, 0);
  gen_busy_step (&g, 3, 0);
  trace = gen_finish (&g, "range.json", 0);

  /* Step 3, after the planted gap. */
  chrono_analysis_options_init (&options);
  options.range_start_ns = 3000 * US;
  options.range_end_ns = 4000 * US;
  a = chrono_analysis_run (&trace, 1, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_rule (a, "gpu-idle-gap"), ==, 0);
  g_assert_cmpuint (count_rule (a, "slow-step"), ==, 0);
  g_assert_cmpuint (chrono_analysis_get_n_paths (a), ==, 1);
  g_assert_cmpstr (chrono_analysis_get_path (a, 0)->name, ==, "ProfilerStep#3");
  device = chrono_analysis_get_breakdown (a, 0);
  /* Work is cut at the range: step 2's last kernel runs until 3009 µs,
   * step 3's last one from 3960 µs. */
  g_assert_cmpint (device->start_ns, ==, 3000 * US);
  g_assert_cmpint (device->end_ns, ==, 4000 * US);
  g_assert_cmpint (device->busy_ns, ==, (9 + 19 * 49 + 40) * US);
  g_clear_object (&a);

  /* Inside one step, that step's path is cut to the range. */
  options.range_start_ns = 2100 * US;
  options.range_end_ns = 2200 * US;
  a = chrono_analysis_run (&trace, 1, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_analysis_get_n_paths (a), ==, 1);
  g_assert_cmpstr (chrono_analysis_get_path (a, 0)->name, ==, "ProfilerStep#2");
  g_assert_cmpint (chrono_analysis_get_path (a, 0)->start_ns, ==, 2100 * US);
  g_assert_cmpint (chrono_analysis_get_path (a, 0)->end_ns, ==, 2200 * US);
}

/* The same without the flow: the trace does not say why the consumer
 * waited, and the path infers the wait from the timing. */
static void
test_inferred_wait (void)
{
  Gen g;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  const ChronoCriticalPath *p;

  gen_init (&g);
  gen_kernel (&g, "producer", 10, 20, 580);
  gen_work (&g, "kernel", "early", 8, 90, 100, 50, "");
  gen_work (&g, "kernel", "consumer", 8, 160, 600, 100, "");
  trace = gen_finish (&g, "inferred.json", 0);
  a = analyse (&trace, 1);

  g_assert_cmpuint (count_rule (a, "dependency-wait"), ==, 0);
  p = chrono_analysis_get_path (a, 0);
  /* consumer 600–700, producer 20–600, its launch 10–13 and the wait for
   * it 13–20, host before. */
  g_assert_cmpint (p->by_category[CHRONO_PATH_DEVICE_COMPUTE], ==, 680 * US);
  g_assert_cmpint (p->by_category[CHRONO_PATH_LAUNCH_OVERHEAD], ==, 10 * US);
}

/* HTA's event-sync trace: stream 24 waits (cudaStreamWaitEvent) for an
 * event recorded on stream 20, so its next work (a memset) follows the
 * kernel on stream 20. */
static void
test_event_wait (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load ("hta__cp_event_sync_multistream__event_sync_trace.json.gz");
  g_autoptr(ChronoAnalysis) a = NULL;
  guint waits = 0;

  if (trace == NULL)
    return;
  a = analyse (&trace, 1);
  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);

      if (t->type != CHRONO_TRACK_STREAM)
        continue;
      for (guint32 i = 0; i < t->n_spans; i++)
        {
          g_autoptr(ChronoSubgraph) graph = NULL;

          if (t->kind[i] == CHRONO_KIND_SYNC)
            continue;
          graph = chrono_analysis_dup_neighbourhood (a, (ChronoNodeRef) { 0, { ti, i } }, 1, 64);
          for (guint e = 0; e < graph->edges->len; e++)
            {
              const ChronoGraphEdge *edge = &g_array_index (graph->edges, ChronoGraphEdge, e);
              const ChronoGraphNode *from = &g_array_index (graph->nodes, ChronoGraphNode, edge->from);
              const ChronoGraphNode *to = &g_array_index (graph->nodes, ChronoGraphNode, edge->to);
              const ChronoTrack *ft = chrono_trace_get_track (trace, from->ref.span.track);
              const ChronoTrack *tt = chrono_trace_get_track (trace, to->ref.span.track);

              if (edge->type != CHRONO_EDGE_EVENT_WAIT || edge->to != 0)
                continue;
              /* From work on stream 20 to later work on stream 24. */
              g_assert_cmpint (ft->tid.value, ==, 20);
              g_assert_cmpint (tt->tid.value, ==, 24);
              g_assert_cmpint (from->end_ns, <=, to->start_ns);
              waits++;
            }
        }
    }
  g_assert_cmpuint (waits, ==, 1);
}

/* Every real Kineto trace analyses with consistent results, and the
 * JSON is the documented schema. */
static void
test_real_traces (void)
{
  const char *dir = g_getenv ("CHRONO_TRACES_DIR");
  g_autoptr(GDir) d = NULL;
  const char *name;
  guint n = 0;

  if (dir == NULL || (d = g_dir_open (dir, 0, NULL)) == NULL)
    {
      g_test_skip ("no real traces");
      return;
    }
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = NULL;
      g_autoptr(ChronoTrace) trace = NULL;
      g_autoptr(ChronoAnalysis) a = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autofree char *json = NULL;
      g_autofree char *md = NULL;
      JsonObject *root;

      if (!g_str_has_prefix (name, "hta__") && !g_str_has_prefix (name, "kineto__") &&
          !g_str_has_prefix (name, "param__"))
        continue;
      path = g_build_filename (dir, name, NULL);
      trace = chrono_trace_load_file (path, NULL, NULL, NULL, NULL);
      if (trace == NULL)
        continue;
      a = analyse (&trace, 1);
        json = chrono_analysis_to_json (a);
      g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
      root = json_node_get_object (json_parser_get_root (parser));
      g_assert_cmpstr (json_object_get_string_member (root, "schema"), ==, "chronoscope.analysis/2");
      g_assert_true (json_object_has_member (root, "ledger"));
      g_assert_true (json_object_has_member (root, "ranks"));
      g_assert_true (json_object_has_member (root, "limitations"));
      g_assert_true (json_object_has_member (root, "breakdown"));
      g_assert_true (json_object_has_member (root, "critical_path"));
      g_assert_true (json_object_has_member (root, "findings"));
      md = chrono_analysis_to_markdown (a);
      g_assert_true (g_str_has_prefix (md, "# Where the time goes"));
      /* Titles name kernels by their short names: no return type or
       * parameter list ("void …(ncclDevComm*, unsigned long, ncclWork*)"). */
      for (guint i = 0; i < chrono_analysis_get_n_findings (a); i++)
        {
          const char *title = chrono_analysis_get_finding (a, i)->title;

          if (strstr (title, "void ") != NULL || strstr (title, "*, ") != NULL || strstr (title, "*)") != NULL)
            g_error ("%s: “%s” names a kernel as the compiler wrote it", name, title);
        }
      n++;
    }
  g_assert_cmpuint (n, >, 10);
}

/* The 8-rank DLRM set analysed as one job: every rank has its rows, and a
 * collective kernel's neighbourhood reaches its peer on every other rank. */
static void
test_real_ranks (void)
{
  const char *dir = g_getenv ("CHRONO_TRACES_DIR");
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autoptr(ChronoSubgraph) graph = NULL;
  g_autoptr(GDir) d = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  guint seen_traces = 0, peers = 0;
  ChronoTrace *first;
  ChronoNodeRef nccl = { G_MAXUINT32, { 0, 0 } };

  if (dir == NULL || (d = g_dir_open (dir, 0, NULL)) == NULL)
    {
      g_test_skip ("no real traces");
      return;
    }
  while ((name = g_dir_read_name (d)))
    if (g_str_has_prefix (name, "param__dlrm_8rank__"))
      g_ptr_array_add (names, g_build_filename (dir, name, NULL));
  if (names->len != 8)
    {
      g_test_skip ("the 8-rank set is not complete");
      return;
    }
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < names->len; i++)
    {
      ChronoTrace *t = chrono_trace_load_file (names->pdata[i], NULL, NULL, NULL, NULL);
      g_assert_nonnull (t);
      g_ptr_array_add (traces, t);
    }
  a = analyse ((ChronoTrace **) traces->pdata, traces->len);

  for (guint i = 0; i < chrono_analysis_get_n_breakdowns (a); i++)
    seen_traces |= 1u << chrono_analysis_get_breakdown (a, i)->where.trace;
  g_assert_cmpuint (seen_traces, ==, 0xff);
  g_assert_cmpuint (chrono_analysis_get_n_paths (a), ==, 8);

  first = traces->pdata[0];
  for (guint ti = 0; ti < chrono_trace_get_n_tracks (first) && nccl.trace == G_MAXUINT32; ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (first, ti);
      for (guint32 i = 0; i < t->n_spans && t->type == CHRONO_TRACK_STREAM; i++)
        if (t->kind[i] == CHRONO_KIND_COLLECTIVE)
          {
            nccl = (ChronoNodeRef) { 0, { ti, i } };
            break;
          }
    }
  g_assert_cmpuint (nccl.trace, ==, 0);
  graph = chrono_analysis_dup_neighbourhood (a, nccl, 1, 64);
  for (guint e = 0; e < graph->edges->len; e++)
    {
      const ChronoGraphEdge *edge = &g_array_index (graph->edges, ChronoGraphEdge, e);
      const ChronoGraphNode *to = &g_array_index (graph->nodes, ChronoGraphNode, edge->to);
      ChronoTrace *peer;

      if (edge->type != CHRONO_EDGE_COLLECTIVE || edge->from != 0)
        continue;
      peer = traces->pdata[to->ref.trace];
      g_assert_cmpuint (to->ref.trace, !=, 0);
      g_assert_cmpint (chrono_trace_get_track (peer, to->ref.span.track)->kind[to->ref.span.index], ==,
                       CHRONO_KIND_COLLECTIVE);
      peers++;
    }
  g_assert_cmpuint (peers, ==, 7);
}

static void
run_cli_env (const char * const *args,
             char              **envp,
             int                *status,
             char              **out,
             char              **err)
{
  const char *cli = g_getenv ("CHRONO_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  gint wait_status;

  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               out, err, &wait_status, &error));
  g_assert_no_error (error);
  *status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
}

static void
run_cli (const char * const *args,
         int                *status,
         char              **out,
         char              **err)
{
  run_cli_env (args, NULL, status, out, err);
}

/* The command line: both formats on a planted trace, and bad input. */
static void
test_cli (void)
{
  Gen g;
  g_autofree char *dir = g_dir_make_tmp ("chrono-analysis-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "gap.json", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  char *out = NULL, *err = NULL;
  int status;
  JsonArray *findings;

  if (g_getenv ("CHRONO_CLI") == NULL)
    {
      g_test_skip ("CHRONO_CLI not set");
      return;
    }
  gen_init (&g);
  gen_busy_step (&g, 0, 0);
  gen_busy_step (&g, 1, 400);
  g_string_append (g.s, "]}");
  g_assert_true (g_file_set_contents (path, g.s->str, -1, NULL));
  g_string_free (g.s, TRUE);

  run_cli ((const char *[]) { "analyze", "--format", "json", path, NULL }, &status, &out, &err);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  findings = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "findings");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (findings, 0), "rule"), ==,
                   "gpu-idle-gap");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (findings, 0), "time_lost_ns"), ==,
                   401 * US);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  run_cli ((const char *[]) { "analyze", path, NULL }, &status, &out, &err);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "| gpu-idle-gap |"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  run_cli ((const char *[]) { "analyze", "--format", "xml", path, NULL }, &status, &out, &err);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (err, "xml"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  run_cli ((const char *[]) { "analyze", "--range", "5:3", path, NULL }, &status, &out, &err);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (err, "--range"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Step 0 only: the gap after it is outside. */
  run_cli ((const char *[]) { "analyze", "--format", "json", "--range", "0:1000000", path, NULL }, &status, &out, &err);
  g_assert_cmpint (status, ==, 0);
  g_assert_null (strstr (out, "gpu-idle-gap"));
  g_assert_nonnull (strstr (out, "ProfilerStep#0"));
  g_assert_null (strstr (out, "ProfilerStep#1"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  run_cli ((const char *[]) { "analyze", missing, NULL }, &status, &out, &err);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "missing.json"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* A threshold set in GSettings: no finding costs a second. */
  if (g_getenv ("CHRONO_SCHEMA_DIR") != NULL)
    {
      g_autofree char *settings_dir = g_build_filename (dir, "glib-2.0", "settings", NULL);
      g_autofree char *keyfile = g_build_filename (settings_dir, "keyfile", NULL);
      g_auto(GStrv) envp = g_get_environ ();

      g_assert_cmpint (g_mkdir_with_parents (settings_dir, 0700), ==, 0);
      g_assert_true (g_file_set_contents (keyfile, "[io/github/chronoscope/Chronoscope/analysis]\n"
                                                   "min-time-lost-us=uint32 1000000\n", -1, NULL));
      envp = g_environ_setenv (envp, "GSETTINGS_SCHEMA_DIR", g_getenv ("CHRONO_SCHEMA_DIR"), TRUE);
      envp = g_environ_setenv (envp, "GSETTINGS_BACKEND", "keyfile", TRUE);
      envp = g_environ_setenv (envp, "XDG_CONFIG_HOME", dir, TRUE);
      run_cli_env ((const char *[]) { "analyze", path, NULL }, envp, &status, &out, &err);
      g_assert_cmpint (status, ==, 0);
      g_assert_nonnull (strstr (out, "No bottleneck found."));
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
      g_unlink (keyfile);
      g_rmdir (settings_dir);
      *strrchr (settings_dir, G_DIR_SEPARATOR) = '\0';
      g_rmdir (settings_dir);
    }

  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/clean", test_clean);
  g_test_add_func ("/analysis/planted-gap", test_planted_gap);
  g_test_add_func ("/analysis/planted-launch-bound", test_planted_launch_bound);
  g_test_add_func ("/analysis/planted-host-bound", test_planted_host_bound);
  g_test_add_func ("/analysis/path-queued", test_path_queued);
  g_test_add_func ("/analysis/planted-sync", test_planted_sync);
  g_test_add_func ("/analysis/neighbourhood", test_neighbourhood);
  g_test_add_func ("/analysis/straggler", test_straggler);
  g_test_add_func ("/analysis/planted-copies", test_planted_copies);
  g_test_add_func ("/analysis/planted-collective-outlier", test_planted_collective_outlier);
  g_test_add_func ("/analysis/planted-dependency", test_planted_dependency);
  g_test_add_func ("/analysis/inferred-wait", test_inferred_wait);
  g_test_add_func ("/analysis/range", test_range);
  g_test_add_func ("/analysis/event-wait", test_event_wait);
  g_test_add_func ("/analysis/real-traces", test_real_traces);
  g_test_add_func ("/analysis/real-ranks", test_real_ranks);
  g_test_add_func ("/analysis/cli", test_cli);
  return g_test_run ();
}
