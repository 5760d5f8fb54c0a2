/* test-memory.c: the memory analysis on a trace written here, with a
 * leak, a temporary, an activation, fragmentation and a nearly full
 * device planted, and what it says without memory events or addresses;
 * the leak and fragmentation planted in the example trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gstdio.h>

#include "chrono-example-trace.h"
#include "chrono-loader.h"
#include "chrono-memory.h"
#include "test-utils.h"

#define MIB (G_GINT64_CONSTANT (1) << 20)
#define STEPS 5
#define STEP_US 1000
#define BASE (10 * MIB)           /* allocated before the trace began */
#define RESERVED_EXTRA (100 * MIB)
#define CAPACITY (140 * MIB)
#define LEAK (3 * MIB)
#define TEMPORARY (8 * MIB)
#define ACTIVATION (4 * MIB)

typedef struct {
  GString *s;
  gint64   allocated;
  gint64   peak;
  gint64   peak_us;
} Writer;

static void
memory_event (Writer *w,
              gint64  ts_us,
              gint64  bytes,
              guint64 addr)
{
  w->allocated += bytes;
  if (w->allocated > w->peak)
    {
      w->peak = w->allocated;
      w->peak_us = ts_us;
    }
  g_string_append_printf (w->s, ",{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,"
                          "\"ts\":%" G_GINT64_FORMAT ",\"args\":{\"Total Reserved\":%" G_GINT64_FORMAT
                          ",\"Total Allocated\":%" G_GINT64_FORMAT ",\"Bytes\":%" G_GINT64_FORMAT
                          ",\"Addr\":%" G_GUINT64_FORMAT ",\"Device Id\":0,\"Device Type\":1}}",
                          ts_us, w->allocated + RESERVED_EXTRA, w->allocated, bytes, addr);
}

/* Five steps, each making an activation its backward frees, a temporary
 * its operator frees, and a tensor kept for good; a free of memory from
 * before the trace; host events with bytes only. */
static ChronoTrace *
planted_trace (Writer *w)
{
  w->s = g_string_new ("{\"deviceProperties\":[{\"id\":0,\"name\":\"test GPU\",\"totalGlobalMem\":");
  g_string_append_printf (w->s, "%" G_GINT64_FORMAT "}],\"traceEvents\":[", CAPACITY);
  w->allocated = BASE;
  w->peak = 0;
  test_append_complete_event (w->s, "cpu_op", "aten::zeros", 1, 1, 10, 80, "");
  memory_event (w, 50, -MIB, 0xdead0000);
  for (int k = 0; k < STEPS; k++)
    {
      gint64 s = 100 + (gint64) k * STEP_US;
      guint64 a = 0x100000 * (guint64) (k + 1);
      g_autofree char *step = g_strdup_printf ("ProfilerStep#%d", k);

      test_append_complete_event (w->s, "user_annotation", step, 1, 1, s, STEP_US - 10, "");
      test_append_complete_event (w->s, "cpu_op", "aten::linear", 1, 1, s + 100, 100, "");
      memory_event (w, s + 110, ACTIVATION, a + 1);
      test_append_complete_event (w->s, "cpu_op", "aten::softmax", 1, 1, s + 300, 100, "");
      memory_event (w, s + 310, TEMPORARY, a + 2);
      memory_event (w, s + 390, -TEMPORARY, a + 2);
      test_append_complete_event (w->s, "cpu_op", "aten::cat", 1, 1, s + 500, 20, "");
      memory_event (w, s + 510, LEAK, a + 3);
      test_append_complete_event (w->s, "cpu_op", "autograd::engine::evaluate_function: AddmmBackward0", 1, 1,
                                  s + 650, 100, "");
      memory_event (w, s + 700, -ACTIVATION, a + 1);
      g_string_append_printf (w->s, ",{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,"
                              "\"ts\":%" G_GINT64_FORMAT ",\"args\":{\"Bytes\":%d,\"Device Id\":-1,\"Device Type\":0}}",
                              s + 800, k % 2 == 0 ? 64 : -64);
    }
  g_string_append (w->s, "]}");
  return test_load_json (w->s->str);
}

static const ChronoMemoryGroup *
group (GArray *groups,
       guint   k)
{
  g_assert_cmpuint (k, <, groups->len);
  return &g_array_index (groups, ChronoMemoryGroup, k);
}

static const ChronoMemoryFinding *
finding (ChronoMemory *memory,
         const char   *rule)
{
  for (guint i = 0; i < chrono_memory_get_n_findings (memory); i++)
    if (g_str_equal (chrono_memory_get_finding (memory, i)->rule, rule))
      return chrono_memory_get_finding (memory, i);
  return NULL;
}

