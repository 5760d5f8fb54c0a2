/* chrono-findings-panel.c: what the analysis found in a trace, beside its
 * timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "chrono-analysis-settings.h"
#include "chrono-background.h"
#include "chrono-application.h"
#include "chrono-efficiency-view.h"
#include "chrono-memory-view.h"
#include "chrono-export-dialog.h"
#include "chrono-findings-content.h"
#include "chrono-findings-panel.h"
#include "chrono-format.h"
#include "chrono-share-bar.h"

/* Settings are often changed a step at a time (spin buttons): wait for
 * them to settle before analysing again. */
#define RERUN_DELAY_MS     300
/* A finding's range fills this fraction of the view. */
#define FINDING_ZOOM_SHARE 0.8
/* Rows of a critical path listed; the rest are counted. */
#define MAX_SEGMENT_ROWS   400
/* Findings listed at first, and added at each "Show more": a row for
 * each of hundreds of findings, built and measured at once, holds the
 * window up for seconds. */
#define FINDING_ROWS_BATCH 50

struct _ChronoFindingsPanel
{
  GtkWidget       parent_instance;

  ChronoTimeline *timeline;
  ChronoAnalysis *analysis;
  GCancellable   *cancellable;
  GSettings      *settings;     /* the "analysis" child; NULL without a schema */
  guint           rerun_id;
  GPtrArray      *rule_ids;     /* per rule_dropdown item; NULL for every rule */

  GtkStack       *state_stack;
  GtkSpinner     *spinner;
  AdwStatusPage  *error_page;
  GtkBox         *summary_box;
  GtkLabel       *count_label;
  GtkWidget      *view_switcher;
  GtkDropDown    *rule_dropdown;
  GtkListBox     *findings_list;
  GtkWidget      *more_row;     /* "Show more" after the listed findings, or NULL */
  guint           next_finding; /* the first finding not yet looked at for a row */
  GtkBox         *breakdown_box;
  GtkDropDown    *path_dropdown;
  GtkToggleButton *path_toggle;
  GtkWidget      *path_graph_button;
  GtkBox         *path_summary;
  GtkListBox     *segments_list;
  ChronoEfficiencyView *efficiency_view;
  ChronoMemoryView *memory_view;
};

G_DEFINE_FINAL_TYPE (ChronoFindingsPanel, chrono_findings_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TIMELINE,
  PROP_ANALYSIS,
  PROP_ANALYSING,
  N_PROPS
};

enum {
  PATH_GRAPH_REQUESTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void start_analysis (ChronoFindingsPanel *self);

static ChronoTrace *
get_trace (ChronoFindingsPanel *self)
{
  return chrono_timeline_get_trace (self->timeline);
}

/* Findings */

/* The rule the list is filtered by, or NULL for every rule. */
static const char *
get_selected_rule (ChronoFindingsPanel *self)
{
  guint selected = gtk_drop_down_get_selected (self->rule_dropdown);

  if (selected == GTK_INVALID_LIST_POSITION || selected >= self->rule_ids->len)
    return NULL;
  return g_ptr_array_index (self->rule_ids, selected);
}

/* How many findings from FROM on the selected rule lets through. */
static guint
count_shown_findings (ChronoFindingsPanel *self,
                      guint                from)
{
  const char *rule = get_selected_rule (self);
  guint n_findings = chrono_analysis_get_n_findings (self->analysis);
  guint n = 0;

  for (guint i = from; i < n_findings; i++)
    n += rule == NULL || g_str_equal (chrono_analysis_get_finding (self->analysis, i)->rule, rule);
  return n;
}

/* Rows for the next batch of the findings the rule lets through, before
 * a row that adds the batch after them, if any is left. */
static void
append_finding_rows (ChronoFindingsPanel *self)
{
  const char *rule = get_selected_rule (self);
  guint n_findings = chrono_analysis_get_n_findings (self->analysis);
  int position = self->more_row != NULL ? gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (self->more_row)) : -1;
  GtkWidget *first = NULL;
  guint added = 0, rest;

