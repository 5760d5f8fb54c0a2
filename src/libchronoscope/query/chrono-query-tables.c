/* chrono-query-tables.c: the ranks, processes, tracks, flows, counters
 * and instants tables
 *
 * Each is a walk over units (the whole model, each trace or each track)
 * and the rows of each unit, read from the model when asked. The tables
 * per track take a constraint on track_id, their first column.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-query-private.h"

typedef enum {
  UNIT_MODEL,
  UNIT_TRACE,
  UNIT_TRACK,
} Unit;

typedef struct {
  const char *name;
  const char *schema;
  Unit        unit;
  guint64   (*n_rows) (ChronoQueryModel *model,
                       guint             unit);
  void      (*column) (ChronoQueryModel *model,
                       guint             unit,
                       guint64           row,
                       int               column,
                       sqlite3_context  *ctx);
} TableClass;

typedef struct {
  ChronoQueryModel *model;
  const TableClass *klass;
} TableAux;

typedef struct {
  sqlite3_vtab      base;
  ChronoQueryModel *model;
  const TableClass *klass;
} Table;

typedef struct {
  sqlite3_vtab_cursor base;
  Table  *table;
  guint   unit;
  guint   unit_end;
  guint64 row;
  guint64 n_rows;       /* in the current unit */
  guint64 rowid;
} Cursor;

static void
result_text (sqlite3_context *ctx,
             const char      *text)
{
  if (text == NULL)
    sqlite3_result_null (ctx);
  else
    sqlite3_result_text (ctx, text, -1, SQLITE_STATIC);
}

static void
result_string (sqlite3_context *ctx,
               ChronoTrace     *trace,
               guint32          id)
{
  result_text (ctx, id == CHRONO_NO_STRING ? NULL : chrono_trace_get_string (trace, id));
}

static void
result_id (sqlite3_context *ctx,
           ChronoTrace     *trace,
           ChronoId         id)
{
  if (id.is_string)
    result_string (ctx, trace, (guint32) id.value);
  else
    sqlite3_result_int64 (ctx, id.value);
}

static guint64
one_row_per_rank (ChronoQueryModel *model,
                  guint             unit)
{
  return model->n_ranks;
}

static void
ranks_column (ChronoQueryModel *model,
              guint             unit,
              guint64           row,
              int               column,
              sqlite3_context  *ctx)
{
  const ChronoTracePart *part = chrono_trace_get_part (model->traces[model->rank_trace[row]],
                                                       model->rank_part[row]);

  switch (column)
    {
    case 0: sqlite3_result_int64 (ctx, (sqlite3_int64) row); break;
    case 1: result_text (ctx, part->path); break;
    case 2: result_text (ctx, part->format); break;
    case 3: if (part->rank >= 0) sqlite3_result_int (ctx, part->rank); else sqlite3_result_null (ctx); break;
    case 4: if (part->world_size >= 0) sqlite3_result_int (ctx, part->world_size); else sqlite3_result_null (ctx); break;
    case 5: sqlite3_result_int64 (ctx, part->start_ns); break;
    case 6: sqlite3_result_int64 (ctx, part->end_ns); break;
    default: sqlite3_result_int (ctx, part->truncated); break;
    }
}

static guint64
processes_rows (ChronoQueryModel *model,
                guint             unit)
{
  return chrono_trace_get_n_processes (model->traces[unit]);
}

static void
processes_column (ChronoQueryModel *model,
                  guint             unit,
                  guint64           row,
                  int               column,
                  sqlite3_context  *ctx)
{
  ChronoTrace *trace = model->traces[unit];
  const ChronoProcess *process = chrono_trace_get_process (trace, (guint) row);
  guint first_rank = 0;
  gint part;

  switch (column)
    {
    case 0: sqlite3_result_int64 (ctx, model->trace_first_process[unit] + row); break;
    case 1:
      while (model->rank_trace[first_rank] != unit)
        first_rank++;
      part = chrono_trace_get_part_of_process (trace, (guint) row);
      sqlite3_result_int (ctx, (int) first_rank + MAX (part, 0));
      break;
    case 2: result_id (ctx, trace, process->pid); break;
    case 3: result_string (ctx, trace, process->name); break;
    case 4: result_string (ctx, trace, process->display_name); break;
    case 5: sqlite3_result_int (ctx, process->is_device); break;
    default:
      if (process->is_device)
        sqlite3_result_int (ctx, process->device_index);
      else
        sqlite3_result_null (ctx);
      break;
    }
}

