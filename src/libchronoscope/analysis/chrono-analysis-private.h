/* chrono-analysis-private.h: what the parts of the analysis share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "chrono-analysis.h"
#include "chrono-fill.h"
#include "chrono-neuron-ledger.h"
#include "chrono-sort.h"

G_BEGIN_DECLS

/* What a piece of device work is, following Holistic Trace Analysis's
 * kernel types (memory split into copies and sets). */
typedef enum {
  CHRONO_WORK_COMPUTE,
  CHRONO_WORK_COMMUNICATION,
  CHRONO_WORK_MEMCPY,
  CHRONO_WORK_MEMSET,
} ChronoWorkClass;

/* The first of N records of SIZE bytes at BASE, sorted by the gint64 at
 * OFFSET, whose value is at least VALUE; N when there is none. */
guint   chrono_lower_bound         (gconstpointer base,
                                    guint         n,
                                    gsize         size,
                                    gsize         offset,
                                    gint64        value);
/* The same, for values asked nearly in order: HINT, the answer of the
 * last time, or the one after it, is checked before searching. */
guint   chrono_lower_bound_near    (gconstpointer base,
                                    guint         n,
                                    gsize         size,
                                    gsize         offset,
                                    gint64        value,
                                    guint         hint);

/* FUNC on A in this thread and on B in another, both at once: the two
 * sides of a pair need nothing of each other. */
void    chrono_both_at_once        (GThreadFunc   func,
                                    gpointer      a,
                                    gpointer      b);

/* Adds N bytes at P to the hash H, eight bytes at a time: the texts
 * hashed (shapes, args) are long and alike. */
static inline guint64
chrono_hash_bytes (guint64     h,
                   const char *p,
                   gsize       n)
{
  for (; n >= 8; p += 8, n -= 8)
    {
      guint64 w;
      memcpy (&w, p, 8);
      h = (h ^ w) * G_GUINT64_CONSTANT (0x100000001b3);
      h ^= h >> 29;
    }
  for (; n > 0; p++, n--)
    h = (h ^ (guchar) *p) * G_GUINT64_CONSTANT (0x100000001b3);
  return h;
}

/* Intervals [start, end) merged: sorted, disjoint. */
typedef struct {
  gint64 start;
  gint64 end;
  guint  first;          /* the item that opens the interval */
} ChronoInterval;

/* One kernel, copy or set on a stream. */
typedef struct {
  guint32 track;
  guint32 index;
  gint64  start;
  gint64  end;
  gint64  launch_start;  /* start of the runtime call that launched it, or G_MININT64 */
  guint32 launch_track;  /* the call, when launch_start is set */
  guint32 launch_index;
  guint32 stream_prev;   /* the previous item on its stream, in the device's items, or G_MAXUINT32 */
  guint8  cls;           /* ChronoWorkClass */
} ChronoWorkItem;

/* A stream's work is the device's: its spans are listed first, so that
 * the NeuronCore's metrics can read them while the device's items are
 * merged, then its items, as positions among the device's. A copy of
 * each stream's items would be as large as the device's. */
typedef struct {
  guint32 track;
  gint64  stream;        /* the stream id, -1 when the trace gives none */
  GArray *spans;         /* guint32: the track's spans that are work, in the order of their items */
  GArray *positions;     /* guint: their items in the device's items */
} ChronoStreamWork;

/* A stretch of a device's ledger in one state. */
typedef struct {
  gint64  start;
  gint64  end;
  gint64  claimed;       /* what findings have claimed of it */
  guint32 cause;         /* the sync wait (idle_sync), the rank that came last (idle_peer), else G_MAXUINT32 */
  guint8  state;         /* ChronoLedgerState */
} ChronoLedgerSegment;

