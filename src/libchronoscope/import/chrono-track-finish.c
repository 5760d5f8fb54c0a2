/* chrono-track-finish.c: the built tracks finished on two threads (paired,
 * sorted, laid out, narrowed), their flows bound, and moved into the trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <inttypes.h>
#include <string.h>

#include "chrono-track-builder-private.h"

#define PARALLEL_MIN_ITEMS 50000

static void
shift_times (ChronoTrack *t,
             gint64       base)
{
  for (guint32 i = 0; i < t->n_spans; i++)
    t->start[i] += base;
  for (guint32 i = 0; i < t->n_instants; i++)
    t->inst_ts[i] += base;
  for (guint32 i = 0; i < t->n_samples; i++)
    t->sample_ts[i] += base;
}

#define SHRINK(type, column, n)                          \
  G_STMT_START {                                         \
    if ((column) != NULL)                                \
      (column) = g_renew (type, (column), MAX ((n), 1)); \
  } G_STMT_END

/* Makes the model's columns from the full-width ones, each freed as soon
 * as its narrow copy exists: done per track as soon as it is laid out, so
 * that binding flows, the most a load holds at once, runs beside the
 * narrow columns only. */
static void
narrow_columns (ChronoTrackBuilder *b)
{
  ChronoTrack *t = &b->track;

  SHRINK (gint64, t->start, t->n_spans);
  SHRINK (guint8, t->kind, t->n_spans);
  SHRINK (guint8, t->flags, t->n_spans);
  SHRINK (gint64, t->inst_ts, t->n_instants);
  /* Most values fit in 16 or 32 bits from the track's smallest. */
  chrono_int_column_take (&t->dur, g_steal_pointer (&b->dur), t->n_spans);
  chrono_int_column_take_ids (&t->name_id, g_steal_pointer (&b->name_id), t->n_spans);
  chrono_int_column_take_ids (&t->cat_id, g_steal_pointer (&b->cat), t->n_spans);
  chrono_int_column_take (&t->args_off, (gint64 *) g_steal_pointer (&b->args_off), t->n_spans);
  chrono_int_column_take (&t->correlation, g_steal_pointer (&b->correlation), t->n_spans);
  chrono_int_column_take_ids (&t->inst_name, g_steal_pointer (&b->inst_name), t->n_instants);
  chrono_int_column_take_ids (&t->inst_cat, g_steal_pointer (&b->inst_cat), t->n_instants);
  chrono_int_column_take (&t->inst_args_off, (gint64 *) g_steal_pointer (&b->inst_args_off), t->n_instants);
  SHRINK (gint64, t->sample_ts, t->n_samples);
  SHRINK (gdouble, t->sample_value, t->n_samples);
}

static ChronoTrack *
take_track (ChronoTrackBuilder *b)
{
  ChronoTrack *t = g_new (ChronoTrack, 1);

  *t = b->track;
  memset (&b->track, 0, sizeof b->track);
  return t;
}

/* The finishing passes run on two threads: tracks are independent of each
 * other, and so are flows and launches. */

typedef struct {
  ChronoTrace *trace;
  GPtrArray   *builders;   /* this thread's share */
  GArray      *v2_binds;
  gint64       end;
  guint64      stray;
  guint64      unclosed;
} PrepareJob;

static gpointer
prepare_tracks (gpointer data)
{
  PrepareJob *job = data;

  for (guint i = 0; i < job->builders->len; i++)
    {
      ChronoTrackBuilder *b = g_ptr_array_index (job->builders, i);
      ChronoTrack *t = &b->track;

      if (b->marks != NULL)
        job->stray += chrono_track_builder_pair_marks (job->trace, b, job->v2_binds);
      for (guint32 s = 0; s < t->n_spans; s++)
        if (b->dur[s] < 0)
          {
            b->dur[s] = MAX (job->end - t->start[s], 0);
            t->flags[s] |= CHRONO_SPAN_UNCLOSED;
            job->unclosed++;
          }
      chrono_track_builder_sort (b);
      chrono_track_builder_lay_out (b);
      narrow_columns (b);
    }
  return NULL;
}

typedef struct {
  ChronoBuildInput *input;
  guint             n_tracks;
  GArray           *v1;
  GArray           *v2;
  GArray           *launches;
  guint64           unmatched;
  guint64           no_start;     /* of those: ends of flows that never started */
} LinkJob;

static gpointer
bind_flows (gpointer data)
{
  LinkJob *job = data;

  job->unmatched = chrono_track_bind_v1_flows (job->input->flow_events, job->n_tracks, job->input->builders,
                                               job->v1, &job->no_start);
  chrono_track_bind_v2_flows (job->input->v2_binds, job->v2);
  return NULL;
}

