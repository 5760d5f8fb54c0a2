/* chrono-query-result.h: the rows a query gave, as typed cells
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The type of one cell, as SQLite gave it (a column may mix types). */
typedef enum {
  CHRONO_QUERY_NULL,
  CHRONO_QUERY_INTEGER,
  CHRONO_QUERY_REAL,
  CHRONO_QUERY_TEXT,
} ChronoQueryType;

/* The ways a result is written out (chrono-query-format.c). */
typedef enum {
  CHRONO_QUERY_FORMAT_TABLE,     /* columns aligned for a terminal */
  CHRONO_QUERY_FORMAT_CSV,       /* RFC 4180 */
  CHRONO_QUERY_FORMAT_JSON,      /* {"columns": [...], "rows": [[...], ...], "truncated": false} */
  CHRONO_QUERY_FORMAT_MARKDOWN,
} ChronoQueryFormat;

/* "table", "csv", "json" or "markdown" into FORMAT; FALSE for others. */
gboolean chrono_query_format_parse (const char        *text,
                                    ChronoQueryFormat *format);

#define CHRONO_TYPE_QUERY_RESULT (chrono_query_result_get_type ())
G_DECLARE_FINAL_TYPE (ChronoQueryResult, chrono_query_result, CHRONO, QUERY_RESULT, GObject)

guint            chrono_query_result_get_n_columns   (ChronoQueryResult *self);
const char      *chrono_query_result_get_column_name (ChronoQueryResult *self,
                                                      guint              column);
guint            chrono_query_result_get_n_rows      (ChronoQueryResult *self);
ChronoQueryType  chrono_query_result_get_cell_type   (ChronoQueryResult *self,
                                                      guint              row,
                                                      guint              column);
/* 0 unless the cell is an integer. */
gint64           chrono_query_result_get_int         (ChronoQueryResult *self,
                                                      guint              row,
                                                      guint              column);
/* The cell as a double: integers converted, 0 for text and NULL. */
gdouble          chrono_query_result_get_real        (ChronoQueryResult *self,
                                                      guint              row,
                                                      guint              column);
/* The text of a text cell, else NULL. */
const char      *chrono_query_result_get_text        (ChronoQueryResult *self,
                                                      guint              row,
                                                      guint              column);
/* Any cell as people read it: integers in full, reals with up to 17
 * significant digits, NULL as the empty string. Free with g_free. */
char            *chrono_query_result_dup_cell_string (ChronoQueryResult *self,
                                                      guint              row,
                                                      guint              column);
/* The query had more rows than the row limit: these are the first. */
gboolean         chrono_query_result_is_truncated    (ChronoQueryResult *self);
/* How long the query ran, in nanoseconds. */
gint64           chrono_query_result_get_elapsed_ns  (ChronoQueryResult *self);

/* The whole result as {"columns": [names], "rows": [[cells]]};
 * integers stay exact. */
JsonNode        *chrono_query_result_to_json         (ChronoQueryResult *self);
/* One row as a JSON array of its cells. */
JsonNode        *chrono_query_result_row_to_json     (ChronoQueryResult *self,
                                                      guint              row);
/* The whole result in FORMAT, ending in a newline. */
char            *chrono_query_result_format          (ChronoQueryResult *self,
                                                      ChronoQueryFormat  format);

G_END_DECLS
