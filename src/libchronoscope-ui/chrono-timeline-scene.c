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
#include "chrono-flow-painter.h"
#include "chrono-palette.h"
#include "chrono-search-highlight.h"
#include "chrono-scene-colors.h"
#include "chrono-step-bands.h"
#include "chrono-text-cache.h"
#include "chrono-time-ruler.h"
#include "chrono-time-ticks.h"
#include "chrono-timeline-scene.h"
#include "chrono-track-painter-private.h"

#define HEADER_WIDTH   CHRONO_SCENE_HEADER_WIDTH
#define ROW_HEIGHT     CHRONO_SCENE_ROW_HEIGHT
#define GROUP_HEIGHT   CHRONO_SCENE_GROUP_HEIGHT
#define TRACK_PAD      CHRONO_SCENE_TRACK_PAD
#define NO_TRACK       CHRONO_SCENE_NO_ROW
/* The disclosure triangle of a process header. */
#define TRIANGLE_SIZE  8.0
#define COUNTER_HEIGHT 40.0
#define INSTANT_HEIGHT 16.0
#define TEXT_INSET     8.0
#define LABEL_GAP_PX   16.0
/* Pinned tracks show in at most this share of the track area: the
 * others must stay in reach. */
#define PINNED_MAX_SHARE 0.5

typedef struct
{
  ChronoSceneRow    row;
  GskRenderNode    *node;     /* what the painter made for the viewport; the
                               * busy strip of a collapsed header */
  gboolean          painted;  /* NODE is current, even when NULL */
  GskRenderNode    *highlight;    /* the search's layer over NODE */
  gboolean          highlighted;  /* HIGHLIGHT is current, even when NULL */
} Row;

struct _ChronoTimelineScene
{
  GObject             parent_instance;

  ChronoTrace        *trace;
  ChronoViewport     *viewport;
  ChronoTrackLayout  *layout;
  GPtrArray          *indexes;    /* track -> ChronoTrackIndex, built once */
  ChronoTrackPainter *painter;
  ChronoStepBands    *steps;
  PangoContext       *pango_context;
  ChronoTextCache    *text;       /* the names, in PANGO_CONTEXT */

  double              width;
  double              height;
  gboolean            dark;
  double              ruler_height;
  /* What the ruler counts from, and what its header calls that. */
  gint64              zero_ns;
  gboolean            has_zero;
  char               *zero_label;
  /* A tag before every name, telling whose tracks these are. */
  char               *badge;

  GArray             *rows;       /* Row, top to bottom: pinned ones first */
  guint              *track_rows; /* track -> position in ROWS, or NO_TRACK when hidden */
  guint              *group_rows; /* process -> position of its header in ROWS, or NO_TRACK */
  GArray             *members;    /* guint: the tracks of collapsed headers */
  double              content_height;
  double              pinned_height;
  double              scroll_y;

  gboolean            has_selection;
  ChronoSpanRef       selection;
  guint               current_track;
  ChronoSearch       *search;

  /* Layers over the rows, in the track area's coordinates: made again
   * only when the view, the scroll or the selection moves. */
  ChronoFlowPainter  *flow_painter;
  gboolean            show_all_flows;
  GskRenderNode      *all_flows_node;
  gboolean            all_flows_painted;
  GskRenderNode      *selected_flows_node;
  gboolean            selected_flows_painted;

  /* What the analysis points at: a time range and its tracks, and the
   * spans of a critical path. */
  gint64              highlight_start;
  gint64              highlight_end;
  GArray             *highlight_tracks;  /* guint */
  GArray             *path_spans;        /* ChronoSpanRef */

  ChronoAnnotationLayer *annotations;    /* NULL for none */
};

