/* chrono-graph-pane.c: the dependency graph below a timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "chrono-graph-pane.h"

/* A node brought into view is zoomed to this many times its length on
 * each side, and at least to a microsecond. */
#define NODE_ZOOM_MARGIN 4
#define NODE_ZOOM_MIN_NS 1000

struct _ChronoGraphPane
{
  GtkWidget            parent_instance;

  ChronoTimeline      *timeline;
  ChronoFindingsPanel *panel;

  GtkWidget           *box;
  GtkLabel            *title_label;
  GtkLabel            *legend_label;
  GtkLabel            *hint_label;
  guint                hint_idle;
  GtkSpinButton       *hops_spin;
  ChronoGraphView     *graph;
};

G_DEFINE_FINAL_TYPE (ChronoGraphPane, chrono_graph_pane, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TIMELINE,
  PROP_PANEL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The graph is around the timeline's selected span, however it was
 * selected; a selection cleared leaves the last graph in view. */
static void
selection_changed_cb (ChronoGraphPane *self)
{
  ChronoSpanRef span;
  ChronoNodeRef node = { 0 };

  if (!chrono_timeline_get_selection (self->timeline, &span))
    return;
  node.span = span;
  chrono_graph_view_set_selection (self->graph, &node);
  if (chrono_graph_view_get_analysis (self->graph) != NULL)
    chrono_graph_view_show_neighbourhood (self->graph, node);
}

static void
analysis_changed_cb (ChronoGraphPane *self)
{
  chrono_graph_view_set_analysis (self->graph, chrono_findings_panel_get_analysis (self->panel));
  selection_changed_cb (self);
}

static void
path_graph_requested_cb (ChronoGraphPane *self,
                         guint            path)
{
  chrono_graph_view_show_path (self->graph, path);
}

/* A node clicked in the graph is selected in the timeline, and brought
 * into view if it is not. */
static void
node_activated_cb (ChronoGraphPane *self,
                   guint            trace,
                   guint            track,
                   guint            index)
{
  ChronoViewport *viewport = chrono_timeline_get_viewport (self->timeline);
  const ChronoTrack *t = chrono_trace_get_track (chrono_timeline_get_trace (self->timeline), track);
  ChronoSpanRef span = { track, index };
  gint64 end = chrono_track_get_end (t, index);
  gint64 margin = NODE_ZOOM_MARGIN * MAX (chrono_track_get_dur (t, index), NODE_ZOOM_MIN_NS);

  /* The timeline shows one trace: the first. */
  if (trace != 0)
    return;
  if (t->start[index] < chrono_viewport_get_start_ns (viewport) || end > chrono_viewport_get_end_ns (viewport))
    chrono_viewport_zoom_to_range (viewport, t->start[index] - margin, end + margin);
  chrono_timeline_scroll_to_track (self->timeline, track);
  chrono_timeline_select (self->timeline, &span);
  g_signal_emit_by_name (self->timeline, "span-activated", track, index);
}

static void
fit_clicked_cb (ChronoGraphPane *self)
{
  chrono_graph_view_fit (self->graph);
}

static gboolean
show_hint_cb (gpointer data)
{
  ChronoGraphPane *self = data;
  const char *hint = chrono_graph_view_get_hint (self->graph);

  self->hint_idle = 0;
  gtk_label_set_label (self->hint_label, hint != NULL ? hint : "");
  gtk_widget_set_visible (GTK_WIDGET (self->hint_label), hint != NULL);
  return G_SOURCE_REMOVE;
}

/* The view fits its graph as it is allocated: the label above it changes
 * size after that. */
static void
hint_changed_cb (ChronoGraphPane *self)
{
  if (self->hint_idle == 0)
    self->hint_idle = g_idle_add (show_hint_cb, self);
}

static gboolean
title_cb (GBinding     *binding,
          const GValue *from,
          GValue       *to,
          gpointer      user_data)
{
  const char *title = g_value_get_string (from);

  g_value_set_string (to, title != NULL ? title : _("Dependencies"));
  return TRUE;
}

static void
chrono_graph_pane_constructed (GObject *object)
{
  ChronoGraphPane *self = CHRONO_GRAPH_PANE (object);

  G_OBJECT_CLASS (chrono_graph_pane_parent_class)->constructed (object);

  g_signal_connect_object (self->panel, "notify::analysis", G_CALLBACK (analysis_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->panel, "path-graph-requested", G_CALLBACK (path_graph_requested_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "selection-changed", G_CALLBACK (selection_changed_cb),
                           self, G_CONNECT_SWAPPED);
  analysis_changed_cb (self);
}

static void
chrono_graph_pane_dispose (GObject *object)
{
  ChronoGraphPane *self = CHRONO_GRAPH_PANE (object);

  g_clear_handle_id (&self->hint_idle, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_GRAPH_PANE);
  g_clear_object (&self->timeline);
  g_clear_object (&self->panel);

  G_OBJECT_CLASS (chrono_graph_pane_parent_class)->dispose (object);
}

static void
chrono_graph_pane_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  ChronoGraphPane *self = CHRONO_GRAPH_PANE (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      self->timeline = g_value_dup_object (value);
      break;
    case PROP_PANEL:
      self->panel = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_graph_pane_class_init (ChronoGraphPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = chrono_graph_pane_constructed;
  object_class->dispose = chrono_graph_pane_dispose;
  object_class->set_property = chrono_graph_pane_set_property;

  properties[PROP_TIMELINE] =
    g_param_spec_object ("timeline", NULL, NULL, CHRONO_TYPE_TIMELINE,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PANEL] =
    g_param_spec_object ("panel", NULL, NULL, CHRONO_TYPE_FINDINGS_PANEL,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (CHRONO_TYPE_GRAPH_VIEW);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "graphpane");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-graph-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoGraphPane, box);
  gtk_widget_class_bind_template_child (widget_class, ChronoGraphPane, title_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoGraphPane, legend_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoGraphPane, hint_label);
  gtk_widget_class_bind_template_callback (widget_class, fit_clicked_cb);
  gtk_widget_class_bind_template_child (widget_class, ChronoGraphPane, hops_spin);
  gtk_widget_class_bind_template_child (widget_class, ChronoGraphPane, graph);
}

static void
chrono_graph_pane_init (ChronoGraphPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  g_object_bind_property_full (self->graph, "title", self->title_label, "label", G_BINDING_SYNC_CREATE,
                               title_cb, NULL, NULL, NULL);
  g_object_bind_property (self->graph, "legend", self->legend_label, "label", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->graph, "hops", self->hops_spin, "value",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (adw_style_manager_get_default (), "dark", self->graph, "dark", G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->graph, "node-activated", G_CALLBACK (node_activated_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->graph, "notify::hint", G_CALLBACK (hint_changed_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
chrono_graph_pane_new (ChronoTimeline      *timeline,
                       ChronoFindingsPanel *panel)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (timeline), NULL);
  g_return_val_if_fail (CHRONO_IS_FINDINGS_PANEL (panel), NULL);

  return g_object_new (CHRONO_TYPE_GRAPH_PANE, "timeline", timeline, "panel", panel, NULL);
}

/**
 * chrono_graph_pane_get_view:
 *
 * Returns: (transfer none): the graph itself
 */
ChronoGraphView *
chrono_graph_pane_get_view (ChronoGraphPane *self)
{
  g_return_val_if_fail (CHRONO_IS_GRAPH_PANE (self), NULL);
  return self->graph;
}
