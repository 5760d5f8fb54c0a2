/* test-viewport.c: time-to-pixel mapping, zoom, pan, clamping and
 * notifications
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "chrono-viewport.h"

/* 2024-12-16 in ns: doubles there are 256 ns apart. */
#define EPOCH_NS G_GINT64_CONSTANT (1734333959126914925)
#define HOUR_NS  G_GINT64_CONSTANT (3600000000000)

static ChronoViewport *
new_viewport (gint64 start,
              gint64 end,
              int    width)
{
  ChronoViewport *viewport = chrono_viewport_new ();

  chrono_viewport_set_width_px (viewport, width);
  chrono_viewport_set_bounds (viewport, start, end);
  return viewport;
}

static void
test_show_all (void)
{
  g_autoptr(ChronoViewport) viewport = new_viewport (EPOCH_NS, EPOCH_NS + HOUR_NS, 1600);

  /* A viewport that never had a window shows its bounds. */
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, EPOCH_NS);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), ==, EPOCH_NS + HOUR_NS);
  g_assert_cmpfloat (chrono_viewport_time_to_x (viewport, EPOCH_NS), ==, 0);
  g_assert_cmpfloat_with_epsilon (chrono_viewport_time_to_x (viewport, EPOCH_NS + HOUR_NS), 1600, 1e-9);

  chrono_viewport_zoom_to_range (viewport, EPOCH_NS + 5, EPOCH_NS + 105);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, EPOCH_NS + 5);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), ==, EPOCH_NS + 105);
  g_assert_cmpfloat (chrono_viewport_get_px_per_ns (viewport), ==, 16);

  chrono_viewport_show_all (viewport);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, EPOCH_NS);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), ==, EPOCH_NS + HOUR_NS);
}

/* Epoch-scale times survive time -> x -> time at every zoom, down to
 * the nanosecond, and x -> time -> x stays within half a nanosecond. */
static void
test_round_trip (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  g_autoptr(ChronoViewport) viewport = new_viewport (EPOCH_NS, EPOCH_NS + HOUR_NS, 1600);
  gint64 durations[] = { 10, 1000, 123457, 1000000000, HOUR_NS };

  for (guint d = 0; d < G_N_ELEMENTS (durations); d++)
    for (guint k = 0; k < 200; k++)
      {
        gint64 start = EPOCH_NS + (gint64) g_rand_double_range (rand, 0, HOUR_NS - durations[d]);
        gint64 t = start + (gint64) g_rand_double_range (rand, 0, durations[d]);
        double x = g_rand_double_range (rand, 0, 1600);
        double px_per_ns, x_of_t;
        gint64 t_of_x;

        chrono_viewport_zoom_to_range (viewport, start, start + durations[d]);
        px_per_ns = chrono_viewport_get_px_per_ns (viewport);
        g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, start);
        x_of_t = chrono_viewport_time_to_x (viewport, t);
        t_of_x = chrono_viewport_x_to_time (viewport, x);
        g_assert_cmpint (chrono_viewport_x_to_time (viewport, x_of_t), ==, t);
        g_assert_cmpfloat (fabs (chrono_viewport_time_to_x (viewport, t_of_x) - x),
                           <=, 0.5 * px_per_ns + 1e-9);
      }
}

/* Zooming keeps the time under the anchor where it was, at epoch scale,
 * as long as the window need not move back inside the bounds. */
