/* chrono-format.h: numbers and durations as people read them, for the
 * application and the CLI alike
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *chrono_format_count    (guint64 count);
char *chrono_format_duration (gint64  ns);
/* A difference in time: "+1.200 ms", "−300.000 µs", or "0 ns" unsigned. */
char *chrono_format_duration_change (gdouble ns);
char *chrono_format_bytes    (guint64 bytes);
/* A C++ function signature as a kernel's name reads it
 * ("void at::native::kernel<4, Functor<float> >(int, Array<char*, 1>)")
 * shortened to what tells kernels apart: no return type, template and
 * call arguments collapsed ("at::native::kernel<…>(…)"). NULL when NAME
 * is no such signature and reads as it is. */
char *chrono_format_short_name (const char *name);
/* "40MB", "1.5GB", "512KiB", "1000000" to bytes. */
gboolean chrono_format_parse_size (const char  *text,
                                   guint64     *bytes,
                                   GError     **error);

G_END_DECLS
