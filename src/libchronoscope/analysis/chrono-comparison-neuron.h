/* chrono-comparison-neuron.h: the main NeuronCores of two runs compared by
 * metric, engine, ledger state and operator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-comparison.h"

G_BEGIN_DECLS

/* The comparison's "neuron" member (null unless both main devices are
 * NeuronCores) and its Markdown section (nothing then). */
void chrono_comparison_neuron_write_json      (ChronoComparison *self,
                                               JsonBuilder      *builder);
void chrono_comparison_neuron_append_markdown (ChronoComparison *self,
                                               GString          *out);

G_END_DECLS
