/* test-area-stats.c: an area's aggregates on real traces, against the
 * same numbers worked out from the file's events as json-glib reads them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-area-stats.h"
#include "test-utils.h"

#define DLRM "param__dlrm_8rank__worker0_step_12.1694128201545.pt.trace.json"
#define COUNTERS "catapult__x_event_trace.json"
#define DLRM_PID 59811

typedef struct {
  gint64 ts, end, tid;
  const char *name;
  const char *cat;
  gint64 children;   /* cut time of the events nested directly inside */
  gdouble value;     /* a counter sample's */
} Event;

typedef struct {
  guint64 count;
  gint64  wall, self, min, max;
  GArray *walls;     /* gint64 */
} Expected;

static void
expected_free (Expected *e)
{
  g_array_unref (e->walls);
  g_free (e);
}

static GArray *
read_events (JsonNode    *root,
             const char  *ph,
             gint64       pid)
{
  JsonArray *events = JSON_NODE_HOLDS_ARRAY (root) ? json_node_get_array (root)
                      : json_object_get_array_member (json_node_get_object (root), "traceEvents");
  GArray *out = g_array_new (FALSE, TRUE, sizeof (Event));

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *o = json_array_get_object_element (events, i);
      Event e = { 0 };

      if (g_strcmp0 (json_object_get_string_member_with_default (o, "ph", ""), ph) != 0 ||
          json_object_get_int_member_with_default (o, "pid", -1) != pid)
        continue;
      /* Whole microseconds in these files: exact as doubles. */
      e.ts = (gint64) json_object_get_double_member (o, "ts") * 1000;
      e.end = e.ts + (gint64) json_object_get_double_member_with_default (o, "dur", 0) * 1000;
      e.tid = json_object_get_int_member_with_default (o, "tid", 0);
      e.name = json_object_get_string_member (o, "name");
      e.cat = json_object_get_string_member_with_default (o, "cat", "");
      if (g_str_equal (ph, "C"))
        e.value = json_object_get_double_member (json_object_get_object_member (o, "args"), "value");
      g_array_append_val (out, e);
    }
  return out;
}

/* The same for NAME in $CHRONO_TRACES_DIR; ROOT keeps their strings. */
static GArray *
read_file_events (const char  *name,
                  const char  *ph,
                  gint64       pid,
                  JsonNode   **root)
{
  g_autofree char *path = g_build_filename (g_getenv ("CHRONO_TRACES_DIR"), name, NULL);

  *root = test_parse_json_file (path);
  return read_events (*root, ph, pid);
}

static gint
by_thread_then_nesting (gconstpointer a,
                        gconstpointer b)
{
  const Event *x = a, *y = b;

  if (x->tid != y->tid)
    return x->tid < y->tid ? -1 : 1;
  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->end > y->end ? -1 : x->end < y->end;
}

static gint64
cut (gint64 ts,
     gint64 end,
     gint64 s,
     gint64 e)
{
  return MAX (MIN (end, e) - MAX (ts, s), 0);
}

/* Each event's parent is the innermost open event that holds it whole. */
static void
nest (GArray *events,
      gint64  s,
      gint64  e)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint));

  g_array_sort (events, by_thread_then_nesting);
  for (guint i = 0; i < events->len; i++)
    {
      Event *ev = &g_array_index (events, Event, i);

      while (stack->len > 0)
        {
          Event *top = &g_array_index (events, Event, g_array_index (stack, guint, stack->len - 1));

          if (top->tid == ev->tid && top->ts <= ev->ts && ev->end <= top->end)
            break;
          g_array_set_size (stack, stack->len - 1);
        }
      if (stack->len > 0)
        g_array_index (events, Event, g_array_index (stack, guint, stack->len - 1)).children +=
          cut (ev->ts, ev->end, s, e);
      g_array_append_val (stack, i);
    }
}

static gint
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static gint64
nearest_rank (GArray *sorted,
              guint   percent)
{
  guint64 rank = ((guint64) percent * sorted->len + 99) / 100;

  return g_array_index (sorted, gint64, MAX (rank, 1) - 1);
}

