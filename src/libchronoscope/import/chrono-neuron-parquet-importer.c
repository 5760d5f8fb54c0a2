/* chrono-neuron-parquet-importer.c
 *
 * Each table is read a row group at a time, and of it only the columns
 * the model needs, each decoded whole into an array; the rows then go to
 * the same device model as the JSON profile's records. String columns
 * are mostly dictionary-encoded: a row's engine, queue or opcode is
 * looked up once per dictionary entry, not once per row. Flow rows are
 * dependency edges between two ids. The Summary and Metadata rows, and
 * the Throttle and ExecutionInfo tables, are kept as JSON metadata, as
 * the JSON profile's summary is.
 *
 * A table is known by its file name (Explorer writes <Table>.parquet, or
 * <Table>_<n>.parquet for a large one), or else by its columns. The
 * time-series tables are counters (chrono-neuron-parquet-counters.c); a
 * folder of a system profile's tables, on the host's clock, is a system
 * profile, and its counters are left out of a device profile's folder,
 * whose clock starts at 0.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "chrono-neuron-device.h"
#include "chrono-neuron-parquet-counters.h"
#include "chrono-neuron-parquet-facts.h"
#include "chrono-neuron-parquet-importer.h"
#include "chrono-neuron-parquet-rows.h"
#include "chrono-parquet-reader.h"

#define MAX_WARNINGS 10

typedef enum {
  TABLE_INSTRUCTION,
  TABLE_DMA,
  TABLE_SEMAPHORE,
  TABLE_CC_OP,
  TABLE_CC_INSTRUCTION,
  TABLE_FLOW,
  TABLE_SUMMARY,
  TABLE_METADATA,
  TABLE_THROTTLE,
  TABLE_EXECUTION,
  N_TABLES,
  TABLE_OTHER = N_TABLES
} Table;

static const char * const table_names[N_TABLES] = {
  "Instruction", "DmaPacketAggregated", "SemaphoreUpdate", "CcOp", "CcInstruction", "Flow", "Summary",
  "Metadata", "Throttle", "ExecutionInfo",
};
/* The JSON profile's table names, as the spans' categories: both give the
 * same model. */
static const char * const table_cats[TABLE_FLOW] = {
  "instruction", "dma", "semaphore_update", "cc_op", "cc_instruction",
};

typedef enum {
  COL_START, COL_END, COL_DUR, COL_ENGINE, COL_TRACK, COL_NAME, COL_OPERANDS,
  COL_ID, COL_QUEUE, COL_SEMAPHORE, COL_VALUE, COL_CORE,
  COL_IN_ID, COL_OUT_ID, COL_IN_TABLE, COL_OUT_TABLE,
  N_COLS
} Col;

typedef enum { KIND_INT, KIND_NUMBER, KIND_TEXT } Kind;

typedef struct {
  Col         col;
  const char *name;
  Kind        kind;
  gboolean    required;
} ColumnSpec;

#define END_OF_SPECS { N_COLS, NULL, KIND_INT, FALSE }

static const ColumnSpec instruction_cols[] = {
  { COL_START, "start_ts", KIND_INT, TRUE }, { COL_DUR, "duration_ns", KIND_INT, FALSE },
  { COL_END, "end_ts", KIND_INT, FALSE }, { COL_ENGINE, "engine", KIND_TEXT, FALSE },
  { COL_TRACK, "timeline_track", KIND_TEXT, FALSE }, { COL_NAME, "opcode", KIND_TEXT, FALSE },
  { COL_OPERANDS, "operands", KIND_TEXT, FALSE }, { COL_ID, "id", KIND_INT, FALSE },
  END_OF_SPECS
};
static const ColumnSpec dma_cols[] = {
  { COL_START, "start_ts", KIND_INT, TRUE }, { COL_DUR, "duration_ns", KIND_INT, FALSE },
  { COL_END, "end_ts", KIND_INT, FALSE }, { COL_QUEUE, "queue_name", KIND_TEXT, FALSE },
  { COL_SEMAPHORE, "semaphore_id", KIND_TEXT, FALSE }, { COL_ID, "id", KIND_INT, FALSE },
  END_OF_SPECS
};
static const ColumnSpec semaphore_cols[] = {
  { COL_START, "timestamp", KIND_INT, TRUE }, { COL_NAME, "id", KIND_TEXT, TRUE },
  { COL_VALUE, "value", KIND_NUMBER, TRUE },
  END_OF_SPECS
};
static const ColumnSpec cc_op_cols[] = {
  { COL_START, "start_ts", KIND_INT, TRUE }, { COL_DUR, "duration_ns", KIND_INT, FALSE },
  { COL_END, "end_ts", KIND_INT, FALSE }, { COL_NAME, "operation", KIND_TEXT, FALSE },
  END_OF_SPECS
};
static const ColumnSpec cc_instruction_cols[] = {
  { COL_START, "start_ts", KIND_INT, TRUE }, { COL_DUR, "duration_ns", KIND_INT, FALSE },
  { COL_END, "end_ts", KIND_INT, FALSE }, { COL_NAME, "description", KIND_TEXT, FALSE },
  { COL_CORE, "core_idx", KIND_INT, FALSE },
  END_OF_SPECS
};
static const ColumnSpec flow_cols[] = {
  { COL_IN_ID, "in_id", KIND_INT, TRUE }, { COL_OUT_ID, "out_id", KIND_INT, TRUE },
  { COL_IN_TABLE, "in_table", KIND_TEXT, FALSE }, { COL_OUT_TABLE, "out_table", KIND_TEXT, FALSE },
  END_OF_SPECS
};

