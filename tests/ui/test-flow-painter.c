/* test-flow-painter.c: the flow index (times, windows, spans) and flow
 * arrows as geometry and pixels, and the step bands, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-flow-painter.h"
#include "chrono-loader.h"
#include "chrono-palette.h"
#include "chrono-step-bands.h"
#include "test-utils.h"

#define WIDTH      600
#define HEIGHT     200
#define TRACK_PX   40.0
#define KINETO     "kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz"
#define FLOWS_V1   "perfetto__flow_events_json_v1.json"

/* Three flows between two threads: bound ones forward and with a target
 * that starts inside its source, and a flow event whose target slice
 * starts before its source. */
static const char flows_json[] =
  "{\"traceEvents\":["
  "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"A\",\"ts\":0,\"dur\":10,\"bind_id\":1,\"flow_out\":true},"
  "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"B\",\"ts\":20,\"dur\":10,\"bind_id\":1,\"flow_in\":true},"
  "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"C\",\"ts\":100,\"dur\":100,\"bind_id\":2,\"flow_out\":true},"
  "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"D\",\"ts\":150,\"dur\":10,\"bind_id\":2,\"flow_in\":true},"
  "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"E\",\"ts\":300,\"dur\":10},"
  "{\"ph\":\"s\",\"pid\":1,\"tid\":1,\"name\":\"e\",\"cat\":\"c\",\"id\":3,\"ts\":305},"
  "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"F\",\"ts\":250,\"dur\":150},"
  "{\"ph\":\"f\",\"bp\":\"e\",\"pid\":1,\"tid\":2,\"name\":\"e\",\"cat\":\"c\",\"id\":3,\"ts\":320}"
  "]}";

static ChronoViewport *
viewport_new (gint64 start,
              gint64 end)
{
  ChronoViewport *viewport = chrono_viewport_new ();

  chrono_viewport_set_width_px (viewport, WIDTH);
  chrono_viewport_set_bounds (viewport, start, end);
  chrono_viewport_zoom_to_range (viewport, start, end);
  return viewport;
}

/* Each track one band TRACK_PX high; a span in the middle of it. */
static gboolean
place_by_track (ChronoSpanRef span,
                double       *y,
                gpointer      user_data)
{
  *y = (span.track + 0.5) * TRACK_PX;
  return TRUE;
}

static const ChronoTrack *
span_track (ChronoTrace  *trace,
            ChronoSpanRef ref)
{
  return chrono_trace_get_track (trace, ref.track);
}

static const char *
span_name (ChronoTrace  *trace,
           ChronoSpanRef ref)
{
  return chrono_trace_get_string (trace, chrono_track_get_name (span_track (trace, ref), ref.index));
}

/* The flow whose source span is named NAME. */
static guint
find_flow (ChronoTrace *trace,
           const char  *name)
{
  for (guint i = 0; i < chrono_trace_get_n_flows (trace); i++)
    if (g_str_equal (span_name (trace, chrono_trace_get_flow (trace, i)->from), name))
      return i;
  g_assert_not_reached ();
}

static void
test_times (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (flows_json);
  g_autoptr(ChronoFlowIndex) index = chrono_flow_index_new (trace);
  gint64 base = chrono_trace_get_start_ns (trace);
  gint64 from, to;

  g_assert_cmpuint (chrono_trace_get_n_flows (trace), ==, 3);

  /* Forward: from the source's end to the target's start. */
  chrono_flow_index_get_times (index, find_flow (trace, "A"), &from, &to);
  g_assert_cmpint (from - base, ==, 10000);
  g_assert_cmpint (to - base, ==, 20000);
  /* The target starts inside the source: straight down from there. */
  chrono_flow_index_get_times (index, find_flow (trace, "C"), &from, &to);
  g_assert_cmpint (from - base, ==, 150000);
  g_assert_cmpint (to - base, ==, 150000);
  /* Back in time: from the source's start. */
  g_assert_cmpint (chrono_trace_get_flow (trace, find_flow (trace, "E"))->type, ==, CHRONO_FLOW_V1);
  chrono_flow_index_get_times (index, find_flow (trace, "E"), &from, &to);
  g_assert_cmpint (from - base, ==, 300000);
  g_assert_cmpint (to - base, ==, 250000);
}

static void
collect_cb (guint    flow,
            gpointer user_data)
{
  g_array_append_val ((GArray *) user_data, flow);
}

