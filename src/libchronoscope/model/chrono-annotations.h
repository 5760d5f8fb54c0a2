/* chrono-annotations.h: what a person writes on a trace: notes on a span,
 * an instant or an area, arrows between spans, measurements between two
 * instants and highlights, anchored to what names them across loads;
 * with undo and redo, and a notes file to share them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "chrono-trace.h"

G_BEGIN_DECLS

/* The notes file: docs/notes-format.md. */
#define CHRONO_NOTES_FORMAT  "chronoscope-notes"
#define CHRONO_NOTES_VERSION 1

#define CHRONO_ANNOTATIONS_ERROR (chrono_annotations_error_quark ())

typedef enum {
  CHRONO_ANNOTATIONS_ERROR_INVALID,  /* not JSON, or not the shape we write */
  CHRONO_ANNOTATIONS_ERROR_VERSION,  /* a newer version of the notes file */
} ChronoAnnotationsError;

GQuark chrono_annotations_error_quark (void);

typedef enum {
  CHRONO_ANNOTATION_NOTE,
  CHRONO_ANNOTATION_ARROW,        /* from SPAN to TO, its text a label */
  CHRONO_ANNOTATION_MEASUREMENT,  /* START_NS to END_NS, drawn with its duration */
  CHRONO_ANNOTATION_HIGHLIGHT,    /* a colour over a span or an area */
} ChronoAnnotationKind;

/* What a note or a highlight is on. Arrows are on spans, measurements
 * on areas (of every track). */
typedef enum {
  CHRONO_ANCHOR_SPAN,
  CHRONO_ANCHOR_INSTANT,  /* START_NS */
  CHRONO_ANCHOR_AREA,     /* START_NS to END_NS over TRACKS */
} ChronoAnchorType;

/* A span by what names it across loads and re-imports of its trace: its
 * track's key (chrono_track_keys_new()), its start in the trace's clock
 * and its name. */
typedef struct {
  char   *track;
  gint64  start_ns;
  char   *name;
} ChronoSpanAnchor;

typedef struct {
  guint                id;          /* given by chrono_annotations_add() */
  ChronoAnnotationKind kind;
  ChronoAnchorType     anchor;
  ChronoSpanAnchor     span;        /* SPAN; an arrow's tail */
  ChronoSpanAnchor     to;          /* an arrow's head */
  gint64               start_ns;    /* INSTANT and AREA, in the trace's clock */
  gint64               end_ns;      /* AREA */
  GStrv                tracks;      /* AREA: track keys; NULL or empty for all */
  char                *text;
  guint32              color;       /* 0xRRGGBBAA */
  gint64               created_us;  /* wall clock, µs since 1970 */
} ChronoAnnotation;

ChronoAnnotation *chrono_annotation_copy (const ChronoAnnotation *annotation);
void              chrono_annotation_free (ChronoAnnotation       *annotation);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoAnnotation, chrono_annotation_free)

/* SPAN of TRACE, whose tracks KEYS names. */
void     chrono_span_anchor_set     (ChronoSpanAnchor       *anchor,
                                     ChronoTrace            *trace,
                                     const char * const     *keys,
                                     ChronoSpanRef           span);
void     chrono_span_anchor_clear   (ChronoSpanAnchor       *anchor);
/* The span ANCHOR names in TRACE; TRACKS_BY_KEY maps track keys to the
 * track's index + 1 (chrono_annotations_index_keys()). FALSE when the
 * trace has no such span. */
gboolean chrono_span_anchor_resolve (const ChronoSpanAnchor *anchor,
                                     ChronoTrace            *trace,
                                     GHashTable             *tracks_by_key,
                                     ChronoSpanRef          *span);
GHashTable *chrono_annotations_index_keys (const char * const *keys);

#define CHRONO_TYPE_ANNOTATIONS (chrono_annotations_get_type ())
G_DECLARE_FINAL_TYPE (ChronoAnnotations, chrono_annotations, CHRONO, ANNOTATIONS, GObject)

ChronoAnnotations      *chrono_annotations_new      (void);
guint                   chrono_annotations_get_n    (ChronoAnnotations      *self);
/* In the order they were made. */
const ChronoAnnotation *chrono_annotations_get      (ChronoAnnotations      *self,
                                                     guint                   index);
const ChronoAnnotation *chrono_annotations_lookup   (ChronoAnnotations      *self,
                                                     guint                   id);
/* A copy of ANNOTATION, with an id of its own and, when it has none,
 * the time it was made; returns the id. */
guint                   chrono_annotations_add      (ChronoAnnotations      *self,
                                                     const ChronoAnnotation *annotation);
/* Replaces the annotation with ANNOTATION's id; FALSE when there is none. */
gboolean                chrono_annotations_update   (ChronoAnnotations      *self,
                                                     const ChronoAnnotation *annotation);
gboolean                chrono_annotations_remove   (ChronoAnnotations      *self,
                                                     guint                   id);
gboolean                chrono_annotations_can_undo (ChronoAnnotations      *self);
gboolean                chrono_annotations_can_redo (ChronoAnnotations      *self);
gboolean                chrono_annotations_undo     (ChronoAnnotations      *self);
gboolean                chrono_annotations_redo     (ChronoAnnotations      *self);

/* The annotations as a JSON array, for the project file, and back: a
 * load replaces them all and forgets the history. WHERE names the
 * source in errors. */
JsonNode               *chrono_annotations_to_json  (ChronoAnnotations      *self);
gboolean                chrono_annotations_load_json (ChronoAnnotations     *self,
                                                      JsonNode              *node,
                                                      const char            *where,
                                                      GError               **error);

/* The notes file, written atomically, naming the trace they were made on. */
gboolean                chrono_annotations_export   (ChronoAnnotations      *self,
                                                     const char             *path,
                                                     const char             *trace_name,
                                                     GError                **error);
/* Adds a notes file's annotations, as one step to undo. */
gboolean                chrono_annotations_import   (ChronoAnnotations      *self,
                                                     const char             *path,
                                                     GError                **error);

G_END_DECLS
