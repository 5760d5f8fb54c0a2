/* chrono-job-table.h: a job's analysis ("chronoscope.job/1") read back
 * for display: per rank its ledger, per step and collective a value for
 * every rank
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-analysis.h"
#include "chrono-loader.h"

G_BEGIN_DECLS

/* What a value is where a rank has none. */
#define CHRONO_JOB_MISSING G_MININT64

typedef struct {
  gint     rank;                /* as the summary says; -1 when unknown */
  char    *path;                /* its trace, as the summary names it */
  gint64   clock_offset_ns;     /* its clock minus the reference rank's */
  gint64   late_ns;
  gint64   median_lateness_ns;
  gint64   wait_caused_ns;
  guint    times_last;
  guint    n_collectives;
  gboolean straggler;
  gint64   window_ns;           /* its devices' windows, summed */
  gint64   state_ns[CHRONO_N_LEDGER_STATES];
} ChronoJobRank;

typedef struct {
  char    *name;                /* "ProfilerStep#12" */
  gint64   median_duration_ns;
  gint64  *duration_ns;         /* per rank, CHRONO_JOB_MISSING where it lacks the step */
  gint64  *start_ns;            /* per rank, on the reference's clock */
  GArray  *slow_ranks;          /* guint, indexes into the ranks */
} ChronoJobStep;

typedef struct {
  char    *name;
  gint64   bytes;               /* -1 when unknown */
  gboolean matched;             /* FALSE: no arrival times (mismatched, or one rank) */
  gint64   first_arrival_ns;    /* on the reference's clock */
  gint64   skew_ns;
  guint    last_rank;           /* index into the ranks */
  gint64   wait_ns;
  gint64  *arrival_ns;          /* per rank after the first, CHRONO_JOB_MISSING where none */
} ChronoJobCollective;

typedef struct {
  char                *name;          /* the file or folder, for messages */
  char                *dir;           /* where relative rank paths are found */
  gint64               min_skew_ns;   /* straggler_min_skew_ns */
  guint                n_ranks;
  ChronoJobRank       *ranks;         /* in the order of the job's ranks[] */
  guint                n_steps;
  ChronoJobStep       *steps;
  guint                n_collectives;
  ChronoJobCollective *collectives;
  GArray              *stragglers;    /* guint, indexes into the ranks, most late first */
  GArray              *ranking;       /* guint, the ranks latest in all, straggling or not */
  GPtrArray           *limitations;   /* char *, the job's messages */
} ChronoJobTable;

ChronoJobTable *chrono_job_table_new_from_data (const char  *data,
                                                gssize       length,
                                                const char  *name,
                                                GError     **error);
/* Reads a JOB.json. Errors name PATH, the place and what was expected. */
ChronoJobTable *chrono_job_table_load           (const char  *path,
                                                 GError     **error);
void            chrono_job_table_free           (ChronoJobTable *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoJobTable, chrono_job_table_free)

/* Summarises the traces in the folder DIR one at a time, as
 * `chronoscope-cli analyze --jobs` does, skipping files that are not
 * traces, and reduces them with THRESHOLDS (NULL: the defaults) to the
 * job's JSON. Memory holds one rank's trace and the summaries. PROGRESS
 * gets the files done and their number. */
char           *chrono_job_reduce_folder        (const char                     *dir,
                                                 const ChronoAnalysisThresholds *thresholds,
                                                 GCancellable                   *cancellable,
                                                 ChronoProgressFunc              progress,
                                                 gpointer                        user_data,
                                                 GError                        **error);
/* The same, read back for display. */
ChronoJobTable *chrono_job_table_new_for_folder (const char                     *dir,
                                                 const ChronoAnalysisThresholds *thresholds,
                                                 GCancellable                   *cancellable,
                                                 ChronoProgressFunc              progress,
                                                 gpointer                        user_data,
                                                 GError                        **error);

/* The rank's trace: its path as written, or found beside the job's file
 * when it was written relative. NULL when it is not there. */
char           *chrono_job_table_find_trace     (ChronoJobTable *self,
                                                 guint           rank);
/* The index of the rank numbered RANK, or -1. */
gint            chrono_job_table_find_rank      (ChronoJobTable *self,
                                                 gint            rank);

typedef enum {
  CHRONO_JOB_SOURCE_NONE,
  CHRONO_JOB_SOURCE_FILE,       /* a JOB.json */
  CHRONO_JOB_SOURCE_RANKS,      /* a folder of ranks' traces */
} ChronoJobSource;

/* Whether PATH is a job: a file whose contents say it is a
 * "chronoscope.job/1", or a folder of which two traces (among its first
 * few) name their rank in `distributedInfo`. Reads a few kilobytes. */
ChronoJobSource chrono_job_sniff                (const char *path);

G_END_DECLS
