/* chrono-efficiency.c: how close each operator runs to the hardware's limit
 *
 * An operator's GPU time is the union of the device work launched from
 * inside it: kernels, copies and sets whose launching runtime call's
 * innermost enclosing operator is it or one of its descendants; or,
 * when their launch lies in no operator, that a flow joins to an
 * operator inside it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "chrono-efficiency-peaks.h"
#include "chrono-efficiency-private.h"
#include "chrono-flops-series.h"
#include "chrono-op-inputs.h"
#include "chrono-op-models.h"
#include "chrono-packed-devices.h"

#define NO_CALL G_MAXUINT32
/* How far ahead on a thread the args of calls are fetched. */
#define PREFETCH_SPANS 16

/* An operator with one set of input shapes, types and (when its model
 * reads them) concrete inputs: the raw text of the first call's args. */
typedef struct {
  guint32     name;
  gint        model;
  const char *dims;
  gsize       dims_len;
  const char *types;
  gsize       types_len;
  const char *concrete;
  gsize       concrete_len;
} Shape;

/* One call of a modelled operator recorded with shapes. */
typedef struct {
  ChronoSpanRef span;
  guint         shape;        /* index into the shapes */
} Call;

/* A piece of device work and the call it belongs to. */
typedef struct {
  guint  call;
  gint64 start;
  gint64 end;
} Piece;

/* For the per-step utilisation: one call's first device work. */
typedef struct {
  guint   rank;               /* index into the analysis's ranks */
  guint   device_position;
  gint64  start;
  gdouble flops;
  gdouble peak_ns;            /* its FLOPs' time at the device's peak, NAN when unknown */
} CallCost;

/* A row: a shape on a device. */
typedef struct {
  guint shape;
  guint device_position;
} RowKey;

/* What the worker is given: a trace whose calls to collect, or a rank
 * of the trace given last. */
typedef struct {
  ChronoTrace    *trace;
  ChronoRankData *data;
} Job;

struct _ChronoEfficiency
{
  GArray    *rows;            /* ChronoEfficiencyRow */
  GArray    *call_costs;      /* CallCost, by rank, device, start once sorted */
  gsize       costs_sorted;   /* sorted when first asked for: few ask */
  GPtrArray *notes;           /* char *, NULL-terminated */
  GHashTable *known;          /* rank << 16 | device position, of devices with peaks */
  GArray    *series;          /* ChronoFlopsSeries, by trace, rank, device */
  gboolean   with_series;

  /* While the ranks are read, by a thread of its own beside the rest of
   * the analysis: the queue holds each trace, then its ranks, then the
   * end mark. A trace's calls are collected once, while its ranks' work
   * is gathered, and serve each of its ranks. */
  ChronoAnalysisThresholds thresholds;
  GThread    *worker;
  GAsyncQueue *queue;
  GArray     *calls;          /* Call, of the trace read last */
  GArray     *shapes;         /* Shape */
  GHashTable *owners;         /* track -> guint32[n_spans] of call indices */
  GHashTable *handed;         /* device work a call's operator flows to, or NULL: see collect_handed() */
  guint       n_shaped;       /* calls read with shapes */
  guint       n_unshaped;     /* modelled operators' calls without shapes */
  GHashTable *unmodelled;     /* interned op name -> calls whose shapes do not fit */
};

static guint
shape_hash (gconstpointer p)
{
  const Shape *k = p;
  guint64 h = k->name;

  h = chrono_hash_bytes (h, k->dims, k->dims_len);
  h = chrono_hash_bytes (h, k->types, k->types_len);
  h = chrono_hash_bytes (h, k->concrete, k->concrete_len);
  return (guint) (h ^ (h >> 32));
}

static gboolean
shape_equal (gconstpointer a,
             gconstpointer b)
{
  const Shape *x = a, *y = b;

  return x->name == y->name && x->dims_len == y->dims_len && memcmp (x->dims, y->dims, x->dims_len) == 0 &&
         x->types_len == y->types_len && memcmp (x->types, y->types, x->types_len) == 0 &&
         x->concrete_len == y->concrete_len &&
         (x->concrete_len == 0 || memcmp (x->concrete, y->concrete, x->concrete_len) == 0);
}

const char *
chrono_bound_to_string (ChronoBound bound)
{
  static const char * const names[] = { "unknown", "compute", "memory" };

  g_return_val_if_fail (bound <= CHRONO_BOUND_MEMORY, NULL);
  return names[bound];
}

/* Whether NAME (a string id) is an operator with a model: cached per id,
 * 0 unknown, 1 none, 2 + model. */
static gint
model_of (ChronoTrace *trace,
          guint32     *cache,
          guint32      name)
{
  if (cache[name] == 0)
    {
      gint model = chrono_op_model_find (chrono_trace_get_string (trace, name));
      cache[name] = model < 0 ? 1 : (guint32) model + 2;
    }
  return cache[name] == 1 ? -1 : (gint) cache[name] - 2;
}

