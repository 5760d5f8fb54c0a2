/* chrono-mcp-roots.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>

#include "chrono-mcp-roots.h"

/* Deeper than a trace set looks (chrono-trace-set.c reads four levels). */
#define MAX_FOLDER_DEPTH 5

struct _ChronoMcpRoots {
  GStrv dirs;
};

ChronoMcpRoots *
chrono_mcp_roots_new (const char * const *dirs,
                      GError            **error)
{
  g_autoptr(GStrvBuilder) resolved = g_strv_builder_new ();
  ChronoMcpRoots *roots;

  for (guint i = 0; dirs[i]; i++)
    {
      g_autofree char *real = realpath (dirs[i], NULL);

      if (real == NULL || !g_file_test (real, G_FILE_TEST_IS_DIR))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                       "--root %s: not a folder%s%s", dirs[i],
                       real == NULL ? ": " : "", real == NULL ? g_strerror (errno) : "");
          return NULL;
        }
      g_strv_builder_add (resolved, real);
    }
  roots = g_new0 (ChronoMcpRoots, 1);
  roots->dirs = g_strv_builder_end (resolved);
  return roots;
}

void
chrono_mcp_roots_free (ChronoMcpRoots *roots)
{
  g_strfreev (roots->dirs);
  g_free (roots);
}

static gboolean
inside (ChronoMcpRoots *roots,
        const char     *real)
{
  for (guint i = 0; roots->dirs[i]; i++)
    {
      const char *dir = roots->dirs[i];
      gsize n = strlen (dir);

      if (strcmp (dir, "/") == 0 ||
          (strncmp (real, dir, n) == 0 && (real[n] == '\0' || real[n] == '/')))
        return TRUE;
    }
  return FALSE;
}

static gboolean
check_folder (ChronoMcpRoots  *roots,
              const char      *dir,
              guint            depth,
              GError         **error)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL || depth > MAX_FOLDER_DEPTH)
    return TRUE;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *real = realpath (path, NULL);

      if (real == NULL)
        continue;   /* a dangling link reads nothing */
      if (!inside (roots, real))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                       "%s leads to %s, outside the folders this server may read (%s)",
                       path, real, roots->dirs[0]);
          return FALSE;
        }
      if (g_file_test (real, G_FILE_TEST_IS_DIR) && !check_folder (roots, path, depth + 1, error))
        return FALSE;
    }
  return TRUE;
}

char *
chrono_mcp_roots_resolve (ChronoMcpRoots  *roots,
                          const char      *path,
                          GError         **error)
{
  g_autofree char *joined = g_canonicalize_filename (path, roots->dirs[0]);
  g_autofree char *real = NULL;
  g_autofree char *allowed = g_strjoinv (", ", roots->dirs);

  /* refused before it is looked at, so that the answer does not tell
   * whether something exists outside */
  if (!inside (roots, joined))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   "%s is outside the folders this server may read (%s); "
                   "start the server with --root for another folder", joined, allowed);
      return NULL;
    }
  real = realpath (joined, NULL);
  if (real == NULL)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", joined, g_strerror (saved));
      return NULL;
    }
  if (!inside (roots, real))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   "%s, which leads to %s, is outside the folders this server may read (%s); "
                   "start the server with --root for another folder", joined, real, allowed);
      return NULL;
    }
  if (g_file_test (real, G_FILE_TEST_IS_DIR) && !check_folder (roots, real, 1, error))
    return NULL;
  return g_steal_pointer (&real);
}
