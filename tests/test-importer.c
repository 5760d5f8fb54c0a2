/* test-importer.c: the Chrome/Kineto importer on hand-written edge cases
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-loader.h"
#include "test-utils.h"

static char *
load_error (const char *text,
            gsize       len)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, len);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = chrono_trace_load_bytes (bytes, "bad.json", &error);

  g_assert_null (trace);
  g_assert_nonnull (error);
  return g_strdup (error->message);
}

static guint64
phase_count (ChronoTrace *trace,
             const char  *ph)
{
  return GPOINTER_TO_SIZE (g_hash_table_lookup (chrono_trace_get_stats (trace)->phases, ph));
}

static gint64
span_named (ChronoTrace       *trace,
            const ChronoTrack *t,
            const char        *name)
{
  for (guint32 i = 0; i < t->n_spans; i++)
    if (g_str_equal (chrono_trace_get_string (trace, chrono_track_get_name (t, i)), name))
      return i;
  g_assert_not_reached ();
}

static void
test_nesting_unsorted (void)
{
  /* Children before parents, E before B at equal times, and an X that
   * overlaps its neighbour without nesting. */
  g_autoptr(ChronoTrace) trace = test_load_json (
    "[{\"ph\":\"X\",\"name\":\"child\",\"pid\":1,\"tid\":2,\"ts\":2,\"dur\":3},"
    " {\"ph\":\"X\",\"name\":\"parent\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":10},"
    " {\"ph\":\"X\",\"name\":\"sibling\",\"pid\":1,\"tid\":2,\"ts\":5,\"dur\":4},"
    " {\"ph\":\"X\",\"name\":\"overlap\",\"pid\":1,\"tid\":2,\"ts\":8,\"dur\":10},"
    " {\"ph\":\"X\",\"name\":\"zero\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":0},"
    " {\"ph\":\"B\",\"name\":\"b2\",\"pid\":1,\"tid\":3,\"ts\":20},"
    " {\"ph\":\"E\",\"pid\":1,\"tid\":3,\"ts\":30},"
    " {\"ph\":\"B\",\"name\":\"b1\",\"pid\":1,\"tid\":3,\"ts\":10},"
    " {\"ph\":\"E\",\"pid\":1,\"tid\":3,\"ts\":20}]");
  const ChronoTrack *t = test_track_named (trace, "thread 2");
  const ChronoTrack *u = test_track_named (trace, "thread 3");
  gint64 parent = span_named (trace, t, "parent");
  gint64 child = span_named (trace, t, "child");
  gint64 sibling = span_named (trace, t, "sibling");
  gint64 overlap = span_named (trace, t, "overlap");
  gint64 zero = span_named (trace, t, "zero");

  g_assert_cmpint (t->n_spans, ==, 5);
  for (guint32 i = 1; i < t->n_spans; i++)
    g_assert_cmpint (t->start[i - 1], <=, t->start[i]);
  g_assert_cmpint (t->depth[parent], ==, 0);
  g_assert_cmpint (t->lane[parent], ==, 0);
  g_assert_cmpint (t->depth[child], ==, 1);
  g_assert_cmpint (t->depth[sibling], ==, 1);
  g_assert_cmpint (t->depth[zero], ==, 1);
  /* Overlapping without nesting: another lane, never dropped. */
  g_assert_cmpint (t->lane[overlap], ==, 1);
  g_assert_cmpint (t->n_lanes, ==, 2);
  g_assert_cmpint (t->start[overlap], ==, 8000);
  g_assert_cmpint (chrono_track_get_dur (t, overlap), ==, 10000);

  /* b1 [10, 20] then b2 [20, 30]: the E at 20 closes b1 before b2 opens. */
  g_assert_cmpint (u->n_spans, ==, 2);
  g_assert_cmpint (u->start[span_named (trace, u, "b1")], ==, 10000);
  g_assert_cmpint (chrono_track_get_dur (u, span_named (trace, u, "b1")), ==, 10000);
  g_assert_cmpint (chrono_track_get_dur (u, span_named (trace, u, "b2")), ==, 10000);
  g_assert_cmpint (chrono_trace_get_stats (trace)->spans, ==, 7);
  g_assert_cmpint (chrono_trace_get_stats (trace)->dropped, ==, 0);
}

