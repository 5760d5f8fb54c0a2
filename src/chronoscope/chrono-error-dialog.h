/* chrono-error-dialog.h: what failed, told in a dialog over the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* HEADING and ERROR's message over the window WIDGET is in. */
void chrono_show_error (GtkWidget    *widget,
                        const char   *heading,
                        const GError *error);

G_END_DECLS
