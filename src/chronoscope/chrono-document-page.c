/* chrono-document-page.c: one trace in a tab: loading, failed or loaded;
 * its loading on a thread is in chrono-document-page-load.c, its
 * comparison with another trace in chrono-document-page-comparison.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "chrono-application.h"
#include "chrono-document-page-private.h"
#include "chrono-findings-panel.h"
#include "chrono-graph-pane.h"
#include "chrono-load-banner.h"
#include "chrono-neuron-navigation.h"
#include "chrono-neuron-ops-view.h"
#include "chrono-neuron-page.h"
#include "chrono-notes-panel.h"
#include "chrono-query-page.h"
#include "chrono-trace-summary.h"

G_DEFINE_ENUM_TYPE (ChronoDocumentState, chrono_document_state,
                    G_DEFINE_ENUM_VALUE (CHRONO_DOCUMENT_STATE_LOADING, "loading"),
                    G_DEFINE_ENUM_VALUE (CHRONO_DOCUMENT_STATE_LOADED, "loaded"),
                    G_DEFINE_ENUM_VALUE (CHRONO_DOCUMENT_STATE_FAILED, "failed"),
                    G_DEFINE_ENUM_VALUE (CHRONO_DOCUMENT_STATE_CANCELLED, "cancelled"))

G_DEFINE_FINAL_TYPE (ChronoDocumentPage, chrono_document_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_FILE,
  PROP_FILES,
  PROP_TRACE,
  PROP_STATE,
  PROP_SHOW_FINDINGS,
  PROP_SHOW_GRAPH,
  PROP_SHOW_NOTES,
  N_PROPS
};

enum {
  CLOSE_REQUESTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

void
chrono_document_page_set_state (ChronoDocumentPage  *self,
                                ChronoDocumentState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "document.cancel",
                                 state == CHRONO_DOCUMENT_STATE_LOADING);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
update_view_buttons (ChronoDocumentPage *self)
{
  gboolean timeline = g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "timeline") == 0;
  ChronoTrackLayout *layout = chrono_timeline_get_track_layout (chrono_timeline_view_get_timeline (self->timeline_view));

  /* They act on the timeline only. */
  gtk_widget_set_visible (GTK_WIDGET (self->all_flows_button), timeline);
  gtk_widget_set_visible (GTK_WIDGET (self->search_button), timeline);
  gtk_widget_set_visible (GTK_WIDGET (self->tracks_button), timeline);
  gtk_widget_set_sensitive (GTK_WIDGET (self->tracks_button),
                            chrono_track_layout_get_n_hidden (layout) > 0);
}

/* The findings panel asked for a critical path as a graph. */
static void
path_graph_requested_cb (ChronoDocumentPage *self)
{
  chrono_document_page_set_show_graph (self, TRUE);
}

static GSettings *
app_settings (void)
{
  GApplication *application = g_application_get_default ();

  return CHRONO_IS_APPLICATION (application) ? chrono_application_get_settings (CHRONO_APPLICATION (application))
                                             : NULL;
}

static void
notes_jump_cb (ChronoDocumentPage *self,
               guint               id)
{
  chrono_timeline_view_show_annotation (self->timeline_view, id);
}

/* The panel's width is kept as it was last shown: saved when it goes
 * out of sight, given back once the pane knows how wide it is. */
static void
notes_unmapped_cb (ChronoDocumentPage *self)
{
  GSettings *settings = app_settings ();
  int width = gtk_widget_get_width (self->notes_panel);

  if (settings != NULL && width >= 200)
    g_settings_set_int (settings, "notes-panel-width", width);
}

