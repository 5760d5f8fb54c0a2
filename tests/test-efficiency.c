/* test-efficiency.c: FLOPs, bytes, GPU time and rooflines of operators,
 * against the formulas computed here from the traces' own shapes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "chrono-analysis.h"
#include "chrono-efficiency.h"
#include "chrono-example-trace.h"
#include "chrono-op-inputs.h"
#include "chrono-op-models.h"
#include "neuron-gen.h"
#include "test-utils.h"

/* ------------------------------------------------------------------ */
/* The device table                                                    */

static void
test_peaks_lookup (void)
{
  static const struct { const char *kineto_name; const char *entry; } cases[] = {
    { "NVIDIA A100-SXM4-80GB", "NVIDIA A100 SXM4 80GB" },
    { "NVIDIA A100 80GB PCIe", "NVIDIA A100 PCIe 80GB" },
    { "NVIDIA A100-SXM4-40GB", "NVIDIA A100 40GB" },
    { "NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM" },
    { "NVIDIA H100 PCIe", "NVIDIA H100 PCIe" },
    { "NVIDIA H100 NVL", "NVIDIA H100 NVL" },
    { "NVIDIA H200", "NVIDIA H200 SXM" },
    { "NVIDIA B200", "NVIDIA B200" },
    { "NVIDIA GB200", "NVIDIA GB200 (one Blackwell GPU)" },
    { "NVIDIA L4", "NVIDIA L4" },
    { "AMD Instinct MI250X", "AMD Instinct MI250X (one GCD)" },
    { "AMD Instinct MI300X", "AMD Instinct MI300X" },
    { "AMD Instinct MI325X", "AMD Instinct MI325X" },
    { "AMD Instinct MI355X", "AMD Instinct MI355X" },
    { "Tesla V100-SXM2-32GB", "NVIDIA V100 SXM2" },
  };
  const ChronoDevicePeaks *h100 = chrono_device_peaks_lookup ("NVIDIA H100 80GB HBM3");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const ChronoDevicePeaks *p = chrono_device_peaks_lookup (cases[i].kineto_name);

      g_assert_nonnull (p);
      g_assert_cmpstr (p->name, ==, cases[i].entry);
      g_assert_cmpfloat (p->memory_tbps, >, 0);
      g_assert_cmpfloat (chrono_device_peaks_tflops (p, CHRONO_DTYPE_FP16, TRUE), >, 0);
    }
  g_assert_null (chrono_device_peaks_lookup ("AMD Radeon Graphics"));
  g_assert_null (chrono_device_peaks_lookup (NULL));
  /* Dense BF16 on an H100 SXM is half the datasheet's 1979 with sparsity. */
  g_assert_cmpfloat (chrono_device_peaks_tflops (h100, CHRONO_DTYPE_FP16, TRUE), ==, 989.5);
  /* Vector work on 16-bit numbers is counted at the FP32 vector rate. */
  g_assert_cmpfloat (chrono_device_peaks_tflops (h100, CHRONO_DTYPE_FP16, FALSE), ==, 67);
}

/* Every figure of the table is documented with its device. */
static void
test_peaks_documented (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "docs", "efficiency.md", NULL);
  g_autofree char *doc = NULL;
  g_autoptr(GError) error = NULL;
  guint n;
  const ChronoDevicePeaks *table = chrono_device_peaks_get_table (&n);

  g_file_get_contents (path, &doc, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      const char *row = strstr (doc, table[i].name);
      g_autofree char *bw = g_strdup_printf ("%g", table[i].memory_tbps);
      const char *eol;

      if (row == NULL)
        g_error ("docs/efficiency.md does not list %s", table[i].name);
      eol = strchr (row, '\n');
      /* The row of the table gives the bandwidth and a source. */
      if (g_strstr_len (row, eol - row, bw) == NULL || g_strstr_len (row, eol - row, "http") == NULL)
        g_error ("docs/efficiency.md: the row of %s lacks its bandwidth %s or its source", table[i].name, bw);
    }
}

/* ------------------------------------------------------------------ */
/* A small trace with attention, a linear layer and a step             */

#define B 4
#define H 16
#define S 2048
#define D 128

