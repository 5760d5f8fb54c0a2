/* chrono-parquet-reader.c
 *
 * The footer is Thrift's compact protocol: fields as (id delta, type)
 * bytes, integers as zigzag varints, lists with their length up front.
 * Only the fields the reader uses are kept; the rest are skipped by type,
 * nesting bounded. Pages are decoded whole into the caller's arrays.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <libdeflate.h>
#include <snappy-c.h>
#include <zstd.h>

#include "chrono-loader.h"
#include "chrono-parquet-reader.h"

#define MAX_NESTING     32
#define MAX_PAGE_BYTES  (256u << 20)
/* A row needs some bytes, however well it compresses: a footer that claims
 * more rows per byte of file is damaged, and is not trusted with memory. */
#define MAX_ROWS_PER_BYTE 64

enum { CODEC_UNCOMPRESSED = 0, CODEC_SNAPPY = 1, CODEC_GZIP = 2, CODEC_ZSTD = 6 };
enum { ENC_PLAIN = 0, ENC_PLAIN_DICTIONARY = 2, ENC_RLE = 3, ENC_RLE_DICTIONARY = 8 };
enum { PAGE_DATA = 0, PAGE_INDEX = 1, PAGE_DICTIONARY = 2, PAGE_DATA_V2 = 3 };
enum { REP_REQUIRED = 0, REP_OPTIONAL = 1, REP_REPEATED = 2 };

static const char * const type_names[] = {
  "BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY",
};
static const char * const codec_names[] = {
  "UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW",
};
static const char * const encoding_names[] = {
  "PLAIN", "GROUP_VAR_INT", "PLAIN_DICTIONARY", "RLE", "BIT_PACKED", "DELTA_BINARY_PACKED",
  "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY", "RLE_DICTIONARY", "BYTE_STREAM_SPLIT",
};

#define NAME_OF(table, i) ((i) >= 0 && (gsize) (i) < G_N_ELEMENTS (table) ? table[i] : "unknown")

typedef struct {
  char *name;
  gint  type;          /* -1 for a group */
  gint  repetition;
  gint  n_children;
} SchemaNode;

typedef struct {
  const char *name;
  gint        type;
  gint        max_def;
  gint        max_rep;
  gboolean    top_level;
} Leaf;

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
} Chunk;

typedef struct {
  gint64 n_rows;
  Chunk *chunks;
  guint  n_chunks;
} RowGroup;

struct _ChronoParquetFile
{
  char                          *name;
  const guint8                  *data;
  gsize                          len;
  gsize                          data_end;    /* where the footer starts */
  SchemaNode                    *schema;
  guint                          n_schema;
  Leaf                          *leaves;
  guint                          n_leaves;
  RowGroup                      *groups;
  guint                          n_groups;
  struct libdeflate_decompressor *inflater;
};

/* -------------------------------------------------------------------- */
/* Thrift compact protocol                                              */

typedef struct {
  const guint8 *p;
  const guint8 *end;
  guint         depth;
  gboolean      bad;
} Thrift;

enum {
  T_STOP = 0, T_TRUE = 1, T_FALSE = 2, T_BYTE = 3, T_I16 = 4, T_I32 = 5, T_I64 = 6,
  T_DOUBLE = 7, T_BINARY = 8, T_LIST = 9, T_SET = 10, T_MAP = 11, T_STRUCT = 12,
};

static guint64
t_varint (Thrift *t)
{
  guint64 v = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 b;

      if (t->p >= t->end)
        break;
      b = *t->p++;
      v |= (guint64) (b & 0x7f) << shift;
      if ((b & 0x80) == 0)
        return v;
    }
  t->bad = TRUE;
  return 0;
}

static gint64
t_int (Thrift *t)
{
  guint64 u = t_varint (t);
  return (gint64) (u >> 1) ^ -(gint64) (u & 1);
}

/* The next field's id and type; FALSE at the struct's end (or damage). */
static gboolean
t_field (Thrift *t,
         gint   *id,
         guint  *type)
{
  guint8 b;

  if (t->bad || t->p >= t->end)
    {
      t->bad = TRUE;
      return FALSE;
    }
  b = *t->p++;
  if (b == T_STOP)
    return FALSE;
  *type = b & 0x0f;
  if (b >> 4)
    *id += b >> 4;
  else
    *id = (gint) t_int (t);
  return !t->bad;
}

static guint64
t_list (Thrift *t,
        guint  *elem_type)
{
  guint8 b;
  guint64 n;

  if (t->p >= t->end)
    {
      t->bad = TRUE;
      return 0;
    }
  b = *t->p++;
  *elem_type = b & 0x0f;
  n = b >> 4;
  if (n == 15)
    n = t_varint (t);
  /* Every element takes a byte at least. */
  if (n > (guint64) (t->end - t->p))
    t->bad = TRUE;
  return t->bad ? 0 : n;
}

/* A binary's bytes, checked to be there. */
static const guint8 *
t_binary (Thrift *t,
          gsize  *len)
{
  guint64 n = t_varint (t);
  const guint8 *at = t->p;

  if (t->bad || n > (guint64) (t->end - t->p))
    {
      t->bad = TRUE;
      *len = 0;
      return NULL;
    }
  t->p += n;
  *len = n;
  return at;
}

