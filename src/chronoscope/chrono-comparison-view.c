/* chrono-comparison-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "chrono-error-dialog.h"
#include "chrono-analysis-settings.h"
#include "chrono-application.h"
#include "chrono-comparison-job.h"
#include "chrono-comparison-view.h"
#include "chrono-export-dialog.h"
#include "chrono-format.h"
#include "chrono-picture.h"

/* Progress shows this often while the worker runs. */
#define PROGRESS_INTERVAL_MS 100

/* The used pairs' windows, side by side. */
typedef struct {
  gint64 start[2];
  gint64 end[2];
} Pair;

struct _ChronoComparisonView
{
  GtkWidget             parent_instance;

  ChronoTrace          *trace_a;
  ChronoComparisonSetup *setup;

  ChronoComparisonJob  *job;
  GCancellable         *cancellable;
  guint                 progress_source;
  ChronoComparison     *comparison;
  GError               *error;
  GArray               *pairs;    /* Pair */
  gboolean              syncing;  /* one viewport follows the other */
  GCancellable         *highlight_cancellable;
  GtkFileChooserNative *chooser;

  GtkStack             *state_stack;
  GtkLabel             *title_label;
  GtkLabel             *progress_label;
  GtkProgressBar       *progress_bar;
  AdwStatusPage        *error_page;
  GtkLabel             *header_a;
  GtkLabel             *header_b;
  GtkBox               *timeline_box_a;
  GtkBox               *timeline_box_b;
  ChronoDiffTable      *diff_table;
  ChronoComparisonMemoryView *memory_view;
  ChronoDiffFlame      *diff_flame;
  GtkPopover           *align_popover;
  GtkDropDown          *align_dropdown;
  GtkEntry             *marker_entry;
  GtkCheckButton       *steps_check;
  GtkSpinButton        *first_spin;
  GtkSpinButton        *last_spin;
  GtkWidget            *align_apply_button;
  ChronoTimeline       *timelines[2];
};

G_DEFINE_FINAL_TYPE (ChronoComparisonView, chrono_comparison_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_COMPARISON,
  PROP_STRETCH,
  N_PROPS
};

