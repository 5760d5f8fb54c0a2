/* chrono-efficiency-peaks.h: the peaks that apply on a device, and a call's roofline at them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-analysis-private.h"
#include "chrono-efficiency.h"
#include "chrono-op-models.h"

G_BEGIN_DECLS

/* The peaks that apply on a device: the table's, with the user's overrides. */
typedef struct {
  const ChronoDevicePeaks *table;
  ChronoDevicePeaks        custom;
  gboolean                 known;
  gboolean                 packed;   /* torch_npu's device: its note says why there are no peaks */
} ChronoEfficiencyPeaks;

/* deviceProperties: device index -> name. */
GHashTable *chrono_efficiency_device_names  (ChronoTrace                    *trace);
/* The peaks of the device named DEVICE_NAME (NULL when the trace names
 * none) with the thresholds' overrides; PACKED is left as it was. */
void        chrono_efficiency_resolve_peaks (const char                     *device_name,
                                             const ChronoAnalysisThresholds *thresholds,
                                             ChronoEfficiencyPeaks          *peaks);
/* The roofline of one call at PEAKS: the longer of its compute and
 * memory times, in ns. FALSE when the peak it needs is unknown. */
gboolean    chrono_efficiency_call_roofline (const ChronoDevicePeaks        *peaks,
                                             const ChronoOpCost             *cost,
                                             gdouble                        *ns,
                                             ChronoBound                    *bound);

G_END_DECLS
