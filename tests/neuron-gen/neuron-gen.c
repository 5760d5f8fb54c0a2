/* neuron-gen.c: writes AWS Neuron profiler output from the documented schemas
 *
 * The device profile is made of blocks. Each block moves data in on one DMA
 * queue, loads weights on the Tensor engine once the DMA's semaphore is
 * up, multiplies on TensorMatrix, then runs Vector, Scalar and Sync
 * instructions that each wait for the one before, through semaphores
 * ($S[n]>=v) and through inst_dep_ids. Every fourth block GpSimd triggers
 * an all-reduce on the collective cores. The same block sequence is run
 * once per table, so a table never has to be held in memory. With
 * options->plant the profile is a sequence of planted bottlenecks instead
 * (neuron-gen-plant.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "neuron-gen-private.h"

#define BLOCK_NS       1000
#define TWO_POW_53     (G_GUINT64_CONSTANT (1) << 53)
#define DEFAULT_HOST   G_GINT64_CONSTANT (1729888371056597613)

const char * const neuron_gen_engine_labels[NEURON_GEN_N_ENGINES] = {
  "Tensor", "TensorMatrix", "Vector", "Scalar", "GpSimd", "Sync",
};

const char * const neuron_gen_queue_names[NEURON_GEN_N_QUEUES] = {
  "qSyncIO0", "qSyncSpillReload0", "qGpSimdPIO0", "qScalarSpillReload0",
};

void
neuron_gen_options_init (NeuronGenOptions *options)
{
  memset (options, 0, sizeof *options);
  options->n_blocks = 64;
  options->seed = 1;
  options->host_start_ns = DEFAULT_HOST;
}

/* -------------------------------------------------------------------- */
/* The block sequence                                                   */

typedef enum {
  TABLE_INSTRUCTION,
  TABLE_DMA,
  TABLE_SEMAPHORE,
  TABLE_CC_OP,
  TABLE_CC_INSTRUCTION,
  N_TABLES
} Table;

const char * const neuron_gen_damage_names[] = {
  "", "truncated", "wrong-type", "missing-key", "not-json",
  "duration-string", "label-number", "deps-object", "id-array", "dma-object", NULL,
};

static const char * const table_keys[N_TABLES] = {
  "instruction", "dma", "semaphore_update", "cc_op", "cc_instruction",
};

typedef struct {
  const NeuronGenOptions *o;
  NeuronGenCounts *c;       /* counted only while writing instructions */
  NeuronGenWriter  *w;
  Table    table;
  gboolean first;           /* no record in the current array yet */
  GRand   *rng;
  guint64  dma_done[NEURON_GEN_N_QUEUES];
  guint64  tensor_sem;      /* S[5] (Tensor) */
  guint64  scalar_sem;      /* S[4] (Scalar) */
  guint    block;
  gboolean damaged;
  guint64  damaged_id;      /* the id of the record that was damaged */
  gboolean stop;            /* truncated: nothing more is written */
} Gen;

static void
begin_record (Gen *g)
{
  neuron_gen_put (g->w, g->first ? "\n    {" : ",\n    {");
  g->first = FALSE;
}

static void
count (Gen        *g,
       guint64    *field)
{
  if (g->table == TABLE_INSTRUCTION)
    (*field)++;
}

/* One instruction. WAIT_SEM/WAIT_VALUE: a $S[n]>=v wait (WAIT_SEM 0 for
 * none); UPDATE: an "S[n] (owner)++@complete" token or NULL; DEP: the
 * predecessor's id or 0; returns the instruction's id. */
