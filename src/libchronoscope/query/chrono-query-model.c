/* chrono-query-model.c: the traces as one, for the query engine's tables
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-query-private.h"

typedef struct {
  guint64 to;
  guint64 from;
} Launch;

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

static int
compare_launch (gconstpointer a,
                gconstpointer b)
{
  const Launch *x = a;
  const Launch *y = b;

  return x->to < y->to ? -1 : x->to > y->to;
}

static GArray *
build_launches (ChronoQueryModel *model)
{
  GArray *launches = g_array_new (FALSE, FALSE, sizeof (Launch));

  for (guint t = 0; t < model->n_traces; t++)
    {
      ChronoTrace *trace = model->traces[t];
      guint32 first = model->trace_first_track[t];

      for (guint f = 0; f < chrono_trace_get_n_flows (trace); f++)
        {
          const ChronoFlow *flow = chrono_trace_get_flow (trace, f);
          Launch launch;

          if (flow->type != CHRONO_FLOW_LAUNCH)
            continue;
          launch.to = chrono_query_model_span_id (model, first + flow->to.track, flow->to.index);
          launch.from = chrono_query_model_span_id (model, first + flow->from.track, flow->from.index);
          g_array_append_val (launches, launch);
        }
    }
  g_array_sort (launches, compare_launch);
  return launches;
}

gint64
chrono_query_model_get_launch (ChronoQueryModel *model,
                               guint64           id)
{
  const Launch *launches;
  guint lo = 0;
  guint hi;

  if (model->launches == NULL)
    model->launches = build_launches (model);
  launches = (const Launch *) (gpointer) model->launches->data;
  hi = model->launches->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (launches[mid].to < id)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < model->launches->len && launches[lo].to == id ? (gint64) launches[lo].from : -1;
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
