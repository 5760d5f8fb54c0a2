/* chrono-viewport.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "chrono-viewport-private.h"

struct _ChronoViewport
{
  GObject  parent_instance;

  /* The window is kept in doubles relative to ORIGIN (the bounds start):
   * epoch-scale nanoseconds do not fit a double exactly, offsets do, and
   * fractional nanoseconds keep a deep zoom anchored. */
  gint64   origin_ns;
  double   start;
  double   end;
  int      width_px;

  gint64   bounds_start_ns;
  gint64   bounds_end_ns;
  gboolean has_bounds;
  gboolean has_range;
};

G_DEFINE_FINAL_TYPE (ChronoViewport, chrono_viewport, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_START_NS,
  PROP_END_NS,
  PROP_WIDTH_PX,
  PROP_BOUNDS_START_NS,
  PROP_BOUNDS_END_NS,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Moves the window to [START, END) (relative to the origin), keeping it
 * at least the minimum duration, no longer than the bounds and inside
 * them, then tells listeners once. */
static void
chrono_viewport_update (ChronoViewport *self,
                        double          start,
                        double          end)
{
  gint64 old_start_ns = chrono_viewport_get_start_ns (self);
  gint64 old_end_ns = chrono_viewport_get_end_ns (self);
  double duration = end - start;

  if (!(duration >= CHRONO_VIEWPORT_MIN_DURATION_NS))
    duration = CHRONO_VIEWPORT_MIN_DURATION_NS;
  if (self->has_bounds)
    {
      double bounds = (double) (self->bounds_end_ns - self->bounds_start_ns);

      duration = MIN (duration, MAX (bounds, CHRONO_VIEWPORT_MIN_DURATION_NS));
      start = MAX (0.0, MIN (start, bounds - duration));
    }
  end = start + duration;
  self->has_range = TRUE;

  if (start == self->start && end == self->end)
    return;

  self->start = start;
  self->end = end;

  g_object_freeze_notify (G_OBJECT (self));
  if (chrono_viewport_get_start_ns (self) != old_start_ns)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_START_NS]);
  if (chrono_viewport_get_end_ns (self) != old_end_ns)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_END_NS]);
  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[CHANGED], 0);
}

/* A viewport with neither bounds nor a window yet takes its origin from
 * the first time it is given. */
static void
chrono_viewport_ensure_origin (ChronoViewport *self,
                               gint64          time_ns)
{
  if (!self->has_bounds && !self->has_range)
    self->origin_ns = time_ns;
}

static void
chrono_viewport_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  ChronoViewport *self = CHRONO_VIEWPORT (object);

  switch (prop_id)
    {
    case PROP_START_NS:
      g_value_set_int64 (value, chrono_viewport_get_start_ns (self));
      break;
    case PROP_END_NS:
      g_value_set_int64 (value, chrono_viewport_get_end_ns (self));
      break;
    case PROP_WIDTH_PX:
      g_value_set_int (value, chrono_viewport_get_width_px (self));
      break;
    case PROP_BOUNDS_START_NS:
      g_value_set_int64 (value, chrono_viewport_get_bounds_start_ns (self));
      break;
    case PROP_BOUNDS_END_NS:
      g_value_set_int64 (value, chrono_viewport_get_bounds_end_ns (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_viewport_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  ChronoViewport *self = CHRONO_VIEWPORT (object);

  switch (prop_id)
    {
    case PROP_START_NS:
      chrono_viewport_set_start_ns (self, g_value_get_int64 (value));
      break;
    case PROP_END_NS:
      chrono_viewport_set_end_ns (self, g_value_get_int64 (value));
      break;
    case PROP_WIDTH_PX:
      chrono_viewport_set_width_px (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_viewport_class_init (ChronoViewportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = chrono_viewport_get_property;
  object_class->set_property = chrono_viewport_set_property;

  properties[PROP_START_NS] =
    g_param_spec_int64 ("start-ns", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_END_NS] =
    g_param_spec_int64 ("end-ns", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WIDTH_PX] =
    g_param_spec_int ("width-px", NULL, NULL,
                      0, G_MAXINT, 0,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BOUNDS_START_NS] =
    g_param_spec_int64 ("bounds-start-ns", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BOUNDS_END_NS] =
    g_param_spec_int64 ("bounds-end-ns", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Once per change of the mapping, however many properties it moved:
   * a sub-nanosecond move changes no property but every pixel. */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
chrono_viewport_init (ChronoViewport *self)
{
}

ChronoViewport *
chrono_viewport_new (void)
{
  return g_object_new (CHRONO_TYPE_VIEWPORT, NULL);
}

gint64
chrono_viewport_get_start_ns (ChronoViewport *self)
{
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (self), 0);
  return self->origin_ns + (gint64) floor (self->start);
}

void
chrono_viewport_set_start_ns (ChronoViewport *self,
                              gint64          start_ns)
{
  g_return_if_fail (CHRONO_IS_VIEWPORT (self));

  chrono_viewport_ensure_origin (self, start_ns);
  chrono_viewport_update (self, (double) (start_ns - self->origin_ns), self->end);
}

gint64
chrono_viewport_get_end_ns (ChronoViewport *self)
{
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (self), 0);
  return self->origin_ns + (gint64) ceil (self->end);
}

void
chrono_viewport_set_end_ns (ChronoViewport *self,
                            gint64          end_ns)
{
  g_return_if_fail (CHRONO_IS_VIEWPORT (self));

  chrono_viewport_ensure_origin (self, end_ns);
  chrono_viewport_update (self, self->start, (double) (end_ns - self->origin_ns));
}

int
chrono_viewport_get_width_px (ChronoViewport *self)
{
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (self), 0);
  return self->width_px;
}

void
chrono_viewport_set_width_px (ChronoViewport *self,
                              int             width_px)
{
  g_return_if_fail (CHRONO_IS_VIEWPORT (self));
  g_return_if_fail (width_px >= 0);

  if (self->width_px == width_px)
    return;
  self->width_px = width_px;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WIDTH_PX]);
  g_signal_emit (self, signals[CHANGED], 0);
}

gint64
chrono_viewport_get_bounds_start_ns (ChronoViewport *self)
{
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (self), 0);
  return self->bounds_start_ns;
}

gint64
chrono_viewport_get_bounds_end_ns (ChronoViewport *self)
{
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (self), 0);
  return self->bounds_end_ns;
}

