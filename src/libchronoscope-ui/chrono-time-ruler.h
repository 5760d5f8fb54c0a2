/* chrono-time-ruler.h: the timeline's ruler: time labels and ticks over
 * a strip that names the training steps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-scene-colors.h"
#include "chrono-step-bands.h"
#include "chrono-text-cache.h"
#include "chrono-time-ticks.h"
#include "chrono-viewport.h"

G_BEGIN_DECLS

/* From y = 0 to CHRONO_SCENE_RULER_HEIGHT and x = 0 to WIDTH, the name
 * column included; TICKS in the viewport's window. ZERO_LABEL names
 * what the labels count from; NULL for the trace's start. */
void chrono_time_ruler_snapshot (GtkSnapshot             *snapshot,
                                 ChronoTextCache         *text,
                                 ChronoTrace             *trace,
                                 ChronoStepBands         *steps,
                                 ChronoViewport          *viewport,
                                 double                   width,
                                 ChronoTicks             *ticks,
                                 const char              *zero_label,
                                 const ChronoSceneColors *colors);

G_END_DECLS