static guint64
instruction (Gen                *g,
             NeuronGenEngine     engine,
             const char         *opcode,
             gint64              ts,
             gint64              dur,
             guint               wait_sem,
             guint64             wait_value,
             const char         *update,
             guint64             dep,
             gint64              wait_time)
{
  const NeuronGenOptions *o = g->o;
  NeuronGenWriter *w = g->w;
  guint64 high = g_rand_int (g->rng);
  guint64 id = high << 32 | g_rand_int (g->rng);
  gboolean damage_here = o->damage != NEURON_GEN_VALID && o->damage != NEURON_GEN_DMA_OBJECT &&
                         !g->damaged && engine == NEURON_GEN_VECTOR && g->block == o->n_blocks / 2;
  /* Its time damaged, the record is skipped on load; another value of
   * the wrong type is left out of it. */
  gboolean skipped = damage_here && (o->damage == NEURON_GEN_WRONG_TYPE || o->damage == NEURON_GEN_MISSING_KEY ||
                                     o->damage == NEURON_GEN_DURATION_STRING);
  NeuronGenDamage field_damage = damage_here ? o->damage : NEURON_GEN_VALID;
  gboolean dangling = g->block % 7 == 3 && engine == NEURON_GEN_TENSOR_MATRIX;

  if (g->table != TABLE_INSTRUCTION)
    return id;

  begin_record (g);
  if (damage_here)
    {
      g->damaged = TRUE;
      /* Those that depended on it find nothing: it is skipped, or its id
       * is left out. */
      g->damaged_id = skipped || o->damage == NEURON_GEN_ID_ARRAY ? id : 0;
      g->c->damage_at = neuron_gen_writer_offset (w) - 1;
      switch (o->damage)
        {
        case NEURON_GEN_TRUNCATED:
          neuron_gen_put (w, "\"timestamp\": %" G_GINT64_FORMAT ", \"dura", ts);
          g->stop = TRUE;
          return id;
        case NEURON_GEN_WRONG_TYPE:
          g->c->damage_value_at = neuron_gen_writer_offset (w) + strlen ("\"timestamp\": ");
          neuron_gen_put (w, "\"timestamp\": {\"ns\": %" G_GINT64_FORMAT "}, ", ts);
          break;
        case NEURON_GEN_MISSING_KEY:
          break;
        case NEURON_GEN_NOT_JSON:
          g->c->damage_at += 1 + strlen ("\"timestamp\" ");
          neuron_gen_put (w, "\"timestamp\" %" G_GINT64_FORMAT ", ", ts);
          break;
        case NEURON_GEN_DURATION_STRING:
        case NEURON_GEN_LABEL_NUMBER:
        case NEURON_GEN_DEPS_OBJECT:
        case NEURON_GEN_ID_ARRAY:
          neuron_gen_put_int (w, o, "timestamp", ts);
          neuron_gen_put (w, ", ");
          break;
        case NEURON_GEN_VALID:
        case NEURON_GEN_DMA_OBJECT:
        default:
          g_assert_not_reached ();
        }
    }
  else
    {
      neuron_gen_put_int (w, o, "timestamp", ts);
      neuron_gen_put (w, ", ");
    }
  if (field_damage == NEURON_GEN_DURATION_STRING)
    {
      g->c->damage_value_at = neuron_gen_writer_offset (w) + strlen ("\"duration\": ");
      neuron_gen_put (w, "\"duration\": \"soon\"");
    }
  else
    neuron_gen_put_int (w, o, "duration", dur);
  if (field_damage == NEURON_GEN_LABEL_NUMBER)
    {
      g->c->damage_value_at = neuron_gen_writer_offset (w) + strlen (", \"label\": ");
      neuron_gen_put (w, ", \"label\": %u", engine);
    }
  else
    neuron_gen_put (w, ", \"label\": \"%s\"", neuron_gen_engine_labels[engine]);
  neuron_gen_put (w, ", \"subgroup\": \"%s\", \"opcode\": \"%s\", ",
       engine == NEURON_GEN_TENSOR_MATRIX ? "Tensor" : neuron_gen_engine_labels[engine],
       opcode);
  neuron_gen_put_int (w, o, "pc", 15000 + g->block * 8 + engine);
  neuron_gen_put (w, ", ");
  /* Own ids print signed, predecessor ids unsigned, as the profiler does. */
  if (field_damage == NEURON_GEN_ID_ARRAY)
    {
      g->c->damage_value_at = neuron_gen_writer_offset (w) + strlen ("\"id\": ");
      neuron_gen_put (w, "\"id\": [%" G_GINT64_FORMAT "]", (gint64) id);
    }
  else
    neuron_gen_put_int (w, o, "id", (gint64) id);
  if (field_damage == NEURON_GEN_DEPS_OBJECT)
    g->c->damage_value_at = neuron_gen_writer_offset (w) + strlen (", \"inst_dep_ids\": ");
  neuron_gen_put (w, field_damage == NEURON_GEN_DEPS_OBJECT ? ", \"inst_dep_ids\": {\"first\": " : ", \"inst_dep_ids\": [");
  if (dep != 0)
    {
      neuron_gen_put_uint (w, o, dep);
      if (dangling)
        {
          neuron_gen_put (w, ", ");
          neuron_gen_put_uint (w, o, G_GUINT64_CONSTANT (0xfffffffffffffff0) - g->block);
        }
    }
  neuron_gen_put (w, field_damage == NEURON_GEN_DEPS_OBJECT ? "}, \"operands\": \"" : "], \"operands\": \"");
  if (wait_sem != 0)
    neuron_gen_put (w, "$S[%u]>=%" G_GUINT64_FORMAT " ", wait_sem, wait_value);
  if (update != NULL)
    neuron_gen_put (w, "%s ", update);
  neuron_gen_put (w, "src=fp16@0x5600[1,0,0][3,1,1] dst=0x2000000[1,0,0][3,1,1] 3*128\", ");
  neuron_gen_put_int (w, o, "evt_wait_time", wait_time);
  neuron_gen_put (w, ", \"hlo_name\": \"%%dot.%u = dot(%%p0, %%p1)\", "
       "\"hlo_attrs\": \"[{\\\"op_type\\\":\\\"aten__mm\\\",\\\"source_file\\\":\\\"model.py\\\",\\\"source_line\\\":\\\"44\\\"}]\", "
       "\"nki_source_location\": \"kernel.py:%u\", \"fully_qualified_subgraph\": \"/sg00\"}",
       g->block, 30 + engine);

  if (skipped)
    return id;
  /* Its dependencies left out, it has none. */
  if (field_damage == NEURON_GEN_DEPS_OBJECT)
    dep = 0;
  g->c->instructions++;
  g->c->per_engine[engine]++;
  /* A record that was damaged is not there to depend on. */
  if (dep != 0 && g->damaged && dep == g->damaged_id)
    g->c->dangling_deps++;
  else if (dep != 0)
    g->c->dep_edges++;
  if (dep != 0 && dangling)
    g->c->dangling_deps++;
  if (wait_sem != 0)
    g->c->semaphore_edges++;
  if (wait_sem >= 20)
    g->c->dma_waits++;
  if (id >= TWO_POW_53)
    g->c->big_ids++;
  g->c->last_id = id;
  if (g->c->instructions == 1)
    g->c->first_ts = ts;
  g->c->end_ts = MAX (g->c->end_ts, ts + dur);
  return id;
}

