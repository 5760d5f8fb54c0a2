/* chrono-query-analysis.c: the findings, ledger, efficiency and
 * critical_path tables
 *
 * The analysis is small beside the trace: its rows are copied into
 * ordinary tables once, when the engine opens, before queries are
 * limited to reading.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdarg.h>

#include "chrono-efficiency.h"
#include "chrono-query-private.h"

static const char * const schemas[] = {
  "CREATE TABLE findings(rank INTEGER, rule TEXT, severity TEXT, title TEXT, start_ns INTEGER, "
  "end_ns INTEGER, time_lost_ns INTEGER, recommendation TEXT, span_id INTEGER)",
  "CREATE TABLE ledger(rank INTEGER, device INTEGER, step TEXT, start_ns INTEGER, end_ns INTEGER, "
  "state TEXT, ns INTEGER)",
  "CREATE TABLE efficiency(rank INTEGER, device INTEGER, op TEXT, family TEXT, input_dims TEXT, "
  "calls INTEGER, flops REAL, bytes REAL, gpu_time_ns INTEGER, achieved_tflops REAL, bound TEXT, "
  "roofline_ns INTEGER, excess_ns INTEGER)",
  "CREATE TABLE critical_path(rank INTEGER, path INTEGER, name TEXT, segment INTEGER, category TEXT, "
  "start_ns INTEGER, end_ns INTEGER, span_id INTEGER)",
};

/* Binds the values after FORMAT to STMT and runs it: 'i' a gint64, 's' a
 * span id (a gint64, NULL when negative), 'd' a double, 't' a string
 * (NULL for NULL). */
static int
insert (sqlite3_stmt *stmt,
        const char   *format,
        ...)
{
  va_list args;
  int rc;

  va_start (args, format);
  for (int i = 0; format[i] != '\0'; i++)
    {
      const char *text;
      gint64 value;

      switch (format[i])
        {
        case 'i':
          sqlite3_bind_int64 (stmt, i + 1, va_arg (args, gint64));
          break;
        case 's':
          value = va_arg (args, gint64);
          if (value < 0)
            sqlite3_bind_null (stmt, i + 1);
          else
            sqlite3_bind_int64 (stmt, i + 1, value);
          break;
        case 'd':
          sqlite3_bind_double (stmt, i + 1, va_arg (args, gdouble));
          break;
        default:
          text = va_arg (args, const char *);
          if (text == NULL)
            sqlite3_bind_null (stmt, i + 1);
          else
            sqlite3_bind_text (stmt, i + 1, text, -1, SQLITE_TRANSIENT);
          break;
        }
    }
  va_end (args);
  rc = sqlite3_step (stmt);
  sqlite3_reset (stmt);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static gint64
node_id (ChronoQueryModel *model,
         gboolean          has_node,
         ChronoNodeRef     node)
{
  if (!has_node)
    return -1;
  return (gint64) chrono_query_model_span_id (model, model->trace_first_track[node.trace] + node.span.track,
                                              node.span.index);
}

static int
fill_findings (sqlite3_stmt     *stmt,
               ChronoQueryModel *model,
               ChronoAnalysis   *analysis)
{
  int rc = SQLITE_OK;

  for (guint i = 0; i < chrono_analysis_get_n_findings (analysis) && rc == SQLITE_OK; i++)
    {
      const ChronoFinding *f = chrono_analysis_get_finding (analysis, i);

      rc = insert (stmt, "ittiiiits", (gint64) f->rank, f->rule, chrono_severity_to_string (f->severity),
                   f->title, f->start_ns, f->end_ns, f->time_lost_ns, f->recommendation,
                   node_id (model, f->has_node, f->node));
    }
  return rc;
}

static int
fill_ledger (sqlite3_stmt   *stmt,
             ChronoAnalysis *analysis)
{
  int rc = SQLITE_OK;

  for (guint i = 0; i < chrono_analysis_get_n_ledger_rows (analysis); i++)
    {
      const ChronoLedgerRow *row = chrono_analysis_get_ledger_row (analysis, i);
      const ChronoBreakdown *device = chrono_analysis_get_breakdown (analysis, row->breakdown);
      guint n_states = row->neuron_core ? CHRONO_N_LEDGER_STATES : CHRONO_N_GPU_LEDGER_STATES;

      for (guint s = 0; s < n_states && rc == SQLITE_OK; s++)
        if (row->state_ns[s] > 0)
          rc = insert (stmt, "iitiiti", (gint64) row->rank, (gint64) device->device, row->name,
                       row->start_ns, row->end_ns, chrono_ledger_state_to_string (s), row->state_ns[s]);
    }
  return rc;
}

static int
fill_efficiency (sqlite3_stmt   *stmt,
                 ChronoAnalysis *analysis)
{
  int rc = SQLITE_OK;

  for (guint i = 0; i < chrono_analysis_get_n_efficiency (analysis) && rc == SQLITE_OK; i++)
    {
      const ChronoEfficiencyRow *row = chrono_analysis_get_efficiency (analysis, i);

      rc = insert (stmt, "iitttiddidtii", (gint64) row->rank, (gint64) row->device, row->op, row->family,
                   row->input_dims, (gint64) row->count, row->flops, row->bytes, row->gpu_time_ns,
                   row->achieved_tflops, chrono_bound_to_string (row->bound),
                   row->has_roofline ? row->roofline_ns : (gint64) 0, row->excess_ns);
    }
  return rc;
}

static int
fill_paths (sqlite3_stmt     *stmt,
            ChronoQueryModel *model,
            ChronoAnalysis   *analysis)
{
  int rc = SQLITE_OK;

  for (guint p = 0; p < chrono_analysis_get_n_paths (analysis); p++)
    {
      const ChronoCriticalPath *path = chrono_analysis_get_path (analysis, p);

      for (guint s = 0; s < path->n_segments && rc == SQLITE_OK; s++)
        {
          const ChronoPathSegment *seg = &path->segments[s];

          rc = insert (stmt, "iititiis", (gint64) path->rank, (gint64) p, path->name, (gint64) s,
                       chrono_path_category_to_string (seg->category), seg->start_ns, seg->end_ns,
                       node_id (model, seg->has_node, seg->node));
        }
    }
  return rc;
}

static int
fill (sqlite3          *db,
      guint             table,
      ChronoQueryModel *model,
      ChronoAnalysis   *analysis)
{
  static const char * const inserts[] = {
    "INSERT INTO findings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "INSERT INTO ledger VALUES (?, ?, ?, ?, ?, ?, ?)",
    "INSERT INTO efficiency VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "INSERT INTO critical_path VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  };
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (db, inserts[table], -1, &stmt, NULL);

  if (rc != SQLITE_OK)
    return rc;
  switch (table)
    {
    case 0: rc = fill_findings (stmt, model, analysis); break;
    case 1: rc = fill_ledger (stmt, analysis); break;
    case 2: rc = fill_efficiency (stmt, analysis); break;
    default: rc = fill_paths (stmt, model, analysis); break;
    }
  sqlite3_finalize (stmt);
  return rc;
}

int
chrono_query_create_analysis (sqlite3          *db,
                              ChronoQueryModel *model,
                              ChronoAnalysis   *analysis)
{
  int rc = SQLITE_OK;

  for (guint i = 0; i < G_N_ELEMENTS (schemas) && rc == SQLITE_OK; i++)
    {
      rc = sqlite3_exec (db, schemas[i], NULL, NULL, NULL);
      g_ptr_array_add (model->schemas, g_strdup (schemas[i]));
      if (rc == SQLITE_OK && analysis != NULL)
        rc = fill (db, i, model, analysis);
    }
  return rc;
}