/* A call's shapes, when its args record them; LIKE, or NULL, those it
 * likely repeats. */
static gboolean
read_shape (const ChronoArgsText *text_of,
            guint64               args,
            gint                  model,
            const Shape          *like,
            Shape                *call)
{
  ChronoOpModelInputs in, was;
  const char *text;
  gsize available;

  if (like)
    was = (ChronoOpModelInputs) { like->dims, like->dims_len, like->types, like->types_len, like->concrete,
                                  like->concrete_len };
  if ((text = chrono_args_text_get (text_of, args, &available)) == NULL ||
      !chrono_op_model_read_args (text, available, &in, chrono_op_model_reads_concrete (model), like ? &was : NULL))
    return FALSE;
  call->dims = in.dims;
  call->dims_len = in.dims_len;
  call->types = in.types;
  call->types_len = in.types_len;
  call->concrete = in.concrete;
  call->concrete_len = in.concrete_len;
  call->model = model;
  return TRUE;
}

/* The calls on host threads, and for every span inside one the call
 * that owns it: the outermost modelled operator around it. A span's
 * parent is the last span one level up in its lane. Returns track ->
 * guint32[n_spans] of call indices (NO_CALL outside any). */
static GHashTable *
collect_calls (ChronoTrace *trace,
               GArray      *calls,
               GArray      *shapes,
               guint       *n_unshaped)
{
  /* The text of a call's args is read once, while it is in the cache:
   * the calls are grouped by their shapes as they are found. */
  g_autoptr(GHashTable) shape_of = g_hash_table_new_full (shape_hash, shape_equal, g_free, NULL);
  GHashTable *owners = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autofree guint32 *cache = g_new0 (guint32, chrono_trace_get_n_strings (trace));
  /* By name: the shape of its last call read, or NO_CALL. */
  g_autofree guint32 *last = g_new (guint32, chrono_trace_get_n_strings (trace));
  ChronoArgsText args;

  memset (last, 0xff, sizeof (guint32) * chrono_trace_get_n_strings (trace));
  chrono_args_text_init (&args, trace);

  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);
      g_autofree guint32 *owner_at = NULL;   /* lane × depth: the owner of the last span there */
      guint levels = t->max_depth + 1u;
      guint32 *owner = NULL;

      if (t->type != CHRONO_TRACK_THREAD || t->n_spans == 0)
        continue;
      owner_at = g_new (guint32, (gsize) MAX (t->n_lanes, 1) * levels);
      for (guint32 i = 0; i < t->n_spans; i++)
        {
          guint depth = t->depth[i];
          guint32 ahead = i + PREFETCH_SPANS;
          guint32 *row = owner_at + (gsize) t->lane[i] * levels;
          guint32 current = depth > 0 ? row[depth - 1] : NO_CALL;
          gint model;

          /* The args of a later call, scattered over the file, come while this one is read. */
          if (ahead < t->n_spans && t->kind[ahead] == CHRONO_KIND_HOST_OP &&
              model_of (trace, cache, chrono_track_get_name (t, ahead)) >= 0)
            chrono_args_text_prefetch (&args, chrono_track_get_args (t, ahead));
          if (current == NO_CALL && t->kind[i] == CHRONO_KIND_HOST_OP &&
              (model = model_of (trace, cache, chrono_track_get_name (t, i))) >= 0)
            {
              Shape shape = { .name = chrono_track_get_name (t, i) };
              guint32 *seen = &last[shape.name];
              const Shape *like = *seen != NO_CALL ? &g_array_index (shapes, Shape, *seen) : NULL;

              if (read_shape (&args, chrono_track_get_args (t, i), model, like, &shape))
                {
                  Call call = { { ti, i }, shapes->len };
                  gpointer found;

                  /* Calls of an operator mostly repeat the shapes of its last call. */
                  if (like && shape_equal (like, &shape))
                    call.shape = *seen;
                  else if (g_hash_table_lookup_extended (shape_of, &shape, NULL, &found))
                    call.shape = *seen = GPOINTER_TO_UINT (found);
                  else
                    {
                      g_array_append_val (shapes, shape);
                      g_hash_table_insert (shape_of, g_memdup2 (&shape, sizeof shape), GUINT_TO_POINTER (call.shape));
                      *seen = call.shape;
                    }
                  current = calls->len;
                  g_array_append_val (calls, call);
                }
              else
                (*n_unshaped)++;
            }
          row[depth] = current;
          if (current != NO_CALL)
            {
              if (owner == NULL)
                {
                  owner = g_new (guint32, t->n_spans);
                  memset (owner, 0xff, sizeof (guint32) * t->n_spans);
                  g_hash_table_insert (owners, GUINT_TO_POINTER (ti), owner);
                }
              owner[i] = current;
            }
        }
    }
  return owners;
}

