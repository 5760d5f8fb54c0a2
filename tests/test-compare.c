/* test-compare.c: two runs compared, on real pairs and on pairs built
 * with a known difference, checked against an independent reading of
 * the same JSON with json-glib
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "chrono-comparison.h"
#include "chrono-format.h"
#include "chrono-loader.h"
#include "test-utils.h"

#define US 1000

/* ------------------------------------------------------------------ */
/* The independent reading: ops by name and Input Dims, each piece of
 * device work charged to the innermost cpu_op around the runtime call
 * that launched it (by correlation), on that call's thread.          */

typedef struct {
  gint64 start;
  gint64 end;
} Win;

typedef struct {
  gint64 tid;
  gint64 pid;
  gint64 ts;
  gint64 end;
  char  *key;
  gint64 device;         /* device time of the work it launched */
  gboolean counted;      /* inside a used window */
} Op;

typedef struct {
  GHashTable *count;     /* op key -> gint64 * */
  GHashTable *device;    /* op key -> gint64 * */
  GHashTable *calls;     /* op key -> GArray of gint64: each counted call's device time */
  gint64      work_ns;   /* all device work launched in the windows */
  gint64      charged_ns;/* of which under an operator */
} Expect;

static void
expect_clear (Expect *e)
{
  g_hash_table_unref (e->count);
  g_hash_table_unref (e->device);
  g_hash_table_unref (e->calls);
}

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
int_member (JsonObject *o,
            const char *member,
            gint64      otherwise)
{
  JsonNode *n = o ? json_object_get_member (o, member) : NULL;

  if (n == NULL || JSON_NODE_TYPE (n) != JSON_NODE_VALUE)
    return otherwise;
  if (json_node_get_value_type (n) == G_TYPE_STRING)
    return g_ascii_strtoll (json_node_get_string (n), NULL, 10);
  return json_node_get_int (n);
}

static void
add_to (GHashTable *table,
        const char *key,
        gint64      v)
{
  gint64 *slot = g_hash_table_lookup (table, key);

  if (slot == NULL)
    {
      slot = g_new0 (gint64, 1);
      g_hash_table_insert (table, g_strdup (key), slot);
    }
  *slot += v;
}

static gint64
get_from (GHashTable *table,
          const char *key)
{
  gint64 *slot = g_hash_table_lookup (table, key);

  return slot ? *slot : 0;
}

static gint
in_window (GArray *wins,
           gint64  t)
{
  for (guint i = 0; i < wins->len; i++)
    {
      const Win *w = &g_array_index (wins, Win, i);

      if (t >= w->start && t < w->end)
        return i;
    }
  return -1;
}

static gint
compare_ops (gconstpointer a,
             gconstpointer b)
{
  const Op *x = a, *y = b;

  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (x->tid != y->tid)
    return x->tid < y->tid ? -1 : 1;
  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return (x->end < y->end) - (x->end > y->end);
}

static JsonArray *
events_of (JsonNode *root)
{
  return json_object_get_array_member (json_node_get_object (root), "traceEvents");
}

/* The windows named NAMES (ProfilerStep spans on the host: the GPU's copy
 * of each, in the gpu_user_annotation category, follows the device), or
 * the whole trace. */
static GArray *
windows_named (JsonNode           *root,
               const char * const *names)
{
  GArray *wins = g_array_new (FALSE, FALSE, sizeof (Win));
  JsonArray *events = events_of (root);

  if (names == NULL)
    {
      Win all = { G_MININT64, G_MAXINT64 };
      g_array_append_val (wins, all);
      return wins;
    }
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      const char *name = json_object_get_string_member_with_default (ev, "name", "");

      if (g_strv_contains (names, name) && g_strcmp0 (json_object_get_string_member_with_default (ev, "ph", ""), "X") == 0 &&
          g_str_has_prefix (name, "ProfilerStep#") &&
          g_strcmp0 (json_object_get_string_member_with_default (ev, "cat", ""), "gpu_user_annotation") != 0)
        {
          Win w = { ns_of (ev, "ts"), ns_of (ev, "ts") + ns_of (ev, "dur") };
          g_array_append_val (wins, w);
        }
    }
  g_assert_cmpuint (wins->len, ==, g_strv_length ((char **) names));
  return wins;
}

static char *
op_key (JsonObject *ev)
{
  JsonObject *args = json_object_get_object_member (ev, "args");
  JsonNode *dims = args ? json_object_get_member (args, "Input Dims") : NULL;
  const char *name = json_object_get_string_member (ev, "name");
  g_autofree char *text = dims ? json_to_string (dims, FALSE) : NULL;

  return text ? g_strdup_printf ("%s %s", name, text) : g_strdup (name);
}

