/* chrono-perfetto-importer.c
 *
 * Walks the Trace → TracePacket stream with the wire reader, keeps the
 * per-sequence state (interning, defaults, clocks) and hands slices,
 * instants, counter samples and flows to the track builders, so that the
 * model comes out as for JSON traces. Field numbers are those of
 * protos/perfetto/trace/ in the Perfetto sources.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>
#include <zlib.h>

#include "chrono-json-scanner.h"
#include "chrono-kineto.h"
#include "chrono-perfetto-importer.h"
#include "chrono-proto-reader.h"
#include "chrono-track-builder.h"

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

/* What the load summary calls each TrackEvent type. */
static const char *const type_names[N_TYPES] = {
  "unspecified", "slice_begin", "slice_end", "instant", "counter",
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

/* -------------------------------------------------------------------- */
/* Names of the TracePacket fields this reader does not show            */

/* Packets about the recording itself (its config, stats, clocks' ids,
 * the service's own events), which hold no events: a trace has them
 * whether or not anything is lost. */
static gboolean
is_bookkeeping (guint32 number)
{
  static const guint32 fields[] = { 33, 34, 35, 45, 69, 72, 78, 89 };

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    if (fields[i] == number)
      return TRUE;
  return FALSE;
}

static const char *
packet_field_name (guint32 number)
{
  static const struct { guint32 number; const char *name; } names[] = {
    { 1, "ftrace_events" }, { 2, "process_tree" }, { 4, "inode_file_map" },
    { 5, "chrome_events" }, { 7, "sys_stats" }, { 9, "process_stats" },
    { 33, "trace_config" }, { 34, "ftrace_stats" }, { 35, "trace_stats" },
    { 37, "profile_packet" }, { 38, "battery" }, { 39, "android_log" },
    { 40, "power_rails" }, { 45, "system_info" }, { 46, "trigger" },
    { 47, "packages_list" }, { 48, "chrome_benchmark_metadata" },
    { 49, "perfetto_metatrace" }, { 51, "chrome_metadata" },
    { 52, "gpu_counter_event" }, { 53, "gpu_render_stage_event" },
    { 54, "streaming_profile_packet" }, { 56, "heap_graph" },
    { 57, "graphics_frame_event" }, { 61, "module_symbols" },
    { 62, "vulkan_memory_event" }, { 63, "gpu_log" },
    { 64, "deobfuscation_mapping" }, { 65, "vulkan_api_event" },
    { 66, "perf_sample" }, { 67, "cpu_info" }, { 68, "smaps_packet" },
    { 69, "service_event" }, { 70, "initial_display_state" },
    { 71, "gpu_mem_total_event" }, { 72, "extension_descriptor" },
    { 73, "memory_tracker_snapshot" }, { 74, "streaming_allocation" },
    { 75, "streaming_free" }, { 76, "frame_timeline_event" },
    { 77, "android_energy_estimation_breakdown" }, { 78, "ui_state" },
    { 82, "translation_table" }, { 84, "statsd_atom" },
    { 86, "android_system_property" }, { 89, "trace_uuid" },
    { 90, "track_event_range_of_interest" }, { 91, "entity_state_residency" },
    { 95, "etw_events" }, { 107, "remote_clock_sync" },
    { 133, "zstd_compressed_packets" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (names[i].number == number)
      return names[i].name;
  return NULL;
}

/* -------------------------------------------------------------------- */
/* Strings                                                              */

static guint32
intern_bytes (Importer     *imp,
              const guint8 *data,
              gsize         len)
{
  g_autofree char *valid = NULL;

  if (g_utf8_validate_len ((const char *) data, len, NULL))
    return chrono_string_table_intern (imp->trace->strings, (const char *) data, len);
  /* Names end up in labels: keep them UTF-8. */
  valid = g_utf8_make_valid ((const char *) data, (gssize) len);
  return chrono_string_table_intern (imp->trace->strings, valid, strlen (valid));
}

static void
append_text (GByteArray *out,
             const char *text)
{
  g_byte_array_append (out, (const guint8 *) text, strlen (text));
}

/* DATA as a JSON string: quotes, escapes, and valid UTF-8 whatever the
 * producer wrote. */
static void
append_json_string (GByteArray   *out,
                    const guint8 *data,
                    gsize         len)
{
  g_autofree char *valid = NULL;
  static const char hex[] = "0123456789abcdef";

  if (!g_utf8_validate_len ((const char *) data, len, NULL))
    {
      valid = g_utf8_make_valid ((const char *) data, (gssize) len);
      data = (const guint8 *) valid;
      len = strlen (valid);
    }
  g_byte_array_append (out, (const guint8 *) "\"", 1);
  for (gsize i = 0; i < len; i++)
    {
      guint8 c = data[i];

      if (c == '"' || c == '\\')
        {
          guint8 esc[2] = { '\\', c };
          g_byte_array_append (out, esc, 2);
        }
      else if (c < 0x20)
        {
          guint8 esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
          g_byte_array_append (out, esc, 6);
        }
      else
        g_byte_array_append (out, &c, 1);
    }
  g_byte_array_append (out, (const guint8 *) "\"", 1);
}

static void
append_json_double (GByteArray *out,
                    gdouble     value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* JSON has no NaN nor infinities: those go as text. */
  if (isnan (value) || isinf (value))
    {
      const char *text = isnan (value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
      append_json_string (out, (const guint8 *) text, strlen (text));
      return;
    }
  append_text (out, g_ascii_dtostr (buf, sizeof buf, value));
}

/* -------------------------------------------------------------------- */
/* Sequences, tracks, processes                                         */

static void
sequence_free (Sequence *seq)
{
  for (guint i = 0; i < N_INTERN; i++)
    g_hash_table_unref (seq->interned[i]);
  g_array_unref (seq->extra_counters);
  g_array_unref (seq->extra_double_counters);
  g_free (seq);
}

/* What SEQUENCE_INCREMENTAL_STATE_CLEARED resets. */
static void
sequence_clear (Sequence *seq)
{
  for (guint i = 0; i < N_INTERN; i++)
    g_hash_table_remove_all (seq->interned[i]);
  seq->has_default_track = FALSE;
  seq->has_default_clock = FALSE;
  g_array_set_size (seq->extra_counters, 0);
  g_array_set_size (seq->extra_double_counters, 0);
}

static Sequence *
sequence_for (Importer *imp,
              guint32   id)
{
  Sequence *seq = g_hash_table_lookup (imp->sequences, GUINT_TO_POINTER (id));

  if (seq != NULL)
    return seq;
  seq = g_new0 (Sequence, 1);
  seq->id = id;
  for (guint i = 0; i < N_INTERN; i++)
    seq->interned[i] = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  seq->extra_counters = g_array_new (FALSE, FALSE, sizeof (guint64));
  seq->extra_double_counters = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_hash_table_insert (imp->sequences, GUINT_TO_POINTER (id), seq);
  return seq;
}

/* The interned string IID of TABLE, or CHRONO_NO_STRING (and counted)
 * when the sequence never defined it. */
static guint32
lookup_interned (Importer *imp,
                 Sequence *seq,
                 guint     table,
                 guint64   iid)
{
  gpointer found = g_hash_table_lookup (seq->interned[table], &iid);

  if (found == NULL)
    {
      imp->unknown_iids++;
      return CHRONO_NO_STRING;
    }
  return GPOINTER_TO_UINT (found) - 1;
}

static Track *
track_new (Importer *imp)
{
  Track *t = g_new0 (Track, 1);

  t->unit_multiplier = 1;
  t->order = imp->track_list->len;
  g_ptr_array_add (imp->track_list, t);
  return t;
}

static Track *
track_for_uuid (Importer *imp,
                guint64   uuid)
{
  Track *t = g_hash_table_lookup (imp->tracks, &uuid);

  if (t == NULL)
    {
      t = track_new (imp);
      t->uuid = uuid;
      g_hash_table_insert (imp->tracks, &t->uuid, t);
    }
  return t;
}

/* Builders are made before the descriptors are all known: their keys
 * are set once the pass is over (resolve_tracks). */
static ChronoTrackBuilder *
new_builder (Importer *imp)
{
  ChronoTrackKey key = { 0, CHRONO_TRACK_THREAD, { 0, FALSE } };
  ChronoId pid = { 0, FALSE };
  ChronoTrackBuilder *b = chrono_track_builder_new (&key, pid);

  g_ptr_array_add (imp->builders, b);
  return b;
}

static ChronoTrackBuilder *
slices_of (Importer *imp,
           Track    *t)
{
  if (t->slices == NULL)
    t->slices = new_builder (imp);
  return t->slices;
}

static ChronoTrackBuilder *
counter_of (Importer *imp,
            Track    *t)
{
  if (t->counter == NULL)
    t->counter = new_builder (imp);
  return t->counter;
}

/* The process of PID; a string PID (a group of tracks) is always new. */
static guint
process_for (Importer *imp,
             ChronoId  pid,
             guint32   name)
{
  gint64 key = pid.value;
  gpointer found = pid.is_string ? NULL : g_hash_table_lookup (imp->processes, &key);
  ChronoProcess process = { 0 };

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  process.pid = pid;
  process.name = name;
  process.device_index = -1;
  g_array_append_val (imp->trace->processes, process);
  if (!pid.is_string)
    g_hash_table_insert (imp->processes, g_memdup2 (&key, sizeof key),
                         GUINT_TO_POINTER (imp->trace->processes->len));
  return imp->trace->processes->len - 1;
}

static guint32
process_name (Importer *imp,
              gint64    pid)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (imp->process_names, &pid));
}

static void
set_process_name (Importer *imp,
                  gint64    pid,
                  guint32   name)
{
  if (name != CHRONO_NO_STRING)
    g_hash_table_insert (imp->process_names, g_memdup2 (&pid, sizeof pid), GUINT_TO_POINTER (name));
}

static Track *
parent_of (Importer    *imp,
           const Track *t)
{
  return t->has_parent ? g_hash_table_lookup (imp->tracks, &t->parent) : NULL;
}

/* Depth-first ranks, children in the order they were first seen: the
 * rows come out in the order of the track tree. */
static void
rank_tracks (Importer *imp)
{
  guint n = imp->track_list->len;
  g_autofree guint32 *first_child = g_new (guint32, n);
  g_autofree guint32 *next_sibling = g_new (guint32, n);
  g_autofree guint32 *last_child = g_new (guint32, n);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 rank = 0;

  for (guint i = 0; i < n; i++)
    first_child[i] = next_sibling[i] = last_child[i] = G_MAXUINT32;
  for (guint i = 0; i < n; i++)
    {
      Track *t = g_ptr_array_index (imp->track_list, i);
      Track *p = parent_of (imp, t);

      t->rank = G_MAXUINT32;
      if (p == NULL || p == t)
        continue;
      if (last_child[p->order] == G_MAXUINT32)
        first_child[p->order] = i;
      else
        next_sibling[last_child[p->order]] = i;
      last_child[p->order] = i;
    }
  for (guint root = 0; root < n; root++)
    {
      Track *r = g_ptr_array_index (imp->track_list, root);
      Track *p = parent_of (imp, r);

      if (p != NULL && p != r)
        continue;
      g_array_append_val (stack, root);
      while (stack->len > 0)
        {
          guint32 i = g_array_index (stack, guint32, stack->len - 1);
          Track *t = g_ptr_array_index (imp->track_list, i);

          g_array_set_size (stack, stack->len - 1);
          if (t->rank != G_MAXUINT32)
            continue;
          t->rank = rank++;
          /* Push the children last first, so that the first comes out first. */
          {
            guint mark = stack->len;

            for (guint32 c = first_child[i]; c != G_MAXUINT32; c = next_sibling[c])
              g_array_append_val (stack, c);
            for (guint a = mark, b = stack->len; b > a + 1; a++, b--)
              {
                guint32 tmp = g_array_index (stack, guint32, a);
                g_array_index (stack, guint32, a) = g_array_index (stack, guint32, b - 1);
                g_array_index (stack, guint32, b - 1) = tmp;
              }
          }
        }
    }
  /* Tracks on a parent cycle have no root: they go last. */
  for (guint i = 0; i < n; i++)
    {
      Track *t = g_ptr_array_index (imp->track_list, i);
      if (t->rank == G_MAXUINT32)
        t->rank = rank++;
    }
}

static void
set_builder_key (ChronoTrackBuilder *b,
                 guint               process,
                 ChronoId            pid,
                 ChronoTrackType     type,
                 ChronoId            tid,
                 guint32             name)
{
  b->key.process = process;
  b->key.type = type;
  b->key.tid = tid;
  b->pid = pid;
  b->track.process = process;
  b->track.type = type;
  b->track.tid = tid;
  b->track.name = name;
}

/* Gives each track with data its process, type and name: a thread track
 * belongs to its thread's process; any other track to the process or
 * thread it nests under, named after its parent below that; tracks under
 * no process form a group named after their root track. */
static void
resolve_track (Importer *imp,
               Track    *t)
{
  g_autoptr(GPtrArray) path = g_ptr_array_new ();
  Track *owner = NULL;
  Track *root = t;
  GString *name = imp->scratch;
  ChronoId pid;
  guint process;
  guint32 name_id;
  ChronoId tid = { (gint64) t->uuid, FALSE };

  for (Track *a = t; a != NULL && path->len < MAX_TRACK_DEPTH; a = parent_of (imp, a))
    {
      if (a->has_thread || a->has_process)
        {
          owner = a;
          break;
        }
      g_ptr_array_add (path, a);
      root = a;
      if (parent_of (imp, a) == a)
        break;
    }

  if (owner != NULL)
    {
      pid = (ChronoId) { owner->pid, FALSE };
      process = process_for (imp, pid, process_name (imp, owner->pid));
    }
  else
    {
      /* A group of its own, named after its root (the last on the path). */
      const char *root_name = chrono_string_table_get (imp->trace->strings, root->name);
      g_autofree char *text = *root_name ? g_strdup (root_name)
                                         : g_strdup_printf ("Track %" G_GUINT64_FORMAT, root->uuid);
      guint32 id = chrono_string_table_intern (imp->trace->strings, text, strlen (text));

      pid = (ChronoId) { id, TRUE };
      if (root->group == 0)
        root->group = process_for (imp, pid, id) + 1;
      process = root->group - 1;
      /* The root's own events are named by it; its descendants below it. */
      if (path->len > 1)
        g_ptr_array_set_size (path, path->len - 1);
    }

  /* The track's name after its parent's: the end of a deep path is what
   * tells rows apart in a narrow column. */
  g_string_truncate (name, 0);
  for (guint i = MIN (path->len, 2); i > 0; i--)
    {
      const Track *a = g_ptr_array_index (path, i - 1);
      const char *part = chrono_string_table_get (imp->trace->strings, a->name);

      if (!*part)
        continue;
      if (name->len > 0)
        g_string_append (name, " › ");
      g_string_append (name, part);
    }
  if (t == owner && t->has_thread)
    {
      /* The thread's own track. */
      name_id = t->name;
      tid = (ChronoId) { t->tid, FALSE };
    }
  else if (name->len == 0 && t == owner)
    name_id = chrono_string_table_intern (imp->trace->strings, "Process events", 14);
  else
    name_id = chrono_string_table_intern (imp->trace->strings, name->str, name->len);

  if (t->slices != NULL)
    set_builder_key (t->slices, process, pid,
                     t == owner && t->has_thread ? CHRONO_TRACK_THREAD : CHRONO_TRACK_ASYNC,
                     tid, name_id);
  if (t->counter != NULL)
    {
      ChronoId cid = { (gint64) t->uuid, FALSE };
      set_builder_key (t->counter, process, pid, CHRONO_TRACK_COUNTER, cid,
                       name_id != CHRONO_NO_STRING ? name_id : t->name);
    }
}

static gint
compare_rank (gconstpointer a,
              gconstpointer b)
{
  const Track *x = *(Track * const *) a;
  const Track *y = *(Track * const *) b;

  return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Processes and rows in the order of the track tree. */
static void
resolve_tracks (Importer *imp)
{
  g_autoptr(GPtrArray) by_rank = g_ptr_array_sized_new (imp->track_list->len);
  guint n = 0;

  rank_tracks (imp);
  for (guint i = 0; i < imp->track_list->len; i++)
    g_ptr_array_add (by_rank, g_ptr_array_index (imp->track_list, i));
  g_ptr_array_sort (by_rank, compare_rank);
  for (guint i = 0; i < by_rank->len; i++)
    {
      Track *t = g_ptr_array_index (by_rank, i);

      if (t->slices == NULL && t->counter == NULL)
        continue;
      resolve_track (imp, t);
      if (t->slices != NULL)
        imp->builders->pdata[n++] = t->slices;
      if (t->counter != NULL)
        imp->builders->pdata[n++] = t->counter;
    }
  g_assert (n == imp->builders->len);
}

/* -------------------------------------------------------------------- */
/* Clocks                                                               */

static guint64
clock_key (guint32 seq,
           guint32 id)
{
  gboolean scoped = id >= FIRST_SEQUENCE_CLOCK && id <= LAST_SEQUENCE_CLOCK;

  return (guint64) (scoped ? seq : 0) << 32 | id;
}

static void
clock_free (Clock *clock)
{
  g_array_unref (clock->points);
  g_free (clock);
}

static Clock *
clock_for (Importer *imp,
           guint32   seq,
           guint32   id,
           gboolean  create)
{
  guint64 key = clock_key (seq, id);
  Clock *clock = g_hash_table_lookup (imp->clocks, &key);

  if (clock == NULL && create)
    {
      clock = g_new0 (Clock, 1);
      clock->id = id;
      clock->multiplier = 1;
      clock->points = g_array_new (FALSE, FALSE, sizeof (ClockPoint));
      g_hash_table_insert (imp->clocks, g_memdup2 (&key, sizeof key), clock);
    }
  return clock;
}

typedef struct {
  guint32  id;
  guint64  timestamp;
  gboolean incremental;
  guint64  multiplier;
} SnapshotClock;

static ChronoProtoStatus
read_snapshot_clock (const guint8  *data,
                     gsize          len,
                     SnapshotClock *c)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;

  c->id = 0;
  c->timestamp = 0;
  c->incremental = FALSE;
  c->multiplier = 1;
  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    if (f.wire_type == CHRONO_PROTO_VARINT)
      switch (f.number)
        {
        case 1: c->id = (guint32) f.value; break;
        case 2: c->timestamp = f.value; break;
        case 3: c->incremental = f.value != 0; break;
        case 4: c->multiplier = f.value > 0 ? f.value : 1; break;
        default: break;
        }
  return st;
}

/* ClockSnapshot: every clock in it read at one instant. Each becomes a
 * point on the line that maps it to the trace clock. */
static ChronoProtoStatus
handle_clock_snapshot (Importer     *imp,
                       guint32       seq,
                       const guint8 *data,
                       gsize         len)
{
  g_autoptr(GArray) clocks = g_array_new (FALSE, FALSE, sizeof (SnapshotClock));
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;
  gint64 trace_ns = 0;
  gboolean has_trace = FALSE;

  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    {
      SnapshotClock c;

      if (f.number == 1 && f.wire_type == CHRONO_PROTO_BYTES)
        {
          ChronoProtoStatus cst = read_snapshot_clock (f.data, f.len, &c);
          if (cst != CHRONO_PROTO_END)
            return cst;
          g_array_append_val (clocks, c);
        }
      else if (f.number == 2 && f.wire_type == CHRONO_PROTO_VARINT && imp->trace_clock == 0)
        imp->trace_clock = (guint32) f.value;
    }
  if (st != CHRONO_PROTO_END)
    return st;
  if (imp->trace_clock == 0)
    imp->trace_clock = BOOTTIME_CLOCK;

  for (guint i = 0; i < clocks->len; i++)
    {
      SnapshotClock *c = &g_array_index (clocks, SnapshotClock, i);

      if (c->id == imp->trace_clock)
        {
          trace_ns = (gint64) (c->timestamp * c->multiplier);
          has_trace = TRUE;
        }
    }
  for (guint i = 0; i < clocks->len; i++)
    {
      SnapshotClock *c = &g_array_index (clocks, SnapshotClock, i);
      Clock *clock = clock_for (imp, seq, c->id, TRUE);
      ClockPoint point = { (gint64) (c->timestamp * c->multiplier), trace_ns };

      clock->incremental = c->incremental;
      clock->multiplier = c->multiplier;
      if (c->incremental)
        clock->last_ns = point.clock_ns;
      if (has_trace && c->id != imp->trace_clock)
        g_array_append_val (clock->points, point);
    }
  return CHRONO_PROTO_END;
}

/* TS of clock ID on sequence SEQ in trace-clock nanoseconds. A clock no
 * snapshot relates to the trace clock keeps its value, and is counted. */
static gint64
to_trace_time (Importer *imp,
               guint32   seq,
               guint32   id,
               guint64   ts)
{
  Clock *clock;
  gint64 ns;
  const ClockPoint *best = NULL;

  if (id == (imp->trace_clock ? imp->trace_clock : BOOTTIME_CLOCK))
    {
      clock = clock_for (imp, seq, id, FALSE);
      return (gint64) (ts * (clock ? clock->multiplier : 1));
    }
  clock = clock_for (imp, seq, id, FALSE);
  if (clock == NULL)
    {
      /* No snapshot at all: a single clock domain, as written. */
      if (g_hash_table_size (imp->clocks) > 0)
        imp->unconverted_ts++;
      return (gint64) ts;
    }
  ns = (gint64) (ts * clock->multiplier);
  if (clock->incremental)
    {
      ns += clock->last_ns;
      clock->last_ns = ns;
    }
  /* The latest snapshot at or before the time, else the first. */
  for (guint i = clock->points->len; i > 0; i--)
    {
      const ClockPoint *p = &g_array_index (clock->points, ClockPoint, i - 1);

      best = p;
      if (p->clock_ns <= ns)
        break;
    }
  if (best == NULL)
    {
      imp->unconverted_ts++;
      return ns;
    }
  return best->trace_ns + (ns - best->clock_ns);
}

/* -------------------------------------------------------------------- */
/* Interned data, defaults, descriptors                                 */

/* One {iid = 1, name = 2} entry of an InternedData table. */
static ChronoProtoStatus
read_interned_entry (Importer     *imp,
                     Sequence     *seq,
                     guint         table,
                     const guint8 *data,
                     gsize         len)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;
  guint64 iid = 0;
  guint32 name = CHRONO_NO_STRING;

  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    {
      if (f.number == 1 && f.wire_type == CHRONO_PROTO_VARINT)
        iid = f.value;
      else if (f.number == 2 && f.wire_type == CHRONO_PROTO_BYTES)
        name = intern_bytes (imp, f.data, f.len);
    }
  if (st == CHRONO_PROTO_END)
    g_hash_table_insert (seq->interned[table], g_memdup2 (&iid, sizeof iid), GUINT_TO_POINTER (name + 1));
  return st;
}

static ChronoProtoStatus
handle_interned_data (Importer     *imp,
                      Sequence     *seq,
                      const guint8 *data,
                      gsize         len)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;

  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    {
      guint table;

      if (f.wire_type != CHRONO_PROTO_BYTES)
        continue;
      switch (f.number)
        {
        case 1: table = INTERN_CATEGORIES; break;
        case 2: table = INTERN_EVENT_NAMES; break;
        case 3: table = INTERN_ANNOTATION_NAMES; break;
        case 29: table = INTERN_ANNOTATION_STRINGS; break;
        default: continue;
        }
      if ((st = read_interned_entry (imp, seq, table, f.data, f.len)) != CHRONO_PROTO_END)
        return st;
    }
  return st;
}

