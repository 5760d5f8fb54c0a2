/* chrono-query-model.c: the traces as one, for the query engine's tables
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-kineto.h"
#include "chrono-neuron-execution.h"
#include "chrono-query-private.h"

void
chrono_query_model_init (ChronoQueryModel    *model,
                         ChronoTrace * const *traces,
                         guint                n_traces)
{
  guint n_tracks = 0;
  guint n_processes = 0;
  guint n_ranks = 0;
  guint g = 0;

  memset (model, 0, sizeof *model);
  model->n_traces = n_traces;
  model->traces = g_new (ChronoTrace *, n_traces);
  model->trace_first_track = g_new (guint32, n_traces + 1);
  model->trace_first_process = g_new (guint32, n_traces + 1);
  for (guint t = 0; t < n_traces; t++)
    {
      model->traces[t] = g_object_ref (traces[t]);
      model->trace_first_track[t] = n_tracks;
      model->trace_first_process[t] = n_processes;
      n_tracks += chrono_trace_get_n_tracks (traces[t]);
      n_processes += chrono_trace_get_n_processes (traces[t]);
      n_ranks += chrono_trace_get_n_parts (traces[t]);
    }
  model->trace_first_track[n_traces] = n_tracks;
  model->trace_first_process[n_traces] = n_processes;

  model->n_tracks = n_tracks;
  model->tracks = g_new (const ChronoTrack *, n_tracks);
  model->track_trace = g_new (ChronoTrace *, n_tracks);
  model->track_trace_index = g_new (guint, n_tracks);
  model->track_local = g_new (guint32, n_tracks);
  model->track_process = g_new (guint32, n_tracks);
  model->track_rank = g_new (guint, n_tracks);
  model->span_base = g_new (guint64, n_tracks + 1);
  model->n_ranks = n_ranks;
  model->rank_trace = g_new (guint, n_ranks);
  model->rank_part = g_new (guint, n_ranks);
  model->parents = g_new0 (guint32 *, n_tracks);
  model->max_dur = g_new (gint64, n_tracks);
  model->schemas = g_ptr_array_new_with_free_func (g_free);

  n_ranks = 0;
  model->span_base[0] = 0;
  for (guint t = 0; t < n_traces; t++)
    {
      ChronoTrace *trace = traces[t];
      guint first_rank = n_ranks;

      for (guint p = 0; p < chrono_trace_get_n_parts (trace); p++, n_ranks++)
        {
          model->rank_trace[n_ranks] = t;
          model->rank_part[n_ranks] = p;
        }
      for (guint i = 0; i < chrono_trace_get_n_tracks (trace); i++, g++)
        {
          const ChronoTrack *track = chrono_trace_get_track (trace, i);
          gint part = chrono_trace_get_part_of_process (trace, track->process);

          model->tracks[g] = track;
          model->track_trace[g] = trace;
          model->track_trace_index[g] = t;
          model->track_local[g] = i;
          model->track_process[g] = model->trace_first_process[t] + track->process;
          model->track_rank[g] = first_rank + MAX (part, 0);
          model->span_base[g + 1] = model->span_base[g] + track->n_spans;
          model->max_dur[g] = -1;
        }
    }
}

void
chrono_query_model_clear (ChronoQueryModel *model)
{
  for (guint t = 0; t < model->n_traces; t++)
    g_object_unref (model->traces[t]);
  for (guint g = 0; g < model->n_tracks; g++)
    g_free (model->parents[g]);
  g_free (model->traces);
  g_free (model->trace_first_track);
  g_free (model->trace_first_process);
  g_free (model->tracks);
  g_free (model->track_trace);
  g_free (model->track_trace_index);
  g_free (model->track_local);
  g_free (model->track_process);
  g_free (model->track_rank);
  g_free (model->span_base);
  g_free (model->rank_trace);
  g_free (model->rank_part);
  g_free (model->parents);
  g_free (model->max_dur);
  g_clear_pointer (&model->launches, g_array_unref);
  g_clear_pointer (&model->by_name, g_free);
  g_clear_pointer (&model->schemas, g_ptr_array_unref);
  memset (model, 0, sizeof *model);
}

guint32
chrono_query_model_find_track (const ChronoQueryModel *model,
                               guint64                 id)
{
  guint32 lo = 0;
  guint32 hi = model->n_tracks;

  /* The last track whose base is at most ID and that has spans. */
  while (hi - lo > 1)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (model->span_base[mid] <= id)
        lo = mid;
      else
        hi = mid;
    }
  while (lo + 1 < model->n_tracks && model->span_base[lo + 1] <= id)
    lo++;
  return lo;
}

