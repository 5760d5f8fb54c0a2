/* fuzz-load.c: libFuzzer target for the trace loader
 *
 * Feeds arbitrary bytes to chrono_trace_load_bytes(); input that starts
 * as Parquet does also goes to the Parquet reader itself, every column of
 * every row group decoded, since the importer reads only some. Errors are fine;
 * crashes, sanitizer reports and a model that breaks its own invariants
 * are not: every invariant violation calls abort() so that libFuzzer
 * keeps the input.
 *
 * Build: CC=clang meson setup _build-fuzz -Dfuzzing=true \
 *          -Db_sanitize=address,undefined -Db_lundef=false
 * Run:   _build-fuzz/tests/fuzz/fuzz-load CORPUS_DIR -max_total_time=60
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "chrono-loader.h"
#include "chrono-parquet-reader.h"
#include "chrono-trace.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define CHECK(cond, ...)                                                   \
  G_STMT_START {                                                           \
    if (G_UNLIKELY (!(cond)))                                              \
      {                                                                    \
        fprintf (stderr, "invariant violated: %s (%s:%d)\n  ",             \
                 #cond, __FILE__, __LINE__);                               \
        fprintf (stderr, __VA_ARGS__);                                     \
        fputc ('\n', stderr);                                              \
        abort ();                                                          \
      }                                                                    \
  } G_STMT_END

static void
check_string (ChronoTrace *trace,
              guint        n_strings,
              guint32      id,
              const char  *what)
{
  CHECK (id == CHRONO_NO_STRING || id < n_strings,
         "%s: string id %u of %u", what, id, n_strings);
  if (id < n_strings)
    CHECK (chrono_trace_get_string (trace, id) != NULL, "%s: string %u is NULL", what, id);
}

static void
check_track (ChronoTrace       *trace,
             guint              t,
             const ChronoTrack *track,
             guint              n_processes,
             guint              n_strings)
{
  /* Per lane: the spans open at the current start, innermost last. */
  g_autoptr(GArray) open = NULL;
  guint16 n_lanes = track->n_lanes;

  CHECK (track->process < n_processes, "track %u: process %u of %u",
         t, track->process, n_processes);
  check_string (trace, n_strings, track->name, "track name");
  check_string (trace, n_strings, track->display_name, "track display name");

  if (track->n_spans > 0)
    {
      CHECK (track->start && track->dur.data && track->name_id.data && track->depth &&
             track->lane && track->kind && track->flags,
             "track %u: %u spans but a column is NULL", t, track->n_spans);
      CHECK (n_lanes > 0, "track %u: %u spans in no lane", t, track->n_spans);
    }

  open = g_array_new (FALSE, TRUE, sizeof (GArray *));
  g_array_set_size (open, n_lanes);

  for (guint32 i = 0; i < track->n_spans; i++)
    {
      gint64 start = track->start[i];
      gint64 dur = chrono_track_get_dur (track, i);
      guint16 depth = track->depth[i];
      guint16 lane = track->lane[i];
      GArray *stack;

      if (i > 0)
        CHECK (track->start[i - 1] <= start,
               "track %u: span %u starts at %" G_GINT64_FORMAT
               " before span %u at %" G_GINT64_FORMAT,
               t, i, start, i - 1, track->start[i - 1]);
      CHECK (dur >= 0, "track %u span %u: duration %" G_GINT64_FORMAT, t, i, dur);
      CHECK (start <= G_MAXINT64 - dur, "track %u span %u: end overflows", t, i);
      CHECK (lane < n_lanes, "track %u span %u: lane %u of %u", t, i, lane, n_lanes);
      CHECK (depth <= track->max_depth, "track %u span %u: depth %u > max_depth %u",
             t, i, depth, track->max_depth);
      CHECK (track->kind[i] < CHRONO_N_KINDS, "track %u span %u: kind %u", t, i, track->kind[i]);
      check_string (trace, n_strings, chrono_track_get_name (track, i), "span name");
      if (track->cat_id.data)
        check_string (trace, n_strings, chrono_track_get_cat (track, i), "span category");

      /* Nesting: a span at depth d lies inside the last span of depth
       * d - 1 in its lane, and that one is still open. */
      stack = g_array_index (open, GArray *, lane);
      if (stack == NULL)
        {
          stack = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_array_index (open, GArray *, lane) = stack;
        }
      if (depth < stack->len)
        g_array_set_size (stack, depth);
      CHECK (depth == stack->len,
             "track %u span %u (lane %u): depth %u but only %u enclosing spans",
             t, i, lane, depth, stack->len);
      if (depth > 0)
        {
          guint32 parent = g_array_index (stack, guint32, depth - 1);

          CHECK (track->start[parent] <= start &&
                 start + dur <= chrono_track_get_end (track, parent),
                 "track %u span %u [%" G_GINT64_FORMAT ", +%" G_GINT64_FORMAT
                 "] not inside its parent %u [%" G_GINT64_FORMAT ", +%" G_GINT64_FORMAT "]",
                 t, i, start, dur, parent, track->start[parent], chrono_track_get_dur (track, parent));
        }
      g_array_append_val (stack, i);
    }

  for (guint l = 0; l < open->len; l++)
    if (g_array_index (open, GArray *, l))
      g_array_unref (g_array_index (open, GArray *, l));

  for (guint32 i = 0; i < track->n_instants; i++)
    {
      check_string (trace, n_strings, chrono_track_get_inst_name (track, i), "instant name");
      if (track->inst_cat.data)
        check_string (trace, n_strings, chrono_track_get_inst_cat (track, i), "instant category");
    }
  if (track->n_samples > 0)
    CHECK (track->sample_ts && track->sample_value,
           "track %u: %u samples but a column is NULL", t, track->n_samples);
}

