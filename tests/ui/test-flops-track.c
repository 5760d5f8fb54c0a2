/* test-flops-track.c: each device's achieved TFLOP/s drawn under its
 * tracks by the headless scene, where its series has FLOPs and nowhere
 * else; hidden with the layout; a note in its place without shapes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-analysis.h"
#include "chrono-scene-rows.h"
#include "chrono-timeline-scene.h"
#include "test-utils.h"
#include "ui-test-pixel.h"

#define SHAPES    "hta__trace_diff_control__control.json.gz"
#define NO_SHAPES "hta__cp_alexnet__benchmark_result_2869224_1695835535_trace.json.gz"
#define WIDTH     1400

typedef struct {
  ChronoTrace         *trace;
  ChronoAnalysis      *analysis;
  ChronoTrackLayout   *layout;
  ChronoViewport      *viewport;
  ChronoTimelineScene *scene;
} Fixture;

static gboolean
fixture_set_up (Fixture    *f,
                const char *name)
{
  g_autoptr(GError) error = NULL;
  ChronoAnalysisOptions options;

  memset (f, 0, sizeof *f);
  if ((f->trace = test_traces_load (name)) == NULL)
    return FALSE;
  chrono_analysis_options_init (&options);
  options.with_flops_series = TRUE;
  f->analysis = chrono_analysis_run (&f->trace, 1, &options, NULL, &error);
  g_assert_no_error (error);
  f->layout = chrono_track_layout_new (f->trace);
  f->viewport = chrono_viewport_new ();
  chrono_viewport_set_bounds (f->viewport, chrono_trace_get_start_ns (f->trace), chrono_trace_get_end_ns (f->trace));
  f->scene = chrono_timeline_scene_new (f->trace, NULL, f->layout, f->viewport);
  chrono_timeline_scene_set_efficiency (f->scene, f->analysis);
  chrono_timeline_scene_set_size (f->scene, WIDTH, chrono_timeline_scene_get_ruler_height (f->scene) +
                                                   chrono_timeline_scene_get_content_height (f->scene));
  chrono_viewport_show_all (f->viewport);
  return TRUE;
}

static void
fixture_tear_down (Fixture *f)
{
  g_clear_object (&f->scene);
  g_clear_object (&f->viewport);
  g_clear_object (&f->layout);
  g_clear_object (&f->analysis);
  g_clear_object (&f->trace);
}

static guint
count_derived (ChronoTimelineScene *scene,
               guint               *first)
{
  guint n = 0;

  *first = CHRONO_SCENE_NO_ROW;
  for (guint i = 0; i < chrono_timeline_scene_get_n_rows (scene); i++)
    if (chrono_timeline_scene_get_row (scene, i)->derived)
      {
        if (n++ == 0)
          *first = i;
      }
  return n;
}

/* At every zoom, a column is drawn at the area's foot exactly when the
 * series puts FLOPs in its time. */
static void
check_columns (Fixture *f,
               guint    row_index)
{
  const ChronoSceneRow *row = chrono_timeline_scene_get_row (f->scene, row_index);
  double top = chrono_timeline_scene_get_row_top (f->scene, row);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH,
                                                         (int) chrono_timeline_scene_get_height (f->scene));
  cairo_t *cr = cairo_create (surface);
  /* The foot of the area, and the pad above it, which nothing covers. */
  int foot = (int) (top + CHRONO_SCENE_TRACK_PAD + CHRONO_SCENE_FLOPS_HEIGHT - 2);
  int above = (int) top + 1;
  guint n_drawn = 0, n_wrong = 0;

  chrono_timeline_scene_draw (f->scene, cr);
  cairo_surface_flush (surface);
  /* Clear of the "0" of the axis. */
  for (int x = 30; x < WIDTH - CHRONO_SCENE_HEADER_WIDTH; x++)
    {
      gint64 t0 = chrono_viewport_x_to_time (f->viewport, x);
      gint64 t1 = MAX (chrono_viewport_x_to_time (f->viewport, x + 1), t0 + 1);
      gboolean has = chrono_flops_series_get_flops (row->flops, t0, t1) > 0;
      gboolean drawn = ui_test_pixel (surface, CHRONO_SCENE_HEADER_WIDTH + x, foot) !=
                       ui_test_pixel (surface, CHRONO_SCENE_HEADER_WIDTH + x, above);

      n_drawn += drawn;
      n_wrong += has != drawn;
    }
  g_assert_cmpuint (n_wrong, ==, 0);
  g_assert_cmpuint (n_drawn, >, 10);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
