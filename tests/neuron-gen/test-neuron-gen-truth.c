/* test-neuron-gen-truth.c: the planted profile says what it holds
 *
 * The generator's truth.json is checked against the files it wrote, read
 * with json-glib alone (truth-profile.c): the NeuronCore time ledger
 * computed again from the rows, the metrics from the rows and the
 * metadata, the stack frames, and the Parquet twin's rows read back.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "neuron-gen.h"
#include "truth-profile.h"

#define ALL_PHASES "compute,dma-bound,engine-bound,engine-bound-scalar,engine-bound-gpsimd,small-dma," \
                   "spill,transpose,collective,throttle,late-start,barrier,collective-outlier,no-nki,small-tiles"

static gint64
truth_state (JsonObject *o,
             guint       state)
{
  return num (json_object_get_object_member (o, "ledger"), states[state]);
}

/* How many separate stretches the Tensor engine is busy in [A, B). */
static guint
busy_runs (Profile *p,
           gint64   a,
           gint64   b)
{
  gint64 last_end = G_MININT64;
  guint runs = 0;

  for (guint i = 0; i + 1 < p->busy->len; i += 2)
    {
      gint64 s = g_array_index (p->busy, gint64, i), e = g_array_index (p->busy, gint64, i + 1);

      if (s < a || e > b)
        continue;
      runs += s != last_end;
      last_end = e;
    }
  return runs;
}

/* The ledger computed again is the truth's, whole and per phase, and each
 * phase holds what it planted. */
static void
check_ledger (Profile *p)
{
  JsonArray *phases = json_object_get_array_member (p->t, "phases");
  JsonArray *execs = json_object_get_array_member (p->t, "executions");
  gint64 sum = 0;

  for (guint s = 0; s < N_STATES; s++)
    {
      g_test_message ("%s: %" G_GINT64_FORMAT " ns", states[s], p->ledger[s]);
      g_assert_cmpint (p->ledger[s], ==, truth_state (p->t, s));
      sum += truth_state (p->t, s);
    }
  g_assert_cmpint (sum, ==, p->we - p->ws);

  /* Each execution's over its own window. */
  g_assert_cmpuint (json_array_get_length (execs) * N_STATES, ==, p->exec_ledgers->len);
  for (guint i = 0; i < json_array_get_length (execs); i++)
    {
      JsonObject *ex = row (execs, i);
      gint64 exec_sum = 0;

      for (guint s = 0; s < N_STATES; s++)
        {
          g_assert_cmpint (g_array_index (p->exec_ledgers, gint64, i * N_STATES + s), ==, truth_state (ex, s));
          exec_sum += truth_state (ex, s);
        }
      g_assert_cmpint (exec_sum, ==, num (ex, "end_ns") - num (ex, "start_ns"));
    }

  for (guint i = 0; i < json_array_get_length (phases); i++)
    {
      JsonObject *ph = row (phases, i);
      const gint64 *mine = &g_array_index (p->phases, gint64, i * N_STATES);
      const char *state = json_object_get_string_member (ph, "state");
      gint64 phase_sum = 0, planted = -1, other_idle = 0;

      for (guint s = 0; s < N_STATES; s++)
        {
          g_assert_cmpint (mine[s], ==, truth_state (ph, s));
          phase_sum += mine[s];
          if (strcmp (states[s], state) == 0)
            planted = mine[s];
          else if (s >= S_DMA)
            other_idle = MAX (other_idle, mine[s]);
        }
      g_assert_cmpint (phase_sum, ==, num (ph, "end_ns") - num (ph, "start_ns"));
      g_assert_cmpint (planted, ==, num (ph, "state_ns"));
      /* What was planted is what the phase's time went to most. */
      g_assert_cmpint (planted, >, other_idle);
      if (strcmp (state, "compute") == 0 || strcmp (state, "transpose") == 0)
        {
          g_assert_cmpint (num (ph, "idle_ns"), ==, 0);
          /* A busy phase is busy from its first Tensor instruction to its
           * last, without a gap. */
          g_assert_cmpuint (busy_runs (p, num (ph, "start_ns"), num (ph, "end_ns")), ==, 1);
        }
      else
        g_assert_cmpint (num (ph, "idle_ns"), ==, planted);
    }
}

