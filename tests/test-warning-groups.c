/* test-warning-groups.c: the same warning of several files is one
 * message with its files; distinct messages stay apart, a file that is
 * cut short comes first; the format's own ways, read in full, are quirks
 * after the rest
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gstdio.h>

#include "chrono-trace-set.h"
#include "chrono-warning-groups.h"
#include "test-utils.h"

#define DLRM_PREFIX "param__dlrm_8rank__worker"

static char *tmp_dir;

static char *
write_file (const char *name,
            const char *text)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_no_error (error);
  return path;
}

/* EVENTS events of which BAD have a timestamp that is no number. */
static char *
write_ranked (const char *name,
              guint       events,
              guint       bad)
{
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[");

  for (guint i = 0; i < events; i++)
    g_string_append_printf (json, "%s{\"ph\":\"X\",\"name\":\"op\",\"pid\":1,\"tid\":1,\"ts\":%s,\"dur\":1}",
                            i > 0 ? "," : "", i < bad ? "\"soon\"" : "10");
  g_string_append (json, "]}");
  return write_file (name, json->str);
}

static ChronoTrace *
load_set (const char * const *paths)
{
  g_autoptr(GError) error = NULL;
  ChronoTrace *trace = chrono_trace_load_set (paths, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

/* The group whose message has TEXT; there must be one. */
static const ChronoWarningGroup *
find_group (GPtrArray  *groups,
            const char *text)
{
  for (guint i = 0; i < groups->len; i++)
    {
      const ChronoWarningGroup *group = g_ptr_array_index (groups, i);

      if (strstr (group->text, text) != NULL)
        return group;
    }
  g_error ("no message has \"%s\"", text);
}

static void
test_grouped (void)
{
  g_autofree char *a = write_ranked ("rank0.json", 10, 2);
  g_autofree char *b = write_ranked ("rank1.json", 10, 5);
  g_autofree char *c = write_ranked ("rank2.json", 10, 0);
  /* Cut inside its event array. */
  g_autofree char *d = write_file ("rank3.json",
                                   "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"op\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},"
                                   "{\"ph\":\"X\",\"name\":\"o");
  const char *paths[] = { a, b, c, d, NULL };
  g_autoptr(ChronoTrace) trace = load_set (paths);
  g_autoptr(GPtrArray) groups = chrono_warning_groups_new (trace);
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);
  const ChronoWarningGroup *numbers, *first;
  guint n_messages = 0;

  for (guint i = 0; i < groups->len; i++)
    g_test_message ("%u files: %s", ((ChronoWarningGroup *) g_ptr_array_index (groups, i))->files->len,
                    ((ChronoWarningGroup *) g_ptr_array_index (groups, i))->text);

  /* Two files said it, with their own counts: once, with both counts. */
  numbers = find_group (groups, "timestamps or durations are not numbers");
  g_assert_cmpstr (numbers->text, ==, "2–5 timestamps or durations are not numbers");
  g_assert_cmpuint (numbers->files->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (numbers->files, 0), ==, "rank0.json");
  g_assert_cmpstr (g_ptr_array_index (numbers->files, 1), ==, "rank1.json");
  g_assert_cmpstr (g_ptr_array_index (numbers->messages, 0), ==, "2 timestamps or durations are not numbers");
  g_assert_cmpstr (g_ptr_array_index (numbers->messages, 1), ==, "5 timestamps or durations are not numbers");
  g_assert_false (numbers->cut_short);
  /* Events not shown: a person must know. */
  g_assert_false (numbers->quirk);
  g_assert_true (chrono_warning_groups_must_know (groups));

  /* The cut file's message first, on its own. */
  first = g_ptr_array_index (groups, 0);
  g_assert_true (first->cut_short);
  g_assert_cmpuint (first->files->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (first->files, 0), ==, "rank3.json");

  /* No warning lost, none told twice. */
  for (guint i = 0; i < groups->len; i++)
    n_messages += MAX (1, ((ChronoWarningGroup *) g_ptr_array_index (groups, i))->messages->len);
  g_assert_cmpuint (n_messages, ==, stats->warnings->len);
  for (guint i = 0; i < groups->len; i++)
    for (guint j = i + 1; j < groups->len; j++)
      g_assert_cmpstr (((ChronoWarningGroup *) g_ptr_array_index (groups, i))->text, !=,
                       ((ChronoWarningGroup *) g_ptr_array_index (groups, j))->text);
}

/* A trace of one file: its warnings as they are, with no file. */
static void
test_one_file (void)
{
  g_autofree char *a = write_ranked ("alone.json", 4, 1);
  const char *paths[] = { a, NULL };
  g_autoptr(ChronoTrace) trace = load_set (paths);
  g_autoptr(GPtrArray) groups = chrono_warning_groups_new (trace);
  const ChronoWarningGroup *group = find_group (groups, "is not a number");

  g_assert_cmpstr (group->text, ==, "1 timestamp or duration is not a number");
  g_assert_cmpuint (group->files->len, ==, 0);
}

/* The eight ranks of a real job each warn of their flow ends: one
 * message of eight files. */
static void
test_dlrm (void)
{
  g_autoptr(GPtrArray) all = test_traces_list ();
  g_autoptr(GPtrArray) files = g_ptr_array_new ();
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(GPtrArray) groups = NULL;
  const ChronoWarningGroup *flows;

  if (all == NULL)
    return;
  for (guint i = 0; i < all->len; i++)
    {
      g_autofree char *name = g_path_get_basename (g_ptr_array_index (all, i));

      if (g_str_has_prefix (name, DLRM_PREFIX))
        g_ptr_array_add (files, g_ptr_array_index (all, i));
    }
  if (files->len != 8)
    {
      g_test_skip ("the eight DLRM ranks are not among the real traces");
      return;
    }
  g_ptr_array_add (files, NULL);
  trace = load_set ((const char * const *) files->pdata);
  groups = chrono_warning_groups_new (trace);
  g_assert_cmpuint (chrono_trace_get_stats (trace)->warnings->len, >=, 8);
  flows = find_group (groups, "flow ends have no start");
  g_assert_cmpuint (flows->files->len, ==, 8);
  /* The counts differ from rank to rank: their range. */
  g_assert_true (g_regex_match_simple ("^[0-9]+–[0-9]+ flow ends have no start", flows->text, 0, 0));
  g_assert_cmpuint (groups->len, <, chrono_trace_get_stats (trace)->warnings->len);
  /* Kineto writes them on every runtime call: nothing to warn of. */
  g_assert_true (flows->quirk);
  g_assert_false (chrono_warning_groups_must_know (groups));
}

/* Kineto's flow ends and a slice still open when recording stopped are
 * the format's ways, told after what was lost; a stray end is lost. */
static void
test_quirks (void)
{
  g_autoptr(ChronoTrace) kineto = test_traces_load ("param__linear_kineto.json.gz");
  g_autoptr(ChronoTrace) trace = test_load_json (
    "{\"traceEvents\":[{\"ph\":\"B\",\"name\":\"open\",\"pid\":1,\"tid\":1,\"ts\":1},"
    "{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":3},"
    "{\"ph\":\"X\",\"name\":\"op\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1}]}");
  g_autoptr(GPtrArray) groups = chrono_warning_groups_new (trace);
  const ChronoWarningGroup *open = find_group (groups, "did not end");
  const ChronoWarningGroup *stray = find_group (groups, "closes no slice");

  g_assert_true (open->quirk);
  g_assert_false (stray->quirk);
  g_assert_true (chrono_warning_groups_must_know (groups));
  g_assert_true (g_ptr_array_index (groups, groups->len - 1) == open);

  if (kineto == NULL)
    return;
  g_clear_pointer (&groups, g_ptr_array_unref);
  groups = chrono_warning_groups_new (kineto);
  g_assert_cmpuint (groups->len, >, 0);
  for (guint i = 0; i < groups->len; i++)
    g_assert_true (((ChronoWarningGroup *) g_ptr_array_index (groups, i))->quirk);
  g_assert_true (find_group (groups, "flow ends have no start")->quirk);
  g_assert_false (chrono_warning_groups_must_know (groups));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("chronoscope-warnings-XXXXXX", &error);
  g_assert_no_error (error);
  g_test_add_func ("/warning-groups/grouped", test_grouped);
  g_test_add_func ("/warning-groups/one-file", test_one_file);
  g_test_add_func ("/warning-groups/dlrm", test_dlrm);
  g_test_add_func ("/warning-groups/quirks", test_quirks);
  status = g_test_run ();
  {
    g_autoptr(GDir) dir = g_dir_open (tmp_dir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
        g_unlink (path);
      }
  }
  g_rmdir (tmp_dir);
  return status;
}
