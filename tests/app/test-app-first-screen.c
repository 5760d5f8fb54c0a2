/* test-app-first-screen.c: what a trace shows when it opens: every lane of
 * its devices and its host threads, deep host stacks capped with a key to
 * show all their levels, a choice the trace's sidecar keeps, and a track's
 * name in view while the track scrolls
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-sidecar.h"

#define WIDTH  1280
#define HEIGHT 800
/* A device's lanes under a host thread 16 levels deep. */
#define DEEP_TRACE "hta__mtia_single_rank__mtia_rank_0.json.gz"

static const char * const traces[] = {
  DEEP_TRACE,
  "kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz",
  "hta__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz",
};

static void
remove_sidecar (const char *path)
{
  g_autoptr(ChronoSidecar) sidecar = chrono_sidecar_new (path, NULL);
  g_autofree char *backup = g_strconcat (chrono_sidecar_get_path (sidecar), ".bak", NULL);

  g_unlink (chrono_sidecar_get_path (sidecar));
  g_unlink (backup);
}

static ChronoTimeline *
open_fresh (const char *path)
{
  ChronoWindow *window = app_test_get_window ();
  ChronoDocumentPage *page;

  app_test_close_all_tabs (window);
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  page = app_test_open_trace (window, path);
  app_test_spin_for (50);
  return chrono_timeline_view_get_timeline (chrono_document_page_get_timeline_view (page));
}

static gboolean
is_device (ChronoTrace *trace,
           guint        track)
{
  return chrono_trace_get_process (trace, chrono_trace_get_track (trace, track)->process)->is_device;
}

/* Every device track shows whole on the first screen, and so does the
 * first row of every host thread. */
static void
test_device_lanes_in_view (void)
{
  guint n_traces = 0;

  for (guint i = 0; i < G_N_ELEMENTS (traces); i++)
    {
      g_autofree char *path = app_test_real_trace (traces[i]);
      ChronoTimeline *timeline;
      ChronoTrace *trace;
      double height;
      guint n_devices = 0, n_host = 0;

      if (path == NULL)
        continue;
      n_traces++;
      remove_sidecar (path);
      timeline = open_fresh (path);
      trace = chrono_timeline_get_trace (timeline);
      height = gtk_widget_get_height (GTK_WIDGET (timeline));
      g_assert_cmpfloat (height, >, 400);
      for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
        {
          const ChronoTrack *track = chrono_trace_get_track (trace, t);
          graphene_rect_t area;

          if (track->n_spans == 0)
            continue;
          g_assert_true (chrono_timeline_get_track_area (timeline, t, &area));
          g_test_message ("%s: %s at %.0f, %.0f px high", traces[i],
                          chrono_trace_get_string (trace, track->display_name), area.origin.y, area.size.height);
          g_assert_cmpfloat (area.origin.y, >=, CHRONO_TIMELINE_RULER_HEIGHT);
          if (is_device (trace, t))
            {
              n_devices++;
              g_assert_cmpfloat (area.origin.y + area.size.height, <=, height);
            }
          else if (track->type == CHRONO_TRACK_THREAD)
            {
              n_host++;
              g_assert_cmpfloat (area.origin.y + CHRONO_TIMELINE_ROW_HEIGHT, <=, height);
            }
        }
      g_assert_cmpuint (n_devices, >, 0);
      g_assert_cmpuint (n_host, >, 0);
    }
  if (n_traces == 0)
    g_test_skip ("none of the real traces is there");
}

/* Walks to TRACK with Ctrl+Up and Ctrl+Down, the way a keyboard would. */
static void
make_current (ChronoTimeline *timeline,
              guint           track)
{
  GtkWidget *widget = GTK_WIDGET (timeline);
  guint n = chrono_trace_get_n_tracks (chrono_timeline_get_trace (timeline)) + 1;

  for (guint i = 0; i < n; i++)
    gtk_widget_activate_action (widget, "timeline.previous-track", NULL);
  for (guint i = 0; i < n && chrono_timeline_get_current_track (timeline) != track; i++)
    gtk_widget_activate_action (widget, "timeline.next-track", NULL);
  g_assert_cmpuint (chrono_timeline_get_current_track (timeline), ==, track);
}

/* E shows every level of the current track and the sidecar keeps it; E
 * again caps it. */
static void
test_expand_kept (void)
{
  g_autofree char *path = app_test_real_trace (DEEP_TRACE);
  ChronoTimeline *timeline;
  ChronoTrace *trace;
  guint deep = G_MAXUINT;
  graphene_rect_t capped, expanded, reopened;

  if (path == NULL)
    {
      g_test_skip ("the real trace is not there");
      return;
    }
  remove_sidecar (path);
  timeline = open_fresh (path);
  trace = chrono_timeline_get_trace (timeline);
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace) && deep == G_MAXUINT; t++)
    if (!is_device (trace, t) && chrono_trace_get_track (trace, t)->max_depth > CHRONO_TRACK_LAYOUT_CAPPED_ROWS)
      deep = t;
  g_assert_cmpuint (deep, !=, G_MAXUINT);

  g_assert_true (chrono_timeline_get_track_area (timeline, deep, &capped));
  g_assert_cmpfloat (capped.size.height, <, (CHRONO_TRACK_LAYOUT_CAPPED_ROWS + 1) * CHRONO_TIMELINE_ROW_HEIGHT);
  make_current (timeline, deep);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.expand-track", NULL));
  g_assert_true (chrono_track_layout_is_expanded (chrono_timeline_get_track_layout (timeline), deep));
  g_assert_true (chrono_timeline_get_track_area (timeline, deep, &expanded));
  g_assert_cmpfloat (expanded.size.height, >=,
                     (chrono_trace_get_track (trace, deep)->max_depth + 1) * CHRONO_TIMELINE_ROW_HEIGHT);

  /* Opened again, from the sidecar. */
  timeline = open_fresh (path);
  g_assert_true (chrono_track_layout_is_expanded (chrono_timeline_get_track_layout (timeline), deep));
  g_assert_true (chrono_timeline_get_track_area (timeline, deep, &reopened));
  g_assert_cmpfloat (reopened.size.height, ==, expanded.size.height);

  make_current (timeline, deep);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.expand-track", NULL));
  g_assert_false (chrono_track_layout_is_expanded (chrono_timeline_get_track_layout (timeline), deep));
  g_assert_true (chrono_timeline_get_track_area (timeline, deep, &reopened));
  g_assert_cmpfloat (reopened.size.height, ==, capped.size.height);
  app_test_close_all_tabs (app_test_get_window ());
  remove_sidecar (path);
}

