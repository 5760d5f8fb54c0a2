/* test-corpus.c: every real trace against an independent count
 *
 * For each file in $CHRONO_TRACES_DIR this test decompresses the file
 * itself (zlib for gzip, a small local-header reader plus raw inflate for
 * zip, libzstd for zstd), parses it with json-glib, counts the events of
 * the event array per phase, and compares that with what
 * `chronoscope-cli info --json FILE` reports. Perfetto protobuf files are
 * walked by a small protobuf reader of the test's own. Nothing here uses
 * the library's own readers, so the two counts are independent.
 *
 * A new file dropped into the traces folder becomes a new test case.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>
#include <zlib.h>
#include <zstd.h>

static const char *traces_dir;   /* NULL when absent */
static const char *cli_path;     /* NULL when absent */

typedef enum {
  CONTENT_JSON,
  CONTENT_PROTOBUF,   /* Perfetto: a stream of TracePacket fields, tag 0x0a */
  CONTENT_UNKNOWN,
} ContentKind;

typedef struct {
  GHashTable *phases;          /* ph -> count */
  guint64 events;
  guint64 spans;               /* X + B */
  guint64 counter_samples;     /* numeric args of C events */
  gboolean repaired;           /* json-glib needed the end of the file fixed */
} Expected;

/* ------------------------------------------------------------------ */
/* Decompression, independent of the library                          */

static gboolean
inflate_all (const guint8 *in,
             gsize         in_len,
             int           window_bits,
             gboolean      multi_member,
             GByteArray   *out,
             gsize        *consumed,
             GError      **error)
{
  z_stream zs = { 0 };
  guint8 buf[1 << 16];
  int ret;

  if (inflateInit2 (&zs, window_bits) != Z_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "inflateInit2 failed");
      return FALSE;
    }

  zs.next_in = (Bytef *) in;
  zs.avail_in = 0;
  for (;;)
    {
      gsize done_in = (gsize) (zs.next_in - in);

      if (zs.avail_in == 0 && done_in < in_len)
        zs.avail_in = (uInt) MIN (in_len - done_in, (gsize) G_MAXUINT32 / 2);

      zs.next_out = buf;
      zs.avail_out = sizeof buf;
      ret = inflate (&zs, Z_NO_FLUSH);
      g_byte_array_append (out, buf, sizeof buf - zs.avail_out);

      if (ret == Z_STREAM_END)
        {
          done_in = (gsize) (zs.next_in - in);
          /* gzip allows several members one after the other */
          if (multi_member && done_in < in_len && in[done_in] == 0x1f)
            {
              inflateReset (&zs);
              continue;
            }
          break;
        }
      if (ret != Z_OK && ret != Z_BUF_ERROR)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "inflate failed (%d) at input byte %" G_GSIZE_FORMAT,
                       ret, (gsize) (zs.next_in - in));
          inflateEnd (&zs);
          return FALSE;
        }
      if (ret == Z_BUF_ERROR && zs.avail_in == 0 && (gsize) (zs.next_in - in) >= in_len)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "compressed stream ends early");
          inflateEnd (&zs);
          return FALSE;
        }
    }

  if (consumed)
    *consumed = (gsize) (zs.next_in - in);
  inflateEnd (&zs);
  return TRUE;
}

static guint32
le32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

static guint16
le16 (const guint8 *p)
{
  return (guint16) (p[0] | p[1] << 8);
}

/* The first file entry of a zip archive, read from its local header. */
static gboolean
unzip_first (const guint8 *in,
             gsize         len,
             GByteArray   *out,
             GError      **error)
{
  gsize pos = 0;

  while (pos + 30 <= len && le32 (in + pos) == 0x04034b50)
    {
      const guint8 *h = in + pos;
      guint16 flags = le16 (h + 6);
      guint16 method = le16 (h + 8);
      guint32 crc = le32 (h + 14);
      guint32 csize = le32 (h + 18);
      guint16 name_len = le16 (h + 26);
      guint16 extra_len = le16 (h + 28);
      gsize data = pos + 30 + name_len + extra_len;
      gboolean has_descriptor = (flags & 0x08) != 0;
      gsize used = 0;

      if (data > len)
        break;

      /* Skip directory entries. */
      if (name_len > 0 && h[30 + name_len - 1] == '/')
        {
          if (has_descriptor)
            break;
          pos = data + csize;
          continue;
        }

      if (method == 0 && !has_descriptor)
        {
          if (data + csize > len)
            break;
          g_byte_array_append (out, in + data, csize);
        }
      else if (method == 8)
        {
          if (!inflate_all (in + data, len - data, -MAX_WBITS, FALSE, out, &used, error))
            return FALSE;
        }
      else
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       "zip method %u not supported by the test", method);
          return FALSE;
        }

      if (!has_descriptor &&
          crc32 (0L, out->data, (uInt) out->len) != crc)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "zip CRC mismatch");
          return FALSE;
        }
      return TRUE;
    }

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               "no file entry in the zip archive");
  return FALSE;
}

static gboolean
unzstd (const guint8 *in,
        gsize         len,
        GByteArray   *out,
        GError      **error)
{
  ZSTD_DStream *ds = ZSTD_createDStream ();
  ZSTD_inBuffer ib = { in, len, 0 };
  guint8 buf[1 << 16];
  gsize ret = 1;

  ZSTD_initDStream (ds);
  while (ib.pos < ib.size)
    {
      ZSTD_outBuffer ob = { buf, sizeof buf, 0 };

      ret = ZSTD_decompressStream (ds, &ob, &ib);
      if (ZSTD_isError (ret))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "zstd: %s", ZSTD_getErrorName (ret));
          ZSTD_freeDStream (ds);
          return FALSE;
        }
      g_byte_array_append (out, buf, ob.pos);
      if (ob.pos == 0 && ret != 0 && ib.pos == ib.size)
        break;
    }
  /* Flush what the decoder still holds. */
  while (ret != 0)
    {
      ZSTD_outBuffer ob = { buf, sizeof buf, 0 };

      ret = ZSTD_decompressStream (ds, &ob, &ib);
      if (ZSTD_isError (ret) || ob.pos == 0)
        break;
      g_byte_array_append (out, buf, ob.pos);
    }
  ZSTD_freeDStream (ds);
  return TRUE;
}

/* Reads PATH and returns its decompressed bytes. COMPRESSION gets the
 * name the CLI uses for the container. */
