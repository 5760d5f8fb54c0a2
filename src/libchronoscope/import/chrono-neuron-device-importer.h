/* chrono-neuron-device-importer.h: AWS Neuron device profile JSON
 * (ntff.json, device_profile_model_<id>.json)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-loader.h"
#include "chrono-source.h"

G_BEGIN_DECLS

/* Whether the top-level keys of the JSON object that starts at DATA (up to
 * LEN bytes are looked at) are those of a Neuron device profile. */
gboolean chrono_neuron_device_sniff        (const guint8 *data,
                                            gsize         len);

/* Reads SOURCE into TRACE: one NeuronCore process with a track per engine,
 * DMA queue and collective core, semaphore counters, and dependency edges. */
gboolean chrono_neuron_device_importer_run (ChronoTrace        *trace,
                                            ChronoSource       *source,
                                            GCancellable       *cancellable,
                                            ChronoProgressFunc  progress,
                                            gpointer            user_data,
                                            GError            **error);

G_END_DECLS
