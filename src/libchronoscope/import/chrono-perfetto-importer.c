/* chrono-perfetto-importer.c
 *
 * Walks the Trace → TracePacket stream with the wire reader, keeps the
 * per-sequence state (interning, defaults, clocks) and hands slices,
 * instants, counter samples and flows to the track builders, so that the
 * model comes out as for JSON traces. Field numbers are those of
 * protos/perfetto/trace/ in the Perfetto sources.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <zlib.h>

#include "chrono-perfetto-private.h"

/* What the load summary calls each TrackEvent type. */
static const char *const type_names[N_TYPES] = {
  "unspecified", "slice_begin", "slice_end", "instant", "counter",
};

/* -------------------------------------------------------------------- */
/* Names of the TracePacket fields this reader does not show            */

/* Packets about the recording itself (its config, stats, clocks' ids,
 * the service's own events), which hold no events: a trace has them
 * whether or not anything is lost. */
static gboolean
is_bookkeeping (guint32 number)
{
  static const guint32 fields[] = { 33, 34, 35, 45, 69, 72, 78, 89 };

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    if (fields[i] == number)
      return TRUE;
  return FALSE;
}

static const char *
packet_field_name (guint32 number)
{
  static const struct { guint32 number; const char *name; } names[] = {
    { 1, "ftrace_events" }, { 2, "process_tree" }, { 4, "inode_file_map" },
    { 5, "chrome_events" }, { 7, "sys_stats" }, { 9, "process_stats" },
    { 33, "trace_config" }, { 34, "ftrace_stats" }, { 35, "trace_stats" },
    { 37, "profile_packet" }, { 38, "battery" }, { 39, "android_log" },
    { 40, "power_rails" }, { 45, "system_info" }, { 46, "trigger" },
    { 47, "packages_list" }, { 48, "chrome_benchmark_metadata" },
    { 49, "perfetto_metatrace" }, { 51, "chrome_metadata" },
    { 52, "gpu_counter_event" }, { 53, "gpu_render_stage_event" },
    { 54, "streaming_profile_packet" }, { 56, "heap_graph" },
    { 57, "graphics_frame_event" }, { 61, "module_symbols" },
    { 62, "vulkan_memory_event" }, { 63, "gpu_log" },
    { 64, "deobfuscation_mapping" }, { 65, "vulkan_api_event" },
    { 66, "perf_sample" }, { 67, "cpu_info" }, { 68, "smaps_packet" },
    { 69, "service_event" }, { 70, "initial_display_state" },
    { 71, "gpu_mem_total_event" }, { 72, "extension_descriptor" },
    { 73, "memory_tracker_snapshot" }, { 74, "streaming_allocation" },
    { 75, "streaming_free" }, { 76, "frame_timeline_event" },
    { 77, "android_energy_estimation_breakdown" }, { 78, "ui_state" },
    { 82, "translation_table" }, { 84, "statsd_atom" },
    { 86, "android_system_property" }, { 89, "trace_uuid" },
    { 90, "track_event_range_of_interest" }, { 91, "entity_state_residency" },
    { 95, "etw_events" }, { 107, "remote_clock_sync" },
    { 133, "zstd_compressed_packets" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (names[i].number == number)
      return names[i].name;
  return NULL;
}

/* -------------------------------------------------------------------- */
/* Packets                                                              */

static ChronoProtoStatus read_trace (Importer     *imp,
                                     const guint8 *data,
                                     gsize         len);

/* compressed_packets: a deflated Trace of more packets. */
static ChronoProtoStatus
handle_compressed (Importer     *imp,
                   const guint8 *data,
                   gsize         len)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  z_stream zs = { 0 };
  guint8 buf[1 << 15];
  int ret = Z_OK;

  if (imp->nested >= MAX_NESTED_TRACES)
    {
      imp->inflate_errors++;
      return CHRONO_PROTO_END;
    }
  /* zlib or gzip framing, detected from the header. */
  if (inflateInit2 (&zs, 32 + MAX_WBITS) != Z_OK)
    {
      imp->inflate_errors++;
      return CHRONO_PROTO_END;
    }
  zs.next_in = (Bytef *) data;
  zs.avail_in = (uInt) MIN (len, (gsize) G_MAXUINT32);
  while (ret == Z_OK)
    {
      zs.next_out = buf;
      zs.avail_out = sizeof buf;
      ret = inflate (&zs, Z_NO_FLUSH);
      g_byte_array_append (out, buf, sizeof buf - zs.avail_out);
      if (out->len > MAX_INFLATED_BYTES)
        break;
    }
  inflateEnd (&zs);
  if (ret != Z_STREAM_END)
    {
      imp->inflate_errors++;
      return CHRONO_PROTO_END;
    }
  {
    ChronoProtoStatus st;

    imp->nested++;
    st = read_trace (imp, out->data, out->len);
    imp->nested--;
    return st;
  }
}

static void
count_unknown_packet (Importer *imp,
                      guint32   number)
{
  gpointer old = g_hash_table_lookup (imp->unknown_packets, GUINT_TO_POINTER (number));

  g_hash_table_insert (imp->unknown_packets, GUINT_TO_POINTER (number),
                       GUINT_TO_POINTER (GPOINTER_TO_UINT (old) + 1));
}

static ChronoProtoStatus
handle_packet (Importer     *imp,
               const guint8 *data,
               gsize         len)
{
  Packet pk = { 0 };
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;
  Sequence *seq;

  /* Fields come in any order; the interned data and defaults of a packet
   * apply to its own event, so collect first. */
  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    {
      gboolean is_bytes = f.wire_type == CHRONO_PROTO_BYTES;

      switch (f.number)
        {
        case PACKET_TIMESTAMP: pk.has_ts = TRUE; pk.ts = f.value; break;
        case PACKET_CLOCK_ID: pk.has_clock = TRUE; pk.clock = (guint32) f.value; break;
        case PACKET_SEQUENCE_ID: pk.seq_id = (guint32) f.value; break;
        case PACKET_SEQUENCE_FLAGS: pk.flags = (guint32) f.value; break;
        case PACKET_STATE_CLEARED: pk.cleared = f.value != 0; break;
        case PACKET_PREVIOUS_DROPPED: pk.dropped = f.value != 0; break;
        case PACKET_TRACK_EVENT: if (is_bytes) pk.event = f; break;
        case PACKET_TRACK_DESCRIPTOR: if (is_bytes) pk.descriptor = f; break;
        case PACKET_INTERNED_DATA: if (is_bytes) pk.interned = f; break;
        case PACKET_DEFAULTS: if (is_bytes) pk.defaults = f; break;
        case PACKET_CLOCK_SNAPSHOT: if (is_bytes) pk.snapshot = f; break;
        case PACKET_PROCESS_DESCRIPTOR: if (is_bytes) pk.process = f; break;
        case PACKET_THREAD_DESCRIPTOR: if (is_bytes) pk.thread = f; break;
        case PACKET_COMPRESSED: if (is_bytes) pk.compressed = f; break;
        case PACKET_TRUSTED_UID:
        case PACKET_TRUSTED_PID:
        case PACKET_SYNC_MARKER:
        case PACKET_FIRST_ON_SEQUENCE:
          break;
        default:
          count_unknown_packet (imp, f.number);
          break;
        }
    }
  if (st != CHRONO_PROTO_END)
    return st;

  imp->packets++;
  seq = chrono_perfetto_sequence_for (imp, pk.seq_id);
  if (pk.dropped)
    imp->data_losses++;
  if (pk.cleared || (pk.flags & SEQ_INCREMENTAL_STATE_CLEARED))
    {
      chrono_perfetto_sequence_clear (seq);
      seq->valid = TRUE;
    }
  else if (pk.dropped)
    seq->valid = FALSE;
  if ((pk.flags & SEQ_NEEDS_INCREMENTAL_STATE) && !seq->valid)
    {
      /* Interned ids and defaults of this packet point at state that was
       * lost: what it says cannot be trusted. */
      imp->lost_packets++;
      return CHRONO_PROTO_END;
    }

#define STEP(call) G_STMT_START { if ((st = (call)) != CHRONO_PROTO_END) return st; } G_STMT_END
  if (pk.defaults.data)
    STEP (chrono_perfetto_handle_defaults (seq, pk.defaults.data, pk.defaults.len));
  if (pk.interned.data)
    STEP (chrono_perfetto_handle_interned_data (imp, seq, pk.interned.data, pk.interned.len));
  if (pk.snapshot.data)
    STEP (chrono_perfetto_handle_clock_snapshot (imp, pk.seq_id, pk.snapshot.data, pk.snapshot.len));
  if (pk.process.data)
    {
      gint64 pid = 0;
      STEP (chrono_perfetto_read_process (imp, pk.process.data, pk.process.len, &pid));
    }
  if (pk.thread.data)
    STEP (chrono_perfetto_handle_thread_packet (imp, seq, pk.thread.data, pk.thread.len));
  if (pk.descriptor.data)
    STEP (chrono_perfetto_handle_track_descriptor (imp, pk.descriptor.data, pk.descriptor.len));
  if (pk.event.data)
    STEP (chrono_perfetto_handle_track_event (imp, seq, &pk));
  if (pk.compressed.data)
    STEP (handle_compressed (imp, pk.compressed.data, pk.compressed.len));
#undef STEP
  return CHRONO_PROTO_END;
}

/* A whole Trace in memory (the inside of compressed packets). */
static ChronoProtoStatus
read_trace (Importer     *imp,
            const guint8 *data,
            gsize         len)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;

  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    if (f.number == 1 && f.wire_type == CHRONO_PROTO_BYTES)
      {
        ChronoProtoStatus pst = handle_packet (imp, f.data, f.len);
        if (pst != CHRONO_PROTO_END)
          return pst;
      }
  return st;
}

