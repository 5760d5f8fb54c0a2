/* chrono-neuron-page.c: what the NeuronCores of a device profile did
 *
 * The figures are the analysis report's own "neuron" member, so the page,
 * `chronoscope-cli analyze` and its JSON always say the same.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "chrono-format.h"
#include "chrono-neuron-figures.h"
#include "chrono-neuron-ledger-bar.h"
#include "chrono-neuron-metrics.h"
#include "chrono-neuron-navigation.h"
#include "chrono-neuron-page.h"

/* A gap shown on the timeline fills this share of the view. */
#define GAP_ZOOM_SHARE 0.6

typedef enum {
  PENDING_FINDING,
  PENDING_GAP,                      /* a core's longest gap of one cause */
  PENDING_WINDOW,                   /* a core's window: the whole profile or the execution chosen */
} PendingKind;

/* What waits for the timeline to have a size. */
typedef struct {
  PendingKind       kind;
  guint             index;          /* the finding's, or the core's */
  ChronoLedgerState state;
} Pending;

struct _ChronoNeuronPage
{
  GtkWidget            parent_instance;

  ChronoFindingsPanel *panel;
  ChronoAnalysis      *analysis;
  JsonNode            *cores;       /* the report's "neuron" array */
  GArray              *breakdowns;  /* guint per core: its device's row in the breakdowns */
  guint                core;
  guint                window;
  gboolean             filling;     /* the dropdowns change under the page's own hand */
  Pending              pending;     /* to show on the timeline once it has a size */
  guint                pending_tick;
  GCancellable        *cancellable; /* of the report being written */

  GtkStack            *state_stack;
  GtkLabel            *title_label;
  GtkLabel            *subtitle_label;
  GtkDropDown         *core_dropdown;
  GtkDropDown         *execution_dropdown;
  GtkListBox          *figures_list;
  GtkBox              *ledger_box;
  GtkListBox          *findings_list;
  GtkListBox          *engines_list;
  GtkListBox          *dma_list;
};

G_DEFINE_FINAL_TYPE (ChronoNeuronPage, chrono_neuron_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_PANEL,
  PROP_WINDOW,
  N_PROPS
};

enum {
  TIMELINE_REQUESTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

gboolean
chrono_neuron_page_is_for (ChronoTrace *trace)
{
  for (guint i = 0; i < chrono_trace_get_n_parts (trace); i++)
    if (g_str_has_prefix (chrono_trace_get_part (trace, i)->format, "neuron-device"))
      return TRUE;
  return FALSE;
}

/* -------------------------------------------------------------------- */
/* Reading the report                                                   */

static JsonObject *
get_core (ChronoNeuronPage *self)
{
  JsonArray *cores = self->cores != NULL ? json_node_get_array (self->cores) : NULL;

  if (cores == NULL || self->core >= json_array_get_length (cores))
    return NULL;
  return json_array_get_object_element (cores, self->core);
}

/* The window's figures: the core's own for the whole profile, else one
 * execution's. */
static JsonObject *
get_window (ChronoNeuronPage *self)
{
  JsonObject *core = get_core (self);
  JsonArray *executions;

  if (core == NULL || self->window == 0)
    return core;
  executions = json_object_get_array_member (core, "executions");
  if (executions == NULL || self->window > json_array_get_length (executions))
    return core;
  return json_array_get_object_element (executions, self->window - 1);
}

/* The window the figures are of, on the trace's clock, and the process
 * that draws core CORE. */
static gboolean
window_on_trace (ChronoNeuronPage *self,
                 guint             core,
                 gint64           *start,
                 gint64           *end,
                 guint32          *process)
{
  g_autoptr(GPtrArray) cores = chrono_neuron_metrics_for_analysis (self->analysis);
  JsonObject *w = get_window (self);
  ChronoNeuronMetrics *metrics;

  if (w == NULL || core >= cores->len)
    return FALSE;
  metrics = g_ptr_array_index (cores, core);
  *process = chrono_neuron_metrics_get_device (metrics)->process;
  *start = json_object_get_int_member (w, "start_ns");
  *end = json_object_get_int_member (w, "end_ns");
  return TRUE;
}

/* The core's window, or the chosen execution's. */
static void
window_range (ChronoNeuronPage         *self,
              guint                     core,
              const ChronoNeuronLedger *ledger,
              gint64                   *start,
              gint64                   *end)
{
  guint32 process;

  if (self->window == 0 || !window_on_trace (self, core, start, end, &process))
    {
      *start = chrono_neuron_ledger_get_start (ledger);
      *end = chrono_neuron_ledger_get_end (ledger);
    }
}

/* The longest gap of STATE in the window, on the timeline: zoomed to it,
 * its dependency chain drawn, the instruction that ended it selected. */
static void
show_gap (ChronoNeuronPage  *self,
          ChronoTimeline    *timeline,
          guint              core,
          ChronoLedgerState  state)
{
  const ChronoNeuronLedger *ledger = chrono_analysis_get_neuron_ledger (self->analysis,
                                                                        g_array_index (self->breakdowns, guint, core));
  const ChronoNeuronGap *best = NULL;
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (ChronoSpanRef));
  gint64 start, end, length, margin;

