/* test-sort.c: sorting records by a 64-bit time gives what a stable
 * comparison sort gives
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib.h>

#include "chrono-sort.h"

/* A record as the analysis sorts them: the key inside, not first. */
typedef struct {
  guint32 tag;       /* its place before sorting, to see stability */
  guint32 pad;
  gint64  start;
  gint64  end;
} Record;

typedef gint64 (*KeyFunc) (GRand *rand, guint i, guint n);

static gint64 few_keys (GRand *rand, guint i, guint n)      { return g_rand_int_range (rand, 0, 7); }
static gint64 ns_in_a_run (GRand *rand, guint i, guint n)   { return G_GINT64_CONSTANT (1700000000000000000) + g_rand_int_range (rand, 0, 60000000); }
static gint64 negative (GRand *rand, guint i, guint n)      { return (gint64) g_rand_int_range (rand, -100000, 100000) * 1000003; }
static gint64 nearly_sorted (GRand *rand, guint i, guint n) { return (gint64) i * 10 + g_rand_int_range (rand, -25, 25); }
static gint64 descending (GRand *rand, guint i, guint n)    { return (gint64) (n - i) * 3; }
static gint64 ascending (GRand *rand, guint i, guint n)     { return (gint64) i / 3; }

static gint64
extremes (GRand *rand,
          guint  i,
          guint  n)
{
  static const gint64 values[] = { G_MININT64, G_MININT64 + 1, -1, 0, 1, G_MAXINT64 - 1, G_MAXINT64 };
  guint64 wide = (guint64) g_rand_int (rand) << 32 | g_rand_int (rand);

  return i % 3 == 0 ? values[g_rand_int_range (rand, 0, G_N_ELEMENTS (values))] : (gint64) wide;
}

/* A record as the sorts compare it: its gint64 key KEY_AT bytes in. */
static gint
compare_keys (gconstpointer a,
              gconstpointer b,
              gpointer      key_at)
{
  gint64 x = G_STRUCT_MEMBER (gint64, a, GPOINTER_TO_SIZE (key_at));
  gint64 y = G_STRUCT_MEMBER (gint64, b, GPOINTER_TO_SIZE (key_at));

  return (x > y) - (x < y);
}

/* OURS, N records of SIZE bytes, sorted by both sorts: the same bytes,
 * what each record carries beside its key (its place before) included. */
static void
sort_both (gpointer ours,
           guint    n,
           gsize    size,
           gsize    key_at)
{
  g_autofree gpointer theirs = g_memdup2 (ours, MAX (n, 1) * size);

  g_qsort_with_data (theirs, n, size, compare_keys, GSIZE_TO_POINTER (key_at));
  chrono_sort_by_int64 (ours, n, size, key_at);
  g_assert_cmpmem (ours, n * size, theirs, n * size);
}

/* A record no larger than the sort's own (key, index) pairs, which it
 * sorts without them. */
typedef struct {
  gint64  start;
  guint32 tag;
  guint32 pad;
} Small;

static void
check (KeyFunc key,
       guint   n,
       guint32 seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autofree Record *records = g_new0 (Record, MAX (n, 1));
  g_autofree Small *small = g_new0 (Small, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      records[i] = (Record) { i, 0, key (rand, i, n), g_rand_int (rand) };
      small[i] = (Small) { records[i].start, i, 0 };
    }
  sort_both (records, n, sizeof *records, G_STRUCT_OFFSET (Record, start));
  sort_both (small, n, sizeof *small, G_STRUCT_OFFSET (Small, start));
}

static void
test_like_a_stable_sort (void)
{
  static const KeyFunc keys[] = { few_keys, ns_in_a_run, negative, nearly_sorted, descending, ascending, extremes };
  static const guint sizes[] = { 0, 1, 2, 3, 17, 1000, 70001 };

  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      check (keys[k], sizes[s], 17 * k + s);
}

/* Plain gint64 values, and a GArray. */
static void
test_values_and_arrays (void)
{
  gint64 values[] = { 5, -3, 9, 0, -3, G_MAXINT64, G_MININT64, 7 };
  const gint64 expected[] = { G_MININT64, -3, -3, 0, 5, 7, 9, G_MAXINT64 };
  g_autoptr(GArray) array = g_array_new (FALSE, FALSE, sizeof (Record));

  chrono_sort_by_int64 (values, G_N_ELEMENTS (values), sizeof (gint64), 0);
  g_assert_cmpmem (values, sizeof values, expected, sizeof expected);

  for (guint i = 0; i < 5; i++)
    g_array_append_val (array, ((Record) { i, 0, 10 - (gint64) i % 2, 0 }));
  chrono_array_sort_by_int64 (array, G_STRUCT_OFFSET (Record, start));
  g_assert_cmpuint (g_array_index (array, Record, 0).tag, ==, 1);
  g_assert_cmpuint (g_array_index (array, Record, 1).tag, ==, 3);
  g_assert_cmpuint (g_array_index (array, Record, 2).tag, ==, 0);
  g_assert_cmpuint (g_array_index (array, Record, 3).tag, ==, 2);
  g_assert_cmpuint (g_array_index (array, Record, 4).tag, ==, 4);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sort/like-a-stable-sort", test_like_a_stable_sort);
  g_test_add_func ("/sort/values-and-arrays", test_values_and_arrays);
  return g_test_run ();
}
