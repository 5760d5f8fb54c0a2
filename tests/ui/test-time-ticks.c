/* test-time-ticks.c: 1-2-5 steps, labels that never overlap, units
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-time-ticks.h"

#define EPOCH_NS G_GINT64_CONSTANT (1734333959126914925)
#define GAP_PX   8.0

/* A monospace font of CHAR_PX per character ("µ" and "−" count once). */
static double
measure (const char *text,
         gpointer    user_data)
{
  return g_utf8_strlen (text, -1) * *(const double *) user_data;
}

static gint64
mantissa (gint64 step)
{
  while (step >= 10 && step % 10 == 0)
    step /= 10;
  return step;
}

/* The step just below STEP on the ladder, 0 below 1 ns. */
static gint64
ladder_below (gint64 step)
{
  if (step == 1)
    return 0;
  return mantissa (step) == 5 ? step * 2 / 5 : step / 2;
}

static gboolean
is_1_2_5 (gint64 step)
{
  gint64 m = mantissa (step);

  return m == 1 || m == 2 || m == 5;
}

static void
test_ladder (void)
{
  gint64 previous = 0;

  for (double ns = 0.3; ns < 1e16; ns *= 1.37)
    {
      gint64 step = chrono_ticks_step_at_least (ns);

      g_assert_true (is_1_2_5 (step));
      g_assert_cmpfloat ((double) step, >=, MAX (ns, 1));
      /* The step before it on the ladder is too small. */
      g_assert_cmpfloat ((double) ladder_below (step), <, MAX (ns, 1));
      g_assert_cmpint (step, >=, previous);
      previous = step;
    }
  g_assert_cmpint (chrono_ticks_step_at_least (1), ==, 1);
  g_assert_cmpint (chrono_ticks_step_at_least (1.5), ==, 2);
  g_assert_cmpint (chrono_ticks_step_at_least (2.5), ==, 5);
  g_assert_cmpint (chrono_ticks_step_at_least (6), ==, 10);
  g_assert_cmpint (chrono_ticks_step_at_least (1e9), ==, 1000000000);
  g_assert_cmpint (chrono_ticks_step_at_least (1e9 + 1), ==, 2000000000);
}

