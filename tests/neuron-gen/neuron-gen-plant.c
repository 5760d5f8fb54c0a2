/* neuron-gen-plant.c: a device profile made of planted bottlenecks
 *
 * The profile is a sequence of phases, each a number of Tensor steps. A
 * step loads a weight tile (LDWEIGHTS, its 64 KiB prefetched on one of
 * four qSyncIO0 rings) and multiplies over it (MATMUL, and in the
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
 *
 * The profile ends by writing its output (a Sync WRITE, then a transfer
 * to [OUTPUT]). Every activity is scheduled here, and the ledger of the
 * Tensor engine is kept while scheduling: a gap before a Tensor
 * instruction takes the class of its predecessor that ended last (through
 * a Sync instruction, of that one's). The same schedule runs once per
 * table, and once more for the truth.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "neuron-gen-plant.h"

#define TWO_POW_53      (G_GUINT64_CONSTANT (1) << 53)
#define LAT             30        /* ns from a semaphore's update to the waiter's start */
#define LEAD            6000      /* ns a weight tile is fetched ahead of its step */
#define DMA_SETUP       64        /* ns a transfer costs besides its bytes */
#define TENSOR_EFF      0.8       /* the Tensor engine's rate, of its peak */
#define MM_ELEMENTS     512       /* moving elements per MATMUL */
#define MM_PER_STEP     4
#define WEIGHT_BYTES    (64 * 1024)
#define SMALL_PER_STEP  32
#define SMALL_BYTES     2048
#define LATE_NS         1500
#define BARRIER_NS      1200
#define DEFAULT_STEPS   16

/* Semaphores: the engines', the collective's, the barrier's, the rings' from 20. */
enum {
  SEM_SCALAR = 4, SEM_TENSOR = 5, SEM_VECTOR = 6, SEM_GPSIMD = 7, SEM_SYNC = 8,
  SEM_CC = 15, SEM_BARRIER = 45, SEM_RING = 20, N_SEMS = 64,
};

typedef enum {
  K_COMPUTE, K_DMA_BOUND, K_ENGINE_BOUND, K_ENGINE_BOUND_SCALAR, K_ENGINE_BOUND_GPSIMD,
  K_SMALL_DMA, K_SPILL, K_TRANSPOSE, K_COLLECTIVE, K_THROTTLE, K_LATE_START, K_BARRIER,
  N_KINDS
} Kind;

const char * const neuron_gen_plant_names[] = {
  "compute", "dma-bound", "engine-bound", "engine-bound-scalar", "engine-bound-gpsimd",
  "small-dma", "spill", "transpose", "collective", "throttle", "late-start", "barrier", NULL,
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
};

const char *plant_kind_name (guint kind) { return neuron_gen_plant_names[kind]; }
PlantState plant_kind_state (guint kind) { return kinds[kind].state; }
const char *plant_kind_rule (guint kind) { return kinds[kind].rule; }
const char *plant_kind_queue (guint kind) { return kinds[kind].queue; }

/* DMA rings: a queue of one DMA engine, serving one transfer at a time. */
typedef enum {
  R_WEIGHT0, R_WEIGHT1, R_WEIGHT2, R_WEIGHT3, R_INPUT, R_SMALL, R_RELOAD, R_SCALAR_RELOAD,
  R_SAVE, R_OUTPUT, N_RINGS
} Ring;

static const struct {
  const char *queue;
  guint       idx, engine;
  const char *type;
} rings[N_RINGS] = {
  { "qSyncIO0", 0, 64, "data" }, { "qSyncIO0", 0, 65, "data" },
  { "qSyncIO0", 0, 66, "data" }, { "qSyncIO0", 0, 67, "data" },
  { "qSyncIO0", 1, 72, "input" }, { "qSyncDynamicHW", 3, 70, "hardware_dynamic" },
  { "qSyncSpillReload0", 4, 68, "data" }, { "qScalarSpillReload0", 1, 69, "data" },
  { "qSyncIO0", 2, 71, "data" }, { "qSyncIO0", 5, 73, "output" },
};

typedef enum {
  T_INSTRUCTION, T_DMA, T_SEMAPHORE, T_CC_OP, T_CC_INSTRUCTION, T_THROTTLE, N_TABLES,
  T_NONE = N_TABLES
} Table;

static const char * const table_keys[N_TABLES] = {
  "instruction", "dma", "semaphore_update", "cc_op", "cc_instruction", "throttle",
};

