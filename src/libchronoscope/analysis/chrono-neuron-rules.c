/* chrono-neuron-rules.c: the findings of a NeuronCore, from its ledger
 *
 * Each idle gap of the Tensor engine has one cause in the ledger (the
 * work that held it, found along its dependency chain). A finding is a
 * window in which one cause dominates the Tensor engine's idle time:
 * gaps of that cause close together, bridged while the cause keeps its
 * share. It claims that cause's idle state inside the window, so each
 * nanosecond is claimed once, and names the queues or engine, the worst
 * gap and its chain.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "chrono-analysis-private.h"
#include "chrono-neuron-metrics.h"
#include "chrono-neuron-record.h"

/* Two gaps of one cause belong to one window when the Tensor time
 * between them is at most this many times the longer of the two: a
 * DMA-bound stretch alternates short bursts of compute with waits, a
 * compute-bound one runs far longer between them. */
#define BRIDGE_FACTOR 8

/* The windows' kinds: a cause of the ledger, DMA split by what held it. */
typedef enum {
  KIND_DMA,
  KIND_SMALL_DMA,
  KIND_SPILL,
  KIND_VECTOR,
  KIND_SCALAR,
  KIND_GPSIMD,
  KIND_COLLECTIVE,
  KIND_LATE,
  KIND_TRANSPOSE,              /* not a gap: transposes alone on the Tensor engine */
  N_KINDS,
  KIND_NONE = N_KINDS,
} Kind;

typedef struct {
  ChronoRuleContext  *c;
  ChronoRankData     *data;
  guint               device;
  const ChronoNeuronLedger *ledger;
  ChronoNeuronMetrics *metrics;
  guint8             *spill_of;    /* per track: 0 unknown, 1 no, 2 a spill queue */
  GPtrArray          *busy;        /* each row's work merged, made when first asked */
  ChronoNeuronRecord  record;      /* the members the import kept */
} Core;

static guint32
cause_track (const ChronoNeuronLedger *ledger,
             const ChronoNeuronGap    *gap)
{
  return chrono_neuron_ledger_get_link (ledger, gap->first_link + gap->n_links - 1)->span.track;
}

/* The first of the numbers KEYS (NULL-terminated) in the args of SPAN;
 * 0 when the profile gives none. */
static gdouble
arg_number (ChronoTrace        *trace,
            ChronoSpanRef       span,
            const char * const *keys)
{
  guint64 args = chrono_track_get_args (chrono_trace_get_track (trace, span.track), span.index);
  g_autofree char *text = NULL;
  gdouble value = 0;

  for (guint k = 0; keys[k] != NULL; k++)
    {
      /* The keys are this file's, all short. */
      gsize len = MIN (strlen (keys[k]), 60);
      char quoted[64] = "\"";

      memcpy (quoted + 1, keys[k], len);
      quoted[len + 1] = '"';
      quoted[len + 2] = '\0';
      if (chrono_analysis_arg_number (trace, args, quoted, &value))
        return value;
    }
  /* Table rows (Parquet) have no text to search. */
  text = chrono_trace_dup_first_arg (trace, args, keys);
  return text != NULL ? g_ascii_strtod (text, NULL) : 0;
}

/* The bytes of a DMA transfer: "transfer_size" in the JSON,
 * "transfer_bytes" in the Parquet, as the import kept them; else read
 * from its args. */
static gdouble
transfer_bytes (Core          *core,
                ChronoSpanRef  span)
{
  static const char * const keys[] = { "transfer_size", "transfer_bytes", "bytes", NULL };
  ChronoTrace *trace = core->data->trace;
  gdouble value;

  chrono_neuron_record_read (&core->record, chrono_track_get_args (chrono_trace_get_track (trace, span.track), span.index));
  if (chrono_neuron_record_number (&core->record, CHRONO_NEURON_F_TRANSFER_SIZE, &value) ||
      chrono_neuron_record_number (&core->record, CHRONO_NEURON_F_TRANSFER_BYTES, &value))
    return value;
  return arg_number (trace, span, keys);
}

