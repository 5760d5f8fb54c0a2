/* chrono-highlight-layer.c: what the analysis points at in a timeline
 * scene, and the selected span's outline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "chrono-highlight-layer.h"

#define HEADER_WIDTH   CHRONO_SCENE_HEADER_WIDTH
#define NO_TRACK       CHRONO_SCENE_NO_ROW

struct _ChronoHighlightLayer
{
  ChronoTimelineScene *scene;
  gint64               start;
  gint64               end;
  GArray              *tracks;  /* guint */
  GArray              *path;    /* ChronoSpanRef */
  GArray              *marks;   /* ChronoSpanRef */
};

/* A marked span is outlined this wide at least, so a call narrower than
 * a pixel still shows where it is. */
#define MARK_MIN_WIDTH 5.0
#define MARK_BORDER    2.0

ChronoHighlightLayer *
chrono_highlight_layer_new (ChronoTimelineScene *scene)
{
  ChronoHighlightLayer *self = g_new0 (ChronoHighlightLayer, 1);

  self->scene = scene;
  self->tracks = g_array_new (FALSE, FALSE, sizeof (guint));
  self->path = g_array_new (FALSE, FALSE, sizeof (ChronoSpanRef));
  self->marks = g_array_new (FALSE, FALSE, sizeof (ChronoSpanRef));
  return self;
}

void
chrono_highlight_layer_free (ChronoHighlightLayer *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->tracks);
  g_array_unref (self->path);
  g_array_unref (self->marks);
  g_free (self);
}

void
chrono_highlight_layer_set_range (ChronoHighlightLayer *self,
                                  gint64                start_ns,
                                  gint64                end_ns,
                                  const guint          *tracks,
                                  guint                 n_tracks)
{
  guint n_trace_tracks = chrono_trace_get_n_tracks (chrono_timeline_scene_get_trace (self->scene));

  self->start = start_ns;
  self->end = end_ns;
  g_array_set_size (self->tracks, 0);
  for (guint i = 0; i < n_tracks; i++)
    if (tracks[i] < n_trace_tracks)
      g_array_append_val (self->tracks, tracks[i]);
}

void
chrono_highlight_layer_set_path (ChronoHighlightLayer *self,
                                 const ChronoSpanRef  *spans,
                                 guint                 n_spans)
{
  g_array_set_size (self->path, 0);
  if (n_spans > 0)
    g_array_append_vals (self->path, spans, n_spans);
}

void
chrono_highlight_layer_set_marks (ChronoHighlightLayer *self,
                                  const ChronoSpanRef  *spans,
                                  guint                 n_spans)
{
  g_array_set_size (self->marks, 0);
  if (n_spans > 0)
    g_array_append_vals (self->marks, spans, n_spans);
}

const ChronoSpanRef *
chrono_highlight_layer_get_marks (ChronoHighlightLayer *self,
                                  guint                *n_spans)
{
  *n_spans = self->marks->len;
  return (const ChronoSpanRef *) self->marks->data;
}

/* Each marked span in view outlined in red, the colour of a finding's
 * note, over the span so its label stays readable. */
static void
snapshot_marks (ChronoHighlightLayer *self,
                GtkSnapshot          *snapshot,
                double                top,
                double                bottom)
{
  ChronoTimelineScene *scene = self->scene;
  double width = chrono_timeline_scene_get_width (scene);
  GdkRGBA red;
  float widths[4] = { MARK_BORDER, MARK_BORDER, MARK_BORDER, MARK_BORDER };
  GdkRGBA colors[4];

  gdk_rgba_parse (&red, chrono_timeline_scene_get_dark (scene) ? "#ff7b63" : "#c01c28");
  for (guint i = 0; i < 4; i++)
    colors[i] = red;
  for (guint i = 0; i < self->marks->len; i++)
    {
      graphene_rect_t area;
      GskRoundedRect outline;
      double x, w;

      if (!chrono_timeline_scene_get_span_area (scene, g_array_index (self->marks, ChronoSpanRef, i), &area) ||
          area.origin.x > width || area.origin.x + area.size.width < HEADER_WIDTH ||
          area.origin.y > bottom || area.origin.y + area.size.height < top)
        continue;
      w = MAX (area.size.width, MARK_MIN_WIDTH);
      x = area.origin.x + (area.size.width - w) / 2;
      gsk_rounded_rect_init_from_rect (&outline, &GRAPHENE_RECT_INIT (x, area.origin.y, w, area.size.height), 0);
      gtk_snapshot_append_border (snapshot, &outline, widths, colors);
    }
}