/* torch_npu's operators hand their work to a thread that launches it:
 * no operator encloses the launch, but a flow goes from the operator to
 * each of its device tasks. The device spans reached by a flow from an
 * operator inside a call: (track << 32 | span) -> the call; NULL when
 * there are none. Kineto's flows to kernels come from the runtime call
 * that launched them, which the launch links already give. */
static GHashTable *
collect_handed (ChronoTrace *trace,
                GHashTable  *owners)
{
  GHashTable *handed = NULL;
  guint32 last_track = G_MAXUINT32;
  const ChronoTrack *from = NULL;
  const guint32 *owner = NULL;

  for (guint f = 0; f < chrono_trace_get_n_flows (trace); f++)
    {
      const ChronoFlow *flow = chrono_trace_get_flow (trace, f);
      gint64 key;

      if (flow->type != CHRONO_FLOW_V1 && flow->type != CHRONO_FLOW_V2)
        continue;
      if (flow->from.track != last_track)
        {
          last_track = flow->from.track;
          from = chrono_trace_get_track (trace, last_track);
          owner = g_hash_table_lookup (owners, GUINT_TO_POINTER (last_track));
        }
      if (owner == NULL || owner[flow->from.index] == NO_CALL || from->kind[flow->from.index] != CHRONO_KIND_HOST_OP ||
          chrono_trace_get_track (trace, flow->to.track)->type != CHRONO_TRACK_STREAM)
        continue;
      if (handed == NULL)
        handed = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      key = (gint64) flow->to.track << 32 | flow->to.index;
      /* The first flow to a task wins. */
      if (!g_hash_table_contains (handed, &key))
        g_hash_table_insert (handed, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (owner[flow->from.index]));
    }
  return handed;
}

static gint
compare_rows (gconstpointer a,
              gconstpointer b)
{
  const ChronoEfficiencyRow *x = a, *y = b;

  gint c;

  if (x->gpu_time_ns != y->gpu_time_ns)
    return x->gpu_time_ns > y->gpu_time_ns ? -1 : 1;
  /* Ties broken to the end: the same traces always give the same order. */
  if ((c = g_strcmp0 (x->op, y->op)) != 0 || (c = g_strcmp0 (x->input_dims, y->input_dims)) != 0 ||
      (c = g_strcmp0 (x->input_types, y->input_types)) != 0)
    return c;
  /* By what the trace says first, not by the order the files came in. */
  if (x->device != y->device)
    return x->device < y->device ? -1 : 1;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return (x->device_position > y->device_position) - (x->device_position < y->device_position);
}

static inline gint
compare_call_costs (gconstpointer a,
                    gconstpointer b)
{
  const CallCost *x = a, *y = b;

  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  if (x->device_position != y->device_position)
    return x->device_position < y->device_position ? -1 : 1;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* The calls come as one run in order per row (a row's calls by their
 * first work): runs next to each other are merged until one is left,
 * the earlier first on ties, which is the order a stable sort gives. */
static void
sort_call_costs (GArray *costs)
{
  guint n = costs->len;
  g_autofree CallCost *tmp = g_new (CallCost, MAX (n, 1));
  g_autoptr(GArray) bounds = g_array_new (FALSE, FALSE, sizeof (guint));
  CallCost *v = (CallCost *) costs->data;

  for (guint i = 0; i < n; i++)
    if (i == 0 || compare_call_costs (&v[i - 1], &v[i]) > 0)
      g_array_append_val (bounds, i);
  g_array_append_val (bounds, n);
  while (bounds->len > 2)
    {
      guint *b = (guint *) bounds->data;
      guint kept = 0;

      for (guint r = 0; r + 1 < bounds->len; r += 2)
        {
          guint lo = b[r], mid = b[r + 1], hi = r + 2 < bounds->len ? b[r + 2] : mid;
          guint i = lo, j = mid, k = lo;

          while (i < mid && j < hi)
            tmp[k++] = compare_call_costs (&v[j], &v[i]) < 0 ? v[j++] : v[i++];
          while (i < mid)
            tmp[k++] = v[i++];
          while (j < hi)
            tmp[k++] = v[j++];
          memcpy (&v[lo], &tmp[lo], (hi - lo) * sizeof *v);
          b[kept++] = lo;
        }
      b[kept++] = n;
      g_array_set_size (bounds, kept);
    }
}

static void
add_note (ChronoEfficiency *self,
          char             *note)
{
  for (guint i = 0; i < self->notes->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->notes, i), note) == 0)
      {
        g_free (note);
        return;
      }
  g_ptr_array_add (self->notes, note);
}

/* torch_npu's devices carry no name the peak table could match, and no
 * public peak of an Ascend NPU could be cited for the table: the peaks
 * must be given. Whether device DI is one. */