  window_range (self, core, ledger, &start, &end);
  for (guint i = 0; i < chrono_neuron_ledger_get_n_gaps (ledger); i++)
    {
      const ChronoNeuronGap *gap = chrono_neuron_ledger_get_gap (ledger, i);

      if (gap->cause == state && gap->end_ns > start && gap->start_ns < end &&
          (best == NULL || gap->end_ns - gap->start_ns > best->end_ns - best->start_ns))
        best = gap;
    }
  if (best == NULL)
    return;

  for (guint k = 0; k < best->n_links; k++)
    g_array_append_val (chain, chrono_neuron_ledger_get_link (ledger, best->first_link + k)->span);
  length = MAX (best->end_ns - best->start_ns, CHRONO_VIEWPORT_MIN_DURATION_NS);
  margin = (gint64) (length * (1 - GAP_ZOOM_SHARE) / (2 * GAP_ZOOM_SHARE));
  chrono_viewport_zoom_to_range (chrono_timeline_get_viewport (timeline), best->start_ns - margin, best->end_ns + margin);
  chrono_timeline_set_path (timeline, (ChronoSpanRef *) chain->data, chain->len);
  if (chain->len > 0)
    chrono_timeline_select (timeline, &g_array_index (chain, ChronoSpanRef, 0));
}

/* The window the figures are of, over core CORE's tracks. */
static void
show_window (ChronoNeuronPage *self,
             ChronoTimeline   *timeline,
             guint             core)
{
  guint32 process;
  gint64 start, end;

  if (window_on_trace (self, core, &start, &end, &process))
    chrono_neuron_show_window (timeline, process, start, end);
}

static void
run_pending (ChronoNeuronPage *self,
             ChronoTimeline   *timeline)
{
  switch (self->pending.kind)
    {
    case PENDING_FINDING:
      chrono_findings_panel_show_finding (self->panel, self->pending.index);
      break;
    case PENDING_GAP:
      show_gap (self, timeline, self->pending.index, self->pending.state);
      break;
    case PENDING_WINDOW:
    default:
      show_window (self, timeline, self->pending.index);
      break;
    }
}

static gboolean
pending_tick_cb (GtkWidget     *timeline,
                 GdkFrameClock *clock,
                 gpointer       data)
{
  ChronoNeuronPage *self = data;

  if (gtk_widget_get_height (timeline) <= 0)
    return G_SOURCE_CONTINUE;
  self->pending_tick = 0;
  run_pending (self, CHRONO_TIMELINE (timeline));
  return G_SOURCE_REMOVE;
}

/* The timeline comes to the front; what it shows waits until it has a
 * size, as one never drawn scrolls whatever it selects to its top. */
static void
show_on_timeline (ChronoNeuronPage *self,
                  Pending           pending)
{
  g_autoptr(ChronoTimeline) timeline = NULL;

  g_object_get (self->panel, "timeline", &timeline, NULL);
  self->pending = pending;
  g_signal_emit (self, signals[TIMELINE_REQUESTED], 0);
  if (self->pending_tick != 0)
    return;
  if (gtk_widget_get_height (GTK_WIDGET (timeline)) > 0)
    run_pending (self, timeline);
  else
    self->pending_tick = gtk_widget_add_tick_callback (GTK_WIDGET (timeline), pending_tick_cb, self, NULL);
}

