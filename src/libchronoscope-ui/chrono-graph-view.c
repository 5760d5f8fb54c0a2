/* chrono-graph-view.c: the dependencies around a span, or the critical
 * path of a step, drawn as a graph left to right in time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>

#include "chrono-format.h"
#include "chrono-graph-layout.h"
#include "chrono-graph-view.h"
#include "chrono-palette.h"
#include "chrono-zoom-controllers.h"

#define DEFAULT_HOPS    3
#define MAX_NODES       500
/* A critical path shows at most this many of its spans. */
#define MAX_PATH_NODES  500
/* Consecutive spans of a path with no edge between them in the graph
 * (the path waited): drawn dashed. */
#define EDGE_PATH_WAIT  CHRONO_N_EDGE_TYPES
#define N_EDGE_STYLES   (CHRONO_N_EDGE_TYPES + 1)
#define MIN_SCALE       0.08
#define MAX_SCALE       4.0
#define ZOOM_STEP       1.15
#define SCROLL_STEP_PX  48.0
/* Below this scale names would be unreadable: boxes only. */
#define TEXT_MIN_SCALE  0.45
#define PAD             8.0
/* A press that moves further than this is a drag, not a click. */
#define DRAG_SLOP_PX    4.0
/* Below this scale names are hard to read: a graph that fits only
 * smaller is fitted to the width, its start in view. */
#define FIT_MIN_SCALE   0.7
/* The scales tried, wrapped, from 1 down to FIT_MIN_SCALE. */
#define FIT_STEP        0.94

struct _ChronoGraphView
{
  GtkWidget          parent_instance;

  ChronoAnalysis    *analysis;
  gboolean           dark;
  guint              hops;

  ChronoSubgraph    *graph;
  ChronoGraphLayout *layout;
  ChronoGraphLayoutParams params;
  char              *title;
  char              *hint;
  gboolean           showing_path;
  gboolean           has_selection;
  ChronoNodeRef      selection;

  double             scale;     /* widget = content * scale + offset */
  double             offset_x;
  double             offset_y;
  gboolean           centre_pending;
  gboolean           fitted;    /* as fit() left it: a new size fits again */
  int                fitted_width;
  int                fitted_height;
  double             pointer_x;
  double             pointer_y;
  double             drag_x;
  double             drag_y;
  gboolean           dragged;   /* the pointer moved since it was pressed */
};

G_DEFINE_FINAL_TYPE (ChronoGraphView, chrono_graph_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_ANALYSIS,
  PROP_DARK,
  PROP_HOPS,
  PROP_TITLE,
  PROP_LEGEND,
  PROP_HINT,
  N_PROPS
};

enum {
  NODE_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static const char *
get_edge_title (guint type)
{
  switch (type)
    {
    case CHRONO_EDGE_NESTING:      return _("Calls");
    case CHRONO_EDGE_THREAD_ORDER: return _("Next on thread");
    case CHRONO_EDGE_LAUNCH:       return _("Launches");
    case CHRONO_EDGE_STREAM_ORDER: return _("Next on stream");
    case CHRONO_EDGE_SYNC:         return _("Waited for by");
    case CHRONO_EDGE_EVENT_WAIT:   return _("Event wait");
    case CHRONO_EDGE_COLLECTIVE:   return _("Collective peer");
    case CHRONO_EDGE_FLOW:         return _("Flow");
    case EDGE_PATH_WAIT:           return _("Path waits");
    default:                       g_return_val_if_reached (NULL);
    }
}

/* Hues apart from one another; darker on light backgrounds. */
static void
get_edge_color (ChronoGraphView *self,
                guint            type,
                GdkRGBA         *color)
{
  static const float hues[N_EDGE_STYLES] = {
    [CHRONO_EDGE_NESTING] = 215, [CHRONO_EDGE_THREAD_ORDER] = 0, [CHRONO_EDGE_LAUNCH] = 28,
    [CHRONO_EDGE_STREAM_ORDER] = 130, [CHRONO_EDGE_SYNC] = 350, [CHRONO_EDGE_EVENT_WAIT] = 265,
    [CHRONO_EDGE_COLLECTIVE] = 50, [CHRONO_EDGE_FLOW] = 320, [EDGE_PATH_WAIT] = 0,
  };
  double h = hues[type] / 60.0, s, l, c, x, m;
  double r = 0, g = 0, b = 0;

  /* Order edges are the most common: greys, so the rest stand out. */
  s = type == CHRONO_EDGE_THREAD_ORDER || type == EDGE_PATH_WAIT ? 0 : 0.75;
  l = self->dark ? 0.66 : 0.42;
  c = (1 - fabs (2 * l - 1)) * s;
  x = c * (1 - fabs (fmod (h, 2) - 1));
  m = l - c / 2;
  switch ((int) h)
    {
    case 0: r = c; g = x; break;
    case 1: r = x; g = c; break;
    case 2: g = c; b = x; break;
    case 3: g = x; b = c; break;
    case 4: r = x; b = c; break;
    default: r = c; b = x; break;
    }
  *color = (GdkRGBA) { r + m, g + m, b + m, 1.0 };
}

/* The edge types the graph has, each after a line in its colour. */
char *
chrono_graph_view_dup_legend_markup (ChronoGraphView *self)
{
  gboolean present[N_EDGE_STYLES] = { FALSE };
  GString *markup = g_string_new (NULL);

  g_return_val_if_fail (CHRONO_IS_GRAPH_VIEW (self), NULL);

  for (guint e = 0; self->graph != NULL && e < self->graph->edges->len; e++)
    present[g_array_index (self->graph->edges, ChronoGraphEdge, e).type] = TRUE;
  for (guint t = 0; t < N_EDGE_STYLES; t++)
    if (present[t])
      {
        GdkRGBA color;
        g_autofree char *item = NULL;
        /* An item never breaks across lines. */
        g_auto(GStrv) words = g_strsplit (get_edge_title (t), " ", -1);
        g_autofree char *title = g_strjoinv ("\u00a0", words);

        get_edge_color (self, t, &color);
        item = g_markup_printf_escaped ("<span foreground=\"#%02x%02x%02x\" weight=\"bold\">%s</span>\u00a0%s",
                                        (guint) (color.red * 255 + 0.5), (guint) (color.green * 255 + 0.5),
                                        (guint) (color.blue * 255 + 0.5),
                                        t == EDGE_PATH_WAIT ? "╍╍" : "━━", title);
        if (markup->len > 0)
          g_string_append (markup, "   ");
        g_string_append (markup, item);
      }
  return g_string_free (markup, FALSE);
}

static const ChronoTrack *
get_node_track (ChronoGraphView       *self,
                const ChronoGraphNode *node)
{
  return chrono_trace_get_track (chrono_analysis_get_trace (self->analysis, node->ref.trace),
                                 node->ref.span.track);
}

static const char *
get_node_name (ChronoGraphView       *self,
               const ChronoGraphNode *node)
{
  ChronoTrace *trace = chrono_analysis_get_trace (self->analysis, node->ref.trace);

  return chrono_trace_get_string (trace, chrono_track_get_name (get_node_track (self, node), node->ref.span.index));
}

static void
set_hint (ChronoGraphView *self,
          char            *hint)
{
  if (g_strcmp0 (self->hint, hint) == 0)
    {
      g_free (hint);
      return;
    }
  g_free (self->hint);
  self->hint = hint;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HINT]);
}

