/* bench-parquet.c: loading Neuron Explorer's Parquet profile, next to its
 * JSON twin and to npm's Parquet readers
 *
 * Usage: bench-parquet [--size 1GB] [--dir DIR] [--codec snappy] [--no-dictionary] [--repeat 3]
 *
 * Writes a device profile of about SIZE (the JSON twin's bytes) with the
 * test generator, and the same profile as a folder of Parquet tables with
 * the independent writer (parquet-wasm, through node; DIR keeps both for
 * the next run). Then, alternating, --repeat times:
 *   - ours, Parquet: chrono_trace_load_set() on the folder: the columns
 *     the model needs decoded and the model built;
 *   - ours, decoding only: the same columns decoded by the reader, the
 *     files mapped beforehand, no model built;
 *   - ours, JSON: chrono_trace_load_file() on the JSON twin;
 *   - the writer's own reader (parquet-wasm's readParquet) and hyparquet
 *     decoding the same columns of the same files, in node, the files
 *     already in memory (tests/bench/parquet-read.mjs).
 * The fastest run of each is kept and compared. It reports; it exits 0
 * unless it cannot run at all.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "chrono-format.h"
#include "chrono-loader.h"
#include "chrono-parquet-reader.h"
#include "chrono-source.h"
#include "chrono-trace-set.h"
#include "neuron-gen.h"

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

static guint64
folder_bytes (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint64 total = 0;

  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      GStatBuf st;

      if (g_stat (path, &st) == 0)
        total += st.st_size;
    }
  return total;
}

static double
load_seconds (const char *path,
              gboolean    folder,
              guint64    *instructions)
{
  const char *paths[] = { path, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  double t = now ();

  trace = folder ? chrono_trace_load_set (paths, NULL, NULL, NULL, &error)
                 : chrono_trace_load_file (path, NULL, NULL, NULL, &error);
  t = now () - t;
  if (trace == NULL)
    {
      g_printerr ("bench-parquet: %s\n", error->message);
      exit (1);
    }
  *instructions = chrono_trace_get_stats (trace)->kinds[CHRONO_KIND_INSTRUCTION];
  return t;
}

/* The columns the importer reads, as parquet-read.mjs lists them. */
static const char * const *
table_columns (const char *file)
{
  static const char * const instruction[] = { "start_ts", "duration_ns", "end_ts", "engine", "timeline_track",
                                              "opcode", "operands", "id", NULL };
  static const char * const dma[] = { "start_ts", "duration_ns", "end_ts", "queue_name", "semaphore_id", "id", NULL };
  static const char * const semaphore[] = { "timestamp", "id", "value", NULL };
  static const char * const cc_op[] = { "start_ts", "duration_ns", "end_ts", "operation", NULL };
  static const char * const cc_instruction[] = { "start_ts", "duration_ns", "end_ts", "description", "core_idx", NULL };
  static const char * const flow[] = { "in_id", "out_id", "in_table", "out_table", NULL };

  if (g_str_has_prefix (file, "Instruction"))
    return instruction;
  if (g_str_has_prefix (file, "DmaPacketAggregated"))
    return dma;
  if (g_str_has_prefix (file, "SemaphoreUpdate"))
    return semaphore;
  if (g_str_has_prefix (file, "CcOp"))
    return cc_op;
  if (g_str_has_prefix (file, "CcInstruction"))
    return cc_instruction;
  if (g_str_has_prefix (file, "Flow"))
    return flow;
  return NULL;
}

