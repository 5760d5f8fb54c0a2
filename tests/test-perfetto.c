/* test-perfetto.c: the protobuf wire reader and the Perfetto importer on
 * traces this test writes itself
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <zlib.h>

#include "chrono-loader.h"
#include "chrono-proto-reader.h"
#include "perfetto-writer.h"
#include "test-utils.h"

/* ------------------------------------------------------------------ */
/* Loading                                                             */

static ChronoTrace *
load (GByteArray *data)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data->data, data->len);
  g_autoptr(GError) error = NULL;
  ChronoTrace *trace = chrono_trace_load_bytes (bytes, "fixture.pftrace", &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_assert_cmpstr (chrono_trace_get_format (trace), ==, "perfetto");
  return trace;
}

static const char *
span_name (ChronoTrace       *trace,
           const ChronoTrack *t,
           guint              i)
{
  return chrono_trace_get_string (trace, chrono_track_get_name (t, i));
}

static gboolean
has_warning (ChronoTrace *trace,
             const char  *needle)
{
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);

  for (guint i = 0; i < stats->warnings->len; i++)
    if (strstr (g_ptr_array_index (stats->warnings, i), needle) != NULL)
      return TRUE;
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* The wire reader                                                     */

static GByteArray *
every_wire_type (void)
{
  GByteArray *m = msg ();
  GByteArray *sub = msg ();

  put_uint (m, 1, 300);
  put_uint (m, 2, G_MAXUINT64);
  put_fixed64 (m, 3, 0x0102030405060708ull);
  put_tag (m, 4, 5);
  g_byte_array_append (m, (const guint8 *) "\x01\x02\x03\x04", 4);
  put_uint (sub, 1, 7);
  put_message (m, 5, sub);
  put_uint (m, 100000, 1);
  return m;
}

static void
test_reader_fields (void)
{
  g_autoptr(GByteArray) m = every_wire_type ();
  ChronoProtoReader r;
  ChronoProtoField f;

  chrono_proto_reader_init (&r, m->data, m->len);
  g_assert_cmpint (chrono_proto_reader_next (&r, &f), ==, CHRONO_PROTO_OK);
  g_assert_cmpuint (f.number, ==, 1);
  g_assert_cmpuint (f.value, ==, 300);
  g_assert_cmpint (chrono_proto_reader_next (&r, &f), ==, CHRONO_PROTO_OK);
  g_assert_cmpuint (f.value, ==, G_MAXUINT64);
  g_assert_cmpint (chrono_proto_reader_next (&r, &f), ==, CHRONO_PROTO_OK);
  g_assert_cmpuint (f.wire_type, ==, CHRONO_PROTO_FIXED64);
  g_assert_cmpuint (f.value, ==, 0x0102030405060708ull);
  g_assert_cmpint (chrono_proto_reader_next (&r, &f), ==, CHRONO_PROTO_OK);
  g_assert_cmpuint (f.wire_type, ==, CHRONO_PROTO_FIXED32);
  g_assert_cmpuint (f.value, ==, 0x04030201u);
  g_assert_cmpint (chrono_proto_reader_next (&r, &f), ==, CHRONO_PROTO_OK);
  g_assert_cmpuint (f.number, ==, 5);
  g_assert_cmpuint (f.len, ==, 2);
  g_assert_cmpint (chrono_proto_reader_next (&r, &f), ==, CHRONO_PROTO_OK);
  g_assert_cmpuint (f.number, ==, 100000);
  g_assert_cmpint (chrono_proto_reader_next (&r, &f), ==, CHRONO_PROTO_END);
}

/* Every proper prefix ends in TRUNCATED after the fields it holds whole,
 * and the reader never reads past it (the sanitizers would tell). */
static void
test_reader_prefixes (void)
{
  g_autoptr(GByteArray) m = every_wire_type ();

  for (guint len = 0; len < m->len; len++)
    {
      g_autofree guint8 *copy = g_memdup2 (m->data, MAX (len, 1));
      ChronoProtoReader r;
      ChronoProtoField f;
      ChronoProtoStatus st;
      guint n = 0;

      chrono_proto_reader_init (&r, copy, len);
      while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
        {
          g_assert_true (r.p <= copy + len);
          n++;
        }
      g_assert_cmpuint (n, <, 6);
      if (len == 0)
        g_assert_cmpint (st, ==, CHRONO_PROTO_END);
      else if (st == CHRONO_PROTO_END)
        /* Only a prefix that ends between fields reads to its end. */
        g_assert_true (r.p == copy + len);
      else
        g_assert_cmpint (st, ==, CHRONO_PROTO_TRUNCATED);
    }
}

