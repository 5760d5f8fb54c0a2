/* chrono-neuron.h: what the AWS Neuron importers share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-json-scanner.h"

G_BEGIN_DECLS

typedef enum {
  CHRONO_NEURON_NONE,
  CHRONO_NEURON_DEVICE,   /* device profile JSON: instruction, dma, summary ... */
  CHRONO_NEURON_SYSTEM,   /* system_profile.json: trace_event(s), mem_usage, cpu_util */
} ChronoNeuronFormat;

/* Looks at the top-level keys of the JSON object at DATA (LEN bytes
 * available, from its '{'): the content decides, never the file name. */
ChronoNeuronFormat chrono_neuron_sniff    (const guint8 *data,
                                           gsize         len);

/* Reads a number, or a string that holds one ("4", "-709..."), as an
 * integer; signed and unsigned 64-bit values are both kept exactly (the
 * bits of a negative id are its unsigned value). Any other value is
 * skipped and *OK set to FALSE. */
ChronoJsonStatus   chrono_neuron_read_int (ChronoJsonScanner *s,
                                           guint64           *value,
                                           gboolean          *ok);
/* The same for a number that may have a fraction. */
ChronoJsonStatus   chrono_neuron_read_double (ChronoJsonScanner *s,
                                              gdouble           *value,
                                              gboolean          *ok);

G_END_DECLS
