/* perfetto-writer.h: Perfetto protobuf written by the tests themselves
 * (messages are GByteArrays; put_message nests one and frees it)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TracePacket fields */
enum {
  P_CLOCK_SNAPSHOT = 6, P_TIMESTAMP = 8, P_SEQ = 10, P_TRACK_EVENT = 11,
  P_INTERNED = 12, P_FLAGS = 13, P_CLEARED = 41, P_DROPPED = 42,
  P_COMPRESSED = 50, P_CLOCK_ID = 58, P_DEFAULTS = 59, P_DESCRIPTOR = 60,
};

/* TrackEvent fields */
enum {
  E_CATEGORY_IIDS = 3, E_ANNOTATION = 4, E_TYPE = 9, E_NAME_IID = 10,
  E_TRACK = 11, E_EXTRA_VALUES = 12, E_CATEGORIES = 22, E_NAME = 23,
  E_COUNTER = 30, E_EXTRA_TRACKS = 31, E_DOUBLE_COUNTER = 44,
  E_FLOW = 47, E_TERMINATING_FLOW = 48,
};

enum { BEGIN = 1, END = 2, INSTANT = 3, COUNTER = 4 };

void put_varint (GByteArray *m, guint64 v);
void put_tag (GByteArray *m, guint32 field, guint wire_type);
void put_uint (GByteArray *m, guint32 field, guint64 v);
void put_fixed64 (GByteArray *m, guint32 field, guint64 v);
void put_double (GByteArray *m, guint32 field, gdouble d);
void put_bytes (GByteArray *m, guint32 field, const void *data, gsize len);
void put_string (GByteArray *m, guint32 field, const char *s);
void put_message (GByteArray *m, guint32 field, GByteArray *sub);
GByteArray *msg (void);
void add_packet (GByteArray *trace, GByteArray *packet);
/* A packet on sequence SEQ; TS G_MAXUINT64 for none. */
GByteArray *packet (guint32 seq, guint64 ts);
GByteArray *event (guint type, guint64 track, const char *name);
void add_event (GByteArray *trace, guint32 seq, guint64 ts, GByteArray *ev);
/* A TrackDescriptor; PARENT 0 for none. */
void add_track (GByteArray *trace, guint64 uuid, guint64 parent, const char *name);
GByteArray *interned_entry (guint64 iid, const char *name);

G_END_DECLS
