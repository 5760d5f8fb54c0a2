/* chrono-scene-rows.c: the blocks a timeline scene stacks top to bottom
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-neuron-lanes-painter.h"
#include "chrono-scene-rows.h"

#define ROW_HEIGHT     CHRONO_SCENE_ROW_HEIGHT
#define GROUP_HEIGHT   CHRONO_SCENE_GROUP_HEIGHT
#define TRACK_PAD      CHRONO_SCENE_TRACK_PAD
#define NO_TRACK       CHRONO_SCENE_NO_ROW

struct _ChronoSceneRows
{
  ChronoTrace       *trace;
  ChronoTrackLayout *layout;
  GPtrArray         *indexes;    /* track -> ChronoTrackIndex, built once */

  GArray            *rows;       /* ChronoSceneRow, top to bottom: pinned ones first */
  guint             *track_rows; /* track -> position in ROWS, or NO_TRACK when hidden */
  guint             *group_rows; /* process -> position of its header in ROWS, or NO_TRACK */
  GArray            *members;    /* guint: the tracks of collapsed headers */
  double             content_height;
  double             pinned_height;

  const ChronoFlopsSeries **flops;  /* process -> its device's series, or NULL */
  const ChronoNeuronSeries **neuron; /* process -> its NeuronCore's lanes, or NULL */
  GArray            *memory;     /* MemoryRow, by process, accelerators first */
  gboolean           note_devices;
};

static void
row_clear (gpointer data)
{
  ChronoSceneRow *row = data;

  g_clear_object (&row->index);
}

static void
unref_index (gpointer index)
{
  if (index != NULL)
    g_object_unref (index);
}

ChronoSceneRows *
chrono_scene_rows_new (ChronoTrace       *trace,
                       GPtrArray         *indexes,
                       ChronoTrackLayout *layout)
{
  ChronoSceneRows *self = g_new0 (ChronoSceneRows, 1);

  self->trace = g_object_ref (trace);
  self->layout = g_object_ref (layout);
  if (indexes != NULL)
    {
      self->indexes = g_ptr_array_ref (indexes);
    }
  else
    {
      self->indexes = g_ptr_array_new_full (chrono_trace_get_n_tracks (trace), unref_index);
      g_ptr_array_set_size (self->indexes, chrono_trace_get_n_tracks (trace));
    }
  self->rows = g_array_new (FALSE, TRUE, sizeof (ChronoSceneRow));
  g_array_set_clear_func (self->rows, row_clear);
  self->members = g_array_new (FALSE, FALSE, sizeof (guint));
  return self;
}

void
chrono_scene_rows_free (ChronoSceneRows *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->rows);
  g_array_unref (self->members);
  g_free (self->track_rows);
  g_free (self->group_rows);
  g_free (self->flops);
  g_free (self->neuron);
  g_clear_pointer (&self->memory, g_array_unref);
  g_ptr_array_unref (self->indexes);
  g_object_unref (self->layout);
  g_object_unref (self->trace);
  g_free (self);
}

ChronoTrackIndex *
chrono_scene_rows_get_index (ChronoSceneRows *self,
                             guint            track)
{
  /* Built ahead of time for the whole trace, or here when first needed;
   * kept across layout changes: pinning or hiding re-indexes nothing. */
  if (g_ptr_array_index (self->indexes, track) == NULL)
    g_ptr_array_index (self->indexes, track) = chrono_track_index_new (self->trace, track);
  return g_ptr_array_index (self->indexes, track);
}

static double
get_track_height (const ChronoTrack *track,
                  guint              n_rows)
{
  if (track->type == CHRONO_TRACK_COUNTER)
    return CHRONO_SCENE_COUNTER_HEIGHT + 2 * TRACK_PAD;
  if (track->n_spans == 0)
    return CHRONO_SCENE_INSTANT_HEIGHT + 2 * TRACK_PAD;
  return MAX (1, n_rows) * ROW_HEIGHT + 2 * TRACK_PAD;
}

static void
append_group_row (ChronoSceneRows *self,
                  guint            process,
                  gboolean         pinned,
                  double          *y)
{
  ChronoSceneRow group = { .track = NO_TRACK, .process = process, .pinned = pinned, .y = *y,
                           .height = GROUP_HEIGHT };

  if (process != NO_TRACK)
    {
      group.collapsed = chrono_track_layout_is_collapsed (self->layout, process);
      group.first_member = self->members->len;
      self->group_rows[process] = self->rows->len;
    }
  g_array_append_val (self->rows, group);
  *y += GROUP_HEIGHT;
}

static void
append_track_row (ChronoSceneRows *self,
                  guint            track_number,
                  gboolean         pinned,
                  double          *y)
{
  const ChronoTrack *track = chrono_trace_get_track (self->trace, track_number);
  ChronoSceneRow row = { 0 };
  guint n_rows, shown;

  row.track = track_number;
  row.process = track->process;
  row.pinned = pinned;
  row.y = *y;
  /* Built up front: the layout needs every track's number of rows,
   * and even a 1 GB trace indexes in well under a second. */
  row.index = g_object_ref (chrono_scene_rows_get_index (self, track_number));
  n_rows = chrono_track_index_get_n_rows (row.index);
  shown = MIN (n_rows, chrono_track_layout_get_max_rows (self->layout, track_number));
  row.n_rows_hidden = track->type == CHRONO_TRACK_COUNTER ? 0 : n_rows - shown;
  row.height = get_track_height (track, shown);
  self->track_rows[track_number] = self->rows->len;
  g_array_append_val (self->rows, row);
  *y += row.height;
}

