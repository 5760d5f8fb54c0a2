/* test-gen.c: a small Kineto trace writer for the tests that plant
 * bottlenecks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "test-gen.h"
#include "test-utils.h"

void
gen_event (Gen        *g,
           const char *cat,
           const char *name,
           int         pid,
           int         tid,
           gint64      ts_us,
           gint64      dur_us,
           const char *args)
{
  test_append_complete_event (g->s, cat, name, pid, tid, ts_us, dur_us, args);
}

/* A launch at LAUNCH_US of device work of category CAT on STREAM at
 * START_US, with EXTRA args. */
void
gen_work (Gen        *g,
          const char *cat,
          const char *name,
          int         stream,
          gint64      launch_us,
          gint64      start_us,
          gint64      dur_us,
          const char *extra)
{
  g_autofree char *args = g_strdup_printf ("\"correlation\":%" G_GINT64_FORMAT ",\"stream\":%d,\"device\":0%s",
                                           ++g->corr, stream, extra);
  g_autofree char *rargs = g_strdup_printf ("\"correlation\":%" G_GINT64_FORMAT, g->corr);

  gen_event (g, "cuda_runtime", strcmp (cat, "kernel") == 0 ? "cudaLaunchKernel" : "cudaMemcpyAsync",
             100, 100, launch_us, 3, rargs);
  gen_event (g, cat, name, 0, stream, start_us, dur_us, args);
}

void
gen_kernel (Gen        *g,
            const char *name,
            gint64      launch_us,
            gint64      start_us,
            gint64      dur_us)
{
  gen_work (g, "kernel", name, 7, launch_us, start_us, dur_us, "");
}

void
gen_step (Gen   *g,
          guint  n,
          gint64 start_us)
{
  g_autofree char *name = g_strdup_printf ("ProfilerStep#%u", n);
  gen_event (g, "user_annotation", name, 100, 100, start_us, 1000, "");
}

/* A step of 20 back-to-back 49 µs kernels launched ahead, starting
 * DELAY_US into the step. */
void
gen_busy_step (Gen   *g,
               guint  n,
               gint64 delay_us)
{
  gint64 s = n * 1000;

  gen_step (g, n, s);
  for (int k = 0; k < 20; k++)
    gen_kernel (g, "gemm", s + delay_us + 2 + 5 * k, s + delay_us + 10 + 50 * k, 49);
}

void
gen_data_loading (Gen *g)
{
  gen_init (g);
  gen_busy_step (g, 0, 0);
  gen_event (g, "user_annotation", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
             100, 100, 1000, 400, "");
  gen_busy_step (g, 1, 400);
  gen_busy_step (g, 2, 0);
  gen_busy_step (g, 3, 0);
}

void
gen_host_paced (Gen        *g,
                const char *kernel)
{
  gen_init (g);
  gen_busy_step (g, 0, 0);
  gen_event (g, "user_annotation", "ProfilerStep#1", 100, 100, 1000, 4000, "");
  for (int k = 0; k < 10; k++)
    gen_kernel (g, kernel, 1300 + 400 * k, 1309 + 400 * k, 100);
}

ChronoTrace *
gen_finish (Gen        *g,
            const char *name,
            int         rank)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  ChronoTrace *trace;

  g_string_append (g->s, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"GPU 0\"}}");
  g_string_append (g->s, ",\n{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":0,\"args\":{\"labels\":\"GPU 0\"}}");
  g_string_append_printf (g->s, "],\"distributedInfo\":{\"rank\":%d,\"world_size\":2}}", rank);
  bytes = g_string_free_to_bytes (g->s);
  trace = chrono_trace_load_bytes (bytes, name, &error);
  g_assert_no_error (error);
  return trace;
}

void
gen_init (Gen *g)
{
  g->s = g_string_new ("{\"traceEvents\":[");
  g->corr = 0;
}
