/* test-neuron-parquet.c: Neuron Explorer's Parquet tables, each profile
 * checked against its JSON twin; the Parquet reader on damaged files
 *
 * The Parquet is written by an independent writer (parquet-wasm, through
 * node): without it the tests that need it are skipped, saying what is
 * missing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "chrono-loader.h"
#include "chrono-neuron-facts.h"
#include "chrono-parquet-reader.h"
#include "chrono-trace-private.h"
#include "chrono-trace-set.h"
#include "neuron-gen.h"
#include "test-utils.h"

typedef struct {
  const char *codec;
  guint       pages;
  gboolean    dictionary;
  guint       row_group;
  guint       file_rows;
} Variant;

/* Every codec with both page versions, dictionary and plain columns,
 * several row groups, one with each table split over several files. */
static const Variant variants[] = {
  { "none", 1, TRUE, 64, 0 },
  { "snappy", 1, FALSE, 64, 0 },
  { "gzip", 1, FALSE, 50, 0 },
  { "zstd", 1, TRUE, 100, 0 },
  { "none", 2, FALSE, 64, 0 },
  { "snappy", 2, TRUE, 77, 0 },
  { "gzip", 2, TRUE, 64, 0 },
  { "zstd", 2, FALSE, 64, 150 },
};

typedef struct {
  char            *dir;
  char            *json;
  char            *folder;
  NeuronGenOptions options;
  NeuronGenCounts  counts;
} Fixture;

static gboolean
writer_or_skip (void)
{
  g_autofree char *why = NULL;

  if (neuron_gen_parquet_available (&why))
    return TRUE;
  g_test_skip (why);
  return FALSE;
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("chrono-parquet-XXXXXX", &error);
  g_assert_no_error (error);
  f->json = g_build_filename (f->dir, "device_profile_model_1.json", NULL);
  /* Any name: the folder is known by its tables. */
  f->folder = g_build_filename (f->dir, "some profile@latest", NULL);
  neuron_gen_options_init (&f->options);
  f->options.n_blocks = 91;
  f->options.nc_idx = 3;
  f->options.seed = 11;
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->json);
  g_free (f->folder);
}

static void
write_twins (Fixture                       *f,
             const NeuronGenParquetOptions *o,
             NeuronGenParquetCounts        *pc)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (neuron_gen_write_device (f->json, &f->options, &f->counts, &error));
  g_assert_no_error (error);
  neuron_gen_write_parquet (f->json, f->folder, o, pc, &error);
  g_assert_no_error (error);
}

static ChronoTrace *
load_folder (const char *folder)
{
  const char *paths[] = { folder, NULL };
  g_autoptr(GError) error = NULL;
  ChronoTrace *trace = chrono_trace_load_set (paths, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

static gboolean
has_warning (ChronoTrace *trace,
             const char  *a,
             const char  *b)
{
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);

  for (guint i = 0; i < stats->warnings->len; i++)
    {
      const char *w = g_ptr_array_index (stats->warnings, i);
      if (strstr (w, a) && (b == NULL || strstr (w, b)))
        return TRUE;
    }
  return FALSE;
}

typedef struct {
  guint64 deps, sems;
} Edges;

static Edges
count_edges (ChronoTrace *trace)
{
  Edges e = { 0, 0 };

  for (guint i = 0; i < chrono_trace_get_n_flows (trace); i++)
    {
      const ChronoFlow *flow = chrono_trace_get_flow (trace, i);

      e.deps += flow->type == CHRONO_FLOW_DEPENDENCY;
      e.sems += flow->type == CHRONO_FLOW_SEMAPHORE;
    }
  return e;
}

/* The rows of a trace by name: spans or samples of each, with the range
 * of its times. */
static GHashTable *
rows_of (ChronoTrace *trace)
{
  GHashTable *rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);
      g_autofree char *key = g_strdup_printf ("%s", chrono_trace_get_string (trace, track->name));
      gint64 first = G_MAXINT64, last = G_MININT64;

      for (guint32 i = 0; i < track->n_spans; i++)
        {
          first = MIN (first, track->start[i]);
          last = MAX (last, chrono_track_get_end (track, i));
        }
      g_hash_table_insert (rows, g_steal_pointer (&key),
                           g_strdup_printf ("%u spans %u samples %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT,
                                            track->n_spans, track->n_samples,
                                            track->n_spans ? first : 0, track->n_spans ? last : 0));
    }
  return rows;
}