void
chrono_scene_rows_set_flops (ChronoSceneRows                 *self,
                             const ChronoFlopsSeries * const *by_process,
                             gboolean                         note_devices)
{
  g_clear_pointer (&self->flops, g_free);
  if (by_process != NULL)
    self->flops = g_memdup2 (by_process, sizeof (ChronoFlopsSeries *) *
                                         MAX (chrono_trace_get_n_processes (self->trace), 1));
  self->note_devices = note_devices;
}

void
chrono_scene_rows_set_neuron (ChronoSceneRows                  *self,
                              const ChronoNeuronSeries * const *by_process)
{
  g_clear_pointer (&self->neuron, g_free);
  if (by_process != NULL)
    self->neuron = g_memdup2 (by_process, sizeof (ChronoNeuronSeries *) *
                                          MAX (chrono_trace_get_n_processes (self->trace), 1));
}

typedef struct {
  guint                     process;
  guint                     order;     /* in the analysis's order */
  const ChronoMemoryDevice *device;
} MemoryRow;

/* By process; within one, accelerators before the host, then as the
 * analysis lists them. */
static gint
compare_memory_rows (gconstpointer a,
                     gconstpointer b)
{
  const MemoryRow *x = a, *y = b;
  gboolean x_host = x->device->device_id < 0, y_host = y->device->device_id < 0;

  if (x->process != y->process)
    return x->process < y->process ? -1 : 1;
  if (x_host != y_host)
    return x_host ? 1 : -1;
  return x->order < y->order ? -1 : x->order > y->order;
}

void
chrono_scene_rows_set_memory (ChronoSceneRows                  *self,
                              const ChronoMemoryDevice * const *devices,
                              guint                             n)
{
  g_clear_pointer (&self->memory, g_array_unref);
  if (n == 0)
    return;
  self->memory = g_array_sized_new (FALSE, FALSE, sizeof (MemoryRow), n);
  for (guint i = 0; i < n; i++)
    {
      MemoryRow m = { chrono_memory_device_get_process (self->trace, devices[i]), i, devices[i] };
      g_array_append_val (self->memory, m);
    }
  g_array_sort (self->memory, compare_memory_rows);
}

/* Under an expanded process's tracks: the memory of its devices, and of
 * the host, when the trace recorded it, a row each. */
static void
append_memory_row (ChronoSceneRows *self,
                   guint            process,
                   double          *y)
{
  if (self->memory == NULL || process == NO_TRACK ||
      chrono_track_layout_is_collapsed (self->layout, process) ||
      chrono_track_layout_is_counter_hidden (self->layout, process))
    return;
  for (guint i = 0; i < self->memory->len; i++)
    {
      const MemoryRow *m = &g_array_index (self->memory, MemoryRow, i);
      ChronoSceneRow row = { .track = NO_TRACK, .process = process, .y = *y, .derived = TRUE };

      if (m->process != process)
        continue;
      row.memory = m->device;
      row.height = CHRONO_SCENE_MEMORY_HEIGHT + 2 * TRACK_PAD;
      g_array_append_val (self->rows, row);
      *y += row.height;
    }
}

/* Above an expanded NeuronCore's engines: their utilisation lanes. */
static void
append_neuron_row (ChronoSceneRows *self,
                   guint            process,
                   double          *y)
{
  ChronoSceneRow row = { .track = NO_TRACK, .process = process, .y = *y, .derived = TRUE };
  ChronoNeuronLane lanes[CHRONO_NEURON_N_LANES];

  if (self->neuron == NULL || self->neuron[process] == NULL || chrono_track_layout_is_collapsed (self->layout, process) ||
      chrono_track_layout_is_counter_hidden (self->layout, process))
    return;
  row.neuron = self->neuron[process];
  row.height = chrono_neuron_lanes_painter_get_lanes (row.neuron, lanes) * CHRONO_NEURON_LANE_HEIGHT + 2 * TRACK_PAD;
  g_array_append_val (self->rows, row);
  *y += row.height;
}

/* Under an expanded process's tracks: its device's achieved TFLOP/s, or
 * why there is none. */
static void
append_flops_row (ChronoSceneRows *self,
                  guint            process,
                  double          *y)
{
  ChronoSceneRow row = { .track = NO_TRACK, .process = process, .y = *y, .derived = TRUE };

  if (self->flops == NULL || process == NO_TRACK || chrono_track_layout_is_collapsed (self->layout, process) ||
      chrono_track_layout_is_counter_hidden (self->layout, process))
    return;
  row.flops = self->flops[process];
  if (row.flops != NULL)
    row.height = CHRONO_SCENE_FLOPS_HEIGHT + 2 * TRACK_PAD;
  else if (self->note_devices && chrono_trace_get_process (self->trace, process)->is_device)
    row.height = ROW_HEIGHT + 2 * TRACK_PAD;
  else
    return;
  g_array_append_val (self->rows, row);
  *y += row.height;
}

