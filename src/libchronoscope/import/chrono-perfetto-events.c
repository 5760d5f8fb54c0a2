/* chrono-perfetto-events.c: track events made into slices, instants, counter
 * samples and flow binds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-perfetto-private.h"

/* -------------------------------------------------------------------- */
/* Track events                                                         */

static void
note_time (Importer *imp,
           gint64    ts)
{
  imp->min_ts = MIN (imp->min_ts, ts);
  imp->max_ts = MAX (imp->max_ts, ts);
}

static void
add_counter_sample (Importer *imp,
                    Track    *t,
                    gint64    ts,
                    gdouble   value)
{
  value *= (gdouble) t->unit_multiplier;
  if (t->incremental)
    {
      t->sum += value;
      value = t->sum;
    }
  chrono_track_builder_add_sample (chrono_perfetto_counter_of (imp, t), ts, value);
  note_time (imp, ts);
}

/* The event's flows as binds of builder B: flow_ids continue a flow,
 * terminating_flow_ids end one. The first bind gets SPAN, the others
 * the same span. Returns the first bind's index, or G_MAXUINT32. */
static guint32
add_binds (Importer           *imp,
           ChronoTrackBuilder *b,
           guint32             span,
           gint64              ts)
{
  guint32 first = imp->v2_binds->len;
  guint n_flows = imp->flow_ids->len;

  for (guint i = 0; i < n_flows + imp->terminating_ids->len; i++)
    {
      ChronoV2Bind bind;

      bind.track = b;
      bind.span = i == 0 || span != G_MAXUINT32 ? span : CHRONO_BIND_SAME_SPAN;
      bind.ts = ts;
      bind.key = i < n_flows ? g_array_index (imp->flow_ids, guint64, i)
                             : g_array_index (imp->terminating_ids, guint64, i - n_flows);
      bind.in = TRUE;
      bind.out = i < n_flows;
      bind.seq = imp->v2_binds->len;
      g_array_append_val (imp->v2_binds, bind);
    }
  return imp->v2_binds->len > first ? first : G_MAXUINT32;
}

/* Counter values are int64 varints or doubles (fixed64). */
static void
append_counter_values (GArray                 *out,
                       const ChronoProtoField *f,
                       gboolean                is_double)
{
  gsize iter = 0;
  guint64 v;

  while (chrono_proto_field_next_scalar (f, is_double ? CHRONO_PROTO_FIXED64 : CHRONO_PROTO_VARINT, &iter, &v))
    {
      ChronoProtoField one = { 0, CHRONO_PROTO_FIXED64, v, NULL, 0 };
      gdouble d = is_double ? chrono_proto_field_double (&one) : (gdouble) (gint64) v;

      g_array_append_val (out, d);
    }
}

static Track *
event_track (Importer *imp,
             Sequence *seq,
             gboolean  has_track,
             guint64   uuid)
{
  if (has_track)
    return chrono_perfetto_track_for_uuid (imp, uuid);
  if (seq->has_default_track)
    return chrono_perfetto_track_for_uuid (imp, seq->default_track);
  if (seq->thread_track != NULL)
    return seq->thread_track;
  if (seq->loose_track == NULL)
    {
      g_autofree char *name = g_strdup_printf ("Sequence %u", seq->id);

      seq->loose_track = chrono_perfetto_track_new (imp);
      seq->loose_track->name = chrono_string_table_intern (imp->trace->strings, name, strlen (name));
    }
  return seq->loose_track;
}

static void
add_extra_counters (Importer *imp,
                    Sequence *seq,
                    gint64    ts,
                    GArray   *uuids,
                    GArray   *defaults,
                    GArray   *values)
{
  GArray *which = uuids->len > 0 ? uuids : defaults;

  for (guint i = 0; i < values->len && i < which->len; i++)
    add_counter_sample (imp, chrono_perfetto_track_for_uuid (imp, g_array_index (which, guint64, i)), ts,
                        g_array_index (values, gdouble, i));
}

/* A slice whose length is known (legacy 'X'), or an instant with flows. */
static void
add_complete (Importer *imp,
              Track    *t,
              gint64    ts,
              gint64    dur,
              guint32   name,
              guint32   cat,
              guint64   args)
{
  ChronoTrackBuilder *b = chrono_perfetto_slices_of (imp, t);
  const char *c = chrono_string_table_get (imp->trace->strings, cat);
  const char *n = chrono_string_table_get (imp->trace->strings, name);
  gboolean on_device;
  guint8 kind = chrono_kineto_classify (c, strlen (c), n, strlen (n), &on_device);
  guint32 index = chrono_track_builder_add_span (b, ts, MAX (dur, 0), name, cat, args, kind, 0);

  add_binds (imp, b, index, ts);
  note_time (imp, ts);
  note_time (imp, ts + MAX (dur, 0));
}

