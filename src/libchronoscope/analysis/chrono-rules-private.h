/* chrono-rules-private.h: what the bottleneck rules share: adding a
 * finding, the labels findings are titled with, and the rules that
 * chrono_analysis_run_rules() runs in order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-analysis-private.h"

G_BEGIN_DECLS

typedef ChronoRuleContext Ctx;

/* chrono-analysis-rules.c */
void chrono_rule_add_claimed_states (ChronoFinding     *f,
                                     const ChronoClaim *claim);
void chrono_rule_add_copy_tracks (ChronoFinding          *f,
                                  ChronoRankData         *data,
                                  const ChronoDeviceWork *d);
/* chrono_rule_add_finding() with a title made from FORMAT. */
ChronoFinding *chrono_rule_add_finding_printf (Ctx            *c,
                                               const char     *rule,
                                               ChronoRankData *data,
                                               gint64          start,
                                               gint64          end,
                                               ChronoClaim    *claim,
                                               gint64          lost,
                                               const char     *recommendation,
                                               const char     *format,
                                               ...) G_GNUC_PRINTF (9, 10);
char *chrono_rule_device_label (ChronoRankData         *data,
                                const ChronoDeviceWork *d);
ChronoLedgerState chrono_rule_main_idle_state (const ChronoClaim *claim);
double chrono_rule_ms (gint64 ns);
guint chrono_rule_n_matched (ChronoRankData **ranks,
                             guint            n_ranks);
const char *chrono_rule_step_name (ChronoRankData   *data,
                                   const ChronoStep *step);

/* chrono-cause-rules.c */
void chrono_rule_copies (Ctx            *c,
                         ChronoRankData *data);
void chrono_rule_data_loading (Ctx            *c,
                               ChronoRankData *data);
void chrono_rule_dependency_waits (Ctx            *c,
                                   ChronoRankData *data,
                                   GArray         *paths);
void chrono_rule_device_syncs (Ctx            *c,
                               ChronoRankData *data);
void chrono_rule_host_bound (Ctx            *c,
                             ChronoRankData *data,
                             GArray         *paths);
void chrono_rule_launch_bound (Ctx            *c,
                               ChronoRankData *data);
void chrono_rule_stragglers (Ctx *c);

/* chrono-work-rules.c */
void chrono_rule_collective_outliers (Ctx            *c,
                                      ChronoRankData *data);
void chrono_rule_copies_exposed (Ctx            *c,
                                 ChronoRankData *data);
void chrono_rule_exposed_comm (Ctx            *c,
                               ChronoRankData *data,
                               GArray         *breakdowns);
void chrono_rule_low_efficiency (Ctx            *c,
                                 ChronoAnalysis *analysis);
void chrono_rule_small_copies (Ctx            *c,
                               ChronoRankData *data);

/* chrono-symptom-rules.c */
void chrono_rule_idle_gaps (Ctx            *c,
                            ChronoRankData *data);
void chrono_rule_low_utilization (Ctx            *c,
                                  ChronoRankData *data);
void chrono_rule_slow_steps (Ctx            *c,
                             ChronoRankData *data);

G_END_DECLS
