/* chrono-neuron-parquet-importer.h: Neuron Explorer's device profile, a
 * folder of Parquet tables (Instruction, DmaPacketAggregated,
 * SemaphoreUpdate, Flow, CcOp, CcInstruction, Summary)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-loader.h"
#include "chrono-source.h"

G_BEGIN_DECLS

/* Reads the Parquet tables at PATHS (files of one profile folder) into
 * one NeuronCore, as the JSON device profile would be. A table that
 * cannot be read, or a row group of it, is left out with a warning that
 * says what was lost; the load fails only when no table could be read. */
ChronoTrace *chrono_neuron_parquet_load         (const char         *name,
                                                 const char * const *paths,
                                                 GCancellable       *cancellable,
                                                 ChronoProgressFunc  progress,
                                                 gpointer            user_data,
                                                 GError            **error);

/* One table on its own (a file opened by itself, bytes), its kind told by
 * the trace's name or else by its columns. */
gboolean     chrono_neuron_parquet_importer_run (ChronoTrace        *trace,
                                                 ChronoSource       *source,
                                                 GCancellable       *cancellable,
                                                 ChronoProgressFunc  progress,
                                                 gpointer            user_data,
                                                 GError            **error);

G_END_DECLS
