/* chrono-example-trace.c: writes a realistic PyTorch-profiler (Kineto) trace
 *
 * The trace is one rank of data-parallel training of a small transformer.
 * Each profiler step copies the input, zeroes the gradients, runs the
 * forward pass on the main thread and the backward pass on the autograd
 * thread (with DDP all-reduces on an NCCL stream), then the optimizer, and
 * ends with loss.item(). CPU ops launch GPU work whose timing is simulated
 * per stream, so the GPU lags the CPU as it does in GPU-bound training.
 *
 * The layout follows Kineto's writer: metadata first; then, per step, the
 * CPU events of each thread, the GPU activity (each GPU op with its "f",
 * then its runtime call with the "s"), and the GPU copies of user
 * annotations; last the Trace span and the global instants. Events are
 * therefore out of timestamp order the way real files are.
 *
 * What the model runs is in chrono-example-model.c; the events are
 * formatted and written by chrono-example-writer.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gio.h>
#include <glib/gstdio.h>

#include "chrono-example-rng.h"
#include "chrono-example-trace-private.h"

/* Kineto floors its base time to a multiple of a quarter of an average
 * Gregorian year (ChromeTraceBaseTime). */
#define QUARTER_NS        (G_GINT64_CONSTANT (7889238) * G_GINT64_CONSTANT (1000000000))
#define DAY_NS            (G_GINT64_CONSTANT (86400) * G_GINT64_CONSTANT (1000000000))
#define MIB               (G_GINT64_CONSTANT (1) << 20)
#define RESERVE_CHUNK     (G_GINT64_CONSTANT (2) << 30)
/* Planted for the memory analysis: each step keeps one more copy of its
 * output (a leak), and the allocator reserves blocks of sizes it cannot
 * reuse (fragmentation). */
#define KEPT_OUTPUT_BYTES (64 * MIB)
#define FRAGMENT_BYTES    (G_GINT64_CONSTANT (1) << 30)
/* Long traces stay within an 80 GB device. */
#define KEPT_OUTPUTS_MAX  256
#define FRAGMENTED_MAX    (G_GINT64_CONSTANT (64) << 30)
#define PARAMS_PER_LAYER  G_GINT64_CONSTANT (201379840)  /* 12 h^2 + 13 h, h = 4096 */
#define MAX_DEVICES       8
#define MAX_WORLD_SIZE    1024
#define TRAILER_BYTES     4096       /* about what follows the last step */

/* -------------------------------------------------------------------- */
/* Simulation state                                                     */

static Rec *
rec_at (Thread *th,
        guint   index)
{
  return &g_array_index (th->recs, Rec, index);
}

static Rec *
rec_add (Thread *th,
         RecType type)
{
  Rec *r;

  g_array_set_size (th->recs, th->recs->len + 1);
  r = rec_at (th, th->recs->len - 1);
  r->type = type;
  r->ts = th->t;
  return r;
}

static void
advance (Gen    *g,
         Thread *th,
         gint64  lo,
         gint64  hi)
{
  th->t += rng_range (&g->rng, lo, hi);
}

static guint
span_begin (Gen             *g,
            Thread          *th,
            RecType          type,
            ChronoExampleCat cat,
            const char      *name,
            const char      *shapes)
{
  Rec *r;

  g_assert (th->depth < MAX_DEPTH);
  advance (g, th, 300, 2500);
  r = rec_add (th, type);
  r->cat = cat;
  r->name = name;
  r->shapes = shapes;
  r->ev_idx = g->ev_idx++;
  th->open[th->depth++] = th->recs->len - 1;
  return th->recs->len - 1;
}

/* Closes the innermost span. A childless trivial op is often too short for
 * the profiler's clock: Kineto then writes "dur": 0. */
static void
span_end (Gen     *g,
          Thread  *th,
          gboolean trivial)
{
  guint index = th->open[--th->depth];
  Rec *r = rec_at (th, index);

  if (trivial && index == th->recs->len - 1 && rng_chance (&g->rng, 4))
    {
      r->dur = 0;
      return;
    }
  if (trivial)
    advance (g, th, 200, 1500);
  else
    advance (g, th, 500, 4000);
  r->dur = th->t - r->ts;
}