/* Decoding the needed columns of every table, nothing else. */
static double
decode_seconds (const char *folder,
                guint64    *rows)
{
  static const gint any[] = {
    CHRONO_PARQUET_BOOLEAN, CHRONO_PARQUET_INT32, CHRONO_PARQUET_INT64, CHRONO_PARQUET_FLOAT,
    CHRONO_PARQUET_DOUBLE, CHRONO_PARQUET_BYTE_ARRAY, -1
  };
  g_autoptr(GDir) d = g_dir_open (folder, 0, NULL);
  g_autoptr(GPtrArray) sources = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_source_unref);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  double t;

  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);
      ChronoSource *source = table_columns (name) ? chrono_source_open (path, NULL) : NULL;
      gboolean finished = FALSE;
      gsize avail = 0;

      if (source == NULL)
        continue;
      while (!finished)
        avail = chrono_source_wait (source, avail, &finished);
      /* Touch the pages, as node has the files in memory. */
      for (gsize i = 0; i < avail; i += 4096)
        *rows += chrono_source_get_data (source)[i] == 0xff;
      g_ptr_array_add (sources, source);
      g_ptr_array_add (names, g_strdup (name));
    }
  *rows = 0;
  t = now ();
  for (guint i = 0; i < sources->len; i++)
    {
      ChronoSource *source = g_ptr_array_index (sources, i);
      const char * const *cols = table_columns (g_ptr_array_index (names, i));
      g_autoptr(GError) error = NULL;
      g_autoptr(ChronoParquetFile) f = chrono_parquet_file_open (g_ptr_array_index (names, i),
                                                                 chrono_source_get_data (source),
                                                                 chrono_source_get_available (source), &error);

      if (f == NULL)
        {
          g_printerr ("bench-parquet: %s\n", error->message);
          exit (1);
        }
      for (guint g = 0; g < chrono_parquet_file_get_n_row_groups (f); g++)
        {
          *rows += chrono_parquet_file_get_n_rows (f, g);
          for (guint c = 0; cols[c]; c++)
            {
              gint at = chrono_parquet_file_find_column (f, cols[c]);
              ChronoParquetColumn col;

              if (at < 0)
                continue;
              if (!chrono_parquet_file_read_column (f, g, (guint) at, any, &col, &error))
                {
                  g_printerr ("bench-parquet: %s\n", error->message);
                  exit (1);
                }
              chrono_parquet_column_clear (&col);
            }
        }
    }
  return now () - t;
}