static void
test_zoom_anchor (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(ChronoViewport) viewport = new_viewport (EPOCH_NS, EPOCH_NS + HOUR_NS, 1600);

  gint64 middle = EPOCH_NS + HOUR_NS / 2;
  guint checked = 0;

  chrono_viewport_zoom_to_range (viewport, middle, middle + 1000000000);
  for (guint k = 0; k < 400; k++)
    {
      double anchor = g_rand_double_range (rand, 0, 1600);
      double factor = g_rand_double_range (rand, 1.01, 4);
      double before = chrono_viewport_get_duration (viewport);
      gint64 t = chrono_viewport_x_to_time (viewport, anchor);
      double x_before = chrono_viewport_time_to_x (viewport, t);
      double after;

      if (g_rand_boolean (rand))
        factor = 1 / factor;
      chrono_viewport_zoom (viewport, factor, anchor);
      after = chrono_viewport_get_duration (viewport);

      if (after > CHRONO_VIEWPORT_MIN_DURATION_NS
          && chrono_viewport_get_start_ns (viewport) > EPOCH_NS
          && chrono_viewport_get_end_ns (viewport) < EPOCH_NS + HOUR_NS)
        {
          /* T was x_before - anchor px from the anchor; zooming scales
           * that distance and nothing else, to a thousandth of a ns (the
           * precision of a double half an hour from the origin), from
           * 16 px per ns to minutes across the window. */
          g_assert_cmpfloat_with_epsilon (after, before / factor, 1e-3 + before * 1e-12);
          g_assert_cmpfloat_with_epsilon (chrono_viewport_time_to_x (viewport, t) - anchor,
                                          (x_before - anchor) * factor,
                                          1e-3 * chrono_viewport_get_px_per_ns (viewport) + 1e-9);
          checked++;
        }
      if (after < 100 || after > HOUR_NS / 8)
        chrono_viewport_zoom_to_range (viewport, middle, middle + 1000000000);
    }
  g_assert_cmpuint (checked, >, 300);
}

static void
test_clamp (void)
{
  g_autoptr(ChronoViewport) viewport = new_viewport (EPOCH_NS, EPOCH_NS + 1000000, 1000);

  /* Zooming out stops at the bounds. */
  chrono_viewport_zoom (viewport, 0.01, 300);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, EPOCH_NS);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), ==, EPOCH_NS + 1000000);

  /* Zooming in stops at the minimum duration. */
  chrono_viewport_zoom (viewport, 1e9, 500);
  g_assert_cmpfloat (chrono_viewport_get_duration (viewport), ==, CHRONO_VIEWPORT_MIN_DURATION_NS);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==,
                   EPOCH_NS + 500000 - CHRONO_VIEWPORT_MIN_DURATION_NS / 2);

  /* Panning keeps the duration and stops at either end. */
  chrono_viewport_zoom_to_range (viewport, EPOCH_NS + 1000, EPOCH_NS + 2000);
  chrono_viewport_pan (viewport, 500);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, EPOCH_NS + 1500);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), ==, EPOCH_NS + 2500);
  chrono_viewport_pan (viewport, -1e9);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, EPOCH_NS);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), ==, EPOCH_NS + 1000);
  chrono_viewport_pan (viewport, 1e9);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, EPOCH_NS + 999000);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), ==, EPOCH_NS + 1000000);

  /* A range past the bounds moves inside them, or shrinks to them. */
  chrono_viewport_zoom_to_range (viewport, EPOCH_NS + 999500, EPOCH_NS + 1000500);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, EPOCH_NS + 999000);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), ==, EPOCH_NS + 1000000);
  chrono_viewport_zoom_to_range (viewport, EPOCH_NS + 2000, EPOCH_NS - 5000000);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, EPOCH_NS);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), ==, EPOCH_NS + 1000000);

  /* Properties set one end at a time. */
  g_object_set (viewport, "start-ns", EPOCH_NS + 10, NULL);
  g_object_set (viewport, "end-ns", EPOCH_NS + 20, NULL);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, EPOCH_NS + 10);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), ==, EPOCH_NS + 20);

  /* New bounds pull the window in. */
  chrono_viewport_set_bounds (viewport, EPOCH_NS + 100, EPOCH_NS + 200);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, EPOCH_NS + 100);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), ==, EPOCH_NS + 110);
}

/* Without bounds, nothing clamps but the minimum duration. */
static void
test_unbounded (void)
{
  g_autoptr(ChronoViewport) viewport = chrono_viewport_new ();

  chrono_viewport_set_width_px (viewport, 100);
  chrono_viewport_zoom_to_range (viewport, EPOCH_NS, EPOCH_NS + 1000);
  chrono_viewport_zoom (viewport, 0.001, 0);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, EPOCH_NS);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), ==, EPOCH_NS + 1000000);
  chrono_viewport_pan (viewport, -100);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, EPOCH_NS - 1000000);
  g_assert_cmpint (chrono_viewport_x_to_time (viewport, 50), ==, EPOCH_NS - 500000);
}

