/* neuron-gen-private.h: what the generator's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>
#include <string.h>

#include "neuron-gen.h"

G_BEGIN_DECLS

/* A file written through a buffer into PATH.tmp, renamed into place when
 * it is complete. Without a file it only counts bytes. */
typedef struct {
  FILE    *file;
  char    *tmp_path;
  GString *buf;
  guint64  written;
  gboolean failed;
} NeuronGenWriter;

gboolean neuron_gen_writer_open   (NeuronGenWriter  *w,
                                   const char       *path,
                                   GError          **error);
void     neuron_gen_writer_count  (NeuronGenWriter  *w);
guint64  neuron_gen_writer_offset (const NeuronGenWriter *w);
gboolean neuron_gen_writer_close  (NeuronGenWriter  *w,
                                   const char       *path,
                                   guint64          *bytes,
                                   GError          **error);
void     neuron_gen_put           (NeuronGenWriter  *w,
                                   const char       *format,
                                   ...) G_GNUC_PRINTF (2, 3);
/* A number, quoted when the options ask for string-typed numbers. */
void     neuron_gen_put_int       (NeuronGenWriter        *w,
                                   const NeuronGenOptions *o,
                                   const char             *key,
                                   gint64                  value);
void     neuron_gen_put_uint      (NeuronGenWriter        *w,
                                   const NeuronGenOptions *o,
                                   guint64                 value);

/* The system profile's mem_usage, device_mem_usage and cpu_util arrays
 * (neuron-gen-memory.c), NEURON_GEN_MEM_SAMPLES each from START, STEP
 * apart; the peaks go into C. */
void     neuron_gen_write_memory  (NeuronGenWriter        *w,
                                   const NeuronGenOptions *o,
                                   NeuronGenCounts        *c,
                                   gint64                  start,
                                   gint64                  step);

/* The planted profile (neuron-gen-plant.c). */
gboolean neuron_gen_plant_write_device (const char             *path,
                                        const NeuronGenOptions *options,
                                        NeuronGenCounts        *counts,
                                        GError                **error);
/* Its executions' windows: start and end, in device ns, one after the
 * other. */
GArray  *neuron_gen_plant_executions   (const NeuronGenOptions *options,
                                        GError                **error);

G_END_DECLS
