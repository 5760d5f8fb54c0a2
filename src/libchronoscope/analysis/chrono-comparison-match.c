/* chrono-comparison-match.c: operators and kernels of both sides, matched
 * by key, device work charged to the operator that launched it, and the
 * first divergence of the launched operators
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-comparison-private.h"
#include "chrono-json-scanner.h"
#include "chrono-neuron-metrics.h"
#include "chrono-op-inputs.h"
#include "chrono-op-models.h"
#include "chrono-packed-devices.h"

#define NO_OP G_MAXUINT32
#define NO_KEY G_MAXUINT32
/* An operator outside the used windows, whose shapes are read if asked for. */
#define UNREAD_RAW (G_MAXUINT32 - 1)
/* How many operators must agree to say the sequences agree again. */
#define RESYNC_RUN 3
/* How many reads of operators' args ahead each is fetched. */
#define PREFETCH_READS 8
/* How many kernel rows charging keeps at hand. */
#define KERNEL_RECENT_BITS 6
#define KERNEL_RECENT (1 << KERNEL_RECENT_BITS)

/* An operator's name and shapes as the file writes them. */
typedef struct {
  guint32     name;
  gsize       len;
  const char *dims;
} RawKey;

/* The device time of each call of a row's side, as they come. */
typedef struct {
  gint64 *v;
  guint   n;
  guint   room;
} Calls;

typedef struct {
  ChronoCompareRow *row;
  Calls   calls[2];
  guint8  cls;                   /* kernels: ChronoWorkClass */
  char   *around;                /* kernels: the key of the operator around the launching one, or NULL */
  char   *op_name;               /* kernels: the launching operator's name, without its shapes */
} RowBuild;

/* Per host thread: each span's innermost enclosing operator call (its
 * index among the thread's calls; itself for an operator), and of each
 * call its span, the call around it, the used window it is in, its name
 * and shapes as written (an index into its side's raw keys: read ahead
 * inside the windows, elsewhere when first asked for), and the device
 * time it launched. */
typedef struct {
  const ChronoTrack *track;
  guint32 *op;                   /* by span: its call, or NO_OP */
  guint32  n_calls;
  guint32 *span;                 /* by call */
  guint32 *around;               /* by call: the enclosing call, or NO_OP */
  gint32  *used;                 /* by call: the used window, or -1 */
  guint32 *raw;                  /* by call: the raw key, or UNREAD_RAW */
  gint64  *device_ns;            /* by call */
} ThreadOps;

/* What a side's matching reads of its trace:
 * the operator categories, each host thread's ThreadOps, and the names
 * and shapes its operators are called with, each once. */
typedef struct {
  ChronoRankData *data;
  gboolean       *op_cats;
  ThreadOps     **threads;        /* by track, NULL for other tracks */
  GArray         *slots;          /* the used windows: ChronoCompareSlot by start */
  GArray         *raws;           /* RawKey */
  GHashTable     *raw_ids;        /* RawKey -> index into raws + 1 */
  GArray         *raw_key;        /* guint32 by raw: its key, NO_KEY until asked for */
  guint32        *last_raw;       /* by name: the raw of its last call read, or NO_KEY */
  GHashTable     *flows_in;       /* an NPU task -> the host span its flow comes from; NULL elsewhere */
  ChronoArgsText  args;
} SideOps;

typedef struct {
  gint64  ts;
  guint32 track;
  guint32 op;
  guint32 key;                   /* the operator's key id, on its side */
} Launch;

typedef struct {
  gint64  ts;
  guint32 key;
} SeqEntry;

/* One side's matching, in a thread of its own: its rows fill only that
 * side, and its operator keys have ids of its own, until both sides are
 * merged into A's. */
typedef struct {
  ChronoComparison *self;
  guint       side;
  SideOps     ops;
  GHashTable *op_rows;           /* key -> RowBuild * */
  GHashTable *kernel_rows;
  GPtrArray  *op_order;          /* RowBuild *, as first seen */
  GPtrArray  *kernel_order;
  GHashTable *key_ids;           /* operator key -> id + 1 */
  GPtrArray  *keys;              /* char *, by id */
  GArray    **launches;          /* per used pair: Launch, by time once sequenced */
  guint32    *to_a;              /* B only: its key ids to A's, once merged */
  GPtrArray  *op_by_key;         /* RowBuild * by operator key id, NULL until seen */
  GHashTable *kernel_cache;      /* (key id, name id) -> RowBuild * */
  gint       *measured;          /* by side, shared: whether a thread took its devices' measure */
} Matcher;

/* ------------------------------------------------------------------ */
/* Names                                                              */