  for (; self->next_finding < n_findings && added < FINDING_ROWS_BATCH; self->next_finding++)
    if (rule == NULL || g_str_equal (chrono_analysis_get_finding (self->analysis, self->next_finding)->rule, rule))
      {
        GtkWidget *row = chrono_findings_create_finding_row (self->analysis, get_trace (self), self->next_finding);

        gtk_list_box_insert (self->findings_list, row, position < 0 ? -1 : position + (int) added);
        first = first != NULL ? first : row;
        added++;
      }

  rest = count_shown_findings (self, self->next_finding);
  if (rest > 0)
    {
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Show %u More Finding",
                                                            "Show %u More Findings", MIN (rest, FINDING_ROWS_BATCH)),
                                               MIN (rest, FINDING_ROWS_BATCH));

      if (self->more_row == NULL)
        {
          self->more_row = chrono_findings_create_more_row ();
          gtk_list_box_append (self->findings_list, self->more_row);
        }
      gtk_label_set_label (GTK_LABEL (gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (self->more_row))), text);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->more_row), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
    }
  else if (self->more_row != NULL)
    {
      /* Keyboard focus stays in the list, on the first row it added. */
      gboolean had_focus = gtk_widget_has_focus (self->more_row);

      gtk_list_box_remove (self->findings_list, self->more_row);
      self->more_row = NULL;
      if (had_focus && first != NULL)
        gtk_widget_grab_focus (first);
    }
}

static void
clear_finding_rows (ChronoFindingsPanel *self)
{
  chrono_findings_remove_children (GTK_WIDGET (self->findings_list));
  self->more_row = NULL;
  self->next_finding = 0;
}

static guint
get_row_finding (GtkListBoxRow *row)
{
  return GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "finding"));
}

/* The list again, for the selected rule, with the selected finding still
 * selected if it is listed, else the first. */
static void
rule_selected_cb (ChronoFindingsPanel *self)
{
  GtkListBoxRow *selected = gtk_list_box_get_selected_row (self->findings_list);
  guint finding = selected != NULL ? get_row_finding (selected) : G_MAXUINT;
  g_autofree char *text = NULL;
  GtkListBoxRow *row;
  guint n;

  if (self->analysis == NULL)
    return;
  n = count_shown_findings (self, 0);
  clear_finding_rows (self);
  append_finding_rows (self);

  selected = row = gtk_list_box_get_row_at_index (self->findings_list, 0);
  for (int i = 0; row != NULL && row != GTK_LIST_BOX_ROW (self->more_row);
       row = gtk_list_box_get_row_at_index (self->findings_list, ++i))
    if (get_row_finding (row) == finding)
      selected = row;
  if (selected != NULL && selected != GTK_LIST_BOX_ROW (self->more_row))
    gtk_list_box_select_row (self->findings_list, selected);

  text = n == 0 ? g_strdup (_("No bottleneck found"))
                : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u finding", "%u findings", n), n);
  gtk_label_set_label (self->count_label, text);
}

static void
fill_findings (ChronoFindingsPanel *self)
{
  g_autoptr(GtkStringList) rules = gtk_string_list_new (NULL);
  guint n_findings = chrono_analysis_get_n_findings (self->analysis);
  guint n_rules;
  const ChronoRule *rule = chrono_analysis_get_rules (&n_rules);
  g_autofree char *all = NULL;

  /* The costliest with its advice, selected by rule_selected_cb below;
   * nothing moves until one is activated. */
  clear_finding_rows (self);
  /* Only the rules that found something, each with its count. */
  g_ptr_array_set_size (self->rule_ids, 0);
  all = g_strdup_printf (_("All Rules (%u)"), n_findings);
  gtk_string_list_append (rules, all);
  g_ptr_array_add (self->rule_ids, NULL);
  for (guint r = 0; r < n_rules; r++)
    {
      guint n = 0;

      for (guint i = 0; i < n_findings; i++)
        n += g_str_equal (chrono_analysis_get_finding (self->analysis, i)->rule, rule[r].id);
      if (n > 0)
        {
          g_autofree char *item = g_strdup_printf ("%s (%u)", g_dgettext (GETTEXT_PACKAGE, rule[r].title), n);

          gtk_string_list_append (rules, item);
          g_ptr_array_add (self->rule_ids, (gpointer) rule[r].id);
        }
    }
  g_signal_handlers_block_by_func (self->rule_dropdown, rule_selected_cb, self);
  gtk_drop_down_set_model (self->rule_dropdown, G_LIST_MODEL (rules));
  gtk_drop_down_set_selected (self->rule_dropdown, 0);
  g_signal_handlers_unblock_by_func (self->rule_dropdown, rule_selected_cb, self);
  gtk_widget_set_sensitive (GTK_WIDGET (self->rule_dropdown), n_findings > 0);
  rule_selected_cb (self);
}

