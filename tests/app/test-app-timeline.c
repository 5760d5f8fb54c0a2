/* test-app-timeline.c: the timeline widget in a window: zoom, show all,
 * drawn pixels, hit tests and selection, and its place in the document page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include <adwaita.h>

#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-loader.h"
#include "chrono-timeline.h"

#define WIDTH  1200
#define HEIGHT 800
/* The ruler and a few rows. */
#define SHORT_HEIGHT (CHRONO_TIMELINE_RULER_HEIGHT + 172)

static char *small_trace;

typedef struct {
  GtkWidget      *window;
  ChronoTimeline *timeline;
  ChronoTrace    *trace;
  ChronoViewport *viewport;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->trace = chrono_trace_load_file (small_trace, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  fixture->timeline = CHRONO_TIMELINE (chrono_timeline_new (fixture->trace));
  fixture->window = app_test_present (GTK_WIDGET (fixture->timeline), WIDTH, HEIGHT);
  fixture->viewport = chrono_timeline_get_viewport (fixture->timeline);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_clear_object (&fixture->trace);
}

/* Pixels in the rectangle that are coloured (not grey), or dark. */
static guint
count_pixels (cairo_surface_t *surface,
              int              x0,
              int              y0,
              int              x1,
              int              y1,
              gboolean         coloured)
{
  guint n = 0;

  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      {
        int r, g, b;

        app_test_get_pixel (surface, x, y, &r, &g, &b);
        if (coloured ? MAX (r, MAX (g, b)) - MIN (r, MIN (g, b)) > 40 : r + g + b < 300)
          n++;
      }
  return n;
}

static void
test_show_all (Fixture       *fixture,
               gconstpointer  data)
{
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);

  g_assert_cmpint (gtk_widget_get_width (widget), ==, WIDTH);
  g_assert_cmpint (chrono_viewport_get_width_px (fixture->viewport), ==,
                   WIDTH - CHRONO_TIMELINE_HEADER_WIDTH);
  g_assert_cmpint (chrono_viewport_get_start_ns (fixture->viewport), ==,
                   chrono_trace_get_start_ns (fixture->trace));
  g_assert_cmpint (chrono_viewport_get_end_ns (fixture->viewport), ==,
                   chrono_trace_get_end_ns (fixture->trace));
  g_assert_true (gtk_widget_get_focusable (widget));
}

static void
test_zoom (Fixture       *fixture,
           gconstpointer  data)
{
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);
  double centre_x = chrono_viewport_get_width_px (fixture->viewport) / 2.0;
  gint64 centre = chrono_viewport_x_to_time (fixture->viewport, centre_x);
  double duration = chrono_viewport_get_duration (fixture->viewport);
  gint64 start;

  /* W, and the same action: zoom in around the centre. */
  g_assert_true (gtk_widget_activate_action (widget, "timeline.zoom-in", NULL));
  g_assert_true (gtk_widget_activate_action (widget, "timeline.zoom-in", NULL));
  g_assert_cmpfloat (chrono_viewport_get_duration (fixture->viewport), <, duration / 1.5);
  g_assert_cmpfloat (fabs (chrono_viewport_time_to_x (fixture->viewport, centre) - centre_x), <, 1.0);
  g_assert_cmpint (chrono_viewport_get_start_ns (fixture->viewport), >,
                   chrono_trace_get_start_ns (fixture->trace));

  /* A pan stays zoomed; 0 shows the whole trace again. */
  start = chrono_viewport_get_start_ns (fixture->viewport);
  g_assert_true (gtk_widget_activate_action (widget, "timeline.pan-right", NULL));
  g_assert_cmpint (chrono_viewport_get_start_ns (fixture->viewport), >, start);
  g_assert_true (gtk_widget_activate_action (widget, "timeline.show-all", NULL));
  g_assert_cmpint (chrono_viewport_get_start_ns (fixture->viewport), ==,
                   chrono_trace_get_start_ns (fixture->trace));
  g_assert_cmpint (chrono_viewport_get_end_ns (fixture->viewport), ==,
                   chrono_trace_get_end_ns (fixture->trace));
  g_assert_cmpfloat (chrono_viewport_get_duration (fixture->viewport), ==, duration);

  /* Out past the whole trace is as far as it goes. */
  g_assert_true (gtk_widget_activate_action (widget, "timeline.zoom-out", NULL));
  g_assert_cmpfloat (chrono_viewport_get_duration (fixture->viewport), ==, duration);
}