/* Going to a span below the rows a capped track shows (as a search
 * match does) shows them all. */
static void
test_reveal_expands (void)
{
  g_autofree char *path = app_test_real_trace (DEEP_TRACE);
  ChronoTimeline *timeline;
  ChronoTrace *trace;
  ChronoSpanRef deep = { G_MAXUINT, 0 };

  if (path == NULL)
    {
      g_test_skip ("the real trace is not there");
      return;
    }
  remove_sidecar (path);
  timeline = open_fresh (path);
  trace = chrono_timeline_get_trace (timeline);
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace) && deep.track == G_MAXUINT; t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      if (is_device (trace, t))
        continue;
      for (guint i = 0; i < track->n_spans; i++)
        if (track->depth[i] >= CHRONO_TRACK_LAYOUT_CAPPED_ROWS + 2)
          {
            deep = (ChronoSpanRef) { t, i };
            break;
          }
    }
  g_assert_cmpuint (deep.track, !=, G_MAXUINT);
  g_assert_false (chrono_track_layout_is_expanded (chrono_timeline_get_track_layout (timeline), deep.track));
  chrono_timeline_reveal_span (timeline, deep);
  g_assert_true (chrono_track_layout_is_expanded (chrono_timeline_get_track_layout (timeline), deep.track));
  app_test_close_all_tabs (app_test_get_window ());
  remove_sidecar (path);
}

/* Dark pixels in the name column between Y0 and Y1. */
static guint
count_name_pixels (cairo_surface_t *surface,
                   int              y0,
                   int              y1)
{
  guint n = 0;

  for (int y = y0; y < y1; y++)
    for (int x = 8; x < CHRONO_TIMELINE_HEADER_WIDTH - 8; x++)
      {
        int r, g, b;

        app_test_get_pixel (surface, x, y, &r, &g, &b);
        n += r + g + b < 450;
      }
  return n;
}

/* A tall track scrolled half out of view above keeps its name at the top
 * of the view. */
static void
test_sticky_name (void)
{
  g_autofree char *path = app_test_real_trace (DEEP_TRACE);
  ChronoTimeline *timeline;
  ChronoTrace *trace;
  ChronoTrackLayout *layout;
  guint deep = G_MAXUINT;
  graphene_rect_t area;
  cairo_surface_t *surface;
  int top = CHRONO_TIMELINE_RULER_HEIGHT;

  if (path == NULL)
    {
      g_test_skip ("the real trace is not there");
      return;
    }
  remove_sidecar (path);
  timeline = open_fresh (path);
  trace = chrono_timeline_get_trace (timeline);
  layout = chrono_timeline_get_track_layout (timeline);
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace) && deep == G_MAXUINT; t++)
    if (!is_device (trace, t) && chrono_trace_get_track (trace, t)->max_depth > 12)
      deep = t;
  g_assert_cmpuint (deep, !=, G_MAXUINT);
  /* Every host track expanded: taller than the view. */
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    chrono_track_layout_set_expanded (layout, t, TRUE);
  app_test_spin_for (50);

  /* Scrolled down by wheel steps until the track's top is above the view
   * and its bottom still in it. */
  for (guint i = 0; i < 100; i++)
    {
      g_assert_true (chrono_timeline_get_track_area (timeline, deep, &area));
      if (area.origin.y < top - 3 * CHRONO_TIMELINE_ROW_HEIGHT)
        break;
      gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.scroll-down", NULL);
    }
  g_assert_cmpfloat (area.origin.y, <, top - 3 * CHRONO_TIMELINE_ROW_HEIGHT);
  g_assert_cmpfloat (area.origin.y + area.size.height, >, top + 3 * CHRONO_TIMELINE_ROW_HEIGHT);

  surface = app_test_render (GTK_WIDGET (timeline));
  /* The name's text, in the first rows under the ruler. */
  g_assert_cmpuint (count_name_pixels (surface, top, top + CHRONO_TIMELINE_ROW_HEIGHT + 6), >, 20);
  cairo_surface_destroy (surface);
  app_test_close_all_tabs (app_test_get_window ());
  remove_sidecar (path);
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;

  g_test_add_func ("/app/first-screen/device-lanes-in-view", test_device_lanes_in_view);
  g_test_add_func ("/app/first-screen/expand-kept", test_expand_kept);
  g_test_add_func ("/app/first-screen/sticky-name", test_sticky_name);
  g_test_add_func ("/app/first-screen/reveal-expands", test_reveal_expands);
  return g_test_run ();
}
