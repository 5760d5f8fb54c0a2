/* chrono-time-ticks.h: where the time ruler puts its ticks and what it
 * writes under them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  gint64  time_ns;   /* absolute */
  double  x;         /* px from the left edge of the window */
  char   *label;     /* major ticks only, NULL on minor ones */
} ChronoTick;

typedef struct {
  gint64  major_step_ns;   /* 1, 2 or 5 times a power of ten */
  gint64  minor_step_ns;   /* the same ladder; 0 when there are no minor ticks */
  GArray *major;           /* ChronoTick, in time order; the first may lie
                            * just left of the window, its label showing */
  GArray *minor;           /* ChronoTick, in time order, not on major ticks */
} ChronoTicks;

/* How wide TEXT is, in px, in the font the ruler draws with. */
typedef double (*ChronoTextWidthFunc) (const char *text,
                                       gpointer    user_data);

/* A label starts at its tick and takes its measured width; consecutive
 * labels keep at least MIN_GAP_PX between them. */
ChronoTicks *chrono_ticks_compute        (gint64               start_ns,
                                          gint64               end_ns,
                                          double               width_px,
                                          gint64               zero_ns,
                                          double               min_gap_px,
                                          ChronoTextWidthFunc  measure,
                                          gpointer             user_data);
void         chrono_ticks_free           (ChronoTicks         *ticks);

/* The smallest step of the 1-2-5 ladder that is at least NS (and 1 ns). */
gint64       chrono_ticks_step_at_least  (double               ns);

/* "+1.250 ms": OFFSET_NS in the unit of MAGNITUDE_NS, with as many
 * decimals (in groups of three) as STEP_NS needs; "0" for zero. */
char        *chrono_time_format_offset   (gint64               offset_ns,
                                          gint64               magnitude_ns,
                                          gint64               step_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoTicks, chrono_ticks_free)

G_END_DECLS
