/* test-example.c: the example trace generator, and the importer against it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "chrono-example-trace.h"
#include "chrono-loader.h"

#define QUARTER_NS (G_GINT64_CONSTANT (7889238) * G_GINT64_CONSTANT (1000000000))
/* Times go through doubles in json-glib: a ts of ~7e12 µs is off by up
 * to 1 ns after scaling, and Kineto widens GPU annotations by only 1 ns. */
#define SLACK_NS   3

typedef struct {
  char                 *path;
  ChronoExampleOptions  options;
  ChronoExampleCounts   counts;
} Example;

static char *tmp_dir;
static Example plain_example;
static Example gzip_example;

static void
write_example (Example    *ex,
               const char *name,
               const ChronoExampleOptions *options)
{
  g_autoptr(GError) error = NULL;

  ex->path = g_build_filename (tmp_dir, name, NULL);
  ex->options = *options;
  g_assert_true (chrono_example_trace_write (ex->path, options, &ex->counts, &error));
  g_assert_no_error (error);
}

/* A few megabytes: 8 ranks, so collectives; 2 compute streams. */
static const Example *
get_plain (void)
{
  if (plain_example.path == NULL)
    {
      ChronoExampleOptions options;

      chrono_example_options_init (&options);
      options.target_bytes = 4 * 1000 * 1000;
      options.rank = 3;
      options.world_size = 8;
      options.seed = 20240522;
      write_example (&plain_example, "example.json", &options);
    }
  return &plain_example;
}

static const Example *
get_gzip (void)
{
  if (gzip_example.path == NULL)
    {
      ChronoExampleOptions options;

      chrono_example_options_init (&options);
      options.n_steps = 3;
      options.n_streams = 3;
      options.seed = 99;
      options.gzip = TRUE;
      write_example (&gzip_example, "example.json.gz", &options);
    }
  return &gzip_example;
}

static GBytes *
read_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &contents, &len, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (contents, len);
}

static GBytes *
gunzip (GBytes *compressed)
{
  g_autoptr(GConverter) decompressor = G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
  g_autoptr(GInputStream) raw = g_memory_input_stream_new_from_bytes (compressed);
  g_autoptr(GInputStream) in = g_converter_input_stream_new (raw, decompressor);
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
                          NULL, &error);
  g_assert_no_error (error);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

/* pid and tid as text: they are ints or strings ("Spans", ""). */
static char *
id_text (JsonObject *event,
         const char *member)
{
  JsonNode *node = json_object_get_member (event, member);

  g_assert_nonnull (node);
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup_printf ("\"%s\"", json_node_get_string (node));
  return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
}

static gint64
ns_of (JsonObject *event,
       const char *member)
{
  return (gint64) (json_object_get_double_member (event, member) * 1000.0 + 0.5);
}

/* "pid/tid/ts" for matching flow events with the slices they sit on. */
static char *
place_key (JsonObject *event)
{
  g_autofree char *pid = id_text (event, "pid");
  g_autofree char *tid = id_text (event, "tid");

  return g_strdup_printf ("%s/%s/%" G_GINT64_FORMAT, pid, tid, ns_of (event, "ts"));
}

typedef struct {
  gint64 start;
  gint64 end;
} Interval;

static int
compare_intervals (gconstpointer a,
                   gconstpointer b)
{
  const Interval *x = a;
  const Interval *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  /* longer first, so parents come before their children */
  if (x->end != y->end)
    return x->end > y->end ? -1 : 1;
  return 0;
}

/* Every X of one track either nests in the enclosing one or follows it. */
static void
assert_nested (GArray *intervals)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Interval));

  g_array_sort (intervals, compare_intervals);
  for (guint i = 0; i < intervals->len; i++)
    {
      const Interval *s = &g_array_index (intervals, Interval, i);

      while (stack->len > 0 && g_array_index (stack, Interval, stack->len - 1).end <= s->start + SLACK_NS)
        g_array_set_size (stack, stack->len - 1);
      if (stack->len > 0)
        g_assert_cmpint (s->end, <=, g_array_index (stack, Interval, stack->len - 1).end + SLACK_NS);
      g_array_append_val (stack, *s);
    }
}

