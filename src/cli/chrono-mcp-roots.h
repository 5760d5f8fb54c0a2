/* chrono-mcp-roots.h: the folders the server may read traces from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _ChronoMcpRoots ChronoMcpRoots;

/* DIRS: existing folders (NULL-terminated). NULL with an error naming the
 * first that is not a folder. */
ChronoMcpRoots *chrono_mcp_roots_new      (const char * const *dirs,
                                           GError            **error);
void            chrono_mcp_roots_free     (ChronoMcpRoots     *roots);

/* The real path of PATH (relative paths are taken from the first root),
 * when it and, for a folder, everything a trace set would read below it
 * resolve inside a root once every symbolic link is followed. NULL with a
 * message saying why otherwise. */
char           *chrono_mcp_roots_resolve  (ChronoMcpRoots     *roots,
                                           const char         *path,
                                           GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoMcpRoots, chrono_mcp_roots_free)

G_END_DECLS
