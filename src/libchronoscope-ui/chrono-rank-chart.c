/* chrono-rank-chart.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "chrono-format.h"
#include "chrono-palette.h"
#include "chrono-rank-chart.h"
#include "chrono-text-layout.h"

#define ROW_LABEL_WIDTH 48
#define COL_LABEL_HEIGHT 20
#define SCALE_HEIGHT 34
#define SCALE_BAR_HEIGHT 10
#define PAD 4
/* Labels closer than this would overlap. */
#define MIN_ROW_LABEL_GAP 14.0
#define MIN_COL_LABEL_GAP 6.0
#define FONT "Sans 8"

struct _ChronoRankChart
{
  ChronoRankChartKind kind;
  guint     n_rows;
  guint     n_cols;
  double   *values;        /* row-major */
  char    **row_labels;
  char    **col_labels;
  char    **col_short_labels;
  char     *value_name;
  GdkRGBA  *part_light;
  GdkRGBA  *part_dark;
  double    first_row;
  double    n_visible;
  guint     focus_row;
  guint     focus_col;
  gboolean  has_hover;
  ChronoRankChartHit hover;
  gboolean  range_valid;   /* LO and HI follow the values */
  double    lo, hi;
};

ChronoRankChart *
chrono_rank_chart_new (ChronoRankChartKind kind,
                       guint               n_rows,
                       guint               n_cols)
{
  ChronoRankChart *self = g_new0 (ChronoRankChart, 1);

  self->kind = kind;
  self->n_rows = n_rows;
  self->n_cols = n_cols;
  self->values = g_new (double, (gsize) MAX (1, n_rows) * MAX (1, n_cols));
  for (gsize i = 0; i < (gsize) n_rows * n_cols; i++)
    self->values[i] = NAN;
  self->row_labels = g_new0 (char *, n_rows + 1);
  self->col_labels = g_new0 (char *, n_cols + 1);
  self->col_short_labels = g_new0 (char *, n_cols + 1);
  self->part_light = g_new0 (GdkRGBA, MAX (1, n_cols));
  self->part_dark = g_new0 (GdkRGBA, MAX (1, n_cols));
  self->n_visible = n_rows;
  self->focus_row = self->focus_col = G_MAXUINT;
  return self;
}

void
chrono_rank_chart_free (ChronoRankChart *self)
{
  if (self == NULL)
    return;
  g_free (self->values);
  g_strfreev (self->row_labels);
  g_strfreev (self->col_labels);
  g_strfreev (self->col_short_labels);
  g_free (self->value_name);
  g_free (self->part_light);
  g_free (self->part_dark);
  g_free (self);
}

guint
chrono_rank_chart_get_n_rows (ChronoRankChart *self)
{
  return self->n_rows;
}

guint
chrono_rank_chart_get_n_cols (ChronoRankChart *self)
{
  return self->n_cols;
}

ChronoRankChartKind
chrono_rank_chart_get_kind (ChronoRankChart *self)
{
  return self->kind;
}

void
chrono_rank_chart_set_value (ChronoRankChart *self,
                             guint            row,
                             guint            col,
                             double           value)
{
  g_return_if_fail (row < self->n_rows && col < self->n_cols);
  self->values[(gsize) row * self->n_cols + col] = value;
  self->range_valid = FALSE;
}

double
chrono_rank_chart_get_value (ChronoRankChart *self,
                             guint            row,
                             guint            col)
{
  g_return_val_if_fail (row < self->n_rows && col < self->n_cols, NAN);
  return self->values[(gsize) row * self->n_cols + col];
}

void
chrono_rank_chart_set_row_label (ChronoRankChart *self,
                                 guint            row,
                                 const char      *label)
{
  g_return_if_fail (row < self->n_rows);
  g_free (self->row_labels[row]);
  self->row_labels[row] = g_strdup (label);
}

void
chrono_rank_chart_set_col_label (ChronoRankChart *self,
                                 guint            col,
                                 const char      *label,
                                 const char      *short_label)
{
  g_return_if_fail (col < self->n_cols);
  g_free (self->col_labels[col]);
  g_free (self->col_short_labels[col]);
  self->col_labels[col] = g_strdup (label);
  self->col_short_labels[col] = g_strdup (short_label ? short_label : label);
}

void
chrono_rank_chart_set_value_name (ChronoRankChart *self,
                                  const char      *name)
{
  g_free (self->value_name);
  self->value_name = g_strdup (name);
}

