/* chrono-communication.c: which names are communication between devices
 *
 * One table for every importer, so that a DeepEP dispatch or a multimem
 * all-reduce counts as communication wherever it was recorded. Names are
 * matched on the namespace or prefix their library gives them, never on a
 * bare word: "reduce" or "combine" alone is what many compute kernels are
 * called (at::native::reduce_kernel, flash_fwd_mla_combine_kernel). Each
 * entry's example and source are in docs/communication.md. The first
 * entry that matches names the family.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-communication.h"

typedef enum {
  AT_START,   /* the name, without its return type, starts with the pattern */
  ANYWHERE,   /* the pattern is anywhere in the name */
} Where;

typedef struct {
  const char *family;
  const char *pattern;
  Where       where;
} Pattern;

static const Pattern patterns[] = {
  /* NCCL kernels before 2.19 (ncclKernel_AllReduce_RING_LL_Sum_float) and
   * since (ncclDevKernel_AllGather_RING_LL, ncclDevKernel_Generic_1, which
   * RCCL launches too); ProcessGroupNCCL's nccl:all_reduce annotations. */
  { "NCCL", "ncclKernel", AT_START },
  { "NCCL", "ncclDevKernel", AT_START },
  { "NCCL", "nccl:", AT_START },
  /* RCCL's own kernels and its MSCCL algorithms (mscclKernel_Sum_...),
   * and MSCCL++ (mscclpp::...). */
  { "RCCL", "rccl", AT_START },
  { "RCCL", "msccl", AT_START },
  /* NVSHMEM's device-initiated collectives and proxies (nvshmemi_...). */
  { "NVSHMEM", "nvshmem", AT_START },
  /* DeepEP's expert-parallel kernels: notify, dispatch, combine, barriers.
   * Its deep_ep::layout:: kernels compute a plan and are not listed. */
  { "DeepEP", "deep_ep::intranode::", AT_START },
  { "DeepEP", "deep_ep::internode::", AT_START },
  { "DeepEP", "deep_ep::internode_ll::", AT_START },
  /* DeepSeek's own build of it, in their published training profile. */
  { "DeepEP", "dpsk::ep::intranode::", AT_START },
  { "DeepEP", "dpsk::ep::internode::", AT_START },
  { "DeepEP", "dpsk::ep::internode_ll::", AT_START },
  /* PyTorch symmetric memory: multicast (multimem_*) and peer-to-peer
   * one- and two-shot all-reduce, in an anonymous namespace. */
  { "symmetric memory", "multimem_", AT_START },
  { "symmetric memory", "one_shot_all_reduce", AT_START },
  { "symmetric memory", "two_shot_all_reduce", AT_START },
  /* vLLM's custom all-reduce, which SGLang's sgl-kernel keeps under the
   * same namespace. */
  { "vLLM/SGLang custom all-reduce", "vllm::cross_device_reduce_", AT_START },
  /* AMD AITER's port of it, which vLLM and SGLang use on ROCm. */
  { "AITER custom all-reduce", "aiter::cross_device_reduce_", AT_START },
  /* sgl-kernel's port of TensorRT-LLM's custom all-reduce. */
  { "SGLang custom all-reduce", "trt_llm::oneShotAllReduce", AT_START },
  { "SGLang custom all-reduce", "trt_llm::twoShotAllReduce", AT_START },
  /* TensorRT-LLM's custom and fused all-reduce. */
  { "TensorRT-LLM all-reduce", "tensorrt_llm::kernels::oneShotAllReduce", AT_START },
  { "TensorRT-LLM all-reduce", "tensorrt_llm::kernels::twoShotAllReduce", AT_START },
  { "TensorRT-LLM all-reduce", "tensorrt_llm::kernels::ar_fusion::", AT_START },
  /* FlashInfer's ports of them (trtllm_allreduce, trtllm_allreduce_fusion). */
  { "FlashInfer all-reduce", "flashinfer::trtllm_allreduce", AT_START },
  /* PyTorch's collective ops (c10d::allreduce_) and their kernels, and the
   * op that records a collective's parameters. */
  { "c10d", "c10d::", AT_START },
  { "c10d", "record_param_comms", AT_START },
  /* The annotations of the Gloo and HCCL (Gaudi) process groups. */
  { "Gloo", "gloo:", AT_START },
  { "HCCL", "hccl:", AT_START },
  /* Ascend HCCL's collectives on the NPU (hcom_allReduce__271_0_1). */
  { "HCCL", "hcom_", AT_START },
  /* Neuron system profiles' collective events (cc_exec, ...). */
  { "Neuron collectives", "cc_", AT_START },
  /* All-to-all under any other name, such as TorchRec's
   * "## alltoall_fwd_single ##" annotations; last, so that the entries
   * above name their own (nccl:all_to_all, c10d::alltoall_base_). */
  { "all-to-all", "all_to_all", ANYWHERE },
  { "all-to-all", "alltoall", ANYWHERE },
};

static gboolean
has_prefix (const char *s,
            gsize       len,
            const char *prefix)
{
  gsize n = strlen (prefix);

  return len >= n && memcmp (s, prefix, n) == 0;
}

const char *
chrono_communication_family (const char *name,
                             gsize       len)
{
  static const char * const skip[] = { "void ", "(anonymous namespace)::" };

  /* Kernels are demangled with their return type, always void, and some
   * live in an anonymous namespace. */
  for (guint i = 0; i < G_N_ELEMENTS (skip); i++)
    if (has_prefix (name, len, skip[i]))
      {
        name += strlen (skip[i]);
        len -= strlen (skip[i]);
      }
  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    {
      const Pattern *p = &patterns[i];

      if (p->where == AT_START ? has_prefix (name, len, p->pattern)
                               : memmem (name, len, p->pattern, strlen (p->pattern)) != NULL)
        return p->family;
    }
  return NULL;
}
