/* chrono-source.c
 *
 * Plain files are mapped and done. Compressed input is inflated by a worker
 * thread straight into one big reservation of address space that is made
 * writable chunk by chunk, so the output never moves and readers can scan
 * it while it grows. Beyond a few megabytes the chunks are an unlinked
 * file's (chrono-text-file.c), so the text's pages can be dropped like
 * those of a plain file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <libdeflate.h>
#include <zlib.h>
#include <zstd.h>

#include "chrono-source.h"
#include "chrono-text-file.h"

/* Made writable at a time; the reservation is only address space. */
#define COMMIT_CHUNK  ((gsize) 64 << 20)
/* Output published to readers at a time, so they overlap the worker. */
#define PUBLISH_STEP  ((gsize) 2 << 20)
/* Output below this size is kept in ordinary pages. */
#define SMALL_OUTPUT  ((gsize) 8 << 20)
/* Zero bytes kept readable after the output, for scanners' sentinels. */
#define SLACK         ((gsize) 64)
/* zlib counts input in uInt. */
#define INFLATE_FEED  ((gsize) 1 << 30)
/* Deflate cannot expand data more than this. */
#define DEFLATE_MAX_RATIO 1032
/* Outputs from this size have their pages made ready by a second thread
 * while libdeflate fills them: zeroing fresh pages costs as much as
 * inflating into them. */
#define PREFAULT_MIN  ((gsize) 16 << 20)
#define PREFAULT_STEP ((gsize) 4 << 20)

#if GLIB_SIZEOF_VOID_P == 8
#define RESERVE_MIN   ((guint64) 64 << 30)
#define RESERVE_MAX   ((guint64) 16 << 40)
#else
#define RESERVE_MIN   ((guint64) 1 << 30)
#define RESERVE_MAX   ((guint64) 2 << 30)
#endif
#define RESERVE_FLOOR ((guint64) 256 << 20)

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 0
#define MADV_POPULATE_WRITE 0
#endif

/* A thread that makes pages ready ahead of those who use them. */
typedef struct {
  guint8 *start;
  gsize   size;
  int     advice;
  gint    stop;   /* atomic */
} Prefault;

struct _ChronoSource
{
  gatomicrefcount   ref_count;
  char             *path;          /* NULL for bytes */
  char             *display_name;  /* UTF-8, for messages */
  ChronoCompression compression;

  /* Input: a mapping of the file, or BYTES. */
  const guint8     *in;
  gsize             in_size;
  void             *in_map;
  GBytes           *bytes;

  /* Output: IN itself when plain, else the reservation. */
  const guint8     *data;
  guint8           *reserve;
  gsize             reserve_size;
  ChronoTextFile   *text_file;     /* NULL: anonymous memory */
  gsize             committed;     /* worker only */

  gsize             available;     /* atomic */
  gsize             file_read;     /* atomic */
  gint              finished;      /* atomic */
  gint              cancelled;     /* atomic */
  gboolean          whole_tried;   /* libdeflate had its go at gzip */
  gboolean          whole_done;    /* and inflated the first member */

  GMutex            mutex;
  GCond             cond;
  GError           *error;         /* under MUTEX */
  GThread          *thread;
  Prefault          in_prefault;   /* of a plain file's mapping */
  GThread          *in_prefaulter;
};

static const guint8 empty_data[SLACK];

static gpointer
prefault_main (gpointer data)
{
  Prefault *pf = data;

  /* Only page tables change: bytes already written stay as they are.
   * Kernels before 5.14 refuse, and the readers and writers fault the
   * pages themselves. */
  for (gsize off = 0; off < pf->size && !g_atomic_int_get (&pf->stop); off += PREFAULT_STEP)
    if (madvise (pf->start + off, MIN (PREFAULT_STEP, pf->size - off), pf->advice) != 0)
      break;
  return NULL;
}

static GThread *
prefault_start (Prefault *pf,
                guint8   *start,
                gsize     size,
                int       advice)
{
  pf->start = start;
  pf->size = size;
  pf->advice = advice;
  pf->stop = FALSE;
  if (size < PREFAULT_MIN || advice == 0)
    return NULL;
  return g_thread_try_new ("chrono-prefault", prefault_main, pf, NULL);
}

