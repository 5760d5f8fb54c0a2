/* chrono-perfetto-private.h: the Perfetto reader's state (sequences,
 * tracks, clocks) and the passes that share it, one file each
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-json-scanner.h"
#include "chrono-kineto.h"
#include "chrono-perfetto-importer.h"
#include "chrono-proto-reader.h"
#include "chrono-track-builder.h"

G_BEGIN_DECLS

#define BOOTTIME_CLOCK          6
#define FIRST_SEQUENCE_CLOCK    64    /* ids 64-127 are scoped to a sequence */
#define LAST_SEQUENCE_CLOCK     127
#define MAX_TRACK_DEPTH         64    /* parent chains longer than this are cycles */
#define MAX_ARGS_DEPTH          32
#define MAX_NESTED_TRACES       4     /* compressed packets inside compressed packets */
#define MAX_INFLATED_BYTES      (256u << 20)
#define MAX_MALFORMED_WARNINGS  5
#define SNIFF_BYTES             (1u << 20)

/* TracePacket */
enum {
  PACKET_CLOCK_SNAPSHOT = 6,
  PACKET_TIMESTAMP = 8,
  PACKET_TRUSTED_UID = 3,
  PACKET_SEQUENCE_ID = 10,
  PACKET_TRACK_EVENT = 11,
  PACKET_INTERNED_DATA = 12,
  PACKET_SEQUENCE_FLAGS = 13,
  PACKET_SYNC_MARKER = 36,
  PACKET_STATE_CLEARED = 41,
  PACKET_PREVIOUS_DROPPED = 42,
  PACKET_PROCESS_DESCRIPTOR = 43,
  PACKET_THREAD_DESCRIPTOR = 44,
  PACKET_COMPRESSED = 50,
  PACKET_CLOCK_ID = 58,
  PACKET_DEFAULTS = 59,
  PACKET_TRACK_DESCRIPTOR = 60,
  PACKET_TRUSTED_PID = 79,
  PACKET_FIRST_ON_SEQUENCE = 87,
};

enum {
  SEQ_INCREMENTAL_STATE_CLEARED = 1,
  SEQ_NEEDS_INCREMENTAL_STATE = 2,
};

/* TrackEvent.Type */
enum {
  TYPE_UNSPECIFIED,
  TYPE_SLICE_BEGIN,
  TYPE_SLICE_END,
  TYPE_INSTANT,
  TYPE_COUNTER,
  N_TYPES,
  TYPE_LEGACY_COMPLETE = N_TYPES,   /* a legacy 'X': no TrackEvent type of its own */
};

/* InternedData tables this reader uses. */
enum {
  INTERN_CATEGORIES,
  INTERN_EVENT_NAMES,
  INTERN_ANNOTATION_NAMES,
  INTERN_ANNOTATION_STRINGS,
  N_INTERN
};

typedef struct _Track Track;

struct _Track {
  guint64  uuid;
  guint64  parent;
  gboolean has_parent;
  guint32  name;              /* descriptor name, or CHRONO_NO_STRING */
  gboolean has_process;
  gboolean has_thread;
  gint64   pid;
  gint64   tid;
  gboolean incremental;       /* counter values are deltas */
  gint64   unit_multiplier;
  gdouble  sum;
  guint32  order;             /* when it was first seen */
  guint32  rank;              /* place in the track tree, depth first */
  guint    group;             /* roots: index + 1 of the process they head */
  ChronoTrackBuilder *slices;
  ChronoTrackBuilder *counter;
};

typedef struct {
  GHashTable *interned[N_INTERN];   /* iid -> string id + 1 */
  gboolean valid;                    /* incremental state can be trusted */
  gboolean has_default_track;
  guint64  default_track;
  GArray  *extra_counters;          /* default extra_counter_track_uuids */
  GArray  *extra_double_counters;
  gboolean has_default_clock;
  guint32  default_clock;
  Track   *thread_track;            /* from a legacy thread_descriptor */
  Track   *loose_track;             /* events that name no track at all */
  gint64   last_us;                 /* legacy timestamp_delta_us base */
  guint32  id;
} Sequence;

typedef struct {
  guint32  seq;                     /* 0 unless sequence-scoped */
  guint32  id;
  gboolean incremental;
  guint64  multiplier;
  gint64   last_ns;
  GArray  *points;                  /* ClockPoint */
} Clock;

typedef struct {
  gint64 clock_ns;
  gint64 trace_ns;
} ClockPoint;

