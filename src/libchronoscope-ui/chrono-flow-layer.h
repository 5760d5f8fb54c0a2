/* chrono-flow-layer.h: a timeline scene's arrows, over its rows: every
 * flow of the window when asked for, and the selected span's, bolder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-flow-index.h"
#include "chrono-timeline-scene.h"

G_BEGIN_DECLS

typedef struct _ChronoFlowLayer ChronoFlowLayer;

/* For SCENE, which owns it: the layer holds no reference to it. */
ChronoFlowLayer *chrono_flow_layer_new      (ChronoTimelineScene *scene,
                                             ChronoFlowIndex     *index);
void             chrono_flow_layer_free     (ChronoFlowLayer     *self);
void             chrono_flow_layer_set_dark (ChronoFlowLayer     *self,
                                             gboolean             dark);
/* The arrows are painted again when next drawn: the view, the scroll or
 * the rows moved. */
void             chrono_flow_layer_invalidate          (ChronoFlowLayer *self);
/* Only the selected span's: the selection moved. */
void             chrono_flow_layer_invalidate_selected (ChronoFlowLayer *self);
/* Over the scene's track area, AREA_HEIGHT px tall: all flows when
 * SHOW_ALL, and SELECTION's when not NULL. */
void             chrono_flow_layer_snapshot (ChronoFlowLayer     *self,
                                             GtkSnapshot         *snapshot,
                                             gboolean             show_all,
                                             const ChronoSpanRef *selection,
                                             double               area_height);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoFlowLayer, chrono_flow_layer_free)

G_END_DECLS
