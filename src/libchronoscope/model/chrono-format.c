/* chrono-format.c: numbers and durations as people read them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "chrono-format.h"

/* Where the bracket group that ends at END (its closing bracket) opens,
 * counting both kinds, or -1 when they do not match. */
static gssize
find_group_start (const char *name,
                  gssize      end)
{
  int depth = 0;

  for (gssize i = end; i >= 0; i--)
    {
      if (name[i] == ')' || name[i] == '>')
        depth++;
      else if (name[i] == '(' || name[i] == '<')
        depth--;
      if (depth == 0)
        return i;
      if (depth < 0)
        return -1;
    }
  return -1;
}

char *
chrono_format_short_name (const char *name)
{
  gssize len = strlen (name);
  gssize args, start = 0;
  GString *out;
  int depth = 0;

  /* Only a name followed by its argument list, and a C++ one (qualified,
   * a template) or one whose arguments are types: "f(44)" stays. */
  if (len < 3 || name[len - 1] != ')' || (args = find_group_start (name, len - 1)) <= 0 ||
      name[args] != '(' || name[args - 1] == ' ' ||
      (strstr (name, "::") == NULL && strchr (name, '<') == NULL && strpbrk (name + args, "*&, ") == NULL))
    return NULL;
  /* The return type ends at the last space outside brackets before the
   * name: "void", "at::Tensor", "std::pair<int, int>". */
  for (gssize i = 0; i < args; i++)
    {
      if (name[i] == '<' || name[i] == '(')
        depth++;
      else if ((name[i] == '>' || name[i] == ')') && depth > 0)
        depth--;
      else if (name[i] == ' ' && depth == 0)
        start = i + 1;
    }
  if (depth != 0)
    return NULL;

  out = g_string_sized_new (args - start + 8);
  for (gssize i = start; i < args; i++)
    {
      if (name[i] == '<')
        {
          /* The whole template argument list, nested ones with it. */
          int nested = 0;
          gssize j = i;

          for (; j < args; j++)
            if (name[j] == '<')
              nested++;
            else if (name[j] == '>' && --nested == 0)
              break;
          if (j == args)
            {
              g_string_free (out, TRUE);
              return NULL;
            }
          g_string_append (out, "<…>");
          i = j;
        }
      else
        g_string_append_c (out, name[i]);
    }
  g_string_append (out, args == len - 2 ? "()" : "(…)");
  return g_string_free (out, FALSE);
}

char *
chrono_format_count (guint64 count)
{
  /* The ' flag groups digits the way the locale does. */
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, count);
}

char *
chrono_format_duration (gint64 ns)
{
  if (ns >= G_GINT64_CONSTANT (1000000000))
    return g_strdup_printf (_("%.3f s"), ns / 1e9);
  if (ns >= 1000000)
    return g_strdup_printf (_("%.3f ms"), ns / 1e6);
  if (ns >= 1000)
    return g_strdup_printf (_("%.3f µs"), ns / 1e3);
  return g_strdup_printf (_("%d ns"), (int) ns);
}

char *
chrono_format_duration_change (gdouble ns)
{
  g_autofree char *magnitude = chrono_format_duration ((gint64) llround (fabs (ns)));

  /* Translators: a difference in time, "+1.20 ms" or "−0.30 ms" */
  return ns > 0 ? g_strdup_printf (_("+%s"), magnitude)
       : ns < 0 ? g_strdup_printf (_("−%s"), magnitude)
       : g_steal_pointer (&magnitude);
}

/* Decimal units scaled to the size, so a 14 kB profile does not read "0.0 MB". */
char *
chrono_format_bytes (guint64 bytes)
{
  return g_format_size (bytes);
}

/* "40MB", "1.5GB", "512KiB", "1000000": decimal units as g_format_size()
 * prints them, binary ones with an "i". */
gboolean
chrono_format_parse_size (const char  *text,
                          guint64     *bytes,
                          GError     **error)
{
  static const struct {
    const char *suffix;
    double      scale;
  } units[] = {
    { "", 1 }, { "B", 1 },
    { "K", 1e3 }, { "KB", 1e3 }, { "KiB", 1024.0 },
    { "M", 1e6 }, { "MB", 1e6 }, { "MiB", 1048576.0 },
    { "G", 1e9 }, { "GB", 1e9 }, { "GiB", 1073741824.0 },
  };
  char *end = NULL;
  double value = g_ascii_strtod (text, &end);

  if (end != text && value > 0)
    {
      while (*end == ' ')
        end++;
      for (guint i = 0; i < G_N_ELEMENTS (units); i++)
        if (g_ascii_strcasecmp (end, units[i].suffix) == 0)
          {
            *bytes = (guint64) (value * units[i].scale);
            return TRUE;
          }
    }
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               "Cannot read the size “%s”: use a number with an optional unit such as 40MB or 1GB", text);
  return FALSE;
}
