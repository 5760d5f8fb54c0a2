/* test-neuron.c: the Neuron importers and the merging of several files,
 * checked against what the generator wrote
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "chrono-example-trace.h"
#include "chrono-loader.h"
#include "chrono-neuron.h"
#include "chrono-source.h"
#include "chrono-trace-set.h"
#include "neuron-gen.h"
#include "test-utils.h"

static const char * const engine_rows[NEURON_GEN_N_ENGINES] = {
  "Tensor (PE)", "TensorMatrix (PE)", "Vector (DVE)", "Scalar (ACT)", "GpSimd (POOL)", "Sync (SP)",
};

typedef struct {
  char            *dir;
  char            *device;
  char            *system;
  char            *torch;
  NeuronGenOptions options;
  NeuronGenCounts  counts;
} Fixture;

static void
fixture_write (Fixture *f)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (neuron_gen_write_device (f->device, &f->options, &f->counts, &error));
  g_assert_no_error (error);
  g_assert_true (neuron_gen_write_system (f->system, &f->options, &f->counts, &error));
  g_assert_true (neuron_gen_write_torch (f->torch, &f->options, &f->counts, &error));
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("chrono-neuron-XXXXXX", &error);
  g_assert_no_error (error);
  f->device = g_build_filename (f->dir, "device_profile_model_1.json", NULL);
  f->system = g_build_filename (f->dir, "system_profile.json", NULL);
  f->torch = g_build_filename (f->dir, "trace.json", NULL);
  neuron_gen_options_init (&f->options);
  f->options.n_blocks = 37;
  f->options.nc_idx = 2;
  f->options.seed = 7;
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_unlink (f->device);
  g_unlink (f->system);
  g_unlink (f->torch);
  g_rmdir (f->dir);
  g_free (f->device);
  g_free (f->system);
  g_free (f->torch);
  g_free (f->dir);
}

static ChronoTrace *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  ChronoTrace *trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

static guint64
engine_count (ChronoTrace *trace,
              const char  *engine)
{
  return GPOINTER_TO_SIZE (g_hash_table_lookup (chrono_trace_get_stats (trace)->engines, engine));
}

static gboolean
has_warning (ChronoTrace *trace,
             const char  *needle)
{
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);

  for (guint i = 0; i < stats->warnings->len; i++)
    if (strstr (g_ptr_array_index (stats->warnings, i), needle))
      return TRUE;
  return FALSE;
}

static char *
span_arg (ChronoTrace   *trace,
          ChronoSpanRef  ref,
          const char    *key)
{
  const ChronoTrack *t = chrono_trace_get_track (trace, ref.track);
  g_autoptr(GPtrArray) args = chrono_trace_dup_args (trace, chrono_track_get_args (t, ref.index));

  for (guint i = 0; i < args->len; i++)
    {
      const ChronoArg *arg = g_ptr_array_index (args, i);
      if (g_str_equal (arg->key, key))
        return g_strdup (arg->text);
    }
  return NULL;
}

/* An id as the profiler wrote it, signed or unsigned, as its 64 bits. */
static guint64
id_bits (const char *text)
{
  if (text[0] == '-')
    return (guint64) g_ascii_strtoll (text, NULL, 10);
  return g_ascii_strtoull (text, NULL, 10);
}