static Kind
kind_of_gap (Core                  *core,
             const ChronoNeuronGap *gap)
{
  ChronoTrace *trace = core->data->trace;

  switch (gap->cause)
    {
    case CHRONO_LEDGER_IDLE_DMA:
      {
        const ChronoNeuronLink *dma = chrono_neuron_ledger_get_link (core->ledger, gap->first_link + gap->n_links - 1);
        guint32 track = dma->span.track;
        gdouble bytes;

        if (core->spill_of[track] == 0)
          {
            const char *name = chrono_trace_get_string (trace, chrono_trace_get_track (trace, track)->display_name);
            core->spill_of[track] = strstr (name, "Spill") != NULL ? 2 : 1;
          }
        if (core->spill_of[track] == 2)
          return KIND_SPILL;
        bytes = transfer_bytes (core, dma->span);
        return bytes > 0 && bytes < core->c->th->small_dma_max_bytes ? KIND_SMALL_DMA : KIND_DMA;
      }
    case CHRONO_LEDGER_IDLE_VECTOR:     return KIND_VECTOR;
    case CHRONO_LEDGER_IDLE_SCALAR:     return KIND_SCALAR;
    case CHRONO_LEDGER_IDLE_GPSIMD:     return KIND_GPSIMD;
    case CHRONO_LEDGER_IDLE_COLLECTIVE: return KIND_COLLECTIVE;
    case CHRONO_LEDGER_IDLE_NOT_QUEUED: return KIND_LATE;
    default:                            return KIND_NONE;
    }
}

/* ------------------------------------------------------------------ */
/* What each finding says                                             */

typedef struct {
  const char *rule;
  const char *what;            /* what the Tensor engine waited for */
  const char *advice;
} KindInfo;

static const KindInfo *
kind_info (Kind kind)
{
  static const KindInfo info[N_KINDS] = {
    [KIND_DMA] = { "neuron-dma-bound", N_("DMA"),
      N_("The Tensor engine waits for its inputs: prefetch deeper (more buffers in flight, so the next tile loads "
         "while this one computes), spread transfers over more DMA queues, and keep reused tensors in SBUF.") },
    [KIND_SMALL_DMA] = { "neuron-small-dma", N_("small DMA transfers"),
      N_("Each DMA transfer has a fixed cost: make transfers at least 4 KiB (32 KiB or more is the target) by "
         "loading larger, contiguous tiles and coalescing descriptors.") },
    [KIND_SPILL] = { "neuron-spill-reload", N_("spill reloads"),
      N_("Tensors spilled out of SBUF are reloaded before the Tensor engine can go on: reduce SBUF pressure "
         "(smaller tiles, fewer live tensors, recomputation instead of keeping activations).") },
    [KIND_VECTOR] = { "neuron-engine-bound", N_("the Vector engine"),
      N_("The Tensor engine waits for the Vector engine: pipeline the engines with NKI tiling so Vector work on "
         "one tile overlaps matrix work on the next, fuse elementwise passes, and move work to an idle engine.") },
    [KIND_SCALAR] = { "neuron-engine-bound", N_("the Scalar engine"),
      N_("The Tensor engine waits for the Scalar engine: pipeline the engines with NKI tiling so activations on "
         "one tile overlap matrix work on the next, and fuse activations into fewer passes.") },
    [KIND_GPSIMD] = { "neuron-engine-bound", N_("the GpSimd engine"),
      N_("The Tensor engine waits for the GpSimd engine: move its work to the Vector or Scalar engine where they "
         "can do it, and pipeline the engines with NKI tiling.") },
    [KIND_COLLECTIVE] = { "neuron-collective-wait", N_("collectives"),
      N_("The Tensor engine waits for collectives: overlap them with compute (issue them earlier, split them "
         "into chunks that pipeline with the layers that do not depend on them).") },
    [KIND_LATE] = { "neuron-late-start", N_("work issued late, held by nothing it depended on"),
      N_("Nothing in the profile held the Tensor engine: its work was issued late by the runtime or the host. "
         "Look at what ran before the execution started and between executions.") },
    [KIND_TRANSPOSE] = { "neuron-transpose", N_("transposes"),
      N_("The Tensor engine spends its time moving data instead of multiplying: choose layouts that need no "
         "transpose (keep the contraction dimension on the partitions), or transpose with DMA while the engine "
         "computes.") },
  };

  return &info[kind];
}

/* ------------------------------------------------------------------ */
/* Windows                                                            */

/* A stretch of one kind: a gap (GAP its index), or transpose-only time
 * (GAP G_MAXUINT). */
typedef struct {
  gint64 start;
  gint64 end;
  guint  gap;
} Stretch;

typedef struct {
  const Stretch *stretches;    /* of one kind, FIRST to LAST */
  guint  first;
  guint  last;
  gint64 time;                 /* their length */
  guint  worst;                /* the longest */
} Window;

/* The rows of the queues or engines that held the Tensor engine in W,
 * into TRACKS, and their names. */
