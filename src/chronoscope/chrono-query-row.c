/* chrono-query-row.c: one row of a query's result
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-query-row.h"

struct _ChronoQueryRow
{
  GObject            parent_instance;
  ChronoQueryResult *result;
  guint              row;
};

G_DEFINE_FINAL_TYPE (ChronoQueryRow, chrono_query_row, G_TYPE_OBJECT)

static void
chrono_query_row_finalize (GObject *object)
{
  g_clear_object (&CHRONO_QUERY_ROW (object)->result);
  G_OBJECT_CLASS (chrono_query_row_parent_class)->finalize (object);
}

static void
chrono_query_row_class_init (ChronoQueryRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_query_row_finalize;
}

static void
chrono_query_row_init (ChronoQueryRow *self)
{
}

ChronoQueryRow *
chrono_query_row_new (ChronoQueryResult *result,
                      guint              row)
{
  ChronoQueryRow *self;

  g_return_val_if_fail (CHRONO_IS_QUERY_RESULT (result), NULL);
  self = g_object_new (CHRONO_TYPE_QUERY_ROW, NULL);
  self->result = g_object_ref (result);
  self->row = row;
  return self;
}

ChronoQueryResult *
chrono_query_row_get_result (ChronoQueryRow *self)
{
  g_return_val_if_fail (CHRONO_IS_QUERY_ROW (self), NULL);
  return self->result;
}

guint
chrono_query_row_get_row (ChronoQueryRow *self)
{
  g_return_val_if_fail (CHRONO_IS_QUERY_ROW (self), 0);
  return self->row;
}