static void
test_unclosed_and_stray (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (
    "[{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":1},"
    " {\"ph\":\"B\",\"name\":\"open\",\"pid\":1,\"tid\":1,\"ts\":5},"
    " {\"ph\":\"X\",\"name\":\"last\",\"pid\":1,\"tid\":2,\"ts\":10,\"dur\":90}]");
  const ChronoTrack *t = test_track_named (trace, "thread 1");

  g_assert_cmpint (t->n_spans, ==, 1);
  g_assert_true (t->flags[0] & CHRONO_SPAN_UNCLOSED);
  g_assert_cmpint (chrono_track_get_end (t, 0), ==, 100000);
  g_assert_cmpint (chrono_trace_get_stats (trace)->dropped, ==, 1);
  g_assert_cmpint (chrono_trace_get_end_ns (trace), ==, 100000);
}

static void
test_truncated (void)
{
  const char *cases[] = {
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},\n",
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}",
    "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},{\"ph\":\"X\",\"na",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(ChronoTrace) trace = test_load_json (cases[i]);
      const ChronoLoadStats *stats = chrono_trace_get_stats (trace);

      g_assert_true (stats->truncated);
      g_assert_cmpint (stats->events, ==, 1);
      g_assert_cmpint (stats->spans, ==, 1);
      g_assert_cmpuint (stats->warnings->len, >, 0);
    }
}

static void
test_quirks (void)
{
  /* String pids and tids, numeric strings, string ts, raw tab in a name,
   * an integer above 2^63 in args, and epoch-scale fractional times. */
  g_autoptr(ChronoTrace) trace = test_load_json (
    "\n  {\"traceEvents\":[\n"
    "{\"ph\":\"X\",\"name\":\"tab\there\",\"pid\":\"Spans\",\"tid\":\"PyTorch Profiler\",\"ts\":\"5\",\"dur\":1},\n"
    "{\"ph\":\"X\",\"name\":\"a\",\"pid\":7,\"tid\":\"25738\",\"ts\":1712195495406752.8,\"dur\":0.001,"
    "\"args\":{\"Comms Id\": 10159970886766084423}},\n"
    "{\"ph\":\"X\",\"name\":\"b\",\"pid\":7,\"tid\":25738,\"ts\":1712195495406753,\"dur\":0},\n"
    "],\"traceName\":\"x\"}");
  const ChronoTrack *spans = test_track_named (trace, "thread PyTorch Profiler");
  const ChronoTrack *t = test_track_named (trace, "thread 25738");
  gint64 a = span_named (trace, t, "a");
  const char *raw;
  gsize raw_len = 0;
  g_autoptr(GPtrArray) members = NULL;
  g_autoptr(JsonNode) args = NULL;

  g_assert_cmpstr (chrono_trace_get_string (trace, chrono_track_get_name (spans, 0)), ==, "tab\there");
  g_assert_cmpint (spans->start[0], ==, 5000);
  g_assert_cmpint (t->n_spans, ==, 2);
  g_assert_cmpint (t->start[a], ==, G_GINT64_CONSTANT (1712195495406752800));
  g_assert_cmpint (chrono_track_get_dur (t, a), ==, 1);
  /* Args stay text: the big id is exact in the source. */
  args = chrono_trace_get_span_args (trace, (ChronoSpanRef) { test_track_index (trace, t), (guint32) a });
  g_assert_nonnull (args);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (args));
  raw = chrono_trace_get_raw_value (trace, chrono_track_get_args (t, a), &raw_len);
  g_assert_cmpmem (raw, raw_len, "{\"Comms Id\": 10159970886766084423}", 34);
  /* And member by member, as the details pane shows them. */
  members = chrono_trace_dup_args (trace, chrono_track_get_args (t, a));
  g_assert_cmpuint (members->len, ==, 1);
  g_assert_cmpstr (((ChronoArg *) g_ptr_array_index (members, 0))->key, ==, "Comms Id");
  g_assert_cmpstr (((ChronoArg *) g_ptr_array_index (members, 0))->text, ==, "10159970886766084423");
  g_assert_false (chrono_trace_get_stats (trace)->truncated);
}