static void
clear_graph (ChronoGraphView *self)
{
  set_hint (self, NULL);
  g_clear_pointer (&self->graph, chrono_subgraph_free);
  g_clear_pointer (&self->layout, chrono_graph_layout_free);
  if (self->title != NULL)
    {
      g_clear_pointer (&self->title, g_free);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LEGEND]);
    }
}

/* Shows the whole drawing at SCALE, centred. */
static void
show_whole (ChronoGraphView *self,
            double           scale)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double content_width, content_height;

  chrono_graph_layout_get_size (self->layout, &content_width, &content_height);
  self->scale = scale;
  self->offset_x = (width - content_width * scale) / 2;
  self->offset_y = (height - content_height * scale) / 2;
}

/* The largest scale, at most 1, at which the drawing fits the view. */
static double
get_fit_scale (ChronoGraphView *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * PAD;
  double height = gtk_widget_get_height (GTK_WIDGET (self)) - 2 * PAD;
  double content_width, content_height;

  chrono_graph_layout_get_size (self->layout, &content_width, &content_height);
  return MIN (1.0, MIN (width / MAX (1, content_width), height / MAX (1, content_height)));
}

/* The whole graph at the largest scale that shows it, in one row when
 * that can be read, else wrapped into bands; when even wrapped it would be
 * smaller than names can be read, wrapped to the width at the least
 * readable scale, with the band of the first node (the start of a path,
 * the span a neighbourhood is around) in view and a hint for the rest. */
