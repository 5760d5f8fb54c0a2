/* chrono-flow-painter.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-flow-painter.h"
#include "chrono-palette.h"
#include "chrono-viewport-private.h"

/* Ends far off the area are pulled in to this many widths beyond its
 * edges: cairo's fixed-point coordinates are exact only near it. */
#define FAR_WIDTHS      2.0
/* Curves leave and reach their spans horizontally, bending over at
 * least this far. */
#define MIN_BEND_PX     12.0
#define MAX_BEND_PX     120.0
/* A light or dark outline keeps arrows legible over spans. */
#define HALO_PX         1.5
#define BOLD_WIDTH_PX   2.0
#define THIN_WIDTH_PX   1.2
#define THIN_ALPHA      0.75
/* With more arrows than this a pixel column, they form a curtain: drawn
 * fainter and without halos, the spans show through. */
#define DENSE_PER_PX    1.0
#define DENSE_WIDTH_PX  1.0
#define DENSE_ALPHA     0.35
/* Merged arrows: 15-bit pixel coordinates in one 64-bit key. */
#define KEY_LIMIT       16383.0

struct _ChronoFlowPainter
{
  GObject          parent_instance;

  ChronoFlowIndex *index;
  gboolean         dark;

  /* The arrows of the frame being painted, and the set of pixel
   * positions already taken (open addressing, 0 for empty). */
  GArray          *arrows;
  guint64         *seen;
  gsize            seen_size;
  gsize            n_seen;
};

