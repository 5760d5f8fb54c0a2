/* test-app-flows.c: flow arrows and step bands in the timeline of a
 * real PyTorch profiler trace: the selected span's arrow, all arrows on
 * a toggle, in both themes, and the toggle in the document page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include <adwaita.h>

#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-flow-index.h"
#include "chrono-loader.h"
#include "chrono-palette.h"
#include "chrono-step-bands.h"
#include "chrono-timeline.h"

#define WIDTH   1200
#define HEIGHT  800
#define KINETO  "kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz"
/* Antialiased lines blend into what they cross. */
#define TOLERANCE 70

static char *kineto_path;

typedef struct {
  GtkWidget       *window;
  ChronoTimeline  *timeline;
  ChronoTrace     *trace;
  ChronoFlowIndex *index;
  ChronoViewport  *viewport;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  if (kineto_path == NULL)
    return;
  fixture->trace = chrono_trace_load_file (kineto_path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  fixture->index = chrono_flow_index_new (fixture->trace);

  fixture->timeline = CHRONO_TIMELINE (chrono_timeline_new (fixture->trace));
  fixture->window = app_test_present (GTK_WIDGET (fixture->timeline), WIDTH, HEIGHT);
  /* Flows are indexed on a worker thread. */
  g_assert_true (app_test_spin_until ((AppTestCondition) chrono_timeline_get_flows_ready,
                                      fixture->timeline, 10000));
  fixture->viewport = chrono_timeline_get_viewport (fixture->timeline);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window != NULL)
    gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_clear_object (&fixture->index);
  g_clear_object (&fixture->trace);
}

static gboolean
skip_without_trace (void)
{
  if (kineto_path != NULL)
    return FALSE;
  g_test_skip ("no " KINETO " in the shared traces");
  return TRUE;
}

typedef struct {
  ChronoSpanRef   from;
  ChronoSpanRef   to;
  graphene_rect_t from_area;
  graphene_rect_t to_area;
  double          x0;   /* where the arrow leaves, in the widget */
} Launch;

/* Zooms onto a launch arrow from a runtime call to its kernel, both in
 * view and at least 60 px apart vertically (the device's lanes come
 * first: the kernel is above the call). */
static gboolean
zoom_to_launch (Fixture *fixture,
                Launch  *launch)
{
  double area_bottom = gtk_widget_get_height (GTK_WIDGET (fixture->timeline));
  guint n = chrono_trace_get_n_flows (fixture->trace);

  for (guint i = n / 2; i < n; i++)
    {
      const ChronoFlow *flow = chrono_trace_get_flow (fixture->trace, i);
      gint64 from_ns, to_ns;

      if (flow->type != CHRONO_FLOW_LAUNCH)
        continue;
      chrono_flow_index_get_times (fixture->index, i, &from_ns, &to_ns);
      if (to_ns - from_ns < 20000)
        continue;
      /* The arrow across the middle third of the view. */
      chrono_viewport_zoom_to_range (fixture->viewport, from_ns - (to_ns - from_ns),
                                     to_ns + (to_ns - from_ns));
      if (!chrono_timeline_get_span_area (fixture->timeline, flow->from, &launch->from_area) ||
          !chrono_timeline_get_span_area (fixture->timeline, flow->to, &launch->to_area))
        continue;
      if (MIN (launch->from_area.origin.y, launch->to_area.origin.y) < CHRONO_TIMELINE_RULER_HEIGHT ||
          MAX (launch->from_area.origin.y + launch->from_area.size.height,
               launch->to_area.origin.y + launch->to_area.size.height) > area_bottom ||
          fabs (launch->to_area.origin.y - launch->from_area.origin.y) < 60)
        continue;
      launch->from = flow->from;
      launch->to = flow->to;
      launch->x0 = CHRONO_TIMELINE_HEADER_WIDTH + chrono_viewport_time_to_x (fixture->viewport, from_ns);
      return TRUE;
    }
  return FALSE;
}

