/* test-track-painter.c: render nodes of spans, labels, instants and
 * counters, inspected as nodes and as pixels, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-loader.h"
#include "chrono-palette.h"
#include "chrono-track-painter-private.h"
#include "test-utils.h"

#define BASE_US    G_GINT64_CONSTANT (1734333959126914)
#define ROW_HEIGHT 20.0
#define REAL_TRACE "param__resnet_kineto.json.gz"

typedef struct {
  graphene_rect_t rect;
  GdkRGBA         color;
} Rect;

typedef struct {
  GskRenderNode *node;
  double         x;       /* where its first glyph starts */
  double         y;       /* baseline */
  double         width;   /* sum of the glyph advances */
} Text;

static void
append_span (GString    *json,
             guint       tid,
             const char *cat,
             const char *name,
             double      ts_us,
             double      dur_us)
{
  g_string_append_printf (json, "%s{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"cat\":\"%s\",\"name\":\"%s\","
                          "\"ts\":%" G_GINT64_FORMAT ".%03d,\"dur\":%.3f}\n",
                          json->len > 20 ? "," : "", tid, cat, name,
                          BASE_US + (gint64) floor (ts_us), (int) round (fmod (ts_us, 1) * 1000), dur_us);
}

static void
collect (GskRenderNode *node,
         GArray        *rects,
         GArray        *texts)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        collect (gsk_container_node_get_child (node, i), rects, texts);
      break;
    case GSK_COLOR_NODE:
      {
        Rect r;

        gsk_render_node_get_bounds (node, &r.rect);
        r.color = *gsk_color_node_get_color (node);
        g_array_append_val (rects, r);
      }
      break;
    case GSK_TEXT_NODE:
      {
        /* The glyph count comes apart: get_glyphs() is declared pure, so
         * its count out-argument may be optimised away. */
        guint n = gsk_text_node_get_num_glyphs (node);
        const PangoGlyphInfo *glyphs = gsk_text_node_get_glyphs (node, NULL);
        Text t = { node, gsk_text_node_get_offset (node)->x, gsk_text_node_get_offset (node)->y, 0 };

        for (guint g = 0; g < n; g++)
          t.width += (double) glyphs[g].geometry.width / PANGO_SCALE;
        g_array_append_val (texts, t);
      }
      break;
    case GSK_CAIRO_NODE:
      /* Slivers, when there are many: tests read them as pixels. */
      break;
    default:
      g_assert_not_reached ();
    }
}

static gboolean
same_color (const GdkRGBA *a,
            const GdkRGBA *b)
{
  return fabs (a->red - b->red) < 1.5 / 255 && fabs (a->green - b->green) < 1.5 / 255
         && fabs (a->blue - b->blue) < 1.5 / 255 && fabs (a->alpha - b->alpha) < 1.5 / 255;
}

static cairo_surface_t *
draw (GskRenderNode *node,
      int            width,
      int            height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);

  if (node != NULL)
    gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static void
pixel (cairo_surface_t *surface,
       int              x,
       int              y,
       GdkRGBA         *color)
{
  const guint8 *row = cairo_image_surface_get_data (surface) + y * cairo_image_surface_get_stride (surface);
  guint32 argb = ((const guint32 *) row)[x];
  double a = (argb >> 24) / 255.0;

  /* Premultiplied in the surface. */
  color->alpha = a;
  color->red = a > 0 ? ((argb >> 16) & 0xff) / 255.0 / a : 0;
  color->green = a > 0 ? ((argb >> 8) & 0xff) / 255.0 / a : 0;
  color->blue = a > 0 ? (argb & 0xff) / 255.0 / a : 0;
}

static void
assert_pixel (cairo_surface_t *surface,
              double           x,
              double           y,
              const GdkRGBA   *expected)
{
  GdkRGBA got;

  pixel (surface, (int) x, (int) y, &got);
  if (!same_color (&got, expected))
    g_error ("pixel (%d, %d) is %.3f %.3f %.3f %.3f, expected %.3f %.3f %.3f %.3f",
             (int) x, (int) y, got.red, got.green, got.blue, got.alpha,
             expected->red, expected->green, expected->blue, expected->alpha);
}

static ChronoViewport *
viewport_for (ChronoTrace *trace,
              int          width)
{
  ChronoViewport *viewport = chrono_viewport_new ();

  chrono_viewport_set_width_px (viewport, width);
  chrono_viewport_set_bounds (viewport, chrono_trace_get_start_ns (trace), chrono_trace_get_end_ns (trace));
  return viewport;
}

/* -------------------------------------------------------------------- */

/* A step of 1000 µs holding two operators, a gap and 200 spans of
 * 0.3 µs: at 1 px per µs, the last merge into one block. */