typedef struct {
  guint32 process;
  gint    device;
  GArray *streams;       /* ChronoStreamWork */
  GArray *items;         /* every stream's ChronoWorkItem by start */
  GArray *busy;          /* the items merged: ChronoInterval */
  GArray *compute;       /* the computations merged, and likewise */
  GArray *communication;
  GArray *copies;        /* memcpy and memset */
  guint   n_of_class[CHRONO_WORK_MEMSET + 1]; /* the items of each ChronoWorkClass */
  GArray *ledger;        /* ChronoLedgerSegment covering busy's first start to last end */
  guint   breakdown;     /* the device's row in the analysis's breakdowns */
  ChronoNeuronLedger *neuron; /* a NeuronCore's gaps and their causes, else NULL */
  struct _ChronoNeuronMetrics *neuron_metrics; /* built once for all readers, or NULL */
  guint  *deps_start;    /* by item: where the dependencies into it begin in deps_into; items + 1 */
  guint  *deps_into;     /* the rank's deps, by the item they lead to, each item's in their order */
} ChronoDeviceWork;

/* Item J of stream SW of device D. */
static inline const ChronoWorkItem *
chrono_stream_item (const ChronoDeviceWork *d,
                    const ChronoStreamWork *sw,
                    guint                   j)
{
  return &g_array_index (d->items, ChronoWorkItem, g_array_index (sw->positions, guint, j));
}

/* A host call that blocked until device work finished. */
typedef struct {
  guint32 track;
  guint32 index;
  gint64  start;
  gint64  end;
  gint    device;        /* position in devices of the work waited for, or -1 */
  guint   item;          /* that work in the device's items */
} ChronoSyncWait;

/* A dependency between two pieces of device work that is not their
 * stream order: a cross-stream event wait, or a flow of the trace between
 * two streams or engines (Neuron instruction and semaphore dependencies). */
typedef struct {
  guint  from_device;
  guint  from_item;
  guint  to_device;
  guint  to_item;
  guint8 type;           /* ChronoEdgeType: CHRONO_EDGE_EVENT_WAIT or CHRONO_EDGE_FLOW */
  guint8 semaphore;      /* a flow from the update a semaphore wait waited for */
} ChronoWorkDep;


typedef struct {
  guint32 track;         /* the host thread */
  guint32 index;
  gint64  start;         /* the host span */
  gint64  end;
  gint64  work_end;      /* last end of the device work it launched */
} ChronoStep;

/* What a rank's host threads did within the range, for what the trace
 * lacks: counted while its work is gathered. */
typedef struct {
  guint64  launches;       /* runtime calls that launch device work */
  guint64  linked;         /* of them, those with work in the trace */
  guint64  graph_launches;
  guint64  host_ops;
  gboolean shapes;         /* the first host ops record shapes */
} ChronoHostCounts;

/* Everything the analyses need from one rank (a trace, or the processes
 * one file brought into a merged trace), within the analysed range. */
typedef struct {
  ChronoTrace *trace;
  guint32      trace_index;
  guint        rank_index;   /* position in the analysis's ranks */
  gint         rank;         /* as the file says, or -1 */
  guint        first_process;/* the rank's processes in the trace */
  guint        n_processes;
  gboolean     device_incomplete; /* launches without device work: its idle time is unknown */
  gboolean     truncated;    /* its file was cut short */
  const char  *path;         /* its file */
  gint64       range_start;
  gint64       range_end;
  GArray      *devices;  /* ChronoDeviceWork */
  GArray      *syncs;    /* ChronoSyncWait by start */
  GArray      *steps;    /* ChronoStep by start */
  GArray      *collectives; /* the communication ChronoWorkItems of all devices, by start */
  GArray      *deps;     /* ChronoWorkDep */
  GHashTable  *flows_of; /* span key -> GArray of flow indices (both ends), made on demand */
  GPtrArray   *item_of;  /* by stream track, its ChronoTrackItems (NULL for others) */
  const ChronoTrack **tracks; /* the trace's, by index: looked up for every item and flow */
  GThread     *metrics;  /* reading its NeuronCores' metrics, or NULL */
  ChronoHostCounts host;
} ChronoRankData;

static inline guint64
chrono_span_key (guint32 track,
                 guint32 index)
{
  return ((guint64) track << 32) | index;
}

