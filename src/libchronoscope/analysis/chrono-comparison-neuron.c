/* chrono-comparison-neuron.c
 *
 * A NeuronCore's instructions and DMA transfers are no kernels: matched
 * by name, a queue's transfers or an opcode's instructions say nothing of
 * the model. The cores are compared instead by their metrics, by engine,
 * by the states of their time ledgers and by framework and HLO operator,
 * each over its whole window.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include <glib/gi18n-lib.h>

#include "chrono-comparison-neuron.h"
#include "chrono-comparison-private.h"
#include "chrono-efficiency-private.h"
#include "chrono-format.h"
#include "chrono-json-util.h"
#include "chrono-neuron-ops.h"

/* Rows listed in the Markdown; the JSON has them all. */
#define MAX_TABLE_ROWS 15

typedef struct {
  ChronoNeuronMetrics      *metrics[2];
  const ChronoNeuronLedger *ledger[2];
  ChronoNeuronWindow        window[2];
  GArray                   *rows[2];   /* ChronoNeuronRowTime */
  ChronoNeuronOpTable      *ops[2];
} Cores;

static void
cores_clear (Cores *c)
{
  for (guint k = 0; k < 2; k++)
    {
      g_clear_pointer (&c->metrics[k], chrono_neuron_metrics_free);
      g_clear_pointer (&c->rows[k], g_array_unref);
      g_clear_pointer (&c->ops[k], chrono_neuron_op_table_free);
    }
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Cores, cores_clear)

/* Both sides' main NeuronCores, or FALSE when either has none. */
static gboolean
cores_init (Cores            *c,
            ChronoComparison *self)
{
  memset (c, 0, sizeof *c);
  for (guint k = 0; k < 2; k++)
    {
      ChronoCompareSideData *side = &self->side[k];
      ChronoEfficiency *efficiency = chrono_analysis_get_efficiency_data (side->analysis);
      gint64 start, end;

      if (side->main_device == G_MAXUINT ||
          (c->metrics[k] = chrono_neuron_metrics_new (side->data, side->main_device,
                                                      chrono_efficiency_get_thresholds (efficiency))) == NULL)
        return FALSE;
      c->ledger[k] = chrono_analysis_get_neuron_ledger (side->analysis, chrono_neuron_metrics_get_device (c->metrics[k])->breakdown);
      chrono_neuron_metrics_get_window (c->metrics[k], &start, &end);
      chrono_neuron_metrics_window (c->metrics[k], start, end, &c->window[k]);
      c->rows[k] = chrono_neuron_metrics_row_times (c->metrics[k], start, end);
      c->ops[k] = chrono_neuron_op_table_new (c->metrics[k], c->ledger[k]);
    }
  return TRUE;
}

/* -------------------------------------------------------------------- */
/* Rows of both sides                                                   */

typedef struct {
  const char        *name;
  ChronoNeuronOpKind kind;      /* operators only */
  gdouble            a;         /* the measure: time, or a figure */
  gdouble            b;
  gdouble            a2;        /* operators: the idle time before them */
  gdouble            b2;
} Pair;

static gint
compare_pairs (gconstpointer x,
               gconstpointer y)
{
  const Pair *p = x, *q = y;
  gdouble dp = fabs (p->b - p->a) + fabs (p->b2 - p->a2), dq = fabs (q->b - q->a) + fabs (q->b2 - q->a2);

  return dp > dq ? -1 : dp < dq;
}

static GArray *
engine_pairs (Cores *c)
{
  GArray *pairs = g_array_new (FALSE, TRUE, sizeof (Pair));

  for (guint k = 0; k < 2; k++)
    for (guint i = 0; i < c->rows[k]->len; i++)
      {
        const ChronoNeuronRowTime *row = &g_array_index (c->rows[k], ChronoNeuronRowTime, i);
        Pair *p = NULL;

        for (guint j = 0; j < pairs->len && p == NULL; j++)
          if (strcmp (g_array_index (pairs, Pair, j).name, row->name) == 0)
            p = &g_array_index (pairs, Pair, j);
        if (p == NULL)
          {
            Pair fresh = { row->name };

            g_array_append_val (pairs, fresh);
            p = &g_array_index (pairs, Pair, pairs->len - 1);
          }
        if (k == 0)
          p->a = row->active_ns;
        else
          p->b = row->active_ns;
      }
  return pairs;
}