static guint64
one_row_per_track (ChronoQueryModel *model,
                   guint             unit)
{
  return model->n_tracks;
}

static void
tracks_column (ChronoQueryModel *model,
               guint             unit,
               guint64           row,
               int               column,
               sqlite3_context  *ctx)
{
  const ChronoTrack *track = model->tracks[row];
  ChronoTrace *trace = model->track_trace[row];

  switch (column)
    {
    case 0: sqlite3_result_int64 (ctx, (sqlite3_int64) row); break;
    case 1: sqlite3_result_int (ctx, (int) model->track_rank[row]); break;
    case 2: sqlite3_result_int64 (ctx, model->track_process[row]); break;
    case 3: result_text (ctx, chrono_track_type_to_string (track->type)); break;
    case 4: result_id (ctx, trace, track->tid); break;
    case 5: result_string (ctx, trace, track->name); break;
    case 6: result_string (ctx, trace, track->display_name); break;
    case 7: sqlite3_result_int64 (ctx, track->n_spans); break;
    case 8: sqlite3_result_int64 (ctx, track->n_instants); break;
    default: sqlite3_result_int64 (ctx, track->n_samples); break;
    }
}

static const char * const flow_types[CHRONO_N_FLOW_TYPES] = {
  [CHRONO_FLOW_V1] = "flow",
  [CHRONO_FLOW_V2] = "bind",
  [CHRONO_FLOW_LAUNCH] = "launch",
  [CHRONO_FLOW_DEPENDENCY] = "dependency",
  [CHRONO_FLOW_SEMAPHORE] = "semaphore",
};

static guint64
flows_rows (ChronoQueryModel *model,
            guint             unit)
{
  return chrono_trace_get_n_flows (model->traces[unit]);
}

static void
result_ref (sqlite3_context  *ctx,
            ChronoQueryModel *model,
            guint             trace,
            ChronoSpanRef     ref)
{
  sqlite3_result_int64 (ctx, (sqlite3_int64) chrono_query_model_span_id (model,
                                                                         model->trace_first_track[trace] + ref.track,
                                                                         ref.index));
}

static void
flows_column (ChronoQueryModel *model,
              guint             unit,
              guint64           row,
              int               column,
              sqlite3_context  *ctx)
{
  const ChronoFlow *flow = chrono_trace_get_flow (model->traces[unit], (guint) row);
  guint64 first = 0;

  switch (column)
    {
    case 0:
      for (guint t = 0; t < unit; t++)
        first += chrono_trace_get_n_flows (model->traces[t]);
      sqlite3_result_int64 (ctx, (sqlite3_int64) (first + row));
      break;
    case 1: result_text (ctx, flow->type < CHRONO_N_FLOW_TYPES ? flow_types[flow->type] : NULL); break;
    case 2: result_ref (ctx, model, unit, flow->from); break;
    default: result_ref (ctx, model, unit, flow->to); break;
    }
}

static guint64
counter_rows (ChronoQueryModel *model,
              guint             unit)
{
  return model->tracks[unit]->n_samples;
}

static void
counters_column (ChronoQueryModel *model,
                 guint             unit,
                 guint64           row,
                 int               column,
                 sqlite3_context  *ctx)
{
  const ChronoTrack *track = model->tracks[unit];

  switch (column)
    {
    case 0: sqlite3_result_int64 (ctx, unit); break;
    case 1: sqlite3_result_int (ctx, (int) model->track_rank[unit]); break;
    case 2: result_string (ctx, model->track_trace[unit], track->name); break;
    case 3: sqlite3_result_int64 (ctx, track->sample_ts[row]); break;
    default: sqlite3_result_double (ctx, track->sample_value[row]); break;
    }
}

