/* chrono-efficiency-item.c: one row of the operator efficiency, for list models
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-efficiency-item.h"

struct _ChronoEfficiencyItem
{
  GObject         parent_instance;

  ChronoAnalysis *analysis;
  guint           index;
};

G_DEFINE_FINAL_TYPE (ChronoEfficiencyItem, chrono_efficiency_item, G_TYPE_OBJECT)

static void
chrono_efficiency_item_finalize (GObject *object)
{
  ChronoEfficiencyItem *self = CHRONO_EFFICIENCY_ITEM (object);

  g_clear_object (&self->analysis);

  G_OBJECT_CLASS (chrono_efficiency_item_parent_class)->finalize (object);
}

static void
chrono_efficiency_item_class_init (ChronoEfficiencyItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_efficiency_item_finalize;
}

static void
chrono_efficiency_item_init (ChronoEfficiencyItem *self)
{
}

ChronoEfficiencyItem *
chrono_efficiency_item_new (ChronoAnalysis *analysis,
                            guint           index)
{
  ChronoEfficiencyItem *self;

  g_return_val_if_fail (CHRONO_IS_ANALYSIS (analysis), NULL);
  g_return_val_if_fail (index < chrono_analysis_get_n_efficiency (analysis), NULL);

  self = g_object_new (CHRONO_TYPE_EFFICIENCY_ITEM, NULL);
  self->analysis = g_object_ref (analysis);
  self->index = index;
  return self;
}

const ChronoEfficiencyRow *
chrono_efficiency_item_get_row (ChronoEfficiencyItem *self)
{
  g_return_val_if_fail (CHRONO_IS_EFFICIENCY_ITEM (self), NULL);
  return chrono_analysis_get_efficiency (self->analysis, self->index);
}
