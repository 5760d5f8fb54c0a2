/* chrono-comparison-efficiency.h: each side's efficiency per operator shape, joined
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-comparison.h"
#include "chrono-efficiency.h"

G_BEGIN_DECLS

/* One side's efficiency rows of one operator shape, over its compared
 * rank's devices and its whole analysed trace (the efficiency is not cut
 * to the used steps). */
typedef struct {
  guint64     count;             /* 0: the side has no such row */
  gint64      gpu_time_ns;
  gdouble     flops;             /* all calls */
  gdouble     tflops;            /* achieved */
  gboolean    has_roofline;
  gint64      roofline_ns;
  gdouble     roofline_percent;  /* roofline_ns / gpu_time_ns, NAN without a roofline */
  ChronoBound bound;             /* of the costliest row */
  const char *device_name;       /* likewise; NULL when the trace names none */
} ChronoCompareEfficiencySide;

/* An operator with the same input shapes and types on both sides (or on
 * one, the other's count 0). */
typedef struct {
  char       *op;
  char       *input_dims;        /* as A writes it (B, when only B has it) */
  char       *input_types;
  const char *family;
  ChronoCompareEfficiencySide a;
  ChronoCompareEfficiencySide b;
} ChronoCompareEfficiency;

void       chrono_compare_efficiency_free (ChronoCompareEfficiency *row);

/* The rows on both sides, then those on one; each part by most GPU time
 * (of the larger side) first. Empty when neither side recorded shapes. */
GPtrArray *chrono_comparison_get_efficiency_rows (ChronoComparison *comparison);

/* The report's "efficiency" member and its Markdown section. */
void       chrono_compare_efficiency_write_json      (GPtrArray   *rows,
                                                      JsonBuilder *builder);
void       chrono_compare_efficiency_append_markdown (GPtrArray   *rows,
                                                      GString     *out);

G_END_DECLS
