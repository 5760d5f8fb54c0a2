/* test-neuron-execution.c: a profile folder's host and device linked
 * through its executions, checked against the nc_exec_running windows
 * and the instructions, scanned here one by one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gstdio.h>

#include "chrono-analysis.h"
#include "chrono-neuron-execution.h"
#include "chrono-query.h"
#include "chrono-trace-set.h"
#include "neuron-gen.h"

static gboolean
named (ChronoTrace       *trace,
       const ChronoTrack *track,
       guint32            i,
       const char        *name)
{
  return strcmp (chrono_trace_get_string (trace, chrono_track_get_name (track, i)), name) == 0;
}

/* A device engine's row of instructions. */
static gboolean
is_instructions (ChronoTrace       *trace,
                 const ChronoTrack *track)
{
  return chrono_trace_get_process (trace, track->process)->is_device && track->n_spans > 0 &&
         track->kind[0] == CHRONO_KIND_INSTRUCTION;
}

/* The nc_idx of an nc_exec_running, as the file writes it. */
static gint64
core_of (ChronoTrace   *trace,
         ChronoSpanRef  run)
{
  g_autoptr(JsonNode) args = chrono_trace_get_span_args (trace, run);

  return json_object_get_int_member (json_node_get_object (args), "nc_idx");
}

/* A profile folder of three executions, device and system profiles (and
 * with TORCH the PyTorch trace of the Neuron backend), loaded; its files
 * are gone once it is. */
static ChronoTrace *
load_folder (NeuronGenCounts *counts,
             gboolean         torch)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("neuron-execution-XXXXXX", &error);
  g_autofree char *device = g_build_filename (dir, "device_profile_model_1.json", NULL);
  g_autofree char *system = g_build_filename (dir, "system_profile.json", NULL);
  g_autofree char *pytorch = g_build_filename (dir, "trace.json", NULL);
  const char *paths[] = { dir, NULL };
  g_autoptr(ChronoTrace) trace = NULL;
  NeuronGenOptions options;

  neuron_gen_options_init (&options);
  options.plant = "compute,dma-bound";
  options.instance = "trn2";
  options.plant_executions = 3;
  g_assert_true (neuron_gen_write_device (device, &options, counts, &error));
  g_assert_true (neuron_gen_write_system (system, &options, counts, &error));
  g_assert_true (!torch || neuron_gen_write_torch (pytorch, &options, counts, &error));
  g_assert_no_error (error);
  trace = chrono_trace_load_set (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_unlink (device);
  g_unlink (system);
  g_unlink (pytorch);
  g_rmdir (dir);
  return g_steal_pointer (&trace);
}

static void
test_folder (void)
{
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (ChronoSpanRef));
  NeuronGenCounts counts;
  guint n_instructions = 0;

  trace = load_folder (&counts, FALSE);

  /* The runtime's executions, each its own. */
  for (guint32 ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, ti);

      for (guint32 i = 0; i < track->n_spans; i++)
        if (named (trace, track, i, "nc_exec_running"))
          {
            ChronoNeuronExecution e;

            g_array_append_val (runs, ((ChronoSpanRef) { ti, i }));
            g_assert_true (chrono_neuron_execution_find (trace, (ChronoSpanRef) { ti, i }, &e));
            g_assert_cmpuint (e.running.track, ==, ti);
            g_assert_cmpuint (e.running.index, ==, i);
            g_assert_cmpint (e.start_ns, ==, track->start[i]);
          }
    }
  /* Three of core 0, one of core 1 over the first. */
  g_assert_cmpuint (runs->len, ==, 4);

  /* Every instruction is in the execution whose window holds its start. */
  for (guint32 ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, ti);

      if (!is_instructions (trace, track))
        continue;
      for (guint32 i = 0; i < track->n_spans; i++)
        {
          ChronoNeuronExecution e;
          guint holding = G_MAXUINT;

          for (guint r = 0; r < runs->len; r++)
            {
              ChronoSpanRef run = g_array_index (runs, ChronoSpanRef, r);
              const ChronoTrack *rt = chrono_trace_get_track (trace, run.track);

              if (rt->start[run.index] <= track->start[i] && track->start[i] < chrono_track_get_end (rt, run.index) &&
                  core_of (trace, run) == chrono_trace_get_process (trace, track->process)->device_index)
                {
                  g_assert_cmpuint (holding, ==, G_MAXUINT);
                  holding = r;
                }
            }
          g_assert_cmpuint (holding, !=, G_MAXUINT);
          g_assert_true (chrono_neuron_execution_find (trace, (ChronoSpanRef) { ti, i }, &e));
          g_assert_cmpuint (e.running.track, ==, g_array_index (runs, ChronoSpanRef, holding).track);
          g_assert_cmpuint (e.running.index, ==, g_array_index (runs, ChronoSpanRef, holding).index);
          n_instructions++;
        }
    }
  g_assert_cmpuint (n_instructions, ==, counts.instructions);

  /* From each execution: its first instruction, and the nrt_execute over it. */
  for (guint r = 0; r < runs->len; r++)
    {
      ChronoNeuronExecution e;
      ChronoSpanRef first, launcher;
      const ChronoTrack *ft, *lt;

      g_assert_true (chrono_neuron_execution_find (trace, g_array_index (runs, ChronoSpanRef, r), &e));
      g_assert_true (chrono_neuron_execution_first_instruction (trace, &e, &first));
      ft = chrono_trace_get_track (trace, first.track);
      g_assert_cmpint (ft->start[first.index], >=, e.start_ns);
      g_assert_cmpint (ft->start[first.index], <, e.end_ns);
      /* None of the device's starts earlier in the window. */
      for (guint32 ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
        {
          const ChronoTrack *track = chrono_trace_get_track (trace, ti);

          if (!is_instructions (trace, track))
            continue;
          for (guint32 i = 0; i < track->n_spans; i++)
            g_assert_false (track->start[i] >= e.start_ns && track->start[i] < ft->start[first.index]);
        }
      g_assert_true (chrono_neuron_execution_launcher (trace, &e, &launcher));
      lt = chrono_trace_get_track (trace, launcher.track);
      g_assert_true (named (trace, lt, launcher.index, "nrt_execute"));
      g_assert_cmpint (lt->start[launcher.index], <=, e.start_ns);
      g_assert_cmpint (chrono_track_get_end (lt, launcher.index), >=, e.start_ns);
    }
}

