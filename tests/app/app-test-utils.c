/* app-test-utils.c: helpers for the application's display tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdlib.h>

#include <glib/gstdio.h>

#include "app-test-utils.h"
#include "chrono-findings-panel.h"
#include "chrono-example-job.h"
#include "chrono-example-trace.h"
#include "chrono-job-table.h"

static char *tmp_dir;
static ChronoApplication *application;

void
app_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    while ((name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *child = g_build_filename (path, name, NULL);

        if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
          app_test_remove_tree (child);
        else
          g_unlink (child);
      }
  g_rmdir (path);
}

static void
cleanup (void)
{
  g_clear_object (&application);
  if (tmp_dir != NULL)
    app_test_remove_tree (tmp_dir);
  g_clear_pointer (&tmp_dir, g_free);
}

gboolean
app_test_init (int    *argc,
               char ***argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *cache = NULL;
  g_autofree char *data = NULL;
  g_autofree char *config = NULL;

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("SKIP: no display (run under xvfb-run)\n");
      return FALSE;
    }

  /* The example, recent files and settings go to a folder of the test's. */
  tmp_dir = g_dir_make_tmp ("chronoscope-app-test-XXXXXX", &error);
  g_assert_no_error (error);
  cache = g_build_filename (tmp_dir, "cache", NULL);
  data = g_build_filename (tmp_dir, "data", NULL);
  config = g_build_filename (tmp_dir, "config", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  /* No screen reader to talk to; a test that reads the accessible tree
   * asks for GTK's test backend first. */
  g_setenv ("GTK_A11Y", "none", FALSE);
  g_setenv ("NO_AT_BRIDGE", "1", TRUE);
  atexit (cleanup);

  gtk_test_init (argc, argv, NULL);

  application = chrono_application_new ();
  /* No second instance to talk to, and no session bus needed. */
  g_application_set_flags (G_APPLICATION (application),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (application), NULL, &error);
  g_assert_no_error (error);
  return TRUE;
}

const char *
app_test_tmp_dir (void)
{
  return tmp_dir;
}

ChronoApplication *
app_test_get_application (void)
{
  return application;
}

/* The window the application shows on activation, created if need be. */
ChronoWindow *
app_test_get_window (void)
{
  GtkWindow *window;

  g_application_activate (G_APPLICATION (application));
  window = gtk_application_get_active_window (GTK_APPLICATION (application));
  g_assert_true (CHRONO_IS_WINDOW (window));
  return CHRONO_WINDOW (window);
}