static ChronoExampleCat
cat_from_string (const char *cat)
{
  for (guint c = 0; c < CHRONO_EXAMPLE_N_CATS; c++)
    if (g_strcmp0 (cat, chrono_example_cat_to_string (c)) == 0)
      return c;
  g_assert_not_reached ();
}

/* Counts everything again from json-glib's reading of the file. */
static void
check_against_json (GBytes                    *bytes,
                    const ChronoExampleOptions *options,
                    const ChronoExampleCounts  *counts)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) slices = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) g_array_unref);
  g_autoptr(GHashTable) flow_starts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) flow_ends = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) launchers = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GArray) gpu_correlations = g_array_new (FALSE, FALSE, sizeof (gint64));
  ChronoExampleCounts seen = { 0 };
  guint64 dangling = 0;
  guint64 collective_parts = 0;
  const char *text = g_bytes_get_data (bytes, NULL);
  gsize len = g_bytes_get_size (bytes);
  JsonObject *root;
  JsonObject *dist;
  JsonArray *events;
  GHashTableIter iter;
  gpointer key, value;

  g_assert_cmpuint (len, ==, counts->uncompressed_bytes);
  g_assert_true (json_parser_load_from_data (parser, text, len, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));

  /* Kineto's layout: indented root, base time before the events, the
   * trace name after them. */
  g_assert_true (g_str_has_prefix (text, "\n  {\n    \"schemaVersion\": 1,"));
  g_assert_true (strstr (text, "\"baseTimeNanoseconds\"") < strstr (text, "\"traceEvents\""));
  g_assert_true (strstr (text, "\"traceName\"") > g_strrstr (text, "\"ph\""));
  g_assert_cmpint (json_object_get_int_member (root, "baseTimeNanoseconds"), ==, counts->base_time_ns);
  g_assert_cmpint (counts->base_time_ns % QUARTER_NS, ==, 0);
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (root, "deviceProperties")), ==,
                   MIN (options->world_size, 8));
  dist = json_object_get_object_member (root, "distributedInfo");
  g_assert_cmpstr (json_object_get_string_member (dist, "backend"), ==, "nccl");
  g_assert_cmpint (json_object_get_int_member (dist, "rank"), ==, options->rank);
  g_assert_cmpint (json_object_get_int_member (dist, "world_size"), ==, options->world_size);

  events = json_object_get_array_member (root, "traceEvents");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *ph = json_object_get_string_member (e, "ph");
      const char *name = json_object_get_string_member (e, "name");

      g_assert_cmpuint (strlen (ph), ==, 1);
      seen.events++;
      seen.phases[(guchar) ph[0]]++;

      if (ph[0] == 'X')
        {
          ChronoExampleCat cat = cat_from_string (json_object_get_string_member (e, "cat"));
          JsonObject *args = json_object_get_object_member (e, "args");
          g_autofree char *pid = id_text (e, "pid");
          g_autofree char *tid = id_text (e, "tid");
          char *track = g_strdup_printf ("%s/%s", pid, tid);
          GArray *intervals = g_hash_table_lookup (tracks, track);
          Interval interval = { ns_of (e, "ts"), ns_of (e, "ts") + ns_of (e, "dur") };

          seen.spans[cat]++;
          if (json_object_get_double_member (e, "dur") == 0)
            seen.zero_duration_spans++;
          if (cat == CHRONO_EXAMPLE_CAT_USER_ANNOTATION && g_str_has_prefix (name, "ProfilerStep#"))
            seen.steps++;
          if (g_str_has_prefix (name, "nccl") || g_str_equal (name, "record_param_comms"))
            collective_parts++;
          if (cat == CHRONO_EXAMPLE_CAT_KERNEL && g_str_has_prefix (name, "ncclDevKernel_AllReduce"))
            {
              seen.collectives++;
              g_assert_cmpstr (json_object_get_string_member (args, "Collective name"), ==, "allreduce");
              g_assert_cmpint (json_object_get_int_member (args, "Group size"), ==, options->world_size);
            }
          if (cat == CHRONO_EXAMPLE_CAT_KERNEL || cat == CHRONO_EXAMPLE_CAT_GPU_MEMCPY ||
              cat == CHRONO_EXAMPLE_CAT_GPU_MEMSET)
            {
              gint64 correlation = json_object_get_int_member (args, "correlation");

              g_assert_cmpint (json_object_get_int_member (e, "pid"), ==, options->rank % 8);
              g_assert_cmpint (json_object_get_int_member (args, "stream"), ==, json_object_get_int_member (e, "tid"));
              g_array_append_val (gpu_correlations, correlation);
            }
          if (cat == CHRONO_EXAMPLE_CAT_CUDA_RUNTIME)
            {
              gint64 correlation = json_object_get_int_member (args, "correlation");

              g_hash_table_add (launchers, g_memdup2 (&correlation, sizeof correlation));
            }

          if (intervals == NULL)
            {
              intervals = g_array_new (FALSE, FALSE, sizeof (Interval));
              g_hash_table_insert (tracks, track, intervals);
            }
          else
            g_free (track);
          g_array_append_val (intervals, interval);
          g_hash_table_add (slices, place_key (e));
        }
      else if (ph[0] == 'i' && g_str_equal (name, "[memory]"))
        seen.memory_instants++;
    }
  for (guint i = 0; i < gpu_correlations->len; i++)
    if (g_hash_table_contains (launchers, &g_array_index (gpu_correlations, gint64, i)))
      seen.launches++;

  /* flows sit on a slice of their own pid/tid at the same ts */
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *ph = json_object_get_string_member (e, "ph");
      g_autofree char *place = NULL;
      char *id;

      if (ph[0] != 's' && ph[0] != 'f')
        continue;
      place = place_key (e);
      g_assert_true (g_hash_table_contains (slices, place));
      id = g_strdup_printf ("%s/%" G_GINT64_FORMAT, json_object_get_string_member (e, "cat"),
                            json_object_get_int_member (e, "id"));
      if (ph[0] == 'f')
        g_assert_cmpstr (json_object_get_string_member (e, "bp"), ==, "e");
      g_assert_false (g_hash_table_contains (ph[0] == 's' ? flow_starts : flow_ends, id));
      g_hash_table_add (ph[0] == 's' ? flow_starts : flow_ends, id);
    }
  g_hash_table_iter_init (&iter, flow_ends);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      if (g_hash_table_contains (flow_starts, key))
        seen.flow_pairs++;
      else
        {
          g_assert_true (g_str_has_prefix (key, "ac2g/"));
          dangling++;
        }
    }
  g_assert_cmpuint (g_hash_table_size (flow_starts), ==, seen.flow_pairs);

  g_hash_table_iter_init (&iter, tracks);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    assert_nested (value);

  g_assert_cmpuint (seen.events, ==, counts->events);
  for (guint c = 0; c < G_N_ELEMENTS (seen.phases); c++)
    g_assert_cmpuint (seen.phases[c], ==, counts->phases[c]);
  for (guint c = 0; c < CHRONO_EXAMPLE_N_CATS; c++)
    g_assert_cmpuint (seen.spans[c], ==, counts->spans[c]);
  g_assert_cmpuint (seen.zero_duration_spans, ==, counts->zero_duration_spans);
  g_assert_cmpuint (seen.zero_duration_spans, >, 0);
  g_assert_cmpuint (seen.steps, ==, counts->steps);
  g_assert_cmpuint (seen.collectives, ==, counts->collectives);
  g_assert_cmpuint (collective_parts, ==, 4 * counts->collectives);
  g_assert_cmpuint (seen.memory_instants, ==, counts->memory_instants);
  g_assert_cmpuint (seen.flow_pairs, ==, counts->flow_pairs);
  g_assert_cmpuint (dangling, ==, counts->dangling_flow_ends);
  g_assert_cmpuint (dangling, >, 0);
  g_assert_cmpuint (seen.launches, ==, counts->launches);
}

