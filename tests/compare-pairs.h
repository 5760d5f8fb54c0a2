/* compare-pairs.h: two runs of a small model written as Kineto JSON, with
 * the differences a test asks for
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Each step: nn.Module Net_0 holding Linear_0 (aten::linear → aten::addmm,
 * one GEMM kernel) and Act_0 (aten::relu, one kernel), then on another
 * thread without modules the backward aten::mm (one GEMM kernel). Kernels
 * run one after another, so a step's wall time holds all its work. */
typedef struct {
  guint       n_steps;
  gint64      gemm_us;           /* Linear_0's kernel */
  const char *gemm_kernel;       /* its name */
  gboolean    extra_kernel;      /* Act_0 also runs aten::mul */
  guint       jitter_shift;      /* per-step jitter of ±1 µs on every kernel, shifted */
  /* Filled in by pair_run_json: each step's span, in µs. */
  gint64      step_us[32];
} PairRun;

#define PAIR_GEMM_CUDA "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>(cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4::Params)"
#define PAIR_GEMM_ROCM "Cijk_Alik_Bljk_SB_MT128x128x16_MI32x32x2x1_SN_1LDSB0_APM1_ABV0_GRVW4_ISA942_WG64_4_1_WGM8"
#define PAIR_RELU_KERNEL "void at::native::vectorized_elementwise_kernel<4, at::native::relu<float> >(int)"
#define PAIR_MUL_KERNEL "void at::native::vectorized_elementwise_kernel<4, at::native::mul<float> >(int)"
#define PAIR_BACKWARD_KERNEL "volta_sgemm_128x64_nn"

void  pair_run_init (PairRun *run);
/* The trace as Kineto writes it. */
char *pair_run_json (PairRun *run);

G_END_DECLS
