/* chrono-memory.c: the allocator's events, per device, matched by address
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "chrono-json-scanner.h"
#include "chrono-memory-private.h"

#define TOP_GROUPS 20
#define TOP_LARGEST 20

/* One [memory] instant as the profiler wrote it. */
typedef struct {
  gint64  ts;
  gint64  bytes;
  gint64  total_allocated;     /* after the event; G_MININT64 when not written */
  gint64  total_reserved;
  guint64 addr;
  guint32 track;
  guint32 index;               /* the instant in its track */
  guint32 seq;                 /* order of reading, for equal times */
  guint32 device;
  ChronoSpanRef op;
  guint32 op_name;
  guint32 module_name;
  gboolean has_addr;
} MemEvent;

struct _ChronoMemory
{
  GObject      parent_instance;
  ChronoTrace *trace;
  GArray      *devices;        /* ChronoMemoryDevice */
  GArray      *findings;       /* ChronoMemoryFinding */
  GPtrArray   *notes;          /* char *, NULL-terminated */
};

G_DEFINE_FINAL_TYPE (ChronoMemory, chrono_memory, G_TYPE_OBJECT)

const char *
chrono_memory_category_to_string (ChronoMemoryCategory category)
{
  static const char * const names[] = {
    "unknown", "temporary", "activation", "step_local", "across_steps",
  };

  g_return_val_if_fail (category < CHRONO_N_MEMORY_CATEGORIES, NULL);
  return names[category];
}

static void
device_clear (ChronoMemoryDevice *d)
{
  g_free (d->label);
  g_clear_pointer (&d->by_operator, g_array_unref);
  g_clear_pointer (&d->by_module, g_array_unref);
  g_clear_pointer (&d->by_category, g_array_unref);
  g_clear_pointer (&d->largest, g_array_unref);
  g_clear_pointer (&d->allocations, g_array_unref);
  g_clear_pointer (&d->steps, g_array_unref);
  g_clear_pointer (&d->parts_at_peak, g_array_unref);
  g_free (d->point_ns);
  g_free (d->point_allocated);
  g_free (d->point_reserved);
  chrono_max_blocks_clear (&d->ns_blocks);
  chrono_max_blocks_clear (&d->allocated_blocks);
  chrono_max_blocks_clear (&d->reserved_blocks);
}

static void
chrono_memory_finalize (GObject *object)
{
  ChronoMemory *self = CHRONO_MEMORY (object);

  for (guint i = 0; i < self->devices->len; i++)
    device_clear (&g_array_index (self->devices, ChronoMemoryDevice, i));
  for (guint i = 0; i < self->findings->len; i++)
    chrono_memory_finding_clear (&g_array_index (self->findings, ChronoMemoryFinding, i));
  g_array_unref (self->devices);
  g_array_unref (self->findings);
  g_ptr_array_unref (self->notes);
  g_clear_object (&self->trace);
  G_OBJECT_CLASS (chrono_memory_parent_class)->finalize (object);
}

static void
chrono_memory_class_init (ChronoMemoryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_memory_finalize;
}

static void
chrono_memory_init (ChronoMemory *self)
{
  self->devices = g_array_new (FALSE, TRUE, sizeof (ChronoMemoryDevice));
  self->findings = g_array_new (FALSE, TRUE, sizeof (ChronoMemoryFinding));
  self->notes = g_ptr_array_new_with_free_func (g_free);
}

/* Reading the events ------------------------------------------------------ */

typedef struct {
  gint64  device_type;
  gint64  device_id;
  gboolean has_type;
} EventArgs;

static gboolean
read_int (ChronoJsonScanner *s,
          gint64            *out)
{
  const guint8 *text;
  gsize len;

  return chrono_json_read_number (s, &text, &len) == CHRONO_JSON_OK &&
         chrono_json_parse_int64 (text, len, out);
}

static gboolean
key_is (const ChronoJsonString *key,
        const char             *name)
{
  gsize n = strlen (name);
  return key->len == n && memcmp (key->start, name, n) == 0;
}

/* Reads the members of the args object at TEXT that the analysis needs;
 * FALSE when it is not an object with "Bytes". */
