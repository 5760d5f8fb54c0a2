/* neuron-gen-truth.c: what a planted profile holds, from the generator's
 * own books: the profiler's closing tables (its summary computed with the
 * documented formulas) and truth.json
 *
 * Figures per physical NeuronCore from the Neuron documentation
 * (reference/neuron-explorer.md section 8). The profile holds one physical
 * core's rows; on trn2 and trn3 (LNC=2) the peak still counts both cores,
 * as the profiler's does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <json-glib/json-glib.h>

#include "neuron-gen-plant.h"

const char * const plant_state_names[N_STATES] = {
  "compute", "transpose", "idle_dma", "idle_vector", "idle_scalar", "idle_gpsimd",
  "idle_collective", "idle_semaphore", "idle_not_queued",
};

const char * const neuron_gen_instance_names[] = { "trn1", "trn2", "trn3", "inf2", NULL };

/* trn3's NeuronCore base clock is not documented: taken as trn2's. */
static const PlantHardware hardware[] = {
  { "trn1", "trn1.32xlarge", 128, 128, 1, 2.8, 410e9, 17, 16, 1.4, 1.12, 1.4, 1.4, 128, 128, 8 },
  { "trn2", "trn2.48xlarge", 128, 128, 2, 2.4, 716e9, 23, 16, 1.2, 0.96, 1.2, 1.2, 512, 128, 8 },
  { "trn3", "trn3.48xlarge", 128, 128, 2, 2.4, 1.2e12, 33, 16, 1.2, 1.2, 1.2, 1.2, 512, 256, 128 },
  { "inf2", "inf2.48xlarge", 128, 128, 1, 2.8, 410e9, 17, 16, 1.4, 1.12, 1.4, 1.4, 128, 128, 8 },
};

const PlantHardware *
plant_hardware (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (hardware); i++)
    if (g_strcmp0 (hardware[i].name, name) == 0)
      return &hardware[i];
  return NULL;
}

/* num_physical_cores x 2 x rows x cols x tensor clock */
gdouble
plant_peak_flops_per_s (const PlantHardware *hw)
{
  return hw->physical_cores * 2.0 * hw->rows * hw->cols * hw->tensor_ghz * 1e9;
}

void
plant_truth_clear (PlantTruth *truth)
{
  g_clear_pointer (&truth->phases, g_array_unref);
  g_clear_pointer (&truth->executions, g_array_unref);
  memset (truth, 0, sizeof *truth);
}

static gdouble
window_s (const PlantTruth *t)
{
  return (t->window_end - t->window_start) / 1e9;
}

/* The utilisation figures, as fractions. */
typedef struct {
  gdouble hfu, mfu, mbu, throttled_active;
} Utilisation;

static Utilisation
utilisation (const PlantTruth   *t,
             const PlantMetrics *m,
             gint64              ns)
{
  gdouble peak = plant_peak_flops_per_s (t->hw);
  gdouble s = ns / 1e9;
  Utilisation u;

  u.hfu = m->hardware_flops / (peak * s);
  u.mfu = (m->hardware_flops - m->transpose_flops) / (peak * s);
  u.mbu = (m->hbm_read + m->hbm_write) / s / t->hw->hbm_bytes_per_s;
  u.throttled_active = m->throttled_active_ns / ns;
  return u;
}