/* Both have the same rows, engines, edges and time range. */
static void
assert_twins (ChronoTrace *pq,
              ChronoTrace *js)
{
  g_autoptr(GHashTable) a = rows_of (pq);
  g_autoptr(GHashTable) b = rows_of (js);
  const ChronoLoadStats *sa = chrono_trace_get_stats (pq), *sb = chrono_trace_get_stats (js);
  GHashTableIter iter;
  gpointer key, value;
  Edges ea = count_edges (pq), eb = count_edges (js);

  g_assert_cmpuint (g_hash_table_size (a), ==, g_hash_table_size (b));
  g_hash_table_iter_init (&iter, b);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert_cmpstr (g_hash_table_lookup (a, key), ==, value);
  g_assert_cmpuint (g_hash_table_size (sa->engines), ==, g_hash_table_size (sb->engines));
  g_hash_table_iter_init (&iter, sb->engines);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (sa->engines, key)), ==, GPOINTER_TO_SIZE (value));
  g_assert_cmpuint (ea.deps, ==, eb.deps);
  g_assert_cmpuint (ea.sems, ==, eb.sems);
  g_assert_cmpuint (sa->dependencies, ==, sb->dependencies);
  g_assert_cmpuint (sa->events, ==, sb->events);
  g_assert_cmpint (chrono_trace_get_start_ns (pq), ==, chrono_trace_get_start_ns (js));
  g_assert_cmpint (chrono_trace_get_end_ns (pq), ==, chrono_trace_get_end_ns (js));
  g_assert_cmpuint (chrono_trace_get_n_processes (pq), ==, 1);
  g_assert_cmpstr (chrono_trace_get_string (pq, chrono_trace_get_process (pq, 0)->name), ==,
                   chrono_trace_get_string (js, chrono_trace_get_process (js, 0)->name));
}

static char *
arg_of (GPtrArray  *args,
        const char *key)
{
  for (guint i = 0; i < args->len; i++)
    {
      const ChronoArg *arg = g_ptr_array_index (args, i);
      if (g_str_equal (arg->key, key))
        return g_strdup (arg->text);
    }
  return NULL;
}

/* After the shift onto the host clock, a span's start_ts is still the
 * device time of its row. */
static void
check_details_shifted (ChronoTrace       *trace,
                       const ChronoTrack *track,
                       gint64             shift)
{
  ChronoArgsText view;

  /* Args that are rows have no text: a view asks the trace, which has none. */
  chrono_args_text_init (&view, trace);
  g_assert_null (view.text);
  for (guint32 i = 0; i < track->n_spans; i++)
    {
      g_autoptr(GPtrArray) args = chrono_trace_dup_args (trace, chrono_track_get_args (track, i));
      g_autofree char *start = arg_of (args, "start_ts");
      gsize available;

      g_assert_null (chrono_args_text_get (&view, chrono_track_get_args (track, i), &available));
      g_autofree char *expected = g_strdup_printf ("%" G_GINT64_FORMAT, track->start[i] - shift);

      g_assert_cmpstr (start, ==, expected);
    }
}

/* The details of a span are the fields of its table row: every span of
 * the engine, DMA and collective rows has its own. */
