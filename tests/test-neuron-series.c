/* test-neuron-series.c: a NeuronCore's engines over time, against spans
 * written by hand and against a planted profile's rows, read here with
 * json-glib and binned by a sweep of their own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "chrono-analysis.h"
#include "chrono-loader.h"
#include "chrono-neuron-series.h"
#include "neuron-gen.h"

static ChronoTrace *
load_records (const char *instructions,
              const char *dma)
{
  g_autofree char *json = g_strdup_printf ("{\"instruction\": [%s], \"dma\": [%s], \"summary\": [{\"nc_idx\": \"0\"}]}",
                                           instructions, dma);
  gsize len = strlen (json);
  g_autoptr(GBytes) data = g_bytes_new_take (g_steal_pointer (&json), len);
  g_autoptr(GError) error = NULL;
  ChronoTrace *trace = chrono_trace_load_bytes (data, "device_profile_model_1.json", &error);

  g_assert_no_error (error);
  return trace;
}

static guint32
device_process (ChronoTrace *trace)
{
  for (guint p = 0; p < chrono_trace_get_n_processes (trace); p++)
    if (chrono_trace_get_process (trace, p)->is_device)
      return p;
  g_assert_not_reached ();
}

/* Overlapping spans count once; TensorMatrix is the Tensor engine; a bin
 * sees its share; the FLOPs over the peak's. */
static void
test_by_hand (void)
{
  g_autoptr(ChronoTrace) trace = load_records (
    "{\"timestamp\": 100, \"duration\": 100, \"label\": \"Vector\", \"opcode\": \"ADD\", \"id\": 1},"
    "{\"timestamp\": 150, \"duration\": 100, \"label\": \"Vector\", \"opcode\": \"ADD\", \"id\": 2},"
    "{\"timestamp\": 0, \"duration\": 50, \"label\": \"Tensor\", \"opcode\": \"LDWEIGHTS\", \"id\": 3},"
    "{\"timestamp\": 40, \"duration\": 60, \"label\": \"TensorMatrix\", \"opcode\": \"MATMUL\", \"id\": 4},"
    "{\"timestamp\": 300, \"duration\": 100, \"label\": \"Scalar\", \"opcode\": \"ACT\", \"id\": 5}",
    "{\"timestamp\": 0, \"duration\": 400, \"queue_name\": \"qSyncIO0\", \"size\": 512, \"id\": 6}");
  /* 2000 FLOPs over [40, 100): 1 TFLOP/s does 1000 a ns. */
  const ChronoFlopsPiece pieces[] = { { 40, 100, 2000 } };
  g_autoptr(ChronoNeuronSeries) s = chrono_neuron_series_new (trace, device_process (trace), pieces, 1, 1.0);
  const gint64 edges[] = { 0, 100, 200, 300, 400 };
  gdouble v[4];

  g_assert_true (chrono_neuron_series_has_lane (s, CHRONO_NEURON_LANE_VECTOR));
  g_assert_false (chrono_neuron_series_has_lane (s, CHRONO_NEURON_LANE_GPSIMD));
  g_assert_cmpfloat (chrono_neuron_series_get (s, CHRONO_NEURON_LANE_VECTOR, 100, 250), ==, 1.0);
  g_assert_cmpfloat (chrono_neuron_series_get (s, CHRONO_NEURON_LANE_VECTOR, 0, 200), ==, 0.5);
  g_assert_cmpfloat (chrono_neuron_series_get (s, CHRONO_NEURON_LANE_TENSOR, 0, 200), ==, 0.5);
  g_assert_cmpfloat (chrono_neuron_series_get (s, CHRONO_NEURON_LANE_DMA, 0, 400), ==, 1.0);
  g_assert_true (isnan (chrono_neuron_series_get (s, CHRONO_NEURON_LANE_GPSIMD, 0, 400)));

  chrono_neuron_series_sample (s, CHRONO_NEURON_LANE_VECTOR, edges, 4, v);
  g_assert_cmpfloat (v[0], ==, 0.0);
  g_assert_cmpfloat (v[1], ==, 1.0);
  g_assert_cmpfloat (v[2], ==, 0.5);
  g_assert_cmpfloat (v[3], ==, 0.0);
  chrono_neuron_series_sample (s, CHRONO_NEURON_LANE_SCALAR, edges, 4, v);
  g_assert_cmpfloat (v[3], ==, 1.0);
  /* 2000 FLOPs in [0, 100) of a peak that could do 100 000 there. */
  chrono_neuron_series_sample (s, CHRONO_NEURON_LANE_HFU, edges, 4, v);
  g_assert_cmpfloat_with_epsilon (v[0], 0.02, 1e-12);
  g_assert_cmpfloat (v[1], ==, 0.0);
  g_assert_cmpfloat_with_epsilon (chrono_neuron_series_get (s, CHRONO_NEURON_LANE_HFU, 40, 100), 2000.0 / 60000, 1e-12);
}

