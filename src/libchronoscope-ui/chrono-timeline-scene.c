/* chrono-timeline-scene.c: what the timeline draws, for a widget's
 * snapshot or any cairo surface
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include <pango/pangocairo.h>

#include "chrono-annotation-layer.h"
#include "chrono-efficiency.h"
#include "chrono-flow-layer.h"
#include "chrono-highlight-layer.h"
#include "chrono-row-painter.h"
#include "chrono-palette.h"
#include "chrono-scene-rows.h"
#include "chrono-scene-colors.h"
#include "chrono-step-bands.h"
#include "chrono-text-cache.h"
#include "chrono-time-ruler.h"
#include "chrono-time-ticks.h"
#include "chrono-timeline-scene.h"
#include "chrono-track-painter-private.h"

#define HEADER_WIDTH   CHRONO_SCENE_HEADER_WIDTH
#define ROW_HEIGHT     CHRONO_SCENE_ROW_HEIGHT
#define TRACK_PAD      CHRONO_SCENE_TRACK_PAD
#define NO_TRACK       CHRONO_SCENE_NO_ROW
#define LABEL_GAP_PX   16.0
/* Pinned tracks show in at most this share of the track area: the
 * others must stay in reach. */
#define PINNED_MAX_SHARE 0.5

struct _ChronoTimelineScene
{
  GObject             parent_instance;

  ChronoTrace        *trace;
  ChronoViewport     *viewport;
  ChronoTrackLayout  *layout;
  ChronoRowPainter   *painter;
  ChronoStepBands    *steps;
  PangoContext       *pango_context;
  ChronoTextCache    *text;       /* the names, in PANGO_CONTEXT */

  double              width;
  double              height;
  gboolean            dark;
  double              ruler_height;
  gboolean            vector;     /* spans as shapes, never merged into images */
  /* What the ruler counts from, and what its header calls that. */
  gint64              zero_ns;
  gboolean            has_zero;
  char               *zero_label;
  /* A tag before every name, telling whose tracks these are. */
  char               *badge;

  ChronoSceneRows    *rows;
  double              scroll_y;

  gboolean            has_selection;
  ChronoSpanRef       selection;
  guint               current_track;
  ChronoSearch       *search;

  ChronoFlowLayer    *flows;      /* NULL until the flows are indexed */
  gboolean            show_all_flows;
  ChronoHighlightLayer *highlight;
  ChronoAnnotationLayer *annotations;    /* NULL for none */
  ChronoAnalysis     *efficiency;  /* its series draw the derived rows; NULL for none */
  char               *flops_note;  /* why devices have no series */
  GPtrArray          *neuron;      /* the NeuronCores' ChronoNeuronSeries of EFFICIENCY */
};

G_DEFINE_FINAL_TYPE (ChronoTimelineScene, chrono_timeline_scene, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const ChronoSceneRow *
get_row (ChronoTimelineScene *self,
         guint                i)
{
  return chrono_scene_rows_get (self->rows, i);
}

static void
changed (ChronoTimelineScene *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
invalidate_flows (ChronoTimelineScene *self)
{
  if (self->flows != NULL)
    chrono_flow_layer_invalidate (self->flows);
}

static void
invalidate_nodes (ChronoTimelineScene *self)
{
  invalidate_flows (self);
  /* Cleared and made again: as many as there are rows now. */
  chrono_row_painter_invalidate (self->painter);
  changed (self);
}

static double
measure_text_cb (const char *text,
                 gpointer    user_data)
{
  return chrono_text_cache_measure (user_data, text);
}

/* -------------------------------------------------------------------- */
/* Steps, rows and the layers over them                                 */

/* Faint bands of every other step behind the spans, and where each
 * starts, a line over them. */
static void
snapshot_step_bands (ChronoTimelineScene *self,
                     GtkSnapshot         *snapshot,
                     const ChronoSceneColors *colors,
                     double               area_height,
                     gboolean             over)
{
  GdkRGBA fill = colors->text, line = colors->text;
  g_autoptr(GskRenderNode) node = NULL;

  fill.alpha = self->dark ? 0.05 : 0.035;
  line.alpha = over ? 0.22 : 0.12;
  node = chrono_step_bands_paint (self->steps, self->viewport, area_height,
                                  over ? NULL : &fill, &line);
  if (node == NULL)
    return;
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, self->ruler_height));
  gtk_snapshot_append_node (snapshot, node);
  gtk_snapshot_restore (snapshot);
}