G_DEFINE_FINAL_TYPE (ChronoTimelineScene, chrono_timeline_scene, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
row_clear (gpointer data)
{
  Row *row = data;

  g_clear_object (&row->row.index);
  g_clear_pointer (&row->node, gsk_render_node_unref);
  g_clear_pointer (&row->highlight, gsk_render_node_unref);
}

static Row *
get_row (ChronoTimelineScene *self,
         guint                i)
{
  return &g_array_index (self->rows, Row, i);
}

static void
changed (ChronoTimelineScene *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
invalidate_flows (ChronoTimelineScene *self)
{
  g_clear_pointer (&self->all_flows_node, gsk_render_node_unref);
  g_clear_pointer (&self->selected_flows_node, gsk_render_node_unref);
  self->all_flows_painted = FALSE;
  self->selected_flows_painted = FALSE;
}

static void
invalidate_nodes (ChronoTimelineScene *self)
{
  invalidate_flows (self);
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = get_row (self, i);

      g_clear_pointer (&row->node, gsk_render_node_unref);
      row->painted = FALSE;
      g_clear_pointer (&row->highlight, gsk_render_node_unref);
      row->highlighted = FALSE;
    }
  changed (self);
}

static double
get_track_height (const ChronoTrack *track,
                  guint              n_rows)
{
  if (track->type == CHRONO_TRACK_COUNTER)
    return COUNTER_HEIGHT + 2 * TRACK_PAD;
  if (track->n_spans == 0)
    return INSTANT_HEIGHT + 2 * TRACK_PAD;
  return MAX (1, n_rows) * ROW_HEIGHT + 2 * TRACK_PAD;
}

static ChronoTrackIndex *
get_track_index (ChronoTimelineScene *self,
                 guint                track)
{
  /* Built ahead of time for the whole trace, or here when first needed;
   * kept across layout changes: pinning or hiding re-indexes nothing. */
  if (g_ptr_array_index (self->indexes, track) == NULL)
    g_ptr_array_index (self->indexes, track) = chrono_track_index_new (self->trace, track);
  return g_ptr_array_index (self->indexes, track);
}

static void
append_group_row (ChronoTimelineScene *self,
                  guint                process,
                  gboolean             pinned,
                  double              *y)
{
  Row group = { .row = { .track = NO_TRACK, .process = process, .pinned = pinned, .y = *y,
                         .height = GROUP_HEIGHT } };

  if (process != NO_TRACK)
    {
      group.row.collapsed = chrono_track_layout_is_collapsed (self->layout, process);
      group.row.first_member = self->members->len;
      self->group_rows[process] = self->rows->len;
    }
  g_array_append_val (self->rows, group);
  *y += GROUP_HEIGHT;
}

static void
append_track_row (ChronoTimelineScene *self,
                  guint                track_number,
                  gboolean             pinned,
                  double              *y)
{
  const ChronoTrack *track = chrono_trace_get_track (self->trace, track_number);
  Row row = { 0 };
  guint n_rows, shown;

  row.row.track = track_number;
  row.row.process = track->process;
  row.row.pinned = pinned;
  row.row.y = *y;
  /* Built up front: the layout needs every track's number of rows,
   * and even a 1 GB trace indexes in well under a second. */
  row.row.index = g_object_ref (get_track_index (self, track_number));
  n_rows = chrono_track_index_get_n_rows (row.row.index);
  shown = MIN (n_rows, chrono_track_layout_get_max_rows (self->layout, track_number));
  row.row.n_rows_hidden = track->type == CHRONO_TRACK_COUNTER ? 0 : n_rows - shown;
  row.row.height = get_track_height (track, shown);
  self->track_rows[track_number] = self->rows->len;
  g_array_append_val (self->rows, row);
  *y += row.row.height;
}

/* Pinned tracks under a header of their own, then the others by process,
 * as the layout orders them. */
static void
build_rows (ChronoTimelineScene *self)
{
  const guint *order, *pinned;
  guint n_tracks = 0, n_pinned = 0;
  guint last_process = G_MAXUINT;
  double y = 0;

  g_array_set_size (self->rows, 0);
  g_array_set_size (self->members, 0);
  g_clear_pointer (&self->track_rows, g_free);
  g_clear_pointer (&self->group_rows, g_free);

  order = chrono_track_layout_get_order (self->layout, &n_tracks);
  pinned = chrono_track_layout_get_pinned (self->layout, &n_pinned);
  self->track_rows = g_new (guint, MAX (n_tracks, 1));
  for (guint i = 0; i < n_tracks; i++)
    self->track_rows[i] = NO_TRACK;
  self->group_rows = g_new (guint, MAX (chrono_trace_get_n_processes (self->trace), 1));
  for (guint p = 0; p < chrono_trace_get_n_processes (self->trace); p++)
    self->group_rows[p] = NO_TRACK;

  for (guint i = 0; i < n_pinned; i++)
    {
      if (chrono_track_layout_is_hidden (self->layout, pinned[i]))
        continue;
      if (self->rows->len == 0)
        append_group_row (self, NO_TRACK, TRUE, &y);
      append_track_row (self, pinned[i], TRUE, &y);
    }
  self->pinned_height = y;

  for (guint i = 0; i < n_tracks; i++)
    {
      const ChronoTrack *track = chrono_trace_get_track (self->trace, order[i]);

      if (chrono_track_layout_is_pinned (self->layout, order[i]) ||
          chrono_track_layout_is_hidden (self->layout, order[i]))
        continue;
      if (track->process != last_process)
        {
          append_group_row (self, track->process, FALSE, &y);
          last_process = track->process;
        }
      /* A collapsed process keeps its tracks for its busy strip. */
      if (chrono_track_layout_is_collapsed (self->layout, track->process))
        {
          g_array_append_val (self->members, order[i]);
          get_row (self, self->rows->len - 1)->row.n_members++;
          continue;
        }
      append_track_row (self, order[i], FALSE, &y);
    }
  self->content_height = y;
}

static guint
find_row (ChronoTimelineScene *self,
          double               content_y)
{
  guint lo = 0, hi = self->rows->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const ChronoSceneRow *row = &get_row (self, mid)->row;

      if (content_y < row->y)
        hi = mid;
      else if (content_y >= row->y + row->height)
        lo = mid + 1;
      else
        return mid;
    }
  return G_MAXUINT;
}