static void
prefault_stop (Prefault  *pf,
               GThread  **thread)
{
  if (*thread == NULL)
    return;
  g_atomic_int_set (&pf->stop, TRUE);
  g_thread_join (g_steal_pointer (thread));
}

static ChronoSource *
source_new (const char *path)
{
  ChronoSource *self = g_new0 (ChronoSource, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->path = g_strdup (path);
  self->display_name = path ? g_filename_display_name (path)
                            : g_strdup ("(memory)");
  g_mutex_init (&self->mutex);
  g_cond_init (&self->cond);

  return self;
}

static void
source_free (ChronoSource *self)
{
  if (self->thread != NULL)
    {
      g_atomic_int_set (&self->cancelled, TRUE);
      g_thread_join (self->thread);
    }
  prefault_stop (&self->in_prefault, &self->in_prefaulter);

  if (self->reserve != NULL)
    munmap (self->reserve, self->reserve_size);
  g_clear_pointer (&self->text_file, chrono_text_file_free);
  if (self->in_map != NULL)
    munmap (self->in_map, self->in_size);
  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_clear_error (&self->error);
  g_mutex_clear (&self->mutex);
  g_cond_clear (&self->cond);
  g_free (self->path);
  g_free (self->display_name);
  g_free (self);
}

static gboolean
is_cancelled (ChronoSource *self)
{
  return g_atomic_int_get (&self->cancelled);
}

static void
publish (ChronoSource *self,
         gsize         produced,
         gsize         consumed)
{
  __atomic_store_n (&self->file_read, consumed, __ATOMIC_RELAXED);
  __atomic_store_n (&self->available, produced, __ATOMIC_RELEASE);

  /* Storing outside the lock is fine: waiters re-check under it. */
  g_mutex_lock (&self->mutex);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->mutex);
}

static void
finish (ChronoSource *self,
        GError       *error)
{
  gsize available = __atomic_load_n (&self->available, __ATOMIC_RELAXED);

  /* A decoder failing midway may have written past what it reported. */
  memset (self->reserve + available, 0, SLACK);

  /* The rest of the last chunk holds nothing: give it back. */
  {
    gsize page = sysconf (_SC_PAGESIZE);
    gsize used = (available + SLACK + page - 1) / page * page;

    if (self->text_file != NULL)
      chrono_text_file_trim (self->text_file, used);
    else if (used < self->committed)
      madvise (self->reserve + used, self->committed - used, MADV_DONTNEED);
  }

  /* Trailing padding or a zip's directory count as read for progress. */
  if (error == NULL)
    __atomic_store_n (&self->file_read, self->in_size, __ATOMIC_RELAXED);

  g_mutex_lock (&self->mutex);
  self->error = error;
  __atomic_store_n (&self->finished, TRUE, __ATOMIC_RELEASE);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->mutex);
}

static gboolean
set_cancelled (ChronoSource  *self,
               gsize          consumed,
               GError       **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
               "%s: decompression cancelled at byte %" G_GSIZE_FORMAT,
               self->display_name, consumed);
  return FALSE;
}

static gboolean
set_truncated (ChronoSource  *self,
               gsize          consumed,
               const char    *what,
               GError       **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
               "%s: compressed data ends early at byte %" G_GSIZE_FORMAT
               " (%s incomplete)",
               self->display_name, consumed, what);
  return FALSE;
}

static gboolean
set_corrupt (ChronoSource  *self,
             gsize          consumed,
             const char    *format,
             const char    *reason,
             GError       **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               "%s: corrupt compressed data at byte %" G_GSIZE_FORMAT
               " (%s: %s)",
               self->display_name, consumed, format, reason);
  return FALSE;
}

/* Makes the reservation writable up to END: the text file's blocks, or
 * anonymous memory. */
