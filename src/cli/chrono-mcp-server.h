/* chrono-mcp-server.h: a Model Context Protocol server over JSON-RPC lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-mcp-roots.h"

G_BEGIN_DECLS

#define CHRONO_MCP_TYPE_SERVER (chrono_mcp_server_get_type ())
G_DECLARE_FINAL_TYPE (ChronoMcpServer, chrono_mcp_server, CHRONO_MCP, SERVER, GObject)

/* Reads traces under ROOTS (taken), keeping at most MEMORY_LIMIT bytes of
 * them loaded. */
ChronoMcpServer *chrono_mcp_server_new         (ChronoMcpRoots  *roots,
                                                gsize            memory_limit);
/* The answer to one message (NULL for a notification or a response). */
JsonNode        *chrono_mcp_server_handle_line (ChronoMcpServer *self,
                                                const char      *line,
                                                gsize            length);
/* Serves messages read from IN_FD, answering on OUT_FD, until IN_FD
 * closes. Logs go to standard error. FALSE when OUT_FD could not be
 * written to. */
gboolean         chrono_mcp_server_run         (ChronoMcpServer *self,
                                                int              in_fd,
                                                int              out_fd);

G_END_DECLS