static void
expect_compute (JsonNode *root,
                GArray   *wins,
                Expect   *e)
{
  JsonArray *events = events_of (root);
  g_autoptr(GArray) ops = g_array_new (FALSE, FALSE, sizeof (Op));
  g_autoptr(GHashTable) calls = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

  e->count = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  e->device = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  e->calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  e->work_ns = e->charged_ns = 0;

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      const char *cat = json_object_get_string_member_with_default (ev, "cat", "");

      if (g_strcmp0 (json_object_get_string_member_with_default (ev, "ph", ""), "X") != 0)
        continue;
      if (strcmp (cat, "cpu_op") == 0)
        {
          Op op = { int_member (ev, "tid", 0), int_member (ev, "pid", 0), ns_of (ev, "ts"), 0, op_key (ev), 0, FALSE };

          op.end = op.ts + ns_of (ev, "dur");
          op.counted = in_window (wins, op.ts) >= 0;
          if (op.counted)
            add_to (e->count, op.key, 1);
          g_array_append_val (ops, op);
        }
      else if (strcmp (cat, "cuda_runtime") == 0 || strcmp (cat, "cuda_driver") == 0)
        {
          gint64 corr = int_member (json_object_get_object_member (ev, "args"), "correlation", -1);
          gint64 *key, *call;

          if (corr < 0)
            continue;
          key = g_new (gint64, 1);
          *key = corr;
          call = g_new (gint64, 4);
          call[0] = int_member (ev, "pid", 0);
          call[1] = int_member (ev, "tid", 0);
          call[2] = ns_of (ev, "ts");
          call[3] = call[2] + ns_of (ev, "dur");
          g_hash_table_insert (calls, key, call);
        }
    }
  g_array_sort (ops, compare_ops);

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      const char *cat = json_object_get_string_member_with_default (ev, "cat", "");
      gint64 corr, dur;
      const gint64 *call;
      Op probe;
      gint lo, hi;

      if (strcmp (cat, "kernel") != 0 && strcmp (cat, "gpu_memcpy") != 0 && strcmp (cat, "gpu_memset") != 0)
        continue;
      corr = int_member (json_object_get_object_member (ev, "args"), "correlation", -1);
      call = g_hash_table_lookup (calls, &corr);
      if (call == NULL || in_window (wins, call[2]) < 0)
        continue;
      dur = ns_of (ev, "dur");
      e->work_ns += dur;
      /* The latest-starting op of the call's thread that holds the call. */
      probe = (Op) { call[1], call[0], call[2], G_MININT64, NULL };
      for (lo = 0, hi = ops->len; lo < hi;)
        {
          gint mid = (lo + hi) / 2;

          if (compare_ops (&g_array_index (ops, Op, mid), &probe) <= 0)
            lo = mid + 1;
          else
            hi = mid;
        }
      for (gint k = lo - 1; k >= 0; k--)
        {
          Op *op = &g_array_index (ops, Op, k);

          if (op->pid != call[0] || op->tid != call[1])
            break;
          if (op->ts <= call[2] && op->end >= call[3])
            {
              add_to (e->device, op->key, dur);
              op->device += dur;
              e->charged_ns += dur;
              break;
            }
        }
    }
  for (guint i = 0; i < ops->len; i++)
    {
      Op *op = &g_array_index (ops, Op, i);
      GArray *list = g_hash_table_lookup (e->calls, op->key);

      if (op->counted)
        {
          if (list == NULL)
            {
              list = g_array_new (FALSE, FALSE, sizeof (gint64));
              g_hash_table_insert (e->calls, g_strdup (op->key), list);
            }
          g_array_append_val (list, op->device);
        }
      g_free (op->key);
    }
}

static gint
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The P-th percentile of CALLS by the nearest rank, sorting them. */
static gint64
nearest_rank (GArray *calls,
              guint   p)
{
  guint rank = (guint) ((calls->len * (guint64) p + 99) / 100);

  g_array_sort (calls, compare_int64);
  return g_array_index (calls, gint64, MAX (rank, 1) - 1);
}

/* ------------------------------------------------------------------ */
/* Checks every comparison keeps                                      */

static const ChronoCompareRow *
find_row (ChronoComparison *c,
          gboolean          kernels,
          const char       *key)
{
  guint n = kernels ? chrono_comparison_get_n_kernels (c) : chrono_comparison_get_n_ops (c);

  for (guint i = 0; i < n; i++)
    {
      const ChronoCompareRow *r = kernels ? chrono_comparison_get_kernel (c, i) : chrono_comparison_get_op (c, i);

      if (strcmp (r->key, key) == 0)
        return r;
    }
  return NULL;
}

static const ChronoCompareSide *
side_of (const ChronoCompareRow *r,
         guint                   side)
{
  if (r == NULL)
    g_error ("no such row");
  return side == 0 ? &r->a : &r->b;
}

/* Each side's operator counts, direct device times and per-call
 * percentiles equal the
 * independent reading of its JSON over the used windows, and its
 * kernels add up to the device time that reading found. */
static void
check_against_json (ChronoComparison *c,
                    guint             side,
                    JsonNode         *root)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) wins = NULL;
  Expect e;
  GHashTableIter iter;
  gpointer key, value;
  guint rows_with_calls = 0;
  gint64 kernel_total = 0, kernel_charged = 0;

  if (chrono_comparison_get_align (c) == CHRONO_COMPARE_ALIGN_STEP)
    {
      for (guint i = 0; i < chrono_comparison_get_n_pairs (c); i++)
        {
          const ChronoComparePair *p = chrono_comparison_get_pair (c, i);
          gint w = side == 0 ? p->a : p->b;

          if (p->used)
            g_ptr_array_add (names, chrono_comparison_get_window (c, side, w)->name);
        }
      g_ptr_array_add (names, NULL);
      wins = windows_named (root, (const char * const *) names->pdata);
    }
  else
    wins = windows_named (root, NULL);
  expect_compute (root, wins, &e);
  g_assert_cmpuint (g_hash_table_size (e.count), >, 0);

  g_hash_table_iter_init (&iter, e.count);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const ChronoCompareRow *r = find_row (c, FALSE, key);

      g_assert_nonnull (r);
      g_assert_cmpint (side_of (r, side)->count, ==, *(gint64 *) value);
      g_assert_cmpint (side_of (r, side)->device_ns, ==, get_from (e.device, key));
      g_assert_cmpint (side_of (r, side)->p50_ns, ==, nearest_rank (g_hash_table_lookup (e.calls, key), 50));
      g_assert_cmpint (side_of (r, side)->p95_ns, ==, nearest_rank (g_hash_table_lookup (e.calls, key), 95));
    }
  for (guint i = 0; i < chrono_comparison_get_n_ops (c); i++)
    rows_with_calls += side_of (chrono_comparison_get_op (c, i), side)->count > 0;
  g_assert_cmpuint (rows_with_calls, ==, g_hash_table_size (e.count));

  for (guint i = 0; i < chrono_comparison_get_n_kernels (c); i++)
    {
      const ChronoCompareRow *r = chrono_comparison_get_kernel (c, i);

      kernel_total += side_of (r, side)->device_ns;
      if (r->op)
        kernel_charged += side_of (r, side)->device_ns;
    }
  g_assert_cmpint (kernel_charged, ==, e.charged_ns);
  /* Work with no launching call in the trace is not in the reading. */
  g_assert_cmpint (kernel_total, >=, e.work_ns);
  expect_clear (&e);
}

