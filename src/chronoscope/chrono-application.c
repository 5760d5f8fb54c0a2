/* chrono-application.c: the Chronoscope application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "chrono-application.h"
#include "chrono-example-trace.h"
#include "chrono-preferences-window.h"
#include "chrono-window.h"

struct _ChronoApplication
{
  AdwApplication  parent_instance;

  GSettings      *settings;
  gboolean        builtin_schema; /* no schema installed: settings kept in memory */
  gboolean        merge;  /* --merge: the files on the command line as one */
  gboolean        compare;  /* --compare: the two files on the command line compared */
};

G_DEFINE_FINAL_TYPE (ChronoApplication, chrono_application, ADW_TYPE_APPLICATION)

static ChronoWindow *
get_window (ChronoApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (CHRONO_IS_WINDOW (window))
    return CHRONO_WINDOW (window);
  return chrono_window_new (self);
}

static void
update_color_scheme (ChronoApplication *self)
{
  AdwStyleManager *style_manager = adw_style_manager_get_default ();
  g_autofree char *scheme = g_settings_get_string (self->settings, "color-scheme");

  if (g_strcmp0 (scheme, "light") == 0)
    adw_style_manager_set_color_scheme (style_manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  else if (g_strcmp0 (scheme, "dark") == 0)
    adw_style_manager_set_color_scheme (style_manager, ADW_COLOR_SCHEME_FORCE_DARK);
  else
    adw_style_manager_set_color_scheme (style_manager, ADW_COLOR_SCHEME_DEFAULT);
}

static void
remove_folder (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);

      g_unlink (path);
    }
  g_rmdir (folder);
}

/* Writes the schema built into the application to a folder of its own,
 * which GSettings reads it from. The folder is removed at once, so that
 * none is left behind by a process that is killed: the compiled schema
 * stays mapped, and the summaries (read from the XML on first use) are
 * read before. */
static GSettingsSchema *
load_builtin_schema (void)
{
  static const char * const files[] = {
    "gschemas.compiled",
    APP_ID ".gschema.xml",  /* the summaries and descriptions */
  };
  g_autoptr(GSettingsSchemaSource) source = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("chronoscope-schema-XXXXXX", &error);

  for (guint i = 0; folder != NULL && i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *resource = g_strconcat ("/io/github/chronoscope/Chronoscope/schemas/", files[i], NULL);
      g_autofree char *path = g_build_filename (folder, files[i], NULL);
      g_autoptr(GBytes) bytes = g_resources_lookup_data (resource, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);

      if (bytes == NULL ||
          !g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error))
        break;
    }
  if (error == NULL)
    source = g_settings_schema_source_new_from_directory (folder, NULL, FALSE, &error);
  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, FALSE);
  if (schema != NULL)
    {
      g_auto(GStrv) keys = g_settings_schema_list_keys (schema);
      g_autoptr(GSettingsSchemaKey) key = keys[0] != NULL ? g_settings_schema_get_key (schema, keys[0]) : NULL;

      if (key != NULL)
        g_settings_schema_key_get_summary (key);
    }
  if (folder != NULL)
    remove_folder (folder);
  if (schema == NULL)
    g_warning ("The built-in settings schema cannot be read: %s",
               error != NULL ? error->message : "it has no schema " APP_ID);
  return g_steal_pointer (&schema);
}

/* The settings schema is found once installed, or in the build directory
 * under `meson devenv`. Without it, the schema built into the application
 * gives the defaults, kept in memory: they can be changed for the session,
 * and the preferences say that they are not saved. */
static void
init_settings (ChronoApplication *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsBackend) backend = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL && (schema = load_builtin_schema ()) != NULL)
    {
      backend = g_memory_settings_backend_new ();
      self->builtin_schema = TRUE;
    }
  if (schema == NULL)
    return;

  self->settings = g_settings_new_full (schema, backend, NULL);
  g_signal_connect_object (self->settings, "changed::color-scheme",
                           G_CALLBACK (update_color_scheme), self, G_CONNECT_SWAPPED);
  update_color_scheme (self);
}

static void
write_example_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "chronoscope", NULL);
  g_autofree char *path = g_build_filename (dir, "example.pt.trace.json.gz", NULL);
  g_autofree char *tmp = g_build_filename (dir, "example-XXXXXX.tmp", NULL);
  ChronoExampleOptions options;
  GError *error = NULL;
  int fd;

  if (g_mkdir_with_parents (dir, 0755) != 0 ||
      (fd = g_mkstemp (tmp)) < 0)
    {
      int saved_errno = errno;

      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                               "%s: %s", dir, g_strerror (saved_errno));
      return;
    }
  g_close (fd, NULL);

  chrono_example_options_init (&options);
  options.gzip = TRUE;
  /* Written aside and renamed, so a tab still reading the previous example
   * keeps its file. */
  if (!chrono_example_trace_write (tmp, &options, NULL, &error))
    {
      g_unlink (tmp);
      g_task_return_error (task, error);
      return;
    }
  if (g_rename (tmp, path) != 0)
    {
      int saved_errno = errno;

      g_unlink (tmp);
      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                               "%s: %s", path, g_strerror (saved_errno));
      return;
    }
  g_task_return_pointer (task, g_steal_pointer (&path), g_free);
}