static gboolean
near (gdouble a,
      gdouble b)
{
  return fabs (a - b) <= 1e-9 * MAX (fabs (a), 1.0);
}

static gint64
overlap_busy (Profile *p,
              gint64   a,
              gint64   b)
{
  gint64 ns = 0;

  for (guint i = 0; i + 1 < p->busy->len; i += 2)
    ns += MAX (0, MIN (b, g_array_index (p->busy, gint64, i + 1)) - MAX (a, g_array_index (p->busy, gint64, i)));
  return ns;
}

/* The metrics are the documented formulas over the rows written. */
static void
check_metrics (Profile *p)
{
  JsonObject *m = json_object_get_object_member (p->t, "metrics");
  JsonObject *md = row (table (p, "metadata"), 0);
  JsonObject *summary = row (table (p, "summary"), 0);
  JsonArray *insts = table (p, "instruction"), *dmas = table (p, "dma"), *thr = table (p, "throttle");
  gint64 rows = num (md, "tensor_engine_num_rows"), cols = num (md, "tensor_engine_num_cols");
  gdouble peak = num (md, "num_physical_cores") * 2.0 * rows * cols *
                 json_object_get_double_member (md, "tensor_engine_clock_freq") * 1e9;
  gdouble seconds = (p->we - p->ws) / 1e9, throttled = 0;
  gint64 hw = 0, tr = 0, tr_field = 0, read = 0, write = 0, reload = 0, bytes = 0, small = 0;
  gint64 inst_read = 0, inst_write = 0, inst_reload = 0;

  for (guint i = 0; i < json_array_get_length (insts); i++)
    {
      JsonObject *r = row (insts, i);

      if (strcmp (json_object_get_string_member (r, "opcode"), "MATMUL") == 0)
        {
          /* The operands end with "<rows used>*<elements>". */
          const char *shape = strrchr (json_object_get_string_member (r, "operands"), ' ');
          gint64 used = g_ascii_strtoll (shape + 1, NULL, 10);

          g_assert_cmpint (used, >, 0);
          g_assert_cmpint (used, <=, rows);
          g_assert_cmpint (num (r, "raw_flops"), ==, 2 * used * cols * num (r, "elements"));
        }
      if (g_array_index (p->acts, Activity, i).tensor)
        hw += num (r, "raw_flops");
      if (g_array_index (p->acts, Activity, i).transpose)
        tr += num (r, "raw_flops");
      tr_field += num (r, "flops_transpose");
      inst_read += num (r, "hbm_read_bytes");
      inst_write += num (r, "hbm_write_bytes");
      inst_reload += num (r, "spill_reload_bytes");
    }
  for (guint i = 0; i < json_array_get_length (dmas); i++)
    {
      JsonObject *r = row (dmas, i);
      gint64 size = num (r, "transfer_size");

      bytes += size;
      small += size < 4096;
      read += strcmp (json_object_get_string_member (r, "source"), "[SB]") != 0 ? num (r, "read_bytes") : 0;
      write += strcmp (json_object_get_string_member (r, "dest"), "[SB]") != 0 ? num (r, "write_bytes") : 0;
      reload += strstr (json_object_get_string_member (r, "subgroup"), "SpillReload") ? size : 0;
    }
  for (guint i = 0; i < json_array_get_length (thr); i++)
    {
      JsonObject *r = row (thr, i);
      gint64 ts = num (r, "timestamp");

      throttled += (1.0 - (gdouble) num (r, "k") / num (r, "n")) * overlap_busy (p, ts, ts + num (r, "duration"));
    }

  g_assert_cmpint (hw, ==, num (m, "hardware_flops"));
  g_assert_cmpint (tr, ==, num (m, "transpose_flops"));
  g_assert_cmpint (tr_field, ==, tr);
  g_assert_cmpint (hw - tr, ==, num (m, "model_flops"));
  g_assert_cmpint (read, ==, num (m, "hbm_read_bytes"));
  g_assert_cmpint (inst_read, ==, read);
  g_assert_cmpint (write, ==, num (m, "hbm_write_bytes"));
  g_assert_cmpint (inst_write, ==, write);
  g_assert_cmpint (reload, ==, num (m, "spill_reload_bytes"));
  g_assert_cmpint (inst_reload, ==, reload);
  g_assert_cmpint (json_array_get_length (dmas), ==, num (m, "dma_transfers"));
  g_assert_cmpint (bytes, ==, num (m, "dma_bytes"));
  g_assert_cmpint (small, ==, num (m, "small_dma_transfers"));
  g_assert_true (near (json_object_get_double_member (m, "hfu_percent"), 100 * hw / (peak * seconds)));
  g_assert_true (near (json_object_get_double_member (m, "mfu_percent"), 100 * (hw - tr) / (peak * seconds)));
  g_assert_true (near (json_object_get_double_member (m, "mbu_percent"),
                       100 * (read + write) / seconds / json_object_get_double_member (md, "hbm_ddr_bandwidth")));
  g_assert_true (near (json_object_get_double_member (m, "throttled_active_percent"), 100 * throttled / (p->we - p->ws)));
  g_assert_true (near (json_object_get_double_member (p->t, "peak_tflops"), peak / 1e12));
  /* The profiler's own summary, in fractions, says the same. */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (summary, "hfu_estimated_percent"),
                                  hw / (peak * seconds), 1e-8);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (summary, "total_time"), seconds, 1e-9);
  g_assert_cmpint (num (summary, "hardware_flops"), ==, hw);
}