static gboolean
commit_output (ChronoSource  *self,
               gsize          end,
               GError       **error)
{
  gsize grow = end - self->committed;

  if (end <= self->committed)
    return TRUE;
  if (self->text_file != NULL)
    {
      if (!chrono_text_file_commit (self->text_file, self->reserve, self->committed, grow, error))
        return FALSE;
    }
  else if (mprotect (self->reserve + self->committed, grow, PROT_READ | PROT_WRITE) != 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   "%s: cannot grow the decompression buffer past %" G_GSIZE_FORMAT " bytes: %s",
                   self->display_name, self->committed, g_strerror (errsv));
      return FALSE;
    }
  self->committed = end;
  return TRUE;
}

/* Makes the next window after PRODUCED writable and returns its size,
 * always leaving SLACK untouched bytes after it. */
static gboolean
ensure_room (ChronoSource  *self,
             gsize          produced,
             gsize         *room,
             GError       **error)
{
  if (self->committed - produced < SLACK + PUBLISH_STEP
      && self->committed < self->reserve_size
      && !commit_output (self, self->committed + MIN (COMMIT_CHUNK, self->reserve_size - self->committed),
                         error))
    return FALSE;

  *room = MIN (PUBLISH_STEP, self->committed - SLACK - produced);
  if (*room == 0)
    {
      g_autofree char *size = g_format_size_full (self->reserve_size,
                                                  G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   "%s: decompressed data is larger than %s",
                   self->display_name, size);
      return FALSE;
    }

  return TRUE;
}

/* Inflates IN[OFFSET, END) into the output from PRODUCED on. WINDOW_BITS
 * selects gzip (which may hold several members) or the raw deflate of a
 * zip entry. */
static gboolean
decode_deflate (ChronoSource  *self,
                gsize          offset,
                gsize          end,
                gsize          produced,
                int            window_bits,
                const char    *format,
                GError       **error)
{
  gboolean gzip = window_bits > 15;
  z_stream zs = { 0 };
  gsize consumed = offset;
  gboolean ok = FALSE;

  if (inflateInit2 (&zs, window_bits) != Z_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "%s: cannot start %s decompression: %s",
                   self->display_name, format, zs.msg ? zs.msg : "zlib error");
      return FALSE;
    }

  zs.next_in = (Bytef *) self->in + offset;

  for (;;)
    {
      gsize room;
      int ret;

      if (is_cancelled (self))
        {
          set_cancelled (self, consumed, error);
          break;
        }
      if (!ensure_room (self, produced, &room, error))
        break;

      if (zs.avail_in == 0)
        zs.avail_in = MIN (end - consumed, INFLATE_FEED);
      zs.next_out = self->reserve + produced;
      zs.avail_out = room;

      ret = inflate (&zs, Z_NO_FLUSH);

      produced += room - zs.avail_out;
      consumed = zs.next_in - self->in;
      publish (self, produced, consumed);

      if (ret == Z_STREAM_END)
        {
          /* Concatenated members; anything else after a member is ignored
           * like gzip(1) does. */
          if (gzip && end - consumed >= 2
              && self->in[consumed] == 0x1f && self->in[consumed + 1] == 0x8b)
            {
              inflateReset (&zs);
              continue;
            }
          ok = TRUE;
          break;
        }
      else if (ret == Z_OK || ret == Z_BUF_ERROR)
        {
          /* Output room left means the input ran out. */
          if (zs.avail_out > 0 && zs.avail_in == 0 && consumed == end)
            {
              set_truncated (self, consumed,
                             gzip ? "gzip stream" : "zip entry", error);
              break;
            }
        }
      else if (ret == Z_MEM_ERROR)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       "%s: out of memory decompressing at byte %"
                       G_GSIZE_FORMAT, self->display_name, consumed);
          break;
        }
      else
        {
          set_corrupt (self, consumed, format,
                       zs.msg ? zs.msg : "invalid data", error);
          break;
        }
    }

  inflateEnd (&zs);
  return ok;
}

static gsize
gzip_isize (ChronoSource *self)
{
  const guint8 *trailer = self->in + self->in_size - 4;

  if (self->in_size < 18)
    return 0;
  return trailer[0] | (trailer[1] << 8) | (trailer[2] << 16) | ((gsize) trailer[3] << 24);
}

/* Anything after a member other than another member is ignored, like
 * gzip(1) does. */
static gboolean
gzip_member_at (ChronoSource *self,
                gsize         offset)
{
  return self->in_size - offset >= 2 && self->in[offset] == 0x1f && self->in[offset + 1] == 0x8b;
}

