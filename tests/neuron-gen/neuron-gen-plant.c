/* neuron-gen-plant.c: a device profile made of planted bottlenecks
 *
 * The profile is a sequence of phases, each a number of Tensor steps. A
 * step loads a weight tile (LDWEIGHTS, its 64 KiB prefetched on one of
 * six qSyncIO0 rings) and multiplies over it (MATMUL, and in the
 * transpose phase TRANSPOSE matmuls first). What each phase plants before
 * every step is what the Tensor engine then waits for:
 *
 *   compute       nothing: the steps run back to back
 *   dma-bound     a 128 KiB input transfer on qSyncIO0, one at a time
 *   engine-bound  a Vector TENSOR_TENSOR (engine-bound-scalar: a Scalar
 *                 ACTIVATE; engine-bound-gpsimd: a GpSimd AFFINE_SELECT)
 *   small-dma     32 transfers of 2 KiB on qSyncDynamicHW
 *   spill         a spill save, then its reload on qSyncSpillReload0,
 *                 passed on by a Sync EVENT_SEMAPHORE; Scalar's inputs
 *                 reload on qScalarSpillReload0
 *   transpose     nothing, but two of six matmuls are transposes
 *   collective    an AllReduce on the CC-cores, triggered by GpSimd;
 *                 the step waits on the collective's semaphore
 *   throttle      nothing, but each step runs under a Throttle record of
 *                 k/n = 4/8 .. 7/8 and slower by n/k
 *   late-start    nothing held it: the step starts 1.5 us late
 *   barrier       a wait on the other physical core's semaphore, whose
 *                 update the profile does not hold
 *   collective-outlier  as collective, but one AllReduce in eight takes
 *                 four times as long as the others of its size
 *   no-nki        as compute, but the instructions are the compiler's:
 *                 none has an nki_source_location
 *   small-tiles   as compute, but the MATMULs use 32 of the 128 rows:
 *                 the engine is busy at a quarter of its FLOPs
 *
 * An execution runs the phases in order and ends by writing its output (a
 * Sync WRITE, then a transfer to [OUTPUT]); with options->plant_executions
 * several run, 25 us of host time apart. Every activity is scheduled here; the records and the
 * books kept while writing them (the Tensor engine's ledger, the FLOPs,
 * the bytes) are in neuron-gen-record.c. The same schedule runs once per
 * table, and once more for the truth.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "neuron-gen-plant.h"

#define LEAD            6000      /* ns a weight tile is fetched ahead of its step */
#define TENSOR_EFF      0.8       /* the Tensor engine's rate, of its peak */
#define MM_ELEMENTS     512       /* moving elements per MATMUL */
#define MM_PER_STEP     4
#define WEIGHT_BYTES    (64 * 1024)
#define SMALL_PER_STEP  32
#define SMALL_BYTES     2048
#define LATE_NS         1500
#define BARRIER_NS      1200
#define DEFAULT_STEPS   16
#define HOST_GAP        25000     /* ns between two executions, spent on the host */

typedef enum {
  K_COMPUTE, K_DMA_BOUND, K_ENGINE_BOUND, K_ENGINE_BOUND_SCALAR, K_ENGINE_BOUND_GPSIMD,
  K_SMALL_DMA, K_SPILL, K_TRANSPOSE, K_COLLECTIVE, K_THROTTLE, K_LATE_START, K_BARRIER,
  K_COLLECTIVE_OUTLIER, K_NO_NKI, K_SMALL_TILES, N_KINDS
} Kind;

const char * const neuron_gen_plant_names[] = {
  "compute", "dma-bound", "engine-bound", "engine-bound-scalar", "engine-bound-gpsimd",
  "small-dma", "spill", "transpose", "collective", "throttle", "late-start", "barrier",
  "collective-outlier", "no-nki", "small-tiles", NULL,
};

