/* chrono-format.c: numbers and durations as people read them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>

#include "chrono-format.h"

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
chrono_format_megabytes (guint64 bytes)
{
  return g_strdup_printf (_("%.1f MB"), bytes / 1e6);
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
