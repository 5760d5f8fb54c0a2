/* chrono-analysis.h: where the time goes, computed from one or more traces
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "chrono-trace.h"

G_BEGIN_DECLS

/* Thresholds of the bottleneck rules. The library never reads settings:
 * the application and the CLI fill this from GSettings (the "analysis"
 * child schema) or keep the defaults. */
typedef struct {
  gint64  idle_gap_min_ns;            /* idle-gap-min-us */
  gint64  kernel_wait_max_ns;         /* kernel-wait-max-ns: gaps shorter are launch overhead */
  gint64  launch_bound_kernel_max_ns; /* launch-bound-kernel-max-us */
  guint64 small_dma_max_bytes;        /* small-dma-max-bytes */
  gint64  straggler_min_skew_ns;      /* straggler-min-skew-us */
  guint   low_utilization_percent;    /* low-utilization-percent */
  guint   launch_bound_min_kernels;   /* launch-bound-min-kernels */
  guint   slow_step_percent;          /* slow-step-percent: over the median step */
  guint   data_loading_percent;       /* data-loading-percent of a step */
  guint   exposed_comm_percent;       /* exposed-communication-percent of communication */
  guint   host_bound_percent;         /* host-bound-percent of a step the device waits for the host */
  guint   engine_bound_percent;       /* engine-bound-percent of a NeuronCore's Tensor idle time */
  guint   neuron_transpose_percent;   /* neuron-transpose-percent of the Tensor engine's busy time */
  guint   model_flops_percent;        /* neuron-model-flops-percent of the Tensor engine's active FLOPs */
  guint   nki_coverage_percent;       /* nki-coverage-percent of an engine's instructions */
  guint   spill_reload_percent;       /* spill-reload-percent of a stretch's HBM reads */
  gint64  min_time_lost_ns;           /* min-time-lost-us: findings costing less are dropped */
  guint   low_efficiency_percent;     /* low-efficiency-percent of the roofline */
  guint   peak_gflops;                /* peak-gflops: every device's compute peak, 0 for the table's */
  guint   peak_memory_gbps;           /* peak-memory-gbps: every device's memory bandwidth, 0 for the table's */
} ChronoAnalysisThresholds;

void chrono_analysis_thresholds_init (ChronoAnalysisThresholds *thresholds);

typedef struct {
  ChronoAnalysisThresholds thresholds;
  /* Restricts the analysis to [range_start_ns, range_end_ns) when
   * range_end_ns > range_start_ns; trace time, as the model stores it. */
  gint64 range_start_ns;
  gint64 range_end_ns;
  /* No ledger rows, of devices or of host threads: a comparison of two
   * runs reads only the findings and the devices' ledgers. */
  gboolean without_ledger_rows;
  /* Each device's achieved FLOPs over time, which the timeline draws
   * (chrono_analysis_get_flops_series); none is built without it. */
  gboolean with_flops_series;
} ChronoAnalysisOptions;

void chrono_analysis_options_init (ChronoAnalysisOptions *options);

/* A span of one of the analysed traces (one trace per rank). */
typedef struct {
  guint32       trace;
  ChronoSpanRef span;
} ChronoNodeRef;

/* A track of one of the analysed traces. */
typedef struct {
  guint32 trace;
  guint32 track;
} ChronoTrackRef;

#define CHRONO_NO_TRACK G_MAXUINT32

/* The time ledger: each nanosecond of a device's window is in exactly one
 * state. Work comes first (computation over communication over copies,
 * so communication is what no computation hides); idle time is split by
 * what the device waited for. docs/analysis.md defines each state. */
typedef enum {
  CHRONO_LEDGER_COMPUTE,
  CHRONO_LEDGER_COMMUNICATION,   /* collectives with no computation beside them */
  CHRONO_LEDGER_COPY,            /* copies, sets and DMA with neither */
  CHRONO_LEDGER_IDLE_HOST,       /* the host had not launched the next work yet */
  CHRONO_LEDGER_IDLE_LAUNCH,     /* from the launch to the start of work, or between queued work */
  CHRONO_LEDGER_IDLE_SYNC,       /* the queue ran dry while the host sat in a synchronising call */
  CHRONO_LEDGER_IDLE_PEER,       /* inside a collective, until the last rank arrived */
  CHRONO_LEDGER_IDLE_DATA,       /* the host was loading data */
  CHRONO_LEDGER_IDLE_OTHER,
  /* A NeuronCore's, following its Tensor engine (chrono-neuron-ledger.h);
   * it has compute too, and none of the states above. */
  CHRONO_LEDGER_TRANSPOSE,       /* only transposes ran on the Tensor engine */
  CHRONO_LEDGER_IDLE_DMA,        /* the Tensor engine waited for a DMA transfer */
  CHRONO_LEDGER_IDLE_VECTOR,
  CHRONO_LEDGER_IDLE_SCALAR,
  CHRONO_LEDGER_IDLE_GPSIMD,
  CHRONO_LEDGER_IDLE_COLLECTIVE,
  CHRONO_LEDGER_IDLE_SEMAPHORE,  /* for a semaphore the profile never updates */
  CHRONO_LEDGER_IDLE_NOT_QUEUED, /* nothing it depended on held it: issued late */
  CHRONO_N_LEDGER_STATES
} ChronoLedgerState;

