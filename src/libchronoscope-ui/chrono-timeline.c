/* chrono-timeline.c: the zoomable timeline of a trace: a time ruler over
 * one block of rows per track, grouped by process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "chrono-background.h"
#include "chrono-flow-painter.h"
#include "chrono-format.h"
#include "chrono-palette.h"
#include "chrono-search-highlight.h"
#include "chrono-step-bands.h"
#include "chrono-time-ticks.h"
#include "chrono-timeline.h"
#include "chrono-track-index.h"
#include "chrono-track-layout.h"
#include "chrono-track-painter.h"
#include "chrono-zoom-controllers.h"

#define HEADER_WIDTH   CHRONO_TIMELINE_HEADER_WIDTH
#define RULER_HEIGHT   CHRONO_TIMELINE_RULER_HEIGHT
/* The ruler's time labels and ticks sit above its strip of steps. */
#define TIME_HEIGHT    (RULER_HEIGHT - CHRONO_TIMELINE_STEP_STRIP_HEIGHT)
#define ROW_HEIGHT     CHRONO_TIMELINE_ROW_HEIGHT
#define GROUP_HEIGHT   24.0
/* The disclosure triangle of a process header. */
#define TRIANGLE_SIZE  8.0
#define COUNTER_HEIGHT 40.0
#define INSTANT_HEIGHT 16.0
/* Room above and below the rows of a track, so neighbours stay apart. */
#define TRACK_PAD      3.0
#define TEXT_INSET     8.0
#define LABEL_GAP_PX   16.0
/* A wheel notch or arrow key moves this far; drags move with the pointer. */
#define SCROLL_STEP_PX 48.0
#define ZOOM_STEP      1.25
/* A key pans by this fraction of the visible time. */
#define PAN_FRACTION   0.1
#define NO_TRACK       G_MAXUINT
/* Shaped texts kept for the names and the ruler: past this many, the
 * ruler's labels of other zoom levels are dropped with the rest. */
#define MAX_LAYOUTS    512
/* Pinned tracks show in at most this share of the track area: the
 * others must stay in reach. */
#define PINNED_MAX_SHARE 0.5
/* A span found by search gets at least this wide when revealed. */
#define REVEAL_MIN_PX  24.0

typedef struct
{
  guint             track;    /* NO_TRACK for the header of a process */
  guint             process;  /* NO_TRACK for the header of the pinned tracks */
  gboolean          pinned;   /* stays at the top: never scrolls */
  gboolean          collapsed;  /* a process's header standing for its tracks */
  guint             first_member;  /* its tracks: in MEMBERS, from here ... */
  guint             n_members;     /* ... this many */
  double            y;        /* below the ruler, before scrolling */
  double            height;
  guint             n_rows_hidden;  /* deeper rows a capped track leaves out */
  ChronoTrackIndex *index;
  GskRenderNode    *node;     /* what the painter made for the viewport; the
                               * busy strip of a collapsed header */
  gboolean          painted;  /* NODE is current, even when NULL */
  GskRenderNode    *highlight;    /* the search's layer over NODE */
  gboolean          highlighted;  /* HIGHLIGHT is current, even when NULL */
} Row;

typedef struct
{
  GdkRGBA background;
  GdkRGBA header;
  GdkRGBA group;
  GdkRGBA text;
  GdkRGBA dim_text;
  GdkRGBA line;
  GdkRGBA grid;
  GdkRGBA selection;
  GdkRGBA dim;          /* over spans a search did not find */
  GdkRGBA match;        /* around spans it found */
  GdkRGBA current;      /* behind the name of the current track */
} Colors;

struct _ChronoTimeline
{
  GtkWidget           parent_instance;

  ChronoTrace        *trace;
  gboolean            dark;
  ChronoViewport     *viewport;
  ChronoTrackPainter *painter;

  GHashTable         *layouts;    /* text -> PangoLayout, shaped once */
  GArray             *rows;       /* Row, top to bottom: pinned ones first */
  guint              *track_rows; /* track -> position in ROWS, or NO_TRACK when hidden */
  guint              *group_rows; /* process -> position of its header in ROWS, or NO_TRACK */
  GArray             *members;    /* guint: the tracks of collapsed headers */
  double              content_height;
  double              pinned_height;
  double              scroll_y;

  ChronoTrackLayout  *layout;
  GPtrArray          *indexes;    /* track -> ChronoTrackIndex, built once */
  guint               current_track;  /* what the track actions act on */
  guint               dragged_track;  /* moved by dragging its name, or NO_TRACK */
  double              drag_start_y;
  GtkWidget          *track_menu;
  ChronoSearch       *search;

  double              pointer_x;
  double              drag_x;
  double              drag_y;

  gboolean            has_selection;
  ChronoSpanRef       selection;

  /* Layers over and under the rows, in the track area's coordinates:
   * made again only when the view, the scroll or the selection moves. */
  ChronoStepBands    *steps;
  ChronoFlowPainter  *flow_painter;     /* once the flows are indexed */
  GCancellable       *flows_cancellable;
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
};

G_DEFINE_FINAL_TYPE (ChronoTimeline, chrono_timeline, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TRACE,
  PROP_DARK,
  PROP_SHOW_ALL_FLOWS,
  PROP_FLOWS_READY,
  N_PROPS
};

enum {
  SPAN_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
get_colors (ChronoTimeline *self,
            Colors         *colors)
{
  chrono_palette_canvas_colors (self->dark, &colors->background, &colors->text, &colors->selection);
  if (self->dark)
    {
      colors->header = (GdkRGBA) { 0.16, 0.16, 0.16, 1.0 };
      colors->group = (GdkRGBA) { 0.21, 0.21, 0.22, 1.0 };
      colors->dim_text = (GdkRGBA) { 1.0, 1.0, 1.0, 0.6 };
      colors->line = (GdkRGBA) { 1.0, 1.0, 1.0, 0.15 };
      colors->grid = (GdkRGBA) { 1.0, 1.0, 1.0, 0.07 };
      colors->dim = (GdkRGBA) { 0.12, 0.12, 0.12, 0.75 };
      colors->match = (GdkRGBA) { 1.0, 1.0, 1.0, 0.9 };
      colors->current = (GdkRGBA) { 0.47, 0.68, 0.93, 0.25 };
    }
  else
    {
      colors->header = (GdkRGBA) { 0.96, 0.96, 0.95, 1.0 };
      colors->group = (GdkRGBA) { 0.91, 0.91, 0.92, 1.0 };
      colors->dim_text = (GdkRGBA) { 0.0, 0.0, 0.0, 0.6 };
      colors->line = (GdkRGBA) { 0.0, 0.0, 0.0, 0.15 };
      colors->grid = (GdkRGBA) { 0.0, 0.0, 0.0, 0.07 };
      colors->dim = (GdkRGBA) { 1.0, 1.0, 1.0, 0.75 };
      colors->match = (GdkRGBA) { 0.0, 0.0, 0.0, 0.8 };
      colors->current = (GdkRGBA) { 0.11, 0.44, 0.85, 0.15 };
    }
}

static void
row_clear (gpointer data)
{
  Row *row = data;

  g_clear_object (&row->index);
  g_clear_pointer (&row->node, gsk_render_node_unref);
  g_clear_pointer (&row->highlight, gsk_render_node_unref);
}

static void
invalidate_flows (ChronoTimeline *self)
{
  g_clear_pointer (&self->all_flows_node, gsk_render_node_unref);
  g_clear_pointer (&self->selected_flows_node, gsk_render_node_unref);
  self->all_flows_painted = FALSE;
  self->selected_flows_painted = FALSE;
}

static void
invalidate_nodes (ChronoTimeline *self)
{
  invalidate_flows (self);
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);

