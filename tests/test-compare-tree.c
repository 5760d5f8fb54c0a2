/* test-compare-tree.c: the tree step → nn.Module → operator → kernel of a
 * comparison, on pairs built with a known difference and on real pairs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "chrono-comparison-tree.h"
#include "compare-pairs.h"
#include "test-utils.h"

#define US 1000.0

static ChronoComparison *
compare_traces (ChronoTrace *a,
                ChronoTrace *b)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoAnalysis) aa = chrono_analysis_run (&a, 1, NULL, NULL, &error);
  g_autoptr(ChronoAnalysis) ab = NULL;
  ChronoComparison *c;

  g_assert_no_error (error);
  ab = chrono_analysis_run (&b, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  c = chrono_comparison_run (aa, ab, NULL, NULL, &error);
  g_assert_no_error (error);
  return c;
}

static ChronoComparisonTree *
tree_of_runs (PairRun *a,
              PairRun *b)
{
  g_autofree char *ja = pair_run_json (a);
  g_autofree char *jb = pair_run_json (b);
  g_autoptr(ChronoTrace) ta = test_load_json (ja);
  g_autoptr(ChronoTrace) tb = test_load_json (jb);
  g_autoptr(ChronoComparison) c = compare_traces (ta, tb);

  return chrono_comparison_tree_new (c);
}

/* The node at PATH ("Net_0/Linear_0/aten::linear …"), each part a
 * child's name. */
static const ChronoFlameNode *
node_at (ChronoComparisonTree *tree,
         const char * const   *path)
{
  const ChronoFlameNode *n = chrono_comparison_tree_get_root (tree);

  for (guint i = 0; path[i]; i++)
    {
      const ChronoFlameNode *next = NULL;

      for (guint k = 0; k < n->n_children && next == NULL; k++)
        if (strcmp (n->children[k]->name, path[i]) == 0)
          next = n->children[k];
      if (next == NULL)
        g_error ("no node %s under %s", path[i], n->name);
      n = next;
    }
  return n;
}

#define NODE(tree, ...) node_at ((tree), (const char * const[]) { __VA_ARGS__, NULL })

/* Every node's children add up to it on both sides, its delta is theirs
 * summed, and the largest B time comes first. */
static void
check_sums (const ChronoFlameNode *n)
{
  gdouble a = 0, b = 0, delta = 0;

  if (n->n_children == 0)
    return;
  for (guint i = 0; i < n->n_children; i++)
    {
      const ChronoFlameNode *c = n->children[i];

      g_assert_true (c->parent == n);
      a += c->a.ns_per_step;
      b += c->b.ns_per_step;
      delta += c->delta_ns;
      if (i > 0 && c->kind != CHRONO_FLAME_REST)
        g_assert_cmpfloat (c->b.ns_per_step, <=, n->children[i - 1]->b.ns_per_step);
      check_sums (c);
    }
  g_assert_cmpfloat_with_epsilon (a, n->a.ns_per_step, 1e-6 * MAX (1, a));
  g_assert_cmpfloat_with_epsilon (b, n->b.ns_per_step, 1e-6 * MAX (1, b));
  g_assert_cmpfloat_with_epsilon (delta, n->delta_ns, 1e-6 * MAX (1, fabs (delta)));
}

static gdouble
mean_step_us (const PairRun *run,
              guint          first)
{
  gdouble sum = 0;

  for (guint k = first; k < run->n_steps; k++)
    sum += run->step_us[k];
  return sum / (run->n_steps - first);
}

