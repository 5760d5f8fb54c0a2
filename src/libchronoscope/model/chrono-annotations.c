/* chrono-annotations.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "chrono-annotations.h"

G_DEFINE_QUARK (chrono-annotations-error-quark, chrono_annotations_error)

static const char *const kind_names[] = { "note", "arrow", "measurement", "highlight" };
static const char *const anchor_names[] = { "span", "instant", "area" };

/* -------------------------------------------------------------------- */
/* One annotation                                                       */

static void
span_anchor_copy (ChronoSpanAnchor       *to,
                  const ChronoSpanAnchor *from)
{
  to->track = g_strdup (from->track);
  to->start_ns = from->start_ns;
  to->name = g_strdup (from->name);
}

void
chrono_span_anchor_clear (ChronoSpanAnchor *anchor)
{
  g_clear_pointer (&anchor->track, g_free);
  g_clear_pointer (&anchor->name, g_free);
  anchor->start_ns = 0;
}

ChronoAnnotation *
chrono_annotation_copy (const ChronoAnnotation *annotation)
{
  ChronoAnnotation *copy;

  g_return_val_if_fail (annotation != NULL, NULL);

  copy = g_memdup2 (annotation, sizeof *annotation);
  span_anchor_copy (&copy->span, &annotation->span);
  span_anchor_copy (&copy->to, &annotation->to);
  copy->tracks = g_strdupv (annotation->tracks);
  copy->text = g_strdup (annotation->text);
  return copy;
}

void
chrono_annotation_free (ChronoAnnotation *annotation)
{
  if (annotation == NULL)
    return;
  chrono_span_anchor_clear (&annotation->span);
  chrono_span_anchor_clear (&annotation->to);
  g_strfreev (annotation->tracks);
  g_free (annotation->text);
  g_free (annotation);
}

void
chrono_span_anchor_set (ChronoSpanAnchor   *anchor,
                        ChronoTrace        *trace,
                        const char * const *keys,
                        ChronoSpanRef       span)
{
  const ChronoTrack *track;

  g_return_if_fail (anchor != NULL);
  g_return_if_fail (CHRONO_IS_TRACE (trace));
  g_return_if_fail (span.track < chrono_trace_get_n_tracks (trace));

  track = chrono_trace_get_track (trace, span.track);
  g_return_if_fail (span.index < track->n_spans);
  chrono_span_anchor_clear (anchor);
  anchor->track = g_strdup (keys[span.track]);
  anchor->start_ns = track->start[span.index];
  anchor->name = g_strdup (chrono_trace_get_string (trace, chrono_track_get_name (track, span.index)));
}

GHashTable *
chrono_annotations_index_keys (const char * const *keys)
{
  GHashTable *index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    g_hash_table_insert (index, g_strdup (keys[i]), GUINT_TO_POINTER (i + 1));
  return index;
}

