/* truth-profile.c: a planted Neuron profile read back with json-glib,
 * and its NeuronCore time ledger computed again from the rows: the Tensor
 * engine's busy time, and each gap charged to the predecessor of the next
 * Tensor instruction that ended last, found through inst_dep_ids and
 * through the semaphore_update rows that satisfied its waits (through a
 * Sync instruction, to that one's own).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "neuron-gen.h"
#include "truth-profile.h"

const char * const states[] = {
  "compute", "transpose", "idle_dma", "idle_vector", "idle_scalar", "idle_gpsimd",
  "idle_collective", "idle_semaphore", "idle_not_queued",
};

JsonArray *
table (Profile    *p,
       const char *key)
{
  return json_object_get_array_member (p->d, key);
}

JsonObject *
row (JsonArray *a,
     guint      i)
{
  return json_array_get_object_element (a, i);
}

gint64
num (JsonObject *o,
     const char *key)
{
  return json_object_get_int_member (o, key);
}

/* "S[12] (owner)" or "$S[12]>=3": 12. */
static guint
sem_number (const char *text)
{
  const char *at = strstr (text, "S[");
  return at ? (guint) g_ascii_strtoull (at + 2, NULL, 10) : 0;
}

static guint
add_activity (Profile *p,
              gint64   start,
              gint64   end,
              guint    cls)
{
  Activity a = { start, end, cls, FALSE, FALSE, FALSE, g_array_new (FALSE, FALSE, sizeof (guint)) };

  g_array_append_val (p->acts, a);
  return p->acts->len - 1;
}

static guint
engine_class (const char *label,
              gboolean   *tensor)
{
  static const struct { const char *label; guint cls; } engines[] = {
    { "Tensor", S_COMPUTE }, { "TensorMatrix", S_COMPUTE }, { "Vector", S_VECTOR },
    { "Scalar", S_SCALAR }, { "GpSimd", S_GPSIMD }, { "Sync", S_SYNC },
  };

  for (guint i = 0; i < G_N_ELEMENTS (engines); i++)
    if (strcmp (engines[i].label, label) == 0)
      {
        *tensor = i < 2;
        return engines[i].cls;
      }
  g_assert_not_reached ();
}

/* The activity that raised semaphore SEM at TS, through the row (instruction
 * update tokens, DMA completion semaphores, CC-core updates at a CcOp's end). */
static void
index_updates (Profile    *p,
               GHashTable *raisers)
{
  JsonArray *insts = table (p, "instruction"), *dmas = table (p, "dma"), *ccs = table (p, "cc_op");
  guint a = 0;

  for (guint i = 0; i < json_array_get_length (insts); i++, a++)
    {
      g_auto(GStrv) tokens = g_strsplit (json_object_get_string_member (row (insts, i), "operands"), " ", -1);

      for (guint k = 0; tokens[k] != NULL; k++)
        if (g_str_has_prefix (tokens[k], "S[") && tokens[k + 1] != NULL && strstr (tokens[k + 1], "++@complete"))
          g_hash_table_insert (raisers, g_strdup_printf ("%u@%" G_GINT64_FORMAT, sem_number (tokens[k]),
                                                         g_array_index (p->acts, Activity, a).end), GUINT_TO_POINTER (a + 1));
    }
  for (guint i = 0; i < json_array_get_length (dmas); i++, a++)
    g_hash_table_insert (raisers, g_strdup_printf ("%u@%" G_GINT64_FORMAT,
                                                   sem_number (json_object_get_string_member (row (dmas, i), "semaphore_id")),
                                                   g_array_index (p->acts, Activity, a).end), GUINT_TO_POINTER (a + 1));
  for (guint i = 0; i < json_array_get_length (ccs); i++, a++)
    {
      JsonArray *ups = table (p, "semaphore_update");

      for (guint u = 0; u < json_array_get_length (ups); u++)
        if (strstr (json_object_get_string_member (row (ups, u), "id"), "(CcCore") &&
            num (row (ups, u), "timestamp") == g_array_index (p->acts, Activity, a).end)
          g_hash_table_insert (raisers, g_strdup_printf ("%u@%" G_GINT64_FORMAT,
                                                         sem_number (json_object_get_string_member (row (ups, u), "id")),
                                                         num (row (ups, u), "timestamp")), GUINT_TO_POINTER (a + 1));
    }
}

/* Each wait "$S[n]>=v" of instruction A: the first semaphore_update row of
 * S[n] at or before A's start with a value of v or more, and what raised it. */