/* In a profile folder the device's Metadata keeps the device's clock:
 * each execution's figures are still over its own instructions, on the
 * trace's clock, and together they hold all of the core's FLOPs. */
static void
test_folder_metrics (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  NeuronGenCounts counts;
  JsonObject *core;
  JsonArray *executions;
  gdouble flops = 0;
  gint64 shift = 0;

  trace = load_folder (&counts, FALSE);
  for (guint i = 0; i < chrono_trace_get_n_parts (trace); i++)
    if (chrono_trace_get_part (trace, i)->shift_ns != 0)
      shift = chrono_trace_get_part (trace, i)->shift_ns;
  /* Otherwise this would not test the clocks. */
  g_assert_cmpint (shift, !=, 0);

  analysis = chrono_analysis_run (&trace, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  json = chrono_analysis_to_json (analysis);
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  core = json_array_get_object_element (json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "neuron"), 0);
  executions = json_object_get_array_member (core, "executions");
  g_assert_cmpuint (json_array_get_length (executions), ==, 3);
  for (guint i = 0; i < json_array_get_length (executions); i++)
    {
      JsonObject *e = json_array_get_object_element (executions, i);

      g_assert_cmpint (json_object_get_int_member (e, "start_ns"), >=, json_object_get_int_member (core, "start_ns"));
      /* The runtime may close an execution after its last instruction. */
      g_assert_cmpint (json_object_get_int_member (e, "start_ns"), <, json_object_get_int_member (core, "end_ns"));
      g_assert_cmpfloat (json_object_get_double_member (e, "hfu_percent"), >, 0);
      flops += json_object_get_double_member (e, "hardware_flops");
    }
  g_assert_cmpfloat_with_epsilon (flops, json_object_get_double_member (core, "hardware_flops"),
                                  1e-9 * json_object_get_double_member (core, "hardware_flops"));
}

/* The integer arg KEY of a span, or -1. */
static gint64
int_arg (ChronoTrace   *trace,
         ChronoSpanRef  span,
         const char    *key)
{
  g_autoptr(JsonNode) args = chrono_trace_get_span_args (trace, span);

  if (args == NULL || !json_object_has_member (json_node_get_object (args), key))
    return -1;
  return json_object_get_int_member (json_node_get_object (args), key);
}

/* The first span off the device named NAME, in track order, whose time
 * holds TS; FALSE when there is none. */
