/* chrono-neuron-ops.c
 *
 * Each instruction that names an operator counts for its framework
 * operator and its HLO instruction. The instructions come by start, so
 * an operator's Tensor time is merged as they come.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include <glib/gi18n-lib.h>

#include "chrono-format.h"
#include "chrono-json-util.h"
#include "chrono-neuron-ops.h"

/* Operators listed in the Markdown; the JSON has them all. */
#define MAX_TABLE_OPS 15

struct _ChronoNeuronOpTable
{
  GArray    *ops;       /* ChronoNeuronOp */
  GPtrArray *names;     /* what the rows' names point into */
};

const char *
chrono_neuron_op_kind_to_string (ChronoNeuronOpKind kind)
{
  return kind == CHRONO_NEURON_OP_HLO ? "hlo" : "framework";
}

/* The row of operator name OP of KIND, made when first met. */
static guint
row_of (ChronoNeuronOpTable *table,
        ChronoNeuronMetrics *metrics,
        guint               *rows,
        GArray              *runs,
        ChronoNeuronOpKind   kind,
        guint32              op)
{
  ChronoNeuronOp row = { 0 };
  ChronoRun run = { 0 };

  if (rows[op] != G_MAXUINT)
    return rows[op];
  row.name = g_strdup (chrono_neuron_metrics_op_name (metrics, op));
  g_ptr_array_add (table->names, (char *) row.name);
  row.kind = kind;
  g_array_append_val (table->ops, row);
  g_array_append_val (runs, run);
  rows[op] = table->ops->len - 1;
  return rows[op];
}