static void
test_kineto (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (
    "{\"schemaVersion\":1,\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":3,\"world_size\":8},\n"
    "\"traceEvents\":[\n"
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#7\",\"pid\":10,\"tid\":11,\"ts\":0,\"dur\":100},\n"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":10,\"tid\":11,\"ts\":1,\"dur\":50,\"args\":{\"External id\":5}},\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":10,\"tid\":11,\"ts\":2,\"dur\":5,"
    "\"args\":{\"cbid\":211,\"correlation\":99,\"External id\":5}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"sgemm\",\"pid\":0,\"tid\":7,\"ts\":10,\"dur\":20,"
    "\"args\":{\"device\":0,\"stream\":7,\"correlation\":99,\"External id\":5}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)\",\"pid\":0,\"tid\":20,\"ts\":40,\"dur\":20,"
    "\"args\":{\"correlation\":100}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"my_kernel\",\"pid\":0,\"tid\":20,\"ts\":70,\"dur\":5,"
    "\"args\":{\"Collective name\":\"allreduce\"}},\n"
    "{\"ph\":\"s\",\"id\":99,\"pid\":10,\"tid\":11,\"ts\":2,\"cat\":\"ac2g\",\"name\":\"ac2g\"},\n"
    "{\"ph\":\"f\",\"id\":99,\"pid\":0,\"tid\":7,\"ts\":10,\"cat\":\"ac2g\",\"name\":\"ac2g\",\"bp\":\"e\"},\n"
    "{\"ph\":\"f\",\"id\":1234,\"pid\":10,\"tid\":11,\"ts\":2,\"cat\":\"ac2g\",\"name\":\"ac2g\",\"bp\":\"e\"},\n"
    "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":0,\"tid\":0,\"args\":{\"labels\":\"GPU 0\"}},\n"
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":0,\"tid\":7,\"args\":{\"name\":\"stream 7 \"}},\n"
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":10,\"tid\":11,\"args\":{\"name\":\"Thread 11\"}},\n"
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":10,\"tid\":11,\"args\":{\"name\":\"thread 11 (pt_main_thread)\"}}\n"
    "],\"baseTimeNanoseconds\":1735632360000000000}");
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);
  const ChronoTrack *host = test_track_named (trace, "thread 11 (pt_main_thread)");
  const ChronoTrack *stream = test_track_named (trace, "stream 7");
  const ChronoTrack *comm = test_track_named (trace, "stream 20");
  const ChronoProcess *gpu = chrono_trace_get_process (trace, stream->process);
  gint64 launch = span_named (trace, host, "cudaLaunchKernel");
  guint n_v1 = 0, n_launch = 0;

  g_assert_cmpstr (chrono_trace_get_format (trace), ==, "kineto");
  g_assert_cmpint (chrono_trace_get_rank (trace), ==, 3);
  g_assert_cmpint (chrono_trace_get_world_size (trace), ==, 8);
  g_assert_cmpint (stream->type, ==, CHRONO_TRACK_STREAM);
  g_assert_cmpint (comm->type, ==, CHRONO_TRACK_STREAM);
  g_assert_cmpint (host->type, ==, CHRONO_TRACK_THREAD);
  g_assert_true (gpu->is_device);
  g_assert_cmpint (gpu->device_index, ==, 0);
  g_assert_cmpstr (chrono_trace_get_string (trace, gpu->display_name), ==, "GPU 0");

  /* The base is added after the events were read. */
  g_assert_cmpint (host->start[0], ==, G_GINT64_CONSTANT (1735632360000000000));
  g_assert_cmpint (chrono_trace_get_start_ns (trace), ==, G_GINT64_CONSTANT (1735632360000000000));

  g_assert_cmpint (host->kind[span_named (trace, host, "ProfilerStep#7")], ==, CHRONO_KIND_STEP);
  g_assert_cmpint (host->kind[span_named (trace, host, "aten::mm")], ==, CHRONO_KIND_HOST_OP);
  g_assert_cmpint (host->kind[launch], ==, CHRONO_KIND_RUNTIME);
  g_assert_cmpint (stream->kind[0], ==, CHRONO_KIND_KERNEL);
  g_assert_cmpint (comm->kind[0], ==, CHRONO_KIND_COLLECTIVE);
  g_assert_cmpint (comm->kind[1], ==, CHRONO_KIND_COLLECTIVE);
  g_assert_nonnull (host->correlation.data);
  g_assert_cmpint (chrono_track_get_correlation (host, launch), ==, 99);
  g_assert_cmpint (chrono_track_get_correlation (stream, 0), ==, 99);

  /* One ac2g flow and one launch link, both from the launch to sgemm; the
   * dangling 'f' on the runtime thread makes no edge. */
  for (guint i = 0; i < chrono_trace_get_n_flows (trace); i++)
    {
      const ChronoFlow *f = chrono_trace_get_flow (trace, i);

      g_assert_cmpint (f->from.track, ==, test_track_index (trace, host));
      g_assert_cmpint (f->from.index, ==, launch);
      g_assert_cmpint (f->to.track, ==, test_track_index (trace, stream));
      g_assert_cmpint (f->to.index, ==, 0);
      n_v1 += f->type == CHRONO_FLOW_V1;
      n_launch += f->type == CHRONO_FLOW_LAUNCH;
    }
  g_assert_cmpint (n_v1, ==, 1);
  g_assert_cmpint (n_launch, ==, 1);
  g_assert_cmpint (stats->flows, ==, 1);
  g_assert_cmpint (stats->launch_links, ==, 1);
  g_assert_cmpint (stats->kinds[CHRONO_KIND_COLLECTIVE], ==, 2);
  g_assert_cmpint (phase_count (trace, "M"), ==, 4);
  g_assert_cmpint (phase_count (trace, "f"), ==, 2);
}