static void
test_slower_kernel (void)
{
  g_autoptr(ChronoComparisonTree) tree = NULL;
  const ChronoFlameNode *gemm, *relu, *root;
  PairRun a, b;

  pair_run_init (&a);
  pair_run_init (&b);
  b.gemm_us = 80;
  b.jitter_shift = 1;
  tree = tree_of_runs (&a, &b);
  root = chrono_comparison_tree_get_root (tree);
  check_sums (root);

  /* The first step is left out as warm-up: the widths are the other
   * steps' spans, all work being inside them. */
  g_assert_cmpfloat_with_epsilon (root->b.ns_per_step, mean_step_us (&b, 1) * US, 0.5);
  g_assert_cmpfloat_with_epsilon (root->a.ns_per_step, mean_step_us (&a, 1) * US, 0.5);
  g_assert_cmpfloat_with_epsilon (chrono_comparison_tree_get_step_ns (tree, CHRONO_COMPARE_SIDE_B), mean_step_us (&b, 1) * US, 0.5);

  gemm = NODE (tree, "Net_0", "Linear_0", "aten::addmm [[64,64],[64,64]]", "cutlass::Kernel2<>()");
  g_assert_cmpint (gemm->kind, ==, CHRONO_FLAME_KERNEL);
  g_assert_cmpint (gemm->match, ==, CHRONO_COMPARE_MATCH_NAME);
  g_assert_cmpuint (gemm->b.count, ==, 5);
  g_assert_cmpfloat_with_epsilon (gemm->delta_ns, 30 * US, 1 * US);
  g_assert_cmpint (gemm->noise, ==, CHRONO_COMPARE_NOISE_BEYOND);
  /* Its ancestors carry the change up to the step. */
  for (const ChronoFlameNode *n = gemm->parent; n; n = n->parent)
    {
      g_assert_cmpint (n->noise, ==, CHRONO_COMPARE_NOISE_BEYOND);
      g_assert_cmpfloat (n->delta_ns, >, 29 * US);
    }
  g_assert_true (NODE (tree, "Net_0", "Linear_0")->kind == CHRONO_FLAME_MODULE);
  g_assert_cmpuint (NODE (tree, "Net_0")->b.count, ==, 5);

  relu = NODE (tree, "Net_0", "Act_0", "aten::relu [[64,64]]", "at::native::vectorized_elementwise_kernel<>()");
  g_assert_cmpint (relu->noise, ==, CHRONO_COMPARE_NOISE_WITHIN);
  g_assert_cmpfloat (fabs (relu->delta_ns), <, 1 * US);
  /* The backward thread has no modules: its operator hangs off the step. */
  g_assert_cmpint (NODE (tree, "aten::mm [[64,64],[64,64]]")->noise, ==, CHRONO_COMPARE_NOISE_WITHIN);
}

static void
test_added_kernel (void)
{
  g_autoptr(ChronoComparisonTree) tree = NULL;
  const ChronoFlameNode *mul, *act;
  PairRun a, b;

  pair_run_init (&a);
  pair_run_init (&b);
  b.extra_kernel = TRUE;
  tree = tree_of_runs (&a, &b);
  check_sums (chrono_comparison_tree_get_root (tree));

  mul = NODE (tree, "Net_0", "Act_0", "aten::mul [[64,64],[]]");
  g_assert_cmpint (mul->match, ==, CHRONO_COMPARE_MATCH_NONE);
  g_assert_cmpuint (mul->a.count, ==, 0);
  g_assert_cmpuint (mul->b.count, ==, 5);
  g_assert_cmpfloat (mul->a.ns_per_step, ==, 0);
  g_assert_true (isnan (mul->delta_percent));
  g_assert_cmpint (mul->children[0]->match, ==, CHRONO_COMPARE_MATCH_NONE);
  act = mul->parent;
  g_assert_cmpint (act->match, ==, CHRONO_COMPARE_MATCH_NAME);
  g_assert_cmpfloat_with_epsilon (act->delta_ns, mul->b.ns_per_step, 1e-6);

  /* The other way round it is only in A, and last among its siblings. */
  g_clear_object (&tree);
  tree = tree_of_runs (&b, &a);
  act = NODE (tree, "Net_0", "Act_0");
  mul = act->children[act->n_children - 1];
  g_assert_cmpstr (mul->name, ==, "aten::mul [[64,64],[]]");
  g_assert_cmpuint (mul->b.count, ==, 0);
  g_assert_cmpfloat (mul->delta_ns, <, -14 * US);
}

