/* test-app-window.c: the window, its tabs and the application's actions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "app-test-utils.h"
#include "chrono-example-trace.h"
#include "chrono-format.h"
#include "neuron-gen.h"

#define LOAD_TIMEOUT_MS 60000

static char *small_trace;
static char *other_trace;

/* The page of the window's stack (welcome, documents) or a document's
 * (loading, error, trace) that shows. */
static const char *
visible_page_name (GtkWidget *root)
{
  GtkStack *stack = app_test_find_stack (root, CHRONO_IS_WINDOW (root) ? "welcome" : "loading");

  g_assert_nonnull (stack);
  return gtk_stack_get_visible_child_name (stack);
}

static guint
n_tabs (ChronoWindow *window)
{
  return adw_tab_view_get_n_pages (chrono_window_get_tab_view (window));
}

static ChronoDocumentPage *
open_path (ChronoWindow *window,
           const char   *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return chrono_window_open_file (window, file);
}

static void
test_welcome (void)
{
  ChronoWindow *window = app_test_get_window ();
  GtkWidget *welcome;

  app_test_close_all_tabs (window);
  app_test_spin_for (50);

  g_assert_cmpstr (visible_page_name (GTK_WIDGET (window)), ==, "welcome");
  welcome = app_test_find_widget (GTK_WIDGET (window), ADW_TYPE_STATUS_PAGE);
  g_assert_nonnull (welcome);
  g_assert_true (gtk_widget_get_mapped (welcome));
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (welcome)), ==, "Chronoscope");
  g_assert_cmpstr (adw_status_page_get_icon_name (ADW_STATUS_PAGE (welcome)), ==, APP_ID);
  g_assert_true (gtk_widget_get_mapped (app_test_find_button (welcome, "app.open")));
  g_assert_true (gtk_widget_get_mapped (app_test_find_button (welcome, "app.open-example")));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "close-tab"));
}

static void
test_accels (void)
{
  GtkApplication *app = GTK_APPLICATION (app_test_get_application ());
  static const struct { const char *action, *accel; } expected[] = {
    { "app.open", "<Control>o" },
    { "app.open-folder", "<Shift><Control>o" },
    { "app.open-as-one", "<Control><Alt>o" },
    { "app.quit", "<Control>q" },
    { "app.shortcuts", "<Control>question" },
    { "win.close-tab", "<Control>w" },
  };
  static const char * const actions[] = { "open", "open-folder", "open-as-one", "open-example", "quit", "about", "shortcuts" };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (app, expected[i].action);

      g_assert_true (g_strv_contains ((const char * const *) accels, expected[i].accel));
    }
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), actions[i]));
}

static gboolean
has_events (ChronoTrace *trace,
            guint        process)
{
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      if (track->process == process && track->n_spans + track->n_instants + track->n_samples > 0)
        return TRUE;
    }
  return FALSE;
}

/* The summary lists every process that holds events, and no other. */
static gboolean
summary_lists_processes (gpointer data)
{
  ChronoDocumentPage *page = data;
  ChronoTrace *trace = chrono_document_page_get_trace (page);

  for (guint i = 0; i < chrono_trace_get_n_processes (trace); i++)
    {
      const ChronoProcess *process = chrono_trace_get_process (trace, i);
      gboolean listed = app_test_find_label (GTK_WIDGET (page),
                                             chrono_trace_get_string (trace, process->display_name)) != NULL;

      if (listed != has_events (trace, i))
        return FALSE;
    }
  return TRUE;
}

/* A process named by metadata alone is not listed as if it held data;
 * the count says it is left out. */
