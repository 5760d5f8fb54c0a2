/* chrono-chrome-importer.c
 *
 * One pass over the bytes: each event's top-level keys are read, the few
 * the model needs are converted, and everything else (args above all) is
 * kept as a byte range into the source. The pass runs while the source is
 * still being decompressed: an event that runs into the end of what is
 * available is parsed again once more bytes have arrived.
 *
 * After the pass, each track is sorted and laid out, B/E pairs are matched,
 * and flows and launches are bound to spans.
 *
 * All that an event goes through is in this file, so that the compiler
 * inlines it into the loop; the two halves of a file in memory are in
 * chrono-chrome-halves.c, the root object's other keys and the counts
 * after the pass in chrono-chrome-metadata.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-chrome-importer-private.h"
#include "chrono-communication.h"
#include "chrono-kineto.h"
#include "chrono-packed-devices.h"

#define PROGRESS_EVERY      (1u << 15)
#define EVENT_BLOCK         512
#define EVENT_BLOCKS        4
#define SMALL_FILE_BYTES    (4u << 20)

typedef struct {
  ChronoTrackBuilder *track;
  guint32 span;
  guint32 name;
} AsyncOpen;

typedef struct {
  guint32 cat_plus_one;
  guint8  kind;
  guint8  on_device;
} KindCache;

typedef struct {
  ChronoJsonString ph, name, cat, scope, s, bp;
  const guint8 *ts, *dur, *id, *bind_id;
  gsize ts_len, dur_len, id_len, bind_len;
  gint64 ts_ns, dur_ns;                /* with TS_NS, DUR_NS */
  gboolean id_is_string, bind_is_string, id_is_local;
  ChronoId pid, tid;
  ChronoJsonString pid_str, tid_str;   /* when pid/tid are names */
  guint64 args_off;
  guint32 args_len;
  gboolean flow_in, flow_out;
  guint32 present;
} Event;

/* Events travel from the scanning thread to the model-building thread in
 * blocks, so that the two halves of the work run on two cores. */
struct _EventBlock {
  guint n;
  Event ev[EVENT_BLOCK];
};

enum {
  HAS_PH = 1 << 0,
  HAS_NAME = 1 << 1,
  HAS_CAT = 1 << 2,
  HAS_TS = 1 << 3,
  HAS_DUR = 1 << 4,
  HAS_PID = 1 << 5,
  HAS_TID = 1 << 6,
  HAS_ID = 1 << 7,
  HAS_ARGS = 1 << 8,
  HAS_S = 1 << 9,
  HAS_BP = 1 << 10,
  HAS_BIND = 1 << 11,
  HAS_SCOPE = 1 << 12,
  TS_NS = 1 << 13,       /* ts read as nanoseconds, not as text */
  DUR_NS = 1 << 14,
};

/* -------------------------------------------------------------------- */
/* Streaming                                                            */

static void
refill (Importer     *imp,
        const guint8 *unit_start)
{
  gsize have = imp->s.end - imp->base;
  gsize unit = imp->s.end - unit_start;
  gsize avail;

  /* Ask for at least as much again as the unfinished unit has, so that a
   * huge value is rescanned a logarithmic number of times only. */
  avail = chrono_source_wait (imp->source, have + (unit > 65536 ? unit : 0), &imp->finished);
  imp->s.end = imp->base + avail;
}

static ChronoJsonStatus
expect_byte (ChronoJsonScanner *s,
             guint8             c,
             const char        *what)
{
  chrono_json_skip_ws (s);
  if (s->p >= s->end)
    return CHRONO_JSON_TRUNCATED;
  if (*s->p != c)
    return chrono_json_fail (s, what);
  s->p++;
  return CHRONO_JSON_OK;
}

/* -------------------------------------------------------------------- */
/* Strings, ids and numbers                                             */

static guint32
intern (Importer               *imp,
        const ChronoJsonString *str)
{
  if (G_LIKELY (!str->escaped))
    return chrono_string_table_intern (imp->trace->strings, (const char *) str->start, str->len);
  if (!chrono_json_unescape (str, imp->scratch))
    return chrono_string_table_intern (imp->trace->strings, (const char *) str->start, str->len);
  return chrono_string_table_intern (imp->trace->strings, imp->scratch->str, imp->scratch->len);
}

/* A pid or tid: an integer, a numeric string, or a name. Names are
 * interned later, on the thread that owns the string table. */
static ChronoJsonStatus
read_id_value (ChronoJsonScanner *s,
               ChronoId          *out,
               ChronoJsonString  *name)
{
  ChronoJsonStatus st;
  const guint8 *text;
  gsize len;
  guint64 value;

  /* Most ids are small non-negative integers. */
  if (chrono_json_read_small_uint (s, &value))
    {
      out->value = (gint64) value;
      out->is_string = FALSE;
      return CHRONO_JSON_OK;
    }

  if (s->p < s->end && *s->p == '"')
    {
      if ((st = chrono_json_read_string (s, name)) != CHRONO_JSON_OK)
        return st;
      out->is_string = name->escaped || !chrono_json_parse_int64 (name->start, name->len, &out->value);
      return CHRONO_JSON_OK;
    }
  if ((st = chrono_json_read_number (s, &text, &len)) != CHRONO_JSON_OK)
    return st;
  /* A number no integer holds (1e30, 1.5) names the row by its text. */
  out->is_string = !chrono_json_parse_int64 (text, len, &out->value);
  if (out->is_string)
    {
      name->start = text;
      name->len = len;
      name->escaped = FALSE;
    }
  return CHRONO_JSON_OK;
}

/* A number, or a string that holds one ("ts": "11550183666"). */
static ChronoJsonStatus
read_number_text (ChronoJsonScanner *s,
                  const guint8     **text,
                  gsize             *len,
                  gboolean          *is_string)
{
  if (s->p < s->end && *s->p == '"')
    {
      ChronoJsonString str;
      ChronoJsonStatus st = chrono_json_read_string (s, &str);

      *text = str.start;
      *len = str.len;
      if (is_string)
        *is_string = TRUE;
      return st;
    }
  if (is_string)
    *is_string = FALSE;
  return chrono_json_read_number (s, text, len);
}

/* id2: {"local": x} or {"global": x}. */
static ChronoJsonStatus
read_id2 (Event             *ev,
          ChronoJsonScanner *s)
{
  ChronoJsonStatus st;

  if ((st = expect_byte (s, '{', "an object")) != CHRONO_JSON_OK)
    return st;
  for (gboolean first = TRUE;; first = FALSE)
    {
      ChronoJsonString key;
      gboolean done;

      if ((st = chrono_json_next_member (s, first, &key, &done)) != CHRONO_JSON_OK || done)
        return st;
      if (key_is (&key, "local", 5) || key_is (&key, "global", 6))
        {
          if ((st = read_number_text (s, &ev->id, &ev->id_len, &ev->id_is_string)) != CHRONO_JSON_OK)
            return st;
          ev->id_is_local = key.len == 5;
          ev->present |= HAS_ID;
        }
      else if ((st = chrono_json_skip_value (s)) != CHRONO_JSON_OK)
        return st;
    }
}