static void
semaphore_update (Gen        *g,
                  gint64      ts,
                  const char *name,
                  guint64     value,
                  const char *source)
{
  if (g->table != TABLE_SEMAPHORE)
    return;
  begin_record (g);
  neuron_gen_put_int (g->w, g->o, "timestamp", ts);
  neuron_gen_put (g->w, ", \"id\": \"%s\", ", name);
  neuron_gen_put_int (g->w, g->o, "value", (gint64) value);
  neuron_gen_put (g->w, ", \"update_source\": \"%s\", \"update_operation_type\": \"sem_inc\", "
       "\"update_trigger_timing\": \"complete\", \"pcore_idx\": 0}", source);
}

static void
run_block (Gen *g)
{
  const NeuronGenOptions *o = g->o;
  gint64 t = (gint64) g->block * BLOCK_NS + 2000;
  guint q = g->block % NEURON_GEN_N_QUEUES;
  gint64 dma_end = t + 300;
  g_autofree char *dma_sem = g_strdup_printf ("S[%u] (%s)", 20 + q, neuron_gen_queue_names[q]);
  gint64 mm_start, mm_dur, vec_start, act_start;
  gint64 vec_dur = 200 * MAX (o->vector_scale, 1);
  guint64 ld_id, mm_id, vec_id;

  /* Data in: the DMA's completion raises its queue's semaphore. */
  g->dma_done[q]++;
  if (g->table == TABLE_DMA)
    {
      begin_record (g);
      neuron_gen_put_int (g->w, o, "timestamp", t);
      neuron_gen_put (g->w, ", ");
      neuron_gen_put_int (g->w, o, "duration", dma_end - t);
      neuron_gen_put (g->w, ", \"subgroup\": \"%s\", \"queue_name\": \"%s-Q%u-E%u\", \"semaphore_id\": \"%s\", ",
           neuron_gen_queue_names[q], neuron_gen_queue_names[q], q, 64 + q, dma_sem);
      neuron_gen_put_int (g->w, o, "transfer_size", 65536);
      neuron_gen_put (g->w, ", \"op\": \"copy\", \"variable\": \"identity_%u\", \"source\": \"[[WEIGHT]]\", "
           "\"dest\": \"[SB]\", \"queue_type\": \"input\"}", g->block);
    }
  count (g, &g->c->dma);
  count (g, &g->c->per_queue[q]);
  semaphore_update (g, dma_end, dma_sem, g->dma_done[q], "AXI");

  ld_id = instruction (g, NEURON_GEN_TENSOR, "LDWEIGHTS", dma_end + 50, 100,
                       20 + q, g->dma_done[q], NULL, 0, 50);
  if (g->stop)
    return;

  /* Every third matmul runs long and overlaps the next block's. */
  mm_start = dma_end + 160;
  mm_dur = g->block % 3 == 1 ? 1200 : 420;
  g->tensor_sem++;
  mm_id = instruction (g, NEURON_GEN_TENSOR_MATRIX, "MATMUL", mm_start, mm_dur,
                       0, 0, "S[5] (Tensor)++@complete acc_flags=3 row_grp=q0", ld_id, 0);
  if (g->stop)
    return;
  semaphore_update (g, mm_start + mm_dur, "S[5] (Tensor)", g->tensor_sem, "Tensor");

  vec_start = mm_start + mm_dur + 20;
  vec_id = instruction (g, NEURON_GEN_VECTOR, "TENSOR_TENSOR", vec_start, vec_dur,
                        5, g->tensor_sem, NULL, mm_id, 20);
  if (g->stop)
    return;

  act_start = vec_start + vec_dur + 10;
  g->scalar_sem++;
  instruction (g, NEURON_GEN_SCALAR, "ACTIVATE", act_start, 150,
               0, 0, "S[4] (Scalar)++@complete", vec_id, 0);
  if (g->stop)
    return;
  semaphore_update (g, act_start + 150, "S[4] (Scalar)", g->scalar_sem, "Scalar");

  instruction (g, NEURON_GEN_SYNC, "EVENT_SEMAPHORE", act_start + 155, 10,
               4, g->scalar_sem, NULL, 0, 5);
  if (g->stop)
    return;

  if (g->block % 4 == 0)
    {
      guint cc = g->block / 4;
      guint core = 8 + cc % 4;

      instruction (g, NEURON_GEN_GPSIMD, "PSEUDO_TRIGGER_COLLECTIVE_2", t + 100, 50,
                   0, 0, "ctype=ALL_REDUCE op=ADD dtype=bfloat16 cc_dim=0", 0, 0);
      if (g->stop)
        return;
      if (g->table == TABLE_CC_OP)
        {
          begin_record (g);
          neuron_gen_put_int (g->w, o, "start_ts", t + 160);
          neuron_gen_put (g->w, ", ");
          neuron_gen_put_int (g->w, o, "end_ts", t + 900);
          neuron_gen_put (g->w, ", \"operation\": \"AllReduce\", \"algorithm\": \"Ring\", \"dtype\": \"bf16\", ");
          neuron_gen_put_int (g->w, o, "op_id", cc);
          neuron_gen_put (g->w, ", \"input_size\": 1048576, \"output_size\": 1048576, "
               "\"replica_group\": \"[[0, 1, 2, 3]]\", \"trigger_engine\": \"Pool\"}");
        }
      if (g->table == TABLE_CC_INSTRUCTION)
        {
          begin_record (g);
          neuron_gen_put_int (g->w, o, "start_ts", t + 170);
          neuron_gen_put (g->w, ", ");
          neuron_gen_put_int (g->w, o, "end_ts", t + 400);
          neuron_gen_put (g->w, ", ");
          neuron_gen_put_int (g->w, o, "core_idx", core);
          neuron_gen_put (g->w, ", \"description\": \"DMA_ADVANCE\", \"trigger_engine\": \"Pool\"}");
        }
      count (g, &g->c->cc_ops);
      count (g, &g->c->cc_instructions);
    }
}