static void
test_reader_malformed (void)
{
  /* 11 bytes of continuation, and a tenth byte above 1: overlong. */
  static const guint8 overlong[] = { 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
  static const guint8 tenth[] = { 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02 };
  static const guint8 max[] = { 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
  static const guint8 field_zero[] = { 0x00, 0x01 };
  static const guint8 group[] = { 0x0b, 0x0c };
  static const guint8 wire_6[] = { 0x0e };
  static const guint8 long_len[] = { 0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00 };
  ChronoProtoReader r;
  ChronoProtoField f;

  chrono_proto_reader_init (&r, overlong, sizeof overlong);
  g_assert_cmpint (chrono_proto_reader_next (&r, &f), ==, CHRONO_PROTO_MALFORMED);
  g_assert_true (r.p == overlong);
  chrono_proto_reader_init (&r, tenth, sizeof tenth);
  g_assert_cmpint (chrono_proto_reader_next (&r, &f), ==, CHRONO_PROTO_MALFORMED);
  chrono_proto_reader_init (&r, max, sizeof max);
  g_assert_cmpint (chrono_proto_reader_next (&r, &f), ==, CHRONO_PROTO_OK);
  g_assert_cmpuint (f.value, ==, G_MAXUINT64);
  chrono_proto_reader_init (&r, field_zero, sizeof field_zero);
  g_assert_cmpint (chrono_proto_reader_next (&r, &f), ==, CHRONO_PROTO_MALFORMED);
  chrono_proto_reader_init (&r, group, sizeof group);
  g_assert_cmpint (chrono_proto_reader_next (&r, &f), ==, CHRONO_PROTO_MALFORMED);
  chrono_proto_reader_init (&r, wire_6, sizeof wire_6);
  g_assert_cmpint (chrono_proto_reader_next (&r, &f), ==, CHRONO_PROTO_MALFORMED);
  chrono_proto_reader_init (&r, long_len, sizeof long_len);
  g_assert_cmpint (chrono_proto_reader_next (&r, &f), ==, CHRONO_PROTO_TRUNCATED);
}

/* Random bytes: every field the reader returns lies inside the buffer. */
static void
test_reader_garbage (void)
{
  for (guint round = 0; round < 2000; round++)
    {
      guint len = g_test_rand_int_range (0, 64);
      g_autofree guint8 *buf = g_malloc (MAX (len, 1));
      ChronoProtoReader r;
      ChronoProtoField f;

      for (guint i = 0; i < len; i++)
        buf[i] = g_test_rand_int_range (0, 256);
      chrono_proto_reader_init (&r, buf, len);
      while (chrono_proto_reader_next (&r, &f) == CHRONO_PROTO_OK)
        {
          g_assert_true (r.p <= buf + len);
          if (f.wire_type == CHRONO_PROTO_BYTES)
            g_assert_true (f.data >= buf && f.data + f.len <= buf + len);
        }
    }
}

static void
test_reader_packed (void)
{
  g_autoptr(GByteArray) packed = msg ();
  ChronoProtoField f = { 5, CHRONO_PROTO_BYTES, 0, NULL, 0 };
  gsize iter = 0;
  guint64 v;

  put_varint (packed, 1);
  put_varint (packed, 300);
  put_varint (packed, G_MAXUINT64);
  f.data = packed->data;
  f.len = packed->len;
  g_assert_true (chrono_proto_field_next_scalar (&f, CHRONO_PROTO_VARINT, &iter, &v));
  g_assert_cmpuint (v, ==, 1);
  g_assert_true (chrono_proto_field_next_scalar (&f, CHRONO_PROTO_VARINT, &iter, &v));
  g_assert_cmpuint (v, ==, 300);
  g_assert_true (chrono_proto_field_next_scalar (&f, CHRONO_PROTO_VARINT, &iter, &v));
  g_assert_cmpuint (v, ==, G_MAXUINT64);
  g_assert_false (chrono_proto_field_next_scalar (&f, CHRONO_PROTO_VARINT, &iter, &v));
}

/* ------------------------------------------------------------------ */
/* Fixtures                                                            */

/* Interned names, cleared and redefined; a data loss that skips the
 * packets needing the lost state. */
static void
test_interning (void)
{
  g_autoptr(GByteArray) t = msg ();
  g_autoptr(ChronoTrace) trace = NULL;
  const ChronoTrack *track;
  GByteArray *p, *in, *e;

  add_track (t, 10, 0, "work");

  p = packet (1, 100);
  put_uint (p, P_FLAGS, 1 | 2);
  in = msg ();
  put_message (in, 2, interned_entry (1, "first name"));
  put_message (in, 1, interned_entry (5, "cat-a"));
  put_message (p, P_INTERNED, in);
  e = event (BEGIN, 10, NULL);
  put_uint (e, E_NAME_IID, 1);
  put_uint (e, E_CATEGORY_IIDS, 5);
  put_message (p, P_TRACK_EVENT, e);
  add_packet (t, p);
  add_event (t, 1, 200, event (END, 10, NULL));

  /* Cleared: iid 1 now names something else. */
  p = packet (1, 300);
  put_uint (p, P_FLAGS, 1 | 2);
  in = msg ();
  put_message (in, 2, interned_entry (1, "second name"));
  put_message (p, P_INTERNED, in);
  e = event (INSTANT, 10, NULL);
  put_uint (e, E_NAME_IID, 1);
  put_message (p, P_TRACK_EVENT, e);
  add_packet (t, p);

  /* Data lost: a packet that needs the state is skipped ... */
  p = packet (1, 400);
  put_uint (p, P_DROPPED, 1);
  put_uint (p, P_FLAGS, 2);
  e = event (INSTANT, 10, NULL);
  put_uint (e, E_NAME_IID, 1);
  put_message (p, P_TRACK_EVENT, e);
  add_packet (t, p);
  /* ... one that does not is kept. */
  add_event (t, 1, 500, event (INSTANT, 10, "inline"));

  trace = load (t);
  track = test_track_named (trace, "work");
  g_assert_cmpuint (track->n_spans, ==, 1);
  g_assert_cmpstr (span_name (trace, track, 0), ==, "first name");
  g_assert_cmpstr (chrono_trace_get_string (trace, chrono_track_get_cat (track, 0)), ==, "cat-a");
  g_assert_cmpint (chrono_track_get_dur (track, 0), ==, 100);
  g_assert_cmpuint (track->n_instants, ==, 2);
  g_assert_cmpstr (chrono_trace_get_string (trace, chrono_track_get_inst_name (track, 0)), ==, "second name");
  g_assert_cmpstr (chrono_trace_get_string (trace, chrono_track_get_inst_name (track, 1)), ==, "inline");
  g_assert_true (has_warning (trace, "1 packets were skipped"));
  g_assert_true (has_warning (trace, "lost data 1 times"));
}

/* Process, thread and nested named tracks; slices given out of order. */
static void
test_nesting (void)
{
  g_autoptr(GByteArray) t = msg ();
  g_autoptr(ChronoTrace) trace = NULL;
  const ChronoTrack *thread, *child, *grandchild;
  const ChronoProcess *process;
  GByteArray *p, *d, *pd, *td;

  p = packet (1, G_MAXUINT64);
  d = msg ();
  put_uint (d, 1, 1);
  pd = msg ();
  put_uint (pd, 1, 42);
  put_string (pd, 6, "trainer");
  put_message (d, 3, pd);
  put_message (p, P_DESCRIPTOR, d);
  add_packet (t, p);

  p = packet (1, G_MAXUINT64);
  d = msg ();
  put_uint (d, 1, 2);
  put_uint (d, 5, 1);
  td = msg ();
  put_uint (td, 1, 42);
  put_uint (td, 2, 7);
  put_string (td, 5, "worker");
  put_message (d, 4, td);
  put_message (p, P_DESCRIPTOR, d);
  add_packet (t, p);

  add_track (t, 3, 1, "queue");
  add_track (t, 4, 3, "stage");

  /* Inner slice first, as the corpus file also does. */
  add_event (t, 1, 20, event (BEGIN, 2, "inner"));
  add_event (t, 1, 30, event (END, 2, NULL));
  add_event (t, 1, 10, event (BEGIN, 2, "outer"));
  add_event (t, 1, 40, event (END, 2, NULL));
  add_event (t, 1, 15, event (BEGIN, 3, "queued"));
  add_event (t, 1, 25, event (END, 3, NULL));
  add_event (t, 1, 16, event (BEGIN, 4, "staged"));
  add_event (t, 1, 18, event (END, 4, NULL));
  /* An end with nothing open: a stray. */
  add_event (t, 1, 50, event (END, 4, NULL));

  trace = load (t);
  g_assert_cmpuint (chrono_trace_get_n_processes (trace), ==, 1);
  process = chrono_trace_get_process (trace, 0);
  g_assert_cmpint (process->pid.value, ==, 42);
  g_assert_cmpstr (chrono_trace_get_string (trace, process->display_name), ==, "trainer (42)");

  thread = test_track_named (trace, "worker");
  g_assert_cmpint (thread->type, ==, CHRONO_TRACK_THREAD);
  g_assert_cmpint (thread->tid.value, ==, 7);
  g_assert_cmpuint (thread->n_spans, ==, 2);
  g_assert_cmpstr (span_name (trace, thread, 0), ==, "outer");
  g_assert_cmpuint (thread->depth[0], ==, 0);
  g_assert_cmpstr (span_name (trace, thread, 1), ==, "inner");
  g_assert_cmpuint (thread->depth[1], ==, 1);

  child = test_track_named (trace, "queue");
  grandchild = test_track_named (trace, "queue › stage");
  g_assert_cmpint (child->type, ==, CHRONO_TRACK_ASYNC);
  g_assert_cmpuint (child->process, ==, 0);
  g_assert_cmpuint (grandchild->process, ==, 0);
  /* Rows follow the tree: the parent before its child. */
  g_assert_cmpuint (test_track_index (trace, child), <, test_track_index (trace, grandchild));
  g_assert_cmpuint (chrono_trace_get_stats (trace)->spans, ==, 4);
  g_assert_cmpuint (chrono_trace_get_stats (trace)->dropped, ==, 1);
  g_assert_cmpint (chrono_trace_get_start_ns (trace), ==, 10);
  g_assert_cmpint (chrono_trace_get_end_ns (trace), ==, 50);
}

/* flow_ids continue a flow, terminating_flow_ids end it; an instant with
 * flows becomes a slice of no length. */
static void
test_flows (void)
{
  g_autoptr(GByteArray) t = msg ();
  g_autoptr(ChronoTrace) trace = NULL;
  const ChronoTrack *a, *b, *c;
  GByteArray *e;
  gboolean seen_ab = FALSE, seen_bc = FALSE;

  add_track (t, 1, 0, "a");
  add_track (t, 2, 0, "b");
  add_track (t, 3, 0, "c");
  e = event (BEGIN, 1, "send");
  put_fixed64 (e, E_FLOW, 77);
  put_fixed64 (e, E_FLOW, 88);
  add_event (t, 1, 10, e);
  add_event (t, 1, 20, event (END, 1, NULL));
  e = event (BEGIN, 2, "relay");
  put_fixed64 (e, E_FLOW, 77);
  add_event (t, 1, 30, e);
  add_event (t, 1, 40, event (END, 2, NULL));
  e = event (INSTANT, 3, "receive");
  put_fixed64 (e, E_TERMINATING_FLOW, 77);
  add_event (t, 1, 50, e);
  /* 88 never ends: no edge. A terminated id that never began: none. */
  e = event (INSTANT, 3, "orphan");
  put_fixed64 (e, E_TERMINATING_FLOW, 99);
  add_event (t, 1, 60, e);

  trace = load (t);
  a = test_track_named (trace, "a");
  b = test_track_named (trace, "b");
  c = test_track_named (trace, "c");
  g_assert_cmpuint (c->n_spans, ==, 2);
  g_assert_cmpint (chrono_track_get_dur (c, 0), ==, 0);
  g_assert_cmpuint (c->n_instants, ==, 0);
  g_assert_cmpuint (chrono_trace_get_n_flows (trace), ==, 2);
  g_assert_cmpuint (chrono_trace_get_stats (trace)->flows, ==, 2);
  for (guint i = 0; i < chrono_trace_get_n_flows (trace); i++)
    {
      const ChronoFlow *f = chrono_trace_get_flow (trace, i);

      g_assert_cmpint (f->type, ==, CHRONO_FLOW_V2);
      if (f->from.track == test_track_index (trace, a) && f->to.track == test_track_index (trace, b))
        seen_ab = TRUE;
      if (f->from.track == test_track_index (trace, b) && f->to.track == test_track_index (trace, c) &&
          g_str_equal (span_name (trace, c, f->to.index), "receive"))
        seen_bc = TRUE;
    }
  g_assert_true (seen_ab);
  g_assert_true (seen_bc);
}

/* Counter tracks: int and double values, a unit multiplier, incremental
 * values, and extra counter values through TrackEventDefaults. */
static void
test_counters (void)
{
  g_autoptr(GByteArray) t = msg ();
  g_autoptr(ChronoTrace) trace = NULL;
  const ChronoTrack *mem, *bytes, *extra;
  GByteArray *p, *d, *c, *defaults, *ted, *e;

  p = packet (1, G_MAXUINT64);
  d = msg ();
  put_uint (d, 1, 5);
  put_string (d, 2, "memory");
  c = msg ();
  put_uint (c, 4, 1024);
  put_message (d, 8, c);
  put_message (p, P_DESCRIPTOR, d);
  add_packet (t, p);

  p = packet (1, G_MAXUINT64);
  d = msg ();
  put_uint (d, 1, 6);
  put_string (d, 2, "allocated");
  c = msg ();
  put_uint (c, 5, 1);
  put_message (d, 8, c);
  put_message (p, P_DESCRIPTOR, d);
  add_packet (t, p);
  add_track (t, 7, 0, "extra");
  add_track (t, 8, 0, "slices");

  e = event (COUNTER, 5, NULL);
  put_uint (e, E_COUNTER, 2);
  add_event (t, 1, 100, e);
  e = event (COUNTER, 5, NULL);
  put_double (e, E_DOUBLE_COUNTER, 0.5);
  add_event (t, 1, 200, e);
  e = event (COUNTER, 6, NULL);
  put_uint (e, E_COUNTER, 10);
  add_event (t, 1, 100, e);
  e = event (COUNTER, 6, NULL);
  put_uint (e, E_COUNTER, (guint64) -3);
  add_event (t, 1, 200, e);

  p = packet (2, 300);
  put_uint (p, P_FLAGS, 1);
  defaults = msg ();
  ted = msg ();
  put_uint (ted, 11, 8);
  put_uint (ted, E_EXTRA_TRACKS, 7);
  put_message (defaults, 11, ted);
  put_message (p, P_DEFAULTS, defaults);
  e = event (INSTANT, 0, "tick");
  put_uint (e, E_EXTRA_VALUES, 99);
  put_message (p, P_TRACK_EVENT, e);
  add_packet (t, p);

  trace = load (t);
  mem = test_track_named (trace, "memory");
  g_assert_cmpint (mem->type, ==, CHRONO_TRACK_COUNTER);
  g_assert_cmpuint (mem->n_samples, ==, 2);
  g_assert_cmpfloat (mem->sample_value[0], ==, 2048);
  g_assert_cmpfloat (mem->sample_value[1], ==, 512);
  bytes = test_track_named (trace, "allocated");
  g_assert_cmpfloat (bytes->sample_value[0], ==, 10);
  g_assert_cmpfloat (bytes->sample_value[1], ==, 7);
  extra = test_track_named (trace, "extra");
  g_assert_cmpuint (extra->n_samples, ==, 1);
  g_assert_cmpfloat (extra->sample_value[0], ==, 99);
  g_assert_cmpint (extra->sample_ts[0], ==, 300);
  /* The default track took the instant. */
  g_assert_cmpuint (test_track_named (trace, "slices")->n_instants, ==, 1);
  g_assert_cmpuint (chrono_trace_get_stats (trace)->counter_samples, ==, 5);
}

/* Debug annotations come back through the args API as JSON. */
static void
test_args (void)
{
  g_autoptr(GByteArray) t = msg ();
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(GPtrArray) args = NULL;
  g_autoptr(JsonNode) node = NULL;
  const ChronoTrack *track;
  GByteArray *p, *in, *e, *a, *entry, *item;
  gsize len = 0;
  const char *raw;

  add_track (t, 1, 0, "t");
  p = packet (1, 5);
  put_uint (p, P_FLAGS, 1);
  in = msg ();
  put_message (in, 3, interned_entry (4, "interned key"));
  put_message (in, 29, interned_entry (9, "interned value"));
  put_message (p, P_INTERNED, in);
  e = event (BEGIN, 1, "op");

  a = msg ();
  put_string (a, 10, "count");
  put_uint (a, 4, (guint64) -12);
  put_message (e, E_ANNOTATION, a);
  a = msg ();
  put_string (a, 10, "text");
  put_string (a, 6, "say \"hi\"\n");
  put_message (e, E_ANNOTATION, a);
  a = msg ();
  put_uint (a, 1, 4);
  put_uint (a, 17, 9);
  put_message (e, E_ANNOTATION, a);
  a = msg ();
  put_string (a, 10, "big");
  put_uint (a, 3, G_MAXUINT64);
  put_message (e, E_ANNOTATION, a);
  a = msg ();
  put_string (a, 10, "ratio");
  put_double (a, 5, 0.25);
  put_message (e, E_ANNOTATION, a);
  a = msg ();
  put_string (a, 10, "shape");
  entry = msg ();
  put_string (entry, 10, "dims");
  item = msg ();
  put_uint (item, 4, 3);
  put_message (entry, 12, item);
  item = msg ();
  put_uint (item, 4, 4);
  put_message (entry, 12, item);
  put_message (a, 11, entry);
  entry = msg ();
  put_string (entry, 10, "ok");
  put_uint (entry, 2, 1);
  put_message (a, 11, entry);
  put_message (e, E_ANNOTATION, a);
  a = msg ();
  put_string (a, 10, "legacy");
  put_string (a, 9, "{\"x\": [1, 2]}");
  put_message (e, E_ANNOTATION, a);
  a = msg ();
  put_string (a, 10, "pointer");
  put_uint (a, 7, 0x10);
  put_message (e, E_ANNOTATION, a);
  /* The older NestedValue: a dict of an int and an array of a double and
   * a bool. */
  a = msg ();
  put_string (a, 10, "nested");
  entry = msg ();
  put_uint (entry, 1, 1);
  put_string (entry, 2, "n");
  put_string (entry, 2, "list");
  item = msg ();
  put_uint (item, 5, 5);
  put_message (entry, 3, item);
  item = msg ();
  put_uint (item, 1, 2);
  {
    GByteArray *x = msg ();
    put_double (x, 6, 1.5);
    put_message (item, 4, x);
    x = msg ();
    put_uint (x, 7, 0);
    put_message (item, 4, x);
  }
  put_message (entry, 3, item);
  put_message (a, 8, entry);
  put_message (e, E_ANNOTATION, a);
  put_message (p, P_TRACK_EVENT, e);
  add_packet (t, p);
  add_event (t, 1, 9, event (END, 1, NULL));

  trace = load (t);
  track = test_track_named (trace, "t");
  g_assert_cmpuint (track->n_spans, ==, 1);
  g_assert_cmpuint (chrono_track_get_args (track, 0), !=, CHRONO_NO_ARGS);
  args = chrono_trace_dup_args (trace, chrono_track_get_args (track, 0));
  g_assert_cmpuint (args->len, ==, 9);
#define ARG(i) ((ChronoArg *) g_ptr_array_index (args, i))
  g_assert_cmpstr (ARG (0)->key, ==, "count");
  g_assert_cmpstr (ARG (0)->text, ==, "-12");
  g_assert_cmpstr (ARG (1)->key, ==, "text");
  g_assert_cmpstr (ARG (1)->text, ==, "say \"hi\"\n");
  g_assert_cmpstr (ARG (2)->key, ==, "interned key");
  g_assert_cmpstr (ARG (2)->text, ==, "interned value");
  g_assert_cmpstr (ARG (3)->text, ==, "18446744073709551615");
  g_assert_cmpstr (ARG (4)->text, ==, "0.25");
  g_assert_cmpstr (ARG (5)->key, ==, "shape");
  g_assert_cmpstr (ARG (5)->text, ==, "{\"dims\":[3,4],\"ok\":true}");
  g_assert_cmpstr (ARG (6)->text, ==, "{\"x\":[1,2]}");
  g_assert_cmpstr (ARG (7)->text, ==, "0x10");
  g_assert_cmpstr (ARG (8)->key, ==, "nested");
  g_assert_cmpstr (ARG (8)->text, ==, "{\"n\":5,\"list\":[1.5,false]}");
#undef ARG
  raw = chrono_trace_get_raw_value (trace, chrono_track_get_args (track, 0), &len);
  g_assert_nonnull (raw);
  g_assert_cmpint (raw[0], ==, '{');
  g_assert_cmpint (raw[len - 1], ==, '}');
  /* The args the importer wrote are one text: a view reads them whole. */
  {
    ChronoArgsText view;
    gsize available = 0;

    chrono_args_text_init (&view, trace);
    g_assert_nonnull (view.text);
    g_assert_true (chrono_args_text_get (&view, chrono_track_get_args (track, 0), &available) == raw);
    g_assert_cmpuint (available, >=, len);
  }
  node = chrono_trace_get_span_args (trace, (ChronoSpanRef) { test_track_index (trace, track), 0 });
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (node), "count"), ==, -12);
}

