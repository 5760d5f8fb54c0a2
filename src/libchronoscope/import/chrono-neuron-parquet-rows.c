/* chrono-neuron-parquet-rows.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-neuron-parquet-rows.h"

const gint chrono_parquet_cell_types[] = {
  CHRONO_PARQUET_BOOLEAN, CHRONO_PARQUET_INT32, CHRONO_PARQUET_INT64, CHRONO_PARQUET_FLOAT,
  CHRONO_PARQUET_DOUBLE, CHRONO_PARQUET_BYTE_ARRAY, -1
};

/* A span's args offset names its table row: file, row group, row. */
#define ARGS_FILE_SHIFT  40
#define ARGS_GROUP_SHIFT 24
#define ARGS_MAX_FILES   (1u << (CHRONO_SOURCE_SHIFT - ARGS_FILE_SHIFT))
#define ARGS_MAX_GROUPS  (1u << (ARGS_FILE_SHIFT - ARGS_GROUP_SHIFT))
#define ARGS_MAX_ROWS    (G_GUINT64_CONSTANT (1) << ARGS_GROUP_SHIFT)

typedef struct {
  ChronoSource      *source;
  ChronoParquetFile *file;
} TableFile;

/* A row group's columns stay decoded for the next span of the same
 * group. */
struct _ChronoParquetRows
{
  ChronoRowArgs        parent;
  GPtrArray           *files;          /* TableFile */
  GMutex               lock;
  guint64              cached;         /* the file and group decoded, or G_MAXUINT64 */
  ChronoParquetColumn *cols;
  gboolean            *cols_ok;        /* decoded */
  gboolean            *cols_tried;     /* asked for since the group was */
  guint                n_cols;
  /* The columns decoded of those the last caller named, for the next
   * call naming the same: fields read row after row. */
  char               **named;          /* a copy, or NULL for all */
  gboolean             named_valid;
  guint               *named_cols;
  guint                n_named;
};

static void
append_json_string (GString      *out,
                    const guint8 *data,
                    gsize         len)
{
  g_autofree char *valid = g_utf8_make_valid ((const char *) data, len);

  g_string_append_c (out, '"');
  for (const char *p = valid; *p; p++)
    {
      guchar c = (guchar) *p;

      if (c == '"' || c == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, c);
        }
      else if (c < 0x20)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, c);
    }
  g_string_append_c (out, '"');
}

static void
clear_cache (ChronoParquetRows *ra)
{
  for (guint c = 0; c < ra->n_cols; c++)
    if (ra->cols_ok[c])
      chrono_parquet_column_clear (&ra->cols[c]);
  g_clear_pointer (&ra->cols, g_free);
  g_clear_pointer (&ra->cols_ok, g_free);
  g_clear_pointer (&ra->cols_tried, g_free);
  g_clear_pointer (&ra->named_cols, g_free);
  g_clear_pointer (&ra->named, g_strfreev);
  ra->named_valid = FALSE;
  ra->n_cols = 0;
  ra->cached = G_MAXUINT64;
}

/* Whether column NAME is among ONLY (NULL for any). */
static gboolean
wanted (const char * const *only,
        const char         *name)
{
  if (only == NULL)
    return TRUE;
  for (guint k = 0; only[k] != NULL; k++)
    if (strcmp (only[k], name) == 0)
      return TRUE;
  return FALSE;
}

/* The file of the row at OFFSET and the row in its group, the group's
 * columns named in ONLY (all when NULL) decoded into the cache; NULL past
 * the files. A group's columns are decoded when first asked for. */
