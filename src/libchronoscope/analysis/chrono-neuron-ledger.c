/* chrono-neuron-ledger.c: a NeuronCore's ledger, following its Tensor
 * engine
 *
 * The Tensor engine does the FLOPs, so its time is what the core's time
 * is: compute while a matrix instruction runs on it, transpose while only
 * transposes do, and each gap between its instructions idle, for one
 * cause. The cause is found by walking back from the Tensor instruction
 * that ended the gap along its dependencies (inst_dep_ids, Flow rows,
 * semaphore waits matched to their update): of its predecessors, the one
 * that ended last held it up, if it ended inside the gap. Sync-engine
 * instructions only pass semaphores and DMA triggers on, so the walk goes
 * through them. Each gap costs a hash lookup per instruction walked: the
 * whole ledger is linear in the core's work.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-analysis-private.h"
#include "chrono-neuron-metrics.h"
#include "chrono-neuron-record.h"

/* Sync chains are short; a cycle in a damaged profile must still end. */
#define MAX_HOPS 64

struct _ChronoNeuronLedger {
  gint64  start;
  gint64  end;
  GArray *segments;      /* the device's ChronoLedgerSegment, shared */
  GArray *gaps;          /* ChronoNeuronGap */
  GArray *links;         /* ChronoNeuronLink */
};

const ChronoLedgerState chrono_neuron_ledger_states[9] = {
  CHRONO_LEDGER_COMPUTE, CHRONO_LEDGER_TRANSPOSE, CHRONO_LEDGER_IDLE_DMA, CHRONO_LEDGER_IDLE_VECTOR,
  CHRONO_LEDGER_IDLE_SCALAR, CHRONO_LEDGER_IDLE_GPSIMD, CHRONO_LEDGER_IDLE_COLLECTIVE,
  CHRONO_LEDGER_IDLE_SEMAPHORE, CHRONO_LEDGER_IDLE_NOT_QUEUED,
};

gboolean
chrono_ledger_state_is_neuron (ChronoLedgerState state)
{
  for (guint k = 0; k < G_N_ELEMENTS (chrono_neuron_ledger_states); k++)
    if (chrono_neuron_ledger_states[k] == state)
      return TRUE;
  return FALSE;
}

const char *
chrono_neuron_unit_to_string (ChronoNeuronUnit unit)
{
  static const char * const names[] = {
    "tensor", "vector", "scalar", "gpsimd", "sync", "dma", "collective", "other",
  };

  g_return_val_if_fail (unit < CHRONO_NEURON_N_UNITS, NULL);
  return names[unit];
}

/* What walking into a span of UNIT says: the idle state it explains, or
 * CHRONO_N_LEDGER_STATES to walk on through it. */
static ChronoLedgerState
state_of_unit (ChronoNeuronUnit unit)
{
  switch (unit)
    {
    case CHRONO_NEURON_UNIT_DMA:        return CHRONO_LEDGER_IDLE_DMA;
    case CHRONO_NEURON_UNIT_VECTOR:     return CHRONO_LEDGER_IDLE_VECTOR;
    case CHRONO_NEURON_UNIT_SCALAR:     return CHRONO_LEDGER_IDLE_SCALAR;
    case CHRONO_NEURON_UNIT_GPSIMD:     return CHRONO_LEDGER_IDLE_GPSIMD;
    case CHRONO_NEURON_UNIT_COLLECTIVE: return CHRONO_LEDGER_IDLE_COLLECTIVE;
    case CHRONO_NEURON_UNIT_TENSOR:
    case CHRONO_NEURON_UNIT_SYNC:
    case CHRONO_NEURON_UNIT_OTHER:
    case CHRONO_NEURON_N_UNITS:
    default:                            return CHRONO_N_LEDGER_STATES;
    }
}

/* ------------------------------------------------------------------ */
/* What each span is                                                  */

/* A semaphore's counter: "S[15] (CcCore8)". */
typedef struct {
  guint       number;
  guint32     track;
  const char *owner;
} Semaphore;