static gboolean
note_packed_device (ChronoEfficiency *self,
                    ChronoRankData   *data,
                    guint             di)
{
  const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
  guint32 track;
  const ChronoTrack *t;

  if (d->streams->len == 0)
    return FALSE;
  track = g_array_index (d->streams, ChronoStreamWork, 0).track;
  if (!chrono_packed_devices_holds_track (data->trace, track))
    return FALSE;
  t = chrono_trace_get_track (data->trace, track);
  add_note (self, g_strdup_printf (_("Trace %u: the peak table has no figures for %s (none published that "
                                     "could be cited): give its peaks with --peak-tflops and --peak-tbps, or "
                                     "the peak-gflops and peak-memory-gbps settings, for a roofline."),
                                   data->trace_index,
                                   chrono_trace_get_string (data->trace,
                                                            chrono_trace_get_process (data->trace, t->process)->display_name)));
  return TRUE;
}

/* Each piece of device work launched inside a call, or HANDED to one
 * (see collect_handed()), by row: a row is a shape on a device (KEYS),
 * its pieces in ROW_PIECES. */
static void
collect_pieces (ChronoRankData *data,
                GArray         *calls,
                guint           n_shapes,
                GHashTable     *owners,
                GHashTable     *handed,
                GArray         *keys,
                GPtrArray      *row_pieces)
{
  /* Shape × device -> row, G_MAXUINT until seen. */
  gsize n_slots = (gsize) n_shapes * MAX (data->devices->len, 1);
  g_autofree guint *row_of = g_new (guint, MAX (n_slots, 1));

  memset (row_of, 0xff, sizeof (guint) * n_slots);

  for (guint di = 0; di < data->devices->len; di++)
    {
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, di);
      guint32 owner_track = G_MAXUINT32;
      const guint32 *owner = NULL;

      for (guint k = 0; k < d->items->len; k++)
        {
          const ChronoWorkItem *it = &g_array_index (d->items, ChronoWorkItem, k);
          guint32 c = NO_CALL;
          const Call *call;
          guint *row;

          if (it->launch_start != G_MININT64)
            {
              /* Most work is launched from one thread. */
              if (it->launch_track != owner_track)
                {
                  owner_track = it->launch_track;
                  owner = g_hash_table_lookup (owners, GUINT_TO_POINTER (owner_track));
                }
              if (owner != NULL)
                c = owner[it->launch_index];
            }
          if (c == NO_CALL && handed != NULL)
            {
              gint64 key = (gint64) it->track << 32 | it->index;
              gpointer found;

              if (g_hash_table_lookup_extended (handed, &key, NULL, &found))
                c = GPOINTER_TO_UINT (found);
            }
          if (c == NO_CALL)
            continue;
          call = &g_array_index (calls, Call, c);
          row = &row_of[(gsize) call->shape * data->devices->len + di];
          if (*row == G_MAXUINT)
            {
              RowKey key = { call->shape, di };

              *row = keys->len;
              g_array_append_val (keys, key);
              g_ptr_array_add (row_pieces, g_array_new (FALSE, FALSE, sizeof (Piece)));
            }
          /* A row is of one device, whose work comes by start. */
          g_array_append_val (g_ptr_array_index (row_pieces, *row), ((Piece) { c, it->start, it->end }));
        }
    }
}

/* Each call's FLOPs over its pieces of device work in PIECES, by their
 * durations (a piece of none counts 1 ns); CALL_NS is zero for every
 * call before and after. */
static void
add_pieces (GArray       *out,
            GArray       *pieces,
            gint64       *call_ns,
            gdouble       flops)
{
  for (guint p = 0; p < pieces->len; p++)
    {
      const Piece *pc = &g_array_index (pieces, Piece, p);
      call_ns[pc->call] += MAX (pc->end - pc->start, 1);
    }
  for (guint p = 0; p < pieces->len; p++)
    {
      const Piece *pc = &g_array_index (pieces, Piece, p);
      ChronoFlopsPiece piece = { pc->start, pc->end, flops * MAX (pc->end - pc->start, 1) / call_ns[pc->call] };

      g_array_append_val (out, piece);
    }
  for (guint p = 0; p < pieces->len; p++)
    call_ns[g_array_index (pieces, Piece, p).call] = 0;
}

