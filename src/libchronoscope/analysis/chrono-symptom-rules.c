/* chrono-symptom-rules.c: the symptoms, which keep what no cause explains:
 * slow steps, idle gaps and low utilization
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "chrono-rules-private.h"

#define MAX_GAPS_PER_DEVICE 10

/* ------------------------------------------------------------------ */
/* Symptoms: what is left after the causes                           */

void
chrono_rule_slow_steps (Ctx            *c,
                        ChronoRankData *data)
{
  guint n = data->steps->len;
  g_autofree gint64 *durs = NULL;
  gint64 median;

  if (n < 3)
    return;
  durs = g_new (gint64, n);
  for (guint i = 0; i < n; i++)
    {
      const ChronoStep *s = &g_array_index (data->steps, ChronoStep, i);
      durs[i] = s->work_end - s->start;
    }
  chrono_sort_by_int64 (durs, n, sizeof (gint64), 0);
  median = durs[n / 2];
  for (guint i = 0; i < n; i++)
    {
      const ChronoStep *s = &g_array_index (data->steps, ChronoStep, i);
      gint64 dur = s->work_end - s->start, explained = 0, lost;
      g_auto(ChronoClaim) claim = { NULL };
      ChronoFinding *f;

      if (dur * 100 <= median * (100 + (gint64) c->th->slow_step_percent))
        continue;
      /* What other findings claimed in the step explains as much of it. */
      for (guint di = 0; di < data->devices->len; di++)
        explained = MAX (explained, chrono_ledger_claimed_in (g_array_index (data->devices, ChronoDeviceWork, di).ledger,
                                                              s->start, s->work_end));
      chrono_claim_init (&claim);
      chrono_claim_add_rank (&claim, data, s->start, s->work_end, CHRONO_LEDGER_ALL_MASK);
      if (dur - median - explained <= 0 || (lost = chrono_rule_measure (c, &claim, dur - median - explained)) == 0)
        continue;
      f = chrono_rule_add_finding_printf (c, "slow-step", data, s->start, s->work_end, &claim, lost,
                                          chrono_advice_for_state (chrono_ledger_main_state (claim.state_ns, CHRONO_LEDGER_ALL_MASK,
                                                                                             CHRONO_LEDGER_IDLE_OTHER)),
                                          _("%s takes %.3f ms, %.0f%% over the median step; other findings explain %.3f ms of it"),
                                          chrono_rule_step_name (data, s), chrono_rule_ms (dur), 100.0 * (dur - median) / MAX (median, 1), chrono_rule_ms (explained));
      chrono_finding_add_evidence (f, "step_ns", dur);
      chrono_finding_add_evidence (f, "median_step_ns", median);
      chrono_finding_add_evidence (f, "explained_ns", explained);
      chrono_rule_add_claimed_states (f, &claim);
      chrono_finding_add_track (f, data->trace_index, s->track);
      chrono_finding_set_node (f, data->trace_index, s->track, s->index);
    }
}

typedef struct {
  gint64 start;
  gint64 end;
  guint  next;
} Gap;

static gint
compare_gaps (gconstpointer a,
              gconstpointer b)
{
  const Gap *x = a;
  const Gap *y = b;
  gint64 lx = x->end - x->start, ly = y->end - y->start;

  return lx != ly ? (lx > ly ? -1 : 1) : (x->start < y->start ? -1 : x->start > y->start);
}

