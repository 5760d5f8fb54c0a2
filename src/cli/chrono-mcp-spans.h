/* chrono-mcp-spans.h: spans as the tools name and describe them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-mcp-tool.h"

G_BEGIN_DECLS

/* A span's id: the integer the query tool's spans.id gives it (the
 * engine's numbering over the entry's traces, chrono-query.h), for span
 * REF of the entry's trace TRACE. */
gint64    chrono_mcp_span_id        (ChronoMcpEntry  *entry,
                                     guint            trace,
                                     ChronoSpanRef    ref);
/* The span of ID: an integer as the tools and the query give them, the
 * same integer as text, or the older "TRACE:TRACK:INDEX" (the trace's
 * position in its handle, the track's index in the trace and the span's
 * in the track). FALSE with a message when it names no span of ENTRY. */
gboolean  chrono_mcp_span_parse_id  (ChronoMcpEntry  *entry,
                                     JsonNode        *id,
                                     guint           *trace,
                                     ChronoSpanRef   *ref,
                                     GError         **error);
/* {id, name, short_name, kind, category, trace, rank, track, track_name,
 * start_ns, end_ns, dur_ns, depth}: see CHRONO_MCP_SCHEMA_SPAN. */
JsonNode *chrono_mcp_span_row       (ChronoMcpEntry  *entry,
                                     guint            trace,
                                     ChronoSpanRef    ref);
gboolean  chrono_mcp_kind_parse     (const char      *text,
                                     ChronoKind      *kind);
/* NAME as O's "name", and as "short_name" the short name a list shows
 * when it differs: a kernel's C++ signature without its parameters. */
void      chrono_mcp_set_name       (JsonObject      *o,
                                     const char      *name);

#define CHRONO_MCP_SCHEMA_SPAN \
  "{\"type\":\"object\",\"required\":[\"id\",\"name\",\"kind\",\"track\",\"start_ns\",\"end_ns\",\"dur_ns\"]," \
  "\"properties\":{" \
  "\"id\":{\"type\":\"integer\",\"description\":\"the span's id, the one the query tool's spans.id gives it; pass to span_details\"}," \
  "\"name\":{\"type\":\"string\"},\"short_name\":{\"type\":\"string\",\"description\":\"the name as lists show it, " \
  "when it differs\"},\"kind\":{\"type\":\"string\"},\"category\":{\"type\":\"string\"}," \
  "\"trace\":{\"type\":\"integer\"},\"rank\":{\"type\":\"integer\"}," \
  "\"track\":{\"type\":\"integer\"},\"track_name\":{\"type\":\"string\"},\"process\":{\"type\":\"string\"}," \
  "\"start_ns\":{\"type\":\"integer\"},\"end_ns\":{\"type\":\"integer\"},\"dur_ns\":{\"type\":\"integer\"}," \
  "\"depth\":{\"type\":\"integer\"}}}"

#define CHRONO_MCP_KINDS \
  "[\"other\",\"host_op\",\"python\",\"annotation\",\"step\",\"runtime\",\"driver\",\"kernel\",\"memcpy\"," \
  "\"memset\",\"sync\",\"collective\",\"gpu_annotation\",\"async\",\"overhead\",\"trace\",\"instruction\",\"dma\"]"

G_END_DECLS
