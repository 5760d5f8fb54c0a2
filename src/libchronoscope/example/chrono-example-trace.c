/* chrono-example-trace.c: writes a realistic PyTorch-profiler (Kineto) trace
 *
 * The trace is one rank of data-parallel training of a small transformer.
 * Each profiler step copies the input, zeroes the gradients, runs the
 * forward pass on the main thread and the backward pass on the autograd
 * thread (with DDP all-reduces on an NCCL stream), then the optimizer, and
 * ends with loss.item(). CPU ops launch GPU work whose timing is simulated
 * per stream, so the GPU lags the CPU as it does in GPU-bound training.
 *
 * The layout follows Kineto's writer: metadata first; then, per step, the
 * CPU events of each thread, the GPU activity (each GPU op with its "f",
 * then its runtime call with the "s"), and the GPU copies of user
 * annotations; last the Trace span and the global instants. Events are
 * therefore out of timestamp order the way real files are.
 *
 * Formatting is by hand into large buffers: printf-style formatting would
 * not write a gigabyte in seconds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <zlib.h>

#include "chrono-example-rng.h"
#include "chrono-example-trace.h"

/* Kineto floors its base time to a multiple of a quarter of an average
 * Gregorian year (ChromeTraceBaseTime). */
#define QUARTER_NS        (G_GINT64_CONSTANT (7889238) * G_GINT64_CONSTANT (1000000000))
#define DAY_NS            (G_GINT64_CONSTANT (86400) * G_GINT64_CONSTANT (1000000000))
#define MIB               (G_GINT64_CONSTANT (1) << 20)
#define RESERVE_CHUNK     (G_GINT64_CONSTANT (2) << 30)
/* Planted for the memory analysis: each step keeps one more copy of its
 * output (a leak), and the allocator reserves blocks of sizes it cannot
 * reuse (fragmentation). */
#define KEPT_OUTPUT_BYTES (64 * MIB)
#define FRAGMENT_BYTES    (G_GINT64_CONSTANT (1) << 30)
/* Long traces stay within an 80 GB device. */
#define KEPT_OUTPUTS_MAX  256
#define FRAGMENTED_MAX    (G_GINT64_CONSTANT (64) << 30)
#define PARAMS_PER_LAYER  G_GINT64_CONSTANT (201379840)  /* 12 h^2 + 13 h, h = 4096 */
#define GPU_SORT_BASE     16777216
#define NUM_SMS           132
#define MAX_DEPTH         32
#define MAX_STREAMS       8
#define MAX_DEVICES       8
#define MAX_WORLD_SIZE    1024
#define TRAILER_BYTES     4096       /* about what follows the last step */
#define ZOUT_SIZE         (1 << 20)

/* -------------------------------------------------------------------- */
/* Random numbers                                                       */

/* splitmix64: small, fast and the same everywhere, so a seed always
 * gives the same bytes. */
/* -------------------------------------------------------------------- */
/* Buffers and number formatting                                        */

typedef struct {
  char  *data;
  gsize  len;
  gsize  alloc;
} Buf;

static inline char *
buf_grow (Buf  *b,
          gsize n)
{
  if (G_UNLIKELY (b->len + n > b->alloc))
    {
      b->alloc = MAX (b->alloc * 2, b->len + n + 65536);
      b->data = g_realloc (b->data, b->alloc);
    }
  return b->data + b->len;
}

static inline void
put (Buf        *b,
     const char *s,
     gsize       n)
{
  memcpy (buf_grow (b, n), s, n);
  b->len += n;
}

#define PUT(b, literal) put ((b), "" literal, sizeof (literal) - 1)

static void
put_str (Buf        *b,
         const char *s)
{
  put (b, s, strlen (s));
}

static void
put_u64 (Buf    *b,
         guint64 v)
{
  char tmp[20];
  char *p = tmp + sizeof tmp;

  do
    {
      *--p = '0' + v % 10;
      v /= 10;
    }
  while (v != 0);
  put (b, p, tmp + sizeof tmp - p);
}

static void
put_i64 (Buf   *b,
         gint64 v)
{
  if (v < 0)
    {
      PUT (b, "-");
      put_u64 (b, -(guint64) v);
    }
  else
    put_u64 (b, v);
}

/* V / 10^DIGITS with exactly DIGITS decimals, as Kineto prints times. */
static void
put_fixed (Buf    *b,
           guint64 v,
           guint   digits)
{
  static const guint64 scale[] = { 1, 10, 100, 1000, 10000, 100000, 1000000 };
  guint64 frac = v % scale[digits];
  char *p;

  put_u64 (b, v / scale[digits]);
  p = buf_grow (b, digits + 1);
  p[0] = '.';
  for (guint i = digits; i > 0; i--)
    {
      p[i] = '0' + frac % 10;
      frac /= 10;
    }
  b->len += digits + 1;
}

/* Nanoseconds as fractional microseconds: "4203669603018.756". */
static void
put_us (Buf   *b,
        gint64 ns)
{
  put_fixed (b, ns, 3);
}

/* -------------------------------------------------------------------- */
/* Output: plain or gzip                                                */

typedef struct {
  FILE       *file;
  const char *path;
  gboolean    gzip;
  z_stream    z;
  guint8     *zout;
  guint64     bytes;        /* uncompressed */
  guint64     file_bytes;   /* as written */
} Sink;

static gboolean
set_io_error (GError    **error,
              const char *what,
              const char *path)
{
  int saved = errno;

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
               "Could not %s “%s”: %s", what, path, g_strerror (saved));
  return FALSE;
}

static gboolean
sink_put_file (Sink        *s,
               const void  *data,
               gsize        len,
               GError     **error)
{
  if (len > 0 && fwrite (data, 1, len, s->file) != len)
    return set_io_error (error, "write", s->path);
  s->file_bytes += len;
  return TRUE;
}

static gboolean
sink_deflate (Sink        *s,
              const void  *data,
              gsize        len,
              int          flush,
              GError     **error)
{
  s->z.next_in = (Bytef *) data;
  s->z.avail_in = (uInt) len;
  do
    {
      s->z.next_out = s->zout;
      s->z.avail_out = ZOUT_SIZE;
      if (deflate (&s->z, flush) == Z_STREAM_ERROR)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Could not compress “%s”", s->path);
          return FALSE;
        }
      if (!sink_put_file (s, s->zout, ZOUT_SIZE - s->z.avail_out, error))
        return FALSE;
    }
  while (s->z.avail_out == 0);
  return TRUE;
}

/* Writes and empties B. */
static gboolean
sink_write (Sink    *s,
            Buf     *b,
            GError **error)
{
  gboolean ok;

  s->bytes += b->len;
  if (s->gzip)
    ok = sink_deflate (s, b->data, b->len, Z_NO_FLUSH, error);
  else
    ok = sink_put_file (s, b->data, b->len, error);
  b->len = 0;
  return ok;
}

