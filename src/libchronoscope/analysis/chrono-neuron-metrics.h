/* chrono-neuron-metrics.h: what a NeuronCore did, computed from its
 * instructions and DMA transfers: FLOPs, bytes, utilisation against its
 * peaks, each engine's and queue's time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-analysis-private.h"
#include "chrono-device-peaks.h"

G_BEGIN_DECLS

/* Where a peak figure came from, strongest first. */
typedef enum {
  CHRONO_NEURON_SOURCE_NONE,
  CHRONO_NEURON_SOURCE_SETTINGS,   /* --peak-tflops, --peak-tbps, the app's settings */
  CHRONO_NEURON_SOURCE_METADATA,   /* the profile's Metadata */
  CHRONO_NEURON_SOURCE_TABLE,      /* the peak table, by the Metadata's instance type */
} ChronoNeuronSource;

/* "settings", "metadata", "table", or NULL for none. */
const char *chrono_neuron_source_to_string (ChronoNeuronSource source);

typedef struct {
  gdouble                  tflops;          /* BF16 peak of all the core's physical cores; 0: unknown */
  gdouble                  hbm_gbps;        /* one HBM stack, GB/s; 0: unknown */
  guint                    physical_cores;
  guint                    rows;            /* the Tensor array; 0: unknown */
  guint                    cols;
  ChronoNeuronSource       tflops_source;
  ChronoNeuronSource       hbm_source;
  ChronoNeuronSource       cores_source;
  const ChronoNeuronPeaks *entry;           /* the table's entry for the instance type, or NULL */
  const char              *instance_type;   /* as the Metadata says, or NULL */
} ChronoNeuronPeak;

/* How the FLOPs of the Tensor instructions were counted. */
typedef enum {
  CHRONO_NEURON_FLOPS_NONE,        /* no Tensor instruction records them */
  CHRONO_NEURON_FLOPS_PROFILER,    /* raw_flops, adjusted_flops, flops_transpose */
  CHRONO_NEURON_FLOPS_ELEMENTS,    /* 2 × rows × cols × elements */
} ChronoNeuronFlopsSource;

/* Where the HBM and spill bytes came from. */
typedef enum {
  CHRONO_NEURON_BYTES_NONE,
  CHRONO_NEURON_BYTES_INSTRUCTIONS, /* the instructions' hbm_* and spill_* bytes */
  CHRONO_NEURON_BYTES_DMA,          /* transfers to or from anything but SBUF; spill queues */
} ChronoNeuronBytesSource;

/* Sums over the instructions and transfers that start in a window. */
typedef struct {
  gdouble hardware_flops;      /* BF16-equivalent (adjusted) where the profile gives it */
  gdouble raw_flops;           /* as executed, 2 per MAC */
  gdouble transpose_flops;     /* BF16-equivalent, a part of hardware_flops */
  gdouble hbm_read_bytes;
  gdouble hbm_write_bytes;
  gdouble spill_save_bytes;
  gdouble spill_reload_bytes;
  guint64 tensor_instructions;
  guint64 dma_transfers;
  gdouble dma_bytes;
  guint64 small_dma_transfers; /* under CHRONO_NEURON_SMALL_DMA bytes */
} ChronoNeuronTotals;

#define CHRONO_NEURON_SMALL_DMA 4096

/* What an instruction did: its FLOPs and bytes. */
typedef struct {
  gdouble flops;               /* BF16-equivalent */
  gdouble raw_flops;
  gdouble transpose_flops;
  gdouble hbm_read;
  gdouble hbm_write;
  gdouble spill_save;
  gdouble spill_reload;
} ChronoNeuronAmounts;

/* An instruction of an operator, or one that carries FLOPs or bytes.
 * Most do neither: their amounts are kept apart, for those that do. */
typedef struct {
  gint64  start;
  gint64  end;
  guint32 track;
  guint32 index;
  guint32 hlo_op;              /* index into the operator names, or G_MAXUINT32 */
  guint32 framework_op;
  guint32 amounts;             /* see chrono_neuron_metrics_get_amounts(), G_MAXUINT32 for none */
  guint8  tensor;              /* on the Tensor engine */
} ChronoNeuronInst;

typedef struct _ChronoNeuronMetrics ChronoNeuronMetrics;