/* The rank of TRACE that PART, one of its files, brought. */
ChronoRankData *chrono_rank_data_new  (ChronoTrace                 *trace,
                                       guint32                      trace_index,
                                       guint                        rank_index,
                                       const ChronoTracePart       *part,
                                       const ChronoAnalysisOptions *options);
/* Restores the binary heap HEAP of N indices below AT, BEFORE (A, B,
 * DATA) telling whether index A comes before B: the merge of sorted runs
 * takes each next element from the run at its top. Inline, so that
 * BEFORE is too. */
static inline void
chrono_heap_sift (guint          *heap,
                  guint           n,
                  guint           at,
                  gboolean      (*before) (guint a, guint b, gconstpointer data),
                  gconstpointer   data)
{
  for (;;)
    {
      guint least = at, l = 2 * at + 1, r = l + 1, swap;

      if (l < n && before (heap[l], heap[least], data))
        least = l;
      if (r < n && before (heap[r], heap[least], data))
        least = r;
      if (least == at)
        return;
      swap = heap[at];
      heap[at] = heap[least];
      heap[least] = swap;
      at = least;
    }
}

/* The start of span SPAN of stream track T as DATA's items have it:
 * cut to the analysed range. */
static inline gint64
chrono_rank_data_span_start (const ChronoRankData *data,
                             const ChronoTrack    *t,
                             guint32               span)
{
  return MAX (t->start[span], data->range_start);
}

/* Its start and end, likewise. */
static inline void
chrono_rank_data_span_times (const ChronoRankData *data,
                             const ChronoTrack    *t,
                             guint32               span,
                             gint64               *start,
                             gint64               *end)
{
  *end = MIN (t->start[span] + chrono_track_get_dur (t, span), data->range_end);
  *start = chrono_rank_data_span_start (data, t, span);
}

/* [START, END) into the merged intervals being filled in F, coming by
 * start: it joins the last one it touches, or opens one with FIRST. */
static inline void
chrono_fill_merge (ChronoFill *f,
                   gint64      start,
                   gint64      end,
                   guint       first)
{
  ChronoInterval *last = chrono_fill_last (f);

  if (last && start <= last->end)
    last->end = MAX (last->end, end);
  else
    *(ChronoInterval *) chrono_fill_next (f) = (ChronoInterval) { start, end, first };
}

/* Each stream track's items, by span: what chrono_rank_data_find_item()
 * reads. */
GPtrArray      *chrono_rank_data_index_items  (ChronoRankData *data);
/* The rank's dependencies: its event waits and the flows FLOWS (indices
 * of the trace's flows between work items), indexed by the item they
 * lead to. */
void            chrono_rank_data_collect_deps (ChronoRankData *data,
                                               GArray         *flows);
/* Waits for the NeuronCore metrics that chrono_rank_data_new() started
 * reading as soon as the cores' work was gathered. */
void            chrono_rank_data_join_metrics (ChronoRankData *data);
gboolean        chrono_rank_data_has_track (ChronoRankData *data,
                                            guint32         track);
/* The position in DATA's devices of the device TRACK is a row of, or -1. */
gint            chrono_rank_data_device_of_track (ChronoRankData *data,
                                                  guint32         track);

/* The ledger of every device of DATA. PEER_WAITS, when not NULL, holds
 * for each device a GArray of ChronoInterval (or NULL): the time its
 * collectives waited for the last rank, FIRST naming the collective. */
void            chrono_rank_data_build_ledgers (ChronoRankData                 *data,
                                                GArray                         *peer_waits,
                                                const ChronoAnalysisThresholds *thresholds);

/* A NeuronCore's ledger, following its Tensor engine: its segments
 * (ledger) and its gaps with their causes (neuron). */
void            chrono_neuron_build_ledger (ChronoRankData         *data,
                                            guint                   device);
void            chrono_neuron_ledger_free  (ChronoNeuronLedger     *ledger);
/* Adds to OUT (ChronoLedgerRow) a row per execution the profile of
 * NeuronCore D names (ExecutionInfo), cut to the core's window and
 * numbered as a rank's steps are. */
