/* chrono-timeline.c: the zoomable timeline of a trace: a time ruler over
 * one block of rows per track, grouped by process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "chrono-background.h"
#include "chrono-palette.h"
#include "chrono-timeline-private.h"
#include "chrono-track-layout.h"

G_DEFINE_FINAL_TYPE (ChronoTimeline, chrono_timeline, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TRACE,
  PROP_DARK,
  PROP_SHOW_ALL_FLOWS,
  PROP_FLOWS_READY,
  N_PROPS
};


static GParamSpec *properties[N_PROPS];
guint _chrono_timeline_signals[N_SIGNALS];

/* -------------------------------------------------------------------- */
/* Flows                                                                */

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
  chrono_timeline_scene_set_flow_index (self->scene, index);
  self->flows_ready = TRUE;
  g_clear_object (&self->flows_cancellable);
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
  if (self->flows_ready)
    {
      self->flows_ready = FALSE;
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

/* -------------------------------------------------------------------- */
/* Drawing                                                              */

/* What is being dragged out: a range over the track area, or an area. */
static void
snapshot_marking (ChronoTimeline *self,
                  GtkSnapshot    *snapshot)
{
  GdkRGBA background, text, accent;
  double x = MIN (self->mark_x0, self->mark_x1), width = fabs (self->mark_x1 - self->mark_x0);
  double y = RULER_HEIGHT, height = gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT;

  chrono_palette_canvas_colors (self->dark, &background, &text, &accent);
  accent.alpha = 0.25;
  if (self->marking == MARK_AREA)
    {
      y = MIN (self->mark_y0, self->mark_y1);
      height = fabs (self->mark_y1 - self->mark_y0);
    }
  gtk_snapshot_append_color (snapshot, &accent, &GRAPHENE_RECT_INIT (x, y, MAX (width, 1), MAX (height, 1)));
}

static void
chrono_timeline_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  GdkRGBA background, text, accent;

  if (self->scene != NULL)
    {
      chrono_timeline_scene_snapshot (self->scene, snapshot);
      if (self->marking != MARK_NONE)
        snapshot_marking (self, snapshot);
      return;
    }
  chrono_palette_canvas_colors (self->dark, &background, &text, &accent);
  gtk_snapshot_append_color (snapshot, &background,
                             &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                  gtk_widget_get_height (widget)));
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

  if (self->scene != NULL)
    chrono_timeline_scene_set_size (self->scene, width, height);
  else
    chrono_viewport_set_width_px (self->viewport, MAX (1, width - HEADER_WIDTH));
  gtk_popover_present (GTK_POPOVER (self->track_menu));
}

