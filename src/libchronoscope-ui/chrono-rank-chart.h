/* chrono-rank-chart.h: a chart with one row per rank: a heat map of a
 * time per rank and column (step, collective), or a stacked bar per rank
 * (its ledger), drawn with cairo without a display
 *
 * Rows that share a pixel are merged as the timeline merges spans: a
 * heat map cell shows the largest value of the rows under it, a bar the
 * row least like the others under it, so one late rank among a thousand
 * still shows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <gdk/gdk.h>

G_BEGIN_DECLS

typedef enum {
  CHRONO_RANK_CHART_HEAT_MAP,   /* columns are steps or collectives, values times */
  CHRONO_RANK_CHART_BARS,       /* columns are the parts of each row's bar */
} ChronoRankChartKind;

typedef struct _ChronoRankChart ChronoRankChart;

/* The cells of the chart that a point falls on: rows FIRST_ROW to
 * LAST_ROW share its pixel; ROW is the one shown. */
typedef struct {
  guint first_row;
  guint last_row;
  guint row;
  guint col;
} ChronoRankChartHit;

ChronoRankChart *chrono_rank_chart_new        (ChronoRankChartKind kind,
                                               guint               n_rows,
                                               guint               n_cols);
void             chrono_rank_chart_free       (ChronoRankChart    *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoRankChart, chrono_rank_chart_free)

guint            chrono_rank_chart_get_n_rows (ChronoRankChart    *self);
guint            chrono_rank_chart_get_n_cols (ChronoRankChart    *self);
ChronoRankChartKind chrono_rank_chart_get_kind (ChronoRankChart   *self);
/* Nanoseconds; NaN where the rank has none. */
void             chrono_rank_chart_set_value  (ChronoRankChart    *self,
                                               guint               row,
                                               guint               col,
                                               double              value);
double           chrono_rank_chart_get_value  (ChronoRankChart    *self,
                                               guint               row,
                                               guint               col);
/* Rows are named by their rank ("700"), columns by what they hold
 * ("ProfilerStep#18"); SHORT_LABEL is what fits above a column ("#18"). */
void             chrono_rank_chart_set_row_label (ChronoRankChart *self,
                                                  guint            row,
                                                  const char      *label);
void             chrono_rank_chart_set_col_label (ChronoRankChart *self,
                                                  guint            col,
                                                  const char      *label,
                                                  const char      *short_label);
/* What the values are, for the colour scale ("arrival after the first"). */
void             chrono_rank_chart_set_value_name (ChronoRankChart *self,
                                                   const char      *name);
/* A bar's part colours, per column, for each theme. */
void             chrono_rank_chart_set_part_color (ChronoRankChart *self,
                                                   guint            col,
                                                   const GdkRGBA   *light,
                                                   const GdkRGBA   *dark);

/* The rows in view: from FIRST_ROW, N_VISIBLE of them (fractions allowed),
 * clamped to the rows there are. */
void             chrono_rank_chart_set_view   (ChronoRankChart    *self,
                                               double              first_row,
                                               double              n_visible);
double           chrono_rank_chart_get_first_row (ChronoRankChart *self);
double           chrono_rank_chart_get_n_visible (ChronoRankChart *self);
/* The cell with the keyboard focus, outlined; G_MAXUINT for none. */
void             chrono_rank_chart_set_focus  (ChronoRankChart    *self,
                                               guint               row,
                                               guint               col);

/* The cells under the pointer, outlined faintly; NULL for none. */
void             chrono_rank_chart_set_hover  (ChronoRankChart          *self,
                                               const ChronoRankChartHit *hit);

/* The plot area of a WIDTH x HEIGHT chart: inside the row labels, the
 * column labels and the colour scale. */
void             chrono_rank_chart_get_plot   (ChronoRankChart    *self,
                                               int                 width,
                                               int                 height,
                                               cairo_rectangle_t  *plot);
gboolean         chrono_rank_chart_hit_test   (ChronoRankChart    *self,
                                               int                 width,
                                               int                 height,
                                               double              x,
                                               double              y,
                                               ChronoRankChartHit *hit);
/* The rectangle of ROW and COL, which may be less than a pixel high;
 * FALSE when out of view. */
gboolean         chrono_rank_chart_get_cell_area (ChronoRankChart   *self,
                                                  int                width,
                                                  int                height,
                                                  guint              row,
                                                  guint              col,
                                                  cairo_rectangle_t *area);
/* What the hit shows, in words, for a tooltip or a screen reader. */
char            *chrono_rank_chart_describe   (ChronoRankChart    *self,
                                               const ChronoRankChartHit *hit);

/* The colour of the heat map's scale at T, 0 to 1. */
void             chrono_rank_chart_scale_color (double             t,
                                                GdkRGBA           *color);
void             chrono_rank_chart_draw       (ChronoRankChart    *self,
                                               cairo_t            *cr,
                                               int                 width,
                                               int                 height,
                                               gboolean            dark);

G_END_DECLS
