/* chrono-comparison-tree.c: where B's step time goes, node by node, against A
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-comparison-private.h"
#include "chrono-comparison-tree.h"
#include "chrono-json-util.h"

#define NONE G_MAXUINT32
#define MODULE_PREFIX "nn.Module: "

/* A node while it is built: the public part first. */
typedef struct {
  ChronoFlameNode pub;
  gint64     *step_ns[2];        /* per used pair */
  GHashTable *by_name;           /* "kind name" -> Node *, the children */
  GPtrArray  *kids;              /* Node *, as first seen */
  GArray     *spans[2];          /* ChronoSpanRef: kernels' work, operators' calls */
} Node;

struct _ChronoComparisonTree
{
  GObject parent_instance;

  ChronoComparison *comparison;
  Node   *root;
  gdouble step_ns[2];
};

G_DEFINE_FINAL_TYPE (ChronoComparisonTree, chrono_comparison_tree, G_TYPE_OBJECT)

const char *
chrono_flame_kind_to_string (ChronoFlameKind kind)
{
  static const char * const names[] = { "step", "module", "operator", "kernel", "rest" };

  g_return_val_if_fail (kind <= CHRONO_FLAME_REST, NULL);
  return names[kind];
}

static Node *
node_new (ChronoFlameKind kind,
          const char     *name,
          Node           *parent,
          guint           n_used)
{
  Node *n = g_new0 (Node, 1);

  n->pub.kind = kind;
  n->pub.name = g_strdup (name);
  n->pub.parent = parent ? &parent->pub : NULL;
  for (guint k = 0; k < 2; k++)
    n->step_ns[k] = g_new0 (gint64, MAX (n_used, 1));
  return n;
}

static void
node_free (Node *n)
{
  for (guint i = 0; i < n->pub.n_children; i++)
    node_free ((Node *) n->pub.children[i]);
  g_free (n->pub.children);
  g_free (n->pub.name);
  g_free (n->pub.a_name);
  for (guint k = 0; k < 2; k++)
    {
      g_free (n->step_ns[k]);
      g_clear_pointer (&n->spans[k], g_array_unref);
    }
  g_free (n);
}

static Node *
child_of (Node           *parent,
          ChronoFlameKind kind,
          const char     *name,
          guint           n_used)
{
  g_autofree char *key = g_strdup_printf ("%u %s", kind, name);
  Node *n;

  if (parent->by_name == NULL)
    {
      parent->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      parent->kids = g_ptr_array_new ();
    }
  if ((n = g_hash_table_lookup (parent->by_name, key)) != NULL)
    return n;
  n = node_new (kind, name, parent, n_used);
  g_hash_table_insert (parent->by_name, g_steal_pointer (&key), n);
  g_ptr_array_add (parent->kids, n);
  return n;
}

static void
add_span (Node    *n,
          guint    side,
          guint32  track,
          guint32  index)
{
  ChronoSpanRef ref = { track, index };

  if (n->spans[side] == NULL)
    n->spans[side] = g_array_new (FALSE, FALSE, sizeof (ChronoSpanRef));
  g_array_append_val (n->spans[side], ref);
}

/* ------------------------------------------------------------------ */
/* One side                                                           */

/* Per host thread: each span's innermost enclosing operator (itself for
 * an operator) and the innermost nn.Module frame around it (not itself),
 * and the node each operator call and frame was put in. */
typedef struct {
  guint32 *op;
  guint32 *module;
  Node   **node;
} Thread;

static gboolean
is_module (ChronoTrace       *trace,
           const ChronoTrack *t,
           guint32            i)
{
  return t->kind[i] == CHRONO_KIND_PYTHON &&
         g_str_has_prefix (chrono_trace_get_string (trace, chrono_track_get_name (t, i)), MODULE_PREFIX);
}