/* The first gzip member in one call to libdeflate, which inflates about
 * three times as fast as zlib but only whole buffers: the trailer's ISIZE
 * (the last member's size modulo 4 GiB) says how much room to make.
 * Nothing is published until it is done. FALSE when it cannot be used (a
 * size it does not give, damaged or truncated data, cancellation): zlib
 * then starts over and says what is wrong and where. */
static gboolean
decode_gzip_whole (ChronoSource *self,
                   gsize        *consumed,
                   gsize        *produced)
{
  struct libdeflate_decompressor *d;
  gsize size = gzip_isize (self);
  gsize commit;
  enum libdeflate_result ret;
  Prefault prefault;
  GThread *prefaulter = NULL;

  self->whole_tried = TRUE;
  if (size == 0 || size / DEFLATE_MAX_RATIO > self->in_size || size > self->reserve_size - SLACK)
    return FALSE;

  commit = MIN (size + SLACK + COMMIT_CHUNK - 1, self->reserve_size);
  commit -= commit % COMMIT_CHUNK;
  if (!commit_output (self, commit, NULL))
    return FALSE;

  d = libdeflate_alloc_decompressor ();
  if (d == NULL)
    return FALSE;
  prefaulter = prefault_start (&prefault, self->reserve, size, MADV_POPULATE_WRITE);
  ret = libdeflate_gzip_decompress_ex (d, self->in, self->in_size, self->reserve, size,
                                       consumed, produced);
  libdeflate_free_decompressor (d);
  prefault_stop (&prefault, &prefaulter);
  if (ret != LIBDEFLATE_SUCCESS || is_cancelled (self))
    {
      *consumed = *produced = 0;
      return FALSE;
    }
  publish (self, *produced, *consumed);
  self->whole_done = TRUE;
  return TRUE;
}

/* Gzip data: whole by libdeflate when it can, else (and for members after
 * the first) streamed through zlib. */
static gboolean
decode_gzip (ChronoSource  *self,
             GError       **error)
{
  gsize consumed = __atomic_load_n (&self->file_read, __ATOMIC_RELAXED);
  gsize produced = __atomic_load_n (&self->available, __ATOMIC_RELAXED);

  /* What source_start() inflated already stays. */
  if (!self->whole_tried)
    decode_gzip_whole (self, &consumed, &produced);
  if (self->whole_done && !gzip_member_at (self, consumed))
    return TRUE;
  return decode_deflate (self, consumed, self->in_size, produced, 16 + 15, "gzip", error);
}

static gboolean
decode_zstd (ChronoSource  *self,
             GError       **error)
{
  ZSTD_DCtx *dctx = ZSTD_createDCtx ();
  ZSTD_inBuffer zin = { self->in, self->in_size, 0 };
  gsize produced = 0;
  gboolean ok = FALSE;

  if (dctx == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "%s: cannot start zstd decompression",
                   self->display_name);
      return FALSE;
    }

  /* Accept frames written with --long. */
  ZSTD_DCtx_setParameter (dctx, ZSTD_d_windowLogMax,
                          GLIB_SIZEOF_VOID_P == 8 ? 31 : 30);

  for (;;)
    {
      ZSTD_outBuffer zout;
      gsize room;
      size_t ret;

      if (is_cancelled (self))
        {
          set_cancelled (self, zin.pos, error);
          break;
        }
      if (!ensure_room (self, produced, &room, error))
        break;

      zout.dst = self->reserve + produced;
      zout.size = room;
      zout.pos = 0;

      ret = ZSTD_decompressStream (dctx, &zout, &zin);
      if (ZSTD_isError (ret))
        {
          set_corrupt (self, zin.pos, "zstd", ZSTD_getErrorName (ret), error);
          break;
        }

      produced += zout.pos;
      publish (self, produced, zin.pos);

      /* All input taken and output not full: nothing more is buffered. */
      if (zin.pos == zin.size && zout.pos < zout.size)
        {
          if (ret != 0)
            set_truncated (self, zin.pos, "zstd frame", error);
          else
            ok = TRUE;
          break;
        }
    }

  ZSTD_freeDCtx (dctx);
  return ok;
}

