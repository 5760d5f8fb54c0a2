/* test-app-keys.c: the keyboard: which widget has the focus once a trace
 * shows, and that no key is bound to two actions that can both be reached
 * at the same time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-search.h"
#include "chrono-span-details.h"
#include "chrono-timeline.h"
#include "chrono-timeline-view.h"

static char *small_trace;
static char *other_trace;

/* One key binding: its key, what it does, and where it acts. */
typedef struct {
  guint      keyval;
  GdkModifierType modifiers;
  char      *action;
  GtkWidget *widget;  /* NULL for an application accelerator, which acts anywhere */
} Binding;

static void
binding_clear (gpointer data)
{
  Binding *binding = data;

  g_free (binding->action);
}

static void
add_binding (GArray          *bindings,
             guint            keyval,
             GdkModifierType  modifiers,
             const char      *action,
             GtkWidget       *widget)
{
  Binding binding = {
    .keyval = gdk_keyval_to_lower (keyval),
    .modifiers = modifiers & gtk_accelerator_get_default_mod_mask (),
    .action = g_strdup (action),
    .widget = widget,
  };

  g_array_append_val (bindings, binding);
}

/* What a shortcut does, as a name two shortcuts share only when they do
 * the same thing. */
static char *
describe_action (GtkShortcutAction *action)
{
  if (GTK_IS_NAMED_ACTION (action))
    return g_strdup (gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)));
  return gtk_shortcut_action_to_string (action);
}

static void
add_trigger (GArray             *bindings,
             GtkShortcutTrigger *trigger,
             const char         *action,
             GtkWidget          *widget)
{
  if (GTK_IS_ALTERNATIVE_TRIGGER (trigger))
    {
      add_trigger (bindings, gtk_alternative_trigger_get_first (GTK_ALTERNATIVE_TRIGGER (trigger)), action, widget);
      add_trigger (bindings, gtk_alternative_trigger_get_second (GTK_ALTERNATIVE_TRIGGER (trigger)), action, widget);
    }
  else if (GTK_IS_KEYVAL_TRIGGER (trigger))
    add_binding (bindings,
                 gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)),
                 gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)),
                 action, widget);
}

/* The key bindings of @widget alone: the shortcut controllers that its
 * class and the instance add. */
static void
collect_own_bindings (GArray    *bindings,
                      GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      /* The window's copy of the application's accelerators is counted
       * from the application itself. */
      if (g_strcmp0 (gtk_event_controller_get_name (GTK_EVENT_CONTROLLER (controller)),
                     "gtk-application-shortcuts") == 0)
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          g_autofree char *action = describe_action (gtk_shortcut_get_action (shortcut));

          add_trigger (bindings, gtk_shortcut_get_trigger (shortcut), action, widget);
        }
    }
}

static gboolean
is_chrono_type (GType type)
{
  return g_str_has_prefix (g_type_name (type), "Chrono");
}

/* The bindings a Chronoscope widget inherits from its GTK or libadwaita
 * parent class, read from a bare instance of that class. */
static GArray *
get_inherited_bindings (GType type)
{
  GArray *bindings = g_array_new (FALSE, FALSE, sizeof (Binding));
  GtkWidget *parent;

  g_array_set_clear_func (bindings, binding_clear);
  while (is_chrono_type (type))
    type = g_type_parent (type);
  if (G_TYPE_IS_ABSTRACT (type))
    return bindings;
  parent = g_object_ref_sink (g_object_new (type, NULL));
  collect_own_bindings (bindings, parent);
  if (GTK_IS_WINDOW (parent))
    gtk_window_destroy (GTK_WINDOW (parent));
  g_object_unref (parent);
  return bindings;
}

static gboolean
contains_binding (GArray        *bindings,
                  const Binding *binding)
{
  for (guint i = 0; i < bindings->len; i++)
    {
      const Binding *other = &g_array_index (bindings, Binding, i);

      if (other->keyval == binding->keyval && other->modifiers == binding->modifiers &&
          g_str_equal (other->action, binding->action))
        return TRUE;
    }
  return FALSE;
}

