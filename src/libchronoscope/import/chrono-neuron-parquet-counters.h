/* chrono-neuron-parquet-counters.h: Explorer's time-series tables (host
 * memory, HBM usage and CPU use of a system profile; HBM and DMA
 * throughput, pending DMAs, PSUM and SBUF use of a device profile) as
 * counters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-neuron-counters.h"
#include "chrono-parquet-reader.h"

G_BEGIN_DECLS

/* The counter table called NAME (LEN bytes, "HostMemUsage"), or -1. */
gint     chrono_neuron_parquet_counter_table     (const char           *name,
                                                  gsize                 len);
/* Whether counter table TABLE is a system profile's, on the host's
 * epoch clock, rather than a device profile's. */
gboolean chrono_neuron_parquet_counter_is_system (gint                  table);
/* Reads the rows of F, counter table TABLE, into COUNTERS: a system
 * table's under its instance (HBM kept until chrono_neuron_counters_finish),
 * a device table's under the NeuronCore (process 0). Rows without a time
 * or a value are counted as skipped; FALSE with ERROR when a needed
 * column is missing or of another type, or no row group can be read. */
gboolean chrono_neuron_parquet_read_counters     (ChronoNeuronCounters *counters,
                                                  ChronoParquetFile    *f,
                                                  gint                  table,
                                                  GError              **error);

G_END_DECLS
