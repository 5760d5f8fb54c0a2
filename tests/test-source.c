/* test-source.c: plain and compressed sources, errors, concurrent reading
 *
 * Fixtures are written at run time into a temporary folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>
#include <zlib.h>
#include <zstd.h>

#include "chrono-source.h"

static char *tmp_dir;

static const char sample_json[] =
  "{\"traceEvents\": [\n"
  "  {\"name\": \"aten::mm\", \"ph\": \"X\", \"ts\": 1000.5, \"dur\": 12.25,"
  " \"pid\": 1, \"tid\": 7, \"cat\": \"cpu_op\", \"args\": {\"id\": 1}},\n"
  "  {\"name\": \"ampere_sgemm_128x64_nn\", \"ph\": \"X\", \"ts\": 1003,"
  " \"dur\": 40, \"pid\": 0, \"tid\": \"stream 7\", \"cat\": \"kernel\"},\n"
  "  {\"name\": \"ProfilerStep#2\", \"ph\": \"X\", \"ts\": 990, \"dur\": 100,"
  " \"pid\": 1, \"tid\": 7, \"cat\": \"user_annotation\"}\n"
  "], \"displayTimeUnit\": \"ns\"}\n";

static char *
write_fixture (const char *name,
               const void *data,
               gsize       len)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (tmp_dir, name, NULL);

  g_file_set_contents (path, data, len, &error);
  g_assert_no_error (error);
  return path;
}

static GByteArray *
gzip_compress (const void *data,
               gsize       len,
               int         level)
{
  GByteArray *out = g_byte_array_new ();
  z_stream zs = { 0 };
  int ret;

  g_assert_cmpint (deflateInit2 (&zs, level, Z_DEFLATED, 16 + 15, 8,
                                 Z_DEFAULT_STRATEGY), ==, Z_OK);
  g_byte_array_set_size (out, deflateBound (&zs, len));
  zs.next_in = (Bytef *) data;
  zs.avail_in = len;
  zs.next_out = out->data;
  zs.avail_out = out->len;
  ret = deflate (&zs, Z_FINISH);
  g_assert_cmpint (ret, ==, Z_STREAM_END);
  g_byte_array_set_size (out, zs.total_out);
  deflateEnd (&zs);

  return out;
}

static GByteArray *
raw_deflate (const void *data,
             gsize       len)
{
  GByteArray *out = g_byte_array_new ();
  z_stream zs = { 0 };

  g_assert_cmpint (deflateInit2 (&zs, 6, Z_DEFLATED, -15, 8,
                                 Z_DEFAULT_STRATEGY), ==, Z_OK);
  g_byte_array_set_size (out, deflateBound (&zs, len));
  zs.next_in = (Bytef *) data;
  zs.avail_in = len;
  zs.next_out = out->data;
  zs.avail_out = out->len;
  g_assert_cmpint (deflate (&zs, Z_FINISH), ==, Z_STREAM_END);
  g_byte_array_set_size (out, zs.total_out);
  deflateEnd (&zs);

  return out;
}

static void
append_zstd (GByteArray *out,
             const void *data,
             gsize       len)
{
  gsize start = out->len;
  gsize n;

  g_byte_array_set_size (out, start + ZSTD_compressBound (len));
  n = ZSTD_compress (out->data + start, out->len - start, data, len, 3);
  g_assert_false (ZSTD_isError (n));
  g_byte_array_set_size (out, start + n);
}

static void
put_le16 (GByteArray *out,
          guint16     v)
{
  guint8 b[2] = { v & 0xff, v >> 8 };

  g_byte_array_append (out, b, sizeof b);
}

static void
put_le32 (GByteArray *out,
          guint32     v)
{
  guint8 b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };

  g_byte_array_append (out, b, sizeof b);
}

/* One entry; STREAMED writes the sizes only after the data, as streaming
 * zip writers do, leaving the central directory as their only record. */