static ChronoTrace *
small_trace (void)
{
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[\n");

  append_span (json, 1, "user_annotation", "ProfilerStep#1", 0, 1000);
  append_span (json, 1, "cpu_op", "aten::linear", 10, 390);
  append_span (json, 1, "cpu_op", "aten::relu", 420, 10);
  for (guint i = 0; i < 200; i++)
    append_span (json, 1, "cpu_op", "aten::add", 500 + i * 0.5, 0.3);
  g_string_append (json, "]}");
  return test_load_json (json->str);
}

/* Rectangles come batched: one child per colour, each colour once. */
static void
test_structure (void)
{
  g_autoptr(ChronoTrace) trace = small_trace ();
  g_autoptr(ChronoTrackIndex) index = chrono_track_index_new (trace, 0);
  g_autoptr(ChronoTrackPainter) painter = chrono_track_painter_new (trace);
  g_autoptr(ChronoViewport) viewport = viewport_for (trace, 1000);
  g_autoptr(GskRenderNode) node = chrono_track_painter_paint_spans (painter, index, viewport, ROW_HEIGHT);
  g_autoptr(GArray) colors = g_array_new (FALSE, FALSE, sizeof (GdkRGBA));
  GskRenderNode *labels;
  graphene_rect_t bounds;
  guint n_children;

  g_assert_nonnull (node);
  g_assert_cmpint (gsk_render_node_get_node_type (node), ==, GSK_CONTAINER_NODE);
  n_children = gsk_container_node_get_n_children (node);

  /* Step, linear, relu, and the merged block of adds: 4 colours, then
   * the labels. */
  g_assert_cmpuint (n_children, ==, 5);
  for (guint c = 0; c + 1 < n_children; c++)
    {
      GskRenderNode *child = gsk_container_node_get_child (node, c);
      g_autoptr(GArray) rects = g_array_new (FALSE, FALSE, sizeof (Rect));
      g_autoptr(GArray) texts = g_array_new (FALSE, FALSE, sizeof (Text));

      collect (child, rects, texts);
      g_assert_cmpuint (texts->len, ==, 0);
      g_assert_cmpuint (rects->len, >=, 1);
      const GdkRGBA *color = &g_array_index (rects, Rect, 0).color;

      for (guint r = 0; r < rects->len; r++)
        g_assert_true (same_color (&g_array_index (rects, Rect, r).color, color));
      for (guint k = 0; k < colors->len; k++)
        g_assert_false (same_color (&g_array_index (colors, GdkRGBA, k), color));
      g_array_append_vals (colors, color, 1);
    }

  labels = gsk_container_node_get_child (node, n_children - 1);
  g_assert_cmpint (gsk_render_node_get_node_type (labels), ==, GSK_CONTAINER_NODE);
  for (guint i = 0; i < gsk_container_node_get_n_children (labels); i++)
    g_assert_cmpint (gsk_render_node_get_node_type (gsk_container_node_get_child (labels, i)),
                     ==, GSK_TEXT_NODE);

  gsk_render_node_get_bounds (node, &bounds);
  g_assert_cmpfloat (bounds.origin.x, >=, -2);
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, 1002);
  g_assert_cmpfloat (bounds.origin.y, >=, 0);
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, 2 * ROW_HEIGHT);

  /* Nothing to show: no node. */
  chrono_viewport_set_width_px (viewport, 0);
  g_assert_null (chrono_track_painter_paint_spans (painter, index, viewport, ROW_HEIGHT));
}

/* The pixels: each box in its colour above its label, gaps empty, the
 * merged block in its kind's colour; the dark palette elsewhere. */
static void
test_pixels (void)
{
  g_autoptr(ChronoTrace) trace = small_trace ();
  g_autoptr(ChronoTrackIndex) index = chrono_track_index_new (trace, 0);
  g_autoptr(ChronoTrackPainter) painter = chrono_track_painter_new (trace);
  g_autoptr(ChronoViewport) viewport = viewport_for (trace, 1000);
  GdkRGBA step, linear, relu, merged, none = { 0, 0, 0, 0 };

  for (int dark = 0; dark < 2; dark++)
    {
      g_autoptr(GskRenderNode) node = NULL;
      cairo_surface_t *surface;
      double row1 = ROW_HEIGHT + 1;

      chrono_track_painter_set_dark (painter, dark);
      node = chrono_track_painter_paint_spans (painter, index, viewport, ROW_HEIGHT);
      surface = draw (node, 1000, 2 * ROW_HEIGHT);

      chrono_palette_span_color (CHRONO_KIND_STEP, "ProfilerStep#1", dark, &step);
      chrono_palette_span_color (CHRONO_KIND_HOST_OP, "aten::linear", dark, &linear);
      chrono_palette_span_color (CHRONO_KIND_HOST_OP, "aten::relu", dark, &relu);
      chrono_palette_merged_color (CHRONO_KIND_HOST_OP, dark, &merged);

      assert_pixel (surface, 700, 1, &step);
      assert_pixel (surface, 0, 1, &step);
      assert_pixel (surface, 200, row1, &linear);
      assert_pixel (surface, 10, row1, &linear);
      assert_pixel (surface, 9, row1, &none);
      assert_pixel (surface, 410, row1, &none);
      assert_pixel (surface, 425, row1, &relu);
      assert_pixel (surface, 500, row1, &merged);
      assert_pixel (surface, 599, row1, &merged);
      assert_pixel (surface, 601, row1, &none);
      /* The pixel between rows stays empty. */
      assert_pixel (surface, 200, ROW_HEIGHT - 1, &none);
      cairo_surface_destroy (surface);
    }
}

