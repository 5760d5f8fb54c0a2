/* chrono-track-painter.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include <pango/pangocairo.h>

#include "chrono-image-node-private.h"
#include "chrono-label-cache-private.h"
#include "chrono-palette.h"
#include "chrono-track-painter-private.h"
#include "chrono-viewport-private.h"

#define DEFAULT_FONT      "Sans 9"
/* Boxes this wide give up their last column, so neighbours read apart. */
#define SEPARATE_WIDTH_PX 4.0
#define MARKER_RADIUS_PX  4.0

/* The rectangles of one colour in the frame being painted. */
typedef struct {
  gint64   key;      /* kind << 32 | name id; -1 - kind for merged runs */
  GdkRGBA  color;
  GdkRGBA  text;
  GArray  *boxes;    /* graphene_rect_t: spans wide enough for a box */
  GArray  *slivers;  /* graphene_rect_t: narrow spans and merged runs */
  gboolean touched;
} Bucket;

struct _ChronoTrackPainter
{
  GObject               parent_instance;

  ChronoTrace          *trace;
  gboolean              dark;
  PangoContext         *pango_context;
  PangoFontDescription *font;
  ChronoLabelCache     *labels;     /* made on first use */

  /* Colours are worked out once per name and kind, then only their
   * rectangles change from frame to frame. */
  GPtrArray            *buckets;    /* Bucket */
  GHashTable           *by_key;     /* &Bucket.key -> Bucket */
  GPtrArray            *touched;    /* buckets with rectangles this frame */
  guint                 n_rects;    /* this frame */
  double                image_px_per_rect;
};

G_DEFINE_FINAL_TYPE (ChronoTrackPainter, chrono_track_painter, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TRACE,
  PROP_DARK,
  PROP_FONT,
  PROP_PANGO_CONTEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
bucket_free (gpointer data)
{
  Bucket *bucket = data;

  g_array_unref (bucket->boxes);
  g_array_unref (bucket->slivers);
  g_free (bucket);
}

static void
drop_colors (ChronoTrackPainter *self)
{
  g_hash_table_remove_all (self->by_key);
  g_ptr_array_set_size (self->buckets, 0);
}

static ChronoLabelCache *
get_labels (ChronoTrackPainter *self)
{
  if (self->labels == NULL)
    self->labels = chrono_label_cache_new (self->pango_context, self->font);
  return self->labels;
}

static void
chrono_track_painter_finalize (GObject *object)
{
  ChronoTrackPainter *self = CHRONO_TRACK_PAINTER (object);

  g_clear_object (&self->trace);
  g_clear_object (&self->pango_context);
  g_clear_pointer (&self->font, pango_font_description_free);
  g_clear_pointer (&self->labels, chrono_label_cache_free);
  g_clear_pointer (&self->by_key, g_hash_table_unref);
  g_clear_pointer (&self->buckets, g_ptr_array_unref);
  g_clear_pointer (&self->touched, g_ptr_array_unref);

  G_OBJECT_CLASS (chrono_track_painter_parent_class)->finalize (object);
}

static void
chrono_track_painter_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  ChronoTrackPainter *self = CHRONO_TRACK_PAINTER (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      g_value_set_object (value, chrono_track_painter_get_trace (self));
      break;
    case PROP_DARK:
      g_value_set_boolean (value, chrono_track_painter_get_dark (self));
      break;
    case PROP_FONT:
      g_value_set_boxed (value, chrono_track_painter_get_font (self));
      break;
    case PROP_PANGO_CONTEXT:
      g_value_set_object (value, chrono_track_painter_get_pango_context (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_track_painter_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  ChronoTrackPainter *self = CHRONO_TRACK_PAINTER (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      self->trace = g_value_dup_object (value);
      break;
    case PROP_DARK:
      chrono_track_painter_set_dark (self, g_value_get_boolean (value));
      break;
    case PROP_FONT:
      chrono_track_painter_set_font (self, g_value_get_boxed (value));
      break;
    case PROP_PANGO_CONTEXT:
      chrono_track_painter_set_pango_context (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_track_painter_class_init (ChronoTrackPainterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = chrono_track_painter_finalize;
  object_class->get_property = chrono_track_painter_get_property;
  object_class->set_property = chrono_track_painter_set_property;

  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL,
                         CHRONO_TYPE_TRACE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DARK] =
    g_param_spec_boolean ("dark", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FONT] =
    g_param_spec_boxed ("font", NULL, NULL,
                        PANGO_TYPE_FONT_DESCRIPTION,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PANGO_CONTEXT] =
    g_param_spec_object ("pango-context", NULL, NULL,
                         PANGO_TYPE_CONTEXT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Render node types are registered by gtk_init(), or by asking for one
   * of them: painters also run where GTK is never initialised. */
  g_type_ensure (GSK_TYPE_COLOR_NODE);
}

static void
chrono_track_painter_init (ChronoTrackPainter *self)
{
  /* Without a widget's context, the default font map still shapes text,
   * with no display. */
  self->pango_context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  self->font = pango_font_description_from_string (DEFAULT_FONT);
  self->buckets = g_ptr_array_new_with_free_func (bucket_free);
  self->by_key = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->touched = g_ptr_array_new ();
  self->image_px_per_rect = CHRONO_TRACK_PAINTER_IMAGE_PX_PER_RECT;
}

ChronoTrackPainter *
chrono_track_painter_new (ChronoTrace *trace)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);
  return g_object_new (CHRONO_TYPE_TRACK_PAINTER, "trace", trace, NULL);
}

ChronoTrace *
chrono_track_painter_get_trace (ChronoTrackPainter *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_PAINTER (self), NULL);
  return self->trace;
}

gboolean
chrono_track_painter_get_dark (ChronoTrackPainter *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_PAINTER (self), FALSE);
  return self->dark;
}

void
chrono_track_painter_set_dark (ChronoTrackPainter *self,
                               gboolean            dark)
{
  g_return_if_fail (CHRONO_IS_TRACK_PAINTER (self));

  dark = !!dark;
  if (self->dark == dark)
    return;
  self->dark = dark;
  drop_colors (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
}

const PangoFontDescription *
chrono_track_painter_get_font (ChronoTrackPainter *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_PAINTER (self), NULL);
  return self->font;
}

/* NULL goes back to the default font. */
void
chrono_track_painter_set_font (ChronoTrackPainter         *self,
                               const PangoFontDescription *font)
{
  g_autoptr(PangoFontDescription) fallback = NULL;

  g_return_if_fail (CHRONO_IS_TRACK_PAINTER (self));

  if (font == NULL)
    font = fallback = pango_font_description_from_string (DEFAULT_FONT);
  if (pango_font_description_equal (self->font, font))
    return;
  pango_font_description_free (self->font);
  self->font = pango_font_description_copy (font);
  g_clear_pointer (&self->labels, chrono_label_cache_free);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FONT]);
}

