/* chrono-neuron-record.h: the members of a Neuron instruction or DMA
 * transfer that the metrics read, and the operators it names
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-neuron-facts.h"

G_BEGIN_DECLS

/* Reads records one after another; what one read gives lasts until the
 * next read. */
typedef struct {
  const ChronoNeuronFacts *facts;
  ChronoNeuronFactRow      row;
  guint                    near;    /* where the facts had the last record */
  GHashTable              *attrs;   /* hlo_attrs and NKI texts -> framework operator name */
  GString                 *name;
} ChronoNeuronRecord;

void        chrono_neuron_record_init   (ChronoNeuronRecord *r,
                                         ChronoTrace        *trace);
void        chrono_neuron_record_clear  (ChronoNeuronRecord *r);
/* The record whose args start at OFFSET. */
void        chrono_neuron_record_read   (ChronoNeuronRecord *r,
                                         guint64             offset);
/* The same, searched for from NEAR (where the last record of a row read
 * in order was, 0 at first), which becomes where this one is: rows read
 * in turn each keep their own. */
void        chrono_neuron_record_read_near (ChronoNeuronRecord *r,
                                            guint64             offset,
                                            guint              *near);

static inline gboolean
chrono_neuron_record_has (const ChronoNeuronRecord *r,
                          ChronoNeuronField         field)
{
  return (r->row.present & (1u << field)) != 0;
}

/* A text member's text; NULL when absent. */
const char *chrono_neuron_record_text   (const ChronoNeuronRecord *r,
                                         ChronoNeuronField         field);
gboolean    chrono_neuron_record_number (const ChronoNeuronRecord *r,
                                         ChronoNeuronField         field,
                                         gdouble                  *value);
gdouble     chrono_neuron_record_number_or (const ChronoNeuronRecord *r,
                                            ChronoNeuronField         field,
                                            gdouble                   fallback);

/* The HLO instruction it belongs to ("%dot.3 = dot(...)" gives "dot.3"),
 * and its framework operator (the layer, else the HLO debug info's
 * op_type with its source line, else the NKI source location); NULL for
 * none. Valid until the next call. */
const char *chrono_neuron_record_hlo_op       (ChronoNeuronRecord *r);
const char *chrono_neuron_record_framework_op (ChronoNeuronRecord *r);

G_END_DECLS
