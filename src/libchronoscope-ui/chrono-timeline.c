/* chrono-timeline.c: the zoomable timeline of a trace: a time ruler over
 * one block of rows per track, grouped by process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>

#include "chrono-format.h"
#include "chrono-time-ticks.h"
#include "chrono-timeline.h"
#include "chrono-track-index.h"
#include "chrono-track-painter.h"

#define HEADER_WIDTH   CHRONO_TIMELINE_HEADER_WIDTH
#define RULER_HEIGHT   CHRONO_TIMELINE_RULER_HEIGHT
#define ROW_HEIGHT     CHRONO_TIMELINE_ROW_HEIGHT
#define GROUP_HEIGHT   24.0
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

typedef struct
{
  guint             track;    /* NO_TRACK for the header of a process */
  guint             process;
  double            y;        /* below the ruler, before scrolling */
  double            height;
  ChronoTrackIndex *index;
  GskRenderNode    *node;     /* what the painter made for the viewport */
  gboolean          painted;  /* NODE is current, even when NULL */
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
} Colors;

struct _ChronoTimeline
{
  GtkWidget           parent_instance;

  ChronoTrace        *trace;
  gboolean            dark;
  ChronoViewport     *viewport;
  ChronoTrackPainter *painter;

  GArray             *rows;       /* Row, top to bottom */
  guint              *track_rows; /* track -> position in ROWS */
  double              content_height;
  double              scroll_y;

  double              pointer_x;
  double              drag_x;
  double              drag_y;

  gboolean            has_selection;
  ChronoSpanRef       selection;

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
  if (self->dark)
    {
      colors->background = (GdkRGBA) { 0.12, 0.12, 0.12, 1.0 };
      colors->header = (GdkRGBA) { 0.16, 0.16, 0.16, 1.0 };
      colors->group = (GdkRGBA) { 0.21, 0.21, 0.22, 1.0 };
      colors->text = (GdkRGBA) { 1.0, 1.0, 1.0, 0.9 };
      colors->dim_text = (GdkRGBA) { 1.0, 1.0, 1.0, 0.6 };
      colors->line = (GdkRGBA) { 1.0, 1.0, 1.0, 0.15 };
      colors->grid = (GdkRGBA) { 1.0, 1.0, 1.0, 0.07 };
      colors->selection = (GdkRGBA) { 0.47, 0.68, 0.93, 1.0 };
    }
  else
    {
      colors->background = (GdkRGBA) { 1.0, 1.0, 1.0, 1.0 };
      colors->header = (GdkRGBA) { 0.96, 0.96, 0.95, 1.0 };
      colors->group = (GdkRGBA) { 0.91, 0.91, 0.92, 1.0 };
      colors->text = (GdkRGBA) { 0.0, 0.0, 0.0, 0.85 };
      colors->dim_text = (GdkRGBA) { 0.0, 0.0, 0.0, 0.6 };
      colors->line = (GdkRGBA) { 0.0, 0.0, 0.0, 0.15 };
      colors->grid = (GdkRGBA) { 0.0, 0.0, 0.0, 0.07 };
      colors->selection = (GdkRGBA) { 0.11, 0.44, 0.85, 1.0 };
    }
}

static void
row_clear (gpointer data)
{
  Row *row = data;

  g_clear_object (&row->index);
  g_clear_pointer (&row->node, gsk_render_node_unref);
}

static void
invalidate_nodes (ChronoTimeline *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);

      g_clear_pointer (&row->node, gsk_render_node_unref);
      row->painted = FALSE;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static double
get_track_area_height (ChronoTimeline *self)
{
  return MAX (0, gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT);
}