/* Repeated scalars, one a field or packed. */
static void
append_scalars (GArray                 *out,
                const ChronoProtoField *f,
                ChronoProtoWireType     element)
{
  gsize iter = 0;
  guint64 v;

  while (chrono_proto_field_next_scalar (f, element, &iter, &v))
    g_array_append_val (out, v);
}

/* TracePacketDefaults: the sequence's clock and TrackEventDefaults. */
static ChronoProtoStatus
handle_defaults (Sequence     *seq,
                 const guint8 *data,
                 gsize         len)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;

  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    {
      if (f.number == PACKET_CLOCK_ID && f.wire_type == CHRONO_PROTO_VARINT)
        {
          seq->has_default_clock = TRUE;
          seq->default_clock = (guint32) f.value;
        }
      else if (f.number == 11 && f.wire_type == CHRONO_PROTO_BYTES)
        {
          ChronoProtoReader d;
          ChronoProtoField g;

          g_array_set_size (seq->extra_counters, 0);
          g_array_set_size (seq->extra_double_counters, 0);
          chrono_proto_reader_init (&d, f.data, f.len);
          while ((st = chrono_proto_reader_next (&d, &g)) == CHRONO_PROTO_OK)
            {
              if (g.number == 11 && g.wire_type == CHRONO_PROTO_VARINT)
                {
                  seq->has_default_track = TRUE;
                  seq->default_track = g.value;
                }
              else if (g.number == 31)
                append_scalars (seq->extra_counters, &g, CHRONO_PROTO_VARINT);
              else if (g.number == 45)
                append_scalars (seq->extra_double_counters, &g, CHRONO_PROTO_VARINT);
            }
          if (st != CHRONO_PROTO_END)
            return st;
        }
    }
  return st;
}

