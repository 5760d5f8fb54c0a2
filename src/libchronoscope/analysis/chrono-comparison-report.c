/* chrono-comparison-report.c: the comparison as JSON and as Markdown
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <inttypes.h>
#include <math.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "chrono-comparison-efficiency.h"
#include "chrono-comparison-memory.h"
#include "chrono-comparison-neuron.h"
#include "chrono-comparison-private.h"
#include "chrono-comparison-tree.h"
#include "chrono-format.h"
#include "chrono-json-util.h"

/* What a person reads: the largest deltas; the JSON has every row. */
#define MAX_TABLE_ROWS 15
#define MAX_ONLY_ROWS 8
#define MAX_CELL_CHARS 80

static const char * const align_names[] = { "auto", "step", "marker", "start" };
static const char * const side_names[] = { "a", "b" };

static const char *
side_file (ChronoComparison *self,
           guint             side)
{
  ChronoRankData *data = self->side[side].data;

  return data->path ? data->path : chrono_trace_get_path (data->trace);
}

/* The states and the time outside the main device's window, summed over
 * the used pairs: they add up to the total window time of the side. */
static void
side_totals (ChronoComparison *self,
             guint             side,
             gint64            states[CHRONO_N_LEDGER_STATES],
             gint64           *outside,
             gint64           *total)
{
  *outside = *total = 0;
  for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
    states[k] = 0;
  for (guint u = 0; u < self->used->len; u++)
    {
      const ChronoCompareWindow *w = chrono_comparison_used_window (self, side, u);

      for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
        states[k] += w->state_ns[k];
      *outside += w->outside_ns;
      *total += w->end_ns - w->start_ns;
    }
}

static void
add_attribution (JsonBuilder               *b,
                 const ChronoCompareWindow *wa,
                 const ChronoCompareWindow *wb)
{
  json_builder_set_member_name (b, "attribution");
  json_builder_begin_object (b);
  for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
    chrono_json_add_int (b, chrono_ledger_state_to_string (k), wb->state_ns[k] - wa->state_ns[k]);
  chrono_json_add_int (b, "outside_device_window", wb->outside_ns - wa->outside_ns);
  json_builder_end_object (b);
}

static void
add_side_info (JsonBuilder      *b,
               ChronoComparison *self,
               guint             side)
{
  json_builder_set_member_name (b, side_names[side]);
  json_builder_begin_object (b);
  chrono_json_add_string (b, "file", side_file (self, side));
  chrono_json_add_string (b, "device", chrono_comparison_get_device_name (self, side));
  json_builder_set_member_name (b, "steps_used");
  json_builder_begin_array (b);
  for (guint u = 0; u < self->used->len; u++)
    json_builder_add_string_value (b, chrono_comparison_used_window (self, side, u)->name);
  json_builder_end_array (b);
  chrono_json_add_int (b, "windows", self->side[side].windows->len);
  json_builder_end_object (b);
}

static void
add_summary (JsonBuilder      *b,
             ChronoComparison *self)
{
  gint64 states[2][CHRONO_N_LEDGER_STATES], outside[2], total[2];

  for (guint side = 0; side < 2; side++)
    side_totals (self, side, states[side], &outside[side], &total[side]);
  json_builder_set_member_name (b, "summary");
  json_builder_begin_object (b);
  chrono_json_add_int (b, "steps", self->used->len);
  chrono_json_add_int (b, "a_ns", total[0]);
  chrono_json_add_int (b, "b_ns", total[1]);
  chrono_json_add_int (b, "delta_ns", total[1] - total[0]);
  json_builder_set_member_name (b, "attribution");
  json_builder_begin_object (b);
  for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
    chrono_json_add_int (b, chrono_ledger_state_to_string (k), states[1][k] - states[0][k]);
  chrono_json_add_int (b, "outside_device_window", outside[1] - outside[0]);
  json_builder_end_object (b);
  json_builder_end_object (b);
}