/* The node baseline: seconds of parquet-wasm and of hyparquet. */
static gboolean
npm_readers (const char *modules,
             const char *folder,
             double     *wasm,
             double     *hyparquet,
             guint64    *rows,
             guint64    *uncompressed)
{
  const char *argv[] = { "node", "--max-old-space-size=16384", BENCH_PARQUET_READ, modules, folder, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o;
  gint status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &error) ||
      !g_spawn_check_wait_status (status, &error) || !json_parser_load_from_data (parser, out, -1, &error))
    {
      g_printerr ("bench-parquet: the npm readers failed: %s %s\n", error ? error->message : "", err ? err : "");
      return FALSE;
    }
  o = json_node_get_object (json_parser_get_root (parser));
  *wasm = json_object_get_double_member (o, "parquet_wasm_s");
  *hyparquet = json_object_get_double_member (o, "hyparquet_s");
  *rows = json_object_get_int_member (o, "rows");
  *uncompressed = json_object_get_int_member (o, "uncompressed_bytes");
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *size = NULL, *dir = NULL, *codec = NULL;
  gint repeat = 3;
  gboolean plain = FALSE;
  const GOptionEntry entries[] = {
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, "Size of the JSON twin (default 1GB)", "SIZE" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "Keep the profiles in DIR and reuse them", "DIR" },
    { "codec", 0, 0, G_OPTION_ARG_STRING, &codec, "none, snappy, gzip or zstd (default snappy)", "CODEC" },
    { "no-dictionary", 0, 0, G_OPTION_ARG_NONE, &plain, "Plain columns, no dictionary encoding", NULL },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "Runs of each (default 3)", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("— Parquet profile load benchmark");
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL, *folder = NULL, *why = NULL;
  const char *modules = neuron_gen_npm_dir ();
  NeuronGenOptions o;
  NeuronGenCounts c;
  NeuronGenParquetOptions po;
  double best_dec = G_MAXDOUBLE, best_pq = G_MAXDOUBLE, best_js = G_MAXDOUBLE, best_wasm = G_MAXDOUBLE, best_hy = G_MAXDOUBLE;
  guint64 n_pq = 0, n_js = 0, rows = 0, our_rows = 0, uncompressed = 0;
  GStatBuf st;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-parquet: %s\n", error->message);
      return 2;
    }
  if (!neuron_gen_parquet_available (&why))
    {
      g_printerr ("bench-parquet: %s\n", why);
      return 1;
    }
  neuron_gen_options_init (&o);
  if (!chrono_format_parse_size (size ? size : "1GB", &o.target_bytes, &error))
    {
      g_printerr ("bench-parquet: %s\n", error->message);
      return 2;
    }
  if (dir == NULL)
    dir = g_dir_make_tmp ("chrono-bench-parquet-XXXXXX", NULL);
  g_mkdir_with_parents (dir, 0755);
  json = g_build_filename (dir, "device_profile_model_1.json", NULL);
  folder = g_build_filename (dir, "tables", NULL);
  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      double t = now ();

      if (!neuron_gen_write_device (json, &o, &c, &error))
        {
          g_printerr ("bench-parquet: %s\n", error->message);
          return 1;
        }
      printf ("wrote %s: %.0f MB in %.1f s\n", json, c.bytes / 1e6, now () - t);
      neuron_gen_parquet_options_init (&po);
      po.codec = codec ? codec : "snappy";
      po.row_group = 128 * 1024;
      po.page_bytes = 1024 * 1024;
      po.file_rows = 500000;
      po.dictionary = !plain;
      /* The writer holds a table's columns in node's heap. */
      g_setenv ("NODE_OPTIONS", "--max-old-space-size=16384", TRUE);
      t = now ();
      if (!neuron_gen_write_parquet (json, folder, &po, NULL, &error))
        {
          g_printerr ("bench-parquet: %s\n", error->message);
          return 1;
        }
      printf ("wrote %s (%s, %s) in %.1f s\n", folder, po.codec, plain ? "plain" : "dictionary", now () - t);
    }
  if (g_stat (json, &st) != 0)
    {
      g_printerr ("bench-parquet: %s is missing\n", json);
      return 1;
    }

  repeat = MAX (repeat, 1);
  for (gint r = 0; r < repeat; r++)
    {
      double wasm, hy, pq, js, dec;

      dec = decode_seconds (folder, &our_rows);
      pq = load_seconds (folder, TRUE, &n_pq);
      js = load_seconds (json, FALSE, &n_js);
      if (!npm_readers (modules, folder, &wasm, &hy, &rows, &uncompressed))
        return 1;
      printf ("run %d: ours decoding %.2f s, ours Parquet load %.2f s, ours JSON load %.2f s, "
              "parquet-wasm %.2f s, hyparquet %.2f s\n", r + 1, dec, pq, js, wasm, hy);
      best_dec = MIN (best_dec, dec);
      best_pq = MIN (best_pq, pq);
      best_js = MIN (best_js, js);
      best_wasm = MIN (best_wasm, wasm);
      best_hy = MIN (best_hy, hy);
    }
  if (n_pq != n_js)
    printf ("warning: %" G_GUINT64_FORMAT " instructions from Parquet, %" G_GUINT64_FORMAT " from JSON\n", n_pq, n_js);

  printf ("\nprofile: %" G_GUINT64_FORMAT " instructions; rows decoded: %" G_GUINT64_FORMAT " by ours, %" G_GUINT64_FORMAT
          " by the npm readers\n", n_pq, our_rows, rows);
  printf ("JSON twin: %.0f MB; Parquet folder: %.0f MB on disk, %.0f MB uncompressed (row groups' total_byte_size)\n",
          st.st_size / 1e6, folder_bytes (folder) / 1e6, uncompressed / 1e6);
  printf ("fastest of %d          seconds   MB/s of uncompressed Parquet\n", repeat);
  printf ("  ours, decoding only  %7.2f   %7.0f\n", best_dec, uncompressed / 1e6 / best_dec);
  printf ("  ours, Parquet load   %7.2f   %7.0f\n", best_pq, uncompressed / 1e6 / best_pq);
  printf ("  ours, JSON twin      %7.2f   (%.0f MB/s of JSON)\n", best_js, st.st_size / 1e6 / best_js);
  printf ("  parquet-wasm         %7.2f   %7.0f\n", best_wasm, uncompressed / 1e6 / best_wasm);
  printf ("  hyparquet            %7.2f   %7.0f\n", best_hy, uncompressed / 1e6 / best_hy);
  printf ("ratios (time of the other / ours): our Parquet load is %.2fx our JSON load; "
          "our decoding is %.2fx parquet-wasm's, %.2fx hyparquet's\n",
          best_js / best_pq, best_wasm / best_dec, best_hy / best_dec);
  return 0;
}