/* Something that ran: what a later instruction may wait for. */
typedef struct Act Act;
struct Act {
  gint64      start, end;
  PlantState  cls;
  const Act  *via;           /* a Sync instruction's predecessor that ended last */
  guint64     id;            /* an instruction's; 0 for a transfer or a collective */
  guint       sem;           /* the semaphore it raised when it ended, or 0 */
  guint64     value;         /* and the value that reached */
  guint64     read_bytes;    /* HBM bytes a transfer read, of them reloads */
  guint64     reload_bytes;
};

typedef struct {
  NeuronGenEngine engine;
  const char     *opcode;
  const char     *compiler_opcode;
  gint64          start, dur;
  const Act      *preds[4];
  guint           n_preds;
  gboolean        update;       /* raises its engine's semaphore when it completes */
  gboolean        barrier;      /* waits on the other physical core */
  gboolean        transpose;
  guint64         elements;     /* Tensor: moving elements */
  guint64         write_bytes, save_bytes;  /* a WRITE: of the transfer it triggers */
  const char     *hlo, *op_type, *layer, *operands;
} Inst;

typedef struct {
  const NeuronGenOptions *o;
  const PlantHardware    *hw;
  NeuronGenCounts        *c;
  NeuronGenWriter        *w;
  Table       table;
  gboolean    first;
  GRand      *rng;
  GArray     *plan;            /* Kind */
  PlantTruth *t;
  guint64     sem[N_SEMS];
  gint64      ring_free[N_RINGS];
  gint64      engine_free[NEURON_GEN_N_ENGINES];
  gint64      frontier;        /* where the Tensor engine's work so far ends */
  Act         last_mm;         /* the last step's last MATMUL */
  gboolean    has_mm;
  PlantState  end_cls;         /* the class of the activity that ends last */
  guint       step, phase, cc_ops, pc[NEURON_GEN_N_ENGINES];
} Plant;

/* -------------------------------------------------------------------- */
/* Bookkeeping                                                          */

static PlantPhase *
phase_now (Plant *p)
{
  return &g_array_index (p->t->phases, PlantPhase, p->phase);
}

/* The phase that holds time TS: transfers fetched ahead count in the one
 * they run in. */
static PlantPhase *
phase_at (Plant  *p,
          gint64  ts)
{
  guint i = p->phase;

  while (i > 0 && g_array_index (p->t->phases, PlantPhase, i).start > ts)
    i--;
  return &g_array_index (p->t->phases, PlantPhase, i);
}

static void
ledger_add (Plant      *p,
            PlantState  state,
            gint64      ns)
{
  p->t->ledger[state] += ns;
  phase_now (p)->ledger[state] += ns;
}

static void
note_end (Plant      *p,
          gint64      end,
          PlantState  cls)
{
  if (end >= p->t->window_end)
    {
      p->t->window_end = end;
      p->end_cls = cls;
    }
}

/* The predecessor that ended last, if after G0, classified through Sync
 * instructions; else nothing held the waiter. */
static PlantState
classify (const Act * const *preds,
          guint              n,
          gint64             g0,
          gboolean           barrier)
{
  const Act *best = NULL;

  for (guint i = 0; i < n; i++)
    if (preds[i] != NULL && (best == NULL || preds[i]->end > best->end))
      best = preds[i];
  if (best != NULL && best->end > g0)
    {
      while (best->cls == ST_SYNC)
        best = best->via;
      return best->cls;
    }
  return barrier ? ST_SEMAPHORE : ST_NOT_QUEUED;
}

static const Act *
latest (const Act * const *preds,
        guint              n)
{
  const Act *best = NULL;

  for (guint i = 0; i < n; i++)
    if (preds[i] != NULL && (best == NULL || preds[i]->end > best->end))
      best = preds[i];
  return best;
}

/* -------------------------------------------------------------------- */
/* Records                                                              */

static gboolean
begin (Plant *p,
       Table  table)
{
  if (p->table != table)
    return FALSE;
  neuron_gen_put (p->w, p->first ? "\n    {" : ",\n    {");
  p->first = FALSE;
  return TRUE;
}

static const char *
owner_of (NeuronGenEngine engine)
{
  return engine == NEURON_GEN_TENSOR_MATRIX ? "Tensor" : neuron_gen_engine_labels[engine];
}

/* The semaphore an engine's instructions raise. */
static guint
engine_sem (NeuronGenEngine engine)
{
  switch (engine)
    {
    case NEURON_GEN_VECTOR: return SEM_VECTOR;
    case NEURON_GEN_SCALAR: return SEM_SCALAR;
    case NEURON_GEN_GPSIMD: return SEM_GPSIMD;
    case NEURON_GEN_SYNC: return SEM_SYNC;
    case NEURON_GEN_TENSOR:
    case NEURON_GEN_TENSOR_MATRIX:
    case NEURON_GEN_N_ENGINES:
    default: return SEM_TENSOR;
    }
}