static const struct {
  PlantState  state;
  const char *rule;
  const char *queue;
} kinds[N_KINDS] = {
  { ST_COMPUTE, NULL, NULL },
  { ST_DMA, "neuron-dma-bound", "qSyncIO0" },
  { ST_VECTOR, "neuron-engine-bound", NULL },
  { ST_SCALAR, "neuron-engine-bound", NULL },
  { ST_GPSIMD, "neuron-engine-bound", NULL },
  { ST_DMA, "neuron-small-dma", "qSyncDynamicHW" },
  { ST_DMA, "neuron-spill-reload", "qSyncSpillReload0" },
  { ST_TRANSPOSE, "neuron-transpose", NULL },
  { ST_COLLECTIVE, "neuron-collective-wait", NULL },
  { ST_COMPUTE, "neuron-throttling", NULL },
  { ST_NOT_QUEUED, "neuron-late-start", NULL },
  { ST_SEMAPHORE, NULL, NULL },
  { ST_COLLECTIVE, "collective-outlier", NULL },
  { ST_COMPUTE, "neuron-nki-coverage", NULL },
  { ST_COMPUTE, "neuron-low-model-flops", NULL },
};

const char *plant_kind_name (guint kind) { return neuron_gen_plant_names[kind]; }
PlantState plant_kind_state (guint kind) { return kinds[kind].state; }
const char *plant_kind_rule (guint kind) { return kinds[kind].rule; }
const char *plant_kind_queue (guint kind) { return kinds[kind].queue; }

static const char * const table_keys[N_TABLES] = {
  "instruction", "dma", "semaphore_update", "cc_op", "cc_instruction", "throttle",
};

/* -------------------------------------------------------------------- */
/* Steps and phases                                                     */

static void
throttle (Plant  *p,
          gint64  start,
          gint64  dur,
          guint   k,
          guint   n)
{
  PlantMetrics *ms[2] = { &p->t->m, &plant_phase_at (p, start)->m };

  if (plant_begin (p, T_THROTTLE))
    {
      neuron_gen_put_int (p->w, p->o, "timestamp", start);
      neuron_gen_put (p->w, ", ");
      neuron_gen_put_int (p->w, p->o, "duration", dur);
      neuron_gen_put (p->w, ", \"k\": %u, \"n\": %u, \"type\": \"activity_0\", \"pcore_idx\": 0}", k, n);
    }
  for (guint i = 0; i < 2; i++)
    {
      /* Steps are Tensor-active from end to end. */
      ms[i]->throttled_active_ns += (1.0 - (gdouble) k / n) * dur;
      ms[i]->throttle_ns += dur;
      ms[i]->throttle_kn_ns += (gdouble) k / n * dur;
    }
  p->t->throttles++;
}

/* How a Tensor step runs. */
typedef struct {
  gint64   not_before;   /* it starts no earlier */
  guint    transposes;   /* TRANSPOSE matmuls before the MATMULs */
  guint    k;            /* at k/8 of the engine's rate */
  guint    rows;         /* of the array the MATMULs use; 0: all */
  gboolean barrier;      /* waits on the other physical core */
} Shape;

static const Shape plain = { 0, 0, 8, 0, FALSE };