/* The key bindings that Chronoscope's own widgets in the tree under
 * @widget define. GTK's widgets bind keys of their own (text editing,
 * moving the focus, a menu item's copy of its accelerator), and inner
 * ones take precedence over outer ones by design: those are GTK's to
 * judge. */
static void
collect_chrono_bindings (GArray    *bindings,
                         GtkWidget *widget)
{
  if (is_chrono_type (G_OBJECT_TYPE (widget)))
    {
      g_autoptr(GArray) own = g_array_new (FALSE, FALSE, sizeof (Binding));
      g_autoptr(GArray) inherited = get_inherited_bindings (G_OBJECT_TYPE (widget));

      g_array_set_clear_func (own, binding_clear);
      collect_own_bindings (own, widget);
      for (guint i = 0; i < own->len; i++)
        {
          const Binding *binding = &g_array_index (own, Binding, i);

          if (!contains_binding (inherited, binding))
            add_binding (bindings, binding->keyval, binding->modifiers, binding->action, widget);
        }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect_chrono_bindings (bindings, child);
}

static void
collect_application_accels (GArray         *bindings,
                            GtkApplication *application)
{
  g_auto(GStrv) actions = gtk_application_list_action_descriptions (application);

  for (guint i = 0; actions[i] != NULL; i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (application, actions[i]);

      for (guint j = 0; accels[j] != NULL; j++)
        {
          guint keyval;
          GdkModifierType modifiers;

          g_assert_true (gtk_accelerator_parse (accels[j], &keyval, &modifiers));
          add_binding (bindings, keyval, modifiers, actions[i], NULL);
        }
    }
}

/* Both act at once when one of them acts everywhere, or the focus can be
 * inside both widgets (one holds the other). */
static gboolean
reachable_together (const Binding *a,
                    const Binding *b)
{
  return a->widget == NULL || b->widget == NULL || a->widget == b->widget ||
         gtk_widget_is_ancestor (a->widget, b->widget) || gtk_widget_is_ancestor (b->widget, a->widget);
}

/* Every pair of bindings that share a key but not an action, and can be
 * reached at the same time. */
static GPtrArray *
find_conflicts (GArray *bindings)
{
  GPtrArray *conflicts = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < bindings->len; i++)
    for (guint j = i + 1; j < bindings->len; j++)
      {
        const Binding *a = &g_array_index (bindings, Binding, i);
        const Binding *b = &g_array_index (bindings, Binding, j);
        g_autofree char *key = NULL;

        if (a->keyval != b->keyval || a->modifiers != b->modifiers ||
            g_str_equal (a->action, b->action) ||
            !reachable_together (a, b))
          continue;
        key = gtk_accelerator_name (a->keyval, a->modifiers);
        g_ptr_array_add (conflicts,
                         g_strdup_printf ("%s: %s (%s) and %s (%s)", key,
                                          a->action, a->widget ? G_OBJECT_TYPE_NAME (a->widget) : "application",
                                          b->action, b->widget ? G_OBJECT_TYPE_NAME (b->widget) : "application"));
      }
  return conflicts;
}

static ChronoDocumentPage *
open_small_trace (ChronoWindow *window)
{
  app_test_close_all_tabs (window);
  return app_test_open_trace (window, small_trace);
}

/* Right after a trace shows, its keys work without a click first. */
static void
test_focus_after_load (void)
{
  ChronoWindow *window = app_test_get_window ();
  ChronoDocumentPage *page = open_small_trace (window);
  ChronoTimeline *timeline = chrono_timeline_view_get_timeline (chrono_document_page_get_timeline_view (page));
  GtkWidget *focus;

  app_test_spin_for (50);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus == GTK_WIDGET (timeline));
}

/* A second tab takes the focus when it shows. */
static void
test_focus_second_tab (void)
{
  ChronoWindow *window = app_test_get_window ();
  ChronoDocumentPage *first = open_small_trace (window);
  ChronoDocumentPage *second = app_test_open_trace (window, other_trace);
  ChronoTimeline *timeline = chrono_timeline_view_get_timeline (chrono_document_page_get_timeline_view (second));

  g_assert_true (first != second);
  app_test_spin_for (50);
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == GTK_WIDGET (timeline));
}