static void
check_details (ChronoTrace *trace)
{
  guint checked = 0;

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      for (guint32 i = 0; i < track->n_spans; i++)
        {
          g_autoptr(GPtrArray) args = chrono_trace_dup_args (trace, chrono_track_get_args (track, i));
          g_autofree char *start = arg_of (args, "start_ts");
          g_autofree char *dur = arg_of (args, "duration_ns");
          g_autofree char *start_ns = g_strdup_printf ("%" G_GINT64_FORMAT, track->start[i]);
          g_autofree char *dur_ns = g_strdup_printf ("%" G_GINT64_FORMAT, chrono_track_get_end (track, i) - track->start[i]);
          const char *name = chrono_trace_get_string (trace, chrono_track_get_name (track, i));
          g_autofree char *opcode = arg_of (args, "opcode");
          g_autofree char *operation = arg_of (args, "operation");
          g_autofree char *description = arg_of (args, "description");
          g_autofree char *queue = arg_of (args, "queue_name");

          g_assert_cmpstr (start, ==, start_ns);
          g_assert_cmpstr (dur, ==, dur_ns);
          /* A field read alone, without the row's text, reads the same. */
          for (guint a = 0; a < args->len; a++)
            {
              const ChronoArg *arg = g_ptr_array_index (args, a);
              g_autofree char *first = arg_of (args, arg->key);
              g_autofree char *alone = chrono_trace_dup_arg (trace, chrono_track_get_args (track, i), arg->key);

              g_assert_cmpstr (alone, ==, first);
            }
          /* Of several keys, the first the row has; the same row read
           * again for other keys. */
          if (args->len >= 2)
            {
              const ChronoArg *a0 = g_ptr_array_index (args, 0), *a1 = g_ptr_array_index (args, 1);
              const char *keys[] = { "no such column", a1->key, a0->key, NULL };
              g_autofree char *got = chrono_trace_dup_first_arg (trace, chrono_track_get_args (track, i), keys);
              g_autofree char *first = arg_of (args, a1->key);

              g_assert_cmpstr (got, ==, first);
            }
          if (opcode || operation || description)
            g_assert_cmpstr (opcode ? opcode : operation ? operation : description, ==, name);
          else
            g_assert_nonnull (queue);
          checked++;
        }
    }
  g_assert_cmpuint (checked, >, 0);
}

/* What the folder's tables weigh on disk: the size a summary shows. */
static guint64
parquet_bytes (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;
  guint64 total = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".parquet"))
      {
        g_autofree char *path = g_build_filename (folder, name, NULL);
        GStatBuf buf;

        g_assert_cmpint (g_stat (path, &buf), ==, 0);
        total += buf.st_size;
      }
  return total;
}

/* What the import kept of every instruction and DMA transfer is what
 * reading its table row again after the import gives, member for member,
 * bit for bit. */
static void
assert_facts_as_gathered (ChronoTrace        *trace,
                          const char * const *paths)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) again = chrono_trace_load_set (paths, NULL, NULL, NULL, &error);
  const ChronoNeuronFacts *kept = chrono_trace_get_neuron_facts (trace);
  const ChronoNeuronFacts *gathered;
  guint near_kept = 0, near_gathered = 0, n_records = 0, n_texts = 0;

  g_assert_no_error (error);
  g_assert_nonnull (kept);
  chrono_trace_set_neuron_facts (again, NULL);
  gathered = chrono_neuron_facts_of_trace (again);
  g_assert_true (gathered != kept);
  g_assert_cmpuint (chrono_trace_get_n_tracks (again), ==, chrono_trace_get_n_tracks (trace));
  for (guint k = 0; k < chrono_trace_get_n_tracks (trace); k++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, k);

      for (guint32 i = 0; i < t->n_spans; i++)
        {
          ChronoNeuronFactRow a, b;
          gboolean found;

          if (t->kind[i] != CHRONO_KIND_INSTRUCTION && t->kind[i] != CHRONO_KIND_DMA)
            continue;
          found = chrono_neuron_facts_find (kept, chrono_track_get_args (t, i), &near_kept, &a);
          g_assert_true (found == chrono_neuron_facts_find (gathered, chrono_track_get_args (t, i),
                                                            &near_gathered, &b));
          g_assert_cmphex (a.present, ==, b.present);
          for (guint m = 0; m < CHRONO_NEURON_N_FIELDS; m++)
            if (!(a.present & (1u << m)))
              continue;
            else if (m < CHRONO_NEURON_N_NUMBERS)
              g_assert_cmpmem (&a.number[m], sizeof (gdouble), &b.number[m], sizeof (gdouble));
            else
              {
                g_assert_cmpstr (chrono_neuron_facts_text (kept, a.text[m - CHRONO_NEURON_N_NUMBERS]), ==,
                                 chrono_neuron_facts_text (gathered, b.text[m - CHRONO_NEURON_N_NUMBERS]));
                n_texts++;
              }
          n_records += found;
        }
    }
  g_assert_cmpuint (n_records, >, 0);
  g_assert_cmpuint (n_texts, >, 0);
}