/* -------------------------------------------------------------------- */
/* The file                                                             */

/* Whether the fields of DATA read to the end (or, with PREFIX, to where
 * the data stops). */
static gboolean
fields_valid (const guint8 *data,
              gsize         len,
              gboolean      prefix)
{
  ChronoProtoReader r;
  ChronoProtoField f;
  ChronoProtoStatus st;

  chrono_proto_reader_init (&r, data, len);
  while ((st = chrono_proto_reader_next (&r, &f)) == CHRONO_PROTO_OK)
    ;
  return st == CHRONO_PROTO_END || (prefix && st == CHRONO_PROTO_TRUNCATED);
}

gboolean
chrono_perfetto_importer_sniff (ChronoSource *source)
{
  gboolean finished = FALSE;
  gsize avail = chrono_source_wait (source, 0, &finished);
  const guint8 *data = chrono_source_get_data (source);

  for (;;)
    {
      ChronoProtoReader r;
      ChronoProtoField f;
      ChronoProtoStatus st;

      if (avail == 0 || data[0] != 0x0a)
        return FALSE;
      chrono_proto_reader_init (&r, data, avail);
      st = chrono_proto_reader_next (&r, &f);
      /* A whole packet, followed by the next or by the end: JSON that
       * starts with a new line (the same byte) reads as no such thing. */
      if (st == CHRONO_PROTO_OK)
        return fields_valid (f.data, f.len, FALSE) && (r.p == r.end || *r.p == 0x0a);
      if (st == CHRONO_PROTO_MALFORMED || finished)
        return FALSE;
      if (avail >= SNIFF_BYTES)
        {
          /* A first packet larger than we wait for: what there is of it
           * must read as fields. */
          const guint8 *p = data + 1;
          guint64 len;

          return chrono_proto_read_varint (&p, data + avail, &len) == CHRONO_PROTO_OK &&
                 fields_valid (p, data + avail - p, TRUE);
        }
      avail = chrono_source_wait (source, avail, &finished);
    }
}