static Thread *
thread_new (ChronoTrace       *trace,
            const ChronoTrack *t,
            const gboolean    *op_cats)
{
  Thread *th = g_new0 (Thread, 1);
  guint depths = t->max_depth + 1;
  gsize n_slots = (gsize) MAX (t->n_lanes, 1) * depths;
  g_autofree guint32 *inner_op = g_new (guint32, n_slots);
  g_autofree guint32 *inner_module = g_new (guint32, n_slots);

  th->op = g_new (guint32, t->n_spans);
  th->module = g_new (guint32, t->n_spans);
  th->node = g_new0 (Node *, t->n_spans);
  /* Spans come by start, parents first: the last span seen at each depth
   * of a lane encloses what follows at the next depth. */
  for (guint32 i = 0; i < t->n_spans; i++)
    {
      gsize at = (gsize) t->lane[i] * depths + t->depth[i];
      gboolean top = t->depth[i] == 0;

      inner_op[at] = chrono_compare_is_operator (t, i, op_cats) ? i : top ? NONE : inner_op[at - 1];
      th->op[i] = inner_op[at];
      th->module[i] = top ? NONE : inner_module[at - 1];
      inner_module[at] = is_module (trace, t, i) ? i : th->module[i];
    }
  return th;
}

static void
thread_free (Thread *th)
{
  g_free (th->op);
  g_free (th->module);
  g_free (th->node);
  g_free (th);
}

typedef struct {
  ChronoComparisonTree *self;
  guint       side;
  guint       n_used;
  ChronoTrace *trace;
  ChronoArgsText args;
  const ChronoTrack *track;
  Thread     *thread;
  GHashTable *through_op;        /* A only: "operator key\nA's kernel" -> B's kernel name */
} Walk;

/* The node of module frame I (the root for none): within its enclosing
 * frame's node. */
static Node *
module_node (Walk    *w,
             guint32  i)
{
  const char *name;

  if (i == NONE)
    return w->self->root;
  if (w->thread->node[i])
    return w->thread->node[i];
  name = chrono_trace_get_string (w->trace, chrono_track_get_name (w->track, i)) + strlen (MODULE_PREFIX);
  w->thread->node[i] = child_of (module_node (w, w->thread->module[i]), CHRONO_FLAME_MODULE, name, w->n_used);
  if (w->side == 0)
    w->thread->node[i]->pub.a.count++;
  else
    w->thread->node[i]->pub.b.count++;
  return w->thread->node[i];
}

/* The node of operator call I, within its module frame's node. */
static Node *
operator_node (Walk    *w,
               guint32  track,
               guint32  i)
{
  const char *dims = "";
  gsize dims_len = 0;
  g_autoptr(GString) key = g_string_new (NULL);
  Node *n;

  if (w->thread->node[i])
    return w->thread->node[i];
  if (!chrono_compare_input_dims (&w->args, chrono_track_get_args (w->track, i), NULL, 0, &dims, &dims_len))
    dims_len = 0;
  chrono_compare_op_key_append (key, chrono_trace_get_string (w->trace, chrono_track_get_name (w->track, i)), dims, dims_len);
  n = child_of (module_node (w, w->thread->module[i]), CHRONO_FLAME_OPERATOR, key->str, w->n_used);
  w->thread->node[i] = n;
  if (w->side == 0)
    n->pub.a.count++;
  else
    n->pub.b.count++;
  add_span (n, w->side, track, i);
  return n;
}

/* A kernel name under a parent node, on one side. */
typedef struct {
  Node    *parent;
  guint32  name;
} KernelKey;

static guint
kernel_key_hash (gconstpointer key)
{
  const KernelKey *k = key;

  return g_direct_hash (k->parent) ^ (k->name * 2654435761u);
}

static gboolean
kernel_key_equal (gconstpointer a,
                  gconstpointer b)
{
  const KernelKey *x = a, *y = b;

  return x->parent == y->parent && x->name == y->name;
}