/* Spans are sorted by start and nest within their lane, so a span's
 * parent is the last span before it in its lane one level up. */
static guint32 *
build_parents (const ChronoTrack *track)
{
  guint32 *parents = g_new (guint32, MAX (track->n_spans, 1));
  guint levels = (guint) track->max_depth + 1;
  gsize n_open = (gsize) MAX (track->n_lanes, 1) * levels;
  g_autofree guint32 *open = g_new (guint32, n_open);

  memset (open, 0xff, n_open * sizeof *open);

  for (guint32 i = 0; i < track->n_spans; i++)
    {
      guint depth = track->depth[i];
      guint32 *lane = open + (gsize) track->lane[i] * levels;

      parents[i] = depth > 0 ? lane[depth - 1] : CHRONO_QUERY_NO_PARENT;
      lane[depth] = i;
    }
  return parents;
}

guint32
chrono_query_model_get_parent (ChronoQueryModel *model,
                               guint32           track,
                               guint32           index)
{
  if (model->tracks[track]->depth == NULL)
    return CHRONO_QUERY_NO_PARENT;
  if (model->parents[track] == NULL)
    model->parents[track] = build_parents (model->tracks[track]);
  return model->parents[track][index];
}

gint64
chrono_query_model_get_max_dur (ChronoQueryModel *model,
                                guint32           track)
{
  const ChronoTrack *t = model->tracks[track];
  gint64 max = 0;

  if (model->max_dur[track] >= 0)
    return model->max_dur[track];
  if (t->n_spans > 0)
    CHRONO_INT_COLUMN_FOREACH (&t->dur, t->n_spans, i, dur, { if (dur > max) max = dur; });
  model->max_dur[track] = max;
  return max;
}

guint32
chrono_query_model_lower_bound (const ChronoTrack *track,
                                gint64             ts)
{
  guint32 lo = 0;
  guint32 hi = track->n_spans;

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (track->start[mid] < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Whether span INDEX of TRACK is an operator: a host op, or a collective
 * whose category is an operator's (record_param_comms, not the
 * nccl:all_reduce annotation around or inside it). */
static gboolean
is_operator (ChronoQueryModel *model,
             guint32           track,
             guint32           index)
{
  const ChronoTrack *t = model->tracks[track];
  const char *cat;
  gboolean on_device;

  if (t->kind[index] == CHRONO_KIND_HOST_OP)
    return TRUE;
  if (t->kind[index] != CHRONO_KIND_COLLECTIVE)
    return FALSE;
  cat = chrono_trace_get_string (model->track_trace[track], chrono_track_get_cat (t, index));
  return chrono_kineto_classify (cat, strlen (cat), "", 0, &on_device) == CHRONO_KIND_HOST_OP;
}

gint64
chrono_query_model_find_operator (ChronoQueryModel *model,
                                  guint64           id)
{
  guint32 track = chrono_query_model_find_track (model, id);
  guint32 index = (guint32) (id - model->span_base[track]);

  while (index != CHRONO_QUERY_NO_PARENT)
    {
      if (is_operator (model, track, index))
        return (gint64) chrono_query_model_span_id (model, track, index);
      index = chrono_query_model_get_parent (model, track, index);
    }
  return -1;
}

static int
compare_launch (gconstpointer a,
                gconstpointer b)
{
  const ChronoQueryLaunch *x = a;
  const ChronoQueryLaunch *y = b;

  return x->to < y->to ? -1 : x->to > y->to;
}

/* The integer value of arg KEY of span INDEX of TRACK, or -1. */
static gint64
int_arg (ChronoQueryModel *model,
         guint32           track,
         guint32           index,
         const char       *key)
{
  g_autofree char *text = chrono_trace_dup_arg (model->track_trace[track],
                                                chrono_track_get_args (model->tracks[track], index), key);

  return text != NULL ? g_ascii_strtoll (text, NULL, 10) : -1;
}

/* Trace T's operators by their "External id", made when first needed. */
static GHashTable *
operators_by_external_id (ChronoQueryModel *model,
                          guint             t,
                          GHashTable      **table)
{
  if (*table != NULL)
    return *table;
  *table = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint32 g = model->trace_first_track[t]; g < model->trace_first_track[t + 1]; g++)
    for (guint32 i = 0; i < model->tracks[g]->n_spans; i++)
      {
        gint64 external;

        if (is_operator (model, g, i) && (external = int_arg (model, g, i, "External id")) >= 0 &&
            !g_hash_table_contains (*table, &external))
          g_hash_table_insert (*table, g_memdup2 (&external, sizeof external),
                               GSIZE_TO_POINTER (chrono_query_model_span_id (model, g, i) + 1));
      }
  return *table;
}