/* One Tensor step after CAUSE (or NULL), shaped by SHAPE. */
static void
tensor_step (Plant       *p,
             const Act   *cause,
             const Shape *shape)
{
  const PlantHardware *hw = p->hw;
  guint rows = shape->rows ? shape->rows : hw->rows;
  guint transposes = shape->transposes;
  char operands[128];
  gint64 exec_start = g_array_index (p->t->executions, PlantExecution, p->execution).start;
  Act weights = plant_dma (p, R_WEIGHT0 + p->step % N_WEIGHT_RINGS, WEIGHT_BYTES, MAX (exec_start, p->frontier - LEAD),
                           "weight", "[[WEIGHT]]", "[SB]");
  gdouble rate = hw->tensor_ghz * TENSOR_EFF * shape->k / 8.0;
  /* The last step's output: a dependency, not a semaphore wait. */
  Act before = p->last_mm;
  Inst ld = { NEURON_GEN_TENSOR, "LDWEIGHTS", NULL, 0, plant_cycles_ns (hw->rows, rate),
              { &weights, cause, p->has_mm ? &before : NULL }, 3 };
  gint64 start = MAX (MAX (p->frontier, weights.end + LAT), shape->not_before);
  Act prev;

  before.sem = 0;
  if (cause != NULL)
    start = MAX (start, cause->end + LAT);
  ld.start = start;
  ld.barrier = shape->barrier;
  ld.elements = hw->rows;
  ld.hlo = "%dot.12 = dot(%p0.3, %p1.4), lhs_contracting_dims={1}, rhs_contracting_dims={0}";
  ld.op_type = "aten__mm";
  ld.layer = "NeuronLlamaMLP[mlp]/ColumnParallelLinear[gate_proj]/aten.mm";
  ld.operands = "src=bf16@0x5600[1,0,0][128,1,1] dst=0x2000000[1,0,0][128,1,1] 128*128";
  prev = plant_inst (p, &ld);
  for (guint i = 0; i < transposes + MM_PER_STEP; i++)
    {
      gboolean tr = i < transposes;
      Inst mm = { NEURON_GEN_TENSOR_MATRIX, "MATMUL", NULL, prev.end, plant_cycles_ns (MM_ELEMENTS, rate),
                  { &prev }, 1, i == transposes + MM_PER_STEP - 1 };

      mm.transpose = tr;
      mm.elements = MM_ELEMENTS;
      mm.rows = rows;
      mm.hlo = tr ? "%transpose.7 = transpose(%p2.5), dimensions={1,0}" :
                    "%dot.12 = dot(%p0.3, %p1.4), lhs_contracting_dims={1}, rhs_contracting_dims={0}";
      mm.op_type = tr ? "aten__permute" : "aten__mm";
      mm.layer = tr ? "NeuronLlamaAttention[self_attn]/aten.permute" :
                      "NeuronLlamaMLP[mlp]/ColumnParallelLinear[gate_proj]/aten.mm";
      g_snprintf (operands, sizeof operands, "acc_flags=3 row_grp=q0 src=bf16@0x5600[1,0,0][%u,1,1] "
                  "dst=0x2000000[1,0,0][%u,1,1] %u*%u", MM_ELEMENTS, MM_ELEMENTS, rows, MM_ELEMENTS);
      mm.operands = operands;
      prev = plant_inst (p, &mm);
    }
  if (shape->k < 8)
    throttle (p, start, prev.end - start, shape->k, 8);
  p->last_mm = prev;
  p->has_mm = TRUE;
}

/* Scalar's activation of the step's output, with INPUT (or NULL) beside it. */
static Act
activate (Plant     *p,
          const Act *input)
{
  Inst in = { NEURON_GEN_SCALAR, "ACTIVATE", NULL,
              MAX (p->last_mm.end + LAT, p->engine_free[NEURON_GEN_SCALAR]),
              plant_cycles_ns (256, p->hw->scalar_ghz), { &p->last_mm, input }, 2, TRUE };

  if (input != NULL)
    in.start = MAX (in.start, input->end + LAT);
  in.hlo = "%logistic.4 = logistic(%dot.12)";
  in.op_type = "aten__silu";
  in.layer = "NeuronLlamaMLP[mlp]/aten.silu";
  in.operands = "func=silu src=bf16@0x2000000[1,0,0][256,1,1] dst=0x7000[1,0,0][256,1,1]";
  return plant_inst (p, &in);
}

static void
cc_instruction (Plant      *p,
                gint64      start,
                gint64      end,
                guint       core,
                const char *description,
                gint64      trigger)
{
  if (plant_begin (p, T_CC_INSTRUCTION))
    neuron_gen_put (p->w, "\"start_ts\": %" G_GINT64_FORMAT ", \"end_ts\": %" G_GINT64_FORMAT
                    ", \"core_idx\": %u, \"description\": \"%s\", \"trigger_engine\": \"Pool\", "
                    "\"trigger_start_ts\": %" G_GINT64_FORMAT "}", start, end, core, description, trigger);
  p->t->cc_instructions++;
}

