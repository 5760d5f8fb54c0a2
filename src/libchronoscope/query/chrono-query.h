/* chrono-query.h: SQL over loaded traces (docs/query.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "chrono-analysis.h"
#include "chrono-query-result.h"
#include "chrono-trace.h"

G_BEGIN_DECLS

#define CHRONO_QUERY_ERROR (chrono_query_error_quark ())

typedef enum {
  CHRONO_QUERY_ERROR_SQL,         /* SQLite refused or failed the query: its message */
  CHRONO_QUERY_ERROR_READ_ONLY,   /* the query would write, attach or change settings */
  CHRONO_QUERY_ERROR_TIME_LIMIT,  /* the query ran longer than its time limit */
  CHRONO_QUERY_ERROR_OPEN,        /* the engine could not be set up */
} ChronoQueryError;

GQuark chrono_query_error_quark (void);

typedef struct {
  guint  max_rows;      /* rows kept; more mark the result truncated. 0: no limit */
  gint64 max_time_ms;   /* the query is stopped after this long. 0: no limit */
} ChronoQueryLimits;

/* 10,000 rows and 10 s. */
void chrono_query_limits_init (ChronoQueryLimits *limits);

#define CHRONO_TYPE_QUERY (chrono_query_get_type ())
G_DECLARE_FINAL_TYPE (ChronoQuery, chrono_query, CHRONO, QUERY, GObject)

/* An engine over TRACES (at least one; the ranks are their files, in
 * order) and, when ANALYSIS is not NULL, its findings, ledger, efficiency
 * and critical paths; ANALYSIS must have been run over the same TRACES.
 * The tables read the traces in place: keep them unchanged while the
 * engine lives (it holds a reference). One query runs at a time; the
 * engine may be used from any one thread at a time. */
ChronoQuery       *chrono_query_new              (ChronoTrace * const *traces,
                                                  guint                n_traces,
                                                  ChronoAnalysis      *analysis,
                                                  GError             **error);

/* Runs the one statement SQL within LIMITS (NULL for the defaults). NULL
 * with an error in CHRONO_QUERY_ERROR, or G_IO_ERROR_CANCELLED; SQL errors
 * say where in SQL, and chrono_query_get_error_offset() gives the byte. */
ChronoQueryResult *chrono_query_run              (ChronoQuery             *self,
                                                  const char              *sql,
                                                  const ChronoQueryLimits *limits,
                                                  GCancellable            *cancellable,
                                                  GError                 **error);

/* The byte offset in the last failed query's text where SQLite found the
 * error, -1 when it named no place (or the last query succeeded). */
gint               chrono_query_get_error_offset (ChronoQuery *self);

/* Whether SQL names one of the analysis tables (findings, ledger,
 * efficiency, critical_path): the analysis takes longer than most
 * queries, so callers run it only then. */
gboolean           chrono_query_sql_reads_analysis (const char *sql);

/* The tables and views with their columns, as CREATE statements, one a
 * line: for people and agents writing queries. */
char              *chrono_query_dup_schema       (ChronoQuery *self);

/* Span ids: the one number that spans.id (and parent_id, launch_id,
 * op_id, findings.span_id, critical_path.span_id) gives a span, for the
 * app, the command line and agents alike. The spans are numbered from 0,
 * track after track of each trace, trace after trace, in the order the
 * engine was given them (docs/query.md). */

/* The id of SPAN of the engine's trace TRACE (an index into its traces);
 * -1 when there is no such span. */
gint64             chrono_query_get_span_id      (ChronoQuery   *self,
                                                  guint          trace,
                                                  ChronoSpanRef  span);
/* The trace (an index, TRACE may be NULL) and the span of ID; FALSE when
 * no span has that id. */
gboolean           chrono_query_find_span        (ChronoQuery   *self,
                                                  gint64         id,
                                                  guint         *trace,
                                                  ChronoSpanRef *span);

G_END_DECLS