char *
chrono_compare_normalise_kernel (const char *name)
{
  GString *out = g_string_new (NULL);
  const char *p = name;
  gint angle = 0, paren = 0;

  if (g_str_has_prefix (p, "void "))
    p += 5;
  for (; *p; p++)
    {
      char c = *p;

      if (angle == 0 && paren == 0 && g_str_has_prefix (p, "(anonymous namespace)"))
        {
          g_string_append (out, "(anonymous namespace)");
          p += strlen ("(anonymous namespace)") - 1;
          continue;
        }
      /* Template arguments and argument lists: only their brackets stay.
       * A parenthesis after a space is prose ("Memcpy HtoD (Pageable ->
       * Device)"), not an argument list. */
      if (c == '<' || (c == '(' && (angle > 0 || paren > 0 || (p > name && p[-1] != ' '))))
        {
          if (angle == 0 && paren == 0)
            g_string_append_c (out, c);
          c == '<' ? angle++ : paren++;
          continue;
        }
      if ((c == '>' && angle > 0) || (c == ')' && paren > 0))
        {
          c == '>' ? angle-- : paren--;
          if (angle == 0 && paren == 0)
            g_string_append_c (out, c);
          continue;
        }
      if (angle > 0 || paren > 0)
        continue;
      if (c == '0' && (p[1] == 'x' || p[1] == 'X') && g_ascii_isxdigit (p[2]) &&
          (p == name || !g_ascii_isalnum (p[-1])))
        {
          for (p += 2; g_ascii_isxdigit (p[1]); p++)
            ;
          g_string_append (out, "0x?");
          continue;
        }
      /* A number standing alone (a counter, an instance): "N". Digits
       * inside a word ("128x64", "sm90") are part of the name. */
      if (g_ascii_isdigit (c) && (out->len == 0 || !g_ascii_isalnum (out->str[out->len - 1])))
        {
          const char *q = p;

          while (g_ascii_isdigit (*q))
            q++;
          if (!g_ascii_isalpha (*q))
            {
              g_string_append_c (out, 'N');
              p = q - 1;
              continue;
            }
        }
      if (g_ascii_isspace (c))
        {
          if (out->len > 0 && out->str[out->len - 1] != ' ')
            g_string_append_c (out, ' ');
          continue;
        }
      g_string_append_c (out, c);
    }
  while (out->len > 0 && out->str[out->len - 1] == ' ')
    g_string_truncate (out, out->len - 1);
  return g_string_free (out, FALSE);
}

/* The args are searched, or read member by member, up to "Input Dims":
 * most of a call's args (its call stack) come after. A call with the
 * shapes of the last call of its operator (LIKE) is not scanned further. */
gboolean
chrono_compare_input_dims (const ChronoArgsText *args,
                           guint64       offset,
                           const char   *like,
                           gsize         like_len,
                           const char  **dims,
                           gsize        *dims_len)
{
  ChronoJsonScanner s;
  const char *text, *value;
  gsize available;

  if ((text = chrono_args_text_get (args, offset, &available)) == NULL ||
      (value = chrono_op_model_find_member (text, available, "Input Dims")) == NULL ||
      (*value != '[' && *value != '"'))
    return FALSE;
  s.p = (const guint8 *) value;
  s.end = (const guint8 *) text + available;
  if (chrono_json_skip_value_like (&s, like, like_len) != CHRONO_JSON_OK)
    return FALSE;
  *dims = value;
  *dims_len = (const char *) s.p - value;
  return TRUE;
}

static guint
raw_key_hash (gconstpointer key)
{
  const RawKey *k = key;
  guint64 h = chrono_hash_bytes (k->name * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15), k->dims, k->len);

  return (guint) (h ^ (h >> 32));
}

static gboolean
raw_key_equal (gconstpointer a,
               gconstpointer b)
{
  const RawKey *x = a, *y = b;

  return x->name == y->name && x->len == y->len && memcmp (x->dims, y->dims, x->len) == 0;
}

static guint32
intern_key (Matcher    *m,
            const char *key)
{
  gpointer id;

  if (g_hash_table_lookup_extended (m->key_ids, key, NULL, &id))
    return GPOINTER_TO_UINT (id) - 1;
  g_ptr_array_add (m->keys, g_strdup (key));
  g_hash_table_insert (m->key_ids, m->keys->pdata[m->keys->len - 1], GUINT_TO_POINTER (m->keys->len));
  return m->keys->len - 1;
}

static guint32 raw_of (SideOps           *so,
                       const ChronoTrack *t,
                       guint32            i);

/* The key of an operator call: its name, and its shapes without white
 * space. Calls of the same name and shapes as written share it without
 * building it again. */
static guint32
op_key (Matcher   *m,
        SideOps   *so,
        ThreadOps *ops,
        guint32    call)
{
  guint32 *known;
  const RawKey *raw;
  GString *key;

  if (ops->raw[call] == UNREAD_RAW)
    ops->raw[call] = raw_of (so, ops->track, ops->span[call]);
  known = &g_array_index (so->raw_key, guint32, ops->raw[call]);
  if (*known != NO_KEY)
    return *known;
  raw = &g_array_index (so->raws, RawKey, ops->raw[call]);
  key = g_string_new (NULL);
  chrono_compare_op_key_append (key, chrono_trace_get_string (so->data->trace, raw->name), raw->dims, raw->len);
  *known = intern_key (m, key->str);
  g_string_free (key, TRUE);
  return *known;
}

/* ------------------------------------------------------------------ */
/* Rows                                                               */