static const char attention_trace[] =
  "{\"deviceProperties\": [{\"id\": 0, \"name\": \"%s\"}], \"traceEvents\": [\n"
  "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":100,\"tid\":100,\"ts\":0,\"dur\":1000},\n"
  /* causal scaled-dot-product attention, its children, two overlapping kernels */
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::scaled_dot_product_attention\",\"pid\":100,\"tid\":100,\"ts\":10,\"dur\":50,"
  " \"args\":{\"Input Dims\": [[4, 16, 2048, 128], [4, 16, 2048, 128], [4, 16, 2048, 128], [], [], [], [], []],"
  " \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"\", \"Scalar\", \"Scalar\", \"\", \"Scalar\"],"
  " \"Concrete Inputs\": [\"\", \"\", \"\", \"\", \"0.\", \"True\", \"\", \"False\"]}},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::_scaled_dot_product_flash_attention\",\"pid\":100,\"tid\":100,\"ts\":12,\"dur\":40,"
  " \"args\":{\"Input Dims\": [[4, 16, 2048, 128], [4, 16, 2048, 128], [4, 16, 2048, 128], [], [], [], []],"
  " \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\", \"Scalar\", \"\"],"
  " \"Concrete Inputs\": [\"\", \"\", \"\", \"0.\", \"True\", \"False\", \"\"]}},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::_flash_attention_forward\",\"pid\":100,\"tid\":100,\"ts\":14,\"dur\":30,"
  " \"args\":{\"Input Dims\": [[4, 2048, 16, 128], [4, 2048, 16, 128], [4, 2048, 16, 128], [], [], [], [], [], [], []],"
  " \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"\", \"\", \"Scalar\", \"Scalar\", \"Scalar\", \"Scalar\", \"Scalar\"],"
  " \"Concrete Inputs\": [\"\", \"\", \"\", \"\", \"\", \"2048\", \"2048\", \"0.\", \"True\", \"False\"]}},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":16,\"dur\":3,\"args\":{\"correlation\":1}},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":20,\"dur\":3,\"args\":{\"correlation\":2}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"flash_fwd_kernel\",\"pid\":0,\"tid\":7,\"ts\":100,\"dur\":100,\"args\":{\"correlation\":1,\"stream\":7,\"device\":0}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"flash_fwd_splitkv_combine\",\"pid\":0,\"tid\":8,\"ts\":150,\"dur\":100,\"args\":{\"correlation\":2,\"stream\":8,\"device\":0}},\n"
  /* the backward, not causal */
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::_scaled_dot_product_flash_attention_backward\",\"pid\":100,\"tid\":100,\"ts\":70,\"dur\":20,"
  " \"args\":{\"Input Dims\": [[4, 16, 2048, 128], [4, 16, 2048, 128], [4, 16, 2048, 128], [4, 16, 2048, 128], [4, 16, 2048, 128], [4, 16, 2048], [], [], [], [], [], [], [], [], []],"
  " \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"float\", \"\", \"\", \"Scalar\", \"Scalar\", \"Scalar\", \"Scalar\", \"long int\", \"long int\", \"\"],"
  " \"Concrete Inputs\": [\"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"2048\", \"2048\", \"0.\", \"False\", \"\", \"\", \"\"]}},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":72,\"dur\":3,\"args\":{\"correlation\":3}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"flash_bwd_kernel\",\"pid\":0,\"tid\":7,\"ts\":300,\"dur\":400,\"args\":{\"correlation\":3,\"stream\":7,\"device\":0}},\n"
  /* aten::linear launches its bias copy itself and the GEMM through aten::addmm */
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::linear\",\"pid\":100,\"tid\":100,\"ts\":100,\"dur\":50,"
  " \"args\":{\"Input Dims\": [[8192, 4096], [1024, 4096], [1024]], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\"]}},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":102,\"dur\":3,\"args\":{\"correlation\":4}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"copy_kernel\",\"pid\":0,\"tid\":7,\"ts\":710,\"dur\":10,\"args\":{\"correlation\":4,\"stream\":7,\"device\":0}},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::addmm\",\"pid\":100,\"tid\":100,\"ts\":110,\"dur\":30,"
  " \"args\":{\"Input Dims\": [[1024], [8192, 4096], [4096, 1024], [], []], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"]}},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":112,\"dur\":3,\"args\":{\"correlation\":5}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"sm90_xmma_gemm_bf16bf16_bf16f32\",\"pid\":0,\"tid\":7,\"ts\":720,\"dur\":200,\"args\":{\"correlation\":5,\"stream\":7,\"device\":0}},\n"
  /* recorded without shapes: not counted */
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":100,\"tid\":100,\"ts\":160,\"dur\":20,\"args\":{}},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":162,\"dur\":3,\"args\":{\"correlation\":6}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":930,\"dur\":20,\"args\":{\"correlation\":6,\"stream\":7,\"device\":0}},\n"
  "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"GPU 0\"}},\n"
  "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":0,\"args\":{\"labels\":\"GPU 0\"}}\n"
  "]}";

static ChronoAnalysis *
analyse_attention (const char *device,
                   guint       peak_gflops,
                   guint       peak_gbps)
{
  g_autofree char *json = g_strdup_printf (attention_trace, device);
  g_autoptr(ChronoTrace) trace = test_load_json (json);
  g_autoptr(GError) error = NULL;
  ChronoAnalysisOptions options;
  ChronoAnalysis *a;

  chrono_analysis_options_init (&options);
  options.thresholds.peak_gflops = peak_gflops;
  options.thresholds.peak_memory_gbps = peak_gbps;
  a = chrono_analysis_run (&trace, 1, &options, NULL, &error);
  g_assert_no_error (error);
  return a;
}

static void
check_roofline (const ChronoEfficiencyRow *r,
                gdouble                    tflops,
                gdouble                    tbps)
{
  gdouble compute_ns = r->flops / (tflops * 1e3);
  gdouble memory_ns = r->bytes / (tbps * 1e3);

  g_assert_true (r->has_roofline);
  g_assert_cmpint (r->roofline_ns, ==, (gint64) llround (MAX (compute_ns, memory_ns) * r->count));
  g_assert_cmpint (r->bound, ==, compute_ns >= memory_ns ? CHRONO_BOUND_COMPUTE : CHRONO_BOUND_MEMORY);
  g_assert_cmpint (r->excess_ns, ==, MAX (0, r->gpu_time_ns - r->roofline_ns));
  g_assert_cmpfloat_with_epsilon (r->roofline_share, (gdouble) r->roofline_ns / r->gpu_time_ns, 1e-12);
}