/* -------------------------------------------------------------------- */
/* Every span painted                                                   */

static guint
count_images (GskRenderNode *node)
{
  guint n = 0;

  if (node == NULL)
    return 0;
  if (gsk_render_node_get_node_type (node) == GSK_CAIRO_NODE)
    return 1;
  if (gsk_render_node_get_node_type (node) == GSK_CONTAINER_NODE)
    for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
      n += count_images (gsk_container_node_get_child (node, i));
  return n;
}

static void
assert_same_pixels (cairo_surface_t *a,
                    cairo_surface_t *b)
{
  int height = cairo_image_surface_get_height (a);
  int stride = cairo_image_surface_get_stride (a);
  const guint8 *pa = cairo_image_surface_get_data (a);
  const guint8 *pb = cairo_image_surface_get_data (b);

  g_assert_cmpint (cairo_image_surface_get_width (a), ==, cairo_image_surface_get_width (b));
  g_assert_cmpint (height, ==, cairo_image_surface_get_height (b));
  g_assert_cmpint (stride, ==, cairo_image_surface_get_stride (b));
  for (int y = 0; y < height; y++)
    if (memcmp (pa + (gsize) y * stride, pb + (gsize) y * stride, stride) != 0)
      g_error ("row %d differs between colour nodes and the image", y);
}

/* Whether some rectangle of ROW covers [X0, X1]. */
static gboolean
covered (GArray *rects,
         double  row_y,
         double  x0,
         double  x1)
{
  for (guint r = 0; r < rects->len; r++)
    {
      const graphene_rect_t *rect = &g_array_index (rects, Rect, r).rect;

      if (rect->origin.y == row_y
          && rect->origin.x <= x0 && rect->origin.x + rect->size.width >= x1)
        return TRUE;
    }
  return FALSE;
}

/* Whether every pixel column from X0 to X1 is painted in ROW. */
static gboolean
painted (cairo_surface_t *surface,
         double           row_y,
         double           x0,
         double           x1)
{
  int width = cairo_image_surface_get_width (surface);

  for (int x = (int) MAX (floor (x0), 0); x < MIN (MAX (ceil (x1), floor (x0) + 1), width); x++)
    {
      GdkRGBA color;

      pixel (surface, x, (int) row_y + 1, &color);
      if (color.alpha < 1)
        return FALSE;
    }
  return TRUE;
}

/* Every span visible in the window has its box (within rounding; a wide
 * box gives its last column to the gap after it), or, when narrow, all
 * its pixel columns painted, by itself or by the block it merged into. */
static void
check_coverage (ChronoTrackPainter *painter,
                ChronoTrackIndex   *index,
                ChronoViewport     *viewport)
{
  const ChronoTrack *t = chrono_track_index_get_track (index);
  int width = chrono_viewport_get_width_px (viewport);
  int height = (int) (chrono_track_index_get_n_rows (index) * ROW_HEIGHT);
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GskRenderNode) image = NULL;
  g_autoptr(GArray) rects = g_array_new (FALSE, FALSE, sizeof (Rect));
  g_autoptr(GArray) texts = g_array_new (FALSE, FALSE, sizeof (Text));
  cairo_surface_t *surface, *from_image;

  /* Rectangles as colour nodes, to read them; then all in one image,
   * which must draw the very same pixels. */
  _chrono_track_painter_set_image_px_per_rect (painter, 0);
  node = chrono_track_painter_paint_spans (painter, index, viewport, ROW_HEIGHT);
  _chrono_track_painter_set_image_px_per_rect (painter, G_MAXDOUBLE);
  image = chrono_track_painter_paint_spans (painter, index, viewport, ROW_HEIGHT);
  _chrono_track_painter_set_image_px_per_rect (painter, CHRONO_TRACK_PAINTER_IMAGE_PX_PER_RECT);
  surface = draw (node, width, height);
  from_image = draw (image, width, height);
  assert_same_pixels (surface, from_image);
  cairo_surface_destroy (from_image);

  if (node != NULL)
    collect (node, rects, texts);
  g_assert_true (rects->len == 0 || count_images (image) == 1);
  for (guint32 i = 0; i < t->n_spans; i++)
    {
      double x0 = chrono_viewport_time_to_x (viewport, t->start[i]);
      double x1 = chrono_viewport_time_to_x (viewport, chrono_track_get_end (t, i));
      double row_y = chrono_track_index_get_span_row (index, i) * ROW_HEIGHT;

      if (x1 < 0 || x0 > width)
        continue;
      if (x1 - x0 >= CHRONO_TRACK_PAINTER_MERGE_WIDTH_PX)
        g_assert_true (covered (rects, row_y,
                                round (CLAMP (x0, -2, width + 2)), round (CLAMP (x1, -2, width + 2)) - 1));
      else
        g_assert_true (painted (surface, row_y, x0, x1));
    }
  cairo_surface_destroy (surface);
}

