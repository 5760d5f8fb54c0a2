/* chrono-trace-facts.h: what a person checks first of a trace (devices,
 * versions, ranks, steps, what was recorded), as the trace says it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-trace.h"

G_BEGIN_DECLS

typedef struct {
  const char *label;   /* "Devices", translated */
  char       *value;   /* what the trace says, or that it does not say */
  gboolean    missing; /* the trace does not record it */
} ChronoTraceFact;

/* TRACE's facts, in the order a person checks them. */
GArray *chrono_trace_facts_new (ChronoTrace *trace);

G_END_DECLS