static void
cause_chosen_cb (ChronoNeuronLedgerBar *bar,
                 guint                  state,
                 ChronoNeuronPage      *self)
{
  show_on_timeline (self, (Pending) { PENDING_GAP, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (bar), "core")), state });
}

static void
add_ledger_bar (ChronoNeuronPage         *self,
                guint                     core,
                const ChronoNeuronLedger *ledger)
{
  JsonObject *c = json_array_get_object_element (json_node_get_array (self->cores), core);
  gint64 state_ns[CHRONO_N_LEDGER_STATES] = { 0 };
  GtkWidget *bar;
  gint64 start, end;

  window_range (self, core, ledger, &start, &end);
  chrono_neuron_ledger_sum (ledger, start, end, state_ns);
  bar = chrono_neuron_ledger_bar_new (json_object_get_string_member (c, "device_name"), state_ns);
  g_object_set_data (G_OBJECT (bar), "core", GUINT_TO_POINTER (core));
  g_signal_connect_object (bar, "cause-chosen", G_CALLBACK (cause_chosen_cb), self, 0);
  gtk_box_append (self->ledger_box, bar);
}

static void
fill_ledger (ChronoNeuronPage *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->ledger_box))) != NULL)
    gtk_box_remove (self->ledger_box, child);
  for (guint c = 0; c < self->breakdowns->len; c++)
    {
      guint breakdown = g_array_index (self->breakdowns, guint, c);
      const ChronoNeuronLedger *ledger = breakdown != G_MAXUINT ? chrono_analysis_get_neuron_ledger (self->analysis, breakdown)
                                                               : NULL;

      if (ledger != NULL)
        add_ledger_bar (self, c, ledger);
    }
}

/* -------------------------------------------------------------------- */
/* Findings                                                             */

static gboolean
finding_is_of_core (const ChronoFinding *finding,
                    guint                breakdown)
{
  for (guint i = 0; i < finding->n_shares; i++)
    if (finding->shares[i].breakdown == breakdown)
      return TRUE;
  return finding->n_shares == 0 && g_str_has_prefix (finding->rule, "neuron-");
}

static void
finding_activated_cb (GtkListBox       *list,
                      GtkListBoxRow    *row,
                      ChronoNeuronPage *self)
{
  show_on_timeline (self, (Pending) { PENDING_FINDING, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "finding")), 0 });
}

/* The findings of one rule: a profile that repeats its layers draws
 * one finding a window, hundreds of the same. */
typedef struct {
  guint  first;      /* the first in the analysis's ranking */
  guint  n;
  gint64 lost_ns;
} Insight;

static void
fill_findings (ChronoNeuronPage *self)
{
  guint breakdown = g_array_index (self->breakdowns, guint, self->core);
  g_autoptr(GHashTable) by_rule = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) insights = g_array_new (FALSE, FALSE, sizeof (Insight));

  chrono_neuron_figures_clear (self->findings_list);
  for (guint i = 0; i < chrono_analysis_get_n_findings (self->analysis); i++)
    {
      const ChronoFinding *f = chrono_analysis_get_finding (self->analysis, i);
      gpointer at;

      if (!finding_is_of_core (f, breakdown))
        continue;
      if (!g_hash_table_lookup_extended (by_rule, f->rule, NULL, &at))
        {
          at = GUINT_TO_POINTER (insights->len);
          g_hash_table_insert (by_rule, (gpointer) f->rule, at);
          g_array_append_val (insights, ((Insight) { i, 0, 0 }));
        }
      g_array_index (insights, Insight, GPOINTER_TO_UINT (at)).n++;
      g_array_index (insights, Insight, GPOINTER_TO_UINT (at)).lost_ns += f->time_lost_ns;
    }
  for (guint k = 0; k < insights->len; k++)
    {
      const Insight *insight = &g_array_index (insights, Insight, k);
      const ChronoFinding *f = chrono_analysis_get_finding (self->analysis, insight->first);
      g_autofree char *lost = chrono_format_duration (insight->lost_ns);
      g_autofree char *subtitle = NULL;
      guint i = insight->first;
      GtkWidget *row;

      /* Translators: under a finding: "1.2 ms lost · high" */
      subtitle = insight->n == 1 ? g_strdup_printf (_("%s lost · %s"), lost, chrono_severity_to_string (f->severity))
                 /* Translators: under a finding found in several windows: "1.2 ms lost in 12 windows · high" */
                 : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s lost in %u window · %s", "%s lost in %u windows · %s",
                                                 insight->n),
                                    lost, insight->n, chrono_severity_to_string (f->severity));
      row = chrono_neuron_figures_row_new (f->title, subtitle);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
      gtk_widget_set_tooltip_text (row, f->recommendation);
      g_object_set_data (G_OBJECT (row), "finding", GUINT_TO_POINTER (i));
      gtk_list_box_append (self->findings_list, row);
    }
}

