/* chrono-track-names.c: the names processes and tracks are shown by, and
 * the rank a trace's metadata gives
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-kineto.h"
#include "chrono-track-builder-private.h"

static guint32
intern_printf (ChronoTrace *trace,
               const char  *format,
               ...) G_GNUC_PRINTF (2, 3);

static guint32
intern_printf (ChronoTrace *trace,
               const char  *format,
               ...)
{
  g_autofree char *s = NULL;
  va_list args;

  va_start (args, format);
  s = g_strdup_vprintf (format, args);
  va_end (args);
  return chrono_string_table_intern (trace->strings, s, strlen (s));
}

static char *
id_to_string (ChronoTrace *trace,
              ChronoId     id)
{
  if (id.is_string)
    return g_strdup (chrono_string_table_get (trace->strings, (guint32) id.value));
  return g_strdup_printf ("%" G_GINT64_FORMAT, id.value);
}

void
chrono_track_name_processes (ChronoTrace *trace)
{
  for (guint i = 0; i < trace->processes->len; i++)
    {
      ChronoProcess *p = &g_array_index (trace->processes, ChronoProcess, i);
      const char *labels = chrono_string_table_get (trace->strings, p->labels);
      const char *name = chrono_string_table_get (trace->strings, p->name);
      g_autofree char *pid = id_to_string (trace, p->pid);
      gint device = chrono_kineto_device_from_label (labels);

      if (device >= 0)
        {
          p->is_device = TRUE;
          p->device_index = device;
        }
      if (p->is_device && *labels)
        p->display_name = chrono_string_table_intern (trace->strings, labels, strlen (labels));
      else if (p->is_device)
        p->display_name = intern_printf (trace, "Device %s", pid);
      else if (p->pid.is_string)
        p->display_name = chrono_string_table_intern (trace->strings, *name ? name : pid,
                                                      strlen (*name ? name : pid));
      else if (*name && trace->rank >= 0)
        p->display_name = intern_printf (trace, "Rank %d · %s (%s)", trace->rank, name, pid);
      else if (*name)
        p->display_name = intern_printf (trace, "%s (%s)", name, pid);
      else if (trace->rank >= 0)
        p->display_name = intern_printf (trace, "Rank %d · process %s", trace->rank, pid);
      else
        p->display_name = intern_printf (trace, "Process %s", pid);
    }
}

void
chrono_track_name (ChronoTrace *trace,
                   ChronoTrack *t)
{
  g_autofree char *tid = id_to_string (trace, t->tid);
  g_autofree char *name = g_strstrip (g_strdup (chrono_string_table_get (trace->strings, t->name)));

  switch (t->type)
    {
    case CHRONO_TRACK_STREAM:
      if (*name)
        t->display_name = chrono_string_table_intern (trace->strings, name, strlen (name));
      /* Older Kineto writes the tid as "stream 7" already. */
      else if (g_ascii_strncasecmp (tid, "stream ", 7) == 0)
        t->display_name = chrono_string_table_intern (trace->strings, tid, strlen (tid));
      else
        t->display_name = intern_printf (trace, "stream %s", tid);
      break;
    case CHRONO_TRACK_THREAD:
      if (*name)
        t->display_name = chrono_string_table_intern (trace->strings, name, strlen (name));
      /* Kineto writes some threads by their pthread id cut to 32 bits,
       * which JSON carries signed: shown as the unsigned id it is. */
      else if (g_strcmp0 (trace->format, "kineto") == 0 && !t->tid.is_string && t->tid.value < 0 &&
               t->tid.value >= G_MININT32)
        t->display_name = intern_printf (trace, "thread %" G_GUINT32_FORMAT, (guint32) t->tid.value);
      else
        t->display_name = intern_printf (trace, "thread %s", tid);
      break;
    case CHRONO_TRACK_INSTANTS:
      t->display_name = intern_printf (trace, "Instant events");
      break;
    case CHRONO_TRACK_ASYNC:
    case CHRONO_TRACK_COUNTER:
    default:
      /* Named by their id unless the importer gave a name. */
      if (*name)
        t->display_name = chrono_string_table_intern (trace->strings, name, strlen (name));
      else
        t->display_name = chrono_string_table_intern (trace->strings, tid, strlen (tid));
      break;
    }
}

void
chrono_track_read_distributed_info (ChronoTrace *trace)
{
  g_autoptr(JsonNode) info = chrono_trace_get_metadata (trace, "distributedInfo");
  JsonObject *o;

  if (info == NULL || !JSON_NODE_HOLDS_OBJECT (info))
    return;
  o = json_node_get_object (info);
  if (json_object_has_member (o, "rank"))
    trace->rank = (gint) json_object_get_int_member (o, "rank");
  if (json_object_has_member (o, "world_size"))
    trace->world_size = (gint) json_object_get_int_member (o, "world_size");
}