typedef struct {
  ChronoRankData *data;
  guint8         *unit_of_track;   /* ChronoNeuronUnit + 1, 0 unknown */
  guint8         *kind_of_name;    /* 0 unknown, 1 plain, 2 transpose, 3 collective */
  GArray         *semaphores;      /* Semaphore, of the whole trace */
  GStringChunk   *owners;
  ChronoNeuronRecord record;
  guint         *near_of_track;   /* where each row's last record was among the facts */
  GArray        *starts;          /* Node: the instructions that end the gap being walked */
  GArray        *sems;            /* guint: the semaphores an instruction waits on */
  ChronoFill     segments;        /* the ledger's, as it is made */
  ChronoFill     gaps;
  ChronoFill     links;
} Units;

static void
find_semaphores (Units *u)
{
  ChronoTrace *trace = u->data->trace;

  for (guint32 ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);
      const char *name = chrono_trace_get_string (trace, t->name != CHRONO_NO_STRING ? t->name : t->display_name);
      const char *open;
      char *end;
      Semaphore sem = { 0, ti, "" };

      if (t->type != CHRONO_TRACK_COUNTER || !g_str_has_prefix (name, "S[") || !chrono_rank_data_has_track (u->data, ti))
        continue;
      sem.number = (guint) g_ascii_strtoull (name + 2, &end, 10);
      if ((open = strchr (end, '(')) != NULL)
        sem.owner = g_string_chunk_insert_len (u->owners, open + 1, strcspn (open + 1, ")"));
      g_array_append_val (u->semaphores, sem);
    }
}

static gboolean
contains_nocase (const char *text,
                 const char *word)
{
  g_autofree char *lower = g_ascii_strdown (text, -1);

  return strstr (lower, word) != NULL;
}

ChronoNeuronUnit
chrono_neuron_unit_of_track (ChronoTrace *trace,
                             guint32      track)
{
  const ChronoTrack *t = chrono_trace_get_track (trace, track);
  const char *name = chrono_trace_get_string (trace, t->display_name);
  guint8 kind = t->n_spans ? t->kind[0] : CHRONO_KIND_INSTRUCTION;

  if (kind == CHRONO_KIND_DMA)
    return CHRONO_NEURON_UNIT_DMA;
  if (kind == CHRONO_KIND_COLLECTIVE)
    return CHRONO_NEURON_UNIT_COLLECTIVE;
  if (g_str_has_prefix (name, "Tensor"))
    return CHRONO_NEURON_UNIT_TENSOR;
  if (g_str_has_prefix (name, "Vector"))
    return CHRONO_NEURON_UNIT_VECTOR;
  if (g_str_has_prefix (name, "Scalar"))
    return CHRONO_NEURON_UNIT_SCALAR;
  if (g_str_has_prefix (name, "GpSimd"))
    return CHRONO_NEURON_UNIT_GPSIMD;
  if (g_str_has_prefix (name, "Sync"))
    return CHRONO_NEURON_UNIT_SYNC;
  return CHRONO_NEURON_UNIT_OTHER;
}

static ChronoNeuronUnit
unit_of_track (Units   *u,
               guint32  track)
{
  if (u->unit_of_track[track] == 0)
    u->unit_of_track[track] = chrono_neuron_unit_of_track (u->data->trace, track) + 1;
  return u->unit_of_track[track] - 1;
}

/* The text of the string member KEY (quoted) of the object TEXT of LEN
 * bytes, or NULL. */
static char *
member_text (const char *text,
             gsize       len,
             const char *key)
{
  const char *end = text + len, *p = memmem (text, len, key, strlen (key)), *close;

  if (p == NULL)
    return NULL;
  for (p += strlen (key); p < end && (*p == ' ' || *p == ':'); p++)
    ;
  if (p >= end || *p != '"' || (close = memchr (p + 1, '"', end - p - 1)) == NULL)
    return NULL;
  return g_strndup (p + 1, close - p - 1);
}

/* The text of each member KEYS[k] of the args of IT into VALUES[k] (NULL
 * for none): the raw text searched once, or the table row's members. */
static void
arg_texts (ChronoTrace          *trace,
           const ChronoWorkItem *it,
           const char * const   *keys,
           guint                 n,
           char                **values)
{
  guint64 args = chrono_track_get_args (chrono_trace_get_track (trace, it->track), it->index);
  gsize len = 0;
  const char *text = chrono_trace_get_raw_value (trace, args, &len);

  for (guint k = 0; k < n; k++)
    {
      g_autofree char *quoted = g_strdup_printf ("\"%s\"", keys[k]);

      /* Table rows (Parquet) have no text to search. */
      values[k] = text != NULL ? member_text (text, len, quoted) : chrono_trace_dup_arg (trace, args, keys[k]);
    }
}