static int
compare_uint (gconstpointer a,
              gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* The flows that make arrows, worked out the slow way: of flows with
 * the same two ends, the one of the highest type, then the first. */
static GArray *
arrow_flows (ChronoTrace *trace)
{
  g_autoptr(GHashTable) chosen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GArray *flows = g_array_new (FALSE, FALSE, sizeof (guint));
  GHashTableIter iter;
  gpointer value;

  for (guint i = 0; i < chrono_trace_get_n_flows (trace); i++)
    {
      const ChronoFlow *f = chrono_trace_get_flow (trace, i);
      char *key = g_strdup_printf ("%u:%u>%u:%u", f->from.track, f->from.index, f->to.track, f->to.index);
      gpointer old;

      if (g_hash_table_lookup_extended (chosen, key, NULL, &old) &&
          chrono_trace_get_flow (trace, GPOINTER_TO_UINT (old))->type >= f->type)
        {
          g_free (key);
          continue;
        }
      g_hash_table_insert (chosen, key, GUINT_TO_POINTER (i));
    }
  g_hash_table_iter_init (&iter, chosen);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      guint flow = GPOINTER_TO_UINT (value);

      g_array_append_val (flows, flow);
    }
  g_array_sort (flows, compare_uint);
  return flows;
}

/* The window query against a brute-force scan, on random windows of
 * every size; returns how many flows the query looked at in all. */
static guint64
check_windows (ChronoTrace *trace,
               guint        n_windows,
               guint64     *n_found)
{
  g_autoptr(ChronoFlowIndex) index = chrono_flow_index_new (trace);
  gint64 start = chrono_trace_get_start_ns (trace);
  gint64 end = chrono_trace_get_end_ns (trace);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(GArray) arrows = arrow_flows (trace);
  guint64 visited = 0;

  g_assert_cmpuint (chrono_flow_index_get_n_arrows (index), ==, arrows->len);
  *n_found = 0;
  for (guint w = 0; w < n_windows; w++)
    {
      double length = pow (10, g_rand_double_range (rand, 2, log10 (MAX (end - start, 1000)) + 0.2));
      gint64 w0 = start + (gint64) g_rand_double_range (rand, -0.1, 1.0) * (end - start);
      gint64 w1 = w0 + (gint64) length;
      g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (guint));
      g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (guint));

      visited += chrono_flow_index_foreach_in_range (index, w0, w1, collect_cb, got);
      for (guint a = 0; a < arrows->len; a++)
        {
          guint i = g_array_index (arrows, guint, a);
          gint64 from, to;

          chrono_flow_index_get_times (index, i, &from, &to);
          if (MIN (from, to) <= w1 && MAX (from, to) >= w0)
            g_array_append_val (want, i);
        }
      g_array_sort (got, compare_uint);
      g_assert_cmpuint (got->len, ==, want->len);
      g_assert_cmpmem (got->data, got->len * sizeof (guint), want->data, want->len * sizeof (guint));
      *n_found += want->len;
    }
  return visited;
}

static void
test_windows (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (flows_json);
  g_autoptr(ChronoTrace) real = test_traces_load (KINETO);
  g_autoptr(ChronoFlowIndex) index = chrono_flow_index_new (trace);
  g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (guint));
  gint64 base = chrono_trace_get_start_ns (trace);
  guint64 visited, found;

  /* Between A's end and B's start: only A's arrow crosses. */
  chrono_flow_index_foreach_in_range (index, base + 12000, base + 18000, collect_cb, got);
  g_assert_cmpuint (got->len, ==, 1);
  g_assert_cmpuint (g_array_index (got, guint, 0), ==, find_flow (trace, "A"));
  g_array_set_size (got, 0);
  chrono_flow_index_foreach_in_range (index, base + 31000, base + 140000, collect_cb, got);
  g_assert_cmpuint (got->len, ==, 0);

  check_windows (trace, 200, &found);
  if (real == NULL)
    return;
  /* Thousands of flows: the query finds the same ones and looks at few
   * more than it finds. */
  g_assert_cmpuint (chrono_trace_get_n_flows (real), >, 5000);
  visited = check_windows (real, 300, &found);
  g_assert_cmpuint (found, >, 1000);
  g_assert_cmpuint (visited, <, 2 * found + 300 * 64);
}