typedef struct {
  ChronoTrace        *trace;
  ChronoSource       *source;
  GCancellable       *cancellable;
  ChronoProgressFunc  progress;
  gpointer            progress_data;

  GHashTable *sequences;            /* id -> Sequence */
  GHashTable *tracks;               /* uuid -> Track */
  GHashTable *thread_tracks;        /* "pid/tid" -> Track, legacy descriptors */
  GPtrArray  *track_list;           /* owns the Tracks */
  GHashTable *process_names;        /* pid -> string id */
  GHashTable *processes;            /* pid -> index + 1 */
  GHashTable *clocks;               /* (seq << 32 | id) -> Clock */
  GPtrArray  *builders;
  GArray     *flow_events;          /* stays empty: Perfetto has no v1 flows */
  GArray     *v2_binds;
  GByteArray *args;                 /* the trace's args JSON */
  GString    *scratch;
  guint32     trace_clock;
  gint64      min_ts;
  gint64      max_ts;

  /* scratch for one event */
  GString    *cats;                 /* its categories, joined by commas */
  GArray     *annotations;          /* ChronoProtoField */
  GArray     *flow_ids;             /* guint64 */
  GArray     *terminating_ids;      /* guint64 */
  GArray     *counter_uuids;        /* guint64 */
  GArray     *counter_values;       /* gdouble */
  GArray     *double_counter_uuids;
  GArray     *double_counter_values;

  guint64     packets;
  guint64     type_counts[N_TYPES];
  guint64     legacy_counts[256];   /* untyped events by legacy phase */
  guint64     events;
  GHashTable *unknown_packets;      /* field number -> count */
  guint64     lost_packets;         /* dropped for missing incremental state */
  guint64     data_losses;
  guint64     unconverted_ts;
  guint64     unknown_iids;
  guint64     no_timestamp;
  guint64     unused_events;        /* unspecified type, legacy events */
  guint64     end_flows;
  guint64     malformed;
  guint64     inflate_errors;
  guint       nested;
} Importer;

/* What one TracePacket holds, read before it is handled. */
typedef struct {
  guint32  seq_id;
  gboolean has_ts;
  guint64  ts;
  gboolean has_clock;
  guint32  clock;
  guint32  flags;
  gboolean cleared;
  gboolean dropped;
  ChronoProtoField event;
  ChronoProtoField descriptor;
  ChronoProtoField interned;
  ChronoProtoField defaults;
  ChronoProtoField snapshot;
  ChronoProtoField process;
  ChronoProtoField thread;
  ChronoProtoField compressed;
} Packet;

/* chrono-perfetto-text.c */
guint32 chrono_perfetto_intern_bytes (Importer     *imp,
                                      const guint8 *data,
                                      gsize         len);
guint64 chrono_perfetto_write_args (Importer *imp,
                                    Sequence *seq);

/* chrono-perfetto-tracks.c */
ChronoTrackBuilder *chrono_perfetto_counter_of (Importer *imp,
                                                Track    *t);
guint32 chrono_perfetto_lookup_interned (Importer *imp,
                                         Sequence *seq,
                                         guint     table,
                                         guint64   iid);
guint32 chrono_perfetto_process_name (Importer *imp,
                                      gint64    pid);
void chrono_perfetto_resolve_tracks (Importer *imp);
void chrono_perfetto_sequence_clear (Sequence *seq);
Sequence *chrono_perfetto_sequence_for (Importer *imp,
                                        guint32   id);
void chrono_perfetto_sequence_free (Sequence *seq);
void chrono_perfetto_set_process_name (Importer *imp,
                                       gint64    pid,
                                       guint32   name);
ChronoTrackBuilder *chrono_perfetto_slices_of (Importer *imp,
                                               Track    *t);
Track *chrono_perfetto_track_for_uuid (Importer *imp,
                                       guint64   uuid);
Track *chrono_perfetto_track_new (Importer *imp);

/* chrono-perfetto-clocks.c */
void chrono_perfetto_clock_free (Clock *clock);
ChronoProtoStatus chrono_perfetto_handle_clock_snapshot (Importer     *imp,
                                                         guint32       seq,
                                                         const guint8 *data,
                                                         gsize         len);
gint64 chrono_perfetto_to_trace_time (Importer *imp,
                                      guint32   seq,
                                      guint32   id,
                                      guint64   ts);

/* chrono-perfetto-descriptors.c */
void chrono_perfetto_append_scalars (GArray                 *out,
                                     const ChronoProtoField *f,
                                     ChronoProtoWireType     element);
ChronoProtoStatus chrono_perfetto_handle_defaults (Sequence     *seq,
                                                   const guint8 *data,
                                                   gsize         len);
ChronoProtoStatus chrono_perfetto_handle_interned_data (Importer     *imp,
                                                        Sequence     *seq,
                                                        const guint8 *data,
                                                        gsize         len);
ChronoProtoStatus chrono_perfetto_handle_thread_packet (Importer     *imp,
                                                        Sequence     *seq,
                                                        const guint8 *data,
                                                        gsize         len);
ChronoProtoStatus chrono_perfetto_handle_track_descriptor (Importer     *imp,
                                                           const guint8 *data,
                                                           gsize         len);
ChronoProtoStatus chrono_perfetto_read_process (Importer     *imp,
                                                const guint8 *data,
                                                gsize         len,
                                                gint64       *pid);

/* chrono-perfetto-events.c */
ChronoProtoStatus chrono_perfetto_handle_track_event (Importer     *imp,
                                                      Sequence     *seq,
                                                      const Packet *pk);

G_END_DECLS