      g_clear_pointer (&row->node, gsk_render_node_unref);
      row->painted = FALSE;
      g_clear_pointer (&row->highlight, gsk_render_node_unref);
      row->highlighted = FALSE;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static double
get_track_area_height (ChronoTimeline *self)
{
  return MAX (0, gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT);
}

/* How much of the pinned tracks shows. */
static double
get_pinned_visible (ChronoTimeline *self)
{
  return MIN (self->pinned_height, floor (get_track_area_height (self) * PINNED_MAX_SHARE));
}

/* How far up the scrolling rows are drawn: by the scroll, and by the part
 * of the pinned tracks that does not show. */
static double
get_scroll_offset (ChronoTimeline *self)
{
  return self->scroll_y + self->pinned_height - get_pinned_visible (self);
}

static void
set_scroll_y (ChronoTimeline *self,
              double          scroll_y)
{
  double max = MAX (0, (self->content_height - self->pinned_height) -
                       (get_track_area_height (self) - get_pinned_visible (self)));

  scroll_y = CLAMP (scroll_y, 0, max);
  if (scroll_y == self->scroll_y)
    return;
  self->scroll_y = scroll_y;
  invalidate_flows (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static double
get_track_height (const ChronoTrack *track,
                  ChronoTrackIndex  *index,
                  guint              n_rows)
{
  if (track->type == CHRONO_TRACK_COUNTER)
    return COUNTER_HEIGHT + 2 * TRACK_PAD;
  if (track->n_spans == 0)
    return INSTANT_HEIGHT + 2 * TRACK_PAD;
  return MAX (1, n_rows) * ROW_HEIGHT + 2 * TRACK_PAD;
}

static ChronoTrackIndex *
get_track_index (ChronoTimeline *self,
                 guint           track)
{
  /* Built ahead of time for the whole trace, or here when first needed;
   * kept across layout changes: pinning or hiding re-indexes nothing. */
  if (g_ptr_array_index (self->indexes, track) == NULL)
    g_ptr_array_index (self->indexes, track) = chrono_track_index_new (self->trace, track);
  return g_ptr_array_index (self->indexes, track);
}

static void
append_group_row (ChronoTimeline *self,
                  guint           process,
                  gboolean        pinned,
                  double         *y)
{
  Row group = { .track = NO_TRACK, .process = process, .pinned = pinned, .y = *y, .height = GROUP_HEIGHT };

  if (process != NO_TRACK)
    {
      group.collapsed = chrono_track_layout_is_collapsed (self->layout, process);
      group.first_member = self->members->len;
      self->group_rows[process] = self->rows->len;
    }
  g_array_append_val (self->rows, group);
  *y += GROUP_HEIGHT;
}

static void
append_track_row (ChronoTimeline *self,
                  guint           track_number,
                  gboolean        pinned,
                  double         *y)
{
  const ChronoTrack *track = chrono_trace_get_track (self->trace, track_number);
  Row row = { 0 };
  guint n_rows, shown;

  row.track = track_number;
  row.process = track->process;
  row.pinned = pinned;
  row.y = *y;
  /* Built up front: the layout needs every track's number of rows,
   * and even a 1 GB trace indexes in well under a second. */
  row.index = g_object_ref (get_track_index (self, track_number));
  n_rows = chrono_track_index_get_n_rows (row.index);
  shown = MIN (n_rows, chrono_track_layout_get_max_rows (self->layout, track_number));
  row.n_rows_hidden = track->type == CHRONO_TRACK_COUNTER ? 0 : n_rows - shown;
  row.height = get_track_height (track, row.index, shown);
  self->track_rows[track_number] = self->rows->len;
  g_array_append_val (self->rows, row);
  *y += row.height;
}

/* Pinned tracks under a header of their own, then the others by process,
 * as the layout orders them. */
static void
build_rows (ChronoTimeline *self)
{
  const guint *order, *pinned;
  guint n_tracks = 0, n_pinned = 0;
  guint last_process = G_MAXUINT;
  double y = 0;

  g_array_set_size (self->rows, 0);
  g_array_set_size (self->members, 0);
  g_clear_pointer (&self->track_rows, g_free);
  g_clear_pointer (&self->group_rows, g_free);
  self->content_height = 0;
  self->pinned_height = 0;
  if (self->trace == NULL)
    return;

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
          g_array_index (self->rows, Row, self->rows->len - 1).n_members++;
          continue;
        }
      append_track_row (self, order[i], FALSE, &y);
    }
  self->content_height = y;
}

static guint
find_row (ChronoTimeline *self,
          double          content_y)
{
  guint lo = 0, hi = self->rows->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const Row *row = &g_array_index (self->rows, Row, mid);

      if (content_y < row->y)
        hi = mid;
      else if (content_y >= row->y + row->height)
        lo = mid + 1;
      else
        return mid;
    }
  return G_MAXUINT;
}

/* Where ROW starts, in widget coordinates. */
static double
get_row_top (ChronoTimeline *self,
             const Row      *row)
{
  return RULER_HEIGHT + row->y - (row->pinned ? 0 : get_scroll_offset (self));
}

/* The row at widget height Y: pinned rows cover the ones scrolled under
 * them. */
static guint
find_row_at (ChronoTimeline *self,
             double          y)
{
  double content_y = y - RULER_HEIGHT;

  if (content_y < 0)
    return G_MAXUINT;
  if (content_y >= get_pinned_visible (self))
    content_y += get_scroll_offset (self);
  return find_row (self, content_y);
}

/* The row that shows TRACK: its own, or the header of its collapsed
 * process; NO_TRACK when hidden. */
static guint
get_track_row (ChronoTimeline *self,
               guint           track)
{
  guint process;

  if (self->track_rows[track] != NO_TRACK)
    return self->track_rows[track];
  if (chrono_track_layout_is_hidden (self->layout, track))
    return NO_TRACK;
  process = chrono_trace_get_track (self->trace, track)->process;
  return chrono_track_layout_is_collapsed (self->layout, process) ? self->group_rows[process] : NO_TRACK;
}

/* The busy strip of a collapsed header, from its tracks' indexes. */
static GskRenderNode *
get_busy_node (ChronoTimeline *self,
               Row            *row)
{
  g_autofree ChronoTrackIndex **indexes = NULL;

  if (row->painted)
    return row->node;

  indexes = g_new (ChronoTrackIndex *, MAX (row->n_members, 1));
  for (guint i = 0; i < row->n_members; i++)
    indexes[i] = get_track_index (self, g_array_index (self->members, guint, row->first_member + i));
  row->node = chrono_track_painter_paint_busy (self->painter, indexes, row->n_members, self->viewport,
                                               row->height - 2 * TRACK_PAD);
  row->painted = TRUE;
  return row->node;
}

static GskRenderNode *
get_row_node (ChronoTimeline *self,
              Row            *row)
{
  const ChronoTrack *track;

  if (row->painted)
    return row->node;

  track = chrono_trace_get_track (self->trace, row->track);
  if (track->type == CHRONO_TRACK_COUNTER)
    row->node = chrono_track_painter_paint_counter (self->painter, row->index, self->viewport,
                                                    COUNTER_HEIGHT);
  else if (track->n_spans == 0)
    row->node = chrono_track_painter_paint_instants (self->painter, row->index, self->viewport,
                                                     INSTANT_HEIGHT);
  else
    row->node = chrono_track_painter_paint_spans (self->painter, row->index, self->viewport,
                                                  ROW_HEIGHT);
  row->painted = TRUE;
  return row->node;
}

/* TEXT shaped with the widget's font: the names and the ruler's labels
 * repeat from frame to frame, so each is shaped once. Layouts follow
 * changes of the widget's Pango context by themselves. */
static PangoLayout *
get_layout (ChronoTimeline *self,
            const char     *text)
{
  PangoLayout *layout = g_hash_table_lookup (self->layouts, text);

  if (layout == NULL)
    {
      if (g_hash_table_size (self->layouts) >= MAX_LAYOUTS)
        g_hash_table_remove_all (self->layouts);
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
      g_hash_table_insert (self->layouts, g_strdup (text), layout);
    }
  return layout;
}