static void
compute_rank (ChronoEfficiency               *self,
              ChronoRankData                 *data,
              const ChronoAnalysisThresholds *th,
              GHashTable                     *unmodelled)
{
  ChronoTrace *trace = data->trace;
  GArray *calls = self->calls;
  GArray *shapes = self->shapes;
  GHashTable *owners = self->owners;
  g_autoptr(GHashTable) names = chrono_efficiency_device_names (trace);
  g_autoptr(GPtrArray) row_pieces = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (RowKey));
  g_autofree guint *seen_in = NULL;
  g_autofree ChronoEfficiencyPeaks *peaks = g_new0 (ChronoEfficiencyPeaks, MAX (data->devices->len, 1));
  g_autofree gint64 *piece_ns = NULL;     /* call -> its device time, while a row is read */
  g_autoptr(GPtrArray) device_pieces = NULL;  /* device -> GArray of ChronoFlopsPiece */
  g_autofree gdouble *device_flops = NULL;    /* device × dtype × matrix */

  if (calls->len == 0)
    return;

  for (guint di = 0; di < data->devices->len; di++)
    {
      chrono_efficiency_resolve_peaks (g_hash_table_lookup (names, GINT_TO_POINTER (g_array_index (data->devices, ChronoDeviceWork, di).device)),
                     th, &peaks[di]);
      if (peaks[di].known)
        g_hash_table_add (self->known, GUINT_TO_POINTER (data->rank_index << 16 | di));
      else
        peaks[di].packed = note_packed_device (self, data, di);
    }
  collect_pieces (data, calls, shapes->len, owners, self->handed, keys, row_pieces);
  /* A cost per call at most: reserved, so that the costs never grow by
   * copying (a smaller size keeps the room). */
  g_array_set_size (self->call_costs, self->call_costs->len + calls->len);
  g_array_set_size (self->call_costs, self->call_costs->len - calls->len);

  seen_in = g_new (guint, calls->len);
  memset (seen_in, 0xff, sizeof (guint) * calls->len);
  piece_ns = g_new0 (gint64, calls->len);
  device_pieces = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint di = 0; di < data->devices->len; di++)
    g_ptr_array_add (device_pieces, g_array_new (FALSE, FALSE, sizeof (ChronoFlopsPiece)));
  device_flops = g_new0 (gdouble, (gsize) MAX (data->devices->len, 1) * CHRONO_N_DTYPES * 2);
  for (guint row = 0; row < keys->len; row++)
    {
      const RowKey *where = &g_array_index (keys, RowKey, row);
      const Shape *key = &g_array_index (shapes, Shape, where->shape);
      GArray *pieces = g_ptr_array_index (row_pieces, row);
      const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, where->device_position);
      const ChronoEfficiencyPeaks *pk = &peaks[where->device_position];
      /* At most one of each per piece: reserved, so that none grows by copying. */
      g_autoptr(GArray) intervals = g_array_sized_new (FALSE, FALSE, sizeof (ChronoTimeInterval), pieces->len);
      g_autoptr(GArray) spans = g_array_sized_new (FALSE, FALSE, sizeof (ChronoSpanRef), pieces->len);
      g_autoptr(GArray) firsts = g_array_sized_new (FALSE, FALSE, sizeof (gint64), pieces->len);
      ChronoEfficiencyRow r = { 0 };
      ChronoOpCost cost;
      gdouble call_ns = 0;
      ChronoBound bound = CHRONO_BOUND_UNKNOWN;
      gdouble tflops;
      guint first_cost;

      for (guint p = 0; p < pieces->len; p++)
        {
          const Piece *pc = &g_array_index (pieces, Piece, p);
          ChronoTimeInterval *last = intervals->len ? &g_array_index (intervals, ChronoTimeInterval, intervals->len - 1) : NULL;

          if (pc->end > pc->start)
            {
              if (last && pc->start <= last->end_ns)
                last->end_ns = MAX (last->end_ns, pc->end);
              else
                g_array_append_val (intervals, ((ChronoTimeInterval) { pc->start, pc->end }));
            }
          if (seen_in[pc->call] != row)
            {
              seen_in[pc->call] = row;
              g_array_append_val (spans, g_array_index (calls, Call, pc->call).span);
              g_array_append_val (firsts, pc->start);
            }
        }

      if (!chrono_op_model_cost (key->model, key->dims, key->dims_len, key->types, key->types_len,
                                 key->concrete, key->concrete_len, &cost))
        {
          const char *op = g_intern_string (chrono_trace_get_string (trace, key->name));
          gpointer count = g_hash_table_lookup (unmodelled, op);

          g_hash_table_insert (unmodelled, (gpointer) op,
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (count) + spans->len));
          continue;
        }
      r.op = chrono_trace_get_string (trace, key->name);
      r.input_dims = chrono_op_inputs_dup (key->dims, key->dims_len, TRUE);
      r.input_types = chrono_op_inputs_dup (key->types, key->types_len, FALSE);
      r.concrete_inputs = key->concrete ? g_strndup (key->concrete, key->concrete_len) : NULL;
      r.family = cost.family;
      r.dtype = cost.dtype;
      r.matrix = cost.matrix;
      r.trace = data->trace_index;
      r.rank = data->rank_index;
      r.device = d->device;
      r.device_position = where->device_position;
      r.device_name = g_hash_table_lookup (names, GINT_TO_POINTER (d->device));
      r.device_name = r.device_name ? g_intern_string (r.device_name) : NULL;
      r.count = spans->len;
      r.flops = cost.flops;
      r.bytes = cost.bytes;
      r.n_intervals = intervals->len;
      r.intervals = (ChronoTimeInterval *) g_array_free (g_steal_pointer (&intervals), FALSE);
      for (guint i = 0; i < r.n_intervals; i++)
        r.gpu_time_ns += r.intervals[i].end_ns - r.intervals[i].start_ns;
      r.n_calls = spans->len;
      r.calls = (ChronoSpanRef *) g_array_free (g_steal_pointer (&spans), FALSE);
      if (r.gpu_time_ns > 0)
        {
          r.achieved_tflops = r.flops * r.count / (r.gpu_time_ns * 1e3);
          r.achieved_tbps = r.bytes * r.count / (r.gpu_time_ns * 1e3);
        }
      /* An FP32 product faster than the FP32 peak ran on TF32 units
       * (allow_tf32, or float32 matmul precision "high"). */
      if (cost.dtype == CHRONO_DTYPE_FP32 && cost.matrix && pk->known &&
          r.achieved_tflops > chrono_device_peaks_tflops (&pk->custom, CHRONO_DTYPE_FP32, TRUE) &&
          chrono_device_peaks_tflops (&pk->custom, CHRONO_DTYPE_TF32, TRUE) > 0)
        cost.dtype = r.dtype = CHRONO_DTYPE_TF32;
      if (pk->known && chrono_efficiency_call_roofline (&pk->custom, &cost, &call_ns, &bound))
        {
          r.peaks = pk->table;
          r.has_roofline = TRUE;
          r.roofline_ns = (gint64) llround (call_ns * r.count);
          r.bound = bound;
          r.roofline_share = r.gpu_time_ns > 0 ? (gdouble) r.roofline_ns / r.gpu_time_ns : 0;
          r.excess_ns = MAX (0, r.gpu_time_ns - r.roofline_ns);
        }
      else if (!pk->known)
        {
          /* A torch_npu device's own note says so already. */
          if (!pk->packed)
            add_note (self, g_strdup_printf (_("Trace %u: device %d (“%s”) is not in the peak table: "
                                               "achieved figures without a roofline; set its peaks to get one."),
                                             data->trace_index, d->device,
                                             r.device_name ? r.device_name : _("no name in deviceProperties")));
        }
      else
        add_note (self, g_strdup_printf (_("Trace %u: %s has no %s %s peak: %s without a roofline."),
                                         data->trace_index, pk->table ? pk->table->name : r.device_name,
                                         chrono_dtype_to_string (cost.dtype), cost.matrix ? _("matrix") : _("vector"),
                                         r.op));
      /* Utilisation counts compute alone: FLOPs at the peak of their type. */
      tflops = pk->known ? chrono_device_peaks_tflops (&pk->custom, cost.dtype, cost.matrix) : 0;
      first_cost = self->call_costs->len;
      g_array_set_size (self->call_costs, first_cost + r.n_calls);
      for (guint i = 0; i < r.n_calls; i++)
        g_array_index (self->call_costs, CallCost, first_cost + i) = (CallCost) {
          r.rank, r.device_position, g_array_index (firsts, gint64, i), r.flops,
          tflops > 0 ? r.flops / (tflops * 1e3) : cost.matrix ? NAN : 0
        };
      if (self->with_series)
        add_pieces (g_ptr_array_index (device_pieces, where->device_position), pieces, piece_ns, r.flops);
      device_flops[(where->device_position * CHRONO_N_DTYPES + cost.dtype) * 2 + !!cost.matrix] += r.flops * r.count;
      g_array_append_val (self->rows, r);
    }

  for (guint di = 0; di < data->devices->len; di++)
    {
      GArray *dp = g_ptr_array_index (device_pieces, di);
      ChronoFlopsSeries series = { 0 };
      gdouble most = -1;

      if (dp->len == 0)
        continue;
      chrono_flops_series_init (&series, (const ChronoFlopsPiece *) dp->data, dp->len);
      series.trace = data->trace_index;
      series.rank = data->rank_index;
      series.device_position = di;
      series.device = g_array_index (data->devices, ChronoDeviceWork, di).device;
      series.process = g_array_index (data->devices, ChronoDeviceWork, di).process;
      series.device_name = g_hash_table_lookup (names, GINT_TO_POINTER (series.device));
      series.device_name = series.device_name ? g_intern_string (series.device_name) : NULL;
      /* The reference is the peak of the work that did most of the FLOPs. */
      for (guint k = 0; k < CHRONO_N_DTYPES * 2; k++)
        if (device_flops[di * CHRONO_N_DTYPES * 2 + k] > most)
          {
            most = device_flops[di * CHRONO_N_DTYPES * 2 + k];
            series.peak_dtype = k / 2;
            series.peak_matrix = k % 2;
          }
      series.peak_tflops = peaks[di].known ? chrono_device_peaks_tflops (&peaks[di].custom, series.peak_dtype,
                                                                         series.peak_matrix) : 0;
      g_array_append_val (self->series, series);
    }
}

