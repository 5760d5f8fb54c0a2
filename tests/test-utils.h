/* test-utils.h: helpers the tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-analysis.h"
#include "chrono-efficiency.h"
#include "chrono-loader.h"
#include "chrono-memory.h"

G_BEGIN_DECLS

/* NAME from $CHRONO_TRACES_DIR, loaded; NULL, with the test marked
 * skipped, when it is not there. */
ChronoTrace       *test_traces_load        (const char        *name);
/* The paths of the files in $CHRONO_TRACES_DIR but its notes (*.md),
 * sorted; NULL, with the test marked skipped, when there are none. */
GPtrArray         *test_traces_list        (void);
/* A trace from JSON text, which must load. */
ChronoTrace       *test_load_json          (const char        *json);
/* The only track whose display name is NAME. */
const ChronoTrack *test_track_named        (ChronoTrace       *trace,
                                            const char        *name);
/* The index of track T in TRACE. */
guint              test_track_index        (ChronoTrace       *trace,
                                            const ChronoTrack *t);
/* Spans whose name contains TEXT, ignoring case, counted one span at a
 * time; SKIP (nullable) flags the tracks to leave out. */
guint              test_count_name_matches (ChronoTrace       *trace,
                                            const char        *text,
                                            const gboolean    *skip);
/* A complete event ("ph":"X", times in µs) appended to S, the text of
 * a trace after its '{"traceEvents":[', with the comma before it when
 * it is not the first; ARGS is the inside of the args object. */
void               test_append_complete_event (GString    *s,
                                               const char *cat,
                                               const char *name,
                                               int         pid,
                                               int         tid,
                                               gint64      ts_us,
                                               gint64      dur_us,
                                               const char *args);
/* Removes the folder PATH and everything in it. */
void               test_remove_tree        (const char        *path);
/* The JSON file at PATH (gzip when its name ends in .gz), which must
 * parse, read with json-glib as a check independent of the loader. */
JsonNode          *test_parse_json_file    (const char        *path);
/* The first efficiency row of operator OP with the shapes DIMS, as the
 * row writes them (NULL: any); NULL when there is none. */
const ChronoEfficiencyRow *test_efficiency_row (ChronoAnalysis *a,
                                                const char     *op,
                                                const char     *dims);
/* The device of MEMORY labelled LABEL ("host", "cuda:0"), or NULL. */
const ChronoMemoryDevice  *test_memory_device_named (ChronoMemory *memory,
                                                     const char   *label);

G_END_DECLS
