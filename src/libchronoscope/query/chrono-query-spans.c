/* chrono-query-spans.c: the spans and device_work tables, read in place
 *
 * Both walk the tracks' columns without copying them. Constraints on id,
 * track_id, rank, ts, ts_end and name are taken into the scan: a track
 * or a rank limits the tracks visited, ts bounds are found by binary
 * search in each track's sorted starts, a lower bound on ts_end becomes
 * one on ts through the track's longest span, and a name is compared as
 * its interned id. An IN list of tracks or names is taken whole
 * (sqlite3_vtab_in): one scan visits only those tracks, or tests each
 * span's name id against the set, rather than one scan per value.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-query-private.h"

enum {
  COL_ID, COL_RANK, COL_TRACK, COL_TS, COL_DUR, COL_END, COL_NAME, COL_CAT,
  COL_KIND, COL_DEPTH, COL_LANE, COL_PARENT, COL_CORRELATION,
  /* device_work only */
  COL_LAUNCH, COL_OP, COL_OP_NAME,
};

#define SPAN_COLUMNS \
  "id INTEGER PRIMARY KEY, rank INTEGER, track_id INTEGER, ts INTEGER, dur INTEGER, " \
  "ts_end INTEGER, name TEXT, category TEXT, kind TEXT, depth INTEGER, lane INTEGER, " \
  "parent_id INTEGER, correlation INTEGER"

static const char spans_schema[] = "CREATE TABLE spans(" SPAN_COLUMNS ")";
static const char device_schema[] =
  "CREATE TABLE device_work(" SPAN_COLUMNS ", launch_id INTEGER, op_id INTEGER, op_name TEXT)";

/* The letters of idxStr, one per argument xFilter receives. */
enum {
  ARG_ID = 'i',
  ARG_TRACK = 't',
  ARG_TRACK_IN = 'T',
  ARG_RANK = 'r',
  ARG_NAME = 'n',
  ARG_NAME_IN = 'N',
  ARG_TS_GT = '>',
  ARG_TS_GE = 'g',
  ARG_TS_LT = '<',
  ARG_TS_LE = 'l',
  ARG_TS_EQ = '=',
  ARG_END_GT = 'E',
  ARG_END_GE = 'e',
};

/* idxNum: the rows come grouped by name. */
#define GROUPED_BY_NAME 1

typedef struct {
  sqlite3_vtab      base;
  ChronoQueryModel *model;
  gboolean          device;
} SpansTable;

typedef struct {
  sqlite3_vtab_cursor base;
  SpansTable *table;
  guint32  track;
  guint32  track_end;
  guint32  index;
  guint32  index_end;
  gboolean single;        /* one id asked for: index and index_end are set */
  const guint32 *grouped; /* spans in the order of their names, or NULL */
  guint64  position;      /* in GROUPED */
  gint64   ts_lo;         /* inclusive bounds */
  gint64   ts_hi;
  gint64   end_lo;
  GArray **name_ids;      /* per trace, sorted; NULL when no name was asked for */
  guint8  *track_set;     /* per track, whether an IN list names it; NULL for all */
} SpansCursor;

static gboolean
is_device_work (const ChronoTrack *track,
                guint32            i)
{
  switch (track->kind[i])
    {
    case CHRONO_KIND_KERNEL:
    case CHRONO_KIND_MEMCPY:
    case CHRONO_KIND_MEMSET:
    case CHRONO_KIND_COLLECTIVE:
    case CHRONO_KIND_INSTRUCTION:
    case CHRONO_KIND_DMA:
      return TRUE;
    default:
      return FALSE;
    }
}

static int
spans_connect_common (sqlite3       *db,
                      void          *aux,
                      sqlite3_vtab **out,
                      gboolean       device)
{
  int rc = chrono_query_vtab_new (db, device ? device_schema : spans_schema, sizeof (SpansTable), out);

  if (rc == SQLITE_OK)
    {
      ((SpansTable *) *out)->model = aux;
      ((SpansTable *) *out)->device = device;
    }
  return rc;
}

