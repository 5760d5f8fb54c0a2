/* chrono-cli-load.h: the traces that a command's FILE… arguments name, and what is said of them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-analysis.h"
#include "chrono-trace.h"

G_BEGIN_DECLS

/* How many traces FILES make: each file alone and each folder as one
 * profile, or with MERGE all of them as one trace on a shared clock. */
guint        chrono_cli_n_inputs        (char * const *files,
                                         gboolean      merge);
/* Loads the INDEXth of those traces; errors name the file or folder. */
ChronoTrace *chrono_cli_load_input      (char * const *files,
                                         gboolean      merge,
                                         guint         index,
                                         GError      **error);

/* What `info --json` prints for TRACE: its format, sizes, counts, clock
 * and warnings. */
JsonNode    *chrono_cli_trace_summary   (ChronoTrace  *trace);

/* The analysis thresholds from GSettings when the schema is installed,
 * else the defaults (which match the schema's). */
void         chrono_cli_read_thresholds (ChronoAnalysisThresholds *thresholds);

G_END_DECLS