static char *
cause_tracks (Core         *core,
              const Window *w,
              GArray       *tracks)
{
  ChronoTrace *trace = core->data->trace;
  GString *names = g_string_new (NULL);

  for (guint k = w->first; k <= w->last && w->stretches[k].gap != G_MAXUINT; k++)
    {
      const ChronoNeuronGap *gap = chrono_neuron_ledger_get_gap (core->ledger, w->stretches[k].gap);
      guint32 track = cause_track (core->ledger, gap);
      gboolean seen = FALSE;

      /* A chain of the Tensor instruction alone names no row. */
      if (gap->n_links < 2)
        continue;
      for (guint t = 0; t < tracks->len && !seen; t++)
        seen = g_array_index (tracks, guint32, t) == track;
      if (seen)
        continue;
      g_array_append_val (tracks, track);
      g_string_append_printf (names, "%s%s", names->len ? ", " : "",
                              chrono_trace_get_string (trace, chrono_trace_get_track (trace, track)->display_name));
    }
  if (names->len > 0)
    {
      g_string_prepend (names, " (");
      g_string_append_c (names, ')');
    }
  return g_string_free (names, FALSE);
}

/* The rows of the Tensor engine of the core. */
static void
add_tensor_tracks (Core          *core,
                   ChronoFinding *f)
{
  const ChronoDeviceWork *d = &g_array_index (core->data->devices, ChronoDeviceWork, core->device);
  ChronoTrace *trace = core->data->trace;

  for (guint k = 0; k < d->streams->len; k++)
    {
      guint32 track = g_array_index (d->streams, ChronoStreamWork, k).track;
      if (g_str_has_prefix (chrono_trace_get_string (trace, chrono_trace_get_track (trace, track)->display_name), "Tensor"))
        chrono_finding_add_track (f, core->data->trace_index, track);
    }
}

/* The worst gap's chain as evidence, its rows among the tracks. */
static void
add_chain (Core          *core,
           guint          index,
           ChronoFinding *f)
{
  const ChronoNeuronGap *gap = chrono_neuron_ledger_get_gap (core->ledger, index);

  for (guint k = 0; k < gap->n_links; k++)
    {
      const ChronoNeuronLink *link = chrono_neuron_ledger_get_link (core->ledger, gap->first_link + k);
      g_autofree char *key = g_strdup_printf ("chain_%u_%s_index", k, chrono_neuron_unit_to_string (link->unit));

      chrono_finding_add_track (f, core->data->trace_index, link->span.track);
      chrono_finding_add_evidence (f, key, link->span.index);
      if (k == 0)
        chrono_finding_set_node (f, core->data->trace_index, link->span.track, link->span.index);
    }
  chrono_finding_add_evidence (f, "worst_gap_ns", gap->end_ns - gap->start_ns);
  chrono_finding_add_evidence (f, "worst_gap_start_ns", gap->start_ns);
}

/* How much faster the window would run if the engines and queues
 * overlapped perfectly: its length over the busiest one's time in it. */
static gdouble
overlap_speedup (Core   *core,
                 gint64  start,
                 gint64  end)
{
  const ChronoDeviceWork *d = &g_array_index (core->data->devices, ChronoDeviceWork, core->device);
  gint64 busiest = 0;

  if (core->busy->len == 0)
    for (guint k = 0; k < d->streams->len; k++)
      {
        const ChronoStreamWork *s = &g_array_index (d->streams, ChronoStreamWork, k);
        g_ptr_array_add (core->busy, chrono_intervals_of_stream (core->data, s));
      }
  for (guint k = 0; k < core->busy->len; k++)
    busiest = MAX (busiest, chrono_intervals_length_in (g_ptr_array_index (core->busy, k), start, end));
  return busiest > 0 ? (gdouble) (end - start) / busiest : 0;
}

/* Whether the window's kind dominates it: a cause at least
 * engine-bound-percent of the Tensor engine's idle time there, transposes
 * more than neuron-transpose-percent of its busy time. */
static gboolean
dominates (Core         *core,
           const Window *w,
           Kind          kind,
           const gint64  states[CHRONO_N_LEDGER_STATES])
{
  gint64 idle = 0, busy = states[CHRONO_LEDGER_COMPUTE] + states[CHRONO_LEDGER_TRANSPOSE];

  if (kind == KIND_TRANSPOSE)
    return w->time * 100 > busy * (gint64) core->c->th->neuron_transpose_percent;
  for (guint k = 0; k < CHRONO_N_LEDGER_STATES; k++)
    if (CHRONO_LEDGER_NEURON_IDLE_MASK & CHRONO_LEDGER_MASK (k))
      idle += states[k];
  return w->time * 100 >= idle * (gint64) core->c->th->engine_bound_percent;
}

