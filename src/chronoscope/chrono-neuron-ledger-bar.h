/* chrono-neuron-ledger-bar.h: a NeuronCore's Tensor engine time by
 * state, as a bar with a legend: compute, transposes and each cause of
 * its idle time, in the colours of the timeline's utilisation lanes; a
 * click on a cause, in the bar or the legend, chooses it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-analysis.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_NEURON_LEDGER_BAR (chrono_neuron_ledger_bar_get_type ())
G_DECLARE_FINAL_TYPE (ChronoNeuronLedgerBar, chrono_neuron_ledger_bar, CHRONO, NEURON_LEDGER_BAR, GtkWidget)

/* CORE_NAME heads the bar; STATE_NS holds CHRONO_N_LEDGER_STATES times,
 * by ChronoLedgerState. */
GtkWidget *chrono_neuron_ledger_bar_new (const char   *core_name,
                                         const gint64 *state_ns);

G_END_DECLS
