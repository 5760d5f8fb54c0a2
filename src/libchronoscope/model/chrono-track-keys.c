/* chrono-track-keys.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-track-keys.h"

static char *
id_to_string (ChronoTrace *trace,
              ChronoId     id)
{
  if (id.is_string)
    return g_strdup_printf ("\"%s\"", chrono_trace_get_string (trace, (guint32) id.value));
  return g_strdup_printf ("%" G_GINT64_FORMAT, id.value);
}

/* KEY, or with a count when SEEN has it already: twins stay apart. */
static char *
make_unique (GHashTable *seen,
             const char *key)
{
  g_autofree char *unique = g_strdup (key);

  for (guint n = 2; g_hash_table_contains (seen, unique); n++)
    {
      g_free (unique);
      unique = g_strdup_printf ("%s #%u", key, n);
    }
  g_hash_table_add (seen, unique);
  return g_steal_pointer (&unique);
}

GStrv
chrono_track_keys_new (ChronoTrace *trace)
{
  guint n = chrono_trace_get_n_tracks (trace);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GStrv keys;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);

  keys = g_new0 (char *, n + 1);
  for (guint t = 0; t < n; t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);
      const ChronoProcess *process = chrono_trace_get_process (trace, track->process);
      g_autofree char *pid = id_to_string (trace, process->pid);
      g_autofree char *tid = id_to_string (trace, track->tid);
      g_autofree char *key = g_strdup_printf ("%s pid=%s tid=%s name=%s",
                                              chrono_track_type_to_string (track->type), pid, tid,
                                              chrono_trace_get_string (trace, track->name));

      keys[t] = make_unique (seen, key);
    }
  return keys;
}

GStrv
chrono_process_keys_new (ChronoTrace *trace)
{
  guint n = chrono_trace_get_n_processes (trace);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GStrv keys;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);

  keys = g_new0 (char *, n + 1);
  for (guint p = 0; p < n; p++)
    {
      const ChronoProcess *process = chrono_trace_get_process (trace, p);
      g_autofree char *pid = id_to_string (trace, process->pid);
      g_autofree char *key = g_strdup_printf ("pid=%s name=%s", pid,
                                              chrono_trace_get_string (trace, process->display_name));

      keys[p] = make_unique (seen, key);
    }
  return keys;
}
