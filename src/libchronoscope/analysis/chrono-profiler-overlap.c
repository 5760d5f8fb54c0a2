/* chrono-profiler-overlap.c: the profiler's own split of a device's time
 * beside the ledger
 *
 * torch_npu writes, beside an NPU's tasks, its own account of them: rows
 * named Computing, Communication, Communication(Not Overlapped) and Free.
 * They are read here as the trace wrote them and set beside the ledger's
 * states over the same window, so a reader sees where the two accounts
 * agree and, where they do not, why (docs/analysis.md has both
 * definitions).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>

#include "chrono-analysis-private.h"
#include "chrono-format.h"
#include "chrono-json-util.h"
#include "chrono-profiler-overlap.h"

/* The rows' names as the trace writes them. */
static const char * const row_names[CHRONO_N_OVERLAP_ROWS] = {
  "Computing", "Communication", "Communication(Not Overlapped)", "Free",
};

/* Ours and theirs agree when within this share of the window. */
#define AGREE_SHARE 0.01

const char *
chrono_overlap_row_to_string (ChronoOverlapRow row)
{
  static const char * const ids[] = { "computing", "communication", "not_overlapped", "free" };

  return (guint) row < G_N_ELEMENTS (ids) ? ids[row] : "unknown";
}

static gint
row_of (ChronoTrace       *trace,
        const ChronoTrack *t)
{
  const char *name = chrono_trace_get_string (trace, t->name);

  for (guint k = 0; k < CHRONO_N_OVERLAP_ROWS; k++)
    if (strcmp (name, row_names[k]) == 0)
      return (gint) k;
  return -1;
}

/* The time a row's spans cover, each nanosecond once, and its extent. */
static gint64
row_time (const ChronoTrack *t,
          gint64            *first,
          gint64            *last)
{
  gint64 total = 0, reach = G_MININT64;

  for (guint32 i = 0; i < t->n_spans; i++)
    {
      gint64 start = MAX (t->start[i], reach);
      gint64 end = chrono_track_get_end (t, i);

      if (end > start)
        total += end - start;
      reach = MAX (reach, end);
      *first = MIN (*first, t->start[i]);
      *last = MAX (*last, end);
    }
  return total;
}

static const ChronoDeviceWork *
device_of (ChronoRankData *data,
           gint            device)
{
  for (guint i = 0; i < data->devices->len; i++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, i);

      if (d->device == device && d->ledger != NULL)
        return d;
    }
  return NULL;
}

static gint64
clipped (GArray *intervals,
         gint64  start,
         gint64  end)
{
  gint64 total = 0;

  for (guint i = 0; intervals && i < intervals->len; i++)
    {
      const ChronoInterval *iv = &g_array_index (intervals, ChronoInterval, i);

      total += MAX (0, MIN (iv->end, end) - MAX (iv->start, start));
    }
  return total;
}

/* The ledger's side of O, over the profiler's window. */
static void
read_ours (ChronoProfilerOverlap  *o,
           const ChronoDeviceWork *d)
{
  gint64 states[CHRONO_N_LEDGER_STATES] = { 0 };

  chrono_ledger_sum (d->ledger, o->start_ns, o->end_ns, states);
  o->compute_ns = states[CHRONO_LEDGER_COMPUTE];
  o->exposed_ns = states[CHRONO_LEDGER_COMMUNICATION];
  o->copy_ns = states[CHRONO_LEDGER_COPY];
  o->idle_ns = (o->end_ns - o->start_ns) - o->compute_ns - o->exposed_ns - o->copy_ns;
  o->communication_ns = clipped (d->communication, o->start_ns, o->end_ns);
}

