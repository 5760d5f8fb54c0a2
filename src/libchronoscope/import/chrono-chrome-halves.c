/* chrono-chrome-halves.c: a file in memory scanned as two halves on two
 * cores, and the second half's model put after the first's
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-chrome-importer-private.h"

/* -------------------------------------------------------------------- */
/* Two halves at once                                                   */

#define SPLIT_MIN_BYTES   (4u << 20)
#define SPLIT_SEARCH      (4u << 20)

/* A '{' that follows '}' ',' with only white space between: the start of
 * an entry, unless it sits inside a string, which the first half's scan
 * will tell. */
static const guint8 *
find_split (const guint8 *from,
            const guint8 *end)
{
  const guint8 *limit = MIN (end, from + SPLIT_SEARCH);

  for (const guint8 *p = from; p < limit; p++)
    {
      const guint8 *q;

      p = memchr (p, '}', limit - p);
      if (p == NULL)
        return NULL;
      q = p + 1;
      while (q < limit && (*q == ' ' || *q == '\n' || *q == '\r' || *q == '\t'))
        q++;
      if (q >= limit || *q != ',')
        continue;
      q++;
      while (q < limit && (*q == ' ' || *q == '\n' || *q == '\r' || *q == '\t'))
        q++;
      if (q < limit && *q == '{')
        return q;
    }
  return NULL;
}

/* Where the work left is halved. Work is bytes plus a fixed cost per
 * event, and events are not spread evenly: Kineto writes long operator
 * events first and short flow and metadata records last. The density of
 * events is sampled in windows across the range. */
#define BALANCE_WINDOWS      64
#define BALANCE_WINDOW_BYTES (4u << 10)   /* 256 KB in all: read before the split, on one core */
#define BYTES_PER_EVENT_COST 150

static const guint8 *
balanced_middle (const guint8 *from,
                 const guint8 *end)
{
  gsize range = end - from;
  gsize step = range / BALANCE_WINDOWS;
  double cost[BALANCE_WINDOWS];
  double total = 0;
  double half = 0;

  if (step < BALANCE_WINDOW_BYTES)
    return from + range / 2;
  for (guint w = 0; w < BALANCE_WINDOWS; w++)
    {
      const guint8 *p = from + w * step;
      const guint8 *stop = p + BALANCE_WINDOW_BYTES;
      guint events = 0;

      while ((p = memmem (p, stop - p, "\"ph\"", 4)) != NULL)
        {
          events++;
          p += 4;
        }
      /* Each window stands for STEP bytes of the file. */
      cost[w] = step + (double) events * step / BALANCE_WINDOW_BYTES * BYTES_PER_EVENT_COST;
      total += cost[w];
    }
  for (guint w = 0; w < BALANCE_WINDOWS; w++)
    {
      if (half + cost[w] >= total / 2)
        return from + w * step + (gsize) ((total / 2 - half) / cost[w] * step);
      half += cost[w];
    }
  return from + range / 2;
}

static gpointer
second_half_main (gpointer data)
{
  Importer *b = data;

  b->second_done = chrono_chrome_parse_elements (b, NULL) && !g_atomic_int_get (b->abort);
  return NULL;
}

void
chrono_chrome_start_second_half (Importer *a)
{
  const guint8 *end = a->s.end;
  const guint8 *split;
  Importer *b;

  if (!a->finished || end - a->s.p < SPLIT_MIN_BYTES || g_get_num_processors () < 2)
    return;
  split = find_split (balanced_middle (a->s.p, end), end);
  if (split == NULL)
    return;

  b = g_new0 (Importer, 1);
  chrono_chrome_importer_init (b, chrono_trace_new (a->trace->path, a->source), a->source);
  b->s.p = split;
  b->s.end = end;
  b->finished = TRUE;
  b->abort = &a->abort_second;
  a->second = b;
  a->split_at = split;
  a->second_thread = g_thread_new ("chrono-import-2", second_half_main, b);
}

void
chrono_chrome_discard_second_half (Importer *a)
{
  Importer *b = a->second;

  if (b == NULL)
    return;
  g_atomic_int_set (&a->abort_second, 1);
  g_thread_join (a->second_thread);
  g_object_unref (b->trace);
  chrono_chrome_importer_clear (b);
  g_free (b);
  a->second = NULL;
  a->second_thread = NULL;
  a->split_at = NULL;
}

static guint32 *
merge_strings (Importer *a,
               Importer *b)
{
  ChronoStringTable *from = b->trace->strings;
  guint n = chrono_string_table_size (from);
  guint32 *remap = g_new (guint32, n);

  for (guint i = 0; i < n; i++)
    remap[i] = chrono_string_table_intern (a->trace->strings,
                                           chrono_string_table_get (from, i),
                                           chrono_string_table_get_len (from, i));
  return remap;
}

static ChronoId
remap_id (ChronoId       id,
          const guint32 *strings)
{
  if (id.is_string)
    id.value = strings[id.value];
  return id;
}

/* The second half's model goes after the first's, as if one scan had read
 * both: strings, processes and tracks are matched by name and key, and
 * later metadata wins. */