static int
compare_strings (const void *a,
                 const void *b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static const char *
why_unmodelled (const char *op)
{
  if (strstr (op, "conv") != NULL)
    return _(" (an output size needs the stride and padding, which only Concrete Inputs record)");
  if (strstr (op, "attention") != NULL || strstr (op, "attn") != NULL)
    return _(" (packed sequences of unrecorded lengths, or another layout)");
  return "";
}

static void
clear_calls (ChronoEfficiency *self)
{
  g_clear_pointer (&self->calls, g_array_unref);
  g_clear_pointer (&self->shapes, g_array_unref);
  g_clear_pointer (&self->owners, g_hash_table_unref);
  g_clear_pointer (&self->handed, g_hash_table_unref);
}

/* The worker: the traces and ranks as the analysis reads them, until the
 * end mark; then the rows and calls in their order. */
static gint
compare_series (gconstpointer a,
                gconstpointer b)
{
  const ChronoFlopsSeries *x = a, *y = b;

  if (x->trace != y->trace)
    return x->trace < y->trace ? -1 : 1;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return (x->device_position > y->device_position) - (x->device_position < y->device_position);
}

static gpointer
run_worker (gpointer user_data)
{
  ChronoEfficiency *self = user_data;
  Job *job;

  while ((job = g_async_queue_pop (self->queue)) != (gpointer) self)
    {
      if (job->data == NULL)
        {
          clear_calls (self);
          self->calls = g_array_new (FALSE, FALSE, sizeof (Call));
          self->shapes = g_array_new (FALSE, FALSE, sizeof (Shape));
          self->owners = collect_calls (job->trace, self->calls, self->shapes, &self->n_unshaped);
          self->handed = collect_handed (job->trace, self->owners);
          self->n_shaped += self->calls->len;
        }
      else
        compute_rank (self, job->data, &self->thresholds, self->unmodelled);
      g_free (job);
    }
  clear_calls (self);
  g_array_sort (self->rows, compare_rows);
  g_array_sort (self->series, compare_series);
  return NULL;
}

ChronoEfficiency *
chrono_efficiency_new (const ChronoAnalysisThresholds *thresholds,
                       gboolean                        with_series)
{
  ChronoEfficiency *self = g_new0 (ChronoEfficiency, 1);

  self->thresholds = *thresholds;
  self->with_series = with_series;
  self->rows = g_array_new (FALSE, FALSE, sizeof (ChronoEfficiencyRow));
  self->call_costs = g_array_new (FALSE, FALSE, sizeof (CallCost));
  self->notes = g_ptr_array_new_with_free_func (g_free);
  self->known = g_hash_table_new (NULL, NULL);
  self->series = g_array_new (FALSE, FALSE, sizeof (ChronoFlopsSeries));
  g_array_set_clear_func (self->series, (GDestroyNotify) chrono_flops_series_clear);
  self->unmodelled = g_hash_table_new (NULL, NULL);
  self->queue = g_async_queue_new ();
  self->worker = g_thread_new ("chrono-efficiency", run_worker, self);
  return self;
}

void
chrono_efficiency_add_trace (ChronoEfficiency *self,
                             ChronoTrace      *trace)
{
  Job *job = g_new0 (Job, 1);

  job->trace = trace;
  g_async_queue_push (self->queue, job);
}

void
chrono_efficiency_add_rank (ChronoEfficiency *self,
                            ChronoRankData   *data)
{
  Job *job = g_new0 (Job, 1);

  job->trace = data->trace;
  job->data = data;
  g_async_queue_push (self->queue, job);
}

static void
join_worker (ChronoEfficiency *self)
{
  if (self->worker == NULL)
    return;
  g_async_queue_push (self->queue, self);
  g_thread_join (g_steal_pointer (&self->worker));
}

void
chrono_efficiency_finish (ChronoEfficiency *self)
{
  g_autofree const char **ops = NULL;
  guint n_ops;

  join_worker (self);

  if (self->n_shaped == 0 && self->n_unshaped > 0)
    add_note (self, g_strdup_printf (ngettext ("%u operator call has no recorded shapes: profile with "
                                               "record_shapes=True to measure efficiency.",
                                               "%u operator calls have no recorded shapes: profile with "
                                               "record_shapes=True to measure efficiency.", self->n_unshaped),
                                     self->n_unshaped));
  else if (self->n_shaped == 0)
    add_note (self, g_strdup (_("No operator with a FLOPs model was recorded with shapes: no efficiency.")));
  else if (self->rows->len == 0)
    add_note (self, g_strdup (_("Operators were recorded with shapes, but none launched device work the trace shows.")));
  ops = (const char **) g_hash_table_get_keys_as_array (self->unmodelled, &n_ops);
  qsort (ops, n_ops, sizeof *ops, compare_strings);
  for (guint i = 0; i < n_ops; i++)
    {
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (self->unmodelled, ops[i]));

      add_note (self, g_strdup_printf (ngettext ("%s: %u call left out, its shapes do not fit the model%s.",
                                                 "%s: %u calls left out, their shapes do not fit the model%s.",
                                                 count),
                                       ops[i], count, why_unmodelled (ops[i])));
    }
  g_ptr_array_add (self->notes, NULL);
}