static void
resolve_waits (Profile    *p,
               guint       a,
               const char *operands,
               GHashTable *raisers)
{
  g_auto(GStrv) tokens = g_strsplit (operands, " ", -1);
  JsonArray *ups = table (p, "semaphore_update");
  Activity *act = &g_array_index (p->acts, Activity, a);

  for (guint k = 0; tokens[k] != NULL; k++)
    {
      const char *ge = strstr (tokens[k], ">=");
      guint sem;
      gint64 value, best_ts = G_MAXINT64;

      if (tokens[k][0] != '$' || ge == NULL)
        continue;
      sem = sem_number (tokens[k]);
      value = g_ascii_strtoll (ge + 2, NULL, 10);
      for (guint u = 0; u < json_array_get_length (ups); u++)
        {
          JsonObject *r = row (ups, u);
          gint64 ts = num (r, "timestamp");

          if (sem_number (json_object_get_string_member (r, "id")) == sem && num (r, "value") >= value &&
              ts <= act->start && ts < best_ts)
            best_ts = ts;
        }
      if (best_ts == G_MAXINT64)
        act->unheld = TRUE;
      else
        {
          g_autofree char *key = g_strdup_printf ("%u@%" G_GINT64_FORMAT, sem, best_ts);
          guint raiser = GPOINTER_TO_UINT (g_hash_table_lookup (raisers, key));

          g_assert_cmpuint (raiser, >, 0);
          raiser--;
          g_array_append_val (act->preds, raiser);
        }
    }
}

/* Every instruction, transfer and collective as an activity, in that
 * order, with its predecessors. */
static void
read_activities (Profile *p)
{
  JsonArray *insts = table (p, "instruction"), *dmas = table (p, "dma");
  JsonArray *ccs = table (p, "cc_op"), *cci = table (p, "cc_instruction");
  g_autoptr(GHashTable) ids = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GHashTable) raisers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree gint64 *id_keys = g_new (gint64, json_array_get_length (insts));

  for (guint i = 0; i < json_array_get_length (insts); i++)
    {
      JsonObject *r = row (insts, i);
      gboolean tensor;
      guint cls = engine_class (json_object_get_string_member (r, "label"), &tensor);
      guint a = add_activity (p, num (r, "timestamp"), num (r, "timestamp") + num (r, "duration"), cls);
      Activity *act = &g_array_index (p->acts, Activity, a);

      act->tensor = tensor;
      act->transpose = tensor && g_strcmp0 (json_object_get_string_member_with_default (r, "tensor_instruction_type", ""),
                                            "TRANSPOSE") == 0;
      if (act->transpose)
        act->cls = S_TRANSPOSE;
      id_keys[i] = num (r, "id");
      g_hash_table_insert (ids, &id_keys[i], GUINT_TO_POINTER (a + 1));
    }
  for (guint i = 0; i < json_array_get_length (dmas); i++)
    add_activity (p, num (row (dmas, i), "timestamp"),
                  num (row (dmas, i), "timestamp") + num (row (dmas, i), "duration"), S_DMA);
  for (guint i = 0; i < json_array_get_length (ccs); i++)
    add_activity (p, num (row (ccs, i), "start_ts"), num (row (ccs, i), "end_ts"), S_COLLECTIVE);
  index_updates (p, raisers);
  for (guint i = 0; i < json_array_get_length (cci); i++)
    add_activity (p, num (row (cci, i), "start_ts"), num (row (cci, i), "end_ts"), S_COLLECTIVE);

  for (guint i = 0; i < json_array_get_length (insts); i++)
    {
      JsonObject *r = row (insts, i);
      JsonArray *deps = json_object_get_array_member (r, "inst_dep_ids");

      for (guint k = 0; k < json_array_get_length (deps); k++)
        {
          /* Ids above 2^63 read wrapped: the same 64 bits as the signed id. */
          gint64 dep = json_array_get_int_element (deps, k);
          guint pred = GPOINTER_TO_UINT (g_hash_table_lookup (ids, &dep));

          g_assert_cmpuint (pred, >, 0);
          pred--;
          g_array_append_val (g_array_index (p->acts, Activity, i).preds, pred);
        }
      resolve_waits (p, i, json_object_get_string_member (r, "operands"), raisers);
    }
}

/* The predecessor of A that ended last; none ended after G0 gives -1.
 * Two that end together must be of one class, or the charge is ambiguous. */
static gint
held_by (Profile *p,
         guint    a,
         gint64   g0)
{
  const Activity *act = &g_array_index (p->acts, Activity, a);
  gint best = -1;

  for (guint k = 0; k < act->preds->len; k++)
    {
      guint q = g_array_index (act->preds, guint, k);
      const Activity *pred = &g_array_index (p->acts, Activity, q);

      if (best >= 0 && pred->end == g_array_index (p->acts, Activity, best).end)
        g_assert_cmpuint (pred->cls, ==, g_array_index (p->acts, Activity, best).cls);
      if (best < 0 || pred->end > g_array_index (p->acts, Activity, best).end)
        best = (gint) q;
    }
  return best >= 0 && g_array_index (p->acts, Activity, best).end > g0 ? best : -1;
}

