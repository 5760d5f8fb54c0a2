/* chrono-efficiency-peaks.c: the peaks that apply on a device, and a call's roofline at them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-efficiency-peaks.h"

GHashTable *
chrono_efficiency_device_names (ChronoTrace *trace)
{
  GHashTable *names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(JsonNode) props = chrono_trace_get_metadata (trace, "deviceProperties");
  JsonArray *array;

  if (props == NULL || !JSON_NODE_HOLDS_ARRAY (props))
    return names;
  array = json_node_get_array (props);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *o;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      o = json_node_get_object (node);
      if (json_object_has_member (o, "id") && json_object_has_member (o, "name") &&
          JSON_NODE_HOLDS_VALUE (json_object_get_member (o, "name")) &&
          json_node_get_value_type (json_object_get_member (o, "name")) == G_TYPE_STRING)
        g_hash_table_insert (names, GINT_TO_POINTER ((gint) json_object_get_int_member (o, "id")),
                             g_strdup (json_object_get_string_member (o, "name")));
    }
  return names;
}

void
chrono_efficiency_resolve_peaks (const char                     *device_name,
                                 const ChronoAnalysisThresholds *th,
                                 ChronoEfficiencyPeaks          *peaks)
{
  peaks->table = chrono_device_peaks_lookup (device_name);
  peaks->known = peaks->table != NULL || (th->peak_gflops > 0 && th->peak_memory_gbps > 0);
  if (peaks->table)
    peaks->custom = *peaks->table;
  else
    peaks->custom = (ChronoDevicePeaks) { 0 };
  if (th->peak_gflops > 0)
    for (guint d = 0; d < CHRONO_N_DTYPES; d++)
      peaks->custom.matrix_tflops[d] = peaks->custom.vector_tflops[d] = th->peak_gflops / 1000.0;
  if (th->peak_memory_gbps > 0)
    peaks->custom.memory_tbps = th->peak_memory_gbps / 1000.0;
}

gboolean
chrono_efficiency_call_roofline (const ChronoDevicePeaks *peaks,
                                 const ChronoOpCost      *cost,
                                 gdouble                 *ns,
                                 ChronoBound             *bound)
{
  gdouble tflops = chrono_device_peaks_tflops (peaks, cost->dtype, cost->matrix);
  gdouble memory_ns, compute_ns;

  if (peaks->memory_tbps <= 0)
    return FALSE;
  memory_ns = cost->bytes / (peaks->memory_tbps * 1e3);
  if (tflops <= 0)
    {
      /* Matrix work needs its peak; vector work without a quoted vector
       * rate is bounded by memory, which it is long before. */
      if (cost->matrix)
        return FALSE;
      *ns = memory_ns;
      *bound = CHRONO_BOUND_MEMORY;
      return TRUE;
    }
  compute_ns = cost->flops / (tflops * 1e3);
  *ns = MAX (compute_ns, memory_ns);
  *bound = compute_ns >= memory_ns ? CHRONO_BOUND_COMPUTE : CHRONO_BOUND_MEMORY;
  return TRUE;
}