static ChronoParquetFile *
decode_group (ChronoParquetRows  *ra,
              guint64             offset,
              const char * const *only,
              guint64            *row)
{
  guint file = (guint) (offset >> ARGS_FILE_SHIFT);
  guint group = (guint) ((offset >> ARGS_GROUP_SHIFT) % ARGS_MAX_GROUPS);
  ChronoParquetFile *f;

  *row = offset % ARGS_MAX_ROWS;
  if (file >= ra->files->len)
    return NULL;
  f = ((TableFile *) g_ptr_array_index (ra->files, file))->file;
  if (group >= chrono_parquet_file_get_n_row_groups (f) || *row >= chrono_parquet_file_get_n_rows (f, group))
    return NULL;
  if (ra->cached != (offset >> ARGS_GROUP_SHIFT))
    {
      clear_cache (ra);
      ra->n_cols = chrono_parquet_file_get_n_columns (f);
      ra->cols = g_new0 (ChronoParquetColumn, MAX (ra->n_cols, 1));
      ra->cols_ok = g_new0 (gboolean, MAX (ra->n_cols, 1));
      ra->cols_tried = g_new0 (gboolean, MAX (ra->n_cols, 1));
      ra->named_cols = g_new (guint, MAX (ra->n_cols, 1));
      ra->cached = offset >> ARGS_GROUP_SHIFT;
    }
  if (ra->named_valid && (only == NULL ? ra->named == NULL
                          : ra->named != NULL && g_strv_equal ((const char * const *) ra->named, only)))
    return f;
  ra->n_named = 0;
  for (guint c = 0; c < ra->n_cols; c++)
    if (wanted (only, chrono_parquet_file_get_column_name (f, c)))
      {
        if (!ra->cols_tried[c])
          {
            ra->cols_tried[c] = TRUE;
            ra->cols_ok[c] = chrono_parquet_file_read_column (f, group, c, chrono_parquet_cell_types, &ra->cols[c], NULL);
          }
        /* A column that cannot be read (nested, damaged) is left out. */
        if (ra->cols_ok[c])
          ra->named_cols[ra->n_named++] = c;
      }
  g_strfreev (ra->named);
  ra->named = only != NULL ? g_strdupv ((char **) only) : NULL;
  ra->named_valid = TRUE;
  return f;
}

/* Column C's value at ROW as JSON would write it, into BUF for a number;
 * a string's bytes are given as they are. FALSE for null. */
static gboolean
cell_text (const ChronoParquetColumn *col,
           guint64                    row,
           char                       buf[G_ASCII_DTOSTR_BUF_SIZE],
           const guint8             **text,
           gsize                     *len,
           gboolean                  *is_string)
{
  *is_string = FALSE;
  if (col->present && !col->present[row])
    return FALSE;
  if (col->type == CHRONO_PARQUET_BOOLEAN)
    g_strlcpy (buf, col->v.i64[row] ? "true" : "false", G_ASCII_DTOSTR_BUF_SIZE);
  else if (col->type == CHRONO_PARQUET_INT32 || col->type == CHRONO_PARQUET_INT64)
    g_snprintf (buf, G_ASCII_DTOSTR_BUF_SIZE, "%" G_GINT64_FORMAT, col->v.i64[row]);
  else if (col->type == CHRONO_PARQUET_FLOAT || col->type == CHRONO_PARQUET_DOUBLE)
    {
      if (!isfinite (col->v.f64[row]))
        return FALSE;
      g_ascii_dtostr (buf, G_ASCII_DTOSTR_BUF_SIZE, col->v.f64[row]);
    }
  else
    {
      const ChronoParquetBytes *b = &col->entries[col->v.index[row]];

      *text = b->data;
      *len = b->len;
      *is_string = TRUE;
      return TRUE;
    }
  *text = (const guint8 *) buf;
  *len = strlen (buf);
  return TRUE;
}

