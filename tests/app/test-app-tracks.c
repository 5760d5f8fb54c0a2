/* test-app-tracks.c: pinning, hiding and moving tracks of a real trace
 * by their actions and menu, what the timeline then draws, and the
 * layout coming back from the sidecar when the trace opens again
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>
#include <glib/gstdio.h>

#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-loader.h"
#include "chrono-sidecar.h"

#define REAL_TRACE "kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz"

static char *trace_path;

typedef struct {
  ChronoWindow       *window;
  ChronoDocumentPage *page;
  ChronoTimelineView *view;
  ChronoTimeline     *timeline;
  ChronoTrace        *trace;
  ChronoTrackLayout  *layout;
} Fixture;

static void
open_trace (Fixture *fixture)
{
  fixture->page = app_test_open_trace (fixture->window, trace_path);
  fixture->view = chrono_document_page_get_timeline_view (fixture->page);
  fixture->timeline = chrono_timeline_view_get_timeline (fixture->view);
  fixture->trace = chrono_document_page_get_trace (fixture->page);
  fixture->layout = chrono_timeline_get_track_layout (fixture->timeline);
}

static char *
sidecar_path (void)
{
  g_autoptr(ChronoSidecar) sidecar = chrono_sidecar_new (trace_path, NULL);

  return g_strdup (chrono_sidecar_get_path (sidecar));
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *path = sidecar_path ();
  g_autofree char *backup = g_strconcat (path, ".bak", NULL);

  /* Every test starts from the trace's own layout. */
  g_unlink (path);
  g_unlink (backup);
  fixture->window = app_test_get_window ();
  /* Short, so that the tracks scroll. */
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1280, 800);
  open_trace (fixture);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  app_test_close_all_tabs (fixture->window);
}

static double
track_top (Fixture *fixture,
           guint    track)
{
  graphene_rect_t area;

  g_assert_true (chrono_timeline_get_track_area (fixture->timeline, track, &area));
  return area.origin.y;
}

/* Walks to TRACK with Ctrl+Up and Ctrl+Down, the way a keyboard would. */
static void
make_current (Fixture *fixture,
              guint    track)
{
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);
  guint n = chrono_trace_get_n_tracks (fixture->trace) + 1;

  for (guint i = 0; i < n; i++)
    gtk_widget_activate_action (widget, "timeline.previous-track", NULL);
  for (guint i = 0; i < n && chrono_timeline_get_current_track (fixture->timeline) != track; i++)
    gtk_widget_activate_action (widget, "timeline.next-track", NULL);
  g_assert_cmpuint (chrono_timeline_get_current_track (fixture->timeline), ==, track);
}

/* The first two tracks of one process, and a track of a later process. */
static void
pick_tracks (Fixture *fixture,
             guint   *a,
             guint   *b,
             guint   *far)
{
  guint n;
  const guint *order = chrono_track_layout_get_order (fixture->layout, &n);

  for (guint i = 0; i + 1 < n; i++)
    {
      guint process = chrono_trace_get_track (fixture->trace, order[i])->process;

      if (chrono_trace_get_track (fixture->trace, order[i + 1])->process != process)
        continue;
      *a = order[i];
      *b = order[i + 1];
      for (guint j = n; j-- > i + 2;)
        if (chrono_trace_get_track (fixture->trace, order[j])->process != process)
          {
            *far = order[j];
            return;
          }
    }
  g_assert_not_reached ();
}

static JsonObject *
read_tracks_section (JsonParser *parser)
{
  g_autofree char *path = sidecar_path ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==, CHRONO_SIDECAR_VERSION);
  return json_object_get_object_member (json_object_get_object_member (root, "sections"), "tracks");
}