static void
find_in_rank (ChronoRankData *data,
              GArray         *out)
{
  ChronoTrace *trace = data->trace;

  for (guint p = data->first_process; p < data->first_process + data->n_processes; p++)
    {
      const ChronoProcess *process = chrono_trace_get_process (trace, p);
      ChronoProfilerOverlap o = { .rank = data->rank_index, .device = process->device_index,
                                  .start_ns = G_MAXINT64, .end_ns = G_MININT64 };
      guint found = 0;
      const ChronoDeviceWork *d;

      for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
        {
          const ChronoTrack *t = chrono_trace_get_track (trace, ti);
          gint k = t->process == p ? row_of (trace, t) : -1;

          if (k < 0)
            continue;
          o.theirs_ns[k] = row_time (t, &o.start_ns, &o.end_ns);
          found |= 1u << k;
        }
      /* Computing and Free are what make it a split of the window. */
      if (!(found & (1u << CHRONO_OVERLAP_COMPUTING)) || !(found & (1u << CHRONO_OVERLAP_FREE)) ||
          !process->is_device || (d = device_of (data, process->device_index)) == NULL)
        continue;
      o.breakdown = d->breakdown;
      o.device_name = chrono_trace_get_string (trace, chrono_trace_get_process (trace, d->process)->display_name);
      read_ours (&o, d);
      g_array_append_val (out, o);
    }
}

GArray *
chrono_profiler_overlap_find (ChronoAnalysis *analysis)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (ChronoProfilerOverlap));
  guint n_ranks;
  ChronoRankData **ranks = chrono_analysis_get_ranks (analysis, &n_ranks);

  for (guint r = 0; r < n_ranks; r++)
    find_in_rank (ranks[r], out);
  return out;
}

static gboolean
differs (const ChronoProfilerOverlap *o,
         gint64                       ours,
         gint64                       theirs)
{
  return ABS (ours - theirs) > AGREE_SHARE * (o->end_ns - o->start_ns);
}

