/* chrono-rank-chart-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "chrono-rank-chart-view.h"

/* Rows a wheel step scrolls, as a share of those in view. */
#define SCROLL_SHARE 0.1
#define ZOOM_STEP 1.25

struct _ChronoRankChartView
{
  GtkWidget        parent_instance;

  ChronoRankChart *chart;
  gboolean         dark;
  guint            focus_row;   /* G_MAXUINT: none yet */
  guint            focus_col;
  double           pointer_y;
};

G_DEFINE_FINAL_TYPE (ChronoRankChartView, chrono_rank_chart_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_FIRST_ROW,
  PROP_VISIBLE_ROWS,
  PROP_DARK,
  N_PROPS
};

enum {
  CELL_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
set_view (ChronoRankChartView *self,
          double               first_row,
          double               visible_rows)
{
  double old_first, old_visible;

  if (self->chart == NULL)
    return;
  old_first = chrono_rank_chart_get_first_row (self->chart);
  old_visible = chrono_rank_chart_get_n_visible (self->chart);
  chrono_rank_chart_set_view (self->chart, first_row, visible_rows);
  if (chrono_rank_chart_get_n_visible (self->chart) != old_visible)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_ROWS]);
  if (chrono_rank_chart_get_first_row (self->chart) != old_first)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FIRST_ROW]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
