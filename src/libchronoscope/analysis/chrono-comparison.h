/* chrono-comparison.h: two runs side by side, aligned by step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-analysis.h"

G_BEGIN_DECLS

/* What the two sides' windows are. */
typedef enum {
  CHRONO_COMPARE_ALIGN_AUTO,     /* steps when both sides have them, else the whole trace */
  CHRONO_COMPARE_ALIGN_STEP,     /* ProfilerStep#N spans */
  CHRONO_COMPARE_ALIGN_MARKER,   /* every span of a given name */
  CHRONO_COMPARE_ALIGN_START,    /* the whole trace, from its start */
} ChronoCompareAlign;

typedef struct {
  ChronoCompareAlign align;
  const char *marker;            /* the span name, for CHRONO_COMPARE_ALIGN_MARKER */
  /* Chooses the steps numbered FIRST_STEP to LAST_STEP (by ProfilerStep
   * number, or by position from 0 when the steps have none) instead of
   * leaving out warm-up and outliers. */
  gboolean has_steps;
  gint64   first_step;
  gint64   last_step;
} ChronoCompareOptions;

void chrono_compare_options_init (ChronoCompareOptions *options);

/* One window of one side: a step, a marker span or the whole trace. It
 * runs from the span's start to the end of the last device work launched
 * in it (or the span's end, if later). The ledger of the side's main
 * device covers part of it; the rest is OUTSIDE_NS, time in which that
 * device had not started or had finished its work. */
typedef struct {
  char    *name;
  gint64   number;               /* N of ProfilerStep#N, -1 when none */
  gint64   start_ns;
  gint64   host_end_ns;          /* the span's end: what starts before it belongs to the window */
  gint64   end_ns;
  gint64   state_ns[CHRONO_N_LEDGER_STATES];
  gint64   outside_ns;
} ChronoCompareWindow;

/* A pair of windows, one of each side. USED is FALSE when the pair is
 * left out, EXCLUDED saying why. */
typedef struct {
  gint      a;                   /* index into the side's windows, -1 when that side has none */
  gint      b;
  gboolean  used;
  char     *excluded;
} ChronoComparePair;

/* One side of an operator or kernel, over the used windows. */
typedef struct {
  char    *name;                 /* a name as the trace writes it */
  guint64  count;                /* calls */
  gint64   device_ns;            /* direct device time: the work they launched (kernels: their own time) */
  gint64   host_ns;              /* operators: the calls' own span time */
  gdouble  count_per_step;
  gdouble  device_ns_per_step;
  gdouble  mean_ns;              /* device time per call */
  gint64   p50_ns;
  gint64   p95_ns;
  gint64  *step_device_ns;       /* per used pair, in pair order */
} ChronoCompareSide;

typedef enum {
  CHRONO_COMPARE_MATCH_NAME,     /* the same key on both sides */
  CHRONO_COMPARE_MATCH_OPERATOR, /* kernels of different names under the same operator, or under
                                  * different operators within the same one (its key is the row's op) */
  CHRONO_COMPARE_MATCH_NONE,     /* only in A or only in B */
} ChronoCompareMatch;

const char *chrono_compare_match_to_string (ChronoCompareMatch match);

/* Noise against change for a row's per-step device time. */
typedef enum {
  CHRONO_COMPARE_NOISE_UNKNOWN,  /* fewer than two used steps on a side */
  CHRONO_COMPARE_NOISE_WITHIN,
  CHRONO_COMPARE_NOISE_BEYOND,   /* significant */
} ChronoCompareNoise;

/* An operator (name and input shapes) or a kernel (normalised name and
 * the operator that launched it). The key is what operator-level
 * figures keyed by name and shapes join on. */
typedef struct {
  char              *key;
  char              *name;       /* operator name, or normalised kernel name */
  char              *shapes;     /* operators: Kineto's "Input Dims", compact; NULL without */
  char              *op;         /* kernels: the launching operator's key, NULL when none */
  ChronoCompareMatch match;
  ChronoCompareSide  a;
  ChronoCompareSide  b;
  gdouble            delta_ns;   /* per step, B - A */
  gdouble            delta_percent;  /* of A; NAN when A has none */
  ChronoCompareNoise noise;
  gdouble            ci_low_ns;  /* the 95% interval of delta_ns (Welch) */
  gdouble            ci_high_ns;
} ChronoCompareRow;

/* Each device of a side over the used windows (cut to its own window). */
typedef struct {
  char    *name;
  gboolean main;                 /* the one whose ledger the steps are attributed to */
  gint64   busy_ns;
  gint64   idle_ns;
  gint64   compute_ns;
  gint64   communication_ns;     /* union of collectives */
  gint64   exposed_communication_ns;  /* the ledger's communication: what no computation hides */
  gint64   copy_ns;
} ChronoCompareDevice;

typedef enum {
  CHRONO_FINDING_SAME,
  CHRONO_FINDING_APPEARED,
  CHRONO_FINDING_DISAPPEARED,
  CHRONO_FINDING_CHANGED,
} ChronoFindingChange;