static void
test_summary_empty_process (void)
{
  static const char json[] =
    "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":5},"
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"worker\"}},"
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":-1,\"args\":{\"name\":\"CUPTI Overhead\"}}]}";
  g_autofree char *path = g_build_filename (app_test_tmp_dir (), "empty-process.json", NULL);
  ChronoWindow *window = app_test_get_window ();
  ChronoDocumentPage *page;
  ChronoTrace *trace;
  gboolean found_empty = FALSE;

  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  app_test_close_all_tabs (window);
  page = open_path (window, path);
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, LOAD_TIMEOUT_MS));
  trace = chrono_document_page_get_trace (page);
  for (guint i = 0; i < chrono_trace_get_n_processes (trace); i++)
    found_empty |= !has_events (trace, i);
  /* The importer keeps the process the metadata names. */
  g_assert_true (found_empty);
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (app_test_find_widget (GTK_WIDGET (page),
                                                                              ADW_TYPE_VIEW_STACK)),
                                         "summary");
  g_assert_true (app_test_spin_until (summary_lists_processes, page, 5000));
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (page), "1 (and 1 without events, not listed)"));
  app_test_close_all_tabs (window);
}

static gboolean
is_recent (gpointer data)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  gboolean found = FALSE;

  for (GList *l = items; l != NULL; l = l->next)
    found |= g_strcmp0 (gtk_recent_info_get_uri (l->data), data) == 0;
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  return found;
}

static void
test_open_trace (void)
{
  ChronoWindow *window = app_test_get_window ();
  AdwTabView *tab_view = chrono_window_get_tab_view (window);
  g_autoptr(GFile) file = g_file_new_for_path (small_trace);
  g_autofree char *uri = g_file_get_uri (file);
  ChronoDocumentPage *page;
  AdwTabPage *tab;
  ChronoTrace *trace;

  app_test_close_all_tabs (window);
  g_application_open (G_APPLICATION (app_test_get_application ()), &file, 1, "");
  g_assert_cmpuint (n_tabs (window), ==, 1);
  tab = adw_tab_view_get_selected_page (tab_view);
  page = CHRONO_DOCUMENT_PAGE (adw_tab_page_get_child (tab));
  g_assert_true (g_file_equal (chrono_document_page_get_file (page), file));

  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, LOAD_TIMEOUT_MS));
  trace = chrono_document_page_get_trace (page);
  g_assert_nonnull (trace);
  g_assert_cmpuint (chrono_trace_get_n_processes (trace), >, 1);
  g_assert_cmpstr (visible_page_name (GTK_WIDGET (page)), ==, "trace");
  g_assert_cmpstr (visible_page_name (GTK_WIDGET (window)), ==, "documents");

  g_assert_cmpstr (adw_tab_page_get_title (tab), ==, "small.pt.trace.json");
  g_assert_nonnull (strstr (adw_tab_page_get_tooltip (tab), small_trace));
  g_assert_false (adw_tab_page_get_loading (tab));
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (window)), "small.pt.trace.json"));
  g_assert_true (app_test_spin_until (is_recent, uri, 5000));

  /* The summary shares the page with the timeline; its list fills once shown. */
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (app_test_find_widget (GTK_WIDGET (page),
                                                                              ADW_TYPE_VIEW_STACK)),
                                         "summary");
  g_assert_true (app_test_spin_until (summary_lists_processes, page, 5000));

  /* Opening it again selects the tab it has. */
  g_assert_true (open_path (window, small_trace) == page);
  g_assert_cmpuint (n_tabs (window), ==, 1);

  g_action_group_activate_action (G_ACTION_GROUP (window), "close-tab", NULL);
  g_assert_cmpuint (n_tabs (window), ==, 0);
  app_test_spin_for (50);
  g_assert_cmpstr (visible_page_name (GTK_WIDGET (window)), ==, "welcome");
}

/* The summary's chip NAME shows VALUE. */
static gboolean
chip_shows (GtkWidget  *page,
            const char *name,
            const char *value)
{
  GtkWidget *label = app_test_find_label (page, name);
  GtkWidget *next = label ? gtk_widget_get_next_sibling (label) : NULL;

  return next != NULL && GTK_IS_LABEL (next) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (next)), value) == 0;
}

typedef struct {
  GtkWidget  *page;
  const char *dependencies;
  const char *vector;
} Chips;

static gboolean
summary_has_chips (gpointer data)
{
  Chips *chips = data;

  return chip_shows (chips->page, "Dependencies", chips->dependencies) &&
         chip_shows (chips->page, "Vector", chips->vector) &&
         /* The generator writes fractions (0.23), as summary-json does. */
         chip_shows (chips->page, "MFU", "23.0 %");
}