static void
test_flows (void)
{
  /* v1: an 'f' without "bp" binds to the next slice that begins; v2:
   * bind_id with flow_out, then flow_in. */
  g_autoptr(ChronoTrace) trace = test_load_json (
    "[{\"ph\":\"X\",\"name\":\"src\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},"
    " {\"ph\":\"s\",\"id\":\"0xa\",\"cat\":\"c\",\"name\":\"n\",\"pid\":1,\"tid\":1,\"ts\":5},"
    " {\"ph\":\"t\",\"id\":\"0xa\",\"cat\":\"c\",\"name\":\"n\",\"pid\":1,\"tid\":2,\"ts\":21},"
    " {\"ph\":\"X\",\"name\":\"step\",\"pid\":1,\"tid\":2,\"ts\":20,\"dur\":5},"
    " {\"ph\":\"f\",\"id\":\"0xa\",\"cat\":\"c\",\"name\":\"n\",\"pid\":1,\"tid\":3,\"ts\":29},"
    " {\"ph\":\"X\",\"name\":\"dst\",\"pid\":1,\"tid\":3,\"ts\":30,\"dur\":5},"
    " {\"ph\":\"X\",\"name\":\"v2a\",\"pid\":1,\"tid\":4,\"ts\":40,\"dur\":5,\"bind_id\":\"0x402\",\"flow_out\":true},"
    " {\"ph\":\"X\",\"name\":\"v2b\",\"pid\":1,\"tid\":5,\"ts\":50,\"dur\":5,\"bind_id\":\"0x402\",\"flow_in\":true}]");
  const char *expected[][2] = { { "src", "step" }, { "step", "dst" }, { "v2a", "v2b" } };

  g_assert_cmpint (chrono_trace_get_n_flows (trace), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const ChronoFlow *f = chrono_trace_get_flow (trace, i);
      const ChronoTrack *from = chrono_trace_get_track (trace, f->from.track);
      const ChronoTrack *to = chrono_trace_get_track (trace, f->to.track);

      g_assert_cmpstr (chrono_trace_get_string (trace, chrono_track_get_name (from, f->from.index)), ==, expected[i][0]);
      g_assert_cmpstr (chrono_trace_get_string (trace, chrono_track_get_name (to, f->to.index)), ==, expected[i][1]);
      g_assert_cmpint (f->type, ==, i < 2 ? CHRONO_FLOW_V1 : CHRONO_FLOW_V2);
    }
}

