/* chrono-mcp-page.h: results bounded in rows and bytes, and cursors to go on
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-mcp-tool.h"

G_BEGIN_DECLS

typedef struct _ChronoMcpPage ChronoMcpPage;

/* A page for the call with ARGS: its `limit` rows at most (default
 * CHRONO_MCP_DEFAULT_ROWS) and CTX's bytes, going on from its `cursor`.
 * NULL when the cursor is not one of this query's. */
ChronoMcpPage *chrono_mcp_page_new          (ChronoMcpContext *ctx,
                                             JsonObject       *args,
                                             GError          **error);
void           chrono_mcp_page_free         (ChronoMcpPage    *page);
guint          chrono_mcp_page_get_limit    (ChronoMcpPage    *page);
/* Where the cursor says to go on from: the position the tool gave to
 * chrono_mcp_page_finish, or NULL on a first call. */
const char    *chrono_mcp_page_get_position (ChronoMcpPage    *page);
/* For lists addressed by index: the index to go on from (0 first). */
gboolean       chrono_mcp_page_get_offset   (ChronoMcpPage    *page,
                                             guint64          *offset,
                                             GError          **error);
/* Takes ROW; FALSE (and ROW dropped) when the page is full. */
gboolean       chrono_mcp_page_add          (ChronoMcpPage    *page,
                                             JsonNode         *row);
guint          chrono_mcp_page_get_n_rows   (ChronoMcpPage    *page);
/* Puts the rows into OUT as MEMBER with returned, total (unless -1),
 * truncated and, when NEXT is not NULL, a next_cursor going on from
 * position NEXT; says so in TEXT. */
void           chrono_mcp_page_finish       (ChronoMcpPage    *page,
                                             JsonObject       *out,
                                             const char       *member,
                                             gint64            total,
                                             const char       *next,
                                             GString          *text);
/* The position after OFFSET rows, for index-addressed lists. */
char          *chrono_mcp_page_offset_position (guint64        offset);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoMcpPage, chrono_mcp_page_free)

G_END_DECLS