/* Whether a Tensor instruction is a transpose: its instruction type says
 * so (tensor_instruction_type, or instruction_type in older profiles), or
 * without one its opcode or HLO name does. */
static gboolean
is_transpose (Units                *u,
              const ChronoWorkItem *it,
              gboolean              name_says)
{
  ChronoNeuronRecord *r = &u->record;
  const char *type, *hlo;

  /* The two Tensor rows take turns: each searches on from its own last. */
  chrono_neuron_record_read_near (r, chrono_track_get_args (u->data->tracks[it->track], it->index),
                                  &u->near_of_track[it->track]);
  type = chrono_neuron_record_text (r, CHRONO_NEURON_F_TYPE);
  if (type == NULL)
    type = chrono_neuron_record_text (r, CHRONO_NEURON_F_OLD_TYPE);
  if (type != NULL)
    return g_ascii_strncasecmp (type, "TRANSPOSE", 9) == 0;
  hlo = chrono_neuron_record_text (r, CHRONO_NEURON_F_HLO_NAME);
  return name_says || (hlo != NULL && strstr (hlo, "transpose(") != NULL);
}

static guint8
kind_of_name (Units                *u,
              const ChronoWorkItem *it)
{
  const ChronoTrack *t = u->data->tracks[it->track];
  guint32 name = chrono_track_get_name (t, it->index);

  if (u->kind_of_name[name] == 0)
    {
      const char *text = chrono_trace_get_string (u->data->trace, name);
      u->kind_of_name[name] = contains_nocase (text, "transpose") ? 2 : contains_nocase (text, "collective") ? 3 : 1;
    }
  return u->kind_of_name[name];
}

/* The unit of a piece of work: its row's, except that an instruction
 * triggering a collective counts as the collective. */
static ChronoNeuronUnit
unit_of (Units                *u,
         const ChronoWorkItem *it)
{
  ChronoNeuronUnit unit = unit_of_track (u, it->track);

  if (unit != CHRONO_NEURON_UNIT_DMA && unit != CHRONO_NEURON_UNIT_COLLECTIVE && kind_of_name (u, it) == 3)
    return CHRONO_NEURON_UNIT_COLLECTIVE;
  return unit;
}

static const ChronoWorkItem *
item_at (ChronoRankData *data,
         guint           device,
         guint           item)
{
  return &g_array_index (g_array_index (data->devices, ChronoDeviceWork, device).items, ChronoWorkItem, item);
}

/* ------------------------------------------------------------------ */
/* The walk                                                           */

typedef struct {
  guint device;
  guint item;
} Node;

/* The semaphores IT waits on ("$S[n]"), in its operands, into SEMS. */
static void
parse_waits (ChronoRankData       *data,
             const ChronoWorkItem *it,
             GArray               *sems)
{
  static const char * const keys[] = { "operands" };
  g_autofree char *operands = NULL;

  arg_texts (data->trace, it, keys, 1, &operands);
  for (const char *p = operands; p && (p = strstr (p, "$S[")) != NULL; p += 3)
    {
      guint n = (guint) g_ascii_strtoull (p + 3, NULL, 10);
      g_array_append_val (sems, n);
    }
}

/* What the owner of a semaphore ("CcCore8", "qSyncIO0", "Vector") says
 * held the Tensor engine when it raised it inside a gap. */
static ChronoLedgerState
state_of_owner (const char *owner)
{
  if (g_ascii_strncasecmp (owner, "cc", 2) == 0)
    return CHRONO_LEDGER_IDLE_COLLECTIVE;
  if (owner[0] == 'q')
    return CHRONO_LEDGER_IDLE_DMA;
  if (g_str_has_prefix (owner, "Vector"))
    return CHRONO_LEDGER_IDLE_VECTOR;
  if (g_str_has_prefix (owner, "Scalar") || g_str_has_prefix (owner, "Act"))
    return CHRONO_LEDGER_IDLE_SCALAR;
  if (g_str_has_prefix (owner, "GpSimd") || g_str_has_prefix (owner, "Pool"))
    return CHRONO_LEDGER_IDLE_GPSIMD;
  return CHRONO_LEDGER_IDLE_SEMAPHORE;
}