static guint64
sem_update (Plant      *p,
            guint       sem,
            const char *owner,
            gint64      ts,
            const char *source)
{
  guint64 value = ++p->sem[sem];

  if (begin (p, T_SEMAPHORE))
    {
      neuron_gen_put_int (p->w, p->o, "timestamp", ts);
      neuron_gen_put (p->w, ", \"id\": \"S[%u] (%s)\", ", sem, owner);
      neuron_gen_put_int (p->w, p->o, "value", (gint64) value);
      neuron_gen_put (p->w, ", \"update_source\": \"%s\", \"update_operation_type\": \"sem_inc\", "
                      "\"update_trigger_timing\": \"complete\", \"pcore_idx\": 0}", source);
    }
  return value;
}

static gboolean
is_hbm (const char *memory)
{
  return strcmp (memory, "[SB]") != 0;
}

/* A transfer on RING of BYTES from SRC to DST, not before EARLIEST. */
static Act
dma (Plant      *p,
     Ring        ring,
     guint64     bytes,
     gint64      earliest,
     const char *variable,
     const char *src,
     const char *dst)
{
  Act a = { 0 };
  PlantPhase *ph;
  PlantMetrics *ms[2];

  a.start = MAX (earliest, p->ring_free[ring]);
  a.end = a.start + DMA_SETUP + (gint64) ceil (bytes / p->hw->dma_bytes_per_ns);
  a.cls = ST_DMA;
  a.sem = SEM_RING + ring;
  a.read_bytes = is_hbm (src) ? bytes : 0;
  a.reload_bytes = ring == R_RELOAD || ring == R_SCALAR_RELOAD ? bytes : 0;
  p->ring_free[ring] = a.end;
  if (begin (p, T_DMA))
    {
      NeuronGenWriter *w = p->w;

      neuron_gen_put_int (w, p->o, "timestamp", a.start);
      neuron_gen_put (w, ", ");
      neuron_gen_put_int (w, p->o, "duration", a.end - a.start);
      neuron_gen_put (w, ", \"subgroup\": \"%s\", \"queue_name\": \"%s-Q%u-E%u\", \"queue_idx\": %u, "
                      "\"semaphore_id\": \"S[%u] (%s)\", ",
                      rings[ring].queue, rings[ring].queue, rings[ring].idx, rings[ring].engine,
                      rings[ring].idx, a.sem, rings[ring].queue);
      neuron_gen_put_int (w, p->o, "transfer_size", (gint64) bytes);
      neuron_gen_put (w, ", \"read_bytes\": %" G_GUINT64_FORMAT ", \"write_bytes\": %" G_GUINT64_FORMAT
                      ", \"op\": \"copy\", \"variable\": \"%s_%u\", \"source\": \"%s\", \"dest\": \"%s\", "
                      "\"queue_type\": \"%s\", \"pcore_idx\": 0}",
                      bytes, bytes, variable, p->step, src, dst, rings[ring].type);
    }
  a.value = sem_update (p, a.sem, rings[ring].queue, a.end, "AXI");
  if (p->table == T_INSTRUCTION)
    p->c->dma++;
  ph = phase_at (p, a.start);
  ms[0] = &p->t->m;
  ms[1] = &ph->m;
  for (guint i = 0; i < 2; i++)
    {
      ms[i]->dma_transfers++;
      ms[i]->dma_bytes += bytes;
      ms[i]->small_dma += bytes < 4096;
      ms[i]->hbm_read += a.read_bytes;
      ms[i]->hbm_write += is_hbm (dst) ? bytes : 0;
      ms[i]->spill_reload += a.reload_bytes;
      ms[i]->spill_save += ring == R_SAVE ? bytes : 0;
    }
  note_end (p, a.end, ST_DMA);
  return a;
}

static void
put_operands (Plant      *p,
              const Inst *in)
{
  NeuronGenWriter *w = p->w;

  neuron_gen_put (w, ", \"operands\": \"");
  for (guint i = 0; i < in->n_preds; i++)
    if (in->preds[i] != NULL && in->preds[i]->sem != 0)
      neuron_gen_put (w, "$S[%u]>=%" G_GUINT64_FORMAT " ", in->preds[i]->sem, in->preds[i]->value);
  if (in->barrier)
    neuron_gen_put (w, "$S[%u]>=%u ", SEM_BARRIER, p->step + 1);
  if (in->update)
    neuron_gen_put (w, "S[%u] (%s)++@complete ", engine_sem (in->engine), owner_of (in->engine));
  neuron_gen_put (w, "%s\"", in->operands);
}