static void
add_window_side (JsonBuilder      *b,
                 ChronoComparison *self,
                 guint             side,
                 gint              index)
{
  const ChronoCompareWindow *w;

  if (index < 0)
    return;
  w = &g_array_index (self->side[side].windows, ChronoCompareWindow, index);
  chrono_json_add_string (b, side_names[side], w->name);
  json_builder_set_member_name (b, side == 0 ? "a_ns" : "b_ns");
  json_builder_add_int_value (b, w->end_ns - w->start_ns);
  json_builder_set_member_name (b, side == 0 ? "a_start_ns" : "b_start_ns");
  json_builder_add_int_value (b, w->start_ns);
}

static void
add_steps (JsonBuilder      *b,
           ChronoComparison *self)
{
  json_builder_set_member_name (b, "steps");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->pairs->len; i++)
    {
      const ChronoComparePair *p = &g_array_index (self->pairs, ChronoComparePair, i);

      json_builder_begin_object (b);
      add_window_side (b, self, 0, p->a);
      add_window_side (b, self, 1, p->b);
      json_builder_set_member_name (b, "used");
      json_builder_add_boolean_value (b, p->used);
      if (p->excluded)
        chrono_json_add_string (b, "excluded", p->excluded);
      if (p->a >= 0 && p->b >= 0)
        {
          const ChronoCompareWindow *wa = &g_array_index (self->side[0].windows, ChronoCompareWindow, p->a);
          const ChronoCompareWindow *wb = &g_array_index (self->side[1].windows, ChronoCompareWindow, p->b);

          chrono_json_add_int (b, "delta_ns", (wb->end_ns - wb->start_ns) - (wa->end_ns - wa->start_ns));
          add_attribution (b, wa, wb);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_devices (JsonBuilder      *b,
             ChronoComparison *self)
{
  json_builder_set_member_name (b, "devices");
  json_builder_begin_object (b);
  for (guint side = 0; side < 2; side++)
    {
      json_builder_set_member_name (b, side_names[side]);
      json_builder_begin_array (b);
      for (guint i = 0; i < self->side[side].devices->len; i++)
        {
          const ChronoCompareDevice *d = &g_array_index (self->side[side].devices, ChronoCompareDevice, i);

          json_builder_begin_object (b);
          chrono_json_add_string (b, "name", d->name);
          json_builder_set_member_name (b, "main");
          json_builder_add_boolean_value (b, d->main);
          chrono_json_add_int (b, "busy_ns", d->busy_ns);
          chrono_json_add_int (b, "idle_ns", d->idle_ns);
          chrono_json_add_int (b, "compute_ns", d->compute_ns);
          chrono_json_add_int (b, "communication_ns", d->communication_ns);
          chrono_json_add_int (b, "exposed_communication_ns", d->exposed_communication_ns);
          chrono_json_add_int (b, "copy_ns", d->copy_ns);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
}

static void
add_row_side (JsonBuilder             *b,
              const char              *member,
              const ChronoCompareSide *s,
              gboolean                 with_host)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_object (b);
  if (s->name)
    {
      g_autofree char *short_name = chrono_format_short_name (s->name, CHRONO_SHORT_NAME_WIDTH);

      chrono_json_add_string (b, "name", s->name);
      chrono_json_add_string (b, "short_name", short_name);
    }
  chrono_json_add_int (b, "count", s->count);
  chrono_json_add_int (b, "device_time_ns", s->device_ns);
  if (with_host)
    chrono_json_add_int (b, "host_time_ns", s->host_ns);
  json_builder_set_member_name (b, "count_per_step");
  json_builder_add_double_value (b, s->count_per_step);
  chrono_json_add_int (b, "device_time_ns_per_step", llround (s->device_ns_per_step));
  chrono_json_add_int (b, "mean_ns", llround (s->mean_ns));
  chrono_json_add_int (b, "p50_ns", s->p50_ns);
  chrono_json_add_int (b, "p95_ns", s->p95_ns);
  json_builder_end_object (b);
}

static void
add_rows (JsonBuilder *b,
          const char  *member,
          GPtrArray   *rows,
          gboolean     kernels)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const ChronoCompareRow *r = rows->pdata[i];

      json_builder_begin_object (b);
      chrono_json_add_string (b, "key", r->key);
      chrono_json_add_string (b, "name", r->name);
      if (r->shapes)
        chrono_json_add_string (b, "shapes", r->shapes);
      if (kernels)
        {
          json_builder_set_member_name (b, "operator");
          if (r->op)
            json_builder_add_string_value (b, r->op);
          else
            json_builder_add_null_value (b);
        }
      chrono_json_add_string (b, "match", chrono_compare_match_to_string (r->match));
      if (r->match == CHRONO_COMPARE_MATCH_NONE)
        chrono_json_add_string (b, "only_in", r->a.count > 0 ? "a" : "b");
      add_row_side (b, "a", &r->a, !kernels);
      add_row_side (b, "b", &r->b, !kernels);
      chrono_json_add_int (b, "delta_ns", llround (r->delta_ns));
      json_builder_set_member_name (b, "delta_percent");
      if (isnan (r->delta_percent))
        json_builder_add_null_value (b);
      else
        json_builder_add_double_value (b, r->delta_percent);
      json_builder_set_member_name (b, "significant");
      if (r->noise == CHRONO_COMPARE_NOISE_UNKNOWN)
        json_builder_add_null_value (b);
      else
        json_builder_add_boolean_value (b, r->noise == CHRONO_COMPARE_NOISE_BEYOND);
      if (r->noise != CHRONO_COMPARE_NOISE_UNKNOWN)
        {
          chrono_json_add_int (b, "ci_low_ns", llround (r->ci_low_ns));
          chrono_json_add_int (b, "ci_high_ns", llround (r->ci_high_ns));
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_findings_diff (JsonBuilder      *b,
                   ChronoComparison *self)
{
  json_builder_set_member_name (b, "findings_diff");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->findings_diff->len; i++)
    {
      const ChronoFindingDiff *d = &g_array_index (self->findings_diff, ChronoFindingDiff, i);

      json_builder_begin_object (b);
      chrono_json_add_string (b, "rule", d->rule);
      chrono_json_add_string (b, "change", chrono_finding_change_to_string (d->change));
      for (guint side = 0; side < 2; side++)
        {
          json_builder_set_member_name (b, side_names[side]);
          json_builder_begin_object (b);
          chrono_json_add_int (b, "count", side == 0 ? d->a_count : d->b_count);
          chrono_json_add_int (b, "time_lost_ns", side == 0 ? d->a_time_lost_ns : d->b_time_lost_ns);
          chrono_json_add_int (b, "position", side == 0 ? d->a_position : d->b_position);
          json_builder_end_object (b);
        }
      chrono_json_add_int (b, "delta_ns", d->b_time_lost_ns - d->a_time_lost_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_divergence (JsonBuilder      *b,
                ChronoComparison *self)
{
  const ChronoCompareDivergence *d = &self->divergence;

  json_builder_set_member_name (b, "first_divergence");
  if (!d->found)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  chrono_json_add_int (b, "pair", d->pair);
  chrono_json_add_int (b, "common", d->common);
  for (guint side = 0; side < 2; side++)
    {
      json_builder_set_member_name (b, side_names[side]);
      json_builder_begin_object (b);
      chrono_json_add_string (b, "step", chrono_comparison_used_window (self, side, d->pair)->name);
      chrono_json_add_int (b, "index", side == 0 ? d->a_index : d->b_index);
      chrono_json_add_int (b, "position", side == 0 ? d->a_position : d->b_position);
      json_builder_set_member_name (b, "op");
      if ((side == 0 ? d->a_op : d->b_op) != NULL)
        {
          json_builder_add_string_value (b, side == 0 ? d->a_op : d->b_op);
          chrono_json_add_int (b, "ts_ns", side == 0 ? d->a_ns : d->b_ns);
        }
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  json_builder_set_member_name (b, "resynced");
  json_builder_add_boolean_value (b, d->resynced);
  if (d->resynced)
    {
      chrono_json_add_int (b, "a_skipped", d->a_skipped);
      chrono_json_add_int (b, "b_inserted", d->b_inserted);
    }
  json_builder_end_object (b);
}

char *
chrono_comparison_to_json (ChronoComparison *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(ChronoComparisonTree) tree = NULL;
  g_autoptr(GPtrArray) efficiency = NULL;
  g_autoptr(GPtrArray) memory = NULL;

  g_return_val_if_fail (CHRONO_IS_COMPARISON (self), NULL);

  json_builder_begin_object (b);
  chrono_json_add_string (b, "schema", "chronoscope.compare/1");
  chrono_json_add_string (b, "align", align_names[self->align]);
  chrono_json_add_string (b, "paired_by", self->by_number ? "number" : "order");
  add_side_info (b, self, 0);
  add_side_info (b, self, 1);
  add_summary (b, self);
  add_steps (b, self);
  add_devices (b, self);
  add_rows (b, "ops", self->ops, FALSE);
  add_rows (b, "kernels", self->kernels, TRUE);
  chrono_comparison_neuron_write_json (self, b);
  add_findings_diff (b, self);
  add_divergence (b, self);
  efficiency = chrono_comparison_get_efficiency_rows (self);
  chrono_compare_efficiency_write_json (efficiency, b);
  memory = chrono_comparison_get_memory_rows (self);
  chrono_compare_memory_write_json (memory, b);
  tree = chrono_comparison_tree_new (self);
  chrono_comparison_tree_add_json (tree, b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  return json_generator_to_data (gen, NULL);
}

/* ------------------------------------------------------------------ */

static char *
format_percent (gdouble percent)
{
  if (isnan (percent))
    return g_strdup (_("new"));
  return g_strdup_printf ("%s%.1f%%", percent > 0 ? "+" : percent < 0 ? "−" : "", fabs (percent));
}

/* Shapes of many inputs, and operators' names, make unreadable tables:
 * the JSON has them whole. */
static char *
shorten (const char *text)
{
  glong n = g_utf8_strlen (text, -1);

  if (n <= MAX_CELL_CHARS)
    return g_strdup (text);
  return g_strdup_printf ("%.*s…", (int) (g_utf8_offset_to_pointer (text, MAX_CELL_CHARS) - text), text);
}

/* A kernel by the short name of the name its trace writes (the
 * normalised one has lost its template arguments), B's when A has none. */
char *
chrono_compare_row_label (const ChronoCompareRow *r)
{
  g_autofree char *a_name = chrono_format_short_name (r->a.name ? r->a.name : r->b.name ? r->b.name : r->name,
                                                      CHRONO_SHORT_NAME_WIDTH);

  if (r->match == CHRONO_COMPARE_MATCH_OPERATOR && r->b.name != NULL)
    {
      g_autofree char *b_name = chrono_format_short_name (r->b.name, CHRONO_SHORT_NAME_WIDTH);

      return g_strdup_printf ("%s → %s", a_name, b_name);
    }
  return r->shapes ? g_strdup_printf ("%s %s", a_name, r->shapes) : g_steal_pointer (&a_name);
}

static const char *
noise_text (ChronoCompareNoise noise)
{
  return noise == CHRONO_COMPARE_NOISE_BEYOND ? _("changed")
         : noise == CHRONO_COMPARE_NOISE_WITHIN ? _("within noise") : _("noise unknown");
}

static void
append_attribution (GString          *s,
                    ChronoComparison *self)
{
  gint64 states[2][CHRONO_N_LEDGER_STATES], outside[2], total[2];
  guint n = self->used->len;

  for (guint side = 0; side < 2; side++)
    side_totals (self, side, states[side], &outside[side], &total[side]);

  g_string_append_printf (s, "\n## %s\n\n", _("Step time"));
  {
    g_autofree char *a = chrono_format_duration (total[0] / n);
    g_autofree char *b = chrono_format_duration (total[1] / n);
    g_autofree char *d = chrono_format_duration_change ((gdouble) (total[1] - total[0]) / n);

    g_autofree char *percent = format_percent (total[0] > 0 ? 100.0 * (total[1] - total[0]) / total[0] : 0.0);

    if (self->align == CHRONO_COMPARE_ALIGN_START)
      g_string_append_printf (s, _("The whole traces: A %s, B %s, Δ %s (%s).\n"), a, b, d, percent);
    else
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "Mean over %u window: A %s, B %s, Δ %s (%s).\n",
                                              "Mean over %u windows: A %s, B %s, Δ %s (%s).\n", n),
                              n, a, b, d, percent);
  }
  g_string_append_printf (s, _("\nWhere the difference comes from, per step, by the state of the main device "
                               "(A: %s, B: %s), rounded; over all used steps the rows add up to the step-time delta exactly (JSON `summary`):\n\n"),
                          chrono_comparison_get_device_name (self, 0) ? chrono_comparison_get_device_name (self, 0) : _("none"),
                          chrono_comparison_get_device_name (self, 1) ? chrono_comparison_get_device_name (self, 1) : _("none"));
  g_string_append_printf (s, "| %s | A | B | Δ |\n|---|---:|---:|---:|\n", _("State"));
  for (guint k = 0; k <= CHRONO_N_LEDGER_STATES; k++)
    {
      gint64 a = k < CHRONO_N_LEDGER_STATES ? states[0][k] : outside[0];
      gint64 b = k < CHRONO_N_LEDGER_STATES ? states[1][k] : outside[1];
      g_autofree char *ta = NULL, *tb = NULL, *td = NULL;

      if (a == 0 && b == 0)
        continue;
      ta = chrono_format_duration (a / n);
      tb = chrono_format_duration (b / n);
      td = chrono_format_duration_change ((gdouble) (b - a) / n);
      g_string_append_printf (s, "| %s | %s | %s | %s |\n",
                              k < CHRONO_N_LEDGER_STATES ? chrono_ledger_state_to_string (k) : _("outside the device's work"),
                              ta, tb, td);
    }
}

static void
append_steps (GString          *s,
              ChronoComparison *self)
{
  g_string_append_printf (s, "\n## %s\n\n", _("Steps"));
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u of %u pair used, paired by %s.\n",
                                          "%u of %u pairs used, paired by %s.\n", self->pairs->len),
                          self->used->len, self->pairs->len,
                          self->by_number ? _("ProfilerStep number") : _("order"));
  for (guint i = 0; i < self->pairs->len; i++)
    {
      const ChronoComparePair *p = &g_array_index (self->pairs, ChronoComparePair, i);

      if (p->used)
        continue;
      g_string_append_printf (s, "- %s / %s: %s\n",
                              p->a >= 0 ? g_array_index (self->side[0].windows, ChronoCompareWindow, p->a).name : "—",
                              p->b >= 0 ? g_array_index (self->side[1].windows, ChronoCompareWindow, p->b).name : "—",
                              p->excluded);
    }
}

static void
append_devices (GString          *s,
                ChronoComparison *self)
{
  g_string_append_printf (s, "\n## %s\n\n", _("Devices over the used steps"));
  g_string_append_printf (s, "| | %s | %s | %s | %s | %s |\n|---|---|---:|---:|---:|---:|\n",
                          _("Device"), _("Busy"), _("Idle"), _("Compute"), _("Communication"));
  for (guint side = 0; side < 2; side++)
    for (guint i = 0; i < self->side[side].devices->len; i++)
      {
        const ChronoCompareDevice *d = &g_array_index (self->side[side].devices, ChronoCompareDevice, i);
        g_autofree char *busy = chrono_format_duration (d->busy_ns);
        g_autofree char *idle = chrono_format_duration (d->idle_ns);
        g_autofree char *comp = chrono_format_duration (d->compute_ns);
        g_autofree char *comm = chrono_format_duration (d->communication_ns);

        g_string_append_printf (s, "| %c | %s%s | %s | %s | %s | %s |\n", side == 0 ? 'A' : 'B', d->name,
                                d->main ? " (main)" : "", busy, idle, comp, comm);
      }
}

static void
append_rows (GString    *s,
             const char *title,
             GPtrArray  *rows,
             gboolean    kernels)
{
  guint shown = 0;

  g_string_append_printf (s, "\n## %s\n\n", title);
  g_string_append_printf (s, "| %s |%s %s | %s | %s | Δ | Δ %% | %s | %s |\n|---|%s---:|---:|---:|---:|---:|---:|---|\n",
                          kernels ? _("Kernel") : _("Operator"), kernels ? _(" Operator |") : "",
                          _("Calls/step A → B"), _("Device/step A"), _("Device/step B"),
                          _("p50 per call A → B"), _("Noise"), kernels ? "---|" : "");
  for (guint i = 0; i < rows->len && shown < MAX_TABLE_ROWS; i++)
    {
      const ChronoCompareRow *r = rows->pdata[i];
      g_autofree char *label = NULL;
      g_autofree char *name = NULL;
      g_autofree char *calls = NULL;
      g_autofree char *ta = NULL, *tb = NULL, *td = NULL, *tp = NULL, *p50a = NULL, *p50b = NULL, *p50 = NULL;

      if (r->match == CHRONO_COMPARE_MATCH_NONE || (r->a.device_ns == 0 && r->b.device_ns == 0))
        continue;
      shown++;
      label = chrono_compare_row_label (r);
      name = shorten (label);
      calls = g_strdup_printf ("%.1f → %.1f", r->a.count_per_step, r->b.count_per_step);
      ta = chrono_format_duration (llround (r->a.device_ns_per_step));
      tb = chrono_format_duration (llround (r->b.device_ns_per_step));
      td = chrono_format_duration_change (r->delta_ns);
      tp = format_percent (r->delta_percent);
      p50a = chrono_format_duration (r->a.p50_ns);
      p50b = chrono_format_duration (r->b.p50_ns);
      p50 = g_strdup_printf ("%s → %s", p50a, p50b);
      g_string_append (s, "|");
      chrono_format_markdown_cell (s, name);
      if (kernels)
        {
          g_autofree char *op = r->op ? shorten (r->op) : g_strdup ("—");
          chrono_format_markdown_cell (s, op);
        }
      chrono_format_markdown_cell (s, calls);
      chrono_format_markdown_cell (s, ta);
      chrono_format_markdown_cell (s, tb);
      chrono_format_markdown_cell (s, td);
      chrono_format_markdown_cell (s, tp);
      chrono_format_markdown_cell (s, p50);
      chrono_format_markdown_cell (s, noise_text (r->noise));
      g_string_append_c (s, '\n');
    }
  if (shown == 0)
    g_string_append_printf (s, "%s\n", _("None matched on both sides with device time."));
}

static void
append_only (GString    *s,
             GPtrArray  *rows,
             guint       side,
             const char *what)
{
  guint n = 0, shown = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      const ChronoCompareRow *r = rows->pdata[i];

      n += r->match == CHRONO_COMPARE_MATCH_NONE && (side == 0 ? r->a.count : r->b.count) > 0;
    }
  if (n == 0)
    return;
  g_string_append_printf (s, "\n%s (%u):\n\n", what, n);
  for (guint i = 0; i < rows->len && shown < MAX_ONLY_ROWS; i++)
    {
      const ChronoCompareRow *r = rows->pdata[i];
      const ChronoCompareSide *x = side == 0 ? &r->a : &r->b;
      g_autofree char *t = NULL, *label = NULL, *name = NULL, *op = NULL;

      if (r->match != CHRONO_COMPARE_MATCH_NONE || x->count == 0)
        continue;
      shown++;
      t = chrono_format_duration (llround (x->device_ns_per_step));
      label = chrono_compare_row_label (r);
      name = shorten (label);
      op = r->op ? shorten (r->op) : NULL;
      g_string_append_printf (s, "- `%s`%s%s: %.1f calls, %s device time per step\n", name,
                              op ? _(" under ") : "", op ? op : "", x->count_per_step, t);
    }
  if (n > shown)
    g_string_append_printf (s, _("- and %u more\n"), n - shown);
}

static void
append_findings (GString          *s,
                 ChronoComparison *self)
{
  g_string_append_printf (s, "\n## %s\n\n", _("Findings"));
  if (self->findings_diff->len == 0)
    {
      g_string_append_printf (s, "%s\n", _("No finding on either side."));
      return;
    }
  g_string_append_printf (s, "| %s | %s | A | B | Δ |\n|---|---|---:|---:|---:|\n", _("Rule"), _("Change"));
  for (guint i = 0; i < self->findings_diff->len; i++)
    {
      const ChronoFindingDiff *d = &g_array_index (self->findings_diff, ChronoFindingDiff, i);
      g_autofree char *a = chrono_format_duration (d->a_time_lost_ns);
      g_autofree char *b = chrono_format_duration (d->b_time_lost_ns);
      g_autofree char *delta = chrono_format_duration_change (d->b_time_lost_ns - d->a_time_lost_ns);

      g_string_append_printf (s, "| %s | %s | %u, %s | %u, %s | %s |\n", d->rule,
                              chrono_finding_change_to_string (d->change), d->a_count, a, d->b_count, b, delta);
    }
}

static void
append_divergence (GString          *s,
                   ChronoComparison *self)
{
  const ChronoCompareDivergence *d = &self->divergence;

  g_string_append_printf (s, "\n## %s\n\n", _("First divergence"));
  if (!d->found)
    {
      g_string_append_printf (s, "%s\n", _("The launched operators are the same, in the same order, in every used step."));
      return;
    }
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "After %u operator alike in %s / %s: ", "After %u operators alike in %s / %s: ",
                                          d->common),
                          d->common, chrono_comparison_used_window (self, 0, d->pair)->name,
                          chrono_comparison_used_window (self, 1, d->pair)->name);
  g_string_append_printf (s, _("A has `%s` (operator %u of the step, %" PRIu64 " from the first used step), "
                               "B has `%s` (operator %u, %" PRIu64 ")."),
                          d->a_op ? d->a_op : _("nothing more"), d->a_index, d->a_position,
                          d->b_op ? d->b_op : _("nothing more"), d->b_index, d->b_position);
  if (d->resynced)
    {
      g_autofree char *skipped = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u operator of A", "%u operators of A",
                                                               d->a_skipped), d->a_skipped);

      g_string_append_printf (s, _(" They agree again after %s and %u of B.\n"), skipped, d->b_inserted);
    }
  else
    g_string_append_printf (s, _(" They do not agree again within %u operators.\n"),
                            CHRONO_COMPARE_RESYNC_SEARCH);
}

