/* chrono-neuron-page.c: what the NeuronCores of a device profile did
 *
 * The figures are the analysis report's own "neuron" member, so the page,
 * `chronoscope-cli analyze` and its JSON always say the same.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "chrono-format.h"
#include "chrono-neuron-lanes-painter.h"
#include "chrono-neuron-metrics.h"
#include "chrono-neuron-navigation.h"
#include "chrono-neuron-page.h"
#include "chrono-palette.h"
#include "chrono-share-bar.h"

/* Ours and the profiler's may differ by this share before a mark says so,
 * as in the report. */
#define DIFFERENCE_TOLERANCE 0.02
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

/* A number of OBJECT, NAN when null or missing. */
static gdouble
number (JsonObject *object,
        const char *key)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, key) : NULL;

  if (node == NULL || json_node_get_value_type (node) == G_TYPE_INVALID || JSON_NODE_HOLDS_NULL (node))
    return NAN;
  return json_node_get_double (node);
}

/* -------------------------------------------------------------------- */
/* Rows                                                                 */

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

static GtkWidget *
new_row (const char *title,
         const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  return row;
}

static GtkWidget *
value_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (label, "numeric");
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  return label;
}

typedef enum {
  UNIT_PERCENT,
  UNIT_DURATION,
  UNIT_RATIO,    /* FLOP per byte */
  UNIT_COUNT,
  UNIT_BYTES,
} Unit;

static char *
format_value (gdouble value,
              Unit    unit)
{
  if (!isfinite (value))
    return g_strdup (_("unknown"));
  switch (unit)
    {
    case UNIT_PERCENT:
      return g_strdup_printf (_("%.1f %%"), value);
    case UNIT_DURATION:
      return chrono_format_duration ((gint64) value);
    case UNIT_RATIO:
      return g_strdup_printf (_("%.1f FLOP/B"), value);
    case UNIT_COUNT:
      return chrono_format_count ((guint64) value);
    case UNIT_BYTES:
    default:
      return chrono_format_bytes ((guint64) value);
    }
}

/* A figure, the profiler's beside it when it has one, and a mark where
 * the two differ by more than the tolerance. */
static void
add_figure (ChronoNeuronPage *self,
            const char       *title,
            const char       *explanation,
            gdouble           ours,
            gdouble           theirs,
            Unit              unit)
{
  g_autofree char *ours_text = format_value (ours, unit);
  g_autofree char *theirs_text = format_value (theirs, unit);
  g_autofree char *subtitle = NULL;
  GtkWidget *row;

  /* Translators: the profiler's own value of a figure, under ours */
  subtitle = isfinite (theirs) ? g_strdup_printf (_("%s · profiler: %s"), explanation, theirs_text)
                               : g_strdup (explanation);
  row = new_row (title, subtitle);
  if (isfinite (ours) && isfinite (theirs) &&
      fabs (ours - theirs) > DIFFERENCE_TOLERANCE * MAX (fabs (ours), fabs (theirs)))
    {
      GtkWidget *mark = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
      g_autofree char *why = g_strdup_printf (_("Differs from the profiler's %s by %+.1f %%"), theirs_text,
                                              theirs != 0 ? 100 * (ours - theirs) / fabs (theirs) : 100.0);

      gtk_widget_add_css_class (mark, "warning");
      gtk_widget_set_tooltip_text (mark, why);
      gtk_accessible_update_property (GTK_ACCESSIBLE (mark), GTK_ACCESSIBLE_PROPERTY_LABEL, why, -1);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), mark);
    }
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), value_label (ours_text));
  gtk_list_box_append (self->figures_list, row);
}