gboolean
chrono_span_anchor_resolve (const ChronoSpanAnchor *anchor,
                            ChronoTrace            *trace,
                            GHashTable             *tracks_by_key,
                            ChronoSpanRef          *span)
{
  const ChronoTrack *track;
  guint track_number;
  guint32 lo = 0, hi;

  g_return_val_if_fail (anchor != NULL, FALSE);
  g_return_val_if_fail (CHRONO_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (span != NULL, FALSE);

  if (anchor->track == NULL ||
      (track_number = GPOINTER_TO_UINT (g_hash_table_lookup (tracks_by_key, anchor->track))) == 0 ||
      track_number > chrono_trace_get_n_tracks (trace))
    return FALSE;
  track = chrono_trace_get_track (trace, track_number - 1);

  /* Spans are sorted by start: the first at START_NS, then its equals. */
  hi = track->n_spans;
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (track->start[mid] < anchor->start_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint32 i = lo; i < track->n_spans && track->start[i] == anchor->start_ns; i++)
    if (g_strcmp0 (chrono_trace_get_string (trace, chrono_track_get_name (track, i)), anchor->name) == 0)
      {
        span->track = track_number - 1;
        span->index = i;
        return TRUE;
      }
  return FALSE;
}

/* -------------------------------------------------------------------- */
/* The set, and its history                                             */

/* One annotation before and after a change: BEFORE is NULL for an add,
 * AFTER for a removal. */
typedef struct {
  ChronoAnnotation *before;
  ChronoAnnotation *after;
} Change;

struct _ChronoAnnotations
{
  GObject    parent_instance;

  GPtrArray *items;     /* ChronoAnnotation, by id */
  guint      next_id;
  GPtrArray *history;   /* GArray of Change: a step each */
  guint      n_done;    /* steps of HISTORY applied; the rest can be redone */
};

G_DEFINE_FINAL_TYPE (ChronoAnnotations, chrono_annotations, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
change_clear (gpointer data)
{
  Change *change = data;

  g_clear_pointer (&change->before, chrono_annotation_free);
  g_clear_pointer (&change->after, chrono_annotation_free);
}

static GArray *
step_new (void)
{
  GArray *step = g_array_new (FALSE, FALSE, sizeof (Change));

  g_array_set_clear_func (step, change_clear);
  return step;
}

static void
chrono_annotations_finalize (GObject *object)
{
  ChronoAnnotations *self = CHRONO_ANNOTATIONS (object);

  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->history, g_ptr_array_unref);

  G_OBJECT_CLASS (chrono_annotations_parent_class)->finalize (object);
}

static void
chrono_annotations_class_init (ChronoAnnotationsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_annotations_finalize;

  /* Any annotation was added, changed or removed. */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
chrono_annotations_init (ChronoAnnotations *self)
{
  self->items = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_annotation_free);
  self->history = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  self->next_id = 1;
}

ChronoAnnotations *
chrono_annotations_new (void)
{
  return g_object_new (CHRONO_TYPE_ANNOTATIONS, NULL);
}

static guint
find_index (ChronoAnnotations *self,
            guint              id)
{
  for (guint i = 0; i < self->items->len; i++)
    if (((ChronoAnnotation *) g_ptr_array_index (self->items, i))->id == id)
      return i;
  return G_MAXUINT;
}

/* Puts the annotation that was FROM into the state TO: either may be
 * NULL, for one not there. Ids keep the order. */
static void
apply (ChronoAnnotations      *self,
       const ChronoAnnotation *from,
       const ChronoAnnotation *to)
{
  guint id = from != NULL ? from->id : to->id;
  guint i = find_index (self, id);

  if (to == NULL)
    {
      g_ptr_array_remove_index (self->items, i);
      return;
    }
  if (i != G_MAXUINT)
    {
      chrono_annotation_free (g_ptr_array_index (self->items, i));
      g_ptr_array_index (self->items, i) = chrono_annotation_copy (to);
      return;
    }
  for (i = 0; i < self->items->len && ((ChronoAnnotation *) g_ptr_array_index (self->items, i))->id < id; i++)
    ;
  g_ptr_array_insert (self->items, i, chrono_annotation_copy (to));
}

/* Applies STEP and keeps it as the last one done. */
static void
push (ChronoAnnotations *self,
      GArray            *step)
{
  for (guint i = 0; i < step->len; i++)
    apply (self, g_array_index (step, Change, i).before, g_array_index (step, Change, i).after);
  g_ptr_array_set_size (self->history, self->n_done);
  g_ptr_array_add (self->history, step);
  self->n_done++;
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
add_change (GArray                 *step,
            const ChronoAnnotation *before,
            const ChronoAnnotation *after)
{
  Change change = { before != NULL ? chrono_annotation_copy (before) : NULL,
                    after != NULL ? chrono_annotation_copy (after) : NULL };

  g_array_append_val (step, change);
}

guint
chrono_annotations_get_n (ChronoAnnotations *self)
{
  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (self), 0);
  return self->items->len;
}

const ChronoAnnotation *
chrono_annotations_get (ChronoAnnotations *self,
                        guint              index)
{
  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (self), NULL);
  g_return_val_if_fail (index < self->items->len, NULL);
  return g_ptr_array_index (self->items, index);
}