enum {
  CLOSE_REQUESTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* -------------------------------------------------------------------- */
/* Linked viewports                                                     */

/* The pair whose window on SIDE starts last at or before TIME_NS, or the
 * first one. */
static const Pair *
find_pair (ChronoComparisonView *self,
           guint                 side,
           gint64                time_ns)
{
  const Pair *found = &g_array_index (self->pairs, Pair, 0);

  for (guint i = 1; i < self->pairs->len; i++)
    {
      const Pair *pair = &g_array_index (self->pairs, Pair, i);

      if (pair->start[side] > time_ns)
        break;
      found = pair;
    }
  return found;
}

/* B's nanoseconds per A's in PAIR: its step's length over A's when
 * stretched. */
static double
get_scale (ChronoComparisonView *self,
           const Pair           *pair)
{
  gint64 a = pair->end[0] - pair->start[0], b = pair->end[1] - pair->start[1];

  return self->setup->stretch && a > 0 && b > 0 ? (double) b / a : 1.0;
}

/* The rulers count from the start of the pair in view. */
static void
set_zeros (ChronoComparisonView *self,
           const Pair           *pair)
{
  for (guint side = 0; side < 2; side++)
    chrono_timeline_scene_set_time_zero (chrono_timeline_get_scene (self->timelines[side]), pair->start[side],
                                         _("Time from step start"));
}

/* Moves the other side's viewport to show what FROM's shows: the same
 * time from the start of the pair at FROM's centre, scaled when B is
 * stretched. */
static void
follow (ChronoComparisonView *self,
        guint                 from)
{
  ChronoViewport *source, *target;
  gint64 start, end;
  const Pair *pair;
  double scale;
  guint to = 1 - from;

  if (self->syncing || self->timelines[0] == NULL || self->pairs->len == 0)
    return;
  source = chrono_timeline_get_viewport (self->timelines[from]);
  target = chrono_timeline_get_viewport (self->timelines[to]);
  start = chrono_viewport_get_start_ns (source);
  end = chrono_viewport_get_end_ns (source);
  pair = find_pair (self, from, start + (end - start) / 2);
  scale = get_scale (self, pair);
  if (from == 1)
    scale = 1 / scale;

  self->syncing = TRUE;
  chrono_viewport_zoom_to_range (target,
                                 pair->start[to] + (gint64) llround ((start - pair->start[from]) * scale),
                                 pair->start[to] + (gint64) llround ((end - pair->start[from]) * scale));
  set_zeros (self, pair);
  self->syncing = FALSE;
}

static void
viewport_a_changed_cb (ChronoComparisonView *self)
{
  follow (self, 0);
}

static void
viewport_b_changed_cb (ChronoComparisonView *self)
{
  follow (self, 1);
}

/* -------------------------------------------------------------------- */
/* Headers                                                              */

static gint64
mean_step_ns (ChronoComparisonView *self,
              guint                 side)
{
  gint64 sum = 0;

  for (guint i = 0; i < self->pairs->len; i++)
    {
      const Pair *pair = &g_array_index (self->pairs, Pair, i);

      sum += pair->end[side] - pair->start[side];
    }
  return self->pairs->len > 0 ? sum / (gint64) self->pairs->len : 0;
}

static void
update_headers (ChronoComparisonView *self)
{
  GtkLabel *labels[2] = { self->header_a, self->header_b };
  gint64 step[2];

  if (self->comparison == NULL)
    return;
  for (guint side = 0; side < 2; side++)
    step[side] = mean_step_ns (self, side);
  for (guint side = 0; side < 2; side++)
    {
      ChronoAnalysis *analysis = chrono_comparison_get_analysis (self->comparison, side);
      g_autofree char *name = g_path_get_basename (chrono_trace_get_path (chrono_analysis_get_trace (analysis, 0)));
      g_autofree char *time = chrono_format_duration (step[side]);
      guint n = self->pairs->len;
      g_autofree char *steps = chrono_comparison_get_align (self->comparison) == CHRONO_COMPARE_ALIGN_STEP
        /* Translators: the mean time of the steps compared, and how many */
        ? g_strdup_printf (ngettext ("step %s, mean of %u step", "step %s, mean of %u steps", n), time, n)
        /* Translators: the mean length of the windows compared (markers or the whole trace) */
        : g_strdup_printf (ngettext ("window %s, mean of %u", "window %s, mean of %u", n), time, n);
      g_autofree char *stretched = NULL;
      g_autofree char *markup = NULL;

      if (side == 1 && self->setup->stretch)
        /* Translators: B's time is scaled, step by step, to A's */
        stretched = g_strdup (_(" · stretched to A's steps"));
      markup = g_markup_printf_escaped ("<b>%s</b>  %s — %s — %s%s", side == 0 ? "A" : "B", name,
                                        chrono_comparison_get_device_name (self->comparison, side), steps,
                                        stretched != NULL ? stretched : "");
      gtk_label_set_markup (labels[side], markup);
    }
}

/* -------------------------------------------------------------------- */
/* The comparison once made                                             */

static void
collect_pairs (ChronoComparisonView *self)
{
  g_array_set_size (self->pairs, 0);
  for (guint i = 0; i < chrono_comparison_get_n_pairs (self->comparison); i++)
    {
      const ChronoComparePair *p = chrono_comparison_get_pair (self->comparison, i);
      const ChronoCompareWindow *a, *b;
      Pair pair;

      if (!p->used || p->a < 0 || p->b < 0)
        continue;
      a = chrono_comparison_get_window (self->comparison, CHRONO_COMPARE_SIDE_A, p->a);
      b = chrono_comparison_get_window (self->comparison, CHRONO_COMPARE_SIDE_B, p->b);
      pair = (Pair) { { a->start_ns, b->start_ns }, { a->end_ns, b->end_ns } };
      g_array_append_val (self->pairs, pair);
    }
}

static void
show_comparison (ChronoComparisonView *self)
{
  GtkBox *boxes[2] = { self->timeline_box_a, self->timeline_box_b };
  GCallback followers[2] = { G_CALLBACK (viewport_a_changed_cb), G_CALLBACK (viewport_b_changed_cb) };

  collect_pairs (self);
  for (guint side = 0; side < 2; side++)
    {
      ChronoTrace *trace = chrono_comparison_job_get_trace (self->job, side);
      ChronoViewport *viewport;

      self->timelines[side] = CHRONO_TIMELINE (chrono_timeline_new_indexed (trace,
                                                                            chrono_comparison_job_get_indexes (self->job, side)));
      gtk_widget_set_vexpand (GTK_WIDGET (self->timelines[side]), TRUE);
      g_object_bind_property (adw_style_manager_get_default (), "dark", self->timelines[side], "dark",
                              G_BINDING_SYNC_CREATE);
      chrono_timeline_scene_set_badge (chrono_timeline_get_scene (self->timelines[side]), side == 0 ? "A" : "B");
      gtk_box_append (boxes[side], GTK_WIDGET (self->timelines[side]));
      viewport = chrono_timeline_get_viewport (self->timelines[side]);
      g_signal_connect_object (viewport, "notify::start-ns", followers[side], self, G_CONNECT_SWAPPED);
      g_signal_connect_object (viewport, "notify::end-ns", followers[side], self, G_CONNECT_SWAPPED);
      /* B's width follows its own widget; the window follows A's. */
      g_signal_connect_object (viewport, "notify::width-px", followers[0], self, G_CONNECT_SWAPPED);
    }
  /* The first pair fills the view; B follows. */
  if (self->pairs->len > 0)
    {
      const Pair *first = &g_array_index (self->pairs, Pair, 0);

      chrono_viewport_zoom_to_range (chrono_timeline_get_viewport (self->timelines[0]), first->start[0],
                                     first->end[0]);
      follow (self, 0);
    }
  chrono_diff_table_set_comparison (self->diff_table, self->comparison);
  chrono_comparison_memory_view_set_comparison (self->memory_view, self->comparison);
  update_headers (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "comparison.export-picture", TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "comparison.export-report", TRUE);
  gtk_stack_set_visible_child_name (self->state_stack, "comparison");
}

static gboolean
show_progress_cb (gpointer user_data)
{
  ChronoComparisonView *self = user_data;
  double fraction;
  g_autofree char *stage = chrono_comparison_job_dup_progress (self->job, &fraction);

  gtk_label_set_text (self->progress_label, stage);
  if (fraction < 0)
    gtk_progress_bar_pulse (self->progress_bar);
  else
    gtk_progress_bar_set_fraction (self->progress_bar, fraction);
  return G_SOURCE_CONTINUE;
}

static void
run_done_cb (GObject      *source_object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(ChronoComparisonView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoComparison) comparison = NULL;
  g_autofree char *description = NULL;

  comparison = chrono_comparison_job_run_finish (CHRONO_COMPARISON_JOB (source_object), result, &error);
  /* Disposed meanwhile, or run again with other options. */
  if (CHRONO_COMPARISON_JOB (source_object) != self->job)
    return;
  g_clear_handle_id (&self->progress_source, g_source_remove);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "comparison.cancel", FALSE);
  if (comparison != NULL)
    {
      self->comparison = g_steal_pointer (&comparison);
      show_comparison (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPARISON]);
      return;
    }
  self->error = g_steal_pointer (&error);
  description = g_markup_escape_text (self->error->message, -1);
  adw_status_page_set_title (self->error_page,
                             g_error_matches (self->error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                               ? _("Comparison Cancelled") : _("Could Not Compare"));
  adw_status_page_set_description (self->error_page, description);
  gtk_stack_set_visible_child_name (self->state_stack, "error");
}

