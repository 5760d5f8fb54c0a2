/* chrono-types.h: plain value types shared by the model and importers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Kinds of span, derived at load time from category, name and a few args. */
typedef enum {
  CHRONO_KIND_OTHER,
  CHRONO_KIND_HOST_OP,
  CHRONO_KIND_PYTHON,
  CHRONO_KIND_ANNOTATION,
  CHRONO_KIND_STEP,
  CHRONO_KIND_RUNTIME,
  CHRONO_KIND_DRIVER,
  CHRONO_KIND_KERNEL,
  CHRONO_KIND_MEMCPY,
  CHRONO_KIND_MEMSET,
  CHRONO_KIND_SYNC,
  CHRONO_KIND_COLLECTIVE,
  CHRONO_KIND_GPU_ANNOTATION,
  CHRONO_KIND_ASYNC,
  CHRONO_KIND_OVERHEAD,
  CHRONO_KIND_TRACE,
  CHRONO_KIND_INSTRUCTION, /* an accelerator engine's instruction (Neuron) */
  CHRONO_KIND_DMA,         /* a DMA transfer on a queue (Neuron) */
  CHRONO_N_KINDS
} ChronoKind;

/* What a row of the timeline is. */
typedef enum {
  CHRONO_TRACK_THREAD,   /* host thread: a flame chart */
  CHRONO_TRACK_STREAM,   /* accelerator stream or queue: Gantt lanes */
  CHRONO_TRACK_ASYNC,    /* async spans of a process */
  CHRONO_TRACK_COUNTER,  /* one counter series */
  CHRONO_TRACK_INSTANTS, /* process- or trace-wide instants */
} ChronoTrackType;

typedef enum {
  CHRONO_FLOW_V1,        /* s/t/f events */
  CHRONO_FLOW_V2,        /* bind_id with flow_in/flow_out */
  CHRONO_FLOW_LAUNCH,    /* runtime call to the GPU work it launched */
  CHRONO_FLOW_DEPENDENCY, /* an instruction's listed predecessor (inst_dep_ids) */
  CHRONO_FLOW_SEMAPHORE, /* the update a semaphore wait waited for */
  CHRONO_N_FLOW_TYPES
} ChronoFlowType;

/* Span flags. */
enum {
  CHRONO_SPAN_UNCLOSED = 1 << 0, /* B without E, closed at the trace end */
  CHRONO_SPAN_NO_DUR   = 1 << 1, /* X without dur */
};

/* A process or thread id as a profiler wrote it: an integer, or a string
 * that is not a number ("Spans", ""). Numeric strings become integers. */
typedef struct {
  gint64  value;    /* integer, or string id when is_string */
  gboolean is_string;
} ChronoId;

/* A reference to one span: track index and index in the track. */
typedef struct {
  guint32 track;
  guint32 index;
} ChronoSpanRef;

#define CHRONO_NO_STRING ((guint32) 0)   /* string id 0 is the empty string */
#define CHRONO_NO_ARGS   G_MAXUINT64

const char *chrono_kind_to_string (ChronoKind kind);
const char *chrono_track_type_to_string (ChronoTrackType type);

G_END_DECLS