static GByteArray *
build_zip (const char *data,
           gsize       len,
           guint16     method,
           gboolean    streamed)
{
  static const char name[] = "trace.json";
  g_autoptr(GByteArray) body = NULL;
  GByteArray *out = g_byte_array_new ();
  guint32 crc = crc32 (0, (const Bytef *) data, len);
  guint16 flags = streamed ? 0x0008 : 0;
  gsize cd_offset;

  if (method == 8)
    body = raw_deflate (data, len);
  else
    body = g_byte_array_append (g_byte_array_new (),
                                (const guint8 *) data, len);

  put_le32 (out, 0x04034b50);
  put_le16 (out, 20);
  put_le16 (out, flags);
  put_le16 (out, method);
  put_le16 (out, 0);
  put_le16 (out, 0x21);
  put_le32 (out, streamed ? 0 : crc);
  put_le32 (out, streamed ? 0 : body->len);
  put_le32 (out, streamed ? 0 : len);
  put_le16 (out, strlen (name));
  put_le16 (out, 0);
  g_byte_array_append (out, (const guint8 *) name, strlen (name));
  g_byte_array_append (out, body->data, body->len);
  if (streamed)
    {
      put_le32 (out, 0x08074b50);
      put_le32 (out, crc);
      put_le32 (out, body->len);
      put_le32 (out, len);
    }

  cd_offset = out->len;
  put_le32 (out, 0x02014b50);
  put_le16 (out, 20);
  put_le16 (out, 20);
  put_le16 (out, flags);
  put_le16 (out, method);
  put_le16 (out, 0);
  put_le16 (out, 0x21);
  put_le32 (out, crc);
  put_le32 (out, body->len);
  put_le32 (out, len);
  put_le16 (out, strlen (name));
  put_le16 (out, 0);
  put_le16 (out, 0);
  put_le16 (out, 0);
  put_le16 (out, 0);
  put_le32 (out, 0);
  put_le32 (out, 0);
  g_byte_array_append (out, (const guint8 *) name, strlen (name));

  put_le32 (out, 0x06054b50);
  put_le16 (out, 0);
  put_le16 (out, 0);
  put_le16 (out, 1);
  put_le16 (out, 1);
  put_le32 (out, out->len - cd_offset - 4 - 2 * 4);
  put_le32 (out, cd_offset);
  put_le16 (out, 0);

  return out;
}

/* Generated trace-like text that compresses like a real trace. */
static GString *
make_large_text (gsize size)
{
  GString *s = g_string_sized_new (size + 256);
  guint32 x = 12345;
  guint64 ts = 1700000000000000;

  g_string_append (s, "{\"traceEvents\": [\n");
  while (s->len < size)
    {
      x = x * 1103515245 + 12345;
      ts += x % 977;
      g_string_append_printf (s,
                              "{\"name\": \"op_%u\", \"ph\": \"X\", "
                              "\"ts\": %" G_GUINT64_FORMAT ".%03u, "
                              "\"dur\": %u, \"pid\": %u, \"tid\": %u},\n",
                              (x >> 8) % 300, ts, x % 1000,
                              (x >> 4) % 5000, (x >> 20) % 4,
                              (x >> 12) % 16);
    }
  g_string_append (s, "{}]}\n");

  return s;
}

static gsize
wait_finished (ChronoSource *source)
{
  gboolean finished = FALSE;
  gsize available = 0;

  while (!finished)
    available = chrono_source_wait (source, G_MAXSIZE, &finished);

  return available;
}

static void
assert_slack_zero (ChronoSource *source)
{
  const guint8 *data = chrono_source_get_data (source);
  gsize available = chrono_source_get_available (source);

  for (gsize i = 0; i < 64; i++)
    g_assert_cmpuint (data[available + i], ==, 0);
}

