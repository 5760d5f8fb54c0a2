/* chrono-diff-flame.h: a comparison's differential flame graph as a
 * widget: hover for A, B and Δ, click to focus a frame and select its
 * calls, Escape or Backspace to back out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-comparison-tree.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_DIFF_FLAME (chrono_diff_flame_get_type ())
G_DECLARE_FINAL_TYPE (ChronoDiffFlame, chrono_diff_flame, CHRONO, DIFF_FLAME, GtkWidget)

GtkWidget            *chrono_diff_flame_new            (void);

ChronoComparison     *chrono_diff_flame_get_comparison (ChronoDiffFlame       *self);
/* Builds the comparison's tree and shows it whole; NULL clears it. */
void                  chrono_diff_flame_set_comparison (ChronoDiffFlame       *self,
                                                        ChronoComparison      *comparison);
ChronoComparisonTree *chrono_diff_flame_get_tree       (ChronoDiffFlame       *self);

gboolean              chrono_diff_flame_get_dark       (ChronoDiffFlame       *self);
void                  chrono_diff_flame_set_dark       (ChronoDiffFlame       *self,
                                                        gboolean               dark);

/* The node drawn across the whole width (the step when none is). */
const ChronoFlameNode *chrono_diff_flame_get_focus     (ChronoDiffFlame       *self);
void                  chrono_diff_flame_set_focus      (ChronoDiffFlame       *self,
                                                        const ChronoFlameNode *node);
/* The keyboard's node, outlined; NULL for none. */
const ChronoFlameNode *chrono_diff_flame_get_selected  (ChronoDiffFlame       *self);
void                  chrono_diff_flame_set_selected   (ChronoDiffFlame       *self,
                                                        const ChronoFlameNode *node);

/* Where NODE is drawn now, in widget coordinates; FALSE when it is not. */
gboolean              chrono_diff_flame_get_node_area  (ChronoDiffFlame       *self,
                                                        const ChronoFlameNode *node,
                                                        graphene_rect_t       *area);

G_END_DECLS