/* A sequence-scoped incremental clock, related to the boot clock by a
 * snapshot and made the sequence's default: deltas add up. */
static void
test_clocks (void)
{
  g_autoptr(GByteArray) t = msg ();
  g_autoptr(ChronoTrace) trace = NULL;
  const ChronoTrack *track;
  GByteArray *p, *snap, *clock, *defaults;

  add_track (t, 1, 0, "t");
  p = packet (3, G_MAXUINT64);
  put_uint (p, P_FLAGS, 1);
  snap = msg ();
  clock = msg ();
  put_uint (clock, 1, 6);
  put_uint (clock, 2, 1000000);
  put_message (snap, 1, clock);
  clock = msg ();
  put_uint (clock, 1, 64);
  put_uint (clock, 2, 50);
  put_uint (clock, 3, 1);
  put_uint (clock, 4, 1000);
  put_message (snap, 1, clock);
  put_message (p, P_CLOCK_SNAPSHOT, snap);
  defaults = msg ();
  put_uint (defaults, P_CLOCK_ID, 64);
  put_message (p, P_DEFAULTS, defaults);
  add_packet (t, p);
  /* 5 and 3 units of 1000 ns after the snapshot's 50. */
  add_event (t, 3, 5, event (BEGIN, 1, "x"));
  add_event (t, 3, 3, event (END, 1, NULL));
  /* An explicit boot-clock timestamp is taken as it is. */
  p = packet (3, 2000000);
  put_uint (p, P_CLOCK_ID, 6);
  put_message (p, P_TRACK_EVENT, event (INSTANT, 1, "boot"));
  add_packet (t, p);

  trace = load (t);
  track = test_track_named (trace, "t");
  g_assert_cmpint (track->start[0], ==, 1000000 + 5000);
  g_assert_cmpint (chrono_track_get_dur (track, 0), ==, 3000);
  g_assert_cmpint (track->inst_ts[0], ==, 2000000);
  g_assert_false (has_warning (trace, "no clock snapshot"));
}

