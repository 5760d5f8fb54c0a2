/* chrono-loader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "chrono-chrome-importer.h"
#include "chrono-loader.h"
#include "chrono-neuron.h"
#include "chrono-neuron-device-importer.h"
#include "chrono-neuron-parquet-importer.h"
#include "chrono-neuron-system-importer.h"
#include "chrono-parquet-reader.h"
#include "chrono-perfetto-importer.h"
#include "chrono-proto-reader.h"
#include "chrono-trace-private.h"

G_DEFINE_QUARK (chrono-load-error-quark, chrono_load_error)

#define SNIFF_BYTES (64 * 1024)

/* The first byte that is not white space, waiting for it if need be. */
static gint
first_byte (ChronoSource *source,
            gsize        *offset)
{
  gboolean finished = FALSE;
  gsize avail = chrono_source_wait (source, 0, &finished);
  const guint8 *data = chrono_source_get_data (source);
  gsize i = 0;

  for (;;)
    {
      for (; i < avail; i++)
        if (data[i] != ' ' && data[i] != '\n' && data[i] != '\r' && data[i] != '\t')
          {
            *offset = i;
            return data[i];
          }
      if (finished)
        break;
      avail = chrono_source_wait (source, avail, &finished);
    }
  *offset = i;
  return -1;
}

/* Neuron profiler JSON is recognised by its top-level keys, which come
 * within the first bytes. */
static ChronoNeuronFormat
sniff_neuron (ChronoSource *source,
              gsize         offset)
{
  gboolean finished = FALSE;
  gsize avail = chrono_source_wait (source, 0, &finished);

  while (!finished && avail < SNIFF_BYTES)
    avail = chrono_source_wait (source, avail, &finished);
  return chrono_neuron_sniff (chrono_source_get_data (source) + offset, avail - offset);
}

/* Parquet starts with "PAR1". */
static gboolean
sniff_parquet (ChronoSource *source)
{
  gboolean finished = FALSE;
  gsize avail = chrono_source_wait (source, 0, &finished);

  while (!finished && avail < 4)
    avail = chrono_source_wait (source, avail, &finished);
  return chrono_parquet_sniff (chrono_source_get_data (source), avail);
}

static gboolean
is_plane_name (const ChronoProtoField *field)
{
  static const char * const prefixes[] = { "/host:", "/device:" };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    {
      gsize len = strlen (prefixes[i]);

      if (field->len >= len && memcmp (field->data, prefixes[i], len) == 0)
        return TRUE;
    }
  return FALSE;
}

/* A JAX or TensorFlow profile (XSpace, written as .xplane.pb) is protobuf
 * too and starts with the byte a Perfetto trace starts with: its field 1
 * is a plane as a Perfetto trace's is a packet. A plane has its name in
 * field 2, near its start: "/host:CPU", "/device:GPU:0" and the like. In a
 * Perfetto packet that field would start with '/', which is no protobuf
 * tag (wire type 7), so the two cannot be mistaken. */
static gboolean
sniff_xplane (ChronoSource *source)
{
  gboolean finished = FALSE;
  gsize avail = chrono_source_wait (source, 0, &finished);
  const guint8 *data = chrono_source_get_data (source);
  const guint8 *p;
  guint64 len;
  ChronoProtoReader r;
  ChronoProtoField f;

  while (!finished && avail < SNIFF_BYTES)
    avail = chrono_source_wait (source, avail, &finished);
  data = chrono_source_get_data (source);
  if (avail < 2 || data[0] != 0x0a)
    return FALSE;
  p = data + 1;
  if (chrono_proto_read_varint (&p, data + avail, &len) != CHRONO_PROTO_OK)
    return FALSE;
  /* What there is of the first plane, which may be larger than we wait for. */
  chrono_proto_reader_init (&r, p, MIN (len, (guint64) (data + avail - p)));
  while (chrono_proto_reader_next (&r, &f) == CHRONO_PROTO_OK)
    if (f.number == 2)
      return f.wire_type == CHRONO_PROTO_BYTES && is_plane_name (&f);
  return FALSE;
}

static void
cancel_source (GCancellable *cancellable,
               ChronoSource *source)
{
  chrono_source_cancel (source);
}

