/* chrono-job.h: the analysis of a job from its ranks' summaries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-rank-summary.h"

G_BEGIN_DECLS

#define CHRONO_JOB_SCHEMA "chronoscope.job/1"

/* Reduces the SUMMARIES of a job's ranks (any order) to the job's
 * analysis, "chronoscope.job/1" (docs/job-schema.md): the ranks' clocks
 * aligned on their collectives, each collective's arrival skew, the
 * stragglers, slow ranks per step, ranks whose ledger differs and
 * collective bandwidth. The thresholds used are straggler_min_skew_ns.
 * Fails when two summaries claim the same rank. The same summaries give
 * the same bytes, whatever their order. */
JsonNode *chrono_job_reduce         (ChronoRankSummary * const      *summaries,
                                     guint                           n_summaries,
                                     const ChronoAnalysisThresholds *thresholds,
                                     GError                        **error);
char     *chrono_job_reduce_to_json (ChronoRankSummary * const      *summaries,
                                     guint                           n_summaries,
                                     const ChronoAnalysisThresholds *thresholds,
                                     GError                        **error);
/* The same as a report a person reads (Markdown): the stragglers, each
 * rank's share of computation, communication, copies and idle time, the
 * steps and their slow ranks, and the ranks' findings by rule and the
 * costliest of them (chrono-job-report.c). */
char     *chrono_job_reduce_to_markdown (ChronoRankSummary * const      *summaries,
                                         guint                           n_summaries,
                                         const ChronoAnalysisThresholds *thresholds,
                                         GError                        **error);

G_END_DECLS