static void
walk_side (ChronoComparisonTree *self,
           guint                 side,
           GHashTable           *through_op)
{
  ChronoCompareSideData *s = &self->comparison->side[side];
  ChronoRankData *data = s->data;
  ChronoTrace *trace = data->trace;
  guint n_tracks = chrono_trace_get_n_tracks (trace);
  guint n_used = self->comparison->used->len;
  g_autoptr(GArray) slots = chrono_compare_make_slots (self->comparison, side);
  g_autofree gboolean *op_cats = chrono_compare_operator_categories (data);
  g_autofree Thread **threads = g_new0 (Thread *, n_tracks);
  g_autofree char **normal = g_new0 (char *, chrono_trace_get_n_strings (trace));
  /* Most work repeats a kernel under a node already seen. */
  g_autoptr(GHashTable) kernels = g_hash_table_new_full (kernel_key_hash, kernel_key_equal, g_free, NULL);
  Walk w = { self, side, n_used, trace, { NULL }, NULL, NULL, through_op };

  chrono_args_text_init (&w.args, trace);
  for (guint di = 0; di < data->devices->len; di++)
    {
      ChronoDeviceWork *dev = &g_array_index (data->devices, ChronoDeviceWork, di);

      for (guint k = 0; k < dev->items->len; k++)
        {
          const ChronoWorkItem *it = &g_array_index (dev->items, ChronoWorkItem, k);
          gboolean launched = it->launch_start != G_MININT64;
          gint u = chrono_compare_slot_of (slots, launched ? it->launch_start : it->start, launched);
          guint32 name = chrono_track_get_name (chrono_trace_get_track (trace, it->track), it->index);
          const char *kernel;
          Node *parent = self->root, *n;
          KernelKey key;

          if (u < 0)
            continue;
          if (launched && chrono_rank_data_has_track (data, it->launch_track))
            {
              const ChronoTrack *t = chrono_trace_get_track (trace, it->launch_track);

              if (threads[it->launch_track] == NULL)
                threads[it->launch_track] = thread_new (trace, t, op_cats);
              w.track = t;
              w.thread = threads[it->launch_track];
              if (w.thread->op[it->launch_index] != NONE)
                parent = operator_node (&w, it->launch_track, w.thread->op[it->launch_index]);
              else
                parent = module_node (&w, w.thread->module[it->launch_index]);
            }
          key = (KernelKey) { parent, name };
          if ((n = g_hash_table_lookup (kernels, &key)) == NULL)
            {
              if (normal[name] == NULL)
                normal[name] = chrono_compare_normalise_kernel (chrono_trace_get_string (trace, name));
              kernel = normal[name];
              if (through_op && parent->pub.kind == CHRONO_FLAME_OPERATOR)
                {
                  g_autofree char *op_kernel = g_strdup_printf ("%s\n%s", parent->pub.name, kernel);
                  const char *b_name = g_hash_table_lookup (through_op, op_kernel);

                  if (b_name)
                    kernel = b_name;
                }
              n = child_of (parent, CHRONO_FLAME_KERNEL, kernel, n_used);
              if (kernel != normal[name] && n->pub.a_name == NULL)
                n->pub.a_name = g_strdup (normal[name]);
              g_hash_table_insert (kernels, g_memdup2 (&key, sizeof key), n);
            }
          if (side == 0)
            n->pub.a.count++;
          else
            n->pub.b.count++;
          add_span (n, side, it->track, it->index);
          for (; n; n = (Node *) n->pub.parent)
            n->step_ns[side][u] += it->end - it->start;
        }
    }
  for (guint ti = 0; ti < n_tracks; ti++)
    if (threads[ti])
      thread_free (threads[ti]);
  for (guint i = 0; i < chrono_trace_get_n_strings (trace); i++)
    g_free (normal[i]);
}

/* ------------------------------------------------------------------ */
/* Both sides                                                         */

/* A's kernels matched to B's of another name under the same operator,
 * as the comparison matched them. */
static GHashTable *
kernels_through_operators (ChronoComparison *c)
{
  GHashTable *map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; i < c->kernels->len; i++)
    {
      const ChronoCompareRow *r = c->kernels->pdata[i];

      if (r->match == CHRONO_COMPARE_MATCH_OPERATOR && r->op && r->b.name)
        g_hash_table_insert (map, g_strdup_printf ("%s\n%s", r->op, r->name),
                             chrono_compare_normalise_kernel (r->b.name));
    }
  return map;
}

/* The step's wall time per used pair, and what of it no device work of
 * the step covers (none when the work adds up to more). */
static void
add_rest (ChronoComparisonTree *self)
{
  ChronoComparison *c = self->comparison;
  guint n_used = c->used->len;
  Node *rest = child_of (self->root, CHRONO_FLAME_REST, "(no device work)", n_used);

  for (guint side = 0; side < 2; side++)
    {
      gint64 sum = 0;

      for (guint u = 0; u < n_used; u++)
        {
          const ChronoCompareWindow *w = chrono_comparison_used_window (c, side, u);
          gint64 wall = w->end_ns - w->start_ns, work = self->root->step_ns[side][u];

          sum += wall;
          rest->step_ns[side][u] = MAX (wall - work, 0);
          self->root->step_ns[side][u] += rest->step_ns[side][u];
        }
      self->step_ns[side] = n_used ? (gdouble) sum / n_used : 0;
    }
  rest->pub.a.count = rest->pub.b.count = n_used;
  self->root->pub.a.count = self->root->pub.b.count = n_used;
}