/* A Neuron profile folder opens as one document, on one clock. */
static void
test_open_folder (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *dir = g_build_filename (app_test_tmp_dir (), "neuron-profile", NULL);
  g_autofree char *device = g_build_filename (dir, "device_profile_model_1.json", NULL);
  g_autofree char *system = g_build_filename (dir, "system_profile.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dependencies = NULL;
  g_autofree char *vector = NULL;
  NeuronGenOptions options;
  NeuronGenCounts counts;
  ChronoDocumentPage *page;
  ChronoTrace *trace;
  Chips chips;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  neuron_gen_options_init (&options);
  options.n_blocks = 20;
  g_assert_true (neuron_gen_write_device (device, &options, &counts, &error));
  g_assert_true (neuron_gen_write_system (system, &options, &counts, &error));

  app_test_close_all_tabs (window);
  page = open_path (window, dir);
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, LOAD_TIMEOUT_MS));
  g_assert_cmpuint (n_tabs (window), ==, 1);
  trace = chrono_document_page_get_trace (page);
  /* The core, the runtime's process, the instance's host memory and its
   * Neuron device's HBM. */
  g_assert_cmpuint (chrono_trace_get_n_processes (trace), ==, 4);
  g_assert_cmpstr (chrono_trace_get_string (trace, chrono_trace_get_process (trace, 0)->display_name),
                   ==, "NeuronCore 0");
  g_assert_true (g_str_has_suffix (chrono_trace_get_string (trace, chrono_trace_get_process (trace, 3)->display_name),
                                   " · Neuron device 0"));
  g_assert_cmpint (chrono_trace_get_start_ns (trace), <, counts.exec_start_ns);

  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (app_test_find_widget (GTK_WIDGET (page),
                                                                              ADW_TYPE_VIEW_STACK)),
                                         "summary");
  dependencies = chrono_format_count (counts.dep_edges + counts.semaphore_edges);
  vector = chrono_format_count (counts.per_engine[NEURON_GEN_VECTOR]);
  chips = (Chips) { GTK_WIDGET (page), dependencies, vector };
  g_assert_true (app_test_spin_until (summary_has_chips, &chips, 5000));
  g_assert_true (app_test_spin_until (summary_lists_processes, page, 5000));

  app_test_close_all_tabs (window);
  g_unlink (device);
  g_unlink (system);
  g_rmdir (dir);
}

static void
check_error_page (ChronoWindow *window,
                  const char   *path)
{
  g_autofree char *basename = g_path_get_basename (path);
  ChronoDocumentPage *page = open_path (window, path);
  AdwTabPage *tab = adw_tab_view_get_page (chrono_window_get_tab_view (window), GTK_WIDGET (page));
  const GError *error;
  GtkWidget *status;

  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_FAILED, LOAD_TIMEOUT_MS));
  error = chrono_document_page_get_error (page);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_null (chrono_document_page_get_trace (page));
  g_assert_false (adw_tab_page_get_loading (tab));

  g_assert_cmpstr (visible_page_name (GTK_WIDGET (page)), ==, "error");
  status = app_test_find_widget (GTK_WIDGET (page), ADW_TYPE_STATUS_PAGE);
  app_test_spin_for (50);
  g_assert_true (gtk_widget_get_mapped (status));
  g_assert_nonnull (strstr (adw_status_page_get_title (ADW_STATUS_PAGE (status)), basename));
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (status)), path));

  /* Close takes the tab away. */
  g_signal_emit_by_name (app_test_find_button (GTK_WIDGET (page), "document.close"), "clicked");
  g_assert_cmpuint (n_tabs (window), ==, 0);
}

