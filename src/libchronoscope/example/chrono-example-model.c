/* chrono-example-model.c: what the example trace's model runs
 *
 * The CUDA runtime calls and the GPU work of a small transformer's
 * training step, and the operator programs of its forward and backward
 * passes with the shapes record_shapes writes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-example-model.h"

const ApiCall chrono_example_apis[] = {
  [API_LAUNCH_KERNEL] = { "cudaLaunchKernel", 211, 2500, 9000 },
  [API_LAUNCH_KERNEL_EXC] = { "cudaLaunchKernelExC", 430, 6000, 14000 },
  [API_MEMCPY_ASYNC] = { "cudaMemcpyAsync", 41, 6000, 20000 },
  [API_MEMSET_ASYNC] = { "cudaMemsetAsync", 51, 4000, 12000 },
  [API_STREAM_SYNCHRONIZE] = { "cudaStreamSynchronize", 131, 2000, 6000 },
  [API_EVENT_RECORD] = { "cudaEventRecord", 135, 600, 2500 },
  [API_EVENT_QUERY] = { "cudaEventQuery", 138, 400, 1500 },
  [API_STREAM_WAIT_EVENT] = { "cudaStreamWaitEvent", 147, 600, 2000 },
  [API_STREAM_IS_CAPTURING] = { "cudaStreamIsCapturing", 317, 300, 1200 },
};

#define KERNEL(...) CHRONO_EXAMPLE_CAT_KERNEL, ON_COMPUTE, API_LAUNCH_KERNEL, __VA_ARGS__

/* Kernels take at least what their operators' shapes need at an H100's
 * peaks, as a real trace's do. */
