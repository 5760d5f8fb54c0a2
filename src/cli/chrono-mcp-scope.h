/* chrono-mcp-scope.h: which traces and which window a call is about
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-mcp-tool.h"

G_BEGIN_DECLS

typedef struct {
  guint                 *indices;     /* into the entry's traces */
  guint                  n_indices;
  ChronoAnalysisOptions  options;     /* thresholds and the window */
  char                  *step;        /* the step's name, when one was asked for */
  char                  *key;         /* names the scope among an entry's analyses */
} ChronoMcpScope;

/* The scope that the arguments rank, step, start_ns and end_ns (all
 * optional) of ARGS give within ENTRY. FALSE with a message naming what
 * there is instead. */
gboolean chrono_mcp_scope_init   (ChronoMcpScope  *scope,
                                  ChronoMcpEntry  *entry,
                                  JsonObject      *args,
                                  GError         **error);
void     chrono_mcp_scope_clear  (ChronoMcpScope  *scope);
/* Whether [START, END) meets the scope's window (all of time without one). */
gboolean chrono_mcp_scope_meets  (const ChronoMcpScope *scope,
                                  gint64                start,
                                  gint64                end);

/* Whether the step called NAME is WANTED: a name, or a number
 * ("ProfilerStep#12" is step 12). */
gboolean chrono_mcp_step_matches (const char           *name,
                                  const char           *wanted);

/* The "step" argument as text, or NULL. */
char    *chrono_mcp_step_arg     (JsonObject           *args);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ChronoMcpScope, chrono_mcp_scope_clear)

G_END_DECLS