char *
app_test_write_trace (const char *name,
                      guint64     target_bytes,
                      guint       n_steps)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;
  ChronoExampleOptions options;

  chrono_example_options_init (&options);
  options.target_bytes = target_bytes;
  options.n_steps = n_steps;
  options.world_size = 2;
  g_assert_true (chrono_example_trace_write (path, &options, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

char *
app_test_write_job (const char  *name,
                    guint        world_size,
                    guint        straggler,
                    JsonNode   **manifest)
{
  g_autofree char *dir = g_build_filename (tmp_dir, name, NULL);
  g_autofree char *ranks = g_build_filename (dir, "ranks", NULL);
  g_autofree char *path = g_build_filename (dir, "JOB.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  ChronoExampleJobOptions options;
  JsonNode *planted;

  chrono_example_job_options_init (&options);
  options.world_size = world_size;
  if (straggler != G_MAXUINT)
    {
      options.stragglers = &straggler;
      options.n_stragglers = 1;
    }
  planted = chrono_example_job_write (ranks, &options, &error);
  g_assert_no_error (error);
  json = chrono_job_reduce_folder (ranks, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, json, -1, &error));
  if (manifest != NULL)
    *manifest = planted;
  else
    json_node_unref (planted);
  return g_steal_pointer (&path);
}

static gboolean
timed_out_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

gboolean
app_test_spin_until (AppTestCondition condition,
                     gpointer         data,
                     guint            timeout_ms)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add (timeout_ms, timed_out_cb, &timed_out);

  while (!condition (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  return condition (data);
}

void
app_test_spin_for (guint ms)
{
  gboolean timed_out = FALSE;

  g_timeout_add (ms, timed_out_cb, &timed_out);
  while (!timed_out)
    g_main_context_iteration (NULL, TRUE);
}

typedef struct {
  ChronoDocumentPage  *page;
  ChronoDocumentState  state;
} StateWait;

static gboolean
page_has_state (gpointer data)
{
  StateWait *wait = data;

  return chrono_document_page_get_state (wait->page) == wait->state;
}

gboolean
app_test_wait_for_state (ChronoDocumentPage  *page,
                         ChronoDocumentState  state,
                         guint                timeout_ms)
{
  StateWait wait = { page, state };

  return app_test_spin_until (page_has_state, &wait, timeout_ms);
}

static void
on_after_paint (GdkFrameClock *frame_clock,
                gboolean      *painted)
{
  *painted = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

/* Waits until WIDGET is on screen and its window has drawn a frame. */
gboolean
app_test_wait_for_paint (GtkWidget *widget,
                         guint      timeout_ms)
{
  GdkFrameClock *frame_clock;
  gboolean painted = FALSE;
  gulong handler;

  if (!app_test_spin_until ((AppTestCondition) gtk_widget_get_mapped, widget, timeout_ms))
    return FALSE;
  frame_clock = gtk_widget_get_frame_clock (widget);
  handler = g_signal_connect (frame_clock, "after-paint", G_CALLBACK (on_after_paint), &painted);
  gtk_widget_queue_draw (widget);
  app_test_spin_until (is_true, &painted, timeout_ms);
  g_signal_handler_disconnect (frame_clock, handler);
  return painted;
}

GtkWidget *
app_test_find_widget (GtkWidget *root,
                      GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = app_test_find_widget (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The stack that has a page named PAGE_NAME. */
GtkStack *
app_test_find_stack (GtkWidget  *root,
                     const char *page_name)
{
  if (GTK_IS_STACK (root) && gtk_stack_get_child_by_name (GTK_STACK (root), page_name) != NULL)
    return GTK_STACK (root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkStack *found = app_test_find_stack (child, page_name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A label with exactly TEXT that is on screen. */
GtkWidget *
app_test_find_label (GtkWidget  *root,
                     const char *text)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (root)), text) == 0 &&
      gtk_widget_get_mapped (root))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = app_test_find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

gboolean
app_test_find_export_dialog (gpointer dialog)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (CHRONO_IS_EXPORT_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        {
          *(ChronoExportDialog **) dialog = CHRONO_EXPORT_DIALOG (window);
          return TRUE;
        }
    }
  return FALSE;
}

static void
collect_labels (GtkWidget *widget,
                GString   *text)
{
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (text, "%s\n", gtk_label_get_label (GTK_LABEL (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect_labels (child, text);
}

char *
app_test_get_text (GtkWidget *root)
{
  GString *text = g_string_new (NULL);

  collect_labels (root, text);
  return g_string_free (text, FALSE);
}

GtkWidget *
app_test_find_button (GtkWidget  *root,
                      const char *action_name)
{
  if (GTK_IS_BUTTON (root) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (root)), action_name) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = app_test_find_button (child, action_name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkEventController *
app_test_find_controller (GtkWidget *widget,
                          GType      type)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (controller, type))
        return controller;
    }
  return NULL;
}

void
app_test_close_all_tabs (ChronoWindow *window)
{
  AdwTabView *tab_view = chrono_window_get_tab_view (window);

  while (adw_tab_view_get_n_pages (tab_view) > 0)
    adw_tab_view_close_page (tab_view, adw_tab_view_get_nth_page (tab_view, 0));
}

GtkWidget *
app_test_present (GtkWidget *child,
                  int        width,
                  int        height)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait_for_paint (child, 5000));
  return window;
}

cairo_surface_t *
app_test_render (GtkWidget *widget)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;

  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, gtk_widget_get_width (widget),
                                        gtk_widget_get_height (widget));
  cr = cairo_create (surface);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

void
app_test_screenshot (GtkWidget  *widget,
                     const char *name)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autofree char *png = NULL;
  GtkSnapshot *snapshot;
  cairo_surface_t *surface;
  cairo_t *cr;
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);

  if (g_getenv ("CHRONO_SCREENSHOT_DIR") == NULL)
    return;
  png = g_build_filename (g_getenv ("CHRONO_SCREENSHOT_DIR"), name, NULL);
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  if (node != NULL)
    gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_write_to_png (surface, png);
  cairo_surface_destroy (surface);
}

static gboolean
tick_cb (gpointer data)
{
  AppTestTicker *ticker = data;
  gint64 now = g_get_monotonic_time ();

  ticker->max_gap_us = MAX (ticker->max_gap_us, now - ticker->last_us);
  if (now - ticker->last_us >= APP_TEST_LONG_GAP_US)
    ticker->long_gaps++;
  ticker->last_us = now;
  ticker->ticks++;
  return G_SOURCE_CONTINUE;
}

void
app_test_ticker_start (AppTestTicker *ticker)
{
  *ticker = (AppTestTicker) { 0 };
  ticker->last_us = g_get_monotonic_time ();
  ticker->source_id = g_timeout_add (10, tick_cb, ticker);
}

void
app_test_ticker_stop (AppTestTicker *ticker)
{
  g_clear_handle_id (&ticker->source_id, g_source_remove);
  tick_cb (ticker);
}

void
app_test_ticker_assert_responsive (const AppTestTicker *ticker)
{
  g_assert_cmpint (ticker->max_gap_us, <, APP_TEST_MAX_GAP_US);
  g_assert_cmpuint (ticker->long_gaps, <=, APP_TEST_MAX_LONG_GAPS);
}

char *
app_test_real_trace (const char *name)
{
  const char *dir = g_getenv ("CHRONO_TRACES_DIR");
  g_autofree char *path = NULL;

  if (dir == NULL)
    {
      g_test_message ("CHRONO_TRACES_DIR is not set");
      return NULL;
    }
  path = g_build_filename (dir, name, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_test_message ("%s is missing", path);
      return NULL;
    }
  return g_steal_pointer (&path);
}

ChronoDocumentPage *
app_test_open_trace (ChronoWindow *window,
                     const char   *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  ChronoDocumentPage *page = chrono_window_open_file (window, file);

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 30000));
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (chrono_timeline_view_get_timeline (chrono_document_page_get_timeline_view (page))),
                                          5000));
  return page;
}