static void
test_attention (void)
{
  g_autoptr(ChronoAnalysis) a = analyse_attention ("NVIDIA H100 80GB HBM3", 0, 0);
  const ChronoEfficiencyRow *fwd = test_efficiency_row (a, "aten::scaled_dot_product_attention", NULL);
  const ChronoEfficiencyRow *bwd = test_efficiency_row (a, "aten::_scaled_dot_product_flash_attention_backward", NULL);
  const ChronoEfficiencyRow *addmm = test_efficiency_row (a, "aten::addmm", NULL);
  gdouble qkv = (gdouble) B * H * S * D * 2;
  gdouble flops, mfu;

  /* The children of the modelled operator have no rows of their own;
   * aten::linear counts through aten::addmm; aten::mm has no shapes. */
  g_assert_cmpuint (chrono_analysis_get_n_efficiency (a), ==, 3);
  g_assert_null (test_efficiency_row (a, "aten::_flash_attention_forward", NULL));
  g_assert_null (test_efficiency_row (a, "aten::linear", NULL));
  g_assert_null (test_efficiency_row (a, "aten::mm", NULL));

  /* FlashAttention-2's count, halved under the causal mask. */
  g_assert_nonnull (fwd);
  g_assert_cmpfloat (fwd->flops, ==, 4.0 * B * H * S * S * D / 2);
  g_assert_cmpfloat (fwd->bytes, ==, 4 * qkv);
  g_assert_cmpstr (fwd->family, ==, "attention");
  g_assert_cmpint (fwd->dtype, ==, CHRONO_DTYPE_FP16);
  g_assert_true (fwd->matrix);
  g_assert_cmpuint (fwd->count, ==, 1);
  /* Two kernels on two streams, [100, 200) and [150, 250) µs: their union. */
  g_assert_cmpint (fwd->gpu_time_ns, ==, 150000);
  g_assert_cmpuint (fwd->n_intervals, ==, 1);
  g_assert_cmpint (fwd->intervals[0].start_ns, ==, 100000);
  g_assert_cmpint (fwd->intervals[0].end_ns, ==, 250000);
  g_assert_cmpfloat_with_epsilon (fwd->achieved_tflops, fwd->flops / 150000 / 1e3, 1e-9);
  check_roofline (fwd, 989.5, 3.35);
  g_assert_cmpstr (fwd->device_name, ==, "NVIDIA H100 80GB HBM3");
  g_assert_cmpstr (fwd->peaks->name, ==, "NVIDIA H100 SXM");

  /* Backward: five products, 2.5 times the forward's two. */
  g_assert_nonnull (bwd);
  g_assert_cmpfloat (bwd->flops, ==, 2.5 * 4.0 * B * H * S * S * D);
  g_assert_cmpint (bwd->gpu_time_ns, ==, 400000);
  check_roofline (bwd, 989.5, 3.35);

  g_assert_nonnull (addmm);
  g_assert_cmpfloat (addmm->flops, ==, 2.0 * 8192 * 1024 * 4096);
  g_assert_cmpfloat (addmm->bytes, ==, 2.0 * (8192 * 4096 + 4096 * 1024 + 8192 * 1024 + 1024));
  /* Only the GEMM kernel, not the copy aten::linear launched itself. */
  g_assert_cmpint (addmm->gpu_time_ns, ==, 200000);
  g_assert_cmpuint (addmm->n_calls, ==, 1);
  check_roofline (addmm, 989.5, 3.35);

  /* The step's utilisation: every modelled FLOP at the BF16 peak, over the step. */
  mfu = chrono_analysis_get_mfu (a, 0, 0, 0, 1000000, &flops);
  g_assert_cmpfloat (flops, ==, fwd->flops + bwd->flops + addmm->flops);
  g_assert_cmpfloat_with_epsilon (mfu, flops / (989.5 * 1e3) / 1000000, 1e-12);
  /* A range that holds only the backward's work. */
  mfu = chrono_analysis_get_mfu (a, 0, 0, 290000, 710000, &flops);
  g_assert_cmpfloat (flops, ==, bwd->flops);
  g_assert_null (chrono_analysis_get_efficiency_notes (a)[0]);
}

static void
test_unknown_device (void)
{
  g_autoptr(ChronoAnalysis) a = analyse_attention ("Mystery Accelerator 9000", 0, 0);
  g_autoptr(ChronoAnalysis) set = analyse_attention ("Mystery Accelerator 9000", 500000, 2000);
  const ChronoEfficiencyRow *r = test_efficiency_row (a, "aten::scaled_dot_product_attention", NULL);
  const char * const *notes = chrono_analysis_get_efficiency_notes (a);
  g_autofree char *json = chrono_analysis_to_json (a);

  /* Achieved figures, no roofline, and a note that says why. */
  g_assert_nonnull (r);
  g_assert_false (r->has_roofline);
  g_assert_null (r->peaks);
  g_assert_cmpfloat (r->achieved_tflops, >, 0);
  g_assert_cmpint (r->bound, ==, CHRONO_BOUND_UNKNOWN);
  g_assert_nonnull (notes[0]);
  g_assert_nonnull (strstr (notes[0], "Mystery Accelerator 9000"));
  g_assert_true (isnan (chrono_analysis_get_mfu (a, 0, 0, 0, 1000000, NULL)));
  g_assert_nonnull (strstr (json, "\"roofline_ns\" : null"));

  /* Peaks from the settings give it one. */
  r = test_efficiency_row (set, "aten::scaled_dot_product_attention", NULL);
  check_roofline (r, 500, 2);
  g_assert_null (chrono_analysis_get_efficiency_notes (set)[0]);
}

/* Convolutions: the output size from the stride and padding that only
 * Concrete Inputs record; the backward pass from grad_output's size. */
