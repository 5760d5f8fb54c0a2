/* chrono-window.c: a window of traces, one tab each
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "chrono-window.h"

struct _ChronoWindow
{
  AdwApplicationWindow  parent_instance;

  GtkFileChooserNative *chooser;
  gboolean              chooser_merges;  /* its files open as one document */
  GtkFileChooserNative *compare_chooser; /* B for the selected document */

  AdwWindowTitle       *window_title;
  GtkStack             *stack;
  AdwStatusPage        *welcome_page;
  AdwTabView           *tab_view;
  AdwTabBar            *tab_bar;
  guint                 name_buttons_idle;
};

G_DEFINE_FINAL_TYPE (ChronoWindow, chrono_window, ADW_TYPE_APPLICATION_WINDOW)

static void
update_title (ChronoWindow *self)
{
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);
  const char *name = page ? adw_tab_page_get_title (page) : NULL;
  g_autofree char *title = NULL;

  adw_window_title_set_subtitle (self->window_title, name);
  /* Translators: the window title in window lists, with the selected trace */
  title = name ? g_strdup_printf (_("%s — Chronoscope"), name) : g_strdup (_("Chronoscope"));
  gtk_window_set_title (GTK_WINDOW (self), title);
}

/* libadwaita 1.2 gives a tab's buttons (close, indicator) a tooltip but
 * no accessible name, so a screen reader reads them by their type: named
 * after the tooltip here. */
static void
name_icon_buttons (GtkWidget *widget)
{
  const char *tooltip = gtk_widget_get_tooltip_text (widget);

  if (GTK_IS_BUTTON (widget) && gtk_button_get_label (GTK_BUTTON (widget)) == NULL && tooltip != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    name_icon_buttons (child);
}

static gboolean
name_tab_buttons_cb (gpointer data)
{
  ChronoWindow *self = data;

  self->name_buttons_idle = 0;
  name_icon_buttons (GTK_WIDGET (self->tab_bar));
  return G_SOURCE_REMOVE;
}

static void
update_pages (ChronoWindow *self)
{
  gboolean has_pages = adw_tab_view_get_n_pages (self->tab_view) > 0;
  GAction *close_tab = g_action_map_lookup_action (G_ACTION_MAP (self), "close-tab");

  gtk_stack_set_visible_child_name (self->stack, has_pages ? "documents" : "welcome");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (close_tab), has_pages);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "compare")),
                               has_pages);
  update_title (self);
  /* The tab bar makes the new tab's widgets after this. */
  if (self->name_buttons_idle == 0)
    self->name_buttons_idle = g_idle_add (name_tab_buttons_cb, self);
}

static gboolean
on_close_page (ChronoWindow *self,
               AdwTabPage   *page,
               AdwTabView   *tab_view)
{
  GtkWidget *child = adw_tab_page_get_child (page);

  if (CHRONO_IS_JOB_PAGE (child))
    chrono_job_page_cancel (CHRONO_JOB_PAGE (child));
  else
    chrono_document_page_cancel (CHRONO_DOCUMENT_PAGE (child));
  /* The default handler closes it. */
  return GDK_EVENT_PROPAGATE;
}

static void
on_page_close_requested (ChronoWindow *self,
                         GtkWidget    *document)
{
  AdwTabPage *page = adw_tab_view_get_page (self->tab_view, document);

  adw_tab_view_close_page (self->tab_view, page);
}

static void
on_page_state (ChronoDocumentPage *document,
               GParamSpec         *pspec,
               ChronoWindow       *self)
{
  g_autofree char *uri = NULL;

  /* Only traces that loaded are worth offering again. */
  if (chrono_document_page_get_state (document) != CHRONO_DOCUMENT_STATE_LOADED)
    return;
  uri = g_file_get_uri (chrono_document_page_get_file (document));
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
}

static gboolean
state_to_loading (GBinding     *binding,
                  const GValue *from_value,
                  GValue       *to_value,
                  gpointer      user_data)
{
  g_value_set_boolean (to_value, g_value_get_enum (from_value) == CHRONO_DOCUMENT_STATE_LOADING);
  return TRUE;
}

static ChronoDocumentPage *
find_document (ChronoWindow *self,
               GFile        *file)
{
  guint n_pages = adw_tab_view_get_n_pages (self->tab_view);

  for (guint i = 0; i < n_pages; i++)
    {
      AdwTabPage *page = adw_tab_view_get_nth_page (self->tab_view, i);
      ChronoDocumentPage *document;

      if (!CHRONO_IS_DOCUMENT_PAGE (adw_tab_page_get_child (page)))
        continue;
      document = CHRONO_DOCUMENT_PAGE (adw_tab_page_get_child (page));
      /* A file opened with others is not that file's own tab. */
      if (g_list_model_get_n_items (chrono_document_page_get_files (document)) == 1 &&
          g_file_equal (chrono_document_page_get_file (document), file))
        return document;
    }
  return NULL;
}