static gboolean
read_event_args (const char *text,
                 gsize       available,
                 MemEvent   *e,
                 EventArgs  *a)
{
  ChronoJsonScanner s = { (const guint8 *) text, (const guint8 *) text + available };
  ChronoJsonString key;
  gboolean done = FALSE;
  gboolean has_bytes = FALSE;

  chrono_json_skip_ws (&s);
  if (s.p >= s.end || *s.p != '{')
    return FALSE;
  s.p++;
  for (gboolean first = TRUE;; first = FALSE)
    {
      gint64 v;
      gboolean known = TRUE;

      if (chrono_json_next_member (&s, first, &key, &done) != CHRONO_JSON_OK)
        return FALSE;
      if (done)
        break;
      if (key_is (&key, "Bytes"))
        has_bytes = read_int (&s, &e->bytes);
      else if (key_is (&key, "Addr"))
        {
          const guint8 *num;
          gsize len;

          e->has_addr = chrono_json_read_number (&s, &num, &len) == CHRONO_JSON_OK &&
                        chrono_json_parse_uint64 (num, len, &e->addr);
        }
      else if (key_is (&key, "Total Allocated") && read_int (&s, &v))
        e->total_allocated = v;
      else if (key_is (&key, "Total Reserved") && read_int (&s, &v))
        e->total_reserved = v;
      else if (key_is (&key, "Device Type"))
        a->has_type = read_int (&s, &a->device_type);
      else if (key_is (&key, "Device Id"))
        read_int (&s, &a->device_id);
      else
        known = FALSE;
      if (!known && chrono_json_skip_value (&s) != CHRONO_JSON_OK)
        return FALSE;
    }
  return has_bytes;
}

static char *
device_label (gint64 type,
              gint64 id)
{
  /* PyTorch's c10::DeviceType. */
  static const char * const names[] = {
    "cpu", "cuda", "mkldnn", "opengl", "opencl", "ideep", "hip", "fpga", "maia", "xla",
    "vulkan", "metal", "xpu", "mps", "meta", "hpu", "ve", "lazy", "ipu", "mtia",
    "privateuse1",
  };
  const char *name = type >= 0 && type < (gint64) G_N_ELEMENTS (names) ? names[type] : NULL;

  if (name == NULL)
    return g_strdup_printf ("device type %" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, type, id);
  if (type == 0 && id < 0)
    return g_strdup (name);
  return g_strdup_printf ("%s:%" G_GINT64_FORMAT, name, id);
}

typedef struct {
  ChronoMemory *self;
  GArray       *events;        /* MemEvent */
  GHashTable   *device_of_key; /* packed key -> device index + 1 */
  guint8       *name_class;    /* per string: 0 unknown, 1 other, 2 [memory], 3 op category, 4 module */
  gint64        start_ns;
  gint64        end_ns;
  guint64       unreadable;
} Collect;

static guint8
string_class (Collect *c,
              guint32  id)
{
  if (c->name_class[id] == 0)
    {
      const char *s = chrono_trace_get_string (c->self->trace, id);

      if (strcmp (s, "[memory]") == 0)
        c->name_class[id] = 2;
      /* The categories PyTorch writes its operators in, current and legacy. */
      else if (strcmp (s, "cpu_op") == 0 || strcmp (s, "Operator") == 0 || strcmp (s, "hpu_op") == 0)
        c->name_class[id] = 3;
      else if (g_str_has_prefix (s, "nn.Module: "))
        c->name_class[id] = 4;
      else
        c->name_class[id] = 1;
    }
  return c->name_class[id];
}

static guint32
device_for (Collect            *c,
            const ChronoTrack  *t,
            const EventArgs    *a)
{
  gint part = chrono_trace_get_part_of_process (c->self->trace, t->process);
  gint64 id = a->device_type == 0 ? -1 : a->device_id;
  gint64 key = ((gint64) MAX (part, 0) << 40) | ((a->device_type & 0xffff) << 20) | ((id + 1) & 0xfffff);
  gpointer found;

  if (g_hash_table_lookup_extended (c->device_of_key, &key, NULL, &found))
    return GPOINTER_TO_UINT (found);

  {
    ChronoMemoryDevice d = { 0 };
    gint64 *k = g_new (gint64, 1);
    const ChronoTracePart *p = chrono_trace_get_part (c->self->trace, MAX (part, 0));

    d.part = MAX (part, 0);
    d.host_process = t->process;
    d.rank = p != NULL ? p->rank : -1;
    d.device_type = (gint) a->device_type;
    d.device_id = (gint) id;
    d.label = device_label (a->device_type, id);
    d.has_totals = TRUE;
    d.has_addresses = TRUE;
    d.capacity_bytes = -1;
    d.counter_name = CHRONO_NO_STRING;
    *k = key;
    g_array_append_val (c->self->devices, d);
    g_hash_table_insert (c->device_of_key, k, GUINT_TO_POINTER (c->self->devices->len - 1));
    return c->self->devices->len - 1;
  }
}