/* Checks a source finished cleanly with exactly EXPECTED. */
static void
assert_source_content (ChronoSource *source,
                       const void   *expected,
                       gsize         len)
{
  g_autoptr(GError) error = NULL;
  gsize available = wait_finished (source);

  g_assert_cmpuint (available, ==, len);
  g_assert_cmpuint (chrono_source_get_available (source), ==, len);
  g_assert_true (memcmp (chrono_source_get_data (source), expected, len) == 0);
  g_assert_false (chrono_source_get_error (source, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_source_get_file_read (source), ==,
                    chrono_source_get_file_size (source));
}

static ChronoSource *
open_fixture (const char *name,
              const void *data,
              gsize       len)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = write_fixture (name, data, len);
  ChronoSource *source = chrono_source_open (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (source);
  g_assert_cmpstr (chrono_source_get_path (source), ==, path);
  g_assert_cmpuint (chrono_source_get_file_size (source), ==, len);

  return source;
}

static void
test_plain (void)
{
  gsize len = strlen (sample_json);
  /* The name says gzip; the content decides. */
  g_autoptr(ChronoSource) source = open_fixture ("plain.json.gz",
                                                 sample_json, len);
  gboolean finished = FALSE;

  g_assert_cmpint (chrono_source_get_compression (source), ==,
                   CHRONO_COMPRESSION_NONE);
  g_assert_cmpstr (chrono_compression_to_string (CHRONO_COMPRESSION_NONE),
                   ==, "none");
  g_assert_cmpuint (chrono_source_get_available (source), ==, len);
  g_assert_cmpuint (chrono_source_wait (source, 0, &finished), ==, len);
  g_assert_true (finished);
  g_assert_cmpuint (chrono_source_wait (source, len, &finished), ==, len);
  g_assert_true (finished);
  assert_source_content (source, sample_json, len);

  /* Nothing to stop, and nothing changes. */
  chrono_source_cancel (source);
  g_assert_false (chrono_source_get_error (source, NULL));
  g_assert_cmpuint (chrono_source_get_available (source), ==, len);
}

static void
test_plain_empty (void)
{
  g_autoptr(ChronoSource) source = open_fixture ("empty.json", "", 0);
  gboolean finished = FALSE;

  g_assert_cmpint (chrono_source_get_compression (source), ==,
                   CHRONO_COMPRESSION_NONE);
  g_assert_nonnull (chrono_source_get_data (source));
  g_assert_cmpuint (chrono_source_wait (source, 0, &finished), ==, 0);
  g_assert_true (finished);
  g_assert_false (chrono_source_get_error (source, NULL));
  g_assert_cmpuint (chrono_source_get_file_read (source), ==, 0);
}

static void
test_gzip (void)
{
  gsize len = strlen (sample_json);
  g_autoptr(GByteArray) gz = gzip_compress (sample_json, len, 6);
  /* No .gz suffix: sniffed from the magic. */
  g_autoptr(ChronoSource) source = open_fixture ("gzip.json",
                                                 gz->data, gz->len);

  g_assert_cmpint (chrono_source_get_compression (source), ==,
                   CHRONO_COMPRESSION_GZIP);
  g_assert_cmpstr (chrono_compression_to_string (CHRONO_COMPRESSION_GZIP),
                   ==, "gzip");
  assert_source_content (source, sample_json, len);
  assert_slack_zero (source);
}

static void
test_gzip_multi_member (void)
{
  gsize len = strlen (sample_json);
  g_autoptr(GByteArray) gz = g_byte_array_new ();
  gsize cuts[] = { 0, 10, 11, len / 2, len };
  g_autoptr(ChronoSource) source = NULL;

  /* Includes an empty member. */
  for (gsize i = 0; i + 1 < G_N_ELEMENTS (cuts); i++)
    {
      g_autoptr(GByteArray) member =
        gzip_compress (sample_json + cuts[i], cuts[i + 1] - cuts[i], 9);

      g_byte_array_append (gz, member->data, member->len);
    }

  source = open_fixture ("multi.gz", gz->data, gz->len);
  assert_source_content (source, sample_json, len);
  assert_slack_zero (source);
}

static void
test_gzip_trailing_junk (void)
{
  static const guint8 zeros[512];
  gsize len = strlen (sample_json);
  g_autoptr(GByteArray) gz = gzip_compress (sample_json, len, 6);
  g_autoptr(ChronoSource) source = NULL;

  /* Padding after the last member is ignored, as gzip(1) does. */
  g_byte_array_append (gz, zeros, sizeof zeros);
  source = open_fixture ("padded.gz", gz->data, gz->len);
  assert_source_content (source, sample_json, len);
}

static void
test_gzip_truncated (void)
{
  g_autoptr(GString) text = make_large_text (256 * 1024);
  g_autoptr(GByteArray) gz = gzip_compress (text->str, text->len, 6);
  g_autoptr(ChronoSource) source = NULL;
  g_autoptr(GError) error = NULL;
  gsize cut = gz->len / 2;
  gsize available;

  source = open_fixture ("truncated.json.gz", gz->data, cut);
  available = wait_finished (source);

  g_assert_cmpuint (available, >, 0);
  g_assert_cmpuint (available, <, text->len);
  g_assert_true (memcmp (chrono_source_get_data (source), text->str,
                         available) == 0);
  assert_slack_zero (source);

  g_assert_true (chrono_source_get_error (source, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT);
  g_assert_nonnull (strstr (error->message, chrono_source_get_path (source)));
  g_assert_nonnull (strstr (error->message, "truncated.json.gz"));
  g_assert_nonnull (strstr (error->message, "ends early"));
  g_assert_cmpuint (chrono_source_get_file_read (source), ==, cut);
}

static void
test_gzip_garbage (void)
{
  static const char garbage[] = "\x1f\x8b this is not a gzip stream at all, "
                                "just text after the magic bytes";
  g_autoptr(ChronoSource) source = open_fixture ("garbage.gz", garbage,
                                                 sizeof garbage - 1);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (chrono_source_get_compression (source), ==,
                   CHRONO_COMPRESSION_GZIP);
  g_assert_cmpuint (wait_finished (source), ==, 0);
  assert_slack_zero (source);
  g_assert_true (chrono_source_get_error (source, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "garbage.gz"));
  g_assert_nonnull (strstr (error->message, "at byte"));
}

typedef struct
{
  ChronoSource *source;
  const char   *expected;
  gsize         expected_len;
  guint         n_steps;
  gsize         final;
} Reader;

static gpointer
read_concurrently (gpointer data)
{
  Reader *reader = data;
  const guint8 *bytes = chrono_source_get_data (reader->source);
  guint64 last_read = 0;
  gboolean finished = FALSE;
  gsize seen = 0;

  while (!finished)
    {
      gsize available = chrono_source_wait (reader->source, seen, &finished);
      guint64 file_read = chrono_source_get_file_read (reader->source);

      g_assert_cmpuint (available, >=, seen);
      g_assert_true (available > seen || finished);
      g_assert_cmpuint (available, <=, reader->expected_len);
      g_assert_cmpuint (file_read, >=, last_read);
      /* The pointer is stable and new bytes are final once published. */
      g_assert_true (chrono_source_get_data (reader->source) == bytes);
      g_assert_true (memcmp (bytes + seen, reader->expected + seen,
                             available - seen) == 0);
      last_read = file_read;
      seen = available;
      reader->n_steps++;
    }

  reader->final = seen;
  return NULL;
}

/* A large gzip file whose first member is small: it is inflated whole,
 * and the big one after it streams out to a reader in steps. */
static void
test_gzip_large_concurrent (void)
{
  g_autoptr(GString) text = make_large_text (50 * 1000 * 1000);
  gsize first = 1000 * 1000;
  g_autoptr(GByteArray) gz = gzip_compress (text->str, first, 6);
  g_autoptr(GByteArray) rest = gzip_compress (text->str + first, text->len - first, 6);
  g_autofree char *path = NULL;
  g_autoptr(ChronoSource) source = NULL;
  g_autoptr(GError) error = NULL;
  Reader reader = { 0 };
  GThread *thread;
  gint64 start;
  double seconds;

  g_byte_array_append (gz, rest->data, rest->len);
  path = write_fixture ("large.json.gz", gz->data, gz->len);
  start = g_get_monotonic_time ();
  source = chrono_source_open (path, &error);
  g_assert_no_error (error);

  reader.source = source;
  reader.expected = text->str;
  reader.expected_len = text->len;
  thread = g_thread_new ("reader", read_concurrently, &reader);
  g_thread_join (thread);
  seconds = (g_get_monotonic_time () - start) / 1e6;

  g_assert_cmpuint (reader.final, ==, text->len);
  g_assert_cmpuint (reader.n_steps, >, 2);
  assert_source_content (source, text->str, text->len);
  assert_slack_zero (source);

  g_test_message ("gzip: %.1f MB in %.3f s: %.0f MB/s of output, %u steps",
                  text->len / 1e6, seconds, text->len / 1e6 / seconds,
                  reader.n_steps);
}

/* One member, inflated whole: the same bytes, published at once. */
static void
test_gzip_large_whole (void)
{
  g_autoptr(GString) text = make_large_text (20 * 1000 * 1000);
  g_autoptr(GByteArray) gz = gzip_compress (text->str, text->len, 6);
  g_autoptr(ChronoSource) source = open_fixture ("whole.json.gz", gz->data, gz->len);

  assert_source_content (source, text->str, text->len);
  assert_slack_zero (source);
  g_assert_false (chrono_source_get_error (source, NULL));
  g_assert_cmpuint (chrono_source_get_file_read (source), ==, gz->len);
}

/* A "Key:   123 kB" line of /proc/self/status, in bytes. */
static gint64
status_bytes (const char *key)
{
  g_autofree char *status = NULL;
  const char *line;

  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  line = strstr (status, key);
  g_assert_nonnull (line);
  return g_ascii_strtoll (line + strlen (key), NULL, 10) * 1024;
}

/* Large text lives in an unlinked file's pages, not in anonymous memory,
 * and small text stays in memory. */
static void
test_text_file (void)
{
  g_autoptr(GString) text = make_large_text (40 * 1000 * 1000);
  g_autoptr(GByteArray) gz = gzip_compress (text->str, text->len, 1);
  g_autoptr(GByteArray) small = gzip_compress (sample_json, strlen (sample_json), 6);
  g_autoptr(ChronoSource) small_source = open_fixture ("small.json.gz", small->data, small->len);
  g_autoptr(ChronoSource) source = NULL;
  gint64 anon_before = status_bytes ("\nRssAnon:");
  gint64 anon_growth;

  source = open_fixture ("text-file.json.gz", gz->data, gz->len);
  assert_source_content (source, text->str, text->len);
  assert_slack_zero (source);
  anon_growth = status_bytes ("\nRssAnon:") - anon_before;

  g_assert_nonnull (chrono_source_get_text_dir (source));
  g_assert_true (g_file_test (chrono_source_get_text_dir (source), G_FILE_TEST_IS_DIR));
  g_assert_cmpint (anon_growth, <, (gint64) text->len / 4);
  g_assert_null (chrono_source_get_text_dir (small_source));
  g_test_message ("anonymous memory grew by %" G_GINT64_FORMAT " bytes for %" G_GSIZE_FORMAT
                  " bytes of text", anon_growth, text->len);
}

typedef struct {
  struct rlimit saved;
} FileLimit;

/* The file size limit stands in for a full disk: both bound the room. */
static void
limit_files (FileLimit *limit,
             rlim_t     bytes)
{
  struct rlimit lower;

  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &limit->saved), ==, 0);
  lower = limit->saved;
  lower.rlim_cur = bytes;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &lower), ==, 0);
}