void
chrono_rank_chart_set_part_color (ChronoRankChart *self,
                                  guint            col,
                                  const GdkRGBA   *light,
                                  const GdkRGBA   *dark)
{
  g_return_if_fail (col < self->n_cols);
  self->part_light[col] = *light;
  self->part_dark[col] = *dark;
}

void
chrono_rank_chart_set_view (ChronoRankChart *self,
                            double           first_row,
                            double           n_visible)
{
  double n = MAX (1, self->n_rows);

  self->n_visible = CLAMP (n_visible, MIN (1.0, n), n);
  self->first_row = CLAMP (first_row, 0, n - self->n_visible);
}

double
chrono_rank_chart_get_first_row (ChronoRankChart *self)
{
  return self->first_row;
}

double
chrono_rank_chart_get_n_visible (ChronoRankChart *self)
{
  return self->n_visible;
}

void
chrono_rank_chart_set_focus (ChronoRankChart *self,
                             guint            row,
                             guint            col)
{
  self->focus_row = row;
  self->focus_col = col;
}

void
chrono_rank_chart_set_hover (ChronoRankChart          *self,
                             const ChronoRankChartHit *hit)
{
  self->has_hover = hit != NULL;
  if (hit != NULL)
    self->hover = *hit;
}

void
chrono_rank_chart_get_plot (ChronoRankChart   *self,
                            int                width,
                            int                height,
                            cairo_rectangle_t *plot)
{
  double bottom = self->kind == CHRONO_RANK_CHART_HEAT_MAP ? SCALE_HEIGHT : PAD;

  plot->x = ROW_LABEL_WIDTH;
  plot->y = COL_LABEL_HEIGHT;
  plot->width = MAX (1, width - ROW_LABEL_WIDTH - PAD);
  plot->height = MAX (1, height - COL_LABEL_HEIGHT - bottom);
}

/* Columns are the parts of a bar, not places across. */
static guint
n_places (ChronoRankChart *self)
{
  return self->kind == CHRONO_RANK_CHART_HEAT_MAP ? self->n_cols : 1;
}

/* Rows under the pixel rows from Y0 to Y1 of the plot (half-open), at
 * least one. */
static void
rows_between (ChronoRankChart         *self,
              const cairo_rectangle_t *plot,
              double                   y0,
              double                   y1,
              guint                   *first,
              guint                   *last)
{
  double per_px = self->n_visible / plot->height;
  double a = self->first_row + (y0 - plot->y) * per_px;
  double b = self->first_row + (y1 - plot->y) * per_px;

  *first = (guint) CLAMP (floor (a), 0, self->n_rows - 1);
  *last = (guint) CLAMP (ceil (b) - 1, *first, self->n_rows - 1);
}

static void
update_range (ChronoRankChart *self)
{
  if (self->range_valid)
    return;
  self->lo = INFINITY;
  self->hi = -INFINITY;
  for (gsize i = 0; i < (gsize) self->n_rows * self->n_cols; i++)
    if (!isnan (self->values[i]))
      {
        self->lo = MIN (self->lo, self->values[i]);
        self->hi = MAX (self->hi, self->values[i]);
      }
  self->range_valid = TRUE;
}

/* The row with the largest value of rows FIRST to LAST in COL, or
 * G_MAXUINT when none has one. */
static guint
max_row (ChronoRankChart *self,
         guint            first,
         guint            last,
         guint            col)
{
  guint best = G_MAXUINT;
  double best_value = -INFINITY;

  for (guint r = first; r <= last; r++)
    {
      double v = self->values[(gsize) r * self->n_cols + col];

      if (!isnan (v) && v > best_value)
        {
          best_value = v;
          best = r;
        }
    }
  return best;
}

/* Of rows FIRST to LAST, the one whose bar is most unlike their mean:
 * the largest sum of differences of its shares from the mean shares. */
