/* chrono-comparison-private.h: what the parts of the comparison share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-analysis-private.h"
#include "chrono-comparison.h"

G_BEGIN_DECLS

/* How far past a divergence to look for the sequences to agree again. */
#define CHRONO_COMPARE_RESYNC_SEARCH 64

/* One side as the comparison reads it. */
typedef struct {
  ChronoAnalysis *analysis;
  ChronoRankData *data;          /* its first rank */
  guint           main_device;   /* index into data->devices, G_MAXUINT when it has no device work */
  GArray         *windows;       /* ChronoCompareWindow, by start */
  GArray         *devices;       /* ChronoCompareDevice */
} ChronoCompareSideData;

struct _ChronoComparison
{
  GObject parent_instance;

  ChronoCompareSideData side[2];
  ChronoCompareAlign align;
  gboolean  by_number;
  GArray   *pairs;               /* ChronoComparePair */
  GArray   *used;                /* guint: the pair of each used pair, in order */
  GPtrArray *ops;                /* ChronoCompareRow * */
  GPtrArray *kernels;            /* ChronoCompareRow * */
  GArray   *findings_diff;       /* ChronoFindingDiff */
  ChronoCompareDivergence divergence;
};

/* Finds each side's windows, pairs them, leaves out warm-up and
 * outliers (or keeps what OPTIONS choose), and attributes each window to
 * its main device's ledger. */
gboolean chrono_comparison_align (ChronoComparison           *self,
                                  const ChronoCompareOptions *options,
                                  GError                    **error);
/* SIDE's devices over the used windows: busy, idle, computing,
 * communicating. Needs nothing of the other side. */
void     chrono_compare_measure_devices (ChronoComparison *self,
                                         guint             side);

/* Operators and kernels of both sides over the used pairs, matched, and
 * the first divergence of the launched operators; each side's devices
 * measured meanwhile. */
void     chrono_comparison_match (ChronoComparison *self);

/* The window of the used pair U on SIDE. */
const ChronoCompareWindow *chrono_comparison_used_window (ChronoComparison *self,
                                                          guint             side,
                                                          guint             u);

/* Per-call and per-step figures of a side; CALLS (the N_CALLS calls'
 * device times, in any order) are reordered. */
void     chrono_compare_side_finish (ChronoCompareSide *side,
                                     gint64            *calls,
                                     guint              n_calls,
                                     guint              n_used);
/* Delta, delta % and noise of a row whose sides are finished. */
void     chrono_compare_row_finish  (ChronoCompareRow  *row,
                                     guint              n_used);
void     chrono_compare_row_free    (ChronoCompareRow  *row);

/* A used window of one side, for finding what belongs to it. */
typedef struct {
  gint64 start;
  gint64 host_end;
  gint64 end;
  guint  used;
} ChronoCompareSlot;

/* The used windows of SIDE, by start. */
GArray  *chrono_compare_make_slots  (ChronoComparison  *self,
                                     guint              side);
/* The used window that AT belongs to: the last to start by then, if AT
 * is before its span's end (HOST) or its work's end; -1 when none. */
gint     chrono_compare_slot_of     (GArray            *slots,
                                     gint64             at,
                                     gboolean           host);

/* The categories of operators in DATA's trace (indexed by string): those
 * of its host operators. Communication calls the profiler records as
 * operators (Kineto's record_param_comms, c10d::allreduce_) are
 * collectives to the model but operators here; communication
 * annotations are not. */
gboolean *chrono_compare_operator_categories (ChronoRankData *data);

static inline gboolean
chrono_compare_is_operator (const ChronoTrack *t,
                            guint32            i,
                            const gboolean    *op_cats)
{
  return t->kind[i] == CHRONO_KIND_HOST_OP ||
         (t->kind[i] == CHRONO_KIND_COLLECTIVE && op_cats[chrono_track_get_cat (t, i)]);
}

/* Kineto's "Input Dims" in the args at OFFSET (an array, or torch_npu's
 * text), as the file writes it: DIMS points into the trace's retained
 * source, read through ARGS. LIKE (LIKE_LEN bytes, or none) is the text
 * of shapes the call likely has. */
gboolean chrono_compare_input_dims  (const ChronoArgsText *args,
                                     guint64            offset,
                                     const char        *like,
                                     gsize              like_len,
                                     const char       **dims,
                                     gsize             *dims_len);
/* Appends an operator's key: NAME, and its DIMS without white space,
 * torch_npu's text written as the array it stands for. */
void     chrono_compare_op_key_append (GString         *key,
                                       const char      *name,
                                       const char      *dims,
                                       gsize            dims_len);

/* The two-sided 97.5% quantile of Student's t with DF degrees of freedom. */
gdouble  chrono_student_t_975       (gdouble            df);

G_END_DECLS