static void
run_table (Gen   *g,
           Table  table,
           guint  n_blocks)
{
  g->table = table;
  g->first = TRUE;
  g_rand_set_seed (g->rng, (guint32) g->o->seed);
  memset (g->dma_done, 0, sizeof g->dma_done);
  g->tensor_sem = g->scalar_sem = 0;
  g->damaged = FALSE;
  if (table == TABLE_DMA && g->o->damage == NEURON_GEN_DMA_OBJECT)
    {
      /* The table in a shape of its own: none of its records loads. */
      neuron_gen_put (g->w, "  \"%s\": ", table_keys[table]);
      g->c->damage_at = neuron_gen_writer_offset (g->w);
      neuron_gen_put (g->w, "{\"queues\": %u, \"records\": []},\n", NEURON_GEN_N_QUEUES);
      return;
    }
  neuron_gen_put (g->w, "  \"%s\": [", table_keys[table]);
  for (g->block = 0; g->block < n_blocks && !g->stop; g->block++)
    run_block (g);
  if (!g->stop)
    neuron_gen_put (g->w, "\n  ],\n");
}

gboolean
neuron_gen_write_device (const char             *path,
                         const NeuronGenOptions *options,
                         NeuronGenCounts        *counts,
                         GError                **error)
{
  NeuronGenOptions o = *options;
  NeuronGenCounts local = { 0 };
  NeuronGenCounts *c = counts ? counts : &local;
  NeuronGenWriter w = { 0 };
  Gen g = { 0 };
  gdouble total_s;

  if (o.plant != NULL)
    return neuron_gen_plant_write_device (path, options, counts, error);
  memset (c, 0, sizeof *c);
  if (!neuron_gen_writer_open (&w, path, error))
    return FALSE;
  /* A size target: a block writes about 3.7 KB over all tables. */
  if (o.target_bytes > 0)
    o.n_blocks = MAX (1, (guint) MIN (o.target_bytes / 3700, G_MAXUINT));
  g.o = &o;
  g.c = c;
  g.w = &w;
  g.rng = g_rand_new ();

  neuron_gen_put (&w, "{\n");
  for (Table t = 0; t < N_TABLES && !g.stop; t++)
    run_table (&g, t, o.n_blocks);
  if (!g.stop)
    {
      c->semaphores = NEURON_GEN_N_QUEUES + 2;
      c->semaphore_updates = c->dma + c->per_engine[NEURON_GEN_TENSOR_MATRIX] +
                             c->per_engine[NEURON_GEN_SCALAR];
      c->cc_cores = MIN (4, c->cc_instructions);
      total_s = c->end_ts / 1e9;
      neuron_gen_put (&w, "  \"summary\": [ { \"total_time\": %.9f, \"event_count\": %" G_GUINT64_FORMAT
           ", \"nc_idx\": %u, \"nd_idx\": 0, \"tensor_instruction_count\": %" G_GUINT64_FORMAT
           ", \"vector_instruction_count\": %" G_GUINT64_FORMAT
           ", \"scalar_instruction_count\": %" G_GUINT64_FORMAT
           ", \"gpsimd_instruction_count\": %" G_GUINT64_FORMAT
           ", \"sync_instruction_count\": %" G_GUINT64_FORMAT
           ", \"hardware_flops\": 123456789, \"mfu_estimated_percent\": 0.23"
           ", \"mbu_estimated_percent\": 0.41, \"dma_transfer_count\": %" G_GUINT64_FORMAT " } ]\n}\n",
           total_s, c->instructions + c->dma, o.nc_idx,
           c->per_engine[NEURON_GEN_TENSOR] + c->per_engine[NEURON_GEN_TENSOR_MATRIX],
           c->per_engine[NEURON_GEN_VECTOR], c->per_engine[NEURON_GEN_SCALAR],
           c->per_engine[NEURON_GEN_GPSIMD], c->per_engine[NEURON_GEN_SYNC], c->dma);
    }
  g_rand_free (g.rng);
  return neuron_gen_writer_close (&w, path, &c->bytes, error);
}

