/* chrono-perfetto-tracks.c: sequences, the track tree and its processes, and
 * the rows and names the tracks become
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-perfetto-private.h"

/* -------------------------------------------------------------------- */
/* Sequences, tracks, processes                                         */

void
chrono_perfetto_sequence_free (Sequence *seq)
{
  for (guint i = 0; i < N_INTERN; i++)
    g_hash_table_unref (seq->interned[i]);
  g_array_unref (seq->extra_counters);
  g_array_unref (seq->extra_double_counters);
  g_free (seq);
}

/* What SEQUENCE_INCREMENTAL_STATE_CLEARED resets. */
void
chrono_perfetto_sequence_clear (Sequence *seq)
{
  for (guint i = 0; i < N_INTERN; i++)
    g_hash_table_remove_all (seq->interned[i]);
  seq->has_default_track = FALSE;
  seq->has_default_clock = FALSE;
  g_array_set_size (seq->extra_counters, 0);
  g_array_set_size (seq->extra_double_counters, 0);
}

Sequence *
chrono_perfetto_sequence_for (Importer *imp,
                              guint32   id)
{
  Sequence *seq = g_hash_table_lookup (imp->sequences, GUINT_TO_POINTER (id));

  if (seq != NULL)
    return seq;
  seq = g_new0 (Sequence, 1);
  seq->id = id;
  for (guint i = 0; i < N_INTERN; i++)
    seq->interned[i] = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  seq->extra_counters = g_array_new (FALSE, FALSE, sizeof (guint64));
  seq->extra_double_counters = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_hash_table_insert (imp->sequences, GUINT_TO_POINTER (id), seq);
  return seq;
}

/* The interned string IID of TABLE, or CHRONO_NO_STRING (and counted)
 * when the sequence never defined it. */
guint32
chrono_perfetto_lookup_interned (Importer *imp,
                                 Sequence *seq,
                                 guint     table,
                                 guint64   iid)
{
  gpointer found = g_hash_table_lookup (seq->interned[table], &iid);

  if (found == NULL)
    {
      imp->unknown_iids++;
      return CHRONO_NO_STRING;
    }
  return GPOINTER_TO_UINT (found) - 1;
}

Track *
chrono_perfetto_track_new (Importer *imp)
{
  Track *t = g_new0 (Track, 1);

  t->unit_multiplier = 1;
  t->order = imp->track_list->len;
  g_ptr_array_add (imp->track_list, t);
  return t;
}

Track *
chrono_perfetto_track_for_uuid (Importer *imp,
                                guint64   uuid)
{
  Track *t = g_hash_table_lookup (imp->tracks, &uuid);

  if (t == NULL)
    {
      t = chrono_perfetto_track_new (imp);
      t->uuid = uuid;
      g_hash_table_insert (imp->tracks, &t->uuid, t);
    }
  return t;
}

/* Builders are made before the descriptors are all known: their keys
 * are set once the pass is over (chrono_perfetto_resolve_tracks). */
static ChronoTrackBuilder *
new_builder (Importer *imp)
{
  ChronoTrackKey key = { 0, CHRONO_TRACK_THREAD, { 0, FALSE } };
  ChronoId pid = { 0, FALSE };
  ChronoTrackBuilder *b = chrono_track_builder_new (&key, pid);

  g_ptr_array_add (imp->builders, b);
  return b;
}

ChronoTrackBuilder *
chrono_perfetto_slices_of (Importer *imp,
                           Track    *t)
{
  if (t->slices == NULL)
    t->slices = new_builder (imp);
  return t->slices;
}

ChronoTrackBuilder *
chrono_perfetto_counter_of (Importer *imp,
                            Track    *t)
{
  if (t->counter == NULL)
    t->counter = new_builder (imp);
  return t->counter;
}

