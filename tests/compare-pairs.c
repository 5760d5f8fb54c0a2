/* compare-pairs.c: two runs of a small model written as Kineto JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "compare-pairs.h"
#include "test-utils.h"

#define FORWARD_TID 100
#define BACKWARD_TID 101

void
pair_run_init (PairRun *run)
{
  *run = (PairRun) { .n_steps = 6, .gemm_us = 50, .gemm_kernel = PAIR_GEMM_CUDA };
}

typedef struct {
  GString *s;
  gint64   corr;
  gint64   t;                    /* µs */
  gint64   jitter;
} Gen;

static void
event (Gen        *g,
       const char *cat,
       const char *name,
       int         pid,
       int         tid,
       gint64      ts,
       gint64      dur,
       const char *args)
{
  test_append_complete_event (g->s, cat, name, pid, tid, ts, dur, args);
}

/* A launch 2 µs into the current time on TID, its kernel 4 µs later for
 * KERNEL_US; the time moves past the kernel. */
static void
launch (Gen        *g,
        int         tid,
        const char *kernel,
        gint64      kernel_us)
{
  g_autofree char *call_args = g_strdup_printf ("\"correlation\":%" G_GINT64_FORMAT, ++g->corr);
  g_autofree char *kernel_args = g_strdup_printf ("\"correlation\":%" G_GINT64_FORMAT ",\"stream\":7,\"device\":0", g->corr);

  event (g, "cuda_runtime", "cudaLaunchKernel", 100, tid, g->t + 2, 3, call_args);
  event (g, "kernel", kernel, 0, 7, g->t + 6, kernel_us + g->jitter, kernel_args);
  g->t += 6 + kernel_us + g->jitter + 3;
}

/* An operator around one launch (and, under NESTED, an inner operator
 * that makes it). */
static void
op (Gen        *g,
    int         tid,
    const char *name,
    const char *nested,
    const char *dims,
    const char *kernel,
    gint64      kernel_us)
{
  g_autofree char *args = g_strdup_printf ("\"Input Dims\": %s", dims);
  gint64 start = g->t;

  g->t += 1;
  if (nested)
    {
      gint64 inner = g->t;

      g->t += 1;
      launch (g, tid, kernel, kernel_us);
      event (g, "cpu_op", nested, 100, tid, inner, g->t - inner, args);
      g->t += 1;
    }
  else
    launch (g, tid, kernel, kernel_us);
  event (g, "cpu_op", name, 100, tid, start, g->t - start, args);
  g->t += 2;
}

static void
module (Gen        *g,
        const char *name,
        gint64      start)
{
  event (g, "python_function", name, 100, FORWARD_TID, start, g->t - start, "");
  g->t += 1;
}

char *
pair_run_json (PairRun *run)
{
  Gen g = { g_string_new ("{\"traceEvents\":["), 0, 1000, 0 };

  g_return_val_if_fail (run->n_steps <= G_N_ELEMENTS (run->step_us), NULL);
  for (guint k = 1; k <= run->n_steps; k++)
    {
      g_autofree char *step = g_strdup_printf ("ProfilerStep#%u", k);
      gint64 start = g.t, net, layer;

      g.jitter = (gint64) ((k + run->jitter_shift) % 3) - 1;
      g.t += 3;
      net = g.t++;
      layer = g.t++;
      op (&g, FORWARD_TID, "aten::linear", "aten::addmm", "[[64, 64], [64, 64]]", run->gemm_kernel, run->gemm_us);
      module (&g, "nn.Module: Linear_0", layer);
      layer = g.t++;
      op (&g, FORWARD_TID, "aten::relu", NULL, "[[64, 64]]", PAIR_RELU_KERNEL, 10);
      if (run->extra_kernel)
        op (&g, FORWARD_TID, "aten::mul", NULL, "[[64, 64], []]", PAIR_MUL_KERNEL, 15);
      module (&g, "nn.Module: Act_0", layer);
      module (&g, "nn.Module: Net_0", net);
      op (&g, BACKWARD_TID, "aten::mm", NULL, "[[64, 64], [64, 64]]", PAIR_BACKWARD_KERNEL, 40);
      event (&g, "user_annotation", step, 100, FORWARD_TID, start, g.t + 5 - start, "");
      run->step_us[k - 1] = g.t + 5 - start;
      g.t += 20;
    }
  g_string_append (g.s, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"GPU 0\"}}");
  g_string_append (g.s, ",\n{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":0,\"args\":{\"labels\":\"GPU 0\"}}");
  g_string_append (g.s, "]}");
  return g_string_free (g.s, FALSE);
}
