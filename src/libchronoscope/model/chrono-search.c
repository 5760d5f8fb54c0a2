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
  GArray        *matches;       /* ChronoSpanRef */
};

G_DEFINE_FINAL_TYPE (ChronoSearch, chrono_search, G_TYPE_OBJECT)

static void
chrono_search_finalize (GObject *object)
{
  ChronoSearch *self = CHRONO_SEARCH (object);

  g_clear_object (&self->trace);
  g_free (self->text);
  g_free (self->name_matches);
  g_clear_pointer (&self->matches, g_array_unref);

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
  self->matches = g_array_new (FALSE, FALSE, sizeof (ChronoSpanRef));
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

typedef struct {
  guint32 track;
  guint32 next;    /* position in the track's list of matches */
  gint64  start;
} Head;

static gboolean
head_before (const Head *a,
             const Head *b)
{
  return a->start < b->start || (a->start == b->start && a->track < b->track);
}

static void
sift_down (Head  *heap,
           guint  n,
           guint  i)
{
  for (;;)
    {
      guint least = i, l = 2 * i + 1, r = l + 1;
      Head tmp;

      if (l < n && head_before (&heap[l], &heap[least]))
        least = l;
      if (r < n && head_before (&heap[r], &heap[least]))
        least = r;
      if (least == i)
        return;
      tmp = heap[i];
      heap[i] = heap[least];
      heap[least] = tmp;
      i = least;
    }
}

/* Each track lists its matches by start already: a k-way merge orders
 * them all in O(n log tracks), where sorting would be O(n log n). */
static void
collect_matches (ChronoSearch   *self,
                 const gboolean *skip,
                 GCancellable   *cancellable)
{
  guint n_tracks = chrono_trace_get_n_tracks (self->trace);
  g_autoptr(GPtrArray) per_track = g_ptr_array_new_full (n_tracks, (GDestroyNotify) g_array_unref);
  g_autofree Head *heap = g_new (Head, MAX (n_tracks, 1));
  guint n_heap = 0;
  guint total = 0;

  for (guint t = 0; t < n_tracks; t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (self->trace, t);
      GArray *list = g_array_new (FALSE, FALSE, sizeof (guint32));

      g_ptr_array_add (per_track, list);
      if (skip != NULL && skip[t])
        continue;
      for (guint32 i = 0; i < track->n_spans; i++)
        if (track->name_id[i] < self->n_names && self->name_matches[track->name_id[i]])
          g_array_append_val (list, i);
      if (list->len > 0)
        heap[n_heap++] = (Head) { t, 0, track->start[g_array_index (list, guint32, 0)] };
      total += list->len;
      if (g_cancellable_is_cancelled (cancellable))
        return;
    }

  g_array_set_size (self->matches, 0);
  g_array_set_size (self->matches, total);
  total = 0;
  for (guint i = n_heap; i-- > 0;)
    sift_down (heap, n_heap, i);
  while (n_heap > 0)
    {
      Head *head = &heap[0];
      GArray *list = g_ptr_array_index (per_track, head->track);
      const ChronoTrack *track = chrono_trace_get_track (self->trace, head->track);

      g_array_index (self->matches, ChronoSpanRef, total++) =
        (ChronoSpanRef) { head->track, g_array_index (list, guint32, head->next) };
      if (++head->next < list->len)
        head->start = track->start[g_array_index (list, guint32, head->next)];
      else
        heap[0] = heap[--n_heap];
      sift_down (heap, n_heap, 0);
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
  if (*text != '\0')
    {
      match_names (self);
      collect_matches (self, skip, cancellable);
    }
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
  return self->matches->len;
}

const ChronoSpanRef *
chrono_search_get_matches (ChronoSearch *self)
{
  g_return_val_if_fail (CHRONO_IS_SEARCH (self), NULL);
  return (const ChronoSpanRef *) (gpointer) self->matches->data;
}

gboolean
chrono_search_matches_name (ChronoSearch *self,
                            guint32       name_id)
{
  return name_id < self->n_names && self->name_matches[name_id];
}

guint
chrono_search_find_from (ChronoSearch *self,
                         gint64        time_ns)
{
  guint lo = 0, hi;

  g_return_val_if_fail (CHRONO_IS_SEARCH (self), 0);

  hi = self->matches->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      ChronoSpanRef ref = g_array_index (self->matches, ChronoSpanRef, mid);

      if (chrono_trace_get_track (self->trace, ref.track)->start[ref.index] < time_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}
