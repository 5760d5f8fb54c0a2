/* test-neuron-ledger.c: a NeuronCore's ledger follows its Tensor engine,
 * and each gap's cause is found along its dependency chain
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <json-glib/json-glib.h>

#include "chrono-analysis.h"
#include "chrono-loader.h"
#include "chrono-neuron-ledger.h"
#include "chrono-trace-set.h"
#include "neuron-gen.h"
#include "test-utils.h"

typedef struct {
  ChronoTrace    *trace;
  ChronoAnalysis *analysis;
  const ChronoLedgerRow    *row;     /* the core's whole window */
  const ChronoNeuronLedger *ledger;
} Fixture;

/* Analyses TRACE, which F takes, and finds its NeuronCore's ledger. */
static void
fixture_analyse (Fixture     *f,
                 ChronoTrace *trace)
{
  g_autoptr(GError) error = NULL;

  f->trace = trace;
  f->analysis = chrono_analysis_run (&f->trace, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  f->row = NULL;
  for (guint i = 0; i < chrono_analysis_get_n_ledger_rows (f->analysis); i++)
    {
      const ChronoLedgerRow *r = chrono_analysis_get_ledger_row (f->analysis, i);
      if (r->neuron_core && r->step < 0)
        f->row = r;
    }
  g_assert_nonnull (f->row);
  f->ledger = chrono_analysis_get_neuron_ledger (f->analysis, f->row->breakdown);
  g_assert_nonnull (f->ledger);
}

/* A device profile of one NeuronCore from its tables' records, and
 * EXTRA (nullable) members. */
static void
fixture_load_with (Fixture    *f,
                   const char *instructions,
                   const char *dma,
                   const char *extra)
{
  g_autofree char *json = g_strdup_printf ("{\"instruction\": [%s], \"dma\": [%s], %s\"summary\": [{\"nc_idx\": \"0\"}]}",
                                           instructions, dma ? dma : "", extra ? extra : "");
  gsize len = strlen (json);
  g_autoptr(GBytes) data = g_bytes_new_take (g_steal_pointer (&json), len);
  g_autoptr(GError) error = NULL;

  ChronoTrace *trace = chrono_trace_load_bytes (data, "device_profile_model_1.json", &error);

  g_assert_no_error (error);
  fixture_analyse (f, trace);
}

static void
fixture_load (Fixture    *f,
              const char *instructions,
              const char *dma)
{
  fixture_load_with (f, instructions, dma, NULL);
}

static void
fixture_clear (Fixture *f)
{
  g_clear_object (&f->analysis);
  g_clear_object (&f->trace);
}

/* The states sum to the window, and the GPU states stay empty. */
static void
assert_sums (const Fixture *f)
{
  gint64 total = 0;

  for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
    {
      if (!chrono_ledger_state_is_neuron (k))
        g_assert_cmpint (f->row->state_ns[k], ==, 0);
      total += f->row->state_ns[k];
    }
  g_assert_cmpint (total, ==, f->row->end_ns - f->row->start_ns);
}

static const ChronoNeuronGap *
only_gap (const Fixture *f)
{
  g_assert_cmpuint (chrono_neuron_ledger_get_n_gaps (f->ledger), ==, 1);
  return chrono_neuron_ledger_get_gap (f->ledger, 0);
}

static ChronoNeuronUnit
link_unit (const Fixture         *f,
           const ChronoNeuronGap *gap,
           guint                  k)
{
  g_assert_cmpuint (k, <, gap->n_links);
  return chrono_neuron_ledger_get_link (f->ledger, gap->first_link + k)->unit;
}

/* A DMA completes a semaphore that a Sync instruction waits for; the
 * Tensor instruction depends on the Sync one: the gap waited for the DMA. */
static void
test_sync_pass_through (void)
{
  Fixture f;
  const ChronoNeuronGap *gap;

  fixture_load (&f,
                "{\"timestamp\": 0, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 1},"
                "{\"timestamp\": 1000, \"duration\": 10, \"label\": \"Sync\", \"opcode\": \"EVENT_SEMAPHORE\", \"id\": 2,"
                " \"operands\": \"$S[20]>=1 S[3] (Sync)++@complete\"},"
                "{\"timestamp\": 1050, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 3,"
                " \"inst_dep_ids\": [2]}",
                "{\"timestamp\": 100, \"duration\": 900, \"subgroup\": \"qSyncIO0\","
                " \"semaphore_id\": \"S[20] (qSyncIO0)\", \"transfer_size\": 65536}");
  assert_sums (&f);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_COMPUTE], ==, 200);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_IDLE_DMA], ==, 950);
  gap = only_gap (&f);
  g_assert_cmpint (gap->start_ns, ==, 100);
  g_assert_cmpint (gap->end_ns, ==, 1050);
  g_assert_cmpint (gap->cause, ==, CHRONO_LEDGER_IDLE_DMA);
  g_assert_false (gap->tail);
  /* The chain: the Tensor instruction, the Sync one, the DMA. */
  g_assert_cmpuint (gap->n_links, ==, 3);
  g_assert_cmpint (link_unit (&f, gap, 0), ==, CHRONO_NEURON_UNIT_TENSOR);
  g_assert_cmpint (link_unit (&f, gap, 1), ==, CHRONO_NEURON_UNIT_SYNC);
  g_assert_cmpint (link_unit (&f, gap, 2), ==, CHRONO_NEURON_UNIT_DMA);
  g_assert_cmpint (chrono_neuron_ledger_get_link (f.ledger, gap->first_link + 2)->end_ns, ==, 1000);
  g_assert_cmpuint (chrono_neuron_ledger_gap_at (f.ledger, 500), ==, 0);
  g_assert_cmpuint (chrono_neuron_ledger_gap_at (f.ledger, 50), ==, G_MAXUINT);
  fixture_clear (&f);
}

