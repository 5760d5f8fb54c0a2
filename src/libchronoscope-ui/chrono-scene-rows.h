/* chrono-scene-rows.h: the blocks a timeline scene stacks top to bottom:
 * the pinned tracks under a header of their own, then each process's
 * header over its tracks, as a track layout orders, pins, hides and
 * collapses them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-timeline-scene.h"

G_BEGIN_DECLS

#define CHRONO_SCENE_COUNTER_HEIGHT 40.0
#define CHRONO_SCENE_INSTANT_HEIGHT 16.0
/* A device's achieved TFLOP/s, under its tracks. */
#define CHRONO_SCENE_FLOPS_HEIGHT   48.0
/* A device's allocated and reserved memory, under its tracks. */
#define CHRONO_SCENE_MEMORY_HEIGHT  48.0

typedef struct _ChronoSceneRows ChronoSceneRows;

/* INDEXES holds one ChronoTrackIndex per track or NULL, filled in when
 * first needed; NULL for an array of its own. */
ChronoSceneRows      *chrono_scene_rows_new          (ChronoTrace       *trace,
                                                      GPtrArray         *indexes,
                                                      ChronoTrackLayout *layout);
void                  chrono_scene_rows_free         (ChronoSceneRows   *self);
ChronoTrackIndex     *chrono_scene_rows_get_index    (ChronoSceneRows   *self,
                                                      guint              track);
/* BY_PROCESS: process -> the series of its device or NULL; NOTE_DEVICES
 * gives devices without one a row that says why. BY_PROCESS NULL for
 * no derived rows. Taken at the next build. */
void                  chrono_scene_rows_set_flops    (ChronoSceneRows   *self,
                                                      const ChronoFlopsSeries * const *by_process,
                                                      gboolean           note_devices);
/* BY_PROCESS: process -> its NeuronCore's series or NULL, whose lanes go
 * above its tracks; NULL for none. Taken at the next build. */
void                  chrono_scene_rows_set_neuron   (ChronoSceneRows   *self,
                                                      const ChronoNeuronSeries * const *by_process);
/* DEVICES: the N memories drawn, each under the tracks of its process
 * (chrono_memory_device_get_process), a row each: a process with several
 * devices gets several rows, accelerators before the host's. N 0 for
 * none. Taken at the next build. */
void                  chrono_scene_rows_set_memory   (ChronoSceneRows   *self,
                                                      const ChronoMemoryDevice * const *devices,
                                                      guint              n);
/* The rows again, from the layout as it is now. */
void                  chrono_scene_rows_build        (ChronoSceneRows   *self);
guint                 chrono_scene_rows_get_n        (ChronoSceneRows   *self);
const ChronoSceneRow *chrono_scene_rows_get          (ChronoSceneRows   *self,
                                                      guint              i);
/* The row at CONTENT_Y, unscrolled; CHRONO_SCENE_NO_ROW below them. */
guint                 chrono_scene_rows_find         (ChronoSceneRows   *self,
                                                      double             content_y);
guint                 chrono_scene_rows_get_member   (ChronoSceneRows   *self,
                                                      const ChronoSceneRow *row,
                                                      guint              n);
guint                 chrono_scene_rows_get_own_row  (ChronoSceneRows   *self,
                                                      guint              track);
guint                 chrono_scene_rows_get_track_row (ChronoSceneRows  *self,
                                                       guint             track);
guint                 chrono_scene_rows_get_process_row (ChronoSceneRows *self,
                                                         guint            process);
double                chrono_scene_rows_get_content_height (ChronoSceneRows *self);
double                chrono_scene_rows_get_pinned_height  (ChronoSceneRows *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoSceneRows, chrono_scene_rows_free)

G_END_DECLS