static guint16
read_le16 (const guint8 *p)
{
  return p[0] | (p[1] << 8);
}

static guint32
read_le32 (const guint8 *p)
{
  return p[0] | (p[1] << 8) | (p[2] << 16) | ((guint32) p[3] << 24);
}

static guint64
read_le64 (const guint8 *p)
{
  return read_le32 (p) | ((guint64) read_le32 (p + 4) << 32);
}

/* The compressed size from a zip64 extra field; the uncompressed size
 * precedes it only when its 32-bit field overflowed too. */
static gboolean
zip64_size (const guint8 *extra,
            gsize         extra_len,
            guint32       size32,
            guint64      *size)
{
  gsize skip = size32 == 0xffffffff ? 8 : 0;

  while (extra_len >= 4)
    {
      guint16 id = read_le16 (extra);
      guint16 len = read_le16 (extra + 2);

      if (4 + (gsize) len > extra_len)
        break;
      if (id == 0x0001 && len >= skip + 8)
        {
          *size = read_le64 (extra + 4 + skip);
          return TRUE;
        }
      extra += 4 + len;
      extra_len -= 4 + len;
    }

  return FALSE;
}

/* The first entry's compressed size from the central directory, for
 * entries that only record it after their data. */
static gboolean
zip_central_size (ChronoSource *self,
                  guint64      *size)
{
  const guint8 *p = self->in;
  gsize n = self->in_size;
  gsize lowest;
  gsize cd;

  if (n < 22)
    return FALSE;

  lowest = n - 22 > 0xffff ? n - 22 - 0xffff : 0;
  for (gsize eocd = n - 22; ; eocd--)
    {
      if (read_le32 (p + eocd) == 0x06054b50)
        {
          cd = read_le32 (p + eocd + 16);
          if (cd > n || n - cd < 46 || read_le32 (p + cd) != 0x02014b50)
            return FALSE;

          *size = read_le32 (p + cd + 20);
          if (*size == 0xffffffff)
            {
              gsize extra = cd + 46 + read_le16 (p + cd + 28);
              gsize extra_len = read_le16 (p + cd + 30);

              return extra + extra_len <= n
                     && zip64_size (p + extra, extra_len,
                                    read_le32 (p + cd + 24), size);
            }
          return TRUE;
        }
      if (eocd == lowest)
        return FALSE;
    }
}

static gboolean
decode_stored (ChronoSource  *self,
               gsize          offset,
               guint64        size,
               GError       **error)
{
  gsize start = offset;
  gsize end = size > self->in_size - start ? self->in_size : start + size;
  gsize produced = 0;

  while (offset < end)
    {
      gsize room;
      gsize n;

      if (is_cancelled (self))
        return set_cancelled (self, offset, error);
      if (!ensure_room (self, produced, &room, error))
        return FALSE;

      n = MIN (room, end - offset);
      memcpy (self->reserve + produced, self->in + offset, n);
      produced += n;
      offset += n;
      publish (self, produced, offset);
    }

  if (end - start < size)
    return set_truncated (self, end, "zip entry", error);

  return TRUE;
}

/* Only the first entry is read: a zip holds one trace. */
static gboolean
decode_zip (ChronoSource  *self,
            GError       **error)
{
  const guint8 *p = self->in;
  gsize n = self->in_size;
  guint16 flags, method, name_len, extra_len;
  guint32 size32;
  guint64 size;
  gsize offset;

  if (n < 30)
    return set_truncated (self, n, "zip header", error);

  flags = read_le16 (p + 6);
  method = read_le16 (p + 8);
  size32 = read_le32 (p + 18);
  name_len = read_le16 (p + 26);
  extra_len = read_le16 (p + 28);
  offset = 30 + name_len + extra_len;
  if (offset > n)
    return set_truncated (self, n, "zip header", error);

  if (flags & 0x0001)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "%s: the zip entry is encrypted", self->display_name);
      return FALSE;
    }

  switch (method)
    {
    case 8:
      /* Deflate ends itself, so sizes recorded later do not matter. */
      return decode_deflate (self, offset, n, 0, -15, "zip", error);

    case 0:
      size = size32;
      if (size32 == 0xffffffff)
        {
          if (!zip64_size (p + 30 + name_len, extra_len,
                           read_le32 (p + 22), &size))
            return set_corrupt (self, 30, "zip", "missing zip64 sizes", error);
        }
      else if ((flags & 0x0008) && size32 == 0)
        {
          if (!zip_central_size (self, &size))
            return set_corrupt (self, n, "zip",
                                "no central directory for the entry's size",
                                error);
        }
      return decode_stored (self, offset, size, error);

    default:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "%s: the zip entry uses compression method %u; "
                   "only stored and deflate are supported",
                   self->display_name, method);
      return FALSE;
    }
}