/* -------------------------------------------------------------------- */
/* Painting the rows                                                    */

/* The busy strip of a collapsed header, from its tracks' indexes. */
static GskRenderNode *
get_busy_node (ChronoTimelineScene *self,
               Row                 *row)
{
  g_autofree ChronoTrackIndex **indexes = NULL;

  if (row->painted)
    return row->node;

  indexes = g_new (ChronoTrackIndex *, MAX (row->row.n_members, 1));
  for (guint i = 0; i < row->row.n_members; i++)
    indexes[i] = get_track_index (self, g_array_index (self->members, guint, row->row.first_member + i));
  row->node = chrono_track_painter_paint_busy (self->painter, indexes, row->row.n_members, self->viewport,
                                               row->row.height - 2 * TRACK_PAD);
  row->painted = TRUE;
  return row->node;
}

static GskRenderNode *
get_row_node (ChronoTimelineScene *self,
              Row                 *row)
{
  const ChronoTrack *track;

  if (row->painted)
    return row->node;

  track = chrono_trace_get_track (self->trace, row->row.track);
  if (track->type == CHRONO_TRACK_COUNTER)
    row->node = chrono_track_painter_paint_counter (self->painter, row->row.index, self->viewport,
                                                    COUNTER_HEIGHT);
  else if (track->n_spans == 0)
    row->node = chrono_track_painter_paint_instants (self->painter, row->row.index, self->viewport,
                                                     INSTANT_HEIGHT);
  else
    row->node = chrono_track_painter_paint_spans (self->painter, row->row.index, self->viewport,
                                                  ROW_HEIGHT);
  row->painted = TRUE;
  return row->node;
}

static double
measure_text_cb (const char *text,
                 gpointer    user_data)
{
  return chrono_text_cache_measure (user_data, text);
}

static GskRenderNode *
get_row_highlight (ChronoTimelineScene *self,
                   Row                 *row,
                   const ChronoSceneColors *colors)
{
  const ChronoTrack *track = chrono_trace_get_track (self->trace, row->row.track);

  if (row->highlighted)
    return row->highlight;

  /* Counters and instants have no names to find: they dim whole. */
  if (track->n_spans == 0)
    row->highlight = gsk_color_node_new (&colors->dim,
                                         &GRAPHENE_RECT_INIT (0, 0, chrono_viewport_get_width_px (self->viewport),
                                                              row->row.height - 2 * TRACK_PAD));
  else
    row->highlight = chrono_search_highlight_paint (self->search, row->row.index, self->viewport,
                                                    ROW_HEIGHT, &colors->dim, &colors->match);
  row->highlighted = TRUE;
  return row->highlight;
}

/* Pointing right when collapsed, down when expanded. A node of its own,
 * from its own origin, placed by a transform: cairo's SVG surface loses
 * drawings recorded away from their origin. */