/* ProcessDescriptor: pid 1, cmdline 2, process_name 6. */
static ChronoProtoStatus
read_process (Importer     *imp,
              const guint8 *data,
              gsize         len,
              gint64       *pid)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;
  guint32 name = CHRONO_NO_STRING;
  guint32 cmdline = CHRONO_NO_STRING;

  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    {
      if (f.number == 1 && f.wire_type == CHRONO_PROTO_VARINT)
        *pid = (gint32) f.value;
      else if (f.number == 6 && f.wire_type == CHRONO_PROTO_BYTES)
        name = intern_bytes (imp, f.data, f.len);
      else if (f.number == 2 && f.wire_type == CHRONO_PROTO_BYTES && cmdline == CHRONO_NO_STRING)
        cmdline = intern_bytes (imp, f.data, f.len);
    }
  if (st == CHRONO_PROTO_END)
    set_process_name (imp, *pid, name != CHRONO_NO_STRING ? name : cmdline);
  return st;
}

/* ThreadDescriptor: pid 1, tid 2, thread_name 5, reference_timestamp_us 6. */
static ChronoProtoStatus
read_thread (Importer     *imp,
             const guint8 *data,
             gsize         len,
             gint64       *pid,
             gint64       *tid,
             guint32      *name,
             gint64       *reference_us)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;

  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    {
      if (f.number == 1 && f.wire_type == CHRONO_PROTO_VARINT)
        *pid = (gint32) f.value;
      else if (f.number == 2 && f.wire_type == CHRONO_PROTO_VARINT)
        *tid = (gint32) f.value;
      else if (f.number == 5 && f.wire_type == CHRONO_PROTO_BYTES)
        *name = intern_bytes (imp, f.data, f.len);
      else if (f.number == 6 && f.wire_type == CHRONO_PROTO_VARINT && reference_us != NULL)
        *reference_us = (gint64) f.value;
    }
  return st;
}