/* Pinned tracks under a header of their own, then the others by process,
 * as the layout orders them. */
void
chrono_scene_rows_build (ChronoSceneRows *self)
{
  const guint *order, *pinned;
  guint n_tracks = 0, n_pinned = 0;
  guint last_process = G_MAXUINT;
  double y = 0;

  g_array_set_size (self->rows, 0);
  g_array_set_size (self->members, 0);
  g_clear_pointer (&self->track_rows, g_free);
  g_clear_pointer (&self->group_rows, g_free);

  order = chrono_track_layout_get_order (self->layout, &n_tracks);
  pinned = chrono_track_layout_get_pinned (self->layout, &n_pinned);
  self->track_rows = g_new (guint, MAX (n_tracks, 1));
  for (guint i = 0; i < n_tracks; i++)
    self->track_rows[i] = NO_TRACK;
  self->group_rows = g_new (guint, MAX (chrono_trace_get_n_processes (self->trace), 1));
  for (guint p = 0; p < chrono_trace_get_n_processes (self->trace); p++)
    self->group_rows[p] = NO_TRACK;

  for (guint i = 0; i < n_pinned; i++)
    {
      if (chrono_track_layout_is_hidden (self->layout, pinned[i]))
        continue;
      if (self->rows->len == 0)
        append_group_row (self, NO_TRACK, TRUE, &y);
      append_track_row (self, pinned[i], TRUE, &y);
    }
  self->pinned_height = y;

  for (guint i = 0; i < n_tracks; i++)
    {
      const ChronoTrack *track = chrono_trace_get_track (self->trace, order[i]);

      if (chrono_track_layout_is_pinned (self->layout, order[i]) ||
          chrono_track_layout_is_hidden (self->layout, order[i]))
        continue;
      if (track->process != last_process)
        {
          append_flops_row (self, last_process, &y);
          append_memory_row (self, last_process, &y);
          append_group_row (self, track->process, FALSE, &y);
          append_neuron_row (self, track->process, &y);
          last_process = track->process;
        }
      /* A collapsed process keeps its tracks for its busy strip. */
      if (chrono_track_layout_is_collapsed (self->layout, track->process))
        {
          g_array_append_val (self->members, order[i]);
          g_array_index (self->rows, ChronoSceneRow, self->rows->len - 1).n_members++;
          continue;
        }
      append_track_row (self, order[i], FALSE, &y);
    }
  append_flops_row (self, last_process, &y);
  append_memory_row (self, last_process, &y);
  self->content_height = y;
}

guint
chrono_scene_rows_get_n (ChronoSceneRows *self)
{
  return self->rows->len;
}

const ChronoSceneRow *
chrono_scene_rows_get (ChronoSceneRows *self,
                       guint            i)
{
  g_return_val_if_fail (i < self->rows->len, NULL);
  return &g_array_index (self->rows, ChronoSceneRow, i);
}

guint
chrono_scene_rows_find (ChronoSceneRows *self,
                        double           content_y)
{
  guint lo = 0, hi = self->rows->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const ChronoSceneRow *row = &g_array_index (self->rows, ChronoSceneRow, mid);

      if (content_y < row->y)
        hi = mid;
      else if (content_y >= row->y + row->height)
        lo = mid + 1;
      else
        return mid;
    }
  return NO_TRACK;
}

guint
chrono_scene_rows_get_member (ChronoSceneRows      *self,
                              const ChronoSceneRow *row,
                              guint                 n)
{
  g_return_val_if_fail (n < row->n_members, NO_TRACK);
  return g_array_index (self->members, guint, row->first_member + n);
}

guint
chrono_scene_rows_get_own_row (ChronoSceneRows *self,
                               guint            track)
{
  if (track >= chrono_trace_get_n_tracks (self->trace))
    return NO_TRACK;
  return self->track_rows[track];
}

guint
chrono_scene_rows_get_track_row (ChronoSceneRows *self,
                                 guint            track)
{
  guint process;

  if (track >= chrono_trace_get_n_tracks (self->trace))
    return NO_TRACK;
  if (self->track_rows[track] != NO_TRACK)
    return self->track_rows[track];
  if (chrono_track_layout_is_hidden (self->layout, track))
    return NO_TRACK;
  process = chrono_trace_get_track (self->trace, track)->process;
  return chrono_track_layout_is_collapsed (self->layout, process) ? self->group_rows[process] : NO_TRACK;
}

guint
chrono_scene_rows_get_process_row (ChronoSceneRows *self,
                                   guint            process)
{
  if (process >= chrono_trace_get_n_processes (self->trace))
    return NO_TRACK;
  return self->group_rows[process];
}

double
chrono_scene_rows_get_content_height (ChronoSceneRows *self)
{
  return self->content_height;
}

double
chrono_scene_rows_get_pinned_height (ChronoSceneRows *self)
{
  return self->pinned_height;
}