static GByteArray *
small_trace (void)
{
  GByteArray *t = msg ();
  GByteArray *p;

  add_track (t, 1, 0, "t");
  add_event (t, 1, 10, event (BEGIN, 1, "a"));
  add_event (t, 1, 20, event (END, 1, NULL));
  add_event (t, 1, 30, event (BEGIN, 1, "b"));
  add_event (t, 1, 40, event (END, 1, NULL));
  p = packet (1, G_MAXUINT64);
  put_string (p, 33, "a trace config");
  add_packet (t, p);
  p = packet (1, G_MAXUINT64);
  put_string (p, 1234, "something new");
  add_packet (t, p);
  return t;
}

static void
test_unknown_packets (void)
{
  g_autoptr(GByteArray) t = small_trace ();
  g_autoptr(ChronoTrace) trace = load (t);
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);

  g_assert_true (has_warning (trace, "1 trace_config (field 33)"));
  g_assert_true (has_warning (trace, "1 with field 1234"));
  /* The config is the recording's bookkeeping: a quirk, no banner; what
   * may hold events is a warning. */
  for (guint i = 0; i < stats->warnings->len; i++)
    {
      const char *w = g_ptr_array_index (stats->warnings, i);

      if (strstr (w, "trace_config") != NULL)
        g_assert_true (chrono_trace_warning_is_quirk (trace, i));
      if (strstr (w, "field 1234") != NULL)
        g_assert_false (chrono_trace_warning_is_quirk (trace, i));
    }
  g_assert_cmpuint (stats->events, ==, 4);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stats->phases, "slice_begin")), ==, 2);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stats->phases, "slice_end")), ==, 2);
  g_assert_false (stats->truncated);
}