static int
spans_connect (sqlite3            *db,
               void               *aux,
               int                 argc,
               const char * const *argv,
               sqlite3_vtab      **out,
               char              **err)
{
  return spans_connect_common (db, aux, out, FALSE);
}

static int
device_connect (sqlite3            *db,
                void               *aux,
                int                 argc,
                const char * const *argv,
                sqlite3_vtab      **out,
                char              **err)
{
  return spans_connect_common (db, aux, out, TRUE);
}

static char
constraint_letter (int column,
                   int op)
{
  switch (column)
    {
    case COL_ID:
      return op == SQLITE_INDEX_CONSTRAINT_EQ ? ARG_ID : 0;
    case COL_TRACK:
      return op == SQLITE_INDEX_CONSTRAINT_EQ ? ARG_TRACK : 0;
    case COL_RANK:
      return op == SQLITE_INDEX_CONSTRAINT_EQ ? ARG_RANK : 0;
    case COL_NAME:
      return op == SQLITE_INDEX_CONSTRAINT_EQ ? ARG_NAME : 0;
    case COL_TS:
      switch (op)
        {
        case SQLITE_INDEX_CONSTRAINT_GT: return ARG_TS_GT;
        case SQLITE_INDEX_CONSTRAINT_GE: return ARG_TS_GE;
        case SQLITE_INDEX_CONSTRAINT_LT: return ARG_TS_LT;
        case SQLITE_INDEX_CONSTRAINT_LE: return ARG_TS_LE;
        case SQLITE_INDEX_CONSTRAINT_EQ: return ARG_TS_EQ;
        default: return 0;
        }
    case COL_END:
      switch (op)
        {
        case SQLITE_INDEX_CONSTRAINT_GT: return ARG_END_GT;
        case SQLITE_INDEX_CONSTRAINT_GE: return ARG_END_GE;
        default: return 0;
        }
    default:
      return 0;
    }
}

static int
spans_best_index (sqlite3_vtab       *vtab,
                  sqlite3_index_info *info)
{
  SpansTable *table = (SpansTable *) vtab;
  const ChronoQueryModel *model = table->model;
  double rows = (double) MAX (model->span_base[model->n_tracks], 1);
  char letters[16];
  int n = 0;

  for (int c = 0; c < info->nConstraint && n < (int) sizeof letters - 1; c++)
    {
      const struct sqlite3_index_constraint *constraint = &info->aConstraint[c];
      char letter;

      if (!constraint->usable)
        continue;
      letter = constraint_letter (constraint->iColumn, constraint->op);
      /* One constraint on a track or a name, and one of each other kind,
       * is enough; SQLite checks any others itself. */
      if (letter == 0 || memchr (letters, letter, n) != NULL ||
          (letter == ARG_TRACK && memchr (letters, ARG_TRACK_IN, n) != NULL) ||
          (letter == ARG_NAME && memchr (letters, ARG_NAME_IN, n) != NULL))
        continue;
      if ((letter == ARG_TRACK || letter == ARG_NAME) && sqlite3_vtab_in (info, c, 1))
        letter = letter == ARG_TRACK ? ARG_TRACK_IN : ARG_NAME_IN;
      letters[n++] = letter;
      info->aConstraintUsage[c].argvIndex = n;
      info->aConstraintUsage[c].omit = 1;
      switch (letter)
        {
        case ARG_ID:
          rows = 1;
          info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
          break;
        case ARG_TRACK:
          rows /= MAX (model->n_tracks, 1);
          break;
        case ARG_TRACK_IN:
          rows = rows * 4 / MAX (model->n_tracks, 4);
          break;
        case ARG_RANK:
          rows /= MAX (model->n_ranks, 1);
          break;
        case ARG_NAME:
          rows /= 50;
          break;
        case ARG_NAME_IN:
          rows /= 10;
          break;
        case ARG_TS_EQ:
          rows /= 10000;
          break;
        default:
          rows /= 8;
          break;
        }
    }
  letters[n] = '\0';
  /* A GROUP BY name (or DISTINCT name) of the whole table reads the spans
   * already grouped by name instead of sorting them all; with a name
   * asked for, every row has that name. */
  if (info->nOrderBy == 1 && info->aOrderBy[0].iColumn == COL_NAME &&
      sqlite3_vtab_distinct (info) >= 1 && sqlite3_vtab_distinct (info) <= 2 &&
      (n == 0 || (n == 1 && letters[0] == ARG_NAME)) &&
      model->span_base[model->n_tracks] <= G_MAXUINT32)
    {
      info->orderByConsumed = 1;
      if (n == 0)
        info->idxNum = GROUPED_BY_NAME;
    }
  info->idxStr = sqlite3_mprintf ("%s", letters);
  info->needToFreeIdxStr = 1;
  info->estimatedRows = (sqlite3_int64) MAX (rows, 1);
  info->estimatedCost = MAX (rows, 1);
  return SQLITE_OK;
}

