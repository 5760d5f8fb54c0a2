/* chrono-parquet-reader.h: the part of Apache Parquet that Neuron Explorer's
 * tables use
 *
 * A file held in memory is opened by its footer (Thrift compact
 * FileMetaData); then one column of one row group at a time is decoded
 * into flat arrays: data pages v1 and v2, PLAIN, RLE/bit-packed and
 * dictionary encodings, definition levels of top-level optional columns,
 * the UNCOMPRESSED, SNAPPY, GZIP and ZSTD codecs. Anything else is
 * refused with an error naming the file, the column and the feature.
 * Every length and offset is checked against the bytes there are.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Physical types, with Parquet's numbers. */
typedef enum {
  CHRONO_PARQUET_BOOLEAN = 0,
  CHRONO_PARQUET_INT32 = 1,
  CHRONO_PARQUET_INT64 = 2,
  CHRONO_PARQUET_INT96 = 3,
  CHRONO_PARQUET_FLOAT = 4,
  CHRONO_PARQUET_DOUBLE = 5,
  CHRONO_PARQUET_BYTE_ARRAY = 6,
  CHRONO_PARQUET_FIXED_LEN_BYTE_ARRAY = 7,
} ChronoParquetType;

typedef struct {
  const guint8 *data;
  guint32       len;
} ChronoParquetBytes;

/* One column of one row group. A value that is null has present[row] 0
 * (PRESENT is NULL when none is) and reads as 0. BYTE_ARRAY rows are
 * indices into ENTRIES: a dictionary's values, or the page's own for
 * plain pages, so equal strings of a dictionary column share an index. */
typedef struct {
  ChronoParquetType   type;
  guint64             n_rows;
  guint8             *present;
  union {
    gint64   *i64;      /* INT64; INT32 and BOOLEAN are widened */
    gdouble  *f64;      /* DOUBLE; FLOAT is widened */
    guint32  *index;    /* BYTE_ARRAY */
  } v;
  ChronoParquetBytes *entries;
  guint32             n_entries;
  GPtrArray          *buffers;   /* decompressed pages ENTRIES point into */
} ChronoParquetColumn;

typedef struct _ChronoParquetFile ChronoParquetFile;

/* Reads the footer of the LEN bytes at DATA, which must stay alive as
 * long as the file. NAME is used in messages. */
ChronoParquetFile *chrono_parquet_file_open           (const char         *name,
                                                       const guint8       *data,
                                                       gsize               len,
                                                       GError            **error);
void               chrono_parquet_file_free           (ChronoParquetFile  *file);
const char        *chrono_parquet_file_get_name       (ChronoParquetFile  *file);
guint              chrono_parquet_file_get_n_row_groups (ChronoParquetFile *file);
guint64            chrono_parquet_file_get_n_rows     (ChronoParquetFile  *file,
                                                       guint               group);
/* The leaf column called NAME directly below the root, or -1. */
gint               chrono_parquet_file_find_column    (ChronoParquetFile  *file,
                                                       const char         *name);
guint              chrono_parquet_file_get_n_columns  (ChronoParquetFile  *file);
const char        *chrono_parquet_file_get_column_name (ChronoParquetFile *file,
                                                        guint              column);
ChronoParquetType  chrono_parquet_file_get_column_type (ChronoParquetFile *file,
                                                        guint              column);
const char        *chrono_parquet_type_to_string       (ChronoParquetType  type);

/* Decodes COLUMN of row group GROUP into OUT (cleared first). The column
 * must be a top-level required or optional leaf. EXPECTED lists the
 * physical types the caller takes (terminated by -1); another type is an
 * error. */
gboolean           chrono_parquet_file_read_column    (ChronoParquetFile   *file,
                                                       guint                group,
                                                       guint                column,
                                                       const gint          *expected,
                                                       ChronoParquetColumn *out,
                                                       GError             **error);
void               chrono_parquet_column_clear        (ChronoParquetColumn *column);

/* Whether the LEN bytes at DATA start like a Parquet file. */
gboolean           chrono_parquet_sniff               (const guint8 *data,
                                                       gsize         len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoParquetFile, chrono_parquet_file_free)

G_END_DECLS