static gboolean
compared (gpointer data)
{
  return chrono_comparison_view_get_comparison (data) != NULL || chrono_comparison_view_get_error (data) != NULL;
}

static gboolean
job_loaded (gpointer data)
{
  return chrono_job_page_get_state (data) == CHRONO_DOCUMENT_STATE_LOADED;
}

static void
test_no_key_bound_twice (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autoptr(GArray) bindings = g_array_new (FALSE, FALSE, sizeof (Binding));
  g_autoptr(GPtrArray) conflicts = NULL;
  g_autoptr(ChronoComparisonSetup) setup = NULL;
  ChronoDocumentPage *page;
  g_autofree char *job = NULL;
  g_autoptr(GFile) job_file = NULL;
  ChronoJobPage *job_page;

  g_array_set_clear_func (bindings, binding_clear);
  /* A job's charts, with a rank loaded beside them, in a tab of its own. */
  job = app_test_write_job ("keys-job", 4, G_MAXUINT, NULL);
  job_file = g_file_new_for_path (job);
  job_page = chrono_window_open_job (window, job_file, CHRONO_JOB_SOURCE_FILE);
  g_assert_true (app_test_spin_until (job_loaded, job_page, 10000));
  chrono_job_page_load_rank (job_page, 0, 0, G_MAXUINT);
  g_assert_true (app_test_wait_for_state (chrono_job_page_get_document (job_page), CHRONO_DOCUMENT_STATE_LOADED,
                                          10000));
  gtk_widget_activate_action (GTK_WIDGET (chrono_job_page_get_document (job_page)), "document.show-graph", NULL);
  app_test_spin_for (50);
  g_assert_nonnull (app_test_find_widget (GTK_WIDGET (window), CHRONO_TYPE_RANK_CHART_VIEW));
  /* And a trace in another. */
  page = open_small_trace (window);
  /* The graph pane and the search bar are built on their first showing. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.find", NULL);
  app_test_spin_for (50);
  /* And the comparison view with its two timelines, on a comparison. */
  setup = chrono_comparison_setup_new (other_trace, NULL, FALSE);
  chrono_document_page_compare_with (page, NULL, setup);
  g_assert_true (app_test_spin_until (compared, chrono_document_page_get_comparison_view (page), 10000));
  g_assert_nonnull (chrono_comparison_view_get_comparison (chrono_document_page_get_comparison_view (page)));

  collect_application_accels (bindings, GTK_APPLICATION (app_test_get_application ()));
  collect_chrono_bindings (bindings, GTK_WIDGET (window));
  /* The timeline's keys, the page's and the application's are all seen. */
  g_assert_cmpuint (bindings->len, >, 40);

  conflicts = find_conflicts (bindings);
  for (guint i = 0; i < conflicts->len; i++)
    g_test_message ("bound twice: %s", (char *) conflicts->pdata[i]);
  g_assert_cmpuint (conflicts->len, ==, 0);
}

/* The key names of a shortcuts window entry. */
static void
parse_accelerators (const char       *text,
                    GArray           *keys)
{
  g_auto(GStrv) words = g_strsplit (text, " ", -1);

  for (guint i = 0; words[i] != NULL; i++)
    {
      guint keyval;
      GdkModifierType modifiers;

      if (*words[i] == '\0' || strstr (words[i], "...") != NULL)
        continue;
      g_assert_true (gtk_accelerator_parse (words[i], &keyval, &modifiers));
      add_binding (keys, keyval, modifiers, text, NULL);
    }
}

/* The shortcuts window lists every application accelerator, each in one
 * entry only. */