static void
fit (ChronoGraphView *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double best_scale, best_wrap = 0, content_width, content_height, y;
  guint band, n_bands, first_band, last_band;
  gboolean wrap;

  /* No room to fit into yet: when there is. */
  if (width <= 2 * PAD || height <= 2 * PAD)
    {
      self->centre_pending = TRUE;
      return;
    }
  chrono_graph_layout_set_wrap_width (self->layout, 0);
  best_scale = get_fit_scale (self);
  /* One row while it reads; wrapped only when it would not, at the width
   * that shows it largest. */
  wrap = best_scale < FIT_MIN_SCALE;
  for (double scale = 1.0; wrap && scale >= FIT_MIN_SCALE - 1e-9; scale *= FIT_STEP)
    {
      double fitted;

      chrono_graph_layout_set_wrap_width (self->layout, (width - 2 * PAD) / scale);
      fitted = get_fit_scale (self);
      if (fitted > best_scale + 1e-9)
        {
          best_scale = fitted;
          best_wrap = (width - 2 * PAD) / scale;
        }
      if (fitted >= scale - 1e-9)
        break;
    }
  self->centre_pending = FALSE;
  self->fitted = TRUE;
  self->fitted_width = width;
  self->fitted_height = height;
  gtk_widget_queue_draw (GTK_WIDGET (self));

  if (best_scale >= FIT_MIN_SCALE)
    {
      chrono_graph_layout_set_wrap_width (self->layout, best_wrap);
      show_whole (self, best_scale);
      set_hint (self, NULL);
      return;
    }

  /* Too big to read whole: the width at the least readable scale. */
  chrono_graph_layout_set_wrap_width (self->layout, (width - 2 * PAD) / FIT_MIN_SCALE);
  chrono_graph_layout_get_size (self->layout, &content_width, &content_height);
  /* As many columns as fit at that scale: as large as fills the width. */
  self->scale = MIN (1.0, (width - 2 * PAD) / MAX (1, content_width));
  self->offset_x = (width - content_width * self->scale) / 2;
  band = chrono_graph_layout_get_band (self->layout, 0);
  /* The first node's band at the top, or as far down as the end allows. */
  y = band > 0 ? chrono_graph_layout_get_band_bottom (self->layout, band - 1) + self->params.band_gap : 0;
  self->offset_y = MAX (PAD - y * self->scale, height - PAD - content_height * self->scale);
  if (content_height * self->scale <= height - 2 * PAD)
    self->offset_y = (height - content_height * self->scale) / 2;

  /* The rows wholly in view. */
  n_bands = chrono_graph_layout_get_n_bands (self->layout);
  first_band = n_bands;
  last_band = 0;
  for (guint b = 0; b < n_bands; b++)
    {
      double top = b > 0 ? chrono_graph_layout_get_band_bottom (self->layout, b - 1) + self->params.band_gap : 0;
      double bottom = chrono_graph_layout_get_band_bottom (self->layout, b);

      if (top * self->scale + self->offset_y >= -0.5 && bottom * self->scale + self->offset_y <= height + 0.5)
        {
          first_band = MIN (first_band, b);
          last_band = MAX (last_band, b);
        }
    }
  if (first_band > last_band)
    first_band = last_band = band;
  if (n_bands == 1)
    set_hint (self, g_strdup (_("Too big to read whole: scroll or drag for the rest, or zoom out (−) to see it "
                                "all; 0 fits again")));
  else
    /* Translators: the graph is wrapped into rows, too many to read at once */
    set_hint (self, g_strdup_printf (_("Rows %u–%u of %u in view: scroll or drag for the rest, or zoom out (−) "
                                       "to see them all; 0 fits again"),
                                     first_band + 1, last_band + 1, n_bands));
}

