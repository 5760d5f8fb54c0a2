/* test-neuron-metrics.c: a NeuronCore's metrics against what the
 * generator planted (its truth.json), the profiler's own figures, the
 * sources of the peaks, and the Parquet twin of a profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "chrono-analysis.h"
#include "chrono-comparison.h"
#include "chrono-device-peaks.h"
#include "chrono-loader.h"
#include "chrono-neuron-ledger.h"
#include "chrono-neuron-ops.h"
#include "chrono-trace-set.h"
#include "neuron-gen.h"

#define PLANT "compute,dma-bound,engine-bound,small-dma,spill,transpose,collective,throttle,late-start"

/* The documented formulas agree with ours to this share. */
#define TOLERANCE 0.02

typedef struct {
  char    *dir;
  char    *json;       /* the device profile */
  JsonNode *truth;
} Profile;

static void
profile_clear (Profile *p)
{
  g_autofree char *truth = g_build_filename (p->dir, "truth.json", NULL);
  g_autofree char *tables = g_build_filename (p->dir, "tables", NULL);
  g_autoptr(GDir) dir = g_dir_open (tables, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tables, name, NULL);
      g_unlink (path);
    }
  g_rmdir (tables);
  g_unlink (p->json);
  g_unlink (truth);
  g_rmdir (p->dir);
  g_free (p->dir);
  g_free (p->json);
  g_clear_pointer (&p->truth, json_node_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Profile, profile_clear)

static JsonNode *
read_json (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return json_node_ref (json_parser_get_root (parser));
}

/* A planted profile of INSTANCE and its truth. */
static void
profile_write (Profile    *p,
               const char *instance,
               const char *plant)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *truth = NULL;
  NeuronGenOptions o;
  NeuronGenCounts c;

  p->dir = g_dir_make_tmp ("chronoscope-neuron-metrics-XXXXXX", &error);
  g_assert_no_error (error);
  p->json = g_build_filename (p->dir, "device_profile_model_1.json", NULL);
  truth = g_build_filename (p->dir, "truth.json", NULL);
  neuron_gen_options_init (&o);
  o.plant = plant;
  o.instance = instance;
  g_assert_true (neuron_gen_write_device (p->json, &o, &c, &error));
  g_assert_no_error (error);
  g_assert_true (neuron_gen_write_truth (truth, &o, &error));
  g_assert_no_error (error);
  p->truth = read_json (truth);
}