update_description (ChronoRankChartView *self)
{
  ChronoRankChartHit hit;
  g_autofree char *text = NULL;

  if (self->chart == NULL || self->focus_row == G_MAXUINT)
    return;
  hit = (ChronoRankChartHit) { self->focus_row, self->focus_row, self->focus_row, self->focus_col };
  text = chrono_rank_chart_describe (self->chart, &hit);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

void
chrono_rank_chart_view_set_focus_cell (ChronoRankChartView *self,
                                       guint                row,
                                       guint                col)
{
  double first, visible;
  guint n_rows;

  g_return_if_fail (CHRONO_IS_RANK_CHART_VIEW (self));
  if (self->chart == NULL || (n_rows = chrono_rank_chart_get_n_rows (self->chart)) == 0)
    return;
  self->focus_row = MIN (row, n_rows - 1);
  self->focus_col = chrono_rank_chart_get_kind (self->chart) == CHRONO_RANK_CHART_HEAT_MAP
                    ? MIN (col, chrono_rank_chart_get_n_cols (self->chart) - 1) : 0;
  chrono_rank_chart_set_focus (self->chart, self->focus_row, self->focus_col);
  first = chrono_rank_chart_get_first_row (self->chart);
  visible = chrono_rank_chart_get_n_visible (self->chart);
  if (self->focus_row < first)
    set_view (self, self->focus_row, visible);
  else if (self->focus_row + 1 > first + visible)
    set_view (self, self->focus_row + 1 - visible, visible);
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
chrono_rank_chart_view_get_focus_cell (ChronoRankChartView *self,
                                       guint               *row,
                                       guint               *col)
{
  g_return_val_if_fail (CHRONO_IS_RANK_CHART_VIEW (self), FALSE);
  if (self->focus_row == G_MAXUINT)
    return FALSE;
  *row = self->focus_row;
  *col = self->focus_col;
  return TRUE;
}

static void
activate_focus (ChronoRankChartView *self)
{
  if (self->focus_row != G_MAXUINT)
    g_signal_emit (self, signals[CELL_ACTIVATED], 0, self->focus_row, self->focus_col);
}

/* Zooms by FACTOR (above 1: fewer rows) around ROW. */
static void
zoom_around (ChronoRankChartView *self,
             double               row,
             double               factor)
{
  double first = chrono_rank_chart_get_first_row (self->chart);
  double visible = chrono_rank_chart_get_n_visible (self->chart);
  double new_visible = visible / factor;
  double share = visible > 0 ? (row - first) / visible : 0;

  set_view (self, row - share * new_visible, new_visible);
}

/* The row and column the keys move from: the focus, or the first row in
 * view before there is one. */
static gboolean
get_key_cell (ChronoRankChartView *self,
              guint               *row,
              guint               *col)
{
  if (self->chart == NULL || chrono_rank_chart_get_n_rows (self->chart) == 0)
    return FALSE;
  *row = self->focus_row == G_MAXUINT ? (guint) chrono_rank_chart_get_first_row (self->chart) : self->focus_row;
  *col = self->focus_row == G_MAXUINT ? 0 : self->focus_col;
  return TRUE;
}

/* Moves the focus by (ROWS, COLS), clamped; rows of G_MAXINT / 2 (or
 * minus) are the last (first) row. */
static gboolean
move_cb (GtkWidget *widget,
         GVariant  *args,
         gpointer   user_data)
{
  ChronoRankChartView *self = CHRONO_RANK_CHART_VIEW (widget);
  gint64 row, col, n_rows;
  int rows, cols;
  guint r, c;

  if (!get_key_cell (self, &r, &c))
    return FALSE;
  g_variant_get (args, "(ii)", &rows, &cols);
  n_rows = chrono_rank_chart_get_n_rows (self->chart);
  row = CLAMP ((gint64) r + rows, 0, n_rows - 1);
  col = CLAMP ((gint64) c + cols, 0, (gint64) chrono_rank_chart_get_n_cols (self->chart) - 1);
  chrono_rank_chart_view_set_focus_cell (self, (guint) row, (guint) col);
  return TRUE;
}

/* Moves the focus by DIRECTION times the rows in view. */
static gboolean
page_cb (GtkWidget *widget,
         GVariant  *args,
         gpointer   user_data)
{
  ChronoRankChartView *self = CHRONO_RANK_CHART_VIEW (widget);
  double visible;
  gint64 row;
  guint r, c;

  if (!get_key_cell (self, &r, &c))
    return FALSE;
  visible = MAX (1, floor (chrono_rank_chart_get_n_visible (self->chart)));
  row = CLAMP ((gint64) r + g_variant_get_int32 (args) * (gint64) visible, 0,
               (gint64) chrono_rank_chart_get_n_rows (self->chart) - 1);
  chrono_rank_chart_view_set_focus_cell (self, (guint) row, c);
  return TRUE;
}

/* Zooms by the factor in ARGS around the focus; 0 shows every row. */
static gboolean
zoom_cb (GtkWidget *widget,
         GVariant  *args,
         gpointer   user_data)
{
  ChronoRankChartView *self = CHRONO_RANK_CHART_VIEW (widget);
  double factor = g_variant_get_double (args);
  guint r, c;

  if (!get_key_cell (self, &r, &c))
    return FALSE;
  if (factor == 0)
    set_view (self, 0, chrono_rank_chart_get_n_rows (self->chart));
  else
    zoom_around (self, r + 0.5, factor);
  return TRUE;
}

static gboolean
activate_cb (GtkWidget *widget,
             GVariant  *args,
             gpointer   user_data)
{
  ChronoRankChartView *self = CHRONO_RANK_CHART_VIEW (widget);
  guint r, c;

  if (!get_key_cell (self, &r, &c))
    return FALSE;
  if (self->focus_row == G_MAXUINT)
    chrono_rank_chart_view_set_focus_cell (self, r, c);
  activate_focus (self);
  return TRUE;
}

static void
add_key_bindings (GtkWidgetClass *widget_class)
{
  static const struct {
    guint keyval;
    int   rows;
    int   cols;
  } moves[] = {
    { GDK_KEY_Up, -1, 0 }, { GDK_KEY_KP_Up, -1, 0 },
    { GDK_KEY_Down, 1, 0 }, { GDK_KEY_KP_Down, 1, 0 },
    { GDK_KEY_Left, 0, -1 }, { GDK_KEY_KP_Left, 0, -1 },
    { GDK_KEY_Right, 0, 1 }, { GDK_KEY_KP_Right, 0, 1 },
    { GDK_KEY_Home, -G_MAXINT / 2, 0 }, { GDK_KEY_KP_Home, -G_MAXINT / 2, 0 },
    { GDK_KEY_End, G_MAXINT / 2, 0 }, { GDK_KEY_KP_End, G_MAXINT / 2, 0 },
  };
  static const struct {
    guint  keyval;
    double factor;
  } zooms[] = {
    { GDK_KEY_plus, 2 }, { GDK_KEY_equal, 2 }, { GDK_KEY_KP_Add, 2 },
    { GDK_KEY_minus, 0.5 }, { GDK_KEY_KP_Subtract, 0.5 },
    { GDK_KEY_0, 0 }, { GDK_KEY_KP_0, 0 },
  };
  static const guint activates[] = { GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter, GDK_KEY_space };

  for (guint i = 0; i < G_N_ELEMENTS (moves); i++)
    gtk_widget_class_add_binding (widget_class, moves[i].keyval, 0, move_cb, "(ii)", moves[i].rows, moves[i].cols);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Page_Up, 0, page_cb, "i", -1);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_KP_Page_Up, 0, page_cb, "i", -1);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Page_Down, 0, page_cb, "i", 1);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_KP_Page_Down, 0, page_cb, "i", 1);
  for (guint i = 0; i < G_N_ELEMENTS (zooms); i++)
    gtk_widget_class_add_binding (widget_class, zooms[i].keyval, 0, zoom_cb, "d", zooms[i].factor);
  for (guint i = 0; i < G_N_ELEMENTS (activates); i++)
    gtk_widget_class_add_binding (widget_class, activates[i], 0, activate_cb, NULL);
}

