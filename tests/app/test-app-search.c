/* test-app-search.c: searching span names in a real trace: the match
 * count against one made from the model, next and previous, the timeline
 * following the match, the highlight, and closing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <adwaita.h>

#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-format.h"
#include "test-utils.h"

#define REAL_TRACE "param__resnet_kineto.json.gz"
#define TEXT       "CONV"

static char *trace_path;

typedef struct {
  ChronoWindow       *window;
  ChronoDocumentPage *page;
  ChronoTimelineView *view;
  ChronoTimeline     *timeline;
  ChronoTrace        *trace;
  GtkSearchEntry     *entry;
  GtkLabel           *label;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  GtkWidget *search_bar;

  fixture->window = app_test_get_window ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1280, 800);
  fixture->page = app_test_open_trace (fixture->window, trace_path);
  fixture->view = chrono_document_page_get_timeline_view (fixture->page);
  fixture->timeline = chrono_timeline_view_get_timeline (fixture->view);
  fixture->trace = chrono_document_page_get_trace (fixture->page);
  search_bar = GTK_WIDGET (chrono_timeline_view_get_search_bar (fixture->view));
  fixture->entry = GTK_SEARCH_ENTRY (app_test_find_widget (search_bar, GTK_TYPE_SEARCH_ENTRY));
  fixture->label = GTK_LABEL (gtk_widget_get_next_sibling (GTK_WIDGET (fixture->entry)));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  app_test_close_all_tabs (fixture->window);
}

/* Every span's name folded and searched on its own, hidden tracks left out. */
static guint
count_in_model (ChronoTrace       *trace,
                ChronoTrackLayout *layout,
                const char        *text)
{
  guint n_tracks = chrono_trace_get_n_tracks (trace);
  g_autofree gboolean *hidden = g_new (gboolean, n_tracks);

  for (guint t = 0; t < n_tracks; t++)
    hidden[t] = chrono_track_layout_is_hidden (layout, t);
  return test_count_name_matches (trace, text, hidden);
}

typedef struct {
  ChronoTimelineView *view;
  const char         *text;
  guint               n_matches;  /* G_MAXUINT: any */
} SearchWait;

static gboolean
search_done (gpointer data)
{
  SearchWait *wait = data;
  ChronoSearch *search = chrono_timeline_view_get_search (wait->view);

  return search != NULL && g_str_equal (chrono_search_get_text (search), wait->text) &&
         (wait->n_matches == G_MAXUINT || chrono_search_get_n_matches (search) == wait->n_matches);
}

/* The match of rank RANK, stepping from the first. */
static ChronoSpanRef
nth_match (Fixture *fixture,
           guint    rank)
{
  ChronoSearch *search = chrono_timeline_view_get_search (fixture->view);
  ChronoSpanRef match;

  g_assert_true (chrono_search_step (search, NULL, 1, &match));
  for (guint i = 0; i < rank; i++)
    g_assert_true (chrono_search_step (search, &match, 1, &match));
  return match;
}

static ChronoSpanRef
current_match (Fixture *fixture)
{
  ChronoSpanRef span;

  g_assert_cmpuint (chrono_timeline_view_get_current_match (fixture->view, &span), !=, G_MAXUINT);
  return span;
}