static void
notes_pane_sized_cb (ChronoDocumentPage *self)
{
  GSettings *settings = app_settings ();
  int max, min_width;

  g_object_get (self->notes_paned, "max-position", &max, NULL);
  if (settings == NULL || max <= 0 || max == G_MAXINT || !gtk_widget_get_visible (self->notes_panel))
    return;
  g_signal_handlers_disconnect_by_func (self->notes_paned, notes_pane_sized_cb, self);
  /* MAX is the pane's width less the panel's least width. */
  gtk_widget_measure (self->notes_panel, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
  gtk_paned_set_position (self->notes_paned,
                          MAX (0, max + min_width - g_settings_get_int (settings, "notes-panel-width")));
}

/* The timeline (with the details of the selected span on its right) in
 * the panes that the findings and the graph join later, under the note of
 * what the load left out. */
static GtkWidget *
create_timeline_view (ChronoDocumentPage *self,
                      GPtrArray          *indexes)
{
  ChronoTrackLayout *layout;
  ChronoTimeline *timeline;
  GtkWidget *vertical = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget *outer = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *notes = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  self->timeline_view = CHRONO_TIMELINE_VIEW (chrono_timeline_view_new (self->trace, indexes));
  timeline = chrono_timeline_view_get_timeline (self->timeline_view);
  layout = chrono_timeline_get_track_layout (timeline);
  g_object_bind_property (chrono_timeline_view_get_search_bar (self->timeline_view), "search-mode-enabled",
                          self->search_button, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  gtk_menu_button_set_menu_model (self->tracks_button,
                                  chrono_timeline_view_get_hidden_menu (self->timeline_view));
  g_signal_connect_object (layout, "changed", G_CALLBACK (update_view_buttons), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view_stack, "notify::visible-child", G_CALLBACK (update_view_buttons),
                           self, G_CONNECT_SWAPPED);
  g_object_bind_property (self->all_flows_button, "active", timeline, "show-all-flows",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->all_flows_button), chrono_trace_get_n_flows (self->trace) > 0);

  gtk_paned_set_start_child (GTK_PANED (vertical), GTK_WIDGET (self->timeline_view));
  gtk_paned_set_resize_end_child (GTK_PANED (vertical), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (vertical), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (vertical), FALSE);
  gtk_paned_set_end_child (GTK_PANED (outer), vertical);
  gtk_paned_set_resize_start_child (GTK_PANED (outer), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (outer), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (outer), FALSE);
  self->outer_paned = GTK_PANED (outer);
  self->vertical_paned = GTK_PANED (vertical);

  self->notes_panel = chrono_notes_panel_new (chrono_timeline_get_annotations (timeline), self->trace);
  g_signal_connect_object (self->notes_panel, "jump", G_CALLBACK (notes_jump_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->notes_panel, "unmap", G_CALLBACK (notes_unmapped_cb), self, G_CONNECT_SWAPPED);
  g_object_bind_property (self, "show-notes", self->notes_panel, "visible", G_BINDING_SYNC_CREATE);
  gtk_paned_set_start_child (GTK_PANED (notes), outer);
  gtk_paned_set_end_child (GTK_PANED (notes), self->notes_panel);
  gtk_paned_set_resize_end_child (GTK_PANED (notes), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (notes), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (notes), FALSE);
  self->notes_paned = GTK_PANED (notes);
  g_signal_connect_object (notes, "notify::max-position", G_CALLBACK (notes_pane_sized_cb), self,
                           G_CONNECT_SWAPPED);
  /* What the load left out shows over the timeline and the findings,
   * where one looks first. */
  gtk_box_append (GTK_BOX (page), chrono_load_banner_new (self->trace));
  gtk_widget_set_vexpand (notes, TRUE);
  gtk_box_append (GTK_BOX (page), notes);
  return page;
}

static void
timeline_requested_cb (ChronoDocumentPage *self)
{
  adw_view_stack_set_visible_child_name (self->view_stack, "timeline");
}

/* A device profile opens on what its NeuronCores did. */
static void
add_neuron_page (ChronoDocumentPage  *self,
                 ChronoFindingsPanel *panel)
{
  GtkWidget *neuron = chrono_neuron_page_new (panel);
  GtkWidget *ops = chrono_neuron_ops_view_new (panel);
  AdwViewStackPage *page = adw_view_stack_add_titled (self->view_stack, neuron, "neuron", _("NeuronCores"));

  adw_view_stack_page_set_icon_name (page, "utilities-system-monitor-symbolic");
  page = adw_view_stack_add_titled (self->view_stack, ops, "neuron-operators", _("Operators"));
  adw_view_stack_page_set_icon_name (page, "view-list-bullet-symbolic");
  g_signal_connect_object (neuron, "timeline-requested", G_CALLBACK (timeline_requested_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (ops, "timeline-requested", G_CALLBACK (timeline_requested_cb), self,
                           G_CONNECT_SWAPPED);
  adw_view_stack_set_visible_child (self->view_stack, neuron);
}

static void
add_query_page (ChronoDocumentPage  *self,
                ChronoFindingsPanel *panel)
{
  GtkWidget *query = chrono_query_page_new (panel);
  AdwViewStackPage *page = adw_view_stack_add_titled (self->view_stack, query, "query", _("Query"));

  adw_view_stack_page_set_icon_name (page, "utilities-terminal-symbolic");
  g_signal_connect_object (query, "timeline-requested", G_CALLBACK (timeline_requested_cb), self,
                           G_CONNECT_SWAPPED);
}

/* The findings on the left, the graph around the selection below. */
static void
add_analysis_views (ChronoDocumentPage *self)
{
  ChronoTimeline *timeline = chrono_timeline_view_get_timeline (self->timeline_view);
  GtkWidget *panel = chrono_findings_panel_new (timeline);
  GtkWidget *graph = chrono_graph_pane_new (timeline, CHRONO_FINDINGS_PANEL (panel));

  g_signal_connect_object (panel, "path-graph-requested", G_CALLBACK (path_graph_requested_cb),
                           self, G_CONNECT_SWAPPED);
  g_object_bind_property (self, "show-graph", graph, "visible", G_BINDING_SYNC_CREATE);
  gtk_paned_set_end_child (self->vertical_paned, graph);
  g_object_bind_property (self, "show-findings", panel, "visible", G_BINDING_SYNC_CREATE);
  gtk_paned_set_start_child (self->outer_paned, panel);
  if (chrono_neuron_page_is_for (self->trace))
    add_neuron_page (self, CHRONO_FINDINGS_PANEL (panel));
  add_query_page (self, CHRONO_FINDINGS_PANEL (panel));
}

static void
add_summary (ChronoDocumentPage *self)
{
  AdwViewStackPage *page = adw_view_stack_add_titled (self->view_stack,
                                                      g_object_new (CHRONO_TYPE_TRACE_SUMMARY,
                                                                    "trace", self->trace,
                                                                    "vexpand", TRUE,
                                                                    NULL),
                                                      "summary", _("Summary"));

  adw_view_stack_page_set_icon_name (page, "view-list-symbolic");
}

/* Building a loaded page takes longer than a frame on a slow machine: the
 * timeline comes first, then each further part in its own turn of the
 * main loop, after any frame that is due, so the window stays live. The
 * page shows and is loaded once the last part is in. */
static gboolean
build_next_cb (gpointer data)
{
  ChronoDocumentPage *self = data;

  switch (self->build_stage++)
    {
    case 0:
      add_analysis_views (self);
      return G_SOURCE_CONTINUE;
    default:
      add_summary (self);
      self->build_source = 0;
      gtk_stack_set_visible_child_name (self->stack, "trace");
      /* The keys of the timeline work at once, without a click first; a
       * page loaded in a tab out of sight leaves the focus where it is. */
      if (gtk_widget_get_mapped (GTK_WIDGET (self)))
        gtk_widget_grab_focus (GTK_WIDGET (chrono_timeline_view_get_timeline (self->timeline_view)));
      chrono_document_page_set_state (self, CHRONO_DOCUMENT_STATE_LOADED);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRACE]);
      if (self->pending_setup != NULL)
        {
          g_autoptr(ChronoComparisonSetup) setup = g_steal_pointer (&self->pending_setup);
          g_autoptr(ChronoTrace) trace_b = g_steal_pointer (&self->pending_trace_b);

          chrono_document_page_start_comparison (self, trace_b, setup, TRUE);
        }
      else
        chrono_document_page_restore_comparison (self);
      return G_SOURCE_REMOVE;
    }
}

void
chrono_document_page_build_views (ChronoDocumentPage *self,
                                  GPtrArray          *indexes)
{
  AdwViewStackPage *page;

  /* Built only now: a page that fails never pays for them. */
  page = adw_view_stack_add_titled (self->view_stack, create_timeline_view (self, indexes),
                                    "timeline", _("Timeline"));
  adw_view_stack_page_set_icon_name (page, "view-continuous-symbolic");
  adw_view_stack_set_visible_child_name (self->view_stack, "timeline");
  update_view_buttons (self);
  self->build_source = g_idle_add (build_next_cb, self);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  ChronoDocumentPage *self = CHRONO_DOCUMENT_PAGE (widget);

  chrono_document_page_cancel (self);
  g_signal_emit (self, signals[CLOSE_REQUESTED], 0);
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  g_signal_emit (widget, signals[CLOSE_REQUESTED], 0);
}

/* document.X: the timeline's view.X, once there is a timeline. */
static void
timeline_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  ChronoDocumentPage *self = CHRONO_DOCUMENT_PAGE (widget);
  g_autofree char *name = g_strconcat ("view.", action_name + strlen ("document."), NULL);

  if (self->timeline_view == NULL)
    {
      gtk_widget_error_bell (widget);
      return;
    }
  gtk_widget_activate_action (GTK_WIDGET (self->timeline_view), name, NULL);
}

static void
show_track_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  ChronoDocumentPage *self = CHRONO_DOCUMENT_PAGE (widget);
  guint track = g_variant_get_uint32 (parameter);

  if (self->timeline_view != NULL && track < chrono_trace_get_n_tracks (self->trace))
    chrono_timeline_view_show_track (self->timeline_view, track);
}

