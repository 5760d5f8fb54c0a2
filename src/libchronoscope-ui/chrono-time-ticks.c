/* chrono-time-ticks.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "chrono-time-ticks.h"

/* Minor ticks closer than this are noise. */
#define MIN_MINOR_PX 4.0
#define MAX_STEP_NS  G_GINT64_CONSTANT (5000000000000000000)

typedef struct {
  gint64      scale;   /* ns per unit */
  guint       digits;  /* log10 (scale) */
  const char *name;
} Unit;

static const Unit units[] = {
  { G_GINT64_CONSTANT (1000000000), 9, "s" },
  { 1000000, 6, "ms" },
  { 1000, 3, "µs" },
  { 1, 0, "ns" },
};

gint64
chrono_ticks_step_at_least (double ns)
{
  static const gint64 mantissas[] = { 1, 2, 5 };
  gint64 power = 1;

  for (;;)
    {
      for (guint i = 0; i < G_N_ELEMENTS (mantissas); i++)
        {
          gint64 step = mantissas[i] * power;
          if ((double) step >= ns || step == MAX_STEP_NS)
            return step;
        }
      power *= 10;
    }
}

static guint
floor_log10 (gint64 value)
{
  guint n = 0;

  while (value >= 10)
    {
      value /= 10;
      n++;
    }
  return n;
}

char *
chrono_time_format_offset (gint64 offset_ns,
                           gint64 magnitude_ns,
                           gint64 step_ns)
{
  const Unit *unit = &units[G_N_ELEMENTS (units) - 1];
  guint64 magnitude = magnitude_ns < 0 ? -(guint64) magnitude_ns : (guint64) magnitude_ns;
  guint64 value = offset_ns < 0 ? -(guint64) offset_ns : (guint64) offset_ns;
  guint step_digits = floor_log10 (MAX (step_ns, 1));
  guint decimals = 0;
  GString *out;

  if (offset_ns == 0)
    return g_strdup ("0");

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (magnitude >= (guint64) units[i].scale)
      {
        unit = &units[i];
        break;
      }

  /* Decimals come in groups of three so that "1.250 ms" reads as
   * milliseconds and whole microseconds. */
  if (unit->digits > step_digits)
    decimals = (unit->digits - step_digits + 2) / 3 * 3;

  out = g_string_new (offset_ns < 0 ? "−" : "+");
  g_string_append_printf (out, "%" G_GUINT64_FORMAT, value / unit->scale);
  if (decimals > 0)
    {
      guint64 fraction = value % unit->scale;

      for (guint i = decimals; i < unit->digits; i++)
        fraction /= 10;
      g_string_append_printf (out, ".%0*" G_GUINT64_FORMAT, (int) decimals, fraction);
    }
  g_string_append_printf (out, " %s", unit->name);
  return g_string_free (out, FALSE);
}

static gint64
floor_div (gint64 a,
           gint64 b)
{
  gint64 q = a / b;

  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static void
clear_tick (gpointer data)
{
  ChronoTick *tick = data;

  g_free (tick->label);
}

static GArray *
tick_array_new (void)
{
  GArray *array = g_array_new (FALSE, FALSE, sizeof (ChronoTick));

  g_array_set_clear_func (array, clear_tick);
  return array;
}

/* Labels every major tick of STEP; FALSE as soon as one label would run
 * into the next. */
static gboolean
label_major_ticks (ChronoTicks         *ticks,
                   gint64               start_ns,
                   gint64               end_ns,
                   double               px_per_ns,
                   gint64               zero_ns,
                   double               min_gap_px,
                   ChronoTextWidthFunc  measure,
                   gpointer             user_data)
{
  gint64 step = ticks->major_step_ns;
  gint64 magnitude = MAX (ABS (start_ns - zero_ns), ABS (end_ns - zero_ns));
  gint64 first = floor_div (start_ns - zero_ns, step);
  gint64 last = floor_div (end_ns - zero_ns, step);
  double step_px = step * px_per_ns;

  g_array_set_size (ticks->major, 0);
  for (gint64 k = first; k <= last; k++)
    {
      ChronoTick tick;

      tick.time_ns = zero_ns + k * step;
      tick.x = (double) (tick.time_ns - start_ns) * px_per_ns;
      tick.label = chrono_time_format_offset (k * step, magnitude, step);
      g_array_append_val (ticks->major, tick);
      if (k < last && measure (tick.label, user_data) + min_gap_px > step_px)
        return FALSE;
    }
  return TRUE;
}

ChronoTicks *
chrono_ticks_compute (gint64               start_ns,
                      gint64               end_ns,
                      double               width_px,
                      gint64               zero_ns,
                      double               min_gap_px,
                      ChronoTextWidthFunc  measure,
                      gpointer             user_data)
{
  g_autoptr(ChronoTicks) ticks = g_new0 (ChronoTicks, 1);
  double px_per_ns;
  gint64 minor;

  g_return_val_if_fail (measure != NULL, NULL);

  ticks->major = tick_array_new ();
  ticks->minor = tick_array_new ();
  if (end_ns <= start_ns || !(width_px > 0))
    return g_steal_pointer (&ticks);

  px_per_ns = width_px / (double) (end_ns - start_ns);

  /* Walk up the ladder from the first step that leaves room for a gap;
   * labels get shorter as steps get coarser, so this ends quickly. */
  ticks->major_step_ns = chrono_ticks_step_at_least ((min_gap_px + 1.0) / px_per_ns);
  while (!label_major_ticks (ticks, start_ns, end_ns, px_per_ns, zero_ns,
                             min_gap_px, measure, user_data)
         && ticks->major_step_ns < MAX_STEP_NS)
    ticks->major_step_ns = chrono_ticks_step_at_least ((double) ticks->major_step_ns + 1.0);

  minor = chrono_ticks_step_at_least (ticks->major_step_ns / 5.0);
  if (minor < ticks->major_step_ns && minor * px_per_ns >= MIN_MINOR_PX)
    {
      ticks->minor_step_ns = minor;
      for (gint64 k = floor_div (start_ns - zero_ns - 1, minor) + 1;
           k <= floor_div (end_ns - zero_ns, minor);
           k++)
        {
          ChronoTick tick = { zero_ns + k * minor, 0.0, NULL };

          if ((k * minor) % ticks->major_step_ns == 0)
            continue;
          tick.x = (double) (tick.time_ns - start_ns) * px_per_ns;
          g_array_append_val (ticks->minor, tick);
        }
    }

  return g_steal_pointer (&ticks);
}

void
chrono_ticks_free (ChronoTicks *ticks)
{
  if (ticks == NULL)
    return;
  g_clear_pointer (&ticks->major, g_array_unref);
  g_clear_pointer (&ticks->minor, g_array_unref);
  g_free (ticks);
}
