/* chrono-mcp-name-index.h: a trace's spans grouped by name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-trace.h"

G_BEGIN_DECLS

typedef struct _ChronoMcpNameIndex ChronoMcpNameIndex;

/* One pass over the spans of TRACE: 8 bytes a span. */
ChronoMcpNameIndex  *chrono_mcp_name_index_new   (ChronoTrace        *trace);
void                 chrono_mcp_name_index_free  (ChronoMcpNameIndex *index);
gsize                chrono_mcp_name_index_bytes (ChronoMcpNameIndex *index);
/* The spans named NAME_ID, by track then index. */
const ChronoSpanRef *chrono_mcp_name_index_get   (ChronoMcpNameIndex *index,
                                                  guint32             name_id,
                                                  guint32            *n_spans);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoMcpNameIndex, chrono_mcp_name_index_free)

G_END_DECLS
