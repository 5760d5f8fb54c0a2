/* chrono-neuron-series.c: a NeuronCore's engines over time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "chrono-neuron-metrics.h"
#include "chrono-neuron-series.h"

/* Busy time as a function: the engine's spans merged, and the busy time
 * before each merged interval, so B(t) is one search. */
typedef struct {
  guint   n;
  gint64 *start;
  gint64 *end;
  gint64 *before;
} BusyCurve;

struct _ChronoNeuronSeries
{
  guint32           process;
  gdouble           peak_tflops;
  BusyCurve         busy[CHRONO_NEURON_N_LANES];   /* none for the HFU lane */
  ChronoFlopsSeries flops;
};

static const char *const lane_names[CHRONO_NEURON_N_LANES] = {
  "HFU", "Tensor", "Vector", "Scalar", "GpSimd", "DMA",
};

const char *
chrono_neuron_lane_to_string (ChronoNeuronLane lane)
{
  g_return_val_if_fail (lane < CHRONO_NEURON_N_LANES, NULL);
  return lane_names[lane];
}

/* The lane of a track: DMA queues by their spans' kind, engines by the
 * row's name ("Tensor", "TensorMatrix", "Vector (nc1)"); Sync and the
 * collectives' cores have none. */
static ChronoNeuronLane
lane_of_track (ChronoTrace       *trace,
               const ChronoTrack *track)
{
  const char *name = chrono_trace_get_string (trace, track->display_name);

  if (track->kind[0] == CHRONO_KIND_DMA)
    return CHRONO_NEURON_LANE_DMA;
  if (track->kind[0] == CHRONO_KIND_COLLECTIVE || name == NULL)
    return CHRONO_NEURON_N_LANES;
  for (ChronoNeuronLane lane = CHRONO_NEURON_LANE_TENSOR; lane < CHRONO_NEURON_LANE_DMA; lane++)
    if (g_str_has_prefix (name, lane_names[lane]))
      return lane;
  return CHRONO_NEURON_N_LANES;
}

typedef struct {
  gint64 start;
  gint64 end;
} Interval;

static int
compare_start (gconstpointer a,
               gconstpointer b)
{
  const Interval *x = a, *y = b;

  return (x->start > y->start) - (x->start < y->start);
}

static void
busy_curve_init (BusyCurve *curve,
                 GArray    *spans)
{
  gint64 total = 0;

  g_array_sort (spans, compare_start);
  curve->start = g_new (gint64, MAX (spans->len, 1));
  curve->end = g_new (gint64, MAX (spans->len, 1));
  curve->before = g_new (gint64, MAX (spans->len, 1));
  for (guint i = 0; i < spans->len; i++)
    {
      const Interval *v = &g_array_index (spans, Interval, i);

      if (curve->n > 0 && v->start <= curve->end[curve->n - 1])
        {
          total += MAX (v->end, curve->end[curve->n - 1]) - curve->end[curve->n - 1];
          curve->end[curve->n - 1] = MAX (v->end, curve->end[curve->n - 1]);
          continue;
        }
      curve->start[curve->n] = v->start;
      curve->end[curve->n] = v->end;
      curve->before[curve->n] = total;
      total += v->end - v->start;
      curve->n++;
    }
}

static void
busy_curve_clear (BusyCurve *curve)
{
  g_free (curve->start);
  g_free (curve->end);
  g_free (curve->before);
}

