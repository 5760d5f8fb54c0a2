/* chrono-diff-flame-painter.h: a comparison's tree as a differential
 * flame graph (icicles), drawn with cairo and without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gdk/gdk.h>
#include <pango/pangocairo.h>

#include "chrono-comparison-tree.h"

G_BEGIN_DECLS

#define CHRONO_DIFF_FLAME_ROW_HEIGHT 20.0
/* Frames narrower than this are not drawn, nor what is under them. */
#define CHRONO_DIFF_FLAME_MIN_WIDTH 0.5

/* One frame as laid out: its node from X to X + WIDTH px, ROW rows down. */
typedef struct {
  const ChronoFlameNode *node;
  double x;
  double width;
  guint  row;
} ChronoDiffFlameFrame;

#define CHRONO_TYPE_DIFF_FLAME_PAINTER (chrono_diff_flame_painter_get_type ())
G_DECLARE_FINAL_TYPE (ChronoDiffFlamePainter, chrono_diff_flame_painter, CHRONO, DIFF_FLAME_PAINTER, GObject)

ChronoDiffFlamePainter *chrono_diff_flame_painter_new            (void);

void                  chrono_diff_flame_painter_set_tree         (ChronoDiffFlamePainter *self,
                                                                  ChronoComparisonTree   *tree);
ChronoComparisonTree *chrono_diff_flame_painter_get_tree         (ChronoDiffFlamePainter *self);
/* The node drawn across the whole width, its ancestors above it (NULL:
 * the step). */
void                  chrono_diff_flame_painter_set_focus        (ChronoDiffFlamePainter *self,
                                                                  const ChronoFlameNode  *node);
const ChronoFlameNode *chrono_diff_flame_painter_get_focus       (ChronoDiffFlamePainter *self);
/* Outlined: the keyboard's or the pointer's node (NULL for none). */
void                  chrono_diff_flame_painter_set_selected     (ChronoDiffFlamePainter *self,
                                                                  const ChronoFlameNode  *node);
void                  chrono_diff_flame_painter_set_hover        (ChronoDiffFlamePainter *self,
                                                                  const ChronoFlameNode  *node);
void                  chrono_diff_flame_painter_set_dark         (ChronoDiffFlamePainter *self,
                                                                  gboolean                dark);
void                  chrono_diff_flame_painter_set_pango_context (ChronoDiffFlamePainter *self,
                                                                   PangoContext           *context);

/* The frames at WIDTH px, ancestors of the focus first, then by row;
 * valid until the next change. */
const ChronoDiffFlameFrame *chrono_diff_flame_painter_layout     (ChronoDiffFlamePainter *self,
                                                                  double                  width,
                                                                  guint                  *n_frames);
double                chrono_diff_flame_painter_get_height       (ChronoDiffFlamePainter *self,
                                                                  double                  width);
/* The frame under (X, Y), or NULL. */
const ChronoDiffFlameFrame *chrono_diff_flame_painter_frame_at   (ChronoDiffFlamePainter *self,
                                                                  double                  width,
                                                                  double                  x,
                                                                  double                  y);

/* The frames into CR from its origin, WIDTH px wide. */
void                  chrono_diff_flame_painter_draw             (ChronoDiffFlamePainter *self,
                                                                  cairo_t                *cr,
                                                                  double                  width);

/* What colour NODE is: red where B is slower, blue where faster, more
 * saturated and darker (lighter on dark) the larger the change against
 * A; grey within the noise. */
void                  chrono_diff_flame_node_color               (const ChronoFlameNode  *node,
                                                                  gboolean                dark,
                                                                  GdkRGBA                *color);
/* "aten::mm: B 1.20 ms, A 1.00 ms, Δ +0.20 ms (+20.0%), beyond the noise" */
char                 *chrono_diff_flame_node_describe            (const ChronoFlameNode  *node);

/* A picture to share: a title, the legend, then the frames. */
double                chrono_diff_flame_painter_get_picture_height (ChronoDiffFlamePainter *self,
                                                                    double                  width);
void                  chrono_diff_flame_painter_draw_picture     (ChronoDiffFlamePainter *self,
                                                                  cairo_t                *cr,
                                                                  double                  width,
                                                                  const char             *title);

G_END_DECLS