/* The match is selected, in the details pane, and in view. */
static void
check_shown (Fixture *fixture,
             guint    expected)
{
  ChronoSearch *search = chrono_timeline_view_get_search (fixture->view);
  ChronoViewport *viewport = chrono_timeline_get_viewport (fixture->timeline);
  ChronoSpanRef span, selected, detailed;
  const ChronoTrack *track;
  graphene_rect_t area;
  g_autofree char *current = chrono_format_count (expected + 1);
  g_autofree char *total = chrono_format_count (chrono_search_get_n_matches (search));
  g_autofree char *label = g_strdup_printf ("%s of %s", current, total);

  g_assert_cmpuint (chrono_timeline_view_get_current_match (fixture->view, &span), ==, expected);
  /* Stepping through them one by one reaches the same span. */
  if (expected < 8)
    {
      ChronoSpanRef nth = nth_match (fixture, expected);

      g_assert_cmpmem (&nth, sizeof nth, &span, sizeof span);
    }
  g_assert_true (chrono_timeline_get_selection (fixture->timeline, &selected));
  g_assert_cmpmem (&selected, sizeof selected, &span, sizeof span);
  g_assert_true (chrono_span_details_get_span (chrono_timeline_view_get_details (fixture->view), &detailed));
  g_assert_cmpmem (&detailed, sizeof detailed, &span, sizeof span);
  g_assert_cmpstr (gtk_label_get_label (fixture->label), ==, label);

  track = chrono_trace_get_track (fixture->trace, span.track);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), <=, track->start[span.index]);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), >=, chrono_track_get_end (track, span.index));
  /* Wide enough to see, and scrolled into the track area. */
  g_assert_true (chrono_timeline_get_span_area (fixture->timeline, span, &area));
  g_assert_cmpfloat (area.size.width, >=, 4);
  g_assert_cmpfloat (area.origin.y, >=, CHRONO_TIMELINE_RULER_HEIGHT);
  g_assert_cmpfloat (area.origin.y + area.size.height, <=,
                     gtk_widget_get_height (GTK_WIDGET (fixture->timeline)));
}

static void
test_find (Fixture       *fixture,
           gconstpointer  data)
{
  GtkSearchBar *search_bar = chrono_timeline_view_get_search_bar (fixture->view);
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);
  SearchWait wait = { fixture->view, TEXT, G_MAXUINT };
  GtkWidget *focus;
  cairo_surface_t *plain, *marked;
  guint n, changed;
  int width, height;

  /* Ctrl+F and F3 are the window's. */
  {
    g_auto(GStrv) find = gtk_application_get_accels_for_action (GTK_APPLICATION (app_test_get_application ()), "win.find");
    g_auto(GStrv) next = gtk_application_get_accels_for_action (GTK_APPLICATION (app_test_get_application ()), "win.find-next");
    g_auto(GStrv) previous = gtk_application_get_accels_for_action (GTK_APPLICATION (app_test_get_application ()), "win.find-previous");

    g_assert_true (g_strv_contains ((const char * const *) find, "<Control>f"));
    g_assert_true (g_strv_contains ((const char * const *) next, "F3"));
    g_assert_true (g_strv_contains ((const char * const *) previous, "<Shift>F3"));
  }

  g_assert_false (gtk_search_bar_get_search_mode (search_bar));
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "find", NULL);
  g_assert_true (gtk_search_bar_get_search_mode (search_bar));
  focus = gtk_root_get_focus (GTK_ROOT (fixture->window));
  g_assert_true (focus == GTK_WIDGET (fixture->entry) || gtk_widget_is_ancestor (focus, GTK_WIDGET (fixture->entry)));

  gtk_editable_set_text (GTK_EDITABLE (fixture->entry), TEXT);
  g_assert_true (app_test_spin_until (search_done, &wait, 10000));
  n = chrono_search_get_n_matches (chrono_timeline_view_get_search (fixture->view));
  g_assert_cmpuint (n, ==, count_in_model (fixture->trace, chrono_timeline_get_track_layout (fixture->timeline), TEXT));
  g_assert_cmpuint (n, >, 100);

  /* It went to the first match from the left edge: the first. */
  check_shown (fixture, 0);

  /* The highlight: the same view drawn with and without it. */
  gtk_widget_activate_action (widget, "timeline.show-all", NULL);
  chrono_timeline_select (fixture->timeline, NULL);
  marked = app_test_render (widget);
  chrono_timeline_set_search (fixture->timeline, NULL);
  plain = app_test_render (widget);
  chrono_timeline_set_search (fixture->timeline, chrono_timeline_view_get_search (fixture->view));
  width = cairo_image_surface_get_width (plain);
  height = cairo_image_surface_get_height (plain);
  changed = app_test_count_changed (plain, marked, CHRONO_TIMELINE_HEADER_WIDTH, CHRONO_TIMELINE_RULER_HEIGHT,
                                    width, height);
  g_test_message ("%u pixels changed by the highlight", changed);
  g_assert_cmpuint (changed, >, 2000);
  cairo_surface_destroy (marked);

  /* Next: the button's action, Enter, then Ctrl+G. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "view.find-next", NULL));
  check_shown (fixture, 1);
  g_signal_emit_by_name (fixture->entry, "activate");
  check_shown (fixture, 2);
  g_signal_emit_by_name (fixture->entry, "next-match");
  check_shown (fixture, 3);
  /* Previous: Ctrl+Shift+G, Shift+F3, then from the first round to the last. */
  g_signal_emit_by_name (fixture->entry, "previous-match");
  check_shown (fixture, 2);
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "find-previous", NULL);
  check_shown (fixture, 1);
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "find-previous", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "find-previous", NULL);
  check_shown (fixture, n - 1);
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "find-next", NULL);
  check_shown (fixture, 0);

  /* Escape: the bar closes, the marks go. */
  g_signal_emit_by_name (fixture->entry, "stop-search");
  g_assert_false (gtk_search_bar_get_search_mode (search_bar));
  g_assert_null (chrono_timeline_get_search (fixture->timeline));
  g_assert_null (chrono_timeline_view_get_search (fixture->view));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (fixture->entry)), ==, "");
  gtk_widget_activate_action (widget, "timeline.show-all", NULL);
  chrono_timeline_select (fixture->timeline, NULL);
  marked = app_test_render (widget);
  g_assert_cmpuint (app_test_count_changed (plain, marked, CHRONO_TIMELINE_HEADER_WIDTH,
                                            CHRONO_TIMELINE_RULER_HEIGHT, width, height), <, changed / 10);
  cairo_surface_destroy (marked);
  cairo_surface_destroy (plain);
}