static void
test_counters_instants_async (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (
    "[{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":1,\"args\":{\"used\":10,\"free\":\"5.5\"}},"
    " {\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":0,\"args\":{\"used\":12,\"free\":4}},"
    " {\"ph\":\"C\",\"name\":\"ctr\",\"pid\":1,\"ts\":0,\"id\":\"0x1\",\"args\":{\"value\":1}},"
    " {\"ph\":\"i\",\"name\":\"mark\",\"pid\":1,\"tid\":1,\"ts\":3,\"s\":\"t\"},"
    " {\"ph\":\"I\",\"name\":\"legacy\",\"pid\":1,\"tid\":1,\"ts\":4},"
    " {\"ph\":\"i\",\"name\":\"proc\",\"pid\":1,\"ts\":3,\"s\":\"p\"},"
    " {\"ph\":\"i\",\"name\":\"glob\",\"pid\":1,\"ts\":3,\"s\":\"g\"},"
    " {\"ph\":\"R\",\"name\":\"navigationStart\",\"pid\":1,\"tid\":1,\"ts\":5},"
    " {\"ph\":\"b\",\"cat\":\"c\",\"name\":\"op\",\"id\":1,\"pid\":1,\"ts\":10},"
    " {\"ph\":\"b\",\"cat\":\"c\",\"name\":\"inner\",\"id\":1,\"pid\":1,\"ts\":11},"
    " {\"ph\":\"n\",\"cat\":\"c\",\"name\":\"point\",\"id\":1,\"pid\":1,\"ts\":12},"
    " {\"ph\":\"e\",\"cat\":\"c\",\"name\":\"inner\",\"id\":1,\"pid\":1,\"ts\":13},"
    " {\"ph\":\"e\",\"cat\":\"c\",\"name\":\"op\",\"id\":1,\"pid\":1,\"ts\":20},"
    " {\"ph\":\"S\",\"cat\":\"c\",\"name\":\"legacy\",\"id\":\"0x5\",\"pid\":1,\"ts\":30},"
    " {\"ph\":\"T\",\"cat\":\"c\",\"name\":\"legacy\",\"id\":\"0x5\",\"pid\":1,\"ts\":31,\"args\":{\"step\":\"s1\"}},"
    " {\"ph\":\"F\",\"cat\":\"c\",\"name\":\"legacy\",\"id\":\"0x5\",\"pid\":1,\"ts\":35},"
    " {\"ph\":\"P\",\"pid\":1,\"tid\":1,\"ts\":40,\"sf\":1},"
    " {\"ph\":\"O\",\"pid\":1,\"ts\":40,\"id\":\"0x1\",\"name\":\"obj\"}]");
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);
  const ChronoTrack *used = test_track_named (trace, "mem used");
  const ChronoTrack *free_track = test_track_named (trace, "mem free");
  const ChronoTrack *ctr = test_track_named (trace, "ctr id: 0x1 value");
  const ChronoTrack *op = test_track_named (trace, "op");
  const ChronoTrack *legacy = test_track_named (trace, "legacy");

  g_assert_cmpint (used->type, ==, CHRONO_TRACK_COUNTER);
  g_assert_cmpint (used->n_samples, ==, 2);
  g_assert_cmpint (used->sample_ts[0], ==, 0);
  g_assert_cmpfloat (used->sample_value[0], ==, 12);
  g_assert_cmpfloat (free_track->sample_value[1], ==, 5.5);
  g_assert_cmpint (ctr->n_samples, ==, 1);
  g_assert_cmpint (stats->counter_samples, ==, 5);

  g_assert_cmpint (test_track_named (trace, "thread 1")->n_instants, ==, 3);
  g_assert_cmpint (stats->instants, ==, 3 + 1 + 1 + 2);

  g_assert_cmpint (op->type, ==, CHRONO_TRACK_ASYNC);
  g_assert_cmpint (op->n_spans, ==, 2);
  g_assert_cmpint (chrono_track_get_dur (op, span_named (trace, op, "op")), ==, 10000);
  g_assert_cmpint (op->depth[span_named (trace, op, "inner")], ==, 1);
  g_assert_cmpint (chrono_track_get_dur (op, span_named (trace, op, "inner")), ==, 2000);
  g_assert_cmpint (op->n_instants, ==, 1);
  g_assert_cmpint (legacy->n_spans, ==, 1);
  g_assert_cmpint (chrono_track_get_dur (legacy, 0), ==, 5000);
  g_assert_cmpint (stats->async_spans, ==, 3);
  g_assert_cmpint (stats->spans, ==, 0);
  /* Samples and objects are counted and reported, not lost silently. */
  g_assert_cmpint (stats->dropped, ==, 2);
  g_assert_cmpint (phase_count (trace, "P"), ==, 1);
  g_assert_cmpint (phase_count (trace, "O"), ==, 1);
}

static void
test_malformed_event (void)
{
  /* An unescaped quote in a name (older Kineto): that event is skipped
   * with a warning naming the byte, the rest loads. */
  g_autoptr(ChronoTrace) trace = test_load_json (
    "{\"traceEvents\":[\n"
    "{\"ph\":\"X\",\"name\":\"ok1\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},\n"
    "{\"ph\":\"X\",\"name\":\"bad \"quoted\" name\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1},\n"
    "{\"ph\":\"X\",\"name\":\"ok2\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1}\n"
    "]}");
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);

  g_assert_cmpint (stats->spans, ==, 2);
  g_assert_cmpint (stats->dropped, ==, 1);
  g_assert_cmpuint (stats->warnings->len, >=, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (stats->warnings, 0), "byte "));
}

