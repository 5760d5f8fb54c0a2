/* neuron-gen-record.c: the planted profile's records, and the books kept
 * while writing them
 *
 * Each instruction, transfer and semaphore update is written into its
 * table's pass and counted in every pass: the Tensor engine's ledger (a
 * gap before a Tensor instruction charged to its predecessor that ended
 * last, through a Sync instruction to that one's), the FLOPs, and the
 * bytes of each transfer, in the phase it runs in.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "neuron-gen-plant.h"

#define TWO_POW_53      (G_GUINT64_CONSTANT (1) << 53)
#define DMA_SETUP       64        /* ns a transfer costs besides its bytes */

/* The rings' queues, as "<queue>-Q<idx>-E<engine>", and queue types. */
static const struct {
  const char *queue;
  guint       idx, engine;
  const char *type;
} rings[N_RINGS] = {
  { "qSyncIO0", 0, 64, "data" }, { "qSyncIO0", 0, 65, "data" },
  { "qSyncIO0", 0, 66, "data" }, { "qSyncIO0", 0, 67, "data" },
  { "qSyncIO0", 0, 74, "data" }, { "qSyncIO0", 0, 75, "data" },
  { "qSyncIO0", 1, 72, "input" }, { "qSyncDynamicHW", 3, 70, "hardware_dynamic" },
  { "qSyncSpillReload0", 4, 68, "data" }, { "qScalarSpillReload0", 1, 69, "data" },
  { "qSyncIO0", 2, 71, "data" }, { "qSyncIO0", 5, 73, "output" },
};

/* The source frames instructions point at (stack_frame_ids, 1-based): a
 * chain from the training script down to the MLP and the attention. */
static const char * const frame_files[] = { "train.py", "modeling_llama.py" };
static const struct {
  guint       parent, file;
  const char *function;
  guint       line;
} frames[] = {
  { 0, 1, "main", 88 },
  { 1, 2, "NeuronLlamaModel.forward", 512 },
  { 2, 2, "NeuronLlamaDecoderLayer.forward", 344 },
  { 3, 2, "NeuronLlamaMLP.forward", 298 },
  { 3, 2, "NeuronLlamaAttention.forward", 221 },
};

/* The innermost frame of an instruction: its framework layer's module. */
static guint
frame_of (const char *layer)
{
  if (g_str_has_prefix (layer, "NeuronLlamaAttention"))
    return 5;
  return g_str_has_prefix (layer, "NeuronLlamaMLP") ? 4 : 3;
}

void
plant_write_stack_frames (NeuronGenWriter *w)
{
  neuron_gen_put (w, "  \"stack_frame\": [");
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    neuron_gen_put (w, "%s\n    {\"id\": \"%u\", \"file_location_id\": %u, \"parent_frame_id\": \"%u\"}",
                    i ? "," : "", i + 1, i + 1, frames[i].parent);
  neuron_gen_put (w, "\n  ],\n  \"stack_frame_file_location\": [");
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    neuron_gen_put (w, "%s\n    {\"id\": \"%u\", \"file_name_id\": %u, \"function_name_id\": %u, \"line_number\": %u}",
                    i ? "," : "", i + 1, frames[i].file, i + 1, frames[i].line);
  neuron_gen_put (w, "\n  ],\n  \"stack_frame_file_name\": [");
  for (guint i = 0; i < G_N_ELEMENTS (frame_files); i++)
    neuron_gen_put (w, "%s\n    {\"id\": \"%u\", \"name\": \"%s\"}", i ? "," : "", i + 1, frame_files[i]);
  neuron_gen_put (w, "\n  ],\n  \"stack_frame_function_name\": [");
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    neuron_gen_put (w, "%s\n    {\"id\": \"%u\", \"name\": \"%s\"}", i ? "," : "", i + 1, frames[i].function);
  neuron_gen_put (w, "\n  ],\n");
}

/* -------------------------------------------------------------------- */
/* Bookkeeping                                                          */

PlantPhase *
plant_phase_now (Plant *p)
{
  return &g_array_index (p->t->phases, PlantPhase, p->phase);
}

/* The phase that holds time TS: transfers fetched ahead count in the one
 * they run in. */
PlantPhase *
plant_phase_at (Plant  *p,
                gint64  ts)
{
  guint i = p->phase;

  while (i > 0 && g_array_index (p->t->phases, PlantPhase, i).start > ts)
    i--;
  return &g_array_index (p->t->phases, PlantPhase, i);
}