static const ColumnSpec * const table_cols[N_TABLES] = {
  instruction_cols, dma_cols, semaphore_cols, cc_op_cols, cc_instruction_cols, flow_cols, NULL,
};

static const gint int_types[] = { CHRONO_PARQUET_INT64, CHRONO_PARQUET_INT32, -1 };
static const gint number_types[] = {
  CHRONO_PARQUET_INT64, CHRONO_PARQUET_INT32, CHRONO_PARQUET_DOUBLE, CHRONO_PARQUET_FLOAT, -1
};
static const gint text_types[] = { CHRONO_PARQUET_BYTE_ARRAY, -1 };
static const gint * const kind_types[] = { int_types, number_types, text_types };
static const char * const kind_names[] = { "INT64 or INT32", "a number", "BYTE_ARRAY (a string)" };

/* One row group's columns, with what was looked up per string entry. */
typedef struct {
  ChronoParquetColumn  cols[N_COLS];
  gboolean             have[N_COLS];
  guint32             *names;          /* COL_NAME entry -> string id + 1 */
  ChronoTrackBuilder **rows[N_COLS];   /* entry -> row, for COL_ENGINE, COL_TRACK, COL_QUEUE */
  guint64              args;           /* the args offset of row 0, or CHRONO_NO_ARGS */
  ChronoParquetFacts  *facts;          /* the analysis's members of its rows, or NULL */
} Group;

typedef struct {
  ChronoNeuronReader  reader;
  ChronoNeuronDevice  dev;
  guint32             cats[TABLE_FLOW];
  GString            *kept;            /* the small tables as JSON, one after another, or NULL */
  GHashTable         *kept_ranges;     /* metadata key -> ChronoRange in kept */
  GCancellable       *cancellable;
  ChronoProgressFunc  progress;
  gpointer            progress_data;
  guint64             bytes_done;
  guint64             bytes_total;
  guint               tables_read;
  guint64             unknown_flow_tables;
  ChronoParquetRows  *rows;           /* the table files kept for the spans' details */
  ChronoNeuronFacts  *facts;          /* what the analysis reads of the rows */
  ChronoNeuronCounters counters;
  gboolean            system;         /* a system profile's tables only */
  guint64             left_out_system; /* system counter tables in a device profile's folder */
} Importer;

/* -------------------------------------------------------------------- */
/* Tables and columns                                                   */

/* Explorer's other tables (schema 7.4): known by name, so that their
 * columns are never taken for one of ours (DmaPacket's look like
 * DmaPacketAggregated's). */
static const char * const other_tables[] = {
  "ActiveTime", "AssemblyInstruction", "BirInstruction", "CcStream", "CoreBarriers",
  "DeviceProfileList", "DmaPacket", "DmaQueuesInfo", "DmaUsageSummary", "Error",
  "FrameworkInstruction", "FrameworkNode", "HbmUsageSummaryByType",
  "HloInstruction", "KernelInstructions", "KernelIterationVariables",
  "KernelStackFrames", "MemoryBandwidthPoint", "MemoryBandwidthResponse", "MemoryBandwidthSeries",
  "NeffHeader", "OpcodeSummary", "PenguinInstruction",
  "SbufAllocation", "SchemaFields", "StackFrame", "StackFrameFileLocation",
  "StackFrameFileName", "StackFrameFunctionName", "SystemProfileEvents",
  "SystemProfileMetadata", "TensorInfo", "ThrottleSummary", "Warning", NULL
};
/* Tables only a system profile has. */
static const char * const system_tables[] = {
  "SystemProfileEvents", "SystemProfileMetadata", "DeviceProfileList", NULL
};

/* "Instruction_3.parquet" -> "Instruction": its length in BASE, or 0
 * when PATH has none. */
static gsize
table_base (const char  *path,
            char       **base)
{
  gsize len;

  *base = path ? g_path_get_basename (path) : NULL;
  if (*base == NULL)
    return 0;
  len = strlen (*base);
  if (len > 8 && g_ascii_strcasecmp (*base + len - 8, ".parquet") == 0)
    len -= 8;
  for (gsize i = len; i > 0 && g_ascii_isdigit ((*base)[i - 1]); i--)
    if (i - 1 > 0 && (*base)[i - 2] == '_')
      {
        len = i - 2;
        break;
      }
  return len;
}

static gboolean
in_list (const char * const *names,
         const char         *base,
         gsize               len)
{
  for (guint t = 0; names[t]; t++)
    if (strlen (names[t]) == len && strncmp (base, names[t], len) == 0)
      return TRUE;
  return FALSE;
}

/* "Instruction_3.parquet" -> TABLE_INSTRUCTION; N_TABLES + 1 for a table
 * of Explorer's that is not read, N_TABLES + 2 for a counter table,
 * TABLE_OTHER for any other name. */
#define TABLE_NOT_READ (N_TABLES + 1)
#define TABLE_COUNTER  (N_TABLES + 2)