/* What finishing a track costs, in items to sort and lay out. */
static guint64
builder_work (const ChronoTrackBuilder *b)
{
  return (guint64) b->track.n_spans + b->track.n_instants + b->track.n_samples +
         (b->marks ? b->marks->len : 0);
}

static gint
compare_by_size (gconstpointer a,
                 gconstpointer b)
{
  guint64 sx = builder_work (*(ChronoTrackBuilder * const *) a);
  guint64 sy = builder_work (*(ChronoTrackBuilder * const *) b);

  return sx < sy ? 1 : sx > sy ? -1 : 0;
}

static void
prepare_all_tracks (ChronoTrace      *trace,
                    ChronoBuildInput *input,
                    gint64            end,
                    guint64          *stray,
                    guint64          *unclosed)
{
  g_autoptr(GPtrArray) by_size = g_ptr_array_sized_new (input->builders->len);
  g_autoptr(GPtrArray) share0 = g_ptr_array_new ();
  g_autoptr(GPtrArray) share1 = g_ptr_array_new ();
  PrepareJob jobs[2] = {
    { trace, share0, input->v2_binds, end, 0, 0 },
    { trace, share1, input->v2_binds, end, 0, 0 },
  };
  guint64 load[2] = { 0, 0 };

  /* Largest first, each to the lighter share. The builders stay owned by
   * the input. */
  for (guint i = 0; i < input->builders->len; i++)
    g_ptr_array_add (by_size, g_ptr_array_index (input->builders, i));
  g_ptr_array_sort (by_size, compare_by_size);
  for (guint i = 0; i < by_size->len; i++)
    {
      ChronoTrackBuilder *b = g_ptr_array_index (by_size, i);
      guint k = load[1] < load[0];

      g_ptr_array_add (k ? share1 : share0, b);
      load[k] += builder_work (b) + 1;
    }
  /* Below some work, starting a thread costs more than it saves. */
  if (load[1] >= PARALLEL_MIN_ITEMS)
    {
      GThread *thread = g_thread_new ("chrono-finish", prepare_tracks, &jobs[1]);
      prepare_tracks (&jobs[0]);
      g_thread_join (thread);
    }
  else
    {
      prepare_tracks (&jobs[0]);
      prepare_tracks (&jobs[1]);
    }
  *stray = jobs[0].stray + jobs[1].stray;
  *unclosed = jobs[0].unclosed + jobs[1].unclosed;
}

