/* chrono-findings-content.h: what the findings panel shows, built from an
 * analysis
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-analysis.h"

G_BEGIN_DECLS

void        chrono_findings_remove_children    (GtkWidget               *widget);
/* A label that wraps, narrow enough not to widen the panel. */
GtkWidget  *chrono_findings_new_label          (const char              *text,
                                                const char              *css_class);
/* A time of the trace, from its start, as the ruler shows it. */
char       *chrono_findings_format_time        (ChronoTrace             *trace,
                                                gint64                   ns);
char       *chrono_findings_format_span_name   (ChronoTrace             *trace,
                                                ChronoSpanRef            span);
void        chrono_findings_get_category_color (ChronoPathCategory       category,
                                                GdkRGBA                 *color);
const char *chrono_findings_get_category_title (ChronoPathCategory       category);
/* A coloured dot before TEXT, in markup. */
char       *chrono_findings_dot_markup         (const GdkRGBA           *color,
                                                const char              *text);

/* The row of finding INDEX, its advice and actions hidden until it is
 * selected. */
GtkWidget  *chrono_findings_create_finding_row (ChronoAnalysis          *analysis,
                                                ChronoTrace             *trace,
                                                guint                    index);
/* The row that lists more findings; its label is set by the list. */
GtkWidget  *chrono_findings_create_more_row    (void);
/* BOX made the summary over the list: what the trace does not show, then
 * the devices that could win back most. */
void        chrono_findings_fill_summary       (GtkBox                  *box,
                                                ChronoAnalysis          *analysis,
                                                ChronoTrace             *trace);
/* BREAKDOWN_BOX made each device's and stream's breakdown of its time. */
void        chrono_findings_fill_breakdowns    (GtkBox                  *breakdown_box,
                                                ChronoAnalysis          *analysis,
                                                ChronoTrace             *trace);

G_END_DECLS