/* Each phase's metrics are its rows' (instructions by where they run,
 * transfers by where they start), and each holds the condition its
 * finding looks for. */
static void
check_phase_metrics (Profile *p)
{
  JsonArray *phases = json_object_get_array_member (p->t, "phases");
  JsonArray *insts = table (p, "instruction"), *dmas = table (p, "dma");

  for (guint i = 0; i < json_array_get_length (phases); i++)
    {
      JsonObject *ph = row (phases, i);
      JsonObject *m = json_object_get_object_member (ph, "metrics");
      const char *name = json_object_get_string_member (ph, "name");
      gint64 s = num (ph, "start_ns"), e = num (ph, "end_ns");
      gint64 hw = 0, tr = 0, transfers = 0, small = 0, read = 0, reload = 0, in_phase = 0, nki = 0;
      gint64 cc_max = 0, cc_min = G_MAXINT64;

      for (guint k = 0; k < json_array_get_length (insts); k++)
        {
          const Activity *a = &g_array_index (p->acts, Activity, k);

          if (a->tensor && a->start >= s && a->start < e)
            {
              in_phase++;
              nki += json_object_has_member (row (insts, k), "nki_source_location");
            }
          if (a->tensor && a->start >= s && a->start < e)
            {
              hw += num (row (insts, k), "raw_flops");
              tr += a->transpose ? num (row (insts, k), "raw_flops") : 0;
            }
        }
      for (guint k = 0; k < json_array_get_length (dmas); k++)
        {
          JsonObject *r = row (dmas, k);
          gint64 ts = num (r, "timestamp");

          if (ts < s || ts >= e)
            continue;
          transfers++;
          small += num (r, "transfer_size") < 4096;
          read += strcmp (json_object_get_string_member (r, "source"), "[SB]") != 0 ? num (r, "read_bytes") : 0;
          reload += strstr (json_object_get_string_member (r, "subgroup"), "SpillReload") ? num (r, "transfer_size") : 0;
        }
      for (guint k = 0; k < json_array_get_length (table (p, "cc_op")); k++)
        {
          JsonObject *r = row (table (p, "cc_op"), k);

          if (num (r, "start_ts") >= s && num (r, "start_ts") < e)
            {
              cc_max = MAX (cc_max, num (r, "end_ts") - num (r, "start_ts"));
              cc_min = MIN (cc_min, num (r, "end_ts") - num (r, "start_ts"));
            }
        }
      g_assert_cmpint (hw, ==, num (m, "hardware_flops"));
      g_assert_cmpint (tr, ==, num (m, "transpose_flops"));
      g_assert_cmpint (transfers, ==, num (m, "dma_transfers"));
      g_assert_cmpint (small, ==, num (m, "small_dma_transfers"));
      g_assert_cmpint (read, ==, num (m, "hbm_read_bytes"));
      g_assert_cmpint (reload, ==, num (m, "spill_reload_bytes"));
      if (strcmp (name, "transpose") == 0)
        g_assert_cmpfloat ((gdouble) tr / hw, >, 0.10);
      else
        g_assert_cmpint (tr, ==, 0);
      if (strcmp (name, "spill") == 0)
        g_assert_cmpfloat ((gdouble) reload / read, >, 0.25);
      if (strcmp (name, "small-dma") == 0)
        g_assert_cmpint (2 * small, >, transfers);
      /* The compiler's matmuls carry no NKI source; the kernels' do. */
      g_assert_cmpint (nki, ==, strcmp (name, "no-nki") == 0 ? 0 : in_phase);
      if (strcmp (name, "collective-outlier") == 0)
        g_assert_cmpint (cc_max, >=, 4 * cc_min);
      else if (cc_max > 0)
        g_assert_cmpint (cc_max, ==, cc_min);
      /* Model FLOPs against what the busy engine could have done, on one
       * physical core (the rows the profile holds). */
      if (strcmp (name, "small-tiles") == 0 || strcmp (name, "compute") == 0 || strcmp (name, "no-nki") == 0)
        {
          JsonObject *md = row (table (p, "metadata"), 0);
          gdouble core_peak = 2.0 * num (md, "tensor_engine_num_rows") * num (md, "tensor_engine_num_cols") *
                              json_object_get_double_member (md, "tensor_engine_clock_freq");
          gdouble share = (hw - tr) / (core_peak * truth_state (ph, S_COMPUTE));

          if (strcmp (name, "small-tiles") == 0)
            g_assert_cmpfloat (share, <, 0.5);
          else
            g_assert_cmpfloat (share, >, 0.5);
        }
      if (strcmp (name, "throttle") == 0)
        g_assert_cmpfloat (json_object_get_double_member (m, "throttled_active_percent"), >, 5.0);
      else
        g_assert_cmpfloat (json_object_get_double_member (m, "throttled_active_percent"), ==, 0.0);
    }
}