static void
fill_figures (ChronoNeuronPage *self)
{
  JsonObject *w = get_window (self);
  /* The profiler summarises the whole profile only. */
  JsonObject *p = self->window == 0 ? json_object_get_object_member (get_core (self), "profiler") : NULL;
  g_autofree char *ridge = format_value (number (w, "ridge_flops_per_byte"), UNIT_RATIO);
  g_autofree char *intensity = NULL;

  clear_list (self->figures_list);
  add_figure (self, _("Total time"), _("The window the figures are of"), number (w, "total_time_ns"),
              number (p, "total_time_ns"), UNIT_DURATION);
  add_figure (self, _("HFU"), _("Hardware FLOPs utilisation: every FLOP the Tensor engine did, over its peak"),
              number (w, "hfu_percent"), number (p, "hfu_percent"), UNIT_PERCENT);
  add_figure (self, _("MFU"), _("Model FLOPs utilisation: without transposes"), number (w, "mfu_percent"),
              number (p, "mfu_percent"), UNIT_PERCENT);
  add_figure (self, _("MBU"), _("Memory bandwidth utilisation: HBM bytes over one stack's bandwidth"),
              number (w, "mbu_percent"), number (p, "mbu_percent"), UNIT_PERCENT);
  /* Translators: %s is the ridge point, "218.8 FLOP/B" */
  intensity = number (w, "arithmetic_intensity") < number (w, "ridge_flops_per_byte")
              ? g_strdup_printf (_("Matmul FLOPs per HBM byte: under the ridge point, %s, so memory bound"), ridge)
              : g_strdup_printf (_("Matmul FLOPs per HBM byte: over the ridge point, %s, so compute can bind"), ridge);
  add_figure (self, _("Arithmetic intensity"), intensity, number (w, "arithmetic_intensity"),
              number (p, "arithmetic_intensity"), UNIT_RATIO);
  if (isfinite (number (w, "throttled_active_percent")))
    add_figure (self, _("Throttled"), _("The Tensor engine's active time lost to throttling"),
                number (w, "throttled_active_percent"), NAN, UNIT_PERCENT);
}

static void
fill_engines (ChronoNeuronPage *self)
{
  JsonObject *w = get_window (self);
  JsonArray *engines = w != NULL ? json_object_get_array_member (w, "engines") : NULL;

  clear_list (self->engines_list);
  for (guint i = 0; engines != NULL && i < json_array_get_length (engines); i++)
    {
      JsonObject *e = json_array_get_object_element (engines, i);
      gdouble share = number (e, "active_share");
      g_autofree char *count = chrono_format_count ((guint64) number (e, "instructions"));
      /* Translators: an engine's instruction count */
      g_autofree char *subtitle = g_strdup_printf (_("%s instructions"), count);
      g_autofree char *text = format_value (100 * share, UNIT_PERCENT);
      GtkWidget *row = new_row (json_object_get_string_member (e, "engine"), subtitle);
      GtkWidget *bar = gtk_level_bar_new_for_interval (0, 1);

      gtk_level_bar_set_value (GTK_LEVEL_BAR (bar), isfinite (share) ? CLAMP (share, 0, 1) : 0);
      gtk_widget_set_size_request (bar, 160, -1);
      gtk_widget_set_valign (bar, GTK_ALIGN_CENTER);
      gtk_accessible_update_property (GTK_ACCESSIBLE (bar), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), bar);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), value_label (text));
      gtk_list_box_append (self->engines_list, row);
    }
}

static void
add_plain (GtkListBox *list,
           const char *title,
           const char *subtitle,
           gdouble     value,
           Unit        unit)
{
  g_autofree char *text = format_value (value, unit);
  GtkWidget *row = new_row (title, subtitle);

  adw_action_row_add_suffix (ADW_ACTION_ROW (row), value_label (text));
  gtk_list_box_append (list, row);
}