/* Selects SPAN as a click on the timeline would, so the details follow. */
static void
select_span (ChronoFindingsPanel *self,
             ChronoSpanRef        span)
{
  chrono_timeline_select (self->timeline, &span);
  g_signal_emit_by_name (self->timeline, "span-activated", span.track, span.index);
}

static void
zoom_to (ChronoFindingsPanel *self,
         gint64               start_ns,
         gint64               end_ns)
{
  gint64 length = MAX (end_ns - start_ns, CHRONO_VIEWPORT_MIN_DURATION_NS);
  gint64 margin = (gint64) (length * (1 - FINDING_ZOOM_SHARE) / (2 * FINDING_ZOOM_SHARE));

  chrono_viewport_zoom_to_range (chrono_timeline_get_viewport (self->timeline),
                                 start_ns - margin, start_ns + length + margin);
}

static void
finding_selected_cb (GtkListBox          *list,
                     GtkListBoxRow       *selected,
                     ChronoFindingsPanel *self)
{
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (list)); row; row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *label = g_object_get_data (G_OBJECT (row), "recommendation");

      if (label != NULL)
        gtk_widget_set_visible (label, row == GTK_WIDGET (selected));
    }
}

/* The selected finding's picture, in the export dialog. */
static void
export_picture_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  ChronoFindingsPanel *self = CHRONO_FINDINGS_PANEL (widget);
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->findings_list);
  const ChronoFinding *finding;

  if (self->analysis == NULL || row == NULL)
    return;
  finding = chrono_analysis_get_finding (self->analysis, get_row_finding (row));
  gtk_window_present (GTK_WINDOW (chrono_export_dialog_new_for_finding (
    GTK_WINDOW (gtk_widget_get_root (widget)), self->analysis, finding, GTK_WIDGET (self->timeline),
    MAX (gtk_widget_get_width (GTK_WIDGET (self->timeline)), 800), chrono_timeline_get_dark (self->timeline))));
}

/* The finding's tracks in the timeline's trace. */
static guint *
finding_tracks (const ChronoFinding *finding,
                guint               *n_tracks)
{
  guint *tracks = g_new (guint, MAX (1, finding->n_tracks));

  *n_tracks = 0;
  for (guint i = 0; i < finding->n_tracks; i++)
    if (finding->tracks[i].trace == 0)
      tracks[(*n_tracks)++] = finding->tracks[i].track;
  return tracks;
}

/* The selected finding's range in the timeline's area table: on its
 * tracks, or on every track when it names none. */
static void
summarize_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  ChronoFindingsPanel *self = CHRONO_FINDINGS_PANEL (widget);
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->findings_list);
  const ChronoFinding *finding;
  g_autofree guint *tracks = NULL;
  guint n_tracks;

  if (self->analysis == NULL || row == NULL)
    return;
  finding = chrono_analysis_get_finding (self->analysis, get_row_finding (row));
  tracks = finding_tracks (finding, &n_tracks);
  gtk_widget_activate_action (GTK_WIDGET (self->timeline), "view.summarize-range", "(xx@au)",
                              finding->start_ns, finding->end_ns,
                              g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, tracks, n_tracks, sizeof (guint)));
}

static void
finding_activated_cb (GtkListBox          *list,
                      GtkListBoxRow       *row,
                      ChronoFindingsPanel *self)
{
  if (GTK_WIDGET (row) == self->more_row)
    append_finding_rows (self);
  else
    chrono_findings_panel_show_finding (self, get_row_finding (row));
}

/* Critical paths */