PangoContext *
chrono_track_painter_get_pango_context (ChronoTrackPainter *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_PAINTER (self), NULL);
  return self->pango_context;
}

/* A widget passes its own context, for its resolution and font options;
 * NULL goes back to one of the default font map. */
void
chrono_track_painter_set_pango_context (ChronoTrackPainter *self,
                                        PangoContext       *context)
{
  g_return_if_fail (CHRONO_IS_TRACK_PAINTER (self));
  g_return_if_fail (context == NULL || PANGO_IS_CONTEXT (context));

  if (context == self->pango_context)
    return;
  g_clear_object (&self->pango_context);
  self->pango_context = context != NULL
    ? g_object_ref (context)
    : pango_font_map_create_context (pango_cairo_font_map_get_default ());
  g_clear_pointer (&self->labels, chrono_label_cache_free);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PANGO_CONTEXT]);
}

void
_chrono_track_painter_set_image_px_per_rect (ChronoTrackPainter *self,
                                             double              px_per_rect)
{
  g_return_if_fail (CHRONO_IS_TRACK_PAINTER (self));
  g_return_if_fail (px_per_rect >= 0);
  self->image_px_per_rect = px_per_rect;
}

double
chrono_track_painter_get_line_height (ChronoTrackPainter *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_PAINTER (self), 0.0);
  return chrono_label_cache_get_line_height (get_labels (self));
}

/* -------------------------------------------------------------------- */
/* Colours                                                              */

