/* chrono-memory-counters.c: memory in use read from sampled counters
 * (Perfetto's process and GPU memory tracks, Neuron's host memory), for
 * traces that carry no allocator events
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-memory-private.h"

/* The names trace processor gives the memory counters it reads from
 * process stats and ftrace; their values are bytes. */
static const char * const byte_series[] = {
  "mem.rss", "mem.rss.anon", "mem.rss.file", "mem.rss.shmem", "mem.rss.watermark",
  "mem.swap", "mem.virt", "mem.locked", "mem.heap", "mem.dma_heap", "mem.ion",
  "gpu_mem_total", "gpumemtotal",
};

static gboolean
contains_any (const char         *name,
              const char * const *words)
{
  for (; *words != NULL; words++)
    if (strstr (name, *words) != NULL)
      return TRUE;
  return FALSE;
}

/* How many bytes one unit of counter NAME is, or 0 when NAME does not
 * say it samples memory in use in a unit of bytes: a counter named only
 * "memory" could be pages or a percentage, and is not guessed at. */
gint64
chrono_memory_counter_scale (const char *name)
{
  static const char * const memory_words[] = { "mem", "rss", "heap", "hbm", "ddr", "vram", NULL };
  /* Rates and shares are not bytes; memory left unused is not in use. */
  static const char * const not_in_use[] = { "%", "percent", "util", "bandwidth", "throughput", "/s", "rate",
                                             "unused", "free", "available", NULL };
  static const char * const bytes[] = { "byte", "(b)", NULL };
  static const char * const kib[] = { "_kb", " kb", "(kb)", "kib", NULL };
  static const char * const mib[] = { "_mb", " mb", "(mb)", "mib", NULL };
  g_autofree char *lower = g_ascii_strdown (name, -1);

  for (guint k = 0; k < G_N_ELEMENTS (byte_series); k++)
    if (strcmp (lower, byte_series[k]) == 0)
      return 1;
  if (!contains_any (lower, memory_words) || contains_any (lower, not_in_use))
    return 0;
  if (contains_any (lower, bytes))
    return 1;
  if (contains_any (lower, kib))
    return 1024;
  if (contains_any (lower, mib))
    return 1024 * 1024;
  return 0;
}

/* Neuron's host memory is the host's, an HBM's counter is called after
 * its device and HBM ("Device 0 HBM 1"); other counters keep their name. */
static char *
counter_label (const char *name)
{
  if (strcmp (name, "Host memory (bytes)") == 0)
    return g_strdup ("host");
  if (g_str_has_suffix (name, " memory (bytes)") && strstr (name, "HBM") != NULL)
    return g_strndup (name, strlen (name) - strlen (" memory (bytes)"));
  return g_strdup (name);
}

#define PART_SEPARATOR " · "

const char *
chrono_memory_part_name (const char *counter)
{
  const char *sep = g_strrstr (counter, PART_SEPARATOR);

  return sep != NULL ? sep + strlen (PART_SEPARATOR) : counter;
}

/* "process\nname" of each counter track, to find a part's whole. */
static char *
counter_key (const ChronoTrack *t,
             const char        *name,
             gsize              len)
{
  return g_strdup_printf ("%u\n%.*s", t->process, (int) len, name);
}

/* Whether T is a part of another counter of its process: its name is
 * that one's, " · " and the part's. */
static gboolean
is_part (ChronoTrace       *trace,
         const ChronoTrack *t,
         GHashTable        *counters)
{
  const char *name = chrono_trace_get_string (trace, t->name);
  const char *sep = g_strrstr (name, PART_SEPARATOR);
  g_autofree char *key = NULL;

  if (sep == NULL)
    return FALSE;
  key = counter_key (t, name, sep - name);
  return g_hash_table_contains (counters, key);
}

static gint
compare_groups (gconstpointer a,
                gconstpointer b)
{
  const ChronoMemoryGroup *x = a, *y = b;

  return x->bytes > y->bytes ? -1 : x->bytes < y->bytes;
}

