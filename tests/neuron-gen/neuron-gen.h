/* neuron-gen.h: writes AWS Neuron profiler output from the documented schemas
 *
 * No real Neuron profile is public, so the tests make their own: the legacy
 * device profile JSON (ntff.json / device_profile_model_<id>.json), the
 * system profile JSON, and the PyTorch-profiler trace of the Neuron backend
 * that sits beside them. The generator remembers what it wrote so that
 * tests can compare an importer's output with it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Engines in the order of the device profile's tracks. */
typedef enum {
  NEURON_GEN_TENSOR,         /* "Tensor": LDWEIGHTS */
  NEURON_GEN_TENSOR_MATRIX,  /* "TensorMatrix": MATMUL */
  NEURON_GEN_VECTOR,
  NEURON_GEN_SCALAR,
  NEURON_GEN_GPSIMD,
  NEURON_GEN_SYNC,
  NEURON_GEN_N_ENGINES
} NeuronGenEngine;

#define NEURON_GEN_N_QUEUES 4

/* The system profile's memory samples: host memory (mem_usage) and the
 * HBM of device 0, HBM indices 0 and 1 (device_mem_usage, by category),
 * this many each; the host's peak is sample NEURON_GEN_HOST_PEAK_SAMPLE,
 * HBM 0's sample NEURON_GEN_HBM_PEAK_SAMPLE. */
#define NEURON_GEN_MEM_SAMPLES      16
#define NEURON_GEN_HOST_PEAK_SAMPLE 11
#define NEURON_GEN_HBM_PEAK_SAMPLE  9
/* SystemProfileHbmUsage's categories, its columns without "_bytes". */
#define NEURON_GEN_HBM_CATEGORIES   22
extern const char * const neuron_gen_hbm_categories[NEURON_GEN_HBM_CATEGORIES];

typedef enum {
  NEURON_GEN_VALID,
  NEURON_GEN_TRUNCATED,      /* cut in the middle of an instruction */
  NEURON_GEN_WRONG_TYPE,     /* an instruction's "timestamp" is an object */
  NEURON_GEN_MISSING_KEY,    /* an instruction without "timestamp" */
  NEURON_GEN_NOT_JSON,       /* a syntax error inside the instruction array */
  /* Values of impossible types: the record is skipped when its time is
   * one, else the value is left out of it. */
  NEURON_GEN_DURATION_STRING,  /* an instruction's "duration" is "soon" */
  NEURON_GEN_LABEL_NUMBER,     /* its "label" is a number */
  NEURON_GEN_DEPS_OBJECT,      /* its "inst_dep_ids" is an object */
  NEURON_GEN_ID_ARRAY,         /* its "id" is an array */
  NEURON_GEN_DMA_OBJECT,       /* the top-level "dma" is an object */
} NeuronGenDamage;

/* The names --damage takes, by NeuronGenDamage; "" for NEURON_GEN_VALID. */
extern const char * const neuron_gen_damage_names[];

typedef struct {
  guint64         target_bytes;     /* grow to about this size; 0: use n_blocks */
  guint           n_blocks;         /* blocks of one instruction per engine and a DMA */
  guint           nc_idx;
  guint64         seed;
  gboolean        string_numbers;   /* numbers written as "123" */
  gboolean        singular_key;     /* system profile: "trace_event", not "trace_events" */
  NeuronGenDamage damage;
  gint64          host_start_ns;    /* host clock of the device profile's time 0 */
  guint           vector_scale;     /* Vector instructions this many times longer (0: 1) */
  /* Planted bottlenecks: a comma-separated list of phases (see
   * neuron_gen_plant_names), written instead of the blocks; NULL: none. */
  const char     *plant;
  const char     *instance;         /* trn1, trn2, trn3 or inf2; NULL: trn2 */
  guint           plant_steps;      /* Tensor steps per phase (0: 16) */
  guint           plant_executions; /* the plan runs in this many executions (0: 1) */
} NeuronGenOptions;