static int
spans_open (sqlite3_vtab         *vtab,
            sqlite3_vtab_cursor **out)
{
  int rc = chrono_query_cursor_new (vtab, sizeof (SpansCursor), out);

  if (rc == SQLITE_OK)
    ((SpansCursor *) *out)->table = (SpansTable *) vtab;
  return rc;
}

static void
clear_sets (SpansCursor *cursor)
{
  g_clear_pointer (&cursor->track_set, g_free);
  if (cursor->name_ids == NULL)
    return;
  for (guint t = 0; t < cursor->table->model->n_traces; t++)
    g_array_unref (cursor->name_ids[t]);
  g_clear_pointer (&cursor->name_ids, g_free);
}

static int
spans_close (sqlite3_vtab_cursor *base)
{
  SpansCursor *cursor = (SpansCursor *) base;

  clear_sets (cursor);
  return chrono_query_cursor_free (base);
}

static gboolean
row_matches (SpansCursor *cursor)
{
  const ChronoQueryModel *model = cursor->table->model;
  const ChronoTrack *track = model->tracks[cursor->track];
  guint32 i = cursor->index;

  if (cursor->table->device && !is_device_work (track, i))
    return FALSE;
  if (cursor->end_lo != G_MININT64 && chrono_track_get_end (track, i) < cursor->end_lo)
    return FALSE;
  if (cursor->name_ids != NULL)
    {
      GArray *ids = cursor->name_ids[model->track_trace_index[cursor->track]];
      guint32 name = chrono_track_get_name (track, i);
      guint lo = 0, hi = ids->len;

      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (g_array_index (ids, guint32, mid) < name)
            lo = mid + 1;
          else
            hi = mid;
        }
      return lo < ids->len && g_array_index (ids, guint32, lo) == name;
    }
  return TRUE;
}

/* Sets the index range of the current track from the time bounds. */
static void
enter_track (SpansCursor *cursor)
{
  const ChronoTrack *track = cursor->table->model->tracks[cursor->track];
  gint64 lo = cursor->ts_lo;

  if (cursor->end_lo != G_MININT64 && track->n_spans > 0)
    {
      gint64 longest = chrono_query_model_get_max_dur (cursor->table->model, cursor->track);

      if (cursor->end_lo > G_MININT64 + longest)
        lo = MAX (lo, cursor->end_lo - longest);
    }
  cursor->index = lo == G_MININT64 ? 0 : chrono_query_model_lower_bound (track, lo);
  cursor->index_end = cursor->ts_hi == G_MAXINT64 ? track->n_spans : chrono_query_model_lower_bound (track, cursor->ts_hi + 1);
}

/* Moves to the next matching row from the current position, the current
 * one included. */
