/* test-sidecar.c: project files beside traces: round trip, atomic
 * writes, and files that cannot be read kept aside, never lost
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gstdio.h>

#include "chrono-sidecar.h"

typedef struct {
  char *dir;
  char *trace;
  char *sidecars;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("chronoscope-sidecar-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->trace = g_build_filename (fixture->dir, "trace.json", NULL);
  g_assert_true (g_file_set_contents (fixture->trace, "{\"traceEvents\": []}", -1, &error));
  g_assert_no_error (error);
  fixture->sidecars = g_build_filename (fixture->dir, "projects", NULL);
}

static void
remove_dir (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_dir (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  remove_dir (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->trace);
  g_free (fixture->sidecars);
}

static JsonNode *
parse (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (json, &error);

  g_assert_no_error (error);
  return node;
}

static char *
read_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  return text;
}

static void
test_round_trip (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(ChronoSidecar) sidecar = chrono_sidecar_new (fixture->trace, fixture->sidecars);
  g_autoptr(ChronoSidecar) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *trace_text = NULL;
  g_autofree char *name = NULL;
  JsonNode *section;

  /* Under its folder, named after the trace. */
  g_assert_true (g_str_has_prefix (chrono_sidecar_get_path (sidecar), fixture->sidecars));
  name = g_path_get_basename (chrono_sidecar_get_path (sidecar));
  g_assert_true (g_str_has_prefix (name, "trace.json-"));
  g_assert_true (g_str_has_suffix (name, ".json"));

  /* None yet: loads empty. */
  g_assert_true (chrono_sidecar_load (sidecar, &error));
  g_assert_no_error (error);
  g_assert_null (chrono_sidecar_get_section (sidecar, "tracks"));

  chrono_sidecar_set_section (sidecar, "tracks", parse ("{\"pinned\": [\"a\", \"b\"]}"));
  chrono_sidecar_set_section (sidecar, "future", parse ("[1, 2, 3]"));
  g_assert_true (chrono_sidecar_save (sidecar, &error));
  g_assert_no_error (error);

  again = chrono_sidecar_new (fixture->trace, fixture->sidecars);
  g_assert_cmpstr (chrono_sidecar_get_path (again), ==, chrono_sidecar_get_path (sidecar));
  g_assert_true (chrono_sidecar_load (again, &error));
  g_assert_no_error (error);
  section = chrono_sidecar_get_section (again, "tracks");
  g_assert_nonnull (section);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (json_node_get_object (section), "pinned"), 1), ==, "b");
  /* Sections this version does not use survive. */
  g_assert_nonnull (chrono_sidecar_get_section (again, "future"));

  /* The trace itself is never touched. */
  trace_text = read_text (fixture->trace);
  g_assert_cmpstr (trace_text, ==, "{\"traceEvents\": []}");
}

static void
test_other_trace (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *other = g_build_filename (fixture->dir, "sub", "trace.json", NULL);
  g_autofree char *sub = g_path_get_dirname (other);
  g_autoptr(ChronoSidecar) a = chrono_sidecar_new (fixture->trace, fixture->sidecars);
  g_autoptr(ChronoSidecar) b = NULL;

  /* The same name in another folder is another trace. */
  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  g_assert_true (g_file_set_contents (other, "{}", -1, NULL));
  b = chrono_sidecar_new (other, fixture->sidecars);
  g_assert_cmpstr (chrono_sidecar_get_path (a), !=, chrono_sidecar_get_path (b));
}

static void
test_changed_trace (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(ChronoSidecar) sidecar = chrono_sidecar_new (fixture->trace, fixture->sidecars);
  g_autoptr(ChronoSidecar) again = NULL;
  g_autoptr(GError) error = NULL;

  chrono_sidecar_set_section (sidecar, "tracks", parse ("{}"));
  g_assert_true (chrono_sidecar_save (sidecar, &error));

  /* Rewritten with another size: the saved state is for another trace. */
  g_assert_true (g_file_set_contents (fixture->trace, "{\"traceEvents\": [ ]}", -1, NULL));
  again = chrono_sidecar_new (fixture->trace, fixture->sidecars);
  g_test_expect_message (G_LOG_DOMAIN, G_LOG_LEVEL_MESSAGE, "*older version*");
  g_assert_true (chrono_sidecar_load (again, &error));
  g_test_assert_expected_messages ();
  g_assert_no_error (error);
  g_assert_null (chrono_sidecar_get_section (again, "tracks"));
}

static void
check_unreadable (Fixture    *fixture,
                  const char *contents,
                  gint        code)
{
  g_autoptr(ChronoSidecar) sidecar = chrono_sidecar_new (fixture->trace, fixture->sidecars);
  g_autoptr(ChronoSidecar) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *backup = g_strconcat (chrono_sidecar_get_path (sidecar), ".bak", NULL);
  g_autofree char *kept = NULL;

  g_assert_cmpint (g_mkdir_with_parents (fixture->sidecars, 0700), ==, 0);
  g_assert_true (g_file_set_contents (chrono_sidecar_get_path (sidecar), contents, -1, NULL));
  g_unlink (backup);

  g_assert_false (chrono_sidecar_load (sidecar, &error));
  g_assert_error (error, CHRONO_SIDECAR_ERROR, code);
  /* The message names the file. */
  g_assert_nonnull (strstr (error->message, chrono_sidecar_get_path (sidecar)));
  g_assert_null (chrono_sidecar_get_section (sidecar, "tracks"));
  g_clear_error (&error);

  /* Saving keeps what it could not read beside the new file. */
  chrono_sidecar_set_section (sidecar, "tracks", parse ("{\"hidden\": []}"));
  g_assert_true (chrono_sidecar_save (sidecar, &error));
  g_assert_no_error (error);
  kept = read_text (backup);
  g_assert_cmpstr (kept, ==, contents);

  again = chrono_sidecar_new (fixture->trace, fixture->sidecars);
  g_assert_true (chrono_sidecar_load (again, &error));
  g_assert_no_error (error);
  g_assert_nonnull (chrono_sidecar_get_section (again, "tracks"));
}

static void
test_malformed (Fixture       *fixture,
                gconstpointer  data)
{
  check_unreadable (fixture, "{\"version\": 1, \"trace\": ", CHRONO_SIDECAR_ERROR_INVALID);
  check_unreadable (fixture, "[1, 2]", CHRONO_SIDECAR_ERROR_INVALID);
  check_unreadable (fixture, "{\"version\": \"1\"}", CHRONO_SIDECAR_ERROR_INVALID);
  check_unreadable (fixture, "{\"version\": 1, \"trace\": {}, \"sections\": 7}", CHRONO_SIDECAR_ERROR_INVALID);
  check_unreadable (fixture, "", CHRONO_SIDECAR_ERROR_INVALID);
}

static void
test_version (Fixture       *fixture,
              gconstpointer  data)
{
  check_unreadable (fixture, "{\"version\": 2, \"trace\": {}, \"sections\": {}}", CHRONO_SIDECAR_ERROR_VERSION);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/sidecar/round-trip", test_round_trip);
  ADD ("/sidecar/other-trace", test_other_trace);
  ADD ("/sidecar/changed-trace", test_changed_trace);
  ADD ("/sidecar/malformed", test_malformed);
  ADD ("/sidecar/version", test_version);
#undef ADD
  return g_test_run ();
}