static gpointer
decompress_thread (gpointer data)
{
  ChronoSource *self = data;
  GError *error = NULL;

  switch (self->compression)
    {
    case CHRONO_COMPRESSION_GZIP:
      decode_gzip (self, &error);
      break;
    case CHRONO_COMPRESSION_ZSTD:
      decode_zstd (self, &error);
      break;
    case CHRONO_COMPRESSION_ZIP:
      decode_zip (self, &error);
      break;
    case CHRONO_COMPRESSION_NONE:
    default:
      g_assert_not_reached ();
    }

  finish (self, error);
  return NULL;
}

static ChronoCompression
sniff (const guint8 *p,
       gsize         n)
{
  if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
    return CHRONO_COMPRESSION_GZIP;
  if (n >= 4 && memcmp (p, "\x28\xb5\x2f\xfd", 4) == 0)
    return CHRONO_COMPRESSION_ZSTD;
  if (n >= 4 && memcmp (p, "PK\x03\x04", 4) == 0)
    return CHRONO_COMPRESSION_ZIP;
  return CHRONO_COMPRESSION_NONE;
}

/* The size of the text where the file says it (a lower bound where later
 * members or frames may follow), else 0. */
static guint64
known_output_size (ChronoSource *self)
{
  switch (self->compression)
    {
    case CHRONO_COMPRESSION_GZIP:
      {
        /* ISIZE is modulo 4 GiB: a lower bound for larger text. */
        guint64 isize = gzip_isize (self);

        return isize / DEFLATE_MAX_RATIO <= self->in_size ? isize : 0;
      }
    case CHRONO_COMPRESSION_ZSTD:
      {
        unsigned long long n = ZSTD_getFrameContentSize (self->in, self->in_size);

        return n == ZSTD_CONTENTSIZE_UNKNOWN || n == ZSTD_CONTENTSIZE_ERROR ? 0 : n;
      }
    case CHRONO_COMPRESSION_ZIP:
      {
        guint32 size32 = self->in_size >= 30 ? read_le32 (self->in + 22) : 0;

        return size32 == 0xffffffff ? 0 : size32;
      }
    case CHRONO_COMPRESSION_NONE:
    default:
      return 0;
    }
}

/* Text of more than a few megabytes goes to an unlinked file, whose room
 * is checked before anything is read. JSON shrinks about tenfold, so a
 * file from 512 KB may hold that much whatever its header says (a later
 * gzip member's size is all its trailer tells). */
static gboolean
choose_output (ChronoSource  *self,
               GError       **error)
{
  guint64 known = known_output_size (self);
  g_autoptr(GError) local_error = NULL;

  if (MAX (known, (guint64) self->in_size * 16) <= SMALL_OUTPUT)
    return TRUE;
  self->text_file = chrono_text_file_new (self->display_name, known, &local_error);
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NO_SPACE))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  /* Where no file can be made at all (read-only folders), memory will do. */
  return TRUE;
}

static gboolean
reserve_output (ChronoSource  *self,
                GError       **error)
{
  guint64 want = MAX (RESERVE_MIN, (guint64) self->in_size * 64);
  void *p;

  want = MIN (want, RESERVE_MAX);
  want -= want % COMMIT_CHUNK;

  /* Address-space limits (ulimit -v, small VA) may refuse big ranges. */
  while ((p = mmap (NULL, want, PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                    -1, 0)) == MAP_FAILED)
    {
      int errsv = errno;

      if (want / 2 < RESERVE_FLOOR)
        {
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       "%s: cannot reserve address space to decompress "
                       "into: %s", self->display_name, g_strerror (errsv));
          return FALSE;
        }
      want /= 2;
      want -= want % COMMIT_CHUNK;
    }

  self->reserve = p;
  self->reserve_size = want;
  self->data = self->reserve;