const GpuWork chrono_example_works[] = {
  [W_COPY_H2D] = { CHRONO_EXAMPLE_CAT_GPU_MEMCPY, ON_COMPUTE, API_MEMCPY_ASYNC,
                   "Memcpy HtoD (Pinned -> Device)", 5000, 12000, .bytes = 131072 },
  [W_COPY_D2H] = { CHRONO_EXAMPLE_CAT_GPU_MEMCPY, ON_COMPUTE, API_MEMCPY_ASYNC,
                   "Memcpy DtoH (Device -> Pageable)", 1400, 3000, .bytes = 4 },
  [W_MEMSET] = { CHRONO_EXAMPLE_CAT_GPU_MEMSET, ON_COMPUTE, API_MEMSET_ASYNC,
                 "Memset (Device)", 40000, 70000, .bytes = 67108864 },
  [W_GEMM] = { KERNEL ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
                       300000, 600000, { 32, 64, 1 }, { 384, 1, 1 }, 168, 213248, 9) },
  [W_GEMM_DGRAD] = { KERNEL ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
                             320000, 650000, { 16, 64, 1 }, { 384, 1, 1 }, 168, 213248, 9) },
  [W_GEMM_WGRAD] = { CHRONO_EXAMPLE_CAT_KERNEL, ON_SIDE, API_LAUNCH_KERNEL,
                     "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nt_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
                     310000, 640000, { 32, 32, 1 }, { 384, 1, 1 }, 168, 213248, 9 },
  [W_REDUCE_BIAS] = { KERNEL ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<c10::BFloat16, at::native::sum_functor<c10::BFloat16, float, c10::BFloat16>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, c10::BFloat16, 4> >(at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<c10::BFloat16, at::native::sum_functor<c10::BFloat16, float, c10::BFloat16>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, c10::BFloat16, 4>)",
                              24000, 45000, { 32, 16, 1 }, { 32, 16, 1 }, 32, 16, 100) },
  [W_LAYER_NORM] = { KERNEL ("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)",
                             50000, 120000, { 8192, 1, 1 }, { 256, 1, 1 }, 30, 0, 100) },
  [W_LAYER_NORM_BWD] = { KERNEL ("void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<c10::BFloat16, float>(c10::BFloat16 const*, c10::BFloat16 const*, float const*, float const*, c10::BFloat16 const*, c10::BFloat16*, int)",
                                 80000, 180000, { 8192, 1, 1 }, { 256, 1, 1 }, 40, 64, 100) },
  [W_LAYER_NORM_BWD_GB] = { KERNEL ("void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel_32x32<c10::BFloat16, float>(long, long, c10::BFloat16 const*, c10::BFloat16 const*, float const*, float const*, c10::BFloat16*, c10::BFloat16*)",
                                    60000, 120000, { 128, 1, 1 }, { 32, 32, 1 }, 64, 8192, 48) },
  [W_FLASH_FWD] = { KERNEL ("void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, false, false, true, true, false, false>(pytorch_flash::Flash_fwd_params)",
                            300000, 700000, { 8, 8, 16 }, { 128, 1, 1 }, 255, 49152, 12) },
  [W_FLASH_BWD] = { KERNEL ("void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<pytorch_flash::Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t> >, true, false, false, false, true, true, false, false>(pytorch_flash::Flash_bwd_params)",
                            800000, 1600000, { 16, 8, 16 }, { 256, 1, 1 }, 255, 114688, 12) },
  [W_DROPOUT] = { KERNEL ("void at::native::(anonymous namespace)::fused_dropout_kernel_vec<c10::BFloat16, float, unsigned int, 1, 4, bool>(at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<bool, unsigned int>, unsigned int, float, at::PhiloxCudaState)",
                          60000, 140000, { 2112, 1, 1 }, { 256, 1, 1 }, 32, 0, 96) },
  [W_MASKED_SCALE] = { KERNEL ("void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::masked_scale_kernel<bool, c10::BFloat16, float>(at::Tensor&, at::Tensor const&, at::Tensor const&, float)::{lambda(c10::BFloat16, bool)#1}, at::detail::Array<char*, 3> >(int, at::native::(anonymous namespace)::masked_scale_kernel<bool, c10::BFloat16, float>(at::Tensor&, at::Tensor const&, at::Tensor const&, float)::{lambda(c10::BFloat16, bool)#1}, at::detail::Array<char*, 3>)",
                               50000, 100000, { 32768, 1, 1 }, { 128, 1, 1 }, 26, 0, 98) },
  [W_ADD] = { KERNEL ("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3>)",
                      66000, 100000, { 32768, 1, 1 }, { 128, 1, 1 }, 26, 0, 98) },
  [W_GELU] = { KERNEL ("void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2> >(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2>)",
                       180000, 260000, { 131072, 1, 1 }, { 128, 1, 1 }, 30, 0, 97) },
  [W_GELU_BWD] = { KERNEL ("void at::native::vectorized_elementwise_kernel<4, at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, at::detail::Array<char*, 3> >(int, at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, at::detail::Array<char*, 3>)",
                           270000, 380000, { 131072, 1, 1 }, { 128, 1, 1 }, 32, 0, 97) },
  [W_LOG_SOFTMAX] = { KERNEL ("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)",
                              1050000, 1400000, { 8192, 1, 1 }, { 1024, 1, 1 }, 38, 4096, 88) },
  [W_LOG_SOFTMAX_BWD] = { KERNEL ("void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, at::native::(anonymous namespace)::LogSoftMaxBackwardEpilogue>(float*, float const*, float const*, long)",
                                  1550000, 2100000, { 8192, 1, 1 }, { 1024, 1, 1 }, 40, 4096, 87) },
  [W_NLL] = { KERNEL ("void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>(float*, float*, float const*, long const*, float const*, bool, long, long, long, long)",
                      8000, 20000, { 1, 1, 1 }, { 32, 1, 1 }, 30, 1024, 2) },
  [W_NLL_BWD] = { KERNEL ("void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<float, long>(float*, float const*, long const*, float const*, float const*, bool, int, int, long, long)",
                          10000, 25000, { 1, 1, 1 }, { 1024, 1, 1 }, 28, 0, 3) },
  [W_FILL] = { KERNEL ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
                       30000, 60000, { 65536, 1, 1 }, { 128, 1, 1 }, 16, 0, 99) },
  [W_FOREACH_ADD] = { KERNEL ("void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::plus<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::plus<float>, float)",
                              6000, 15000, { 2, 1, 1 }, { 512, 1, 1 }, 28, 0, 1) },
  [W_FUSED_ADAMW] = { KERNEL ("void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::FusedOptimizerTensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, double const*, double, double, double, double, double, bool, float const*, float const*>(at::native::(anonymous namespace)::FusedOptimizerTensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, double const*, double, double, double, double, double, bool, float const*, float const*)",
                              900000, 1800000, { 320, 1, 1 }, { 512, 1, 1 }, 64, 0, 50) },
  [W_ALL_REDUCE] = { CHRONO_EXAMPLE_CAT_KERNEL, ON_NCCL, API_LAUNCH_KERNEL_EXC,
                     "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
                     0, 0, { 24, 1, 1 }, { 544, 1, 1 }, 96, 87568, 0 },
};