static GBytes *
read_decompressed (const char  *path,
                   const char **compression,
                   GError     **error)
{
  g_autofree char *raw = NULL;
  gsize len = 0;
  const guint8 *b;
  GByteArray *out;
  gboolean ok;

  if (!g_file_get_contents (path, &raw, &len, error))
    return NULL;
  b = (const guint8 *) raw;

  if (len >= 2 && b[0] == 0x1f && b[1] == 0x8b)
    {
      *compression = "gzip";
      out = g_byte_array_sized_new ((guint) MIN (len * 8, (gsize) G_MAXUINT / 2));
      ok = inflate_all (b, len, 16 + MAX_WBITS, TRUE, out, NULL, error);
    }
  else if (len >= 4 && b[0] == 'P' && b[1] == 'K' && b[2] == 3 && b[3] == 4)
    {
      *compression = "zip";
      out = g_byte_array_new ();
      ok = unzip_first (b, len, out, error);
    }
  else if (len >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd)
    {
      *compression = "zstd";
      out = g_byte_array_new ();
      ok = unzstd (b, len, out, error);
    }
  else
    {
      *compression = "none";
      return g_bytes_new_take (g_steal_pointer (&raw), len);
    }

  if (!ok)
    {
      g_byte_array_unref (out);
      return NULL;
    }
  return g_byte_array_free_to_bytes (out);
}

static ContentKind
sniff_content (GBytes *bytes)
{
  gsize len;
  const guint8 *d = g_bytes_get_data (bytes, &len);
  gsize i = 0;

  while (i < len && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n'))
    i++;
  /* A UTF-8 byte order mark before the JSON. */
  if (i == 0 && len >= 3 && d[0] == 0xef && d[1] == 0xbb && d[2] == 0xbf)
    {
      i = 3;
      while (i < len && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n'))
        i++;
    }
  if (i < len && (d[i] == '{' || d[i] == '['))
    return CONTENT_JSON;
  if (len > 0 && d[0] == 0x0a)
    return CONTENT_PROTOBUF;
  return CONTENT_UNKNOWN;
}

/* ------------------------------------------------------------------ */
/* Independent counting with json-glib                                 */

/* Closes a file that stops inside the event array: trailing whitespace
 * and commas go, then every bracket still open is closed. Brackets
 * inside strings are skipped. */
static char *
repair_truncated (const char *text,
                  gsize       len)
{
  GString *s = g_string_new_len (text, (gssize) len);
  GString *open = g_string_new (NULL);
  gboolean in_string = FALSE;
  gsize i;

  while (s->len > 0 && (g_ascii_isspace (s->str[s->len - 1]) || s->str[s->len - 1] == ','))
    g_string_truncate (s, s->len - 1);

  for (i = 0; i < s->len; i++)
    {
      char c = s->str[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        g_string_append_c (open, c);
      else if ((c == ']' || c == '}') && open->len > 0)
        g_string_truncate (open, open->len - 1);
    }

  while (open->len > 0)
    {
      g_string_append_c (s, open->str[open->len - 1] == '[' ? ']' : '}');
      g_string_truncate (open, open->len - 1);
    }
  g_string_free (open, TRUE);
  return g_string_free (s, FALSE);
}

static gboolean
node_is_numeric (JsonNode *node)
{
  GType t;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  t = json_node_get_value_type (node);
  if (t == G_TYPE_INT64 || t == G_TYPE_DOUBLE)
    return TRUE;
  if (t == G_TYPE_STRING)
    {
      /* Counter values may be written as numeric strings. */
      const char *str = json_node_get_string (node);
      char *end = NULL;

      if (str == NULL || *str == '\0')
        return FALSE;
      g_ascii_strtod (str, &end);
      return end != str && *end == '\0';
    }
  return FALSE;
}

static void
expected_clear (Expected *e)
{
  g_clear_pointer (&e->phases, g_hash_table_unref);
}

static void
count_events (JsonArray *array,
              Expected  *e)
{
  guint n = json_array_get_length (array);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *obj;
      JsonNode *ph_node;
      const char *ph = "";
      gpointer old;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      obj = json_node_get_object (node);
      e->events++;

      ph_node = json_object_get_member (obj, "ph");
      if (ph_node != NULL && JSON_NODE_HOLDS_VALUE (ph_node) &&
          json_node_get_value_type (ph_node) == G_TYPE_STRING)
        ph = json_node_get_string (ph_node);

      old = g_hash_table_lookup (e->phases, ph);
      g_hash_table_insert (e->phases, g_strdup (ph),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (old) + 1));

      if (strcmp (ph, "X") == 0 || strcmp (ph, "B") == 0)
        e->spans++;
      else if (strcmp (ph, "C") == 0)
        {
          JsonNode *args = json_object_get_member (obj, "args");

          if (args != NULL && JSON_NODE_HOLDS_OBJECT (args))
            {
              JsonObject *a = json_node_get_object (args);
              GList *members = json_object_get_members (a);

              for (GList *l = members; l; l = l->next)
                if (node_is_numeric (json_object_get_member (a, l->data)))
                  e->counter_samples++;
              g_list_free (members);
            }
        }
    }
}

static gboolean
expected_from_json (GBytes   *bytes,
                    Expected *e,
                    GError  **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) first_error = NULL;
  gsize len;
  const char *text = g_bytes_get_data (bytes, &len);
  JsonNode *root;
  JsonArray *events = NULL;

  memset (e, 0, sizeof *e);
  e->phases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (!json_parser_load_from_data (parser, text, (gssize) len, &first_error))
    {
      g_autofree char *fixed = repair_truncated (text, len);

      g_clear_object (&parser);
      parser = json_parser_new_immutable ();
      if (!json_parser_load_from_data (parser, fixed, -1, NULL))
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&first_error),
                                      "json-glib rejects the file, also after repair: ");
          return FALSE;
        }
      e->repaired = TRUE;
    }

  root = json_parser_get_root (parser);
  if (root != NULL && JSON_NODE_HOLDS_ARRAY (root))
    events = json_node_get_array (root);
  else if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
    {
      JsonNode *te = json_object_get_member (json_node_get_object (root), "traceEvents");

      if (te != NULL && JSON_NODE_HOLDS_ARRAY (te))
        events = json_node_get_array (te);
    }

  if (events != NULL)
    count_events (events, e);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Independent counting of Perfetto protobuf                           */