/* An AllReduce of the last step's output, STRETCH times as long as the
 * others of its size: GpSimd's trigger, the collective on the CC-cores,
 * and its semaphore raised when it ends. */
static Act
collective (Plant     *p,
            const Act *after,
            guint      stretch)
{
  Act trigger = plant_side (p, NEURON_GEN_GPSIMD, "PSEUDO_TRIGGER_COLLECTIVE_2",
                            (after ? after->end : p->frontier) + LAT, 60, after,
                            "%all-reduce.2 = all-reduce(%logistic.4), replica_groups={{0,1,2,3}}", "aten__all_reduce",
                            "NeuronLlamaMLP[mlp]/RowParallelLinear[down_proj]/xla.all_reduce",
                            "ctype=ALL_REDUCE op=ADD dtype=bfloat16 cc_dim=0 src0_var_id=1353");
  guint64 bytes = 1024 * 1024;
  gint64 start = trigger.end + 100;
  gint64 end = start + 4096 * stretch;
  Act a = { start, end, ST_COLLECTIVE, NULL, 0, SEM_CC, 0, 0, 0 };

  if (plant_begin (p, T_CC_OP))
    {
      neuron_gen_put_int (p->w, p->o, "start_ts", start);
      neuron_gen_put (p->w, ", ");
      neuron_gen_put_int (p->w, p->o, "end_ts", end);
      neuron_gen_put (p->w, ", \"operation\": \"AllReduce\", \"algorithm\": \"Ring\", \"dtype\": \"bf16\", "
                      "\"num_elements\": %" G_GUINT64_FORMAT ", \"op_id\": %" G_GUINT64_FORMAT ", \"stream_id\": 1, \"stream_index\": 0, "
                      "\"input_size\": %" G_GUINT64_FORMAT ", \"output_size\": %" G_GUINT64_FORMAT ", "
                      "\"trigger_start_ts\": %" G_GINT64_FORMAT ", \"cc_trigger_start_delay\": %" G_GINT64_FORMAT ", "
                      "\"algorithm_bandwidth\": %.1f, \"replica_group_id\": 0, \"replica_group\": \"[[0, 1, 2, 3]]\", "
                      "\"trigger_engine\": \"Pool\"}",
                      bytes / 2, p->t->cc_ops, bytes, bytes, trigger.start, start - trigger.start,
                      bytes * 1e9 / (end - start));
    }
  for (guint core = 8; core < 12; core++)
    cc_instruction (p, start + 20, core == 8 ? end - 50 : end, core, "DMA_ADVANCE", trigger.start);
  /* The CC-core tells the NeuronCore it is done. */
  cc_instruction (p, end - 50, end, 8, "TPB_TRIGGER", trigger.start);
  p->t->cc_ops++;
  a.value = plant_sem_update (p, SEM_CC, "CcCore8", end, "AXI");
  plant_note_end (p, end, ST_COLLECTIVE);
  return a;
}

/* What the engine-bound phases make the Tensor engine wait for: an
 * instruction over 2048 elements of the step's output. */
typedef struct {
  NeuronGenEngine engine;
  const char     *opcode, *hlo, *op_type, *layer, *operands;
} EngineCause;

static const EngineCause engine_causes[] = {
  { NEURON_GEN_VECTOR, "TENSOR_TENSOR", "%divide.6 = divide(%exponential.5, %broadcast.8)", "aten__softmax",
    "NeuronLlamaAttention[self_attn]/aten.softmax",
    "op=divide src=bf16@0x7000[1,0,0][2048,1,1] dst=0x7000[1,0,0][2048,1,1]" },
  { NEURON_GEN_SCALAR, "ACTIVATE", "%exponential.5 = exponential(%dot.12)", "aten__exp",
    "NeuronLlamaAttention[self_attn]/aten.exp",
    "func=exp src=bf16@0x2000000[1,0,0][2048,1,1] dst=0x7000[1,0,0][2048,1,1]" },
  { NEURON_GEN_GPSIMD, "AFFINE_SELECT", "%select.3 = select(%compare.2, %dot.12, %broadcast.9)", "aten__masked_fill",
    "NeuronLlamaAttention[self_attn]/aten.masked_fill",
    "pattern=causal src=bf16@0x7000[1,0,0][2048,1,1] dst=0x7000[1,0,0][2048,1,1]" },
};

