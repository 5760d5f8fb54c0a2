/* chrono-analysis-settings.c: the thresholds of the analysis from
 * GSettings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-analysis-settings.h"

typedef enum { FIELD_INT64, FIELD_UINT, FIELD_UINT64 } FieldType;

/* Each key and the threshold it sets, in the key's own unit. */
static const struct {
  const char *key;
  gsize       offset;
  FieldType   type;
} keys[] = {
  { "idle-gap-min-us", G_STRUCT_OFFSET (ChronoAnalysisThresholds, idle_gap_min_ns), FIELD_INT64 },
  { "kernel-wait-max-ns", G_STRUCT_OFFSET (ChronoAnalysisThresholds, kernel_wait_max_ns), FIELD_INT64 },
  { "launch-bound-kernel-max-us", G_STRUCT_OFFSET (ChronoAnalysisThresholds, launch_bound_kernel_max_ns), FIELD_INT64 },
  { "small-dma-max-bytes", G_STRUCT_OFFSET (ChronoAnalysisThresholds, small_dma_max_bytes), FIELD_UINT64 },
  { "straggler-min-skew-us", G_STRUCT_OFFSET (ChronoAnalysisThresholds, straggler_min_skew_ns), FIELD_INT64 },
  { "low-utilization-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, low_utilization_percent), FIELD_UINT },
  { "launch-bound-min-kernels", G_STRUCT_OFFSET (ChronoAnalysisThresholds, launch_bound_min_kernels), FIELD_UINT },
  { "slow-step-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, slow_step_percent), FIELD_UINT },
  { "data-loading-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, data_loading_percent), FIELD_UINT },
  { "exposed-communication-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, exposed_comm_percent), FIELD_UINT },
  { "host-bound-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, host_bound_percent), FIELD_UINT },
  { "engine-bound-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, engine_bound_percent), FIELD_UINT },
  { "neuron-transpose-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, neuron_transpose_percent), FIELD_UINT },
  { "neuron-model-flops-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, model_flops_percent), FIELD_UINT },
  { "nki-coverage-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, nki_coverage_percent), FIELD_UINT },
  { "spill-reload-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, spill_reload_percent), FIELD_UINT },
  { "min-time-lost-us", G_STRUCT_OFFSET (ChronoAnalysisThresholds, min_time_lost_ns), FIELD_INT64 },
  { "low-efficiency-percent", G_STRUCT_OFFSET (ChronoAnalysisThresholds, low_efficiency_percent), FIELD_UINT },
  { "peak-gflops", G_STRUCT_OFFSET (ChronoAnalysisThresholds, peak_gflops), FIELD_UINT },
  { "peak-memory-gbps", G_STRUCT_OFFSET (ChronoAnalysisThresholds, peak_memory_gbps), FIELD_UINT },
};

/* Nanoseconds in one unit of KEY, from the suffix of its name. */
static gint64
get_scale (const char *key)
{
  return g_str_has_suffix (key, "-us") ? 1000 : g_str_has_suffix (key, "-ms") ? 1000000 : 1;
}

void
chrono_analysis_settings_read (GSettings                *settings,
                               ChronoAnalysisThresholds *thresholds)
{
  g_autoptr(GSettingsSchema) schema = NULL;

  chrono_analysis_thresholds_init (thresholds);
  if (settings == NULL)
    return;

  g_object_get (settings, "settings-schema", &schema, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      gpointer field = G_STRUCT_MEMBER_P (thresholds, keys[i].offset);
      guint value;

      /* A schema older than this build keeps the default. */
      if (!g_settings_schema_has_key (schema, keys[i].key))
        continue;
      value = g_settings_get_uint (settings, keys[i].key);
      switch (keys[i].type)
        {
        case FIELD_INT64:
          *(gint64 *) field = (gint64) value * get_scale (keys[i].key);
          break;
        case FIELD_UINT:
          *(guint *) field = value;
          break;
        case FIELD_UINT64:
          *(guint64 *) field = value;
          break;
        }
    }
}
