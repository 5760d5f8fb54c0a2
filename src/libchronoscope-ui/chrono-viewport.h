/* chrono-viewport.h: the visible time window and its mapping to pixels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* Zooming in stops at this many nanoseconds across the whole width. */
#define CHRONO_VIEWPORT_MIN_DURATION_NS 10

#define CHRONO_TYPE_VIEWPORT (chrono_viewport_get_type ())
G_DECLARE_FINAL_TYPE (ChronoViewport, chrono_viewport, CHRONO, VIEWPORT, GObject)

ChronoViewport *chrono_viewport_new                (void);

gint64          chrono_viewport_get_start_ns       (ChronoViewport *self);
void            chrono_viewport_set_start_ns       (ChronoViewport *self,
                                                    gint64          start_ns);
gint64          chrono_viewport_get_end_ns         (ChronoViewport *self);
void            chrono_viewport_set_end_ns         (ChronoViewport *self,
                                                    gint64          end_ns);
int             chrono_viewport_get_width_px       (ChronoViewport *self);
void            chrono_viewport_set_width_px       (ChronoViewport *self,
                                                    int             width_px);

gint64          chrono_viewport_get_bounds_start_ns (ChronoViewport *self);
gint64          chrono_viewport_get_bounds_end_ns  (ChronoViewport *self);
void            chrono_viewport_set_bounds         (ChronoViewport *self,
                                                    gint64          start_ns,
                                                    gint64          end_ns);

void            chrono_viewport_zoom_to_range      (ChronoViewport *self,
                                                    gint64          start_ns,
                                                    gint64          end_ns);
void            chrono_viewport_show_all           (ChronoViewport *self);
void            chrono_viewport_zoom               (ChronoViewport *self,
                                                    double          factor,
                                                    double          anchor_x);
void            chrono_viewport_pan                (ChronoViewport *self,
                                                    double          dx_px);

double          chrono_viewport_time_to_x          (ChronoViewport *self,
                                                    gint64          time_ns);
gint64          chrono_viewport_x_to_time          (ChronoViewport *self,
                                                    double          x);
double          chrono_viewport_get_px_per_ns      (ChronoViewport *self);
double          chrono_viewport_get_duration       (ChronoViewport *self);

G_END_DECLS
