/* test-memory-track.c: each device's memory drawn under its tracks by
 * the headless scene: pixels where its events put bytes, none before its
 * first event, its tooltip, lanes from memory counters, and no lane for
 * a trace without memory events
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-format.h"
#include "chrono-memory-painter.h"
#include "chrono-scene-rows.h"
#include "chrono-timeline-scene.h"
#include "test-utils.h"
#include "ui-test-pixel.h"

#define MEMORY    "tracelens__h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz"
#define NO_MEMORY "hta__trace_diff_control__control.json.gz"
#define COUNTERS  "msinsight__npu_ddp_level0_rank0__trace_view.json"
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

/* The memory row of the first GPU. */
static const ChronoSceneRow *
gpu_memory_row (ChronoTimelineScene *scene)
{
  const ChronoSceneRow *row = NULL;

  for (guint i = 0; i < chrono_timeline_scene_get_n_rows (scene); i++)
    if (chrono_timeline_scene_get_row (scene, i)->memory != NULL &&
        chrono_timeline_scene_get_row (scene, i)->memory->device_id == 0)
      row = chrono_timeline_scene_get_row (scene, i);
  g_assert_nonnull (row);
  return row;
}

static void
test_drawn (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (MEMORY);
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  g_autoptr(ChronoTimelineScene) scene = NULL;
  const ChronoSceneRow *row;
  cairo_surface_t *surface;
  cairo_t *cr;
  int foot, above;
  guint n_drawn = 0, n_wrong = 0;

  if (trace == NULL)
    return;
  scene = scene_for (trace, &analysis, &viewport);
  row = gpu_memory_row (scene);
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

/* The tooltip at the peak's column says the peak's bytes; at the column
 * of the largest allocation alive at the peak, the largest allocation
 * made in that column, by its operator. */
static void
test_tooltip (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (MEMORY);
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  g_autoptr(ChronoTimelineScene) scene = NULL;
  const ChronoMemoryDevice *d;
  const ChronoMemoryAllocation *big, *want = NULL;
  g_autofree char *peak_text = NULL;
  g_autofree char *at_peak = NULL;
  g_autofree char *at_alloc = NULL;
  g_autofree char *before = NULL;
  g_autofree char *want_text = NULL;
  double x;
  gint64 t0, t1;

  if (trace == NULL)
    return;
  scene = scene_for (trace, &analysis, &viewport);
  d = gpu_memory_row (scene)->memory;

  x = floor (chrono_viewport_time_to_x (viewport, d->peak_ns));
  at_peak = chrono_memory_painter_dup_tooltip (d, trace, viewport, x);
  peak_text = chrono_format_bytes (d->peak_allocated_bytes);
  g_assert_nonnull (strstr (at_peak, d->label));
  g_assert_true (g_str_has_prefix (strstr (at_peak, "\n") + 1, peak_text));
  g_assert_nonnull (strstr (at_peak, " allocated · "));

  g_assert_cmpuint (d->largest->len, >, 0);
  big = &g_array_index (d->allocations, ChronoMemoryAllocation, g_array_index (d->largest, guint, 0));
  x = floor (chrono_viewport_time_to_x (viewport, big->alloc_ns));
  t0 = chrono_viewport_x_to_time (viewport, x);
  t1 = MAX (chrono_viewport_x_to_time (viewport, x + 1), t0 + 1);
  for (guint k = 0; k < d->allocations->len; k++)
    {
      const ChronoMemoryAllocation *a = &g_array_index (d->allocations, ChronoMemoryAllocation, k);
      if (a->alloc_ns >= t0 && a->alloc_ns < t1 && (want == NULL || a->bytes > want->bytes))
        want = a;
    }
  g_assert_nonnull (want);
  at_alloc = chrono_memory_painter_dup_tooltip (d, trace, viewport, x);
  {
    g_autofree char *bytes = chrono_format_bytes (want->bytes);
    g_autofree char *op = g_markup_escape_text (want->op_name != CHRONO_NO_STRING
                                                ? chrono_trace_get_string (trace, want->op_name)
                                                : "outside any operator", -1);
    want_text = g_strdup_printf ("Allocated here: %s by %s, ", bytes, op);
  }
  g_assert_nonnull (strstr (at_alloc, want_text));

  /* Left of the first event there is nothing to say but that. */
  if (chrono_viewport_time_to_x (viewport, d->point_ns[0]) >= 1)
    {
      before = chrono_memory_painter_dup_tooltip (d, trace, viewport, 0);
      g_assert_nonnull (strstr (before, "Before the first memory event"));
    }
}

/* Ascend's memory counters (KB) drawn as lanes: pixels under their
 * process where the samples are, and none for the DDR counters that
 * never leave zero. */
static void
test_counters (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (COUNTERS);
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  g_autoptr(ChronoTimelineScene) scene = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  guint n_rows = 0;

  if (trace == NULL)
    return;
  scene = scene_for (trace, &analysis, &viewport);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, (int) chrono_timeline_scene_get_height (scene));
  cr = cairo_create (surface);
  chrono_timeline_scene_draw (scene, cr);
  cairo_surface_flush (surface);
  for (guint i = 0; i < chrono_timeline_scene_get_n_rows (scene); i++)
    {
      const ChronoSceneRow *row = chrono_timeline_scene_get_row (scene, i);
      int foot, above;
      guint n_drawn = 0;

      if (row->memory == NULL)
        continue;
      n_rows++;
      g_assert_cmpuint (row->memory->counter_name, !=, CHRONO_NO_STRING);
      g_assert_cmpint (row->memory->peak_allocated_bytes, >, 0);
      g_assert_null (strstr (row->memory->label, "DDR"));
      foot = (int) (chrono_timeline_scene_get_row_top (scene, row) + CHRONO_SCENE_TRACK_PAD + CHRONO_SCENE_MEMORY_HEIGHT - 2);
      above = (int) chrono_timeline_scene_get_row_top (scene, row) + 1;
      for (int x = 30; x < WIDTH - CHRONO_SCENE_HEADER_WIDTH; x++)
        n_drawn += ui_test_pixel (surface, CHRONO_SCENE_HEADER_WIDTH + x, foot) !=
                   ui_test_pixel (surface, CHRONO_SCENE_HEADER_WIDTH + x, above);
      g_assert_cmpuint (n_drawn, >, 10);
    }
  g_assert_cmpuint (n_rows, >, 0);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* Every device the analysis found has a row of its own, under its
 * process: a process with several (Ascend's memory counters, or the host
 * and an accelerator drawn under it) has several rows. */
static void
check_one_row_each (ChronoTrace *trace)
{
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  g_autoptr(ChronoTimelineScene) scene = NULL;
  ChronoMemory * const *memories;
  guint n_memories, n_devices, n_rows = 0, n_shared = 0;

  scene = scene_for (trace, &analysis, &viewport);
  memories = chrono_analysis_get_memories (analysis, &n_memories);
  g_assert_cmpuint (n_memories, ==, 1);
  n_devices = chrono_memory_get_n_devices (memories[0]);
  g_assert_cmpuint (n_devices, >=, 2);
  for (guint d = 0; d < n_devices; d++)
    {
      const ChronoMemoryDevice *device = chrono_memory_get_device (memories[0], d);
      guint found = 0;

      for (guint i = 0; i < chrono_timeline_scene_get_n_rows (scene); i++)
        {
          const ChronoSceneRow *row = chrono_timeline_scene_get_row (scene, i);

          if (row->memory != device)
            continue;
          found++;
          g_assert_cmpuint (row->process, ==, chrono_memory_device_get_process (trace, device));
        }
      g_assert_cmpuint (found, ==, 1);
      for (guint e = 0; e < d; e++)
        n_shared += chrono_memory_device_get_process (trace, device) ==
                    chrono_memory_device_get_process (trace, chrono_memory_get_device (memories[0], e));
    }
  for (guint i = 0; i < chrono_timeline_scene_get_n_rows (scene); i++)
    n_rows += chrono_timeline_scene_get_row (scene, i)->memory != NULL;
  g_assert_cmpuint (n_rows, ==, n_devices);
  g_test_message ("%s: %u memory rows, %u sharing a process", chrono_trace_get_path (trace), n_rows, n_shared);
}

static void
test_one_row_each (void)
{
  /* CPU and cuda:0, the GPU's under its own process. */
  g_autoptr(ChronoTrace) memory = test_traces_load (MEMORY);
  /* Several memory counters under one process. */
  g_autoptr(ChronoTrace) counters = test_traces_load (COUNTERS);

  if (memory != NULL)
    check_one_row_each (memory);
  if (counters != NULL)
    check_one_row_each (counters);
}

/* A Neuron system profile: the host's memory under the instance, and
 * both HBMs of device 0 under that device, a lane each; their categories
 * are counters beside them, no lanes of their own. */
static void
test_neuron_hbm (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (
    "{\"trace_events\":[],"
    "\"mem_usage\":[{\"timestamp\":1700000000000000000,\"instance_id\":\"i-1\",\"usage\":5000000000},"
    "{\"timestamp\":1700000000000100000,\"instance_id\":\"i-1\",\"usage\":5100000000}],"
    "\"device_mem_usage\":["
    "{\"timestamp\":1700000000000000000,\"instance_id\":\"i-1\",\"device_idx\":0,\"hbm_idx\":0,"
    "\"total_bytes\":3000,\"weights_bytes\":2000,\"tensors_bytes\":1000,\"io_bytes\":0},"
    "{\"timestamp\":1700000000000100000,\"instance_id\":\"i-1\",\"device_idx\":0,\"hbm_idx\":0,"
    "\"total_bytes\":4000,\"weights_bytes\":2000,\"tensors_bytes\":2000,\"io_bytes\":0},"
    "{\"timestamp\":1700000000000000000,\"instance_id\":\"i-1\",\"device_idx\":0,\"hbm_idx\":1,"
    "\"weights_bytes\":500,\"tensors_bytes\":700},"
    "{\"timestamp\":1700000000000100000,\"instance_id\":\"i-1\",\"device_idx\":0,\"hbm_idx\":1,"
    "\"weights_bytes\":500,\"tensors_bytes\":100}]}");
  g_autoptr(ChronoAnalysis) analysis = chrono_analysis_run (&trace, 1, NULL, NULL, NULL);
  ChronoMemory * const *memories;
  const ChronoMemoryDevice *hbm0, *hbm1;
  guint n;

  check_one_row_each (trace);
  memories = chrono_analysis_get_memories (analysis, &n);
  g_assert_cmpuint (chrono_memory_get_n_devices (memories[0]), ==, 3);
  hbm0 = test_memory_device_named (memories[0], "Device 0 HBM 0");
  hbm1 = test_memory_device_named (memories[0], "Device 0 HBM 1");
  g_assert_nonnull (hbm0);
  g_assert_nonnull (hbm1);
  g_assert_cmpuint (chrono_memory_device_get_process (trace, hbm0), ==, chrono_memory_device_get_process (trace, hbm1));
  g_assert_cmpstr (chrono_trace_get_string (trace, chrono_trace_get_process (trace, hbm0->host_process)->name), ==,
                   "i-1 · Neuron device 0");
  /* HBM 1 has no total: the sum of its categories. */
  g_assert_cmpint (hbm0->peak_allocated_bytes, ==, 4000);
  g_assert_cmpint (hbm1->peak_allocated_bytes, ==, 1200);
  g_assert_cmpint (hbm1->peak_ns, ==, G_GINT64_CONSTANT (1700000000000000000));
  /* io never above 0: no row of its own. */
  g_assert_cmpuint (hbm0->parts_at_peak->len, ==, 2);
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    g_assert_null (strstr (chrono_trace_get_string (trace, chrono_trace_get_track (trace, t)->name), "· io"));
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
  g_test_add_func ("/memory-track/tooltip", test_tooltip);
  g_test_add_func ("/memory-track/counters", test_counters);
  g_test_add_func ("/memory-track/one-row-each", test_one_row_each);
  g_test_add_func ("/memory-track/neuron-hbm", test_neuron_hbm);
  g_test_add_func ("/memory-track/none", test_none);
  return g_test_run ();
}