static void
write_example_done (GObject      *source_object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  ChronoApplication *self = CHRONO_APPLICATION (source_object);
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "open-example");
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_task_propagate_pointer (G_TASK (result), &error);
  ChronoWindow *window = get_window (self);

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), TRUE);
  g_application_release (G_APPLICATION (self));

  if (path != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_path (path);

      chrono_window_open_file (window, file);
    }
  else
    {
      AdwMessageDialog *dialog;

      dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (window),
                                                           _("Could Not Write the Example Trace"),
                                                           error->message));
      adw_message_dialog_add_response (dialog, "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
    }
  gtk_window_present (GTK_WINDOW (window));
}

static void
open_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  ChronoWindow *window = get_window (CHRONO_APPLICATION (user_data));

  gtk_window_present (GTK_WINDOW (window));
  chrono_window_choose_files (window);
}

static void
open_as_one_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  ChronoWindow *window = get_window (CHRONO_APPLICATION (user_data));

  gtk_window_present (GTK_WINDOW (window));
  chrono_window_choose_files_as_one (window);
}

static void
open_folder_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  ChronoWindow *window = get_window (CHRONO_APPLICATION (user_data));

  gtk_window_present (GTK_WINDOW (window));
  chrono_window_choose_folder (window);
}

static void
open_example_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  ChronoApplication *self = user_data;
  g_autoptr(GTask) task = g_task_new (self, NULL, write_example_done, NULL);

  /* One example at a time, and the application stays until it opens. */
  g_simple_action_set_enabled (action, FALSE);
  g_application_hold (G_APPLICATION (self));
  g_task_set_source_tag (task, open_example_action);
  g_task_run_in_thread (task, write_example_thread);
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (user_data));

  /* Closing, not just quitting, lets each window save its size. */
  while (windows != NULL)
    {
      GList *next = windows->next;

      gtk_window_close (windows->data);
      windows = next;
    }
  g_application_quit (G_APPLICATION (user_data));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  ChronoApplication *self = user_data;
  const char *developers[] = { _("The Chronoscope developers"), NULL };

  adw_show_about_window (gtk_application_get_active_window (GTK_APPLICATION (self)),
                         "application-name", _("Chronoscope"),
                         "application-icon", APP_ID,
                         "version", VERSION,
                         "developer-name", _("The Chronoscope developers"),
                         "developers", developers,
                         "comments", _("Chronoscope shows where the time goes in the traces "
                                       "that ML profilers write, such as PyTorch profiler "
                                       "(Kineto) and Chrome trace event files."),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         /* Translators: your names, one a line */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  ChronoApplication *self = user_data;
  GtkWindow *window = GTK_WINDOW (get_window (self));
  GtkWidget *preferences = chrono_preferences_window_new (self->settings, !self->builtin_schema);

  gtk_window_set_transient_for (GTK_WINDOW (preferences), window);
  gtk_window_set_application (GTK_WINDOW (preferences), GTK_APPLICATION (self));
  gtk_window_present (GTK_WINDOW (preferences));
}

static void
shortcuts_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  ChronoWindow *window = get_window (CHRONO_APPLICATION (user_data));

  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL);
}

static void
chrono_application_startup (GApplication *application)
{
  ChronoApplication *self = CHRONO_APPLICATION (application);
  static const GActionEntry actions[] = {
    { .name = "open", .activate = open_action },
    { .name = "open-folder", .activate = open_folder_action },
    { .name = "open-as-one", .activate = open_as_one_action },
    { .name = "open-example", .activate = open_example_action },
    { .name = "quit", .activate = quit_action },
    { .name = "about", .activate = about_action },
    { .name = "shortcuts", .activate = shortcuts_action },
    { .name = "preferences", .activate = preferences_action },
  };
  static const struct {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.open", { "<Control>o", NULL } },
    { "app.open-folder", { "<Control><Shift>o", NULL } },
    { "app.open-as-one", { "<Control><Alt>o", NULL } },
    { "app.quit", { "<Control>q", NULL } },
    { "app.shortcuts", { "<Control>question", NULL } },
    { "win.close-tab", { "<Control>w", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "win.compare", { "<Control>d", NULL } },
    { "win.find-next", { "F3", "<Control>g", NULL } },
    { "win.find-previous", { "<Shift>F3", "<Control><Shift>g", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
  };

  G_APPLICATION_CLASS (chrono_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (self), actions, G_N_ELEMENTS (actions), self);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accels[i].action, accels[i].accels);

  init_settings (self);
  /* Only a built-in schema that cannot be read leaves nothing to set. */
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "preferences")),
                               self->settings != NULL);
}

