/* chrono-document-page.c: one trace in a tab: loading, failed or loaded
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "chrono-application.h"
#include "chrono-comparison-view.h"
#include "chrono-document-page.h"
#include "chrono-findings-panel.h"
#include "chrono-format.h"
#include "chrono-graph-pane.h"
#include "chrono-load-banner.h"
#include "chrono-loader.h"
#include "chrono-neuron-navigation.h"
#include "chrono-neuron-ops-view.h"
#include "chrono-neuron-page.h"
#include "chrono-notes-panel.h"
#include "chrono-query-page.h"
#include "chrono-timeline-view.h"
#include "chrono-trace-set.h"
#include "chrono-track-index.h"
#include "chrono-trace-summary.h"

/* Progress reaches the main thread at most this often. */
#define PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 30)

/* Shared by the page (main thread) and the loading thread. */
typedef struct
{
  ChronoDocumentPage *page;  /* main thread only; NULL once the page stops listening */
  char              **paths;   /* one file or folder, or several files as one */
  GPtrArray          *indexes; /* the timeline's, built by the loading thread */

  GMutex              lock;
  guint64             done;
  guint64             total;
  gint64              posted_at;
  gboolean            posted;  /* an update waits in the main loop */
} LoadJob;

struct _ChronoDocumentPage
{
  GtkWidget            parent_instance;

  GFile               *file;     /* the first of FILES */
  GListModel          *files;    /* GFile: shown as one document */
  ChronoTrace         *trace;
  GError              *error;
  ChronoDocumentState  state;
  GCancellable        *cancellable;
  LoadJob             *job;

  GtkStack            *stack;
  GtkLabel            *file_label;
  GtkProgressBar      *progress_bar;
  AdwStatusPage       *error_page;
  AdwViewStack        *view_stack;
  GtkToggleButton     *search_button;
  GtkMenuButton       *tracks_button;
  ChronoTimelineView  *timeline_view;
  GtkToggleButton     *all_flows_button;
  GtkMenuButton       *compare_button;

  /* The comparison with another trace, and one asked for while loading. */
  ChronoComparisonView *comparison_view;
  ChronoComparisonSetup *pending_setup;
  ChronoTrace         *pending_trace_b;

  /* The analysis beside the timeline, and the graph below it. */
  gboolean             show_findings;
  gboolean             show_graph;
  GtkPaned            *outer_paned;   /* findings | the rest */
  GtkPaned            *vertical_paned; /* timeline over graph */
  /* The annotations on the right. */
  gboolean             show_notes;
  GtkPaned            *notes_paned;    /* the rest | notes */
  GtkWidget           *notes_panel;
  guint                build_source;  /* builds the rest of a loaded page */
  guint                build_stage;
};

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

static LoadJob *
load_job_new (ChronoDocumentPage *page,
              char              **paths)
{
  LoadJob *job = g_atomic_rc_box_new0 (LoadJob);

  job->page = page;
  job->paths = paths;
  g_mutex_init (&job->lock);
  return job;
}

static void
load_job_clear (LoadJob *job)
{
  g_strfreev (job->paths);
  g_clear_pointer (&job->indexes, g_ptr_array_unref);
  g_mutex_clear (&job->lock);
}

static void
load_job_unref (gpointer job)
{
  g_atomic_rc_box_release_full (job, (GDestroyNotify) load_job_clear);
}

static void
show_progress (ChronoDocumentPage *self,
               guint64             done,
               guint64             total)
{
  g_autofree char *done_text = g_strdup_printf ("%.1f", done / 1e6);
  g_autofree char *total_text = chrono_format_bytes (total);
  /* Translators: megabytes read of the total, "12.3 of 40.0 MB" */
  g_autofree char *text = g_strdup_printf (_("%s of %s"), done_text, total_text);

  gtk_progress_bar_set_fraction (self->progress_bar, total ? MIN (1.0, (double) done / total) : 0.0);
  gtk_progress_bar_set_text (self->progress_bar, text);
}