static guint
table_of_name (const char *path)
{
  g_autofree char *base = NULL;
  gsize len = table_base (path, &base);

  if (base == NULL)
    return TABLE_OTHER;
  for (guint t = 0; t < N_TABLES; t++)
    if (strlen (table_names[t]) == len && strncmp (base, table_names[t], len) == 0)
      return t;
  if (chrono_neuron_parquet_counter_table (base, len) >= 0)
    return TABLE_COUNTER;
  if (in_list (other_tables, base, len))
    return TABLE_NOT_READ;
  return TABLE_OTHER;
}

/* Whether PATHS are a system profile's tables: one of the tables only it
 * has, or one of its counters, and none the device model reads. */
static gboolean
is_system_profile (const char * const *paths)
{
  gboolean system = FALSE;

  for (guint i = 0; paths[i]; i++)
    {
      g_autofree char *base = NULL;
      gsize len = table_base (paths[i], &base);
      guint table = table_of_name (paths[i]);
      gint counter = chrono_neuron_parquet_counter_table (base ? base : "", len);

      if (table < N_TABLES || table == TABLE_OTHER || (counter >= 0 && !chrono_neuron_parquet_counter_is_system (counter)))
        return FALSE;
      system |= (base != NULL && in_list (system_tables, base, len)) ||
                (counter >= 0 && chrono_neuron_parquet_counter_is_system (counter));
    }
  return system;
}

/* A counter table of F: FALSE with ERROR when it cannot be read. */
static gboolean
read_counter_file (Importer          *imp,
                   const char        *name,
                   ChronoParquetFile *f,
                   GError           **error)
{
  g_autofree char *base = NULL;
  gsize len = table_base (name, &base);
  gint table = chrono_neuron_parquet_counter_table (base, len);

  /* The host's epoch clock is not the device profile's. */
  if (chrono_neuron_parquet_counter_is_system (table) != imp->system)
    {
      if (!imp->system)
        imp->left_out_system++;
      return TRUE;
    }
  if (!chrono_neuron_parquet_read_counters (&imp->counters, f, table, error))
    return FALSE;
  imp->tables_read++;
  return TRUE;
}

static Table
table_of_columns (ChronoParquetFile *f)
{
#define HAS(name) (chrono_parquet_file_find_column (f, name) >= 0)
  if (HAS ("opcode") && (HAS ("engine") || HAS ("timeline_track")) && HAS ("start_ts"))
    return TABLE_INSTRUCTION;
  if (HAS ("queue_name") && HAS ("start_ts"))
    return TABLE_DMA;
  if (HAS ("timestamp") && HAS ("value") && HAS ("id"))
    return TABLE_SEMAPHORE;
  if (HAS ("in_id") && HAS ("out_id"))
    return TABLE_FLOW;
  if (HAS ("core_idx") && HAS ("description") && HAS ("start_ts"))
    return TABLE_CC_INSTRUCTION;
  if (HAS ("operation") && HAS ("start_ts"))
    return TABLE_CC_OP;
  if (HAS ("total_time") && HAS ("nc_idx"))
    return TABLE_SUMMARY;
  return TABLE_OTHER;
#undef HAS
}

/* Where each column of SPECS is in F (-1: absent), its type checked. */
static gboolean
find_columns (ChronoParquetFile *f,
              Table              table,
              gint               where[N_COLS],
              GError           **error)
{
  for (guint c = 0; c < N_COLS; c++)
    where[c] = -1;
  for (const ColumnSpec *s = table_cols[table]; s->name; s++)
    {
      gint at = chrono_parquet_file_find_column (f, s->name);
      gboolean ok = FALSE;

      if (at < 0)
        {
          if (s->required)
            {
              g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT,
                           "%s: the %s table has no column %s", chrono_parquet_file_get_name (f),
                           table_names[table], s->name);
              return FALSE;
            }
          continue;
        }
      for (guint i = 0; kind_types[s->kind][i] >= 0; i++)
        ok |= kind_types[s->kind][i] == (gint) chrono_parquet_file_get_column_type (f, at);
      if (!ok)
        {
          g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT,
                       "%s: column %s of the %s table is %s, expected %s", chrono_parquet_file_get_name (f),
                       s->name, table_names[table],
                       chrono_parquet_type_to_string (chrono_parquet_file_get_column_type (f, at)),
                       kind_names[s->kind]);
          return FALSE;
        }
      where[s->col] = at;
    }
  return TRUE;
}

static void
group_clear (Group *g)
{
  for (guint c = 0; c < N_COLS; c++)
    {
      if (g->have[c])
        chrono_parquet_column_clear (&g->cols[c]);
      g_clear_pointer (&g->rows[c], g_free);
    }
  g_clear_pointer (&g->names, g_free);
  if (g->facts != NULL)
    chrono_parquet_facts_clear (g->facts);
  memset (g, 0, sizeof *g);
}