gboolean
chrono_parquet_rows_field (const ChronoParquetColumn *col,
                           guint64                    row,
                           char                       buf[G_ASCII_DTOSTR_BUF_SIZE],
                           const char               **text,
                           gsize                     *len,
                           char                     **owned)
{
  const guint8 *t;
  gboolean is_string;

  *owned = NULL;
  if (!cell_text (col, row, buf, &t, len, &is_string))
    return FALSE;
  *text = (const char *) t;
  if (!is_string)
    return TRUE;
  /* The text stops at a NUL, as the row's JSON text did. */
  *len = strnlen (*text, *len);
  if (!g_utf8_validate_len (*text, *len, NULL))
    {
      *text = *owned = g_utf8_make_valid (*text, *len);
      *len = strlen (*owned);
    }
  return TRUE;
}

static char *
render_row (ChronoParquetRows *ra,
            guint64            offset)
{
  guint64 row;
  ChronoParquetFile *f = decode_group (ra, offset, NULL, &row);
  GString *out;

  if (f == NULL)
    return NULL;
  out = g_string_new ("{");
  for (guint c = 0; c < ra->n_cols; c++)
    {
      const char *name = chrono_parquet_file_get_column_name (f, c);
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      const guint8 *text;
      gsize len;
      gboolean is_string;

      if (!ra->cols_ok[c])
        continue;
      if (out->len > 1)
        g_string_append_c (out, ',');
      append_json_string (out, (const guint8 *) name, strlen (name));
      g_string_append_c (out, ':');
      if (!cell_text (&ra->cols[c], row, buf, &text, &len, &is_string))
        g_string_append (out, "null");
      else if (is_string)
        append_json_string (out, text, len);
      else
        g_string_append_len (out, (const char *) text, len);
    }
  g_string_append_c (out, '}');
  return g_string_free (out, FALSE);
}

static char *
row_args_row (ChronoRowArgs *self,
              guint64        offset)
{
  ChronoParquetRows *ra = (ChronoParquetRows *) self;
  char *text;

  g_mutex_lock (&ra->lock);
  text = render_row (ra, offset);
  g_mutex_unlock (&ra->lock);
  return text;
}

/* The same values as the row's JSON text gives once parsed: strings made
 * valid UTF-8 as there, without writing and parsing the text. */
static gboolean
row_args_fields (ChronoRowArgs      *self,
                 guint64             offset,
                 const char * const *only,
                 ChronoRowFieldFunc  func,
                 gpointer            user_data)
{
  ChronoParquetRows *ra = (ChronoParquetRows *) self;
  ChronoParquetFile *f;
  guint64 row;

  g_mutex_lock (&ra->lock);
  f = decode_group (ra, offset, only, &row);
  for (guint i = 0; f != NULL && i < ra->n_named; i++)
    {
      guint c = ra->named_cols[i];
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_autofree char *owned = NULL;
      const char *text;
      gsize len;

      if (chrono_parquet_rows_field (&ra->cols[c], row, buf, &text, &len, &owned))
        func (chrono_parquet_file_get_column_name (f, c), text, len, user_data);
      else
        func (chrono_parquet_file_get_column_name (f, c), NULL, 0, user_data);
    }
  g_mutex_unlock (&ra->lock);
  return f != NULL;
}

static void
row_args_free (ChronoRowArgs *self)
{
  ChronoParquetRows *ra = (ChronoParquetRows *) self;

  clear_cache (ra);
  for (guint i = 0; i < ra->files->len; i++)
    {
      TableFile *tf = g_ptr_array_index (ra->files, i);

      chrono_parquet_file_free (tf->file);
      chrono_source_unref (tf->source);
      g_free (tf);
    }
  g_ptr_array_unref (ra->files);
  g_mutex_clear (&ra->lock);
  g_free (ra);
}

ChronoParquetRows *
chrono_parquet_rows_new (void)
{
  ChronoParquetRows *ra = g_new0 (ChronoParquetRows, 1);

  ra->parent.row = row_args_row;
  ra->parent.fields = row_args_fields;
  ra->parent.free = row_args_free;
  ra->files = g_ptr_array_new ();
  ra->cached = G_MAXUINT64;
  g_mutex_init (&ra->lock);
  return ra;
}

