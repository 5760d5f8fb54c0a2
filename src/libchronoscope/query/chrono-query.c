/* chrono-query.c: SQL over loaded traces, read-only and limited
 *
 * The database is an in-memory SQLite connection: the trace's tables are
 * virtual tables over the model (chrono-query-spans.c,
 * chrono-query-tables.c), the analysis's are filled once when the engine
 * opens. After that an authorizer lets statements only read, so nothing
 * is written, attached or loaded; a progress handler stops a query at
 * its time limit or when it is cancelled.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-query.h"
#include "chrono-query-private.h"

struct _ChronoQuery {
  GObject          parent_instance;
  ChronoQueryModel model;
  sqlite3         *db;
  gboolean         locked;       /* queries may only read from now on */
  const char      *denied;       /* what the authorizer refused last */
  GCancellable    *cancellable;  /* of the running query */
  gint64           deadline;     /* monotonic µs, 0 for none */
  gint64           max_time_ms;
  gboolean         timed_out;
  gint             error_offset;
};

G_DEFINE_FINAL_TYPE (ChronoQuery, chrono_query, G_TYPE_OBJECT)

G_DEFINE_QUARK (chrono-query-error-quark, chrono_query_error)

void
chrono_query_limits_init (ChronoQueryLimits *limits)
{
  limits->max_rows = 10000;
  limits->max_time_ms = 10000;
}

static void
chrono_query_finalize (GObject *object)
{
  ChronoQuery *self = CHRONO_QUERY (object);

  /* The connection's tables point into the model: close it first. */
  sqlite3_close (self->db);
  chrono_query_model_clear (&self->model);
  G_OBJECT_CLASS (chrono_query_parent_class)->finalize (object);
}

static void
chrono_query_class_init (ChronoQueryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_query_finalize;
}

static void
chrono_query_init (ChronoQuery *self)
{
  self->error_offset = -1;
}

/* PRAGMAs that only read, whatever their argument. */
static const char * const readable_pragmas[] = {
  "table_info", "table_xinfo", "table_list", "function_list", "module_list",
  "pragma_list", "collation_list",
};

static gboolean
pragma_reads (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (readable_pragmas); i++)
    if (g_ascii_strcasecmp (name, readable_pragmas[i]) == 0)
      return TRUE;
  return FALSE;
}

static int
authorize (void       *data,
           int         action,
           const char *arg1,
           const char *arg2,
           const char *database,
           const char *trigger)
{
  ChronoQuery *self = data;

  if (!self->locked)
    return SQLITE_OK;
  switch (action)
    {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
      return SQLITE_OK;
    case SQLITE_FUNCTION:
      if (arg2 != NULL && g_ascii_strcasecmp (arg2, "load_extension") == 0)
        {
          self->denied = "loading extensions is refused";
          return SQLITE_DENY;
        }
      return SQLITE_OK;
    case SQLITE_PRAGMA:
      if (pragma_reads (arg1))
        return SQLITE_OK;
      self->denied = "PRAGMA statements that change settings are refused";
      return SQLITE_DENY;
    case SQLITE_UPDATE:
      /* SQLite asks this of itself the first time a statement names an
       * eponymous table (a pragma function, a table of ours); a statement
       * that would write the schema is refused as not read-only, and
       * defensive mode forbids it anyway. */
      if (g_strcmp0 (arg1, "sqlite_master") == 0)
        return SQLITE_OK;
      self->denied = "statements that write are refused";
      return SQLITE_DENY;
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
      self->denied = "ATTACH and DETACH are refused";
      return SQLITE_DENY;
    default:
      self->denied = "statements that write are refused";
      return SQLITE_DENY;
    }
}

static int
progress (void *data)
{
  ChronoQuery *self = data;

  if (g_cancellable_is_cancelled (self->cancellable))
    return 1;
  if (self->deadline != 0 && g_get_monotonic_time () > self->deadline)
    {
      self->timed_out = TRUE;
      return 1;
    }
  return 0;
}

static gboolean
open_failed (ChronoQuery  *self,
             const char   *what,
             GError      **error)
{
  g_set_error (error, CHRONO_QUERY_ERROR, CHRONO_QUERY_ERROR_OPEN,
               "Could not set up the query engine (%s): %s", what, sqlite3_errmsg (self->db));
  return FALSE;
}