static guint64
instant_rows (ChronoQueryModel *model,
              guint             unit)
{
  return model->tracks[unit]->n_instants;
}

static void
instants_column (ChronoQueryModel *model,
                 guint             unit,
                 guint64           row,
                 int               column,
                 sqlite3_context  *ctx)
{
  const ChronoTrack *track = model->tracks[unit];
  ChronoTrace *trace = model->track_trace[unit];

  switch (column)
    {
    case 0: sqlite3_result_int64 (ctx, unit); break;
    case 1: sqlite3_result_int (ctx, (int) model->track_rank[unit]); break;
    case 2: sqlite3_result_int64 (ctx, track->inst_ts[row]); break;
    case 3: sqlite3_result_text (ctx, chrono_trace_get_string (trace, chrono_track_get_inst_name (track, (guint32) row)), -1, SQLITE_STATIC); break;
    default: sqlite3_result_text (ctx, chrono_trace_get_string (trace, chrono_track_get_inst_cat (track, (guint32) row)), -1, SQLITE_STATIC); break;
    }
}

static const TableClass classes[] = {
  { "ranks",
    "CREATE TABLE ranks(rank INTEGER PRIMARY KEY, path TEXT, format TEXT, declared_rank INTEGER, "
    "world_size INTEGER, start_ns INTEGER, end_ns INTEGER, truncated INTEGER)",
    UNIT_MODEL, one_row_per_rank, ranks_column },
  { "processes",
    "CREATE TABLE processes(id INTEGER PRIMARY KEY, rank INTEGER, pid, name TEXT, display_name TEXT, "
    "is_device INTEGER, device_index INTEGER)",
    UNIT_TRACE, processes_rows, processes_column },
  { "tracks",
    "CREATE TABLE tracks(id INTEGER PRIMARY KEY, rank INTEGER, process_id INTEGER, type TEXT, tid, "
    "name TEXT, display_name TEXT, n_spans INTEGER, n_instants INTEGER, n_samples INTEGER)",
    UNIT_MODEL, one_row_per_track, tracks_column },
  { "flows",
    "CREATE TABLE flows(id INTEGER PRIMARY KEY, type TEXT, from_id INTEGER, to_id INTEGER)",
    UNIT_TRACE, flows_rows, flows_column },
  { "counters",
    "CREATE TABLE counters(track_id INTEGER, rank INTEGER, name TEXT, ts INTEGER, value REAL)",
    UNIT_TRACK, counter_rows, counters_column },
  { "instants",
    "CREATE TABLE instants(track_id INTEGER, rank INTEGER, ts INTEGER, name TEXT, category TEXT)",
    UNIT_TRACK, instant_rows, instants_column },
};

static int
table_connect (sqlite3            *db,
               void               *aux,
               int                 argc,
               const char * const *argv,
               sqlite3_vtab      **out,
               char              **err)
{
  const TableAux *table_aux = aux;
  int rc = chrono_query_vtab_new (db, table_aux->klass->schema, sizeof (Table), out);

  if (rc == SQLITE_OK)
    {
      ((Table *) *out)->model = table_aux->model;
      ((Table *) *out)->klass = table_aux->klass;
    }
  return rc;
}

static int
table_best_index (sqlite3_vtab       *vtab,
                  sqlite3_index_info *info)
{
  Table *table = (Table *) vtab;
  double rows = 100000;

  if (table->klass->unit == UNIT_TRACK)
    for (int c = 0; c < info->nConstraint; c++)
      if (info->aConstraint[c].usable && info->aConstraint[c].iColumn == 0 &&
          info->aConstraint[c].op == SQLITE_INDEX_CONSTRAINT_EQ)
        {
          info->aConstraintUsage[c].argvIndex = 1;
          info->aConstraintUsage[c].omit = 1;
          info->idxNum = 1;
          rows = 100;
          break;
        }
  info->estimatedRows = (sqlite3_int64) rows;
  info->estimatedCost = rows;
  return SQLITE_OK;
}