static void
snapshot_triangle (GtkSnapshot   *snapshot,
                   gboolean       collapsed,
                   double         x,
                   double         y,
                   const GdkRGBA *color)
{
  const double s = TRIANGLE_SIZE;
  g_autoptr(GskRenderNode) node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, s, s));
  cairo_t *cr = gsk_cairo_node_get_draw_context (node);

  if (collapsed)
    {
      cairo_move_to (cr, s * 0.2, 0);
      cairo_line_to (cr, s * 0.9, s / 2);
      cairo_line_to (cr, s * 0.2, s);
    }
  else
    {
      cairo_move_to (cr, 0, s * 0.2);
      cairo_line_to (cr, s, s * 0.2);
      cairo_line_to (cr, s / 2, s * 0.9);
    }
  cairo_close_path (cr);
  gdk_cairo_set_source_rgba (cr, color);
  cairo_fill (cr);
  cairo_destroy (cr);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_node (snapshot, node);
  gtk_snapshot_restore (snapshot);
}

/* The badge at X, vertically centred in Y to Y + HEIGHT; returns the
 * room it takes, gap included, or 0 without one. */
static double
snapshot_badge (ChronoTimelineScene     *self,
                GtkSnapshot             *snapshot,
                const ChronoSceneColors *colors,
                double                   x,
                double                   y,
                double                   height)
{
  double width, box_height = MIN (height, ROW_HEIGHT - 2);
  GdkRGBA fill = colors->text;
  GskRoundedRect box;

  if (self->badge == NULL)
    return 0;
  width = chrono_text_cache_measure (self->text, self->badge) + 6;
  y += (height - box_height) / 2;
  fill.alpha = 0.16;
  gsk_rounded_rect_init_from_rect (&box, &GRAPHENE_RECT_INIT (x, y, width, box_height), 3);
  gtk_snapshot_push_rounded_clip (snapshot, &box);
  gtk_snapshot_append_color (snapshot, &fill, &box.bounds);
  gtk_snapshot_pop (snapshot);
  chrono_text_cache_append (self->text, snapshot, self->badge, x + 3, y, width, box_height, &colors->text);
  return width + TEXT_INSET / 2;
}

/* A collapsed process's header, or the pinned tracks'. */
static void
snapshot_group_row (ChronoTimelineScene *self,
                    GtkSnapshot         *snapshot,
                    const ChronoSceneColors *colors,
                    Row                 *row)
{
  const ChronoSceneRow *r = &row->row;
  double inset = TEXT_INSET, width = self->width;
  GskRenderNode *node;

  gtk_snapshot_append_color (snapshot, &colors->group, &GRAPHENE_RECT_INIT (0, r->y, width, r->height));
  if (r->process == NO_TRACK)
    {
      chrono_text_cache_append (self->text, snapshot, _("Pinned"), inset, r->y, width - 2 * TEXT_INSET, r->height,
                   &colors->text);
      return;
    }
  /* The current track's process stands out while it is collapsed. */
  if (r->collapsed && self->current_track != NO_TRACK &&
      self->track_rows[self->current_track] == NO_TRACK &&
      chrono_trace_get_track (self->trace, self->current_track)->process == r->process)
    gtk_snapshot_append_color (snapshot, &colors->current,
                               &GRAPHENE_RECT_INIT (0, r->y, HEADER_WIDTH - 1, r->height));
  snapshot_triangle (snapshot, r->collapsed, inset, r->y + (r->height - TRIANGLE_SIZE) / 2,
                     &colors->dim_text);
  inset += TRIANGLE_SIZE + TEXT_INSET / 2;
  inset += snapshot_badge (self, snapshot, colors, inset, r->y, r->height);
  /* Collapsed, the name keeps to its column: the strip is beside it. */
  chrono_text_cache_append (self->text, snapshot,
               chrono_trace_get_string (self->trace,
                                        chrono_trace_get_process (self->trace, r->process)->display_name),
               inset, r->y, (r->collapsed ? HEADER_WIDTH : width) - inset - TEXT_INSET, r->height,
               &colors->text);
  if (r->collapsed && (node = get_busy_node (self, row)) != NULL)
    {
      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, r->y,
                                                             width - HEADER_WIDTH, r->height));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, r->y + TRACK_PAD));
      gtk_snapshot_append_node (snapshot, node);
      gtk_snapshot_restore (snapshot);
      gtk_snapshot_pop (snapshot);
    }
}

