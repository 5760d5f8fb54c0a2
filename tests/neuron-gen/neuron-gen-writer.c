/* neuron-gen-writer.c: the generator's buffered output files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "neuron-gen-private.h"

#define FLUSH_BYTES    (1 << 20)

gboolean
neuron_gen_writer_open (NeuronGenWriter  *w,
                        const char       *path,
                        GError          **error)
{
  w->tmp_path = g_strdup_printf ("%s.tmp", path);
  w->file = g_fopen (w->tmp_path, "wb");
  if (w->file == NULL)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "%s: %s", w->tmp_path, g_strerror (saved));
      g_clear_pointer (&w->tmp_path, g_free);
      return FALSE;
    }
  w->buf = g_string_sized_new (FLUSH_BYTES + 4096);
  w->written = 0;
  w->failed = FALSE;
  return TRUE;
}

/* A writer without a file: it measures what would be written. */
void
neuron_gen_writer_count (NeuronGenWriter *w)
{
  memset (w, 0, sizeof *w);
  w->buf = g_string_sized_new (FLUSH_BYTES + 4096);
}

static void
writer_flush (NeuronGenWriter *w)
{
  if (w->file != NULL && w->buf->len > 0 && fwrite (w->buf->str, 1, w->buf->len, w->file) != w->buf->len)
    w->failed = TRUE;
  w->written += w->buf->len;
  g_string_truncate (w->buf, 0);
}

guint64
neuron_gen_writer_offset (const NeuronGenWriter *w)
{
  return w->written + w->buf->len;
}

void
neuron_gen_put (NeuronGenWriter *w,
                const char      *format,
                ...)
{
  va_list args;

  va_start (args, format);
  g_string_append_vprintf (w->buf, format, args);
  va_end (args);
  if (w->buf->len >= FLUSH_BYTES)
    writer_flush (w);
}

/* Finishes the file and renames it into place, or removes it; a counting
 * writer only gives its size. */
gboolean
neuron_gen_writer_close (NeuronGenWriter  *w,
                         const char       *path,
                         guint64          *bytes,
                         GError          **error)
{
  gboolean ok = TRUE;

  writer_flush (w);
  if (w->file != NULL)
    {
      ok = !w->failed && fflush (w->file) == 0;
      if (fclose (w->file) != 0)
        ok = FALSE;
      if (ok && g_rename (w->tmp_path, path) != 0)
        ok = FALSE;
    }
  if (!ok)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "%s: %s", path, g_strerror (saved));
      g_unlink (w->tmp_path);
    }
  else if (bytes)
    *bytes = w->written;
  g_string_free (w->buf, TRUE);
  g_clear_pointer (&w->tmp_path, g_free);
  return ok;
}

void
neuron_gen_put_int (NeuronGenWriter        *w,
                    const NeuronGenOptions *o,
                    const char             *key,
                    gint64                  value)
{
  neuron_gen_put (w, o->string_numbers ? "\"%s\": \"%" G_GINT64_FORMAT "\"" : "\"%s\": %" G_GINT64_FORMAT,
                  key, value);
}

void
neuron_gen_put_uint (NeuronGenWriter        *w,
                     const NeuronGenOptions *o,
                     guint64                 value)
{
  neuron_gen_put (w, o->string_numbers ? "\"%" G_GUINT64_FORMAT "\"" : "%" G_GUINT64_FORMAT, value);
}
