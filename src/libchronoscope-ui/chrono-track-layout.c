/* chrono-track-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-track-keys.h"
#include "chrono-track-layout.h"

enum {
  PINNED = 1 << 0,
  HIDDEN = 1 << 1,
  EXPANDED = 1 << 2,  /* a host track showing all its rows */
};

struct _ChronoTrackLayout
{
  GObject      parent_instance;

  ChronoTrace *trace;
  guint        n_tracks;
  guint       *order;
  guint       *default_order;
  guint8      *flags;
  GArray      *pinned;        /* guint */
  guint        n_hidden;
  char       **keys;          /* track -> name in the sidecar */
  GHashTable  *tracks_by_key; /* key -> track + 1 */
  guint        n_processes;
  gboolean    *collapsed;     /* process -> collapsed */
  gboolean    *counter_hidden; /* process -> its derived counter hidden, counted in n_hidden */
  guint        n_collapsed;
  char       **process_keys;  /* process -> name in the sidecar */
  GHashTable  *processes_by_key; /* key -> process + 1 */
};

G_DEFINE_FINAL_TYPE (ChronoTrackLayout, chrono_track_layout, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
chrono_track_layout_finalize (GObject *object)
{
  ChronoTrackLayout *self = CHRONO_TRACK_LAYOUT (object);

  g_clear_object (&self->trace);
  g_free (self->order);
  g_free (self->default_order);
  g_free (self->flags);
  g_clear_pointer (&self->pinned, g_array_unref);
  g_strfreev (self->keys);
  g_clear_pointer (&self->tracks_by_key, g_hash_table_unref);
  g_free (self->collapsed);
  g_free (self->counter_hidden);
  g_strfreev (self->process_keys);
  g_clear_pointer (&self->processes_by_key, g_hash_table_unref);

  G_OBJECT_CLASS (chrono_track_layout_parent_class)->finalize (object);
}

static void
chrono_track_layout_class_init (ChronoTrackLayoutClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_track_layout_finalize;

  /* Any change of order, pins, hidden tracks or collapsed processes. */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
chrono_track_layout_init (ChronoTrackLayout *self)
{
  self->pinned = g_array_new (FALSE, FALSE, sizeof (guint));
}

/* What names a track across loads: its process, thread and name, not its
 * position; a process, its pid and name. */
static void
build_keys (ChronoTrackLayout *self)
{
  self->keys = chrono_track_keys_new (self->trace);
  self->tracks_by_key = g_hash_table_new (g_str_hash, g_str_equal);
  self->process_keys = chrono_process_keys_new (self->trace);
  self->processes_by_key = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint p = 0; p < self->n_processes; p++)
    g_hash_table_insert (self->processes_by_key, self->process_keys[p], GUINT_TO_POINTER (p + 1));
  for (guint t = 0; t < self->n_tracks; t++)
    g_hash_table_insert (self->tracks_by_key, self->keys[t], GUINT_TO_POINTER (t + 1));
}

static gboolean
is_device_track (ChronoTrace *trace,
                 guint        track)
{
  return chrono_trace_get_process (trace, chrono_trace_get_track (trace, track)->process)->is_device;
}

/* The trace's order, with the tracks of devices (GPUs, NeuronCores, DMA
 * queues) before those of host processes, each in its own order: a host
 * with many threads must not push the devices off the first screen. */
static guint *
dup_default_order (ChronoTrace *trace,
                   guint       *n_tracks)
{
  g_autofree guint *order = chrono_trace_dup_track_order (trace, n_tracks);
  guint *devices_first = g_new (guint, MAX (*n_tracks, 1));
  guint n = 0;

  for (int device = 1; device >= 0; device--)
    for (guint i = 0; i < *n_tracks; i++)
      if (is_device_track (trace, order[i]) == device)
        devices_first[n++] = order[i];
  return devices_first;
}

ChronoTrackLayout *
chrono_track_layout_new (ChronoTrace *trace)
{
  ChronoTrackLayout *self;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);

  self = g_object_new (CHRONO_TYPE_TRACK_LAYOUT, NULL);
  self->trace = g_object_ref (trace);
  self->default_order = dup_default_order (trace, &self->n_tracks);
  self->order = g_memdup2 (self->default_order, sizeof (guint) * MAX (self->n_tracks, 1));
  self->flags = g_new0 (guint8, MAX (self->n_tracks, 1));
  self->n_processes = chrono_trace_get_n_processes (trace);
  self->collapsed = g_new0 (gboolean, MAX (self->n_processes, 1));
  self->counter_hidden = g_new0 (gboolean, MAX (self->n_processes, 1));
  build_keys (self);
  return self;
}