/* Far out, a pixel column at a time: fewer flows, all from the window,
 * and every column that has flows between two tracks keeps one. */
static void
test_columns (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (KINETO);
  g_autoptr(ChronoFlowIndex) index = NULL;
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) merged = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GHashTable) kept = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gint64 start, end;
  double ns_per_column;

  if (trace == NULL)
    return;
  index = chrono_flow_index_new (trace);
  start = chrono_trace_get_start_ns (trace);
  end = chrono_trace_get_end_ns (trace);
  ns_per_column = (end - start) / 200.0;

  chrono_flow_index_foreach_in_range (index, start, end, collect_cb, all);
  chrono_flow_index_foreach_in_columns (index, start, end, start, ns_per_column, collect_cb, merged);
  g_assert_cmpuint (merged->len, >, 100);
  g_assert_cmpuint (merged->len, <, all->len / 2);

  for (guint pass = 0; pass < 2; pass++)
    {
      GArray *flows = pass == 0 ? merged : all;

      for (guint i = 0; i < flows->len; i++)
        {
          guint flow = g_array_index (flows, guint, i);
          const ChronoFlow *f = chrono_trace_get_flow (trace, flow);
          gint64 from, to;
          g_autofree char *key = NULL;

          chrono_flow_index_get_times (index, flow, &from, &to);
          key = g_strdup_printf ("%u>%u/%d@%.0f", f->from.track, f->to.track, f->type,
                                 floor ((MIN (from, to) - start) / ns_per_column));
          if (pass == 0)
            g_hash_table_add (kept, g_steal_pointer (&key));
          else
            g_assert_true (g_hash_table_contains (kept, key));
        }
    }
}

static void
test_span_flows (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (KINETO);
  g_autoptr(ChronoFlowIndex) index = NULL;
  g_autoptr(GArray) arrows = NULL;
  guint checked = 0;

  if (trace == NULL)
    return;
  index = chrono_flow_index_new (trace);
  arrows = arrow_flows (trace);
  /* Kineto records each launch as a flow event and by correlation id:
   * one arrow each, a launch. */
  g_assert_cmpuint (arrows->len * 2, ==, chrono_trace_get_n_flows (trace));
  for (guint a = 0; a < arrows->len; a++)
    g_assert_cmpint (chrono_trace_get_flow (trace, g_array_index (arrows, guint, a))->type, ==,
                     CHRONO_FLOW_LAUNCH);

  /* Every 97th arrow's two spans: the arrows of each are exactly those
   * a scan finds. */
  for (guint a = 0; a < arrows->len; a += 97)
    for (guint end = 0; end < 2; end++)
      {
        guint i = g_array_index (arrows, guint, a);
        const ChronoFlow *flow = chrono_trace_get_flow (trace, i);
        ChronoSpanRef span = end ? flow->to : flow->from;
        g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (guint));
        guint want = 0;
        gboolean has_i = FALSE;

        chrono_flow_index_get_span_flows (index, span, got);
        for (guint b = 0; b < arrows->len; b++)
          {
            const ChronoFlow *f = chrono_trace_get_flow (trace, g_array_index (arrows, guint, b));

            want += (f->from.track == span.track && f->from.index == span.index) +
                    (f->to.track == span.track && f->to.index == span.index);
          }
        for (guint k = 0; k < got->len; k++)
          has_i |= g_array_index (got, guint, k) == i;
        g_assert_cmpuint (got->len, ==, want);
        g_assert_true (has_i);
        checked++;
      }
  g_assert_cmpuint (checked, >, 80);
}

/* -------------------------------------------------------------------- */
/* Arrows                                                               */

static cairo_surface_t *
draw (GskRenderNode *node,
      gboolean       dark)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);

  if (dark)
    cairo_set_source_rgb (cr, 0.12, 0.12, 0.12);
  else
    cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  if (node != NULL)
    gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* How far the pixel at (X, Y) is from COLOR, 0 to 3 * 255. */
static int
pixel_distance (cairo_surface_t *surface,
                int              x,
                int              y,
                const GdkRGBA   *color)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 pixel = *(const guint32 *) (data + y * cairo_image_surface_get_stride (surface) + x * 4);

  return abs ((int) ((pixel >> 16) & 0xff) - (int) round (color->red * 255)) +
         abs ((int) ((pixel >> 8) & 0xff) - (int) round (color->green * 255)) +
         abs ((int) (pixel & 0xff) - (int) round (color->blue * 255));
}

