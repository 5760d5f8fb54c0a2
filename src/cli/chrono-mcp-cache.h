/* chrono-mcp-cache.h: the traces the server keeps loaded between calls
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-analysis.h"
#include "chrono-mcp-name-index.h"
#include "chrono-query.h"
#include "chrono-trace.h"

G_BEGIN_DECLS

/* An analysis of some of an entry's traces, with its report parsed. */
typedef struct {
  ChronoAnalysis *analysis;
  JsonNode       *report;   /* chrono_analysis_to_json, parsed */
} ChronoMcpAnalysis;

/* What one open_trace loaded: one trace per rank, or a folder as one. */
typedef struct {
  char       *handle;
  GPtrArray  *traces;       /* ChronoTrace */
  GPtrArray  *paths;        /* char*, resolved, as opened */
  gsize       bytes;        /* memory the traces take: models, sources, name indexes */
  guint64     last_use;
  GHashTable *analyses;     /* scope key -> ChronoMcpAnalysis */
  GPtrArray  *name_indexes; /* ChronoMcpNameIndex, one per trace */
  ChronoQuery *query;       /* the engine without the analysis, made when first needed */
} ChronoMcpEntry;

#define CHRONO_MCP_TYPE_CACHE (chrono_mcp_cache_get_type ())
G_DECLARE_FINAL_TYPE (ChronoMcpCache, chrono_mcp_cache, CHRONO_MCP, CACHE, GObject)

/* Keeps at most LIMIT model bytes loaded. */
ChronoMcpCache *chrono_mcp_cache_new          (gsize            limit);
gsize           chrono_mcp_cache_get_limit    (ChronoMcpCache  *self);
gsize           chrono_mcp_cache_get_bytes    (ChronoMcpCache  *self);

/* The loaded entry of exactly these PATHS, or NULL. */
ChronoMcpEntry *chrono_mcp_cache_find         (ChronoMcpCache  *self,
                                               GPtrArray       *paths);
/* Adds TRACES (taken) under a new handle and unloads the least recently
 * used others until the limit holds; their handles are appended to
 * UNLOADED. NULL when the traces alone exceed the limit. */
ChronoMcpEntry *chrono_mcp_cache_add          (ChronoMcpCache  *self,
                                               GPtrArray       *traces,
                                               GPtrArray       *paths,
                                               GPtrArray       *unloaded,
                                               GError         **error);
/* The entry of HANDLE, now the most recently used; NULL with a message
 * an agent can act on when it is unknown or was unloaded. */
ChronoMcpEntry *chrono_mcp_cache_lookup       (ChronoMcpCache  *self,
                                               const char      *handle,
                                               GError         **error);

/* The analysis of the entry's traces at INDICES with OPTIONS, computed on
 * the first call for KEY and kept while the entry is loaded. */
ChronoMcpAnalysis *chrono_mcp_entry_get_analysis (ChronoMcpEntry              *entry,
                                                  const char                  *key,
                                                  const guint                 *indices,
                                                  guint                        n_indices,
                                                  const ChronoAnalysisOptions *options,
                                                  GError                     **error);

/* The query engine over the entry's traces, without the analysis: kept
 * while the entry is loaded, so what its tables build once (parents,
 * launches, a track's longest span, the names' index) serves every
 * query, and its span ids are the ones the tools give. */
ChronoQuery       *chrono_mcp_entry_get_query    (ChronoMcpEntry              *entry,
                                                  GError                     **error);

G_END_DECLS