static void
update_path_marks (ChronoFindingsPanel *self)
{
  guint index = gtk_drop_down_get_selected (self->path_dropdown);
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (ChronoSpanRef));
  const ChronoCriticalPath *path;

  if (self->analysis != NULL && gtk_toggle_button_get_active (self->path_toggle) &&
      index < chrono_analysis_get_n_paths (self->analysis))
    {
      path = chrono_analysis_get_path (self->analysis, index);
      for (guint i = 0; i < path->n_segments; i++)
        if (path->segments[i].has_node && path->segments[i].node.trace == 0)
          g_array_append_val (spans, path->segments[i].node.span);
    }
  chrono_timeline_set_path (self->timeline, (ChronoSpanRef *) spans->data, spans->len);
}

static GtkWidget *
create_segment_row (ChronoFindingsPanel     *self,
                    const ChronoPathSegment *segment,
                    guint                    index)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *name, *duration;
  g_autofree char *full = segment->has_node ? chrono_findings_format_span_name (get_trace (self), segment->node.span)
                                            : g_strdup (chrono_findings_get_category_title (segment->category));
  /* The list tells kernels apart by their short names; the tooltip has
   * the name whole. */
  g_autofree char *what = chrono_format_short_name (full, CHRONO_SHORT_NAME_WIDTH);
  g_autofree char *dur = chrono_format_duration (segment->end_ns - segment->start_ns);
  g_autofree char *markup = NULL;
  g_autofree char *tooltip = NULL;
  g_autofree char *at = chrono_findings_format_time (get_trace (self), segment->start_ns);
  GdkRGBA color;

  chrono_findings_get_category_color (segment->category, &color);
  markup = chrono_findings_dot_markup (&color, what);
  name = gtk_label_new (NULL);
  gtk_label_set_markup (GTK_LABEL (name), markup);
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (name, TRUE);
  duration = gtk_label_new (dur);
  gtk_widget_add_css_class (duration, "numeric");
  gtk_widget_add_css_class (duration, "dim-label");
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), duration);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 3);
  gtk_widget_set_margin_bottom (box, 3);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  /* Translators: a stretch of the critical path: what, what it was doing, when */
  tooltip = g_strdup_printf (_("%s\n%s at %s"), full, chrono_findings_get_category_title (segment->category), at);
  gtk_widget_set_tooltip_text (row, tooltip);
  g_object_set_data (G_OBJECT (row), "segment", GUINT_TO_POINTER (index));
  return row;
}

static int
compare_segments (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  const ChronoCriticalPath *path = user_data;
  const ChronoPathSegment *x = &path->segments[*(const guint *) a];
  const ChronoPathSegment *y = &path->segments[*(const guint *) b];
  gint64 dx = x->end_ns - x->start_ns, dy = y->end_ns - y->start_ns;

  if (dx != dy)
    return dx > dy ? -1 : 1;
  return x->start_ns < y->start_ns ? -1 : (x->start_ns > y->start_ns);
}