/* Whether a pixel within 1 px of (X, Y) has COLOR. */
static gboolean
has_color_near (cairo_surface_t *surface,
                double           x,
                double           y,
                const GdkRGBA   *color,
                int              tolerance)
{
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      {
        int px = (int) floor (x) + dx, py = (int) floor (y) + dy;

        if (px >= 0 && py >= 0 && px < WIDTH && py < HEIGHT &&
            pixel_distance (surface, px, py, color) <= tolerance)
          return TRUE;
      }
  return FALSE;
}

/* Whether a pixel of row Y between X0 and X1 has COLOR. */
static gboolean
has_color_in_row (cairo_surface_t *surface,
                  double           y,
                  double           x0,
                  double           x1,
                  const GdkRGBA   *color,
                  int              tolerance)
{
  for (int x = (int) floor (x0); x <= (int) ceil (x1); x++)
    if (pixel_distance (surface, x, (int) y, color) <= tolerance)
      return TRUE;
  return FALSE;
}

static guint
count_color (cairo_surface_t *surface,
             const GdkRGBA   *color,
             int              tolerance)
{
  guint n = 0;

  for (int y = 0; y < HEIGHT; y++)
    for (int x = 0; x < WIDTH; x++)
      n += pixel_distance (surface, x, y, color) <= tolerance;
  return n;
}

/* Pixels more red than green: launch arrows, faint, over white. */
static guint
count_tinted (cairo_surface_t *surface)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint n = 0;

  for (int y = 0; y < HEIGHT; y++)
    for (int x = 0; x < WIDTH; x++)
      {
        guint32 pixel = *(const guint32 *) (data + y * cairo_image_surface_get_stride (surface) + x * 4);

        n += (int) ((pixel >> 16) & 0xff) - (int) ((pixel >> 8) & 0xff) > 30;
      }
  return n;
}