static void
append_text (ChronoTimeline *self,
             GtkSnapshot    *snapshot,
             const char     *text,
             double          x,
             double          y,
             double          max_width,
             double          height,
             const GdkRGBA  *color)
{
  PangoLayout *layout = get_layout (self, text);
  int text_height;

  pango_layout_set_width (layout, max_width > 0 ? (int) (max_width * PANGO_SCALE) : -1);
  pango_layout_set_ellipsize (layout, max_width > 0 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  pango_layout_get_pixel_size (layout, NULL, &text_height);

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (x, y + floor ((height - text_height) / 2)));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static double
measure_text_cb (const char *text,
                 gpointer    user_data)
{
  PangoLayout *layout = get_layout (user_data, text);
  int width;

  /* Unlimited, as append_text() draws the ruler's labels. */
  pango_layout_set_width (layout, -1);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

static GskRenderNode *
get_row_highlight (ChronoTimeline *self,
                   Row            *row,
                   const Colors   *colors)
{
  const ChronoTrack *track = chrono_trace_get_track (self->trace, row->track);

  if (row->highlighted)
    return row->highlight;

  /* Counters and instants have no names to find: they dim whole. */
  if (track->n_spans == 0)
    row->highlight = gsk_color_node_new (&colors->dim,
                                         &GRAPHENE_RECT_INIT (0, 0, chrono_viewport_get_width_px (self->viewport),
                                                              row->height - 2 * TRACK_PAD));
  else
    row->highlight = chrono_search_highlight_paint (self->search, row->index, self->viewport,
                                                    ROW_HEIGHT, &colors->dim, &colors->match);
  row->highlighted = TRUE;
  return row->highlight;
}

/* Pointing right when collapsed, down when expanded. */
static void
snapshot_triangle (GtkSnapshot   *snapshot,
                   gboolean       collapsed,
                   double         x,
                   double         y,
                   const GdkRGBA *color)
{
  const double s = TRIANGLE_SIZE;
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (x, y, s, s));

  if (collapsed)
    {
      cairo_move_to (cr, x + s * 0.2, y);
      cairo_line_to (cr, x + s * 0.9, y + s / 2);
      cairo_line_to (cr, x + s * 0.2, y + s);
    }
  else
    {
      cairo_move_to (cr, x, y + s * 0.2);
      cairo_line_to (cr, x + s, y + s * 0.2);
      cairo_line_to (cr, x + s / 2, y + s * 0.9);
    }
  cairo_close_path (cr);
  gdk_cairo_set_source_rgba (cr, color);
  cairo_fill (cr);
  cairo_destroy (cr);
}

/* One row, at its place in content coordinates. */
static void
snapshot_row (ChronoTimeline *self,
              GtkSnapshot    *snapshot,
              const Colors   *colors,
              Row            *row,
              double          width)
{
  const ChronoTrack *track;
  GskRenderNode *node;
  double name_y, name_height;

  if (row->track == NO_TRACK)
    {
      double inset = TEXT_INSET;

      gtk_snapshot_append_color (snapshot, &colors->group,
                                 &GRAPHENE_RECT_INIT (0, row->y, width, row->height));
      if (row->process == NO_TRACK)
        {
          append_text (self, snapshot, _("Pinned"), inset, row->y, width - 2 * TEXT_INSET, row->height,
                       &colors->text);
          return;
        }
      /* The current track's process stands out while it is collapsed. */
      if (row->collapsed && self->current_track != NO_TRACK &&
          self->track_rows[self->current_track] == NO_TRACK &&
          chrono_trace_get_track (self->trace, self->current_track)->process == row->process)
        gtk_snapshot_append_color (snapshot, &colors->current,
                                   &GRAPHENE_RECT_INIT (0, row->y, HEADER_WIDTH - 1, row->height));
      snapshot_triangle (snapshot, row->collapsed, inset, row->y + (row->height - TRIANGLE_SIZE) / 2,
                         &colors->dim_text);
      inset += TRIANGLE_SIZE + TEXT_INSET / 2;
      /* Collapsed, the name keeps to its column: the strip is beside it. */
      append_text (self, snapshot,
                   chrono_trace_get_string (self->trace,
                                            chrono_trace_get_process (self->trace, row->process)->display_name),
                   inset, row->y, (row->collapsed ? HEADER_WIDTH : width) - inset - TEXT_INSET, row->height,
                   &colors->text);
      if (row->collapsed && (node = get_busy_node (self, row)) != NULL)
        {
          gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, row->y,
                                                                 width - HEADER_WIDTH, row->height));
          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, row->y + TRACK_PAD));
          gtk_snapshot_append_node (snapshot, node);
          gtk_snapshot_restore (snapshot);
          gtk_snapshot_pop (snapshot);
        }
      return;
    }

  track = chrono_trace_get_track (self->trace, row->track);
  if (row->track == self->current_track)
    gtk_snapshot_append_color (snapshot, &colors->current,
                               &GRAPHENE_RECT_INIT (0, row->y, HEADER_WIDTH - 1, row->height - 1));
  name_height = MIN (row->height - 2 * TRACK_PAD, 2 * ROW_HEIGHT);
  /* The name stays in view while a tall track scrolls under the top. */
  name_y = row->pinned ? row->y : MAX (row->y, get_scroll_offset (self) + get_pinned_visible (self));
  name_y = MIN (name_y, row->y + row->height - name_height - 2 * TRACK_PAD);
  append_text (self, snapshot, chrono_trace_get_string (self->trace, track->display_name),
               2 * TEXT_INSET, name_y + TRACK_PAD, HEADER_WIDTH - 3 * TEXT_INSET,
               name_height, &colors->dim_text);
  if (row->n_rows_hidden > 0 && row->height >= name_height + ROW_HEIGHT + 2 * TRACK_PAD)
    {
      g_autofree char *more = g_strdup_printf (ngettext ("+%u level (E)", "+%u levels (E)", row->n_rows_hidden),
                                               row->n_rows_hidden);

      append_text (self, snapshot, more, 2 * TEXT_INSET, row->y + row->height - TRACK_PAD - ROW_HEIGHT,
                   HEADER_WIDTH - 3 * TEXT_INSET, ROW_HEIGHT, &colors->dim_text);
    }
  gtk_snapshot_append_color (snapshot, &colors->line,
                             &GRAPHENE_RECT_INIT (0, row->y + row->height - 1, width, 1));

  node = get_row_node (self, row);
  if (node == NULL)
    return;
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, row->y,
                                                         width - HEADER_WIDTH, row->height));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, row->y + TRACK_PAD));
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
  ChronoTimeline *self = user_data;
  guint i = get_track_row (self, span.track);
  const Row *row;

  /* A hidden track draws no arrows; a collapsed one's end at its
   * process's header. */
  if (i == NO_TRACK)
    return FALSE;
  row = &g_array_index (self->rows, Row, i);
  if (row->track == NO_TRACK)
    *y = get_row_top (self, row) - RULER_HEIGHT + row->height / 2;
  else
    /* A span below a capped track's rows: at its last row. */
    *y = get_row_top (self, row) - RULER_HEIGHT + TRACK_PAD +
         (MIN (chrono_track_index_get_span_row (row->index, span.index),
               chrono_track_index_get_n_rows (row->index) - row->n_rows_hidden - 1) + 0.5) * ROW_HEIGHT;
  return TRUE;
}

static void
index_flows_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  g_task_return_pointer (task, chrono_flow_index_new (task_data), g_object_unref);
}

static void
index_flows_done_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  ChronoTimeline *self = CHRONO_TIMELINE (object);
  g_autoptr(ChronoFlowIndex) index = NULL;

  /* Cancelled when the trace changed meanwhile: the index is another
   * trace's. */
  index = g_task_propagate_pointer (G_TASK (result), NULL);
  if (index == NULL)
    return;
  self->flow_painter = chrono_flow_painter_new (index);
  chrono_flow_painter_set_dark (self->flow_painter, self->dark);
  g_clear_object (&self->flows_cancellable);
  invalidate_flows (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FLOWS_READY]);
}

/* Sorting a million flows takes a quarter of a second: it runs on a
 * worker thread while the trace is first looked at. */
static void
index_flows (ChronoTimeline *self)
{
  g_autoptr(GTask) task = NULL;

  g_cancellable_cancel (self->flows_cancellable);
  g_clear_object (&self->flows_cancellable);
  if (self->flow_painter != NULL)
    {
      g_clear_object (&self->flow_painter);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FLOWS_READY]);
    }
  if (self->trace == NULL || chrono_trace_get_n_flows (self->trace) == 0)
    return;

  self->flows_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->flows_cancellable, index_flows_done_cb, NULL);
  g_task_set_source_tag (task, index_flows);
  g_task_set_task_data (task, g_object_ref (self->trace), g_object_unref);
  chrono_background_run (task, index_flows_thread, "chrono-flow-index");
}

static GskRenderNode *
get_all_flows_node (ChronoTimeline *self,
                    double          area_height)
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
get_selected_flows_node (ChronoTimeline *self,
                         double          area_height)
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
snapshot_flows (ChronoTimeline *self,
                GtkSnapshot    *snapshot,
                double          width,
                double          area_height)
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

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, RULER_HEIGHT,
                                                         width - HEADER_WIDTH, area_height));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, RULER_HEIGHT));
  if (all != NULL)
    gtk_snapshot_append_node (snapshot, all);
  if (selected != NULL)
    gtk_snapshot_append_node (snapshot, selected);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}

static void
snapshot_selection (ChronoTimeline *self,
                    GtkSnapshot    *snapshot,
                    const Colors   *colors,
                    double          width)
{
  const float widths[4] = { 2, 2, 2, 2 };
  const GdkRGBA border[4] = { colors->selection, colors->selection,
                              colors->selection, colors->selection };
  const Row *row;
  GskRoundedRect outline;
  graphene_rect_t area;
  double top, bottom;

  if (!self->has_selection || !chrono_timeline_get_span_area (self, self->selection, &area))
    return;

  /* Outside its track's part of the area the outline would cover the
   * names, or the pinned tracks. */
  row = &g_array_index (self->rows, Row, self->track_rows[self->selection.track]);
  top = RULER_HEIGHT + (row->pinned ? 0 : get_pinned_visible (self));
  bottom = row->pinned ? RULER_HEIGHT + get_pinned_visible (self) : gtk_widget_get_height (GTK_WIDGET (self));
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, top, width - HEADER_WIDTH,
                                                         MAX (0, bottom - top)));
  graphene_rect_inset (&area, -2, -2);
  gsk_rounded_rect_init_from_rect (&outline, &area, 0);
  gtk_snapshot_append_border (snapshot, &outline, widths, border);
  gtk_snapshot_pop (snapshot);
}

/* Faint bands of every other step behind the spans, and where each
 * starts, a line over them. */
static void
snapshot_step_bands (ChronoTimeline *self,
                     GtkSnapshot    *snapshot,
                     const Colors   *colors,
                     double          area_height,
                     gboolean        over)
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
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, RULER_HEIGHT));
  gtk_snapshot_append_node (snapshot, node);
  gtk_snapshot_restore (snapshot);
}

/* The ruler's lower strip: the steps, shaded as in the tracks, each
 * with its name, or only its number where the name does not fit. */
static void
snapshot_step_strip (ChronoTimeline *self,
                     GtkSnapshot    *snapshot,
                     const Colors   *colors,
                     double          width)
{
  const double strip = CHRONO_TIMELINE_STEP_STRIP_HEIGHT;
  double track_width = width - HEADER_WIDTH;
  GdkRGBA fill = colors->text, line = colors->text;
  g_autoptr(GskRenderNode) node = NULL;
  guint first, n;

  if (chrono_step_bands_get_n_bands (self->steps) == 0)
    return;
  append_text (self, snapshot, _("Steps"), TEXT_INSET, TIME_HEIGHT,
               HEADER_WIDTH - 2 * TEXT_INSET, strip - 1, &colors->dim_text);

  fill.alpha = 0.1;
  line.alpha = 0.3;
  /* NULL for an unshaded step that starts before the window: its name
   * shows all the same. */
  node = chrono_step_bands_paint (self->steps, self->viewport, strip - 1, &fill, &line);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, TIME_HEIGHT, track_width, strip - 1));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, TIME_HEIGHT));
  if (node != NULL)
    gtk_snapshot_append_node (snapshot, node);

  n = chrono_step_bands_get_visible (self->steps, self->viewport, &first);
  for (guint i = first; i < first + n; i++)
    {
      const ChronoStepBand *band = chrono_step_bands_get_band (self->steps, i);
      /* A step that starts off the left edge keeps its name in view. */
      double x0 = MAX (chrono_viewport_time_to_x (self->viewport, band->start_ns), 0) + 4;
      double x1 = MIN (chrono_viewport_time_to_x (self->viewport, band->end_ns), track_width) - 4;
      const char *name = chrono_trace_get_string (self->trace, band->name);
      const char *number = strrchr (name, '#');

      /* Narrow bands skip measuring: a frame may show thousands. */
      if (x1 - x0 < 12)
        continue;
      if (measure_text_cb (name, self) > x1 - x0 && number != NULL && number[1] != '\0')
        name = number;
      if (measure_text_cb (name, self) <= x1 - x0)
        append_text (self, snapshot, name, x0, 0, -1, strip - 1, &colors->text);
    }
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}

