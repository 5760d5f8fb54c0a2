/* chrono-timeline-view.h: the timeline of a trace with its search bar and
 * the details of the selected span, and the tracks' layout kept in the
 * trace's sidecar
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-area-pane.h"
#include "chrono-search.h"
#include "chrono-sidecar.h"
#include "chrono-span-details.h"
#include "chrono-timeline.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_TIMELINE_VIEW (chrono_timeline_view_get_type ())
G_DECLARE_FINAL_TYPE (ChronoTimelineView, chrono_timeline_view, CHRONO, TIMELINE_VIEW, GtkWidget)

GtkWidget         *chrono_timeline_view_new               (ChronoTrace        *trace,
                                                          GPtrArray          *indexes);
ChronoTimeline    *chrono_timeline_view_get_timeline      (ChronoTimelineView *self);
ChronoSpanDetails *chrono_timeline_view_get_details       (ChronoTimelineView *self);
GtkSearchBar      *chrono_timeline_view_get_search_bar    (ChronoTimelineView *self);
ChronoSidecar     *chrono_timeline_view_get_sidecar       (ChronoTimelineView *self);

/* Opens the search bar with the focus in it. */
void               chrono_timeline_view_start_search      (ChronoTimelineView *self);
/* Selects and shows the next (DIRECTION 1) or previous (-1) match. */
void               chrono_timeline_view_find              (ChronoTimelineView *self,
                                                           int                 direction);
/* The last search that finished, or NULL. */
ChronoSearch      *chrono_timeline_view_get_search        (ChronoTimelineView *self);
/* The rank among the matches of the match selected last, or G_MAXUINT;
 * SPAN (optional) gets the match. */
guint              chrono_timeline_view_get_current_match (ChronoTimelineView *self,
                                                           ChronoSpanRef      *span);

/* A menu of the hidden tracks, to show them again; it follows the layout. */
GMenuModel        *chrono_timeline_view_get_hidden_menu   (ChronoTimelineView *self);
/* Shows what annotation ID points at: its span, selected, or its time. */
void               chrono_timeline_view_show_annotation   (ChronoTimelineView *self,
                                                           guint               id);
/* The colour new annotations get, 0xRRGGBBAA; 0 for the accent. */
guint32            chrono_timeline_view_get_annotation_color (ChronoTimelineView *self);
void               chrono_timeline_view_set_annotation_color (ChronoTimelineView *self,
                                                              guint32             color);
void               chrono_timeline_view_show_track        (ChronoTimelineView *self,
                                                           guint               track);
/* The table of what TRACKS hold over [START_NS, END_NS), under the
 * timeline. */
void               chrono_timeline_view_summarize         (ChronoTimelineView *self,
                                                           gint64              start_ns,
                                                           gint64              end_ns,
                                                           const guint        *tracks,
                                                           guint               n_tracks);
ChronoAreaPane    *chrono_timeline_view_get_area_pane     (ChronoTimelineView *self);

G_END_DECLS