/* The innermost operator, and nn.Module frame, around each memory event
 * of thread T: spans and events walked together in time order, each
 * stack keeping the spans still open. */
typedef struct {
  GArray *ops;                 /* guint32 span indices */
  GArray *modules;
} OpenSpans;

static void
pop_ended (GArray            *stack,
           const ChronoTrack *t,
           gint64             ts)
{
  while (stack->len > 0 && chrono_track_get_end (t, g_array_index (stack, guint32, stack->len - 1)) <= ts)
    g_array_set_size (stack, stack->len - 1);
}

static void
attribute_track (Collect           *c,
                 const ChronoTrack *t,
                 guint32            track,
                 guint              first_event,
                 OpenSpans         *open)
{
  guint32 next = 0;

  g_array_set_size (open->ops, 0);
  g_array_set_size (open->modules, 0);
  for (guint k = first_event; k < c->events->len; k++)
    {
      MemEvent *e = &g_array_index (c->events, MemEvent, k);

      for (; next < t->n_spans && t->start[next] <= e->ts; next++)
        {
          guint8 cls = t->kind[next] == CHRONO_KIND_STEP ? 1 : string_class (c, chrono_track_get_cat (t, next));

          if (cls != 3 && t->kind[next] == CHRONO_KIND_PYTHON)
            cls = string_class (c, chrono_track_get_name (t, next)) == 4 ? 4 : 1;
          if (cls == 3)
            {
              pop_ended (open->ops, t, t->start[next]);
              g_array_append_val (open->ops, next);
            }
          else if (cls == 4)
            {
              pop_ended (open->modules, t, t->start[next]);
              g_array_append_val (open->modules, next);
            }
        }
      pop_ended (open->ops, t, e->ts);
      pop_ended (open->modules, t, e->ts);
      if (open->ops->len > 0)
        {
          guint32 i = g_array_index (open->ops, guint32, open->ops->len - 1);

          e->op = (ChronoSpanRef) { track, i };
          e->op_name = chrono_track_get_name (t, i);
        }
      if (open->modules->len > 0)
        e->module_name = chrono_track_get_name (t, g_array_index (open->modules, guint32, open->modules->len - 1));
    }
}

static void
collect_track (Collect           *c,
               ChronoArgsText    *view,
               guint32            track,
               OpenSpans         *open)
{
  const ChronoTrack *t = chrono_trace_get_track (c->self->trace, track);
  guint first = c->events->len;
  guint n = first;
  guint n_memory = 0;

  /* Room for the track's memory events at once, rather than growing
   * event by event (each growth copies all the events so far). */
  for (guint32 i = 0; i < t->n_instants; i++)
    n_memory += string_class (c, chrono_track_get_inst_name (t, i)) == 2;
  if (n_memory == 0)
    return;
  g_array_set_size (c->events, first + n_memory);
  for (guint32 i = 0; i < t->n_instants; i++)
    {
      MemEvent e = { 0 };
      EventArgs a = { .device_id = -1 };
      const char *text;
      gsize available;

      if (string_class (c, chrono_track_get_inst_name (t, i)) != 2)
        continue;
      if (t->inst_ts[i] < c->start_ns || t->inst_ts[i] >= c->end_ns)
        continue;
      e.ts = t->inst_ts[i];
      e.track = track;
      e.index = i;
      e.total_allocated = e.total_reserved = G_MININT64;
      e.op.track = CHRONO_MEMORY_NONE;
      text = chrono_args_text_get (view, chrono_track_get_inst_args (t, i), &available);
      if (text == NULL || !read_event_args (text, available, &e, &a) || !a.has_type)
        {
          c->unreadable++;
          continue;
        }
      e.seq = n;
      e.device = device_for (c, t, &a);
      g_array_index (c->events, MemEvent, n++) = e;
    }
  g_array_set_size (c->events, n);
  if (c->events->len > first && t->type == CHRONO_TRACK_THREAD)
    attribute_track (c, t, track, first, open);
}