/* The states of a GPU's ledger: those before the NeuronCore's. */
#define CHRONO_N_GPU_LEDGER_STATES (CHRONO_LEDGER_IDLE_OTHER + 1)

const char *chrono_ledger_state_to_string (ChronoLedgerState state);

/* One device's ledger over a window: the whole analysed window, or one
 * step. STATE_NS sums to END_NS - START_NS. */
typedef struct {
  guint    rank;               /* index into the analysis's ranks */
  guint    breakdown;          /* the device's row in the breakdowns */
  gint     step;               /* index into the rank's steps, -1 for the whole window */
  char    *name;               /* "ProfilerStep#12", or NULL for the whole window */
  gint64   start_ns;
  gint64   end_ns;
  gint64   state_ns[CHRONO_N_LEDGER_STATES];
  gint64   recoverable_ns;     /* what the findings claim of it */
  gboolean neuron_core;        /* a NeuronCore's states, else a GPU's */
} ChronoLedgerRow;

/* What a host thread that launched device work did over its window
 * (its first to its last span), each nanosecond in one state, in this
 * order of precedence: waiting for the device (a synchronising call or a
 * polling loop that waited for work), loading data, launching work, any
 * other traced span, and nothing traced. */
typedef struct {
  guint    rank;               /* index into the analysis's ranks */
  guint32  trace;
  guint32  track;              /* the thread */
  gint64   start_ns;
  gint64   end_ns;
  gint64   sync_ns;
  gint64   data_loading_ns;
  gint64   launch_ns;
  gint64   running_ns;
  gint64   untraced_ns;
} ChronoHostLedgerRow;

/* A rank: one trace, or one of the files of a merged trace. */
typedef struct {
  guint32  trace;              /* index into the analysis's traces */
  gint     rank;               /* as the file says, -1 when it says nothing */
  char    *label;              /* "rank 3", or the file's name */
} ChronoRankInfo;

/* Something the analysis could not see or compute, said instead of
 * guessed: "truncated", "no-device-activity", "missing-device-activity",
 * "no-shapes", "clock-skew", ... */
typedef struct {
  const char *id;
  guint       rank;            /* G_MAXUINT when it concerns the whole analysis */
  char       *message;
} ChronoLimitation;

/* Time breakdown of one stream, or of a whole device (track ==
 * CHRONO_NO_TRACK), over the analysed window, following Holistic Trace
 * Analysis (docs/analysis.md says where it differs). */
typedef struct {
  ChronoTrackRef where;
  guint    rank;               /* index into the analysis's ranks */
  gint     device;             /* device index, -1 when unknown */
  gint64   stream;             /* stream id, -1 for a whole device */
  gint64   start_ns;           /* the window: first to last device activity */
  gint64   end_ns;
  gint64   busy_ns;            /* union of kernels, copies and sets */
  gint64   idle_ns;            /* window minus busy */
  gint64   idle_host_wait_ns;  /* the host had not launched the next work yet */
  gint64   idle_kernel_wait_ns;/* short gaps between back-to-back work */
  gint64   idle_other_ns;      /* anything else: waits on events, syncs */
  gint64   compute_ns;         /* kernels that are not collectives */
  gint64   communication_ns;   /* collective kernels */
  gint64   memcpy_ns;          /* memory copies */
  gint64   memset_ns;
  gint64   overlap_ns;         /* communication that overlaps computation (devices only) */
  guint64  n_kernels;
} ChronoBreakdown;

/* What a stretch of the critical path was doing. */
typedef enum {
  CHRONO_PATH_HOST_COMPUTE,
  CHRONO_PATH_DEVICE_COMPUTE,
  CHRONO_PATH_COMMUNICATION,
  CHRONO_PATH_MEMCPY,
  CHRONO_PATH_LAUNCH_OVERHEAD,   /* from a launch call to its kernel's start */
  CHRONO_PATH_KERNEL_OVERHEAD,   /* between back-to-back work on a stream */
  CHRONO_PATH_IDLE,              /* nothing on the path was running */
  CHRONO_N_PATH_CATEGORIES
} ChronoPathCategory;