static JsonNode *
analyze_path (const char                     *path,
              const ChronoAnalysisThresholds *thresholds,
              char                          **markdown)
{
  const char *paths[] = { path, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = chrono_trace_load_set (paths, NULL, NULL, NULL, &error);
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autofree char *json = NULL;
  ChronoAnalysisOptions options;

  g_assert_no_error (error);
  chrono_analysis_options_init (&options);
  if (thresholds)
    options.thresholds = *thresholds;
  a = chrono_analysis_run (&trace, 1, &options, NULL, &error);
  g_assert_no_error (error);
  json = chrono_analysis_to_json (a);
  if (markdown)
    *markdown = chrono_analysis_to_markdown (a);
  return json_from_string (json, &error);
}

/* The neuron member's only core. */
static JsonObject *
only_core (JsonNode *report)
{
  JsonArray *cores = json_object_get_array_member (json_node_get_object (report), "neuron");

  g_assert_nonnull (cores);
  g_assert_cmpuint (json_array_get_length (cores), ==, 1);
  return json_array_get_object_element (cores, 0);
}

static void
assert_close (const char *what,
              gdouble     ours,
              gdouble     truth)
{
  if (fabs (ours - truth) > TOLERANCE * fabs (truth) + 1e-9)
    g_error ("%s: %.9g, the truth %.9g", what, ours, truth);
}

static gdouble
member (JsonObject *o,
        const char *name)
{
  JsonNode *n = json_object_get_member (o, name);

  if (n == NULL || JSON_NODE_HOLDS_NULL (n))
    g_error ("%s is missing or null", name);
  return json_node_get_double (n);
}

/* -------------------------------------------------------------------- */
/* The documented formulas, on each instance                            */

static const char * const truth_figures[] = {
  "hfu_percent", "mfu_percent", "mbu_percent", "throttled_active_percent",
  "hardware_flops", "transpose_flops", "model_flops", "hbm_read_bytes", "hbm_write_bytes",
  "spill_reload_bytes", "spill_save_bytes", "dma_transfers",
};

static void
test_truth (gconstpointer data)
{
  const char *instance = data;
  g_auto(Profile) p = { 0 };
  g_autoptr(JsonNode) report = NULL;
  JsonObject *truth, *metrics, *core, *execution;
  JsonArray *differences, *families;

  profile_write (&p, instance, PLANT);
  report = analyze_path (p.json, NULL, NULL);
  core = only_core (report);
  truth = json_node_get_object (p.truth);
  metrics = json_object_get_object_member (truth, "metrics");

  assert_close ("peak_tflops", member (core, "peak_tflops"), member (truth, "peak_tflops"));
  assert_close ("hbm_bandwidth_gbps", member (core, "hbm_bandwidth_gbps"), member (truth, "hbm_bandwidth_gbps"));
  g_assert_cmpstr (json_object_get_string_member (core, "peak_tflops_source"), ==, "metadata");
  g_assert_cmpint (json_object_get_int_member (core, "physical_cores"), ==,
                   json_object_get_int_member (truth, "physical_cores"));
  for (guint i = 0; i < G_N_ELEMENTS (truth_figures); i++)
    assert_close (truth_figures[i], member (core, truth_figures[i]), member (metrics, truth_figures[i]));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (core, "dma"), "small_transfers"), ==,
                   json_object_get_int_member (metrics, "small_dma_transfers"));
  assert_close ("dma bytes", member (json_object_get_object_member (core, "dma"), "bytes"), member (metrics, "dma_bytes"));

  /* The one execution is the whole window. */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (core, "executions")), ==, 1);
  execution = json_array_get_object_element (json_object_get_array_member (core, "executions"), 0);
  assert_close ("the execution's hfu_percent", member (execution, "hfu_percent"), member (metrics, "hfu_percent"));

  /* Each engine's instructions as the profiler's summary counts them. */
  families = json_object_get_array_member (core, "engine_families");
  g_assert_cmpuint (json_array_get_length (families), ==, 5);
  for (guint i = 0; i < json_array_get_length (families); i++)
    {
      JsonObject *f = json_array_get_object_element (families, i);

      g_assert_cmpfloat (member (f, "instructions"), ==, member (f, "profiler_instructions"));
    }
  assert_close ("Tensor active time", member (json_array_get_object_element (families, 0), "active_ns"),
                member (json_array_get_object_element (families, 0), "profiler_active_ns"));

  /* The profiler's summary was computed with the same formulas, but for
   * its ridge point, which divides one physical core's peak. */
  differences = json_object_get_array_member (core, "differences");
  for (guint i = 0; i < json_array_get_length (differences); i++)
    {
      const char *d = json_array_get_string_element (differences, i);

      if (!g_str_has_prefix (d, "ridge_flops_per_byte") || json_object_get_int_member (truth, "physical_cores") == 1)
        g_error ("unexpected difference: %s", d);
    }
}

/* -------------------------------------------------------------------- */
/* The profiler's own figures                                           */

/* TEXT with the number after KEY multiplied by FACTOR. */
static char *
scale_member (const char *text,
              const char *key,
              gdouble     factor)
{
  g_autofree char *quoted = g_strdup_printf ("\"%s\": ", key);
  const char *at = strstr (text, quoted);
  char *end = NULL;
  gdouble value;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_assert_nonnull (at);
  at += strlen (quoted);
  value = g_ascii_strtod (at, &end);
  g_assert_true (end > at);
  return g_strdup_printf ("%.*s%s%s", (int) (at - text), text, g_ascii_dtostr (buf, sizeof buf, value * factor), end);
}

static gboolean
has_difference (JsonObject *core,
                const char *name)
{
  JsonArray *d = json_object_get_array_member (core, "differences");

  for (guint i = 0; i < json_array_get_length (d); i++)
    if (g_str_has_prefix (json_array_get_string_element (d, i), name))
      return TRUE;
  return FALSE;
}

