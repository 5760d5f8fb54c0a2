/* chrono-comparison-efficiency.c: each side's efficiency per operator shape, joined
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include <glib/gi18n-lib.h>

#include "chrono-comparison-efficiency.h"
#include "chrono-comparison-private.h"
#include "chrono-format.h"
#include "chrono-json-util.h"

#define MAX_TABLE_ROWS 15

void
chrono_compare_efficiency_free (ChronoCompareEfficiency *row)
{
  g_free (row->op);
  g_free (row->input_dims);
  g_free (row->input_types);
  g_free (row);
}

/* The join key: the operator, its shapes and types without white space,
 * which writers place differently. */
static char *
join_key (const ChronoEfficiencyRow *r)
{
  GString *key = g_string_new (r->op);

  for (guint k = 0; k < 2; k++)
    {
      const char *text = k == 0 ? r->input_dims : r->input_types;

      g_string_append_c (key, '\n');
      for (const char *p = text ? text : ""; *p; p++)
        if (!g_ascii_isspace (*p))
          g_string_append_c (key, *p);
    }
  return g_string_free (key, FALSE);
}

/* TEXT, a JSON value, without the white space between its tokens: a
 * pretty-printed trace spreads shapes over many lines. */
static char *
compact_value (const char *text)
{
  GString *out = g_string_new (NULL);
  gboolean in_string = FALSE;

  for (const char *p = text ? text : ""; *p; p++)
    {
      if (in_string)
        {
          if (*p == '\\' && p[1] != '\0')
            g_string_append_c (out, *p++);
          else if (*p == '"')
            in_string = FALSE;
        }
      else if (*p == '"')
        in_string = TRUE;
      else if (g_ascii_isspace (*p))
        continue;
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* Rows come by decreasing GPU time: the first names the side's device
 * and bound. */
static void
add_row (ChronoCompareEfficiencySide *s,
         const ChronoEfficiencyRow   *r)
{
  if (s->count == 0)
    {
      s->bound = r->bound;
      s->device_name = r->device_name;
      s->has_roofline = r->has_roofline;
    }
  /* The roofline is known for all of it or is not claimed. */
  s->has_roofline = s->has_roofline && r->has_roofline;
  s->count += r->count;
  s->gpu_time_ns += r->gpu_time_ns;
  s->flops += r->flops * r->count;
  s->roofline_ns += r->roofline_ns;
}

static void
finish_side (ChronoCompareEfficiencySide *s)
{
  s->tflops = s->gpu_time_ns > 0 ? s->flops / (s->gpu_time_ns * 1e3) : 0;
  s->roofline_percent = s->has_roofline && s->gpu_time_ns > 0 ? 100.0 * s->roofline_ns / s->gpu_time_ns : NAN;
  if (!s->has_roofline)
    s->bound = CHRONO_BOUND_UNKNOWN;
}

static gint
by_time (gconstpointer x,
         gconstpointer y)
{
  const ChronoCompareEfficiency *a = *(ChronoCompareEfficiency * const *) x, *b = *(ChronoCompareEfficiency * const *) y;
  gint64 ta = MAX (a->a.gpu_time_ns, a->b.gpu_time_ns), tb = MAX (b->a.gpu_time_ns, b->b.gpu_time_ns);
  gboolean both_a = a->a.count > 0 && a->b.count > 0, both_b = b->a.count > 0 && b->b.count > 0;

  if (both_a != both_b)
    return both_a ? -1 : 1;
  if (ta != tb)
    return ta < tb ? 1 : -1;
  return g_strcmp0 (a->op, b->op) != 0 ? g_strcmp0 (a->op, b->op) : g_strcmp0 (a->input_dims, b->input_dims);
}

GPtrArray *
chrono_comparison_get_efficiency_rows (ChronoComparison *self)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_compare_efficiency_free);
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (CHRONO_IS_COMPARISON (self), rows);

  for (guint side = 0; side < 2; side++)
    {
      ChronoAnalysis *an = self->side[side].analysis;
      guint rank = self->side[side].data->rank_index;

      for (guint i = 0; i < chrono_analysis_get_n_efficiency (an); i++)
        {
          const ChronoEfficiencyRow *r = chrono_analysis_get_efficiency (an, i);
          char *key;
          ChronoCompareEfficiency *row;
          ChronoCompareEfficiencySide *s;

          if (r->rank != rank)
            continue;
          key = join_key (r);
          row = g_hash_table_lookup (by_key, key);
          if (row == NULL)
            {
              row = g_new0 (ChronoCompareEfficiency, 1);
              row->op = g_strdup (r->op);
              row->input_dims = compact_value (r->input_dims);
              row->input_types = compact_value (r->input_types);
              row->family = r->family;
              g_hash_table_insert (by_key, key, row);
              g_ptr_array_add (rows, row);
            }
          else
            g_free (key);
          s = side == 0 ? &row->a : &row->b;
          add_row (s, r);
        }
    }
  for (guint i = 0; i < rows->len; i++)
    {
      ChronoCompareEfficiency *row = rows->pdata[i];

      finish_side (&row->a);
      finish_side (&row->b);
    }
  g_ptr_array_sort (rows, by_time);
  return rows;
}

/* ------------------------------------------------------------------ */

static void
add_double_or_null (JsonBuilder *b,
                    const char  *member,
                    gdouble      v)
{
  json_builder_set_member_name (b, member);
  if (isnan (v))
    json_builder_add_null_value (b);
  else
    json_builder_add_double_value (b, v);
}