/* No peak, no HFU lane. */
static void
test_no_peak (void)
{
  g_autoptr(ChronoTrace) trace = load_records (
    "{\"timestamp\": 0, \"duration\": 50, \"label\": \"TensorMatrix\", \"opcode\": \"MATMUL\", \"id\": 1}", "");
  const ChronoFlopsPiece pieces[] = { { 0, 50, 2000 } };
  g_autoptr(ChronoNeuronSeries) s = chrono_neuron_series_new (trace, device_process (trace), pieces, 1, 0);

  g_assert_false (chrono_neuron_series_has_lane (s, CHRONO_NEURON_LANE_HFU));
  g_assert_true (isnan (chrono_neuron_series_get (s, CHRONO_NEURON_LANE_HFU, 0, 50)));
  g_assert_cmpfloat (chrono_neuron_series_get (s, CHRONO_NEURON_LANE_TENSOR, 0, 100), ==, 0.5);
}

/* ------------------------------------------------------------------ */
/* A planted profile                                                   */

#define N_BINS 97

typedef struct {
  gint64  start;
  gint64  end;
  gdouble flops;
} Row;

/* The busy share of [A, B) of ROWS: the parts inside, by start, swept. */
static gdouble
swept_share (GArray *rows,
             gint64  a,
             gint64  b)
{
  g_autoptr(GArray) in = g_array_new (FALSE, FALSE, sizeof (Row));
  gint64 covered = 0, reach = a;

  for (guint i = 0; i < rows->len; i++)
    {
      Row r = g_array_index (rows, Row, i);

      r.start = MAX (r.start, a);
      r.end = MIN (r.end, b);
      if (r.end > r.start)
        g_array_append_val (in, r);
    }
  /* ROWS come by start, and so do their clipped parts. */
  for (guint i = 0; i < in->len; i++)
    {
      const Row *r = &g_array_index (in, Row, i);

      if (r->end > reach)
        covered += r->end - MAX (r->start, reach);
      reach = MAX (reach, r->end);
    }
  return (gdouble) covered / (gdouble) (b - a);
}

static gint
by_start (gconstpointer x,
          gconstpointer y)
{
  const Row *a = x, *b = y;

  return (a->start > b->start) - (a->start < b->start);
}