/* The process of PID; a string PID (a group of tracks) is always new. */
static guint
process_for (Importer *imp,
             ChronoId  pid,
             guint32   name)
{
  gint64 key = pid.value;
  gpointer found = pid.is_string ? NULL : g_hash_table_lookup (imp->processes, &key);
  ChronoProcess process = { 0 };

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  process.pid = pid;
  process.name = name;
  process.device_index = -1;
  g_array_append_val (imp->trace->processes, process);
  if (!pid.is_string)
    g_hash_table_insert (imp->processes, g_memdup2 (&key, sizeof key),
                         GUINT_TO_POINTER (imp->trace->processes->len));
  return imp->trace->processes->len - 1;
}

guint32
chrono_perfetto_process_name (Importer *imp,
                              gint64    pid)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (imp->process_names, &pid));
}

void
chrono_perfetto_set_process_name (Importer *imp,
                                  gint64    pid,
                                  guint32   name)
{
  if (name != CHRONO_NO_STRING)
    g_hash_table_insert (imp->process_names, g_memdup2 (&pid, sizeof pid), GUINT_TO_POINTER (name));
}

static Track *
parent_of (Importer    *imp,
           const Track *t)
{
  return t->has_parent ? g_hash_table_lookup (imp->tracks, &t->parent) : NULL;
}

/* Depth-first ranks, children in the order they were first seen: the
 * rows come out in the order of the track tree. */
static void
rank_tracks (Importer *imp)
{
  guint n = imp->track_list->len;
  g_autofree guint32 *first_child = g_new (guint32, n);
  g_autofree guint32 *next_sibling = g_new (guint32, n);
  g_autofree guint32 *last_child = g_new (guint32, n);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 rank = 0;

  for (guint i = 0; i < n; i++)
    first_child[i] = next_sibling[i] = last_child[i] = G_MAXUINT32;
  for (guint i = 0; i < n; i++)
    {
      Track *t = g_ptr_array_index (imp->track_list, i);
      Track *p = parent_of (imp, t);

      t->rank = G_MAXUINT32;
      if (p == NULL || p == t)
        continue;
      if (last_child[p->order] == G_MAXUINT32)
        first_child[p->order] = i;
      else
        next_sibling[last_child[p->order]] = i;
      last_child[p->order] = i;
    }
  for (guint root = 0; root < n; root++)
    {
      Track *r = g_ptr_array_index (imp->track_list, root);
      Track *p = parent_of (imp, r);

      if (p != NULL && p != r)
        continue;
      g_array_append_val (stack, root);
      while (stack->len > 0)
        {
          guint32 i = g_array_index (stack, guint32, stack->len - 1);
          Track *t = g_ptr_array_index (imp->track_list, i);

          g_array_set_size (stack, stack->len - 1);
          if (t->rank != G_MAXUINT32)
            continue;
          t->rank = rank++;
          /* Push the children last first, so that the first comes out first. */
          {
            guint mark = stack->len;

            for (guint32 c = first_child[i]; c != G_MAXUINT32; c = next_sibling[c])
              g_array_append_val (stack, c);
            for (guint a = mark, b = stack->len; b > a + 1; a++, b--)
              {
                guint32 tmp = g_array_index (stack, guint32, a);
                g_array_index (stack, guint32, a) = g_array_index (stack, guint32, b - 1);
                g_array_index (stack, guint32, b - 1) = tmp;
              }
          }
        }
    }
  /* Tracks on a parent cycle have no root: they go last. */
  for (guint i = 0; i < n; i++)
    {
      Track *t = g_ptr_array_index (imp->track_list, i);
      if (t->rank == G_MAXUINT32)
        t->rank = rank++;
    }
}

static void
set_builder_key (ChronoTrackBuilder *b,
                 guint               process,
                 ChronoId            pid,
                 ChronoTrackType     type,
                 ChronoId            tid,
                 guint32             name)
{
  b->key.process = process;
  b->key.type = type;
  b->key.tid = tid;
  b->pid = pid;
  b->track.process = process;
  b->track.type = type;
  b->track.tid = tid;
  b->track.name = name;
}

/* Gives each track with data its process, type and name: a thread track
 * belongs to its thread's process; any other track to the process or
 * thread it nests under, named after its parent below that; tracks under
 * no process form a group named after their root track. */
