/* chrono-example-job.h: writes the ranks of a data-parallel job, with
 * stragglers, late arrivals and clock offsets it knows it planted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define CHRONO_EXAMPLE_JOB_SCHEMA "chronoscope.example-job/1"

/* RANK's hook for its COLLECTIVE-th all-reduce (counted over the whole
 * trace) runs DELAY_NS late: a one-off late arrival. */
typedef struct {
  guint  rank;
  guint  collective;
  gint64 delay_ns;
} ChronoExampleSkew;

/* RANK's clock reads OFFSET_NS ahead of the job's. */
typedef struct {
  guint  rank;
  gint64 offset_ns;
} ChronoExampleOffset;

typedef struct {
  guint    world_size;
  guint    n_steps;
  guint    n_buckets;          /* all-reduces per step */
  guint64  seed;
  guint   *stragglers;         /* ranks whose data loading takes straggler_delay_ns longer every step */
  guint    n_stragglers;
  gint64   straggler_delay_ns;
  ChronoExampleSkew   *skews;
  guint    n_skews;
  ChronoExampleOffset *offsets;
  guint    n_offsets;
} ChronoExampleJobOptions;

void       chrono_example_job_options_init (ChronoExampleJobOptions *options);

/* Writes rank-N.pt.trace.json for each rank into the folder DIR (made
 * when missing), each file atomically, and returns the manifest
 * ("chronoscope.example-job/1", docs/job-schema.md): what was planted
 * and, per collective, which rank truly arrived last and the true skew.
 * NULL on error. */
JsonNode  *chrono_example_job_write        (const char                    *dir,
                                            const ChronoExampleJobOptions *options,
                                            GError                       **error);

G_END_DECLS