void
plant_ledger_add (Plant      *p,
                  PlantState  state,
                  gint64      ns)
{
  g_array_index (p->t->executions, PlantExecution, p->execution).ledger[state] += ns;
  plant_phase_now (p)->ledger[state] += ns;
}

void
plant_note_end (Plant      *p,
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

gboolean
plant_begin (Plant *p,
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

guint64
plant_sem_update (Plant      *p,
                  guint       sem,
                  const char *owner,
                  gint64      ts,
                  const char *source)
{
  guint64 value = ++p->sem[sem];

  if (plant_begin (p, T_SEMAPHORE))
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
Act
plant_dma (Plant      *p,
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
  if (plant_begin (p, T_DMA))
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
                      ", \"throughput\": %.1f, \"op\": \"copy\", \"variable\": \"%s_%u\", \"source\": \"%s\", "
                      "\"dest\": \"%s\", \"queue_type\": \"%s\", \"pcore_idx\": 0}",
                      bytes, bytes, bytes * 1e9 / (a.end - a.start), variable, p->step, src, dst, rings[ring].type);
    }
  a.value = plant_sem_update (p, a.sem, rings[ring].queue, a.end, "AXI");
  if (p->table == T_INSTRUCTION)
    p->c->dma++;
  ph = plant_phase_at (p, a.start);
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
  plant_note_end (p, a.end, ST_DMA);
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
  guint frame = frame_of (in->layer);

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
                  "\\\"source_file\\\":\\\"%s\\\",\\\"source_line\\\":\\\"%u\\\"}]\", "
                  "\"layer\": \"NeuronLlamaDecoderLayer[%u]/%s\", ",
                  in->hlo, in->op_type, frame_files[frames[frame - 1].file - 1], frames[frame - 1].line,
                  p->phase, in->layer);
  if (p->nki)
    neuron_gen_put (w, "\"nki_source_location\": \"llama_kernels.py:%u\", ", 40 + in->engine * 7);
  neuron_gen_put (w, "\"stack_frame_ids\": \"[%u]\", \"subgraph\": \"sg00\", "
                  "\"fully_qualified_subgraph\": \"/sg00\", \"pcore_idx\": 0}", frame);
}

/* Writes one instruction and keeps the books: the Tensor engine's gap
 * before it and its time, the FLOPs, the bytes of the transfers it waits
 * for. Returns what later instructions may wait for. */
Act
plant_inst (Plant      *p,
            const Inst *in)
{
  gboolean tensor = in->engine == NEURON_GEN_TENSOR || in->engine == NEURON_GEN_TENSOR_MATRIX;
  gint64 ready = tensor ? p->frontier : p->engine_free[in->engine];
  const Act *best = latest (in->preds, in->n_preds);
  guint64 high = g_rand_int (p->rng);
  guint64 flops = in->engine == NEURON_GEN_TENSOR_MATRIX ? 2ull * in->rows * p->hw->cols * in->elements : 0;
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
  if (plant_begin (p, T_INSTRUCTION))
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
      PlantMetrics *ms[2] = { &p->t->m, &plant_phase_now (p)->m };

      /* The gap in this execution's window, and in the whole profile's
       * (which, before an execution's first instruction, reaches back
       * into the last one's). */
      if (in->start > p->frontier)
        plant_ledger_add (p, classify (in->preds, in->n_preds, p->frontier, in->barrier), in->start - p->frontier);
      if (in->start > p->tensor_end)
        p->t->ledger[classify (in->preds, in->n_preds, p->tensor_end, in->barrier)] += in->start - p->tensor_end;
      plant_ledger_add (p, a.cls, in->dur);
      p->t->ledger[a.cls] += in->dur;
      p->frontier = p->tensor_end = a.end;
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
      a.value = plant_sem_update (p, a.sem, owner_of (in->engine), a.end, owner_of (in->engine));
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
  plant_note_end (p, a.end, a.cls);
  return a;
}

/* An instruction on a non-Tensor engine, as soon as the engine is free
 * after T. */
Act
plant_side (Plant           *p,
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
  return plant_inst (p, &in);
}

gint64
plant_cycles_ns (gdouble elements,
                 gdouble ghz)
{
  return (gint64) ceil (elements / ghz);
}

/* A Sync WRITE (PSEUDO_DMA_TRIGGER) that starts a transfer to HBM, and
 * the transfer. */
Act
plant_write_out (Plant      *p,
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
  trigger = plant_inst (p, &in);
  return plant_dma (p, ring, bytes, trigger.end + LAT, variable, "[SB]", dst);
}