/* Runs the comparison: again from PREVIOUS (a job that succeeded) when
 * there is one, else from A and TRACE_B, or B's file when that is NULL. */
static void
start (ChronoComparisonView *self,
       ChronoComparisonJob  *previous,
       ChronoTrace          *trace_b)
{
  GtkApplication *application = GTK_APPLICATION (g_application_get_default ());
  GSettings *settings = CHRONO_IS_APPLICATION (application)
    ? chrono_application_get_settings (CHRONO_APPLICATION (application)) : NULL;
  g_autoptr(GSettings) thresholds = settings != NULL ? g_settings_get_child (settings, CHRONO_ANALYSIS_SCHEMA_CHILD)
                                                     : NULL;
  g_autofree char *name = g_path_get_basename (self->setup->path_b);
  g_autofree char *label = NULL;

  self->job = previous != NULL
    ? chrono_comparison_job_new_again (previous, &self->setup->options)
    : chrono_comparison_job_new (self->trace_a, trace_b, self->setup->path_b, &self->setup->options, thresholds);
  self->cancellable = g_cancellable_new ();
  self->progress_source = g_timeout_add (PROGRESS_INTERVAL_MS, show_progress_cb, self);
  show_progress_cb (self);
  /* Translators: the view's title while it runs: B's file */
  label = g_strdup_printf (_("Comparing with “%s”"), name);
  gtk_label_set_text (self->title_label, label);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "comparison.cancel", TRUE);
  chrono_comparison_job_run_async (self->job, self->cancellable, run_done_cb, g_object_ref (self));
}

