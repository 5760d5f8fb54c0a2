/* chrono-sortable-column.h: a column of a GtkColumnView whose cells a
 * factory's setup and bind callbacks make, sorted by a comparison, as the
 * app's tables have them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A resizable column titled TITLE, appended to VIEW: SETUP and BIND (the
 * signals of a GtkSignalListItemFactory) and COMPARE all get DATA. Owned
 * by VIEW. */
GtkColumnViewColumn *chrono_sortable_column_append (GtkColumnView    *view,
                                                    const char       *title,
                                                    GCallback         setup,
                                                    GCallback         bind,
                                                    GCompareDataFunc  compare,
                                                    gpointer          data);

G_END_DECLS
