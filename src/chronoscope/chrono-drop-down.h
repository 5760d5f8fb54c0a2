/* chrono-drop-down.h: drop-downs of names that fit a narrow panel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* DROPDOWN, of GtkStringObjects, shows the chosen one cut to the room
 * there is, and its list each whole: a long name would otherwise hold
 * whatever holds it as wide as the name. */
void chrono_drop_down_cut_to_width (GtkDropDown *dropdown);

G_END_DECLS
