/* chrono-parquet-reader.c: the footer, and what it tells of a file
 *
 * The footer is Thrift's compact protocol (FileMetaData); only the fields
 * the reader uses are kept, the rest skipped by type, nesting bounded.
 * The pages are decoded by chrono-parquet-pages.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-parquet-private.h"

/* A row needs some bytes, however well it compresses: a footer that claims
 * more rows per byte of file is damaged, and is not trusted with memory. */
#define MAX_ROWS_PER_BYTE 64

const char * const chrono_parquet_type_names[8] = {
  "BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY",
};
const char * const chrono_parquet_codec_names[8] = {
  "UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW",
};
const char * const chrono_parquet_encoding_names[10] = {
  "PLAIN", "GROUP_VAR_INT", "PLAIN_DICTIONARY", "RLE", "BIT_PACKED", "DELTA_BINARY_PACKED",
  "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY", "RLE_DICTIONARY", "BYTE_STREAM_SPLIT",
};

/* -------------------------------------------------------------------- */
/* The footer                                                           */

static void
read_schema_node (ChronoThrift     *t,
                  ChronoParquetSchemaNode *node)
{
  gint id = 0;
  guint type;

  node->type = -1;
  node->repetition = CHRONO_PARQUET_REP_REQUIRED;
  while (chrono_thrift_field (t, &id, &type))
    {
      if (id == 1 && type == CHRONO_THRIFT_I32)
        node->type = (gint) chrono_thrift_int (t);
      else if (id == 3 && type == CHRONO_THRIFT_I32)
        node->repetition = (gint) chrono_thrift_int (t);
      else if (id == 4 && type == CHRONO_THRIFT_BINARY)
        {
          gsize len;
          const guint8 *name = chrono_thrift_binary (t, &len);

          if (name != NULL && node->name == NULL)
            node->name = g_strndup ((const char *) name, len);
        }
      else if (id == 5 && type == CHRONO_THRIFT_I32)
        node->n_children = (gint) chrono_thrift_int (t);
      else
        chrono_thrift_skip (t, type, FALSE);
    }
}

static void
read_column_meta (ChronoThrift *t,
                  ChronoParquetChunk  *c)
{
  gint id = 0;
  guint type;

  c->has_meta = TRUE;
  while (chrono_thrift_field (t, &id, &type))
    {
      if (id == 1 && type == CHRONO_THRIFT_I32)
        c->type = (gint) chrono_thrift_int (t);
      else if (id == 3 && type == CHRONO_THRIFT_LIST)
        {
          guint elem;
          guint64 n = chrono_thrift_list (t, &elem);

          for (guint64 i = 0; i < n && !t->bad; i++)
            {
              gsize len;
              const guint8 *s;

              if (elem != CHRONO_THRIFT_BINARY)
                {
                  chrono_thrift_skip (t, elem, TRUE);
                  continue;
                }
              s = chrono_thrift_binary (t, &len);
              if (i == 0 && s != NULL && c->first_path == NULL)
                c->first_path = g_strndup ((const char *) s, len);
            }
          c->path_len = (guint) MIN (n, G_MAXUINT);
        }
      else if (id == 4 && type == CHRONO_THRIFT_I32)
        c->codec = (gint) chrono_thrift_int (t);
      else if (id == 5 && type == CHRONO_THRIFT_I64)
        c->n_values = chrono_thrift_int (t);
      else if (id == 7 && type == CHRONO_THRIFT_I64)
        c->compressed_size = chrono_thrift_int (t);
      else if (id == 9 && type == CHRONO_THRIFT_I64)
        c->data_page = chrono_thrift_int (t);
      else if (id == 11 && type == CHRONO_THRIFT_I64)
        c->dictionary_page = chrono_thrift_int (t);
      else
        chrono_thrift_skip (t, type, FALSE);
    }
}

static void
read_chunk (ChronoThrift *t,
            ChronoParquetChunk  *c)
{
  gint id = 0;
  guint type;

  while (chrono_thrift_field (t, &id, &type))
    {
      if (id == 1 && type == CHRONO_THRIFT_BINARY)
        {
          chrono_thrift_skip (t, type, FALSE);
          c->other_file = TRUE;
        }
      else if (id == 3 && type == CHRONO_THRIFT_STRUCT && !c->has_meta)
        read_column_meta (t, c);
      else
        chrono_thrift_skip (t, type, FALSE);
    }
}

