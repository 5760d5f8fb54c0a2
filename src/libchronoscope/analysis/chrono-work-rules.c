/* chrono-work-rules.c: the causes found in the device's work:
 * collectives slower than their peers, communication left exposed, small
 * or exposed copies, and operators far from their roofline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "chrono-efficiency.h"
#include "chrono-format.h"
#include "chrono-rules-private.h"

#define MAX_EFFICIENCY_FINDINGS 10
/* No kernel runs in less than a few microseconds, whatever its work: an
 * operator's roofline is at least this per call. */
#define KERNEL_FLOOR_NS (3 * 1000)

typedef struct {
  gint64 key;
  guint  at;
} Keyed;

/* DATA's collectives by name, then duration, in their order where both
 * are the same: two stable passes, by duration, then by name. */
static GArray *
collectives_by_name (const ChronoRankData *data)
{
  const ChronoWorkItem *items = (const ChronoWorkItem *) data->collectives->data;
  guint n = data->collectives->len;
  g_autoptr(GArray) keyed = g_array_sized_new (FALSE, FALSE, sizeof (Keyed), n);
  GArray *list = g_array_sized_new (FALSE, FALSE, sizeof (ChronoWorkItem), n);
  Keyed *k;

  g_array_set_size (keyed, n);
  k = (Keyed *) keyed->data;
  for (guint i = 0; i < n; i++)
    k[i] = (Keyed) { items[i].end - items[i].start, i };
  chrono_array_sort_by_int64 (keyed, G_STRUCT_OFFSET (Keyed, key));
  for (guint i = 0; i < n; i++)
    k[i].key = chrono_track_get_name (data->tracks[items[k[i].at].track], items[k[i].at].index);
  chrono_array_sort_by_int64 (keyed, G_STRUCT_OFFSET (Keyed, key));
  for (guint i = 0; i < n; i++)
    g_array_append_val (list, items[k[i].at]);
  return list;
}

void
chrono_rule_collective_outliers (Ctx            *c,
                                 ChronoRankData *data)
{
  ChronoTrace *trace = data->trace;
  g_autoptr(GArray) list = collectives_by_name (data);
  guint start = 0;

  while (start < list->len)
    {
      const ChronoWorkItem *items = (const ChronoWorkItem *) list->data;
      guint32 name = chrono_track_get_name (data->tracks[items[start].track], items[start].index);
      guint end = start, n, outliers = 0;
      gint64 median, first = G_MAXINT64, last = G_MININT64, lost;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;

      chrono_claim_init (&claim);
      while (end < list->len && chrono_track_get_name (data->tracks[items[end].track], items[end].index) == name)
        end++;
      n = end - start;
      median = items[start + n / 2].end - items[start + n / 2].start;
      for (guint k = start; k < end && n >= 5; k++)
        {
          gint64 dur = items[k].end - items[k].start;
          gint di;

          if (dur <= 2 * median || (di = chrono_rank_data_device_of_track (data, items[k].track)) < 0)
            continue;
          outliers++;
          first = MIN (first, items[k].start);
          last = MAX (last, items[k].end);
          chrono_claim_add (&claim, data, di, items[k].start, items[k].end,
                            CHRONO_LEDGER_MASK (CHRONO_LEDGER_COMMUNICATION), G_MAXUINT32, dur - median);
        }
      if (outliers > 0 && (lost = chrono_rule_measure (c, &claim, G_MAXINT64)) > 0)
        {
          const ChronoWorkItem *worst = &items[end - 1];
          g_autofree char *kernel = chrono_format_short_name (chrono_trace_get_string (trace, name),
                                                              CHRONO_SHORT_NAME_WIDTH);

          f = chrono_rule_add_finding_printf (c, "collective-outlier", data, first, last, &claim, lost,
                                              _("Some collectives take much longer than usual: they wait for a late peer (see the "
                                              "straggler findings with all ranks loaded), compete with copies or other collectives for "
                                              "the links, or move more data than usual."),
                                              _("%u of %u %s take over twice the median %.3f ms (%.3f ms exposed over it)"), outliers, n,
                                              kernel, chrono_rule_ms (median), chrono_rule_ms (lost));
          chrono_finding_add_evidence (f, "collectives", n);
          chrono_finding_add_evidence (f, "outliers", outliers);
          chrono_finding_add_evidence (f, "median_ns", median);
          chrono_finding_add_evidence (f, "longest_ns", worst->end - worst->start);
          chrono_finding_add_track (f, data->trace_index, worst->track);
          chrono_finding_set_node (f, data->trace_index, worst->track, worst->index);
        }
      start = end;
    }
}