static void
test_coverage (void)
{
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[\n");
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoTrackPainter) painter = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (17);
  double ts = 0;

  /* Runs of tiny spans between long ones, on two depths. */
  for (guint i = 0; i < 3000; i++)
    {
      double dur = g_rand_boolean (rand) ? g_rand_double_range (rand, 0.001, 0.5)
                                         : g_rand_double_range (rand, 1, 300);

      append_span (json, 1, "cpu_op", i % 3 ? "a" : "b", ts, dur);
      if (dur > 4)
        append_span (json, 1, "kernel", "child", ts + 1, dur / 3);
      ts += dur + (g_rand_boolean (rand) ? 0 : g_rand_double_range (rand, 0.001, 50));
    }
  g_string_append (json, "]}");
  trace = test_load_json (json->str);
  painter = chrono_track_painter_new (trace);
  viewport = viewport_for (trace, 800);

  for (guint k = 0; k < chrono_trace_get_n_tracks (trace); k++)
    {
      g_autoptr(ChronoTrackIndex) index = chrono_track_index_new (trace, k);

      for (guint z = 0; z < 40; z++)
        {
          double full = (double) (chrono_trace_get_end_ns (trace) - chrono_trace_get_start_ns (trace));
          double span = exp (g_rand_double_range (rand, log (1000), log (full)));
          gint64 at = chrono_trace_get_start_ns (trace)
                      + (gint64) g_rand_double_range (rand, 0, full - span);

          chrono_viewport_zoom_to_range (viewport, at, at + (gint64) span);
          check_coverage (painter, index, viewport);
        }
    }
}

/* Thousands of narrow spans, each a pixel or two apart, are drawn by one
 * cairo node, every one of them. */
static void
test_slivers (void)
{
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[\n");
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoTrackIndex) index = NULL;
  g_autoptr(ChronoTrackPainter) painter = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  g_autoptr(GskRenderNode) node = NULL;

  for (guint i = 0; i < 3000; i++)
    append_span (json, 1, i % 2 ? "kernel" : "gpu_memcpy", i % 3 ? "x" : "y", i * 2.5, 0.4);
  g_string_append (json, "]}");
  trace = test_load_json (json->str);
  index = chrono_track_index_new (trace, 0);
  painter = chrono_track_painter_new (trace);
  viewport = viewport_for (trace, 7500);

  /* Without labels or boxes, the cairo node is all there is. */
  node = chrono_track_painter_paint_spans (painter, index, viewport, ROW_HEIGHT);
  g_assert_cmpint (gsk_render_node_get_node_type (node), ==, GSK_CAIRO_NODE);
  check_coverage (painter, index, viewport);
}

/* -------------------------------------------------------------------- */
/* Labels                                                               */

typedef struct {
  PangoLayout *layout;
  double       width;
  double       first_width;
  guint        n_glyphs;
  const PangoGlyphInfo *glyphs;
} Shaped;

static void
shape (ChronoTrackPainter *painter,
       const char         *text,
       Shaped             *out)
{
  PangoLayoutLine *line;
  const PangoGlyphString *glyphs;
  PangoRectangle logical;

  out->layout = pango_layout_new (chrono_track_painter_get_pango_context (painter));
  pango_layout_set_font_description (out->layout, chrono_track_painter_get_font (painter));
  pango_layout_set_text (out->layout, text, -1);
  pango_layout_get_extents (out->layout, NULL, &logical);
  out->width = (double) logical.width / PANGO_SCALE;
  line = pango_layout_get_line_readonly (out->layout, 0);
  g_assert_cmpuint (g_slist_length (line->runs), ==, 1);
  glyphs = ((const PangoGlyphItem *) line->runs->data)->glyphs;
  out->n_glyphs = glyphs->num_glyphs;
  out->glyphs = glyphs->glyphs;
  out->first_width = (double) glyphs->glyphs[0].geometry.width / PANGO_SCALE;
}

/* Boxes of one name from wide to a few pixels: a label shows whole when
 * it fits, cut and ended with an ellipsis when only some fits, and not
 * at all when not even a letter and the ellipsis fit; it always stays
 * inside its box. */