/* -------------------------------------------------------------------- */
/* Alignment                                                            */

/* The drop-down's items, in order. */
static const ChronoCompareAlign align_items[] = {
  CHRONO_COMPARE_ALIGN_AUTO, CHRONO_COMPARE_ALIGN_STEP, CHRONO_COMPARE_ALIGN_MARKER, CHRONO_COMPARE_ALIGN_START,
};

/* Everything the last run showed goes; what it loaded, indexed and
 * analysed stays when it succeeded. */
static void
restart (ChronoComparisonView *self)
{
  g_autoptr(ChronoComparisonJob) previous = NULL;
  GtkBox *boxes[2] = { self->timeline_box_a, self->timeline_box_b };

  if (self->comparison != NULL)
    previous = g_object_ref (self->job);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->highlight_cancellable);
  g_clear_object (&self->highlight_cancellable);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  for (guint side = 0; side < 2; side++)
    if (self->timelines[side] != NULL)
      {
        gtk_box_remove (boxes[side], GTK_WIDGET (self->timelines[side]));
        self->timelines[side] = NULL;
      }
  chrono_diff_table_set_comparison (self->diff_table, NULL);
  g_clear_object (&self->comparison);
  g_clear_error (&self->error);
  g_clear_object (&self->job);
  g_array_set_size (self->pairs, 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "comparison.export-picture", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "comparison.export-report", FALSE);
  gtk_stack_set_visible_child_name (self->state_stack, "loading");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPARISON]);
  start (self, previous, NULL);
}

static void
align_controls_changed_cb (ChronoComparisonView *self)
{
  gboolean marker = align_items[gtk_drop_down_get_selected (self->align_dropdown)] == CHRONO_COMPARE_ALIGN_MARKER;
  gboolean steps = gtk_check_button_get_active (self->steps_check);

  gtk_widget_set_sensitive (GTK_WIDGET (self->marker_entry), marker);
  gtk_widget_set_sensitive (GTK_WIDGET (self->first_spin), steps);
  gtk_widget_set_sensitive (GTK_WIDGET (self->last_spin), steps);
  gtk_widget_set_sensitive (self->align_apply_button,
                            !marker || gtk_entry_get_text_length (self->marker_entry) > 0);
}

/* The controls show what the view compares by. */
static void
align_popover_show_cb (ChronoComparisonView *self)
{
  const ChronoCompareOptions *options = &self->setup->options;

  for (guint i = 0; i < G_N_ELEMENTS (align_items); i++)
    if (align_items[i] == options->align)
      gtk_drop_down_set_selected (self->align_dropdown, i);
  gtk_editable_set_text (GTK_EDITABLE (self->marker_entry), options->marker != NULL ? options->marker : "");
  gtk_check_button_set_active (self->steps_check, options->has_steps);
  if (options->has_steps)
    {
      gtk_spin_button_set_value (self->first_spin, options->first_step);
      gtk_spin_button_set_value (self->last_spin, options->last_step);
    }
  align_controls_changed_cb (self);
}

static void
align_apply_cb (ChronoComparisonView *self)
{
  ChronoCompareOptions options;
  g_autofree char *marker = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->marker_entry)));
  gint64 first = gtk_spin_button_get_value_as_int (self->first_spin);
  gint64 last = gtk_spin_button_get_value_as_int (self->last_spin);

  chrono_compare_options_init (&options);
  options.align = align_items[gtk_drop_down_get_selected (self->align_dropdown)];
  if (options.align == CHRONO_COMPARE_ALIGN_MARKER)
    options.marker = marker;
  options.has_steps = gtk_check_button_get_active (self->steps_check);
  options.first_step = MIN (first, last);
  options.last_step = MAX (first, last);
  gtk_popover_popdown (self->align_popover);
  chrono_comparison_view_set_options (self, &options);
}

/* -------------------------------------------------------------------- */
/* Calls shown                                                          */

typedef struct {
  ChronoDiffKind kind;
  char          *name;
  ChronoTrace   *traces[2];
  ChronoSearch  *searches[2];
} HighlightJob;

static void
highlight_job_free (gpointer data)
{
  HighlightJob *job = data;

  g_free (job->name);
  for (guint i = 0; i < 2; i++)
    {
      g_clear_object (&job->traces[i]);
      g_clear_object (&job->searches[i]);
    }
  g_free (job);
}