static gboolean
show_progress_cb (gpointer user_data)
{
  LoadJob *job = user_data;
  guint64 done, total;

  g_mutex_lock (&job->lock);
  done = job->done;
  total = job->total;
  job->posted = FALSE;
  g_mutex_unlock (&job->lock);

  if (job->page != NULL)
    show_progress (job->page, done, total);
  return G_SOURCE_REMOVE;
}

/* Runs on the loading thread, often: keep the latest numbers and wake the
 * main thread only when the last update was shown long enough ago. */
static void
load_progress_cb (guint64  done,
                  guint64  total,
                  gpointer user_data)
{
  LoadJob *job = user_data;
  gint64 now = g_get_monotonic_time ();
  gboolean post = FALSE;

  g_mutex_lock (&job->lock);
  job->done = done;
  job->total = total;
  if (!job->posted && now - job->posted_at >= PROGRESS_INTERVAL_US)
    {
      job->posted = TRUE;
      job->posted_at = now;
      post = TRUE;
    }
  g_mutex_unlock (&job->lock);

  /* Above redraw priority: while frames are slow, idle-priority updates
   * would wait until loading is over. Throttled, they cost the frames
   * nothing. */
  if (post)
    g_idle_add_full (G_PRIORITY_DEFAULT, show_progress_cb,
                     g_atomic_rc_box_acquire (job), load_job_unref);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadJob *job = task_data;
  GError *error = NULL;
  ChronoTrace *trace;

  /* A folder is one document (a Neuron profile, or several ranks), and so
   * are several files opened together. */
  if (job->paths[1] != NULL || g_file_test (job->paths[0], G_FILE_TEST_IS_DIR))
    trace = chrono_trace_load_set ((const char * const *) job->paths, cancellable,
                                   load_progress_cb, job, &error);
  else
    trace = chrono_trace_load_file (job->paths[0], cancellable, load_progress_cb, job, &error);
  if (trace == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* Indexed here too, so that the timeline shows without a pause. */
  job->indexes = chrono_track_index_new_all (trace, cancellable);
  if (job->indexes != NULL)
    g_task_return_pointer (task, trace, g_object_unref);
  else
    {
      g_task_return_error_if_cancelled (task);
      g_object_unref (trace);
    }
}

static void
set_state (ChronoDocumentPage  *self,
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
show_error (ChronoDocumentPage *self)
{
  g_autofree char *name = chrono_document_page_dup_title (self);
  g_autofree char *title = NULL;
  g_autofree char *description = g_markup_escape_text (self->error->message, -1);

  if (self->state == CHRONO_DOCUMENT_STATE_CANCELLED)
    title = g_strdup (_("Loading Cancelled"));
  else
    /* Translators: the file name, or “3 traces” */
    title = g_strdup_printf (_("Could Not Open “%s”"), name);
  adw_status_page_set_title (self->error_page, title);
  adw_status_page_set_description (self->error_page, description);
  gtk_stack_set_visible_child_name (self->stack, "error");
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

/* -------------------------------------------------------------------- */
/* Comparison                                                           */

static void
save_comparison (ChronoDocumentPage *self)
{
  g_autoptr(GError) error = NULL;

  if (!chrono_comparison_setup_save (self->comparison_view != NULL ? chrono_comparison_view_get_setup (self->comparison_view)
                                                                   : NULL,
                                     chrono_timeline_view_get_sidecar (self->timeline_view), &error))
    g_warning ("Could not save the comparison: %s", error->message);
}

static void
remove_comparison (ChronoDocumentPage *self)
{
  if (self->comparison_view == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->comparison_view, self);
  chrono_comparison_view_cancel (self->comparison_view);
  adw_view_stack_remove (self->view_stack, GTK_WIDGET (self->comparison_view));
  self->comparison_view = NULL;
}

static void
comparison_close_requested_cb (ChronoDocumentPage *self)
{
  remove_comparison (self);
  adw_view_stack_set_visible_child_name (self->view_stack, "timeline");
  save_comparison (self);
}

static void
start_comparison (ChronoDocumentPage          *self,
                  ChronoTrace                 *trace_b,
                  const ChronoComparisonSetup *setup,
                  gboolean                     show)
{
  AdwViewStackPage *page;

  remove_comparison (self);
  self->comparison_view = CHRONO_COMPARISON_VIEW (chrono_comparison_view_new (self->trace, trace_b, setup));
  page = adw_view_stack_add_titled (self->view_stack, GTK_WIDGET (self->comparison_view), "comparison",
                                    _("Comparison"));
  adw_view_stack_page_set_icon_name (page, "view-dual-symbolic");
  g_signal_connect_object (self->comparison_view, "close-requested", G_CALLBACK (comparison_close_requested_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->comparison_view, "notify::stretch", G_CALLBACK (save_comparison), self,
                           G_CONNECT_SWAPPED);
  /* Compared again by other windows, it is saved as it now is. */
  g_signal_connect_object (self->comparison_view, "notify::comparison", G_CALLBACK (save_comparison), self,
                           G_CONNECT_SWAPPED);
  if (show)
    adw_view_stack_set_visible_child_name (self->view_stack, "comparison");
  save_comparison (self);
}

/* What the project file kept: offered again beside the timeline, which
 * stays in front. */
static void
restore_comparison (ChronoDocumentPage *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoComparisonSetup) setup = chrono_comparison_setup_load (chrono_timeline_view_get_sidecar (self->timeline_view),
                                                                         &error);

  if (error != NULL)
    g_warning ("Ignoring the saved comparison of %s: %s", chrono_trace_get_path (self->trace), error->message);
  else if (setup != NULL && !g_file_test (setup->path_b, G_FILE_TEST_EXISTS))
    g_warning ("Not restoring the comparison of %s: %s is gone", chrono_trace_get_path (self->trace), setup->path_b);
  else if (setup != NULL)
    start_comparison (self, NULL, setup, FALSE);
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
      set_state (self, CHRONO_DOCUMENT_STATE_LOADED);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRACE]);
      if (self->pending_setup != NULL)
        {
          g_autoptr(ChronoComparisonSetup) setup = g_steal_pointer (&self->pending_setup);
          g_autoptr(ChronoTrace) trace_b = g_steal_pointer (&self->pending_trace_b);

          start_comparison (self, trace_b, setup, TRUE);
        }
      else
        restore_comparison (self);
      return G_SOURCE_REMOVE;
    }
}