/* Busy time before T. */
static gint64
busy_curve_at (const BusyCurve *curve,
               gint64           t)
{
  guint lo = 0, hi = curve->n;

  /* The last interval that starts before T. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (curve->start[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return 0;
  return curve->before[lo - 1] + MIN (t, curve->end[lo - 1]) - curve->start[lo - 1];
}

ChronoNeuronSeries *
chrono_neuron_series_new (ChronoTrace            *trace,
                          guint32                 process,
                          const ChronoFlopsPiece *pieces,
                          guint                   n_pieces,
                          gdouble                 peak_tflops)
{
  ChronoNeuronSeries *self = g_new0 (ChronoNeuronSeries, 1);
  GArray *spans[CHRONO_NEURON_N_LANES] = { NULL };

  self->process = process;
  self->peak_tflops = peak_tflops;
  for (guint i = 0; i < CHRONO_NEURON_N_LANES; i++)
    spans[i] = g_array_new (FALSE, FALSE, sizeof (Interval));
  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, ti);
      ChronoNeuronLane lane;

      if (track->process != process || track->n_spans == 0 ||
          (lane = lane_of_track (trace, track)) == CHRONO_NEURON_N_LANES)
        continue;
      for (guint32 s = 0; s < track->n_spans; s++)
        g_array_append_val (spans[lane], ((Interval) { track->start[s], chrono_track_get_end (track, s) }));
    }
  for (guint i = 0; i < CHRONO_NEURON_N_LANES; i++)
    {
      busy_curve_init (&self->busy[i], spans[i]);
      g_array_unref (spans[i]);
    }
  chrono_flops_series_init (&self->flops, pieces, n_pieces);
  self->flops.peak_tflops = peak_tflops;
  return self;
}

void
chrono_neuron_series_free (ChronoNeuronSeries *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < CHRONO_NEURON_N_LANES; i++)
    busy_curve_clear (&self->busy[i]);
  chrono_flops_series_clear (&self->flops);
  g_free (self);
}

guint32
chrono_neuron_series_get_process (const ChronoNeuronSeries *self)
{
  return self->process;
}

gdouble
chrono_neuron_series_get_peak_tflops (const ChronoNeuronSeries *self)
{
  return self->peak_tflops;
}

gboolean
chrono_neuron_series_has_lane (const ChronoNeuronSeries *self,
                               ChronoNeuronLane          lane)
{
  if (lane == CHRONO_NEURON_LANE_HFU)
    return self->peak_tflops > 0 && self->flops.total_flops > 0;
  return self->busy[lane].n > 0;
}

/* The lane's cumulative function at T: busy ns, or the FLOPs the peak
 * makes of T's share, so both lanes are a difference over a width. */
static gdouble
lane_at (const ChronoNeuronSeries *self,
         ChronoNeuronLane          lane,
         gint64                    t)
{
  /* A peak in TFLOP/s does 1e3 FLOPs a nanosecond per TFLOP/s. */
  if (lane == CHRONO_NEURON_LANE_HFU)
    return chrono_flops_series_at (&self->flops, t) / (self->peak_tflops * 1e3);
  return (gdouble) busy_curve_at (&self->busy[lane], t);
}

gdouble
chrono_neuron_series_get (const ChronoNeuronSeries *self,
                          ChronoNeuronLane          lane,
                          gint64                    start,
                          gint64                    end)
{
  g_return_val_if_fail (lane < CHRONO_NEURON_N_LANES, NAN);
  if (end <= start || !chrono_neuron_series_has_lane (self, lane))
    return NAN;
  return (lane_at (self, lane, end) - lane_at (self, lane, start)) / (gdouble) (end - start);
}

void
chrono_neuron_series_sample (const ChronoNeuronSeries *self,
                             ChronoNeuronLane          lane,
                             const gint64             *edges,
                             guint                     n_bins,
                             gdouble                  *values)
{
  gdouble before;

  g_return_if_fail (lane < CHRONO_NEURON_N_LANES);
  if (!chrono_neuron_series_has_lane (self, lane))
    {
      for (guint i = 0; i < n_bins; i++)
        values[i] = NAN;
      return;
    }
  before = lane_at (self, lane, edges[0]);
  for (guint i = 0; i < n_bins; i++)
    {
      gdouble after = lane_at (self, lane, edges[i + 1]);

      values[i] = edges[i + 1] > edges[i] ? (after - before) / (gdouble) (edges[i + 1] - edges[i]) : NAN;
      before = after;
    }
}

GPtrArray *
chrono_neuron_series_for_analysis (ChronoAnalysis *analysis)
{
  GPtrArray *kept = chrono_analysis_get_neuron_series (analysis);
  g_autoptr(GPtrArray) cores = NULL;
  GPtrArray *all;

  if (kept != NULL)
    return g_ptr_array_ref (kept);
  cores = chrono_neuron_metrics_for_analysis (analysis);
  all = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_neuron_series_free);
  for (guint c = 0; c < cores->len; c++)
    {
      ChronoNeuronMetrics *metrics = g_ptr_array_index (cores, c);
      guint n_insts = 0;
      const ChronoNeuronInst *insts = chrono_neuron_metrics_get_insts (metrics, &n_insts);
      g_autoptr(GArray) pieces = g_array_sized_new (FALSE, FALSE, sizeof (ChronoFlopsPiece), n_insts);

      /* Utilisation is of the hardware: every FLOP the Tensor engine did. */
      for (guint i = 0; i < n_insts; i++)
        if (insts[i].tensor && chrono_neuron_metrics_get_amounts (metrics, &insts[i])->flops > 0)
          g_array_append_val (pieces, ((ChronoFlopsPiece) { insts[i].start, insts[i].end,
                                                            chrono_neuron_metrics_get_amounts (metrics, &insts[i])->flops }));
      g_ptr_array_add (all, chrono_neuron_series_new (chrono_neuron_metrics_get_rank (metrics)->trace,
                                                      chrono_neuron_metrics_get_device (metrics)->process,
                                                      (const ChronoFlopsPiece *) pieces->data, pieces->len,
                                                      chrono_neuron_metrics_get_peak (metrics)->tflops));
    }
  return all;
}