static void
test_pixels (Fixture       *fixture,
             gconstpointer  data)
{
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);
  cairo_surface_t *surface = app_test_render (widget);
  int x0 = CHRONO_TIMELINE_HEADER_WIDTH + 1;

  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, WIDTH);
  /* Spans are drawn in colour, the rest in greys. */
  g_assert_cmpuint (count_pixels (surface, x0, CHRONO_TIMELINE_RULER_HEIGHT, WIDTH, HEIGHT, TRUE),
                    >, 1000);
  /* The ruler's labels: dark text above the ticks. */
  g_assert_cmpuint (count_pixels (surface, x0, 0, WIDTH, CHRONO_TIMELINE_RULER_HEIGHT - 11, FALSE),
                    >, 100);
  cairo_surface_destroy (surface);

  /* Dark: the background turns dark, the spans stay coloured. */
  chrono_timeline_set_dark (fixture->timeline, TRUE);
  surface = app_test_render (widget);
  g_assert_cmpuint (count_pixels (surface, x0, CHRONO_TIMELINE_RULER_HEIGHT, WIDTH, HEIGHT, TRUE),
                    >, 1000);
  g_assert_cmpuint (count_pixels (surface, 0, HEIGHT - 2, 1, HEIGHT - 1, FALSE), ==, 1);
  cairo_surface_destroy (surface);
}

static gboolean
find_visible_span (Fixture       *fixture,
                   ChronoSpanRef *found,
                   graphene_rect_t *found_area)
{
  for (guint t = 0; t < chrono_trace_get_n_tracks (fixture->trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (fixture->trace, t);

      for (guint32 i = 0; i < track->n_spans; i++)
        {
          ChronoSpanRef span = { t, i };
          graphene_rect_t area;

          if (!chrono_timeline_get_span_area (fixture->timeline, span, &area))
            continue;
          if (area.size.width > 8 && area.origin.x > CHRONO_TIMELINE_HEADER_WIDTH &&
              area.origin.x + area.size.width < WIDTH &&
              area.origin.y > CHRONO_TIMELINE_RULER_HEIGHT &&
              area.origin.y + area.size.height < gtk_widget_get_height (GTK_WIDGET (fixture->timeline)))
            {
              *found = span;
              *found_area = area;
              return TRUE;
            }
        }
    }
  return FALSE;
}

static void
span_activated_cb (ChronoTimeline *timeline,
                   guint           track,
                   guint           index,
                   ChronoSpanRef  *activated)
{
  activated->track = track;
  activated->index = index;
}

static void
test_hit_and_select (Fixture       *fixture,
                     gconstpointer  data)
{
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);
  ChronoSpanRef span, hit, activated = { G_MAXUINT32, G_MAXUINT32 }, selected;
  graphene_rect_t area;
  double x, y;
  cairo_surface_t *surface;
  guint coloured_before;

  g_assert_true (find_visible_span (fixture, &span, &area));
  x = area.origin.x + area.size.width / 2;
  y = area.origin.y + area.size.height / 2;
  g_assert_true (chrono_timeline_hit_test (fixture->timeline, x, y, &hit));
  g_assert_cmpuint (hit.track, ==, span.track);
  g_assert_cmpuint (hit.index, ==, span.index);

  /* Nothing under the names or the ruler. */
  g_assert_false (chrono_timeline_hit_test (fixture->timeline, 10, y, &hit));
  g_assert_false (chrono_timeline_hit_test (fixture->timeline, x, 5, &hit));

  /* A click selects it and says so; the outline is drawn. */
  surface = app_test_render (widget);
  coloured_before = count_pixels (surface, (int) area.origin.x - 3, (int) area.origin.y - 3,
                                  (int) (area.origin.x + area.size.width) + 3, (int) area.origin.y - 1, TRUE);
  cairo_surface_destroy (surface);
  g_signal_connect (widget, "span-activated", G_CALLBACK (span_activated_cb), &activated);
  g_assert_false (chrono_timeline_get_selection (fixture->timeline, NULL));
  g_signal_emit_by_name (app_test_find_controller (widget, GTK_TYPE_GESTURE_CLICK), "pressed", 1, x, y);
  g_assert_cmpuint (activated.track, ==, span.track);
  g_assert_cmpuint (activated.index, ==, span.index);
  g_assert_true (chrono_timeline_get_selection (fixture->timeline, &selected));
  g_assert_cmpuint (selected.index, ==, span.index);
  surface = app_test_render (widget);
  g_assert_cmpuint (count_pixels (surface, (int) area.origin.x - 3, (int) area.origin.y - 3,
                                  (int) (area.origin.x + area.size.width) + 3, (int) area.origin.y - 1, TRUE),
                    >, coloured_before);
  cairo_surface_destroy (surface);

  /* A click on nothing clears it. */
  g_signal_emit_by_name (app_test_find_controller (widget, GTK_TYPE_GESTURE_CLICK), "pressed", 1, 10.0, 5.0);
  g_assert_false (chrono_timeline_get_selection (fixture->timeline, NULL));
}

