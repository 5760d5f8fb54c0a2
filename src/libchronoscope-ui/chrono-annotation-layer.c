/* chrono-annotation-layer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include <pango/pangocairo.h>

#include "chrono-annotation-layer.h"
#include "chrono-format.h"
#include "chrono-palette.h"
#include "chrono-text-layout.h"
#include "chrono-track-keys.h"

#define HEADER_WIDTH CHRONO_SCENE_HEADER_WIDTH
/* What they cover shows through: a fill never hides a span. */
#define AREA_ALPHA      0.16
#define SPAN_ALPHA      0.3
#define LINE_WIDTH      2.0
#define LABEL_PAD       3.0
#define LABEL_MAX_WIDTH 360.0
#define HEAD_PX         8.0
/* A measurement's line runs this far below the top of the track area. */
#define MEASURE_Y       14.0

struct _ChronoAnnotationLayer
{
  GObject              parent_instance;

  ChronoTimelineScene *scene;        /* owns the layer */
  ChronoAnnotations   *annotations;
  GHashTable          *tracks_by_key;
};

G_DEFINE_FINAL_TYPE (ChronoAnnotationLayer, chrono_annotation_layer, G_TYPE_OBJECT)

static void
chrono_annotation_layer_finalize (GObject *object)
{
  ChronoAnnotationLayer *self = CHRONO_ANNOTATION_LAYER (object);

  g_clear_object (&self->annotations);
  g_clear_pointer (&self->tracks_by_key, g_hash_table_unref);

  G_OBJECT_CLASS (chrono_annotation_layer_parent_class)->finalize (object);
}

static void
chrono_annotation_layer_class_init (ChronoAnnotationLayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_annotation_layer_finalize;
}

static void
chrono_annotation_layer_init (ChronoAnnotationLayer *self)
{
}

ChronoAnnotationLayer *
chrono_annotation_layer_new (ChronoTimelineScene *scene,
                             ChronoAnnotations   *annotations)
{
  ChronoAnnotationLayer *self;
  g_auto(GStrv) keys = NULL;

  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (scene), NULL);
  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (annotations), NULL);

  self = g_object_new (CHRONO_TYPE_ANNOTATION_LAYER, NULL);
  self->scene = scene;
  self->annotations = g_object_ref (annotations);
  keys = chrono_track_keys_new (chrono_timeline_scene_get_trace (scene));
  self->tracks_by_key = chrono_annotations_index_keys ((const char * const *) keys);
  return self;
}

ChronoAnnotations *
chrono_annotation_layer_get_annotations (ChronoAnnotationLayer *self)
{
  g_return_val_if_fail (CHRONO_IS_ANNOTATION_LAYER (self), NULL);
  return self->annotations;
}

gboolean
chrono_annotation_layer_resolve (ChronoAnnotationLayer  *self,
                                 const ChronoSpanAnchor *anchor,
                                 ChronoSpanRef          *span)
{
  g_return_val_if_fail (CHRONO_IS_ANNOTATION_LAYER (self), FALSE);
  return chrono_span_anchor_resolve (anchor, chrono_timeline_scene_get_trace (self->scene),
                                     self->tracks_by_key, span);
}

static void
get_color (ChronoAnnotationLayer  *self,
           const ChronoAnnotation *a,
           GdkRGBA                *color)
{
  if (a->color == 0)
    {
      GdkRGBA background, text;

      chrono_palette_canvas_colors (chrono_timeline_scene_get_dark (self->scene), &background, &text, color);
      return;
    }
  *color = (GdkRGBA) { (a->color >> 24) / 255.0, ((a->color >> 16) & 0xff) / 255.0,
                       ((a->color >> 8) & 0xff) / 255.0, (a->color & 0xff) / 255.0 };
}

static void
set_source (cairo_t       *cr,
            const GdkRGBA *color,
            double         alpha)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha * alpha);
}

/* TEXT in a box of COLOR, its top left at (X, Y), kept inside the track
 * area's WIDTH; ABOVE puts its bottom at Y instead. */
