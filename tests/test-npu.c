/* test-npu.c: Ascend NPU traces (torch_npu's trace_view.json) analysed as
 * a GPU's are: the device's rows, its ledger beside the profiler's own
 * overlap analysis, its operators' efficiency, and the line that says
 * when a trace holds no device work the analysis knows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-analysis.h"
#include "chrono-comparison.h"
#include "chrono-efficiency.h"
#include "chrono-job.h"
#include "chrono-profiler-overlap.h"
#include "chrono-trace-set.h"
#include "chrono-loader.h"
#include "test-utils.h"

#define LEVEL0 "msinsight__npu_ddp_level0_rank0__trace_view.json"
#define LEVEL2 "msinsight__npu_ddp_level2_rank0__trace_view.json"

static ChronoAnalysis *
analyse (ChronoTrace *trace)
{
  g_autoptr(GError) error = NULL;
  ChronoAnalysis *a = chrono_analysis_run (&trace, 1, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (a);
  return a;
}

static const ChronoProcess *
process_named (ChronoTrace *trace,
               const char  *name)
{
  for (guint i = 0; i < chrono_trace_get_n_processes (trace); i++)
    {
      const ChronoProcess *p = chrono_trace_get_process (trace, i);

      if (g_strcmp0 (chrono_trace_get_string (trace, p->display_name), name) == 0)
        return p;
    }
  g_error ("no process is named %s", name);
  return NULL;
}

/* The kind of the first span named NAME on T. */
static ChronoKind
kind_of (ChronoTrace       *trace,
         const ChronoTrack *t,
         const char        *name)
{
  for (guint32 i = 0; i < t->n_spans; i++)
    if (strcmp (chrono_trace_get_string (trace, chrono_track_get_name (t, i)), name) == 0)
      return t->kind[i];
  g_error ("no span is named %s", name);
  return CHRONO_KIND_OTHER;
}

/* The events of the trace NAME, read with json-glib, and the pid of each
 * process by its name. */
static JsonArray *
read_events (const char  *name,
             JsonNode   **root,
             GHashTable  *pids)
{
  g_autofree char *path = g_build_filename (g_getenv ("CHRONO_TRACES_DIR"), name, NULL);
  JsonArray *events;

  *root = test_parse_json_file (path);
  events = json_node_get_array (*root);
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (e, "name", ""), "process_name") == 0)
        g_hash_table_insert (pids, g_strdup (json_object_get_string_member (json_object_get_object_member (e, "args"), "name")),
                             GSIZE_TO_POINTER ((gsize) json_object_get_int_member (e, "pid")));
    }
  return events;
}

static gboolean
in_process (JsonObject *e,
            GHashTable *pids,
            const char *process)
{
  return json_object_has_member (e, "pid") && g_hash_table_contains (pids, process) &&
         (gsize) json_object_get_int_member (e, "pid") == GPOINTER_TO_SIZE (g_hash_table_lookup (pids, process));
}

static JsonObject *
args_of (JsonObject *e)
{
  return json_object_has_member (e, "args") ? json_object_get_object_member (e, "args") : NULL;
}

static gint64
connection_id (JsonObject *e)
{
  JsonObject *args = args_of (e);

  return args && json_object_has_member (args, "connection_id") ? json_object_get_int_member (args, "connection_id") : -1;
}

/* Tasks on the device (its streams, HCCL's collectives) whose
 * connection_id one of CANN's calls has; a stream's tasks that share a
 * collective's id are that collective's steps, not tasks of their own. */
static guint
count_launched (const char *name)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GHashTable) pids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) calls = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GHashTable) collectives = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  JsonArray *events = read_events (name, &root, pids);
  guint n = 0;

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      gint64 id = connection_id (e);

      if (id >= 0 && in_process (e, pids, "CANN"))
        g_hash_table_add (calls, g_memdup2 (&id, sizeof id));
      if (id >= 0 && in_process (e, pids, "HCCL"))
        g_hash_table_add (collectives, g_memdup2 (&id, sizeof id));
    }
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      gint64 id = connection_id (e);
      JsonObject *args = args_of (e);
      const char *type = args ? json_object_get_string_member_with_default (args, "Task Type", "") : "";
      gboolean work = in_process (e, pids, "HCCL") ||
                      (in_process (e, pids, "Ascend Hardware") && g_strcmp0 (type, "") != 0 &&
                       !g_hash_table_contains (collectives, &id));

      if (id >= 0 && work && g_hash_table_contains (calls, &id))
        n++;
    }
  return n;
}

