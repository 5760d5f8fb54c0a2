/* chrono-neuron-parquet-counters.c
 *
 * Each table is one sampled value over time. HbmUsage is HBM traffic
 * (a rate and bytes moved since the start), not memory in use, so it is
 * a throughput counter; the memory in use is the system profile's
 * SystemProfileHbmUsage, by category, and HostMemUsage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-neuron-parquet-counters.h"

enum { SORT_COUNTER = 2000 };

typedef struct {
  const char *table;
  gboolean    system;
  const char *value;    /* the column sampled */
  const char *series;   /* the counter's name; CpuUsage's has the CPU's id for %s */
} CounterTable;

static const CounterTable counter_tables[] = {
  { "HostMemUsage", TRUE, "used_bytes", CHRONO_NEURON_HOST_MEMORY },
  { "SystemProfileHbmUsage", TRUE, "total_bytes", NULL },
  { "CpuUsage", TRUE, "util_percent", "CPU %s utilization (%%)" },
  { "HbmUsage", FALSE, "current_throughput", "HBM throughput (B/s)" },
  { "DmaUsage", FALSE, "current_throughput", "DMA throughput (B/s)" },
  { "PendingDma", FALSE, "value", "Pending DMA transfers" },
  { "PsumUsage", FALSE, "avg_util_percent", "PSUM use (%)" },
  { "SbufUsage", FALSE, "avg_util_percent", "SBUF use (%)" },
};

enum {
  COL_TS, COL_VALUE, COL_INSTANCE, COL_CPU, COL_PCORE, COL_DEVICE, COL_HBM,
  COL_PART,   /* CHRONO_NEURON_HBM_N_PARTS of them */
  N_COLS = COL_PART + CHRONO_NEURON_HBM_N_PARTS
};

static const gint int_types[] = { CHRONO_PARQUET_INT64, CHRONO_PARQUET_INT32, -1 };
static const gint number_types[] = {
  CHRONO_PARQUET_INT64, CHRONO_PARQUET_INT32, CHRONO_PARQUET_DOUBLE, CHRONO_PARQUET_FLOAT, -1
};
static const gint text_types[] = { CHRONO_PARQUET_BYTE_ARRAY, -1 };

typedef struct {
  const char *name;
  const gint *types;
  const char *expected;
} ColumnSpec;

typedef struct {
  ChronoParquetColumn cols[N_COLS];
  gboolean            have[N_COLS];
} Group;

gint
chrono_neuron_parquet_counter_table (const char *name,
                                     gsize       len)
{
  for (guint t = 0; t < G_N_ELEMENTS (counter_tables); t++)
    if (strlen (counter_tables[t].table) == len && strncmp (name, counter_tables[t].table, len) == 0)
      return (gint) t;
  return -1;
}

gboolean
chrono_neuron_parquet_counter_is_system (gint table)
{
  return counter_tables[table].system;
}

static ColumnSpec
column_spec (const CounterTable *t,
             guint               c)
{
  static const gint *types[] = { int_types, number_types, text_types, text_types, int_types, int_types, int_types };
  static const char *expected[] = { "INT64 or INT32", "a number", "BYTE_ARRAY (a string)" };
  static const char *names[] = { "timestamp", NULL, "instance_id", "cpu_id", "pcore_idx", "device_idx", "hbm_idx" };
  ColumnSpec s;

  if (c >= COL_PART)
    return (ColumnSpec) { chrono_neuron_hbm_parts[c - COL_PART], int_types, expected[0] };
  s.name = c == COL_VALUE ? t->value : names[c];
  /* HBM bytes are read as integers, exactly. */
  s.types = c == COL_VALUE && t->series == NULL ? int_types : types[c];
  s.expected = expected[s.types == int_types ? 0 : s.types == number_types ? 1 : 2];
  return s;
}

/* Where each column is in F (-1: absent), its type checked; the time and
 * the value are needed. */
static gboolean
find_columns (ChronoParquetFile  *f,
              const CounterTable *t,
              gint                where[N_COLS],
              GError            **error)
{
  for (guint c = 0; c < N_COLS; c++)
    {
      ColumnSpec s = column_spec (t, c);
      gint at = chrono_parquet_file_find_column (f, s.name);
      gboolean ok = FALSE;

      where[c] = at;
      if (at < 0)
        {
          if (c == COL_TS || c == COL_VALUE)
            {
              g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT, "%s: the %s table has no column %s",
                           chrono_parquet_file_get_name (f), t->table, s.name);
              return FALSE;
            }
          continue;
        }
      for (guint i = 0; s.types[i] >= 0; i++)
        ok |= s.types[i] == (gint) chrono_parquet_file_get_column_type (f, at);
      if (!ok)
        {
          g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT, "%s: column %s of the %s table is %s, expected %s",
                       chrono_parquet_file_get_name (f), s.name, t->table,
                       chrono_parquet_type_to_string (chrono_parquet_file_get_column_type (f, at)), s.expected);
          return FALSE;
        }
    }
  return TRUE;
}

static void
group_clear (Group *g)
{
  for (guint c = 0; c < N_COLS; c++)
    if (g->have[c])
      chrono_parquet_column_clear (&g->cols[c]);
  memset (g, 0, sizeof *g);
}

static gboolean
read_group (ChronoParquetFile  *f,
            guint               group,
            const CounterTable *t,
            const gint          where[N_COLS],
            Group              *g,
            GError            **error)
{
  memset (g, 0, sizeof *g);
  for (guint c = 0; c < N_COLS; c++)
    {
      if (where[c] < 0)
        continue;
      if (!chrono_parquet_file_read_column (f, group, (guint) where[c], column_spec (t, c).types, &g->cols[c], error))
        {
          group_clear (g);
          return FALSE;
        }
      g->have[c] = TRUE;
    }
  return TRUE;
}