static guint64
hash_bytes64 (const guint8 *p,
              gsize         len,
              guint64       h)
{
  for (gsize i = 0; i < len; i++)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

static guint64
mix64 (guint64 h)
{
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

/* -------------------------------------------------------------------- */
/* One event                                                            */

/* A key of up to 8 bytes as one little-endian word, its length in the top
 * byte when it is shorter (no key is told apart by the NUL bytes that
 * would pad it), 0 for other keys: the keys of an event are told apart by
 * one compare each. */
#define KEY_BYTES2(a, b)       ((guint64) (a) | (guint64) (b) << 8)
#define KEY_BYTES4(a, b, c, d) (KEY_BYTES2 (a, b) | KEY_BYTES2 (c, d) << 16)
#define KEY_LEN(n)             ((guint64) (n) << 56)
#define KEY1(a)                ((guint64) (a) | KEY_LEN (1))
#define KEY2(a, b)             (KEY_BYTES2 (a, b) | KEY_LEN (2))
#define KEY3(a, b, c)          (KEY_BYTES2 (a, b) | (guint64) (c) << 16 | KEY_LEN (3))
#define KEY4(a, b, c, d)       (KEY_BYTES4 (a, b, c, d) | KEY_LEN (4))
#define KEY5(a, b, c, d, e)    (KEY_BYTES4 (a, b, c, d) | (guint64) (e) << 32 | KEY_LEN (5))
#define KEY7(a, b, c, d, e, f, g) \
  (KEY_BYTES4 (a, b, c, d) | KEY_BYTES2 (e, f) << 32 | (guint64) (g) << 48 | KEY_LEN (7))
#define KEY8(a, b, c, d, e, f, g, h) (KEY_BYTES4 (a, b, c, d) | KEY_BYTES4 (e, f, g, h) << 32)

static inline guint64
key_word (const ChronoJsonString *key,
          const guint8           *end)
{
  guint64 w = 0;

  if (key->len == 0 || key->len > 8)
    return 0;
  if (end - key->start >= 8)
    {
      memcpy (&w, key->start, 8);
      w = GUINT64_FROM_LE (w);
    }
  else
    for (gsize i = 0; i < key->len; i++)
      w |= (guint64) key->start[i] << (8 * i);
  if (key->len < 8)
    return (w & (G_MAXUINT64 >> (64 - 8 * key->len))) | KEY_LEN (key->len);
  /* An 8-byte key ending in a byte below 8 could pass for a shorter one. */
  return (w >> 56) < 8 ? 0 : w;
}

static inline gboolean
is_container (guint8 c)
{
  return c == '{' || c == '[';
}

static ChronoJsonStatus
parse_event (Importer *imp,
             Event    *ev)
{
  ChronoJsonScanner *s = &imp->s;
  ChronoJsonStatus st;

  ev->present = 0;
  ev->flow_in = ev->flow_out = FALSE;
  ev->id_is_local = FALSE;

  s->p++;  /* '{' */
  for (gboolean first = TRUE;; first = FALSE)
    {
      ChronoJsonString key;
      gboolean done;
      guint8 c;

      if ((st = chrono_json_next_member (s, first, &key, &done)) != CHRONO_JSON_OK || done)
        return st;

      c = *s->p;
      switch (key_word (&key, s->end))
        {
        case KEY2 ('p', 'h'):
          if (c != '"')
            goto skip;
          st = chrono_json_read_string (s, &ev->ph);
          ev->present |= HAS_PH;
          break;
        case KEY2 ('t', 's'):
          if (is_container (c))
            goto skip;
          /* The last of repeated keys wins, as text or as a number. */
          ev->present &= ~TS_NS;
          if (chrono_json_read_us_to_ns (s, &ev->ts_ns))
            ev->present |= TS_NS;
          else
            st = read_number_text (s, &ev->ts, &ev->ts_len, NULL);
          ev->present |= HAS_TS;
          break;
        case KEY3 ('p', 'i', 'd'):
          if (is_container (c))
            goto skip;
          st = read_id_value (s, &ev->pid, &ev->pid_str);
          ev->present |= HAS_PID;
          break;
        case KEY3 ('t', 'i', 'd'):
          if (is_container (c))
            goto skip;
          st = read_id_value (s, &ev->tid, &ev->tid_str);
          ev->present |= HAS_TID;
          break;
        case KEY3 ('c', 'a', 't'):
          if (c != '"')
            goto skip;
          st = chrono_json_read_string (s, &ev->cat);
          ev->present |= HAS_CAT;
          break;
        case KEY3 ('d', 'u', 'r'):
          if (is_container (c))
            goto skip;
          /* The last of repeated keys wins, as text or as a number. */
          ev->present &= ~DUR_NS;
          if (chrono_json_read_us_to_ns (s, &ev->dur_ns))
            ev->present |= DUR_NS;
          else
            st = read_number_text (s, &ev->dur, &ev->dur_len, NULL);
          ev->present |= HAS_DUR;
          break;
        case KEY4 ('n', 'a', 'm', 'e'):
          if (c != '"')
            goto skip;
          st = chrono_json_read_string (s, &ev->name);
          ev->present |= HAS_NAME;
          break;
        case KEY4 ('a', 'r', 'g', 's'):
          if (c != '{')
            goto skip;
          {
            const guint8 *start = s->p;

            st = chrono_json_skip_value (s);
            ev->args_off = start - imp->base;
            ev->args_len = (guint32) MIN (s->p - start, G_MAXUINT32);
            ev->present |= HAS_ARGS;
          }
          break;
        case KEY2 ('i', 'd'):
          if (is_container (c))
            goto skip;
          st = read_number_text (s, &ev->id, &ev->id_len, &ev->id_is_string);
          ev->present |= HAS_ID;
          break;
        case KEY3 ('i', 'd', '2'):
          if (c != '{')
            goto skip;
          st = read_id2 (ev, s);
          break;
        case KEY1 ('s'):
          if (c != '"')
            goto skip;
          st = chrono_json_read_string (s, &ev->s);
          ev->present |= HAS_S;
          break;
        case KEY2 ('b', 'p'):
          if (c != '"')
            goto skip;
          st = chrono_json_read_string (s, &ev->bp);
          ev->present |= HAS_BP;
          break;
        case KEY5 ('s', 'c', 'o', 'p', 'e'):
          if (c != '"')
            goto skip;
          st = chrono_json_read_string (s, &ev->scope);
          ev->present |= HAS_SCOPE;
          break;
        case KEY7 ('b', 'i', 'n', 'd', '_', 'i', 'd'):
          if (is_container (c))
            goto skip;
          st = read_number_text (s, &ev->bind_id, &ev->bind_len, &ev->bind_is_string);
          ev->present |= HAS_BIND;
          break;
        case KEY7 ('f', 'l', 'o', 'w', '_', 'i', 'n'):
          if (c != 't')
            goto skip;
          st = chrono_json_skip_value (s);
          ev->flow_in = TRUE;
          break;
        case KEY8 ('f', 'l', 'o', 'w', '_', 'o', 'u', 't'):
          if (c != 't')
            goto skip;
          st = chrono_json_skip_value (s);
          ev->flow_out = TRUE;
          break;
        default:
        skip:
          st = chrono_json_skip_value (s);
          break;
        }
      if (st != CHRONO_JSON_OK)
        return st;
    }
}

/* -------------------------------------------------------------------- */
/* Processes and tracks                                                 */

guint
chrono_chrome_process_for (Importer *imp,
                           ChronoId  pid)
{
  GHashTable *table;
  gpointer found;
  ChronoProcess process = { 0 };
  gint64 *key;

  /* Runs of events, metadata above all, name the same process. */
  if (imp->last_process > 0 && imp->last_pid.value == pid.value && imp->last_pid.is_string == pid.is_string)
    return imp->last_process - 1;
  table = pid.is_string ? imp->processes_str : imp->processes_int;
  found = g_hash_table_lookup (table, &pid.value);
  imp->last_pid = pid;
  if (found != NULL)
    {
      imp->last_process = GPOINTER_TO_UINT (found);
      return imp->last_process - 1;
    }

  process.pid = pid;
  process.device_index = -1;
  g_array_append_val (imp->trace->processes, process);
  key = g_new (gint64, 1);
  *key = pid.value;
  g_hash_table_insert (table, key, GUINT_TO_POINTER (imp->trace->processes->len));
  imp->last_process = imp->trace->processes->len;
  return imp->trace->processes->len - 1;
}

static ChronoTrackBuilder *
track_for (Importer        *imp,
           ChronoId         pid,
           ChronoId         tid,
           ChronoTrackType  type)
{
  ChronoTrackKey key;
  guint slot = (guint) (((guint64) pid.value * 31 + (guint64) tid.value * 7 + type) * 0x9e3779b97f4a7c15ull >> 58);
  ChronoTrackBuilder *b = imp->recent_tracks[slot];

  if (b != NULL && b->key.type == type &&
      b->key.tid.value == tid.value && b->key.tid.is_string == tid.is_string &&
      b->pid.value == pid.value && b->pid.is_string == pid.is_string)
    return b;

  key.process = chrono_chrome_process_for (imp, pid);
  key.type = type;
  key.tid = tid;
  b = g_hash_table_lookup (imp->tracks, &key);
  if (b == NULL)
    {
      b = chrono_track_builder_new (&key, pid);
      g_hash_table_insert (imp->tracks, &b->key, b);
      g_ptr_array_add (imp->builders, b);
    }
  imp->recent_tracks[slot] = b;
  return b;
}

static ChronoId
string_id (guint32 str)
{
  ChronoId id = { str, TRUE };
  return id;
}

/* -------------------------------------------------------------------- */
/* Event handlers                                                       */

static void
classify (Importer   *imp,
          guint32     name,
          guint32     cat,
          const Event *ev,
          guint8     *kind,
          gboolean   *on_device)
{
  KindCache *c;

  if (name >= imp->kind_cache->len)
    g_array_set_size (imp->kind_cache, MAX (name + 1, imp->kind_cache->len * 2));
  c = &g_array_index (imp->kind_cache, KindCache, name);
  if (c->cat_plus_one != cat + 1)
    {
      ChronoStringTable *st = imp->trace->strings;

      c->kind = chrono_kineto_classify (chrono_string_table_get (st, cat),
                                        chrono_string_table_get_len (st, cat),
                                        chrono_string_table_get (st, name),
                                        chrono_string_table_get_len (st, name),
                                        on_device);
      c->on_device = *on_device;
      c->cat_plus_one = cat + 1;
    }
  *kind = c->kind;
  *on_device = c->on_device;

  if (*kind == CHRONO_KIND_KERNEL && (ev->present & HAS_ARGS) &&
      chrono_kineto_args_are_collective ((const char *) imp->base + ev->args_off, ev->args_len))
    *kind = CHRONO_KIND_COLLECTIVE;
}

/* The value of one string or number key in a small args object. */
static gboolean
args_lookup (Importer         *imp,
             const Event      *ev,
             const char       *wanted,
             ChronoJsonString *value)
{
  ChronoJsonScanner s;
  gsize wanted_len = strlen (wanted);

  if (!(ev->present & HAS_ARGS))
    return FALSE;
  s.p = imp->base + ev->args_off + 1;
  s.end = imp->base + ev->args_off + ev->args_len;
  for (gboolean first = TRUE;; first = FALSE)
    {
      ChronoJsonString key;
      gboolean done;

      if (chrono_json_next_member (&s, first, &key, &done) != CHRONO_JSON_OK || done)
        return FALSE;
      if (key_is (&key, wanted, wanted_len))
        {
          if (*s.p == '"')
            return chrono_json_read_string (&s, value) == CHRONO_JSON_OK;
          value->escaped = FALSE;
          return chrono_json_read_number (&s, &value->start, &value->len) == CHRONO_JSON_OK;
        }
      if (chrono_json_skip_value (&s) != CHRONO_JSON_OK)
        return FALSE;
    }
}

static guint64
args_of (const Event *ev)
{
  return (ev->present & HAS_ARGS) ? ev->args_off : CHRONO_NO_ARGS;
}

static gboolean
kind_has_correlation (guint8 kind)
{
  switch (kind)
    {
    case CHRONO_KIND_RUNTIME:
    case CHRONO_KIND_DRIVER:
    case CHRONO_KIND_KERNEL:
    case CHRONO_KIND_MEMCPY:
    case CHRONO_KIND_MEMSET:
    case CHRONO_KIND_SYNC:
    case CHRONO_KIND_COLLECTIVE:
    case CHRONO_KIND_GPU_ANNOTATION:
      return TRUE;
    default:
      return FALSE;
    }
}

static void
note_time (Importer *imp,
           gint64    start,
           gint64    end)
{
  if (start < imp->min_ts)
    imp->min_ts = start;
  if (end > imp->max_ts)
    imp->max_ts = end;
}

static guint64
flow_id_key (const guint8 *id,
             gsize         len,
             gboolean      is_string,
             guint64       seed)
{
  return mix64 (hash_bytes64 (id, len, seed ^ (is_string ? 0x9e3779b97f4a7c15ull : 0)));
}

/* Identity of a flow or async operation by the text of its category and
 * (optionally) name: string ids differ between the halves of a split
 * scan, the text does not. */
static guint64
text_seed (const Event *ev,
           gboolean     with_name)
{
  guint64 h = 0xcbf29ce484222325ull;

  if (ev->present & HAS_CAT)
    h = hash_bytes64 (ev->cat.start, ev->cat.len, h);
  h = mix64 (h);
  if (with_name && (ev->present & HAS_NAME))
    h = mix64 (hash_bytes64 (ev->name.start, ev->name.len, h));
  return h;
}

static void
add_v2_bind (Importer           *imp,
             ChronoTrackBuilder *b,
             guint32             span,
             const Event        *ev,
             gint64              ts)
{
  ChronoV2Bind bind;

  bind.track = b;
  bind.span = span;
  bind.ts = ts;
  bind.key = flow_id_key (ev->bind_id, ev->bind_len, ev->bind_is_string, 0);
  bind.in = ev->flow_in;
  bind.out = ev->flow_out || (!ev->flow_in && !ev->flow_out);
  bind.seq = imp->v2_events->len;
  g_array_append_val (imp->v2_events, bind);
}

/* A span without a category says what it is by its args, as torch_npu
 * writes them: a task on an NPU stream names its "Task Type", one of
 * HCCL's steps of a collective its "task type", and a runtime call or a
 * collective on the device the "connection_id" that joins the two. */
static void
classify_by_args (Importer    *imp,
                  const Event *ev,
                  guint32      name,
                  guint8      *kind,
                  gboolean    *on_device)
{
  ChronoStringTable *st = imp->trace->strings;
  ChronoJsonString value;

  if (args_lookup (imp, ev, "Task Type", &value))
    {
      *kind = chrono_kineto_task_kind ((const char *) value.start, value.len);
      *on_device = TRUE;
    }
  else if (args_lookup (imp, ev, "task type", &value))
    *on_device = TRUE;
  else if (args_lookup (imp, ev, "connection_id", &value))
    {
      *on_device = chrono_communication_family (chrono_string_table_get (st, name),
                                                chrono_string_table_get_len (st, name)) != NULL;
      *kind = *on_device ? CHRONO_KIND_COLLECTIVE : CHRONO_KIND_RUNTIME;
    }
}

static void
add_span (Importer    *imp,
          const Event *ev,
          ChronoId     pid,
          ChronoId     tid,
          gint64       ts,
          gint64       dur,
          guint8       flags)
{
  ChronoTrackBuilder *b = track_for (imp, pid, tid, CHRONO_TRACK_THREAD);
  guint32 name = (ev->present & HAS_NAME) ? intern (imp, &ev->name) : CHRONO_NO_STRING;
  guint32 cat = (ev->present & HAS_CAT) ? intern (imp, &ev->cat) : CHRONO_NO_STRING;
  guint8 kind;
  gboolean on_device;
  guint32 index;

  classify (imp, name, cat, ev, &kind, &on_device);
  if (kind == CHRONO_KIND_OTHER && cat == CHRONO_NO_STRING)
    classify_by_args (imp, ev, name, &kind, &on_device);
  index = chrono_track_builder_add_span (b, ts, dur, name, cat, args_of (ev), kind, flags);
  if (on_device)
    b->device_votes++;
  else
    b->host_votes++;

  if (kind_has_correlation (kind))
    {
      ChronoJsonString value;
      gint64 correlation;

      if ((args_lookup (imp, ev, "correlation", &value) ||
           (cat == CHRONO_NO_STRING && args_lookup (imp, ev, "connection_id", &value))) &&
          chrono_json_parse_int64 (value.start, value.len, &correlation) && correlation >= 0)
        chrono_track_builder_set_correlation (b, index, correlation);
    }
  if (ev->present & HAS_BIND)
    add_v2_bind (imp, b, index, ev, ts);
}

static void
handle_complete (Importer    *imp,
                 const Event *ev,
                 gint64       ts)
{
  gint64 dur = 0;
  guint8 flags = 0;

  if (!(ev->present & HAS_DUR))
    flags |= CHRONO_SPAN_NO_DUR;
  else if (ev->present & DUR_NS)
    dur = ev->dur_ns;
  else if (!chrono_json_parse_us_to_ns (ev->dur, ev->dur_len, &dur) || dur < 0)
    {
      imp->bad_numbers++;
      dur = 0;
      flags |= CHRONO_SPAN_NO_DUR;
    }
  note_time (imp, ts, ts + dur);
  add_span (imp, ev, ev->pid, ev->tid, ts, dur, flags);
}

static void
handle_mark (Importer    *imp,
             const Event *ev,
             gint64       ts,
             gboolean     is_end)
{
  ChronoTrackBuilder *b = track_for (imp, ev->pid, ev->tid, CHRONO_TRACK_THREAD);
  ChronoMark mark;

  mark.ts = ts;
  mark.name = (ev->present & HAS_NAME) ? intern (imp, &ev->name) : CHRONO_NO_STRING;
  mark.cat = (ev->present & HAS_CAT) ? intern (imp, &ev->cat) : CHRONO_NO_STRING;
  mark.args_off = args_of (ev);
  mark.is_end = is_end;
  mark.bind = G_MAXUINT32;
  if (!is_end && (ev->present & HAS_BIND))
    {
      mark.bind = imp->v2_events->len;
      add_v2_bind (imp, b, G_MAXUINT32, ev, ts);
    }
  chrono_track_builder_add_mark (b, &mark);
  note_time (imp, ts, ts);
}

static void
handle_instant (Importer    *imp,
                const Event *ev,
                gint64       ts)
{
  ChronoTrackBuilder *b;
  guint8 scope = (ev->present & HAS_S) && ev->s.len == 1 ? ev->s.start[0] : 't';
  guint32 name = (ev->present & HAS_NAME) ? intern (imp, &ev->name) : CHRONO_NO_STRING;
  guint32 cat = (ev->present & HAS_CAT) ? intern (imp, &ev->cat) : CHRONO_NO_STRING;
  ChronoId none = { 0, TRUE };

  if (scope == 'g')
    {
      ChronoId global = { imp->global_process, TRUE };
      b = track_for (imp, global, none, CHRONO_TRACK_INSTANTS);
    }
  else if (scope == 'p')
    b = track_for (imp, ev->pid, none, CHRONO_TRACK_INSTANTS);
  else
    b = track_for (imp, ev->pid, ev->tid, CHRONO_TRACK_THREAD);

  chrono_track_builder_add_instant (b, ts, name, cat,
                                    args_of (ev));
  note_time (imp, ts, ts);
}

static ChronoTrackBuilder *
counter_track (Importer    *imp,
               const Event *ev,
               guint32      name,
               const ChronoJsonString *series)
{
  g_autofree char *key = NULL;
  ChronoTrackBuilder *b;
  const char *name_str = chrono_string_table_get (imp->trace->strings, name);
  g_autofree char *id = (ev->present & HAS_ID) ? g_strndup ((const char *) ev->id, ev->id_len) : NULL;
  g_autofree char *series_str = g_strndup ((const char *) series->start, series->len);

  key = g_strdup_printf ("%c%" G_GINT64_FORMAT "\x1f%s\x1f%s\x1f%s",
                         ev->pid.is_string ? 's' : 'i', ev->pid.value,
                         name_str, id ? id : "", series_str);
  b = g_hash_table_lookup (imp->counter_tracks, key);
  if (b == NULL)
    {
      g_autofree char *display = NULL;
      ChronoTrackKey tkey;

      /* Perfetto's naming, so that names match across tools. */
      if (id != NULL)
        display = g_strdup_printf ("%s id: %s %s", name_str, id, series_str);
      else if (g_str_equal (series_str, "value") || g_str_equal (series_str, name_str))
        display = g_strdup (name_str);
      else
        display = g_strdup_printf ("%s %s", name_str, series_str);

      tkey.process = chrono_chrome_process_for (imp, ev->pid);
      tkey.type = CHRONO_TRACK_COUNTER;
      tkey.tid = string_id (chrono_string_table_intern (imp->trace->strings, display, strlen (display)));
      b = chrono_track_builder_new (&tkey, ev->pid);
      b->track.name = (guint32) tkey.tid.value;
      g_ptr_array_add (imp->builders, b);
      g_hash_table_insert (imp->counter_tracks, g_steal_pointer (&key), b);
    }
  return b;
}

static void
handle_counter (Importer    *imp,
                const Event *ev,
                gint64       ts)
{
  ChronoJsonScanner s;
  guint32 name;

  if (!(ev->present & HAS_ARGS))
    return;
  name = (ev->present & HAS_NAME) ? intern (imp, &ev->name) : CHRONO_NO_STRING;
  s.p = imp->base + ev->args_off + 1;
  s.end = imp->base + ev->args_off + ev->args_len;
  for (gboolean first = TRUE;; first = FALSE)
    {
      ChronoJsonString key;
      const guint8 *text;
      gsize len;
      gboolean is_string;
      gboolean done;
      gdouble value;

      if (chrono_json_next_member (&s, first, &key, &done) != CHRONO_JSON_OK || done)
        break;
      if (*s.p == '-' || *s.p == '"' || g_ascii_isdigit (*s.p))
        {
          if (read_number_text (&s, &text, &len, &is_string) != CHRONO_JSON_OK)
            break;
          if (chrono_json_parse_double (text, len, &value))
            chrono_track_builder_add_sample (counter_track (imp, ev, name, &key), ts, value);
        }
      else if (chrono_json_skip_value (&s) != CHRONO_JSON_OK)
        break;
    }
  note_time (imp, ts, ts);
}

static void
handle_flow (Importer    *imp,
             const Event *ev,
             gint64       ts,
             guint8       ph)
{
  ChronoFlowEvent f;

  if (!(ev->present & HAS_ID))
    {
      imp->dropped_by_phase[ph]++;
      return;
    }
  f.ts = ts;
  f.key = flow_id_key (ev->id, ev->id_len, ev->id_is_string, text_seed (ev, TRUE));
  f.track = track_for (imp, ev->pid, ev->tid, CHRONO_TRACK_THREAD);
  f.seq = imp->flow_events->len;
  f.ph = ph;
  f.enclosing = ph != 'f' || ((ev->present & HAS_BP) && ev->bp.len == 1 && ev->bp.start[0] == 'e');
  g_array_append_val (imp->flow_events, f);
  note_time (imp, ts, ts);
}

static guint64
async_key (const Event *ev,
           gboolean     legacy)
{
  guint64 h = flow_id_key (ev->id, ev->id_len, ev->id_is_string, text_seed (ev, legacy));

  if (ev->present & HAS_SCOPE)
    h = mix64 (hash_bytes64 (ev->scope.start, ev->scope.len, h));
  /* A local id2 is scoped to its process; legacy ids are global. The
   * pid's text, not its string id, so that keys agree across halves. */
  if (ev->id_is_local && ev->pid.is_string)
    h = mix64 (hash_bytes64 (ev->pid_str.start, ev->pid_str.len, h));
  else if (ev->id_is_local)
    h = mix64 (h ^ (guint64) ev->pid.value);
  return h;
}

static GArray *
async_stack (Importer *imp,
             guint64   key)
{
  GArray *stack = g_hash_table_lookup (imp->async_open, &key);

  if (stack == NULL)
    {
      guint64 *k = g_new (guint64, 1);

      *k = key;
      stack = g_array_new (FALSE, FALSE, sizeof (AsyncOpen));
      g_hash_table_insert (imp->async_open, k, stack);
    }
  return stack;
}

/* b/e/n (nestable) and S/T/p/F (legacy) async events, matched in file
 * order on per-process async tracks named after the outermost span. */
/* Async events are matched in time order once all are read: files are
 * not sorted, and a begin may come after its end in the file. */
static void
handle_async (Importer    *imp,
              const Event *ev,
              gint64       ts,
              guint8       ph)
{
  gboolean legacy = ph == 'S' || ph == 'T' || ph == 'p' || ph == 'F';
  AsyncEvent a;

  if (!(ev->present & HAS_ID))
    {
      imp->dropped_by_phase[ph]++;
      return;
    }
  a.ts = ts;
  a.key = async_key (ev, legacy);
  a.pid = ev->pid;
  a.name = (ev->present & HAS_NAME) ? intern (imp, &ev->name) : CHRONO_NO_STRING;
  a.cat = (ev->present & HAS_CAT) ? intern (imp, &ev->cat) : CHRONO_NO_STRING;
  a.args_off = args_of (ev);
  a.seq = imp->async_events->len;
  a.ph = ph;
  g_array_append_val (imp->async_events, a);
  note_time (imp, ts, ts);
}

static gint
compare_async (gconstpointer x,
               gconstpointer y)
{
  const AsyncEvent *a = x;
  const AsyncEvent *b = y;

  if (a->ts != b->ts)
    return a->ts < b->ts ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Nestable b/e/n and legacy S/T/p/F, on per-process async tracks named
 * after the outermost span of each operation. */
static void
match_async (Importer *imp)
{
  g_array_sort (imp->async_events, compare_async);
  for (guint i = 0; i < imp->async_events->len; i++)
    {
      const AsyncEvent *a = &g_array_index (imp->async_events, AsyncEvent, i);
      gboolean legacy = a->ph == 'S' || a->ph == 'T' || a->ph == 'p' || a->ph == 'F';
      GArray *stack = async_stack (imp, a->key);
      ChronoTrackBuilder *b;
      AsyncOpen open;
      gboolean matched = FALSE;

      switch (a->ph)
        {
        case 'b':
        case 'S':
          b = stack->len > 0
              ? g_array_index (stack, AsyncOpen, 0).track
              : track_for (imp, a->pid, string_id (a->name), CHRONO_TRACK_ASYNC);
          open.track = b;
          open.name = a->name;
          open.span = chrono_track_builder_add_span (b, a->ts, -1, a->name, a->cat, a->args_off,
                                                     CHRONO_KIND_ASYNC, 0);
          b->host_votes++;
          g_array_append_val (stack, open);
          break;

        case 'e':
        case 'F':
          /* A nestable end closes the innermost open span of its name. */
          for (guint k = stack->len; k > 0 && !matched; k--)
            {
              AsyncOpen *o = &g_array_index (stack, AsyncOpen, k - 1);

              if (legacy || a->name == CHRONO_NO_STRING || o->name == a->name)
                {
                  gint64 start = o->track->track.start[o->span];

                  o->track->dur[o->span] = MAX (a->ts - start, 0);
                  g_array_set_size (stack, k - 1);
                  matched = TRUE;
                }
            }
          if (!matched)
            imp->stray_async_ends++;
          break;

        default:  /* n, T, p: a point inside the async operation */
          b = stack->len > 0
              ? g_array_index (stack, AsyncOpen, 0).track
              : track_for (imp, a->pid, string_id (a->name), CHRONO_TRACK_ASYNC);
          chrono_track_builder_add_instant (b, a->ts, a->name, a->cat, a->args_off);
          break;
        }
    }
}

static void
handle_metadata (Importer    *imp,
                 const Event *ev)
{
  ChronoJsonString value;
  ChronoProcess *process;
  gint64 sort_index;

  guint index;

  if (!(ev->present & HAS_NAME) || !(ev->present & HAS_PID))
    return;
  /* Look the process up before taking its address: the lookup may grow
   * the array. */
  index = chrono_chrome_process_for (imp, ev->pid);
  process = &g_array_index (imp->trace->processes, ChronoProcess, index);

  /* Repeated records overwrite: the last one wins. */
  if (key_is (&ev->name, "process_name", 12))
    {
      if (args_lookup (imp, ev, "name", &value))
        process->name = intern (imp, &value);
    }
  else if (key_is (&ev->name, "process_labels", 14))
    {
      if (args_lookup (imp, ev, "labels", &value))
        process->labels = intern (imp, &value);
    }
  else if (key_is (&ev->name, "process_sort_index", 18))
    {
      if (args_lookup (imp, ev, "sort_index", &value) &&
          chrono_json_parse_int64 (value.start, value.len, &sort_index))
        {
          process->sort_index = sort_index;
          process->has_sort_index = TRUE;
        }
    }
  else if (key_is (&ev->name, "thread_name", 11) && (ev->present & HAS_TID))
    {
      if (args_lookup (imp, ev, "name", &value))
        track_for (imp, ev->pid, ev->tid, CHRONO_TRACK_THREAD)->track.name = intern (imp, &value);
    }
  else if (key_is (&ev->name, "thread_sort_index", 17) && (ev->present & HAS_TID))
    {
      if (args_lookup (imp, ev, "sort_index", &value) &&
          chrono_json_parse_int64 (value.start, value.len, &sort_index))
        {
          ChronoTrackBuilder *b = track_for (imp, ev->pid, ev->tid, CHRONO_TRACK_THREAD);
          b->track.sort_index = sort_index;
          b->track.has_sort_index = TRUE;
        }
    }
}

static void
count_phase (Importer    *imp,
             const Event *ev)
{
  if ((ev->present & HAS_PH) && ev->ph.len == 1)
    imp->phase_counts[ev->ph.start[0]]++;
  else
    {
      g_autofree char *ph = (ev->present & HAS_PH)
                            ? g_strndup ((const char *) ev->ph.start, ev->ph.len)
                            : g_strdup ("");
      gpointer old = g_hash_table_lookup (imp->odd_phases, ph);

      g_hash_table_insert (imp->odd_phases, g_steal_pointer (&ph),
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (old) + 1));
    }
}

static void
handle_event (Importer *imp,
              Event    *ev)
{
  guint8 ph;
  gint64 ts = 0;

  imp->events++;
  count_phase (imp, ev);
  if ((ev->present & HAS_PID) && ev->pid.is_string)
    ev->pid.value = intern (imp, &ev->pid_str);
  if ((ev->present & HAS_TID) && ev->tid.is_string)
    ev->tid.value = intern (imp, &ev->tid_str);
  if (!(ev->present & HAS_PH) || ev->ph.len != 1)
    {
      imp->dropped_by_phase[0]++;
      return;
    }
  ph = ev->ph.start[0];

  if (!(ev->present & HAS_PID))
    {
      ev->pid.value = 0;
      ev->pid.is_string = FALSE;
    }
  /* As Perfetto: a missing tid means the process's main thread. */
  if (!(ev->present & HAS_TID))
    ev->tid = ev->pid;

  if (ph == 'M')
    {
      handle_metadata (imp, ev);
      return;
    }

  if (!(ev->present & HAS_TS))
    {
      imp->no_ts++;
      imp->dropped_by_phase[ph]++;
      return;
    }
  if (ev->present & TS_NS)
    ts = ev->ts_ns;
  else if (!chrono_json_parse_us_to_ns (ev->ts, ev->ts_len, &ts))
    {
      imp->bad_numbers++;
      imp->dropped_by_phase[ph]++;
      return;
    }

  switch (ph)
    {
    case 'X':
      handle_complete (imp, ev, ts);
      break;
    case 'B':
      handle_mark (imp, ev, ts, FALSE);
      break;
    case 'E':
      handle_mark (imp, ev, ts, TRUE);
      break;
    case 'i':
    case 'I':
    case 'R':
      handle_instant (imp, ev, ts);
      break;
    case 'C':
      handle_counter (imp, ev, ts);
      break;
    case 's':
    case 't':
    case 'f':
      handle_flow (imp, ev, ts, ph);
      break;
    case 'b':
    case 'e':
    case 'n':
    case 'S':
    case 'T':
    case 'p':
    case 'F':
      handle_async (imp, ev, ts, ph);
      break;
    default:
      imp->dropped_by_phase[ph]++;
      break;
    }
}

/* -------------------------------------------------------------------- */
/* The event array and the root object                                  */

/* After a malformed event: the next "}," + "{" boundary, as profilers
 * write one event per line or per "}, {". */
static gboolean
resync (Importer *imp)
{
  ChronoJsonScanner *s = &imp->s;
  const guint8 *p = s->error_at ? s->error_at : s->p;

  for (;;)
    {
      const guint8 *q = memchr (p, '}', s->end - p);

      if (q == NULL)
        {
          if (imp->finished)
            return FALSE;
          p = s->end;
          refill (imp, s->end);
          continue;
        }
      p = q + 1;
      s->p = p;
      chrono_json_skip_ws (s);
      if (s->p < s->end && *s->p == ',')
        {
          s->p++;
          chrono_json_skip_ws (s);
          if (s->p < s->end && *s->p == '{')
            return TRUE;
        }
      else if (s->p < s->end && *s->p == ']')
        return TRUE;
      if (s->p >= s->end && !imp->finished)
        {
          refill (imp, q);
          p = q + 1;
        }
    }
}

static void
report_progress (Importer *imp)
{
  if (imp->progress)
    imp->progress (chrono_source_get_file_read (imp->source),
                   chrono_source_get_file_size (imp->source),
                   imp->progress_data);
}

static void
note_syntax (Importer   *imp,
             const char *expected)
{
  imp->malformed++;
  if (imp->malformed <= MAX_SYNTAX_WARNINGS)
    chrono_trace_add_warning (imp->trace, "byte %" G_GUINT64_FORMAT ": expected %s; skipped to the next event",
                              (guint64) ((imp->s.error_at ? imp->s.error_at : imp->s.p) - imp->base),
                              expected);
}

static gpointer
handler_main (gpointer data)
{
  Importer *imp = data;

  for (;;)
    {
      EventBlock *block = g_async_queue_pop (imp->full_blocks);

      if (block->n == G_MAXUINT)
        return NULL;
      for (guint i = 0; i < block->n; i++)
        handle_event (imp, &block->ev[i]);
      block->n = 0;
      g_async_queue_push (imp->free_blocks, block);
    }
}

static void
start_handler (Importer *imp)
{
  imp->full_blocks = g_async_queue_new ();
  imp->free_blocks = g_async_queue_new ();
  imp->all_blocks = g_new0 (EventBlock, EVENT_BLOCKS + 1);
  for (guint i = 0; i < EVENT_BLOCKS; i++)
    g_async_queue_push (imp->free_blocks, &imp->all_blocks[i]);
  imp->handler = g_thread_new ("chrono-import", handler_main, imp);
}

/* Hands over what is left and waits until every event is in the model. */
void
chrono_chrome_stop_handler (Importer *imp)
{
  EventBlock *end;

  if (imp->handler == NULL)
    return;
  end = &imp->all_blocks[EVENT_BLOCKS];
  if (imp->block != NULL && imp->block->n > 0)
    g_async_queue_push (imp->full_blocks, imp->block);
  imp->block = NULL;
  end->n = G_MAXUINT;
  g_async_queue_push (imp->full_blocks, end);
  g_thread_join (imp->handler);
  imp->handler = NULL;
  g_clear_pointer (&imp->full_blocks, g_async_queue_unref);
  g_clear_pointer (&imp->free_blocks, g_async_queue_unref);
  g_clear_pointer (&imp->all_blocks, g_free);
}

static Event *
next_event (Importer *imp)
{
  if (imp->block == NULL)
    imp->block = g_async_queue_pop (imp->free_blocks);
  return &imp->block->ev[imp->block->n];
}

static void
commit_event (Importer *imp)
{
  if (++imp->block->n == EVENT_BLOCK)
    {
      g_async_queue_push (imp->full_blocks, imp->block);
      imp->block = NULL;
    }
}

/* Decompression usually outruns the scan: once all bytes are in, what is
 * left is scanned as two halves like a file in memory. */
static void
split_when_decompressed (Importer *imp)
{
  gboolean finished = FALSE;
  gsize have = imp->s.end - imp->base;
  gsize avail;

  if (imp->second != NULL || imp->split_tried || imp->finished || have == 0)
    return;
  /* Asking for fewer bytes than are there returns at once. */
  avail = chrono_source_wait (imp->source, have - 1, &finished);
  if (!finished)
    return;
  imp->split_tried = TRUE;
  imp->s.end = imp->base + avail;
  imp->finished = TRUE;
  chrono_chrome_start_second_half (imp);
}

/* The entries of the event array, from just after its '[' (or from a
 * boundary between two entries) to its ']'. Returns FALSE on
 * cancellation; truncation is noted on the trace. */
gboolean
chrono_chrome_parse_elements (Importer *imp,
                              GError  **error)
{
  ChronoJsonScanner *s = &imp->s;
  guint32 until_progress = PROGRESS_EVERY;
  Event local;

  for (;;)
    {
      const guint8 *unit = s->p;
      ChronoJsonStatus st;
      Event *ev;

      chrono_json_skip_ws (s);
      if (s->p >= s->end)
        {
          if (imp->finished)
            goto truncated;
          refill (imp, unit);
          continue;
        }
      if (G_UNLIKELY (imp->split_at != NULL && s->p >= imp->split_at))
        {
          if (s->p == imp->split_at && chrono_chrome_join_second_half (imp))
            return TRUE;
          imp->split_at = NULL;
        }
      switch (*s->p)
        {
        case ']':
          s->p++;
          return TRUE;
        case ',':
          /* Trailing and doubled commas are tolerated. */
          s->p++;
          continue;
        case '{':
          unit = s->p;
          ev = imp->handler ? next_event (imp) : &local;
          st = parse_event (imp, ev);
          if (st == CHRONO_JSON_OK)
            {
              if (imp->handler)
                commit_event (imp);
              else
                handle_event (imp, ev);
              imp->seen++;
              if (--until_progress == 0)
                {
                  until_progress = PROGRESS_EVERY;
                  if (imp->handler != NULL)
                    split_when_decompressed (imp);
                  if (imp->abort != NULL && g_atomic_int_get (imp->abort))
                    return FALSE;
                  if (g_cancellable_set_error_if_cancelled (imp->cancellable, error))
                    return FALSE;
                  report_progress (imp);
                }
              continue;
            }
          break;
        default:
          unit = s->p;
          st = chrono_json_skip_value (s);
          if (st == CHRONO_JSON_OK)
            {
              imp->seen++;
              imp->non_objects++;
              continue;
            }
          break;
        }

      if (st == CHRONO_JSON_TRUNCATED)
        {
          s->p = unit;
          if (imp->finished)
            goto truncated;
          refill (imp, unit);
          continue;
        }
      note_syntax (imp, s->expected);
      if (!resync (imp))
        goto truncated;
    }

truncated:
  imp->trace->stats.truncated = TRUE;
  imp->truncated_at = s->end - imp->base;
  s->p = s->end;
  return TRUE;
}

static gboolean
parse_event_array (Importer *imp,
                   GError  **error)
{
  imp->s.p++;  /* '[' */
  return chrono_chrome_parse_elements (imp, error);
}

static gboolean
parse_root_object (Importer *imp,
                   GError  **error)
{
  ChronoJsonScanner *s = &imp->s;
  gboolean saw_events = FALSE;

  s->p++;  /* '{' */
  for (;;)
    {
      const guint8 *unit = s->p;
      const guint8 *value;
      ChronoJsonString key;
      ChronoJsonStatus st;

      chrono_json_skip_ws (s);
      if (s->p < s->end && *s->p == '}')
        break;
      if (s->p < s->end && *s->p == ',')
        {
          s->p++;
          continue;
        }
      st = chrono_json_read_string (s, &key);
      if (st == CHRONO_JSON_OK)
        st = expect_byte (s, ':', "':' after a key");
      if (st == CHRONO_JSON_OK)
        {
          chrono_json_skip_ws (s);
          if (s->p >= s->end)
            st = CHRONO_JSON_TRUNCATED;
        }
      if (st == CHRONO_JSON_OK && key_is (&key, "traceEvents", 11) && *s->p == '[')
        {
          if (!parse_event_array (imp, error))
            return FALSE;
          saw_events = TRUE;
          if (imp->trace->stats.truncated)
            break;
          continue;
        }
      if (st == CHRONO_JSON_OK)
        {
          value = s->p;
          st = chrono_json_skip_value (s);
          if (st == CHRONO_JSON_OK)
            chrono_chrome_note_root_key (imp, &key, value);
        }
      if (st == CHRONO_JSON_OK)
        continue;
      if (st == CHRONO_JSON_TRUNCATED && !imp->finished)
        {
          s->p = unit;
          refill (imp, unit);
          continue;
        }
      if (st == CHRONO_JSON_TRUNCATED)
        {
          if (!saw_events)
            {
              g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_SYNTAX,
                           "%s: the file ends at byte %" G_GUINT64_FORMAT " before any trace events",
                           imp->trace->path, (guint64) (s->end - imp->base));
              return FALSE;
            }
          imp->trace->stats.truncated = TRUE;
          chrono_trace_add_warning (imp->trace, "the file ends at byte %" G_GUINT64_FORMAT
                                    " after the event array; all events were read",
                                    (guint64) (s->end - imp->base));
          break;
        }
      g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_SYNTAX,
                   "%s: byte %" G_GUINT64_FORMAT ": expected %s",
                   imp->trace->path, (guint64) (s->error_at - imp->base), s->expected);
      return FALSE;
    }

  if (!saw_events)
    {
      g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT,
                   "%s: a JSON object without a \"traceEvents\" array is not a trace; expected "
                   CHRONO_LOAD_FORMATS, imp->trace->path);
      return FALSE;
    }
  return TRUE;
}