static void
resolve_track (Importer *imp,
               Track    *t)
{
  g_autoptr(GPtrArray) path = g_ptr_array_new ();
  Track *owner = NULL;
  Track *root = t;
  GString *name = imp->scratch;
  ChronoId pid;
  guint process;
  guint32 name_id;
  ChronoId tid = { (gint64) t->uuid, FALSE };

  for (Track *a = t; a != NULL && path->len < MAX_TRACK_DEPTH; a = parent_of (imp, a))
    {
      if (a->has_thread || a->has_process)
        {
          owner = a;
          break;
        }
      g_ptr_array_add (path, a);
      root = a;
      if (parent_of (imp, a) == a)
        break;
    }

  if (owner != NULL)
    {
      pid = (ChronoId) { owner->pid, FALSE };
      process = process_for (imp, pid, chrono_perfetto_process_name (imp, owner->pid));
    }
  else
    {
      /* A group of its own, named after its root (the last on the path). */
      const char *root_name = chrono_string_table_get (imp->trace->strings, root->name);
      g_autofree char *text = *root_name ? g_strdup (root_name)
                                         : g_strdup_printf ("Track %" G_GUINT64_FORMAT, root->uuid);
      guint32 id = chrono_string_table_intern (imp->trace->strings, text, strlen (text));

      pid = (ChronoId) { id, TRUE };
      if (root->group == 0)
        root->group = process_for (imp, pid, id) + 1;
      process = root->group - 1;
      /* The root's own events are named by it; its descendants below it. */
      if (path->len > 1)
        g_ptr_array_set_size (path, path->len - 1);
    }

  /* The track's name after its parent's: the end of a deep path is what
   * tells rows apart in a narrow column. */
  g_string_truncate (name, 0);
  for (guint i = MIN (path->len, 2); i > 0; i--)
    {
      const Track *a = g_ptr_array_index (path, i - 1);
      const char *part = chrono_string_table_get (imp->trace->strings, a->name);

      if (!*part)
        continue;
      if (name->len > 0)
        g_string_append (name, " › ");
      g_string_append (name, part);
    }
  if (t == owner && t->has_thread)
    {
      /* The thread's own track. */
      name_id = t->name;
      tid = (ChronoId) { t->tid, FALSE };
    }
  else if (name->len == 0 && t == owner)
    name_id = chrono_string_table_intern (imp->trace->strings, "Process events", 14);
  else
    name_id = chrono_string_table_intern (imp->trace->strings, name->str, name->len);

  if (t->slices != NULL)
    set_builder_key (t->slices, process, pid,
                     t == owner && t->has_thread ? CHRONO_TRACK_THREAD : CHRONO_TRACK_ASYNC,
                     tid, name_id);
  if (t->counter != NULL)
    {
      ChronoId cid = { (gint64) t->uuid, FALSE };
      set_builder_key (t->counter, process, pid, CHRONO_TRACK_COUNTER, cid,
                       name_id != CHRONO_NO_STRING ? name_id : t->name);
    }
}

static gint
compare_rank (gconstpointer a,
              gconstpointer b)
{
  const Track *x = *(Track * const *) a;
  const Track *y = *(Track * const *) b;

  return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Processes and rows in the order of the track tree. */
void
chrono_perfetto_resolve_tracks (Importer *imp)
{
  g_autoptr(GPtrArray) by_rank = g_ptr_array_sized_new (imp->track_list->len);
  guint n = 0;

  rank_tracks (imp);
  for (guint i = 0; i < imp->track_list->len; i++)
    g_ptr_array_add (by_rank, g_ptr_array_index (imp->track_list, i));
  g_ptr_array_sort (by_rank, compare_rank);
  for (guint i = 0; i < by_rank->len; i++)
    {
      Track *t = g_ptr_array_index (by_rank, i);

      if (t->slices == NULL && t->counter == NULL)
        continue;
      resolve_track (imp, t);
      if (t->slices != NULL)
        imp->builders->pdata[n++] = t->slices;
      if (t->counter != NULL)
        imp->builders->pdata[n++] = t->counter;
    }
  g_assert (n == imp->builders->len);
}
