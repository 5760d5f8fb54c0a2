/* chrono-viewport-private.h: the time-to-pixel mapping as plain numbers,
 * for painters that map many times per frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-viewport.h"

G_BEGIN_DECLS

/* Times are mapped relative to an origin near the trace start: gint64
 * differences are exact, and a double holds them to well under 1 ns. */
typedef struct {
  gint64 origin_ns;
  double start;       /* ns after the origin; fractional when zoomed deep */
  double px_per_ns;
} ChronoTimeMap;

void _chrono_viewport_get_time_map (ChronoViewport *self,
                                    ChronoTimeMap  *map);

static inline double
chrono_time_map_to_x (const ChronoTimeMap *map,
                      gint64               time_ns)
{
  return ((double) (time_ns - map->origin_ns) - map->start) * map->px_per_ns;
}

G_END_DECLS
