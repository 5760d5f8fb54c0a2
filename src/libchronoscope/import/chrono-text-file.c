/* chrono-text-file.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "chrono-text-file.h"

struct _ChronoTextFile
{
  int     fd;
  char   *dir;
  char   *display_name;
  guint64 size;   /* bytes given blocks so far */
};

/* The most a file may grow here: the folder's free space, and the
 * process's file size limit (past which a write would raise SIGXFSZ). */
static guint64
room_in (const char *dir)
{
  struct statvfs st;
  struct rlimit limit;
  guint64 room;

  if (statvfs (dir, &st) != 0)
    return 0;
  room = (guint64) st.f_bavail * st.f_frsize;
  if (getrlimit (RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    room = MIN (room, (guint64) limit.rlim_cur);
  return room;
}

static int
open_unlinked (const char *dir)
{
  g_autofree char *template = NULL;
  int fd;

#ifdef O_TMPFILE
  fd = open (dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0)
    return fd;
#endif
  /* File systems without O_TMPFILE: a named file, unlinked at once. */
  template = g_build_filename (dir, "chronoscope-text-XXXXXX", NULL);
  fd = g_mkstemp_full (template, O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0)
    g_unlink (template);
  return fd;
}

ChronoTextFile *
chrono_text_file_new (const char  *display_name,
                      guint64      needed,
                      GError     **error)
{
  g_autofree char *cache = g_build_filename (g_get_user_cache_dir (), "chronoscope", NULL);
  const char *dirs[] = { cache, g_get_tmp_dir () };
  guint64 rooms[G_N_ELEMENTS (dirs)];
  guint best = 0;
  ChronoTextFile *self;
  int fd = -1;

  g_mkdir_with_parents (cache, 0700);
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      rooms[i] = room_in (dirs[i]);
      if (rooms[i] > rooms[best])
        best = i;
    }

  for (guint i = 0; i < G_N_ELEMENTS (dirs) && fd < 0; i++)
    {
      /* Where the size is unknown, the folder with most room first. */
      guint d = needed > 0 ? i : (i == 0 ? best : (best + 1) % G_N_ELEMENTS (dirs));

      if (rooms[d] < needed || rooms[d] == 0)
        continue;
      fd = open_unlinked (dirs[d]);
      if (fd >= 0)
        best = d;
    }

  if (fd < 0)
    {
      g_autofree char *need = g_format_size (needed);
      g_autofree char *have = g_format_size (rooms[best]);

      if (rooms[best] < needed)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                     "%s: not enough disk space for the decompressed text: it needs %s, and %s "
                     "has %s free (set TMPDIR to a folder with more room)",
                     display_name, need, dirs[best], have);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                     "%s: cannot create a file for the decompressed text in %s or %s",
                     display_name, dirs[0], dirs[1]);
      return NULL;
    }

  self = g_new0 (ChronoTextFile, 1);
  self->fd = fd;
  self->dir = g_strdup (dirs[best]);
  self->display_name = g_strdup (display_name);
  return self;
}

void
chrono_text_file_free (ChronoTextFile *self)
{
  if (self == NULL)
    return;
  close (self->fd);
  g_free (self->dir);
  g_free (self->display_name);
  g_free (self);
}

static gboolean
set_no_room (ChronoTextFile  *self,
             gsize            offset,
             int              errsv,
             GError         **error)
{
  g_autofree char *done = g_format_size (offset);
  g_autofree char *free_now = g_format_size (room_in (self->dir));

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
               "%s: no room for more decompressed text in %s after %s (%s free): %s",
               self->display_name, self->dir, done, free_now, g_strerror (errsv));
  return FALSE;
}

gboolean
chrono_text_file_commit (ChronoTextFile  *self,
                         guint8          *base,
                         gsize            offset,
                         gsize            length,
                         GError         **error)
{
  struct rlimit limit;
  int ret;

  if (getrlimit (RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY
      && offset + length > (guint64) limit.rlim_cur)
    return set_no_room (self, offset, EFBIG, error);

  ret = posix_fallocate (self->fd, offset, length);
  if (ret != 0)
    return set_no_room (self, offset, ret, error);
  self->size = MAX (self->size, offset + length);

  if (mmap (base + offset, length, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
            self->fd, offset) == MAP_FAILED)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   "%s: cannot map the decompressed text in %s: %s",
                   self->display_name, self->dir, g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}

void
chrono_text_file_trim (ChronoTextFile *self,
                       gsize           used)
{
  /* The mapping stays readable: a hole reads as zeros. */
  if (used < self->size)
    fallocate (self->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, used, self->size - used);
}

const char *
chrono_text_file_get_dir (ChronoTextFile *self)
{
  return self->dir;
}
