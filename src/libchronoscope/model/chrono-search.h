/* chrono-search.h: the spans whose name contains a text, in time order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "chrono-trace.h"

G_BEGIN_DECLS

/* The result of one search, immutable once made: read it from any thread. */
#define CHRONO_TYPE_SEARCH (chrono_search_get_type ())
G_DECLARE_FINAL_TYPE (ChronoSearch, chrono_search, CHRONO, SEARCH, GObject)

/* Spans of TRACE whose name contains TEXT, ignoring case; tracks with
 * SKIP[track] set are left out (SKIP may be NULL). Linear in spans plus
 * distinct names: names are matched once, spans by their name id. */
ChronoSearch        *chrono_search_new             (ChronoTrace         *trace,
                                                    const char          *text,
                                                    const gboolean      *skip);
/* The same on a worker thread. */
void                 chrono_search_new_async       (ChronoTrace         *trace,
                                                    const char          *text,
                                                    const gboolean      *skip,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
ChronoSearch        *chrono_search_new_finish      (GAsyncResult        *result,
                                                    GError             **error);
typedef gboolean (*ChronoSearchNameFunc) (const char *name,
                                          gpointer    user_data);
/* Spans whose name MATCH accepts, each distinct name asked once; TEXT
 * says what they are. Safe on a worker thread. */
ChronoSearch        *chrono_search_new_for_names   (ChronoTrace         *trace,
                                                    const char          *text,
                                                    ChronoSearchNameFunc match,
                                                    gpointer             user_data,
                                                    GCancellable        *cancellable);

ChronoTrace         *chrono_search_get_trace       (ChronoSearch        *self);
const char          *chrono_search_get_text        (ChronoSearch        *self);
guint                chrono_search_get_n_matches   (ChronoSearch        *self);
/* Matches go by start, then track, then index in the track. The one after
 * (DIRECTION 1) or before (-1) FROM, or when FROM is NULL the first or
 * the last; FALSE when there is none. Both this and get_rank() take
 * O(tracks · log matches): no list of all matches is ever made, so a
 * search that finds ten million spans costs little more than one that
 * finds ten. */
gboolean             chrono_search_step            (ChronoSearch        *self,
                                                    const ChronoSpanRef *from,
                                                    int                  direction,
                                                    ChronoSpanRef       *match);
/* How many matches come before SPAN (a match or not). */
guint                chrono_search_get_rank        (ChronoSearch        *self,
                                                    ChronoSpanRef        span);
/* The first match that starts at or after TIME_NS. */
gboolean             chrono_search_find_from       (ChronoSearch        *self,
                                                    gint64               time_ns,
                                                    ChronoSpanRef       *match);
/* The matches of one track, by index. */
const guint32       *chrono_search_get_track_matches (ChronoSearch      *self,
                                                    guint                track,
                                                    guint               *n_matches);
/* Whether spans named NAME_ID match (skipped tracks aside). */
gboolean             chrono_search_matches_name    (ChronoSearch        *self,
                                                    guint32              name_id);

G_END_DECLS
