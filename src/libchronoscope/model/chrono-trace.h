/* chrono-trace.h: a loaded trace, immutable once loaded
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-int-column.h"
#include "chrono-types.h"

G_BEGIN_DECLS

typedef struct {
  ChronoId pid;
  guint32  name;          /* process_name, or CHRONO_NO_STRING */
  guint32  labels;        /* process_labels, or CHRONO_NO_STRING */
  guint32  display_name;  /* what the timeline shows: "GPU 0", "Rank 3 · python (1234)" */
  gint64   sort_index;
  gboolean has_sort_index;
  gboolean is_device;     /* an accelerator, not a host process */
  gint     device_index;  /* -1 unless is_device */
} ChronoProcess;

/* One row of the timeline. Spans are stored column-wise, sorted by start
 * (longer first on ties), each with its nesting depth inside its lane;
 * spans that overlap without nesting go to further lanes. Durations,
 * names, categories, args offsets and correlations are ChronoIntColumns,
 * narrow where the track's range allows: read them with the getters
 * below. */
typedef struct {
  ChronoTrackType type;
  guint32  process;       /* index into the trace's processes */
  ChronoId tid;
  guint32  name;          /* thread_name or series name, or CHRONO_NO_STRING */
  guint32  display_name;  /* "thread 12 (pt_main_thread)", "stream 7" */
  gint64   sort_index;
  gboolean has_sort_index;

  guint32  n_spans;
  gint64  *start;         /* ns */
  ChronoIntColumn dur;    /* ns */
  ChronoIntColumn name_id;
  ChronoIntColumn cat_id;
  ChronoIntColumn args_off;     /* where the args object starts in the JSON text, or CHRONO_NO_ARGS */
  guint16 *depth;
  guint16 *lane;
  guint8  *kind;          /* ChronoKind */
  guint8  *flags;         /* CHRONO_SPAN_* */
  ChronoIntColumn correlation;  /* launch correlation; no data when no span has one, -1 for none */
  guint16  n_lanes;
  guint16  max_depth;

  guint32  n_instants;
  gint64  *inst_ts;
  ChronoIntColumn inst_name;
  ChronoIntColumn inst_cat;
  ChronoIntColumn inst_args_off;

  guint32  n_samples;     /* counter tracks */
  gint64  *sample_ts;
  gdouble *sample_value;
} ChronoTrack;

static inline gint64
chrono_track_get_dur (const ChronoTrack *track,
                      guint32            i)
{
  return chrono_int_column_get (&track->dur, i);
}

static inline gint64
chrono_track_get_end (const ChronoTrack *track,
                      guint32            i)
{
  return track->start[i] + chrono_int_column_get (&track->dur, i);
}

static inline guint32
chrono_track_get_name (const ChronoTrack *track,
                       guint32            i)
{
  return (guint32) chrono_int_column_get (&track->name_id, i);
}

static inline guint32
chrono_track_get_cat (const ChronoTrack *track,
                      guint32            i)
{
  return (guint32) chrono_int_column_get (&track->cat_id, i);
}

static inline guint64
chrono_track_get_args (const ChronoTrack *track,
                       guint32            i)
{
  return (guint64) chrono_int_column_get (&track->args_off, i);
}

/* -1 for none. */
static inline gint64
chrono_track_get_correlation (const ChronoTrack *track,
                              guint32            i)
{
  return track->correlation.data != NULL ? chrono_int_column_get (&track->correlation, i) : -1;
}

static inline guint32
chrono_track_get_inst_name (const ChronoTrack *track,
                            guint32            i)
{
  return (guint32) chrono_int_column_get (&track->inst_name, i);
}

static inline guint32
chrono_track_get_inst_cat (const ChronoTrack *track,
                           guint32            i)
{
  return (guint32) chrono_int_column_get (&track->inst_cat, i);
}

static inline guint64
chrono_track_get_inst_args (const ChronoTrack *track,
                            guint32            i)
{
  return (guint64) chrono_int_column_get (&track->inst_args_off, i);
}

/* One member of an args object, as people read it. */
typedef struct {
  char *key;
  char *text;   /* strings unescaped, numbers exactly as written (ids above
                 * 2^63 too), objects and arrays as compact JSON */
} ChronoArg;

void chrono_arg_free (ChronoArg *arg);

typedef struct {
  ChronoSpanRef from;
  ChronoSpanRef to;
  ChronoFlowType type;
} ChronoFlow;