static void
put_instruction (Plant      *p,
                 const Inst *in,
                 guint64     id,
                 gint64      wait,
                 guint64     flops,
                 guint64     read_bytes,
                 guint64     reload_bytes)
{
  NeuronGenWriter *w = p->w;
  const NeuronGenOptions *o = p->o;
  gboolean tensor = in->engine == NEURON_GEN_TENSOR || in->engine == NEURON_GEN_TENSOR_MATRIX;
  gboolean first_dep = TRUE;

  neuron_gen_put_int (w, o, "timestamp", in->start);
  neuron_gen_put (w, ", ");
  neuron_gen_put_int (w, o, "duration", in->dur);
  neuron_gen_put (w, ", \"label\": \"%s\", \"subgroup\": \"%s\", \"opcode\": \"%s\", ",
                  neuron_gen_engine_labels[in->engine], owner_of (in->engine), in->opcode);
  if (in->compiler_opcode)
    neuron_gen_put (w, "\"compiler_opcode\": \"%s\", ", in->compiler_opcode);
  neuron_gen_put_int (w, o, "pc", 15000 + p->pc[in->engine]++);
  neuron_gen_put (w, ", ");
  neuron_gen_put_int (w, o, "id", (gint64) id);
  neuron_gen_put (w, ", \"inst_dep_ids\": [");
  for (guint i = 0; i < in->n_preds; i++)
    if (in->preds[i] != NULL && in->preds[i]->id != 0)
      {
        neuron_gen_put (w, first_dep ? "" : ", ");
        neuron_gen_put_uint (w, o, in->preds[i]->id);
        first_dep = FALSE;
      }
  neuron_gen_put (w, "]");
  put_operands (p, in);
  neuron_gen_put (w, ", ");
  neuron_gen_put_int (w, o, "evt_wait_time", wait);
  if (tensor)
    neuron_gen_put (w, ", \"elements\": %" G_GUINT64_FORMAT ", \"tensor_instruction_type\": \"%s\"",
                    in->elements, in->transpose ? "TRANSPOSE" : "REGULAR");
  neuron_gen_put (w, ", \"raw_flops\": %" G_GUINT64_FORMAT ", \"adjusted_flops\": %" G_GUINT64_FORMAT
                  ", \"flops_transpose\": %" G_GUINT64_FORMAT ", \"adjusted_flops_transpose\": %" G_GUINT64_FORMAT
                  ", \"hbm_read_bytes\": %" G_GUINT64_FORMAT ", \"hbm_write_bytes\": %" G_GUINT64_FORMAT
                  ", \"spill_reload_bytes\": %" G_GUINT64_FORMAT ", \"spill_save_bytes\": %" G_GUINT64_FORMAT,
                  flops, flops, in->transpose ? flops : 0, in->transpose ? flops : 0,
                  read_bytes, in->write_bytes, reload_bytes, in->save_bytes);
  neuron_gen_put (w, ", \"hlo_name\": \"%s\", \"hlo_attrs\": \"[{\\\"op_type\\\":\\\"%s\\\","
                  "\\\"source_file\\\":\\\"modeling_llama.py\\\",\\\"source_line\\\":\\\"%u\\\"}]\", "
                  "\"layer\": \"NeuronLlamaDecoderLayer[%u]/%s\", \"nki_source_location\": \"llama_kernels.py:%u\", "
                  "\"stack_frame_ids\": \"[%u, %u, %u]\", \"subgraph\": \"sg00\", "
                  "\"fully_qualified_subgraph\": \"/sg00\", \"pcore_idx\": 0}",
                  in->hlo, in->op_type, 300 + in->engine * 11, p->phase, in->layer, 40 + in->engine * 7,
                  101, 102 + in->engine, 110 + p->phase);
}

/* Writes one instruction and keeps the books: the Tensor engine's gap
 * before it and its time, the FLOPs, the bytes of the transfers it waits
 * for. Returns what later instructions may wait for. */