/* From an instruction's details: its operator chosen in the Operators
 * tab, its instructions marked on the timeline. */
static void
show_operator_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  ChronoDocumentPage *self = CHRONO_DOCUMENT_PAGE (widget);
  GtkWidget *ops = adw_view_stack_get_child_by_name (self->view_stack, "neuron-operators");
  ChronoSpanRef span;

  g_variant_get (parameter, "(uu)", &span.track, &span.index);
  if (ops != NULL)
    chrono_neuron_ops_view_show_instruction (CHRONO_NEURON_OPS_VIEW (ops), span);
}

/* In a Neuron profile folder: the execution a span belongs to zoomed to
 * on the timeline, over the core that ran it, its first instruction
 * selected; the span given, or the one selected. */
static void
show_execution_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  ChronoDocumentPage *self = CHRONO_DOCUMENT_PAGE (widget);
  ChronoTimeline *timeline;
  ChronoSpanRef span;

  if (self->timeline_view == NULL)
    return;
  timeline = chrono_timeline_view_get_timeline (self->timeline_view);
  if (parameter != NULL)
    g_variant_get (parameter, "(uu)", &span.track, &span.index);
  else if (!chrono_timeline_get_selection (timeline, &span))
    return;
  if (chrono_neuron_show_execution_of (timeline, span))
    timeline_requested_cb (self);
}

