/* chrono-mcp-registry.h: the tools the server offers, and calling them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-mcp-tool.h"

G_BEGIN_DECLS

typedef struct _ChronoMcpRegistry ChronoMcpRegistry;

ChronoMcpRegistry *chrono_mcp_registry_new  (void);
void               chrono_mcp_registry_free (ChronoMcpRegistry *registry);

/* The result of tools/list. */
JsonNode          *chrono_mcp_registry_list (ChronoMcpRegistry *registry);
/* Whether a tool is called NAME. */
gboolean           chrono_mcp_registry_has  (ChronoMcpRegistry *registry,
                                             const char        *name);
/* The result of tools/call for the tool NAME (which exists) with
 * ARGUMENTS (NULL for none): structured content and a text summary, or
 * isError with a message. */
JsonNode          *chrono_mcp_registry_call (ChronoMcpRegistry *registry,
                                             ChronoMcpContext  *ctx,
                                             const char        *name,
                                             JsonNode          *arguments);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoMcpRegistry, chrono_mcp_registry_free)

G_END_DECLS
