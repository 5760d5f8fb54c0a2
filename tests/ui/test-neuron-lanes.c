/* test-neuron-lanes.c: a NeuronCore's utilisation lanes drawn without a
 * display: in each lane and pixel column, a bar as tall as the series'
 * share of the column's time, and nothing where the engine was idle, at
 * the whole profile and close up
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-analysis.h"
#include "chrono-loader.h"
#include "chrono-neuron-lanes-painter.h"
#include "chrono-scene-rows.h"
#include "chrono-timeline-scene.h"
#include "ui-test-pixel.h"

#define WIDTH 600

/* A core whose engines take turns, and FLOPs on its Tensor engine. */
static ChronoTrace *
load_core (void)
{
  static const char json[] =
    "{\"instruction\": ["
    "{\"timestamp\": 0, \"duration\": 3000, \"label\": \"TensorMatrix\", \"opcode\": \"MATMUL\", \"id\": 1},"
    "{\"timestamp\": 3000, \"duration\": 500, \"label\": \"Vector\", \"opcode\": \"ADD\", \"id\": 2},"
    "{\"timestamp\": 3700, \"duration\": 20, \"label\": \"Vector\", \"opcode\": \"ADD\", \"id\": 3},"
    "{\"timestamp\": 4000, \"duration\": 2000, \"label\": \"Scalar\", \"opcode\": \"ACT\", \"id\": 4},"
    "{\"timestamp\": 6000, \"duration\": 4000, \"label\": \"TensorMatrix\", \"opcode\": \"MATMUL\", \"id\": 5}],"
    "\"dma\": [{\"timestamp\": 2000, \"duration\": 2500, \"queue_name\": \"qSyncIO0\", \"size\": 4096, \"id\": 6}],"
    "\"summary\": [{\"nc_idx\": \"0\"}]}";
  g_autoptr(GBytes) data = g_bytes_new_static (json, sizeof json - 1);
  g_autoptr(GError) error = NULL;
  ChronoTrace *trace = chrono_trace_load_bytes (data, "device_profile_model_1.json", &error);

  g_assert_no_error (error);
  return trace;
}

/* Each lane's bar in each column is as tall as its share says. */
static void
check_pixels (const ChronoNeuronSeries *series,
              ChronoViewport           *viewport,
              gboolean                  dark)
{
  ChronoNeuronLane lanes[CHRONO_NEURON_N_LANES];
  guint n = chrono_neuron_lanes_painter_get_lanes (series, lanes);
  int h = (int) CHRONO_NEURON_LANE_HEIGHT;
  g_autoptr(GskRenderNode) node = chrono_neuron_lanes_painter_paint (series, viewport, dark, FALSE);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, (int) n * h);
  cairo_t *cr = cairo_create (surface);
  guint n_bars = 0, n_empty = 0;

  g_assert_nonnull (node);
  gsk_render_node_draw (node, cr);
  cairo_surface_flush (surface);
  for (guint i = 0; i < n; i++)
    for (int x = 0; x < WIDTH; x++)
      {
        double v = chrono_neuron_lanes_painter_column (series, viewport, lanes[i], x);
        int expected = isnan (v) || v <= 0 ? 0 : CLAMP ((int) lround (v * (h - 1)), 1, h - 1);
        int drawn = 0;

        /* The bar's height: painted pixels from the foot up, then none. */
        while (drawn < h && ui_test_pixel (surface, x, (int) i * h + h - 1 - drawn) != 0)
          drawn++;
        for (int y = drawn; y < h; y++)
          g_assert_cmpuint (ui_test_pixel (surface, x, (int) i * h + h - 1 - y), ==, 0);
        g_assert_cmpint (drawn, ==, expected);
        n_bars += drawn > 0;
        n_empty += drawn == 0;
      }
  /* Both busy and idle columns were seen. */
  g_assert_cmpuint (n_bars, >, WIDTH);
  g_assert_cmpuint (n_empty, >, WIDTH);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
test_lanes (void)
{
  g_autoptr(ChronoTrace) trace = load_core ();
  g_autoptr(ChronoViewport) viewport = chrono_viewport_new ();
  /* 10 TFLOP/s of a 20 TFLOP/s peak in the first, 5 in the second. */
  const ChronoFlopsPiece pieces[] = { { 0, 3000, 3e7 }, { 6000, 10000, 2e7 } };
  g_autoptr(ChronoNeuronSeries) series = NULL;
  ChronoNeuronLane lanes[CHRONO_NEURON_N_LANES];
  guint32 process = 0;

  while (!chrono_trace_get_process (trace, process)->is_device)
    process++;
  series = chrono_neuron_series_new (trace, process, pieces, G_N_ELEMENTS (pieces), 20);
  /* HFU, then the engines there are, GpSimd missing. */
  g_assert_cmpuint (chrono_neuron_lanes_painter_get_lanes (series, lanes), ==, 5);
  g_assert_cmpint (lanes[0], ==, CHRONO_NEURON_LANE_HFU);
  g_assert_cmpint (lanes[3], ==, CHRONO_NEURON_LANE_SCALAR);
  g_assert_cmpint (lanes[4], ==, CHRONO_NEURON_LANE_DMA);
  g_assert_cmpint (chrono_neuron_lanes_painter_lane_at (series, CHRONO_NEURON_LANE_HEIGHT * 1.5), ==,
                   CHRONO_NEURON_LANE_TENSOR);
  g_assert_cmpint (chrono_neuron_lanes_painter_lane_at (series, CHRONO_NEURON_LANE_HEIGHT * 5), ==,
                   CHRONO_NEURON_N_LANES);

  chrono_viewport_set_bounds (viewport, 0, 10000);
  chrono_viewport_set_width_px (viewport, WIDTH);
  chrono_viewport_show_all (viewport);
  /* Half the peak: the HFU lane half full where the first matmul runs. */
  g_assert_cmpfloat_with_epsilon (chrono_neuron_lanes_painter_column (series, viewport, CHRONO_NEURON_LANE_HFU, 10),
                                  0.5, 1e-9);
  check_pixels (series, viewport, FALSE);
  check_pixels (series, viewport, TRUE);
  /* Close up, where a short Vector instruction fills part of a column. */
  chrono_viewport_zoom_to_range (viewport, 3400, 4100);
  check_pixels (series, viewport, FALSE);
}