/* Everything the generator wrote is in the model, row by row. */
static void
check_device (ChronoTrace           *trace,
              const NeuronGenCounts *c,
              guint                  nc_idx)
{
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);
  g_autofree char *core = g_strdup_printf ("NeuronCore %u", nc_idx);
  const ChronoProcess *process;
  guint n_tracks;
  g_autofree guint *order = chrono_trace_dup_track_order (trace, &n_tracks);
  guint64 deps = 0, sems = 0, cc_cores = 0, semaphores = 0, samples = 0;

  g_assert_cmpstr (chrono_trace_get_format (trace), ==, "neuron-device");
  g_assert_cmpuint (chrono_trace_get_n_processes (trace), ==, 1);
  process = chrono_trace_get_process (trace, 0);
  g_assert_cmpstr (chrono_trace_get_string (trace, process->display_name), ==, core);
  g_assert_true (process->is_device);

  for (guint e = 0; e < NEURON_GEN_N_ENGINES; e++)
    {
      const ChronoTrack *t = test_track_named (trace, engine_rows[e]);

      g_assert_cmpuint (t->n_spans, ==, c->per_engine[e]);
      g_assert_cmpuint (engine_count (trace, neuron_gen_engine_labels[e]), ==, c->per_engine[e]);
      /* Engines come first, in the hardware's order. */
      g_assert_cmpstr (chrono_trace_get_string (trace, chrono_trace_get_track (trace, order[e])->display_name),
                       ==, engine_rows[e]);
    }
  g_assert_cmpuint (g_hash_table_size (stats->engines), ==, NEURON_GEN_N_ENGINES);
  /* Every third matmul overlaps the next: a second lane. */
  if (c->per_engine[NEURON_GEN_TENSOR_MATRIX] > 2)
    g_assert_cmpuint (test_track_named (trace, engine_rows[NEURON_GEN_TENSOR_MATRIX])->n_lanes, ==, 2);

  for (guint q = 0; q < NEURON_GEN_N_QUEUES; q++)
    {
      g_autofree char *row = g_strdup_printf ("DMA queue %s", neuron_gen_queue_names[q]);
      const ChronoTrack *t = test_track_named (trace, row);

      g_assert_cmpuint (t->n_spans, ==, c->per_queue[q]);
      g_assert_cmpuint (t->kind[0], ==, CHRONO_KIND_DMA);
    }
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_DMA], ==, c->dma);
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_INSTRUCTION], ==, c->instructions);
  g_assert_cmpuint (test_track_named (trace, "Collectives")->n_spans, ==, c->cc_ops);
  g_assert_cmpuint (stats->kinds[CHRONO_KIND_COLLECTIVE], ==, c->cc_ops + c->cc_instructions);

  for (guint i = 0; i < chrono_trace_get_n_tracks (trace); i++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, i);

      if (g_str_has_prefix (chrono_trace_get_string (trace, t->display_name), "CC-core "))
        cc_cores++;
      if (t->type == CHRONO_TRACK_COUNTER)
        {
          semaphores++;
          samples += t->n_samples;
        }
    }
  g_assert_cmpuint (cc_cores, ==, c->cc_cores);
  g_assert_cmpuint (semaphores, ==, c->semaphores);
  g_assert_cmpuint (samples, ==, c->semaphore_updates);

  /* Each edge runs forward in time, and a dependency edge joins exactly
   * the instruction whose id the successor lists. */
  for (guint i = 0; i < chrono_trace_get_n_flows (trace); i++)
    {
      const ChronoFlow *flow = chrono_trace_get_flow (trace, i);
      const ChronoTrack *from = chrono_trace_get_track (trace, flow->from.track);
      const ChronoTrack *to = chrono_trace_get_track (trace, flow->to.track);

      g_assert_cmpint (chrono_track_get_end (from, flow->from.index), <=,
                       to->start[flow->to.index]);
      if (flow->type == CHRONO_FLOW_DEPENDENCY)
        {
          g_autofree char *id = span_arg (trace, flow->from, "id");
          g_autofree char *list = span_arg (trace, flow->to, "inst_dep_ids");
          g_auto(GStrv) parts = NULL;
          gboolean listed = FALSE;

          g_assert_nonnull (id);
          g_assert_nonnull (list);
          /* Predecessor ids are written unsigned and must stay so. */
          g_assert_null (strchr (list, '-'));
          /* json-glib would lose the ids above 2^63: compare the text. */
          parts = g_strsplit_set (list, "[], \"", -1);
          for (guint p = 0; parts[p]; p++)
            if (*parts[p] && id_bits (parts[p]) == id_bits (id))
              listed = TRUE;
          g_assert_true (listed);
          deps++;
        }
      else if (flow->type == CHRONO_FLOW_SEMAPHORE)
        sems++;
    }
  g_assert_cmpuint (deps, ==, c->dep_edges);
  g_assert_cmpuint (stats->dependencies, ==, deps + sems);
}

static void
test_device (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(JsonNode) summary = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  guint n_tracks;

  f->options.string_numbers = GPOINTER_TO_INT (data);
  fixture_write (f);
  trace = load (f->device);
  check_device (trace, &f->counts, f->options.nc_idx);
  g_assert_cmpuint (chrono_trace_get_stats (trace)->dependencies, ==,
                    f->counts.dep_edges + f->counts.semaphore_edges);
  g_assert_cmpuint (f->counts.dangling_deps, >, 0);
  g_assert_true (has_warning (trace, "no instruction of the profile"));
  g_assert_cmpint (chrono_trace_get_start_ns (trace), ==, f->counts.first_ts - 350);
  g_assert_cmpuint (chrono_trace_get_n_tracks (trace), ==,
                    NEURON_GEN_N_ENGINES + NEURON_GEN_N_QUEUES + 1 + f->counts.cc_cores + f->counts.semaphores);
  g_free (chrono_trace_dup_track_order (trace, &n_tracks));
  summary = chrono_trace_get_metadata (trace, "neuron_summary");
  g_assert_nonnull (summary);
}

