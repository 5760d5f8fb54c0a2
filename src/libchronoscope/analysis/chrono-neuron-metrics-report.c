/* chrono-neuron-metrics-report.c: the report's "neuron" member and its
 * Markdown section, our figures beside the profiler's
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <inttypes.h>
#include <math.h>

#include <glib/gi18n-lib.h>

#include "chrono-efficiency-private.h"
#include "chrono-json-util.h"
#include "chrono-neuron-metrics.h"
#include "chrono-neuron-ops.h"

/* Ours and the profiler's may differ by this share before a note says so. */
#define DIFFERENCE_TOLERANCE 0.02

/* Executions listed in the Markdown; the JSON has them all. */
#define MAX_TABLE_EXECUTIONS 10

/* The summary's key for each figure, and its label in the Markdown. */
static const struct {
  const char *profiler;
  gboolean    percent;
  const char *label;
} figures[CHRONO_NEURON_N_FIGURES] = {
  { "hfu_estimated_percent", TRUE, N_("HFU (%)") },
  { "mfu_estimated_percent", TRUE, N_("MFU (%)") },
  { "mbu_estimated_percent", TRUE, N_("MBU (%)") },
  { "hardware_flops", FALSE, N_("Hardware GFLOP") },
  { "transpose_flops", FALSE, N_("Transpose GFLOP") },
  { "model_flops", FALSE, N_("Model GFLOP") },
  { "hbm_read_bytes", FALSE, N_("HBM read (MiB)") },
  { "hbm_write_bytes", FALSE, N_("HBM written (MiB)") },
  { "spill_save_bytes", FALSE, N_("Spill saves (MiB)") },
  { "spill_reload_bytes", FALSE, N_("Spill reloads (MiB)") },
  { "mm_arithmetic_intensity", FALSE, N_("Arithmetic intensity (FLOP/B)") },
  { "peak_flops_bandwidth_ratio", FALSE, N_("Ridge point (FLOP/B)") },
  { "dma_transfer_count", FALSE, N_("DMA transfers") },
};

/* The profiler's value of figure F, in our units; NAN when it has none. */
static gdouble
profiler_value (JsonObject *summary,
                ChronoNeuronFigure f)
{
  gdouble v;

  if (summary == NULL)
    return NAN;
  if (figures[f].percent)
    return chrono_neuron_summary_percent (summary, figures[f].profiler, &v) ? v : NAN;
  return chrono_neuron_summary_number (summary, figures[f].profiler, &v) ? v : NAN;
}

/* A sentence for each figure where ours and the profiler's differ by
 * more than the tolerance. */
/* The engines as the profiler's summary counts them: the Tensor engine
 * both its rows. */
static const struct {
  const char *key;       /* "<key>_engine_instruction_count", "<key>_instruction_count" */
  const char *row;       /* the start of its rows' names */
} families[] = {
  { "tensor", "Tensor" }, { "vector", "Vector" }, { "scalar", "Scalar" }, { "gpsimd", "GpSimd" }, { "sync", "Sync" },
};

typedef struct {
  gdouble instructions;
  gdouble active_ns;
  gdouble profiler_instructions;  /* NAN when the summary has none */
  gdouble profiler_active_ns;
} Family;

static gdouble
summary_engine (JsonObject *summary,
                const char *key,
                const char *what,
                gdouble     scale)
{
  g_autofree char *long_key = g_strdup_printf ("%s_engine_%s", key, what);
  g_autofree char *short_key = g_strdup_printf ("%s_%s", key, what);
  gdouble v;

  if (chrono_neuron_summary_number (summary, long_key, &v) || chrono_neuron_summary_number (summary, short_key, &v))
    return v * scale;
  return NAN;
}

static void
family_compute (ChronoNeuronMetrics      *m,
                const ChronoNeuronWindow *w,
                guint                     f,
                Family                   *out)
{
  g_autoptr(GArray) rows = chrono_neuron_metrics_row_times (m, w->start, w->end);
  JsonObject *summary = chrono_neuron_metrics_get_summary (m);

  memset (out, 0, sizeof *out);
  for (guint i = 0; i < rows->len; i++)
    {
      const ChronoNeuronRowTime *row = &g_array_index (rows, ChronoNeuronRowTime, i);

      if (!row->dma && g_str_has_prefix (row->name, families[f].row))
        {
          out->instructions += row->count;
          out->active_ns += row->active_ns;
        }
    }
  if (f == 0)
    out->active_ns = chrono_intervals_length_in (chrono_neuron_metrics_tensor_busy (m), w->start, w->end);
  out->profiler_instructions = summary_engine (summary, families[f].key, "instruction_count", 1);
  out->profiler_active_ns = summary_engine (summary, families[f].key, "active_time", 1e9);
}