static void
show_all_tracks_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  ChronoDocumentPage *self = CHRONO_DOCUMENT_PAGE (widget);

  if (self->timeline_view != NULL)
    chrono_track_layout_show_all (chrono_timeline_get_track_layout (chrono_timeline_view_get_timeline (self->timeline_view)));
}

static void
chrono_document_page_constructed (GObject *object)
{
  ChronoDocumentPage *self = CHRONO_DOCUMENT_PAGE (object);

  G_OBJECT_CLASS (chrono_document_page_parent_class)->constructed (object);

  /* Made with one file, or with several. */
  if (self->files == NULL && self->file != NULL)
    {
      GListStore *files = g_list_store_new (G_TYPE_FILE);

      g_list_store_append (files, self->file);
      self->files = G_LIST_MODEL (files);
    }
  g_return_if_fail (self->files != NULL && g_list_model_get_n_items (self->files) > 0);
  if (self->file == NULL)
    self->file = g_list_model_get_item (self->files, 0);
  chrono_document_page_load (self);
}

static void
chrono_document_page_dispose (GObject *object)
{
  ChronoDocumentPage *self = CHRONO_DOCUMENT_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->build_source, g_source_remove);
  if (self->comparison_view != NULL)
    chrono_comparison_view_cancel (self->comparison_view);
  chrono_document_page_drop_load_job (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_DOCUMENT_PAGE);

  G_OBJECT_CLASS (chrono_document_page_parent_class)->dispose (object);
}