static void
test_selected_arrow (Fixture       *fixture,
                     gconstpointer  data)
{
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);
  cairo_surface_t *surface;
  Launch launch;
  ChronoSpanRef selected;
  GdkRGBA color;
  double y0, y1, x1, left, right, top, bottom;

  if (skip_without_trace ())
    return;
  g_assert_true (zoom_to_launch (fixture, &launch));
  y0 = launch.from_area.origin.y + launch.from_area.size.height / 2;
  y1 = launch.to_area.origin.y + launch.to_area.size.height / 2;
  top = MIN (y0, y1);
  bottom = MAX (y0, y1);
  x1 = launch.to_area.origin.x;
  left = MIN (launch.x0, x1) - 30;
  right = MAX (launch.x0, x1) + 30;
  chrono_palette_flow_color (CHRONO_FLOW_LAUNCH, FALSE, &color);

  /* Nothing selected, all flows off: no arrow. */
  g_assert_false (chrono_timeline_get_show_all_flows (fixture->timeline));
  surface = app_test_render (widget);
  g_assert_cmpuint (app_test_count_color (surface, left, top, right, bottom, &color, TOLERANCE), ==, 0);
  cairo_surface_destroy (surface);

  /* The kernel selected: its arrow leaves the call, crosses the rows
   * between and its head touches the kernel's start. */
  chrono_timeline_select (fixture->timeline, &launch.to);
  g_assert_true (chrono_timeline_get_selection (fixture->timeline, &selected));
  g_assert_cmpuint (selected.track, ==, launch.to.track);
  g_assert_cmpuint (selected.index, ==, launch.to.index);
  surface = app_test_render (widget);
  g_assert_cmpuint (app_test_count_color (surface, launch.x0, y0 - 2, launch.x0 + 8, y0 + 2, &color, TOLERANCE), >, 0);
  g_assert_cmpuint (app_test_count_color (surface, x1 - 6, y1 - 3, x1, y1 + 3, &color, TOLERANCE), >, 6);
  for (double y = top + 8; y < bottom - 8; y += 8)
    g_assert_cmpuint (app_test_count_color (surface, left, y, right, y, &color, TOLERANCE), >, 0);
  cairo_surface_destroy (surface);

  /* The call selected shows the same arrow. */
  chrono_timeline_select (fixture->timeline, &launch.from);
  surface = app_test_render (widget);
  g_assert_cmpuint (app_test_count_color (surface, x1 - 6, y1 - 3, x1, y1 + 3, &color, TOLERANCE), >, 6);
  cairo_surface_destroy (surface);

  /* In the dark theme, the dark theme's colour. */
  chrono_timeline_set_dark (fixture->timeline, TRUE);
  chrono_palette_flow_color (CHRONO_FLOW_LAUNCH, TRUE, &color);
  surface = app_test_render (widget);
  g_assert_cmpuint (app_test_count_color (surface, x1 - 6, y1 - 3, x1, y1 + 3, &color, TOLERANCE), >, 6);
  cairo_surface_destroy (surface);

  chrono_timeline_select (fixture->timeline, NULL);
  surface = app_test_render (widget);
  g_assert_cmpuint (app_test_count_color (surface, left, top, right, bottom, &color, TOLERANCE), ==, 0);
  cairo_surface_destroy (surface);
}

/* Pixels that turned redder from BEFORE to AFTER: launch arrows drawn
 * over them, faint or not. */
static guint
count_reddened (cairo_surface_t *before,
                cairo_surface_t *after)
{
  const guint8 *a = cairo_image_surface_get_data (before);
  const guint8 *b = cairo_image_surface_get_data (after);
  int stride = cairo_image_surface_get_stride (before);
  guint n = 0;

  for (int y = CHRONO_TIMELINE_RULER_HEIGHT; y < cairo_image_surface_get_height (before); y++)
    for (int x = CHRONO_TIMELINE_HEADER_WIDTH; x < cairo_image_surface_get_width (before); x++)
      {
        guint32 p = *(const guint32 *) (a + y * stride + x * 4);
        guint32 q = *(const guint32 *) (b + y * stride + x * 4);
        int red_over_green_p = (int) ((p >> 16) & 0xff) - (int) ((p >> 8) & 0xff);
        int red_over_green_q = (int) ((q >> 16) & 0xff) - (int) ((q >> 8) & 0xff);

        n += red_over_green_q - red_over_green_p > 20;
      }
  return n;
}

static void
test_all_flows (Fixture       *fixture,
                gconstpointer  data)
{
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);
  cairo_surface_t *off, *on;
  Launch launch;
  GdkRGBA color;

  if (skip_without_trace ())
    return;

  /* The whole trace: thousands of launches, a faint crimson curtain. */
  off = app_test_render (widget);
  /* The toggle, as the L key and the page's button do it. */
  g_assert_true (gtk_widget_activate_action (widget, "timeline.show-all-flows", NULL));
  g_assert_true (chrono_timeline_get_show_all_flows (fixture->timeline));
  on = app_test_render (widget);
  g_assert_cmpuint (count_reddened (off, on), >, 5000);
  cairo_surface_destroy (off);
  cairo_surface_destroy (on);

  /* Zoomed onto one launch, with nothing selected: its arrow, and
   * those of its neighbours, in the launch colour. */
  g_assert_true (zoom_to_launch (fixture, &launch));
  chrono_palette_flow_color (CHRONO_FLOW_LAUNCH, FALSE, &color);
  color.alpha = 1;
  on = app_test_render (widget);
  g_assert_true (gtk_widget_activate_action (widget, "timeline.show-all-flows", NULL));
  g_assert_false (chrono_timeline_get_show_all_flows (fixture->timeline));
  off = app_test_render (widget);
  g_assert_cmpuint (count_reddened (off, on), >, 100);
  g_assert_cmpuint (app_test_count_color (off, CHRONO_TIMELINE_HEADER_WIDTH, CHRONO_TIMELINE_RULER_HEIGHT,
                                 WIDTH - 1, HEIGHT - 1, &color, TOLERANCE), ==, 0);
  cairo_surface_destroy (off);
  cairo_surface_destroy (on);
}