ChronoTrace *
chrono_track_layout_get_trace (ChronoTrackLayout *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (self), NULL);
  return self->trace;
}

const guint *
chrono_track_layout_get_order (ChronoTrackLayout *self,
                               guint             *n_tracks)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (self), NULL);

  if (n_tracks != NULL)
    *n_tracks = self->n_tracks;
  return self->order;
}

const guint *
chrono_track_layout_get_pinned (ChronoTrackLayout *self,
                                guint             *n_tracks)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (self), NULL);

  if (n_tracks != NULL)
    *n_tracks = self->pinned->len;
  return (const guint *) (gpointer) self->pinned->data;
}

/* Sets or clears FLAG of TRACK; FALSE when it was so already. */
static gboolean
set_flag (ChronoTrackLayout *self,
          guint              track,
          guint8             flag,
          gboolean           value)
{
  if (value == ((self->flags[track] & flag) != 0))
    return FALSE;
  if (value)
    self->flags[track] |= flag;
  else
    self->flags[track] &= ~flag;
  return TRUE;
}

static gboolean
set_pinned (ChronoTrackLayout *self,
            guint              track,
            gboolean           pinned)
{
  if (!set_flag (self, track, PINNED, pinned))
    return FALSE;
  if (pinned)
    g_array_append_val (self->pinned, track);
  else
    for (guint i = 0; i < self->pinned->len; i++)
      if (g_array_index (self->pinned, guint, i) == track)
        {
          g_array_remove_index (self->pinned, i);
          break;
        }
  return TRUE;
}

static gboolean
set_hidden (ChronoTrackLayout *self,
            guint              track,
            gboolean           hidden)
{
  if (!set_flag (self, track, HIDDEN, hidden))
    return FALSE;
  if (hidden)
    self->n_hidden++;
  else
    self->n_hidden--;
  return TRUE;
}

gboolean
chrono_track_layout_is_pinned (ChronoTrackLayout *self,
                               guint              track)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (self), FALSE);
  g_return_val_if_fail (track < self->n_tracks, FALSE);

  return (self->flags[track] & PINNED) != 0;
}

void
chrono_track_layout_set_pinned (ChronoTrackLayout *self,
                                guint              track,
                                gboolean           pinned)
{
  g_return_if_fail (CHRONO_IS_TRACK_LAYOUT (self));
  g_return_if_fail (track < self->n_tracks);

  if (set_pinned (self, track, !!pinned))
    g_signal_emit (self, signals[CHANGED], 0);
}

gboolean
chrono_track_layout_is_hidden (ChronoTrackLayout *self,
                               guint              track)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (self), FALSE);
  g_return_val_if_fail (track < self->n_tracks, FALSE);

  return (self->flags[track] & HIDDEN) != 0;
}

void
chrono_track_layout_set_hidden (ChronoTrackLayout *self,
                                guint              track,
                                gboolean           hidden)
{
  g_return_if_fail (CHRONO_IS_TRACK_LAYOUT (self));
  g_return_if_fail (track < self->n_tracks);

  if (set_hidden (self, track, !!hidden))
    g_signal_emit (self, signals[CHANGED], 0);
}

guint
chrono_track_layout_get_n_hidden (ChronoTrackLayout *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (self), 0);
  return self->n_hidden;
}

static gboolean
set_counter_hidden (ChronoTrackLayout *self,
                    guint              process,
                    gboolean           hidden)
{
  if (self->counter_hidden[process] == hidden)
    return FALSE;
  self->counter_hidden[process] = hidden;
  if (hidden)
    self->n_hidden++;
  else
    self->n_hidden--;
  return TRUE;
}

