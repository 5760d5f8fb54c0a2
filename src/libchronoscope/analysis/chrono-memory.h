/* chrono-memory.h: where memory peaks, what holds it, and whether it leaks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "chrono-analysis.h"
#include "chrono-max-blocks.h"

G_BEGIN_DECLS

#define CHRONO_MEMORY_NONE G_MAXUINT32

/* What an allocation was, told from its lifetime. */
typedef enum {
  CHRONO_MEMORY_UNKNOWN,       /* the trace does not tell (no steps, never freed) */
  CHRONO_MEMORY_TEMPORARY,     /* freed before the operator that made it ended */
  CHRONO_MEMORY_ACTIVATION,    /* freed later in its step, by a backward operator */
  CHRONO_MEMORY_STEP_LOCAL,    /* freed later in its step otherwise */
  CHRONO_MEMORY_ACROSS_STEPS,  /* alive across a step's end: parameters, gradients,
                                * optimizer state, or tensors kept by mistake */
  CHRONO_N_MEMORY_CATEGORIES
} ChronoMemoryCategory;

const char *chrono_memory_category_to_string (ChronoMemoryCategory category);

/* One allocation of the caching allocator, matched to its free by address. */
typedef struct {
  gint64  alloc_ns;
  gint64  free_ns;             /* -1: not freed in the trace */
  gint64  bytes;
  guint64 addr;
  ChronoSpanRef alloc_event;   /* the [memory] instants (track, instant index) */
  ChronoSpanRef free_event;    /* track CHRONO_MEMORY_NONE when not freed */
  ChronoSpanRef op;            /* the innermost operator around the allocation;
                                * track CHRONO_MEMORY_NONE when none */
  guint32 op_name;             /* string ids, CHRONO_NO_STRING when none */
  guint32 module_name;         /* innermost "nn.Module: …" frame, when stacks were recorded */
  ChronoSpanRef free_op;       /* the operator around the free, likewise */
  guint8  category;            /* ChronoMemoryCategory */
  gboolean at_peak;            /* alive at its device's peak */
} ChronoMemoryAllocation;

/* Bytes alive at the peak that one operator, module or category holds. */
typedef struct {
  guint32 name;                /* string id; CHRONO_NO_STRING for "outside any" */
  gint64  bytes;
  guint   allocations;
} ChronoMemoryGroup;

typedef struct {
  guint32 name;                /* "ProfilerStep#12" */
  gint64  start_ns;
  gint64  end_ns;
  gint64  start_bytes;         /* allocated when it began */
  gint64  end_bytes;           /* and when it ended */
  gint64  peak_bytes;          /* the most within it */
  gint64  peak_ns;
} ChronoMemoryStep;

/* One device (or the host) of one file of the trace. Bytes allocated are
 * the allocator's own "Total Allocated" after each event when the trace
 * writes it; otherwise the running sum of the events' bytes from the
 * first event, since what was allocated before it is unknown. */