#undef KERNEL

#define END { .name = NULL }
#define SHAPES(types, dims) "\"Input type\": [" types "], \"Input Dims\": [" dims "]"
#define BF16 "\"c10::BFloat16\""
#define ACT "[8, 1024, 4096]"

const OpLine chrono_example_layer_norm_fwd[] = {
  { 0, 0, 0, 0, { 0 }, "aten::layer_norm",
    SHAPES (BF16 ", \"\", " BF16 ", " BF16 ", \"Scalar\", \"Scalar\"", ACT ", [], [4096], [4096], [], []") },
  { 1, OP_AUTOGRAD, 32, BW_LAYER_NORM, { W_LAYER_NORM }, "aten::native_layer_norm",
    SHAPES (BF16 ", \"\", " BF16 ", " BF16 ", \"Scalar\"", ACT ", [], [4096], [4096], []") },
  END
};

const OpLine chrono_example_linear_fwd[] = {
  { 0, 0, 0, 0, { 0 }, "aten::linear", SHAPES (BF16 ", " BF16 ", " BF16, ACT ", [4096, 4096], [4096]") },
  { 1, OP_TRIVIAL, 0, 0, { 0 }, "aten::t", SHAPES (BF16, "[4096, 4096]") },
  { 2, OP_TRIVIAL, 0, 0, { 0 }, "aten::transpose", SHAPES (BF16 ", \"Scalar\", \"Scalar\"", "[4096, 4096], [], []") },
  { 3, OP_TRIVIAL, 0, 0, { 0 }, "aten::as_strided", SHAPES (BF16 ", \"\", \"\", \"\"", "[4096, 4096], [], [], []") },
  { 1, OP_TRIVIAL, 0, 0, { 0 }, "aten::view", SHAPES (BF16 ", \"\"", ACT ", []") },
  { 1, OP_AUTOGRAD, 32, BW_ADDMM, { W_GEMM }, "aten::addmm",
    SHAPES (BF16 ", " BF16 ", " BF16 ", \"Scalar\", \"Scalar\"", "[4096], [8192, 4096], [4096, 4096], [], []") },
  { 1, OP_TRIVIAL, 0, 0, { 0 }, "aten::view", SHAPES (BF16 ", \"\"", "[8192, 4096], []") },
  END
};

static const OpLine attention_fwd[] = {
  { 0, OP_TRIVIAL, 0, 0, { 0 }, "aten::view", SHAPES (BF16 ", \"\"", ACT ", []") },
  { 0, OP_TRIVIAL, 0, 0, { 0 }, "aten::transpose", SHAPES (BF16 ", \"Scalar\", \"Scalar\"", "[8, 1024, 32, 128], [], []") },
  { 1, OP_TRIVIAL, 0, 0, { 0 }, "aten::as_strided", SHAPES (BF16 ", \"\", \"\", \"\"", "[8, 1024, 32, 128], [], [], []") },
  { 0, 0, 0, 0, { 0 }, "aten::scaled_dot_product_attention",
    SHAPES (BF16 ", " BF16 ", " BF16 ", \"\", \"Scalar\", \"Scalar\"", "[8, 32, 1024, 128], [8, 32, 1024, 128], [8, 32, 1024, 128], [], [], []") },
  { 1, OP_AUTOGRAD, 0, BW_SDPA, { 0 }, "aten::_scaled_dot_product_flash_attention",
    SHAPES (BF16 ", " BF16 ", " BF16 ", \"Scalar\", \"Scalar\"", "[8, 32, 1024, 128], [8, 32, 1024, 128], [8, 32, 1024, 128], [], []") },
  { 2, 0, 33, 0, { W_FLASH_FWD }, "aten::_flash_attention_forward",
    SHAPES (BF16 ", " BF16 ", " BF16 ", \"\", \"\", \"Scalar\", \"Scalar\"", "[8, 1024, 32, 128], [8, 1024, 32, 128], [8, 1024, 32, 128], [], [], [], []") },
  END
};