typedef struct {
  guint8  phase;
  gint64  dur_us;
  guint64 name_iid;
  gboolean has_name_iid;
} LegacyEvent;

/* LegacyEvent, of TrackEvents with no type: name_iid 1, phase 2,
 * duration_us 3. */
static ChronoProtoStatus
read_legacy_event (const ChronoProtoField *field,
                   LegacyEvent            *legacy)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;

  chrono_proto_reader_init (&r, field->data, field->len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    {
      if (f.wire_type != CHRONO_PROTO_VARINT)
        continue;
      if (f.number == 1)
        {
          legacy->name_iid = f.value;
          legacy->has_name_iid = TRUE;
        }
      else if (f.number == 2)
        legacy->phase = (guint8) f.value;
      else if (f.number == 3)
        legacy->dur_us = (gint64) f.value;
    }
  return st;
}

/* The TrackEvent type a legacy phase amounts to. */
static guint
legacy_type (guint8 phase)
{
  switch (phase)
    {
    case 'B': return TYPE_SLICE_BEGIN;
    case 'E': return TYPE_SLICE_END;
    case 'I': case 'i': case 'n': return TYPE_INSTANT;
    case 'X': return TYPE_LEGACY_COMPLETE;
    default: return TYPE_UNSPECIFIED;
    }
}