void
chrono_track_builder_finish_trace (ChronoTrace      *trace,
                                   ChronoBuildInput *input)
{
  GPtrArray *builders = input->builders;
  ChronoLoadStats *stats = &trace->stats;
  gint64 end = input->max_ts;
  gint64 shifted;
  guint64 stray = 0;
  guint64 unclosed = 0;
  g_autofree gboolean *process_has_host = NULL;
  g_autofree gboolean *process_has_stream = NULL;
  g_autoptr(GArray) v1 = g_array_new (FALSE, FALSE, sizeof (ChronoFlow));
  g_autoptr(GArray) v2 = g_array_new (FALSE, FALSE, sizeof (ChronoFlow));
  g_autoptr(GArray) launches = g_array_new (FALSE, FALSE, sizeof (ChronoFlow));
  LinkJob links = { input, 0, v1, v2, launches, 0 };

  chrono_track_read_distributed_info (trace);
  if (input->min_ts > input->max_ts)
    input->min_ts = input->max_ts = end = 0;
  prepare_all_tracks (trace, input, end, &stray, &unclosed);

  /* Tracks with nothing on them (a thread that only has a name, say) are
   * not rows. */
  process_has_host = g_new0 (gboolean, trace->processes->len);
  process_has_stream = g_new0 (gboolean, trace->processes->len);
  for (guint i = 0; i < builders->len; i++)
    {
      ChronoTrackBuilder *b = g_ptr_array_index (builders, i);
      ChronoTrack *t = &b->track;

      if (t->n_spans == 0 && t->n_instants == 0 && t->n_samples == 0)
        {
          b->final_index = G_MAXUINT32;
          continue;
        }
      if (t->type == CHRONO_TRACK_THREAD && b->device_votes > b->host_votes)
        t->type = CHRONO_TRACK_STREAM;
      if (t->type == CHRONO_TRACK_STREAM)
        process_has_stream[t->process] = TRUE;
      else if (t->type == CHRONO_TRACK_THREAD && t->n_spans > 0)
        process_has_host[t->process] = TRUE;
      b->final_index = trace->tracks->len;
      g_ptr_array_add (trace->tracks, NULL);  /* filled when the track is taken */
    }

  /* Flows bind on the relative times, before the base is added. */
  links.n_tracks = trace->tracks->len;
  if (input->flow_events->len + input->v2_binds->len >= PARALLEL_MIN_ITEMS)
    {
      GThread *thread = g_thread_new ("chrono-flows", bind_flows, &links);
      chrono_track_link_launches (builders, launches);
      g_thread_join (thread);
    }
  else
    {
      bind_flows (&links);
      chrono_track_link_launches (builders, launches);
    }
  chrono_track_promote_launch_flows (builders, links.n_tracks, v1, launches);
  g_array_append_vals (trace->flows, v1->data, v1->len);
  g_array_append_vals (trace->flows, v2->data, v2->len);
  g_array_append_vals (trace->flows, launches->data, launches->len);
  if (input->edges != NULL)
    chrono_track_add_span_edges (trace, input->edges);
  stats->flows = v1->len + v2->len;
  stats->launch_links = launches->len;
  if (links.no_start > 0)
    chrono_trace_add_quirk (trace, g_dngettext (GETTEXT_PACKAGE,
                                                  "%" PRIu64 " flow end has no start, so no arrow "
                                                  "(Kineto writes such an end on every runtime call, also on "
                                                  "those that launch nothing)",
                                                  "%" PRIu64 " flow ends have no start, so no arrow "
                                                  "(Kineto writes such an end on every runtime call, also on "
                                                  "those that launch nothing)", links.no_start),
                              links.no_start);
  if (links.unmatched > links.no_start)
    chrono_trace_add_warning (trace, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " flow event has no partner or no slice to attach to",
                              "%" PRIu64 " flow events have no partner or no slice to attach to",
                              links.unmatched - links.no_start),
                              links.unmatched - links.no_start);

  /* A base that would carry the times past the 64-bit range does not
   * belong to them: they are absolute already. */
  if (trace->base_time_ns != 0 &&
      (__builtin_add_overflow (input->min_ts, trace->base_time_ns, &shifted) ||
       __builtin_add_overflow (end, trace->base_time_ns, &shifted)))
    {
      chrono_trace_add_quirk (trace, "baseTimeNanoseconds %" G_GINT64_FORMAT " ignored: it would carry the "
                                "times past the 64-bit range", trace->base_time_ns);
      trace->base_time_ns = 0;
    }
  for (guint i = 0; i < builders->len; i++)
    {
      ChronoTrackBuilder *b = g_ptr_array_index (builders, i);

      if (b->final_index == G_MAXUINT32)
        continue;
      if (trace->base_time_ns != 0)
        shift_times (&b->track, trace->base_time_ns);
      trace->tracks->pdata[b->final_index] = take_track (b);
    }

  for (guint p = 0; p < trace->processes->len; p++)
    {
      ChronoProcess *process = &g_array_index (trace->processes, ChronoProcess, p);

      /* Kineto gives GPU rows the device index as pid. */
      if (process_has_stream[p] && !process_has_host[p] && !process->pid.is_string)
        {
          process->is_device = TRUE;
          process->device_index = (gint) process->pid.value;
        }
    }
  chrono_track_name_processes (trace);
  for (guint i = 0; i < trace->tracks->len; i++)
    chrono_track_name (trace, g_ptr_array_index (trace->tracks, i));

  trace->start_ns = input->min_ts + trace->base_time_ns;
  trace->end_ns = end + trace->base_time_ns;

  for (guint i = 0; i < trace->tracks->len; i++)
    {
      const ChronoTrack *t = g_ptr_array_index (trace->tracks, i);

      stats->instants += t->n_instants;
      stats->counter_samples += t->n_samples;
      for (guint32 s = 0; s < t->n_spans; s++)
        stats->kinds[t->kind[s]]++;
    }
  stats->async_spans = stats->kinds[CHRONO_KIND_ASYNC];
  for (guint k = 0; k < CHRONO_N_KINDS; k++)
    if (k != CHRONO_KIND_ASYNC)
      stats->spans += stats->kinds[k];
  if (stray > 0)
    {
      stats->dropped += stray;
      chrono_trace_add_warning (trace, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " end event ('E') closes no slice", "%" PRIu64 " end events ('E') close no slice", stray), stray);
    }
  if (unclosed > 0)
    chrono_trace_add_quirk (trace, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " slice did not end; it runs to the end of the trace",
                              "%" PRIu64 " slices did not end; they run to the end of the trace", unclosed),
                              unclosed);
}
