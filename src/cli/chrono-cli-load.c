/* chrono-cli-load.c: the traces that a command's FILE… arguments name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gio.h>

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