/* A wait of NODE that no span of the profile satisfied: the semaphore's
 * own record, raised inside (G0, NODE's start] by its owner (a CC-core,
 * which has no instructions), names the cause; with none, the update
 * lies outside the profile (another core, a barrier). CHRONO_N_LEDGER_STATES
 * when every wait was satisfied by a span. */
static ChronoLedgerState
unresolved_wait (Units  *u,
                 Node    node,
                 gint64  g0)
{
  ChronoRankData *data = u->data;
  const ChronoWorkItem *it = item_at (data, node.device, node.item);
  guint n_deps;
  const guint *deps = chrono_rank_data_deps_to (data, it, &n_deps);
  GArray *sems = g_array_set_size (u->sems, 0);
  ChronoLedgerState state = CHRONO_LEDGER_IDLE_SEMAPHORE;
  gint64 latest = G_MININT64;
  guint matched = 0;
  gdouble waits;

  for (guint k = 0; k < n_deps; k++)
    matched += g_array_index (data->deps, ChronoWorkDep, deps[k]).semaphore;
  /* The import counted each instruction's waits: most have none, or
   * none that a span did not satisfy, and their operands stay unread. */
  chrono_neuron_record_read_near (&u->record, chrono_track_get_args (data->tracks[it->track], it->index),
                                  &u->near_of_track[it->track]);
  if (!chrono_neuron_record_number (&u->record, CHRONO_NEURON_F_SEM_WAITS, &waits))
    waits = 0;
  if (waits <= matched)
    return CHRONO_N_LEDGER_STATES;
  parse_waits (data, it, sems);
  if (sems->len <= matched)
    return CHRONO_N_LEDGER_STATES;
  for (guint k = 0; k < u->semaphores->len; k++)
    {
      const Semaphore *sem = &g_array_index (u->semaphores, Semaphore, k);
      const ChronoTrack *t = data->tracks[sem->track];
      guint i;
      gboolean waited = FALSE;

      for (guint w = 0; w < sems->len && !waited; w++)
        waited = g_array_index (sems, guint, w) == sem->number;
      if (!waited || t->process != data->tracks[it->track]->process)
        continue;
      i = chrono_lower_bound (t->sample_ts, t->n_samples, sizeof (gint64), 0, it->start + 1);
      if (i > 0 && t->sample_ts[i - 1] > g0 && t->sample_ts[i - 1] > latest)
        {
          latest = t->sample_ts[i - 1];
          state = state_of_owner (sem->owner);
        }
    }
  return state;
}

/* The predecessor of NODE that ended last, into BEST; FALSE for none. */
static gboolean
latest_pred (ChronoRankData *data,
             Node            node,
             Node           *best,
             gint64         *best_end)
{
  const ChronoWorkItem *it = item_at (data, node.device, node.item);
  guint n_deps;
  const guint *deps = chrono_rank_data_deps_to (data, it, &n_deps);
  gboolean found = FALSE;

  for (guint k = 0; k < n_deps; k++)
    {
      const ChronoWorkDep *dep = &g_array_index (data->deps, ChronoWorkDep, deps[k]);
      const ChronoWorkItem *p = item_at (data, dep->from_device, dep->from_item);

      if (p->end > *best_end)
        {
          *best_end = p->end;
          *best = (Node) { dep->from_device, dep->from_item };
          found = TRUE;
        }
    }
  return found;
}

static void
add_link (Units *u,
          Node   node)
{
  const ChronoWorkItem *it = item_at (u->data, node.device, node.item);

  *(ChronoNeuronLink *) chrono_fill_next (&u->links) =
    (ChronoNeuronLink) { { it->track, it->index }, unit_of (u, it), it->start, it->end };
}

/* The cause of the idle time from G0 until the work of FROM (N_FROM
 * nodes, already in the chain) could run: walks back to the predecessor
 * that ended last, through pass-throughs, adding each to the links. */