static Bucket *
get_bucket (ChronoTrackPainter *self,
            gint64              key,
            ChronoKind          kind,
            guint32             name)
{
  Bucket *bucket = g_hash_table_lookup (self->by_key, &key);

  if (bucket == NULL)
    {
      bucket = g_new0 (Bucket, 1);
      bucket->key = key;
      bucket->boxes = g_array_new (FALSE, FALSE, sizeof (graphene_rect_t));
      bucket->slivers = g_array_new (FALSE, FALSE, sizeof (graphene_rect_t));
      if (key < 0)
        chrono_palette_merged_color (kind, self->dark, &bucket->color);
      else
        chrono_palette_span_color (kind, chrono_trace_get_string (self->trace, name),
                                   self->dark, &bucket->color);
      chrono_palette_text_color (&bucket->color, &bucket->text);
      g_ptr_array_add (self->buckets, bucket);
      g_hash_table_insert (self->by_key, &bucket->key, bucket);
    }
  return bucket;
}

static void
add_rect (ChronoTrackPainter *self,
          Bucket             *bucket,
          gboolean            sliver,
          double              x0,
          double              x1,
          double              y,
          double              height)
{
  graphene_rect_t rect;

  graphene_rect_init (&rect, x0, y, x1 - x0, height);
  if (!bucket->touched)
    {
      bucket->touched = TRUE;
      g_ptr_array_add (self->touched, bucket);
    }
  g_array_append_val (sliver ? bucket->slivers : bucket->boxes, rect);
  self->n_rects++;
}

static void
append_color_nodes (GPtrArray     *nodes,
                    const GdkRGBA *color,
                    GArray        *rects)
{
  for (guint r = 0; r < rects->len; r++)
    g_ptr_array_add (nodes, gsk_color_node_new (color, &g_array_index (rects, graphene_rect_t, r)));
}

static GskRenderNode *
container_from (GPtrArray *children)
{
  if (children->len == 0)
    return NULL;
  if (children->len == 1)
    return gsk_render_node_ref (g_ptr_array_index (children, 0));
  return gsk_container_node_new ((GskRenderNode **) children->pdata, children->len);
}

static void
fill_rects (guint8  *data,
            int      stride,
            int      width,
            int      height,
            int      x_origin,
            int      y_origin,
            GArray  *rects,
            guint32  pixel)
{
  for (guint r = 0; r < rects->len; r++)
    {
      const graphene_rect_t *rect = &g_array_index (rects, graphene_rect_t, r);
      int x0 = CLAMP ((int) rect->origin.x - x_origin, 0, width);
      int x1 = CLAMP ((int) (rect->origin.x + rect->size.width) - x_origin, x0, width);
      int y0 = CLAMP ((int) rect->origin.y - y_origin, 0, height);
      int y1 = CLAMP ((int) (rect->origin.y + rect->size.height) - y_origin, y0, height);

      for (int y = y0; y < y1; y++)
        {
          guint32 *line = (guint32 *) (data + (gsize) y * stride);

          for (int x = x0; x < x1; x++)
            line[x] = pixel;
        }
    }
}

/* Whether the frame's rectangles go into an image: there are many for
 * their bounds, and each lies on whole pixels, as an image has them. */
static gboolean
wants_image (ChronoTrackPainter    *self,
             const graphene_rect_t *bounds,
             double                 row_height)
{
  return row_height == floor (row_height) && self->image_px_per_rect > 0
         && self->n_rects * self->image_px_per_rect >= bounds->size.width * bounds->size.height;
}

static void
get_rects_bounds (ChronoTrackPainter *self,
                  graphene_rect_t    *bounds)
{
  gboolean first = TRUE;

  graphene_rect_init (bounds, 0, 0, 0, 0);
  for (guint b = 0; b < self->touched->len; b++)
    {
      Bucket *bucket = g_ptr_array_index (self->touched, b);
      GArray *lists[2] = { bucket->boxes, bucket->slivers };

      for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
        for (guint r = 0; r < lists[l]->len; r++)
          {
            const graphene_rect_t *rect = &g_array_index (lists[l], graphene_rect_t, r);

            if (first)
              graphene_rect_init_from_rect (bounds, rect);
            else
              graphene_rect_union (bounds, rect, bounds);
            first = FALSE;
          }
    }
}

/* All rectangles in one image, in the order colour nodes would draw
 * them; span colours are opaque, so writing a pixel paints it. */