/* A second, minimal protobuf walk, written apart from the library's: it
 * knows the framing, TracePacket.timestamp (8), track_event (11) with its
 * type (9), track_uuid (11), counter values (30, 44, 12, 46) and flow ids
 * (47, 36, 48, 42), and notices the features it does not model (interned
 * data, clock ids, defaults, compressed packets). */

typedef struct {
  guint64 packets;
  guint64 events;
  guint64 types[5];             /* by TrackEvent.Type */
  guint64 spans;                /* begins, and instants with flows */
  guint64 instants;
  guint64 counter_samples;
  guint64 flows;
  guint64 tracks;               /* distinct track uuids with events */
  gint64  min_ts;
  gint64  max_ts;
  gboolean simple;              /* only what this walk models */
  gboolean truncated;
} PerfettoExpected;

typedef struct {
  gint64   ts;
  guint    index;
  GArray  *flow_ids;
  GArray  *terminating;
} FlowEvent;

static gboolean
pb_varint (const guint8 **p,
           const guint8  *end,
           guint64       *v)
{
  *v = 0;
  for (guint shift = 0; shift < 64 && *p < end; shift += 7)
    {
      guint8 b = *(*p)++;

      *v |= (guint64) (b & 0x7f) << shift;
      if (!(b & 0x80))
        return TRUE;
    }
  return FALSE;
}

/* One field: number, wire type, scalar or bytes. FALSE at the end or on
 * anything odd. */
static gboolean
pb_field (const guint8 **p,
          const guint8  *end,
          guint64       *number,
          guint         *wt,
          guint64       *value,
          const guint8 **data,
          guint64       *len)
{
  guint64 tag;

  if (*p >= end || !pb_varint (p, end, &tag))
    return FALSE;
  *number = tag >> 3;
  *wt = tag & 7;
  switch (*wt)
    {
    case 0:
      return pb_varint (p, end, value);
    case 1:
      if (end - *p < 8)
        return FALSE;
      *value = 0;
      for (guint i = 0; i < 8; i++)
        *value |= (guint64) (*p)[i] << (8 * i);
      *p += 8;
      return TRUE;
    case 5:
      if (end - *p < 4)
        return FALSE;
      *p += 4;
      return TRUE;
    case 2:
      if (!pb_varint (p, end, len) || *len > (guint64) (end - *p))
        return FALSE;
      *data = *p;
      *p += *len;
      return TRUE;
    default:
      return FALSE;
    }
}

static gint
compare_flow_events (gconstpointer a,
                     gconstpointer b)
{
  const FlowEvent *x = a;
  const FlowEvent *y = b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static void
perfetto_expected (GBytes           *bytes,
                   PerfettoExpected *e)
{
  gsize size;
  const guint8 *p = g_bytes_get_data (bytes, &size);
  const guint8 *end = p + size;
  g_autoptr(GHashTable) uuids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GArray) flow_events = g_array_new (FALSE, FALSE, sizeof (FlowEvent));
  g_autoptr(GHashTable) open = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  guint64 number, value, len;
  const guint8 *data;
  guint wt;

  memset (e, 0, sizeof *e);
  e->simple = TRUE;
  e->min_ts = G_MAXINT64;
  e->max_ts = G_MININT64;
  while (p < end)
    {
      const guint8 *q, *qend, *ev = NULL;
      guint64 ev_len = 0, ts = 0;
      gboolean has_ts = FALSE;

      if (!pb_field (&p, end, &number, &wt, &value, &data, &len) || number != 1 || wt != 2)
        {
          e->truncated = TRUE;
          break;
        }
      e->packets++;
      for (q = data, qend = data + len; pb_field (&q, qend, &number, &wt, &value, &data, &len);)
        {
          if (number == 8)
            {
              ts = value;
              has_ts = TRUE;
            }
          else if (number == 11 && wt == 2)
            {
              ev = data;
              ev_len = len;
            }
          else if (number == 12 || number == 58 || number == 59 || number == 50 || number == 44)
            e->simple = FALSE;
        }
      if (ev == NULL)
        continue;

      {
        guint64 type = 0, uuid = 0;
        gboolean has_uuid = FALSE, has_value = FALSE;
        guint64 extra = 0;
        FlowEvent f = { (gint64) ts, flow_events->len, g_array_new (FALSE, FALSE, sizeof (guint64)),
                        g_array_new (FALSE, FALSE, sizeof (guint64)) };

        e->events++;
        for (q = ev, qend = ev + ev_len; pb_field (&q, qend, &number, &wt, &value, &data, &len);)
          switch (number)
            {
            case 9: type = value; break;
            case 11: uuid = value; has_uuid = TRUE; break;
            case 30: case 44: has_value = TRUE; break;
            case 12: case 46: extra++; break;
            case 47: case 36: g_array_append_val (f.flow_ids, value); break;
            case 48: case 42: g_array_append_val (f.terminating, value); break;
            case 10: case 3: e->simple = FALSE; break;
            default: break;
            }
        if (!has_ts || !has_uuid)
          e->simple = FALSE;
        e->types[MIN (type, 4)]++;
        e->counter_samples += extra + (type == 4 && has_value);
        if (type == 1 || (type == 3 && f.flow_ids->len + f.terminating->len > 0))
          e->spans++;
        else if (type == 3)
          e->instants++;
        if (type >= 1 && type <= 4 && has_uuid && !g_hash_table_contains (uuids, &uuid))
          g_hash_table_add (uuids, g_memdup2 (&uuid, sizeof uuid));
        if (type >= 1 && type <= 4)
          {
            e->min_ts = MIN (e->min_ts, (gint64) ts);
            e->max_ts = MAX (e->max_ts, (gint64) ts);
          }
        if (type == 1 || type == 3)
          g_array_append_val (flow_events, f);
        else
          {
            g_array_unref (f.flow_ids);
            g_array_unref (f.terminating);
          }
      }
    }
  e->tracks = g_hash_table_size (uuids);

  /* A flow joins consecutive events (in time) that carry its id; a
   * terminating id ends it. */
  g_array_sort (flow_events, compare_flow_events);
  for (guint i = 0; i < flow_events->len; i++)
    {
      FlowEvent *f = &g_array_index (flow_events, FlowEvent, i);

      for (guint k = 0; k < f->flow_ids->len; k++)
        {
          guint64 id = g_array_index (f->flow_ids, guint64, k);

          if (g_hash_table_contains (open, &id))
            e->flows++;
          else
            g_hash_table_add (open, g_memdup2 (&id, sizeof id));
        }
      for (guint k = 0; k < f->terminating->len; k++)
        {
          guint64 id = g_array_index (f->terminating, guint64, k);

          if (g_hash_table_remove (open, &id))
            e->flows++;
        }
      g_array_unref (f->flow_ids);
      g_array_unref (f->terminating);
    }
}