gboolean
chrono_track_layout_is_counter_hidden (ChronoTrackLayout *self,
                                       guint              process)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (self), FALSE);
  g_return_val_if_fail (process < self->n_processes, FALSE);

  return self->counter_hidden[process];
}

void
chrono_track_layout_set_counter_hidden (ChronoTrackLayout *self,
                                        guint              process,
                                        gboolean           hidden)
{
  g_return_if_fail (CHRONO_IS_TRACK_LAYOUT (self));
  g_return_if_fail (process < self->n_processes);

  if (set_counter_hidden (self, process, !!hidden))
    g_signal_emit (self, signals[CHANGED], 0);
}

void
chrono_track_layout_show_all (ChronoTrackLayout *self)
{
  g_return_if_fail (CHRONO_IS_TRACK_LAYOUT (self));

  if (self->n_hidden == 0)
    return;
  for (guint t = 0; t < self->n_tracks; t++)
    set_hidden (self, t, FALSE);
  for (guint p = 0; p < self->n_processes; p++)
    set_counter_hidden (self, p, FALSE);
  g_signal_emit (self, signals[CHANGED], 0);
}

guint
chrono_track_layout_get_max_rows (ChronoTrackLayout *self,
                                  guint              track)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (self), G_MAXUINT);
  g_return_val_if_fail (track < self->n_tracks, G_MAXUINT);

  if (self->flags[track] & EXPANDED || is_device_track (self->trace, track))
    return G_MAXUINT;
  return CHRONO_TRACK_LAYOUT_CAPPED_ROWS;
}

gboolean
chrono_track_layout_is_expanded (ChronoTrackLayout *self,
                                 guint              track)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (self), FALSE);
  g_return_val_if_fail (track < self->n_tracks, FALSE);

  return (self->flags[track] & EXPANDED) != 0;
}

void
chrono_track_layout_set_expanded (ChronoTrackLayout *self,
                                  guint              track,
                                  gboolean           expanded)
{
  g_return_if_fail (CHRONO_IS_TRACK_LAYOUT (self));
  g_return_if_fail (track < self->n_tracks);

  if (set_flag (self, track, EXPANDED, !!expanded))
    g_signal_emit (self, signals[CHANGED], 0);
}

static gboolean
set_collapsed (ChronoTrackLayout *self,
               guint              process,
               gboolean           collapsed)
{
  if (self->collapsed[process] == collapsed)
    return FALSE;
  self->collapsed[process] = collapsed;
  if (collapsed)
    self->n_collapsed++;
  else
    self->n_collapsed--;
  return TRUE;
}

gboolean
chrono_track_layout_is_collapsed (ChronoTrackLayout *self,
                                  guint              process)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (self), FALSE);
  g_return_val_if_fail (process < self->n_processes, FALSE);

  return self->collapsed[process];
}

void
chrono_track_layout_set_collapsed (ChronoTrackLayout *self,
                                   guint              process,
                                   gboolean           collapsed)
{
  g_return_if_fail (CHRONO_IS_TRACK_LAYOUT (self));
  g_return_if_fail (process < self->n_processes);

  if (set_collapsed (self, process, !!collapsed))
    g_signal_emit (self, signals[CHANGED], 0);
}

void
chrono_track_layout_set_all_collapsed (ChronoTrackLayout *self,
                                       gboolean           collapsed)
{
  gboolean changed = FALSE;

  g_return_if_fail (CHRONO_IS_TRACK_LAYOUT (self));

  for (guint p = 0; p < self->n_processes; p++)
    changed |= set_collapsed (self, p, !!collapsed);
  if (changed)
    g_signal_emit (self, signals[CHANGED], 0);
}

guint
chrono_track_layout_get_n_collapsed (ChronoTrackLayout *self)
{
  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (self), 0);
  return self->n_collapsed;
}

/* The array TRACK moves in, its position there, and the position of the
 * neighbour it would trade places with; FALSE when there is none. */
