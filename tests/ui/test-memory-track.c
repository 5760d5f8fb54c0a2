/* test-memory-track.c: each device's memory drawn under its tracks by
 * the headless scene: pixels where its events put bytes, none before its
 * first event, and no lane for a trace without memory events
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-memory-painter.h"
#include "chrono-scene-rows.h"
#include "chrono-timeline-scene.h"
#include "test-utils.h"
#include "ui-test-pixel.h"

#define MEMORY    "tracelens__h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz"
#define NO_MEMORY "hta__trace_diff_control__control.json.gz"
#define WIDTH     1400

static ChronoTimelineScene *
scene_for (ChronoTrace     *trace,
           ChronoAnalysis **analysis,
           ChronoViewport **viewport)
{
  g_autoptr(ChronoTrackLayout) layout = chrono_track_layout_new (trace);
  ChronoTimelineScene *scene;

  *analysis = chrono_analysis_run (&trace, 1, NULL, NULL, NULL);
  *viewport = chrono_viewport_new ();
  chrono_viewport_set_bounds (*viewport, chrono_trace_get_start_ns (trace), chrono_trace_get_end_ns (trace));
  scene = chrono_timeline_scene_new (trace, NULL, layout, *viewport);
  chrono_timeline_scene_set_efficiency (scene, *analysis);
  chrono_timeline_scene_set_size (scene, WIDTH, chrono_timeline_scene_get_ruler_height (scene) +
                                                chrono_timeline_scene_get_content_height (scene));
  chrono_viewport_show_all (*viewport);
  return scene;
}

static void
test_drawn (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (MEMORY);
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  g_autoptr(ChronoTimelineScene) scene = NULL;
  const ChronoSceneRow *row = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  int foot, above;
  guint n_drawn = 0, n_wrong = 0;

  if (trace == NULL)
    return;
  scene = scene_for (trace, &analysis, &viewport);
  for (guint i = 0; i < chrono_timeline_scene_get_n_rows (scene); i++)
    if (chrono_timeline_scene_get_row (scene, i)->memory != NULL &&
        chrono_timeline_scene_get_row (scene, i)->memory->device_id == 0)
      row = chrono_timeline_scene_get_row (scene, i);
  g_assert_nonnull (row);
  /* Under the GPU's tracks. */
  g_assert_true (chrono_trace_get_process (trace, row->process)->is_device);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, (int) chrono_timeline_scene_get_height (scene));
  cr = cairo_create (surface);
  chrono_timeline_scene_draw (scene, cr);
  cairo_surface_flush (surface);
  foot = (int) (chrono_timeline_scene_get_row_top (scene, row) + CHRONO_SCENE_TRACK_PAD + CHRONO_SCENE_MEMORY_HEIGHT - 2);
  above = (int) chrono_timeline_scene_get_row_top (scene, row) + 1;
  /* Clear of the "0" of the axis and of the peak's mark. */
  for (int x = 30; x < WIDTH - CHRONO_SCENE_HEADER_WIDTH; x++)
    {
      gint64 allocated, reserved;
      gboolean has = chrono_memory_painter_column (row->memory, viewport, x, &allocated, &reserved) && allocated > 0;
      gboolean drawn = ui_test_pixel (surface, CHRONO_SCENE_HEADER_WIDTH + x, foot) !=
                       ui_test_pixel (surface, CHRONO_SCENE_HEADER_WIDTH + x, above);
      double peak_x = chrono_viewport_time_to_x (viewport, row->memory->peak_ns);

      if (ABS (x - peak_x) < 2)
        continue;
      n_drawn += drawn;
      n_wrong += has != drawn;
    }
  g_assert_cmpuint (n_wrong, ==, 0);
  g_assert_cmpuint (n_drawn, >, 100);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
test_none (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (NO_MEMORY);
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  g_autoptr(ChronoTimelineScene) scene = NULL;

  if (trace == NULL)
    return;
  scene = scene_for (trace, &analysis, &viewport);
  for (guint i = 0; i < chrono_timeline_scene_get_n_rows (scene); i++)
    g_assert_null (chrono_timeline_scene_get_row (scene, i)->memory);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memory-track/drawn", test_drawn);
  g_test_add_func ("/memory-track/none", test_none);
  return g_test_run ();
}