static guint
outlier_row (ChronoRankChart *self,
             guint            first,
             guint            last)
{
  g_autofree double *mean = g_new0 (double, self->n_cols);
  double best_distance = -1;
  guint best = first;

  for (guint r = first; r <= last; r++)
    {
      double total = 0;

      for (guint c = 0; c < self->n_cols; c++)
        total += isnan (self->values[(gsize) r * self->n_cols + c]) ? 0 : self->values[(gsize) r * self->n_cols + c];
      for (guint c = 0; c < self->n_cols && total > 0; c++)
        {
          double v = self->values[(gsize) r * self->n_cols + c];

          mean[c] += (isnan (v) ? 0 : v) / total / (last - first + 1);
        }
    }
  for (guint r = first; r <= last; r++)
    {
      double total = 0, distance = 0;

      for (guint c = 0; c < self->n_cols; c++)
        total += isnan (self->values[(gsize) r * self->n_cols + c]) ? 0 : self->values[(gsize) r * self->n_cols + c];
      for (guint c = 0; c < self->n_cols && total > 0; c++)
        {
          double v = self->values[(gsize) r * self->n_cols + c];

          distance += fabs ((isnan (v) ? 0 : v) / total - mean[c]);
        }
      if (distance > best_distance)
        {
          best_distance = distance;
          best = r;
        }
    }
  return best;
}

/* The row that rows FIRST to LAST show together: in a heat map the one
 * with the largest value in COL, in bars the one least like the others,
 * so one rank apart among many still shows. */
static guint
shown_row (ChronoRankChart *self,
           guint            first,
           guint            last,
           guint            col)
{
  guint r;

  if (first == last)
    return first;
  if (self->kind == CHRONO_RANK_CHART_BARS)
    return outlier_row (self, first, last);
  r = max_row (self, first, last, col);
  return r != G_MAXUINT ? r : first;
}

gboolean
chrono_rank_chart_hit_test (ChronoRankChart    *self,
                            int                 width,
                            int                 height,
                            double              x,
                            double              y,
                            ChronoRankChartHit *hit)
{
  cairo_rectangle_t plot;
  double px_per_row;

  if (self->n_rows == 0 || self->n_cols == 0)
    return FALSE;
  chrono_rank_chart_get_plot (self, width, height, &plot);
  if (x < plot.x || x >= plot.x + plot.width || y < plot.y || y >= plot.y + plot.height)
    return FALSE;
  px_per_row = plot.height / self->n_visible;
  if (px_per_row >= 1)
    hit->first_row = hit->last_row = (guint) MIN (self->first_row + (y - plot.y) / px_per_row,
                                                  self->n_rows - 1);
  else
    rows_between (self, &plot, floor (y), floor (y) + 1, &hit->first_row, &hit->last_row);
  hit->col = self->kind == CHRONO_RANK_CHART_HEAT_MAP
             ? (guint) MIN ((x - plot.x) / plot.width * self->n_cols, self->n_cols - 1) : 0;
  hit->row = shown_row (self, hit->first_row, hit->last_row, hit->col);
  return TRUE;
}

gboolean
chrono_rank_chart_get_cell_area (ChronoRankChart   *self,
                                 int                width,
                                 int                height,
                                 guint              row,
                                 guint              col,
                                 cairo_rectangle_t *area)
{
  cairo_rectangle_t plot;
  double px_per_row, col_width;

  if (row >= self->n_rows || col >= self->n_cols)
    return FALSE;
  chrono_rank_chart_get_plot (self, width, height, &plot);
  px_per_row = plot.height / self->n_visible;
  col_width = plot.width / n_places (self);
  area->x = plot.x + (self->kind == CHRONO_RANK_CHART_HEAT_MAP ? col * col_width : 0);
  area->width = col_width;
  area->y = plot.y + (row - self->first_row) * px_per_row;
  area->height = px_per_row;
  return area->y + area->height > plot.y && area->y < plot.y + plot.height;
}

static void
format_value (ChronoRankChart *self,
              double           value,
              GString         *out)
{
  g_autofree char *text = chrono_format_duration ((gint64) llround (value));

  g_string_append (out, text);
}