static const char conv_trace[] =
  "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA A100-SXM4-80GB\"}], \"traceEvents\": [\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::conv2d\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":50,"
  " \"args\":{\"Input Dims\": [[32, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], []],"
  " \"Input type\": [\"float\", \"float\", \"\", \"ScalarList\", \"ScalarList\", \"ScalarList\", \"Scalar\"],"
  " \"Concrete Inputs\": [\"\", \"\", \"\", \"[2, 2]\", \"[3, 3]\", \"[1, 1]\", \"1\"]}},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::convolution\",\"pid\":1,\"tid\":1,\"ts\":12,\"dur\":40,"
  " \"args\":{\"Input Dims\": [[32, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], [], [], []],"
  " \"Input type\": [\"float\", \"float\", \"\", \"ScalarList\", \"ScalarList\", \"ScalarList\", \"Scalar\", \"ScalarList\", \"Scalar\"],"
  " \"Concrete Inputs\": [\"\", \"\", \"\", \"[2, 2]\", \"[3, 3]\", \"[1, 1]\", \"False\", \"[0, 0]\", \"1\"]}},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":3,\"args\":{\"correlation\":1}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"implicit_convolve_sgemm\",\"pid\":0,\"tid\":7,\"ts\":100,\"dur\":300,\"args\":{\"correlation\":1,\"stream\":7,\"device\":0}},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::convolution_backward\",\"pid\":1,\"tid\":1,\"ts\":70,\"dur\":40,"
  " \"args\":{\"Input Dims\": [[32, 64, 112, 112], [32, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], [], [], [], []],"
  " \"Input type\": [\"float\", \"float\", \"float\", \"ScalarList\", \"ScalarList\", \"ScalarList\", \"ScalarList\", \"Scalar\", \"ScalarList\", \"Scalar\", \"ScalarList\"]}},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":80,\"dur\":3,\"args\":{\"correlation\":2}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"dgrad\",\"pid\":0,\"tid\":7,\"ts\":500,\"dur\":600,\"args\":{\"correlation\":2,\"stream\":7,\"device\":0}},\n"
  /* no Concrete Inputs: the output size is not known */
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::conv2d\",\"pid\":1,\"tid\":1,\"ts\":200,\"dur\":50,"
  " \"args\":{\"Input Dims\": [[32, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], []],"
  " \"Input type\": [\"float\", \"float\", \"\", \"ScalarList\", \"ScalarList\", \"ScalarList\", \"Scalar\"]}},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":210,\"dur\":3,\"args\":{\"correlation\":3}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"implicit_convolve_sgemm\",\"pid\":0,\"tid\":7,\"ts\":1200,\"dur\":300,\"args\":{\"correlation\":3,\"stream\":7,\"device\":0}},\n"
  "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"GPU 0\"}},\n"
  "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":0,\"args\":{\"labels\":\"GPU 0\"}}\n"
  "]}";

static void
test_convolution (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (conv_trace);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoAnalysis) a = chrono_analysis_run (&trace, 1, NULL, NULL, &error);
  const ChronoEfficiencyRow *fwd, *bwd;
  /* (224 + 2·3 − 1·(7 − 1) − 1) / 2 + 1 = 112 */
  gdouble fwd_flops = 2.0 * 32 * 64 * 112 * 112 * 3 * 7 * 7;
  const char * const *notes;

  g_assert_no_error (error);
  g_assert_cmpuint (chrono_analysis_get_n_efficiency (a), ==, 2);
  fwd = test_efficiency_row (a, "aten::conv2d", NULL);
  bwd = test_efficiency_row (a, "aten::convolution_backward", NULL);
  g_assert_nonnull (fwd);
  g_assert_nonnull (bwd);
  g_assert_cmpfloat (fwd->flops, ==, fwd_flops);
  g_assert_cmpfloat (fwd->bytes, ==, 4.0 * (32 * 3 * 224 * 224 + 64 * 3 * 7 * 7 + 32 * 64 * 112 * 112));
  /* FP32 convolutions run as TF32 on cuDNN by default. */
  g_assert_cmpint (fwd->dtype, ==, CHRONO_DTYPE_TF32);
  g_assert_cmpuint (fwd->count, ==, 1);
  g_assert_cmpint (fwd->gpu_time_ns, ==, 300000);
  check_roofline (fwd, 156, 2.039);
  g_assert_cmpfloat (bwd->flops, ==, 2 * fwd_flops);
  check_roofline (bwd, 156, 2.039);
  /* The call without Concrete Inputs is left out, and said so. */
  notes = chrono_analysis_get_efficiency_notes (a);
  g_assert_nonnull (notes[0]);
  g_assert_nonnull (strstr (notes[0], "aten::conv2d: 1 call left out"));
  g_assert_nonnull (strstr (notes[0], "Concrete Inputs"));
}

/* The JSON report's rows, with the trace's arrays kept as arrays. */
static void
test_json (void)
{
  g_autoptr(ChronoAnalysis) a = analyse_attention ("NVIDIA H100 80GB HBM3", 0, 0);
  g_autofree char *json = chrono_analysis_to_json (a);
  g_autofree char *md = chrono_analysis_to_markdown (a);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *rows;
  JsonObject *row;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  rows = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "efficiency");
  g_assert_cmpuint (json_array_get_length (rows), ==, 3);
  row = json_array_get_object_element (rows, 0);
  g_assert_cmpstr (json_object_get_string_member (row, "op"), ==, "aten::_scaled_dot_product_flash_attention_backward");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (row, "input_dims")), ==, 15);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (row, "input_types"), 0), ==,
                   "c10::BFloat16");
  g_assert_cmpint (json_object_get_int_member (row, "count"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (row, "gpu_time_ns"), ==, 400000);
  g_assert_cmpstr (json_object_get_string_member (row, "bound"), ==, "compute");
  g_assert_cmpstr (json_object_get_string_member (row, "device_name"), ==, "NVIDIA H100 80GB HBM3");
  for (const char * const *m = (const char * const[]) { "flops", "bytes", "achieved_tflops", "achieved_tbps",
                                                        "roofline_ns", "device", NULL }; *m; m++)
    g_assert_true (json_object_has_member (row, *m));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                                                         "model_flops_utilization")), ==, 1);
  g_assert_nonnull (strstr (md, "## Operator efficiency"));
  g_assert_nonnull (strstr (md, "| aten::addmm | [[1024], [8192, 4096], [4096, 1024], [], []] | 1 |"));
}

/* ------------------------------------------------------------------ */
/* Real traces: every GEMM row against 2·M·N·K from the trace's own     */
/* shapes, and its calls against the trace's own launches              */