/* The operator of the Neuron runtime call LAUNCHER (a span of trace T)
 * over an execution that starts at START: the innermost one around it;
 * else, when PyTorch recorded the same call (a span of that name over the
 * start) on a thread of its own, the operator that its "External id"
 * names, as Kineto links a runtime record to the operator that made it.
 * -1 when there is none. */
static gint64
neuron_operator (ChronoQueryModel *model,
                 guint             t,
                 guint64           launcher,
                 gint64            start,
                 GHashTable      **by_external_id)
{
  guint32 lt = chrono_query_model_find_track (model, launcher);
  guint32 name = chrono_track_get_name (model->tracks[lt], (guint32) (launcher - model->span_base[lt]));
  gint64 op = chrono_query_model_find_operator (model, launcher);

  for (guint32 g = model->trace_first_track[t]; op < 0 && g < model->trace_first_track[t + 1]; g++)
    {
      const ChronoTrack *track = model->tracks[g];

      for (guint32 i = 0; op < 0 && i < track->n_spans && track->start[i] <= start; i++)
        {
          gint64 external;

          if (chrono_track_get_name (track, i) == name && chrono_track_get_end (track, i) >= start &&
              (external = int_arg (model, g, i, "External id")) >= 0)
            op = (gint64) GPOINTER_TO_SIZE (g_hash_table_lookup (operators_by_external_id (model, t, by_external_id),
                                                                 &external)) - 1;
        }
    }
  return op;
}

/* A Neuron profile folder's device work: the instructions and transfers
 * of a NeuronCore's row that start within one of its executions were
 * launched by the execution's nrt_execute (chrono-neuron-execution.h),
 * and so was the execution's own nc_exec_running. Each row's spans of one
 * execution are one run of ids, found by a pair of binary searches, and
 * the launch is looked for once per execution that holds any. */
