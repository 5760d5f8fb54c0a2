/* chrono-annotation-layer.h: a timeline scene's annotations, drawn over
 * its rows: translucent over what they describe, labels beside it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-annotations.h"
#include "chrono-timeline-scene.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_ANNOTATION_LAYER (chrono_annotation_layer_get_type ())
G_DECLARE_FINAL_TYPE (ChronoAnnotationLayer, chrono_annotation_layer, CHRONO, ANNOTATION_LAYER, GObject)

/* For the annotations of SCENE's trace. */
ChronoAnnotationLayer *chrono_annotation_layer_new         (ChronoTimelineScene   *scene,
                                                            ChronoAnnotations     *annotations);
ChronoAnnotations     *chrono_annotation_layer_get_annotations (ChronoAnnotationLayer *self);
/* The span ANCHOR names in the scene's trace; FALSE when it has none. */
gboolean               chrono_annotation_layer_resolve     (ChronoAnnotationLayer  *self,
                                                            const ChronoSpanAnchor *anchor,
                                                            ChronoSpanRef          *span);
/* Over the scene's track area, in the scene's coordinates. */
void                   chrono_annotation_layer_snapshot    (ChronoAnnotationLayer  *self,
                                                            GtkSnapshot            *snapshot);

G_END_DECLS