static gboolean
setup (ChronoQuery     *self,
       ChronoAnalysis  *analysis,
       GError         **error)
{
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY | SQLITE_OPEN_NOMUTEX;

  if (sqlite3_open_v2 (":memory:", &self->db, flags, NULL) != SQLITE_OK)
    return open_failed (self, "opening", error);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
  sqlite3_limit (self->db, SQLITE_LIMIT_ATTACHED, 0);
  /* Sorts and temporary results stay in memory: nothing goes to disk. */
  if (sqlite3_exec (self->db, "PRAGMA temp_store = MEMORY", NULL, NULL, NULL) != SQLITE_OK)
    return open_failed (self, "temp_store", error);
  if (chrono_query_register_spans (self->db, &self->model) != SQLITE_OK)
    return open_failed (self, "spans", error);
  if (chrono_query_register_tables (self->db, &self->model) != SQLITE_OK)
    return open_failed (self, "tables", error);
  if (chrono_query_register_functions (self->db, &self->model) != SQLITE_OK)
    return open_failed (self, "functions", error);
  if (chrono_query_create_analysis (self->db, &self->model, analysis) != SQLITE_OK)
    return open_failed (self, "analysis", error);
  sqlite3_set_authorizer (self->db, authorize, self);
  sqlite3_progress_handler (self->db, 1000, progress, self);
  self->locked = TRUE;
  return TRUE;
}

ChronoQuery *
chrono_query_new (ChronoTrace * const *traces,
                  guint                n_traces,
                  ChronoAnalysis      *analysis,
                  GError             **error)
{
  g_autoptr(ChronoQuery) self = NULL;

  g_return_val_if_fail (traces != NULL && n_traces > 0, NULL);
  g_return_val_if_fail (analysis == NULL || CHRONO_IS_ANALYSIS (analysis), NULL);

  if (analysis != NULL)
    {
      gboolean same = chrono_analysis_get_n_traces (analysis) == n_traces;

      for (guint i = 0; same && i < n_traces; i++)
        same = chrono_analysis_get_trace (analysis, i) == traces[i];
      if (!same)
        {
          g_set_error_literal (error, CHRONO_QUERY_ERROR, CHRONO_QUERY_ERROR_OPEN,
                               "The analysis was run over other traces than the query's");
          return NULL;
        }
    }
  self = g_object_new (CHRONO_TYPE_QUERY, NULL);
  chrono_query_model_init (&self->model, traces, n_traces);
  if (!setup (self, analysis, error))
    return NULL;
  return g_steal_pointer (&self);
}

/* "line 2, column 7" of byte OFFSET of SQL. */
static char *
describe_place (const char *sql,
                gint        offset)
{
  guint line = 1;
  guint column = 1;

  for (gint i = 0; i < offset && sql[i] != '\0'; i++)
    {
      if (sql[i] == '\n')
        {
          line++;
          column = 1;
        }
      else if (((guchar) sql[i] & 0xc0) != 0x80)
        column++;
    }
  return g_strdup_printf ("line %u, column %u", line, column);
}

static void
set_sql_error (ChronoQuery  *self,
               const char   *sql,
               int           rc,
               GError      **error)
{
  const char *message = sqlite3_errmsg (self->db);

  if (self->timed_out)
    {
      g_set_error (error, CHRONO_QUERY_ERROR, CHRONO_QUERY_ERROR_TIME_LIMIT,
                   "The query was stopped at its time limit of %" G_GINT64_FORMAT " ms: "
                   "narrow it (a time window, a track, a name) or allow it more time",
                   self->max_time_ms);
      return;
    }
  if (g_cancellable_set_error_if_cancelled (self->cancellable, error))
    return;
  if (self->denied != NULL)
    {
      g_set_error (error, CHRONO_QUERY_ERROR, CHRONO_QUERY_ERROR_READ_ONLY,
                   "Queries only read the trace: %s", self->denied);
      return;
    }
  self->error_offset = sqlite3_error_offset (self->db);
  if (self->error_offset >= 0)
    {
      g_autofree char *place = describe_place (sql, self->error_offset);

      g_set_error (error, CHRONO_QUERY_ERROR, CHRONO_QUERY_ERROR_SQL, "%s (at %s)", message, place);
    }
  else
    g_set_error (error, CHRONO_QUERY_ERROR, CHRONO_QUERY_ERROR_SQL, "%s", message);
}

/* Whether TAIL, what follows the first statement, holds another. */
static gboolean
has_more_statements (ChronoQuery *self,
                     const char  *tail)
{
  sqlite3_stmt *next = NULL;
  gboolean more;

  if (tail == NULL || *tail == '\0')
    return FALSE;
  sqlite3_prepare_v2 (self->db, tail, -1, &next, NULL);
  more = next != NULL;
  sqlite3_finalize (next);
  return more;
}