static void
test_geometry_and_pixels (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (flows_json);
  g_autoptr(ChronoFlowIndex) index = chrono_flow_index_new (trace);
  g_autoptr(ChronoFlowPainter) painter = chrono_flow_painter_new (index);
  gint64 base = chrono_trace_get_start_ns (trace);
  g_autoptr(ChronoViewport) viewport = viewport_new (base, base + 600000);
  guint flow = find_flow (trace, "A");
  const ChronoFlow *f = chrono_trace_get_flow (trace, flow);
  ChronoFlowArrow arrow;

  g_assert_true (chrono_flow_painter_get_arrow (painter, viewport, flow, place_by_track, NULL, &arrow));
  /* 600 µs over 600 px: A ends at 10 px, B starts at 20 px. */
  g_assert_cmpfloat_with_epsilon (arrow.x0, 10.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (arrow.x1, 20.0, 1e-6);
  g_assert_cmpfloat (arrow.y0, ==, (f->from.track + 0.5) * TRACK_PX);
  g_assert_cmpfloat (arrow.y1, ==, (f->to.track + 0.5) * TRACK_PX);
  g_assert_cmpint (arrow.type, ==, CHRONO_FLOW_V2);

  for (int dark = 0; dark <= 1; dark++)
    {
      g_autoptr(GskRenderNode) node = NULL;
      cairo_surface_t *surface;
      GdkRGBA color;
      guint flows[1];

      chrono_flow_painter_set_dark (painter, dark);
      chrono_palette_flow_color (CHRONO_FLOW_V2, dark, &color);
      /* Zoomed so the arrow from C (straight down at 150 µs) is long. */
      chrono_viewport_zoom_to_range (viewport, base + 100000, base + 200000);
      flows[0] = find_flow (trace, "C");
      g_assert_true (chrono_flow_painter_get_arrow (painter, viewport, flows[0], place_by_track, NULL, &arrow));
      g_assert_cmpfloat_with_epsilon (arrow.x0, 300.0, 1e-6);
      g_assert_cmpfloat_with_epsilon (arrow.x1, 300.0, 1e-6);

      node = chrono_flow_painter_paint_flows (painter, viewport, flows, 1, place_by_track, NULL, HEIGHT);
      g_assert_nonnull (node);
      surface = draw (node, dark);
      /* The line leaves its source and its head touches the target's
       * start, both in the flow colour; the middle of the curve is
       * halfway between the rows. */
      g_assert_true (has_color_near (surface, arrow.x0 + 2, arrow.y0, &color, 60));
      g_assert_true (has_color_near (surface, arrow.x1 - 2, arrow.y1, &color, 60));
      g_assert_true (has_color_in_row (surface, (arrow.y0 + arrow.y1) / 2,
                                       arrow.x1 - CHRONO_FLOW_PAINTER_HEAD_PX, arrow.x0, &color, 60));
      /* Far from the arrow, only background. */
      g_assert_false (has_color_near (surface, 100, arrow.y1, &color, 60));
      /* The head: filled, wider than the line. */
      for (int dy = -2; dy <= 2; dy++)
        g_assert_true (has_color_near (surface, arrow.x1 - 4, arrow.y1 + dy, &color, 90));
      cairo_surface_destroy (surface);
    }
}

/* Ends the caller does not draw leave the arrow out; ends far off the
 * window clip at its edges. */
static gboolean
place_first_track_only (ChronoSpanRef span,
                        double       *y,
                        gpointer      user_data)
{
  *y = 20;
  return span.track == GPOINTER_TO_UINT (user_data);
}

static void
test_clipping (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (flows_json);
  g_autoptr(ChronoFlowIndex) index = chrono_flow_index_new (trace);
  g_autoptr(ChronoFlowPainter) painter = chrono_flow_painter_new (index);
  gint64 base = chrono_trace_get_start_ns (trace);
  g_autoptr(ChronoViewport) viewport = viewport_new (base, base + 600000);
  g_autoptr(GskRenderNode) node = NULL;
  guint flow = find_flow (trace, "A");
  const ChronoFlow *f = chrono_trace_get_flow (trace, flow);
  cairo_surface_t *surface;
  ChronoFlowArrow arrow;
  GdkRGBA color;

  g_assert_false (chrono_flow_painter_get_arrow (painter, viewport, flow, place_first_track_only,
                                                 GUINT_TO_POINTER (f->from.track), &arrow));
  node = chrono_flow_painter_paint_flows (painter, viewport, &flow, 1, place_first_track_only,
                                          GUINT_TO_POINTER (f->from.track), HEIGHT);
  g_assert_null (node);

  /* Zoomed deep into the middle of A's arrow (10 to 20 µs): the curve
   * crosses the whole width, its ends far outside. */
  chrono_viewport_zoom_to_range (viewport, base + 14990, base + 15010);
  g_assert_true (chrono_flow_painter_get_arrow (painter, viewport, flow, place_by_track, NULL, &arrow));
  g_assert_cmpfloat (arrow.x0, <, -1e5);
  g_assert_cmpfloat (arrow.x1, >, 1e5);
  node = chrono_flow_painter_paint_flows (painter, viewport, &flow, 1, place_by_track, NULL, HEIGHT);
  g_assert_nonnull (node);
  surface = draw (node, FALSE);
  chrono_palette_flow_color (CHRONO_FLOW_V2, FALSE, &color);
  g_assert_cmpuint (count_color (surface, &color, 60), >, WIDTH / 2);
  cairo_surface_destroy (surface);
  g_clear_pointer (&node, gsk_render_node_unref);

  /* Both rows below the area: nothing to draw. */
  node = chrono_flow_painter_paint_flows (painter, viewport, &flow, 1, place_by_track, NULL, 5);
  g_assert_null (node);
}

/* All flows of a window on a real trace: at full zoom thousands land on
 * few pixels and are drawn once each; zoomed in, fewer flows, and the
 * arrows drawn are those the window crosses. */
static void
test_range (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (KINETO);
  g_autoptr(ChronoFlowIndex) index = NULL;
  g_autoptr(ChronoFlowPainter) painter = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  g_autoptr(GskRenderNode) full = NULL;
  g_autoptr(GskRenderNode) zoomed = NULL;
  cairo_surface_t *surface;
  gint64 start, end, from, to;
  guint n_full, n_zoomed;

  if (trace == NULL)
    return;
  index = chrono_flow_index_new (trace);
  painter = chrono_flow_painter_new (index);
  start = chrono_trace_get_start_ns (trace);
  end = chrono_trace_get_end_ns (trace);
  viewport = viewport_new (start, end);

  full = chrono_flow_painter_paint_range (painter, viewport, place_by_track, NULL, HEIGHT, &n_full);
  g_assert_nonnull (full);
  g_assert_cmpuint (n_full, >, 0);
  /* Launch arrows between two rows, at most a few per pixel column. */
  g_assert_cmpuint (n_full, <, chrono_trace_get_n_flows (trace) / 4);

  /* So many they are drawn faint: tinted crimson over white. */
  surface = draw (full, FALSE);
  g_assert_cmpuint (count_tinted (surface), >, 1000);
  cairo_surface_destroy (surface);

  /* 200 µs around a flow in the middle of the trace. */
  chrono_flow_index_get_times (index, chrono_trace_get_n_flows (trace) / 2, &from, &to);
  chrono_viewport_zoom_to_range (viewport, from - 100000, from + 100000);
  zoomed = chrono_flow_painter_paint_range (painter, viewport, place_by_track, NULL, HEIGHT, &n_zoomed);
  g_assert_cmpuint (n_zoomed, >, 0);
  g_assert_cmpuint (n_zoomed, <, n_full);
  surface = draw (zoomed, FALSE);
  g_assert_cmpuint (count_tinted (surface), >, 20);
  cairo_surface_destroy (surface);
}

/* -------------------------------------------------------------------- */
/* Steps                                                                */

static void
test_steps (void)
{
  /* Thread 1 has three steps, thread 2 one, which overlaps them: the
   * bands follow thread 1. */
  g_autoptr(ChronoTrace) trace = test_load_json (
    "{\"traceEvents\":["
    "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#4\",\"ts\":0,\"dur\":100},"
    "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"ts\":10,\"dur\":20},"
    "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#5\",\"ts\":100,\"dur\":100},"
    "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#6\",\"ts\":250,\"dur\":50},"
    "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#9\",\"ts\":50,\"dur\":100}"
    "],\"displayTimeUnit\":\"ms\"}");
  g_autoptr(ChronoStepBands) steps = chrono_step_bands_new (trace);
  gint64 base = chrono_trace_get_start_ns (trace);
  g_autoptr(ChronoViewport) viewport = viewport_new (base, base + 300000);
  g_autoptr(GskRenderNode) node = NULL;
  const GdkRGBA fill = { 0, 0, 0, 1 };
  cairo_surface_t *surface;
  guint first;

  g_assert_cmpuint (chrono_step_bands_get_n_bands (steps), ==, 3);
  g_assert_cmpint (chrono_step_bands_get_band (steps, 0)->start_ns - base, ==, 0);
  g_assert_cmpint (chrono_step_bands_get_band (steps, 1)->end_ns - base, ==, 200000);
  g_assert_cmpint (chrono_step_bands_get_band (steps, 2)->start_ns - base, ==, 250000);
  g_assert_cmpstr (chrono_trace_get_string (trace, chrono_step_bands_get_band (steps, 2)->name), ==,
                   "ProfilerStep#6");

  /* Windows: all, only the second, the gap between the second and third. */
  g_assert_cmpuint (chrono_step_bands_get_visible (steps, viewport, &first), ==, 3);
  g_assert_cmpuint (first, ==, 0);
  chrono_viewport_zoom_to_range (viewport, base + 120000, base + 180000);
  g_assert_cmpuint (chrono_step_bands_get_visible (steps, viewport, &first), ==, 1);
  g_assert_cmpuint (first, ==, 1);
  chrono_viewport_zoom_to_range (viewport, base + 210000, base + 240000);
  g_assert_cmpuint (chrono_step_bands_get_visible (steps, viewport, &first), ==, 0);

  /* Pixels: every other step filled, from the first; 300 µs on 600 px. */
  chrono_viewport_zoom_to_range (viewport, base, base + 300000);
  node = chrono_step_bands_paint (steps, viewport, HEIGHT, &fill, NULL);
  g_assert_nonnull (node);
  surface = draw (node, FALSE);
  g_assert_cmpint (pixel_distance (surface, 100, 50, &fill), ==, 0);    /* step 4 */
  g_assert_cmpint (pixel_distance (surface, 300, 50, &fill), >, 600);   /* step 5 */
  g_assert_cmpint (pixel_distance (surface, 450, 50, &fill), >, 600);   /* gap */
  g_assert_cmpint (pixel_distance (surface, 550, 50, &fill), ==, 0);    /* step 6 */
  cairo_surface_destroy (surface);

  /* Steps under 4 px wide would stripe the view: none is drawn. */
  chrono_viewport_set_width_px (viewport, 6);
  chrono_viewport_show_all (viewport);
  g_assert_cmpuint (chrono_step_bands_get_visible (steps, viewport, &first), ==, 3);
  g_assert_null (chrono_step_bands_paint (steps, viewport, HEIGHT, &fill, &fill));
}

/* The bands as tall rectangles, blended one by one: what the painter's
 * repeated line of them must look like. */
static GskRenderNode *
bands_as_rectangles (ChronoStepBands *steps,
                     ChronoViewport  *viewport,
                     const GdkRGBA   *fill,
                     const GdkRGBA   *line)
{
  g_autoptr(GPtrArray) nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
  guint first, n = chrono_step_bands_get_visible (steps, viewport, &first);

  for (guint i = first; i < first + n; i++)
    {
      const ChronoStepBand *band = chrono_step_bands_get_band (steps, i);
      double x0 = round (CLAMP (chrono_viewport_time_to_x (viewport, band->start_ns), -1, WIDTH + 1));
      double x1 = round (CLAMP (chrono_viewport_time_to_x (viewport, band->end_ns), -1, WIDTH + 1));

      if (x1 - x0 < 4)
        continue;
      if (i % 2 == 0)
        g_ptr_array_add (nodes, gsk_color_node_new (fill, &GRAPHENE_RECT_INIT (x0, 0, x1 - x0, HEIGHT)));
      if (x0 >= 0 && x0 < WIDTH)
        g_ptr_array_add (nodes, gsk_color_node_new (line, &GRAPHENE_RECT_INIT (x0, 0, 1, HEIGHT)));
    }
  return gsk_container_node_new ((GskRenderNode **) nodes->pdata, nodes->len);
}

/* Hundreds of steps 2 to 12 px wide, in the faint colours of the
 * timeline: drawn as a repeated line, the same pixels as tall
 * rectangles blended one by one, give or take the rounding of one
 * blend where a line meets a band. Zoomed in, few show: rectangles. */
static void
test_steps_as_rectangles (void)
{
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[");
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoStepBands) steps = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  const GdkRGBA fill = { 0.1, 0.1, 0.2, 0.035 }, line = { 0.1, 0.1, 0.2, 0.12 };
  double ts = 0;

  for (guint i = 0; i < 120; i++)
    {
      double dur = g_rand_double_range (rand, 4, 24);

      g_string_append_printf (json, "%s{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"cat\":\"user_annotation\","
                              "\"name\":\"ProfilerStep#%u\",\"ts\":%.3f,\"dur\":%.3f}",
                              i > 0 ? "," : "", i, ts, dur);
      ts += dur + (i % 7 == 0 ? 10 : 0);
    }
  g_string_append (json, "]}");
  trace = test_load_json (json->str);
  steps = chrono_step_bands_new (trace);
  viewport = viewport_new (chrono_trace_get_start_ns (trace), chrono_trace_get_end_ns (trace));

  for (guint zoom = 0; zoom < 3; zoom++)
    {
      g_autoptr(GskRenderNode) node = NULL;
      g_autoptr(GskRenderNode) reference = NULL;
      cairo_surface_t *got, *want;
      const guint8 *a, *b;
      int stride;
      guint shaded = 0;

      if (zoom == 2)
        chrono_viewport_zoom (viewport, 4, WIDTH / 3.0);
      node = chrono_step_bands_paint (steps, viewport, HEIGHT, &fill, &line);
      reference = bands_as_rectangles (steps, viewport, &fill, &line);
      got = draw (node, FALSE);
      want = draw (reference, FALSE);
      a = cairo_image_surface_get_data (got);
      b = cairo_image_surface_get_data (want);
      stride = cairo_image_surface_get_stride (got);

      g_assert_nonnull (node);
      g_assert_cmpint (gsk_render_node_get_node_type (node), ==,
                       zoom < 2 ? GSK_REPEAT_NODE : GSK_CONTAINER_NODE);
      for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < WIDTH * 4; x++)
          {
            int d = abs ((int) a[y * stride + x] - (int) b[y * stride + x]);

            g_assert_cmpint (d, <=, 1);
            shaded += x % 4 == 0 && a[y * stride + x] != 0xff;
          }
      g_assert_cmpuint (shaded, >, WIDTH * HEIGHT / 4);
      cairo_surface_destroy (got);
      cairo_surface_destroy (want);
      chrono_viewport_zoom (viewport, 1.5, WIDTH / 3.0);
    }
}

