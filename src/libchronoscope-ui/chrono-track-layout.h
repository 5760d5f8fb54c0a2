/* chrono-track-layout.h: which tracks the timeline shows, in which
 * order, and which stay pinned at its top
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-trace.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_TRACK_LAYOUT (chrono_track_layout_get_type ())
G_DECLARE_FINAL_TYPE (ChronoTrackLayout, chrono_track_layout, CHRONO, TRACK_LAYOUT, GObject)

/* Host tracks open showing at most this many rows (the outer levels of
 * their call stacks), so that deep Python stacks leave room for the
 * device lanes on the first screen. */
#define CHRONO_TRACK_LAYOUT_CAPPED_ROWS 6

/* Starts from the trace's own order with the devices' tracks first,
 * nothing pinned, hidden, expanded or collapsed. */
ChronoTrackLayout *chrono_track_layout_new         (ChronoTrace       *trace);
ChronoTrace       *chrono_track_layout_get_trace   (ChronoTrackLayout *self);

/* Every track, pinned and hidden ones too, grouped by process. */
const guint       *chrono_track_layout_get_order   (ChronoTrackLayout *self,
                                                    guint             *n_tracks);
/* Pinned tracks, in the order they were pinned. */
const guint       *chrono_track_layout_get_pinned  (ChronoTrackLayout *self,
                                                    guint             *n_tracks);
gboolean           chrono_track_layout_is_pinned   (ChronoTrackLayout *self,
                                                    guint              track);
void               chrono_track_layout_set_pinned  (ChronoTrackLayout *self,
                                                    guint              track,
                                                    gboolean           pinned);
gboolean           chrono_track_layout_is_hidden   (ChronoTrackLayout *self,
                                                    guint              track);
void               chrono_track_layout_set_hidden  (ChronoTrackLayout *self,
                                                    guint              track,
                                                    gboolean           hidden);
/* The counter a process's tracks derive (achieved TFLOP/s of a device),
 * drawn under them; counted with the hidden tracks, shown by show_all. */
gboolean           chrono_track_layout_is_counter_hidden  (ChronoTrackLayout *self,
                                                           guint              process);
void               chrono_track_layout_set_counter_hidden (ChronoTrackLayout *self,
                                                           guint              process,
                                                           gboolean           hidden);
guint              chrono_track_layout_get_n_hidden (ChronoTrackLayout *self);
void               chrono_track_layout_show_all    (ChronoTrackLayout *self);
/* Moves TRACK past its previous (DELTA -1) or next (+1) shown neighbour:
 * among the pinned tracks when pinned, else within its process. */
gboolean           chrono_track_layout_can_move    (ChronoTrackLayout *self,
                                                    guint              track,
                                                    int                delta);
gboolean           chrono_track_layout_move        (ChronoTrackLayout *self,
                                                    guint              track,
                                                    int                delta);

/* How many rows TRACK shows at most: G_MAXUINT for a device's track and
 * an expanded one, else CHRONO_TRACK_LAYOUT_CAPPED_ROWS. */
guint              chrono_track_layout_get_max_rows  (ChronoTrackLayout *self,
                                                      guint              track);
gboolean           chrono_track_layout_is_expanded   (ChronoTrackLayout *self,
                                                      guint              track);
void               chrono_track_layout_set_expanded  (ChronoTrackLayout *self,
                                                      guint              track,
                                                      gboolean           expanded);

/* A collapsed process shows as its header row alone. */
gboolean           chrono_track_layout_is_collapsed  (ChronoTrackLayout *self,
                                                      guint              process);
void               chrono_track_layout_set_collapsed (ChronoTrackLayout *self,
                                                      guint              process,
                                                      gboolean           collapsed);
/* Collapses or expands every process at once. */
void               chrono_track_layout_set_all_collapsed (ChronoTrackLayout *self,
                                                          gboolean           collapsed);
guint              chrono_track_layout_get_n_collapsed (ChronoTrackLayout *self);

/* The layout as a sidecar section, and back. Tracks are named by
 * process, thread and name, so a section fits the same trace after the
 * importer changes its numbering; names it does not find are dropped. */
JsonNode          *chrono_track_layout_to_json     (ChronoTrackLayout *self);
gboolean           chrono_track_layout_load_json   (ChronoTrackLayout *self,
                                                    JsonNode          *node,
                                                    GError           **error);

G_END_DECLS
