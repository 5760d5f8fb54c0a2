/* chrono-analysis-settings.h: the thresholds of the analysis from
 * GSettings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "chrono-analysis.h"

G_BEGIN_DECLS

#define CHRONO_ANALYSIS_SCHEMA_CHILD "analysis"

/* The defaults, overridden by every key of SETTINGS (the "analysis"
 * child schema) that names a threshold; SETTINGS may be NULL. */
void chrono_analysis_settings_read (GSettings                *settings,
                                    ChronoAnalysisThresholds *thresholds);

G_END_DECLS