void
chrono_rule_exposed_comm (Ctx            *c,
                          ChronoRankData *data,
                          GArray         *breakdowns)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      const ChronoBreakdown *b = &g_array_index (breakdowns, ChronoBreakdown, d->breakdown);
      gint64 exposed = b->communication_ns - b->overlap_ns, lost;
      g_autofree char *label = NULL;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;

      if (b->communication_ns == 0 ||
          exposed * 100 <= b->communication_ns * (gint64) c->th->exposed_comm_percent)
        continue;
      chrono_claim_init (&claim);
      chrono_claim_add (&claim, data, di, b->start_ns, b->end_ns, CHRONO_LEDGER_MASK (CHRONO_LEDGER_COMMUNICATION),
                        G_MAXUINT32, G_MAXINT64);
      if ((lost = chrono_rule_measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      label = chrono_rule_device_label (data, d);
      f = chrono_rule_add_finding_printf (c, "exposed-communication", data, b->start_ns, b->end_ns, &claim, lost,
                                          _("Overlap communication with computation: bucket gradients so all-reduces start during the "
                                          "backward pass (DDP bucket_cap_mb), prefetch parameters (FSDP), or use a separate stream."),
                                          _("%.0f%% of communication on %s is not overlapped (%.3f ms)"),
                                          100.0 * exposed / b->communication_ns, label, chrono_rule_ms (lost));
      chrono_finding_add_evidence (f, "communication_ns", b->communication_ns);
      chrono_finding_add_evidence (f, "overlap_ns", b->overlap_ns);
      chrono_finding_add_evidence (f, "exposed_ns", exposed);
      for (guint k = 0; k < d->streams->len; k++)
        {
          const ChronoStreamWork *sw = &g_array_index (d->streams, ChronoStreamWork, k);
          for (guint j = 0; j < sw->positions->len; j++)
            if (chrono_stream_item (d, sw, j)->cls == CHRONO_WORK_COMMUNICATION)
              {
                chrono_finding_add_track (f, data->trace_index, sw->track);
                break;
              }
        }
    }
}