static gint64
category_bytes (const ChronoMemoryDevice *d,
                ChronoMemoryCategory      category)
{
  for (guint k = 0; k < d->by_category->len; k++)
    if (group (d->by_category, k)->name == category)
      return group (d->by_category, k)->bytes;
  return 0;
}

static void
test_planted (void)
{
  Writer w;
  g_autoptr(ChronoTrace) trace = planted_trace (&w);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoMemory) memory = chrono_memory_new (trace, 0, 0, NULL, &error);
  const ChronoMemoryDevice *gpu = chrono_memory_find_device (memory, 0, 0);
  const ChronoMemoryDevice *host = chrono_memory_find_device (memory, 0, -1);
  const ChronoMemoryFinding *f;
  g_autofree char *notes = NULL;
  gint64 last_start = 100 + (STEPS - 1) * STEP_US;

  g_assert_no_error (error);
  g_assert_cmpuint (chrono_memory_get_n_devices (memory), ==, 2);
  g_assert_nonnull (gpu);
  g_assert_cmpstr (gpu->label, ==, "cuda:0");
  g_assert_true (gpu->has_totals && gpu->has_addresses);
  g_assert_cmpint (gpu->peak_allocated_bytes, ==, w.peak);
  g_assert_cmpint (gpu->peak_ns, ==, w.peak_us * 1000);
  g_assert_cmpint (gpu->reserved_at_peak_bytes, ==, w.peak + RESERVED_EXTRA);
  g_assert_cmpint (gpu->capacity_bytes, ==, CAPACITY);
  g_assert_cmpuint (gpu->n_unmatched_frees, ==, 1);
  g_assert_cmpuint (gpu->n_unfreed, ==, STEPS);

  /* The peak is the last step's temporary: it, the step's activation and
   * the four tensors kept before are what the trace shows alive. */
  g_assert_cmpint (w.peak_us, ==, last_start + 310);
  g_assert_cmpuint (gpu->n_live, ==, 6);
  g_assert_cmpint (gpu->live_bytes, ==, (STEPS - 1) * LEAK + TEMPORARY + ACTIVATION);
  g_assert_cmpstr (chrono_trace_get_string (trace, group (gpu->by_operator, 0)->name), ==, "aten::cat");
  g_assert_cmpint (group (gpu->by_operator, 0)->bytes, ==, (STEPS - 1) * LEAK);
  g_assert_cmpstr (chrono_trace_get_string (trace, group (gpu->by_operator, 1)->name), ==, "aten::softmax");
  g_assert_cmpstr (chrono_trace_get_string (trace, group (gpu->by_operator, 2)->name), ==, "aten::linear");
  g_assert_cmpint (category_bytes (gpu, CHRONO_MEMORY_TEMPORARY), ==, TEMPORARY);
  g_assert_cmpint (category_bytes (gpu, CHRONO_MEMORY_ACTIVATION), ==, ACTIVATION);
  g_assert_cmpint (category_bytes (gpu, CHRONO_MEMORY_ACROSS_STEPS), ==, (STEPS - 1) * LEAK);
  g_assert_cmpint (g_array_index (gpu->allocations, ChronoMemoryAllocation,
                                  g_array_index (gpu->largest, guint, 0)).bytes, ==, TEMPORARY);

  /* Each step ends a kept tensor higher. */
  g_assert_cmpuint (gpu->steps->len, ==, STEPS);
  for (guint k = 1; k < STEPS; k++)
    g_assert_cmpint (g_array_index (gpu->steps, ChronoMemoryStep, k).end_bytes -
                     g_array_index (gpu->steps, ChronoMemoryStep, k - 1).end_bytes, ==, LEAK);
  g_assert_cmpint (g_array_index (gpu->steps, ChronoMemoryStep, 0).start_bytes, ==, BASE - MIB);
  g_assert_cmpint (g_array_index (gpu->steps, ChronoMemoryStep, STEPS - 1).peak_bytes, ==, w.peak);

  f = finding (memory, "memory-growth");
  g_assert_nonnull (f);
  g_assert_cmpstr (chrono_trace_get_string (trace, f->op_name), ==, "aten::cat");
  g_assert_nonnull (finding (memory, "memory-fragmentation"));
  g_assert_nonnull (finding (memory, "memory-near-capacity"));
  f = finding (memory, "memory-large-temporaries");
  g_assert_nonnull (f);
  g_assert_cmpstr (chrono_trace_get_string (trace, f->op_name), ==, "aten::softmax");

  /* The host's events have neither totals nor addresses: bytes counted
   * from the first event, nothing said of what was alive. */
  g_assert_nonnull (host);
  g_assert_false (host->has_totals || host->has_addresses);
  g_assert_cmpint (host->peak_allocated_bytes, ==, 64);
  g_assert_cmpuint (host->n_live, ==, 0);
  notes = g_strjoinv ("\n", (char **) chrono_memory_get_notes (memory));
  g_assert_nonnull (strstr (notes, "cpu: the events carry no Addr"));
  g_string_free (w.s, TRUE);
}

