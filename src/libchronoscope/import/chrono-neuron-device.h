/* chrono-neuron-device.h: the model of a Neuron device profile, filled by
 * the JSON and the Parquet importers alike
 *
 * One NeuronCore: a row per engine in the hardware's order, one per DMA
 * queue, the collectives and a row per CC-core, a counter per semaphore,
 * and the dependency and semaphore edges between spans, resolved once
 * every table has been read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-neuron.h"

G_BEGIN_DECLS

#define CHRONO_NEURON_ROW_CACHE 16

/* Tables whose rows are the ends of dependency edges. */
typedef enum {
  CHRONO_NEURON_ID_INSTRUCTION,
  CHRONO_NEURON_ID_DMA,
  CHRONO_NEURON_N_ID_TABLES
} ChronoNeuronIdTable;

typedef struct {
  const guint8       *text;   /* the name as the caller holds it */
  gsize               len;
  guint               kind;
  guint               engine;
  ChronoTrackBuilder *b;
} ChronoNeuronRowCache;

typedef struct {
  ChronoNeuronReader  *reader;
  ChronoNeuronRowCache row_cache[CHRONO_NEURON_ROW_CACHE];
  guint                row_cache_next;
  ChronoTrackBuilder  *engine_tracks[6];
  guint                n_queues;
  GArray              *edges;          /* ChronoSpanEdge */
  GArray              *ids[CHRONO_NEURON_N_ID_TABLES];
  GArray              *deps;           /* predecessor id, successor span */
  GArray              *flows;          /* edges between two ids */
  GHashTable          *sem_updates;    /* semaphore number -> GArray of updates */
  GArray              *waits;
  guint32              update_seq;
  guint64              unresolved_deps;
  guint64              unresolved_flows;
  guint64              unmatched_waits;
} ChronoNeuronDevice;

void                chrono_neuron_device_init         (ChronoNeuronDevice     *dev,
                                                       ChronoNeuronReader     *reader);
void                chrono_neuron_device_clear        (ChronoNeuronDevice     *dev);

/* The row of the engine LABEL names ("Tensor", "vector", "Vector Engine -
 * Row 3"... compared without case); an unnamed engine gets a row of its
 * own. */
ChronoTrackBuilder *chrono_neuron_device_engine_track (ChronoNeuronDevice     *dev,
                                                       const ChronoJsonString *label);
/* Names are remembered by where their text is: to call before that text
 * goes away. */
void                chrono_neuron_device_forget_names (ChronoNeuronDevice     *dev);
ChronoTrackBuilder *chrono_neuron_device_queue_track  (ChronoNeuronDevice     *dev,
                                                       const ChronoJsonString *queue);
/* The collectives row, or with HAS_CORE the row of CC-core CORE. */
ChronoTrackBuilder *chrono_neuron_device_cc_track     (ChronoNeuronDevice     *dev,
                                                       gboolean                has_core,
                                                       guint64                 core);
/* The counter of the semaphore called NAME ("S[5] (Tensor)"). */
ChronoTrackBuilder *chrono_neuron_device_semaphore_track (ChronoNeuronDevice  *dev,
                                                          guint32              name,
                                                          const guint8        *text,
                                                          gsize                len);

/* Span SPAN of B is row ID of TABLE, for edges that name it. */
void                chrono_neuron_device_add_id       (ChronoNeuronDevice     *dev,
                                                       ChronoNeuronIdTable     table,
                                                       guint64                 id,
                                                       ChronoTrackBuilder     *b,
                                                       guint32                 span);
/* Instruction PRED comes before span SPAN of B. */
void                chrono_neuron_device_add_dep      (ChronoNeuronDevice     *dev,
                                                       guint64                 pred,
                                                       ChronoTrackBuilder     *b,
                                                       guint32                 span);
/* Row IN_ID of IN_TABLE comes before row OUT_ID of OUT_TABLE. */
void                chrono_neuron_device_add_flow     (ChronoNeuronDevice     *dev,
                                                       ChronoNeuronIdTable     in_table,
                                                       guint64                 in_id,
                                                       ChronoNeuronIdTable     out_table,
                                                       guint64                 out_id);
/* The semaphore waits ($S[n]>=v) and updates (S[n] (owner)++@complete) of
 * an instruction's operand text. */
void                chrono_neuron_device_scan_operands (ChronoNeuronDevice    *dev,
                                                        const guint8          *operands,
                                                        gsize                  len,
                                                        ChronoTrackBuilder    *b,
                                                        guint32                span,
                                                        gint64                 start,
                                                        gint64                 end);
/* A DMA transfer's completion semaphore ("S[10] (qGpSimdPIO0)"; "-1" is none). */
void                chrono_neuron_device_dma_semaphore (ChronoNeuronDevice    *dev,
                                                        const guint8          *text,
                                                        gsize                  len,
                                                        gint64                 end,
                                                        ChronoTrackBuilder    *b,
                                                        guint32                span);

/* Resolves the edges, names the core after the "neuron_summary"
 * metadata's nc_idx, counts the engines' spans and makes the model
 * (format "neuron-device"). DEP_SOURCE names where dependencies came from
 * in the warning about those that name nothing. */
void                chrono_neuron_device_finish       (ChronoNeuronDevice     *dev,
                                                       const char             *dep_source);

G_END_DECLS
