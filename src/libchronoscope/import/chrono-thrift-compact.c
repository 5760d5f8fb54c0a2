/* chrono-thrift-compact.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-thrift-compact.h"

guint64
chrono_thrift_varint (ChronoThrift *t)
{
  guint64 v = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 b;

      if (t->p >= t->end)
        break;
      b = *t->p++;
      v |= (guint64) (b & 0x7f) << shift;
      if ((b & 0x80) == 0)
        return v;
    }
  t->bad = TRUE;
  return 0;
}

gint64
chrono_thrift_int (ChronoThrift *t)
{
  guint64 u = chrono_thrift_varint (t);
  return (gint64) (u >> 1) ^ -(gint64) (u & 1);
}

gboolean
chrono_thrift_field (ChronoThrift *t,
                     gint         *id,
                     guint        *type)
{
  guint8 b;

  if (t->bad || t->p >= t->end)
    {
      t->bad = TRUE;
      return FALSE;
    }
  b = *t->p++;
  if (b == CHRONO_THRIFT_STOP)
    return FALSE;
  *type = b & 0x0f;
  if (b >> 4)
    *id += b >> 4;
  else
    *id = (gint) chrono_thrift_int (t);
  return !t->bad;
}

guint64
chrono_thrift_list (ChronoThrift *t,
                    guint        *elem_type)
{
  guint8 b;
  guint64 n;

  if (t->p >= t->end)
    {
      t->bad = TRUE;
      return 0;
    }
  b = *t->p++;
  *elem_type = b & 0x0f;
  n = b >> 4;
  if (n == 15)
    n = chrono_thrift_varint (t);
  /* Every element takes a byte at least. */
  if (n > (guint64) (t->end - t->p))
    t->bad = TRUE;
  return t->bad ? 0 : n;
}

const guint8 *
chrono_thrift_binary (ChronoThrift *t,
                      gsize        *len)
{
  guint64 n = chrono_thrift_varint (t);
  const guint8 *at = t->p;

  if (t->bad || n > (guint64) (t->end - t->p))
    {
      t->bad = TRUE;
      *len = 0;
      return NULL;
    }
  t->p += n;
  *len = n;
  return at;
}

static void
skip_struct (ChronoThrift *t)
{
  gint id = 0;
  guint type;

  if (++t->depth > CHRONO_THRIFT_MAX_NESTING)
    {
      t->bad = TRUE;
      return;
    }
  while (chrono_thrift_field (t, &id, &type))
    chrono_thrift_skip (t, type, FALSE);
  t->depth--;
}

void
chrono_thrift_skip (ChronoThrift *t,
                    guint         type,
                    gboolean      in_list)
{
  gsize len;

  switch (type)
    {
    case CHRONO_THRIFT_TRUE:
    case CHRONO_THRIFT_FALSE:
      /* A bool field is its header; in a list it is a byte. */
      if (in_list)
        t->p < t->end ? (void) t->p++ : (void) (t->bad = TRUE);
      break;
    case CHRONO_THRIFT_BYTE:
      t->p < t->end ? (void) t->p++ : (void) (t->bad = TRUE);
      break;
    case CHRONO_THRIFT_I16:
    case CHRONO_THRIFT_I32:
    case CHRONO_THRIFT_I64:
      chrono_thrift_varint (t);
      break;
    case CHRONO_THRIFT_DOUBLE:
      if (t->end - t->p < 8)
        t->bad = TRUE;
      else
        t->p += 8;
      break;
    case CHRONO_THRIFT_BINARY:
      chrono_thrift_binary (t, &len);
      break;
    case CHRONO_THRIFT_LIST:
    case CHRONO_THRIFT_SET:
      {
        guint elem;
        guint64 n = chrono_thrift_list (t, &elem);

        if (++t->depth > CHRONO_THRIFT_MAX_NESTING)
          t->bad = TRUE;
        for (guint64 i = 0; i < n && !t->bad; i++)
          chrono_thrift_skip (t, elem, TRUE);
        t->depth--;
      }
      break;
    case CHRONO_THRIFT_MAP:
      {
        guint64 n = chrono_thrift_varint (t);
        guint8 kv;

        if (n == 0 || t->bad)
          break;
        if (t->p >= t->end || n > (guint64) (t->end - t->p))
          {
            t->bad = TRUE;
            break;
          }
        kv = *t->p++;
        if (++t->depth > CHRONO_THRIFT_MAX_NESTING)
          t->bad = TRUE;
        for (guint64 i = 0; i < n && !t->bad; i++)
          {
            chrono_thrift_skip (t, kv >> 4, TRUE);
            chrono_thrift_skip (t, kv & 0x0f, TRUE);
          }
        t->depth--;
      }
      break;
    case CHRONO_THRIFT_STRUCT:
      skip_struct (t);
      break;
    default:
      t->bad = TRUE;
    }
}