static GArray *
ledger_pairs (Cores *c)
{
  GArray *pairs = g_array_new (FALSE, TRUE, sizeof (Pair));
  gint64 ns[2][CHRONO_N_LEDGER_STATES] = { { 0 } };

  for (guint k = 0; k < 2; k++)
    if (c->ledger[k] != NULL)
      chrono_neuron_ledger_sum (c->ledger[k], chrono_neuron_ledger_get_start (c->ledger[k]),
                                chrono_neuron_ledger_get_end (c->ledger[k]), ns[k]);
  if (c->ledger[0] == NULL || c->ledger[1] == NULL)
    return pairs;
  for (guint i = 0; i < G_N_ELEMENTS (chrono_neuron_ledger_states); i++)
    {
      ChronoLedgerState state = chrono_neuron_ledger_states[i];
      Pair p = { chrono_ledger_state_to_string (state), 0, ns[0][state], ns[1][state] };

      g_array_append_val (pairs, p);
    }
  return pairs;
}

static GArray *
operator_pairs (Cores *c)
{
  GArray *pairs = g_array_new (FALSE, TRUE, sizeof (Pair));

  for (guint k = 0; k < 2; k++)
    for (guint i = 0; i < chrono_neuron_op_table_get_n_ops (c->ops[k]); i++)
      {
        const ChronoNeuronOp *op = chrono_neuron_op_table_get_op (c->ops[k], i);
        const ChronoNeuronOp *other = chrono_neuron_op_table_lookup (c->ops[1 - k], op->kind, op->name);
        Pair p = { op->name, op->kind };

        /* Each pair once, from A, or from B when A has no such operator. */
        if (k == 1 && other != NULL)
          continue;
        p.a = k == 0 ? op->tensor_ns : 0;
        p.b = k == 1 ? op->tensor_ns : other ? other->tensor_ns : 0;
        p.a2 = k == 0 ? MAX (op->lost_ns, 0) : 0;
        p.b2 = k == 1 ? MAX (op->lost_ns, 0) : other ? MAX (other->lost_ns, 0) : 0;
        g_array_append_val (pairs, p);
      }
  g_array_sort (pairs, compare_pairs);
  return pairs;
}

/* -------------------------------------------------------------------- */
/* JSON                                                                 */

static void
add_side (JsonBuilder *b,
          const char  *name,
          Cores       *c,
          guint        k)
{
  const ChronoNeuronPeak *peak = chrono_neuron_metrics_get_peak (c->metrics[k]);

  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  chrono_json_add_int (b, "start_ns", c->window[k].start);
  chrono_json_add_int (b, "end_ns", c->window[k].end);
  chrono_json_add_double (b, "peak_tflops", peak->tflops > 0 ? peak->tflops : NAN);
  chrono_json_add_double (b, "hbm_bandwidth_gbps", peak->hbm_gbps > 0 ? peak->hbm_gbps : NAN);
  json_builder_end_object (b);
}

