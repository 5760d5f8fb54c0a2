/* chrono-trace-merge.c: several files as one document
 *
 * A Neuron profile folder (device profile, system profile, the PyTorch
 * trace beside them) or the traces of several ranks become one trace, so
 * that the timeline, the summary and the CLI see a single model. Nothing
 * here knows a format: the caller chooses the clock shifts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-neuron-facts.h"
#include "chrono-trace-private.h"

static guint32
remap (const guint32 *map,
       guint32        id)
{
  return map[id];
}

static void
shift_column (gint64  *column,
              guint32  n,
              gint64   shift)
{
  for (guint32 i = 0; i < n; i++)
    column[i] += shift;
}

/* Name and category ids are narrow columns: remapped at full width, narrowed
 * again for their new range. */
static void
remap_ids (ChronoIntColumn *column,
           guint32          n,
           const guint32   *map)
{
  gint64 *ids = chrono_int_column_steal (column, n);

  for (guint32 i = 0; ids != NULL && i < n; i++)
    ids[i] = remap (map, (guint32) ids[i]);
  chrono_int_column_take (column, ids, n);
}

static void
add_counts (GHashTable *into,
            GHashTable *from)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, from);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gsize have = GPOINTER_TO_SIZE (g_hash_table_lookup (into, key));
      g_hash_table_insert (into, g_strdup (key), GSIZE_TO_POINTER (have + GPOINTER_TO_SIZE (value)));
    }
}

static void
merge_stats (ChronoTrace *into,
             ChronoTrace *from)
{
  ChronoLoadStats *a = &into->stats;
  const ChronoLoadStats *b = &from->stats;
  g_autofree char *file = g_path_get_basename (from->path);

  add_counts (a->phases, b->phases);
  add_counts (a->engines, b->engines);
  a->events += b->events;
  a->spans += b->spans;
  a->async_spans += b->async_spans;
  a->instants += b->instants;
  a->counter_samples += b->counter_samples;
  a->flows += b->flows;
  a->launch_links += b->launch_links;
  a->dependencies += b->dependencies;
  a->dropped += b->dropped;
  for (guint k = 0; k < CHRONO_N_KINDS; k++)
    a->kinds[k] += b->kinds[k];
  a->truncated |= b->truncated;
  a->file_bytes += chrono_trace_get_source_size (from);
  chrono_trace_append_warnings (into, from, file);
}

/* IN's parts, after those before: on the shared clock, with the
 * processes and tracks they now have. */
static void
append_parts (ChronoTrace *self,
              ChronoTrace *in,
              gint64       shift,
              guint        first_process,
              guint        first_track)
{
  for (guint i = 0; i < in->parts->len; i++)
    {
      ChronoTracePart part = g_array_index (in->parts, ChronoTracePart, i);

      part.path = g_strdup (part.path);
      part.shift_ns += shift;
      part.start_ns += shift;
      part.end_ns += shift;
      part.first_process += first_process;
      part.first_track += first_track;
      g_array_append_val (self->parts, part);
    }
}

/* What IN's args offsets point into: its file, or the JSON its importer
 * wrote when the format has none of its own. */
static ChronoSource *
args_source (ChronoTrace *in)
{
  g_autoptr(GBytes) bytes = NULL;

  if (in->args_json == NULL)
    return in->source ? chrono_source_ref (in->source) : NULL;
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&in->args_json));
  /* Plain bytes in memory: this cannot fail. */
  return chrono_source_new_for_bytes (bytes, NULL);
}

/* Whether tracks [FIRST, FIRST + N) of SELF have records of Neuron
 * instructions or DMA transfers. */
static gboolean
has_neuron_records (ChronoTrace *self,
                    guint        first,
                    guint        n)
{
  for (guint i = first; i < first + n; i++)
    {
      const ChronoTrack *track = g_ptr_array_index (self->tracks, i);

      for (guint32 k = 0; k < track->n_spans; k++)
        if (track->kind[k] == CHRONO_KIND_INSTRUCTION || track->kind[k] == CHRONO_KIND_DMA)
          return TRUE;
    }
  return FALSE;
}

/* The facts the importers kept of IN's Neuron records move with them,
 * under the part's TAG; the tracks of a part without (from FIRST_TRACK)
 * are noted in WITHOUT, to be looked at once all are merged. */
static void
merge_facts (ChronoTrace *self,
             ChronoTrace *in,
             guint64      tag,
             guint        first_track,
             GArray      *without)
{
  ChronoNeuronFacts *facts = g_steal_pointer (&in->neuron_facts);
  guint range[2] = { first_track, in->tracks->len };

  if (facts == NULL)
    g_array_append_vals (without, range, 2);
  else if (self->neuron_facts == NULL && tag == 0)
    self->neuron_facts = facts;
  else
    {
      if (self->neuron_facts == NULL)
        self->neuron_facts = chrono_neuron_facts_new ();
      chrono_neuron_facts_absorb (self->neuron_facts, facts, tag);
    }
}

/* Where a part has Neuron records and no facts, the merged trace keeps
 * none: the analysis then gathers all of them. */
static void
finish_facts (ChronoTrace *self,
              GArray      *without)
{
  if (self->neuron_facts == NULL)
    return;
  for (guint i = 0; i < without->len; i += 2)
    if (has_neuron_records (self, g_array_index (without, guint, i), g_array_index (without, guint, i + 1)))
      {
        g_clear_pointer (&self->neuron_facts, chrono_neuron_facts_free);
        return;
      }
  chrono_neuron_facts_seal (self->neuron_facts);
}