static GskRenderNode *
image_node (ChronoTrackPainter    *self,
            const graphene_rect_t *bounds)
{
  int x = (int) floor (bounds->origin.x), y = (int) floor (bounds->origin.y);
  int width = (int) ceil (bounds->origin.x + bounds->size.width) - x;
  int height = (int) ceil (bounds->origin.y + bounds->size.height) - y;
  cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  guint8 *data;
  int stride;

  cairo_surface_flush (image);
  data = cairo_image_surface_get_data (image);
  stride = cairo_image_surface_get_stride (image);
  for (guint b = 0; b < self->touched->len; b++)
    {
      Bucket *bucket = g_ptr_array_index (self->touched, b);
      guint32 pixel = chrono_image_node_pixel (&bucket->color);

      fill_rects (data, stride, width, height, x, y, bucket->boxes, pixel);
      fill_rects (data, stride, width, height, x, y, bucket->slivers, pixel);
    }
  cairo_surface_mark_dirty (image);
  return chrono_image_node_new (image, x, y);
}

/* Few rectangles for their bounds: one node per colour, a container of
 * its colour nodes, so a renderer switches colour as few times as there
 * are colours. Many: one image. */
static void
take_color_nodes (ChronoTrackPainter *self,
                  double              row_height,
                  GPtrArray          *children)
{
  graphene_rect_t bounds;
  gboolean image;

  get_rects_bounds (self, &bounds);
  image = wants_image (self, &bounds, row_height);
  if (image && self->n_rects > 0)
    g_ptr_array_add (children, image_node (self, &bounds));

  for (guint b = 0; b < self->touched->len; b++)
    {
      Bucket *bucket = g_ptr_array_index (self->touched, b);

      if (!image)
        {
          g_autoptr(GPtrArray) nodes = NULL;

          nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
          append_color_nodes (nodes, &bucket->color, bucket->boxes);
          append_color_nodes (nodes, &bucket->color, bucket->slivers);
          if (nodes->len > 0)
            g_ptr_array_add (children, container_from (nodes));
        }
      g_array_set_size (bucket->boxes, 0);
      g_array_set_size (bucket->slivers, 0);
      bucket->touched = FALSE;
    }
  g_ptr_array_set_size (self->touched, 0);
  self->n_rects = 0;
}

/* -------------------------------------------------------------------- */
/* Spans                                                                */

typedef struct {
  ChronoTrackPainter *self;
  const ChronoTrack  *track;
  ChronoLabelCache   *labels;
  double              width;
  double              y;
  double              height;
  double              baseline;     /* of labels in this row; < 0 for none */
  GPtrArray          *text_nodes;
} Frame;

static void
paint_label (Frame         *frame,
             guint32        span,
             double         x0,
             double         x1,
             const GdkRGBA *color)
{
  guint32 name = chrono_track_get_name (frame->track, span);
  double left = MAX (x0, 0) + CHRONO_TRACK_PAINTER_LABEL_PAD_PX;
  double right = MIN (x1, frame->width) - CHRONO_TRACK_PAINTER_LABEL_PAD_PX;

  if (frame->baseline < 0 || right <= left)
    return;
  chrono_label_cache_append (frame->labels, name,
                             chrono_trace_get_string (frame->self->trace, name),
                             left, frame->baseline, right - left,
                             color, frame->text_nodes);
}

static void
paint_item (const ChronoRowItem *item,
            gpointer             user_data)
{
  Frame *frame = user_data;
  ChronoTrackPainter *self = frame->self;
  /* Edges far off-screen are pulled in next to it: rectangles are
   * floats, exact only near the window. */
  double x0 = CLAMP (item->x0, -2.0, frame->width + 2.0);
  double x1 = CLAMP (item->x1, -2.0, frame->width + 2.0);
  guint32 name = chrono_track_get_name (frame->track, item->span);
  Bucket *bucket;

  if (item->n_spans > 1)
    bucket = get_bucket (self, -1 - (gint64) item->kind, item->kind, 0);
  else
    bucket = get_bucket (self, ((gint64) item->kind << 32) | name, item->kind, name);

  if (item->n_spans == 1 && item->x1 - item->x0 >= CHRONO_TRACK_PAINTER_MERGE_WIDTH_PX)
    {
      x0 = round (x0);
      x1 = round (x1);
      if (x1 - x0 >= SEPARATE_WIDTH_PX)
        x1 -= 1;
      add_rect (self, bucket, FALSE, x0, x1, frame->y, frame->height);
      paint_label (frame, item->span, x0, x1, &bucket->text);
      return;
    }

  /* Narrow spans and runs are drawn out to whole pixels, so each covers
   * all it stands for and shows at least one column. */
  x0 = floor (x0);
  x1 = MAX (ceil (x1), x0 + 1);
  add_rect (self, bucket, TRUE, x0, x1, frame->y, frame->height);
}