/* CounterDescriptor: unit_multiplier 4, is_incremental 5. */
static ChronoProtoStatus
read_counter (Track        *t,
              const guint8 *data,
              gsize         len)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;

  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    {
      if (f.number == 4 && f.wire_type == CHRONO_PROTO_VARINT && (gint64) f.value != 0)
        t->unit_multiplier = (gint64) f.value;
      else if (f.number == 5 && f.wire_type == CHRONO_PROTO_VARINT)
        t->incremental = f.value != 0;
    }
  return st;
}

/* TrackDescriptor, merged into what earlier ones said of the uuid. */
static ChronoProtoStatus
handle_track_descriptor (Importer     *imp,
                         const guint8 *data,
                         gsize         len)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;
  Track *t = NULL;
  gboolean has_uuid = FALSE;
  guint64 uuid = 0;

  /* The uuid first: fields come in any order. */
  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    if (f.number == 1 && f.wire_type == CHRONO_PROTO_VARINT)
      {
        uuid = f.value;
        has_uuid = TRUE;
      }
  if (st != CHRONO_PROTO_END)
    return st;
  if (!has_uuid)
    return CHRONO_PROTO_END;
  t = track_for_uuid (imp, uuid);

  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    {
      ChronoProtoStatus sub = CHRONO_PROTO_END;

      switch (f.number)
        {
        case 2: case 10: case 13:   /* name, static_name, atrace_name */
          if (f.wire_type == CHRONO_PROTO_BYTES)
            t->name = intern_bytes (imp, f.data, f.len);
          break;
        case 5:
          if (f.wire_type == CHRONO_PROTO_VARINT)
            {
              t->parent = f.value;
              t->has_parent = TRUE;
            }
          break;
        case 3:
          if (f.wire_type == CHRONO_PROTO_BYTES)
            {
              sub = read_process (imp, f.data, f.len, &t->pid);
              t->has_process = TRUE;
            }
          break;
        case 4:
          if (f.wire_type == CHRONO_PROTO_BYTES)
            {
              guint32 thread_name = CHRONO_NO_STRING;

              sub = read_thread (imp, f.data, f.len, &t->pid, &t->tid, &thread_name, NULL);
              t->has_thread = TRUE;
              if (thread_name != CHRONO_NO_STRING)
                t->name = thread_name;
            }
          break;
        case 8:
          if (f.wire_type == CHRONO_PROTO_BYTES)
            sub = read_counter (t, f.data, f.len);
          break;
        default:
          break;
        }
      if (sub != CHRONO_PROTO_END)
        return sub;
    }
  return st;
}

/* Legacy ThreadDescriptor packet: the sequence's thread. */
static ChronoProtoStatus
handle_thread_packet (Importer     *imp,
                      Sequence     *seq,
                      const guint8 *data,
                      gsize         len)
{
  gint64 pid = 0, tid = 0, reference_us = 0;
  guint32 name = CHRONO_NO_STRING;
  ChronoProtoStatus st = read_thread (imp, data, len, &pid, &tid, &name, &reference_us);
  g_autofree char *key = NULL;
  Track *t;

  if (st != CHRONO_PROTO_END)
    return st;
  key = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, pid, tid);
  t = g_hash_table_lookup (imp->thread_tracks, key);
  if (t == NULL)
    {
      t = track_new (imp);
      t->has_thread = TRUE;
      t->pid = pid;
      t->tid = tid;
      g_hash_table_insert (imp->thread_tracks, g_steal_pointer (&key), t);
    }
  if (name != CHRONO_NO_STRING)
    t->name = name;
  seq->thread_track = t;
  seq->last_us = reference_us;
  return st;
}

/* -------------------------------------------------------------------- */
/* Debug annotations as args JSON                                       */

static void write_annotation_value (Importer     *imp,
                                    Sequence     *seq,
                                    const guint8 *data,
                                    gsize         len,
                                    guint         depth);

/* A name, from name (10) or name_iid (1). */
static void
write_annotation_name (Importer     *imp,
                       Sequence     *seq,
                       const guint8 *data,
                       gsize         len)
{
  ChronoProtoReader r;
  ChronoProtoField f;

  chrono_proto_reader_init (&r, data, len);
  while (chrono_proto_reader_next (&r, &f) == CHRONO_PROTO_OK)
    {
      if (f.number == 10 && f.wire_type == CHRONO_PROTO_BYTES)
        {
          append_json_string (imp->args, f.data, f.len);
          return;
        }
      if (f.number == 1 && f.wire_type == CHRONO_PROTO_VARINT)
        {
          guint32 id = lookup_interned (imp, seq, INTERN_ANNOTATION_NAMES, f.value);
          const char *s = chrono_string_table_get (imp->trace->strings, id);

          append_json_string (imp->args, (const guint8 *) s, strlen (s));
          return;
        }
    }
  append_json_string (imp->args, (const guint8 *) "", 0);
}

typedef enum {
  SCALAR_BOOL,
  SCALAR_UINT,
  SCALAR_INT,
  SCALAR_DOUBLE,
  SCALAR_STRING,
} ScalarKind;

/* One scalar value as JSON; null when the field's wire type does not
 * fit. */
static void
write_scalar (Importer               *imp,
              ScalarKind              kind,
              const ChronoProtoField *f)
{
  gboolean is_bytes = f->wire_type == CHRONO_PROTO_BYTES;

  if (is_bytes != (kind == SCALAR_STRING))
    {
      append_text (imp->args, "null");
      return;
    }
  switch (kind)
    {
    case SCALAR_BOOL:
      append_text (imp->args, f->value ? "true" : "false");
      break;
    case SCALAR_UINT:
      g_string_printf (imp->scratch, "%" G_GUINT64_FORMAT, f->value);
      append_text (imp->args, imp->scratch->str);
      break;
    case SCALAR_INT:
      g_string_printf (imp->scratch, "%" G_GINT64_FORMAT, (gint64) f->value);
      append_text (imp->args, imp->scratch->str);
      break;
    case SCALAR_DOUBLE:
      append_json_double (imp->args, chrono_proto_field_double (f));
      break;
    case SCALAR_STRING:
    default:
      append_json_string (imp->args, f->data, f->len);
      break;
    }
}

/* The legacy NestedValue: a dict, an array or a scalar. */
static void
write_nested_value (Importer     *imp,
                    const guint8 *data,
                    gsize         len,
                    guint         depth)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  guint64 type = 0;
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (ChronoProtoField));
  g_autoptr(GArray) dict_values = g_array_new (FALSE, FALSE, sizeof (ChronoProtoField));
  g_autoptr(GArray) array_values = g_array_new (FALSE, FALSE, sizeof (ChronoProtoField));
  GArray *values;
  ChronoProtoField scalar = { 0 };

  chrono_proto_reader_init (&r, data, len);
  while (chrono_proto_reader_next (&r, &f) == CHRONO_PROTO_OK)
    switch (f.number)
      {
      case 1: type = f.value; break;
      case 2: g_array_append_val (keys, f); break;
      case 3: case 4:
        if (f.wire_type == CHRONO_PROTO_BYTES)
          g_array_append_val (f.number == 3 ? dict_values : array_values, f);
        break;
      case 5: case 6: case 7: case 8: scalar = f; break;
      default: break;
      }
  if (depth >= MAX_ARGS_DEPTH)
    append_text (imp->args, "null");
  else if (type == 1 || type == 2)
    {
      gboolean dict = type == 1;

      values = dict ? dict_values : array_values;
      append_text (imp->args, dict ? "{" : "[");
      for (guint i = 0; i < values->len; i++)
        {
          const ChronoProtoField *v = &g_array_index (values, ChronoProtoField, i);

          if (i > 0)
            append_text (imp->args, ",");
          if (dict)
            {
              const ChronoProtoField *k = i < keys->len ? &g_array_index (keys, ChronoProtoField, i) : NULL;

              if (k != NULL && k->wire_type == CHRONO_PROTO_BYTES)
                append_json_string (imp->args, k->data, k->len);
              else
                append_json_string (imp->args, (const guint8 *) "", 0);
              append_text (imp->args, ":");
            }
          write_nested_value (imp, v->data, v->len, depth + 1);
        }
      append_text (imp->args, dict ? "}" : "]");
    }
  else if (scalar.number >= 5 && scalar.number <= 8)
    {
      /* int_value 5, double_value 6, bool_value 7, string_value 8 */
      static const ScalarKind kinds[] = { SCALAR_INT, SCALAR_DOUBLE, SCALAR_BOOL, SCALAR_STRING };
      write_scalar (imp, kinds[scalar.number - 5], &scalar);
    }
  else
    append_text (imp->args, "null");
}

