/* test-int-column.c: narrow integer columns keep every value exactly, at
 * the narrowest width that can; and the tracks of the real traces use them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-int-column.h"
#include "chrono-trace-set.h"
#include "test-utils.h"

/* The width the rule asks for, worked out here from the range alone. */
static guint8
expected_width (const gint64 *values,
                guint32       n)
{
  gboolean any = FALSE;
  gint64 lo = 0, hi = 0;

  for (guint32 i = 0; i < n; i++)
    {
      if (values[i] == -1)
        continue;
      lo = any ? MIN (lo, values[i]) : values[i];
      hi = any ? MAX (hi, values[i]) : values[i];
      any = TRUE;
    }
  if (!any)
    return 2;
  /* hi - lo without overflow: both halves as unsigned. */
  if ((guint64) hi - (guint64) lo <= 0xFFFE)
    return 2;
  if ((guint64) hi - (guint64) lo <= 0xFFFFFFFE)
    return 4;
  return 8;
}

/* Narrows a copy of VALUES, checks the width and every value, then the
 * values at full width again. */
static void
check_round_trip (const gint64 *values,
                  guint32       n,
                  guint8        width)
{
  ChronoIntColumn column;
  g_autofree gint64 *back = NULL;
  guint32 seen = 0;

  chrono_int_column_take (&column, g_memdup2 (values, MAX (n, 1) * sizeof *values), n);
  g_assert_cmpuint (column.width, ==, width);
  g_assert_cmpuint (column.width, ==, expected_width (values, n));
  g_assert_cmpuint (chrono_int_column_bytes (&column, n), ==, (gsize) n * width);
  for (guint32 i = 0; i < n; i++)
    g_assert_cmpint (chrono_int_column_get (&column, i), ==, values[i]);
  CHRONO_INT_COLUMN_FOREACH (&column, n, i, value,
    g_assert_cmpint (value, ==, values[i]);
    seen++;);
  g_assert_cmpuint (seen, ==, n);
  back = chrono_int_column_steal (&column, n);
  g_assert_null (column.data);
  g_assert_cmpmem (back, n * sizeof *back, values, n * sizeof *values);
}

static void
test_widths (void)
{
  const gint64 small[] = { 1000, 1003, 1000 + 0xFFFE, 1001 };
  const gint64 just_wider[] = { 1000, 1000 + 0xFFFF };
  const gint64 medium[] = { 7, 7 + G_GINT64_CONSTANT (0xFFFFFFFE), 8 };
  const gint64 wide[] = { 7, 7 + G_GINT64_CONSTANT (0xFFFFFFFF) };
  const gint64 one[] = { G_GINT64_CONSTANT (1712195495406752800) };

  /* The largest delta is all-ones minus one; all-ones itself is taken. */
  check_round_trip (small, G_N_ELEMENTS (small), 2);
  check_round_trip (just_wider, G_N_ELEMENTS (just_wider), 4);
  check_round_trip (medium, G_N_ELEMENTS (medium), 4);
  check_round_trip (wide, G_N_ELEMENTS (wide), 8);
  /* One value far from zero is its own base. */
  check_round_trip (one, 1, 2);
}

static void
test_sentinel (void)
{
  const gint64 with_none[] = { -1, 40, -1, 41, 42 + 0xFFFC, -1 };
  const gint64 wide_with_none[] = { -1, 0, G_GINT64_CONSTANT (0xFFFFFFFF), -1 };
  const gint64 only_none[] = { -1, -1, -1 };
  /* -1 sits below the base here: it is still exact. */
  const gint64 around[] = { -3, -1, 0, 5 };
  ChronoIntColumn column;
  gint64 *values = g_memdup2 (with_none, sizeof with_none);

  check_round_trip (with_none, G_N_ELEMENTS (with_none), 2);
  check_round_trip (wide_with_none, G_N_ELEMENTS (wide_with_none), 8);
  check_round_trip (only_none, G_N_ELEMENTS (only_none), 2);
  check_round_trip (around, G_N_ELEMENTS (around), 2);

  /* The sentinel is the all-ones delta, whatever the base. */
  chrono_int_column_take (&column, values, G_N_ELEMENTS (with_none));
  g_assert_cmpint (column.base, ==, 40);
  g_assert_cmpuint (((guint16 *) column.data)[0], ==, G_MAXUINT16);
  g_assert_cmpuint (((guint16 *) column.data)[1], ==, 0);
  chrono_int_column_clear (&column);
  g_assert_null (column.data);
}