static char *
window_title (Core         *core,
              const Window *w,
              Kind          kind,
              const char   *names,
              gint64        start,
              gint64        end,
              gint64        busy)
{
  const ChronoDeviceWork *d = &g_array_index (core->data->devices, ChronoDeviceWork, core->device);
  const char *core_name = chrono_trace_get_string (core->data->trace,
                                                   chrono_trace_get_process (core->data->trace, d->process)->display_name);
  guint n = w->last - w->first + 1;

  if (kind == KIND_TRANSPOSE)
    return g_strdup_printf (_("%s: transposes alone take %.0f%% of the Tensor engine's busy time in %.3f ms "
                              "(%.3f ms)"), core_name, 100.0 * w->time / MAX (busy, 1), (end - start) / 1e6,
                            w->time / 1e6);
  return g_strdup_printf (ngettext ("%s: the Tensor engine waited %.3f ms for %s%s in %u gap, %.0f%% of %.3f ms",
                                    "%s: the Tensor engine waited %.3f ms for %s%s in %u gaps, %.0f%% of %.3f ms", n),
                          core_name, w->time / 1e6, _(kind_info (kind)->what), names, n,
                          100.0 * w->time / MAX (end - start, 1), (end - start) / 1e6);
}

/* The spill reloads of [START, END) as a percentage of its HBM reads;
 * NAN when the profile gives no bytes, which leaves the waits alone to
 * judge. */
static gdouble
spill_percent (Core   *core,
               gint64  start,
               gint64  end)
{
  ChronoNeuronTotals t;

  if (core->metrics == NULL)
    return NAN;
  chrono_neuron_metrics_totals (core->metrics, start, end, &t);
  if (chrono_neuron_metrics_get_bytes_source (core->metrics) == CHRONO_NEURON_BYTES_NONE || t.hbm_read_bytes <= 0)
    return NAN;
  return 100 * t.spill_reload_bytes / t.hbm_read_bytes;
}

static void
report_window (Core         *core,
               const Window *w,
               Kind          kind)
{
  const KindInfo *info = kind_info (kind);
  gint64 start = w->stretches[w->first].start, end = w->stretches[w->last].end, lost, busy;
  gdouble spill;
  gint64 states[CHRONO_N_LEDGER_STATES] = { 0 };
  g_auto(ChronoClaim) claim = { NULL };
  g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *names = NULL;
  ChronoFinding *f;

  /* Its claim is at most its stretches: under the least a finding costs,
   * nothing else need be measured. */
  if (w->time < MAX (core->c->th->min_time_lost_ns, 1))
    return;
  chrono_neuron_ledger_sum (core->ledger, start, end, states);
  busy = states[CHRONO_LEDGER_COMPUTE] + states[CHRONO_LEDGER_TRANSPOSE];
  if (!dominates (core, w, kind, states))
    return;
  spill = kind == KIND_SPILL ? spill_percent (core, start, end) : NAN;
  if (spill <= core->c->th->spill_reload_percent)
    return;
  chrono_claim_init (&claim);
  for (guint k = w->first; k <= w->last; k++)
    {
      const Stretch *st = &w->stretches[k];
      ChronoLedgerState state = st->gap == G_MAXUINT ? CHRONO_LEDGER_TRANSPOSE
                                : chrono_neuron_ledger_get_gap (core->ledger, st->gap)->cause;

      chrono_claim_add (&claim, core->data, core->device, st->start, st->end, CHRONO_LEDGER_MASK (state),
                        G_MAXUINT32, G_MAXINT64);
    }
  if ((lost = chrono_rule_measure (core->c, &claim, G_MAXINT64)) == 0)
    return;
  names = cause_tracks (core, w, tracks);
  f = chrono_rule_add_finding (core->c, info->rule, core->data, start, end, &claim, lost, _(info->advice),
                               window_title (core, w, kind, names, start, end, busy));
  add_tensor_tracks (core, f);
  for (guint k = 0; k < tracks->len; k++)
    chrono_finding_add_track (f, core->data->trace_index, g_array_index (tracks, guint32, k));
  chrono_finding_add_evidence (f, kind == KIND_TRANSPOSE ? "transpose_ns" : "idle_ns", w->time);
  chrono_finding_add_evidence (f, kind == KIND_TRANSPOSE ? "stretches" : "gaps", w->last - w->first + 1);
  chrono_finding_add_evidence (f, "window_ns", end - start);
  chrono_finding_add_evidence (f, "tensor_busy_ns", busy);
  chrono_finding_add_evidence (f, "tensor_idle_ns", (end - start) - busy);
  if (isfinite (spill))
    chrono_finding_add_evidence (f, "spill_reload_percent_of_hbm_read", spill);
  if (kind == KIND_TRANSPOSE)
    return;
  chrono_finding_add_evidence (f, "overlap_speedup", overlap_speedup (core, start, end));
  add_chain (core, w->stretches[w->worst].gap, f);
}