static void
unlimit_files (FileLimit *limit)
{
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit->saved), ==, 0);
}

/* Known to need more room than there is: refused before reading, saying
 * how much is needed and where. */
static void
test_text_file_no_room (void)
{
  g_autoptr(GString) text = make_large_text (30 * 1000 * 1000);
  g_autoptr(GByteArray) gz = gzip_compress (text->str, text->len, 1);
  g_autofree char *path = write_fixture ("no-room.json.gz", gz->data, gz->len);
  g_autofree char *needed = g_format_size (text->len);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoSource) source = NULL;
  FileLimit limit;

  limit_files (&limit, 16 << 20);
  source = chrono_source_open (path, &error);
  unlimit_files (&limit);

  g_assert_null (source);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, needed));
  g_assert_nonnull (strstr (error->message, "not enough disk space"));
}

/* A size the header understates (a small last gzip member): the room runs
 * out while inflating, which ends in an error, the text before it kept. */
static void
test_text_file_runs_out (void)
{
  g_autoptr(GString) text = make_large_text (100 * 1000 * 1000);
  gsize last = 1000 * 1000;
  g_autoptr(GByteArray) gz = gzip_compress (text->str, text->len - last, 1);
  g_autoptr(GByteArray) tail = gzip_compress (text->str + text->len - last, last, 1);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoSource) source = NULL;
  FileLimit limit;
  gsize available;

  g_byte_array_append (gz, tail->data, tail->len);
  path = write_fixture ("runs-out.json.gz", gz->data, gz->len);
  limit_files (&limit, 96 << 20);
  source = chrono_source_open (path, &error);
  g_assert_no_error (error);
  available = wait_finished (source);
  unlimit_files (&limit);

  g_assert_true (chrono_source_get_error (source, &error));
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "no room for more decompressed text"));
  g_assert_cmpuint (available, >, 0);
  g_assert_cmpuint (available, <, text->len);
  g_assert_true (memcmp (chrono_source_get_data (source), text->str, available) == 0);
}