/* -------------------------------------------------------------------- */
/* The importer's state                                                 */

void
chrono_chrome_importer_init (Importer     *imp,
                             ChronoTrace  *trace,
                             ChronoSource *source)
{
  imp->trace = trace;
  imp->source = source;
  imp->base = chrono_source_get_data (source);
  imp->odd_phases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  imp->processes_int = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  imp->processes_str = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  imp->tracks = g_hash_table_new (chrono_track_key_hash, chrono_track_key_equal);
  imp->builders = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_track_builder_free);
  imp->counter_tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  imp->async_open = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_array_unref);
  imp->kind_cache = g_array_new (FALSE, TRUE, sizeof (KindCache));
  imp->flow_events = g_array_new (FALSE, FALSE, sizeof (ChronoFlowEvent));
  imp->v2_events = g_array_new (FALSE, FALSE, sizeof (ChronoV2Bind));
  imp->async_events = g_array_new (FALSE, FALSE, sizeof (AsyncEvent));
  imp->scratch = g_string_new (NULL);
  imp->min_ts = G_MAXINT64;
  imp->max_ts = G_MININT64;
  imp->global_process = chrono_string_table_intern (trace->strings, "Global", 6);
}

void
chrono_chrome_importer_clear (Importer *imp)
{
  g_clear_pointer (&imp->odd_phases, g_hash_table_unref);
  g_clear_pointer (&imp->processes_int, g_hash_table_unref);
  g_clear_pointer (&imp->processes_str, g_hash_table_unref);
  g_clear_pointer (&imp->tracks, g_hash_table_unref);
  g_clear_pointer (&imp->builders, g_ptr_array_unref);
  g_clear_pointer (&imp->counter_tracks, g_hash_table_unref);
  g_clear_pointer (&imp->async_open, g_hash_table_unref);
  g_clear_pointer (&imp->kind_cache, g_array_unref);
  g_clear_pointer (&imp->flow_events, g_array_unref);
  g_clear_pointer (&imp->v2_events, g_array_unref);
  g_clear_pointer (&imp->async_events, g_array_unref);
  if (imp->scratch)
    g_string_free (imp->scratch, TRUE);
  imp->scratch = NULL;
}