static void
path_selected_cb (ChronoFindingsPanel *self)
{
  guint index = gtk_drop_down_get_selected (self->path_dropdown);
  const ChronoCriticalPath *path;
  double values[CHRONO_N_PATH_CATEGORIES];
  GdkRGBA colors[CHRONO_N_PATH_CATEGORIES];
  GtkWidget *bar;
  g_autofree char *total = NULL;
  g_autofree char *heading = NULL;
  g_autofree guint *order = NULL;
  GtkWidget *label;

  chrono_findings_remove_children (GTK_WIDGET (self->path_summary));
  chrono_findings_remove_children (GTK_WIDGET (self->segments_list));
  update_path_marks (self);
  if (self->analysis == NULL || index >= chrono_analysis_get_n_paths (self->analysis))
    return;
  path = chrono_analysis_get_path (self->analysis, index);

  total = chrono_format_duration (path->total_ns);
  /* Translators: the length of a critical path and its number of stretches */
  heading = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s along %u stretch", "%s along %u stretches",
                                          path->n_segments),
                             total, path->n_segments);
  gtk_box_append (self->path_summary, chrono_findings_new_label (heading, "heading"));
  for (guint c = 0; c < CHRONO_N_PATH_CATEGORIES; c++)
    {
      values[c] = path->by_category[c];
      chrono_findings_get_category_color (c, &colors[c]);
    }
  bar = chrono_share_bar_new ();
  chrono_share_bar_set_parts (CHRONO_SHARE_BAR (bar), values, colors, CHRONO_N_PATH_CATEGORIES,
                              MAX (1, path->total_ns));
  gtk_box_append (self->path_summary, bar);
  for (guint c = 0; c < CHRONO_N_PATH_CATEGORIES; c++)
    {
      g_autofree char *dur = NULL;
      g_autofree char *text = NULL;
      g_autofree char *markup = NULL;

      if (path->by_category[c] <= 0)
        continue;
      dur = chrono_format_duration (path->by_category[c]);
      text = g_strdup_printf ("%s  %s (%.0f%%)", chrono_findings_get_category_title (c), dur,
                              100.0 * path->by_category[c] / MAX (1, path->total_ns));
      markup = chrono_findings_dot_markup (&colors[c], text);
      label = gtk_label_new (NULL);
      gtk_label_set_markup (GTK_LABEL (label), markup);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (self->path_summary, label);
    }

  label = chrono_findings_new_label (_("Longest stretches first; activate one to see it in the timeline."), "caption");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_top (label, 6);
  gtk_box_append (self->path_summary, label);

  /* Longest first: where the step's time went, not a replay of it. */
  order = g_new (guint, MAX (1, path->n_segments));
  for (guint i = 0; i < path->n_segments; i++)
    order[i] = i;
  g_qsort_with_data (order, path->n_segments, sizeof (guint), compare_segments, (gpointer) path);
  for (guint i = 0; i < MIN (path->n_segments, MAX_SEGMENT_ROWS); i++)
    gtk_list_box_append (self->segments_list, create_segment_row (self, &path->segments[order[i]], order[i]));
  if (path->n_segments > MAX_SEGMENT_ROWS)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "…and %u more stretch",
                                                            "…and %u more stretches",
                                                            path->n_segments - MAX_SEGMENT_ROWS),
                                               path->n_segments - MAX_SEGMENT_ROWS);
      label = chrono_findings_new_label (more, "dim-label");
      gtk_widget_set_margin_start (label, 12);
      gtk_widget_set_margin_top (label, 6);
      gtk_widget_set_margin_bottom (label, 6);
      gtk_list_box_append (self->segments_list, label);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (gtk_widget_get_parent (label)), FALSE);
    }
}

static void
segment_activated_cb (GtkListBox          *list,
                      GtkListBoxRow       *row,
                      ChronoFindingsPanel *self)
{
  guint index = gtk_drop_down_get_selected (self->path_dropdown);
  const ChronoCriticalPath *path = chrono_analysis_get_path (self->analysis, index);
  const ChronoPathSegment *segment = &path->segments[GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "segment"))];

  zoom_to (self, segment->start_ns, segment->end_ns);
  if (segment->has_node && segment->node.trace == 0)
    {
      chrono_timeline_scroll_to_track (self->timeline, segment->node.span.track);
      select_span (self, segment->node.span);
    }
}

static void
path_graph_clicked_cb (ChronoFindingsPanel *self)
{
  guint index = gtk_drop_down_get_selected (self->path_dropdown);

  if (self->analysis != NULL && index < chrono_analysis_get_n_paths (self->analysis))
    g_signal_emit (self, signals[PATH_GRAPH_REQUESTED], 0, index);
}

static void
fill_paths (ChronoFindingsPanel *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint n = chrono_analysis_get_n_paths (self->analysis);

  for (guint i = 0; i < n; i++)
    {
      const ChronoCriticalPath *path = chrono_analysis_get_path (self->analysis, i);
      g_autofree char *total = chrono_format_duration (path->total_ns);
      g_autofree char *item = chrono_analysis_get_n_ranks (self->analysis) > 1
                              ? g_strdup_printf ("%s · %s (%s)", path->name,
                                                 chrono_analysis_get_rank (self->analysis, path->rank)->label, total)
                              : g_strdup_printf ("%s (%s)", path->name, total);

      gtk_string_list_append (names, item);
    }
  g_signal_handlers_block_by_func (self->path_dropdown, path_selected_cb, self);
  gtk_drop_down_set_model (self->path_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->path_dropdown, 0);
  g_signal_handlers_unblock_by_func (self->path_dropdown, path_selected_cb, self);
  gtk_widget_set_sensitive (GTK_WIDGET (self->path_dropdown), n > 0);
  gtk_widget_set_sensitive (self->path_graph_button, n > 0);
  path_selected_cb (self);
}