/* legacy_json_value as it is when it is one JSON value, else as text. */
static void
write_legacy_json (Importer     *imp,
                   const guint8 *data,
                   gsize         len)
{
  ChronoJsonScanner s = { data, data + len, NULL, NULL };

  chrono_json_skip_ws (&s);
  if (s.p < s.end && chrono_json_skip_value (&s) == CHRONO_JSON_OK)
    {
      chrono_json_skip_ws (&s);
      if (s.p == s.end && g_utf8_validate_len ((const char *) data, len, NULL))
        {
          g_byte_array_append (imp->args, data, len);
          return;
        }
    }
  append_json_string (imp->args, data, len);
}

static void
write_annotation_value (Importer     *imp,
                        Sequence     *seq,
                        const guint8 *data,
                        gsize         len,
                        guint         depth)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoField value = { 0 };
  guint n = 0;

  /* The value is the last value field, or the repeated entries of a dict
   * (11) or an array (12). */
  chrono_proto_reader_init (&r, data, len);
  while (chrono_proto_reader_next (&r, &f) == CHRONO_PROTO_OK)
    if ((f.number >= 2 && f.number <= 9) || f.number == 11 || f.number == 12 || f.number == 17)
      value = f;

  if (depth >= MAX_ARGS_DEPTH)
    {
      append_text (imp->args, "null");
      return;
    }
  switch (value.number)
    {
    case 2: case 3: case 4: case 5: case 6:
      {
        /* bool_value 2, uint_value 3, int_value 4, double_value 5, string_value 6 */
        static const ScalarKind kinds[] = { SCALAR_BOOL, SCALAR_UINT, SCALAR_INT, SCALAR_DOUBLE, SCALAR_STRING };
        write_scalar (imp, kinds[value.number - 2], &value);
        return;
      }
    case 7:
      g_string_printf (imp->scratch, "0x%" G_GINT64_MODIFIER "x", value.value);
      append_json_string (imp->args, (const guint8 *) imp->scratch->str, imp->scratch->len);
      return;
    case 17:
      {
        guint32 id = lookup_interned (imp, seq, INTERN_ANNOTATION_STRINGS, value.value);
        const char *s = chrono_string_table_get (imp->trace->strings, id);

        append_json_string (imp->args, (const guint8 *) s, strlen (s));
        return;
      }
    default:
      break;
    }
  if (value.wire_type != CHRONO_PROTO_BYTES)
    {
      append_text (imp->args, "null");
      return;
    }
  switch (value.number)
    {
    case 8:
      write_nested_value (imp, value.data, value.len, depth + 1);
      break;
    case 9:
      write_legacy_json (imp, value.data, value.len);
      break;
    case 11:
    case 12:
      append_text (imp->args, value.number == 11 ? "{" : "[");
      chrono_proto_reader_init (&r, data, len);
      while (chrono_proto_reader_next (&r, &f) == CHRONO_PROTO_OK)
        {
          if (f.number != value.number || f.wire_type != CHRONO_PROTO_BYTES)
            continue;
          if (n++ > 0)
            append_text (imp->args, ",");
          if (value.number == 11)
            {
              write_annotation_name (imp, seq, f.data, f.len);
              append_text (imp->args, ":");
            }
          write_annotation_value (imp, seq, f.data, f.len, depth + 1);
        }
      append_text (imp->args, value.number == 11 ? "}" : "]");
      break;
    default:
      append_text (imp->args, "null");
      break;
    }
}

/* The event's debug annotations as one JSON object in the trace's args
 * text; CHRONO_NO_ARGS when it has none. */
static guint64
write_args (Importer *imp,
            Sequence *seq)
{
  guint64 offset = imp->args->len;

  if (imp->annotations->len == 0)
    return CHRONO_NO_ARGS;
  append_text (imp->args, "{");
  for (guint i = 0; i < imp->annotations->len; i++)
    {
      const ChronoProtoField *a = &g_array_index (imp->annotations, ChronoProtoField, i);

      if (i > 0)
        append_text (imp->args, ",");
      write_annotation_name (imp, seq, a->data, a->len);
      append_text (imp->args, ":");
      write_annotation_value (imp, seq, a->data, a->len, 0);
    }
  append_text (imp->args, "}");
  return offset;
}

/* -------------------------------------------------------------------- */
/* Track events                                                         */

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

static void
note_time (Importer *imp,
           gint64    ts)
{
  imp->min_ts = MIN (imp->min_ts, ts);
  imp->max_ts = MAX (imp->max_ts, ts);
}

static void
add_counter_sample (Importer *imp,
                    Track    *t,
                    gint64    ts,
                    gdouble   value)
{
  value *= (gdouble) t->unit_multiplier;
  if (t->incremental)
    {
      t->sum += value;
      value = t->sum;
    }
  chrono_track_builder_add_sample (counter_of (imp, t), ts, value);
  note_time (imp, ts);
}

/* The event's flows as binds of builder B: flow_ids continue a flow,
 * terminating_flow_ids end one. The first bind gets SPAN, the others
 * the same span. Returns the first bind's index, or G_MAXUINT32. */
static guint32
add_binds (Importer           *imp,
           ChronoTrackBuilder *b,
           guint32             span,
           gint64              ts)
{
  guint32 first = imp->v2_binds->len;
  guint n_flows = imp->flow_ids->len;

  for (guint i = 0; i < n_flows + imp->terminating_ids->len; i++)
    {
      ChronoV2Bind bind;

      bind.track = b;
      bind.span = i == 0 || span != G_MAXUINT32 ? span : CHRONO_BIND_SAME_SPAN;
      bind.ts = ts;
      bind.key = i < n_flows ? g_array_index (imp->flow_ids, guint64, i)
                             : g_array_index (imp->terminating_ids, guint64, i - n_flows);
      bind.in = TRUE;
      bind.out = i < n_flows;
      bind.seq = imp->v2_binds->len;
      g_array_append_val (imp->v2_binds, bind);
    }
  return imp->v2_binds->len > first ? first : G_MAXUINT32;
}

/* Counter values are int64 varints or doubles (fixed64). */
static void
append_counter_values (GArray                 *out,
                       const ChronoProtoField *f,
                       gboolean                is_double)
{
  gsize iter = 0;
  guint64 v;

  while (chrono_proto_field_next_scalar (f, is_double ? CHRONO_PROTO_FIXED64 : CHRONO_PROTO_VARINT, &iter, &v))
    {
      ChronoProtoField one = { 0, CHRONO_PROTO_FIXED64, v, NULL, 0 };
      gdouble d = is_double ? chrono_proto_field_double (&one) : (gdouble) (gint64) v;

      g_array_append_val (out, d);
    }
}

static Track *
event_track (Importer *imp,
             Sequence *seq,
             gboolean  has_track,
             guint64   uuid)
{
  if (has_track)
    return track_for_uuid (imp, uuid);
  if (seq->has_default_track)
    return track_for_uuid (imp, seq->default_track);
  if (seq->thread_track != NULL)
    return seq->thread_track;
  if (seq->loose_track == NULL)
    {
      g_autofree char *name = g_strdup_printf ("Sequence %u", seq->id);

      seq->loose_track = track_new (imp);
      seq->loose_track->name = chrono_string_table_intern (imp->trace->strings, name, strlen (name));
    }
  return seq->loose_track;
}

static void
add_extra_counters (Importer *imp,
                    Sequence *seq,
                    gint64    ts,
                    GArray   *uuids,
                    GArray   *defaults,
                    GArray   *values)
{
  GArray *which = uuids->len > 0 ? uuids : defaults;

  for (guint i = 0; i < values->len && i < which->len; i++)
    add_counter_sample (imp, track_for_uuid (imp, g_array_index (which, guint64, i)), ts,
                        g_array_index (values, gdouble, i));
}

/* A slice whose length is known (legacy 'X'), or an instant with flows. */
static void
add_complete (Importer *imp,
              Track    *t,
              gint64    ts,
              gint64    dur,
              guint32   name,
              guint32   cat,
              guint64   args)
{
  ChronoTrackBuilder *b = slices_of (imp, t);
  const char *c = chrono_string_table_get (imp->trace->strings, cat);
  const char *n = chrono_string_table_get (imp->trace->strings, name);
  gboolean on_device;
  guint8 kind = chrono_kineto_classify (c, strlen (c), n, strlen (n), &on_device);
  guint32 index = chrono_track_builder_add_span (b, ts, MAX (dur, 0), name, cat, args, kind, 0);

  add_binds (imp, b, index, ts);
  note_time (imp, ts);
  note_time (imp, ts + MAX (dur, 0));
}

typedef struct {
  guint8  phase;
  gint64  dur_us;
  guint64 name_iid;
  gboolean has_name_iid;
} LegacyEvent;

/* LegacyEvent, of TrackEvents with no type: name_iid 1, phase 2,
 * duration_us 3. */