/* Each instruction's stack frames resolve: the frame, its file location,
 * file and function names, up a chain of parents to the root; the
 * innermost frame's line is its HLO source line. */
static void
check_stack_frames (Profile *p)
{
  JsonArray *insts = table (p, "instruction");
  JsonArray *frames = table (p, "stack_frame"), *locations = table (p, "stack_frame_file_location");
  JsonArray *files = table (p, "stack_frame_file_name"), *functions = table (p, "stack_frame_function_name");

  for (guint i = 0; i < json_array_get_length (insts); i++)
    {
      JsonObject *r = row (insts, i);
      g_autoptr(JsonNode) attrs = json_from_string (json_object_get_string_member (r, "hlo_attrs"), NULL);
      JsonObject *attr = json_array_get_object_element (json_node_get_array (attrs), 0);
      guint64 id = g_ascii_strtoull (json_object_get_string_member (r, "stack_frame_ids") + 1, NULL, 10);
      guint depth = 0;

      for (gboolean leaf = TRUE; id != 0; leaf = FALSE, depth++)
        {
          JsonObject *frame = NULL, *location = NULL;

          for (guint k = 0; k < json_array_get_length (frames); k++)
            if (g_ascii_strtoull (json_object_get_string_member (row (frames, k), "id"), NULL, 10) == id)
              frame = row (frames, k);
          g_assert_nonnull (frame);
          for (guint k = 0; k < json_array_get_length (locations); k++)
            if (g_ascii_strtoll (json_object_get_string_member (row (locations, k), "id"), NULL, 10) ==
                num (frame, "file_location_id"))
              location = row (locations, k);
          g_assert_nonnull (location);
          g_assert_cmpint (num (location, "file_name_id"), >=, 1);
          g_assert_cmpint (num (location, "file_name_id"), <=, json_array_get_length (files));
          g_assert_cmpint (num (location, "function_name_id"), >=, 1);
          g_assert_cmpint (num (location, "function_name_id"), <=, json_array_get_length (functions));
          if (leaf)
            g_assert_cmpint (num (location, "line_number"), ==,
                             g_ascii_strtoll (json_object_get_string_member (attr, "source_line"), NULL, 10));
          id = g_ascii_strtoull (json_object_get_string_member (frame, "parent_frame_id"), NULL, 10);
          g_assert_cmpuint (depth, <, json_array_get_length (frames));
        }
    }
}

