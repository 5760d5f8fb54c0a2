/* chrono-neuron-system-importer.c
 *
 * system_profile.json holds the host side of a Neuron profile: runtime API
 * calls and framework events per thread, hardware events per NeuronCore
 * (nc_exec_running, cc_running, already on the host clock: the runtime
 * moves them there with its timestamp sync points), and sampled host
 * memory and CPU use. Times are epoch nanoseconds, above 2^53; ids such as
 * process_id, lnc_idx, size and tensor_id may be strings.
 *
 * Rows follow the AWS tools: a process per (instance, pid) with its
 * threads, a "NeuronCore n (hardware)" row per core, and counters:
 * host memory under the instance, HBM usage (device_mem_usage, read by
 * one consumer only, its shape taken to be SystemProfileHbmUsage's)
 * under a process per device.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-communication.h"
#include "chrono-neuron.h"
#include "chrono-neuron-counters.h"
#include "chrono-neuron-system-importer.h"

typedef enum {
  TABLE_EVENTS,
  TABLE_EVENT,
  TABLE_MEM_USAGE,
  TABLE_CPU_UTIL,
  TABLE_DEVICE_MEM_USAGE,
  N_TABLES
} Table;

/* The documentation says trace_events; newer output writes trace_event. */
static const char * const table_keys[N_TABLES + 1] = {
  "trace_events", "trace_event", "mem_usage", "cpu_util", "device_mem_usage", NULL
};

enum {
  SORT_THREAD = 0,
  SORT_HARDWARE = 1000,
};

typedef struct {
  const guint8    *start;
  ChronoNeuronTimes t;
  guint64          thread, nc, type;
  gboolean         has_thread, has_nc, has_type, has_value;
  gdouble          value;
  ChronoJsonString name, instance, process, source, cpu;
  ChronoNeuronHbmSample hbm;
} Event;

typedef struct {
  ChronoNeuronReader  *reader;
  ChronoNeuronCounters counters;
  guint32              cat;
  guint64             unknown_tables;
} Importer;

static const char * const hardware_names[] = {
  "nc_exec_running", "cc_running", "cc_exec_barrier", "numerical_err",
  "nrt_model_switch", "nc_model_switch", "timestamp_sync_point", "hw_notify", NULL
};

/* An HBM sample's members, by their SystemProfileHbmUsage names; the
 * device may also be called neuron_device_idx, device_id or nd_idx, and
 * the total used_bytes. */
static ChronoJsonStatus
read_hbm_member (ChronoJsonScanner      *s,
                 const ChronoJsonString *key,
                 ChronoNeuronHbmSample  *hbm)
{
  guint64 v;
  gboolean ok = FALSE;
  ChronoJsonStatus st;
  gint part;

  if (chrono_neuron_str_is (key, "device_idx", 10) || chrono_neuron_str_is (key, "neuron_device_idx", 17) ||
      chrono_neuron_str_is (key, "device_id", 9) || chrono_neuron_str_is (key, "nd_idx", 6))
    {
      if ((st = chrono_neuron_read_int (s, &v, &ok)) == CHRONO_JSON_OK && ok && v <= G_MAXINT32)
        hbm->device = (gint64) v;
      return st;
    }
  if (chrono_neuron_str_is (key, "hbm_idx", 7))
    {
      if ((st = chrono_neuron_read_int (s, &v, &ok)) == CHRONO_JSON_OK && ok && v <= G_MAXINT32)
        hbm->hbm = (gint64) v;
      return st;
    }
  if (chrono_neuron_str_is (key, "total_bytes", 11) || chrono_neuron_str_is (key, "used_bytes", 10))
    {
      if ((st = chrono_neuron_read_int (s, &v, &ok)) == CHRONO_JSON_OK && ok && v <= G_MAXINT64)
        hbm->total = (gint64) v;
      return st;
    }
  if ((part = chrono_neuron_hbm_part ((const char *) key->start, key->len)) >= 0)
    {
      if ((st = chrono_neuron_read_int (s, &v, &ok)) == CHRONO_JSON_OK && ok && v <= G_MAXINT64)
        {
          hbm->parts[part] = (gint64) v;
          hbm->has_parts |= 1u << part;
        }
      return st;
    }
  return chrono_json_skip_value (s);
}