static ChronoProtoStatus
read_legacy_event (const ChronoProtoField *field,
                   LegacyEvent            *legacy)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;

  chrono_proto_reader_init (&r, field->data, field->len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    {
      if (f.wire_type != CHRONO_PROTO_VARINT)
        continue;
      if (f.number == 1)
        {
          legacy->name_iid = f.value;
          legacy->has_name_iid = TRUE;
        }
      else if (f.number == 2)
        legacy->phase = (guint8) f.value;
      else if (f.number == 3)
        legacy->dur_us = (gint64) f.value;
    }
  return st;
}

/* The TrackEvent type a legacy phase amounts to. */
static guint
legacy_type (guint8 phase)
{
  switch (phase)
    {
    case 'B': return TYPE_SLICE_BEGIN;
    case 'E': return TYPE_SLICE_END;
    case 'I': case 'i': case 'n': return TYPE_INSTANT;
    case 'X': return TYPE_LEGACY_COMPLETE;
    default: return TYPE_UNSPECIFIED;
    }
}

static ChronoProtoStatus
handle_track_event (Importer     *imp,
                    Sequence     *seq,
                    const Packet *pk)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;
  guint64 type = TYPE_UNSPECIFIED;
  gboolean has_track = FALSE;
  guint64 uuid = 0;
  guint32 name = CHRONO_NO_STRING;
  gboolean has_counter = FALSE;
  gdouble counter = 0;
  gboolean has_abs_us = FALSE, has_delta_us = FALSE;
  gint64 abs_us = 0, delta_us = 0;
  ChronoProtoField legacy_field = { 0 };
  LegacyEvent legacy = { 0 };
  GString *cats = imp->cats;
  guint32 cat;
  gint64 ts;
  Track *t;
  guint64 args;

  g_string_truncate (imp->cats, 0);
  g_array_set_size (imp->annotations, 0);
  g_array_set_size (imp->flow_ids, 0);
  g_array_set_size (imp->terminating_ids, 0);
  g_array_set_size (imp->counter_uuids, 0);
  g_array_set_size (imp->counter_values, 0);
  g_array_set_size (imp->double_counter_uuids, 0);
  g_array_set_size (imp->double_counter_values, 0);

  chrono_proto_reader_init (&r, pk->event.data, pk->event.len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    {
      gboolean is_bytes = f.wire_type == CHRONO_PROTO_BYTES;
      gboolean is_varint = f.wire_type == CHRONO_PROTO_VARINT;

      switch (f.number)
        {
        case 9: if (is_varint) type = f.value; break;
        case 11: if (is_varint) { has_track = TRUE; uuid = f.value; } break;
        case 10: if (is_varint) name = lookup_interned (imp, seq, INTERN_EVENT_NAMES, f.value); break;
        case 23: if (is_bytes) name = intern_bytes (imp, f.data, f.len); break;
        case 3:
          {
            gsize iter = 0;
            guint64 iid;

            while (chrono_proto_field_next_scalar (&f, CHRONO_PROTO_VARINT, &iter, &iid))
              {
                guint32 id = lookup_interned (imp, seq, INTERN_CATEGORIES, iid);

                if (cats->len > 0)
                  g_string_append_c (cats, ',');
                g_string_append (cats, chrono_string_table_get (imp->trace->strings, id));
              }
            break;
          }
        case 22:
          if (is_bytes)
            {
              if (cats->len > 0)
                g_string_append_c (cats, ',');
              g_string_append_len (cats, (const char *) f.data, (gssize) f.len);
            }
          break;
        case 4: if (is_bytes) g_array_append_val (imp->annotations, f); break;
        case 30: if (is_varint) { has_counter = TRUE; counter = (gdouble) (gint64) f.value; } break;
        case 44:
          if (f.wire_type == CHRONO_PROTO_FIXED64)
            {
              has_counter = TRUE;
              counter = chrono_proto_field_double (&f);
            }
          break;
        case 31: append_scalars (imp->counter_uuids, &f, CHRONO_PROTO_VARINT); break;
        case 12: append_counter_values (imp->counter_values, &f, FALSE); break;
        case 45: append_scalars (imp->double_counter_uuids, &f, CHRONO_PROTO_VARINT); break;
        case 46: append_counter_values (imp->double_counter_values, &f, TRUE); break;
        case 47:
          append_scalars (imp->flow_ids, &f, is_varint ? CHRONO_PROTO_VARINT : CHRONO_PROTO_FIXED64);
          break;
        case 36: append_scalars (imp->flow_ids, &f, CHRONO_PROTO_VARINT); break;
        case 48:
          append_scalars (imp->terminating_ids, &f, is_varint ? CHRONO_PROTO_VARINT : CHRONO_PROTO_FIXED64);
          break;
        case 42: append_scalars (imp->terminating_ids, &f, CHRONO_PROTO_VARINT); break;
        case 6: if (is_bytes) legacy_field = f; break;
        case 16: if (is_varint) { has_abs_us = TRUE; abs_us = (gint64) f.value; } break;
        case 1: if (is_varint) { has_delta_us = TRUE; delta_us = (gint64) f.value; } break;
        default: break;
        }
    }
  if (st != CHRONO_PROTO_END)
    return st;

  if (type == TYPE_UNSPECIFIED && legacy_field.data != NULL)
    {
      if ((st = read_legacy_event (&legacy_field, &legacy)) != CHRONO_PROTO_END)
        return st;
      imp->legacy_counts[legacy.phase]++;
      type = legacy_type (legacy.phase);
      if (name == CHRONO_NO_STRING && legacy.has_name_iid)
        name = lookup_interned (imp, seq, INTERN_EVENT_NAMES, legacy.name_iid);
    }
  else
    {
      /* Types this reader does not know are not shown, and counted. */
      if (type >= N_TYPES)
        type = TYPE_UNSPECIFIED;
      imp->type_counts[type]++;
    }
  imp->events++;

  if (pk->has_ts)
    {
      guint32 clock = pk->has_clock ? pk->clock
                    : seq->has_default_clock ? seq->default_clock
                    : imp->trace_clock ? imp->trace_clock : BOOTTIME_CLOCK;
      ts = to_trace_time (imp, seq->id, clock, pk->ts);
    }
  else if (has_abs_us)
    {
      seq->last_us = abs_us;
      ts = abs_us * 1000;
    }
  else if (has_delta_us)
    {
      seq->last_us += delta_us;
      ts = seq->last_us * 1000;
    }
  else
    {
      imp->no_timestamp++;
      return CHRONO_PROTO_END;
    }

  cat = intern_bytes (imp, (const guint8 *) cats->str, cats->len);
  t = event_track (imp, seq, has_track, uuid);

  switch (type)
    {
    case TYPE_SLICE_BEGIN:
    case TYPE_SLICE_END:
      {
        ChronoTrackBuilder *b = slices_of (imp, t);
        ChronoMark mark;

        mark.ts = ts;
        mark.args_off = write_args (imp, seq);
        mark.name = name;
        mark.cat = cat;
        mark.is_end = type == TYPE_SLICE_END;
        mark.bind = G_MAXUINT32;
        if (type == TYPE_SLICE_BEGIN)
          mark.bind = add_binds (imp, b, G_MAXUINT32, ts);
        else
          imp->end_flows += imp->flow_ids->len + imp->terminating_ids->len;
        chrono_track_builder_add_mark (b, &mark);
        note_time (imp, ts);
        break;
      }
    case TYPE_INSTANT:
      args = write_args (imp, seq);
      /* Flows attach to slices: an instant with flows is one of no
       * length, as Perfetto draws it. */
      if (imp->flow_ids->len + imp->terminating_ids->len > 0)
        add_complete (imp, t, ts, 0, name, cat, args);
      else
        {
          chrono_track_builder_add_instant (slices_of (imp, t), ts, name, cat, args);
          note_time (imp, ts);
        }
      break;
    case TYPE_LEGACY_COMPLETE:
      add_complete (imp, t, ts, legacy.dur_us * 1000, name, cat, write_args (imp, seq));
      break;
    case TYPE_COUNTER:
      if (has_counter)
        add_counter_sample (imp, t, ts, counter);
      else
        imp->unused_events++;
      break;
    default:
      imp->unused_events++;
      break;
    }

  add_extra_counters (imp, seq, ts, imp->counter_uuids, seq->extra_counters, imp->counter_values);
  add_extra_counters (imp, seq, ts, imp->double_counter_uuids, seq->extra_double_counters,
                      imp->double_counter_values);
  return CHRONO_PROTO_END;
}

/* -------------------------------------------------------------------- */
/* Packets                                                              */

static ChronoProtoStatus read_trace (Importer     *imp,
                                     const guint8 *data,
                                     gsize         len);

