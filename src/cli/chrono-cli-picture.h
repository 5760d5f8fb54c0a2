/* chrono-cli-picture.h: what export and report share to draw a trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-timeline-scene.h"

G_BEGIN_DECLS

/* Without a height asked for, a picture is as tall as its tracks, up
 * to this. */
#define CHRONO_CLI_MAX_AUTO_HEIGHT 4000

/* TRACE as LAYOUT shows it, from START to END, WIDTH px wide and HEIGHT
 * tall, or with HEIGHT 0 as tall as its tracks up to the maximum; CUT,
 * when not NULL, says whether tracks were left out. */
ChronoTimelineScene *chrono_cli_scene_new (ChronoTrace       *trace,
                                           ChronoTrackLayout *layout,
                                           gint64             start,
                                           gint64             end,
                                           int                width,
                                           int                height,
                                           gboolean           dark,
                                           gboolean          *cut);
/* "resnet.json · +12.500 ms to +18.000 ms (5.500 ms)": the range SCENE
 * shows, from its trace's start; "and N more" for N_MORE files beside. */
char                *chrono_cli_subtitle  (ChronoTimelineScene *scene,
                                           const char          *file,
                                           guint                n_more);

G_END_DECLS