/* The windows among STRETCHES of one kind, in time order: a window closes
 * when the Tensor time to the next stretch is too long to bridge. */
static void
find_windows (Core          *core,
              Kind           kind,
              const Stretch *stretches,
              guint          n)
{
  Window w = { stretches, 0, 0, 0, 0 };

  for (guint k = 0; k < n; k++)
    {
      gint64 len = stretches[k].end - stretches[k].start;

      if (k > w.first && stretches[k].start - stretches[k - 1].end >
                         BRIDGE_FACTOR * MAX (len, stretches[k - 1].end - stretches[k - 1].start))
        {
          report_window (core, &w, kind);
          w = (Window) { stretches, k, k, 0, k };
        }
      w.last = k;
      w.time += len;
      if (len > stretches[w.worst].end - stretches[w.worst].start)
        w.worst = k;
    }
  if (n > 0)
    report_window (core, &w, kind);
}

/* ------------------------------------------------------------------ */
/* Slow collectives                                                   */

typedef struct {
  guint32 name;
  gdouble bytes;
  gint64  start;
  gint64  end;
} CcOp;

static gint
compare_ops (gconstpointer a,
             gconstpointer b)
{
  const CcOp *x = a, *y = b;

  if (x->name != y->name)
    return x->name < y->name ? -1 : 1;
  if (x->bytes != y->bytes)
    return x->bytes < y->bytes ? -1 : 1;
  return (x->end - x->start > y->end - y->start) - (x->end - x->start < y->end - y->start);
}

/* One group of CC ops of a type and size, sorted by duration: those over
 * twice the median make the Tensor engine wait past the median. */
static void
report_outliers (Core       *core,
                 const CcOp *ops,
                 guint       n)
{
  gint64 median = ops[n / 2].end - ops[n / 2].start, first = G_MAXINT64, last = G_MININT64, lost;
  g_auto(ChronoClaim) claim = { NULL };
  ChronoFinding *f;
  guint slow = 0;

  if (n < 5)
    return;
  chrono_claim_init (&claim);
  for (guint k = 0; k < n; k++)
    if (ops[k].end - ops[k].start > 2 * median)
      {
        chrono_claim_add (&claim, core->data, core->device, ops[k].start + median, ops[k].end,
                          CHRONO_LEDGER_MASK (CHRONO_LEDGER_IDLE_COLLECTIVE), G_MAXUINT32, G_MAXINT64);
        first = MIN (first, ops[k].start);
        last = MAX (last, ops[k].end);
        slow++;
      }
  if (slow == 0 || (lost = chrono_rule_measure (core->c, &claim, G_MAXINT64)) == 0)
    return;
  f = chrono_rule_add_finding (core->c, "collective-outlier", core->data, first, last, &claim, lost,
                               _("Some collectives of one type and size take far longer than the others: look for "
                                 "a straggling peer core or rank, contention on the links, or a collective issued "
                                 "while DMA queues were saturated."),
                               g_strdup_printf (ngettext ("%u of %u %s of %.0f bytes took over twice their median "
                                                          "%.3f ms; the Tensor engine waited %.3f ms past the median",
                                                          "%u of %u %s of %.0f bytes took over twice their median "
                                                          "%.3f ms; the Tensor engine waited %.3f ms past the median",
                                                          slow),
                                                slow, n, chrono_trace_get_string (core->data->trace, ops[0].name),
                                                ops[0].bytes, median / 1e6, lost / 1e6));
  chrono_finding_add_evidence (f, "collectives", n);
  chrono_finding_add_evidence (f, "outliers", slow);
  chrono_finding_add_evidence (f, "median_ns", median);
  chrono_finding_add_evidence (f, "bytes", ops[0].bytes);
  add_tensor_tracks (core, f);
}

/* The CC ops of the core (the Collectives row, not the CC-cores'),
 * grouped by type and size. */
