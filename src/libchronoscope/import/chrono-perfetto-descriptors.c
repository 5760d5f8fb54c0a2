/* chrono-perfetto-descriptors.c: interned data, a sequence's defaults, and
 * the process, thread, counter and track descriptors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-perfetto-private.h"

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
        name = chrono_perfetto_intern_bytes (imp, f.data, f.len);
    }
  if (st == CHRONO_PROTO_END)
    g_hash_table_insert (seq->interned[table], g_memdup2 (&iid, sizeof iid), GUINT_TO_POINTER (name + 1));
  return st;
}

ChronoProtoStatus
chrono_perfetto_handle_interned_data (Importer     *imp,
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
void
chrono_perfetto_append_scalars (GArray                 *out,
                                const ChronoProtoField *f,
                                ChronoProtoWireType     element)
{
  gsize iter = 0;
  guint64 v;

  while (chrono_proto_field_next_scalar (f, element, &iter, &v))
    g_array_append_val (out, v);
}

/* TracePacketDefaults: the sequence's clock and TrackEventDefaults. */
ChronoProtoStatus
chrono_perfetto_handle_defaults (Sequence     *seq,
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
                chrono_perfetto_append_scalars (seq->extra_counters, &g, CHRONO_PROTO_VARINT);
              else if (g.number == 45)
                chrono_perfetto_append_scalars (seq->extra_double_counters, &g, CHRONO_PROTO_VARINT);
            }
          if (st != CHRONO_PROTO_END)
            return st;
        }
    }
  return st;
}

/* ProcessDescriptor: pid 1, cmdline 2, chrono_perfetto_process_name 6. */
ChronoProtoStatus
chrono_perfetto_read_process (Importer     *imp,
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
        name = chrono_perfetto_intern_bytes (imp, f.data, f.len);
      else if (f.number == 2 && f.wire_type == CHRONO_PROTO_BYTES && cmdline == CHRONO_NO_STRING)
        cmdline = chrono_perfetto_intern_bytes (imp, f.data, f.len);
    }
  if (st == CHRONO_PROTO_END)
    chrono_perfetto_set_process_name (imp, *pid, name != CHRONO_NO_STRING ? name : cmdline);
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
        *name = chrono_perfetto_intern_bytes (imp, f.data, f.len);
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
ChronoProtoStatus
chrono_perfetto_handle_track_descriptor (Importer     *imp,
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
  t = chrono_perfetto_track_for_uuid (imp, uuid);

  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    {
      ChronoProtoStatus sub = CHRONO_PROTO_END;

      switch (f.number)
        {
        case 2: case 10: case 13:   /* name, static_name, atrace_name */
          if (f.wire_type == CHRONO_PROTO_BYTES)
            t->name = chrono_perfetto_intern_bytes (imp, f.data, f.len);
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
              sub = chrono_perfetto_read_process (imp, f.data, f.len, &t->pid);
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
ChronoProtoStatus
chrono_perfetto_handle_thread_packet (Importer     *imp,
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
      t = chrono_perfetto_track_new (imp);
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