ChronoTrace *
chrono_trace_merge (ChronoTrace * const *traces,
                    const gint64        *shifts,
                    guint                n_traces,
                    const char          *name)
{
  ChronoTrace *self;
  g_autoptr(GString) format = g_string_new (NULL);
  g_autoptr(GArray) without_facts = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_val_if_fail (n_traces > 0 && n_traces <= CHRONO_MAX_SOURCES + 1, NULL);

  self = chrono_trace_new (name, traces[0]->source);
  self->more_sources = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_source_unref);
  self->start_ns = G_MAXINT64;
  self->end_ns = G_MININT64;

  for (guint t = 0; t < n_traces; t++)
    {
      ChronoTrace *in = traces[t];
      gint64 shift = shifts ? shifts[t] : 0;
      guint64 tag = (guint64) t << CHRONO_SOURCE_SHIFT;
      guint n_strings = chrono_string_table_size (in->strings);
      g_autofree guint32 *map = g_new (guint32, MAX (n_strings, 1));
      guint first_process = self->processes->len;
      guint first_track = self->tracks->len;
      GHashTableIter iter;
      gpointer key, value;

      /* A trace built by hand rather than loaded is one part too. */
      if (in->parts->len == 0)
        chrono_trace_set_single_part (in);
      if (t == 0)
        self->args_json = g_steal_pointer (&in->args_json);
      else
        g_ptr_array_add (self->more_sources, args_source (in));
      /* Row args move with their source, under its tag. */
      if (in->row_args != NULL && in->row_args->len > 0 && in->row_args->pdata[0] != NULL)
        chrono_trace_set_row_args (self, t, g_steal_pointer (&in->row_args->pdata[0]));
      merge_facts (self, in, tag, first_track, without_facts);
      if (format->len == 0 || strstr (format->str, in->format) == NULL)
        g_string_append_printf (format, "%s%s", format->len ? "+" : "", in->format);

      for (guint i = 0; i < n_strings; i++)
        map[i] = chrono_string_table_intern (self->strings, chrono_string_table_get (in->strings, i),
                                             chrono_string_table_get_len (in->strings, i));

      for (guint p = 0; p < in->processes->len; p++)
        {
          ChronoProcess process = g_array_index (in->processes, ChronoProcess, p);

          if (process.pid.is_string)
            process.pid.value = remap (map, (guint32) process.pid.value);
          process.name = remap (map, process.name);
          process.labels = remap (map, process.labels);
          process.display_name = remap (map, process.display_name);
          g_array_append_val (self->processes, process);
        }

      for (guint i = 0; i < in->tracks->len; i++)
        {
          ChronoTrack *track = g_ptr_array_index (in->tracks, i);

          in->tracks->pdata[i] = NULL;
          track->process += first_process;
          if (track->tid.is_string)
            track->tid.value = remap (map, (guint32) track->tid.value);
          track->name = remap (map, track->name);
          track->display_name = remap (map, track->display_name);
          remap_ids (&track->name_id, track->n_spans, map);
          remap_ids (&track->cat_id, track->n_spans, map);
          remap_ids (&track->inst_name, track->n_instants, map);
          remap_ids (&track->inst_cat, track->n_instants, map);
          shift_column (track->start, track->n_spans, shift);
          shift_column (track->inst_ts, track->n_instants, shift);
          shift_column (track->sample_ts, track->n_samples, shift);
          /* Offsets stay below the tag: adding it sets their top byte,
           * and CHRONO_NO_ARGS (-1) stays as it is. */
          chrono_int_column_add (&track->args_off, track->n_spans, (gint64) tag);
          chrono_int_column_add (&track->inst_args_off, track->n_instants, (gint64) tag);
          g_ptr_array_add (self->tracks, track);
        }
      g_ptr_array_set_size (in->tracks, 0);

      for (guint f = 0; f < in->flows->len; f++)
        {
          ChronoFlow flow = g_array_index (in->flows, ChronoFlow, f);

          flow.from.track += first_track;
          flow.to.track += first_track;
          g_array_append_val (self->flows, flow);
        }

      g_hash_table_iter_init (&iter, in->metadata);
      while (g_hash_table_iter_next (&iter, &key, &value))
        if (!g_hash_table_contains (self->metadata, key))
          {
            ChronoRange *range = g_memdup2 (value, sizeof (ChronoRange));

            range->offset |= tag;
            g_hash_table_insert (self->metadata, g_strdup (key), range);
          }

      merge_stats (self, in);
      append_parts (self, in, shift, first_process, first_track);
      if (in->start_ns <= in->end_ns)
        {
          self->start_ns = MIN (self->start_ns, in->start_ns + shift);
          self->end_ns = MAX (self->end_ns, in->end_ns + shift);
        }
      if (self->rank < 0)
        {
          self->rank = in->rank;
          self->world_size = in->world_size;
        }
    }
  if (self->start_ns > self->end_ns)
    self->start_ns = self->end_ns = 0;
  finish_facts (self, without_facts);
  self->format = g_intern_string (format->str);
  chrono_string_table_compact (self->strings);
  return self;
}