static void
test_all_phases (void)
{
  Profile p;

  profile_load (&p, ALL_PHASES, "trn2", 6, 1, 0);
  check_ledger (&p);
  check_metrics (&p);
  check_phase_metrics (&p);
  check_stack_frames (&p);
  /* Each planted state is there. */
  for (guint s = 0; s < N_STATES; s++)
    g_assert_cmpint (p.ledger[s], >, 0);
  profile_clear (&p);
}

/* Other hardware, phases repeated: the peak and the bandwidth are the
 * instance's. */
static void
test_instances (void)
{
  static const struct { const char *name; gdouble peak, hbm; gint64 cores; } cases[] = {
    { "trn1", 91.7504, 410, 1 }, { "inf2", 91.7504, 410, 1 },
    { "trn2", 157.2864, 716, 2 }, { "trn3", 157.2864, 1200, 2 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Profile p;

      profile_load (&p, "compute,dma-bound,transpose,small-tiles,no-nki,throttle,dma-bound", cases[i].name, 0, 1, 0);
      g_assert_cmpstr (json_object_get_string_member (p.t, "instance"), ==, cases[i].name);
      g_assert_true (near (json_object_get_double_member (p.t, "peak_tflops"), cases[i].peak));
      g_assert_true (near (json_object_get_double_member (p.t, "hbm_bandwidth_gbps"), cases[i].hbm));
      g_assert_cmpint (num (p.t, "physical_cores"), ==, cases[i].cores);
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (p.t, "phases")), ==, 7);
      check_ledger (&p);
      check_metrics (&p);
      check_phase_metrics (&p);
      profile_clear (&p);
    }
}

/* Each phase alone: the profile's head (before the first Tensor
 * instruction) is charged to what that instruction waited for. */
static void
test_each_alone (void)
{
  g_auto(GStrv) names = g_strsplit (ALL_PHASES, ",", -1);

  for (guint i = 0; names[i] != NULL; i++)
    {
      Profile p;

      profile_load (&p, names[i], "trn2", 0, 1, 0);
      check_ledger (&p);
      check_metrics (&p);
      check_phase_metrics (&p);
      profile_clear (&p);
    }
}

/* Three executions: each has its window and ledger, the whole profile's
 * window holds the host's time between them too. */
static void
test_executions (void)
{
  JsonArray *execs;
  gint64 inside = 0;
  Profile p;

  profile_load (&p, "dma-bound,compute,collective", "trn2", 4, 3, 0);
  check_ledger (&p);
  check_metrics (&p);
  check_phase_metrics (&p);
  execs = json_object_get_array_member (p.t, "executions");
  g_assert_cmpuint (json_array_get_length (execs), ==, 3);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (p.t, "phases")), ==, 9);
  for (guint i = 0; i < 3; i++)
    inside += num (row (execs, i), "end_ns") - num (row (execs, i), "start_ns");
  g_assert_cmpint (inside, <, p.we - p.ws);
  profile_clear (&p);
}

