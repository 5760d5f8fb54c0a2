/* neuron-gen-plant.h: the planted profile's bookkeeping, shared by the
 * scheduler (neuron-gen-plant.c), its records (neuron-gen-record.c) and
 * what is written from its books (neuron-gen-truth.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "neuron-gen-private.h"

G_BEGIN_DECLS

/* The NeuronCore time ledger's states, in the order of the JSON. */
typedef enum {
  ST_COMPUTE,
  ST_TRANSPOSE,
  ST_DMA,
  ST_VECTOR,
  ST_SCALAR,
  ST_GPSIMD,
  ST_COLLECTIVE,
  ST_SEMAPHORE,
  ST_NOT_QUEUED,
  N_STATES,
  ST_SYNC = N_STATES,   /* a pass-through: never a state of its own */
} PlantState;

extern const char * const plant_state_names[N_STATES];

typedef struct {
  const char *name;
  const char *instance_type;
  guint       rows, cols;
  guint       physical_cores;     /* in the Logical NeuronCore */
  gdouble     tensor_ghz;
  gdouble     hbm_bytes_per_s;    /* one HBM stack */
  gdouble     dma_bytes_per_ns;   /* one DMA engine */
  guint       dma_engines;
  gdouble     core_ghz, vector_ghz, scalar_ghz, gpsimd_ghz;
  guint       vector_channels, scalar_channels, gpsimd_channels;
} PlantHardware;

const PlantHardware *plant_hardware (const char *name);
gdouble              plant_peak_flops_per_s (const PlantHardware *hw);

typedef struct {
  guint64 hardware_flops, transpose_flops;
  guint64 hbm_read, hbm_write, spill_reload, spill_save;
  guint64 dma_transfers, dma_bytes, small_dma;
  gdouble throttled_active_ns;  /* sum over Tensor-active throttled time of (1 - k/n) */
  gint64  throttle_ns;          /* time under a Throttle record */
  gdouble throttle_kn_ns;       /* sum of k/n x duration */
} PlantMetrics;

typedef struct {
  guint        kind;
  guint        execution;
  gint64       start, end;
  gint64       ledger[N_STATES];
  PlantMetrics m;
} PlantPhase;

/* One execution: its window and the ledger over it. */
typedef struct {
  gint64       start, end;
  gint64       ledger[N_STATES];
} PlantExecution;

typedef struct {
  const PlantHardware *hw;
  gint64       window_start, window_end;
  gint64       ledger[N_STATES];  /* over the whole window */
  PlantMetrics m;
  GArray      *phases;            /* PlantPhase */
  GArray      *executions;        /* PlantExecution */
  guint64      instructions, per_engine[NEURON_GEN_N_ENGINES];
  guint64      cc_ops, cc_instructions, throttles;
} PlantTruth;

/* The phases' names, states, finding rules and queues, by kind. */
const char *plant_kind_name  (guint kind);
PlantState  plant_kind_state (guint kind);
const char *plant_kind_rule  (guint kind);
const char *plant_kind_queue (guint kind);

/* Runs the plan without writing anything: the truth of what it writes. */
gboolean plant_compute_truth (const NeuronGenOptions *o,
                              PlantTruth             *truth,
                              GError                **error);
void     plant_truth_clear   (PlantTruth *truth);

/* The source frames the instructions' stack_frame_ids name: the four
 * stack_frame tables. */
void     plant_write_stack_frames (NeuronGenWriter *w);

/* The tables after the timelines: the stack frames, throttle_summary,
 * execution_info, metadata and the summary with the profiler's own
 * figures. */
void     plant_write_closing (NeuronGenWriter        *w,
                              const NeuronGenOptions *o,
                              const PlantTruth       *truth);

/* The scheduler's own (neuron-gen-plant.c, neuron-gen-record.c). */

#define LAT  30   /* ns from a semaphore's update to the waiter's start */

/* Semaphores: the engines', the collective's, the barrier's, the rings' from 20. */
enum {
  SEM_SCALAR = 4, SEM_TENSOR = 5, SEM_VECTOR = 6, SEM_GPSIMD = 7, SEM_SYNC = 8,
  SEM_CC = 15, SEM_BARRIER = 45, SEM_RING = 20, N_SEMS = 64,
};

/* DMA rings: a queue of one DMA engine, serving one transfer at a time. */
typedef enum {
  R_WEIGHT0, R_WEIGHT1, R_WEIGHT2, R_WEIGHT3, R_WEIGHT4, R_WEIGHT5, R_INPUT, R_SMALL, R_RELOAD,
  R_SCALAR_RELOAD, R_SAVE, R_OUTPUT, N_RINGS
} Ring;

/* Weight tiles take turns on enough rings to stay ahead of the steps on
 * the slowest DMA engine (trn1's 17 B/ns). */
#define N_WEIGHT_RINGS (R_WEIGHT5 - R_WEIGHT0 + 1)

typedef enum {
  T_INSTRUCTION, T_DMA, T_SEMAPHORE, T_CC_OP, T_CC_INSTRUCTION, T_THROTTLE, N_TABLES,
  T_NONE = N_TABLES
} Table;

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
  guint           rows;         /* a MATMUL: the rows of the array it uses */
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
  GArray     *plan;            /* the kinds of the phases, in order */
  PlantTruth *t;
  guint64     sem[N_SEMS];
  gint64      ring_free[N_RINGS];
  gint64      engine_free[NEURON_GEN_N_ENGINES];
  gint64      frontier;        /* where the Tensor engine's work in this execution ends */
  gint64      tensor_end;      /* and in the whole profile */
  Act         last_mm;         /* the last step's last MATMUL */
  gboolean    has_mm;
  PlantState  end_cls;         /* the class of the activity that ends last */
  guint       step, phase, execution, pc[NEURON_GEN_N_ENGINES];
  gboolean    nki;             /* the phase's instructions come from NKI kernels */
} Plant;

PlantPhase *plant_phase_now  (Plant      *p);
PlantPhase *plant_phase_at   (Plant      *p,
                              gint64      ts);
void        plant_ledger_add (Plant      *p,
                              PlantState  state,
                              gint64      ns);
void        plant_note_end   (Plant      *p,
                              gint64      end,
                              PlantState  cls);
gboolean    plant_begin      (Plant      *p,
                              Table       table);
guint64     plant_sem_update (Plant      *p,
                              guint       sem,
                              const char *owner,
                              gint64      ts,
                              const char *source);
Act         plant_dma        (Plant      *p,
                              Ring        ring,
                              guint64     bytes,
                              gint64      earliest,
                              const char *variable,
                              const char *src,
                              const char *dst);
Act         plant_inst       (Plant      *p,
                              const Inst *in);
Act         plant_side       (Plant           *p,
                              NeuronGenEngine  engine,
                              const char      *opcode,
                              gint64           t,
                              gint64           dur,
                              const Act       *pred,
                              const char      *hlo,
                              const char      *op_type,
                              const char      *layer,
                              const char      *operands);
gint64      plant_cycles_ns  (gdouble     elements,
                              gdouble     ghz);
Act         plant_write_out  (Plant      *p,
                              Ring        ring,
                              guint64     bytes,
                              const Act  *after,
                              const char *variable,
                              const char *dst);

G_END_DECLS