const ChronoAnnotation *
chrono_annotations_lookup (ChronoAnnotations *self,
                           guint              id)
{
  guint i;

  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (self), NULL);
  i = find_index (self, id);
  return i == G_MAXUINT ? NULL : g_ptr_array_index (self->items, i);
}

/* A copy with a new id, and a time of its own when it has none. */
static ChronoAnnotation *
make_new (ChronoAnnotations      *self,
          const ChronoAnnotation *annotation)
{
  ChronoAnnotation *copy = chrono_annotation_copy (annotation);

  copy->id = self->next_id++;
  if (copy->created_us == 0)
    copy->created_us = g_get_real_time ();
  return copy;
}

guint
chrono_annotations_add (ChronoAnnotations      *self,
                        const ChronoAnnotation *annotation)
{
  g_autoptr(ChronoAnnotation) added = NULL;
  GArray *step;

  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (self), 0);
  g_return_val_if_fail (annotation != NULL, 0);

  added = make_new (self, annotation);
  step = step_new ();
  add_change (step, NULL, added);
  push (self, step);
  return added->id;
}

gboolean
chrono_annotations_update (ChronoAnnotations      *self,
                           const ChronoAnnotation *annotation)
{
  const ChronoAnnotation *old;
  GArray *step;

  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (self), FALSE);
  g_return_val_if_fail (annotation != NULL, FALSE);

  if ((old = chrono_annotations_lookup (self, annotation->id)) == NULL)
    return FALSE;
  step = step_new ();
  add_change (step, old, annotation);
  push (self, step);
  return TRUE;
}

gboolean
chrono_annotations_remove (ChronoAnnotations *self,
                           guint              id)
{
  const ChronoAnnotation *old;
  GArray *step;

  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (self), FALSE);

  if ((old = chrono_annotations_lookup (self, id)) == NULL)
    return FALSE;
  step = step_new ();
  add_change (step, old, NULL);
  push (self, step);
  return TRUE;
}

gboolean
chrono_annotations_can_undo (ChronoAnnotations *self)
{
  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (self), FALSE);
  return self->n_done > 0;
}

gboolean
chrono_annotations_can_redo (ChronoAnnotations *self)
{
  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (self), FALSE);
  return self->n_done < self->history->len;
}

gboolean
chrono_annotations_undo (ChronoAnnotations *self)
{
  GArray *step;

  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (self), FALSE);

  if (self->n_done == 0)
    return FALSE;
  step = g_ptr_array_index (self->history, --self->n_done);
  for (guint i = step->len; i-- > 0;)
    apply (self, g_array_index (step, Change, i).after, g_array_index (step, Change, i).before);
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

gboolean
chrono_annotations_redo (ChronoAnnotations *self)
{
  GArray *step;

  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (self), FALSE);

  if (self->n_done >= self->history->len)
    return FALSE;
  step = g_ptr_array_index (self->history, self->n_done++);
  for (guint i = 0; i < step->len; i++)
    apply (self, g_array_index (step, Change, i).before, g_array_index (step, Change, i).after);
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

/* -------------------------------------------------------------------- */
/* JSON                                                                 */

static void
add_span_anchor (JsonBuilder            *builder,
                 const char             *name,
                 const ChronoSpanAnchor *anchor)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "track");
  json_builder_add_string_value (builder, anchor->track != NULL ? anchor->track : "");
  json_builder_set_member_name (builder, "start_ns");
  json_builder_add_int_value (builder, anchor->start_ns);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, anchor->name != NULL ? anchor->name : "");
  json_builder_end_object (builder);
}