const char *chrono_path_category_to_string (ChronoPathCategory category);

typedef struct {
  ChronoPathCategory category;
  gint64        start_ns;
  gint64        end_ns;
  gboolean      has_node;      /* FALSE for waits between spans */
  ChronoNodeRef node;
} ChronoPathSegment;

/* The longest dependency chain through one step (ProfilerStep#N), the
 * requested range, or the whole trace. */
typedef struct {
  char    *name;               /* "ProfilerStep#12", or "trace" */
  guint32  trace;
  guint    rank;               /* index into the analysis's ranks */
  guint32  track;              /* the step's host thread, or CHRONO_NO_TRACK */
  gint64   start_ns;
  gint64   end_ns;
  gint64   total_ns;
  gint64   by_category[CHRONO_N_PATH_CATEGORIES];
  guint    n_segments;
  ChronoPathSegment *segments; /* in time order */
} ChronoCriticalPath;

typedef enum {
  CHRONO_SEVERITY_LOW,
  CHRONO_SEVERITY_MEDIUM,
  CHRONO_SEVERITY_HIGH,
} ChronoSeverity;

const char *chrono_severity_to_string (ChronoSeverity severity);

/* One number that backs a finding: "kernels" = 1200, "median_gap_ns" = … */
typedef struct {
  char   *key;
  gdouble value;
} ChronoEvidence;

/* The device time a finding claims from one device's ledger. */
typedef struct {
  guint   breakdown;           /* the device's row in the breakdowns */
  gint64  ns;
} ChronoClaimShare;

/* One bottleneck. Its time lost is device time the ledger attributes to
 * its cause, claimed once: no two findings claim the same time of a
 * device. Severity follows that time relative to the analysed window. */
typedef struct {
  const char     *rule;        /* stable id, see chrono_analysis_get_rules */
  guint           rank;        /* index into the analysis's ranks */
  ChronoSeverity  severity;
  char           *title;       /* one line, with the numbers */
  gint64          start_ns;
  gint64          end_ns;
  guint           n_tracks;
  ChronoTrackRef *tracks;
  gint64          time_lost_ns;
  guint           n_evidence;
  ChronoEvidence *evidence;
  char           *recommendation;
  gboolean        has_node;    /* the span that best shows it */
  ChronoNodeRef   node;
  guint           n_shares;
  ChronoClaimShare *shares;
} ChronoFinding;

typedef struct {
  const char *id;              /* "gpu-idle-gap" */
  const char *title;           /* untranslated: show g_dgettext (GETTEXT_PACKAGE, title) */
  const char *definition;      /* untranslated, likewise */
} ChronoRule;

/* Every rule the analysis knows, in a stable order. */
const ChronoRule *chrono_analysis_get_rules (guint *n_rules);

/* Edges of the dependency graph. */
typedef enum {
  CHRONO_EDGE_NESTING,         /* parent to child on a host thread */
  CHRONO_EDGE_THREAD_ORDER,    /* one top-level span to the next on a thread */
  CHRONO_EDGE_LAUNCH,          /* runtime call to the work it launched */
  CHRONO_EDGE_STREAM_ORDER,    /* one piece of work to the next on a stream */
  CHRONO_EDGE_SYNC,            /* device work to the synchronize call waiting for it */
  CHRONO_EDGE_EVENT_WAIT,      /* work before cudaEventRecord to work after cudaStreamWaitEvent */
  CHRONO_EDGE_COLLECTIVE,      /* the same collective on two ranks */
  CHRONO_EDGE_FLOW,            /* any other flow the trace draws */
  CHRONO_N_EDGE_TYPES
} ChronoEdgeType;

const char *chrono_edge_type_to_string (ChronoEdgeType type);

typedef struct {
  ChronoNodeRef ref;
  gint64   start_ns;
  gint64   end_ns;
  guint    distance;           /* hops from the centre */
  gboolean on_critical_path;
} ChronoGraphNode;

typedef struct {
  guint          from;         /* indices into the nodes */
  guint          to;
  ChronoEdgeType type;
} ChronoGraphEdge;

/* The neighbourhood of one span, for the graph pane. */
typedef struct {
  GArray *nodes;               /* ChronoGraphNode; the centre is node 0 */
  GArray *edges;               /* ChronoGraphEdge */
} ChronoSubgraph;

void chrono_subgraph_free (ChronoSubgraph *graph);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoSubgraph, chrono_subgraph_free)

#define CHRONO_TYPE_ANALYSIS (chrono_analysis_get_type ())
G_DECLARE_FINAL_TYPE (ChronoAnalysis, chrono_analysis, CHRONO, ANALYSIS, GObject)