static RowBuild *
row_for (Matcher    *m,
         gboolean    kernel,
         const char *key,
         guint       side,
         const char *example)
{
  GHashTable *rows = kernel ? m->kernel_rows : m->op_rows;
  RowBuild *rb = g_hash_table_lookup (rows, key);
  ChronoCompareSide *s;

  if (rb == NULL)
    {
      guint n = MAX (m->self->used->len, 1);

      rb = g_new0 (RowBuild, 1);
      rb->row = g_new0 (ChronoCompareRow, 1);
      rb->row->key = g_strdup (key);
      rb->row->a.step_device_ns = g_new0 (gint64, n);
      rb->row->b.step_device_ns = g_new0 (gint64, n);
      g_hash_table_insert (rows, rb->row->key, rb);
      g_ptr_array_add (kernel ? m->kernel_order : m->op_order, rb);
    }
  s = side == 0 ? &rb->row->a : &rb->row->b;
  if (s->name == NULL)
    s->name = g_strdup (example);
  return rb;
}

static void
row_add (RowBuild *rb,
         guint     side,
         guint     u,
         gint64    device_ns,
         gint64    host_ns)
{
  ChronoCompareSide *s = side == 0 ? &rb->row->a : &rb->row->b;

  s->count++;
  s->device_ns += device_ns;
  s->host_ns += host_ns;
  s->step_device_ns[u] += device_ns;
  /* Inline: a call of each operator and kernel in the windows comes here. */
  if (G_UNLIKELY (rb->calls[side].n == rb->calls[side].room))
    {
      rb->calls[side].room = MAX (16, 2 * rb->calls[side].room);
      rb->calls[side].v = g_renew (gint64, rb->calls[side].v, rb->calls[side].room);
    }
  rb->calls[side].v[rb->calls[side].n++] = device_ns;
}

void
chrono_compare_op_key_append (GString    *key,
                              const char *name,
                              const char *dims,
                              gsize       dims_len)
{
  g_autofree char *array = chrono_op_inputs_from_text (dims, dims_len, TRUE);

  if (array)
    {
      dims = array;
      dims_len = strlen (array);
    }
  g_string_append (key, name);
  if (dims_len > 0)
    g_string_append_c (key, ' ');
  for (gsize i = 0; i < dims_len; i++)
    if (!g_ascii_isspace (dims[i]))
      g_string_append_c (key, dims[i]);
}

/* ------------------------------------------------------------------ */
/* One side                                                           */

GArray *
chrono_compare_make_slots (ChronoComparison *self,
                           guint             side)
{
  GArray *slots = g_array_new (FALSE, FALSE, sizeof (ChronoCompareSlot));

  for (guint u = 0; u < self->used->len; u++)
    {
      const ChronoCompareWindow *w = chrono_comparison_used_window (self, side, u);
      ChronoCompareSlot s = { w->start_ns, w->host_end_ns, w->end_ns, u };

      g_array_append_val (slots, s);
    }
  chrono_array_sort_by_int64 (slots, G_STRUCT_OFFSET (ChronoCompareSlot, start));
  return slots;
}

/* The used window that AT belongs to, where S[NEXT] is the first window
 * to start after it: the last to start by then, if AT is before its
 * span's end (HOST) or its work's end. */
static inline gint
slot_before (const ChronoCompareSlot *s,
             guint       next,
             gint64      at,
             gboolean    host)
{
  if (next == 0 || at >= (host ? s[next - 1].host_end : s[next - 1].end))
    return -1;
  return (gint) s[next - 1].used;
}

/* The same for AT anywhere, *HINT being where the window after the last
 * time asked was: work comes nearly in the order it was launched. */
static gint
slot_of (GArray   *slots,
         guint    *hint,
         gint64    at,
         gboolean  host)
{
  const ChronoCompareSlot *s = (const ChronoCompareSlot *) slots->data;

  *hint = chrono_lower_bound_near (s, slots->len, sizeof *s, G_STRUCT_OFFSET (ChronoCompareSlot, start), at + 1, *hint);
  return slot_before (s, *hint, at, host);
}

gint
chrono_compare_slot_of (GArray   *slots,
                        gint64    at,
                        gboolean  host)
{
  guint hint = 0;

  return slot_of (slots, &hint, at, host);
}

gboolean *
chrono_compare_operator_categories (ChronoRankData *data)
{
  ChronoTrace *trace = data->trace;
  gboolean *cats = g_new0 (gboolean, chrono_trace_get_n_strings (trace));

  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);

      if (t->type != CHRONO_TRACK_THREAD || !chrono_rank_data_has_track (data, ti))
        continue;
      for (guint32 i = 0; i < t->n_spans; i++)
        if (t->kind[i] == CHRONO_KIND_HOST_OP)
          cats[chrono_track_get_cat (t, i)] = TRUE;
    }
  return cats;
}

/* The index of the name and shapes of the operator I on T in the side's
 * raw keys. */
static guint32
raw_of (SideOps           *so,
        const ChronoTrack *t,
        guint32            i)
{
  RawKey raw = { .name = chrono_track_get_name (t, i) };
  guint32 last = so->last_raw[raw.name];
  const RawKey *like = last != NO_KEY ? &g_array_index (so->raws, RawKey, last) : NULL;
  guint32 no_key = NO_KEY;
  gpointer id;

  if (!chrono_compare_input_dims (&so->args, chrono_track_get_args (t, i), like ? like->dims : NULL,
                                  like ? like->len : 0, &raw.dims, &raw.len))
    raw.len = 0, raw.dims = "";
  /* Calls of an operator mostly repeat the shapes of its last call. */
  if (like && like->len == raw.len && memcmp (like->dims, raw.dims, raw.len) == 0)
    return last;
  if (g_hash_table_lookup_extended (so->raw_ids, &raw, NULL, &id))
    return so->last_raw[raw.name] = GPOINTER_TO_UINT (id) - 1;
  g_array_append_val (so->raws, raw);
  g_array_append_val (so->raw_key, no_key);
  g_hash_table_insert (so->raw_ids, g_memdup2 (&raw, sizeof raw), GUINT_TO_POINTER (so->raws->len));
  return so->last_raw[raw.name] = so->raws->len - 1;
}

