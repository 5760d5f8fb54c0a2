/* test-memory-counters.c: memory read from sampled counters, in a
 * Perfetto trace and a Neuron system profile written here: the peak and
 * its time are the samples' own, counters that do not say their unit are
 * left out, and the analysis says it cannot tell what held the memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-comparison-memory.h"
#include "chrono-memory.h"
#include "chrono-memory-private.h"
#include "perfetto-writer.h"
#include "test-utils.h"

#define MIB (G_GINT64_CONSTANT (1) << 20)

static void
add_counter_track (GByteArray *t,
                   guint64     uuid,
                   const char *name)
{
  GByteArray *p = packet (1, G_MAXUINT64);
  GByteArray *d = msg ();

  put_uint (d, 1, uuid);
  put_string (d, 2, name);
  put_message (d, 8, msg ());
  put_message (p, P_DESCRIPTOR, d);
  add_packet (t, p);
}

static void
add_sample (GByteArray *t,
            guint64     uuid,
            guint64     ts,
            gint64      value)
{
  GByteArray *e = event (COUNTER, uuid, NULL);

  put_uint (e, E_COUNTER, (guint64) value);
  add_event (t, 1, ts, e);
}

static ChronoTrace *
load_perfetto (GByteArray *data)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data->data, data->len);
  g_autoptr(GError) error = NULL;
  ChronoTrace *trace = chrono_trace_load_bytes (bytes, "fixture.pftrace", &error);

  g_assert_no_error (error);
  return trace;
}

static const char *
note_with (ChronoMemory *memory,
           const char   *text)
{
  for (const char * const *n = chrono_memory_get_notes (memory); *n != NULL; n++)
    if (strstr (*n, text) != NULL)
      return *n;
  return NULL;
}

/* What a counter's name says of its unit. */
static void
test_scale (void)
{
  g_assert_cmpint (chrono_memory_counter_scale ("mem.rss"), ==, 1);
  g_assert_cmpint (chrono_memory_counter_scale ("Host memory (bytes)"), ==, 1);
  g_assert_cmpint (chrono_memory_counter_scale ("Java heap (KB)"), ==, 1024);
  g_assert_cmpint (chrono_memory_counter_scale ("GPU memory (MiB)"), ==, MIB);
  g_assert_cmpint (chrono_memory_counter_scale ("memory"), ==, 0);
  g_assert_cmpint (chrono_memory_counter_scale ("HBM bandwidth (bytes/s)"), ==, 0);
  g_assert_cmpint (chrono_memory_counter_scale ("Host memory (%)"), ==, 0);
  g_assert_cmpint (chrono_memory_counter_scale ("frames (count)"), ==, 0);
  g_assert_cmpint (chrono_memory_counter_scale ("unused_memory_bytes"), ==, 0);
  /* Ascend's msprof names its memory counters so. */
  g_assert_cmpint (chrono_memory_counter_scale ("APP/HBM KB"), ==, 1024);
  g_assert_cmpint (chrono_memory_counter_scale ("Device/DDR KB"), ==, 1024);
}

/* RSS in bytes and a heap in KB become devices with the samples' peak;
 * a counter named only "memory" does not. */
