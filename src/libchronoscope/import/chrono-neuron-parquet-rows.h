/* chrono-neuron-parquet-rows.h: the details of a Parquet profile's spans,
 * their table rows decoded when asked for
 *
 * A span's args offset names its row: the file, the row group, the row.
 * The table files stay mapped for it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-parquet-reader.h"
#include "chrono-source.h"
#include "chrono-trace-private.h"

G_BEGIN_DECLS

typedef struct _ChronoParquetRows ChronoParquetRows;

/* The types a column of a row's fields is read as: every flat one. */
extern const gint chrono_parquet_cell_types[];

ChronoParquetRows *chrono_parquet_rows_new         (void);
void               chrono_parquet_rows_free        (ChronoParquetRows  *rows);
/* What a trace keeps (chrono_trace_set_row_args()), ROWS with it. */
ChronoRowArgs     *chrono_parquet_rows_to_row_args (ChronoParquetRows  *rows);
/* Keeps *F (taken) and its SOURCE: the args offset of the file, or
 * CHRONO_NO_ARGS (and *F left) past the files that fit. */
guint64            chrono_parquet_rows_keep        (ChronoParquetRows  *rows,
                                                    ChronoSource       *source,
                                                    ChronoParquetFile **f);
/* The args offset of row group GROUP of the file at FILE, and of row ROW
 * of the group at GROUP; CHRONO_NO_ARGS past what an offset holds. */
guint64            chrono_parquet_rows_group       (guint64             file,
                                                    guint               group);
guint64            chrono_parquet_rows_row         (guint64             group,
                                                    guint64             row);
/* COL's value at ROW as the row's JSON text gives it once parsed, FALSE
 * for null: a number written into BUF; a string up to a NUL, made valid
 * UTF-8 into *OWNED (to be freed) where it was not. */
gboolean           chrono_parquet_rows_field       (const ChronoParquetColumn *col,
                                                    guint64             row,
                                                    char                buf[G_ASCII_DTOSTR_BUF_SIZE],
                                                    const char        **text,
                                                    gsize              *len,
                                                    char              **owned);
/* Rows [0, N_ROWS) of row group GROUP of F, every column, as objects
 * added to BUILDER (the small tables Summary, Metadata ... kept whole). */
gboolean           chrono_parquet_rows_add_json    (JsonBuilder        *builder,
                                                    ChronoParquetFile  *f,
                                                    guint               group,
                                                    guint64             n_rows,
                                                    GError            **error);

G_END_DECLS
