/* chrono-search.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-search.h"

struct _ChronoSearch
{
  GObject        parent_instance;

  ChronoTrace   *trace;
  char          *text;
  guint8        *name_matches;  /* string id -> 1 when the name matches */
  guint          n_names;
  GArray       **track_matches; /* track -> guint32 span indices, NULL when skipped */
  guint          n_tracks;
  guint          n_matches;
};

G_DEFINE_FINAL_TYPE (ChronoSearch, chrono_search, G_TYPE_OBJECT)

static void
chrono_search_finalize (GObject *object)
{
  ChronoSearch *self = CHRONO_SEARCH (object);

  g_clear_object (&self->trace);
  g_free (self->text);
  g_free (self->name_matches);
  for (guint t = 0; t < self->n_tracks; t++)
    g_clear_pointer (&self->track_matches[t], g_array_unref);
  g_free (self->track_matches);

  G_OBJECT_CLASS (chrono_search_parent_class)->finalize (object);
}

static void
chrono_search_class_init (ChronoSearchClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_search_finalize;
}

static void
chrono_search_init (ChronoSearch *self)
{
}

static gboolean
is_ascii (const char *text)
{
  for (const guchar *p = (const guchar *) text; *p; p++)
    if (*p >= 0x80)
      return FALSE;
  return TRUE;
}

/* NEEDLE is folded to lower case already. */
static gboolean
ascii_contains (const char *haystack,
                const char *needle,
                gsize       needle_len)
{
  for (const char *p = haystack; *p; p++)
    if (g_ascii_tolower (*p) == needle[0] &&
        g_ascii_strncasecmp (p, needle, needle_len) == 0)
      return TRUE;
  return FALSE;
}

/* Most names are ASCII: they skip case folding, which allocates. */
static void
match_names (ChronoSearch *self)
{
  g_autofree char *folded = g_utf8_casefold (self->text, -1);
  gsize folded_len = strlen (folded);
  gboolean ascii_needle = is_ascii (folded);

  self->n_names = chrono_trace_get_n_strings (self->trace);
  self->name_matches = g_new0 (guint8, MAX (self->n_names, 1));
  for (guint id = 1; id < self->n_names; id++)
    {
      const char *name = chrono_trace_get_string (self->trace, id);

      if (ascii_needle && is_ascii (name))
        self->name_matches[id] = ascii_contains (name, folded, folded_len);
      else
        {
          g_autofree char *name_folded = g_utf8_casefold (name, -1);

          self->name_matches[id] = strstr (name_folded, folded) != NULL;
        }
    }
}

static void
collect_matches (ChronoSearch   *self,
                 const gboolean *skip,
                 GCancellable   *cancellable)
{
  for (guint t = 0; t < self->n_tracks; t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (self->trace, t);
      GArray *list;

      if ((skip != NULL && skip[t]) || track->n_spans == 0)
        continue;
      list = g_array_new (FALSE, FALSE, sizeof (guint32));
      CHRONO_INT_COLUMN_FOREACH (&track->name_id, track->n_spans, i, name,
        if ((guint64) name < self->n_names && self->name_matches[name])
          g_array_append_val (list, i););
      self->track_matches[t] = list;
      self->n_matches += list->len;
      if (g_cancellable_is_cancelled (cancellable))
        return;
    }
}

static ChronoSearch *
search_run (ChronoTrace    *trace,
            const char     *text,
            const gboolean *skip,
            GCancellable   *cancellable)
{
  ChronoSearch *self = g_object_new (CHRONO_TYPE_SEARCH, NULL);

  self->trace = g_object_ref (trace);
  self->text = g_strdup (text);
  self->n_tracks = chrono_trace_get_n_tracks (trace);
  self->track_matches = g_new0 (GArray *, MAX (self->n_tracks, 1));
  if (*text != '\0')
    {
      match_names (self);
      collect_matches (self, skip, cancellable);
    }
  return self;
}

ChronoSearch *
chrono_search_new_for_names (ChronoTrace         *trace,
                             const char          *text,
                             ChronoSearchNameFunc match,
                             gpointer             user_data,
                             GCancellable        *cancellable)
{
  ChronoSearch *self;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (match != NULL, NULL);

  self = g_object_new (CHRONO_TYPE_SEARCH, NULL);
  self->trace = g_object_ref (trace);
  self->text = g_strdup (text);
  self->n_tracks = chrono_trace_get_n_tracks (trace);
  self->track_matches = g_new0 (GArray *, MAX (self->n_tracks, 1));
  self->n_names = chrono_trace_get_n_strings (trace);
  self->name_matches = g_new0 (guint8, MAX (self->n_names, 1));
  for (guint id = 1; id < self->n_names; id++)
    self->name_matches[id] = match (chrono_trace_get_string (trace, id), user_data) ? 1 : 0;
  collect_matches (self, NULL, cancellable);
  return self;
}

ChronoSearch *
chrono_search_new (ChronoTrace    *trace,
                   const char     *text,
                   const gboolean *skip)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  return search_run (trace, text, skip, NULL);
}

typedef struct {
  ChronoTrace *trace;
  char        *text;
  gboolean    *skip;
} SearchData;

static void
search_data_free (SearchData *data)
{
  g_object_unref (data->trace);
  g_free (data->text);
  g_free (data->skip);
  g_free (data);
}

static void
search_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchData *data = task_data;
  g_autoptr(ChronoSearch) search = search_run (data->trace, data->text, data->skip, cancellable);

  if (!g_task_return_error_if_cancelled (task))
    g_task_return_pointer (task, g_steal_pointer (&search), g_object_unref);
}