static gboolean
same_operator_cb (const char *name,
                  gpointer    user_data)
{
  return strcmp (name, user_data) == 0;
}

static gboolean
same_kernel_cb (const char *name,
                gpointer    user_data)
{
  g_autofree char *normalised = chrono_compare_normalise_kernel (name);

  return strcmp (normalised, user_data) == 0;
}

static void
highlight_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  HighlightJob *job = task_data;

  for (guint i = 0; i < 2; i++)
    job->searches[i] = chrono_search_new_for_names (job->traces[i], job->name,
                                                    job->kind == CHRONO_DIFF_OPERATORS ? same_operator_cb
                                                                                       : same_kernel_cb,
                                                    job->name, cancellable);
  if (!g_task_return_error_if_cancelled (task))
    g_task_return_boolean (task, TRUE);
}

static void
highlight_done_cb (GObject      *source_object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ChronoComparisonView *self = CHRONO_COMPARISON_VIEW (source_object);
  HighlightJob *job = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), NULL) || self->timelines[0] == NULL)
    return;
  for (guint i = 0; i < 2; i++)
    {
      ChronoViewport *viewport = chrono_timeline_get_viewport (self->timelines[i]);
      ChronoSpanRef match;

      chrono_timeline_set_search (self->timelines[i], job->searches[i]);
      /* The track of the first call in view comes into sight; the time
       * window stays, so that both sides stay aligned. */
      if (chrono_search_find_from (job->searches[i], chrono_viewport_get_start_ns (viewport), &match) &&
          chrono_trace_get_track (job->traces[i], match.track)->start[match.index] <
            chrono_viewport_get_end_ns (viewport))
        chrono_timeline_scroll_to_track (self->timelines[i], match.track);
    }
}

void
chrono_comparison_view_highlight_calls (ChronoComparisonView *self,
                                        ChronoDiffKind        kind,
                                        const char           *name)
{
  g_autoptr(GTask) task = NULL;
  HighlightJob *job;

  g_return_if_fail (CHRONO_IS_COMPARISON_VIEW (self));

  g_cancellable_cancel (self->highlight_cancellable);
  g_clear_object (&self->highlight_cancellable);
  if (self->timelines[0] == NULL)
    return;
  if (name == NULL)
    {
      for (guint i = 0; i < 2; i++)
        chrono_timeline_set_search (self->timelines[i], NULL);
      return;
    }
  job = g_new0 (HighlightJob, 1);
  job->kind = kind;
  job->name = g_strdup (name);
  for (guint i = 0; i < 2; i++)
    job->traces[i] = g_object_ref (chrono_timeline_get_trace (self->timelines[i]));
  self->highlight_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->highlight_cancellable, highlight_done_cb, NULL);
  g_task_set_source_tag (task, chrono_comparison_view_highlight_calls);
  g_task_set_task_data (task, job, highlight_job_free);
  g_task_run_in_thread (task, highlight_thread);
}

static void
row_activated_cb (ChronoComparisonView *self,
                  ChronoDiffRow        *row)
{
  chrono_comparison_view_highlight_calls (self, chrono_diff_row_get_kind (row), chrono_diff_row_get_row (row)->name);
}

/* An operator's frame is keyed by name and shapes, as the table's rows
 * are; its calls are found by the name alone, as the table's are. */
static const char *
operator_name (ChronoComparison *comparison,
               const char       *key)
{
  for (guint i = 0; i < chrono_comparison_get_n_ops (comparison); i++)
    {
      const ChronoCompareRow *row = chrono_comparison_get_op (comparison, i);

      if (g_strcmp0 (row->key, key) == 0)
        return row->name;
    }
  return key;
}

/* A frame of the flame graph shows its calls as a row of the table does;
 * the step, a module or the time with no work show all alike again. */
static void
flame_calls_selected_cb (ChronoComparisonView  *self,
                         const ChronoFlameNode *node)
{
  if (self->comparison == NULL)
    return;
  if (node->kind == CHRONO_FLAME_OPERATOR)
    chrono_comparison_view_highlight_calls (self, CHRONO_DIFF_OPERATORS,
                                            operator_name (self->comparison, node->name));
  else if (node->kind == CHRONO_FLAME_KERNEL)
    chrono_comparison_view_highlight_calls (self, CHRONO_DIFF_KERNELS, node->name);
  else
    chrono_comparison_view_highlight_calls (self, CHRONO_DIFF_OPERATORS, NULL);
}

