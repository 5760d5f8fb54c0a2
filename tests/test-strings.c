/* test-strings.c: the string table keeps every id and its text through
 * compaction, and interns again afterwards
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-string-table.h"

/* Names of varied length, some sharing prefixes, a few long ones. */
static char *
name_for (guint i)
{
  if (i % 97 == 0)
    return g_strnfill (200 + i % 1000, 'a' + i % 26);
  return g_strdup_printf ("aten::op_%u%s", i, i % 3 == 0 ? "_backward" : "");
}

static void
check_all (ChronoStringTable *table,
           const guint32     *ids,
           guint              n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = name_for (i);

      g_assert_cmpstr (chrono_string_table_get (table, ids[i]), ==, name);
      g_assert_cmpuint (chrono_string_table_get_len (table, ids[i]), ==, strlen (name));
    }
}

static void
test_compact (void)
{
  const guint n = 5000;
  g_autoptr(ChronoStringTable) table = chrono_string_table_new ();
  g_autofree guint32 *ids = g_new (guint32, n);
  gsize before, after;
  guint32 fresh;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = name_for (i);
      ids[i] = chrono_string_table_intern (table, name, strlen (name));
    }
  g_assert_cmpuint (chrono_string_table_size (table), ==, n + 1);
  before = chrono_string_table_bytes (table);

  chrono_string_table_compact (table);
  after = chrono_string_table_bytes (table);
  check_all (table, ids, n);
  g_assert_cmpstr (chrono_string_table_get (table, 0), ==, "");
  /* The arena's slack and the lookup slots are gone. */
  g_assert_cmpuint (after, <, before);
  g_assert_cmpuint (chrono_string_table_size (table), ==, n + 1);

  /* Interning after compaction finds what is there and adds what is not. */
  for (guint i = 0; i < n; i += 7)
    {
      g_autofree char *name = name_for (i);
      g_assert_cmpuint (chrono_string_table_intern (table, name, strlen (name)), ==, ids[i]);
    }
  fresh = chrono_string_table_intern (table, "a name never seen", 17);
  g_assert_cmpuint (fresh, ==, n + 1);
  g_assert_cmpstr (chrono_string_table_get (table, fresh), ==, "a name never seen");
  g_assert_cmpuint (chrono_string_table_intern (table, "", 0), ==, 0);
  check_all (table, ids, n);

  /* Compacting twice keeps everything too. */
  chrono_string_table_compact (table);
  check_all (table, ids, n);
  g_assert_cmpstr (chrono_string_table_get (table, fresh), ==, "a name never seen");
}

static void
test_compact_empty (void)
{
  g_autoptr(ChronoStringTable) table = chrono_string_table_new ();

  chrono_string_table_compact (table);
  g_assert_cmpuint (chrono_string_table_size (table), ==, 1);
  g_assert_cmpstr (chrono_string_table_get (table, 0), ==, "");
  g_assert_cmpuint (chrono_string_table_intern (table, "x", 1), ==, 1);
  g_assert_cmpstr (chrono_string_table_get (table, 1), ==, "x");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/strings/compact", test_compact);
  g_test_add_func ("/strings/compact-empty", test_compact_empty);
  return g_test_run ();
}