/* One row, at its place in content coordinates. */
static void
snapshot_row (ChronoTimelineScene *self,
              GtkSnapshot         *snapshot,
              const ChronoSceneColors *colors,
              Row                 *row)
{
  const ChronoSceneRow *r = &row->row;
  double width = self->width;
  const ChronoTrack *track;
  GskRenderNode *node;
  double name_y, name_height, badge;

  if (r->track == NO_TRACK)
    {
      snapshot_group_row (self, snapshot, colors, row);
      return;
    }

  track = chrono_trace_get_track (self->trace, r->track);
  if (r->track == self->current_track)
    gtk_snapshot_append_color (snapshot, &colors->current,
                               &GRAPHENE_RECT_INIT (0, r->y, HEADER_WIDTH - 1, r->height - 1));
  name_height = MIN (r->height - 2 * TRACK_PAD, 2 * ROW_HEIGHT);
  /* The name stays in view while a tall track scrolls under the top. */
  name_y = r->pinned ? r->y : MAX (r->y, chrono_timeline_scene_get_scroll_offset (self) +
                                         chrono_timeline_scene_get_pinned_visible (self));
  name_y = MIN (name_y, r->y + r->height - name_height - 2 * TRACK_PAD);
  badge = snapshot_badge (self, snapshot, colors, 2 * TEXT_INSET, name_y + TRACK_PAD, name_height);
  chrono_text_cache_append (self->text, snapshot, chrono_trace_get_string (self->trace, track->display_name),
               2 * TEXT_INSET + badge, name_y + TRACK_PAD, HEADER_WIDTH - 3 * TEXT_INSET - badge,
               name_height, &colors->dim_text);
  if (r->n_rows_hidden > 0 && r->height >= name_height + ROW_HEIGHT + 2 * TRACK_PAD)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "+%u level (E)", "+%u levels (E)",
                                                            r->n_rows_hidden),
                                               r->n_rows_hidden);

      chrono_text_cache_append (self->text, snapshot, more, 2 * TEXT_INSET, r->y + r->height - TRACK_PAD - ROW_HEIGHT,
                                HEADER_WIDTH - 3 * TEXT_INSET, ROW_HEIGHT, &colors->dim_text);
    }
  gtk_snapshot_append_color (snapshot, &colors->line,
                             &GRAPHENE_RECT_INIT (0, r->y + r->height - 1, width, 1));

  node = get_row_node (self, row);
  if (node == NULL)
    return;
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, r->y,
                                                         width - HEADER_WIDTH, r->height));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, r->y + TRACK_PAD));
  gtk_snapshot_append_node (snapshot, node);
  if (self->search != NULL && (node = get_row_highlight (self, row, colors)) != NULL)
    gtk_snapshot_append_node (snapshot, node);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}

/* -------------------------------------------------------------------- */
/* Steps and flows                                                      */

/* Rows in the track area's coordinates, which flow nodes use. */
static gboolean
place_span_cb (ChronoSpanRef span,
               double       *y,
               gpointer      user_data)
{
  ChronoTimelineScene *self = user_data;
  guint i = chrono_timeline_scene_get_track_row (self, span.track);
  const ChronoSceneRow *row;

  /* A hidden track draws no arrows; a collapsed one's end at its
   * process's header. */
  if (i == NO_TRACK)
    return FALSE;
  row = &get_row (self, i)->row;
  if (row->track == NO_TRACK)
    *y = chrono_timeline_scene_get_row_top (self, row) - self->ruler_height + row->height / 2;
  else
    /* A span below a capped track's rows: at its last row. */
    *y = chrono_timeline_scene_get_row_top (self, row) - self->ruler_height + TRACK_PAD +
         (MIN (chrono_track_index_get_span_row (row->index, span.index),
               chrono_track_index_get_n_rows (row->index) - row->n_rows_hidden - 1) + 0.5) * ROW_HEIGHT;
  return TRUE;
}

static GskRenderNode *
get_all_flows_node (ChronoTimelineScene *self,
                    double               area_height)
{
  if (!self->all_flows_painted)
    {
      self->all_flows_node = chrono_flow_painter_paint_range (self->flow_painter, self->viewport,
                                                              place_span_cb, self, area_height, NULL);
      self->all_flows_painted = TRUE;
    }
  return self->all_flows_node;
}

static GskRenderNode *
get_selected_flows_node (ChronoTimelineScene *self,
                         double               area_height)
{
  if (!self->selected_flows_painted)
    {
      ChronoFlowPainter *painter = self->flow_painter;
      g_autoptr(GArray) flows = g_array_new (FALSE, FALSE, sizeof (guint));

      chrono_flow_index_get_span_flows (chrono_flow_painter_get_index (painter), self->selection, flows);
      self->selected_flows_node = chrono_flow_painter_paint_flows (painter, self->viewport,
                                                                   (const guint *) flows->data, flows->len,
                                                                   place_span_cb, self, area_height);
      self->selected_flows_painted = TRUE;
    }
  return self->selected_flows_node;
}