static void
add_annotation (JsonBuilder            *builder,
                const ChronoAnnotation *a)
{
  g_autoptr(GDateTime) created = g_date_time_new_from_unix_utc (a->created_us / G_USEC_PER_SEC);
  g_autofree char *when = created != NULL ? g_date_time_format_iso8601 (created) : g_strdup ("");
  g_autofree char *color = g_strdup_printf ("#%08x", a->color);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, kind_names[a->kind]);
  json_builder_set_member_name (builder, "anchor");
  json_builder_add_string_value (builder, anchor_names[a->anchor]);
  if (a->anchor == CHRONO_ANCHOR_SPAN)
    add_span_anchor (builder, a->kind == CHRONO_ANNOTATION_ARROW ? "from" : "span", &a->span);
  if (a->kind == CHRONO_ANNOTATION_ARROW)
    add_span_anchor (builder, "to", &a->to);
  if (a->anchor != CHRONO_ANCHOR_SPAN)
    {
      json_builder_set_member_name (builder, "start_ns");
      json_builder_add_int_value (builder, a->start_ns);
    }
  if (a->anchor == CHRONO_ANCHOR_AREA)
    {
      json_builder_set_member_name (builder, "end_ns");
      json_builder_add_int_value (builder, a->end_ns);
      json_builder_set_member_name (builder, "tracks");
      json_builder_begin_array (builder);
      for (guint i = 0; a->tracks != NULL && a->tracks[i] != NULL; i++)
        json_builder_add_string_value (builder, a->tracks[i]);
      json_builder_end_array (builder);
    }
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, a->text != NULL ? a->text : "");
  json_builder_set_member_name (builder, "color");
  json_builder_add_string_value (builder, color);
  json_builder_set_member_name (builder, "created");
  json_builder_add_string_value (builder, when);
  json_builder_end_object (builder);
}

JsonNode *
chrono_annotations_to_json (ChronoAnnotations *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (self), NULL);

  json_builder_begin_array (builder);
  for (guint i = 0; i < self->items->len; i++)
    add_annotation (builder, g_ptr_array_index (self->items, i));
  json_builder_end_array (builder);
  return json_builder_get_root (builder);
}

static gboolean
invalid (GError    **error,
         const char *where,
         guint       index,
         const char *what)
{
  g_set_error (error, CHRONO_ANNOTATIONS_ERROR, CHRONO_ANNOTATIONS_ERROR_INVALID,
               _("%s: annotation %u: %s"), where, index + 1, what);
  return FALSE;
}

static int
find_name (const char *const *names,
           guint              n,
           const char        *name)
{
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (names[i], name) == 0)
      return i;
  return -1;
}

static gboolean
read_int (JsonObject *object,
          const char *member,
          gint64     *value)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  *value = json_node_get_int (node);
  return TRUE;
}

