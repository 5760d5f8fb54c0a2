/* chrono-trace-set.h: several files, or a profile folder, as one trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-loader.h"

G_BEGIN_DECLS

/* Loads PATHS (NULL-terminated: trace files, or folders searched for them)
 * into one trace on a shared clock. A Neuron device profile's time 0 is
 * placed at the start of its NeuronCore's nc_exec_running in a system
 * profile of the set. In a folder, files that are not traces are skipped
 * with a warning; a named file that fails fails the load. */
ChronoTrace *chrono_trace_load_set (const char * const *paths,
                                    GCancellable       *cancellable,
                                    ChronoProgressFunc  progress,
                                    gpointer            user_data,
                                    GError            **error);

G_END_DECLS
