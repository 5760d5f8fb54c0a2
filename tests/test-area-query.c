/* test-area-query.c: the area table's numbers and the query engine's for
 * the same area, which must be equal: spans by name, category and kind,
 * per track too, and counters, on real traces; and a row's spans, by
 * their ids, the engine's spans of that area and label
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-area-stats.h"
#include "chrono-query.h"
#include "test-utils.h"

#define DLRM "param__dlrm_8rank__worker0_step_12.1694128201545.pt.trace.json"
#define COUNTERS "catapult__x_event_trace.json"

/* The area as SQL: the spans of TRACKS over [S, E), each with its wall
 * time cut to the area and its self time (less the cut time of the spans
 * whose parent it is); p50 and p95 by nearest rank. GROUP is the column
 * the rows go by. */
static const char span_sql[] =
  "WITH area AS ("
  "  SELECT id, track_id, name, category, kind, MIN(ts_end, %2$s) - MAX(ts, %1$s) AS wall FROM spans"
  "  WHERE track_id IN (%3$s) AND ts < %2$s AND (ts_end > %1$s OR (dur = 0 AND ts >= %1$s))),"
  " kids AS ("
  "  SELECT parent_id AS id, SUM(MIN(ts_end, %2$s) - MAX(ts, %1$s)) AS kid FROM spans"
  "  WHERE track_id IN (%3$s) AND parent_id IS NOT NULL AND ts < %2$s AND ts_end > %1$s GROUP BY parent_id),"
  " ranked AS ("
  "  SELECT %4$s AS label, %5$s AS per_track, wall, MAX(wall - COALESCE(kid, 0), 0) AS self,"
  "    ROW_NUMBER() OVER (PARTITION BY %4$s, %5$s ORDER BY wall) AS rn,"
  "    COUNT(*) OVER (PARTITION BY %4$s, %5$s) AS n"
  "  FROM area LEFT JOIN kids USING (id))"
  "SELECT label, per_track, COUNT(*), SUM(wall), SUM(self), MIN(wall), MAX(wall),"
  "  MAX(CASE WHEN rn = (n + 1) / 2 THEN wall END), MAX(CASE WHEN rn = (95 * n + 99) / 100 THEN wall END),"
  "  AVG(wall), SUM(wall) * 1.0 / (SELECT SUM(wall) FROM area)"
  " FROM ranked GROUP BY label, per_track";

/* A counter's samples in force over [S, E): each holds until the next. */
static const char counter_sql[] =
  "WITH c AS (SELECT track_id, ts, value, LEAD(ts) OVER (PARTITION BY track_id ORDER BY ts) AS next"
  "           FROM counters WHERE track_id IN (%3$s)),"
  " held AS (SELECT track_id, value, MIN(COALESCE(next, %2$s), %2$s) - MAX(ts, %1$s) AS hold FROM c"
  "          WHERE ts < %2$s AND (next IS NULL OR next > %1$s))"
  "SELECT track_id, COUNT(*), MIN(value), MAX(value), AVG(value), SUM(value * hold) / SUM(hold)"
  " FROM held GROUP BY track_id";

static char *
track_list (const guint *tracks,
            guint        n)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%u", i > 0 ? "," : "", tracks[i]);
  return g_string_free (s, FALSE);
}