static void
test_perfetto (void)
{
  static const gint64 rss[] = { 100 * MIB, 340 * MIB, 250 * MIB, 339 * MIB };
  static const gint64 heap_kb[] = { 2048, 1024, 4096 };
  g_autoptr(GByteArray) t = msg ();
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoMemory) memory = NULL;
  const ChronoMemoryDevice *d;

  add_counter_track (t, 5, "mem.rss");
  add_counter_track (t, 6, "Java heap (KB)");
  add_counter_track (t, 7, "memory");
  for (guint k = 0; k < G_N_ELEMENTS (rss); k++)
    add_sample (t, 5, 1000 + 1000 * k, rss[k]);
  for (guint k = 0; k < G_N_ELEMENTS (heap_kb); k++)
    add_sample (t, 6, 1500 + 1000 * k, heap_kb[k]);
  add_sample (t, 7, 1000, 1 << 30);
  trace = load_perfetto (t);
  memory = chrono_memory_new (trace, 0, 0, NULL, NULL);

  g_assert_cmpuint (chrono_memory_get_n_devices (memory), ==, 2);
  d = chrono_memory_get_device (memory, 0);
  g_assert_cmpstr (d->label, ==, "mem.rss");
  g_assert_cmpint (d->peak_allocated_bytes, ==, 340 * MIB);
  g_assert_cmpint (d->peak_ns, ==, 2000);
  g_assert_cmpuint (d->n_points, ==, G_N_ELEMENTS (rss));
  g_assert_false (d->has_addresses);
  g_assert_null (d->point_reserved);
  g_assert_cmpuint (d->allocations->len, ==, 0);
  g_assert_cmpuint (d->by_operator->len, ==, 0);
  d = chrono_memory_get_device (memory, 1);
  g_assert_cmpint (d->peak_allocated_bytes, ==, 4096 * 1024);
  g_assert_cmpint (d->peak_ns, ==, 3500);
  g_assert_nonnull (note_with (memory, "“mem.rss”"));
  g_assert_nonnull (note_with (memory, "cannot be told"));
  g_assert_null (note_with (memory, "no memory events"));

  /* A window sees only its samples. */
  g_clear_object (&memory);
  memory = chrono_memory_new (trace, 2500, 4500, NULL, NULL);
  d = chrono_memory_get_device (memory, 0);
  g_assert_cmpint (d->peak_allocated_bytes, ==, 339 * MIB);
  g_assert_cmpint (d->peak_ns, ==, 4000);
}

/* The JSON names the counter and says nothing of allocations. */
static void
test_neuron_json (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (
    "{\"trace_events\":[{\"name\":\"nrt_execute\",\"timestamp\":1700000000000100000,\"duration\":5000,"
    "\"group\":\"nrt-nc-000\",\"id\":2,\"parent_id\":0,\"thread_id\":11,\"trace_event_source\":\"neuron_rt\"}],"
    "\"mem_usage\":[{\"timestamp\":1700000000000000000,\"duration\":1,\"instance_id\":\"i-1\",\"usage\":51805806592,\"percent_usage\":9.7},"
    "{\"timestamp\":1700000000000200000,\"duration\":1,\"instance_id\":\"i-1\",\"usage\":51905806592,\"percent_usage\":9.8},"
    "{\"timestamp\":1700000000000300000,\"duration\":1,\"instance_id\":\"i-1\",\"usage\":51705806592,\"percent_usage\":9.7}],"
    "\"cpu_util\":[]}");
  g_autoptr(ChronoAnalysis) analysis = chrono_analysis_run (&trace, 1, NULL, NULL, NULL);
  g_autofree char *json = chrono_analysis_to_json (analysis);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *memory, *device;

  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  memory = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "memory");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (memory, "devices")), ==, 1);
  device = json_array_get_object_element (json_object_get_array_member (memory, "devices"), 0);
  g_assert_cmpstr (json_object_get_string_member (device, "device"), ==, "host");
  g_assert_cmpstr (json_object_get_string_member (device, "source"), ==, "counter");
  g_assert_cmpstr (json_object_get_string_member (device, "counter"), ==, "Host memory (bytes)");
  g_assert_cmpint (json_object_get_int_member (device, "peak_allocated_bytes"), ==, G_GINT64_CONSTANT (51905806592));
  g_assert_cmpint (json_object_get_int_member (device, "peak_ns"), ==, G_GINT64_CONSTANT (1700000000000200000));
  g_assert_true (json_object_get_null_member (device, "live_at_peak"));
  g_assert_true (json_object_get_null_member (device, "allocations"));
}

/* An HBM sample with neither a total nor a category is skipped, with a
 * warning that says where and what it lacks; the others still count. */