/* Running the analysis */

typedef struct
{
  ChronoAnalysisOptions  options;
  ChronoTrace           *trace;  /* let go of on the worker thread */
} AnalysisJob;

static void
analysis_job_free (gpointer data)
{
  AnalysisJob *job = data;

  g_clear_object (&job->trace);
  g_free (job);
}

static void
analysis_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  AnalysisJob *job = task_data;
  GError *error = NULL;
  ChronoAnalysis *analysis;

  analysis = chrono_analysis_run (&job->trace, 1, &job->options, cancellable, &error);
  /* The page may have closed meanwhile: the last reference to a large
   * trace is dropped here, where freeing it stalls no frame. */
  if (analysis != NULL && g_cancellable_set_error_if_cancelled (cancellable, &error))
    g_clear_object (&analysis);
  g_clear_object (&job->trace);
  if (analysis != NULL)
    g_task_return_pointer (task, analysis, g_object_unref);
  else
    g_task_return_error (task, error);
}

static void
set_analysing (ChronoFindingsPanel *self,
               gboolean             analysing)
{
  gtk_spinner_set_spinning (self->spinner, analysing);
  if (analysing)
    gtk_stack_set_visible_child_name (self->state_stack, "analysing");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANALYSING]);
}

static void
analysis_done_cb (GObject      *source_object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GWeakRef *panel_ref = user_data;
  g_autoptr(ChronoFindingsPanel) self = g_weak_ref_get (panel_ref);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoAnalysis) analysis = g_task_propagate_pointer (G_TASK (result), &error);

  g_weak_ref_clear (panel_ref);
  g_free (panel_ref);
  /* A newer run, or the panel going away, cancelled this one. */
  if (self == NULL || g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;
  g_clear_object (&self->cancellable);

  if (analysis == NULL)
    {
      adw_status_page_set_description (self->error_page, error->message);
      gtk_stack_set_visible_child_name (self->state_stack, "failed");
      set_analysing (self, FALSE);
      return;
    }

  g_set_object (&self->analysis, analysis);
  chrono_findings_fill_summary (self->summary_box, self->analysis, get_trace (self));
  fill_findings (self);
  chrono_findings_fill_breakdowns (self->breakdown_box, self->analysis, get_trace (self));
  fill_paths (self);
  chrono_efficiency_view_set_analysis (self->efficiency_view, analysis);
  chrono_memory_view_set_analysis (self->memory_view, analysis);
  chrono_timeline_set_efficiency (self->timeline, analysis);
  gtk_stack_set_visible_child_name (self->state_stack, "done");
  set_analysing (self, FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANALYSIS]);
}

static void
start_analysis (ChronoFindingsPanel *self)
{
  g_autoptr(GTask) task = NULL;
  GWeakRef *panel_ref;
  AnalysisJob *job;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (get_trace (self) == NULL)
    return;

  job = g_new0 (AnalysisJob, 1);
  job->trace = g_object_ref (get_trace (self));
  chrono_analysis_options_init (&job->options);
  chrono_analysis_settings_read (self->settings, &job->options.thresholds);
  /* The timeline draws each device's achieved TFLOP/s from it. */
  job->options.with_flops_series = TRUE;
  self->cancellable = g_cancellable_new ();
  /* Only a weak reference: a closed page goes at once, with its trace,
   * rather than when the worker notices it was cancelled. */
  panel_ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (panel_ref, self);
  task = g_task_new (NULL, self->cancellable, analysis_done_cb, panel_ref);
  g_task_set_source_tag (task, start_analysis);
  g_task_set_task_data (task, job, analysis_job_free);
  set_analysing (self, TRUE);
  chrono_background_run (task, analysis_thread, "chrono-analysis");
}

static gboolean
rerun_cb (gpointer user_data)
{
  ChronoFindingsPanel *self = user_data;

  self->rerun_id = 0;
  start_analysis (self);
  return G_SOURCE_REMOVE;
}

static void
settings_changed_cb (ChronoFindingsPanel *self)
{
  g_clear_handle_id (&self->rerun_id, g_source_remove);
  self->rerun_id = g_timeout_add (RERUN_DELAY_MS, rerun_cb, self);
}