static void
test_json (void)
{
  const Example *ex = get_plain ();
  g_autoptr(GBytes) bytes = read_file (ex->path);

  g_assert_cmpuint (ex->counts.file_bytes, ==, g_bytes_get_size (bytes));
  g_assert_cmpuint (ex->counts.uncompressed_bytes, >=, ex->options.target_bytes);
  g_assert_cmpuint (ex->counts.collectives, >, 0);
  g_assert_cmpuint (ex->counts.spans[CHRONO_EXAMPLE_CAT_PYTHON_FUNCTION], >, 0);
  g_assert_cmpuint (ex->counts.spans[CHRONO_EXAMPLE_CAT_GPU_MEMCPY], >, 0);
  g_assert_cmpuint (ex->counts.spans[CHRONO_EXAMPLE_CAT_GPU_MEMSET], >, 0);
  check_against_json (bytes, &ex->options, &ex->counts);
}

static void
test_gzip (void)
{
  const Example *ex = get_gzip ();
  g_autoptr(GBytes) compressed = read_file (ex->path);
  g_autoptr(GBytes) bytes = gunzip (compressed);

  g_assert_cmpuint (ex->counts.file_bytes, ==, g_bytes_get_size (compressed));
  g_assert_cmpuint (ex->counts.file_bytes, <, ex->counts.uncompressed_bytes / 4);
  g_assert_cmpuint (ex->counts.steps, ==, 3);
  check_against_json (bytes, &ex->options, &ex->counts);
}