/* Per device ----------------------------------------------------------------- */

static gint
compare_events (gconstpointer a,
                gconstpointer b)
{
  const MemEvent *x = a, *y = b;

  if (x->device != y->device)
    return x->device < y->device ? -1 : 1;
  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static gboolean
events_sorted (GArray *events)
{
  for (guint k = 1; k < events->len; k++)
    if (compare_events (&g_array_index (events, MemEvent, k - 1), &g_array_index (events, MemEvent, k)) > 0)
      return FALSE;
  return TRUE;
}

static gint
compare_steps (gconstpointer a,
               gconstpointer b)
{
  const ChronoMemoryStep *x = a, *y = b;

  return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/* The steps of the device's file, from its threads' ProfilerStep spans. */
static void
collect_steps (ChronoTrace        *trace,
               ChronoMemoryDevice *d)
{
  const ChronoTracePart *part = chrono_trace_get_part (trace, d->part);

  d->steps = g_array_new (FALSE, TRUE, sizeof (ChronoMemoryStep));
  for (guint ti = part->first_track; ti < part->first_track + part->n_tracks; ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);

      if (t->type != CHRONO_TRACK_THREAD)
        continue;
      for (guint32 i = 0; i < t->n_spans; i++)
        if (t->kind[i] == CHRONO_KIND_STEP)
          {
            ChronoMemoryStep s = { chrono_track_get_name (t, i), t->start[i], chrono_track_get_end (t, i) };
            g_array_append_val (d->steps, s);
          }
    }
  g_array_sort (d->steps, compare_steps);
}

gint
chrono_memory_step_at (const ChronoMemoryDevice *d,
                       gint64                    ts)
{
  guint lo = 0, hi = d->steps->len;

  /* The last step that starts at or before TS. */
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (g_array_index (d->steps, ChronoMemoryStep, mid).start_ns <= ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || g_array_index (d->steps, ChronoMemoryStep, lo - 1).end_ns <= ts)
    return -1;
  return (gint) lo - 1;
}

guint
chrono_memory_device_point_at (const ChronoMemoryDevice *d,
                               gint64                    ts)
{
  guint lo = 0, hi = d->n_points;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (d->point_ns[mid] < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
measure_steps (ChronoMemoryDevice *d,
               gint64              before_first)
{
  for (guint k = 0; k < d->steps->len; k++)
    {
      ChronoMemoryStep *s = &g_array_index (d->steps, ChronoMemoryStep, k);
      guint first = chrono_memory_device_point_at (d, s->start_ns);
      guint end = chrono_memory_device_point_at (d, s->end_ns);

      s->start_bytes = first > 0 ? d->point_allocated[first - 1] : before_first;
      s->end_bytes = end > 0 ? d->point_allocated[end - 1] : before_first;
      s->peak_bytes = s->start_bytes;
      s->peak_ns = s->start_ns;
      for (guint p = first; p < end; p++)
        if (d->point_allocated[p] > s->peak_bytes)
          {
            s->peak_bytes = d->point_allocated[p];
            s->peak_ns = d->point_ns[p];
          }
    }
}

void
chrono_memory_device_finish_points (ChronoTrace        *trace,
                                    ChronoMemoryDevice *d,
                                    gint64              before_first)
{
  collect_steps (trace, d);
  measure_steps (d, before_first);
  chrono_max_blocks_init (&d->ns_blocks, d->point_ns, d->n_points);
  chrono_max_blocks_init (&d->allocated_blocks, d->point_allocated, d->n_points);
  if (d->point_reserved != NULL)
    chrono_max_blocks_init (&d->reserved_blocks, d->point_reserved, d->n_points);
}

void
chrono_memory_device_init_unmatched (ChronoMemoryDevice *d)
{
  d->allocations = g_array_new (FALSE, TRUE, sizeof (ChronoMemoryAllocation));
  d->by_operator = g_array_new (FALSE, FALSE, sizeof (ChronoMemoryGroup));
  d->by_module = g_array_new (FALSE, FALSE, sizeof (ChronoMemoryGroup));
  d->by_category = g_array_new (FALSE, FALSE, sizeof (ChronoMemoryGroup));
  d->largest = g_array_new (FALSE, FALSE, sizeof (guint));
}

static ChronoMemoryCategory
categorise (const ChronoMemoryDevice     *d,
            ChronoTrace                  *trace,
            const ChronoMemoryAllocation *a)
{
  gint step = chrono_memory_step_at (d, a->alloc_ns);

  if (a->free_ns >= 0 && a->op.track != CHRONO_MEMORY_NONE &&
      a->free_ns < chrono_track_get_end (chrono_trace_get_track (trace, a->op.track), a->op.index))
    return CHRONO_MEMORY_TEMPORARY;
  /* Alive when a step after its allocation ended. */
  for (guint k = step < 0 ? 0 : (guint) step; k < d->steps->len; k++)
    {
      const ChronoMemoryStep *s = &g_array_index (d->steps, ChronoMemoryStep, k);

      if (s->end_ns <= a->alloc_ns)
        continue;
      if (a->free_ns < 0 || a->free_ns >= s->end_ns)
        return CHRONO_MEMORY_ACROSS_STEPS;
      break;
    }
  if (step < 0 || a->free_ns < 0)
    return CHRONO_MEMORY_UNKNOWN;
  if (a->free_op.track != CHRONO_MEMORY_NONE)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, a->free_op.track);
      const char *name = chrono_trace_get_string (trace, chrono_track_get_name (t, a->free_op.index));

      if (strstr (name, "Backward") != NULL || strstr (name, "backward") != NULL)
        return CHRONO_MEMORY_ACTIVATION;
    }
  return CHRONO_MEMORY_STEP_LOCAL;
}

static gint
compare_groups (gconstpointer a,
                gconstpointer b)
{
  const ChronoMemoryGroup *x = a, *y = b;

  if (x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  return x->name < y->name ? -1 : x->name > y->name;
}

static void
add_to_group (GHashTable *groups,
              guint32     name,
              gint64      bytes)
{
  ChronoMemoryGroup *g = g_hash_table_lookup (groups, GUINT_TO_POINTER (name));

  if (g == NULL)
    {
      g = g_new0 (ChronoMemoryGroup, 1);
      g->name = name;
      g_hash_table_insert (groups, GUINT_TO_POINTER (name), g);
    }
  g->bytes += bytes;
  g->allocations++;
}

static GArray *
sorted_groups (GHashTable *groups)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (ChronoMemoryGroup));
  GHashTableIter it;
  gpointer value;

  g_hash_table_iter_init (&it, groups);
  while (g_hash_table_iter_next (&it, NULL, &value))
    g_array_append_vals (out, value, 1);
  g_array_sort (out, compare_groups);
  if (out->len > TOP_GROUPS)
    g_array_set_size (out, TOP_GROUPS);
  return out;
}