static void
snapshot_rows (ChronoTimelineScene *self,
               GtkSnapshot         *snapshot,
               const ChronoSceneColors *colors,
               ChronoTicks         *ticks)
{
  double width = self->width, top = self->ruler_height;
  double area_height = chrono_timeline_scene_get_track_area_height (self);
  double pinned_height = chrono_timeline_scene_get_pinned_visible (self);
  double offset = chrono_timeline_scene_get_scroll_offset (self);
  guint first = chrono_scene_rows_find (self->rows, offset + pinned_height);
  guint n_rows = chrono_scene_rows_get_n (self->rows);
  ChronoRowFrame frame = { colors, self->text, self->search, self->current_track, width,
                           offset + pinned_height, self->dark, self->flops_note, self->vector, self->badge };

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, top, width, area_height));

  gtk_snapshot_append_color (snapshot, &colors->header,
                             &GRAPHENE_RECT_INIT (0, top, HEADER_WIDTH, area_height));
  for (guint i = 0; i < ticks->major->len; i++)
    {
      const ChronoTick *tick = &g_array_index (ticks->major, ChronoTick, i);

      if (tick->x >= 0)
        gtk_snapshot_append_color (snapshot, &colors->grid,
                                   &GRAPHENE_RECT_INIT (HEADER_WIDTH + floor (tick->x), top,
                                                        1, area_height));
    }
  snapshot_step_bands (self, snapshot, colors, area_height, FALSE);

  /* The scrolling rows, below the pinned ones. */
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, top + pinned_height, width,
                                                         area_height - pinned_height));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, top - offset));
  for (guint i = first; i < n_rows; i++)
    {
      if (get_row (self, i)->y >= offset + area_height)
        break;
      chrono_row_painter_snapshot (self->painter, snapshot, &frame, i);
    }
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);

  if (pinned_height > 0)
    {
      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, top, width, pinned_height));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, top));
      for (guint i = 0; i < n_rows && get_row (self, i)->pinned; i++)
        chrono_row_painter_snapshot (self->painter, snapshot, &frame, i);
      /* A firmer line than between tracks: rows scroll under it. */
      gtk_snapshot_append_color (snapshot, &colors->dim_text,
                                 &GRAPHENE_RECT_INIT (0, pinned_height - 1, width, 1));
      gtk_snapshot_restore (snapshot);
      gtk_snapshot_pop (snapshot);
    }
  snapshot_step_bands (self, snapshot, colors, area_height, TRUE);
  if (self->flows != NULL)
    chrono_flow_layer_snapshot (self->flows, snapshot, self->show_all_flows,
                                self->has_selection ? &self->selection : NULL, area_height);

  gtk_snapshot_append_color (snapshot, &colors->line,
                             &GRAPHENE_RECT_INIT (HEADER_WIDTH - 1, top, 1, area_height));
  if (self->has_selection)
    chrono_highlight_layer_snapshot_selection (self->highlight, snapshot, colors, self->selection);

  gtk_snapshot_pop (snapshot);
}