static void
draw_label (ChronoAnnotationLayer *self,
            cairo_t               *cr,
            const char            *text,
            const GdkRGBA         *color,
            double                 x,
            double                 y,
            gboolean               above)
{
  g_autoptr(PangoLayout) layout = NULL;
  double width = chrono_timeline_scene_get_width (self->scene);
  GdkRGBA opaque = *color, ink;
  int w, h;

  if (text == NULL || *text == '\0')
    return;
  layout = pango_layout_new (chrono_timeline_scene_get_pango_context (self->scene));
  chrono_text_layout_disable_ligatures (layout);
  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, (int) (LABEL_MAX_WIDTH * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  pango_layout_get_pixel_size (layout, &w, &h);
  if (above)
    y -= h + 2 * LABEL_PAD;
  x = CLAMP (x, HEADER_WIDTH, MAX (HEADER_WIDTH, width - w - 2 * LABEL_PAD));
  y = MAX (y, 0);

  opaque.alpha = 1;
  chrono_palette_text_color (&opaque, &ink);
  gdk_cairo_set_source_rgba (cr, &opaque);
  cairo_rectangle (cr, x, y, w + 2 * LABEL_PAD, h + 2 * LABEL_PAD);
  cairo_fill (cr);
  gdk_cairo_set_source_rgba (cr, &ink);
  cairo_move_to (cr, x + LABEL_PAD, y + LABEL_PAD);
  pango_cairo_show_layout (cr, layout);
}

static void
draw_head (cairo_t *cr,
           double   x,
           double   y,
           double   dx,
           double   dy)
{
  double length = hypot (dx, dy);

  if (length == 0)
    return;
  dx /= length;
  dy /= length;
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x - HEAD_PX * dx - HEAD_PX / 2 * dy, y - HEAD_PX * dy + HEAD_PX / 2 * dx);
  cairo_line_to (cr, x - HEAD_PX * dx + HEAD_PX / 2 * dy, y - HEAD_PX * dy - HEAD_PX / 2 * dx);
  cairo_close_path (cr);
  cairo_fill (cr);
}

static double
time_to_x (ChronoAnnotationLayer *self,
           gint64                 ns)
{
  double x = chrono_viewport_time_to_x (chrono_timeline_scene_get_viewport (self->scene), ns);

  return HEADER_WIDTH + CLAMP (x, -1e5, 1e5);
}

/* Where an area's tracks are drawn, top to bottom: the whole height
 * when it names none. */
static void
area_rows (ChronoAnnotationLayer  *self,
           const ChronoAnnotation *a,
           GArray                 *rects)
{
  ChronoTimelineScene *scene = self->scene;
  double top = chrono_timeline_scene_get_ruler_height (scene);
  double x0 = time_to_x (self, a->start_ns), x1 = MAX (time_to_x (self, a->end_ns), x0 + 1);

  if (a->tracks == NULL || a->tracks[0] == NULL)
    {
      graphene_rect_t all = GRAPHENE_RECT_INIT (x0, top, x1 - x0, chrono_timeline_scene_get_track_area_height (scene));

      g_array_append_val (rects, all);
      return;
    }
  for (guint i = 0; a->tracks[i] != NULL; i++)
    {
      guint track = GPOINTER_TO_UINT (g_hash_table_lookup (self->tracks_by_key, a->tracks[i]));
      guint r = track > 0 ? chrono_timeline_scene_get_track_row (scene, track - 1) : CHRONO_SCENE_NO_ROW;
      const ChronoSceneRow *row;
      graphene_rect_t rect;

      if (r == CHRONO_SCENE_NO_ROW)
        continue;
      row = chrono_timeline_scene_get_row (scene, r);
      graphene_rect_init (&rect, x0, chrono_timeline_scene_get_row_top (scene, row), x1 - x0, row->height);
      g_array_append_val (rects, rect);
    }
}

