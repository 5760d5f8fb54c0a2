/* chrono-analysis-limits.c: what the traces lack for the analysis
 *
 * A number is only as good as what the trace recorded. These checks say,
 * instead of guessing, when the trace is cut, when the host launched work
 * the trace holds no device activity for, when there are no shapes for
 * the efficiency figures, or when the ranks' clocks disagree.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <inttypes.h>
#include <glib/gi18n-lib.h>

#include "chrono-analysis-private.h"
#include "chrono-kineto.h"

static void
add (GArray     *out,
     const char *id,
     guint       rank,
     char       *message)
{
  g_array_append_val (out, ((ChronoLimitation) { id, rank, message }));
}

static char *
who (ChronoRankData *data)
{
  g_autofree char *base = g_path_get_basename (data->path);

  return data->rank >= 0 ? g_strdup_printf (_("rank %d"), data->rank) : g_steal_pointer (&base);
}

/* What the loader could not represent, once per trace. */
static void
add_dropped (ChronoRankData *data,
                   GArray         *out)
{
  const ChronoLoadStats *stats = chrono_trace_get_stats (data->trace);
  g_autofree char *base = g_path_get_basename (chrono_trace_get_path (data->trace));

  /* Warnings that lose nothing (a flow end with no start) do not touch
   * the analysis; the app's banner and info say them. */
  if (stats->dropped == 0)
    return;
  add (out, "events-dropped", data->rank_index,
       g_strdup_printf (_("%s: %" PRIu64 " events are not in the model; the load said: %s"),
                        base, stats->dropped,
                        stats->warnings->len ? (const char *) stats->warnings->pdata[0] : _("nothing more")));
}

/* The rank's processes with counters or spans but no host work: what the
 * analysis reads nothing from, and so what might be a device it does not
 * know. The profiler's own spans (Kineto's "Trace") and instants are no
 * sign of one. */
static char *
maybe_devices (ChronoRankData *data)
{
  ChronoTrace *trace = data->trace;
  g_autofree guint8 *seen = g_new0 (guint8, data->n_processes);  /* 1 rows, 2 host work */
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);
      guint p = t->process - data->first_process;

      if (!chrono_rank_data_has_track (data, ti))
        continue;
      if (t->type == CHRONO_TRACK_COUNTER)
        seen[p] = MAX (seen[p], 1);
      for (guint32 i = 0; i < t->n_spans && seen[p] < 2; i++)
        if (chrono_kineto_kind_is_host (t->kind[i]))
          seen[p] = 2;
        else if (t->kind[i] != CHRONO_KIND_TRACE)
          seen[p] = 1;
    }
  for (guint p = 0; p < data->n_processes; p++)
    if (seen[p] == 1)
      g_string_append_printf (names, "%s%s", names->len ? ", " : "",
                              chrono_trace_get_string (trace, chrono_trace_get_process (trace, data->first_process + p)->display_name));
  return g_string_free (g_steal_pointer (&names), FALSE);
}

void
chrono_analysis_find_limitations (ChronoRankData **ranks,
                                  guint            n_ranks,
                                  GArray          *out)
{
  gboolean any_shapes = FALSE, any_ops = FALSE, any_work = FALSE;

  for (guint r = 0; r < n_ranks; r++)
    {
      ChronoRankData *data = ranks[r];
      g_autofree char *name = who (data);
      const ChronoHostCounts c = data->host;
      guint64 n_work = 0;
      gboolean launched = FALSE;

      for (guint di = 0; di < data->devices->len; di++)
        {
          const GArray *items = g_array_index (data->devices, ChronoDeviceWork, di).items;

          n_work += items->len;
          for (guint k = 0; k < items->len && !launched; k++)
            launched = g_array_index (items, ChronoWorkItem, k).launch_start != G_MININT64;
        }
      any_shapes |= c.shapes;
      any_ops |= c.host_ops > 0;
      any_work |= n_work > 0;
      if (r == 0 || ranks[r - 1]->trace != data->trace)
        add_dropped (data, out);

      if (data->truncated)
        add (out, "truncated", r,
             g_strdup_printf (_("%s: the file is cut short; the analysis covers only what it holds, and "
                                "work after the cut (often the device activity, which Kineto writes last) is missing"),
                              name));
      if (n_work == 0 && c.launches > 0)
        add (out, "no-device-activity", r,
             g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: the host launched %" PRIu64 " piece of device work but the "
                                        "trace holds no device activity (device tracing off, its buffer lost, or "
                                        "the file cut); nothing can be said of the device's time",
                                        "%s: the host launched %" PRIu64 " pieces of device work but the "
                                        "trace holds no device activity (device tracing off, its buffer lost, or "
                                        "the file cut); nothing can be said of the device's time", c.launches),
                              name, c.launches));
      else if (n_work == 0 && c.host_ops > 0)
        {
          g_autofree char *candidates = maybe_devices (data);

          add (out, "no-device", r,
               *candidates
               ? g_strdup_printf (_("%s: host operators but no device work the analysis recognises; these "
                                    "processes hold no host work and might be a device it does not know: %s"),
                                  name, candidates)
               : g_strdup_printf (_("%s: host operators but no device work the analysis recognises, and no "
                                    "process that might be a device: a host-only trace"), name));
        }
      else if (c.launches >= 10 && c.linked * 2 < c.launches)
        {
          data->device_incomplete = TRUE;
          add (out, "missing-device-activity", r,
               g_strdup_printf (_("%s: %" PRIu64 " of %" PRIu64 " launches have no device "
                                  "activity in the trace%s; the device may have been busy when it looks idle, so "
                                  "no idle time is counted as lost"),
                                name, c.launches - c.linked, c.launches,
                                c.graph_launches > 0 ? _(" (CUDA graph launches record only the graph, not its kernels)")
                                                     : ""));
        }
      else if (c.graph_launches > 0)
        add (out, "graph-launches", r,
             g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: %" PRIu64 " CUDA graph launch; its kernels count only if "
                                        "the profiler recorded them",
                                        "%s: %" PRIu64 " CUDA graph launches; their kernels count only if "
                                        "the profiler recorded them", c.graph_launches),
                              name, c.graph_launches));
      if (n_work > 0 && !launched && data->devices->len > 0 && c.host_ops > 0)
        add (out, "no-launch-links", r,
             g_strdup_printf (_("%s: no device work is linked to the host call that launched it, so idle time "
                                "cannot be split into waiting for the host and other waits"), name));
      if (data->steps->len == 0 && n_work > 0)
        add (out, "no-steps", r,
             g_strdup_printf (_("%s: no profiler steps (ProfilerStep#N) recorded: figures are for the whole "
                                "trace, not per step"), name));
    }
  if (!any_work && !any_ops)
    add (out, "empty", G_MAXUINT,
         g_strdup (_("Nothing in the trace is what this analysis reads: no device work and no host operators "
                     "(chronoscope-cli info says what the trace held instead)")));
  if (any_ops && !any_shapes)
    add (out, "no-shapes", G_MAXUINT,
         g_strdup (_("No operator shapes recorded (profile with record_shapes=True): FLOPs, bytes and the "
                     "roofline cannot be computed")));
  if (n_ranks > 1 && !chrono_analysis_clocks_agree (ranks, n_ranks))
    add (out, "clock-skew", G_MAXUINT,
         g_strdup (_("The ranks' matched collectives start further apart than they last: their clocks look "
                     "misaligned, so waits for peers and stragglers are not reported")));
}