static void
test_labels (void)
{
  static const double widths[] = { 400, 200, 150, 100, 60, 40, 25, 18, 12, 6, 3 };
  const char *name = "aten::convolution_backward";
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[\n");
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoTrackIndex) index = NULL;
  g_autoptr(ChronoTrackPainter) painter = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GArray) rects = g_array_new (FALSE, FALSE, sizeof (Rect));
  g_autoptr(GArray) texts = g_array_new (FALSE, FALSE, sizeof (Text));
  double at = 0, pad = CHRONO_TRACK_PAINTER_LABEL_PAD_PX;
  guint whole = 0, cut = 0, bare = 0;
  Shaped full, ellipsis;

  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      append_span (json, 1, "cpu_op", name, at, widths[i]);
      at += widths[i] + 10;
    }
  g_string_append (json, "]}");
  trace = test_load_json (json->str);
  index = chrono_track_index_new (trace, 0);
  painter = chrono_track_painter_new (trace);
  viewport = viewport_for (trace, (int) ceil (at - 10));
  node = chrono_track_painter_paint_spans (painter, index, viewport, ROW_HEIGHT);
  collect (node, rects, texts);
  shape (painter, name, &full);
  shape (painter, "…", &ellipsis);

  at = 0;
  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      double x0 = round (at), x1 = round (at + widths[i]);
      double room;
      g_autoptr(GPtrArray) mine = g_ptr_array_new ();

      if (x1 - x0 >= 4)
        x1 -= 1;
      room = x1 - x0 - 2 * pad;
      for (guint k = 0; k < texts->len; k++)
        {
          Text *t = &g_array_index (texts, Text, k);

          if (t->x >= x0 && t->x < x1)
            {
              /* Inside the box, on the row's baseline. */
              g_assert_cmpfloat (t->x, >=, x0 + pad);
              g_assert_cmpfloat (t->x + t->width, <=, x1 - pad + 1e-6);
              g_assert_cmpfloat (t->y, >, 0);
              g_assert_cmpfloat (t->y, <, ROW_HEIGHT);
              g_ptr_array_add (mine, t);
            }
        }

      if (full.width <= room)
        {
          GskRenderNode *text;
          const PangoGlyphInfo *glyphs;
          guint n;

          g_assert_cmpuint (mine->len, ==, 1);
          text = ((Text *) mine->pdata[0])->node;
          n = gsk_text_node_get_num_glyphs (text);
          glyphs = gsk_text_node_get_glyphs (text, NULL);
          g_assert_cmpuint (n, ==, full.n_glyphs);
          for (guint g = 0; g < n; g++)
            g_assert_cmpuint (glyphs[g].glyph, ==, full.glyphs[g].glyph);
          g_assert_cmpfloat_with_epsilon (((Text *) mine->pdata[0])->x, x0 + pad, 1e-9);
          whole++;
        }
      else if (full.first_width + ellipsis.width <= room)
        {
          guint n, n_dots;
          const PangoGlyphInfo *glyphs, *dots;
          Text *head, *tail;

          /* A prefix of the glyphs, then the ellipsis right after it. */
          g_assert_cmpuint (mine->len, ==, 2);
          head = mine->pdata[0];
          tail = mine->pdata[1];
          n = gsk_text_node_get_num_glyphs (head->node);
          glyphs = gsk_text_node_get_glyphs (head->node, NULL);
          n_dots = gsk_text_node_get_num_glyphs (tail->node);
          dots = gsk_text_node_get_glyphs (tail->node, NULL);
          g_assert_cmpuint (n, >=, 1);
          g_assert_cmpuint (n, <, full.n_glyphs);
          for (guint g = 0; g < n; g++)
            g_assert_cmpuint (glyphs[g].glyph, ==, full.glyphs[g].glyph);
          g_assert_cmpuint (n_dots, ==, 1);
          g_assert_cmpuint (dots[0].glyph, ==, ellipsis.glyphs[0].glyph);
          g_assert_cmpfloat_with_epsilon (tail->x, head->x + head->width, 1e-9);
          /* As much of the name as fits. */
          g_assert_cmpfloat (head->width + (double) full.glyphs[n].geometry.width / PANGO_SCALE
                             + ellipsis.width, >, room);
          cut++;
        }
      else
        {
          g_assert_cmpuint (mine->len, ==, 0);
          bare++;
        }
      at += widths[i] + 10;
    }
  g_test_message ("%u whole, %u cut, %u without a label", whole, cut, bare);
  g_assert_cmpuint (whole, >, 0);
  g_assert_cmpuint (cut, >, 0);
  g_assert_cmpuint (bare, >, 0);

  g_object_unref (full.layout);
  g_object_unref (ellipsis.layout);
}

/* Rows too short for a line of text get no labels; boxes that run off
 * the window keep their label in the part that shows. */
static void
test_label_placement (void)
{
  g_autoptr(ChronoTrace) trace = small_trace ();
  g_autoptr(ChronoTrackIndex) index = chrono_track_index_new (trace, 0);
  g_autoptr(ChronoTrackPainter) painter = chrono_track_painter_new (trace);
  g_autoptr(ChronoViewport) viewport = viewport_for (trace, 1000);
  g_autoptr(GskRenderNode) low = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GArray) rects = g_array_new (FALSE, FALSE, sizeof (Rect));
  g_autoptr(GArray) texts = g_array_new (FALSE, FALSE, sizeof (Text));
  double line = chrono_track_painter_get_line_height (painter);

  g_assert_cmpfloat (line, >, 5);
  low = chrono_track_painter_paint_spans (painter, index, viewport, floor (line));
  collect (low, rects, texts);
  g_assert_cmpuint (texts->len, ==, 0);

  /* The step starts 500 µs left of the window. */
  chrono_viewport_zoom_to_range (viewport, chrono_trace_get_start_ns (trace) + 500000,
                                 chrono_trace_get_start_ns (trace) + 1000000);
  node = chrono_track_painter_paint_spans (painter, index, viewport, ROW_HEIGHT);
  collect (node, rects, texts);
  g_assert_cmpuint (texts->len, >=, 1);
  g_assert_cmpfloat_with_epsilon (g_array_index (texts, Text, 0).x,
                                  CHRONO_TRACK_PAINTER_LABEL_PAD_PX, 1e-9);
  g_assert_cmpfloat (g_array_index (texts, Text, 0).y, <, ROW_HEIGHT);
}

