/* chrono-example-job.c: the ranks of a data-parallel job
 *
 * Every rank runs the same steps: a data-loader batch, forward kernels,
 * backward kernels in buckets, each bucket's gradients all-reduced by
 * DDP's hook on the autograd thread (record_param_comms around an
 * nccl:all_reduce annotation around the launch of an NCCL kernel), then
 * the optimizer after the last all-reduce, and a synchronize. An
 * all-reduce starts on a rank when its gradients are ready, its hook has
 * launched it and the previous one has finished; it ends on every rank
 * shortly after the last rank arrived. So the job is simulated in two
 * passes: every rank's arrivals first, then each rank written with the
 * ends that the arrivals give.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "chrono-example-job.h"
#include "chrono-example-rng.h"
#include "chrono-json-util.h"

#define MAX_WORLD_SIZE   4096
#define MAX_OFFSET_NS    (G_GINT64_CONSTANT (5) * 1000000000)
#define ORIGIN_NS        (G_GINT64_CONSTANT (10) * 1000000000)  /* the job's time 0, past any offset */
#define BASE_TIME_NS     G_GINT64_CONSTANT (1733000000000000000)
#define N_FORWARD        6
#define N_BACKWARD       3      /* kernels per bucket */
#define NCCL_STREAM      20
#define COMPUTE_STREAM   7
#define LAUNCH_LATENCY   8000   /* from a launch call to its kernel's earliest start */
#define ELEMS_PER_BUCKET (G_GINT64_CONSTANT (6) * 1024 * 1024)

static const char * const forward_kernels[] = {
  "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_execute_kernel_trt",
  "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
};
static const char * const backward_kernels[] = {
  "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x128x8_stage3_warpsize1x4x1_ffma_aligna4_alignc4_execute_kernel_trt",
  "sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_execute_kernel_trt",
  "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)",
};
static const char nccl_kernel[] = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)";
static const char optimizer_kernel[] =
  "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<3>, at::native::(anonymous namespace)::FusedSgdMathFunctor<float, 3>, float*, double, double, double, bool, bool, bool, float*, float*, float const*>(at::native::(anonymous namespace)::TensorListMetadata<3>, at::native::(anonymous namespace)::FusedSgdMathFunctor<float, 3>, float*, double, double, double, bool, bool, bool, float*, float*, float const*)";

/* The job's layout: the same on every rank. */
typedef struct {
  const ChronoExampleJobOptions *o;
  gint64  forward_ns[N_FORWARD];
  gint64  backward_ns[N_BACKWARD];
  gint64  optimizer_ns;
  gint64  all_reduce_ns;
  guint   first_step;
  gint64 *ends;                 /* per collective: when the last rank's part ended, the job's clock */
} Layout;

/* One rank's state; everything it draws comes from its own generator, so
 * both passes see the same numbers. */
typedef struct {
  const Layout *layout;
  guint    rank;
  guint64  rng;
  gboolean straggler;
  gint64   offset;
  gint64   base_shift;          /* its baseTimeNanoseconds past the job's */
  gint64   host;                /* main thread's clock */
  gint64   compute_free;
  gint64   nccl_free;
  gint64   correlation;
  gint64   external_id;
  guint    collective;          /* the next, counted over the trace */
  gint64  *arrivals;            /* per collective */
  GString *out;                 /* NULL in the first pass */
  gboolean first_event;
} Rank;

static gint64
skew_of (const ChronoExampleJobOptions *o,
         guint                          rank,
         guint                          collective)
{
  for (guint i = 0; i < o->n_skews; i++)
    if (o->skews[i].rank == rank && o->skews[i].collective == collective)
      return o->skews[i].delay_ns;
  return 0;
}

/* -------------------------------------------------------------------- */
/* Events                                                               */

static void
put_ts (GString *s,
        gint64   ns)
{
  g_string_append_printf (s, "%" G_GINT64_FORMAT ".%03d", ns / 1000, (int) (ns % 1000));
}

/* The rank's file time of the job's time T. */
static gint64
file_time (Rank  *r,
           gint64 t)
{
  return t + r->offset - r->base_shift;
}