void
plant_write_closing (NeuronGenWriter        *w,
                     const NeuronGenOptions *o,
                     const PlantTruth       *t)
{
  const PlantHardware *hw = t->hw;
  const PlantMetrics *m = &t->m;
  gdouble s = window_s (t);
  gint64 ns = t->window_end - t->window_start;
  Utilisation u = utilisation (t, m, ns);
  guint64 model = m->hardware_flops - m->transpose_flops;
  gint64 active = t->ledger[ST_COMPUTE] + t->ledger[ST_TRANSPOSE];
  const guint64 *e = t->per_engine;

  plant_write_stack_frames (w);
  neuron_gen_put (w, "  \"throttle_summary\": [");
  if (t->throttles > 0)
    for (guint i = 0; i < 2; i++)
      neuron_gen_put (w, "%s\n    {\"nc_idx\": %u, \"throttle_type\": \"%s\", \"throttle_active_time_ns\": %" G_GINT64_FORMAT
                      ", \"throttle_active_time_percent\": %.9g, \"max_achievable_util_with_throttling_percent\": %.9g}",
                      i ? "," : "", o->nc_idx, i ? "all" : "activity_0", m->throttle_ns, (gdouble) m->throttle_ns / ns,
                      (m->throttle_kn_ns + (ns - m->throttle_ns)) / ns);
  neuron_gen_put (w, "\n  ],\n  \"execution_info\": [");
  for (guint i = 0; i < t->executions->len; i++)
    {
      const PlantExecution *ex = &g_array_index (t->executions, PlantExecution, i);

      neuron_gen_put (w, "%s\n    {\"execution_index\": %u, \"neff_name\": \"graph.neff\", "
                      "\"execution_start_ts\": %" G_GINT64_FORMAT ", \"execution_end_ts\": %" G_GINT64_FORMAT
                      ", \"num_subgraphs\": 1}", i ? "," : "", i, ex->start, ex->end);
    }
  neuron_gen_put (w, "\n  ],\n");
  neuron_gen_put (w, "  \"metadata\": [\n    {\"profile_schema_version\": \"7.4.0\", \"ntff_version\": 6, "
                  "\"num_physical_cores\": %u, \"vnc_enabled\": %s, \"first_hw_timestamp\": %" G_GINT64_FORMAT
                  ", \"last_hw_timestamp\": %" G_GINT64_FORMAT ", \"first_ts\": \"1970-01-01 00:00:00+00:00\", "
                  "\"last_ts\": \"1970-01-01 00:00:00+00:00\", \"dma_ddr_bandwidth\": %.0f, "
                  "\"num_dma_engines_per_neuroncore\": %u, \"hbm_ddr_bandwidth\": %.0f, "
                  "\"tensor_engine_num_rows\": %u, \"tensor_engine_num_cols\": %u, \"tensor_engine_clock_freq\": %g, "
                  "\"vector_engine_clock_freq\": %g, \"vector_engine_num_channels\": %u, "
                  "\"scalar_engine_clock_freq\": %g, \"scalar_engine_num_channels\": %u, "
                  "\"gpsimd_engine_clock_freq\": %g, \"gpsimd_engine_num_channels\": %u, "
                  "\"neuroncore_clock_freq\": %g, \"ticks_per_nanosec\": 1, \"instance_type\": \"%s\", "
                  "\"runtime_version\": \"2.27.23\", \"neuroncore_idx\": %u, \"neuron_device_idx\": 0, "
                  "\"profile_name\": \"neuron-gen\"}\n  ],\n",
                  hw->physical_cores, hw->physical_cores > 1 ? "true" : "false", t->window_start, t->window_end,
                  hw->dma_bytes_per_ns * 1e9 * hw->dma_engines, hw->dma_engines, hw->hbm_bytes_per_s,
                  hw->rows, hw->cols, hw->tensor_ghz, hw->vector_ghz, hw->vector_channels, hw->scalar_ghz,
                  hw->scalar_channels, hw->gpsimd_ghz, hw->gpsimd_channels, hw->core_ghz, hw->instance_type, o->nc_idx);
  /* The profiler's own figures, as fractions like its summary-json. */
  neuron_gen_put (w, "  \"summary\": [ { \"total_time\": %.9f, \"total_exec_time\": %.9f, \"event_count\": %" G_GUINT64_FORMAT
                  ", \"nc_idx\": %u, \"nd_idx\": 0, \"neuroncore_cycle_count\": %.0f"
                  ", \"model_flops\": %" G_GUINT64_FORMAT ", \"hardware_flops\": %" G_GUINT64_FORMAT
                  ", \"transpose_flops\": %" G_GUINT64_FORMAT ", \"adjusted_hardware_flops\": %" G_GUINT64_FORMAT
                  ", \"adjusted_transpose_flops\": %" G_GUINT64_FORMAT ", \"mm_arithmetic_intensity\": %.6f"
                  ", \"peak_flops_bandwidth_ratio\": %.6f, \"hfu_estimated_percent\": %.9f"
                  ", \"mfu_estimated_percent\": %.9f, \"mfu_inst_estimated_percent\": %.9f"
                  ", \"mfu_hlo_estimated_percent\": %.9f, \"mbu_estimated_percent\": %.9f"
                  ", \"hbm_read_bytes\": %" G_GUINT64_FORMAT ", \"hbm_write_bytes\": %" G_GUINT64_FORMAT
                  ", \"spill_reload_bytes\": %" G_GUINT64_FORMAT ", \"spill_save_bytes\": %" G_GUINT64_FORMAT
                  ", \"dma_transfer_count\": %" G_GUINT64_FORMAT ", \"dma_transfer_total_bytes\": %" G_GUINT64_FORMAT
                  ", \"dma_transfer_average_bytes\": %.3f, \"tensor_engine_instruction_count\": %" G_GUINT64_FORMAT
                  ", \"matmul_instruction_count\": %" G_GUINT64_FORMAT ", \"tensor_engine_active_time\": %.9f"
                  ", \"tensor_engine_active_time_percent\": %.9f, \"vector_engine_instruction_count\": %" G_GUINT64_FORMAT
                  ", \"scalar_engine_instruction_count\": %" G_GUINT64_FORMAT
                  ", \"gpsimd_engine_instruction_count\": %" G_GUINT64_FORMAT
                  ", \"sync_engine_instruction_count\": %" G_GUINT64_FORMAT ", \"cc_op_count\": %" G_GUINT64_FORMAT
                  ", \"cc_cores_instruction_count\": %" G_GUINT64_FORMAT " } ]\n}\n",
                  s, s, t->instructions + m->dma_transfers, o->nc_idx, s * hw->core_ghz * 1e9,
                  model, m->hardware_flops, m->transpose_flops, m->hardware_flops, m->transpose_flops,
                  m->hbm_read + m->hbm_write ? (gdouble) model / (m->hbm_read + m->hbm_write) : 0.0,
                  plant_peak_flops_per_s (hw) / hw->physical_cores / hw->hbm_bytes_per_s,
                  u.hfu, u.mfu, u.mfu, u.mfu, u.mbu, m->hbm_read, m->hbm_write, m->spill_reload, m->spill_save,
                  m->dma_transfers, m->dma_bytes, m->dma_transfers ? (gdouble) m->dma_bytes / m->dma_transfers : 0.0,
                  e[NEURON_GEN_TENSOR] + e[NEURON_GEN_TENSOR_MATRIX], e[NEURON_GEN_TENSOR_MATRIX],
                  active / 1e9, (gdouble) active / ns, e[NEURON_GEN_VECTOR], e[NEURON_GEN_SCALAR],
                  e[NEURON_GEN_GPSIMD], e[NEURON_GEN_SYNC], t->cc_ops, t->cc_instructions);
}

