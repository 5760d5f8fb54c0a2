/* chrono-types.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-types.h"

static const char * const kind_names[CHRONO_N_KINDS] = {
  [CHRONO_KIND_OTHER] = "other",
  [CHRONO_KIND_HOST_OP] = "host_op",
  [CHRONO_KIND_PYTHON] = "python",
  [CHRONO_KIND_ANNOTATION] = "annotation",
  [CHRONO_KIND_STEP] = "step",
  [CHRONO_KIND_RUNTIME] = "runtime",
  [CHRONO_KIND_DRIVER] = "driver",
  [CHRONO_KIND_KERNEL] = "kernel",
  [CHRONO_KIND_MEMCPY] = "memcpy",
  [CHRONO_KIND_MEMSET] = "memset",
  [CHRONO_KIND_SYNC] = "sync",
  [CHRONO_KIND_COLLECTIVE] = "collective",
  [CHRONO_KIND_GPU_ANNOTATION] = "gpu_annotation",
  [CHRONO_KIND_ASYNC] = "async",
  [CHRONO_KIND_OVERHEAD] = "overhead",
  [CHRONO_KIND_TRACE] = "trace",
  [CHRONO_KIND_INSTRUCTION] = "instruction",
  [CHRONO_KIND_DMA] = "dma",
};

const char *
chrono_kind_to_string (ChronoKind kind)
{
  g_return_val_if_fail (kind < CHRONO_N_KINDS, "other");
  return kind_names[kind];
}

const char *
chrono_track_type_to_string (ChronoTrackType type)
{
  switch (type)
    {
    case CHRONO_TRACK_THREAD: return "thread";
    case CHRONO_TRACK_STREAM: return "stream";
    case CHRONO_TRACK_ASYNC: return "async";
    case CHRONO_TRACK_COUNTER: return "counter";
    case CHRONO_TRACK_INSTANTS: return "instants";
    default: return "unknown";
    }
}