static void
test_negative_and_far (void)
{
  const gint64 negative[] = { -5, -2, -70000, 3 };
  const gint64 far[] = { 0, G_MAXINT64 };
  const gint64 extremes[] = { G_MININT64, G_MAXINT64, -1 };
  const gint64 near_min[] = { G_MININT64, G_MININT64 + 0xFFFE };

  check_round_trip (negative, G_N_ELEMENTS (negative), 4);
  check_round_trip (far, G_N_ELEMENTS (far), 8);
  check_round_trip (extremes, G_N_ELEMENTS (extremes), 8);
  check_round_trip (near_min, G_N_ELEMENTS (near_min), 2);
}

static void
test_empty (void)
{
  ChronoIntColumn column = { NULL, 0, 0 };

  /* No array: no column at all. */
  chrono_int_column_take (&column, NULL, 0);
  g_assert_null (column.data);
  g_assert_cmpuint (chrono_int_column_bytes (&column, 0), ==, 0);
  g_assert_null (chrono_int_column_steal (&column, 0));
  chrono_int_column_take_ids (&column, NULL, 0);
  g_assert_null (column.data);

  /* An array of nothing: a column that costs nothing. */
  chrono_int_column_take (&column, g_new (gint64, 16), 0);
  g_assert_nonnull (column.data);
  g_assert_cmpuint (chrono_int_column_bytes (&column, 0), ==, 0);
  chrono_int_column_clear (&column);
}

static void
test_ids (void)
{
  const guint32 few[] = { 12, 3, 9000 };
  const guint32 many[] = { 0, 70000, 5 };
  const guint32 extremes[] = { 0, G_MAXUINT32 };
  const guint32 *cases[] = { few, many, extremes };
  const guint32 sizes[] = { G_N_ELEMENTS (few), G_N_ELEMENTS (many), G_N_ELEMENTS (extremes) };
  const guint8 widths[] = { 2, 4, 8 };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      ChronoIntColumn column;

      chrono_int_column_take_ids (&column, g_memdup2 (cases[c], sizes[c] * sizeof (guint32)), sizes[c]);
      g_assert_cmpuint (column.width, ==, widths[c]);
      for (guint32 i = 0; i < sizes[c]; i++)
        g_assert_cmpuint ((guint32) chrono_int_column_get (&column, i), ==, cases[c][i]);
      /* An id is never read as the sentinel. */
      if (c == 2)
        g_assert_cmpint (chrono_int_column_get (&column, 1), ==, (gint64) G_MAXUINT32);
      chrono_int_column_clear (&column);
    }
}

/* Tagging args offsets with their file, as merging traces does. */
static void
test_add (void)
{
  const gint64 narrow[] = { 100, -1, 250, 100 + 0xFFFE };
  const gint64 wide[] = { 100, -1, G_GINT64_CONSTANT (1) << 40 };
  const gint64 *cases[] = { narrow, wide };
  const guint32 sizes[] = { G_N_ELEMENTS (narrow), G_N_ELEMENTS (wide) };
  const guint64 tags[] = { G_GUINT64_CONSTANT (3) << 56, G_GUINT64_CONSTANT (200) << 56 };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (guint k = 0; k < G_N_ELEMENTS (tags); k++)
      {
        ChronoIntColumn column;

        chrono_int_column_take (&column, g_memdup2 (cases[c], sizes[c] * sizeof (gint64)), sizes[c]);
        chrono_int_column_add (&column, sizes[c], (gint64) tags[k]);
        for (guint32 i = 0; i < sizes[c]; i++)
          {
            guint64 got = (guint64) chrono_int_column_get (&column, i);

            if (cases[c][i] == -1)
              g_assert_cmpuint (got, ==, G_MAXUINT64);
            else
              g_assert_cmpuint (got, ==, (guint64) cases[c][i] | tags[k]);
          }
        chrono_int_column_clear (&column);
      }
}