void            chrono_neuron_add_execution_rows (ChronoRankData         *data,
                                                  const ChronoDeviceWork *d,
                                                  GArray                 *out);

/* The time of each state inside [START, END), added to STATE_NS. */
void            chrono_ledger_sum          (GArray *ledger,
                                            gint64  start,
                                            gint64  end,
                                            gint64  state_ns[CHRONO_N_LEDGER_STATES]);
/* Adds to OUT (ChronoHostLedgerRow) the ledger of each host thread of
 * DATA that launched device work. */
void            chrono_rank_data_host_ledgers (ChronoRankData *data,
                                               GArray         *out);

/* The time inside [START, END) of the states in the mask STATES. */
gint64          chrono_ledger_time_in      (GArray *ledger,
                                            gint64  start,
                                            gint64  end,
                                            guint   states);
gint64          chrono_ledger_claimed_in   (GArray *ledger,
                                            gint64  start,
                                            gint64  end);

#define CHRONO_LEDGER_MASK(state) (1u << (state))
#define CHRONO_LEDGER_IDLE_MASK \
  (CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_HOST) | CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_LAUNCH) | \
   CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_SYNC) | CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_PEER) | \
   CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_DATA) | CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_OTHER))
#define CHRONO_LEDGER_NEURON_IDLE_MASK \
  (CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_DMA) | CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_VECTOR) | \
   CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_SCALAR) | CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_GPSIMD) | \
   CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_COLLECTIVE) | CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_SEMAPHORE) | \
   CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_NOT_QUEUED))
#define CHRONO_LEDGER_ALL_MASK ((1u << CHRONO_N_LEDGER_STATES) - 1)

/* What a finding asks of the ledgers: parts of devices' time, each a
 * range and the states (and cause) it may take. */
typedef struct {
  ChronoRankData *data;
  guint   device;
  gint64  start;
  gint64  end;
  guint   states;
  guint32 cause;         /* G_MAXUINT32: any */
  gint64  limit;         /* at most this much from this part */
} ChronoClaimPart;

typedef struct {
  GArray *ledger;
  guint   segment;
  gint64  ns;
} ChronoClaimTrial;

typedef struct {
  GArray *parts;         /* ChronoClaimPart */
  GArray *trial;         /* ChronoClaimTrial: what a measure took, to give back */
  gint64  first;         /* where the time taken lies */
  gint64  last;
  gint64  state_ns[CHRONO_N_LEDGER_STATES]; /* what the last measure got, by state */
} ChronoClaim;

void    chrono_claim_init    (ChronoClaim    *claim);
void    chrono_claim_clear   (ChronoClaim    *claim);
void    chrono_claim_add     (ChronoClaim    *claim,
                              ChronoRankData *data,
                              guint           device,
                              gint64          start,
                              gint64          end,
                              guint           states,
                              guint32         cause,
                              gint64          limit);
/* The same range of every device of DATA, any cause, no limit. */
void    chrono_claim_add_rank (ChronoClaim    *claim,
                               ChronoRankData *data,
                               gint64          start,
                               gint64          end,
                               guint           states);
/* What the claim would get, at most LIMIT, without taking it; its
 * STATE_NS say from which states. */
gint64  chrono_claim_measure (ChronoClaim    *claim,
                              gint64          limit);
/* Takes it; adds the time per device to SHARES (ChronoClaimShare). */
gint64  chrono_claim_take    (ChronoClaim    *claim,
                              gint64          limit,
                              GArray         *shares);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ChronoClaim, chrono_claim_clear)

/* chrono-analysis-advice.c: the state of the mask STATES that holds most
 * of STATE_NS (FALLBACK when none holds any), what a finding calls it as
 * a cause, and what to try for it. */
ChronoLedgerState chrono_ledger_main_state (const gint64      state_ns[CHRONO_N_LEDGER_STATES],
                                            guint             states,
                                            ChronoLedgerState fallback);