char *
chrono_profiler_overlap_note (const ChronoProfilerOverlap *o)
{
  g_autoptr(GString) s = g_string_new (NULL);

  if (differs (o, o->compute_ns, o->theirs_ns[CHRONO_OVERLAP_COMPUTING]))
    g_string_append_printf (s, _("Computing: ours %.3f ms, theirs %.3f ms; the two class some tasks differently "
                                 "(ours reads each task's type). "),
                            o->compute_ns / 1e6, o->theirs_ns[CHRONO_OVERLAP_COMPUTING] / 1e6);
  if (differs (o, o->exposed_ns, o->theirs_ns[CHRONO_OVERLAP_NOT_OVERLAPPED]))
    g_string_append_printf (s, _("Communication not overlapped: ours %.3f ms, theirs %.3f ms; theirs is every "
                                 "collective's span less computing, ours the collectives the device's rows hold "
                                 "less computation. "),
                            o->exposed_ns / 1e6, o->theirs_ns[CHRONO_OVERLAP_NOT_OVERLAPPED] / 1e6);
  if (differs (o, o->idle_ns + o->copy_ns, o->theirs_ns[CHRONO_OVERLAP_FREE]))
    g_string_append_printf (s, _("Free: ours %.3f ms idle and %.3f ms of copies alone, theirs %.3f ms. "),
                            o->idle_ns / 1e6, o->copy_ns / 1e6, o->theirs_ns[CHRONO_OVERLAP_FREE] / 1e6);
  if (s->len == 0)
    return NULL;
  g_string_truncate (s, s->len - 1);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

char *
chrono_profiler_overlap_describe (const ChronoProfilerOverlap *o)
{
  g_autofree char *note = chrono_profiler_overlap_note (o);

  /* Translators: the profiler's own split of a device's time beside ours, in ms */
  return g_strdup_printf (_("%s, the profiler's own overlap analysis over %.3f ms: computing %.3f (ours %.3f), "
                            "communication not overlapped %.3f (ours %.3f), free %.3f (ours %.3f idle and "
                            "copies). %s"),
                          o->device_name, (o->end_ns - o->start_ns) / 1e6,
                          o->theirs_ns[CHRONO_OVERLAP_COMPUTING] / 1e6, o->compute_ns / 1e6,
                          o->theirs_ns[CHRONO_OVERLAP_NOT_OVERLAPPED] / 1e6, o->exposed_ns / 1e6,
                          o->theirs_ns[CHRONO_OVERLAP_FREE] / 1e6, (o->idle_ns + o->copy_ns) / 1e6,
                          note ? note : _("Within 1 % of the window."));
}

void
chrono_profiler_overlap_write_json (ChronoAnalysis *analysis,
                                    JsonBuilder    *b)
{
  g_autoptr(GArray) overlaps = chrono_profiler_overlap_find (analysis);

  json_builder_set_member_name (b, "profiler_overlap");
  json_builder_begin_array (b);
  for (guint i = 0; i < overlaps->len; i++)
    {
      const ChronoProfilerOverlap *o = &g_array_index (overlaps, ChronoProfilerOverlap, i);
      g_autofree char *note = chrono_profiler_overlap_note (o);

      json_builder_begin_object (b);
      chrono_json_add_int (b, "rank_index", o->rank);
      chrono_json_add_int (b, "device", o->device);
      chrono_json_add_string (b, "device_name", o->device_name);
      chrono_json_add_int (b, "breakdown", o->breakdown);
      chrono_json_add_int (b, "start_ns", o->start_ns);
      chrono_json_add_int (b, "end_ns", o->end_ns);
      json_builder_set_member_name (b, "theirs");
      json_builder_begin_object (b);
      for (guint k = 0; k < CHRONO_N_OVERLAP_ROWS; k++)
        chrono_json_add_int (b, chrono_overlap_row_to_string (k), o->theirs_ns[k]);
      json_builder_end_object (b);
      json_builder_set_member_name (b, "ours");
      json_builder_begin_object (b);
      chrono_json_add_int (b, "compute", o->compute_ns);
      chrono_json_add_int (b, "communication", o->communication_ns);
      chrono_json_add_int (b, "communication_exposed", o->exposed_ns);
      chrono_json_add_int (b, "copy", o->copy_ns);
      chrono_json_add_int (b, "idle", o->idle_ns);
      json_builder_end_object (b);
      if (note)
        chrono_json_add_string (b, "note", note);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
cell_ms (GString *s,
         gint64   ns)
{
  g_autofree char *v = g_strdup_printf ("%.3f", ns / 1e6);

  chrono_format_markdown_cell (s, v);
}

void
chrono_profiler_overlap_append_markdown (ChronoAnalysis *analysis,
                                         GString        *s)
{
  g_autoptr(GArray) overlaps = chrono_profiler_overlap_find (analysis);

  if (overlaps->len == 0)
    return;
  g_string_append_printf (s, "\n## %s\n\n%s\n\n| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n"
                             "|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n",
                          _("The profiler's overlap analysis"),
                          _("The trace's own split of each device's time beside our ledger over the same window "
                            "(ms); our copies that ran alone are free in theirs."),
                          _("Device"), _("Rank"), _("Window"), _("Computing"), _("Ours"),
                          _("Not overlapped"), _("Ours"), _("Free"), _("Ours (idle + copy)"), _("Note"));
  for (guint i = 0; i < overlaps->len; i++)
    {
      const ChronoProfilerOverlap *o = &g_array_index (overlaps, ChronoProfilerOverlap, i);
      g_autofree char *note = chrono_profiler_overlap_note (o);

      g_string_append (s, "|");
      chrono_format_markdown_cell (s, o->device_name);
      chrono_format_markdown_cell (s, chrono_analysis_get_rank (analysis, o->rank)->label);
      cell_ms (s, o->end_ns - o->start_ns);
      cell_ms (s, o->theirs_ns[CHRONO_OVERLAP_COMPUTING]);
      cell_ms (s, o->compute_ns);
      cell_ms (s, o->theirs_ns[CHRONO_OVERLAP_NOT_OVERLAPPED]);
      cell_ms (s, o->exposed_ns);
      cell_ms (s, o->theirs_ns[CHRONO_OVERLAP_FREE]);
      cell_ms (s, o->idle_ns + o->copy_ns);
      chrono_format_markdown_cell (s, note ? note : _("within 1 % of the window"));
      g_string_append (s, "\n");
    }
}