static void
settle (SpansCursor *cursor)
{
  const ChronoQueryModel *model = cursor->table->model;

  if (cursor->grouped != NULL)
    {
      for (; cursor->position < model->span_base[model->n_tracks]; cursor->position++)
        {
          guint32 id = cursor->grouped[cursor->position];

          cursor->track = chrono_query_model_find_track (model, id);
          cursor->index = id - (guint32) model->span_base[cursor->track];
          if ((!cursor->table->device || model->tracks[cursor->track]->type == CHRONO_TRACK_STREAM) &&
              row_matches (cursor))
            return;
        }
      cursor->track = cursor->track_end;
      return;
    }
  while (cursor->track < cursor->track_end)
    {
      const ChronoTrack *track = model->tracks[cursor->track];
      gboolean wanted = track->n_spans > 0 &&
                        (!cursor->table->device || track->type == CHRONO_TRACK_STREAM) &&
                        (cursor->track_set == NULL || cursor->track_set[cursor->track]);

      if (wanted)
        for (; cursor->index < cursor->index_end; cursor->index++)
          if (row_matches (cursor))
            return;
      if (cursor->single)
        break;
      cursor->track++;
      if (cursor->track < cursor->track_end)
        enter_track (cursor);
    }
  cursor->track = cursor->track_end;
}

/* Reads a bound on an integer column from VALUE as SQLite would compare
 * it: reals round towards the inside of the range. FALSE when nothing
 * can match (NULL, text). */
static gboolean
read_bound (sqlite3_value *value,
            char           letter,
            gint64        *out)
{
  double real;

  switch (sqlite3_value_numeric_type (value))
    {
    case SQLITE_INTEGER:
      *out = sqlite3_value_int64 (value);
      return TRUE;
    case SQLITE_FLOAT:
      real = sqlite3_value_double (value);
      if (isnan (real))
        return FALSE;
      switch (letter)
        {
        case ARG_TS_GT:
        case ARG_END_GT:
          real = floor (real);
          break;
        case ARG_TS_GE:
        case ARG_END_GE:
          real = ceil (real);
          break;
        case ARG_TS_LT:
          real = ceil (real);
          break;
        case ARG_TS_LE:
          real = floor (real);
          break;
        default:
          if (real != floor (real))
            return FALSE;
          break;
        }
      *out = real >= 9.2e18 ? G_MAXINT64 : real <= -9.2e18 ? G_MININT64 : (gint64) real;
      return TRUE;
    default:
      return FALSE;
    }
}

/* Adds the ids of the name VALUE to the cursor's names; FALSE when it is
 * NULL (which equals nothing). */
static gboolean
add_name (SpansCursor   *cursor,
          sqlite3_value *value)
{
  ChronoQueryModel *model = cursor->table->model;
  const char *text = (const char *) sqlite3_value_text (value);

  if (text == NULL)
    return FALSE;
  if (cursor->name_ids == NULL)
    {
      cursor->name_ids = g_new (GArray *, model->n_traces);
      for (guint t = 0; t < model->n_traces; t++)
        cursor->name_ids[t] = g_array_new (FALSE, FALSE, sizeof (guint32));
    }
  for (guint t = 0; t < model->n_traces; t++)
    {
      g_autoptr(GArray) ids = chrono_query_model_find_string (model->traces[t], text);

      g_array_append_vals (cursor->name_ids[t], ids->data, ids->len);
    }
  return TRUE;
}

static gint
compare_ids (gconstpointer a,
             gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return (x > y) - (x < y);
}

/* The names of an IN list, as one sorted set of ids per trace; FALSE when
 * the list has no name. */
static gboolean
filter_names (SpansCursor   *cursor,
              sqlite3_value *list)
{
  sqlite3_value *value = NULL;
  gboolean any = FALSE;

  for (int rc = sqlite3_vtab_in_first (list, &value); rc == SQLITE_OK && value != NULL;
       rc = sqlite3_vtab_in_next (list, &value))
    any |= add_name (cursor, value);
  if (!any)
    return FALSE;
  for (guint t = 0; t < cursor->table->model->n_traces; t++)
    g_array_sort (cursor->name_ids[t], compare_ids);
  return TRUE;
}

