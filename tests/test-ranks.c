/* test-ranks.c: a merged trace knows the files, and so the ranks, it is
 * made of; the command line analyses a folder or a merged set
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "chrono-example-trace.h"
#include "chrono-loader.h"
#include "chrono-trace-set.h"
#include "test-utils.h"

#define DLRM_PREFIX "param__dlrm_8rank__worker"
#define DLRM_STEP   "_step_12"

static ChronoTrace *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  ChronoTrace *trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

/* Every process and every track in exactly one part, the parts in order
 * and back to back. */
static void
check_partition (ChronoTrace *trace)
{
  guint n_parts = chrono_trace_get_n_parts (trace);
  guint next_process = 0, next_track = 0;

  g_assert_cmpuint (n_parts, >=, 1);
  for (guint i = 0; i < n_parts; i++)
    {
      const ChronoTracePart *part = chrono_trace_get_part (trace, i);

      g_assert_cmpuint (part->first_process, ==, next_process);
      g_assert_cmpuint (part->first_track, ==, next_track);
      for (guint p = part->first_process; p < part->first_process + part->n_processes; p++)
        g_assert_cmpint (chrono_trace_get_part_of_process (trace, p), ==, i);
      for (guint t = part->first_track; t < part->first_track + part->n_tracks; t++)
        {
          guint process = chrono_trace_get_track (trace, t)->process;

          g_assert_cmpuint (process, >=, part->first_process);
          g_assert_cmpuint (process, <, part->first_process + part->n_processes);
        }
      next_process += part->n_processes;
      next_track += part->n_tracks;
    }
  g_assert_cmpuint (next_process, ==, chrono_trace_get_n_processes (trace));
  g_assert_cmpuint (next_track, ==, chrono_trace_get_n_tracks (trace));
  g_assert_cmpint (chrono_trace_get_part_of_process (trace, next_process), ==, -1);
}

/* PART of a merged trace holds what ALONE, the same file loaded by
 * itself, holds. */
static void
check_part_matches (ChronoTrace           *merged,
                    const ChronoTracePart *part,
                    ChronoTrace           *alone)
{
  const ChronoTracePart *own = chrono_trace_get_part (alone, 0);

  g_assert_cmpstr (part->path, ==, chrono_trace_get_path (alone));
  g_assert_cmpstr (part->format, ==, chrono_trace_get_format (alone));
  g_assert_cmpint (part->rank, ==, chrono_trace_get_rank (alone));
  g_assert_cmpint (part->world_size, ==, chrono_trace_get_world_size (alone));
  g_assert_cmpint (part->base_time_ns, ==, chrono_trace_get_base_time_ns (alone));
  g_assert_cmpint (part->truncated, ==, chrono_trace_get_stats (alone)->truncated);
  g_assert_cmpint (part->start_ns, ==, chrono_trace_get_start_ns (alone) + part->shift_ns);
  g_assert_cmpint (part->end_ns, ==, chrono_trace_get_end_ns (alone) + part->shift_ns);
  g_assert_cmpuint (part->n_processes, ==, chrono_trace_get_n_processes (alone));
  g_assert_cmpuint (part->n_tracks, ==, chrono_trace_get_n_tracks (alone));
  g_assert_cmpint (own->shift_ns, ==, 0);
  for (guint t = 0; t < part->n_tracks; t++)
    {
      const ChronoTrack *x = chrono_trace_get_track (alone, t);
      const ChronoTrack *y = chrono_trace_get_track (merged, part->first_track + t);

      g_assert_cmpuint (y->process, ==, part->first_process + x->process);
      g_assert_cmpuint (x->n_spans, ==, y->n_spans);
      g_assert_cmpuint (x->n_instants, ==, y->n_instants);
      g_assert_cmpuint (x->n_samples, ==, y->n_samples);
      if (x->n_spans > 0)
        g_assert_cmpint (x->start[0] + part->shift_ns, ==, y->start[0]);
    }
}

/* Reading TRACE's args through a view of their text gives what asking
 * the trace gives; the view holds the text itself only when one text
 * holds every args offset (DIRECT). */