gboolean
app_test_near_color (cairo_surface_t *surface,
                     int              x,
                     int              y,
                     const GdkRGBA   *color,
                     int              tolerance)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 pixel;

  if (x < 0 || y < 0 || x >= cairo_image_surface_get_width (surface) ||
      y >= cairo_image_surface_get_height (surface))
    return FALSE;
  pixel = *(const guint32 *) (data + y * cairo_image_surface_get_stride (surface) + x * 4);
  return abs ((int) ((pixel >> 16) & 0xff) - (int) round (color->red * 255)) +
         abs ((int) ((pixel >> 8) & 0xff) - (int) round (color->green * 255)) +
         abs ((int) (pixel & 0xff) - (int) round (color->blue * 255)) <= tolerance;
}

guint
app_test_count_color (cairo_surface_t *surface,
                      double           x0,
                      double           y0,
                      double           x1,
                      double           y1,
                      const GdkRGBA   *color,
                      int              tolerance)
{
  guint n = 0;

  for (int y = (int) floor (y0); y <= (int) ceil (y1); y++)
    for (int x = (int) floor (x0); x <= (int) ceil (x1); x++)
      n += app_test_near_color (surface, x, y, color, tolerance);
  return n;
}

guint
app_test_count_changed (cairo_surface_t *a,
                        cairo_surface_t *b,
                        int              x0,
                        int              y0,
                        int              x1,
                        int              y1)
{
  const guint8 *da = cairo_image_surface_get_data (a);
  const guint8 *db = cairo_image_surface_get_data (b);
  int stride = cairo_image_surface_get_stride (a);
  guint n = 0;

  g_assert_cmpint (cairo_image_surface_get_width (a), ==, cairo_image_surface_get_width (b));
  g_assert_cmpint (cairo_image_surface_get_height (a), ==, cairo_image_surface_get_height (b));
  x0 = MAX (x0, 0);
  y0 = MAX (y0, 0);
  x1 = MIN (x1, cairo_image_surface_get_width (a));
  y1 = MIN (y1, cairo_image_surface_get_height (a));
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      n += *(const guint32 *) (da + y * stride + x * 4) != *(const guint32 *) (db + y * stride + x * 4);
  return n;
}

void
app_test_get_pixel (cairo_surface_t *surface,
                    int              x,
                    int              y,
                    int             *r,
                    int             *g,
                    int             *b)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 pixel = *(const guint32 *) (data + y * cairo_image_surface_get_stride (surface) + x * 4);

  *r = (pixel >> 16) & 0xff;
  *g = (pixel >> 8) & 0xff;
  *b = pixel & 0xff;
}

GtkWidget *
app_test_find_css_class (GtkWidget  *root,
                         const char *css_class)
{
  if (gtk_widget_has_css_class (root, css_class))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = app_test_find_css_class (child, css_class);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
is_analysed (gpointer data)
{
  return chrono_findings_panel_get_analysis (data) != NULL && !chrono_findings_panel_get_analysing (data);
}

gboolean
app_test_wait_for_analysis (ChronoFindingsPanel *panel,
                            guint                timeout_ms)
{
  return app_test_spin_until (is_analysed, panel, timeout_ms);
}

/* Presses KEYVAL with MODIFIERS as GTK hands a key on: to the key bindings
 * of the focus widget, then of each widget holding it (the window's hold
 * the application's accelerators), until one takes it. */
gboolean
app_test_press_key (GtkWidget       *focus,
                    guint            keyval,
                    GdkModifierType  modifiers)
{
  for (GtkWidget *w = focus; w != NULL; w = gtk_widget_get_parent (w))
    {
      g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (w);

      for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
        {
          g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

          if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
            continue;
          for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
            {
              g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
              GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

              if (GTK_IS_KEYVAL_TRIGGER (trigger) &&
                  gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == gdk_keyval_to_lower (keyval) &&
                  gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == modifiers &&
                  gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                                w, gtk_shortcut_get_arguments (shortcut)))
                return TRUE;
            }
        }
    }
  return FALSE;
}