static void
test_shortcuts_window (void)
{
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/io/github/chronoscope/Chronoscope/chrono-shortcuts-window.ui");
  GtkApplication *application = GTK_APPLICATION (app_test_get_application ());
  g_autoptr(GArray) listed = g_array_new (FALSE, FALSE, sizeof (Binding));
  g_autoptr(GArray) accels = g_array_new (FALSE, FALSE, sizeof (Binding));
  GSList *objects = gtk_builder_get_objects (builder);

  g_array_set_clear_func (listed, binding_clear);
  g_array_set_clear_func (accels, binding_clear);
  for (GSList *l = objects; l != NULL; l = l->next)
    {
      g_autofree char *accelerator = NULL;
      g_autofree char *action_name = NULL;

      if (!GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        continue;
      g_object_get (l->data, "accelerator", &accelerator, "action-name", &action_name, NULL);
      if (accelerator != NULL)
        parse_accelerators (accelerator, listed);
      else if (action_name != NULL)
        {
          g_auto(GStrv) action_accels = gtk_application_get_accels_for_action (application, action_name);
          g_autofree char *joined = g_strjoinv (" ", action_accels);

          parse_accelerators (joined, listed);
        }
    }
  g_slist_free (objects);

  collect_application_accels (accels, application);
  g_assert_cmpuint (accels->len, >, 5);
  for (guint i = 0; i < accels->len; i++)
    {
      const Binding *accel = &g_array_index (accels, Binding, i);
      g_autofree char *key = gtk_accelerator_name (accel->keyval, accel->modifiers);
      guint entries = 0;

      for (guint j = 0; j < listed->len; j++)
        {
          const Binding *entry = &g_array_index (listed, Binding, j);

          entries += entry->keyval == accel->keyval && entry->modifiers == accel->modifiers;
        }
      g_test_message ("%s of %s: listed %u times", key, accel->action, entries);
      g_assert_cmpuint (entries, ==, 1);
    }
}

static gboolean
has_match (gpointer data)
{
  ChronoTimeline *timeline = data;
  ChronoSearch *search = chrono_timeline_get_search (timeline);

  return search != NULL && chrono_search_get_n_matches (search) > 0;
}

/* From the first screen, by keys alone: zoom, collapse and expand the
 * processes, find a span by name and go to it, which selects it and shows
 * its details, then close the search and the details. */
static void
test_keyboard_path (void)
{
  ChronoWindow *window = app_test_get_window ();
  ChronoDocumentPage *page = open_small_trace (window);
  ChronoTimelineView *view = chrono_document_page_get_timeline_view (page);
  ChronoTimeline *timeline = chrono_timeline_view_get_timeline (view);
  ChronoTrackLayout *layout = chrono_timeline_get_track_layout (timeline);
  ChronoViewport *viewport = chrono_timeline_get_viewport (timeline);
  GtkWidget *details = app_test_find_widget (GTK_WIDGET (view), CHRONO_TYPE_SPAN_DETAILS);
  GtkWidget *focus;
  gint64 duration = chrono_viewport_get_end_ns (viewport) - chrono_viewport_get_start_ns (viewport);
  ChronoSpanRef selected;

  app_test_spin_for (50);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus == GTK_WIDGET (timeline));

  g_assert_true (app_test_press_key (focus, GDK_KEY_w, 0));
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport) - chrono_viewport_get_start_ns (viewport), <, duration);
  g_assert_true (app_test_press_key (focus, GDK_KEY_bracketleft, 0));
  g_assert_cmpuint (chrono_track_layout_get_n_collapsed (layout), ==,
                    chrono_trace_get_n_processes (chrono_timeline_get_trace (timeline)));
  g_assert_true (app_test_press_key (focus, GDK_KEY_bracketright, 0));
  g_assert_cmpuint (chrono_track_layout_get_n_collapsed (layout), ==, 0);

  /* Ctrl+F: the search takes the keys. */
  g_assert_true (app_test_press_key (focus, GDK_KEY_f, GDK_CONTROL_MASK));
  app_test_spin_for (50);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_assert_true (gtk_widget_is_ancestor (focus, GTK_WIDGET (chrono_timeline_view_get_search_bar (view))));
  /* Typed into the entry, then Enter goes to the first match. */
  gtk_editable_set_text (GTK_EDITABLE (gtk_widget_get_ancestor (focus, GTK_TYPE_SEARCH_ENTRY)), "ProfilerStep");
  g_assert_true (app_test_spin_until (has_match, timeline, 10000));
  g_signal_emit_by_name (gtk_widget_get_ancestor (focus, GTK_TYPE_SEARCH_ENTRY), "activate");
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_true (gtk_widget_get_visible (details));

  /* Escape closes the search and gives the timeline the keys back; again,
   * the details. */
  g_assert_true (app_test_press_key (focus, GDK_KEY_Escape, 0));
  app_test_spin_for (50);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus == GTK_WIDGET (timeline));
  g_assert_true (app_test_press_key (focus, GDK_KEY_Escape, 0));
  g_assert_false (gtk_widget_get_visible (details));
  g_assert_false (chrono_timeline_get_selection (timeline, &selected));
}