static ChronoTrace *
load (ChronoSource       *source,
      const char         *name,
      GCancellable       *cancellable,
      ChronoProgressFunc  progress,
      gpointer            user_data,
      GError            **error)
{
  g_autoptr(ChronoTrace) trace = chrono_trace_new (name, source);
  g_autoptr(GError) source_error = NULL;
  gulong handler = 0;
  gsize offset = 0;
  ChronoNeuronFormat neuron;
  gboolean xplane, perfetto, parquet;
  gboolean ok;
  gint c;

  if (cancellable)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (cancel_source), source, NULL);

  c = first_byte (source, &offset);
  parquet = offset == 0 && sniff_parquet (source);
  xplane = !parquet && sniff_xplane (source);
  perfetto = !parquet && !xplane && chrono_perfetto_importer_sniff (source);
  neuron = !perfetto && c == '{' ? sniff_neuron (source, offset) : CHRONO_NEURON_NONE;
  if (parquet)
    ok = chrono_neuron_parquet_importer_run (trace, source, cancellable, progress, user_data, error);
  else if (xplane)
    {
      ok = FALSE;
      g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT,
                   "%s: an XSpace profile of JAX or TensorFlow (.xplane.pb), which Chronoscope "
                   "does not read. TensorBoard's profile plugin (xprof) opens it; "
                   "jax.profiler.trace (…, create_perfetto_trace=True) writes a Chrome trace "
                   "JSON of the same run beside it (perfetto_trace.json.gz), which Chronoscope reads", name);
    }
  else if (perfetto)
    ok = chrono_perfetto_importer_run (trace, source, cancellable, progress, user_data, error);
  else if (neuron == CHRONO_NEURON_DEVICE)
    ok = chrono_neuron_device_importer_run (trace, source, cancellable, progress, user_data, error);
  else if (neuron == CHRONO_NEURON_SYSTEM)
    ok = chrono_neuron_system_importer_run (trace, source, cancellable, progress, user_data, error);
  else if (c == '{' || c == '[')
    ok = chrono_chrome_importer_run (trace, source, cancellable, progress, user_data, error);
  else
    {
      ok = FALSE;
      if (chrono_source_get_error (source, &source_error))
        g_propagate_error (error, g_steal_pointer (&source_error));
      else if (c < 0)
        g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT,
                     "%s: the file is empty", name);
      else if (chrono_source_get_available (source) > 1 && chrono_source_get_data (source)[0] == 0x0a)
        g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT,
                     "%s: byte 0: looks like a Perfetto trace, but its first packet is cut short or malformed", name);
      else
        g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT,
                     "%s: byte %" G_GSIZE_FORMAT ": not a trace Chronoscope reads: expected "
                     CHRONO_LOAD_FORMATS, name, offset);
    }

  if (cancellable)
    g_cancellable_disconnect (cancellable, handler);
  /* Cancellation wins over whatever the cut-short import reported. */
  if (g_cancellable_is_cancelled (cancellable))
    {
      if (error != NULL)
        g_clear_error (error);
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  if (!ok)
    {
      /* A decompression error explains a syntax error better. */
      if (chrono_source_get_error (source, &source_error) && error && *error &&
          (*error)->domain == CHRONO_LOAD_ERROR && (*error)->code == CHRONO_LOAD_ERROR_SYNTAX)
        {
          g_clear_error (error);
          g_propagate_error (error, g_steal_pointer (&source_error));
        }
      return NULL;
    }
  if (chrono_source_get_error (source, &source_error))
    {
      trace->stats.truncated = TRUE;
      chrono_trace_add_warning (trace, "%s", source_error->message);
    }
  chrono_string_table_compact (trace->strings);
  chrono_trace_set_single_part (trace);
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
  /* Loading freed as much as it kept (growth, sorting, the scan's
   * tables): give it back rather than hold it for the life of the app.
   * Not under a sanitizer, whose malloc is not glibc's: there glibc's
   * arena is set up by the first malloc_trim() only, and two loads
   * trimming at once can find it half made. */
  malloc_trim (0);
#endif
  return g_steal_pointer (&trace);
}

ChronoTrace *
chrono_trace_load_file (const char         *path,
                        GCancellable       *cancellable,
                        ChronoProgressFunc  progress,
                        gpointer            user_data,
                        GError            **error)
{
  g_autoptr(ChronoSource) source = chrono_source_open (path, error);

  if (source == NULL)
    return NULL;
  return load (source, path, cancellable, progress, user_data, error);
}

ChronoTrace *
chrono_trace_load_bytes (GBytes      *bytes,
                         const char  *display_name,
                         GError     **error)
{
  g_autoptr(ChronoSource) source = chrono_source_new_for_bytes (bytes, error);

  if (source == NULL)
    return NULL;
  return load (source, display_name, NULL, NULL, NULL, error);
}