static void
load_done_cb (GObject      *source_object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(ChronoDocumentPage) self = user_data;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(GPtrArray) indexes = NULL;
  g_autoptr(GError) error = NULL;

  trace = g_task_propagate_pointer (G_TASK (result), &error);
  if (self->job == NULL)  /* disposed while loading */
    return;
  self->job->page = NULL;
  indexes = g_steal_pointer (&self->job->indexes);
  g_clear_pointer (&self->job, load_job_unref);

  if (trace != NULL)
    {
      AdwViewStackPage *page;

      self->trace = g_steal_pointer (&trace);
      /* Built only now: a page that fails never pays for them. */
      page = adw_view_stack_add_titled (self->view_stack, create_timeline_view (self, indexes),
                                        "timeline", _("Timeline"));
      adw_view_stack_page_set_icon_name (page, "view-continuous-symbolic");
      adw_view_stack_set_visible_child_name (self->view_stack, "timeline");
      update_view_buttons (self);
      self->build_source = g_idle_add (build_next_cb, self);
      return;
    }

  self->error = g_steal_pointer (&error);
  if (g_error_matches (self->error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_error_matches (self->error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_CANCELLED))
    set_state (self, CHRONO_DOCUMENT_STATE_CANCELLED);
  else
    set_state (self, CHRONO_DOCUMENT_STATE_FAILED);
  show_error (self);
}

static void
chrono_document_page_load (ChronoDocumentPage *self)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *title = chrono_document_page_dup_title (self);
  guint n_files = g_list_model_get_n_items (self->files);
  g_auto(GStrv) paths = g_new0 (char *, n_files + 1);
  /* Translators: the file name, or “3 traces” */
  g_autofree char *loading = g_strdup_printf (_("Loading “%s”"), title);

  gtk_label_set_label (self->file_label, loading);
  gtk_progress_bar_set_text (self->progress_bar, _("Opening…"));

  for (guint i = 0; i < n_files; i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (self->files, i);

      if ((paths[i] = g_file_get_path (file)) == NULL)
        {
          g_autofree char *uri = g_file_get_uri (file);

          /* Traces are memory-mapped, which needs a local path. */
          self->error = g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                     _("%s: only local files can be opened"), uri);
          set_state (self, CHRONO_DOCUMENT_STATE_FAILED);
          show_error (self);
          return;
        }
    }

  self->job = load_job_new (self, g_steal_pointer (&paths));
  self->cancellable = g_cancellable_new ();
  /* The page rides in user_data, not as the source object, so that its last
   * reference is never dropped on the loading thread. */
  task = g_task_new (NULL, self->cancellable, load_done_cb, g_object_ref (self));
  g_task_set_source_tag (task, chrono_document_page_load);
  g_task_set_task_data (task, g_atomic_rc_box_acquire (self->job), load_job_unref);
  g_task_run_in_thread (task, load_thread);
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
  if (self->job != NULL)
    {
      self->job->page = NULL;
      g_clear_pointer (&self->job, load_job_unref);
    }
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