static void
test_zstd (void)
{
  gsize len = strlen (sample_json);
  g_autoptr(GByteArray) zst = g_byte_array_new ();
  g_autoptr(ChronoSource) source = NULL;

  /* Two frames. */
  append_zstd (zst, sample_json, 100);
  append_zstd (zst, sample_json + 100, len - 100);
  source = open_fixture ("trace.json", zst->data, zst->len);

  g_assert_cmpint (chrono_source_get_compression (source), ==,
                   CHRONO_COMPRESSION_ZSTD);
  g_assert_cmpstr (chrono_compression_to_string (CHRONO_COMPRESSION_ZSTD),
                   ==, "zstd");
  assert_source_content (source, sample_json, len);
  assert_slack_zero (source);
}

static void
test_zstd_truncated (void)
{
  g_autoptr(GString) text = make_large_text (256 * 1024);
  g_autoptr(GByteArray) zst = g_byte_array_new ();
  g_autoptr(ChronoSource) source = NULL;
  g_autoptr(GError) error = NULL;
  gsize available;

  append_zstd (zst, text->str, text->len);
  source = open_fixture ("truncated.zst", zst->data, zst->len - 10);
  available = wait_finished (source);

  g_assert_cmpuint (available, <, text->len);
  g_assert_true (memcmp (chrono_source_get_data (source), text->str,
                         available) == 0);
  assert_slack_zero (source);
  g_assert_true (chrono_source_get_error (source, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT);
  g_assert_nonnull (strstr (error->message, "truncated.zst"));
}

static void
check_zip (const char *name,
           guint16     method,
           gboolean    streamed)
{
  gsize len = strlen (sample_json);
  g_autoptr(GByteArray) zip = build_zip (sample_json, len, method, streamed);
  g_autoptr(ChronoSource) source = open_fixture (name, zip->data, zip->len);

  g_assert_cmpint (chrono_source_get_compression (source), ==,
                   CHRONO_COMPRESSION_ZIP);
  g_assert_cmpuint (wait_finished (source), ==, len);
  g_assert_true (memcmp (chrono_source_get_data (source), sample_json,
                         len) == 0);
  g_assert_false (chrono_source_get_error (source, NULL));
  assert_slack_zero (source);
}

static void
test_zip_deflate (void)
{
  check_zip ("deflate.zip", 8, FALSE);
  g_assert_cmpstr (chrono_compression_to_string (CHRONO_COMPRESSION_ZIP),
                   ==, "zip");
}

static void
test_zip_streamed (void)
{
  check_zip ("streamed.zip", 8, TRUE);
}

static void
test_zip_stored (void)
{
  check_zip ("stored.zip", 0, FALSE);
  check_zip ("stored-streamed.zip", 0, TRUE);
}

static void
test_zip_truncated (void)
{
  gsize len = strlen (sample_json);
  g_autoptr(GByteArray) zip = build_zip (sample_json, len, 8, FALSE);
  g_autoptr(ChronoSource) source = open_fixture ("truncated.zip",
                                                 zip->data, 40);
  g_autoptr(GError) error = NULL;

  wait_finished (source);
  g_assert_true (chrono_source_get_error (source, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT);
  g_assert_nonnull (strstr (error->message, "truncated.zip"));
}

static void
test_bytes (void)
{
  gsize len = strlen (sample_json);
  g_autoptr(GByteArray) gz = gzip_compress (sample_json, len, 6);
  g_autoptr(GBytes) plain = g_bytes_new_static (sample_json, len);
  g_autoptr(GBytes) compressed =
    g_byte_array_free_to_bytes (g_steal_pointer (&gz));
  g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
  g_autoptr(ChronoSource) a = NULL;
  g_autoptr(ChronoSource) b = NULL;
  g_autoptr(ChronoSource) c = NULL;
  g_autoptr(GError) error = NULL;

  a = chrono_source_new_for_bytes (plain, &error);
  g_assert_no_error (error);
  g_assert_cmpint (chrono_source_get_compression (a), ==,
                   CHRONO_COMPRESSION_NONE);
  g_assert_null (chrono_source_get_path (a));
  assert_source_content (a, sample_json, len);

  b = chrono_source_new_for_bytes (compressed, &error);
  g_assert_no_error (error);
  g_clear_pointer (&compressed, g_bytes_unref);
  g_assert_cmpint (chrono_source_get_compression (b), ==,
                   CHRONO_COMPRESSION_GZIP);
  assert_source_content (b, sample_json, len);
  assert_slack_zero (b);

  c = chrono_source_new_for_bytes (empty, &error);
  g_assert_no_error (error);
  g_assert_nonnull (chrono_source_get_data (c));
  g_assert_cmpuint (wait_finished (c), ==, 0);
}

static void
test_open_missing (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "missing.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoSource) source = chrono_source_open (path, &error);

  g_assert_null (source);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, g_strerror (ENOENT)));
}