/* Buttons showing an icon and no text, with what a screen reader would
 * call them: nothing unless they have an accessible label. The parts of
 * GTK's and libadwaita's own widgets (a spin button's steppers, the
 * window's controls, a tab's or the search bar's close button) are theirs
 * to name. */
static void
collect_unnamed_buttons (GtkWidget *widget,
                         GPtrArray *unnamed,
                         guint     *n_icon_buttons)
{
  if (GTK_IS_SPIN_BUTTON (widget) || GTK_IS_WINDOW_CONTROLS (widget) || ADW_IS_TAB_BAR (widget))
    return;
  if (GTK_IS_SEARCH_BAR (widget))
    {
      collect_unnamed_buttons (gtk_search_bar_get_child (GTK_SEARCH_BAR (widget)), unnamed, n_icon_buttons);
      return;
    }
  if (gtk_widget_get_visible (widget) &&
      ((GTK_IS_BUTTON (widget) && gtk_button_get_label (GTK_BUTTON (widget)) == NULL &&
        gtk_button_get_icon_name (GTK_BUTTON (widget)) != NULL) ||
       (GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_label (GTK_MENU_BUTTON (widget)) == NULL &&
        gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (widget)) != NULL)))
    {
      (*n_icon_buttons)++;
      if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL))
        g_ptr_array_add (unnamed, widget);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect_unnamed_buttons (child, unnamed, n_icon_buttons);
}

/* Every button that shows only an icon has a name a screen reader reads. */
static void
test_icon_buttons_named (void)
{
  ChronoWindow *window = app_test_get_window ();
  ChronoDocumentPage *page = open_small_trace (window);
  ChronoTimeline *timeline = chrono_timeline_view_get_timeline (chrono_document_page_get_timeline_view (page));
  ChronoSpanRef span = { 0, 0 };
  g_autoptr(GPtrArray) unnamed = g_ptr_array_new ();
  guint n_icon_buttons = 0;

  /* The search bar and the details pane, with their buttons. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.find", NULL);
  while (chrono_trace_get_track (chrono_timeline_get_trace (timeline), span.track)->n_spans == 0)
    span.track++;
  chrono_timeline_select (timeline, &span);
  g_signal_emit_by_name (timeline, "span-activated", span.track, span.index);
  app_test_spin_for (50);

  collect_unnamed_buttons (GTK_WIDGET (window), unnamed, &n_icon_buttons);
  for (guint i = 0; i < unnamed->len; i++)
    g_test_message ("no accessible label: %s with icon %s, in %s", G_OBJECT_TYPE_NAME (unnamed->pdata[i]),
                    GTK_IS_BUTTON (unnamed->pdata[i]) ? gtk_button_get_icon_name (unnamed->pdata[i])
                                                      : gtk_menu_button_get_icon_name (unnamed->pdata[i]),
                    G_OBJECT_TYPE_NAME (gtk_widget_get_parent (unnamed->pdata[i])));
  g_assert_cmpuint (n_icon_buttons, >=, 5);
  g_assert_cmpuint (unnamed->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  /* What the accessible tree holds, as a screen reader would read it. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  if (!app_test_init (&argc, &argv))
    return 77;

  small_trace = app_test_write_trace ("small.json", 200 * 1000, 2);
  other_trace = app_test_write_trace ("other.json", 100 * 1000, 1);
  g_test_add_func ("/app/keys/focus-after-load", test_focus_after_load);
  g_test_add_func ("/app/keys/focus-second-tab", test_focus_second_tab);
  g_test_add_func ("/app/keys/no-key-bound-twice", test_no_key_bound_twice);
  g_test_add_func ("/app/keys/shortcuts-window", test_shortcuts_window);
  g_test_add_func ("/app/keys/icon-buttons-named", test_icon_buttons_named);
  g_test_add_func ("/app/keys/keyboard-path", test_keyboard_path);
  return g_test_run ();
}
