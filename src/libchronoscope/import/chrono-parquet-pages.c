/* chrono-parquet-pages.c: one column of one row group, decoded
 *
 * A column chunk's pages (dictionary, data v1 and v2) are decompressed
 * and decoded whole into the caller's arrays: definition levels and
 * dictionary indices as RLE / bit-packed hybrid runs, values PLAIN or
 * through the dictionary.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <snappy-c.h>
#include <zstd.h>

#include "chrono-parquet-private.h"

#define MAX_PAGE_BYTES  (256u << 20)

/* -------------------------------------------------------------------- */
/* Levels and dictionary indices: RLE / bit-packed hybrid               */

typedef struct {
  const ChronoParquetFile *f;
  const ChronoParquetLeaf              *leaf;
  guint                    group;
  const guint8            *page;      /* the page header's first byte, for messages */
  GError                 **error;
} Ctx;

static gboolean
page_error (Ctx        *x,
            const char *what)
{
  return chrono_parquet_fail (x->error, CHRONO_LOAD_ERROR_SYNTAX, "%s: column %s, row group %u, page at byte %" G_GSIZE_FORMAT ": %s",
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
      ChronoThrift t = { p, end, 0, FALSE };
      guint64 header = chrono_thrift_varint (&t);

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
read_page_inner (ChronoThrift     *t,
                 PageHeader *h,
                 gboolean    v2)
{
  gint id = 0;
  guint type;

  h->has_header = TRUE;
  h->compressed_v2 = TRUE;
  while (chrono_thrift_field (t, &id, &type))
    {
      if (id == 1 && type == CHRONO_THRIFT_I32)
        h->n_values = (gint32) chrono_thrift_int (t);
      else if (!v2 && id == 2 && type == CHRONO_THRIFT_I32)
        h->encoding = (gint) chrono_thrift_int (t);
      else if (!v2 && id == 3 && type == CHRONO_THRIFT_I32)
        h->def_encoding = (gint) chrono_thrift_int (t);
      else if (v2 && id == 4 && type == CHRONO_THRIFT_I32)
        h->encoding = (gint) chrono_thrift_int (t);
      else if (v2 && id == 5 && type == CHRONO_THRIFT_I32)
        h->def_bytes = (gint32) chrono_thrift_int (t);
      else if (v2 && id == 6 && type == CHRONO_THRIFT_I32)
        h->rep_bytes = (gint32) chrono_thrift_int (t);
      else if (v2 && id == 7 && (type == CHRONO_THRIFT_TRUE || type == CHRONO_THRIFT_FALSE))
        h->compressed_v2 = type == CHRONO_THRIFT_TRUE;
      else
        chrono_thrift_skip (t, type, FALSE);
    }
}

static gboolean
read_page_header (ChronoThrift     *t,
                  PageHeader *h)
{
  gint id = 0;
  guint type;

  memset (h, 0, sizeof *h);
  h->type = -1;
  h->def_encoding = CHRONO_PARQUET_ENC_RLE;
  while (chrono_thrift_field (t, &id, &type))
    {
      if (id == 1 && type == CHRONO_THRIFT_I32)
        h->type = (gint) chrono_thrift_int (t);
      else if (id == 2 && type == CHRONO_THRIFT_I32)
        h->uncompressed = (gint32) chrono_thrift_int (t);
      else if (id == 3 && type == CHRONO_THRIFT_I32)
        h->compressed = (gint32) chrono_thrift_int (t);
      else if ((id == 5 || id == 7 || id == 8) && type == CHRONO_THRIFT_STRUCT && !h->has_header)
        read_page_inner (t, h, id == 8);
      else
        chrono_thrift_skip (t, type, FALSE);
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

  if (codec == CHRONO_PARQUET_CODEC_UNCOMPRESSED)
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
    case CHRONO_PARQUET_CODEC_SNAPPY:
      {
        size_t n = 0;

        ok = snappy_uncompressed_length ((const char *) in, in_len, &n) == SNAPPY_OK && n == out_len &&
             snappy_uncompress ((const char *) in, in_len, (char *) out, &n) == SNAPPY_OK && n == out_len;
      }
      break;
    case CHRONO_PARQUET_CODEC_GZIP:
      {
        size_t n = 0;

        ok = libdeflate_gzip_decompress (x->f->inflater, in, in_len, out, out_len, &n) == LIBDEFLATE_SUCCESS &&
             n == out_len;
      }
      break;
    case CHRONO_PARQUET_CODEC_ZSTD:
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
      page_error (x, codec == CHRONO_PARQUET_CODEC_SNAPPY ? "its Snappy data is damaged"
                     : codec == CHRONO_PARQUET_CODEC_GZIP ? "its gzip data is damaged" : "its zstd data is damaged");
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

  if (encoding == CHRONO_PARQUET_ENC_PLAIN)
    {
      if (!decode_plain (x, col, p, end, n, i64, f64, index))
        return FALSE;
    }
  else if (encoding == CHRONO_PARQUET_ENC_PLAIN_DICTIONARY || encoding == CHRONO_PARQUET_ENC_RLE_DICTIONARY)
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
  else if (encoding == CHRONO_PARQUET_ENC_RLE && col->type == CHRONO_PARQUET_BOOLEAN)
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
    return chrono_parquet_fail (x->error, CHRONO_LOAD_ERROR_FORMAT,
                                "%s: column %s, row group %u: the %s encoding of %s values is not read",
                                x->f->name, x->leaf->name, x->group + 1, CHRONO_PARQUET_NAME_OF (chrono_parquet_encoding_names, encoding),
                                CHRONO_PARQUET_NAME_OF (chrono_parquet_type_names, col->type));

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
  const ChronoParquetLeaf *leaf;
  const ChronoParquetChunk *c;
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
    return chrono_parquet_fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: column %s is %s, which is not a type it can have here",
                                f->name, leaf->name, CHRONO_PARQUET_NAME_OF (chrono_parquet_type_names, leaf->type));
  if (leaf->type == CHRONO_PARQUET_INT96 || leaf->type == CHRONO_PARQUET_FIXED_LEN_BYTE_ARRAY)
    return chrono_parquet_fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: column %s: %s values are not read",
                                f->name, leaf->name, CHRONO_PARQUET_NAME_OF (chrono_parquet_type_names, leaf->type));
  if (f->groups[group].n_rows > G_MAXUINT32)
    return chrono_parquet_fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: row group %u has more than 2^32 rows",
                                f->name, group + 1);
  if (!leaf->top_level || leaf->max_rep > 0 || leaf->max_def > 1)
    return chrono_parquet_fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: column %s is nested or repeated, which is not read here",
                                f->name, leaf->name);
  if (!c->has_meta || c->other_file)
    return chrono_parquet_fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: column %s, row group %u: column data in another file is not read",
                                f->name, leaf->name, group + 1);
  if (c->type != leaf->type || c->path_len != 1 || g_strcmp0 (c->first_path, leaf->name) != 0)
    return chrono_parquet_fail (error, CHRONO_LOAD_ERROR_SYNTAX, "%s: column %s, row group %u: the column chunk does not match the schema",
                                f->name, leaf->name, group + 1);
  if (c->codec != CHRONO_PARQUET_CODEC_UNCOMPRESSED && c->codec != CHRONO_PARQUET_CODEC_SNAPPY && c->codec != CHRONO_PARQUET_CODEC_GZIP && c->codec != CHRONO_PARQUET_CODEC_ZSTD)
    return chrono_parquet_fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: column %s, row group %u: the %s codec is not read "
                                "(UNCOMPRESSED, SNAPPY, GZIP and ZSTD are)", f->name, leaf->name, group + 1, CHRONO_PARQUET_NAME_OF (chrono_parquet_codec_names, c->codec));

  start = c->dictionary_page > 0 && c->dictionary_page < c->data_page ? c->dictionary_page : c->data_page;
  end = start + c->compressed_size;
  if (start < 4 || c->compressed_size < 0 || end < start || (guint64) end > f->data_end)
    return chrono_parquet_fail (error, CHRONO_LOAD_ERROR_SYNTAX, "%s: column %s, row group %u: its pages lie outside the file",
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
      ChronoThrift t = { p, f->data + end, 0, FALSE };
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
      if (h.type == CHRONO_PARQUET_PAGE_INDEX)
        continue;
      if (!h.has_header)
        {
          page_error (&x, "a page without its own header");
          goto failed;
        }
      if (h.type == CHRONO_PARQUET_PAGE_DICTIONARY)
        {
          const guint8 *data = decompress (&x, c->codec, body, h.compressed, h.uncompressed, out->buffers);

          ok = data != NULL && read_dictionary (&x, &d, data, data + h.uncompressed, (guint32) h.n_values);
        }
      else if (h.type == CHRONO_PARQUET_PAGE_DATA || h.type == CHRONO_PARQUET_PAGE_DATA_V2)
        {
          const guint8 *data, *defs = NULL, *defs_end = NULL, *values;
          gsize size;

          if ((guint64) h.n_values > out->n_rows - rows_done)
            {
              page_error (&x, "more values than the row group has rows");
              goto failed;
            }
          if (h.type == CHRONO_PARQUET_PAGE_DATA)
            {
              data = decompress (&x, c->codec, body, h.compressed, h.uncompressed, out->buffers);
              if (data == NULL)
                goto failed;
              values = data;
              size = h.uncompressed;
              if (leaf->max_def > 0)
                {
                  guint32 len;

                  if (h.def_encoding != CHRONO_PARQUET_ENC_RLE)
                    {
                      chrono_parquet_fail (error, CHRONO_LOAD_ERROR_FORMAT, "%s: column %s, row group %u: definition levels in the %s "
                                           "encoding are not read", f->name, leaf->name, group + 1, CHRONO_PARQUET_NAME_OF (chrono_parquet_encoding_names, h.def_encoding));
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
              data = decompress (&x, h.compressed_v2 ? c->codec : CHRONO_PARQUET_CODEC_UNCOMPRESSED, body + h.def_bytes,
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
