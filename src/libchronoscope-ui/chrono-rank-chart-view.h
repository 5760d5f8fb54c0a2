/* chrono-rank-chart-view.h: a rank chart in a widget: scrolled and zoomed
 * over the ranks, a tooltip per cell, a cell with the keyboard focus, and
 * a signal when one is chosen
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-rank-chart.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_RANK_CHART_VIEW (chrono_rank_chart_view_get_type ())
G_DECLARE_FINAL_TYPE (ChronoRankChartView, chrono_rank_chart_view, CHRONO, RANK_CHART_VIEW, GtkWidget)

GtkWidget       *chrono_rank_chart_view_new       (void);
/* Takes CHART. */
void             chrono_rank_chart_view_set_chart (ChronoRankChartView *self,
                                                   ChronoRankChart     *chart);
ChronoRankChart *chrono_rank_chart_view_get_chart (ChronoRankChartView *self);

/* The rows in view ("first-row", "visible-rows"): views bound to each
 * other scroll and zoom together. */
double           chrono_rank_chart_view_get_first_row    (ChronoRankChartView *self);
void             chrono_rank_chart_view_set_first_row    (ChronoRankChartView *self,
                                                          double               first_row);
double           chrono_rank_chart_view_get_visible_rows (ChronoRankChartView *self);
void             chrono_rank_chart_view_set_visible_rows (ChronoRankChartView *self,
                                                          double               visible_rows);
gboolean         chrono_rank_chart_view_get_dark         (ChronoRankChartView *self);
void             chrono_rank_chart_view_set_dark         (ChronoRankChartView *self,
                                                          gboolean             dark);

/* The cell with the keyboard focus; it scrolls into view. */
void             chrono_rank_chart_view_set_focus_cell   (ChronoRankChartView *self,
                                                          guint                row,
                                                          guint                col);
gboolean         chrono_rank_chart_view_get_focus_cell   (ChronoRankChartView *self,
                                                          guint               *row,
                                                          guint               *col);
/* What the widget shows at (X, Y), or NULL. */
char            *chrono_rank_chart_view_dup_tooltip_at   (ChronoRankChartView *self,
                                                          double               x,
                                                          double               y);

G_END_DECLS