static const OpLine dropout_fwd[] = {
  { 0, 0, 0, 0, { 0 }, "aten::dropout", SHAPES (BF16 ", \"Scalar\", \"Scalar\"", ACT ", [], []") },
  { 1, OP_AUTOGRAD, 40, BW_DROPOUT, { W_DROPOUT }, "aten::native_dropout", SHAPES (BF16 ", \"Scalar\", \"Scalar\"", ACT ", [], []") },
  END
};

static const OpLine add_fwd[] = {
  { 0, OP_AUTOGRAD, 32, BW_ADD, { W_ADD }, "aten::add", SHAPES (BF16 ", " BF16 ", \"Scalar\"", ACT ", " ACT ", []") },
  END
};

static const OpLine gelu_fwd[] = {
  { 0, OP_AUTOGRAD, 128, BW_GELU, { W_GELU }, "aten::gelu", SHAPES (BF16 ", \"\"", "[8, 1024, 16384], []") },
  END
};

/* One transformer block. */
const OpLine *const chrono_example_block_fwd[] = {
  chrono_example_layer_norm_fwd, chrono_example_linear_fwd, attention_fwd,
  chrono_example_linear_fwd, dropout_fwd, add_fwd,
  chrono_example_layer_norm_fwd, chrono_example_linear_fwd, gelu_fwd,
  chrono_example_linear_fwd, dropout_fwd, add_fwd,
  NULL
};

const OpLine chrono_example_loss_fwd[] = {
  { 0, 0, 0, 0, { 0 }, "aten::cross_entropy_loss",
    SHAPES ("\"float\", \"long int\", \"\", \"Scalar\", \"Scalar\", \"Scalar\"", "[8192, 50304], [8192], [], [], [], []") },
  { 1, 0, 0, 0, { 0 }, "aten::log_softmax", SHAPES ("\"float\", \"Scalar\", \"\"", "[8192, 50304], [], []") },
  { 2, OP_AUTOGRAD, 192, BW_LOG_SOFTMAX, { W_LOG_SOFTMAX }, "aten::_log_softmax",
    SHAPES ("\"float\", \"Scalar\", \"Scalar\"", "[8192, 50304], [], []") },
  { 1, 0, 0, 0, { 0 }, "aten::nll_loss_nd", SHAPES ("\"float\", \"long int\", \"\", \"Scalar\", \"Scalar\"", "[8192, 50304], [8192], [], [], []") },
  { 2, 0, 0, 0, { 0 }, "aten::nll_loss", SHAPES ("\"float\", \"long int\", \"\", \"Scalar\", \"Scalar\"", "[8192, 50304], [8192], [], [], []") },
  { 3, OP_AUTOGRAD, 1, BW_NLL, { W_NLL }, "aten::nll_loss_forward",
    SHAPES ("\"float\", \"long int\", \"\", \"Scalar\", \"Scalar\"", "[8192, 50304], [8192], [], [], []") },
  END
};

const OpLine chrono_example_input_copy[] = {
  { 0, 0, 0, 0, { 0 }, "aten::to", SHAPES ("\"long int\", \"\", \"Scalar\", \"Scalar\", \"\"", "[8, 1024], [], [], [], []") },
  { 1, 0, 0, 0, { 0 }, "aten::_to_copy", SHAPES ("\"long int\", \"Scalar\", \"\", \"Device\", \"\", \"Scalar\", \"\"", "[8, 1024], [], [], [], [], [], []") },
  { 2, 0, 2, 0, { 0 }, "aten::empty_strided", SHAPES ("\"\", \"\", \"Scalar\", \"\", \"Device\", \"Scalar\"", "[], [], [], [], [], []") },
  { 2, 0, 0, 0, { W_COPY_H2D }, "aten::copy_", SHAPES ("\"long int\", \"long int\", \"Scalar\"", "[8, 1024], [8, 1024], []") },
  END
};

const OpLine chrono_example_zero_grad_ops[] = {
  { 0, 0, 0, 0, { 0 }, "aten::zero_", SHAPES ("\"float\"", "[16777216]") },
  { 1, 0, 0, 0, { W_MEMSET }, "aten::fill_", SHAPES ("\"float\", \"Scalar\"", "[16777216], []") },
  END
};