gboolean
chrono_chrome_importer_run (ChronoTrace        *trace,
                            ChronoSource       *source,
                            GCancellable       *cancellable,
                            ChronoProgressFunc  progress,
                            gpointer            user_data,
                            GError            **error)
{
  Importer imp = { 0 };
  gboolean ok = FALSE;
  ChronoBuildInput input;
  gint64 t0 = g_get_monotonic_time ();
  gint64 t1;

  chrono_chrome_importer_init (&imp, trace, source);
  imp.cancellable = cancellable;
  imp.progress = progress;
  imp.progress_data = user_data;
  imp.s.p = imp.base;
  imp.s.end = imp.base + chrono_source_wait (source, 0, &imp.finished);

  for (;;)
    {
      chrono_json_skip_ws (&imp.s);
      if (imp.s.p < imp.s.end || imp.finished)
        break;
      refill (&imp, imp.s.p);
    }

  if (imp.s.p >= imp.s.end)
    {
      g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT,
                   "%s: the file is empty", trace->path);
      goto out;
    }

  /* A file in memory is scanned as two halves on two cores; one still
   * arriving from the decompressor is scanned and modelled on two. A small
   * file is read faster than threads start. */
  chrono_chrome_start_second_half (&imp);
  if (imp.second == NULL && !(imp.finished && imp.s.end - imp.base < SMALL_FILE_BYTES))
    {
      start_handler (&imp);
      imp.handler_used = TRUE;
    }
  if (*imp.s.p == '[')
    ok = parse_event_array (&imp, error);
  else if (*imp.s.p == '{')
    ok = parse_root_object (&imp, error);
  else
    g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT,
                 "%s: byte %" G_GUINT64_FORMAT ": expected '{' or '[' of a JSON trace",
                 trace->path, (guint64) (imp.s.p - imp.base));
  chrono_chrome_stop_handler (&imp);
  chrono_chrome_discard_second_half (&imp);
  if (!ok)
    goto out;
  match_async (&imp);

  chrono_chrome_finish_stats (&imp);
  t1 = g_get_monotonic_time ();

  input.builders = imp.builders;
  input.flow_events = imp.flow_events;
  input.v2_binds = imp.v2_events;
  input.edges = NULL;
  input.min_ts = imp.min_ts;
  input.max_ts = imp.max_ts;
  trace->format = imp.kineto ? "kineto" : "chrome-json";
  chrono_track_builder_finish_trace (trace, &input);
  chrono_packed_devices_find (trace);
  g_debug ("%s: scanned in %.3f s (%s), built in %.3f s", trace->path, (t1 - t0) / 1e6,
           imp.split_used ? "two halves" :
           imp.handler_used ? "scan and model on two threads" : "one thread", (g_get_monotonic_time () - t1) / 1e6);

out:
  chrono_chrome_importer_clear (&imp);
  return ok;
}