/* What the importer read, for summaries and tests. */
typedef struct {
  GHashTable *phases;        /* ph string -> count (GUINT_TO_POINTER) */
  guint64 events;            /* objects read in the event array */
  guint64 spans;             /* X, and B with or without its E */
  guint64 async_spans;       /* b/e and S/F pairs */
  guint64 instants;
  guint64 counter_samples;
  guint64 flows;             /* flow edges made from flow events */
  guint64 launch_links;      /* runtime-to-GPU links made by correlation */
  guint64 dependencies;      /* dependency and semaphore-wait edges */
  GHashTable *engines;       /* accelerator engine name -> instructions (GUINT_TO_POINTER) */
  guint64 dropped;           /* events not represented in the model */
  guint64 kinds[CHRONO_N_KINDS];
  gboolean truncated;
  guint64 file_bytes;        /* bytes of the files read, when they are not the one source kept; else 0 */
  GPtrArray *warnings;       /* char* */
  GArray *quirks;            /* gboolean per warning: chrono_trace_warning_is_quirk() */
} ChronoLoadStats;

/* One file of a trace: a trace loaded from one file has one part, a merged
 * trace one per file, in the order they were merged. The file's processes
 * are [first_process, first_process + n_processes) of the trace and its
 * tracks [first_track, first_track + n_tracks); every process and track
 * belongs to exactly one part. */
typedef struct {
  const char *path;          /* the file it was read from */
  const char *format;        /* "kineto", "neuron-device", ... */
  gint     rank;             /* as the file declares it ("distributedInfo"), -1 when it does not */
  gint     world_size;       /* likewise, -1 when it does not */
  gint64   shift_ns;         /* added to the file's times to put them on the trace's clock */
  gint64   base_time_ns;     /* the file's own base time (baseTimeNanoseconds), 0 when none */
  gint64   start_ns;         /* the file's first and last times, on the trace's clock */
  gint64   end_ns;
  gboolean truncated;        /* the file was cut short */
  guint    first_process;
  guint    n_processes;
  guint    first_track;
  guint    n_tracks;
} ChronoTracePart;

#define CHRONO_TYPE_TRACE (chrono_trace_get_type ())
G_DECLARE_FINAL_TYPE (ChronoTrace, chrono_trace, CHRONO, TRACE, GObject)

const char          *chrono_trace_get_path          (ChronoTrace *self);
const char          *chrono_trace_get_format        (ChronoTrace *self);
const char          *chrono_trace_get_compression   (ChronoTrace *self);
gsize                chrono_trace_get_source_size   (ChronoTrace *self);
/* The folder of the unlinked file that holds a compressed trace's text;
 * NULL when the text is the mapped file itself or held in memory. */
const char          *chrono_trace_get_text_dir      (ChronoTrace *self);
const char          *chrono_trace_get_string        (ChronoTrace *self,
                                                     guint32      id);
guint                chrono_trace_get_n_strings     (ChronoTrace *self);
guint                chrono_trace_get_n_processes   (ChronoTrace *self);
const ChronoProcess *chrono_trace_get_process       (ChronoTrace *self,
                                                     guint        index);
guint                chrono_trace_get_n_tracks      (ChronoTrace *self);
const ChronoTrack   *chrono_trace_get_track         (ChronoTrace *self,
                                                     guint        index);
guint                chrono_trace_get_n_flows       (ChronoTrace *self);
const ChronoFlow    *chrono_trace_get_flow          (ChronoTrace *self,
                                                     guint        index);
/* All the flows, chrono_trace_get_n_flows() of them, for a pass over
 * each without a call a flow. */
const ChronoFlow    *chrono_trace_get_flows         (ChronoTrace *self);
gint64               chrono_trace_get_start_ns      (ChronoTrace *self);
gint64               chrono_trace_get_end_ns        (ChronoTrace *self);
gint64               chrono_trace_get_base_time_ns  (ChronoTrace *self);
gint                 chrono_trace_get_rank          (ChronoTrace *self);
gint                 chrono_trace_get_world_size    (ChronoTrace *self);
const ChronoLoadStats *chrono_trace_get_stats       (ChronoTrace *self);
/* The files the trace was read from: 1 unless it was merged. */
guint                chrono_trace_get_n_parts       (ChronoTrace *self);
const ChronoTracePart *chrono_trace_get_part        (ChronoTrace *self,
                                                     guint        index);
/* The part that PROCESS came from; -1 when there is no such process. */
gint                 chrono_trace_get_part_of_process (ChronoTrace *self,
                                                       guint        process);
gsize                chrono_trace_get_model_bytes   (ChronoTrace *self);
/* Track indices in the order people read them: by process, host threads
 * before streams, the busiest first. Free with g_free. */
guint               *chrono_trace_dup_track_order   (ChronoTrace *self,
                                                     guint       *n_tracks);

