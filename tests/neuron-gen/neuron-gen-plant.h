/* neuron-gen-plant.h: the planted profile's bookkeeping, shared by the
 * scheduler (neuron-gen-plant.c) and what is written from it
 * (neuron-gen-truth.c)
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
  gint64       start, end;
  gint64       ledger[N_STATES];
  PlantMetrics m;
} PlantPhase;

typedef struct {
  const PlantHardware *hw;
  gint64       window_start, window_end;
  gint64       ledger[N_STATES];
  PlantMetrics m;
  GArray      *phases;            /* PlantPhase */
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

/* The tables after the timelines: throttle_summary, execution_info,
 * metadata and the summary with the profiler's own figures. */
void     plant_write_closing (NeuronGenWriter        *w,
                              const NeuronGenOptions *o,
                              const PlantTruth       *truth);

G_END_DECLS
