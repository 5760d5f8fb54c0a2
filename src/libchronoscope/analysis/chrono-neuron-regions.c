/* chrono-neuron-regions.c: a NeuronCore's repeating regions, the
 * stretches between its collectives
 *
 * A training or inference step on a NeuronCore repeats: a layer's work,
 * then its collective. The collectives (CC ops) cut the core's window
 * into regions; each region's ledger says where its time went, and the
 * regions as long as the typical one (within a tenth) repeat. A core
 * without collectives has no regions: the profile does not say where a
 * layer ends.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-analysis-private.h"
#include "chrono-json-util.h"
#include "chrono-neuron-regions.h"

/* Regions as long as the typical one within this share repeat. */
#define REPEAT_TOLERANCE 0.1

static gint
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The starts of the CC ops of D (the Collectives row), by start. */
static GArray *
region_bounds (ChronoRankData         *data,
               const ChronoDeviceWork *d)
{
  GArray *bounds = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint k = 0; k < d->items->len; k++)
    {
      const ChronoWorkItem *it = &g_array_index (d->items, ChronoWorkItem, k);
      const ChronoTrack *t = chrono_trace_get_track (data->trace, it->track);

      if (it->cls == CHRONO_WORK_COMMUNICATION &&
          g_str_has_prefix (chrono_trace_get_string (data->trace, t->display_name), "Collectives") &&
          (bounds->len == 0 || g_array_index (bounds, gint64, bounds->len - 1) < it->start))
        g_array_append_val (bounds, it->start);
    }
  return bounds;
}

static void
write_region (JsonBuilder              *b,
              const ChronoNeuronLedger *ledger,
              gint64                    start,
              gint64                    end,
              gboolean                  repeats)
{
  gint64 states[CHRONO_N_LEDGER_STATES] = { 0 };
  ChronoLedgerState main_idle = CHRONO_N_LEDGER_STATES;

  chrono_neuron_ledger_sum (ledger, start, end, states);
  json_builder_begin_object (b);
  chrono_json_add_int (b, "start_ns", start);
  chrono_json_add_int (b, "end_ns", end);
  json_builder_set_member_name (b, "repeats");
  json_builder_add_boolean_value (b, repeats);
  json_builder_set_member_name (b, "states");
  json_builder_begin_object (b);
  for (guint k = 0; k < G_N_ELEMENTS (chrono_neuron_ledger_states); k++)
    {
      ChronoLedgerState state = chrono_neuron_ledger_states[k];

      chrono_json_add_int (b, chrono_ledger_state_to_string (state), states[state]);
      if (state != CHRONO_LEDGER_COMPUTE && state != CHRONO_LEDGER_TRANSPOSE && states[state] > 0 &&
          (main_idle == CHRONO_N_LEDGER_STATES || states[state] > states[main_idle]))
        main_idle = state;
    }
  json_builder_end_object (b);
  if (main_idle != CHRONO_N_LEDGER_STATES)
    chrono_json_add_string (b, "main_idle", chrono_ledger_state_to_string (main_idle));
  json_builder_end_object (b);
}

static void
write_core (JsonBuilder            *b,
            ChronoRankData         *data,
            const ChronoDeviceWork *d)
{
  const ChronoNeuronLedger *ledger = d->neuron;
  g_autoptr(GArray) bounds = region_bounds (data, d);
  g_autoptr(GArray) lengths = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 typical = 0;
  guint repeating = 0;

  /* The regions: from the window's start to each collective's start, and
   * on to the window's end. */
  g_array_prepend_val (bounds, ((gint64) { chrono_neuron_ledger_get_start (ledger) }));
  g_array_append_val (bounds, ((gint64) { chrono_neuron_ledger_get_end (ledger) }));
  for (guint k = 1; k < bounds->len; k++)
    {
      gint64 len = g_array_index (bounds, gint64, k) - g_array_index (bounds, gint64, k - 1);
      g_array_append_val (lengths, len);
    }
  g_array_sort (lengths, compare_int64);
  typical = g_array_index (lengths, gint64, lengths->len / 2);

  json_builder_begin_object (b);
  chrono_json_add_int (b, "rank_index", data->rank_index);
  chrono_json_add_int (b, "breakdown", d->breakdown);
  chrono_json_add_int (b, "collectives", bounds->len - 2);
  chrono_json_add_int (b, "typical_ns", typical);
  json_builder_set_member_name (b, "regions");
  json_builder_begin_array (b);
  for (guint k = 1; k < bounds->len && bounds->len > 2; k++)
    {
      gint64 start = g_array_index (bounds, gint64, k - 1), end = g_array_index (bounds, gint64, k);
      gboolean repeats = ABS ((end - start) - typical) <= typical * REPEAT_TOLERANCE;

      repeating += repeats;
      write_region (b, ledger, start, end, repeats);
    }
  json_builder_end_array (b);
  chrono_json_add_int (b, "repeating", repeating);
  json_builder_end_object (b);
}

void
chrono_neuron_regions_write_json (ChronoAnalysis *self,
                                  JsonBuilder    *b)
{
  guint n_ranks;
  ChronoRankData **ranks = chrono_analysis_get_ranks (self, &n_ranks);
  gboolean any = FALSE;

  for (guint r = 0; r < n_ranks; r++)
    for (guint di = 0; di < ranks[r]->devices->len; di++)
      {
        const ChronoDeviceWork *d = &g_array_index (ranks[r]->devices, ChronoDeviceWork, di);

        if (d->neuron == NULL || chrono_neuron_ledger_get_end (d->neuron) <= chrono_neuron_ledger_get_start (d->neuron))
          continue;
        /* Only a profile with NeuronCores has the member. */
        if (!any)
          {
            json_builder_set_member_name (b, "neuron_regions");
            json_builder_begin_array (b);
            any = TRUE;
          }
        write_core (b, ranks[r], d);
      }
  if (any)
    json_builder_end_array (b);
}