static void
rule_collective_outliers (Core *core)
{
  static const char * const keys[] = { "input_size", "size", "bytes", NULL };
  const ChronoDeviceWork *d = &g_array_index (core->data->devices, ChronoDeviceWork, core->device);
  ChronoTrace *trace = core->data->trace;
  g_autoptr(GArray) ops = g_array_new (FALSE, FALSE, sizeof (CcOp));
  guint from = 0;

  for (guint k = 0; k < d->items->len; k++)
    {
      const ChronoWorkItem *it = &g_array_index (d->items, ChronoWorkItem, k);
      const ChronoTrack *t;

      if (it->cls != CHRONO_WORK_COMMUNICATION)
        continue;
      t = core->data->tracks[it->track];
      if (!g_str_has_prefix (chrono_trace_get_string (trace, t->display_name), "Collectives"))
        continue;
      g_array_append_val (ops, ((CcOp) { chrono_track_get_name (t, it->index),
                                         arg_number (trace, (ChronoSpanRef) { it->track, it->index }, keys),
                                         it->start, it->end }));
    }
  g_array_sort (ops, compare_ops);
  for (guint k = 1; k <= ops->len; k++)
    {
      const CcOp *a = &g_array_index (ops, CcOp, from);
      if (k < ops->len && g_array_index (ops, CcOp, k).name == a->name && g_array_index (ops, CcOp, k).bytes == a->bytes)
        continue;
      report_outliers (core, a, k - from);
      from = k;
    }
}

/* ------------------------------------------------------------------ */
/* Throttling                                                         */

typedef struct {
  gint64  start;
  gint64  end;
  gdouble rate;                /* k/n */
} Throttle;

/* The Tensor engine's compute time that throttling records slowed, and
 * what it cost: at k/n of its rate, work that takes C took C × k/n
 * unthrottled, so C × (1 − k/n) is lost. */
static void
report_throttling (Core           *core,
                   const Throttle *records,
                   guint           n)
{
  const ChronoDeviceWork *d = &g_array_index (core->data->devices, ChronoDeviceWork, core->device);
  const char *core_name = chrono_trace_get_string (core->data->trace,
                                                   chrono_trace_get_process (core->data->trace, d->process)->display_name);
  const guint busy = CHRONO_LEDGER_MASK (CHRONO_LEDGER_COMPUTE) | CHRONO_LEDGER_MASK (CHRONO_LEDGER_TRANSPOSE);
  g_auto(ChronoClaim) claim = { NULL };
  gint64 active = 0, lost;
  ChronoFinding *f;

  chrono_claim_init (&claim);
  for (guint i = 0; i < n; i++)
    {
      gint64 compute = chrono_ledger_time_in (d->ledger, records[i].start, records[i].end, busy);

      chrono_claim_add (&claim, core->data, core->device, records[i].start, records[i].end, busy, G_MAXUINT32,
                        (gint64) (compute * (1 - records[i].rate)));
      active += compute;
    }
  if ((lost = chrono_rule_measure (core->c, &claim, G_MAXINT64)) == 0)
    return;
  f = chrono_rule_add_finding (core->c, "neuron-throttling", core->data, records[0].start, records[n - 1].end,
                               &claim, lost,
                               _("The Tensor engine ran below its rate under power throttling, which follows sudden "
                                 "swings of its load: keep it busy at least half the time (fewer, longer bursts of "
                                 "matrix work, compute overlapped with DMA) so the current it draws changes slowly."),
                               g_strdup_printf (_("%s: throttling slowed %.3f ms of the Tensor engine's work by %.3f ms"),
                                                core_name, active / 1e6, lost / 1e6));
  chrono_finding_add_evidence (f, "throttle_records", n);
  chrono_finding_add_evidence (f, "throttled_active_ns", active);
  chrono_finding_add_evidence (f, "lost_percent_of_active", 100.0 * lost / MAX (active, 1));
  add_tensor_tracks (core, f);
}

/* The profile's Throttle records (timestamp, duration, k of n) by time;
 * those close together make one finding. */