#ifdef MADV_HUGEPAGE
  /* Faulting in 4 KiB pages otherwise costs as much as inflating; but a
   * small output would be rounded up to a whole 2 MiB page. */
  madvise (self->reserve + SMALL_OUTPUT, self->reserve_size - SMALL_OUTPUT, MADV_HUGEPAGE);
#endif

  /* Readers may look at the slack before the worker writes anything. */
  return choose_output (self, error) && commit_output (self, COMMIT_CHUNK, error);
}

/* Takes IN and IN_SIZE as set by the caller; consumes SELF on error. */
static ChronoSource *
source_start (ChronoSource  *self,
              GError       **error)
{
  if (self->in == NULL)
    self->in = empty_data;

  self->compression = sniff (self->in, self->in_size);

  if (self->compression == CHRONO_COMPRESSION_NONE)
    {
      /* The scanners read the mapping from two places at once; a third
       * thread maps its pages ahead of them, a fault per 4 MB step where
       * they would take one per 64 KB. */
      if (self->in_map != NULL)
        self->in_prefaulter = prefault_start (&self->in_prefault, self->in_map, self->in_size,
                                              MADV_POPULATE_READ);
      self->data = self->in;
      self->available = self->in_size;
      self->file_read = self->in_size;
      self->finished = TRUE;
      return self;
    }

  if (self->in_map != NULL)
    madvise (self->in_map, self->in_size, MADV_SEQUENTIAL);

  if (!reserve_output (self, error))
    goto fail;

  /* A small gzip file is inflated before a thread could start: libdeflate
   * takes it whole, and its size bounds the work. The rest of a file of
   * several members still streams on the worker. */
  if (self->compression == CHRONO_COMPRESSION_GZIP && gzip_isize (self) <= SMALL_OUTPUT)
    {
      gsize consumed, produced;

      if (decode_gzip_whole (self, &consumed, &produced) && !gzip_member_at (self, consumed))
        {
          finish (self, NULL);
          return self;
        }
    }

  self->thread = g_thread_try_new ("chrono-source", decompress_thread,
                                   self, error);
  if (self->thread == NULL)
    {
      g_prefix_error (error, "%s: ", self->display_name);
      goto fail;
    }

  return self;

fail:
  source_free (self);
  return NULL;
}

static gboolean
set_errno_error (const char  *path,
                 int          errsv,
                 GError     **error)
{
  g_autofree char *name = g_filename_display_name (path);

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
               "%s: %s", name, g_strerror (errsv));
  return FALSE;
}

/* Pipes and devices cannot be mapped, so they are read whole. */
static GBytes *
read_all (int          fd,
          const char  *path,
          GError     **error)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  gsize len = 0;

  for (;;)
    {
      gssize n;

      if (buf->len - len < 65536)
        g_byte_array_set_size (buf, MAX (buf->len * 2, len + 65536));
      n = read (fd, buf->data + len, buf->len - len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          set_errno_error (path, errno, error);
          return NULL;
        }
      if (n == 0)
        break;
      len += n;
    }

  g_byte_array_set_size (buf, len);
  return g_byte_array_free_to_bytes (g_steal_pointer (&buf));
}