/* Step bands: the ruler's strip names the steps, and the track area
 * behind the spans is shaded on every other step. */
static void
test_step_bands (Fixture       *fixture,
                 gconstpointer  data)
{
  GtkWidget *widget = GTK_WIDGET (fixture->timeline);
  double strip_top = CHRONO_TIMELINE_RULER_HEIGHT - CHRONO_TIMELINE_STEP_STRIP_HEIGHT;
  cairo_surface_t *surface;
  const guint8 *pixels;
  int stride, dark_text = 0, y;
  guint32 shaded, plain;
  g_autoptr(ChronoStepBands) steps = NULL;
  const ChronoStepBand *band;

  if (skip_without_trace ())
    return;
  surface = app_test_render (widget);
  pixels = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (y = (int) strip_top; y < CHRONO_TIMELINE_RULER_HEIGHT - 1; y++)
    for (int x = CHRONO_TIMELINE_HEADER_WIDTH; x < WIDTH; x++)
      dark_text += (*(const guint32 *) (pixels + y * stride + x * 4) & 0xff) < 100;
  g_assert_cmpint (dark_text, >, 100);

  /* The bottom row of the widget lies below every track: the band of
   * the first step (shaded) and of the second (not) differ there. */
  y = HEIGHT - 2;
  shaded = *(const guint32 *) (pixels + y * stride + (CHRONO_TIMELINE_HEADER_WIDTH + 20) * 4);
  plain = *(const guint32 *) (pixels + y * stride + (CHRONO_TIMELINE_HEADER_WIDTH + 200) * 4);
  g_assert_cmpuint (shaded & 0xffffff, <, plain & 0xffffff);
  cairo_surface_destroy (surface);

  /* Inside the second step, which is not shaded: its name still shows. */
  steps = chrono_step_bands_new (fixture->trace);
  band = chrono_step_bands_get_band (steps, 1);
  chrono_viewport_zoom_to_range (fixture->viewport, band->start_ns + (band->end_ns - band->start_ns) / 10,
                                 band->end_ns - (band->end_ns - band->start_ns) / 10);
  surface = app_test_render (widget);
  pixels = cairo_image_surface_get_data (surface);
  dark_text = 0;
  for (y = (int) strip_top; y < CHRONO_TIMELINE_RULER_HEIGHT - 1; y++)
    for (int x = CHRONO_TIMELINE_HEADER_WIDTH; x < WIDTH; x++)
      dark_text += (*(const guint32 *) (pixels + y * stride + x * 4) & 0xff) < 100;
  g_assert_cmpint (dark_text, >, 30);
  cairo_surface_destroy (surface);
}

/* In the application, the page's toggle button and the timeline's
 * property follow each other. */
static void
test_page_button (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autoptr(GFile) file = NULL;
  ChronoDocumentPage *page;
  ChronoTimeline *timeline;
  GtkWidget *label, *button;

  if (skip_without_trace ())
    return;
  file = g_file_new_for_path (kineto_path);
  page = chrono_window_open_file (window, file);
  g_assert_true (app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 20000));
  timeline = CHRONO_TIMELINE (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE));
  g_assert_nonnull (timeline);

  label = app_test_find_label (GTK_WIDGET (page), "All Flows");
  g_assert_nonnull (label);
  button = gtk_widget_get_ancestor (label, GTK_TYPE_TOGGLE_BUTTON);
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_visible (button));
  g_assert_true (gtk_widget_get_sensitive (button));

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
  g_assert_true (chrono_timeline_get_show_all_flows (timeline));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.show-all-flows", NULL));
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)));

  /* The summary has no arrows to show. */
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (app_test_find_widget (GTK_WIDGET (page), ADW_TYPE_VIEW_STACK)),
                                         "summary");
  g_assert_false (gtk_widget_get_visible (button));
  app_test_close_all_tabs (window);
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;

  /* Without it, the tests that need it skip. */
  kineto_path = app_test_real_trace (KINETO);

#define ADD(path, func) \
  g_test_add ("/app/flows/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("selected-arrow", test_selected_arrow);
  ADD ("all-flows", test_all_flows);
  ADD ("step-bands", test_step_bands);
#undef ADD
  g_test_add_func ("/app/flows/page-button", test_page_button);
  return g_test_run ();
}