/* A GEMM of another vendor under the same operator is the same node. */
static void
test_other_vendor (void)
{
  g_autoptr(ChronoComparisonTree) tree = NULL;
  g_autoptr(GArray) calls_a = NULL;
  g_autoptr(GArray) calls_b = NULL;
  g_autoptr(GArray) host_b = NULL;
  const ChronoFlameNode *addmm, *gemm;
  g_autofree char *rocm = NULL;
  PairRun a, b;

  pair_run_init (&a);
  pair_run_init (&b);
  b.gemm_kernel = PAIR_GEMM_ROCM;
  tree = tree_of_runs (&a, &b);
  check_sums (chrono_comparison_tree_get_root (tree));

  addmm = NODE (tree, "Net_0", "Linear_0", "aten::addmm [[64,64],[64,64]]");
  g_assert_cmpuint (addmm->n_children, ==, 1);
  gemm = addmm->children[0];
  g_assert_cmpint (gemm->match, ==, CHRONO_COMPARE_MATCH_OPERATOR);
  rocm = chrono_compare_normalise_kernel (PAIR_GEMM_ROCM);
  g_assert_cmpstr (gemm->name, ==, rocm);
  g_assert_cmpstr (gemm->a_name, ==, "cutlass::Kernel2<>()");
  g_assert_cmpuint (gemm->a.count, ==, 5);

  /* The calls under a node, for the timelines: one kernel per step on
   * each side, and for the operator its calls. */
  calls_a = chrono_comparison_tree_collect_calls (tree, gemm, CHRONO_COMPARE_SIDE_A, CHRONO_FLAME_CALLS_DEVICE);
  calls_b = chrono_comparison_tree_collect_calls (tree, addmm, CHRONO_COMPARE_SIDE_B, CHRONO_FLAME_CALLS_DEVICE);
  host_b = chrono_comparison_tree_collect_calls (tree, addmm, CHRONO_COMPARE_SIDE_B, CHRONO_FLAME_CALLS_HOST);
  g_assert_cmpuint (calls_a->len, ==, 5);
  g_assert_cmpuint (calls_b->len, ==, 5);
  g_assert_cmpuint (host_b->len, ==, 5);
}

/* ------------------------------------------------------------------ */
/* Real pairs                                                         */

static gint64
ns_of (JsonObject *ev,
       const char *member)
{
  JsonNode *n = json_object_get_member (ev, member);

  if (n == NULL)
    return 0;
  if (json_node_get_value_type (n) == G_TYPE_INT64)
    return json_node_get_int (n) * 1000;
  return llround (json_node_get_double (n) * 1000);
}

static gint64
correlation (JsonObject *ev)
{
  JsonNode *a = json_object_get_member (ev, "args");
  JsonObject *args = a && JSON_NODE_HOLDS_OBJECT (a) ? json_node_get_object (a) : NULL;
  JsonNode *n = args ? json_object_get_member (args, "correlation") : NULL;

  return n && JSON_NODE_TYPE (n) == JSON_NODE_VALUE && json_node_get_value_type (n) == G_TYPE_INT64
         ? json_node_get_int (n) : -1;
}

typedef struct {
  gint64 start;                  /* the ProfilerStep span in the file */
  gint64 host_end;
  gint64 end;                    /* to the end of its work, as the comparison found */
  gint64 work;
  guint  events;
} Win;

/* The root's time per step on SIDE from the file alone: each used step's
 * wall time, or its device work (kernels, copies, sets launched in it,
 * or starting in it without a launch) where that is more. */