char *
chrono_rank_chart_describe (ChronoRankChart          *self,
                            const ChronoRankChartHit *hit)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *row = self->row_labels[hit->row] ? self->row_labels[hit->row] : "?";

  if (self->kind == CHRONO_RANK_CHART_HEAT_MAP)
    {
      double value = self->values[(gsize) hit->row * self->n_cols + hit->col];
      const char *col = self->col_labels[hit->col] ? self->col_labels[hit->col] : "";

      if (hit->first_row != hit->last_row)
        /* Translators: ranks that share a pixel row, "ranks 512 to 519", then the one shown */
        g_string_append_printf (out, _("Ranks %s to %s, %s\nlargest: rank %s, "),
                                self->row_labels[hit->first_row], self->row_labels[hit->last_row], col, row);
      else
        /* Translators: a heat map cell, "Rank 700, ProfilerStep#18: " */
        g_string_append_printf (out, _("Rank %s, %s: "), row, col);
      if (isnan (value))
        g_string_append (out, _("not in this rank’s trace"));
      else
        {
          format_value (self, value, out);
          if (self->value_name != NULL)
            g_string_append_printf (out, " %s", self->value_name);
        }
      return g_string_free (g_steal_pointer (&out), FALSE);
    }

  if (hit->first_row != hit->last_row)
    /* Translators: ranks that share a bar, "Ranks 512 to 519; shown: rank 515:" */
    g_string_append_printf (out, _("Ranks %s to %s; shown, the least like the others: rank %s:"),
                            self->row_labels[hit->first_row], self->row_labels[hit->last_row], row);
  else
    g_string_append_printf (out, _("Rank %s:"), row);
  {
    double total = 0;

    for (guint c = 0; c < self->n_cols; c++)
      {
        double v = self->values[(gsize) hit->row * self->n_cols + c];

        total += isnan (v) ? 0 : v;
      }
    for (guint c = 0; c < self->n_cols; c++)
      {
        double v = self->values[(gsize) hit->row * self->n_cols + c];

        if (isnan (v) || v <= 0)
          continue;
        g_string_append_printf (out, "\n%s ", self->col_labels[c] ? self->col_labels[c] : "");
        format_value (self, v, out);
        g_string_append_printf (out, " (%.0f%%)", 100 * v / total);
      }
  }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

void
chrono_rank_chart_scale_color (double   t,
                               GdkRGBA *color)
{
  /* Viridis: dark violet to yellow, even in lightness, read in either
   * theme and by every kind of colour vision. */
  static const float stops[][3] = {
    { 0.267f, 0.005f, 0.329f }, { 0.283f, 0.141f, 0.458f }, { 0.254f, 0.265f, 0.530f },
    { 0.207f, 0.372f, 0.553f }, { 0.164f, 0.471f, 0.558f }, { 0.128f, 0.567f, 0.551f },
    { 0.135f, 0.659f, 0.518f }, { 0.267f, 0.749f, 0.441f }, { 0.478f, 0.821f, 0.318f },
    { 0.741f, 0.873f, 0.150f }, { 0.993f, 0.906f, 0.144f },
  };
  double x = CLAMP (t, 0, 1) * (G_N_ELEMENTS (stops) - 1);
  guint i = MIN ((guint) x, G_N_ELEMENTS (stops) - 2);
  double f = x - i;

  color->red = stops[i][0] + f * (stops[i + 1][0] - stops[i][0]);
  color->green = stops[i][1] + f * (stops[i + 1][1] - stops[i][1]);
  color->blue = stops[i][2] + f * (stops[i + 1][2] - stops[i][2]);
  color->alpha = 1;
}

static void
show_text (cairo_t       *cr,
           PangoLayout   *layout,
           const char    *text,
           double         x,
           double         y,
           double         xalign,
           double         yalign,
           double        *width)
{
  int w, h;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  if (width != NULL)
    *width = w;
  cairo_move_to (cr, x - xalign * w, y - yalign * h);
  pango_cairo_show_layout (cr, layout);
}

/* Every K-th row's label, K a round number that keeps them apart. */
static guint
label_step (double px_per_item,
            double min_gap)
{
  static const guint steps[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000 };

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] * px_per_item >= min_gap)
      return steps[i];
  return G_MAXUINT / 2;
}

static void
draw_heat_cells (ChronoRankChart         *self,
                 cairo_t                 *cr,
                 const cairo_rectangle_t *plot,
                 const GdkRGBA           *missing)
{
  double px_per_row = plot->height / self->n_visible;
  double col_width = plot->width / self->n_cols;
  double span = self->hi > self->lo ? self->hi - self->lo : 0;
  /* One band per row when rows are a pixel or more, else one per pixel. */
  guint n_bands = px_per_row >= 1 ? (guint) ceil (self->n_visible) + 1 : (guint) ceil (plot->height);
  guint first_whole = (guint) floor (self->first_row);

  for (guint band = 0; band < n_bands; band++)
    {
      guint first, last;
      double y0, y1;

      if (px_per_row >= 1)
        {
          first = last = first_whole + band;
          if (first >= self->n_rows)
            break;
          y0 = plot->y + (first - self->first_row) * px_per_row;
          y1 = y0 + px_per_row;
        }
      else
        {
          y0 = plot->y + band;
          y1 = y0 + 1;
          rows_between (self, plot, y0, y1, &first, &last);
        }
      for (guint c = 0; c < self->n_cols; c++)
        {
          guint r = shown_row (self, first, last, c);
          GdkRGBA color;

          if (isnan (self->values[(gsize) r * self->n_cols + c]))
            color = *missing;
          else
            chrono_rank_chart_scale_color (span > 0 ? (self->values[(gsize) r * self->n_cols + c] - self->lo) / span
                                                    : 0.5, &color);
          gdk_cairo_set_source_rgba (cr, &color);
          /* Cells of a pixel or more keep a hairline apart. */
          cairo_rectangle (cr, plot->x + c * col_width, y0,
                           col_width > 4 ? col_width - 1 : col_width,
                           px_per_row > 4 ? y1 - y0 - 1 : y1 - y0);
          cairo_fill (cr);
        }
    }
}

