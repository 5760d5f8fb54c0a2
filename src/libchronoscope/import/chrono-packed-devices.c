/* chrono-packed-devices.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-kineto.h"
#include "chrono-packed-devices.h"

#define PACK_SHIFT  10
#define DEVICE_MASK 0x1f

/* The index of the process with pid PID that has host rows, or -1. */
static gint
host_process (ChronoTrace *trace,
              gint64       pid,
              const guint *host_rows)
{
  for (guint i = 0; i < trace->processes->len; i++)
    {
      const ChronoProcess *p = &g_array_index (trace->processes, ChronoProcess, i);

      if (!p->pid.is_string && p->pid.value == pid && host_rows[i] > 0)
        return (gint) i;
    }
  return -1;
}

/* A label that names a kind of device and no number ("NPU"), among the
 * processes packed under HOST. */
static const char *
device_word (ChronoTrace *trace,
             gint64       host)
{
  for (guint i = 0; i < trace->processes->len; i++)
    {
      const ChronoProcess *p = &g_array_index (trace->processes, ChronoProcess, i);
      const char *labels = chrono_string_table_get (trace->strings, p->labels);

      if (!p->pid.is_string && p->pid.value >> PACK_SHIFT == host && *labels &&
          strpbrk (labels, "0123456789 ") == NULL)
        return labels;
    }
  return "Device";
}

void
chrono_packed_devices_find (ChronoTrace *trace)
{
  guint n = trace->processes->len;
  g_autofree guint *host_rows = g_new0 (guint, n);
  g_autofree gboolean *hosted = g_new0 (gboolean, n);

  for (guint ti = 0; ti < trace->tracks->len; ti++)
    {
      const ChronoTrack *t = g_ptr_array_index (trace->tracks, ti);

      for (guint32 i = 0; i < t->n_spans && !hosted[t->process]; i++)
        hosted[t->process] = chrono_kineto_kind_is_host (t->kind[i]);
      host_rows[t->process] += t->type == CHRONO_TRACK_THREAD && hosted[t->process];
    }
  for (guint pi = 0; pi < n; pi++)
    {
      ChronoProcess *p = &g_array_index (trace->processes, ChronoProcess, pi);
      gint64 host = p->pid.value >> PACK_SHIFT;
      const char *name = chrono_string_table_get (trace->strings, p->name);
      g_autofree char *rank = NULL;
      g_autofree char *display = NULL;

      if (p->pid.is_string || p->pid.value < (1 << PACK_SHIFT) || hosted[pi] ||
          host_process (trace, host, host_rows) < 0)
        continue;
      p->is_device = TRUE;
      p->device_index = (gint) (p->pid.value & DEVICE_MASK);
      rank = trace->rank >= 0 ? g_strdup_printf ("Rank %d · ", trace->rank) : g_strdup ("");
      display = g_strdup_printf ("%s%s %d%s%s", rank, device_word (trace, host), p->device_index,
                                 *name ? " · " : "", name);
      p->display_name = chrono_string_table_intern (trace->strings, display, strlen (display));
      for (guint ti = 0; ti < trace->tracks->len; ti++)
        {
          ChronoTrack *t = g_ptr_array_index (trace->tracks, ti);

          if (t->process == pi && t->type == CHRONO_TRACK_THREAD)
            t->type = CHRONO_TRACK_STREAM;
        }
    }
}

static gboolean
packs (const ChronoProcess *packed,
       const ChronoProcess *host)
{
  return !packed->pid.is_string && !host->pid.is_string && packed->pid.value >= (1 << PACK_SHIFT) &&
         packed->pid.value >> PACK_SHIFT == host->pid.value;
}

gboolean
chrono_packed_devices_same_thread (ChronoTrace *trace,
                                   guint32      a,
                                   guint32      b)
{
  const ChronoTrack *ta, *tb;
  const ChronoProcess *pa, *pb;

  if (a == b)
    return TRUE;
  ta = g_ptr_array_index (trace->tracks, a);
  tb = g_ptr_array_index (trace->tracks, b);
  if (ta->type != CHRONO_TRACK_THREAD || tb->type != CHRONO_TRACK_THREAD ||
      ta->tid.is_string || tb->tid.is_string || ta->tid.value != tb->tid.value)
    return FALSE;
  pa = &g_array_index (trace->processes, ChronoProcess, ta->process);
  pb = &g_array_index (trace->processes, ChronoProcess, tb->process);
  return packs (pa, pb) || packs (pb, pa);
}