static ThreadOps *
thread_ops_new (SideOps *so,
                guint    ti)
{
  const ChronoTrack *t = chrono_trace_get_track (so->data->trace, ti);
  ThreadOps *ops = g_new0 (ThreadOps, 1);
  guint depths = t->max_depth + 1;
  g_autofree guint32 *inner = g_new (guint32, (gsize) MAX (t->n_lanes, 1) * depths);
  const ChronoCompareSlot *slots = (const ChronoCompareSlot *) so->slots->data;
  guint next = 0;

  ops->track = t;
  ops->op = g_new (guint32, t->n_spans);
  /* At most a call per span: the room past the last call is never
   * touched, so it costs no memory. */
  ops->span = g_new (guint32, t->n_spans);
  ops->around = g_new (guint32, t->n_spans);
  ops->used = g_new (gint32, t->n_spans);
  ops->raw = g_new (guint32, t->n_spans);
  ops->device_ns = g_new0 (gint64, t->n_spans);
  /* Spans come by start, parents first: the last span seen at each depth
   * of a lane encloses what follows at the next depth. */
  for (guint32 i = 0; i < t->n_spans; i++)
    {
      guint32 *lane = inner + (gsize) t->lane[i] * depths;
      guint d = t->depth[i];

      if (chrono_compare_is_operator (t, i, so->op_cats))
        {
          guint32 c = ops->n_calls++;

          while (next < so->slots->len && slots[next].start <= t->start[i])
            next++;
          ops->span[c] = i;
          ops->around[c] = d > 0 ? lane[d - 1] : NO_OP;
          ops->used[c] = slot_before (slots, next, t->start[i], TRUE);
          ops->raw[c] = UNREAD_RAW;
          lane[d] = c;
        }
      else
        lane[d] = d > 0 ? lane[d - 1] : NO_OP;
      ops->op[i] = lane[d];
    }
  return ops;
}

static void
thread_ops_free (ThreadOps *ops)
{
  g_free (ops->op);
  g_free (ops->span);
  g_free (ops->around);
  g_free (ops->used);
  g_free (ops->raw);
  g_free (ops->device_ns);
  g_free (ops);
}

/* LAUNCHES by time, those of one time in the order they came (as a
 * stable sort would): a radix sort of the times from the earliest, byte
 * by byte, skipping the bytes all share. */
static void
sort_launches (GArray *launches)
{
  guint n = launches->len;
  Launch *v = (Launch *) launches->data;
  g_autofree Launch *tmp = NULL;
  gint64 lo = G_MAXINT64, hi = G_MININT64;

  for (guint i = 0; i < n; i++)
    {
      lo = MIN (lo, v[i].ts);
      hi = MAX (hi, v[i].ts);
    }
  if (n < 2 || lo == hi)
    return;
  tmp = g_new (Launch, n);
#define LAUNCH_DIGIT(l, shift) ((((guint64) (l).ts - (guint64) lo) >> (shift)) & 0xff)
  for (guint shift = 0; shift < 64 && (((guint64) hi - (guint64) lo) >> shift) != 0; shift += 8)
    {
      guint count[257] = { 0 };

      for (guint i = 0; i < n; i++)
        count[LAUNCH_DIGIT (v[i], shift) + 1]++;
      if (count[LAUNCH_DIGIT (v[0], shift) + 1] == n)
        continue;
      for (guint b = 0; b < 256; b++)
        count[b + 1] += count[b];
      for (guint i = 0; i < n; i++)
        tmp[count[LAUNCH_DIGIT (v[i], shift)]++] = v[i];
      memcpy (v, tmp, n * sizeof *v);
    }
#undef LAUNCH_DIGIT
}

/* Each piece of device work: its kernel row, and its time charged to the
 * operator whose call launched it. */