static void
test_lanes (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (LEVEL2);
  const ChronoProcess *hardware, *hccl, *python;
  const ChronoTrack *stream, *group;
  guint launches = 0;

  if (trace == NULL)
    return;
  hardware = process_named (trace, "Rank 0 · NPU 0 · Ascend Hardware");
  hccl = process_named (trace, "Rank 0 · NPU 0 · HCCL");
  g_assert_true (hardware->is_device && hccl->is_device);
  g_assert_cmpint (hardware->device_index, ==, 0);
  g_assert_cmpint (hccl->device_index, ==, 0);
  python = process_named (trace, "Rank 0 · Python (3178231)");
  g_assert_false (python->is_device);

  stream = test_track_named (trace, "Stream 2");
  g_assert_cmpint (stream->type, ==, CHRONO_TRACK_STREAM);
  g_assert_cmpint (kind_of (trace, stream, "aclnnMuls_MulAiCore_Mul"), ==, CHRONO_KIND_KERNEL);
  g_assert_cmpint (kind_of (trace, stream, "MEMCPY_ASYNC"), ==, CHRONO_KIND_MEMCPY);
  g_assert_cmpint (kind_of (trace, stream, "EVENT_WAIT"), ==, CHRONO_KIND_SYNC);
  /* HCCL's steps are shown on the stream but are not work: the
   * collective they make up is. */
  g_assert_cmpint (kind_of (trace, test_track_named (trace, "Stream 4"), "Notify Wait"), ==, CHRONO_KIND_OTHER);
  group = test_track_named (trace, "Group 0 Communication");
  g_assert_cmpint (group->type, ==, CHRONO_TRACK_STREAM);
  g_assert_cmpint (kind_of (trace, group, "hcom_allReduce__271_0_1"), ==, CHRONO_KIND_COLLECTIVE);
  g_assert_cmpint (test_track_named (trace, "AI Core Freq MHz")->type, ==, CHRONO_TRACK_COUNTER);

  /* CANN's calls are joined to the tasks they launched by connection_id:
   * as many launches as tasks whose id a CANN call has. */
  for (guint i = 0; i < chrono_trace_get_n_flows (trace); i++)
    {
      const ChronoFlow *f = chrono_trace_get_flow (trace, i);
      const ChronoTrack *from = chrono_trace_get_track (trace, f->from.track);
      const ChronoTrack *to = chrono_trace_get_track (trace, f->to.track);

      if (f->type != CHRONO_FLOW_LAUNCH)
        continue;
      g_assert_cmpint (from->type, ==, CHRONO_TRACK_THREAD);
      g_assert_cmpint (to->type, ==, CHRONO_TRACK_STREAM);
      g_assert_true (chrono_trace_get_process (trace, to->process)->is_device);
      launches++;
    }
  g_assert_cmpuint (launches, ==, count_launched (LEVEL2));
  g_assert_cmpuint (launches, >, 100);
}

/* The trace's Overlap Analysis rows, read with json-glib: each row's
 * spans merged, in ns from the trace's first whole microsecond. */
typedef struct {
  gint64 row_ns[CHRONO_N_OVERLAP_ROWS];
  gint64 start_ns;
  gint64 end_ns;
  gint64 origin_us;
} Theirs;

static const char * const row_names[] = {
  "Computing", "Communication", "Communication(Not Overlapped)", "Free",
};

static gint
compare_pairs (gconstpointer a,
               gconstpointer b)
{
  const gint64 *x = a, *y = b;

  return x[0] < y[0] ? -1 : x[0] > y[0];
}

static gint64
ns_of (const char *ts,
       gint64      origin_us)
{
  const char *dot = strchr (ts, '.');

  return (g_ascii_strtoll (ts, NULL, 10) - origin_us) * 1000 +
         (dot ? (gint64) (g_ascii_strtod (dot, NULL) * 1000 + 0.5) : 0);
}

static void
read_theirs (const char *path,
             Theirs     *out)
{
  g_autoptr(JsonNode) root = test_parse_json_file (path);
  JsonArray *events = json_node_get_array (root);
  gint64 overlap_pid = -1;
  GArray *spans[CHRONO_N_OVERLAP_ROWS];

  memset (out, 0, sizeof *out);
  out->start_ns = G_MAXINT64;
  out->end_ns = G_MININT64;
  for (guint k = 0; k < CHRONO_N_OVERLAP_ROWS; k++)
    spans[k] = g_array_new (FALSE, FALSE, 2 * sizeof (gint64));
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (e, "name", ""), "process_name") == 0 &&
          g_strcmp0 (json_object_get_string_member (json_object_get_object_member (e, "args"), "name"),
                     "Overlap Analysis") == 0)
        overlap_pid = json_object_get_int_member (e, "pid");
      if (out->origin_us == 0 && json_object_has_member (e, "ts"))
        out->origin_us = g_ascii_strtoll (json_object_get_string_member (e, "ts"), NULL, 10);
    }
  g_assert_cmpint (overlap_pid, >=, 0);
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *name = json_object_get_string_member_with_default (e, "name", "");

      if (json_object_get_int_member_with_default (e, "pid", -1) != overlap_pid ||
          g_strcmp0 (json_object_get_string_member_with_default (e, "ph", ""), "X") != 0)
        continue;
      for (guint k = 0; k < CHRONO_N_OVERLAP_ROWS; k++)
        if (strcmp (name, row_names[k]) == 0)
          {
            gint64 span[2];

            span[0] = ns_of (json_object_get_string_member (e, "ts"), out->origin_us);
            span[1] = span[0] + (gint64) (json_object_get_double_member (e, "dur") * 1000 + 0.5);
            g_array_append_val (spans[k], span);
            out->start_ns = MIN (out->start_ns, span[0]);
            out->end_ns = MAX (out->end_ns, span[1]);
          }
    }
  for (guint k = 0; k < CHRONO_N_OVERLAP_ROWS; k++)
    {
      gint64 reach = G_MININT64;

      g_array_sort (spans[k], compare_pairs);
      for (guint i = 0; i < spans[k]->len; i++)
        {
          const gint64 *s = &g_array_index (spans[k], gint64, 2 * i);

          out->row_ns[k] += MAX (0, s[1] - MAX (s[0], reach));
          reach = MAX (reach, s[1]);
        }
      g_array_unref (spans[k]);
    }
}

/* Ours within a hundredth of the window of theirs, which the test reads
 * from the file itself. */