static gboolean
host_span_over (ChronoTrace   *trace,
                const char    *name,
                gint64         ts,
                gint64         core,
                ChronoSpanRef *found)
{
  for (guint32 ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, ti);

      if (chrono_trace_get_process (trace, track->process)->is_device)
        continue;
      for (guint32 i = 0; i < track->n_spans; i++)
        if (named (trace, track, i, name) && track->start[i] <= ts &&
            (core < 0 ? chrono_track_get_end (track, i) >= ts : chrono_track_get_end (track, i) > ts) &&
            (core < 0 || core_of (trace, (ChronoSpanRef) { ti, i }) == core))
          {
            *found = (ChronoSpanRef) { ti, i };
            return TRUE;
          }
    }
  return FALSE;
}

/* device_work of a profile folder: each instruction and transfer is
 * launched by the nrt_execute over the start of the nc_exec_running that
 * holds its start, and with the PyTorch trace its operator is the cpu_op
 * whose External id the PyTorch record of that call carries; all of it
 * scanned here, span by span. */
static void
check_device_work (gboolean torch)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoQuery) query = NULL;
  g_autoptr(ChronoQueryResult) result = NULL;
  NeuronGenCounts counts;
  guint n_ops = 0;

  trace = load_folder (&counts, torch);
  query = chrono_query_new (&trace, 1, NULL, &error);
  g_assert_no_error (error);
  result = chrono_query_run (query, "SELECT id, launch_id, op_id, op_name FROM device_work "
                                    "WHERE kind IN ('instruction', 'dma') ORDER BY id", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_query_result_get_n_rows (result), ==, counts.instructions + counts.dma);

  for (guint r = 0; r < chrono_query_result_get_n_rows (result); r++)
    {
      ChronoSpanRef span, running = { 0 }, launcher = { 0 }, record, op = { 0 };
      const ChronoTrack *track;
      gint64 core, external = -1;
      gboolean has_op = FALSE;

      g_assert_true (chrono_query_find_span (query, chrono_query_result_get_int (result, r, 0), NULL, &span));
      track = chrono_trace_get_track (trace, span.track);
      core = chrono_trace_get_process (trace, track->process)->device_index;
      g_assert_true (host_span_over (trace, "nc_exec_running", track->start[span.index], core, &running));
      g_assert_true (host_span_over (trace, "nrt_execute", chrono_trace_get_track (trace, running.track)->start[running.index],
                                     -1, &launcher));
      g_assert_cmpint (chrono_query_result_get_int (result, r, 1), ==, chrono_query_get_span_id (query, 0, launcher));

      /* PyTorch's record of the call names its operator. */
      for (guint32 ti = 0; torch && ti < chrono_trace_get_n_tracks (trace) && external < 0; ti++)
        {
          const ChronoTrack *t = chrono_trace_get_track (trace, ti);
          gint64 ts = chrono_trace_get_track (trace, running.track)->start[running.index];

          for (guint32 i = 0; i < t->n_spans && external < 0; i++)
            if (named (trace, t, i, "nrt_execute") && t->start[i] <= ts && chrono_track_get_end (t, i) >= ts)
              external = int_arg (trace, record = (ChronoSpanRef) { ti, i }, "External id");
        }
      for (guint32 ti = 0; external >= 0 && ti < chrono_trace_get_n_tracks (trace) && !has_op; ti++)
        {
          const ChronoTrack *t = chrono_trace_get_track (trace, ti);

          for (guint32 i = 0; i < t->n_spans && !has_op; i++)
            if (t->kind[i] == CHRONO_KIND_HOST_OP && int_arg (trace, (ChronoSpanRef) { ti, i }, "External id") == external)
              {
                op = (ChronoSpanRef) { ti, i };
                has_op = TRUE;
              }
        }
      g_assert_true (has_op == torch);
      if (!has_op)
        {
          g_assert_cmpint (chrono_query_result_get_cell_type (result, r, 2), ==, CHRONO_QUERY_NULL);
          g_assert_cmpint (chrono_query_result_get_cell_type (result, r, 3), ==, CHRONO_QUERY_NULL);
          continue;
        }
      g_assert_cmpint (chrono_query_result_get_int (result, r, 2), ==, chrono_query_get_span_id (query, 0, op));
      g_assert_cmpstr (chrono_query_result_get_text (result, r, 3), ==, "aten::mm");
      n_ops++;
    }
  g_assert_cmpuint (n_ops, ==, torch ? counts.instructions + counts.dma : 0);
}

static void
test_device_work (void)
{
  check_device_work (FALSE);
  check_device_work (TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/neuron-execution/folder", test_folder);
  g_test_add_func ("/neuron-execution/folder-metrics", test_folder_metrics);
  g_test_add_func ("/neuron-execution/device-work", test_device_work);
  return g_test_run ();
}