static void
importer_init (Importer     *imp,
               ChronoTrace  *trace,
               ChronoSource *source)
{
  imp->trace = trace;
  imp->source = source;
  imp->sequences = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) chrono_perfetto_sequence_free);
  imp->tracks = g_hash_table_new (g_int64_hash, g_int64_equal);
  imp->thread_tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  imp->track_list = g_ptr_array_new_with_free_func (g_free);
  imp->process_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  imp->processes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  imp->clocks = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) chrono_perfetto_clock_free);
  imp->builders = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_track_builder_free);
  imp->flow_events = g_array_new (FALSE, FALSE, sizeof (ChronoFlowEvent));
  imp->v2_binds = g_array_new (FALSE, FALSE, sizeof (ChronoV2Bind));
  imp->scratch = g_string_new (NULL);
  imp->cats = g_string_new (NULL);
  imp->annotations = g_array_new (FALSE, FALSE, sizeof (ChronoProtoField));
  imp->flow_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  imp->terminating_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  imp->counter_uuids = g_array_new (FALSE, FALSE, sizeof (guint64));
  imp->counter_values = g_array_new (FALSE, FALSE, sizeof (gdouble));
  imp->double_counter_uuids = g_array_new (FALSE, FALSE, sizeof (guint64));
  imp->double_counter_values = g_array_new (FALSE, FALSE, sizeof (gdouble));
  imp->unknown_packets = g_hash_table_new (NULL, NULL);
  imp->min_ts = G_MAXINT64;
  imp->max_ts = G_MININT64;
  trace->args_json = g_byte_array_new ();
  imp->args = trace->args_json;
}

