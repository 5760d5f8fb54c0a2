/* chrono-device-peaks.h: what an accelerator can do at most, by name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The number types the peaks are given for. */
typedef enum {
  CHRONO_DTYPE_UNKNOWN,
  CHRONO_DTYPE_FP64,
  CHRONO_DTYPE_FP32,
  CHRONO_DTYPE_TF32,   /* FP32 on matrix units that round to TF32 */
  CHRONO_DTYPE_FP16,   /* FP16 and BF16: the same peak on every listed device */
  CHRONO_DTYPE_FP8,
  CHRONO_DTYPE_FP4,
  CHRONO_DTYPE_INT8,
  CHRONO_N_DTYPES
} ChronoDtype;

const char *chrono_dtype_to_string (ChronoDtype dtype);

/* Dense (no structured sparsity) peaks at boost clock, per device (one
 * GPU, one GCD or OAM as the vendor quotes). 0 where the device has no
 * such unit. docs/efficiency.md gives the source of every figure. */
typedef struct {
  const char *name;                       /* "NVIDIA H100 SXM" */
  const char *match;                      /* words that all occur in the names it is for, '|' between */
  gdouble     matrix_tflops[CHRONO_N_DTYPES]; /* tensor / matrix cores */
  gdouble     vector_tflops[CHRONO_N_DTYPES]; /* CUDA cores / vector ALUs */
  gdouble     memory_tbps;                /* HBM / GDDR bandwidth, TB/s (10^12 B/s) */
} ChronoDevicePeaks;

/* The table's entry for DEVICE_NAME as Kineto writes it in
 * deviceProperties ("NVIDIA H100 80GB HBM3", "AMD Instinct MI300X"), or
 * NULL for a device the table does not know. */
const ChronoDevicePeaks *chrono_device_peaks_lookup (const char *device_name);

/* Every entry, for the documentation test. */
const ChronoDevicePeaks *chrono_device_peaks_get_table (guint *n_entries);

/* One physical NeuronCore, by instance family: Trainium and Inferentia2.
 * A logical core (LNC=2 on Trainium2 and 3) is several physical ones,
 * whose peaks add up; the HBM figure is one stack's, which the Neuron
 * profiler's MBU divides by whatever the LNC. docs/efficiency.md gives
 * the source of every figure. */
typedef struct {
  const char *name;                  /* "AWS Trainium2 (NeuronCore-v3)" */
  const char *instance;              /* the instance type's family: "trn2" */
  guint       rows;                  /* the Tensor engine's systolic array */
  guint       cols;
  gdouble     tensor_ghz;            /* its clock */
  gdouble     bf16_tflops;           /* 2 × rows × cols × clock: BF16, FP16, TF32 */
  gdouble     fp8_tflops;            /* plain FP8 matrix work */
  gdouble     hbm_gbps;              /* one HBM stack, GB/s (10^9 B/s) */
  guint       default_physical_cores;/* per logical core at the default LNC */
} ChronoNeuronPeaks;

/* The entry for INSTANCE_TYPE as the profile's Metadata writes it
 * ("trn2.48xlarge", "inf2.xlarge"), or NULL. */
const ChronoNeuronPeaks *chrono_device_peaks_lookup_neuron    (const char *instance_type);
const ChronoNeuronPeaks *chrono_device_peaks_get_neuron_table (guint      *n_entries);

/* The peak for work of DTYPE on matrix or vector units; 0 when unknown. */
gdouble chrono_device_peaks_tflops (const ChronoDevicePeaks *peaks,
                                    ChronoDtype              dtype,
                                    gboolean                 matrix);

G_END_DECLS