static int
table_open (sqlite3_vtab         *vtab,
            sqlite3_vtab_cursor **out)
{
  int rc = chrono_query_cursor_new (vtab, sizeof (Cursor), out);

  if (rc == SQLITE_OK)
    ((Cursor *) *out)->table = (Table *) vtab;
  return rc;
}

/* Skips units without rows. */
static void
settle (Cursor *cursor)
{
  while (cursor->row >= cursor->n_rows && cursor->unit < cursor->unit_end)
    {
      cursor->unit++;
      cursor->row = 0;
      cursor->n_rows = cursor->unit < cursor->unit_end
                       ? cursor->table->klass->n_rows (cursor->table->model, cursor->unit)
                       : 0;
    }
}

static int
table_filter (sqlite3_vtab_cursor  *base,
              int                   idx_num,
              const char           *idx_str,
              int                   argc,
              sqlite3_value       **argv)
{
  Cursor *cursor = (Cursor *) base;
  const ChronoQueryModel *model = cursor->table->model;

  switch (cursor->table->klass->unit)
    {
    case UNIT_MODEL: cursor->unit_end = 1; break;
    case UNIT_TRACE: cursor->unit_end = model->n_traces; break;
    default: cursor->unit_end = model->n_tracks; break;
    }
  cursor->unit = 0;
  if (idx_num == 1)
    {
      sqlite3_int64 track = sqlite3_value_int64 (argv[0]);

      if (sqlite3_value_numeric_type (argv[0]) != SQLITE_INTEGER || track < 0 || track >= cursor->unit_end)
        cursor->unit = cursor->unit_end;
      else
        {
          cursor->unit = (guint) track;
          cursor->unit_end = (guint) track + 1;
        }
    }
  cursor->row = 0;
  cursor->rowid = 0;
  cursor->n_rows = cursor->unit < cursor->unit_end
                   ? cursor->table->klass->n_rows (cursor->table->model, cursor->unit)
                   : 0;
  settle (cursor);
  return SQLITE_OK;
}

static int
table_next (sqlite3_vtab_cursor *base)
{
  Cursor *cursor = (Cursor *) base;

  cursor->row++;
  cursor->rowid++;
  settle (cursor);
  return SQLITE_OK;
}

static int
table_eof (sqlite3_vtab_cursor *base)
{
  Cursor *cursor = (Cursor *) base;

  return cursor->unit >= cursor->unit_end;
}

static int
table_column (sqlite3_vtab_cursor *base,
              sqlite3_context     *ctx,
              int                  column)
{
  Cursor *cursor = (Cursor *) base;

  cursor->table->klass->column (cursor->table->model, cursor->unit, cursor->row, column, ctx);
  return SQLITE_OK;
}

static int
table_rowid (sqlite3_vtab_cursor *base,
             sqlite3_int64       *rowid)
{
  *rowid = (sqlite3_int64) ((Cursor *) base)->rowid;
  return SQLITE_OK;
}

static const sqlite3_module table_module = {
  .iVersion = 1,
  .xConnect = table_connect,
  .xBestIndex = table_best_index,
  .xDisconnect = chrono_query_vtab_free,
  .xDestroy = chrono_query_vtab_free,
  .xOpen = table_open,
  .xClose = chrono_query_cursor_free,
  .xFilter = table_filter,
  .xNext = table_next,
  .xEof = table_eof,
  .xColumn = table_column,
  .xRowid = table_rowid,
};

int
chrono_query_register_tables (sqlite3          *db,
                              ChronoQueryModel *model)
{
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      TableAux *aux = g_new (TableAux, 1);
      int rc;

      aux->model = model;
      aux->klass = &classes[i];
      rc = sqlite3_create_module_v2 (db, classes[i].name, &table_module, aux, g_free);
      if (rc != SQLITE_OK)
        return rc;
      g_ptr_array_add (model->schemas, g_strdup (classes[i].schema));
    }
  return SQLITE_OK;
}
