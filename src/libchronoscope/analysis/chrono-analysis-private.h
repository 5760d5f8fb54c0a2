/* chrono-analysis-private.h: what the parts of the analysis share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-analysis.h"

G_BEGIN_DECLS

/* What a piece of device work is, following Holistic Trace Analysis's
 * kernel types (memory split into copies and sets). */
typedef enum {
  CHRONO_WORK_COMPUTE,
  CHRONO_WORK_COMMUNICATION,
  CHRONO_WORK_MEMCPY,
  CHRONO_WORK_MEMSET,
} ChronoWorkClass;

/* Sorts records by the gint64 at OFFSET (a GCompareDataFunc). */
gint    chrono_compare_int64_at    (gconstpointer a,
                                    gconstpointer b,
                                    gpointer      offset);
/* The first of N records of SIZE bytes at BASE, sorted by the gint64 at
 * OFFSET, whose value is at least VALUE; N when there is none. */
guint   chrono_lower_bound         (gconstpointer base,
                                    guint         n,
                                    gsize         size,
                                    gsize         offset,
                                    gint64        value);

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

typedef struct {
  guint32 track;
  gint64  stream;        /* the stream id, -1 when the trace gives none */
  GArray *items;         /* ChronoWorkItem by start */
} ChronoStreamWork;

typedef struct {
  guint32 process;
  gint    device;
  GArray *streams;       /* ChronoStreamWork */
  GArray *items;         /* every stream's ChronoWorkItem by start */
  GArray *busy;          /* the items merged: ChronoInterval */
} ChronoDeviceWork;

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
} ChronoWorkDep;

typedef struct {
  guint32 track;         /* the host thread */
  guint32 index;
  gint64  start;         /* the host span */
  gint64  end;
  gint64  work_end;      /* last end of the device work it launched */
} ChronoStep;

/* Everything the analyses need from one trace, within the analysed range. */
typedef struct {
  ChronoTrace *trace;
  guint32      trace_index;
  gint64       range_start;
  gint64       range_end;
  GArray      *devices;  /* ChronoDeviceWork */
  GArray      *syncs;    /* ChronoSyncWait by start */
  GArray      *steps;    /* ChronoStep by start */
  GArray      *collectives; /* the communication ChronoWorkItems of all devices, by start */
  GArray      *deps;     /* ChronoWorkDep */
  GHashTable  *deps_to;  /* span key of the later work -> GArray of indices into deps */
  GHashTable  *flows_of; /* span key -> GArray of flow indices (both ends), made on demand */
} ChronoRankData;

static inline guint64
chrono_span_key (guint32 track,
                 guint32 index)
{
  return ((guint64) track << 32) | index;
}

ChronoRankData *chrono_rank_data_new  (ChronoTrace                 *trace,
                                       guint32                      trace_index,
                                       const ChronoAnalysisOptions *options);
void            chrono_rank_data_free (ChronoRankData *data);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoRankData, chrono_rank_data_free)

/* The device work that finished last inside [START, END], if any. */
gboolean        chrono_rank_data_last_work (ChronoRankData *data,
                                            gint64          start,
                                            gint64          end,
                                            gint           *device,
                                            guint          *item);

/* The device work that SPAN is, if any. */
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


GArray *chrono_intervals_merge     (const ChronoWorkItem *items,
                                    guint                 n_items,
                                    guint                 class_mask);
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

/* Adds findings to OUT (ChronoFinding); the caller ranks them. */
void    chrono_analysis_run_rules          (ChronoRankData                **ranks,
                                            guint                           n_ranks,
                                            GArray                         *breakdowns,
                                            GArray                         *paths,
                                            const ChronoAnalysisThresholds *thresholds,
                                            GArray                         *out);
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

G_END_DECLS