/* Grown to a size, the plan repeats and the books still hold. */
static void
test_size (void)
{
  g_autofree char *path = NULL;
  GStatBuf st;
  Profile p;

  profile_load (&p, "dma-bound,compute", "trn2", 0, 1, 2 * 1000 * 1000);
  path = g_build_filename (p.dir, "device_profile_model_1.json", NULL);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, 1000 * 1000);
  g_assert_cmpint (st.st_size, <, 3 * 1000 * 1000);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (p.t, "phases")), >=, 4);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (p.t, "phases")) % 2, ==, 0);
  check_ledger (&p);
  check_metrics (&p);
  profile_clear (&p);
}

static void
test_unknown (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("neuron-truth-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "truth.json", NULL);
  NeuronGenOptions o;

  neuron_gen_options_init (&o);
  o.plant = "compute,waterfall";
  g_assert_false (neuron_gen_write_truth (path, &o, &error));
  g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
  g_clear_error (&error);
  o.plant = "compute";
  o.instance = "trn9";
  g_assert_false (neuron_gen_write_truth (path, &o, &error));
  g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
  g_rmdir (dir);
}

/* The Parquet tables read back by hyparquet: the rows of each, and the
 * fields of COLUMNS of each row of Instruction and DmaPacketAggregated. */
static JsonObject *
parquet_read (const char *tables,
              JsonParser *parser)
{
  const char *script =
    "const { parquetMetadata, parquetReadObjects } = await import('hyparquet'); const fs = await import('node:fs');"
    "const columns = { Instruction: ['start_ts', 'duration_ns', 'tensor_instruction_type', 'raw_flops',"
    "  'flops_transpose', 'hbm_read_bytes', 'hbm_write_bytes', 'spill_reload_bytes', 'evt_wait_time_ns', 'layer', 'pcore_idx',"
    "  'nki_source_location'],"
    "  DmaPacketAggregated: ['start_ts', 'duration_ns', 'transfer_bytes', 'read_bytes', 'write_bytes', 'queue_name', 'source'] };"
    "const out = { rows: {} };"
    "for (const f of fs.readdirSync(process.argv[1])) {"
    " const b = fs.readFileSync(process.argv[1] + '/' + f); const file = b.buffer.slice(b.byteOffset, b.byteOffset + b.length);"
    " const table = f.replace(/\\.parquet$/, ''); out.rows[table] = Number(parquetMetadata(file).num_rows);"
    " if (columns[table]) out[table] = (await parquetReadObjects({ file })).map((r) => columns[table].map((c) => r[c] ?? null)); }"
    "console.log(JSON.stringify(out, (k, v) => (typeof v === 'bigint' ? Number(v) : v)));";
  const char *argv[] = { "node", "--input-type=module", "-e", script, tables, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  gint status;

  g_assert_true (g_spawn_sync (neuron_gen_npm_dir (), (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("reading the Parquet tables back: %s", err);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* Row I of a Parquet table holds the JSON record's fields: KEYS name them
 * in the JSON, in the order of the columns read back. */
static void
check_parquet_rows (JsonArray          *json,
                    JsonArray          *parquet,
                    const char * const *keys)
{
  g_assert_cmpuint (json_array_get_length (parquet), ==, json_array_get_length (json));
  for (guint i = 0; i < json_array_get_length (json); i++)
    {
      JsonObject *r = row (json, i);
      JsonArray *cells = json_array_get_array_element (parquet, i);

      for (guint k = 0; keys[k] != NULL; k++)
        {
          JsonNode *cell = json_array_get_element (cells, k);

          if (!json_object_has_member (r, keys[k]))
            g_assert_true (JSON_NODE_HOLDS_NULL (cell));
          else if (json_node_get_value_type (cell) == G_TYPE_STRING)
            g_assert_cmpstr (json_node_get_string (cell), ==, json_object_get_string_member (r, keys[k]));
          else
            g_assert_cmpint (json_node_get_int (cell), ==, num (r, keys[k]));
        }
    }
}

static void
test_parquet (void)
{
  static const struct { const char *json, *parquet; } pairs[] = {
    { "instruction", "Instruction" }, { "dma", "DmaPacketAggregated" }, { "semaphore_update", "SemaphoreUpdate" },
    { "cc_op", "CcOp" }, { "cc_instruction", "CcInstruction" }, { "throttle", "Throttle" },
    { "throttle_summary", "ThrottleSummary" }, { "execution_info", "ExecutionInfo" }, { "metadata", "Metadata" },
    { "summary", "Summary" },
    { "stack_frame", "StackFrame" }, { "stack_frame_file_location", "StackFrameFileLocation" },
    { "stack_frame_file_name", "StackFrameFileName" }, { "stack_frame_function_name", "StackFrameFunctionName" },
  };
  g_autofree char *why = NULL, *reader = NULL, *device = NULL, *tables = NULL;
  static const char * const inst_keys[] = {
    "timestamp", "duration", "tensor_instruction_type", "raw_flops", "flops_transpose",
    "hbm_read_bytes", "hbm_write_bytes", "spill_reload_bytes", "evt_wait_time", "layer", "pcore_idx",
    "nki_source_location", NULL
  };
  static const char * const dma_keys[] = {
    "timestamp", "duration", "transfer_size", "read_bytes", "write_bytes", "queue_name", "source", NULL
  };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  NeuronGenParquetOptions po;
  JsonObject *read, *counts;
  JsonArray *insts;
  gint64 flows = 0;
  Profile p;

  reader = g_build_filename (neuron_gen_npm_dir (), "node_modules", "hyparquet", "package.json", NULL);
  if (!neuron_gen_parquet_available (&why) || !g_file_test (reader, G_FILE_TEST_EXISTS))
    {
      g_test_skip (why ? why : "hyparquet is not installed beside the Parquet writer (npm install hyparquet, as .ci/run does)");
      return;
    }
  profile_load (&p, ALL_PHASES, "trn2", 3, 1, 0);
  device = g_build_filename (p.dir, "device_profile_model_1.json", NULL);
  tables = g_build_filename (p.dir, "tables", NULL);
  neuron_gen_parquet_options_init (&po);
  g_assert_true (neuron_gen_write_parquet (device, tables, &po, NULL, &error));
  g_assert_no_error (error);
  read = parquet_read (tables, parser);
  counts = json_object_get_object_member (read, "rows");
  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_test_message ("%s: %u rows", pairs[i].parquet, json_array_get_length (table (&p, pairs[i].json)));
      g_assert_cmpint (json_object_get_int_member (counts, pairs[i].parquet), ==,
                       json_array_get_length (table (&p, pairs[i].json)));
    }
  insts = table (&p, "instruction");
  for (guint i = 0; i < json_array_get_length (insts); i++)
    flows += json_array_get_length (json_object_get_array_member (row (insts, i), "inst_dep_ids"));
  g_assert_cmpint (json_object_get_int_member (counts, "Flow"), ==, flows);
  /* Every row in its place, with the fields only some rows have. */
  check_parquet_rows (insts, json_object_get_array_member (read, "Instruction"), inst_keys);
  check_parquet_rows (table (&p, "dma"), json_object_get_array_member (read, "DmaPacketAggregated"), dma_keys);
  profile_clear (&p);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/neuron-gen/truth/all-phases", test_all_phases);
  g_test_add_func ("/neuron-gen/truth/instances", test_instances);
  g_test_add_func ("/neuron-gen/truth/each-alone", test_each_alone);
  g_test_add_func ("/neuron-gen/truth/executions", test_executions);
  g_test_add_func ("/neuron-gen/truth/size", test_size);
  g_test_add_func ("/neuron-gen/truth/unknown", test_unknown);
  g_test_add_func ("/neuron-gen/truth/parquet", test_parquet);
  return g_test_run ();
}