/* -------------------------------------------------------------------- */
/* Pictures and reports                                                 */

/* SIDE's timeline as it shows, as a scene of its own. */
static ChronoTimelineScene *
make_scene (ChronoComparisonView *self,
            guint                 side)
{
  ChronoTimeline *timeline = self->timelines[side];
  ChronoTimelineScene *shown = chrono_timeline_get_scene (timeline);
  ChronoViewport *viewport = chrono_timeline_get_viewport (timeline);
  g_autoptr(ChronoViewport) own = chrono_viewport_new ();
  ChronoTimelineScene *scene;
  const Pair *pair;

  chrono_viewport_set_bounds (own, chrono_viewport_get_bounds_start_ns (viewport),
                              chrono_viewport_get_bounds_end_ns (viewport));
  scene = chrono_timeline_scene_new (chrono_timeline_get_trace (timeline), NULL,
                                     chrono_timeline_get_track_layout (timeline), own);
  chrono_timeline_scene_set_pango_context (scene, gtk_widget_get_pango_context (GTK_WIDGET (timeline)));
  chrono_timeline_scene_set_dark (scene, chrono_timeline_get_dark (timeline));
  chrono_timeline_scene_set_badge (scene, chrono_timeline_scene_get_badge (shown));
  chrono_timeline_scene_set_search (scene, chrono_timeline_get_search (timeline));
  chrono_timeline_scene_set_size (scene, gtk_widget_get_width (GTK_WIDGET (timeline)),
                                  gtk_widget_get_height (GTK_WIDGET (timeline)));
  chrono_viewport_zoom_to_range (own, chrono_viewport_get_start_ns (viewport), chrono_viewport_get_end_ns (viewport));
  if (self->pairs->len > 0)
    {
      pair = find_pair (self, side, chrono_viewport_get_start_ns (viewport) +
                                    (chrono_viewport_get_end_ns (viewport) - chrono_viewport_get_start_ns (viewport)) / 2);
      chrono_timeline_scene_set_time_zero (scene, pair->start[side], _("Time from step start"));
    }
  return scene;
}

/* The subtitle names the files: the title stays short enough to show. */
static char *
dup_title (ChronoComparisonView *self)
{
  return g_strdup (_("Two runs compared"));
}

/* What the headers over the two halves say, for the picture. */
static char *
dup_subtitle (ChronoComparisonView *self)
{
  return g_strdup_printf ("%s    %s", gtk_label_get_text (self->header_a), gtk_label_get_text (self->header_b));
}

gboolean
chrono_comparison_view_write_picture (ChronoComparisonView *self,
                                      const char           *path,
                                      GError              **error)
{
  g_autoptr(ChronoTimelineScene) a = NULL;
  g_autoptr(ChronoTimelineScene) b = NULL;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  ChronoPictureFormat format;

  g_return_val_if_fail (CHRONO_IS_COMPARISON_VIEW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->timelines[0] == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("The comparison has not run"));
      return FALSE;
    }
  if (!chrono_picture_format_for_path (path, &format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _("%s: the name must end in .png, .svg or .pdf"), path);
      return FALSE;
    }
  a = make_scene (self, 0);
  b = make_scene (self, 1);
  title = dup_title (self);
  subtitle = dup_subtitle (self);
  return chrono_picture_write_stack ((ChronoTimelineScene *[]) { a, b }, 2,
                                     &(ChronoPictureOptions) { title, subtitle, TRUE, 1 }, format, path, error);
}

gboolean
chrono_comparison_view_write_report (ChronoComparisonView *self,
                                     const char           *path,
                                     GError              **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (CHRONO_IS_COMPARISON_VIEW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->comparison == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("The comparison has not run"));
      return FALSE;
    }
  text = chrono_comparison_to_markdown (self->comparison);
  /* Written aside and renamed over PATH. */
  return g_file_set_contents (path, text, -1, error);
}

static void
export_picture_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  ChronoComparisonView *self = CHRONO_COMPARISON_VIEW (widget);
  g_autoptr(ChronoTimelineScene) a = NULL;
  g_autoptr(ChronoTimelineScene) b = NULL;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  if (self->timelines[0] == NULL)
    return;
  a = make_scene (self, 0);
  b = make_scene (self, 1);
  title = dup_title (self);
  subtitle = dup_subtitle (self);
  gtk_window_present (GTK_WINDOW (chrono_export_dialog_new_for_stack (GTK_WINDOW (gtk_widget_get_root (widget)),
                                                                      (ChronoTimelineScene *[]) { a, b }, 2,
                                                                      title, subtitle, "comparison")));
}