/* -------------------------------------------------------------------- */
/* System profile                                                       */

/* The execution: a planted profile's window is the whole execution. */
static gint64
exec_duration (const NeuronGenOptions *o,
               const NeuronGenCounts  *c)
{
  return o->plant != NULL ? c->end_ts : MAX (c->end_ts, 1) + 500;
}

static void
system_event (NeuronGenWriter                 *w,
              const NeuronGenOptions *o,
              NeuronGenCounts        *c,
              const char             *name,
              gint64                  ts,
              gint64                  dur,
              const char             *extra)
{
  neuron_gen_put (w, c->system_events == 0 ? "\n    {" : ",\n    {");
  neuron_gen_put (w, "\"name\": \"%s\", ", name);
  neuron_gen_put_int (w, o, "timestamp", ts);
  neuron_gen_put (w, ", ");
  neuron_gen_put_int (w, o, "duration", dur);
  neuron_gen_put (w, ", \"timestamp_unit\": \"ns\", \"instance_id\": \"i-0f207fb2a99bd2d08\", "
       "\"process_id\": \"1627711\"%s}", extra);
  c->system_events++;
}

/* A planted profile's executions, each a runtime call, the core's running
 * span over exactly the execution's window, and the clock sync after it. */
static void
write_executions (NeuronGenWriter        *w,
                  const NeuronGenOptions *o,
                  NeuronGenCounts        *counts,
                  GArray                 *windows)
{
  gint64 h = o->host_start_ns;

  for (guint i = 0; i < windows->len; i += 2)
    {
      gint64 start = g_array_index (windows, gint64, i), end = g_array_index (windows, gint64, i + 1);
      guint exec_id = 3 + i / 2;
      g_autofree char *call = g_strdup_printf (", \"group\": \"nrt-nc-000\", \"id\": %u, \"parent_id\": 0, "
                                               "\"thread_id\": 1627711, \"trace_event_source\": \"neuron_rt\", "
                                               "\"model_name\": \"graph.neff\"", 2 + i / 2);
      g_autofree char *hw = g_strdup_printf (", \"trace_event_source\": \"neuron_hw\", \"exec_id\": %u, \"nc_idx\": %u, "
                                             "\"lnc_idx\": \"%u\", \"worker_gid\": %u, \"model_name\": \"graph.neff\"",
                                             exec_id, o->nc_idx, o->nc_idx, o->nc_idx);
      g_autofree char *sync = g_strdup_printf (", \"trace_event_source\": \"neuron_hw\", \"exec_id\": %u, \"nc_idx\": %u, "
                                               "\"cpu_timestamp_ns\": %" G_GINT64_FORMAT ", \"nc_timestamp_ns\": %" G_GINT64_FORMAT,
                                               exec_id, o->nc_idx, h + end, (gint64) 98765432 + end);

      system_event (w, o, counts, "nrt_execute", h + start - 10000, end - start + 20000, call);
      system_event (w, o, counts, "nc_exec_running", h + start, end - start, hw);
      system_event (w, o, counts, "timestamp_sync_point", h + end, 0, sync);
    }
}