static guint
op_begin (Gen             *g,
          Thread          *th,
          ChronoExampleCat cat,
          const char      *name,
          const char      *shapes,
          gint64           sequence)
{
  guint index = span_begin (g, th, REC_OP, cat, name, shapes);
  Rec *r = rec_at (th, index);

  r->u.op.external_id = ++g->external_id;
  r->u.op.sequence = sequence;
  return index;
}

static void
python_begin (Gen        *g,
              Thread     *th,
              const char *name,
              gint64      module)
{
  gint64 parent = 0;
  Rec *r;

  for (guint d = th->depth; d > 0 && parent == 0; d--)
    if (rec_at (th, th->open[d - 1])->type == REC_PYTHON)
      parent = rec_at (th, th->open[d - 1])->u.py.id;
  r = rec_at (th, span_begin (g, th, REC_PYTHON, CHRONO_EXAMPLE_CAT_PYTHON_FUNCTION, name, NULL));
  r->u.py.id = ++g->python_id;
  r->u.py.parent = parent;
  r->u.py.module = module;
}

static void
flow_rec (Thread *th,
          RecType type,
          gint64  id)
{
  rec_add (th, type)->u.flow_id = id;
}

static void
memory_event (Gen    *g,
              Thread *th,
              gint64  addr,
              gint64  bytes)
{
  Rec *r;

  advance (g, th, 200, 800);
  g->allocated += bytes;
  if (g->allocated > g->reserved)
    g->reserved = (g->allocated + RESERVE_CHUNK - 1) / RESERVE_CHUNK * RESERVE_CHUNK;
  r = rec_add (th, REC_MEMORY);
  r->ev_idx = g->ev_idx++;
  r->u.mem.addr = addr;
  r->u.mem.bytes = bytes;
  r->u.mem.allocated = g->allocated;
  r->u.mem.reserved = g->reserved;
}

static void
alloc_activation (Gen    *g,
                  Thread *th,
                  guint   mib)
{
  Alloc a = {
    .addr = G_GINT64_CONSTANT (0x7f3a00000000) + rng_range (&g->rng, 0, G_GINT64_CONSTANT (1) << 26) * 512,
    .bytes = mib * MIB,
  };

  g_array_append_val (g->allocs, a);
  memory_event (g, th, a.addr, a.bytes);
}

/* A copy of the step's output kept in a list by the training loop:
 * never freed, so memory grows step over step. */
static void
keep_output (Gen *g)
{
  Thread *th = &g->main_thread;

  op_begin (g, th, CHRONO_EXAMPLE_CAT_CPU_OP, "aten::clone",
            "\"Input type\": [\"c10::BFloat16\", \"\"], \"Input Dims\": [[8, 1024, 4096], []]", -1);
  memory_event (g, th, G_GINT64_CONSTANT (0x7f6000000000) + (gint64) g->step * KEPT_OUTPUT_BYTES, KEPT_OUTPUT_BYTES);
  span_end (g, th, FALSE);
}

/* Frees the activations allocated since MARK, newest first. */
static void
free_activations (Gen    *g,
                  Thread *th,
                  guint   mark)
{
  while (g->allocs->len > mark)
    {
      Alloc *a = &g_array_index (g->allocs, Alloc, g->allocs->len - 1);

      memory_event (g, th, a->addr, -a->bytes);
      g_array_set_size (g->allocs, g->allocs->len - 1);
    }
}

/* -------------------------------------------------------------------- */
/* Runtime calls and GPU work                                           */

static gint64
next_correlation (Gen *g)
{
  /* CUPTI ids skip the activity Kineto filters out */
  g->correlation += rng_chance (&g->rng, 5) ? rng_range (&g->rng, 2, 6) : 1;
  return g->correlation;
}

/* Runtime calls are linked to the innermost open op; Kineto writes the
 * correlation id when there is none. */
static gint64
current_external_id (Thread *th,
                     gint64  correlation)
{
  for (guint d = th->depth; d > 0; d--)
    {
      const Rec *r = rec_at (th, th->open[d - 1]);

      if (r->type == REC_OP)
        return r->u.op.external_id;
    }
  return correlation;
}

