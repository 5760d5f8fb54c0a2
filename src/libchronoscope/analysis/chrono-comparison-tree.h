/* chrono-comparison-tree.h: where B's step time goes, node by node, against A
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-comparison.h"

G_BEGIN_DECLS

typedef enum {
  CHRONO_FLAME_STEP,             /* the root: the step */
  CHRONO_FLAME_MODULE,           /* an nn.Module frame on the launching thread */
  CHRONO_FLAME_OPERATOR,         /* the innermost CPU operator around the launch */
  CHRONO_FLAME_KERNEL,           /* a kernel, copy or set */
  CHRONO_FLAME_REST,             /* step time in which no device work of the step ran */
} ChronoFlameKind;

const char *chrono_flame_kind_to_string (ChronoFlameKind kind);

/* One side of a node, over the used steps. */
typedef struct {
  guint64 count;                 /* kernels: launches; operators and modules: calls that launched work */
  gdouble ns_per_step;           /* device time (the step: its time, see below) */
} ChronoFlameSide;

/* A node of the tree: the path from the step down to it is its identity
 * on both sides. Its time is the device time of the work under it;
 * children's times add up to their parent's exactly (nothing is left as
 * a node's own time). */
typedef struct _ChronoFlameNode ChronoFlameNode;
struct _ChronoFlameNode
{
  ChronoFlameKind    kind;
  char              *name;       /* module name, operator key (name and shapes), normalised kernel name; B's */
  char              *a_name;     /* A's name when it differs: a kernel matched through its operator */
  ChronoCompareMatch match;      /* NONE: only in A (B's count 0) or only in B */
  ChronoFlameSide    a;
  ChronoFlameSide    b;
  gdouble            delta_ns;   /* per step, B − A */
  gdouble            delta_percent;  /* of A; NAN when A has none */
  ChronoCompareNoise noise;      /* the comparison's interval over the per-step times */
  gdouble            ci_low_ns;
  gdouble            ci_high_ns;
  ChronoFlameNode   *parent;
  guint              n_children;
  ChronoFlameNode  **children;   /* most B time first, those only in A last */
};

typedef enum {
  CHRONO_FLAME_CALLS_DEVICE = 1 << 0,   /* the kernels, copies and sets */
  CHRONO_FLAME_CALLS_HOST   = 1 << 1,   /* the operator calls that launched them */
} ChronoFlameCalls;

#define CHRONO_TYPE_COMPARISON_TREE (chrono_comparison_tree_get_type ())
G_DECLARE_FINAL_TYPE (ChronoComparisonTree, chrono_comparison_tree, CHRONO, COMPARISON_TREE, GObject)

/* The tree step → nn.Module path → operator → kernel of B's used steps,
 * each node matched with A's as the comparison matches operators and
 * kernels. The step's time per step is the larger of its wall time and
 * its device work: work on streams running at once can add up to more
 * than the step. */
ChronoComparisonTree *chrono_comparison_tree_new        (ChronoComparison     *comparison);

ChronoComparison     *chrono_comparison_tree_get_comparison (ChronoComparisonTree *self);
const ChronoFlameNode *chrono_comparison_tree_get_root  (ChronoComparisonTree *self);
/* The mean wall time of a side's used steps. */
gdouble               chrono_comparison_tree_get_step_ns (ChronoComparisonTree *self,
                                                          ChronoCompareSideId   side);

/* The spans of SIDE's trace under NODE (ChronoSpanRef), in no order. */
GArray               *chrono_comparison_tree_collect_calls (ChronoComparisonTree  *self,
                                                            const ChronoFlameNode *node,
                                                            ChronoCompareSideId    side,
                                                            ChronoFlameCalls       calls);

/* The tree as the "flame" member of chronoscope.compare/1. */
void                  chrono_comparison_tree_add_json   (ChronoComparisonTree *self,
                                                         JsonBuilder          *builder);

G_END_DECLS