/* Random columns of every range, checked against the rule and themselves. */
static void
test_random (void)
{
  static const guint64 spans[] = { 0, 1, 0xFFFE, 0xFFFF, 0x10000, 0xFFFFFFFE, 0xFFFFFFFF,
                                   G_GUINT64_CONSTANT (1) << 40, G_MAXUINT64 };

  for (guint round = 0; round < 200; round++)
    {
      guint64 span = spans[round % G_N_ELEMENTS (spans)];
      gint64 base = (gint64) ((guint64) g_test_rand_int () << 32 | (guint32) g_test_rand_int ());
      guint32 n = g_test_rand_int_range (1, 2000);
      g_autofree gint64 *values = g_new (gint64, n);

      if (span > (guint64) G_MAXINT64 - (guint64) MAX (base, 0))
        base = G_MININT64;
      for (guint32 i = 0; i < n; i++)
        {
          guint64 r = (guint64) g_test_rand_int () << 32 | (guint32) g_test_rand_int ();

          values[i] = (gint64) ((guint64) base + (span == G_MAXUINT64 ? r : r % (span + 1)));
          if (g_test_rand_int_range (0, 10) == 0)
            values[i] = -1;
        }
      /* Both ends of the range, so that the width is the one for SPAN. */
      values[0] = base;
      if (n > 1)
        values[n - 1] = (gint64) ((guint64) base + span);
      check_round_trip (values, n, expected_width (values, n));
    }
}

/* Every track of every real trace: columns at the narrowest width their
 * values allow, and the model's size counts them at that width. */
static void
check_track_column (const ChronoIntColumn *column,
                    guint32                n)
{
  g_autofree gint64 *values = NULL;

  if (column->data == NULL)
    return;
  values = g_new (gint64, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    values[i] = chrono_int_column_get (column, i);
  g_assert_cmpuint (column->width, ==, expected_width (values, n));
}

static gsize
column_bytes (const ChronoIntColumn *column,
              guint32                n)
{
  return column->data != NULL ? (gsize) n * column->width : 0;
}

static void
check_trace (ChronoTrace *trace,
             const char  *name)
{
  gsize narrow_bytes = 0;
  gsize wide_bytes = 0;
  guint64 spans = 0;

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      check_track_column (&track->dur, track->n_spans);
      check_track_column (&track->name_id, track->n_spans);
      check_track_column (&track->cat_id, track->n_spans);
      check_track_column (&track->args_off, track->n_spans);
      check_track_column (&track->correlation, track->n_spans);
      check_track_column (&track->inst_name, track->n_instants);
      check_track_column (&track->inst_cat, track->n_instants);
      check_track_column (&track->inst_args_off, track->n_instants);
      if (track->n_spans > 0)
        g_assert_nonnull (track->dur.data);
      for (guint32 i = 0; i < track->n_spans; i++)
        g_assert_cmpint (chrono_track_get_dur (track, i), >=, 0);

      spans += track->n_spans;
      narrow_bytes += column_bytes (&track->dur, track->n_spans) + column_bytes (&track->name_id, track->n_spans) +
                      column_bytes (&track->cat_id, track->n_spans) +
                      column_bytes (&track->args_off, track->n_spans) +
                      column_bytes (&track->correlation, track->n_spans);
      wide_bytes += (gsize) track->n_spans * (8 + 4 + 4 + 8 + (track->correlation.data ? 8 : 0));
    }
  g_test_message ("%s: %" G_GUINT64_FORMAT " spans, narrowed columns %.1f bytes per span instead of %.1f", name,
                  spans, spans ? (double) narrow_bytes / spans : 0.0, spans ? (double) wide_bytes / spans : 0.0);
  /* Only sizable traces: a few spans may span any range. */
  if (spans >= 10000)
    g_assert_cmpuint (narrow_bytes * 3, <=, wide_bytes * 2);
}