/* Advances TH over a runtime call; returns its start. */
static gint64
runtime_call (Gen    *g,
              Thread *th,
              ApiId   api,
              gint64 *dur)
{
  gint64 ts;

  advance (g, th, 400, 2000);
  ts = th->t;
  *dur = rng_range (&g->rng, chrono_example_apis[api].dur_lo, chrono_example_apis[api].dur_hi);
  if (rng_chance (&g->rng, 64))
    *dur *= 8;
  th->t += *dur;
  return ts;
}

/* A call that launches nothing: Kineto's flowStart() is false for it, so it
 * gets an "f" on itself and no "s" anywhere. WAIT_UNTIL > 0 makes the call
 * block until then. */
static void
runtime_only (Gen    *g,
              Thread *th,
              ApiId   api,
              gint64  wait_until)
{
  gint64 dur;
  gint64 ts = runtime_call (g, th, api, &dur);
  gint64 correlation = next_correlation (g);

  if (ts + dur < wait_until)
    {
      th->t = wait_until + rng_range (&g->rng, 2000, 6000);
      dur = th->t - ts;
    }
  chrono_example_write_runtime (g, th, api, ts, dur, correlation,
                                current_external_id (th, correlation), 'f');
  g->counts.dangling_flow_ends++;
}

/* cudaStreamWaitEvent: DST runs nothing more until SRC has run dry. */
static void
stream_wait (Gen    *g,
             Thread *th,
             guint   dst,
             guint   src)
{
  runtime_only (g, th, API_STREAM_WAIT_EVENT, 0);
  g->stream_free[dst] = MAX (g->stream_free[dst], g->stream_free[src]);
}

static guint
pick_stream (Gen        *g,
             StreamClass c)
{
  switch (c)
    {
    case ON_SIDE:
      if (g->opts.n_streams > 1)
        return 1 + g->next_side++ % (g->opts.n_streams - 1);
      return 0;
    case ON_NCCL:
      return g->opts.n_streams;
    case ON_COMPUTE:
    default:
      return 0;
    }
}

/* Ring all-reduce: each rank moves 2 (n - 1) / n of the buffer, at the
 * bus bandwidth NCCL reaches over NVLink 4 between eight H100s. */
static gint64
all_reduce_duration (Gen   *g,
                     gint64 nelems)
{
  gint64 bytes = nelems * 2;
  gint64 bus_bytes = 2 * bytes * (g->opts.world_size - 1) / g->opts.world_size;
  gint64 bus_gb_per_s = rng_range (&g->rng, 320, 420);

  return bus_bytes / bus_gb_per_s + rng_range (&g->rng, 15000, 40000);
}

/* Launches work W from TH: the runtime call, then the GPU op once its
 * stream is free. NELEMS and SEQ describe an all-reduce. */
static void
launch (Gen    *g,
        Thread *th,
        WorkId  id,
        gint64  nelems,
        gint64  seq)
{
  const GpuWork *w = &chrono_example_works[id];
  guint stream = pick_stream (g, w->stream);
  gint64 dur, start, gpu_dur, correlation, external_id;
  gint64 ts = runtime_call (g, th, w->api, &dur);
  Annotation *an = &th->annotation;

  correlation = next_correlation (g);
  external_id = current_external_id (th, correlation);
  /* The gap keeps GPU ops apart, so Kineto's widened GPU annotations never
   * overlap a neighbour partially. */
  start = MAX (ts + rng_range (&g->rng, 2000, 7000),
               g->stream_free[stream] + rng_range (&g->rng, 1000, 4000));
  gpu_dur = nelems > 0 ? all_reduce_duration (g, nelems) : rng_range (&g->rng, w->dur_lo, w->dur_hi);
  g->stream_free[stream] = start + gpu_dur;
  if (an->name != NULL && an->stream == stream)
    {
      if (an->first < 0)
        an->first = start;
      an->last = start + gpu_dur;
    }

  /* Kineto writes the GPU op before the call that launched it. */
  chrono_example_write_gpu_op (g, w, stream, start, gpu_dur, correlation, external_id, nelems, seq);
  chrono_example_write_runtime (g, th, w->api, ts, dur, correlation, external_id, 's');
  g->counts.flow_pairs++;
  g->counts.launches++;
}

