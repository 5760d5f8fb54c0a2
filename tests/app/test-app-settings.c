/* test-app-settings.c: the application where no settings schema is
 * installed: the built-in schema's defaults, which can be changed for the
 * session, and the preferences saying that they are not saved
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "app-test-utils.h"
#include "chrono-analysis-settings.h"
#include "chrono-preferences-window.h"

static GtkWidget *
find_named (GtkWidget  *root,
            const char *name)
{
  if (g_str_equal (gtk_widget_get_name (root), name))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_named (child, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static ChronoPreferencesWindow *
open_preferences (void)
{
  ChronoApplication *application = app_test_get_application ();

  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (application), "preferences"));
  g_action_group_activate_action (G_ACTION_GROUP (application), "preferences", NULL);
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (application)); l; l = l->next)
    if (CHRONO_IS_PREFERENCES_WINDOW (l->data))
      return l->data;
  g_assert_not_reached ();
}

static void
test_defaults_in_memory (void)
{
  ChronoApplication *application = app_test_get_application ();
  GSettings *settings;
  g_autoptr(GSettings) analysis = NULL;
  ChronoPreferencesWindow *preferences;
  GtkWidget *spin, *note;
  g_autoptr(GSettingsSchema) installed = NULL;
  guint initial;

  installed = g_settings_schema_source_lookup (g_settings_schema_source_get_default (), APP_ID, TRUE);
  if (installed != NULL)
    {
      g_test_skip ("the settings schema is installed on this machine");
      return;
    }
  app_test_get_window ();

  settings = chrono_application_get_settings (application);
  g_assert_nonnull (settings);
  g_assert_false (chrono_application_get_settings_saved (application));
  /* The schema's defaults. */
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1280);
  analysis = g_settings_get_child (settings, CHRONO_ANALYSIS_SCHEMA_CHILD);
  initial = g_settings_get_uint (analysis, "min-time-lost-us");

  preferences = open_preferences ();
  app_test_spin_for (50);
  note = app_test_find_css_class (GTK_WIDGET (preferences), "warning");
  g_assert_nonnull (note);
  g_assert_true (gtk_widget_get_mapped (note));
  g_assert_true (g_str_has_prefix (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (note)), "Changes Last"));

  /* The rows work: a change is seen by whoever reads the settings. */
  spin = find_named (GTK_WIDGET (preferences), "min-time-lost-us");
  g_assert_true (GTK_IS_SPIN_BUTTON (spin));
  g_assert_true (gtk_widget_is_sensitive (spin));
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), ==, initial);
  /* The summaries are read from the schema's XML, whose folder is gone. */
  {
    g_autoptr(GSettingsSchema) schema = NULL;
    g_autoptr(GSettingsSchemaKey) key = NULL;
    GtkWidget *row = gtk_widget_get_ancestor (spin, ADW_TYPE_ACTION_ROW);

    g_object_get (analysis, "settings-schema", &schema, NULL);
    key = g_settings_schema_get_key (schema, "min-time-lost-us");
    g_assert_nonnull (g_settings_schema_key_get_summary (key));
    g_assert_nonnull (row);
    g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==,
                     g_settings_schema_key_get_summary (key));
  }
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), initial + 1000);
  g_assert_cmpuint (g_settings_get_uint (analysis, "min-time-lost-us"), ==, initial + 1000);
  gtk_window_destroy (GTK_WINDOW (preferences));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *empty = g_dir_make_tmp ("chronoscope-no-schema-XXXXXX", NULL);

  /* Not the build's schema; the system's, which has none of ours unless
   * Chronoscope is installed. */
  g_assert_nonnull (empty);
  g_setenv ("GSETTINGS_SCHEMA_DIR", empty, TRUE);
  if (!app_test_init (&argc, &argv))
    return 77;

  g_test_add_func ("/app/settings/defaults-in-memory", test_defaults_in_memory);
  return g_test_run () || g_rmdir (empty);
}