static Act
inst (Plant      *p,
      const Inst *in)
{
  gboolean tensor = in->engine == NEURON_GEN_TENSOR || in->engine == NEURON_GEN_TENSOR_MATRIX;
  gint64 ready = tensor ? p->frontier : p->engine_free[in->engine];
  const Act *best = latest (in->preds, in->n_preds);
  guint64 high = g_rand_int (p->rng);
  guint64 flops = in->engine == NEURON_GEN_TENSOR_MATRIX ? 2ull * p->hw->rows * p->hw->cols * in->elements : 0;
  guint64 read_bytes = 0, reload_bytes = 0;
  gint64 wait = best != NULL && best->end > ready ? MAX (in->start - ready, 0) : 0;
  Act a = { in->start, in->start + in->dur, ST_SYNC, NULL, high << 32 | g_rand_int (p->rng), 0, 0, 0, 0 };

  g_assert (in->start >= ready);
  for (guint i = 0; i < in->n_preds; i++)
    if (in->preds[i] != NULL && in->preds[i]->id == 0)
      {
        read_bytes += in->preds[i]->read_bytes;
        reload_bytes += in->preds[i]->reload_bytes;
      }
  if (begin (p, T_INSTRUCTION))
    put_instruction (p, in, a.id, wait, flops, read_bytes, reload_bytes);

  switch (in->engine)
    {
    case NEURON_GEN_VECTOR: a.cls = ST_VECTOR; break;
    case NEURON_GEN_SCALAR: a.cls = ST_SCALAR; break;
    case NEURON_GEN_GPSIMD: a.cls = ST_GPSIMD; break;
    case NEURON_GEN_SYNC: a.cls = ST_SYNC; a.via = best; break;
    case NEURON_GEN_TENSOR:
    case NEURON_GEN_TENSOR_MATRIX:
    case NEURON_GEN_N_ENGINES:
    default: a.cls = in->transpose ? ST_TRANSPOSE : ST_COMPUTE; break;
    }
  if (tensor)
    {
      PlantMetrics *ms[2] = { &p->t->m, &phase_now (p)->m };

      if (in->start > p->frontier)
        ledger_add (p, classify (in->preds, in->n_preds, p->frontier, in->barrier), in->start - p->frontier);
      ledger_add (p, a.cls, in->dur);
      p->frontier = a.end;
      for (guint i = 0; i < 2; i++)
        {
          ms[i]->hardware_flops += flops;
          ms[i]->transpose_flops += in->transpose ? flops : 0;
        }
    }
  p->engine_free[in->engine] = a.end;
  if (in->update)
    {
      a.sem = engine_sem (in->engine);
      a.value = sem_update (p, a.sem, owner_of (in->engine), a.end, owner_of (in->engine));
    }
  if (p->table == T_INSTRUCTION)
    {
      NeuronGenCounts *c = p->c;

      c->instructions++;
      c->per_engine[in->engine]++;
      for (guint i = 0; i < in->n_preds; i++)
        if (in->preds[i] != NULL)
          {
            c->dep_edges += in->preds[i]->id != 0;
            c->semaphore_edges += in->preds[i]->sem != 0;
            c->dma_waits += in->preds[i]->sem >= SEM_RING;
          }
      c->big_ids += a.id >= TWO_POW_53;
      c->last_id = a.id;
      if (c->instructions == 1)
        c->first_ts = in->start;
    }
  p->t->instructions++;
  p->t->per_engine[in->engine]++;
  note_end (p, a.end, a.cls == ST_SYNC ? ST_SYNC : a.cls);
  return a;
}

/* An instruction on a non-Tensor engine, as soon as the engine is free
 * after T. */
static Act
side (Plant           *p,
      NeuronGenEngine  engine,
      const char      *opcode,
      gint64           t,
      gint64           dur,
      const Act       *pred,
      const char      *hlo,
      const char      *op_type,
      const char      *layer,
      const char      *operands)
{
  Inst in = { engine, opcode, NULL, MAX (t, p->engine_free[engine]), dur, { pred }, 1, TRUE };

  in.hlo = hlo;
  in.op_type = op_type;
  in.layer = layer;
  in.operands = operands;
  return inst (p, &in);
}

static gint64
cycles_ns (gdouble elements,
           gdouble ghz)
{
  return (gint64) ceil (elements / ghz);
}

/* A Sync WRITE (PSEUDO_DMA_TRIGGER) that starts a transfer to HBM, and
 * the transfer. */
static Act
write_out (Plant      *p,
           Ring        ring,
           guint64     bytes,
           const Act  *after,
           const char *variable,
           const char *dst)
{
  Inst in = { NEURON_GEN_SYNC, "WRITE", "PSEUDO_DMA_TRIGGER",
              MAX ((after ? after->end : p->frontier) + LAT, p->engine_free[NEURON_GEN_SYNC]), 20, { after }, 1 };
  Act trigger;

  in.write_bytes = bytes;
  in.save_bytes = ring == R_SAVE ? bytes : 0;
  in.hlo = "%copy.3 = copy(%add.9)";
  in.op_type = "aten__copy_";
  in.layer = "aten.copy_";
  in.operands = "data=0xd,0xd size=4,4 dst=0xffff026f038,0xffff024f038";
  trigger = inst (p, &in);
  return dma (p, ring, bytes, trigger.end + LAT, variable, "[SB]", dst);
}

/* -------------------------------------------------------------------- */
/* Steps and phases                                                     */

