/* test-annotations.c: annotations: edits with undo and redo, anchors
 * that find their spans in a re-imported trace, the project file's
 * section and the notes file, and the errors of a bad one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gstdio.h>

#include "chrono-annotations.h"
#include "chrono-track-keys.h"
#include "test-utils.h"

/* Two threads; "b" and "b2" start together on one of them. */
static const char *TRACE_JSON =
  "{\"traceEvents\": ["
  "{\"ph\":\"X\",\"pid\":1,\"tid\":10,\"name\":\"a\",\"ts\":100,\"dur\":50},"
  "{\"ph\":\"X\",\"pid\":1,\"tid\":10,\"name\":\"b\",\"ts\":200,\"dur\":30},"
  "{\"ph\":\"X\",\"pid\":1,\"tid\":10,\"name\":\"b2\",\"ts\":200,\"dur\":10},"
  "{\"ph\":\"X\",\"pid\":1,\"tid\":11,\"name\":\"c\",\"ts\":120,\"dur\":90}"
  "]}";

static ChronoSpanRef
span_named (ChronoTrace *trace,
            const char  *name)
{
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      for (guint32 i = 0; i < track->n_spans; i++)
        if (g_str_equal (chrono_trace_get_string (trace, chrono_track_get_name (track, i)), name))
          return (ChronoSpanRef) { t, i };
    }
  g_assert_not_reached ();
}

static ChronoAnnotation *
span_note (ChronoTrace *trace,
           const char  *span,
           const char  *text)
{
  g_auto(GStrv) keys = chrono_track_keys_new (trace);
  ChronoAnnotation *a = g_new0 (ChronoAnnotation, 1);

  a->kind = CHRONO_ANNOTATION_NOTE;
  a->anchor = CHRONO_ANCHOR_SPAN;
  chrono_span_anchor_set (&a->span, trace, (const char * const *) keys, span_named (trace, span));
  a->text = g_strdup (text);
  a->color = 0xe5a50aff;
  return a;
}

static void
test_edit_undo_redo (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (TRACE_JSON);
  g_autoptr(ChronoAnnotations) set = chrono_annotations_new ();
  g_autoptr(ChronoAnnotation) note = span_note (trace, "b2", "too short");
  g_autoptr(ChronoAnnotation) edited = NULL;
  ChronoAnnotation measure = { .kind = CHRONO_ANNOTATION_MEASUREMENT, .anchor = CHRONO_ANCHOR_AREA,
                               .start_ns = 100000, .end_ns = 230000, .text = (char *) "step" };
  guint id, id2;

  g_assert_false (chrono_annotations_can_undo (set));
  id = chrono_annotations_add (set, note);
  id2 = chrono_annotations_add (set, &measure);
  g_assert_cmpuint (id, !=, id2);
  g_assert_cmpuint (chrono_annotations_get_n (set), ==, 2);
  g_assert_cmpint (chrono_annotations_lookup (set, id)->created_us, >, 0);

  edited = chrono_annotation_copy (chrono_annotations_lookup (set, id));
  g_free (edited->text);
  edited->text = g_strdup ("ten microseconds");
  g_assert_true (chrono_annotations_update (set, edited));
  g_assert_cmpstr (chrono_annotations_lookup (set, id)->text, ==, "ten microseconds");
  g_assert_true (chrono_annotations_remove (set, id2));
  g_assert_null (chrono_annotations_lookup (set, id2));

  /* Back through the removal and the edit, then forward again. */
  g_assert_true (chrono_annotations_undo (set));
  g_assert_nonnull (chrono_annotations_lookup (set, id2));
  g_assert_cmpuint (chrono_annotations_get (set, 1)->id, ==, id2);
  g_assert_true (chrono_annotations_undo (set));
  g_assert_cmpstr (chrono_annotations_lookup (set, id)->text, ==, "too short");
  g_assert_true (chrono_annotations_redo (set));
  g_assert_cmpstr (chrono_annotations_lookup (set, id)->text, ==, "ten microseconds");
  g_assert_true (chrono_annotations_undo (set));
  g_assert_true (chrono_annotations_undo (set));
  g_assert_true (chrono_annotations_undo (set));
  g_assert_cmpuint (chrono_annotations_get_n (set), ==, 0);
  g_assert_false (chrono_annotations_undo (set));
  /* A new edit drops what could have been redone. */
  chrono_annotations_add (set, &measure);
  g_assert_false (chrono_annotations_can_redo (set));
  g_assert_false (chrono_annotations_update (set, &(ChronoAnnotation) { .id = 999 }));
}

/* By key, start and name: the same span in a trace loaded again, with
 * the twin that starts with it told apart by name. */
static void
test_anchor_survives_reimport (void)
{
  g_autoptr(ChronoTrace) first = test_load_json (TRACE_JSON);
  g_autoptr(ChronoTrace) again = test_load_json (TRACE_JSON);
  g_autoptr(ChronoAnnotation) note = span_note (first, "b2", "x");
  g_auto(GStrv) keys = chrono_track_keys_new (again);
  g_autoptr(GHashTable) index = chrono_annotations_index_keys ((const char * const *) keys);
  ChronoSpanAnchor gone = { .track = note->span.track, .start_ns = note->span.start_ns, .name = (char *) "zz" };
  ChronoSpanRef span;

  g_assert_true (chrono_span_anchor_resolve (&note->span, again, index, &span));
  g_assert_cmpstr (chrono_trace_get_string (again, chrono_track_get_name (chrono_trace_get_track (again, span.track),
                                                                           span.index)), ==, "b2");
  g_assert_false (chrono_span_anchor_resolve (&gone, again, index, &span));
  gone.name = (char *) "b2";
  gone.track = (char *) "no such track";
  g_assert_false (chrono_span_anchor_resolve (&gone, again, index, &span));
}