const OpLine chrono_example_optimizer_step[] = {
  { 0, 0, 0, 0, { W_FOREACH_ADD }, "aten::_foreach_add_", SHAPES ("\"TensorList\", \"Scalar\"", "[], []") },
  { 0, 0, 0, 0, { W_FUSED_ADAMW, W_FUSED_ADAMW }, "aten::_fused_adamw_",
    SHAPES ("\"TensorList\", \"TensorList\", \"TensorList\", \"TensorList\", \"TensorList\", \"TensorList\", \"Scalar\", \"Scalar\", \"Scalar\", \"Scalar\", \"Scalar\", \"Scalar\", \"Scalar\", \"\", \"\"",
            "[], [], [], [], [], [], [], [], [], [], [], [], [], [], []") },
  END
};

/* loss.item(): a device-to-host copy, then a wait for the GPU. */
const OpLine chrono_example_loss_item[] = {
  { 0, 0, 0, 0, { 0 }, "aten::item", SHAPES ("\"float\"", "[]") },
  { 1, 0, 0, 0, { W_COPY_D2H, W_SYNC }, "aten::_local_scalar_dense", SHAPES ("\"float\"", "[]") },
  END
};

static const OpLine layer_norm_bwd[] = {
  { 0, OP_NODE, 0, 0, { 0 }, "autograd::engine::evaluate_function: NativeLayerNormBackward0", NULL },
  { 1, OP_NODE | OP_FLOW_END, 0, 0, { 0 }, "NativeLayerNormBackward0", NULL },
  { 2, 0, 0, 0, { W_LAYER_NORM_BWD, W_LAYER_NORM_BWD_GB }, "aten::native_layer_norm_backward",
    SHAPES (BF16 ", " BF16 ", \"\", \"float\", \"float\", " BF16 ", " BF16 ", \"\"", ACT ", " ACT ", [], [8, 1024, 1], [8, 1024, 1], [4096], [4096], []") },
  END
};

static const OpLine addmm_bwd[] = {
  { 0, OP_NODE, 0, 0, { 0 }, "autograd::engine::evaluate_function: AddmmBackward0", NULL },
  { 1, OP_NODE | OP_FLOW_END, 0, 0, { 0 }, "AddmmBackward0", NULL },
  { 2, OP_TRIVIAL, 0, 0, { 0 }, "aten::t", SHAPES (BF16, "[4096, 4096]") },
  { 3, OP_TRIVIAL, 0, 0, { 0 }, "aten::transpose", SHAPES (BF16 ", \"Scalar\", \"Scalar\"", "[4096, 4096], [], []") },
  { 4, OP_TRIVIAL, 0, 0, { 0 }, "aten::as_strided", SHAPES (BF16 ", \"\", \"\", \"\"", "[4096, 4096], [], [], []") },
  { 2, 0, 0, 0, { W_GEMM_DGRAD }, "aten::mm", SHAPES (BF16 ", " BF16, "[8192, 4096], [4096, 4096]") },
  { 2, OP_TRIVIAL, 0, 0, { 0 }, "aten::t", SHAPES (BF16, "[8192, 4096]") },
  { 3, OP_TRIVIAL, 0, 0, { 0 }, "aten::transpose", SHAPES (BF16 ", \"Scalar\", \"Scalar\"", "[8192, 4096], [], []") },
  { 4, OP_TRIVIAL, 0, 0, { 0 }, "aten::as_strided", SHAPES (BF16 ", \"\", \"\", \"\"", "[8192, 4096], [], [], []") },
  { 2, 0, 0, 0, { W_GEMM_WGRAD }, "aten::mm", SHAPES (BF16 ", " BF16, "[4096, 8192], [8192, 4096]") },
  { 2, 0, 0, 0, { W_REDUCE_BIAS }, "aten::sum", SHAPES (BF16 ", \"\", \"Scalar\", \"\"", "[8192, 4096], [], [], []") },
  { 2, OP_TRIVIAL, 0, 0, { 0 }, "aten::view", SHAPES (BF16 ", \"\"", "[1, 4096], []") },
  END
};

static const OpLine sdpa_bwd[] = {
  { 0, OP_NODE, 0, 0, { 0 }, "autograd::engine::evaluate_function: ScaledDotProductFlashAttentionBackward0", NULL },
  { 1, OP_NODE | OP_FLOW_END, 0, 0, { 0 }, "ScaledDotProductFlashAttentionBackward0", NULL },
  { 2, 0, 0, 0, { 0 }, "aten::_scaled_dot_product_flash_attention_backward", NULL },
  { 3, 0, 0, 0, { W_FLASH_BWD }, "aten::_flash_attention_backward", NULL },
  END
};