static void
test_format (void)
{
  struct {
    gint64 offset, magnitude, step;
    const char *text;
  } cases[] = {
    { 0, 1000000, 1000, "0" },
    { 1250000, 2000000, 50000, "+1.250 ms" },
    { 12000, 50000, 1000, "+12 µs" },
    { 12000, 50000, 2000, "+12 µs" },
    { 12500, 50000, 500, "+12.500 µs" },
    { 999, 999, 1, "+999 ns" },
    { -1500000000, 2000000000, 500000000, "−1.500 s" },
    { 1000000010, 2000000000, 10, "+1.000000010 s" },
    { G_GINT64_CONSTANT (3600000000000), G_GINT64_CONSTANT (7200000000000),
      G_GINT64_CONSTANT (1000000000000), "+3600 s" },
    { 200000000, 2500000000, 200000000, "+0.200 s" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = NULL;

      text = chrono_time_format_offset (cases[i].offset, cases[i].magnitude, cases[i].step);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

/* Every label, at its tick, keeps GAP_PX from the next; the step is the
 * smallest on the ladder for which that holds. */
static void
check_ticks (gint64 start,
             gint64 end,
             double width,
             gint64 zero,
             double char_px)
{
  g_autoptr(ChronoTicks) ticks = chrono_ticks_compute (start, end, width, zero, GAP_PX, measure, &char_px);
  double px_per_ns = width / (double) (end - start);
  gint64 step = ticks->major_step_ns;
  gint64 smaller;

  g_assert_true (is_1_2_5 (step));
  g_assert_cmpuint (ticks->major->len, >=, 1);

  for (guint i = 0; i < ticks->major->len; i++)
    {
      const ChronoTick *tick = &g_array_index (ticks->major, ChronoTick, i);

      g_assert_cmpint ((tick->time_ns - zero) % step, ==, 0);
      g_assert_cmpint (tick->time_ns, <=, end);
      g_assert_cmpint (tick->time_ns, >, start - step);
      g_assert_cmpfloat_with_epsilon (tick->x, (tick->time_ns - start) * px_per_ns, 1e-6);
      g_assert_nonnull (tick->label);
      if (i + 1 < ticks->major->len)
        {
          const ChronoTick *next = &g_array_index (ticks->major, ChronoTick, i + 1);

          g_assert_cmpint (next->time_ns - tick->time_ns, ==, step);
          g_assert_cmpfloat (tick->x + measure (tick->label, &char_px) + GAP_PX, <=, next->x + 1e-9);
        }
    }

  /* One step down the ladder, some label would run into the next: the
   * ruler is as fine as it can be. */
  smaller = ladder_below (step);
  if (smaller > 0 && smaller * px_per_ns >= GAP_PX + 1)
    {
      gint64 magnitude = MAX (ABS (start - zero), ABS (end - zero));
      gboolean overlaps = FALSE;
      gint64 k0 = (gint64) floor ((double) (start - zero) / smaller);

      for (gint64 k = k0; (k + 1) * smaller + zero <= end && !overlaps; k++)
        {
          g_autofree char *label = chrono_time_format_offset (k * smaller, magnitude, smaller);

          overlaps = measure (label, &char_px) + GAP_PX > smaller * px_per_ns;
        }
      g_assert_true (overlaps);
    }

  for (guint i = 0; i < ticks->minor->len; i++)
    {
      const ChronoTick *tick = &g_array_index (ticks->minor, ChronoTick, i);

      g_assert_true (is_1_2_5 (ticks->minor_step_ns));
      g_assert_cmpint (ticks->major_step_ns % ticks->minor_step_ns, ==, 0);
      g_assert_cmpint ((tick->time_ns - zero) % ticks->minor_step_ns, ==, 0);
      g_assert_cmpint ((tick->time_ns - zero) % step, !=, 0);
      g_assert_cmpint (tick->time_ns, >=, start);
      g_assert_cmpint (tick->time_ns, <=, end);
      g_assert_null (tick->label);
    }
}

static void
test_spans (void)
{
  static const double widths[] = { 120, 400, 1600, 3840 };
  static const double char_widths[] = { 5, 7.5, 11 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (12);

  /* From 1 ns to 10 hours, at epoch scale, from the trace's zero or away
   * from it. */
  for (double duration = 1; duration < 3.6e13; duration *= 1.7)
    for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
      for (guint c = 0; c < G_N_ELEMENTS (char_widths); c++)
        {
          gint64 zero = EPOCH_NS;
          gint64 start = zero;
          gint64 end;

          if (g_rand_boolean (rand))
            start += (gint64) g_rand_double_range (rand, 0, 3.6e12);
          end = start + MAX ((gint64) duration, 1);
          check_ticks (start, end, widths[w], zero, char_widths[c]);
        }
}

static void
test_labels (void)
{
  double char_px = 7;
  g_autoptr(ChronoTicks) ticks = NULL;

  /* 10 ms over 1000 px from the zero: "+1 ms" steps fit. */
  ticks = chrono_ticks_compute (EPOCH_NS, EPOCH_NS + 10000000, 1000, EPOCH_NS, GAP_PX, measure, &char_px);
  g_assert_cmpint (ticks->major_step_ns, ==, 1000000);
  g_assert_cmpstr (g_array_index (ticks->major, ChronoTick, 0).label, ==, "0");
  g_assert_cmpstr (g_array_index (ticks->major, ChronoTick, 3).label, ==, "+3 ms");
  g_assert_cmpint (ticks->minor_step_ns, ==, 200000);
  g_assert_cmpuint (ticks->minor->len, ==, 40);
  g_clear_pointer (&ticks, chrono_ticks_free);

  /* Deep inside: 2 µs, 1.2 ms after the zero, in milliseconds with as
   * many decimals as the step needs. */
  ticks = chrono_ticks_compute (EPOCH_NS + 1200000, EPOCH_NS + 1202000, 1000, EPOCH_NS,
                                GAP_PX, measure, &char_px);
  g_assert_cmpint (ticks->major_step_ns, ==, 200);
  g_assert_cmpstr (g_array_index (ticks->major, ChronoTick, 1).label, ==, "+1.200200 ms");
  g_clear_pointer (&ticks, chrono_ticks_free);

  /* Nothing to show. */
  ticks = chrono_ticks_compute (EPOCH_NS, EPOCH_NS, 1000, EPOCH_NS, GAP_PX, measure, &char_px);
  g_assert_cmpuint (ticks->major->len, ==, 0);
  g_clear_pointer (&ticks, chrono_ticks_free);
  ticks = chrono_ticks_compute (EPOCH_NS, EPOCH_NS + 100, 0, EPOCH_NS, GAP_PX, measure, &char_px);
  g_assert_cmpuint (ticks->major->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/time-ticks/ladder", test_ladder);
  g_test_add_func ("/time-ticks/format", test_format);
  g_test_add_func ("/time-ticks/spans", test_spans);
  g_test_add_func ("/time-ticks/labels", test_labels);

  return g_test_run ();
}