static void
snapshot_rows (ChronoTimeline *self,
               GtkSnapshot    *snapshot,
               const Colors   *colors,
               ChronoTicks    *ticks,
               double          width)
{
  double area_height = get_track_area_height (self);
  double pinned_height = get_pinned_visible (self);
  double offset = get_scroll_offset (self);
  guint first = find_row (self, offset + pinned_height);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, RULER_HEIGHT, width, area_height));

  gtk_snapshot_append_color (snapshot, &colors->header,
                             &GRAPHENE_RECT_INIT (0, RULER_HEIGHT, HEADER_WIDTH, area_height));
  for (guint i = 0; i < ticks->major->len; i++)
    {
      const ChronoTick *tick = &g_array_index (ticks->major, ChronoTick, i);

      if (tick->x >= 0)
        gtk_snapshot_append_color (snapshot, &colors->grid,
                                   &GRAPHENE_RECT_INIT (HEADER_WIDTH + floor (tick->x), RULER_HEIGHT,
                                                        1, area_height));
    }
  snapshot_step_bands (self, snapshot, colors, area_height, FALSE);

  /* The scrolling rows, below the pinned ones. */
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, RULER_HEIGHT + pinned_height, width,
                                                         area_height - pinned_height));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, RULER_HEIGHT - offset));
  for (guint i = first; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);

      if (row->y >= offset + area_height)
        break;
      snapshot_row (self, snapshot, colors, row, width);
    }
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);

  if (pinned_height > 0)
    {
      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, RULER_HEIGHT, width, pinned_height));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, RULER_HEIGHT));
      for (guint i = 0; i < self->rows->len; i++)
        {
          Row *row = &g_array_index (self->rows, Row, i);

          if (!row->pinned)
            break;
          snapshot_row (self, snapshot, colors, row, width);
        }
      /* A firmer line than between tracks: rows scroll under it. */
      gtk_snapshot_append_color (snapshot, &colors->dim_text,
                                 &GRAPHENE_RECT_INIT (0, pinned_height - 1, width, 1));
      gtk_snapshot_restore (snapshot);
      gtk_snapshot_pop (snapshot);
    }
  snapshot_step_bands (self, snapshot, colors, area_height, TRUE);
  snapshot_flows (self, snapshot, width, area_height);

  gtk_snapshot_append_color (snapshot, &colors->line,
                             &GRAPHENE_RECT_INIT (HEADER_WIDTH - 1, RULER_HEIGHT, 1, area_height));
  snapshot_selection (self, snapshot, colors, width);

  gtk_snapshot_pop (snapshot);
}

static void
snapshot_highlight (ChronoTimeline *self,
                    GtkSnapshot    *snapshot,
                    const Colors   *colors,
                    double          width)
{
  double area_height = get_track_area_height (self);
  GdkRGBA band = colors->selection, path = colors->selection;

  band.alpha = 0.12;
  path.alpha = self->dark ? 0.9 : 0.8;
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, RULER_HEIGHT, width, area_height));

  for (guint i = 0; i < self->highlight_tracks->len; i++)
    {
      guint track = g_array_index (self->highlight_tracks, guint, i);
      const Row *row;
      double top;

      if (self->track_rows[track] == NO_TRACK)  /* hidden */
        continue;
      row = &g_array_index (self->rows, Row, self->track_rows[track]);
      top = get_row_top (self, row);
      gtk_snapshot_append_color (snapshot, &band, &GRAPHENE_RECT_INIT (0, top, width, row->height));
      gtk_snapshot_append_color (snapshot, &colors->selection, &GRAPHENE_RECT_INIT (0, top, 4, row->height));
    }

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, RULER_HEIGHT,
                                                         width - HEADER_WIDTH, area_height));
  if (self->highlight_end > self->highlight_start)
    {
      double x0 = CLAMP (chrono_viewport_time_to_x (self->viewport, self->highlight_start), -1, width);
      double x1 = CLAMP (chrono_viewport_time_to_x (self->viewport, self->highlight_end), -1, width);

      gtk_snapshot_append_color (snapshot, &band,
                                 &GRAPHENE_RECT_INIT (HEADER_WIDTH + x0, RULER_HEIGHT, MAX (1, x1 - x0), area_height));
      gtk_snapshot_append_color (snapshot, &colors->selection,
                                 &GRAPHENE_RECT_INIT (HEADER_WIDTH + floor (x0), RULER_HEIGHT, 1, area_height));
      gtk_snapshot_append_color (snapshot, &colors->selection,
                                 &GRAPHENE_RECT_INIT (HEADER_WIDTH + floor (x1), RULER_HEIGHT, 1, area_height));
    }

  for (guint i = 0; i < self->path_spans->len; i++)
    {
      ChronoSpanRef span = g_array_index (self->path_spans, ChronoSpanRef, i);
      graphene_rect_t area;

      if (!chrono_timeline_get_span_area (self, span, &area) ||
          area.origin.x > width || area.origin.x + area.size.width < HEADER_WIDTH ||
          area.origin.y > RULER_HEIGHT + area_height || area.origin.y + area.size.height < RULER_HEIGHT)
        continue;
      /* A bar under the span: the span itself stays readable. */
      gtk_snapshot_append_color (snapshot, &path,
                                 &GRAPHENE_RECT_INIT (area.origin.x, area.origin.y + area.size.height - 3,
                                                      area.size.width, 3));
    }
  gtk_snapshot_pop (snapshot);
  gtk_snapshot_pop (snapshot);
}

static void
snapshot_ruler (ChronoTimeline *self,
                GtkSnapshot    *snapshot,
                const Colors   *colors,
                ChronoTicks    *ticks,
                double          width)
{
  gtk_snapshot_append_color (snapshot, &colors->header,
                             &GRAPHENE_RECT_INIT (0, 0, width, RULER_HEIGHT));
  gtk_snapshot_append_color (snapshot, &colors->line,
                             &GRAPHENE_RECT_INIT (0, RULER_HEIGHT - 1, width, 1));

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, 0,
                                                         width - HEADER_WIDTH, RULER_HEIGHT));
  for (guint i = 0; i < ticks->minor->len; i++)
    {
      const ChronoTick *tick = &g_array_index (ticks->minor, ChronoTick, i);

      gtk_snapshot_append_color (snapshot, &colors->line,
                                 &GRAPHENE_RECT_INIT (HEADER_WIDTH + floor (tick->x),
                                                      TIME_HEIGHT - 5, 1, 5));
    }
  for (guint i = 0; i < ticks->major->len; i++)
    {
      const ChronoTick *tick = &g_array_index (ticks->major, ChronoTick, i);
      double x = HEADER_WIDTH + floor (tick->x);

      gtk_snapshot_append_color (snapshot, &colors->dim_text,
                                 &GRAPHENE_RECT_INIT (x, TIME_HEIGHT - 10, 1, 10));
      /* A label cut by either edge would read as another time. */
      if (tick->label != NULL && tick->x >= 0 &&
          x + 4 + measure_text_cb (tick->label, self) <= width)
        append_text (self, snapshot, tick->label, x + 4, 0, -1, TIME_HEIGHT - 6, &colors->text);
    }
  gtk_snapshot_pop (snapshot);

  /* The header column of the ruler names what the labels count from. */
  append_text (self, snapshot, _("Time from start"), TEXT_INSET, 0,
               HEADER_WIDTH - 2 * TEXT_INSET, TIME_HEIGHT, &colors->dim_text);
  snapshot_step_strip (self, snapshot, colors, width);
}

static void
chrono_timeline_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  g_autoptr(ChronoTicks) ticks = NULL;
  Colors colors;

  get_colors (self, &colors);
  gtk_snapshot_append_color (snapshot, &colors.background,
                             &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (self->trace == NULL || width <= HEADER_WIDTH)
    return;

  ticks = chrono_ticks_compute (chrono_viewport_get_start_ns (self->viewport),
                                chrono_viewport_get_end_ns (self->viewport),
                                chrono_viewport_get_width_px (self->viewport),
                                chrono_trace_get_start_ns (self->trace),
                                LABEL_GAP_PX, measure_text_cb, self);
  snapshot_rows (self, snapshot, &colors, ticks, width);
  snapshot_highlight (self, snapshot, &colors, width);
  snapshot_ruler (self, snapshot, &colors, ticks, width);
}