static void
close_tab_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  ChronoWindow *self = user_data;
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);

  if (page != NULL)
    adw_tab_view_close_page (self->tab_view, page);
}

static ChronoDocumentPage *
get_selected_document (ChronoWindow *self)
{
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);
  GtkWidget *child = page != NULL ? adw_tab_page_get_child (page) : NULL;

  return CHRONO_IS_DOCUMENT_PAGE (child) ? CHRONO_DOCUMENT_PAGE (child) : NULL;
}

static void
find_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  ChronoDocumentPage *document = get_selected_document (user_data);
  const char *name = g_action_get_name (G_ACTION (action));

  if (document == NULL)
    return;
  if (g_str_equal (name, "find"))
    chrono_document_page_start_search (document);
  else
    chrono_document_page_find (document, g_str_equal (name, "find-next") ? 1 : -1);
}

static void
compare_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  ChronoDocumentPage *document = get_selected_document (user_data);

  if (document != NULL)
    chrono_document_page_show_compare_menu (document);
}

/* DOCUMENT compared with B, read from its tab when it has loaded there. */
static void
compare_document (ChronoWindow       *self,
                  ChronoDocumentPage *document,
                  GFile              *b)
{
  ChronoDocumentPage *other = find_document (self, b);
  g_autofree char *path = g_file_get_path (b);
  g_autoptr(ChronoComparisonSetup) setup = NULL;

  /* The loader names what it cannot read; a remote file is one. */
  if (path == NULL)
    path = g_file_get_uri (b);
  setup = chrono_comparison_setup_new (path, NULL, FALSE);
  chrono_document_page_compare_with (document, other != NULL ? chrono_document_page_get_trace (other) : NULL, setup);
}

static void
compare_with_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  ChronoWindow *self = user_data;
  ChronoDocumentPage *document = get_selected_document (self);
  g_autoptr(GFile) b = g_file_new_for_path (g_variant_get_string (parameter, NULL));

  if (document != NULL)
    compare_document (self, document, b);
}

static void
compare_chooser_response_cb (GtkNativeDialog *chooser,
                             int              response,
                             ChronoWindow    *self)
{
  ChronoDocumentPage *document = get_selected_document (self);

  if (response == GTK_RESPONSE_ACCEPT && document != NULL)
    {
      g_autoptr(GFile) b = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      compare_document (self, document, b);
    }
  g_clear_object (&self->compare_chooser);
}

static void
compare_with_file_action (GSimpleAction *action,
                          GVariant      *parameter,
                          gpointer       user_data)
{
  ChronoWindow *self = user_data;

  g_clear_object (&self->compare_chooser);
  self->compare_chooser = gtk_file_chooser_native_new (_("Compare With"), GTK_WINDOW (self),
                                                       GTK_FILE_CHOOSER_ACTION_OPEN, _("_Compare"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->compare_chooser), TRUE);
  g_signal_connect_object (self->compare_chooser, "response", G_CALLBACK (compare_chooser_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->compare_chooser));
}

