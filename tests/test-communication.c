/* test-communication.c: communication is recognised by the names its
 * libraries give their kernels and ops, and look-alikes are not
 *
 * The names are as profilers write them, demangled, with long argument
 * lists cut to "(...)"; docs/communication.md says where each comes from.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-communication.h"
#include "chrono-kineto.h"
#include "test-utils.h"

typedef struct {
  const char *family;
  const char *name;
} Example;

/* Kernels, on the device. */
static const Example kernels[] = {
  { "NCCL", "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)" },
  { "NCCL", "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)" },
  { "NCCL", "ncclDevKernel_AllGather_RING_LL(...)" },
  /* RCCL on MI300X launches the NCCL-named generic kernel. */
  { "NCCL", "ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)" },
  { "RCCL", "mscclKernel_Sum_half_Simple_false(ncclDevComm*, mscclAlgo*, mscclWork*)" },
  { "NVSHMEM", "void nvshmemi_proxy_progress_kernel(...)" },
  { "DeepEP", "void deep_ep::intranode::dispatch<8, 768>(...)" },
  { "DeepEP", "void deep_ep::intranode::combine<__nv_bfloat16, 8, 768>(...)" },
  { "DeepEP", "void deep_ep::intranode::notify_dispatch<8>(...)" },
  { "DeepEP", "void dpsk::ep::internode::combine<false, 8, __nv_bfloat16, 8, 2, 16, 24>(int4*, ...)" },
  { "DeepEP", "void dpsk::ep::internode::cached_notify<false>(int, int, int, int, int*, int, ...)" },
  { "DeepEP", "void deep_ep::internode::combine<false, 2, 8>(...)" },
  { "DeepEP", "void deep_ep::internode_ll::dispatch<true, 3, 10, 7168>(void*, float*, int*, long*, int*, void*, int*, void*, void const*, long const*, int*, int*, int*, int, int, int, int, int, int, int, int)" },
  { "DeepEP", "void deep_ep::internode_ll::combine<(bool)0, (int)6144, (int)11, (int)4>(void *, void *, int *, void *, ...)" },
  { "symmetric memory", "void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>(...)" },
  { "symmetric memory", "void (anonymous namespace)::multimem_one_shot_all_reduce_kernel<float, 16>(...)" },
  { "symmetric memory", "void (anonymous namespace)::one_shot_all_reduce_kernel<c10::BFloat16, 16, 8>(...)" },
  { "symmetric memory", "void (anonymous namespace)::two_shot_all_reduce_kernel<c10::BFloat16, 16, 8>(...)" },
  { "vLLM/SGLang custom all-reduce", "void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(...)" },
  { "vLLM/SGLang custom all-reduce", "void vllm::cross_device_reduce_2stage<c10::Half, 4>(...)" },
  { "AITER custom all-reduce", "aiter::cross_device_reduce_2stage<bf16,8,false>" },
  { "SGLang custom all-reduce", "void trt_llm::oneShotAllReduceKernel<__nv_bfloat16, 8, true>(...)" },
  { "TensorRT-LLM all-reduce", "void tensorrt_llm::kernels::ar_fusion::allreduce_fusion_kernel_oneshot_lamport<(tensorrt_llm::kernels::ar_fusion::AllReduceFusionPattern)1, __nv_bfloat16, 8, false, true>(...)" },
  { "TensorRT-LLM all-reduce", "void tensorrt_llm::kernels::twoShotAllReduceKernel<half, 4, true>(...)" },
  { "FlashInfer all-reduce", "void flashinfer::trtllm_allreduce_fusion::allreduce_fusion_kernel_oneshot_lamport<(flashinfer::trtllm_allreduce_fusion::AllReduceFusionPattern)1, __nv_bfloat16, 8, false, false>(flashinfer::trtllm_allreduce_fusion::AllReduceFusionParams<__nv_bfloat16>)" },
  { "all-to-all", "dlslime::intranode_alltoall_kernel" },
};

/* Ops and annotations, on the host. */
static const Example host[] = {
  { "NCCL", "nccl:all_reduce" },
  { "NCCL", "nccl:_reduce_scatter_base" },
  { "all-to-all", "## alltoall_fwd_single ##" },
  { "c10d", "c10d::allreduce_" },
  { "c10d", "c10d::alltoall_base_" },
  { "c10d", "record_param_comms" },
  { "Gloo", "gloo:all_reduce" },
  { "HCCL", "hccl:allgather" },
  { "HCCL", "hcom_allReduce__271_0_1" },
};