ChronoSource *
chrono_source_open (const char  *path,
                    GError     **error)
{
  ChronoSource *self;
  struct stat st;
  void *map = NULL;
  GBytes *bytes = NULL;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      set_errno_error (path, errno, error);
      return NULL;
    }

  if (fstat (fd, &st) != 0)
    {
      set_errno_error (path, errno, error);
      close (fd);
      return NULL;
    }

  if (S_ISDIR (st.st_mode))
    {
      set_errno_error (path, EISDIR, error);
      close (fd);
      return NULL;
    }

  if (!S_ISREG (st.st_mode))
    {
      bytes = read_all (fd, path, error);
      close (fd);
      if (bytes == NULL)
        return NULL;
    }
  else if (st.st_size > 0)
    {
      if ((guint64) st.st_size > G_MAXSIZE)
        {
          set_errno_error (path, EFBIG, error);
          close (fd);
          return NULL;
        }

      map = mmap (NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (map == MAP_FAILED)
        {
          int errsv = errno;
          g_autofree char *name = g_filename_display_name (path);

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       "%s: cannot map the file: %s",
                       name, g_strerror (errsv));
          close (fd);
          return NULL;
        }
    }
  close (fd);

  self = source_new (path);
  if (bytes != NULL)
    {
      self->bytes = bytes;
      self->in = g_bytes_get_data (bytes, &self->in_size);
    }
  else if (map != NULL)
    {
      self->in_map = map;
      self->in = map;
      self->in_size = st.st_size;
    }

  return source_start (self, error);
}

ChronoSource *
chrono_source_new_for_bytes (GBytes  *bytes,
                             GError **error)
{
  ChronoSource *self;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = source_new (NULL);
  self->bytes = g_bytes_ref (bytes);
  self->in = g_bytes_get_data (bytes, &self->in_size);

  return source_start (self, error);
}

ChronoSource *
chrono_source_ref (ChronoSource *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
chrono_source_unref (ChronoSource *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    source_free (self);
}

const guint8 *
chrono_source_get_data (ChronoSource *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->data;
}

gsize
chrono_source_get_available (ChronoSource *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return __atomic_load_n (&self->available, __ATOMIC_ACQUIRE);
}

gsize
chrono_source_wait (ChronoSource *self,
                    gsize         at_least,
                    gboolean     *finished)
{
  gboolean done;
  gsize available;

  g_return_val_if_fail (self != NULL, 0);

  /* FINISHED first: once it is set, AVAILABLE is final. */
  done = __atomic_load_n (&self->finished, __ATOMIC_ACQUIRE);
  available = __atomic_load_n (&self->available, __ATOMIC_ACQUIRE);

  if (!done && available <= at_least)
    {
      g_mutex_lock (&self->mutex);
      for (;;)
        {
          done = __atomic_load_n (&self->finished, __ATOMIC_ACQUIRE);
          available = __atomic_load_n (&self->available, __ATOMIC_ACQUIRE);
          if (done || available > at_least)
            break;
          g_cond_wait (&self->cond, &self->mutex);
        }
      g_mutex_unlock (&self->mutex);
    }

  if (finished != NULL)
    *finished = done;
  return available;
}

gboolean
chrono_source_get_error (ChronoSource  *self,
                         GError       **error)
{
  gboolean failed = FALSE;

  g_return_val_if_fail (self != NULL, FALSE);

  g_mutex_lock (&self->mutex);
  if (self->error != NULL)
    {
      failed = TRUE;
      if (error != NULL)
        g_propagate_error (error, g_error_copy (self->error));
    }
  g_mutex_unlock (&self->mutex);

  return failed;
}

void
chrono_source_cancel (ChronoSource *self)
{
  g_return_if_fail (self != NULL);

  g_atomic_int_set (&self->cancelled, TRUE);
}

ChronoCompression
chrono_source_get_compression (ChronoSource *self)
{
  g_return_val_if_fail (self != NULL, CHRONO_COMPRESSION_NONE);

  return self->compression;
}

const char *
chrono_compression_to_string (ChronoCompression compression)
{
  switch (compression)
    {
    case CHRONO_COMPRESSION_NONE:
      return "none";
    case CHRONO_COMPRESSION_GZIP:
      return "gzip";
    case CHRONO_COMPRESSION_ZSTD:
      return "zstd";
    case CHRONO_COMPRESSION_ZIP:
      return "zip";
    default:
      return "unknown";
    }
}

const char *
chrono_source_get_text_dir (ChronoSource *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->text_file != NULL ? chrono_text_file_get_dir (self->text_file) : NULL;
}

const char *
chrono_source_get_path (ChronoSource *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->path;
}

guint64
chrono_source_get_file_read (ChronoSource *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return __atomic_load_n (&self->file_read, __ATOMIC_RELAXED);
}

guint64
chrono_source_get_file_size (ChronoSource *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->in_size;
}