static gint
compare_by_bytes (gconstpointer a,
                  gconstpointer b,
                  gpointer      data)
{
  GArray *allocations = data;
  const ChronoMemoryAllocation *x = &g_array_index (allocations, ChronoMemoryAllocation, *(const guint *) a);
  const ChronoMemoryAllocation *y = &g_array_index (allocations, ChronoMemoryAllocation, *(const guint *) b);

  if (x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  return x->alloc_ns < y->alloc_ns ? -1 : x->alloc_ns > y->alloc_ns;
}

/* What was alive at the peak (event PEAK), grouped. ALLOC_POS and FREE_POS
 * give each allocation's event positions, G_MAXUINT when not freed. */
static void
explain_peak (ChronoMemoryDevice *d,
              const guint        *alloc_pos,
              const guint        *free_pos,
              guint               peak)
{
  g_autoptr(GHashTable) ops = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) modules = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) categories = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  gboolean any_module = FALSE;

  d->largest = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint k = 0; k < d->allocations->len; k++)
    {
      ChronoMemoryAllocation *a = &g_array_index (d->allocations, ChronoMemoryAllocation, k);

      if (alloc_pos[k] > peak || free_pos[k] <= peak)
        continue;
      a->at_peak = TRUE;
      d->live_bytes += a->bytes;
      d->n_live++;
      add_to_group (ops, a->op_name, a->bytes);
      add_to_group (modules, a->module_name, a->bytes);
      add_to_group (categories, a->category, a->bytes);
      any_module |= a->module_name != CHRONO_NO_STRING;
      g_array_append_val (d->largest, k);
    }
  d->by_operator = sorted_groups (ops);
  d->by_module = any_module ? sorted_groups (modules) : g_array_new (FALSE, FALSE, sizeof (ChronoMemoryGroup));
  d->by_category = sorted_groups (categories);
  g_array_sort_with_data (d->largest, compare_by_bytes, d->allocations);
  if (d->largest->len > TOP_LARGEST)
    g_array_set_size (d->largest, TOP_LARGEST);
}