/* Names in right-to-left scripts are ellipsized by Pango, still inside
 * their boxes. */
static void
test_label_rtl (void)
{
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[\n");
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoTrackIndex) index = NULL;
  g_autoptr(ChronoTrackPainter) painter = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GArray) rects = g_array_new (FALSE, FALSE, sizeof (Rect));
  g_autoptr(GArray) texts = g_array_new (FALSE, FALSE, sizeof (Text));

  append_span (json, 1, "cpu_op", "שלום עולם שלום עולם שלום", 0, 60);
  append_span (json, 1, "cpu_op", "end", 100, 10);
  g_string_append (json, "]}");
  trace = test_load_json (json->str);
  index = chrono_track_index_new (trace, 0);
  painter = chrono_track_painter_new (trace);
  viewport = viewport_for (trace, 110);
  node = chrono_track_painter_paint_spans (painter, index, viewport, ROW_HEIGHT);
  collect (node, rects, texts);
  g_assert_cmpuint (texts->len, >=, 1);
  for (guint k = 0; k < texts->len; k++)
    {
      const Text *t = &g_array_index (texts, Text, k);

      if (t->x < 60)
        {
          g_assert_cmpfloat (t->x, >=, CHRONO_TRACK_PAINTER_LABEL_PAD_PX);
          g_assert_cmpfloat (t->x + t->width, <=, 59 - CHRONO_TRACK_PAINTER_LABEL_PAD_PX + 1e-6);
        }
    }
}

/* -------------------------------------------------------------------- */
/* Instants and counters                                                */

static void
test_instants_and_counter (void)
{
  static const guint sample_us[] = { 0, 400, 600 };
  static const guint sample_value[] = { 0, 10, 5 };
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[\n");
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoTrackPainter) painter = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  guint counter = G_MAXUINT, thread = G_MAXUINT;
  GdkRGBA marker, series, fill, none = { 0, 0, 0, 0 };

  append_span (json, 1, "cpu_op", "op", 0, 1000);
  for (guint i = 0; i < 5000; i++)
    g_string_append_printf (json, ",{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":1,\"name\":\"mark\","
                            "\"ts\":%" G_GINT64_FORMAT ".%03u}\n", BASE_US + 100 + i / 100, i % 100);
  g_string_append_printf (json, ",{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":1,\"name\":\"late\","
                          "\"ts\":%" G_GINT64_FORMAT "}\n", BASE_US + 700);
  /* 0 until 400 µs, 10 until 600 µs, then 5. */
  for (guint i = 0; i < G_N_ELEMENTS (sample_us); i++)
    g_string_append_printf (json, ",{\"ph\":\"C\",\"pid\":1,\"name\":\"load\","
                            "\"ts\":%" G_GINT64_FORMAT ",\"args\":{\"v\":%u}}",
                            BASE_US + sample_us[i], sample_value[i]);
  g_string_append (json, "]}");
  trace = test_load_json (json->str);
  painter = chrono_track_painter_new (trace);
  viewport = viewport_for (trace, 1000);

  for (guint k = 0; k < chrono_trace_get_n_tracks (trace); k++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, k);

      if (t->n_samples > 0)
        counter = k;
      if (t->n_instants > 0)
        thread = k;
    }
  g_assert_cmpuint (counter, !=, G_MAXUINT);
  g_assert_cmpuint (thread, !=, G_MAXUINT);

  /* Instants: one marker per pixel column, drawn where they are. */
  {
    g_autoptr(ChronoTrackIndex) index = chrono_track_index_new (trace, thread);
    g_autoptr(GskRenderNode) node = chrono_track_painter_paint_instants (painter, index, viewport, 10);
    cairo_surface_t *surface;

    g_assert_nonnull (node);
    g_assert_cmpint (gsk_render_node_get_node_type (node), ==, GSK_CAIRO_NODE);
    surface = draw (node, 1000, 10);
    chrono_palette_instant_color (FALSE, &marker);
    assert_pixel (surface, 100, 5, &marker);
    assert_pixel (surface, 149, 5, &marker);
    assert_pixel (surface, 700, 5, &marker);
    assert_pixel (surface, 400, 5, &none);
    cairo_surface_destroy (surface);
  }

  /* Counter: an area under the values, scaled to the largest. */
  {
    g_autoptr(ChronoTrackIndex) index = chrono_track_index_new (trace, counter);
    g_autoptr(GskRenderNode) node = chrono_track_painter_paint_counter (painter, index, viewport, 41);
    cairo_surface_t *surface;

    g_assert_nonnull (node);
    surface = draw (node, 1000, 41);
    const char *name = chrono_trace_get_string (trace, chrono_trace_get_track (trace, counter)->name);

    chrono_palette_series_color (name, FALSE, &series);
    chrono_palette_series_fill_color (name, FALSE, &fill);
    /* The line on top of each value, the faded area below it. */
    assert_pixel (surface, 500, 1, &series);
    assert_pixel (surface, 500, 2, &series);
    assert_pixel (surface, 500, 39, &fill);
    assert_pixel (surface, 800, 18, &none);
    assert_pixel (surface, 800, 21, &series);
    assert_pixel (surface, 800, 25, &fill);
    assert_pixel (surface, 200, 30, &none);
    cairo_surface_destroy (surface);
  }
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