static void
report_chooser_response_cb (GtkNativeDialog      *chooser,
                            int                   response,
                            ChronoComparisonView *self)
{
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL && !chrono_comparison_view_write_report (self, path, &error))
        chrono_show_error (GTK_WIDGET (self), _("Could Not Export the Report"), error);
    }
  g_clear_object (&self->chooser);
}

static void
export_report_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  ChronoComparisonView *self = CHRONO_COMPARISON_VIEW (widget);

  if (self->comparison == NULL)
    return;
  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Export Report"), GTK_WINDOW (gtk_widget_get_root (widget)),
                                               GTK_FILE_CHOOSER_ACTION_SAVE, NULL, NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), "comparison.md");
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (report_chooser_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  ChronoComparisonView *self = CHRONO_COMPARISON_VIEW (widget);

  chrono_comparison_view_cancel (self);
  g_signal_emit (self, signals[CLOSE_REQUESTED], 0);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  chrono_comparison_view_cancel (CHRONO_COMPARISON_VIEW (widget));
}

/* -------------------------------------------------------------------- */
/* The type                                                             */

static void
chrono_comparison_view_dispose (GObject *object)
{
  ChronoComparisonView *self = CHRONO_COMPARISON_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->highlight_cancellable);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_object (&self->job);
  g_clear_object (&self->chooser);
  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_COMPARISON_VIEW);
  self->timelines[0] = self->timelines[1] = NULL;

  G_OBJECT_CLASS (chrono_comparison_view_parent_class)->dispose (object);
}

static void
chrono_comparison_view_finalize (GObject *object)
{
  ChronoComparisonView *self = CHRONO_COMPARISON_VIEW (object);

  g_clear_object (&self->trace_a);
  g_clear_object (&self->comparison);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->highlight_cancellable);
  g_clear_error (&self->error);
  g_clear_pointer (&self->pairs, g_array_unref);
  g_clear_pointer (&self->setup, chrono_comparison_setup_free);

  G_OBJECT_CLASS (chrono_comparison_view_parent_class)->finalize (object);
}

static void
chrono_comparison_view_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  ChronoComparisonView *self = CHRONO_COMPARISON_VIEW (object);

  switch (prop_id)
    {
    case PROP_COMPARISON:
      g_value_set_object (value, self->comparison);
      break;
    case PROP_STRETCH:
      g_value_set_boolean (value, self->setup->stretch);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_comparison_view_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  ChronoComparisonView *self = CHRONO_COMPARISON_VIEW (object);

  switch (prop_id)
    {
    case PROP_STRETCH:
      chrono_comparison_view_set_stretch (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_comparison_view_class_init (ChronoComparisonViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_comparison_view_dispose;
  object_class->finalize = chrono_comparison_view_finalize;
  object_class->get_property = chrono_comparison_view_get_property;
  object_class->set_property = chrono_comparison_view_set_property;

  /* What the pages below the timelines show. */
  properties[PROP_COMPARISON] =
    g_param_spec_object ("comparison", NULL, NULL, CHRONO_TYPE_COMPARISON,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STRETCH] =
    g_param_spec_boolean ("stretch", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * ChronoComparisonView::close-requested:
   *
   * The person closed the comparison; whoever holds the view removes it.
   */
  signals[CLOSE_REQUESTED] =
    g_signal_new ("close-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_install_property_action (widget_class, "comparison.stretch", "stretch");
  gtk_widget_class_install_action (widget_class, "comparison.export-picture", NULL, export_picture_action);
  gtk_widget_class_install_action (widget_class, "comparison.export-report", NULL, export_report_action);
  gtk_widget_class_install_action (widget_class, "comparison.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "comparison.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_t, GDK_ALT_MASK, "comparison.stretch", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "comparison.export-picture", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "comparison.export-report", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "comparisonview");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-comparison-view.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, state_stack);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, title_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, progress_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, error_page);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, header_a);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, header_b);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, timeline_box_a);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, timeline_box_b);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, diff_flame);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, diff_table);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, memory_view);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, align_popover);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, align_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, marker_entry);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, steps_check);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, first_spin);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, last_spin);
  gtk_widget_class_bind_template_child (widget_class, ChronoComparisonView, align_apply_button);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, flame_calls_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, align_popover_show_cb);
  gtk_widget_class_bind_template_callback (widget_class, align_controls_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, align_apply_cb);

  g_type_ensure (CHRONO_TYPE_DIFF_TABLE);
  g_type_ensure (CHRONO_TYPE_DIFF_FLAME);
  g_type_ensure (CHRONO_TYPE_COMPARISON_MEMORY_VIEW);
}

