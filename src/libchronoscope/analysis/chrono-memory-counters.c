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

/* "Host memory (bytes)" is the host's; other counters keep their name. */
static char *
counter_label (const char *name)
{
  if (strcmp (name, "Host memory (bytes)") == 0)
    return g_strdup ("host");
  return g_strdup (name);
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
  chrono_memory_device_measure_steps (trace, &d, d.point_allocated[0]);
  chrono_memory_device_init_unmatched (&d);
  g_array_append_val (devices, d);
}

void
chrono_memory_read_counters (ChronoTrace *trace,
                             gint64       start_ns,
                             gint64       end_ns,
                             GArray      *devices)
{
  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);
      gint64 scale;

      if (t->type != CHRONO_TRACK_COUNTER || t->n_samples == 0 || t->name == CHRONO_NO_STRING)
        continue;
      scale = chrono_memory_counter_scale (chrono_trace_get_string (trace, t->name));
      if (scale > 0)
        read_counter (trace, t, scale, start_ns, end_ns, devices);
    }
}