static void
importer_clear (Importer *imp)
{
  g_clear_pointer (&imp->sequences, g_hash_table_unref);
  g_clear_pointer (&imp->tracks, g_hash_table_unref);
  g_clear_pointer (&imp->thread_tracks, g_hash_table_unref);
  g_clear_pointer (&imp->track_list, g_ptr_array_unref);
  g_clear_pointer (&imp->process_names, g_hash_table_unref);
  g_clear_pointer (&imp->processes, g_hash_table_unref);
  g_clear_pointer (&imp->clocks, g_hash_table_unref);
  g_clear_pointer (&imp->builders, g_ptr_array_unref);
  g_clear_pointer (&imp->flow_events, g_array_unref);
  g_clear_pointer (&imp->v2_binds, g_array_unref);
  g_string_free (imp->scratch, TRUE);
  g_string_free (imp->cats, TRUE);
  g_clear_pointer (&imp->annotations, g_array_unref);
  g_clear_pointer (&imp->flow_ids, g_array_unref);
  g_clear_pointer (&imp->terminating_ids, g_array_unref);
  g_clear_pointer (&imp->counter_uuids, g_array_unref);
  g_clear_pointer (&imp->counter_values, g_array_unref);
  g_clear_pointer (&imp->double_counter_uuids, g_array_unref);
  g_clear_pointer (&imp->double_counter_values, g_array_unref);
  g_clear_pointer (&imp->unknown_packets, g_hash_table_unref);
}

static gint
compare_unknown (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  GHashTable *counts = user_data;
  guint ca = GPOINTER_TO_UINT (g_hash_table_lookup (counts, a));
  guint cb = GPOINTER_TO_UINT (g_hash_table_lookup (counts, b));
  guint na = GPOINTER_TO_UINT (a);
  guint nb = GPOINTER_TO_UINT (b);

  if (ca != cb)
    return ca > cb ? -1 : 1;
  return na < nb ? -1 : na > nb;
}

static void
finish_stats (Importer *imp)
{
  ChronoTrace *trace = imp->trace;
  ChronoLoadStats *stats = &trace->stats;

  stats->events = imp->events;
  for (guint i = 0; i < N_TYPES; i++)
    if (imp->type_counts[i] > 0)
      g_hash_table_insert (stats->phases, g_strdup (type_names[i]), GSIZE_TO_POINTER (imp->type_counts[i]));
  for (guint c = 0; c < 256; c++)
    if (imp->legacy_counts[c] > 0)
      {
        g_autofree char *key = g_ascii_isgraph (c) ? g_strdup_printf ("legacy_%c", c)
                                                   : g_strdup_printf ("legacy_%u", c);
        g_hash_table_insert (stats->phases, g_steal_pointer (&key), GSIZE_TO_POINTER (imp->legacy_counts[c]));
      }
  stats->dropped = imp->no_timestamp + imp->unused_events;

  if (g_hash_table_size (imp->unknown_packets) > 0)
    {
      g_autoptr(GList) numbers = g_hash_table_get_keys (imp->unknown_packets);
      /* [0] what holds events, [1] the recording's bookkeeping. */
      g_autoptr(GString) lost = g_string_new ("packets not shown: ");
      g_autoptr(GString) kept = g_string_new ("packets of the recording's own bookkeeping, which hold no events: ");
      GString *texts[2] = { lost, kept };
      gsize empty = lost->len, kept_empty = kept->len;
      guint64 totals[2] = { 0, 0 };

      numbers = g_list_sort_with_data (numbers, compare_unknown, imp->unknown_packets);
      for (GList *l = numbers; l; l = l->next)
        {
          guint number = GPOINTER_TO_UINT (l->data);
          guint count = GPOINTER_TO_UINT (g_hash_table_lookup (imp->unknown_packets, l->data));
          const char *name = packet_field_name (number);
          guint which = is_bookkeeping (number);
          GString *text = texts[which];

          totals[which] += count;
          if (text->len > (which ? kept_empty : empty))
            g_string_append (text, ", ");
          if (name != NULL)
            g_string_append_printf (text, "%u %s (field %u)", count, name, number);
          else
            g_string_append_printf (text, "%u with field %u", count, number);
        }
      if (totals[0] > 0)
        chrono_trace_add_warning (trace, "%s; %" G_GUINT64_FORMAT " in all", lost->str, totals[0]);
      if (totals[1] > 0)
        chrono_trace_add_quirk (trace, "%s; %" G_GUINT64_FORMAT " in all", kept->str, totals[1]);
    }
  if (imp->data_losses > 0)
    chrono_trace_add_warning (trace, "the producer lost data %" G_GUINT64_FORMAT " times (previous_packet_dropped)",
                              imp->data_losses);
  if (imp->lost_packets > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " packets were skipped: they need incremental state "
                              "that was lost or never sent", imp->lost_packets);
  if (imp->unconverted_ts > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " timestamps are in a clock that no clock snapshot "
                              "relates to the trace clock: kept as written", imp->unconverted_ts);
  if (imp->unknown_iids > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " interned ids were never defined on their sequence",
                              imp->unknown_iids);
  if (imp->no_timestamp > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " track events have no timestamp", imp->no_timestamp);
  if (imp->unused_events > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " track events of no known type (legacy phases "
                              "other than B, E, X and instants; counters without a value) are not shown",
                              imp->unused_events);
  if (imp->end_flows > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " flow ids on slice ends are not drawn", imp->end_flows);
  if (imp->inflate_errors > 0)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " compressed packets could not be inflated",
                              imp->inflate_errors);
  if (imp->malformed > MAX_MALFORMED_WARNINGS)
    chrono_trace_add_warning (trace, "%" G_GUINT64_FORMAT " malformed packets were skipped in all", imp->malformed);
}

