/* chrono-neuron-record.h: the members of a Neuron instruction or DMA
 * transfer that the metrics read, and the operators it names
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-trace.h"

G_BEGIN_DECLS

typedef enum {
  CHRONO_NEURON_F_RAW_FLOPS,
  CHRONO_NEURON_F_ADJUSTED_FLOPS,
  CHRONO_NEURON_F_FLOPS_TRANSPOSE,
  CHRONO_NEURON_F_ADJUSTED_TRANSPOSE,
  CHRONO_NEURON_F_TYPE,
  CHRONO_NEURON_F_ELEMENTS,
  CHRONO_NEURON_F_TENSOR_ELEMENTS,
  CHRONO_NEURON_F_HBM_READ,
  CHRONO_NEURON_F_HBM_WRITE,
  CHRONO_NEURON_F_SPILL_SAVE,
  CHRONO_NEURON_F_SPILL_RELOAD,
  CHRONO_NEURON_F_HLO_NAME,
  CHRONO_NEURON_F_HLO_ATTRS,
  CHRONO_NEURON_F_LAYER,
  CHRONO_NEURON_F_NKI,
  CHRONO_NEURON_F_TRANSFER_SIZE,
  CHRONO_NEURON_F_TRANSFER_BYTES,
  CHRONO_NEURON_F_SOURCE,
  CHRONO_NEURON_F_DEST,
  CHRONO_NEURON_N_FIELDS
} ChronoNeuronField;

/* Reads records one after another; what one read gives lasts until the
 * next read. */
typedef struct {
  ChronoArgsText view;
  GPtrArray     *args;                           /* ChronoArg, for records with no JSON text */
  GString       *buffers[CHRONO_NEURON_N_FIELDS];
  gsize          key_len[CHRONO_NEURON_N_FIELDS];
  const char    *text[CHRONO_NEURON_N_FIELDS];   /* NULL when absent or null */
  GHashTable    *attrs;                          /* hlo_attrs text -> framework operator name */
  GString       *name;
} ChronoNeuronRecord;

void        chrono_neuron_record_init   (ChronoNeuronRecord *r,
                                         ChronoTrace        *trace);
void        chrono_neuron_record_clear  (ChronoNeuronRecord *r);
/* The record whose args start at OFFSET. */
void        chrono_neuron_record_read   (ChronoNeuronRecord *r,
                                         guint64             offset);

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
