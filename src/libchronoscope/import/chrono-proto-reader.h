/* chrono-proto-reader.h: a bounds-checked walk over protobuf wire format
 *
 * No schema and no copies: each field is handed out as its number, its
 * wire type and either its scalar value or a pointer into the buffer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  CHRONO_PROTO_OK,
  CHRONO_PROTO_END,        /* no more fields */
  CHRONO_PROTO_TRUNCATED,  /* the buffer ends inside a field */
  CHRONO_PROTO_MALFORMED,  /* bytes that are no protobuf field */
} ChronoProtoStatus;

typedef enum {
  CHRONO_PROTO_VARINT = 0,
  CHRONO_PROTO_FIXED64 = 1,
  CHRONO_PROTO_BYTES = 2,
  CHRONO_PROTO_FIXED32 = 5,
} ChronoProtoWireType;

typedef struct {
  const guint8 *p;
  const guint8 *end;
} ChronoProtoReader;

typedef struct {
  guint32       number;
  guint8        wire_type;  /* ChronoProtoWireType */
  guint64       value;      /* varint, fixed64 and fixed32 fields */
  const guint8 *data;       /* length-delimited fields */
  gsize         len;
} ChronoProtoField;

static inline void
chrono_proto_reader_init (ChronoProtoReader *r,
                          const guint8      *data,
                          gsize              len)
{
  r->p = data;
  r->end = data + len;
}

/* Reads one varint at *P, at most ten bytes, none past END. */
ChronoProtoStatus chrono_proto_read_varint (const guint8 **p,
                                            const guint8  *end,
                                            guint64       *value);

/* The next field. On anything but OK the reader stays where the field
 * started, so that the caller can name the offset. */
ChronoProtoStatus chrono_proto_reader_next (ChronoProtoReader *r,
                                            ChronoProtoField  *field);

/* Repeated scalars come one per field or packed into one length-delimited
 * field: this walks either form. Returns FALSE when the values run out
 * (or a packed run is malformed). ITER starts at zero. */
gboolean          chrono_proto_field_next_scalar (const ChronoProtoField *field,
                                                  ChronoProtoWireType     element,
                                                  gsize                  *iter,
                                                  guint64                *value);

static inline gdouble
chrono_proto_field_double (const ChronoProtoField *field)
{
  gdouble d;

  if (field->wire_type == CHRONO_PROTO_FIXED32)
    {
      guint32 bits = (guint32) field->value;
      gfloat f;

      memcpy (&f, &bits, sizeof f);
      return f;
    }
  memcpy (&d, &field->value, sizeof d);
  return d;
}

const char       *chrono_proto_status_to_string (ChronoProtoStatus status);

G_END_DECLS