/* Allocations matched to frees by address, in time order. */
static void
match_allocations (ChronoMemoryDevice *d,
                   ChronoTrace        *trace,
                   const MemEvent     *ev,
                   guint               n,
                   guint               peak)
{
  g_autoptr(GHashTable) live = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GArray) alloc_pos = g_array_sized_new (FALSE, FALSE, sizeof (guint), n / 2 + 1);
  g_autoptr(GArray) free_pos = g_array_sized_new (FALSE, FALSE, sizeof (guint), n / 2 + 1);

  /* About half the events allocate: grown once rather than copied on. */
  d->allocations = g_array_sized_new (FALSE, TRUE, sizeof (ChronoMemoryAllocation), n / 2 + 1);
  for (guint k = 0; k < n; k++)
    {
      const MemEvent *e = &ev[k];
      gpointer found;

      if (e->bytes > 0)
        {
          ChronoMemoryAllocation a = {
            .alloc_ns = e->ts, .free_ns = -1, .bytes = e->bytes, .addr = e->addr,
            .alloc_event = { e->track, e->index }, .free_event = { CHRONO_MEMORY_NONE, 0 },
            .op = e->op, .op_name = e->op_name, .module_name = e->module_name,
            .free_op = { CHRONO_MEMORY_NONE, 0 },
          };
          guint none = G_MAXUINT;

          d->n_allocations++;
          g_array_append_val (d->allocations, a);
          g_array_append_val (alloc_pos, k);
          g_array_append_val (free_pos, none);
          /* The key points into the events, which outlive the table. */
          g_hash_table_insert (live, (gpointer) &e->addr, GUINT_TO_POINTER (d->allocations->len));
        }
      else if (e->bytes < 0)
        {
          d->n_frees++;
          if (g_hash_table_lookup_extended (live, &e->addr, NULL, &found))
            {
              guint i = GPOINTER_TO_UINT (found) - 1;
              ChronoMemoryAllocation *a = &g_array_index (d->allocations, ChronoMemoryAllocation, i);

              a->free_ns = e->ts;
              a->free_event = (ChronoSpanRef) { e->track, e->index };
              a->free_op = e->op;
              g_array_index (free_pos, guint, i) = k;
              g_hash_table_remove (live, &e->addr);
            }
          else
            d->n_unmatched_frees++;
        }
    }
  d->n_unfreed = g_hash_table_size (live);
  for (guint k = 0; k < d->allocations->len; k++)
    {
      ChronoMemoryAllocation *a = &g_array_index (d->allocations, ChronoMemoryAllocation, k);
      a->category = categorise (d, trace, a);
    }
  explain_peak (d, (guint *) alloc_pos->data, (guint *) free_pos->data, peak);
}

static gint64
capacity_of (ChronoTrace *trace,
             gint         device_id)
{
  g_autoptr(JsonNode) props = chrono_trace_get_metadata (trace, "deviceProperties");

  if (props == NULL || !JSON_NODE_HOLDS_ARRAY (props) || device_id < 0)
    return -1;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (props)); i++)
    {
      JsonNode *n = json_array_get_element (json_node_get_array (props), i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;

      if (o != NULL && json_object_get_int_member_with_default (o, "id", -1) == device_id)
        return json_object_get_int_member_with_default (o, "totalGlobalMem", -1);
    }
  return -1;
}