static gboolean
row_present (const Group *g,
             guint        c,
             guint64      row)
{
  return g->have[c] && (g->cols[c].present == NULL || g->cols[c].present[row]);
}

static gboolean
row_int (const Group *g,
         guint        c,
         guint64      row,
         gint64      *v)
{
  if (!row_present (g, c, row))
    return FALSE;
  *v = g->cols[c].v.i64[row];
  return TRUE;
}

static gboolean
row_number (const Group *g,
            guint        c,
            guint64      row,
            gdouble     *v)
{
  const ChronoParquetColumn *col = &g->cols[c];

  if (!row_present (g, c, row))
    return FALSE;
  *v = col->type == CHRONO_PARQUET_DOUBLE || col->type == CHRONO_PARQUET_FLOAT ? col->v.f64[row]
                                                                                 : (gdouble) col->v.i64[row];
  return TRUE;
}

static const ChronoParquetBytes *
row_text (const Group *g,
          guint        c,
          guint64      row)
{
  return row_present (g, c, row) ? &g->cols[c].entries[g->cols[c].v.index[row]] : NULL;
}

static void
skip_row (ChronoNeuronReader *reader,
          ChronoParquetFile  *f,
          const CounterTable *t,
          guint64             row,
          const char         *what)
{
  reader->skipped++;
  if (reader->skipped <= 10)
    chrono_trace_add_warning (reader->trace, "%s: a row of %s (%" G_GUINT64_FORMAT " in its row group) %s; skipped",
                              chrono_parquet_file_get_name (f), t->table, row, what);
}

static void
read_hbm_row (ChronoNeuronCounters *counters,
              const Group          *g,
              guint64               row,
              gint64                ts)
{
  ChronoNeuronHbmSample s = { .ts = ts, .device = -1, .hbm = -1, .total = -1 };
  const ChronoParquetBytes *instance = row_text (g, COL_INSTANCE, row);

  row_int (g, COL_DEVICE, row, &s.device);
  row_int (g, COL_HBM, row, &s.hbm);
  row_int (g, COL_VALUE, row, &s.total);
  for (guint p = 0; p < CHRONO_NEURON_HBM_N_PARTS; p++)
    if (row_int (g, COL_PART + p, row, &s.parts[p]))
      s.has_parts |= 1u << p;
  chrono_neuron_counters_add_hbm (counters, instance ? (const char *) instance->data : NULL,
                                  instance ? instance->len : 0, &s);
}

static void
read_rows (ChronoNeuronCounters *counters,
           ChronoParquetFile    *f,
           const CounterTable   *t,
           const Group          *g,
           guint64               n)
{
  ChronoNeuronReader *reader = counters->reader;

  for (guint64 r = 0; r < n; r++)
    {
      gint64 ts, pcore = 0;
      gdouble value;
      g_autofree char *series = NULL;
      guint32 process = 0;

      if (!row_int (g, COL_TS, r, &ts) || !row_number (g, COL_VALUE, r, &value))
        {
          skip_row (reader, f, t, r, "has no timestamp or value");
          continue;
        }
      reader->records++;
      if (t->series == NULL)
        {
          read_hbm_row (counters, g, r, ts);
          continue;
        }
      if (t->system)
        {
          const ChronoParquetBytes *instance = row_text (g, COL_INSTANCE, r);
          const ChronoParquetBytes *cpu = row_text (g, COL_CPU, r);
          g_autofree char *cpu_id = cpu ? g_strndup ((const char *) cpu->data, cpu->len) : g_strdup ("");

          process = chrono_neuron_counters_host (counters, instance ? (const char *) instance->data : NULL,
                                                 instance ? instance->len : 0);
          series = g_strdup_printf (t->series, cpu_id);
        }
      else if (row_int (g, COL_PCORE, r, &pcore) && pcore > 0)
        series = g_strdup_printf ("%s, physical core %" G_GINT64_FORMAT, t->series, pcore);
      else
        series = g_strdup (t->series);
      chrono_neuron_counters_sample (counters, process, series, ts, value);
    }
}

gboolean
chrono_neuron_parquet_read_counters (ChronoNeuronCounters *counters,
                                     ChronoParquetFile    *f,
                                     gint                  table,
                                     GError              **error)
{
  const CounterTable *t = &counter_tables[table];
  gint where[N_COLS];
  guint n_groups = chrono_parquet_file_get_n_row_groups (f);
  guint lost = 0;

  if (!find_columns (f, t, where, error))
    return FALSE;
  for (guint group = 0; group < n_groups; group++)
    {
      g_autoptr(GError) local = NULL;
      guint64 n = chrono_parquet_file_get_n_rows (f, group);
      Group g;

      if (!read_group (f, group, t, where, &g, &local))
        {
          lost++;
          counters->reader->skipped += n;
          counters->reader->trace->stats.truncated = TRUE;
          chrono_trace_add_warning (counters->reader->trace, "%s: row group %u of %u (%" G_GUINT64_FORMAT
                                    " rows of %s) left out: %s", chrono_parquet_file_get_name (f),
                                    group + 1, n_groups, n, t->table, local->message);
          continue;
        }
      read_rows (counters, f, t, &g, n);
      group_clear (&g);
    }
  if (lost == n_groups && n_groups > 0)
    {
      g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_SYNTAX, "%s: none of its %u row groups could be read",
                   chrono_parquet_file_get_name (f), n_groups);
      return FALSE;
    }
  return TRUE;
}