static void
charge_work (Matcher    *m,
             GArray    **launches)
{
  SideOps *so = &m->ops;
  GArray *slots = so->slots;
  guint side = m->side;
  ThreadOps **threads = so->threads;
  ChronoRankData *data = m->self->side[side].data;
  ChronoTrace *trace = data->trace;
  g_autofree guint32 *normal = g_new (guint32, chrono_trace_get_n_strings (trace));
  g_autoptr(GPtrArray) normal_names = g_ptr_array_new_with_free_func (g_free);
  /* The rows of the kernels seen last, in front of the table: a step
   * launches the same few again and again. No key is -1. */
  struct { gint64 key; RowBuild *rb; } recent[KERNEL_RECENT];

  memset (recent, 0xff, sizeof recent);
  memset (normal, 0xff, sizeof (guint32) * chrono_trace_get_n_strings (trace));
  for (guint di = 0; di < data->devices->len; di++)
    {
      ChronoDeviceWork *dev = &g_array_index (data->devices, ChronoDeviceWork, di);
      guint hint = 0;

      /* A NeuronCore's instructions and transfers are no kernels: the
       * Neuron section compares it by operator, engine and ledger state. */
      if (chrono_neuron_is_core (trace, dev))
        continue;
      for (guint k = 0; k < dev->items->len; k++)
        {
          const ChronoWorkItem *it = &g_array_index (dev->items, ChronoWorkItem, k);
          gboolean launched = it->launch_start != G_MININT64;
          gint u = slot_of (slots, &hint, launched ? it->launch_start : it->start, launched);
          const ChronoTrack *t = chrono_trace_get_track (trace, it->track);
          guint32 name = chrono_track_get_name (t, it->index);
          guint32 op = NO_OP, key = NO_KEY;
          guint32 op_track = it->launch_track;
          gint64 op_ts = it->launch_start;
          gint64 cache_key;
          guint slot;
          RowBuild *rb;

          if (u < 0)
            continue;
          if (launched && threads[it->launch_track])
            op = threads[it->launch_track]->op[it->launch_index];
          if (op == NO_OP && so->flows_in != NULL)
            {
              gint64 task = (gint64) it->track << 32 | it->index;
              const ChronoSpanRef *from = g_hash_table_lookup (so->flows_in, &task);

              if (from != NULL && threads[from->track] != NULL)
                {
                  op_track = from->track;
                  op_ts = chrono_trace_get_track (trace, from->track)->start[from->index];
                  op = threads[op_track]->op[from->index];
                }
            }
          if (op != NO_OP)
            {
              Launch l = { op_ts, op_track, op, NO_KEY };

              l.key = key = op_key (m, so, threads[op_track], op);
              threads[op_track]->device_ns[op] += it->end - it->start;
              g_array_append_val (launches[u], l);
            }
          if (normal[name] == G_MAXUINT32)
            {
              normal[name] = normal_names->len;
              g_ptr_array_add (normal_names, chrono_compare_normalise_kernel (chrono_trace_get_string (trace, name)));
            }
          cache_key = (gint64) (((guint64) key << 32) | normal[name]);
          slot = (guint) (((guint64) cache_key * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> (64 - KERNEL_RECENT_BITS));
          rb = recent[slot].key == cache_key ? recent[slot].rb : g_hash_table_lookup (m->kernel_cache, &cache_key);
          if (rb == NULL)
            {
              g_autofree char *row_key = g_strdup_printf ("%s\n%s", key != NO_KEY ? (const char *) m->keys->pdata[key] : "",
                                                          (const char *) normal_names->pdata[normal[name]]);

              rb = row_for (m, TRUE, row_key, side, chrono_trace_get_string (trace, name));
              g_hash_table_insert (m->kernel_cache, g_memdup2 (&cache_key, sizeof cache_key), rb);
            }
          recent[slot].key = cache_key;
          recent[slot].rb = rb;
          if (rb->row->name == NULL)
            {
              ThreadOps *ops = op != NO_OP ? threads[op_track] : NULL;

              rb->cls = it->cls;
              rb->row->name = g_strdup (normal_names->pdata[normal[name]]);
              rb->row->op = key != NO_KEY ? g_strdup (m->keys->pdata[key]) : NULL;
              if (ops)
                rb->op_name = g_strdup (chrono_trace_get_string (trace, chrono_track_get_name (ops->track, ops->span[op])));
              if (ops && ops->around[op] != NO_OP)
                {
                  /* Asking for the key may add one, moving the keys. */
                  guint32 around = op_key (m, so, ops, ops->around[op]);

                  rb->around = g_strdup (m->keys->pdata[around]);
                }
            }
          row_add (rb, side, u, it->end - it->start, 0);
        }
    }
}

/* Each operator call inside a used window on its row, in the order of
 * the tracks and of their spans. */
static void
count_ops (Matcher *m)
{
  SideOps *so = &m->ops;
  guint side = m->side;
  ChronoTrace *trace = m->self->side[side].data->trace;

  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      ThreadOps *ops = so->threads[ti];

      for (guint32 c = 0; ops && c < ops->n_calls; c++)
        {
          guint32 key;
          RowBuild *rb;

          if (ops->used[c] < 0)
            continue;
          key = op_key (m, so, ops, c);
          if (key >= m->op_by_key->len)
            g_ptr_array_set_size (m->op_by_key, m->keys->len);
          rb = m->op_by_key->pdata[key];
          if (rb == NULL)
            rb = m->op_by_key->pdata[key] = row_for (m, FALSE, m->keys->pdata[key], side,
                                                     chrono_trace_get_string (trace, chrono_track_get_name (ops->track, ops->span[c])));
          if (rb->row->name == NULL)
            {
              const char *name = side == 0 ? rb->row->a.name : rb->row->b.name;
              const char *key_text = m->keys->pdata[key];

              rb->row->name = g_strdup (name);
              if (strlen (key_text) > strlen (name))
                rb->row->shapes = g_strdup (key_text + strlen (name) + 1);
            }
          row_add (rb, side, (guint) ops->used[c], ops->device_ns[c], chrono_track_get_dur (ops->track, ops->span[c]));
        }
    }
}

/* The launched operators of used window U in launch order, one entry
 * per operator call however many launches it made, with A's key ids. The
 * sequences are made only as far as the sides agree: the first
 * divergence comes early when the runs differ. */