static void
add_ledger (JsonBuilder  *b,
            const gint64 *ledger)
{
  json_builder_set_member_name (b, "ledger");
  json_builder_begin_object (b);
  for (guint s = 0; s < N_STATES; s++)
    {
      json_builder_set_member_name (b, plant_state_names[s]);
      json_builder_add_int_value (b, ledger[s]);
    }
  json_builder_end_object (b);
}

static void
add_int (JsonBuilder *b,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
add_double (JsonBuilder *b,
            const char  *name,
            gdouble      value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, value);
}

static void
add_metrics (JsonBuilder        *b,
             const PlantTruth   *t,
             const PlantMetrics *m,
             gint64              ns)
{
  Utilisation u = utilisation (t, m, ns);

  json_builder_set_member_name (b, "metrics");
  json_builder_begin_object (b);
  add_int (b, "hardware_flops", m->hardware_flops);
  add_int (b, "transpose_flops", m->transpose_flops);
  add_int (b, "model_flops", m->hardware_flops - m->transpose_flops);
  add_int (b, "hbm_read_bytes", m->hbm_read);
  add_int (b, "hbm_write_bytes", m->hbm_write);
  add_int (b, "spill_reload_bytes", m->spill_reload);
  add_int (b, "spill_save_bytes", m->spill_save);
  add_int (b, "dma_transfers", m->dma_transfers);
  add_int (b, "dma_bytes", m->dma_bytes);
  add_int (b, "small_dma_transfers", m->small_dma);
  add_double (b, "hfu_percent", 100 * u.hfu);
  add_double (b, "mfu_percent", 100 * u.mfu);
  add_double (b, "mbu_percent", 100 * u.mbu);
  add_double (b, "throttled_active_percent", 100 * u.throttled_active);
  json_builder_end_object (b);
}