static void
set_scroll_y (ChronoTimeline *self,
              double          scroll_y)
{
  double max = MAX (0, self->content_height - get_track_area_height (self));

  scroll_y = CLAMP (scroll_y, 0, max);
  if (scroll_y == self->scroll_y)
    return;
  self->scroll_y = scroll_y;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static double
get_track_height (const ChronoTrack *track,
                  ChronoTrackIndex  *index)
{
  if (track->type == CHRONO_TRACK_COUNTER)
    return COUNTER_HEIGHT + 2 * TRACK_PAD;
  if (track->n_spans == 0)
    return INSTANT_HEIGHT + 2 * TRACK_PAD;
  return MAX (1, chrono_track_index_get_n_rows (index)) * ROW_HEIGHT + 2 * TRACK_PAD;
}

static void
build_rows (ChronoTimeline *self)
{
  g_autofree guint *order = NULL;
  guint n_tracks = 0;
  guint last_process = G_MAXUINT;
  double y = 0;

  g_array_set_size (self->rows, 0);
  g_clear_pointer (&self->track_rows, g_free);
  self->content_height = 0;
  self->scroll_y = 0;
  if (self->trace == NULL)
    return;

  order = chrono_trace_dup_track_order (self->trace, &n_tracks);
  self->track_rows = g_new0 (guint, chrono_trace_get_n_tracks (self->trace));
  for (guint i = 0; i < n_tracks; i++)
    {
      const ChronoTrack *track = chrono_trace_get_track (self->trace, order[i]);
      Row row = { 0 };

      if (track->process != last_process)
        {
          Row group = { NO_TRACK, track->process, y, GROUP_HEIGHT, NULL, NULL, FALSE };

          g_array_append_val (self->rows, group);
          y += GROUP_HEIGHT;
          last_process = track->process;
        }

      row.track = order[i];
      row.process = track->process;
      row.y = y;
      /* Built up front: the layout needs every track's number of rows,
       * and even a 1 GB trace indexes in well under a second. */
      row.index = chrono_track_index_new (self->trace, order[i]);
      row.height = get_track_height (track, row.index);
      self->track_rows[order[i]] = self->rows->len;
      g_array_append_val (self->rows, row);
      y += row.height;
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
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  int text_height;

  if (max_width > 0)
    {
      pango_layout_set_width (layout, (int) (max_width * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
    }
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
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (user_data, text);
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

static void
snapshot_rows (ChronoTimeline *self,
               GtkSnapshot    *snapshot,
               const Colors   *colors,
               ChronoTicks    *ticks,
               double          width)
{
  double area_height = get_track_area_height (self);
  guint first = find_row (self, self->scroll_y);

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

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, RULER_HEIGHT - self->scroll_y));

  for (guint i = first; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);
      const ChronoTrack *track;
      GskRenderNode *node;

      if (row->y >= self->scroll_y + area_height)
        break;

      if (row->track == NO_TRACK)
        {
          const ChronoProcess *process = chrono_trace_get_process (self->trace, row->process);

          gtk_snapshot_append_color (snapshot, &colors->group,
                                     &GRAPHENE_RECT_INIT (0, row->y, width, row->height));
          append_text (self, snapshot, chrono_trace_get_string (self->trace, process->display_name),
                       TEXT_INSET, row->y, width - 2 * TEXT_INSET, row->height, &colors->text);
          continue;
        }

      track = chrono_trace_get_track (self->trace, row->track);
      append_text (self, snapshot, chrono_trace_get_string (self->trace, track->display_name),
                   2 * TEXT_INSET, row->y + TRACK_PAD, HEADER_WIDTH - 3 * TEXT_INSET,
                   MIN (row->height - 2 * TRACK_PAD, 2 * ROW_HEIGHT), &colors->dim_text);
      gtk_snapshot_append_color (snapshot, &colors->line,
                                 &GRAPHENE_RECT_INIT (0, row->y + row->height - 1, width, 1));

      node = get_row_node (self, row);
      if (node == NULL)
        continue;
      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, row->y,
                                                             width - HEADER_WIDTH, row->height));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, row->y + TRACK_PAD));
      gtk_snapshot_append_node (snapshot, node);
      gtk_snapshot_restore (snapshot);
      gtk_snapshot_pop (snapshot);
    }
  gtk_snapshot_restore (snapshot);

  gtk_snapshot_append_color (snapshot, &colors->line,
                             &GRAPHENE_RECT_INIT (HEADER_WIDTH - 1, RULER_HEIGHT, 1, area_height));

  if (self->has_selection)
    {
      graphene_rect_t area;

      if (chrono_timeline_get_span_area (self, self->selection, &area))
        {
          const float widths[4] = { 2, 2, 2, 2 };
          const GdkRGBA border[4] = { colors->selection, colors->selection,
                                      colors->selection, colors->selection };
          GskRoundedRect outline;

          /* Outside the track area the outline would cover the names. */
          gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, RULER_HEIGHT,
                                                                 width - HEADER_WIDTH, area_height));
          graphene_rect_inset (&area, -2, -2);
          gsk_rounded_rect_init_from_rect (&outline, &area, 0);
          gtk_snapshot_append_border (snapshot, &outline, widths, border);
          gtk_snapshot_pop (snapshot);
        }
    }

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
      const Row *row = &g_array_index (self->rows, Row, self->track_rows[track]);

      gtk_snapshot_append_color (snapshot, &band,
                                 &GRAPHENE_RECT_INIT (0, RULER_HEIGHT - self->scroll_y + row->y,
                                                      width, row->height));
      gtk_snapshot_append_color (snapshot, &colors->selection,
                                 &GRAPHENE_RECT_INIT (0, RULER_HEIGHT - self->scroll_y + row->y,
                                                      4, row->height));
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
                                                      RULER_HEIGHT - 5, 1, 5));
    }
  for (guint i = 0; i < ticks->major->len; i++)
    {
      const ChronoTick *tick = &g_array_index (ticks->major, ChronoTick, i);
      double x = HEADER_WIDTH + floor (tick->x);

      gtk_snapshot_append_color (snapshot, &colors->dim_text,
                                 &GRAPHENE_RECT_INIT (x, RULER_HEIGHT - 10, 1, 10));
      /* A label cut by the right edge would read as another time. */
      if (tick->label != NULL &&
          x + 4 + measure_text_cb (tick->label, self) <= width)
        append_text (self, snapshot, tick->label, x + 4, 0, -1, RULER_HEIGHT - 6, &colors->text);
    }
  gtk_snapshot_pop (snapshot);

  /* The header column of the ruler names what the labels count from. */
  append_text (self, snapshot, _("Time from start"), TEXT_INSET, 0,
               HEADER_WIDTH - 2 * TEXT_INSET, RULER_HEIGHT, &colors->dim_text);
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

  /* Names cut short in the header column show whole here. */
  if (!keyboard_tooltip && self->trace != NULL && x < HEADER_WIDTH && y >= RULER_HEIGHT)
    {
      guint i = find_row (self, y - RULER_HEIGHT + self->scroll_y);
      const Row *row;

      if (i == G_MAXUINT)
        return FALSE;
      row = &g_array_index (self->rows, Row, i);
      if (row->track == NO_TRACK)
        gtk_tooltip_set_text (tooltip, chrono_trace_get_string (self->trace,
                                                                chrono_trace_get_process (self->trace, row->process)->display_name));
      else
        gtk_tooltip_set_text (tooltip, chrono_trace_get_string (self->trace,
                                                                chrono_trace_get_track (self->trace, row->track)->display_name));
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
  duration = chrono_format_duration (track->dur[span.index]);
  /* Translators: a span's tooltip: its name, then its duration and kind */
  markup = g_markup_printf_escaped (_("<b>%s</b>\n%s · %s"),
                                    chrono_trace_get_string (self->trace, track->name_id[span.index]),
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
  /* The content follows the pointer, so time moves against it. */
  chrono_viewport_pan (self->viewport, self->drag_x - offset_x);
  set_scroll_y (self, self->scroll_y + self->drag_y - offset_y);
  self->drag_x = offset_x;
  self->drag_y = offset_y;
}

static void
click_pressed_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  ChronoTimeline  *self)
{
  ChronoSpanRef span;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (self->trace == NULL || n_press != 1)
    return;

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
  g_clear_object (&self->painter);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (chrono_timeline_parent_class)->dispose (object);
}

