/* chrono-rank-summary.h: what a job analysis needs from one rank
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-analysis.h"

G_BEGIN_DECLS

#define CHRONO_RANK_SUMMARY_SCHEMA "chronoscope.rank-summary/1"

/* One profiler step of the rank: its host span to the end of the device
 * work it launched. */
typedef struct {
  char   *name;                /* "ProfilerStep#12" */
  gint64  start_ns;
  gint64  end_ns;
} ChronoSummaryStep;

/* One device's ledger over its window (step -1) or one step. */
typedef struct {
  gint    device;              /* device index, -1 when unknown */
  gint    step;                /* index into the steps, -1 for the whole window */
  gint64  start_ns;
  gint64  end_ns;
  gint64  state_ns[CHRONO_N_LEDGER_STATES];
  gint64  recoverable_ns;
} ChronoSummaryLedger;

/* One collective kernel, in start order. What the trace does not say is
 * NULL or -1. */
typedef struct {
  guint   seq;                 /* its position among the rank's collectives */
  gint    step;                /* the step it ran in, -1 for none */
  gint    device;
  char   *name;                /* the kernel */
  char   *collective;          /* "allreduce", from the args or the nccl: annotation */
  char   *group;               /* process group name */
  gint64  group_seq;           /* the group's sequence number ("Seq") */
  gint64  nelems;              /* "In msg nelems" */
  char   *dtype;
  gint64  bytes;               /* nelems times the dtype's size */
  gint64  start_ns;            /* the rank's arrival */
  gint64  end_ns;
} ChronoSummaryCollective;

typedef struct {
  char   *rule;
  char   *severity;
  char   *title;
  gint64  start_ns;
  gint64  end_ns;
  gint64  time_lost_ns;
} ChronoSummaryFinding;

typedef struct {
  char   *id;
  char   *message;
} ChronoSummaryLimitation;

/* All times are on the rank's own clock (its file's times plus its
 * baseTimeNanoseconds), in nanoseconds. */
typedef struct {
  char   *path;                /* the trace it summarises */
  gint    rank;                /* as the file says, -1 when it does not */
  gint    world_size;          /* likewise */
  gint64  base_time_ns;        /* baseTimeNanoseconds, 0 when none */
  gint64  first_ns;            /* first and last time of the trace */
  gint64  last_ns;
  GArray *steps;               /* ChronoSummaryStep */
  GArray *ledger;              /* ChronoSummaryLedger */
  GArray *collectives;         /* ChronoSummaryCollective */
  GArray *findings;            /* ChronoSummaryFinding */
  GArray *limitations;         /* ChronoSummaryLimitation */
} ChronoRankSummary;

ChronoRankSummary *chrono_rank_summary_new   (void);
void               chrono_rank_summary_free  (ChronoRankSummary *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoRankSummary, chrono_rank_summary_free)

/* Analyses TRACE, which must hold one rank, and keeps what the job needs.
 * OPTIONS may be NULL for the defaults. */
ChronoRankSummary *chrono_rank_summary_new_from_trace (ChronoTrace                 *trace,
                                                       const ChronoAnalysisOptions *options,
                                                       GCancellable                *cancellable,
                                                       GError                     **error);

/* The summary as JSON (docs/job-schema.md). */
char              *chrono_rank_summary_to_json  (ChronoRankSummary *self);
/* Writes it to PATH atomically: PATH.tmp, renamed. */
gboolean           chrono_rank_summary_write    (ChronoRankSummary *self,
                                                 const char        *path,
                                                 GError           **error);
/* Reads one back; errors name NAME and what was expected where. */
ChronoRankSummary *chrono_rank_summary_new_from_data (const char  *data,
                                                      gssize       length,
                                                      const char  *name,
                                                      GError     **error);
ChronoRankSummary *chrono_rank_summary_load  (const char  *path,
                                              GError     **error);

G_END_DECLS