GArray *
neuron_gen_plant_executions (const NeuronGenOptions *options,
                             GError                **error)
{
  PlantTruth t = { 0 };
  GArray *windows;

  if (!plant_compute_truth (options, &t, error))
    return NULL;
  windows = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < t.executions->len; i++)
    {
      const PlantExecution *ex = &g_array_index (t.executions, PlantExecution, i);

      g_array_append_val (windows, ex->start);
      g_array_append_val (windows, ex->end);
    }
  plant_truth_clear (&t);
  return windows;
}

gboolean
neuron_gen_write_truth (const char             *path,
                        const NeuronGenOptions *options,
                        GError                **error)
{
  PlantTruth t = { 0 };
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  gboolean ok;

  if (options->plant == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "no phases planted: nothing to tell");
      return FALSE;
    }
  if (!plant_compute_truth (options, &t, error))
    return FALSE;
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "instance");
  json_builder_add_string_value (b, t.hw->name);
  add_double (b, "peak_tflops", plant_peak_flops_per_s (t.hw) / 1e12);
  add_double (b, "hbm_bandwidth_gbps", t.hw->hbm_bytes_per_s / 1e9);
  add_int (b, "physical_cores", t.hw->physical_cores);
  json_builder_set_member_name (b, "window");
  json_builder_begin_object (b);
  add_int (b, "start_ns", t.window_start);
  add_int (b, "end_ns", t.window_end);
  json_builder_end_object (b);
  add_ledger (b, t.ledger);
  add_metrics (b, &t, &t.m, t.window_end - t.window_start);
  json_builder_set_member_name (b, "executions");
  json_builder_begin_array (b);
  for (guint i = 0; i < t.executions->len; i++)
    {
      const PlantExecution *ex = &g_array_index (t.executions, PlantExecution, i);

      json_builder_begin_object (b);
      add_int (b, "start_ns", ex->start);
      add_int (b, "end_ns", ex->end);
      add_ledger (b, ex->ledger);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "phases");
  json_builder_begin_array (b);
  for (guint i = 0; i < t.phases->len; i++)
    {
      const PlantPhase *ph = &g_array_index (t.phases, PlantPhase, i);
      PlantState state = plant_kind_state (ph->kind);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, plant_kind_name (ph->kind));
      add_int (b, "execution", ph->execution);
      add_int (b, "start_ns", ph->start);
      add_int (b, "end_ns", ph->end);
      json_builder_set_member_name (b, "state");
      json_builder_add_string_value (b, plant_state_names[state]);
      add_int (b, "state_ns", ph->ledger[state]);
      add_int (b, "idle_ns", state >= ST_DMA ? ph->ledger[state] : 0);
      json_builder_set_member_name (b, "rule");
      if (plant_kind_rule (ph->kind))
        json_builder_add_string_value (b, plant_kind_rule (ph->kind));
      else
        json_builder_add_null_value (b);
      if (plant_kind_queue (ph->kind))
        {
          json_builder_set_member_name (b, "queue");
          json_builder_add_string_value (b, plant_kind_queue (ph->kind));
        }
      add_ledger (b, ph->ledger);
      add_metrics (b, &t, &ph->m, ph->end - ph->start);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  ok = json_generator_to_file (gen, path, error);
  plant_truth_clear (&t);
  return ok;
}