static void
test_deterministic (void)
{
  const Example *ex = get_plain ();
  g_autofree char *again = g_build_filename (tmp_dir, "again.json", NULL);
  g_autofree char *other = g_build_filename (tmp_dir, "other.json", NULL);
  ChronoExampleOptions options = ex->options;
  ChronoExampleCounts counts;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) first = read_file (ex->path);
  g_autoptr(GBytes) second = NULL;
  g_autoptr(GBytes) third = NULL;

  g_assert_true (chrono_example_trace_write (again, &options, &counts, &error));
  g_assert_no_error (error);
  second = read_file (again);
  g_assert_true (g_bytes_equal (first, second));
  g_assert_cmpmem (&counts, sizeof counts, &ex->counts, sizeof ex->counts);

  options.seed++;
  g_assert_true (chrono_example_trace_write (other, &options, NULL, &error));
  g_assert_no_error (error);
  third = read_file (other);
  g_assert_false (g_bytes_equal (first, third));

  g_unlink (again);
  g_unlink (other);
}

static void
test_invalid_options (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "invalid.json", NULL);
  ChronoExampleOptions options;
  g_autoptr(GError) error = NULL;

  chrono_example_options_init (&options);
  options.rank = options.world_size;
  g_assert_false (chrono_example_trace_write (path, &options, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  chrono_example_options_init (&options);
  options.n_streams = 0;
  g_assert_false (chrono_example_trace_write (path, &options, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  chrono_example_options_init (&options);
  options.n_steps = 1;
  g_assert_false (chrono_example_trace_write ("/nonexistent-dir/example.json", &options, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

/* The importer must read back exactly what was written. */
static void
check_import (const Example *ex)
{
  const ChronoExampleCounts *c = &ex->counts;
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = chrono_trace_load_file (ex->path, NULL, NULL, NULL, &error);
  const ChronoLoadStats *stats;
  guint64 kinds_total = 0;
  guint64 device_spans = 0;
  GHashTableIter iter;
  gpointer key, value;

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  stats = chrono_trace_get_stats (trace);

  g_assert_cmpuint (stats->events, ==, c->events);
  g_hash_table_iter_init (&iter, stats->phases);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *ph = key;

      g_assert_cmpuint (strlen (ph), ==, 1);
      g_assert_cmpuint (GPOINTER_TO_SIZE (value), ==, c->phases[(guchar) ph[0]]);
    }
  for (guint ph = 0; ph < G_N_ELEMENTS (c->phases); ph++)
    if (c->phases[ph] > 0)
      g_assert_true (g_hash_table_contains (stats->phases, (char[]) { (char) ph, '\0' }));

  g_assert_cmpuint (stats->spans, ==, c->phases['X']);
  g_assert_cmpuint (stats->instants, ==, c->phases['i']);
  g_assert_cmpuint (stats->flows, ==, c->flow_pairs);
  g_assert_cmpuint (stats->launch_links, ==, c->launches);
  g_assert_false (stats->truncated);
  /* One warning only, the quirk of real Kineto files it copies: a flow
   * end on each runtime call that launches nothing, with no start. */
  g_assert_cmpuint (stats->dropped, ==, 0);
  g_assert_cmpuint (stats->warnings->len, ==, 1);
  {
    g_autofree char *quirk = g_strdup_printf ("%" G_GUINT64_FORMAT " flow ends have no start, so no arrow "
                                              "(Kineto writes such an end on every runtime call",
                                              c->dangling_flow_ends);

    g_assert_true (g_str_has_prefix (g_ptr_array_index (stats->warnings, 0), quirk));
  }

  for (guint k = 0; k < CHRONO_N_KINDS; k++)
    kinds_total += stats->kinds[k];
  g_assert_cmpuint (kinds_total, ==, stats->spans);
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_STEP], ==, c->steps);
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_PYTHON], ==, c->spans[CHRONO_EXAMPLE_CAT_PYTHON_FUNCTION]);
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_RUNTIME], ==, c->spans[CHRONO_EXAMPLE_CAT_CUDA_RUNTIME]);
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_MEMCPY], ==, c->spans[CHRONO_EXAMPLE_CAT_GPU_MEMCPY]);
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_MEMSET], ==, c->spans[CHRONO_EXAMPLE_CAT_GPU_MEMSET]);
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_TRACE], ==, c->spans[CHRONO_EXAMPLE_CAT_TRACE]);
  /* each all-reduce is four collective spans (see ChronoExampleCounts) */
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_COLLECTIVE], ==, 4 * c->collectives);
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_HOST_OP], ==, c->spans[CHRONO_EXAMPLE_CAT_CPU_OP] - c->collectives);
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_ANNOTATION], ==,
                    c->spans[CHRONO_EXAMPLE_CAT_USER_ANNOTATION] - c->steps - c->collectives);
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_KERNEL], ==, c->spans[CHRONO_EXAMPLE_CAT_KERNEL] - c->collectives);
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_GPU_ANNOTATION], ==,
                    c->spans[CHRONO_EXAMPLE_CAT_GPU_USER_ANNOTATION] - c->collectives);

  /* GPU work lands on the rank's device, and only there */
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);
      const ChronoProcess *process = chrono_trace_get_process (trace, track->process);

      if (!process->is_device)
        continue;
      g_assert_cmpint (process->device_index, ==, ex->options.rank % 8);
      g_assert_cmpint (track->type, ==, CHRONO_TRACK_STREAM);
      device_spans += track->n_spans;
    }
  g_assert_cmpuint (device_spans, ==,
                    c->spans[CHRONO_EXAMPLE_CAT_KERNEL] + c->spans[CHRONO_EXAMPLE_CAT_GPU_MEMCPY] +
                    c->spans[CHRONO_EXAMPLE_CAT_GPU_MEMSET] + c->spans[CHRONO_EXAMPLE_CAT_GPU_USER_ANNOTATION]);

  g_assert_cmpint (chrono_trace_get_base_time_ns (trace), ==, c->base_time_ns);
  g_assert_cmpint (chrono_trace_get_rank (trace), ==, ex->options.rank);
  g_assert_cmpint (chrono_trace_get_world_size (trace), ==, ex->options.world_size);
}

static void
test_import (void)
{
  check_import (get_plain ());
}

static void
test_import_gzip (void)
{
  check_import (get_gzip ());
}

static void
remove_example (Example *ex)
{
  if (ex->path != NULL)
    g_unlink (ex->path);
  g_clear_pointer (&ex->path, g_free);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  tmp_dir = g_dir_make_tmp ("chrono-example-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/example/json", test_json);
  g_test_add_func ("/example/gzip", test_gzip);
  g_test_add_func ("/example/deterministic", test_deterministic);
  g_test_add_func ("/example/invalid-options", test_invalid_options);
  g_test_add_func ("/example/import", test_import);
  g_test_add_func ("/example/import-gzip", test_import_gzip);
  ret = g_test_run ();

  remove_example (&plain_example);
  remove_example (&gzip_example);
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
