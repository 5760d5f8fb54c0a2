/* chrono-perfetto-clocks.c: clock snapshots, and a timestamp of any clock put
 * on the trace's clock
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-perfetto-private.h"

/* -------------------------------------------------------------------- */
/* Clocks                                                               */

static guint64
clock_key (guint32 seq,
           guint32 id)
{
  gboolean scoped = id >= FIRST_SEQUENCE_CLOCK && id <= LAST_SEQUENCE_CLOCK;

  return (guint64) (scoped ? seq : 0) << 32 | id;
}

void
chrono_perfetto_clock_free (Clock *clock)
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
ChronoProtoStatus
chrono_perfetto_handle_clock_snapshot (Importer     *imp,
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
gint64
chrono_perfetto_to_trace_time (Importer *imp,
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