/* Each pair's attribution adds up to its step-time delta exactly, and
 * for steps each window's states are its main device's ledger row. */
static void
check_attribution (ChronoComparison *c)
{
  for (guint i = 0; i < chrono_comparison_get_n_pairs (c); i++)
    {
      const ChronoComparePair *p = chrono_comparison_get_pair (c, i);
      const ChronoCompareWindow *w[2];
      gint64 sum = 0;

      if (p->a < 0 || p->b < 0)
        continue;
      w[0] = chrono_comparison_get_window (c, CHRONO_COMPARE_SIDE_A, p->a);
      w[1] = chrono_comparison_get_window (c, CHRONO_COMPARE_SIDE_B, p->b);
      for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
        sum += w[1]->state_ns[k] - w[0]->state_ns[k];
      sum += w[1]->outside_ns - w[0]->outside_ns;
      g_assert_cmpint (sum, ==, (w[1]->end_ns - w[1]->start_ns) - (w[0]->end_ns - w[0]->start_ns));

      for (guint side = 0; side < 2 && chrono_comparison_get_align (c) == CHRONO_COMPARE_ALIGN_STEP; side++)
        {
          ChronoAnalysis *an = chrono_comparison_get_analysis (c, side);
          gboolean found = FALSE;
          gint64 inside = 0;

          for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
            inside += w[side]->state_ns[k];
          if (inside == 0)
            continue;
          for (guint r = 0; r < chrono_analysis_get_n_ledger_rows (an) && !found; r++)
            {
              const ChronoLedgerRow *row = chrono_analysis_get_ledger_row (an, r);

              found = row->step >= 0 && strcmp (row->name, w[side]->name) == 0 &&
                      memcmp (row->state_ns, w[side]->state_ns, sizeof row->state_ns) == 0;
            }
          g_assert_true (found);
        }
    }
}

static ChronoComparison *
compare_traces (ChronoTrace                *a,
                ChronoTrace                *b,
                const ChronoCompareOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoAnalysis) aa = chrono_analysis_run (&a, 1, NULL, NULL, &error);
  g_autoptr(ChronoAnalysis) ab = NULL;
  ChronoComparison *c;

  g_assert_no_error (error);
  ab = chrono_analysis_run (&b, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  c = chrono_comparison_run (aa, ab, options, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (c);
  return c;
}

/* Each kernel side's short name is the name its trace writes made short,
 * and the Markdown's kernel table shows the first matched one by it. */
static void
check_kernel_names (JsonArray  *kernels,
                    const char *md)
{
  gboolean shown = FALSE;

  for (guint i = 0; i < json_array_get_length (kernels); i++)
    {
      JsonObject *row = json_array_get_object_element (kernels, i);

      for (guint side = 0; side < 2; side++)
        {
          JsonObject *o = json_object_get_object_member (row, side == 0 ? "a" : "b");
          g_autofree char *expected = NULL;

          if (!json_object_has_member (o, "name"))
            continue;
          expected = chrono_format_short_name (json_object_get_string_member (o, "name"), CHRONO_SHORT_NAME_WIDTH);
          g_assert_cmpstr (json_object_get_string_member (o, "short_name"), ==, expected);
          if (!shown && side == 0 && strcmp (json_object_get_string_member (row, "match"), "name") == 0 &&
              json_object_get_int_member (o, "device_time_ns") > 0)
            {
              g_autofree char *cell = g_strdup_printf ("| %s |", expected);

              if (strstr (md, cell) == NULL)
                g_error ("the kernel table shows no “%s”:\n%s", expected, md);
              shown = TRUE;
            }
        }
    }
}

/* The JSON report parses and has what the schema promises. */
static void
check_report (ChronoComparison *c)
{
  g_autofree char *json = chrono_comparison_to_json (c);
  g_autofree char *md = chrono_comparison_to_markdown (c);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonObject *summary;
  JsonObject *attribution;
  gint64 sum = 0;
  GList *members;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "schema"), ==, "chronoscope.compare/1");
  for (guint i = 0; i < 8; i++)
    {
      static const char * const members_wanted[] = { "a", "b", "steps", "devices", "ops", "kernels",
                                                     "findings_diff", "first_divergence" };
      g_assert_true (json_object_has_member (root, members_wanted[i]));
    }
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "ops")), ==, chrono_comparison_get_n_ops (c));
  summary = json_object_get_object_member (root, "summary");
  attribution = json_object_get_object_member (summary, "attribution");
  members = json_object_get_members (attribution);
  for (GList *l = members; l; l = l->next)
    sum += json_object_get_int_member (attribution, l->data);
  g_list_free (members);
  g_assert_cmpint (sum, ==, json_object_get_int_member (summary, "delta_ns"));
  g_assert_true (g_str_has_prefix (md, "# "));
  check_kernel_names (json_object_get_array_member (root, "kernels"), md);
  /* The app's table labels kernels as the report does: short names,
   * without parameter lists. */
  for (guint i = 0; i < chrono_comparison_get_n_kernels (c); i++)
    {
      const ChronoCompareRow *row = chrono_comparison_get_kernel (c, i);
      g_autofree char *label = chrono_compare_row_label (row);

      g_assert_false (g_str_has_suffix (label, ")") && !g_str_has_suffix (row->name, ")"));
      if (row->match != CHRONO_COMPARE_MATCH_OPERATOR && row->shapes == NULL)
        g_assert_cmpuint (g_utf8_strlen (label, -1), <=, CHRONO_SHORT_NAME_WIDTH);
    }
}

/* ------------------------------------------------------------------ */
/* Real pairs                                                         */