void
chrono_rule_small_copies (Ctx            *c,
                          ChronoRankData *data)
{
  ChronoTrace *trace = data->trace;

  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;
      gint64 time = 0, first = G_MAXINT64, last = G_MININT64, lost;
      gdouble bytes = 0;
      guint n = 0;
      g_autofree char *label = NULL;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;

      /* Each copy's size is read from its record: not for nothing. */
      if (!chrono_rule_device_can_hold (d, CHRONO_LEDGER_MASK (CHRONO_LEDGER_COPY)))
        continue;
      chrono_claim_init (&claim);
      for (guint k = 0; k < d->items->len; k++)
        {
          const ChronoTrack *t;
          gdouble size;

          if (items[k].cls != CHRONO_WORK_MEMCPY)
            continue;
          t = chrono_trace_get_track (trace, items[k].track);
          if (!chrono_analysis_arg_number (trace, chrono_track_get_args (t, items[k].index), "\"bytes\"", &size) &&
              !chrono_analysis_arg_number (trace, chrono_track_get_args (t, items[k].index), "\"transfer_size\"", &size))
            continue;
          if (size > c->th->small_dma_max_bytes)
            continue;
          n++;
          bytes += size;
          time += items[k].end - items[k].start;
          first = MIN (first, items[k].start);
          last = MAX (last, items[k].end);
          chrono_claim_add (&claim, data, di, items[k].start, items[k].end, CHRONO_LEDGER_MASK (CHRONO_LEDGER_COPY),
                            G_MAXUINT32, G_MAXINT64);
        }
      if (n < MAX (c->th->launch_bound_min_kernels, 2) || (lost = chrono_rule_measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      label = chrono_rule_device_label (data, d);
      f = chrono_rule_add_finding_printf (c, "small-copies", data, first, last, &claim, lost,
                                          _("Batch small transfers into larger ones: gather scalars and small tensors into one buffer "
                                          "before copying, keep them on the device, or on Neuron coalesce DMA descriptors."),
                                          _("%u copies of at most %.0f bytes on %s take %.3f ms, %.3f ms of it with nothing else running"),
                                          n, (gdouble) c->th->small_dma_max_bytes, label, chrono_rule_ms (time), chrono_rule_ms (lost));
      chrono_finding_add_evidence (f, "copies", n);
      chrono_finding_add_evidence (f, "bytes", bytes);
      chrono_finding_add_evidence (f, "copy_ns", time);
      chrono_rule_add_copy_tracks (f, data, d);
    }
}

void
chrono_rule_copies_exposed (Ctx            *c,
                            ChronoRankData *data)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      /* Sets too: the ledger's copy state holds both. */
      GArray *copies = d->copies, *compute = d->compute;
      gint64 copy_time = chrono_intervals_length (copies);
      gint64 exposed = copy_time - chrono_intervals_overlap (copies, compute), lost, start, end;
      g_autofree char *label = NULL;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;

      if (copy_time == 0 || exposed * 100 <= copy_time * (gint64) c->th->exposed_comm_percent)
        continue;
      start = g_array_index (copies, ChronoInterval, 0).start;
      end = g_array_index (copies, ChronoInterval, copies->len - 1).end;
      chrono_claim_init (&claim);
      chrono_claim_add (&claim, data, di, start, end, CHRONO_LEDGER_MASK (CHRONO_LEDGER_COPY), G_MAXUINT32, G_MAXINT64);
      if ((lost = chrono_rule_measure (c, &claim, G_MAXINT64)) == 0)
        continue;
      label = chrono_rule_device_label (data, d);
      f = chrono_rule_add_finding_printf (c, "exposed-copies", data, start, end, &claim, lost,
                                          _("Overlap copies with computation: prefetch the next batch on a separate stream "
                                          "(non_blocking copies from pinned memory), keep data resident on the device, or on "
                                          "Neuron double-buffer DMA so engines do not wait for it."),
                                          _("%.0f%% of copy and set time on %s runs with no computation (%.3f ms)"),
                                          100.0 * exposed / copy_time, label, chrono_rule_ms (lost));
      chrono_finding_add_evidence (f, "copy_ns", copy_time);
      chrono_finding_add_evidence (f, "exposed_ns", exposed);
      chrono_rule_add_copy_tracks (f, data, d);
    }
}

/* The least time an operator's calls can take: its roofline, and never
 * less than the least a kernel takes. */
static gint64
least_ns (const ChronoEfficiencyRow *r)
{
  return MAX (r->roofline_ns, (gint64) r->count * KERNEL_FLOOR_NS);
}

static gint
compare_excess (gconstpointer a,
                gconstpointer b)
{
  const ChronoEfficiencyRow *x = *(const ChronoEfficiencyRow * const *) a;
  const ChronoEfficiencyRow *y = *(const ChronoEfficiencyRow * const *) b;
  gint64 ex = x->gpu_time_ns - least_ns (x), ey = y->gpu_time_ns - least_ns (y);
  gint c;

  if (ex != ey)
    return ex > ey ? -1 : 1;
  if ((c = g_strcmp0 (x->op, y->op)) != 0 || (c = g_strcmp0 (x->input_dims, y->input_dims)) != 0)
    return c;
  if (x->device != y->device)
    return x->device < y->device ? -1 : 1;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return (x->device_position > y->device_position) - (x->device_position < y->device_position);
}

/* Shapes as the trace wrote them may spread over lines: on one. */
static char *
compact_dims (const char *dims)
{
  GString *out = g_string_new (NULL);

  for (const char *p = dims; *p; p++)
    if (!g_ascii_isspace (*p))
      g_string_append_c (out, *p);
  return g_string_free (out, FALSE);
}