/* -------------------------------------------------------------------- */
/* Filling                                                              */

static void
fill_window (ChronoNeuronPage *self)
{
  JsonObject *core = get_core (self);
  g_autofree char *title = NULL;
  const char *instance;

  if (core == NULL)
    return;
  instance = json_object_get_string_member_with_default (core, "instance_type", NULL);
  /* Translators: the page's title: "NeuronCore 0 · trn2.48xlarge" */
  title = instance != NULL ? g_strdup_printf (_("%s · %s"), json_object_get_string_member (core, "device_name"), instance)
                           : g_strdup (json_object_get_string_member (core, "device_name"));
  gtk_label_set_text (self->title_label, title);
  /* The profiler summarises the whole profile only. */
  chrono_neuron_figures_fill (self->figures_list, get_window (self),
                              self->window == 0 ? json_object_get_object_member (core, "profiler") : NULL);
  fill_ledger (self);
  fill_findings (self);
  chrono_neuron_figures_fill_engines (self->engines_list, get_window (self));
  chrono_neuron_figures_fill_dma (self->dma_list, get_window (self));
}

static void
fill_executions (ChronoNeuronPage *self)
{
  JsonArray *executions = json_object_get_array_member (get_core (self), "executions");
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autofree char *whole = chrono_format_duration ((gint64) chrono_neuron_figures_number (get_core (self), "total_time_ns"));
  /* Translators: the first choice of the execution dropdown */
  g_autofree char *first = g_strdup_printf (_("Whole profile (%s)"), whole);
  guint n = executions != NULL ? json_array_get_length (executions) : 0;

  gtk_string_list_append (names, first);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *e = json_array_get_object_element (executions, i);
      g_autofree char *duration = chrono_format_duration (json_object_get_int_member (e, "total_time_ns"));
      /* Translators: one execution in the dropdown: "Execution 3 (1.2 ms)" */
      g_autofree char *name = g_strdup_printf (_("Execution %" PRId64 " (%s)"),
                                               json_object_get_int_member (e, "execution"), duration);

      gtk_string_list_append (names, name);
    }
  gtk_drop_down_set_model (self->execution_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->execution_dropdown, MIN (self->window, n));
  self->window = MIN (self->window, n);
  gtk_widget_set_visible (GTK_WIDGET (self->execution_dropdown), n > 1);
}

/* The report's device rows matched to the breakdowns' by rank and device. */
static void
find_breakdowns (ChronoNeuronPage *self)
{
  JsonArray *cores = json_node_get_array (self->cores);

  g_array_set_size (self->breakdowns, 0);
  for (guint c = 0; c < json_array_get_length (cores); c++)
    {
      JsonObject *core = json_array_get_object_element (cores, c);
      guint found = G_MAXUINT;

      for (guint b = 0; b < chrono_analysis_get_n_breakdowns (self->analysis) && found == G_MAXUINT; b++)
        {
          const ChronoBreakdown *row = chrono_analysis_get_breakdown (self->analysis, b);

          if (row->where.track == CHRONO_NO_TRACK && row->rank == json_object_get_int_member (core, "rank_index") &&
              row->device == json_object_get_int_member (core, "device"))
            found = b;
        }
      g_array_append_val (self->breakdowns, found);
    }
}

/* The report's "neuron" member, on a worker thread: the metrics of every
 * window and the operator tables take longer than a frame. */