GskRenderNode *
chrono_track_painter_paint_spans (ChronoTrackPainter *self,
                                  ChronoTrackIndex   *index,
                                  ChronoViewport     *viewport,
                                  double              row_height)
{
  g_autoptr(GPtrArray) children = NULL;
  g_autoptr(GPtrArray) text_nodes = NULL;
  Frame frame = { 0 };
  guint n_rows;

  g_return_val_if_fail (CHRONO_IS_TRACK_PAINTER (self), NULL);
  g_return_val_if_fail (CHRONO_IS_TRACK_INDEX (index), NULL);
  g_return_val_if_fail (chrono_track_index_get_trace (index) == self->trace, NULL);
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (viewport), NULL);
  g_return_val_if_fail (row_height > 0, NULL);

  children = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
  text_nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);

  frame.self = self;
  frame.track = chrono_track_index_get_track (index);
  frame.labels = get_labels (self);
  frame.width = chrono_viewport_get_width_px (viewport);
  frame.text_nodes = text_nodes;
  /* A pixel between rows, when rows are tall enough to spare it. */
  frame.height = row_height >= 4 ? row_height - 1 : row_height;

  n_rows = chrono_track_index_get_n_rows (index);
  for (guint row = 0; row < n_rows; row++)
    {
      double line_height = chrono_label_cache_get_line_height (frame.labels);

      frame.y = row * row_height;
      frame.baseline = -1;
      if (frame.height >= line_height)
        frame.baseline = frame.y + floor ((frame.height - line_height) / 2)
                         + chrono_label_cache_get_baseline (frame.labels);
      chrono_track_index_walk_row (index, row, viewport, CHRONO_TRACK_PAINTER_MERGE_WIDTH_PX,
                                   paint_item, &frame);
    }

  take_color_nodes (self, row_height, children);
  /* Labels go last, above every box. */
  if (text_nodes->len > 0)
    g_ptr_array_add (children, container_from (text_nodes));
  return container_from (children);
}

/* -------------------------------------------------------------------- */
/* Instants                                                             */

/* The first of N times at or after pixel X. */
static guint32
first_at_or_after (const ChronoTimeMap *map,
                   const gint64        *times,
                   guint32              n,
                   double               x)
{
  guint32 lo = 0, hi = n;

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (chrono_time_map_to_x (map, times[mid]) < x)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

GskRenderNode *
chrono_track_painter_paint_instants (ChronoTrackPainter *self,
                                     ChronoTrackIndex   *index,
                                     ChronoViewport     *viewport,
                                     double              height)
{
  const ChronoTrack *t;
  ChronoTimeMap map;
  GskRenderNode *node;
  cairo_t *cr;
  GdkRGBA color;
  double width, radius, mid;
  guint32 i, n_markers = 0;

  g_return_val_if_fail (CHRONO_IS_TRACK_PAINTER (self), NULL);
  g_return_val_if_fail (CHRONO_IS_TRACK_INDEX (index), NULL);
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (viewport), NULL);

  t = chrono_track_index_get_track (index);
  width = chrono_viewport_get_width_px (viewport);
  if (t->n_instants == 0 || width <= 0 || height <= 0)
    return NULL;

  _chrono_viewport_get_time_map (viewport, &map);
  radius = MIN (MARKER_RADIUS_PX, height / 2);
  mid = height / 2;

  node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, width, height));
  cr = gsk_cairo_node_get_draw_context (node);

  /* One marker per pixel column that has instants: jump from each
   * marker to the first instant a pixel further on. */
  i = first_at_or_after (&map, t->inst_ts, t->n_instants, -radius);
  while (i < t->n_instants)
    {
      double x = floor (chrono_time_map_to_x (&map, t->inst_ts[i])) + 0.5;

      if (x > width + radius)
        break;
      cairo_move_to (cr, x, mid - radius);
      cairo_line_to (cr, x + radius, mid);
      cairo_line_to (cr, x, mid + radius);
      cairo_line_to (cr, x - radius, mid);
      cairo_close_path (cr);
      n_markers++;
      i = first_at_or_after (&map, t->inst_ts, t->n_instants, x + 0.5);
    }
  chrono_palette_instant_color (self->dark, &color);
  gdk_cairo_set_source_rgba (cr, &color);
  cairo_fill (cr);
  cairo_destroy (cr);

  if (n_markers == 0)
    g_clear_pointer (&node, gsk_render_node_unref);
  return node;
}