gboolean
chrono_perfetto_importer_run (ChronoTrace        *trace,
                              ChronoSource       *source,
                              GCancellable       *cancellable,
                              ChronoProgressFunc  progress,
                              gpointer            user_data,
                              GError            **error)
{
  Importer imp = { 0 };
  const guint8 *base = chrono_source_get_data (source);
  gboolean finished = FALSE;
  gsize avail = chrono_source_wait (source, 0, &finished);
  gsize offset = 0;
  guint64 top_level = 0;
  ChronoBuildInput input = { 0 };

  importer_init (&imp, trace, source);
  trace->format = "perfetto";

  for (;;)
    {
      ChronoProtoReader r;
      ChronoProtoField f;
      ChronoProtoStatus st;

      chrono_proto_reader_init (&r, base + offset, avail - offset);
      st = chrono_proto_reader_next (&r, &f);
      if ((st == CHRONO_PROTO_END || st == CHRONO_PROTO_TRUNCATED) && !finished)
        {
          avail = chrono_source_wait (source, avail, &finished);
          continue;
        }
      if (st == CHRONO_PROTO_END)
        break;
      if (st == CHRONO_PROTO_TRUNCATED)
        {
          trace->stats.truncated = TRUE;
          chrono_trace_add_warning (trace, "the file ends inside packet %" G_GUINT64_FORMAT " at byte %"
                                    G_GSIZE_FORMAT ": loaded the %" G_GUINT64_FORMAT " complete packets before it",
                                    top_level + 1, offset, top_level);
          break;
        }
      if (st == CHRONO_PROTO_MALFORMED)
        {
          if (top_level == 0)
            {
              g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT,
                           "%s: byte %" G_GSIZE_FORMAT ": not a Perfetto trace (%s)",
                           trace->path, offset, chrono_proto_status_to_string (st));
              importer_clear (&imp);
              return FALSE;
            }
          trace->stats.truncated = TRUE;
          chrono_trace_add_warning (trace, "byte %" G_GSIZE_FORMAT ": the packet stream breaks off (%s): "
                                    "loaded the %" G_GUINT64_FORMAT " packets before it",
                                    offset, chrono_proto_status_to_string (st), top_level);
          break;
        }

      top_level++;
      if (f.number == 1 && f.wire_type == CHRONO_PROTO_BYTES)
        {
          st = handle_packet (&imp, f.data, f.len);
          if (st != CHRONO_PROTO_END && imp.malformed++ < MAX_MALFORMED_WARNINGS)
            chrono_trace_add_warning (trace, "byte %" G_GSIZE_FORMAT ": packet %" G_GUINT64_FORMAT
                                      " is malformed (%s): skipped the rest of it",
                                      offset, top_level, chrono_proto_status_to_string (st));
        }
      offset = r.p - base;

      if ((top_level & 4095) == 0)
        {
          if (g_cancellable_is_cancelled (cancellable))
            break;
          if (progress)
            progress (chrono_source_get_file_read (source), chrono_source_get_file_size (source), user_data);
        }
    }

  finish_stats (&imp);
  chrono_perfetto_resolve_tracks (&imp);
  input.builders = imp.builders;
  input.flow_events = imp.flow_events;
  input.v2_binds = imp.v2_binds;
  input.min_ts = imp.min_ts;
  input.max_ts = imp.max_ts;
  chrono_track_builder_finish_trace (trace, &input);
  importer_clear (&imp);
  return TRUE;
}