/* Arrows go over the spans: all of the window's when asked for, then
 * the selected span's, bolder, on top. */
static void
snapshot_flows (ChronoTimelineScene *self,
                GtkSnapshot         *snapshot,
                double               area_height)
{
  GskRenderNode *all = NULL, *selected = NULL;

  if (self->flow_painter == NULL)
    return;
  if (self->show_all_flows)
    all = get_all_flows_node (self, area_height);
  if (self->has_selection)
    selected = get_selected_flows_node (self, area_height);
  if (all == NULL && selected == NULL)
    return;

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, self->ruler_height,
                                                         self->width - HEADER_WIDTH, area_height));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, self->ruler_height));
  if (all != NULL)
    gtk_snapshot_append_node (snapshot, all);
  if (selected != NULL)
    gtk_snapshot_append_node (snapshot, selected);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}

static void
snapshot_selection (ChronoTimelineScene *self,
                    GtkSnapshot         *snapshot,
                    const ChronoSceneColors *colors)
{
  const float widths[4] = { 2, 2, 2, 2 };
  const GdkRGBA border[4] = { colors->selection, colors->selection,
                              colors->selection, colors->selection };
  const ChronoSceneRow *row;
  GskRoundedRect outline;
  graphene_rect_t area;
  double top, bottom;

  if (!self->has_selection || !chrono_timeline_scene_get_span_area (self, self->selection, &area))
    return;

  /* Outside its track's part of the area the outline would cover the
   * names, or the pinned tracks. */
  row = &get_row (self, self->track_rows[self->selection.track])->row;
  top = self->ruler_height + (row->pinned ? 0 : chrono_timeline_scene_get_pinned_visible (self));
  bottom = row->pinned ? self->ruler_height + chrono_timeline_scene_get_pinned_visible (self) : self->height;
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, top, self->width - HEADER_WIDTH,
                                                         MAX (0, bottom - top)));
  graphene_rect_inset (&area, -2, -2);
  gsk_rounded_rect_init_from_rect (&outline, &area, 0);
  gtk_snapshot_append_border (snapshot, &outline, widths, border);
  gtk_snapshot_pop (snapshot);
}

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
  guint first = find_row (self, offset + pinned_height);

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
  for (guint i = first; i < self->rows->len; i++)
    {
      Row *row = get_row (self, i);

      if (row->row.y >= offset + area_height)
        break;
      snapshot_row (self, snapshot, colors, row);
    }
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);

  if (pinned_height > 0)
    {
      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, top, width, pinned_height));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, top));
      for (guint i = 0; i < self->rows->len; i++)
        {
          Row *row = get_row (self, i);

          if (!row->row.pinned)
            break;
          snapshot_row (self, snapshot, colors, row);
        }
      /* A firmer line than between tracks: rows scroll under it. */
      gtk_snapshot_append_color (snapshot, &colors->dim_text,
                                 &GRAPHENE_RECT_INIT (0, pinned_height - 1, width, 1));
      gtk_snapshot_restore (snapshot);
      gtk_snapshot_pop (snapshot);
    }
  snapshot_step_bands (self, snapshot, colors, area_height, TRUE);
  snapshot_flows (self, snapshot, area_height);

  gtk_snapshot_append_color (snapshot, &colors->line,
                             &GRAPHENE_RECT_INIT (HEADER_WIDTH - 1, top, 1, area_height));
  snapshot_selection (self, snapshot, colors);

  gtk_snapshot_pop (snapshot);
}