static void
analyse_device (ChronoMemory       *self,
                ChronoMemoryDevice *d,
                const MemEvent     *ev,
                guint               n)
{
  gint64 sum = 0;
  gint64 before_first;
  guint peak = 0;

  for (guint k = 0; k < n; k++)
    {
      d->has_totals &= ev[k].total_allocated != G_MININT64 && ev[k].total_reserved != G_MININT64;
      d->has_addresses &= ev[k].has_addr;
    }
  d->n_events = n;
  d->n_points = n;
  d->point_ns = g_new (gint64, n);
  d->point_allocated = g_new (gint64, n);
  d->point_reserved = d->has_totals ? g_new (gint64, n) : NULL;
  d->peak_reserved_bytes = d->reserved_at_peak_bytes = -1;
  for (guint k = 0; k < n; k++)
    {
      sum += ev[k].bytes;
      d->point_ns[k] = ev[k].ts;
      d->point_allocated[k] = d->has_totals ? ev[k].total_allocated : sum;
      if (d->point_allocated[k] > d->point_allocated[peak])
        peak = k;
      if (d->has_totals)
        {
          d->point_reserved[k] = ev[k].total_reserved;
          if (d->point_reserved[k] > d->peak_reserved_bytes)
            {
              d->peak_reserved_bytes = d->point_reserved[k];
              d->peak_reserved_ns = ev[k].ts;
            }
        }
    }
  d->peak_allocated_bytes = d->point_allocated[peak];
  d->peak_ns = d->point_ns[peak];
  if (d->has_totals)
    d->reserved_at_peak_bytes = d->point_reserved[peak];
  /* Total Allocated is written after the event. */
  before_first = d->has_totals ? ev[0].total_allocated - ev[0].bytes : 0;
  d->capacity_bytes = capacity_of (self->trace, d->device_id);

  chrono_memory_device_finish_points (self->trace, d, before_first);
  if (d->has_addresses)
    match_allocations (d, self->trace, ev, n, peak);
  else
    {
      chrono_memory_device_init_unmatched (d);
      for (guint k = 0; k < n; k++)
        {
          d->n_allocations += ev[k].bytes > 0;
          d->n_frees += ev[k].bytes < 0;
        }
    }
}

static void
add_notes (ChronoMemory *self,
           guint64       unreadable)
{
  if (self->devices->len == 0)
    g_ptr_array_add (self->notes, g_strdup (_("The trace has no memory events (PyTorch writes them with profile_memory=True).")));
  if (unreadable > 0)
    g_ptr_array_add (self->notes, g_strdup_printf (ngettext ("%" PRIu64 " memory event has no Bytes or Device Type and is not counted.",
                                                             "%" PRIu64 " memory events have no Bytes or Device Type and are not counted.",
                                                             unreadable), unreadable));
  for (guint i = 0; i < self->devices->len; i++)
    {
      const ChronoMemoryDevice *d = &g_array_index (self->devices, ChronoMemoryDevice, i);

      if (d->counter_name != CHRONO_NO_STRING)
        {
          g_ptr_array_add (self->notes, g_strdup_printf (_("%s: read from the counter “%s”, which samples how much is in use but not which allocations: "
                                                           "what was alive at the peak, and which operators allocated it, cannot be told from this trace."),
                                                         d->label, chrono_trace_get_string (self->trace, d->counter_name)));
          continue;
        }
      if (!d->has_totals)
        g_ptr_array_add (self->notes, g_strdup_printf (_("%s: the events carry no Total Allocated; bytes are counted from the first event, so what was allocated before it is not in them."), d->label));
      if (!d->has_addresses)
        g_ptr_array_add (self->notes, g_strdup_printf (_("%s: the events carry no Addr, so allocations cannot be matched to their frees: nothing is said of what was alive at the peak."), d->label));
      else if (d->n_unmatched_frees > 0)
        g_ptr_array_add (self->notes, g_strdup_printf (ngettext ("%s: %" PRIu64 " free has no allocation in the trace (allocated before it began).",
                                                                 "%s: %" PRIu64 " frees have no allocation in the trace (allocated before it began).",
                                                                 d->n_unmatched_frees), d->label, d->n_unmatched_frees));
    }
  g_ptr_array_add (self->notes, NULL);
}

static gint
compare_findings (gconstpointer a,
                  gconstpointer b)
{
  const ChronoMemoryFinding *x = a, *y = b;

  if (x->severity != y->severity)
    return x->severity > y->severity ? -1 : 1;
  return x->device < y->device ? -1 : x->device > y->device;
}

