/* chrono-device-peaks.c: what an accelerator can do at most, by name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-device-peaks.h"

const char *
chrono_dtype_to_string (ChronoDtype dtype)
{
  static const char * const names[] = {
    "unknown", "fp64", "fp32", "tf32", "fp16", "fp8", "fp4", "int8",
  };

  g_return_val_if_fail (dtype < CHRONO_N_DTYPES, NULL);
  return names[dtype];
}

#define M(fp64, fp32, tf32, fp16, fp8, fp4, int8) \
  { [CHRONO_DTYPE_FP64] = fp64, [CHRONO_DTYPE_FP32] = fp32, [CHRONO_DTYPE_TF32] = tf32, \
    [CHRONO_DTYPE_FP16] = fp16, [CHRONO_DTYPE_FP8] = fp8, [CHRONO_DTYPE_FP4] = fp4, \
    [CHRONO_DTYPE_INT8] = int8 }
#define V(fp64, fp32) { [CHRONO_DTYPE_FP64] = fp64, [CHRONO_DTYPE_FP32] = fp32 }

/* Dense figures from the vendors' datasheets (docs/efficiency.md lists
 * them): where a datasheet quotes only "with sparsity", half of it.
 * NVIDIA GPUs have no FP32 matrix unit: an FP32 GEMM runs at the FP32
 * vector rate, so that is its matrix figure. An MI250X or MI250 is two
 * GCDs that PyTorch sees as two devices: each has half the OAM's figures. */
static const ChronoDevicePeaks table[] = {
  { "NVIDIA A100 SXM4 80GB", "A100|SXM|80GB", M (19.5, 19.5, 156, 312, 0, 0, 624), V (9.7, 19.5), 2.039 },
  { "NVIDIA A100 PCIe 80GB", "A100|PCIe|80GB", M (19.5, 19.5, 156, 312, 0, 0, 624), V (9.7, 19.5), 1.935 },
  { "NVIDIA A100 40GB", "A100", M (19.5, 19.5, 156, 312, 0, 0, 624), V (9.7, 19.5), 1.555 },
  { "NVIDIA H100 NVL", "H100|NVL", M (60, 60, 417.5, 835.5, 1670.5, 0, 1670.5), V (30, 60), 3.9 },
  { "NVIDIA H100 PCIe", "H100|PCIe", M (51, 51, 378, 756.5, 1513, 0, 1513), V (26, 51), 2.0 },
  { "NVIDIA H100 SXM", "H100", M (67, 67, 494.5, 989.5, 1979, 0, 1979), V (34, 67), 3.35 },
  { "NVIDIA H200 NVL", "H200|NVL", M (60, 60, 417.5, 835.5, 1670.5, 0, 1670.5), V (30, 60), 4.8 },
  { "NVIDIA H200 SXM", "H200", M (67, 67, 494.5, 989.5, 1979, 0, 1979), V (34, 67), 4.8 },
  { "NVIDIA GB200 (one Blackwell GPU)", "GB200", M (45, 0, 1250, 2500, 5000, 10000, 5000), V (45, 0), 8.0 },
  { "NVIDIA B200", "B200", M (37, 0, 1125, 2250, 4500, 9000, 4500), V (37, 0), 8.0 },
  { "NVIDIA L4", "L4", M (0, 30.3, 60, 121, 242.5, 0, 242.5), V (0, 30.3), 0.3 },
  { "NVIDIA V100 PCIe", "V100|PCIe", M (7, 14, 0, 112, 0, 0, 0), V (7, 14), 0.9 },
  { "NVIDIA V100 SXM2", "V100", M (7.8, 15.7, 0, 125, 0, 0, 0), V (7.8, 15.7), 0.9 },
  { "AMD Instinct MI250X (one GCD)", "MI250X", M (47.85, 47.85, 0, 191.5, 0, 0, 191.5), V (23.95, 23.95), 1.6384 },
  { "AMD Instinct MI250 (one GCD)", "MI250", M (45.25, 45.25, 0, 181.05, 0, 0, 181.05), V (22.65, 22.65), 1.6384 },
  { "AMD Instinct MI300X", "MI300X", M (163.4, 163.4, 653.7, 1307.4, 2614.9, 0, 2614.9), V (81.7, 163.4), 5.3 },
  { "AMD Instinct MI325X", "MI325X", M (163.4, 163.4, 653.7, 1307.4, 2614.9, 0, 2614.9), V (81.7, 163.4), 6.0 },
  { "AMD Instinct MI355X", "MI355X", M (78.6, 157.3, 0, 2516.6, 5033.2, 10066.4, 5033.2), V (78.6, 157.3), 8.0 },
};

