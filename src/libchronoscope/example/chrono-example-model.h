/* chrono-example-model.h: what the example trace's model runs: CUDA
 * runtime calls, GPU work and the operator programs of a training step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-example-trace.h"

G_BEGIN_DECLS

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

/* A CUDA runtime call with its CUPTI callback id and usual cost (ns). */
typedef struct {
  const char *name;
  guint       cbid;
  gint64      dur_lo, dur_hi;
} ApiCall;

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

/* What a backward node runs. */
typedef struct {
  const OpLine *program;
  guint         n_params;   /* AccumulateGrad nodes that follow */
} BackwardProgram;

extern const ApiCall         chrono_example_apis[];
extern const GpuWork         chrono_example_works[];
extern const BackwardProgram chrono_example_backwards[];

/* Programs end with a line whose name is NULL; block_fwd is a NULL-ended
 * list of the programs of one transformer block. */
extern const OpLine *const   chrono_example_block_fwd[];
extern const OpLine          chrono_example_layer_norm_fwd[];
extern const OpLine          chrono_example_linear_fwd[];
extern const OpLine          chrono_example_loss_fwd[];
extern const OpLine          chrono_example_input_copy[];
extern const OpLine          chrono_example_zero_grad_ops[];
extern const OpLine          chrono_example_optimizer_step[];
extern const OpLine          chrono_example_loss_item[];
extern const OpLine          chrono_example_accumulate_grad[];

G_END_DECLS
