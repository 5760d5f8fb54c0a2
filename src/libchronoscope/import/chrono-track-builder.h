/* chrono-track-builder.h: tracks while they are read, and the passes that
 * turn them into the model (sorting, nesting, lanes, flows, launches)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-trace-private.h"

G_BEGIN_DECLS

typedef struct {
  guint32         process;
  ChronoTrackType type;
  ChronoId        tid;
} ChronoTrackKey;

typedef struct _ChronoTrackBuilder ChronoTrackBuilder;

/* A B or E event before pairing. */
typedef struct {
  gint64  ts;
  guint64 args_off;  /* CHRONO_NO_ARGS when absent */
  guint32 name;
  guint32 cat;
  guint32 bind;      /* index into the v2 binds, or G_MAXUINT32 */
  guint8  is_end;
} ChronoMark;

/* The span of a bind that belongs to the slice of the bind before it:
 * one slice may carry several flows (Perfetto flow_ids). */
#define CHRONO_BIND_SAME_SPAN (G_MAXUINT32 - 1)

/* A span that carries a flow v2 bind_id. */
typedef struct {
  ChronoTrackBuilder *track;
  guint32 span;      /* index at the time it was added */
  gint64  ts;
  guint64 key;
  guint32 seq;
  guint8  in;
  guint8  out;
} ChronoV2Bind;

/* A flow v1 event (s, t, f). */
typedef struct {
  gint64  ts;
  guint64 key;       /* hash of id, category and name */
  ChronoTrackBuilder *track;
  guint32 seq;
  guint8  ph;
  guint8  enclosing; /* binds to the enclosing slice, not the next one */
} ChronoFlowEvent;

struct _ChronoTrackBuilder
{
  /* Its narrow columns are made when the track is taken: while reading,
   * they are the full-width arrays below. */
  ChronoTrack    track;
  gint64        *dur;
  guint32       *name_id;
  guint32       *cat;
  guint64       *args_off;
  gint64        *correlation;  /* NULL until a span has one */
  guint32       *inst_name;
  guint32       *inst_cat;
  guint64       *inst_args_off;
  ChronoTrackKey key;
  ChronoId       pid;
  guint32        cap_spans;
  guint32        cap_instants;
  guint32        cap_samples;
  GArray        *marks;
  guint32        device_votes;
  guint32        host_votes;
  guint32       *new_index;   /* index at add time -> sorted index */
  guint32        final_index;
  guint32        merge_offset; /* spans it had before the last append */
};

/* An edge between two spans that the importer knows by their index at
 * add time (a dependency list, a semaphore wait). */
typedef struct {
  ChronoTrackBuilder *from;
  ChronoTrackBuilder *to;
  guint32             from_span;
  guint32             to_span;
  ChronoFlowType      type;
} ChronoSpanEdge;

typedef struct {
  GPtrArray *builders;
  GArray    *flow_events;     /* ChronoFlowEvent */
  GArray    *v2_binds;        /* ChronoV2Bind */
  GArray    *edges;           /* ChronoSpanEdge, or NULL */
  gint64     min_ts;
  gint64     max_ts;
} ChronoBuildInput;

guint    chrono_track_key_hash                (gconstpointer key);
gboolean chrono_track_key_equal               (gconstpointer a,
                                               gconstpointer b);

ChronoTrackBuilder *chrono_track_builder_new  (const ChronoTrackKey *key,
                                               ChronoId              pid);
void     chrono_track_builder_free            (ChronoTrackBuilder *self);
guint32  chrono_track_builder_add_span        (ChronoTrackBuilder *self,
                                               gint64              start,
                                               gint64              dur,
                                               guint32             name,
                                               guint32             cat,
                                               guint64             args_off,
                                               guint8              kind,
                                               guint8              flags);
void     chrono_track_builder_set_correlation (ChronoTrackBuilder *self,
                                               guint32             index,
                                               gint64              value);
void     chrono_track_builder_add_mark        (ChronoTrackBuilder *self,
                                               const ChronoMark   *mark);
void     chrono_track_builder_add_instant     (ChronoTrackBuilder *self,
                                               gint64              ts,
                                               guint32             name,
                                               guint32             cat,
                                               guint64             args_off);
void     chrono_track_builder_add_sample      (ChronoTrackBuilder *self,
                                               gint64              ts,
                                               gdouble             value);

/* Moves what SRC holds after what SELF holds, leaving SRC empty but for
 * its key and names; SRC's string ids map through STRINGS, its marks' v2
 * bind indices move by V2_OFFSET. */
void     chrono_track_builder_append          (ChronoTrackBuilder *self,
                                               ChronoTrackBuilder *src,
                                               const guint32      *strings,
                                               guint32             v2_offset);

/* Moves the built tracks into TRACE and makes its flows and statistics. */
void     chrono_track_builder_finish_trace    (ChronoTrace        *trace,
                                               ChronoBuildInput   *input);

G_END_DECLS
