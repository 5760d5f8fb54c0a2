/* chrono-parquet-private.h: what the footer and the page decoding of the
 * Parquet reader share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libdeflate.h>

#include "chrono-loader.h"
#include "chrono-parquet-reader.h"
#include "chrono-thrift-compact.h"

G_BEGIN_DECLS

enum { CHRONO_PARQUET_CODEC_UNCOMPRESSED = 0, CHRONO_PARQUET_CODEC_SNAPPY = 1, CHRONO_PARQUET_CODEC_GZIP = 2, CHRONO_PARQUET_CODEC_ZSTD = 6 };
enum { CHRONO_PARQUET_ENC_PLAIN = 0, CHRONO_PARQUET_ENC_PLAIN_DICTIONARY = 2, CHRONO_PARQUET_ENC_RLE = 3, CHRONO_PARQUET_ENC_RLE_DICTIONARY = 8 };
enum { CHRONO_PARQUET_PAGE_DATA = 0, CHRONO_PARQUET_PAGE_INDEX = 1, CHRONO_PARQUET_PAGE_DICTIONARY = 2, CHRONO_PARQUET_PAGE_DATA_V2 = 3 };
enum { CHRONO_PARQUET_REP_REQUIRED = 0, CHRONO_PARQUET_REP_OPTIONAL = 1, CHRONO_PARQUET_REP_REPEATED = 2 };

extern const char * const chrono_parquet_type_names[8];
extern const char * const chrono_parquet_codec_names[8];
extern const char * const chrono_parquet_encoding_names[10];

#define CHRONO_PARQUET_NAME_OF(table, i) ((i) >= 0 && (gsize) (i) < G_N_ELEMENTS (table) ? table[i] : "unknown")

typedef struct {
  char *name;
  gint  type;          /* -1 for a group */
  gint  repetition;
  gint  n_children;
} ChronoParquetSchemaNode;

typedef struct {
  const char *name;
  gint        type;
  gint        max_def;
  gint        max_rep;
  gboolean    top_level;
} ChronoParquetLeaf;

typedef struct {
  gboolean has_meta;
  gboolean other_file;
  gint     type;
  gint     codec;
  gint64   n_values;
  gint64   data_page;
  gint64   dictionary_page;
  gint64   compressed_size;
  char    *first_path;
  guint    path_len;
} ChronoParquetChunk;

typedef struct {
  gint64 n_rows;
  ChronoParquetChunk *chunks;
  guint  n_chunks;
} ChronoParquetRowGroup;

struct _ChronoParquetFile
{
  char                          *name;
  const guint8                  *data;
  gsize                          len;
  gsize                          data_end;    /* where the footer starts */
  ChronoParquetSchemaNode                    *schema;
  guint                          n_schema;
  ChronoParquetLeaf                          *leaves;
  guint                          n_leaves;
  ChronoParquetRowGroup                      *groups;
  guint                          n_groups;
  struct libdeflate_decompressor *inflater;
};

/* Sets ERROR (CHRONO_LOAD_ERROR, CODE) and returns FALSE. */
gboolean chrono_parquet_fail (GError    **error,
                              gint        code,
                              const char *format,
                              ...) G_GNUC_PRINTF (3, 4);

G_END_DECLS