const char       *chrono_advice_cause      (ChronoLedgerState state);
const char       *chrono_advice_for_state  (ChronoLedgerState state);
void            chrono_rank_data_free (ChronoRankData *data);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoRankData, chrono_rank_data_free)

/* The device work that finished last inside [START, END], if any. */
gboolean        chrono_rank_data_last_work (ChronoRankData *data,
                                            gint64          start,
                                            gint64          end,
                                            gint           *device,
                                            guint          *item);

/* The deps into IT: *N_DEPS indices into the rank's deps, in the order
 * they were found. */
const guint    *chrono_rank_data_deps_to (ChronoRankData       *data,
                                          const ChronoWorkItem *it,
                                          guint                *n_deps);

/* The device work that SPAN is, if any. */
gint64          chrono_rank_data_clock_shift (ChronoRankData *data,
                                              guint32         process);
gboolean        chrono_rank_data_find_item (ChronoRankData *data,
                                            ChronoSpanRef   span,
                                            guint          *device,
                                            guint          *item);

/* A number in the args object at OFFSET, found in its raw text by its
 * quoted key ("\"bytes\""); numbers written as strings count too. */
gboolean chrono_analysis_arg_number (ChronoTrace *trace,
                                     guint64      offset,
                                     const char  *quoted_key,
                                     gdouble     *value);

/* The stream number of a stream track: its thread id, or the number in
 * "stream 7", which older Kineto versions write as the tid. */
gint64   chrono_analysis_stream_id (ChronoTrace       *trace,
                                    const ChronoTrack *track);

/* Whether a runtime call blocks the host until the device catches up. */
gboolean chrono_analysis_name_is_sync (const char *name);
/* Whether a host span is the data loader producing a batch. */
gboolean chrono_analysis_name_is_data_loading (const char *name);


/* Intervals merged as they come by start, only their length kept. */
typedef struct {
  gint64 start;
  gint64 end;
  gint64 length;         /* of the intervals before [start, end) */
} ChronoRun;

static inline void
chrono_run_add (ChronoRun *run,
                gint64     start,
                gint64     end)
{
  if (run->end > run->start && start <= run->end)
    run->end = MAX (run->end, end);
  else
    {
      run->length += run->end - run->start;
      run->start = start;
      run->end = end;
    }
}

static inline gint64
chrono_run_length (const ChronoRun *run)
{
  return run->length + (run->end - run->start);
}

/* A stream's work merged into intervals, each opened by the stream's
 * item of that index. Read from its spans: it can be made before the
 * device's items are. */
GArray *chrono_intervals_of_stream (const ChronoRankData     *data,
                                    const ChronoStreamWork   *sw);
/* The union of two merged lists A and B, merged: an interval keeps the
 * item of the first interval it grew from. */
GArray *chrono_intervals_union     (GArray *a,
                                    GArray *b);
gint64  chrono_intervals_length    (GArray *intervals);
gint64  chrono_intervals_overlap   (GArray *a,
                                    GArray *b);
/* The length of INTERVALS inside [start, end). */
gint64  chrono_intervals_length_in (GArray *intervals,
                                    gint64  start,
                                    gint64  end);

void    chrono_analysis_compute_breakdowns (ChronoRankData                 *data,
                                            const ChronoAnalysisThresholds *thresholds,
                                            GArray                         *out);
void    chrono_analysis_compute_paths      (ChronoRankData                 *data,
                                            const ChronoAnalysisThresholds *thresholds,
                                            GArray                         *out);
void    chrono_critical_path_clear         (ChronoCriticalPath *path);

/* The matched collectives of several ranks (the k-th of each): each
 * device's waits for the rank that arrived last (ChronoInterval, FIRST =
 * that rank's index), as PEER_WAITS[rank], a GArray of GArray * per
 * device (NULL for none). Nothing when the ranks' clocks disagree. */
void    chrono_analysis_match_collectives  (ChronoRankData                **ranks,
                                            guint                           n_ranks,
                                            GPtrArray                      *peer_waits);

