/* chrono-cli-load.c: the traces that a command's FILE… arguments name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-analysis-settings.h"
#include "chrono-cli-load.h"
#include "chrono-loader.h"
#include "chrono-trace-set.h"

guint
chrono_cli_n_inputs (char * const *files,
                     gboolean      merge)
{
  guint n = g_strv_length ((char **) files);

  return merge ? MIN (n, 1) : n;
}

ChronoTrace *
chrono_cli_load_input (char * const *files,
                       gboolean      merge,
                       guint         index,
                       GError      **error)
{
  const char *one[] = { files[index], NULL };

  if (merge)
    return chrono_trace_load_set ((const char * const *) files, NULL, NULL, NULL, error);
  if (g_file_test (files[index], G_FILE_TEST_IS_DIR))
    return chrono_trace_load_set (one, NULL, NULL, NULL, error);
  return chrono_trace_load_file (files[index], NULL, NULL, NULL, error);
}

#define ANALYSIS_SCHEMA "io.github.chronoscope.Chronoscope.analysis"

void
chrono_cli_read_thresholds (ChronoAnalysisThresholds *thresholds)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, ANALYSIS_SCHEMA, TRUE) : NULL;
  g_autoptr(GSettings) settings = schema ? g_settings_new_full (schema, NULL, NULL) : NULL;

  chrono_analysis_settings_read (settings, thresholds);
}

static gint
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

gboolean
chrono_cli_list_files (const char  *path,
                       const char  *suffix,
                       GPtrArray   *out,
                       GError     **error)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) found = NULL;
  const char *name;
  guint before = out->len;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s: no such file or folder", path);
          return FALSE;
        }
      g_ptr_array_add (out, g_strdup (path));
      return TRUE;
    }
  if ((dir = g_dir_open (path, 0, error)) == NULL)
    return FALSE;
  found = g_ptr_array_new ();
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *full = NULL;

      if (name[0] == '.' || g_str_has_suffix (name, ".tmp") || (suffix && !g_str_has_suffix (name, suffix)))
        continue;
      full = g_build_filename (path, name, NULL);
      if (g_file_test (full, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (found, g_steal_pointer (&full));
    }
  g_ptr_array_sort (found, compare_paths);
  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (out, found->pdata[i]);
  if (out->len == before)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s: the folder holds no %s files", path,
                   suffix ? suffix : "");
      return FALSE;
    }
  return TRUE;
}