static void
chrono_timeline_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  /* Never the trace's size: the timeline scrolls and zooms itself. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = HEADER_WIDTH + 100;
  else
    *minimum = *natural = RULER_HEIGHT + 4 * ROW_HEIGHT;
}

static void
chrono_timeline_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);

  chrono_viewport_set_width_px (self->viewport, MAX (1, width - HEADER_WIDTH));
  set_scroll_y (self, self->scroll_y);
  gtk_popover_present (GTK_POPOVER (self->track_menu));
  /* Flow nodes are as tall as the track area. */
  invalidate_flows (self);
}

/* Pinned tracks are far from their process: they name it too. */
static void
set_track_tooltip (ChronoTimeline *self,
                   GtkTooltip     *tooltip,
                   const Row      *row)
{
  const ChronoTrack *track = chrono_trace_get_track (self->trace, row->track);
  const char *name = chrono_trace_get_string (self->trace, track->display_name);
  g_autofree char *text = NULL;

  if (row->pinned)
    /* Translators: a pinned track's tooltip: the track, then its process */
    text = g_strdup_printf (_("%s\n%s"), name,
                            chrono_trace_get_string (self->trace,
                                                     chrono_trace_get_process (self->trace, row->process)->display_name));
  gtk_tooltip_set_text (tooltip, text != NULL ? text : name);
}

static gboolean
chrono_timeline_query_tooltip (GtkWidget  *widget,
                               int         x,
                               int         y,
                               gboolean    keyboard_tooltip,
                               GtkTooltip *tooltip)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  const ChronoTrack *track;
  g_autofree char *duration = NULL;
  g_autofree char *markup = NULL;
  ChronoSpanRef span;

  /* Nothing over the track menu while it is open. */
  if (gtk_widget_get_visible (self->track_menu))
    return FALSE;
  /* Names cut short in the header column show whole here. */
  if (!keyboard_tooltip && self->trace != NULL && x < HEADER_WIDTH && y >= RULER_HEIGHT)
    {
      guint i = find_row_at (self, y);
      const Row *row;

      if (i == G_MAXUINT)
        return FALSE;
      row = &g_array_index (self->rows, Row, i);
      if (row->track == NO_TRACK && row->process == NO_TRACK)
        return FALSE;
      if (row->track == NO_TRACK)
        gtk_tooltip_set_text (tooltip, chrono_trace_get_string (self->trace,
                                                                chrono_trace_get_process (self->trace, row->process)->display_name));
      else
        set_track_tooltip (self, tooltip, row);
      return TRUE;
    }

  if (keyboard_tooltip)
    {
      if (!self->has_selection)
        return FALSE;
      span = self->selection;
    }
  else if (!chrono_timeline_hit_test (self, x, y, &span))
    return FALSE;

  track = chrono_trace_get_track (self->trace, span.track);
  duration = chrono_format_duration (chrono_track_get_dur (track, span.index));
  /* Translators: a span's tooltip: its name, then its duration and kind */
  markup = g_markup_printf_escaped (_("<b>%s</b>\n%s · %s"),
                                    chrono_trace_get_string (self->trace, chrono_track_get_name (track, span.index)),
                                    duration,
                                    chrono_kind_to_string (track->kind[span.index]));
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static void
viewport_changed_cb (ChronoTimeline *self)
{
  invalidate_nodes (self);
}

static void
zoom_at (ChronoTimeline *self,
         double          factor,
         double          x)
{
  chrono_viewport_zoom (self->viewport, factor,
                        CLAMP (x - HEADER_WIDTH, 0, chrono_viewport_get_width_px (self->viewport)));
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           ChronoTimeline           *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (self->trace == NULL)
    return FALSE;

  if (state & GDK_CONTROL_MASK)
    zoom_at (self, pow (ZOOM_STEP, -dy), self->pointer_x);
  else if (state & GDK_SHIFT_MASK)
    chrono_viewport_pan (self->viewport, (dx + dy) * SCROLL_STEP_PX);
  else
    {
      chrono_viewport_pan (self->viewport, dx * SCROLL_STEP_PX);
      set_scroll_y (self, self->scroll_y + dy * SCROLL_STEP_PX);
    }
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           ChronoTimeline           *self)
{
  self->pointer_x = x;
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               ChronoTimeline *self)
{
  self->drag_x = 0;
  self->drag_y = 0;
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          offset_x,
                double          offset_y,
                ChronoTimeline *self)
{
  if (self->dragged_track != NO_TRACK)
    return;
  /* The content follows the pointer, so time moves against it. */
  chrono_viewport_pan (self->viewport, self->drag_x - offset_x);
  set_scroll_y (self, self->scroll_y + self->drag_y - offset_y);
  self->drag_x = offset_x;
  self->drag_y = offset_y;
}

/* -------------------------------------------------------------------- */
/* Tracks: the current one, its menu, pinning, hiding and moving        */

static guint
get_track_at (ChronoTimeline *self,
              double          y)
{
  guint i = find_row_at (self, y);

  return i == G_MAXUINT ? NO_TRACK : g_array_index (self->rows, Row, i).track;
}

static void
update_track_actions (ChronoTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  guint track = self->current_track;
  /* A track folded into its process's header is out of reach of all but
   * the group actions. */
  gboolean has_track = track != NO_TRACK && self->track_rows[track] != NO_TRACK;
  guint n_processes = self->trace != NULL ? chrono_trace_get_n_processes (self->trace) : 0;
  guint n_collapsed = self->layout != NULL ? chrono_track_layout_get_n_collapsed (self->layout) : 0;

  gtk_widget_action_set_enabled (widget, "timeline.pin-track", has_track);
  gtk_widget_action_set_enabled (widget, "timeline.hide-track", has_track);
  gtk_widget_action_set_enabled (widget, "timeline.expand-track",
                                 has_track && (chrono_track_layout_is_expanded (self->layout, track) ||
                                               g_array_index (self->rows, Row, self->track_rows[track]).n_rows_hidden > 0));
  gtk_widget_action_set_enabled (widget, "timeline.track-menu", has_track);
  gtk_widget_action_set_enabled (widget, "timeline.move-track-up",
                                 has_track && chrono_track_layout_can_move (self->layout, track, -1));
  gtk_widget_action_set_enabled (widget, "timeline.move-track-down",
                                 has_track && chrono_track_layout_can_move (self->layout, track, 1));
  gtk_widget_action_set_enabled (widget, "timeline.show-all-tracks",
                                 self->layout != NULL && chrono_track_layout_get_n_hidden (self->layout) > 0);
  gtk_widget_action_set_enabled (widget, "timeline.toggle-group", track != NO_TRACK);
  gtk_widget_action_set_enabled (widget, "timeline.collapse-all", n_collapsed < n_processes);
  gtk_widget_action_set_enabled (widget, "timeline.expand-all", n_collapsed > 0);
}

static void
set_current_track (ChronoTimeline *self,
                   guint           track)
{
  if (self->current_track == track)
    return;
  self->current_track = track;
  update_track_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Scrolls so that CONTENT_Y to CONTENT_Y + HEIGHT of a scrolling row
 * shows below the pinned ones. */
static void
reveal_content (ChronoTimeline *self,
                double          content_y,
                double          height)
{
  double area = get_track_area_height (self);
  double top = content_y - get_scroll_offset (self);

  if (top + height > area)
    set_scroll_y (self, self->scroll_y + top + height - area);
  top = content_y - get_scroll_offset (self);
  if (top < get_pinned_visible (self))
    set_scroll_y (self, self->scroll_y - (get_pinned_visible (self) - top));
}

static void
layout_changed_cb (ChronoTimeline *self)
{
  build_rows (self);
  if (self->current_track != NO_TRACK && get_track_row (self, self->current_track) == NO_TRACK)
    self->current_track = NO_TRACK;
  set_scroll_y (self, self->scroll_y);
  update_track_actions (self);
  invalidate_nodes (self);
}

/* The track rows above (DELTA -1) or below (+1) the current track's, in
 * the order they are drawn. */
static guint
get_next_track (ChronoTimeline *self,
                int             delta)
{
  gint64 i;

  if (self->rows->len == 0)
    return NO_TRACK;
  if (self->current_track == NO_TRACK)
    i = delta > 0 ? -1 : (gint64) self->rows->len;
  else
    i = get_track_row (self, self->current_track);
  for (i += delta; i >= 0 && i < self->rows->len; i += delta)
    {
      const Row *row = &g_array_index (self->rows, Row, i);

      if (row->track != NO_TRACK)
        return row->track;
      /* A collapsed header stands for its first track. */
      if (row->collapsed && row->n_members > 0)
        return g_array_index (self->members, guint, row->first_member);
    }
  return NO_TRACK;
}

static void
reveal_track (ChronoTimeline *self,
              guint           track)
{
  const Row *row;
  guint i;

  if (track == NO_TRACK || (i = get_track_row (self, track)) == NO_TRACK)
    return;
  row = &g_array_index (self->rows, Row, i);
  if (!row->pinned)
    reveal_content (self, row->y, MIN (row->height, get_track_area_height (self) - get_pinned_visible (self)));
}

static void
step_track_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  guint track = get_next_track (self, g_str_equal (action_name, "timeline.previous-track") ? -1 : 1);

  if (track == NO_TRACK)
    return;
  set_current_track (self, track);
  reveal_track (self, track);
}

static void
pin_track_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  guint track = self->current_track;

  chrono_track_layout_set_pinned (self->layout, track,
                                  !chrono_track_layout_is_pinned (self->layout, track));
  reveal_track (self, track);
}