static void
test_profiler_difference (void)
{
  g_auto(Profile) p = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL, *off = NULL, *near = NULL, *md = NULL;
  g_autoptr(JsonNode) report = NULL;
  JsonObject *core;

  profile_write (&p, "trn1", "compute,dma-bound");
  g_file_get_contents (p.json, &text, NULL, &error);
  g_assert_no_error (error);

  report = analyze_path (p.json, NULL, NULL);
  g_assert_false (has_difference (only_core (report), "hfu_percent"));
  g_clear_pointer (&report, json_node_unref);

  /* 5 % off: said, in the JSON and the Markdown. */
  off = scale_member (text, "hfu_estimated_percent", 1.05);
  g_file_set_contents (p.json, off, -1, &error);
  g_assert_no_error (error);
  report = analyze_path (p.json, NULL, &md);
  core = only_core (report);
  g_assert_true (has_difference (core, "hfu_percent"));
  g_assert_false (has_difference (core, "mfu_percent"));
  g_assert_nonnull (strstr (md, "Differs from the profiler by more than 2 %: hfu_percent"));
  g_clear_pointer (&report, json_node_unref);

  /* 1 % off: within the tolerance. */
  near = scale_member (text, "mbu_estimated_percent", 1.01);
  g_file_set_contents (p.json, near, -1, &error);
  g_assert_no_error (error);
  report = analyze_path (p.json, NULL, NULL);
  g_assert_false (has_difference (only_core (report), "mbu_percent"));
}

/* -------------------------------------------------------------------- */
/* Where the peaks come from                                            */

/* TEXT with KEY's value replaced by null. */
static char *
null_member (const char *text,
             const char *key)
{
  g_autofree char *quoted = g_strdup_printf ("\"%s\": ", key);
  const char *at = strstr (text, quoted);
  const char *end;

  g_assert_nonnull (at);
  at += strlen (quoted);
  end = at + strcspn (at, ",}");
  return g_strdup_printf ("%.*snull%s", (int) (at - text), text, end);
}

/* The profile at PATH with EDIT applied for each of KEYS. */
static void
edit_profile (const char         *path,
              char             *(*edit) (const char *text, const char *key),
              const char * const *keys)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      char *next = edit (text, keys[i]);

      g_free (text);
      text = next;
    }
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static const char * const metadata_keys[] = { "tensor_engine_clock_freq", "hbm_ddr_bandwidth", "num_physical_cores", NULL };

static void
test_peak_sources (void)
{
  g_auto(Profile) p = { 0 };
  g_autoptr(JsonNode) report = NULL;
  ChronoAnalysisThresholds th;
  JsonObject *core, *metrics;
  gdouble truth_peak, hfu;

  profile_write (&p, "inf2", "compute,transpose");
  metrics = json_object_get_object_member (json_node_get_object (p.truth), "metrics");
  truth_peak = member (json_node_get_object (p.truth), "peak_tflops");
  hfu = member (metrics, "hfu_percent");

  /* The Metadata's array, clock and stack. */
  report = analyze_path (p.json, NULL, NULL);
  core = only_core (report);
  g_assert_cmpstr (json_object_get_string_member (core, "peak_tflops_source"), ==, "metadata");
  g_assert_cmpstr (json_object_get_string_member (core, "hbm_bandwidth_source"), ==, "metadata");
  g_assert_cmpstr (json_object_get_string_member (core, "peak_table_entry"), ==, "AWS Inferentia2 (NeuronCore-v2)");
  g_clear_pointer (&report, json_node_unref);

  /* Without the clock, the stack and the core count: the table, by the
   * instance type. */
  edit_profile (p.json, null_member, metadata_keys);
  report = analyze_path (p.json, NULL, NULL);
  core = only_core (report);
  g_assert_cmpstr (json_object_get_string_member (core, "peak_tflops_source"), ==, "table");
  g_assert_cmpstr (json_object_get_string_member (core, "hbm_bandwidth_source"), ==, "table");
  g_assert_cmpstr (json_object_get_string_member (core, "physical_cores_source"), ==, "table");
  assert_close ("table peak", member (core, "peak_tflops"), 91.75);
  assert_close ("table HBM", member (core, "hbm_bandwidth_gbps"), 410);
  assert_close ("hfu at the table's peak", member (core, "hfu_percent"), hfu * truth_peak / 91.75);
  g_clear_pointer (&report, json_node_unref);

  /* The settings win over both. */
  chrono_analysis_thresholds_init (&th);
  th.peak_gflops = 50000;
  th.peak_memory_gbps = 1000;
  report = analyze_path (p.json, &th, NULL);
  core = only_core (report);
  g_assert_cmpstr (json_object_get_string_member (core, "peak_tflops_source"), ==, "settings");
  g_assert_cmpstr (json_object_get_string_member (core, "hbm_bandwidth_source"), ==, "settings");
  assert_close ("set peak", member (core, "peak_tflops"), 50);
  assert_close ("hfu at the set peak", member (core, "hfu_percent"), hfu * truth_peak / 50);
  assert_close ("mbu at the set bandwidth", member (core, "mbu_percent"),
                member (metrics, "mbu_percent") * member (json_node_get_object (p.truth), "hbm_bandwidth_gbps") / 1000);
}