/* The metrics of device DEVICE of DATA, or NULL when it is no NeuronCore.
 * THRESHOLDS give the peaks set by hand, which win over the profile's. */
ChronoNeuronMetrics     *chrono_neuron_metrics_new          (ChronoRankData                 *data,
                                                             guint                           device,
                                                             const ChronoAnalysisThresholds *thresholds);
void                     chrono_neuron_metrics_free         (ChronoNeuronMetrics            *metrics);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoNeuronMetrics, chrono_neuron_metrics_free)

ChronoRankData          *chrono_neuron_metrics_get_rank     (ChronoNeuronMetrics *metrics);
const ChronoDeviceWork  *chrono_neuron_metrics_get_device   (ChronoNeuronMetrics *metrics);
const ChronoNeuronPeak  *chrono_neuron_metrics_get_peak     (ChronoNeuronMetrics *metrics);
ChronoNeuronFlopsSource  chrono_neuron_metrics_get_flops_source (ChronoNeuronMetrics *metrics);
ChronoNeuronBytesSource  chrono_neuron_metrics_get_bytes_source (ChronoNeuronMetrics *metrics);
/* The whole profile: the Metadata's first to last hardware timestamp
 * (TRUE), or the core's first to last work. */
gboolean                 chrono_neuron_metrics_get_window   (ChronoNeuronMetrics *metrics,
                                                             gint64              *start,
                                                             gint64              *end);
/* The profiler's summary object, or NULL. */
JsonObject              *chrono_neuron_metrics_get_summary  (ChronoNeuronMetrics *metrics);

/* What instruction IN did: zeros when it carries no FLOPs or bytes. */
const ChronoNeuronAmounts *chrono_neuron_metrics_get_amounts (ChronoNeuronMetrics    *metrics,
                                                              const ChronoNeuronInst *in);
/* The instructions that carry FLOPs or bytes, by start. */
const ChronoNeuronInst  *chrono_neuron_metrics_get_insts    (ChronoNeuronMetrics *metrics,
                                                             guint               *n_insts);
/* The name of operator INDEX of the instructions. */
const char              *chrono_neuron_metrics_op_name      (ChronoNeuronMetrics *metrics,
                                                             guint32              index);

void                     chrono_neuron_metrics_totals       (ChronoNeuronMetrics *metrics,
                                                             gint64               start,
                                                             gint64               end,
                                                             ChronoNeuronTotals  *totals);

/* Model FLOPs of [START, END): the profiler's HLO statistics when they
 * cover the whole profile and give some, else hardware − transpose;
 * FROM_HLO says which. */
gdouble                  chrono_neuron_metrics_model_flops  (ChronoNeuronMetrics      *metrics,
                                                             gint64                    start,
                                                             gint64                    end,
                                                             const ChronoNeuronTotals *totals,
                                                             gboolean                 *from_hlo);

/* FLOPS or BYTES over [START, END) as a percentage of the peak or of one
 * HBM stack; FALSE when the peak is unknown or the window empty. */
gboolean                 chrono_neuron_metrics_flops_percent (ChronoNeuronMetrics *metrics,
                                                              gdouble              flops,
                                                              gint64               start,
                                                              gint64               end,
                                                              gdouble             *percent);
gboolean                 chrono_neuron_metrics_bytes_percent (ChronoNeuronMetrics *metrics,
                                                              gdouble              bytes,
                                                              gint64               start,
                                                              gint64               end,
                                                              gdouble             *percent);

/* The Tensor engine (Tensor and TensorMatrix rows) merged. */
GArray                  *chrono_neuron_metrics_tensor_busy  (ChronoNeuronMetrics *metrics);

/* The Tensor engine's active time in [START, END), and the part of it
 * throttling took: the sum of (1 − k/n) over it. FALSE when the profile
 * has no Throttle records. */
gboolean                 chrono_neuron_metrics_throttling   (ChronoNeuronMetrics *metrics,
                                                             gint64               start,
                                                             gint64               end,
                                                             gdouble             *lost_ns,
                                                             gint64              *active_ns);

/* The executions the profile names (ExecutionInfo): GArray of ChronoStep
 * with track CHRONO_NO_TRACK and index the execution's; empty when none. */
GArray                  *chrono_neuron_metrics_executions   (ChronoNeuronMetrics *metrics);