static void
expand_track_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  guint track = self->current_track;

  chrono_track_layout_set_expanded (self->layout, track,
                                    !chrono_track_layout_is_expanded (self->layout, track));
  reveal_track (self, track);
}

static void
hide_track_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  guint track = self->current_track;
  guint next = get_next_track (self, 1);

  /* The next track becomes current, so that H pressed again goes on. */
  if (next == NO_TRACK)
    next = get_next_track (self, -1);
  chrono_track_layout_set_hidden (self->layout, track, TRUE);
  set_current_track (self, next);
}

static void
move_track_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);

  chrono_track_layout_move (self->layout, self->current_track,
                            g_str_equal (action_name, "timeline.move-track-up") ? -1 : 1);
  reveal_track (self, self->current_track);
}

static void
show_all_tracks_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  chrono_track_layout_show_all (CHRONO_TIMELINE (widget)->layout);
}

static void
toggle_process (ChronoTimeline *self,
                guint           process)
{
  chrono_track_layout_set_collapsed (self->layout, process,
                                     !chrono_track_layout_is_collapsed (self->layout, process));
}

/* Collapses or expands the current track's process. */
static void
toggle_group_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  guint track = self->current_track;

  toggle_process (self, chrono_trace_get_track (self->trace, track)->process);
  reveal_track (self, track);
}

static void
collapse_all_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);

  chrono_track_layout_set_all_collapsed (self->layout, g_str_equal (action_name, "timeline.collapse-all"));
  reveal_track (self, self->current_track);
}

/* A track's name dragged up or down moves the track past its neighbours
 * in the same block (its process, or the pinned tracks). */
static void
track_drag_begin_cb (GtkGestureDrag *gesture,
                     double          x,
                     double          y,
                     ChronoTimeline *self)
{
  self->dragged_track = NO_TRACK;
  if (self->trace == NULL || x >= HEADER_WIDTH)
    return;
  self->dragged_track = get_track_at (self, y);
  self->drag_start_y = y;
  if (self->dragged_track != NO_TRACK)
    set_current_track (self, self->dragged_track);
}

/* The row next to ROW in DELTA's direction that the track could trade
 * places with, or NULL. */
static const Row *
get_neighbour_row (ChronoTimeline *self,
                   guint           i,
                   int             delta)
{
  const Row *row = &g_array_index (self->rows, Row, i);
  const Row *other;

  if ((delta < 0 && i == 0) || (delta > 0 && i + 1 >= self->rows->len))
    return NULL;
  other = &g_array_index (self->rows, Row, i + delta);
  if (other->track == NO_TRACK || other->pinned != row->pinned)
    return NULL;
  return other;
}

static void
track_drag_update_cb (GtkGestureDrag *gesture,
                      double          offset_x,
                      double          offset_y,
                      ChronoTimeline *self)
{
  double y = self->drag_start_y + offset_y;

  if (self->dragged_track == NO_TRACK)
    return;
  /* Past the middle of a neighbour, trade places with it. Swapped, the
   * neighbour's middle is beyond the pointer the other way, so the
   * track does not flip back. */
  for (;;)
    {
      guint i = self->track_rows[self->dragged_track];
      const Row *up = get_neighbour_row (self, i, -1);
      const Row *down = get_neighbour_row (self, i, 1);

      if (up != NULL && y < get_row_top (self, up) + up->height / 2)
        chrono_track_layout_move (self->layout, self->dragged_track, -1);
      else if (down != NULL && y > get_row_top (self, down) + down->height / 2)
        chrono_track_layout_move (self->layout, self->dragged_track, 1);
      else
        break;
    }
}

static void
track_drag_end_cb (GtkGestureDrag *gesture,
                   double          offset_x,
                   double          offset_y,
                   ChronoTimeline *self)
{
  self->dragged_track = NO_TRACK;
}

static void
popup_track_menu (ChronoTimeline *self,
                  double          x,
                  double          y)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) section = g_menu_new ();

  g_menu_append (section, chrono_track_layout_is_pinned (self->layout, self->current_track) ?
                 _("_Unpin") : _("_Pin to Top"), "timeline.pin-track");
  g_menu_append (section, _("_Hide"), "timeline.hide-track");
  g_menu_append (section, chrono_track_layout_is_expanded (self->layout, self->current_track) ?
                 _("Show _Fewer Levels") : _("Show All _Levels"), "timeline.expand-track");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  section = g_menu_new ();
  g_menu_append (section, _("Move _Up"), "timeline.move-track-up");
  g_menu_append (section, _("Move _Down"), "timeline.move-track-down");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  section = g_menu_new ();
  g_menu_append (section, _("_Show All Tracks"), "timeline.show-all-tracks");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));

  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->track_menu), G_MENU_MODEL (menu));
  gtk_popover_set_pointing_to (GTK_POPOVER (self->track_menu), &(GdkRectangle) { x, y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->track_menu));
  /* A tooltip already shown goes. */
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
}

static void
track_menu_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  const Row *row;

  reveal_track (self, self->current_track);
  row = &g_array_index (self->rows, Row, get_track_row (self, self->current_track));
  popup_track_menu (self, HEADER_WIDTH / 2.0, get_row_top (self, row) + MIN (row->height, GROUP_HEIGHT) / 2);
}

/* Right click or long press on a track's name. */
static void
header_menu_requested (ChronoTimeline *self,
                       double          x,
                       double          y)
{
  guint track;

  if (self->trace == NULL || x >= HEADER_WIDTH || (track = get_track_at (self, y)) == NO_TRACK)
    return;
  set_current_track (self, track);
  popup_track_menu (self, x, y);
}

static void
long_pressed_cb (GtkGestureLongPress *gesture,
                 double               x,
                 double               y,
                 ChronoTimeline      *self)
{
  header_menu_requested (self, x, y);
}

static void
click_pressed_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  ChronoTimeline  *self)
{
  ChronoSpanRef span;
  guint i;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (self->trace == NULL || n_press != 1)
    return;
  if (gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture)) == GDK_BUTTON_SECONDARY)
    {
      header_menu_requested (self, x, y);
      return;
    }
  /* A track's name makes it the one the track actions act on. */
  if (x < HEADER_WIDTH && get_track_at (self, y) != NO_TRACK)
    {
      set_current_track (self, get_track_at (self, y));
      return;
    }
  /* A process's name collapses or expands it. */
  if (x < HEADER_WIDTH && (i = find_row_at (self, y)) != G_MAXUINT &&
      g_array_index (self->rows, Row, i).process != NO_TRACK &&
      g_array_index (self->rows, Row, i).track == NO_TRACK)
    {
      toggle_process (self, g_array_index (self->rows, Row, i).process);
      return;
    }

  if (chrono_timeline_hit_test (self, x, y, &span))
    {
      chrono_timeline_select (self, &span);
      g_signal_emit (self, signals[SPAN_ACTIVATED], 0, span.track, span.index);
    }
  else
    chrono_timeline_select (self, NULL);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  double centre = HEADER_WIDTH + chrono_viewport_get_width_px (self->viewport) / 2.0;

  if (g_str_equal (action_name, "timeline.zoom-in"))
    zoom_at (self, ZOOM_STEP, centre);
  else
    zoom_at (self, 1 / ZOOM_STEP, centre);
}

static void
pan_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  double step = PAN_FRACTION * chrono_viewport_get_width_px (self->viewport);

  chrono_viewport_pan (self->viewport,
                       g_str_equal (action_name, "timeline.pan-left") ? -step : step);
}

static void
scroll_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);

  set_scroll_y (self, self->scroll_y +
                (g_str_equal (action_name, "timeline.scroll-up") ? -SCROLL_STEP_PX : SCROLL_STEP_PX));
}

static void
show_all_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  chrono_viewport_show_all (CHRONO_TIMELINE (widget)->viewport);
}

static void
chrono_timeline_dispose (GObject *object)
{
  ChronoTimeline *self = CHRONO_TIMELINE (object);

  g_array_set_size (self->rows, 0);
  g_array_set_size (self->members, 0);
  g_clear_object (&self->painter);
  g_clear_object (&self->search);
  g_clear_object (&self->layout);
  g_clear_pointer (&self->indexes, g_ptr_array_unref);
  g_clear_pointer (&self->track_menu, gtk_widget_unparent);
  invalidate_flows (self);
  g_cancellable_cancel (self->flows_cancellable);
  g_clear_object (&self->flows_cancellable);
  g_clear_object (&self->flow_painter);
  g_clear_object (&self->steps);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (chrono_timeline_parent_class)->dispose (object);
}

static void
chrono_timeline_finalize (GObject *object)
{
  ChronoTimeline *self = CHRONO_TIMELINE (object);

  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->members, g_array_unref);
  g_clear_pointer (&self->layouts, g_hash_table_unref);
  g_clear_pointer (&self->track_rows, g_free);
  g_clear_pointer (&self->highlight_tracks, g_array_unref);
  g_clear_pointer (&self->path_spans, g_array_unref);
  g_clear_pointer (&self->group_rows, g_free);
  g_clear_object (&self->viewport);

  G_OBJECT_CLASS (chrono_timeline_parent_class)->finalize (object);
}