static void
chrono_timeline_finalize (GObject *object)
{
  ChronoTimeline *self = CHRONO_TIMELINE (object);

  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->track_rows, g_free);
  g_clear_pointer (&self->highlight_tracks, g_array_unref);
  g_clear_pointer (&self->path_spans, g_array_unref);
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

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_WIDGET);
}

static void
chrono_timeline_init (ChronoTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *controller;
  GtkGesture *gesture;

  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_array_set_clear_func (self->rows, row_clear);
  self->highlight_tracks = g_array_new (FALSE, FALSE, sizeof (guint));
  self->path_spans = g_array_new (FALSE, FALSE, sizeof (ChronoSpanRef));
  self->viewport = chrono_viewport_new ();
  g_signal_connect_swapped (self->viewport, "changed", G_CALLBACK (viewport_changed_cb), self);

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_vexpand (widget, TRUE);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (widget, controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "enter", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (widget, controller);

  gesture = gtk_gesture_drag_new ();
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  g_signal_connect (gesture, "pressed", G_CALLBACK (click_pressed_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));
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

void
chrono_timeline_set_trace (ChronoTimeline *self,
                           ChronoTrace    *trace)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));
  g_return_if_fail (trace == NULL || CHRONO_IS_TRACE (trace));

  if (!g_set_object (&self->trace, trace))
    return;

  self->has_selection = FALSE;
  chrono_timeline_set_highlight (self, 0, 0, NULL, 0);
  chrono_timeline_set_path (self, NULL, 0);
  g_clear_object (&self->painter);
  build_rows (self);
  if (trace != NULL)
    {
      self->painter = chrono_track_painter_new (trace);
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
  double content_y = y - RULER_HEIGHT + self->scroll_y;
  guint32 index;
  guint i;

  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (span != NULL, FALSE);

  if (self->trace == NULL || x < HEADER_WIDTH || y < RULER_HEIGHT)
    return FALSE;
  i = find_row (self, content_y);
  if (i == G_MAXUINT)
    return FALSE;
  row = &g_array_index (self->rows, Row, i);
  if (row->track == NO_TRACK || chrono_trace_get_track (self->trace, row->track)->n_spans == 0)
    return FALSE;
  if (!chrono_track_index_hit_test (row->index, self->viewport, ROW_HEIGHT,
                                    x - HEADER_WIDTH, content_y - row->y - TRACK_PAD, &index))
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
  if (span.index >= track->n_spans)
    return FALSE;

  row = &g_array_index (self->rows, Row, self->track_rows[span.track]);
  x0 = chrono_viewport_time_to_x (self->viewport, track->start[span.index]);
  x1 = chrono_viewport_time_to_x (self->viewport, track->start[span.index] + track->dur[span.index]);
  /* Clamped so that far-off spans stay within float range. */
  x0 = CLAMP (x0, -1e6, 1e6);
  x1 = CLAMP (MAX (x1, x0 + 1), -1e6, 1e6);
  graphene_rect_init (area, HEADER_WIDTH + x0,
                      RULER_HEIGHT - self->scroll_y + row->y + TRACK_PAD +
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
    self->selection = *span;
  gtk_widget_queue_draw (GTK_WIDGET (self));
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

  if (self->trace == NULL || track >= chrono_trace_get_n_tracks (self->trace))
    return;
  row = &g_array_index (self->rows, Row, self->track_rows[track]);
  set_scroll_y (self, row->y - GROUP_HEIGHT);
}
