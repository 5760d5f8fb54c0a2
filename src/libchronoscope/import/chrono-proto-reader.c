/* chrono-proto-reader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-proto-reader.h"

ChronoProtoStatus
chrono_proto_read_varint (const guint8 **p,
                          const guint8  *end,
                          guint64       *value)
{
  const guint8 *q = *p;
  guint64 v = 0;

  for (guint shift = 0; shift < 70; shift += 7)
    {
      guint8 b;

      if (q >= end)
        return CHRONO_PROTO_TRUNCATED;
      b = *q++;
      /* The tenth byte holds the last bit of 64: more is overlong. */
      if (shift == 63 && b > 1)
        return CHRONO_PROTO_MALFORMED;
      v |= (guint64) (b & 0x7f) << shift;
      if (b < 0x80)
        {
          *p = q;
          *value = v;
          return CHRONO_PROTO_OK;
        }
    }
  return CHRONO_PROTO_MALFORMED;
}

static guint64
read_le (const guint8 *p,
         guint         n)
{
  guint64 v = 0;

  for (guint i = 0; i < n; i++)
    v |= (guint64) p[i] << (8 * i);
  return v;
}

ChronoProtoStatus
chrono_proto_reader_next (ChronoProtoReader *r,
                          ChronoProtoField  *field)
{
  const guint8 *q = r->p;
  ChronoProtoStatus st;
  guint64 tag;
  guint64 len;

  if (q >= r->end)
    return CHRONO_PROTO_END;
  if ((st = chrono_proto_read_varint (&q, r->end, &tag)) != CHRONO_PROTO_OK)
    return st;
  /* Field numbers run from 1 to 2^29 - 1. */
  if ((tag >> 3) == 0 || (tag >> 3) > 0x1fffffff)
    return CHRONO_PROTO_MALFORMED;
  field->number = (guint32) (tag >> 3);
  field->wire_type = tag & 7;
  field->data = NULL;
  field->len = 0;
  field->value = 0;

  switch (field->wire_type)
    {
    case CHRONO_PROTO_VARINT:
      if ((st = chrono_proto_read_varint (&q, r->end, &field->value)) != CHRONO_PROTO_OK)
        return st;
      break;
    case CHRONO_PROTO_FIXED64:
      if (r->end - q < 8)
        return CHRONO_PROTO_TRUNCATED;
      field->value = read_le (q, 8);
      q += 8;
      break;
    case CHRONO_PROTO_FIXED32:
      if (r->end - q < 4)
        return CHRONO_PROTO_TRUNCATED;
      field->value = read_le (q, 4);
      q += 4;
      break;
    case CHRONO_PROTO_BYTES:
      if ((st = chrono_proto_read_varint (&q, r->end, &len)) != CHRONO_PROTO_OK)
        return st;
      if (len > (guint64) (r->end - q))
        return CHRONO_PROTO_TRUNCATED;
      field->data = q;
      field->len = (gsize) len;
      q += len;
      break;
    default:
      /* Groups (3, 4) are deprecated and no Perfetto message uses them. */
      return CHRONO_PROTO_MALFORMED;
    }
  r->p = q;
  return CHRONO_PROTO_OK;
}

gboolean
chrono_proto_field_next_scalar (const ChronoProtoField *field,
                                ChronoProtoWireType     element,
                                gsize                  *iter,
                                guint64                *value)
{
  const guint8 *p;
  const guint8 *end;

  if (field->wire_type != CHRONO_PROTO_BYTES)
    {
      if (*iter > 0 || field->wire_type != element)
        return FALSE;
      *iter = 1;
      *value = field->value;
      return TRUE;
    }
  p = field->data + *iter;
  end = field->data + field->len;
  if (p >= end)
    return FALSE;
  switch (element)
    {
    case CHRONO_PROTO_VARINT:
      if (chrono_proto_read_varint (&p, end, value) != CHRONO_PROTO_OK)
        return FALSE;
      break;
    case CHRONO_PROTO_FIXED64:
      if (end - p < 8)
        return FALSE;
      *value = read_le (p, 8);
      p += 8;
      break;
    case CHRONO_PROTO_FIXED32:
      if (end - p < 4)
        return FALSE;
      *value = read_le (p, 4);
      p += 4;
      break;
    case CHRONO_PROTO_BYTES:
    default:
      return FALSE;
    }
  *iter = p - field->data;
  return TRUE;
}

const char *
chrono_proto_status_to_string (ChronoProtoStatus status)
{
  switch (status)
    {
    case CHRONO_PROTO_OK: return "ok";
    case CHRONO_PROTO_END: return "end of data";
    case CHRONO_PROTO_TRUNCATED: return "data ends inside a field";
    case CHRONO_PROTO_MALFORMED: return "not a protobuf field";
    default: return "unknown";
    }
}
