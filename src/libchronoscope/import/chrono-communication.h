/* chrono-communication.h: which names are communication between devices
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The family of communication ("NCCL", "DeepEP", ...) that a kernel, op
 * or annotation named NAME (LEN bytes, demangled C++ as profilers write
 * it) belongs to, or NULL when it is not communication. The families and
 * their patterns are listed in docs/communication.md. */
const char *chrono_communication_family (const char *name,
                                         gsize       len);

G_END_DECLS
