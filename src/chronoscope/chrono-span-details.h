/* chrono-span-details.h: everything about the selected span, beside the
 * timeline: where and when it ran, its args and the spans linked to it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-timeline.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_SPAN_DETAILS (chrono_span_details_get_type ())
G_DECLARE_FINAL_TYPE (ChronoSpanDetails, chrono_span_details, CHRONO, SPAN_DETAILS, GtkWidget)

GtkWidget      *chrono_span_details_new          (ChronoTimeline      *timeline);
ChronoTimeline *chrono_span_details_get_timeline (ChronoSpanDetails   *self);
gboolean        chrono_span_details_get_span     (ChronoSpanDetails   *self,
                                                  ChronoSpanRef       *span);
void            chrono_span_details_show_span    (ChronoSpanDetails   *self,
                                                  const ChronoSpanRef *span);

G_END_DECLS
