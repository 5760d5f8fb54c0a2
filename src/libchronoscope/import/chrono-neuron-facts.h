/* chrono-neuron-facts.h: the members of Neuron instructions and DMA
 * transfers that the analysis reads, kept from the import's one pass
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-trace.h"

G_BEGIN_DECLS

/* Numbers first, then texts (CHRONO_NEURON_F_TYPE onwards). */
typedef enum {
  CHRONO_NEURON_F_RAW_FLOPS,
  CHRONO_NEURON_F_ADJUSTED_FLOPS,
  CHRONO_NEURON_F_FLOPS_TRANSPOSE,
  CHRONO_NEURON_F_ADJUSTED_TRANSPOSE,
  CHRONO_NEURON_F_ELEMENTS,
  CHRONO_NEURON_F_TENSOR_ELEMENTS,
  CHRONO_NEURON_F_HBM_READ,
  CHRONO_NEURON_F_HBM_WRITE,
  CHRONO_NEURON_F_SPILL_SAVE,
  CHRONO_NEURON_F_SPILL_RELOAD,
  CHRONO_NEURON_F_TRANSFER_SIZE,
  CHRONO_NEURON_F_TRANSFER_BYTES,
  CHRONO_NEURON_F_SEM_WAITS,      /* of a string "operands": its "$S[" waits, absent for none */
  CHRONO_NEURON_F_TYPE,
  CHRONO_NEURON_F_OLD_TYPE,
  CHRONO_NEURON_F_HLO_NAME,
  CHRONO_NEURON_F_HLO_ATTRS,
  CHRONO_NEURON_F_LAYER,
  CHRONO_NEURON_F_NKI,
  CHRONO_NEURON_F_SOURCE,
  CHRONO_NEURON_F_DEST,
  CHRONO_NEURON_N_FIELDS
} ChronoNeuronField;

#define CHRONO_NEURON_N_NUMBERS CHRONO_NEURON_F_TYPE

/* One record's members: a bit of PRESENT per member the record has (not
 * null); a number that does not parse is NaN, a text is a string of the
 * string of the facts' own. */
typedef struct {
  guint32 present;
  gdouble number[CHRONO_NEURON_N_NUMBERS];
  guint32 text[CHRONO_NEURON_N_FIELDS - CHRONO_NEURON_N_NUMBERS];
} ChronoNeuronFactRow;

ChronoNeuronFacts *chrono_neuron_facts_new  (void);
void               chrono_neuron_facts_free (ChronoNeuronFacts *facts);

/* The semaphore waits ("$S[n]") in the operands text OPERANDS. */
guint              chrono_neuron_count_waits  (const char *operands,
                                               gsize       len);

/* The field a member's key names, or -1. */
gint               chrono_neuron_field_of_key (const char *key,
                                               gsize       len);

/* Adds the record whose args are at OFFSET; records are added in
 * ascending OFFSET, except that chrono_neuron_facts_seal() sorts them. */
void               chrono_neuron_facts_add  (ChronoNeuronFacts         *facts,
                                             guint64                    offset,
                                             const ChronoNeuronFactRow *row);
void               chrono_neuron_facts_seal (ChronoNeuronFacts *facts);
/* The record at OFFSET into ROW; FALSE (ROW empty) when there is none.
 * NEAR is where the last record was found (0 at first), and becomes
 * where this one is: records read in order are found at once. */
gboolean           chrono_neuron_facts_find (const ChronoNeuronFacts *facts,
                                             guint64                  offset,
                                             guint                   *near,
                                             ChronoNeuronFactRow     *row);
gsize              chrono_neuron_facts_size (const ChronoNeuronFacts *facts);
/* Moves the records of SRC, which is freed, into FACTS, under TAG: their
 * offsets as a merged trace's part has them. */
void               chrono_neuron_facts_absorb (ChronoNeuronFacts *facts,
                                               ChronoNeuronFacts *src,
                                               guint64            tag);
/* Texts are kept by the facts, apart from the trace's strings. */
guint32            chrono_neuron_facts_intern (ChronoNeuronFacts *facts,
                                               const char        *text,
                                               gsize              len);
const char        *chrono_neuron_facts_text   (const ChronoNeuronFacts *facts,
                                               guint32                  id);

/* Sets member F of ROW from a table cell's TEXT (NULL, or the text
 * "null", for none), as the cell's JSON text gives it once parsed. */
void               chrono_neuron_facts_set_cell (ChronoNeuronFacts   *facts,
                                                 ChronoNeuronFactRow *row,
                                                 ChronoNeuronField    f,
                                                 const char          *text,
                                                 gsize                len);

/* TRACE's facts, gathered from its records the first time when its
 * importer kept none (table rows, merged traces). */
const ChronoNeuronFacts *chrono_neuron_facts_of_trace (ChronoTrace *trace);

G_END_DECLS