static void
merge_second_half (Importer *a,
                   Importer *b)
{
  g_autofree guint32 *strings = merge_strings (a, b);
  g_autofree guint32 *processes = g_new (guint32, MAX (b->trace->processes->len, 1));
  g_autoptr(GHashTable) builders = g_hash_table_new (NULL, NULL);
  guint32 v2_offset = a->v2_events->len;
  guint32 flow_offset = a->flow_events->len;
  guint32 async_offset = a->async_events->len;
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; i < b->trace->processes->len; i++)
    {
      const ChronoProcess *bp = &g_array_index (b->trace->processes, ChronoProcess, i);
      guint index = chrono_chrome_process_for (a, remap_id (bp->pid, strings));
      ChronoProcess *ap = &g_array_index (a->trace->processes, ChronoProcess, index);

      if (bp->name != CHRONO_NO_STRING)
        ap->name = strings[bp->name];
      if (bp->labels != CHRONO_NO_STRING)
        ap->labels = strings[bp->labels];
      if (bp->has_sort_index)
        {
          ap->sort_index = bp->sort_index;
          ap->has_sort_index = TRUE;
        }
      processes[i] = index;
    }

  /* Counter tracks are keyed by their text; other tracks by their key. */
  g_hash_table_iter_init (&iter, b->counter_tracks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      ChronoTrackBuilder *bb = value;
      ChronoTrackBuilder *ab = g_hash_table_lookup (a->counter_tracks, key);

      if (ab == NULL)
        {
          ChronoTrackKey k = bb->key;

          k.process = processes[k.process];
          k.tid = remap_id (k.tid, strings);
          ab = chrono_track_builder_new (&k, remap_id (bb->pid, strings));
          ab->track.name = (guint32) k.tid.value;
          g_ptr_array_add (a->builders, ab);
          g_hash_table_insert (a->counter_tracks, g_strdup (key), ab);
        }
      g_hash_table_insert (builders, bb, ab);
    }
  for (guint i = 0; i < b->builders->len; i++)
    {
      ChronoTrackBuilder *bb = g_ptr_array_index (b->builders, i);
      ChronoTrackBuilder *ab = g_hash_table_lookup (builders, bb);

      if (ab == NULL)
        {
          ChronoTrackKey k = bb->key;

          k.process = processes[k.process];
          k.tid = remap_id (k.tid, strings);
          ab = g_hash_table_lookup (a->tracks, &k);
          if (ab == NULL)
            {
              ab = chrono_track_builder_new (&k, remap_id (bb->pid, strings));
              g_hash_table_insert (a->tracks, &ab->key, ab);
              g_ptr_array_add (a->builders, ab);
            }
          g_hash_table_insert (builders, bb, ab);
        }
      chrono_track_builder_append (ab, bb, strings, v2_offset);
    }

  for (guint i = 0; i < b->v2_events->len; i++)
    {
      ChronoV2Bind bind = g_array_index (b->v2_events, ChronoV2Bind, i);
      ChronoTrackBuilder *ab = g_hash_table_lookup (builders, bind.track);

      if (bind.span != G_MAXUINT32)
        bind.span += ab->merge_offset;
      bind.track = ab;
      bind.seq += v2_offset;
      g_array_append_val (a->v2_events, bind);
    }
  for (guint i = 0; i < b->flow_events->len; i++)
    {
      ChronoFlowEvent f = g_array_index (b->flow_events, ChronoFlowEvent, i);

      f.track = g_hash_table_lookup (builders, f.track);
      f.seq += flow_offset;
      g_array_append_val (a->flow_events, f);
    }

  for (guint c = 0; c < 256; c++)
    {
      a->phase_counts[c] += b->phase_counts[c];
      a->dropped_by_phase[c] += b->dropped_by_phase[c];
    }
  g_hash_table_iter_init (&iter, b->odd_phases);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (a->odd_phases, g_strdup (key),
                         GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (a->odd_phases, key)) +
                                           GPOINTER_TO_SIZE (value)));
  a->events += b->events;
  a->seen += b->seen;
  a->no_ts += b->no_ts;
  a->bad_numbers += b->bad_numbers;
  a->malformed += b->malformed;
  a->non_objects += b->non_objects;
  a->stray_async_ends += b->stray_async_ends;
  a->min_ts = MIN (a->min_ts, b->min_ts);
  a->max_ts = MAX (a->max_ts, b->max_ts);
  chrono_trace_append_warnings (a->trace, b->trace, NULL);

  for (guint i = 0; i < b->async_events->len; i++)
    {
      AsyncEvent e = g_array_index (b->async_events, AsyncEvent, i);

      e.pid = remap_id (e.pid, strings);
      e.name = strings[e.name];
      e.cat = strings[e.cat];
      e.seq += async_offset;
      g_array_append_val (a->async_events, e);
    }
}

/* Called when the first half's scan stands exactly where the second half
 * began: the guess was a real boundary, so the second half's work counts
 * and the scan goes on after the end of the array. */
gboolean
chrono_chrome_join_second_half (Importer *a)
{
  Importer *b = a->second;
  gboolean used = FALSE;

  if (b == NULL)
    return FALSE;
  g_thread_join (a->second_thread);
  a->second_thread = NULL;
  a->second = NULL;
  a->split_at = NULL;
  if (b->second_done)
    {
      /* The first half's events must all be in its model before the
       * second half's go after them. */
      chrono_chrome_stop_handler (a);
      merge_second_half (a, b);
      a->split_used = TRUE;
      a->s.p = b->s.p;
      if (b->trace->stats.truncated)
        {
          a->trace->stats.truncated = TRUE;
          a->truncated_at = b->truncated_at;
        }
      used = TRUE;
    }
  g_object_unref (b->trace);
  chrono_chrome_importer_clear (b);
  g_free (b);
  return used;
}