static void
check_overlap (const char *name)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (name);
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autoptr(GArray) overlaps = NULL;
  g_autofree char *path = NULL;
  const ChronoProfilerOverlap *o;
  gint64 window, hundredth, origin;
  Theirs theirs;

  if (trace == NULL)
    return;
  path = g_build_filename (g_getenv ("CHRONO_TRACES_DIR"), name, NULL);
  read_theirs (path, &theirs);
  a = analyse (trace);
  overlaps = chrono_profiler_overlap_find (a);
  g_assert_cmpuint (overlaps->len, ==, 1);
  o = &g_array_index (overlaps, ChronoProfilerOverlap, 0);
  g_assert_cmpint (o->device, ==, 0);

  /* Theirs as the file says, to the microsecond's rounding. */
  origin = theirs.origin_us * 1000;
  g_assert_cmpint (ABS (o->start_ns - origin - theirs.start_ns), <=, 1);
  g_assert_cmpint (ABS (o->end_ns - origin - theirs.end_ns), <=, 1);
  for (guint k = 0; k < CHRONO_N_OVERLAP_ROWS; k++)
    g_assert_cmpint (ABS (o->theirs_ns[k] - theirs.row_ns[k]), <=, 1000);

  window = theirs.end_ns - theirs.start_ns;
  hundredth = window / 100;
  g_assert_cmpint (o->compute_ns + o->exposed_ns + o->copy_ns + o->idle_ns, ==, o->end_ns - o->start_ns);
  g_assert_cmpint (ABS (o->compute_ns - theirs.row_ns[CHRONO_OVERLAP_COMPUTING]), <=, hundredth);
  g_assert_cmpint (ABS (o->exposed_ns - theirs.row_ns[CHRONO_OVERLAP_NOT_OVERLAPPED]), <=, hundredth);
  g_assert_cmpint (ABS (o->communication_ns - theirs.row_ns[CHRONO_OVERLAP_COMMUNICATION]), <=, hundredth);
  /* Copies that ran alone are free in theirs. */
  g_assert_cmpint (ABS (o->idle_ns + o->copy_ns - theirs.row_ns[CHRONO_OVERLAP_FREE]), <=, hundredth);
  g_assert_null (chrono_profiler_overlap_note (o));
}

static void
test_overlap_level0 (void)
{
  check_overlap (LEVEL0);
}

static void
test_overlap_level2 (void)
{
  check_overlap (LEVEL2);
}

static const ChronoLimitation *
limitation (ChronoAnalysis *a,
            const char     *id)
{
  for (guint i = 0; i < chrono_analysis_get_n_limitations (a); i++)
    if (strcmp (chrono_analysis_get_limitation (a, i)->id, id) == 0)
      return chrono_analysis_get_limitation (a, i);
  return NULL;
}

/* Host operators and no device work: said in one line, never silence. */
static void
check_no_device (const char *name,
                 const char *says)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (name);
  g_autoptr(ChronoAnalysis) a = NULL;
  const ChronoLimitation *l;

  if (trace == NULL)
    return;
  a = analyse (trace);
  l = limitation (a, "no-device");
  if (says == NULL)
    {
      g_assert_null (l);
      return;
    }
  g_assert_nonnull (l);
  g_assert_nonnull (strstr (l->message, says));
}

/* CANN's runtime launch inside the node launch that carries the task's
 * id is one launch: the level-2 trace is not taken for one whose device
 * work is missing. */
static void
test_launch_layers (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (LEVEL2);
  g_autoptr(ChronoAnalysis) a = NULL;

  if (trace == NULL)
    return;
  a = analyse (trace);
  g_assert_null (limitation (a, "missing-device-activity"));
  g_assert_null (limitation (a, "no-launch-links"));
}

/* At level 0 the trace has no CANN calls: each operator's "async_npu"
 * flow to its task is that task's launch, so the device's idle time is
 * split by what the host did. */
static void
test_operator_launches (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (LEVEL0);
  g_autoptr(ChronoAnalysis) a = NULL;
  const ChronoLedgerRow *row;
  guint n_launches = 0;

  if (trace == NULL)
    return;
  for (guint f = 0; f < chrono_trace_get_n_flows (trace); f++)
    {
      const ChronoFlow *flow = chrono_trace_get_flow (trace, f);

      if (flow->type != CHRONO_FLOW_LAUNCH)
        continue;
      g_assert_cmpint (chrono_trace_get_track (trace, flow->from.track)->type, ==, CHRONO_TRACK_THREAD);
      g_assert_cmpint (chrono_trace_get_track (trace, flow->to.track)->type, ==, CHRONO_TRACK_STREAM);
      n_launches++;
    }
  /* 210 "async_npu" flows, each to a task of its own. */
  g_assert_cmpuint (n_launches, ==, 210);
  a = analyse (trace);
  g_assert_null (limitation (a, "no-launch-links"));
  row = chrono_analysis_get_ledger_row (a, 0);
  g_assert_cmpint (row->step, <, 0);
  g_assert_cmpint (row->state_ns[CHRONO_LEDGER_IDLE_HOST], >, 0);
}