static void
scene_changed_cb (ChronoTimeline *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
chrono_timeline_dispose (GObject *object)
{
  ChronoTimeline *self = CHRONO_TIMELINE (object);

  if (self->scene != NULL)
    g_signal_handlers_disconnect_by_func (self->scene, scene_changed_cb, self);
  g_clear_object (&self->scene);
  g_clear_object (&self->search);
  g_clear_object (&self->annotations);
  if (self->layout != NULL)
    g_signal_handlers_disconnect_by_func (self->layout, _chrono_timeline_layout_changed_cb, self);
  g_clear_object (&self->layout);
  g_clear_pointer (&self->track_menu, gtk_widget_unparent);
  g_clear_object (&self->span_menu);
  g_clear_object (&self->area_menu);
  g_cancellable_cancel (self->flows_cancellable);
  g_clear_object (&self->flows_cancellable);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (chrono_timeline_parent_class)->dispose (object);
}

static void
chrono_timeline_finalize (GObject *object)
{
  ChronoTimeline *self = CHRONO_TIMELINE (object);

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
  widget_class->query_tooltip = _chrono_timeline_query_tooltip;

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
  _chrono_timeline_signals[SPAN_ACTIVATED] =
    g_signal_new ("span-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  /* A range dragged out in the ruler: its start and end. */
  _chrono_timeline_signals[MEASURED] =
    g_signal_new ("measured", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);
  /* An area dragged out with Shift: its range and its tracks (a GArray
   * of guint), before the area menu opens. */
  _chrono_timeline_signals[AREA_SELECTED] =
    g_signal_new ("area-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT64, G_TYPE_INT64, G_TYPE_ARRAY);
  /* After Link to…, the span clicked: from its track and index to the
   * other's. */
  _chrono_timeline_signals[LINKED] =
    g_signal_new ("linked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT);
  /* The selected span changed, by a click, a search, a finding or a
   * call: chrono_timeline_get_selection() says which. */
  _chrono_timeline_signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  _chrono_timeline_class_init_input (widget_class);

  _chrono_timeline_class_init_tracks (widget_class);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_WIDGET);
}

static void
chrono_timeline_init (ChronoTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  self->viewport = chrono_viewport_new ();
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline"), -1);
  self->current_track = NO_TRACK;
  self->dragged_track = NO_TRACK;
  self->track_menu = gtk_popover_menu_new_from_model (NULL);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->track_menu), FALSE);
  gtk_popover_set_position (GTK_POPOVER (self->track_menu), GTK_POS_BOTTOM);
  gtk_widget_set_halign (self->track_menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->track_menu, widget);
  _chrono_timeline_update_track_actions (self);

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_vexpand (widget, TRUE);

  _chrono_timeline_init_input (self);
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
  g_clear_object (&self->search);
  g_clear_object (&self->annotations);
  if (self->scene != NULL)
    g_signal_handlers_disconnect_by_func (self->scene, scene_changed_cb, self);
  g_clear_object (&self->scene);
  if (self->layout != NULL)
    g_signal_handlers_disconnect_by_func (self->layout, _chrono_timeline_layout_changed_cb, self);
  g_clear_object (&self->layout);
  if (trace != NULL)
    {
      self->layout = chrono_track_layout_new (trace);
      g_signal_connect_swapped (self->layout, "changed", G_CALLBACK (_chrono_timeline_layout_changed_cb), self);
      chrono_viewport_set_bounds (self->viewport, chrono_trace_get_start_ns (trace),
                                  MAX (chrono_trace_get_end_ns (trace),
                                       chrono_trace_get_start_ns (trace) + CHRONO_VIEWPORT_MIN_DURATION_NS));
      chrono_viewport_show_all (self->viewport);
      self->scene = chrono_timeline_scene_new (trace, indexes, self->layout, self->viewport);
      chrono_timeline_scene_set_pango_context (self->scene, gtk_widget_get_pango_context (GTK_WIDGET (self)));
      chrono_timeline_scene_set_dark (self->scene, self->dark);
      chrono_timeline_scene_set_show_all_flows (self->scene, self->show_all_flows);
      chrono_timeline_scene_set_size (self->scene, gtk_widget_get_width (GTK_WIDGET (self)),
                                      gtk_widget_get_height (GTK_WIDGET (self)));
      g_signal_connect_swapped (self->scene, "changed", G_CALLBACK (scene_changed_cb), self);
    }
  index_flows (self);
  _chrono_timeline_update_track_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
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
  if (self->scene != NULL)
    chrono_timeline_scene_set_dark (self->scene, dark);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
}

ChronoViewport *
chrono_timeline_get_viewport (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), NULL);

  return self->viewport;
}

/**
 * chrono_timeline_get_scene:
 *
 * Returns: (transfer none) (nullable): what the timeline draws, %NULL
 *   without a trace; a new trace makes a new scene
 */
ChronoTimelineScene *
chrono_timeline_get_scene (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), NULL);

  return self->scene;
}

gboolean
chrono_timeline_hit_test (ChronoTimeline *self,
                          double          x,
                          double          y,
                          ChronoSpanRef  *span)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (span != NULL, FALSE);

  return self->scene != NULL && chrono_timeline_scene_hit_test (self->scene, x, y, span);
}