static void
write_report (GTask        *task,
              gpointer      source,
              gpointer      data,
              GCancellable *cancellable)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  chrono_neuron_metrics_write_json (data, builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  g_task_return_pointer (task, json_node_ref (json_object_get_member (json_node_get_object (root), "neuron")),
                         (GDestroyNotify) json_node_unref);
}

static void
report_written_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      data)
{
  ChronoNeuronPage *self = CHRONO_NEURON_PAGE (source);
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  JsonNode *node = g_task_propagate_pointer (G_TASK (result), NULL);
  JsonArray *cores;

  /* Cancelled: another analysis came, or the page went. */
  if (node == NULL)
    return;
  g_clear_pointer (&self->cores, json_node_unref);
  self->cores = node;
  cores = json_node_get_array (self->cores);
  find_breakdowns (self);

  self->filling = TRUE;
  for (guint c = 0; c < json_array_get_length (cores); c++)
    gtk_string_list_append (names, json_object_get_string_member (json_array_get_object_element (cores, c), "device_name"));
  gtk_drop_down_set_model (self->core_dropdown, G_LIST_MODEL (names));
  self->core = MIN (self->core, MAX (json_array_get_length (cores), 1) - 1);
  gtk_drop_down_set_selected (self->core_dropdown, self->core);
  gtk_widget_set_visible (GTK_WIDGET (self->core_dropdown), json_array_get_length (cores) > 1);
  if (json_array_get_length (cores) == 0)
    {
      gtk_label_set_text (self->title_label, _("No NeuronCore"));
      gtk_label_set_text (self->subtitle_label, _("The profile has no instructions of a NeuronCore to account for."));
    }
  else
    {
      fill_executions (self);
      gtk_label_set_text (self->subtitle_label, _("Where the NeuronCore's time went, computed from its instructions"));
      fill_window (self);
    }
  self->filling = FALSE;
  gtk_stack_set_visible_child_name (self->state_stack, "done");
}

static void
analysis_changed_cb (ChronoNeuronPage *self)
{
  g_autoptr(GTask) task = NULL;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_set_object (&self->analysis, chrono_findings_panel_get_analysis (self->panel));
  g_clear_pointer (&self->cores, json_node_unref);
  gtk_stack_set_visible_child_name (self->state_stack, "analysing");
  if (self->analysis == NULL)
    return;
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, report_written_cb, NULL);
  g_task_set_source_tag (task, analysis_changed_cb);
  g_task_set_task_data (task, g_object_ref (self->analysis), g_object_unref);
  g_task_run_in_thread (task, write_report);
}

static void
core_selected_cb (ChronoNeuronPage *self)
{
  if (self->filling)
    return;
  self->core = gtk_drop_down_get_selected (self->core_dropdown);
  self->window = 0;
  self->filling = TRUE;
  fill_executions (self);
  fill_window (self);
  self->filling = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WINDOW]);
}

static void
show_window_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  ChronoNeuronPage *self = CHRONO_NEURON_PAGE (widget);

  if (get_window (self) != NULL)
    show_on_timeline (self, (Pending) { PENDING_WINDOW, self->core, 0 });
}

static void
execution_selected_cb (ChronoNeuronPage *self)
{
  if (self->filling)
    return;
  chrono_neuron_page_set_window (self, gtk_drop_down_get_selected (self->execution_dropdown));
}

guint
chrono_neuron_page_get_window (ChronoNeuronPage *self)
{
  g_return_val_if_fail (CHRONO_IS_NEURON_PAGE (self), 0);
  return self->window;
}

void
chrono_neuron_page_set_window (ChronoNeuronPage *self,
                               guint             window)
{
  g_return_if_fail (CHRONO_IS_NEURON_PAGE (self));
  if (self->window == window)
    return;
  self->window = window;
  self->filling = TRUE;
  gtk_drop_down_set_selected (self->execution_dropdown, window);
  fill_window (self);
  self->filling = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WINDOW]);
}

/* -------------------------------------------------------------------- */
/* GObject                                                              */

static void
chrono_neuron_page_constructed (GObject *object)
{
  ChronoNeuronPage *self = CHRONO_NEURON_PAGE (object);

  G_OBJECT_CLASS (chrono_neuron_page_parent_class)->constructed (object);
  g_signal_connect_object (self->panel, "notify::analysis", G_CALLBACK (analysis_changed_cb), self,
                           G_CONNECT_SWAPPED);
  analysis_changed_cb (self);
}