static gboolean
read_group (ChronoParquetFile *f,
            guint              group,
            Table              table,
            const gint         where[N_COLS],
            Group             *g,
            GError           **error)
{
  memset (g, 0, sizeof *g);
  for (const ColumnSpec *s = table_cols[table]; s->name; s++)
    {
      if (where[s->col] < 0)
        continue;
      if (!chrono_parquet_file_read_column (f, group, (guint) where[s->col], kind_types[s->kind],
                                            &g->cols[s->col], error))
        {
          group_clear (g);
          return FALSE;
        }
      g->have[s->col] = TRUE;
      if (s->kind == KIND_TEXT)
        g->rows[s->col] = g_new0 (ChronoTrackBuilder *, MAX (g->cols[s->col].n_entries, 1));
      if (s->col == COL_NAME)
        g->names = g_new0 (guint32, MAX (g->cols[s->col].n_entries, 1));
    }
  return TRUE;
}

static gboolean
row_int (const Group *g,
         Col          c,
         guint64      row,
         gint64      *v)
{
  const ChronoParquetColumn *col = &g->cols[c];

  if (!g->have[c] || (col->present && !col->present[row]))
    return FALSE;
  *v = col->v.i64[row];
  return TRUE;
}

static gboolean
row_number (const Group *g,
            Col          c,
            guint64      row,
            gdouble     *v)
{
  const ChronoParquetColumn *col = &g->cols[c];

  if (!g->have[c] || (col->present && !col->present[row]))
    return FALSE;
  if (col->type == CHRONO_PARQUET_DOUBLE || col->type == CHRONO_PARQUET_FLOAT)
    *v = col->v.f64[row];
  else
    *v = (gdouble) col->v.i64[row];
  return TRUE;
}

/* The string entry of ROW in C, or -1 when it has none. */
static gint64
row_entry (const Group *g,
           Col          c,
           guint64      row)
{
  const ChronoParquetColumn *col = &g->cols[c];

  if (!g->have[c] || (col->present && !col->present[row]))
    return -1;
  return col->v.index[row];
}

static ChronoJsonString
entry_text (const Group *g,
            Col          c,
            gint64       entry)
{
  const ChronoParquetBytes *b = &g->cols[c].entries[entry];

  return (ChronoJsonString) { b->data, b->len, FALSE };
}

static guint32
row_name (Importer *imp,
          Group    *g,
          guint64   row)
{
  gint64 e = row_entry (g, COL_NAME, row);

  if (e < 0)
    return 0;
  if (g->names[e] == 0)
    {
      ChronoJsonString s = entry_text (g, COL_NAME, e);
      g->names[e] = chrono_string_table_intern (imp->reader.trace->strings, (const char *) s.start, s.len) + 1;
    }
  return g->names[e] - 1;
}

static guint64
row_args (const Group *g,
          guint64      row)
{
  return chrono_parquet_rows_row (g->args, row);
}

/* Device times are ns from the start of the profile: far from these. */
#define MAX_TIME (G_GINT64_CONSTANT (1) << 62)

/* A span's start and duration: duration_ns, or end_ts - start_ts. NULL,
 * or what is wrong with the row. */
static const char *
row_times (const Group *g,
           guint64      row,
           gint64      *start,
           gint64      *dur,
           gboolean    *has_dur)
{
  gint64 end;

  if (!row_int (g, COL_START, row, start))
    return "has no start_ts";
  if (*start < -MAX_TIME || *start > MAX_TIME)
    return "has a start_ts out of range";
  *has_dur = TRUE;
  if (row_int (g, COL_DUR, row, dur))
    ;
  else if (row_int (g, COL_END, row, &end) && end >= -MAX_TIME && end <= MAX_TIME)
    *dur = end - *start;
  else
    {
      *dur = 0;
      *has_dur = FALSE;
    }
  if (*dur > MAX_TIME)
    return "has a duration out of range";
  *dur = MAX (*dur, 0);
  return NULL;
}

static void
skip_row (Importer    *imp,
          const char  *file,
          Table        table,
          guint64      row,
          const char  *what)
{
  imp->reader.skipped++;
  if (imp->reader.skipped <= MAX_WARNINGS)
    chrono_trace_add_warning (imp->reader.trace, "%s: a row of %s (%" G_GUINT64_FORMAT " in its row group) %s; skipped",
                              file, table_names[table], row, what);
}

/* -------------------------------------------------------------------- */
/* Rows                                                                 */

static ChronoTrackBuilder *
engine_row (Importer *imp,
            Group    *g,
            guint64   row)
{
  Col c = COL_TRACK;
  gint64 e = row_entry (g, COL_TRACK, row);
  ChronoJsonString s;

  if (e < 0)
    {
      c = COL_ENGINE;
      e = row_entry (g, COL_ENGINE, row);
    }
  if (e < 0)
    {
      ChronoJsonString none = { NULL, 0, FALSE };
      return chrono_neuron_device_engine_track (&imp->dev, &none);
    }
  if (g->rows[c][e] == NULL)
    {
      s = entry_text (g, c, e);
      g->rows[c][e] = chrono_neuron_device_engine_track (&imp->dev, &s);
    }
  return g->rows[c][e];
}

/* "qSyncIO0-Q1-E64" is queue qSyncIO0, index 1 of DMA engine 64: the
 * queue's name alone makes the row, as in the JSON profile. */