void
chrono_rule_idle_gaps (Ctx            *c,
                       ChronoRankData *data)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;
      GArray *all = d->busy;
      g_autoptr(GArray) gaps = g_array_new (FALSE, FALSE, sizeof (Gap));
      g_autofree char *label = chrono_rule_device_label (data, d);
      gint64 total = 0;
      guint reported = 0;

      for (guint i = 1; i < all->len; i++)
        {
          const ChronoInterval *prev = &g_array_index (all, ChronoInterval, i - 1);
          const ChronoInterval *next = &g_array_index (all, ChronoInterval, i);
          Gap g = { prev->end, next->start, next->first };

          if (g.end - g.start >= c->th->idle_gap_min_ns)
            {
              g_array_append_val (gaps, g);
              total += g.end - g.start;
            }
        }
      g_array_sort (gaps, compare_gaps);
      for (guint i = 0; i < gaps->len && reported < MAX_GAPS_PER_DEVICE; i++)
        {
          const Gap *g = &g_array_index (gaps, Gap, i);
          const ChronoWorkItem *next = &items[g->next];
          g_auto(ChronoClaim) claim = { NULL };
          ChronoLedgerState cause;
          ChronoFinding *f;
          gint64 lost;

          chrono_claim_init (&claim);
          chrono_claim_add (&claim, data, di, g->start, g->end, CHRONO_LEDGER_IDLE_MASK, G_MAXUINT32, G_MAXINT64);
          /* What is left must still be a gap worth reporting. */
          if ((lost = chrono_rule_measure (c, &claim, G_MAXINT64)) < c->th->idle_gap_min_ns)
            continue;
          reported++;
          /* The cause and its advice: the state of the time claimed, not
           * of the whole gap, part of which other findings explain. */
          cause = chrono_rule_main_idle_state (&claim);
          f = chrono_rule_add_finding_printf (c, "gpu-idle-gap", data, g->start, g->end, &claim, lost, chrono_advice_for_state (cause),
                                              _("%s idle for %.3f ms (cause: %s), %.3f ms of it explained by no other finding"),
                                              label, chrono_rule_ms (g->end - g->start), chrono_advice_cause (cause), chrono_rule_ms (lost));
          chrono_rule_add_claimed_states (f, &claim);
          chrono_finding_add_evidence (f, "gap_ns", g->end - g->start);
          chrono_finding_add_evidence (f, "gaps_over_threshold", gaps->len);
          chrono_finding_add_evidence (f, "all_gaps_ns", total);
          if (next->launch_start != G_MININT64)
            chrono_finding_add_evidence (f, "launch_delay_ns", next->launch_start - g->start);
          chrono_finding_add_track (f, data->trace_index, next->track);
          if (next->launch_start != G_MININT64)
            chrono_finding_add_track (f, data->trace_index, next->launch_track);
          chrono_finding_set_node (f, data->trace_index, next->track, next->index);
        }
    }
}

void
chrono_rule_low_utilization (Ctx            *c,
                             ChronoRankData *data)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      g_autofree char *label = chrono_rule_device_label (data, d);
      guint n = MAX (data->steps->len, 1);

      for (guint s = 0; s < n; s++)
        {
          const ChronoStep *step = data->steps->len ? &g_array_index (data->steps, ChronoStep, s) : NULL;
          const ChronoInterval *first = &g_array_index (d->busy, ChronoInterval, 0);
          const ChronoInterval *last = &g_array_index (d->busy, ChronoInterval, d->busy->len - 1);
          gint64 start = MAX (step ? step->start : first->start, first->start);
          gint64 end = MIN (step ? step->work_end : last->end, last->end);
          gint64 busy, lost;
          g_auto(ChronoClaim) claim = { NULL };
          ChronoLedgerState cause;
          ChronoFinding *f;

          if (end <= start)
            continue;
          busy = chrono_intervals_length_in (d->busy, start, end);
          if (busy * 100 >= (end - start) * (gint64) c->th->low_utilization_percent)
            continue;
          chrono_claim_init (&claim);
          chrono_claim_add (&claim, data, di, start, end, CHRONO_LEDGER_IDLE_MASK, G_MAXUINT32, G_MAXINT64);
          if ((lost = chrono_rule_measure (c, &claim, G_MAXINT64)) == 0)
            continue;
          cause = chrono_rule_main_idle_state (&claim);
          f = chrono_rule_add_finding_printf (c, "low-utilization", data, start, end, &claim, lost, chrono_advice_for_state (cause),
                                              _("%s busy %.0f%% of %s; %.3f ms of its idle time is explained by no other finding "
                                                "(cause: %s)"),
                                              label, 100.0 * busy / (end - start), step ? chrono_rule_step_name (data, step) : _("the trace"),
                                              chrono_rule_ms (lost), chrono_advice_cause (cause));
          chrono_rule_add_claimed_states (f, &claim);
          chrono_finding_add_evidence (f, "busy_ns", busy);
          chrono_finding_add_evidence (f, "window_ns", end - start);
          chrono_finding_add_evidence (f, "utilization_percent", 100.0 * busy / (end - start));
          for (guint k = 0; k < d->streams->len; k++)
            chrono_finding_add_track (f, data->trace_index, g_array_index (d->streams, ChronoStreamWork, k).track);
        }
    }
}