static void
chrono_timeline_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  ChronoTimeline *self = CHRONO_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      g_value_set_object (value, self->trace);
      break;
    case PROP_DARK:
      g_value_set_boolean (value, self->dark);
      break;
    case PROP_SHOW_ALL_FLOWS:
      g_value_set_boolean (value, self->show_all_flows);
      break;
    case PROP_FLOWS_READY:
      g_value_set_boolean (value, chrono_timeline_get_flows_ready (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_timeline_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  ChronoTimeline *self = CHRONO_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      chrono_timeline_set_trace (self, g_value_get_object (value));
      break;
    case PROP_DARK:
      chrono_timeline_set_dark (self, g_value_get_boolean (value));
      break;
    case PROP_SHOW_ALL_FLOWS:
      chrono_timeline_set_show_all_flows (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_timeline_class_init (ChronoTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_timeline_dispose;
  object_class->finalize = chrono_timeline_finalize;
  object_class->get_property = chrono_timeline_get_property;
  object_class->set_property = chrono_timeline_set_property;

  widget_class->snapshot = chrono_timeline_snapshot;
  widget_class->measure = chrono_timeline_measure;
  widget_class->size_allocate = chrono_timeline_size_allocate;
  widget_class->query_tooltip = chrono_timeline_query_tooltip;

  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL, CHRONO_TYPE_TRACE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DARK] =
    g_param_spec_boolean ("dark", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Arrows for every flow in view, not only the selected span's. */
  properties[PROP_SHOW_ALL_FLOWS] =
    g_param_spec_boolean ("show-all-flows", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Whether the flows are indexed and their arrows can show. */
  properties[PROP_FLOWS_READY] =
    g_param_spec_boolean ("flows-ready", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The span clicked: its track and its index in the track. */
  signals[SPAN_ACTIVATED] =
    g_signal_new ("span-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);

  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-up", NULL, scroll_action);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-down", NULL, scroll_action);
  gtk_widget_class_install_action (widget_class, "timeline.show-all", NULL, show_all_action);
  gtk_widget_class_install_property_action (widget_class, "timeline.show-all-flows", "show-all-flows");

  /* The keys of web-based trace viewers, which people already know. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "timeline.scroll-up", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "timeline.scroll-down", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "timeline.show-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_0, 0, "timeline.show-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, 0, "timeline.show-all-flows", NULL);

  gtk_widget_class_install_action (widget_class, "timeline.previous-track", NULL, step_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.next-track", NULL, step_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.pin-track", NULL, pin_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.hide-track", NULL, hide_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.expand-track", NULL, expand_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.move-track-up", NULL, move_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.move-track-down", NULL, move_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.show-all-tracks", NULL, show_all_tracks_action);
  gtk_widget_class_install_action (widget_class, "timeline.track-menu", NULL, track_menu_action);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-group", NULL, toggle_group_action);
  gtk_widget_class_install_action (widget_class, "timeline.collapse-all", NULL, collapse_all_action);
  gtk_widget_class_install_action (widget_class, "timeline.expand-all", NULL, collapse_all_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_CONTROL_MASK, "timeline.previous-track", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_CONTROL_MASK, "timeline.next-track", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_p, 0, "timeline.pin-track", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_h, 0, "timeline.hide-track", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, 0, "timeline.expand-track", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_ALT_MASK, "timeline.move-track-up", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_ALT_MASK, "timeline.move-track-down", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_h, GDK_SHIFT_MASK, "timeline.show-all-tracks", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "timeline.track-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "timeline.track-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "timeline.toggle-group", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "timeline.toggle-group", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "timeline.toggle-group", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketleft, 0, "timeline.collapse-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketright, 0, "timeline.expand-all", NULL);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_WIDGET);
}

static void
chrono_timeline_init (ChronoTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkGesture *gesture;

  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  self->members = g_array_new (FALSE, FALSE, sizeof (guint));
  self->layouts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  g_array_set_clear_func (self->rows, row_clear);
  self->highlight_tracks = g_array_new (FALSE, FALSE, sizeof (guint));
  self->path_spans = g_array_new (FALSE, FALSE, sizeof (ChronoSpanRef));
  self->viewport = chrono_viewport_new ();
  g_signal_connect_swapped (self->viewport, "changed", G_CALLBACK (viewport_changed_cb), self);
  self->current_track = NO_TRACK;
  self->dragged_track = NO_TRACK;
  self->track_menu = gtk_popover_menu_new_from_model (NULL);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->track_menu), FALSE);
  gtk_popover_set_position (GTK_POPOVER (self->track_menu), GTK_POS_BOTTOM);
  gtk_widget_set_halign (self->track_menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->track_menu, widget);
  update_track_actions (self);

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_vexpand (widget, TRUE);

  chrono_zoom_controllers_add (widget, G_CALLBACK (scroll_cb), G_CALLBACK (motion_cb), self);

  gesture = gtk_gesture_drag_new ();
  /* Before panning, which gives way to a track dragged by its name. */
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (track_drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (track_drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (track_drag_end_cb), self);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  /* The secondary button opens the track menu. */
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect (gesture, "pressed", G_CALLBACK (click_pressed_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_long_press_new ();
  gtk_gesture_single_set_touch_only (GTK_GESTURE_SINGLE (gesture), TRUE);
  g_signal_connect (gesture, "pressed", G_CALLBACK (long_pressed_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));
}

static void
unref_index (gpointer index)
{
  if (index != NULL)
    g_object_unref (index);
}

GtkWidget *
chrono_timeline_new (ChronoTrace *trace)
{
  return g_object_new (CHRONO_TYPE_TIMELINE, "trace", trace, NULL);
}

ChronoTrace *
chrono_timeline_get_trace (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), NULL);

  return self->trace;
}

/* INDEXES: every track's index, built ahead of time, or NULL to build
 * them when first needed. */
static void
set_trace (ChronoTimeline *self,
           ChronoTrace    *trace,
           GPtrArray      *indexes)
{
  if (!g_set_object (&self->trace, trace))
    return;

  self->has_selection = FALSE;
  self->current_track = NO_TRACK;
  self->scroll_y = 0;
  chrono_timeline_set_highlight (self, 0, 0, NULL, 0);
  chrono_timeline_set_path (self, NULL, 0);
  g_clear_object (&self->painter);
  g_clear_object (&self->search);
  g_clear_pointer (&self->indexes, g_ptr_array_unref);
  if (self->layout != NULL)
    g_signal_handlers_disconnect_by_func (self->layout, layout_changed_cb, self);
  g_clear_object (&self->layout);
  if (trace != NULL)
    {
      if (indexes != NULL)
        {
          self->indexes = g_ptr_array_ref (indexes);
        }
      else
        {
          self->indexes = g_ptr_array_new_full (chrono_trace_get_n_tracks (trace), unref_index);
          g_ptr_array_set_size (self->indexes, chrono_trace_get_n_tracks (trace));
        }
      self->layout = chrono_track_layout_new (trace);
      g_signal_connect_swapped (self->layout, "changed", G_CALLBACK (layout_changed_cb), self);
    }
  g_clear_object (&self->steps);
  index_flows (self);
  build_rows (self);
  update_track_actions (self);
  if (trace != NULL)
    {
      self->painter = chrono_track_painter_new (trace);
      self->steps = chrono_step_bands_new (trace);
      chrono_track_painter_set_dark (self->painter, self->dark);
      chrono_track_painter_set_pango_context (self->painter,
                                              gtk_widget_get_pango_context (GTK_WIDGET (self)));
      chrono_viewport_set_bounds (self->viewport, chrono_trace_get_start_ns (trace),
                                  MAX (chrono_trace_get_end_ns (trace),
                                       chrono_trace_get_start_ns (trace) + CHRONO_VIEWPORT_MIN_DURATION_NS));
      chrono_viewport_show_all (self->viewport);
    }
  invalidate_nodes (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRACE]);
}

void
chrono_timeline_set_trace (ChronoTimeline *self,
                           ChronoTrace    *trace)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));
  g_return_if_fail (trace == NULL || CHRONO_IS_TRACE (trace));

  set_trace (self, trace, NULL);
}

GtkWidget *
chrono_timeline_new_indexed (ChronoTrace *trace,
                             GPtrArray   *indexes)
{
  ChronoTimeline *self;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (indexes != NULL, NULL);
  g_return_val_if_fail (indexes->len == chrono_trace_get_n_tracks (trace), NULL);

  self = g_object_new (CHRONO_TYPE_TIMELINE, NULL);
  set_trace (self, trace, indexes);
  return GTK_WIDGET (self);
}

gboolean
chrono_timeline_get_dark (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);

  return self->dark;
}

void
chrono_timeline_set_dark (ChronoTimeline *self,
                          gboolean        dark)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));

  dark = !!dark;
  if (self->dark == dark)
    return;
  self->dark = dark;
  if (self->painter != NULL)
    chrono_track_painter_set_dark (self->painter, dark);
  if (self->flow_painter != NULL)
    chrono_flow_painter_set_dark (self->flow_painter, dark);
  invalidate_nodes (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
}

ChronoViewport *
chrono_timeline_get_viewport (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), NULL);

  return self->viewport;
}