/* The same trace read over its third step only. */
static void
test_range (void)
{
  Writer w;
  g_autoptr(ChronoTrace) trace = planted_trace (&w);
  gint64 start = (100 + 2 * STEP_US) * 1000;
  g_autoptr(ChronoMemory) memory = chrono_memory_new (trace, start, start + STEP_US * 1000, NULL, NULL);
  const ChronoMemoryDevice *gpu = chrono_memory_find_device (memory, 0, 0);

  g_assert_nonnull (gpu);
  g_assert_cmpint (gpu->peak_ns, ==, start + 310 * 1000);
  g_assert_cmpint (gpu->peak_allocated_bytes, ==, BASE - MIB + 2 * LEAK + ACTIVATION + TEMPORARY);
  g_assert_cmpuint (gpu->n_events, ==, 5);
  g_string_free (w.s, TRUE);
}

/* No memory events: no device, one note that says so; the analysis's
 * time findings never hold memory's. */
static void
test_none (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json ("{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\","
                                                  "\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":5}]}");
  g_autoptr(ChronoAnalysis) analysis = chrono_analysis_run (&trace, 1, NULL, NULL, NULL);
  guint n;
  ChronoMemory * const *memories = chrono_analysis_get_memories (analysis, &n);
  const char * const *notes;

  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (chrono_memory_get_n_devices (memories[0]), ==, 0);
  notes = chrono_memory_get_notes (memories[0]);
  g_assert_nonnull (notes[0]);
  g_assert_nonnull (strstr (notes[0], "no memory events"));
  g_assert_null (notes[1]);
}

static void
test_not_time (void)
{
  Writer w;
  g_autoptr(ChronoTrace) trace = planted_trace (&w);
  g_autoptr(ChronoAnalysis) analysis = chrono_analysis_run (&trace, 1, NULL, NULL, NULL);
  g_autofree char *json = chrono_analysis_to_json (analysis);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *memory;

  for (guint i = 0; i < chrono_analysis_get_n_findings (analysis); i++)
    g_assert_false (g_str_has_prefix (chrono_analysis_get_finding (analysis, i)->rule, "memory-"));
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  memory = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "memory");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (memory, "devices")), ==, 2);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (memory, "findings")), ==, 4);
  g_string_free (w.s, TRUE);
}

static const ChronoMemoryFinding *
finding_evidence (ChronoMemory *memory,
                  const char   *rule,
                  const char   *key,
                  gdouble      *value)
{
  const ChronoMemoryFinding *f = finding (memory, rule);

  g_assert_nonnull (f);
  for (guint k = 0; k < f->n_evidence; k++)
    if (g_str_equal (f->evidence_keys[k], key))
      *value = f->evidence_values[k];
  return f;
}

/* The example keeps one 64 MiB output a step and reserves 1 GiB more a
 * step than it uses. */
static void
test_example (void)
{
  g_autofree char *dir = g_dir_make_tmp ("chrono-memory-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "example.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoMemory) memory = NULL;
  ChronoExampleOptions options;
  const ChronoMemoryFinding *f;
  gdouble kept = 0, growth = 0, unused = 0;
  const guint steps = 20;

  chrono_example_options_init (&options);
  options.n_steps = steps;
  g_assert_true (chrono_example_trace_write (path, &options, NULL, &error));
  trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  memory = chrono_memory_new (trace, 0, 0, NULL, NULL);

  f = finding_evidence (memory, "memory-growth", "growth_bytes", &growth);
  g_assert_cmpfloat (growth, ==, (gdouble) (steps - 1) * 64 * MIB);
  finding_evidence (memory, "memory-growth", "kept_by_operator_bytes", &kept);
  g_assert_cmpstr (chrono_trace_get_string (trace, f->op_name), ==, "aten::clone");
  g_assert_cmpfloat (kept, ==, growth);
  finding_evidence (memory, "memory-fragmentation", "unused_reserved_bytes", &unused);
  /* Most of the 19 GiB added by the last step's peak is still unused then. */
  g_assert_cmpfloat (unused, >=, (gdouble) (steps - 1) * 1024 * MIB * 0.9);
  g_assert_null (finding (memory, "memory-large-temporaries"));
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memory/planted", test_planted);
  g_test_add_func ("/memory/range", test_range);
  g_test_add_func ("/memory/none", test_none);
  g_test_add_func ("/memory/not-time", test_not_time);
  g_test_add_func ("/memory/example", test_example);
  return g_test_run ();
}