void
chrono_timeline_scene_snapshot (ChronoTimelineScene *self,
                                GtkSnapshot         *snapshot)
{
  g_autoptr(ChronoTicks) ticks = NULL;
  ChronoSceneColors colors;

  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));
  g_return_if_fail (GTK_IS_SNAPSHOT (snapshot));

  chrono_scene_colors_init (&colors, self->dark);
  gtk_snapshot_append_color (snapshot, &colors.background,
                             &GRAPHENE_RECT_INIT (0, 0, self->width, self->height));
  if (self->width <= HEADER_WIDTH)
    return;

  ticks = chrono_ticks_compute (chrono_viewport_get_start_ns (self->viewport),
                                chrono_viewport_get_end_ns (self->viewport),
                                chrono_viewport_get_width_px (self->viewport),
                                self->has_zero ? self->zero_ns : chrono_trace_get_start_ns (self->trace),
                                LABEL_GAP_PX, measure_text_cb, self->text);
  snapshot_rows (self, snapshot, &colors, ticks);
  chrono_highlight_layer_snapshot (self->highlight, snapshot, &colors);
  if (self->annotations != NULL)
    chrono_annotation_layer_snapshot (self->annotations, snapshot);
  if (self->ruler_height > 0)
    chrono_time_ruler_snapshot (snapshot, self->text, self->trace, self->steps, self->viewport, self->width,
                                ticks, self->zero_label, &colors);
}

GskRenderNode *
chrono_timeline_scene_get_node (ChronoTimelineScene *self)
{
  GtkSnapshot *snapshot;

  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NULL);

  snapshot = gtk_snapshot_new ();
  chrono_timeline_scene_snapshot (self, snapshot);
  return gtk_snapshot_free_to_node (snapshot);
}

void
chrono_timeline_scene_draw (ChronoTimelineScene *self,
                            cairo_t             *cr)
{
  g_autoptr(GskRenderNode) node = NULL;

  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));
  g_return_if_fail (cr != NULL);

  node = chrono_timeline_scene_get_node (self);
  chrono_timeline_scene_draw_node (self, node, cr);
}

void
chrono_timeline_scene_draw_node (ChronoTimelineScene *self,
                                 GskRenderNode       *node,
                                 cairo_t             *cr)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));
  g_return_if_fail (cr != NULL);

  if (node == NULL)
    return;
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, self->width, self->height);
  cairo_clip (cr);
  gsk_render_node_draw (node, cr);
  cairo_restore (cr);
}

/* -------------------------------------------------------------------- */
/* The object                                                           */

static void
viewport_changed_cb (ChronoTimelineScene *self)
{
  invalidate_nodes (self);
}

static void
chrono_timeline_scene_dispose (GObject *object)
{
  ChronoTimelineScene *self = CHRONO_TIMELINE_SCENE (object);

  if (self->viewport != NULL)
    g_signal_handlers_disconnect_by_func (self->viewport, viewport_changed_cb, self);
  chrono_timeline_scene_set_annotations (self, NULL);
  g_clear_pointer (&self->painter, chrono_row_painter_free);
  g_clear_pointer (&self->rows, chrono_scene_rows_free);
  g_clear_pointer (&self->flows, chrono_flow_layer_free);
  g_clear_object (&self->search);
  g_clear_object (&self->efficiency);
  g_clear_object (&self->steps);
  g_clear_object (&self->pango_context);
  g_clear_object (&self->layout);
  g_clear_object (&self->viewport);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (chrono_timeline_scene_parent_class)->dispose (object);
}

static void
chrono_timeline_scene_finalize (GObject *object)
{
  ChronoTimelineScene *self = CHRONO_TIMELINE_SCENE (object);

  g_clear_pointer (&self->text, chrono_text_cache_free);
  g_clear_pointer (&self->highlight, chrono_highlight_layer_free);
  g_free (self->flops_note);
  g_clear_pointer (&self->neuron, g_ptr_array_unref);
  g_clear_pointer (&self->zero_label, g_free);
  g_clear_pointer (&self->badge, g_free);

  G_OBJECT_CLASS (chrono_timeline_scene_parent_class)->finalize (object);
}