static gboolean
is_short (gpointer data)
{
  return gtk_widget_get_height (data) <= SHORT_HEIGHT;
}

static void
test_scroll (Fixture       *fixture,
             gconstpointer  data)
{
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);
  GtkEventController *scroll = app_test_find_controller (widget, GTK_TYPE_EVENT_CONTROLLER_SCROLL);
  ChronoSpanRef span;
  graphene_rect_t before, after;
  gboolean handled = FALSE;

  /* Short enough that the rows do not fit. */
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), WIDTH, SHORT_HEIGHT);
  g_assert_true (app_test_spin_until (is_short, widget, 5000));
  g_assert_true (find_visible_span (fixture, &span, &before));
  /* A wheel without modifiers scrolls the rows, not the time. */
  g_signal_emit_by_name (scroll, "scroll", 0.0, 1.0, &handled);
  g_assert_true (handled);
  g_assert_true (chrono_timeline_get_span_area (fixture->timeline, span, &after));
  g_assert_cmpfloat (after.origin.x, ==, before.origin.x);
  g_assert_cmpfloat (after.origin.y, <, before.origin.y);

  g_assert_true (gtk_widget_activate_action (widget, "timeline.scroll-up", NULL));
  g_assert_true (chrono_timeline_get_span_area (fixture->timeline, span, &after));
  g_assert_cmpfloat (after.origin.y, ==, before.origin.y);
  /* Not above the first row. */
  g_assert_true (gtk_widget_activate_action (widget, "timeline.scroll-up", NULL));
  g_assert_true (chrono_timeline_get_span_area (fixture->timeline, span, &after));
  g_assert_cmpfloat (after.origin.y, ==, before.origin.y);
}

/* Frames after zooms and pans, each painting the rows anew (dense rows
 * written into images), show what a timeline opened right at the last
 * view shows: nothing of an earlier view stays behind. */