/* The window is clamped into the new bounds; a viewport that never had a
 * window shows all of them. */
void
chrono_viewport_set_bounds (ChronoViewport *self,
                            gint64          start_ns,
                            gint64          end_ns)
{
  g_return_if_fail (CHRONO_IS_VIEWPORT (self));
  g_return_if_fail (end_ns >= start_ns);

  g_object_freeze_notify (G_OBJECT (self));
  if (self->bounds_start_ns != start_ns)
    {
      self->bounds_start_ns = start_ns;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOUNDS_START_NS]);
    }
  if (self->bounds_end_ns != end_ns)
    {
      self->bounds_end_ns = end_ns;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOUNDS_END_NS]);
    }
  self->has_bounds = TRUE;

  /* Rebase on the bounds start; the window moves by an exact integer. */
  {
    double shift = (double) (self->origin_ns - start_ns);

    self->origin_ns = start_ns;
    self->start += shift;
    self->end += shift;
  }

  if (self->has_range)
    chrono_viewport_update (self, self->start, self->end);
  else
    chrono_viewport_show_all (self);
  g_object_thaw_notify (G_OBJECT (self));
}

void
chrono_viewport_zoom_to_range (ChronoViewport *self,
                               gint64          start_ns,
                               gint64          end_ns)
{
  g_return_if_fail (CHRONO_IS_VIEWPORT (self));

  if (end_ns < start_ns)
    {
      gint64 tmp = start_ns;
      start_ns = end_ns;
      end_ns = tmp;
    }
  /* Without bounds there is nothing to rebase on but the range itself. */
  if (!self->has_bounds)
    {
      self->start -= (double) (start_ns - self->origin_ns);
      self->end -= (double) (start_ns - self->origin_ns);
      self->origin_ns = start_ns;
    }
  chrono_viewport_update (self,
                          (double) (start_ns - self->origin_ns),
                          (double) (end_ns - self->origin_ns));
}

void
chrono_viewport_show_all (ChronoViewport *self)
{
  g_return_if_fail (CHRONO_IS_VIEWPORT (self));

  if (self->has_bounds)
    chrono_viewport_update (self, 0.0, (double) (self->bounds_end_ns - self->bounds_start_ns));
}

/* FACTOR > 1 zooms in; the time under ANCHOR_X stays under it unless the
 * window has to move back inside the bounds. */
void
chrono_viewport_zoom (ChronoViewport *self,
                      double          factor,
                      double          anchor_x)
{
  double duration, fraction, anchor, new_duration, new_start;

  g_return_if_fail (CHRONO_IS_VIEWPORT (self));
  g_return_if_fail (factor > 0 && isfinite (factor));

  duration = self->end - self->start;
  fraction = self->width_px > 0 ? anchor_x / self->width_px : 0.5;
  anchor = self->start + fraction * duration;

  new_duration = MAX (duration / factor, CHRONO_VIEWPORT_MIN_DURATION_NS);
  if (self->has_bounds)
    new_duration = MIN (new_duration,
                        MAX ((double) (self->bounds_end_ns - self->bounds_start_ns),
                             CHRONO_VIEWPORT_MIN_DURATION_NS));
  new_start = anchor - fraction * new_duration;
  chrono_viewport_update (self, new_start, new_start + new_duration);
}

/* Positive DX_PX shows later times. */
void
chrono_viewport_pan (ChronoViewport *self,
                     double          dx_px)
{
  double dt;

  g_return_if_fail (CHRONO_IS_VIEWPORT (self));

  if (self->width_px == 0)
    return;
  dt = dx_px * (self->end - self->start) / self->width_px;
  chrono_viewport_update (self, self->start + dt, self->end + dt);
}

double
chrono_viewport_get_px_per_ns (ChronoViewport *self)
{
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (self), 0.0);

  if (self->end <= self->start)
    return 0.0;
  return self->width_px / (self->end - self->start);
}

double
chrono_viewport_get_duration (ChronoViewport *self)
{
  g_return_val_if_fail (CHRONO_IS_VIEWPORT (self), 0.0);
  return self->end - self->start;
}

double
chrono_viewport_time_to_x (ChronoViewport *self,
                           gint64          time_ns)
{
  ChronoTimeMap map;

  _chrono_viewport_get_time_map (self, &map);
  return chrono_time_map_to_x (&map, time_ns);
}

gint64
chrono_viewport_x_to_time (ChronoViewport *self,
                           double          x)
{
  double px_per_ns;

  g_return_val_if_fail (CHRONO_IS_VIEWPORT (self), 0);

  px_per_ns = chrono_viewport_get_px_per_ns (self);
  if (px_per_ns == 0.0)
    return chrono_viewport_get_start_ns (self);
  return self->origin_ns + (gint64) llround (self->start + x / px_per_ns);
}

void
_chrono_viewport_get_time_map (ChronoViewport *self,
                               ChronoTimeMap  *map)
{
  g_return_if_fail (CHRONO_IS_VIEWPORT (self));

  map->origin_ns = self->origin_ns;
  map->start = self->start;
  map->px_per_ns = chrono_viewport_get_px_per_ns (self);
}
