/* test-format.c: names and numbers as people read them: the short name
 * of a kernel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-format.h"
#include "test-utils.h"

/* Names from the traces in $CHRONO_TRACES_DIR, one of each kind of
 * library, and what a list shows of them. */
static void
test_short_name (void)
{
  static const struct {
    const char *name;
    const char *expected;
  } cases[] = {
    /* PyTorch's own kernels. */
    { "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
      "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
      "vectorized_elementwise_kernel<4, FillFunctor<float>, Array<…>>" },
    { "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, "
      "at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3> >(int, "
      "at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, "
      "at::detail::Array<char*, 3>)",
      "vectorized_elementwise_kernel<4, BinaryFunctor<…>, Array<…>>" },
    { "void at::native::vectorized_elementwise_kernel<4, at::native::cos_kernel_cuda(at::TensorIteratorBase&)::"
      "{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, "
      "std::array<char*, 2ul> >(int, at::native::cos_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::"
      "operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>)",
      "vectorized_elementwise_kernel<4, cos_kernel_cuda, array<…>>" },
    { "void at::native::(anonymous namespace)::cunn_SoftMaxForward<8, c10::BFloat16, float, c10::BFloat16, "
      "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(c10::BFloat16*, c10::BFloat16 const*, int)",
      "cunn_SoftMaxForward<8, BFloat16, float, BFloat16, …>" },
    { "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, "
      "float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, "
      "float, float>, unsigned int, float, 4>)",
      "reduce_kernel<512, 1, ReduceOp<…>>" },
    /* Symmetric memory's all-reduce: short template arguments stay. */
    { "void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>(c10::BFloat16*, unsigned long, "
      "unsigned int**, unsigned long, unsigned long)",
      "multimem_all_reduce_kernel<BFloat16, 16>" },
    /* CUTLASS's wrappers show the kernel they hold; FlashAttention 3's
     * backward kernel as its sources name it, and PyTorch's own
     * FlashAttention. */
    { "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>"
      "(cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)",
      "cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4" },
    { "void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnBwdSm90<"
      "flash::CollectiveMainloopBwdSm90<2, cute::tuple<cute::C<64>, cute::C<128>, cute::C<128> >, "
      "cutlass::bfloat16_t, float, cutlass::arch::Sm90, true, false>, flash::CollectiveEpilogueBwd<"
      "cute::tuple<cute::C<64>, cute::C<128>, cute::C<128> >, cutlass::bfloat16_t, 256>, "
      "flash::SingleTileScheduler<true, false, false, 128> > > >(flash::FlashAttnBwdSm90<"
      "flash::CollectiveMainloopBwdSm90<2, cute::tuple<cute::C<64>, cute::C<128>, cute::C<128> >, "
      "cutlass::bfloat16_t, float, cutlass::arch::Sm90, true, false>, flash::CollectiveEpilogueBwd<"
      "cute::tuple<cute::C<64>, cute::C<128>, cute::C<128> >, cutlass::bfloat16_t, 256>, "
      "flash::SingleTileScheduler<true, false, false, 128> >::Params)",
      "flash::FlashAttnBwdSm90<CollectiveMainloopBwdSm90<…>, …>" },
    { "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, "
      "cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 4, cutlass::bfloat16_t> >, false, true, "
      "false, false, false, true, false>(pytorch_flash::Flash_fwd_params)",
      "pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<…>, …>" },
    /* cuBLAS and cuDNN. */
    { "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
      "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_t…off_kernel__5x_cublas" },
    { "std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, float, float, float, float, false, "
      "true, false, false, 7, cublasGemvParams<cublasGemvTensorStridedBatched<float const>, "
      "cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float> >"
      "(cublasGemvParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, "
      "cublasGemvTensorStridedBatched<float>, float>)",
      "internal::gemvx::kernel<int, int, float, float, float, float, …>" },
    { "void nchwToNhwcKernel<float, float, float, true, false, (cudnnKernelDataType_t)0>(int, int, int, int, "
      "float const*, float*, float, float)",
      "nchwToNhwcKernel<float, float, float, true, false, …>" },
    { "ampere_sgemm_128x64_nn", "ampere_sgemm_128x64_nn" },
    /* NCCL: its name without the parameters, whichever version wrote them. */
    { "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "ncclDevKernel_AllGather_RING_LL" },
    { "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
      "ncclKernel_AllReduce_RING_LL_Sum_float" },
    /* Triton: as it is, or its start and end (the number) when too wide. */
    { "triton_poi_fused_add_addmm_silu_21", "triton_poi_fused_add_addmm_silu_21" },
    { "triton_red_fused__unsafe_view_add_addmm_clone_convolution_mul_native_layer_norm_slice_split_transpose_unsqueeze_view_12",
      "triton_red_fused__unsafe_view_add_addmm_cl…ose_unsqueeze_view_12" },
    /* ROCm: Tensile's GEMMs and MIOpen. */
    { "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x224x64_MI16x16x1_SN_LDSB1_AFC1_AG0_AFEM1_AFEM1_ASEM1_"
      "CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_WSGRA0_WSGRB0_WS64_WG32_8_1",
      "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserAr…_WSGRB0_WS64_WG32_8_1" },
    { "MIOpenBatchNormFwdTrainSpatial", "MIOpenBatchNormFwdTrainSpatial" },
    { "void vllm::scaled_fp8_quant_kernel_strided<c10::BFloat16, c10::Float8_e4m3fn>(c10::Float8_e4m3fn*, "
      "c10::BFloat16 const*, float const*, long, long, long)",
      "vllm::scaled_fp8_quant_kernel_strided<BFloat16, Float8_e4m3fn>" },
    /* Not signatures: names of other things read as they are. */
    { "iteration(44)", "iteration(44)" },
    { "aten::mm", "aten::mm" },
    { "autograd::engine::evaluate_function: MmBackward0", "autograd::engine::evaluate_function: MmBackward0" },
    { "Memcpy HtoD (Pageable -> Device)", "Memcpy HtoD (Pageable -> Device)" },
    { "model.py(44): forward", "model.py(44): forward" },
    { "void broken<int(", "void broken<int(" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shortened = chrono_format_short_name (cases[i].name, CHRONO_SHORT_NAME_WIDTH);

      g_test_message ("%s -> %s", cases[i].name, shortened);
      g_assert_cmpstr (shortened, ==, cases[i].expected);
    }
}

static gboolean
brackets_balance (const char *s)
{
  int depth = 0;

  for (; *s && depth >= 0; s++)
    depth += strchr ("<({[", *s) && *s ? 1 : strchr (">)}]", *s) && *s ? -1 : 0;
  return depth == 0;
}

/* Every kernel of every trace: a short name that is not empty, has no
 * parameter list, closes every bracket it opens (when the full name does),
 * fits the width, reads the same shortened again, and tells the trace's
 * kernels apart wherever their names without parameters fit. */
static void
test_short_name_traces (void)
{
  g_autoptr(GPtrArray) paths = test_traces_list ();
  guint n_names = 0, n_traces = 0;

  if (paths == NULL)
    return;
  for (guint p = 0; p < paths->len; p++)
    {
      g_autoptr(ChronoTrace) trace = chrono_trace_load_file (paths->pdata[p], NULL, NULL, NULL, NULL);
      g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
      g_autoptr(GHashTable) wholes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      GHashTableIter iter;
      const char *name;

      if (trace == NULL)
        continue;
      for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
        {
          const ChronoTrack *track = chrono_trace_get_track (trace, t);

          for (guint32 k = 0; k < track->n_spans; k++)
            if (track->kind[k] == CHRONO_KIND_KERNEL || track->kind[k] == CHRONO_KIND_COLLECTIVE)
              g_hash_table_add (names, (gpointer) chrono_trace_get_string (trace, chrono_track_get_name (track, k)));
        }
      n_traces += g_hash_table_size (names) > 0;
      g_hash_table_iter_init (&iter, names);
      while (g_hash_table_iter_next (&iter, (gpointer *) &name, NULL))
        {
          g_autofree char *shortened = chrono_format_short_name (name, CHRONO_SHORT_NAME_WIDTH);
          g_autofree char *again = chrono_format_short_name (shortened, CHRONO_SHORT_NAME_WIDTH);
          g_autofree char *whole = chrono_format_short_name (name, G_MAXUINT);
          const char *other;

          g_assert_cmpuint (strlen (shortened), >, 0);
          g_assert_cmpuint (g_utf8_strlen (shortened, -1), <=, CHRONO_SHORT_NAME_WIDTH);
          g_assert_false (g_str_has_suffix (shortened, ")"));
          g_assert_false (g_str_has_suffix (whole, ")"));
          g_assert_true (!brackets_balance (name) || brackets_balance (shortened));
          g_assert_cmpstr (again, ==, shortened);
          /* Where the budget allows, nothing but the parameters, the
           * return type and PyTorch's namespaces is left out. */
          if (g_utf8_strlen (whole, -1) <= CHRONO_SHORT_NAME_WIDTH)
            g_assert_cmpstr (shortened, ==, whole);
          if ((other = g_hash_table_lookup (wholes, whole)) != NULL)
            {
              g_test_message ("%s and %s differ in what is left out", name, other);
              g_assert_true ((g_str_has_suffix (name, ")") && g_str_has_suffix (other, ")")) ||
                             (strstr (name, "::") != NULL && strstr (other, "::") != NULL));
            }
          g_hash_table_insert (wholes, g_steal_pointer (&whole), (gpointer) name);
          n_names++;
        }
    }
  g_test_message ("%u kernel names in %u traces", n_names, n_traces);
  g_assert_cmpuint (n_traces, >, 0);
}

/* A signed difference: the sign, then the duration as it reads alone;
 * no sign for none. The sign is the exact difference's, so a fraction
 * of a nanosecond keeps its direction. */
static void
test_duration_change (void)
{
  static const struct { gdouble ns; const char *text; } cases[] = {
    { 1.2e6, "+1.200 ms" },
    { -300e3, "−300.000 µs" },
    { 0.4, "+0 ns" },
    { 0, "0 ns" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = chrono_format_duration_change (cases[i].ns);
      g_autofree char *alone = chrono_format_duration ((gint64) llround (fabs (cases[i].ns)));

      g_assert_cmpstr (text, ==, cases[i].text);
      g_assert_true (g_str_has_suffix (text, alone));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/format/short-name", test_short_name);
  g_test_add_func ("/format/short-name/traces", test_short_name_traces);
  g_test_add_func ("/format/duration-change", test_duration_change);
  return g_test_run ();
}