static void
test_bad_input (void)
{
  g_autofree char *garbage = load_error ("hello world", 11);
  g_autofree char *empty = load_error ("", 0);
  g_autofree char *blank = load_error ("  \n ", 4);
  g_autofree char *no_events = load_error ("{\"a\":1}", 7);
  g_autofree char *cut = load_error ("{\"displayTimeUnit\":\"m", 21);
  g_autofree char *broken = load_error ("{\"traceEvents\" 5}", 17);

  g_assert_nonnull (strstr (garbage, "bad.json"));
  g_assert_nonnull (strstr (garbage, "byte 0"));
  g_assert_nonnull (strstr (empty, "empty"));
  g_assert_nonnull (strstr (blank, "empty"));
  g_assert_nonnull (strstr (no_events, "traceEvents"));
  g_assert_nonnull (strstr (cut, "before any trace events"));
  g_assert_nonnull (strstr (broken, "byte 15"));
  g_assert_nonnull (strstr (broken, "':'"));
}

/* Everything a track holds, with strings as text, so that two loads can
 * be compared whatever ids their strings got. */
static char *
dump_trace (ChronoTrace *trace)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  char *digest;

#define ADD(value) G_STMT_START { gint64 v_ = (value); g_checksum_update (sum, (const guchar *) &v_, sizeof v_); } G_STMT_END
#define ADD_STR(id) G_STMT_START { const char *s_ = chrono_trace_get_string (trace, (id)); g_checksum_update (sum, (const guchar *) s_, strlen (s_) + 1); } G_STMT_END

  for (guint i = 0; i < chrono_trace_get_n_processes (trace); i++)
    {
      const ChronoProcess *p = chrono_trace_get_process (trace, i);
      ADD_STR (p->display_name);
      ADD (p->is_device);
    }
  for (guint i = 0; i < chrono_trace_get_n_tracks (trace); i++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, i);

      ADD_STR (t->display_name);
      ADD (t->type);
      ADD (t->process);
      ADD (t->n_lanes);
      for (guint32 j = 0; j < t->n_spans; j++)
        {
          ADD (t->start[j]);
          ADD (chrono_track_get_dur (t, j));
          ADD_STR (chrono_track_get_name (t, j));
          ADD_STR (chrono_track_get_cat (t, j));
          ADD ((gint64) chrono_track_get_args (t, j));
          ADD (t->depth[j]);
          ADD (t->lane[j]);
          ADD (t->kind[j]);
          ADD (t->flags[j]);
          ADD (chrono_track_get_correlation (t, j));
        }
      for (guint32 j = 0; j < t->n_instants; j++)
        {
          ADD (t->inst_ts[j]);
          ADD_STR (chrono_track_get_inst_name (t, j));
        }
      for (guint32 j = 0; j < t->n_samples; j++)
        {
          ADD (t->sample_ts[j]);
          ADD ((gint64) (t->sample_value[j] * 1000));
        }
    }
  for (guint i = 0; i < chrono_trace_get_n_flows (trace); i++)
    {
      const ChronoFlow *f = chrono_trace_get_flow (trace, i);
      ADD (f->from.track);
      ADD (f->from.index);
      ADD (f->to.track);
      ADD (f->to.index);
      ADD (f->type);
    }
  ADD ((gint64) chrono_trace_get_stats (trace)->dropped);
  ADD ((gint64) chrono_trace_get_stats (trace)->events);
#undef ADD
#undef ADD_STR
  digest = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return digest;
}

static GBytes *
gzip_bytes (GBytes *plain)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 1);
  g_autoptr(GOutputStream) mem = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) zout = g_converter_output_stream_new (mem, G_CONVERTER (compressor));
  g_autoptr(GError) error = NULL;
  gsize len;
  const char *data = g_bytes_get_data (plain, &len);

  g_assert_true (g_output_stream_write_all (zout, data, len, NULL, NULL, &error));
  g_assert_true (g_output_stream_close (zout, NULL, &error));
  g_assert_no_error (error);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (mem));
}

/* A large file in memory is read as two halves at once; one arriving
 * through gzip in several members (the later ones stream) is read in one
 * pass while it is decompressed; one gzip member is inflated whole and
 * then read as halves. All must build the same model, also for what
 * crosses the middle: B/E pairs, flows, async operations and metadata
 * given late. */
