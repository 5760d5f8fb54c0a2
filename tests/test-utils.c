/* test-utils.c: helpers the tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gstdio.h>

#include "test-utils.h"

ChronoTrace *
test_traces_load (const char *name)
{
  const char *dir = g_getenv ("CHRONO_TRACES_DIR");
  g_autofree char *path = NULL;
  g_autofree char *skip = NULL;
  g_autoptr(GError) error = NULL;
  ChronoTrace *trace;

  if (dir != NULL)
    path = g_build_filename (dir, name, NULL);
  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      skip = g_strdup_printf ("no %s (set CHRONO_TRACES_DIR)", name);
      g_test_skip (skip);
      return NULL;
    }
  trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static gint
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

GPtrArray *
test_traces_list (void)
{
  const char *dir = g_getenv ("CHRONO_TRACES_DIR");
  g_autoptr(GDir) d = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir != NULL)
    d = g_dir_open (dir, 0, NULL);
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (!g_str_has_suffix (name, ".md"))
      g_ptr_array_add (paths, g_build_filename (dir, name, NULL));
  if (paths->len == 0)
    {
      g_test_skip ("no traces (set CHRONO_TRACES_DIR)");
      return NULL;
    }
  g_ptr_array_sort (paths, compare_paths);
  return g_steal_pointer (&paths);
}

ChronoTrace *
test_load_json (const char *json)
{
  g_autoptr(GBytes) bytes = g_bytes_new (json, strlen (json));
  g_autoptr(GError) error = NULL;
  ChronoTrace *trace = chrono_trace_load_bytes (bytes, "test.json", &error);

  g_assert_no_error (error);
  return trace;
}

const ChronoTrack *
test_track_named (ChronoTrace *trace,
                  const char  *name)
{
  const ChronoTrack *found = NULL;

  for (guint i = 0; i < chrono_trace_get_n_tracks (trace); i++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, i);

      if (g_str_equal (chrono_trace_get_string (trace, t->display_name), name))
        {
          g_assert_null (found);
          found = t;
        }
    }
  if (found == NULL)
    g_error ("no track named \"%s\"", name);
  return found;
}

guint
test_track_index (ChronoTrace       *trace,
                  const ChronoTrack *t)
{
  for (guint i = 0; i < chrono_trace_get_n_tracks (trace); i++)
    if (chrono_trace_get_track (trace, i) == t)
      return i;
  g_assert_not_reached ();
}

guint
test_count_name_matches (ChronoTrace    *trace,
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
          g_autofree char *name = g_utf8_casefold (chrono_trace_get_string (trace, chrono_track_get_name (track, i)), -1);

          n += strstr (name, needle) != NULL;
        }
    }
  return n;
}

JsonNode *
test_parse_json_file (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) raw = G_INPUT_STREAM (g_file_read (file, NULL, &error));
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_assert_no_error (error);
  if (g_str_has_suffix (path, ".gz"))
    {
      g_autoptr(GZlibDecompressor) gz = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
      in = g_converter_input_stream_new (raw, G_CONVERTER (gz));
    }
  else
    in = g_object_ref (raw);
  json_parser_load_from_stream (parser, in, NULL, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

void
test_append_complete_event (GString    *s,
                            const char *cat,
                            const char *name,
                            int         pid,
                            int         tid,
                            gint64      ts_us,
                            gint64      dur_us,
                            const char *args)
{
  g_autofree char *escaped = g_strescape (name, NULL);

  if (s->len > strlen ("{\"traceEvents\":["))
    g_string_append (s, ",\n");
  g_string_append_printf (s, "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,"
                          "\"ts\":%" G_GINT64_FORMAT ",\"dur\":%" G_GINT64_FORMAT ",\"args\":{%s}}",
                          cat, escaped, pid, tid, ts_us, dur_us, args);
}

void
test_remove_tree (const char *path)
{
  g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        test_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

const ChronoEfficiencyRow *
test_efficiency_row (ChronoAnalysis *a,
                     const char     *op,
                     const char     *dims)
{
  for (guint i = 0; i < chrono_analysis_get_n_efficiency (a); i++)
    {
      const ChronoEfficiencyRow *r = chrono_analysis_get_efficiency (a, i);

      if (strcmp (r->op, op) == 0 && (dims == NULL || strcmp (r->input_dims, dims) == 0))
        return r;
    }
  return NULL;
}

const ChronoMemoryDevice *
test_memory_device_named (ChronoMemory *memory,
                          const char   *label)
{
  for (guint i = 0; i < chrono_memory_get_n_devices (memory); i++)
    if (g_str_equal (chrono_memory_get_device (memory, i)->label, label))
      return chrono_memory_get_device (memory, i);
  return NULL;
}