/* Each execution the profile names has a row of its own, cut to the
 * core's window, whose states add up to it. */
static void
test_executions (void)
{
  Fixture f;
  guint rows = 0;
  gint64 sum[CHRONO_N_LEDGER_STATES] = { 0 };

  fixture_load_with (&f,
                     "{\"timestamp\": 0, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 1},"
                     "{\"timestamp\": 100, \"duration\": 500, \"label\": \"Vector\", \"opcode\": \"TENSOR_TENSOR\", \"id\": 2},"
                     "{\"timestamp\": 600, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 3,"
                     " \"inst_dep_ids\": [2]},"
                     "{\"timestamp\": 700, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 4}",
                     NULL,
                     "\"execution_info\": [{\"execution_index\": 0, \"execution_start_ts\": 0, \"execution_end_ts\": 350},"
                     " {\"execution_index\": 1, \"execution_start_ts\": 350, \"execution_end_ts\": 900}], ");
  for (guint i = 0; i < chrono_analysis_get_n_ledger_rows (f.analysis); i++)
    {
      const ChronoLedgerRow *r = chrono_analysis_get_ledger_row (f.analysis, i);
      gint64 total = 0;

      if (r->step < 0)
        continue;
      g_assert_true (r->neuron_core);
      g_assert_cmpstr (r->name, ==, rows == 0 ? "execution 0" : "execution 1");
      g_assert_cmpint (r->start_ns, ==, rows == 0 ? 0 : 350);
      /* The second execution ends with the core's work. */
      g_assert_cmpint (r->end_ns, ==, rows == 0 ? 350 : 800);
      for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
        {
          total += r->state_ns[k];
          sum[k] += r->state_ns[k];
        }
      g_assert_cmpint (total, ==, r->end_ns - r->start_ns);
      rows++;
    }
  g_assert_cmpuint (rows, ==, 2);
  for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
    g_assert_cmpint (sum[k], ==, f.row->state_ns[k]);
  g_assert_cmpint (sum[CHRONO_LEDGER_IDLE_VECTOR], ==, 500);
  fixture_clear (&f);
}

/* A wait on a semaphore nothing in the profile updates, against one whose
 * update came before the gap: held by a semaphore, against issued late. */