/* Every Neuron figure of the table is documented with a source. */
static void
test_peaks_documented (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "docs", "efficiency.md", NULL);
  g_autofree char *doc = NULL;
  g_autoptr(GError) error = NULL;
  guint n;
  const ChronoNeuronPeaks *table = chrono_device_peaks_get_neuron_table (&n);

  g_file_get_contents (path, &doc, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      const char *row = strstr (doc, table[i].name);
      g_autofree char *bf16 = g_strdup_printf ("%g", table[i].bf16_tflops);
      g_autofree char *hbm = g_strdup_printf ("%g", table[i].hbm_gbps);
      const char *eol;

      if (row == NULL)
        g_error ("docs/efficiency.md does not list %s", table[i].name);
      eol = strchr (row, '\n');
      if (g_strstr_len (row, eol - row, bf16) == NULL || g_strstr_len (row, eol - row, hbm) == NULL ||
          g_strstr_len (row, eol - row, "http") == NULL)
        g_error ("docs/efficiency.md: the row of %s lacks %s, %s or its source", table[i].name, bf16, hbm);
    }
}

/* -------------------------------------------------------------------- */
/* FLOPs from the elements                                              */

/* TEXT with every KEY renamed, so that the reader does not know it. */
static char *
rename_key (const char *text,
            const char *key)
{
  g_autofree char *quoted = g_strdup_printf ("\"%s\":", key);
  g_autofree char *renamed = g_strdup_printf ("\"x_%s\":", key);
  g_auto(GStrv) parts = g_strsplit (text, quoted, -1);

  g_assert_cmpuint (g_strv_length (parts), >, 1);
  return g_strjoinv (renamed, parts);
}

static void
test_flops_from_elements (void)
{
  g_auto(Profile) p = { 0 };
  g_autoptr(JsonNode) report = NULL;
  JsonObject *core, *metrics;
  static const char * const keys[] = { "raw_flops", "adjusted_flops", "flops_transpose", "adjusted_flops_transpose", NULL };

  profile_write (&p, "trn2", "compute,transpose");
  metrics = json_object_get_object_member (json_node_get_object (p.truth), "metrics");
  edit_profile (p.json, rename_key, keys);
  report = analyze_path (p.json, NULL, NULL);
  core = only_core (report);
  g_assert_cmpstr (json_object_get_string_member (core, "flops_source"), ==, "elements");
  assert_close ("hardware_flops", member (core, "hardware_flops"), member (metrics, "hardware_flops"));
  assert_close ("transpose_flops", member (core, "transpose_flops"), member (metrics, "transpose_flops"));
  assert_close ("hfu_percent", member (core, "hfu_percent"), member (metrics, "hfu_percent"));
}

/* -------------------------------------------------------------------- */
/* The operator table                                                   */