/* The comparison of A and B against what the test finds in their JSON. */
static void
check_pair (ChronoTrace *a,
            ChronoTrace *b)
{
  g_autoptr(ChronoComparison) c = NULL;
  g_autoptr(JsonNode) ja = NULL;
  g_autoptr(JsonNode) jb = NULL;

  c = compare_traces (a, b, NULL);
  g_assert_cmpuint (chrono_comparison_get_n_used (c), >, 0);
  check_attribution (c);
  ja = test_parse_json_file (chrono_trace_get_path (a));
  jb = test_parse_json_file (chrono_trace_get_path (b));
  check_against_json (c, 0, ja);
  check_against_json (c, 1, jb);
  check_report (c);
}

static void
check_real_pair (const char *name_a,
                 const char *name_b)
{
  g_autoptr(ChronoTrace) a = test_traces_load (name_a);
  g_autoptr(ChronoTrace) b = a ? test_traces_load (name_b) : NULL;

  if (b != NULL)
    check_pair (a, b);
}

/* The same checks on the pairs CHRONO_COMPARE_PAIRS names, "A:B" apart by
 * commas: traces from elsewhere, which the suite does not hold. */
static void
test_given_pairs (void)
{
  const char *given = g_getenv ("CHRONO_COMPARE_PAIRS");
  g_auto(GStrv) pairs = NULL;

  if (given == NULL || *given == '\0')
    {
      g_test_skip ("CHRONO_COMPARE_PAIRS is not set");
      return;
    }
  pairs = g_strsplit (given, ",", -1);
  for (guint i = 0; pairs[i] != NULL; i++)
    {
      g_auto(GStrv) sides = g_strsplit (pairs[i], ":", 2);
      g_autoptr(ChronoTrace) a = NULL;
      g_autoptr(ChronoTrace) b = NULL;
      g_autoptr(GError) error = NULL;

      if (g_strv_length (sides) != 2)
        g_error ("CHRONO_COMPARE_PAIRS: “%s” is not A:B", pairs[i]);
      a = chrono_trace_load_file (sides[0], NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      b = chrono_trace_load_file (sides[1], NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_test_message ("%s against %s", sides[0], sides[1]);
      check_pair (a, b);
    }
}

static void
test_hta_trace_diff (void)
{
  check_real_pair ("hta__trace_diff_control__control.json.gz", "hta__trace_diff_test__test.json.gz");
}

/* Two ranks of one job: the same model, steps paired by number. */
static void
test_dlrm_ranks (void)
{
  check_real_pair ("param__dlrm_8rank__worker0_step_12.1694128201545.pt.trace.json",
                   "param__dlrm_8rank__worker1_step_12.1694128201556.pt.trace.json");
}

/* ROCm on MI250 against CUDA on A100: nothing but operators can match. */
static void
test_rocm_cuda (void)
{
  check_real_pair ("hta__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz",
                   "hta__cp_alexnet__benchmark_result_2869224_1695835535_trace.json.gz");
}

static void
test_kineto_docs (void)
{
  check_real_pair ("kineto__docs__before_fix_trace.json", "kineto__docs__after_fix_trace.json");
}


/* ------------------------------------------------------------------ */
/* Pairs built with a known difference                                */

typedef struct {
  guint       n_steps;
  gint64      gemm_us;        /* the aten::mm kernel */
  const char *gemm_kernel;
  gint        extra_op_step;  /* the step with aten::mul before aten::relu, 0 for none */
  guint       jitter_shift;   /* per-step jitter of ±1 µs, shifted */
  const char *conv_op;        /* an operator inside aten::_convolution after aten::relu, or NULL */
  const char *conv_kernel;    /* the kernel it launches */
} Run;

#define GEMM_A "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>(cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4::Params)"
#define GEMM_B "Cijk_Alik_Bljk_SB_MT128x128x16_MI32x32x2x1_SN_1LDSB0_APM1_ABV0_GRVW4_ISA942_WG64_4_1_WGM8"

static void
run_init (Run *run)
{
  *run = (Run) { .n_steps = 6, .gemm_us = 50, .gemm_kernel = GEMM_A };
}

typedef struct {
  GString *s;
  gint64   corr;
  gint64   t;               /* µs */
} Gen;

static void
gen_event (Gen        *g,
           const char *cat,
           const char *name,
           int         pid,
           int         tid,
           gint64      ts,
           gint64      dur,
           const char *args)
{
  test_append_complete_event (g->s, cat, name, pid, tid, ts, dur, args);
}

/* An operator of 10 µs that launches one kernel 2 µs in; the kernel runs
 * 6 µs in for KERNEL_US, and the next operator starts 5 µs after it. */
static void
gen_op (Gen        *g,
        const char *name,
        const char *dims,
        const char *kernel,
        gint64      kernel_us)
{
  g_autofree char *op_args = g_strdup_printf ("\"Input Dims\": %s", dims);
  g_autofree char *call_args = g_strdup_printf ("\"correlation\":%" G_GINT64_FORMAT, ++g->corr);
  g_autofree char *kernel_args = g_strdup_printf ("\"correlation\":%" G_GINT64_FORMAT ",\"stream\":7,\"device\":0", g->corr);

  gen_event (g, "cpu_op", name, 100, 100, g->t, 10, op_args);
  gen_event (g, "cuda_runtime", "cudaLaunchKernel", 100, 100, g->t + 2, 3, call_args);
  gen_event (g, "kernel", kernel, 0, 7, g->t + 6, kernel_us, kernel_args);
  g->t = MAX (g->t + 10, g->t + 6 + kernel_us) + 5;
}

/* Operator INNER inside aten::_convolution of the same shapes, as cuDNN's
 * and MIOpen's are, launching KERNEL. */
static void
gen_nested_op (Gen        *g,
               const char *inner,
               const char *kernel,
               gint64      kernel_us)
{
  const char *op_args = "\"Input Dims\": [[1, 3, 8, 8], [4, 3, 3, 3]]";
  g_autofree char *call_args = g_strdup_printf ("\"correlation\":%" G_GINT64_FORMAT, ++g->corr);
  g_autofree char *kernel_args = g_strdup_printf ("\"correlation\":%" G_GINT64_FORMAT ",\"stream\":7,\"device\":0", g->corr);

  gen_event (g, "cpu_op", "aten::_convolution", 100, 100, g->t, 20, op_args);
  gen_event (g, "cpu_op", inner, 100, 100, g->t + 1, 18, op_args);
  gen_event (g, "cuda_runtime", "cudaLaunchKernel", 100, 100, g->t + 3, 3, call_args);
  gen_event (g, "kernel", kernel, 0, 7, g->t + 7, kernel_us, kernel_args);
  g->t = MAX (g->t + 20, g->t + 7 + kernel_us) + 5;
}

static char *
gen_run (const Run *run)
{
  Gen g = { g_string_new ("{\"traceEvents\":["), 0, 1000 };

  for (guint k = 1; k <= run->n_steps; k++)
    {
      gint64 start = g.t;
      gint64 jitter = (gint64) ((k + run->jitter_shift) % 3) - 1;
      g_autofree char *step = g_strdup_printf ("ProfilerStep#%u", k);

      g.t += 3;
      gen_op (&g, "aten::mm", "[[64, 64], [64, 64]]", run->gemm_kernel, run->gemm_us + jitter);
      gen_op (&g, "aten::add", "[[64], [64]]",
              "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
              "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
              20 + jitter);
      if ((gint) k == run->extra_op_step)
        gen_op (&g, "aten::mul", "[[64], [64]]",
                "void at::native::vectorized_elementwise_kernel<4, at::native::mul<float> >(int)", 15);
      gen_op (&g, "aten::relu", "[[64]]", "void at::native::vectorized_elementwise_kernel<4, at::native::relu<float> >(int)", 10);
      if (run->conv_op)
        gen_nested_op (&g, run->conv_op, run->conv_kernel, 30 + jitter);
      gen_event (&g, "user_annotation", step, 100, 100, start, g.t - start, "");
      g.t += 20;
    }
  g_string_append (g.s, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"GPU 0\"}}");
  g_string_append (g.s, ",\n{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":0,\"args\":{\"labels\":\"GPU 0\"}}");
  g_string_append (g.s, "]}");
  return g_string_free (g.s, FALSE);
}

typedef struct {
  char             *json[2];
  JsonNode         *root[2];
  ChronoTrace      *trace[2];
  ChronoComparison *c;
} Built;

static void
built_clear (Built *b)
{
  for (guint i = 0; i < 2; i++)
    {
      g_free (b->json[i]);
      json_node_unref (b->root[i]);
      g_object_unref (b->trace[i]);
    }
  g_clear_object (&b->c);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Built, built_clear)

static void
build (Built                      *b,
       const Run                  *a,
       const Run                  *bb,
       const ChronoCompareOptions *options)
{
  const Run *runs[2] = { a, bb };

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;

      b->json[i] = gen_run (runs[i]);
      json_parser_load_from_data (parser, b->json[i], -1, &error);
      g_assert_no_error (error);
      b->root[i] = json_node_copy (json_parser_get_root (parser));
      b->trace[i] = test_load_json (b->json[i]);
    }
  b->c = compare_traces (b->trace[0], b->trace[1], options);
  check_attribution (b->c);
  check_report (b->c);
}

static const ChronoCompareRow *
op_row (ChronoComparison *c,
        const char       *key)
{
  const ChronoCompareRow *r = find_row (c, FALSE, key);

  if (r == NULL)
    g_error ("no operator row %s", key);
  return r;
}

/* The kernel rows under operator OP. */
static GPtrArray *
kernels_under (ChronoComparison *c,
               const char       *op)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < chrono_comparison_get_n_kernels (c); i++)
    {
      const ChronoCompareRow *r = chrono_comparison_get_kernel (c, i);

      if (g_strcmp0 (r->op, op) == 0)
        g_ptr_array_add (out, (gpointer) r);
    }
  return out;
}