static void
test_semaphore_unresolved (void)
{
  Fixture f;

  fixture_load (&f,
                "{\"timestamp\": 0, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 1},"
                "{\"timestamp\": 500, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 2,"
                " \"operands\": \"$S[30]>=1\"}",
                NULL);
  assert_sums (&f);
  g_assert_cmpint (only_gap (&f)->cause, ==, CHRONO_LEDGER_IDLE_SEMAPHORE);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_IDLE_SEMAPHORE], ==, 400);
  fixture_clear (&f);

  fixture_load (&f,
                "{\"timestamp\": 0, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 1},"
                "{\"timestamp\": 0, \"duration\": 50, \"label\": \"Vector\", \"opcode\": \"TENSOR_TENSOR\", \"id\": 3,"
                " \"operands\": \"S[30] (Vector)++@complete\"},"
                "{\"timestamp\": 500, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 2,"
                " \"operands\": \"$S[30]>=1\"}",
                NULL);
  assert_sums (&f);
  g_assert_cmpint (only_gap (&f)->cause, ==, CHRONO_LEDGER_IDLE_NOT_QUEUED);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_IDLE_NOT_QUEUED], ==, 400);
  fixture_clear (&f);
}

/* After the Tensor engine's last instruction the window waits for the
 * work that ends last; before its first, for what that one depended on. */
static void
test_tail_and_head (void)
{
  Fixture f;
  const ChronoNeuronGap *gap;

  fixture_load (&f,
                "{\"timestamp\": 0, \"duration\": 300, \"label\": \"Scalar\", \"opcode\": \"ACTIVATE\", \"id\": 1},"
                "{\"timestamp\": 300, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 2,"
                " \"inst_dep_ids\": [1]},"
                "{\"timestamp\": 350, \"duration\": 650, \"label\": \"GpSimd\", \"opcode\": \"IOTA\", \"id\": 3}",
                NULL);
  assert_sums (&f);
  g_assert_cmpuint (chrono_neuron_ledger_get_n_gaps (f.ledger), ==, 2);
  gap = chrono_neuron_ledger_get_gap (f.ledger, 0);
  g_assert_cmpint (gap->cause, ==, CHRONO_LEDGER_IDLE_SCALAR);
  g_assert_false (gap->tail);
  gap = chrono_neuron_ledger_get_gap (f.ledger, 1);
  g_assert_cmpint (gap->start_ns, ==, 400);
  g_assert_cmpint (gap->end_ns, ==, 1000);
  g_assert_cmpint (gap->cause, ==, CHRONO_LEDGER_IDLE_GPSIMD);
  g_assert_true (gap->tail);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_IDLE_SCALAR], ==, 300);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_COMPUTE], ==, 100);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_IDLE_GPSIMD], ==, 600);
  fixture_clear (&f);
}

/* Transposes alone on the Tensor engine, and under a matrix instruction:
 * the instruction type decides, else the opcode. */
static void
test_transpose (void)
{
  Fixture f;

  fixture_load (&f,
                "{\"timestamp\": 0, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 1,"
                " \"tensor_instruction_type\": \"TRANSPOSE\"},"
                "{\"timestamp\": 50, \"duration\": 100, \"label\": \"TensorMatrix\", \"opcode\": \"MATMUL\", \"id\": 2,"
                " \"tensor_instruction_type\": \"REGULAR\", \"hlo_name\": \"%t = transpose(%p)\"},"
                "{\"timestamp\": 120, \"duration\": 80, \"label\": \"Tensor\", \"opcode\": \"TRANSPOSE\", \"id\": 3}",
                NULL);
  assert_sums (&f);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_TRANSPOSE], ==, 100);
  g_assert_cmpint (f.row->state_ns[CHRONO_LEDGER_COMPUTE], ==, 100);
  g_assert_cmpuint (chrono_neuron_ledger_get_n_gaps (f.ledger), ==, 0);
  fixture_clear (&f);
}

/* Of several predecessors, the one that ended last holds the Tensor
 * engine; one that ended before the gap holds nothing. */