/* The tracks of an IN list: the scan runs from the first to the last and
 * skips the others. FALSE when the list names no track. */
static gboolean
filter_tracks (SpansCursor   *cursor,
               sqlite3_value *list)
{
  ChronoQueryModel *model = cursor->table->model;
  sqlite3_value *value = NULL;
  guint32 first = model->n_tracks, last = 0;

  cursor->track_set = g_new0 (guint8, MAX (model->n_tracks, 1));
  for (int rc = sqlite3_vtab_in_first (list, &value); rc == SQLITE_OK && value != NULL;
       rc = sqlite3_vtab_in_next (list, &value))
    {
      gint64 v;

      if (!read_bound (value, ARG_TS_EQ, &v) || v < 0 || v >= model->n_tracks)
        continue;
      cursor->track_set[v] = 1;
      first = MIN (first, (guint32) v);
      last = MAX (last, (guint32) v + 1);
    }
  cursor->track = MAX (cursor->track, first);
  cursor->track_end = MIN (cursor->track_end, last);
  return first < last;
}

static int
spans_filter (sqlite3_vtab_cursor  *base,
              int                   idx_num,
              const char           *idx_str,
              int                   argc,
              sqlite3_value       **argv)
{
  SpansCursor *cursor = (SpansCursor *) base;
  ChronoQueryModel *model = cursor->table->model;
  guint64 n_spans = model->span_base[model->n_tracks];
  gboolean empty = FALSE;

  clear_sets (cursor);
  cursor->track = 0;
  cursor->track_end = model->n_tracks;
  cursor->single = FALSE;
  cursor->grouped = NULL;
  cursor->position = 0;
  cursor->ts_lo = G_MININT64;
  cursor->ts_hi = G_MAXINT64;
  cursor->end_lo = G_MININT64;

  for (int a = 0; a < argc && !empty; a++)
    {
      char letter = idx_str[a];
      gint64 v = 0;

      if (letter == ARG_NAME)
        {
          empty = !add_name (cursor, argv[a]);
          continue;
        }
      if (letter == ARG_NAME_IN || letter == ARG_TRACK_IN)
        {
          empty = !(letter == ARG_NAME_IN ? filter_names (cursor, argv[a]) : filter_tracks (cursor, argv[a]));
          continue;
        }
      if (!read_bound (argv[a], letter, &v))
        {
          empty = TRUE;
          continue;
        }
      switch (letter)
        {
        case ARG_ID:
          if (v < 0 || (guint64) v >= n_spans)
            empty = TRUE;
          else
            {
              guint32 track = chrono_query_model_find_track (model, (guint64) v);

              cursor->single = TRUE;
              cursor->track = MAX (cursor->track, track);
              cursor->track_end = MIN (cursor->track_end, track + 1);
              cursor->index = (guint32) ((guint64) v - model->span_base[track]);
              cursor->index_end = cursor->index + 1;
            }
          break;
        case ARG_TRACK:
          if (v < 0 || v >= model->n_tracks)
            empty = TRUE;
          else
            {
              cursor->track = MAX (cursor->track, (guint32) v);
              cursor->track_end = MIN (cursor->track_end, (guint32) v + 1);
            }
          break;
        case ARG_RANK:
          {
            guint32 first = model->n_tracks;
            guint32 last = 0;

            for (guint32 g = 0; g < model->n_tracks; g++)
              if (v >= 0 && model->track_rank[g] == (guint) v)
                {
                  first = MIN (first, g);
                  last = g + 1;
                }
            cursor->track = MAX (cursor->track, first);
            cursor->track_end = MIN (cursor->track_end, last);
          }
          break;
        case ARG_TS_GT:
          cursor->ts_lo = v == G_MAXINT64 ? v : MAX (cursor->ts_lo, v + 1);
          empty = v == G_MAXINT64;
          break;
        case ARG_TS_GE:
          cursor->ts_lo = MAX (cursor->ts_lo, v);
          break;
        case ARG_TS_LT:
          cursor->ts_hi = MIN (cursor->ts_hi, v - 1);
          empty = v == G_MININT64;
          break;
        case ARG_TS_LE:
          cursor->ts_hi = MIN (cursor->ts_hi, v);
          break;
        case ARG_TS_EQ:
          cursor->ts_lo = MAX (cursor->ts_lo, v);
          cursor->ts_hi = MIN (cursor->ts_hi, v);
          break;
        case ARG_END_GT:
          cursor->end_lo = v == G_MAXINT64 ? v : MAX (cursor->end_lo, v + 1);
          empty = v == G_MAXINT64;
          break;
        case ARG_END_GE:
          cursor->end_lo = MAX (cursor->end_lo, v);
          break;
        default:
          break;
        }
    }

  if (empty || cursor->track >= cursor->track_end || cursor->ts_lo > cursor->ts_hi)
    {
      cursor->track = cursor->track_end = 0;
      return SQLITE_OK;
    }
  if (idx_num == GROUPED_BY_NAME)
    cursor->grouped = chrono_query_model_get_by_name (model);
  if (cursor->grouped != NULL)
    cursor->track_end = model->n_tracks;
  else if (cursor->single)
    {
      const ChronoTrack *track = model->tracks[cursor->track];
      gint64 ts = track->start[cursor->index];

      if (ts < cursor->ts_lo || ts > cursor->ts_hi)
        cursor->track = cursor->track_end;
    }
  else
    enter_track (cursor);
  settle (cursor);
  return SQLITE_OK;
}