static void
test_split_and_stream_agree (void)
{
  g_autoptr(GString) text = g_string_new ("{\"traceEvents\":[");
  g_autoptr(GBytes) plain = NULL;
  g_autoptr(GBytes) packed = NULL;
  g_autoptr(GBytes) head_plain = NULL;
  g_autoptr(GBytes) tail_plain = NULL;
  g_autoptr(GBytes) head = NULL;
  g_autoptr(GBytes) tail = NULL;
  g_autoptr(GByteArray) members = g_byte_array_new ();
  g_autoptr(GBytes) streamed = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) a = NULL;
  g_autoptr(ChronoTrace) b = NULL;
  g_autoptr(ChronoTrace) c = NULL;
  g_autofree char *dump_a = NULL;
  g_autofree char *dump_b = NULL;
  g_autofree char *dump_c = NULL;
  const guint n = 240000;

  for (guint i = 0; i < n; i++)
    {
      guint ts = i * 3;

      g_string_append_printf (text, "%s{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k%u\",\"pid\":0,\"tid\":%u,"
                              "\"ts\":%u.%03u,\"dur\":1.5,\"args\":{\"correlation\":%u,\"grid\":[1,2,3]}}",
                              i ? ",\n" : "", i % 31, i % 7, ts, i % 1000, i);
      g_string_append_printf (text, ",\n{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\","
                              "\"pid\":\"host\",\"tid\":\"main\",\"ts\":%u,\"dur\":1,\"args\":{\"correlation\":%u}}", ts, i);
      if (i % 1000 == 0)
        g_string_append_printf (text, ",\n{\"ph\":\"B\",\"name\":\"outer%u\",\"pid\":1,\"tid\":1,\"ts\":%u}", i, ts);
      if (i % 1000 == 999)
        g_string_append_printf (text, ",\n{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":%u}", ts);
      if (i % 50 == 0)
        g_string_append_printf (text, ",\n{\"ph\":\"s\",\"id\":%u,\"cat\":\"ac2g\",\"name\":\"ac2g\",\"pid\":\"host\",\"tid\":\"main\",\"ts\":%u}", i / 50, ts);
      if (i % 50 == 25)
        g_string_append_printf (text, ",\n{\"ph\":\"f\",\"bp\":\"e\",\"id\":%u,\"cat\":\"ac2g\",\"name\":\"ac2g\",\"pid\":0,\"tid\":%u,\"ts\":%u.%03u}",
                                i / 50, i % 7, ts, i % 1000);
      if (i % 20000 == 100)
        g_string_append_printf (text, ",\n{\"ph\":\"b\",\"cat\":\"io\",\"name\":\"read\",\"id\":\"0x%x\",\"pid\":1,\"ts\":%u}", i, ts);
      if (i % 20000 == 19999)
        g_string_append_printf (text, ",\n{\"ph\":\"e\",\"cat\":\"io\",\"name\":\"read\",\"id\":\"0x%x\",\"pid\":1,\"ts\":%u}", i - 19899, ts);
      if (i % 5000 == 0)
        g_string_append_printf (text, ",\n{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":%u,\"args\":{\"used\":%u}}", ts, i);
    }
  /* An async operation that begins in the first half and ends in the
   * second, and names given only at the end. */
  g_string_append (text, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":0,\"tid\":3,\"args\":{\"name\":\"stream 3\"}}");
  g_string_append (text, ",\n{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":0,\"args\":{\"labels\":\"GPU 0\"}}");
  g_string_append (text, "],\"traceName\":\"t\"}");
  plain = g_bytes_new (text->str, text->len);
  packed = gzip_bytes (plain);
  g_assert_cmpuint (text->len, >, 32 << 20);
  /* A small first member: the rest streams through zlib. */
  head_plain = g_bytes_new_static (text->str, 4096);
  tail_plain = g_bytes_new_static (text->str + 4096, text->len - 4096);
  head = gzip_bytes (head_plain);
  tail = gzip_bytes (tail_plain);
  g_byte_array_append (members, g_bytes_get_data (head, NULL), g_bytes_get_size (head));
  g_byte_array_append (members, g_bytes_get_data (tail, NULL), g_bytes_get_size (tail));
  streamed = g_byte_array_free_to_bytes (g_steal_pointer (&members));

  a = chrono_trace_load_bytes (plain, "plain.json", &error);
  g_assert_no_error (error);
  b = chrono_trace_load_bytes (packed, "packed.json.gz", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (chrono_trace_get_compression (b), ==, "gzip");
  g_assert_cmpint (chrono_trace_get_stats (a)->spans, ==, 2 * n + n / 1000);
  g_assert_cmpint (chrono_trace_get_stats (a)->async_spans, ==, n / 20000);
  g_assert_cmpint (chrono_trace_get_stats (a)->launch_links, ==, n);
  g_assert_cmpint (chrono_trace_get_stats (a)->flows, ==, n / 50);
  g_assert_cmpint (chrono_trace_get_stats (a)->dropped, ==, 0);
  g_assert_false (chrono_trace_get_stats (b)->truncated);
  c = chrono_trace_load_bytes (streamed, "streamed.json.gz", &error);
  g_assert_no_error (error);
  g_assert_false (chrono_trace_get_stats (c)->truncated);
  dump_a = dump_trace (a);
  dump_b = dump_trace (b);
  dump_c = dump_trace (c);
  g_assert_cmpstr (dump_a, ==, dump_b);
  g_assert_cmpstr (dump_a, ==, dump_c);
}