test_drawn (void)
{
  Fixture f;
  gint64 start, end;
  guint first;

  if (!fixture_set_up (&f, SHAPES))
    return;
  g_assert_cmpuint (chrono_analysis_get_n_flops_series (f.analysis), >, 0);
  g_assert_cmpuint (count_derived (f.scene, &first), ==, chrono_analysis_get_n_flops_series (f.analysis));
  g_assert_nonnull (chrono_timeline_scene_get_row (f.scene, first)->flops);
  /* Under its device's tracks: the row before it is one of them. */
  g_assert_cmpuint (chrono_timeline_scene_get_row (f.scene, first - 1)->process, ==,
                    chrono_timeline_scene_get_row (f.scene, first)->process);
  g_assert_cmpuint (chrono_timeline_scene_get_row (f.scene, first - 1)->track, !=, CHRONO_SCENE_NO_ROW);

  check_columns (&f, first);
  /* A step, then a close-up of a few kernels. */
  start = chrono_trace_get_start_ns (f.trace);
  end = chrono_trace_get_end_ns (f.trace);
  chrono_viewport_zoom_to_range (f.viewport, start + (end - start) / 3, start + (end - start) / 2);
  check_columns (&f, first);
  chrono_viewport_zoom_to_range (f.viewport, start + (end - start) * 2 / 5, start + (end - start) * 2 / 5 + 400000);
  check_columns (&f, first);

  /* Hidden like a track, and back with the hidden tracks. */
  chrono_track_layout_set_counter_hidden (f.layout, chrono_timeline_scene_get_row (f.scene, first)->process, TRUE);
  chrono_timeline_scene_update_rows (f.scene);
  g_assert_cmpuint (count_derived (f.scene, &first), ==, chrono_analysis_get_n_flops_series (f.analysis) - 1);
  g_assert_cmpuint (chrono_track_layout_get_n_hidden (f.layout), ==, 1);
  chrono_track_layout_show_all (f.layout);
  chrono_timeline_scene_update_rows (f.scene);
  g_assert_cmpuint (count_derived (f.scene, &first), ==, chrono_analysis_get_n_flops_series (f.analysis));

  /* Without the analysis, no derived rows. */
  chrono_timeline_scene_set_efficiency (f.scene, NULL);
  g_assert_cmpuint (count_derived (f.scene, &first), ==, 0);
  fixture_tear_down (&f);
}

/* Without shapes, each device's place says why. */
static void
test_no_shapes (void)
{
  Fixture f;
  guint first;

  if (!fixture_set_up (&f, NO_SHAPES))
    return;
  g_assert_cmpuint (chrono_analysis_get_n_flops_series (f.analysis), ==, 0);
  g_assert_cmpuint (count_derived (f.scene, &first), >, 0);
  g_assert_null (chrono_timeline_scene_get_row (f.scene, first)->flops);
  g_assert_true (chrono_trace_get_process (f.trace, chrono_timeline_scene_get_row (f.scene, first)->process)->is_device);
  g_assert_nonnull (strstr (chrono_timeline_scene_get_flops_note (f.scene), "record_shapes=True"));
  fixture_tear_down (&f);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/flops-track/drawn", test_drawn);
  g_test_add_func ("/flops-track/no-shapes", test_no_shapes);
  return g_test_run ();
}