/* -------------------------------------------------------------------- */
/* Counters                                                             */

GskRenderNode *
chrono_track_painter_paint_counter (ChronoTrackPainter *self,
                                    ChronoTrackIndex   *index,
                                    ChronoViewport     *viewport,
                                    double              height)
{
  const ChronoTrack *t;
  ChronoTimeMap map;
  GskRenderNode *node;
  cairo_t *cr;
  GdkRGBA color, fill;
  g_autofree double *top = NULL;
  double width, lo, hi, scale, trace_end_x;
  const char *name;
  guint32 i;
  int columns;

  g_return_val_if_fail (CHRONO_IS_TRACK_PAINTER (self), NULL);
  g_return_val_if_fail (CHRONO_IS_TRACK_INDEX (index), NULL);
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (viewport), NULL);

  t = chrono_track_index_get_track (index);
  width = chrono_viewport_get_width_px (viewport);
  if (!chrono_track_index_get_value_range (index, &lo, &hi) || width <= 0 || height <= 0)
    return NULL;

  /* Areas grow from zero, or from the lowest value when all are below. */
  lo = MIN (lo, 0);
  hi = MAX (hi, 0);
  scale = hi > lo ? (height - 1) / (hi - lo) : 0;

  /* Each sample holds until the next, the last one until the trace
   * ends; each pixel column keeps the highest value it saw. */
  _chrono_viewport_get_time_map (viewport, &map);
  columns = (int) ceil (width);
  top = g_new (double, columns);
  for (int c = 0; c < columns; c++)
    top[c] = NAN;
  trace_end_x = chrono_time_map_to_x (&map, chrono_trace_get_end_ns (self->trace));
  i = first_at_or_after (&map, t->sample_ts, t->n_samples, 0);
  if (i > 0)
    i--;
  for (; i < t->n_samples; i++)
    {
      double v = t->sample_value[i];
      double x0 = chrono_time_map_to_x (&map, t->sample_ts[i]);
      double x1 = i + 1 < t->n_samples ? chrono_time_map_to_x (&map, t->sample_ts[i + 1])
                                       : MAX (trace_end_x, x0 + 1);
      int c0, c1;

      if (x0 > width)
        break;
      if (!isfinite (v))
        continue;
      c0 = (int) MAX (floor (x0), 0);
      c1 = (int) MIN (MAX (ceil (x1), c0 + 1), columns);
      for (int c = c0; c < c1; c++)
        if (isnan (top[c]) || v > top[c])
          top[c] = v;
    }

  node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, width, height));
  cr = gsk_cairo_node_get_draw_context (node);
  name = chrono_trace_get_string (self->trace, t->name);
  chrono_palette_series_fill_color (name, self->dark, &fill);
  chrono_palette_series_color (name, self->dark, &color);
  chrono_track_painter_draw_area (cr, top, columns, lo, scale, height, &fill, &color);
  cairo_destroy (cr);
  return node;
}

