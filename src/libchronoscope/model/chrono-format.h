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
char *chrono_format_megabytes (guint64 bytes);
/* "40MB", "1.5GB", "512KiB", "1000000" to bytes. */
gboolean chrono_format_parse_size (const char  *text,
                                   guint64     *bytes,
                                   GError     **error);

G_END_DECLS