static void
on_pressed (GtkGestureClick     *gesture,
            int                  n_press,
            double               x,
            double               y,
            ChronoRankChartView *self)
{
  ChronoRankChartHit hit;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (self->chart == NULL ||
      !chrono_rank_chart_hit_test (self->chart, gtk_widget_get_width (GTK_WIDGET (self)),
                                   gtk_widget_get_height (GTK_WIDGET (self)), x, y, &hit))
    return;
  chrono_rank_chart_view_set_focus_cell (self, hit.row, hit.col);
  activate_focus (self);
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           ChronoRankChartView      *self)
{
  ChronoRankChartHit hit;

  self->pointer_y = y;
  if (self->chart == NULL)
    return;
  if (chrono_rank_chart_hit_test (self->chart, gtk_widget_get_width (GTK_WIDGET (self)),
                                  gtk_widget_get_height (GTK_WIDGET (self)), x, y, &hit))
    chrono_rank_chart_set_hover (self->chart, &hit);
  else
    chrono_rank_chart_set_hover (self->chart, NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_leave (GtkEventControllerMotion *controller,
          ChronoRankChartView      *self)
{
  if (self->chart == NULL)
    return;
  chrono_rank_chart_set_hover (self->chart, NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           ChronoRankChartView      *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  double first, visible;
  cairo_rectangle_t plot;

  if (self->chart == NULL)
    return GDK_EVENT_PROPAGATE;
  first = chrono_rank_chart_get_first_row (self->chart);
  visible = chrono_rank_chart_get_n_visible (self->chart);
  if (state & GDK_CONTROL_MASK)
    {
      chrono_rank_chart_get_plot (self->chart, gtk_widget_get_width (GTK_WIDGET (self)),
                                  gtk_widget_get_height (GTK_WIDGET (self)), &plot);
      zoom_around (self, first + (self->pointer_y - plot.y) / plot.height * visible, pow (ZOOM_STEP, -dy));
      return GDK_EVENT_STOP;
    }
  /* All rows in view: nothing to scroll, so the page scrolls instead. */
  if (visible >= chrono_rank_chart_get_n_rows (self->chart))
    return GDK_EVENT_PROPAGATE;
  set_view (self, first + dy * MAX (1, visible * SCROLL_SHARE), visible);
  return GDK_EVENT_STOP;
}

char *
chrono_rank_chart_view_dup_tooltip_at (ChronoRankChartView *self,
                                       double               x,
                                       double               y)
{
  ChronoRankChartHit hit;

  g_return_val_if_fail (CHRONO_IS_RANK_CHART_VIEW (self), NULL);
  if (self->chart == NULL ||
      !chrono_rank_chart_hit_test (self->chart, gtk_widget_get_width (GTK_WIDGET (self)),
                                   gtk_widget_get_height (GTK_WIDGET (self)), x, y, &hit))
    return NULL;
  return chrono_rank_chart_describe (self->chart, &hit);
}

static gboolean
chrono_rank_chart_view_query_tooltip (GtkWidget  *widget,
                                      int         x,
                                      int         y,
                                      gboolean    keyboard,
                                      GtkTooltip *tooltip)
{
  ChronoRankChartView *self = CHRONO_RANK_CHART_VIEW (widget);
  g_autofree char *text = NULL;
  cairo_rectangle_t area;

  if (keyboard && self->focus_row != G_MAXUINT && self->chart != NULL &&
      chrono_rank_chart_get_cell_area (self->chart, gtk_widget_get_width (widget), gtk_widget_get_height (widget),
                                       self->focus_row, self->focus_col, &area))
    text = chrono_rank_chart_view_dup_tooltip_at (self, area.x + area.width / 2, area.y + area.height / 2);
  else
    text = chrono_rank_chart_view_dup_tooltip_at (self, x, y);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
chrono_rank_chart_view_snapshot (GtkWidget   *widget,
                                 GtkSnapshot *snapshot)
{
  ChronoRankChartView *self = CHRONO_RANK_CHART_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->chart == NULL || width <= 0 || height <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  chrono_rank_chart_draw (self->chart, cr, width, height, self->dark);
  cairo_destroy (cr);
}

static void
chrono_rank_chart_view_measure (GtkWidget      *widget,
                                GtkOrientation  orientation,
                                int             for_size,
                                int            *minimum,
                                int            *natural,
                                int            *minimum_baseline,
                                int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 160 : 140;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 320 : 420;
}

static void
chrono_rank_chart_view_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  ChronoRankChartView *self = CHRONO_RANK_CHART_VIEW (object);

  switch (prop_id)
    {
    case PROP_FIRST_ROW:
      g_value_set_double (value, chrono_rank_chart_view_get_first_row (self));
      break;
    case PROP_VISIBLE_ROWS:
      g_value_set_double (value, chrono_rank_chart_view_get_visible_rows (self));
      break;
    case PROP_DARK:
      g_value_set_boolean (value, self->dark);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_rank_chart_view_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  ChronoRankChartView *self = CHRONO_RANK_CHART_VIEW (object);

  switch (prop_id)
    {
    case PROP_FIRST_ROW:
      chrono_rank_chart_view_set_first_row (self, g_value_get_double (value));
      break;
    case PROP_VISIBLE_ROWS:
      chrono_rank_chart_view_set_visible_rows (self, g_value_get_double (value));
      break;
    case PROP_DARK:
      chrono_rank_chart_view_set_dark (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_rank_chart_view_finalize (GObject *object)
{
  ChronoRankChartView *self = CHRONO_RANK_CHART_VIEW (object);

  g_clear_pointer (&self->chart, chrono_rank_chart_free);
  G_OBJECT_CLASS (chrono_rank_chart_view_parent_class)->finalize (object);
}

static void
chrono_rank_chart_view_class_init (ChronoRankChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = chrono_rank_chart_view_get_property;
  object_class->set_property = chrono_rank_chart_view_set_property;
  object_class->finalize = chrono_rank_chart_view_finalize;
  widget_class->snapshot = chrono_rank_chart_view_snapshot;
  widget_class->measure = chrono_rank_chart_view_measure;
  widget_class->query_tooltip = chrono_rank_chart_view_query_tooltip;

  properties[PROP_FIRST_ROW] =
    g_param_spec_double ("first-row", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VISIBLE_ROWS] =
    g_param_spec_double ("visible-rows", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DARK] =
    g_param_spec_boolean ("dark", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A cell was chosen, by a click or Enter: its row and column. */
  signals[CELL_ACTIVATED] =
    g_signal_new ("cell-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);

  add_key_bindings (widget_class);
  gtk_widget_class_set_css_name (widget_class, "rankchart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_WIDGET);
}

static void
chrono_rank_chart_view_init (ChronoRankChartView *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);

  self->focus_row = self->focus_col = G_MAXUINT;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
}

GtkWidget *
chrono_rank_chart_view_new (void)
{
  return g_object_new (CHRONO_TYPE_RANK_CHART_VIEW, NULL);
}

void
chrono_rank_chart_view_set_chart (ChronoRankChartView *self,
                                  ChronoRankChart     *chart)
{
  g_return_if_fail (CHRONO_IS_RANK_CHART_VIEW (self));
  g_clear_pointer (&self->chart, chrono_rank_chart_free);
  self->chart = chart;
  self->focus_row = self->focus_col = G_MAXUINT;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FIRST_ROW]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_ROWS]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

ChronoRankChart *
chrono_rank_chart_view_get_chart (ChronoRankChartView *self)
{
  g_return_val_if_fail (CHRONO_IS_RANK_CHART_VIEW (self), NULL);
  return self->chart;
}

double
chrono_rank_chart_view_get_first_row (ChronoRankChartView *self)
{
  g_return_val_if_fail (CHRONO_IS_RANK_CHART_VIEW (self), 0);
  return self->chart ? chrono_rank_chart_get_first_row (self->chart) : 0;
}

void
chrono_rank_chart_view_set_first_row (ChronoRankChartView *self,
                                      double               first_row)
{
  g_return_if_fail (CHRONO_IS_RANK_CHART_VIEW (self));
  if (self->chart != NULL)
    set_view (self, first_row, chrono_rank_chart_get_n_visible (self->chart));
}

double
chrono_rank_chart_view_get_visible_rows (ChronoRankChartView *self)
{
  g_return_val_if_fail (CHRONO_IS_RANK_CHART_VIEW (self), 0);
  return self->chart ? chrono_rank_chart_get_n_visible (self->chart) : 0;
}

void
chrono_rank_chart_view_set_visible_rows (ChronoRankChartView *self,
                                         double               visible_rows)
{
  g_return_if_fail (CHRONO_IS_RANK_CHART_VIEW (self));
  if (self->chart != NULL)
    set_view (self, chrono_rank_chart_get_first_row (self->chart), visible_rows);
}

gboolean
chrono_rank_chart_view_get_dark (ChronoRankChartView *self)
{
  g_return_val_if_fail (CHRONO_IS_RANK_CHART_VIEW (self), FALSE);
  return self->dark;
}

void
chrono_rank_chart_view_set_dark (ChronoRankChartView *self,
                                 gboolean             dark)
{
  g_return_if_fail (CHRONO_IS_RANK_CHART_VIEW (self));
  dark = !!dark;
  if (self->dark == dark)
    return;
  self->dark = dark;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