static void
add_difference (GPtrArray  *notes,
                const char *name,
                gdouble     ours,
                gdouble     theirs)
{
  if (!isfinite (theirs) || !isfinite (ours) || fabs (ours - theirs) <= DIFFERENCE_TOLERANCE * MAX (fabs (theirs), fabs (ours)))
    return;
  g_ptr_array_add (notes, g_strdup_printf (_("%s: ours %.6g, the profiler's %.6g (%+.1f %%)"), name, ours, theirs,
                                           theirs != 0 ? 100 * (ours - theirs) / fabs (theirs) : 100.0));
}

/* A sentence for each figure where ours and the profiler's differ by
 * more than the tolerance: the whole profile's only, which its summary
 * is of. */
static GPtrArray *
differences (ChronoNeuronMetrics      *m,
             const ChronoNeuronWindow *w)
{
  JsonObject *summary = chrono_neuron_metrics_get_summary (m);
  GPtrArray *notes = g_ptr_array_new_with_free_func (g_free);

  for (guint f = 0; f < CHRONO_NEURON_N_FIGURES; f++)
    add_difference (notes, chrono_neuron_figure_name (f), w->v[f], profiler_value (summary, f));
  for (guint f = 0; f < G_N_ELEMENTS (families); f++)
    {
      g_autofree char *instructions = g_strdup_printf ("%s_instructions", families[f].key);
      g_autofree char *active = g_strdup_printf ("%s_active_ns", families[f].key);
      Family fam;

      family_compute (m, w, f, &fam);
      add_difference (notes, instructions, fam.instructions, fam.profiler_instructions);
      add_difference (notes, active, fam.active_ns, fam.profiler_active_ns);
    }
  return notes;
}

