/* chrono-query-result.c: the rows a query gave, as typed cells
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-query-private.h"

typedef struct {
  ChronoQueryType type;
  union {
    gint64      integer;
    gdouble     real;
    const char *text;     /* in the result's string chunk */
  };
} Cell;

struct _ChronoQueryResult {
  GObject       parent_instance;
  GStrv         columns;
  guint         n_columns;
  GArray       *cells;    /* Cell, row after row */
  GStringChunk *strings;
  gboolean      truncated;
  gint64        elapsed_ns;
};

G_DEFINE_FINAL_TYPE (ChronoQueryResult, chrono_query_result, G_TYPE_OBJECT)

static void
chrono_query_result_finalize (GObject *object)
{
  ChronoQueryResult *self = CHRONO_QUERY_RESULT (object);

  g_strfreev (self->columns);
  g_array_unref (self->cells);
  g_string_chunk_free (self->strings);
  G_OBJECT_CLASS (chrono_query_result_parent_class)->finalize (object);
}

static void
chrono_query_result_class_init (ChronoQueryResultClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_query_result_finalize;
}

static void
chrono_query_result_init (ChronoQueryResult *self)
{
  self->cells = g_array_new (FALSE, FALSE, sizeof (Cell));
  self->strings = g_string_chunk_new (4096);
}

ChronoQueryResult *
chrono_query_result_new (sqlite3_stmt *stmt)
{
  ChronoQueryResult *self = g_object_new (CHRONO_TYPE_QUERY_RESULT, NULL);

  self->n_columns = (guint) sqlite3_column_count (stmt);
  self->columns = g_new0 (char *, self->n_columns + 1);
  for (guint c = 0; c < self->n_columns; c++)
    self->columns[c] = g_strdup (sqlite3_column_name (stmt, (int) c));
  return self;
}

void
chrono_query_result_add_row (ChronoQueryResult *self,
                             sqlite3_stmt      *stmt)
{
  for (guint c = 0; c < self->n_columns; c++)
    {
      Cell cell = { .type = CHRONO_QUERY_NULL };

      switch (sqlite3_column_type (stmt, (int) c))
        {
        case SQLITE_INTEGER:
          cell.type = CHRONO_QUERY_INTEGER;
          cell.integer = sqlite3_column_int64 (stmt, (int) c);
          break;
        case SQLITE_FLOAT:
          cell.type = CHRONO_QUERY_REAL;
          cell.real = sqlite3_column_double (stmt, (int) c);
          break;
        case SQLITE_TEXT:
        case SQLITE_BLOB:
          cell.type = CHRONO_QUERY_TEXT;
          cell.text = g_string_chunk_insert_len (self->strings,
                                                 (const char *) sqlite3_column_text (stmt, (int) c),
                                                 sqlite3_column_bytes (stmt, (int) c));
          break;
        default:
          break;
        }
      g_array_append_val (self->cells, cell);
    }
}

void
chrono_query_result_finish (ChronoQueryResult *self,
                            gboolean           truncated,
                            gint64             elapsed_ns)
{
  self->truncated = truncated;
  self->elapsed_ns = elapsed_ns;
}

static const Cell *
get_cell (ChronoQueryResult *self,
          guint              row,
          guint              column)
{
  g_return_val_if_fail (CHRONO_IS_QUERY_RESULT (self), NULL);
  g_return_val_if_fail (column < self->n_columns, NULL);
  g_return_val_if_fail ((gsize) row * self->n_columns + column < self->cells->len, NULL);
  return &g_array_index (self->cells, Cell, (gsize) row * self->n_columns + column);
}

guint
chrono_query_result_get_n_columns (ChronoQueryResult *self)
{
  g_return_val_if_fail (CHRONO_IS_QUERY_RESULT (self), 0);
  return self->n_columns;
}

const char *
chrono_query_result_get_column_name (ChronoQueryResult *self,
                                     guint              column)
{
  g_return_val_if_fail (CHRONO_IS_QUERY_RESULT (self), NULL);
  g_return_val_if_fail (column < self->n_columns, NULL);
  return self->columns[column];
}

guint
chrono_query_result_get_n_rows (ChronoQueryResult *self)
{
  g_return_val_if_fail (CHRONO_IS_QUERY_RESULT (self), 0);
  return self->n_columns > 0 ? self->cells->len / self->n_columns : 0;
}

ChronoQueryType
chrono_query_result_get_cell_type (ChronoQueryResult *self,
                                   guint              row,
                                   guint              column)
{
  const Cell *cell = get_cell (self, row, column);

  return cell != NULL ? cell->type : CHRONO_QUERY_NULL;
}

gint64
chrono_query_result_get_int (ChronoQueryResult *self,
                             guint              row,
                             guint              column)
{
  const Cell *cell = get_cell (self, row, column);

  return cell != NULL && cell->type == CHRONO_QUERY_INTEGER ? cell->integer : 0;
}

gdouble
chrono_query_result_get_real (ChronoQueryResult *self,
                              guint              row,
                              guint              column)
{
  const Cell *cell = get_cell (self, row, column);

  if (cell == NULL)
    return 0;
  if (cell->type == CHRONO_QUERY_INTEGER)
    return (gdouble) cell->integer;
  return cell->type == CHRONO_QUERY_REAL ? cell->real : 0;
}

const char *
chrono_query_result_get_text (ChronoQueryResult *self,
                              guint              row,
                              guint              column)
{
  const Cell *cell = get_cell (self, row, column);

  return cell != NULL && cell->type == CHRONO_QUERY_TEXT ? cell->text : NULL;
}

char *
chrono_query_result_dup_cell_string (ChronoQueryResult *self,
                                     guint              row,
                                     guint              column)
{
  const Cell *cell = get_cell (self, row, column);
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (cell == NULL)
    return g_strdup ("");
  switch (cell->type)
    {
    case CHRONO_QUERY_INTEGER:
      return g_strdup_printf ("%" G_GINT64_FORMAT, cell->integer);
    case CHRONO_QUERY_REAL:
      /* The shortest text that reads back as the same double. */
      for (int digits = 1; digits <= 17; digits++)
        {
          char format[8];

          g_snprintf (format, sizeof format, "%%.%dg", digits);
          g_ascii_formatd (buffer, sizeof buffer, format, cell->real);
          if (g_ascii_strtod (buffer, NULL) == cell->real)
            break;
        }
      return g_strdup (buffer);
    case CHRONO_QUERY_TEXT:
      return g_strdup (cell->text);
    default:
      return g_strdup ("");
    }
}

gboolean
chrono_query_result_is_truncated (ChronoQueryResult *self)
{
  g_return_val_if_fail (CHRONO_IS_QUERY_RESULT (self), FALSE);
  return self->truncated;
}

gint64
chrono_query_result_get_elapsed_ns (ChronoQueryResult *self)
{
  g_return_val_if_fail (CHRONO_IS_QUERY_RESULT (self), 0);
  return self->elapsed_ns;
}