gboolean
neuron_gen_write_system (const char             *path,
                         const NeuronGenOptions *options,
                         NeuronGenCounts        *counts,
                         GError                **error)
{
  const NeuronGenOptions *o = options;
  NeuronGenWriter w = { 0 };
  gint64 h = o->host_start_ns;
  gint64 exec_dur = exec_duration (options, counts);
  g_autofree char *hw = NULL;
  g_autofree char *hw_other = NULL;
  g_autofree char *sync = NULL;
  g_autoptr(GArray) executions = NULL;

  if (o->plant != NULL && (executions = neuron_gen_plant_executions (o, error)) == NULL)
    return FALSE;
  if (!neuron_gen_writer_open (&w, path, error))
    return FALSE;
  counts->system_events = 0;
  counts->exec_start_ns = h;
  hw = g_strdup_printf (", \"trace_event_source\": \"neuron_hw\", \"exec_id\": 3, \"nc_idx\": %u, "
                        "\"lnc_idx\": \"%u\", \"worker_gid\": %u, \"model_name\": \"graph.neff\"",
                        o->nc_idx, o->nc_idx, o->nc_idx);
  hw_other = g_strdup_printf (", \"trace_event_source\": \"neuron_hw\", \"exec_id\": 3, \"nc_idx\": %u, "
                              "\"lnc_idx\": \"%u\", \"worker_gid\": %u",
                              o->nc_idx + 1, o->nc_idx + 1, o->nc_idx + 1);
  sync = g_strdup_printf (", \"trace_event_source\": \"neuron_hw\", \"exec_id\": 3, \"nc_idx\": %u, "
                          "\"cpu_timestamp_ns\": %" G_GINT64_FORMAT ", \"nc_timestamp_ns\": %" G_GINT64_FORMAT,
                          o->nc_idx, h + exec_dur, (gint64) 98765432 + exec_dur);

  neuron_gen_put (&w, "{\n  \"%s\": [", o->singular_key ? "trace_event" : "trace_events");
  system_event (&w, o, counts, "nrt_tensor_write", h - 90000, 27094,
                ", \"group\": \"nrt-nc-000\", \"id\": 1, \"parent_id\": 0, \"type\": 11, "
                "\"thread_id\": 1627711, \"lnc_idx\": \"0\", \"size\": \"4\", "
                "\"tensor_id\": \"4900392441224765051\", \"tensor_name\": \"_unknown_\", "
                "\"trace_event_source\": \"neuron_rt\"");
  if (o->plant != NULL)
    write_executions (&w, o, counts, executions);
  else
    {
      system_event (&w, o, counts, "nrt_execute", h - 50000, exec_dur + 100000,
                    ", \"group\": \"nrt-nc-000\", \"id\": 2, \"parent_id\": 0, \"thread_id\": 1627711, "
                    "\"trace_event_source\": \"neuron_rt\", \"model_name\": \"graph.neff\"");
      system_event (&w, o, counts, "nc_exec_running", h, exec_dur, hw);
      system_event (&w, o, counts, "cc_running", h + 2160, 740, hw);
    }
  system_event (&w, o, counts, "nc_exec_running", h + 1000, exec_dur, hw_other);
  if (o->plant == NULL)
    system_event (&w, o, counts, "timestamp_sync_point", h + exec_dur, 0, sync);
  system_event (&w, o, counts, "PjitFunction(matmul_allgather)", h - 80000, exec_dur + 150000,
                ", \"group\": \"framework-80375131\", \"type\": 99999, \"thread_id\": 80375131, "
                "\"trace_event_source\": \"framework\"");
  neuron_gen_put (&w, "\n  ],");
  /* Samples from before the first event to past the execution. */
  neuron_gen_write_memory (&w, o, counts, h - 100000, MAX (exec_dur / 8, 1000));
  neuron_gen_put (&w, "\n}\n");
  return neuron_gen_writer_close (&w, path, NULL, error);
}

