/* chrono-flow-layer.c: a timeline scene's arrows, over its rows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-flow-layer.h"
#include "chrono-flow-painter.h"

#define HEADER_WIDTH   CHRONO_SCENE_HEADER_WIDTH
#define ROW_HEIGHT     CHRONO_SCENE_ROW_HEIGHT
#define TRACK_PAD      CHRONO_SCENE_TRACK_PAD
#define NO_TRACK       CHRONO_SCENE_NO_ROW

/* Nodes in the track area's coordinates: made again only when the view,
 * the scroll or the selection moves. */
struct _ChronoFlowLayer
{
  ChronoTimelineScene *scene;
  ChronoFlowPainter   *painter;
  GskRenderNode       *all_node;
  gboolean             all_painted;
  GskRenderNode       *selected_node;
  gboolean             selected_painted;
};

ChronoFlowLayer *
chrono_flow_layer_new (ChronoTimelineScene *scene,
                       ChronoFlowIndex     *index)
{
  ChronoFlowLayer *self = g_new0 (ChronoFlowLayer, 1);

  self->scene = scene;
  self->painter = chrono_flow_painter_new (index);
  return self;
}

void
chrono_flow_layer_free (ChronoFlowLayer *self)
{
  if (self == NULL)
    return;
  chrono_flow_layer_invalidate (self);
  g_object_unref (self->painter);
  g_free (self);
}

void
chrono_flow_layer_set_dark (ChronoFlowLayer *self,
                            gboolean         dark)
{
  chrono_flow_painter_set_dark (self->painter, dark);
  chrono_flow_layer_invalidate (self);
}

void
chrono_flow_layer_invalidate (ChronoFlowLayer *self)
{
  g_clear_pointer (&self->all_node, gsk_render_node_unref);
  self->all_painted = FALSE;
  chrono_flow_layer_invalidate_selected (self);
}

void
chrono_flow_layer_invalidate_selected (ChronoFlowLayer *self)
{
  g_clear_pointer (&self->selected_node, gsk_render_node_unref);
  self->selected_painted = FALSE;
}

/* Rows in the track area's coordinates, which flow nodes use. */
static gboolean
place_span_cb (ChronoSpanRef span,
               double       *y,
               gpointer      user_data)
{
  ChronoTimelineScene *scene = user_data;
  guint i = chrono_timeline_scene_get_track_row (scene, span.track);
  double ruler_height = chrono_timeline_scene_get_ruler_height (scene);
  const ChronoSceneRow *row;

  /* A hidden track draws no arrows; a collapsed one's end at its
   * process's header. */
  if (i == NO_TRACK)
    return FALSE;
  row = chrono_timeline_scene_get_row (scene, i);
  if (row->track == NO_TRACK)
    *y = chrono_timeline_scene_get_row_top (scene, row) - ruler_height + row->height / 2;
  else
    /* A span below a capped track's rows: at its last row. */
    *y = chrono_timeline_scene_get_row_top (scene, row) - ruler_height + TRACK_PAD +
         (MIN (chrono_track_index_get_span_row (row->index, span.index),
               chrono_track_index_get_n_rows (row->index) - row->n_rows_hidden - 1) + 0.5) * ROW_HEIGHT;
  return TRUE;
}

static GskRenderNode *
get_all_node (ChronoFlowLayer *self,
              double           area_height)
{
  if (!self->all_painted)
    {
      self->all_node = chrono_flow_painter_paint_range (self->painter,
                                                        chrono_timeline_scene_get_viewport (self->scene),
                                                        place_span_cb, self->scene, area_height, NULL);
      self->all_painted = TRUE;
    }
  return self->all_node;
}

static GskRenderNode *
get_selected_node (ChronoFlowLayer     *self,
                   const ChronoSpanRef *selection,
                   double               area_height)
{
  if (!self->selected_painted)
    {
      g_autoptr(GArray) flows = g_array_new (FALSE, FALSE, sizeof (guint));

      chrono_flow_index_get_span_flows (chrono_flow_painter_get_index (self->painter), *selection, flows);
      self->selected_node = chrono_flow_painter_paint_flows (self->painter,
                                                             chrono_timeline_scene_get_viewport (self->scene),
                                                             (const guint *) flows->data, flows->len,
                                                             place_span_cb, self->scene, area_height);
      self->selected_painted = TRUE;
    }
  return self->selected_node;
}

/* Arrows go over the spans: all of the window's when asked for, then
 * the selected span's, bolder, on top. */
void
chrono_flow_layer_snapshot (ChronoFlowLayer     *self,
                            GtkSnapshot         *snapshot,
                            gboolean             show_all,
                            const ChronoSpanRef *selection,
                            double               area_height)
{
  double ruler_height = chrono_timeline_scene_get_ruler_height (self->scene);
  GskRenderNode *all = NULL, *selected = NULL;

  if (show_all)
    all = get_all_node (self, area_height);
  if (selection != NULL)
    selected = get_selected_node (self, selection, area_height);
  if (all == NULL && selected == NULL)
    return;

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, ruler_height,
                                                         chrono_timeline_scene_get_width (self->scene) - HEADER_WIDTH,
                                                         area_height));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, ruler_height));
  if (all != NULL)
    gtk_snapshot_append_node (snapshot, all);
  if (selected != NULL)
    gtk_snapshot_append_node (snapshot, selected);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}