/* Every prefix loads what it holds whole, and says when it is cut. */
static void
test_truncated_prefixes (void)
{
  g_autoptr(GByteArray) t = small_trace ();
  g_autoptr(GArray) ends = g_array_new (FALSE, FALSE, sizeof (gsize));
  ChronoProtoReader r;
  ChronoProtoField f;

  chrono_proto_reader_init (&r, t->data, t->len);
  while (chrono_proto_reader_next (&r, &f) == CHRONO_PROTO_OK)
    {
      gsize end = r.p - t->data;
      g_array_append_val (ends, end);
    }

  for (gsize len = 1; len < t->len; len++)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (t->data, len);
      g_autoptr(GError) error = NULL;
      g_autoptr(ChronoTrace) trace = chrono_trace_load_bytes (bytes, "cut.pftrace", &error);
      gboolean at_boundary = FALSE;
      guint64 whole = 0;

      for (guint i = 0; i < ends->len; i++)
        {
          if (g_array_index (ends, gsize, i) <= len)
            whole++;
          if (g_array_index (ends, gsize, i) == len)
            at_boundary = TRUE;
        }
      if (trace == NULL)
        {
          /* Too little of the first packet to tell what the file is. */
          g_assert_cmpuint (whole, ==, 0);
          g_assert_nonnull (strstr (error->message, "cut.pftrace"));
          continue;
        }
      g_assert_cmpstr (chrono_trace_get_format (trace), ==, "perfetto");
      g_assert_cmpint (chrono_trace_get_stats (trace)->truncated, ==, !at_boundary);
      if (!at_boundary)
        {
          g_autofree char *needle = g_strdup_printf ("loaded the %" G_GUINT64_FORMAT " complete packets", whole);
          g_assert_true (has_warning (trace, needle));
        }
    }
}