static void
test_steps_fallback (void)
{
  /* No host steps: GPU annotations named as steps stand in; without
   * those, no bands. */
  g_autoptr(ChronoTrace) gpu = test_load_json (
    "{\"traceEvents\":["
    "{\"ph\":\"X\",\"pid\":0,\"tid\":7,\"cat\":\"gpu_user_annotation\",\"name\":\"ProfilerStep#1\",\"ts\":0,\"dur\":100},"
    "{\"ph\":\"X\",\"pid\":0,\"tid\":7,\"cat\":\"gpu_user_annotation\",\"name\":\"ProfilerStep#2\",\"ts\":100,\"dur\":100},"
    "{\"ph\":\"X\",\"pid\":0,\"tid\":7,\"cat\":\"kernel\",\"name\":\"gemm\",\"ts\":10,\"dur\":10}"
    "]}");
  g_autoptr(ChronoTrace) none = test_load_json (flows_json);
  g_autoptr(ChronoStepBands) gpu_steps = chrono_step_bands_new (gpu);
  g_autoptr(ChronoStepBands) no_steps = chrono_step_bands_new (none);

  g_assert_cmpuint (chrono_step_bands_get_n_bands (gpu_steps), ==, 2);
  g_assert_cmpuint (chrono_step_bands_get_n_bands (no_steps), ==, 0);
}