static void
chrono_timeline_scene_class_init (ChronoTimelineSceneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = chrono_timeline_scene_dispose;
  object_class->finalize = chrono_timeline_scene_finalize;

  /* The picture changed: draw it again. */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
chrono_timeline_scene_init (ChronoTimelineScene *self)
{
  self->highlight = chrono_highlight_layer_new (self);
  self->current_track = NO_TRACK;
  self->ruler_height = CHRONO_SCENE_RULER_HEIGHT;
}

/* Without a display: GTK's own default font, at 96 dpi. */
static void
set_default_pango_context (ChronoTimelineScene *self)
{
  PangoContext *context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  g_autoptr(PangoFontDescription) font = pango_font_description_from_string (CHRONO_SCENE_DEFAULT_FONT);

  pango_cairo_context_set_resolution (context, 96);
  pango_context_set_font_description (context, font);
  chrono_timeline_scene_set_pango_context (self, context);
  g_object_unref (context);
}

ChronoTimelineScene *
chrono_timeline_scene_new (ChronoTrace       *trace,
                           GPtrArray         *indexes,
                           ChronoTrackLayout *layout,
                           ChronoViewport    *viewport)
{
  ChronoTimelineScene *self;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (indexes == NULL || indexes->len == chrono_trace_get_n_tracks (trace), NULL);
  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (layout), NULL);
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (viewport), NULL);

  self = g_object_new (CHRONO_TYPE_TIMELINE_SCENE, NULL);
  self->trace = g_object_ref (trace);
  self->layout = g_object_ref (layout);
  self->rows = chrono_scene_rows_new (trace, indexes, layout);
  self->viewport = g_object_ref (viewport);
  g_signal_connect_swapped (viewport, "changed", G_CALLBACK (viewport_changed_cb), self);
  self->painter = chrono_row_painter_new (trace, self->rows, viewport);
  self->steps = chrono_step_bands_new (trace);
  set_default_pango_context (self);
  chrono_scene_rows_build (self->rows);
  chrono_row_painter_invalidate (self->painter);
  return self;
}

ChronoTrace *
chrono_timeline_scene_get_trace (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NULL);
  return self->trace;
}

ChronoViewport *
chrono_timeline_scene_get_viewport (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NULL);
  return self->viewport;
}

ChronoTrackLayout *
chrono_timeline_scene_get_layout (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NULL);
  return self->layout;
}

void
chrono_timeline_scene_set_pango_context (ChronoTimelineScene *self,
                                         PangoContext        *context)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));
  g_return_if_fail (PANGO_IS_CONTEXT (context));

  if (!g_set_object (&self->pango_context, context))
    return;
  g_clear_pointer (&self->text, chrono_text_cache_free);
  self->text = chrono_text_cache_new (context);
  chrono_track_painter_set_pango_context (chrono_row_painter_get_track_painter (self->painter), context);
  invalidate_nodes (self);
}

void
chrono_timeline_scene_set_size (ChronoTimelineScene *self,
                                double               width,
                                double               height)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));

  if (width == self->width && height == self->height)
    return;
  self->width = width;
  self->height = height;
  chrono_viewport_set_width_px (self->viewport, MAX (1, width - HEADER_WIDTH));
  chrono_timeline_scene_set_scroll_y (self, self->scroll_y);
  /* Flow nodes are as tall as the track area. */
  invalidate_flows (self);
  changed (self);
}

double
chrono_timeline_scene_get_width (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), 0);
  return self->width;
}

double
chrono_timeline_scene_get_height (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), 0);
  return self->height;
}

gboolean
chrono_timeline_scene_get_dark (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), FALSE);
  return self->dark;
}

PangoContext *
chrono_timeline_scene_get_pango_context (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NULL);
  return self->pango_context;
}

void
chrono_timeline_scene_set_dark (ChronoTimelineScene *self,
                                gboolean             dark)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));

  dark = !!dark;
  if (self->dark == dark)
    return;
  self->dark = dark;
  chrono_track_painter_set_dark (chrono_row_painter_get_track_painter (self->painter), dark);
  if (self->flows != NULL)
    chrono_flow_layer_set_dark (self->flows, dark);
  invalidate_nodes (self);
}

void
chrono_timeline_scene_set_show_ruler (ChronoTimelineScene *self,
                                      gboolean             show_ruler)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));

  self->ruler_height = show_ruler ? CHRONO_SCENE_RULER_HEIGHT : 0;
  chrono_timeline_scene_set_scroll_y (self, self->scroll_y);
  invalidate_flows (self);
  changed (self);
}