/* The bytes of each part of WHOLE at D's peak: its last sample by then. */
static void
read_parts (ChronoTrace        *trace,
            const ChronoTrack  *whole,
            ChronoMemoryDevice *d)
{
  const char *name = chrono_trace_get_string (trace, whole->name);
  gsize len = strlen (name);

  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);
      const char *part;
      ChronoMemoryGroup g = { 0 };
      gboolean found = FALSE;

      if (t->type != CHRONO_TRACK_COUNTER || t->process != whole->process || t->name == CHRONO_NO_STRING)
        continue;
      part = chrono_trace_get_string (trace, t->name);
      if (strncmp (part, name, len) != 0 || strncmp (part + len, PART_SEPARATOR, strlen (PART_SEPARATOR)) != 0 ||
          strstr (part + len + strlen (PART_SEPARATOR), PART_SEPARATOR) != NULL)
        continue;
      for (guint32 i = 0; i < t->n_samples && t->sample_ts[i] <= d->peak_ns; i++)
        if (isfinite (t->sample_value[i]))
          {
            g.bytes = (gint64) llround (t->sample_value[i]);
            found = TRUE;
          }
      if (!found)
        continue;
      g.name = t->name;
      if (d->parts_at_peak == NULL)
        d->parts_at_peak = g_array_new (FALSE, FALSE, sizeof (ChronoMemoryGroup));
      g_array_append_val (d->parts_at_peak, g);
    }
  if (d->parts_at_peak != NULL)
    g_array_sort (d->parts_at_peak, compare_groups);
}

static void
read_counter (ChronoTrace       *trace,
              const ChronoTrack *t,
              gint64             scale,
              gint64             start_ns,
              gint64             end_ns,
              GArray            *devices)
{
  ChronoMemoryDevice d = { 0 };
  gint part = chrono_trace_get_part_of_process (trace, t->process);
  const ChronoTracePart *p = chrono_trace_get_part (trace, MAX (part, 0));
  guint n = 0;
  guint peak = 0;

  d.point_ns = g_new (gint64, t->n_samples);
  d.point_allocated = g_new (gint64, t->n_samples);
  for (guint32 i = 0; i < t->n_samples; i++)
    {
      if (t->sample_ts[i] < start_ns || t->sample_ts[i] >= end_ns || !isfinite (t->sample_value[i]))
        continue;
      d.point_ns[n] = t->sample_ts[i];
      d.point_allocated[n] = (gint64) llround (t->sample_value[i] * (gdouble) scale);
      if (d.point_allocated[n] > d.point_allocated[peak])
        peak = n;
      n++;
    }
  /* A counter that never leaves zero (DDR on a device that has none)
   * would only draw an empty lane. */
  if (n == 0 || d.point_allocated[peak] <= 0)
    {
      g_free (d.point_ns);
      g_free (d.point_allocated);
      return;
    }
  d.part = MAX (part, 0);
  d.rank = p != NULL ? p->rank : -1;
  d.device_type = -1;
  d.device_id = -1;
  d.host_process = t->process;
  d.counter_name = t->name;
  d.label = counter_label (chrono_trace_get_string (trace, t->name));
  d.n_events = d.n_points = n;
  d.peak_allocated_bytes = d.point_allocated[peak];
  d.peak_ns = d.point_ns[peak];
  d.reserved_at_peak_bytes = d.peak_reserved_bytes = -1;
  d.capacity_bytes = -1;
  /* What was in use before the first sample is not known: the first
   * sample stands for it. */
  chrono_memory_device_finish_points (trace, &d, d.point_allocated[0]);
  chrono_memory_device_init_unmatched (&d);
  read_parts (trace, t, &d);
  g_array_append_val (devices, d);
}

void
chrono_memory_read_counters (ChronoTrace *trace,
                             gint64       start_ns,
                             gint64       end_ns,
                             GArray      *devices)
{
  g_autoptr(GHashTable) counters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GArray) memory = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) scales = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);
      const char *name;
      gint64 scale;

      if (t->type != CHRONO_TRACK_COUNTER || t->n_samples == 0 || t->name == CHRONO_NO_STRING)
        continue;
      name = chrono_trace_get_string (trace, t->name);
      scale = chrono_memory_counter_scale (name);
      if (scale <= 0)
        continue;
      g_hash_table_add (counters, counter_key (t, name, strlen (name)));
      g_array_append_val (memory, ti);
      g_array_append_val (scales, scale);
    }
  /* A part is shown with its whole, not as a memory of its own. */
  for (guint k = 0; k < memory->len; k++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, g_array_index (memory, guint, k));

      if (!is_part (trace, t, counters))
        read_counter (trace, t, g_array_index (scales, gint64, k), start_ns, end_ns, devices);
    }
}
