/* chrono-neuron-ledger-bar.c: a NeuronCore's Tensor engine time by state
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "chrono-format.h"
#include "chrono-neuron-lanes-painter.h"
#include "chrono-neuron-ledger-bar.h"
#include "chrono-palette.h"
#include "chrono-share-bar.h"

struct _ChronoNeuronLedgerBar
{
  GtkWidget parent_instance;

  gint64    state_ns[CHRONO_N_LEDGER_STATES];
  GtkWidget *bar;
};

G_DEFINE_FINAL_TYPE (ChronoNeuronLedgerBar, chrono_neuron_ledger_bar, GTK_TYPE_WIDGET)

enum {
  CAUSE_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

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

static void
cause_clicked_cb (GtkButton             *button,
                  ChronoNeuronLedgerBar *self)
{
  g_signal_emit (self, signals[CAUSE_CHOSEN], 0, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "state")));
}

/* A click on the bar is a click on its cause's entry. */
static void
bar_pressed_cb (GtkGestureClick       *gesture,
                int                    n_press,
                double                 x,
                double                 y,
                ChronoNeuronLedgerBar *self)
{
  GtkWidget *bar = self->bar;
  const gint64 *state_ns = self->state_ns;
  gint64 total = 0, at;

  for (guint i = 0; i < G_N_ELEMENTS (ledger_states); i++)
    total += state_ns[ledger_states[i].state];
  at = (gint64) (total * x / MAX (gtk_widget_get_width (bar), 1));
  for (guint i = 0; i < G_N_ELEMENTS (ledger_states); i++)
    {
      at -= state_ns[ledger_states[i].state];
      if (at < 0)
        {
          g_signal_emit (self, signals[CAUSE_CHOSEN], 0, (guint) ledger_states[i].state);
          return;
        }
    }
}

static GtkWidget *
legend_entry (ChronoNeuronLedgerBar *self,
              guint                  i,
              gint64                 ns,
              gint64                 total)
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
      g_object_set_data (G_OBJECT (button), "state", GUINT_TO_POINTER (ledger_states[i].state));
      g_signal_connect_object (button, "clicked", G_CALLBACK (cause_clicked_cb), self, 0);
      return button;
    }
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  return box;
}

static void
chrono_neuron_ledger_bar_dispose (GObject *object)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (chrono_neuron_ledger_bar_parent_class)->dispose (object);
}

static void
chrono_neuron_ledger_bar_class_init (ChronoNeuronLedgerBarClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = chrono_neuron_ledger_bar_dispose;

  /* A cause of the Tensor engine's idle time was chosen, in the bar or
   * in the legend: its ChronoLedgerState. */
  signals[CAUSE_CHOSEN] = g_signal_new ("cause-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
chrono_neuron_ledger_bar_init (ChronoNeuronLedgerBar *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);
}

GtkWidget *
chrono_neuron_ledger_bar_new (const char   *core_name,
                              const gint64 *state_ns)
{
  ChronoNeuronLedgerBar *self = g_object_new (CHRONO_TYPE_NEURON_LEDGER_BAR, NULL);
  double values[G_N_ELEMENTS (ledger_states)];
  GdkRGBA colors[G_N_ELEMENTS (ledger_states)];
  GtkWidget *legend = gtk_flow_box_new ();
  GtkWidget *name = gtk_label_new (core_name);
  GtkGesture *click = gtk_gesture_click_new ();
  gint64 total = 0;

  memcpy (self->state_ns, state_ns, sizeof self->state_ns);
  for (guint i = 0; i < G_N_ELEMENTS (ledger_states); i++)
    {
      values[i] = state_ns[ledger_states[i].state];
      total += state_ns[ledger_states[i].state];
      state_color (ledger_states[i].state, &colors[i]);
    }
  self->bar = chrono_share_bar_new ();
  chrono_share_bar_set_parts (CHRONO_SHARE_BAR (self->bar), values, colors, G_N_ELEMENTS (ledger_states), MAX (total, 1));
  gtk_widget_set_size_request (self->bar, -1, 20);
  g_signal_connect_object (click, "pressed", G_CALLBACK (bar_pressed_cb), self, 0);
  gtk_widget_add_controller (self->bar, GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_cursor_from_name (self->bar, "pointer");

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_widget_add_css_class (name, "heading");
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (legend), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (legend), 3);
  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (legend), FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (ledger_states); i++)
    if (state_ns[ledger_states[i].state] > 0)
      gtk_flow_box_append (GTK_FLOW_BOX (legend), legend_entry (self, i, state_ns[ledger_states[i].state], total));
  gtk_widget_set_parent (name, GTK_WIDGET (self));
  gtk_widget_set_parent (self->bar, GTK_WIDGET (self));
  gtk_widget_set_parent (legend, GTK_WIDGET (self));
  return GTK_WIDGET (self);
}