/* Garbage: before any packet an error naming the file and the byte,
 * after some packets a load of those, marked truncated. */
static void
test_garbage (void)
{
  g_autoptr(GByteArray) t = small_trace ();
  static const guint8 junk[] = { 0x0a, 0x03, 0x08, 0x01, 0x07, 0xff, 0xff };
  g_autoptr(GBytes) bad = g_bytes_new (junk, sizeof junk);
  g_autoptr(GBytes) tail = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  gsize good = t->len;

  trace = chrono_trace_load_bytes (bad, "junk.pftrace", &error);
  g_assert_null (trace);
  g_assert_nonnull (strstr (error->message, "junk.pftrace"));
  g_assert_nonnull (strstr (error->message, "byte"));
  g_clear_error (&error);

  g_byte_array_append (t, (const guint8 *) "\x07garbage", 8);
  tail = g_bytes_new (t->data, t->len);
  trace = chrono_trace_load_bytes (tail, "tail.pftrace", &error);
  g_assert_no_error (error);
  g_assert_true (chrono_trace_get_stats (trace)->truncated);
  g_assert_cmpuint (chrono_trace_get_stats (trace)->spans, ==, 2);
  {
    g_autofree char *needle = g_strdup_printf ("byte %" G_GSIZE_FORMAT ":", good);
    g_assert_true (has_warning (trace, needle));
  }
}

static GByteArray *
deflate_bytes (const guint8 *data,
               gsize         len,
               int           window_bits)
{
  GByteArray *out = g_byte_array_new ();
  z_stream zs = { 0 };
  guint8 buf[4096];
  int ret;

  g_assert_cmpint (deflateInit2 (&zs, 9, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY), ==, Z_OK);
  zs.next_in = (Bytef *) data;
  zs.avail_in = len;
  do
    {
      zs.next_out = buf;
      zs.avail_out = sizeof buf;
      ret = deflate (&zs, Z_FINISH);
      g_byte_array_append (out, buf, sizeof buf - zs.avail_out);
    }
  while (ret == Z_OK);
  g_assert_cmpint (ret, ==, Z_STREAM_END);
  deflateEnd (&zs);
  return out;
}