void
chrono_rule_low_efficiency (Ctx            *c,
                            ChronoAnalysis *analysis)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  for (guint i = 0; i < chrono_analysis_get_n_efficiency (analysis); i++)
    {
      const ChronoEfficiencyRow *r = chrono_analysis_get_efficiency (analysis, i);
      if (r->has_roofline && r->rank < c->n_ranks && r->gpu_time_ns > 0 &&
          least_ns (r) * 100 < r->gpu_time_ns * (gint64) c->th->low_efficiency_percent)
        g_ptr_array_add (rows, (gpointer) r);
    }
  g_ptr_array_sort (rows, compare_excess);
  for (guint i = 0, reported = 0; i < rows->len && reported < MAX_EFFICIENCY_FINDINGS; i++)
    {
      const ChronoEfficiencyRow *r = rows->pdata[i];
      ChronoRankData *data = c->ranks[r->rank];
      const ChronoDeviceWork *d;
      g_autofree char *label = NULL;
      g_autofree char *op = NULL;
      g_autofree char *dims = NULL;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;
      gint64 lost;

      if (r->device_position >= data->devices->len || r->n_intervals == 0)
        continue;
      d = &g_array_index (data->devices, ChronoDeviceWork, r->device_position);
      chrono_claim_init (&claim);
      for (guint k = 0; k < r->n_intervals; k++)
        chrono_claim_add (&claim, data, r->device_position, r->intervals[k].start_ns, r->intervals[k].end_ns,
                          CHRONO_LEDGER_MASK (CHRONO_LEDGER_COMPUTE), G_MAXUINT32, G_MAXINT64);
      if ((lost = chrono_rule_measure (c, &claim, r->gpu_time_ns - least_ns (r))) == 0)
        continue;
      reported++;
      label = chrono_rule_device_label (data, d);
      op = chrono_format_short_name (r->op, CHRONO_SHORT_NAME_WIDTH);
      dims = compact_dims (r->input_dims);
      f = chrono_rule_add_finding_printf (c, "low-efficiency", data, r->intervals[0].start_ns, r->intervals[r->n_intervals - 1].end_ns,
                                          &claim, lost,
                                          r->bound == CHRONO_BOUND_COMPUTE
                                          ? _("A compute-bound operator far from the device's peak: check that it runs on the matrix "
                                            "units in a fast type (bf16, fp8, TF32 allowed), that its shapes are multiples of the "
                                            "tile sizes (pad to 64 or 128), that shapes too small to fill the device are batched, and "
                                            "whether larger fused kernels (FlashAttention 3, torch.compile, a tuned GEMM) exist for it.")
                                          : _("A memory-bound operator far from the device's bandwidth: fuse it with its neighbours "
                                            "(torch.compile), avoid strided or non-contiguous inputs, and use wider types for "
                                            "loads (vectorised kernels)."),
                                          _("%s %s on %s reaches %.0f%% of its roofline: %" PRIu64 " calls take %.3f ms "
                                            "against %.3f ms at the device's peaks (%s-bound)"),
                                          op, dims, label, 100.0 * r->roofline_share, r->count, chrono_rule_ms (r->gpu_time_ns),
                                          chrono_rule_ms (r->roofline_ns), chrono_bound_to_string (r->bound));
      chrono_finding_add_evidence (f, "calls", r->count);
      chrono_finding_add_evidence (f, "gpu_time_ns", r->gpu_time_ns);
      chrono_finding_add_evidence (f, "roofline_ns", r->roofline_ns);
      chrono_finding_add_evidence (f, "roofline_percent", 100.0 * r->roofline_share);
      chrono_finding_add_evidence (f, "achieved_tflops", r->achieved_tflops);
      chrono_finding_add_evidence (f, "achieved_tbps", r->achieved_tbps);
      for (guint k = 0; k < d->streams->len; k++)
        chrono_finding_add_track (f, data->trace_index, g_array_index (d->streams, ChronoStreamWork, k).track);
      if (r->n_calls > 0)
        {
          chrono_finding_add_track (f, data->trace_index, r->calls[0].track);
          chrono_finding_set_node (f, data->trace_index, r->calls[0].track, r->calls[0].index);
        }
    }
}
