/* chrono-analysis-report.c: the analysis as JSON and as Markdown
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "chrono-analysis-private.h"
#include "chrono-format.h"
#include "chrono-efficiency-private.h"
#include "chrono-json-util.h"
#include "chrono-memory-private.h"
#include "chrono-neuron-regions.h"
#include "chrono-profiler-overlap.h"

/* A report people read: the costliest findings; the JSON has them all. */
#define MAX_TABLE_FINDINGS 30

static const char *
track_name (ChronoAnalysis *self,
            ChronoTrackRef  ref)
{
  ChronoTrace *trace = chrono_analysis_get_trace (self, ref.trace);

  return chrono_trace_get_string (trace, chrono_trace_get_track (trace, ref.track)->display_name);
}

/* A device row is followed by its streams: the device is their process. */
static const char *
device_name (ChronoAnalysis *self,
             guint           row)
{
  const ChronoBreakdown *stream = chrono_analysis_get_breakdown (self, row + 1);
  ChronoTrace *trace = chrono_analysis_get_trace (self, stream->where.trace);
  const ChronoTrack *t = chrono_trace_get_track (trace, stream->where.track);

  return chrono_trace_get_string (trace, chrono_trace_get_process (trace, t->process)->display_name);
}

/* A NeuronCore's row holds its own states, a GPU's the others. */
static guint
n_row_states (const ChronoLedgerRow *r)
{
  return r->neuron_core ? G_N_ELEMENTS (chrono_neuron_ledger_states) : CHRONO_N_GPU_LEDGER_STATES;
}

static ChronoLedgerState
row_state (const ChronoLedgerRow *r,
           guint                  k)
{
  return r->neuron_core ? chrono_neuron_ledger_states[k] : (ChronoLedgerState) k;
}

static void
add_track (JsonBuilder    *b,
           ChronoAnalysis *self,
           ChronoTrackRef  ref)
{
  json_builder_begin_object (b);
  chrono_json_add_int (b, "trace", ref.trace);
  if (ref.track != CHRONO_NO_TRACK)
    {
      chrono_json_add_int (b, "track", ref.track);
      chrono_json_add_string (b, "name", track_name (self, ref));
    }
  json_builder_end_object (b);
}

