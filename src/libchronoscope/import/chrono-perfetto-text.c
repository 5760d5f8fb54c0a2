/* chrono-perfetto-text.c: strings interned, and an event's debug annotations
 * written as the trace's args JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-perfetto-private.h"

/* -------------------------------------------------------------------- */
/* Strings                                                              */

guint32
chrono_perfetto_intern_bytes (Importer     *imp,
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
          guint32 id = chrono_perfetto_lookup_interned (imp, seq, INTERN_ANNOTATION_NAMES, f.value);
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
        guint32 id = chrono_perfetto_lookup_interned (imp, seq, INTERN_ANNOTATION_STRINGS, value.value);
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
guint64
chrono_perfetto_write_args (Importer *imp,
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