static void
test_pin_hide_move (Fixture       *fixture,
                    gconstpointer  data)
{
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);
  GMenuModel *hidden_menu = chrono_timeline_view_get_hidden_menu (fixture->view);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GMenuModel) hidden_tracks = NULL;
  g_autoptr(GVariant) target = NULL;
  GtkWidget *tracks_button;
  cairo_surface_t *before, *after;
  guint a, b, far, n_pinned;
  double a_top, far_top;
  JsonObject *section;

  pick_tracks (fixture, &a, &b, &far);
  a_top = track_top (fixture, a);
  g_assert_cmpfloat (a_top, <, track_top (fixture, b));
  g_assert_cmpfloat (track_top (fixture, b), <, track_top (fixture, far));

  /* Pin: FAR goes to the top, under a header of its own. */
  make_current (fixture, far);
  before = app_test_render (widget);
  g_assert_true (gtk_widget_activate_action (widget, "timeline.pin-track", NULL));
  g_assert_true (chrono_track_layout_is_pinned (fixture->layout, far));
  far_top = track_top (fixture, far);
  g_assert_cmpfloat (far_top, >, CHRONO_TIMELINE_RULER_HEIGHT);
  g_assert_cmpfloat (far_top, <, track_top (fixture, a));
  g_assert_cmpfloat (track_top (fixture, a), >, a_top);
  after = app_test_render (widget);
  /* The top of the name column now reads "Pinned" and FAR's name. */
  g_assert_cmpuint (app_test_count_changed (before, after, 0, CHRONO_TIMELINE_RULER_HEIGHT,
                                            CHRONO_TIMELINE_HEADER_WIDTH, (int) far_top + 18), >, 50);
  cairo_surface_destroy (before);
  cairo_surface_destroy (after);

  /* Hide A: gone from the timeline, listed to bring back; B is current. */
  tracks_button = app_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_MENU_BUTTON);
  g_assert_false (gtk_widget_get_sensitive (tracks_button));
  make_current (fixture, a);
  g_assert_false (chrono_track_layout_can_move (fixture->layout, a, -1));
  g_assert_true (gtk_widget_activate_action (widget, "timeline.hide-track", NULL));
  g_assert_false (chrono_timeline_get_track_area (fixture->timeline, a, &GRAPHENE_RECT_INIT (0, 0, 0, 0)));
  g_assert_cmpuint (chrono_timeline_get_current_track (fixture->timeline), ==, b);
  g_assert_true (gtk_widget_get_sensitive (tracks_button));
  hidden_tracks = g_menu_model_get_item_link (hidden_menu, 0, G_MENU_LINK_SECTION);
  g_assert_cmpint (g_menu_model_get_n_items (hidden_tracks), ==, 1);
  target = g_menu_model_get_item_attribute_value (hidden_tracks, 0, G_MENU_ATTRIBUTE_TARGET, G_VARIANT_TYPE_UINT32);
  g_assert_cmpuint (g_variant_get_uint32 (target), ==, a);

  /* With A hidden, B is first in its process: it cannot move up. */
  g_assert_false (chrono_track_layout_can_move (fixture->layout, b, -1));
  /* The menu's item brings A back. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "document.show-track", "u", a));
  g_assert_true (chrono_timeline_get_track_area (fixture->timeline, a, &GRAPHENE_RECT_INIT (0, 0, 0, 0)));
  g_assert_false (gtk_widget_get_sensitive (tracks_button));

  /* Alt+Up: B moves above A. */
  make_current (fixture, b);
  g_assert_true (gtk_widget_activate_action (widget, "timeline.move-track-up", NULL));
  g_assert_cmpfloat (track_top (fixture, b), <, track_top (fixture, a));

  /* The sidecar has it all. */
  section = read_tracks_section (parser);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (section, "pinned")), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (section, "hidden")), ==, 0);

  /* Hide A again, and open the trace anew: all as it was left. */
  make_current (fixture, a);
  g_assert_true (gtk_widget_activate_action (widget, "timeline.hide-track", NULL));
  app_test_close_all_tabs (fixture->window);
  open_trace (fixture);
  g_assert_true (chrono_track_layout_is_pinned (fixture->layout, far));
  g_assert_true (chrono_track_layout_is_hidden (fixture->layout, a));
  chrono_track_layout_get_pinned (fixture->layout, &n_pinned);
  g_assert_cmpuint (n_pinned, ==, 1);
  g_assert_cmpfloat (track_top (fixture, far), <, track_top (fixture, b));
  g_assert_false (chrono_timeline_get_track_area (fixture->timeline, a, &GRAPHENE_RECT_INIT (0, 0, 0, 0)));
  /* Shift+H shows every track again; B stays above A. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.show-all-tracks", NULL));
  g_assert_cmpfloat (track_top (fixture, b), <, track_top (fixture, a));
}

/* A timeline alone in a short window, so that its rows scroll. */
static void
test_pinned_scroll (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = chrono_trace_load_file (trace_path, NULL, NULL, NULL, &error);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *widget;
  ChronoTimeline *timeline;
  ChronoTrackLayout *layout;
  graphene_rect_t first, pinned, area;
  const guint *order;
  guint n, last, tall;
  ChronoSpanRef hit;
  double x;

  g_assert_no_error (error);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 220);
  widget = chrono_timeline_new (trace);
  timeline = CHRONO_TIMELINE (widget);
  gtk_window_set_child (GTK_WINDOW (window), widget);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (app_test_wait_for_paint (widget, 5000));
  layout = chrono_timeline_get_track_layout (timeline);
  order = chrono_track_layout_get_order (layout, &n);
  last = order[n - 1];
  g_assert_true (chrono_timeline_get_track_area (timeline, order[0], &first));
  g_assert_true (chrono_timeline_get_track_area (timeline, last, &area));
  /* The last track is out of sight, below. */
  g_assert_cmpfloat (area.origin.y, >=, gtk_widget_get_height (widget));

  /* Pinned, it shows at the top, above the first track. */
  chrono_track_layout_set_pinned (layout, order[0] == last ? order[1] : last, TRUE);
  g_assert_true (chrono_timeline_get_track_area (timeline, last, &pinned));
  g_assert_cmpfloat (pinned.origin.y, <, gtk_widget_get_height (widget));
  g_assert_true (chrono_timeline_get_track_area (timeline, order[0], &area));
  g_assert_cmpfloat (area.origin.y, >, pinned.origin.y);
  first = area;

  /* Scrolling moves the others under it; it stays. */
  for (guint i = 0; i < 10; i++)
    gtk_widget_activate_action (widget, "timeline.scroll-down", NULL);
  g_assert_true (chrono_timeline_get_track_area (timeline, order[0], &area));
  g_assert_cmpfloat (area.origin.y, <, first.origin.y);
  g_assert_true (chrono_timeline_get_track_area (timeline, last, &area));
  g_assert_cmpfloat (area.origin.y, ==, pinned.origin.y);

  /* What is under the pinned track is not hit through it. */
  for (x = CHRONO_TIMELINE_HEADER_WIDTH + 1; x < gtk_widget_get_width (widget); x++)
    if (chrono_timeline_hit_test (timeline, x, pinned.origin.y + pinned.size.height / 2, &hit))
      g_assert_cmpuint (hit.track, ==, last);

  /* A track taller than half the view (the deepest host thread, all its
   * levels shown), pinned, shows only in part: the others still scroll
   * into view, down to the last. */
  chrono_track_layout_set_pinned (layout, last, FALSE);
  tall = order[0];
  for (guint i = 0; i < n; i++)
    if (chrono_trace_get_track (trace, order[i])->max_depth > chrono_trace_get_track (trace, tall)->max_depth)
      tall = order[i];
  chrono_track_layout_set_expanded (layout, tall, TRUE);
  g_assert_true (chrono_timeline_get_track_area (timeline, tall, &area));
  g_assert_cmpfloat (area.size.height, >, (gtk_widget_get_height (widget) - CHRONO_TIMELINE_RULER_HEIGHT) / 2.0);
  chrono_track_layout_set_pinned (layout, tall, TRUE);
  for (guint i = 0; i < 100; i++)
    gtk_widget_activate_action (widget, "timeline.scroll-down", NULL);
  g_assert_true (chrono_timeline_get_track_area (timeline, last, &area));
  g_assert_cmpfloat (area.origin.y + area.size.height, <=, gtk_widget_get_height (widget));
  g_assert_cmpfloat (area.origin.y, >, (gtk_widget_get_height (widget) + CHRONO_TIMELINE_RULER_HEIGHT) / 2.0 - 1);
  /* The pinned track still starts at the top, under its header. */
  g_assert_true (chrono_timeline_get_track_area (timeline, tall, &pinned));
  g_assert_cmpfloat (pinned.origin.y, >, CHRONO_TIMELINE_RULER_HEIGHT);
  g_assert_cmpfloat (pinned.origin.y, <, area.origin.y);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Whether the timeline has a tooltip at X, Y, as GTK asks when the
 * pointer rests there. */