/* A gzip file, and packets inside compressed_packets, read as the plain. */
static void
test_compressed (void)
{
  g_autoptr(GByteArray) t = small_trace ();
  g_autoptr(GByteArray) gz = deflate_bytes (t->data, t->len, 16 + MAX_WBITS);
  g_autoptr(GByteArray) outer = msg ();
  g_autoptr(ChronoTrace) plain = load (t);
  g_autoptr(ChronoTrace) gzipped = load (gz);
  g_autoptr(ChronoTrace) nested = NULL;
  GByteArray *z = deflate_bytes (t->data, t->len, MAX_WBITS);
  GByteArray *p = packet (1, G_MAXUINT64);

  g_assert_cmpstr (chrono_trace_get_compression (gzipped), ==, "gzip");
  g_assert_cmpuint (chrono_trace_get_stats (gzipped)->spans, ==, chrono_trace_get_stats (plain)->spans);
  g_assert_cmpint (chrono_trace_get_end_ns (gzipped), ==, chrono_trace_get_end_ns (plain));

  put_bytes (p, P_COMPRESSED, z->data, z->len);
  g_byte_array_unref (z);
  add_packet (outer, p);
  nested = load (outer);
  g_assert_cmpuint (chrono_trace_get_stats (nested)->spans, ==, 2);
  g_assert_cmpuint (chrono_trace_get_stats (nested)->events, ==, 4);
}

/* TrackEvents without a type, from the legacy JSON-like API: B/E pair,
 * X has its duration, instants are instants, the rest is counted. */
static void
test_legacy_events (void)
{
  g_autoptr(GByteArray) t = msg ();
  g_autoptr(ChronoTrace) trace = NULL;
  const ChronoTrack *track;
  const ChronoLoadStats *stats;
  static const struct { guint64 ts; char phase; guint64 dur_us; const char *name; } events[] = {
    { 1000, 'B', 0, "begun" }, { 5000, 'E', 0, NULL }, { 6000, 'X', 3, "complete" },
    { 7000, 'i', 0, "instant" }, { 8000, 'b', 0, "async" },
  };
  GByteArray *p, *in, *e, *legacy;

  add_track (t, 1, 0, "legacy");
  p = packet (1, G_MAXUINT64);
  put_uint (p, P_FLAGS, 1);
  in = msg ();
  put_message (in, 2, interned_entry (3, "by iid"));
  put_message (p, P_INTERNED, in);
  add_packet (t, p);
  for (gsize i = 0; i < G_N_ELEMENTS (events); i++)
    {
      e = event (0, 1, events[i].name);
      legacy = msg ();
      put_uint (legacy, 2, (guint8) events[i].phase);
      if (events[i].dur_us)
        put_uint (legacy, 3, events[i].dur_us);
      put_message (e, 6, legacy);
      add_event (t, 1, events[i].ts, e);
    }
  /* The name from the legacy event's own name_iid. */
  e = event (0, 1, NULL);
  legacy = msg ();
  put_uint (legacy, 1, 3);
  put_uint (legacy, 2, 'X');
  put_uint (legacy, 3, 1);
  put_message (e, 6, legacy);
  add_event (t, 1, 20000, e);

  trace = load (t);
  stats = chrono_trace_get_stats (trace);
  track = test_track_named (trace, "legacy");
  g_assert_cmpuint (track->n_spans, ==, 3);
  g_assert_cmpstr (span_name (trace, track, 0), ==, "begun");
  g_assert_cmpint (chrono_track_get_dur (track, 0), ==, 4000);
  g_assert_cmpstr (span_name (trace, track, 1), ==, "complete");
  g_assert_cmpint (chrono_track_get_dur (track, 1), ==, 3000);
  g_assert_cmpstr (span_name (trace, track, 2), ==, "by iid");
  g_assert_cmpuint (track->n_instants, ==, 1);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stats->phases, "legacy_X")), ==, 2);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stats->phases, "legacy_b")), ==, 1);
  g_assert_null (g_hash_table_lookup (stats->phases, "unspecified"));
  g_assert_cmpuint (stats->events, ==, 6);
  g_assert_cmpuint (stats->dropped, ==, 1);
  g_assert_true (has_warning (trace, "1 track events of no known type"));
}

/* A packet whose length byte is '{' or '[' is still Perfetto; JSON that
 * starts with a new line (the byte of field 1) is still JSON. */
static void
test_sniff (void)
{
  static const char *const json[] = {
    "\n[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2}]",
    "\n{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2}]}\n",
    "\n[]",
  };
  static const guint8 lengths[] = { '{', '[' };

  for (gsize i = 0; i < G_N_ELEMENTS (json); i++)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (json[i], strlen (json[i]));
      g_autoptr(GError) error = NULL;
      g_autoptr(ChronoTrace) trace = chrono_trace_load_bytes (bytes, "newline.json", &error);

      g_assert_no_error (error);
      g_assert_cmpstr (chrono_trace_get_format (trace), ==, "chrome-json");
    }
  for (gsize i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      g_autoptr(GByteArray) t = msg ();
      g_autoptr(ChronoTrace) trace = NULL;
      g_autofree char *name = NULL;

      /* Packet: sequence id (2 bytes), the descriptor's tag (2) and
       * length (1), its uuid (2), its name's tag and length (2), the name. */
      name = g_strnfill (lengths[i] - 2 - 2 - 1 - 2 - 2, 'n');
      add_track (t, 1, 0, name);
      g_assert_cmpuint (t->data[1], ==, lengths[i]);
      add_event (t, 1, 10, event (INSTANT, 1, "mark"));
      trace = load (t);
      g_assert_cmpuint (chrono_trace_get_stats (trace)->instants, ==, 1);
    }
}

