/* chrono-warning-row.h: one message of the load, as the banner and the
 * Summary page show it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-warning-groups.h"

G_BEGIN_DECLS

/* A wrapping, selectable label of TEXT. */
GtkWidget *chrono_warning_label_new (const char               *text);
/* GROUP's line: its message, after its file when it has one, or after how
 * many files it has, with each file's own message behind an expander.
 * The line is appended to SPOKEN, after a new line. */
GtkWidget *chrono_warning_row_new   (const ChronoWarningGroup *group,
                                     GString                  *spoken);

G_END_DECLS
