/* chrono-analysis-breakdown.c: busy, idle and kernel-type time per device
 * and stream, after Holistic Trace Analysis's temporal, idle-time and
 * kernel-type breakdowns and its communication–computation overlap
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-analysis-private.h"

/* Why a stream or device sat idle before ITEM, which follows idle time
 * that began at GAP_START: HTA's host wait when the launching call had
 * not started yet, kernel wait when the gap is shorter than the launch
 * delay of back-to-back kernels, other otherwise. */
static void
classify_gap (ChronoBreakdown                *b,
              const ChronoWorkItem           *item,
              gint64                          gap_start,
              const ChronoAnalysisThresholds *thresholds)
{
  gint64 gap = item->start - gap_start;

  if (gap <= 0)
    return;
  if (item->launch_start != G_MININT64 && item->launch_start > gap_start)
    b->idle_host_wait_ns += gap;
  else if (gap < thresholds->kernel_wait_max_ns)
    b->idle_kernel_wait_ns += gap;
  else
    b->idle_other_ns += gap;
}

/* Each class's merged length in one pass over the items (those at AT,
 * or all N when AT is NULL), and the overlap of computation and
 * communication as what their union lacks of the sum. */
static void
fill_kinds (ChronoBreakdown      *b,
            const ChronoWorkItem *items,
            const guint          *at,
            guint                 n)
{
  ChronoRun runs[CHRONO_WORK_MEMSET + 1] = { { 0 } };
  ChronoRun all = { 0 }, comp_comm = { 0 };

  for (guint i = 0; i < n; i++)
    {
      const ChronoWorkItem *it = at ? &items[at[i]] : &items[i];

      if (it->cls == CHRONO_WORK_COMPUTE || it->cls == CHRONO_WORK_COMMUNICATION)
        b->n_kernels++;
      if (it->end <= it->start)
        continue;
      chrono_run_add (&runs[it->cls], it->start, it->end);
      chrono_run_add (&all, it->start, it->end);
      if (it->cls == CHRONO_WORK_COMPUTE || it->cls == CHRONO_WORK_COMMUNICATION)
        chrono_run_add (&comp_comm, it->start, it->end);
    }
  b->busy_ns = chrono_run_length (&all);
  b->idle_ns = (b->end_ns - b->start_ns) - b->busy_ns;
  b->compute_ns = chrono_run_length (&runs[CHRONO_WORK_COMPUTE]);
  b->communication_ns = chrono_run_length (&runs[CHRONO_WORK_COMMUNICATION]);
  b->memcpy_ns = chrono_run_length (&runs[CHRONO_WORK_MEMCPY]);
  b->memset_ns = chrono_run_length (&runs[CHRONO_WORK_MEMSET]);
  b->overlap_ns = b->compute_ns + b->communication_ns - chrono_run_length (&comp_comm);
}

static void
stream_breakdown (ChronoBreakdown                *b,
                  const ChronoDeviceWork         *d,
                  const ChronoStreamWork         *sw,
                  const ChronoAnalysisThresholds *thresholds)
{
  guint n = sw->positions->len;
  gint64 end = chrono_stream_item (d, sw, 0)->end;

  b->start_ns = chrono_stream_item (d, sw, 0)->start;
  for (guint i = 1; i < n; i++)
    {
      classify_gap (b, chrono_stream_item (d, sw, i), end, thresholds);
      end = MAX (end, chrono_stream_item (d, sw, i)->end);
    }
  b->end_ns = end;
  fill_kinds (b, (const ChronoWorkItem *) d->items->data, (const guint *) sw->positions->data, n);
}

static void
device_breakdown (ChronoBreakdown                *b,
                  const ChronoDeviceWork         *d,
                  const ChronoAnalysisThresholds *thresholds)
{
  const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;
  GArray *all = d->busy;
  gint64 copies;

  for (guint i = 1; i < all->len; i++)
    {
      const ChronoInterval *prev = &g_array_index (all, ChronoInterval, i - 1);
      const ChronoInterval *next = &g_array_index (all, ChronoInterval, i);
      classify_gap (b, &items[next->first], prev->end, thresholds);
    }
  b->start_ns = g_array_index (all, ChronoInterval, 0).start;
  b->end_ns = g_array_index (all, ChronoInterval, all->len - 1).end;
  /* The classes were merged with the items: their lengths are those of
   * their intervals; only copies and sets both on one device need the
   * items again, to tell them apart. */
  if (d->n_of_class[CHRONO_WORK_MEMCPY] > 0 && d->n_of_class[CHRONO_WORK_MEMSET] > 0)
    {
      fill_kinds (b, items, NULL, d->items->len);
      return;
    }
  copies = chrono_intervals_length (d->copies);
  b->n_kernels = d->n_of_class[CHRONO_WORK_COMPUTE] + d->n_of_class[CHRONO_WORK_COMMUNICATION];
  b->busy_ns = chrono_intervals_length (all);
  b->idle_ns = (b->end_ns - b->start_ns) - b->busy_ns;
  b->compute_ns = chrono_intervals_length (d->compute);
  b->communication_ns = chrono_intervals_length (d->communication);
  b->memcpy_ns = d->n_of_class[CHRONO_WORK_MEMSET] == 0 ? copies : 0;
  b->memset_ns = d->n_of_class[CHRONO_WORK_MEMSET] > 0 ? copies : 0;
  b->overlap_ns = chrono_intervals_overlap (d->compute, d->communication);
}

void
chrono_analysis_compute_breakdowns (ChronoRankData                 *data,
                                    const ChronoAnalysisThresholds *thresholds,
                                    GArray                         *out)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      ChronoBreakdown b = {
        .where = { data->trace_index, CHRONO_NO_TRACK },
        .rank = data->rank_index,
        .device = d->device,
        .stream = -1,
      };

      if (d->items->len == 0)
        continue;
      device_breakdown (&b, d, thresholds);
      d->breakdown = out->len;
      g_array_append_val (out, b);
      for (guint s = 0; s < d->streams->len; s++)
        {
          const ChronoStreamWork *sw = &g_array_index (d->streams, ChronoStreamWork, s);
          ChronoBreakdown sb = {
            .where = { data->trace_index, sw->track },
            .rank = data->rank_index,
            .device = d->device,
            .stream = sw->stream,
          };

          stream_breakdown (&sb, d, sw, thresholds);
          g_array_append_val (out, sb);
        }
    }
}
