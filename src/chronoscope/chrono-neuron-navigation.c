/* chrono-neuron-navigation.c: a NeuronCore's window on the timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "chrono-neuron-execution.h"
#include "chrono-neuron-navigation.h"

/* Each side of the window keeps this share of it in view, so its first
 * and last instructions do not touch the edges. */
#define WINDOW_MARGIN 0.02

void
chrono_neuron_show_window (ChronoTimeline *timeline,
                           guint32         process,
                           gint64          start,
                           gint64          end)
{
  ChronoTrace *trace = chrono_timeline_get_trace (timeline);
  g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (guint));
  gint64 length = MAX (end - start, CHRONO_VIEWPORT_MIN_DURATION_NS);
  gint64 margin = (gint64) (length * WINDOW_MARGIN);

  g_return_if_fail (CHRONO_IS_TIMELINE (timeline));
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    if (chrono_trace_get_track (trace, t)->process == process)
      g_array_append_val (tracks, t);
  chrono_viewport_zoom_to_range (chrono_timeline_get_viewport (timeline), start - margin, start + length + margin);
  chrono_timeline_set_highlight (timeline, start, end, (const guint *) tracks->data, tracks->len);
}

gboolean
chrono_neuron_show_execution_of (ChronoTimeline *timeline,
                                 ChronoSpanRef   span)
{
  ChronoTrace *trace = chrono_timeline_get_trace (timeline);
  ChronoNeuronExecution execution;
  ChronoSpanRef first;

  g_return_val_if_fail (CHRONO_IS_TIMELINE (timeline), FALSE);
  if (!chrono_neuron_execution_find (trace, span, &execution) ||
      !chrono_neuron_execution_first_instruction (trace, &execution, &first))
    return FALSE;
  chrono_neuron_show_window (timeline, chrono_trace_get_track (trace, first.track)->process,
                             execution.start_ns, execution.end_ns);
  chrono_timeline_select (timeline, &first);
  return TRUE;
}