/* A value of the profiler's summary: numbers, or numbers written as
 * strings; *_percent ones as percentages (fractions when none is above 1). */
gboolean                 chrono_neuron_summary_number       (JsonObject *summary,
                                                             const char *key,
                                                             gdouble    *value);
gboolean                 chrono_neuron_summary_percent      (JsonObject *summary,
                                                             const char *key,
                                                             gdouble    *value);

/* The figures set beside the profiler's. */
typedef enum {
  CHRONO_NEURON_HFU,
  CHRONO_NEURON_MFU,
  CHRONO_NEURON_MBU,
  CHRONO_NEURON_HARDWARE_FLOPS,
  CHRONO_NEURON_TRANSPOSE_FLOPS,
  CHRONO_NEURON_MODEL_FLOPS,
  CHRONO_NEURON_HBM_READ,
  CHRONO_NEURON_HBM_WRITE,
  CHRONO_NEURON_SPILL_SAVE,
  CHRONO_NEURON_SPILL_RELOAD,
  CHRONO_NEURON_INTENSITY,
  CHRONO_NEURON_RIDGE,
  CHRONO_NEURON_DMA_TRANSFERS,
  CHRONO_NEURON_N_FIGURES
} ChronoNeuronFigure;

/* Its name in the JSON: "hfu_percent". */
const char              *chrono_neuron_figure_name          (ChronoNeuronFigure figure);

/* A window's figures, NAN where the profile cannot give them. */
typedef struct {
  gint64             start;
  gint64             end;
  ChronoNeuronTotals t;
  gdouble            model_flops;
  gboolean           model_from_hlo;
  gdouble            v[CHRONO_NEURON_N_FIGURES];
} ChronoNeuronWindow;

void                     chrono_neuron_metrics_window       (ChronoNeuronMetrics *metrics,
                                                             gint64               start,
                                                             gint64               end,
                                                             ChronoNeuronWindow  *window);

/* An engine's or a DMA queue's time in a window. */
typedef struct {
  const char *name;            /* its row: "Vector (DVE)", "DMA queue qSyncIO0" */
  gboolean    dma;             /* a DMA queue, else an engine */
  guint64     count;           /* instructions or transfers that start in the window */
  gint64      instruction_ns;  /* their durations added */
  gint64      active_ns;       /* their union inside the window */
} ChronoNeuronRowTime;

/* Of the instructions on the core's row TRACK, ALL, those with an NKI
 * source location NKI, and FIRST to LAST the span of those without;
 * FALSE when TRACK is no row of the core. */
gboolean                 chrono_neuron_metrics_nki          (ChronoNeuronMetrics *metrics,
                                                             guint32              track,
                                                             guint64             *nki,
                                                             guint64             *all,
                                                             gint64              *first,
                                                             gint64              *last);

/* Each engine's and DMA queue's time in [START, END), in the core's row
 * order: GArray of ChronoNeuronRowTime. */
GArray                  *chrono_neuron_metrics_row_times    (ChronoNeuronMetrics *metrics,
                                                             gint64               start,
                                                             gint64               end);

/* The metrics of device DEVICE of DATA as chrono_neuron_metrics_new()
 * gives them, built the first time and kept by DATA; NULL when it is no
 * NeuronCore. */
ChronoNeuronMetrics     *chrono_neuron_metrics_of           (ChronoRankData                 *data,
                                                             guint                           device,
                                                             const ChronoAnalysisThresholds *thresholds);
/* The metrics of each NeuronCore of ANALYSIS, in the order of its ranks
 * and devices: GPtrArray of ChronoNeuronMetrics, which ANALYSIS keeps. */
GPtrArray               *chrono_neuron_metrics_for_analysis (ChronoAnalysis *analysis);

/* The report's "neuron" member and its Markdown section. */
void                     chrono_neuron_metrics_write_json      (ChronoAnalysis *analysis,
                                                                JsonBuilder    *builder);
void                     chrono_neuron_metrics_append_markdown (ChronoAnalysis *analysis,
                                                                GString        *out);

/* Whether device D of TRACE runs Neuron instructions. */
gboolean                 chrono_neuron_is_core              (ChronoTrace            *trace,
                                                             const ChronoDeviceWork *d);

G_END_DECLS
