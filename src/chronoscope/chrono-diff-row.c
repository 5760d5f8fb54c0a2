/* chrono-diff-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gio.h>

#include "chrono-diff-row.h"

struct _ChronoDiffRow
{
  GObject           parent_instance;

  ChronoComparison *comparison;  /* keeps ROW alive */
  ChronoDiffKind    kind;
  guint             index;
  const ChronoCompareRow *row;
};

G_DEFINE_FINAL_TYPE (ChronoDiffRow, chrono_diff_row, G_TYPE_OBJECT)

static void
chrono_diff_row_finalize (GObject *object)
{
  g_clear_object (&CHRONO_DIFF_ROW (object)->comparison);

  G_OBJECT_CLASS (chrono_diff_row_parent_class)->finalize (object);
}

static void
chrono_diff_row_class_init (ChronoDiffRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_diff_row_finalize;
}

static void
chrono_diff_row_init (ChronoDiffRow *self)
{
}

ChronoDiffRow *
chrono_diff_row_new (ChronoComparison *comparison,
                     ChronoDiffKind    kind,
                     guint             index)
{
  ChronoDiffRow *self;

  g_return_val_if_fail (CHRONO_IS_COMPARISON (comparison), NULL);
  g_return_val_if_fail (index < (kind == CHRONO_DIFF_OPERATORS ? chrono_comparison_get_n_ops (comparison)
                                                               : chrono_comparison_get_n_kernels (comparison)),
                        NULL);

  self = g_object_new (CHRONO_TYPE_DIFF_ROW, NULL);
  self->comparison = g_object_ref (comparison);
  self->kind = kind;
  self->index = index;
  self->row = kind == CHRONO_DIFF_OPERATORS ? chrono_comparison_get_op (comparison, index)
                                            : chrono_comparison_get_kernel (comparison, index);
  return self;
}

ChronoDiffKind
chrono_diff_row_get_kind (ChronoDiffRow *self)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_ROW (self), CHRONO_DIFF_OPERATORS);
  return self->kind;
}

guint
chrono_diff_row_get_index (ChronoDiffRow *self)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_ROW (self), 0);
  return self->index;
}

const ChronoCompareRow *
chrono_diff_row_get_row (ChronoDiffRow *self)
{
  g_return_val_if_fail (CHRONO_IS_DIFF_ROW (self), NULL);
  return self->row;
}

/**
 * chrono_diff_row_list_new:
 *
 * Returns: (transfer full): a #GListModel of #ChronoDiffRow
 */
GListModel *
chrono_diff_row_list_new (ChronoComparison *comparison,
                          ChronoDiffKind    kind)
{
  GListStore *store;
  guint n;

  g_return_val_if_fail (CHRONO_IS_COMPARISON (comparison), NULL);

  store = g_list_store_new (CHRONO_TYPE_DIFF_ROW);
  n = kind == CHRONO_DIFF_OPERATORS ? chrono_comparison_get_n_ops (comparison)
                                    : chrono_comparison_get_n_kernels (comparison);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(ChronoDiffRow) row = chrono_diff_row_new (comparison, kind, i);

      g_list_store_append (store, row);
    }
  return G_LIST_MODEL (store);
}