static void
add_neuron_launches (ChronoQueryModel *model,
                     guint             t,
                     GArray           *launches)
{
  ChronoTrace *trace = model->traces[t];
  g_autoptr(GArray) executions = chrono_neuron_execution_list (trace);
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (ChronoQueryLaunch));
  g_autoptr(GHashTable) by_external_id = NULL;
  g_autofree ChronoQueryLaunch *found = g_new0 (ChronoQueryLaunch, MAX (executions->len, 1));
  g_autofree gboolean *used = g_new0 (gboolean, MAX (executions->len, 1));
  guint32 first = model->trace_first_track[t];

  /* The runs, each with its execution's index in FROM for now. */
  for (guint32 g = first; g < model->trace_first_track[t + 1]; g++)
    {
      const ChronoTrack *track = model->tracks[g];
      const ChronoProcess *process = chrono_trace_get_process (trace, track->process);

      if (!process->is_device || track->type != CHRONO_TRACK_STREAM || track->n_spans == 0)
        continue;
      for (guint e = 0; e < executions->len; e++)
        {
          const ChronoNeuronCoreExecution *x = &g_array_index (executions, ChronoNeuronCoreExecution, e);
          guint32 lo, hi;
          ChronoQueryLaunch run;

          if (x->core != process->device_index)
            continue;
          lo = chrono_query_model_lower_bound (track, x->execution.start_ns);
          hi = chrono_query_model_lower_bound (track, x->execution.end_ns);
          if (lo >= hi)
            continue;
          run = (ChronoQueryLaunch) { chrono_query_model_span_id (model, g, lo), chrono_query_model_span_id (model, g, hi), e, -1 };
          g_array_append_val (runs, run);
          used[e] = TRUE;
        }
    }

  for (guint e = 0; e < executions->len; e++)
    {
      const ChronoNeuronCoreExecution *x = &g_array_index (executions, ChronoNeuronCoreExecution, e);
      ChronoSpanRef launcher;

      if (!used[e] || !chrono_neuron_execution_launcher (trace, &x->execution, &launcher))
        {
          used[e] = FALSE;
          continue;
        }
      found[e].from = chrono_query_model_span_id (model, first + launcher.track, launcher.index);
      found[e].op = neuron_operator (model, t, found[e].from, x->execution.start_ns, &by_external_id);
      found[e].to = chrono_query_model_span_id (model, first + x->execution.running.track, x->execution.running.index);
      found[e].to_end = found[e].to + 1;
      g_array_append_val (launches, found[e]);
    }
  for (guint r = 0; r < runs->len; r++)
    {
      ChronoQueryLaunch *run = &g_array_index (runs, ChronoQueryLaunch, r);
      guint e = (guint) run->from;

      if (!used[e])
        continue;
      run->from = found[e].from;
      run->op = found[e].op;
      g_array_append_val (launches, *run);
    }
}

static GArray *
build_launches (ChronoQueryModel *model)
{
  GArray *launches = g_array_new (FALSE, FALSE, sizeof (ChronoQueryLaunch));

  for (guint t = 0; t < model->n_traces; t++)
    {
      ChronoTrace *trace = model->traces[t];
      guint32 first = model->trace_first_track[t];

      for (guint f = 0; f < chrono_trace_get_n_flows (trace); f++)
        {
          const ChronoFlow *flow = chrono_trace_get_flow (trace, f);
          ChronoQueryLaunch launch;

          if (flow->type != CHRONO_FLOW_LAUNCH)
            continue;
          launch.to = chrono_query_model_span_id (model, first + flow->to.track, flow->to.index);
          launch.to_end = launch.to + 1;
          launch.from = chrono_query_model_span_id (model, first + flow->from.track, flow->from.index);
          launch.op = CHRONO_QUERY_OP_AROUND;
          g_array_append_val (launches, launch);
        }
      add_neuron_launches (model, t, launches);
    }
  g_array_sort (launches, compare_launch);
  return launches;
}