static gboolean
sink_open (Sink        *s,
           const char  *path,
           gboolean     gzip,
           GError     **error)
{
  s->path = path;
  s->gzip = gzip;
  s->file = g_fopen (path, "wb");
  if (s->file == NULL)
    return set_io_error (error, "create", path);
  if (gzip)
    {
      /* windowBits 15 + 16: a gzip wrapper with mtime 0, so output stays
       * reproducible. */
      if (deflateInit2 (&s->z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Could not start compressing “%s”", path);
          s->gzip = FALSE;
          return FALSE;
        }
      s->zout = g_malloc (ZOUT_SIZE);
    }
  return TRUE;
}

static gboolean
sink_finish (Sink    *s,
             GError **error)
{
  if (s->gzip && !sink_deflate (s, NULL, 0, Z_FINISH, error))
    return FALSE;
  if (fflush (s->file) != 0)
    return set_io_error (error, "write", s->path);
  return TRUE;
}

static void
sink_close (Sink *s)
{
  if (s->gzip)
    {
      deflateEnd (&s->z);
      g_clear_pointer (&s->zout, g_free);
    }
  g_clear_pointer (&s->file, fclose);
}

/* -------------------------------------------------------------------- */
/* What the model runs                                                  */

typedef enum {
  API_LAUNCH_KERNEL,
  API_LAUNCH_KERNEL_EXC,
  API_MEMCPY_ASYNC,
  API_MEMSET_ASYNC,
  API_STREAM_SYNCHRONIZE,
  API_EVENT_RECORD,
  API_EVENT_QUERY,
  API_STREAM_WAIT_EVENT,
  API_STREAM_IS_CAPTURING,
} ApiId;

/* CUDA runtime calls with their CUPTI callback ids and usual cost (ns). */
static const struct {
  const char *name;
  guint       cbid;
  gint64      dur_lo, dur_hi;
} apis[] = {
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

typedef enum {
  ON_COMPUTE,
  ON_SIDE,      /* a further compute stream when there is one */
  ON_NCCL,
} StreamClass;

typedef enum {
  W_NONE,
  W_COPY_H2D,
  W_COPY_D2H,
  W_MEMSET,
  W_SYNC,       /* cudaStreamSynchronize on the compute stream */
  W_GEMM,
  W_GEMM_DGRAD,
  W_GEMM_WGRAD,
  W_REDUCE_BIAS,
  W_LAYER_NORM,
  W_LAYER_NORM_BWD,
  W_LAYER_NORM_BWD_GB,
  W_FLASH_FWD,
  W_FLASH_BWD,
  W_DROPOUT,
  W_MASKED_SCALE,
  W_ADD,
  W_GELU,
  W_GELU_BWD,
  W_LOG_SOFTMAX,
  W_LOG_SOFTMAX_BWD,
  W_NLL,
  W_NLL_BWD,
  W_FILL,
  W_FOREACH_ADD,
  W_FUSED_ADAMW,
  W_ALL_REDUCE,
} WorkId;

typedef struct {
  ChronoExampleCat cat;
  StreamClass      stream;
  ApiId            api;
  const char      *name;
  gint64           dur_lo, dur_hi;   /* ns; all-reduces scale with size */
  guint32          grid[3];
  guint32          block[3];
  guint            registers;
  guint            shared_memory;
  guint            occupancy;
  guint64          bytes;            /* copies and sets */
} GpuWork;

#define KERNEL(...) CHRONO_EXAMPLE_CAT_KERNEL, ON_COMPUTE, API_LAUNCH_KERNEL, __VA_ARGS__

/* Kernels take at least what their operators' shapes need at an H100's
 * peaks, as a real trace's do. */
static const GpuWork works[] = {
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

enum {
  OP_AUTOGRAD = 1 << 0,  /* records a backward node: Sequence number, fwdbwd "s" */
  OP_TRIVIAL  = 1 << 1,  /* a view: often too short to measure */
  OP_NODE     = 1 << 2,  /* backward: carries its forward op's Sequence number */
  OP_FLOW_END = 1 << 3,  /* backward: the fwdbwd "f" binds here */
};

typedef enum {
  BW_LAYER_NORM,
  BW_ADDMM,
  BW_SDPA,
  BW_DROPOUT,
  BW_ADD,
  BW_GELU,
  BW_LOG_SOFTMAX,
  BW_NLL,
} BackwardId;

/* One op of a program: programs are outlines, an op's children follow it
 * with a greater depth. An op launches its GPU work after its children. */
typedef struct {
  guint8      depth;
  guint8      flags;
  guint8      alloc_mib;  /* activation it allocates, written as [memory] */
  guint8      backward;   /* BackwardId, with OP_AUTOGRAD */
  guint8      work[2];    /* WorkId */
  const char *name;
  const char *shapes;     /* record_shapes args, or NULL */
} OpLine;

#define END { .name = NULL }
#define SHAPES(types, dims) "\"Input type\": [" types "], \"Input Dims\": [" dims "]"
#define BF16 "\"c10::BFloat16\""
#define ACT "[8, 1024, 4096]"

static const OpLine layer_norm_fwd[] = {
  { 0, 0, 0, 0, { 0 }, "aten::layer_norm",
    SHAPES (BF16 ", \"\", " BF16 ", " BF16 ", \"Scalar\", \"Scalar\"", ACT ", [], [4096], [4096], [], []") },
  { 1, OP_AUTOGRAD, 32, BW_LAYER_NORM, { W_LAYER_NORM }, "aten::native_layer_norm",
    SHAPES (BF16 ", \"\", " BF16 ", " BF16 ", \"Scalar\"", ACT ", [], [4096], [4096], []") },
  END
};

static const OpLine linear_fwd[] = {
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
static const OpLine *const block_fwd[] = {
  layer_norm_fwd, linear_fwd, attention_fwd, linear_fwd, dropout_fwd, add_fwd,
  layer_norm_fwd, linear_fwd, gelu_fwd, linear_fwd, dropout_fwd, add_fwd,
  NULL
};

static const OpLine loss_fwd[] = {
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

static const OpLine input_copy[] = {
  { 0, 0, 0, 0, { 0 }, "aten::to", SHAPES ("\"long int\", \"\", \"Scalar\", \"Scalar\", \"\"", "[8, 1024], [], [], [], []") },
  { 1, 0, 0, 0, { 0 }, "aten::_to_copy", SHAPES ("\"long int\", \"Scalar\", \"\", \"Device\", \"\", \"Scalar\", \"\"", "[8, 1024], [], [], [], [], [], []") },
  { 2, 0, 2, 0, { 0 }, "aten::empty_strided", SHAPES ("\"\", \"\", \"Scalar\", \"\", \"Device\", \"Scalar\"", "[], [], [], [], [], []") },
  { 2, 0, 0, 0, { W_COPY_H2D }, "aten::copy_", SHAPES ("\"long int\", \"long int\", \"Scalar\"", "[8, 1024], [8, 1024], []") },
  END
};

static const OpLine zero_grad_ops[] = {
  { 0, 0, 0, 0, { 0 }, "aten::zero_", SHAPES ("\"float\"", "[16777216]") },
  { 1, 0, 0, 0, { W_MEMSET }, "aten::fill_", SHAPES ("\"float\", \"Scalar\"", "[16777216], []") },
  END
};

static const OpLine optimizer_step[] = {
  { 0, 0, 0, 0, { W_FOREACH_ADD }, "aten::_foreach_add_", SHAPES ("\"TensorList\", \"Scalar\"", "[], []") },
  { 0, 0, 0, 0, { W_FUSED_ADAMW, W_FUSED_ADAMW }, "aten::_fused_adamw_",
    SHAPES ("\"TensorList\", \"TensorList\", \"TensorList\", \"TensorList\", \"TensorList\", \"TensorList\", \"Scalar\", \"Scalar\", \"Scalar\", \"Scalar\", \"Scalar\", \"Scalar\", \"Scalar\", \"\", \"\"",
            "[], [], [], [], [], [], [], [], [], [], [], [], [], [], []") },
  END
};

/* loss.item(): a device-to-host copy, then a wait for the GPU. */
static const OpLine loss_item[] = {
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

static const OpLine accumulate_grad[] = {
  { 0, 0, 0, 0, { 0 }, "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", NULL },
  { 1, 0, 0, 0, { 0 }, "torch::autograd::AccumulateGrad", NULL },
  { 2, OP_TRIVIAL, 0, 0, { 0 }, "aten::detach", SHAPES (BF16, "[4096]") },
  { 3, OP_TRIVIAL, 0, 0, { 0 }, "detach", SHAPES (BF16, "[4096]") },
  END
};

static const struct {
  const OpLine *program;
  guint         n_params;   /* AccumulateGrad nodes that follow */
} backwards[] = {
  [BW_LAYER_NORM] = { layer_norm_bwd, 2 },
  [BW_ADDMM] = { addmm_bwd, 2 },
  [BW_SDPA] = { sdpa_bwd, 0 },
  [BW_DROPOUT] = { dropout_bwd, 0 },
  [BW_ADD] = { add_bwd, 0 },
  [BW_GELU] = { gelu_bwd, 0 },
  [BW_LOG_SOFTMAX] = { log_softmax_bwd, 0 },
  [BW_NLL] = { nll_bwd, 0 },
};

#undef END
#undef SHAPES
#undef BF16
#undef ACT

static const char * const cat_names[] = {
  [CHRONO_EXAMPLE_CAT_CPU_OP] = "cpu_op",
  [CHRONO_EXAMPLE_CAT_USER_ANNOTATION] = "user_annotation",
  [CHRONO_EXAMPLE_CAT_PYTHON_FUNCTION] = "python_function",
  [CHRONO_EXAMPLE_CAT_CUDA_RUNTIME] = "cuda_runtime",
  [CHRONO_EXAMPLE_CAT_KERNEL] = "kernel",
  [CHRONO_EXAMPLE_CAT_GPU_MEMCPY] = "gpu_memcpy",
  [CHRONO_EXAMPLE_CAT_GPU_MEMSET] = "gpu_memset",
  [CHRONO_EXAMPLE_CAT_GPU_USER_ANNOTATION] = "gpu_user_annotation",
  [CHRONO_EXAMPLE_CAT_TRACE] = "Trace",
};

G_STATIC_ASSERT (G_N_ELEMENTS (cat_names) == CHRONO_EXAMPLE_N_CATS);

/* -------------------------------------------------------------------- */
/* Simulation state                                                     */

/* CPU events are kept until the step ends, when their durations are known,
 * and then written in start order like Kineto's per-thread buffers. */
typedef enum {
  REC_OP,
  REC_PYTHON,
  REC_MEMORY,
  REC_FLOW_START,
  REC_FLOW_END,
} RecType;

typedef struct {
  RecType          type;
  ChronoExampleCat cat;
  const char      *name;
  const char      *shapes;
  gint64           ts;
  gint64           dur;
  gint64           ev_idx;
  union {
    struct {
      gint64   external_id;
      gint64   sequence;            /* -1 for none */
      gboolean backward_node;       /* adds "Fwd thread id" */
      gint64   collective_nelems;   /* 0 unless record_param_comms */
      gint64   collective_seq;
    } op;
    struct {
      gint64 id;
      gint64 parent;
      gint64 module;                /* -1 unless an nn.Module frame */
    } py;
    struct {
      gint64 addr;
      gint64 bytes;                 /* negative when freed */
      gint64 allocated;
      gint64 reserved;
    } mem;
    gint64 flow_id;
  } u;
} Rec;

/* The GPU copy of an open user annotation: Kineto spans the GPU work the
 * annotation launched on one stream, 1 ns earlier and 2 ns longer. */
typedef struct {
  gint64 external_id;
  guint  stream;
  gint64 first;        /* -1 until some GPU work ran */
  gint64 last;
  const char *name;    /* NULL when none is open */
} Annotation;

typedef struct {
  gint64      tid;
  gint64      t;                 /* ns since the base time */
  GArray     *recs;              /* Rec */
  guint       open[MAX_DEPTH];   /* indices of open spans in recs */
  guint       depth;
  Annotation  annotation;
} Thread;

typedef struct {
  BackwardId backward;
  gint64     sequence;
  gint64     flow_id;
  guint      alloc_mark;      /* activations from here on die with this node */
  guint      bucket_layers;   /* > 0: an all-reduce follows this node */
} TapeEntry;

typedef struct {
  gint64 addr;
  gint64 bytes;
} Alloc;

typedef struct {
  ChronoExampleOptions opts;
  ChronoExampleCounts  counts;
  Sink     sink;
  Buf      out;                  /* header, CPU events, metadata, trailer */
  Buf      gpu;                  /* GPU activity of the current step */
  Buf      gpu_annotations;
  guint64  rng;                  /* timing; differs per rank */
  Thread   main_thread;
  Thread   autograd_thread;
  gint64   pid;
  guint    device;
  guint    n_devices;
  guint    n_layers;
  guint    bucket_layers;
  char   **block_names;          /* "nn.Module: Block_3" */
  char    *ranks;                /* "[0, 1, 2, 3]" */
  guint    stream_ids[MAX_STREAMS + 1];   /* the NCCL stream last */
  gint64   stream_free[MAX_STREAMS + 1];  /* when each stream runs dry */
  guint    next_side;
  gint64   external_id;
  gint64   record_function_offset;
  gint64   ev_idx;
  gint64   sequence;
  gint64   fwdbwd_id;
  gint64   correlation;
  gint64   python_id;
  gint64   collective_seq;
  gint64   allocated;
  gint64   reserved;
  GArray  *allocs;               /* Alloc, live activations in order */
  GArray  *tape;                 /* TapeEntry of the current step */
  gint64   trace_start;
  guint    step;
  char     step_name[32];
} Gen;

static Rec *
rec_at (Thread *th,
        guint   index)
{
  return &g_array_index (th->recs, Rec, index);
}

static Rec *
rec_add (Thread *th,
         RecType type)
{
  Rec *r;

  g_array_set_size (th->recs, th->recs->len + 1);
  r = rec_at (th, th->recs->len - 1);
  r->type = type;
  r->ts = th->t;
  return r;
}

static void
advance (Gen    *g,
         Thread *th,
         gint64  lo,
         gint64  hi)
{
  th->t += rng_range (&g->rng, lo, hi);
}

static guint
span_begin (Gen             *g,
            Thread          *th,
            RecType          type,
            ChronoExampleCat cat,
            const char      *name,
            const char      *shapes)
{
  Rec *r;

  g_assert (th->depth < MAX_DEPTH);
  advance (g, th, 300, 2500);
  r = rec_add (th, type);
  r->cat = cat;
  r->name = name;
  r->shapes = shapes;
  r->ev_idx = g->ev_idx++;
  th->open[th->depth++] = th->recs->len - 1;
  return th->recs->len - 1;
}

/* Closes the innermost span. A childless trivial op is often too short for
 * the profiler's clock: Kineto then writes "dur": 0. */
static void
span_end (Gen     *g,
          Thread  *th,
          gboolean trivial)
{
  guint index = th->open[--th->depth];
  Rec *r = rec_at (th, index);

  if (trivial && index == th->recs->len - 1 && rng_chance (&g->rng, 4))
    {
      r->dur = 0;
      return;
    }
  if (trivial)
    advance (g, th, 200, 1500);
  else
    advance (g, th, 500, 4000);
  r->dur = th->t - r->ts;
}

static guint
op_begin (Gen             *g,
          Thread          *th,
          ChronoExampleCat cat,
          const char      *name,
          const char      *shapes,
          gint64           sequence)
{
  guint index = span_begin (g, th, REC_OP, cat, name, shapes);
  Rec *r = rec_at (th, index);

  r->u.op.external_id = ++g->external_id;
  r->u.op.sequence = sequence;
  return index;
}

static void
python_begin (Gen        *g,
              Thread     *th,
              const char *name,
              gint64      module)
{
  gint64 parent = 0;
  Rec *r;

  for (guint d = th->depth; d > 0 && parent == 0; d--)
    if (rec_at (th, th->open[d - 1])->type == REC_PYTHON)
      parent = rec_at (th, th->open[d - 1])->u.py.id;
  r = rec_at (th, span_begin (g, th, REC_PYTHON, CHRONO_EXAMPLE_CAT_PYTHON_FUNCTION, name, NULL));
  r->u.py.id = ++g->python_id;
  r->u.py.parent = parent;
  r->u.py.module = module;
}

static void
flow_rec (Thread *th,
          RecType type,
          gint64  id)
{
  rec_add (th, type)->u.flow_id = id;
}

static void
memory_event (Gen    *g,
              Thread *th,
              gint64  addr,
              gint64  bytes)
{
  Rec *r;

  advance (g, th, 200, 800);
  g->allocated += bytes;
  if (g->allocated > g->reserved)
    g->reserved = (g->allocated + RESERVE_CHUNK - 1) / RESERVE_CHUNK * RESERVE_CHUNK;
  r = rec_add (th, REC_MEMORY);
  r->ev_idx = g->ev_idx++;
  r->u.mem.addr = addr;
  r->u.mem.bytes = bytes;
  r->u.mem.allocated = g->allocated;
  r->u.mem.reserved = g->reserved;
}

static void
alloc_activation (Gen    *g,
                  Thread *th,
                  guint   mib)
{
  Alloc a = {
    .addr = G_GINT64_CONSTANT (0x7f3a00000000) + rng_range (&g->rng, 0, G_GINT64_CONSTANT (1) << 26) * 512,
    .bytes = mib * MIB,
  };

  g_array_append_val (g->allocs, a);
  memory_event (g, th, a.addr, a.bytes);
}

/* A copy of the step's output kept in a list by the training loop:
 * never freed, so memory grows step over step. */
static void
keep_output (Gen *g)
{
  Thread *th = &g->main_thread;

  op_begin (g, th, CHRONO_EXAMPLE_CAT_CPU_OP, "aten::clone",
            "\"Input type\": [\"c10::BFloat16\", \"\"], \"Input Dims\": [[8, 1024, 4096], []]", -1);
  memory_event (g, th, G_GINT64_CONSTANT (0x7f6000000000) + (gint64) g->step * KEPT_OUTPUT_BYTES, KEPT_OUTPUT_BYTES);
  span_end (g, th, FALSE);
}

/* Frees the activations allocated since MARK, newest first. */
static void
free_activations (Gen    *g,
                  Thread *th,
                  guint   mark)
{
  while (g->allocs->len > mark)
    {
      Alloc *a = &g_array_index (g->allocs, Alloc, g->allocs->len - 1);

      memory_event (g, th, a->addr, -a->bytes);
      g_array_set_size (g->allocs, g->allocs->len - 1);
    }
}

/* -------------------------------------------------------------------- */
/* Writing events                                                       */

static void
count_event (Gen  *g,
             char  ph)
{
  g->counts.events++;
  g->counts.phases[(guchar) ph]++;
}

/* Writes an X event up to the inside of its args. */
static void
span_header (Gen             *g,
             Buf             *b,
             ChronoExampleCat cat,
             const char      *name,
             gint64           pid,
             gint64           tid,
             gint64           ts,
             gint64           dur)
{
  count_event (g, 'X');
  g->counts.spans[cat]++;
  if (dur == 0)
    g->counts.zero_duration_spans++;
  PUT (b, "  {\n    \"ph\": \"X\", \"cat\": \"");
  put_str (b, cat_names[cat]);
  PUT (b, "\", \"name\": \"");
  put_str (b, name);
  PUT (b, "\", \"pid\": ");
  put_i64 (b, pid);
  PUT (b, ", \"tid\": ");
  put_i64 (b, tid);
  PUT (b, ",\n    \"ts\": ");
  put_us (b, ts);
  PUT (b, ", \"dur\": ");
  put_us (b, dur);
  PUT (b, ",\n    \"args\": {\n      ");
}

static void
event_footer (Buf *b)
{
  PUT (b, "\n    }\n  },\n");
}

static void
write_flow (Gen        *g,
            Buf        *b,
            char        ph,
            const char *cat,
            gint64      id,
            gint64      pid,
            gint64      tid,
            gint64      ts)
{
  count_event (g, ph);
  PUT (b, "  {\n    \"ph\": \"");
  put (b, &ph, 1);
  PUT (b, "\", \"id\": ");
  put_i64 (b, id);
  PUT (b, ", \"pid\": ");
  put_i64 (b, pid);
  PUT (b, ", \"tid\": ");
  put_i64 (b, tid);
  PUT (b, ", \"ts\": ");
  put_us (b, ts);
  PUT (b, ",\n    \"cat\": \"");
  put_str (b, cat);
  PUT (b, "\", \"name\": \"");
  put_str (b, cat);
  if (ph == 'f')
    PUT (b, "\", \"bp\": \"e\"\n  },\n");
  else
    PUT (b, "\"\n  },\n");
}

static void
write_collective_args (Gen   *g,
                       Buf   *b,
                       gint64 nelems,
                       gint64 seq)
{
  PUT (b, ", \"Collective name\": \"allreduce\", \"dtype\": \"BFloat16\", \"In msg nelems\": ");
  put_i64 (b, nelems);
  PUT (b, ", \"Out msg nelems\": ");
  put_i64 (b, nelems);
  PUT (b, ", \"Group size\": ");
  put_u64 (b, g->opts.world_size);
  PUT (b, ", \"In split size\": \"[]\", \"Out split size\": \"[]\", \"Process Group Name\": \"0\", "
       "\"Process Group Description\": \"default_pg\", \"Process Group Ranks\": \"");
  put_str (b, g->ranks);
  PUT (b, "\", \"Seq\": ");
  put_i64 (b, seq);
}

static void
write_rec (Gen          *g,
           Buf          *b,
           const Thread *th,
           const Rec    *r)
{
  switch (r->type)
    {
    case REC_OP:
      span_header (g, b, r->cat, r->name, g->pid, th->tid, r->ts, r->dur);
      PUT (b, "\"External id\": ");
      put_i64 (b, r->u.op.external_id);
      PUT (b, ",");
      if (r->u.op.sequence >= 0)
        {
          PUT (b, "\"Sequence number\": ");
          put_i64 (b, r->u.op.sequence);
          PUT (b, ", ");
          if (r->u.op.backward_node)
            PUT (b, "\"Fwd thread id\": 1, ");
        }
      PUT (b, "\"Record function id\": ");
      put_i64 (b, r->u.op.external_id - g->record_function_offset);
      if (r->shapes != NULL)
        {
          PUT (b, ", ");
          put_str (b, r->shapes);
        }
      PUT (b, ", \"Ev Idx\": ");
      put_i64 (b, r->ev_idx);
      if (r->u.op.collective_nelems > 0)
        {
          write_collective_args (g, b, r->u.op.collective_nelems, r->u.op.collective_seq);
          PUT (b, ", \"Global rank start\": 0, \"Global rank stride\": 1");
        }
      event_footer (b);
      break;

    case REC_PYTHON:
      span_header (g, b, r->cat, r->name, g->pid, th->tid, r->ts, r->dur);
      PUT (b, "\"Python parent id\": ");
      put_i64 (b, r->u.py.parent);
      PUT (b, ", \"Python id\": ");
      put_i64 (b, r->u.py.id);
      if (r->u.py.module >= 0)
        {
          PUT (b, ", \"Python module id\": ");
          put_i64 (b, r->u.py.module);
        }
      PUT (b, ", \"Ev Idx\": ");
      put_i64 (b, r->ev_idx);
      event_footer (b);
      break;

    case REC_MEMORY:
      count_event (g, 'i');
      g->counts.memory_instants++;
      PUT (b, "  {\n    \"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\",\n    \"pid\": ");
      put_i64 (b, g->pid);
      PUT (b, ", \"tid\": ");
      put_i64 (b, th->tid);
      PUT (b, ",\n    \"ts\": ");
      put_us (b, r->ts);
      PUT (b, ",\n    \"args\": {\n      \"Ev Idx\": ");
      put_i64 (b, r->ev_idx);
      PUT (b, ", \"Device Type\": 1, \"Device Id\": ");
      put_u64 (b, g->device);
      PUT (b, ", \"Addr\": ");
      put_i64 (b, r->u.mem.addr);
      PUT (b, ", \"Bytes\": ");
      put_i64 (b, r->u.mem.bytes);
      PUT (b, ", \"Total Allocated\": ");
      put_i64 (b, r->u.mem.allocated);
      PUT (b, ", \"Total Reserved\": ");
      put_i64 (b, r->u.mem.reserved);
      event_footer (b);
      break;

    case REC_FLOW_START:
      write_flow (g, b, 's', "fwdbwd", r->u.flow_id, g->pid, th->tid, r->ts);
      break;

    case REC_FLOW_END:
      write_flow (g, b, 'f', "fwdbwd", r->u.flow_id, g->pid, th->tid, r->ts);
      g->counts.flow_pairs++;
      break;
    }
}

static void
write_recs (Gen    *g,
            Thread *th)
{
  g_assert (th->depth == 0);
  for (guint i = 0; i < th->recs->len; i++)
    write_rec (g, &g->out, th, rec_at (th, i));
  g_array_set_size (th->recs, 0);
}

static void
write_runtime (Gen    *g,
               Thread *th,
               ApiId   api,
               gint64  ts,
               gint64  dur,
               gint64  correlation,
               gint64  external_id,
               char    flow_ph)
{
  Buf *b = &g->gpu;

  span_header (g, b, CHRONO_EXAMPLE_CAT_CUDA_RUNTIME, apis[api].name, g->pid, th->tid, ts, dur);
  PUT (b, "\"External id\": ");
  put_i64 (b, external_id);
  PUT (b, ",      \"cbid\": ");
  put_u64 (b, apis[api].cbid);
  PUT (b, ", \"correlation\": ");
  put_i64 (b, correlation);
  event_footer (b);
  write_flow (g, b, flow_ph, "ac2g", correlation, g->pid, th->tid, ts);
}

static void
write_gpu_op (Gen           *g,
              const GpuWork *w,
              guint          stream,
              gint64         ts,
              gint64         dur,
              gint64         correlation,
              gint64         external_id,
              gint64         nelems,
              gint64         seq)
{
  Buf *b = &g->gpu;
  gint64 stream_id = g->stream_ids[stream];

  span_header (g, b, w->cat, w->name, g->device, stream_id, ts, dur);
  PUT (b, "\"External id\": ");
  put_i64 (b, external_id);
  if (w->cat == CHRONO_EXAMPLE_CAT_KERNEL)
    {
      guint64 blocks = (guint64) w->grid[0] * w->grid[1] * w->grid[2];
      guint64 threads = (guint64) w->block[0] * w->block[1] * w->block[2];

      PUT (b, ",      \"queued\": 0, \"device\": ");
      put_u64 (b, g->device);
      PUT (b, ", \"context\": 1,      \"stream\": ");
      put_i64 (b, stream_id);
      PUT (b, ", \"correlation\": ");
      put_i64 (b, correlation);
      PUT (b, ",      \"registers per thread\": ");
      put_u64 (b, w->registers);
      PUT (b, ",      \"shared memory\": ");
      put_u64 (b, w->shared_memory);
      PUT (b, ",      \"blocks per SM\": ");
      put_fixed (b, blocks * 1000000 / NUM_SMS, 6);
      PUT (b, ",      \"warps per SM\": ");
      put_fixed (b, blocks * threads / 32 * 1000000 / NUM_SMS, 6);
      PUT (b, ",      \"grid\": [");
      for (guint i = 0; i < 3; i++)
        {
          if (i > 0)
            PUT (b, ", ");
          put_u64 (b, w->grid[i]);
        }
      PUT (b, "],      \"block\": [");
      for (guint i = 0; i < 3; i++)
        {
          if (i > 0)
            PUT (b, ", ");
          put_u64 (b, w->block[i]);
        }
      PUT (b, "],      \"est. achieved occupancy %\": ");
      put_u64 (b, w->occupancy);
      if (nelems > 0)
        write_collective_args (g, b, nelems, seq);
    }
  else
    {
      PUT (b, ",      \"device\": ");
      put_u64 (b, g->device);
      PUT (b, ", \"context\": 1,      \"stream\": ");
      put_i64 (b, stream_id);
      PUT (b, ", \"correlation\": ");
      put_i64 (b, correlation);
      PUT (b, ",      \"bytes\": ");
      put_u64 (b, w->bytes);
      PUT (b, ", \"memory bandwidth (GB/s)\": ");
      /* bytes per ns are GB/s */
      put_fixed (b, w->bytes * 1000000 / MAX (dur, 1), 6);
    }
  event_footer (b);
  write_flow (g, b, 'f', "ac2g", correlation, g->device, stream_id, ts);
}

static void
write_meta_header (Gen        *g,
                   Buf        *b,
                   const char *name,
                   gint64      pid,
                   gint64      tid)
{
  count_event (g, 'M');
  PUT (b, "  {\n    \"name\": \"");
  put_str (b, name);
  PUT (b, "\", \"ph\": \"M\", \"ts\": ");
  put_us (b, g->trace_start);
  PUT (b, ", \"pid\": ");
  put_i64 (b, pid);
  PUT (b, ", \"tid\": ");
  put_i64 (b, tid);
  PUT (b, ",\n    \"args\": {\n      \"");
}

static void
write_meta_string (Gen        *g,
                   const char *name,
                   gint64      pid,
                   gint64      tid,
                   const char *key,
                   const char *value)
{
  write_meta_header (g, &g->out, name, pid, tid);
  put_str (&g->out, key);
  PUT (&g->out, "\": \"");
  put_str (&g->out, value);
  PUT (&g->out, "\"");
  event_footer (&g->out);
}

static void
write_meta_int (Gen        *g,
                const char *name,
                gint64      pid,
                gint64      tid,
                const char *key,
                gint64      value)
{
  write_meta_header (g, &g->out, name, pid, tid);
  put_str (&g->out, key);
  PUT (&g->out, "\": ");
  put_i64 (&g->out, value);
  event_footer (&g->out);
}

static void
write_thread_names (Gen        *g,
                    Thread     *th,
                    const char *role)
{
  g_autofree char *name = g_strdup_printf ("thread %" G_GINT64_FORMAT " (%s)", th->tid, role);

  write_meta_string (g, "thread_name", g->pid, th->tid, "name", name);
  write_meta_int (g, "thread_sort_index", g->pid, th->tid, "sort_index", th->tid);
}

/* -------------------------------------------------------------------- */
/* Runtime calls and GPU work                                           */

static gint64
next_correlation (Gen *g)
{
  /* CUPTI ids skip the activity Kineto filters out */
  g->correlation += rng_chance (&g->rng, 5) ? rng_range (&g->rng, 2, 6) : 1;
  return g->correlation;
}

/* Runtime calls are linked to the innermost open op; Kineto writes the
 * correlation id when there is none. */
static gint64
current_external_id (Thread *th,
                     gint64  correlation)
{
  for (guint d = th->depth; d > 0; d--)
    {
      const Rec *r = rec_at (th, th->open[d - 1]);

      if (r->type == REC_OP)
        return r->u.op.external_id;
    }
  return correlation;
}

/* Advances TH over a runtime call; returns its start. */
static gint64
runtime_call (Gen    *g,
              Thread *th,
              ApiId   api,
              gint64 *dur)
{
  gint64 ts;

  advance (g, th, 400, 2000);
  ts = th->t;
  *dur = rng_range (&g->rng, apis[api].dur_lo, apis[api].dur_hi);
  if (rng_chance (&g->rng, 64))
    *dur *= 8;
  th->t += *dur;
  return ts;
}

/* A call that launches nothing: Kineto's flowStart() is false for it, so it
 * gets an "f" on itself and no "s" anywhere. WAIT_UNTIL > 0 makes the call
 * block until then. */
static void
runtime_only (Gen    *g,
              Thread *th,
              ApiId   api,
              gint64  wait_until)
{
  gint64 dur;
  gint64 ts = runtime_call (g, th, api, &dur);
  gint64 correlation = next_correlation (g);

  if (ts + dur < wait_until)
    {
      th->t = wait_until + rng_range (&g->rng, 2000, 6000);
      dur = th->t - ts;
    }
  write_runtime (g, th, api, ts, dur, correlation, current_external_id (th, correlation), 'f');
  g->counts.dangling_flow_ends++;
}

/* cudaStreamWaitEvent: DST runs nothing more until SRC has run dry. */
static void
stream_wait (Gen    *g,
             Thread *th,
             guint   dst,
             guint   src)
{
  runtime_only (g, th, API_STREAM_WAIT_EVENT, 0);
  g->stream_free[dst] = MAX (g->stream_free[dst], g->stream_free[src]);
}

static guint
pick_stream (Gen        *g,
             StreamClass c)
{
  switch (c)
    {
    case ON_SIDE:
      if (g->opts.n_streams > 1)
        return 1 + g->next_side++ % (g->opts.n_streams - 1);
      return 0;
    case ON_NCCL:
      return g->opts.n_streams;
    case ON_COMPUTE:
    default:
      return 0;
    }
}

/* Ring all-reduce: each rank moves 2 (n - 1) / n of the buffer, at the
 * bus bandwidth NCCL reaches over NVLink 4 between eight H100s. */
static gint64
all_reduce_duration (Gen   *g,
                     gint64 nelems)
{
  gint64 bytes = nelems * 2;
  gint64 bus_bytes = 2 * bytes * (g->opts.world_size - 1) / g->opts.world_size;
  gint64 bus_gb_per_s = rng_range (&g->rng, 320, 420);

  return bus_bytes / bus_gb_per_s + rng_range (&g->rng, 15000, 40000);
}

/* Launches work W from TH: the runtime call, then the GPU op once its
 * stream is free. NELEMS and SEQ describe an all-reduce. */
static void
launch (Gen    *g,
        Thread *th,
        WorkId  id,
        gint64  nelems,
        gint64  seq)
{
  const GpuWork *w = &works[id];
  guint stream = pick_stream (g, w->stream);
  gint64 dur, start, gpu_dur, correlation, external_id;
  gint64 ts = runtime_call (g, th, w->api, &dur);
  Annotation *an = &th->annotation;

  correlation = next_correlation (g);
  external_id = current_external_id (th, correlation);
  /* The gap keeps GPU ops apart, so Kineto's widened GPU annotations never
   * overlap a neighbour partially. */
  start = MAX (ts + rng_range (&g->rng, 2000, 7000),
               g->stream_free[stream] + rng_range (&g->rng, 1000, 4000));
  gpu_dur = nelems > 0 ? all_reduce_duration (g, nelems) : rng_range (&g->rng, w->dur_lo, w->dur_hi);
  g->stream_free[stream] = start + gpu_dur;
  if (an->name != NULL && an->stream == stream)
    {
      if (an->first < 0)
        an->first = start;
      an->last = start + gpu_dur;
    }

  /* Kineto writes the GPU op before the call that launched it. */
  write_gpu_op (g, w, stream, start, gpu_dur, correlation, external_id, nelems, seq);
  write_runtime (g, th, w->api, ts, dur, correlation, external_id, 's');
  g->counts.flow_pairs++;
  g->counts.launches++;
}

static void
do_work (Gen    *g,
         Thread *th,
         WorkId  id)
{
  if (id == W_SYNC)
    runtime_only (g, th, API_STREAM_SYNCHRONIZE, g->stream_free[0]);
  else
    launch (g, th, id, 0, 0);
}

/* A user annotation whose GPU work also appears on STREAM. */
static void
annotated_begin (Gen        *g,
                 Thread     *th,
                 const char *name,
                 guint       stream)
{
  guint index = op_begin (g, th, CHRONO_EXAMPLE_CAT_USER_ANNOTATION, name, NULL, -1);

  th->annotation = (Annotation) {
    .external_id = rec_at (th, index)->u.op.external_id,
    .stream = stream,
    .first = -1,
    .name = name,
  };
}

static void
annotated_end (Gen    *g,
               Thread *th)
{
  Annotation *an = &th->annotation;

  if (an->first >= 0)
    {
      span_header (g, &g->gpu_annotations, CHRONO_EXAMPLE_CAT_GPU_USER_ANNOTATION, an->name,
                   g->device, g->stream_ids[an->stream], an->first - 1, an->last - an->first + 2);
      PUT (&g->gpu_annotations, "\"External id\": ");
      put_i64 (&g->gpu_annotations, an->external_id);
      event_footer (&g->gpu_annotations);
    }
  an->name = NULL;
  span_end (g, th, FALSE);
}

/* -------------------------------------------------------------------- */
/* Programs                                                             */

static void
op_start (Gen             *g,
          Thread          *th,
          const OpLine    *line,
          const TapeEntry *node)
{
  gint64 sequence = -1;
  Rec *r;

  if (line->flags & OP_AUTOGRAD)
    sequence = ++g->sequence;
  else if (line->flags & OP_NODE)
    sequence = node->sequence;
  r = rec_at (th, op_begin (g, th, CHRONO_EXAMPLE_CAT_CPU_OP, line->name, line->shapes, sequence));
  r->u.op.backward_node = (line->flags & OP_NODE) != 0;

  if (line->flags & OP_AUTOGRAD)
    {
      TapeEntry e = {
        .backward = line->backward,
        .sequence = sequence,
        .flow_id = ++g->fwdbwd_id,
        .alloc_mark = g->allocs->len,
      };

      g_array_append_val (g->tape, e);
      flow_rec (th, REC_FLOW_START, e.flow_id);
    }
  if (line->flags & OP_FLOW_END)
    flow_rec (th, REC_FLOW_END, node->flow_id);
  if (line->alloc_mib > 0)
    alloc_activation (g, th, line->alloc_mib);
}

static void
op_finish (Gen          *g,
           Thread       *th,
           const OpLine *line)
{
  for (guint i = 0; i < G_N_ELEMENTS (line->work) && line->work[i] != W_NONE; i++)
    do_work (g, th, line->work[i]);
  span_end (g, th, (line->flags & OP_TRIVIAL) != 0);
}

/* Runs a program on TH. NODE is the tape entry a backward program runs
 * for, NULL otherwise. */
static void
run_program (Gen             *g,
             Thread          *th,
             const OpLine    *program,
             const TapeEntry *node)
{
  const OpLine *open[MAX_DEPTH];
  guint depth = 0;

  for (const OpLine *line = program; line->name != NULL; line++)
    {
      while (depth > line->depth)
        op_finish (g, th, open[--depth]);
      open[depth++] = line;
      op_start (g, th, line, node);
    }
  while (depth > 0)
    op_finish (g, th, open[--depth]);
}

/* DDP's bucket all-reduce, from the autograd thread. */
static void
all_reduce (Gen    *g,
            Thread *th,
            gint64  nelems)
{
  guint nccl = g->opts.n_streams;
  gint64 seq = ++g->collective_seq;
  Rec *r = rec_at (th, op_begin (g, th, CHRONO_EXAMPLE_CAT_CPU_OP, "record_param_comms", NULL, -1));

  r->u.op.collective_nelems = nelems;
  r->u.op.collective_seq = seq;
  annotated_begin (g, th, "nccl:all_reduce", nccl);
  runtime_only (g, th, API_STREAM_IS_CAPTURING, 0);
  for (guint s = 0; s < g->opts.n_streams; s++)
    {
      runtime_only (g, th, API_EVENT_RECORD, 0);
      stream_wait (g, th, nccl, s);
    }
  launch (g, th, W_ALL_REDUCE, nelems, seq);
  runtime_only (g, th, API_EVENT_RECORD, 0);
  annotated_end (g, th);
  span_end (g, th, FALSE);
  g->counts.collectives++;

  /* the reducer polls for completion outside any op */
  for (gint64 n = rng_range (&g->rng, 1, 3); n > 0; n--)
    runtime_only (g, th, API_EVENT_QUERY, 0);
}

static void
forward (Gen *g)
{
  Thread *th = &g->main_thread;

  annotated_begin (g, th, "DistributedDataParallel.forward", 0);
  python_begin (g, th, "nn.Module: GPT_0", 0);
  for (guint layer = 0; layer < g->n_layers; layer++)
    {
      guint first_entry = g->tape->len;

      python_begin (g, th, g->block_names[layer], layer + 1);
      for (guint i = 0; block_fwd[i] != NULL; i++)
        run_program (g, th, block_fwd[i], NULL);
      span_end (g, th, FALSE);

      /* backward reaches this layer's first node last */
      if (layer % g->bucket_layers == 0)
        g_array_index (g->tape, TapeEntry, first_entry).bucket_layers = MIN (g->bucket_layers, g->n_layers - layer);
    }
  run_program (g, th, layer_norm_fwd, NULL);
  run_program (g, th, linear_fwd, NULL);
  span_end (g, th, FALSE);
  annotated_end (g, th);
  run_program (g, th, loss_fwd, NULL);
}

/* The main thread waits in Python while the autograd thread runs the
 * tape backwards. */
static void
backward (Gen *g)
{
  Thread *main_thread = &g->main_thread;
  Thread *th = &g->autograd_thread;

  python_begin (g, main_thread, "torch/_tensor.py(522): backward", -1);
  python_begin (g, main_thread, "torch/autograd/__init__.py(266): backward", -1);
  python_begin (g, main_thread, "torch/autograd/graph.py(768): _engine_run_backward", -1);

  th->t = main_thread->t + rng_range (&g->rng, 5000, 20000);
  for (guint i = g->tape->len; i > 0; i--)
    {
      const TapeEntry *e = &g_array_index (g->tape, TapeEntry, i - 1);

      run_program (g, th, backwards[e->backward].program, e);
      free_activations (g, th, e->alloc_mark);
      for (guint p = 0; p < backwards[e->backward].n_params; p++)
        run_program (g, th, accumulate_grad, NULL);
      if (e->bucket_layers > 0 && g->opts.world_size > 1)
        all_reduce (g, th, e->bucket_layers * PARAMS_PER_LAYER);
    }
  main_thread->t = th->t + rng_range (&g->rng, 3000, 12000);

  for (guint i = 0; i < 3; i++)
    span_end (g, main_thread, FALSE);
}

static void
optimizer (Gen *g)
{
  Thread *th = &g->main_thread;

  annotated_begin (g, th, "Optimizer.step#AdamW.step", 0);
  /* the gradients are ready once the other streams are */
  for (guint s = 1; s <= g->opts.n_streams; s++)
    if (s < g->opts.n_streams || g->opts.world_size > 1)
      stream_wait (g, th, 0, s);
  python_begin (g, th, "torch/optim/adamw.py(209): step", -1);
  run_program (g, th, optimizer_step, NULL);
  span_end (g, th, FALSE);
  annotated_end (g, th);
}

static void
zero_grad (Gen *g)
{
  Thread *th = &g->main_thread;

  op_begin (g, th, CHRONO_EXAMPLE_CAT_USER_ANNOTATION, "Optimizer.zero_grad#AdamW.zero_grad", NULL, -1);
  run_program (g, th, zero_grad_ops, NULL);
  span_end (g, th, FALSE);
}

static gboolean
run_step (Gen     *g,
          GError **error)
{
  Thread *th = &g->main_thread;
  guint input_mark = g->allocs->len;

  g_snprintf (g->step_name, sizeof g->step_name, "ProfilerStep#%u", g->step++);
  g_array_set_size (g->tape, 0);

  op_begin (g, th, CHRONO_EXAMPLE_CAT_USER_ANNOTATION, g->step_name, NULL, -1);
  run_program (g, th, input_copy, NULL);
  zero_grad (g);
  forward (g);
  backward (g);
  optimizer (g);
  if (g->step <= KEPT_OUTPUTS_MAX)
    keep_output (g);
  run_program (g, th, loss_item, NULL);
  if (g->reserved + FRAGMENT_BYTES <= FRAGMENTED_MAX)
    g->reserved += FRAGMENT_BYTES;
  free_activations (g, th, input_mark);
  span_end (g, th, FALSE);
  g->counts.steps++;

  /* Kineto's order: CPU events per thread, GPU activity, GPU annotations */
  write_recs (g, &g->main_thread);
  write_recs (g, &g->autograd_thread);
  g->autograd_thread.t = th->t;
  return sink_write (&g->sink, &g->out, error) &&
         sink_write (&g->sink, &g->gpu, error) &&
         sink_write (&g->sink, &g->gpu_annotations, error);
}

/* -------------------------------------------------------------------- */
/* Header and trailer                                                   */

static void
write_header (Gen *g)
{
  Buf *b = &g->out;
  char trace_id[33];

  for (guint i = 0; i < 32; i++)
    trace_id[i] = "0123456789ABCDEF"[rng_next (&g->rng) % 16];
  trace_id[32] = '\0';

  /* newest Kineto: indented root, metadata keys before the events */
  PUT (b, "\n  {\n    \"schemaVersion\": 1,\n    \"deviceProperties\": [\n");
  for (guint d = 0; d < g->n_devices; d++)
    {
      PUT (b, "    {\n      \"id\": ");
      put_u64 (b, d);
      PUT (b, ", \"name\": \"NVIDIA H100 80GB HBM3\", \"totalGlobalMem\": 85031714816,\n"
           "      \"computeMajor\": 9, \"computeMinor\": 0,\n"
           "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
           "      \"regsPerBlock\": 65536, \"warpSize\": 32,\n"
           "      \"sharedMemPerBlock\": 49152, \"numSms\": 132\n"
           "    , \"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": 232448, \"sharedMemPerMultiprocessor\": 233472\n"
           "    }");
      if (d + 1 < g->n_devices)
        PUT (b, ",");
      PUT (b, "\n");
    }
  PUT (b, "    ],\n    \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": ");
  put_u64 (b, g->opts.rank);
  PUT (b, ", \"world_size\": ");
  put_u64 (b, g->opts.world_size);
  PUT (b, ", \"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", "
       "\"backend_config\": \"cuda:nccl\", \"pg_size\": ");
  put_u64 (b, g->opts.world_size);
  PUT (b, ", \"ranks\": ");
  put_str (b, g->ranks);
  PUT (b, "}], \"nccl_version\": \"2.21.5\"},\n"
       "      \"cuda_driver_version\": 12040,\n"
       "      \"cuda_runtime_version\": 12040,\n"
       "      \"cupti_version\": 22,\n"
       "    \"record_shapes\": 1,\n"
       "    \"with_stack\": 1,\n"
       "    \"trace_id\": \"");
  put (b, trace_id, 32);
  PUT (b, "\",\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": ");
  put_i64 (b, g->counts.base_time_ns);
  PUT (b, ",\n  \"traceEvents\": [\n");

  write_meta_string (g, "process_name", g->pid, 0, "name", "python3");
  write_meta_string (g, "process_labels", g->pid, 0, "labels", "CPU");
  write_meta_int (g, "process_sort_index", g->pid, 0, "sort_index", g->pid);
  for (guint d = 0; d < g->n_devices; d++)
    {
      char label[16];

      g_snprintf (label, sizeof label, "GPU %u", d);
      write_meta_string (g, "process_name", d, 0, "name", "python3");
      write_meta_string (g, "process_labels", d, 0, "labels", label);
      write_meta_int (g, "process_sort_index", d, 0, "sort_index", GPU_SORT_BASE + d);
    }
  for (guint s = 0; s < g->opts.n_streams + (g->opts.world_size > 1); s++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "stream %u ", g->stream_ids[s]);
      write_meta_string (g, "thread_name", g->device, g->stream_ids[s], "name", name);
      write_meta_int (g, "thread_sort_index", g->device, g->stream_ids[s], "sort_index", g->stream_ids[s]);
    }
  write_thread_names (g, &g->main_thread, "pt_main_thread");
  write_thread_names (g, &g->autograd_thread, "pt_main_thread");
}

static void
write_trailer (Gen *g)
{
  Buf *b = &g->out;
  gint64 end = MAX (g->main_thread.t, g->autograd_thread.t);

  for (guint s = 0; s <= g->opts.n_streams; s++)
    end = MAX (end, g->stream_free[s]);
  end += rng_range (&g->rng, 100000, 900000);

  /* As in real files: a process_sort_index again, and the autograd
   * thread renamed after it was first named like the main thread. */
  write_meta_int (g, "process_sort_index", g->device, 0, "sort_index", GPU_SORT_BASE + g->device);
  write_thread_names (g, &g->autograd_thread, "pt_autograd_0");

  count_event (g, 'X');
  g->counts.spans[CHRONO_EXAMPLE_CAT_TRACE]++;
  PUT (b, "  {\n    \"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ");
  put_us (b, g->trace_start);
  PUT (b, ", \"dur\": ");
  put_us (b, end - g->trace_start);
  PUT (b, ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n"
       "    \"name\": \"PyTorch Profiler (0)\",\n    \"args\": {\n      \"Op count\": 0\n    }\n  },\n");

  count_event (g, 'M');
  PUT (b, "  {\n    \"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": ");
  put_us (b, g->trace_start);
  PUT (b, ",\n    \"pid\": \"Spans\", \"tid\": 0,\n    \"args\": {\n      \"sort_index\": 536870912\n    }\n  },\n");

  count_event (g, 'i');
  PUT (b, "  {\n    \"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\",\n"
       "    \"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", \"ts\": ");
  put_us (b, g->trace_start);
  PUT (b, "\n  },\n");

  count_event (g, 'i');
  PUT (b, "  {\n    \"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n"
       "    \"pid\": \"\", \"tid\": \"\", \"ts\": ");
  put_us (b, end + rng_range (&g->rng, 1000000, 5000000));
  PUT (b, "\n  }\n  ],\n  \"traceName\": \"/tmp/libkineto_activities_");
  put_i64 (b, g->pid);
  PUT (b, ".json\"\n}\n");
}

/* -------------------------------------------------------------------- */
/* Setup                                                                */

static void
thread_init (Thread *th,
             gint64  tid,
             gint64  t)
{
  th->tid = tid;
  th->t = t;
  th->recs = g_array_sized_new (FALSE, TRUE, sizeof (Rec), 4096);
}

static void
gen_init (Gen                        *g,
          const ChronoExampleOptions *options)
{
  /* Everything but timing and ids comes from the seed alone, so the ranks
   * of one seed describe the same job. */
  guint64 layout = options->seed;
  g_autoptr(GString) ranks = g_string_new ("[");
  gint64 quarter;

  g->opts = *options;
  g->rng = options->seed ^ (G_GUINT64_CONSTANT (0xd1b54a32d192ed03) * (options->rank + 1));

  g->n_layers = rng_range (&layout, 6, 12);
  g->bucket_layers = rng_range (&layout, 1, 2);
  quarter = rng_range (&layout, 216, 224);
  g->counts.base_time_ns = quarter * QUARTER_NS;
  g->trace_start = rng_range (&layout, 1, 80) * DAY_NS + rng_range (&layout, 0, DAY_NS);
  g->trace_start += rng_range (&g->rng, 0, 300000);
  g->step = rng_range (&layout, 1, 9);
  g->record_function_offset = rng_range (&layout, 20, 200);
  g->external_id = rng_range (&layout, 200, 5000);

  g->device = options->rank % MAX_DEVICES;
  g->n_devices = MIN (options->world_size, MAX_DEVICES);
  g->pid = rng_range (&g->rng, 100000, 3999999);
  thread_init (&g->main_thread, g->pid, g->trace_start + rng_range (&g->rng, 2000000, 6000000));
  thread_init (&g->autograd_thread, g->pid + rng_range (&g->rng, 3000, 9000), g->main_thread.t);
  for (guint s = 0; s < options->n_streams; s++)
    g->stream_ids[s] = 7 + 6 * s;
  g->stream_ids[options->n_streams] = g->stream_ids[options->n_streams - 1] + 10;
  for (guint s = 0; s <= options->n_streams; s++)
    g->stream_free[s] = g->trace_start;
  g->correlation = rng_range (&g->rng, 1000, 90000);

  g->block_names = g_new0 (char *, g->n_layers + 1);
  for (guint l = 0; l < g->n_layers; l++)
    g->block_names[l] = g_strdup_printf ("nn.Module: Block_%u", l);
  for (guint r = 0; r < options->world_size; r++)
    g_string_append_printf (ranks, r > 0 ? ", %u" : "%u", r);
  g_string_append_c (ranks, ']');
  g->ranks = g_string_free (g_steal_pointer (&ranks), FALSE);

  /* weights, gradients and two Adam moments in fp32 */
  g->allocated = (g->n_layers * PARAMS_PER_LAYER + 4096 * 50304) * 16;
  g->reserved = (g->allocated + RESERVE_CHUNK - 1) / RESERVE_CHUNK * RESERVE_CHUNK;
  g->allocs = g_array_new (FALSE, FALSE, sizeof (Alloc));
  g->tape = g_array_new (FALSE, TRUE, sizeof (TapeEntry));
}

static void
gen_clear (Gen *g)
{
  g_clear_pointer (&g->main_thread.recs, g_array_unref);
  g_clear_pointer (&g->autograd_thread.recs, g_array_unref);
  g_clear_pointer (&g->allocs, g_array_unref);
  g_clear_pointer (&g->tape, g_array_unref);
  g_clear_pointer (&g->block_names, g_strfreev);
  g_clear_pointer (&g->ranks, g_free);
  g_clear_pointer (&g->out.data, g_free);
  g_clear_pointer (&g->gpu.data, g_free);
  g_clear_pointer (&g->gpu_annotations.data, g_free);
}

void
chrono_example_options_init (ChronoExampleOptions *options)
{
  *options = (ChronoExampleOptions) {
    .target_bytes = 40 * 1000 * 1000,
    .n_steps = 0,
    .rank = 0,
    .world_size = 8,
    .seed = 1,
    .n_streams = 2,
    .gzip = FALSE,
  };
}

const char *
chrono_example_cat_to_string (ChronoExampleCat cat)
{
  g_return_val_if_fail (cat < CHRONO_EXAMPLE_N_CATS, NULL);
  return cat_names[cat];
}

static gboolean
check_options (const ChronoExampleOptions  *o,
               GError                     **error)
{
  const char *problem = NULL;

  if (o->n_steps == 0 && o->target_bytes == 0)
    problem = "either a size or a number of steps is needed";
  else if (o->world_size < 1 || o->world_size > MAX_WORLD_SIZE)
    problem = "the world size must be between 1 and 1024";
  else if (o->rank >= o->world_size)
    problem = "the rank must be below the world size";
  else if (o->n_streams < 1 || o->n_streams > MAX_STREAMS)
    problem = "the number of streams must be between 1 and 8";
  if (problem != NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "Invalid example options: %s", problem);
  return problem == NULL;
}

gboolean
chrono_example_trace_write (const char                  *path,
                            const ChronoExampleOptions  *options,
                            ChronoExampleCounts         *counts_out,
                            GError                     **error)
{
  ChronoExampleOptions defaults;
  Gen g = { 0 };
  gboolean opened, ok;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (options == NULL)
    {
      chrono_example_options_init (&defaults);
      options = &defaults;
    }
  if (!check_options (options, error))
    return FALSE;

  gen_init (&g, options);
  ok = opened = sink_open (&g.sink, path, options->gzip, error);
  if (ok)
    {
      write_header (&g);
      do
        ok = run_step (&g, error);
      while (ok && (options->n_steps > 0 ? g.counts.steps < options->n_steps
                                         : g.sink.bytes + TRAILER_BYTES < options->target_bytes));
    }
  if (ok)
    {
      write_trailer (&g);
      ok = sink_write (&g.sink, &g.out, error) && sink_finish (&g.sink, error);
    }
  sink_close (&g.sink);
  g.counts.uncompressed_bytes = g.sink.bytes;
  g.counts.file_bytes = g.sink.file_bytes;
  if (!ok && opened)
    g_unlink (path);
  else if (counts_out != NULL)
    *counts_out = g.counts;
  gen_clear (&g);
  return ok;
}
