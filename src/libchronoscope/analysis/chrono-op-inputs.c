/* chrono-op-inputs.c: an operator's shapes and types written as text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-op-inputs.h"

/* Past the white space at P, escaped ("\r\n") or not. */
static const char *
skip_blank (const char *p,
            const char *end)
{
  for (;;)
    {
      if (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        p++;
      else if (end - p >= 2 && p[0] == '\\' && (p[1] == 'r' || p[1] == 'n' || p[1] == 't'))
        p += 2;
      else
        return p;
    }
}

/* Before the white space that ends [P, END). */
static const char *
trim_blank (const char *p,
            const char *end)
{
  for (;;)
    {
      if (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
        end--;
      else if (end - p >= 2 && end[-2] == '\\' && (end[-1] == 'r' || end[-1] == 'n' || end[-1] == 't') &&
               (end - p == 2 || end[-3] != '\\'))
        end -= 2;
      else
        return end;
    }
}

/* The item [P, END) of a shape, "32,1000", appended as [32,1000]. */
static gboolean
append_shape (GString    *out,
              const char *p,
              const char *end)
{
  gboolean digits = FALSE;

  g_string_append_c (out, '[');
  for (; p < end; p++)
    {
      if (g_ascii_isdigit (*p))
        digits = TRUE;
      else if (*p == ',' && digits)
        digits = FALSE;
      else if (*p == '-' && !digits && p + 1 < end && g_ascii_isdigit (p[1]))
        ;
      else if (*p == ' ')
        continue;
      else
        return FALSE;
      g_string_append_c (out, *p);
    }
  /* "4," ends without a number. */
  if (out->str[out->len - 1] == ',')
    return FALSE;
  g_string_append_c (out, ']');
  return TRUE;
}

char *
chrono_op_inputs_from_text (const char *value,
                            gsize       len,
                            gboolean    shapes)
{
  const char *end = value + len;
  const char *p = skip_blank (value, end);
  const char *close;
  g_autoptr(GString) out = NULL;

  if (p >= end || *p != '"')
    return NULL;
  /* The closing quote: the last one, as VALUE is the whole string. */
  close = trim_blank (p + 1, end);
  if (close <= p + 1 || close[-1] != '"')
    return NULL;
  close--;
  out = g_string_new ("[");
  for (p++;;)
    {
      const char *semi = memchr (p, ';', close - p);
      const char *item_end = trim_blank (p, semi ? semi : close);

      p = skip_blank (p, item_end);
      if (out->len > 1)
        g_string_append_c (out, ',');
      if (shapes)
        {
          if (!append_shape (out, p, item_end))
            return NULL;
        }
      else
        {
          g_string_append_c (out, '"');
          g_string_append_len (out, p, item_end - p);
          g_string_append_c (out, '"');
        }
      if (semi == NULL)
        break;
      p = semi + 1;
    }
  g_string_append_c (out, ']');
  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
chrono_op_inputs_dup (const char *value,
                      gsize       len,
                      gboolean    shapes)
{
  char *array = chrono_op_inputs_from_text (value, len, shapes);

  return array ? array : g_strndup (value, len);
}
