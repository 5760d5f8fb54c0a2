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

/* HCCL's tasks name the rank that wrote them their "src rank": the
 * trace's rank when every task that says agrees, else -1. */
static gint
rank_of_tasks (ChronoTrace    *trace,
               const gboolean *device)
{
  static const char key[] = "\"src rank\"";
  gint64 rank = -1;

  for (guint ti = 0; ti < trace->tracks->len; ti++)
    {
      const ChronoTrack *t = g_ptr_array_index (trace->tracks, ti);

      for (guint32 i = 0; device[t->process] && i < t->n_spans; i++)
        {
          guint64 off = chrono_track_get_args (t, i);
          gsize len = 0;
          const char *text = off != CHRONO_NO_ARGS ? chrono_trace_get_raw_value (trace, off, &len) : NULL;
          const char *at = text ? memmem (text, len, key, sizeof key - 1) : NULL;
          const char *end;
          char *num_end;
          gint64 value;

          if (at == NULL)
            continue;
          end = text + len;
          for (at += sizeof key - 1; at < end && (*at == ' ' || *at == ':'); at++)
            ;
          value = at < end && g_ascii_isdigit (*at) ? g_ascii_strtoll (at, &num_end, 10) : -1;
          if (value < 0 || value > G_MAXINT || (rank >= 0 && value != rank))
            return -1;
          rank = value;
        }
    }
  return (gint) rank;
}

/* The number after the last "rank" in NAME ("rank3", "rank_3",
 * "rank-3"), or -1. */
static gint
rank_in_name (const char *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);
  gint rank = -1;

  for (const char *at = strstr (lower, "rank"); at; at = strstr (at + 1, "rank"))
    {
      const char *num = at + 4;

      if (at > lower && g_ascii_isalpha (at[-1]))
        continue;
      if (*num == '_' || *num == '-')
        num++;
      if (g_ascii_isdigit (*num))
        rank = (gint) MIN (g_ascii_strtoll (num, NULL, 10), G_MAXINT);
    }
  return rank;
}

/* The rank from the names the Ascend profiler's output is kept under:
 * the file's own name, then its folders, nearest first
 * ("rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"). */
static gint
rank_of_path (const char *path)
{
  g_autofree char *dir = NULL;
  gint rank;

  if (path == NULL)
    return -1;
  for (dir = g_strdup (path); strcmp (dir, ".") != 0 && strcmp (dir, "/") != 0;)
    {
      g_autofree char *base = g_path_get_basename (dir);
      char *parent;

      if ((rank = rank_in_name (base)) >= 0)
        return rank;
      parent = g_path_get_dirname (dir);
      g_free (dir);
      dir = parent;
    }
  return -1;
}

/* A trace that declares no rank takes the one its HCCL tasks or its
 * path name; its host processes are named after it, as the track
 * builder names those of a trace that declares one. */
static void
name_rank (ChronoTrace    *trace,
           const gboolean *device)
{
  gint rank = rank_of_tasks (trace, device);

  if (rank < 0)
    rank = rank_of_path (trace->path);
  if (rank < 0)
    return;
  trace->rank = rank;
  for (guint pi = 0; pi < trace->processes->len; pi++)
    {
      ChronoProcess *p = &g_array_index (trace->processes, ChronoProcess, pi);
      g_autofree char *display = NULL;

      if (device[pi] || p->is_device)
        continue;
      display = g_strdup_printf ("Rank %d · %s", rank, chrono_string_table_get (trace->strings, p->display_name));
      p->display_name = chrono_string_table_intern (trace->strings, display, strlen (display));
    }
}

void
chrono_packed_devices_find (ChronoTrace *trace)
{
  guint n = trace->processes->len;
  g_autofree guint *host_rows = g_new0 (guint, n);
  g_autofree gboolean *hosted = g_new0 (gboolean, n);
  g_autofree gboolean *device = g_new0 (gboolean, n);
  gboolean any = FALSE;

  for (guint ti = 0; ti < trace->tracks->len; ti++)
    {
      const ChronoTrack *t = g_ptr_array_index (trace->tracks, ti);

      for (guint32 i = 0; i < t->n_spans && !hosted[t->process]; i++)
        hosted[t->process] = chrono_kineto_kind_is_host (t->kind[i]);
      host_rows[t->process] += t->type == CHRONO_TRACK_THREAD && hosted[t->process];
    }
  for (guint pi = 0; pi < n; pi++)
    {
      const ChronoProcess *p = &g_array_index (trace->processes, ChronoProcess, pi);

      device[pi] = !p->pid.is_string && p->pid.value >= (1 << PACK_SHIFT) && !hosted[pi] &&
                   host_process (trace, p->pid.value >> PACK_SHIFT, host_rows) >= 0;
      any |= device[pi];
    }
  if (any && trace->rank < 0)
    name_rank (trace, device);
  for (guint pi = 0; pi < n; pi++)
    {
      ChronoProcess *p = &g_array_index (trace->processes, ChronoProcess, pi);
      gint64 host = p->pid.value >> PACK_SHIFT;
      const char *name = chrono_string_table_get (trace->strings, p->name);
      g_autofree char *rank = NULL;
      g_autofree char *display = NULL;

      if (!device[pi])
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
chrono_packed_devices_holds_track (ChronoTrace *trace,
                                   guint32      track)
{
  guint process = ((const ChronoTrack *) g_ptr_array_index (trace->tracks, track))->process;
  const ChronoProcess *p = &g_array_index (trace->processes, ChronoProcess, process);

  if (!p->is_device)
    return FALSE;
  for (guint i = 0; i < trace->processes->len; i++)
    if (i != process && packs (p, &g_array_index (trace->processes, ChronoProcess, i)))
      return TRUE;
  return FALSE;
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

GHashTable *
chrono_packed_devices_flows_in (ChronoTrace *trace)
{
  gboolean packed = FALSE;
  GHashTable *in;

  for (guint t = 0; t < trace->tracks->len && !packed; t++)
    packed = ((const ChronoTrack *) g_ptr_array_index (trace->tracks, t))->type == CHRONO_TRACK_STREAM &&
             chrono_packed_devices_holds_track (trace, t);
  if (!packed)
    return NULL;
  in = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  for (guint f = 0; f < trace->flows->len; f++)
    {
      const ChronoFlow *flow = &g_array_index (trace->flows, ChronoFlow, f);
      const ChronoTrack *to = g_ptr_array_index (trace->tracks, flow->to.track);
      const ChronoTrack *from = g_ptr_array_index (trace->tracks, flow->from.track);
      gint64 key = (gint64) flow->to.track << 32 | flow->to.index;

      if ((flow->type == CHRONO_FLOW_V1 || flow->type == CHRONO_FLOW_V2) &&
          to->type == CHRONO_TRACK_STREAM && from->type == CHRONO_TRACK_THREAD)
        g_hash_table_insert (in, g_memdup2 (&key, sizeof key), g_memdup2 (&flow->from, sizeof flow->from));
    }
  return in;
}