G_DEFINE_FINAL_TYPE (ChronoFlowPainter, chrono_flow_painter, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_INDEX,
  PROP_DARK,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
chrono_flow_painter_finalize (GObject *object)
{
  ChronoFlowPainter *self = CHRONO_FLOW_PAINTER (object);

  g_clear_object (&self->index);
  g_clear_pointer (&self->arrows, g_array_unref);
  g_free (self->seen);

  G_OBJECT_CLASS (chrono_flow_painter_parent_class)->finalize (object);
}

static void
chrono_flow_painter_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  ChronoFlowPainter *self = CHRONO_FLOW_PAINTER (object);

  switch (prop_id)
    {
    case PROP_INDEX:
      g_value_set_object (value, self->index);
      break;
    case PROP_DARK:
      g_value_set_boolean (value, self->dark);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_flow_painter_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  ChronoFlowPainter *self = CHRONO_FLOW_PAINTER (object);

  switch (prop_id)
    {
    case PROP_INDEX:
      self->index = g_value_dup_object (value);
      break;
    case PROP_DARK:
      chrono_flow_painter_set_dark (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_flow_painter_class_init (ChronoFlowPainterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = chrono_flow_painter_finalize;
  object_class->get_property = chrono_flow_painter_get_property;
  object_class->set_property = chrono_flow_painter_set_property;

  properties[PROP_INDEX] =
    g_param_spec_object ("index", NULL, NULL, CHRONO_TYPE_FLOW_INDEX,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DARK] =
    g_param_spec_boolean ("dark", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Node types register with GTK, or on first request: painters also
   * run without it. */
  g_type_ensure (GSK_TYPE_CAIRO_NODE);
}

static void
chrono_flow_painter_init (ChronoFlowPainter *self)
{
  self->arrows = g_array_new (FALSE, FALSE, sizeof (ChronoFlowArrow));
}

ChronoFlowPainter *
chrono_flow_painter_new (ChronoFlowIndex *index)
{
  g_return_val_if_fail (CHRONO_IS_FLOW_INDEX (index), NULL);
  return g_object_new (CHRONO_TYPE_FLOW_PAINTER, "index", index, NULL);
}

ChronoFlowIndex *
chrono_flow_painter_get_index (ChronoFlowPainter *self)
{
  g_return_val_if_fail (CHRONO_IS_FLOW_PAINTER (self), NULL);
  return self->index;
}

gboolean
chrono_flow_painter_get_dark (ChronoFlowPainter *self)
{
  g_return_val_if_fail (CHRONO_IS_FLOW_PAINTER (self), FALSE);
  return self->dark;
}

void
chrono_flow_painter_set_dark (ChronoFlowPainter *self,
                              gboolean           dark)
{
  g_return_if_fail (CHRONO_IS_FLOW_PAINTER (self));

  dark = !!dark;
  if (self->dark == dark)
    return;
  self->dark = dark;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
}

/* -------------------------------------------------------------------- */
/* Geometry                                                             */

static gboolean
arrow_from_map (ChronoFlowPainter   *self,
                const ChronoTimeMap *map,
                guint                flow,
                ChronoFlowPlaceFunc  place,
                gpointer             user_data,
                ChronoFlowArrow     *arrow)
{
  ChronoTrace *trace = chrono_flow_index_get_trace (self->index);
  const ChronoFlow *f = chrono_trace_get_flow (trace, flow);
  gint64 from_ns, to_ns;

  if (!place (f->from, &arrow->y0, user_data) || !place (f->to, &arrow->y1, user_data))
    return FALSE;
  chrono_flow_index_get_times (self->index, flow, &from_ns, &to_ns);
  arrow->x0 = chrono_time_map_to_x (map, from_ns);
  arrow->x1 = chrono_time_map_to_x (map, to_ns);
  arrow->type = f->type;
  return TRUE;
}

gboolean
chrono_flow_painter_get_arrow (ChronoFlowPainter   *self,
                               ChronoViewport      *viewport,
                               guint                flow,
                               ChronoFlowPlaceFunc  place,
                               gpointer             user_data,
                               ChronoFlowArrow     *arrow)
{
  ChronoTimeMap map;

  g_return_val_if_fail (CHRONO_IS_FLOW_PAINTER (self), FALSE);
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (viewport), FALSE);
  g_return_val_if_fail (flow < chrono_trace_get_n_flows (chrono_flow_index_get_trace (self->index)), FALSE);
  g_return_val_if_fail (place != NULL && arrow != NULL, FALSE);

  _chrono_viewport_get_time_map (viewport, &map);
  return arrow_from_map (self, &map, flow, place, user_data, arrow);
}

/* Whether any of the arrow can show in a WIDTH x HEIGHT area: curves
 * stay between their ends' rows and bend out at most MAX_BEND_PX. */
static gboolean
arrow_shows (const ChronoFlowArrow *arrow,
             double                 width,
             double                 height)
{
  double pad = MAX_BEND_PX + CHRONO_FLOW_PAINTER_HEAD_PX;

  if (MAX (arrow->y0, arrow->y1) < -HALO_PX || MIN (arrow->y0, arrow->y1) > height + HALO_PX)
    return FALSE;
  if (MAX (arrow->x0, arrow->x1) < -pad || MIN (arrow->x0, arrow->x1) > width + pad)
    return FALSE;
  /* Ends on one pixel: nothing to point at. */
  return fabs (arrow->x1 - arrow->x0) >= 1 || fabs (arrow->y1 - arrow->y0) >= 1;
}

/* -------------------------------------------------------------------- */
/* Drawing                                                              */

static double
pull_in (double x,
         double width)
{
  double far = FAR_WIDTHS * MAX (width, 1);

  return CLAMP (x, -far, width + far);
}

static void
path_arrow (cairo_t               *cr,
            const ChronoFlowArrow *arrow,
            double                 width,
            double                 head)
{
  double x0 = pull_in (arrow->x0, width);
  double x1 = pull_in (arrow->x1, width);
  double y0 = arrow->y0, y1 = arrow->y1;
  double base = x1 - head;
  double bend = CLAMP (fabs (base - x0) / 2, MIN_BEND_PX, MAX_BEND_PX);

  /* Leaves its source and reaches its target heading right: a curve
   * reads as an arrow even where the two are one above the other. */
  cairo_move_to (cr, x0, y0);
  if (fabs (y1 - y0) < 0.5 && base >= x0)
    cairo_line_to (cr, base, y1);
  else
    cairo_curve_to (cr, x0 + bend, y0, base - bend, y1, base, y1);
}

static void
path_head (cairo_t               *cr,
           const ChronoFlowArrow *arrow,
           double                 width,
           double                 head)
{
  double x1 = pull_in (arrow->x1, width);

  cairo_move_to (cr, x1, arrow->y1);
  cairo_line_to (cr, x1 - head, arrow->y1 - head / 2);
  cairo_line_to (cr, x1 - head, arrow->y1 + head / 2);
  cairo_close_path (cr);
}

typedef enum {
  STYLE_BOLD,
  STYLE_THIN,
  STYLE_DENSE,
} Style;

/* Whether STYLE draws ARROW faint: crowds, and in a window of many
 * arrows those that come from or go off its edges, which would
 * otherwise run as thick bands along the rows they cross. */
static gboolean
is_faint (const ChronoFlowArrow *arrow,
          double                 width,
          Style                  style)
{
  if (style == STYLE_BOLD)
    return FALSE;
  return style == STYLE_DENSE || MIN (arrow->x0, arrow->x1) < 0 || MAX (arrow->x0, arrow->x1) > width;
}

/* All arrows of the frame: first every halo, then each type's lines
 * and heads in its colour, so halos never cut through other arrows;
 * faint ones have no halo. */
static GskRenderNode *
paint_arrows (ChronoFlowPainter *self,
              double             width,
              double             height,
              Style              style)
{
  static const double line_widths[] = { BOLD_WIDTH_PX, THIN_WIDTH_PX, DENSE_WIDTH_PX };
  static const double alphas[] = { 1.0, THIN_ALPHA, DENSE_ALPHA };
  static const double heads[] = { CHRONO_FLOW_PAINTER_HEAD_PX, CHRONO_FLOW_PAINTER_HEAD_PX - 1,
                                  CHRONO_FLOW_PAINTER_HEAD_PX - 2 };
  double line_width = line_widths[style];
  double head = heads[style];
  GdkRGBA halo = self->dark ? (GdkRGBA) { 0.08, 0.08, 0.08, 0.75 }
                            : (GdkRGBA) { 1, 1, 1, 0.8 };
  GskRenderNode *node;
  cairo_t *cr;

  if (self->arrows->len == 0)
    return NULL;

  node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, width, height));
  cr = gsk_cairo_node_get_draw_context (node);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_clip (cr);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);

  for (guint i = 0; i < self->arrows->len; i++)
    {
      const ChronoFlowArrow *arrow = &g_array_index (self->arrows, ChronoFlowArrow, i);

      if (is_faint (arrow, width, style))
        continue;
      path_arrow (cr, arrow, width, head);
      path_head (cr, arrow, width, head);
    }
  gdk_cairo_set_source_rgba (cr, &halo);
  cairo_set_line_width (cr, line_width + 2 * HALO_PX);
  cairo_stroke (cr);

  cairo_set_line_width (cr, line_width);
  for (int type = 0; type < CHRONO_N_FLOW_TYPES; type++)
    for (int faint = 0; faint <= 1; faint++)
      {
        GdkRGBA color;
        gboolean any = FALSE;

        for (guint i = 0; i < self->arrows->len; i++)
          {
            const ChronoFlowArrow *arrow = &g_array_index (self->arrows, ChronoFlowArrow, i);

            if (arrow->type != (ChronoFlowType) type || is_faint (arrow, width, style) != faint)
              continue;
            path_arrow (cr, arrow, width, head);
            any = TRUE;
          }
        if (!any)
          continue;
        chrono_palette_flow_color (type, self->dark, &color);
        color.alpha = faint ? DENSE_ALPHA : alphas[style];
        gdk_cairo_set_source_rgba (cr, &color);
        cairo_stroke (cr);

        for (guint i = 0; i < self->arrows->len; i++)
          {
            const ChronoFlowArrow *arrow = &g_array_index (self->arrows, ChronoFlowArrow, i);

            if (arrow->type == (ChronoFlowType) type && is_faint (arrow, width, style) == faint)
              path_head (cr, arrow, width, head);
          }
        cairo_fill (cr);
      }
  cairo_destroy (cr);
  g_array_set_size (self->arrows, 0);
  return node;
}

GskRenderNode *
chrono_flow_painter_paint_flows (ChronoFlowPainter   *self,
                                 ChronoViewport      *viewport,
                                 const guint         *flows,
                                 guint                n_flows,
                                 ChronoFlowPlaceFunc  place,
                                 gpointer             user_data,
                                 double               height)
{
  double width;
  ChronoTimeMap map;

  g_return_val_if_fail (CHRONO_IS_FLOW_PAINTER (self), NULL);
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (viewport), NULL);
  g_return_val_if_fail (flows != NULL || n_flows == 0, NULL);
  g_return_val_if_fail (place != NULL, NULL);

  width = chrono_viewport_get_width_px (viewport);
  if (width <= 0 || height <= 0)
    return NULL;
  _chrono_viewport_get_time_map (viewport, &map);
  for (guint i = 0; i < n_flows; i++)
    {
      ChronoFlowArrow arrow;

      if (arrow_from_map (self, &map, flows[i], place, user_data, &arrow) &&
          arrow_shows (&arrow, width, height))
        g_array_append_val (self->arrows, arrow);
    }
  return paint_arrows (self, width, height, STYLE_BOLD);
}