static void
throttle (Plant  *p,
          gint64  start,
          gint64  dur,
          guint   k,
          guint   n)
{
  PlantMetrics *ms[2] = { &p->t->m, &phase_at (p, start)->m };

  if (begin (p, T_THROTTLE))
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

/* One Tensor step after CAUSE (or NULL), not before NOT_BEFORE, with
 * TRANSPOSES transposes first, at K/8 of the engine's rate. */
static void
tensor_step (Plant     *p,
             const Act *cause,
             gint64     not_before,
             guint      transposes,
             guint      k,
             gboolean   barrier)
{
  const PlantHardware *hw = p->hw;
  Act weights = dma (p, R_WEIGHT0 + p->step % 4, WEIGHT_BYTES, MAX (0, p->frontier - LEAD),
                     "weight", "[[WEIGHT]]", "[SB]");
  gdouble rate = hw->tensor_ghz * TENSOR_EFF * k / 8.0;
  /* The last step's output: a dependency, not a semaphore wait. */
  Act before = p->last_mm;
  Inst ld = { NEURON_GEN_TENSOR, "LDWEIGHTS", NULL, 0, cycles_ns (hw->rows, rate),
              { &weights, cause, p->has_mm ? &before : NULL }, 3 };
  gint64 start = MAX (MAX (p->frontier, weights.end + LAT), not_before);
  Act prev;

  before.sem = 0;
  if (cause != NULL)
    start = MAX (start, cause->end + LAT);
  ld.start = start;
  ld.barrier = barrier;
  ld.elements = hw->rows;
  ld.hlo = "%dot.12 = dot(%p0.3, %p1.4), lhs_contracting_dims={1}, rhs_contracting_dims={0}";
  ld.op_type = "aten__mm";
  ld.layer = "NeuronLlamaMLP[mlp]/ColumnParallelLinear[gate_proj]/aten.mm";
  ld.operands = "src=bf16@0x5600[1,0,0][128,1,1] dst=0x2000000[1,0,0][128,1,1] 128*128";
  prev = inst (p, &ld);
  for (guint i = 0; i < transposes + MM_PER_STEP; i++)
    {
      gboolean tr = i < transposes;
      Inst mm = { NEURON_GEN_TENSOR_MATRIX, "MATMUL", NULL, prev.end, cycles_ns (MM_ELEMENTS, rate),
                  { &prev }, 1, i == transposes + MM_PER_STEP - 1 };

      mm.transpose = tr;
      mm.elements = MM_ELEMENTS;
      mm.hlo = tr ? "%transpose.7 = transpose(%p2.5), dimensions={1,0}" :
                    "%dot.12 = dot(%p0.3, %p1.4), lhs_contracting_dims={1}, rhs_contracting_dims={0}";
      mm.op_type = tr ? "aten__permute" : "aten__mm";
      mm.layer = tr ? "NeuronLlamaAttention[self_attn]/aten.permute" :
                      "NeuronLlamaMLP[mlp]/ColumnParallelLinear[gate_proj]/aten.mm";
      mm.operands = "acc_flags=3 row_grp=q0 src=bf16@0x5600[1,0,0][512,1,1] dst=0x2000000[1,0,0][512,1,1] 128*512";
      prev = inst (p, &mm);
    }
  if (k < 8)
    throttle (p, start, prev.end - start, k, 8);
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
              cycles_ns (256, p->hw->scalar_ghz), { &p->last_mm, input }, 2, TRUE };

  if (input != NULL)
    in.start = MAX (in.start, input->end + LAT);
  in.hlo = "%logistic.4 = logistic(%dot.12)";
  in.op_type = "aten__silu";
  in.layer = "NeuronLlamaMLP[mlp]/aten.silu";
  in.operands = "func=silu src=bf16@0x2000000[1,0,0][256,1,1] dst=0x7000[1,0,0][256,1,1]";
  return inst (p, &in);
}

/* An AllReduce of the last step's output: GpSimd's trigger, the
 * collective on the CC-cores, and its semaphore raised when it ends. */
