/* chrono-track-builder-private.h: the passes that finish the built
 * tracks, shared by the files that hold them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-track-builder.h"

G_BEGIN_DECLS

/* The order that sorts K1 ascending, then K2 descending (longer spans
 * first, so that parents come before the children that start with them),
 * then by index; NULL when the data is in order already. K2 may be NULL. */
guint32 *chrono_track_sort_order               (const gint64       *k1,
                                                const gint64       *k2,
                                                guint32             n);
/* Sorts B's spans, instants and samples, and keeps where each span went. */
void     chrono_track_builder_sort             (ChronoTrackBuilder *b);

/* Makes B's marks into spans; returns the ends that close nothing. */
guint64  chrono_track_builder_pair_marks       (ChronoTrace        *trace,
                                                ChronoTrackBuilder *b,
                                                GArray             *v2_binds);
void     chrono_track_builder_lay_out          (ChronoTrackBuilder *b);

/* Links s/t/f chains; returns the events left without a partner, and
 * counts in *NO_START those of them that are ends on a slice of an id that
 * never started: Kineto writes one on every runtime call, also those that
 * launch nothing. */
guint64  chrono_track_bind_v1_flows            (GArray             *events,
                                                guint               n_tracks,
                                                GPtrArray          *builders,
                                                GArray             *flows,
                                                guint64            *no_start);
void     chrono_track_bind_v2_flows            (GArray             *binds,
                                                GArray             *flows);
void     chrono_track_link_launches            (GPtrArray          *builders,
                                                GArray             *flows);
/* Makes a flow from a host thread to a stream's span nothing launched
 * that span's launch: moves it from FLOWS to LAUNCHES. */
void     chrono_track_promote_launch_flows     (GPtrArray          *builders,
                                                guint               n_tracks,
                                                GArray             *flows,
                                                GArray             *launches);
/* Edges the importer made itself, from span indices at add time. */
void     chrono_track_add_span_edges           (ChronoTrace        *trace,
                                                GArray             *edges);

void     chrono_track_read_distributed_info    (ChronoTrace        *trace);
void     chrono_track_name_processes           (ChronoTrace        *trace);
void     chrono_track_name                     (ChronoTrace        *trace,
                                                ChronoTrack        *t);

G_END_DECLS