static gint64
kernel_delta_of_pair (ChronoComparison *c,
                      guint             pair,
                      ChronoLedgerState state)
{
  const ChronoComparePair *p = chrono_comparison_get_pair (c, pair);

  return chrono_comparison_get_window (c, 1, p->b)->state_ns[state] -
         chrono_comparison_get_window (c, 0, p->a)->state_ns[state];
}

static void
test_slower_kernel (void)
{
  g_auto(Built) b = { 0 };
  Run a, slow;
  const ChronoCompareRow *mm, *add;
  gint64 kernel_delta = 0;

  run_init (&a);
  run_init (&slow);
  slow.gemm_us = 80;
  slow.jitter_shift = 1;
  build (&b, &a, &slow, NULL);

  g_assert_true (chrono_comparison_get_by_number (b.c));
  g_assert_cmpuint (chrono_comparison_get_n_pairs (b.c), ==, 6);
  g_assert_cmpuint (chrono_comparison_get_n_used (b.c), ==, 5);
  g_assert_false (chrono_comparison_get_pair (b.c, 0)->used);
  g_assert_cmpstr (chrono_comparison_get_pair (b.c, 0)->excluded, ==, "warm-up: the first step");
  check_against_json (b.c, 0, b.root[0]);
  check_against_json (b.c, 1, b.root[1]);

  mm = op_row (b.c, "aten::mm [[64,64],[64,64]]");
  add = op_row (b.c, "aten::add [[64],[64]]");
  g_assert_cmpint (mm->match, ==, CHRONO_COMPARE_MATCH_NAME);
  g_assert_cmpint (mm->a.count, ==, 5);
  g_assert_cmpfloat (mm->a.count_per_step, ==, 1.0);
  g_assert_cmpfloat_with_epsilon (mm->delta_ns, (mm->b.device_ns - mm->a.device_ns) / 5.0, 1e-6);
  g_assert_cmpfloat (mm->delta_ns, >, 29 * US);
  g_assert_cmpint (mm->noise, ==, CHRONO_COMPARE_NOISE_BEYOND);
  g_assert_cmpfloat (mm->ci_low_ns, >, 0);
  /* The same kernel, with jitter only: within the noise. */
  g_assert_cmpfloat (fabs (add->delta_ns), <, 1 * US);
  g_assert_cmpint (add->noise, ==, CHRONO_COMPARE_NOISE_WITHIN);
  /* The costliest change comes first. */
  g_assert_true (chrono_comparison_get_op (b.c, 0) == mm);

  /* Kernels run one at a time: a step grows by its kernels' growth, all
   * of it computation. */
  for (guint i = 0; i < chrono_comparison_get_n_kernels (b.c); i++)
    {
      const ChronoCompareRow *r = chrono_comparison_get_kernel (b.c, i);
      kernel_delta += r->b.device_ns - r->a.device_ns;
    }
  {
    gint64 compute = 0, step = 0;

    for (guint i = 0; i < chrono_comparison_get_n_pairs (b.c); i++)
      {
        const ChronoComparePair *p = chrono_comparison_get_pair (b.c, i);
        const ChronoCompareWindow *wa = chrono_comparison_get_window (b.c, 0, p->a);
        const ChronoCompareWindow *wb = chrono_comparison_get_window (b.c, 1, p->b);

        if (!p->used)
          continue;
        compute += kernel_delta_of_pair (b.c, i, CHRONO_LEDGER_COMPUTE);
        step += (wb->end_ns - wb->start_ns) - (wa->end_ns - wa->start_ns);
        for (guint k = CHRONO_LEDGER_COMMUNICATION; k < CHRONO_N_LEDGER_STATES; k++)
          g_assert_cmpint (kernel_delta_of_pair (b.c, i, k), ==, 0);
      }
    g_assert_cmpint (compute, ==, kernel_delta);
    g_assert_cmpint (step, ==, kernel_delta);
  }
}