static ChronoLedgerState
walk (Units      *u,
      const Node *from,
      guint       n_from,
      gint64      g0)
{
  Node node = from[0];

  for (guint hop = 0; hop < MAX_HOPS; hop++)
    {
      Node best = { 0 };
      gint64 best_end = G_MININT64;
      gboolean found = FALSE;
      ChronoLedgerState state;

      for (guint k = 0; k < (hop == 0 ? n_from : 1); k++)
        if (latest_pred (u->data, hop == 0 ? from[k] : node, &best, &best_end))
          {
            found = TRUE;
            if (hop == 0)
              node = from[k];
          }
      if (!found || best_end <= g0)
        {
          for (guint k = 0; k < (hop == 0 ? n_from : 1); k++)
            {
              ChronoLedgerState waited = unresolved_wait (u, hop == 0 ? from[k] : node, g0);
              if (waited != CHRONO_N_LEDGER_STATES)
                return waited;
            }
          return CHRONO_LEDGER_IDLE_NOT_QUEUED;
        }
      add_link (u, best);
      state = state_of_unit (unit_of (u, item_at (u->data, best.device, best.item)));
      if (state != CHRONO_N_LEDGER_STATES)
        return state;
      node = best;
    }
  return CHRONO_LEDGER_IDLE_NOT_QUEUED;
}

/* ------------------------------------------------------------------ */
/* Building                                                           */

static void
push (ChronoFill        *segments,
      gint64             start,
      gint64             end,
      ChronoLedgerState  state)
{
  ChronoLedgerSegment *last;

  if (end <= start)
    return;
  last = chrono_fill_last (segments);
  if (last && last->end == start && last->state == state)
    {
      last->end = end;
      return;
    }
  *(ChronoLedgerSegment *) chrono_fill_next (segments) = (ChronoLedgerSegment) { start, end, 0, G_MAXUINT32, state };
}

static void
add_gap (Units             *u,
         gint64             start,
         gint64             end,
         ChronoLedgerState  cause,
         gboolean           tail,
         guint              first_link)
{
  *(ChronoNeuronGap *) chrono_fill_next (&u->gaps) =
    (ChronoNeuronGap) { start, end, cause, tail, first_link, u->links.n - first_link };
  push (&u->segments, start, end, cause);
}

/* The gap [G0, G1) before the Tensor instructions that start at G1, from
 * FIRST in the device's items. */
static void
gap_before (Units              *u,
            guint               device,
            const guint        *tensor,
            guint               n_tensor,
            guint               first,
            gint64              g0,
            gint64              g1)
{
  const ChronoWorkItem *items = (const ChronoWorkItem *) g_array_index (u->data->devices, ChronoDeviceWork, device).items->data;
  guint link = u->links.n;
  GArray *from = g_array_set_size (u->starts, 0);
  ChronoLedgerState cause;

  /* Every instruction that starts the Tensor engine again: whichever
   * waited longest explains the gap, whatever the rows' order. */
  for (guint k = first; k < n_tensor && items[tensor[k]].start == g1; k++)
    g_array_append_val (from, ((Node) { device, tensor[k] }));
  add_link (u, g_array_index (from, Node, 0));
  cause = walk (u, (const Node *) from->data, from->len, g0);
  add_gap (u, g0, g1, cause, FALSE, link);
}

/* The tail after the Tensor engine's last instruction: what the window
 * still waited for, the work that ends last. */
static void
tail_gap (Units              *u,
          ChronoNeuronLedger *ledger,
          guint               device,
          gint64              g0)
{
  const ChronoDeviceWork *d = &g_array_index (u->data->devices, ChronoDeviceWork, device);
  const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;
  guint link = u->links.n, last = 0;
  ChronoLedgerState cause;
  Node node;

  for (guint k = 1; k < d->items->len; k++)
    if (items[k].end > items[last].end)
      last = k;
  node = (Node) { device, last };
  add_link (u, node);
  cause = state_of_unit (unit_of (u, &items[last]));
  if (cause == CHRONO_N_LEDGER_STATES)
    cause = walk (u, &node, 1, g0);
  add_gap (u, g0, ledger->end, cause, TRUE, link);
}

/* Compute where a matrix instruction runs in [START, END) of Tensor
 * work, transpose elsewhere; MATRIX holds the matrix work merged. */
static void
push_tensor (ChronoFill *segments,
             GArray     *matrix,
             guint      *pos,
             gint64      start,
             gint64      end)
{
  const ChronoInterval *m = (const ChronoInterval *) matrix->data;
  gint64 t = start;

  while (*pos < matrix->len && m[*pos].end <= t)
    (*pos)++;
  for (guint k = *pos; k < matrix->len && m[k].start < end; k++)
    {
      push (segments, t, MAX (t, m[k].start), CHRONO_LEDGER_TRANSPOSE);
      t = MAX (t, m[k].start);
      push (segments, t, MIN (m[k].end, end), CHRONO_LEDGER_COMPUTE);
      t = MAX (t, MIN (m[k].end, end));
    }
  push (segments, t, end, CHRONO_LEDGER_TRANSPOSE);
}