static void
run_step (Plant *p,
          Kind   kind)
{
  const PlantHardware *hw = p->hw;
  const Act *mm = p->has_mm ? &p->last_mm : NULL;
  gint64 after = p->frontier + LAT;
  Act cause;

  switch (kind)
    {
    case K_COMPUTE:
    case K_NO_NKI:
      tensor_step (p, NULL, &plain);
      activate (p, NULL);
      break;
    case K_TRANSPOSE:
      tensor_step (p, NULL, &(Shape) { 0, 2, 8, 0, FALSE });
      activate (p, NULL);
      break;
    case K_SMALL_TILES:
      tensor_step (p, NULL, &(Shape) { 0, 0, 8, hw->rows / 4, FALSE });
      activate (p, NULL);
      break;
    case K_THROTTLE:
      tensor_step (p, NULL, &(Shape) { 0, 0, 4 + p->step % 4, 0, FALSE });
      activate (p, NULL);
      break;
    case K_LATE_START:
      tensor_step (p, NULL, &(Shape) { p->frontier + LATE_NS, 0, 8, 0, FALSE });
      activate (p, NULL);
      break;
    case K_BARRIER:
      tensor_step (p, NULL, &(Shape) { p->frontier + BARRIER_NS, 0, 8, 0, TRUE });
      break;
    case K_DMA_BOUND:
      cause = plant_dma (p, R_INPUT, 128 * 1024, p->frontier, "input", "[INPUT]", "[SB]");
      tensor_step (p, &cause, &plain);
      break;
    case K_SMALL_DMA:
      {
        guint64 bytes = 0;

        for (guint i = 0; i < SMALL_PER_STEP; i++)
          {
            cause = plant_dma (p, R_SMALL, SMALL_BYTES, p->frontier, "gather", "[INPUT]", "[SB]");
            bytes += cause.read_bytes;
          }
        /* Waiting for the last, the step waits for them all. */
        cause.read_bytes = bytes;
        tensor_step (p, &cause, &plain);
      }
      break;
    case K_ENGINE_BOUND:
    case K_ENGINE_BOUND_SCALAR:
    case K_ENGINE_BOUND_GPSIMD:
      {
        const EngineCause *e = &engine_causes[kind - K_ENGINE_BOUND];
        gdouble ghz = e->engine == NEURON_GEN_VECTOR ? hw->vector_ghz :
                      e->engine == NEURON_GEN_SCALAR ? hw->scalar_ghz : hw->gpsimd_ghz;

        cause = plant_side (p, e->engine, e->opcode, after, plant_cycles_ns (2048, ghz), mm,
                            e->hlo, e->op_type, e->layer, e->operands);
        tensor_step (p, &cause, &plain);
      }
      break;
    case K_SPILL:
      {
        Act save = plant_write_out (p, R_SAVE, WEIGHT_BYTES, mm, "spill_save", "[SPILL]");
        Act reload = plant_dma (p, R_RELOAD, WEIGHT_BYTES, save.end, "spill_reload", "[SPILL]", "[SB]");
        Act bias = plant_dma (p, R_SCALAR_RELOAD, 16 * 1024, p->frontier, "spill_reload", "[SPILL]", "[SB]");

        cause = plant_side (p, NEURON_GEN_SYNC, "EVENT_SEMAPHORE", reload.end + LAT, 20, &reload,
                            "%copy.3 = copy(%add.9)", "aten__copy_", "aten.copy_", "semaphore=8 id=1");
        tensor_step (p, &cause, &plain);
        activate (p, &bias);
      }
      break;
    case K_COLLECTIVE:
    case K_COLLECTIVE_OUTLIER:
      {
        Act out;

        if (mm != NULL)
          out = activate (p, NULL);
        /* One in eight four times as long as the rest. */
        cause = collective (p, mm ? &out : NULL, kind == K_COLLECTIVE_OUTLIER && p->step % 8 == 3 ? 4 : 1);
        tensor_step (p, &cause, &plain);
      }
      break;
    case N_KINDS:
    default:
      g_assert_not_reached ();
    }
  p->step++;
}

