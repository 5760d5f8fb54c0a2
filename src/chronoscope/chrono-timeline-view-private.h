/* chrono-timeline-view-private.h: what the timeline view's files share:
 * the view itself (chrono-timeline-view.c), its search
 * (chrono-timeline-view-search.c) and its pictures and notes files
 * (chrono-timeline-view-export.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "chrono-annotations.h"
#include "chrono-area-pane.h"
#include "chrono-sidecar.h"
#include "chrono-timeline-view.h"

G_BEGIN_DECLS

#define NO_MATCH G_MAXUINT

struct _ChronoTimelineView
{
  GtkWidget          parent_instance;

  ChronoTrace       *trace;
  GPtrArray         *indexes;  /* built by the loading thread, until constructed */
  ChronoTimeline    *timeline;
  ChronoSpanDetails *details;
  ChronoSidecar     *sidecar;
  GMenu             *hidden_menu;
  ChronoAnnotations *annotations;
  GStrv              track_keys;     /* what annotations anchor on */
  GtkFileChooserNative *chooser;
  /* The area last dragged out with Shift, for its menu. */
  gint64             area_start;
  gint64             area_end;
  GArray            *area_tracks;    /* guint */
  /* A measurement or an arrow drawn, waiting for its label. */
  ChronoAnnotation  *pending;
  guint32            annotation_color;  /* what new ones get; 0 for the accent */

  ChronoSearch      *search;
  GCancellable      *search_cancellable;
  guint              current_match;  /* rank of CURRENT, or NO_MATCH */
  ChronoSpanRef      current;

  GtkSearchBar      *search_bar;
  GtkSearchEntry    *search_entry;
  GtkLabel          *match_label;
  GtkPaned          *paned;
  ChronoAreaPane    *area_pane;
};

/* Installs the search's actions, key bindings and template callbacks. */
void chrono_timeline_view_class_add_search (GtkWidgetClass     *widget_class);
/* Installs the actions that export pictures and notes and import notes. */
void chrono_timeline_view_class_add_export (GtkWidgetClass     *widget_class);
/* Runs the search in the entry again, over the tracks as they show. */
void chrono_timeline_view_run_search       (ChronoTimelineView *self);
/* Shows how many matches there are and which one is current. */
void chrono_timeline_view_update_matches   (ChronoTimelineView *self);

G_END_DECLS