/* compressed_packets: a deflated Trace of more packets. */
static ChronoProtoStatus
handle_compressed (Importer     *imp,
                   const guint8 *data,
                   gsize         len)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  z_stream zs = { 0 };
  guint8 buf[1 << 15];
  int ret = Z_OK;

  if (imp->nested >= MAX_NESTED_TRACES)
    {
      imp->inflate_errors++;
      return CHRONO_PROTO_END;
    }
  /* zlib or gzip framing, detected from the header. */
  if (inflateInit2 (&zs, 32 + MAX_WBITS) != Z_OK)
    {
      imp->inflate_errors++;
      return CHRONO_PROTO_END;
    }
  zs.next_in = (Bytef *) data;
  zs.avail_in = (uInt) MIN (len, (gsize) G_MAXUINT32);
  while (ret == Z_OK)
    {
      zs.next_out = buf;
      zs.avail_out = sizeof buf;
      ret = inflate (&zs, Z_NO_FLUSH);
      g_byte_array_append (out, buf, sizeof buf - zs.avail_out);
      if (out->len > MAX_INFLATED_BYTES)
        break;
    }
  inflateEnd (&zs);
  if (ret != Z_STREAM_END)
    {
      imp->inflate_errors++;
      return CHRONO_PROTO_END;
    }
  {
    ChronoProtoStatus st;

    imp->nested++;
    st = read_trace (imp, out->data, out->len);
    imp->nested--;
    return st;
  }
}

static void
count_unknown_packet (Importer *imp,
                      guint32   number)
{
  gpointer old = g_hash_table_lookup (imp->unknown_packets, GUINT_TO_POINTER (number));

  g_hash_table_insert (imp->unknown_packets, GUINT_TO_POINTER (number),
                       GUINT_TO_POINTER (GPOINTER_TO_UINT (old) + 1));
}

static ChronoProtoStatus
handle_packet (Importer     *imp,
               const guint8 *data,
               gsize         len)
{
  Packet pk = { 0 };
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;
  Sequence *seq;

  /* Fields come in any order; the interned data and defaults of a packet
   * apply to its own event, so collect first. */
  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    {
      gboolean is_bytes = f.wire_type == CHRONO_PROTO_BYTES;

      switch (f.number)
        {
        case PACKET_TIMESTAMP: pk.has_ts = TRUE; pk.ts = f.value; break;
        case PACKET_CLOCK_ID: pk.has_clock = TRUE; pk.clock = (guint32) f.value; break;
        case PACKET_SEQUENCE_ID: pk.seq_id = (guint32) f.value; break;
        case PACKET_SEQUENCE_FLAGS: pk.flags = (guint32) f.value; break;
        case PACKET_STATE_CLEARED: pk.cleared = f.value != 0; break;
        case PACKET_PREVIOUS_DROPPED: pk.dropped = f.value != 0; break;
        case PACKET_TRACK_EVENT: if (is_bytes) pk.event = f; break;
        case PACKET_TRACK_DESCRIPTOR: if (is_bytes) pk.descriptor = f; break;
        case PACKET_INTERNED_DATA: if (is_bytes) pk.interned = f; break;
        case PACKET_DEFAULTS: if (is_bytes) pk.defaults = f; break;
        case PACKET_CLOCK_SNAPSHOT: if (is_bytes) pk.snapshot = f; break;
        case PACKET_PROCESS_DESCRIPTOR: if (is_bytes) pk.process = f; break;
        case PACKET_THREAD_DESCRIPTOR: if (is_bytes) pk.thread = f; break;
        case PACKET_COMPRESSED: if (is_bytes) pk.compressed = f; break;
        case PACKET_TRUSTED_UID:
        case PACKET_TRUSTED_PID:
        case PACKET_SYNC_MARKER:
        case PACKET_FIRST_ON_SEQUENCE:
          break;
        default:
          count_unknown_packet (imp, f.number);
          break;
        }
    }
  if (st != CHRONO_PROTO_END)
    return st;

  imp->packets++;
  seq = sequence_for (imp, pk.seq_id);
  if (pk.dropped)
    imp->data_losses++;
  if (pk.cleared || (pk.flags & SEQ_INCREMENTAL_STATE_CLEARED))
    {
      sequence_clear (seq);
      seq->valid = TRUE;
    }
  else if (pk.dropped)
    seq->valid = FALSE;
  if ((pk.flags & SEQ_NEEDS_INCREMENTAL_STATE) && !seq->valid)
    {
      /* Interned ids and defaults of this packet point at state that was
       * lost: what it says cannot be trusted. */
      imp->lost_packets++;
      return CHRONO_PROTO_END;
    }

#define STEP(call) G_STMT_START { if ((st = (call)) != CHRONO_PROTO_END) return st; } G_STMT_END
  if (pk.defaults.data)
    STEP (handle_defaults (seq, pk.defaults.data, pk.defaults.len));
  if (pk.interned.data)
    STEP (handle_interned_data (imp, seq, pk.interned.data, pk.interned.len));
  if (pk.snapshot.data)
    STEP (handle_clock_snapshot (imp, pk.seq_id, pk.snapshot.data, pk.snapshot.len));
  if (pk.process.data)
    {
      gint64 pid = 0;
      STEP (read_process (imp, pk.process.data, pk.process.len, &pid));
    }
  if (pk.thread.data)
    STEP (handle_thread_packet (imp, seq, pk.thread.data, pk.thread.len));
  if (pk.descriptor.data)
    STEP (handle_track_descriptor (imp, pk.descriptor.data, pk.descriptor.len));
  if (pk.event.data)
    STEP (handle_track_event (imp, seq, &pk));
  if (pk.compressed.data)
    STEP (handle_compressed (imp, pk.compressed.data, pk.compressed.len));
#undef STEP
  return CHRONO_PROTO_END;
}

/* A whole Trace in memory (the inside of compressed packets). */
static ChronoProtoStatus
read_trace (Importer     *imp,
            const guint8 *data,
            gsize         len)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;

  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    if (f.number == 1 && f.wire_type == CHRONO_PROTO_BYTES)
      {
        ChronoProtoStatus pst = handle_packet (imp, f.data, f.len);
        if (pst != CHRONO_PROTO_END)
          return pst;
      }
  return st;
}

/* -------------------------------------------------------------------- */
/* The file                                                             */

/* Whether the fields of DATA read to the end (or, with PREFIX, to where
 * the data stops). */
static gboolean
fields_valid (const guint8 *data,
              gsize         len,
              gboolean      prefix)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;

  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    ;
  return st == CHRONO_PROTO_END || (prefix && st == CHRONO_PROTO_TRUNCATED);
}

gboolean
chrono_perfetto_importer_sniff (ChronoSource *source)
{
  gboolean finished = FALSE;
  gsize avail = chrono_source_wait (source, 0, &finished);
  const guint8 *data = chrono_source_get_data (source);

  for (;;)
    {
      ChronoProtoReader r;
      ChronoProtoField f;
      ChronoProtoStatus st;

      if (avail == 0 || data[0] != 0x0a)
        return FALSE;
      chrono_proto_reader_init (&r, data, avail);
      st = chrono_proto_reader_next (&r, &f);
      /* A whole packet, followed by the next or by the end: JSON that
       * starts with a new line (the same byte) reads as no such thing. */
      if (st == CHRONO_PROTO_OK)
        return fields_valid (f.data, f.len, FALSE) && (r.p == r.end || *r.p == 0x0a);
      if (st == CHRONO_PROTO_MALFORMED || finished)
        return FALSE;
      if (avail >= SNIFF_BYTES)
        {
          /* A first packet larger than we wait for: what there is of it
           * must read as fields. */
          const guint8 *p = data + 1;
          guint64 len;

          return chrono_proto_read_varint (&p, data + avail, &len) == CHRONO_PROTO_OK &&
                 fields_valid (p, data + avail - p, TRUE);
        }
      avail = chrono_source_wait (source, avail, &finished);
    }
}

static void
importer_init (Importer     *imp,
               ChronoTrace  *trace,
               ChronoSource *source)
{
  imp->trace = trace;
  imp->source = source;
  imp->sequences = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) sequence_free);
  imp->tracks = g_hash_table_new (g_int64_hash, g_int64_equal);
  imp->thread_tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  imp->track_list = g_ptr_array_new_with_free_func (g_free);
  imp->process_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  imp->processes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  imp->clocks = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) clock_free);
  imp->builders = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_track_builder_free);
  imp->flow_events = g_array_new (FALSE, FALSE, sizeof (ChronoFlowEvent));
  imp->v2_binds = g_array_new (FALSE, FALSE, sizeof (ChronoV2Bind));
  imp->scratch = g_string_new (NULL);
  imp->cats = g_string_new (NULL);
  imp->annotations = g_array_new (FALSE, FALSE, sizeof (ChronoProtoField));
  imp->flow_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  imp->terminating_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  imp->counter_uuids = g_array_new (FALSE, FALSE, sizeof (guint64));
  imp->counter_values = g_array_new (FALSE, FALSE, sizeof (gdouble));
  imp->double_counter_uuids = g_array_new (FALSE, FALSE, sizeof (guint64));
  imp->double_counter_values = g_array_new (FALSE, FALSE, sizeof (gdouble));
  imp->unknown_packets = g_hash_table_new (NULL, NULL);
  imp->min_ts = G_MAXINT64;
  imp->max_ts = G_MININT64;
  trace->args_json = g_byte_array_new ();
  imp->args = trace->args_json;
}