/* A backend the analysis does not know is named, not ignored. */
static void
test_unknown_backend (void)
{
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[");
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  const ChronoLimitation *l;

  test_append_complete_event (json, "cpu_op", "aten::mm", 1, 1, 0, 100, "");
  test_append_complete_event (json, "foo_task", "matmul_tile", 2, 7, 10, 50, "");
  g_string_append (json, ",{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2,"
                         "\"args\":{\"name\":\"Foo Accelerator\"}}]}");
  trace = test_load_json (json->str);
  a = analyse (trace);
  l = limitation (a, "no-device");
  g_assert_nonnull (l);
  g_assert_nonnull (strstr (l->message, "Foo Accelerator"));
  g_assert_null (strstr (l->message, "(1)"));
}

static void
test_no_device (void)
{
  check_no_device ("hta__cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", "no device work");
  check_no_device ("hta__distributed_info_unavailable__distributed_info_not_found.json.gz", "no device work");
  check_no_device (LEVEL0, NULL);
  check_no_device (LEVEL2, NULL);
}

/* ------------------------------------------------------------------ */
/* Two ranks of one run as a job                                       */

/* Rank 1's clock runs this far ahead of rank 0's, and it reaches the
 * collective LATE_COLLECTIVE this late. */
#define SHIFT_US        250
#define DELAY_US        1500
#define LATE_COLLECTIVE 1

/* TS, a decimal string of microseconds, moved by US. */
static void
move_ts (JsonObject *e,
         gint64      us)
{
  const char *ts = json_object_get_string_member (e, "ts");
  const char *dot = strchr (ts, '.');
  g_autofree char *moved = g_strdup_printf ("%" G_GINT64_FORMAT "%s", g_ascii_strtoll (ts, NULL, 10) + us,
                                            dot ? dot : "");

  json_object_set_string_member (e, "ts", moved);
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The start of the K-th of HCCL's collectives (hcom_*), by start. */
static char *
collective_start (JsonArray  *events,
                  GHashTable *pids,
                  guint       k)
{
  g_autoptr(GPtrArray) starts = g_ptr_array_new ();

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);

      if (in_process (e, pids, "HCCL") &&
          g_str_has_prefix (json_object_get_string_member_with_default (e, "name", ""), "hcom_"))
        g_ptr_array_add (starts, (gpointer) json_object_get_string_member (e, "ts"));
    }
  g_assert_cmpuint (starts->len, >, k);
  g_ptr_array_sort (starts, compare_strings);
  return g_strdup (starts->pdata[k]);
}

/* Rank 1 of the run whose rank 0 wrote NAME, as torch_npu would write it:
 * its own clock, SHIFT_US ahead; its own rank in HCCL's steps; and the
 * collective LATE_COLLECTIVE reached DELAY_US after rank 0 reached it,
 * ending with it (a collective ends when its last rank arrives), so
 * everything that started with it on rank 0 starts that much later. */
static char *
derive_rank1 (const char *name)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GHashTable) pids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  JsonArray *events = read_events (name, &root, pids);
  g_autofree char *late = collective_start (events, pids, LATE_COLLECTIVE);

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      JsonObject *args = args_of (e);

      if (!json_object_has_member (e, "ts"))
        continue;
      if (strcmp (json_object_get_string_member (e, "ts"), late) == 0)
        {
          move_ts (e, DELAY_US);
          if (json_object_has_member (e, "dur"))
            json_object_set_double_member (e, "dur", MAX (0, json_object_get_double_member (e, "dur") - DELAY_US));
        }
      move_ts (e, SHIFT_US);
      if (args && json_object_has_member (args, "src rank"))
        json_object_set_int_member (args, "src rank", 1);
    }
  return json_to_string (root, FALSE);
}

static ChronoRankSummary *
summarise (ChronoTrace *trace)
{
  g_autoptr(GError) error = NULL;
  ChronoRankSummary *summary = chrono_rank_summary_new_from_trace (trace, NULL, NULL, &error);

  g_assert_no_error (error);
  return summary;
}

/* The job finds the skew planted at the late collective, and none at the
 * others, once the clocks are aligned on the collectives' ends. */
static void
test_job (void)
{
  g_autoptr(ChronoTrace) rank0 = test_traces_load (LEVEL2);
  g_autoptr(ChronoTrace) rank1 = NULL;
  g_autoptr(ChronoRankSummary) s0 = NULL;
  g_autoptr(ChronoRankSummary) s1 = NULL;
  g_autoptr(JsonNode) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  ChronoRankSummary *summaries[2];
  JsonArray *collectives;

  if (rank0 == NULL)
    return;
  text = derive_rank1 (LEVEL2);
  rank1 = test_load_json (text);
  summaries[0] = s0 = summarise (rank0);
  summaries[1] = s1 = summarise (rank1);
  job = chrono_job_reduce (summaries, 2, NULL, &error);
  g_assert_no_error (error);
  collectives = json_object_get_array_member (json_node_get_object (job), "collectives");
  g_assert_cmpuint (json_array_get_length (collectives), ==, 4);
  for (guint k = 0; k < json_array_get_length (collectives); k++)
    {
      JsonObject *c = json_array_get_object_element (collectives, k);

      g_assert_cmpint (json_object_get_int_member (c, "skew_ns"), ==, k == LATE_COLLECTIVE ? DELAY_US * 1000 : 0);
    }
}

/* The critical path of the level-2 step walks the NPU: the host waits in
 * CANN's stream synchronisation, written in a process of its own on the
 * same thread as the step, for the device, whose path runs through its
 * tasks and HCCL's all-reduce. Each segment lies inside the span it
 * names, host calls on threads and work on the device's rows, and the
 * segments cover the step without gaps. */
/* The step's critical path through the NPU: the host waits in WAIT (a
 * call on the step's own thread), then HCCL's all-reduce. */