void
chrono_timeline_scene_set_time_zero (ChronoTimelineScene *self,
                                     gint64               zero_ns,
                                     const char          *label)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));

  if (self->has_zero && self->zero_ns == zero_ns && g_strcmp0 (self->zero_label, label) == 0)
    return;
  self->has_zero = TRUE;
  self->zero_ns = zero_ns;
  g_free (self->zero_label);
  self->zero_label = g_strdup (label);
  changed (self);
}

void
chrono_timeline_scene_set_badge (ChronoTimelineScene *self,
                                 const char          *badge)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));

  if (g_strcmp0 (self->badge, badge) == 0)
    return;
  g_free (self->badge);
  self->badge = g_strdup (badge);
  changed (self);
}

const char *
chrono_timeline_scene_get_badge (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NULL);
  return self->badge;
}

double
chrono_timeline_scene_get_ruler_height (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), 0);
  return self->ruler_height;
}

void
chrono_timeline_scene_set_vector (ChronoTimelineScene *self,
                                  gboolean             vector)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));

  self->vector = !!vector;
  _chrono_track_painter_set_image_px_per_rect (chrono_row_painter_get_track_painter (self->painter),
                                               vector ? 0 : CHRONO_TRACK_PAINTER_IMAGE_PX_PER_RECT);
  invalidate_nodes (self);
}

void
chrono_timeline_scene_update_rows (ChronoTimelineScene *self)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));

  chrono_scene_rows_build (self->rows);
  if (self->current_track != NO_TRACK &&
      chrono_timeline_scene_get_track_row (self, self->current_track) == NO_TRACK)
    self->current_track = NO_TRACK;
  chrono_timeline_scene_set_scroll_y (self, self->scroll_y);
  invalidate_nodes (self);
}

guint
chrono_timeline_scene_get_n_rows (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), 0);
  return chrono_scene_rows_get_n (self->rows);
}

const ChronoSceneRow *
chrono_timeline_scene_get_row (ChronoTimelineScene *self,
                               guint                i)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NULL);
  g_return_val_if_fail (i < chrono_scene_rows_get_n (self->rows), NULL);
  return get_row (self, i);
}

guint
chrono_timeline_scene_get_member (ChronoTimelineScene  *self,
                                  const ChronoSceneRow *row,
                                  guint                 n)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NO_TRACK);
  return chrono_scene_rows_get_member (self->rows, row, n);
}

guint
chrono_timeline_scene_get_own_row (ChronoTimelineScene *self,
                                   guint                track)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NO_TRACK);
  return chrono_scene_rows_get_own_row (self->rows, track);
}

guint
chrono_timeline_scene_get_track_row (ChronoTimelineScene *self,
                                     guint                track)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NO_TRACK);
  return chrono_scene_rows_get_track_row (self->rows, track);
}

guint
chrono_timeline_scene_get_process_row (ChronoTimelineScene *self,
                                       guint                process)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NO_TRACK);
  return chrono_scene_rows_get_process_row (self->rows, process);
}

guint
chrono_timeline_scene_find_row_at (ChronoTimelineScene *self,
                                   double               y)
{
  double content_y;

  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NO_TRACK);

  content_y = y - self->ruler_height;
  if (content_y < 0)
    return NO_TRACK;
  if (content_y >= chrono_timeline_scene_get_pinned_visible (self))
    content_y += chrono_timeline_scene_get_scroll_offset (self);
  return chrono_scene_rows_find (self->rows, content_y);
}

double
chrono_timeline_scene_get_row_top (ChronoTimelineScene  *self,
                                   const ChronoSceneRow *row)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), 0);
  return self->ruler_height + row->y - (row->pinned ? 0 : chrono_timeline_scene_get_scroll_offset (self));
}

double
chrono_timeline_scene_get_content_height (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), 0);
  return chrono_scene_rows_get_content_height (self->rows);
}

double
chrono_timeline_scene_get_pinned_height (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), 0);
  return chrono_scene_rows_get_pinned_height (self->rows);
}