static void
check_root_against_json (ChronoComparisonTree *tree,
                         guint                 side,
                         JsonNode             *root)
{
  ChronoComparison *c = chrono_comparison_tree_get_comparison (tree);
  JsonArray *events = json_object_get_array_member (json_node_get_object (root), "traceEvents");
  g_autoptr(GHashTable) launch_ts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr(GArray) wins = g_array_new (FALSE, FALSE, sizeof (Win));
  const ChronoFlameNode *top = chrono_comparison_tree_get_root (tree);
  gdouble expected = 0;
  guint events_in = 0;
  gint64 wall = -1;

  for (guint i = 0; i < chrono_comparison_get_n_pairs (c); i++)
    {
      const ChronoComparePair *p = chrono_comparison_get_pair (c, i);
      const ChronoCompareWindow *w;
      gboolean found = FALSE;

      if (!p->used)
        continue;
      w = chrono_comparison_get_window (c, side, side == 0 ? p->a : p->b);
      if (chrono_comparison_get_align (c) == CHRONO_COMPARE_ALIGN_START)
        {
          /* The whole trace: all its work is in it. */
          Win all = { G_MININT64, G_MAXINT64, G_MAXINT64, 0, 0 };

          g_array_append_val (wins, all);
          wall = w->end_ns - w->start_ns;
          break;
        }
      g_assert_cmpint (chrono_comparison_get_align (c), ==, CHRONO_COMPARE_ALIGN_STEP);
      for (guint e = 0; e < json_array_get_length (events) && !found; e++)
        {
          JsonObject *ev = json_array_get_object_element (events, e);

          if (g_strcmp0 (json_object_get_string_member_with_default (ev, "name", ""), w->name) == 0 &&
              g_strcmp0 (json_object_get_string_member_with_default (ev, "ph", ""), "X") == 0)
            {
              Win win = { ns_of (ev, "ts"), ns_of (ev, "ts") + ns_of (ev, "dur"), 0, 0, 0 };

              win.end = win.start + (w->end_ns - w->start_ns);
              g_array_append_val (wins, win);
              found = TRUE;
            }
        }
      g_assert_true (found);
    }
  g_assert_cmpuint (wins->len, >, 0);

  for (guint e = 0; e < json_array_get_length (events); e++)
    {
      JsonObject *ev = json_array_get_object_element (events, e);
      const char *cat = json_object_get_string_member_with_default (ev, "cat", "");
      gint64 corr = correlation (ev);

      if ((strcmp (cat, "cuda_runtime") == 0 || strcmp (cat, "cuda_driver") == 0) && corr >= 0)
        g_hash_table_insert (launch_ts, g_memdup2 (&corr, sizeof corr), g_memdup2 ((gint64[]) { ns_of (ev, "ts") }, sizeof (gint64)));
    }
  for (guint e = 0; e < json_array_get_length (events); e++)
    {
      JsonObject *ev = json_array_get_object_element (events, e);
      const char *cat = json_object_get_string_member_with_default (ev, "cat", "");
      gint64 corr = correlation (ev);
      const gint64 *launch = corr >= 0 ? g_hash_table_lookup (launch_ts, &corr) : NULL;
      gint64 at;

      if (strcmp (cat, "kernel") != 0 && strcmp (cat, "gpu_memcpy") != 0 && strcmp (cat, "gpu_memset") != 0)
        continue;
      at = launch ? *launch : ns_of (ev, "ts");
      for (guint k = 0; k < wins->len; k++)
        {
          Win *w = &g_array_index (wins, Win, k);

          if (at >= w->start && at < (launch ? w->host_end : w->end))
            {
              w->work += ns_of (ev, "dur");
              w->events++;
              break;
            }
        }
    }
  for (guint k = 0; k < wins->len; k++)
    {
      const Win *w = &g_array_index (wins, Win, k);

      expected += MAX (wall >= 0 ? wall : w->end - w->start, w->work);
      events_in += w->events;
    }
  expected /= wins->len;
  /* Microseconds written with fractions round to the nanosecond one
   * event at a time. */
  g_assert_cmpfloat (fabs ((side == 0 ? top->a : top->b).ns_per_step - expected), <=, 1.0 + (gdouble) events_in / wins->len);
}

/* The JSON report's flame member: integer widths per step that add up
 * to the parent's within rounding. */