void
chrono_highlight_layer_snapshot (ChronoHighlightLayer    *self,
                                 GtkSnapshot             *snapshot,
                                 const ChronoSceneColors *colors)
{
  ChronoTimelineScene *scene = self->scene;
  ChronoViewport *viewport = chrono_timeline_scene_get_viewport (scene);
  double width = chrono_timeline_scene_get_width (scene), top = chrono_timeline_scene_get_ruler_height (scene);
  double area_height = chrono_timeline_scene_get_track_area_height (scene);
  GdkRGBA band = colors->selection, path = colors->selection;

  band.alpha = 0.12;
  path.alpha = chrono_timeline_scene_get_dark (scene) ? 0.9 : 0.8;
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, top, width, area_height));

  for (guint i = 0; i < self->tracks->len; i++)
    {
      guint own = chrono_timeline_scene_get_own_row (scene, g_array_index (self->tracks, guint, i));
      const ChronoSceneRow *row;
      double y;

      if (own == NO_TRACK)  /* hidden */
        continue;
      row = chrono_timeline_scene_get_row (scene, own);
      y = chrono_timeline_scene_get_row_top (scene, row);
      gtk_snapshot_append_color (snapshot, &band, &GRAPHENE_RECT_INIT (0, y, width, row->height));
      gtk_snapshot_append_color (snapshot, &colors->selection, &GRAPHENE_RECT_INIT (0, y, 4, row->height));
    }

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, top,
                                                         width - HEADER_WIDTH, area_height));
  if (self->end > self->start)
    {
      double x0 = CLAMP (chrono_viewport_time_to_x (viewport, self->start), -1, width);
      double x1 = CLAMP (chrono_viewport_time_to_x (viewport, self->end), -1, width);

      gtk_snapshot_append_color (snapshot, &band,
                                 &GRAPHENE_RECT_INIT (HEADER_WIDTH + x0, top, MAX (1, x1 - x0), area_height));
      gtk_snapshot_append_color (snapshot, &colors->selection,
                                 &GRAPHENE_RECT_INIT (HEADER_WIDTH + floor (x0), top, 1, area_height));
      gtk_snapshot_append_color (snapshot, &colors->selection,
                                 &GRAPHENE_RECT_INIT (HEADER_WIDTH + floor (x1), top, 1, area_height));
    }

  for (guint i = 0; i < self->path->len; i++)
    {
      ChronoSpanRef span = g_array_index (self->path, ChronoSpanRef, i);
      graphene_rect_t area;

      if (!chrono_timeline_scene_get_span_area (scene, span, &area) ||
          area.origin.x > width || area.origin.x + area.size.width < HEADER_WIDTH ||
          area.origin.y > top + area_height || area.origin.y + area.size.height < top)
        continue;
      /* A bar under the span: the span itself stays readable. */
      gtk_snapshot_append_color (snapshot, &path,
                                 &GRAPHENE_RECT_INIT (area.origin.x, area.origin.y + area.size.height - 3,
                                                      area.size.width, 3));
    }
  snapshot_marks (self, snapshot, top, top + area_height);
  gtk_snapshot_pop (snapshot);
  gtk_snapshot_pop (snapshot);
}

void
chrono_highlight_layer_snapshot_selection (ChronoHighlightLayer    *self,
                                           GtkSnapshot             *snapshot,
                                           const ChronoSceneColors *colors,
                                           ChronoSpanRef            span)
{
  ChronoTimelineScene *scene = self->scene;
  const float widths[4] = { 2, 2, 2, 2 };
  const GdkRGBA border[4] = { colors->selection, colors->selection,
                              colors->selection, colors->selection };
  double ruler_height = chrono_timeline_scene_get_ruler_height (scene);
  double pinned_visible = chrono_timeline_scene_get_pinned_visible (scene);
  double width = chrono_timeline_scene_get_width (scene);
  const ChronoSceneRow *row;
  GskRoundedRect outline;
  graphene_rect_t area;
  double top, bottom;

  if (!chrono_timeline_scene_get_span_area (scene, span, &area))
    return;

  /* Outside its track's part of the area the outline would cover the
   * names, or the pinned tracks. */
  row = chrono_timeline_scene_get_row (scene, chrono_timeline_scene_get_own_row (scene, span.track));
  top = ruler_height + (row->pinned ? 0 : pinned_visible);
  bottom = row->pinned ? ruler_height + pinned_visible : chrono_timeline_scene_get_height (scene);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, top, width - HEADER_WIDTH,
                                                         MAX (0, bottom - top)));
  graphene_rect_inset (&area, -2, -2);
  gsk_rounded_rect_init_from_rect (&outline, &area, 0);
  gtk_snapshot_append_border (snapshot, &outline, widths, border);
  gtk_snapshot_pop (snapshot);
}