static void
event_begin (Rank       *r,
             const char *cat,
             const char *name,
             gint64      pid,
             gint64      tid,
             gint64      start,
             gint64      dur)
{
  GString *s = r->out;

  g_string_append (s, r->first_event ? "\n  {" : ",\n  {");
  r->first_event = FALSE;
  g_string_append_printf (s, "\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": %" G_GINT64_FORMAT
                          ", \"tid\": %" G_GINT64_FORMAT ", \"ts\": ", cat, name, pid, tid);
  put_ts (s, file_time (r, start));
  g_string_append (s, ", \"dur\": ");
  put_ts (s, dur);
  g_string_append (s, ", \"args\": {");
}

static void
event_end (Rank *r)
{
  g_string_append (r->out, "}}");
}

static void
host_span (Rank       *r,
           const char *cat,
           const char *name,
           gint64      tid,
           gint64      start,
           gint64      end,
           const char *args)
{
  if (r->out == NULL)
    return;
  event_begin (r, cat, name, 1000 + r->rank, tid, start, end - start);
  g_string_append_printf (r->out, "\"External id\": %" G_GINT64_FORMAT "%s%s", ++r->external_id,
                          args ? ", " : "", args ? args : "");
  event_end (r);
}

static void
flow (Rank       *r,
      char        ph,
      gint64      pid,
      gint64      tid,
      gint64      ts,
      gint64      id)
{
  g_string_append_printf (r->out, ",\n  {\"ph\": \"%c\", \"id\": %" G_GINT64_FORMAT ", \"pid\": %" G_GINT64_FORMAT
                          ", \"tid\": %" G_GINT64_FORMAT ", \"ts\": ", ph, id, pid, tid);
  put_ts (r->out, file_time (r, ts));
  g_string_append_printf (r->out, ", \"cat\": \"ac2g\", \"name\": \"ac2g\"%s}", ph == 'f' ? ", \"bp\": \"e\"" : "");
}

/* A kernel and the cudaLaunchKernel call on TID at HOST that launched it;
 * Kineto writes the kernel first. */
static void
kernel (Rank       *r,
        gint64      tid,
        gint64      host,
        const char *name,
        gint64      stream,
        gint64      start,
        gint64      end)
{
  gint64 corr = ++r->correlation;
  gint64 device = r->rank % 8;

  if (r->out == NULL)
    return;
  event_begin (r, "kernel", name, device, stream, start, end - start);
  g_string_append_printf (r->out, "\"External id\": %" G_GINT64_FORMAT ", \"queued\": 0, \"device\": %" G_GINT64_FORMAT
                          ", \"context\": 1, \"stream\": %" G_GINT64_FORMAT ", \"correlation\": %" G_GINT64_FORMAT
                          ", \"registers per thread\": 96, \"shared memory\": 41760, \"blocks per SM\": 0.25, "
                          "\"warps per SM\": 4, \"grid\": [32, 1, 1], \"block\": [512, 1, 1], "
                          "\"est. achieved occupancy %%\": 6", r->external_id, device, stream, corr);
  event_end (r);
  flow (r, 'f', device, stream, start, corr);
  event_begin (r, "cuda_runtime", "cudaLaunchKernel", 1000 + r->rank, tid, host, 6000);
  g_string_append_printf (r->out, "\"External id\": %" G_GINT64_FORMAT ", \"cbid\": 211, \"correlation\": %" G_GINT64_FORMAT,
                          r->external_id, corr);
  event_end (r);
  flow (r, 's', 1000 + r->rank, tid, host, corr);
}

/* -------------------------------------------------------------------- */
/* A step                                                               */

static gint64
jitter (Rank  *r,
        gint64 ns,
        gint64 per_mille)
{
  return ns + rng_range (&r->rng, 0, ns * per_mille / 1000);
}