static void t_skip (Thrift *t, guint type, gboolean in_list);

static void
t_skip_struct (Thrift *t)
{
  gint id = 0;
  guint type;

  if (++t->depth > MAX_NESTING)
    {
      t->bad = TRUE;
      return;
    }
  while (t_field (t, &id, &type))
    t_skip (t, type, FALSE);
  t->depth--;
}

static void
t_skip (Thrift *t,
        guint   type,
        gboolean in_list)
{
  gsize len;

  switch (type)
    {
    case T_TRUE:
    case T_FALSE:
      /* A bool field is its header; in a list it is a byte. */
      if (in_list)
        t->p < t->end ? (void) t->p++ : (void) (t->bad = TRUE);
      break;
    case T_BYTE:
      t->p < t->end ? (void) t->p++ : (void) (t->bad = TRUE);
      break;
    case T_I16:
    case T_I32:
    case T_I64:
      t_varint (t);
      break;
    case T_DOUBLE:
      if (t->end - t->p < 8)
        t->bad = TRUE;
      else
        t->p += 8;
      break;
    case T_BINARY:
      t_binary (t, &len);
      break;
    case T_LIST:
    case T_SET:
      {
        guint elem;
        guint64 n = t_list (t, &elem);

        if (++t->depth > MAX_NESTING)
          t->bad = TRUE;
        for (guint64 i = 0; i < n && !t->bad; i++)
          t_skip (t, elem, TRUE);
        t->depth--;
      }
      break;
    case T_MAP:
      {
        guint64 n = t_varint (t);
        guint8 kv;

        if (n == 0 || t->bad)
          break;
        if (t->p >= t->end || n > (guint64) (t->end - t->p))
          {
            t->bad = TRUE;
            break;
          }
        kv = *t->p++;
        if (++t->depth > MAX_NESTING)
          t->bad = TRUE;
        for (guint64 i = 0; i < n && !t->bad; i++)
          {
            t_skip (t, kv >> 4, TRUE);
            t_skip (t, kv & 0x0f, TRUE);
          }
        t->depth--;
      }
      break;
    case T_STRUCT:
      t_skip_struct (t);
      break;
    default:
      t->bad = TRUE;
    }
}

/* -------------------------------------------------------------------- */
/* The footer                                                           */

static void
read_schema_node (Thrift     *t,
                  SchemaNode *node)
{
  gint id = 0;
  guint type;

  node->type = -1;
  node->repetition = REP_REQUIRED;
  while (t_field (t, &id, &type))
    {
      if (id == 1 && type == T_I32)
        node->type = (gint) t_int (t);
      else if (id == 3 && type == T_I32)
        node->repetition = (gint) t_int (t);
      else if (id == 4 && type == T_BINARY)
        {
          gsize len;
          const guint8 *name = t_binary (t, &len);

          if (name != NULL && node->name == NULL)
            node->name = g_strndup ((const char *) name, len);
        }
      else if (id == 5 && type == T_I32)
        node->n_children = (gint) t_int (t);
      else
        t_skip (t, type, FALSE);
    }
}

static void
read_column_meta (Thrift *t,
                  Chunk  *c)
{
  gint id = 0;
  guint type;

  c->has_meta = TRUE;
  while (t_field (t, &id, &type))
    {
      if (id == 1 && type == T_I32)
        c->type = (gint) t_int (t);
      else if (id == 3 && type == T_LIST)
        {
          guint elem;
          guint64 n = t_list (t, &elem);

          for (guint64 i = 0; i < n && !t->bad; i++)
            {
              gsize len;
              const guint8 *s;

              if (elem != T_BINARY)
                {
                  t_skip (t, elem, TRUE);
                  continue;
                }
              s = t_binary (t, &len);
              if (i == 0 && s != NULL && c->first_path == NULL)
                c->first_path = g_strndup ((const char *) s, len);
            }
          c->path_len = (guint) MIN (n, G_MAXUINT);
        }
      else if (id == 4 && type == T_I32)
        c->codec = (gint) t_int (t);
      else if (id == 5 && type == T_I64)
        c->n_values = t_int (t);
      else if (id == 7 && type == T_I64)
        c->compressed_size = t_int (t);
      else if (id == 9 && type == T_I64)
        c->data_page = t_int (t);
      else if (id == 11 && type == T_I64)
        c->dictionary_page = t_int (t);
      else
        t_skip (t, type, FALSE);
    }
}

static void
read_chunk (Thrift *t,
            Chunk  *c)
{
  gint id = 0;
  guint type;

  while (t_field (t, &id, &type))
    {
      if (id == 1 && type == T_BINARY)
        {
          t_skip (t, type, FALSE);
          c->other_file = TRUE;
        }
      else if (id == 3 && type == T_STRUCT && !c->has_meta)
        read_column_meta (t, c);
      else
        t_skip (t, type, FALSE);
    }
}