static void
test_latest_predecessor (void)
{
  Fixture f;
  const ChronoNeuronGap *gap;

  fixture_load (&f,
                "{\"timestamp\": 0, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 1},"
                "{\"timestamp\": 0, \"duration\": 80, \"label\": \"GpSimd\", \"opcode\": \"IOTA\", \"id\": 4},"
                "{\"timestamp\": 100, \"duration\": 300, \"label\": \"Vector\", \"opcode\": \"TENSOR_TENSOR\", \"id\": 2},"
                "{\"timestamp\": 100, \"duration\": 600, \"label\": \"Scalar\", \"opcode\": \"ACTIVATE\", \"id\": 3},"
                "{\"timestamp\": 700, \"duration\": 100, \"label\": \"Tensor\", \"opcode\": \"MATMUL\", \"id\": 5,"
                " \"inst_dep_ids\": [4, 2, 3]}",
                NULL);
  assert_sums (&f);
  gap = only_gap (&f);
  g_assert_cmpint (gap->cause, ==, CHRONO_LEDGER_IDLE_SCALAR);
  g_assert_cmpuint (gap->n_links, ==, 2);
  g_assert_cmpint (link_unit (&f, gap, 1), ==, CHRONO_NEURON_UNIT_SCALAR);
  fixture_clear (&f);
}

/* ------------------------------------------------------------------ */
/* Planted profiles                                                   */

/* Every phase the generator plants but no-nki, which the ledger does not
 * see, and a clean compute phase at both ends; the two kinds of
 * collective wait apart, or they make one stretch. */
#define PLANT "compute,collective-outlier,dma-bound,engine-bound,engine-bound-scalar,engine-bound-gpsimd,small-dma," \
              "spill,transpose,collective,throttle,late-start,barrier,compute"

typedef struct {
  char        *dir;
  JsonObject  *truth;
  JsonParser  *parser;
} Planted;

static void
planted_write (Planted    *p,
               const char *plant,
               const char *instance)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL, *truth = NULL;
  NeuronGenOptions o;
  NeuronGenCounts counts;

  p->dir = g_dir_make_tmp ("chrono-neuron-ledger-XXXXXX", &error);
  g_assert_no_error (error);
  neuron_gen_options_init (&o);
  o.plant = plant;
  o.instance = instance;
  /* Enough steps that each phase costs more than min-time-lost-us. */
  o.plant_steps = 32;
  json = g_build_filename (p->dir, "device_profile_model_1.json", NULL);
  truth = g_build_filename (p->dir, "truth.json", NULL);
  g_assert_true (neuron_gen_write_device (json, &o, &counts, &error));
  g_assert_no_error (error);
  g_assert_true (neuron_gen_write_truth (truth, &o, &error));
  g_assert_no_error (error);
  p->parser = json_parser_new ();
  g_assert_true (json_parser_load_from_file (p->parser, truth, &error));
  g_assert_no_error (error);
  p->truth = json_node_get_object (json_parser_get_root (p->parser));
}

static void
planted_clear (Planted *p)
{
  test_remove_tree (p->dir);
  g_free (p->dir);
  g_object_unref (p->parser);
}

/* The time the findings of RULE claim whose range lies mostly inside
 * [START, END). */
static gint64
found_in (const Fixture *f,
          const char    *rule,
          gint64         start,
          gint64         end)
{
  gint64 total = 0;

  for (guint i = 0; i < chrono_analysis_get_n_findings (f->analysis); i++)
    {
      const ChronoFinding *x = chrono_analysis_get_finding (f->analysis, i);
      gint64 inside = MIN (x->end_ns, end) - MAX (x->start_ns, start);

      if (g_strcmp0 (x->rule, rule) == 0 && inside * 2 > x->end_ns - x->start_ns)
        total += x->time_lost_ns;
    }
  return total;
}