const ChronoQueryLaunch *
chrono_query_model_get_launch (ChronoQueryModel *model,
                               guint64           id)
{
  const ChronoQueryLaunch *launches;
  guint lo = 0;
  guint hi;

  if (model->launches == NULL)
    model->launches = build_launches (model);
  launches = (const ChronoQueryLaunch *) (gpointer) model->launches->data;
  hi = model->launches->len;
  if (model->launch_hint < hi && launches[model->launch_hint].to <= id && id < launches[model->launch_hint].to_end)
    return &launches[model->launch_hint];
  /* The last launch that starts at or before ID. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (launches[mid].to <= id)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || id >= launches[lo - 1].to_end)
    return NULL;
  model->launch_hint = lo - 1;
  return &launches[lo - 1];
}

/* A counting sort of the span ids by name, a name being its text: each
 * trace's string ids are numbered once across the traces. */
static guint32 *
build_by_name (ChronoQueryModel *model)
{
  guint64 n_spans = model->span_base[model->n_tracks];
  g_autoptr(GHashTable) numbers = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) maps = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint64 *next = NULL;
  guint32 *ids;

  for (guint t = 0; t < model->n_traces; t++)
    {
      guint n_strings = chrono_trace_get_n_strings (model->traces[t]);
      guint32 *map = g_new (guint32, MAX (n_strings, 1));

      for (guint32 id = 0; id < n_strings; id++)
        {
          const char *text = chrono_trace_get_string (model->traces[t], id);
          gpointer number;

          if (!g_hash_table_lookup_extended (numbers, text, NULL, &number))
            g_hash_table_insert (numbers, (gpointer) text, number = GUINT_TO_POINTER (g_hash_table_size (numbers)));
          map[id] = GPOINTER_TO_UINT (number);
        }
      g_ptr_array_add (maps, map);
    }

  next = g_new0 (guint64, g_hash_table_size (numbers) + 1);
  for (guint g = 0; g < model->n_tracks; g++)
    {
      const guint32 *map = g_ptr_array_index (maps, model->track_trace_index[g]);
      const ChronoTrack *track = model->tracks[g];

      if (track->n_spans > 0)
        CHRONO_INT_COLUMN_FOREACH (&track->name_id, track->n_spans, i, name, { next[map[name] + 1]++; });
    }
  for (guint n = 0; n < g_hash_table_size (numbers); n++)
    next[n + 1] += next[n];

  ids = g_new (guint32, MAX (n_spans, 1));
  for (guint g = 0; g < model->n_tracks; g++)
    {
      const guint32 *map = g_ptr_array_index (maps, model->track_trace_index[g]);
      const ChronoTrack *track = model->tracks[g];

      if (track->n_spans > 0)
        CHRONO_INT_COLUMN_FOREACH (&track->name_id, track->n_spans, i, name, {
          ids[next[map[name]]++] = (guint32) (model->span_base[g] + i);
        });
    }
  return ids;
}

const guint32 *
chrono_query_model_get_by_name (ChronoQueryModel *model)
{
  if (model->span_base[model->n_tracks] > G_MAXUINT32)
    return NULL;
  if (model->by_name == NULL)
    model->by_name = build_by_name (model);
  return model->by_name;
}

GArray *
chrono_query_model_find_string (ChronoTrace *trace,
                                const char  *text)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 id = 0; id < chrono_trace_get_n_strings (trace); id++)
    if (strcmp (chrono_trace_get_string (trace, id), text) == 0)
      g_array_append_val (ids, id);
  return ids;
}

int
chrono_query_vtab_new (sqlite3       *db,
                       const char    *schema,
                       gsize          size,
                       sqlite3_vtab **out)
{
  int rc = sqlite3_declare_vtab (db, schema);

  if (rc != SQLITE_OK)
    return rc;
  *out = sqlite3_malloc64 (size);
  if (*out == NULL)
    return SQLITE_NOMEM;
  memset (*out, 0, size);
  return SQLITE_OK;
}

int
chrono_query_cursor_new (sqlite3_vtab         *vtab,
                         gsize                 size,
                         sqlite3_vtab_cursor **out)
{
  *out = sqlite3_malloc64 (size);
  if (*out == NULL)
    return SQLITE_NOMEM;
  memset (*out, 0, size);
  (*out)->pVtab = vtab;
  return SQLITE_OK;
}

int
chrono_query_vtab_free (sqlite3_vtab *vtab)
{
  sqlite3_free (vtab);
  return SQLITE_OK;
}

int
chrono_query_cursor_free (sqlite3_vtab_cursor *cursor)
{
  sqlite3_free (cursor);
  return SQLITE_OK;
}