gboolean
chrono_timeline_hit_test (ChronoTimeline *self,
                          double          x,
                          double          y,
                          ChronoSpanRef  *span)
{
  const Row *row;
  guint32 index;
  guint i;

  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (span != NULL, FALSE);

  if (self->trace == NULL || x < HEADER_WIDTH || y < RULER_HEIGHT)
    return FALSE;
  i = find_row_at (self, y);
  if (i == G_MAXUINT)
    return FALSE;
  row = &g_array_index (self->rows, Row, i);
  if (row->track == NO_TRACK || chrono_trace_get_track (self->trace, row->track)->n_spans == 0)
    return FALSE;
  if (!chrono_track_index_hit_test (row->index, self->viewport, ROW_HEIGHT,
                                    x - HEADER_WIDTH, y - get_row_top (self, row) - TRACK_PAD, &index))
    return FALSE;

  span->track = row->track;
  span->index = index;
  return TRUE;
}

gboolean
chrono_timeline_get_span_area (ChronoTimeline  *self,
                               ChronoSpanRef    span,
                               graphene_rect_t *area)
{
  const ChronoTrack *track;
  const Row *row;
  double x0, x1;

  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (area != NULL, FALSE);

  if (self->trace == NULL || span.track >= chrono_trace_get_n_tracks (self->trace))
    return FALSE;
  track = chrono_trace_get_track (self->trace, span.track);
  if (span.index >= track->n_spans || self->track_rows[span.track] == NO_TRACK)
    return FALSE;

  row = &g_array_index (self->rows, Row, self->track_rows[span.track]);
  x0 = chrono_viewport_time_to_x (self->viewport, track->start[span.index]);
  x1 = chrono_viewport_time_to_x (self->viewport, chrono_track_get_end (track, span.index));
  /* Clamped so that far-off spans stay within float range. */
  x0 = CLAMP (x0, -1e6, 1e6);
  x1 = CLAMP (MAX (x1, x0 + 1), -1e6, 1e6);
  graphene_rect_init (area, HEADER_WIDTH + x0,
                      get_row_top (self, row) + TRACK_PAD +
                      chrono_track_index_get_span_row (row->index, span.index) * ROW_HEIGHT,
                      x1 - x0, ROW_HEIGHT);
  return TRUE;
}

gboolean
chrono_timeline_get_selection (ChronoTimeline *self,
                               ChronoSpanRef  *span)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);

  if (self->has_selection && span != NULL)
    *span = self->selection;
  return self->has_selection;
}

void
chrono_timeline_select (ChronoTimeline      *self,
                        const ChronoSpanRef *span)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));

  self->has_selection = span != NULL;
  if (span != NULL)
    {
      self->selection = *span;
      set_current_track (self, span->track);
    }
  g_clear_pointer (&self->selected_flows_node, gsk_render_node_unref);
  self->selected_flows_painted = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * chrono_timeline_get_track_layout:
 *
 * Returns: (transfer none) (nullable): the order, pinned and hidden
 *   tracks of the timeline; changing it redraws
 */
ChronoTrackLayout *
chrono_timeline_get_track_layout (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), NULL);
  return self->layout;
}

guint
chrono_timeline_get_current_track (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), G_MAXUINT);
  return self->current_track;
}

gboolean
chrono_timeline_get_track_area (ChronoTimeline  *self,
                                guint            track,
                                graphene_rect_t *area)
{
  const Row *row;

  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (area != NULL, FALSE);

  if (self->trace == NULL || track >= chrono_trace_get_n_tracks (self->trace) ||
      self->track_rows[track] == NO_TRACK)
    return FALSE;
  row = &g_array_index (self->rows, Row, self->track_rows[track]);
  graphene_rect_init (area, 0, get_row_top (self, row), gtk_widget_get_width (GTK_WIDGET (self)),
                      row->height);
  return TRUE;
}

gboolean
chrono_timeline_get_process_area (ChronoTimeline  *self,
                                  guint            process,
                                  graphene_rect_t *area)
{
  const Row *row;

  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (area != NULL, FALSE);

  if (self->trace == NULL || process >= chrono_trace_get_n_processes (self->trace) ||
      self->group_rows[process] == NO_TRACK)
    return FALSE;
  row = &g_array_index (self->rows, Row, self->group_rows[process]);
  graphene_rect_init (area, 0, get_row_top (self, row), gtk_widget_get_width (GTK_WIDGET (self)),
                      row->height);
  return TRUE;
}

void
chrono_timeline_set_search (ChronoTimeline *self,
                            ChronoSearch   *search)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));
  g_return_if_fail (search == NULL || CHRONO_IS_SEARCH (search));

  if (!g_set_object (&self->search, search))
    return;
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);

      g_clear_pointer (&row->highlight, gsk_render_node_unref);
      row->highlighted = FALSE;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

ChronoSearch *
chrono_timeline_get_search (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), NULL);
  return self->search;
}

void
chrono_timeline_reveal_span (ChronoTimeline *self,
                             ChronoSpanRef   span)
{
  const ChronoTrack *track;
  const Row *row;
  gint64 start, end, view_start, view_end;
  double width_px;

  g_return_if_fail (CHRONO_IS_TIMELINE (self));
  g_return_if_fail (self->trace != NULL);
  g_return_if_fail (span.track < chrono_trace_get_n_tracks (self->trace));

  track = chrono_trace_get_track (self->trace, span.track);
  g_return_if_fail (span.index < track->n_spans);

  /* A span folded into its process's header must show: the process
   * opens. */
  if (self->track_rows[span.track] == NO_TRACK && !chrono_track_layout_is_hidden (self->layout, span.track))
    chrono_track_layout_set_collapsed (self->layout, track->process, FALSE);
  /* So must a span below the rows a capped track shows. */
  if (self->track_rows[span.track] != NO_TRACK &&
      chrono_track_index_get_span_row (get_track_index (self, span.track), span.index) >=
      chrono_track_layout_get_max_rows (self->layout, span.track))
    chrono_track_layout_set_expanded (self->layout, span.track, TRUE);

  start = track->start[span.index];
  end = start + MAX (chrono_track_get_dur (track, span.index), 0);
  view_start = chrono_viewport_get_start_ns (self->viewport);
  view_end = chrono_viewport_get_end_ns (self->viewport);
  width_px = (end - start) * chrono_viewport_get_px_per_ns (self->viewport);

  /* Wide enough where it is: at most a pan to bring it in. Too narrow
   * to find: zoom to it, with its own length of context either side. */
  if (width_px >= REVEAL_MIN_PX && end - start <= view_end - view_start)
    {
      if (start < view_start || end > view_end)
        chrono_viewport_zoom_to_range (self->viewport, (start + end) / 2 - (view_end - view_start) / 2,
                                       (start + end) / 2 + (view_end - view_start) / 2);
    }
  else
    {
      gint64 pad = MAX (end - start, CHRONO_VIEWPORT_MIN_DURATION_NS);

      chrono_viewport_zoom_to_range (self->viewport, start - pad, end + pad);
    }

  if (self->track_rows[span.track] == NO_TRACK)
    return;
  row = &g_array_index (self->rows, Row, self->track_rows[span.track]);
  if (!row->pinned)
    reveal_content (self, row->y + TRACK_PAD +
                    chrono_track_index_get_span_row (row->index, span.index) * ROW_HEIGHT,
                    ROW_HEIGHT);
}

gboolean
chrono_timeline_get_show_all_flows (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);

  return self->show_all_flows;
}

void
chrono_timeline_set_show_all_flows (ChronoTimeline *self,
                                    gboolean        show_all_flows)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));

  show_all_flows = !!show_all_flows;
  if (self->show_all_flows == show_all_flows)
    return;
  self->show_all_flows = show_all_flows;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_ALL_FLOWS]);
}

gboolean
chrono_timeline_get_flows_ready (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);

  return self->flow_painter != NULL;
}

/**
 * chrono_timeline_set_highlight:
 * @tracks: (array length=n_tracks) (nullable): tracks of the trace
 *
 * Shades [START_NS, END_NS) and the rows of TRACKS; an empty range and no
 * tracks clear it.
 */
void
chrono_timeline_set_highlight (ChronoTimeline *self,
                               gint64          start_ns,
                               gint64          end_ns,
                               const guint    *tracks,
                               guint           n_tracks)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));

  self->highlight_start = start_ns;
  self->highlight_end = end_ns;
  g_array_set_size (self->highlight_tracks, 0);
  for (guint i = 0; i < n_tracks && self->trace != NULL; i++)
    if (tracks[i] < chrono_trace_get_n_tracks (self->trace))
      g_array_append_val (self->highlight_tracks, tracks[i]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * chrono_timeline_set_path:
 * @spans: (array length=n_spans) (nullable): spans of the trace
 *
 * Underlines SPANS, such as the steps of a critical path.
 */
void
chrono_timeline_set_path (ChronoTimeline      *self,
                          const ChronoSpanRef *spans,
                          guint                n_spans)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));

  g_array_set_size (self->path_spans, 0);
  if (n_spans > 0)
    g_array_append_vals (self->path_spans, spans, n_spans);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Scrolls so that TRACK's rows start near the top of the track area. */
void
chrono_timeline_scroll_to_track (ChronoTimeline *self,
                                 guint           track)
{
  const Row *row;

  g_return_if_fail (CHRONO_IS_TIMELINE (self));

  if (self->trace == NULL || track >= chrono_trace_get_n_tracks (self->trace) ||
      self->track_rows[track] == NO_TRACK)
    return;
  row = &g_array_index (self->rows, Row, self->track_rows[track]);
  /* Pinned rows are always in view. */
  if (!row->pinned)
    set_scroll_y (self, row->y - self->pinned_height - GROUP_HEIGHT);
}