static int
spans_next (sqlite3_vtab_cursor *base)
{
  SpansCursor *cursor = (SpansCursor *) base;

  if (cursor->grouped != NULL)
    cursor->position++;
  else
    cursor->index++;
  settle (cursor);
  return SQLITE_OK;
}

static int
spans_eof (sqlite3_vtab_cursor *base)
{
  SpansCursor *cursor = (SpansCursor *) base;

  return cursor->track >= cursor->track_end;
}

static void
result_span_id (sqlite3_context  *ctx,
                ChronoQueryModel *model,
                guint32           track,
                guint32           index)
{
  if (index == CHRONO_QUERY_NO_PARENT)
    sqlite3_result_null (ctx);
  else
    sqlite3_result_int64 (ctx, (sqlite3_int64) chrono_query_model_span_id (model, track, index));
}

static void
result_device_column (sqlite3_context  *ctx,
                      ChronoQueryModel *model,
                      guint64           id,
                      int               column)
{
  const ChronoQueryLaunch *launch = chrono_query_model_get_launch (model, id);
  gint64 value = -1;
  guint32 track;

  if (launch != NULL && column == COL_LAUNCH)
    value = (gint64) launch->from;
  else if (launch != NULL)
    value = launch->op == CHRONO_QUERY_OP_AROUND ? chrono_query_model_find_operator (model, launch->from) : launch->op;
  if (value < 0)
    {
      sqlite3_result_null (ctx);
      return;
    }
  if (column != COL_OP_NAME)
    {
      sqlite3_result_int64 (ctx, value);
      return;
    }
  track = chrono_query_model_find_track (model, (guint64) value);
  sqlite3_result_text (ctx,
                       chrono_trace_get_string (model->track_trace[track],
                                                chrono_track_get_name (model->tracks[track],
                                                                       (guint32) ((guint64) value - model->span_base[track]))),
                       -1, SQLITE_STATIC);
}