static GArray *
sequence (Matcher *m,
          guint    u)
{
  GArray *launches = m->launches[u];
  GArray *seq = g_array_new (FALSE, FALSE, sizeof (SeqEntry));
  const Launch *prev = NULL;

  sort_launches (launches);
  for (guint i = 0; i < launches->len; i++)
    {
      const Launch *l = &g_array_index (launches, Launch, i);
      SeqEntry e;

      if (prev && prev->track == l->track && prev->op == l->op)
        continue;
      prev = l;
      e.ts = l->ts;
      e.key = m->to_a ? m->to_a[l->key] : l->key;
      g_array_append_val (seq, e);
    }
  return seq;
}

static void
side_ops_read (SideOps *so)
{
  ChronoTrace *trace = so->data->trace;
  guint n_tracks = chrono_trace_get_n_tracks (trace);

  chrono_args_text_init (&so->args, trace);
  so->op_cats = chrono_compare_operator_categories (so->data);
  so->threads = g_new0 (ThreadOps *, n_tracks);
  so->flows_in = chrono_packed_devices_flows_in (so->data->trace);
  so->raws = g_array_new (FALSE, FALSE, sizeof (RawKey));
  so->raw_key = g_array_new (FALSE, FALSE, sizeof (guint32));
  so->raw_ids = g_hash_table_new_full (raw_key_hash, raw_key_equal, g_free, NULL);
  so->last_raw = g_new (guint32, chrono_trace_get_n_strings (trace));
  memset (so->last_raw, 0xff, sizeof (guint32) * chrono_trace_get_n_strings (trace));
  for (guint ti = 0; ti < n_tracks; ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);
      ThreadOps *ops;

      if (t->type != CHRONO_TRACK_THREAD || t->n_spans == 0 || !chrono_rank_data_has_track (so->data, ti))
        continue;
      ops = so->threads[ti] = thread_ops_new (so, ti);
      /* Only the shapes of calls inside the used windows are read ahead:
       * the matching asks for few others. Their args are scattered over
       * the file: each is asked for a few calls before it is needed. */
      for (guint32 c = 0; c < ops->n_calls; c++)
        {
          if (c + PREFETCH_READS < ops->n_calls)
            chrono_args_text_prefetch (&so->args, chrono_track_get_args (t, ops->span[c + PREFETCH_READS]));
          if (ops->used[c] >= 0)
            ops->raw[c] = raw_of (so, t, ops->span[c]);
        }
    }
}

static void
side_ops_clear (SideOps *so)
{
  guint n_tracks = chrono_trace_get_n_tracks (so->data->trace);

  for (guint ti = 0; ti < n_tracks; ti++)
    if (so->threads[ti])
      thread_ops_free (so->threads[ti]);
  g_free (so->threads);
  g_free (so->op_cats);
  g_array_unref (so->raws);
  g_array_unref (so->raw_key);
  g_hash_table_unref (so->raw_ids);
  g_free (so->last_raw);
  g_clear_pointer (&so->flows_in, g_hash_table_unref);
  g_array_unref (so->slots);
}

static void
matcher_init (Matcher          *m,
              ChronoComparison *self,
              guint             side)
{
  *m = (Matcher) {
    .self = self,
    .side = side,
    .ops = { .data = self->side[side].data, .slots = chrono_compare_make_slots (self, side) },
    .op_rows = g_hash_table_new (g_str_hash, g_str_equal),
    .kernel_rows = g_hash_table_new (g_str_hash, g_str_equal),
    .op_order = g_ptr_array_new (),
    .kernel_order = g_ptr_array_new (),
    .key_ids = g_hash_table_new (g_str_hash, g_str_equal),
    .keys = g_ptr_array_new_with_free_func (g_free),
    .launches = g_new0 (GArray *, self->used->len),
    .op_by_key = g_ptr_array_new (),
  };
}

static void
matcher_clear (Matcher *m)
{
  g_ptr_array_unref (m->op_order);
  g_ptr_array_unref (m->kernel_order);
  g_hash_table_unref (m->key_ids);
  g_ptr_array_unref (m->keys);
  for (guint u = 0; u < m->self->used->len; u++)
    g_clear_pointer (&m->launches[u], g_array_unref);
  g_free (m->launches);
  g_free (m->to_a);
  g_ptr_array_unref (m->op_by_key);
}

/* Each row's figures per call on the matcher's side: its calls sorted
 * for the percentiles, which take the longest. They move with the side
 * when the rows are merged. */
static void
finish_side (Matcher *m)
{
  GPtrArray *orders[] = { m->op_order, m->kernel_order };

  for (guint k = 0; k < G_N_ELEMENTS (orders); k++)
    for (guint i = 0; i < orders[k]->len; i++)
      {
        RowBuild *rb = orders[k]->pdata[i];

        chrono_compare_side_finish (m->side == 0 ? &rb->row->a : &rb->row->b, rb->calls[m->side].v, rb->calls[m->side].n,
                                    m->self->used->len);
      }
}

/* A side's matching, and the measure of its devices, need nothing of the
 * other side's: both sides run at once. */