static const char *
read_string (JsonObject *object,
             const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static gboolean
read_span_anchor (JsonObject       *object,
                  const char       *member,
                  ChronoSpanAnchor *anchor)
{
  JsonNode *node = json_object_get_member (object, member);
  JsonObject *span;
  const char *track, *name;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  span = json_node_get_object (node);
  if ((track = read_string (span, "track")) == NULL || (name = read_string (span, "name")) == NULL ||
      !read_int (span, "start_ns", &anchor->start_ns))
    return FALSE;
  anchor->track = g_strdup (track);
  anchor->name = g_strdup (name);
  return TRUE;
}

/* One element of the array; INDEX for errors. */
static ChronoAnnotation *
read_annotation (JsonNode    *node,
                 const char  *where,
                 guint        index,
                 GError     **error)
{
  g_autoptr(ChronoAnnotation) a = g_new0 (ChronoAnnotation, 1);
  JsonObject *object;
  const char *text, *color, *created;
  int kind, anchor;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return invalid (error, where, index, _("not an object")), NULL;
  object = json_node_get_object (node);
  if ((kind = find_name (kind_names, G_N_ELEMENTS (kind_names), read_string (object, "kind"))) < 0)
    return invalid (error, where, index, _("“kind” must be note, arrow, measurement or highlight")), NULL;
  if ((anchor = find_name (anchor_names, G_N_ELEMENTS (anchor_names), read_string (object, "anchor"))) < 0)
    return invalid (error, where, index, _("“anchor” must be span, instant or area")), NULL;
  a->kind = kind;
  a->anchor = anchor;
  if ((kind == CHRONO_ANNOTATION_ARROW && anchor != CHRONO_ANCHOR_SPAN) ||
      (kind == CHRONO_ANNOTATION_MEASUREMENT && anchor != CHRONO_ANCHOR_AREA) ||
      (kind == CHRONO_ANNOTATION_HIGHLIGHT && anchor == CHRONO_ANCHOR_INSTANT))
    return invalid (error, where, index, _("this kind cannot have this anchor")), NULL;
  if (anchor == CHRONO_ANCHOR_SPAN &&
      !read_span_anchor (object, kind == CHRONO_ANNOTATION_ARROW ? "from" : "span", &a->span))
    return invalid (error, where, index, _("its span needs “track”, “start_ns” and “name”")), NULL;
  if (kind == CHRONO_ANNOTATION_ARROW && !read_span_anchor (object, "to", &a->to))
    return invalid (error, where, index, _("an arrow's “to” needs “track”, “start_ns” and “name”")), NULL;
  if (anchor != CHRONO_ANCHOR_SPAN && !read_int (object, "start_ns", &a->start_ns))
    return invalid (error, where, index, _("“start_ns” must be an integer")), NULL;
  if (anchor == CHRONO_ANCHOR_AREA)
    {
      JsonNode *tracks = json_object_get_member (object, "tracks");
      g_autoptr(GStrvBuilder) keys = g_strv_builder_new ();

      if (!read_int (object, "end_ns", &a->end_ns) || a->end_ns < a->start_ns)
        return invalid (error, where, index, _("“end_ns” must be an integer, not before “start_ns”")), NULL;
      if (tracks != NULL && !JSON_NODE_HOLDS_ARRAY (tracks))
        return invalid (error, where, index, _("“tracks” must be an array of track keys")), NULL;
      for (guint i = 0; tracks != NULL && i < json_array_get_length (json_node_get_array (tracks)); i++)
        {
          JsonNode *key = json_array_get_element (json_node_get_array (tracks), i);

          if (json_node_get_value_type (key) != G_TYPE_STRING)
            return invalid (error, where, index, _("“tracks” must be an array of track keys")), NULL;
          g_strv_builder_add (keys, json_node_get_string (key));
        }
      a->tracks = g_strv_builder_end (keys);
    }
  text = read_string (object, "text");
  a->text = g_strdup (text != NULL ? text : "");
  color = read_string (object, "color");
  if (color != NULL)
    {
      char *end = NULL;
      guint64 value = color[0] == '#' ? g_ascii_strtoull (color + 1, &end, 16) : 0;

      if (end == NULL || *end != '\0' || strlen (color) != 9 || value > G_MAXUINT32)
        return invalid (error, where, index, _("“color” must be #rrggbbaa")), NULL;
      a->color = (guint32) value;
    }
  created = read_string (object, "created");
  if (created != NULL && *created != '\0')
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_iso8601 (created, NULL);

      if (when == NULL)
        return invalid (error, where, index, _("“created” must be an ISO 8601 time")), NULL;
      a->created_us = g_date_time_to_unix (when) * G_USEC_PER_SEC;
    }
  return g_steal_pointer (&a);
}