static void
check_critical_path (const char *name,
                     const char *wait)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (name);
  g_autoptr(ChronoAnalysis) a = NULL;
  const ChronoCriticalPath *p;
  const ChronoTrack *step_thread;
  gint64 at, sum = 0;
  gboolean waited = FALSE, hccl = FALSE;

  if (trace == NULL)
    return;
  a = analyse (trace);
  g_assert_cmpuint (chrono_analysis_get_n_paths (a), ==, 1);
  p = chrono_analysis_get_path (a, 0);
  g_assert_cmpstr (p->name, ==, "ProfilerStep#50");
  step_thread = chrono_trace_get_track (trace, p->track);
  g_assert_cmpint (p->total_ns, ==, p->end_ns - p->start_ns);
  g_assert_cmpint (p->end_ns, <=, chrono_trace_get_end_ns (trace));
  at = p->start_ns;
  for (guint k = 0; k < p->n_segments; k++)
    {
      const ChronoPathSegment *s = &p->segments[k];
      const ChronoTrack *t;
      const ChronoProcess *proc;

      g_assert_cmpint (s->start_ns, ==, at);
      g_assert_cmpint (s->end_ns, >, s->start_ns);
      at = s->end_ns;
      sum += s->end_ns - s->start_ns;
      if (!s->has_node)
        continue;
      t = chrono_trace_get_track (trace, s->node.span.track);
      proc = chrono_trace_get_process (trace, t->process);
      g_assert_cmpint (s->start_ns, >=, t->start[s->node.span.index]);
      g_assert_cmpint (s->end_ns, <=, chrono_track_get_end (t, s->node.span.index));
      if (s->category == CHRONO_PATH_DEVICE_COMPUTE || s->category == CHRONO_PATH_COMMUNICATION ||
          s->category == CHRONO_PATH_MEMCPY)
        {
          g_assert_true (proc->is_device);
          g_assert_cmpint (t->type, ==, CHRONO_TRACK_STREAM);
        }
      else
        g_assert_cmpint (t->type, ==, CHRONO_TRACK_THREAD);
      hccl |= s->category == CHRONO_PATH_COMMUNICATION &&
              strcmp (chrono_trace_get_string (trace, t->name), "Group 0 Communication") == 0;
      if (s->category == CHRONO_PATH_HOST_COMPUTE &&
          strstr (chrono_trace_get_string (trace, chrono_track_get_name (t, s->node.span.index)), wait) != NULL)
        {
          g_assert_cmpint (t->tid.value, ==, step_thread->tid.value);
          waited = TRUE;
        }
    }
  g_assert_cmpint (at, ==, p->end_ns);
  g_assert_cmpint (sum, ==, p->total_ns);
  g_assert_true (waited);
  g_assert_true (hccl);
  g_assert_cmpint (p->by_category[CHRONO_PATH_DEVICE_COMPUTE], >, 0);
  /* The all-reduce the host waited for is most of the step. */
  g_assert_cmpint (p->by_category[CHRONO_PATH_COMMUNICATION], >, p->total_ns / 2);
}

/* CANN's stream synchronisation is the host's wait. */
static void
test_critical_path_level2 (void)
{
  check_critical_path (LEVEL2, "Synchronize");
}

/* Without CANN's calls (profiler level 0), the operator that read the
 * device's scalar into the host is the wait, and the operators' flows to
 * their tasks are the launches. */
static void
test_critical_path_level0 (void)
{
  check_critical_path (LEVEL0, "aten::_local_scalar_dense");
}

/* TEXT written as the Ascend profiler keeps a rank's output, under the
 * folder FOLDER of DIR; the file's path. */