static void
fill_dma (ChronoNeuronPage *self)
{
  JsonObject *w = get_window (self);
  JsonObject *dma = w != NULL ? json_object_get_object_member (w, "dma") : NULL;
  g_autofree char *small = g_strdup_printf (_("Transfers under %s, which cost their setup more than their bytes"),
                                            "4 KiB");

  clear_list (self->dma_list);
  add_plain (self->dma_list, _("Transfers"), NULL, number (dma, "transfers"), UNIT_COUNT);
  add_plain (self->dma_list, _("Bytes moved"), NULL, number (dma, "bytes"), UNIT_BYTES);
  add_plain (self->dma_list, _("Average transfer"), NULL, number (dma, "average_bytes"), UNIT_BYTES);
  add_plain (self->dma_list, _("Small transfers"), small, 100 * number (dma, "small_share"), UNIT_PERCENT);
  add_plain (self->dma_list, _("HBM read"), NULL, number (w, "hbm_read_bytes"), UNIT_BYTES);
  add_plain (self->dma_list, _("HBM written"), NULL, number (w, "hbm_write_bytes"), UNIT_BYTES);
  add_plain (self->dma_list, _("Spilled"), _("State buffer saved to HBM"), number (w, "spill_save_bytes"), UNIT_BYTES);
  add_plain (self->dma_list, _("Reloaded"), _("Spills read back"), number (w, "spill_reload_bytes"), UNIT_BYTES);
}

/* -------------------------------------------------------------------- */
/* The Tensor engine's ledger                                           */

static const struct {
  ChronoLedgerState state;
  const char       *title;
} ledger_states[] = {
  { CHRONO_LEDGER_COMPUTE, N_("Compute") },
  { CHRONO_LEDGER_TRANSPOSE, N_("Transposes") },
  { CHRONO_LEDGER_IDLE_DMA, N_("Waiting for DMA") },
  { CHRONO_LEDGER_IDLE_VECTOR, N_("Waiting for Vector") },
  { CHRONO_LEDGER_IDLE_SCALAR, N_("Waiting for Scalar") },
  { CHRONO_LEDGER_IDLE_GPSIMD, N_("Waiting for GpSimd") },
  { CHRONO_LEDGER_IDLE_COLLECTIVE, N_("Waiting for collectives") },
  { CHRONO_LEDGER_IDLE_SEMAPHORE, N_("Waiting on a semaphore") },
  { CHRONO_LEDGER_IDLE_NOT_QUEUED, N_("Nothing queued") },
};

/* Each cause in the colour of the engine it waited for, as the
 * timeline's utilisation lanes draw it. */
static void
state_color (ChronoLedgerState state,
             GdkRGBA          *color)
{
  static const struct { ChronoLedgerState state; ChronoNeuronLane lane; } engines[] = {
    { CHRONO_LEDGER_COMPUTE, CHRONO_NEURON_LANE_TENSOR }, { CHRONO_LEDGER_TRANSPOSE, CHRONO_NEURON_LANE_TENSOR },
    { CHRONO_LEDGER_IDLE_DMA, CHRONO_NEURON_LANE_DMA }, { CHRONO_LEDGER_IDLE_VECTOR, CHRONO_NEURON_LANE_VECTOR },
    { CHRONO_LEDGER_IDLE_SCALAR, CHRONO_NEURON_LANE_SCALAR }, { CHRONO_LEDGER_IDLE_GPSIMD, CHRONO_NEURON_LANE_GPSIMD },
  };
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  for (guint i = 0; i < G_N_ELEMENTS (engines); i++)
    if (engines[i].state == state)
      {
        chrono_neuron_lanes_painter_lane_color (engines[i].lane, dark, color);
        /* Transposes keep the Tensor engine busy for nothing: paler. */
        if (state == CHRONO_LEDGER_TRANSPOSE)
          color->alpha = 0.45f;
        return;
      }
  if (state == CHRONO_LEDGER_IDLE_COLLECTIVE)
    chrono_palette_merged_color (CHRONO_KIND_COLLECTIVE, dark, color);
  else
    chrono_palette_idle_color (state == CHRONO_LEDGER_IDLE_SEMAPHORE ? 1 : 2, dark, color);
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
  chrono_neuron_window_to_trace_clock (chrono_neuron_metrics_get_rank (metrics)->trace, *process, start, end);
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
cause_clicked_cb (GtkButton        *button,
                  ChronoNeuronPage *self)
{
  show_on_timeline (self, (Pending) { PENDING_GAP, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "core")),
                                      GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "state")) });
}