/* Takes GRAPH, lays it out and shows its start. */
static void
set_graph (ChronoGraphView *self,
           ChronoSubgraph  *graph,
           char            *title)
{
  g_autofree gint64 *start = g_new (gint64, MAX (1, graph->nodes->len));
  g_autofree ChronoLayoutEdge *edges = g_new (ChronoLayoutEdge, MAX (1, graph->edges->len));

  clear_graph (self);
  self->graph = graph;
  self->title = title;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LEGEND]);
  for (guint i = 0; i < graph->nodes->len; i++)
    start[i] = g_array_index (graph->nodes, ChronoGraphNode, i).start_ns;
  for (guint i = 0; i < graph->edges->len; i++)
    {
      const ChronoGraphEdge *edge = &g_array_index (graph->edges, ChronoGraphEdge, i);
      edges[i] = (ChronoLayoutEdge) { edge->from, edge->to };
    }
  self->layout = chrono_graph_layout_new (graph->nodes->len, start, graph->edges->len, edges, &self->params);
  self->centre_pending = TRUE;
  if (gtk_widget_get_width (GTK_WIDGET (self)) > 0)
    fit (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
get_content_rect (ChronoGraphView *self,
                  guint            index,
                  graphene_rect_t *rect)
{
  double x, y;

  chrono_graph_layout_get_node_origin (self->layout, index, &x, &y);
  graphene_rect_init (rect, x, y, self->params.node_width, self->params.node_height);
}

static void
rounded_rect (cairo_t *cr,
              double   x,
              double   y,
              double   w,
              double   h,
              double   r)
{
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

static void
draw_edges (ChronoGraphView *self,
            cairo_t         *cr)
{
  for (guint e = 0; e < self->graph->edges->len; e++)
    {
      const ChronoGraphEdge *edge = &g_array_index (self->graph->edges, ChronoGraphEdge, e);
      const ChronoLayoutPoint *p;
      GdkRGBA color;
      gboolean long_edge;
      double dir;
      guint n;

      p = chrono_graph_layout_get_edge_points (self->layout, e, &n);
      if (p == NULL)
        continue;
      get_edge_color (self, edge->type, &color);
      /* Long edges fainter: they run in bundles past the nodes between. */
      long_edge = chrono_graph_layout_edge_is_long (self->layout, e);
      if (long_edge)
        color.alpha = 0.4;
      gdk_cairo_set_source_rgba (cr, &color);
      cairo_set_line_width (cr, MAX (long_edge ? 1.0 : 1.5, 1.0 / self->scale));
      if (edge->type == EDGE_PATH_WAIT)
        cairo_set_dash (cr, (double[]) { 5, 4 }, 2, 0);
      else
        cairo_set_dash (cr, NULL, 0, 0);

      /* Curves that leave and reach each point level. */
      cairo_move_to (cr, p[0].x, p[0].y);
      for (guint k = 1; k < n; k++)
        {
          double mid = (p[k - 1].x + p[k].x) / 2;

          cairo_curve_to (cr, mid, p[k - 1].y, mid, p[k].y, p[k].x, p[k].y);
        }
      cairo_stroke (cr);

      dir = p[n - 1].x >= p[n - 2].x ? 1 : -1;
      cairo_move_to (cr, p[n - 1].x, p[n - 1].y);
      cairo_line_to (cr, p[n - 1].x - dir * 8, p[n - 1].y - 4);
      cairo_line_to (cr, p[n - 1].x - dir * 8, p[n - 1].y + 4);
      cairo_close_path (cr);
      cairo_fill (cr);
    }
  cairo_set_dash (cr, NULL, 0, 0);
}

static void
show_text (cairo_t       *cr,
           PangoLayout   *layout,
           const char    *text,
           double         x,
           double         y,
           const GdkRGBA *color)
{
  pango_layout_set_text (layout, text, -1);
  gdk_cairo_set_source_rgba (cr, color);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
}

static void
draw_nodes (ChronoGraphView *self,
            cairo_t         *cr,
            const GdkRGBA   *accent)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  g_autoptr(PangoLayout) name_layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  g_autoptr(PangoLayout) info_layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  g_autoptr(PangoAttrList) small = pango_attr_list_new ();

  pango_attr_list_insert (small, pango_attr_scale_new (PANGO_SCALE_SMALL));
  pango_layout_set_attributes (info_layout, small);
  pango_layout_set_width (name_layout, (int) ((self->params.node_width - 2 * PAD) * PANGO_SCALE));
  pango_layout_set_ellipsize (name_layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_width (info_layout, (int) ((self->params.node_width - 2 * PAD) * PANGO_SCALE));
  pango_layout_set_ellipsize (info_layout, PANGO_ELLIPSIZE_END);

  for (guint i = 0; i < self->graph->nodes->len; i++)
    {
      const ChronoGraphNode *node = &g_array_index (self->graph->nodes, ChronoGraphNode, i);
      const ChronoTrack *track = get_node_track (self, node);
      ChronoKind kind = track->kind[node->ref.span.index];
      const char *name = get_node_name (self, node);
      gboolean selected = self->has_selection && node->ref.trace == self->selection.trace &&
                          node->ref.span.track == self->selection.span.track &&
                          node->ref.span.index == self->selection.span.index;
      graphene_rect_t r;
      GdkRGBA fill, text;

      get_content_rect (self, i, &r);
      /* Only what is in view. */
      if ((r.origin.x + r.size.width) * self->scale + self->offset_x < 0 ||
          r.origin.x * self->scale + self->offset_x > width ||
          (r.origin.y + r.size.height) * self->scale + self->offset_y < 0 ||
          r.origin.y * self->scale + self->offset_y > height)
        continue;

      chrono_palette_span_color (kind, name, self->dark, &fill);
      chrono_palette_text_color (&fill, &text);
      rounded_rect (cr, r.origin.x, r.origin.y, r.size.width, r.size.height, 5);
      gdk_cairo_set_source_rgba (cr, &fill);
      cairo_fill_preserve (cr);
      if (i == 0 || selected)
        {
          gdk_cairo_set_source_rgba (cr, accent);
          cairo_set_line_width (cr, selected ? 3 : 2);
          cairo_stroke (cr);
        }
      else
        cairo_new_path (cr);
      if (node->on_critical_path)
        {
          /* A bar along the bottom, as the timeline marks the path. */
          GdkRGBA path = *accent;

          path.alpha = 0.8;
          gdk_cairo_set_source_rgba (cr, &path);
          cairo_rectangle (cr, r.origin.x + 5, r.origin.y + r.size.height - 4, r.size.width - 10, 3);
          cairo_fill (cr);
        }

      if (self->scale >= TEXT_MIN_SCALE)
        {
          g_autofree char *duration = chrono_format_duration (chrono_track_get_dur (track, node->ref.span.index));
          /* Translators: a node of the graph: the span's duration and kind */
          g_autofree char *info = g_strdup_printf (_("%s · %s"), duration, chrono_kind_to_string (kind));
          /* The tooltip has the name whole. */
          g_autofree char *short_name = chrono_format_short_name (name, CHRONO_SHORT_NAME_WIDTH);

          show_text (cr, name_layout, short_name, r.origin.x + PAD, r.origin.y + 3, &text);
          text.alpha *= 0.75;
          show_text (cr, info_layout, info, r.origin.x + PAD, r.origin.y + r.size.height / 2 + 1, &text);
        }
    }
}

static void
chrono_graph_view_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  ChronoGraphView *self = CHRONO_GRAPH_VIEW (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  GdkRGBA background, text, accent;
  cairo_t *cr;

  chrono_palette_canvas_colors (self->dark, &background, &text, &accent);
  gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (self->graph == NULL)
    {
      g_autoptr(PangoLayout) layout =
        gtk_widget_create_pango_layout (widget, _("Select a span to see what it waits for and what waits for it."));
      int tw, th;
      GdkRGBA dim = text;

      dim.alpha = 0.55;
      pango_layout_get_pixel_size (layout, &tw, &th);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (floor ((width - tw) / 2), floor ((height - th) / 2)));
      gtk_snapshot_append_layout (snapshot, layout, &dim);
      gtk_snapshot_restore (snapshot);
      return;
    }

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_save (cr);
  cairo_translate (cr, self->offset_x, self->offset_y);
  cairo_scale (cr, self->scale, self->scale);
  draw_edges (self, cr);
  draw_nodes (self, cr, &accent);
  cairo_restore (cr);
  cairo_destroy (cr);
}

static void
chrono_graph_view_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  /* Never the graph's size: the view pans and zooms itself. */
  *minimum = 120;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 400 : 280;
}

