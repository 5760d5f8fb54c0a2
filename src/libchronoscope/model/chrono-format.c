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