void
chrono_parquet_rows_free (ChronoParquetRows *rows)
{
  row_args_free (&rows->parent);
}

ChronoRowArgs *
chrono_parquet_rows_to_row_args (ChronoParquetRows *rows)
{
  return &rows->parent;
}

guint64
chrono_parquet_rows_keep (ChronoParquetRows  *rows,
                          ChronoSource       *source,
                          ChronoParquetFile **f)
{
  TableFile *tf;

  if (rows->files->len >= ARGS_MAX_FILES)
    return CHRONO_NO_ARGS;
  tf = g_new (TableFile, 1);
  tf->source = chrono_source_ref (source);
  tf->file = g_steal_pointer (f);
  g_ptr_array_add (rows->files, tf);
  return (guint64) (rows->files->len - 1) << ARGS_FILE_SHIFT;
}

guint64
chrono_parquet_rows_group (guint64 file,
                           guint   group)
{
  return file != CHRONO_NO_ARGS && group < ARGS_MAX_GROUPS
         ? file | (guint64) group << ARGS_GROUP_SHIFT : CHRONO_NO_ARGS;
}

guint64
chrono_parquet_rows_row (guint64 group,
                         guint64 row)
{
  return group != CHRONO_NO_ARGS && row < ARGS_MAX_ROWS ? group | row : CHRONO_NO_ARGS;
}

static void
add_cell (JsonBuilder               *builder,
          ChronoParquetType          type,
          const ChronoParquetColumn *col,
          guint64                    row)
{
  if (col->present && !col->present[row])
    json_builder_add_null_value (builder);
  else if (type == CHRONO_PARQUET_BOOLEAN)
    json_builder_add_boolean_value (builder, col->v.i64[row] != 0);
  else if (type == CHRONO_PARQUET_INT32 || type == CHRONO_PARQUET_INT64)
    json_builder_add_int_value (builder, col->v.i64[row]);
  else if (type == CHRONO_PARQUET_FLOAT || type == CHRONO_PARQUET_DOUBLE)
    json_builder_add_double_value (builder, col->v.f64[row]);
  else
    {
      const ChronoParquetBytes *b = &col->entries[col->v.index[row]];
      g_autofree char *text = g_utf8_make_valid ((const char *) b->data, b->len);
      json_builder_add_string_value (builder, text);
    }
}

gboolean
chrono_parquet_rows_add_json (JsonBuilder       *builder,
                              ChronoParquetFile *f,
                              guint              group,
                              guint64            n_rows,
                              GError           **error)
{
  guint n_cols = chrono_parquet_file_get_n_columns (f);
  g_autofree ChronoParquetColumn *cols = g_new0 (ChronoParquetColumn, MAX (n_cols, 1));
  g_autofree gboolean *ok = g_new0 (gboolean, MAX (n_cols, 1));
  gboolean read = TRUE;

  for (guint c = 0; c < n_cols && read; c++)
    {
      ChronoParquetType type = chrono_parquet_file_get_column_type (f, c);

      if (type == CHRONO_PARQUET_INT96 || type == CHRONO_PARQUET_FIXED_LEN_BYTE_ARRAY)
        continue;
      read = ok[c] = chrono_parquet_file_read_column (f, group, c, chrono_parquet_cell_types, &cols[c], error);
    }
  for (guint64 r = 0; r < n_rows && read; r++)
    {
      json_builder_begin_object (builder);
      for (guint c = 0; c < n_cols; c++)
        if (ok[c])
          {
            json_builder_set_member_name (builder, chrono_parquet_file_get_column_name (f, c));
            add_cell (builder, chrono_parquet_file_get_column_type (f, c), &cols[c], r);
          }
      json_builder_end_object (builder);
    }
  for (guint c = 0; c < n_cols; c++)
    if (ok[c])
      chrono_parquet_column_clear (&cols[c]);
  return read;
}