static void
test_pan_matches_fresh (Fixture       *fixture,
                        gconstpointer  data)
{
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);
  const char *steps[] = { "timeline.zoom-in", "timeline.zoom-in", "timeline.pan-right",
                          "timeline.pan-right", "timeline.zoom-in", "timeline.pan-left",
                          "timeline.zoom-out", "timeline.pan-right" };
  ChronoTimeline *fresh;
  ChronoViewport *fresh_viewport;
  GtkWidget *fresh_window;
  cairo_surface_t *panned, *direct;
  gint64 start, end;

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      g_assert_true (gtk_widget_activate_action (widget, steps[i], NULL));
      cairo_surface_destroy (app_test_render (widget));
    }
  start = chrono_viewport_get_start_ns (fixture->viewport);
  end = chrono_viewport_get_end_ns (fixture->viewport);
  g_assert_cmpint (start, >, chrono_trace_get_start_ns (fixture->trace));

  fresh = CHRONO_TIMELINE (chrono_timeline_new (fixture->trace));
  fresh_window = app_test_present (GTK_WIDGET (fresh), WIDTH, HEIGHT);
  fresh_viewport = chrono_timeline_get_viewport (fresh);
  chrono_viewport_zoom_to_range (fresh_viewport, start, end);
  g_assert_cmpint (chrono_viewport_get_start_ns (fresh_viewport), ==, start);
  g_assert_cmpint (chrono_viewport_get_end_ns (fresh_viewport), ==, end);

  panned = app_test_render (widget);
  direct = app_test_render (GTK_WIDGET (fresh));
  /* Spans show, and not one pixel differs. */
  g_assert_cmpuint (count_pixels (panned, CHRONO_TIMELINE_HEADER_WIDTH + 1, CHRONO_TIMELINE_RULER_HEIGHT,
                                  WIDTH, HEIGHT, TRUE), >, 1000);
  g_assert_cmpuint (app_test_count_changed (panned, direct, 0, 0, WIDTH, HEIGHT), ==, 0);
  cairo_surface_destroy (panned);
  cairo_surface_destroy (direct);
  gtk_window_destroy (GTK_WINDOW (fresh_window));
}

static gboolean
has_trace (gpointer data)
{
  return chrono_document_page_get_trace (data) != NULL;
}

static void
test_in_page (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autoptr(GFile) file = g_file_new_for_path (small_trace);
  ChronoDocumentPage *page;
  GtkWidget *timeline;
  AdwViewStack *stack;

  page = chrono_window_open_file (window, file);
  g_assert_true (app_test_spin_until (has_trace, page, 10000));

  timeline = app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE);
  g_assert_nonnull (timeline);
  stack = ADW_VIEW_STACK (app_test_find_widget (GTK_WIDGET (page), ADW_TYPE_VIEW_STACK));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "timeline");
  g_assert_true (app_test_wait_for_paint (timeline, 5000));
  g_assert_true (chrono_timeline_get_trace (CHRONO_TIMELINE (timeline)) ==
                 chrono_document_page_get_trace (page));
  g_assert_cmpint (chrono_timeline_get_dark (CHRONO_TIMELINE (timeline)), ==,
                   adw_style_manager_get_dark (adw_style_manager_get_default ()));

  /* The summary is one switch away. */
  adw_view_stack_set_visible_child_name (stack, "summary");
  g_assert_true (gtk_widget_get_visible (adw_view_stack_get_visible_child (stack)));
  g_assert_cmpstr (G_OBJECT_TYPE_NAME (adw_view_stack_get_visible_child (stack)), ==,
                   "ChronoTraceSummary");
  app_test_close_all_tabs (window);
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;

  small_trace = app_test_write_trace ("timeline.pt.trace.json", 0, 3);

#define ADD(path, func) \
  g_test_add ("/app/timeline/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("show-all", test_show_all);
  ADD ("zoom", test_zoom);
  ADD ("pixels", test_pixels);
  ADD ("hit-and-select", test_hit_and_select);
  ADD ("scroll", test_scroll);
  ADD ("pan-matches-fresh", test_pan_matches_fresh);
#undef ADD
  g_test_add_func ("/app/timeline/in-page", test_in_page);
  return g_test_run ();
}
