/* test-search.c: span search on real traces, against a count made the
 * slow way, one span name at a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-search.h"
#include "test-utils.h"

typedef struct {
  gint64        start;
  ChronoSpanRef ref;
} Keyed;

static int
compare_keyed (gconstpointer a,
               gconstpointer b)
{
  const Keyed *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->ref.track != y->ref.track)
    return x->ref.track < y->ref.track ? -1 : 1;
  return x->ref.index < y->ref.index ? -1 : x->ref.index > y->ref.index;
}

/* The matches the slow way, sorted by start, track and index. */
static GArray *
sort_slowly (ChronoTrace *trace,
             const char  *text)
{
  g_autofree char *needle = g_utf8_casefold (text, -1);
  GArray *all = g_array_new (FALSE, FALSE, sizeof (Keyed));

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      for (guint32 i = 0; i < track->n_spans; i++)
        {
          g_autofree char *name = g_utf8_casefold (chrono_trace_get_string (trace, chrono_track_get_name (track, i)), -1);
          Keyed k = { track->start[i], { t, i } };

          if (strstr (name, needle) != NULL)
            g_array_append_val (all, k);
        }
    }
  g_array_sort (all, compare_keyed);
  return all;
}

/* Stepping forward visits the sorted matches one by one, backward the
 * same in reverse, and each one's rank is its place. */
static void
check_order (ChronoSearch *search,
             GArray       *sorted)
{
  ChronoSpanRef match, *from = NULL;
  guint n = 0;

  while (chrono_search_step (search, from, 1, &match))
    {
      const Keyed *k = &g_array_index (sorted, Keyed, n);

      g_assert_cmpuint (n, <, sorted->len);
      g_assert_cmpuint (match.track, ==, k->ref.track);
      g_assert_cmpuint (match.index, ==, k->ref.index);
      if (n % 97 == 0 || n + 1 == sorted->len)
        g_assert_cmpuint (chrono_search_get_rank (search, match), ==, n);
      n++;
      from = &match;
    }
  g_assert_cmpuint (n, ==, sorted->len);

  from = NULL;
  while (chrono_search_step (search, from, -1, &match))
    {
      const Keyed *k = &g_array_index (sorted, Keyed, --n);

      g_assert_cmpuint (match.track, ==, k->ref.track);
      g_assert_cmpuint (match.index, ==, k->ref.index);
      from = &match;
    }
  g_assert_cmpuint (n, ==, 0);
}

static void
test_real (void)
{
  static const char * const texts[] = { "conv", "CONV", "aten::", "cudaLaunchKernel", "Memcpy", "zzz-none", "e" };
  g_autoptr(ChronoTrace) trace = test_traces_load ("param__resnet_kineto.json.gz");

  if (trace == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(ChronoSearch) search = chrono_search_new (trace, texts[i], NULL);
      g_autoptr(GArray) sorted = sort_slowly (trace, texts[i]);

      g_assert_cmpuint (chrono_search_get_n_matches (search), ==, test_count_name_matches (trace, texts[i], NULL));
      g_assert_cmpuint (chrono_search_get_n_matches (search), ==, sorted->len);
      check_order (search, sorted);
    }

  /* The figures the test relies on: case does not matter, some match. */
  {
    g_autoptr(ChronoSearch) lower = chrono_search_new (trace, "conv", NULL);
    g_autoptr(ChronoSearch) upper = chrono_search_new (trace, "CONV", NULL);

    g_assert_cmpuint (chrono_search_get_n_matches (lower), >, 100);
    g_assert_cmpuint (chrono_search_get_n_matches (lower), ==, chrono_search_get_n_matches (upper));
  }
}

/* Exactly the spans of one name, as a comparison's diff table marks an
 * operator's calls: against the spans of that name, found one by one. */
static gboolean
is_name_cb (const char *name,
            gpointer    user_data)
{
  return strcmp (name, user_data) == 0;
}

