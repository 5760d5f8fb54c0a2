/* chrono-warning-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "chrono-warning-row.h"

GtkWidget *
chrono_warning_label_new (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  return label;
}

GtkWidget *
chrono_warning_row_new (const ChronoWarningGroup *group,
                        GString                  *spoken)
{
  g_autofree char *line = NULL;
  GtkWidget *expander, *files;

  if (group->files->len <= 1)
    {
      line = group->files->len == 1
        ? g_strdup_printf ("%s: %s", (const char *) g_ptr_array_index (group->files, 0), group->text)
        : g_strdup (group->text);
      g_string_append_printf (spoken, "\n%s", line);
      return chrono_warning_label_new (line);
    }

  /* Translators: a message of the load that several files gave: how many, then the message */
  line = g_strdup_printf (ngettext ("%u file: %s", "%u files: %s", group->files->len), group->files->len, group->text);
  g_string_append_printf (spoken, "\n%s", line);
  expander = gtk_expander_new (NULL);
  gtk_expander_set_label_widget (GTK_EXPANDER (expander), chrono_warning_label_new (line));
  gtk_label_set_selectable (GTK_LABEL (gtk_expander_get_label_widget (GTK_EXPANDER (expander))), FALSE);
  files = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_margin_start (files, 18);
  for (guint i = 0; i < group->files->len; i++)
    {
      g_autofree char *item = g_strdup_printf ("%s: %s", (const char *) g_ptr_array_index (group->files, i),
                                               (const char *) g_ptr_array_index (group->messages, i));
      GtkWidget *label = chrono_warning_label_new (item);

      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (files), label);
    }
  gtk_expander_set_child (GTK_EXPANDER (expander), files);
  gtk_widget_set_tooltip_text (expander, _("Show the message of each file"));
  return expander;
}
