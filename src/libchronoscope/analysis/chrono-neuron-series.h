/* chrono-neuron-series.h: a NeuronCore's engines over time: how busy each
 * engine and the DMA queues were, and the hardware FLOPs utilisation,
 * as cumulative functions built once, so any bin at any zoom costs two
 * binary searches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-flops-series.h"
#include "chrono-neuron-ledger.h"

G_BEGIN_DECLS

/* The lanes, top to bottom. */
typedef enum {
  CHRONO_NEURON_LANE_HFU,
  CHRONO_NEURON_LANE_TENSOR,
  CHRONO_NEURON_LANE_VECTOR,
  CHRONO_NEURON_LANE_SCALAR,
  CHRONO_NEURON_LANE_GPSIMD,
  CHRONO_NEURON_LANE_DMA,      /* any queue moving data */
  CHRONO_NEURON_N_LANES
} ChronoNeuronLane;

/* "HFU", "Tensor", … as the lanes are headed (untranslated). */
const char *chrono_neuron_lane_to_string (ChronoNeuronLane lane);

typedef struct _ChronoNeuronSeries ChronoNeuronSeries;

/* The series of the NeuronCore drawn as PROCESS of TRACE: its tracks'
 * spans by engine, named as the profile names its rows; PIECES the
 * FLOPs of its instructions, each spread evenly over its duration;
 * PEAK_TFLOPS the core's peak, 0 when unknown (then no HFU). */
ChronoNeuronSeries *chrono_neuron_series_new       (ChronoTrace            *trace,
                                                    guint32                 process,
                                                    const ChronoFlopsPiece *pieces,
                                                    guint                   n_pieces,
                                                    gdouble                 peak_tflops);
void                chrono_neuron_series_free      (ChronoNeuronSeries     *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoNeuronSeries, chrono_neuron_series_free)

guint32             chrono_neuron_series_get_process (const ChronoNeuronSeries *self);
gdouble             chrono_neuron_series_get_peak_tflops (const ChronoNeuronSeries *self);
/* Whether LANE has anything to show: an engine with spans, FLOPs at a
 * known peak. */
gboolean            chrono_neuron_series_has_lane  (const ChronoNeuronSeries *self,
                                                    ChronoNeuronLane          lane);
/* LANE over [START, END) as a fraction: the share of the time the engine
 * was busy, or the FLOPs done over what the peak could have done. */
gdouble             chrono_neuron_series_get       (const ChronoNeuronSeries *self,
                                                    ChronoNeuronLane          lane,
                                                    gint64                    start,
                                                    gint64                    end);
/* The same for N_BINS bins between N_BINS + 1 increasing EDGES, into
 * VALUES: one search an edge. */
void                chrono_neuron_series_sample    (const ChronoNeuronSeries *self,
                                                    ChronoNeuronLane          lane,
                                                    const gint64             *edges,
                                                    guint                     n_bins,
                                                    gdouble                  *values);

/* One series per NeuronCore of ANALYSIS, in the order of
 * chrono_neuron_metrics_for_analysis: GPtrArray of ChronoNeuronSeries.
 * An analysis run with the FLOPs series made them already: those. */
GPtrArray          *chrono_neuron_series_for_analysis (ChronoAnalysis *analysis);

G_END_DECLS
