/* chrono-neuron-parquet-facts.h: the members of a table's instructions
 * and DMA transfers that the analysis reads, kept as the table is read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-neuron-facts.h"
#include "chrono-parquet-reader.h"

G_BEGIN_DECLS

typedef struct _ChronoParquetFacts ChronoParquetFacts;

/* The columns of F that hold such members, or NULL when it has none. */
ChronoParquetFacts *chrono_parquet_facts_new   (ChronoParquetFile         *f);
void                chrono_parquet_facts_free  (ChronoParquetFacts        *pf);
/* Decodes row group GROUP's columns. SHARED, when not NULL, is column
 * SHARED_AT of the group already decoded by the caller, used as it is. */
void                chrono_parquet_facts_read  (ChronoParquetFacts        *pf,
                                                guint                      group,
                                                gint                       shared_at,
                                                const ChronoParquetColumn *shared);
/* Adds row ROW of the group read to FACTS as the record at OFFSET. */
void                chrono_parquet_facts_add   (ChronoParquetFacts        *pf,
                                                ChronoNeuronFacts         *facts,
                                                guint64                    row,
                                                guint64                    offset);
/* Lets go of the group's columns. */
void                chrono_parquet_facts_clear (ChronoParquetFacts        *pf);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoParquetFacts, chrono_parquet_facts_free)

G_END_DECLS
