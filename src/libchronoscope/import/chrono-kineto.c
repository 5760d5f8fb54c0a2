/* chrono-kineto.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-communication.h"
#include "chrono-kineto.h"

typedef struct {
  const char *cat;
  ChronoKind  kind;
} CategoryKind;

/* Current, legacy (capitalised, 2020-2022) and other backends' spellings. */
static const CategoryKind categories[] = {
  { "cpu_op", CHRONO_KIND_HOST_OP },
  { "Operator", CHRONO_KIND_HOST_OP },
  { "hpu_op", CHRONO_KIND_HOST_OP },
  { "python_function", CHRONO_KIND_PYTHON },
  { "user_annotation", CHRONO_KIND_ANNOTATION },
  { "cuda_runtime", CHRONO_KIND_RUNTIME },
  { "Runtime", CHRONO_KIND_RUNTIME },
  { "xpu_runtime", CHRONO_KIND_RUNTIME },
  { "mtia_runtime", CHRONO_KIND_RUNTIME },
  { "privateuse1_runtime", CHRONO_KIND_RUNTIME },
  { "glow_runtime", CHRONO_KIND_RUNTIME },
  { "cuda_driver", CHRONO_KIND_DRIVER },
  { "xpu_driver", CHRONO_KIND_DRIVER },
  { "privateuse1_driver", CHRONO_KIND_DRIVER },
  { "kernel", CHRONO_KIND_KERNEL },
  { "Kernel", CHRONO_KIND_KERNEL },
  { "mtia_ccp_events", CHRONO_KIND_KERNEL },
  { "gpu_memcpy", CHRONO_KIND_MEMCPY },
  { "Memcpy", CHRONO_KIND_MEMCPY },
  { "gpu_memset", CHRONO_KIND_MEMSET },
  { "Memset", CHRONO_KIND_MEMSET },
  { "cuda_sync", CHRONO_KIND_SYNC },
  { "xpu_sync", CHRONO_KIND_SYNC },
  { "gpu_user_annotation", CHRONO_KIND_GPU_ANNOTATION },
  { "collective_comm", CHRONO_KIND_COLLECTIVE },
  { "overhead", CHRONO_KIND_OVERHEAD },
  { "Trace", CHRONO_KIND_TRACE },
};

/* Ascend's task types that are not kernels, as CANN's profiler writes
 * them in the "Task Type" of a task. */
static const CategoryKind task_types[] = {
  { "PCIE_DMA_SQE", CHRONO_KIND_MEMCPY },
  { "SDMA_SQE", CHRONO_KIND_MEMCPY },
  { "EVENT_RECORD_SQE", CHRONO_KIND_SYNC },
  { "EVENT_WAIT_SQE", CHRONO_KIND_SYNC },
  { "NOTIFY_RECORD_SQE", CHRONO_KIND_SYNC },
  { "NOTIFY_WAIT_SQE", CHRONO_KIND_SYNC },
  { "PLACE_HOLDER_SQE", CHRONO_KIND_SYNC },
  /* HCCL's steps, on the stream of the collective they make up. */
  { "Notify Wait", CHRONO_KIND_OTHER },
  { "Notify Record", CHRONO_KIND_OTHER },
  { "Write Value", CHRONO_KIND_OTHER },
  { "SDMA", CHRONO_KIND_OTHER },
  { "RDMA", CHRONO_KIND_OTHER },
  { "Memcpy", CHRONO_KIND_OTHER },
  { "Reduce Inline", CHRONO_KIND_OTHER },
  { "Reduce TBE", CHRONO_KIND_OTHER },
};

static gboolean
has_prefix (const char *s,
            gsize       len,
            const char *prefix)
{
  gsize n = strlen (prefix);
  return len >= n && memcmp (s, prefix, n) == 0;
}

static gboolean
contains (const char *s,
          gsize       len,
          const char *needle)
{
  return memmem (s, len, needle, strlen (needle)) != NULL;
}

static ChronoKind
kind_in (const CategoryKind *table,
         guint               n,
         const char         *cat,
         gsize               len,
         ChronoKind          otherwise)
{
  for (guint i = 0; i < n; i++)
    if (strlen (table[i].cat) == len && memcmp (table[i].cat, cat, len) == 0)
      return table[i].kind;
  return otherwise;
}

static ChronoKind
kind_of_category (const char *cat,
                  gsize       len)
{
  return kind_in (categories, G_N_ELEMENTS (categories), cat, len, CHRONO_KIND_OTHER);
}

ChronoKind
chrono_kineto_task_kind (const char *type,
                         gsize       len)
{
  return kind_in (task_types, G_N_ELEMENTS (task_types), type, len, CHRONO_KIND_KERNEL);
}

gboolean
chrono_kineto_kind_is_device (ChronoKind kind)
{
  switch (kind)
    {
    case CHRONO_KIND_KERNEL:
    case CHRONO_KIND_MEMCPY:
    case CHRONO_KIND_MEMSET:
    case CHRONO_KIND_SYNC:
    case CHRONO_KIND_GPU_ANNOTATION:
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
chrono_kineto_kind_is_host (ChronoKind kind)
{
  switch (kind)
    {
    case CHRONO_KIND_HOST_OP:
    case CHRONO_KIND_PYTHON:
    case CHRONO_KIND_ANNOTATION:
    case CHRONO_KIND_STEP:
    case CHRONO_KIND_RUNTIME:
    case CHRONO_KIND_DRIVER:
    case CHRONO_KIND_ASYNC:
    case CHRONO_KIND_OVERHEAD:
      return TRUE;
    default:
      return FALSE;
    }
}

ChronoKind
chrono_kineto_classify (const char *cat,
                        gsize       cat_len,
                        const char *name,
                        gsize       name_len,
                        gboolean   *on_device)
{
  ChronoKind kind = CHRONO_KIND_OTHER;
  const char *p = cat;
  const char *end = cat + cat_len;

  while (p <= end && kind == CHRONO_KIND_OTHER)
    {
      const char *comma = memchr (p, ',', end - p);
      const char *stop = comma ? comma : end;

      kind = kind_of_category (p, stop - p);
      p = stop + 1;
    }
  *on_device = chrono_kineto_kind_is_device (kind);

  if (has_prefix (name, name_len, "ProfilerStep#") &&
      (kind == CHRONO_KIND_ANNOTATION || kind == CHRONO_KIND_HOST_OP || kind == CHRONO_KIND_OTHER))
    return CHRONO_KIND_STEP;

  switch (kind)
    {
    case CHRONO_KIND_HOST_OP:
    case CHRONO_KIND_ANNOTATION:
    case CHRONO_KIND_KERNEL:
    case CHRONO_KIND_GPU_ANNOTATION:
      if (chrono_communication_family (name, name_len) != NULL)
        return CHRONO_KIND_COLLECTIVE;
      break;
    default:
      break;
    }
  return kind;
}

gboolean
chrono_kineto_args_are_collective (const char *args,
                                   gsize       len)
{
  return contains (args, len, "\"Collective name\"");
}

gint
chrono_kineto_device_from_label (const char *label)
{
  static const char * const prefixes[] = { "GPU ", "MTIA ", "XPU ", "HPU ", "NPU ", "Neuron " };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    {
      gsize n = strlen (prefixes[i]);
      if (strncmp (label, prefixes[i], n) == 0 && g_ascii_isdigit (label[n]))
        return (gint) g_ascii_strtoll (label + n, NULL, 10);
    }
  return -1;
}