/* Runs every analysis over TRACES (one per rank; the order is kept).
 * OPTIONS may be NULL for the defaults. Pure function of its inputs; safe
 * to call from a worker thread. NULL with G_IO_ERROR_CANCELLED when
 * cancelled. */
ChronoAnalysis *chrono_analysis_run (ChronoTrace * const          *traces,
                                     guint                         n_traces,
                                     const ChronoAnalysisOptions  *options,
                                     GCancellable                 *cancellable,
                                     GError                      **error);
/* Two traces analysed each on its own, at once (B in a thread of its
 * own), as a comparison of two runs needs them (without ledger rows):
 * TRUE with both, else FALSE and neither. */
gboolean        chrono_analysis_run_pair (ChronoTrace                  *a,
                                          ChronoTrace                  *b,
                                          const ChronoAnalysisOptions  *options,
                                          GCancellable                 *cancellable,
                                          ChronoAnalysis              **out_a,
                                          ChronoAnalysis              **out_b,
                                          GError                      **error);

/* Gives the trace of one side of a pair, from DATA; called from that
 * side's thread. */
typedef ChronoTrace *(*ChronoPairLoadFunc) (gpointer   data,
                                            GError   **error);

/* The same, each side loaded by LOAD (from DATA_A and DATA_B) and then
 * analysed in a thread of its own, both at once: one side's load fills
 * the cores that the other's leaves idle in its single-threaded phases. */
gboolean        chrono_analysis_load_pair (ChronoPairLoadFunc            load,
                                           gpointer                      data_a,
                                           gpointer                      data_b,
                                           const ChronoAnalysisOptions  *options,
                                           GCancellable                 *cancellable,
                                           ChronoAnalysis              **out_a,
                                           ChronoAnalysis              **out_b,
                                           GError                      **error);

guint                     chrono_analysis_get_n_traces     (ChronoAnalysis *self);
ChronoTrace              *chrono_analysis_get_trace        (ChronoAnalysis *self,
                                                            guint           index);

/* The ranks: one for each trace, or for each file of a merged trace. */
guint                     chrono_analysis_get_n_ranks      (ChronoAnalysis *self);
const ChronoRankInfo     *chrono_analysis_get_rank         (ChronoAnalysis *self,
                                                            guint           index);

/* Each device's ledger over the window, followed by its ledger per step. */
guint                     chrono_analysis_get_n_ledger_rows (ChronoAnalysis *self);
const ChronoLedgerRow    *chrono_analysis_get_ledger_row   (ChronoAnalysis *self,
                                                            guint           index);

/* What the findings claim of one device (BREAKDOWN, its row in the
 * breakdowns), by rule, most first: a GArray of ChronoRuleShare. */
typedef struct {
  const char *rule;
  gint64      ns;
} ChronoRuleShare;

GArray                   *chrono_analysis_dup_recoverable_by_rule (ChronoAnalysis *self,
                                                                   guint           breakdown);

guint                     chrono_analysis_get_n_host_ledger_rows (ChronoAnalysis *self);
const ChronoHostLedgerRow *chrono_analysis_get_host_ledger_row  (ChronoAnalysis *self,
                                                                guint           index);

guint                     chrono_analysis_get_n_limitations (ChronoAnalysis *self);
const ChronoLimitation   *chrono_analysis_get_limitation   (ChronoAnalysis *self,
                                                            guint           index);

/* Device rows first (track == CHRONO_NO_TRACK), each followed by its streams. */
guint                     chrono_analysis_get_n_breakdowns (ChronoAnalysis *self);
const ChronoBreakdown    *chrono_analysis_get_breakdown    (ChronoAnalysis *self,
                                                            guint           index);

guint                     chrono_analysis_get_n_paths      (ChronoAnalysis *self);
const ChronoCriticalPath *chrono_analysis_get_path         (ChronoAnalysis *self,
                                                            guint           index);

/* Most costly first. */
guint                     chrono_analysis_get_n_findings   (ChronoAnalysis *self);
const ChronoFinding      *chrono_analysis_get_finding      (ChronoAnalysis *self,
                                                            guint           index);

/* The spans within MAX_HOPS edges of CENTRE (in either direction), at most
 * MAX_NODES of them, nearest first, with the edges between them. The first
 * call indexes the traces' flows: call it from one thread at a time. */
ChronoSubgraph           *chrono_analysis_dup_neighbourhood (ChronoAnalysis *self,
                                                             ChronoNodeRef   centre,
                                                             guint           max_hops,
                                                             guint           max_nodes);

/* The report as JSON ("chronoscope.analysis/2", docs/analysis-schema.md)
 * or Markdown. */
char                     *chrono_analysis_to_json          (ChronoAnalysis *self);
char                     *chrono_analysis_to_markdown      (ChronoAnalysis *self);

G_END_DECLS