/* -------------------------------------------------------------------- */
/* PyTorch profiler trace of the Neuron backend                         */

static void
torch_event (NeuronGenWriter          *w,
             NeuronGenCounts *c,
             const char      *cat,
             const char      *name,
             gint             pid,
             gint             tid,
             gint64           ts_ns,
             gint64           dur_ns,
             const char      *args)
{
  neuron_gen_put (w, "%s\n  {\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": %d, \"tid\": %d, "
       "\"ts\": %" G_GINT64_FORMAT ".%03d, \"dur\": %" G_GINT64_FORMAT ".%03d, \"args\": {%s}}",
       c->torch_events == 0 ? "" : ",", cat, name, pid, tid,
       ts_ns / 1000, (int) (ts_ns % 1000), dur_ns / 1000, (int) (dur_ns % 1000), args);
  c->torch_events++;
}

gboolean
neuron_gen_write_torch (const char             *path,
                        const NeuronGenOptions *options,
                        NeuronGenCounts        *counts,
                        GError                **error)
{
  NeuronGenWriter w = { 0 };
  gint64 h = options->host_start_ns;
  gint64 exec_dur = exec_duration (options, counts);

  if (!neuron_gen_writer_open (&w, path, error))
    return FALSE;
  counts->torch_events = 0;
  neuron_gen_put (&w, "{\n\"schemaVersion\": 1,\n\"deviceProperties\": [],\n\"traceEvents\": [");
  torch_event (&w, counts, "user_annotation", "ProfilerStep#1", 4242, 4242,
               h - 200000, exec_dur + 300000, "");
  torch_event (&w, counts, "cpu_op", "aten::mm", 4242, 4242, h - 150000, 100000,
               "\"External id\": 57, \"Sequence number\": 12");
  torch_event (&w, counts, "privateuse1_runtime", "nrt_execute", 4242, 4250,
               h - 60000, exec_dur + 110000, "\"External id\": 57, \"correlation\": 9001");
  torch_event (&w, counts, "privateuse1_driver", "neuron_exec", 0, 1,
               h, exec_dur, "\"correlation\": 9001, \"device\": 0");
  neuron_gen_put (&w, "\n],\n\"traceName\": \"trace.json\"\n}\n");
  return neuron_gen_writer_close (&w, path, NULL, error);
}