void
chrono_efficiency_free (ChronoEfficiency *self)
{
  if (self == NULL)
    return;
  join_worker (self);
  for (guint i = 0; i < self->rows->len; i++)
    {
      ChronoEfficiencyRow *r = &g_array_index (self->rows, ChronoEfficiencyRow, i);
      g_free (r->input_dims);
      g_free (r->input_types);
      g_free (r->concrete_inputs);
      g_free (r->intervals);
      g_free (r->calls);
    }
  g_array_unref (self->rows);
  g_array_unref (self->call_costs);
  g_ptr_array_unref (self->notes);
  g_hash_table_unref (self->known);
  g_array_unref (self->series);
  g_hash_table_unref (self->unmodelled);
  g_async_queue_unref (self->queue);
  g_free (self);
}

const ChronoAnalysisThresholds *
chrono_efficiency_get_thresholds (ChronoEfficiency *self)
{
  return &self->thresholds;
}

guint
chrono_efficiency_get_n_rows (ChronoEfficiency *self)
{
  g_return_val_if_fail (self->worker == NULL, 0);
  return self->rows->len;
}

const ChronoEfficiencyRow *
chrono_efficiency_get_row (ChronoEfficiency *self,
                           guint             index)
{
  g_return_val_if_fail (self->worker == NULL, NULL);
  g_return_val_if_fail (index < self->rows->len, NULL);
  return &g_array_index (self->rows, ChronoEfficiencyRow, index);
}