static void
read_row_group (ChronoThrift   *t,
                ChronoParquetRowGroup *g)
{
  gint id = 0;
  guint type;

  while (chrono_thrift_field (t, &id, &type))
    {
      if (id == 1 && type == CHRONO_THRIFT_LIST && g->chunks == NULL)
        {
          guint elem;
          guint64 n = chrono_thrift_list (t, &elem);

          if (elem != CHRONO_THRIFT_STRUCT && n > 0)
            {
              t->bad = TRUE;
              return;
            }
          g->chunks = g_new0 (ChronoParquetChunk, MAX (n, 1));
          g->n_chunks = (guint) n;
          for (guint64 i = 0; i < n && !t->bad; i++)
            read_chunk (t, &g->chunks[i]);
        }
      else if (id == 3 && type == CHRONO_THRIFT_I64)
        g->n_rows = chrono_thrift_int (t);
      else
        chrono_thrift_skip (t, type, FALSE);
    }
}

static gboolean
read_file_meta (ChronoParquetFile *f,
                ChronoThrift            *t)
{
  gint id = 0;
  guint type;

  while (chrono_thrift_field (t, &id, &type))
    {
      if (id == 2 && type == CHRONO_THRIFT_LIST && f->schema == NULL)
        {
          guint elem;
          guint64 n = chrono_thrift_list (t, &elem);

          if (elem != CHRONO_THRIFT_STRUCT && n > 0)
            return FALSE;
          f->schema = g_new0 (ChronoParquetSchemaNode, MAX (n, 1));
          f->n_schema = (guint) n;
          for (guint64 i = 0; i < n && !t->bad; i++)
            read_schema_node (t, &f->schema[i]);
        }
      else if (id == 4 && type == CHRONO_THRIFT_LIST && f->groups == NULL)
        {
          guint elem;
          guint64 n = chrono_thrift_list (t, &elem);

          if (elem != CHRONO_THRIFT_STRUCT && n > 0)
            return FALSE;
          f->groups = g_new0 (ChronoParquetRowGroup, MAX (n, 1));
          f->n_groups = (guint) n;
          for (guint64 i = 0; i < n && !t->bad; i++)
            read_row_group (t, &f->groups[i]);
        }
      else
        chrono_thrift_skip (t, type, FALSE);
    }
  return !t->bad;
}

/* Walks the schema tree from node *AT: leaves in column order, with the
 * levels their ancestors add. */
static gboolean
collect_leaves (ChronoParquetFile *f,
                guint             *at,
                guint              depth,
                gint               def,
                gint               rep,
                GArray            *leaves)
{
  const ChronoParquetSchemaNode *node;

  if (*at >= f->n_schema || depth > CHRONO_THRIFT_MAX_NESTING)
    return FALSE;
  node = &f->schema[(*at)++];
  if (depth > 0)
    {
      def += node->repetition != CHRONO_PARQUET_REP_REQUIRED;
      rep += node->repetition == CHRONO_PARQUET_REP_REPEATED;
    }
  if (node->n_children <= 0 && depth > 0)
    {
      ChronoParquetLeaf leaf = { node->name ? node->name : "", node->type, def, rep, depth == 1 };

      g_array_append_val (leaves, leaf);
      return node->type >= 0;
    }
  for (gint i = 0; i < node->n_children; i++)
    if (!collect_leaves (f, at, depth + 1, def, rep, leaves))
      return FALSE;
  return TRUE;
}

gboolean
chrono_parquet_sniff (const guint8 *data,
                      gsize         len)
{
  return len >= 4 && memcmp (data, "PAR1", 4) == 0;
}

gboolean
chrono_parquet_fail (GError    **error,
                     gint        code,
                     const char *format,
                     ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, CHRONO_LOAD_ERROR, code, message);
  return FALSE;
}