static guint
classify (Profile *p,
          guint    a,
          gint64   g0)
{
  gint h = held_by (p, a, g0);

  if (h < 0)
    return g_array_index (p->acts, Activity, a).unheld ? S_SEMAPHORE : S_NOT_QUEUED;
  /* Sync passes on what it waited for. */
  while (g_array_index (p->acts, Activity, h).cls == S_SYNC)
    {
      h = held_by (p, (guint) h, G_MININT64);
      g_assert_cmpint (h, >=, 0);
    }
  return g_array_index (p->acts, Activity, h).cls;
}

/* [A, B) in STATE, to LEDGER and, with PHASES, to the phases it overlaps. */
static void
charge (Profile  *p,
        gint64   *ledger,
        gboolean  phases_too,
        gint64    a,
        gint64    b,
        guint     state)
{
  JsonArray *phases = json_object_get_array_member (p->t, "phases");

  ledger[state] += b - a;
  for (guint i = 0; phases_too && i < json_array_get_length (phases); i++)
    {
      gint64 s = MAX (a, num (row (phases, i), "start_ns")), e = MIN (b, num (row (phases, i), "end_ns"));

      if (e > s)
        g_array_index (p->phases, gint64, i * N_STATES + state) += e - s;
    }
}

typedef struct {
  gint64 t;
  gint   delta;
  guint  act;
} Edge;

static gint
compare_edges (gconstpointer x,
               gconstpointer y)
{
  const Edge *a = x, *b = y;

  if (a->t != b->t)
    return a->t < b->t ? -1 : 1;
  return a->delta - b->delta;
}

/* The ledger of the window [WS, WE) into LEDGER, by a sweep over the Tensor
 * instructions in it; an execution's is charged to its phases too, and the
 * whole profile's busy intervals kept. */
static void
compute_ledger (Profile  *p,
                gint64    ws,
                gint64    we,
                gint64   *ledger,
                gboolean  execution)
{
  g_autoptr(GArray) edges = g_array_new (FALSE, FALSE, sizeof (Edge));
  gint64 cursor = ws, last_end = G_MININT64;
  gint regular = 0, transposes = 0;
  guint last = 0;

  for (guint a = 0; a < p->acts->len; a++)
    {
      const Activity *act = &g_array_index (p->acts, Activity, a);
      Edge s = { act->start, +1, a }, e = { act->end, -1, a };

      if (act->start < ws || act->end > we)
        continue;
      if (act->end > last_end)
        {
          last_end = act->end;
          last = a;
        }
      if (!act->tensor)
        continue;
      g_array_append_val (edges, s);
      g_array_append_val (edges, e);
    }
  g_array_sort (edges, compare_edges);
  for (guint i = 0; i < edges->len; i++)
    {
      const Edge *e = &g_array_index (edges, Edge, i);
      const Activity *act = &g_array_index (p->acts, Activity, e->act);

      if (e->t > cursor)
        {
          if (regular > 0)
            charge (p, ledger, execution, cursor, e->t, S_COMPUTE);
          else if (transposes > 0)
            charge (p, ledger, execution, cursor, e->t, S_TRANSPOSE);
          else
            {
              g_assert_cmpint (e->delta, ==, +1);
              charge (p, ledger, execution, cursor, e->t, classify (p, e->act, cursor));
            }
          if (!execution && regular + transposes > 0)
            {
              gint64 span[2] = { cursor, e->t };
              g_array_append_vals (p->busy, span, 2);
            }
          cursor = e->t;
        }
      if (act->transpose)
        transposes += e->delta;
      else
        regular += e->delta;
    }
  g_assert_cmpint (last_end, ==, we);
  if (we > cursor)
    {
      guint cls = g_array_index (p->acts, Activity, last).cls;
      charge (p, ledger, execution, cursor, we, cls == S_SYNC ? classify (p, last, G_MININT64) : cls);
    }
}

