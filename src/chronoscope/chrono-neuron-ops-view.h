/* chrono-neuron-ops-view.h: the NeuronCores' operators, the framework's or
 * the compiler's, with their instructions, Tensor time, utilisation,
 * bytes and the time the Tensor engine lost before them; a row chosen
 * marks its instructions on the timeline, to step through one by one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-findings-panel.h"
#include "chrono-neuron-ops.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_NEURON_OPS_VIEW (chrono_neuron_ops_view_get_type ())
G_DECLARE_FINAL_TYPE (ChronoNeuronOpsView, chrono_neuron_ops_view, CHRONO, NEURON_OPS_VIEW, GtkWidget)

/* Shows the operators of every core, or of one. */
#define CHRONO_NEURON_OPS_VIEW_ALL_CORES G_MAXUINT

/* Follows PANEL's analysis, all its NeuronCores' operators. */
GtkWidget          *chrono_neuron_ops_view_new       (ChronoFindingsPanel *panel);
void                chrono_neuron_ops_view_set_level (ChronoNeuronOpsView *self,
                                                      ChronoNeuronOpKind   level);
/* CORE: a position among the analysis's NeuronCores, or
 * CHRONO_NEURON_OPS_VIEW_ALL_CORES. */
void                chrono_neuron_ops_view_set_core  (ChronoNeuronOpsView *self,
                                                      guint                core);
/* Whether the rows are built: they are on a worker thread after each new
 * analysis ("ready" notifies when they are). */
gboolean            chrono_neuron_ops_view_get_ready (ChronoNeuronOpsView *self);
/* The rows shown, after the filter, in their order. */
GListModel         *chrono_neuron_ops_view_get_rows  (ChronoNeuronOpsView *self);
/* As a click would: row POSITION's instructions marked on the timeline,
 * the first selected. */
void                chrono_neuron_ops_view_activate  (ChronoNeuronOpsView *self,
                                                      guint                position);
/* The operator of INSTRUCTION at its level (HLO, else the framework's)
 * on INSTRUCTION's core filtered to and chosen, INSTRUCTION selected
 * among its instructions; FALSE when it names none. */
gboolean            chrono_neuron_ops_view_show_instruction (ChronoNeuronOpsView *self,
                                                             ChronoSpanRef        instruction);
/* The marked instructions, by start. */
const ChronoSpanRef *chrono_neuron_ops_view_get_instructions (ChronoNeuronOpsView *self,
                                                              guint               *n);

G_END_DECLS