static void
chrono_neuron_page_dispose (GObject *object)
{
  ChronoNeuronPage *self = CHRONO_NEURON_PAGE (object);

  if (self->pending_tick != 0)
    {
      g_autoptr(ChronoTimeline) timeline = NULL;

      g_object_get (self->panel, "timeline", &timeline, NULL);
      gtk_widget_remove_tick_callback (GTK_WIDGET (timeline), self->pending_tick);
      self->pending_tick = 0;
    }
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_NEURON_PAGE);
  g_clear_object (&self->analysis);
  g_clear_object (&self->panel);
  g_clear_pointer (&self->cores, json_node_unref);
  G_OBJECT_CLASS (chrono_neuron_page_parent_class)->dispose (object);
}

static void
chrono_neuron_page_finalize (GObject *object)
{
  ChronoNeuronPage *self = CHRONO_NEURON_PAGE (object);

  g_array_unref (self->breakdowns);
  G_OBJECT_CLASS (chrono_neuron_page_parent_class)->finalize (object);
}

static void
chrono_neuron_page_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  ChronoNeuronPage *self = CHRONO_NEURON_PAGE (object);

  switch (prop_id)
    {
    case PROP_PANEL:
      g_value_set_object (value, self->panel);
      break;
    case PROP_WINDOW:
      g_value_set_uint (value, self->window);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_neuron_page_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  ChronoNeuronPage *self = CHRONO_NEURON_PAGE (object);

  switch (prop_id)
    {
    case PROP_PANEL:
      self->panel = g_value_dup_object (value);
      break;
    case PROP_WINDOW:
      chrono_neuron_page_set_window (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_neuron_page_class_init (ChronoNeuronPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = chrono_neuron_page_constructed;
  object_class->dispose = chrono_neuron_page_dispose;
  object_class->finalize = chrono_neuron_page_finalize;
  object_class->get_property = chrono_neuron_page_get_property;
  object_class->set_property = chrono_neuron_page_set_property;

  properties[PROP_PANEL] =
    g_param_spec_object ("findings-panel", NULL, NULL, CHRONO_TYPE_FINDINGS_PANEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WINDOW] =
    g_param_spec_uint ("window", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A finding or a gap was chosen: the timeline shows it. */
  signals[TIMELINE_REQUESTED] = g_signal_new ("timeline-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                              0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/chronoscope/Chronoscope/chrono-neuron-page.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronPage, state_stack);
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronPage, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronPage, core_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronPage, execution_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronPage, figures_list);
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronPage, ledger_box);
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronPage, findings_list);
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronPage, engines_list);
  gtk_widget_class_bind_template_child (widget_class, ChronoNeuronPage, dma_list);
  gtk_widget_class_bind_template_callback (widget_class, finding_activated_cb);
  gtk_widget_class_install_action (widget_class, "neuron.show-window", NULL, show_window_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_x, 0, "neuron.show-window", NULL);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
chrono_neuron_page_init (ChronoNeuronPage *self)
{
  GtkWidget *none = gtk_label_new (_("No finding concerns this NeuronCore."));

  gtk_widget_init_template (GTK_WIDGET (self));
  self->breakdowns = g_array_new (FALSE, FALSE, sizeof (guint));
  g_signal_connect_swapped (self->core_dropdown, "notify::selected", G_CALLBACK (core_selected_cb), self);
  g_signal_connect_swapped (self->execution_dropdown, "notify::selected", G_CALLBACK (execution_selected_cb), self);
  gtk_widget_add_css_class (none, "dim-label");
  gtk_widget_set_margin_top (none, 12);
  gtk_widget_set_margin_bottom (none, 12);
  gtk_list_box_set_placeholder (self->findings_list, none);
}

GtkWidget *
chrono_neuron_page_new (ChronoFindingsPanel *panel)
{
  g_return_val_if_fail (CHRONO_IS_FINDINGS_PANEL (panel), NULL);
  return g_object_new (CHRONO_TYPE_NEURON_PAGE, "findings-panel", panel, NULL);
}