ChronoParquetFile *
chrono_parquet_file_open (const char    *name,
                          const guint8  *data,
                          gsize          len,
                          GError       **error)
{
  g_autoptr(ChronoParquetFile) f = g_new0 (ChronoParquetFile, 1);
  g_autoptr(GArray) leaves = g_array_new (FALSE, FALSE, sizeof (ChronoParquetLeaf));
  guint32 footer;
  ChronoThrift t;
  guint at = 0;

  f->name = g_strdup (name);
  f->data = data;
  f->len = len;
  if (!chrono_parquet_sniff (data, len))
    {
      chrono_parquet_fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: not a Parquet file (no PAR1 at its start)", name);
      return NULL;
    }
  if (len < 12 || memcmp (data + len - 4, "PAR1", 4) != 0)
    {
      chrono_parquet_fail (error, CHRONO_LOAD_ERROR_SYNTAX,
                           "%s: the file ends without Parquet's closing PAR1 after %" G_GSIZE_FORMAT
                           " bytes: it was cut short, and its footer (the list of row groups and columns) is lost",
                           name, len);
      return NULL;
    }
  memcpy (&footer, data + len - 8, 4);
  footer = GUINT32_FROM_LE (footer);
  if (footer > len - 12)
    {
      chrono_parquet_fail (error, CHRONO_LOAD_ERROR_SYNTAX, "%s: the footer claims %u bytes, the file has %" G_GSIZE_FORMAT,
                           name, footer, len);
      return NULL;
    }
  f->data_end = len - 8 - footer;
  t = (ChronoThrift) { data + f->data_end, data + len - 8, 0, FALSE };
  if (!read_file_meta (f, &t) || f->n_schema == 0)
    {
      chrono_parquet_fail (error, CHRONO_LOAD_ERROR_SYNTAX, "%s: the footer is damaged near byte %" G_GSIZE_FORMAT,
                           name, (gsize) (t.p - data));
      return NULL;
    }
  if (!collect_leaves (f, &at, 0, 0, 0, leaves))
    {
      chrono_parquet_fail (error, CHRONO_LOAD_ERROR_SYNTAX, "%s: the schema in the footer is not a tree of columns", name);
      return NULL;
    }
  f->n_leaves = leaves->len;
  f->leaves = (ChronoParquetLeaf *) g_array_free (g_steal_pointer (&leaves), FALSE);
  for (guint g = 0; g < f->n_groups; g++)
    {
      if (f->groups[g].n_chunks != f->n_leaves)
        {
          chrono_parquet_fail (error, CHRONO_LOAD_ERROR_SYNTAX, "%s: row group %u has %u columns, the schema %u",
                               name, g + 1, f->groups[g].n_chunks, f->n_leaves);
          return NULL;
        }
      if (f->groups[g].n_rows < 0 || (guint64) f->groups[g].n_rows / MAX_ROWS_PER_BYTE > len)
        {
          chrono_parquet_fail (error, CHRONO_LOAD_ERROR_SYNTAX, "%s: row group %u claims %" G_GINT64_FORMAT
                               " rows in a file of %" G_GSIZE_FORMAT " bytes", name, g + 1, f->groups[g].n_rows, len);
          return NULL;
        }
    }
  f->inflater = libdeflate_alloc_decompressor ();
  return g_steal_pointer (&f);
}

void
chrono_parquet_file_free (ChronoParquetFile *f)
{
  if (f == NULL)
    return;
  for (guint i = 0; i < f->n_schema; i++)
    g_free (f->schema[i].name);
  for (guint g = 0; g < f->n_groups; g++)
    {
      for (guint c = 0; c < f->groups[g].n_chunks; c++)
        g_free (f->groups[g].chunks[c].first_path);
      g_free (f->groups[g].chunks);
    }
  if (f->inflater)
    libdeflate_free_decompressor (f->inflater);
  g_free (f->schema);
  g_free (f->leaves);
  g_free (f->groups);
  g_free (f->name);
  g_free (f);
}

const char *
chrono_parquet_file_get_name (ChronoParquetFile *f)
{
  return f->name;
}

guint
chrono_parquet_file_get_n_row_groups (ChronoParquetFile *f)
{
  return f->n_groups;
}

guint64
chrono_parquet_file_get_n_rows (ChronoParquetFile *f,
                                guint              group)
{
  g_return_val_if_fail (group < f->n_groups, 0);
  return (guint64) f->groups[group].n_rows;
}

guint
chrono_parquet_file_get_n_columns (ChronoParquetFile *f)
{
  return f->n_leaves;
}

const char *
chrono_parquet_file_get_column_name (ChronoParquetFile *f,
                                     guint              column)
{
  g_return_val_if_fail (column < f->n_leaves, NULL);
  return f->leaves[column].name;
}

ChronoParquetType
chrono_parquet_file_get_column_type (ChronoParquetFile *f,
                                     guint              column)
{
  g_return_val_if_fail (column < f->n_leaves, CHRONO_PARQUET_BOOLEAN);
  return (ChronoParquetType) f->leaves[column].type;
}

const char *
chrono_parquet_type_to_string (ChronoParquetType type)
{
  return CHRONO_PARQUET_NAME_OF (chrono_parquet_type_names, (gint) type);
}

gint
chrono_parquet_file_find_column (ChronoParquetFile *f,
                                 const char        *name)
{
  for (guint i = 0; i < f->n_leaves; i++)
    if (f->leaves[i].top_level && strcmp (f->leaves[i].name, name) == 0)
      return (gint) i;
  return -1;
}