/* ------------------------------------------------------------------ */
/* Running the CLI                                                     */

typedef struct {
  char *out;
  char *err;
  int status;        /* raw wait status */
} CliRun;

static void
cli_run_clear (CliRun *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

static void
run_cli (const char * const *files,
         CliRun             *r)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (argv, (gpointer) cli_path);
  g_ptr_array_add (argv, (gpointer) "info");
  g_ptr_array_add (argv, (gpointer) "--json");
  for (; *files; files++)
    g_ptr_array_add (argv, (gpointer) *files);
  g_ptr_array_add (argv, NULL);

  memset (r, 0, sizeof *r);
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT,
                     NULL, NULL, &r->out, &r->err, &r->status, &error))
    g_error ("cannot run %s: %s", cli_path, error->message);
}

/* Fails the test when the CLI died from a signal (crash, sanitizer
 * abort, assertion). */
static void
assert_no_crash (const CliRun *r,
                 const char   *what)
{
  if (WIFSIGNALED (r->status))
    {
      g_test_message ("stderr of the CLI:\n%s", r->err);
      g_test_fail_printf ("chronoscope-cli crashed on %s: signal %d (%s)",
                          what, WTERMSIG (r->status), g_strsignal (WTERMSIG (r->status)));
    }
}

static gboolean
cli_succeeded (const CliRun *r)
{
  return WIFEXITED (r->status) && WEXITSTATUS (r->status) == 0;
}

static char **
output_lines (const char *out)
{
  g_auto(GStrv) all = g_strsplit (out ? out : "", "\n", -1);
  GPtrArray *lines = g_ptr_array_new ();

  for (guint i = 0; all[i]; i++)
    if (all[i][0] != '\0')
      g_ptr_array_add (lines, g_strdup (all[i]));
  g_ptr_array_add (lines, NULL);
  return (char **) g_ptr_array_free (lines, FALSE);
}

static JsonNode *
parse_line (const char *line)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  if (!json_parser_load_from_data (parser, line, -1, &error))
    {
      g_test_fail_printf ("the CLI printed a line that is not JSON (%s): %.200s",
                          error->message, line);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_test_fail_printf ("the CLI printed JSON that is not an object: %.200s", line);
      return NULL;
    }
  return json_node_copy (root);
}

static const char *const contract_keys[] = {
  "file", "format", "compression", "phases", "events", "spans", "instants",
  "counter_samples", "flows", "launch_links", "processes", "tracks",
  "start_ns", "end_ns", "truncated", "dropped", "warnings", "kinds",
};

static gboolean
member_is_int (JsonObject *o,
               const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  return n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_INT64;
}

/* Checks the keys and their types; returns FALSE after failing the test. */
static gboolean
check_contract_shape (JsonObject *o,
                      const char *name)
{
  static const char *const ints[] = {
    "events", "spans", "instants", "counter_samples", "flows", "launch_links",
    "processes", "tracks", "start_ns", "end_ns", "dropped",
  };
  static const char *const strings[] = { "file", "format", "compression" };
  gboolean ok = TRUE;
  JsonNode *n;

  for (gsize i = 0; i < G_N_ELEMENTS (contract_keys); i++)
    if (!json_object_has_member (o, contract_keys[i]))
      {
        g_test_fail_printf ("%s: key \"%s\" missing from the CLI output", name, contract_keys[i]);
        ok = FALSE;
      }
  if (!ok)
    return FALSE;

  for (gsize i = 0; i < G_N_ELEMENTS (ints); i++)
    if (!member_is_int (o, ints[i]))
      {
        g_test_fail_printf ("%s: \"%s\" is not an integer", name, ints[i]);
        ok = FALSE;
      }

  n = json_object_get_member (o, "truncated");
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_BOOLEAN)
    {
      g_test_fail_printf ("%s: \"truncated\" is not a boolean", name);
      ok = FALSE;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (strings); i++)
    {
      const char *key = strings[i];

      n = json_object_get_member (o, key);
      if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
        {
          g_test_fail_printf ("%s: \"%s\" is not a string", name, key);
          ok = FALSE;
        }
    }
  if (!JSON_NODE_HOLDS_OBJECT (json_object_get_member (o, "phases")) ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (o, "kinds")))
    {
      g_test_fail_printf ("%s: \"phases\" and \"kinds\" must be objects", name);
      ok = FALSE;
    }
  n = json_object_get_member (o, "warnings");
  if (!JSON_NODE_HOLDS_ARRAY (n))
    {
      g_test_fail_printf ("%s: \"warnings\" is not a list", name);
      ok = FALSE;
    }
  else
    {
      JsonArray *w = json_node_get_array (n);

      for (guint i = 0; i < json_array_get_length (w); i++)
        {
          JsonNode *wi = json_array_get_element (w, i);

          if (!JSON_NODE_HOLDS_VALUE (wi) || json_node_get_value_type (wi) != G_TYPE_STRING)
            {
              g_test_fail_printf ("%s: warning %u is not a string", name, i);
              ok = FALSE;
              break;
            }
        }
    }
  return ok;
}

static gint64
get_int (JsonObject *o,
         const char *key)
{
  return json_object_get_int_member (o, key);
}

static void
compare_phases (JsonObject *got,
                GHashTable *want,
                const char *name)
{
  GHashTableIter it;
  gpointer key, value;
  GList *members = json_object_get_members (got);

  g_hash_table_iter_init (&it, want);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      guint64 w = GPOINTER_TO_UINT (value);

      if (!json_object_has_member (got, key))
        g_test_fail_printf ("%s: phase \"%s\": json-glib counts %" G_GUINT64_FORMAT
                            ", the CLI reports none", name, (const char *) key, w);
      else if (!member_is_int (got, key))
        g_test_fail_printf ("%s: phase \"%s\" is not an integer", name, (const char *) key);
      else if ((guint64) json_object_get_int_member (got, key) != w)
        g_test_fail_printf ("%s: phase \"%s\": json-glib counts %" G_GUINT64_FORMAT
                            ", the CLI reports %" G_GINT64_FORMAT,
                            name, (const char *) key, w,
                            json_object_get_int_member (got, key));
    }

  for (GList *l = members; l; l = l->next)
    if (!g_hash_table_contains (want, l->data))
      {
        JsonNode *n = json_object_get_member (got, l->data);

        /* A zero entry for a phase that does not occur is harmless. */
        if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_INT64 &&
            json_node_get_int (n) == 0)
          continue;
        g_test_fail_printf ("%s: the CLI reports phase \"%s\" which json-glib does not see",
                            name, (const char *) l->data);
      }
  g_list_free (members);
}

