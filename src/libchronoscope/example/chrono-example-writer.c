/* chrono-example-writer.c: writes the example trace's events as Kineto does
 *
 * X events, flows, [memory] instants and metadata, the header with the
 * devices and the distributed info, and the trailer. Formatting is by hand
 * into large buffers: printf-style formatting would not write a gigabyte in
 * seconds. The buffers go to the file plain or through gzip.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "chrono-example-rng.h"
#include "chrono-example-trace-private.h"

#define GPU_SORT_BASE     16777216
#define NUM_SMS           132
#define ZOUT_SIZE         (1 << 20)

/* -------------------------------------------------------------------- */
/* Output: plain or gzip                                                */

static gboolean
set_io_error (GError    **error,
              const char *what,
              const char *path)
{
  int saved = errno;

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
               "Could not %s “%s”: %s", what, path, g_strerror (saved));
  return FALSE;
}

static gboolean
sink_put_file (Sink        *s,
               const void  *data,
               gsize        len,
               GError     **error)
{
  if (len > 0 && fwrite (data, 1, len, s->file) != len)
    return set_io_error (error, "write", s->path);
  s->file_bytes += len;
  return TRUE;
}

static gboolean
sink_deflate (Sink        *s,
              const void  *data,
              gsize        len,
              int          flush,
              GError     **error)
{
  s->z.next_in = (Bytef *) data;
  s->z.avail_in = (uInt) len;
  do
    {
      s->z.next_out = s->zout;
      s->z.avail_out = ZOUT_SIZE;
      if (deflate (&s->z, flush) == Z_STREAM_ERROR)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Could not compress “%s”", s->path);
          return FALSE;
        }
      if (!sink_put_file (s, s->zout, ZOUT_SIZE - s->z.avail_out, error))
        return FALSE;
    }
  while (s->z.avail_out == 0);
  return TRUE;
}

/* Writes and empties B. */
gboolean
chrono_example_sink_write (Sink    *s,
                           Buf     *b,
                           GError **error)
{
  gboolean ok;

  s->bytes += b->len;
  if (s->gzip)
    ok = sink_deflate (s, b->data, b->len, Z_NO_FLUSH, error);
  else
    ok = sink_put_file (s, b->data, b->len, error);
  b->len = 0;
  return ok;
}