static JsonNode *
parse_file (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GInputStream) raw = G_INPUT_STREAM (g_file_read (file, NULL, NULL));
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (raw);
  if (g_str_has_suffix (path, ".gz"))
    {
      g_autoptr(GZlibDecompressor) z = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
      in = g_converter_input_stream_new (raw, G_CONVERTER (z));
    }
  else
    in = g_object_ref (raw);
  json_parser_load_from_stream (parser, in, NULL, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static char *
compact (JsonNode *node)
{
  return json_to_string (node, FALSE);
}

/* 2·M·N·K (times the batch) from the "Input Dims" of a GEMM, or 0. */
static gdouble
gemm_flops (const char *op,
            JsonArray  *dims)
{
  guint a = strcmp (op, "aten::addmm") == 0 || strcmp (op, "aten::baddbmm") == 0 ? 1 : 0;
  JsonArray *x = json_array_get_array_element (dims, a);
  JsonArray *y = json_array_get_array_element (dims, a + 1);
  guint r = json_array_get_length (x);

  if (r != json_array_get_length (y) || r < 2 || r > 3)
    return 0;
  return 2.0 * (r == 3 ? json_array_get_int_element (x, 0) : 1) *
         json_array_get_int_element (x, r - 2) * json_array_get_int_element (x, r - 1) *
         json_array_get_int_element (y, r - 1);
}

static JsonObject *
args_of (JsonObject *event)
{
  JsonNode *args = json_object_get_member (event, "args");

  return args && JSON_NODE_HOLDS_OBJECT (args) ? json_node_get_object (args) : NULL;
}

typedef struct {
  gint64  pid;
  gint64  tid;
  gdouble ts;
  gint64  corr;
} Launch;

static gint
compare_launches (gconstpointer a,
                  gconstpointer b)
{
  const Launch *x = a, *y = b;

  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (x->tid != y->tid)
    return x->tid < y->tid ? -1 : 1;
  return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* The first launch on PID's thread TID at or after TS. */
static guint
lower_bound (GArray  *launches,
             gint64   pid,
             gint64   tid,
             gdouble  ts)
{
  Launch probe = { pid, tid, ts, 0 };
  guint lo = 0, hi = launches->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (compare_launches (&g_array_index (launches, Launch, mid), &probe) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

typedef struct {
  gdouble flops;
  guint   launched;   /* calls that launched device work */
} Expected;

static void
check_gemms (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("CHRONO_TRACES_DIR"), name, NULL);
  g_autoptr(ChronoTrace) trace = test_traces_load (name);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) kernels = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GArray) launches = g_array_new (FALSE, FALSE, sizeof (Launch));
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *events;
  guint n_rows = 0, n_launched = 0;
  gint64 kernel_ns = 0, rows_ns = 0;

  if (trace == NULL)
    return;
  root = parse_file (path);
  events = json_object_get_array_member (json_node_get_object (root), "traceEvents");

  /* Device work by correlation; GEMM calls and the launches inside them. */
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *cat = json_object_get_string_member_with_default (e, "cat", "");
      JsonObject *args = args_of (e);

      if ((g_ascii_strcasecmp (cat, "kernel") == 0 || g_ascii_strcasecmp (cat, "gpu_memcpy") == 0 ||
           g_ascii_strcasecmp (cat, "gpu_memset") == 0 || g_ascii_strcasecmp (cat, "memcpy") == 0 ||
           g_ascii_strcasecmp (cat, "memset") == 0) && args && json_object_has_member (args, "correlation"))
        {
          gint64 *corr = g_new (gint64, 1);
          *corr = json_object_get_int_member (args, "correlation");
          g_hash_table_add (kernels, corr);
          kernel_ns += json_object_get_int_member (e, "dur") * 1000;
        }
    }
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *cat = json_object_get_string_member_with_default (e, "cat", "");
      JsonObject *args = args_of (e);
      Launch l;

      if ((g_ascii_strcasecmp (cat, "cuda_runtime") != 0 && g_ascii_strcasecmp (cat, "runtime") != 0) ||
          args == NULL || !json_object_has_member (args, "correlation"))
        continue;
      l = (Launch) { json_object_get_int_member (e, "pid"), json_object_get_int_member (e, "tid"),
                     json_object_get_double_member (e, "ts"), json_object_get_int_member (args, "correlation") };
      g_array_append_val (launches, l);
    }
  g_array_sort (launches, compare_launches);
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *op = json_object_get_string_member_with_default (e, "name", "");
      JsonObject *args = args_of (e);
      g_autofree char *dims = NULL;
      g_autofree char *key = NULL;
      Expected *x;
      gdouble ts, end;
      gboolean launched = FALSE;

      if (!(strcmp (op, "aten::mm") == 0 || strcmp (op, "aten::addmm") == 0 || strcmp (op, "aten::bmm") == 0 ||
            strcmp (op, "aten::baddbmm") == 0) || args == NULL || !json_object_has_member (args, "Input Dims"))
        continue;
      dims = compact (json_object_get_member (args, "Input Dims"));
      key = g_strdup_printf ("%s %s", op, dims);
      ts = json_object_get_double_member (e, "ts");
      end = ts + json_object_get_double_member (e, "dur");
      /* The runtime calls on the operator's thread during it. */
      for (guint k = lower_bound (launches, json_object_get_int_member (e, "pid"),
                                  json_object_get_int_member (e, "tid"), ts);
           k < launches->len && !launched; k++)
        {
          const Launch *l = &g_array_index (launches, Launch, k);

          if (l->pid != json_object_get_int_member (e, "pid") || l->tid != json_object_get_int_member (e, "tid") ||
              l->ts >= end)
            break;
          launched = g_hash_table_contains (kernels, &l->corr);
        }
      x = g_hash_table_lookup (expected, key);
      if (x == NULL)
        {
          x = g_new0 (Expected, 1);
          x->flops = gemm_flops (op, json_object_get_array_member (args, "Input Dims"));
          g_hash_table_insert (expected, g_steal_pointer (&key), x);
        }
      x->launched += launched;
      n_launched += launched;
    }

  a = chrono_analysis_run (&trace, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < chrono_analysis_get_n_efficiency (a); i++)
    {
      const ChronoEfficiencyRow *r = chrono_analysis_get_efficiency (a, i);
      g_autoptr(JsonNode) dims = json_from_string (r->input_dims, &error);
      g_autofree char *text = NULL;
      g_autofree char *key = NULL;
      Expected *x;

      g_assert_no_error (error);
      g_assert_cmpint (r->gpu_time_ns, >, 0);
      g_assert_cmpint (r->gpu_time_ns, <=, kernel_ns);
      rows_ns += r->gpu_time_ns;
      if (strcmp (r->family, "gemm") != 0)
        continue;
      text = compact (dims);
      key = g_strdup_printf ("%s %s", r->op, text);
      x = g_hash_table_lookup (expected, key);
      if (x == NULL)
        g_error ("%s: row %s has no call in the trace", name, key);
      g_assert_cmpfloat (r->flops, ==, x->flops);
      g_assert_cmpfloat (r->flops, >, 0);
      g_assert_cmpuint (r->count, ==, x->launched);
      g_assert_cmpfloat_with_epsilon (r->achieved_tflops, r->flops * r->count / r->gpu_time_ns / 1e3, 1e-9);
      n_rows += r->count;
    }
  /* Every GEMM call that launched work has a row, and no kernel is in two rows. */
  g_assert_cmpuint (n_rows, ==, n_launched);
  g_assert_cmpuint (n_rows, >, 0);
  g_assert_cmpint (rows_ns, <=, kernel_ns);
}