static void
draw_area (ChronoAnnotationLayer  *self,
           cairo_t                *cr,
           const ChronoAnnotation *a,
           const GdkRGBA          *color)
{
  g_autoptr(GArray) rects = g_array_new (FALSE, FALSE, sizeof (graphene_rect_t));
  const graphene_rect_t *first;

  area_rows (self, a, rects);
  if (rects->len == 0)
    return;
  for (guint i = 0; i < rects->len; i++)
    {
      const graphene_rect_t *r = &g_array_index (rects, graphene_rect_t, i);

      set_source (cr, color, AREA_ALPHA);
      cairo_rectangle (cr, r->origin.x, r->origin.y, r->size.width, r->size.height);
      cairo_fill (cr);
      set_source (cr, color, 1);
      cairo_set_line_width (cr, LINE_WIDTH / 2);
      cairo_rectangle (cr, r->origin.x + 0.5, r->origin.y + 0.5, r->size.width - 1, r->size.height - 1);
      cairo_stroke (cr);
    }
  /* Over the area, outside it, unless it starts at the top. */
  first = &g_array_index (rects, graphene_rect_t, 0);
  draw_label (self, cr, a->text, color, first->origin.x, first->origin.y,
              first->origin.y - chrono_timeline_scene_get_ruler_height (self->scene) > 20);
}

static void
draw_span (ChronoAnnotationLayer  *self,
           cairo_t                *cr,
           const ChronoAnnotation *a,
           const GdkRGBA          *color)
{
  ChronoSpanRef span;
  graphene_rect_t r;

  if (!chrono_annotation_layer_resolve (self, &a->span, &span) ||
      !chrono_timeline_scene_get_span_area (self->scene, span, &r))
    return;
  if (a->kind == CHRONO_ANNOTATION_HIGHLIGHT)
    {
      set_source (cr, color, SPAN_ALPHA);
      cairo_rectangle (cr, r.origin.x, r.origin.y, r.size.width, r.size.height);
      cairo_fill (cr);
    }
  /* Around the span, outside it. */
  set_source (cr, color, 1);
  cairo_set_line_width (cr, LINE_WIDTH);
  cairo_rectangle (cr, r.origin.x - 1, r.origin.y - 1, r.size.width + 2, r.size.height + 2);
  cairo_stroke (cr);
  /* Above the span when there is room in the track area, else below. */
  if (r.origin.y - chrono_timeline_scene_get_ruler_height (self->scene) > 22)
    draw_label (self, cr, a->text, color, r.origin.x, r.origin.y - 2, TRUE);
  else
    draw_label (self, cr, a->text, color, r.origin.x, r.origin.y + r.size.height + 2, FALSE);
}

static void
draw_instant (ChronoAnnotationLayer  *self,
              cairo_t                *cr,
              const ChronoAnnotation *a,
              const GdkRGBA          *color)
{
  double x = time_to_x (self, a->start_ns);
  double top = chrono_timeline_scene_get_ruler_height (self->scene);

  set_source (cr, color, 1);
  cairo_set_line_width (cr, LINE_WIDTH);
  cairo_move_to (cr, x, top);
  cairo_line_to (cr, x, chrono_timeline_scene_get_height (self->scene));
  cairo_stroke (cr);
  draw_label (self, cr, a->text, color, x + 3, top + 2, FALSE);
}

static void
draw_arrow (ChronoAnnotationLayer  *self,
            cairo_t                *cr,
            const ChronoAnnotation *a,
            const GdkRGBA          *color)
{
  ChronoSpanRef from, to;
  graphene_rect_t r0, r1;
  double x0, y0, x1, y1;

  if (!chrono_annotation_layer_resolve (self, &a->span, &from) ||
      !chrono_annotation_layer_resolve (self, &a->to, &to) ||
      !chrono_timeline_scene_get_span_area (self->scene, from, &r0) ||
      !chrono_timeline_scene_get_span_area (self->scene, to, &r1))
    return;
  /* From the tail's end to the head's start, at the middle of their rows. */
  x0 = r0.origin.x + r0.size.width;
  y0 = r0.origin.y + r0.size.height / 2;
  x1 = r1.origin.x;
  y1 = r1.origin.y + r1.size.height / 2;
  set_source (cr, color, 1);
  cairo_set_line_width (cr, LINE_WIDTH);
  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, x1 - (x1 - x0) * HEAD_PX / MAX (hypot (x1 - x0, y1 - y0), 1),
                 y1 - (y1 - y0) * HEAD_PX / MAX (hypot (x1 - x0, y1 - y0), 1));
  cairo_stroke (cr);
  draw_head (cr, x1, y1, x1 - x0, y1 - y0);
  draw_label (self, cr, a->text, color, (x0 + x1) / 2, (y0 + y1) / 2, TRUE);
}