static void
test_twin (Fixture       *f,
           gconstpointer  data)
{
  const Variant *v = data;
  NeuronGenParquetOptions o;
  g_autoptr(ChronoTrace) pq = NULL;
  g_autoptr(ChronoTrace) js = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) summary = NULL;

  if (!writer_or_skip ())
    return;
  neuron_gen_parquet_options_init (&o);
  o.codec = v->codec;
  o.pages = v->pages;
  o.dictionary = v->dictionary;
  o.row_group = v->row_group;
  o.file_rows = v->file_rows;
  write_twins (f, &o, NULL);
  pq = load_folder (f->folder);
  js = chrono_trace_load_file (f->json, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_twins (pq, js);
  /* And what the generator wrote. */
  g_assert_cmpuint (count_edges (pq).deps, ==, f->counts.dep_edges);
  g_assert_cmpuint (count_edges (pq).sems, ==, f->counts.semaphore_edges);
  g_assert_true (has_warning (pq, "Flow rows name no row of the profile", NULL));
  g_assert_false (chrono_trace_get_stats (pq)->truncated);
  g_assert_cmpuint (chrono_trace_get_source_size (pq), ==, parquet_bytes (f->folder));
  check_details (pq);
  assert_facts_as_gathered (pq, (const char *[]) { f->folder, NULL });
  summary = chrono_trace_get_metadata (pq, "neuron_summary");
  g_assert_nonnull (summary);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (summary), "nc_idx"), ==, f->options.nc_idx);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_node_get_object (summary), "total_time"),
                                  f->counts.end_ts / 1e9, 1e-9);
}

/* The damaged variants: what is left loads, and a warning says what was
 * lost and why, naming the file, the column and the place. */
static void
test_damaged (Fixture       *f,
              gconstpointer  data)
{
  NeuronGenParquetDamage damage = GPOINTER_TO_INT (data);
  NeuronGenParquetOptions o;
  NeuronGenParquetCounts pc = { 0 };
  g_autoptr(ChronoTrace) pq = NULL;
  const ChronoLoadStats *stats;
  guint64 instructions;

  if (!writer_or_skip ())
    return;
  neuron_gen_parquet_options_init (&o);
  o.damage = damage;
  o.row_group = 100;
  write_twins (f, &o, &pc);
  pq = load_folder (f->folder);
  stats = chrono_trace_get_stats (pq);
  instructions = stats->kinds[CHRONO_KIND_INSTRUCTION];
  g_assert_true (stats->truncated);
  /* The other tables are all there. */
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_DMA], ==, f->counts.dma);
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_COLLECTIVE], ==, f->counts.cc_ops + f->counts.cc_instructions);
  switch (damage)
    {
    case NEURON_GEN_PQ_TRUNCATED_FOOTER:
      g_assert_cmpuint (instructions, ==, 0);
      g_assert_true (has_warning (pq, "Instruction.parquet", "cut short"));
      g_assert_true (has_warning (pq, "Instruction.parquet", "left out of the profile"));
      break;
    case NEURON_GEN_PQ_BAD_PAGE_HEADER:
      g_assert_cmpuint (pc.damaged_rows, ==, 100);
      g_assert_cmpuint (instructions, ==, f->counts.instructions - pc.damaged_rows);
      g_assert_true (has_warning (pq, "Instruction.parquet: row group 2 of", "100 rows of Instruction) left out"));
      g_assert_true (has_warning (pq, "column opcode", "page header is damaged"));
      break;
    case NEURON_GEN_PQ_WRONG_TYPE:
      g_assert_cmpuint (instructions, ==, 0);
      g_assert_true (has_warning (pq, "column start_ts of the Instruction table is DOUBLE, expected INT64", NULL));
      break;
    case NEURON_GEN_PQ_VALID:
    default:
      g_assert_not_reached ();
    }
}