/* -------------------------------------------------------------------- */
/* Every flow of a window                                               */

static guint64
pixel_key (const ChronoFlowArrow *arrow)
{
  guint64 key = arrow->type;
  double values[4] = { arrow->x0, arrow->y0, arrow->x1, arrow->y1 };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    key = (key << 15) | ((guint64) (CLAMP (round (values[i]), -KEY_LIMIT, KEY_LIMIT) + KEY_LIMIT) & 0x7fff);
  /* The top bit marks a used slot. */
  return key | G_GUINT64_CONSTANT (1) << 63;
}

/* Adds KEY to the set; FALSE when it was there already. */
static gboolean
seen_add (ChronoFlowPainter *self,
          guint64            key)
{
  gsize mask, slot;

  if (2 * (self->n_seen + 1) > self->seen_size)
    {
      g_autofree guint64 *old = self->seen;
      gsize old_size = self->seen_size;

      self->seen_size = MAX (1024, 2 * old_size);
      self->seen = g_new0 (guint64, self->seen_size);
      self->n_seen = 0;
      for (gsize i = 0; i < old_size; i++)
        if (old[i] != 0)
          seen_add (self, old[i]);
    }

  mask = self->seen_size - 1;
  /* Fibonacci hashing spreads keys that differ only in low bits. */
  slot = (gsize) ((key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 20) & mask;
  while (self->seen[slot] != 0)
    {
      if (self->seen[slot] == key)
        return FALSE;
      slot = (slot + 1) & mask;
    }
  self->seen[slot] = key;
  self->n_seen++;
  return TRUE;
}

typedef struct {
  ChronoFlowPainter   *self;
  ChronoTimeMap        map;
  ChronoFlowPlaceFunc  place;
  gpointer             user_data;
  double               width;
  double               height;
} RangeWalk;

static void
add_range_flow (guint    flow,
                gpointer user_data)
{
  RangeWalk *walk = user_data;
  ChronoFlowArrow arrow;

  if (arrow_from_map (walk->self, &walk->map, flow, walk->place, walk->user_data, &arrow) &&
      arrow_shows (&arrow, walk->width, walk->height) &&
      seen_add (walk->self, pixel_key (&arrow)))
    g_array_append_val (walk->self->arrows, arrow);
}

GskRenderNode *
chrono_flow_painter_paint_range (ChronoFlowPainter   *self,
                                 ChronoViewport      *viewport,
                                 ChronoFlowPlaceFunc  place,
                                 gpointer             user_data,
                                 double               height,
                                 guint               *n_arrows)
{
  RangeWalk walk = { self, { 0 }, place, user_data, 0, height };

  g_return_val_if_fail (CHRONO_IS_FLOW_PAINTER (self), NULL);
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (viewport), NULL);
  g_return_val_if_fail (place != NULL, NULL);

  if (n_arrows != NULL)
    *n_arrows = 0;
  walk.width = chrono_viewport_get_width_px (viewport);
  if (walk.width <= 0 || height <= 0)
    return NULL;

  _chrono_viewport_get_time_map (viewport, &walk.map);
  /* Arrows bend past their ends: flows just outside the window show.
   * Arrows shorter than a pixel between the same two tracks land on
   * one another: one a pixel column stands for them. */
  chrono_flow_index_foreach_in_columns (self->index,
                                        chrono_viewport_x_to_time (viewport, -MAX_BEND_PX),
                                        chrono_viewport_x_to_time (viewport, walk.width + MAX_BEND_PX),
                                        chrono_viewport_get_start_ns (viewport),
                                        1 / chrono_viewport_get_px_per_ns (viewport),
                                        add_range_flow, &walk);
  if (self->seen != NULL)
    memset (self->seen, 0, self->seen_size * sizeof (guint64));
  self->n_seen = 0;
  if (n_arrows != NULL)
    *n_arrows = self->arrows->len;
  return paint_arrows (self, walk.width, height,
                       self->arrows->len > DENSE_PER_PX * walk.width ? STYLE_DENSE : STYLE_THIN);
}