static void
read_row_group (Thrift   *t,
                RowGroup *g)
{
  gint id = 0;
  guint type;

  while (t_field (t, &id, &type))
    {
      if (id == 1 && type == T_LIST && g->chunks == NULL)
        {
          guint elem;
          guint64 n = t_list (t, &elem);

          if (elem != T_STRUCT && n > 0)
            {
              t->bad = TRUE;
              return;
            }
          g->chunks = g_new0 (Chunk, MAX (n, 1));
          g->n_chunks = (guint) n;
          for (guint64 i = 0; i < n && !t->bad; i++)
            read_chunk (t, &g->chunks[i]);
        }
      else if (id == 3 && type == T_I64)
        g->n_rows = t_int (t);
      else
        t_skip (t, type, FALSE);
    }
}

static gboolean
read_file_meta (ChronoParquetFile *f,
                Thrift            *t)
{
  gint id = 0;
  guint type;

  while (t_field (t, &id, &type))
    {
      if (id == 2 && type == T_LIST && f->schema == NULL)
        {
          guint elem;
          guint64 n = t_list (t, &elem);

          if (elem != T_STRUCT && n > 0)
            return FALSE;
          f->schema = g_new0 (SchemaNode, MAX (n, 1));
          f->n_schema = (guint) n;
          for (guint64 i = 0; i < n && !t->bad; i++)
            read_schema_node (t, &f->schema[i]);
        }
      else if (id == 4 && type == T_LIST && f->groups == NULL)
        {
          guint elem;
          guint64 n = t_list (t, &elem);

          if (elem != T_STRUCT && n > 0)
            return FALSE;
          f->groups = g_new0 (RowGroup, MAX (n, 1));
          f->n_groups = (guint) n;
          for (guint64 i = 0; i < n && !t->bad; i++)
            read_row_group (t, &f->groups[i]);
        }
      else
        t_skip (t, type, FALSE);
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
  const SchemaNode *node;

  if (*at >= f->n_schema || depth > MAX_NESTING)
    return FALSE;
  node = &f->schema[(*at)++];
  if (depth > 0)
    {
      def += node->repetition != REP_REQUIRED;
      rep += node->repetition == REP_REPEATED;
    }
  if (node->n_children <= 0 && depth > 0)
    {
      Leaf leaf = { node->name ? node->name : "", node->type, def, rep, depth == 1 };

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

static gboolean
fail (GError    **error,
      gint        code,
      const char *format,
      ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (GError    **error,
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
  g_autoptr(GArray) leaves = g_array_new (FALSE, FALSE, sizeof (Leaf));
  guint32 footer;
  Thrift t;
  guint at = 0;

  f->name = g_strdup (name);
  f->data = data;
  f->len = len;
  if (!chrono_parquet_sniff (data, len))
    {
      fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: not a Parquet file (no PAR1 at its start)", name);
      return NULL;
    }
  if (len < 12 || memcmp (data + len - 4, "PAR1", 4) != 0)
    {
      fail (error, CHRONO_LOAD_ERROR_SYNTAX,
            "%s: the file ends without Parquet's closing PAR1 after %" G_GSIZE_FORMAT
            " bytes: it was cut short, and its footer (the list of row groups and columns) is lost",
            name, len);
      return NULL;
    }
  memcpy (&footer, data + len - 8, 4);
  footer = GUINT32_FROM_LE (footer);
  if (footer > len - 12)
    {
      fail (error, CHRONO_LOAD_ERROR_SYNTAX, "%s: the footer claims %u bytes, the file has %" G_GSIZE_FORMAT,
            name, footer, len);
      return NULL;
    }
  f->data_end = len - 8 - footer;
  t = (Thrift) { data + f->data_end, data + len - 8, 0, FALSE };
  if (!read_file_meta (f, &t) || f->n_schema == 0)
    {
      fail (error, CHRONO_LOAD_ERROR_SYNTAX, "%s: the footer is damaged near byte %" G_GSIZE_FORMAT,
            name, (gsize) (t.p - data));
      return NULL;
    }
  if (!collect_leaves (f, &at, 0, 0, 0, leaves))
    {
      fail (error, CHRONO_LOAD_ERROR_SYNTAX, "%s: the schema in the footer is not a tree of columns", name);
      return NULL;
    }
  f->n_leaves = leaves->len;
  f->leaves = (Leaf *) g_array_free (g_steal_pointer (&leaves), FALSE);
  for (guint g = 0; g < f->n_groups; g++)
    {
      if (f->groups[g].n_chunks != f->n_leaves)
        {
          fail (error, CHRONO_LOAD_ERROR_SYNTAX, "%s: row group %u has %u columns, the schema %u",
                name, g + 1, f->groups[g].n_chunks, f->n_leaves);
          return NULL;
        }
      if (f->groups[g].n_rows < 0 || (guint64) f->groups[g].n_rows / MAX_ROWS_PER_BYTE > len)
        {
          fail (error, CHRONO_LOAD_ERROR_SYNTAX, "%s: row group %u claims %" G_GINT64_FORMAT
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
  return NAME_OF (type_names, (gint) type);
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

/* -------------------------------------------------------------------- */
/* Levels and dictionary indices: RLE / bit-packed hybrid               */

typedef struct {
  const ChronoParquetFile *f;
  const Leaf              *leaf;
  guint                    group;
  const guint8            *page;      /* the page header's first byte, for messages */
  GError                 **error;
} Ctx;

static gboolean
page_error (Ctx        *x,
            const char *what)
{
  return fail (x->error, CHRONO_LOAD_ERROR_SYNTAX, "%s: column %s, row group %u, page at byte %" G_GSIZE_FORMAT ": %s",
               x->f->name, x->leaf->name, x->group + 1, (gsize) (x->page - x->f->data), what);
}

/* Decodes N values of BIT_WIDTH bits (at most 32) from P..END into OUT. */
static gboolean
rle_decode (Ctx          *x,
            const guint8 *p,
            const guint8 *end,
            guint         bit_width,
            guint32      *out,
            guint64       n)
{
  guint64 done = 0;
  guint value_bytes = (bit_width + 7) / 8;

  if (bit_width > 32)
    return page_error (x, "a bit width above 32");
  while (done < n)
    {
      Thrift t = { p, end, 0, FALSE };
      guint64 header = t_varint (&t);

      if (t.bad)
        return page_error (x, "its levels or indices end early");
      p = t.p;
      if (header & 1)
        {
          /* Groups of 8 bit-packed values, least significant bit first. */
          guint64 groups = header >> 1;
          guint64 bytes = groups * bit_width;
          guint64 count = MIN (groups * 8, n - done);
          guint64 acc = 0;
          guint have = 0;
          guint32 mask = bit_width == 32 ? G_MAXUINT32 : (1u << bit_width) - 1;

          if (groups > (guint64) (end - p) || bytes > (guint64) (end - p))
            return page_error (x, "a bit-packed run goes past the page");
          for (guint64 i = 0; i < count; i++)
            {
              while (have < bit_width)
                {
                  acc |= (guint64) *p++ << have;
                  have += 8;
                }
              out[done + i] = bit_width == 0 ? 0 : (guint32) (acc & mask);
              acc >>= bit_width;
              have -= bit_width;
            }
          done += count;
          /* What is left of the run: the padding of its last group. */
          p += bytes - (count * bit_width + 7) / 8;
        }
      else
        {
          guint64 run = header >> 1;
          guint32 v = 0;

          if (run == 0)
            return page_error (x, "an empty RLE run");
          if ((gsize) (end - p) < value_bytes)
            return page_error (x, "an RLE run goes past the page");
          for (guint b = 0; b < value_bytes; b++)
            v |= (guint32) p[b] << (8 * b);
          p += value_bytes;
          if (bit_width < 32 && v >> bit_width)
            return page_error (x, "an RLE value wider than its bit width");
          run = MIN (run, n - done);
          for (guint64 i = 0; i < run; i++)
            out[done + i] = v;
          done += run;
        }
    }
  return TRUE;
}

/* -------------------------------------------------------------------- */
/* Pages                                                                */

typedef struct {
  gint    type;
  gint32  uncompressed;
  gint32  compressed;
  gint32  n_values;
  gint    encoding;
  gint    def_encoding;
  gint32  def_bytes;     /* v2 */
  gint32  rep_bytes;     /* v2 */
  gboolean compressed_v2;
  gboolean has_header;
} PageHeader;

static void
read_page_inner (Thrift     *t,
                 PageHeader *h,
                 gboolean    v2)
{
  gint id = 0;
  guint type;

  h->has_header = TRUE;
  h->compressed_v2 = TRUE;
  while (t_field (t, &id, &type))
    {
      if (id == 1 && type == T_I32)
        h->n_values = (gint32) t_int (t);
      else if (!v2 && id == 2 && type == T_I32)
        h->encoding = (gint) t_int (t);
      else if (!v2 && id == 3 && type == T_I32)
        h->def_encoding = (gint) t_int (t);
      else if (v2 && id == 4 && type == T_I32)
        h->encoding = (gint) t_int (t);
      else if (v2 && id == 5 && type == T_I32)
        h->def_bytes = (gint32) t_int (t);
      else if (v2 && id == 6 && type == T_I32)
        h->rep_bytes = (gint32) t_int (t);
      else if (v2 && id == 7 && (type == T_TRUE || type == T_FALSE))
        h->compressed_v2 = type == T_TRUE;
      else
        t_skip (t, type, FALSE);
    }
}

static gboolean
read_page_header (Thrift     *t,
                  PageHeader *h)
{
  gint id = 0;
  guint type;

  memset (h, 0, sizeof *h);
  h->type = -1;
  h->def_encoding = ENC_RLE;
  while (t_field (t, &id, &type))
    {
      if (id == 1 && type == T_I32)
        h->type = (gint) t_int (t);
      else if (id == 2 && type == T_I32)
        h->uncompressed = (gint32) t_int (t);
      else if (id == 3 && type == T_I32)
        h->compressed = (gint32) t_int (t);
      else if ((id == 5 || id == 7 || id == 8) && type == T_STRUCT && !h->has_header)
        read_page_inner (t, h, id == 8);
      else
        t_skip (t, type, FALSE);
    }
  return !t->bad && h->type >= 0 && h->uncompressed >= 0 && h->compressed >= 0 && h->n_values >= 0;
}

/* The page's bytes as written, decompressed into a buffer of BUFFERS when
 * the codec asks for it. */
static const guint8 *
decompress (Ctx          *x,
            gint          codec,
            const guint8 *in,
            gsize         in_len,
            gsize         out_len,
            GPtrArray    *buffers)
{
  guint8 *out;
  gboolean ok = FALSE;

  if (codec == CODEC_UNCOMPRESSED)
    {
      if (in_len != out_len)
        {
          page_error (x, "an uncompressed page whose two sizes differ");
          return NULL;
        }
      return in;
    }
  if (out_len > MAX_PAGE_BYTES || out_len > (guint64) in_len * 4096 + 65536)
    {
      page_error (x, "an uncompressed size out of proportion to the page");
      return NULL;
    }
  out = g_malloc (MAX (out_len, 1));
  switch (codec)
    {
    case CODEC_SNAPPY:
      {
        size_t n = 0;

        ok = snappy_uncompressed_length ((const char *) in, in_len, &n) == SNAPPY_OK && n == out_len &&
             snappy_uncompress ((const char *) in, in_len, (char *) out, &n) == SNAPPY_OK && n == out_len;
      }
      break;
    case CODEC_GZIP:
      {
        size_t n = 0;

        ok = libdeflate_gzip_decompress (x->f->inflater, in, in_len, out, out_len, &n) == LIBDEFLATE_SUCCESS &&
             n == out_len;
      }
      break;
    case CODEC_ZSTD:
      {
        size_t n = ZSTD_decompress (out, out_len, in, in_len);

        ok = !ZSTD_isError (n) && n == out_len;
      }
      break;
    default:
      g_assert_not_reached ();
    }
  if (!ok)
    {
      g_free (out);
      page_error (x, codec == CODEC_SNAPPY ? "its Snappy data is damaged"
                     : codec == CODEC_GZIP ? "its gzip data is damaged" : "its zstd data is damaged");
      return NULL;
    }
  g_ptr_array_add (buffers, out);
  return out;
}

/* What PLAIN values decode into. */
typedef struct {
  ChronoParquetColumn *col;
  gint64              *dict_i64;
  gdouble             *dict_f64;
  guint32              n_dict;
  guint32              dict_base;   /* the dictionary's first string entry */
  gboolean             has_dict;
  guint32             *scratch;     /* indices, levels */
  guint64              scratch_len;
} Decoder;

static guint32 *
scratch (Decoder *d,
         guint64  n)
{
  if (d->scratch_len < n)
    {
      g_free (d->scratch);
      d->scratch = g_new (guint32, n);
      d->scratch_len = n;
    }
  return d->scratch;
}

static gboolean
add_entry (Ctx                 *x,
           ChronoParquetColumn *col,
           const guint8        *data,
           guint32              len,
           guint32             *index)
{
  if (col->n_entries == G_MAXUINT32)
    return page_error (x, "more than 2^32 strings");
  if ((col->n_entries & (col->n_entries - 1)) == 0)
    col->entries = g_renew (ChronoParquetBytes, col->entries, MAX (col->n_entries * 2, 16));
  col->entries[col->n_entries] = (ChronoParquetBytes) { data, len };
  *index = col->n_entries++;
  return TRUE;
}

/* N PLAIN values of the column's type from P..END, written to slot
 * OUT[i] of the kind the column holds (i64, f64 or a string index). */
static gboolean
decode_plain (Ctx                 *x,
              ChronoParquetColumn *col,
              const guint8        *p,
              const guint8        *end,
              guint64              n,
              gint64              *i64,
              gdouble             *f64,
              guint32             *index)
{
  gsize avail = end - p;

  switch (col->type)
    {
    case CHRONO_PARQUET_BOOLEAN:
      if ((n + 7) / 8 > avail)
        return page_error (x, "fewer values than it says");
      for (guint64 i = 0; i < n; i++)
        i64[i] = (p[i / 8] >> (i % 8)) & 1;
      return TRUE;
    case CHRONO_PARQUET_INT32:
      if (n > avail / 4)
        return page_error (x, "fewer values than it says");
      for (guint64 i = 0; i < n; i++)
        {
          gint32 v;
          memcpy (&v, p + 4 * i, 4);
          i64[i] = GINT32_FROM_LE (v);
        }
      return TRUE;
    case CHRONO_PARQUET_INT64:
      if (n > avail / 8)
        return page_error (x, "fewer values than it says");
      for (guint64 i = 0; i < n; i++)
        {
          gint64 v;
          memcpy (&v, p + 8 * i, 8);
          i64[i] = GINT64_FROM_LE (v);
        }
      return TRUE;
    case CHRONO_PARQUET_FLOAT:
      if (n > avail / 4)
        return page_error (x, "fewer values than it says");
      for (guint64 i = 0; i < n; i++)
        {
          gfloat v;
          memcpy (&v, p + 4 * i, 4);
          f64[i] = v;
        }
      return TRUE;
    case CHRONO_PARQUET_DOUBLE:
      if (n > avail / 8)
        return page_error (x, "fewer values than it says");
      for (guint64 i = 0; i < n; i++)
        memcpy (&f64[i], p + 8 * i, 8);
      return TRUE;
    case CHRONO_PARQUET_BYTE_ARRAY:
      for (guint64 i = 0; i < n; i++)
        {
          guint32 len;

          if (end - p < 4)
            return page_error (x, "fewer values than it says");
          memcpy (&len, p, 4);
          len = GUINT32_FROM_LE (len);
          p += 4;
          if (len > (gsize) (end - p))
            return page_error (x, "a string that goes past the page");
          if (!add_entry (x, col, p, len, &index[i]))
            return FALSE;
          p += len;
        }
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

static gboolean
read_dictionary (Ctx          *x,
                 Decoder      *d,
                 const guint8 *p,
                 const guint8 *end,
                 guint32       n)
{
  ChronoParquetColumn *col = d->col;

  if (d->has_dict)
    return page_error (x, "a second dictionary page");
  d->has_dict = TRUE;
  d->n_dict = n;
  d->dict_base = col->n_entries;
  if (col->type == CHRONO_PARQUET_BYTE_ARRAY)
    {
      g_autofree guint32 *index = g_new (guint32, MAX (n, 1));

      /* The dictionary's strings are the first entries. */
      return decode_plain (x, col, p, end, n, NULL, NULL, index);
    }
  if (col->type == CHRONO_PARQUET_FLOAT || col->type == CHRONO_PARQUET_DOUBLE)
    {
      d->dict_f64 = g_new (gdouble, MAX (n, 1));
      return decode_plain (x, col, p, end, n, NULL, d->dict_f64, NULL);
    }
  d->dict_i64 = g_new (gint64, MAX (n, 1));
  return decode_plain (x, col, p, end, n, d->dict_i64, NULL, NULL);
}

/* N present values of a data page into rows ROWS[0..N) (NULL: the rows
 * from FIRST on). */
static gboolean
read_values (Ctx          *x,
             Decoder      *d,
             gint          encoding,
             const guint8 *p,
             const guint8 *end,
             guint64       n,
             guint64       first,
             const guint32 *rows)
{
  ChronoParquetColumn *col = d->col;
  gboolean is_float = col->type == CHRONO_PARQUET_FLOAT || col->type == CHRONO_PARQUET_DOUBLE;
  gboolean is_bytes = col->type == CHRONO_PARQUET_BYTE_ARRAY;
  g_autofree gint64 *tmp_i64 = NULL;
  g_autofree gdouble *tmp_f64 = NULL;
  g_autofree guint32 *tmp_index = NULL;
  gint64 *i64;
  gdouble *f64;
  guint32 *index;

  /* Values go straight to their rows when no row is null. */
  if (rows == NULL)
    {
      i64 = is_float || is_bytes ? NULL : col->v.i64 + first;
      f64 = is_float ? col->v.f64 + first : NULL;
      index = is_bytes ? col->v.index + first : NULL;
    }
  else
    {
      i64 = is_float || is_bytes ? NULL : (tmp_i64 = g_new (gint64, MAX (n, 1)));
      f64 = is_float ? (tmp_f64 = g_new (gdouble, MAX (n, 1))) : NULL;
      index = is_bytes ? (tmp_index = g_new (guint32, MAX (n, 1))) : NULL;
    }

  if (encoding == ENC_PLAIN)
    {
      if (!decode_plain (x, col, p, end, n, i64, f64, index))
        return FALSE;
    }
  else if (encoding == ENC_PLAIN_DICTIONARY || encoding == ENC_RLE_DICTIONARY)
    {
      guint32 *idx = is_bytes ? index : scratch (d, MAX (n, 1));

      if (!d->has_dict)
        return page_error (x, "dictionary indices without a dictionary page");
      if (p >= end && n > 0)
        return page_error (x, "no bit width for its dictionary indices");
      if (n > 0 && !rle_decode (x, p + 1, end, *p, idx, n))
        return FALSE;
      for (guint64 i = 0; i < n; i++)
        {
          if (idx[i] >= d->n_dict)
            return page_error (x, "a dictionary index past the dictionary");
          if (is_float)
            f64[i] = d->dict_f64[idx[i]];
          else if (is_bytes)
            idx[i] += d->dict_base;
          else
            i64[i] = d->dict_i64[idx[i]];
        }
    }
  else if (encoding == ENC_RLE && col->type == CHRONO_PARQUET_BOOLEAN)
    {
      guint32 len;
      guint32 *bits = scratch (d, MAX (n, 1));

      if (end - p < 4)
        return page_error (x, "its RLE booleans have no length");
      memcpy (&len, p, 4);
      len = GUINT32_FROM_LE (len);
      if (len > (gsize) (end - p - 4))
        return page_error (x, "its RLE booleans go past the page");
      if (!rle_decode (x, p + 4, p + 4 + len, 1, bits, n))
        return FALSE;
      for (guint64 i = 0; i < n; i++)
        i64[i] = bits[i];
    }
  else
    return fail (x->error, CHRONO_LOAD_ERROR_FORMAT,
                 "%s: column %s, row group %u: the %s encoding of %s values is not read",
                 x->f->name, x->leaf->name, x->group + 1, NAME_OF (encoding_names, encoding),
                 NAME_OF (type_names, col->type));

  if (rows != NULL)
    for (guint64 i = 0; i < n; i++)
      {
        if (is_float)
          col->v.f64[rows[i]] = f64[i];
        else if (is_bytes)
          col->v.index[rows[i]] = index[i];
        else
          col->v.i64[rows[i]] = i64[i];
      }
  return TRUE;
}

/* A data page's levels and values: N_VALUES rows from row FIRST. DEFS
 * (DEF_LEN bytes, RLE without a length) are NULL for a required column. */
static gboolean
read_data (Ctx          *x,
           Decoder      *d,
           gint          encoding,
           const guint8 *defs,
           const guint8 *defs_end,
           const guint8 *values,
           const guint8 *values_end,
           guint64       n_values,
           guint64       first)
{
  ChronoParquetColumn *col = d->col;
  g_autofree guint32 *rows = NULL;
  guint64 present = n_values;

  if (defs != NULL)
    {
      g_autofree guint32 *levels = g_new (guint32, MAX (n_values, 1));

      if (!rle_decode (x, defs, defs_end, 1, levels, n_values))
        return FALSE;
      present = 0;
      for (guint64 i = 0; i < n_values; i++)
        present += levels[i] == 1;
      if (present < n_values)
        {
          if (col->present == NULL)
            {
              col->present = g_malloc (MAX (col->n_rows, 1));
              memset (col->present, 1, col->n_rows);
            }
          rows = g_new (guint32, MAX (present, 1));
          for (guint64 i = 0, k = 0; i < n_values; i++)
            {
              if (levels[i] == 1)
                rows[k++] = (guint32) (first + i);
              else
                col->present[first + i] = 0;
            }
        }
    }
  return read_values (x, d, encoding, values, values_end, present, first, rows);
}

gboolean
chrono_parquet_file_read_column (ChronoParquetFile   *f,
                                 guint                group,
                                 guint                column,
                                 const gint          *expected,
                                 ChronoParquetColumn *out,
                                 GError             **error)
{
  const Leaf *leaf;
  const Chunk *c;
  Ctx x;
  Decoder d = { 0 };
  gint64 start, end;
  guint64 rows_done = 0;
  gboolean type_ok = FALSE;
  const guint8 *p;

  g_return_val_if_fail (group < f->n_groups && column < f->n_leaves, FALSE);
  memset (out, 0, sizeof *out);
  leaf = &f->leaves[column];
  c = &f->groups[group].chunks[column];
  x = (Ctx) { f, leaf, group, NULL, error };

  for (guint i = 0; expected[i] >= 0; i++)
    type_ok |= expected[i] == leaf->type;
  if (!type_ok)
    return fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: column %s is %s, which is not a type it can have here",
                 f->name, leaf->name, NAME_OF (type_names, leaf->type));
  if (leaf->type == CHRONO_PARQUET_INT96 || leaf->type == CHRONO_PARQUET_FIXED_LEN_BYTE_ARRAY)
    return fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: column %s: %s values are not read",
                 f->name, leaf->name, NAME_OF (type_names, leaf->type));
  if (f->groups[group].n_rows > G_MAXUINT32)
    return fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: row group %u has more than 2^32 rows",
                 f->name, group + 1);
  if (!leaf->top_level || leaf->max_rep > 0 || leaf->max_def > 1)
    return fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: column %s is nested or repeated, which is not read here",
                 f->name, leaf->name);
  if (!c->has_meta || c->other_file)
    return fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: column %s, row group %u: column data in another file is not read",
                 f->name, leaf->name, group + 1);
  if (c->type != leaf->type || c->path_len != 1 || g_strcmp0 (c->first_path, leaf->name) != 0)
    return fail (error, CHRONO_LOAD_ERROR_SYNTAX, "%s: column %s, row group %u: the column chunk does not match the schema",
                 f->name, leaf->name, group + 1);
  if (c->codec != CODEC_UNCOMPRESSED && c->codec != CODEC_SNAPPY && c->codec != CODEC_GZIP && c->codec != CODEC_ZSTD)
    return fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: column %s, row group %u: the %s codec is not read "
                 "(UNCOMPRESSED, SNAPPY, GZIP and ZSTD are)", f->name, leaf->name, group + 1, NAME_OF (codec_names, c->codec));

  start = c->dictionary_page > 0 && c->dictionary_page < c->data_page ? c->dictionary_page : c->data_page;
  end = start + c->compressed_size;
  if (start < 4 || c->compressed_size < 0 || end < start || (guint64) end > f->data_end)
    return fail (error, CHRONO_LOAD_ERROR_SYNTAX, "%s: column %s, row group %u: its pages lie outside the file",
                 f->name, leaf->name, group + 1);

  out->type = leaf->type;
  out->n_rows = (guint64) f->groups[group].n_rows;
  out->buffers = g_ptr_array_new_with_free_func (g_free);
  if (leaf->type == CHRONO_PARQUET_BYTE_ARRAY)
    out->v.index = g_new0 (guint32, MAX (out->n_rows, 1));
  else if (leaf->type == CHRONO_PARQUET_FLOAT || leaf->type == CHRONO_PARQUET_DOUBLE)
    out->v.f64 = g_new0 (gdouble, MAX (out->n_rows, 1));
  else
    out->v.i64 = g_new0 (gint64, MAX (out->n_rows, 1));
  d.col = out;

  p = f->data + start;
  while (rows_done < out->n_rows)
    {
      Thrift t = { p, f->data + end, 0, FALSE };
      PageHeader h;
      const guint8 *body;
      gboolean ok = TRUE;

      x.page = p;
      if (p >= f->data + end)
        {
          page_error (&x, "the column chunk ends before its rows do");
          goto failed;
        }
      if (!read_page_header (&t, &h))
        {
          page_error (&x, "its page header is damaged");
          goto failed;
        }
      body = t.p;
      if ((gsize) h.compressed > (gsize) (f->data + end - body))
        {
          page_error (&x, "the page goes past its column chunk");
          goto failed;
        }
      p = body + h.compressed;
      if (h.type == PAGE_INDEX)
        continue;
      if (!h.has_header)
        {
          page_error (&x, "a page without its own header");
          goto failed;
        }
      if (h.type == PAGE_DICTIONARY)
        {
          const guint8 *data = decompress (&x, c->codec, body, h.compressed, h.uncompressed, out->buffers);

          ok = data != NULL && read_dictionary (&x, &d, data, data + h.uncompressed, (guint32) h.n_values);
        }
      else if (h.type == PAGE_DATA || h.type == PAGE_DATA_V2)
        {
          const guint8 *data, *defs = NULL, *defs_end = NULL, *values;
          gsize size;

          if ((guint64) h.n_values > out->n_rows - rows_done)
            {
              page_error (&x, "more values than the row group has rows");
              goto failed;
            }
          if (h.type == PAGE_DATA)
            {
              data = decompress (&x, c->codec, body, h.compressed, h.uncompressed, out->buffers);
              if (data == NULL)
                goto failed;
              values = data;
              size = h.uncompressed;
              if (leaf->max_def > 0)
                {
                  guint32 len;

                  if (h.def_encoding != ENC_RLE)
                    {
                      fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: column %s, row group %u: definition levels in the %s "
                            "encoding are not read", f->name, leaf->name, group + 1, NAME_OF (encoding_names, h.def_encoding));
                      goto failed;
                    }
                  if (size < 4)
                    {
                      page_error (&x, "no length for its definition levels");
                      goto failed;
                    }
                  memcpy (&len, data, 4);
                  len = GUINT32_FROM_LE (len);
                  if (len > size - 4)
                    {
                      page_error (&x, "its definition levels go past the page");
                      goto failed;
                    }
                  defs = data + 4;
                  defs_end = defs + len;
                  values = defs_end;
                }
              ok = read_data (&x, &d, h.encoding, defs, defs_end, values, data + size, h.n_values, rows_done);
            }
          else
            {
              /* v2: levels uncompressed at the start, then the values. */
              if (h.rep_bytes < 0 || h.def_bytes < 0 ||
                  (gint64) h.rep_bytes + h.def_bytes > MIN (h.compressed, h.uncompressed))
                {
                  page_error (&x, "its level lengths exceed the page");
                  goto failed;
                }
              if (h.rep_bytes > 0)
                {
                  page_error (&x, "repetition levels in a column that is not repeated");
                  goto failed;
                }
              if (leaf->max_def > 0)
                {
                  defs = body;
                  defs_end = body + h.def_bytes;
                }
              size = h.uncompressed - h.def_bytes;
              data = decompress (&x, h.compressed_v2 ? c->codec : CODEC_UNCOMPRESSED, body + h.def_bytes,
                                 h.compressed - h.def_bytes, size, out->buffers);
              if (data == NULL)
                goto failed;
              ok = read_data (&x, &d, h.encoding, defs, defs_end, data, data + size, h.n_values, rows_done);
            }
          rows_done += h.n_values;
        }
      else
        {
          page_error (&x, "a page of unknown type");
          goto failed;
        }
      if (!ok)
        goto failed;
    }
  g_free (d.dict_i64);
  g_free (d.dict_f64);
  g_free (d.scratch);
  return TRUE;

failed:
  g_free (d.dict_i64);
  g_free (d.dict_f64);
  g_free (d.scratch);
  chrono_parquet_column_clear (out);
  return FALSE;
}

void
chrono_parquet_column_clear (ChronoParquetColumn *col)
{
  g_free (col->present);
  g_free (col->v.i64);
  g_free (col->entries);
  if (col->buffers)
    g_ptr_array_unref (col->buffers);
  memset (col, 0, sizeof *col);
}