static gboolean
query_tooltip (GtkWidget *widget,
               double     x,
               double     y)
{
  g_autoptr(GtkTooltip) tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);
  gboolean shown = FALSE;

  g_signal_emit_by_name (widget, "query-tooltip", (int) x, (int) y, FALSE, tooltip, &shown);
  return shown;
}

static void
test_menu (Fixture       *fixture,
           gconstpointer  data)
{
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);
  GtkWidget *popover = app_test_find_widget (widget, GTK_TYPE_POPOVER_MENU);
  GtkEventController *long_press = app_test_find_controller (widget, GTK_TYPE_GESTURE_LONG_PRESS);
  guint a, b, far;
  graphene_rect_t area;

  pick_tracks (fixture, &a, &b, &far);
  g_assert_nonnull (popover);
  g_assert_false (gtk_widget_get_visible (popover));

  /* A long press on B's name: B is current, its menu opens. */
  g_assert_nonnull (long_press);
  g_assert_true (chrono_timeline_get_track_area (fixture->timeline, b, &area));
  g_signal_emit_by_name (long_press, "pressed", 40.0, (double) area.origin.y + 6);
  g_assert_cmpuint (chrono_timeline_get_current_track (fixture->timeline), ==, b);
  g_assert_true (gtk_widget_get_visible (popover));
  g_assert_true (app_test_spin_until ((AppTestCondition) gtk_widget_get_mapped, popover, 2000));
  g_assert_nonnull (app_test_find_label (popover, "_Pin to Top"));
  /* The name's tooltip stays away while the menu is open, and comes
   * back after. */
  g_assert_false (query_tooltip (widget, 40, area.origin.y + 6));
  gtk_popover_popdown (GTK_POPOVER (popover));
  g_assert_true (query_tooltip (widget, 40, area.origin.y + 6));

  /* Shift+F10 opens it for the current track too. */
  g_assert_true (gtk_widget_activate_action (widget, "timeline.track-menu", NULL));
  g_assert_true (gtk_widget_get_visible (popover));
  gtk_popover_popdown (GTK_POPOVER (popover));
}

