/* chrono-neuron-system-importer.h: AWS Neuron system_profile.json
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-loader.h"
#include "chrono-source.h"

G_BEGIN_DECLS

/* Reads SOURCE into TRACE: runtime and framework events by thread,
 * hardware events by NeuronCore, host memory and CPU counters; times stay
 * epoch nanoseconds. */
gboolean chrono_neuron_system_importer_run (ChronoTrace        *trace,
                                            ChronoSource       *source,
                                            GCancellable       *cancellable,
                                            ChronoProgressFunc  progress,
                                            gpointer            user_data,
                                            GError            **error);

G_END_DECLS