/* The text of the JSON value that starts at OFFSET (not NUL-terminated):
 * in the retained source, exactly as the profiler wrote it (integers above
 * 2^63 stay exact here), or for formats without JSON text (Perfetto
 * protobuf) in the compact JSON their importer wrote. NULL when there is
 * none, and for args that are table rows (Parquet): those only
 * chrono_trace_dup_args() and chrono_trace_parse_value_at() read. */
const char          *chrono_trace_get_raw_value     (ChronoTrace *self,
                                                     guint64      offset,
                                                     gsize       *length);
/* The text from the value at OFFSET to the end of its source (AVAILABLE
 * bytes), for readers that stop inside the value; NULL when there is none
 * (and for args that are table rows). */
const char          *chrono_trace_get_raw_text      (ChronoTrace *self,
                                                     guint64      offset,
                                                     gsize       *available);
/* Asks the processor to bring the first bytes of the value at OFFSET into
 * its cache, for a pass that reads many args scattered over the file. */
void                 chrono_trace_prefetch_value    (ChronoTrace *self,
                                                     guint64      offset);

/* The same, for OFFSET in TEXT of LENGTH bytes: the first four cache
 * lines hold the members the analyses read. */
static inline void
chrono_prefetch_text (const char *text,
                      gsize       length,
                      guint64     offset)
{
  for (gsize ahead = 0; ahead < 256 && offset + ahead < length; ahead += 64)
    __builtin_prefetch (text + offset + ahead);
}

/* The args' text for a pass that reads many: when every args offset of
 * the trace points into one text, that text, read without a call per
 * value; otherwise TEXT is NULL and each read asks the trace. */
typedef struct {
  ChronoTrace *trace;
  const char  *text;
  gsize        length;
} ChronoArgsText;

void                 chrono_args_text_init          (ChronoArgsText *view,
                                                     ChronoTrace    *trace);

/* chrono_trace_get_raw_text() through VIEW. */
static inline const char *
chrono_args_text_get (const ChronoArgsText *view,
                      guint64               offset,
                      gsize                *available)
{
  if (view->text == NULL)
    return chrono_trace_get_raw_text (view->trace, offset, available);
  /* Offsets into other files, and CHRONO_NO_ARGS, lie past the end. */
  if (offset >= view->length)
    return NULL;
  *available = view->length - offset;
  return view->text + offset;
}

/* The members of a Neuron profile's records that the analysis reads, as
 * its importer kept them; NULL when none did. Setting them (owned) is
 * for a reader that gathers them later, once. */
typedef struct _ChronoNeuronFacts ChronoNeuronFacts;
ChronoNeuronFacts   *chrono_trace_get_neuron_facts  (ChronoTrace       *self);
void                 chrono_trace_set_neuron_facts  (ChronoTrace       *self,
                                                     ChronoNeuronFacts *facts);

/* chrono_trace_prefetch_value() through VIEW. */
static inline void
chrono_args_text_prefetch (const ChronoArgsText *view,
                           guint64               offset)
{
  if (view->text == NULL)
    chrono_trace_prefetch_value (view->trace, offset);
  else
    chrono_prefetch_text (view->text, view->length, offset);
}
/* The members of the args object that starts at OFFSET, in file order;
 * an empty array when there is none. */
GPtrArray           *chrono_trace_dup_args          (ChronoTrace *self,
                                                     guint64      offset);
/* The text of the first member KEY of the args at OFFSET, as
 * chrono_trace_dup_args() gives it, or NULL; a table row's (Parquet)
 * without writing the row as text. */
char                *chrono_trace_dup_arg           (ChronoTrace *self,
                                                     guint64      offset,
                                                     const char  *key);
/* The same for the first of KEYS (NULL-terminated) the args have. */
char                *chrono_trace_dup_first_arg     (ChronoTrace        *self,
                                                     guint64             offset,
                                                     const char * const *keys);
/* Parses the JSON value that starts at OFFSET in the retained source with
 * json-glib: args are kept as text until someone asks for them. */
JsonNode            *chrono_trace_parse_value_at    (ChronoTrace *self,
                                                     guint64      offset);
JsonNode            *chrono_trace_get_span_args     (ChronoTrace *self,
                                                     ChronoSpanRef span);
/* Whether warning INDEX of the load's is about the format's own way of
 * writing something, handled in full (Kineto's flow ends without a start,
 * a slice still open when recording stopped), rather than something a
 * person must know (a file cut short, events not shown). */
gboolean             chrono_trace_warning_is_quirk  (ChronoTrace *self,
                                                     guint        index);
/* Top-level metadata objects kept as raw JSON: "deviceProperties",
 * "distributedInfo", ...; NULL when absent. */
JsonNode            *chrono_trace_get_metadata      (ChronoTrace *self,
                                                     const char  *key);

G_END_DECLS
