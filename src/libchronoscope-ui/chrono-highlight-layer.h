/* chrono-highlight-layer.h: what the analysis points at in a timeline
 * scene (a time range and its tracks, the spans of a critical path), and
 * the selected span's outline, over its rows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-scene-colors.h"
#include "chrono-timeline-scene.h"

G_BEGIN_DECLS

typedef struct _ChronoHighlightLayer ChronoHighlightLayer;

/* For SCENE, which owns it: the layer holds no reference to it. */
ChronoHighlightLayer *chrono_highlight_layer_new      (ChronoTimelineScene     *scene);
void                  chrono_highlight_layer_free     (ChronoHighlightLayer    *self);
/* TRACKS beyond the trace's are left out. */
void                  chrono_highlight_layer_set_range (ChronoHighlightLayer   *self,
                                                        gint64                  start_ns,
                                                        gint64                  end_ns,
                                                        const guint            *tracks,
                                                        guint                   n_tracks);
void                  chrono_highlight_layer_set_path (ChronoHighlightLayer    *self,
                                                       const ChronoSpanRef     *spans,
                                                       guint                    n_spans);
/* SPANS outlined: the evidence of a finding. */
void                  chrono_highlight_layer_set_marks (ChronoHighlightLayer   *self,
                                                        const ChronoSpanRef    *spans,
                                                        guint                   n_spans);
const ChronoSpanRef  *chrono_highlight_layer_get_marks (ChronoHighlightLayer   *self,
                                                        guint                  *n_spans);
/* Over the scene's track area. */
void                  chrono_highlight_layer_snapshot (ChronoHighlightLayer    *self,
                                                       GtkSnapshot             *snapshot,
                                                       const ChronoSceneColors *colors);
/* SPAN's outline, kept to its track's part of the area. */
void                  chrono_highlight_layer_snapshot_selection (ChronoHighlightLayer    *self,
                                                                 GtkSnapshot             *snapshot,
                                                                 const ChronoSceneColors *colors,
                                                                 ChronoSpanRef            span);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoHighlightLayer, chrono_highlight_layer_free)

G_END_DECLS