/* A click on the bar is a click on its cause's entry. */
static void
bar_pressed_cb (GtkGestureClick  *gesture,
                int               n_press,
                double            x,
                double            y,
                ChronoNeuronPage *self)
{
  GtkWidget *bar = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  const gint64 *state_ns = g_object_get_data (G_OBJECT (bar), "state-ns");
  gint64 total = 0, at;

  for (guint i = 0; i < G_N_ELEMENTS (ledger_states); i++)
    total += state_ns[ledger_states[i].state];
  at = (gint64) (total * x / MAX (gtk_widget_get_width (bar), 1));
  for (guint i = 0; i < G_N_ELEMENTS (ledger_states); i++)
    {
      at -= state_ns[ledger_states[i].state];
      if (at < 0)
        {
          show_on_timeline (self, (Pending) { PENDING_GAP, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (bar), "core")),
                                              ledger_states[i].state });
          return;
        }
    }
}

static GtkWidget *
legend_entry (ChronoNeuronPage *self,
              guint             core,
              guint             i,
              gint64            ns,
              gint64            total)
{
  g_autofree char *duration = chrono_format_duration (ns);
  /* Translators: a ledger state's share and time: "Waiting for DMA 32 % · 1.2 ms" */
  g_autofree char *text = g_strdup_printf (_("%s %.0f %% · %s"), _(ledger_states[i].title), 100.0 * ns / MAX (total, 1),
                                           duration);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *swatch = chrono_share_bar_new ();
  GdkRGBA color;
  double one = 1;

  state_color (ledger_states[i].state, &color);
  chrono_share_bar_set_parts (CHRONO_SHARE_BAR (swatch), &one, &color, 1, 1);
  gtk_widget_set_size_request (swatch, 12, 12);
  gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), swatch);
  gtk_box_append (GTK_BOX (box), gtk_label_new (text));
  /* Idle time has gaps to show; compute is the rest. */
  if (ledger_states[i].state != CHRONO_LEDGER_COMPUTE && ledger_states[i].state != CHRONO_LEDGER_TRANSPOSE)
    {
      GtkWidget *button = gtk_button_new ();
      g_autofree char *tip = g_strdup_printf (_("Show the longest gap of “%s” on the timeline"), _(ledger_states[i].title));

      gtk_button_set_child (GTK_BUTTON (button), box);
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_set_tooltip_text (button, tip);
      g_object_set_data (G_OBJECT (button), "core", GUINT_TO_POINTER (core));
      g_object_set_data (G_OBJECT (button), "state", GUINT_TO_POINTER (ledger_states[i].state));
      g_signal_connect_object (button, "clicked", G_CALLBACK (cause_clicked_cb), self, 0);
      return button;
    }
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  return box;
}