static void
test_real_gemms (void)
{
  static const char * const names[] = {
    "hta__trace_diff_control__control.json.gz",
    "hta__neg_queue_len__rank0.json.gz",
    "param__dlrm_8rank__worker0_step_12.1694128201545.pt.trace.json",
    "hta__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    check_gemms (names[i]);
}

/* The example trace is as physical as a real one: no operator beats the
 * roofline of the H100 it claims to run on, and every one is modelled. */
static void
test_example (void)
{
  g_autofree char *dir = g_dir_make_tmp ("chronoscope-efficiency-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "example.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  ChronoExampleOptions options;
  gboolean gemm = FALSE, attention = FALSE, elementwise = FALSE, norm = FALSE, softmax = FALSE;

  chrono_example_options_init (&options);
  options.n_steps = 3;
  g_assert_true (chrono_example_trace_write (path, &options, NULL, &error));
  g_assert_no_error (error);
  trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  a = chrono_analysis_run (&trace, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_analysis_get_n_efficiency (a), >, 10);
  for (guint i = 0; i < chrono_analysis_get_n_efficiency (a); i++)
    {
      const ChronoEfficiencyRow *r = chrono_analysis_get_efficiency (a, i);

      g_assert_true (r->has_roofline);
      if (r->roofline_share > 1)
        g_error ("%s %s: %.0f %% of its roofline", r->op, r->input_dims, 100 * r->roofline_share);
      gemm |= g_str_equal (r->family, "gemm");
      attention |= g_str_equal (r->family, "attention");
      elementwise |= g_str_equal (r->family, "elementwise");
      norm |= g_str_equal (r->family, "normalization");
      softmax |= g_str_equal (r->family, "softmax");
    }
  g_assert_true (gemm && attention && elementwise && norm && softmax);
  g_assert_null (chrono_analysis_get_efficiency_notes (a)[0]);
  g_unlink (path);
  g_rmdir (dir);
}

/* mul.out writes its last tensor; FP32 GEMMs faster than FP32 ran as TF32. */
static void
test_real_details (void)
{
  g_autoptr(ChronoTrace) a100 = test_traces_load ("hta__neg_queue_len__rank0.json.gz");
  g_autoptr(ChronoTrace) tf32 = test_traces_load ("hta__trace_diff_control__control.json.gz");
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autoptr(ChronoAnalysis) b = NULL;
  g_autoptr(GError) error = NULL;
  const ChronoEfficiencyRow *r;
  guint n_tf32 = 0;

  if (a100 == NULL || tf32 == NULL)
    return;
  a = chrono_analysis_run (&a100, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  r = test_efficiency_row (a, "aten::mul", "[[11192, 8192], [], [11192, 8192]]");
  g_assert_nonnull (r);
  g_assert_cmpfloat (r->bytes, ==, 2.0 * 4 * 11192 * 8192);
  g_assert_cmpfloat (r->flops, ==, 11192.0 * 8192);
  g_assert_cmpfloat (r->roofline_share, <=, 1);

  b = chrono_analysis_run (&tf32, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < chrono_analysis_get_n_efficiency (b); i++)
    {
      r = chrono_analysis_get_efficiency (b, i);
      if (strcmp (r->family, "gemm") != 0)
        continue;
      /* The A100's FP32 rate is 19.5 TFLOP/s. */
      if (r->dtype == CHRONO_DTYPE_TF32)
        {
          n_tf32++;
          g_assert_cmpfloat (r->achieved_tflops, >, 19.5);
          g_assert_cmpfloat (r->roofline_share, <=, 1);
        }
      else
        g_assert_cmpfloat (r->achieved_tflops, <=, 19.5);
    }
  g_assert_cmpuint (n_tf32, >, 0);
}

/* ------------------------------------------------------------------ */
/* Neuron: each engine's busy share, the profiler's own figures        */

/* The union of a track's spans, computed here. */
static gint64
track_busy (const ChronoTrack *t)
{
  gint64 sum = 0, open_start = 0, open_end = G_MININT64;

  for (guint32 i = 0; i < t->n_spans; i++)
    {
      gint64 start = t->start[i], end = chrono_track_get_end (t, i);

      if (start > open_end)
        {
          if (open_end > G_MININT64)
            sum += open_end - open_start;
          open_start = start;
          open_end = end;
        }
      else
        open_end = MAX (open_end, end);
    }
  return open_end > G_MININT64 ? sum + open_end - open_start : 0;
}

static void
test_neuron (void)
{
  g_autofree char *dir = g_dir_make_tmp ("chronoscope-efficiency-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "device_profile_model_1.json", NULL);
  NeuronGenOptions options;
  NeuronGenCounts counts = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;
  g_autofree char *md = NULL;
  JsonObject *core, *profiler, *step;
  JsonArray *engines;
  gint64 start, end;

  neuron_gen_options_init (&options);
  options.n_blocks = 50;
  g_assert_true (neuron_gen_write_device (path, &options, &counts, &error));
  trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  a = chrono_analysis_run (&trace, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  json = chrono_analysis_to_json (a);
  md = chrono_analysis_to_markdown (a);
  root = json_from_string (json, &error);
  g_assert_no_error (error);

  core = json_array_get_object_element (json_object_get_array_member (json_node_get_object (root), "neuron_engines"), 0);
  g_assert_nonnull (core);
  /* The profiler writes its percentages as fractions here: 0.23 and 0.41. */
  profiler = json_object_get_object_member (core, "profiler");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (profiler, "mfu_percent"), 23, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (profiler, "mbu_percent"), 41, 1e-9);
  /* Ours needs a peak, which the table has not for Neuron devices. */
  g_assert_true (json_node_is_null (json_object_get_member (core, "mfu_percent")));

  /* No steps in a device profile: one window, the device's work. */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (core, "steps")), ==, 1);
  step = json_array_get_object_element (json_object_get_array_member (core, "steps"), 0);
  start = json_object_get_int_member (step, "start_ns");
  end = json_object_get_int_member (step, "end_ns");
  g_assert_cmpint (end, >, start);
  engines = json_object_get_array_member (step, "engines");
  g_assert_cmpuint (json_array_get_length (engines), >=, NEURON_GEN_N_ENGINES);
  for (guint i = 0; i < json_array_get_length (engines); i++)
    {
      JsonObject *e = json_array_get_object_element (engines, i);
      const ChronoTrack *t = test_track_named (trace, json_object_get_string_member (e, "engine"));

      g_assert_cmpint (json_object_get_int_member (e, "busy_ns"), ==, track_busy (t));
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (e, "busy_share"),
                                      (gdouble) track_busy (t) / (end - start), 1e-12);
    }
  g_assert_nonnull (strstr (md, "The profiler's MFU: 23.0 %"));
  g_assert_nonnull (strstr (md, "| whole profile | Vector (DVE) |"));
  g_unlink (path);
  g_rmdir (dir);
}

/* The text of the array that starts at P. */
static char *
array_text (const char *p)
{
  gint depth = 0;
  const char *q = p;

  do
    depth += *q == '[' ? 1 : *q == ']' ? -1 : 0;
  while (depth > 0 && *++q != '\0');
  return g_strndup (p, q + 1 - p);
}

/* A member's value is found where walking the members finds it, however
 * the text around it might mislead a search. */
static void
test_find_member (void)
{
  static const struct { const char *text; const char *value; } cases[] = {
    { "{\"Input Dims\": [[1]]}", "[[1]]" },
    { "  {\"External id\": 12,\"Input Dims\":[[2, 3]]}", "[[2, 3]]" },
    { "{\"a\": \"Input Dims\", \"Input Dims\": [[1]]}", "[[1]]" },
    { "{\"x\": {\"Input Dims\": [[9]]}, \"Input Dims\": [[1]]}", "[[1]]" },
    { "{\"s\": \"\\\"Input Dims\\\": [[9]]\", \"Input Dims\": [[1]]}", "[[1]]" },
    { "{\"s\": [\"Input Dims\"], \"Input Dims\" : [[4]]}", "[[4]]" },
    { "{\"b\": 1}, {\"Input Dims\": [[9]]}", NULL },
    { "{\"Input Dimsx\": [[9]], \"Input Dims\": [[5]]}", "[[5]]" },
    { "{\"b\": 1}", NULL },
    { "{\"s\": \"a}b\", \"Input Dims\": [[1]]}", "[[1]]" },
    { "{\"s\": \"a{b\", \"Input Dims\": [[1]]}", "[[1]]" },
    { "{\"s\": \"}\", \"t\": 1}, {\"Input Dims\": [[9]]}", NULL },
    { "{\"s\": \"\\\\\", \"Input Dims\": [[3]]}", "[[3]]" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (guint pad = 0; pad < 40; pad++)
      {
        /* Every place of the key in the 16-byte blocks, and an end near it. */
        g_autofree char *padded = g_strdup_printf ("{\"pad\": \"%*s\", %s", pad, "", strchr (cases[i].text, '{') + 1);
        const char *texts[] = { cases[i].text, padded };

        for (guint k = 0; k < G_N_ELEMENTS (texts); k++)
          {
            const char *found = chrono_op_model_find_member (texts[k], strlen (texts[k]), "Input Dims");
            g_autofree char *value = found != NULL ? array_text (found) : NULL;

            g_assert_cmpstr (value, ==, cases[i].value);
          }
      }
}

/* And in every operator's args of real traces, against json-glib. */
static void
test_find_member_real (void)
{
  const char *names[] = {
    "kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz",
    "hta__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz",
    "param__dlrm_8rank__worker0_step_12.1694128201545.pt.trace.json",
  };

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      g_autoptr(ChronoTrace) trace = test_traces_load (names[n]);
      guint checked = 0, with_dims = 0;

      if (trace == NULL)
        return;
      for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
        {
          const ChronoTrack *t = chrono_trace_get_track (trace, ti);

          for (guint32 i = 0; i < t->n_spans; i++)
            {
              ChronoSpanRef ref = { ti, i };
              g_autoptr(JsonNode) args = NULL;
              JsonObject *o;
              const char *text, *found;
              gsize available;
              g_autofree char *expected = NULL, *value = NULL;

              if (t->kind[i] != CHRONO_KIND_HOST_OP ||
                  (text = chrono_trace_get_raw_text (trace, chrono_track_get_args (t, i), &available)) == NULL)
                continue;
              args = chrono_trace_get_span_args (trace, ref);
              o = JSON_NODE_HOLDS_OBJECT (args) ? json_node_get_object (args) : NULL;
              if (o != NULL && json_object_has_member (o, "Input Dims"))
                expected = json_to_string (json_object_get_member (o, "Input Dims"), FALSE);
              found = chrono_op_model_find_member (text, available, "Input Dims");
              if (found != NULL)
                {
                  g_autofree char *raw = array_text (found);
                  g_autoptr(JsonNode) parsed = json_from_string (raw, NULL);

                  value = json_to_string (parsed, FALSE);
                }
              g_assert_cmpstr (value, ==, expected);
              checked++;
              with_dims += expected != NULL;
            }
        }
      g_test_message ("%s: %u operators, %u with shapes", names[n], checked, with_dims);
      g_assert_cmpuint (checked, >, 50);
    }
}

/* torch_npu's shapes and types, written as text as its traces do, cost
 * what Kineto's arrays do, and read as those arrays. */
static void
test_text_shapes (void)
{
  static const struct { const char *op, *dims, *types, *dims_array, *types_array; } cases[] = {
    { "aten::addmm", "\"4096;\\r\\n32,9216;\\r\\n9216,4096;\\r\\n;\\r\\n\"",
      "\"float;\\r\\nfloat;\\r\\nfloat;\\r\\nScalar;\\r\\nScalar\"",
      "[[4096],[32,9216],[9216,4096],[],[]]", "[\"float\",\"float\",\"float\",\"Scalar\",\"Scalar\"]" },
    { "aten::mm", "\"32,1000;\\r\\n1000,4096\"", "\"float;\\r\\nfloat\"", "[[32,1000],[1000,4096]]", "[\"float\",\"float\"]" },
    { "aten::convolution_backward", "\"32,256,13,13;\\r\\n32,384,13,13;\\r\\n256,384,3,3;\\r\\n;\\r\\n\"",
      "\"float;\\r\\nfloat;\\r\\nfloat;\\r\\nScalarList;\\r\\nScalarList\"",
      "[[32,256,13,13],[32,384,13,13],[256,384,3,3],[],[]]",
      "[\"float\",\"float\",\"float\",\"ScalarList\",\"ScalarList\"]" },
    { "aten::mul", "\"4096,9216;\\r\\n;\\r\\n4096,9216\"", "\"float;\\r\\ndouble;\\r\\nfloat\"",
      "[[4096,9216],[],[4096,9216]]", "[\"float\",\"double\",\"float\"]" },
    /* white space of every kind, and a lone input */
    { "aten::relu", " \"  32, 4096 \" ", "\"float\"", "[[32,4096]]", "[\"float\"]" },
  };
  /* Items that are not a shape, and values that are not text. */
  static const char * const not_shapes[] = { "\"4096,x\"", "\"1,,2\"", "\"4,\"", "\",4\"", "[[1]]", "12", "\"unclosed", "" };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint model = chrono_op_model_find (cases[i].op);
      g_autofree char *dims = chrono_op_inputs_from_text (cases[i].dims, strlen (cases[i].dims), TRUE);
      g_autofree char *types = chrono_op_inputs_from_text (cases[i].types, strlen (cases[i].types), FALSE);
      ChronoOpCost text, array;

      g_assert_cmpstr (dims, ==, cases[i].dims_array);
      g_assert_cmpstr (types, ==, cases[i].types_array);
      g_assert_true (chrono_op_model_cost (model, cases[i].dims, strlen (cases[i].dims), cases[i].types,
                                           strlen (cases[i].types), NULL, 0, &text));
      g_assert_true (chrono_op_model_cost (model, cases[i].dims_array, strlen (cases[i].dims_array),
                                           cases[i].types_array, strlen (cases[i].types_array), NULL, 0, &array));
      g_assert_cmpfloat (text.flops, ==, array.flops);
      g_assert_cmpfloat (text.bytes, ==, array.bytes);
      g_assert_cmpint (text.dtype, ==, array.dtype);
      g_assert_cmpfloat (text.flops, >, 0);
    }
  /* An empty item is an input without dimensions: a scalar, None, a list. */
  {
    g_autofree char *one = chrono_op_inputs_from_text ("\"\"", 2, TRUE);
    g_autofree char *three = chrono_op_inputs_from_text ("\";\\r\\n;\\r\\n\"", 12, TRUE);
    g_autofree char *copy = chrono_op_inputs_dup ("[[1], []]", 9, TRUE);

    g_assert_cmpstr (one, ==, "[[]]");
    g_assert_cmpstr (three, ==, "[[],[],[]]");
    g_assert_cmpstr (copy, ==, "[[1], []]");
  }
  for (guint i = 0; i < G_N_ELEMENTS (not_shapes); i++)
    g_assert_null (chrono_op_inputs_from_text (not_shapes[i], strlen (not_shapes[i]), TRUE));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/efficiency/peaks-lookup", test_peaks_lookup);
  g_test_add_func ("/efficiency/peaks-documented", test_peaks_documented);
  g_test_add_func ("/efficiency/attention", test_attention);
  g_test_add_func ("/efficiency/unknown-device", test_unknown_device);
  g_test_add_func ("/efficiency/convolution", test_convolution);
  g_test_add_func ("/efficiency/json", test_json);
  g_test_add_func ("/efficiency/real-gemms", test_real_gemms);
  g_test_add_func ("/efficiency/real-details", test_real_details);
  g_test_add_func ("/efficiency/example", test_example);
  g_test_add_func ("/efficiency/neuron", test_neuron);
  g_test_add_func ("/efficiency/find-member", test_find_member);
  g_test_add_func ("/efficiency/find-member-real", test_find_member_real);
  g_test_add_func ("/efficiency/text-shapes", test_text_shapes);
  return g_test_run ();
}