static gboolean
find_neighbour (ChronoTrackLayout  *self,
                guint               track,
                int                 delta,
                guint             **array,
                guint              *from,
                guint              *to)
{
  gboolean pinned = chrono_track_layout_is_pinned (self, track);
  guint *tracks = pinned ? (guint *) (gpointer) self->pinned->data : self->order;
  guint n = pinned ? self->pinned->len : self->n_tracks;
  guint process = chrono_trace_get_track (self->trace, track)->process;
  guint p = 0;

  while (p < n && tracks[p] != track)
    p++;
  g_return_val_if_fail (p < n, FALSE);

  for (gint64 q = (gint64) p + delta; q >= 0 && q < n; q += delta)
    {
      guint other = tracks[q];

      if (!pinned && chrono_trace_get_track (self->trace, other)->process != process)
        return FALSE;
      /* Tracks not shown here are stepped over. */
      if (self->flags[other] & HIDDEN || (!pinned && self->flags[other] & PINNED))
        continue;
      *array = tracks;
      *from = p;
      *to = (guint) q;
      return TRUE;
    }
  return FALSE;
}

gboolean
chrono_track_layout_can_move (ChronoTrackLayout *self,
                              guint              track,
                              int                delta)
{
  guint *array, from, to;

  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (self), FALSE);
  g_return_val_if_fail (track < self->n_tracks, FALSE);
  g_return_val_if_fail (delta == -1 || delta == 1, FALSE);

  return find_neighbour (self, track, delta, &array, &from, &to);
}

gboolean
chrono_track_layout_move (ChronoTrackLayout *self,
                          guint              track,
                          int                delta)
{
  guint *array, from, to;

  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (self), FALSE);
  g_return_val_if_fail (track < self->n_tracks, FALSE);
  g_return_val_if_fail (delta == -1 || delta == 1, FALSE);

  if (!find_neighbour (self, track, delta, &array, &from, &to))
    return FALSE;
  array[from] = array[to];
  array[to] = track;
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

static void
add_keys (ChronoTrackLayout *self,
          JsonBuilder       *builder,
          const char        *name,
          const guint       *tracks,
          guint              n,
          guint8             flag)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    if (flag == 0 || self->flags[tracks[i]] & flag)
      json_builder_add_string_value (builder, self->keys[tracks[i]]);
  json_builder_end_array (builder);
}

static void
add_processes (ChronoTrackLayout *self,
               JsonBuilder       *builder,
               const char        *name,
               const gboolean    *set)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint p = 0; p < self->n_processes; p++)
    if (set[p])
      json_builder_add_string_value (builder, self->process_keys[p]);
  json_builder_end_array (builder);
}

JsonNode *
chrono_track_layout_to_json (ChronoTrackLayout *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (self), NULL);

  json_builder_begin_object (builder);
  add_keys (self, builder, "order", self->order, self->n_tracks, 0);
  add_keys (self, builder, "pinned", (const guint *) (gpointer) self->pinned->data,
            self->pinned->len, 0);
  add_keys (self, builder, "hidden", self->order, self->n_tracks, HIDDEN);
  add_keys (self, builder, "expanded", self->order, self->n_tracks, EXPANDED);
  add_processes (self, builder, "collapsed", self->collapsed);
  add_processes (self, builder, "hidden_counters", self->counter_hidden);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* What the keys of member NAME stand for in TABLE (tracks or
 * processes), in its order; NULL with ERROR when it is not an array of
 * strings. A missing member, as in sidecars older than it, is empty. */
static GArray *
read_keys (GHashTable         *table,
           JsonObject         *object,
           const char         *name,
           GError            **error)
{
  g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (guint));
  JsonNode *node = json_object_get_member (object, name);
  JsonArray *array;

  if (node == NULL)
    return g_steal_pointer (&tracks);
  if (!JSON_NODE_HOLDS_ARRAY (node))
    goto invalid;
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      gpointer value;

      if (json_node_get_value_type (element) != G_TYPE_STRING)
        goto invalid;
      value = g_hash_table_lookup (table, json_node_get_string (element));
      if (value != NULL)
        {
          guint track = GPOINTER_TO_UINT (value) - 1;

          g_array_append_val (tracks, track);
        }
    }
  return g_steal_pointer (&tracks);

invalid:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               "track layout: “%s” is not a list of names", name);
  return NULL;
}

typedef struct {
  const guint *process_rank;  /* process -> place of its first track */
  const guint *saved_rank;    /* track -> place in the saved order */
  ChronoTrace *trace;
} OrderData;