static void
compare_count (JsonObject *got,
               const char *key,
               guint64     want,
               const char *name)
{
  gint64 v = get_int (got, key);

  if (v < 0 || (guint64) v != want)
    g_test_fail_printf ("%s: %s: json-glib counts %" G_GUINT64_FORMAT
                        ", the CLI reports %" G_GINT64_FORMAT,
                        name, key, want, v);
}

/* Not part of the contract's wording, but implied by it: the per-kind
 * span counts add up to the spans, plus the async spans (b/e, S/F) when
 * the CLI reports those separately. */
static void
check_kinds_sum (JsonObject *o,
                 const char *name)
{
  JsonObject *kinds = json_object_get_object_member (o, "kinds");
  GList *members = json_object_get_members (kinds);
  gint64 sum = 0;
  gint64 spans = get_int (o, "spans");
  gint64 async_spans = 0;

  if (json_object_has_member (o, "async_spans"))
    {
      if (!member_is_int (o, "async_spans"))
        {
          g_test_fail_printf ("%s: \"async_spans\" is not an integer", name);
          g_list_free (members);
          return;
        }
      async_spans = get_int (o, "async_spans");
    }

  for (GList *l = members; l; l = l->next)
    {
      if (!member_is_int (kinds, l->data))
        {
          g_test_fail_printf ("%s: kind \"%s\" is not an integer", name, (const char *) l->data);
          g_list_free (members);
          return;
        }
      sum += json_object_get_int_member (kinds, l->data);
    }
  g_list_free (members);

  if (sum != spans + async_spans)
    g_test_fail_printf ("%s: the kinds add up to %" G_GINT64_FORMAT " spans, \"spans\" is %"
                        G_GINT64_FORMAT " and \"async_spans\" %" G_GINT64_FORMAT,
                        name, sum, spans, async_spans);
}

/* A non-zero exit must come with a message that names the file. */
static void
check_clean_failure (const CliRun *r,
                     const char   *path)
{
  g_autofree char *base = g_path_get_basename (path);

  if (r->err == NULL || strstr (r->err, base) == NULL)
    g_test_fail_printf ("chronoscope-cli exited with status %d on %s and its message does "
                        "not name the file; stderr: %.300s",
                        WIFEXITED (r->status) ? WEXITSTATUS (r->status) : -1,
                        base, r->err ? r->err : "");
}

/* ------------------------------------------------------------------ */
/* Test cases                                                          */