/* Ids above 2^53 (and above 2^63, printed signed) keep every bit. */
static void
test_big_ids (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(ChronoTrace) trace = NULL;
  const ChronoTrack *sync;
  g_autofree char *id = NULL;
  ChronoSpanRef last;

  fixture_write (f);
  g_assert_cmpuint (f->counts.big_ids, >, f->counts.instructions / 2);
  trace = load (f->device);
  /* The generator's last instruction is the last Sync one, or a GpSimd
   * trigger when the last block has one. */
  sync = test_track_named (trace, (f->options.n_blocks - 1) % 4 == 0 ? "GpSimd (POOL)" : "Sync (SP)");
  last.track = test_track_index (trace, sync);
  last.index = sync->n_spans - 1;
  id = span_arg (trace, last, "id");
  g_assert_cmpuint (id_bits (id), ==, f->counts.last_id);
  g_assert_cmpuint (f->counts.last_id, >=, G_GUINT64_CONSTANT (1) << 53);
}

/* The planted peaks of host memory and of device 0's HBM 0, exactly
 * where the system profile put them: its clock is the trace's. */
static void
check_memory_peaks (ChronoTrace           *trace,
                    const NeuronGenCounts *c)
{
  g_autoptr(ChronoMemory) memory = chrono_memory_new (trace, 0, 0, NULL, NULL);
  const ChronoMemoryDevice *host = test_memory_device_named (memory, "host");
  const ChronoMemoryDevice *hbm = test_memory_device_named (memory, "Device 0 HBM 0");

  g_assert_nonnull (host);
  g_assert_nonnull (hbm);
  g_assert_cmpint (host->peak_allocated_bytes, ==, c->host_peak_bytes);
  g_assert_cmpint (host->peak_ns, ==, c->host_peak_ns);
  g_assert_cmpint (hbm->peak_allocated_bytes, ==, c->hbm_peak_bytes);
  g_assert_cmpint (hbm->peak_ns, ==, c->hbm_peak_ns);
  g_assert_cmpuint (hbm->n_points, ==, c->mem_samples);
}

static void
test_system (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(ChronoTrace) trace = NULL;
  g_autofree char *row = NULL;
  const ChronoTrack *hw;

  f->options.singular_key = GPOINTER_TO_INT (data);
  f->options.string_numbers = GPOINTER_TO_INT (data);
  fixture_write (f);
  trace = load (f->system);
  g_assert_cmpstr (chrono_trace_get_format (trace), ==, "neuron-system");
  g_assert_cmpuint (chrono_trace_get_stats (trace)->spans + chrono_trace_get_stats (trace)->instants, ==,
                    f->counts.system_events);
  row = g_strdup_printf ("NeuronCore %u (hardware)", f->options.nc_idx);
  hw = test_track_named (trace, row);
  /* Epoch nanoseconds above 2^53, exact. */
  g_assert_cmpint (hw->start[0], ==, f->counts.exec_start_ns);
  g_assert_cmpuint (hw->n_instants, ==, 1);
  /* Each there, once. */
  test_track_named (trace, "thread 1627711");
  test_track_named (trace, "Host memory (bytes)");
  check_memory_peaks (trace, &f->counts);
}

/* The folder as one document: the device profile sits on the host clock
 * at its core's nc_exec_running. */