void
chrono_search_new_async (ChronoTrace         *trace,
                         const char          *text,
                         const gboolean      *skip,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  SearchData *data;

  g_return_if_fail (CHRONO_IS_TRACE (trace));
  g_return_if_fail (text != NULL);

  data = g_new0 (SearchData, 1);
  data->trace = g_object_ref (trace);
  data->text = g_strdup (text);
  if (skip != NULL)
    data->skip = g_memdup2 (skip, sizeof (gboolean) * chrono_trace_get_n_tracks (trace));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, chrono_search_new_async);
  g_task_set_task_data (task, data, (GDestroyNotify) search_data_free);
  g_task_run_in_thread (task, search_thread);
}

ChronoSearch *
chrono_search_new_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

ChronoTrace *
chrono_search_get_trace (ChronoSearch *self)
{
  g_return_val_if_fail (CHRONO_IS_SEARCH (self), NULL);
  return self->trace;
}

const char *
chrono_search_get_text (ChronoSearch *self)
{
  g_return_val_if_fail (CHRONO_IS_SEARCH (self), NULL);
  return self->text;
}

guint
chrono_search_get_n_matches (ChronoSearch *self)
{
  g_return_val_if_fail (CHRONO_IS_SEARCH (self), 0);
  return self->n_matches;
}

const guint32 *
chrono_search_get_track_matches (ChronoSearch *self,
                                 guint         track,
                                 guint        *n_matches)
{
  GArray *list;

  g_return_val_if_fail (CHRONO_IS_SEARCH (self), NULL);
  g_return_val_if_fail (track < self->n_tracks, NULL);

  list = self->track_matches[track];
  *n_matches = list != NULL ? list->len : 0;
  return list != NULL ? (const guint32 *) (gpointer) list->data : NULL;
}

gboolean
chrono_search_matches_name (ChronoSearch *self,
                            guint32       name_id)
{
  return name_id < self->n_names && self->name_matches[name_id];
}

/* The order of matches: start, track, index. */
static int
compare_spans (ChronoSearch  *self,
               ChronoSpanRef  a,
               ChronoSpanRef  b)
{
  gint64 sa = chrono_trace_get_track (self->trace, a.track)->start[a.index];
  gint64 sb = chrono_trace_get_track (self->trace, b.track)->start[b.index];

  if (sa != sb)
    return sa < sb ? -1 : 1;
  if (a.track != b.track)
    return a.track < b.track ? -1 : 1;
  return a.index < b.index ? -1 : a.index > b.index;
}

/* How many of TRACK's matches come before SPAN. A track's matches are in
 * this order already: by start, then by index. */
static guint
count_before (ChronoSearch  *self,
              guint          track,
              ChronoSpanRef  span)
{
  GArray *list = self->track_matches[track];
  guint lo = 0, hi = list != NULL ? list->len : 0;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      ChronoSpanRef ref = { track, g_array_index (list, guint32, mid) };

      if (compare_spans (self, ref, span) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gboolean
chrono_search_step (ChronoSearch        *self,
                    const ChronoSpanRef *from,
                    int                  direction,
                    ChronoSpanRef       *match)
{
  gboolean found = FALSE;
  ChronoSpanRef start;

  g_return_val_if_fail (CHRONO_IS_SEARCH (self), FALSE);
  g_return_val_if_fail (direction == 1 || direction == -1, FALSE);
  g_return_val_if_fail (match != NULL, FALSE);

  /* FROM may be MATCH itself, which the loop overwrites. */
  if (from != NULL)
    {
      start = *from;
      from = &start;
    }

  /* Each track's nearest match past FROM; the nearest of those wins. */
  for (guint t = 0; t < self->n_tracks; t++)
    {
      GArray *list = self->track_matches[t];
      ChronoSpanRef candidate = { t, 0 };
      guint p;

      if (list == NULL || list->len == 0)
        continue;
      if (direction > 0)
        {
          if (from == NULL)
            p = 0;
          else
            {
              p = count_before (self, t, *from);
              if (p < list->len && from->track == t && g_array_index (list, guint32, p) == from->index)
                p++;
            }
          if (p >= list->len)
            continue;
        }
      else
        {
          p = from == NULL ? list->len : count_before (self, t, *from);
          if (p == 0)
            continue;
          p--;
        }
      candidate.index = g_array_index (list, guint32, p);
      if (!found || compare_spans (self, candidate, *match) * direction < 0)
        *match = candidate;
      found = TRUE;
    }
  return found;
}

guint
chrono_search_get_rank (ChronoSearch  *self,
                        ChronoSpanRef  span)
{
  guint rank = 0;

  g_return_val_if_fail (CHRONO_IS_SEARCH (self), 0);

  for (guint t = 0; t < self->n_tracks; t++)
    rank += count_before (self, t, span);
  return rank;
}

gboolean
chrono_search_find_from (ChronoSearch  *self,
                         gint64         time_ns,
                         ChronoSpanRef *match)
{
  gboolean found = FALSE;

  g_return_val_if_fail (CHRONO_IS_SEARCH (self), FALSE);
  g_return_val_if_fail (match != NULL, FALSE);

  for (guint t = 0; t < self->n_tracks; t++)
    {
      GArray *list = self->track_matches[t];
      const gint64 *start = chrono_trace_get_track (self->trace, t)->start;
      guint lo = 0, hi = list != NULL ? list->len : 0;
      ChronoSpanRef candidate = { t, 0 };

      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (start[g_array_index (list, guint32, mid)] < time_ns)
            lo = mid + 1;
          else
            hi = mid;
        }
      if (list == NULL || lo == list->len)
        continue;
      candidate.index = g_array_index (list, guint32, lo);
      if (!found || compare_spans (self, candidate, *match) < 0)
        *match = candidate;
      found = TRUE;
    }
  return found;
}