static void
test_planted (void)
{
  static const struct { const char *label; ChronoNeuronLane lane; } engines[] = {
    { "Tensor", CHRONO_NEURON_LANE_TENSOR }, { "TensorMatrix", CHRONO_NEURON_LANE_TENSOR },
    { "Vector", CHRONO_NEURON_LANE_VECTOR }, { "Scalar", CHRONO_NEURON_LANE_SCALAR },
    { "GpSimd", CHRONO_NEURON_LANE_GPSIMD },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("neuron-series-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "device_profile_model_1.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(GPtrArray) all = NULL;
  GArray *rows[CHRONO_NEURON_N_LANES];
  const ChronoNeuronSeries *s;
  JsonObject *d, *md;
  JsonArray *insts, *dmas;
  NeuronGenOptions o;
  NeuronGenCounts c;
  gint64 first = G_MAXINT64, last = G_MININT64;
  gint64 edges[N_BINS + 1];
  gdouble peak, flops_total = 0;

  neuron_gen_options_init (&o);
  o.plant = "compute,dma-bound,engine-bound,engine-bound-gpsimd";
  o.instance = "trn2";
  g_assert_true (neuron_gen_write_device (path, &o, &c, &error));
  g_assert_no_error (error);

  /* The rows as written. */
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  d = json_node_get_object (json_parser_get_root (parser));
  insts = json_object_get_array_member (d, "instruction");
  dmas = json_object_get_array_member (d, "dma");
  md = json_array_get_object_element (json_object_get_array_member (d, "metadata"), 0);
  peak = json_object_get_int_member (md, "num_physical_cores") * 2.0 * json_object_get_int_member (md, "tensor_engine_num_rows") *
         json_object_get_int_member (md, "tensor_engine_num_cols") *
         json_object_get_double_member (md, "tensor_engine_clock_freq") * 1e9;
  for (guint i = 0; i < CHRONO_NEURON_N_LANES; i++)
    rows[i] = g_array_new (FALSE, FALSE, sizeof (Row));
  for (guint i = 0; i < json_array_get_length (insts); i++)
    {
      JsonObject *r = json_array_get_object_element (insts, i);
      const char *label = json_object_get_string_member (r, "label");
      Row row = { json_object_get_int_member (r, "timestamp"), 0,
                  json_object_get_int_member_with_default (r, "adjusted_flops", 0) };

      row.end = row.start + json_object_get_int_member (r, "duration");
      first = MIN (first, row.start);
      last = MAX (last, row.end);
      for (guint e = 0; e < G_N_ELEMENTS (engines); e++)
        if (strcmp (label, engines[e].label) == 0)
          g_array_append_val (rows[engines[e].lane], row);
      if (row.flops > 0)
        {
          g_array_append_val (rows[CHRONO_NEURON_LANE_HFU], row);
          flops_total += row.flops;
        }
    }
  for (guint i = 0; i < json_array_get_length (dmas); i++)
    {
      JsonObject *r = json_array_get_object_element (dmas, i);
      Row row = { json_object_get_int_member (r, "timestamp"), 0, 0 };

      row.end = row.start + json_object_get_int_member (r, "duration");
      g_array_append_val (rows[CHRONO_NEURON_LANE_DMA], row);
    }
  g_assert_cmpfloat (flops_total, >, 0);

  /* The app's way: the analysis, then its series. */
  trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  analysis = chrono_analysis_run (&trace, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  all = chrono_neuron_series_for_analysis (analysis);
  g_assert_cmpuint (all->len, ==, 1);
  s = g_ptr_array_index (all, 0);
  g_assert_cmpfloat_with_epsilon (chrono_neuron_series_get_peak_tflops (s), peak / 1e12, 1e-6);

  for (guint i = 0; i <= N_BINS; i++)
    edges[i] = first + (last - first) * (gint64) i / N_BINS;
  for (ChronoNeuronLane lane = CHRONO_NEURON_LANE_TENSOR; lane < CHRONO_NEURON_N_LANES; lane++)
    {
      gdouble v[N_BINS];

      g_array_sort (rows[lane], by_start);
      g_assert_cmpint (chrono_neuron_series_has_lane (s, lane), ==, rows[lane]->len > 0);
      if (rows[lane]->len == 0)
        continue;
      chrono_neuron_series_sample (s, lane, edges, N_BINS, v);
      for (guint b = 0; b < N_BINS; b++)
        g_assert_cmpfloat_with_epsilon (v[b], swept_share (rows[lane], edges[b], edges[b + 1]), 1e-9);
    }

  /* HFU: each instruction's FLOPs spread over it, by bin, over the peak's. */
  {
    gdouble v[N_BINS];
    gdouble seen = 0;

    chrono_neuron_series_sample (s, CHRONO_NEURON_LANE_HFU, edges, N_BINS, v);
    for (guint b = 0; b < N_BINS; b++)
      {
        gdouble flops = 0;

        for (guint i = 0; i < rows[CHRONO_NEURON_LANE_HFU]->len; i++)
          {
            const Row *r = &g_array_index (rows[CHRONO_NEURON_LANE_HFU], Row, i);
            gint64 lo = MAX (r->start, edges[b]), hi = MIN (r->end, edges[b + 1]);

            if (hi > lo)
              flops += r->flops * (gdouble) (hi - lo) / (gdouble) (r->end - r->start);
          }
        g_assert_cmpfloat_with_epsilon (v[b], flops / (peak * (edges[b + 1] - edges[b]) / 1e9), 1e-9);
        seen = MAX (seen, v[b]);
      }
    /* The compute phase keeps the array busy: some bin is well used. */
    g_assert_cmpfloat (seen, >, 0.3);
    g_assert_cmpfloat (seen, <=, 1.0 + 1e-9);
  }

  for (guint i = 0; i < CHRONO_NEURON_N_LANES; i++)
    g_array_unref (rows[i]);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/neuron-series/by-hand", test_by_hand);
  g_test_add_func ("/neuron-series/no-peak", test_no_peak);
  g_test_add_func ("/neuron-series/planted", test_planted);
  return g_test_run ();
}