char *
chrono_analysis_to_json (ChronoAnalysis *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);

  json_builder_begin_object (b);
  chrono_json_add_string (b, "schema", "chronoscope.analysis/2");

  json_builder_set_member_name (b, "traces");
  json_builder_begin_array (b);
  for (guint i = 0; i < chrono_analysis_get_n_traces (self); i++)
    {
      ChronoTrace *trace = chrono_analysis_get_trace (self, i);
      json_builder_begin_object (b);
      chrono_json_add_string (b, "file", chrono_trace_get_path (trace));
      chrono_json_add_int (b, "rank", chrono_trace_get_rank (trace));
      chrono_json_add_int (b, "start_ns", chrono_trace_get_start_ns (trace));
      chrono_json_add_int (b, "end_ns", chrono_trace_get_end_ns (trace));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "ranks");
  json_builder_begin_array (b);
  for (guint i = 0; i < chrono_analysis_get_n_ranks (self); i++)
    {
      const ChronoRankInfo *r = chrono_analysis_get_rank (self, i);
      json_builder_begin_object (b);
      chrono_json_add_int (b, "trace", r->trace);
      chrono_json_add_int (b, "rank", r->rank);
      chrono_json_add_string (b, "label", r->label);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "limitations");
  json_builder_begin_array (b);
  for (guint i = 0; i < chrono_analysis_get_n_limitations (self); i++)
    {
      const ChronoLimitation *l = chrono_analysis_get_limitation (self, i);
      json_builder_begin_object (b);
      chrono_json_add_string (b, "id", l->id);
      if (l->rank != G_MAXUINT)
        chrono_json_add_int (b, "rank_index", l->rank);
      chrono_json_add_string (b, "message", l->message);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "ledger");
  json_builder_begin_array (b);
  for (guint i = 0; i < chrono_analysis_get_n_ledger_rows (self); i++)
    {
      const ChronoLedgerRow *r = chrono_analysis_get_ledger_row (self, i);
      const ChronoBreakdown *d = chrono_analysis_get_breakdown (self, r->breakdown);
      json_builder_begin_object (b);
      chrono_json_add_int (b, "trace", d->where.trace);
      chrono_json_add_int (b, "rank_index", r->rank);
      chrono_json_add_int (b, "device", d->device);
      chrono_json_add_string (b, "device_name", device_name (self, r->breakdown));
      chrono_json_add_int (b, "breakdown", r->breakdown);
      if (r->neuron_core)
        chrono_json_add_string (b, "kind", "neuron_core");
      if (r->name)
        chrono_json_add_string (b, "step", r->name);
      chrono_json_add_int (b, "start_ns", r->start_ns);
      chrono_json_add_int (b, "end_ns", r->end_ns);
      json_builder_set_member_name (b, "states");
      json_builder_begin_object (b);
      for (guint k = 0; k < n_row_states (r); k++)
        chrono_json_add_int (b, chrono_ledger_state_to_string (row_state (r, k)), r->state_ns[row_state (r, k)]);
      json_builder_end_object (b);
      chrono_json_add_int (b, "recoverable_ns", r->recoverable_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  chrono_neuron_regions_write_json (self, b);
  chrono_profiler_overlap_write_json (self, b);

  json_builder_set_member_name (b, "host_ledger");
  json_builder_begin_array (b);
  for (guint i = 0; i < chrono_analysis_get_n_host_ledger_rows (self); i++)
    {
      const ChronoHostLedgerRow *r = chrono_analysis_get_host_ledger_row (self, i);
      json_builder_begin_object (b);
      chrono_json_add_int (b, "trace", r->trace);
      chrono_json_add_int (b, "rank_index", r->rank);
      chrono_json_add_int (b, "track", r->track);
      chrono_json_add_string (b, "name", track_name (self, (ChronoTrackRef) { r->trace, r->track }));
      chrono_json_add_int (b, "start_ns", r->start_ns);
      chrono_json_add_int (b, "end_ns", r->end_ns);
      json_builder_set_member_name (b, "states");
      json_builder_begin_object (b);
      chrono_json_add_int (b, "sync", r->sync_ns);
      chrono_json_add_int (b, "data_loading", r->data_loading_ns);
      chrono_json_add_int (b, "launch", r->launch_ns);
      chrono_json_add_int (b, "running", r->running_ns);
      chrono_json_add_int (b, "untraced", r->untraced_ns);
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "breakdown");
  json_builder_begin_array (b);
  for (guint i = 0; i < chrono_analysis_get_n_breakdowns (self); i++)
    {
      const ChronoBreakdown *r = chrono_analysis_get_breakdown (self, i);
      json_builder_begin_object (b);
      chrono_json_add_int (b, "trace", r->where.trace);
      chrono_json_add_int (b, "rank_index", r->rank);
      chrono_json_add_string (b, "scope", r->where.track == CHRONO_NO_TRACK ? "device" : "stream");
      chrono_json_add_int (b, "device", r->device);
      if (r->where.track != CHRONO_NO_TRACK)
        {
          chrono_json_add_int (b, "stream", r->stream);
          chrono_json_add_int (b, "track", r->where.track);
          chrono_json_add_string (b, "name", track_name (self, r->where));
        }
      chrono_json_add_int (b, "start_ns", r->start_ns);
      chrono_json_add_int (b, "end_ns", r->end_ns);
      chrono_json_add_int (b, "busy_ns", r->busy_ns);
      chrono_json_add_int (b, "idle_ns", r->idle_ns);
      chrono_json_add_int (b, "idle_host_wait_ns", r->idle_host_wait_ns);
      chrono_json_add_int (b, "idle_kernel_wait_ns", r->idle_kernel_wait_ns);
      chrono_json_add_int (b, "idle_other_ns", r->idle_other_ns);
      chrono_json_add_int (b, "compute_ns", r->compute_ns);
      chrono_json_add_int (b, "non_compute_ns", r->busy_ns - r->compute_ns);
      chrono_json_add_int (b, "communication_ns", r->communication_ns);
      chrono_json_add_int (b, "memcpy_ns", r->memcpy_ns);
      chrono_json_add_int (b, "memset_ns", r->memset_ns);
      chrono_json_add_int (b, "comm_comp_overlap_ns", r->overlap_ns);
      chrono_json_add_int (b, "kernels", r->n_kernels);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "critical_path");
  json_builder_begin_array (b);
  for (guint i = 0; i < chrono_analysis_get_n_paths (self); i++)
    {
      const ChronoCriticalPath *p = chrono_analysis_get_path (self, i);
      json_builder_begin_object (b);
      chrono_json_add_int (b, "trace", p->trace);
      chrono_json_add_int (b, "rank_index", p->rank);
      chrono_json_add_string (b, "step", p->name);
      chrono_json_add_int (b, "start_ns", p->start_ns);
      chrono_json_add_int (b, "end_ns", p->end_ns);
      chrono_json_add_int (b, "total_ns", p->total_ns);
      json_builder_set_member_name (b, "by_category");
      json_builder_begin_object (b);
      for (guint c = 0; c < CHRONO_N_PATH_CATEGORIES; c++)
        chrono_json_add_int (b, chrono_path_category_to_string (c), p->by_category[c]);
      json_builder_end_object (b);
      chrono_json_add_int (b, "segments", p->n_segments);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "findings");
  json_builder_begin_array (b);
  for (guint i = 0; i < chrono_analysis_get_n_findings (self); i++)
    {
      const ChronoFinding *f = chrono_analysis_get_finding (self, i);
      json_builder_begin_object (b);
      chrono_json_add_string (b, "rule", f->rule);
      chrono_json_add_int (b, "rank_index", f->rank);
      chrono_json_add_string (b, "severity", chrono_severity_to_string (f->severity));
      chrono_json_add_string (b, "title", f->title);
      chrono_json_add_int (b, "start_ns", f->start_ns);
      chrono_json_add_int (b, "end_ns", f->end_ns);
      json_builder_set_member_name (b, "tracks");
      json_builder_begin_array (b);
      for (guint k = 0; k < f->n_tracks; k++)
        add_track (b, self, f->tracks[k]);
      json_builder_end_array (b);
      chrono_json_add_int (b, "time_lost_ns", f->time_lost_ns);
      json_builder_set_member_name (b, "claims");
      json_builder_begin_array (b);
      for (guint k = 0; k < f->n_shares; k++)
        {
          json_builder_begin_object (b);
          chrono_json_add_int (b, "breakdown", f->shares[k].breakdown);
          chrono_json_add_int (b, "ns", f->shares[k].ns);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "evidence");
      json_builder_begin_object (b);
      for (guint k = 0; k < f->n_evidence; k++)
        {
          json_builder_set_member_name (b, f->evidence[k].key);
          if (f->evidence[k].value == (gdouble) (gint64) f->evidence[k].value)
            json_builder_add_int_value (b, (gint64) f->evidence[k].value);
          else
            json_builder_add_double_value (b, f->evidence[k].value);
        }
      json_builder_end_object (b);
      chrono_json_add_string (b, "recommendation", f->recommendation);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  chrono_efficiency_write_json (self, b);
  {
    guint n_memories;
    ChronoMemory * const *memories = chrono_analysis_get_memories (self, &n_memories);
    chrono_memory_write_json (memories, n_memories, b);
  }
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  return json_generator_to_data (gen, NULL);
}

static char *
fmt_ms (gint64 ns)
{
  return g_strdup_printf ("%.3f", ns / 1e6);
}

static char *
fmt_pct (gint64 part,
         gint64 whole)
{
  return whole > 0 ? g_strdup_printf ("%.1f%%", 100.0 * part / whole) : g_strdup ("–");
}

typedef struct {
  const char *rule;
  guint       count;
  gint64      time_lost_ns;
  guint       worst;  /* the finding that costs most */
} RuleTotal;

static gint
compare_rule_totals (gconstpointer a,
                     gconstpointer b)
{
  const RuleTotal *x = a, *y = b;

  if (x->time_lost_ns != y->time_lost_ns)
    return x->time_lost_ns > y->time_lost_ns ? -1 : 1;
  return g_strcmp0 (x->rule, y->rule);
}

/* One line a rule, most costly first: a rule that fires on every step
 * reads as one problem, with what to try said once. */
static void
append_rule_summary (ChronoAnalysis *self,
                     GString        *s)
{
  g_autoptr(GArray) totals = g_array_new (FALSE, TRUE, sizeof (RuleTotal));

  for (guint i = 0; i < chrono_analysis_get_n_findings (self); i++)
    {
      const ChronoFinding *f = chrono_analysis_get_finding (self, i);
      RuleTotal *t = NULL;

      for (guint k = 0; k < totals->len && t == NULL; k++)
        if (g_strcmp0 (g_array_index (totals, RuleTotal, k).rule, f->rule) == 0)
          t = &g_array_index (totals, RuleTotal, k);
      if (t == NULL)
        {
          RuleTotal fresh = { f->rule, 0, 0, i };

          g_array_append_val (totals, fresh);
          t = &g_array_index (totals, RuleTotal, totals->len - 1);
        }
      t->count++;
      t->time_lost_ns += f->time_lost_ns;
      /* Findings come most costly first. */
    }
  if (totals->len == 0)
    return;
  g_array_sort (totals, compare_rule_totals);

  g_string_append_printf (s, "\n## %s\n\n| %s | %s | %s | %s | %s |\n|---|---:|---:|---|---|\n",
                          _("Summary"), _("Rule"), _("Findings"), _("Time lost (ms)"), _("Worst"),
                          _("What to try"));
  for (guint k = 0; k < totals->len; k++)
    {
      const RuleTotal *t = &g_array_index (totals, RuleTotal, k);
      const ChronoFinding *worst = chrono_analysis_get_finding (self, t->worst);
      g_autofree char *lost = fmt_ms (t->time_lost_ns);
      g_autofree char *count = g_strdup_printf ("%u", t->count);

      g_string_append (s, "|");
      chrono_format_markdown_cell (s, t->rule);
      chrono_format_markdown_cell (s, count);
      chrono_format_markdown_cell (s, lost);
      chrono_format_markdown_cell (s, worst->title);
      chrono_format_markdown_cell (s, worst->recommendation);
      g_string_append (s, "\n");
    }
}

/* One line a device: how much of its time the findings could win back,
 * and by what. */
static void
append_recoverable (ChronoAnalysis *self,
                    GString        *s)
{
  gboolean any = FALSE;

  for (guint i = 0; i < chrono_analysis_get_n_ledger_rows (self); i++)
    {
      const ChronoLedgerRow *r = chrono_analysis_get_ledger_row (self, i);
      const ChronoRankInfo *rank = chrono_analysis_get_rank (self, r->rank);
      g_autoptr(GArray) by_rule = NULL;
      gint64 window = r->end_ns - r->start_ns;

      if (r->step >= 0)
        continue;
      if (!any)
        g_string_append_printf (s, "\n## %s\n\n", _("Recoverable time"));
      any = TRUE;
      by_rule = chrono_analysis_dup_recoverable_by_rule (self, r->breakdown);
      g_string_append_printf (s, _("- **%s** (%s): %.3f of %.3f ms (%.1f%%) could be recovered"),
                              device_name (self, r->breakdown), rank->label, r->recoverable_ns / 1e6,
                              window / 1e6, window > 0 ? 100.0 * r->recoverable_ns / window : 0.0);
      for (guint q = 0; q < by_rule->len; q++)
        {
          const ChronoRuleShare *rs = &g_array_index (by_rule, ChronoRuleShare, q);
          g_string_append_printf (s, "%s%s %.3f ms", q == 0 ? _(": ") : ", ", rs->rule, rs->ns / 1e6);
        }
      g_string_append (s, "\n");
    }
}

static void
append_limitations (ChronoAnalysis *self,
                    GString        *s)
{
  if (chrono_analysis_get_n_limitations (self) == 0)
    return;
  g_string_append_printf (s, "\n## %s\n\n", _("What the trace does not show"));
  for (guint i = 0; i < chrono_analysis_get_n_limitations (self); i++)
    g_string_append_printf (s, "- %s\n", chrono_analysis_get_limitation (self, i)->message);
}

/* The table of the GPUs' ledgers (NEURON false) or the NeuronCores'. */
static void
append_ledger_table (ChronoAnalysis *self,
                     GString        *s,
                     gboolean        neuron,
                     const char     *title,
                     const char     *text)
{
  const ChronoLedgerRow model = { .neuron_core = neuron };
  gboolean any = FALSE;

  for (guint i = 0; i < chrono_analysis_get_n_ledger_rows (self) && !any; i++)
    any = chrono_analysis_get_ledger_row (self, i)->neuron_core == neuron;
  if (!any)
    return;
  g_string_append_printf (s, "\n## %s\n\n%s\n\n| %s | %s | %s |", title, text,
                          _("Device"), _("Rank"), _("Window"));
  for (guint k = 0; k < n_row_states (&model); k++)
    g_string_append_printf (s, " %s |", chrono_ledger_state_to_string (row_state (&model, k)));
  g_string_append_printf (s, " %s |\n|---|---|---:|", _("Recoverable"));
  for (guint k = 0; k <= n_row_states (&model); k++)
    g_string_append (s, "---:|");
  g_string_append (s, "\n");
  for (guint i = 0; i < chrono_analysis_get_n_ledger_rows (self); i++)
    {
      const ChronoLedgerRow *r = chrono_analysis_get_ledger_row (self, i);
      g_autofree char *window = fmt_ms (r->end_ns - r->start_ns);
      g_autofree char *recoverable = fmt_ms (r->recoverable_ns);

      if (r->step >= 0 || r->neuron_core != neuron)
        continue;
      g_string_append (s, "|");
      chrono_format_markdown_cell (s, device_name (self, r->breakdown));
      chrono_format_markdown_cell (s, chrono_analysis_get_rank (self, r->rank)->label);
      chrono_format_markdown_cell (s, window);
      for (guint k = 0; k < n_row_states (r); k++)
        {
          g_autofree char *v = fmt_ms (r->state_ns[row_state (r, k)]);
          chrono_format_markdown_cell (s, v);
        }
      chrono_format_markdown_cell (s, recoverable);
      g_string_append (s, "\n");
    }
}

static void
append_ledger (ChronoAnalysis *self,
               GString        *s)
{
  append_ledger_table (self, s, FALSE, _("Time ledger"),
                       _("Each device's window, every nanosecond in one state (ms)."));
  append_ledger_table (self, s, TRUE, _("NeuronCore time ledger"),
                       _("Each NeuronCore's window, every nanosecond in one state of its Tensor engine (ms)."));
}

char *
chrono_analysis_to_markdown (ChronoAnalysis *self)
{
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);

  g_string_append_printf (s, "# %s\n\n", _("Where the time goes"));
  for (guint i = 0; i < chrono_analysis_get_n_traces (self); i++)
    {
      ChronoTrace *trace = chrono_analysis_get_trace (self, i);
      g_autofree char *basename = g_path_get_basename (chrono_trace_get_path (trace));
      g_string_append_printf (s, _("- Trace %u: `%s`"), i, basename);
      if (chrono_trace_get_rank (trace) >= 0)
        g_string_append_printf (s, _(" (rank %d)"), chrono_trace_get_rank (trace));
      g_string_append (s, "\n");
    }
  if (chrono_analysis_get_n_ranks (self) > chrono_analysis_get_n_traces (self))
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "- analysed as %u rank\n", "- analysed as %u ranks\n",
                                         chrono_analysis_get_n_ranks (self)),
                            chrono_analysis_get_n_ranks (self));

  append_limitations (self, s);
  append_recoverable (self, s);
  append_rule_summary (self, s);

  g_string_append_printf (s, "\n## %s\n\n", _("Findings"));
  if (chrono_analysis_get_n_findings (self) == 0)
    g_string_append_printf (s, "%s\n", _("No bottleneck found."));
  else
    g_string_append_printf (s, "| # | %s | %s | %s | %s | %s | %s |\n|---|---|---:|---|---|---|---|\n",
                            _("Severity"), _("Time lost (ms)"), _("Finding"), _("Rule"), _("Rank"), _("Where (ms)"));
  for (guint i = 0; i < MIN (chrono_analysis_get_n_findings (self), MAX_TABLE_FINDINGS); i++)
    {
      const ChronoFinding *f = chrono_analysis_get_finding (self, i);
      ChronoTrace *trace = chrono_analysis_get_trace (self, f->n_tracks ? f->tracks[0].trace : 0);
      gint64 origin = chrono_trace_get_start_ns (trace);
      g_autofree char *lost = fmt_ms (f->time_lost_ns);
      g_autofree char *where = g_strdup_printf ("%.3f – %.3f", (f->start_ns - origin) / 1e6,
                                                (f->end_ns - origin) / 1e6);

      g_string_append_printf (s, "| %u |", i + 1);
      chrono_format_markdown_cell (s, chrono_severity_to_string (f->severity));
      chrono_format_markdown_cell (s, lost);
      chrono_format_markdown_cell (s, f->title);
      chrono_format_markdown_cell (s, f->rule);
      chrono_format_markdown_cell (s, chrono_analysis_get_rank (self, f->rank)->label);
      chrono_format_markdown_cell (s, where);
      g_string_append (s, "\n");
    }
  if (chrono_analysis_get_n_findings (self) > MAX_TABLE_FINDINGS)
    g_string_append_printf (s, _("\n…and %u smaller findings.\n"),
                            chrono_analysis_get_n_findings (self) - MAX_TABLE_FINDINGS);

  append_ledger (self, s);
  chrono_profiler_overlap_append_markdown (self, s);

  g_string_append_printf (s, "\n## %s\n\n%s\n\n", _("Device time"),
                          _("Times in ms; idle is split as Holistic Trace Analysis does."));
  g_string_append_printf (s, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n"
                             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                          _("Trace"), _("Device / stream"), _("Window"), _("Busy"), _("Compute"),
                          _("Communication"), _("Copies"), _("Idle"), _("Host wait"), _("Kernel wait"),
                          _("Other wait"), _("Comm. overlapped"));
  for (guint i = 0; i < chrono_analysis_get_n_breakdowns (self); i++)
    {
      const ChronoBreakdown *r = chrono_analysis_get_breakdown (self, i);
      g_autofree char *name = r->where.track == CHRONO_NO_TRACK
                              ? g_strdup_printf ("**%s**", device_name (self, i))
                              : g_strdup_printf ("  %s", track_name (self, r->where));
      gint64 values[] = { r->end_ns - r->start_ns, r->busy_ns, r->compute_ns, r->communication_ns,
                          r->memcpy_ns + r->memset_ns, r->idle_ns, r->idle_host_wait_ns,
                          r->idle_kernel_wait_ns, r->idle_other_ns };
      g_autofree char *overlap = fmt_pct (r->overlap_ns, r->communication_ns);

      g_string_append_printf (s, "| %u |", r->where.trace);
      chrono_format_markdown_cell (s, name);
      for (guint k = 0; k < G_N_ELEMENTS (values); k++)
        {
          g_autofree char *v = fmt_ms (values[k]);
          chrono_format_markdown_cell (s, v);
        }
      chrono_format_markdown_cell (s, r->where.track == CHRONO_NO_TRACK ? overlap : "");
      g_string_append (s, "\n");
    }

  if (chrono_analysis_get_n_paths (self) > 0)
    {
      g_string_append_printf (s, "\n## %s\n\n%s\n\n| %s | %s | %s |", _("Critical path"),
                              _("Share of each step's critical path."), _("Rank"), _("Step"), _("Total (ms)"));
      for (guint c = 0; c < CHRONO_N_PATH_CATEGORIES; c++)
        g_string_append_printf (s, " %s |", chrono_path_category_to_string (c));
      g_string_append (s, "\n|---|---|---:|");
      for (guint c = 0; c < CHRONO_N_PATH_CATEGORIES; c++)
        g_string_append (s, "---:|");
      g_string_append (s, "\n");
    }
  for (guint i = 0; i < chrono_analysis_get_n_paths (self); i++)
    {
      const ChronoCriticalPath *p = chrono_analysis_get_path (self, i);
      g_autofree char *total = fmt_ms (p->total_ns);

      g_string_append (s, "|");
      chrono_format_markdown_cell (s, chrono_analysis_get_rank (self, p->rank)->label);
      chrono_format_markdown_cell (s, p->name);
      chrono_format_markdown_cell (s, total);
      for (guint c = 0; c < CHRONO_N_PATH_CATEGORIES; c++)
        {
          g_autofree char *v = fmt_pct (p->by_category[c], p->total_ns);
          chrono_format_markdown_cell (s, v);
        }
      g_string_append (s, "\n");
    }
  chrono_efficiency_append_markdown (self, s);
  {
    guint n_memories;
    ChronoMemory * const *memories = chrono_analysis_get_memories (self, &n_memories);
    chrono_memory_append_markdown (memories, n_memories, s);
  }
  return g_string_free (s, FALSE);
}
