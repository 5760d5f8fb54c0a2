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
/* How wide a kernel's or operator's name is in lists, tables and
 * titles, in characters. */
#define CHRONO_SHORT_NAME_WIDTH 64
/* NAME (a kernel's, an operator's) as a person tells it apart in a list,
 * in at most BUDGET characters. A C++ signature loses its return type,
 * its parameters and PyTorch's namespaces (c10::, at::native::,
 * (anonymous namespace)::); CUTLASS's launch wrapper shows the kernel it
 * holds ("flash::FlashAttnBwd<…>"); templates too wide are shortened from
 * the inside ("vectorized_elementwise_kernel<4, FillFunctor<…>, …>"),
 * short ones kept ("multimem_all_reduce_kernel<BFloat16, 16>"). Other
 * names (Triton's, NCCL's, Tensile's, C kernels) read as they are. What
 * is still too wide is cut with "…". Shortening twice changes nothing. */
char *chrono_format_short_name (const char *name,
                                guint       budget);
/* TEXT as a cell of a Markdown table row, appended to S: " TEXT |",
 * with its pipes escaped and its line breaks dropped. */
void  chrono_format_markdown_cell (GString    *s,
                                   const char *text);
/* "40MB", "1.5GB", "512KiB", "1000000" to bytes. */
gboolean chrono_format_parse_size (const char  *text,
                                   guint64     *bytes,
                                   GError     **error);

G_END_DECLS