static void
do_work (Gen    *g,
         Thread *th,
         WorkId  id)
{
  if (id == W_SYNC)
    runtime_only (g, th, API_STREAM_SYNCHRONIZE, g->stream_free[0]);
  else
    launch (g, th, id, 0, 0);
}

/* A user annotation whose GPU work also appears on STREAM. */
static void
annotated_begin (Gen        *g,
                 Thread     *th,
                 const char *name,
                 guint       stream)
{
  guint index = op_begin (g, th, CHRONO_EXAMPLE_CAT_USER_ANNOTATION, name, NULL, -1);

  th->annotation = (Annotation) {
    .external_id = rec_at (th, index)->u.op.external_id,
    .stream = stream,
    .first = -1,
    .name = name,
  };
}

static void
annotated_end (Gen    *g,
               Thread *th)
{
  Annotation *an = &th->annotation;

  if (an->first >= 0)
    {
      chrono_example_span_header (g, &g->gpu_annotations, CHRONO_EXAMPLE_CAT_GPU_USER_ANNOTATION,
                                  an->name, g->device, g->stream_ids[an->stream],
                                  an->first - 1, an->last - an->first + 2);
      PUT (&g->gpu_annotations, "\"External id\": ");
      put_i64 (&g->gpu_annotations, an->external_id);
      chrono_example_event_footer (&g->gpu_annotations);
    }
  an->name = NULL;
  span_end (g, th, FALSE);
}

/* -------------------------------------------------------------------- */
/* Programs                                                             */

static void
op_start (Gen             *g,
          Thread          *th,
          const OpLine    *line,
          const TapeEntry *node)
{
  gint64 sequence = -1;
  Rec *r;

  if (line->flags & OP_AUTOGRAD)
    sequence = ++g->sequence;
  else if (line->flags & OP_NODE)
    sequence = node->sequence;
  r = rec_at (th, op_begin (g, th, CHRONO_EXAMPLE_CAT_CPU_OP, line->name, line->shapes, sequence));
  r->u.op.backward_node = (line->flags & OP_NODE) != 0;

  if (line->flags & OP_AUTOGRAD)
    {
      TapeEntry e = {
        .backward = line->backward,
        .sequence = sequence,
        .flow_id = ++g->fwdbwd_id,
        .alloc_mark = g->allocs->len,
      };

      g_array_append_val (g->tape, e);
      flow_rec (th, REC_FLOW_START, e.flow_id);
    }
  if (line->flags & OP_FLOW_END)
    flow_rec (th, REC_FLOW_END, node->flow_id);
  if (line->alloc_mib > 0)
    alloc_activation (g, th, line->alloc_mib);
}

static void
op_finish (Gen          *g,
           Thread       *th,
           const OpLine *line)
{
  for (guint i = 0; i < G_N_ELEMENTS (line->work) && line->work[i] != W_NONE; i++)
    do_work (g, th, line->work[i]);
  span_end (g, th, (line->flags & OP_TRIVIAL) != 0);
}

/* Runs a program on TH. NODE is the tape entry a backward program runs
 * for, NULL otherwise. */
static void
run_program (Gen             *g,
             Thread          *th,
             const OpLine    *program,
             const TapeEntry *node)
{
  const OpLine *open[MAX_DEPTH];
  guint depth = 0;

  for (const OpLine *line = program; line->name != NULL; line++)
    {
      while (depth > line->depth)
        op_finish (g, th, open[--depth]);
      open[depth++] = line;
      op_start (g, th, line, node);
    }
  while (depth > 0)
    op_finish (g, th, open[--depth]);
}