/* -------------------------------------------------------------------- */
/* Busy strips                                                          */

/* Two threads: busy where either is, darker where both are, clear where
 * neither is. */
static void
test_busy (void)
{
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[\n");
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoTrackPainter) painter = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  ChronoTrackIndex *indexes[2];
  cairo_surface_t *surface;
  GdkRGBA color, one, both, none = { 0, 0, 0, 0 };

  append_span (json, 1, "cpu_op", "outer", 0, 300);
  append_span (json, 1, "cpu_op", "inner", 50, 50);
  append_span (json, 1, "cpu_op", "late", 900, 100);
  append_span (json, 2, "cpu_op", "other", 200, 300);
  g_string_append (json, "]}");
  trace = test_load_json (json->str);
  g_assert_cmpuint (chrono_trace_get_n_tracks (trace), ==, 2);
  painter = chrono_track_painter_new (trace);
  viewport = viewport_for (trace, 1000);
  indexes[0] = chrono_track_index_new (trace, 0);
  indexes[1] = chrono_track_index_new (trace, 1);

  node = chrono_track_painter_paint_busy (painter, indexes, 2, viewport, 10);
  g_assert_nonnull (node);
  surface = draw (node, 1000, 10);
  chrono_palette_merged_color (CHRONO_KIND_OTHER, FALSE, &color);
  one = both = color;
  one.alpha = 0.625;
  both.alpha = 1;
  assert_pixel (surface, 10, 5, &one);
  assert_pixel (surface, 75, 5, &one);
  assert_pixel (surface, 250, 5, &both);
  assert_pixel (surface, 400, 5, &one);
  assert_pixel (surface, 700, 5, &none);
  assert_pixel (surface, 950, 5, &one);
  cairo_surface_destroy (surface);

  /* Nothing in view, or no tracks: no node. */
  g_clear_pointer (&node, gsk_render_node_unref);
  chrono_viewport_zoom_to_range (viewport, chrono_trace_get_start_ns (trace) + 600000,
                                 chrono_trace_get_start_ns (trace) + 800000);
  g_assert_null (chrono_track_painter_paint_busy (painter, indexes, 2, viewport, 10));
  g_assert_null (chrono_track_painter_paint_busy (painter, NULL, 0, viewport, 10));
  g_object_unref (indexes[0]);
  g_object_unref (indexes[1]);
}

static void
test_properties (void)
{
  g_autoptr(ChronoTrace) trace = small_trace ();
  g_autoptr(ChronoTrackPainter) painter = chrono_track_painter_new (trace);
  g_autoptr(PangoFontDescription) big = pango_font_description_from_string ("Sans 14");
  PangoContext *context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  double normal;
  guint count = 0;

  g_assert_true (chrono_track_painter_get_trace (painter) == trace);
  g_signal_connect (painter, "notify", G_CALLBACK (count_notify), &count);

  chrono_track_painter_set_dark (painter, FALSE);
  g_assert_cmpuint (count, ==, 0);
  g_object_set (painter, "dark", TRUE, NULL);
  g_assert_cmpuint (count, ==, 1);
  g_assert_true (chrono_track_painter_get_dark (painter));

  normal = chrono_track_painter_get_line_height (painter);
  chrono_track_painter_set_font (painter, big);
  chrono_track_painter_set_font (painter, big);
  g_assert_cmpuint (count, ==, 2);
  g_assert_cmpfloat (chrono_track_painter_get_line_height (painter), >, normal);
  chrono_track_painter_set_font (painter, NULL);
  g_assert_cmpuint (count, ==, 3);
  g_assert_cmpfloat (chrono_track_painter_get_line_height (painter), ==, normal);

  chrono_track_painter_set_pango_context (painter, context);
  chrono_track_painter_set_pango_context (painter, context);
  g_assert_cmpuint (count, ==, 4);
  g_assert_true (chrono_track_painter_get_pango_context (painter) == context);
  g_object_unref (context);
}

/* -------------------------------------------------------------------- */
/* Real traces                                                          */

static char *
traces_dir (void)
{
  const char *dir = g_getenv ("CHRONO_TRACES_DIR");

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    return NULL;
  return g_strdup (dir);
}

/* In a PyTorch profiler trace, zoomed onto the longest span of each
 * track's first row, and at full zoom onto spans wide enough to show,
 * the pixels above the labels are the spans' colours. */
