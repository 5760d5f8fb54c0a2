/* chrono-area-item.c: one row of an area's table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-area-item.h"

struct _ChronoAreaItem
{
  GObject          parent_instance;
  ChronoAreaStats *stats;
  guint            index;
  gboolean         counter;
};

G_DEFINE_FINAL_TYPE (ChronoAreaItem, chrono_area_item, G_TYPE_OBJECT)

static void
chrono_area_item_finalize (GObject *object)
{
  g_clear_object (&CHRONO_AREA_ITEM (object)->stats);
  G_OBJECT_CLASS (chrono_area_item_parent_class)->finalize (object);
}

static void
chrono_area_item_class_init (ChronoAreaItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_area_item_finalize;
}

static void
chrono_area_item_init (ChronoAreaItem *self)
{
}

ChronoAreaItem *
chrono_area_item_new (ChronoAreaStats *stats,
                      guint            index,
                      gboolean         counter)
{
  ChronoAreaItem *self;

  g_return_val_if_fail (CHRONO_IS_AREA_STATS (stats), NULL);
  self = g_object_new (CHRONO_TYPE_AREA_ITEM, NULL);
  self->stats = g_object_ref (stats);
  self->index = index;
  self->counter = counter;
  return self;
}

ChronoAreaStats *
chrono_area_item_get_stats (ChronoAreaItem *self)
{
  g_return_val_if_fail (CHRONO_IS_AREA_ITEM (self), NULL);
  return self->stats;
}

guint
chrono_area_item_get_index (ChronoAreaItem *self)
{
  g_return_val_if_fail (CHRONO_IS_AREA_ITEM (self), 0);
  return self->index;
}

const ChronoAreaRow *
chrono_area_item_get_row (ChronoAreaItem *self)
{
  g_return_val_if_fail (CHRONO_IS_AREA_ITEM (self), NULL);
  return self->counter ? NULL : chrono_area_stats_get_row (self->stats, self->index);
}

const ChronoAreaCounter *
chrono_area_item_get_counter (ChronoAreaItem *self)
{
  g_return_val_if_fail (CHRONO_IS_AREA_ITEM (self), NULL);
  return self->counter ? chrono_area_stats_get_counter (self->stats, self->index) : NULL;
}