static gboolean
need_cli (void)
{
  if (cli_path == NULL || !g_file_test (cli_path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("CHRONO_CLI is not set or not executable");
      return FALSE;
    }
  return TRUE;
}

static void
test_no_traces (void)
{
  g_test_skip ("CHRONO_TRACES_DIR is not set, not a folder, or holds no traces");
}

/* Content the test cannot read: the CLI may read it or refuse it, but
 * must not crash and must say which file. */
static void
check_opaque_file (const char *path)
{
  const char *files[] = { path, NULL };
  CliRun r;

  run_cli (files, &r);
  assert_no_crash (&r, path);
  if (cli_succeeded (&r))
    {
      g_auto(GStrv) lines = output_lines (r.out);

      if (g_strv_length (lines) != 1)
        g_test_fail_printf ("expected one line of output, got %u", g_strv_length (lines));
      else
        {
          g_autoptr(JsonNode) node = parse_line (lines[0]);

          if (node != NULL)
            check_contract_shape (json_node_get_object (node), path);
          g_test_message ("read by the CLI: %s", lines[0]);
        }
    }
  else if (!WIFSIGNALED (r.status))
    {
      check_clean_failure (&r, path);
      g_test_message ("refused by the CLI: %s", r.err);
    }
  cli_run_clear (&r);
}

/* The CLI's one JSON line for PATH, its shape checked; NULL after failing
 * the test. */
static JsonNode *
cli_info_json (const char *path)
{
  const char *files[] = { path, NULL };
  g_auto(GStrv) lines = NULL;
  JsonNode *node;
  CliRun r;

  run_cli (files, &r);
  assert_no_crash (&r, path);
  if (!cli_succeeded (&r))
    {
      if (!WIFSIGNALED (r.status))
        g_test_fail_printf ("chronoscope-cli info --json failed on %s: %s", path, r.err);
      cli_run_clear (&r);
      return NULL;
    }
  lines = output_lines (r.out);
  cli_run_clear (&r);
  if (g_strv_length (lines) != 1)
    {
      g_test_fail_printf ("%s: expected one JSON line from the CLI, got %u", path, g_strv_length (lines));
      return NULL;
    }
  node = parse_line (lines[0]);
  if (node != NULL && !check_contract_shape (json_node_get_object (node), path))
    g_clear_pointer (&node, json_node_unref);
  if (node != NULL)
    g_test_message ("%s", lines[0]);
  return node;
}

/* Perfetto protobuf against the walk above. */
static void
check_perfetto_file (const char *path,
                     GBytes     *bytes,
                     const char *compression)
{
  static const char *const type_names[] = { "unspecified", "slice_begin", "slice_end", "instant", "counter" };
  g_autoptr(GHashTable) phases = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(JsonNode) node = NULL;
  PerfettoExpected want;
  JsonObject *got;

  perfetto_expected (bytes, &want);
  /* The walk itself against the counts PROVENANCE.md gives. */
  if (g_str_has_suffix (path, "perfetto__nested_tracks.perfetto-trace"))
    {
      g_assert_cmpuint (want.packets, ==, 4092);
      g_assert_cmpuint (want.events, ==, 2728);
    }
  else if (g_str_has_suffix (path, "qmljulia__trace.pftrace"))
    {
      g_assert_cmpuint (want.packets, ==, 23);
      g_assert_cmpuint (want.events, ==, 0);
    }
  for (guint i = 0; i < G_N_ELEMENTS (type_names); i++)
    if (want.types[i] > 0)
      g_hash_table_insert (phases, (gpointer) type_names[i], GUINT_TO_POINTER (want.types[i]));
  g_test_message ("%s: %" G_GUINT64_FORMAT " packets, %" G_GUINT64_FORMAT " track events, %"
                  G_GUINT64_FORMAT " flows by the test's own walk%s", path, want.packets, want.events,
                  want.flows, want.simple ? "" : " (uses features the walk does not model)");

  node = cli_info_json (path);
  if (node == NULL)
    return;
  got = json_node_get_object (node);

  if (g_strcmp0 (json_object_get_string_member (got, "format"), "perfetto") != 0)
    g_test_fail_printf ("%s: format \"%s\", expected \"perfetto\"", path,
                        json_object_get_string_member (got, "format"));
  if (g_strcmp0 (json_object_get_string_member (got, "compression"), compression) != 0)
    g_test_fail_printf ("%s: compression \"%s\", the test sniffed \"%s\"", path,
                        json_object_get_string_member (got, "compression"), compression);
  compare_phases (json_object_get_object_member (got, "phases"), phases, path);
  compare_count (got, "events", want.events, path);
  check_kinds_sum (got, path);
  if (json_object_get_boolean_member (got, "truncated") != want.truncated)
    g_test_fail_printf ("%s: truncated is %s, the test's walk says %s", path,
                        json_object_get_boolean_member (got, "truncated") ? "true" : "false",
                        want.truncated ? "true" : "false");
  if (!want.simple)
    return;
  compare_count (got, "spans", want.spans, path);
  compare_count (got, "instants", want.instants, path);
  compare_count (got, "counter_samples", want.counter_samples, path);
  compare_count (got, "flows", want.flows, path);
  compare_count (got, "tracks", want.tracks, path);
  compare_count (got, "start_ns", want.events > 0 ? (guint64) want.min_ts : 0, path);
  compare_count (got, "end_ns", want.events > 0 ? (guint64) want.max_ts : 0, path);
}

static void
test_corpus_file (gconstpointer data)
{
  const char *path = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_auto(GStrv) lines = NULL;
  const char *compression = NULL;
  const char *files[] = { path, NULL };
  Expected want;
  JsonObject *got;
  CliRun r;

  if (!need_cli ())
    return;

  bytes = read_decompressed (path, &compression, &error);
  if (bytes == NULL)
    {
      g_test_fail_printf ("cannot decompress %s in the test: %s", path, error->message);
      return;
    }

  switch (sniff_content (bytes))
    {
    case CONTENT_PROTOBUF:
      check_perfetto_file (path, bytes, compression);
      return;
    case CONTENT_UNKNOWN:
      g_clear_pointer (&bytes, g_bytes_unref);
      check_opaque_file (path);
      return;
    case CONTENT_JSON:
      break;
    }

  if (!expected_from_json (bytes, &want, &error))
    {
      g_test_fail_printf ("%s: %s", path, error->message);
      expected_clear (&want);
      return;
    }
  g_clear_pointer (&bytes, g_bytes_unref);

  run_cli (files, &r);
  assert_no_crash (&r, path);
  if (!cli_succeeded (&r))
    {
      if (!WIFSIGNALED (r.status))
        g_test_fail_printf ("chronoscope-cli info --json failed on %s (exit %d): %s",
                            path, WEXITSTATUS (r.status), r.err);
      goto out;
    }

  lines = output_lines (r.out);
  if (g_strv_length (lines) != 1)
    {
      g_test_fail_printf ("expected one line of output for one file, got %u",
                          g_strv_length (lines));
      goto out;
    }
  node = parse_line (lines[0]);
  if (node == NULL)
    goto out;
  got = json_node_get_object (node);
  if (!check_contract_shape (got, path))
    goto out;

  if (g_strcmp0 (json_object_get_string_member (got, "file"), path) != 0)
    g_test_fail_printf ("\"file\" is \"%s\", expected \"%s\"",
                        json_object_get_string_member (got, "file"), path);
  if (g_strcmp0 (json_object_get_string_member (got, "compression"), compression) != 0)
    g_test_fail_printf ("%s: compression \"%s\", the test sniffed \"%s\"", path,
                        json_object_get_string_member (got, "compression"), compression);
  if (json_object_get_string_member (got, "format")[0] == '\0')
    g_test_fail_printf ("%s: empty format", path);

  compare_phases (json_object_get_object_member (got, "phases"), want.phases, path);
  compare_count (got, "events", want.events, path);
  compare_count (got, "spans", want.spans, path);
  compare_count (got, "counter_samples", want.counter_samples, path);
  check_kinds_sum (got, path);

  /* Metadata, samples and object snapshots make processes but no rows. */
  if (want.events > 0 && get_int (got, "processes") <= 0)
    g_test_fail_printf ("%s: %" G_GUINT64_FORMAT " events but no process", path, want.events);
  if (want.spans + want.counter_samples > 0 && get_int (got, "tracks") <= 0)
    g_test_fail_printf ("%s: %" G_GUINT64_FORMAT " spans and counter samples but no track", path,
                        want.spans + want.counter_samples);
  if (get_int (got, "start_ns") > get_int (got, "end_ns"))
    g_test_fail_printf ("%s: start_ns %" G_GINT64_FORMAT " > end_ns %" G_GINT64_FORMAT,
                        path, get_int (got, "start_ns"), get_int (got, "end_ns"));

  if (json_object_get_boolean_member (got, "truncated") != want.repaired)
    g_test_fail_printf ("%s: the CLI says truncated=%s, but json-glib %s",
                        path, json_object_get_boolean_member (got, "truncated") ? "true" : "false",
                        want.repaired ? "needed the end of the file repaired"
                                      : "reads the file as complete");

  g_test_message ("%s", lines[0]);

out:
  cli_run_clear (&r);
  expected_clear (&want);
}

/* The beginning of a Perfetto trace, cut inside a packet: the CLI loads
 * the packets before the cut and says the file is truncated. */
static void
test_perfetto_prefix (gconstpointer data)
{
  const char *path = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *cut = NULL;
  g_autoptr(GBytes) prefix = NULL;
  gsize len;

  if (!need_cli ())
    return;
  g_assert_true (g_file_get_contents (path, &contents, &len, &error));
  g_assert_cmpuint (len, >, 6000);
  dir = g_dir_make_tmp ("chrono-corpus-XXXXXX", &error);
  g_assert_no_error (error);
  cut = g_build_filename (dir, "cut.perfetto-trace", NULL);
  g_file_set_contents (cut, contents, 6000, &error);
  g_assert_no_error (error);
  prefix = g_bytes_new (contents, 6000);
  check_perfetto_file (cut, prefix, "none");
  g_unlink (cut);
  g_rmdir (dir);
}

/* Several files at once give one line each, in order. */
static void
test_several_files (gconstpointer data)
{
  const char *const *files = data;
  g_auto(GStrv) lines = NULL;
  guint n = g_strv_length ((char **) files);
  CliRun r;

  if (!need_cli ())
    return;

  run_cli (files, &r);
  assert_no_crash (&r, "several files");
  if (!cli_succeeded (&r))
    {
      g_test_fail_printf ("chronoscope-cli info --json failed on %u files: %s", n, r.err);
      cli_run_clear (&r);
      return;
    }

  lines = output_lines (r.out);
  if (g_strv_length (lines) != n)
    g_test_fail_printf ("%u files gave %u lines of output", n, g_strv_length (lines));
  else
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(JsonNode) node = parse_line (lines[i]);

        if (node == NULL)
          continue;
        if (check_contract_shape (json_node_get_object (node), files[i]) &&
            g_strcmp0 (json_object_get_string_member (json_node_get_object (node), "file"),
                       files[i]) != 0)
          g_test_fail_printf ("line %u names \"%s\", expected \"%s\"", i + 1,
                              json_object_get_string_member (json_node_get_object (node), "file"),
                              files[i]);
      }
  cli_run_clear (&r);
}