void
profile_load (Profile    *p,
              const char *plant,
              const char *instance,
              guint       steps,
              guint       n_executions,
              guint64     target_bytes)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *device = NULL, *truth = NULL, *system = NULL;
  g_autoptr(JsonParser) sys_parser = json_parser_new ();
  JsonArray *phases, *events, *execs;
  guint executions = 0;
  NeuronGenOptions o;
  NeuronGenCounts c;

  memset (p, 0, sizeof *p);
  p->dir = g_dir_make_tmp ("neuron-truth-XXXXXX", &error);
  g_assert_no_error (error);
  device = g_build_filename (p->dir, "device_profile_model_1.json", NULL);
  truth = g_build_filename (p->dir, "truth.json", NULL);
  neuron_gen_options_init (&o);
  o.plant = plant;
  o.instance = instance;
  o.plant_steps = steps;
  o.target_bytes = target_bytes;
  o.plant_executions = n_executions;
  g_assert_true (neuron_gen_write_device (device, &o, &c, &error));
  g_assert_no_error (error);
  g_assert_true (neuron_gen_write_truth (truth, &o, &error));
  g_assert_no_error (error);
  system = g_build_filename (p->dir, "system_profile.json", NULL);
  g_assert_true (neuron_gen_write_system (system, &o, &c, &error));
  g_assert_no_error (error);

  p->device = json_parser_new ();
  g_assert_true (json_parser_load_from_file (p->device, device, &error));
  g_assert_no_error (error);
  p->truth = json_parser_new ();
  g_assert_true (json_parser_load_from_file (p->truth, truth, &error));
  g_assert_no_error (error);
  p->d = json_node_get_object (json_parser_get_root (p->device));
  p->t = json_node_get_object (json_parser_get_root (p->truth));
  g_assert_cmpuint (json_array_get_length (table (p, "instruction")), ==, c.instructions);
  g_assert_cmpuint (json_array_get_length (table (p, "dma")), ==, c.dma);

  /* The window runs from the first execution's start to the last one's end. */
  execs = table (p, "execution_info");
  g_assert_cmpuint (json_array_get_length (execs), ==, MAX (n_executions, 1));
  p->ws = num (row (execs, 0), "execution_start_ts");
  p->we = num (row (execs, json_array_get_length (execs) - 1), "execution_end_ts");
  g_assert_cmpint (p->ws, ==, num (json_object_get_object_member (p->t, "window"), "start_ns"));
  g_assert_cmpint (p->we, ==, num (json_object_get_object_member (p->t, "window"), "end_ns"));
  /* The system profile runs this core once per execution, over its window. */
  g_assert_true (json_parser_load_from_file (sys_parser, system, &error));
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (sys_parser)), "trace_events");
  for (guint i = 0; i < json_array_get_length (events); i++)
    if (g_strcmp0 (json_object_get_string_member (row (events, i), "name"), "nc_exec_running") == 0 &&
        num (row (events, i), "nc_idx") == 0)
      {
        JsonObject *exec = row (execs, executions++);

        g_assert_cmpint (num (row (events, i), "timestamp") - o.host_start_ns, ==, num (exec, "execution_start_ts"));
        g_assert_cmpint (num (row (events, i), "duration"), ==,
                         num (exec, "execution_end_ts") - num (exec, "execution_start_ts"));
      }
  g_assert_cmpuint (executions, ==, json_array_get_length (execs));

  phases = json_object_get_array_member (p->t, "phases");
  p->phases = g_array_new (FALSE, TRUE, sizeof (gint64));
  g_array_set_size (p->phases, json_array_get_length (phases) * N_STATES);
  p->acts = g_array_new (FALSE, FALSE, sizeof (Activity));
  p->busy = g_array_new (FALSE, FALSE, sizeof (gint64));
  read_activities (p);
  compute_ledger (p, p->ws, p->we, p->ledger, FALSE);
  p->exec_ledgers = g_array_new (FALSE, TRUE, sizeof (gint64));
  g_array_set_size (p->exec_ledgers, json_array_get_length (execs) * N_STATES);
  for (guint i = 0; i < json_array_get_length (execs); i++)
    compute_ledger (p, num (row (execs, i), "execution_start_ts"), num (row (execs, i), "execution_end_ts"),
                    &g_array_index (p->exec_ledgers, gint64, i * N_STATES), TRUE);
}

void
profile_clear (Profile *p)
{
  g_autoptr(GFile) dir = g_file_new_for_path (p->dir);
  g_autoptr(GFileEnumerator) children = NULL;

  for (guint a = 0; a < p->acts->len; a++)
    g_array_unref (g_array_index (p->acts, Activity, a).preds);
  g_array_unref (p->acts);
  g_array_unref (p->phases);
  g_array_unref (p->exec_ledgers);
  g_array_unref (p->busy);
  g_object_unref (p->device);
  g_object_unref (p->truth);
  children = g_file_enumerate_children (dir, G_FILE_ATTRIBUTE_STANDARD_NAME, G_FILE_QUERY_INFO_NONE, NULL, NULL);
  for (GFileInfo *info; children && (info = g_file_enumerator_next_file (children, NULL, NULL)) != NULL;)
    {
      g_autoptr(GFileInfo) owned = info;
      g_autoptr(GFile) child = g_file_get_child (dir, g_file_info_get_name (info));
      g_autofree char *path = g_file_get_path (child);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          g_autoptr(GDir) sub = g_dir_open (path, 0, NULL);
          for (const char *n; sub && (n = g_dir_read_name (sub)) != NULL;)
            {
              g_autofree char *leaf = g_build_filename (path, n, NULL);
              g_unlink (leaf);
            }
        }
      g_remove (path);
    }
  g_rmdir (p->dir);
  g_free (p->dir);
}
