/* chrono-neuron-regions.h: a NeuronCore's repeating regions, the
 * stretches between its collectives
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-analysis.h"

G_BEGIN_DECLS

/* The report's "neuron_regions" member: each NeuronCore's regions with
 * their ledger; nothing when the analysis has no NeuronCore. */
void chrono_neuron_regions_write_json (ChronoAnalysis *self,
                                       JsonBuilder    *builder);

G_END_DECLS
