/* chrono-finding-scene.h: a finding drawn to show its evidence, for the
 * report's pictures, the export of a finding and the app alike
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-analysis.h"
#include "chrono-timeline-scene.h"

G_BEGIN_DECLS

/* The analysis's trace a finding is drawn from: that of its first track,
 * else of the span it names. */
guint32              chrono_finding_get_trace    (const ChronoFinding *finding);

/* The spans that show FINDING, all of the analysis's trace *TRACE:
 * for an operator far from its roofline its calls and their device
 * work; else the span the finding names and those of its name on its
 * track within the finding's range; for copies and collectives those
 * of their kind on the finding's tracks within it. Empty when the
 * finding is a stretch of time only (an idle gap, a step). */
GArray              *chrono_finding_dup_evidence (ChronoAnalysis      *analysis,
                                                  const ChronoFinding *finding,
                                                  guint32             *trace);

/* FINDING of ANALYSIS as a scene WIDTH px wide, its height left to the
 * caller: framed on its evidence and range with some context, the
 * evidence outlined, the range and its tracks shaded under a note of the
 * time it costs; its rows in view (expanded where the evidence lies
 * deeper than a track shows by default), the other tracks of their
 * processes hidden and the other processes collapsed. INDEXES, when not
 * NULL, are the trace's track indexes (chrono_track_index_new_all). */
ChronoTimelineScene *chrono_finding_scene_new    (ChronoAnalysis      *analysis,
                                                  const ChronoFinding *finding,
                                                  GPtrArray           *indexes,
                                                  int                  width,
                                                  gboolean             dark);

G_END_DECLS