/* Explorer's tables beside a system profile: the device's time 0 is put
 * at its core's nc_exec_running, as the JSON device profile's is, and
 * each span's details still come from its row. */
static void
test_with_system (Fixture       *f,
                  gconstpointer  data)
{
  NeuronGenParquetOptions o;
  g_autofree char *system = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const ChronoTrack *tensor = NULL;

  if (!writer_or_skip ())
    return;
  neuron_gen_parquet_options_init (&o);
  write_twins (f, &o, NULL);
  system = g_build_filename (f->folder, "system_profile.json", NULL);
  g_assert_true (neuron_gen_write_system (system, &f->options, &f->counts, &error));
  g_assert_no_error (error);
  trace = load_folder (f->folder);
  g_assert_nonnull (strstr (chrono_trace_get_format (trace), "neuron-device"));
  g_assert_nonnull (strstr (chrono_trace_get_format (trace), "neuron-system"));
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    if (g_str_equal (chrono_trace_get_string (trace, chrono_trace_get_track (trace, t)->name), "Tensor (PE)"))
      tensor = chrono_trace_get_track (trace, t);
  g_assert_nonnull (tensor);
  g_assert_cmpint (tensor->start[0], ==, f->counts.exec_start_ns + f->counts.first_ts);
  g_assert_false (has_warning (trace, "no nc_exec_running", NULL));
  check_details_shifted (trace, tensor, f->counts.exec_start_ns);
  /* The device profile's facts moved into the merged trace... */
  assert_facts_as_gathered (trace, (const char *[]) { f->folder, NULL });
  /* ...also as its second part, and the JSON profile's. */
  {
    const char *paths[] = { system, f->json, NULL };
    g_autoptr(ChronoTrace) second = chrono_trace_load_set (paths, NULL, NULL, NULL, &error);

    g_assert_no_error (error);
    assert_facts_as_gathered (second, paths);
  }
  /* A part with records and no facts leaves the merged trace none, so
   * that the analysis gathers them all; a part without records does not. */
  {
    g_autoptr(ChronoTrace) tables = load_folder (f->folder);
    g_autoptr(ChronoTrace) bare = chrono_trace_load_file (f->json, NULL, NULL, NULL, &error);
    g_autoptr(ChronoTrace) sys = chrono_trace_load_file (system, NULL, NULL, NULL, &error);
    g_autoptr(ChronoTrace) kept = NULL;
    g_autoptr(ChronoTrace) dropped = NULL;

    g_assert_no_error (error);
    chrono_trace_set_neuron_facts (bare, NULL);
    kept = chrono_trace_merge ((ChronoTrace *[]) { tables, sys }, NULL, 2, "kept");
    g_assert_nonnull (chrono_trace_get_neuron_facts (kept));
    g_object_unref (tables);
    tables = load_folder (f->folder);
    dropped = chrono_trace_merge ((ChronoTrace *[]) { tables, bare }, NULL, 2, "dropped");
    g_assert_null (chrono_trace_get_neuron_facts (dropped));
  }
}

static guint
count_tracks (ChronoTrace *trace,
              const char  *name)
{
  guint n = 0;

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    n += g_str_equal (chrono_trace_get_string (trace, chrono_trace_get_track (trace, t)->name), name);
  return n;
}

/* A folder holding a profile both as JSON and as tables reads it once,
 * and says so; another core's profile beside them is no twin. */