static gint
by_b_time (gconstpointer x,
           gconstpointer y)
{
  const ChronoFlameNode *a = *(ChronoFlameNode * const *) x, *b = *(ChronoFlameNode * const *) y;

  if ((a->kind == CHRONO_FLAME_REST) != (b->kind == CHRONO_FLAME_REST))
    return a->kind == CHRONO_FLAME_REST ? 1 : -1;
  if (a->b.ns_per_step != b->b.ns_per_step)
    return a->b.ns_per_step < b->b.ns_per_step ? 1 : -1;
  if (a->a.ns_per_step != b->a.ns_per_step)
    return a->a.ns_per_step < b->a.ns_per_step ? 1 : -1;
  return strcmp (a->name, b->name);
}

/* Per-step times, delta and noise, with the comparison's statistics. */
static void
finish (Node *n,
        guint n_used)
{
  ChronoFlameNode *p = &n->pub;
  ChronoCompareRow row = { 0 };
  gint64 total[2] = { 0, 0 };

  for (guint k = 0; k < 2; k++)
    for (guint u = 0; u < n_used; u++)
      total[k] += n->step_ns[k][u];
  row.a.device_ns = total[0];
  row.b.device_ns = total[1];
  row.a.step_device_ns = n->step_ns[0];
  row.b.step_device_ns = n->step_ns[1];
  chrono_compare_side_finish (&row.a, NULL, 0, MAX (n_used, 1));
  chrono_compare_side_finish (&row.b, NULL, 0, MAX (n_used, 1));
  chrono_compare_row_finish (&row, n_used);
  p->a.ns_per_step = row.a.device_ns_per_step;
  p->b.ns_per_step = row.b.device_ns_per_step;
  p->delta_ns = row.delta_ns;
  p->delta_percent = row.delta_percent;
  p->noise = row.noise;
  p->ci_low_ns = row.ci_low_ns;
  p->ci_high_ns = row.ci_high_ns;
  p->match = p->a.count == 0 || p->b.count == 0 ? CHRONO_COMPARE_MATCH_NONE
             : p->a_name ? CHRONO_COMPARE_MATCH_OPERATOR : CHRONO_COMPARE_MATCH_NAME;

  if (n->kids)
    {
      p->n_children = n->kids->len;
      for (guint i = 0; i < n->kids->len; i++)
        finish (n->kids->pdata[i], n_used);
      p->children = (ChronoFlameNode **) g_ptr_array_steal (n->kids, NULL);
      qsort (p->children, p->n_children, sizeof *p->children, by_b_time);
      g_clear_pointer (&n->kids, g_ptr_array_unref);
      g_clear_pointer (&n->by_name, g_hash_table_unref);
    }
}

ChronoComparisonTree *
chrono_comparison_tree_new (ChronoComparison *comparison)
{
  ChronoComparisonTree *self;
  guint n_used;

  g_return_val_if_fail (CHRONO_IS_COMPARISON (comparison), NULL);

  self = g_object_new (CHRONO_TYPE_COMPARISON_TREE, NULL);
  self->comparison = g_object_ref (comparison);
  n_used = comparison->used->len;
  self->root = node_new (CHRONO_FLAME_STEP, "step", NULL, n_used);
  if (n_used > 0)
    {
      g_autoptr(GHashTable) through_op = kernels_through_operators (comparison);

      walk_side (self, 1, NULL);
      walk_side (self, 0, through_op);
      add_rest (self);
    }
  finish (self->root, n_used);
  return self;
}

static void
chrono_comparison_tree_finalize (GObject *object)
{
  ChronoComparisonTree *self = CHRONO_COMPARISON_TREE (object);

  node_free (self->root);
  g_clear_object (&self->comparison);
  G_OBJECT_CLASS (chrono_comparison_tree_parent_class)->finalize (object);
}

static void
chrono_comparison_tree_class_init (ChronoComparisonTreeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_comparison_tree_finalize;
}

static void
chrono_comparison_tree_init (ChronoComparisonTree *self)
{
}

ChronoComparison *
chrono_comparison_tree_get_comparison (ChronoComparisonTree *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_TREE (self), NULL);
  return self->comparison;
}