static void
test_notes_file (void)
{
  g_autoptr(ChronoTrace) trace = test_load_json (TRACE_JSON);
  g_autoptr(ChronoAnnotations) set = chrono_annotations_new ();
  g_autoptr(ChronoAnnotations) other = chrono_annotations_new ();
  g_autoptr(ChronoAnnotations) reloaded = chrono_annotations_new ();
  g_autoptr(ChronoAnnotation) note = span_note (trace, "c", "waits on a");
  g_autoptr(ChronoAnnotation) arrow = span_note (trace, "a", "launches");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) section = NULL;
  g_auto(GStrv) keys = chrono_track_keys_new (trace);
  g_autofree char *dir = g_dir_make_tmp ("chrono-notes-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "review.chronoscope-notes.json", NULL);
  const char *area_tracks[] = { keys[0], NULL };
  ChronoAnnotation area = { .kind = CHRONO_ANNOTATION_HIGHLIGHT, .anchor = CHRONO_ANCHOR_AREA,
                            .start_ns = 100000, .end_ns = 150000, .tracks = (GStrv) area_tracks,
                            .text = (char *) "hot", .color = 0xff000080 };
  const ChronoAnnotation *back;

  arrow->kind = CHRONO_ANNOTATION_ARROW;
  chrono_span_anchor_set (&arrow->to, trace, (const char * const *) keys, span_named (trace, "c"));
  chrono_annotations_add (set, note);
  chrono_annotations_add (set, arrow);
  chrono_annotations_add (set, &area);

  g_assert_true (chrono_annotations_export (set, path, "trace.json", &error));
  g_assert_no_error (error);
  g_assert_true (chrono_annotations_import (other, path, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_annotations_get_n (other), ==, 3);
  back = chrono_annotations_get (other, 1);
  g_assert_cmpint (back->kind, ==, CHRONO_ANNOTATION_ARROW);
  g_assert_cmpstr (back->to.name, ==, "c");
  g_assert_cmpstr (back->span.name, ==, "a");
  g_assert_cmpstr (back->text, ==, "launches");
  /* Seconds survive: the file keeps the creation time to the second. */
  g_assert_cmpint (back->created_us / G_USEC_PER_SEC, ==, chrono_annotations_get (set, 1)->created_us / G_USEC_PER_SEC);
  back = chrono_annotations_get (other, 2);
  g_assert_cmpuint (back->color, ==, 0xff000080);
  g_assert_cmpstr (back->tracks[0], ==, keys[0]);
  g_assert_null (back->tracks[1]);
  /* An import is one step to undo. */
  g_assert_true (chrono_annotations_undo (other));
  g_assert_cmpuint (chrono_annotations_get_n (other), ==, 0);

  /* The project file's section: the same array. */
  section = chrono_annotations_to_json (set);
  g_assert_true (chrono_annotations_load_json (reloaded, section, "project", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_annotations_get_n (reloaded), ==, 3);
  g_assert_false (chrono_annotations_can_undo (reloaded));
  g_assert_cmpstr (chrono_annotations_get (reloaded, 0)->text, ==, "waits on a");

  g_unlink (path);
  g_rmdir (dir);
}

static void
check_import_error (const char *text,
                    const char *expected)
{
  g_autoptr(ChronoAnnotations) set = chrono_annotations_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("chrono-notes-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "bad.json", NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_false (chrono_annotations_import (set, path, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, path));
  if (strstr (error->message, expected) == NULL)
    g_error ("“%s” does not say “%s”", error->message, expected);
  g_assert_cmpuint (chrono_annotations_get_n (set), ==, 0);
  g_assert_false (chrono_annotations_can_undo (set));
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_bad_notes (void)
{
  check_import_error ("not json", "not a notes file");
  check_import_error ("{\"annotations\": []}", "\"format\"");
  check_import_error ("{\"format\": \"chronoscope-notes\", \"annotations\": []}", "\"version\"");
  check_import_error ("{\"format\": \"chronoscope-notes\", \"version\": 7, \"annotations\": []}", "version 7");
  check_import_error ("{\"format\": \"chronoscope-notes\", \"version\": 1, \"annotations\": {}}", "array");
  check_import_error ("{\"format\": \"chronoscope-notes\", \"version\": 1, \"annotations\": "
                      "[{\"kind\": \"note\", \"anchor\": \"instant\", \"start_ns\": 5}, {\"kind\": \"doodle\"}]}",
                      "annotation 2");
  check_import_error ("{\"format\": \"chronoscope-notes\", \"version\": 1, \"annotations\": "
                      "[{\"kind\": \"arrow\", \"anchor\": \"span\", \"from\": {\"track\": \"t\", \"start_ns\": 1, "
                      "\"name\": \"a\"}}]}", "“to”");
  check_import_error ("{\"format\": \"chronoscope-notes\", \"version\": 1, \"annotations\": "
                      "[{\"kind\": \"measurement\", \"anchor\": \"area\", \"start_ns\": 9, \"end_ns\": 2}]}",
                      "end_ns");
  check_import_error ("{\"format\": \"chronoscope-notes\", \"version\": 1, \"annotations\": "
                      "[{\"kind\": \"note\", \"anchor\": \"instant\", \"start_ns\": 5, \"color\": \"red\"}]}",
                      "#rrggbbaa");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/annotations/edit-undo-redo", test_edit_undo_redo);
  g_test_add_func ("/annotations/anchor-survives-reimport", test_anchor_survives_reimport);
  g_test_add_func ("/annotations/notes-file", test_notes_file);
  g_test_add_func ("/annotations/bad-notes", test_bad_notes);

  return g_test_run ();
}
