/* chrono-search-highlight.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "chrono-search-highlight.h"
#include "chrono-track-painter.h"

/* Matches narrower than this keep their colour only. */
#define MIN_OUTLINE_PX 4.0

typedef struct {
  ChronoSearch      *search;
  const ChronoTrack *track;
  const guint32     *row_spans;
  GPtrArray         *nodes;
  const GdkRGBA     *dim;
  const GdkRGBA     *outline;
  double             y;
  double             height;
  double             width;
  double             dimmed_to;  /* x up to which the row is dimmed or matched */
} Walk;

static gboolean
item_matches (const Walk          *walk,
              const ChronoRowItem *item)
{
  /* A run matches when any span in it does: far out, runs are all there
   * is to show where matches are. */
  for (guint32 p = item->first; p < item->first + item->n_spans; p++)
    if (chrono_search_matches_name (walk->search, chrono_track_get_name (walk->track, walk->row_spans[p])))
      return TRUE;
  return FALSE;
}

static void
dim_until (Walk   *walk,
           double  x)
{
  if (x > walk->dimmed_to)
    g_ptr_array_add (walk->nodes,
                     gsk_color_node_new (walk->dim,
                                         &GRAPHENE_RECT_INIT (walk->dimmed_to, walk->y,
                                                              x - walk->dimmed_to, walk->height)));
  walk->dimmed_to = MAX (walk->dimmed_to, x);
}

static void
highlight_item (const ChronoRowItem *item,
                gpointer             user_data)
{
  Walk *walk = user_data;
  double x0, x1;
  const float widths[4] = { 1, 1, 1, 1 };
  GskRoundedRect outline;

  if (!item_matches (walk, item))
    return;

  /* Whole pixels, the way the painter draws the box. */
  x0 = floor (CLAMP (item->x0, -2.0, walk->width + 2.0));
  x1 = MAX (ceil (CLAMP (item->x1, -2.0, walk->width + 2.0)), x0 + 1);
  dim_until (walk, x0);
  walk->dimmed_to = MAX (walk->dimmed_to, x1);
  /* A ring around a sliver would hide its colour. */
  if (x1 - x0 < MIN_OUTLINE_PX)
    return;
  gsk_rounded_rect_init_from_rect (&outline, &GRAPHENE_RECT_INIT (x0, walk->y, x1 - x0, walk->height), 0);
  g_ptr_array_add (walk->nodes,
                   gsk_border_node_new (&outline, widths,
                                        (GdkRGBA[4]) { *walk->outline, *walk->outline,
                                                       *walk->outline, *walk->outline }));
}

GskRenderNode *
chrono_search_highlight_paint (ChronoSearch     *search,
                               ChronoTrackIndex *index,
                               ChronoViewport   *viewport,
                               double            row_height,
                               const GdkRGBA    *dim,
                               const GdkRGBA    *outline)
{
  g_autoptr(GPtrArray) nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
  guint n_rows;
  Walk walk = { 0 };

  g_return_val_if_fail (CHRONO_IS_SEARCH (search), NULL);
  g_return_val_if_fail (CHRONO_IS_TRACK_INDEX (index), NULL);
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (viewport), NULL);

  walk.search = search;
  walk.track = chrono_track_index_get_track (index);
  walk.nodes = nodes;
  walk.dim = dim;
  walk.outline = outline;
  walk.width = chrono_viewport_get_width_px (viewport);
  walk.height = row_height;

  n_rows = chrono_track_index_get_n_rows (index);
  for (guint row = 0; row < n_rows; row++)
    {
      guint32 n_spans;

      walk.row_spans = chrono_track_index_get_row_spans (index, row, &n_spans);
      walk.y = row * row_height;
      walk.dimmed_to = 0;
      chrono_track_index_walk_row (index, row, viewport, CHRONO_TRACK_PAINTER_MERGE_WIDTH_PX,
                                   highlight_item, &walk);
      dim_until (&walk, walk.width);
    }
  if (nodes->len == 0)
    return NULL;
  return gsk_container_node_new ((GskRenderNode **) nodes->pdata, nodes->len);
}