static void
test_step_added (void)
{
  Run a, more;
  ChronoCompareOptions options;

  run_init (&a);
  run_init (&more);
  more.n_steps = 7;
  {
    g_auto(Built) b = { 0 };
    const ChronoComparePair *last;

    build (&b, &a, &more, NULL);
    g_assert_cmpuint (chrono_comparison_get_n_pairs (b.c), ==, 7);
    last = chrono_comparison_get_pair (b.c, 6);
    g_assert_cmpint (last->a, ==, -1);
    g_assert_cmpstr (chrono_comparison_get_window (b.c, 1, last->b)->name, ==, "ProfilerStep#7");
    g_assert_false (last->used);
    g_assert_cmpstr (last->excluded, ==, "only in B");
    g_assert_cmpuint (chrono_comparison_get_n_used (b.c), ==, 5);
    check_against_json (b.c, 0, b.root[0]);
    check_against_json (b.c, 1, b.root[1]);
    /* Identical steps: nothing changed, and the noise says so. */
    for (guint i = 0; i < chrono_comparison_get_n_ops (b.c); i++)
      {
        const ChronoCompareRow *r = chrono_comparison_get_op (b.c, i);

        g_assert_cmpfloat (r->delta_ns, ==, 0);
        g_assert_cmpint (r->noise, ==, CHRONO_COMPARE_NOISE_WITHIN);
      }
    g_assert_false (chrono_comparison_get_divergence (b.c)->found);
  }
  {
    g_auto(Built) b = { 0 };

    chrono_compare_options_init (&options);
    options.has_steps = TRUE;
    options.first_step = 3;
    options.last_step = 4;
    build (&b, &a, &more, &options);
    g_assert_cmpuint (chrono_comparison_get_n_used (b.c), ==, 2);
    g_assert_cmpint (op_row (b.c, "aten::relu [[64]]")->a.count, ==, 2);
    check_against_json (b.c, 1, b.root[1]);
  }
  {
    g_autofree char *ja = gen_run (&a);
    g_autoptr(ChronoTrace) ta = test_load_json (ja);
    g_autoptr(ChronoAnalysis) an = chrono_analysis_run (&ta, 1, NULL, NULL, NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(ChronoComparison) none = NULL;

    chrono_compare_options_init (&options);
    options.has_steps = TRUE;
    options.first_step = 10;
    options.last_step = 12;
    none = chrono_comparison_run (an, an, &options, NULL, &error);
    g_assert_null (none);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  }
}

static void
test_other_kernel_name (void)
{
  g_auto(Built) b = { 0 };
  Run a, other;
  g_autoptr(GPtrArray) under = NULL;
  const ChronoCompareRow *k, *mm;

  run_init (&a);
  run_init (&other);
  other.gemm_kernel = GEMM_B;
  other.gemm_us = 60;
  build (&b, &a, &other, NULL);
  check_against_json (b.c, 0, b.root[0]);
  check_against_json (b.c, 1, b.root[1]);

  mm = op_row (b.c, "aten::mm [[64,64],[64,64]]");
  g_assert_cmpint (mm->match, ==, CHRONO_COMPARE_MATCH_NAME);
  g_assert_cmpfloat_with_epsilon (mm->delta_ns, 10 * US, 1e-6);
  /* One row: the two libraries' kernels matched through the operator. */
  under = kernels_under (b.c, "aten::mm [[64,64],[64,64]]");
  g_assert_cmpuint (under->len, ==, 1);
  k = under->pdata[0];
  g_assert_cmpint (k->match, ==, CHRONO_COMPARE_MATCH_OPERATOR);
  g_assert_cmpstr (k->a.name, ==, GEMM_A);
  g_assert_cmpstr (k->b.name, ==, GEMM_B);
  g_assert_cmpint (k->a.count, ==, 5);
  g_assert_cmpint (k->b.count, ==, 5);
  g_assert_cmpint (k->a.device_ns, ==, mm->a.device_ns);
  g_assert_cmpint (k->b.device_ns, ==, mm->b.device_ns);
  g_assert_cmpint (k->noise, ==, CHRONO_COMPARE_NOISE_BEYOND);
}

/* Kernels under different operators (cuDNN's and MIOpen's convolutions)
 * within the same one are matched under it; the operators stay apart. */
static void
test_other_operator_name (void)
{
  g_auto(Built) b = { 0 };
  Run a, other;
  g_autoptr(GPtrArray) under = NULL;
  g_autoptr(GPtrArray) under_inner = NULL;
  const ChronoCompareRow *k, *cudnn, *miopen;

  run_init (&a);
  run_init (&other);
  a.conv_op = "aten::cudnn_convolution";
  a.conv_kernel = "void cudnn::cnn::conv2d_grouped_direct_kernel<float, float>(float*)";
  other.conv_op = "aten::miopen_convolution";
  other.conv_kernel = "naive_conv_fwd_nchw_float";
  build (&b, &a, &other, NULL);
  check_against_json (b.c, 0, b.root[0]);
  check_against_json (b.c, 1, b.root[1]);

  cudnn = op_row (b.c, "aten::cudnn_convolution [[1,3,8,8],[4,3,3,3]]");
  miopen = op_row (b.c, "aten::miopen_convolution [[1,3,8,8],[4,3,3,3]]");
  g_assert_cmpint (cudnn->match, ==, CHRONO_COMPARE_MATCH_NONE);
  g_assert_cmpint (miopen->match, ==, CHRONO_COMPARE_MATCH_NONE);
  g_assert_cmpint (cudnn->b.count, ==, 0);
  g_assert_cmpint (miopen->a.count, ==, 0);
  under = kernels_under (b.c, "aten::_convolution [[1,3,8,8],[4,3,3,3]]");
  g_assert_cmpuint (under->len, ==, 1);
  k = under->pdata[0];
  g_assert_cmpint (k->match, ==, CHRONO_COMPARE_MATCH_OPERATOR);
  g_assert_cmpstr (k->a.name, ==, a.conv_kernel);
  g_assert_cmpstr (k->b.name, ==, other.conv_kernel);
  g_assert_cmpint (k->a.count, ==, 5);
  g_assert_cmpint (k->b.count, ==, 5);
  g_assert_cmpint (k->a.device_ns, ==, cudnn->a.device_ns);
  g_assert_cmpint (k->b.device_ns, ==, miopen->b.device_ns);
  under_inner = kernels_under (b.c, "aten::cudnn_convolution [[1,3,8,8],[4,3,3,3]]");
  g_assert_cmpuint (under_inner->len, ==, 0);
}

static void
test_divergence (void)
{
  Run a, extra;
  ChronoCompareOptions options;

  run_init (&a);
  run_init (&extra);
  extra.extra_op_step = 4;
  {
    g_auto(Built) b = { 0 };
    const ChronoCompareDivergence *d;

    chrono_compare_options_init (&options);
    options.has_steps = TRUE;
    options.first_step = 1;
    options.last_step = 6;
    build (&b, &a, &extra, &options);
    g_assert_cmpuint (chrono_comparison_get_n_used (b.c), ==, 6);
    d = chrono_comparison_get_divergence (b.c);
    g_assert_true (d->found);
    g_assert_cmpuint (d->pair, ==, 3);
    g_assert_cmpuint (d->common, ==, 2);
    g_assert_cmpuint (d->a_index, ==, 2);
    g_assert_cmpuint (d->b_index, ==, 2);
    g_assert_cmpuint (d->a_position, ==, 3 * 3 + 2);
    g_assert_cmpuint (d->b_position, ==, 3 * 3 + 2);
    g_assert_cmpstr (d->a_op, ==, "aten::relu [[64]]");
    g_assert_cmpstr (d->b_op, ==, "aten::mul [[64],[64]]");
    g_assert_true (d->resynced);
    g_assert_cmpuint (d->a_skipped, ==, 0);
    g_assert_cmpuint (d->b_inserted, ==, 1);
    g_assert_cmpint (op_row (b.c, "aten::mul [[64],[64]]")->match, ==, CHRONO_COMPARE_MATCH_NONE);
    check_against_json (b.c, 1, b.root[1]);
    {
      g_autofree char *md = chrono_comparison_to_markdown (b.c);

      g_assert_nonnull (strstr (md, "After 2 operators alike in ProfilerStep#"));
      g_assert_nonnull (strstr (md, "They agree again after 0 operators of A and 1 of B."));
    }
  }
  {
    /* Left to itself, the comparison leaves the longer step out. */
    g_auto(Built) b = { 0 };
    const ChronoComparePair *p;

    build (&b, &a, &extra, NULL);
    p = chrono_comparison_get_pair (b.c, 3);
    g_assert_false (p->used);
    g_assert_true (g_str_has_prefix (p->excluded, "outlier in B"));
    g_assert_false (chrono_comparison_get_divergence (b.c)->found);
  }
}

static void
test_one_step (void)
{
  g_auto(Built) b = { 0 };
  Run a, slow;
  const ChronoCompareRow *mm;

  run_init (&a);
  run_init (&slow);
  a.n_steps = slow.n_steps = 1;
  slow.gemm_us = 80;
  build (&b, &a, &slow, NULL);
  g_assert_cmpuint (chrono_comparison_get_n_used (b.c), ==, 1);
  mm = op_row (b.c, "aten::mm [[64,64],[64,64]]");
  g_assert_cmpfloat (mm->delta_ns, ==, 30 * US);
  g_assert_cmpint (mm->noise, ==, CHRONO_COMPARE_NOISE_UNKNOWN);
  check_against_json (b.c, 0, b.root[0]);
}

static void
test_marker (void)
{
  g_auto(Built) b = { 0 };
  Run a, slow;
  ChronoCompareOptions options;

  run_init (&a);
  run_init (&slow);
  slow.gemm_us = 80;
  chrono_compare_options_init (&options);
  options.align = CHRONO_COMPARE_ALIGN_MARKER;
  options.marker = "aten::mm";
  build (&b, &a, &slow, &options);
  g_assert_cmpint (chrono_comparison_get_align (b.c), ==, CHRONO_COMPARE_ALIGN_MARKER);
  g_assert_cmpuint (chrono_comparison_get_n_windows (b.c, 0), ==, 6);
  g_assert_cmpuint (chrono_comparison_get_n_used (b.c), ==, 5);
  /* Each window is one aten::mm call and its kernel. */
  g_assert_cmpint (op_row (b.c, "aten::mm [[64,64],[64,64]]")->b.count, ==, 5);
  g_assert_null (find_row (b.c, FALSE, "aten::add [[64],[64]]"));
  for (guint i = 0; i < chrono_comparison_get_n_pairs (b.c); i++)
    if (chrono_comparison_get_pair (b.c, i)->used)
      g_assert_cmpint (kernel_delta_of_pair (b.c, i, CHRONO_LEDGER_COMPUTE), ==, 30 * US);

  {
    g_autoptr(ChronoAnalysis) an = chrono_analysis_run (&b.trace[0], 1, NULL, NULL, NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(ChronoComparison) none = NULL;

    options.marker = "no such span";
    none = chrono_comparison_run (an, an, &options, NULL, &error);
    g_assert_null (none);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_assert_nonnull (strstr (error->message, "no such span"));
  }
}

static void
test_normalise (void)
{
  static const struct { const char *in, *out; } cases[] = {
    { "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >"
      "(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
      "at::native::vectorized_elementwise_kernel<>()" },
    { "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 3, 128, 1>(float*, int)",
      "at::native::(anonymous namespace)::CatArrayBatchedCopy<>()" },
    { "Memcpy HtoD (Pageable -> Device)", "Memcpy HtoD (Pageable -> Device)" },
    { "triton_poi_fused_add_0", "triton_poi_fused_add_N" },
    { "triton_poi_fused_add_17", "triton_poi_fused_add_N" },
    { "ampere_sgemm_128x64_nn", "ampere_sgemm_128x64_nn" },
    { "sm90_xmma_gemm_bf16bf16", "sm90_xmma_gemm_bf16bf16" },
    { "kernel at 0x7f3a00c0ffee", "kernel at 0x?" },
    { "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", "ncclDevKernel_AllReduce_Sum_f32_RING_LL()" },
    { "  spaced   name ", "spaced name" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = chrono_compare_normalise_kernel (cases[i].in);
      g_assert_cmpstr (got, ==, cases[i].out);
    }
}

/* The command line: JSON on standard output, and errors that name the file. */
static void
test_cli (void)
{
  const char *cli = g_getenv ("CHRONO_CLI");
  g_autofree char *dir = g_dir_make_tmp ("test-compare-XXXXXX", NULL);
  g_autofree char *pa = g_build_filename (dir, "a.json", NULL);
  g_autofree char *pb = g_build_filename (dir, "b.json", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.json", NULL);
  Run a, slow;
  g_autofree char *ja = NULL, *jb = NULL;

  if (cli == NULL)
    {
      g_test_skip ("CHRONO_CLI is not set");
      return;
    }
  run_init (&a);
  run_init (&slow);
  slow.gemm_us = 80;
  ja = gen_run (&a);
  jb = gen_run (&slow);
  g_assert_true (g_file_set_contents (pa, ja, -1, NULL));
  g_assert_true (g_file_set_contents (pb, jb, -1, NULL));
  {
    const char *argv[] = { cli, "compare", "--format", "json", pa, pb, NULL };
    g_autofree char *out = NULL, *err = NULL;
    g_autoptr(JsonParser) parser = json_parser_new ();
    int status;
    JsonObject *root;

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, NULL));
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
    root = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpstr (json_object_get_string_member (root, "schema"), ==, "chronoscope.compare/1");
    g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "a"), "file"), ==, pa);
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (json_object_get_array_member (root, "ops"), 0), "name"),
                     ==, "aten::mm");
  }
  {
    const char *argv[] = { cli, "compare", pa, missing, NULL };
    g_autofree char *out = NULL, *err = NULL;
    int status;

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, NULL));
    g_assert_false (g_spawn_check_wait_status (status, NULL));
    g_assert_nonnull (strstr (err, "missing.json"));
  }
  {
    /* Both sides load at once; A's fault is the one told, as it would be
     * loading one after the other. */
    g_autofree char *missing_b = g_build_filename (dir, "missing-b.json", NULL);
    const char *argv[] = { cli, "compare", missing, missing_b, NULL };
    g_autofree char *out = NULL, *err = NULL;
    int status;

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, NULL));
    g_assert_false (g_spawn_check_wait_status (status, NULL));
    if (strstr (err, "missing.json") == NULL || strstr (err, "missing-b.json") != NULL)
      g_error ("compare of two missing files (status %d) said: %s", status, err);
  }
  {
    const char *argv[] = { cli, "compare", "--align", "marker:nothing", pa, pb, NULL };
    g_autofree char *out = NULL, *err = NULL;
    int status;

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, NULL));
    g_assert_false (g_spawn_check_wait_status (status, NULL));
    if (strstr (err, "a.json") == NULL || strstr (err, "nothing") == NULL)
      g_error ("compare --align marker:nothing (status %d) said: %s", status, err);
  }
  g_unlink (pa);
  g_unlink (pb);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare/real/hta-trace-diff", test_hta_trace_diff);
  g_test_add_func ("/compare/real/kineto-docs", test_kineto_docs);
  g_test_add_func ("/compare/real/dlrm-ranks", test_dlrm_ranks);
  g_test_add_func ("/compare/real/rocm-cuda", test_rocm_cuda);
  g_test_add_func ("/compare/real/given", test_given_pairs);
  g_test_add_func ("/compare/built/slower-kernel", test_slower_kernel);
  g_test_add_func ("/compare/built/step-added", test_step_added);
  g_test_add_func ("/compare/built/other-kernel-name", test_other_kernel_name);
  g_test_add_func ("/compare/built/other-operator-name", test_other_operator_name);
  g_test_add_func ("/compare/built/divergence", test_divergence);
  g_test_add_func ("/compare/built/one-step", test_one_step);
  g_test_add_func ("/compare/built/marker", test_marker);
  g_test_add_func ("/compare/normalise", test_normalise);
  g_test_add_func ("/compare/cli", test_cli);
  return g_test_run ();
}