static void
test_folder (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const char *paths[] = { f->dir, NULL };
  const ChronoTrack *tensor;
  const ChronoProcess *p;
  guint n_tracks;
  g_autofree guint *order = NULL;
  g_autofree char *opcode = NULL;

  fixture_write (f);
  trace = chrono_trace_load_set (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  /* With the system profile's, for its instance and its Neuron device. */
  g_assert_cmpuint (chrono_trace_get_n_processes (trace), ==, 6);
  check_memory_peaks (trace, &f->counts);
  g_assert_true (strstr (chrono_trace_get_format (trace), "neuron-device") != NULL);
  g_assert_true (strstr (chrono_trace_get_format (trace), "kineto") != NULL);
  tensor = test_track_named (trace, "Tensor (PE)");
  g_assert_cmpint (tensor->start[0], ==, f->counts.exec_start_ns + f->counts.first_ts);
  g_assert_cmpuint (chrono_trace_get_stats (trace)->dependencies, ==,
                    f->counts.dep_edges + f->counts.semaphore_edges);
  g_assert_cmpuint (engine_count (trace, "Vector"), ==, f->counts.per_engine[NEURON_GEN_VECTOR]);

  /* Each file is a part; only the device profile was moved, to where its
   * core started. */
  g_assert_cmpuint (chrono_trace_get_n_parts (trace), ==, 3);
  for (guint i = 0; i < chrono_trace_get_n_parts (trace); i++)
    {
      const ChronoTracePart *part = chrono_trace_get_part (trace, i);
      gboolean device = g_str_equal (part->format, "neuron-device");

      g_assert_cmpint (part->shift_ns, ==, device ? f->counts.exec_start_ns : 0);
      g_assert_true (g_str_has_prefix (part->path, f->dir));
    }
  g_assert_cmpstr (chrono_trace_get_part (trace, chrono_trace_get_part_of_process (trace, tensor->process))->format, ==,
                   "neuron-device");

  /* Args of each file are read from that file. */
  order = chrono_trace_dup_track_order (trace, &n_tracks);
  for (guint i = 0; i < n_tracks; i++)
    if (chrono_trace_get_track (trace, order[i]) == tensor)
      {
        opcode = span_arg (trace, (ChronoSpanRef) { order[i], 0 }, "opcode");
        break;
      }
  g_assert_cmpstr (opcode, ==, "LDWEIGHTS");
  for (guint i = 0; i < chrono_trace_get_n_processes (trace); i++)
    {
      p = chrono_trace_get_process (trace, i);
      if (g_str_equal (chrono_trace_get_string (trace, p->display_name), "Process 4242"))
        break;
      p = NULL;
    }
  g_assert_nonnull (p);
}

/* Without a system profile the device is placed at the host trace's start. */
static void
test_merge_no_system (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const char *paths[] = { NULL, NULL, NULL };

  fixture_write (f);
  paths[0] = f->device;
  paths[1] = f->torch;
  trace = chrono_trace_load_set (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (has_warning (trace, "no nc_exec_running"));
  g_assert_cmpint (test_track_named (trace, "Tensor (PE)")->start[0], ==,
                   f->options.host_start_ns - 200000 + f->counts.first_ts);
}

/* Two ranks of the example Kineto trace: the merge knows no format. */
static void
test_merge_ranks (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("chrono-ranks-XXXXXX", &error);
  g_autofree char *a = g_build_filename (dir, "rank0.json", NULL);
  g_autofree char *b = g_build_filename (dir, "rank1.json", NULL);
  const char *paths[] = { a, b, NULL };
  ChronoExampleOptions o;
  g_autoptr(ChronoTrace) ta = NULL;
  g_autoptr(ChronoTrace) tb = NULL;
  g_autoptr(ChronoTrace) merged = NULL;
  const ChronoLoadStats *ma, *mb, *mm;
  guint first_b_track;

  chrono_example_options_init (&o);
  o.n_steps = 2;
  o.world_size = 2;
  o.rank = 0;
  g_assert_true (chrono_example_trace_write (a, &o, NULL, &error));
  o.rank = 1;
  o.seed = 99;
  g_assert_true (chrono_example_trace_write (b, &o, NULL, &error));
  ta = load (a);
  tb = load (b);
  merged = chrono_trace_load_set (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  ma = chrono_trace_get_stats (ta);
  mb = chrono_trace_get_stats (tb);
  mm = chrono_trace_get_stats (merged);
  g_assert_cmpuint (mm->spans, ==, ma->spans + mb->spans);
  g_assert_cmpuint (mm->flows + mm->launch_links, ==, ma->flows + ma->launch_links + mb->flows + mb->launch_links);
  g_assert_cmpuint (chrono_trace_get_n_flows (merged), ==, chrono_trace_get_n_flows (ta) + chrono_trace_get_n_flows (tb));
  g_assert_cmpuint (chrono_trace_get_n_processes (merged), ==,
                    chrono_trace_get_n_processes (ta) + chrono_trace_get_n_processes (tb));
  first_b_track = chrono_trace_get_n_tracks (ta);
  g_assert_cmpuint (chrono_trace_get_n_tracks (merged), ==, first_b_track + chrono_trace_get_n_tracks (tb));
  /* Rank 1's rows, names and args come through intact. */
  for (guint i = 0; i < chrono_trace_get_n_tracks (tb); i++)
    {
      const ChronoTrack *x = chrono_trace_get_track (tb, i);
      const ChronoTrack *y = chrono_trace_get_track (merged, first_b_track + i);

      g_assert_cmpuint (x->n_spans, ==, y->n_spans);
      g_assert_cmpstr (chrono_trace_get_string (tb, x->display_name), ==,
                       chrono_trace_get_string (merged, y->display_name));
      if (x->n_spans > 0)
        {
          gsize lx = 0, ly = 0;
          const char *rx = chrono_trace_get_raw_value (tb, chrono_track_get_args (x, 0), &lx);
          const char *ry = chrono_trace_get_raw_value (merged, chrono_track_get_args (y, 0), &ly);

          g_assert_cmpstr (chrono_trace_get_string (tb, chrono_track_get_name (x, 0)), ==,
                           chrono_trace_get_string (merged, chrono_track_get_name (y, 0)));
          g_assert_cmpint (x->start[0], ==, y->start[0]);
          g_assert_true ((rx == NULL) == (ry == NULL));
          if (rx)
            g_assert_cmpmem (rx, lx, ry, ly);
        }
    }
  g_unlink (a);
  g_unlink (b);
  g_rmdir (dir);
}

/* What the load says of a damaged record: the field, the record's byte
 * and the value's, what the value is and what was expected; whether the
 * record is skipped or the value left out. */
static char *
expected_warning (NeuronGenDamage        damage,
                  const NeuronGenCounts *c,
                  gboolean              *skipped)
{
  static const struct {
    NeuronGenDamage damage;
    const char     *field;
    const char     *found;
    const char     *expected;   /* NULL: the record is skipped */
  } faults[] = {
    { NEURON_GEN_WRONG_TYPE, "timestamp", "an object", NULL },
    { NEURON_GEN_DURATION_STRING, "duration", "a string", NULL },
    { NEURON_GEN_LABEL_NUMBER, "label", "a number", "a string" },
    { NEURON_GEN_DEPS_OBJECT, "inst_dep_ids", "an object", "an array of instruction ids" },
    { NEURON_GEN_ID_ARRAY, "id", "an array", "an integer" },
  };

  *skipped = TRUE;
  if (damage == NEURON_GEN_MISSING_KEY)
    return g_strdup_printf ("byte %" G_GUINT64_FORMAT ": a record of \"instruction\" has no \"timestamp\"; skipped",
                            c->damage_at);
  for (guint i = 0; i < G_N_ELEMENTS (faults); i++)
    if (faults[i].damage == damage)
      {
        *skipped = faults[i].expected == NULL;
        if (*skipped)
          return g_strdup_printf ("byte %" G_GUINT64_FORMAT ": a record of \"instruction\" has a \"%s\" (byte %"
                                  G_GUINT64_FORMAT ") that is %s, expected a number; skipped",
                                  c->damage_at, faults[i].field, c->damage_value_at, faults[i].found);
        return g_strdup_printf ("byte %" G_GUINT64_FORMAT ": \"%s\" of the record of \"instruction\" at byte %"
                                G_GUINT64_FORMAT " is %s, expected %s; left out",
                                c->damage_value_at, faults[i].field, c->damage_at, faults[i].found,
                                faults[i].expected);
      }
  g_assert_not_reached ();
}

static void
test_damaged (Fixture       *f,
              gconstpointer  data)
{
  NeuronGenDamage damage = GPOINTER_TO_INT (data);
  g_autofree char *at = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;

  f->options.damage = damage;
  fixture_write (f);
  at = g_strdup_printf ("byte %" G_GUINT64_FORMAT ":", f->counts.damage_at);
  trace = chrono_trace_load_file (f->device, NULL, NULL, NULL, &error);
  if (damage == NEURON_GEN_NOT_JSON)
    {
      g_assert_null (trace);
      g_assert_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_SYNTAX);
      g_assert_true (strstr (error->message, f->device) != NULL);
      g_assert_true (strstr (error->message, at) != NULL);
      return;
    }
  g_assert_no_error (error);
  for (guint e = 0; e < NEURON_GEN_N_ENGINES; e++)
    g_assert_cmpuint (engine_count (trace, neuron_gen_engine_labels[e]), ==, f->counts.per_engine[e]);
  if (damage == NEURON_GEN_DMA_OBJECT)
    {
      g_autofree char *table = g_strdup_printf ("byte %" G_GUINT64_FORMAT ": the table \"dma\" is an object, "
                                                "expected an array of records; skipped whole",
                                                f->counts.damage_at);

      g_assert_true (has_warning (trace, table));
      g_assert_cmpuint (chrono_trace_get_stats (trace)->kinds[CHRONO_KIND_DMA], ==, 0);
      g_assert_cmpuint (chrono_trace_get_stats (trace)->kinds[CHRONO_KIND_INSTRUCTION], ==, f->counts.instructions);
      /* Waits on the DMA queues' semaphores find no update. */
      g_assert_cmpuint (chrono_trace_get_stats (trace)->dependencies, ==,
                        f->counts.dep_edges + f->counts.semaphore_edges - f->counts.dma_waits);
    }
  else if (damage == NEURON_GEN_TRUNCATED)
    {
      g_autofree char *end = g_strdup_printf ("byte %" G_GUINT64_FORMAT ":", f->counts.bytes);

      g_assert_true (chrono_trace_get_stats (trace)->truncated);
      g_assert_true (has_warning (trace, end));
      /* Only the instruction table was written: DMA waits stay open. */
      g_assert_cmpuint (chrono_trace_get_stats (trace)->dependencies, ==,
                        f->counts.dep_edges + f->counts.semaphore_edges - f->counts.dma_waits);
    }
  else
    {
      gboolean skipped;
      g_autofree char *warning = expected_warning (damage, &f->counts, &skipped);

      g_test_message ("expecting: %s", warning);
      g_assert_false (chrono_trace_get_stats (trace)->truncated);
      g_assert_true (has_warning (trace, warning));
      g_assert_cmpuint (chrono_trace_get_stats (trace)->dropped, ==, skipped ? 1 : 0);
      check_device (trace, &f->counts, f->options.nc_idx);
      g_assert_cmpuint (chrono_trace_get_stats (trace)->dependencies, ==,
                        f->counts.dep_edges + f->counts.semaphore_edges);
    }
}

/* chronoscope-cli info --json: the Chrome keys, plus engines and
 * dependencies. */
static void
test_cli (Fixture       *f,
          gconstpointer  data)
{
  const char *cli = g_getenv ("CHRONO_CLI");
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;
  const char *argv[] = { cli, "info", "--json", NULL, NULL, NULL };
  const char * const chrome_keys[] = {
    "file", "format", "compression", "bytes", "phases", "events", "spans", "async_spans",
    "instants", "counter_samples", "flows", "launch_links", "processes", "tracks", "start_ns",
    "end_ns", "base_time_ns", "rank", "world_size", "truncated", "dropped", "warnings", "kinds",
  };
  gint status;

  if (cli == NULL || !g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("CHRONO_CLI is not set");
      return;
    }
  fixture_write (f);
  argv[3] = f->device;
  argv[4] = f->dir;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  lines = g_strsplit (g_strstrip (out), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 2);
  for (guint l = 0; l < 2; l++)
    {
      g_autoptr(JsonNode) node = json_from_string (lines[l], &error);
      JsonObject *o;
      JsonObject *engines;

      g_assert_no_error (error);
      o = json_node_get_object (node);
      for (guint k = 0; k < G_N_ELEMENTS (chrome_keys); k++)
        g_assert_true (json_object_has_member (o, chrome_keys[k]));
      engines = json_object_get_object_member (o, "engines");
      for (guint e = 0; e < NEURON_GEN_N_ENGINES; e++)
        g_assert_cmpint (json_object_get_int_member (engines, neuron_gen_engine_labels[e]), ==,
                         f->counts.per_engine[e]);
      g_assert_cmpint (json_object_get_int_member (o, "dependencies"), ==,
                       f->counts.dep_edges + f->counts.semaphore_edges);
    }

  /* --merge: the files named, as one document. */
  {
    const char *merge_argv[] = { cli, "info", "--json", "--merge", f->device, f->system, NULL };
    g_autofree char *merged = NULL;
    g_autoptr(JsonNode) node = NULL;
    JsonObject *o;

    g_assert_true (g_spawn_sync (NULL, (char **) merge_argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                 &merged, NULL, &status, &error));
    g_assert_cmpint (status, ==, 0);
    g_assert_null (strchr (g_strstrip (merged), '\n'));
    node = json_from_string (merged, &error);
    g_assert_no_error (error);
    o = json_node_get_object (node);
    /* The core, the runtime's process, the instance and its Neuron device. */
    g_assert_cmpint (json_object_get_int_member (o, "processes"), ==, 4);
    g_assert_cmpint (json_object_get_int_member (o, "start_ns"), <, f->counts.exec_start_ns);
    g_assert_cmpint (json_object_get_int_member (o, "dependencies"), ==,
                     f->counts.dep_edges + f->counts.semaphore_edges);
    g_assert_cmpstr (json_object_get_string_member (o, "format"), ==, "neuron-device+neuron-system");
  }
}

/* No real trace of the folder is taken for a Neuron profile. */
static void
test_sniff_real (void)
{
  const char *dir = g_getenv ("CHRONO_TRACES_DIR");
  g_autoptr(GDir) d = NULL;
  const char *name;
  guint looked = 0;

  if (dir == NULL || (d = g_dir_open (dir, 0, NULL)) == NULL)
    {
      g_test_skip ("CHRONO_TRACES_DIR is not set or not a folder");
      return;
    }
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(ChronoSource) source = NULL;
      gboolean finished = FALSE;
      gsize avail = 0;

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) || !strstr (name, ".json"))
        continue;
      source = chrono_source_open (path, NULL);
      if (source == NULL)
        continue;
      while (!finished && avail < 65536)
        avail = chrono_source_wait (source, avail, &finished);
      chrono_source_cancel (source);
      g_assert_cmpint (chrono_neuron_sniff (chrono_source_get_data (source), avail), ==, CHRONO_NEURON_NONE);
      looked++;
    }
  if (looked == 0)
    g_test_skip ("no JSON traces in CHRONO_TRACES_DIR");
}