static void
chrono_graph_view_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  ChronoGraphView *self = CHRONO_GRAPH_VIEW (widget);

  if (self->graph != NULL &&
      (self->centre_pending || (self->fitted && (width != self->fitted_width || height != self->fitted_height))))
    fit (self);
}

static gboolean
hit_test (ChronoGraphView *self,
          double           x,
          double           y,
          guint           *index)
{
  double cx = (x - self->offset_x) / self->scale, cy = (y - self->offset_y) / self->scale;

  if (self->graph == NULL)
    return FALSE;
  for (guint i = 0; i < self->graph->nodes->len; i++)
    {
      graphene_rect_t r;

      get_content_rect (self, i, &r);
      if (graphene_rect_contains_point (&r, &GRAPHENE_POINT_INIT (cx, cy)))
        {
          *index = i;
          return TRUE;
        }
    }
  return FALSE;
}

static void
zoom_at (ChronoGraphView *self,
         double           factor,
         double           x,
         double           y)
{
  double scale = CLAMP (self->scale * factor, MIN_SCALE, MAX_SCALE);

  self->offset_x = x - (x - self->offset_x) * scale / self->scale;
  self->offset_y = y - (y - self->offset_y) * scale / self->scale;
  self->scale = scale;
  self->fitted = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
pan (ChronoGraphView *self,
     double           dx,
     double           dy)
{
  self->offset_x += dx;
  self->offset_y += dy;
  self->centre_pending = FALSE;
  self->fitted = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           ChronoGraphView          *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (state & GDK_CONTROL_MASK)
    zoom_at (self, pow (ZOOM_STEP, -dy), self->pointer_x, self->pointer_y);
  else if (state & GDK_SHIFT_MASK)
    pan (self, -(dx + dy) * SCROLL_STEP_PX, 0);
  else
    pan (self, -dx * SCROLL_STEP_PX, -dy * SCROLL_STEP_PX);
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           ChronoGraphView          *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
}

static void
drag_begin_cb (GtkGestureDrag  *gesture,
               double           x,
               double           y,
               ChronoGraphView *self)
{
  self->drag_x = 0;
  self->drag_y = 0;
  self->dragged = FALSE;
}

static void
drag_update_cb (GtkGestureDrag  *gesture,
                double           offset_x,
                double           offset_y,
                ChronoGraphView *self)
{
  pan (self, offset_x - self->drag_x, offset_y - self->drag_y);
  self->drag_x = offset_x;
  self->drag_y = offset_y;
  self->dragged |= fabs (offset_x) + fabs (offset_y) > DRAG_SLOP_PX;
}

/* On release, so that a drag that starts on a node only pans. */
static void
click_released_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  ChronoGraphView *self)
{
  guint index;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (n_press == 1 && !self->dragged && hit_test (self, x, y, &index))
    {
      const ChronoGraphNode *node = &g_array_index (self->graph->nodes, ChronoGraphNode, index);

      g_signal_emit (self, signals[NODE_ACTIVATED], 0, node->ref.trace, node->ref.span.track, node->ref.span.index);
    }
}

static gboolean
chrono_graph_view_query_tooltip (GtkWidget  *widget,
                                 int         x,
                                 int         y,
                                 gboolean    keyboard_tooltip,
                                 GtkTooltip *tooltip)
{
  ChronoGraphView *self = CHRONO_GRAPH_VIEW (widget);
  const ChronoGraphNode *node;
  const ChronoTrack *track;
  g_autofree char *duration = NULL;
  g_autofree char *markup = NULL;
  guint index;

  if (keyboard_tooltip || !hit_test (self, x, y, &index))
    return FALSE;
  node = &g_array_index (self->graph->nodes, ChronoGraphNode, index);
  track = get_node_track (self, node);
  duration = chrono_format_duration (chrono_track_get_dur (track, node->ref.span.index));
  /* Translators: a node's tooltip: name, duration and kind, then its track */
  markup = g_markup_printf_escaped (_("<b>%s</b>\n%s · %s\n%s"),
                                    get_node_name (self, node), duration,
                                    chrono_kind_to_string (track->kind[node->ref.span.index]),
                                    chrono_trace_get_string (chrono_analysis_get_trace (self->analysis, node->ref.trace),
                                                             track->display_name));
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ChronoGraphView *self = CHRONO_GRAPH_VIEW (widget);

  zoom_at (self, g_str_equal (action_name, "graph.zoom-in") ? ZOOM_STEP : 1 / ZOOM_STEP,
           gtk_widget_get_width (widget) / 2.0, gtk_widget_get_height (widget) / 2.0);
}