static void
test_operators (void)
{
  g_auto(Profile) p = { 0 };
  g_autoptr(GError) error = NULL;
  const char *paths[2] = { NULL, NULL };
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autoptr(ChronoNeuronOpTable) table = NULL;
  const ChronoNeuronLedger *ledger = NULL;
  JsonObject *metrics;
  gdouble flops[2] = { 0, 0 };
  gint64 lost = 0, gaps = 0, tensor = 0;

  profile_write (&p, "trn1", "compute,dma-bound,transpose");
  metrics = json_object_get_object_member (json_node_get_object (p.truth), "metrics");
  paths[0] = p.json;
  trace = chrono_trace_load_set (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  a = chrono_analysis_run (&trace, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  table = chrono_analysis_get_neuron_ops (a, 0);
  g_assert_nonnull (table);
  g_assert_null (chrono_analysis_get_neuron_ops (a, 1));
  g_assert_cmpuint (chrono_neuron_op_table_get_n_ops (table), >, 1);

  /* Every FLOP is in one framework and one HLO operator. */
  for (guint i = 0; i < chrono_neuron_op_table_get_n_ops (table); i++)
    {
      const ChronoNeuronOp *op = chrono_neuron_op_table_get_op (table, i);

      flops[op->kind] += op->flops;
      if (op->kind == CHRONO_NEURON_OP_HLO)
        {
          lost += op->lost_ns;
          tensor = MAX (tensor, op->tensor_ns);
        }
      if (i > 0)
        g_assert_cmpint (op->tensor_ns, <=, chrono_neuron_op_table_get_op (table, i - 1)->tensor_ns);
    }
  assert_close ("framework FLOPs", flops[CHRONO_NEURON_OP_FRAMEWORK], member (metrics, "hardware_flops"));
  assert_close ("HLO FLOPs", flops[CHRONO_NEURON_OP_HLO], member (metrics, "hardware_flops"));
  g_assert_cmpint (tensor, >, 0);

  /* The idle time before the operators is the ledger's gaps that an
   * instruction ended: here, each named by its HLO instruction. */
  for (guint b = 0; ledger == NULL && b < 8; b++)
    ledger = chrono_analysis_get_neuron_ledger (a, b);
  g_assert_nonnull (ledger);
  for (guint g = 0; g < chrono_neuron_ledger_get_n_gaps (ledger); g++)
    {
      const ChronoNeuronGap *gap = chrono_neuron_ledger_get_gap (ledger, g);

      if (!gap->tail && gap->n_links > 0)
        gaps += gap->end_ns - gap->start_ns;
    }
  g_assert_cmpint (gaps, >, 0);
  g_assert_cmpint (lost, ==, gaps);
}

/* -------------------------------------------------------------------- */
/* The Parquet twin                                                     */

static void
test_parquet_twin (void)
{
  g_auto(Profile) p = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *why = NULL, *tables = NULL;
  g_autoptr(JsonNode) js = NULL, pq = NULL;
  NeuronGenParquetOptions po;
  JsonObject *a, *b;
  JsonArray *ops_a, *ops_b;
  static const char * const same[] = {
    "peak_tflops", "hbm_bandwidth_gbps", "physical_cores", "start_ns", "end_ns",
    "hfu_percent", "mfu_percent", "mbu_percent", "throttled_active_percent", "hardware_flops", "transpose_flops",
    "hbm_read_bytes", "hbm_write_bytes", "spill_reload_bytes", "spill_save_bytes", "dma_transfers",
    "tensor_active_ns",
  };

  if (!neuron_gen_parquet_available (&why))
    {
      g_test_skip (why);
      return;
    }
  profile_write (&p, "trn2", PLANT);
  tables = g_build_filename (p.dir, "tables", NULL);
  neuron_gen_parquet_options_init (&po);
  g_assert_true (neuron_gen_write_parquet (p.json, tables, &po, NULL, &error));
  g_assert_no_error (error);
  js = analyze_path (p.json, NULL, NULL);
  pq = analyze_path (tables, NULL, NULL);
  a = only_core (js);
  b = only_core (pq);
  for (guint i = 0; i < G_N_ELEMENTS (same); i++)
    assert_close (same[i], member (b, same[i]), member (a, same[i]));
  g_assert_cmpstr (json_object_get_string_member (b, "peak_tflops_source"), ==, "metadata");
  g_assert_cmpstr (json_object_get_string_member (b, "flops_source"), ==, json_object_get_string_member (a, "flops_source"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (b, "executions")), ==, 1);
  ops_a = json_object_get_array_member (a, "operators");
  ops_b = json_object_get_array_member (b, "operators");
  g_assert_cmpuint (json_array_get_length (ops_a), ==, json_array_get_length (ops_b));
  for (guint i = 0; i < json_array_get_length (ops_a); i++)
    {
      JsonObject *x = json_array_get_object_element (ops_a, i), *y = json_array_get_object_element (ops_b, i);

      g_assert_cmpstr (json_object_get_string_member (x, "name"), ==, json_object_get_string_member (y, "name"));
      g_assert_cmpint (json_object_get_int_member (x, "tensor_ns"), ==, json_object_get_int_member (y, "tensor_ns"));
    }
}

/* -------------------------------------------------------------------- */
/* Two profiles compared                                                */

static JsonObject *
find_row (JsonArray  *rows,
          const char *key,
          const char *value)
{
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);

      if (g_strcmp0 (json_object_get_string_member (row, key), value) == 0)
        return row;
    }
  g_error ("no row with %s %s", key, value);
  return NULL;
}

/* B runs one more DMA-bound phase than A: the comparison finds the time
 * in the ledger's idle_dma and in the operator that waited, and lists no
 * DMA queue as a kernel. */