static void
add_pairs (JsonBuilder *b,
           const char  *member,
           const char  *key,
           GArray      *pairs,
           gboolean     operators)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < pairs->len; i++)
    {
      const Pair *p = &g_array_index (pairs, Pair, i);

      json_builder_begin_object (b);
      chrono_json_add_string (b, key, p->name);
      if (operators)
        chrono_json_add_string (b, "kind", chrono_neuron_op_kind_to_string (p->kind));
      chrono_json_add_int (b, "a_ns", (gint64) p->a);
      chrono_json_add_int (b, "b_ns", (gint64) p->b);
      chrono_json_add_int (b, "delta_ns", (gint64) (p->b - p->a));
      if (operators)
        {
          chrono_json_add_int (b, "a_lost_ns", (gint64) p->a2);
          chrono_json_add_int (b, "b_lost_ns", (gint64) p->b2);
          chrono_json_add_int (b, "delta_lost_ns", (gint64) (p->b2 - p->a2));
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

void
chrono_comparison_neuron_write_json (ChronoComparison *self,
                                     JsonBuilder      *b)
{
  g_auto(Cores) c;
  g_autoptr(GArray) engines = NULL, states = NULL, operators = NULL;

  json_builder_set_member_name (b, "neuron");
  if (!cores_init (&c, self))
    {
      json_builder_add_null_value (b);
      return;
    }
  engines = engine_pairs (&c);
  states = ledger_pairs (&c);
  operators = operator_pairs (&c);
  json_builder_begin_object (b);
  add_side (b, "a", &c, 0);
  add_side (b, "b", &c, 1);
  json_builder_set_member_name (b, "figures");
  json_builder_begin_array (b);
  for (guint f = 0; f < CHRONO_NEURON_N_FIGURES; f++)
    {
      json_builder_begin_object (b);
      chrono_json_add_string (b, "figure", chrono_neuron_figure_name (f));
      chrono_json_add_double (b, "a", c.window[0].v[f]);
      chrono_json_add_double (b, "b", c.window[1].v[f]);
      chrono_json_add_double (b, "delta", c.window[1].v[f] - c.window[0].v[f]);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_pairs (b, "engines", "engine", engines, FALSE);
  add_pairs (b, "ledger", "state", states, FALSE);
  add_pairs (b, "operators", "name", operators, TRUE);
  json_builder_end_object (b);
}

/* -------------------------------------------------------------------- */
/* Markdown                                                             */

static void
append_times (GString    *s,
              const char *heading,
              const char *column,
              GArray     *pairs,
              gboolean    operators)
{
  g_string_append_printf (s, "\n%s\n\n|", heading);
  chrono_format_markdown_cell (s, column);
  if (operators)
    g_string_append_printf (s, " %s | %s | %s | Δ | %s | %s | Δ |\n|---|---|---:|---:|---:|---:|---:|---:|\n",
                            _("Kind"), _("Tensor A"), _("Tensor B"), _("Idle before A"), _("Idle before B"));
  else
    g_string_append (s, " A | B | Δ |\n|---|---:|---:|---:|\n");
  for (guint i = 0; i < MIN (pairs->len, MAX_TABLE_ROWS); i++)
    {
      const Pair *p = &g_array_index (pairs, Pair, i);
      g_autofree char *a = NULL, *b = NULL, *d = NULL;

      /* Operators come by their change: the rest did not change. */
      if (operators && p->a == p->b && p->a2 == p->b2)
        break;
      a = chrono_format_duration ((gint64) p->a);
      b = chrono_format_duration ((gint64) p->b);
      d = chrono_format_duration_change (p->b - p->a);
      g_string_append (s, "|");
      chrono_format_markdown_cell (s, p->name);
      if (operators)
        {
          g_autofree char *a2 = chrono_format_duration ((gint64) p->a2);
          g_autofree char *b2 = chrono_format_duration ((gint64) p->b2);
          g_autofree char *d2 = chrono_format_duration_change (p->b2 - p->a2);

          g_string_append_printf (s, " %s | %s | %s | %s | %s | %s | %s |\n", chrono_neuron_op_kind_to_string (p->kind),
                                  a, b, d, a2, b2, d2);
        }
      else
        g_string_append_printf (s, " %s | %s | %s |\n", a, b, d);
    }
  if (pairs->len > MAX_TABLE_ROWS)
    g_string_append_printf (s, _("\n…and %u more in the JSON report.\n"), pairs->len - MAX_TABLE_ROWS);
}

void
chrono_comparison_neuron_append_markdown (ChronoComparison *self,
                                          GString          *s)
{
  g_auto(Cores) c;
  g_autoptr(GArray) engines = NULL, states = NULL, operators = NULL;

  if (!cores_init (&c, self))
    return;
  engines = engine_pairs (&c);
  states = ledger_pairs (&c);
  operators = operator_pairs (&c);
  g_string_append_printf (s, "\n## %s\n\n%s\n\n| %s | A | B | Δ |\n|---|---:|---:|---:|\n", _("NeuronCores"),
                          _("The main NeuronCores over their whole windows, by metric, engine, ledger state and "
                            "operator: their instructions and DMA transfers are not compared as kernels."),
                          _("Metric"));
  for (guint f = 0; f < CHRONO_NEURON_N_FIGURES; f++)
    {
      gdouble a = c.window[0].v[f], b = c.window[1].v[f];

      if (!isfinite (a) && !isfinite (b))
        continue;
      g_string_append_printf (s, "| %s | %.6g | %.6g | %+.6g |\n", chrono_neuron_figure_name (f), a, b, b - a);
    }
  if (states->len > 0)
    append_times (s, _("The Tensor engine's time ledger:"), _("State"), states, FALSE);
  append_times (s, _("Each engine's and DMA queue's active time:"), _("Engine"), engines, FALSE);
  if (operators->len > 0)
    append_times (s, _("The operators whose Tensor time or idle time before them changed most:"), _("Operator"),
                  operators, TRUE);
}