static void
test_real_traces (void)
{
  g_autoptr(GPtrArray) paths = test_traces_list ();
  guint n = 0;

  for (guint i = 0; paths != NULL && i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autofree char *name = g_path_get_basename (path);
      g_autoptr(ChronoTrace) trace = chrono_trace_load_file (path, NULL, NULL, NULL, NULL);

      /* Files that are not traces fail to load: other tests see to that. */
      if (trace == NULL)
        continue;
      check_trace (trace, name);
      n++;
    }
  if (paths != NULL)
    g_assert_cmpuint (n, >, 0);
}

/* Merging re-maps names and categories and tags args offsets: the columns stay
 * narrow and every value lands where the single-file load had it. */
static void
test_real_merge (void)
{
  g_autoptr(ChronoTrace) ta = test_traces_load ("param__dlrm_8rank__worker0_step_12.1694128201545.pt.trace.json");
  g_autoptr(ChronoTrace) tb = test_traces_load ("kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz");
  g_autoptr(ChronoTrace) merged = NULL;
  const char *paths[3];
  guint first_b;

  if (ta == NULL || tb == NULL)
    return;
  paths[0] = chrono_trace_get_path (ta);
  paths[1] = chrono_trace_get_path (tb);
  paths[2] = NULL;
  merged = chrono_trace_load_set (paths, NULL, NULL, NULL, NULL);
  g_assert_nonnull (merged);
  check_trace (merged, "merged");

  first_b = chrono_trace_get_n_tracks (ta);
  g_assert_cmpuint (chrono_trace_get_n_tracks (merged), ==, first_b + chrono_trace_get_n_tracks (tb));
  for (guint t = 0; t < chrono_trace_get_n_tracks (merged); t++)
    {
      gboolean second = t >= first_b;
      ChronoTrace *single = second ? tb : ta;
      const ChronoTrack *x = chrono_trace_get_track (single, second ? t - first_b : t);
      const ChronoTrack *y = chrono_trace_get_track (merged, t);

      g_assert_cmpuint (x->n_spans, ==, y->n_spans);
      for (guint32 i = 0; i < x->n_spans; i++)
        {
          guint64 ax = chrono_track_get_args (x, i);
          guint64 ay = chrono_track_get_args (y, i);

          g_assert_cmpint (chrono_track_get_dur (x, i), ==, chrono_track_get_dur (y, i));
          g_assert_cmpint (chrono_track_get_correlation (x, i), ==, chrono_track_get_correlation (y, i));
          g_assert_cmpstr (chrono_trace_get_string (single, chrono_track_get_name (x, i)), ==,
                           chrono_trace_get_string (merged, chrono_track_get_name (y, i)));
          g_assert_cmpstr (chrono_trace_get_string (single, chrono_track_get_cat (x, i)), ==,
                           chrono_trace_get_string (merged, chrono_track_get_cat (y, i)));
          if (ax == CHRONO_NO_ARGS)
            g_assert_cmpuint (ay, ==, CHRONO_NO_ARGS);
          else
            g_assert_cmpuint (ay, ==, ax | ((guint64) second << 56));
        }
      for (guint32 i = 0; i < x->n_instants; i++)
        {
          g_assert_cmpstr (chrono_trace_get_string (single, chrono_track_get_inst_name (x, i)), ==,
                           chrono_trace_get_string (merged, chrono_track_get_inst_name (y, i)));
          g_assert_cmpstr (chrono_trace_get_string (single, chrono_track_get_inst_cat (x, i)), ==,
                           chrono_trace_get_string (merged, chrono_track_get_inst_cat (y, i)));
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/int-column/widths", test_widths);
  g_test_add_func ("/int-column/sentinel", test_sentinel);
  g_test_add_func ("/int-column/negative-and-far", test_negative_and_far);
  g_test_add_func ("/int-column/empty", test_empty);
  g_test_add_func ("/int-column/ids", test_ids);
  g_test_add_func ("/int-column/add", test_add);
  g_test_add_func ("/int-column/random", test_random);
  g_test_add_func ("/int-column/real-traces", test_real_traces);
  g_test_add_func ("/int-column/real-merge", test_real_merge);
  return g_test_run ();
}