static void
dark_changed_cb (ChronoFindingsPanel *self)
{
  /* The colours of the bars and dots follow the theme. */
  if (self->analysis != NULL)
    {
      chrono_findings_fill_breakdowns (self->breakdown_box, self->analysis, get_trace (self));
      path_selected_cb (self);
    }
}

static void
chrono_findings_panel_constructed (GObject *object)
{
  ChronoFindingsPanel *self = CHRONO_FINDINGS_PANEL (object);
  GApplication *application = g_application_get_default ();
  GSettings *settings;

  G_OBJECT_CLASS (chrono_findings_panel_parent_class)->constructed (object);
  chrono_efficiency_view_set_timeline (self->efficiency_view, self->timeline);
  chrono_memory_view_set_timeline (self->memory_view, self->timeline);

  if (CHRONO_IS_APPLICATION (application) &&
      (settings = chrono_application_get_settings (CHRONO_APPLICATION (application))) != NULL)
    {
      self->settings = g_settings_get_child (settings, CHRONO_ANALYSIS_SCHEMA_CHILD);
      g_signal_connect_object (self->settings, "changed", G_CALLBACK (settings_changed_cb),
                               self, G_CONNECT_SWAPPED);
    }
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (dark_changed_cb), self, G_CONNECT_SWAPPED);
  start_analysis (self);
}

static void
chrono_findings_panel_dispose (GObject *object)
{
  ChronoFindingsPanel *self = CHRONO_FINDINGS_PANEL (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->rerun_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_FINDINGS_PANEL);
  g_clear_object (&self->settings);
  g_clear_object (&self->analysis);
  g_clear_object (&self->timeline);

  G_OBJECT_CLASS (chrono_findings_panel_parent_class)->dispose (object);
}

static void
chrono_findings_panel_finalize (GObject *object)
{
  ChronoFindingsPanel *self = CHRONO_FINDINGS_PANEL (object);

  g_clear_pointer (&self->rule_ids, g_ptr_array_unref);

  G_OBJECT_CLASS (chrono_findings_panel_parent_class)->finalize (object);
}

static void
chrono_findings_panel_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  ChronoFindingsPanel *self = CHRONO_FINDINGS_PANEL (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      g_value_set_object (value, self->timeline);
      break;
    case PROP_ANALYSIS:
      g_value_set_object (value, self->analysis);
      break;
    case PROP_ANALYSING:
      g_value_set_boolean (value, chrono_findings_panel_get_analysing (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_findings_panel_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  ChronoFindingsPanel *self = CHRONO_FINDINGS_PANEL (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      self->timeline = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_findings_panel_class_init (ChronoFindingsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = chrono_findings_panel_constructed;
  object_class->dispose = chrono_findings_panel_dispose;
  object_class->finalize = chrono_findings_panel_finalize;
  object_class->get_property = chrono_findings_panel_get_property;
  object_class->set_property = chrono_findings_panel_set_property;

  properties[PROP_TIMELINE] =
    g_param_spec_object ("timeline", NULL, NULL, CHRONO_TYPE_TIMELINE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ANALYSIS] =
    g_param_spec_object ("analysis", NULL, NULL, CHRONO_TYPE_ANALYSIS,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ANALYSING] =
    g_param_spec_boolean ("analysing", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The person asked to see critical path PATH as a graph. */
  signals[PATH_GRAPH_REQUESTED] =
    g_signal_new ("path-graph-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_install_action (widget_class, "findings.export-picture", NULL, export_picture_action);
  gtk_widget_class_install_action (widget_class, "findings.summarize", NULL, summarize_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "findings.export-picture", NULL);

  g_type_ensure (CHRONO_TYPE_EFFICIENCY_VIEW);
  g_type_ensure (CHRONO_TYPE_MEMORY_VIEW);
  gtk_widget_class_set_css_name (widget_class, "findingspanel");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-findings-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, state_stack);
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, spinner);
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, error_page);
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, summary_box);
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, count_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, view_switcher);
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, rule_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, findings_list);
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, breakdown_box);
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, path_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, path_toggle);
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, path_graph_button);
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, path_summary);
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, segments_list);
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, efficiency_view);
  gtk_widget_class_bind_template_child (widget_class, ChronoFindingsPanel, memory_view);
}