void
chrono_neuron_build_ledger (ChronoRankData *data,
                            guint           device)
{
  ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, device);
  const ChronoWorkItem *items = (const ChronoWorkItem *) d->items->data;
  g_autofree guint8 *unit_cache = g_new0 (guint8, chrono_trace_get_n_tracks (data->trace));
  g_autofree guint8 *name_cache = g_new0 (guint8, chrono_trace_get_n_strings (data->trace));
  g_autoptr(GArray) semaphores = g_array_new (FALSE, FALSE, sizeof (Semaphore));
  g_autoptr(GStringChunk) owners = g_string_chunk_new (256);
  g_autofree guint *near_cache = g_new0 (guint, chrono_trace_get_n_tracks (data->trace));
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (Node));
  g_autoptr(GArray) sems = g_array_new (FALSE, FALSE, sizeof (guint));
  Units u = { data, unit_cache, name_cache, semaphores, owners, { 0 }, near_cache, starts, sems };
  guint n = d->items->len;
  g_autoptr(GArray) tensor = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (ChronoInterval));
  g_autoptr(GArray) matrix = g_array_new (FALSE, FALSE, sizeof (ChronoInterval));
  ChronoFill tensor_fill, all_fill, matrix_fill;
  ChronoNeuronLedger *ledger = g_new0 (ChronoNeuronLedger, 1);
  gint64 t;
  guint pos = 0;

  d->ledger = g_array_new (FALSE, FALSE, sizeof (ChronoLedgerSegment));
  d->neuron = ledger;
  ledger->segments = g_array_ref (d->ledger);
  ledger->gaps = g_array_new (FALSE, FALSE, sizeof (ChronoNeuronGap));
  ledger->links = g_array_new (FALSE, FALSE, sizeof (ChronoNeuronLink));
  if (d->busy->len == 0)
    return;
  ledger->start = g_array_index (d->busy, ChronoInterval, 0).start;
  ledger->end = g_array_index (d->busy, ChronoInterval, d->busy->len - 1).end;

  /* Room for what the core's items can make, filled in place. */
  chrono_fill_start (&tensor_fill, tensor, n);
  chrono_fill_start (&all_fill, all, n);
  chrono_fill_start (&matrix_fill, matrix, n);
  chrono_fill_start (&u.segments, ledger->segments, 2 * n + 2);
  chrono_fill_start (&u.gaps, ledger->gaps, n + 1);
  chrono_fill_start (&u.links, ledger->links, n + 1);
  find_semaphores (&u);
  chrono_neuron_record_init (&u.record, data->trace);
  /* Items come by start: so do the Tensor engine's, merged as they come. */
  for (guint k = 0; k < d->items->len; k++)
    if (unit_of_track (&u, items[k].track) == CHRONO_NEURON_UNIT_TENSOR)
      {
        chrono_fill_merge (&all_fill, items[k].start, items[k].end, tensor_fill.n);
        if (!is_transpose (&u, &items[k], kind_of_name (&u, &items[k]) == 2))
          chrono_fill_merge (&matrix_fill, items[k].start, items[k].end, tensor_fill.n);
        *(guint *) chrono_fill_next (&tensor_fill) = k;
      }
  chrono_fill_end (&tensor_fill);
  chrono_fill_end (&all_fill);
  chrono_fill_end (&matrix_fill);

  t = ledger->start;
  for (guint i = 0; i < all->len; i++)
    {
      const ChronoInterval *v = &g_array_index (all, ChronoInterval, i);

      if (v->start > t)
        gap_before (&u, device, (const guint *) tensor->data, tensor->len, v->first, t, v->start);
      push_tensor (&u.segments, matrix, &pos, v->start, v->end);
      t = v->end;
    }
  if (t < ledger->end)
    tail_gap (&u, ledger, device, t);
  chrono_fill_end (&u.segments);
  chrono_fill_end (&u.gaps);
  chrono_fill_end (&u.links);
  chrono_neuron_record_clear (&u.record);
}

void
chrono_neuron_ledger_free (ChronoNeuronLedger *ledger)
{
  if (ledger == NULL)
    return;
  g_array_unref (ledger->segments);
  g_array_unref (ledger->gaps);
  g_array_unref (ledger->links);
  g_free (ledger);
}

