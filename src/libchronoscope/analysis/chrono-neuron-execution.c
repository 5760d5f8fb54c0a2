/* chrono-neuron-execution.c: host and device linked through executions
 *
 * The loader puts a device profile's time 0 at the start of its core's
 * nc_exec_running (chrono-trace-set.h), so an instruction's execution is
 * the nc_exec_running that holds its start, on one clock.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-neuron-execution.h"

static gboolean
span_named (ChronoTrace       *trace,
            const ChronoTrack *track,
            guint32            i,
            const char        *name)
{
  return g_strcmp0 (chrono_trace_get_string (trace, chrono_track_get_name (track, i)), name) == 0;
}

static gboolean
on_device (ChronoTrace       *trace,
           const ChronoTrack *track)
{
  return chrono_trace_get_process (trace, track->process)->is_device;
}

/* The NeuronCore span I of TRACK names (its nc_idx), or -1. */
static gint
core_of (ChronoTrace       *trace,
         const ChronoTrack *track,
         guint32            i)
{
  g_autofree char *text = chrono_trace_dup_arg (trace, chrono_track_get_args (track, i), "nc_idx");

  return text != NULL ? (gint) g_ascii_strtoll (text, NULL, 10) : -1;
}

/* Whether span I of TRACK runs on NeuronCore CORE; any span does for a
 * CORE of -1. */
static gboolean
of_core (ChronoTrace       *trace,
         const ChronoTrack *track,
         guint32            i,
         gint               core)
{
  return core < 0 || core_of (trace, track, i) == core;
}

/* The first span named NAME, off the device and of CORE, that holds
 * [START, END) (overlaps it, when OVERLAP). */
static gboolean
find_host_span (ChronoTrace   *trace,
                const char    *name,
                gint           core,
                gint64         start,
                gint64         end,
                gboolean       overlap,
                ChronoSpanRef *found)
{
  for (guint32 ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, ti);

      if (on_device (trace, track))
        continue;
      for (guint32 i = 0; i < track->n_spans && track->start[i] <= end; i++)
        {
          gint64 span_end = chrono_track_get_end (track, i);
          gboolean hit = overlap ? track->start[i] < end && span_end > start
                                 : track->start[i] <= start && span_end >= end;

          if (hit && span_named (trace, track, i, name) && of_core (trace, track, i, core))
            {
              *found = (ChronoSpanRef) { ti, i };
              return TRUE;
            }
        }
    }
  return FALSE;
}

static void
set_execution (ChronoTrace           *trace,
               ChronoSpanRef          running,
               ChronoNeuronExecution *execution)
{
  const ChronoTrack *track = chrono_trace_get_track (trace, running.track);

  execution->running = running;
  execution->start_ns = track->start[running.index];
  execution->end_ns = chrono_track_get_end (track, running.index);
}

/* Only a system profile has executions: other traces answer at once. */
static gboolean
has_system_profile (ChronoTrace *trace)
{
  for (guint i = 0; i < chrono_trace_get_n_parts (trace); i++)
    if (g_strcmp0 (chrono_trace_get_part (trace, i)->format, "neuron-system") == 0)
      return TRUE;
  return FALSE;
}

gboolean
chrono_neuron_execution_find (ChronoTrace           *trace,
                              ChronoSpanRef          span,
                              ChronoNeuronExecution *execution)
{
  const ChronoTrack *track;
  ChronoSpanRef running;
  gint64 start, end;
  gint core;

  g_return_val_if_fail (span.track < chrono_trace_get_n_tracks (trace), FALSE);
  track = chrono_trace_get_track (trace, span.track);
  g_return_val_if_fail (span.index < track->n_spans, FALSE);
  if (!has_system_profile (trace))
    return FALSE;
  start = track->start[span.index];
  end = MAX (chrono_track_get_end (track, span.index), start + 1);

  /* An instruction's is its own core's; a host span's, any core's. */
  core = on_device (trace, track) ? chrono_trace_get_process (trace, track->process)->device_index : -1;
  if (span_named (trace, track, span.index, "nc_exec_running"))
    running = span;
  else if (!find_host_span (trace, "nc_exec_running", core, start, core >= 0 ? start + 1 : end, core < 0, &running))
    return FALSE;
  set_execution (trace, running, execution);
  return TRUE;
}

gboolean
chrono_neuron_execution_first_instruction (ChronoTrace                 *trace,
                                           const ChronoNeuronExecution *execution,
                                           ChronoSpanRef               *instruction)
{
  gint64 best = G_MAXINT64;

  for (guint32 ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, ti);
      guint32 lo = 0, hi = track->n_spans;

      if (!on_device (trace, track) || track->n_spans == 0 || track->kind[0] != CHRONO_KIND_INSTRUCTION)
        continue;
      /* Spans come by start: the first at or after the execution's. */
      while (lo < hi)
        {
          guint32 mid = lo + (hi - lo) / 2;

          if (track->start[mid] < execution->start_ns)
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo < track->n_spans && track->start[lo] < execution->end_ns && track->start[lo] < best)
        {
          best = track->start[lo];
          *instruction = (ChronoSpanRef) { ti, lo };
        }
    }
  return best != G_MAXINT64;
}

gboolean
chrono_neuron_execution_launcher (ChronoTrace                 *trace,
                                  const ChronoNeuronExecution *execution,
                                  ChronoSpanRef               *launcher)
{
  return find_host_span (trace, "nrt_execute", -1, execution->start_ns, execution->start_ns, FALSE, launcher);
}

static gint
compare_starts (gconstpointer a,
                gconstpointer b)
{
  const ChronoNeuronCoreExecution *x = a, *y = b;

  return (x->execution.start_ns > y->execution.start_ns) - (x->execution.start_ns < y->execution.start_ns);
}

GArray *
chrono_neuron_execution_list (ChronoTrace *trace)
{
  GArray *list = g_array_new (FALSE, FALSE, sizeof (ChronoNeuronCoreExecution));

  if (!has_system_profile (trace))
    return list;
  for (guint32 ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, ti);

      if (on_device (trace, track))
        continue;
      for (guint32 i = 0; i < track->n_spans; i++)
        if (span_named (trace, track, i, "nc_exec_running"))
          {
            ChronoNeuronCoreExecution e;

            set_execution (trace, (ChronoSpanRef) { ti, i }, &e.execution);
            e.core = core_of (trace, track, i);
            g_array_append_val (list, e);
          }
    }
  g_array_sort (list, compare_starts);
  return list;
}
