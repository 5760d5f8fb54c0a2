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

G_END_DECLS
