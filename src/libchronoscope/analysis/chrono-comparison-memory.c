/* chrono-comparison-memory.c: each device's memory peak on both sides
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>

#include "chrono-comparison-memory.h"
#include "chrono-format.h"
#include "chrono-json-util.h"

/* Markdown lists the largest changes; the JSON has them all. */
#define MARKDOWN_OPS 8

void
chrono_compare_memory_free (ChronoCompareMemory *row)
{
  g_array_unref (row->ops);
  g_free (row->device);
  g_free (row);
}

static ChronoMemory *
side_memory (ChronoComparison   *comparison,
             ChronoCompareSideId side)
{
  guint n;
  ChronoMemory * const *memories = chrono_analysis_get_memories (chrono_comparison_get_analysis (comparison, side), &n);

  return n > 0 ? memories[0] : NULL;
}

static ChronoCompareMemoryOp *
op_row (GArray     *ops,
        GHashTable *by_name,
        const char *name)
{
  gpointer found;

  if (g_hash_table_lookup_extended (by_name, name != NULL ? name : "", NULL, &found))
    return &g_array_index (ops, ChronoCompareMemoryOp, GPOINTER_TO_UINT (found));
  g_array_append_val (ops, ((ChronoCompareMemoryOp) { name, 0, 0 }));
  g_hash_table_insert (by_name, (gpointer) (name != NULL ? name : ""), GUINT_TO_POINTER (ops->len - 1));
  return &g_array_index (ops, ChronoCompareMemoryOp, ops->len - 1);
}

static gint
compare_change (gconstpointer a,
                gconstpointer b)
{
  const ChronoCompareMemoryOp *x = a, *y = b;
  gint64 dx = ABS (x->b_bytes - x->a_bytes), dy = ABS (y->b_bytes - y->a_bytes);

  return dx > dy ? -1 : dx < dy;
}

static void
add_ops (ChronoCompareMemory *row,
         ChronoMemory        *a,
         ChronoMemory        *b)
{
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  const ChronoMemoryDevice *sides[2] = { row->a, row->b };
  ChronoMemory *memories[2] = { a, b };

  /* Every allocation alive at the peak, not only the operators a side lists. */
  for (guint s = 0; s < 2; s++)
    for (guint k = 0; sides[s] != NULL && k < sides[s]->allocations->len; k++)
      {
        const ChronoMemoryAllocation *m = &g_array_index (sides[s]->allocations, ChronoMemoryAllocation, k);
        const char *name;
        ChronoCompareMemoryOp *op;

        if (!m->at_peak)
          continue;
        name = m->op_name != CHRONO_NO_STRING
               ? chrono_trace_get_string (chrono_memory_get_trace (memories[s]), m->op_name) : NULL;
        op = op_row (row->ops, by_name, name);
        *(s == 0 ? &op->a_bytes : &op->b_bytes) += m->bytes;
      }
  g_array_sort (row->ops, compare_change);
}

/* Accelerators pair by index whatever their kind (cuda:0 with hip:0),
 * the host with the host. */
static ChronoCompareMemory *
find_row (GPtrArray                *rows,
          const ChronoMemoryDevice *d)
{
  for (guint i = 0; i < rows->len; i++)
    {
      ChronoCompareMemory *row = rows->pdata[i];
      const ChronoMemoryDevice *other = row->a != NULL ? row->a : row->b;

      /* Counters pair by name (APP/HBM KB with APP/HBM KB), never with
       * a device of the allocator's. */
      if ((other->counter_name != CHRONO_NO_STRING) != (d->counter_name != CHRONO_NO_STRING))
        continue;
      if (d->counter_name != CHRONO_NO_STRING ? g_str_equal (other->label, d->label)
                                              : other->device_id == d->device_id &&
                                                (other->device_type == 0) == (d->device_type == 0))
        return row;
    }
  return NULL;
}

GPtrArray *
chrono_comparison_get_memory_rows (ChronoComparison *comparison)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_compare_memory_free);
  ChronoMemory *memories[2] = { side_memory (comparison, CHRONO_COMPARE_SIDE_A),
                                side_memory (comparison, CHRONO_COMPARE_SIDE_B) };

  for (guint s = 0; s < 2; s++)
    for (guint i = 0; memories[s] != NULL && i < chrono_memory_get_n_devices (memories[s]); i++)
      {
        const ChronoMemoryDevice *d = chrono_memory_get_device (memories[s], i);
        ChronoCompareMemory *row;

        /* The first file of each side, as the comparison reads its first rank. */
        if (d->part != 0)
          continue;
        if ((row = find_row (rows, d)) == NULL)
          {
            row = g_new0 (ChronoCompareMemory, 1);
            row->ops = g_array_new (FALSE, FALSE, sizeof (ChronoCompareMemoryOp));
            g_ptr_array_add (rows, row);
          }
        *(s == 0 ? &row->a : &row->b) = d;
        g_free (row->device);
        row->device = row->a != NULL && row->b != NULL && !g_str_equal (row->a->label, row->b->label)
                      ? g_strdup_printf ("%s / %s", row->a->label, row->b->label) : g_strdup (d->label);
      }
  for (guint i = 0; i < rows->len; i++)
    add_ops (rows->pdata[i], memories[0], memories[1]);
  return rows;
}