/* Compute that merely sounds like communication. */
static const char * const look_alikes[] = {
  "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)",
  "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1})",
  "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_128x64_64x3_tn_align8>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_128x64_64x3_tn_align8::Params)",
  "void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, int>, cutlass::gemm::collective::CollectiveMma<> > >(cutlass::gemm::kernel::GemmUniversal<>::Params)",
  "void cub::DeviceReduceByKeyKernel<cub::DispatchReduceByKey<long*, long*, cub::ConstantInputIterator<int, int>, int*, long*, cub::Equality, cub::Sum, int>::PtxReduceByKeyPolicy, long*, long*, cub::ConstantInputIterator<int, int>, int*, long*, cub::ScanTileState<cub::KeyValuePair<int, int>, true>, cub::Equality, cub::Sum, int>(long*, long*, cub::ConstantInputIterator<int, int>, int*, long*, cub::ScanTileState<cub::KeyValuePair<int, int>, true>, int, cub::Equality, cub::Sum, int)",
  "void deep_ep::layout::get_dispatch_layout<256, 32, 8>(long const*, int*, int*, int*, bool*, int, int, int, int, int)",
  "flash_fwd_mla_combine_kernel",
  "void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, c10::BFloat16 const*, float, int, int)",
  "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<2> >(at::native::(anonymous namespace)::TensorListMetadata<2>)",
  "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)",
  "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
  "fused_moe_kernel",
  "aten::all",
  "aten::broadcast_tensors",
  "Optimizer.step#CombinedOptimizer.step",
  "## KJTAllToAllTensorsAwaitable wait() ##",
};

static ChronoKind
classify (const char *cat,
          const char *name,
          gboolean   *on_device)
{
  return chrono_kineto_classify (cat, strlen (cat), name, strlen (name), on_device);
}

static void
test_kernels (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (kernels); i++)
    {
      gboolean on_device = FALSE;

      g_test_message ("%s", kernels[i].name);
      g_assert_cmpstr (chrono_communication_family (kernels[i].name, strlen (kernels[i].name)), ==,
                       kernels[i].family);
      g_assert_cmpint (classify ("kernel", kernels[i].name, &on_device), ==, CHRONO_KIND_COLLECTIVE);
      g_assert_true (on_device);
    }
}

static void
test_host (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (host); i++)
    {
      gboolean on_device = TRUE;
      const char *cat = strchr (host[i].name, ':') != NULL && strstr (host[i].name, "::") == NULL
                        ? "user_annotation" : "cpu_op";

      g_test_message ("%s", host[i].name);
      g_assert_cmpstr (chrono_communication_family (host[i].name, strlen (host[i].name)), ==, host[i].family);
      g_assert_cmpint (classify (cat, host[i].name, &on_device), ==, CHRONO_KIND_COLLECTIVE);
      g_assert_false (on_device);
    }
  /* Only the kinds that can be communication: a Python function named
   * after a collective stays a Python function. */
  {
    gboolean on_device;

    g_assert_cmpint (classify ("python_function", "c10d::allreduce_", &on_device), ==, CHRONO_KIND_PYTHON);
  }
}

static void
test_look_alikes (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (look_alikes); i++)
    {
      gboolean on_device;

      g_test_message ("%s", look_alikes[i]);
      g_assert_null (chrono_communication_family (look_alikes[i], strlen (look_alikes[i])));
      g_assert_cmpint (classify ("kernel", look_alikes[i], &on_device), ==, CHRONO_KIND_KERNEL);
      g_assert_cmpint (classify ("cpu_op", look_alikes[i], &on_device), ==, CHRONO_KIND_HOST_OP);
    }
  /* The prefix must start the name: a namespace that merely contains one
   * is not communication. */
  g_assert_null (chrono_communication_family ("void my::deep_ep::intranode::helper()", 37));
  g_assert_null (chrono_communication_family ("void", 4));
  g_assert_null (chrono_communication_family ("", 0));
  /* Only LEN bytes are read. */
  g_assert_null (chrono_communication_family ("nccl:all_reduce", 4));
}

/* Through the importer: a DeepEP kernel on a stream is communication in
 * the model, its layout kernel is compute. */
static void
test_trace (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (
    "{\"traceEvents\":["
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"void deep_ep::layout::get_dispatch_layout<256, 32, 8>(long const*)\","
    "\"pid\":0,\"tid\":7,\"ts\":10,\"dur\":5,\"args\":{\"device\":0,\"stream\":7}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"void deep_ep::intranode::dispatch<8, 768, 8192>(int4*)\","
    "\"pid\":0,\"tid\":7,\"ts\":20,\"dur\":50,\"args\":{\"device\":0,\"stream\":7}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>(c10::BFloat16*)\","
    "\"pid\":0,\"tid\":7,\"ts\":80,\"dur\":20,\"args\":{\"device\":0,\"stream\":7}}"
    "]}");
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);
  const ChronoTrack *stream = NULL;

  g_assert_cmpuint (stats->kinds[CHRONO_KIND_COLLECTIVE], ==, 2);
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_KERNEL], ==, 1);
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    if (chrono_trace_get_track (trace, t)->n_spans == 3)
      stream = chrono_trace_get_track (trace, t);
  g_assert_nonnull (stream);
  g_assert_cmpint (stream->type, ==, CHRONO_TRACK_STREAM);
  g_assert_cmpint (stream->kind[0], ==, CHRONO_KIND_KERNEL);
  g_assert_cmpint (stream->kind[1], ==, CHRONO_KIND_COLLECTIVE);
  g_assert_cmpint (stream->kind[2], ==, CHRONO_KIND_COLLECTIVE);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/communication/kernels", test_kernels);
  g_test_add_func ("/communication/host", test_host);
  g_test_add_func ("/communication/look-alikes", test_look_alikes);
  g_test_add_func ("/communication/trace", test_trace);
  return g_test_run ();
}