static void
check_json_widths (JsonObject *node)
{
  JsonArray *children = json_object_has_member (node, "children") ? json_object_get_array_member (node, "children") : NULL;
  gint64 sum = 0;
  guint n;

  if (children == NULL)
    return;
  n = json_array_get_length (children);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *child = json_array_get_object_element (children, i);

      sum += json_object_get_int_member (json_object_get_object_member (child, "b"), "time_ns_per_step");
      check_json_widths (child);
    }
  g_assert_cmpint (llabs (sum - json_object_get_int_member (json_object_get_object_member (node, "b"), "time_ns_per_step")), <=, (n + 1) / 2 + 1);
}

static void
check_real_pair (const char *name_a,
                 const char *name_b)
{
  g_autoptr(ChronoTrace) a = test_traces_load (name_a);
  g_autoptr(ChronoTrace) b = a ? test_traces_load (name_b) : NULL;
  g_autoptr(ChronoComparison) c = NULL;
  g_autoptr(ChronoComparisonTree) tree = NULL;
  g_autoptr(JsonNode) ja = NULL;
  g_autoptr(JsonNode) jb = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *report = NULL;
  JsonObject *flame;

  if (b == NULL)
    return;
  c = compare_traces (a, b);
  tree = chrono_comparison_tree_new (c);
  check_sums (chrono_comparison_tree_get_root (tree));
  ja = test_parse_json_file (chrono_trace_get_path (a));
  jb = test_parse_json_file (chrono_trace_get_path (b));
  check_root_against_json (tree, 0, ja);
  check_root_against_json (tree, 1, jb);

  /* Each operator's nodes, wherever they hang, hold its direct device
   * time as the comparison's table has it. */
  for (guint i = 0; i < MIN (chrono_comparison_get_n_ops (c), 20); i++)
    {
      const ChronoCompareRow *r = chrono_comparison_get_op (c, i);
      GPtrArray *todo = g_ptr_array_new ();
      gdouble sum = 0;

      g_ptr_array_add (todo, (gpointer) chrono_comparison_tree_get_root (tree));
      while (todo->len > 0)
        {
          const ChronoFlameNode *n = g_ptr_array_steal_index_fast (todo, todo->len - 1);

          if (n->kind == CHRONO_FLAME_OPERATOR && strcmp (n->name, r->key) == 0)
            sum += n->b.ns_per_step;
          for (guint k = 0; k < n->n_children; k++)
            g_ptr_array_add (todo, n->children[k]);
        }
      g_ptr_array_unref (todo);
      g_assert_cmpfloat_with_epsilon (sum, r->b.device_ns_per_step, 1e-6 * MAX (1, sum));
    }

  report = chrono_comparison_to_json (c);
  json_parser_load_from_data (parser, report, -1, &error);
  g_assert_no_error (error);
  flame = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "flame");
  g_assert_nonnull (flame);
  check_json_widths (json_object_get_object_member (flame, "root"));
}

static void
test_hta_trace_diff (void)
{
  check_real_pair ("hta__trace_diff_control__control.json.gz", "hta__trace_diff_test__test.json.gz");
}

static void
test_kineto_docs (void)
{
  check_real_pair ("kineto__docs__before_fix_trace.json", "kineto__docs__after_fix_trace.json");
}

/* ROCm on MI250 against CUDA on A100, with nn.Module frames. */
static void
test_rocm_cuda (void)
{
  check_real_pair ("hta__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz",
                   "hta__cp_alexnet__benchmark_result_2869224_1695835535_trace.json.gz");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare-tree/slower-kernel", test_slower_kernel);
  g_test_add_func ("/compare-tree/added-kernel", test_added_kernel);
  g_test_add_func ("/compare-tree/other-vendor", test_other_vendor);
  g_test_add_func ("/compare-tree/real/hta-trace-diff", test_hta_trace_diff);
  g_test_add_func ("/compare-tree/real/kineto-docs", test_kineto_docs);
  g_test_add_func ("/compare-tree/real/rocm-cuda", test_rocm_cuda);
  return g_test_run ();
}