static void
test_names (void)
{
  static const char * const names[] = { "aten::empty", "cudaLaunchKernel", "no such name" };
  g_autoptr(ChronoTrace) trace = test_traces_load ("param__resnet_kineto.json.gz");

  if (trace == NULL)
    return;
  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      g_autoptr(ChronoSearch) search = chrono_search_new_for_names (trace, names[n], is_name_cb, (gpointer) names[n],
                                                                    NULL);
      g_autoptr(GArray) sorted = g_array_new (FALSE, FALSE, sizeof (Keyed));

      for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
        {
          const ChronoTrack *track = chrono_trace_get_track (trace, t);

          for (guint32 i = 0; i < track->n_spans; i++)
            if (strcmp (chrono_trace_get_string (trace, chrono_track_get_name (track, i)), names[n]) == 0)
              {
                Keyed k = { track->start[i], { t, i } };

                g_array_append_val (sorted, k);
              }
        }
      g_array_sort (sorted, compare_keyed);
      g_assert_cmpstr (chrono_search_get_text (search), ==, names[n]);
      g_assert_cmpuint (chrono_search_get_n_matches (search), ==, sorted->len);
      /* "aten::empty" is not every name that contains it. */
      if (n == 0)
        g_assert_cmpuint (sorted->len, <, test_count_name_matches (trace, names[n], NULL));
      if (n < 2)
        g_assert_cmpuint (sorted->len, >, 10);
      check_order (search, sorted);
    }
}

static void
test_skip_and_find (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load ("param__resnet_kineto.json.gz");
  g_autoptr(ChronoSearch) all = NULL;
  g_autoptr(ChronoSearch) some = NULL;
  g_autoptr(ChronoSearch) empty = NULL;
  g_autoptr(GArray) sorted = NULL;
  g_autofree gboolean *skip = NULL;
  ChronoSpanRef match;
  guint n, busiest = 0, most = 0, n_track;

  if (trace == NULL)
    return;

  all = chrono_search_new (trace, "aten", NULL);
  n = chrono_search_get_n_matches (all);
  g_assert_cmpuint (n, >, 0);
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      chrono_search_get_track_matches (all, t, &n_track);
      if (n_track > most)
        most = n_track, busiest = t;
    }

  /* Leaving out the busiest track leaves out exactly its matches. */
  skip = g_new0 (gboolean, chrono_trace_get_n_tracks (trace));
  skip[busiest] = TRUE;
  some = chrono_search_new (trace, "aten", skip);
  g_assert_cmpuint (chrono_search_get_n_matches (some), ==, n - most);
  g_assert_cmpuint (chrono_search_get_n_matches (some), ==, test_count_name_matches (trace, "aten", skip));
  chrono_search_get_track_matches (some, busiest, &n_track);
  g_assert_cmpuint (n_track, ==, 0);

  /* find_from: the first match at or after a time. */
  sorted = sort_slowly (trace, "aten");
  for (guint i = 0; i < n; i += MAX (1, n / 7))
    {
      gint64 t = g_array_index (sorted, Keyed, i).start;
      guint first = i;

      while (first > 0 && g_array_index (sorted, Keyed, first - 1).start == t)
        first--;
      g_assert_true (chrono_search_find_from (all, t, &match));
      g_assert_cmpuint (match.track, ==, g_array_index (sorted, Keyed, first).ref.track);
      g_assert_cmpuint (match.index, ==, g_array_index (sorted, Keyed, first).ref.index);
    }
  g_assert_false (chrono_search_find_from (all, G_MAXINT64, &match));
  g_assert_true (chrono_search_find_from (all, G_MININT64, &match));
  g_assert_cmpuint (chrono_search_get_rank (all, match), ==, 0);

  /* Nothing to look for finds nothing. */
  empty = chrono_search_new (trace, "", NULL);
  g_assert_cmpuint (chrono_search_get_n_matches (empty), ==, 0);
  g_assert_false (chrono_search_step (empty, NULL, 1, &match));
  g_assert_false (chrono_search_matches_name (empty, chrono_track_get_name (chrono_trace_get_track (trace, busiest), 0)));
}

static void
search_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  ChronoSearch **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = chrono_search_new_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_async (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load ("param__resnet_kineto.json.gz");
  g_autoptr(ChronoSearch) sync = NULL;
  ChronoSearch *async = NULL;

  if (trace == NULL)
    return;

  sync = chrono_search_new (trace, "cuda", NULL);
  chrono_search_new_async (trace, "cuda", NULL, NULL, search_done_cb, &async);
  while (async == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (chrono_search_get_n_matches (async), ==, chrono_search_get_n_matches (sync));
  g_assert_cmpuint (chrono_search_get_n_matches (async), >, 0);
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      guint n_async, n_sync;
      const guint32 *a = chrono_search_get_track_matches (async, t, &n_async);
      const guint32 *s = chrono_search_get_track_matches (sync, t, &n_sync);

      g_assert_cmpmem (a, n_async * sizeof (guint32), s, n_sync * sizeof (guint32));
    }
  g_object_unref (async);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/search/real", test_real);
  g_test_add_func ("/search/names", test_names);
  g_test_add_func ("/search/skip-and-find", test_skip_and_find);
  g_test_add_func ("/search/async", test_async);
  return g_test_run ();
}
