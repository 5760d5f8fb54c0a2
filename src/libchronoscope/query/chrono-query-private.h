/* chrono-query-private.h: what the query engine's tables share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <sqlite3.h>

#include "chrono-analysis.h"
#include "chrono-query-result.h"
#include "chrono-trace.h"

G_BEGIN_DECLS

#define CHRONO_QUERY_NO_PARENT G_MAXUINT32

/* A launch: the device spans TO to TO_END - 1 (a kernel's flow gives one,
 * a Neuron execution the run of a row's instructions within it) and the
 * runtime call FROM that launched them; OP is the operator of the call,
 * -1 for none, or CHRONO_QUERY_OP_AROUND: the innermost operator around
 * FROM, found when asked. */
#define CHRONO_QUERY_OP_AROUND (-2)

typedef struct {
  guint64 to;
  guint64 to_end;
  guint64 from;
  gint64  op;
} ChronoQueryLaunch;

/* The traces seen as one: tracks, processes and spans get ids that run on
 * across the traces, so the tables of several ranks join as one. A span's
 * id is span_base[track] + its index in the track. */
typedef struct {
  guint               n_traces;
  ChronoTrace       **traces;
  guint               n_tracks;
  const ChronoTrack **tracks;       /* by global track id */
  ChronoTrace       **track_trace;
  guint              *track_trace_index;
  guint32            *track_local;  /* the track's index in its trace */
  guint32            *track_process;/* global process id */
  guint              *track_rank;
  guint64            *span_base;    /* n_tracks + 1 */
  guint32            *trace_first_track;  /* n_traces + 1 */
  guint32            *trace_first_process;/* n_traces + 1 */
  guint               n_ranks;
  guint              *rank_trace;   /* the trace each rank is a part of */
  guint              *rank_part;

  /* Built when a query first needs them. */
  guint32           **parents;      /* per track: each span's parent index, or CHRONO_QUERY_NO_PARENT */
  gint64             *max_dur;      /* per track, -1 until known */
  GArray             *launches;     /* ChronoQueryLaunch, by first device span */
  guint               launch_hint;  /* the last one found: a scan asks in order */
  guint32            *by_name;      /* every span id, those of one name together; NULL past 2^32 spans */

  /* "CREATE TABLE name(...)" of each table, in the order registered. */
  GPtrArray          *schemas;
} ChronoQueryModel;

void     chrono_query_model_init      (ChronoQueryModel    *model,
                                       ChronoTrace * const *traces,
                                       guint                n_traces);
void     chrono_query_model_clear     (ChronoQueryModel    *model);
/* The track of span ID (which must be below span_base[n_tracks]). */
guint32  chrono_query_model_find_track (const ChronoQueryModel *model,
                                        guint64                 id);
/* The parent index of span INDEX of TRACK, or CHRONO_QUERY_NO_PARENT. */
guint32  chrono_query_model_get_parent (ChronoQueryModel *model,
                                        guint32           track,
                                        guint32           index);
gint64   chrono_query_model_get_max_dur (ChronoQueryModel *model,
                                         guint32           track);
/* The first index of TRACK whose start is at least TS. */
guint32  chrono_query_model_lower_bound (const ChronoTrack *track,
                                         gint64             ts);
/* The launch of span ID, or NULL. */
const ChronoQueryLaunch *chrono_query_model_get_launch (ChronoQueryModel *model,
                                                        guint64           id);
/* The innermost operator around span ID (a launch call), or -1. */
gint64   chrono_query_model_find_operator (ChronoQueryModel *model,
                                           guint64           id);
/* Every span id, those of one name (the same text in any trace)
 * together: what a GROUP BY name reads instead of sorting. NULL when
 * the ids do not fit 32 bits. */
const guint32 *chrono_query_model_get_by_name (ChronoQueryModel *model);
/* The ids of the strings of TRACE equal to TEXT, as a sorted array. */
GArray  *chrono_query_model_find_string (ChronoTrace *trace,
                                         const char  *text);

static inline guint64
chrono_query_model_span_id (const ChronoQueryModel *model,
                            guint32                 track,
                            guint32                 index)
{
  return model->span_base[track] + index;
}

/* What every virtual table does alike: declares SCHEMA and allocates a
 * zeroed table of SIZE bytes (a struct that starts with sqlite3_vtab);
 * allocates a zeroed cursor of SIZE bytes for VTAB; frees either. */
int  chrono_query_vtab_new    (sqlite3              *db,
                               const char           *schema,
                               gsize                 size,
                               sqlite3_vtab        **out);
int  chrono_query_cursor_new  (sqlite3_vtab         *vtab,
                               gsize                 size,
                               sqlite3_vtab_cursor **out);
int  chrono_query_vtab_free   (sqlite3_vtab         *vtab);
int  chrono_query_cursor_free (sqlite3_vtab_cursor  *cursor);

/* Registering the tables and functions on DB, over MODEL (which outlives
 * DB). Each returns an SQLite result code. */
int chrono_query_register_spans    (sqlite3          *db,
                                    ChronoQueryModel *model);
int chrono_query_register_tables   (sqlite3          *db,
                                    ChronoQueryModel *model);
int chrono_query_register_functions (sqlite3         *db,
                                    ChronoQueryModel *model);
/* Fills the analysis tables from ANALYSIS, or leaves them empty. */
int chrono_query_create_analysis   (sqlite3          *db,
                                    ChronoQueryModel *model,
                                    ChronoAnalysis   *analysis);

/* Building a result from a prepared statement's rows. */
ChronoQueryResult *chrono_query_result_new      (sqlite3_stmt      *stmt);
void               chrono_query_result_add_row  (ChronoQueryResult *self,
                                                 sqlite3_stmt      *stmt);
void               chrono_query_result_finish   (ChronoQueryResult *self,
                                                 gboolean           truncated,
                                                 gint64             elapsed_ns);

G_END_DECLS