/* In the timeline, the lanes sit right under the core's header, above
 * its engines, and a lane's foot is painted exactly where its engine ran. */
static void
test_scene (void)
{
  g_autoptr(ChronoTrace) trace = load_core ();
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoAnalysis) analysis = chrono_analysis_run (&trace, 1, NULL, NULL, &error);
  g_autoptr(ChronoTrackLayout) layout = chrono_track_layout_new (trace);
  g_autoptr(ChronoViewport) viewport = chrono_viewport_new ();
  g_autoptr(ChronoTimelineScene) scene = chrono_timeline_scene_new (trace, NULL, layout, viewport);
  const ChronoSceneRow *row = NULL;
  ChronoNeuronLane lanes[CHRONO_NEURON_N_LANES];
  cairo_surface_t *surface;
  cairo_t *cr;
  guint at = 0, n, n_busy = 0, tensor = 0;
  double top;
  int area;

  g_assert_no_error (error);
  chrono_viewport_set_bounds (viewport, 0, 10000);
  chrono_timeline_scene_set_efficiency (scene, analysis);
  chrono_timeline_scene_set_size (scene, WIDTH, 10);
  chrono_timeline_scene_set_size (scene, WIDTH, chrono_timeline_scene_get_ruler_height (scene) +
                                                 chrono_timeline_scene_get_content_height (scene));
  chrono_viewport_show_all (viewport);
  for (guint i = 0; i < chrono_timeline_scene_get_n_rows (scene) && row == NULL; i++)
    if (chrono_timeline_scene_get_row (scene, i)->neuron != NULL)
      row = chrono_timeline_scene_get_row (scene, at = i);
  g_assert_nonnull (row);
  g_assert_cmpuint (at, >, 0);
  /* Under the header, over an engine of the same core. */
  g_assert_cmpuint (chrono_timeline_scene_get_row (scene, at - 1)->track, ==, CHRONO_SCENE_NO_ROW);
  g_assert_cmpuint (chrono_timeline_scene_get_row (scene, at + 1)->process, ==, row->process);
  g_assert_cmpuint (chrono_timeline_scene_get_row (scene, at + 1)->track, !=, CHRONO_SCENE_NO_ROW);
  /* No peak in this profile: the engines' lanes only. */
  n = chrono_neuron_lanes_painter_get_lanes (row->neuron, lanes);
  g_assert_cmpuint (n, ==, 4);
  while (lanes[tensor] != CHRONO_NEURON_LANE_TENSOR)
    tensor++;
  g_assert_cmpfloat (row->height, ==, n * CHRONO_NEURON_LANE_HEIGHT + 2 * CHRONO_SCENE_TRACK_PAD);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, (int) chrono_timeline_scene_get_height (scene));
  cr = cairo_create (surface);
  chrono_timeline_scene_draw (scene, cr);
  cairo_surface_flush (surface);
  top = chrono_timeline_scene_get_row_top (scene, row) + CHRONO_SCENE_TRACK_PAD;
  area = WIDTH - CHRONO_SCENE_HEADER_WIDTH;
  /* The Tensor lane, clear of its name. */
  for (int x = 60; x < area; x++)
    {
      double v = chrono_neuron_series_get (row->neuron, CHRONO_NEURON_LANE_TENSOR,
                                           chrono_viewport_x_to_time (viewport, x),
                                           chrono_viewport_x_to_time (viewport, x + 1));
      int foot = (int) (top + (tensor + 1) * CHRONO_NEURON_LANE_HEIGHT) - 1;
      /* A bar never reaches its lane's top pixel. */
      gboolean drawn = ui_test_pixel (surface, CHRONO_SCENE_HEADER_WIDTH + x, foot) !=
                       ui_test_pixel (surface, CHRONO_SCENE_HEADER_WIDTH + x, (int) (top + tensor * CHRONO_NEURON_LANE_HEIGHT));

      g_assert_cmpint (drawn, ==, v > 0);
      n_busy += drawn;
    }
  g_assert_cmpuint (n_busy, >, 100);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  /* Hidden with the core's derived rows. */
  chrono_track_layout_set_counter_hidden (layout, row->process, TRUE);
  chrono_timeline_scene_update_rows (scene);
  for (guint i = 0; i < chrono_timeline_scene_get_n_rows (scene); i++)
    g_assert_null (chrono_timeline_scene_get_row (scene, i)->neuron);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  /* The render nodes' types, as a snapshot would register them. */
  g_type_ensure (GSK_TYPE_CAIRO_NODE);
  g_test_add_func ("/neuron-lanes/pixels", test_lanes);
  g_test_add_func ("/neuron-lanes/scene", test_scene);
  return g_test_run ();
}
