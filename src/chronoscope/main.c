/* main.c: the chronoscope executable
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "chrono-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(ChronoApplication) app = NULL;

  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  chrono_application_choose_renderer ();
  app = chrono_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