static ChronoJsonString
queue_name (ChronoJsonString s)
{
  const guint8 *q = s.len > 0 ? memmem (s.start, s.len, "-Q", 2) : NULL;

  while (q != NULL)
    {
      const guint8 *p = q + 2, *end = s.start + s.len;

      while (p < end && g_ascii_isdigit (*p))
        p++;
      if (p > q + 2 && end - p >= 3 && p[0] == '-' && p[1] == 'E')
        {
          const guint8 *e = p + 2;

          while (e < end && g_ascii_isdigit (*e))
            e++;
          if (e == end && e > p + 2)
            {
              s.len = q - s.start;
              return s;
            }
        }
      q = memmem (q + 2, end - (q + 2), "-Q", 2);
    }
  return s;
}

static void
read_instructions (Importer   *imp,
                   Group      *g,
                   const char *file,
                   guint64     n)
{
  for (guint64 r = 0; r < n; r++)
    {
      gint64 start, dur, id, e;
      gboolean has_dur;
      const char *why;
      ChronoTrackBuilder *b;
      guint32 span;

      if ((why = row_times (g, r, &start, &dur, &has_dur)) != NULL)
        {
          skip_row (imp, file, TABLE_INSTRUCTION, r, why);
          continue;
        }
      b = engine_row (imp, g, r);
      span = chrono_track_builder_add_span (b, start, dur, row_name (imp, g, r), imp->cats[TABLE_INSTRUCTION],
                                            row_args (g, r), CHRONO_KIND_INSTRUCTION,
                                            has_dur ? 0 : CHRONO_SPAN_NO_DUR);
      chrono_neuron_note_time (&imp->reader, start, start + dur);
      if (g->facts != NULL && row_args (g, r) != CHRONO_NO_ARGS)
        chrono_parquet_facts_add (g->facts, imp->facts, r, row_args (g, r));
      if (row_int (g, COL_ID, r, &id))
        chrono_neuron_device_add_id (&imp->dev, CHRONO_NEURON_ID_INSTRUCTION, (guint64) id, b, span);
      if ((e = row_entry (g, COL_OPERANDS, r)) >= 0)
        {
          const ChronoParquetBytes *ops = &g->cols[COL_OPERANDS].entries[e];
          chrono_neuron_device_scan_operands (&imp->dev, ops->data, ops->len, b, span, start, start + dur);
        }
      imp->reader.records++;
    }
}

static void
read_dma (Importer   *imp,
          Group      *g,
          const char *file,
          guint64     n)
{
  for (guint64 r = 0; r < n; r++)
    {
      gint64 start, dur, id, e = row_entry (g, COL_QUEUE, r);
      gboolean has_dur;
      const char *why;
      ChronoTrackBuilder *b;
      ChronoJsonString queue = { NULL, 0, FALSE };
      guint32 name = 0, span;

      if ((why = row_times (g, r, &start, &dur, &has_dur)) != NULL)
        {
          skip_row (imp, file, TABLE_DMA, r, why);
          continue;
        }
      if (e >= 0)
        queue = queue_name (entry_text (g, COL_QUEUE, e));
      if (e >= 0 && g->rows[COL_QUEUE][e] != NULL)
        b = g->rows[COL_QUEUE][e];
      else
        {
          b = chrono_neuron_device_queue_track (&imp->dev, &queue);
          if (e >= 0)
            g->rows[COL_QUEUE][e] = b;
        }
      if (queue.start != NULL)
        name = chrono_string_table_intern (imp->reader.trace->strings, (const char *) queue.start, queue.len);
      span = chrono_track_builder_add_span (b, start, dur, name, imp->cats[TABLE_DMA], row_args (g, r),
                                            CHRONO_KIND_DMA, has_dur ? 0 : CHRONO_SPAN_NO_DUR);
      chrono_neuron_note_time (&imp->reader, start, start + dur);
      if (g->facts != NULL && row_args (g, r) != CHRONO_NO_ARGS)
        chrono_parquet_facts_add (g->facts, imp->facts, r, row_args (g, r));
      if (row_int (g, COL_ID, r, &id))
        chrono_neuron_device_add_id (&imp->dev, CHRONO_NEURON_ID_DMA, (guint64) id, b, span);
      if ((e = row_entry (g, COL_SEMAPHORE, r)) >= 0)
        {
          const ChronoParquetBytes *sem = &g->cols[COL_SEMAPHORE].entries[e];
          chrono_neuron_device_dma_semaphore (&imp->dev, sem->data, sem->len, start + dur, b, span);
        }
      imp->reader.records++;
    }
}

static void
read_semaphores (Importer   *imp,
                 Group      *g,
                 const char *file,
                 guint64     n)
{
  for (guint64 r = 0; r < n; r++)
    {
      gint64 ts, e = row_entry (g, COL_NAME, r);
      gdouble value;
      ChronoTrackBuilder *b;

      if (!row_int (g, COL_START, r, &ts) || ts < -MAX_TIME || ts > MAX_TIME || e < 0 ||
          !row_number (g, COL_VALUE, r, &value))
        {
          skip_row (imp, file, TABLE_SEMAPHORE, r, "has no timestamp in range, id or value");
          continue;
        }
      if ((b = g->rows[COL_NAME][e]) == NULL)
        {
          const ChronoParquetBytes *text = &g->cols[COL_NAME].entries[e];
          b = g->rows[COL_NAME][e] = chrono_neuron_device_semaphore_track (&imp->dev, row_name (imp, g, r),
                                                                           text->data, text->len);
        }
      chrono_track_builder_add_sample (b, ts, value);
      chrono_neuron_note_time (&imp->reader, ts, ts);
      imp->reader.records++;
    }
}