/* DDP's bucket all-reduce, from the autograd thread. */
static void
all_reduce (Gen    *g,
            Thread *th,
            gint64  nelems)
{
  guint nccl = g->opts.n_streams;
  gint64 seq = ++g->collective_seq;
  Rec *r = rec_at (th, op_begin (g, th, CHRONO_EXAMPLE_CAT_CPU_OP, "record_param_comms", NULL, -1));

  r->u.op.collective_nelems = nelems;
  r->u.op.collective_seq = seq;
  annotated_begin (g, th, "nccl:all_reduce", nccl);
  runtime_only (g, th, API_STREAM_IS_CAPTURING, 0);
  for (guint s = 0; s < g->opts.n_streams; s++)
    {
      runtime_only (g, th, API_EVENT_RECORD, 0);
      stream_wait (g, th, nccl, s);
    }
  launch (g, th, W_ALL_REDUCE, nelems, seq);
  runtime_only (g, th, API_EVENT_RECORD, 0);
  annotated_end (g, th);
  span_end (g, th, FALSE);
  g->counts.collectives++;

  /* the reducer polls for completion outside any op */
  for (gint64 n = rng_range (&g->rng, 1, 3); n > 0; n--)
    runtime_only (g, th, API_EVENT_QUERY, 0);
}

static void
forward (Gen *g)
{
  Thread *th = &g->main_thread;

  annotated_begin (g, th, "DistributedDataParallel.forward", 0);
  python_begin (g, th, "nn.Module: GPT_0", 0);
  for (guint layer = 0; layer < g->n_layers; layer++)
    {
      guint first_entry = g->tape->len;

      python_begin (g, th, g->block_names[layer], layer + 1);
      for (guint i = 0; chrono_example_block_fwd[i] != NULL; i++)
        run_program (g, th, chrono_example_block_fwd[i], NULL);
      span_end (g, th, FALSE);

      /* backward reaches this layer's first node last */
      if (layer % g->bucket_layers == 0)
        g_array_index (g->tape, TapeEntry, first_entry).bucket_layers = MIN (g->bucket_layers, g->n_layers - layer);
    }
  run_program (g, th, chrono_example_layer_norm_fwd, NULL);
  run_program (g, th, chrono_example_linear_fwd, NULL);
  span_end (g, th, FALSE);
  annotated_end (g, th);
  run_program (g, th, chrono_example_loss_fwd, NULL);
}

/* The main thread waits in Python while the autograd thread runs the
 * tape backwards. */
static void
backward (Gen *g)
{
  Thread *main_thread = &g->main_thread;
  Thread *th = &g->autograd_thread;

  python_begin (g, main_thread, "torch/_tensor.py(522): backward", -1);
  python_begin (g, main_thread, "torch/autograd/__init__.py(266): backward", -1);
  python_begin (g, main_thread, "torch/autograd/graph.py(768): _engine_run_backward", -1);

  th->t = main_thread->t + rng_range (&g->rng, 5000, 20000);
  for (guint i = g->tape->len; i > 0; i--)
    {
      const TapeEntry *e = &g_array_index (g->tape, TapeEntry, i - 1);

      run_program (g, th, chrono_example_backwards[e->backward].program, e);
      free_activations (g, th, e->alloc_mark);
      for (guint p = 0; p < chrono_example_backwards[e->backward].n_params; p++)
        run_program (g, th, chrono_example_accumulate_grad, NULL);
      if (e->bucket_layers > 0 && g->opts.world_size > 1)
        all_reduce (g, th, e->bucket_layers * PARAMS_PER_LAYER);
    }
  main_thread->t = th->t + rng_range (&g->rng, 3000, 12000);

  for (guint i = 0; i < 3; i++)
    span_end (g, main_thread, FALSE);
}

static void
optimizer (Gen *g)
{
  Thread *th = &g->main_thread;

  annotated_begin (g, th, "Optimizer.step#AdamW.step", 0);
  /* the gradients are ready once the other streams are */
  for (guint s = 1; s <= g->opts.n_streams; s++)
    if (s < g->opts.n_streams || g->opts.world_size > 1)
      stream_wait (g, th, 0, s);
  python_begin (g, th, "torch/optim/adamw.py(209): step", -1);
  run_program (g, th, chrono_example_optimizer_step, NULL);
  span_end (g, th, FALSE);
  annotated_end (g, th);
}