static void
write_families (JsonBuilder              *b,
                ChronoNeuronMetrics      *m,
                const ChronoNeuronWindow *w)
{
  json_builder_set_member_name (b, "engine_families");
  json_builder_begin_array (b);
  for (guint f = 0; f < G_N_ELEMENTS (families); f++)
    {
      Family fam;

      family_compute (m, w, f, &fam);
      json_builder_begin_object (b);
      chrono_json_add_string (b, "engine", families[f].key);
      chrono_json_add_double (b, "instructions", fam.instructions);
      chrono_json_add_double (b, "active_ns", fam.active_ns);
      chrono_json_add_double (b, "profiler_instructions", fam.profiler_instructions);
      chrono_json_add_double (b, "profiler_active_ns", fam.profiler_active_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static const char *
flops_source_name (ChronoNeuronFlopsSource source)
{
  static const char * const names[] = { NULL, "profiler", "elements" };

  return names[source];
}

static const char *
bytes_source_name (ChronoNeuronBytesSource source)
{
  static const char * const names[] = { NULL, "instructions", "dma" };

  return names[source];
}

/* What the profile lacks for the figures, one sentence each. */
static GPtrArray *
limits (ChronoNeuronMetrics *m,
        const ChronoNeuronWindow        *w)
{
  const ChronoNeuronPeak *p = chrono_neuron_metrics_get_peak (m);
  GPtrArray *notes = g_ptr_array_new_with_free_func (g_free);

  if (p->tflops <= 0)
    g_ptr_array_add (notes, g_strdup (_("No compute peak: the profile's Metadata gives neither the Tensor "
                                        "engine's size and clock nor a known instance type; give it with --peak-tflops.")));
  if (p->hbm_gbps <= 0)
    g_ptr_array_add (notes, g_strdup (_("No HBM bandwidth: the profile's Metadata gives neither hbm_ddr_bandwidth "
                                        "nor a known instance type; give it with --peak-tbps.")));
  if (p->cores_source == CHRONO_NEURON_SOURCE_TABLE)
    g_ptr_array_add (notes, g_strdup_printf (_("The profile does not say how many physical cores form the logical "
                                               "core: %u, the default of %s, is assumed."),
                                             p->physical_cores, p->entry->instance));
  switch (chrono_neuron_metrics_get_flops_source (m))
    {
    case CHRONO_NEURON_FLOPS_NONE:
      g_ptr_array_add (notes, g_strdup (_("No Tensor instruction records its FLOPs or elements: no HFU or MFU.")));
      break;
    case CHRONO_NEURON_FLOPS_ELEMENTS:
      g_ptr_array_add (notes, g_strdup (_("FLOPs counted as 2 × rows × columns × elements of each matrix "
                                          "instruction: the profile has no raw_flops, so partly filled arrays "
                                          "count as full and transposes are known only by tensor_instruction_type.")));
      break;
    case CHRONO_NEURON_FLOPS_PROFILER:
      break;
    }
  if (!w->model_from_hlo)
    g_ptr_array_add (notes, g_strdup (_("Model FLOPs are hardware − transpose FLOPs: the profile has no HLO "
                                        "statistics (model_flops) for this window.")));
  switch (chrono_neuron_metrics_get_bytes_source (m))
    {
    case CHRONO_NEURON_BYTES_NONE:
      g_ptr_array_add (notes, g_strdup (_("Neither the instructions nor the transfers say which bytes went to or "
                                          "from HBM: no MBU.")));
      break;
    case CHRONO_NEURON_BYTES_DMA:
      g_ptr_array_add (notes, g_strdup (_("HBM bytes are those of the DMA transfers whose source or destination is "
                                          "not SBUF or PSUM, spills those of the spill queues: the instructions "
                                          "record no HBM bytes.")));
      break;
    case CHRONO_NEURON_BYTES_INSTRUCTIONS:
      break;
    }
  return notes;
}

static void
add_strings (JsonBuilder *b,
             const char  *name,
             GPtrArray   *texts)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < texts->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (texts, i));
  json_builder_end_array (b);
}

static void
write_engines (JsonBuilder              *b,
               ChronoNeuronMetrics      *m,
               GArray                   *rows,
               const ChronoNeuronWindow *w)
{
  gint64 len = MAX (w->end - w->start, 1);

  json_builder_set_member_name (b, "engines");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const ChronoNeuronRowTime *row = &g_array_index (rows, ChronoNeuronRowTime, i);

      if (row->dma)
        continue;
      json_builder_begin_object (b);
      chrono_json_add_string (b, "engine", row->name);
      chrono_json_add_int (b, "instructions", row->count);
      chrono_json_add_int (b, "instruction_ns", row->instruction_ns);
      chrono_json_add_int (b, "active_ns", row->active_ns);
      chrono_json_add_double (b, "active_share", (gdouble) row->active_ns / len);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  chrono_json_add_int (b, "tensor_active_ns",
                       chrono_intervals_length_in (chrono_neuron_metrics_tensor_busy (m), w->start, w->end));
}

static void
write_dma (JsonBuilder              *b,
           GArray                   *rows,
           const ChronoNeuronWindow *w)
{
  const ChronoNeuronTotals *t = &w->t;

  json_builder_set_member_name (b, "dma");
  json_builder_begin_object (b);
  chrono_json_add_int (b, "transfers", t->dma_transfers);
  chrono_json_add_double (b, "bytes", t->dma_bytes);
  chrono_json_add_double (b, "average_bytes", t->dma_transfers ? t->dma_bytes / t->dma_transfers : NAN);
  chrono_json_add_int (b, "small_transfers", t->small_dma_transfers);
  chrono_json_add_double (b, "small_share", t->dma_transfers ? (gdouble) t->small_dma_transfers / t->dma_transfers : NAN);
  json_builder_set_member_name (b, "queues");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const ChronoNeuronRowTime *row = &g_array_index (rows, ChronoNeuronRowTime, i);

      if (!row->dma)
        continue;
      json_builder_begin_object (b);
      chrono_json_add_string (b, "queue", row->name);
      chrono_json_add_int (b, "transfers", row->count);
      chrono_json_add_int (b, "active_ns", row->active_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
write_window (JsonBuilder              *b,
              ChronoNeuronMetrics      *m,
              const ChronoNeuronWindow *w)
{
  g_autoptr(GArray) rows = chrono_neuron_metrics_row_times (m, w->start, w->end);
  gdouble lost;
  gint64 active;
  gboolean throttle = chrono_neuron_metrics_throttling (m, w->start, w->end, &lost, &active);
  gdouble ceiling = w->v[CHRONO_NEURON_INTENSITY] / w->v[CHRONO_NEURON_RIDGE];

  chrono_json_add_int (b, "start_ns", w->start);
  chrono_json_add_int (b, "end_ns", w->end);
  chrono_json_add_int (b, "total_time_ns", w->end - w->start);
  for (guint f = 0; f < CHRONO_NEURON_N_FIGURES; f++)
    chrono_json_add_double (b, chrono_neuron_figure_name (f), w->v[f]);
  chrono_json_add_double (b, "raw_flops", isfinite (w->v[CHRONO_NEURON_HARDWARE_FLOPS]) ? w->t.raw_flops : NAN);
  chrono_json_add_nullable_string (b, "model_flops_source", w->model_from_hlo ? "hlo" : "instructions");
  chrono_json_add_double (b, "roofline_ceiling_percent", isfinite (ceiling) ? 100 * MIN (ceiling, 1.0) : NAN);
  chrono_json_add_double (b, "useful_read_percent", w->t.hbm_read_bytes > 0 ? 100 * (w->t.hbm_read_bytes - w->t.spill_reload_bytes) / w->t.hbm_read_bytes : NAN);
  chrono_json_add_double (b, "throttled_active_percent", throttle ? 100 * lost / MAX (w->end - w->start, 1) : NAN);
  chrono_json_add_double (b, "throttle_limit_percent", throttle && active > 0 ? 100 * (1 - lost / active) : NAN);
  write_engines (b, m, rows, w);
  write_dma (b, rows, w);
}

static void
write_profiler (JsonBuilder *b,
                JsonObject  *summary)
{
  gdouble seconds;

  json_builder_set_member_name (b, "profiler");
  if (summary == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  for (guint f = 0; f < CHRONO_NEURON_N_FIGURES; f++)
    chrono_json_add_double (b, chrono_neuron_figure_name (f), profiler_value (summary, f));
  chrono_json_add_double (b, "total_time_ns", chrono_neuron_summary_number (summary, "total_time", &seconds) ? seconds * 1e9 : NAN);
  json_builder_end_object (b);
}

static const char *
core_name (ChronoNeuronMetrics *m)
{
  ChronoRankData *data = chrono_neuron_metrics_get_rank (m);
  const ChronoProcess *p = chrono_trace_get_process (data->trace, chrono_neuron_metrics_get_device (m)->process);

  return chrono_trace_get_string (data->trace, p->name);
}

void
chrono_neuron_metrics_write_json (ChronoAnalysis *self,
                                  JsonBuilder    *b)
{
  g_autoptr(GPtrArray) cores = chrono_neuron_metrics_for_analysis (self);

  json_builder_set_member_name (b, "neuron");
  json_builder_begin_array (b);
  for (guint c = 0; c < cores->len; c++)
    {
      ChronoNeuronMetrics *m = g_ptr_array_index (cores, c);
      const ChronoNeuronPeak *p = chrono_neuron_metrics_get_peak (m);
      ChronoRankData *data = chrono_neuron_metrics_get_rank (m);
      g_autoptr(GPtrArray) diffs = NULL, notes = NULL;
      GArray *executions = chrono_neuron_metrics_executions (m);
      ChronoNeuronWindow whole;
      gint64 start, end;
      gboolean from_metadata;

      from_metadata = chrono_neuron_metrics_get_window (m, &start, &end);
      chrono_neuron_metrics_window (m, start, end, &whole);
      json_builder_begin_object (b);
      chrono_json_add_int (b, "trace", data->trace_index);
      chrono_json_add_int (b, "rank_index", data->rank_index);
      chrono_json_add_int (b, "device", chrono_neuron_metrics_get_device (m)->device);
      chrono_json_add_string (b, "device_name", core_name (m));
      chrono_json_add_nullable_string (b, "instance_type", p->instance_type);
      chrono_json_add_nullable_string (b, "peak_table_entry", p->entry ? p->entry->name : NULL);
      chrono_json_add_double (b, "peak_tflops", p->tflops > 0 ? p->tflops : NAN);
      chrono_json_add_nullable_string (b, "peak_tflops_source", chrono_neuron_source_to_string (p->tflops_source));
      chrono_json_add_double (b, "hbm_bandwidth_gbps", p->hbm_gbps > 0 ? p->hbm_gbps : NAN);
      chrono_json_add_nullable_string (b, "hbm_bandwidth_source", chrono_neuron_source_to_string (p->hbm_source));
      chrono_json_add_int (b, "physical_cores", p->physical_cores);
      chrono_json_add_nullable_string (b, "physical_cores_source", chrono_neuron_source_to_string (p->cores_source));
      chrono_json_add_nullable_string (b, "flops_source", flops_source_name (chrono_neuron_metrics_get_flops_source (m)));
      chrono_json_add_nullable_string (b, "bytes_source", bytes_source_name (chrono_neuron_metrics_get_bytes_source (m)));
      chrono_json_add_nullable_string (b, "window_source", from_metadata ? "metadata" : "activity");
      write_window (b, m, &whole);
      write_profiler (b, chrono_neuron_metrics_get_summary (m));
      write_families (b, m, &whole);
      diffs = differences (m, &whole);
      add_strings (b, "differences", diffs);
      notes = limits (m, &whole);
      add_strings (b, "notes", notes);
      json_builder_set_member_name (b, "executions");
      json_builder_begin_array (b);
      for (guint e = 0; e < executions->len; e++)
        {
          const ChronoStep *step = &g_array_index (executions, ChronoStep, e);
          ChronoNeuronWindow w;

          chrono_neuron_metrics_window (m, step->start, step->end, &w);
          json_builder_begin_object (b);
          chrono_json_add_int (b, "execution", step->index);
          write_window (b, m, &w);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      chrono_neuron_ops_write_json (self, m, b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* -------------------------------------------------------------------- */
/* Markdown                                                             */

static char *
figure_text (ChronoNeuronFigure f,
             gdouble v)
{
  if (!isfinite (v))
    return g_strdup ("–");
  switch (f)
    {
    case CHRONO_NEURON_HARDWARE_FLOPS:
    case CHRONO_NEURON_TRANSPOSE_FLOPS:
    case CHRONO_NEURON_MODEL_FLOPS:
      return g_strdup_printf ("%.3f", v / 1e9);
    case CHRONO_NEURON_HBM_READ:
    case CHRONO_NEURON_HBM_WRITE:
    case CHRONO_NEURON_SPILL_SAVE:
    case CHRONO_NEURON_SPILL_RELOAD:
      return g_strdup_printf ("%.2f", v / (1024.0 * 1024.0));
    case CHRONO_NEURON_DMA_TRANSFERS:
      return g_strdup_printf ("%.0f", v);
    case CHRONO_NEURON_HFU:
    case CHRONO_NEURON_MFU:
    case CHRONO_NEURON_MBU:
    case CHRONO_NEURON_INTENSITY:
    case CHRONO_NEURON_RIDGE:
    case CHRONO_NEURON_N_FIGURES:
    default:
      return g_strdup_printf ("%.2f", v);
    }
}

static void
append_peaks (GString             *s,
              ChronoNeuronMetrics *m)
{
  const ChronoNeuronPeak *p = chrono_neuron_metrics_get_peak (m);
  static const char * const from[] = {
    NULL, N_("from the settings"), N_("from the profile's Metadata"), N_("from the peak table"),
  };

  if (p->tflops > 0)
    g_string_append_printf (s, _("- Peak: %.2f TFLOP/s BF16 over %u physical %s (%s%s%s)\n"), p->tflops,
                            p->physical_cores, ngettext ("core", "cores", p->physical_cores), _(from[p->tflops_source]),
                            p->tflops_source == CHRONO_NEURON_SOURCE_TABLE ? ": " : "",
                            p->tflops_source == CHRONO_NEURON_SOURCE_TABLE ? p->entry->name : "");
  if (p->hbm_gbps > 0)
    g_string_append_printf (s, _("- HBM: %.0f GB/s, one stack (%s)\n"), p->hbm_gbps, _(from[p->hbm_source]));
}

void
chrono_neuron_metrics_append_markdown (ChronoAnalysis *self,
                                       GString        *s)
{
  g_autoptr(GPtrArray) cores = chrono_neuron_metrics_for_analysis (self);

  for (guint c = 0; c < cores->len; c++)
    {
      ChronoNeuronMetrics *m = g_ptr_array_index (cores, c);
      JsonObject *summary = chrono_neuron_metrics_get_summary (m);
      g_autoptr(GPtrArray) diffs = NULL, notes = NULL;
      g_autoptr(GArray) rows = NULL;
      GArray *executions = chrono_neuron_metrics_executions (m);
      ChronoNeuronWindow whole;
      gint64 start, end, active;
      gdouble lost;

      chrono_neuron_metrics_get_window (m, &start, &end);
      chrono_neuron_metrics_window (m, start, end, &whole);
      g_string_append_printf (s, "\n## %s: %s\n\n", core_name (m), _("Neuron metrics"));
      append_peaks (s, m);
      notes = limits (m, &whole);
      for (guint i = 0; i < notes->len; i++)
        g_string_append_printf (s, "- %s\n", (char *) g_ptr_array_index (notes, i));
      g_string_append_printf (s, "\n| %s | %s | %s |\n|---|---:|---:|\n", _("Metric"), _("Ours"), _("The profiler's"));
      for (guint f = 0; f < CHRONO_NEURON_N_FIGURES; f++)
        {
          g_autofree char *ours = figure_text (f, whole.v[f]);
          g_autofree char *theirs = figure_text (f, profiler_value (summary, f));

          g_string_append_printf (s, "| %s | %s | %s |\n", _(figures[f].label), ours, theirs);
        }
      if (whole.t.dma_transfers > 0)
        g_string_append_printf (s, _("\n- DMA: %" PRIu64 " transfers, %.0f bytes on average, %.1f %% under 4 KiB\n"),
                                whole.t.dma_transfers, whole.t.dma_bytes / whole.t.dma_transfers,
                                100.0 * whole.t.small_dma_transfers / whole.t.dma_transfers);
      if (chrono_neuron_metrics_throttling (m, start, end, &lost, &active) && active > 0)
        g_string_append_printf (s, _("- Throttling took %.1f %% of the Tensor engine's peak over the window "
                                     "(an average limit of %.1f %% while it was active)\n"),
                                100 * lost / MAX (end - start, 1), 100 * (1 - lost / active));
      diffs = differences (m, &whole);
      for (guint i = 0; i < diffs->len; i++)
        g_string_append_printf (s, _("- Differs from the profiler by more than 2 %%: %s\n"), (char *) g_ptr_array_index (diffs, i));

      g_string_append_printf (s, "\n| %s | %s | %s | %s |\n|---|---:|---:|---:|\n",
                              _("Engine"), _("Instructions"), _("Active (ms)"), _("Active share"));
      rows = chrono_neuron_metrics_row_times (m, start, end);
      for (guint i = 0; i < rows->len; i++)
        {
          const ChronoNeuronRowTime *row = &g_array_index (rows, ChronoNeuronRowTime, i);

          g_string_append_printf (s, "| %s | %" G_GUINT64_FORMAT " | %.3f | %.1f%% |\n", row->name, row->count,
                                  row->active_ns / 1e6, 100.0 * row->active_ns / MAX (end - start, 1));
        }
      if (executions->len > 0)
        {
          g_string_append_printf (s, "\n| %s | %s | %s | %s | %s |\n|---|---:|---:|---:|---:|\n",
                                  _("Execution"), _("Time (ms)"), _("HFU (%)"), _("MFU (%)"), _("MBU (%)"));
          for (guint e = 0; e < MIN (executions->len, MAX_TABLE_EXECUTIONS); e++)
            {
              const ChronoStep *step = &g_array_index (executions, ChronoStep, e);
              g_autofree char *hfu = NULL, *mfu = NULL, *mbu = NULL;
              ChronoNeuronWindow w;

              chrono_neuron_metrics_window (m, step->start, step->end, &w);
              hfu = figure_text (CHRONO_NEURON_HFU, w.v[CHRONO_NEURON_HFU]);
              mfu = figure_text (CHRONO_NEURON_MFU, w.v[CHRONO_NEURON_MFU]);
              mbu = figure_text (CHRONO_NEURON_MBU, w.v[CHRONO_NEURON_MBU]);
              g_string_append_printf (s, "| %u | %.3f | %s | %s | %s |\n", step->index,
                                      (step->end - step->start) / 1e6, hfu, mfu, mbu);
            }
          if (executions->len > MAX_TABLE_EXECUTIONS)
            g_string_append_printf (s, _("\n…and %u more executions in the JSON report.\n"),
                                    executions->len - MAX_TABLE_EXECUTIONS);
        }
      chrono_neuron_ops_append_markdown (self, m, s);
    }
}
