/* test-app-export.c: a picture exported at scale 1 has the timeline
 * widget's own pixels for the same view
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gstdio.h>

#include "app-test-utils.h"
#include "chrono-analysis.h"
#include "chrono-loader.h"
#include "chrono-picture.h"
#include "chrono-timeline.h"

#define WIDTH  1100
#define HEIGHT 640

/* What the window's renderer makes of the widget's snapshot. */
static guint8 *
render_widget (GtkWidget *widget,
               int       *stride)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  guint8 *data;

  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, WIDTH, HEIGHT));
  *stride = 4 * WIDTH;
  data = g_malloc (*stride * HEIGHT);
  gdk_texture_download (texture, data, *stride);
  return data;
}

static guint
count_differing_rows (const guint8    *widget,
                      int              widget_stride,
                      cairo_surface_t *png)
{
  guint n = 0;

  for (int y = 0; y < HEIGHT; y++)
    n += memcmp (widget + y * widget_stride,
                 cairo_image_surface_get_data (png) + y * cairo_image_surface_get_stride (png), 4 * WIDTH) != 0;
  return n;
}

static void
check_view (ChronoTimeline *timeline,
            ChronoTrace    *trace,
            ChronoAnalysis *analysis,
            gboolean        dark,
            gint64          start,
            gint64          end)
{
  ChronoViewport *viewport = chrono_timeline_get_viewport (timeline);
  g_autoptr(ChronoViewport) own = chrono_viewport_new ();
  g_autoptr(ChronoTimelineScene) scene = NULL;
  g_autofree char *path = g_build_filename (app_test_tmp_dir (), "export-view.png", NULL);
  g_autofree guint8 *pixels = NULL;
  const ChronoPictureOptions options = { NULL, NULL, FALSE, 1 };
  cairo_surface_t *png;
  int stride;

  chrono_timeline_set_dark (timeline, dark);
  chrono_viewport_zoom_to_range (viewport, start, end);
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (timeline), 2000));
  pixels = render_widget (GTK_WIDGET (timeline), &stride);

  /* The same view, from a scene of its own, with the widget's fonts. */
  chrono_viewport_set_bounds (own, chrono_viewport_get_bounds_start_ns (viewport),
                              chrono_viewport_get_bounds_end_ns (viewport));
  scene = chrono_timeline_scene_new (trace, NULL, chrono_timeline_get_track_layout (timeline), own);
  chrono_timeline_scene_set_pango_context (scene, gtk_widget_get_pango_context (GTK_WIDGET (timeline)));
  chrono_timeline_scene_set_dark (scene, dark);
  chrono_timeline_scene_set_efficiency (scene, analysis);
  chrono_timeline_scene_set_current_track (scene, chrono_timeline_get_current_track (timeline));
  chrono_timeline_scene_set_size (scene, WIDTH, HEIGHT);
  chrono_viewport_zoom_to_range (own, chrono_viewport_get_start_ns (viewport), chrono_viewport_get_end_ns (viewport));
  g_assert_cmpint (chrono_viewport_get_start_ns (own), ==, chrono_viewport_get_start_ns (viewport));
  g_assert_cmpint (chrono_viewport_get_end_ns (own), ==, chrono_viewport_get_end_ns (viewport));

  g_assert_true (chrono_picture_write (scene, &options, CHRONO_PICTURE_PNG, path, NULL));
  png = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_image_surface_get_width (png), ==, WIDTH);
  g_assert_cmpint (cairo_image_surface_get_height (png), ==, HEIGHT);
  g_assert_cmpuint (count_differing_rows (pixels, stride, png), ==, 0);
  cairo_surface_destroy (png);
  g_unlink (path);
}

static void
test_png_is_widget (void)
{
  g_autofree char *path = app_test_real_trace ("kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz");
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  ChronoTimeline *timeline;
  GtkWidget *window;
  gint64 zero;

  if (path == NULL)
    return;
  trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  timeline = CHRONO_TIMELINE (chrono_timeline_new (trace));
  window = app_test_present (GTK_WIDGET (timeline), WIDTH, HEIGHT);
  zero = chrono_trace_get_start_ns (trace);

  /* The whole trace, one step, and a close-up where labels show. */
  check_view (timeline, trace, NULL, FALSE, zero, chrono_trace_get_end_ns (trace));
  check_view (timeline, trace, NULL, TRUE, zero + 170000000, zero + 350000000);
  check_view (timeline, trace, NULL, FALSE, zero + 171000000, zero + 174000000);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* With each device's achieved TFLOP/s under its tracks, light and dark. */
static void
test_flops_is_widget (void)
{
  g_autofree char *path = app_test_real_trace ("hta__trace_diff_control__control.json.gz");
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(GError) error = NULL;
  ChronoAnalysisOptions options;
  ChronoTimeline *timeline;
  GtkWidget *window;
  gint64 zero, end;
  guint process;

  if (path == NULL)
    return;
  trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  chrono_analysis_options_init (&options);
  options.with_flops_series = TRUE;
  analysis = chrono_analysis_run (&trace, 1, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_analysis_get_n_flops_series (analysis), >, 0);
  timeline = CHRONO_TIMELINE (chrono_timeline_new (trace));
  chrono_timeline_set_efficiency (timeline, analysis);
  window = app_test_present (GTK_WIDGET (timeline), WIDTH, HEIGHT);
  zero = chrono_trace_get_start_ns (trace);
  end = chrono_trace_get_end_ns (trace);

  check_view (timeline, trace, analysis, FALSE, zero, end);
  check_view (timeline, trace, analysis, TRUE, zero + (end - zero) / 3, zero + (end - zero) / 2);

  /* Its menu's Hide hides it as a track is hidden; Show All Tracks brings
   * it back, and the picture follows. */
  process = chrono_analysis_get_flops_series (analysis, 0)->process;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.hide-counter", "u", process));
  g_assert_true (chrono_track_layout_is_counter_hidden (chrono_timeline_get_track_layout (timeline), process));
  check_view (timeline, trace, analysis, FALSE, zero, end);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.show-all-tracks", NULL));
  g_assert_false (chrono_track_layout_is_counter_hidden (chrono_timeline_get_track_layout (timeline), process));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;

  g_test_add_func ("/export/png-is-widget", test_png_is_widget);
  g_test_add_func ("/export/flops-is-widget", test_flops_is_widget);

  return g_test_run ();
}