/* The annotations of NODE as a step that adds them, with new ids. */
static GArray *
read_all (ChronoAnnotations *self,
          JsonNode          *node,
          const char        *where,
          GError           **error)
{
  g_autoptr(GArray) step = step_new ();
  JsonArray *array;
  guint next_id = self->next_id;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, CHRONO_ANNOTATIONS_ERROR, CHRONO_ANNOTATIONS_ERROR_INVALID,
                   _("%s: the annotations must be an array"), where);
      return NULL;
    }
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      ChronoAnnotation *a = read_annotation (json_array_get_element (array, i), where, i, error);
      Change change = { NULL, a };

      if (a == NULL)
        return NULL;
      a->id = next_id++;
      g_array_append_val (step, change);
    }
  self->next_id = next_id;
  return g_steal_pointer (&step);
}

gboolean
chrono_annotations_load_json (ChronoAnnotations  *self,
                              JsonNode           *node,
                              const char         *where,
                              GError            **error)
{
  g_autoptr(GArray) step = NULL;

  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (self), FALSE);
  g_return_val_if_fail (where != NULL, FALSE);

  if ((step = read_all (self, node, where, error)) == NULL)
    return FALSE;
  g_ptr_array_set_size (self->items, 0);
  g_ptr_array_set_size (self->history, 0);
  self->n_done = 0;
  for (guint i = 0; i < step->len; i++)
    apply (self, NULL, g_array_index (step, Change, i).after);
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

gboolean
chrono_annotations_export (ChronoAnnotations  *self,
                           const char         *path,
                           const char         *trace_name,
                           GError            **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, CHRONO_NOTES_FORMAT);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, CHRONO_NOTES_VERSION);
  json_builder_set_member_name (builder, "trace");
  json_builder_add_string_value (builder, trace_name != NULL ? trace_name : "");
  json_builder_set_member_name (builder, "annotations");
  json_builder_add_value (builder, chrono_annotations_to_json (self));
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  return g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
}

gboolean
chrono_annotations_import (ChronoAnnotations  *self,
                           const char         *path,
                           GError            **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) parse_error = NULL;
  JsonObject *root;
  JsonNode *version;
  GArray *step;

  g_return_val_if_fail (CHRONO_IS_ANNOTATIONS (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!json_parser_load_from_file (parser, path, &parse_error))
    {
      if (parse_error->domain == G_FILE_ERROR)
        g_propagate_prefixed_error (error, g_steal_pointer (&parse_error), "%s: ", path);
      else
        g_set_error (error, CHRONO_ANNOTATIONS_ERROR, CHRONO_ANNOTATIONS_ERROR_INVALID,
                     _("%s: not a notes file: %s"), path, parse_error->message);
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)) ||
      g_strcmp0 (read_string ((root = json_node_get_object (json_parser_get_root (parser))), "format"),
                 CHRONO_NOTES_FORMAT) != 0)
    {
      g_set_error (error, CHRONO_ANNOTATIONS_ERROR, CHRONO_ANNOTATIONS_ERROR_INVALID,
                   _("%s: not a notes file: it needs \"format\": \"%s\""), path, CHRONO_NOTES_FORMAT);
      return FALSE;
    }
  version = json_object_get_member (root, "version");
  if (version == NULL || json_node_get_value_type (version) != G_TYPE_INT64)
    {
      g_set_error (error, CHRONO_ANNOTATIONS_ERROR, CHRONO_ANNOTATIONS_ERROR_INVALID,
                   _("%s: the notes file has no \"version\" number"), path);
      return FALSE;
    }
  if (json_node_get_int (version) > CHRONO_NOTES_VERSION || json_node_get_int (version) < 1)
    {
      g_set_error (error, CHRONO_ANNOTATIONS_ERROR, CHRONO_ANNOTATIONS_ERROR_VERSION,
                   _("%s: notes version %" PRId64 ", but this version of Chronoscope reads up to %d"),
                   path, json_node_get_int (version), CHRONO_NOTES_VERSION);
      return FALSE;
    }
  if ((step = read_all (self, json_object_get_member (root, "annotations"), path, error)) == NULL)
    return FALSE;
  push (self, step);
  return TRUE;
}