static void
add_ledger_bar (ChronoNeuronPage         *self,
                guint                     core,
                const ChronoNeuronLedger *ledger)
{
  JsonObject *c = json_array_get_object_element (json_node_get_array (self->cores), core);
  gint64 *state_ns = g_new0 (gint64, CHRONO_N_LEDGER_STATES);
  double values[G_N_ELEMENTS (ledger_states)];
  GdkRGBA colors[G_N_ELEMENTS (ledger_states)];
  GtkWidget *bar = chrono_share_bar_new ();
  GtkWidget *legend = gtk_flow_box_new ();
  GtkWidget *name = gtk_label_new (json_object_get_string_member (c, "device_name"));
  GtkGesture *click = gtk_gesture_click_new ();
  gint64 start, end, total = 0;

  window_range (self, core, ledger, &start, &end);
  chrono_neuron_ledger_sum (ledger, start, end, state_ns);
  for (guint i = 0; i < G_N_ELEMENTS (ledger_states); i++)
    {
      values[i] = state_ns[ledger_states[i].state];
      total += state_ns[ledger_states[i].state];
      state_color (ledger_states[i].state, &colors[i]);
    }
  chrono_share_bar_set_parts (CHRONO_SHARE_BAR (bar), values, colors, G_N_ELEMENTS (ledger_states), MAX (total, 1));
  gtk_widget_set_size_request (bar, -1, 20);
  g_object_set_data_full (G_OBJECT (bar), "state-ns", state_ns, g_free);
  g_object_set_data (G_OBJECT (bar), "core", GUINT_TO_POINTER (core));
  g_signal_connect_object (click, "pressed", G_CALLBACK (bar_pressed_cb), self, 0);
  gtk_widget_add_controller (bar, GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_cursor_from_name (bar, "pointer");

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_widget_add_css_class (name, "heading");
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (legend), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (legend), 3);
  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (legend), FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (ledger_states); i++)
    if (state_ns[ledger_states[i].state] > 0)
      gtk_flow_box_append (GTK_FLOW_BOX (legend), legend_entry (self, core, i, state_ns[ledger_states[i].state], total));
  gtk_box_append (self->ledger_box, name);
  gtk_box_append (self->ledger_box, bar);
  gtk_box_append (self->ledger_box, legend);
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

static void
fill_findings (ChronoNeuronPage *self)
{
  guint breakdown = g_array_index (self->breakdowns, guint, self->core);

  clear_list (self->findings_list);
  for (guint i = 0; i < chrono_analysis_get_n_findings (self->analysis); i++)
    {
      const ChronoFinding *f = chrono_analysis_get_finding (self->analysis, i);
      g_autofree char *lost = NULL, *subtitle = NULL;
      GtkWidget *row;

      if (!finding_is_of_core (f, breakdown))
        continue;
      lost = chrono_format_duration (f->time_lost_ns);
      /* Translators: under a finding: "1.2 ms lost · high" */
      subtitle = g_strdup_printf (_("%s lost · %s"), lost, chrono_severity_to_string (f->severity));
      row = new_row (f->title, subtitle);
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
  fill_figures (self);
  fill_ledger (self);
  fill_findings (self);
  fill_engines (self);
  fill_dma (self);
}

static void
fill_executions (ChronoNeuronPage *self)
{
  JsonArray *executions = json_object_get_array_member (get_core (self), "executions");
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autofree char *whole = chrono_format_duration ((gint64) number (get_core (self), "total_time_ns"));
  /* Translators: the first choice of the execution dropdown */
  g_autofree char *first = g_strdup_printf (_("Whole profile (%s)"), whole);
  guint n = executions != NULL ? json_array_get_length (executions) : 0;

  gtk_string_list_append (names, first);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *e = json_array_get_object_element (executions, i);
      g_autofree char *duration = chrono_format_duration (json_object_get_int_member (e, "total_time_ns"));
      /* Translators: one execution in the dropdown: "Execution 3 (1.2 ms)" */
      g_autofree char *name = g_strdup_printf (_("Execution %" G_GINT64_FORMAT " (%s)"),
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

static void
analysis_changed_cb (ChronoNeuronPage *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  JsonArray *cores;

  g_set_object (&self->analysis, chrono_findings_panel_get_analysis (self->panel));
  g_clear_pointer (&self->cores, json_node_unref);
  if (self->analysis == NULL)
    {
      gtk_stack_set_visible_child_name (self->state_stack, "analysing");
      return;
    }
  json_builder_begin_object (builder);
  chrono_neuron_metrics_write_json (self->analysis, builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  self->cores = json_node_ref (json_object_get_member (json_node_get_object (root), "neuron"));
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