double
chrono_timeline_scene_get_track_area_height (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), 0);
  return MAX (0, self->height - self->ruler_height);
}

double
chrono_timeline_scene_get_pinned_visible (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), 0);
  return MIN (chrono_scene_rows_get_pinned_height (self->rows),
              floor (chrono_timeline_scene_get_track_area_height (self) * PINNED_MAX_SHARE));
}

/* By the scroll, and by the part of the pinned tracks that does not
 * show. */
double
chrono_timeline_scene_get_scroll_offset (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), 0);
  return self->scroll_y + chrono_scene_rows_get_pinned_height (self->rows) -
         chrono_timeline_scene_get_pinned_visible (self);
}

double
chrono_timeline_scene_get_scroll_y (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), 0);
  return self->scroll_y;
}

gboolean
chrono_timeline_scene_set_scroll_y (ChronoTimelineScene *self,
                                    double               scroll_y)
{
  double max;

  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), FALSE);

  max = MAX (0, (chrono_scene_rows_get_content_height (self->rows) -
                 chrono_scene_rows_get_pinned_height (self->rows)) -
                (chrono_timeline_scene_get_track_area_height (self) -
                 chrono_timeline_scene_get_pinned_visible (self)));
  scroll_y = CLAMP (scroll_y, 0, max);
  if (scroll_y == self->scroll_y)
    return FALSE;
  self->scroll_y = scroll_y;
  invalidate_flows (self);
  changed (self);
  return TRUE;
}

gboolean
chrono_timeline_scene_hit_test (ChronoTimelineScene *self,
                                double               x,
                                double               y,
                                ChronoSpanRef       *span)
{
  const ChronoSceneRow *row;
  guint32 index;
  guint i;

  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), FALSE);
  g_return_val_if_fail (span != NULL, FALSE);

  if (x < HEADER_WIDTH || y < self->ruler_height)
    return FALSE;
  i = chrono_timeline_scene_find_row_at (self, y);
  if (i == NO_TRACK)
    return FALSE;
  row = get_row (self, i);
  if (row->track == NO_TRACK || chrono_trace_get_track (self->trace, row->track)->n_spans == 0)
    return FALSE;
  if (!chrono_track_index_hit_test (row->index, self->viewport, ROW_HEIGHT, x - HEADER_WIDTH,
                                    y - chrono_timeline_scene_get_row_top (self, row) - TRACK_PAD, &index))
    return FALSE;

  span->track = row->track;
  span->index = index;
  return TRUE;
}

gboolean
chrono_timeline_scene_get_span_area (ChronoTimelineScene *self,
                                     ChronoSpanRef        span,
                                     graphene_rect_t     *area)
{
  const ChronoTrack *track;
  const ChronoSceneRow *row;
  double x0, x1;

  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), FALSE);
  g_return_val_if_fail (area != NULL, FALSE);

  if (span.track >= chrono_trace_get_n_tracks (self->trace))
    return FALSE;
  track = chrono_trace_get_track (self->trace, span.track);
  if (span.index >= track->n_spans || chrono_scene_rows_get_own_row (self->rows, span.track) == NO_TRACK)
    return FALSE;

  row = get_row (self, chrono_scene_rows_get_own_row (self->rows, span.track));
  x0 = chrono_viewport_time_to_x (self->viewport, track->start[span.index]);
  x1 = chrono_viewport_time_to_x (self->viewport, chrono_track_get_end (track, span.index));
  /* Clamped so that far-off spans stay within float range. */
  x0 = CLAMP (x0, -1e6, 1e6);
  x1 = CLAMP (MAX (x1, x0 + 1), -1e6, 1e6);
  graphene_rect_init (area, HEADER_WIDTH + x0,
                      chrono_timeline_scene_get_row_top (self, row) + TRACK_PAD +
                      chrono_track_index_get_span_row (row->index, span.index) * ROW_HEIGHT,
                      x1 - x0, ROW_HEIGHT);
  return TRUE;
}

