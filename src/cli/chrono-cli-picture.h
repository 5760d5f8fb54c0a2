/* chrono-cli-picture.h: what export and report share to draw a trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-analysis.h"
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
/* SCENE WIDTH px wide and HEIGHT tall, or with HEIGHT 0 as tall as its
 * rows are now, up to the maximum; CUT as above. */
void                 chrono_cli_scene_fit (ChronoTimelineScene *scene,
                                           int                  width,
                                           int                  height,
                                           gboolean            *cut);
/* "resnet.json · +12.500 ms to +18.000 ms (5.500 ms)": the range SCENE
 * shows, from its trace's start; "and N more" for N_MORE files beside. */
char                *chrono_cli_subtitle  (ChronoTimelineScene *scene,
                                           const char          *file,
                                           guint                n_more);

/* START:END from the trace's start, each "1.5ms", "250us", "2s",
 * "1200ns" or a bare number of milliseconds, START below END. */
gboolean             chrono_cli_parse_range   (const char          *text,
                                               gint64              *start,
                                               gint64              *end);

/* Hides the tracks that match none of PATTERNS (globs, comma apart) by
 * their own name or their process's. FALSE when none is left. */
gboolean             chrono_cli_filter_tracks (ChronoTrace         *trace,
                                               ChronoTrackLayout   *layout,
                                               const char          *patterns);

/* FINDING of ANALYSIS framed on its evidence (chrono_finding_scene_new),
 * its tracks filtered by PATTERNS when not NULL, then sized as
 * chrono_cli_scene_fit; NULL when PATTERNS leave no track. */
ChronoTimelineScene *chrono_cli_finding_scene_new (ChronoAnalysis      *analysis,
                                                   const ChronoFinding *finding,
                                                   const char          *patterns,
                                                   int                  width,
                                                   int                  height,
                                                   gboolean             dark,
                                                   gboolean            *cut);

G_END_DECLS
