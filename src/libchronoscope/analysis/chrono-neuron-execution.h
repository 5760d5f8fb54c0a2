/* chrono-neuron-execution.h: host and device of a Neuron profile folder
 * linked through the executions: the runtime's nc_exec_running on the
 * host clock, the instructions the device ran in it, and the host's
 * nrt_execute that launched it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-trace.h"

G_BEGIN_DECLS

typedef struct {
  ChronoSpanRef running;     /* the nc_exec_running */
  gint64        start_ns;    /* its window, on the trace's clock */
  gint64        end_ns;
} ChronoNeuronExecution;

/* The execution SPAN belongs to: an nc_exec_running itself, a device
 * instruction or transfer run within one, or a host span over one (the
 * first it overlaps). FALSE when the trace has none for it. */
gboolean chrono_neuron_execution_find         (ChronoTrace           *trace,
                                               ChronoSpanRef          span,
                                               ChronoNeuronExecution *execution);
/* The first device instruction EXECUTION ran, by start. */
gboolean chrono_neuron_execution_first_instruction (ChronoTrace                 *trace,
                                                    const ChronoNeuronExecution *execution,
                                                    ChronoSpanRef               *instruction);
/* The host's nrt_execute that launched EXECUTION: the one over its start. */
gboolean chrono_neuron_execution_launcher     (ChronoTrace                 *trace,
                                               const ChronoNeuronExecution *execution,
                                               ChronoSpanRef               *launcher);

/* Every execution of TRACE (its NeuronCore's nc_exec_running spans, off
 * the device), with its core's nc_idx, by start: what
 * chrono_neuron_execution_find() looks among, listed once for a pass over
 * many instructions. Empty without a system profile. */
typedef struct {
  ChronoNeuronExecution execution;
  gint                  core;   /* -1 when the span names none */
} ChronoNeuronCoreExecution;

GArray  *chrono_neuron_execution_list         (ChronoTrace                 *trace);

G_END_DECLS
