/* chrono-kineto.h: what PyTorch-profiler (Kineto) categories and names mean
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-types.h"

G_BEGIN_DECLS

/* The kind of a span from its category and name. Categories are a
 * comma-separated list; each is considered. ON_DEVICE tells whether the
 * category runs on an accelerator, also for kernels that the name makes
 * collectives. */
ChronoKind chrono_kineto_classify          (const char *cat,
                                            gsize       cat_len,
                                            const char *name,
                                            gsize       name_len,
                                            gboolean   *on_device);
/* Whether a span of this kind runs on an accelerator stream. */
gboolean   chrono_kineto_kind_is_device    (ChronoKind  kind);
/* Whether a span of this kind is the host's work (an operator, a Python
 * frame, a runtime call, an annotation, a step). */
gboolean   chrono_kineto_kind_is_host      (ChronoKind  kind);
/* The kind of a task on an Ascend NPU stream from its "Task Type": the
 * queue's copies and its event, notify and placeholder entries, HCCL's
 * steps of a collective (shown, but the collective is the work), and
 * kernels for every other type (AI_CORE, MIX_AIV, DSA_SQE, ...). */
ChronoKind chrono_kineto_task_kind         (const char *type,
                                            gsize       len);
/* Whether a kernel's args mark it as a collective ("Collective name"). */
gboolean   chrono_kineto_args_are_collective (const char *args,
                                              gsize       len);
/* Parses a device label such as "GPU 3" or "MTIA 17"; -1 when it is not. */
gint       chrono_kineto_device_from_label (const char *label);

G_END_DECLS
