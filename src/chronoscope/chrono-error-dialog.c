/* chrono-error-dialog.c: what failed, told in a dialog over the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n.h>
#include <adwaita.h>

#include "chrono-error-dialog.h"

void
chrono_show_error (GtkWidget    *widget,
                   const char   *heading,
                   const GError *error)
{
  GtkRoot *root;
  GtkWidget *dialog;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (heading != NULL && error != NULL);

  root = gtk_widget_get_root (widget);
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, heading, error->message);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}