static void
test_steps_real (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (KINETO);
  g_autoptr(ChronoStepBands) steps = NULL;
  guint n;

  if (trace == NULL)
    return;
  steps = chrono_step_bands_new (trace);
  n = chrono_step_bands_get_n_bands (steps);
  g_assert_cmpuint (n, ==, 6);
  for (guint i = 0; i < n; i++)
    {
      const ChronoStepBand *band = chrono_step_bands_get_band (steps, i);
      g_autofree char *name = g_strdup_printf ("ProfilerStep#%u", 5 + i);

      g_assert_cmpstr (chrono_trace_get_string (trace, band->name), ==, name);
      g_assert_cmpint (band->end_ns, >, band->start_ns);
      if (i > 0)
        g_assert_cmpint (band->start_ns, >=, chrono_step_bands_get_band (steps, i - 1)->end_ns);
    }
}

static void
test_real_v1 (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (FLOWS_V1);
  g_autoptr(ChronoFlowIndex) index = NULL;
  g_autoptr(ChronoFlowPainter) painter = NULL;
  g_autoptr(ChronoViewport) viewport = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  guint n_arrows;

  if (trace == NULL)
    return;
  index = chrono_flow_index_new (trace);
  painter = chrono_flow_painter_new (index);
  viewport = viewport_new (chrono_trace_get_start_ns (trace), chrono_trace_get_end_ns (trace));
  /* Perfetto's own example: SenderB -> Blergh, SenderA -> OtherSlice ->
   * SomeSlice, all flow events of the first version. */
  g_assert_cmpuint (chrono_trace_get_n_flows (trace), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpint (chrono_trace_get_flow (trace, i)->type, ==, CHRONO_FLOW_V1);
  node = chrono_flow_painter_paint_range (painter, viewport, place_by_track, NULL,
                                          chrono_trace_get_n_tracks (trace) * TRACK_PX, &n_arrows);
  g_assert_nonnull (node);
  g_assert_cmpuint (n_arrows, ==, 3);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/flow-index/times", test_times);
  g_test_add_func ("/flow-index/windows", test_windows);
  g_test_add_func ("/flow-index/columns", test_columns);
  g_test_add_func ("/flow-index/span-flows", test_span_flows);
  g_test_add_func ("/flow-painter/geometry-and-pixels", test_geometry_and_pixels);
  g_test_add_func ("/flow-painter/clipping", test_clipping);
  g_test_add_func ("/flow-painter/range", test_range);
  g_test_add_func ("/flow-painter/real-v1", test_real_v1);
  g_test_add_func ("/step-bands/bands", test_steps);
  g_test_add_func ("/step-bands/as-rectangles", test_steps_as_rectangles);
  g_test_add_func ("/step-bands/fallback", test_steps_fallback);
  g_test_add_func ("/step-bands/real", test_steps_real);

  return g_test_run ();
}