static void
check_args_view (ChronoTrace *trace,
                 gboolean     direct)
{
  ChronoArgsText view;
  guint n = 0;
  gsize available = 0;

  chrono_args_text_init (&view, trace);
  g_assert_true ((view.text != NULL) == direct);
  g_assert_null (chrono_args_text_get (&view, CHRONO_NO_ARGS, &available));
  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);

      for (guint32 i = 0; i < t->n_spans; i++)
        {
          guint64 args = chrono_track_get_args (t, i);
          gsize want_available = 0, got_available = 0;
          const char *want = chrono_trace_get_raw_text (trace, args, &want_available);
          const char *got = chrono_args_text_get (&view, args, &got_available);

          g_assert_true (got == want);
          if (want != NULL)
            {
              g_assert_cmpuint (got_available, ==, want_available);
              chrono_args_text_prefetch (&view, args);
              n++;
            }
        }
    }
  g_assert_cmpuint (n, >, 0);
}

static char *
write_example (const char *dir,
               const char *name,
               gint        rank,
               gint        world_size)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  ChronoExampleOptions o;

  chrono_example_options_init (&o);
  o.n_steps = 2;
  o.rank = rank;
  o.world_size = world_size;
  o.seed = 7 + rank;
  g_assert_true (chrono_example_trace_write (path, &o, NULL, &error));
  g_assert_no_error (error);
  return path;
}

/* One file is one part: all of it, with what the trace says of itself. */
static void
test_one_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("chrono-ranks-XXXXXX", NULL);
  g_autofree char *path = write_example (dir, "rank3.json", 3, 4);
  g_autoptr(ChronoTrace) trace = load (path);
  const ChronoTracePart *part;

  g_assert_cmpuint (chrono_trace_get_n_parts (trace), ==, 1);
  part = chrono_trace_get_part (trace, 0);
  g_assert_cmpstr (part->path, ==, path);
  g_assert_cmpstr (part->format, ==, chrono_trace_get_format (trace));
  g_assert_cmpint (part->rank, ==, 3);
  g_assert_cmpint (part->world_size, ==, 4);
  g_assert_cmpint (part->shift_ns, ==, 0);
  g_assert_cmpint (part->base_time_ns, ==, chrono_trace_get_base_time_ns (trace));
  g_assert_cmpint (part->start_ns, ==, chrono_trace_get_start_ns (trace));
  g_assert_cmpint (part->end_ns, ==, chrono_trace_get_end_ns (trace));
  g_assert_false (part->truncated);
  g_assert_cmpuint (part->first_process, ==, 0);
  g_assert_cmpuint (part->n_processes, ==, chrono_trace_get_n_processes (trace));
  g_assert_cmpuint (part->n_processes, >, 1);
  check_partition (trace);

  /* A trace from bytes, and one that declares no rank. */
  {
    g_autoptr(ChronoTrace) bare = test_load_json ("{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2}]}");

    g_assert_cmpuint (chrono_trace_get_n_parts (bare), ==, 1);
    g_assert_cmpint (chrono_trace_get_part (bare, 0)->rank, ==, -1);
    g_assert_cmpint (chrono_trace_get_part (bare, 0)->world_size, ==, -1);
    g_assert_cmpstr (chrono_trace_get_part (bare, 0)->path, ==, "test.json");
    check_partition (bare);
  }
  g_unlink (path);
  g_rmdir (dir);
}

/* Ranks of a set in the order named, each what it is alone; a file cut
 * short is the one part that says so. */
static void
test_set (void)
{
  g_autofree char *dir = g_dir_make_tmp ("chrono-ranks-XXXXXX", NULL);
  g_autofree char *a = write_example (dir, "rank1.json", 1, 3);
  g_autofree char *b = write_example (dir, "rank0.json", 0, 3);
  g_autofree char *c = g_build_filename (dir, "rank2-cut.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *source = write_example (dir, "rank2.json", 2, 3);
  gsize len = 0;
  const char *paths[] = { a, b, c, NULL };
  g_autoptr(ChronoTrace) merged = NULL;
  g_autoptr(GError) error = NULL;

  /* Rank 2 loses its last third, as when the profiler is killed. */
  g_assert_true (g_file_get_contents (source, &text, &len, NULL));
  g_assert_true (g_file_set_contents (c, text, len * 2 / 3, NULL));

  merged = chrono_trace_load_set (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_trace_get_n_parts (merged), ==, 3);
  check_partition (merged);
  check_args_view (merged, FALSE);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(ChronoTrace) alone = load (paths[i]);

      check_part_matches (merged, chrono_trace_get_part (merged, i), alone);
      check_args_view (alone, TRUE);
    }
  g_assert_cmpint (chrono_trace_get_part (merged, 0)->rank, ==, 1);
  g_assert_cmpint (chrono_trace_get_part (merged, 1)->rank, ==, 0);
  g_assert_cmpint (chrono_trace_get_part (merged, 2)->rank, ==, 2);
  g_assert_false (chrono_trace_get_part (merged, 0)->truncated);
  g_assert_false (chrono_trace_get_part (merged, 1)->truncated);
  g_assert_true (chrono_trace_get_part (merged, 2)->truncated);
  g_assert_true (chrono_trace_get_stats (merged)->truncated);

  for (guint i = 0; paths[i]; i++)
    g_unlink (paths[i]);
  g_unlink (source);
  g_rmdir (dir);
}