typedef struct {
  guint64 bytes;
  guint64 instructions;
  guint64 per_engine[NEURON_GEN_N_ENGINES];
  guint64 dma;
  guint64 per_queue[NEURON_GEN_N_QUEUES];
  guint64 dep_edges;          /* inst_dep_ids that name an instruction of the file */
  guint64 dangling_deps;      /* further inst_dep_ids that name none */
  guint64 semaphore_edges;    /* waits, each satisfied by one earlier update */
  guint64 dma_waits;          /* those of them on a DMA queue's semaphore */
  guint64 semaphore_updates;  /* semaphore_update records */
  guint64 semaphores;         /* distinct semaphores among them */
  guint64 cc_ops;
  guint64 cc_instructions;
  guint64 cc_cores;
  guint64 big_ids;            /* instruction ids above 2^53 */
  guint64 last_id;            /* the last instruction's id, as unsigned */
  gint64  first_ts;           /* device ns of the first instruction */
  gint64  end_ts;             /* device ns where the last activity ends */
  guint64 damage_at;          /* byte offset of the damage: the damaged record's
                               * '{', or the bad byte for NOT_JSON */
  guint64 damage_value_at;    /* and of the value of the wrong type in it */
  /* System profile */
  guint64 system_events;
  gint64  exec_start_ns;      /* host ns of nc_exec_running for nc_idx */
  guint64 mem_samples;        /* per memory series */
  gint64  host_peak_bytes;    /* mem_usage's planted peak, and when */
  gint64  host_peak_ns;
  gint64  hbm_peak_bytes;     /* device 0 HBM 0's, its categories then */
  gint64  hbm_peak_ns;
  gint64  hbm_peak_parts[NEURON_GEN_HBM_CATEGORIES];
  /* PyTorch trace */
  guint64 torch_events;
} NeuronGenCounts;

extern const char * const neuron_gen_engine_labels[NEURON_GEN_N_ENGINES];
extern const char * const neuron_gen_queue_names[NEURON_GEN_N_QUEUES];

void     neuron_gen_options_init (NeuronGenOptions *options);

gboolean neuron_gen_write_device (const char             *path,
                                  const NeuronGenOptions *options,
                                  NeuronGenCounts        *counts,
                                  GError                **error);
gboolean neuron_gen_write_system (const char             *path,
                                  const NeuronGenOptions *options,
                                  NeuronGenCounts        *counts,
                                  GError                **error);
gboolean neuron_gen_write_torch  (const char             *path,
                                  const NeuronGenOptions *options,
                                  NeuronGenCounts        *counts,
                                  GError                **error);

/* The phases options->plant takes, NULL-terminated. */
extern const char * const neuron_gen_plant_names[];
extern const char * const neuron_gen_instance_names[];
/* What a planted profile holds (truth.json): the instance, the window,
 * the NeuronCore time ledger, the metrics and each phase, from the
 * generator's own bookkeeping of what it wrote. */
gboolean neuron_gen_write_truth  (const char             *path,
                                  const NeuronGenOptions *options,
                                  GError                **error);

/* The Parquet twin of a device profile: Neuron Explorer's folder of
 * tables, written from the JSON by an independent writer (parquet-wasm,
 * through node and neuron-parquet.mjs). */
typedef enum {
  NEURON_GEN_PQ_VALID,
  NEURON_GEN_PQ_TRUNCATED_FOOTER,  /* Instruction.parquet cut inside its footer */
  NEURON_GEN_PQ_BAD_PAGE_HEADER,   /* the opcode column's first page header of row group 2 overwritten */
  NEURON_GEN_PQ_WRONG_TYPE,        /* Instruction's start_ts written as DOUBLE */
} NeuronGenParquetDamage;

typedef struct {
  const char            *codec;        /* none, snappy, gzip, zstd */
  guint                  pages;        /* data page version, 1 or 2 */
  guint                  row_group;    /* rows per row group */
  guint                  page_bytes;   /* data page size limit */
  gboolean               dictionary;
  guint                  file_rows;    /* split tables into <Table>_<n>.parquet; 0: one file */
  NeuronGenParquetDamage damage;
} NeuronGenParquetOptions;

typedef struct {
  guint64 damaged_rows;   /* instructions the damage takes away */
} NeuronGenParquetCounts;

void     neuron_gen_parquet_options_init (NeuronGenParquetOptions *options);
/* The folder whose node_modules hold the writer. */
const char *neuron_gen_npm_dir         (void);
/* Whether node and the writer's modules are there; if not, WHY says what
 * is missing. */
gboolean neuron_gen_parquet_available  (char                         **why);
gboolean neuron_gen_write_parquet      (const char                    *json_path,
                                        const char                    *out_dir,
                                        const NeuronGenParquetOptions *options,
                                        NeuronGenParquetCounts        *counts,
                                        GError                       **error);

G_END_DECLS