static void
test_neuron_bad_hbm (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (
    "{\"trace_events\":[],\"device_mem_usage\":["
    "{\"timestamp\":1700000000000000000,\"device_idx\":1,\"hbm_idx\":0,\"total_bytes\":7000},"
    "{\"timestamp\":1700000000000100000,\"device_idx\":1,\"hbm_idx\":0,\"percent\":3}]}");
  g_autoptr(ChronoMemory) memory = chrono_memory_new (trace, 0, 0, NULL, NULL);
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);
  const ChronoMemoryDevice *d = test_memory_device_named (memory, "Device 1 HBM 0");
  gboolean warned = FALSE;

  for (guint i = 0; i < stats->warnings->len; i++)
    warned |= strstr (g_ptr_array_index (stats->warnings, i),
                      "a record of \"device_mem_usage\" has no total_bytes, usage or *_bytes category; skipped") != NULL;
  g_assert_true (warned);
  g_assert_nonnull (d);
  g_assert_cmpuint (d->n_points, ==, 1);
  g_assert_cmpint (d->peak_allocated_bytes, ==, 7000);
  /* Without an instance, the device's process is named for the device alone. */
  g_assert_cmpstr (chrono_trace_get_string (trace, chrono_trace_get_process (trace, d->host_process)->name), ==,
                   "Neuron device 1");
}

/* Ascend's msprof writes the memory in use as counters in KB: the peaks
 * are the file's largest samples (2,403,376 KB of HBM on the device, at
 * 1736405443776583.100 µs), and the DDR counters, zero throughout, make
 * no device. */
static void
test_ascend (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load ("msinsight__npu_ddp_level0_rank0__trace_view.json");
  g_autoptr(ChronoMemory) memory = NULL;
  const ChronoMemoryDevice *d;

  if (trace == NULL)
    return;
  memory = chrono_memory_new (trace, 0, 0, NULL, NULL);
  g_assert_cmpuint (chrono_memory_get_n_devices (memory), ==, 4);
  d = test_memory_device_named (memory, "Device/HBM KB");
  g_assert_nonnull (d);
  g_assert_cmpint (d->peak_allocated_bytes, ==, G_GINT64_CONSTANT (2403376) * 1024);
  g_assert_cmpint (d->peak_ns, ==, G_GINT64_CONSTANT (1736405443776583100));
  d = test_memory_device_named (memory, "APP/HBM KB");
  g_assert_nonnull (d);
  g_assert_cmpint (d->peak_allocated_bytes, ==, G_GINT64_CONSTANT (2160232) * 1024);
  g_assert_null (test_memory_device_named (memory, "APP/DDR KB"));
}

/* Two runs' counters pair by name, one row each, never merged into one. */
static void
test_ascend_compare (void)
{
  g_autoptr(ChronoTrace) a = test_traces_load ("msinsight__npu_ddp_level0_rank0__trace_view.json");
  g_autoptr(ChronoTrace) b = test_traces_load ("msinsight__npu_ddp_level2_rank0__trace_view.json");
  g_autoptr(ChronoAnalysis) analysis_a = NULL;
  g_autoptr(ChronoAnalysis) analysis_b = NULL;
  g_autoptr(ChronoComparison) comparison = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;

  if (a == NULL || b == NULL)
    return;
  analysis_a = chrono_analysis_run (&a, 1, NULL, NULL, NULL);
  analysis_b = chrono_analysis_run (&b, 1, NULL, NULL, NULL);
  comparison = chrono_comparison_run (analysis_a, analysis_b, NULL, NULL, &error);
  g_assert_no_error (error);
  rows = chrono_comparison_get_memory_rows (comparison);
  g_assert_cmpuint (rows->len, ==, 4);
  for (guint i = 0; i < rows->len; i++)
    {
      const ChronoCompareMemory *row = rows->pdata[i];

      g_assert_nonnull (row->a);
      g_assert_nonnull (row->b);
      g_assert_cmpstr (row->a->label, ==, row->b->label);
      g_assert_cmpstr (row->device, ==, row->a->label);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memory-counters/scale", test_scale);
  g_test_add_func ("/memory-counters/perfetto", test_perfetto);
  g_test_add_func ("/memory-counters/neuron-json", test_neuron_json);
  g_test_add_func ("/memory-counters/neuron-bad-hbm", test_neuron_bad_hbm);
  g_test_add_func ("/memory-counters/ascend", test_ascend);
  g_test_add_func ("/memory-counters/ascend-compare", test_ascend_compare);
  return g_test_run ();
}