static ChronoQueryResult *
run (ChronoQuery *query,
     const char  *format,
     gint64       s,
     gint64       e,
     const char  *tracks,
     const char  *group,
     const char  *per_track)
{
  g_autofree char *start = g_strdup_printf ("%" G_GINT64_FORMAT, s);
  g_autofree char *end = g_strdup_printf ("%" G_GINT64_FORMAT, e);
  g_autofree char *sql = g_strdup_printf (format, start, end, tracks, group, per_track);
  g_autoptr(GError) error = NULL;
  ChronoQueryResult *result = chrono_query_run (query, sql, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_false (chrono_query_result_is_truncated (result));
  return result;
}

static const ChronoAreaRow *
find_row (ChronoAreaStats *stats,
          const char      *label,
          gint             track)
{
  for (guint r = 0; r < chrono_area_stats_get_n_rows (stats); r++)
    {
      const ChronoAreaRow *row = chrono_area_stats_get_row (stats, r);

      if (g_str_equal (row->label, label) && row->track == track)
        return row;
    }
  return NULL;
}

/* The spans of the table's first row, by their public ids, are those the
 * engine gives for the same area and label: the same ids, in order. */
static void
check_ids (ChronoQuery     *query,
           ChronoAreaStats *stats,
           const char      *list,
           gint64           s,
           gint64           e,
           const char      *column)
{
  const ChronoAreaRow *row = chrono_area_stats_get_row (stats, 0);
  g_auto(GStrv) parts = g_strsplit (row->label, "'", -1);
  g_autofree char *quoted = g_strjoinv ("''", parts);
  g_autofree char *sql = g_strdup_printf ("SELECT id FROM spans WHERE track_id IN (%s) AND ts < %" G_GINT64_FORMAT
                                          " AND (ts_end > %" G_GINT64_FORMAT " OR (dur = 0 AND ts >= %"
                                          G_GINT64_FORMAT ")) AND %s = '%s' ORDER BY id",
                                          list, e, s, s, column, quoted);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoQueryResult) result = chrono_query_run (query, sql, NULL, NULL, &error);
  const ChronoSpanRef *spans;
  guint n;

  g_assert_no_error (error);
  spans = chrono_area_stats_get_row_spans (stats, 0, &n);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (chrono_query_result_get_n_rows (result), ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpint (chrono_query_get_span_id (query, 0, spans[i]), ==, chrono_query_result_get_int (result, i, 0));
}

/* Every row of the engine's is one of the table's, with the same numbers,
 * and there are as many. */
static void
check_agree (ChronoQuery        *query,
             ChronoTrace        *trace,
             const guint        *tracks,
             guint               n_tracks,
             gint64              s,
             gint64              e,
             ChronoAreaGrouping  grouping,
             gboolean            per_track)
{
  static const char *const columns[] = { "name", "category", "kind" };
  g_autofree char *list = track_list (tracks, n_tracks);
  g_autoptr(ChronoQueryResult) result = run (query, span_sql, s, e, list, columns[grouping],
                                             per_track ? "track_id" : "-1");
  g_autoptr(ChronoAreaStats) stats = chrono_area_stats_new (trace, tracks, n_tracks, s, e, grouping, per_track,
                                                            NULL, NULL);

  g_assert_cmpuint (chrono_query_result_get_n_rows (result), >, 3);
  g_assert_cmpuint (chrono_query_result_get_n_rows (result), ==, chrono_area_stats_get_n_rows (stats));
  for (guint r = 0; r < chrono_query_result_get_n_rows (result); r++)
    {
      const char *label = chrono_query_result_get_text (result, r, 0);
      const ChronoAreaRow *row = find_row (stats, label != NULL ? label : "",
                                           (gint) chrono_query_result_get_int (result, r, 1));

      g_assert_nonnull (row);
      g_assert_cmpint (row->count, ==, chrono_query_result_get_int (result, r, 2));
      g_assert_cmpint (row->wall_ns, ==, chrono_query_result_get_int (result, r, 3));
      g_assert_cmpint (row->self_ns, ==, chrono_query_result_get_int (result, r, 4));
      g_assert_cmpint (row->min_ns, ==, chrono_query_result_get_int (result, r, 5));
      g_assert_cmpint (row->max_ns, ==, chrono_query_result_get_int (result, r, 6));
      g_assert_cmpint (row->p50_ns, ==, chrono_query_result_get_int (result, r, 7));
      g_assert_cmpint (row->p95_ns, ==, chrono_query_result_get_int (result, r, 8));
      g_assert_cmpfloat_with_epsilon (row->mean_ns, chrono_query_result_get_real (result, r, 9), 1e-6);
      g_assert_cmpfloat_with_epsilon (row->share, chrono_query_result_get_real (result, r, 10), 1e-12);
    }
  if (grouping != CHRONO_AREA_BY_KIND && !per_track)
    check_ids (query, stats, list, s, e, columns[grouping]);
}

/* The middle third of the rank, over every track with spans: its host
 * threads and its GPU streams. */
static void
test_spans (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (DLRM);
  g_autoptr(ChronoQuery) query = NULL;
  g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GError) error = NULL;
  gint64 start, end, s, e;

  if (trace == NULL)
    return;
  query = chrono_query_new (&trace, 1, NULL, &error);
  g_assert_no_error (error);
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    if (chrono_trace_get_track (trace, t)->n_spans > 0)
      g_array_append_val (tracks, t);
  g_assert_cmpuint (tracks->len, >=, 4);
  start = chrono_trace_get_start_ns (trace);
  end = chrono_trace_get_end_ns (trace);
  s = start + (end - start) / 3;
  e = start + 2 * (end - start) / 3;

  for (ChronoAreaGrouping g = CHRONO_AREA_BY_NAME; g <= CHRONO_AREA_BY_KIND; g++)
    {
      check_agree (query, trace, (guint *) tracks->data, tracks->len, s, e, g, FALSE);
      check_agree (query, trace, (guint *) tracks->data, tracks->len, s, e, g, TRUE);
    }
  /* A short area that cuts spans at both ends, on the busiest track. */
  for (guint i = 1; i < tracks->len; i++)
    if (chrono_trace_get_track (trace, g_array_index (tracks, guint, i))->n_spans >
        chrono_trace_get_track (trace, g_array_index (tracks, guint, 0))->n_spans)
      g_array_index (tracks, guint, 0) = g_array_index (tracks, guint, i);
  check_agree (query, trace, (guint *) tracks->data, 1, start + (end - start) / 2,
               start + (end - start) / 2 + (end - start) / 50, CHRONO_AREA_BY_NAME, FALSE);
}