static gboolean
matches (const char *name,
         const char *needles)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);
  g_auto(GStrv) parts = g_strsplit (needles, "|", -1);

  for (guint i = 0; parts[i]; i++)
    {
      g_autofree char *needle = g_ascii_strdown (parts[i], -1);
      if (strstr (lower, needle) == NULL)
        return FALSE;
    }
  return TRUE;
}

const ChronoDevicePeaks *
chrono_device_peaks_lookup (const char *device_name)
{
  if (device_name == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (matches (device_name, table[i].match))
      return &table[i];
  return NULL;
}

/* Per physical core. Trainium1 and Inferentia2 share NeuronCore-v2: FP8
 * runs at the BF16 rate. Trainium2's FP8 is its double-rate mode; on
 * Trainium3 plain FP8 is taken at twice BF16 (the profiler's FP8
 * multiplier) and the HBM stack as the chip's 4.9 TB/s over four
 * stacks: both inferred, docs/efficiency.md says so. */
static const ChronoNeuronPeaks neuron_table[] = {
  { "AWS Trainium1 (NeuronCore-v2)", "trn1", 128, 128, 2.8, 91.75, 91.75, 410, 1 },
  { "AWS Inferentia2 (NeuronCore-v2)", "inf2", 128, 128, 2.8, 91.75, 91.75, 410, 1 },
  { "AWS Trainium2 (NeuronCore-v3)", "trn2", 128, 128, 2.4, 78.64, 157.29, 716, 2 },
  { "AWS Trainium3 (NeuronCore-v4)", "trn3", 128, 128, 2.4, 78.64, 157.29, 1225, 2 },
};

const ChronoNeuronPeaks *
chrono_device_peaks_lookup_neuron (const char *instance_type)
{
  g_autofree char *lower = NULL;

  if (instance_type == NULL)
    return NULL;
  lower = g_ascii_strdown (instance_type, -1);
  for (guint i = 0; i < G_N_ELEMENTS (neuron_table); i++)
    if (g_str_has_prefix (lower, neuron_table[i].instance))
      return &neuron_table[i];
  return NULL;
}

const ChronoNeuronPeaks *
chrono_device_peaks_get_neuron_table (guint *n_entries)
{
  *n_entries = G_N_ELEMENTS (neuron_table);
  return neuron_table;
}

const ChronoDevicePeaks *
chrono_device_peaks_get_table (guint *n_entries)
{
  *n_entries = G_N_ELEMENTS (table);
  return table;
}

gdouble
chrono_device_peaks_tflops (const ChronoDevicePeaks *peaks,
                            ChronoDtype              dtype,
                            gboolean                 matrix)
{
  g_return_val_if_fail (dtype < CHRONO_N_DTYPES, 0);

  if (peaks == NULL || dtype == CHRONO_DTYPE_UNKNOWN)
    return 0;
  if (matrix)
    return peaks->matrix_tflops[dtype];
  /* Element-wise work on 16- and 8-bit numbers is counted at the FP32
   * vector rate: such kernels are bound by memory long before. */
  return dtype == CHRONO_DTYPE_FP64 ? peaks->vector_tflops[CHRONO_DTYPE_FP64]
                                    : peaks->vector_tflops[CHRONO_DTYPE_FP32];
}