void
chrono_timeline_scene_set_selection (ChronoTimelineScene *self,
                                     const ChronoSpanRef *span)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));

  self->has_selection = span != NULL;
  if (span != NULL)
    self->selection = *span;
  if (self->flows != NULL)
    chrono_flow_layer_invalidate_selected (self->flows);
  changed (self);
}

void
chrono_timeline_scene_set_current_track (ChronoTimelineScene *self,
                                         guint                track)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));

  if (self->current_track == track)
    return;
  self->current_track = track;
  changed (self);
}

void
chrono_timeline_scene_set_search (ChronoTimelineScene *self,
                                  ChronoSearch        *search)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));
  g_return_if_fail (search == NULL || CHRONO_IS_SEARCH (search));

  if (!g_set_object (&self->search, search))
    return;
  chrono_row_painter_invalidate_search (self->painter);
  changed (self);
}

void
chrono_timeline_scene_set_flow_index (ChronoTimelineScene *self,
                                      ChronoFlowIndex     *index)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));
  g_return_if_fail (index == NULL || CHRONO_IS_FLOW_INDEX (index));

  g_clear_pointer (&self->flows, chrono_flow_layer_free);
  if (index != NULL)
    {
      self->flows = chrono_flow_layer_new (self, index);
      chrono_flow_layer_set_dark (self->flows, self->dark);
    }
  changed (self);
}

void
chrono_timeline_scene_set_show_all_flows (ChronoTimelineScene *self,
                                          gboolean             show_all_flows)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));

  show_all_flows = !!show_all_flows;
  if (self->show_all_flows == show_all_flows)
    return;
  self->show_all_flows = show_all_flows;
  changed (self);
}

void
chrono_timeline_scene_set_highlight (ChronoTimelineScene *self,
                                     gint64               start_ns,
                                     gint64               end_ns,
                                     const guint         *tracks,
                                     guint                n_tracks)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));

  chrono_highlight_layer_set_range (self->highlight, start_ns, end_ns, tracks, n_tracks);
  changed (self);
}

void
chrono_timeline_scene_set_path (ChronoTimelineScene *self,
                                const ChronoSpanRef *spans,
                                guint                n_spans)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));

  chrono_highlight_layer_set_path (self->highlight, spans, n_spans);
  changed (self);
}

void
chrono_timeline_scene_set_marks (ChronoTimelineScene *self,
                                 const ChronoSpanRef *spans,
                                 guint                n_spans)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));

  chrono_highlight_layer_set_marks (self->highlight, spans, n_spans);
  changed (self);
}

/**
 * chrono_timeline_scene_get_marks:
 * @n_spans: (out): how many
 *
 * Returns: (array length=n_spans): the spans outlined
 */
const ChronoSpanRef *
chrono_timeline_scene_get_marks (ChronoTimelineScene *self,
                                 guint               *n_spans)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NULL);
  return chrono_highlight_layer_get_marks (self->highlight, n_spans);
}

/**
 * chrono_timeline_scene_set_annotations:
 * @annotations: (nullable): of the scene's trace
 *
 * Draws ANNOTATIONS over the rows, and again whenever they change.
 */
void
chrono_timeline_scene_set_annotations (ChronoTimelineScene *self,
                                       ChronoAnnotations   *annotations)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));
  g_return_if_fail (annotations == NULL || CHRONO_IS_ANNOTATIONS (annotations));

  if (self->annotations != NULL)
    {
      g_signal_handlers_disconnect_by_func (chrono_annotation_layer_get_annotations (self->annotations),
                                            changed, self);
      g_clear_object (&self->annotations);
    }
  if (annotations != NULL)
    {
      self->annotations = chrono_annotation_layer_new (self, annotations);
      g_signal_connect_swapped (annotations, "changed", G_CALLBACK (changed), self);
    }
  changed (self);
}

ChronoAnnotations *
chrono_timeline_scene_get_annotations (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NULL);
  return self->annotations != NULL ? chrono_annotation_layer_get_annotations (self->annotations) : NULL;
}