gboolean
chrono_example_sink_open (Sink        *s,
                          const char  *path,
                          gboolean     gzip,
                          GError     **error)
{
  s->path = path;
  s->gzip = gzip;
  s->file = g_fopen (path, "wb");
  if (s->file == NULL)
    return set_io_error (error, "create", path);
  if (gzip)
    {
      /* windowBits 15 + 16: a gzip wrapper with mtime 0, so output stays
       * reproducible. */
      if (deflateInit2 (&s->z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Could not start compressing “%s”", path);
          s->gzip = FALSE;
          return FALSE;
        }
      s->zout = g_malloc (ZOUT_SIZE);
    }
  return TRUE;
}

gboolean
chrono_example_sink_finish (Sink    *s,
                            GError **error)
{
  if (s->gzip && !sink_deflate (s, NULL, 0, Z_FINISH, error))
    return FALSE;
  if (fflush (s->file) != 0)
    return set_io_error (error, "write", s->path);
  return TRUE;
}

void
chrono_example_sink_close (Sink *s)
{
  if (s->gzip)
    {
      deflateEnd (&s->z);
      g_clear_pointer (&s->zout, g_free);
    }
  g_clear_pointer (&s->file, fclose);
}

/* -------------------------------------------------------------------- */
/* Writing events                                                       */

static const char * const cat_names[] = {
  [CHRONO_EXAMPLE_CAT_CPU_OP] = "cpu_op",
  [CHRONO_EXAMPLE_CAT_USER_ANNOTATION] = "user_annotation",
  [CHRONO_EXAMPLE_CAT_PYTHON_FUNCTION] = "python_function",
  [CHRONO_EXAMPLE_CAT_CUDA_RUNTIME] = "cuda_runtime",
  [CHRONO_EXAMPLE_CAT_KERNEL] = "kernel",
  [CHRONO_EXAMPLE_CAT_GPU_MEMCPY] = "gpu_memcpy",
  [CHRONO_EXAMPLE_CAT_GPU_MEMSET] = "gpu_memset",
  [CHRONO_EXAMPLE_CAT_GPU_USER_ANNOTATION] = "gpu_user_annotation",
  [CHRONO_EXAMPLE_CAT_TRACE] = "Trace",
};

G_STATIC_ASSERT (G_N_ELEMENTS (cat_names) == CHRONO_EXAMPLE_N_CATS);

const char *
chrono_example_cat_to_string (ChronoExampleCat cat)
{
  g_return_val_if_fail (cat < CHRONO_EXAMPLE_N_CATS, NULL);
  return cat_names[cat];
}

static void
count_event (Gen  *g,
             char  ph)
{
  g->counts.events++;
  g->counts.phases[(guchar) ph]++;
}

/* Writes an X event up to the inside of its args. */
void
chrono_example_span_header (Gen             *g,
                            Buf             *b,
                            ChronoExampleCat cat,
                            const char      *name,
                            gint64           pid,
                            gint64           tid,
                            gint64           ts,
                            gint64           dur)
{
  count_event (g, 'X');
  g->counts.spans[cat]++;
  if (dur == 0)
    g->counts.zero_duration_spans++;
  PUT (b, "  {\n    \"ph\": \"X\", \"cat\": \"");
  put_str (b, cat_names[cat]);
  PUT (b, "\", \"name\": \"");
  put_str (b, name);
  PUT (b, "\", \"pid\": ");
  put_i64 (b, pid);
  PUT (b, ", \"tid\": ");
  put_i64 (b, tid);
  PUT (b, ",\n    \"ts\": ");
  put_us (b, ts);
  PUT (b, ", \"dur\": ");
  put_us (b, dur);
  PUT (b, ",\n    \"args\": {\n      ");
}

void
chrono_example_event_footer (Buf *b)
{
  PUT (b, "\n    }\n  },\n");
}

static void
write_flow (Gen        *g,
            Buf        *b,
            char        ph,
            const char *cat,
            gint64      id,
            gint64      pid,
            gint64      tid,
            gint64      ts)
{
  count_event (g, ph);
  PUT (b, "  {\n    \"ph\": \"");
  put (b, &ph, 1);
  PUT (b, "\", \"id\": ");
  put_i64 (b, id);
  PUT (b, ", \"pid\": ");
  put_i64 (b, pid);
  PUT (b, ", \"tid\": ");
  put_i64 (b, tid);
  PUT (b, ", \"ts\": ");
  put_us (b, ts);
  PUT (b, ",\n    \"cat\": \"");
  put_str (b, cat);
  PUT (b, "\", \"name\": \"");
  put_str (b, cat);
  if (ph == 'f')
    PUT (b, "\", \"bp\": \"e\"\n  },\n");
  else
    PUT (b, "\"\n  },\n");
}

static void
write_collective_args (Gen   *g,
                       Buf   *b,
                       gint64 nelems,
                       gint64 seq)
{
  PUT (b, ", \"Collective name\": \"allreduce\", \"dtype\": \"BFloat16\", \"In msg nelems\": ");
  put_i64 (b, nelems);
  PUT (b, ", \"Out msg nelems\": ");
  put_i64 (b, nelems);
  PUT (b, ", \"Group size\": ");
  put_u64 (b, g->opts.world_size);
  PUT (b, ", \"In split size\": \"[]\", \"Out split size\": \"[]\", \"Process Group Name\": \"0\", "
       "\"Process Group Description\": \"default_pg\", \"Process Group Ranks\": \"");
  put_str (b, g->ranks);
  PUT (b, "\", \"Seq\": ");
  put_i64 (b, seq);
}

void
chrono_example_write_rec (Gen          *g,
                          Buf          *b,
                          const Thread *th,
                          const Rec    *r)
{
  switch (r->type)
    {
    case REC_OP:
      chrono_example_span_header (g, b, r->cat, r->name, g->pid, th->tid, r->ts, r->dur);
      PUT (b, "\"External id\": ");
      put_i64 (b, r->u.op.external_id);
      PUT (b, ",");
      if (r->u.op.sequence >= 0)
        {
          PUT (b, "\"Sequence number\": ");
          put_i64 (b, r->u.op.sequence);
          PUT (b, ", ");
          if (r->u.op.backward_node)
            PUT (b, "\"Fwd thread id\": 1, ");
        }
      PUT (b, "\"Record function id\": ");
      put_i64 (b, r->u.op.external_id - g->record_function_offset);
      if (r->shapes != NULL)
        {
          PUT (b, ", ");
          put_str (b, r->shapes);
        }
      PUT (b, ", \"Ev Idx\": ");
      put_i64 (b, r->ev_idx);
      if (r->u.op.collective_nelems > 0)
        {
          write_collective_args (g, b, r->u.op.collective_nelems, r->u.op.collective_seq);
          PUT (b, ", \"Global rank start\": 0, \"Global rank stride\": 1");
        }
      chrono_example_event_footer (b);
      break;

    case REC_PYTHON:
      chrono_example_span_header (g, b, r->cat, r->name, g->pid, th->tid, r->ts, r->dur);
      PUT (b, "\"Python parent id\": ");
      put_i64 (b, r->u.py.parent);
      PUT (b, ", \"Python id\": ");
      put_i64 (b, r->u.py.id);
      if (r->u.py.module >= 0)
        {
          PUT (b, ", \"Python module id\": ");
          put_i64 (b, r->u.py.module);
        }
      PUT (b, ", \"Ev Idx\": ");
      put_i64 (b, r->ev_idx);
      chrono_example_event_footer (b);
      break;

    case REC_MEMORY:
      count_event (g, 'i');
      g->counts.memory_instants++;
      PUT (b, "  {\n    \"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\",\n    \"pid\": ");
      put_i64 (b, g->pid);
      PUT (b, ", \"tid\": ");
      put_i64 (b, th->tid);
      PUT (b, ",\n    \"ts\": ");
      put_us (b, r->ts);
      PUT (b, ",\n    \"args\": {\n      \"Ev Idx\": ");
      put_i64 (b, r->ev_idx);
      PUT (b, ", \"Device Type\": 1, \"Device Id\": ");
      put_u64 (b, g->device);
      PUT (b, ", \"Addr\": ");
      put_i64 (b, r->u.mem.addr);
      PUT (b, ", \"Bytes\": ");
      put_i64 (b, r->u.mem.bytes);
      PUT (b, ", \"Total Allocated\": ");
      put_i64 (b, r->u.mem.allocated);
      PUT (b, ", \"Total Reserved\": ");
      put_i64 (b, r->u.mem.reserved);
      chrono_example_event_footer (b);
      break;

    case REC_FLOW_START:
      write_flow (g, b, 's', "fwdbwd", r->u.flow_id, g->pid, th->tid, r->ts);
      break;

    case REC_FLOW_END:
      write_flow (g, b, 'f', "fwdbwd", r->u.flow_id, g->pid, th->tid, r->ts);
      g->counts.flow_pairs++;
      break;
    }
}

void
chrono_example_write_runtime (Gen    *g,
                              Thread *th,
                              ApiId   api,
                              gint64  ts,
                              gint64  dur,
                              gint64  correlation,
                              gint64  external_id,
                              char    flow_ph)
{
  Buf *b = &g->gpu;

  chrono_example_span_header (g, b, CHRONO_EXAMPLE_CAT_CUDA_RUNTIME, chrono_example_apis[api].name,
                              g->pid, th->tid, ts, dur);
  PUT (b, "\"External id\": ");
  put_i64 (b, external_id);
  PUT (b, ",      \"cbid\": ");
  put_u64 (b, chrono_example_apis[api].cbid);
  PUT (b, ", \"correlation\": ");
  put_i64 (b, correlation);
  chrono_example_event_footer (b);
  write_flow (g, b, flow_ph, "ac2g", correlation, g->pid, th->tid, ts);
}

void
chrono_example_write_gpu_op (Gen           *g,
                             const GpuWork *w,
                             guint          stream,
                             gint64         ts,
                             gint64         dur,
                             gint64         correlation,
                             gint64         external_id,
                             gint64         nelems,
                             gint64         seq)
{
  Buf *b = &g->gpu;
  gint64 stream_id = g->stream_ids[stream];

  chrono_example_span_header (g, b, w->cat, w->name, g->device, stream_id, ts, dur);
  PUT (b, "\"External id\": ");
  put_i64 (b, external_id);
  if (w->cat == CHRONO_EXAMPLE_CAT_KERNEL)
    {
      guint64 blocks = (guint64) w->grid[0] * w->grid[1] * w->grid[2];
      guint64 threads = (guint64) w->block[0] * w->block[1] * w->block[2];

      PUT (b, ",      \"queued\": 0, \"device\": ");
      put_u64 (b, g->device);
      PUT (b, ", \"context\": 1,      \"stream\": ");
      put_i64 (b, stream_id);
      PUT (b, ", \"correlation\": ");
      put_i64 (b, correlation);
      PUT (b, ",      \"registers per thread\": ");
      put_u64 (b, w->registers);
      PUT (b, ",      \"shared memory\": ");
      put_u64 (b, w->shared_memory);
      PUT (b, ",      \"blocks per SM\": ");
      put_fixed (b, blocks * 1000000 / NUM_SMS, 6);
      PUT (b, ",      \"warps per SM\": ");
      put_fixed (b, blocks * threads / 32 * 1000000 / NUM_SMS, 6);
      PUT (b, ",      \"grid\": [");
      for (guint i = 0; i < 3; i++)
        {
          if (i > 0)
            PUT (b, ", ");
          put_u64 (b, w->grid[i]);
        }
      PUT (b, "],      \"block\": [");
      for (guint i = 0; i < 3; i++)
        {
          if (i > 0)
            PUT (b, ", ");
          put_u64 (b, w->block[i]);
        }
      PUT (b, "],      \"est. achieved occupancy %\": ");
      put_u64 (b, w->occupancy);
      if (nelems > 0)
        write_collective_args (g, b, nelems, seq);
    }
  else
    {
      PUT (b, ",      \"device\": ");
      put_u64 (b, g->device);
      PUT (b, ", \"context\": 1,      \"stream\": ");
      put_i64 (b, stream_id);
      PUT (b, ", \"correlation\": ");
      put_i64 (b, correlation);
      PUT (b, ",      \"bytes\": ");
      put_u64 (b, w->bytes);
      PUT (b, ", \"memory bandwidth (GB/s)\": ");
      /* bytes per ns are GB/s */
      put_fixed (b, w->bytes * 1000000 / MAX (dur, 1), 6);
    }
  chrono_example_event_footer (b);
  write_flow (g, b, 'f', "ac2g", correlation, g->device, stream_id, ts);
}

static void
write_meta_header (Gen        *g,
                   Buf        *b,
                   const char *name,
                   gint64      pid,
                   gint64      tid)
{
  count_event (g, 'M');
  PUT (b, "  {\n    \"name\": \"");
  put_str (b, name);
  PUT (b, "\", \"ph\": \"M\", \"ts\": ");
  put_us (b, g->trace_start);
  PUT (b, ", \"pid\": ");
  put_i64 (b, pid);
  PUT (b, ", \"tid\": ");
  put_i64 (b, tid);
  PUT (b, ",\n    \"args\": {\n      \"");
}

static void
write_meta_string (Gen        *g,
                   const char *name,
                   gint64      pid,
                   gint64      tid,
                   const char *key,
                   const char *value)
{
  write_meta_header (g, &g->out, name, pid, tid);
  put_str (&g->out, key);
  PUT (&g->out, "\": \"");
  put_str (&g->out, value);
  PUT (&g->out, "\"");
  chrono_example_event_footer (&g->out);
}

static void
write_meta_int (Gen        *g,
                const char *name,
                gint64      pid,
                gint64      tid,
                const char *key,
                gint64      value)
{
  write_meta_header (g, &g->out, name, pid, tid);
  put_str (&g->out, key);
  PUT (&g->out, "\": ");
  put_i64 (&g->out, value);
  chrono_example_event_footer (&g->out);
}

static void
write_thread_names (Gen        *g,
                    Thread     *th,
                    const char *role)
{
  g_autofree char *name = g_strdup_printf ("thread %" G_GINT64_FORMAT " (%s)", th->tid, role);

  write_meta_string (g, "thread_name", g->pid, th->tid, "name", name);
  write_meta_int (g, "thread_sort_index", g->pid, th->tid, "sort_index", th->tid);
}

/* -------------------------------------------------------------------- */
/* Header and trailer                                                   */

void
chrono_example_write_header (Gen *g)
{
  Buf *b = &g->out;
  char trace_id[33];

  for (guint i = 0; i < 32; i++)
    trace_id[i] = "0123456789ABCDEF"[rng_next (&g->rng) % 16];
  trace_id[32] = '\0';

  /* newest Kineto: indented root, metadata keys before the events */
  PUT (b, "\n  {\n    \"schemaVersion\": 1,\n    \"deviceProperties\": [\n");
  for (guint d = 0; d < g->n_devices; d++)
    {
      PUT (b, "    {\n      \"id\": ");
      put_u64 (b, d);
      PUT (b, ", \"name\": \"NVIDIA H100 80GB HBM3\", \"totalGlobalMem\": 85031714816,\n"
           "      \"computeMajor\": 9, \"computeMinor\": 0,\n"
           "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
           "      \"regsPerBlock\": 65536, \"warpSize\": 32,\n"
           "      \"sharedMemPerBlock\": 49152, \"numSms\": 132\n"
           "    , \"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": 232448, \"sharedMemPerMultiprocessor\": 233472\n"
           "    }");
      if (d + 1 < g->n_devices)
        PUT (b, ",");
      PUT (b, "\n");
    }
  PUT (b, "    ],\n    \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": ");
  put_u64 (b, g->opts.rank);
  PUT (b, ", \"world_size\": ");
  put_u64 (b, g->opts.world_size);
  PUT (b, ", \"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", "
       "\"backend_config\": \"cuda:nccl\", \"pg_size\": ");
  put_u64 (b, g->opts.world_size);
  PUT (b, ", \"ranks\": ");
  put_str (b, g->ranks);
  PUT (b, "}], \"nccl_version\": \"2.21.5\"},\n"
       "      \"cuda_driver_version\": 12040,\n"
       "      \"cuda_runtime_version\": 12040,\n"
       "      \"cupti_version\": 22,\n"
       "    \"record_shapes\": 1,\n"
       "    \"with_stack\": 1,\n"
       "    \"trace_id\": \"");
  put (b, trace_id, 32);
  PUT (b, "\",\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": ");
  put_i64 (b, g->counts.base_time_ns);
  PUT (b, ",\n  \"traceEvents\": [\n");

  write_meta_string (g, "process_name", g->pid, 0, "name", "python3");
  write_meta_string (g, "process_labels", g->pid, 0, "labels", "CPU");
  write_meta_int (g, "process_sort_index", g->pid, 0, "sort_index", g->pid);
  for (guint d = 0; d < g->n_devices; d++)
    {
      char label[16];

      g_snprintf (label, sizeof label, "GPU %u", d);
      write_meta_string (g, "process_name", d, 0, "name", "python3");
      write_meta_string (g, "process_labels", d, 0, "labels", label);
      write_meta_int (g, "process_sort_index", d, 0, "sort_index", GPU_SORT_BASE + d);
    }
  for (guint s = 0; s < g->opts.n_streams + (g->opts.world_size > 1); s++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "stream %u ", g->stream_ids[s]);
      write_meta_string (g, "thread_name", g->device, g->stream_ids[s], "name", name);
      write_meta_int (g, "thread_sort_index", g->device, g->stream_ids[s], "sort_index", g->stream_ids[s]);
    }
  write_thread_names (g, &g->main_thread, "pt_main_thread");
  write_thread_names (g, &g->autograd_thread, "pt_main_thread");
}

void
chrono_example_write_trailer (Gen *g)
{
  Buf *b = &g->out;
  gint64 end = MAX (g->main_thread.t, g->autograd_thread.t);

  for (guint s = 0; s <= g->opts.n_streams; s++)
    end = MAX (end, g->stream_free[s]);
  end += rng_range (&g->rng, 100000, 900000);

  /* As in real files: a process_sort_index again, and the autograd
   * thread renamed after it was first named like the main thread. */
  write_meta_int (g, "process_sort_index", g->device, 0, "sort_index", GPU_SORT_BASE + g->device);
  write_thread_names (g, &g->autograd_thread, "pt_autograd_0");

  count_event (g, 'X');
  g->counts.spans[CHRONO_EXAMPLE_CAT_TRACE]++;
  PUT (b, "  {\n    \"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ");
  put_us (b, g->trace_start);
  PUT (b, ", \"dur\": ");
  put_us (b, end - g->trace_start);
  PUT (b, ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n"
       "    \"name\": \"PyTorch Profiler (0)\",\n    \"args\": {\n      \"Op count\": 0\n    }\n  },\n");

  count_event (g, 'M');
  PUT (b, "  {\n    \"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": ");
  put_us (b, g->trace_start);
  PUT (b, ",\n    \"pid\": \"Spans\", \"tid\": 0,\n    \"args\": {\n      \"sort_index\": 536870912\n    }\n  },\n");

  count_event (g, 'i');
  PUT (b, "  {\n    \"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\",\n"
       "    \"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", \"ts\": ");
  put_us (b, g->trace_start);
  PUT (b, "\n  },\n");

  count_event (g, 'i');
  PUT (b, "  {\n    \"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n"
       "    \"pid\": \"\", \"tid\": \"\", \"ts\": ");
  put_us (b, end + rng_range (&g->rng, 1000000, 5000000));
  PUT (b, "\n  }\n  ],\n  \"traceName\": \"/tmp/libkineto_activities_");
  put_i64 (b, g->pid);
  PUT (b, ".json\"\n}\n");
}