static const OpLine dropout_bwd[] = {
  { 0, OP_NODE, 0, 0, { 0 }, "autograd::engine::evaluate_function: NativeDropoutBackward0", NULL },
  { 1, OP_NODE | OP_FLOW_END, 0, 0, { 0 }, "NativeDropoutBackward0", NULL },
  { 2, 0, 0, 0, { 0 }, "aten::native_dropout_backward", SHAPES (BF16 ", \"bool\", \"Scalar\"", ACT ", " ACT ", []") },
  { 3, 0, 0, 0, { W_MASKED_SCALE }, "aten::_masked_scale", SHAPES (BF16 ", \"bool\", \"Scalar\"", ACT ", " ACT ", []") },
  END
};

static const OpLine add_bwd[] = {
  { 0, OP_NODE, 0, 0, { 0 }, "autograd::engine::evaluate_function: AddBackward0", NULL },
  { 1, OP_NODE | OP_FLOW_END | OP_TRIVIAL, 0, 0, { 0 }, "AddBackward0", NULL },
  END
};

static const OpLine gelu_bwd[] = {
  { 0, OP_NODE, 0, 0, { 0 }, "autograd::engine::evaluate_function: GeluBackward0", NULL },
  { 1, OP_NODE | OP_FLOW_END, 0, 0, { 0 }, "GeluBackward0", NULL },
  { 2, 0, 0, 0, { W_GELU_BWD }, "aten::gelu_backward", SHAPES (BF16 ", " BF16 ", \"\"", "[8, 1024, 16384], [8, 1024, 16384], []") },
  END
};

static const OpLine log_softmax_bwd[] = {
  { 0, OP_NODE, 0, 0, { 0 }, "autograd::engine::evaluate_function: LogSoftmaxBackward0", NULL },
  { 1, OP_NODE | OP_FLOW_END, 0, 0, { 0 }, "LogSoftmaxBackward0", NULL },
  { 2, 0, 0, 0, { W_LOG_SOFTMAX_BWD }, "aten::_log_softmax_backward_data",
    SHAPES ("\"float\", \"float\", \"Scalar\", \"Scalar\"", "[8192, 50304], [8192, 50304], [], []") },
  END
};

static const OpLine nll_bwd[] = {
  { 0, OP_NODE, 0, 0, { 0 }, "autograd::engine::evaluate_function: NllLossBackward0", NULL },
  { 1, OP_NODE | OP_FLOW_END, 0, 0, { 0 }, "NllLossBackward0", NULL },
  { 2, 0, 0, 0, { W_NLL_BWD }, "aten::nll_loss_backward", NULL },
  { 3, 0, 0, 0, { 0 }, "aten::zero_", SHAPES ("\"float\"", "[8192, 50304]") },
  { 4, 0, 0, 0, { W_FILL }, "aten::fill_", SHAPES ("\"float\", \"Scalar\"", "[8192, 50304], []") },
  END
};

const OpLine chrono_example_accumulate_grad[] = {
  { 0, 0, 0, 0, { 0 }, "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", NULL },
  { 1, 0, 0, 0, { 0 }, "torch::autograd::AccumulateGrad", NULL },
  { 2, OP_TRIVIAL, 0, 0, { 0 }, "aten::detach", SHAPES (BF16, "[4096]") },
  { 3, OP_TRIVIAL, 0, 0, { 0 }, "detach", SHAPES (BF16, "[4096]") },
  END
};

const BackwardProgram chrono_example_backwards[] = {
  [BW_LAYER_NORM] = { layer_norm_bwd, 2 },
  [BW_ADDMM] = { addmm_bwd, 2 },
  [BW_SDPA] = { sdpa_bwd, 0 },
  [BW_DROPOUT] = { dropout_bwd, 0 },
  [BW_ADD] = { add_bwd, 0 },
  [BW_GELU] = { gelu_bwd, 0 },
  [BW_LOG_SOFTMAX] = { log_softmax_bwd, 0 },
  [BW_NLL] = { nll_bwd, 0 },
};