static void
add_side (JsonBuilder                       *b,
          const char                        *member,
          const ChronoCompareEfficiencySide *s)
{
  json_builder_set_member_name (b, member);
  if (s->count == 0)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  chrono_json_add_int (b, "count", s->count);
  chrono_json_add_int (b, "gpu_time_ns", s->gpu_time_ns);
  chrono_json_add_int (b, "gpu_time_ns_per_call", llround ((gdouble) s->gpu_time_ns / s->count));
  json_builder_set_member_name (b, "flops");
  json_builder_add_double_value (b, s->flops);
  json_builder_set_member_name (b, "achieved_tflops");
  json_builder_add_double_value (b, s->tflops);
  add_double_or_null (b, "roofline_percent", s->roofline_percent);
  json_builder_set_member_name (b, "bound");
  if (s->has_roofline)
    json_builder_add_string_value (b, chrono_bound_to_string (s->bound));
  else
    json_builder_add_null_value (b);
  chrono_json_add_string (b, "device_name", s->device_name);
  json_builder_end_object (b);
}

void
chrono_compare_efficiency_write_json (GPtrArray   *rows,
                                      JsonBuilder *b)
{
  json_builder_set_member_name (b, "efficiency");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const ChronoCompareEfficiency *r = rows->pdata[i];

      json_builder_begin_object (b);
      chrono_json_add_string (b, "op", r->op);
      chrono_json_add_string (b, "input_dims", r->input_dims);
      chrono_json_add_string (b, "input_types", r->input_types);
      chrono_json_add_string (b, "family", r->family);
      if (r->a.count == 0 || r->b.count == 0)
        chrono_json_add_string (b, "only_in", r->a.count > 0 ? "a" : "b");
      add_side (b, "a", &r->a);
      add_side (b, "b", &r->b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
append_side (GString                           *s,
             const ChronoCompareEfficiencySide *side)
{
  g_autofree char *tflops = NULL, *share = NULL, *per_call = NULL;

  per_call = g_strdup_printf ("%.1f", side->gpu_time_ns / 1e3 / side->count);
  tflops = g_strdup_printf ("%.2f", side->tflops);
  share = isnan (side->roofline_percent) ? g_strdup (_("no peaks")) : g_strdup_printf ("%.1f%%", side->roofline_percent);
  chrono_format_markdown_cell (s, per_call);
  chrono_format_markdown_cell (s, tflops);
  chrono_format_markdown_cell (s, share);
}

void
chrono_compare_efficiency_append_markdown (GPtrArray *rows,
                                           GString   *s)
{
  guint both = 0, only[2] = { 0, 0 };
  const char *device[2] = { NULL, NULL };

  for (guint i = 0; i < rows->len; i++)
    {
      const ChronoCompareEfficiency *r = rows->pdata[i];

      if (r->a.count > 0 && r->b.count > 0)
        both++;
      else
        only[r->a.count > 0 ? 0 : 1]++;
      device[0] = device[0] ? device[0] : r->a.device_name;
      device[1] = device[1] ? device[1] : r->b.device_name;
    }
  g_string_append_printf (s, "\n## %s\n\n", _("Efficiency per operator shape"));
  if (rows->len == 0)
    {
      g_string_append_printf (s, "%s\n", _("Neither trace has operators of a modelled kind with input shapes and types (record_shapes=True records them)."));
      return;
    }
  g_string_append_printf (s, _("Operators with the same input shapes and types on both sides, over each whole trace, against the roofline of each side’s device (A: %s, B: %s)."),
                          device[0] ? device[0] : _("unnamed"), device[1] ? device[1] : _("unnamed"));
  if (only[0] + only[1] > 0)
    g_string_append_printf (s, _(" %u shapes only in A and %u only in B are in the JSON report."), only[0], only[1]);
  g_string_append (s, "\n");
  if (both == 0)
    return;
  g_string_append_printf (s, "\n| %s | %s | %s | %s | %s | %s | %s | %s |\n|---|---|---:|---:|---:|---:|---:|---:|\n",
                          _("Operator"), _("Input shapes"),
                          _("A µs / call"), _("A TFLOP/s"), _("A of roofline"),
                          _("B µs / call"), _("B TFLOP/s"), _("B of roofline"));
  for (guint i = 0; i < MIN (both, MAX_TABLE_ROWS); i++)
    {
      const ChronoCompareEfficiency *r = rows->pdata[i];
      glong n = g_utf8_strlen (r->input_dims, -1);
      g_autofree char *dims = n <= 60 ? g_strdup (r->input_dims)
                                      : g_strdup_printf ("%.*s…", (int) (g_utf8_offset_to_pointer (r->input_dims, 60) - r->input_dims), r->input_dims);

      g_autofree char *op = chrono_format_short_name (r->op, CHRONO_SHORT_NAME_WIDTH);

      g_string_append (s, "|");
      chrono_format_markdown_cell (s, op);
      chrono_format_markdown_cell (s, dims);
      append_side (s, &r->a);
      append_side (s, &r->b);
      g_string_append_c (s, '\n');
    }
  if (both > MAX_TABLE_ROWS)
    g_string_append_printf (s, _("\n…and %u more on both sides in the JSON report.\n"), both - MAX_TABLE_ROWS);
}