static void
draw_bars (ChronoRankChart         *self,
           cairo_t                 *cr,
           const cairo_rectangle_t *plot,
           gboolean                 dark)
{
  double px_per_row = plot->height / self->n_visible;
  guint n_bands = px_per_row >= 1 ? (guint) ceil (self->n_visible) + 1 : (guint) ceil (plot->height);
  guint first_whole = (guint) floor (self->first_row);
  g_autofree double *parts = g_new (double, self->n_cols);

  for (guint band = 0; band < n_bands; band++)
    {
      guint first, last;
      double y0, y1, total = 0, x = plot->x;

      if (px_per_row >= 1)
        {
          first = last = first_whole + band;
          if (first >= self->n_rows)
            break;
          y0 = plot->y + (first - self->first_row) * px_per_row;
          y1 = y0 + px_per_row;
          /* A gap between bars, and bars no taller than they read well. */
          if (px_per_row > 4)
            {
              double h = MIN (px_per_row - 2, 18);

              y0 += (px_per_row - h) / 2;
              y1 = y0 + h;
            }
        }
      else
        {
          y0 = plot->y + band;
          y1 = y0 + 1;
          rows_between (self, plot, y0, y1, &first, &last);
        }
      for (guint c = 0, r = shown_row (self, first, last, 0); c < self->n_cols; c++)
        {
          double v = self->values[(gsize) r * self->n_cols + c];

          parts[c] = isnan (v) ? 0 : v;
          total += parts[c];
        }
      for (guint c = 0; c < self->n_cols && total > 0; c++)
        {
          double w = plot->width * parts[c] / total;

          gdk_cairo_set_source_rgba (cr, dark ? &self->part_dark[c] : &self->part_light[c]);
          cairo_rectangle (cr, x, y0, w, y1 - y0);
          cairo_fill (cr);
          x += w;
        }
    }
}

static void
draw_scale (ChronoRankChart         *self,
            cairo_t                 *cr,
            PangoLayout             *layout,
            const cairo_rectangle_t *plot,
            const GdkRGBA           *text)
{
  double y = plot->y + plot->height + PAD + 2;
  double width = MIN (plot->width, 240);
  g_autoptr(GString) lo = g_string_new (NULL);
  g_autoptr(GString) hi = g_string_new (NULL);

  if (!isfinite (self->lo))
    return;
  for (int x = 0; x < width; x++)
    {
      GdkRGBA color;

      chrono_rank_chart_scale_color (x / MAX (1, width - 1), &color);
      gdk_cairo_set_source_rgba (cr, &color);
      cairo_rectangle (cr, plot->x + x, y, 1, SCALE_BAR_HEIGHT);
      cairo_fill (cr);
    }
  format_value (self, self->lo, lo);
  format_value (self, self->hi, hi);
  gdk_cairo_set_source_rgba (cr, text);
  show_text (cr, layout, lo->str, plot->x, y + SCALE_BAR_HEIGHT + 1, 0, 0, NULL);
  show_text (cr, layout, hi->str, plot->x + width, y + SCALE_BAR_HEIGHT + 1, 1, 0, NULL);
  if (self->value_name != NULL && plot->width > width + 8)
    show_text (cr, layout, self->value_name, plot->x + width + 8, y + SCALE_BAR_HEIGHT / 2.0, 0, 0.5, NULL);
}