static void
test_counters (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (COUNTERS);
  g_autoptr(ChronoQuery) query = NULL;
  g_autoptr(ChronoQueryResult) result = NULL;
  g_autoptr(ChronoAreaStats) stats = NULL;
  g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GError) error = NULL;
  g_autofree char *list = NULL;
  gint64 start, end, s, e;

  if (trace == NULL)
    return;
  query = chrono_query_new (&trace, 1, NULL, &error);
  g_assert_no_error (error);
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    g_array_append_val (tracks, t);
  start = chrono_trace_get_start_ns (trace);
  end = chrono_trace_get_end_ns (trace);
  /* Where the counter has samples, not the whole trace. */
  s = 172188100000000;
  e = 172188900000000;
  g_assert_cmpint (s, >, start);
  g_assert_cmpint (e, <, end);
  list = track_list ((guint *) tracks->data, tracks->len);
  result = run (query, counter_sql, s, e, list, NULL, NULL);
  stats = chrono_area_stats_new (trace, (guint *) tracks->data, tracks->len, s, e, CHRONO_AREA_BY_NAME, FALSE,
                                 NULL, NULL);
  g_assert_cmpuint (chrono_query_result_get_n_rows (result), ==, 1);
  g_assert_cmpuint (chrono_area_stats_get_n_counters (stats), ==, 1);
  {
    const ChronoAreaCounter *c = chrono_area_stats_get_counter (stats, 0);

    g_assert_cmpint (c->track, ==, chrono_query_result_get_int (result, 0, 0));
    g_assert_cmpint (c->count, ==, chrono_query_result_get_int (result, 0, 1));
    g_assert_cmpfloat (c->min, ==, chrono_query_result_get_real (result, 0, 2));
    g_assert_cmpfloat (c->max, ==, chrono_query_result_get_real (result, 0, 3));
    g_assert_cmpfloat_with_epsilon (c->mean, chrono_query_result_get_real (result, 0, 4), 1e-6);
    g_assert_cmpfloat_with_epsilon (c->weighted_mean, chrono_query_result_get_real (result, 0, 5), 1e-6);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/area-query/spans", test_spans);
  g_test_add_func ("/area-query/counters", test_counters);
  return g_test_run ();
}
