/* test-compare-efficiency.c: each side's efficiency per operator shape,
 * joined, on a real pair with shapes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "chrono-comparison-efficiency.h"
#include "test-utils.h"

static char *
compact (const char *text)
{
  GString *s = g_string_new (NULL);

  for (const char *p = text ? text : ""; *p; p++)
    if (!g_ascii_isspace (*p))
      g_string_append_c (s, *p);
  return g_string_free (s, FALSE);
}

/* SIDE's rows of the analysis with the row's operator, shapes and types,
 * added up as the join should. */
static void
check_side (ChronoAnalysis                    *an,
            const ChronoCompareEfficiency     *row,
            const ChronoCompareEfficiencySide *side)
{
  g_autofree char *dims = compact (row->input_dims);
  g_autofree char *types = compact (row->input_types);
  guint64 count = 0;
  gint64 time = 0;
  gdouble flops = 0;
  gint64 roofline = 0;
  gboolean all_roofline = TRUE;

  for (guint i = 0; i < chrono_analysis_get_n_efficiency (an); i++)
    {
      const ChronoEfficiencyRow *r = chrono_analysis_get_efficiency (an, i);
      g_autofree char *rd = compact (r->input_dims);
      g_autofree char *rt = compact (r->input_types);

      if (r->rank == 0 && strcmp (r->op, row->op) == 0 && strcmp (rd, dims) == 0 && strcmp (rt, types) == 0)
        {
          count += r->count;
          time += r->gpu_time_ns;
          flops += r->flops * r->count;
          roofline += r->roofline_ns;
          all_roofline = all_roofline && r->has_roofline;
        }
    }
  g_assert_cmpuint (side->count, ==, count);
  g_assert_cmpint (side->gpu_time_ns, ==, time);
  if (count == 0)
    return;
  g_assert_cmpfloat_with_epsilon (side->flops, flops, 1e-9 * flops);
  g_assert_cmpfloat_with_epsilon (side->tflops, flops / (time * 1e3), 1e-9 * side->tflops + 1e-12);
  g_assert_cmpint (side->has_roofline, ==, all_roofline);
  if (all_roofline && time > 0)
    g_assert_cmpfloat_with_epsilon (side->roofline_percent, 100.0 * roofline / time, 1e-9);
  else
    g_assert_true (isnan (side->roofline_percent));
}

static void
test_hta_trace_diff (void)
{
  g_autoptr(ChronoTrace) a = test_traces_load ("hta__trace_diff_control__control.json.gz");
  g_autoptr(ChronoTrace) b = a ? test_traces_load ("hta__trace_diff_test__test.json.gz") : NULL;
  g_autoptr(ChronoAnalysis) aa = NULL;
  g_autoptr(ChronoAnalysis) ab = NULL;
  g_autoptr(ChronoComparison) c = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  g_autofree char *md = NULL;
  guint both = 0, only_a = 0;

  if (b == NULL)
    return;
  aa = chrono_analysis_run (&a, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  ab = chrono_analysis_run (&b, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  c = chrono_comparison_run (aa, ab, NULL, NULL, &error);
  g_assert_no_error (error);

  rows = chrono_comparison_get_efficiency_rows (c);
  g_assert_cmpuint (rows->len, >, 0);
  for (guint i = 0; i < rows->len; i++)
    {
      const ChronoCompareEfficiency *r = rows->pdata[i];
      gboolean on_both = r->a.count > 0 && r->b.count > 0;

      check_side (aa, r, &r->a);
      check_side (ab, r, &r->b);
      /* Shapes are shown without the file's white space: they hold no
       * strings, so none is left. */
      for (const char *p = r->input_dims; *p; p++)
        g_assert_false (g_ascii_isspace (*p));
      /* Those on both sides come first. */
      if (on_both)
        g_assert_cmpuint (i, ==, both++);
      only_a += r->b.count == 0;
    }
  /* The two runs share some shapes and not others. */
  g_assert_cmpuint (both, >, 0);
  g_assert_cmpuint (only_a, >, 0);

  json = chrono_comparison_to_json (c);
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "efficiency")),
                    ==, rows->len);
  md = chrono_comparison_to_markdown (c);
  g_assert_nonnull (strstr (md, "## Efficiency per operator shape"));
  g_assert_nonnull (strstr (md, ((const ChronoCompareEfficiency *) rows->pdata[0])->op));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare-efficiency/real/hta-trace-diff", test_hta_trace_diff);
  return g_test_run ();
}