static void
test_twins_read_once (Fixture       *f,
                      gconstpointer  data)
{
  NeuronGenParquetOptions o;
  NeuronGenCounts counts;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoTrace) cores = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *other = g_build_filename (f->dir, "device_profile_model_2.json", NULL);

  if (!writer_or_skip ())
    return;
  neuron_gen_parquet_options_init (&o);
  write_twins (f, &o, NULL);
  trace = load_folder (f->dir);
  g_assert_cmpuint (chrono_trace_get_n_parts (trace), ==, 1);
  g_assert_cmpuint (count_tracks (trace, "Tensor (PE)"), ==, 1);
  g_assert_true (has_warning (trace, "hold the same device profile", "it is read once, from"));
  g_assert_cmpstr (chrono_trace_get_part (trace, 0)->path, ==, f->json);

  f->options.seed = 12;
  f->options.nc_idx = 4;
  g_assert_true (neuron_gen_write_device (other, &f->options, &counts, &error));
  g_assert_no_error (error);
  cores = load_folder (f->dir);
  g_assert_cmpuint (chrono_trace_get_n_parts (cores), ==, 2);
  g_assert_cmpuint (count_tracks (cores, "Tensor (PE)"), ==, 2);
}

static void
copy_file (const char *from,
           const char *to)
{
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (from, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (to, contents, len, NULL));
}

/* The memory the system profile sampled, planted by the generator:
 * host memory's peak and device 0's HBM 0 peak, with its categories
 * then, at the nanosecond they were written (epoch times above 2^53). */
static void
check_system_memory (ChronoTrace           *trace,
                     const NeuronGenCounts *c)
{
  g_autoptr(ChronoMemory) memory = chrono_memory_new (trace, 0, 0, NULL, NULL);
  const ChronoMemoryDevice *host = test_memory_device_named (memory, "host");
  const ChronoMemoryDevice *hbm = test_memory_device_named (memory, "Device 0 HBM 0");
  guint n_parts = 0;

  g_assert_cmpstr (chrono_trace_get_format (trace), ==, "neuron-system");
  /* Host, HBM 0 and HBM 1: CPU use is no memory. */
  g_assert_cmpuint (chrono_memory_get_n_devices (memory), ==, 3);
  g_assert_nonnull (test_memory_device_named (memory, "Device 0 HBM 1"));
  g_assert_nonnull (host);
  g_assert_cmpuint (host->n_points, ==, c->mem_samples);
  g_assert_cmpint (host->peak_allocated_bytes, ==, c->host_peak_bytes);
  g_assert_cmpint (host->peak_ns, ==, c->host_peak_ns);
  g_assert_null (host->parts_at_peak);
  g_assert_nonnull (hbm);
  g_assert_cmpint (hbm->peak_allocated_bytes, ==, c->hbm_peak_bytes);
  g_assert_cmpint (hbm->peak_ns, ==, c->hbm_peak_ns);
  g_assert_cmpstr (chrono_trace_get_string (trace, chrono_trace_get_process (trace, hbm->host_process)->name), ==,
                   "i-0f207fb2a99bd2d08 · Neuron device 0");
  g_assert_nonnull (hbm->parts_at_peak);
  for (guint p = 0; p < NEURON_GEN_HBM_CATEGORIES; p++)
    {
      gboolean found = FALSE;

      for (guint k = 0; k < hbm->parts_at_peak->len; k++)
        {
          const ChronoMemoryGroup *g = &g_array_index (hbm->parts_at_peak, ChronoMemoryGroup, k);

          if (g_str_equal (chrono_memory_part_name (chrono_trace_get_string (trace, g->name)),
                           neuron_gen_hbm_categories[p]))
            {
              g_assert_cmpint (g->bytes, ==, c->hbm_peak_parts[p]);
              found = TRUE;
            }
        }
      /* Only the categories ever in use have a row. */
      g_assert_cmpint (found, ==, c->hbm_peak_parts[p] > 0);
      n_parts += found;
    }
  g_assert_cmpuint (n_parts, ==, hbm->parts_at_peak->len);
}

/* The system profile's JSON and its Parquet twin (HostMemUsage,
 * SystemProfileHbmUsage, CpuUsage) give the same memory; the twin's
 * tables among a device profile's are left out, with a warning, as
 * their clock is not the device's. */