static void
chrono_application_activate (GApplication *application)
{
  ChronoApplication *self = CHRONO_APPLICATION (application);

  /* Without files, --compare has nothing to compare. */
  if (self->compare)
    {
      g_printerr ("chronoscope: --compare wants two traces, A and B, not 0\n");
      self->compare = FALSE;
    }
  gtk_window_present (GTK_WINDOW (get_window (self)));
}

static void
chrono_application_open (GApplication  *application,
                         GFile        **files,
                         gint           n_files,
                         const char    *hint)
{
  ChronoApplication *self = CHRONO_APPLICATION (application);
  ChronoWindow *window = get_window (self);
  g_autoptr(GListStore) store = g_list_store_new (G_TYPE_FILE);

  if (self->compare)
    {
      self->compare = FALSE;
      if (n_files == 2)
        chrono_window_open_comparison (window, files[0], files[1]);
      else
        g_printerr ("chronoscope: --compare wants two traces, A and B, not %d\n", n_files);
      gtk_window_present (GTK_WINDOW (window));
      return;
    }
  for (gint i = 0; i < n_files; i++)
    g_list_store_append (store, files[i]);
  chrono_window_open_files (window, G_LIST_MODEL (store), self->merge);
  self->merge = FALSE;
  gtk_window_present (GTK_WINDOW (window));
}

static int
chrono_application_handle_local_options (GApplication *application,
                                         GVariantDict *options)
{
  ChronoApplication *self = CHRONO_APPLICATION (application);

  /* A running instance would get the files without the option: this one
   * opens them itself, in a window of its own. */
  if (g_variant_dict_contains (options, "merge") || g_variant_dict_contains (options, "compare"))
    {
      self->merge = g_variant_dict_contains (options, "merge");
      self->compare = g_variant_dict_contains (options, "compare");
      g_application_set_flags (application, g_application_get_flags (application) | G_APPLICATION_NON_UNIQUE);
    }
  return -1;
}

static void
chrono_application_dispose (GObject *object)
{
  ChronoApplication *self = CHRONO_APPLICATION (object);

  g_clear_object (&self->settings);

  G_OBJECT_CLASS (chrono_application_parent_class)->dispose (object);
}

static void
chrono_application_class_init (ChronoApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = chrono_application_dispose;

  application_class->startup = chrono_application_startup;
  application_class->activate = chrono_application_activate;
  application_class->open = chrono_application_open;
  application_class->handle_local_options = chrono_application_handle_local_options;
}

static void
chrono_application_init (ChronoApplication *self)
{
  g_application_add_main_option (G_APPLICATION (self), "merge", 'm', G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                 _("Open the files as one document, on one clock"), NULL);
  g_application_add_main_option (G_APPLICATION (self), "compare", 'c', G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                 _("Compare two traces, A and B, step by step"), NULL);
}

ChronoApplication *
chrono_application_new (void)
{
  return g_object_new (CHRONO_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/chronoscope/Chronoscope",
                       NULL);
}

/**
 * chrono_application_get_settings:
 *
 * Returns: (transfer none) (nullable): the settings, or %NULL when no
 *   schema, not even the built-in one, can be read
 */
GSettings *
chrono_application_get_settings (ChronoApplication *self)
{
  g_return_val_if_fail (CHRONO_IS_APPLICATION (self), NULL);
  return self->settings;
}

/**
 * chrono_application_get_settings_saved:
 *
 * Returns: whether changes to the settings are saved: %FALSE when no
 *   schema is installed and the built-in one keeps them in memory
 */
gboolean
chrono_application_get_settings_saved (ChronoApplication *self)
{
  g_return_val_if_fail (CHRONO_IS_APPLICATION (self), FALSE);
  return self->settings != NULL && !self->builtin_schema;
}

/* Whether the kernel offers a GPU to render with: without a DRM render
 * node, OpenGL runs in software (llvmpipe). */
static gboolean
has_render_node (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/dev/dri", 0, NULL);
  const char *name;

  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, "renderD"))
      return TRUE;
  return FALSE;
}

/**
 * chrono_application_choose_renderer:
 *
 * Call before GTK starts. Without a GPU, GTK's GL renderer draws on the
 * CPU: a 1600 x 1000 px timeline frame takes it 60 to 300 ms, and while a
 * trace loads its frames take the cores from the loader; the cairo
 * renderer draws the same frames in a few milliseconds. So without a GPU
 * the cairo renderer is chosen, unless GSK_RENDERER says otherwise.
 */
void
chrono_application_choose_renderer (void)
{
  if (!has_render_node ())
    g_setenv ("GSK_RENDERER", "cairo", FALSE);
}
