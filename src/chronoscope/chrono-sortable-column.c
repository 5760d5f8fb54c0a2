/* chrono-sortable-column.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-sortable-column.h"

GtkColumnViewColumn *
chrono_sortable_column_append (GtkColumnView    *view,
                               const char       *title,
                               GCallback         setup,
                               GCallback         bind,
                               GCompareDataFunc  compare,
                               gpointer          data)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkColumnViewColumn) column = NULL;

  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (view), NULL);

  g_signal_connect (factory, "setup", setup, data);
  g_signal_connect (factory, "bind", bind, data);
  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_sorter (column, GTK_SORTER (gtk_custom_sorter_new (compare, data, NULL)));
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_append_column (view, column);
  return column;
}
