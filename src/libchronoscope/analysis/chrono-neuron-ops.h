/* chrono-neuron-ops.h: a NeuronCore's time and work by operator, the
 * framework's and the compiler's (HLO)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-neuron-ledger.h"
#include "chrono-neuron-metrics.h"

G_BEGIN_DECLS

typedef enum {
  CHRONO_NEURON_OP_FRAMEWORK,  /* the layer, or the HLO debug info's op_type and source line, or the NKI source */
  CHRONO_NEURON_OP_HLO,        /* the HLO instruction ("dot.3") */
} ChronoNeuronOpKind;

const char *chrono_neuron_op_kind_to_string (ChronoNeuronOpKind kind);

typedef struct {
  const char        *name;              /* owned by the table */
  ChronoNeuronOpKind kind;
  guint64            instructions;
  gint64             tensor_ns;         /* the union of its Tensor-engine instructions */
  gdouble            flops;             /* BF16-equivalent */
  gdouble            transpose_flops;
  gdouble            hbm_bytes;         /* read and written by its instructions */
  gdouble            hfu_percent;       /* over its Tensor time at the core's peak; NAN when unknown */
  gdouble            mfu_percent;       /* the same without transposes */
  gint64             lost_ns;           /* the Tensor engine's idle gaps that its instruction ended; -1: no ledger */
} ChronoNeuronOp;

typedef struct _ChronoNeuronOpTable ChronoNeuronOpTable;

/* The operators of the core of METRICS, by Tensor time then lost time;
 * LEDGER (nullable) gives the time lost before each. */
ChronoNeuronOpTable  *chrono_neuron_op_table_new      (ChronoNeuronMetrics      *metrics,
                                                       const ChronoNeuronLedger *ledger);
void                  chrono_neuron_op_table_free     (ChronoNeuronOpTable      *table);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoNeuronOpTable, chrono_neuron_op_table_free)
guint                 chrono_neuron_op_table_get_n_ops (ChronoNeuronOpTable     *table);
const ChronoNeuronOp *chrono_neuron_op_table_get_op    (ChronoNeuronOpTable     *table,
                                                        guint                    index);
/* The row of operator NAME of KIND, or NULL. */
const ChronoNeuronOp *chrono_neuron_op_table_lookup    (ChronoNeuronOpTable     *table,
                                                        ChronoNeuronOpKind       kind,
                                                        const char              *name);

/* For the app: the table of NeuronCore CORE of ANALYSIS (its position
 * among the analysis's NeuronCores), or NULL past the last. */
ChronoNeuronOpTable  *chrono_analysis_get_neuron_ops   (ChronoAnalysis          *analysis,
                                                        guint                    core);

/* The report's "operators" member of a core and its Markdown table. */
void                  chrono_neuron_ops_write_json      (ChronoAnalysis         *analysis,
                                                         ChronoNeuronMetrics    *metrics,
                                                         JsonBuilder            *builder);
void                  chrono_neuron_ops_append_markdown (ChronoAnalysis         *analysis,
                                                         ChronoNeuronMetrics    *metrics,
                                                         GString                *out);

G_END_DECLS