static char *
write_output (const char *dir,
              const char *folder,
              const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = g_build_filename (dir, folder, "ASCEND_PROFILER_OUTPUT", NULL);
  char *path = g_build_filename (out, "trace_view.json", NULL);

  g_assert_cmpint (g_mkdir_with_parents (out, 0700), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  return path;
}

static ChronoTrace *
load_path (const char *path)
{
  g_autoptr(GError) error = NULL;
  ChronoTrace *trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

/* The rank torch_npu's trace does not declare: the one HCCL's tasks name
 * as their source, else the one the names its output is kept under say;
 * two ranks' files open as one job, each with its own. */
static void
test_rank (void)
{
  g_autoptr(ChronoTrace) level0 = test_traces_load (LEVEL0);
  g_autoptr(ChronoTrace) level2 = test_traces_load (LEVEL2);
  g_autoptr(ChronoTrace) folder = NULL;
  g_autoptr(ChronoTrace) unnamed = NULL;
  g_autoptr(ChronoTrace) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *text0 = NULL;
  g_autofree char *text1 = NULL;
  g_autofree char *path2 = NULL;
  g_autofree char *path1 = NULL;
  g_autofree char *path3 = NULL;
  g_autofree char *path_none = NULL;
  const char *paths[3];

  if (level0 == NULL)
    return;
  /* Level 0 has no HCCL tasks, so its file's name tells. */
  g_assert_cmpint (chrono_trace_get_rank (level0), ==, 0);
  g_assert_cmpint (chrono_trace_get_rank (level2), ==, 0);
  process_named (level2, "Rank 0 · Python (3178231)");
  process_named (level2, "Rank 0 · NPU 0 · Ascend Hardware");

  dir = g_dir_make_tmp ("chrono-npu-XXXXXX", &error);
  g_assert_no_error (error);
  path2 = g_build_filename (g_getenv ("CHRONO_TRACES_DIR"), LEVEL0, NULL);
  g_file_get_contents (path2, &text0, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&path2, g_free);
  path3 = write_output (dir, "rank3_ascend_pt", text0);
  path_none = write_output (dir, "node7_1234_20250109_ascend_pt", text0);
  folder = load_path (path3);
  g_assert_cmpint (chrono_trace_get_rank (folder), ==, 3);
  process_named (folder, "Rank 3 · NPU 0 · Ascend Hardware");
  unnamed = load_path (path_none);
  g_assert_cmpint (chrono_trace_get_rank (unnamed), ==, -1);
  process_named (unnamed, "NPU 0 · Ascend Hardware");

  /* Rank 1's output kept under a folder that names no rank: its HCCL
   * tasks tell. */
  text1 = derive_rank1 (LEVEL2);
  path1 = write_output (dir, "worker_b_ascend_pt", text1);
  path2 = g_build_filename (g_getenv ("CHRONO_TRACES_DIR"), LEVEL2, NULL);
  paths[0] = path2;
  paths[1] = path1;
  paths[2] = NULL;
  job = chrono_trace_load_set (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_trace_get_n_parts (job), ==, 2);
  g_assert_cmpint (chrono_trace_get_part (job, 0)->rank, ==, 0);
  g_assert_cmpint (chrono_trace_get_part (job, 1)->rank, ==, 1);
  process_named (job, "Rank 1 · NPU 0 · Ascend Hardware");
  test_remove_tree (dir);
}

static const ChronoCompareRow *
kernel_row (ChronoComparison *c,
            const char       *name)
{
  for (guint i = 0; i < chrono_comparison_get_n_kernels (c); i++)
    if (strcmp (chrono_comparison_get_kernel (c, i)->name, name) == 0)
      return chrono_comparison_get_kernel (c, i);
  return NULL;
}

/* Two NPU traces compared task by task, by name as a GPU's kernels are,
 * under the operators that launched them: HCCL's all-reduce, named after
 * a different operator number in each run, is one row, and no row is a
 * stream or a process. */
static void
test_compare (void)
{
  g_autoptr(ChronoTrace) level0 = test_traces_load (LEVEL0);
  g_autoptr(ChronoTrace) level2 = test_traces_load (LEVEL2);
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autoptr(ChronoAnalysis) b = NULL;
  g_autoptr(ChronoComparison) c = NULL;
  g_autoptr(GError) error = NULL;
  const ChronoCompareRow *row;

  if (level0 == NULL)
    return;
  a = analyse (level0);
  b = analyse (level2);
  c = chrono_comparison_run (a, b, NULL, NULL, &error);
  g_assert_no_error (error);
  row = kernel_row (c, "hcom_allReduce__N_N_N");
  g_assert_nonnull (row);
  g_assert_cmpint (row->match, ==, CHRONO_COMPARE_MATCH_NAME);
  g_assert_cmpuint (row->a.count, ==, 4);
  g_assert_cmpuint (row->b.count, ==, 4);
  row = kernel_row (c, "aclnnMm_MatMulCommon_MatMulV2");
  g_assert_nonnull (row);
  g_assert_cmpuint (row->a.count, ==, 5);
  g_assert_cmpuint (row->b.count, ==, 5);
  /* Its operator, from the flow torch_npu writes from the operator's
   * thread to the task, on both sides. */
  g_assert_nonnull (row->op);
  g_assert_true (g_str_has_prefix (row->op, "aclnnMm"));
  g_assert_cmpint (row->match, ==, CHRONO_COMPARE_MATCH_NAME);
  g_assert_cmpuint (chrono_comparison_get_n_ops (c), >, 0);
  for (guint i = 0; i < chrono_comparison_get_n_ops (c); i++)
    {
      row = chrono_comparison_get_op (c, i);
      if (strcmp (row->name, "aclnnMm") == 0)
        break;
    }
  g_assert_cmpstr (row->name, ==, "aclnnMm");
  g_assert_cmpint (row->a.device_ns, >, 0);
  g_assert_cmpint (row->b.device_ns, >, 0);
  /* Operators keyed by their shapes as Kineto's are, torch_npu's text
   * ("32,4096") written as the array it stands for. */
  for (guint i = 0; i < chrono_comparison_get_n_ops (c); i++)
    {
      row = chrono_comparison_get_op (c, i);
      g_assert_null (strchr (row->key, ';'));
      g_assert_null (strstr (row->key, "\\r"));
      if (strcmp (row->key, "AddmmBackward0 [[32,4096]]") == 0)
        break;
    }
  g_assert_cmpstr (row->key, ==, "AddmmBackward0 [[32,4096]]");
  g_assert_cmpuint (row->a.count, ==, row->b.count);
  for (guint i = 0; i < chrono_comparison_get_n_kernels (c); i++)
    {
      const char *name = chrono_comparison_get_kernel (c, i)->name;

      g_assert_false (g_str_has_prefix (name, "Stream ") || strstr (name, "Communication") != NULL ||
                      strstr (name, "Ascend Hardware") != NULL);
    }
}

/* What ARGV writes on standard output given INPUT. */
static char *
run_cli (const char * const *argv,
         const char         *input)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                      G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
  char *out = NULL;

  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (p, input, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_successful (p));
  return out;
}

/* The MCP server's analyze gives the profiler's own overlap analysis
 * beside our ledger as analyze --format json does, and says it in its
 * text as the app does. */
static void
test_mcp_overlap (void)
{
  const char *traces = g_getenv ("CHRONO_TRACES_DIR");
  g_autofree char *path = g_build_filename (traces, LEVEL2, NULL);
  const char *analyze_argv[] = { g_getenv ("CHRONO_CLI"), "analyze", "--format", "json", path, NULL };
  const char *mcp_argv[] = { g_getenv ("CHRONO_CLI"), "mcp", "--root", traces, NULL };
  const char *input =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
    "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}\n"
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"open_trace\","
    "\"arguments\":{\"path\":\"" LEVEL2 "\"}}}\n"
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"analyze\","
    "\"arguments\":{\"handle\":\"h1\"}}}\n";
  g_autofree char *report_text = NULL;
  g_autofree char *answers = NULL;
  g_autofree char *theirs = NULL;
  g_autofree char *served = NULL;
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(JsonNode) answer = NULL;
  g_auto(GStrv) lines = NULL;
  JsonObject *result;
  const char *text;
  guint n;

  if (traces == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    return;
  report_text = run_cli (analyze_argv, NULL);
  report = json_from_string (report_text, NULL);
  g_assert_nonnull (report);
  answers = run_cli (mcp_argv, input);
  lines = g_strsplit (g_strstrip (answers), "\n", -1);
  n = g_strv_length (lines);
  g_assert_cmpuint (n, ==, 3);
  answer = json_from_string (lines[n - 1], NULL);
  g_assert_nonnull (answer);
  result = json_object_get_object_member (json_node_get_object (answer), "result");
  g_assert_false (json_object_get_boolean_member_with_default (result, "isError", FALSE));

  theirs = json_to_string (json_object_get_member (json_node_get_object (report), "profiler_overlap"), FALSE);
  served = json_to_string (json_object_get_member (json_object_get_object_member (result, "structuredContent"),
                                                   "profiler_overlap"), FALSE);
  g_assert_cmpstr (served, ==, theirs);
  g_assert_nonnull (strstr (theirs, "\"not_overlapped\":95962016"));
  text = json_object_get_string_member (json_array_get_object_element (json_object_get_array_member (result, "content"), 0),
                                        "text");
  g_assert_nonnull (strstr (text, "Rank 0 · NPU 0 · Ascend Hardware, the profiler's own overlap analysis over 129.863 ms: "
                                  "computing 8.868 (ours 8.868), communication not overlapped 95.962 (ours 95.962), "
                                  "free 25.033 (ours 25.033 idle and copies). Within 1 % of the window."));
}

/* The efficiency notes of TRACE analysed with PEAK_GFLOPS and
 * PEAK_GBPS (0 for the table's) that name Ascend Hardware's missing
 * peaks; in N_ROWS, its efficiency rows, and in N_ROOFLINE, those with a
 * roofline. */
static guint
peak_notes (ChronoTrace *trace,
            guint        peak_gflops,
            guint        peak_gbps,
            guint       *n_rows,
            guint       *n_roofline)
{
  ChronoAnalysisOptions options;
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autoptr(GError) error = NULL;
  const char * const *notes;
  guint n = 0;

  chrono_analysis_options_init (&options);
  options.thresholds.peak_gflops = peak_gflops;
  options.thresholds.peak_memory_gbps = peak_gbps;
  a = chrono_analysis_run (&trace, 1, &options, NULL, &error);
  g_assert_no_error (error);
  notes = chrono_analysis_get_efficiency_notes (a);
  for (guint i = 0; notes && notes[i]; i++)
    {
      n += strstr (notes[i], "no figures for Rank 0 · NPU 0 · Ascend Hardware") != NULL &&
           strstr (notes[i], "--peak-tflops and --peak-tbps") != NULL;
      /* That note says it for the device; no other note names it. */
      g_assert_null (strstr (notes[i], "(null)"));
      g_assert_null (strstr (notes[i], "is not in the peak table"));
    }
  *n_rows = chrono_analysis_get_n_efficiency (a);
  *n_roofline = 0;
  for (guint i = 0; i < chrono_analysis_get_n_efficiency (a); i++)
    *n_roofline += chrono_analysis_get_efficiency (a, i)->has_roofline;
  return n;
}

/* No public peak of an Ascend NPU is in the table: the analysis says the
 * peaks must be given, until both are; then every row has its roofline. */
static void
test_peaks (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (LEVEL2);
  guint n_rows, n_roofline;

  if (trace == NULL)
    return;
  g_assert_cmpuint (peak_notes (trace, 0, 0, &n_rows, &n_roofline), ==, 1);
  g_assert_cmpuint (n_rows, >, 0);
  g_assert_cmpuint (n_roofline, ==, 0);
  g_assert_cmpuint (peak_notes (trace, 300000, 0, &n_rows, &n_roofline), ==, 1);
  g_assert_cmpuint (n_roofline, ==, 0);
  g_assert_cmpuint (peak_notes (trace, 300000, 1600, &n_rows, &n_roofline), ==, 0);
  g_assert_cmpuint (n_rows, >, 0);
  g_assert_cmpuint (n_roofline, ==, n_rows);
}

/* Work a flow joins to an operator, when its launch lies in none: torch_npu's
 * operators hand their tasks to a thread that launches them, and write a
 * flow from the operator to each task. Work launched inside an operator
 * stays with it whatever flow reaches it; a flow from outside a modelled
 * operator gives nothing. */
static const char handed_trace[] =
  "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\"}], \"traceEvents\": [\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":20,"
  " \"args\":{\"Input Dims\": \"64,128;\\r\\n128,256\", \"Input type\": \"float;\\r\\nfloat\"}},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aclnnMm\",\"pid\":1,\"tid\":1,\"ts\":12,\"dur\":5},\n"
  "{\"ph\":\"s\",\"cat\":\"async_npu\",\"name\":\"torch_to_npu\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":12,\"bp\":\"e\"},\n"
  "{\"ph\":\"s\",\"cat\":\"async_npu\",\"name\":\"torch_to_npu\",\"id\":3,\"pid\":1,\"tid\":1,\"ts\":13,\"bp\":\"e\"},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::copy_\",\"pid\":1,\"tid\":1,\"ts\":40,\"dur\":5,"
  " \"args\":{\"Input Dims\": \"64,128;\\r\\n64,128;\\r\\n\", \"Input type\": \"float;\\r\\nfloat;\\r\\nScalar\"}},\n"
  "{\"ph\":\"s\",\"cat\":\"async_npu\",\"name\":\"torch_to_npu\",\"id\":2,\"pid\":1,\"tid\":1,\"ts\":41,\"bp\":\"e\"},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::addmm\",\"pid\":1,\"tid\":1,\"ts\":50,\"dur\":20,"
  " \"args\":{\"Input Dims\": \"256;\\r\\n64,128;\\r\\n128,256;\\r\\n;\\r\\n\", \"Input type\": \"float;\\r\\nfloat;\\r\\nfloat;\\r\\nScalar;\\r\\nScalar\"}},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":52,\"dur\":3,\"args\":{\"correlation\":3}},\n"
  /* the launching thread, inside no operator */
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":2,\"ts\":20,\"dur\":3,\"args\":{\"correlation\":1}},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":2,\"ts\":46,\"dur\":3,\"args\":{\"correlation\":2}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"MatMul\",\"pid\":0,\"tid\":7,\"ts\":100,\"dur\":50,\"args\":{\"correlation\":1,\"stream\":7,\"device\":0}},\n"
  "{\"ph\":\"f\",\"cat\":\"async_npu\",\"name\":\"torch_to_npu\",\"id\":1,\"pid\":0,\"tid\":7,\"ts\":100,\"bp\":\"e\"},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"Copy\",\"pid\":0,\"tid\":7,\"ts\":200,\"dur\":30,\"args\":{\"correlation\":2,\"stream\":7,\"device\":0}},\n"
  "{\"ph\":\"f\",\"cat\":\"async_npu\",\"name\":\"torch_to_npu\",\"id\":2,\"pid\":0,\"tid\":7,\"ts\":200,\"bp\":\"e\"},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"Gemm\",\"pid\":0,\"tid\":7,\"ts\":300,\"dur\":20,\"args\":{\"correlation\":3,\"stream\":7,\"device\":0}},\n"
  "{\"ph\":\"f\",\"cat\":\"async_npu\",\"name\":\"torch_to_npu\",\"id\":3,\"pid\":0,\"tid\":7,\"ts\":300,\"bp\":\"e\"},\n"
  "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"GPU 0\"}},\n"
  "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":0,\"args\":{\"labels\":\"GPU 0\"}}\n"
  "]}";

static void
test_efficiency_handed (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (handed_trace);
  g_autoptr(ChronoAnalysis) a = analyse (trace);
  const ChronoEfficiencyRow *mm = test_efficiency_row (a, "aten::mm", "[[64,128],[128,256]]");
  const ChronoEfficiencyRow *addmm = test_efficiency_row (a, "aten::addmm", NULL);

  g_assert_cmpuint (chrono_analysis_get_n_efficiency (a), ==, 2);
  g_assert_nonnull (mm);
  g_assert_cmpstr (mm->input_types, ==, "[\"float\",\"float\"]");
  g_assert_cmpuint (mm->count, ==, 1);
  g_assert_cmpfloat (mm->flops, ==, 2.0 * 64 * 128 * 256);
  g_assert_cmpint (mm->gpu_time_ns, ==, 50000);
  /* Its second flow reaches work launched inside aten::addmm. */
  g_assert_nonnull (addmm);
  g_assert_cmpint (addmm->gpu_time_ns, ==, 20000);
  g_assert_null (test_efficiency_row (a, "aten::copy_", NULL));
}

/* The real traces' operators, their FLOPs from the shapes torch_npu
 * writes as text and their device time from the tasks its flows join to
 * them; tests/oracle/npu_efficiency_check.py checks every GEMM's figures
 * against the file. */
static void
test_efficiency (void)
{
  static const char * const names[] = { LEVEL0, LEVEL2 };

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      g_autoptr(ChronoTrace) trace = test_traces_load (names[n]);
      g_autoptr(ChronoAnalysis) a = NULL;
      const ChronoEfficiencyRow *r;
      guint gemm_calls = 0, convolutions = 0;

      if (trace == NULL)
        return;
      a = analyse (trace);
      r = test_efficiency_row (a, "aten::mm", "[[32,4096],[4096,9216]]");
      g_assert_nonnull (r);
      g_assert_cmpfloat (r->flops, ==, 2.0 * 32 * 4096 * 9216);
      g_assert_cmpint (r->gpu_time_ns, >, 0);
      g_assert_cmpfloat (r->achieved_tflops, ==, r->flops * r->count / (r->gpu_time_ns * 1e3));
      g_assert_nonnull (test_efficiency_row (a, "aten::addmm", "[[4096],[32,9216],[9216,4096],[],[]]"));
      for (guint i = 0; i < chrono_analysis_get_n_efficiency (a); i++)
        {
          g_autoptr(JsonNode) dims = NULL;

          r = chrono_analysis_get_efficiency (a, i);
          g_assert_cmpint (r->gpu_time_ns, >, 0);
          dims = json_from_string (r->input_dims, NULL);
          g_assert_true (dims != NULL && JSON_NODE_HOLDS_ARRAY (dims));
          g_assert_false (r->has_roofline);
          if (strcmp (r->family, "gemm") == 0)
            gemm_calls += r->count;
          convolutions += strcmp (r->op, "aten::convolution_backward") == 0;
        }
      /* aten::linear's three addmm, and the six mm of their gradients; the
       * five convolutions' backward (the forward ones lack their strides). */
      g_assert_cmpuint (gemm_calls, ==, 9);
      g_assert_cmpuint (convolutions, ==, 5);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/npu/lanes", test_lanes);
  g_test_add_func ("/npu/overlap/level0", test_overlap_level0);
  g_test_add_func ("/npu/overlap/level2", test_overlap_level2);
  g_test_add_func ("/npu/no-device", test_no_device);
  g_test_add_func ("/npu/unknown-backend", test_unknown_backend);
  g_test_add_func ("/npu/launch-layers", test_launch_layers);
  g_test_add_func ("/npu/job", test_job);
  g_test_add_func ("/npu/critical-path/level2", test_critical_path_level2);
  g_test_add_func ("/npu/critical-path/level0", test_critical_path_level0);
  g_test_add_func ("/npu/operator-launches", test_operator_launches);
  g_test_add_func ("/npu/rank", test_rank);
  g_test_add_func ("/npu/compare", test_compare);
  g_test_add_func ("/npu/mcp-overlap", test_mcp_overlap);
  g_test_add_func ("/npu/peaks", test_peaks);
  g_test_add_func ("/npu/efficiency/handed", test_efficiency_handed);
  g_test_add_func ("/npu/efficiency", test_efficiency);
  return g_test_run ();
}