gboolean
chrono_timeline_get_span_area (ChronoTimeline  *self,
                               ChronoSpanRef    span,
                               graphene_rect_t *area)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (area != NULL, FALSE);

  return self->scene != NULL && chrono_timeline_scene_get_span_area (self->scene, span, area);
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
  gboolean changed;

  g_return_if_fail (CHRONO_IS_TIMELINE (self));

  changed = self->has_selection != (span != NULL) ||
            (span != NULL && (self->selection.track != span->track || self->selection.index != span->index));
  self->has_selection = span != NULL;
  if (span != NULL)
    {
      self->selection = *span;
      _chrono_timeline_set_current_track (self, span->track);
    }
  if (self->scene != NULL)
    chrono_timeline_scene_set_selection (self->scene, span);
  if (changed)
    g_signal_emit (self, _chrono_timeline_signals[SELECTION_CHANGED], 0);
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

  if (self->trace == NULL || own_row (self, track) == NO_TRACK)
    return FALSE;
  row = get_row (self, own_row (self, track));
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

  if (self->trace == NULL ||
      chrono_timeline_scene_get_process_row (self->scene, process) == NO_TRACK)
    return FALSE;
  row = get_row (self, chrono_timeline_scene_get_process_row (self->scene, process));
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
  if (self->scene != NULL)
    chrono_timeline_scene_set_search (self->scene, search);
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
  if (own_row (self, span.track) == NO_TRACK && !chrono_track_layout_is_hidden (self->layout, span.track))
    chrono_track_layout_set_collapsed (self->layout, track->process, FALSE);
  /* So must a span below the rows a capped track shows. */
  if (own_row (self, span.track) != NO_TRACK &&
      chrono_track_index_get_span_row (chrono_timeline_scene_get_row (self->scene, own_row (self, span.track))->index,
                                       span.index) >=
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

  if (own_row (self, span.track) == NO_TRACK)
    return;
  row = get_row (self, own_row (self, span.track));
  if (!row->pinned)
    _chrono_timeline_reveal_content (self, row->y + TRACK_PAD +
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
  if (self->scene != NULL)
    chrono_timeline_scene_set_show_all_flows (self->scene, show_all_flows);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_ALL_FLOWS]);
}

gboolean
chrono_timeline_get_flows_ready (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), FALSE);

  return self->flows_ready;
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

  if (self->scene != NULL)
    chrono_timeline_scene_set_highlight (self->scene, start_ns, end_ns, tracks, n_tracks);
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

  if (self->scene != NULL)
    chrono_timeline_scene_set_path (self->scene, spans, n_spans);
}

/**
 * chrono_timeline_set_efficiency:
 * @analysis: (nullable): an analysis of the timeline's trace
 *
 * Adds each device's achieved TFLOP/s under its tracks.
 */
void
chrono_timeline_set_efficiency (ChronoTimeline *self,
                                ChronoAnalysis *analysis)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));

  if (self->scene != NULL)
    chrono_timeline_scene_set_efficiency (self->scene, analysis);
}

/* Scrolls so that TRACK's rows start near the top of the track area. */
void
chrono_timeline_scroll_to_track (ChronoTimeline *self,
                                 guint           track)
{
  const Row *row;

  g_return_if_fail (CHRONO_IS_TIMELINE (self));

  if (self->trace == NULL || own_row (self, track) == NO_TRACK)
    return;
  row = get_row (self, own_row (self, track));
  /* A NeuronCore's lanes above its first track show with it. */
  for (guint i = own_row (self, track); i > 0 && get_row (self, i - 1)->neuron != NULL; i--)
    row = get_row (self, i - 1);
  /* Pinned rows are always in view. */
  if (!row->pinned)
    set_scroll_y (self, row->y - chrono_timeline_scene_get_pinned_height (self->scene) - GROUP_HEIGHT);
}

/**
 * chrono_timeline_set_annotations:
 * @annotations: (nullable): of the timeline's trace
 */
void
chrono_timeline_set_annotations (ChronoTimeline    *self,
                                 ChronoAnnotations *annotations)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));
  g_return_if_fail (annotations == NULL || CHRONO_IS_ANNOTATIONS (annotations));

  if (!g_set_object (&self->annotations, annotations))
    return;
  if (self->scene != NULL)
    chrono_timeline_scene_set_annotations (self->scene, annotations);
}

ChronoAnnotations *
chrono_timeline_get_annotations (ChronoTimeline *self)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (self), NULL);
  return self->annotations;
}

/**
 * chrono_timeline_set_span_menu:
 * @menu: (nullable): what a secondary click on a span opens
 */
void
chrono_timeline_set_span_menu (ChronoTimeline *self,
                               GMenuModel     *menu)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));
  g_set_object (&self->span_menu, menu);
}

/**
 * chrono_timeline_set_area_menu:
 * @menu: (nullable): what opens over an area dragged out with Shift
 */
void
chrono_timeline_set_area_menu (ChronoTimeline *self,
                               GMenuModel     *menu)
{
  g_return_if_fail (CHRONO_IS_TIMELINE (self));
  g_set_object (&self->area_menu, menu);
}