/* An XSpace as JAX and TensorFlow write it (.xplane.pb): planes (field 1)
 * with an id, a name, lines of events and metadata maps (fields 4 and 5,
 * the latter a Perfetto packet's chrome_events). */
static GByteArray *
xspace (const char *first_plane)
{
  GByteArray *space = g_byte_array_new ();
  const char *names[] = { first_plane, "/host:CPU" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      /* put_message takes the message it is given. */
      GByteArray *plane = msg ();
      GByteArray *line = msg ();
      GByteArray *xevent = msg ();
      GByteArray *metadata = msg ();
      g_autoptr(GByteArray) entry = msg ();

      put_uint (plane, 1, i + 1);
      put_string (plane, 2, names[i]);
      put_uint (xevent, 1, 7);   /* metadata_id */
      put_uint (xevent, 2, 100); /* offset_ps */
      put_uint (xevent, 3, 900); /* duration_ps */
      put_uint (line, 1, 1);
      put_string (line, 2, "Stream #1");
      put_uint (line, 3, 1700000000000000000); /* timestamp_ns */
      put_message (line, 4, xevent);
      put_message (plane, 3, line);
      put_uint (metadata, 1, 7);
      put_string (metadata, 2, "fusion.1");
      put_uint (entry, 1, 7);
      put_message (entry, 2, metadata);
      put_bytes (plane, 4, entry->data, entry->len);
      put_bytes (plane, 5, entry->data, entry->len);
      put_message (space, 1, plane);
    }
  put_string (space, 4, "worker-0");
  return space;
}

/* A JAX or TensorFlow profile is not taken for a Perfetto trace, plain or
 * compressed; the message says what it is and what reads it. */
static void
test_xplane (void)
{
  static const char * const planes[] = { "/device:GPU:0", "/host:metadata" };

  for (guint i = 0; i < G_N_ELEMENTS (planes); i++)
    {
      g_autoptr(GByteArray) space = xspace (planes[i]);
      g_autoptr(GByteArray) gz = deflate_bytes (space->data, space->len, 16 + MAX_WBITS);
      g_autoptr(GBytes) bytes = g_bytes_new (space->data, space->len);
      g_autoptr(GBytes) gzipped = g_bytes_new (gz->data, gz->len);
      GBytes *variants[] = { bytes, gzipped };

      for (guint j = 0; j < G_N_ELEMENTS (variants); j++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(ChronoTrace) trace = chrono_trace_load_bytes (variants[j], "run.xplane.pb", &error);

          g_assert_null (trace);
          g_assert_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT);
          g_assert_true (g_str_has_prefix (error->message, "run.xplane.pb: "));
          g_assert_nonnull (strstr (error->message, "XSpace profile of JAX or TensorFlow"));
          g_assert_nonnull (strstr (error->message, "does not read"));
          g_assert_nonnull (strstr (error->message, "create_perfetto_trace=True"));
        }
    }
}

/* A Perfetto trace whose first packet's field 2 (ftrace events) holds
 * bytes still loads as Perfetto: only a plane's name makes an XSpace. */
static void
test_not_xplane (void)
{
  g_autoptr(GByteArray) t = small_trace ();
  GByteArray *ftrace = msg ();
  GByteArray *bundle = msg ();
  g_autoptr(GByteArray) whole = msg ();
  g_autoptr(ChronoTrace) trace = NULL;

  put_uint (bundle, 1, 0);  /* cpu */
  put_message (ftrace, 2, bundle);
  add_packet (whole, ftrace);
  g_byte_array_append (whole, t->data, t->len);
  trace = load (whole);
  g_assert_cmpuint (chrono_trace_get_stats (trace)->spans, ==, 2);
}

/* Bytes of no format name every format that is read. */
static void
test_not_a_trace (void)
{
  static const char junk[] = "\x01\x02 not a trace";
  g_autoptr(GBytes) bytes = g_bytes_new_static (junk, sizeof junk - 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = chrono_trace_load_bytes (bytes, "junk.bin", &error);
  static const char * const formats[] = { "Chrome trace event JSON", "PyTorch profiler", "Neuron",
                                          "Perfetto protobuf", "gzip", "zstd", "zip" };

  g_assert_null (trace);
  g_assert_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT);
  g_assert_true (g_str_has_prefix (error->message, "junk.bin: byte 0: "));
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    g_assert_nonnull (strstr (error->message, formats[i]));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/proto/fields", test_reader_fields);
  g_test_add_func ("/proto/prefixes", test_reader_prefixes);
  g_test_add_func ("/proto/malformed", test_reader_malformed);
  g_test_add_func ("/proto/garbage", test_reader_garbage);
  g_test_add_func ("/proto/packed", test_reader_packed);
  g_test_add_func ("/perfetto/interning", test_interning);
  g_test_add_func ("/perfetto/nesting", test_nesting);
  g_test_add_func ("/perfetto/flows", test_flows);
  g_test_add_func ("/perfetto/counters", test_counters);
  g_test_add_func ("/perfetto/args", test_args);
  g_test_add_func ("/perfetto/clocks", test_clocks);
  g_test_add_func ("/perfetto/unknown-packets", test_unknown_packets);
  g_test_add_func ("/perfetto/truncated-prefixes", test_truncated_prefixes);
  g_test_add_func ("/perfetto/garbage", test_garbage);
  g_test_add_func ("/perfetto/compressed", test_compressed);
  g_test_add_func ("/perfetto/sniff", test_sniff);
  g_test_add_func ("/perfetto/legacy-events", test_legacy_events);
  g_test_add_func ("/perfetto/xplane", test_xplane);
  g_test_add_func ("/perfetto/not-xplane", test_not_xplane);
  g_test_add_func ("/perfetto/not-a-trace", test_not_a_trace);
  return g_test_run ();
}
