/* chrono-neuron-op-item.h: one row of a NeuronCore's operator table, as
 * a list model holds it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "chrono-neuron-ops.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_NEURON_OP_ITEM (chrono_neuron_op_item_get_type ())
G_DECLARE_FINAL_TYPE (ChronoNeuronOpItem, chrono_neuron_op_item, CHRONO, NEURON_OP_ITEM, GObject)

/* A copy of OP, its name too: the item outlives the table. CORE is the
 * position of its NeuronCore among the analysis's, CORE_NAME its name. */
ChronoNeuronOpItem   *chrono_neuron_op_item_new       (const ChronoNeuronOp *op,
                                                       guint                 core,
                                                       const char           *core_name);
const ChronoNeuronOp *chrono_neuron_op_item_get_op    (ChronoNeuronOpItem   *self);
guint                 chrono_neuron_op_item_get_core  (ChronoNeuronOpItem   *self);
const char           *chrono_neuron_op_item_get_core_name (ChronoNeuronOpItem *self);

G_END_DECLS