ChronoQueryResult *
chrono_query_run (ChronoQuery             *self,
                  const char              *sql,
                  const ChronoQueryLimits *limits,
                  GCancellable            *cancellable,
                  GError                 **error)
{
  ChronoQueryLimits defaults;
  g_autoptr(ChronoQueryResult) result = NULL;
  sqlite3_stmt *stmt = NULL;
  const char *tail = NULL;
  gint64 started = g_get_monotonic_time ();
  gboolean truncated = FALSE;
  int rc;

  g_return_val_if_fail (CHRONO_IS_QUERY (self), NULL);
  g_return_val_if_fail (sql != NULL, NULL);

  if (limits == NULL)
    {
      chrono_query_limits_init (&defaults);
      limits = &defaults;
    }
  self->error_offset = -1;
  self->denied = NULL;
  self->timed_out = FALSE;
  self->cancellable = cancellable;
  self->max_time_ms = limits->max_time_ms;
  self->deadline = limits->max_time_ms > 0 ? started + limits->max_time_ms * 1000 : 0;

  rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, &tail);
  if (rc != SQLITE_OK)
    {
      set_sql_error (self, sql, rc, error);
      goto out;
    }
  if (stmt == NULL)
    {
      g_set_error_literal (error, CHRONO_QUERY_ERROR, CHRONO_QUERY_ERROR_SQL, "The query is empty");
      goto out;
    }
  if (!sqlite3_stmt_readonly (stmt))
    {
      g_set_error_literal (error, CHRONO_QUERY_ERROR, CHRONO_QUERY_ERROR_READ_ONLY,
                           "Queries only read the trace: statements that write are refused");
      goto out;
    }
  if (has_more_statements (self, tail))
    {
      g_autofree char *place = NULL;

      self->error_offset = (gint) (tail - sql);
      place = describe_place (sql, self->error_offset);
      g_set_error (error, CHRONO_QUERY_ERROR, CHRONO_QUERY_ERROR_SQL,
                   "Only one statement runs at a time; another starts at %s", place);
      goto out;
    }

  result = chrono_query_result_new (stmt);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      if (limits->max_rows > 0 && chrono_query_result_get_n_rows (result) >= limits->max_rows)
        {
          truncated = TRUE;
          break;
        }
      chrono_query_result_add_row (result, stmt);
    }
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      set_sql_error (self, sql, rc, error);
      g_clear_object (&result);
      goto out;
    }
  chrono_query_result_finish (result, truncated, (g_get_monotonic_time () - started) * 1000);

out:
  sqlite3_finalize (stmt);
  self->cancellable = NULL;
  self->deadline = 0;
  return g_steal_pointer (&result);
}

gint
chrono_query_get_error_offset (ChronoQuery *self)
{
  g_return_val_if_fail (CHRONO_IS_QUERY (self), -1);
  return self->error_offset;
}

gboolean
chrono_query_sql_reads_analysis (const char *sql)
{
  static const char * const tables[] = { "findings", "ledger", "efficiency", "critical_path" };
  g_autofree char *lower = g_ascii_strdown (sql, -1);

  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    if (strstr (lower, tables[i]) != NULL)
      return TRUE;
  return FALSE;
}

char *
chrono_query_dup_schema (ChronoQuery *self)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (CHRONO_IS_QUERY (self), NULL);
  for (guint i = 0; i < self->model.schemas->len; i++)
    g_string_append_printf (out, "%s;\n", (const char *) g_ptr_array_index (self->model.schemas, i));
  return g_string_free (out, FALSE);
}

gint64
chrono_query_get_span_id (ChronoQuery   *self,
                          guint          trace,
                          ChronoSpanRef  span)
{
  const ChronoQueryModel *model;
  guint32 track;

  g_return_val_if_fail (CHRONO_IS_QUERY (self), -1);
  model = &self->model;
  if (trace >= model->n_traces ||
      span.track >= model->trace_first_track[trace + 1] - model->trace_first_track[trace])
    return -1;
  track = model->trace_first_track[trace] + span.track;
  if (span.index >= model->tracks[track]->n_spans)
    return -1;
  return (gint64) chrono_query_model_span_id (model, track, span.index);
}

gboolean
chrono_query_find_span (ChronoQuery   *self,
                        gint64         id,
                        guint         *trace,
                        ChronoSpanRef *span)
{
  const ChronoQueryModel *model;
  guint32 track;

  g_return_val_if_fail (CHRONO_IS_QUERY (self), FALSE);
  g_return_val_if_fail (span != NULL, FALSE);
  model = &self->model;
  if (id < 0 || (guint64) id >= model->span_base[model->n_tracks])
    return FALSE;
  track = chrono_query_model_find_track (model, (guint64) id);
  if (trace != NULL)
    *trace = model->track_trace_index[track];
  span->track = model->track_local[track];
  span->index = (guint32) ((guint64) id - model->span_base[track]);
  return TRUE;
}