/* The events in [S, E) grouped by name (or category), worked out alone. */
static GHashTable *
expect (GArray  *events,
        gint64   s,
        gint64   e,
        gboolean by_cat)
{
  GHashTable *out = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) expected_free);

  for (guint i = 0; i < events->len; i++)
    {
      const Event *ev = &g_array_index (events, Event, i);
      const char *key = by_cat ? ev->cat : ev->name;
      gint64 wall = cut (ev->ts, ev->end, s, e);
      Expected *x;

      if (ev->ts >= e || (ev->end <= s && !(ev->end == ev->ts && ev->ts == s)))
        continue;
      if ((x = g_hash_table_lookup (out, key)) == NULL)
        {
          x = g_new0 (Expected, 1);
          x->walls = g_array_new (FALSE, FALSE, sizeof (gint64));
          x->min = G_MAXINT64;
          g_hash_table_insert (out, (gpointer) key, x);
        }
      x->count++;
      x->wall += wall;
      x->self += MAX (wall - ev->children, 0);
      x->min = MIN (x->min, wall);
      x->max = MAX (x->max, wall);
      g_array_append_val (x->walls, wall);
    }
  return out;
}

/* The host threads of the DLRM rank: every track of its process with spans. */
static GArray *
host_tracks (ChronoTrace *trace)
{
  GArray *tracks = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      if (chrono_trace_get_process (trace, track->process)->pid.value == DLRM_PID &&
          track->type == CHRONO_TRACK_THREAD && track->n_spans > 0)
        g_array_append_val (tracks, t);
    }
  return tracks;
}

static void
check_rows (ChronoAreaStats *stats,
            GHashTable      *expected)
{
  gint64 total = 0;

  g_assert_cmpuint (chrono_area_stats_get_n_rows (stats), ==, g_hash_table_size (expected));
  for (guint r = 0; r < chrono_area_stats_get_n_rows (stats); r++)
    {
      const ChronoAreaRow *row = chrono_area_stats_get_row (stats, r);
      Expected *x = g_hash_table_lookup (expected, row->label);
      guint n_spans;

      g_assert_nonnull (x);
      g_array_sort (x->walls, compare_int64);
      g_assert_cmpuint (row->count, ==, x->count);
      g_assert_cmpint (row->wall_ns, ==, x->wall);
      g_assert_cmpint (row->self_ns, ==, x->self);
      g_assert_cmpint (row->min_ns, ==, x->min);
      g_assert_cmpint (row->max_ns, ==, x->max);
      g_assert_cmpint (row->p50_ns, ==, nearest_rank (x->walls, 50));
      g_assert_cmpint (row->p95_ns, ==, nearest_rank (x->walls, 95));
      g_assert_cmpfloat_with_epsilon (row->mean_ns, (gdouble) x->wall / x->count, 1e-6);
      g_assert_cmpint (row->track, ==, -1);
      chrono_area_stats_get_row_spans (stats, r, &n_spans);
      g_assert_cmpuint (n_spans, ==, x->count);
      if (r > 0)
        g_assert_cmpint (chrono_area_stats_get_row (stats, r - 1)->wall_ns, >=, row->wall_ns);
      total += row->wall_ns;
    }
  g_assert_cmpint (chrono_area_stats_get_wall_ns (stats), ==, total);
}

/* The middle third of the rank's host time, over both its threads. */
static void
test_spans (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (DLRM);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GArray) events = NULL;
  g_autoptr(GArray) tracks = NULL;
  g_autoptr(GHashTable) by_name = NULL;
  g_autoptr(GHashTable) by_cat = NULL;
  g_autoptr(ChronoAreaStats) stats = NULL;
  g_autoptr(ChronoAreaStats) cats = NULL;
  g_autoptr(ChronoAreaStats) per_track = NULL;
  g_autoptr(ChronoAreaStats) kinds = NULL;
  g_autoptr(GError) error = NULL;
  gint64 first = G_MAXINT64, last = G_MININT64, s, e;
  gdouble shares = 0;

  if (trace == NULL)
    return;
  events = read_file_events (DLRM, "X", DLRM_PID, &root);
  for (guint i = 0; i < events->len; i++)
    {
      first = MIN (first, g_array_index (events, Event, i).ts);
      last = MAX (last, g_array_index (events, Event, i).end);
    }
  s = first + (last - first) / 3;
  e = first + 2 * (last - first) / 3;
  nest (events, s, e);
  by_name = expect (events, s, e, FALSE);
  by_cat = expect (events, s, e, TRUE);
  tracks = host_tracks (trace);
  g_assert_cmpuint (tracks->len, ==, 2);

  stats = chrono_area_stats_new (trace, (guint *) tracks->data, tracks->len, s, e, CHRONO_AREA_BY_NAME, FALSE,
                                 NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_area_stats_get_n_rows (stats), >, 20);
  check_rows (stats, by_name);
  for (guint r = 0; r < chrono_area_stats_get_n_rows (stats); r++)
    shares += chrono_area_stats_get_row (stats, r)->share;
  g_assert_cmpfloat_with_epsilon (shares, 1.0, 1e-9);

  cats = chrono_area_stats_new (trace, (guint *) tracks->data, tracks->len, s, e, CHRONO_AREA_BY_CATEGORY, FALSE,
                                NULL, &error);
  g_assert_no_error (error);
  check_rows (cats, by_cat);

  /* Kinds and tracks split the same spans otherwise. */
  kinds = chrono_area_stats_new (trace, (guint *) tracks->data, tracks->len, s, e, CHRONO_AREA_BY_KIND, FALSE,
                                 NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_area_stats_get_n_spans (kinds), ==, chrono_area_stats_get_n_spans (stats));
  g_assert_cmpint (chrono_area_stats_get_wall_ns (kinds), ==, chrono_area_stats_get_wall_ns (stats));
  per_track = chrono_area_stats_new (trace, (guint *) tracks->data, tracks->len, s, e, CHRONO_AREA_BY_NAME, TRUE,
                                     NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_area_stats_get_n_rows (per_track), >, chrono_area_stats_get_n_rows (stats));
  for (guint r = 0; r < chrono_area_stats_get_n_rows (stats); r++)
    {
      const ChronoAreaRow *row = chrono_area_stats_get_row (stats, r);
      guint64 count = 0;
      gint64 wall = 0;

      for (guint p = 0; p < chrono_area_stats_get_n_rows (per_track); p++)
        {
          const ChronoAreaRow *part = chrono_area_stats_get_row (per_track, p);

          g_assert_cmpint (part->track, >=, 0);
          if (g_str_equal (part->label, row->label))
            count += part->count, wall += part->wall_ns;
        }
      g_assert_cmpuint (count, ==, row->count);
      g_assert_cmpint (wall, ==, row->wall_ns);
    }
}