/**
 * chrono_document_page_compare_with:
 * @trace_b: (nullable): B, when it is open already
 * @setup: B's file and how to compare
 *
 * Compares this page's trace (A) with B in a view of the page, replacing
 * any comparison it had; B is @trace_b, or loaded from @setup's path. A
 * page still loading compares once it has loaded; one that failed does
 * nothing, showing why it failed.
 */
void
chrono_document_page_compare_with (ChronoDocumentPage          *self,
                                   ChronoTrace                 *trace_b,
                                   const ChronoComparisonSetup *setup)
{
  g_return_if_fail (CHRONO_IS_DOCUMENT_PAGE (self));
  g_return_if_fail (trace_b == NULL || CHRONO_IS_TRACE (trace_b));
  g_return_if_fail (setup != NULL);

  if (self->state == CHRONO_DOCUMENT_STATE_LOADED)
    start_comparison (self, trace_b, setup, TRUE);
  else if (self->state == CHRONO_DOCUMENT_STATE_LOADING)
    {
      g_clear_pointer (&self->pending_setup, chrono_comparison_setup_free);
      self->pending_setup = chrono_comparison_setup_copy (setup);
      g_set_object (&self->pending_trace_b, trace_b);
    }
}

/**
 * chrono_document_page_get_comparison_view:
 *
 * Returns: (transfer none) (nullable): the comparison with another trace
 */
ChronoComparisonView *
chrono_document_page_get_comparison_view (ChronoDocumentPage *self)
{
  g_return_val_if_fail (CHRONO_IS_DOCUMENT_PAGE (self), NULL);
  return self->comparison_view;
}

/**
 * chrono_document_page_get_compare_button:
 *
 * Returns: (transfer none): Compare With…, whose menu the window fills
 *   with its other traces
 */
GtkMenuButton *
chrono_document_page_get_compare_button (ChronoDocumentPage *self)
{
  g_return_val_if_fail (CHRONO_IS_DOCUMENT_PAGE (self), NULL);
  return self->compare_button;
}

/**
 * chrono_document_page_show_compare_menu:
 *
 * Opens Compare With…, once the trace has loaded.
 */
void
chrono_document_page_show_compare_menu (ChronoDocumentPage *self)
{
  g_return_if_fail (CHRONO_IS_DOCUMENT_PAGE (self));

  if (self->state == CHRONO_DOCUMENT_STATE_LOADED)
    gtk_menu_button_popup (self->compare_button);
}
