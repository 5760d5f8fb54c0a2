/* chrono-neuron-counters.c
 *
 * Host memory is a counter of the instance; HBM usage is kept until the
 * end, so that a category drawn is one that was ever in use: a device
 * reports some twenty categories, most of them empty, and an empty one
 * would only draw a flat lane.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-neuron-counters.h"

enum { SORT_COUNTER = 2000 };

const char * const chrono_neuron_hbm_parts[CHRONO_NEURON_HBM_N_PARTS] = {
  "generic_bytes", "tensor_instructions_bytes", "scalar_instructions_bytes", "gpsimd_instructions_bytes",
  "io_bytes", "dram_spill_bytes", "weights_bytes", "profiler_buffers_bytes", "scalar_table_bytes",
  "vector_instructions_bytes", "sync_instructions_bytes", "shared_scratchpad_bytes", "tensors_bytes",
  "ucode_lib_bytes", "gpsimd_stdio_bytes", "collectives_bytes", "scratchpad_bytes",
  "dma_rings_runtime_bytes", "dma_rings_spill_bytes", "dma_rings_io_bytes", "dma_rings_collectives_bytes",
  "unknown_bytes",
};

gint
chrono_neuron_hbm_part (const char *name,
                        gsize       len)
{
  for (guint i = 0; i < CHRONO_NEURON_HBM_N_PARTS; i++)
    if (strlen (chrono_neuron_hbm_parts[i]) == len && memcmp (chrono_neuron_hbm_parts[i], name, len) == 0)
      return (gint) i;
  return -1;
}

void
chrono_neuron_counters_init (ChronoNeuronCounters *self,
                             ChronoNeuronReader   *reader)
{
  self->reader = reader;
  self->processes = g_hash_table_new (NULL, NULL);
  self->hbms = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  self->order = g_ptr_array_new ();
}

void
chrono_neuron_counters_clear (ChronoNeuronCounters *self)
{
  g_clear_pointer (&self->processes, g_hash_table_unref);
  g_clear_pointer (&self->order, g_ptr_array_unref);
  g_clear_pointer (&self->hbms, g_hash_table_unref);
}

guint32
chrono_neuron_counters_process (ChronoNeuronCounters *self,
                                const char           *display)
{
  ChronoTrace *trace = self->reader->trace;
  guint32 name = chrono_neuron_intern_text (self->reader, display);
  gpointer found = g_hash_table_lookup (self->processes, GUINT_TO_POINTER (name));
  ChronoProcess process = { 0 };

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  process.pid = (ChronoId) { name, TRUE };
  process.name = name;
  process.device_index = -1;
  g_array_append_val (trace->processes, process);
  g_hash_table_insert (self->processes, GUINT_TO_POINTER (name), GUINT_TO_POINTER (trace->processes->len));
  return trace->processes->len - 1;
}

guint32
chrono_neuron_counters_host (ChronoNeuronCounters *self,
                             const char           *instance,
                             gsize                 len)
{
  g_autofree char *display = instance ? g_strndup (instance, len) : g_strdup ("Host");

  return chrono_neuron_counters_process (self, display);
}

void
chrono_neuron_counters_sample (ChronoNeuronCounters *self,
                               guint32               process,
                               const char           *series,
                               gint64                ts,
                               gdouble               value)
{
  ChronoTrackBuilder *b = chrono_neuron_track (self->reader, process, CHRONO_TRACK_COUNTER,
                                               chrono_neuron_intern_text (self->reader, series), SORT_COUNTER);

  chrono_track_builder_add_sample (b, ts, value);
  chrono_neuron_note_time (self->reader, ts, ts);
}

void
chrono_neuron_counters_add_hbm (ChronoNeuronCounters        *self,
                                const char                  *instance,
                                gsize                        len,
                                const ChronoNeuronHbmSample *sample)
{
  g_autofree char *key = g_strdup_printf ("%.*s\n%" G_GINT64_FORMAT "\n%" G_GINT64_FORMAT,
                                          instance ? (int) len : 0, instance ? instance : "",
                                          sample->device, sample->hbm);
  GArray *samples = g_hash_table_lookup (self->hbms, key);

  if (samples == NULL)
    {
      samples = g_array_new (FALSE, FALSE, sizeof (ChronoNeuronHbmSample));
      g_ptr_array_add (self->order, key);
      g_hash_table_insert (self->hbms, g_steal_pointer (&key), samples);
    }
  g_array_append_val (samples, *sample);
}

/* "weights_bytes" -> "weights". */
static char *
part_label (guint part)
{
  const char *name = chrono_neuron_hbm_parts[part];

  return g_strndup (name, strlen (name) - strlen ("_bytes"));
}

static gint
compare_ts (gconstpointer a,
            gconstpointer b)
{
  const ChronoNeuronHbmSample *x = a, *y = b;

  return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static void
finish_hbm (ChronoNeuronCounters *self,
            const char           *key,
            GArray               *samples)
{
  g_auto(GStrv) fields = g_strsplit (key, "\n", 3);
  const ChronoNeuronHbmSample *first = &g_array_index (samples, ChronoNeuronHbmSample, 0);
  g_autofree char *device = first->device >= 0 ? g_strdup_printf ("Device %" G_GINT64_FORMAT, first->device)
                                               : g_strdup ("Device");
  g_autofree char *lower = g_ascii_strdown (device, -1);
  g_autofree char *display = fields[0][0] ? g_strdup_printf ("%s · Neuron %s", fields[0], lower)
                                          : g_strdup_printf ("Neuron %s", lower);
  g_autofree char *total = first->hbm >= 0 ? g_strdup_printf ("%s HBM %" G_GINT64_FORMAT " memory (bytes)", device, first->hbm)
                                           : g_strdup_printf ("%s HBM memory (bytes)", device);
  guint32 process = chrono_neuron_counters_process (self, display);
  guint32 used = 0;

  g_array_sort (samples, compare_ts);
  for (guint i = 0; i < samples->len; i++)
    {
      const ChronoNeuronHbmSample *s = &g_array_index (samples, ChronoNeuronHbmSample, i);
      gint64 sum = 0;

      for (guint p = 0; p < CHRONO_NEURON_HBM_N_PARTS; p++)
        if (s->has_parts & (1u << p))
          {
            sum += s->parts[p];
            if (s->parts[p] > 0)
              used |= 1u << p;
          }
      chrono_neuron_counters_sample (self, process, total, s->ts, (gdouble) (s->total >= 0 ? s->total : sum));
    }
  for (guint p = 0; p < CHRONO_NEURON_HBM_N_PARTS; p++)
    {
      g_autofree char *label = part_label (p);
      g_autofree char *series = g_strdup_printf ("%s · %s", total, label);

      if (!(used & (1u << p)))
        continue;
      for (guint i = 0; i < samples->len; i++)
        {
          const ChronoNeuronHbmSample *s = &g_array_index (samples, ChronoNeuronHbmSample, i);

          if (s->has_parts & (1u << p))
            chrono_neuron_counters_sample (self, process, series, s->ts, (gdouble) s->parts[p]);
        }
    }
}

void
chrono_neuron_counters_finish (ChronoNeuronCounters *self)
{
  for (guint i = 0; i < self->order->len; i++)
    {
      const char *key = g_ptr_array_index (self->order, i);

      finish_hbm (self, key, g_hash_table_lookup (self->hbms, key));
    }
}