/* Whether the ranks' matched collectives start closer together than
 * they last (TRUE when nothing is matched). */
gboolean chrono_analysis_clocks_agree      (ChronoRankData                **ranks,
                                            guint                           n_ranks);

/* What the rules share while they run. */
typedef struct {
  ChronoRankData               **ranks;
  guint                          n_ranks;
  const ChronoAnalysisThresholds *th;
  GArray                        *out;
} ChronoRuleContext;

/* A finding of RULE that costs LOST, the time CLAIM gets (what
 * chrono_rule_measure() said), taken from the ledgers; TITLE is taken. */
ChronoFinding *chrono_rule_add_finding (ChronoRuleContext *c,
                                        const char        *rule,
                                        ChronoRankData    *data,
                                        gint64             start,
                                        gint64             end,
                                        ChronoClaim       *claim,
                                        gint64             lost,
                                        const char        *recommendation,
                                        char              *title);
/* Whether D's ledger has any of the states in MASK: a NeuronCore's
 * follows its Tensor engine and has none of a GPU's copy, communication
 * or launch states, so a rule claiming only those can pass it by. */
gboolean       chrono_rule_device_can_hold (const ChronoDeviceWork *d,
                                            guint                   mask);
/* What CLAIM can get, at most LIMIT; 0 below min-time-lost. */
gint64         chrono_rule_measure     (ChronoRuleContext *c,
                                        ChronoClaim       *claim,
                                        gint64             limit);
/* Each does nothing when F is NULL. */
void           chrono_finding_add_track    (ChronoFinding *f,
                                            guint32        trace,
                                            guint32        track);
void           chrono_finding_add_evidence (ChronoFinding *f,
                                            const char    *key,
                                            gdouble        value);
void           chrono_finding_set_node     (ChronoFinding *f,
                                            guint32        trace,
                                            guint32        track,
                                            guint32        index);
/* The critical path of each NeuronCore of DATA, from its ledger. */
void           chrono_neuron_add_paths     (ChronoRankData    *data,
                                            GArray            *out);
/* The findings of each NeuronCore of DATA, from its ledger. */
void           chrono_neuron_run_rules     (ChronoRuleContext *c,
                                            ChronoRankData    *data);

/* Adds findings to OUT (ChronoFinding); the caller ranks them. ANALYSIS
 * gives the operators' efficiency, already worked out. PATHS_PENDING,
 * when not NULL, is still adding to PATHS: it is joined before the first
 * rule that reads them. */
void    chrono_analysis_run_rules          (ChronoAnalysis                 *analysis,
                                            ChronoRankData                **ranks,
                                            guint                           n_ranks,
                                            GArray                         *breakdowns,
                                            GArray                         *paths,
                                            GThread                        *paths_pending,
                                            const ChronoAnalysisThresholds *thresholds,
                                            GArray                         *out);

/* Adds to OUT (ChronoLimitation) what the traces lack for the analysis,
 * and marks the ranks whose device work is incomplete. */
void    chrono_analysis_find_limitations   (ChronoRankData                **ranks,
                                            guint                           n_ranks,
                                            GArray                         *out);

/* The rank whose tracks hold NODE's span. */
ChronoRankData *chrono_analysis_rank_of_node (ChronoRankData **ranks,
                                              guint            n_ranks,
                                              ChronoNodeRef    node);
void    chrono_finding_clear               (ChronoFinding *finding);

/* The n-th collective kernel of each rank matched to the others'. */
gboolean chrono_analysis_collective_peer  (ChronoRankData **ranks,
                                           guint            n_ranks,
                                           guint32          trace,
                                           ChronoSpanRef    span,
                                           guint32          peer_trace,
                                           ChronoSpanRef   *peer);

/* For the report and the graph, which live in files of their own. */
ChronoRankData **chrono_analysis_get_ranks (ChronoAnalysis *self,
                                            guint          *n_ranks);

/* The NeuronCores' series made during the run; NULL when it made none. */
GPtrArray *chrono_analysis_get_neuron_series (ChronoAnalysis *self);

G_END_DECLS