static void
draw_labels (ChronoRankChart         *self,
             cairo_t                 *cr,
             PangoLayout             *layout,
             const cairo_rectangle_t *plot,
             const GdkRGBA           *text)
{
  double px_per_row = plot->height / self->n_visible;
  guint step = label_step (px_per_row, MIN_ROW_LABEL_GAP);
  guint first = (guint) floor (self->first_row / step) * step;

  gdk_cairo_set_source_rgba (cr, text);
  for (guint r = first; r < self->n_rows && r <= self->first_row + self->n_visible; r += step)
    {
      double y = plot->y + (r + 0.5 - self->first_row) * px_per_row;

      if (r < self->first_row || self->row_labels[r] == NULL)
        continue;
      show_text (cr, layout, self->row_labels[r], plot->x - PAD, MIN (y, plot->y + plot->height - 6), 1, 0.5,
                 NULL);
    }

  if (self->kind == CHRONO_RANK_CHART_HEAT_MAP)
    {
      double col_width = plot->width / self->n_cols;
      double widest = 0;

      for (guint c = 0; c < self->n_cols; c++)
        if (self->col_short_labels[c] != NULL)
          {
            int w;

            pango_layout_set_text (layout, self->col_short_labels[c], -1);
            pango_layout_get_pixel_size (layout, &w, NULL);
            widest = MAX (widest, w);
          }
      step = label_step (col_width, widest + MIN_COL_LABEL_GAP);
      for (guint c = 0; c < self->n_cols; c += step)
        if (self->col_short_labels[c] != NULL)
          show_text (cr, layout, self->col_short_labels[c], plot->x + (c + 0.5) * col_width, plot->y - 2, 0.5, 1,
                     NULL);
    }
  else if (self->value_name != NULL)
    {
      double name_width;
      int end_width;

      show_text (cr, layout, self->value_name, plot->x, plot->y - 2, 0, 1, &name_width);
      pango_layout_set_text (layout, "100%", -1);
      pango_layout_get_pixel_size (layout, &end_width, NULL);
      if (name_width + end_width + 8 <= plot->width)
        show_text (cr, layout, "100%", plot->x + plot->width, plot->y - 2, 1, 1, NULL);
    }
}

void
chrono_rank_chart_draw (ChronoRankChart *self,
                        cairo_t         *cr,
                        int              width,
                        int              height,
                        gboolean         dark)
{
  g_autoptr(PangoLayout) layout = pango_cairo_create_layout (cr);
  g_autoptr(PangoFontDescription) font = pango_font_description_from_string (FONT);
  GdkRGBA background, text, accent, missing;
  cairo_rectangle_t plot, focus;

  chrono_palette_canvas_colors (dark, &background, &text, &accent);
  gdk_cairo_set_source_rgba (cr, &background);
  cairo_paint (cr);
  if (self->n_rows == 0 || self->n_cols == 0)
    return;

  pango_layout_set_font_description (layout, font);
  chrono_text_layout_disable_ligatures (layout);
  chrono_rank_chart_get_plot (self, width, height, &plot);
  update_range (self);
  missing = text;
  missing.alpha = 0.08;

  cairo_save (cr);
  cairo_rectangle (cr, plot.x, plot.y, plot.width, plot.height);
  cairo_clip (cr);
  if (self->kind == CHRONO_RANK_CHART_HEAT_MAP)
    draw_heat_cells (self, cr, &plot, &missing);
  else
    draw_bars (self, cr, &plot, dark);
  if (self->has_hover &&
      chrono_rank_chart_get_cell_area (self, width, height, self->hover.first_row, self->hover.col, &focus))
    {
      cairo_rectangle_t last;

      /* Every row under the pointer's pixel, at least a pixel high. */
      chrono_rank_chart_get_cell_area (self, width, height, self->hover.last_row, self->hover.col, &last);
      gdk_cairo_set_source_rgba (cr, &text);
      cairo_set_line_width (cr, 1);
      cairo_rectangle (cr, focus.x + 0.5, floor (focus.y) - 0.5, focus.width - 1,
                       MAX (2, ceil (last.y + last.height) - floor (focus.y)) + 1);
      cairo_stroke (cr);
    }
  if (self->focus_row != G_MAXUINT &&
      chrono_rank_chart_get_cell_area (self, width, height, self->focus_row, self->focus_col, &focus))
    {
      /* A row thinner than the outline is outlined around its pixel. */
      double grow = MAX (0, 3 - focus.height) / 2;

      gdk_cairo_set_source_rgba (cr, &accent);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, focus.x + 1, focus.y - grow + 1, focus.width - 2, focus.height + 2 * grow - 2);
      cairo_stroke (cr);
    }
  cairo_restore (cr);

  draw_labels (self, cr, layout, &plot, &text);
  if (self->kind == CHRONO_RANK_CHART_HEAT_MAP)
    draw_scale (self, cr, layout, &plot, &text);
}
