/* perfetto-writer.c: Perfetto protobuf written by the tests themselves
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "perfetto-writer.h"

void
put_varint (GByteArray *m,
            guint64     v)
{
  do
    {
      guint8 b = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);
      g_byte_array_append (m, &b, 1);
      v >>= 7;
    }
  while (v != 0);
}

void
put_tag (GByteArray *m,
         guint32     field,
         guint       wire_type)
{
  put_varint (m, (guint64) field << 3 | wire_type);
}

void
put_uint (GByteArray *m,
          guint32     field,
          guint64     v)
{
  put_tag (m, field, 0);
  put_varint (m, v);
}

void
put_fixed64 (GByteArray *m,
             guint32     field,
             guint64     v)
{
  put_tag (m, field, 1);
  for (guint i = 0; i < 8; i++)
    {
      guint8 b = (v >> (8 * i)) & 0xff;
      g_byte_array_append (m, &b, 1);
    }
}

void
put_double (GByteArray *m,
            guint32     field,
            gdouble     d)
{
  guint64 bits;

  memcpy (&bits, &d, sizeof bits);
  put_fixed64 (m, field, bits);
}

void
put_bytes (GByteArray   *m,
           guint32       field,
           const void   *data,
           gsize         len)
{
  put_tag (m, field, 2);
  put_varint (m, len);
  g_byte_array_append (m, data, len);
}

void
put_string (GByteArray *m,
            guint32     field,
            const char *s)
{
  put_bytes (m, field, s, strlen (s));
}

/* Appends SUB as field FIELD and frees it. */
void
put_message (GByteArray *m,
             guint32     field,
             GByteArray *sub)
{
  put_bytes (m, field, sub->data, sub->len);
  g_byte_array_unref (sub);
}

GByteArray *
msg (void)
{
  return g_byte_array_new ();
}

void
add_packet (GByteArray *trace,
            GByteArray *packet)
{
  put_message (trace, 1, packet);
}

GByteArray *
packet (guint32 seq,
        guint64 ts)
{
  GByteArray *p = msg ();

  put_uint (p, P_SEQ, seq);
  if (ts != G_MAXUINT64)
    put_uint (p, P_TIMESTAMP, ts);
  return p;
}

GByteArray *
event (guint       type,
       guint64     track,
       const char *name)
{
  GByteArray *e = msg ();

  put_uint (e, E_TYPE, type);
  if (track != 0)
    put_uint (e, E_TRACK, track);
  if (name != NULL)
    put_string (e, E_NAME, name);
  return e;
}

void
add_event (GByteArray *trace,
           guint32     seq,
           guint64     ts,
           GByteArray *ev)
{
  GByteArray *p = packet (seq, ts);

  put_message (p, P_TRACK_EVENT, ev);
  add_packet (trace, p);
}

/* A TrackDescriptor; PARENT 0 for none. */
void
add_track (GByteArray *trace,
           guint64     uuid,
           guint64     parent,
           const char *name)
{
  GByteArray *p = packet (1, G_MAXUINT64);
  GByteArray *d = msg ();

  put_uint (d, 1, uuid);
  if (name != NULL)
    put_string (d, 2, name);
  if (parent != 0)
    put_uint (d, 5, parent);
  put_message (p, P_DESCRIPTOR, d);
  add_packet (trace, p);
}

GByteArray *
interned_entry (guint64     iid,
                const char *name)
{
  GByteArray *e = msg ();

  put_uint (e, 1, iid);
  put_string (e, 2, name);
  return e;
}