static void
importer_clear (Importer *imp)
{
  g_clear_pointer (&imp->sequences, g_hash_table_unref);
  g_clear_pointer (&imp->tracks, g_hash_table_unref);
  g_clear_pointer (&imp->thread_tracks, g_hash_table_unref);
  g_clear_pointer (&imp->track_list, g_ptr_array_unref);
  g_clear_pointer (&imp->process_names, g_hash_table_unref);
  g_clear_pointer (&imp->processes, g_hash_table_unref);
  g_clear_pointer (&imp->clocks, g_hash_table_unref);
  g_clear_pointer (&imp->builders, g_ptr_array_unref);
  g_clear_pointer (&imp->flow_events, g_array_unref);
  g_clear_pointer (&imp->v2_binds, g_array_unref);
  g_string_free (imp->scratch, TRUE);
  g_string_free (imp->cats, TRUE);
  g_clear_pointer (&imp->annotations, g_array_unref);
  g_clear_pointer (&imp->flow_ids, g_array_unref);
  g_clear_pointer (&imp->terminating_ids, g_array_unref);
  g_clear_pointer (&imp->counter_uuids, g_array_unref);
  g_clear_pointer (&imp->counter_values, g_array_unref);
  g_clear_pointer (&imp->double_counter_uuids, g_array_unref);
  g_clear_pointer (&imp->double_counter_values, g_array_unref);
  g_clear_pointer (&imp->unknown_packets, g_hash_table_unref);
}

static gint
compare_unknown (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  GHashTable *counts = user_data;
  guint ca = GPOINTER_TO_UINT (g_hash_table_lookup (counts, a));
  guint cb = GPOINTER_TO_UINT (g_hash_table_lookup (counts, b));
  guint na = GPOINTER_TO_UINT (a);
  guint nb = GPOINTER_TO_UINT (b);

  if (ca != cb)
    return ca > cb ? -1 : 1;
  return na < nb ? -1 : na > nb;
}

static void
finish_stats (Importer *imp)
{
  ChronoTrace *trace = imp->trace;
  ChronoLoadStats *stats = &trace->stats;

  stats->events = imp->events;
  for (guint i = 0; i < N_TYPES; i++)
    if (imp->type_counts[i] > 0)
      g_hash_table_insert (stats->phases, g_strdup (type_names[i]), GSIZE_TO_POINTER (imp->type_counts[i]));
  for (guint c = 0; c < 256; c++)
    if (imp->legacy_counts[c] > 0)
      {
        g_autofree char *key = g_ascii_isgraph (c) ? g_strdup_printf ("legacy_%c", c)
                                                   : g_strdup_printf ("legacy_%u", c);
        g_hash_table_insert (stats->phases, g_steal_pointer (&key), GSIZE_TO_POINTER (imp->legacy_counts[c]));
      }
  stats->dropped = imp->no_timestamp + imp->unused_events;

  if (g_hash_table_size (imp->unknown_packets) > 0)
    {
      g_autoptr(GList) numbers = g_hash_table_get_keys (imp->unknown_packets);
      /* [0] what holds events, [1] the recording's bookkeeping. */
      g_autoptr(GString) lost = g_string_new ("packets not shown: ");
      g_autoptr(GString) kept = g_string_new ("packets of the recording's own bookkeeping, which hold no events: ");
      GString *texts[2] = { lost, kept };
      gsize empty = lost->len, kept_empty = kept->len;
      guint64 totals[2] = { 0, 0 };

      numbers = g_list_sort_with_data (numbers, compare_unknown, imp->unknown_packets);
      for (GList *l = numbers; l; l = l->next)
        {
          guint number = GPOINTER_TO_UINT (l->data);
          guint count = GPOINTER_TO_UINT (g_hash_table_lookup (imp->unknown_packets, l->data));
          const char *name = packet_field_name (number);
          guint which = is_bookkeeping (number);
          GString *text = texts[which];

          totals[which] += count;
          if (text->len > (which ? kept_empty : empty))
            g_string_append (text, ", ");
          if (name != NULL)
            g_string_append_printf (text, "%u %s (field %u)", count, name, number);
          else
            g_string_append_printf (text, "%u with field %u", count, number);
        }
      if (totals[0] > 0)
        chrono_trace_add_warning (trace, "%s; %" G_GUINT64_FORMAT " in all", lost->str, totals[0]);
      if (totals[1] > 0)
        chrono_trace_add_quirk (trace, "%s; %" G_GUINT64_FORMAT " in all", kept->str, totals[1]);
    }
  if (imp->data_losses > 0)
    chrono_trace_add_warning (trace, "the producer lost data %" G_GUINT64_FORMAT " times (previous_packet_dropped)",
                              imp->data_losses);
  if (imp->lost_packets > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " packets were skipped: they need incremental state "
                              "that was lost or never sent", imp->lost_packets);
  if (imp->unconverted_ts > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " timestamps are in a clock that no clock snapshot "
                              "relates to the trace clock: kept as written", imp->unconverted_ts);
  if (imp->unknown_iids > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " interned ids were never defined on their sequence",
                              imp->unknown_iids);
  if (imp->no_timestamp > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " track events have no timestamp", imp->no_timestamp);
  if (imp->unused_events > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " track events of no known type (legacy phases "
                              "other than B, E, X and instants; counters without a value) are not shown",
                              imp->unused_events);
  if (imp->end_flows > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " flow ids on slice ends are not drawn", imp->end_flows);
  if (imp->inflate_errors > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " compressed packets could not be inflated",
                              imp->inflate_errors);
  if (imp->malformed > MAX_MALFORMED_WARNINGS)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " malformed packets were skipped in all", imp->malformed);
}

gboolean
chrono_perfetto_importer_run (ChronoTrace        *trace,
                              ChronoSource       *source,
                              GCancellable       *cancellable,
                              ChronoProgressFunc  progress,
                              gpointer            user_data,
                              GError            **error)
{
  Importer imp = { 0 };
  const guint8 *base = chrono_source_get_data (source);
  gboolean finished = FALSE;
  gsize avail = chrono_source_wait (source, 0, &finished);
  gsize offset = 0;
  guint64 top_level = 0;
  ChronoBuildInput input = { 0 };

  importer_init (&imp, trace, source);
  trace->format = "perfetto";

  for (;;)
    {
      ChronoProtoReader r;
      ChronoProtoField f;
      ChronoProtoStatus st;

      chrono_proto_reader_init (&r, base + offset, avail - offset);
      st = chrono_proto_reader_next (&r, &f);
      if ((st == CHRONO_PROTO_END || st == CHRONO_PROTO_TRUNCATED) && !finished)
        {
          avail = chrono_source_wait (source, avail, &finished);
          continue;
        }
      if (st == CHRONO_PROTO_END)
        break;
      if (st == CHRONO_PROTO_TRUNCATED)
        {
          trace->stats.truncated = TRUE;
          chrono_trace_add_warning (trace, "the file ends inside packet %" G_GUINT64_FORMAT " at byte %"
                                    G_GSIZE_FORMAT ": loaded the %" G_GUINT64_FORMAT " complete packets before it",
                                    top_level + 1, offset, top_level);
          break;
        }
      if (st == CHRONO_PROTO_MALFORMED)
        {
          if (top_level == 0)
            {
              g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT,
                           "%s: byte %" G_GSIZE_FORMAT ": not a Perfetto trace (%s)",
                           trace->path, offset, chrono_proto_status_to_string (st));
              importer_clear (&imp);
              return FALSE;
            }
          trace->stats.truncated = TRUE;
          chrono_trace_add_warning (trace, "byte %" G_GSIZE_FORMAT ": the packet stream breaks off (%s): "
                                    "loaded the %" G_GUINT64_FORMAT " packets before it",
                                    offset, chrono_proto_status_to_string (st), top_level);
          break;
        }

      top_level++;
      if (f.number == 1 && f.wire_type == CHRONO_PROTO_BYTES)
        {
          st = handle_packet (&imp, f.data, f.len);
          if (st != CHRONO_PROTO_END && imp.malformed++ < MAX_MALFORMED_WARNINGS)
            chrono_trace_add_warning (trace, "byte %" G_GSIZE_FORMAT ": packet %" G_GUINT64_FORMAT
                                      " is malformed (%s): skipped the rest of it",
                                      offset, top_level, chrono_proto_status_to_string (st));
        }
      offset = r.p - base;

      if ((top_level & 4095) == 0)
        {
          if (g_cancellable_is_cancelled (cancellable))
            break;
          if (progress)
            progress (chrono_source_get_file_read (source), chrono_source_get_file_size (source), user_data);
        }
    }

  finish_stats (&imp);
  resolve_tracks (&imp);
  input.builders = imp.builders;
  input.flow_events = imp.flow_events;
  input.v2_binds = imp.v2_binds;
  input.min_ts = imp.min_ts;
  input.max_ts = imp.max_ts;
  chrono_track_builder_finish_trace (trace, &input);
  importer_clear (&imp);
  return TRUE;
}