static void
test_open_garbage (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *garbage = g_build_filename (app_test_tmp_dir (), "garbage.json", NULL);
  g_autofree char *missing = g_build_filename (app_test_tmp_dir (), "missing.json", NULL);
  g_autofree char *truncated = g_build_filename (app_test_tmp_dir (), "truncated.json.gz", NULL);
  static const guint8 bad_gzip[] = { 0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef };
  g_autoptr(GError) error = NULL;

  app_test_close_all_tabs (window);
  g_file_set_contents (garbage, "this is not a trace \x01\x02\x03", -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (truncated, (const char *) bad_gzip, sizeof bad_gzip, &error);
  g_assert_no_error (error);

  check_error_page (window, garbage);
  check_error_page (window, missing);
  check_error_page (window, truncated);
}

static void
test_open_several (void)
{
  ChronoApplication *app = app_test_get_application ();
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *garbage = g_build_filename (app_test_tmp_dir (), "garbage.json", NULL);
  GFile *files[2];

  app_test_close_all_tabs (window);
  files[0] = g_file_new_for_path (small_trace);
  files[1] = g_file_new_for_path (garbage);
  g_file_set_contents (garbage, "nope", -1, NULL);
  g_application_open (G_APPLICATION (app), files, 2, "");
  g_object_unref (files[0]);
  g_object_unref (files[1]);

  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 1);
  g_assert_cmpuint (n_tabs (window), ==, 2);
  app_test_close_all_tabs (window);
}

static GtkDropTarget *
find_drop_target (ChronoWindow *window)
{
  return GTK_DROP_TARGET (app_test_find_controller (GTK_WIDGET (window), GTK_TYPE_DROP_TARGET));
}

static void
test_drop (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autoptr(GFile) file = g_file_new_for_path (small_trace);
  g_auto(GValue) value = G_VALUE_INIT;
  GtkDropTarget *target = find_drop_target (window);
  GSList *files = g_slist_prepend (NULL, file);
  gboolean accepted = FALSE;

  app_test_close_all_tabs (window);
  g_assert_nonnull (target);

  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_slist_free (files);
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_assert_true (accepted);
  g_assert_cmpuint (n_tabs (window), ==, 1);
  app_test_close_all_tabs (window);
}


static gboolean
ctrl_held (gpointer data)
{
  GdkSeat *seat = gdk_display_get_default_seat (gdk_display_get_default ());

  return (gdk_device_get_modifier_state (gdk_seat_get_keyboard (seat)) & GDK_CONTROL_MASK) != 0;
}

/* Two files dropped: a tab each; with Ctrl held (pressed on the X server
 * by xdotool), one document. */
static void
test_drop_several (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  g_autoptr(GFile) file = g_file_new_for_path (small_trace);
  g_autoptr(GFile) other = g_file_new_for_path (other_trace);
  g_auto(GValue) value = G_VALUE_INIT;
  GSList *files = g_slist_prepend (g_slist_prepend (NULL, other), file);
  char *up[] = { xdotool, (char *) "keyup", (char *) "ctrl", NULL };
  char *down[] = { xdotool, (char *) "keydown", (char *) "ctrl", NULL };
  gboolean accepted = FALSE;

  app_test_close_all_tabs (window);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_slist_free (files);
  g_signal_emit_by_name (find_drop_target (window), "drop", &value, 10.0, 10.0, &accepted);
  g_assert_true (accepted);
  g_assert_cmpuint (n_tabs (window), ==, 2);
  app_test_close_all_tabs (window);

  if (xdotool == NULL || g_getenv ("DISPLAY") == NULL)
    {
      g_test_skip ("no xdotool or no X display: cannot hold Ctrl");
      return;
    }
  g_assert_true (g_spawn_sync (NULL, down, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL, NULL));
  if (!app_test_spin_until (ctrl_held, NULL, 5000))
    {
      g_spawn_sync (NULL, up, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL, NULL);
      g_test_skip ("the display does not report Ctrl held by xdotool");
      return;
    }
  g_signal_emit_by_name (find_drop_target (window), "drop", &value, 10.0, 10.0, &accepted);
  g_assert_true (g_spawn_sync (NULL, up, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL, NULL));
  g_assert_true (accepted);
  g_assert_cmpuint (n_tabs (window), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (chrono_document_page_get_files (
                      CHRONO_DOCUMENT_PAGE (adw_tab_page_get_child (adw_tab_view_get_selected_page (
                        chrono_window_get_tab_view (window)))))), ==, 2);
  app_test_close_all_tabs (window);
}