/* Set through its properties alone, a viewport still keeps every ns. */
static void
test_properties (void)
{
  g_autoptr(ChronoViewport) viewport = NULL;

  viewport = g_object_new (CHRONO_TYPE_VIEWPORT,
                           "width-px", 1000,
                           "start-ns", EPOCH_NS + 1,
                           "end-ns", EPOCH_NS + 1001,
                           NULL);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, EPOCH_NS + 1);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), ==, EPOCH_NS + 1001);
  g_assert_cmpfloat (chrono_viewport_time_to_x (viewport, EPOCH_NS + 2), ==, 1);
  g_assert_cmpint (chrono_viewport_x_to_time (viewport, 999), ==, EPOCH_NS + 1000);
}

typedef struct {
  guint start;
  guint end;
  guint width;
  guint changed;
} Counts;

static void
on_notify (GObject    *object,
           GParamSpec *pspec,
           Counts     *counts)
{
  if (g_str_equal (pspec->name, "start-ns"))
    counts->start++;
  else if (g_str_equal (pspec->name, "end-ns"))
    counts->end++;
  else if (g_str_equal (pspec->name, "width-px"))
    counts->width++;
}

static void
on_changed (ChronoViewport *viewport,
            Counts         *counts)
{
  counts->changed++;
}

/* Notifications only on change, and one "changed" per change. */
static void
test_notify (void)
{
  g_autoptr(ChronoViewport) viewport = new_viewport (0, 1000000, 100);
  Counts counts = { 0 };

  g_signal_connect (viewport, "notify", G_CALLBACK (on_notify), &counts);
  g_signal_connect (viewport, "changed", G_CALLBACK (on_changed), &counts);

  chrono_viewport_set_width_px (viewport, 100);
  g_object_set (viewport, "width-px", 100, NULL);
  chrono_viewport_show_all (viewport);
  g_assert_cmpuint (counts.width + counts.start + counts.end + counts.changed, ==, 0);

  chrono_viewport_set_width_px (viewport, 200);
  g_assert_cmpuint (counts.width, ==, 1);
  g_assert_cmpuint (counts.changed, ==, 1);

  chrono_viewport_zoom_to_range (viewport, 0, 500);
  g_assert_cmpuint (counts.start, ==, 0);
  g_assert_cmpuint (counts.end, ==, 1);
  g_assert_cmpuint (counts.changed, ==, 2);

  chrono_viewport_pan (viewport, 10);
  g_assert_cmpuint (counts.start, ==, 1);
  g_assert_cmpuint (counts.end, ==, 2);
  g_assert_cmpuint (counts.changed, ==, 3);

  /* A quarter of a nanosecond: the window [25, 525] becomes
   * [25.25, 525.25], shown as [25, 526]; another quarter moves no
   * property, but the picture still moves. */
  chrono_viewport_pan (viewport, 0.1);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), ==, 25);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), ==, 526);
  g_assert_cmpuint (counts.start, ==, 1);
  g_assert_cmpuint (counts.end, ==, 3);
  g_assert_cmpuint (counts.changed, ==, 4);
  chrono_viewport_pan (viewport, 0.1);
  g_assert_cmpuint (counts.start, ==, 1);
  g_assert_cmpuint (counts.end, ==, 3);
  g_assert_cmpuint (counts.changed, ==, 5);
  g_assert_cmpfloat (chrono_viewport_time_to_x (viewport, 26), ==, 0.2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viewport/show-all", test_show_all);
  g_test_add_func ("/viewport/round-trip", test_round_trip);
  g_test_add_func ("/viewport/zoom-anchor", test_zoom_anchor);
  g_test_add_func ("/viewport/clamp", test_clamp);
  g_test_add_func ("/viewport/unbounded", test_unbounded);
  g_test_add_func ("/viewport/properties", test_properties);
  g_test_add_func ("/viewport/notify", test_notify);

  return g_test_run ();
}