/* The real 8-rank job's files, in name order; NULL, skipped, when absent. */
static GPtrArray *
dlrm_files (void)
{
  g_autoptr(GPtrArray) all = test_traces_list ();
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; all != NULL && i < all->len; i++)
    {
      g_autofree char *base = g_path_get_basename (g_ptr_array_index (all, i));

      if (g_str_has_prefix (base, DLRM_PREFIX) && strstr (base, DLRM_STEP) != NULL)
        g_ptr_array_add (files, g_strdup (g_ptr_array_index (all, i)));
    }
  if (files->len != 8)
    {
      if (all != NULL)
        g_test_skip ("the 8 files of the DLRM job are not all there");
      g_ptr_array_unref (files);
      return NULL;
    }
  return files;
}

static void
test_dlrm (void)
{
  g_autoptr(GPtrArray) files = dlrm_files ();
  g_autoptr(ChronoTrace) merged = NULL;
  g_autoptr(GError) error = NULL;
  gboolean seen[8] = { FALSE };

  if (files == NULL)
    return;
  g_ptr_array_add (files, NULL);
  merged = chrono_trace_load_set ((const char * const *) files->pdata, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_trace_get_n_parts (merged), ==, 8);
  check_partition (merged);
  for (guint i = 0; i < 8; i++)
    {
      const ChronoTracePart *part = chrono_trace_get_part (merged, i);
      g_autoptr(ChronoTrace) alone = load (g_ptr_array_index (files, i));
      guint64 spans_alone = 0, spans_part = 0;

      check_part_matches (merged, part, alone);
      /* Each file says its rank of 8, and every rank is there once. */
      g_assert_cmpint (part->world_size, ==, 8);
      g_assert_cmpint (part->rank, >=, 0);
      g_assert_cmpint (part->rank, <, 8);
      g_assert_false (seen[part->rank]);
      seen[part->rank] = TRUE;
      g_assert_cmpint (part->shift_ns, ==, 0);
      for (guint t = 0; t < part->n_tracks; t++)
        {
          spans_alone += chrono_trace_get_track (alone, t)->n_spans;
          spans_part += chrono_trace_get_track (merged, part->first_track + t)->n_spans;
        }
      g_assert_cmpuint (spans_part, ==, spans_alone);
      g_assert_cmpuint (spans_part, >, 0);
    }
}

static void
run_cli (const char * const *args,
         int                *status,
         char              **out,
         char              **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  gint wait_status;

  g_ptr_array_add (argv, (gpointer) g_getenv ("CHRONO_CLI"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               out, err, &wait_status, &error));
  g_assert_no_error (error);
  *status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
}

/* A JSON report of the analysis of N_TRACES traces, with findings and a
 * breakdown of at least MIN_DEVICES devices. */
static void
check_report (const char *out,
              guint       n_traces,
              guint       min_devices)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonArray *breakdown;
  guint devices = 0;

  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_nonnull (root);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (root, "schema"), "chronoscope.analysis/"));
  g_assert_nonnull (json_object_get_array_member (root, "findings"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "traces")), ==, n_traces);
  breakdown = json_object_get_array_member (root, "breakdown");
  for (guint i = 0; i < json_array_get_length (breakdown); i++)
    if (g_strcmp0 (json_object_get_string_member (json_array_get_object_element (breakdown, i), "scope"), "device") == 0)
      devices++;
  g_assert_cmpuint (devices, >=, min_devices);
}

