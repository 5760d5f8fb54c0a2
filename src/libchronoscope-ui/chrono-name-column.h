/* chrono-name-column.h: the timeline's column of names: a process's
 * header with its disclosure triangle, the pinned tracks' header, and
 * each track's name beside its rows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-scene-colors.h"
#include "chrono-text-cache.h"
#include "chrono-timeline-scene.h"

G_BEGIN_DECLS

/* A header across WIDTH, from Y, ROW's height: NAME with a triangle for
 * a process (NULL for the pinned tracks' header, which has none);
 * CURRENT marks it as the current track's. Collapsed, the name keeps to
 * the column. */
void chrono_name_column_snapshot_group (GtkSnapshot             *snapshot,
                                        ChronoTextCache         *text,
                                        const ChronoSceneColors *colors,
                                        const ChronoSceneRow    *row,
                                        const char              *name,
                                        gboolean                 current,
                                        double                   width);
/* A track's NAME at NAME_Y (kept in view while the track scrolls under
 * the top), its hidden levels, and the line under its rows across WIDTH. */
void chrono_name_column_snapshot_track (GtkSnapshot             *snapshot,
                                        ChronoTextCache         *text,
                                        const ChronoSceneColors *colors,
                                        const ChronoSceneRow    *row,
                                        const char              *name,
                                        gboolean                 current,
                                        double                   name_y,
                                        double                   width);

G_END_DECLS