/* Each NeuronCore's utilisation lanes, above its engines. */
static void
set_neuron_series (ChronoTimelineScene *self,
                   ChronoAnalysis      *analysis)
{
  g_autofree const ChronoNeuronSeries **by_process = NULL;

  g_clear_pointer (&self->neuron, g_ptr_array_unref);
  /* Processes are the trace's own only when it is the one analysed. */
  if (analysis != NULL && chrono_analysis_get_n_traces (analysis) == 1 &&
      chrono_analysis_get_trace (analysis, 0) == self->trace)
    {
      self->neuron = chrono_neuron_series_for_analysis (analysis);
      by_process = g_new0 (const ChronoNeuronSeries *, MAX (chrono_trace_get_n_processes (self->trace), 1));
      for (guint i = 0; i < self->neuron->len; i++)
        {
          const ChronoNeuronSeries *series = g_ptr_array_index (self->neuron, i);

          by_process[chrono_neuron_series_get_process (series)] = series;
        }
    }
  chrono_scene_rows_set_neuron (self->rows, self->neuron != NULL && self->neuron->len > 0 ? by_process : NULL);
}

/* Each device's memory, and the host's, under its tracks. */
static void
set_memory (ChronoTimelineScene *self,
            ChronoAnalysis      *analysis)
{
  g_autoptr(GPtrArray) devices = g_ptr_array_new ();
  ChronoMemory * const *memories = NULL;
  guint n_memories = 0;

  if (analysis != NULL)
    memories = chrono_analysis_get_memories (analysis, &n_memories);
  for (guint t = 0; t < n_memories; t++)
    for (guint i = 0; i < chrono_memory_get_n_devices (memories[t]) && chrono_memory_get_trace (memories[t]) == self->trace; i++)
      g_ptr_array_add (devices, (gpointer) chrono_memory_get_device (memories[t], i));
  chrono_scene_rows_set_memory (self->rows, (const ChronoMemoryDevice * const *) devices->pdata, devices->len);
}

/**
 * chrono_timeline_scene_set_efficiency:
 * @analysis: (nullable): an analysis of the scene's trace, among others
 *
 * Adds under each device's tracks the achieved TFLOP/s of its series in
 * ANALYSIS; when none of the scene's trace has one, a row under each
 * device that says why.
 */
void
chrono_timeline_scene_set_efficiency (ChronoTimelineScene *self,
                                      ChronoAnalysis      *analysis)
{
  g_autofree const ChronoFlopsSeries **by_process = NULL;
  guint n_processes, n_found = 0;

  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));
  g_return_if_fail (analysis == NULL || CHRONO_IS_ANALYSIS (analysis));

  if (!g_set_object (&self->efficiency, analysis) && analysis != NULL)
    return;
  g_clear_pointer (&self->flops_note, g_free);
  if (analysis != NULL)
    {
      const char * const *notes = chrono_analysis_get_efficiency_notes (analysis);

      n_processes = chrono_trace_get_n_processes (self->trace);
      by_process = g_new0 (const ChronoFlopsSeries *, MAX (n_processes, 1));
      for (guint i = 0; i < chrono_analysis_get_n_flops_series (analysis); i++)
        {
          const ChronoFlopsSeries *series = chrono_analysis_get_flops_series (analysis, i);

          if (chrono_analysis_get_trace (analysis, series->trace) == self->trace && series->process < n_processes)
            {
              by_process[series->process] = series;
              n_found++;
            }
        }
      self->flops_note = g_strdup (notes[0] != NULL ? notes[0] : _("No operator with a FLOPs model launched work here."));
    }
  chrono_scene_rows_set_flops (self->rows, by_process, analysis != NULL && n_found == 0);
  set_neuron_series (self, analysis);
  set_memory (self, analysis);
  chrono_timeline_scene_update_rows (self);
}

ChronoAnalysis *
chrono_timeline_scene_get_efficiency (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NULL);
  return self->efficiency;
}

const char *
chrono_timeline_scene_get_flops_note (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NULL);
  return self->flops_note;
}