guint
chrono_analysis_get_n_efficiency (ChronoAnalysis *self)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), 0);
  return chrono_efficiency_get_n_rows (chrono_analysis_get_efficiency_data (self));
}

const ChronoEfficiencyRow *
chrono_analysis_get_efficiency (ChronoAnalysis *self,
                                guint           index)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);
  return chrono_efficiency_get_row (chrono_analysis_get_efficiency_data (self), index);
}

const char * const *
chrono_analysis_get_efficiency_notes (ChronoAnalysis *self)
{
  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);
  return (const char * const *) chrono_analysis_get_efficiency_data (self)->notes->pdata;
}

gdouble
chrono_analysis_get_mfu (ChronoAnalysis *self,
                         guint           rank,
                         guint           device_position,
                         gint64          start_ns,
                         gint64          end_ns,
                         gdouble        *flops)
{
  ChronoEfficiency *e;
  GArray *costs;
  const CallCost *c;
  CallCost probe = { rank, device_position, start_ns };
  guint lo, hi;
  gdouble sum_flops = 0, sum_ns = 0;
  gboolean known = TRUE;

  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NAN);

  if (flops)
    *flops = 0;
  e = chrono_analysis_get_efficiency_data (self);
  if (end_ns <= start_ns || !g_hash_table_contains (e->known, GUINT_TO_POINTER (rank << 16 | device_position)))
    return NAN;
  costs = e->call_costs;
  if (g_once_init_enter (&e->costs_sorted))
    {
      sort_call_costs (costs);
      g_once_init_leave (&e->costs_sorted, 1);
    }
  c = (const CallCost *) costs->data;
  for (lo = 0, hi = costs->len; lo < hi;)
    {
      guint mid = lo + (hi - lo) / 2;
      if (compare_call_costs (&c[mid], &probe) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i < costs->len && c[i].rank == rank && c[i].device_position == device_position &&
       c[i].start < end_ns; i++)
    {
      sum_flops += c[i].flops;
      if (isnan (c[i].peak_ns))
        known = FALSE;
      else
        sum_ns += c[i].peak_ns;
    }
  if (flops)
    *flops = sum_flops;
  return !known ? NAN : sum_ns / (gdouble) (end_ns - start_ns);
}

guint
chrono_analysis_get_n_flops_series (ChronoAnalysis *self)
{
  ChronoEfficiency *e;

  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), 0);
  e = chrono_analysis_get_efficiency_data (self);
  g_return_val_if_fail (e->worker == NULL, 0);
  return e->series->len;
}

const ChronoFlopsSeries *
chrono_analysis_get_flops_series (ChronoAnalysis *self,
                                  guint           index)
{
  ChronoEfficiency *e;

  g_return_val_if_fail (CHRONO_IS_ANALYSIS (self), NULL);
  e = chrono_analysis_get_efficiency_data (self);
  g_return_val_if_fail (e->worker == NULL && index < e->series->len, NULL);
  return &g_array_index (e->series, ChronoFlopsSeries, index);
}
