/* chrono-efficiency.h: how close each operator runs to the hardware's limit
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-analysis.h"
#include "chrono-device-peaks.h"

G_BEGIN_DECLS

typedef enum {
  CHRONO_BOUND_UNKNOWN,        /* no roofline: the device's peaks are unknown */
  CHRONO_BOUND_COMPUTE,
  CHRONO_BOUND_MEMORY,
} ChronoBound;

const char *chrono_bound_to_string (ChronoBound bound);

typedef struct {
  gint64 start_ns;
  gint64 end_ns;
} ChronoTimeInterval;

/* One operator with one set of input shapes and types on one device,
 * recorded with record_shapes=True. A parent whose child is modelled
 * (aten::linear over aten::addmm) is counted through the child only;
 * a modelled operator's own children (aten::_flash_attention_forward
 * under aten::scaled_dot_product_attention) are counted in it. */
typedef struct {
  const char *op;              /* "aten::mm" */
  char       *input_dims;      /* the JSON array as the trace writes it */
  char       *input_types;     /* likewise */
  char       *concrete_inputs; /* when the model read it (strides, is_causal), else NULL */
  const char *family;          /* "gemm", "convolution", "attention", "elementwise", … */
  ChronoDtype dtype;           /* the type whose peak applies */
  gboolean    matrix;          /* runs on matrix (tensor) units */
  guint32     trace;
  guint       rank;            /* index into the analysis's ranks */
  gint        device;          /* the device index the trace gives, -1 when none */
  guint       device_position; /* the device among the trace's devices the analysis reads */
  const char *device_name;     /* from deviceProperties, or NULL */
  const ChronoDevicePeaks *peaks; /* NULL: unknown device, no roofline */
  guint64     count;           /* calls */
  gdouble     flops;           /* per call */
  gdouble     bytes;           /* per call: tensors read and written once */
  gint64      gpu_time_ns;     /* union of the device work of all calls */
  gdouble     achieved_tflops;
  gdouble     achieved_tbps;
  gboolean    has_roofline;
  gint64      roofline_ns;     /* all calls at the device's peaks */
  ChronoBound bound;
  gdouble     roofline_share;  /* roofline_ns / gpu_time_ns */
  gint64      excess_ns;       /* gpu_time_ns − roofline_ns, at least 0 */
  guint       n_intervals;
  ChronoTimeInterval *intervals; /* the device work of all calls, merged, in time order */
  guint       n_calls;
  ChronoSpanRef *calls;        /* the host operator spans, in the order their work ran */
} ChronoEfficiencyRow;

/* Rows in decreasing GPU time. */
guint                      chrono_analysis_get_n_efficiency (ChronoAnalysis *self);
const ChronoEfficiencyRow *chrono_analysis_get_efficiency   (ChronoAnalysis *self,
                                                             guint           index);

/* What the efficiency could not compute, one sentence each (unknown
 * devices, operators without shapes); NULL-terminated. */
const char * const        *chrono_analysis_get_efficiency_notes (ChronoAnalysis *self);

/* Model FLOPs utilisation of one device (DEVICE_POSITION as in the rows)
 * of rank RANK over [START_NS, END_NS): the time the modelled
 * operators whose device work starts there would take at the device's
 * matrix and vector peaks, over END_NS − START_NS. FLOPS, when not NULL,
 * gets their FLOPs. NAN when the device's peaks are unknown. */
gdouble                    chrono_analysis_get_mfu          (ChronoAnalysis *self,
                                                             guint           rank,
                                                             guint           device_position,
                                                             gint64          start_ns,
                                                             gint64          end_ns,
                                                             gdouble        *flops);

G_END_DECLS
