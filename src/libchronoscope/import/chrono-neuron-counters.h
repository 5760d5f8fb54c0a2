/* chrono-neuron-counters.h: the sampled counters of a Neuron system
 * profile (host memory, HBM usage by category), as the JSON and the
 * Parquet importers both read them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-neuron.h"

G_BEGIN_DECLS

/* The usage categories of SystemProfileHbmUsage, by their column names
 * ("generic_bytes" ...), in the schema's order. */
#define CHRONO_NEURON_HBM_N_PARTS 22
extern const char * const chrono_neuron_hbm_parts[CHRONO_NEURON_HBM_N_PARTS];

/* The index in chrono_neuron_hbm_parts of the column NAME (LEN bytes), or -1. */
gint chrono_neuron_hbm_part (const char *name,
                             gsize       len);

/* One sample of one HBM: TOTAL is -1 when the record has none, and is
 * then the sum of its parts. */
typedef struct {
  gint64  ts;
  gint64  device;             /* -1: the record names none */
  gint64  hbm;                /* -1: likewise */
  gint64  total;
  gint64  parts[CHRONO_NEURON_HBM_N_PARTS];
  guint32 has_parts;          /* a bit per part */
} ChronoNeuronHbmSample;

/* The series names the memory analysis reads: "Host memory (bytes)" for
 * the host, "Device 0 HBM 1 memory (bytes)" for an HBM, and that name
 * followed by " · weights" for each category of it. */
#define CHRONO_NEURON_HOST_MEMORY "Host memory (bytes)"

typedef struct {
  ChronoNeuronReader *reader;
  GHashTable         *processes;   /* display name id -> index + 1 */
  GHashTable         *hbms;        /* "instance\ndevice\nhbm" -> GArray of ChronoNeuronHbmSample */
  GPtrArray          *order;       /* the keys of hbms, in the order first seen */
} ChronoNeuronCounters;

void    chrono_neuron_counters_init    (ChronoNeuronCounters        *self,
                                        ChronoNeuronReader          *reader);
/* The process called DISPLAY, made the first time. */
guint32 chrono_neuron_counters_process (ChronoNeuronCounters        *self,
                                        const char                  *display);
/* The instance's process ("Host" when INSTANCE is NULL). */
guint32 chrono_neuron_counters_host    (ChronoNeuronCounters        *self,
                                        const char                  *instance,
                                        gsize                        len);
/* A sample of counter SERIES under PROCESS. */
void    chrono_neuron_counters_sample  (ChronoNeuronCounters        *self,
                                        guint32                      process,
                                        const char                  *series,
                                        gint64                       ts,
                                        gdouble                      value);
/* Keeps an HBM sample of INSTANCE (NULL: none named) until _finish. */
void    chrono_neuron_counters_add_hbm (ChronoNeuronCounters        *self,
                                        const char                  *instance,
                                        gsize                        len,
                                        const ChronoNeuronHbmSample *sample);
/* Makes the HBM rows: one process per instance and device, and under it
 * a total per HBM and a row per category that is ever above 0. */
void    chrono_neuron_counters_finish  (ChronoNeuronCounters        *self);
void    chrono_neuron_counters_clear   (ChronoNeuronCounters        *self);

G_END_DECLS