static gint
compare_ops (gconstpointer a,
             gconstpointer b)
{
  const ChronoNeuronOp *x = a, *y = b;

  if (x->tensor_ns != y->tensor_ns)
    return x->tensor_ns > y->tensor_ns ? -1 : 1;
  if (x->lost_ns != y->lost_ns)
    return x->lost_ns > y->lost_ns ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

/* Each gap's time to the operators of the instruction that ended it. */
static void
add_lost (ChronoNeuronOpTable      *table,
          const ChronoNeuronLedger *ledger,
          const ChronoNeuronInst   *insts,
          guint                     n_insts,
          const guint              *rows[2])
{
  g_autoptr(GHashTable) by_span = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree gint64 *keys = g_new (gint64, MAX (n_insts, 1));

  for (guint i = 0; i < n_insts; i++)
    {
      keys[i] = (gint64) chrono_span_key (insts[i].track, insts[i].index);
      g_hash_table_insert (by_span, &keys[i], GUINT_TO_POINTER (i + 1));
    }
  for (guint g = 0; g < chrono_neuron_ledger_get_n_gaps (ledger); g++)
    {
      const ChronoNeuronGap *gap = chrono_neuron_ledger_get_gap (ledger, g);
      const ChronoNeuronLink *link;
      gint64 key;
      guint found;

      if (gap->tail || gap->n_links == 0)
        continue;
      link = chrono_neuron_ledger_get_link (ledger, gap->first_link);
      key = (gint64) chrono_span_key (link->span.track, link->span.index);
      found = GPOINTER_TO_UINT (g_hash_table_lookup (by_span, &key));
      if (found == 0)
        continue;
      for (guint k = 0; k < 2; k++)
        {
          guint32 op = k == 0 ? insts[found - 1].framework_op : insts[found - 1].hlo_op;

          if (op != G_MAXUINT32 && rows[k][op] != G_MAXUINT)
            g_array_index (table->ops, ChronoNeuronOp, rows[k][op]).lost_ns += gap->end_ns - gap->start_ns;
        }
    }
}

ChronoNeuronOpTable *
chrono_neuron_op_table_new (ChronoNeuronMetrics      *metrics,
                            const ChronoNeuronLedger *ledger)
{
  ChronoNeuronOpTable *table = g_new0 (ChronoNeuronOpTable, 1);
  guint n_insts, n_names = 0;
  const ChronoNeuronInst *insts = chrono_neuron_metrics_get_insts (metrics, &n_insts);
  g_autofree guint *framework_rows = NULL, *hlo_rows = NULL;
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (ChronoRun));
  const guint *rows[2];

  while (chrono_neuron_metrics_op_name (metrics, n_names) != NULL)
    n_names++;
  framework_rows = g_new (guint, MAX (n_names, 1));
  hlo_rows = g_new (guint, MAX (n_names, 1));
  memset (framework_rows, 0xff, sizeof (guint) * MAX (n_names, 1));
  memset (hlo_rows, 0xff, sizeof (guint) * MAX (n_names, 1));
  table->ops = g_array_new (FALSE, FALSE, sizeof (ChronoNeuronOp));
  table->names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n_insts; i++)
    {
      const ChronoNeuronInst *in = &insts[i];
      const ChronoNeuronAmounts *a = chrono_neuron_metrics_get_amounts (metrics, in);

      for (guint k = 0; k < 2; k++)
        {
          guint32 op = k == 0 ? in->framework_op : in->hlo_op;
          ChronoNeuronOp *row;
          guint r;

          if (op == G_MAXUINT32)
            continue;
          r = row_of (table, metrics, k == 0 ? framework_rows : hlo_rows, runs,
                      k == 0 ? CHRONO_NEURON_OP_FRAMEWORK : CHRONO_NEURON_OP_HLO, op);
          row = &g_array_index (table->ops, ChronoNeuronOp, r);
          row->instructions++;
          row->flops += a->flops;
          row->transpose_flops += a->transpose_flops;
          row->hbm_bytes += a->hbm_read + a->hbm_write;
          if (in->tensor)
            chrono_run_add (&g_array_index (runs, ChronoRun, r), in->start, in->end);
        }
    }
  rows[0] = framework_rows;
  rows[1] = hlo_rows;
  for (guint r = 0; r < table->ops->len; r++)
    {
      ChronoNeuronOp *row = &g_array_index (table->ops, ChronoNeuronOp, r);

      row->tensor_ns = chrono_run_length (&g_array_index (runs, ChronoRun, r));
      row->lost_ns = ledger ? 0 : -1;
      if (!chrono_neuron_metrics_flops_percent (metrics, row->flops, 0, row->tensor_ns, &row->hfu_percent) ||
          !chrono_neuron_metrics_flops_percent (metrics, row->flops - row->transpose_flops, 0, row->tensor_ns,
                                                &row->mfu_percent))
        row->hfu_percent = row->mfu_percent = NAN;
    }
  if (ledger != NULL)
    add_lost (table, ledger, insts, n_insts, rows);
  g_array_sort (table->ops, compare_ops);
  return table;
}

void
chrono_neuron_op_table_free (ChronoNeuronOpTable *table)
{
  g_array_unref (table->ops);
  g_ptr_array_unref (table->names);
  g_free (table);
}

guint
chrono_neuron_op_table_get_n_ops (ChronoNeuronOpTable *table)
{
  return table->ops->len;
}

const ChronoNeuronOp *
chrono_neuron_op_table_get_op (ChronoNeuronOpTable *table,
                               guint                index)
{
  g_return_val_if_fail (index < table->ops->len, NULL);
  return &g_array_index (table->ops, ChronoNeuronOp, index);
}

const ChronoNeuronOp *
chrono_neuron_op_table_lookup (ChronoNeuronOpTable *table,
                               ChronoNeuronOpKind   kind,
                               const char          *name)
{
  for (guint i = 0; i < table->ops->len; i++)
    {
      const ChronoNeuronOp *op = &g_array_index (table->ops, ChronoNeuronOp, i);

      if (op->kind == kind && g_strcmp0 (op->name, name) == 0)
        return op;
    }
  return NULL;
}

static const ChronoNeuronLedger *
ledger_of (ChronoAnalysis      *analysis,
           ChronoNeuronMetrics *metrics)
{
  return chrono_analysis_get_neuron_ledger (analysis, chrono_neuron_metrics_get_device (metrics)->breakdown);
}

