/* chrono-cli-load.h: how the commands of chronoscope-cli open and describe traces
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-analysis.h"
#include "chrono-trace.h"

G_BEGIN_DECLS

/* One trace file, or a profile folder read as one trace. */
ChronoTrace *chrono_cli_load_trace      (const char  *path,
                                         GError     **error);

/* What `info --json` prints for TRACE: its format, sizes, counts, clock
 * and warnings. */
JsonNode    *chrono_cli_trace_summary   (ChronoTrace *trace);

/* The analysis thresholds from GSettings when the schema is installed,
 * else the defaults (which match the schema's). */
void         chrono_cli_read_thresholds (ChronoAnalysisThresholds *thresholds);

G_END_DECLS