static gboolean
example_opened (gpointer data)
{
  AdwTabView *tab_view = data;
  AdwTabPage *tab = adw_tab_view_get_selected_page (tab_view);

  return tab != NULL &&
         chrono_document_page_get_state (CHRONO_DOCUMENT_PAGE (adw_tab_page_get_child (tab))) ==
         CHRONO_DOCUMENT_STATE_LOADED;
}

static void
test_open_example (void)
{
  ChronoApplication *app = app_test_get_application ();
  ChronoWindow *window = app_test_get_window ();
  AdwTabView *tab_view = chrono_window_get_tab_view (window);
  g_autofree char *expected = g_build_filename (g_get_user_cache_dir (), "chronoscope",
                                                "example.pt.trace.json.gz", NULL);
  ChronoDocumentPage *page;

  app_test_close_all_tabs (window);
  g_action_group_activate_action (G_ACTION_GROUP (app), "open-example", NULL);
  /* One at a time. */
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (app), "open-example"));

  g_assert_true (app_test_spin_until (example_opened, tab_view, LOAD_TIMEOUT_MS));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (app), "open-example"));
  page = CHRONO_DOCUMENT_PAGE (adw_tab_page_get_child (adw_tab_view_get_selected_page (tab_view)));
  g_assert_cmpstr (g_file_peek_path (chrono_document_page_get_file (page)), ==, expected);
  g_assert_true (g_file_test (expected, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpstr (chrono_trace_get_compression (chrono_document_page_get_trace (page)), ==, "gzip");
  app_test_close_all_tabs (window);
}

static void
test_shortcuts (void)
{
  ChronoWindow *window = app_test_get_window ();
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));

  g_assert_nonnull (overlay);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (overlay)));
  g_action_group_activate_action (G_ACTION_GROUP (app_test_get_application ()), "shortcuts", NULL);
  app_test_spin_for (50);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (overlay)));
  gtk_widget_set_visible (GTK_WIDGET (overlay), FALSE);
}

static void
test_about (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  AdwAboutWindow *about = NULL;

  app_test_get_window ();
  g_action_group_activate_action (G_ACTION_GROUP (app_test_get_application ()), "about", NULL);
  app_test_spin_for (50);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels) && about == NULL; i++)
    {
      g_autoptr(GObject) toplevel = g_list_model_get_item (toplevels, i);

      if (ADW_IS_ABOUT_WINDOW (toplevel))
        about = ADW_ABOUT_WINDOW (toplevel);
    }
  g_assert_nonnull (about);
  g_assert_cmpstr (adw_about_window_get_version (about), ==, VERSION);
  g_assert_cmpstr (adw_about_window_get_application_icon (about), ==, APP_ID);
  g_assert_cmpint (adw_about_window_get_license_type (about), ==, GTK_LICENSE_GPL_3_0);
  gtk_window_destroy (GTK_WINDOW (about));
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;

  small_trace = app_test_write_trace ("small.pt.trace.json", 0, 3);
  other_trace = app_test_write_trace ("other.pt.trace.json", 0, 2);

  g_test_add_func ("/app/window/welcome", test_welcome);
  g_test_add_func ("/app/window/accels", test_accels);
  g_test_add_func ("/app/window/open-trace", test_open_trace);
  g_test_add_func ("/app/window/summary-empty-process", test_summary_empty_process);
  g_test_add_func ("/app/window/open-garbage", test_open_garbage);
  g_test_add_func ("/app/window/open-several", test_open_several);
  g_test_add_func ("/app/window/open-folder", test_open_folder);
  g_test_add_func ("/app/window/drop", test_drop);
  g_test_add_func ("/app/window/drop-several", test_drop_several);
  g_test_add_func ("/app/window/open-example", test_open_example);
  g_test_add_func ("/app/window/shortcuts", test_shortcuts);
  g_test_add_func ("/app/window/about", test_about);
  return g_test_run ();
}