static int
compare_tracks (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  const OrderData *data = user_data;
  guint ta = *(const guint *) a, tb = *(const guint *) b;
  guint pa = data->process_rank[chrono_trace_get_track (data->trace, ta)->process];
  guint pb = data->process_rank[chrono_trace_get_track (data->trace, tb)->process];

  if (pa != pb)
    return pa < pb ? -1 : 1;
  return data->saved_rank[ta] < data->saved_rank[tb] ? -1 :
         data->saved_rank[ta] > data->saved_rank[tb];
}

/* Saved tracks first, in their saved order, then new ones in the trace's
 * order; processes keep the trace's order. */
static void
apply_order (ChronoTrackLayout *self,
             GArray            *saved)
{
  guint n_processes = chrono_trace_get_n_processes (self->trace);
  g_autofree guint *process_rank = g_new (guint, MAX (n_processes, 1));
  g_autofree guint *saved_rank = g_new (guint, MAX (self->n_tracks, 1));
  OrderData data = { process_rank, saved_rank, self->trace };

  for (guint p = 0; p < n_processes; p++)
    process_rank[p] = G_MAXUINT;
  for (guint i = 0; i < self->n_tracks; i++)
    {
      guint process = chrono_trace_get_track (self->trace, self->default_order[i])->process;

      process_rank[process] = MIN (process_rank[process], i);
      saved_rank[self->default_order[i]] = saved->len + i;
    }
  for (guint i = 0; i < saved->len; i++)
    saved_rank[g_array_index (saved, guint, i)] = MIN (saved_rank[g_array_index (saved, guint, i)], i);

  memcpy (self->order, self->default_order, sizeof (guint) * self->n_tracks);
  g_qsort_with_data (self->order, self->n_tracks, sizeof (guint), compare_tracks, &data);
}

gboolean
chrono_track_layout_load_json (ChronoTrackLayout  *self,
                               JsonNode           *node,
                               GError            **error)
{
  g_autoptr(GArray) order = NULL;
  g_autoptr(GArray) pinned = NULL;
  g_autoptr(GArray) hidden = NULL;
  g_autoptr(GArray) expanded = NULL;
  g_autoptr(GArray) collapsed = NULL;
  g_autoptr(GArray) hidden_counters = NULL;
  JsonObject *object;

  g_return_val_if_fail (CHRONO_IS_TRACK_LAYOUT (self), FALSE);
  g_return_val_if_fail (node != NULL, FALSE);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "track layout: expected an object");
      return FALSE;
    }
  object = json_node_get_object (node);
  if ((order = read_keys (self->tracks_by_key, object, "order", error)) == NULL ||
      (pinned = read_keys (self->tracks_by_key, object, "pinned", error)) == NULL ||
      (hidden = read_keys (self->tracks_by_key, object, "hidden", error)) == NULL ||
      (expanded = read_keys (self->tracks_by_key, object, "expanded", error)) == NULL ||
      (collapsed = read_keys (self->processes_by_key, object, "collapsed", error)) == NULL ||
      (hidden_counters = read_keys (self->processes_by_key, object, "hidden_counters", error)) == NULL)
    return FALSE;

  apply_order (self, order);
  for (guint t = 0; t < self->n_tracks; t++)
    {
      set_pinned (self, t, FALSE);
      set_hidden (self, t, FALSE);
      set_flag (self, t, EXPANDED, FALSE);
    }
  for (guint i = 0; i < pinned->len; i++)
    set_pinned (self, g_array_index (pinned, guint, i), TRUE);
  for (guint i = 0; i < hidden->len; i++)
    set_hidden (self, g_array_index (hidden, guint, i), TRUE);
  for (guint i = 0; i < expanded->len; i++)
    set_flag (self, g_array_index (expanded, guint, i), EXPANDED, TRUE);
  for (guint p = 0; p < self->n_processes; p++)
    {
      set_collapsed (self, p, FALSE);
      set_counter_hidden (self, p, FALSE);
    }
  for (guint i = 0; i < collapsed->len; i++)
    set_collapsed (self, g_array_index (collapsed, guint, i), TRUE);
  for (guint i = 0; i < hidden_counters->len; i++)
    set_counter_hidden (self, g_array_index (hidden_counters, guint, i), TRUE);
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}