/* The counter's samples in force over an area, worked out alone. */
static void
test_counters (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (COUNTERS);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GArray) samples = NULL;
  g_autoptr(ChronoAreaStats) stats = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (guint));
  gint64 s = 172188100000000, e = 172188900000000, held = 0;
  gdouble min = G_MAXDOUBLE, max = -G_MAXDOUBLE, sum = 0, weighted = 0;
  guint64 count = 0;
  const ChronoAreaCounter *counter;

  if (trace == NULL)
    return;
  samples = read_file_events (COUNTERS, "C", 14689, &root);
  g_assert_cmpuint (samples->len, ==, 42);
  for (guint i = 0; i < samples->len; i++)
    {
      const Event *x = &g_array_index (samples, Event, i);
      gint64 next = i + 1 < samples->len ? g_array_index (samples, Event, i + 1).ts : G_MAXINT64;
      gdouble v = x->value;

      if (x->ts >= e || next <= s)
        continue;
      count++;
      min = MIN (min, v);
      max = MAX (max, v);
      sum += v;
      weighted += v * (gdouble) cut (x->ts, next, s, e);
      held += cut (x->ts, next, s, e);
    }
  g_assert_cmpuint (count, >, 10);
  g_assert_cmpfloat (min, <, max);

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    g_array_append_val (tracks, t);
  stats = chrono_area_stats_new (trace, (guint *) tracks->data, tracks->len, s, e, CHRONO_AREA_BY_NAME, FALSE,
                                 NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_area_stats_get_n_counters (stats), ==, 1);
  counter = chrono_area_stats_get_counter (stats, 0);
  g_assert_cmpuint (counter->count, ==, count);
  g_assert_cmpfloat (counter->min, ==, min);
  g_assert_cmpfloat (counter->max, ==, max);
  g_assert_cmpfloat_with_epsilon (counter->mean, sum / count, 1e-6);
  g_assert_cmpfloat_with_epsilon (counter->weighted_mean, weighted / held, 1e-6);
  g_assert_cmpfloat (counter->weighted_mean, !=, counter->mean);
}

static void
test_cancelled (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (DLRM);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) tracks = NULL;
  ChronoAreaStats *stats;

  if (trace == NULL)
    return;
  tracks = host_tracks (trace);
  g_cancellable_cancel (cancellable);
  stats = chrono_area_stats_new (trace, (guint *) tracks->data, tracks->len, chrono_trace_get_start_ns (trace),
                                 chrono_trace_get_end_ns (trace), CHRONO_AREA_BY_NAME, FALSE, cancellable, &error);
  g_assert_null (stats);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/area-stats/spans", test_spans);
  g_test_add_func ("/area-stats/counters", test_counters);
  g_test_add_func ("/area-stats/cancelled", test_cancelled);
  return g_test_run ();
}