static void
test_open_directory (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "folder", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoSource) source = NULL;

  g_assert_cmpint (g_mkdir (path, 0700), ==, 0);
  source = chrono_source_open (path, &error);

  g_assert_null (source);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  g_assert_nonnull (strstr (error->message, path));
  g_rmdir (path);
}

/* Many members each inflating 16 MiB of zeros: gigabytes of output from a
 * small file, far more than can be produced before the cancel lands. */
static char *
write_bomb (const char *name,
            gsize      *total)
{
  gsize member_len = 16 << 20;
  g_autofree char *zeros = g_malloc0 (member_len);
  g_autoptr(GByteArray) member = gzip_compress (zeros, member_len, 9);
  g_autoptr(GByteArray) bomb = g_byte_array_new ();
  guint n_members = 256;

  for (guint i = 0; i < n_members; i++)
    g_byte_array_append (bomb, member->data, member->len);
  *total = member_len * n_members;

  return write_fixture (name, bomb->data, bomb->len);
}

static void
test_cancel (void)
{
  gsize total;
  g_autofree char *path = write_bomb ("bomb.gz", &total);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoSource) source = chrono_source_open (path, &error);
  gboolean finished = FALSE;
  gsize available;

  g_assert_no_error (error);
  available = chrono_source_wait (source, 0, &finished);
  g_assert_cmpuint (available, >, 0);
  g_assert_false (finished);

  chrono_source_cancel (source);
  available = wait_finished (source);
  g_assert_cmpuint (available, <, total);
  g_assert_cmpuint (chrono_source_get_file_read (source), <,
                    chrono_source_get_file_size (source));
  assert_slack_zero (source);

  g_assert_true (chrono_source_get_error (source, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_nonnull (strstr (error->message, "bomb.gz"));
}

static void
test_cancel_unref (void)
{
  gsize total;
  g_autofree char *path = write_bomb ("bomb-unref.gz", &total);
  g_autoptr(GError) error = NULL;
  ChronoSource *source = chrono_source_open (path, &error);
  ChronoSource *extra;
  gint64 start;

  g_assert_no_error (error);
  chrono_source_wait (source, 0, NULL);

  /* Only the last reference stops the worker. */
  extra = chrono_source_ref (source);
  chrono_source_unref (source);
  g_assert_cmpuint (chrono_source_wait (extra, 4 << 20, NULL), >, 4 << 20);

  start = g_get_monotonic_time ();
  chrono_source_unref (extra);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);
}