static void
snapshot_highlight (ChronoTimelineScene *self,
                    GtkSnapshot         *snapshot,
                    const ChronoSceneColors *colors)
{
  double width = self->width, top = self->ruler_height;
  double area_height = chrono_timeline_scene_get_track_area_height (self);
  GdkRGBA band = colors->selection, path = colors->selection;

  band.alpha = 0.12;
  path.alpha = self->dark ? 0.9 : 0.8;
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, top, width, area_height));

  for (guint i = 0; i < self->highlight_tracks->len; i++)
    {
      guint track = g_array_index (self->highlight_tracks, guint, i);
      const ChronoSceneRow *row;
      double y;

      if (self->track_rows[track] == NO_TRACK)  /* hidden */
        continue;
      row = &get_row (self, self->track_rows[track])->row;
      y = chrono_timeline_scene_get_row_top (self, row);
      gtk_snapshot_append_color (snapshot, &band, &GRAPHENE_RECT_INIT (0, y, width, row->height));
      gtk_snapshot_append_color (snapshot, &colors->selection, &GRAPHENE_RECT_INIT (0, y, 4, row->height));
    }

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, top,
                                                         width - HEADER_WIDTH, area_height));
  if (self->highlight_end > self->highlight_start)
    {
      double x0 = CLAMP (chrono_viewport_time_to_x (self->viewport, self->highlight_start), -1, width);
      double x1 = CLAMP (chrono_viewport_time_to_x (self->viewport, self->highlight_end), -1, width);

      gtk_snapshot_append_color (snapshot, &band,
                                 &GRAPHENE_RECT_INIT (HEADER_WIDTH + x0, top, MAX (1, x1 - x0), area_height));
      gtk_snapshot_append_color (snapshot, &colors->selection,
                                 &GRAPHENE_RECT_INIT (HEADER_WIDTH + floor (x0), top, 1, area_height));
      gtk_snapshot_append_color (snapshot, &colors->selection,
                                 &GRAPHENE_RECT_INIT (HEADER_WIDTH + floor (x1), top, 1, area_height));
    }

  for (guint i = 0; i < self->path_spans->len; i++)
    {
      ChronoSpanRef span = g_array_index (self->path_spans, ChronoSpanRef, i);
      graphene_rect_t area;

      if (!chrono_timeline_scene_get_span_area (self, span, &area) ||
          area.origin.x > width || area.origin.x + area.size.width < HEADER_WIDTH ||
          area.origin.y > top + area_height || area.origin.y + area.size.height < top)
        continue;
      /* A bar under the span: the span itself stays readable. */
      gtk_snapshot_append_color (snapshot, &path,
                                 &GRAPHENE_RECT_INIT (area.origin.x, area.origin.y + area.size.height - 3,
                                                      area.size.width, 3));
    }
  gtk_snapshot_pop (snapshot);
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
  snapshot_highlight (self, snapshot, &colors);
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
  g_array_set_size (self->rows, 0);
  invalidate_flows (self);
  g_clear_object (&self->flow_painter);
  g_clear_object (&self->search);
  g_clear_object (&self->painter);
  g_clear_object (&self->steps);
  g_clear_object (&self->pango_context);
  g_clear_object (&self->layout);
  g_clear_object (&self->viewport);
  g_clear_pointer (&self->indexes, g_ptr_array_unref);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (chrono_timeline_scene_parent_class)->dispose (object);
}

static void
chrono_timeline_scene_finalize (GObject *object)
{
  ChronoTimelineScene *self = CHRONO_TIMELINE_SCENE (object);

  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->members, g_array_unref);
  g_clear_pointer (&self->text, chrono_text_cache_free);
  g_clear_pointer (&self->track_rows, g_free);
  g_clear_pointer (&self->group_rows, g_free);
  g_clear_pointer (&self->highlight_tracks, g_array_unref);
  g_clear_pointer (&self->path_spans, g_array_unref);
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
  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_array_set_clear_func (self->rows, row_clear);
  self->members = g_array_new (FALSE, FALSE, sizeof (guint));
  self->highlight_tracks = g_array_new (FALSE, FALSE, sizeof (guint));
  self->path_spans = g_array_new (FALSE, FALSE, sizeof (ChronoSpanRef));
  self->current_track = NO_TRACK;
  self->ruler_height = CHRONO_SCENE_RULER_HEIGHT;
}

static void
unref_index (gpointer index)
{
  if (index != NULL)
    g_object_unref (index);
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
  if (indexes != NULL)
    {
      self->indexes = g_ptr_array_ref (indexes);
    }
  else
    {
      self->indexes = g_ptr_array_new_full (chrono_trace_get_n_tracks (trace), unref_index);
      g_ptr_array_set_size (self->indexes, chrono_trace_get_n_tracks (trace));
    }
  self->layout = g_object_ref (layout);
  self->viewport = g_object_ref (viewport);
  g_signal_connect_swapped (viewport, "changed", G_CALLBACK (viewport_changed_cb), self);
  self->painter = chrono_track_painter_new (trace);
  self->steps = chrono_step_bands_new (trace);
  set_default_pango_context (self);
  build_rows (self);
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
  chrono_track_painter_set_pango_context (self->painter, context);
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
  chrono_track_painter_set_dark (self->painter, dark);
  if (self->flow_painter != NULL)
    chrono_flow_painter_set_dark (self->flow_painter, dark);
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

  _chrono_track_painter_set_image_px_per_rect (self->painter,
                                               vector ? 0 : CHRONO_TRACK_PAINTER_IMAGE_PX_PER_RECT);
  invalidate_nodes (self);
}