/* The plan, the phases' names in order, repeated ROUNDS times. */
static GArray *
parse_plan (const char  *list,
            guint        rounds,
            GError     **error)
{
  g_auto(GStrv) names = g_strsplit (list, ",", -1);
  g_autoptr(GArray) plan = g_array_new (FALSE, FALSE, sizeof (Kind));

  for (guint r = 0; r < rounds; r++)
    for (guint i = 0; names[i] != NULL; i++)
      {
        const char *name = g_strstrip (names[i]);
        Kind k;

        for (k = 0; k < N_KINDS && strcmp (neuron_gen_plant_names[k], name) != 0; k++)
          ;
        if (k == N_KINDS)
          {
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "unknown phase \"%s\" in --plant", name);
            return NULL;
          }
        g_array_append_val (plan, k);
      }
  if (plan->len == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--plant names no phase");
      return NULL;
    }
  return g_steal_pointer (&plan);
}

/* One execution: every phase of the plan, then the output written. */
static void
run_execution (Plant *p,
               guint  steps)
{
  PlantExecution ex = { 0 };
  Act out;

  /* The host's time between two executions is no execution's. */
  ex.start = p->execution == 0 ? 0 : p->t->window_end + HOST_GAP;
  g_array_append_val (p->t->executions, ex);
  p->frontier = ex.start;
  p->has_mm = FALSE;
  for (guint i = 0; i < p->plan->len; i++)
    {
      PlantPhase ph = { 0 };

      ph.kind = g_array_index (p->plan, Kind, i);
      ph.execution = p->execution;
      ph.start = p->frontier;
      p->nki = ph.kind != K_NO_NKI;
      g_array_append_val (p->t->phases, ph);
      p->phase = p->t->phases->len - 1;
      for (guint s = 0; s < steps; s++)
        run_step (p, ph.kind);
      plant_phase_now (p)->end = p->frontier;
    }
  /* The output written: its tail, after the last Tensor instruction, is
   * charged to what ended last. */
  out = activate (p, NULL);
  plant_write_out (p, R_OUTPUT, 32 * 1024, &out, "output", "[OUTPUT]");
  g_assert (p->end_cls < N_STATES);
  plant_ledger_add (p, p->end_cls, p->t->window_end - p->frontier);
  plant_phase_now (p)->end = p->t->window_end;
  g_array_index (p->t->executions, PlantExecution, p->execution).end = p->t->window_end;
}

/* Every execution, into the current table (or none: the books only). */
static void
run_plan (Plant *p,
          Table  table)
{
  guint steps = p->o->plant_steps ? p->o->plant_steps : DEFAULT_STEPS;
  guint executions = MAX (p->o->plant_executions, 1);

  p->table = table;
  p->first = TRUE;
  g_rand_set_seed (p->rng, (guint32) p->o->seed);
  memset (p->sem, 0, sizeof p->sem);
  memset (p->ring_free, 0, sizeof p->ring_free);
  memset (p->engine_free, 0, sizeof p->engine_free);
  memset (p->pc, 0, sizeof p->pc);
  p->tensor_end = 0;
  p->step = 0;
  plant_truth_clear (p->t);
  p->t->hw = p->hw;
  p->t->phases = g_array_new (FALSE, TRUE, sizeof (PlantPhase));
  p->t->executions = g_array_new (FALSE, TRUE, sizeof (PlantExecution));

  if (table != T_NONE)
    neuron_gen_put (p->w, "  \"%s\": [", table_keys[table]);
  for (p->execution = 0; p->execution < executions; p->execution++)
    run_execution (p, steps);
  /* The whole profile's tail, as the last execution's. */
  p->t->ledger[p->end_cls] += p->t->window_end - p->tensor_end;
  if (table != T_NONE)
    neuron_gen_put (p->w, "\n  ],\n");
}