/* -------------------------------------------------------------------- */
/* The Parquet twin                                                     */

void
neuron_gen_parquet_options_init (NeuronGenParquetOptions *options)
{
  memset (options, 0, sizeof *options);
  options->codec = "snappy";
  options->pages = 1;
  options->row_group = 64;
  options->page_bytes = 1024;
  options->dictionary = TRUE;
}

/* The folder whose node_modules hold the writer: $CHRONO_NPM_DIR, or the
 * one .ci/run installs into. */
const char *
neuron_gen_npm_dir (void)
{
  const char *dir = g_getenv ("CHRONO_NPM_DIR");
  return dir && *dir ? dir : NEURON_GEN_NPM_DIR;
}

gboolean
neuron_gen_parquet_available (char **why)
{
  g_autofree char *node = g_find_program_in_path ("node");
  g_autofree char *writer = g_build_filename (neuron_gen_npm_dir (), "node_modules", "parquet-wasm", "package.json", NULL);

  if (node == NULL)
    {
      *why = g_strdup ("node is not installed (apt-get install nodejs)");
      return FALSE;
    }
  if (!g_file_test (writer, G_FILE_TEST_EXISTS))
    {
      *why = g_strdup_printf ("the Parquet writer is not installed in %s (npm install parquet-wasm apache-arrow hyparquet, "
                              "as .ci/run does; or set CHRONO_NPM_DIR)", neuron_gen_npm_dir ());
      return FALSE;
    }
  return TRUE;
}

gboolean
neuron_gen_write_parquet (const char                    *json_path,
                          const char                    *out_dir,
                          const NeuronGenParquetOptions *o,
                          NeuronGenParquetCounts        *counts,
                          GError                       **error)
{
  static const char * const damages[] = { NULL, "truncated-footer", "bad-page-header", "wrong-type" };
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonParser) parser = NULL;
  gint status;

  g_ptr_array_add (argv, g_strdup ("node"));
  g_ptr_array_add (argv, g_strdup (NEURON_GEN_PARQUET_SCRIPT));
  g_ptr_array_add (argv, g_strdup (neuron_gen_npm_dir ()));
  g_ptr_array_add (argv, g_strdup (json_path));
  g_ptr_array_add (argv, g_strdup (out_dir));
  g_ptr_array_add (argv, g_strdup ("--codec"));
  g_ptr_array_add (argv, g_strdup (o->codec));
  g_ptr_array_add (argv, g_strdup ("--pages"));
  g_ptr_array_add (argv, g_strdup_printf ("%u", o->pages));
  g_ptr_array_add (argv, g_strdup ("--row-group"));
  g_ptr_array_add (argv, g_strdup_printf ("%u", o->row_group));
  g_ptr_array_add (argv, g_strdup ("--page-bytes"));
  g_ptr_array_add (argv, g_strdup_printf ("%u", o->page_bytes));
  if (!o->dictionary)
    g_ptr_array_add (argv, g_strdup ("--no-dictionary"));
  if (o->file_rows > 0)
    {
      g_ptr_array_add (argv, g_strdup ("--file-rows"));
      g_ptr_array_add (argv, g_strdup_printf ("%u", o->file_rows));
    }
  if (o->damage != NEURON_GEN_PQ_VALID)
    {
      g_ptr_array_add (argv, g_strdup ("--damage"));
      g_ptr_array_add (argv, g_strdup (damages[o->damage]));
    }
  g_ptr_array_add (argv, NULL);
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, error))
    return FALSE;
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "neuron-parquet.mjs failed: %s", err);
      return FALSE;
    }
  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, out, -1, error))
    return FALSE;
  if (counts != NULL)
    {
      JsonObject *report = json_node_get_object (json_parser_get_root (parser));

      counts->damaged_rows = json_object_has_member (report, "damaged_rows")
                             ? (guint64) json_object_get_int_member (report, "damaged_rows") : 0;
    }
  return TRUE;
}
