/* test-search.c: span search on real traces, against a count made the
 * slow way, one span name at a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-search.h"
#include "test-traces.h"

/* Every span's name folded and searched on its own. */
static guint
count_slowly (ChronoTrace    *trace,
              const char     *text,
              const gboolean *skip)
{
  g_autofree char *needle = g_utf8_casefold (text, -1);
  guint n = 0;

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      if (skip != NULL && skip[t])
        continue;
      for (guint32 i = 0; i < track->n_spans; i++)
        {
          g_autofree char *name = g_utf8_casefold (chrono_trace_get_string (trace, track->name_id[i]), -1);

          n += strstr (name, needle) != NULL;
        }
    }
  return n;
}

static void
check_order (ChronoSearch *search)
{
  ChronoTrace *trace = chrono_search_get_trace (search);
  const ChronoSpanRef *matches = chrono_search_get_matches (search);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree gint64 *keys = g_new (gint64, MAX (chrono_search_get_n_matches (search), 1));

  for (guint i = 0; i < chrono_search_get_n_matches (search); i++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, matches[i].track);

      g_assert_true (chrono_search_matches_name (search, track->name_id[matches[i].index]));
      keys[i] = ((gint64) matches[i].track << 32) | matches[i].index;
      g_assert_true (g_hash_table_add (seen, &keys[i]));
      if (i > 0)
        {
          const ChronoTrack *prev = chrono_trace_get_track (trace, matches[i - 1].track);
          gint64 a = prev->start[matches[i - 1].index];
          gint64 b = track->start[matches[i].index];

          g_assert_true (a < b || (a == b && matches[i - 1].track <= matches[i].track));
        }
    }
}

static void
test_real (void)
{
  static const char * const texts[] = { "conv", "CONV", "aten::", "cudaLaunchKernel", "Memcpy", "zzz-none", "e" };
  g_autoptr(ChronoTrace) trace = test_traces_load ("param__resnet_kineto.json.gz");

  if (trace == NULL)
    {
      g_test_skip ("no param__resnet_kineto.json.gz (set CHRONO_TRACES_DIR)");
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(ChronoSearch) search = chrono_search_new (trace, texts[i], NULL);

      g_assert_cmpuint (chrono_search_get_n_matches (search), ==, count_slowly (trace, texts[i], NULL));
      check_order (search);
    }

  /* The figures the test relies on: case does not matter, some match. */
  {
    g_autoptr(ChronoSearch) lower = chrono_search_new (trace, "conv", NULL);
    g_autoptr(ChronoSearch) upper = chrono_search_new (trace, "CONV", NULL);

    g_assert_cmpuint (chrono_search_get_n_matches (lower), >, 100);
    g_assert_cmpuint (chrono_search_get_n_matches (lower), ==, chrono_search_get_n_matches (upper));
  }
}

static void
test_skip_and_find (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load ("param__resnet_kineto.json.gz");
  g_autoptr(ChronoSearch) all = NULL;
  g_autoptr(ChronoSearch) some = NULL;
  g_autoptr(ChronoSearch) empty = NULL;
  g_autofree gboolean *skip = NULL;
  const ChronoSpanRef *matches;
  guint n, busiest = 0, most = 0;

  if (trace == NULL)
    {
      g_test_skip ("no param__resnet_kineto.json.gz (set CHRONO_TRACES_DIR)");
      return;
    }

  all = chrono_search_new (trace, "aten", NULL);
  n = chrono_search_get_n_matches (all);
  matches = chrono_search_get_matches (all);
  g_assert_cmpuint (n, >, 0);
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      guint k = 0;

      for (guint i = 0; i < n; i++)
        k += matches[i].track == t;
      if (k > most)
        most = k, busiest = t;
    }

  /* Leaving out the busiest track leaves out exactly its matches. */
  skip = g_new0 (gboolean, chrono_trace_get_n_tracks (trace));
  skip[busiest] = TRUE;
  some = chrono_search_new (trace, "aten", skip);
  g_assert_cmpuint (chrono_search_get_n_matches (some), ==, n - most);
  g_assert_cmpuint (chrono_search_get_n_matches (some), ==, count_slowly (trace, "aten", skip));

  /* find_from: the first match at or after a time. */
  for (guint i = 0; i < n; i += MAX (1, n / 7))
    {
      gint64 t = chrono_trace_get_track (trace, matches[i].track)->start[matches[i].index];
      guint found = chrono_search_find_from (all, t);

      g_assert_cmpuint (found, <=, i);
      g_assert_cmpint (chrono_trace_get_track (trace, matches[found].track)->start[matches[found].index], ==, t);
      if (found > 0)
        g_assert_cmpint (chrono_trace_get_track (trace, matches[found - 1].track)->start[matches[found - 1].index], <, t);
    }
  g_assert_cmpuint (chrono_search_find_from (all, G_MAXINT64), ==, n);
  g_assert_cmpuint (chrono_search_find_from (all, G_MININT64), ==, 0);

  /* Nothing to look for finds nothing. */
  empty = chrono_search_new (trace, "", NULL);
  g_assert_cmpuint (chrono_search_get_n_matches (empty), ==, 0);
  g_assert_false (chrono_search_matches_name (empty, matches[0].index));
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
    {
      g_test_skip ("no param__resnet_kineto.json.gz (set CHRONO_TRACES_DIR)");
      return;
    }

  sync = chrono_search_new (trace, "cuda", NULL);
  chrono_search_new_async (trace, "cuda", NULL, NULL, search_done_cb, &async);
  while (async == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (chrono_search_get_n_matches (async), ==, chrono_search_get_n_matches (sync));
  g_assert_cmpmem (chrono_search_get_matches (async), chrono_search_get_n_matches (async) * sizeof (ChronoSpanRef),
                   chrono_search_get_matches (sync), chrono_search_get_n_matches (sync) * sizeof (ChronoSpanRef));
  g_object_unref (async);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/search/real", test_real);
  g_test_add_func ("/search/skip-and-find", test_skip_and_find);
  g_test_add_func ("/search/async", test_async);
  return g_test_run ();
}