/* Compare With…: the other tabs that loaded one trace, then any file. */
static void
update_compare_menu (GtkMenuButton *button,
                     gpointer       user_data)
{
  ChronoWindow *self = user_data;
  GtkWidget *document = gtk_widget_get_ancestor (GTK_WIDGET (button), CHRONO_TYPE_DOCUMENT_PAGE);
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) tabs = g_menu_new ();
  g_autoptr(GMenu) other = g_menu_new ();

  for (int i = 0; i < adw_tab_view_get_n_pages (self->tab_view); i++)
    {
      ChronoDocumentPage *page = CHRONO_DOCUMENT_PAGE (adw_tab_page_get_child (adw_tab_view_get_nth_page (self->tab_view, i)));
      g_autofree char *path = NULL;
      g_autofree char *title = NULL;
      g_auto(GStrv) parts = NULL;
      g_autofree char *label = NULL;
      g_autoptr(GMenuItem) item = NULL;

      if (GTK_WIDGET (page) == document || chrono_document_page_get_trace (page) == NULL ||
          g_list_model_get_n_items (chrono_document_page_get_files (page)) != 1 ||
          (path = g_file_get_path (chrono_document_page_get_file (page))) == NULL)
        continue;
      title = chrono_document_page_dup_title (page);
      /* Menus read underscores as mnemonics; file names have plenty. */
      parts = g_strsplit (title, "_", -1);
      label = g_strjoinv ("__", parts);
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target (item, "win.compare-with", "s", path);
      g_menu_append_item (tabs, item);
    }
  g_menu_append (other, _("_Other Trace…"), "win.compare-with-file");
  g_menu_append_section (menu, _("Open Traces"), G_MENU_MODEL (tabs));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (other));
  gtk_menu_button_set_menu_model (button, G_MENU_MODEL (menu));
}

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         ChronoWindow  *self)
{
  GdkSeat *seat = gdk_display_get_default_seat (gtk_widget_get_display (GTK_WIDGET (self)));
  GdkDevice *keyboard = seat != NULL ? gdk_seat_get_keyboard (seat) : NULL;
  /* Drop events carry no modifiers: the keyboard says what is held. */
  GdkModifierType state = keyboard != NULL ? gdk_device_get_modifier_state (keyboard) : 0;
  g_autoptr(GListStore) store = g_list_store_new (G_TYPE_FILE);
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = g_value_get_boxed (value);
  for (const GSList *l = files; l != NULL; l = l->next)
    g_list_store_append (store, l->data);
  /* Dropped with Shift held, two files are compared; with Ctrl held,
   * several files are one document. */
  if ((state & GDK_SHIFT_MASK) != 0 && g_slist_length (files) == 2)
    chrono_window_open_comparison (self, files->data, files->next->data);
  else
    chrono_window_open_files (self, G_LIST_MODEL (store), (state & GDK_CONTROL_MASK) != 0);
  return files != NULL;
}

static void
on_chooser_response (GtkNativeDialog *chooser,
                     int              response,
                     ChronoWindow    *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));

      chrono_window_open_files (self, files, self->chooser_merges);
    }
  gtk_native_dialog_destroy (chooser);
  g_clear_object (&self->chooser);
}

static gboolean
chrono_window_close_request (GtkWindow *window)
{
  GtkApplication *application = gtk_window_get_application (window);
  GSettings *settings;
  int width, height;

  settings = application ? chrono_application_get_settings (CHRONO_APPLICATION (application)) : NULL;
  if (settings != NULL)
    {
      /* The default size follows the window while it is not maximized. */
      gtk_window_get_default_size (window, &width, &height);
      g_settings_set_int (settings, "window-width", width);
      g_settings_set_int (settings, "window-height", height);
      g_settings_set_boolean (settings, "window-maximized", gtk_window_is_maximized (window));
    }

  return GTK_WINDOW_CLASS (chrono_window_parent_class)->close_request (window);
}

static void
chrono_window_dispose (GObject *object)
{
  ChronoWindow *self = CHRONO_WINDOW (object);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_handle_id (&self->name_buttons_idle, g_source_remove);
  g_clear_object (&self->compare_chooser);
  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_WINDOW);

  G_OBJECT_CLASS (chrono_window_parent_class)->dispose (object);
}

static void
chrono_window_class_init (ChronoWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = chrono_window_dispose;

  window_class->close_request = chrono_window_close_request;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-window.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, ChronoWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, ChronoWindow, welcome_page);
  gtk_widget_class_bind_template_child (widget_class, ChronoWindow, tab_view);
  gtk_widget_class_bind_template_child (widget_class, ChronoWindow, tab_bar);
  gtk_widget_class_bind_template_callback (widget_class, update_pages);
  gtk_widget_class_bind_template_callback (widget_class, update_title);
  gtk_widget_class_bind_template_callback (widget_class, on_close_page);
}

static void
chrono_window_init (ChronoWindow *self)
{
  static const GActionEntry actions[] = {
    { .name = "close-tab", .activate = close_tab_action },
    { .name = "find", .activate = find_action },
    { .name = "find-next", .activate = find_action },
    { .name = "find-previous", .activate = find_action },
    { .name = "compare", .activate = compare_action },
    { .name = "compare-with", .activate = compare_with_action, .parameter_type = "s" },
    { .name = "compare-with-file", .activate = compare_with_file_action },
  };
  g_autoptr(GtkBuilder) builder = NULL;
  GtkDropTarget *drop;

  gtk_widget_init_template (GTK_WIDGET (self));

  g_action_map_add_action_entries (G_ACTION_MAP (self), actions, G_N_ELEMENTS (actions), self);

  /* The icon follows the application id, which a development build changes. */
  adw_status_page_set_icon_name (self->welcome_page, APP_ID);

  builder = gtk_builder_new_from_resource ("/io/github/chronoscope/Chronoscope/chrono-shortcuts-window.ui");
  gtk_application_window_set_help_overlay (GTK_APPLICATION_WINDOW (self),
                                           GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "shortcuts_window")));

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect_object (drop, "drop", G_CALLBACK (on_drop), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  update_pages (self);
}

