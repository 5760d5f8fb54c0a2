/* chrono-track-keys.h: what names a track or a process across loads and
 * re-imports of a trace, so that what a person made for it (layouts,
 * annotations) finds it again
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-trace.h"

G_BEGIN_DECLS

/* A track by its type, its process's and thread's ids and its name, not
 * by its position; twins get " #2", " #3", ... One per track, in the
 * trace's order, NULL-terminated. */
GStrv chrono_track_keys_new   (ChronoTrace *trace);
/* A process by its pid and name, likewise. */
GStrv chrono_process_keys_new (ChronoTrace *trace);

G_END_DECLS