const char *chrono_finding_change_to_string (ChronoFindingChange change);

/* A rule's findings on both sides. */
typedef struct {
  const char *rule;
  ChronoFindingChange change;
  guint   a_count;
  guint   b_count;
  gint64  a_time_lost_ns;
  gint64  b_time_lost_ns;
  gint    a_position;            /* of its costliest finding in the side's list, -1 for none */
  gint    b_position;
} ChronoFindingDiff;

/* The first place the launched operators differ. Positions count
 * operators that launched device work, in launch order, from the first
 * used window. */
typedef struct {
  gboolean found;
  guint    pair;                 /* the used pair it is in */
  guint    a_index;              /* position in that pair's windows */
  guint    b_index;
  guint64  a_position;           /* position from the first used window */
  guint64  b_position;
  gint64   a_ns;                 /* the launch there, -1 past the end */
  gint64   b_ns;
  char    *a_op;                 /* NULL past the end */
  char    *b_op;
  guint    common;               /* operators alike before it in the pair */
  guint    a_skipped;            /* operators of A that B does not have there, before the two agree again */
  guint    b_inserted;           /* operators of B that A does not have there */
  gboolean resynced;             /* whether they agree again within the search */
} ChronoCompareDivergence;

typedef enum {
  CHRONO_COMPARE_SIDE_A,
  CHRONO_COMPARE_SIDE_B,
} ChronoCompareSideId;

#define CHRONO_TYPE_COMPARISON (chrono_comparison_get_type ())
G_DECLARE_FINAL_TYPE (ChronoComparison, chrono_comparison, CHRONO, COMPARISON, GObject)

/* Compares the first rank of A with the first rank of B (each analysed
 * on its own, with its own options). Fails with G_IO_ERROR_NOT_FOUND when
 * a side lacks the steps or marker asked for, G_IO_ERROR_INVALID_ARGUMENT
 * when --steps chooses none. */
ChronoComparison *chrono_comparison_run (ChronoAnalysis              *a,
                                         ChronoAnalysis              *b,
                                         const ChronoCompareOptions  *options,
                                         GCancellable                *cancellable,
                                         GError                     **error);

ChronoAnalysis           *chrono_comparison_get_analysis  (ChronoComparison    *self,
                                                           ChronoCompareSideId  side);
ChronoCompareAlign        chrono_comparison_get_align     (ChronoComparison    *self);
/* Whether the steps were paired by their numbers (else by order). */
gboolean                  chrono_comparison_get_by_number (ChronoComparison    *self);
/* The main device's name on each side. */
const char               *chrono_comparison_get_device_name (ChronoComparison    *self,
                                                             ChronoCompareSideId  side);

guint                     chrono_comparison_get_n_windows (ChronoComparison    *self,
                                                           ChronoCompareSideId  side);
const ChronoCompareWindow *chrono_comparison_get_window   (ChronoComparison    *self,
                                                           ChronoCompareSideId  side,
                                                           guint                index);

/* Every pair, used or not, in window order; then the windows of either
 * side that have no partner. */
guint                     chrono_comparison_get_n_pairs   (ChronoComparison    *self);
const ChronoComparePair  *chrono_comparison_get_pair      (ChronoComparison    *self,
                                                           guint                index);
guint                     chrono_comparison_get_n_used    (ChronoComparison    *self);

guint                     chrono_comparison_get_n_devices (ChronoComparison    *self,
                                                           ChronoCompareSideId  side);
const ChronoCompareDevice *chrono_comparison_get_device   (ChronoComparison    *self,
                                                           ChronoCompareSideId  side,
                                                           guint                index);

/* Largest |delta_ns| first. */
guint                     chrono_comparison_get_n_ops     (ChronoComparison    *self);
const ChronoCompareRow   *chrono_comparison_get_op        (ChronoComparison    *self,
                                                           guint                index);
guint                     chrono_comparison_get_n_kernels (ChronoComparison    *self);
const ChronoCompareRow   *chrono_comparison_get_kernel    (ChronoComparison    *self,
                                                           guint                index);

guint                     chrono_comparison_get_n_findings_diff (ChronoComparison *self);
const ChronoFindingDiff  *chrono_comparison_get_findings_diff   (ChronoComparison *self,
                                                                 guint             index);

const ChronoCompareDivergence *chrono_comparison_get_divergence (ChronoComparison *self);

/* Kernel names as the comparison matches them: "void " and return types
 * dropped, template arguments and argument lists emptied, hex addresses
 * and numbers standing alone reduced (docs/compare.md). */
char                     *chrono_compare_normalise_kernel (const char *name);

/* What a person calls ROW in a list: a kernel by the short name of the
 * name its trace writes, kernels matched through their operator as
 * "A → B", an operator with its input shapes. */
char                     *chrono_compare_row_label        (const ChronoCompareRow *row);

/* The report as JSON ("chronoscope.compare/1", docs/compare-schema.md)
 * or Markdown. */
char                     *chrono_comparison_to_json       (ChronoComparison *self);
char                     *chrono_comparison_to_markdown   (ChronoComparison *self);

G_END_DECLS
