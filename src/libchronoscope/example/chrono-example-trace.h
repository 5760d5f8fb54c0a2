/* chrono-example-trace.h: writes a realistic PyTorch-profiler (Kineto) trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The categories of the X events the example writes. */
typedef enum {
  CHRONO_EXAMPLE_CAT_CPU_OP,
  CHRONO_EXAMPLE_CAT_USER_ANNOTATION,
  CHRONO_EXAMPLE_CAT_PYTHON_FUNCTION,
  CHRONO_EXAMPLE_CAT_CUDA_RUNTIME,
  CHRONO_EXAMPLE_CAT_KERNEL,
  CHRONO_EXAMPLE_CAT_GPU_MEMCPY,
  CHRONO_EXAMPLE_CAT_GPU_MEMSET,
  CHRONO_EXAMPLE_CAT_GPU_USER_ANNOTATION,
  CHRONO_EXAMPLE_CAT_TRACE,
  CHRONO_EXAMPLE_N_CATS
} ChronoExampleCat;

typedef struct {
  guint64  target_bytes;  /* uncompressed size to reach; used when n_steps is 0 */
  guint    n_steps;       /* number of profiler steps; 0 to stop at target_bytes */
  guint    rank;
  guint    world_size;    /* collectives are written when it is above 1 */
  guint64  seed;          /* the same options give the same bytes */
  guint    n_streams;     /* compute streams; NCCL gets one more */
  gboolean gzip;
} ChronoExampleOptions;

/* Exactly what was written, for checking importers against the generator. */
typedef struct {
  guint64 uncompressed_bytes;
  guint64 file_bytes;             /* on disk: compressed when gzip */
  guint64 events;                 /* objects in traceEvents */
  guint64 phases[128];            /* events per "ph" character: phases['X'] */
  guint64 spans[CHRONO_EXAMPLE_N_CATS]; /* X events per category */
  guint64 zero_duration_spans;
  guint64 steps;                  /* ProfilerStep#N user annotations */
  /* All-reduce calls. Each one writes a record_param_comms cpu_op, an
   * nccl:all_reduce user_annotation, an NCCL kernel and the kernel's
   * nccl:all_reduce gpu_user_annotation. */
  guint64 collectives;
  guint64 flow_pairs;             /* flow ids with one "s" and one "f" (ac2g and fwdbwd) */
  guint64 dangling_flow_ends;     /* ac2g "f" on runtime calls that launch nothing */
  guint64 launches;               /* GPU ops whose runtime call shares their correlation */
  guint64 memory_instants;        /* "[memory]" instants (the others are global) */
  gint64  base_time_ns;           /* baseTimeNanoseconds */
} ChronoExampleCounts;

void        chrono_example_options_init  (ChronoExampleOptions        *options);
const char *chrono_example_cat_to_string (ChronoExampleCat             cat);

/* Writes the trace to PATH. OPTIONS may be NULL for the defaults; COUNTS_OUT
 * may be NULL. On error the partial file is removed. */
gboolean    chrono_example_trace_write   (const char                  *path,
                                          const ChronoExampleOptions  *options,
                                          ChronoExampleCounts         *counts_out,
                                          GError                     **error);

G_END_DECLS