/* A compute kernel launched from the main thread. */
static void
compute (Rank       *r,
         const char *op,
         const char *name,
         gint64      ns)
{
  gint64 start = MAX (r->host + 3000 + LAUNCH_LATENCY, r->compute_free + 1500);
  gint64 end = start + jitter (r, ns, 5);

  host_span (r, "cpu_op", op, 1000 + r->rank, r->host, r->host + 12000, NULL);
  kernel (r, 1000 + r->rank, r->host + 3000, name, COMPUTE_STREAM, start, end);
  r->compute_free = end;
  r->host += rng_range (&r->rng, 14000, 18000);
}

/* The all-reduce of one bucket, from the autograd thread: launched by the
 * hook at HOOK, started once READY (the gradients) and the previous one
 * allow. Returns when the hook is done. */
static gint64
all_reduce (Rank  *r,
            gint64 hook,
            gint64 ready)
{
  const Layout *l = r->layout;
  guint k = r->collective++;
  gint64 tid = 2000 + r->rank;
  gint64 arrival = MAX (MAX (ready, hook + 10000 + LAUNCH_LATENCY), r->nccl_free + 2000);
  gint64 end;

  r->arrivals[k] = arrival;
  end = MAX (l->ends[k], arrival + 1000) + rng_range (&r->rng, 0, 1500);
  r->nccl_free = end;
  if (r->out == NULL)
    return hook + 30000;
  {
    g_autoptr(GString) args = g_string_new (NULL);

    g_string_append_printf (args, "\"Collective name\": \"allreduce\", \"dtype\": \"Float\", \"In msg nelems\": %"
                            G_GINT64_FORMAT ", \"Out msg nelems\": %" G_GINT64_FORMAT ", \"Group size\": %u, "
                            "\"In split size\": \"[]\", \"Out split size\": \"[]\", \"Process Group Name\": \"0\", "
                            "\"Process Group Description\": \"default_pg\", \"Seq\": %u",
                            ELEMS_PER_BUCKET, ELEMS_PER_BUCKET, l->o->world_size, k + 1);
    host_span (r, "cpu_op", "record_param_comms", tid, hook, hook + 28000, args->str);
  }
  host_span (r, "user_annotation", "nccl:all_reduce", tid, hook + 2000, hook + 26000, NULL);
  kernel (r, tid, hook + 10000, nccl_kernel, NCCL_STREAM, arrival, end);
  event_begin (r, "gpu_user_annotation", "nccl:all_reduce", r->rank % 8, NCCL_STREAM, arrival - 1, end - arrival + 2);
  g_string_append_printf (r->out, "\"External id\": %" G_GINT64_FORMAT, r->external_id);
  event_end (r);
  return hook + 30000;
}

static void
run_step (Rank *r,
          guint step)
{
  const Layout *l = r->layout;
  const ChronoExampleJobOptions *o = l->o;
  gint64 tid = 1000 + r->rank;
  gint64 step_start = r->host, load, hook = 0, sync_start, gpu_end;
  char name[32];

  r->host += 5000;
  load = jitter (r, 300000, 60) + (r->straggler ? o->straggler_delay_ns : 0);
  host_span (r, "user_annotation", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", tid,
             r->host, r->host + load, NULL);
  r->host += load + 10000;

  for (guint i = 0; i < N_FORWARD; i++)
    compute (r, "aten::linear", forward_kernels[i % G_N_ELEMENTS (forward_kernels)], l->forward_ns[i]);
  for (guint b = 0; b < o->n_buckets; b++)
    {
      guint k = r->collective;
      gint64 delay = skew_of (o, r->rank, k), launched;

      for (guint i = 0; i < N_BACKWARD; i++)
        compute (r, "autograd::engine::evaluate_function: MmBackward0", backward_kernels[i], l->backward_ns[i]);
      /* The hook runs once the bucket's last gradient op is launched, or
       * after the thread's previous hook; late by the planted delay. */
      launched = r->host;
      hook = MAX (hook, launched + rng_range (&r->rng, 5000, 15000));
      if (delay > 0)
        hook = MAX (hook, r->compute_free + delay - 10000 - LAUNCH_LATENCY);
      hook = all_reduce (r, hook, r->compute_free);
    }

  /* The optimizer waits for the last all-reduce. */
  host_span (r, "cuda_runtime", "cudaStreamWaitEvent", tid, r->host, r->host + 4000, NULL);
  r->host += 6000;
  r->compute_free = MAX (r->compute_free, r->nccl_free);
  compute (r, "Optimizer.step#SGD.step", optimizer_kernel, l->optimizer_ns);
  gpu_end = r->compute_free;
  sync_start = r->host;
  r->host = MAX (r->host, gpu_end) + 5000;
  host_span (r, "cuda_runtime", "cudaStreamSynchronize", tid, sync_start, r->host, NULL);
  r->host += 10000;
  g_snprintf (name, sizeof name, "ProfilerStep#%u", l->first_step + step);
  host_span (r, "user_annotation", name, tid, step_start, r->host, NULL);
  r->host += rng_range (&r->rng, 20000, 40000);
}