static void
add_side (JsonBuilder              *b,
          const char               *name,
          const ChronoMemoryDevice *d)
{
  json_builder_set_member_name (b, name);
  if (d == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  chrono_json_add_int (b, "peak_allocated_bytes", d->peak_allocated_bytes);
  chrono_json_add_int (b, "peak_ns", d->peak_ns);
  json_builder_set_member_name (b, "reserved_at_peak_bytes");
  if (d->has_totals)
    json_builder_add_int_value (b, d->reserved_at_peak_bytes);
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
}

void
chrono_compare_memory_write_json (GPtrArray   *rows,
                                  JsonBuilder *b)
{
  json_builder_set_member_name (b, "memory");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const ChronoCompareMemory *r = rows->pdata[i];

      json_builder_begin_object (b);
      chrono_json_add_string (b, "device", r->device);
      add_side (b, "a", r->a);
      add_side (b, "b", r->b);
      json_builder_set_member_name (b, "operators");
      json_builder_begin_array (b);
      for (guint k = 0; k < r->ops->len; k++)
        {
          const ChronoCompareMemoryOp *op = &g_array_index (r->ops, ChronoCompareMemoryOp, k);

          json_builder_begin_object (b);
          chrono_json_add_nullable_string (b, "operator", op->op);
          chrono_json_add_int (b, "a_bytes", op->a_bytes);
          chrono_json_add_int (b, "b_bytes", op->b_bytes);
          chrono_json_add_int (b, "change_bytes", op->b_bytes - op->a_bytes);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static char *
side_bytes (const ChronoMemoryDevice *d)
{
  return d != NULL ? chrono_format_bytes (d->peak_allocated_bytes) : g_strdup ("–");
}

static char *
signed_bytes (gint64 change)
{
  g_autofree char *bytes = chrono_format_bytes (ABS (change));

  return g_strdup_printf ("%s%s", change > 0 ? "+" : change < 0 ? "−" : "", bytes);
}

void
chrono_compare_memory_append_markdown (GPtrArray *rows,
                                       GString   *out)
{
  if (rows->len == 0)
    return;
  g_string_append_printf (out, "\n## %s\n\n| %s | %s | %s | %s |\n|---|---:|---:|---:|\n", _("Memory peak"),
                          _("Device"), "A", "B", _("Change"));
  for (guint i = 0; i < rows->len; i++)
    {
      const ChronoCompareMemory *r = rows->pdata[i];
      g_autofree char *a = side_bytes (r->a);
      g_autofree char *b = side_bytes (r->b);
      g_autofree char *change = r->a != NULL && r->b != NULL
                                ? signed_bytes (r->b->peak_allocated_bytes - r->a->peak_allocated_bytes) : g_strdup ("–");

      g_string_append (out, "|");
      chrono_format_markdown_cell (out, r->device);
      chrono_format_markdown_cell (out, a);
      chrono_format_markdown_cell (out, b);
      chrono_format_markdown_cell (out, change);
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < rows->len; i++)
    {
      const ChronoCompareMemory *r = rows->pdata[i];

      if (r->ops->len == 0)
        continue;
      g_string_append_printf (out, "\n%s\n\n| %s | %s | %s | %s |\n|---|---:|---:|---:|\n",
                              r->device, _("Alive at the peak, by operator"), "A", "B", _("Change"));
      for (guint k = 0; k < MIN (r->ops->len, MARKDOWN_OPS); k++)
        {
          const ChronoCompareMemoryOp *op = &g_array_index (r->ops, ChronoCompareMemoryOp, k);
          g_autofree char *a = chrono_format_bytes (op->a_bytes);
          g_autofree char *b = chrono_format_bytes (op->b_bytes);
          g_autofree char *change = signed_bytes (op->b_bytes - op->a_bytes);

          g_string_append (out, "|");
          chrono_format_markdown_cell (out, op->op != NULL ? op->op : _("(outside any operator)"));
          chrono_format_markdown_cell (out, a);
          chrono_format_markdown_cell (out, b);
          chrono_format_markdown_cell (out, change);
          g_string_append_c (out, '\n');
        }
    }
}