/* ------------------------------------------------------------------ */
/* Reading                                                            */

const ChronoNeuronLedger *
chrono_analysis_get_neuron_ledger (ChronoAnalysis *self,
                                   guint           breakdown)
{
  guint n_ranks;
  ChronoRankData **ranks = chrono_analysis_get_ranks (self, &n_ranks);

  for (guint r = 0; r < n_ranks; r++)
    for (guint di = 0; di < ranks[r]->devices->len; di++)
      {
        const ChronoDeviceWork *d = &g_array_index (ranks[r]->devices, ChronoDeviceWork, di);
        if (d->breakdown == breakdown)
          return d->neuron;
      }
  return NULL;
}

gint64
chrono_neuron_ledger_get_start (const ChronoNeuronLedger *ledger)
{
  return ledger->start;
}

gint64
chrono_neuron_ledger_get_end (const ChronoNeuronLedger *ledger)
{
  return ledger->end;
}

guint
chrono_neuron_ledger_get_n_gaps (const ChronoNeuronLedger *ledger)
{
  return ledger->gaps->len;
}

const ChronoNeuronGap *
chrono_neuron_ledger_get_gap (const ChronoNeuronLedger *ledger,
                              guint                     index)
{
  g_return_val_if_fail (index < ledger->gaps->len, NULL);
  return &g_array_index (ledger->gaps, ChronoNeuronGap, index);
}

const ChronoNeuronLink *
chrono_neuron_ledger_get_link (const ChronoNeuronLedger *ledger,
                               guint                     index)
{
  g_return_val_if_fail (index < ledger->links->len, NULL);
  return &g_array_index (ledger->links, ChronoNeuronLink, index);
}

guint
chrono_neuron_ledger_gap_at (const ChronoNeuronLedger *ledger,
                             gint64                    t)
{
  const ChronoNeuronGap *gaps = (const ChronoNeuronGap *) ledger->gaps->data;
  guint k = chrono_lower_bound (gaps, ledger->gaps->len, sizeof *gaps, G_STRUCT_OFFSET (ChronoNeuronGap, end_ns), t + 1);

  return k < ledger->gaps->len && gaps[k].start_ns <= t ? k : G_MAXUINT;
}

void
chrono_neuron_ledger_sum (const ChronoNeuronLedger *ledger,
                          gint64                    start,
                          gint64                    end,
                          gint64                    state_ns[CHRONO_N_LEDGER_STATES])
{
  chrono_ledger_sum (ledger->segments, start, end, state_ns);
}

gint64
chrono_neuron_ledger_claimed_in (const ChronoNeuronLedger *ledger,
                                 gint64                    start,
                                 gint64                    end)
{
  return chrono_ledger_claimed_in (ledger->segments, start, end);
}

void
chrono_neuron_add_execution_rows (ChronoRankData         *data,
                                  const ChronoDeviceWork *d,
                                  GArray                 *out)
{
  g_autoptr(JsonNode) node = chrono_trace_get_metadata (data->trace, "neuron_executions");
  JsonArray *executions = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  gint64 shift = chrono_rank_data_clock_shift (data, d->process);

  for (guint i = 0; executions && i < json_array_get_length (executions); i++)
    {
      JsonNode *e = json_array_get_element (executions, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (e) ? json_node_get_object (e) : NULL;
      gdouble start, end, index = i;
      ChronoLedgerRow row = { .rank = data->rank_index, .breakdown = d->breakdown, .step = i, .neuron_core = TRUE };

      chrono_neuron_summary_number (o, "execution_index", &index);
      if (!chrono_neuron_summary_number (o, "execution_start_ts", &start) ||
          !chrono_neuron_summary_number (o, "execution_end_ts", &end))
        continue;
      row.start_ns = MAX ((gint64) start + shift, d->neuron->start);
      row.end_ns = MIN ((gint64) end + shift, d->neuron->end);
      if (row.end_ns <= row.start_ns)
        continue;
      row.name = g_strdup_printf ("execution %.0f", index);
      chrono_ledger_sum (d->ledger, row.start_ns, row.end_ns, row.state_ns);
      row.recoverable_ns = chrono_ledger_claimed_in (d->ledger, row.start_ns, row.end_ns);
      g_array_append_val (out, row);
    }
}
