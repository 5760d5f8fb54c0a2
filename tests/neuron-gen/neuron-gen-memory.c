/* neuron-gen-memory.c: the system profile's memory samples
 *
 * mem_usage (host memory, as documented) and device_mem_usage (HBM usage
 * per device and HBM index, which one consumer reads; its records are
 * written with SystemProfileHbmUsage's fields, the Parquet twin's). Host
 * memory climbs 1 MiB a sample with 3 GiB more at one sample; device 0's
 * HBM 0 holds its weights, scratchpad, rings and profiler buffers, and
 * tensors that climb 16 MiB a sample with 1 GiB more at another: the
 * peaks are planted where nothing else comes near.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "neuron-gen-private.h"

#define INSTANCE      "i-0f207fb2a99bd2d08"
#define HOST_BASE     G_GINT64_CONSTANT (51805806592)
#define HOST_CAPACITY G_GINT64_CONSTANT (532575944704)
#define MIB           G_GINT64_CONSTANT (1048576)
#define GIB           (1024 * MIB)

const char * const neuron_gen_hbm_categories[NEURON_GEN_HBM_CATEGORIES] = {
  "generic", "tensor_instructions", "scalar_instructions", "gpsimd_instructions", "io", "dram_spill",
  "weights", "profiler_buffers", "scalar_table", "vector_instructions", "sync_instructions",
  "shared_scratchpad", "tensors", "ucode_lib", "gpsimd_stdio", "collectives", "scratchpad",
  "dma_rings_runtime", "dma_rings_spill", "dma_rings_io", "dma_rings_collectives", "unknown",
};

enum { WEIGHTS = 6, PROFILER = 7, TENSORS = 12, SCRATCHPAD = 16, RINGS_IO = 19 };

static gint64
host_usage (guint k)
{
  return HOST_BASE + k * MIB + (k == NEURON_GEN_HOST_PEAK_SAMPLE ? 3 * GIB : 0);
}

/* The bytes of each category of HBM HBM of device 0 at sample K. */
static void
hbm_usage (guint  hbm,
           guint  k,
           gint64 parts[NEURON_GEN_HBM_CATEGORIES])
{
  memset (parts, 0, sizeof (gint64) * NEURON_GEN_HBM_CATEGORIES);
  if (hbm == 0)
    {
      parts[WEIGHTS] = 2 * GIB;
      parts[TENSORS] = 256 * MIB + k * 16 * MIB + (k == NEURON_GEN_HBM_PEAK_SAMPLE ? GIB : 0);
      parts[SCRATCHPAD] = 128 * MIB;
      parts[RINGS_IO] = 4 * MIB;
      parts[PROFILER] = 64 * MIB;
    }
  else
    {
      parts[WEIGHTS] = GIB;
      parts[TENSORS] = 128 * MIB + k * MIB;
    }
}

void
neuron_gen_write_memory (NeuronGenWriter        *w,
                         const NeuronGenOptions *o,
                         NeuronGenCounts        *c,
                         gint64                  start,
                         gint64                  step)
{
  c->mem_samples = NEURON_GEN_MEM_SAMPLES;
  neuron_gen_put (w, "\n  \"mem_usage\": [");
  for (guint k = 0; k < NEURON_GEN_MEM_SAMPLES; k++)
    {
      gint64 ts = start + k * step, usage = host_usage (k);

      neuron_gen_put (w, "%s\n    {", k ? "," : "");
      neuron_gen_put_int (w, o, "timestamp", ts);
      neuron_gen_put (w, ", \"duration\": 1, \"instance_id\": \"" INSTANCE "\", \"usage\": %" G_GINT64_FORMAT
                      ", \"percent_usage\": %.15g}", usage, 100.0 * usage / HOST_CAPACITY);
      if (k == NEURON_GEN_HOST_PEAK_SAMPLE)
        {
          c->host_peak_bytes = usage;
          c->host_peak_ns = ts;
        }
    }
  neuron_gen_put (w, "\n  ],\n  \"device_mem_usage\": [");
  for (guint k = 0; k < NEURON_GEN_MEM_SAMPLES; k++)
    for (guint hbm = 0; hbm < 2; hbm++)
      {
        gint64 ts = start + k * step + 7 * hbm, parts[NEURON_GEN_HBM_CATEGORIES], total = 0;

        hbm_usage (hbm, k, parts);
        for (guint p = 0; p < NEURON_GEN_HBM_CATEGORIES; p++)
          total += parts[p];
        neuron_gen_put (w, "%s\n    {", k + hbm ? "," : "");
        neuron_gen_put_int (w, o, "timestamp", ts);
        neuron_gen_put (w, ", \"duration\": 1, \"instance_id\": \"" INSTANCE "\", \"device_idx\": 0, \"hbm_idx\": %u, "
                        "\"total_bytes\": %" G_GINT64_FORMAT, hbm, total);
        for (guint p = 0; p < NEURON_GEN_HBM_CATEGORIES; p++)
          neuron_gen_put (w, ", \"%s_bytes\": %" G_GINT64_FORMAT, neuron_gen_hbm_categories[p], parts[p]);
        neuron_gen_put (w, "}");
        if (hbm == 0 && k == NEURON_GEN_HBM_PEAK_SAMPLE)
          {
            c->hbm_peak_bytes = total;
            c->hbm_peak_ns = ts;
            memcpy (c->hbm_peak_parts, parts, sizeof parts);
          }
      }
  neuron_gen_put (w, "\n  ],\n  \"cpu_util\": [");
  for (guint k = 0; k < NEURON_GEN_MEM_SAMPLES; k++)
    {
      neuron_gen_put (w, "%s\n    {", k ? "," : "");
      neuron_gen_put_int (w, o, "timestamp", start + k * step);
      neuron_gen_put (w, ", \"duration\": 1, \"instance_id\": \"" INSTANCE "\", \"cpu_id\": \"47\", \"util\": %.7g}",
                      2.3255813 + k);
    }
  neuron_gen_put (w, "\n  ]");
}