static void
test_compare (void)
{
  g_auto(Profile) pa = { 0 };
  g_auto(Profile) pb = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) ta = NULL, tb = NULL;
  g_autoptr(ChronoAnalysis) a = NULL, b = NULL;
  g_autoptr(ChronoComparison) cmp = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL, *md = NULL;
  JsonObject *neuron, *ledger_a, *ledger_b, *row;
  JsonArray *kernels, *operators;
  ChronoAnalysisOptions options;
  gint64 lost_delta = 0;

  profile_write (&pa, "trn1", "compute,dma-bound");
  profile_write (&pb, "trn1", "compute,dma-bound,dma-bound");
  ledger_a = json_object_get_object_member (json_node_get_object (pa.truth), "ledger");
  ledger_b = json_object_get_object_member (json_node_get_object (pb.truth), "ledger");
  ta = chrono_trace_load_file (pa.json, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  tb = chrono_trace_load_file (pb.json, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  chrono_analysis_options_init (&options);
  options.without_ledger_rows = TRUE;
  a = chrono_analysis_run (&ta, 1, &options, NULL, &error);
  g_assert_no_error (error);
  b = chrono_analysis_run (&tb, 1, &options, NULL, &error);
  g_assert_no_error (error);
  cmp = chrono_comparison_run (a, b, NULL, NULL, &error);
  g_assert_no_error (error);
  json = chrono_comparison_to_json (cmp);
  md = chrono_comparison_to_markdown (cmp);
  root = json_from_string (json, &error);
  g_assert_no_error (error);

  kernels = json_object_get_array_member (json_node_get_object (root), "kernels");
  for (guint i = 0; i < json_array_get_length (kernels); i++)
    g_assert_false (g_str_has_prefix (json_object_get_string_member (json_array_get_object_element (kernels, i), "name"), "q"));

  neuron = json_object_get_object_member (json_node_get_object (root), "neuron");
  g_assert_nonnull (neuron);
  for (guint i = 0; i < 2; i++)
    {
      const char *state = i == 0 ? "idle_dma" : "compute";
      gint64 truth = json_object_get_int_member (ledger_b, state) - json_object_get_int_member (ledger_a, state);

      row = find_row (json_object_get_array_member (neuron, "ledger"), "state", state);
      g_assert_cmpint (truth, >, 0);
      assert_close (state, json_object_get_int_member (row, "delta_ns"), truth);
    }
  row = find_row (json_object_get_array_member (neuron, "figures"), "figure", "dma_transfers");
  g_assert_cmpfloat (json_object_get_double_member (row, "b"), >, json_object_get_double_member (row, "a"));

  /* The idle time the extra phase costs lies before its operators. */
  operators = json_object_get_array_member (neuron, "operators");
  g_assert_cmpuint (json_array_get_length (operators), >, 0);
  for (guint i = 0; i < json_array_get_length (operators); i++)
    {
      JsonObject *op = json_array_get_object_element (operators, i);

      if (g_strcmp0 (json_object_get_string_member (op, "kind"), "hlo") == 0)
        lost_delta += json_object_get_int_member (op, "delta_lost_ns");
    }
  assert_close ("idle time before the HLO operators", lost_delta,
                json_object_get_int_member (find_row (json_object_get_array_member (neuron, "ledger"), "state", "idle_dma"),
                                            "delta_ns"));
  g_assert_nonnull (strstr (md, "## NeuronCores"));
  g_assert_null (strstr (md, "| qSyncIO"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; neuron_gen_instance_names[i] != NULL; i++)
    {
      g_autofree char *path = g_strdup_printf ("/neuron-metrics/truth/%s", neuron_gen_instance_names[i]);

      g_test_add_data_func (path, neuron_gen_instance_names[i], test_truth);
    }
  g_test_add_func ("/neuron-metrics/profiler-difference", test_profiler_difference);
  g_test_add_func ("/neuron-metrics/peak-sources", test_peak_sources);
  g_test_add_func ("/neuron-metrics/peaks-documented", test_peaks_documented);
  g_test_add_func ("/neuron-metrics/flops-from-elements", test_flops_from_elements);
  g_test_add_func ("/neuron-metrics/operators", test_operators);
  g_test_add_func ("/neuron-metrics/parquet-twin", test_parquet_twin);
  g_test_add_func ("/neuron-metrics/compare", test_compare);
  return g_test_run ();
}