static void
draw_measurement (ChronoAnnotationLayer  *self,
                  cairo_t                *cr,
                  const ChronoAnnotation *a,
                  const GdkRGBA          *color)
{
  const double dash[] = { 4, 3 };
  double top = chrono_timeline_scene_get_ruler_height (self->scene);
  double bottom = chrono_timeline_scene_get_height (self->scene);
  double x0 = time_to_x (self, a->start_ns), x1 = time_to_x (self, a->end_ns), y = top + MEASURE_Y;
  g_autofree char *duration = chrono_format_duration (a->end_ns - a->start_ns);
  g_autofree char *label = a->text != NULL && *a->text != '\0' ? g_strdup_printf ("%s · %s", duration, a->text)
                                                                 : g_strdup (duration);

  set_source (cr, color, 1);
  cairo_set_line_width (cr, 1);
  cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
  cairo_move_to (cr, floor (x0) + 0.5, top);
  cairo_line_to (cr, floor (x0) + 0.5, bottom);
  cairo_move_to (cr, floor (x1) + 0.5, top);
  cairo_line_to (cr, floor (x1) + 0.5, bottom);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_set_line_width (cr, LINE_WIDTH);
  cairo_move_to (cr, x0 + HEAD_PX, y);
  cairo_line_to (cr, x1 - HEAD_PX, y);
  cairo_stroke (cr);
  draw_head (cr, x0, y, -1, 0);
  draw_head (cr, x1, y, 1, 0);
  draw_label (self, cr, label, color, (x0 + x1) / 2 - 20, y + 3, FALSE);
}

void
chrono_annotation_layer_snapshot (ChronoAnnotationLayer *self,
                                  GtkSnapshot           *snapshot)
{
  ChronoTimelineScene *scene;
  g_autoptr(GskRenderNode) node = NULL;
  double width, height;
  cairo_t *cr;

  g_return_if_fail (CHRONO_IS_ANNOTATION_LAYER (self));

  scene = self->scene;
  width = chrono_timeline_scene_get_width (scene);
  height = chrono_timeline_scene_get_height (scene);
  if (chrono_annotations_get_n (self->annotations) == 0 || width <= HEADER_WIDTH)
    return;

  /* One drawing from the scene's origin (see snapshot_triangle()). */
  node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, width, height));
  cr = gsk_cairo_node_get_draw_context (node);
  cairo_rectangle (cr, HEADER_WIDTH, chrono_timeline_scene_get_ruler_height (scene), width - HEADER_WIDTH,
                   chrono_timeline_scene_get_track_area_height (scene));
  cairo_clip (cr);
  /* Areas first: lines and labels go over them. */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < chrono_annotations_get_n (self->annotations); i++)
      {
        const ChronoAnnotation *a = chrono_annotations_get (self->annotations, i);
        gboolean is_area = a->anchor == CHRONO_ANCHOR_AREA && a->kind != CHRONO_ANNOTATION_MEASUREMENT;
        GdkRGBA color;

        if (is_area != (pass == 0))
          continue;
        get_color (self, a, &color);
        if (a->kind == CHRONO_ANNOTATION_ARROW)
          draw_arrow (self, cr, a, &color);
        else if (a->kind == CHRONO_ANNOTATION_MEASUREMENT)
          draw_measurement (self, cr, a, &color);
        else if (a->anchor == CHRONO_ANCHOR_SPAN)
          draw_span (self, cr, a, &color);
        else if (a->anchor == CHRONO_ANCHOR_INSTANT)
          draw_instant (self, cr, a, &color);
        else
          draw_area (self, cr, a, &color);
      }
  cairo_destroy (cr);
  gtk_snapshot_append_node (snapshot, node);
}