ChronoNeuronOpTable *
chrono_analysis_get_neuron_ops (ChronoAnalysis *analysis,
                                guint           core)
{
  g_autoptr(GPtrArray) cores = chrono_neuron_metrics_for_analysis (analysis);
  ChronoNeuronMetrics *metrics;

  if (core >= cores->len)
    return NULL;
  metrics = g_ptr_array_index (cores, core);
  return chrono_neuron_op_table_new (metrics, ledger_of (analysis, metrics));
}

void
chrono_neuron_ops_write_json (ChronoAnalysis      *analysis,
                              ChronoNeuronMetrics *metrics,
                              JsonBuilder         *b)
{
  g_autoptr(ChronoNeuronOpTable) table = chrono_neuron_op_table_new (metrics, ledger_of (analysis, metrics));

  json_builder_set_member_name (b, "operators");
  json_builder_begin_array (b);
  for (guint i = 0; i < table->ops->len; i++)
    {
      const ChronoNeuronOp *op = &g_array_index (table->ops, ChronoNeuronOp, i);

      json_builder_begin_object (b);
      chrono_json_add_string (b, "name", op->name);
      chrono_json_add_string (b, "kind", chrono_neuron_op_kind_to_string (op->kind));
      chrono_json_add_int (b, "instructions", op->instructions);
      chrono_json_add_int (b, "tensor_ns", op->tensor_ns);
      chrono_json_add_double (b, "flops", op->flops);
      chrono_json_add_double (b, "transpose_flops", op->transpose_flops);
      chrono_json_add_double (b, "hbm_bytes", op->hbm_bytes);
      chrono_json_add_double (b, "hfu_percent", op->hfu_percent);
      chrono_json_add_double (b, "mfu_percent", op->mfu_percent);
      json_builder_set_member_name (b, "lost_ns");
      if (op->lost_ns >= 0)
        json_builder_add_int_value (b, op->lost_ns);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static char *
percent_text (gdouble v)
{
  return isfinite (v) ? g_strdup_printf ("%.1f", v) : g_strdup ("–");
}

void
chrono_neuron_ops_append_markdown (ChronoAnalysis      *analysis,
                                   ChronoNeuronMetrics *metrics,
                                   GString             *s)
{
  g_autoptr(ChronoNeuronOpTable) table = chrono_neuron_op_table_new (metrics, ledger_of (analysis, metrics));

  if (table->ops->len == 0)
    {
      g_string_append_printf (s, "\n%s\n", _("No instruction names its operator (hlo_name, hlo_attrs, layer, "
                                             "nki_source_location): no operator table."));
      return;
    }
  g_string_append_printf (s, "\n%s\n\n| %s | %s | %s | %s | %s | %s | %s | %s |\n|---|---|---:|---:|---:|---:|---:|---:|\n",
                          _("The operators with the most Tensor-engine time."), _("Operator"), _("Kind"),
                          _("Instructions"), _("Tensor (ms)"), _("HFU (%)"), _("MFU (%)"), _("HBM (MiB)"),
                          _("Idle before (ms)"));
  for (guint i = 0; i < MIN (table->ops->len, MAX_TABLE_OPS); i++)
    {
      const ChronoNeuronOp *op = &g_array_index (table->ops, ChronoNeuronOp, i);
      g_autofree char *hfu = percent_text (op->hfu_percent), *mfu = percent_text (op->mfu_percent);
      g_autofree char *lost = op->lost_ns >= 0 ? g_strdup_printf ("%.3f", op->lost_ns / 1e6) : g_strdup ("–");

      g_string_append (s, "|");
      chrono_format_markdown_cell (s, op->name);
      g_string_append_printf (s, " %s | %" G_GUINT64_FORMAT " | %.3f | %s | %s | %.2f | %s |\n",
                              chrono_neuron_op_kind_to_string (op->kind), op->instructions, op->tensor_ns / 1e6,
                              hfu, mfu, op->hbm_bytes / (1024.0 * 1024.0), lost);
    }
  if (table->ops->len > MAX_TABLE_OPS)
    g_string_append_printf (s, _("\n…and %u more operators in the JSON report.\n"), table->ops->len - MAX_TABLE_OPS);
}