void
chrono_timeline_scene_update_rows (ChronoTimelineScene *self)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));

  build_rows (self);
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
  return self->rows->len;
}

const ChronoSceneRow *
chrono_timeline_scene_get_row (ChronoTimelineScene *self,
                               guint                i)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NULL);
  g_return_val_if_fail (i < self->rows->len, NULL);
  return &get_row (self, i)->row;
}

guint
chrono_timeline_scene_get_member (ChronoTimelineScene  *self,
                                  const ChronoSceneRow *row,
                                  guint                 n)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NO_TRACK);
  g_return_val_if_fail (n < row->n_members, NO_TRACK);
  return g_array_index (self->members, guint, row->first_member + n);
}

guint
chrono_timeline_scene_get_own_row (ChronoTimelineScene *self,
                                   guint                track)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NO_TRACK);
  if (track >= chrono_trace_get_n_tracks (self->trace))
    return NO_TRACK;
  return self->track_rows[track];
}

guint
chrono_timeline_scene_get_track_row (ChronoTimelineScene *self,
                                     guint                track)
{
  guint process;

  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NO_TRACK);

  if (track >= chrono_trace_get_n_tracks (self->trace))
    return NO_TRACK;
  if (self->track_rows[track] != NO_TRACK)
    return self->track_rows[track];
  if (chrono_track_layout_is_hidden (self->layout, track))
    return NO_TRACK;
  process = chrono_trace_get_track (self->trace, track)->process;
  return chrono_track_layout_is_collapsed (self->layout, process) ? self->group_rows[process] : NO_TRACK;
}

guint
chrono_timeline_scene_get_process_row (ChronoTimelineScene *self,
                                       guint                process)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), NO_TRACK);
  if (process >= chrono_trace_get_n_processes (self->trace))
    return NO_TRACK;
  return self->group_rows[process];
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
  return find_row (self, content_y);
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
  return self->content_height;
}

double
chrono_timeline_scene_get_pinned_height (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), 0);
  return self->pinned_height;
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
  return MIN (self->pinned_height,
              floor (chrono_timeline_scene_get_track_area_height (self) * PINNED_MAX_SHARE));
}

/* By the scroll, and by the part of the pinned tracks that does not
 * show. */
double
chrono_timeline_scene_get_scroll_offset (ChronoTimelineScene *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (self), 0);
  return self->scroll_y + self->pinned_height - chrono_timeline_scene_get_pinned_visible (self);
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

  max = MAX (0, (self->content_height - self->pinned_height) -
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
  row = &get_row (self, i)->row;
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
  if (span.index >= track->n_spans || self->track_rows[span.track] == NO_TRACK)
    return FALSE;

  row = &get_row (self, self->track_rows[span.track])->row;
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
  g_clear_pointer (&self->selected_flows_node, gsk_render_node_unref);
  self->selected_flows_painted = FALSE;
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
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = get_row (self, i);

      g_clear_pointer (&row->highlight, gsk_render_node_unref);
      row->highlighted = FALSE;
    }
  changed (self);
}

void
chrono_timeline_scene_set_flow_index (ChronoTimelineScene *self,
                                      ChronoFlowIndex     *index)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));
  g_return_if_fail (index == NULL || CHRONO_IS_FLOW_INDEX (index));

  g_clear_object (&self->flow_painter);
  if (index != NULL)
    {
      self->flow_painter = chrono_flow_painter_new (index);
      chrono_flow_painter_set_dark (self->flow_painter, self->dark);
    }
  invalidate_flows (self);
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

  self->highlight_start = start_ns;
  self->highlight_end = end_ns;
  g_array_set_size (self->highlight_tracks, 0);
  for (guint i = 0; i < n_tracks; i++)
    if (tracks[i] < chrono_trace_get_n_tracks (self->trace))
      g_array_append_val (self->highlight_tracks, tracks[i]);
  changed (self);
}

void
chrono_timeline_scene_set_path (ChronoTimelineScene *self,
                                const ChronoSpanRef *spans,
                                guint                n_spans)
{
  g_return_if_fail (CHRONO_IS_TIMELINE_SCENE (self));

  g_array_set_size (self->path_spans, 0);
  if (n_spans > 0)
    g_array_append_vals (self->path_spans, spans, n_spans);
  changed (self);
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