static ChronoJsonStatus
read_member (ChronoJsonScanner      *s,
             const ChronoJsonString *key,
             gpointer                data)
{
  Event *ev = data;

  if (chrono_neuron_str_is (key, "name", 4))
    return chrono_neuron_read_string (s, &ev->name);
  if (chrono_neuron_str_is (key, "instance_id", 11))
    return chrono_neuron_read_string (s, &ev->instance);
  if (chrono_neuron_str_is (key, "process_id", 10))
    {
      const guint8 *text;
      gsize len;
      ChronoJsonStatus st;

      /* A string in the documented output; a number is taken too. */
      if (*s->p == '"')
        return chrono_json_read_string (s, &ev->process);
      if ((st = chrono_json_read_number (s, &text, &len)) == CHRONO_JSON_OK)
        ev->process = (ChronoJsonString) { text, len, FALSE };
      return st;
    }
  if (chrono_neuron_str_is (key, "thread_id", 9))
    return chrono_neuron_read_int (s, &ev->thread, &ev->has_thread);
  if (chrono_neuron_str_is (key, "nc_idx", 6))
    return chrono_neuron_read_int (s, &ev->nc, &ev->has_nc);
  if (chrono_neuron_str_is (key, "type", 4))
    return chrono_neuron_read_int (s, &ev->type, &ev->has_type);
  if (chrono_neuron_str_is (key, "trace_event_source", 18))
    return chrono_neuron_read_string (s, &ev->source);
  if (chrono_neuron_str_is (key, "cpu_id", 6))
    return chrono_neuron_read_string (s, &ev->cpu);
  if (chrono_neuron_str_is (key, "usage", 5) || chrono_neuron_str_is (key, "util", 4))
    return chrono_neuron_read_double (s, &ev->value, &ev->has_value);
  return read_hbm_member (s, key, &ev->hbm);
}

static ChronoJsonStatus
parse_event (Importer *imp,
             Event    *ev)
{
  ChronoJsonScanner *s = &imp->reader->s;

  memset (ev, 0, sizeof *ev);
  ev->hbm.device = ev->hbm.hbm = ev->hbm.total = -1;
  ev->start = s->p;
  return chrono_neuron_read_record (s, &ev->t, read_member, ev);
}

/* The process of an (instance, pid) pair. */
static guint32
process_for (Importer    *imp,
             const Event *ev)
{
  g_autofree char *display = NULL;

  if (ev->process.start == NULL)
    return chrono_neuron_counters_host (&imp->counters, (const char *) ev->instance.start, ev->instance.len);
  display = g_strdup_printf ("%.*s%spid %.*s",
                             (int) ev->instance.len, ev->instance.start ? (const char *) ev->instance.start : "",
                             ev->instance.start ? " · " : "",
                             (int) ev->process.len, (const char *) ev->process.start);
  return chrono_neuron_counters_process (&imp->counters, display);
}

static gboolean
is_hardware (const Event *ev)
{
  if (ev->source.start != NULL)
    return chrono_neuron_str_is (&ev->source, "neuron_hw", 9);
  for (guint i = 0; hardware_names[i]; i++)
    if (ev->name.start && chrono_neuron_str_is (&ev->name, hardware_names[i], strlen (hardware_names[i])))
      return TRUE;
  return FALSE;
}

static guint8
kind_of (const Event *ev,
         gboolean     hardware)
{
  const ChronoJsonString *n = &ev->name;

  if (n->start == NULL)
    return CHRONO_KIND_OTHER;
  if (hardware && chrono_neuron_str_is (n, "nc_exec_running", 15))
    return CHRONO_KIND_KERNEL;
  if (chrono_communication_family ((const char *) n->start, n->len) != NULL)
    return CHRONO_KIND_COLLECTIVE;
  if (n->len >= 13 && memcmp (n->start, "dmem_buf_copy", 13) == 0)
    return CHRONO_KIND_MEMCPY;
  if ((ev->has_type && ev->type == 99999) ||
      (ev->source.start && chrono_neuron_str_is (&ev->source, "framework", 9)))
    return CHRONO_KIND_HOST_OP;
  return hardware ? CHRONO_KIND_OTHER : CHRONO_KIND_RUNTIME;
}