static gpointer
match_side (gpointer user_data)
{
  Matcher *m = user_data;

  side_ops_read (&m->ops);
  for (guint u = 0; u < m->self->used->len; u++)
    m->launches[u] = g_array_new (FALSE, FALSE, sizeof (Launch));
  m->kernel_cache = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  charge_work (m, m->launches);
  count_ops (m);
  finish_side (m);

  g_clear_pointer (&m->kernel_cache, g_hash_table_unref);
  side_ops_clear (&m->ops);
  /* The devices' measures go to whichever thread is free first: the
   * sides seldom take as long. */
  for (guint k = 0; k < 2; k++)
    {
      guint side = k == 0 ? 1 - m->side : m->side;

      if (g_atomic_int_compare_and_exchange (&m->measured[side], FALSE, TRUE))
        chrono_compare_measure_devices (m->self, side);
    }
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Across sides                                                       */

/* FROM's B side goes to INTO, which leaves FROM's B empty. */
static void
swap_b (RowBuild *into,
        RowBuild *from)
{
  ChronoCompareSide empty = into->row->b;
  Calls calls = into->calls[1];

  into->row->b = from->row->b;
  from->row->b = empty;
  into->calls[1] = from->calls[1];
  from->calls[1] = calls;
}

static void
row_build_free (RowBuild *rb)
{
  g_clear_pointer (&rb->row, chrono_compare_row_free);
  g_free (rb->around);
  g_free (rb->op_name);
  g_free (rb->calls[0].v);
  g_free (rb->calls[1].v);
  g_free (rb);
}

/* B's operator keys take A's ids, so that the sequences compare. */
static void
merge_keys (Matcher *a,
            Matcher *b)
{
  b->to_a = g_new (guint32, MAX (b->keys->len, 1));
  for (guint i = 0; i < b->keys->len; i++)
    b->to_a[i] = intern_key (a, b->keys->pdata[i]);
}

/* B's rows go into A's of the same key, or after A's as first seen, as
 * if B had been matched after A. */
static void
merge_rows (Matcher  *a,
            Matcher  *b,
            gboolean  kernel)
{
  GHashTable *rows = kernel ? a->kernel_rows : a->op_rows;
  GPtrArray *order = kernel ? a->kernel_order : a->op_order;
  GPtrArray *from = kernel ? b->kernel_order : b->op_order;

  for (guint i = 0; i < from->len; i++)
    {
      RowBuild *rb = from->pdata[i];
      RowBuild *ra = g_hash_table_lookup (rows, rb->row->key);

      if (ra == NULL)
        g_ptr_array_add (order, rb);
      else
        {
          swap_b (ra, rb);
          row_build_free (rb);
        }
    }
  g_ptr_array_set_size (from, 0);
}

static gint
by_a_time (gconstpointer a,
           gconstpointer b)
{
  const RowBuild *x = *(RowBuild * const *) a, *y = *(RowBuild * const *) b;
  gint64 tx = x->row->a.device_ns + x->row->b.device_ns, ty = y->row->a.device_ns + y->row->b.device_ns;

  return tx != ty ? (tx < ty) - (tx > ty) : strcmp (x->row->key, y->row->key);
}

/* The names of the operators SIDE calls, whatever their shapes. */
static GHashTable *
operator_names (Matcher *m,
                guint    side)
{
  GHashTable *names = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < m->op_order->len; i++)
    {
      const ChronoCompareRow *row = ((RowBuild *) m->op_order->pdata[i])->row;

      if ((side == 0 ? row->a.count : row->b.count) > 0)
        g_hash_table_add (names, row->name);
    }
  return names;
}

/* Kernels of different names under the same operator are the same work
 * on different hardware or libraries: of one class (computation,
 * communication, copies, sets), the costliest unmatched of A goes with
 * the costliest unmatched of B, and so on. With AROUND, those still
 * unmatched are grouped by the operator around the launching one, and
 * only kernels of operators the other side does not have there are
 * matched: cuDNN's and MIOpen's convolutions are other operators under
 * the same aten::_convolution, and the row is said to be launched by it;
 * an operator whose shapes changed is still the same operator. */
static void
match_kernels_under (Matcher  *m,
                     gboolean  around)
{
  g_autoptr(GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GHashTable) names_a = around ? operator_names (m, 0) : NULL;
  g_autoptr(GHashTable) names_b = around ? operator_names (m, 1) : NULL;
  GHashTableIter iter;
  gpointer value;

  for (guint i = 0; i < m->kernel_order->len; i++)
    {
      RowBuild *rb = m->kernel_order->pdata[i];
      const char *op = around ? rb->around : rb->row->op;
      g_autofree char *group = NULL;
      GPtrArray *sides;

      if (op == NULL || (rb->row->a.count > 0) == (rb->row->b.count > 0))
        continue;
      if (around && g_hash_table_contains (rb->row->a.count > 0 ? names_b : names_a, rb->op_name))
        continue;
      group = g_strdup_printf ("%u %s", rb->cls, op);
      sides = g_hash_table_lookup (groups, group);
      if (sides == NULL)
        {
          sides = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
          g_ptr_array_add (sides, g_ptr_array_new ());
          g_ptr_array_add (sides, g_ptr_array_new ());
          g_hash_table_insert (groups, g_steal_pointer (&group), sides);
        }
      g_ptr_array_add (sides->pdata[rb->row->a.count > 0 ? 0 : 1], rb);
    }
  g_hash_table_iter_init (&iter, groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      GPtrArray *only_a = ((GPtrArray *) value)->pdata[0], *only_b = ((GPtrArray *) value)->pdata[1];

      g_ptr_array_sort (only_a, by_a_time);
      g_ptr_array_sort (only_b, by_a_time);
      for (guint i = 0; i < MIN (only_a->len, only_b->len); i++)
        {
          RowBuild *ra = only_a->pdata[i];

          swap_b (ra, only_b->pdata[i]);
          ra->row->match = CHRONO_COMPARE_MATCH_OPERATOR;
          if (around)
            {
              g_free (ra->row->op);
              ra->row->op = g_strdup (ra->around);
            }
          /* RB is empty now: finishing drops it. */
        }
    }
}