/* Content that is no trace at all: a clear refusal that names the file. */
static void
test_not_a_trace (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  const char *files[2];
  CliRun r;

  if (!need_cli ())
    return;

  dir = g_dir_make_tmp ("chrono-corpus-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "not-a-trace.json", NULL);
  g_file_set_contents (path, "this is plain text, not a trace\n", -1, &error);
  g_assert_no_error (error);

  files[0] = path;
  files[1] = NULL;
  run_cli (files, &r);
  assert_no_crash (&r, path);
  if (cli_succeeded (&r))
    g_test_fail_printf ("chronoscope-cli accepted plain text as a trace: %s", r.out);
  else if (!WIFSIGNALED (r.status))
    check_clean_failure (&r, path);
  cli_run_clear (&r);

  g_unlink (path);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------ */
/* Exact timestamps                                                    */

/* Converts decimal microseconds, as written, to integer nanoseconds
 * without going through a double: the digits are shifted three places
 * and rounded half away from zero on the next digit. */
static gboolean
decimal_us_to_ns (const char *text,
                  gint64     *out)
{
  GString *digits = g_string_new (NULL);
  const char *p = text;
  gboolean negative = FALSE;
  gint64 exponent = 0;
  gint64 point;
  guint64 value = 0;
  gboolean ok = TRUE;

  if (*p == '-' || *p == '+')
    negative = (*p++ == '-');
  while (g_ascii_isdigit (*p))
    g_string_append_c (digits, *p++);
  point = (gint64) digits->len;
  if (*p == '.')
    {
      p++;
      while (g_ascii_isdigit (*p))
        g_string_append_c (digits, *p++);
    }
  if (*p == 'e' || *p == 'E')
    {
      char *end = NULL;

      exponent = g_ascii_strtoll (p + 1, &end, 10);
      p = end;
      if (exponent > 40 || exponent < -40)
        ok = FALSE;
    }
  if (*p != '\0' || digits->len == 0)
    ok = FALSE;

  point += exponent + 3;  /* microseconds to nanoseconds */
  for (gint64 i = 0; ok && i < point; i++)
    {
      guint d = i < (gint64) digits->len ? (guint) (digits->str[i] - '0') : 0;

      if (value > (G_MAXUINT64 - d) / 10)
        ok = FALSE;
      else
        value = value * 10 + d;
    }
  if (ok && point >= 0 && point < (gint64) digits->len && digits->str[point] >= '5')
    value++;
  if (ok && value > (guint64) G_MAXINT64)
    ok = FALSE;

  g_string_free (digits, TRUE);
  if (ok)
    *out = negative ? -(gint64) value : (gint64) value;
  return ok;
}

static void
test_decimal_conversion (void)
{
  static const struct { const char *text; gint64 ns; } cases[] = {
    { "0", 0 },
    { "1", 1000 },
    { "3.011", 3011 },
    { "1712195495406752.797", G_GINT64_CONSTANT (1712195495406752797) },
    { "1712195495406752.8", G_GINT64_CONSTANT (1712195495406752800) },
    { "4458676388068.751", G_GINT64_CONSTANT (4458676388068751) },
    { "2.0004", 2000 },
    { "2.0005", 2001 },
    { "-1.5", -1500 },
    { "1.5e3", 1500000 },
    { "15e-1", 1500 },
  };
  gint64 v = 0;

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_true (decimal_us_to_ns (cases[i].text, &v));
      g_assert_cmpint (v, ==, cases[i].ns);
    }
  g_assert_false (decimal_us_to_ns ("", &v));
  g_assert_false (decimal_us_to_ns ("1.2.3", &v));
}

/* The earliest "ts" of the file, read from its text, must be the CLI's
 * start_ns exactly (plus baseTimeNanoseconds when the file has one);
 * the latest must not lie after end_ns. Used on files whose earliest
 * timestamp belongs to a real event, not to a metadata record. */
static void
test_exact_start (gconstpointer data)
{
  const char *path = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GRegex) ts_re = NULL;
  g_autoptr(GRegex) base_re = NULL;
  g_autoptr(GMatchInfo) match = NULL;
  g_autoptr(JsonNode) node = NULL;
  const char *compression;
  gint64 min_ns = G_MAXINT64, max_ns = G_MININT64, base = 0;
  guint64 n_ts = 0;
  gboolean has_base = FALSE;
  g_autofree char *text = NULL;
  JsonObject *got;

  if (!need_cli ())
    return;

  bytes = read_decompressed (path, &compression, &error);
  g_assert_no_error (error);
  text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_clear_pointer (&bytes, g_bytes_unref);

  base_re = g_regex_new ("\"baseTimeNanoseconds\"\\s*:\\s*([0-9]+)", G_REGEX_OPTIMIZE, 0, &error);
  g_assert_no_error (error);
  if (g_regex_match (base_re, text, 0, &match))
    {
      g_autofree char *b = g_match_info_fetch (match, 1);

      base = g_ascii_strtoll (b, NULL, 10);
      has_base = TRUE;
    }
  g_clear_pointer (&match, g_match_info_unref);

  ts_re = g_regex_new ("\"ts\"\\s*:\\s*\"?(-?[0-9]+(?:\\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)",
                       G_REGEX_OPTIMIZE, 0, &error);
  g_assert_no_error (error);
  g_regex_match (ts_re, text, 0, &match);
  while (g_match_info_matches (match))
    {
      g_autofree char *num = g_match_info_fetch (match, 1);
      gint64 ns;

      if (!decimal_us_to_ns (num, &ns))
        {
          g_test_fail_printf ("cannot convert \"ts\": %s", num);
          return;
        }
      min_ns = MIN (min_ns, ns);
      max_ns = MAX (max_ns, ns);
      n_ts++;
      g_match_info_next (match, NULL);
    }
  g_clear_pointer (&text, g_free);
  g_test_message ("%" G_GUINT64_FORMAT " timestamps, base %s%" G_GINT64_FORMAT,
                  n_ts, has_base ? "" : "(none) ", base);
  if (n_ts == 0)
    {
      g_test_fail_printf ("no \"ts\" found in %s", path);
      return;
    }

  node = cli_info_json (path);
  if (node == NULL)
    return;
  got = json_node_get_object (node);

  if (get_int (got, "start_ns") != base + min_ns)
    g_test_fail_printf ("start_ns: the CLI reports %" G_GINT64_FORMAT ", the text gives %"
                        G_GINT64_FORMAT " (%+" G_GINT64_FORMAT " ns)",
                        get_int (got, "start_ns"), base + min_ns,
                        get_int (got, "start_ns") - (base + min_ns));
  if (get_int (got, "end_ns") < base + max_ns)
    g_test_fail_printf ("end_ns: the CLI reports %" G_GINT64_FORMAT
                        ", before the last \"ts\" %" G_GINT64_FORMAT,
                        get_int (got, "end_ns"), base + max_ns);
}