static void
handle_event (Importer *imp,
              Event    *ev)
{
  ChronoNeuronReader *reader = imp->reader;
  guint32 process = process_for (imp, ev);
  gboolean hardware = is_hardware (ev);
  guint32 name = ev->name.start ? chrono_neuron_intern (reader, &ev->name) : 0;
  gint64 ts = (gint64) ev->t.ts;
  gint64 dur = ev->t.has_dur ? (gint64) ev->t.dur : 0;
  ChronoTrackBuilder *b;
  g_autofree char *row = NULL;

  if (hardware)
    {
      gint64 nc = ev->has_nc ? (gint64) MIN (ev->nc, 100000) : -1;

      row = nc >= 0 ? g_strdup_printf ("NeuronCore %" G_GINT64_FORMAT " (hardware)", nc)
                    : g_strdup ("Hardware");
      b = chrono_neuron_track (reader, process, CHRONO_TRACK_STREAM,
                               chrono_neuron_intern_text (reader, row), SORT_HARDWARE + nc + 1);
    }
  else
    {
      row = ev->has_thread ? g_strdup_printf ("thread %" G_GUINT64_FORMAT, ev->thread)
                           : g_strdup ("Runtime");
      b = chrono_neuron_track (reader, process, CHRONO_TRACK_THREAD,
                               chrono_neuron_intern_text (reader, row), SORT_THREAD);
    }
  /* Sync points and notifications are moments, not spans. */
  if (dur == 0 && hardware)
    chrono_track_builder_add_instant (b, ts, name, imp->cat, ev->start - reader->base);
  else
    chrono_track_builder_add_span (b, ts, dur, name, imp->cat, ev->start - reader->base,
                                   kind_of (ev, hardware), ev->t.has_dur ? 0 : CHRONO_SPAN_NO_DUR);
  chrono_neuron_note_time (reader, ts, ts + dur);
}

static void
handle_sample (Importer *imp,
               Table     table,
               Event    *ev)
{
  ChronoNeuronReader *reader = imp->reader;
  g_autofree char *series = NULL;

  if (table == TABLE_DEVICE_MEM_USAGE)
    {
      ev->hbm.ts = (gint64) ev->t.ts;
      if (ev->hbm.total < 0 && ev->has_value)
        ev->hbm.total = (gint64) ev->value;
      if (ev->hbm.total < 0 && ev->hbm.has_parts == 0)
        chrono_neuron_skip_record (reader, ev->start, table, "has no total_bytes, usage or *_bytes category");
      else
        chrono_neuron_counters_add_hbm (&imp->counters, (const char *) ev->instance.start, ev->instance.len, &ev->hbm);
      return;
    }
  if (!ev->has_value)
    {
      chrono_neuron_skip_record (reader, ev->start, table, "has no value");
      return;
    }
  if (table == TABLE_MEM_USAGE)
    series = g_strdup (CHRONO_NEURON_HOST_MEMORY);
  else
    series = g_strdup_printf ("CPU %.*s utilization (%%)", (int) ev->cpu.len,
                              ev->cpu.start ? (const char *) ev->cpu.start : "");
  chrono_neuron_counters_sample (&imp->counters, process_for (imp, ev), series, (gint64) ev->t.ts, ev->value);
}

static ChronoJsonStatus
read_record (ChronoNeuronReader *reader,
             guint               table,
             gpointer            data)
{
  Importer *imp = data;
  ChronoJsonStatus st;
  Event ev;

  if ((st = parse_event (imp, &ev)) != CHRONO_JSON_OK)
    return st;
  if (!ev.t.has_ts)
    chrono_neuron_skip_record (reader, ev.start, table, "has no numeric \"timestamp\"");
  else if (table == TABLE_EVENTS || table == TABLE_EVENT)
    handle_event (imp, &ev);
  else
    handle_sample (imp, table, &ev);
  return CHRONO_JSON_OK;
}

static ChronoJsonStatus
read_other (ChronoNeuronReader     *reader,
            const ChronoJsonString *key,
            gpointer                data)
{
  Importer *imp = data;

  if (*reader->s.p == '[' || *reader->s.p == '{')
    {
      imp->unknown_tables++;
      if (imp->unknown_tables <= 4)
        chrono_trace_add_warning (reader->trace, "\"%.*s\" is not shown", (int) key->len, key->start);
    }
  return chrono_json_skip_value (&reader->s);
}

gboolean
chrono_neuron_system_importer_run (ChronoTrace        *trace,
                                   ChronoSource       *source,
                                   GCancellable       *cancellable,
                                   ChronoProgressFunc  progress,
                                   gpointer            user_data,
                                   GError            **error)
{
  ChronoNeuronReader reader;
  Importer imp = { 0 };
  gboolean ok;

  chrono_neuron_reader_init (&reader, trace, source, table_keys, read_record, read_other, &imp);
  chrono_neuron_reader_watch (&reader, cancellable, progress, user_data);
  imp.reader = &reader;
  chrono_neuron_counters_init (&imp.counters, &reader);
  imp.cat = chrono_neuron_intern_text (&reader, "neuron_system");

  ok = chrono_neuron_reader_run (&reader, error);
  if (ok)
    {
      chrono_neuron_counters_finish (&imp.counters);
      chrono_neuron_reader_finish (&reader, "neuron-system", NULL);
    }
  chrono_neuron_reader_clear (&reader);
  chrono_neuron_counters_clear (&imp.counters);
  return ok;
}