static void
chrono_document_page_finalize (GObject *object)
{
  ChronoDocumentPage *self = CHRONO_DOCUMENT_PAGE (object);

  g_clear_object (&self->file);
  g_clear_object (&self->files);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->pending_setup, chrono_comparison_setup_free);
  g_clear_object (&self->pending_trace_b);
  g_clear_object (&self->cancellable);
  g_clear_error (&self->error);

  G_OBJECT_CLASS (chrono_document_page_parent_class)->finalize (object);
}

static void
chrono_document_page_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  ChronoDocumentPage *self = CHRONO_DOCUMENT_PAGE (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_FILES:
      g_value_set_object (value, self->files);
      break;
    case PROP_TRACE:
      g_value_set_object (value, self->trace);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_SHOW_FINDINGS:
      g_value_set_boolean (value, self->show_findings);
      break;
    case PROP_SHOW_GRAPH:
      g_value_set_boolean (value, self->show_graph);
      break;
    case PROP_SHOW_NOTES:
      g_value_set_boolean (value, self->show_notes);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_document_page_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  ChronoDocumentPage *self = CHRONO_DOCUMENT_PAGE (object);

  switch (prop_id)
    {
    case PROP_FILE:
      self->file = g_value_dup_object (value);
      break;
    case PROP_SHOW_FINDINGS:
      chrono_document_page_set_show_findings (self, g_value_get_boolean (value));
      break;
    case PROP_SHOW_GRAPH:
      chrono_document_page_set_show_graph (self, g_value_get_boolean (value));
      break;
    case PROP_SHOW_NOTES:
      chrono_document_page_set_show_notes (self, g_value_get_boolean (value));
      break;
    case PROP_FILES:
      self->files = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_document_page_class_init (ChronoDocumentPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = chrono_document_page_constructed;
  object_class->dispose = chrono_document_page_dispose;
  object_class->finalize = chrono_document_page_finalize;
  object_class->get_property = chrono_document_page_get_property;
  object_class->set_property = chrono_document_page_set_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* Several traces on one clock, as one document. */
  properties[PROP_FILES] =
    g_param_spec_object ("files", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL, CHRONO_TYPE_TRACE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, CHRONO_TYPE_DOCUMENT_STATE,
                       CHRONO_DOCUMENT_STATE_LOADING,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_FINDINGS] =
    g_param_spec_boolean ("show-findings", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_GRAPH] =
    g_param_spec_boolean ("show-graph", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The notes panel; remembered in the settings. */
  properties[PROP_SHOW_NOTES] =
    g_param_spec_boolean ("show-notes", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * ChronoDocumentPage::close-requested:
   *
   * The person asked to close this page: Cancel while loading, or Close
   * after an error. Whoever holds the page removes it.
   */
  signals[CLOSE_REQUESTED] =
    g_signal_new ("close-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_install_action (widget_class, "document.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "document.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "document.show-track", "u", show_track_action);
  gtk_widget_class_install_action (widget_class, "document.show-all-tracks", NULL, show_all_tracks_action);
  gtk_widget_class_install_action (widget_class, "document.show-operator", "(uu)", show_operator_action);
  gtk_widget_class_install_action (widget_class, "document.show-execution", "(uu)", show_execution_action);
  gtk_widget_class_install_action (widget_class, "document.show-selected-execution", NULL, show_execution_action);
  gtk_widget_class_install_property_action (widget_class, "document.show-findings", "show-findings");
  gtk_widget_class_install_property_action (widget_class, "document.show-graph", "show-graph");
  gtk_widget_class_install_property_action (widget_class, "document.show-notes", "show-notes");
  /* The document menu's entries, for the timeline's actions. */
  gtk_widget_class_install_action (widget_class, "document.export-picture", NULL, timeline_action);
  gtk_widget_class_install_action (widget_class, "document.import-notes", NULL, timeline_action);
  gtk_widget_class_install_action (widget_class, "document.export-notes", NULL, timeline_action);
  /* Key bindings, not application accelerators: these actions belong to
   * the page, which the window cannot see. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "document.show-findings", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F8, 0, "document.show-graph", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_x, 0, "document.show-selected-execution", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "document.show-notes", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "documentpage");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-document-page.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoDocumentPage, stack);
  gtk_widget_class_bind_template_child (widget_class, ChronoDocumentPage, file_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoDocumentPage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, ChronoDocumentPage, error_page);
  gtk_widget_class_bind_template_child (widget_class, ChronoDocumentPage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, ChronoDocumentPage, all_flows_button);
  gtk_widget_class_bind_template_child (widget_class, ChronoDocumentPage, search_button);
  gtk_widget_class_bind_template_child (widget_class, ChronoDocumentPage, tracks_button);
  gtk_widget_class_bind_template_child (widget_class, ChronoDocumentPage, compare_button);
}

static void
chrono_document_page_init (ChronoDocumentPage *self)
{
  GSettings *settings = app_settings ();

  self->show_findings = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  if (settings != NULL)
    g_settings_bind (settings, "notes-panel-shown", self, "show-notes", G_SETTINGS_BIND_DEFAULT);
}

ChronoDocumentPage *
chrono_document_page_new (GFile *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  return g_object_new (CHRONO_TYPE_DOCUMENT_PAGE, "file", file, NULL);
}

/**
 * chrono_document_page_new_for_files:
 * @files: (element-type GFile): trace files
 *
 * Returns: a page showing @files as one document, on one clock
 */
ChronoDocumentPage *
chrono_document_page_new_for_files (GListModel *files)
{
  g_return_val_if_fail (G_IS_LIST_MODEL (files), NULL);
  g_return_val_if_fail (g_list_model_get_n_items (files) > 0, NULL);

  return g_object_new (CHRONO_TYPE_DOCUMENT_PAGE, "files", files, NULL);
}

/**
 * chrono_document_page_get_files:
 *
 * Returns: (transfer none): the files this page shows as one document
 */
GListModel *
chrono_document_page_get_files (ChronoDocumentPage *self)
{
  g_return_val_if_fail (CHRONO_IS_DOCUMENT_PAGE (self), NULL);
  return self->files;
}

/**
 * chrono_document_page_dup_title:
 *
 * Returns: (transfer full): what the page's tab says: the file's or
 *   folder's name, or how many traces it shows together
 */
char *
chrono_document_page_dup_title (ChronoDocumentPage *self)
{
  guint n_files;

  g_return_val_if_fail (CHRONO_IS_DOCUMENT_PAGE (self), NULL);

  n_files = g_list_model_get_n_items (self->files);
  if (n_files == 1)
    return g_file_get_basename (self->file);
  /* Translators: the tab of several trace files opened as one */
  return g_strdup_printf (ngettext ("%u trace", "%u traces", n_files), n_files);
}

/**
 * chrono_document_page_get_file:
 *
 * Returns: (transfer none): the trace file this page shows; the first one
 *   of several
 */
GFile *
chrono_document_page_get_file (ChronoDocumentPage *self)
{
  g_return_val_if_fail (CHRONO_IS_DOCUMENT_PAGE (self), NULL);
  return self->file;
}

/**
 * chrono_document_page_get_trace:
 *
 * Returns: (transfer none) (nullable): the loaded trace, or %NULL until it
 *   has loaded
 */
ChronoTrace *
chrono_document_page_get_trace (ChronoDocumentPage *self)
{
  g_return_val_if_fail (CHRONO_IS_DOCUMENT_PAGE (self), NULL);
  return self->trace;
}

ChronoDocumentState
chrono_document_page_get_state (ChronoDocumentPage *self)
{
  g_return_val_if_fail (CHRONO_IS_DOCUMENT_PAGE (self), CHRONO_DOCUMENT_STATE_FAILED);
  return self->state;
}

/**
 * chrono_document_page_get_error:
 *
 * Returns: (transfer none) (nullable): why loading failed or stopped
 */
const GError *
chrono_document_page_get_error (ChronoDocumentPage *self)
{
  g_return_val_if_fail (CHRONO_IS_DOCUMENT_PAGE (self), NULL);
  return self->error;
}

/**
 * chrono_document_page_cancel:
 *
 * Stops loading. The page turns to %CHRONO_DOCUMENT_STATE_CANCELLED once
 * the loading thread has let go.
 */
void
chrono_document_page_cancel (ChronoDocumentPage *self)
{
  g_return_if_fail (CHRONO_IS_DOCUMENT_PAGE (self));

  if (self->state == CHRONO_DOCUMENT_STATE_LOADING)
    g_cancellable_cancel (self->cancellable);
}

/**
 * chrono_document_page_get_timeline_view:
 *
 * Returns: (transfer none) (nullable): the timeline, or %NULL until the
 *   trace has loaded
 */
ChronoTimelineView *
chrono_document_page_get_timeline_view (ChronoDocumentPage *self)
{
  g_return_val_if_fail (CHRONO_IS_DOCUMENT_PAGE (self), NULL);
  return self->timeline_view;
}

/**
 * chrono_document_page_start_search:
 *
 * Shows the timeline with its search bar open. Does nothing until the
 * trace has loaded.
 */
void
chrono_document_page_start_search (ChronoDocumentPage *self)
{
  g_return_if_fail (CHRONO_IS_DOCUMENT_PAGE (self));

  if (self->timeline_view == NULL)
    return;
  adw_view_stack_set_visible_child_name (self->view_stack, "timeline");
  chrono_timeline_view_start_search (self->timeline_view);
}

/**
 * chrono_document_page_find:
 * @direction: 1 for the next match, -1 for the previous one
 *
 * Goes to a match of the search, opening the search when it is closed.
 */
void
chrono_document_page_find (ChronoDocumentPage *self,
                           int                 direction)
{
  g_return_if_fail (CHRONO_IS_DOCUMENT_PAGE (self));

  if (self->timeline_view == NULL)
    return;
  if (!gtk_search_bar_get_search_mode (chrono_timeline_view_get_search_bar (self->timeline_view)))
    chrono_document_page_start_search (self);
  else
    chrono_timeline_view_find (self->timeline_view, direction);
}

gboolean
chrono_document_page_get_show_findings (ChronoDocumentPage *self)
{
  g_return_val_if_fail (CHRONO_IS_DOCUMENT_PAGE (self), FALSE);
  return self->show_findings;
}

void
chrono_document_page_set_show_findings (ChronoDocumentPage *self,
                                        gboolean            show)
{
  g_return_if_fail (CHRONO_IS_DOCUMENT_PAGE (self));

  show = !!show;
  if (self->show_findings == show)
    return;
  self->show_findings = show;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_FINDINGS]);
}

gboolean
chrono_document_page_get_show_graph (ChronoDocumentPage *self)
{
  g_return_val_if_fail (CHRONO_IS_DOCUMENT_PAGE (self), FALSE);
  return self->show_graph;
}

void
chrono_document_page_set_show_graph (ChronoDocumentPage *self,
                                     gboolean            show)
{
  g_return_if_fail (CHRONO_IS_DOCUMENT_PAGE (self));

  show = !!show;
  if (self->show_graph == show)
    return;
  self->show_graph = show;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_GRAPH]);
}

gboolean
chrono_document_page_get_show_notes (ChronoDocumentPage *self)
{
  g_return_val_if_fail (CHRONO_IS_DOCUMENT_PAGE (self), FALSE);
  return self->show_notes;
}

void
chrono_document_page_set_show_notes (ChronoDocumentPage *self,
                                     gboolean            show)
{
  g_return_if_fail (CHRONO_IS_DOCUMENT_PAGE (self));

  show = !!show;
  if (self->show_notes == show)
    return;
  self->show_notes = show;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_NOTES]);
}
