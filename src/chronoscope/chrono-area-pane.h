/* chrono-area-pane.h: the table of what an area of the timeline holds,
 * under the timeline: its spans grouped, its counters; a row chosen marks
 * its spans on the timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-area-stats.h"
#include "chrono-timeline.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_AREA_PANE (chrono_area_pane_get_type ())
G_DECLARE_FINAL_TYPE (ChronoAreaPane, chrono_area_pane, CHRONO, AREA_PANE, GtkWidget)

void             chrono_area_pane_set_timeline   (ChronoAreaPane *self,
                                                  ChronoTimeline *timeline);
/* Summarizes TRACKS over [START_NS, END_NS) on a worker thread, the last
 * summary still running cancelled; the pane shows itself. */
void             chrono_area_pane_summarize      (ChronoAreaPane *self,
                                                  gint64          start_ns,
                                                  gint64          end_ns,
                                                  const guint    *tracks,
                                                  guint           n_tracks);
/* The summary shown, NULL while one is worked out. */
ChronoAreaStats *chrono_area_pane_get_stats      (ChronoAreaPane *self);
/* The rows of spans as the table shows them, filtered and sorted:
 * ChronoAreaItem. */
GListModel      *chrono_area_pane_get_rows       (ChronoAreaPane *self);
/* The spans of the row chosen last, by start, the one shown as CURRENT. */
const ChronoSpanRef *chrono_area_pane_get_marked (ChronoAreaPane *self,
                                                  guint          *n_spans,
                                                  guint          *current);
/* The table as shown, tab-separated with times in ns, or as Markdown. */
char            *chrono_area_pane_dup_text       (ChronoAreaPane *self,
                                                  gboolean        markdown);

G_END_DECLS