static void
zero_grad (Gen *g)
{
  Thread *th = &g->main_thread;

  op_begin (g, th, CHRONO_EXAMPLE_CAT_USER_ANNOTATION, "Optimizer.zero_grad#AdamW.zero_grad", NULL, -1);
  run_program (g, th, chrono_example_zero_grad_ops, NULL);
  span_end (g, th, FALSE);
}

static void
write_recs (Gen    *g,
            Thread *th)
{
  g_assert (th->depth == 0);
  for (guint i = 0; i < th->recs->len; i++)
    chrono_example_write_rec (g, &g->out, th, rec_at (th, i));
  g_array_set_size (th->recs, 0);
}

static gboolean
run_step (Gen     *g,
          GError **error)
{
  Thread *th = &g->main_thread;
  guint input_mark = g->allocs->len;

  g_snprintf (g->step_name, sizeof g->step_name, "ProfilerStep#%u", g->step++);
  g_array_set_size (g->tape, 0);

  op_begin (g, th, CHRONO_EXAMPLE_CAT_USER_ANNOTATION, g->step_name, NULL, -1);
  run_program (g, th, chrono_example_input_copy, NULL);
  zero_grad (g);
  forward (g);
  backward (g);
  optimizer (g);
  if (g->step <= KEPT_OUTPUTS_MAX)
    keep_output (g);
  run_program (g, th, chrono_example_loss_item, NULL);
  if (g->reserved + FRAGMENT_BYTES <= FRAGMENTED_MAX)
    g->reserved += FRAGMENT_BYTES;
  free_activations (g, th, input_mark);
  span_end (g, th, FALSE);
  g->counts.steps++;

  /* Kineto's order: CPU events per thread, GPU activity, GPU annotations */
  write_recs (g, &g->main_thread);
  write_recs (g, &g->autograd_thread);
  g->autograd_thread.t = th->t;
  return chrono_example_sink_write (&g->sink, &g->out, error) &&
         chrono_example_sink_write (&g->sink, &g->gpu, error) &&
         chrono_example_sink_write (&g->sink, &g->gpu_annotations, error);
}

/* -------------------------------------------------------------------- */
/* Setup                                                                */

static void
thread_init (Thread *th,
             gint64  tid,
             gint64  t)
{
  th->tid = tid;
  th->t = t;
  th->recs = g_array_sized_new (FALSE, TRUE, sizeof (Rec), 4096);
}

static void
gen_init (Gen                        *g,
          const ChronoExampleOptions *options)
{
  /* Everything but timing and ids comes from the seed alone, so the ranks
   * of one seed describe the same job. */
  guint64 layout = options->seed;
  g_autoptr(GString) ranks = g_string_new ("[");
  gint64 quarter;

  g->opts = *options;
  g->rng = options->seed ^ (G_GUINT64_CONSTANT (0xd1b54a32d192ed03) * (options->rank + 1));

  g->n_layers = rng_range (&layout, 6, 12);
  g->bucket_layers = rng_range (&layout, 1, 2);
  quarter = rng_range (&layout, 216, 224);
  g->counts.base_time_ns = quarter * QUARTER_NS;
  g->trace_start = rng_range (&layout, 1, 80) * DAY_NS + rng_range (&layout, 0, DAY_NS);
  g->trace_start += rng_range (&g->rng, 0, 300000);
  g->step = rng_range (&layout, 1, 9);
  g->record_function_offset = rng_range (&layout, 20, 200);
  g->external_id = rng_range (&layout, 200, 5000);

  g->device = options->rank % MAX_DEVICES;
  g->n_devices = MIN (options->world_size, MAX_DEVICES);
  g->pid = rng_range (&g->rng, 100000, 3999999);
  thread_init (&g->main_thread, g->pid, g->trace_start + rng_range (&g->rng, 2000000, 6000000));
  thread_init (&g->autograd_thread, g->pid + rng_range (&g->rng, 3000, 9000), g->main_thread.t);
  for (guint s = 0; s < options->n_streams; s++)
    g->stream_ids[s] = 7 + 6 * s;
  g->stream_ids[options->n_streams] = g->stream_ids[options->n_streams - 1] + 10;
  for (guint s = 0; s <= options->n_streams; s++)
    g->stream_free[s] = g->trace_start;
  g->correlation = rng_range (&g->rng, 1000, 90000);

  g->block_names = g_new0 (char *, g->n_layers + 1);
  for (guint l = 0; l < g->n_layers; l++)
    g->block_names[l] = g_strdup_printf ("nn.Module: Block_%u", l);
  for (guint r = 0; r < options->world_size; r++)
    g_string_append_printf (ranks, r > 0 ? ", %u" : "%u", r);
  g_string_append_c (ranks, ']');
  g->ranks = g_string_free (g_steal_pointer (&ranks), FALSE);

  /* weights, gradients and two Adam moments in fp32 */
  g->allocated = (g->n_layers * PARAMS_PER_LAYER + 4096 * 50304) * 16;
  g->reserved = (g->allocated + RESERVE_CHUNK - 1) / RESERVE_CHUNK * RESERVE_CHUNK;
  g->allocs = g_array_new (FALSE, FALSE, sizeof (Alloc));
  g->tape = g_array_new (FALSE, TRUE, sizeof (TapeEntry));
}