static void
read_collectives (Importer   *imp,
                  Group      *g,
                  Table       table,
                  const char *file,
                  guint64     n)
{
  for (guint64 r = 0; r < n; r++)
    {
      gint64 start, dur, core = 0;
      gboolean has_dur, has_core = row_int (g, COL_CORE, r, &core);
      ChronoTrackBuilder *b;
      const char *why;

      if ((why = row_times (g, r, &start, &dur, &has_dur)) != NULL)
        {
          skip_row (imp, file, table, r, why);
          continue;
        }
      b = chrono_neuron_device_cc_track (&imp->dev, table == TABLE_CC_INSTRUCTION, has_core ? (guint64) core : 0);
      chrono_track_builder_add_span (b, start, dur, row_name (imp, g, r), imp->cats[table], row_args (g, r),
                                     CHRONO_KIND_COLLECTIVE, 0);
      chrono_neuron_note_time (&imp->reader, start, start + dur);
      imp->reader.records++;
    }
}

/* "instruction", or "dma_block" for DmaPacketAggregated. */
static gboolean
flow_table (const Group         *g,
            Col                  c,
            guint64              row,
            ChronoNeuronIdTable *table)
{
  gint64 e = row_entry (g, c, row);
  ChronoJsonString s;

  if (e < 0)
    {
      *table = CHRONO_NEURON_ID_INSTRUCTION;
      return TRUE;
    }
  s = entry_text (g, c, e);
  if (s.len == 11 && g_ascii_strncasecmp ((const char *) s.start, "instruction", 11) == 0)
    *table = CHRONO_NEURON_ID_INSTRUCTION;
  else if ((s.len == 9 && g_ascii_strncasecmp ((const char *) s.start, "dma_block", 9) == 0) ||
           (s.len == 3 && g_ascii_strncasecmp ((const char *) s.start, "dma", 3) == 0))
    *table = CHRONO_NEURON_ID_DMA;
  else
    return FALSE;
  return TRUE;
}

static void
read_flows (Importer   *imp,
            Group      *g,
            const char *file,
            guint64     n)
{
  for (guint64 r = 0; r < n; r++)
    {
      gint64 in, out;
      ChronoNeuronIdTable in_table, out_table;

      if (!row_int (g, COL_IN_ID, r, &in) || !row_int (g, COL_OUT_ID, r, &out))
        {
          skip_row (imp, file, TABLE_FLOW, r, "has no in_id or out_id");
          continue;
        }
      if (!flow_table (g, COL_IN_TABLE, r, &in_table) || !flow_table (g, COL_OUT_TABLE, r, &out_table))
        {
          imp->unknown_flow_tables++;
          continue;
        }
      chrono_neuron_device_add_flow (&imp->dev, in_table, (guint64) in, out_table, (guint64) out);
    }
}

/* -------------------------------------------------------------------- */
/* Summary                                                              */

/* Every column of the first row, as one JSON object. */
/* The metadata key a small table is kept under, and whether all its rows
 * (an array) or the first (an object). */
static const struct {
  const char *key;
  gboolean    all_rows;
} kept_tables[N_TABLES] = {
  [TABLE_SUMMARY] = { "neuron_summary", FALSE },
  [TABLE_METADATA] = { "neuron_metadata", FALSE },
  [TABLE_THROTTLE] = { "neuron_throttle", TRUE },
  [TABLE_EXECUTION] = { "neuron_executions", TRUE },
};