static GtkSizeRequestMode
request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

/* Its wrapped lines are one line each when no width is given, but the
 * paned gives the panel as little as its minimum width: with no width
 * given, it measures at that width, the tallest it can be. */
static void
measure (GtkWidget      *widget,
         GtkOrientation  orientation,
         int             for_size,
         int            *minimum,
         int            *natural,
         int            *minimum_baseline,
         int            *natural_baseline)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);

  *minimum = *natural = 0;
  if (child == NULL || !gtk_widget_should_layout (child))
    return;
  if (orientation == GTK_ORIENTATION_VERTICAL && for_size < 0)
    gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &for_size, NULL, NULL, NULL);
  gtk_widget_measure (child, orientation, for_size, minimum, natural, NULL, NULL);
}

static void
allocate (GtkWidget *widget,
          int        width,
          int        height,
          int        baseline)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);

  if (child != NULL && gtk_widget_should_layout (child))
    gtk_widget_allocate (child, width, height, baseline, NULL);
}

static void
chrono_findings_panel_init (ChronoFindingsPanel *self)
{
  self->rule_ids = g_ptr_array_new ();
  gtk_widget_set_layout_manager (GTK_WIDGET (self), gtk_custom_layout_new (request_mode, measure, allocate));
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Each tab as wide as its name, not all as wide as the widest: four
   * equal tabs would hold the panel wider than its width request, over
   * the timeline. */
  gtk_box_layout_set_homogeneous (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (self->view_switcher)), FALSE);

  g_signal_connect (self->findings_list, "row-activated", G_CALLBACK (finding_activated_cb), self);
  g_signal_connect (self->findings_list, "row-selected", G_CALLBACK (finding_selected_cb), self);
  g_signal_connect (self->segments_list, "row-activated", G_CALLBACK (segment_activated_cb), self);
  g_signal_connect_swapped (self->rule_dropdown, "notify::selected", G_CALLBACK (rule_selected_cb), self);
  g_signal_connect_swapped (self->path_dropdown, "notify::selected", G_CALLBACK (path_selected_cb), self);
  g_signal_connect_swapped (self->path_toggle, "toggled", G_CALLBACK (update_path_marks), self);
  g_signal_connect_swapped (self->path_graph_button, "clicked", G_CALLBACK (path_graph_clicked_cb), self);
}

GtkWidget *
chrono_findings_panel_new (ChronoTimeline *timeline)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (timeline), NULL);

  return g_object_new (CHRONO_TYPE_FINDINGS_PANEL, "timeline", timeline, NULL);
}

/**
 * chrono_findings_panel_get_analysis:
 *
 * Returns: (transfer none) (nullable): the latest analysis, or %NULL
 *   until the first one has finished
 */
ChronoAnalysis *
chrono_findings_panel_get_analysis (ChronoFindingsPanel *self)
{
  g_return_val_if_fail (CHRONO_IS_FINDINGS_PANEL (self), NULL);
  return self->analysis;
}

gboolean
chrono_findings_panel_get_analysing (ChronoFindingsPanel *self)
{
  g_return_val_if_fail (CHRONO_IS_FINDINGS_PANEL (self), FALSE);
  return self->cancellable != NULL;
}

void
chrono_findings_panel_show_finding (ChronoFindingsPanel *self,
                                    guint                index)
{
  const ChronoFinding *finding;
  g_autofree guint *tracks = NULL;
  guint n_tracks;

  g_return_if_fail (CHRONO_IS_FINDINGS_PANEL (self));
  g_return_if_fail (self->analysis != NULL && index < chrono_analysis_get_n_findings (self->analysis));

  finding = chrono_analysis_get_finding (self->analysis, index);
  tracks = finding_tracks (finding, &n_tracks);

  zoom_to (self, finding->start_ns, finding->end_ns);
  chrono_timeline_set_highlight (self->timeline, finding->start_ns, finding->end_ns, tracks, n_tracks);
  if (finding->has_node && finding->node.trace == 0)
    {
      chrono_timeline_scroll_to_track (self->timeline, finding->node.span.track);
      select_span (self, finding->node.span);
    }
  else if (n_tracks > 0)
    chrono_timeline_scroll_to_track (self->timeline, tracks[0]);
}
