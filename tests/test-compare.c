/* test-compare.c: two runs compared, on real pairs and on pairs built
 * with a known difference, checked against an independent reading of
 * the same JSON with json-glib
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "chrono-comparison.h"
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
} Op;

typedef struct {
  GHashTable *count;     /* op key -> gint64 * */
  GHashTable *device;    /* op key -> gint64 * */
  gint64      work_ns;   /* all device work launched in the windows */
  gint64      charged_ns;/* of which under an operator */
} Expect;

static void
expect_clear (Expect *e)
{
  g_hash_table_unref (e->count);
  g_hash_table_unref (e->device);
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

/* The windows named NAMES (ProfilerStep spans), or the whole trace. */
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
          g_str_has_prefix (name, "ProfilerStep#"))
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
  e->work_ns = e->charged_ns = 0;

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      const char *cat = json_object_get_string_member_with_default (ev, "cat", "");

      if (g_strcmp0 (json_object_get_string_member_with_default (ev, "ph", ""), "X") != 0)
        continue;
      if (strcmp (cat, "cpu_op") == 0)
        {
          Op op = { int_member (ev, "tid", 0), int_member (ev, "pid", 0), ns_of (ev, "ts"), 0, op_key (ev) };

          op.end = op.ts + ns_of (ev, "dur");
          if (in_window (wins, op.ts) >= 0)
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
          const Op *op = &g_array_index (ops, Op, k);

          if (op->pid != call[0] || op->tid != call[1])
            break;
          if (op->ts <= call[2] && op->end >= call[3])
            {
              add_to (e->device, op->key, dur);
              e->charged_ns += dur;
              break;
            }
        }
    }
  for (guint i = 0; i < ops->len; i++)
    g_free (g_array_index (ops, Op, i).key);
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
  return side == 0 ? &r->a : &r->b;
}

/* Each side's operator counts and direct device times equal the
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

      if (r == NULL)
        g_printerr ("no row for “%s” on side %u\n", (const char *) key, side);
      g_assert_nonnull (r);
      g_assert_cmpint (side_of (r, side)->count, ==, *(gint64 *) value);
      g_assert_cmpint (side_of (r, side)->device_ns, ==, get_from (e.device, key));
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
}

/* ------------------------------------------------------------------ */
/* Real pairs                                                         */

static JsonNode *
parse_path (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) raw = G_INPUT_STREAM (g_file_read (file, NULL, &error));
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_assert_no_error (error);
  if (g_str_has_suffix (path, ".gz"))
    {
      g_autoptr(GZlibDecompressor) gz = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
      in = g_converter_input_stream_new (raw, G_CONVERTER (gz));
    }
  else
    in = g_object_ref (raw);
  json_parser_load_from_stream (parser, in, NULL, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static void
check_real_pair (const char *name_a,
                 const char *name_b)
{
  g_autoptr(ChronoTrace) a = test_traces_load (name_a);
  g_autoptr(ChronoTrace) b = a ? test_traces_load (name_b) : NULL;
  g_autoptr(ChronoComparison) c = NULL;
  g_autoptr(JsonNode) ja = NULL;
  g_autoptr(JsonNode) jb = NULL;

  if (b == NULL)
    return;
  c = compare_traces (a, b, NULL);
  g_assert_cmpuint (chrono_comparison_get_n_used (c), >, 0);
  check_attribution (c);
  ja = parse_path (chrono_trace_get_path (a));
  jb = parse_path (chrono_trace_get_path (b));
  check_against_json (c, 0, ja);
  check_against_json (c, 1, jb);
  check_report (c);
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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare/real/hta-trace-diff", test_hta_trace_diff);
  g_test_add_func ("/compare/real/kineto-docs", test_kineto_docs);
  return g_test_run ();
}
