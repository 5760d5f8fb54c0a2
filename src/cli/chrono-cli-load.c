/* chrono-cli-load.c: the traces that a command's FILE… arguments name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
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