ChronoWindow *
chrono_window_new (ChronoApplication *application)
{
  ChronoWindow *self = g_object_new (CHRONO_TYPE_WINDOW, "application", application, NULL);
  GSettings *settings = chrono_application_get_settings (application);

  if (settings != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (self),
                                   g_settings_get_int (settings, "window-width"),
                                   g_settings_get_int (settings, "window-height"));
      if (g_settings_get_boolean (settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
    }
  return self;
}

/* In a new tab, selected. */
static ChronoDocumentPage *
add_document (ChronoWindow       *self,
              ChronoDocumentPage *document)
{
  GListModel *files = chrono_document_page_get_files (document);
  AdwTabPage *page = adw_tab_view_append (self->tab_view, GTK_WIDGET (document));
  g_autofree char *title = chrono_document_page_dup_title (document);
  g_autoptr(GString) names = g_string_new (NULL);
  g_autofree char *tooltip = NULL;

  adw_tab_page_set_title (page, title);
  /* The tooltip names every file, one a line. */
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);
      g_autofree char *name = g_file_get_parse_name (file);

      g_string_append_printf (names, "%s%s", i > 0 ? "\n" : "", name);
    }
  tooltip = g_markup_escape_text (names->str, -1);
  adw_tab_page_set_tooltip (page, tooltip);

  g_object_bind_property_full (document, "state", page, "loading", G_BINDING_SYNC_CREATE,
                               state_to_loading, NULL, NULL, NULL);
  g_signal_connect_object (document, "close-requested",
                           G_CALLBACK (on_page_close_requested), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "notify::state", G_CALLBACK (on_page_state), self, 0);
  gtk_menu_button_set_create_popup_func (chrono_document_page_get_compare_button (document), update_compare_menu,
                                         self, NULL);

  adw_tab_view_set_selected_page (self->tab_view, page);
  /* Appending the first page selected it before it had a title. */
  update_title (self);
  return document;
}

/* A job, in a new tab, selected. */
static ChronoJobPage *
add_job (ChronoWindow    *self,
         GFile           *file,
         ChronoJobSource  source)
{
  ChronoJobPage *job = chrono_job_page_new (file, source);
  AdwTabPage *page = adw_tab_view_append (self->tab_view, GTK_WIDGET (job));
  g_autofree char *title = chrono_job_page_dup_title (job);
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *tooltip = g_markup_escape_text (name, -1);

  adw_tab_page_set_title (page, title);
  adw_tab_page_set_tooltip (page, tooltip);
  g_object_bind_property_full (job, "state", page, "loading", G_BINDING_SYNC_CREATE,
                               state_to_loading, NULL, NULL, NULL);
  g_signal_connect_object (job, "close-requested", G_CALLBACK (on_page_close_requested), self, G_CONNECT_SWAPPED);
  adw_tab_view_set_selected_page (self->tab_view, page);
  update_title (self);
  return job;
}

/**
 * chrono_window_open_job:
 * @source: what @file holds, as chrono_job_sniff() tells
 *
 * Opens the job of @file, a JOB.json or a folder of ranks, in a new tab.
 *
 * Returns: (transfer none): its page
 */
ChronoJobPage *
chrono_window_open_job (ChronoWindow    *self,
                        GFile           *file,
                        ChronoJobSource  source)
{
  g_return_val_if_fail (CHRONO_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);
  return add_job (self, file, source);
}

/**
 * chrono_window_open_file:
 *
 * Opens @file in a new tab, or selects the tab that already shows it.
 *
 * Returns: (transfer none): the page of @file
 */
ChronoDocumentPage *
chrono_window_open_file (ChronoWindow *self,
                         GFile        *file)
{
  ChronoDocumentPage *document;
  AdwTabPage *page;

  g_return_val_if_fail (CHRONO_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  document = find_document (self, file);
  if (document != NULL)
    {
      ChronoDocumentState state = chrono_document_page_get_state (document);

      page = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (document));
      if (state == CHRONO_DOCUMENT_STATE_LOADING || state == CHRONO_DOCUMENT_STATE_LOADED)
        {
          adw_tab_view_set_selected_page (self->tab_view, page);
          return document;
        }
      /* Opening a file that failed tries again. */
      adw_tab_view_close_page (self->tab_view, page);
    }

  return add_document (self, chrono_document_page_new (file));
}