static void
test_drag (Fixture       *fixture,
           gconstpointer  data)
{
  GtkEventController *drag = app_test_find_controller (GTK_WIDGET (fixture->timeline), GTK_TYPE_GESTURE_DRAG);
  ChronoViewport *viewport = chrono_timeline_get_viewport (fixture->timeline);
  gint64 start = chrono_viewport_get_start_ns (viewport);
  g_autofree char *path = sidecar_path ();
  graphene_rect_t a_area, b_area;
  guint a, b, far;

  pick_tracks (fixture, &a, &b, &far);
  g_assert_true (chrono_timeline_get_track_area (fixture->timeline, a, &a_area));
  g_assert_true (chrono_timeline_get_track_area (fixture->timeline, b, &b_area));

  /* A's name dragged past the middle of B: A goes below B. */
  g_signal_emit_by_name (drag, "drag-begin", 40.0, (double) a_area.origin.y + 5);
  g_assert_cmpuint (chrono_timeline_get_current_track (fixture->timeline), ==, a);
  g_signal_emit_by_name (drag, "drag-update", 0.0,
                         (double) (b_area.origin.y + b_area.size.height * 0.75 - a_area.origin.y - 5));
  g_assert_cmpfloat (track_top (fixture, b), <, track_top (fixture, a));
  /* Back up a little, not past B's middle: it stays. */
  g_signal_emit_by_name (drag, "drag-update", 0.0,
                         (double) (track_top (fixture, a) + 2 - a_area.origin.y - 5));
  g_assert_cmpfloat (track_top (fixture, b), <, track_top (fixture, a));
  g_signal_emit_by_name (drag, "drag-end", 0.0, 0.0);
  /* Dragging a name does not pan the time. */
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, start);
  /* Kept, like the other changes. */
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
}

static void
test_bad_sidecar (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *path = sidecar_path ();
  g_autofree char *backup = g_strconcat (path, ".bak", NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *kept = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *garbage = "{\"version\": 1, \"trace\": {\"size\": tru";
  guint n_pinned;

  app_test_close_all_tabs (fixture->window);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, garbage, -1, NULL));

  /* Said, passed over: the trace opens with its own layout. */
  g_test_expect_message ("Chronoscope", G_LOG_LEVEL_WARNING, "*Ignoring the saved state*");
  open_trace (fixture);
  g_test_assert_expected_messages ();
  chrono_track_layout_get_pinned (fixture->layout, &n_pinned);
  g_assert_cmpuint (n_pinned, ==, 0);
  g_assert_cmpuint (chrono_track_layout_get_n_hidden (fixture->layout), ==, 0);

  /* The first change keeps the file it could not read. */
  chrono_track_layout_set_pinned (fixture->layout, chrono_track_layout_get_order (fixture->layout, NULL)[1], TRUE);
  g_assert_true (g_file_get_contents (backup, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, garbage);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (read_tracks_section (parser), "pinned")),
                    ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;
  trace_path = app_test_real_trace (REAL_TRACE);
  if (trace_path == NULL)
    return 77;

  g_test_add ("/app/tracks/pin-hide-move", Fixture, NULL, fixture_set_up, test_pin_hide_move, fixture_tear_down);
  g_test_add_func ("/app/tracks/pinned-scroll", test_pinned_scroll);
  g_test_add ("/app/tracks/menu", Fixture, NULL, fixture_set_up, test_menu, fixture_tear_down);
  g_test_add ("/app/tracks/drag", Fixture, NULL, fixture_set_up, test_drag, fixture_tear_down);
  g_test_add ("/app/tracks/bad-sidecar", Fixture, NULL, fixture_set_up, test_bad_sidecar, fixture_tear_down);
  return g_test_run ();
}