static void
rule_throttling (Core *core)
{
  g_autoptr(JsonNode) node = chrono_trace_get_metadata (core->data->trace, "neuron_throttle");
  JsonArray *rows = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  g_autoptr(GArray) records = g_array_new (FALSE, FALSE, sizeof (Throttle));
  const Throttle *r;
  guint first = 0;

  for (guint i = 0; rows && i < json_array_get_length (rows); i++)
    {
      JsonNode *e = json_array_get_element (rows, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (e) ? json_node_get_object (e) : NULL;
      gdouble ts, dur, k, n;

      if (chrono_neuron_summary_number (o, "timestamp", &ts) && chrono_neuron_summary_number (o, "duration", &dur) &&
          chrono_neuron_summary_number (o, "k", &k) && chrono_neuron_summary_number (o, "n", &n) && n > 0 && dur > 0)
        g_array_append_val (records, ((Throttle) { (gint64) ts, (gint64) (ts + dur), CLAMP (k / n, 0, 1) }));
    }
  chrono_array_sort_by_int64 (records, G_STRUCT_OFFSET (Throttle, start));
  r = (const Throttle *) records->data;
  for (guint i = 1; i <= records->len; i++)
    if (i == records->len ||
        r[i].start - r[i - 1].end > BRIDGE_FACTOR * MAX (r[i].end - r[i].start, r[i - 1].end - r[i - 1].start))
      {
        report_throttling (core, r + first, i - first);
        first = i;
      }
}

/* ------------------------------------------------------------------ */
/* Ratios                                                             */

/* The core's name, for titles. */
static const char *
core_name (Core *core)
{
  const ChronoDeviceWork *d = &g_array_index (core->data->devices, ChronoDeviceWork, core->device);

  return chrono_trace_get_string (core->data->trace,
                                  chrono_trace_get_process (core->data->trace, d->process)->display_name);
}

/* Model FLOPs against what the Tensor engine could do while active, over
 * the whole profile: only there do the compiler's HLO statistics give
 * them. The engine computes all that time, so the ledger shows none of it
 * lost. */
static void
rule_low_model_flops (Core *core)
{
  const ChronoNeuronPeak *peak = chrono_neuron_metrics_get_peak (core->metrics);
  ChronoNeuronWindow w;
  ChronoFinding *f;
  gint64 start, end, active;
  gdouble capacity, percent;

  chrono_neuron_metrics_get_window (core->metrics, &start, &end);
  chrono_neuron_metrics_window (core->metrics, start, end, &w);
  active = chrono_intervals_length_in (chrono_neuron_metrics_tensor_busy (core->metrics), start, end);
  /* The peak is of all the physical cores; the rows hold one. */
  capacity = peak->tflops * 1e3 / MAX (peak->physical_cores, 1) * active;
  if (!w.model_from_hlo || capacity <= 0)
    return;
  percent = 100 * w.model_flops / capacity;
  if (percent >= core->c->th->model_flops_percent)
    return;
  f = chrono_rule_add_finding (core->c, "neuron-low-model-flops", core->data, start, end, NULL, 0,
                               _("The Tensor engine is busy but little of its work is the model's matrix "
                                 "multiplications: use the full 128×128 array (tiles of 128 partitions, moving "
                                 "tensors of 512 columns), avoid padding and transposes, and pipeline the engines "
                                 "so each matmul follows the last."),
                               g_strdup_printf (_("%s: model FLOPs are %.0f%% of what the Tensor engine could do "
                                                  "in its %.3f ms of work"),
                                                core_name (core), percent, active / 1e6));
  chrono_finding_add_evidence (f, "model_flops", w.model_flops);
  chrono_finding_add_evidence (f, "active_flops", capacity);
  chrono_finding_add_evidence (f, "model_flops_percent_of_active", percent);
  chrono_finding_add_evidence (f, "tensor_active_ns", active);
  add_tensor_tracks (core, f);
}

/* The engines NKI kernels program, by the prefix of their rows' names
 * (the Tensor engine's Tensor and TensorMatrix rows are one). */
static const char * const nki_engines[] = { "Tensor", "Vector", "Scalar" };

typedef struct {
  guint64 nki;
  guint64 all;
  gint64  first;               /* of the instructions with no NKI source */
  gint64  last;
  GArray *tracks;
} NkiCount;

/* Each engine's instructions with an NKI source location against all,
 * as the metrics counted them. A profile with none is the compiler's
 * alone, which is no finding. */
static void
rule_nki_coverage (Core *core)
{
  const ChronoDeviceWork *d = &g_array_index (core->data->devices, ChronoDeviceWork, core->device);
  ChronoTrace *trace = core->data->trace;
  NkiCount counts[G_N_ELEMENTS (nki_engines)] = { { 0 } };
  guint64 nki = 0;

  if (core->metrics == NULL)
    return;
  for (guint k = 0; k < d->streams->len; k++)
    {
      const ChronoStreamWork *s = &g_array_index (d->streams, ChronoStreamWork, k);
      const ChronoTrack *t = chrono_trace_get_track (trace, s->track);
      const char *name = chrono_trace_get_string (trace, t->display_name);
      NkiCount *c = NULL;

      for (guint e = 0; e < G_N_ELEMENTS (nki_engines) && c == NULL; e++)
        if (g_str_has_prefix (name, nki_engines[e]))
          c = &counts[e];
      if (c == NULL)
        continue;
      if (c->tracks == NULL)
        *c = (NkiCount) { 0, 0, G_MAXINT64, G_MININT64, g_array_new (FALSE, FALSE, sizeof (guint32)) };
      g_array_append_val (c->tracks, s->track);
      {
        guint64 row_nki = 0, row_all = s->spans->len;
        gint64 first = G_MAXINT64, last = G_MININT64;

        /* A row of no instructions has no NKI source either. */
        if (!chrono_neuron_metrics_nki (core->metrics, s->track, &row_nki, &row_all, &first, &last))
          for (guint i = 0; i < s->positions->len; i++)
            {
              first = MIN (first, chrono_stream_item (d, s, i)->start);
              last = MAX (last, chrono_stream_item (d, s, i)->end);
            }
        c->all += row_all;
        c->nki += row_nki;
        c->first = MIN (c->first, first);
        c->last = MAX (c->last, last);
        nki += row_nki;
      }
    }
  for (guint e = 0; e < G_N_ELEMENTS (nki_engines); e++)
    {
      NkiCount *c = &counts[e];
      gdouble percent = 100.0 * c->nki / MAX (c->all, 1);
      ChronoFinding *f;

      if (nki > 0 && c->all > 0 && percent < core->c->th->nki_coverage_percent)
        {
          f = chrono_rule_add_finding (core->c, "neuron-nki-coverage", core->data, c->first, c->last, NULL, 0,
                                       _("Most of this engine's instructions are the compiler's, not the NKI "
                                         "kernels': write the hot operators around them as NKI kernels, which "
                                         "choose their tiling and the engines' overlap."),
                                       g_strdup_printf (_("%s: %.0f%% of the %s engine's instructions come from "
                                                          "NKI source (%" PRIu64 " of %" PRIu64 ")"),
                                                        core_name (core), percent, nki_engines[e], c->nki, c->all));
          chrono_finding_add_evidence (f, "nki_instructions", c->nki);
          chrono_finding_add_evidence (f, "instructions", c->all);
          chrono_finding_add_evidence (f, "nki_percent", percent);
          for (guint k = 0; k < c->tracks->len; k++)
            chrono_finding_add_track (f, core->data->trace_index, g_array_index (c->tracks, guint32, k));
        }
      g_clear_pointer (&c->tracks, g_array_unref);
    }
}

void
chrono_neuron_run_rules (ChronoRuleContext *c,
                         ChronoRankData    *data)
{
  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      g_autofree guint8 *spill_of = NULL;
      g_autoptr(GPtrArray) busy = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      GArray *by_kind[N_KINDS];
      Core core = { c, data, di, d->neuron, NULL, NULL, busy };

      if (d->neuron == NULL || data->device_incomplete)
        continue;
      core.metrics = chrono_neuron_metrics_of (data, di, c->th);
      chrono_neuron_record_init (&core.record, data->trace);
      core.spill_of = spill_of = g_new0 (guint8, chrono_trace_get_n_tracks (data->trace));
      for (Kind kind = 0; kind < N_KINDS; kind++)
        by_kind[kind] = g_array_new (FALSE, FALSE, sizeof (Stretch));
      for (guint g = 0; g < chrono_neuron_ledger_get_n_gaps (d->neuron); g++)
        {
          const ChronoNeuronGap *gap = chrono_neuron_ledger_get_gap (d->neuron, g);
          Kind kind = kind_of_gap (&core, gap);

          /* The wait before the Tensor engine's first instruction is the
           * execution's prologue, its first inputs loading: in the
           * ledger, but no stretch of a pace. */
          if (kind != KIND_NONE && (g > 0 || gap->start_ns > chrono_neuron_ledger_get_start (d->neuron)))
            g_array_append_val (by_kind[kind], ((Stretch) { gap->start_ns, gap->end_ns, g }));
        }
      for (guint k = 0; k < d->ledger->len; k++)
        {
          const ChronoLedgerSegment *seg = &g_array_index (d->ledger, ChronoLedgerSegment, k);
          if (seg->state == CHRONO_LEDGER_TRANSPOSE)
            g_array_append_val (by_kind[KIND_TRANSPOSE], ((Stretch) { seg->start, seg->end, G_MAXUINT }));
        }
      /* Slow collectives and transposes first, then spills and small
       * transfers before the rest of DMA: the more specific first. */
      rule_collective_outliers (&core);
      rule_throttling (&core);
      if (core.metrics != NULL)
        rule_low_model_flops (&core);
      rule_nki_coverage (&core);
      find_windows (&core, KIND_TRANSPOSE, (const Stretch *) by_kind[KIND_TRANSPOSE]->data,
                    by_kind[KIND_TRANSPOSE]->len);
      for (Kind kind = 0; kind < KIND_TRANSPOSE; kind++)
        find_windows (&core, kind, (const Stretch *) by_kind[kind]->data, by_kind[kind]->len);
      for (Kind kind = 0; kind < N_KINDS; kind++)
        g_array_unref (by_kind[kind]);
      chrono_neuron_record_clear (&core.record);
    }
}