static void
test_system_memory (Fixture       *f,
                    gconstpointer  data)
{
  NeuronGenParquetOptions o;
  g_autofree char *system = g_build_filename (f->dir, "system_profile.json", NULL);
  g_autofree char *folder = g_build_filename (f->dir, "system@latest", NULL);
  g_autoptr(ChronoTrace) json = NULL;
  g_autoptr(ChronoTrace) pq = NULL;
  g_autoptr(ChronoTrace) mixed = NULL;
  g_autoptr(ChronoMemory) mixed_memory = NULL;
  g_autoptr(GError) error = NULL;
  const char *tables[] = { "HostMemUsage", "SystemProfileHbmUsage", "CpuUsage" };

  if (!writer_or_skip ())
    return;
  neuron_gen_parquet_options_init (&o);
  write_twins (f, &o, NULL);
  g_assert_true (neuron_gen_write_system (system, &f->options, &f->counts, &error));
  g_assert_no_error (error);
  neuron_gen_write_parquet (system, folder, &o, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (f->counts.mem_samples, ==, NEURON_GEN_MEM_SAMPLES);

  json = chrono_trace_load_file (system, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  check_system_memory (json, &f->counts);
  pq = load_folder (folder);
  check_system_memory (pq, &f->counts);
  g_assert_cmpuint (chrono_trace_get_stats (pq)->counter_samples, ==, chrono_trace_get_stats (json)->counter_samples);

  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      g_autofree char *name = g_strdup_printf ("%s.parquet", tables[i]);
      g_autofree char *from = g_build_filename (folder, name, NULL);
      g_autofree char *to = g_build_filename (f->folder, name, NULL);

      copy_file (from, to);
    }
  mixed = load_folder (f->folder);
  g_assert_cmpstr (chrono_trace_get_format (mixed), ==, "neuron-device");
  g_assert_true (has_warning (mixed, "3 system profile tables", "left out"));
  mixed_memory = chrono_memory_new (mixed, 0, 0, NULL, NULL);
  g_assert_cmpuint (chrono_memory_get_n_devices (mixed_memory), ==, 0);
}

/* Explorer's tables that are not read are known by name, even where their
 * columns look like those of one that is (DmaPacket's like
 * DmaPacketAggregated's): the profile stays its JSON twin. */
static void
test_other_tables (Fixture       *f,
                   gconstpointer  data)
{
  NeuronGenParquetOptions o;
  g_autofree char *dma = NULL, *packets = NULL, *inst = NULL, *bir = NULL;
  g_autoptr(ChronoTrace) pq = NULL;
  g_autoptr(ChronoTrace) js = NULL;
  g_autoptr(GError) error = NULL;

  if (!writer_or_skip ())
    return;
  neuron_gen_parquet_options_init (&o);
  write_twins (f, &o, NULL);
  dma = g_build_filename (f->folder, "DmaPacketAggregated.parquet", NULL);
  packets = g_build_filename (f->folder, "DmaPacket.parquet", NULL);
  inst = g_build_filename (f->folder, "Instruction.parquet", NULL);
  bir = g_build_filename (f->folder, "BirInstruction_0.parquet", NULL);
  copy_file (dma, packets);
  copy_file (inst, bir);
  pq = load_folder (f->folder);
  js = chrono_trace_load_file (f->json, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_twins (pq, js);
}

/* A Parquet file opened by itself is one table; by bytes (no name), its
 * columns tell which. */
static void
test_single_table (Fixture       *f,
                   gconstpointer  data)
{
  NeuronGenParquetOptions o;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;

  if (!writer_or_skip ())
    return;
  neuron_gen_parquet_options_init (&o);
  write_twins (f, &o, NULL);
  path = g_build_filename (f->folder, "Instruction.parquet", NULL);
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  bytes = g_bytes_new_take (g_steal_pointer (&contents), len);
  trace = chrono_trace_load_bytes (bytes, "profile-table", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (chrono_trace_get_format (trace), ==, "neuron-device");
  g_assert_cmpuint (chrono_trace_get_stats (trace)->kinds[CHRONO_KIND_INSTRUCTION], ==, f->counts.instructions);
  /* Without the Flow and DMA tables: the semaphore edges between
   * instructions only. */
  g_assert_cmpuint (count_edges (trace).sems, ==, f->counts.semaphore_edges - f->counts.dma_waits);
  g_assert_cmpuint (count_edges (trace).deps, ==, 0);
}

/* Reader errors on hand-made damage, whatever the writer. */
static void
test_reader_errors (void)
{
  static const guint8 not_parquet[] = "PAR0 something";
  static const guint8 no_footer[] = "PAR1xxxxxxxxxxxxxxxxxxxx";
  /* A footer length past the start of the file. */
  static const guint8 long_footer[] = { 'P', 'A', 'R', '1', 0, 0, 0, 0, 0xff, 0, 0, 0, 'P', 'A', 'R', '1' };
  /* A footer of one field of an unknown type (0x0d). */
  static const guint8 bad_footer[] = { 'P', 'A', 'R', '1', 0x1d, 0x00, 2, 0, 0, 0, 'P', 'A', 'R', '1' };
  g_autoptr(GError) error = NULL;

  g_assert_null (chrono_parquet_file_open ("a.parquet", not_parquet, sizeof not_parquet - 1, &error));
  g_assert_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT);
  g_clear_error (&error);
  g_assert_null (chrono_parquet_file_open ("b.parquet", no_footer, sizeof no_footer - 1, &error));
  g_assert_nonnull (strstr (error->message, "b.parquet: the file ends without Parquet's closing PAR1"));
  g_clear_error (&error);
  g_assert_null (chrono_parquet_file_open ("c.parquet", long_footer, sizeof long_footer, &error));
  g_assert_nonnull (strstr (error->message, "c.parquet: the footer claims 255 bytes"));
  g_clear_error (&error);
  g_assert_null (chrono_parquet_file_open ("d.parquet", bad_footer, sizeof bad_footer, &error));
  g_assert_nonnull (strstr (error->message, "d.parquet: the footer is damaged near byte"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/neuron-parquet/reader-errors", test_reader_errors);
  for (guint i = 0; i < G_N_ELEMENTS (variants); i++)
    {
      const Variant *v = &variants[i];
      g_autofree char *name = g_strdup_printf ("/neuron-parquet/twin/%s/v%u/%s/%u-rows%s", v->codec, v->pages,
                                               v->dictionary ? "dictionary" : "plain", v->row_group,
                                               v->file_rows ? "/split" : "");

      g_test_add (name, Fixture, v, fixture_setup, test_twin, fixture_teardown);
    }
  g_test_add ("/neuron-parquet/damaged/truncated-footer", Fixture, GINT_TO_POINTER (NEURON_GEN_PQ_TRUNCATED_FOOTER),
              fixture_setup, test_damaged, fixture_teardown);
  g_test_add ("/neuron-parquet/damaged/bad-page-header", Fixture, GINT_TO_POINTER (NEURON_GEN_PQ_BAD_PAGE_HEADER),
              fixture_setup, test_damaged, fixture_teardown);
  g_test_add ("/neuron-parquet/damaged/wrong-type", Fixture, GINT_TO_POINTER (NEURON_GEN_PQ_WRONG_TYPE),
              fixture_setup, test_damaged, fixture_teardown);
  g_test_add ("/neuron-parquet/with-system-profile", Fixture, NULL, fixture_setup, test_with_system, fixture_teardown);
  g_test_add ("/neuron-parquet/twins-read-once", Fixture, NULL, fixture_setup, test_twins_read_once, fixture_teardown);
  g_test_add ("/neuron-parquet/system-memory", Fixture, NULL, fixture_setup, test_system_memory, fixture_teardown);
  g_test_add ("/neuron-parquet/other-tables", Fixture, NULL, fixture_setup, test_other_tables, fixture_teardown);
  g_test_add ("/neuron-parquet/single-table", Fixture, NULL, fixture_setup, test_single_table, fixture_teardown);
  return g_test_run ();
}