static void
test_hidden_and_none (Fixture       *fixture,
                      gconstpointer  data)
{
  ChronoTrackLayout *layout = chrono_timeline_get_track_layout (fixture->timeline);
  SearchWait wait = { fixture->view, TEXT, G_MAXUINT };
  guint n, hidden_track;

  chrono_document_page_start_search (fixture->page);
  gtk_editable_set_text (GTK_EDITABLE (fixture->entry), TEXT);
  g_assert_true (app_test_spin_until (search_done, &wait, 10000));
  n = chrono_search_get_n_matches (chrono_timeline_view_get_search (fixture->view));

  /* Hiding the track of a match takes its matches out of the count. */
  hidden_track = current_match (fixture).track;
  chrono_track_layout_set_hidden (layout, hidden_track, TRUE);
  wait.n_matches = count_in_model (fixture->trace, layout, TEXT);
  g_assert_cmpuint (wait.n_matches, <, n);
  g_assert_true (app_test_spin_until (search_done, &wait, 10000));
  chrono_track_layout_set_hidden (layout, hidden_track, FALSE);
  wait.n_matches = n;
  g_assert_true (app_test_spin_until (search_done, &wait, 10000));

  /* Nothing found: said so, and next does nothing. */
  wait.text = "no span is called this";
  wait.n_matches = 0;
  gtk_editable_set_text (GTK_EDITABLE (fixture->entry), wait.text);
  g_assert_true (app_test_spin_until (search_done, &wait, 10000));
  g_assert_cmpstr (gtk_label_get_label (fixture->label), ==, "No matches");
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "view.find-next", NULL) &&
                  chrono_timeline_view_get_current_match (fixture->view, NULL) != G_MAXUINT);
  g_assert_cmpuint (chrono_timeline_view_get_current_match (fixture->view, NULL), ==, G_MAXUINT);
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

  g_test_add ("/app/search/find", Fixture, NULL, fixture_set_up, test_find, fixture_tear_down);
  g_test_add ("/app/search/hidden-and-none", Fixture, NULL, fixture_set_up, test_hidden_and_none,
              fixture_tear_down);
  return g_test_run ();
}