/* Keys as the event loop tells them apart: the last of repeated keys wins,
 * whatever shape its value has, and a key that only starts like a known
 * one (a raw NUL after "ph", a longer name) is not that key. */
static void
test_key_forms (void)
{
  static const char text[] =
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":2,\"ts\":5,\"ts\":\"7\",\"dur\":2.5,\"dur\":3},\n"
    "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":2,\"ts\":\"9\",\"ts\":11.0004,\"dur\":1,\"durx\":5},\n"
    "{\"ph\0\":\"X\",\"name\":\"c\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":1}]";
  g_autoptr(GBytes) bytes = g_bytes_new (text, sizeof text - 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = chrono_trace_load_bytes (bytes, "keys.json", &error);
  const ChronoTrack *t;
  gint64 a, b;

  g_assert_no_error (error);
  t = test_track_named (trace, "thread 2");
  g_assert_cmpint (t->n_spans, ==, 2);
  a = span_named (trace, t, "a");
  b = span_named (trace, t, "b");
  g_assert_cmpint (t->start[a], ==, 7000);
  g_assert_cmpint (chrono_track_get_dur (t, a), ==, 3000);
  g_assert_cmpint (t->start[b], ==, 11000);
  g_assert_cmpint (chrono_track_get_dur (t, b), ==, 1000);
  /* The third event has no "ph". */
  g_assert_cmpuint (chrono_trace_get_stats (trace)->events, ==, 3);
  g_assert_cmpuint (chrono_trace_get_stats (trace)->dropped, ==, 1);
}

/* A baseTimeNanoseconds on times that are absolute already would carry
 * them past the 64-bit range: it is left out, and said so. */
static void
test_base_time_overflow (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (
    "{\"baseTimeNanoseconds\": 1775078550000000000, \"traceEvents\": ["
    "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":8851138511388202.755,\"dur\":0.3,\"name\":\"a\"}]}");
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);
  gboolean said = FALSE;

  g_assert_cmpint (chrono_trace_get_base_time_ns (trace), ==, 0);
  g_assert_cmpint (chrono_trace_get_start_ns (trace), ==, G_GINT64_CONSTANT (8851138511388202755));
  g_assert_cmpint (chrono_trace_get_end_ns (trace), ==, G_GINT64_CONSTANT (8851138511388203055));
  for (guint i = 0; i < stats->warnings->len; i++)
    said |= strstr (g_ptr_array_index (stats->warnings, i), "baseTimeNanoseconds") != NULL;
  g_assert_true (said);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/importer/nesting-unsorted", test_nesting_unsorted);
  g_test_add_func ("/importer/unclosed-and-stray", test_unclosed_and_stray);
  g_test_add_func ("/importer/truncated", test_truncated);
  g_test_add_func ("/importer/quirks", test_quirks);
  g_test_add_func ("/importer/base-time-overflow", test_base_time_overflow);
  g_test_add_func ("/importer/key-forms", test_key_forms);
  g_test_add_func ("/importer/kineto", test_kineto);
  g_test_add_func ("/importer/flows", test_flows);
  g_test_add_func ("/importer/counters-instants-async", test_counters_instants_async);
  g_test_add_func ("/importer/malformed-event", test_malformed_event);
  g_test_add_func ("/importer/bad-input", test_bad_input);
  g_test_add_func ("/importer/split-and-stream-agree", test_split_and_stream_agree);
  return g_test_run ();
}