/* ------------------------------------------------------------------ */

static gboolean
is_trace_candidate (const char *name)
{
  /* Documentation and hidden files that live beside the traces. */
  return name[0] != '.' &&
         !g_str_has_suffix (name, ".md") &&
         !g_str_has_suffix (name, ".txt") &&
         g_strcmp0 (name, "README") != 0;
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) small = g_ptr_array_new_with_free_func (g_free);
  static const char *const exact_start_files[] = {
    /* absolute microseconds with three decimals: double loses the ns */
    "hta__ns_resolution__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
    /* relative microseconds around 4.5e12 plus baseTimeNanoseconds */
    "hta__nccl_parser__nccl_data.json.gz",
  };
  char **args;
  GDir *dir;
  int ret;

  /* Keep going after a failing file, so that one run shows every
   * discrepancy in the corpus, not only the first. */
  args = g_new0 (char *, argc + 2);
  for (int i = 0; i < argc; i++)
    args[i] = argv[i];
  args[argc] = (char *) "--keep-going";
  argc++;
  argv = args;
  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("CHRONO_CLI");
  traces_dir = g_getenv ("CHRONO_TRACES_DIR");
  if (traces_dir != NULL && !g_file_test (traces_dir, G_FILE_TEST_IS_DIR))
    traces_dir = NULL;

  g_test_add_func ("/corpus/decimal-conversion", test_decimal_conversion);
  g_test_add_func ("/corpus/cli/not-a-trace", test_not_a_trace);

  if (traces_dir == NULL)
    {
      g_test_add_func ("/corpus/traces", test_no_traces);
      ret = g_test_run ();
      g_free (args);
      return ret;
    }

  dir = g_dir_open (traces_dir, 0, NULL);
  if (dir != NULL)
    {
      const char *name;

      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (traces_dir, name, NULL);

          if (is_trace_candidate (name) && g_file_test (path, G_FILE_TEST_IS_REGULAR))
            g_ptr_array_add (names, g_strdup (name));
        }
      g_dir_close (dir);
    }
  g_ptr_array_sort (names, compare_strings);

  if (names->len == 0)
    g_test_add_func ("/corpus/traces", test_no_traces);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *test_path = g_strconcat ("/corpus/file/", name, NULL);
      char *path = g_build_filename (traces_dir, name, NULL);

      g_test_add_data_func_full (test_path, path, test_corpus_file, g_free);
    }

  for (gsize i = 0; i < G_N_ELEMENTS (exact_start_files); i++)
    {
      g_autofree char *test_path = g_strconcat ("/corpus/exact-start/", exact_start_files[i], NULL);
      char *path = g_build_filename (traces_dir, exact_start_files[i], NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_test_add_data_func_full (test_path, path, test_exact_start, g_free);
      else
        g_free (path);
    }

  {
    char *path = g_build_filename (traces_dir, "perfetto__nested_tracks.perfetto-trace", NULL);

    if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
      g_test_add_data_func_full ("/corpus/perfetto-prefix", path, test_perfetto_prefix, g_free);
    else
      g_free (path);
  }

  /* The four smallest JSON traces, plain or compressed, at once. */
  {
    g_autoptr(GPtrArray) sized = g_ptr_array_new ();

    for (guint i = 0; i < names->len; i++)
      {
        const char *name = g_ptr_array_index (names, i);

        if (g_str_has_suffix (name, ".json") || g_str_has_suffix (name, ".gz") ||
            g_str_has_suffix (name, ".zip"))
          g_ptr_array_add (sized, (gpointer) name);
      }

    for (guint k = 0; k < 4 && sized->len > 0; k++)
      {
        guint best = 0;
        goffset best_size = G_MAXINT64;

        for (guint i = 0; i < sized->len; i++)
          {
            g_autofree char *p = g_build_filename (traces_dir, g_ptr_array_index (sized, i), NULL);
            GStatBuf st;

            if (g_stat (p, &st) == 0 && st.st_size < best_size)
              {
                best_size = st.st_size;
                best = i;
              }
          }
        g_ptr_array_add (small, g_build_filename (traces_dir, g_ptr_array_index (sized, best), NULL));
        g_ptr_array_remove_index (sized, best);
      }
    g_ptr_array_add (small, NULL);
    if (small->len > 2)
      g_test_add_data_func ("/corpus/cli/several-files", small->pdata, test_several_files);
  }

  ret = g_test_run ();
  g_free (args);
  return ret;
}