/* The area in a faded colour, its top as a 2 px line over it. */
void
chrono_track_painter_draw_area (cairo_t       *cr,
                                const double  *top,
                                int            columns,
                                double         lo,
                                double         scale,
                                double         height,
                                const GdkRGBA *fill,
                                const GdkRGBA *line)
{
  for (int pass = 0; pass < 2; pass++)
    {
      for (int c = 0; c < columns; )
        {
          double base = height - (0 - lo) * scale;
          int start;

          if (isnan (top[c]))
            {
              c++;
              continue;
            }
          start = c;
          if (pass == 0)
            cairo_move_to (cr, start, base);
          for (; c < columns && !isnan (top[c]); c++)
            {
              double y = height - (top[c] - lo) * scale;

              /* The line sits inside the area, its top on the value. */
              if (pass == 1)
                y = MIN (y + 1, height - 1);
              if (pass == 1 && c == start)
                cairo_move_to (cr, c, y);
              else
                cairo_line_to (cr, c, y);
              cairo_line_to (cr, c + 1, y);
            }
          if (pass == 0)
            {
              cairo_line_to (cr, c, base);
              cairo_close_path (cr);
            }
        }
      if (pass == 0)
        {
          gdk_cairo_set_source_rgba (cr, fill);
          cairo_fill (cr);
        }
      else
        {
          gdk_cairo_set_source_rgba (cr, line);
          cairo_set_line_width (cr, 2);
          cairo_stroke (cr);
        }
    }
}

/* -------------------------------------------------------------------- */
/* Busy strips of collapsed groups                                      */

/* Shades of the strip: few, so that neighbouring columns merge. */
#define BUSY_LEVELS 4

typedef struct {
  int *delta;    /* per pixel column: tracks starting minus tracks ending */
  int  columns;
} BusyWalk;

static void
busy_item_cb (const ChronoRowItem *item,
              gpointer             user_data)
{
  BusyWalk *walk = user_data;
  int c0 = (int) CLAMP (floor (item->x0), 0, walk->columns);
  int c1 = (int) CLAMP (ceil (MAX (item->x1, item->x0 + 1)), c0, walk->columns);

  walk->delta[c0]++;
  walk->delta[c1]--;
}

GskRenderNode *
chrono_track_painter_paint_busy (ChronoTrackPainter *self,
                                 ChronoTrackIndex  **indexes,
                                 guint               n_indexes,
                                 ChronoViewport     *viewport,
                                 double              height)
{
  g_autoptr(GPtrArray) nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
  g_autofree int *delta = NULL;
  BusyWalk walk;
  GdkRGBA color;
  double width;
  guint n_busy_tracks = 0;
  int busy = 0, start = 0, level = 0;

  g_return_val_if_fail (CHRONO_IS_TRACK_PAINTER (self), NULL);
  g_return_val_if_fail (indexes != NULL || n_indexes == 0, NULL);
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (viewport), NULL);

  width = chrono_viewport_get_width_px (viewport);
  if (width <= 0 || height <= 0)
    return NULL;
  walk.columns = (int) ceil (width);
  walk.delta = delta = g_new0 (int, walk.columns + 1);

  for (guint i = 0; i < n_indexes; i++)
    {
      const ChronoTrack *t = chrono_track_index_get_track (indexes[i]);
      guint n_rows = chrono_track_index_get_n_rows (indexes[i]);

      if (t->n_spans == 0)
        continue;
      n_busy_tracks++;
      /* Nested spans lie within their parents: the rows at depth 0 of
       * each lane cover the track's busy time. */
      for (guint r = 0; r < n_rows; r++)
        {
          guint32 n;
          const guint32 *spans = chrono_track_index_get_row_spans (indexes[i], r, &n);

          if (n > 0 && t->depth[spans[0]] == 0)
            chrono_track_index_walk_row (indexes[i], r, viewport, CHRONO_TRACK_PAINTER_MERGE_WIDTH_PX,
                                         busy_item_cb, &walk);
        }
    }
  if (n_busy_tracks == 0)
    return NULL;

  chrono_palette_merged_color (CHRONO_KIND_OTHER, self->dark, &color);
  for (int c = 0; c <= walk.columns; c++)
    {
      int next = 0;

      if (c < walk.columns)
        {
          busy += delta[c];
          /* Lanes of one track may overlap: never more than all tracks. */
          next = busy <= 0 ? 0 : 1 + (MIN ((guint) busy, n_busy_tracks) * (BUSY_LEVELS - 1)) / n_busy_tracks;
        }
      if (next == level)
        continue;
      if (level > 0)
        {
          GdkRGBA shade = color;

          /* Even one busy track of many must stand out from the header. */
          shade.alpha = 0.25 + 0.75 * level / BUSY_LEVELS;
          g_ptr_array_add (nodes, gsk_color_node_new (&shade, &GRAPHENE_RECT_INIT (start, 0, c - start, height)));
        }
      level = next;
      start = c;
    }
  return container_from (nodes);
}
