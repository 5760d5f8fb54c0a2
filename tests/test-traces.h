/* test-traces.h: the real traces of the shared folder, for the tests
 * that need no display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-loader.h"

/* NAME from $CHRONO_TRACES_DIR, loaded; NULL when it is not there, and
 * the caller skips. */
static inline ChronoTrace *
test_traces_load (const char *name)
{
  const char *dir = g_getenv ("CHRONO_TRACES_DIR");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  ChronoTrace *trace;

  if (dir == NULL)
    return NULL;
  path = g_build_filename (dir, name, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return trace;
}