static gboolean
plant_init (Plant                  *p,
            const NeuronGenOptions *o,
            PlantTruth             *truth,
            guint                   rounds,
            GError                **error)
{
  memset (p, 0, sizeof *p);
  p->o = o;
  p->hw = plant_hardware (o->instance ? o->instance : "trn2");
  if (p->hw == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "unknown instance \"%s\" (trn1, trn2, trn3 or inf2)",
                   o->instance);
      return FALSE;
    }
  p->plan = parse_plan (o->plant, rounds, error);
  if (p->plan == NULL)
    return FALSE;
  p->rng = g_rand_new ();
  p->t = truth;
  return TRUE;
}

static void
plant_clear (Plant *p)
{
  g_clear_pointer (&p->plan, g_array_unref);
  g_clear_pointer (&p->rng, g_rand_free);
}

/* The profile of every table, ROUNDS times the plan, into W. */
static void
write_tables (Plant *p)
{
  for (Table t = 0; t < N_TABLES; t++)
    run_plan (p, t);
  plant_write_closing (p->w, p->o, p->t);
}

/* How many times the plan runs: enough for options->target_bytes. */
static guint
plan_rounds (const NeuronGenOptions *o,
             GError                **error)
{
  NeuronGenWriter w;
  NeuronGenCounts c = { 0 };
  PlantTruth truth = { 0 };
  Plant p;
  guint64 bytes = 0;

  if (o->target_bytes == 0)
    return 1;
  if (!plant_init (&p, o, &truth, 1, error))
    return 0;
  neuron_gen_writer_count (&w);
  p.w = &w;
  p.c = &c;
  write_tables (&p);
  neuron_gen_writer_close (&w, NULL, &bytes, NULL);
  plant_clear (&p);
  plant_truth_clear (&truth);
  return (guint) MAX (1, MIN (o->target_bytes / MAX (bytes, 1), G_MAXUINT / 64));
}

gboolean
plant_compute_truth (const NeuronGenOptions *o,
                     PlantTruth             *truth,
                     GError                **error)
{
  guint rounds = plan_rounds (o, error);
  Plant p;
  NeuronGenCounts c = { 0 };

  if (rounds == 0 || !plant_init (&p, o, truth, rounds, error))
    return FALSE;
  p.c = &c;
  run_plan (&p, T_NONE);
  plant_clear (&p);
  return TRUE;
}

gboolean
neuron_gen_plant_write_device (const char             *path,
                               const NeuronGenOptions *options,
                               NeuronGenCounts        *counts,
                               GError                **error)
{
  NeuronGenCounts local = { 0 };
  NeuronGenCounts *c = counts ? counts : &local;
  NeuronGenWriter w = { 0 };
  PlantTruth truth = { 0 };
  guint rounds = plan_rounds (options, error);
  Plant p;
  gboolean ok;

  memset (c, 0, sizeof *c);
  if (rounds == 0 || !plant_init (&p, options, &truth, rounds, error))
    return FALSE;
  if (!neuron_gen_writer_open (&w, path, error))
    {
      plant_clear (&p);
      return FALSE;
    }
  p.w = &w;
  p.c = c;
  neuron_gen_put (&w, "{\n");
  write_tables (&p);
  c->end_ts = truth.window_end;
  for (guint s = 0; s < N_SEMS; s++)
    {
      c->semaphore_updates += p.sem[s];
      c->semaphores += p.sem[s] > 0;
    }
  c->cc_ops = truth.cc_ops;
  c->cc_instructions = truth.cc_instructions;
  c->cc_cores = truth.cc_ops > 0 ? 4 : 0;
  ok = neuron_gen_writer_close (&w, path, &c->bytes, error);
  plant_clear (&p);
  plant_truth_clear (&truth);
  return ok;
}