static gboolean
read_kept_table (Importer          *imp,
                 ChronoParquetFile *f,
                 Table              table,
                 GError           **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  gboolean all = kept_tables[table].all_rows;
  guint n_groups = chrono_parquet_file_get_n_row_groups (f);
  ChronoRange *range;

  if (g_hash_table_contains (imp->kept_ranges, kept_tables[table].key))
    return TRUE;
  if (n_groups == 0 || chrono_parquet_file_get_n_rows (f, 0) == 0)
    return TRUE;
  if (all)
    json_builder_begin_array (builder);
  for (guint group = 0; group < (all ? n_groups : 1); group++)
    if (!chrono_parquet_rows_add_json (builder, f, group, all ? chrono_parquet_file_get_n_rows (f, group) : 1, error))
      return FALSE;
  if (all)
    json_builder_end_array (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  if (imp->kept == NULL)
    imp->kept = g_string_new (NULL);
  range = g_new (ChronoRange, 1);
  range->offset = imp->kept->len;
  range->length = (guint32) MIN (strlen (text), G_MAXUINT32);
  g_string_append (imp->kept, text);
  g_hash_table_insert (imp->kept_ranges, g_strdup (kept_tables[table].key), range);
  return TRUE;
}

/* -------------------------------------------------------------------- */
/* Files                                                                */

static void
report_progress (Importer *imp,
                 guint64   done)
{
  if (imp->progress)
    imp->progress (imp->bytes_done + done, MAX (imp->bytes_total, 1), imp->progress_data);
}

/* One table file: FALSE with ERROR when none of it could be read. Row
 * groups that fail are left out with a warning. */
static gboolean
read_file (Importer      *imp,
           const char    *name,
           ChronoSource  *source,
           GError       **error)
{
  const guint8 *data = chrono_source_get_data (source);
  gsize len = chrono_source_get_available (source);
  g_autoptr(ChronoParquetFile) owned = chrono_parquet_file_open (name, data, len, error);
  ChronoParquetFile *f = owned;
  gint where[N_COLS];
  Table table;
  guint by_name;
  guint n_groups;
  guint lost_groups = 0;
  guint64 args = CHRONO_NO_ARGS;
  g_autoptr(ChronoParquetFacts) facts = NULL;

  if (f == NULL)
    return FALSE;
  by_name = table_of_name (name);
  if (by_name == TABLE_NOT_READ)
    return TRUE;  /* a table the model has no use for */
  if (by_name == TABLE_COUNTER)
    return read_counter_file (imp, name, f, error);
  table = by_name == TABLE_OTHER ? table_of_columns (f) : (Table) by_name;
  if (table == TABLE_OTHER)
    return TRUE;
  if (kept_tables[table].key != NULL)
    {
      if (!read_kept_table (imp, f, table, error))
        return FALSE;
      imp->tables_read++;
      return TRUE;
    }
  if (!find_columns (f, table, where, error))
    return FALSE;
  if (table != TABLE_SEMAPHORE && table != TABLE_FLOW)
    {
      if (imp->rows == NULL)
        imp->rows = chrono_parquet_rows_new ();
      args = chrono_parquet_rows_keep (imp->rows, source, &owned);
    }
  /* Instructions and DMA transfers are the records the analysis reads. */
  if (table == TABLE_INSTRUCTION || table == TABLE_DMA)
    facts = chrono_parquet_facts_new (f);

  n_groups = chrono_parquet_file_get_n_row_groups (f);
  for (guint group = 0; group < n_groups; group++)
    {
      g_autoptr(GError) local = NULL;
      guint64 n = chrono_parquet_file_get_n_rows (f, group);
      Group g;

      if (g_cancellable_set_error_if_cancelled (imp->cancellable, error))
        return FALSE;
      if (!read_group (f, group, table, where, &g, &local))
        {
          lost_groups++;
          imp->reader.skipped += n;
          chrono_trace_add_warning (imp->reader.trace, "%s: row group %u of %u (%" G_GUINT64_FORMAT
                                    " rows of %s) left out: %s", name, group + 1, n_groups, n,
                                    table_names[table], local->message);
          continue;
        }
      g.args = chrono_parquet_rows_group (args, group);
      if ((g.facts = facts) != NULL)
        chrono_parquet_facts_read (facts, group, where[COL_OPERANDS],
                                   g.have[COL_OPERANDS] ? &g.cols[COL_OPERANDS] : NULL);
      switch (table)
        {
        case TABLE_INSTRUCTION:
          read_instructions (imp, &g, name, n);
          break;
        case TABLE_DMA:
          read_dma (imp, &g, name, n);
          break;
        case TABLE_SEMAPHORE:
          read_semaphores (imp, &g, name, n);
          break;
        case TABLE_CC_OP:
        case TABLE_CC_INSTRUCTION:
          read_collectives (imp, &g, table, name, n);
          break;
        case TABLE_FLOW:
          read_flows (imp, &g, name, n);
          break;
        case TABLE_SUMMARY:
        case TABLE_METADATA:
        case TABLE_THROTTLE:
        case TABLE_EXECUTION:
        case TABLE_OTHER:
        default:
          g_assert_not_reached ();
        }
      /* The rows remember names by where their text was. */
      chrono_neuron_device_forget_names (&imp->dev);
      group_clear (&g);
      report_progress (imp, len * (group + 1) / MAX (n_groups, 1));
    }
  if (lost_groups == n_groups && n_groups > 0)
    {
      g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_SYNTAX,
                   "%s: none of its %u row groups could be read", name, n_groups);
      return FALSE;
    }
  if (lost_groups > 0)
    imp->reader.trace->stats.truncated = TRUE;
  imp->tables_read++;
  return TRUE;
}

static void
importer_init (Importer           *imp,
               ChronoTrace        *trace,
               GCancellable       *cancellable,
               ChronoProgressFunc  progress,
               gpointer            user_data)
{
  memset (imp, 0, sizeof *imp);
  chrono_neuron_reader_init_model (&imp->reader, trace);
  chrono_neuron_device_init (&imp->dev, &imp->reader);
  chrono_neuron_counters_init (&imp->counters, &imp->reader);
  for (guint t = 0; t < TABLE_FLOW; t++)
    imp->cats[t] = chrono_neuron_intern_text (&imp->reader, table_cats[t]);
  imp->kept_ranges = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  imp->facts = chrono_neuron_facts_new ();
  imp->cancellable = cancellable;
  imp->progress = progress;
  imp->progress_data = user_data;
}