static void
chrono_comparison_view_init (ChronoComparisonView *self)
{
  self->pairs = g_array_new (FALSE, FALSE, sizeof (Pair));
  gtk_widget_init_template (GTK_WIDGET (self));
  g_object_bind_property (self, "comparison", self->diff_flame, "comparison", G_BINDING_SYNC_CREATE);
  g_object_bind_property (adw_style_manager_get_default (), "dark", self->diff_flame, "dark",
                          G_BINDING_SYNC_CREATE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "comparison.export-picture", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "comparison.export-report", FALSE);
}

GtkWidget *
chrono_comparison_view_new (ChronoTrace                 *trace_a,
                            ChronoTrace                 *trace_b,
                            const ChronoComparisonSetup *setup)
{
  ChronoComparisonView *self;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace_a), NULL);
  g_return_val_if_fail (trace_b == NULL || CHRONO_IS_TRACE (trace_b), NULL);
  g_return_val_if_fail (setup != NULL, NULL);

  self = g_object_new (CHRONO_TYPE_COMPARISON_VIEW, NULL);
  self->trace_a = g_object_ref (trace_a);
  self->setup = chrono_comparison_setup_copy (setup);
  start (self, NULL, trace_b);
  return GTK_WIDGET (self);
}

ChronoComparison *
chrono_comparison_view_get_comparison (ChronoComparisonView *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_VIEW (self), NULL);
  return self->comparison;
}

const GError *
chrono_comparison_view_get_error (ChronoComparisonView *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_VIEW (self), NULL);
  return self->error;
}

/**
 * chrono_comparison_view_get_setup:
 *
 * Returns: (transfer none): what it compares, and how; its stretch
 *   follows the view's
 */
const ChronoComparisonSetup *
chrono_comparison_view_get_setup (ChronoComparisonView *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_VIEW (self), NULL);
  return self->setup;
}

void
chrono_comparison_view_cancel (ChronoComparisonView *self)
{
  g_return_if_fail (CHRONO_IS_COMPARISON_VIEW (self));
  g_cancellable_cancel (self->cancellable);
}

ChronoTimeline *
chrono_comparison_view_get_timeline (ChronoComparisonView *self,
                                     ChronoCompareSideId   side)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_VIEW (self), NULL);
  return self->timelines[side == CHRONO_COMPARE_SIDE_B];
}

ChronoComparisonMemoryView *
chrono_comparison_view_get_memory_view (ChronoComparisonView *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_VIEW (self), NULL);
  return self->memory_view;
}

ChronoDiffTable *
chrono_comparison_view_get_diff_table (ChronoComparisonView *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_VIEW (self), NULL);
  return self->diff_table;
}

gboolean
chrono_comparison_view_get_stretch (ChronoComparisonView *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_VIEW (self), FALSE);
  return self->setup->stretch;
}

void
chrono_comparison_view_set_stretch (ChronoComparisonView *self,
                                    gboolean              stretch)
{
  g_return_if_fail (CHRONO_IS_COMPARISON_VIEW (self));

  stretch = !!stretch;
  if (self->setup->stretch == stretch)
    return;
  self->setup->stretch = stretch;
  /* B is laid out again from A's view. */
  follow (self, 0);
  update_headers (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STRETCH]);
}

ChronoDiffFlame *
chrono_comparison_view_get_diff_flame (ChronoComparisonView *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_VIEW (self), NULL);
  return self->diff_flame;
}

/**
 * chrono_comparison_view_set_options:
 *
 * Compares again, the windows chosen as @options says (B is not loaded
 * again when it had loaded); the setup follows.
 */
void
chrono_comparison_view_set_options (ChronoComparisonView       *self,
                                    const ChronoCompareOptions *options)
{
  ChronoComparisonSetup *setup;

  g_return_if_fail (CHRONO_IS_COMPARISON_VIEW (self));
  g_return_if_fail (options != NULL);

  setup = chrono_comparison_setup_new (self->setup->path_b, options, self->setup->stretch);
  chrono_comparison_setup_free (self->setup);
  self->setup = setup;
  restart (self);
}