static void
rank_init (Rank         *r,
           const Layout *l,
           guint         rank,
           GString      *out)
{
  const ChronoExampleJobOptions *o = l->o;

  *r = (Rank) {
    .layout = l, .rank = rank, .out = out, .first_event = TRUE,
    .rng = o->seed ^ (G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) * (rank + 1)),
    .arrivals = g_new0 (gint64, o->n_steps * o->n_buckets),
  };
  for (guint i = 0; i < o->n_stragglers; i++)
    r->straggler |= o->stragglers[i] == rank;
  for (guint i = 0; i < o->n_offsets; i++)
    if (o->offsets[i].rank == rank)
      r->offset = o->offsets[i].offset_ns;
  r->base_shift = rng_range (&r->rng, 0, 5000) * 1000;
  r->host = ORIGIN_NS + rng_range (&r->rng, 0, 200000);
  r->compute_free = r->nccl_free = r->host;
  r->correlation = rng_range (&r->rng, 1000, 9000);
  r->external_id = rng_range (&r->rng, 100, 900);
}

static void
run_rank (Rank *r)
{
  for (guint s = 0; s < r->layout->o->n_steps; s++)
    run_step (r, s);
}

/* -------------------------------------------------------------------- */
/* Files                                                                */

static gboolean
write_rank (const Layout  *l,
            const char    *dir,
            guint          rank,
            GError       **error)
{
  g_autoptr(GString) out = g_string_sized_new (64 * 1024);
  g_autofree char *name = g_strdup_printf ("rank-%04u.pt.trace.json", rank);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  const ChronoExampleJobOptions *o = l->o;
  Rank r;
  gboolean ok;

  rank_init (&r, l, rank, NULL);
  g_string_append_printf (out, "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [{\"id\": %u, \"name\": "
                          "\"NVIDIA A100-SXM4-80GB\", \"totalGlobalMem\": 85097971712, \"computeMajor\": 8, "
                          "\"computeMinor\": 0, \"numSms\": 108}],\n"
                          "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": %u, \"world_size\": %u, "
                          "\"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", "
                          "\"backend_config\": \"cuda:nccl\", \"pg_size\": %u}], \"nccl_version\": \"2.21.5\"},\n"
                          "  \"record_shapes\": 0,\n  \"displayTimeUnit\": \"ms\",\n"
                          "  \"baseTimeNanoseconds\": %" G_GINT64_FORMAT ",\n  \"traceEvents\": [",
                          rank % 8, rank, o->world_size, o->world_size, BASE_TIME_NS + r.base_shift);
  g_free (r.arrivals);
  rank_init (&r, l, rank, out);
  g_string_append_printf (out, "\n  {\"name\": \"process_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": %u, \"tid\": 0, "
                          "\"args\": {\"name\": \"python3\"}},\n"
                          "  {\"name\": \"process_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": %u, \"tid\": 0, "
                          "\"args\": {\"name\": \"python3\"}},\n"
                          "  {\"name\": \"process_labels\", \"ph\": \"M\", \"ts\": 0, \"pid\": %u, \"tid\": 0, "
                          "\"args\": {\"labels\": \"GPU %u\"}},\n"
                          "  {\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": %u, \"tid\": %d, "
                          "\"args\": {\"name\": \"stream %d \"}},\n"
                          "  {\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": %u, \"tid\": %d, "
                          "\"args\": {\"name\": \"stream %d \"}},\n"
                          "  {\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": %u, \"tid\": %u, "
                          "\"args\": {\"name\": \"pt_main_thread\"}},\n"
                          "  {\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": %u, \"tid\": %u, "
                          "\"args\": {\"name\": \"pt_autograd_0\"}},",
                          1000 + rank, rank % 8, rank % 8, rank % 8, rank % 8, COMPUTE_STREAM, COMPUTE_STREAM,
                          rank % 8, NCCL_STREAM, NCCL_STREAM, 1000 + rank, 1000 + rank, 1000 + rank, 2000 + rank);
  run_rank (&r);
  g_free (r.arrivals);
  g_string_append (out, "\n  ],\n  \"traceName\": \"");
  g_string_append (out, name);
  g_string_append (out, "\"\n}\n");
  ok = g_file_set_contents_full (path, out->str, out->len, G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
  if (!ok)
    g_prefix_error (error, "%s: ", path);
  return ok;
}

static gboolean
check_options (const ChronoExampleJobOptions  *o,
               GError                        **error)
{
  const char *problem = NULL;
  guint n = o->n_steps * o->n_buckets;

  if (o->world_size < 2 || o->world_size > MAX_WORLD_SIZE)
    problem = "the world size must be between 2 and 4096";
  else if (o->n_steps < 1 || o->n_buckets < 1 || n > 4096)
    problem = "there must be at least one step and one bucket, and at most 4096 all-reduces";
  else if (o->straggler_delay_ns < 0 || o->straggler_delay_ns > MAX_OFFSET_NS)
    problem = "the straggler delay must be between 0 and 5 s";
  for (guint i = 0; problem == NULL && i < o->n_stragglers; i++)
    if (o->stragglers[i] >= o->world_size)
      problem = "a straggler's rank is not below the world size";
  for (guint i = 0; problem == NULL && i < o->n_skews; i++)
    if (o->skews[i].rank >= o->world_size || o->skews[i].collective >= n ||
        o->skews[i].delay_ns <= 0 || o->skews[i].delay_ns > MAX_OFFSET_NS)
      problem = "a late arrival needs a rank below the world size, a collective below steps × buckets and a "
                "delay between 0 and 5 s";
  for (guint i = 0; problem == NULL && i < o->n_offsets; i++)
    if (o->offsets[i].rank >= o->world_size || ABS (o->offsets[i].offset_ns) > MAX_OFFSET_NS)
      problem = "a clock offset needs a rank below the world size and at most 5 s either way";
  if (problem != NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "Invalid job options: %s", problem);
  return problem == NULL;
}

void
chrono_example_job_options_init (ChronoExampleJobOptions *options)
{
  *options = (ChronoExampleJobOptions) {
    .world_size = 8,
    .n_steps = 4,
    .n_buckets = 4,
    .seed = 1,
    .straggler_delay_ns = 2 * 1000 * 1000,
  };
}

static JsonNode *
manifest (const Layout  *l,
          gint64       **arrivals)
{
  const ChronoExampleJobOptions *o = l->o;
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  chrono_json_add_string (b, "schema", CHRONO_EXAMPLE_JOB_SCHEMA);
  chrono_json_add_int (b, "world_size", o->world_size);
  chrono_json_add_int (b, "steps", o->n_steps);
  chrono_json_add_int (b, "collectives_per_rank", o->n_steps * o->n_buckets);
  chrono_json_add_int (b, "straggler_delay_ns", o->straggler_delay_ns);
  json_builder_set_member_name (b, "stragglers");
  json_builder_begin_array (b);
  for (guint i = 0; i < o->n_stragglers; i++)
    json_builder_add_int_value (b, o->stragglers[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "skews");
  json_builder_begin_array (b);
  for (guint i = 0; i < o->n_skews; i++)
    {
      json_builder_begin_object (b);
      chrono_json_add_int (b, "rank", o->skews[i].rank);
      chrono_json_add_int (b, "collective", o->skews[i].collective);
      chrono_json_add_int (b, "delay_ns", o->skews[i].delay_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "offsets");
  json_builder_begin_array (b);
  for (guint i = 0; i < o->n_offsets; i++)
    {
      json_builder_begin_object (b);
      chrono_json_add_int (b, "rank", o->offsets[i].rank);
      chrono_json_add_int (b, "offset_ns", o->offsets[i].offset_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  /* What the arrivals were, on the job's clock. */
  json_builder_set_member_name (b, "collectives");
  json_builder_begin_array (b);
  for (guint k = 0; k < o->n_steps * o->n_buckets; k++)
    {
      gint64 first = G_MAXINT64, last = G_MININT64;
      guint last_rank = 0;

      for (guint r = 0; r < o->world_size; r++)
        {
          first = MIN (first, arrivals[r][k]);
          if (arrivals[r][k] > last)
            {
              last = arrivals[r][k];
              last_rank = r;
            }
        }
      json_builder_begin_object (b);
      chrono_json_add_int (b, "index", k);
      chrono_json_add_int (b, "last_rank", last_rank);
      chrono_json_add_int (b, "skew_ns", last - first);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

JsonNode *
chrono_example_job_write (const char                    *dir,
                          const ChronoExampleJobOptions *options,
                          GError                       **error)
{
  guint64 layout_rng;
  g_autofree gint64 **arrivals = NULL;
  Layout l = { .o = options };
  guint n;
  gboolean ok = TRUE;
  JsonNode *result = NULL;

  g_return_val_if_fail (dir != NULL && options != NULL, NULL);

  if (!check_options (options, error))
    return NULL;
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", dir, g_strerror (saved));
      return NULL;
    }
  layout_rng = options->seed;
  for (guint i = 0; i < N_FORWARD; i++)
    l.forward_ns[i] = rng_range (&layout_rng, 400000, 1200000);
  for (guint i = 0; i < N_BACKWARD; i++)
    l.backward_ns[i] = rng_range (&layout_rng, 1200000, 2000000);
  l.optimizer_ns = rng_range (&layout_rng, 600000, 900000);
  /* a ring all-reduce of float32 at about 100 GB/s of bus bandwidth */
  l.all_reduce_ns = 2 * ELEMS_PER_BUCKET * 4 * (options->world_size - 1) / options->world_size / 100 + 20000;
  l.first_step = rng_range (&layout_rng, 1, 40);
  n = options->n_steps * options->n_buckets;
  l.ends = g_new0 (gint64, n);
  arrivals = g_new0 (gint64 *, options->world_size);

  /* First pass: the ends. A rank's arrival at a collective depends only
   * on the ends of those before it, so each round fixes at least one more
   * end, and the ends stop changing after at most N + 1 rounds. */
  for (guint round = 0, changed = TRUE; changed && round <= n; round++)
    {
      g_autofree gint64 *last = g_new (gint64, n);

      for (guint k = 0; k < n; k++)
        last[k] = G_MININT64;
      for (guint r = 0; r < options->world_size; r++)
        {
          Rank rank;

          rank_init (&rank, &l, r, NULL);
          run_rank (&rank);
          for (guint k = 0; k < n; k++)
            last[k] = MAX (last[k], rank.arrivals[k]);
          g_free (arrivals[r]);
          arrivals[r] = rank.arrivals;
        }
      changed = FALSE;
      for (guint k = 0; k < n; k++)
        if (l.ends[k] != last[k] + l.all_reduce_ns)
          {
            l.ends[k] = last[k] + l.all_reduce_ns;
            changed = TRUE;
          }
    }

  /* Second pass: the files, with the same draws. */
  for (guint r = 0; r < options->world_size && ok; r++)
    ok = write_rank (&l, dir, r, error);
  if (ok)
    result = manifest (&l, arrivals);
  for (guint r = 0; r < options->world_size; r++)
    g_free (arrivals[r]);
  g_free (l.ends);
  return result;
}