static Act
collective (Plant     *p,
            const Act *after)
{
  Act trigger = side (p, NEURON_GEN_GPSIMD, "PSEUDO_TRIGGER_COLLECTIVE_2",
                      (after ? after->end : p->frontier) + LAT, 60, after,
                      "%all-reduce.2 = all-reduce(%logistic.4), replica_groups={{0,1,2,3}}", "aten__all_reduce",
                      "NeuronLlamaMLP[mlp]/RowParallelLinear[down_proj]/xla.all_reduce",
                      "ctype=ALL_REDUCE op=ADD dtype=bfloat16 cc_dim=0 src0_var_id=1353");
  guint64 bytes = 1024 * 1024;
  gint64 start = trigger.end + 100;
  gint64 end = start + 4096;
  Act a = { start, end, ST_COLLECTIVE, NULL, 0, SEM_CC, 0, 0, 0 };

  if (begin (p, T_CC_OP))
    {
      neuron_gen_put_int (p->w, p->o, "start_ts", start);
      neuron_gen_put (p->w, ", ");
      neuron_gen_put_int (p->w, p->o, "end_ts", end);
      neuron_gen_put (p->w, ", \"operation\": \"AllReduce\", \"algorithm\": \"Ring\", \"dtype\": \"bf16\", "
                      "\"num_elements\": %" G_GUINT64_FORMAT ", \"op_id\": %u, \"stream_id\": 1, \"stream_index\": 0, "
                      "\"input_size\": %" G_GUINT64_FORMAT ", \"output_size\": %" G_GUINT64_FORMAT ", "
                      "\"trigger_start_ts\": %" G_GINT64_FORMAT ", \"cc_trigger_start_delay\": %" G_GINT64_FORMAT ", "
                      "\"replica_group_id\": 0, \"replica_group\": \"[[0, 1, 2, 3]]\", \"trigger_engine\": \"Pool\"}",
                      bytes / 2, p->cc_ops, bytes, bytes, trigger.start, start - trigger.start);
    }
  for (guint core = 8; core < 12; core++)
    {
      if (begin (p, T_CC_INSTRUCTION))
        {
          neuron_gen_put (p->w, "\"start_ts\": %" G_GINT64_FORMAT ", \"end_ts\": %" G_GINT64_FORMAT
                          ", \"core_idx\": %u, \"description\": \"%s\", \"trigger_engine\": \"Pool\", "
                          "\"trigger_start_ts\": %" G_GINT64_FORMAT "}",
                          start + 20, core == 8 ? end - 50 : end, core, "DMA_ADVANCE", trigger.start);
        }
      p->t->cc_instructions++;
    }
  /* The CC-core tells the NeuronCore it is done. */
  if (begin (p, T_CC_INSTRUCTION))
    neuron_gen_put (p->w, "\"start_ts\": %" G_GINT64_FORMAT ", \"end_ts\": %" G_GINT64_FORMAT
                    ", \"core_idx\": 8, \"description\": \"TPB_TRIGGER\", \"trigger_engine\": \"Pool\", "
                    "\"trigger_start_ts\": %" G_GINT64_FORMAT "}", end - 50, end, trigger.start);
  p->t->cc_instructions++;
  p->t->cc_ops++;
  p->cc_ops++;
  if (p->table == T_INSTRUCTION)
    {
      p->c->cc_ops++;
      p->c->cc_instructions += 5;
    }
  a.value = sem_update (p, SEM_CC, "CcCore8", end, "AXI");
  note_end (p, end, ST_COLLECTIVE);
  return a;
}

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
    case K_TRANSPOSE:
      tensor_step (p, NULL, 0, kind == K_TRANSPOSE ? 2 : 0, 8, FALSE);
      activate (p, NULL);
      break;
    case K_THROTTLE:
      tensor_step (p, NULL, 0, 0, 4 + p->step % 4, FALSE);
      activate (p, NULL);
      break;
    case K_LATE_START:
      tensor_step (p, NULL, p->frontier + LATE_NS, 0, 8, FALSE);
      activate (p, NULL);
      break;
    case K_BARRIER:
      tensor_step (p, NULL, p->frontier + BARRIER_NS, 0, 8, TRUE);
      break;
    case K_DMA_BOUND:
      cause = dma (p, R_INPUT, 128 * 1024, p->frontier, "input", "[INPUT]", "[SB]");
      tensor_step (p, &cause, 0, 0, 8, FALSE);
      break;
    case K_SMALL_DMA:
      {
        guint64 bytes = 0;

        for (guint i = 0; i < SMALL_PER_STEP; i++)
          {
            cause = dma (p, R_SMALL, SMALL_BYTES, p->frontier, "gather", "[INPUT]", "[SB]");
            bytes += cause.read_bytes;
          }
        /* Waiting for the last, the step waits for them all. */
        cause.read_bytes = bytes;
        tensor_step (p, &cause, 0, 0, 8, FALSE);
      }
      break;
    case K_ENGINE_BOUND:
      cause = side (p, NEURON_GEN_VECTOR, "TENSOR_TENSOR", after, cycles_ns (2048, hw->vector_ghz), mm,
                    "%divide.6 = divide(%exponential.5, %broadcast.8)", "aten__softmax",
                    "NeuronLlamaAttention[self_attn]/aten.softmax",
                    "op=divide src=bf16@0x7000[1,0,0][2048,1,1] dst=0x7000[1,0,0][2048,1,1]");
      tensor_step (p, &cause, 0, 0, 8, FALSE);
      break;
    case K_ENGINE_BOUND_SCALAR:
      cause = side (p, NEURON_GEN_SCALAR, "ACTIVATE", after, cycles_ns (2048, hw->scalar_ghz), mm,
                    "%exponential.5 = exponential(%dot.12)", "aten__exp",
                    "NeuronLlamaAttention[self_attn]/aten.exp",
                    "func=exp src=bf16@0x2000000[1,0,0][2048,1,1] dst=0x7000[1,0,0][2048,1,1]");
      tensor_step (p, &cause, 0, 0, 8, FALSE);
      break;
    case K_ENGINE_BOUND_GPSIMD:
      cause = side (p, NEURON_GEN_GPSIMD, "AFFINE_SELECT", after, cycles_ns (2048, hw->gpsimd_ghz), mm,
                    "%select.3 = select(%compare.2, %dot.12, %broadcast.9)", "aten__masked_fill",
                    "NeuronLlamaAttention[self_attn]/aten.masked_fill",
                    "pattern=causal src=bf16@0x7000[1,0,0][2048,1,1] dst=0x7000[1,0,0][2048,1,1]");
      tensor_step (p, &cause, 0, 0, 8, FALSE);
      break;
    case K_SPILL:
      {
        Act save = write_out (p, R_SAVE, WEIGHT_BYTES, mm, "spill_save", "[SPILL]");
        Act reload = dma (p, R_RELOAD, WEIGHT_BYTES, save.end, "spill_reload", "[SPILL]", "[SB]");
        Act bias = dma (p, R_SCALAR_RELOAD, 16 * 1024, p->frontier, "spill_reload", "[SPILL]", "[SB]");

        cause = side (p, NEURON_GEN_SYNC, "EVENT_SEMAPHORE", reload.end + LAT, 20, &reload,
                      "%copy.3 = copy(%add.9)", "aten__copy_", "aten.copy_", "semaphore=8 id=1");
        tensor_step (p, &cause, 0, 0, 8, FALSE);
        activate (p, &bias);
      }
      break;
    case K_COLLECTIVE:
      {
        Act out;

        if (mm != NULL)
          out = activate (p, NULL);
        cause = collective (p, mm ? &out : NULL);
        tensor_step (p, &cause, 0, 0, 8, FALSE);
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

/* Every phase of the plan and the output written at the end, into the
 * current table (or none: the books only). */
static void
run_plan (Plant *p,
          Table  table)
{
  guint steps = p->o->plant_steps ? p->o->plant_steps : DEFAULT_STEPS;
  Act out;

  p->table = table;
  p->first = TRUE;
  g_rand_set_seed (p->rng, (guint32) p->o->seed);
  memset (p->sem, 0, sizeof p->sem);
  memset (p->ring_free, 0, sizeof p->ring_free);
  memset (p->engine_free, 0, sizeof p->engine_free);
  memset (p->pc, 0, sizeof p->pc);
  p->frontier = 0;
  p->has_mm = FALSE;
  p->step = p->cc_ops = 0;
  plant_truth_clear (p->t);
  p->t->hw = p->hw;
  p->t->phases = g_array_new (FALSE, TRUE, sizeof (PlantPhase));

  if (table != T_NONE)
    neuron_gen_put (p->w, "  \"%s\": [", table_keys[table]);
  for (p->phase = 0; p->phase < p->plan->len; p->phase++)
    {
      PlantPhase ph = { 0 };

      ph.kind = g_array_index (p->plan, Kind, p->phase);
      ph.start = p->frontier;
      g_array_append_val (p->t->phases, ph);
      for (guint s = 0; s < steps; s++)
        run_step (p, ph.kind);
      phase_now (p)->end = p->frontier;
    }
  /* The output written: its tail, after the last Tensor instruction, is
   * charged to what ended last. */
  p->phase--;
  out = activate (p, NULL);
  write_out (p, R_OUTPUT, 32 * 1024, &out, "output", "[OUTPUT]");
  g_assert (p->end_cls < N_STATES);
  ledger_add (p, p->end_cls, p->t->window_end - p->frontier);
  phase_now (p)->end = p->t->window_end;
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
  c->semaphore_updates = 0;
  for (guint s = 0; s < N_SEMS; s++)
    {
      c->semaphore_updates += p.sem[s];
      c->semaphores += p.sem[s] > 0;
    }
  c->cc_cores = truth.cc_ops > 0 ? 4 : 0;
  ok = neuron_gen_writer_close (&w, path, &c->bytes, error);
  plant_clear (&p);
  plant_truth_clear (&truth);
  return ok;
}
