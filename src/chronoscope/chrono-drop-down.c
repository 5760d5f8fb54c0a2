/* chrono-drop-down.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-drop-down.h"

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          gpointer                  ellipsize)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), GPOINTER_TO_INT (ellipsize));
  gtk_list_item_set_child (item, label);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *item,
         gpointer                  ellipsize)
{
  gtk_label_set_label (GTK_LABEL (gtk_list_item_get_child (item)),
                       gtk_string_object_get_string (gtk_list_item_get_item (item)));
}

static GtkListItemFactory *
label_factory_new (PangoEllipsizeMode ellipsize)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GINT_TO_POINTER (ellipsize));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), NULL);
  return factory;
}

void
chrono_drop_down_cut_to_width (GtkDropDown *dropdown)
{
  g_autoptr(GtkListItemFactory) button = label_factory_new (PANGO_ELLIPSIZE_END);
  g_autoptr(GtkListItemFactory) list = label_factory_new (PANGO_ELLIPSIZE_NONE);

  g_return_if_fail (GTK_IS_DROP_DOWN (dropdown));

  gtk_drop_down_set_factory (dropdown, button);
  gtk_drop_down_set_list_factory (dropdown, list);
}