static void
fit_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  chrono_graph_view_fit (CHRONO_GRAPH_VIEW (widget));
}

static void
chrono_graph_view_dispose (GObject *object)
{
  ChronoGraphView *self = CHRONO_GRAPH_VIEW (object);

  clear_graph (self);
  g_clear_object (&self->analysis);
  g_clear_pointer (&self->hint, g_free);

  G_OBJECT_CLASS (chrono_graph_view_parent_class)->dispose (object);
}

static void
chrono_graph_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  ChronoGraphView *self = CHRONO_GRAPH_VIEW (object);

  switch (prop_id)
    {
    case PROP_ANALYSIS:
      g_value_set_object (value, self->analysis);
      break;
    case PROP_DARK:
      g_value_set_boolean (value, self->dark);
      break;
    case PROP_HOPS:
      g_value_set_uint (value, self->hops);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_LEGEND:
      g_value_take_string (value, chrono_graph_view_dup_legend_markup (self));
      break;
    case PROP_HINT:
      g_value_set_string (value, self->hint);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_graph_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  ChronoGraphView *self = CHRONO_GRAPH_VIEW (object);

  switch (prop_id)
    {
    case PROP_ANALYSIS:
      chrono_graph_view_set_analysis (self, g_value_get_object (value));
      break;
    case PROP_DARK:
      chrono_graph_view_set_dark (self, g_value_get_boolean (value));
      break;
    case PROP_HOPS:
      chrono_graph_view_set_hops (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_graph_view_class_init (ChronoGraphViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_graph_view_dispose;
  object_class->get_property = chrono_graph_view_get_property;
  object_class->set_property = chrono_graph_view_set_property;

  widget_class->snapshot = chrono_graph_view_snapshot;
  widget_class->measure = chrono_graph_view_measure;
  widget_class->size_allocate = chrono_graph_view_size_allocate;
  widget_class->query_tooltip = chrono_graph_view_query_tooltip;

  properties[PROP_ANALYSIS] =
    g_param_spec_object ("analysis", NULL, NULL, CHRONO_TYPE_ANALYSIS,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DARK] =
    g_param_spec_boolean ("dark", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HOPS] =
    g_param_spec_uint ("hops", NULL, NULL, 1, 64, DEFAULT_HOPS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* What the graph shows, in a line; NULL when it is empty. */
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* chrono_graph_view_dup_legend_markup(), for a label. */
  properties[PROP_LEGEND] =
    g_param_spec_string ("legend", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* How to see the rest when the graph is too big to show whole at a
   * readable size; NULL when it is shown whole. */
  properties[PROP_HINT] =
    g_param_spec_string ("hint", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The span of the node clicked: its trace, track and index. */
  signals[NODE_ACTIVATED] =
    g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT);

  gtk_widget_class_install_action (widget_class, "graph.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.zoom-out", NULL, zoom_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "graph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "graph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "graph.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "graph.zoom-out", NULL);
  gtk_widget_class_install_action (widget_class, "graph.fit", NULL, fit_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "graph.fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_0, 0, "graph.fit", NULL);

  gtk_widget_class_set_css_name (widget_class, "graphview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_WIDGET);
}

static void
chrono_graph_view_init (ChronoGraphView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkGesture *gesture;

  self->hops = DEFAULT_HOPS;
  self->scale = 1.0;
  chrono_graph_layout_params_init (&self->params);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Dependency graph"), -1);

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_has_tooltip (widget, TRUE);

  chrono_zoom_controllers_add (widget, G_CALLBACK (scroll_cb), G_CALLBACK (motion_cb), self);

  gesture = gtk_gesture_drag_new ();
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  g_signal_connect (gesture, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));
}

GtkWidget *
chrono_graph_view_new (void)
{
  return g_object_new (CHRONO_TYPE_GRAPH_VIEW, NULL);
}

/**
 * chrono_graph_view_get_analysis:
 *
 * Returns: (transfer none) (nullable): the analysis whose graph is shown
 */
ChronoAnalysis *
chrono_graph_view_get_analysis (ChronoGraphView *self)
{
  g_return_val_if_fail (CHRONO_IS_GRAPH_VIEW (self), NULL);
  return self->analysis;
}

void
chrono_graph_view_set_analysis (ChronoGraphView *self,
                                ChronoAnalysis  *analysis)
{
  g_return_if_fail (CHRONO_IS_GRAPH_VIEW (self));
  g_return_if_fail (analysis == NULL || CHRONO_IS_ANALYSIS (analysis));

  if (!g_set_object (&self->analysis, analysis))
    return;
  clear_graph (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANALYSIS]);
}

gboolean
chrono_graph_view_get_dark (ChronoGraphView *self)
{
  g_return_val_if_fail (CHRONO_IS_GRAPH_VIEW (self), FALSE);
  return self->dark;
}

void
chrono_graph_view_set_dark (ChronoGraphView *self,
                            gboolean         dark)
{
  g_return_if_fail (CHRONO_IS_GRAPH_VIEW (self));

  dark = !!dark;
  if (self->dark == dark)
    return;
  self->dark = dark;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LEGEND]);
}

guint
chrono_graph_view_get_hops (ChronoGraphView *self)
{
  g_return_val_if_fail (CHRONO_IS_GRAPH_VIEW (self), DEFAULT_HOPS);
  return self->hops;
}

void
chrono_graph_view_set_hops (ChronoGraphView *self,
                            guint            hops)
{
  g_return_if_fail (CHRONO_IS_GRAPH_VIEW (self));

  if (self->hops == hops)
    return;
  self->hops = hops;
  /* The same centre, further out or closer in. */
  if (self->graph != NULL && !self->showing_path)
    chrono_graph_view_show_neighbourhood (self, g_array_index (self->graph->nodes, ChronoGraphNode, 0).ref);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOPS]);
}

void
chrono_graph_view_show_neighbourhood (ChronoGraphView *self,
                                      ChronoNodeRef    centre)
{
  ChronoSubgraph *graph;
  const ChronoGraphNode *node;
  g_autofree char *short_name = NULL;

  g_return_if_fail (CHRONO_IS_GRAPH_VIEW (self));
  g_return_if_fail (self->analysis != NULL);

  graph = chrono_analysis_dup_neighbourhood (self->analysis, centre, self->hops, MAX_NODES);
  if (graph->nodes->len == 0)
    {
      chrono_subgraph_free (graph);
      clear_graph (self);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  node = &g_array_index (graph->nodes, ChronoGraphNode, 0);
  short_name = chrono_format_short_name (get_node_name (self, node), CHRONO_SHORT_NAME_WIDTH);
  self->showing_path = FALSE;
  set_graph (self, graph,
             /* Translators: the graph's title: how far, which span, how many spans */
             g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Within %u hop of %s: %u spans",
                                           "Within %u hops of %s: %u spans", self->hops),
                              self->hops, short_name, graph->nodes->len));
}

/* The edge of the dependency graph from A to B, if there is one. */
static gboolean
find_edge (ChronoGraphView *self,
           ChronoNodeRef    a,
           ChronoNodeRef    b,
           ChronoEdgeType  *type)
{
  g_autoptr(ChronoSubgraph) around = chrono_analysis_dup_neighbourhood (self->analysis, a, 1, MAX_NODES);

  for (guint e = 0; e < around->edges->len; e++)
    {
      const ChronoGraphEdge *edge = &g_array_index (around->edges, ChronoGraphEdge, e);
      const ChronoGraphNode *from = &g_array_index (around->nodes, ChronoGraphNode, edge->from);
      const ChronoGraphNode *to = &g_array_index (around->nodes, ChronoGraphNode, edge->to);

      if ((edge->from == 0 && to->ref.trace == b.trace && to->ref.span.track == b.span.track &&
           to->ref.span.index == b.span.index) ||
          (edge->to == 0 && from->ref.trace == b.trace && from->ref.span.track == b.span.track &&
           from->ref.span.index == b.span.index))
        {
          *type = edge->type;
          return TRUE;
        }
    }
  return FALSE;
}

void
chrono_graph_view_show_path (ChronoGraphView *self,
                             guint            index)
{
  const ChronoCriticalPath *path;
  ChronoSubgraph *graph;
  g_autoptr(GHashTable) seen = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (gint64));
  char *title;

  g_return_if_fail (CHRONO_IS_GRAPH_VIEW (self));
  g_return_if_fail (self->analysis != NULL && index < chrono_analysis_get_n_paths (self->analysis));

  path = chrono_analysis_get_path (self->analysis, index);
  graph = g_new0 (ChronoSubgraph, 1);
  graph->nodes = g_array_new (FALSE, FALSE, sizeof (ChronoGraphNode));
  graph->edges = g_array_new (FALSE, FALSE, sizeof (ChronoGraphEdge));
  g_array_set_size (keys, MIN (path->n_segments, MAX_PATH_NODES));
  for (guint i = 0; i < path->n_segments && graph->nodes->len < MAX_PATH_NODES; i++)
    {
      const ChronoPathSegment *segment = &path->segments[i];
      const ChronoTrack *track;
      ChronoGraphNode node = { segment->node, 0, 0, graph->nodes->len, TRUE };
      gint64 *key;

      if (!segment->has_node)
        continue;
      /* A span the path passes through twice is one node. */
      key = &g_array_index (keys, gint64, graph->nodes->len);
      *key = ((gint64) segment->node.trace << 56) ^ ((gint64) segment->node.span.track << 32) ^ segment->node.span.index;
      if (g_hash_table_contains (seen, key))
        continue;
      g_hash_table_add (seen, key);
      track = chrono_trace_get_track (chrono_analysis_get_trace (self->analysis, segment->node.trace),
                                      segment->node.span.track);
      node.start_ns = track->start[segment->node.span.index];
      node.end_ns = node.start_ns + chrono_track_get_dur (track, segment->node.span.index);
      g_array_append_val (graph->nodes, node);
      if (graph->nodes->len > 1)
        {
          const ChronoGraphNode *previous = &g_array_index (graph->nodes, ChronoGraphNode, graph->nodes->len - 2);
          ChronoGraphEdge edge = { graph->nodes->len - 2, graph->nodes->len - 1, EDGE_PATH_WAIT };
          ChronoEdgeType type;

          if (find_edge (self, previous->ref, node.ref, &type))
            edge.type = type;
          g_array_append_val (graph->edges, edge);
        }
    }
  if (graph->nodes->len == 0)
    {
      chrono_subgraph_free (graph);
      clear_graph (self);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  self->showing_path = TRUE;
  if (graph->nodes->len < MAX_PATH_NODES)
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Critical path of %s: %u span",
                                          "Critical path of %s: %u spans", graph->nodes->len),
                             path->name, graph->nodes->len);
  else
    /* Translators: the graph's title when the path has more spans than it shows */
    title = g_strdup_printf (_("Critical path of %s: its first %u spans"), path->name, graph->nodes->len);
  set_graph (self, graph, title);
}