static gint
by_delta (gconstpointer a,
          gconstpointer b)
{
  const ChronoCompareRow *x = *(ChronoCompareRow * const *) a, *y = *(ChronoCompareRow * const *) b;
  gdouble dx = ABS (x->delta_ns), dy = ABS (y->delta_ns);

  return dx != dy ? (dx < dy) - (dx > dy) : strcmp (x->key, y->key);
}

static void
finish_rows (Matcher   *m,
             GPtrArray *order,
             GPtrArray *out)
{
  guint n = m->self->used->len;

  for (guint i = 0; i < order->len; i++)
    {
      RowBuild *rb = order->pdata[i];
      ChronoCompareRow *row = rb->row;

      if (row->a.count == 0 && row->b.count == 0)
        {
          row_build_free (rb);
          continue;
        }
      if (row->match != CHRONO_COMPARE_MATCH_OPERATOR)
        row->match = row->a.count > 0 && row->b.count > 0 ? CHRONO_COMPARE_MATCH_NAME : CHRONO_COMPARE_MATCH_NONE;
      chrono_compare_row_finish (row, n);
      g_ptr_array_add (out, row);
      /* The row lives on in OUT; the rest of its making goes. */
      rb->row = NULL;
      row_build_free (rb);
    }
  g_ptr_array_sort (out, by_delta);
}

static gboolean
agree_from (GArray *a,
            guint   i,
            GArray *b,
            guint   j)
{
  for (guint k = 0; k < RESYNC_RUN; k++)
    {
      gboolean a_end = i + k >= a->len, b_end = j + k >= b->len;

      if (a_end || b_end)
        return a_end && b_end;
      if (g_array_index (a, SeqEntry, i + k).key != g_array_index (b, SeqEntry, j + k).key)
        return FALSE;
    }
  return TRUE;
}

/* The longest common prefix of each used pair's sequences; where it ends
 * first, the fewest operators to skip on either side before they agree
 * again for a run. */
static void
find_divergence (Matcher *m,
                 Matcher *mb)
{
  ChronoCompareDivergence *d = &m->self->divergence;
  guint64 before_a = 0, before_b = 0;

  for (guint u = 0; u < m->self->used->len; u++)
    {
      g_autoptr(GArray) a = sequence (m, u);
      g_autoptr(GArray) b = sequence (mb, u);
      guint i = 0;

      while (i < a->len && i < b->len && g_array_index (a, SeqEntry, i).key == g_array_index (b, SeqEntry, i).key)
        i++;
      if (i == a->len && i == b->len)
        {
          before_a += a->len;
          before_b += b->len;
          continue;
        }
      d->found = TRUE;
      d->pair = u;
      d->common = i;
      d->a_index = d->b_index = i;
      d->a_position = before_a + i;
      d->b_position = before_b + i;
      d->a_ns = i < a->len ? g_array_index (a, SeqEntry, i).ts : -1;
      d->b_ns = i < b->len ? g_array_index (b, SeqEntry, i).ts : -1;
      d->a_op = i < a->len ? g_strdup (m->keys->pdata[g_array_index (a, SeqEntry, i).key]) : NULL;
      d->b_op = i < b->len ? g_strdup (m->keys->pdata[g_array_index (b, SeqEntry, i).key]) : NULL;
      for (guint span = 1; span <= 2 * CHRONO_COMPARE_RESYNC_SEARCH && !d->resynced; span++)
        for (guint da = 0; da <= span && !d->resynced; da++)
          if (agree_from (a, i + da, b, i + span - da))
            {
              d->resynced = TRUE;
              d->a_skipped = da;
              d->b_inserted = span - da;
            }
      return;
    }
}

void
chrono_comparison_match (ChronoComparison *self)
{
  Matcher m[2];
  gint measured[2] = { FALSE, FALSE };

  matcher_init (&m[0], self, 0);
  matcher_init (&m[1], self, 1);
  m[0].measured = m[1].measured = measured;
  chrono_both_at_once (match_side, &m[0], &m[1]);
  merge_keys (&m[0], &m[1]);
  merge_rows (&m[0], &m[1], FALSE);
  merge_rows (&m[0], &m[1], TRUE);
  /* The tables' keys belong to rows that finishing may free. */
  for (guint side = 0; side < 2; side++)
    {
      g_clear_pointer (&m[side].op_rows, g_hash_table_unref);
      g_clear_pointer (&m[side].kernel_rows, g_hash_table_unref);
    }
  match_kernels_under (&m[0], FALSE);
  match_kernels_under (&m[0], TRUE);
  finish_rows (&m[0], m[0].op_order, self->ops);
  finish_rows (&m[0], m[0].kernel_order, self->kernels);
  find_divergence (&m[0], &m[1]);
  matcher_clear (&m[0]);
  matcher_clear (&m[1]);
}