ChronoProtoStatus
chrono_perfetto_handle_track_event (Importer     *imp,
                                    Sequence     *seq,
                                    const Packet *pk)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;
  guint64 type = TYPE_UNSPECIFIED;
  gboolean has_track = FALSE;
  guint64 uuid = 0;
  guint32 name = CHRONO_NO_STRING;
  gboolean has_counter = FALSE;
  gdouble counter = 0;
  gboolean has_abs_us = FALSE, has_delta_us = FALSE;
  gint64 abs_us = 0, delta_us = 0;
  ChronoProtoField legacy_field = { 0 };
  LegacyEvent legacy = { 0 };
  GString *cats = imp->cats;
  guint32 cat;
  gint64 ts;
  Track *t;
  guint64 args;

  g_string_truncate (imp->cats, 0);
  g_array_set_size (imp->annotations, 0);
  g_array_set_size (imp->flow_ids, 0);
  g_array_set_size (imp->terminating_ids, 0);
  g_array_set_size (imp->counter_uuids, 0);
  g_array_set_size (imp->counter_values, 0);
  g_array_set_size (imp->double_counter_uuids, 0);
  g_array_set_size (imp->double_counter_values, 0);

  chrono_proto_reader_init (&r, pk->event.data, pk->event.len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    {
      gboolean is_bytes = f.wire_type == CHRONO_PROTO_BYTES;
      gboolean is_varint = f.wire_type == CHRONO_PROTO_VARINT;

      switch (f.number)
        {
        case 9: if (is_varint) type = f.value; break;
        case 11: if (is_varint) { has_track = TRUE; uuid = f.value; } break;
        case 10: if (is_varint) name = chrono_perfetto_lookup_interned (imp, seq, INTERN_EVENT_NAMES, f.value); break;
        case 23: if (is_bytes) name = chrono_perfetto_intern_bytes (imp, f.data, f.len); break;
        case 3:
          {
            gsize iter = 0;
            guint64 iid;

            while (chrono_proto_field_next_scalar (&f, CHRONO_PROTO_VARINT, &iter, &iid))
              {
                guint32 id = chrono_perfetto_lookup_interned (imp, seq, INTERN_CATEGORIES, iid);

                if (cats->len > 0)
                  g_string_append_c (cats, ',');
                g_string_append (cats, chrono_string_table_get (imp->trace->strings, id));
              }
            break;
          }
        case 22:
          if (is_bytes)
            {
              if (cats->len > 0)
                g_string_append_c (cats, ',');
              g_string_append_len (cats, (const char *) f.data, (gssize) f.len);
            }
          break;
        case 4: if (is_bytes) g_array_append_val (imp->annotations, f); break;
        case 30: if (is_varint) { has_counter = TRUE; counter = (gdouble) (gint64) f.value; } break;
        case 44:
          if (f.wire_type == CHRONO_PROTO_FIXED64)
            {
              has_counter = TRUE;
              counter = chrono_proto_field_double (&f);
            }
          break;
        case 31: chrono_perfetto_append_scalars (imp->counter_uuids, &f, CHRONO_PROTO_VARINT); break;
        case 12: append_counter_values (imp->counter_values, &f, FALSE); break;
        case 45: chrono_perfetto_append_scalars (imp->double_counter_uuids, &f, CHRONO_PROTO_VARINT); break;
        case 46: append_counter_values (imp->double_counter_values, &f, TRUE); break;
        case 47:
          chrono_perfetto_append_scalars (imp->flow_ids, &f, is_varint ? CHRONO_PROTO_VARINT : CHRONO_PROTO_FIXED64);
          break;
        case 36: chrono_perfetto_append_scalars (imp->flow_ids, &f, CHRONO_PROTO_VARINT); break;
        case 48:
          chrono_perfetto_append_scalars (imp->terminating_ids, &f, is_varint ? CHRONO_PROTO_VARINT : CHRONO_PROTO_FIXED64);
          break;
        case 42: chrono_perfetto_append_scalars (imp->terminating_ids, &f, CHRONO_PROTO_VARINT); break;
        case 6: if (is_bytes) legacy_field = f; break;
        case 16: if (is_varint) { has_abs_us = TRUE; abs_us = (gint64) f.value; } break;
        case 1: if (is_varint) { has_delta_us = TRUE; delta_us = (gint64) f.value; } break;
        default: break;
        }
    }
  if (st != CHRONO_PROTO_END)
    return st;

  if (type == TYPE_UNSPECIFIED && legacy_field.data != NULL)
    {
      if ((st = read_legacy_event (&legacy_field, &legacy)) != CHRONO_PROTO_END)
        return st;
      imp->legacy_counts[legacy.phase]++;
      type = legacy_type (legacy.phase);
      if (name == CHRONO_NO_STRING && legacy.has_name_iid)
        name = chrono_perfetto_lookup_interned (imp, seq, INTERN_EVENT_NAMES, legacy.name_iid);
    }
  else
    {
      /* Types this reader does not know are not shown, and counted. */
      if (type >= N_TYPES)
        type = TYPE_UNSPECIFIED;
      imp->type_counts[type]++;
    }
  imp->events++;

  if (pk->has_ts)
    {
      guint32 clock = pk->has_clock ? pk->clock
                    : seq->has_default_clock ? seq->default_clock
                    : imp->trace_clock ? imp->trace_clock : BOOTTIME_CLOCK;
      ts = chrono_perfetto_to_trace_time (imp, seq->id, clock, pk->ts);
    }
  else if (has_abs_us)
    {
      seq->last_us = abs_us;
      ts = abs_us * 1000;
    }
  else if (has_delta_us)
    {
      seq->last_us += delta_us;
      ts = seq->last_us * 1000;
    }
  else
    {
      imp->no_timestamp++;
      return CHRONO_PROTO_END;
    }

  cat = chrono_perfetto_intern_bytes (imp, (const guint8 *) cats->str, cats->len);
  t = event_track (imp, seq, has_track, uuid);

  switch (type)
    {
    case TYPE_SLICE_BEGIN:
    case TYPE_SLICE_END:
      {
        ChronoTrackBuilder *b = chrono_perfetto_slices_of (imp, t);
        ChronoMark mark;

        mark.ts = ts;
        mark.args_off = chrono_perfetto_write_args (imp, seq);
        mark.name = name;
        mark.cat = cat;
        mark.is_end = type == TYPE_SLICE_END;
        mark.bind = G_MAXUINT32;
        if (type == TYPE_SLICE_BEGIN)
          mark.bind = add_binds (imp, b, G_MAXUINT32, ts);
        else
          imp->end_flows += imp->flow_ids->len + imp->terminating_ids->len;
        chrono_track_builder_add_mark (b, &mark);
        note_time (imp, ts);
        break;
      }
    case TYPE_INSTANT:
      args = chrono_perfetto_write_args (imp, seq);
      /* Flows attach to slices: an instant with flows is one of no
       * length, as Perfetto draws it. */
      if (imp->flow_ids->len + imp->terminating_ids->len > 0)
        add_complete (imp, t, ts, 0, name, cat, args);
      else
        {
          chrono_track_builder_add_instant (chrono_perfetto_slices_of (imp, t), ts, name, cat, args);
          note_time (imp, ts);
        }
      break;
    case TYPE_LEGACY_COMPLETE:
      add_complete (imp, t, ts, legacy.dur_us * 1000, name, cat, chrono_perfetto_write_args (imp, seq));
      break;
    case TYPE_COUNTER:
      if (has_counter)
        add_counter_sample (imp, t, ts, counter);
      else
        imp->unused_events++;
      break;
    default:
      imp->unused_events++;
      break;
    }

  add_extra_counters (imp, seq, ts, imp->counter_uuids, seq->extra_counters, imp->counter_values);
  add_extra_counters (imp, seq, ts, imp->double_counter_uuids, seq->extra_double_counters,
                      imp->double_counter_values);
  return CHRONO_PROTO_END;
}