static void
gen_clear (Gen *g)
{
  g_clear_pointer (&g->main_thread.recs, g_array_unref);
  g_clear_pointer (&g->autograd_thread.recs, g_array_unref);
  g_clear_pointer (&g->allocs, g_array_unref);
  g_clear_pointer (&g->tape, g_array_unref);
  g_clear_pointer (&g->block_names, g_strfreev);
  g_clear_pointer (&g->ranks, g_free);
  g_clear_pointer (&g->out.data, g_free);
  g_clear_pointer (&g->gpu.data, g_free);
  g_clear_pointer (&g->gpu_annotations.data, g_free);
}

void
chrono_example_options_init (ChronoExampleOptions *options)
{
  *options = (ChronoExampleOptions) {
    .target_bytes = 40 * 1000 * 1000,
    .n_steps = 0,
    .rank = 0,
    .world_size = 8,
    .seed = 1,
    .n_streams = 2,
    .gzip = FALSE,
  };
}

static gboolean
check_options (const ChronoExampleOptions  *o,
               GError                     **error)
{
  const char *problem = NULL;

  if (o->n_steps == 0 && o->target_bytes == 0)
    problem = "either a size or a number of steps is needed";
  else if (o->world_size < 1 || o->world_size > MAX_WORLD_SIZE)
    problem = "the world size must be between 1 and 1024";
  else if (o->rank >= o->world_size)
    problem = "the rank must be below the world size";
  else if (o->n_streams < 1 || o->n_streams > MAX_STREAMS)
    problem = "the number of streams must be between 1 and 8";
  if (problem != NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "Invalid example options: %s", problem);
  return problem == NULL;
}

gboolean
chrono_example_trace_write (const char                  *path,
                            const ChronoExampleOptions  *options,
                            ChronoExampleCounts         *counts_out,
                            GError                     **error)
{
  ChronoExampleOptions defaults;
  Gen g = { 0 };
  gboolean opened, ok;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (options == NULL)
    {
      chrono_example_options_init (&defaults);
      options = &defaults;
    }
  if (!check_options (options, error))
    return FALSE;

  gen_init (&g, options);
  ok = opened = chrono_example_sink_open (&g.sink, path, options->gzip, error);
  if (ok)
    {
      chrono_example_write_header (&g);
      do
        ok = run_step (&g, error);
      while (ok && (options->n_steps > 0 ? g.counts.steps < options->n_steps
                                         : g.sink.bytes + TRAILER_BYTES < options->target_bytes));
    }
  if (ok)
    {
      chrono_example_write_trailer (&g);
      ok = chrono_example_sink_write (&g.sink, &g.out, error) &&
           chrono_example_sink_finish (&g.sink, error);
    }
  chrono_example_sink_close (&g.sink);
  g.counts.uncompressed_bytes = g.sink.bytes;
  g.counts.file_bytes = g.sink.file_bytes;
  if (!ok && opened)
    g_unlink (path);
  else if (counts_out != NULL)
    *counts_out = g.counts;
  gen_clear (&g);
  return ok;
}