ChronoMemory *
chrono_memory_new (ChronoTrace   *trace,
                   gint64         start_ns,
                   gint64         end_ns,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(ChronoMemory) self = g_object_new (CHRONO_TYPE_MEMORY, NULL);
  g_autoptr(GHashTable) device_of_key = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (MemEvent));
  g_autofree guint8 *name_class = NULL;
  OpenSpans open = { g_array_new (FALSE, FALSE, sizeof (guint32)), g_array_new (FALSE, FALSE, sizeof (guint32)) };
  ChronoArgsText view;
  Collect c;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);

  self->trace = g_object_ref (trace);
  name_class = g_new0 (guint8, chrono_trace_get_n_strings (trace));
  c = (Collect) { self, events, device_of_key, name_class,
                  end_ns > start_ns ? start_ns : G_MININT64, end_ns > start_ns ? end_ns : G_MAXINT64, 0 };
  chrono_args_text_init (&view, trace);
  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        break;
      collect_track (&c, &view, ti, &open);
    }
  g_array_unref (open.ops);
  g_array_unref (open.modules);
  if (g_cancellable_is_cancelled (cancellable))
    return NULL;

  /* The events of one device on one thread are in time order already:
   * the sort, and the copy of them all it makes, only when they are not. */
  if (!events_sorted (events))
    g_array_sort (events, compare_events);
  for (guint k = 0; k < events->len;)
    {
      const MemEvent *ev = &g_array_index (events, MemEvent, k);
      guint n = 1;

      while (k + n < events->len && ev[n].device == ev[0].device)
        n++;
      analyse_device (self, &g_array_index (self->devices, ChronoMemoryDevice, ev->device), ev, n);
      k += n;
    }
  chrono_memory_read_counters (trace, c.start_ns, c.end_ns, self->devices);
  for (guint i = 0; i < self->devices->len; i++)
    chrono_memory_find_issues (trace, &g_array_index (self->devices, ChronoMemoryDevice, i), i, self->findings);
  g_array_sort (self->findings, compare_findings);
  add_notes (self, c.unreadable);
  return g_steal_pointer (&self);
}

ChronoTrace *
chrono_memory_get_trace (ChronoMemory *self)
{
  g_return_val_if_fail (CHRONO_IS_MEMORY (self), NULL);
  return self->trace;
}

guint
chrono_memory_get_n_devices (ChronoMemory *self)
{
  g_return_val_if_fail (CHRONO_IS_MEMORY (self), 0);
  return self->devices->len;
}

const ChronoMemoryDevice *
chrono_memory_get_device (ChronoMemory *self,
                          guint         index)
{
  g_return_val_if_fail (CHRONO_IS_MEMORY (self), NULL);
  g_return_val_if_fail (index < self->devices->len, NULL);
  return &g_array_index (self->devices, ChronoMemoryDevice, index);
}

const ChronoMemoryDevice *
chrono_memory_find_device (ChronoMemory *self,
                           guint         part,
                           gint          device_id)
{
  g_return_val_if_fail (CHRONO_IS_MEMORY (self), NULL);
  for (guint i = 0; i < self->devices->len; i++)
    {
      const ChronoMemoryDevice *d = &g_array_index (self->devices, ChronoMemoryDevice, i);
      if (d->part == part && d->device_id == device_id)
        return d;
    }
  return NULL;
}

guint
chrono_memory_device_get_process (ChronoTrace              *trace,
                                  const ChronoMemoryDevice *device)
{
  const ChronoTracePart *part = chrono_trace_get_part (trace, device->part);

  for (guint p = part->first_process; device->device_id >= 0 && p < part->first_process + part->n_processes; p++)
    {
      const ChronoProcess *process = chrono_trace_get_process (trace, p);
      if (process->is_device && process->device_index == device->device_id)
        return p;
    }
  return device->host_process;
}

guint
chrono_memory_get_n_findings (ChronoMemory *self)
{
  g_return_val_if_fail (CHRONO_IS_MEMORY (self), 0);
  return self->findings->len;
}

const ChronoMemoryFinding *
chrono_memory_get_finding (ChronoMemory *self,
                           guint         index)
{
  g_return_val_if_fail (CHRONO_IS_MEMORY (self), NULL);
  g_return_val_if_fail (index < self->findings->len, NULL);
  return &g_array_index (self->findings, ChronoMemoryFinding, index);
}

const char * const *
chrono_memory_get_notes (ChronoMemory *self)
{
  g_return_val_if_fail (CHRONO_IS_MEMORY (self), NULL);
  return (const char * const *) self->notes->pdata;
}