/* The time of each category of the core's critical path in [START, END). */
static void
path_in (const Fixture *f,
         gint64         start,
         gint64         end,
         gint64         by_category[CHRONO_N_PATH_CATEGORIES])
{
  const ChronoCriticalPath *path = NULL;

  for (guint i = 0; i < chrono_analysis_get_n_paths (f->analysis); i++)
    if (chrono_analysis_get_path (f->analysis, i)->start_ns == f->row->start_ns)
      path = chrono_analysis_get_path (f->analysis, i);
  g_assert_nonnull (path);
  g_assert_cmpint (path->segments[path->n_segments - 1].end_ns, ==, path->end_ns);
  for (guint i = 0; i < path->n_segments; i++)
    {
      const ChronoPathSegment *s = &path->segments[i];
      gint64 inside = MIN (s->end_ns, end) - MAX (s->start_ns, start);

      /* The path covers the window, each nanosecond once. */
      g_assert_cmpint (s->start_ns, ==, i > 0 ? path->segments[i - 1].end_ns : path->start_ns);
      if (inside > 0)
        by_category[s->category] += inside;
    }
}

/* The category of the critical path that a phase's state should show. */
static ChronoPathCategory
path_category (const char *state)
{
  static const struct {
    const char        *state;
    ChronoPathCategory category;
  } map[] = {
    { "idle_dma", CHRONO_PATH_MEMCPY }, { "idle_collective", CHRONO_PATH_COMMUNICATION },
    { "idle_not_queued", CHRONO_PATH_LAUNCH_OVERHEAD }, { "idle_semaphore", CHRONO_PATH_IDLE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (strcmp (map[i].state, state) == 0)
      return map[i].category;
  /* Compute, transposes and the other engines' instructions. */
  return CHRONO_PATH_DEVICE_COMPUTE;
}

/* The ledger equals the generator's, each planted cause is found in its
 * phase with its idle time within 25 %, a clean phase draws at most 2 %
 * of its length, and no nanosecond is claimed twice. */
static void
check_planted (const Fixture *f,
               JsonObject    *truth)
{
  JsonObject *window = json_object_get_object_member (truth, "window");
  JsonObject *ledger = json_object_get_object_member (truth, "ledger");
  JsonArray *phases = json_object_get_array_member (truth, "phases");
  gint64 claimed = 0;

  assert_sums (f);
  g_assert_cmpint (f->row->start_ns, ==, json_object_get_int_member (window, "start_ns"));
  g_assert_cmpint (f->row->end_ns, ==, json_object_get_int_member (window, "end_ns"));
  for (guint k = 0; k < G_N_ELEMENTS (chrono_neuron_ledger_states); k++)
    {
      ChronoLedgerState state = chrono_neuron_ledger_states[k];
      g_test_message ("%s: %" G_GINT64_FORMAT " (truth %" G_GINT64_FORMAT ")", chrono_ledger_state_to_string (state),
                      f->row->state_ns[state], json_object_get_int_member (ledger, chrono_ledger_state_to_string (state)));
    }
  for (guint k = 0; k < G_N_ELEMENTS (chrono_neuron_ledger_states); k++)
    {
      ChronoLedgerState state = chrono_neuron_ledger_states[k];
      g_assert_cmpint (f->row->state_ns[state], ==, json_object_get_int_member (ledger, chrono_ledger_state_to_string (state)));
    }
  for (guint i = 0; i < json_array_get_length (phases); i++)
    {
      JsonObject *phase = json_array_get_object_element (phases, i);
      const char *name = json_object_get_string_member (phase, "name");
      const char *rule = json_object_get_string_member_with_default (phase, "rule", NULL);
      gint64 start = json_object_get_int_member (phase, "start_ns");
      gint64 end = json_object_get_int_member (phase, "end_ns");
      /* A phase of idle time is found by it, a transpose phase by its
       * state, a throttled one by the share of its work throttling took. */
      gint64 idle = json_object_get_int_member (phase, "idle_ns") ?: json_object_get_int_member (phase, "state_ns");

      if (g_strcmp0 (rule, "neuron-throttling") == 0)
        idle *= json_object_get_double_member (json_object_get_object_member (phase, "metrics"),
                                               "throttled_active_percent") / 100;

      gint64 by_category[CHRONO_N_PATH_CATEGORIES] = { 0 };

      path_in (f, start, end, by_category);
      for (guint c = 0; c < CHRONO_N_PATH_CATEGORIES; c++)
        if (by_category[c] > 0)
          g_test_message ("  path in %s, %s: %.0f%%", name, chrono_path_category_to_string (c),
                          100.0 * by_category[c] / (end - start));
      /* The critical path goes through what held the Tensor engine: at
       * least 40 % of the phase's idle time in the cause's category (a
       * spill's reload does not say it waited for its save). */
      g_assert_cmpint (by_category[path_category (json_object_get_string_member (phase, "state"))] * 100, >=,
                       json_object_get_int_member (phase, "idle_ns") * 40);
      if (strcmp (name, "compute") == 0)
        {
          gint64 in_phase = chrono_neuron_ledger_claimed_in (f->ledger, start, end);
          g_test_message ("compute [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "): %" G_GINT64_FORMAT " claimed",
                          start, end, in_phase);
          g_assert_cmpint (in_phase * 50, <=, end - start);
        }
      else if (rule != NULL)
        {
          gint64 found = found_in (f, rule, start, end);

          /* The slow collectives' wait past their median is theirs, the
           * rest of the phase's wait the collectives'. */
          if (strcmp (rule, "collective-outlier") == 0)
            {
              g_assert_cmpint (found, >, 0);
              found += found_in (f, "neuron-collective-wait", start, end);
            }
          g_test_message ("%s: %s found %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT, name, rule, found, idle);
          g_assert_cmpint (found * 4, >=, idle * 3);
          g_assert_cmpint (found * 4, <=, idle * 5);
        }
    }
  for (guint i = 0; i < chrono_analysis_get_n_findings (f->analysis); i++)
    claimed += chrono_analysis_get_finding (f->analysis, i)->time_lost_ns;
  g_assert_cmpint (claimed, ==, chrono_neuron_ledger_claimed_in (f->ledger, f->row->start_ns, f->row->end_ns));
  g_assert_cmpint (claimed, ==, f->row->recoverable_ns);
  g_assert_cmpint (claimed, <=, f->row->end_ns - f->row->start_ns);
}

static void
test_planted (gconstpointer data)
{
  Planted p;
  Fixture f;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;

  planted_write (&p, PLANT, data);
  json = g_build_filename (p.dir, "device_profile_model_1.json", NULL);
  fixture_analyse (&f, chrono_trace_load_file (json, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  check_planted (&f, p.truth);
  fixture_clear (&f);
  planted_clear (&p);
}

/* The Parquet twin of a planted profile gives the same ledger, gaps and
 * findings. */
static void
test_planted_parquet (void)
{
  Planted p;
  Fixture fj, fp;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL, *folder = NULL, *why = NULL;
  const char *paths[2] = { NULL, NULL };
  NeuronGenParquetOptions o;
  NeuronGenParquetCounts pc;

  if (!neuron_gen_parquet_available (&why))
    {
      g_test_skip (why);
      return;
    }
  planted_write (&p, PLANT, NULL);
  json = g_build_filename (p.dir, "device_profile_model_1.json", NULL);
  folder = g_build_filename (p.dir, "tables", NULL);
  neuron_gen_parquet_options_init (&o);
  g_assert_true (neuron_gen_write_parquet (json, folder, &o, &pc, &error));
  g_assert_no_error (error);
  fixture_analyse (&fj, chrono_trace_load_file (json, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  paths[0] = folder;
  fixture_analyse (&fp, chrono_trace_load_set (paths, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  check_planted (&fp, p.truth);
  for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
    g_assert_cmpint (fp.row->state_ns[k], ==, fj.row->state_ns[k]);
  g_assert_cmpuint (chrono_neuron_ledger_get_n_gaps (fp.ledger), ==, chrono_neuron_ledger_get_n_gaps (fj.ledger));
  for (guint g = 0; g < chrono_neuron_ledger_get_n_gaps (fj.ledger); g++)
    {
      const ChronoNeuronGap *a = chrono_neuron_ledger_get_gap (fj.ledger, g);
      const ChronoNeuronGap *b = chrono_neuron_ledger_get_gap (fp.ledger, g);

      g_assert_cmpint (a->start_ns, ==, b->start_ns);
      g_assert_cmpint (a->cause, ==, b->cause);
      g_assert_cmpuint (a->n_links, ==, b->n_links);
    }
  g_assert_cmpuint (chrono_analysis_get_n_findings (fp.analysis), ==, chrono_analysis_get_n_findings (fj.analysis));
  for (guint i = 0; i < chrono_analysis_get_n_findings (fj.analysis); i++)
    {
      g_assert_cmpstr (chrono_analysis_get_finding (fp.analysis, i)->rule, ==,
                       chrono_analysis_get_finding (fj.analysis, i)->rule);
      g_assert_cmpint (chrono_analysis_get_finding (fp.analysis, i)->time_lost_ns, ==,
                       chrono_analysis_get_finding (fj.analysis, i)->time_lost_ns);
    }
  fixture_clear (&fj);
  fixture_clear (&fp);
  planted_clear (&p);
}

/* The regions between collectives tile the window, their states add up
 * to each, and the collective phases' regions repeat. */
static void
test_regions (void)
{
  Planted p;
  Fixture f;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL, *report = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *cores, *regions;
  JsonObject *core;
  gint64 t;
  guint repeating = 0;

  planted_write (&p, PLANT, NULL);
  json = g_build_filename (p.dir, "device_profile_model_1.json", NULL);
  fixture_analyse (&f, chrono_trace_load_file (json, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  report = chrono_analysis_to_json (f.analysis);
  g_assert_true (json_parser_load_from_data (parser, report, -1, &error));
  g_assert_no_error (error);
  cores = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "neuron_regions");
  g_assert_cmpuint (json_array_get_length (cores), ==, 1);
  core = json_array_get_object_element (cores, 0);
  /* The collective phases' 32 CC ops each, the outlier's among them. */
  g_assert_cmpint (json_object_get_int_member (core, "collectives"), ==, 64);
  regions = json_object_get_array_member (core, "regions");
  g_assert_cmpuint (json_array_get_length (regions), ==, 65);
  t = f.row->start_ns;
  for (guint i = 0; i < json_array_get_length (regions); i++)
    {
      JsonObject *r = json_array_get_object_element (regions, i);
      JsonObject *states = json_object_get_object_member (r, "states");
      gint64 sum = 0;

      g_assert_cmpint (json_object_get_int_member (r, "start_ns"), ==, t);
      t = json_object_get_int_member (r, "end_ns");
      g_autoptr(GList) values = json_object_get_values (states);

      for (GList *v = values; v; v = v->next)
        sum += json_node_get_int (v->data);
      g_assert_cmpint (sum, ==, t - json_object_get_int_member (r, "start_ns"));
      repeating += json_object_get_boolean_member (r, "repeats");
    }
  g_assert_cmpint (t, ==, f.row->end_ns);
  /* All but the outliers, the first and the last region, which hold
   * the other phases. */
  g_assert_cmpuint (repeating, >=, 64 - 8 - 2);
  g_assert_cmpint (json_object_get_int_member (core, "repeating"), ==, repeating);
  fixture_clear (&f);
  planted_clear (&p);
}

/* The finding of RULE, or NULL; at most one. */
static const ChronoFinding *
find_rule (const Fixture *f,
           const char    *rule)
{
  const ChronoFinding *found = NULL;

  for (guint i = 0; i < chrono_analysis_get_n_findings (f->analysis); i++)
    if (g_strcmp0 (chrono_analysis_get_finding (f->analysis, i)->rule, rule) == 0)
      {
        g_assert_null (found);
        found = chrono_analysis_get_finding (f->analysis, i);
      }
  return found;
}

static gdouble
evidence (const ChronoFinding *x,
          const char          *key)
{
  for (guint i = 0; i < x->n_evidence; i++)
    if (strcmp (x->evidence[i].key, key) == 0)
      return x->evidence[i].value;
  g_assert_not_reached ();
}

/* The findings of ratios: model FLOPs against the busy Tensor engine's,
 * NKI coverage, spill reloads against HBM reads; a clean profile draws
 * none, one with no NKI instruction at all no NKI finding. */
static void
test_ratios (void)
{
  static const char * const plants[] = { "compute", "small-tiles", "no-nki", "compute,no-nki,no-nki", "spill" };

  for (guint i = 0; i < G_N_ELEMENTS (plants); i++)
    {
      Planted p;
      Fixture f;
      g_autoptr(GError) error = NULL;
      g_autofree char *json = NULL;
      const ChronoFinding *x;

      planted_write (&p, plants[i], NULL);
      json = g_build_filename (p.dir, "device_profile_model_1.json", NULL);
      fixture_analyse (&f, chrono_trace_load_file (json, NULL, NULL, NULL, &error));
      g_assert_no_error (error);
      g_test_message ("%s: %u findings", plants[i], chrono_analysis_get_n_findings (f.analysis));
      switch (i)
        {
        case 0:
          g_assert_cmpuint (chrono_analysis_get_n_findings (f.analysis), ==, 0);
          break;
        case 1:
          /* The MATMULs use 32 of the 128 rows at 80 % of the rate. */
          x = find_rule (&f, "neuron-low-model-flops");
          g_assert_nonnull (x);
          g_assert_cmpint (x->time_lost_ns, ==, 0);
          g_assert_cmpint (x->severity, ==, CHRONO_SEVERITY_LOW);
          g_assert_cmpfloat_with_epsilon (evidence (x, "model_flops_percent_of_active"), 20, 2);
          g_assert_null (find_rule (&f, "neuron-nki-coverage"));
          break;
        case 2:
          g_assert_null (find_rule (&f, "neuron-nki-coverage"));
          g_assert_null (find_rule (&f, "neuron-low-model-flops"));
          break;
        case 3:
          {
            JsonArray *phases = json_object_get_array_member (p.truth, "phases");
            JsonObject *first = json_array_get_object_element (phases, 1);
            guint n = 0;

            g_assert_cmpstr (json_object_get_string_member (first, "rule"), ==, "neuron-nki-coverage");
            for (guint k = 0; k < chrono_analysis_get_n_findings (f.analysis); k++)
              {
                x = chrono_analysis_get_finding (f.analysis, k);
                g_assert_cmpstr (x->rule, ==, "neuron-nki-coverage");
                g_assert_cmpint (x->time_lost_ns, ==, 0);
                /* One step in three is the kernels'; the compiler's are
                 * the no-nki phases'. */
                g_assert_cmpfloat_with_epsilon (evidence (x, "nki_percent"), 100.0 / 3, 1);
                g_assert_cmpint (x->start_ns, >=, json_object_get_int_member (first, "start_ns"));
                n++;
              }
            g_assert_cmpuint (n, >, 0);
          }
          break;
        case 4:
          x = find_rule (&f, "neuron-spill-reload");
          g_assert_nonnull (x);
          g_assert_cmpint (x->time_lost_ns, >, 0);
          g_assert_cmpfloat (evidence (x, "spill_reload_percent_of_hbm_read"), >, 25);
          break;
        default:
          g_assert_not_reached ();
        }
      fixture_clear (&f);
      planted_clear (&p);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/neuron-ledger/sync-pass-through", test_sync_pass_through);
  g_test_add_func ("/neuron-ledger/semaphore-unresolved", test_semaphore_unresolved);
  g_test_add_func ("/neuron-ledger/tail-and-head", test_tail_and_head);
  g_test_add_func ("/neuron-ledger/transpose", test_transpose);
  g_test_add_func ("/neuron-ledger/latest-predecessor", test_latest_predecessor);
  g_test_add_func ("/neuron-ledger/executions", test_executions);
  for (guint i = 0; neuron_gen_instance_names[i] != NULL; i++)
    {
      g_autofree char *path = g_strdup_printf ("/neuron-ledger/planted/%s", neuron_gen_instance_names[i]);
      g_test_add_data_func (path, neuron_gen_instance_names[i], test_planted);
    }
  g_test_add_func ("/neuron-ledger/planted-parquet", test_planted_parquet);
  g_test_add_func ("/neuron-ledger/regions", test_regions);
  g_test_add_func ("/neuron-ledger/ratios", test_ratios);
  return g_test_run ();
}