static void
test_real_trace (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (REAL_TRACE);
  g_autoptr(ChronoTrackPainter) painter = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  int width = 800;
  guint checked = 0;

  if (trace == NULL)
    return;
  painter = chrono_track_painter_new (trace);
  viewport = viewport_for (trace, width);

  for (guint k = 0; k < chrono_trace_get_n_tracks (trace); k++)
    {
      g_autoptr(ChronoTrackIndex) index = chrono_track_index_new (trace, k);
      const ChronoTrack *t = chrono_track_index_get_track (index);
      guint n_rows = chrono_track_index_get_n_rows (index);
      guint32 n, longest = 0;
      const guint32 *row0;

      if (n_rows == 0)
        continue;
      row0 = chrono_track_index_get_row_spans (index, 0, &n);
      for (guint32 p = 1; p < n; p++)
        if (chrono_track_get_dur (t, row0[p]) > chrono_track_get_dur (t, row0[longest]))
          longest = p;
      longest = row0[longest];

      for (guint pass = 0; pass < 2; pass++)
        {
          g_autoptr(GskRenderNode) node = NULL;
          cairo_surface_t *surface;

          if (pass == 0)
            chrono_viewport_zoom_to_range (viewport, t->start[longest] - chrono_track_get_dur (t, longest) / 2,
                                           t->start[longest] + chrono_track_get_dur (t, longest) * 3 / 2);
          else
            chrono_viewport_show_all (viewport);
          check_coverage (painter, index, viewport);
          node = chrono_track_painter_paint_spans (painter, index, viewport, ROW_HEIGHT);
          surface = draw (node, width, (int) (n_rows * ROW_HEIGHT));

          for (guint32 i = 0; i < t->n_spans; i++)
            {
              double x0 = chrono_viewport_time_to_x (viewport, t->start[i]);
              double x1 = chrono_viewport_time_to_x (viewport, chrono_track_get_end (t, i));
              GdkRGBA color;

              /* Wide, on screen, and the only one there in its row. */
              if (x1 - x0 < 6 || x0 < 0 || x1 > width || (pass == 0 && i != longest))
                continue;
              chrono_palette_span_color (t->kind[i], chrono_trace_get_string (trace, chrono_track_get_name (t, i)),
                                         FALSE, &color);
              assert_pixel (surface, (x0 + x1) / 2,
                            chrono_track_index_get_span_row (index, i) * ROW_HEIGHT + 1, &color);
              checked++;
            }
          cairo_surface_destroy (surface);
        }
    }
  g_test_message ("%u spans checked", checked);
  g_assert_cmpuint (checked, >, 10);
}

/* Every trace of the corpus paints, spans, instants and counters, at full
 * zoom and zoomed in, and draws. */
static void
test_corpus (void)
{
  g_autofree char *dir = traces_dir ();
  g_autoptr(GDir) listing = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  const char *name;
  guint painted = 0;

  if (dir == NULL)
    {
      g_test_skip ("no traces (set CHRONO_TRACES_DIR)");
      return;
    }
  listing = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(ChronoTrace) trace = chrono_trace_load_file (path, NULL, NULL, NULL, NULL);
      g_autoptr(ChronoTrackPainter) painter = NULL;
      g_autoptr(ChronoViewport) viewport = NULL;

      if (trace == NULL)
        continue;
      painter = chrono_track_painter_new (trace);
      viewport = viewport_for (trace, 640);
      for (guint z = 0; z < 3; z++)
        {
          gint64 start = chrono_trace_get_start_ns (trace);
          gint64 end = chrono_trace_get_end_ns (trace);
          gint64 at = start + (gint64) g_rand_double_range (rand, 0, (double) (end - start));

          if (z > 0)
            chrono_viewport_zoom_to_range (viewport, at, at + (end - start) / (z * 50 + 1));
          for (guint k = 0; k < chrono_trace_get_n_tracks (trace); k++)
            {
              g_autoptr(ChronoTrackIndex) index = chrono_track_index_new (trace, k);
              GskRenderNode *nodes[3] = {
                chrono_track_painter_paint_spans (painter, index, viewport, 12),
                chrono_track_painter_paint_instants (painter, index, viewport, 8),
                chrono_track_painter_paint_counter (painter, index, viewport, 24),
              };

              for (guint i = 0; i < G_N_ELEMENTS (nodes); i++)
                if (nodes[i] != NULL)
                  {
                    cairo_surface_destroy (draw (nodes[i], 640, 240));
                    gsk_render_node_unref (nodes[i]);
                  }
            }
        }
      painted++;
    }
  g_test_message ("%u traces painted", painted);
  g_assert_cmpuint (painted, >, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/track-painter/structure", test_structure);
  g_test_add_func ("/track-painter/pixels", test_pixels);
  g_test_add_func ("/track-painter/coverage", test_coverage);
  g_test_add_func ("/track-painter/slivers", test_slivers);
  g_test_add_func ("/track-painter/labels", test_labels);
  g_test_add_func ("/track-painter/label-placement", test_label_placement);
  g_test_add_func ("/track-painter/label-rtl", test_label_rtl);
  g_test_add_func ("/track-painter/instants-and-counter", test_instants_and_counter);
  g_test_add_func ("/track-painter/busy", test_busy);
  g_test_add_func ("/track-painter/properties", test_properties);
  g_test_add_func ("/track-painter/real-trace", test_real_trace);
  g_test_add_func ("/track-painter/corpus", test_corpus);

  return g_test_run ();
}