/**
 * chrono_window_open_files:
 * @files: (element-type GFile): trace files
 * @as_one: whether they make one document, on one clock
 *
 * Opens @files, each in a tab of its own, or together in one new tab.
 * One file always opens as chrono_window_open_file() does, but for a
 * job: a JOB.json or a folder of ranks opens as chrono_window_open_job()
 * does.
 *
 * Returns: (transfer none) (nullable): the page of the last file, or of
 *   all of them; %NULL when the last opened as a job
 */
ChronoDocumentPage *
chrono_window_open_files (ChronoWindow *self,
                          GListModel   *files,
                          gboolean      as_one)
{
  ChronoDocumentPage *document = NULL;
  guint n_files;

  g_return_val_if_fail (CHRONO_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_LIST_MODEL (files), NULL);

  n_files = g_list_model_get_n_items (files);
  if (as_one && n_files > 1)
    return add_document (self, chrono_document_page_new_for_files (files));
  for (guint i = 0; i < n_files; i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);
      g_autofree char *path = g_file_get_path (file);
      ChronoJobSource source;

      /* A job says so in its first kilobytes, or its folder's files do. */
      if (path != NULL && (source = chrono_job_sniff (path)) != CHRONO_JOB_SOURCE_NONE)
        {
          add_job (self, file, source);
          document = NULL;
        }
      else
        document = chrono_window_open_file (self, file);
    }
  return document;
}


/**
 * chrono_window_open_comparison:
 *
 * Opens @a (or selects its tab) and compares it with @b there; @b is
 * read from its tab when it has one.
 *
 * Returns: (transfer none): the page of @a
 */
ChronoDocumentPage *
chrono_window_open_comparison (ChronoWindow *self,
                               GFile        *a,
                               GFile        *b)
{
  ChronoDocumentPage *document;

  g_return_val_if_fail (CHRONO_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (a) && G_IS_FILE (b), NULL);

  document = chrono_window_open_file (self, a);
  compare_document (self, document, b);
  return document;
}

/* One chooser at a time: for files (several, each in a tab, or AS_ONE
 * document) or for a profile folder (one document). */
static void
show_chooser (ChronoWindow         *self,
              GtkFileChooserAction  action,
              const char           *title,
              gboolean              as_one)
{
  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }

  self->chooser_merges = as_one;
  self->chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action,
                                               _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  if (action == GTK_FILE_CHOOSER_ACTION_OPEN)
    {
      g_autoptr(GtkFileFilter) traces = gtk_file_filter_new ();
      g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();
      static const char * const suffixes[] = {
        "json", "json.gz", "pt.trace.json", "gz", "zst", "pftrace", "perfetto-trace",
      };

      gtk_file_filter_set_name (traces, _("Traces"));
      for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
        gtk_file_filter_add_suffix (traces, suffixes[i]);
      gtk_file_filter_set_name (all, _("All Files"));
      gtk_file_filter_add_pattern (all, "*");
      gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->chooser), TRUE);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), traces);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), all);
    }
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (on_chooser_response), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/**
 * chrono_window_choose_files:
 *
 * Asks which traces to open, and opens them.
 */
void
chrono_window_choose_files (ChronoWindow *self)
{
  g_return_if_fail (CHRONO_IS_WINDOW (self));
  show_chooser (self, GTK_FILE_CHOOSER_ACTION_OPEN, _("Open Trace"), FALSE);
}

/**
 * chrono_window_choose_files_as_one:
 *
 * Asks which traces to open together, and opens them as one document.
 */
void
chrono_window_choose_files_as_one (ChronoWindow *self)
{
  g_return_if_fail (CHRONO_IS_WINDOW (self));
  show_chooser (self, GTK_FILE_CHOOSER_ACTION_OPEN, _("Open as One Document"), TRUE);
}

/**
 * chrono_window_choose_folder:
 *
 * Asks for a profile folder (a Neuron profile, the traces of several
 * ranks) and opens its traces as one document.
 */
void
chrono_window_choose_folder (ChronoWindow *self)
{
  g_return_if_fail (CHRONO_IS_WINDOW (self));
  show_chooser (self, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("Open Profile Folder"), FALSE);
}

/**
 * chrono_window_get_tab_view:
 *
 * Returns: (transfer none): the tabs, one #ChronoDocumentPage each
 */
AdwTabView *
chrono_window_get_tab_view (ChronoWindow *self)
{
  g_return_val_if_fail (CHRONO_IS_WINDOW (self), NULL);
  return self->tab_view;
}