static void
check_trace (ChronoTrace *trace)
{
  guint n_tracks = chrono_trace_get_n_tracks (trace);
  guint n_processes = chrono_trace_get_n_processes (trace);
  guint n_strings = chrono_trace_get_n_strings (trace);
  guint n_flows = chrono_trace_get_n_flows (trace);
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);
  guint64 n_spans = 0;

  for (guint p = 0; p < n_processes; p++)
    {
      const ChronoProcess *proc = chrono_trace_get_process (trace, p);

      CHECK (proc != NULL, "process %u of %u is NULL", p, n_processes);
      check_string (trace, n_strings, proc->name, "process name");
      check_string (trace, n_strings, proc->labels, "process labels");
      check_string (trace, n_strings, proc->display_name, "process display name");
    }

  for (guint t = 0; t < n_tracks; t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      CHECK (track != NULL, "track %u of %u is NULL", t, n_tracks);
      check_track (trace, t, track, n_processes, n_strings);
      n_spans += track->n_spans;
    }

  for (guint f = 0; f < n_flows; f++)
    {
      const ChronoFlow *flow = chrono_trace_get_flow (trace, f);
      const ChronoTrack *from, *to;

      CHECK (flow != NULL, "flow %u of %u is NULL", f, n_flows);
      CHECK (flow->from.track < n_tracks && flow->to.track < n_tracks,
             "flow %u: tracks %u -> %u of %u", f, flow->from.track, flow->to.track, n_tracks);
      from = chrono_trace_get_track (trace, flow->from.track);
      to = chrono_trace_get_track (trace, flow->to.track);
      CHECK (flow->from.index < from->n_spans,
             "flow %u: source span %u of %u", f, flow->from.index, from->n_spans);
      CHECK (flow->to.index < to->n_spans,
             "flow %u: target span %u of %u", f, flow->to.index, to->n_spans);
      CHECK (flow->type < CHRONO_N_FLOW_TYPES, "flow %u: type %d", f, flow->type);
    }

  if (stats != NULL)
    {
      /* X and B events are counted among the events read. */
      CHECK (stats->spans <= stats->events,
             "%" G_GUINT64_FORMAT " spans from %" G_GUINT64_FORMAT " events",
             stats->spans, stats->events);
      if (stats->warnings)
        for (guint i = 0; i < stats->warnings->len; i++)
          CHECK (g_ptr_array_index (stats->warnings, i) != NULL, "warning %u is NULL", i);
    }

  if (n_spans > 0)
    CHECK (chrono_trace_get_start_ns (trace) <= chrono_trace_get_end_ns (trace),
           "start %" G_GINT64_FORMAT " > end %" G_GINT64_FORMAT,
           chrono_trace_get_start_ns (trace), chrono_trace_get_end_ns (trace));
}

/* Every column that a caller may ask for, as any type. */
static void
fuzz_parquet (const uint8_t *data,
              size_t         size)
{
  static const gint any[] = {
    CHRONO_PARQUET_BOOLEAN, CHRONO_PARQUET_INT32, CHRONO_PARQUET_INT64, CHRONO_PARQUET_FLOAT,
    CHRONO_PARQUET_DOUBLE, CHRONO_PARQUET_BYTE_ARRAY, -1
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoParquetFile) f = chrono_parquet_file_open ("fuzz-input", data, size, &error);

  if (f == NULL)
    {
      CHECK (error != NULL && error->message != NULL, "no file and no error");
      return;
    }
  for (guint g = 0; g < chrono_parquet_file_get_n_row_groups (f); g++)
    for (guint c = 0; c < chrono_parquet_file_get_n_columns (f); c++)
      {
        g_autoptr(GError) local = NULL;
        ChronoParquetColumn col;

        if (!chrono_parquet_file_read_column (f, g, c, any, &col, &local))
          {
            CHECK (local != NULL && local->message != NULL, "a column failed without an error");
            continue;
          }
        CHECK (col.n_rows == chrono_parquet_file_get_n_rows (f, g), "column %u of row group %u: %" G_GUINT64_FORMAT
               " rows of %" G_GUINT64_FORMAT, c, g, col.n_rows, chrono_parquet_file_get_n_rows (f, g));
        if (col.type == CHRONO_PARQUET_BYTE_ARRAY)
          for (guint64 r = 0; r < col.n_rows; r++)
            CHECK ((col.present && !col.present[r]) || col.v.index[r] < col.n_entries,
                   "row %" G_GUINT64_FORMAT ": string %u of %u", r, col.v.index[r], col.n_entries);
        chrono_parquet_column_clear (&col);
      }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;

  if (chrono_parquet_sniff (data, size))
    fuzz_parquet (data, size);

  trace = chrono_trace_load_bytes (bytes, "fuzz-input", &error);
  if (trace == NULL)
    {
      CHECK (error != NULL, "no trace and no error");
      CHECK (error->message != NULL, "error without a message");
      return 0;
    }
  CHECK (error == NULL, "a trace and an error: %s", error->message);

  check_trace (trace);
  /* Args read on request (Parquet rows among them): the first span's of
   * each track. */
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      if (track->n_spans > 0)
        g_ptr_array_unref (chrono_trace_dup_args (trace, chrono_track_get_args (track, 0)));
    }
  return 0;
}