char *
chrono_comparison_to_markdown (ChronoComparison *self)
{
  GString *s = g_string_new (NULL);
  g_autofree char *a = NULL, *b = NULL;
  g_autoptr(GPtrArray) efficiency = NULL;
  g_autoptr(GPtrArray) memory = NULL;

  g_return_val_if_fail (CHRONO_IS_COMPARISON (self), NULL);

  a = g_path_get_basename (side_file (self, 0));
  b = g_path_get_basename (side_file (self, 1));
  g_string_append_printf (s, "# %s\n\n- A: `%s`\n- B: `%s`\n", _("Comparison"), a, b);
  if (self->used->len < 2)
    g_string_append_printf (s, "- %s\n", _("One window per side: the step-to-step noise is unknown, so no change is called significant."));
  append_attribution (s, self);
  append_steps (s, self);
  append_devices (s, self);
  append_rows (s, _("Operators (direct device time)"), self->ops, FALSE);
  append_only (s, self->ops, 0, _("Operators only in A"));
  append_only (s, self->ops, 1, _("Operators only in B"));
  append_rows (s, _("Kernels"), self->kernels, TRUE);
  append_only (s, self->kernels, 0, _("Kernels only in A"));
  append_only (s, self->kernels, 1, _("Kernels only in B"));
  chrono_comparison_neuron_append_markdown (self, s);
  append_findings (s, self);
  efficiency = chrono_comparison_get_efficiency_rows (self);
  chrono_compare_efficiency_append_markdown (efficiency, s);
  memory = chrono_comparison_get_memory_rows (self);
  chrono_compare_memory_append_markdown (memory, s);
  append_divergence (s, self);
  return g_string_free (s, FALSE);
}