static int
spans_column (sqlite3_vtab_cursor *base,
              sqlite3_context     *ctx,
              int                  column)
{
  SpansCursor *cursor = (SpansCursor *) base;
  ChronoQueryModel *model = cursor->table->model;
  const ChronoTrack *track = model->tracks[cursor->track];
  ChronoTrace *trace = model->track_trace[cursor->track];
  guint32 i = cursor->index;
  gint64 correlation;

  switch (column)
    {
    case COL_ID:
      sqlite3_result_int64 (ctx, (sqlite3_int64) chrono_query_model_span_id (model, cursor->track, i));
      break;
    case COL_RANK:
      sqlite3_result_int64 (ctx, model->track_rank[cursor->track]);
      break;
    case COL_TRACK:
      sqlite3_result_int64 (ctx, cursor->track);
      break;
    case COL_TS:
      sqlite3_result_int64 (ctx, track->start[i]);
      break;
    case COL_DUR:
      sqlite3_result_int64 (ctx, chrono_track_get_dur (track, i));
      break;
    case COL_END:
      sqlite3_result_int64 (ctx, chrono_track_get_end (track, i));
      break;
    case COL_NAME:
      sqlite3_result_text (ctx, chrono_trace_get_string (trace, chrono_track_get_name (track, i)), -1, SQLITE_STATIC);
      break;
    case COL_CAT:
      sqlite3_result_text (ctx, chrono_trace_get_string (trace, chrono_track_get_cat (track, i)), -1, SQLITE_STATIC);
      break;
    case COL_KIND:
      sqlite3_result_text (ctx, chrono_kind_to_string (track->kind[i]), -1, SQLITE_STATIC);
      break;
    case COL_DEPTH:
      sqlite3_result_int (ctx, track->depth != NULL ? track->depth[i] : 0);
      break;
    case COL_LANE:
      sqlite3_result_int (ctx, track->lane != NULL ? track->lane[i] : 0);
      break;
    case COL_PARENT:
      result_span_id (ctx, model, cursor->track, chrono_query_model_get_parent (model, cursor->track, i));
      break;
    case COL_CORRELATION:
      correlation = chrono_track_get_correlation (track, i);
      if (correlation < 0)
        sqlite3_result_null (ctx);
      else
        sqlite3_result_int64 (ctx, correlation);
      break;
    default:
      result_device_column (ctx, model, chrono_query_model_span_id (model, cursor->track, i), column);
      break;
    }
  return SQLITE_OK;
}

static int
spans_rowid (sqlite3_vtab_cursor *base,
             sqlite3_int64       *rowid)
{
  SpansCursor *cursor = (SpansCursor *) base;

  *rowid = (sqlite3_int64) chrono_query_model_span_id (cursor->table->model, cursor->track, cursor->index);
  return SQLITE_OK;
}

/* Eponymous tables: no xCreate, so they exist without CREATE VIRTUAL
 * TABLE and no statement can make another. */
#define SPANS_MODULE(connect) {                                         \
    .iVersion = 1, .xCreate = NULL, .xConnect = connect,                \
    .xBestIndex = spans_best_index, .xDisconnect = chrono_query_vtab_free, \
    .xDestroy = chrono_query_vtab_free, .xOpen = spans_open,            \
    .xClose = spans_close, .xFilter = spans_filter, .xNext = spans_next, \
    .xEof = spans_eof, .xColumn = spans_column, .xRowid = spans_rowid,  \
  }

static const sqlite3_module spans_module = SPANS_MODULE (spans_connect);
static const sqlite3_module device_module = SPANS_MODULE (device_connect);

int
chrono_query_register_spans (sqlite3          *db,
                             ChronoQueryModel *model)
{
  int rc = sqlite3_create_module (db, "spans", &spans_module, model);

  if (rc == SQLITE_OK)
    rc = sqlite3_create_module (db, "device_work", &device_module, model);
  g_ptr_array_add (model->schemas, g_strdup (spans_schema));
  g_ptr_array_add (model->schemas, g_strdup (device_schema));
  return rc;
}