/* Engine names as the other outputs write them, and unknown ones. */
static void
test_engine_labels (void)
{
  static const char text[] =
    "{\"instruction\": ["
    "{\"timestamp\": 10, \"duration\": 5, \"label\": \"TensorE\", \"opcode\": \"LDWEIGHTS\"},"
    "{\"timestamp\": 11, \"duration\": 5, \"label\": \"Vector Engine - Row 3\", \"opcode\": \"REDUCE\"},"
    "{\"timestamp\": 12, \"duration\": 5, \"subgroup\": \"ACT\", \"opcode\": \"ACTIVATE\"},"
    "{\"timestamp\": 13, \"duration\": 5, \"label\": \"Pool\", \"opcode\": \"NOP\"},"
    "{\"timestamp\": 14, \"duration\": 5, \"label\": \"TensorMatrixE\", \"opcode\": \"MATMUL\"},"
    "{\"timestamp\": 15, \"label\": \"MysteryE\", \"opcode\": \"Operation(7)\"}"
    "], \"summary\": [{\"nc_idx\": \"3\"}]}";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, sizeof text - 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = chrono_trace_load_bytes (bytes, "labels.json", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (engine_count (trace, "Tensor"), ==, 1);
  g_assert_cmpuint (engine_count (trace, "TensorMatrix"), ==, 1);
  g_assert_cmpuint (engine_count (trace, "Vector"), ==, 1);
  g_assert_cmpuint (engine_count (trace, "Scalar"), ==, 1);
  g_assert_cmpuint (engine_count (trace, "GpSimd"), ==, 1);
  g_assert_cmpuint (engine_count (trace, "MysteryE"), ==, 1);
  /* Its row, once. */
  test_track_named (trace, "Vector (DVE)");
  /* No duration: a zero-length span, flagged. */
  g_assert_cmpuint (test_track_named (trace, "MysteryE")->flags[0], ==, CHRONO_SPAN_NO_DUR);
  g_assert_cmpstr (chrono_trace_get_string (trace, chrono_trace_get_process (trace, 0)->display_name),
                   ==, "NeuronCore 3");
}

static void
test_sniff (void)
{
  static const struct { const char *text; ChronoNeuronFormat format; } cases[] = {
    { "{\"summary\": [{\"total_time\": 1}], \"instruction\": []}", CHRONO_NEURON_DEVICE },
    { "{\"summary\": [{\"total_time\": 1}]}", CHRONO_NEURON_DEVICE },
    { "  {\"metadata\": {}, \"instruction_usage\": []}", CHRONO_NEURON_DEVICE },
    { "{\"trace_event\": []}", CHRONO_NEURON_SYSTEM },
    { "{\"cpu_util\": [], \"trace_events\": []}", CHRONO_NEURON_SYSTEM },
    /* summary-json: one object per profile. */
    { "{\"n_1438\": {\"total_time\": 0.017, \"nc_idx\": 1}}", CHRONO_NEURON_NONE },
    /* traceEvents makes it a Chrome trace: the sniff stops there rather
     * than read all the events to look at the keys after them. */
    { "{\"traceEvents\": [], \"summary\": [1], \"instruction\": []}", CHRONO_NEURON_NONE },
    { "{\"summary\": [1], \"traceEvents\": []}", CHRONO_NEURON_DEVICE },
    { "{\"traceEvents\": []}", CHRONO_NEURON_NONE },
    { "[{\"ph\": \"X\"}]", CHRONO_NEURON_NONE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (chrono_neuron_sniff ((const guint8 *) cases[i].text, strlen (cases[i].text)), ==,
                     cases[i].format);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/neuron/sniff", test_sniff);
  g_test_add_func ("/neuron/sniff/real-traces", test_sniff_real);
  g_test_add_func ("/neuron/device/engine-labels", test_engine_labels);
  g_test_add ("/neuron/device", Fixture, GINT_TO_POINTER (FALSE), fixture_setup, test_device, fixture_teardown);
  g_test_add ("/neuron/device/string-numbers", Fixture, GINT_TO_POINTER (TRUE), fixture_setup, test_device, fixture_teardown);
  g_test_add ("/neuron/device/big-ids", Fixture, NULL, fixture_setup, test_big_ids, fixture_teardown);
  g_test_add ("/neuron/device/truncated", Fixture, GINT_TO_POINTER (NEURON_GEN_TRUNCATED), fixture_setup, test_damaged, fixture_teardown);
  g_test_add ("/neuron/device/wrong-type", Fixture, GINT_TO_POINTER (NEURON_GEN_WRONG_TYPE), fixture_setup, test_damaged, fixture_teardown);
  g_test_add ("/neuron/device/missing-key", Fixture, GINT_TO_POINTER (NEURON_GEN_MISSING_KEY), fixture_setup, test_damaged, fixture_teardown);
  g_test_add ("/neuron/device/not-json", Fixture, GINT_TO_POINTER (NEURON_GEN_NOT_JSON), fixture_setup, test_damaged, fixture_teardown);
  g_test_add ("/neuron/device/duration-string", Fixture, GINT_TO_POINTER (NEURON_GEN_DURATION_STRING), fixture_setup, test_damaged, fixture_teardown);
  g_test_add ("/neuron/device/label-number", Fixture, GINT_TO_POINTER (NEURON_GEN_LABEL_NUMBER), fixture_setup, test_damaged, fixture_teardown);
  g_test_add ("/neuron/device/deps-object", Fixture, GINT_TO_POINTER (NEURON_GEN_DEPS_OBJECT), fixture_setup, test_damaged, fixture_teardown);
  g_test_add ("/neuron/device/id-array", Fixture, GINT_TO_POINTER (NEURON_GEN_ID_ARRAY), fixture_setup, test_damaged, fixture_teardown);
  g_test_add ("/neuron/device/dma-object", Fixture, GINT_TO_POINTER (NEURON_GEN_DMA_OBJECT), fixture_setup, test_damaged, fixture_teardown);
  g_test_add ("/neuron/system/trace-events", Fixture, GINT_TO_POINTER (FALSE), fixture_setup, test_system, fixture_teardown);
  g_test_add ("/neuron/system/trace-event", Fixture, GINT_TO_POINTER (TRUE), fixture_setup, test_system, fixture_teardown);
  g_test_add ("/neuron/folder", Fixture, NULL, fixture_setup, test_folder, fixture_teardown);
  g_test_add ("/neuron/merge/no-system-profile", Fixture, NULL, fixture_setup, test_merge_no_system, fixture_teardown);
  g_test_add_func ("/neuron/merge/kineto-ranks", test_merge_ranks);
  g_test_add ("/neuron/cli", Fixture, NULL, fixture_setup, test_cli, fixture_teardown);
  return g_test_run ();
}