static void
test_traces_gz_zip (void)
{
  const char *dir = g_getenv ("CHRONO_TRACES_DIR");
  g_autofree char *gz_path = NULL;
  g_autofree char *zip_path = NULL;
  g_autoptr(ChronoSource) gz = NULL;
  g_autoptr(ChronoSource) zip = NULL;
  g_autoptr(GError) error = NULL;

  if (dir != NULL)
    {
      gz_path = g_build_filename (dir, "catapult__simple_trace_gz.gz", NULL);
      zip_path = g_build_filename (dir, "catapult__simple_trace_zip.zip", NULL);
    }
  if (dir == NULL || !g_file_test (gz_path, G_FILE_TEST_IS_REGULAR)
      || !g_file_test (zip_path, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("CHRONO_TRACES_DIR has no catapult simple traces");
      return;
    }

  gz = chrono_source_open (gz_path, &error);
  g_assert_no_error (error);
  zip = chrono_source_open (zip_path, &error);
  g_assert_no_error (error);

  g_assert_cmpint (chrono_source_get_compression (gz), ==,
                   CHRONO_COMPRESSION_GZIP);
  g_assert_cmpint (chrono_source_get_compression (zip), ==,
                   CHRONO_COMPRESSION_ZIP);
  g_assert_cmpuint (wait_finished (gz), ==, 4016);
  g_assert_cmpuint (wait_finished (zip), ==, 4016);
  g_assert_false (chrono_source_get_error (gz, NULL));
  g_assert_false (chrono_source_get_error (zip, NULL));
  g_assert_true (memcmp (chrono_source_get_data (gz),
                         chrono_source_get_data (zip), 4016) == 0);
}

static void
remove_tmp_dir (void)
{
  g_autoptr(GDir) dir = g_dir_open (tmp_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tmp_dir, name, NULL);

      g_remove (path);
    }
  g_rmdir (tmp_dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  tmp_dir = g_dir_make_tmp ("chrono-source-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/source/plain", test_plain);
  g_test_add_func ("/source/plain/empty", test_plain_empty);
  g_test_add_func ("/source/gzip", test_gzip);
  g_test_add_func ("/source/gzip/multi-member", test_gzip_multi_member);
  g_test_add_func ("/source/gzip/trailing-junk", test_gzip_trailing_junk);
  g_test_add_func ("/source/gzip/truncated", test_gzip_truncated);
  g_test_add_func ("/source/gzip/garbage", test_gzip_garbage);
  g_test_add_func ("/source/gzip/large-concurrent", test_gzip_large_concurrent);
  g_test_add_func ("/source/gzip/large-whole", test_gzip_large_whole);
  g_test_add_func ("/source/text-file", test_text_file);
  g_test_add_func ("/source/text-file/no-room", test_text_file_no_room);
  g_test_add_func ("/source/text-file/runs-out", test_text_file_runs_out);
  g_test_add_func ("/source/zstd", test_zstd);
  g_test_add_func ("/source/zstd/truncated", test_zstd_truncated);
  g_test_add_func ("/source/zip/deflate", test_zip_deflate);
  g_test_add_func ("/source/zip/streamed", test_zip_streamed);
  g_test_add_func ("/source/zip/stored", test_zip_stored);
  g_test_add_func ("/source/zip/truncated", test_zip_truncated);
  g_test_add_func ("/source/bytes", test_bytes);
  g_test_add_func ("/source/open/missing", test_open_missing);
  g_test_add_func ("/source/open/directory", test_open_directory);
  g_test_add_func ("/source/cancel", test_cancel);
  g_test_add_func ("/source/cancel/unref", test_cancel_unref);
  g_test_add_func ("/source/traces/gz-zip", test_traces_gz_zip);

  ret = g_test_run ();

  remove_tmp_dir ();
  g_free (tmp_dir);

  return ret;
}