/* analyze FOLDER and analyze --merge FILE…: the 8 ranks as one set. */
static void
test_cli_folder_and_merge (void)
{
  g_autoptr(GPtrArray) files = dlrm_files ();
  g_autofree char *dir = NULL;
  g_autoptr(GPtrArray) links = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  char *out = NULL, *err = NULL;
  int status;

  if (files == NULL)
    return;
  if (g_getenv ("CHRONO_CLI") == NULL)
    {
      g_test_skip ("CHRONO_CLI not set");
      return;
    }
  dir = g_dir_make_tmp ("chrono-ranks-XXXXXX", NULL);
  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *base = g_path_get_basename (g_ptr_array_index (files, i));
      char *link = g_build_filename (dir, base, NULL);

      g_assert_cmpint (symlink (g_ptr_array_index (files, i), link), ==, 0);
      g_ptr_array_add (links, link);
    }

  /* One trace holding the eight GPUs. */
  run_cli ((const char *[]) { "analyze", "--format", "json", dir, NULL }, &status, &out, &err);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (status, ==, 0);
  check_report (out, 1, 8);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_ptr_array_add (args, "analyze");
  g_ptr_array_add (args, "--format");
  g_ptr_array_add (args, "json");
  g_ptr_array_add (args, "--merge");
  for (guint i = 0; i < files->len; i++)
    g_ptr_array_add (args, g_ptr_array_index (files, i));
  g_ptr_array_add (args, NULL);
  run_cli ((const char * const *) args->pdata, &status, &out, &err);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (status, ==, 0);
  check_report (out, 1, 8);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Markdown too. */
  run_cli ((const char *[]) { "analyze", dir, NULL }, &status, &out, &err);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpuint (strlen (out), >, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  for (guint i = 0; i < links->len; i++)
    g_unlink (g_ptr_array_index (links, i));
  g_rmdir (dir);
}

/* What goes wrong names the file or the folder. */
static void
test_cli_errors (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *empty = NULL;
  g_autofree char *good = NULL;
  g_autofree char *other = NULL;
  g_autofree char *bad = NULL;
  g_autofree char *missing = NULL;
  char *out = NULL, *err = NULL;
  int status;

  if (g_getenv ("CHRONO_CLI") == NULL)
    {
      g_test_skip ("CHRONO_CLI not set");
      return;
    }
  dir = g_dir_make_tmp ("chrono-ranks-XXXXXX", NULL);
  empty = g_build_filename (dir, "empty", NULL);
  g_assert_cmpint (g_mkdir (empty, 0700), ==, 0);
  good = write_example (dir, "rank0.json", 0, 2);
  other = write_example (dir, "rank1.json", 1, 2);
  bad = g_build_filename (dir, "broken.json", NULL);
  g_assert_true (g_file_set_contents (bad, "hello", -1, NULL));
  missing = g_build_filename (dir, "missing.json", NULL);

  run_cli ((const char *[]) { "analyze", empty, NULL }, &status, &out, &err);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, empty));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  run_cli ((const char *[]) { "analyze", "--merge", good, missing, NULL }, &status, &out, &err);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, missing));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  run_cli ((const char *[]) { "analyze", "--merge", bad, good, NULL }, &status, &out, &err);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, bad));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* A set with a file cut short is analysed, and the file named. */
  {
    g_autofree char *set = g_build_filename (dir, "set", NULL);
    g_autofree char *cut = g_build_filename (set, "rank1-cut.json", NULL);
    g_autofree char *text = NULL;
    gsize len = 0;

    g_assert_cmpint (g_mkdir (set, 0700), ==, 0);
    g_assert_true (g_file_get_contents (other, &text, &len, NULL));
    g_assert_true (g_file_set_contents (cut, text, len / 2, NULL));
    run_cli ((const char *[]) { "analyze", "--format", "json", set, NULL }, &status, &out, &err);
    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (err, cut));
    g_assert_nonnull (strstr (err, "incomplete"));
    check_report (out, 1, 1);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_unlink (cut);
    g_rmdir (set);
  }

  /* Separate files are still each a trace of its own. */
  run_cli ((const char *[]) { "analyze", "--format", "json", good, other, NULL }, &status, &out, &err);
  g_assert_cmpint (status, ==, 0);
  check_report (out, 2, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_unlink (good);
  g_unlink (other);
  g_unlink (bad);
  g_rmdir (empty);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ranks/one-file", test_one_file);
  g_test_add_func ("/ranks/set", test_set);
  g_test_add_func ("/ranks/dlrm-8", test_dlrm);
  g_test_add_func ("/ranks/cli-folder-and-merge", test_cli_folder_and_merge);
  g_test_add_func ("/ranks/cli-errors", test_cli_errors);
  return g_test_run ();
}