typedef struct {
  guint    part;               /* the file of the trace */
  gint     rank;               /* as the file says, -1 when it does not */
  gint     device_type;        /* PyTorch's: 0 CPU, 1 CUDA, 6 HIP, … */
  gint     device_id;          /* -1 for the host */
  char    *label;              /* "cuda:0", "cpu" */
  guint32  host_process;       /* the process whose threads wrote the events */
  gboolean has_totals;         /* "Total Allocated" and "Total Reserved" */
  gboolean has_addresses;      /* "Addr": allocations can be matched to frees */
  guint64  n_events;
  guint64  n_allocations;
  guint64  n_frees;
  guint64  n_unmatched_frees;  /* of memory allocated before the trace began */
  guint64  n_unfreed;          /* allocations still alive at the trace's end */
  gint64   peak_allocated_bytes;
  gint64   peak_ns;
  gint64   reserved_at_peak_bytes;   /* -1 without totals */
  gint64   peak_reserved_bytes;      /* -1 without totals */
  gint64   peak_reserved_ns;
  gint64   capacity_bytes;     /* from deviceProperties, -1 when unknown */
  /* Alive at the peak, by address; what the trace does not show alive
   * (allocated before it began) is the peak minus live_bytes. */
  gint64   live_bytes;
  guint    n_live;
  GArray  *by_operator;        /* ChronoMemoryGroup, most bytes first */
  GArray  *by_module;          /* likewise; empty without Python stacks */
  GArray  *by_category;        /* likewise */
  GArray  *largest;            /* indices into allocations, the largest alive at the peak first */
  GArray  *allocations;        /* ChronoMemoryAllocation by alloc time */
  GArray  *steps;              /* ChronoMemoryStep by start */
  /* Allocated and reserved bytes after each event, for the timeline. */
  guint    n_points;
  gint64  *point_ns;
  gint64  *point_allocated;
  gint64  *point_reserved;     /* NULL without totals */
  /* Their block maxima, for a column over many points. */
  ChronoMaxBlocks ns_blocks;
  ChronoMaxBlocks allocated_blocks;
  ChronoMaxBlocks reserved_blocks;   /* empty without totals */
  /* The counter track's name when the device was read from a sampled
   * counter (Perfetto, Neuron) rather than allocator events: then it has
   * neither totals nor addresses, only bytes in use over time. */
  guint32  counter_name;       /* CHRONO_NO_STRING for allocator events */
  /* For a counter whose parts are counters of their own, named after it
   * ("Device 0 HBM 0 memory (bytes) · weights"): each part's bytes at the
   * peak, most first, its name the part's counter; NULL otherwise. */
  GArray  *parts_at_peak;      /* ChronoMemoryGroup, allocations 0 */
} ChronoMemoryDevice;

/* The part's own name in a part counter's name ("weights"). */
const char                *chrono_memory_part_name     (const char    *counter);

/* A finding about memory: it costs no time, so it is ranked on a scale
 * of its own, by the share of the peak (or the device) it concerns. */
typedef struct {
  const char *rule;            /* "memory-growth", "memory-fragmentation", … */
  guint       device;          /* index into the devices */
  guint       severity;        /* ChronoSeverity */
  char       *title;
  gint64      start_ns;
  gint64      end_ns;
  guint       n_evidence;
  char      **evidence_keys;
  gdouble    *evidence_values;
  char       *recommendation;
  guint32     op_name;         /* the operator it names, or CHRONO_NO_STRING */
} ChronoMemoryFinding;

#define CHRONO_TYPE_MEMORY (chrono_memory_get_type ())
G_DECLARE_FINAL_TYPE (ChronoMemory, chrono_memory, CHRONO, MEMORY, GObject)

/* Reads the profiler's memory events of TRACE within [START_NS, END_NS)
 * (the whole trace when END_NS <= START_NS). NULL only when cancelled. */
ChronoMemory              *chrono_memory_new           (ChronoTrace   *trace,
                                                        gint64         start_ns,
                                                        gint64         end_ns,
                                                        GCancellable  *cancellable,
                                                        GError       **error);
ChronoTrace               *chrono_memory_get_trace     (ChronoMemory  *self);
/* Devices in the order their first event was read. None when the trace
 * has no memory events. */
guint                      chrono_memory_get_n_devices (ChronoMemory  *self);
const ChronoMemoryDevice  *chrono_memory_get_device    (ChronoMemory  *self,
                                                        guint          index);
/* The device of file PART with DEVICE_ID (-1 for the host), or NULL. */
const ChronoMemoryDevice  *chrono_memory_find_device   (ChronoMemory  *self,
                                                        guint          part,
                                                        gint           device_id);
/* The first of DEVICE's points at or after TS; n_points when none. */
guint                      chrono_memory_device_point_at    (const ChronoMemoryDevice *device,
                                                             gint64                    ts);
/* The process the timeline draws DEVICE under: the accelerator of the
 * same file with its index, else the host process that wrote the events. */
guint                      chrono_memory_device_get_process (ChronoTrace              *trace,
                                                             const ChronoMemoryDevice *device);
/* Most severe first. */
guint                      chrono_memory_get_n_findings (ChronoMemory *self);
const ChronoMemoryFinding *chrono_memory_get_finding    (ChronoMemory *self,
                                                         guint         index);
/* What the memory events leave unknown, one sentence each; NULL-terminated. */
const char * const        *chrono_memory_get_notes      (ChronoMemory *self);

/* The memory of each trace an analysis read, in its order. */
ChronoMemory * const      *chrono_analysis_get_memories (ChronoAnalysis *self,
                                                         guint          *n_memories);

G_END_DECLS