static void
importer_finish (Importer *imp)
{
  ChronoTrace *trace = imp->reader.trace;

  trace->stats.file_bytes = imp->bytes_done;
  if (imp->kept != NULL)
    {
      g_autoptr(GBytes) bytes = g_string_free_to_bytes (g_steal_pointer (&imp->kept));
      GHashTableIter iter;
      gpointer key, range;

      /* The small tables' text is the trace's source: metadata ranges
       * point into it, as into a JSON profile. */
      g_clear_pointer (&trace->source, chrono_source_unref);
      trace->source = chrono_source_new_for_bytes (bytes, NULL);
      g_hash_table_iter_init (&iter, imp->kept_ranges);
      while (g_hash_table_iter_next (&iter, &key, &range))
        {
          g_hash_table_insert (trace->metadata, key, range);
          g_hash_table_iter_steal (&iter);
        }
    }
  if (imp->rows != NULL)
    chrono_trace_set_row_args (trace, 0, chrono_parquet_rows_to_row_args (g_steal_pointer (&imp->rows)));
  if (imp->unknown_flow_tables > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " Flow rows join tables other than instructions "
                              "and DMA transfers; left out", imp->unknown_flow_tables);
  if (imp->left_out_system > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " system profile tables (host memory, HBM or CPU use) "
                              "are among a device profile's, whose clock starts at 0; left out: open them "
                              "as a folder of their own", imp->left_out_system);
  if (imp->system)
    {
      chrono_neuron_counters_finish (&imp->counters);
      chrono_neuron_reader_finish (&imp->reader, "neuron-system", NULL);
    }
  else
    {
      chrono_neuron_device_finish (&imp->dev, "Flow rows");
      chrono_neuron_facts_seal (imp->facts);
      chrono_trace_set_neuron_facts (trace, g_steal_pointer (&imp->facts));
    }
}

static void
importer_clear (Importer *imp)
{
  chrono_neuron_counters_clear (&imp->counters);
  chrono_neuron_device_clear (&imp->dev);
  chrono_neuron_reader_clear (&imp->reader);
  if (imp->rows)
    chrono_parquet_rows_free (imp->rows);
  if (imp->kept)
    g_string_free (imp->kept, TRUE);
  chrono_neuron_facts_free (imp->facts);
  g_clear_pointer (&imp->kept_ranges, g_hash_table_unref);
}

static gboolean
wait_source (ChronoSource  *source,
             const guint8 **data,
             gsize         *len,
             GError       **error)
{
  gboolean finished = FALSE;
  gsize avail = 0;

  while (!finished)
    avail = chrono_source_wait (source, avail, &finished);
  if (chrono_source_get_error (source, error))
    return FALSE;
  *data = chrono_source_get_data (source);
  *len = avail;
  return TRUE;
}

ChronoTrace *
chrono_neuron_parquet_load (const char         *name,
                            const char * const *paths,
                            GCancellable       *cancellable,
                            ChronoProgressFunc  progress,
                            gpointer            user_data,
                            GError            **error)
{
  g_autoptr(ChronoTrace) trace = chrono_trace_new (name, NULL);
  g_autoptr(GError) first_error = NULL;
  Importer imp;
  gboolean ok = TRUE;

  importer_init (&imp, trace, cancellable, progress, user_data);
  imp.system = is_system_profile (paths);
  for (guint i = 0; paths[i]; i++)
    {
      GStatBuf buf;

      if (g_stat (paths[i], &buf) == 0)
        imp.bytes_total += buf.st_size;
    }
  for (guint i = 0; paths[i] && ok; i++)
    {
      g_autoptr(GError) local = NULL;
      g_autoptr(ChronoSource) source = chrono_source_open (paths[i], &local);
      const guint8 *data;
      gsize len;

      if (source != NULL && wait_source (source, &data, &len, &local) &&
          read_file (&imp, paths[i], source, &local))
        {
          imp.bytes_done += len;
          continue;
        }
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          ok = FALSE;
          break;
        }
      chrono_trace_add_warning (trace, "%s; this table is left out of the profile", local->message);
      trace->stats.truncated = TRUE;
      if (first_error == NULL)
        first_error = g_steal_pointer (&local);
    }
  if (ok && imp.tables_read == 0)
    {
      if (first_error != NULL)
        g_propagate_error (error, g_steal_pointer (&first_error));
      else
        g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT,
                     "%s: none of its Parquet files is a table of a Neuron device profile", name);
      ok = FALSE;
    }
  if (ok)
    importer_finish (&imp);
  importer_clear (&imp);
  return ok ? g_steal_pointer (&trace) : NULL;
}

gboolean
chrono_neuron_parquet_importer_run (ChronoTrace        *trace,
                                    ChronoSource       *source,
                                    GCancellable       *cancellable,
                                    ChronoProgressFunc  progress,
                                    gpointer            user_data,
                                    GError            **error)
{
  Importer imp;
  const guint8 *data;
  gsize len;
  gboolean ok;

  if (!wait_source (source, &data, &len, error))
    return FALSE;
  importer_init (&imp, trace, cancellable, progress, user_data);
  imp.bytes_total = len;
  {
    const char * const one[] = { chrono_trace_get_path (trace), NULL };
    imp.system = is_system_profile (one);
  }
  ok = read_file (&imp, chrono_trace_get_path (trace), source, error);
  imp.bytes_done = len;
  if (ok && imp.tables_read == 0)
    {
      g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT,
                   "%s: a Parquet file, but not a table of a Neuron device profile", chrono_trace_get_path (trace));
      ok = FALSE;
    }
  if (ok)
    importer_finish (&imp);
  importer_clear (&imp);
  return ok;
}