void
chrono_graph_view_set_selection (ChronoGraphView     *self,
                                 const ChronoNodeRef *node)
{
  g_return_if_fail (CHRONO_IS_GRAPH_VIEW (self));

  self->has_selection = node != NULL;
  if (node != NULL)
    self->selection = *node;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
chrono_graph_view_get_n_nodes (ChronoGraphView *self)
{
  g_return_val_if_fail (CHRONO_IS_GRAPH_VIEW (self), 0);
  return self->graph != NULL ? self->graph->nodes->len : 0;
}

const ChronoGraphNode *
chrono_graph_view_get_node (ChronoGraphView *self,
                            guint            index)
{
  g_return_val_if_fail (CHRONO_IS_GRAPH_VIEW (self), NULL);
  g_return_val_if_fail (index < chrono_graph_view_get_n_nodes (self), NULL);
  return &g_array_index (self->graph->nodes, ChronoGraphNode, index);
}

void
chrono_graph_view_get_node_area (ChronoGraphView *self,
                                 guint            index,
                                 graphene_rect_t *area)
{
  graphene_rect_t r;

  g_return_if_fail (CHRONO_IS_GRAPH_VIEW (self));
  g_return_if_fail (index < chrono_graph_view_get_n_nodes (self));

  get_content_rect (self, index, &r);
  graphene_rect_init (area, r.origin.x * self->scale + self->offset_x, r.origin.y * self->scale + self->offset_y,
                      r.size.width * self->scale, r.size.height * self->scale);
}

void
chrono_graph_view_scroll_to_node (ChronoGraphView *self,
                                  guint            index)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double content_width, content_height;
  graphene_rect_t r;

  g_return_if_fail (CHRONO_IS_GRAPH_VIEW (self));
  g_return_if_fail (index < chrono_graph_view_get_n_nodes (self));

  get_content_rect (self, index, &r);
  chrono_graph_layout_get_size (self->layout, &content_width, &content_height);
  self->offset_x = width / 2 - (r.origin.x + r.size.width / 2) * self->scale;
  /* Vertically, no empty band above or below the graph if it can be
   * helped. */
  if (content_height * self->scale <= height - 2 * PAD)
    self->offset_y = (height - content_height * self->scale) / 2;
  else
    self->offset_y = CLAMP (height / 2 - (r.origin.y + r.size.height / 2) * self->scale,
                            height - PAD - content_height * self->scale, PAD);
  self->centre_pending = width == 0;
  self->fitted = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* What the view showed first: the whole graph at the largest scale that
 * shows it, wrapped when one row would be too small to read, or, when even
 * that would be, the width at a readable scale from its start. */
void
chrono_graph_view_fit (ChronoGraphView *self)
{
  g_return_if_fail (CHRONO_IS_GRAPH_VIEW (self));

  if (self->graph == NULL)
    return;
  if (gtk_widget_get_width (GTK_WIDGET (self)) > 0)
    fit (self);
  else
    self->centre_pending = TRUE;
}

const char *
chrono_graph_view_get_hint (ChronoGraphView *self)
{
  g_return_val_if_fail (CHRONO_IS_GRAPH_VIEW (self), NULL);
  return self->hint;
}

guint
chrono_graph_view_get_n_bands (ChronoGraphView *self)
{
  g_return_val_if_fail (CHRONO_IS_GRAPH_VIEW (self), 0);
  return self->layout != NULL ? chrono_graph_layout_get_n_bands (self->layout) : 0;
}

double
chrono_graph_view_get_scale (ChronoGraphView *self)
{
  g_return_val_if_fail (CHRONO_IS_GRAPH_VIEW (self), 1.0);
  return self->scale;
}
