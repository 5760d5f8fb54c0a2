/* chrono-neuron-ledger.h: a NeuronCore's time, following its Tensor engine
 *
 * Every nanosecond of a NeuronCore's window is compute (a matrix
 * instruction runs on the Tensor engine), transpose (only transposes run
 * there) or idle, and each idle gap takes one cause, found by walking
 * back the dependencies of the Tensor instruction that ended it.
 * docs/analysis.md ("NeuronCores") defines the states and the walk.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-analysis.h"

G_BEGIN_DECLS

/* What a span of a NeuronCore is, from its row. */
typedef enum {
  CHRONO_NEURON_UNIT_TENSOR,       /* Tensor (PE) and TensorMatrix (PE) */
  CHRONO_NEURON_UNIT_VECTOR,
  CHRONO_NEURON_UNIT_SCALAR,
  CHRONO_NEURON_UNIT_GPSIMD,
  CHRONO_NEURON_UNIT_SYNC,         /* semaphores and DMA triggers: a pass-through */
  CHRONO_NEURON_UNIT_DMA,          /* a transfer on a DMA queue */
  CHRONO_NEURON_UNIT_COLLECTIVE,   /* a CC op or a CC-core instruction */
  CHRONO_NEURON_UNIT_OTHER,        /* an engine the profile does not name */
  CHRONO_NEURON_N_UNITS
} ChronoNeuronUnit;

const char *chrono_neuron_unit_to_string (ChronoNeuronUnit unit);
/* The unit of the work on TRACK of TRACE, from the row's name and kind. */
ChronoNeuronUnit chrono_neuron_unit_of_track (ChronoTrace *trace,
                                              guint32      track);

/* One span of a gap's dependency chain. */
typedef struct {
  ChronoSpanRef    span;
  ChronoNeuronUnit unit;
  gint64           start_ns;
  gint64           end_ns;
} ChronoNeuronLink;

/* A stretch in which the Tensor engine ran nothing, and why. */
typedef struct {
  gint64            start_ns;
  gint64            end_ns;
  ChronoLedgerState cause;         /* one of the CHRONO_LEDGER_IDLE_* Neuron states */
  gboolean          tail;          /* after the last Tensor instruction: no instruction ended it */
  guint             first_link;    /* the chain: the Tensor instruction that ended the gap (none for */
  guint             n_links;       /* the tail), then each predecessor walked, the cause last */
} ChronoNeuronGap;

typedef struct _ChronoNeuronLedger ChronoNeuronLedger;

/* The ledger of the NeuronCore whose row in the breakdowns is BREAKDOWN;
 * NULL when that device is no NeuronCore (or has no ledger). */
const ChronoNeuronLedger *chrono_analysis_get_neuron_ledger (ChronoAnalysis *self,
                                                             guint           breakdown);

/* Its window: the core's first to last activity. */
gint64                  chrono_neuron_ledger_get_start  (const ChronoNeuronLedger *ledger);
gint64                  chrono_neuron_ledger_get_end    (const ChronoNeuronLedger *ledger);

/* The gaps, by start. */
guint                   chrono_neuron_ledger_get_n_gaps (const ChronoNeuronLedger *ledger);
const ChronoNeuronGap  *chrono_neuron_ledger_get_gap    (const ChronoNeuronLedger *ledger,
                                                         guint                     index);
const ChronoNeuronLink *chrono_neuron_ledger_get_link   (const ChronoNeuronLedger *ledger,
                                                         guint                     index);
/* The gap that holds T, or G_MAXUINT. */
guint                   chrono_neuron_ledger_gap_at     (const ChronoNeuronLedger *ledger,
                                                         gint64                    t);
/* Adds the time of each state inside [START, END) to STATE_NS. */
void                    chrono_neuron_ledger_sum        (const ChronoNeuronLedger *ledger,
                                                         gint64                    start,
                                                         gint64                    end,
                                                         gint64                    state_ns[CHRONO_N_LEDGER_STATES]);

/* What the findings claim of [START, END). */
gint64                  chrono_neuron_ledger_claimed_in (const ChronoNeuronLedger *ledger,
                                                         gint64                    start,
                                                         gint64                    end);

/* Whether STATE is one of a NeuronCore's, and the states a NeuronCore's
 * ledger is written with, in order. */
gboolean                chrono_ledger_state_is_neuron   (ChronoLedgerState state);
extern const ChronoLedgerState chrono_neuron_ledger_states[9];

G_END_DECLS
