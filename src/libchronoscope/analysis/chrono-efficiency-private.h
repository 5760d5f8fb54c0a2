/* chrono-efficiency-private.h: the efficiency inside the analysis
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-analysis-private.h"
#include "chrono-efficiency.h"

G_BEGIN_DECLS

typedef struct _ChronoEfficiency ChronoEfficiency;

/* Reads each trace given, then each of its ranks given after it, in a
 * thread of its own, while the rest of the analysis runs; finish waits
 * for it. */
/* WITH_SERIES: each device's FLOPs over time too. */
ChronoEfficiency *chrono_efficiency_new       (const ChronoAnalysisThresholds *thresholds,
                                               gboolean                        with_series);
void              chrono_efficiency_add_trace (ChronoEfficiency               *efficiency,
                                               ChronoTrace                    *trace);
void              chrono_efficiency_add_rank  (ChronoEfficiency               *efficiency,
                                               ChronoRankData                 *data);
void              chrono_efficiency_finish   (ChronoEfficiency               *efficiency);
void              chrono_efficiency_free     (ChronoEfficiency               *efficiency);

const ChronoAnalysisThresholds *chrono_efficiency_get_thresholds (ChronoEfficiency *efficiency);

/* The rows, once finished, for the parts of the analysis that run
 * before it is held by a ChronoAnalysis (a rule on the excess over the
 * roofline): in decreasing GPU time. */
guint                      chrono_efficiency_get_n_rows (ChronoEfficiency *efficiency);
const ChronoEfficiencyRow *chrono_efficiency_get_row    (ChronoEfficiency *efficiency,
                                                         guint             index);

/* Held by the analysis: chrono-analysis.c gives it out. */
ChronoEfficiency *chrono_analysis_get_efficiency_data (ChronoAnalysis *self);

/* The report's "efficiency" and "model_flops_utilization" members, and
 * its Markdown section. */
void              chrono_efficiency_write_json      (ChronoAnalysis *self,
                                                     JsonBuilder    *builder);
void              chrono_efficiency_append_markdown (ChronoAnalysis *self,
                                                     GString        *out);

/* The report's "neuron_engines" member and its Markdown section: each
 * NeuronCore engine's busy share per step, the profiler's MFU and MBU. */
void              chrono_efficiency_neuron_write_json      (ChronoAnalysis *self,
                                                            JsonBuilder    *builder);
void              chrono_efficiency_neuron_append_markdown (ChronoAnalysis *self,
                                                            GString        *out);

G_END_DECLS