const ChronoFlameNode *
chrono_comparison_tree_get_root (ChronoComparisonTree *self)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_TREE (self), NULL);
  return &self->root->pub;
}

gdouble
chrono_comparison_tree_get_step_ns (ChronoComparisonTree *self,
                                    ChronoCompareSideId   side)
{
  g_return_val_if_fail (CHRONO_IS_COMPARISON_TREE (self), 0);
  return self->step_ns[side == CHRONO_COMPARE_SIDE_B];
}

static void
collect (const Node *n,
         guint       side,
         guint       kinds,
         GArray     *out)
{
  gboolean want = n->pub.kind == CHRONO_FLAME_KERNEL ? (kinds & CHRONO_FLAME_CALLS_DEVICE)
                  : n->pub.kind == CHRONO_FLAME_OPERATOR ? (kinds & CHRONO_FLAME_CALLS_HOST) : FALSE;

  if (want && n->spans[side])
    g_array_append_vals (out, n->spans[side]->data, n->spans[side]->len);
  for (guint i = 0; i < n->pub.n_children; i++)
    collect ((const Node *) n->pub.children[i], side, kinds, out);
}

GArray *
chrono_comparison_tree_collect_calls (ChronoComparisonTree  *self,
                                      const ChronoFlameNode *node,
                                      ChronoCompareSideId    side,
                                      ChronoFlameCalls       calls)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (ChronoSpanRef));

  g_return_val_if_fail (CHRONO_IS_COMPARISON_TREE (self), out);
  g_return_val_if_fail (node != NULL, out);
  collect ((const Node *) node, side == CHRONO_COMPARE_SIDE_B, calls, out);
  return out;
}

/* ------------------------------------------------------------------ */
/* JSON                                                               */

static void
add_side_json (JsonBuilder           *b,
               const char            *member,
               const ChronoFlameSide *s)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_object (b);
  chrono_json_add_int (b, "count", s->count);
  chrono_json_add_int (b, "time_ns_per_step", llround (s->ns_per_step));
  json_builder_end_object (b);
}

static void
add_node_json (JsonBuilder           *b,
               const ChronoFlameNode *n)
{
  json_builder_begin_object (b);
  chrono_json_add_string (b, "kind", chrono_flame_kind_to_string (n->kind));
  chrono_json_add_string (b, "name", n->name);
  if (n->a_name)
    chrono_json_add_string (b, "a_name", n->a_name);
  chrono_json_add_string (b, "match", chrono_compare_match_to_string (n->match));
  if (n->match == CHRONO_COMPARE_MATCH_NONE)
    chrono_json_add_string (b, "only_in", n->a.count > 0 ? "a" : "b");
  add_side_json (b, "a", &n->a);
  add_side_json (b, "b", &n->b);
  chrono_json_add_int (b, "delta_ns", llround (n->delta_ns));
  json_builder_set_member_name (b, "delta_percent");
  if (isnan (n->delta_percent))
    json_builder_add_null_value (b);
  else
    json_builder_add_double_value (b, n->delta_percent);
  json_builder_set_member_name (b, "significant");
  if (n->noise == CHRONO_COMPARE_NOISE_UNKNOWN)
    json_builder_add_null_value (b);
  else
    {
      json_builder_add_boolean_value (b, n->noise == CHRONO_COMPARE_NOISE_BEYOND);
      chrono_json_add_int (b, "ci_low_ns", llround (n->ci_low_ns));
      chrono_json_add_int (b, "ci_high_ns", llround (n->ci_high_ns));
    }
  if (n->n_children > 0)
    {
      json_builder_set_member_name (b, "children");
      json_builder_begin_array (b);
      for (guint i = 0; i < n->n_children; i++)
        add_node_json (b, n->children[i]);
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
}

void
chrono_comparison_tree_add_json (ChronoComparisonTree *self,
                                 JsonBuilder          *builder)
{
  g_return_if_fail (CHRONO_IS_COMPARISON_TREE (self));

  json_builder_set_member_name (builder, "flame");
  json_builder_begin_object (builder);
  chrono_json_add_int (builder, "a_step_ns", llround (self->step_ns[0]));
  chrono_json_add_int (builder, "b_step_ns", llround (self->step_ns[1]));
  json_builder_set_member_name (builder, "root");
  add_node_json (builder, &self->root->pub);
  json_builder_end_object (builder);
}
