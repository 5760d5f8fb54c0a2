/* test-picture.c: the timeline scene as PNG, SVG and PDF, without a
 * display, and chronoscope-cli export
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gstdio.h>

#include <math.h>
#include <stdlib.h>

#include "chrono-analysis.h"
#include "chrono-efficiency.h"
#include "chrono-finding-scene.h"
#include "chrono-format.h"
#include "chrono-palette.h"
#include "chrono-picture.h"
#include "chrono-track-keys.h"
#include "chrono-timeline-scene.h"
#include "test-utils.h"

#define KINETO "kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz"
#define WIDTH  1200
#define HEIGHT 420
#define TITLE  "Where step 6 goes"
#define NOTE   "Data loading holds up step 6"
#define LOADER "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"

typedef struct {
  ChronoTrace         *trace;
  ChronoTrackLayout   *layout;
  ChronoViewport      *viewport;
  ChronoTimelineScene *scene;
  char                *dir;
} Fixture;

static gboolean
fixture_set_up (Fixture *f)
{
  memset (f, 0, sizeof *f);
  f->trace = test_traces_load (KINETO);
  if (f->trace == NULL)
    return FALSE;
  f->layout = chrono_track_layout_new (f->trace);
  f->viewport = chrono_viewport_new ();
  chrono_viewport_set_bounds (f->viewport, chrono_trace_get_start_ns (f->trace), chrono_trace_get_end_ns (f->trace));
  f->scene = chrono_timeline_scene_new (f->trace, NULL, f->layout, f->viewport);
  chrono_timeline_scene_set_size (f->scene, WIDTH, HEIGHT);
  chrono_viewport_show_all (f->viewport);
  f->dir = g_dir_make_tmp ("chrono-picture-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  return TRUE;
}

static void
fixture_tear_down (Fixture *f)
{
  if (f->dir != NULL)
    {
      g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (f->dir, name, NULL);
          g_unlink (path);
        }
      g_rmdir (f->dir);
    }
  g_free (f->dir);
  g_clear_object (&f->scene);
  g_clear_object (&f->viewport);
  g_clear_object (&f->layout);
  g_clear_object (&f->trace);
}

/* The first span named NAME that starts in [FROM, TO). */
static ChronoSpanRef
find_span (ChronoTrace *trace,
           const char  *name,
           gint64       from,
           gint64       to)
{
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      for (guint32 i = 0; i < track->n_spans; i++)
        if (track->start[i] >= from && track->start[i] < to &&
            g_str_equal (chrono_trace_get_string (trace, chrono_track_get_name (track, i)), name))
          return (ChronoSpanRef) { t, i };
    }
  g_assert_not_reached ();
}

/* A note on the data loading that starts in [FROM, TO), and a
 * measurement of 120 ms from 10 ms after FROM. */
static ChronoAnnotations *
annotate (ChronoTrace *trace,
          gint64       from,
          gint64       to)
{
  ChronoAnnotations *set = chrono_annotations_new ();
  g_auto(GStrv) keys = chrono_track_keys_new (trace);
  ChronoAnnotation note = { .kind = CHRONO_ANNOTATION_NOTE, .anchor = CHRONO_ANCHOR_SPAN,
                            .text = (char *) NOTE, .color = 0xe66100ff };
  ChronoAnnotation measure = { .kind = CHRONO_ANNOTATION_MEASUREMENT, .anchor = CHRONO_ANCHOR_AREA,
                               .start_ns = from + 10000000, .end_ns = from + 130000000, .text = (char *) "step 6",
                               .color = 0x1c71d8ff };

  chrono_span_anchor_set (&note.span, trace, (const char * const *) keys,
                          find_span (trace, LOADER, from, to));
  chrono_annotations_add (set, &note);
  chrono_annotations_add (set, &measure);
  chrono_span_anchor_clear (&note.span);
  return set;
}

static const ChronoPictureOptions options = { TITLE, "resnet50 · whole trace", TRUE, 1 };

static guint
count_coloured (cairo_surface_t *surface)
{
  int width = cairo_image_surface_get_width (surface), height = cairo_image_surface_get_height (surface);
  int stride = cairo_image_surface_get_stride (surface);
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint n = 0;

  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        guint32 p = *(const guint32 *) (data + y * stride + 4 * x);
        int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

        n += MAX (r, MAX (g, b)) - MIN (r, MIN (g, b)) > 40;
      }
  return n;
}

/* The PNG is the title, the scene's own pixels, then the legend. */
static void
test_png (void)
{
  Fixture f;
  g_autofree char *path = NULL;
  cairo_surface_t *png, *direct;
  double title;
  guint differ = 0;
  cairo_t *cr;

  if (!fixture_set_up (&f))
    return;
  path = g_build_filename (f.dir, "view.png", NULL);
  g_assert_true (chrono_picture_write (f.scene, &options, CHRONO_PICTURE_PNG, path, NULL));

  png = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (png), ==, WIDTH);
  g_assert_cmpint (cairo_image_surface_get_height (png), ==, (int) chrono_picture_get_height (f.scene, &options));
  title = chrono_picture_get_title_height (f.scene, &options);
  g_assert_cmpfloat (title, >, 20);
  /* The legend takes room under the scene. */
  g_assert_cmpfloat (chrono_picture_get_height (f.scene, &options), >, title + HEIGHT + 10);

  direct = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cr = cairo_create (direct);
  chrono_timeline_scene_draw (f.scene, cr);
  cairo_destroy (cr);
  cairo_surface_flush (direct);
  g_assert_cmpuint (count_coloured (direct), >, WIDTH * 10);
  for (int y = 0; y < HEIGHT; y++)
    differ += memcmp (cairo_image_surface_get_data (direct) + y * cairo_image_surface_get_stride (direct),
                      cairo_image_surface_get_data (png) + ((int) title + y) * cairo_image_surface_get_stride (png),
                      4 * WIDTH) != 0;
  g_assert_cmpuint (differ, ==, 0);
  cairo_surface_destroy (png);

  /* A highlight tints its span: the span's own colour still shows. */
  {
    g_autoptr(ChronoAnnotations) set = chrono_annotations_new ();
    g_auto(GStrv) keys = chrono_track_keys_new (f.trace);
    ChronoAnnotation highlight = { .kind = CHRONO_ANNOTATION_HIGHLIGHT, .anchor = CHRONO_ANCHOR_SPAN,
                                   .color = 0xff0000ff };
    ChronoSpanRef step = find_span (f.trace, "ProfilerStep#6", 0, G_MAXINT64);
    graphene_rect_t area;
    cairo_surface_t *tinted = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
    guint32 before, after;
    int x, y;

    chrono_span_anchor_set (&highlight.span, f.trace, (const char * const *) keys, step);
    chrono_annotations_add (set, &highlight);
    chrono_span_anchor_clear (&highlight.span);
    chrono_timeline_scene_set_annotations (f.scene, set);
    cr = cairo_create (tinted);
    chrono_timeline_scene_draw (f.scene, cr);
    cairo_destroy (cr);
    cairo_surface_flush (tinted);
    g_assert_true (chrono_timeline_scene_get_span_area (f.scene, step, &area));
    x = area.origin.x + area.size.width / 2;
    y = area.origin.y + 2;   /* above its label's text */
    before = *(guint32 *) (cairo_image_surface_get_data (direct) + y * cairo_image_surface_get_stride (direct) + 4 * x);
    after = *(guint32 *) (cairo_image_surface_get_data (tinted) + y * cairo_image_surface_get_stride (tinted) + 4 * x);
    g_assert_cmpuint (before, !=, after);
    /* Redder, but far from the highlight's pure red. */
    g_assert_cmpuint ((after >> 16) & 0xff, >, (before >> 16) & 0xff);
    g_assert_cmpuint (after & 0xff, >, 0x40);
    chrono_timeline_scene_set_annotations (f.scene, NULL);
    cairo_surface_destroy (tinted);
  }
  cairo_surface_destroy (direct);

  /* Twice the pixels at scale 2. */
  {
    ChronoPictureOptions twice = options;

    twice.scale = 2;
    g_assert_true (chrono_picture_write (f.scene, &twice, CHRONO_PICTURE_PNG, path, NULL));
    png = cairo_image_surface_create_from_png (path);
    g_assert_cmpint (cairo_image_surface_get_width (png), ==, 2 * WIDTH);
    g_assert_cmpint (cairo_image_surface_get_height (png), ==, 2 * (int) chrono_picture_get_height (f.scene, &options));
    cairo_surface_destroy (png);
  }
  fixture_tear_down (&f);
}

typedef struct {
  guint depth_in_defs;   /* glyphs live in <defs> */
  guint filled_paths;    /* shapes outside <defs> */
  guint images;
  guint depth;
  guint svg_roots;
} SvgCount;

static void
svg_start (GMarkupParseContext *context,
           const char          *element,
           const char         **names,
           const char         **values,
           gpointer             user_data,
           GError             **error)
{
  SvgCount *count = user_data;

  count->depth++;
  if (count->depth == 1)
    count->svg_roots += strcmp (element, "svg") == 0;
  if (strcmp (element, "defs") == 0)
    count->depth_in_defs++;
  if (strcmp (element, "image") == 0)
    count->images++;
  if (count->depth_in_defs == 0 && (strcmp (element, "path") == 0 || strcmp (element, "rect") == 0))
    for (guint i = 0; names[i] != NULL; i++)
      if (strcmp (names[i], "style") == 0 && strstr (values[i], "fill:rgb") != NULL)
        count->filled_paths++;
}

static void
svg_end (GMarkupParseContext *context,
         const char          *element,
         gpointer             user_data,
         GError             **error)
{
  SvgCount *count = user_data;

  count->depth--;
  if (strcmp (element, "defs") == 0)
    count->depth_in_defs--;
}

static SvgCount
parse_svg (const char *path)
{
  static const GMarkupParser parser = { svg_start, svg_end, NULL, NULL, NULL };
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GMarkupParseContext) context = NULL;
  SvgCount count = { 0 };
  gsize length;
  const char *body;

  g_assert_true (g_file_get_contents (path, &text, &length, NULL));
  /* GMarkup reads the document, not the XML declaration before it. */
  body = strstr (text, "<svg");
  g_assert_nonnull (body);
  context = g_markup_parse_context_new (&parser, 0, &count, NULL);
  g_markup_parse_context_parse (context, body, length - (body - text), &error);
  g_assert_no_error (error);
  g_markup_parse_context_end_parse (context, &error);
  g_assert_no_error (error);
  return count;
}

/* Spans are shapes, none an image; the document is well formed. */
static void
test_svg (void)
{
  Fixture f;
  g_autofree char *path = NULL;
  SvgCount count;

  if (!fixture_set_up (&f))
    return;
  path = g_build_filename (f.dir, "view.svg", NULL);
  g_assert_true (chrono_picture_write (f.scene, &options, CHRONO_PICTURE_SVG, path, NULL));
  count = parse_svg (path);
  g_assert_cmpuint (count.svg_roots, ==, 1);
  g_assert_cmpuint (count.images, ==, 0);
  g_assert_cmpuint (count.filled_paths, >, 200);
  fixture_tear_down (&f);
}

static gboolean
have_program (const char *name)
{
  g_autofree char *path = g_find_program_in_path (name);

  return path != NULL;
}

static char *
run_tool (const char *const *argv)
{
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

/* Poppler reads the PDF: it renders, and its text holds the title, the
 * track names and the span labels. */
static void
test_pdf (void)
{
  Fixture f;
  g_autofree char *path = NULL, *prefix = NULL, *png_path = NULL, *raw = NULL, *text = NULL, *duration = NULL;
  g_autoptr(ChronoAnnotations) annotations = NULL;
  cairo_surface_t *png;
  gint64 zero;

  if (!have_program ("pdftotext") || !have_program ("pdftoppm"))
    {
      g_test_skip ("pdftotext and pdftoppm (poppler-utils) are not installed");
      return;
    }
  if (!fixture_set_up (&f))
    return;
  /* Step 6 alone: its host ops are wide enough for their names. */
  zero = chrono_trace_get_start_ns (f.trace);
  chrono_viewport_zoom_to_range (f.viewport, zero + 170000000, zero + 350000000);
  path = g_build_filename (f.dir, "view.pdf", NULL);
  g_assert_true (chrono_picture_write (f.scene, &options, CHRONO_PICTURE_PDF, path, NULL));
  raw = run_tool ((const char *[]) { "pdftotext", "-layout", path, "-", NULL });
  g_assert_null (strstr (raw, NOTE));
  g_clear_pointer (&raw, g_free);

  annotations = annotate (f.trace, zero + 170000000, zero + 350000000);
  chrono_timeline_scene_set_annotations (f.scene, annotations);
  g_assert_true (chrono_picture_write (f.scene, &options, CHRONO_PICTURE_PDF, path, NULL));

  raw = run_tool ((const char *[]) { "pdftotext", "-layout", path, "-", NULL });
  /* Names as the trace wrote them: "fi" is two letters, not the one
   * ligature glyph that some readers neither copy nor find. */
  text = g_strdup (raw);
  for (gunichar c = 0xfb00; c <= 0xfb06; c++)
    {
      char ligature[8] = { 0 };

      g_unichar_to_utf8 (c, ligature);
      g_assert_null (strstr (text, ligature));
    }
  g_assert_nonnull (strstr (text, TITLE));
  g_assert_nonnull (strstr (text, "stream 7"));
  g_assert_nonnull (strstr (text, "ProfilerStep#6"));
  g_assert_nonnull (strstr (text, "enumerate"));
  g_assert_nonnull (strstr (text, "kernel"));   /* the legend */
  g_assert_nonnull (strstr (text, NOTE));
  duration = chrono_format_duration (120000000);
  g_assert_nonnull (strstr (text, duration));

  prefix = g_build_filename (f.dir, "rendered", NULL);
  g_free (run_tool ((const char *[]) { "pdftoppm", "-png", "-r", "72", "-singlefile", path, prefix, NULL }));
  png_path = g_strconcat (prefix, ".png", NULL);
  png = cairo_image_surface_create_from_png (png_path);
  g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (png), ==, WIDTH);
  g_assert_cmpuint (count_coloured (png), >, WIDTH * 10);
  cairo_surface_destroy (png);
  fixture_tear_down (&f);
}

/* A picture replaces the file whole, leaves nothing beside it, and a
 * folder that is not there is named in the error. */
static void
test_files (void)
{
  Fixture f;
  g_autofree char *path = NULL, *missing = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  guint n_files = 0;

  if (!fixture_set_up (&f))
    return;
  path = g_build_filename (f.dir, "view.pdf", NULL);
  g_assert_true (g_file_set_contents (path, "old", -1, NULL));
  g_assert_true (chrono_picture_write (f.scene, &options, CHRONO_PICTURE_PDF, path, NULL));
  dir = g_dir_open (f.dir, 0, NULL);
  while (g_dir_read_name (dir) != NULL)
    n_files++;
  g_assert_cmpuint (n_files, ==, 1);

  missing = g_build_filename (f.dir, "no-such-folder", "view.png", NULL);
  g_assert_false (chrono_picture_write (f.scene, &options, CHRONO_PICTURE_PNG, missing, &error));
  g_assert_nonnull (error);
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
  fixture_tear_down (&f);
}

/* chronoscope-cli export with no display at all. */
static int
run_cli (const char *const *args,
         char             **err)
{
  g_autoptr(GStrvBuilder) argv = g_strv_builder_new ();
  g_auto(GStrv) argv_strv = NULL;
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  int status;

  envp = g_environ_unsetenv (envp, "DISPLAY");
  envp = g_environ_unsetenv (envp, "WAYLAND_DISPLAY");
  g_strv_builder_add (argv, g_getenv ("CHRONO_CLI"));
  g_strv_builder_add (argv, "export");
  g_strv_builder_addv (argv, (const char **) args);
  argv_strv = g_strv_builder_end (argv);
  g_assert_true (g_spawn_sync (NULL, argv_strv, envp, G_SPAWN_DEFAULT, NULL, NULL, NULL, err, &status, &error));
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* --notes: a notes file drawn into the picture; one that names spans the
 * trace lacks says so; a broken one fails, named. */
static void
test_cli_notes (const char *trace_path,
                const char *tmp)
{
  g_autoptr(ChronoTrace) trace = chrono_trace_load_file (trace_path, NULL, NULL, NULL, NULL);
  gint64 zero = chrono_trace_get_start_ns (trace);
  g_autoptr(ChronoAnnotations) set = annotate (trace, zero + 170000000, zero + 350000000);
  g_autoptr(ChronoAnnotations) stranger = chrono_annotations_new ();
  g_autofree char *notes = g_build_filename (tmp, "notes.json", NULL);
  g_autofree char *bad = g_build_filename (tmp, "bad-notes.json", NULL);
  g_autofree char *pdf = g_build_filename (tmp, "notes.pdf", NULL);
  ChronoAnnotation lost = { .kind = CHRONO_ANNOTATION_NOTE, .anchor = CHRONO_ANCHOR_SPAN,
                            .span = { (char *) "thread pid=1 tid=1 name=", 5, (char *) "gone" } };
  char *err = NULL;

  g_assert_true (chrono_annotations_export (set, notes, KINETO, NULL));
  g_assert_cmpint (run_cli ((const char *[]) { trace_path, "-o", pdf, "--range", "170:350", "--notes", notes, NULL },
                            &err), ==, 0);
  /* Every annotation found its span: nothing to say. */
  g_assert_null (strstr (err, "chronoscope-cli"));
  g_clear_pointer (&err, g_free);
  if (have_program ("pdftotext"))
    {
      g_autofree char *raw = run_tool ((const char *[]) { "pdftotext", pdf, "-", NULL });
      g_autofree char *text = g_utf8_normalize (raw, -1, G_NORMALIZE_ALL);

      g_assert_nonnull (strstr (text, NOTE));
    }

  chrono_annotations_add (stranger, &lost);
  g_assert_true (chrono_annotations_export (stranger, notes, "another.json", NULL));
  g_assert_cmpint (run_cli ((const char *[]) { trace_path, "-o", pdf, "--notes", notes, NULL }, &err), ==, 0);
  g_assert_nonnull (strstr (err, "1 of its 1 annotations point at spans this trace does not have"));
  g_clear_pointer (&err, g_free);

  g_assert_true (g_file_set_contents (bad, "{\"format\": \"chronoscope-notes\", \"version\": 99}", -1, NULL));
  g_assert_cmpint (run_cli ((const char *[]) { trace_path, "-o", pdf, "--notes", bad, NULL }, &err), ==, 1);
  g_assert_nonnull (strstr (err, bad));
  g_assert_nonnull (strstr (err, "version 99"));
  g_clear_pointer (&err, g_free);
  g_unlink (notes);
  g_unlink (bad);
  g_unlink (pdf);
}

static void
test_cli (void)
{
  const char *dir = g_getenv ("CHRONO_TRACES_DIR");
  g_autofree char *trace = NULL, *tmp = NULL, *svg = NULL, *png = NULL, *gif = NULL;
  char *err = NULL;
  SvgCount count;
  cairo_surface_t *surface;

  if (g_getenv ("CHRONO_CLI") == NULL || dir == NULL ||
      !g_file_test ((trace = g_build_filename (dir, KINETO, NULL)), G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no chronoscope-cli or no traces");
      return;
    }
  tmp = g_dir_make_tmp ("chrono-export-XXXXXX", NULL);
  svg = g_build_filename (tmp, "step.svg", NULL);
  png = g_build_filename (tmp, "gpu.png", NULL);
  gif = g_build_filename (tmp, "view.gif", NULL);

  g_assert_cmpint (run_cli ((const char *[]) { trace, "-o", svg, "--step", "7", "--theme", "dark",
                                               "--title", "Step 7", NULL }, &err), ==, 0);
  g_clear_pointer (&err, g_free);
  count = parse_svg (svg);
  g_assert_cmpuint (count.images, ==, 0);
  g_assert_cmpuint (count.filled_paths, >, 100);

  g_assert_cmpint (run_cli ((const char *[]) { trace, "-o", png, "--range", "0:300ms", "--tracks", "stream*",
                                               "--width", "900", "--no-legend", NULL }, &err), ==, 0);
  g_clear_pointer (&err, g_free);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 900);
  /* The ruler, one process's header and its one stream, under a subtitle. */
  g_assert_cmpint (cairo_image_surface_get_height (surface), <, 200);
  g_assert_cmpuint (count_coloured (surface), >, 1000);
  cairo_surface_destroy (surface);

  g_assert_cmpint (run_cli ((const char *[]) { trace, "-o", gif, NULL }, &err), ==, 2);
  g_assert_nonnull (strstr (err, ".png, .svg or .pdf"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli ((const char *[]) { trace, "-o", png, "--step", "9999", NULL }, &err), ==, 1);
  g_assert_nonnull (strstr (err, "no step #9999"));
  g_assert_nonnull (strstr (err, "ProfilerStep#5"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli ((const char *[]) { trace, "-o", png, "--tracks", "no-such-track", NULL }, &err), ==, 1);
  g_assert_nonnull (strstr (err, "no-such-track"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli ((const char *[]) { trace, "-o", png, "--range", "5ms:1ms", NULL }, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--range"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli ((const char *[]) { "/no/such/trace.json", "-o", png, NULL }, &err), ==, 1);
  g_assert_nonnull (strstr (err, "/no/such/trace.json"));
  g_clear_pointer (&err, g_free);

  test_cli_notes (trace, tmp);
  g_unlink (svg);
  g_unlink (png);
  g_rmdir (tmp);
}

static void
count_changed (gpointer data)
{
  (*(guint *) data)++;
}

/* Two scenes on one viewport, as a comparison stacks them: one time
 * axis, the lower one without a ruler, both told when it moves. */
static void
test_stacked (void)
{
  Fixture f;
  g_autoptr(ChronoTimelineScene) lower = NULL;
  g_autoptr(ChronoTrackLayout) layout = NULL;
  graphene_rect_t upper_area, lower_area;
  ChronoSpanRef step;
  guint upper_changes = 0, lower_changes = 0;

  if (!fixture_set_up (&f))
    return;
  layout = chrono_track_layout_new (f.trace);
  lower = chrono_timeline_scene_new (f.trace, NULL, layout, f.viewport);
  chrono_timeline_scene_set_show_ruler (lower, FALSE);
  chrono_timeline_scene_set_size (lower, WIDTH, HEIGHT);
  g_assert_cmpfloat (chrono_timeline_scene_get_ruler_height (lower), ==, 0);
  g_assert_cmpuint (chrono_timeline_scene_find_row_at (lower, 1), ==, 0);
  g_assert_cmpuint (chrono_timeline_scene_find_row_at (f.scene, 1), ==, CHRONO_SCENE_NO_ROW);

  step = find_span (f.trace, "ProfilerStep#6", 0, G_MAXINT64);
  g_assert_true (chrono_timeline_scene_get_span_area (f.scene, step, &upper_area));
  g_assert_true (chrono_timeline_scene_get_span_area (lower, step, &lower_area));
  g_assert_cmpfloat (upper_area.origin.x, ==, lower_area.origin.x);
  g_assert_cmpfloat (upper_area.size.width, ==, lower_area.size.width);
  g_assert_cmpfloat (upper_area.origin.y - lower_area.origin.y, ==, CHRONO_SCENE_RULER_HEIGHT);

  g_signal_connect_swapped (f.scene, "changed", G_CALLBACK (count_changed), &upper_changes);
  g_signal_connect_swapped (lower, "changed", G_CALLBACK (count_changed), &lower_changes);
  chrono_viewport_zoom (f.viewport, 2, WIDTH / 2.0);
  g_assert_cmpuint (upper_changes, >, 0);
  g_assert_cmpuint (lower_changes, >, 0);
  g_assert_true (chrono_timeline_scene_get_span_area (lower, step, &lower_area));
  g_assert_true (chrono_timeline_scene_get_span_area (f.scene, step, &upper_area));
  g_assert_cmpfloat (upper_area.origin.x, ==, lower_area.origin.x);
  g_signal_handlers_disconnect_by_data (f.scene, &upper_changes);
  g_clear_object (&lower);
  fixture_tear_down (&f);
}

static cairo_surface_t *
draw_scene (ChronoTimelineScene *scene)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                                         (int) chrono_timeline_scene_get_width (scene),
                                                         (int) chrono_timeline_scene_get_height (scene));
  cairo_t *cr = cairo_create (surface);

  chrono_timeline_scene_draw (scene, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* Pixels that differ between A and B in [X0, X1) x [Y0, Y1). */
static guint
count_differing_in (cairo_surface_t *a,
                    cairo_surface_t *b,
                    int              x0,
                    int              y0,
                    int              x1,
                    int              y1)
{
  guint n = 0;

  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      n += ((guint32 *) (cairo_image_surface_get_data (a) + y * cairo_image_surface_get_stride (a)))[x] !=
           ((guint32 *) (cairo_image_surface_get_data (b) + y * cairo_image_surface_get_stride (b)))[x];
  return n;
}

/* Rows of PICTURE from TOP that differ from SCENE's own drawing. */
static guint
count_differing (cairo_surface_t *picture,
                 int              top,
                 cairo_surface_t *scene)
{
  guint differ = 0;

  for (int y = 0; y < cairo_image_surface_get_height (scene); y++)
    differ += memcmp (cairo_image_surface_get_data (scene) + y * cairo_image_surface_get_stride (scene),
                      cairo_image_surface_get_data (picture) + (top + y) * cairo_image_surface_get_stride (picture),
                      4 * cairo_image_surface_get_width (scene)) != 0;
  return differ;
}

/* Two scenes in one picture, as a comparison exports them: each drawn
 * as on its own, one under the other, under one title; a badge before
 * every name and the ruler's own zero show in the drawing. */
static void
test_stack (void)
{
  Fixture f;
  g_autoptr(ChronoTimelineScene) lower = NULL;
  g_autoptr(ChronoViewport) viewport = chrono_viewport_new ();
  g_autofree char *path = NULL;
  cairo_surface_t *png, *upper_alone, *lower_alone, *plain;
  ChronoSpanRef step;
  double title;

  if (!fixture_set_up (&f))
    return;
  chrono_viewport_set_bounds (viewport, chrono_trace_get_start_ns (f.trace), chrono_trace_get_end_ns (f.trace));
  lower = chrono_timeline_scene_new (f.trace, NULL, f.layout, viewport);
  chrono_timeline_scene_set_size (lower, WIDTH, HEIGHT / 2);
  step = find_span (f.trace, "ProfilerStep#6", 0, G_MAXINT64);
  chrono_viewport_zoom_to_range (viewport, chrono_trace_get_track (f.trace, step.track)->start[step.index],
                                 chrono_track_get_end (chrono_trace_get_track (f.trace, step.track), step.index));

  plain = draw_scene (lower);
  chrono_timeline_scene_set_badge (lower, "B");
  g_assert_cmpstr (chrono_timeline_scene_get_badge (lower), ==, "B");
  lower_alone = draw_scene (lower);
  /* The badge takes room in the name column only. */
  g_assert_cmpuint (count_differing_in (plain, lower_alone, 0, CHRONO_SCENE_RULER_HEIGHT, CHRONO_SCENE_HEADER_WIDTH,
                                        HEIGHT / 2), >, 50);
  g_assert_cmpuint (count_differing_in (plain, lower_alone, CHRONO_SCENE_HEADER_WIDTH, CHRONO_SCENE_RULER_HEIGHT,
                                        WIDTH, HEIGHT / 2), ==, 0);
  cairo_surface_destroy (plain);
  plain = lower_alone;
  /* Counting from the step's start relabels the ruler (the grid under it
   * follows its ticks). */
  chrono_timeline_scene_set_time_zero (lower, chrono_trace_get_track (f.trace, step.track)->start[step.index],
                                       "Time from step start");
  lower_alone = draw_scene (lower);
  g_assert_cmpuint (count_differing_in (plain, lower_alone, 0, 0, WIDTH, CHRONO_SCENE_RULER_HEIGHT), >, 50);
  cairo_surface_destroy (plain);

  upper_alone = draw_scene (f.scene);
  path = g_build_filename (f.dir, "stack.png", NULL);
  g_assert_true (chrono_picture_write_stack ((ChronoTimelineScene *[]) { f.scene, lower }, 2, &options,
                                             CHRONO_PICTURE_PNG, path, NULL));
  png = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
  title = chrono_picture_get_title_height (f.scene, &options);
  g_assert_cmpint (cairo_image_surface_get_height (png), ==,
                   (int) chrono_picture_get_stack_height ((ChronoTimelineScene *[]) { f.scene, lower }, 2, &options));
  g_assert_cmpfloat (chrono_picture_get_stack_height ((ChronoTimelineScene *[]) { f.scene, lower }, 2, &options), >,
                     title + HEIGHT + HEIGHT / 2);
  g_assert_cmpuint (count_differing (png, (int) title, upper_alone), ==, 0);
  g_assert_cmpuint (count_differing (png, (int) title + HEIGHT, lower_alone), ==, 0);
  cairo_surface_destroy (png);
  cairo_surface_destroy (upper_alone);
  cairo_surface_destroy (lower_alone);
  fixture_tear_down (&f);
}

static int
run_report (const char *const *args,
            char             **err)
{
  g_autoptr(GStrvBuilder) argv = g_strv_builder_new ();
  g_auto(GStrv) argv_strv = NULL;
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  int status;

  envp = g_environ_unsetenv (envp, "DISPLAY");
  envp = g_environ_unsetenv (envp, "WAYLAND_DISPLAY");
  g_strv_builder_add (argv, g_getenv ("CHRONO_CLI"));
  g_strv_builder_add (argv, "report");
  g_strv_builder_addv (argv, (const char **) args);
  argv_strv = g_strv_builder_end (argv);
  g_assert_true (g_spawn_sync (NULL, argv_strv, envp, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, err, &status,
                               &error));
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* The accent's columns in PNG: the two edges of the finding's shaded
 * range, where it crosses every row. */
static void
find_band_edges (cairo_surface_t *png,
                 int             *left,
                 int             *right)
{
  GdkRGBA background, text, accent;
  int width = cairo_image_surface_get_width (png), height = cairo_image_surface_get_height (png);
  int stride = cairo_image_surface_get_stride (png);
  const guint8 *data = cairo_image_surface_get_data (png);
  guint best = 0, second = 0;
  guint32 want;

  chrono_palette_canvas_colors (FALSE, &background, &text, &accent);
  want = 0xff000000 | (guint32) (accent.red * 255 + 0.5) << 16 | (guint32) (accent.green * 255 + 0.5) << 8 |
         (guint32) (accent.blue * 255 + 0.5);
  *left = *right = -1;
  for (int x = CHRONO_SCENE_HEADER_WIDTH; x < width; x++)
    {
      guint n = 0;

      for (int y = 0; y < height; y++)
        n += *(const guint32 *) (data + y * stride + 4 * x) == want;
      if (n > best)
        {
          second = best;
          *right = *left;
          best = n;
          *left = x;
        }
      else if (n > second)
        {
          second = n;
          *right = x;
        }
    }
  if (*left > *right)
    {
      int t = *left;

      *left = *right;
      *right = t;
    }
}

/* The report's Markdown points at pictures that exist; each finding's
 * picture shows its range, shaded, with context either side; the HTML
 * carries its pictures inside it. */
static void
test_report (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load (KINETO);
  g_autofree char *path = NULL, *tmp = NULL, *md_path = NULL, *md = NULL, *html_path = NULL, *html = NULL;
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(GRegex) pictures = g_regex_new ("!\\[[^]]*\\]\\(([^)]+)\\)", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  char *err = NULL;
  guint n_pictures = 0;

  if (trace == NULL)
    return;
  path = g_build_filename (g_getenv ("CHRONO_TRACES_DIR"), KINETO, NULL);
  tmp = g_dir_make_tmp ("chrono-report-XXXXXX", NULL);
  analysis = chrono_analysis_run ((ChronoTrace *[]) { trace }, 1, NULL, NULL, NULL);
  g_assert_cmpuint (chrono_analysis_get_n_findings (analysis), >=, 2);

  g_assert_cmpint (run_report ((const char *[]) { path, "-o", tmp, "--top", "2", NULL }, &err), ==, 0);
  g_clear_pointer (&err, g_free);
  md_path = g_build_filename (tmp, "report.md", NULL);
  g_assert_true (g_file_get_contents (md_path, &md, NULL, NULL));
  g_assert_nonnull (strstr (md, chrono_analysis_get_finding (analysis, 0)->title));
  g_assert_nonnull (strstr (md, "# Where the time goes"));

  g_regex_match (pictures, md, 0, &match);
  while (g_match_info_matches (match))
    {
      g_autofree char *name = g_match_info_fetch (match, 1);
      g_autofree char *file = g_build_filename (tmp, name, NULL);
      cairo_surface_t *png = cairo_image_surface_create_from_png (file);

      g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
      if (g_str_has_prefix (name, "finding-"))
        {
          int left, right;

          /* The range in view with context either side of it. */
          find_band_edges (png, &left, &right);
          g_assert_cmpint (left, >, CHRONO_SCENE_HEADER_WIDTH + 2);
          g_assert_cmpint (right, >, left);
          g_assert_cmpint (right, <, cairo_image_surface_get_width (png) - 2);
        }
      cairo_surface_destroy (png);
      n_pictures++;
      g_match_info_next (match, NULL);
    }
  /* Two findings and the device time. */
  g_assert_cmpuint (n_pictures, ==, 3);

  g_assert_cmpint (run_report ((const char *[]) { path, "-o", tmp, "--top", "1", "--format", "html", NULL }, &err),
                   ==, 0);
  g_clear_pointer (&err, g_free);
  html_path = g_build_filename (tmp, "report.html", NULL);
  g_assert_true (g_file_get_contents (html_path, &html, NULL, NULL));
  g_assert_nonnull (strstr (html, "<img alt="));
  g_assert_nonnull (strstr (html, "src=\"data:image/png;base64,"));
  g_assert_null (strstr (html, "](finding-"));
  g_assert_nonnull (strstr (html, "<table>"));

  g_assert_cmpint (run_report ((const char *[]) { path, "-o", tmp, "--format", "docx", NULL }, &err), ==, 2);
  g_assert_nonnull (strstr (err, "docx"));
  g_clear_pointer (&err, g_free);

  {
    g_autoptr(GDir) dir = g_dir_open (tmp, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *file = g_build_filename (tmp, name, NULL);
        g_unlink (file);
      }
  }
  g_rmdir (tmp);
}

/* Whether a pixel of the outline of the span at AREA, at least 5 px
 * wide, is near RED. */
static gboolean
near_red (cairo_surface_t       *surface,
              graphene_rect_t        area,
              const GdkRGBA         *red)
{
  double w = MAX (area.size.width, 5);
  int x0 = (int) floor (area.origin.x + (area.size.width - w) / 2);
  int y = (int) (area.origin.y + area.size.height / 2);
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);

  cairo_surface_flush (surface);
  for (int x = MAX (x0, 0); x <= x0 + 1 && x < cairo_image_surface_get_width (surface); x++)
    {
      guint32 p = *(const guint32 *) (data + y * stride + 4 * x);
      int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

      if (abs (r - (int) (red->red * 255)) + abs (g - (int) (red->green * 255)) + abs (b - (int) (red->blue * 255)) < 60)
        return TRUE;
    }
  return FALSE;
}

/* The low-efficiency finding of an operator with CALLS calls. */
static const ChronoFinding *
find_operator_finding (ChronoAnalysis *analysis,
                       guint          *calls)
{
  for (guint i = 0; i < chrono_analysis_get_n_findings (analysis); i++)
    {
      const ChronoFinding *f = chrono_analysis_get_finding (analysis, i);

      for (guint e = 0; e < f->n_evidence && g_str_equal (f->rule, "low-efficiency"); e++)
        if (g_str_equal (f->evidence[e].key, "calls"))
          {
            *calls = (guint) f->evidence[e].value;
            return f;
          }
    }
  g_assert_not_reached ();
}

/* A finding's picture frames its own evidence: an operator's calls and
 * their kernels, each outlined in red, all in the frame and on rows in
 * view; the processes they are not on collapsed. */
static void
test_finding_evidence (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load ("tracelens__h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(ChronoTimelineScene) scene = NULL;
  const ChronoSpanRef *marks;
  const ChronoFinding *finding;
  ChronoViewport *viewport;
  ChronoTrackLayout *layout;
  cairo_surface_t *surface;
  cairo_t *cr;
  GdkRGBA red;
  guint n_marks, calls = 0, on_host = 0, on_device = 0, outlined = 0, collapsed = 0;
  double top, height;

  if (trace == NULL)
    return;
  analysis = chrono_analysis_run ((ChronoTrace *[]) { trace }, 1, NULL, NULL, NULL);
  finding = find_operator_finding (analysis, &calls);
  g_assert_cmpuint (calls, >, 1);
  scene = chrono_finding_scene_new (analysis, finding, NULL, 1600, FALSE);
  height = chrono_timeline_scene_get_ruler_height (scene) + chrono_timeline_scene_get_content_height (scene);
  chrono_timeline_scene_set_size (scene, 1600, height);
  viewport = chrono_timeline_scene_get_viewport (scene);
  layout = chrono_timeline_scene_get_layout (scene);
  top = chrono_timeline_scene_get_ruler_height (scene);
  marks = chrono_timeline_scene_get_marks (scene, &n_marks);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1600, (int) height);
  cr = cairo_create (surface);
  chrono_timeline_scene_draw (scene, cr);
  cairo_destroy (cr);
  gdk_rgba_parse (&red, "#c01c28");
  for (guint i = 0; i < n_marks; i++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, marks[i].track);
      graphene_rect_t area;

      /* In the frame, on a row drawn. */
      g_assert_cmpint (track->start[marks[i].index], >=, chrono_viewport_get_start_ns (viewport));
      g_assert_cmpint (chrono_track_get_end (track, marks[i].index), <=, chrono_viewport_get_end_ns (viewport));
      g_assert_true (chrono_timeline_scene_get_span_area (scene, marks[i], &area));
      g_assert_cmpfloat (area.origin.y, >=, top);
      g_assert_cmpfloat (area.origin.y + area.size.height, <=, height);
      g_assert_cmpfloat (area.origin.x, >=, CHRONO_SCENE_HEADER_WIDTH - 1);
      g_assert_cmpfloat (area.origin.x + area.size.width, <=, 1601);
      /* Outlined: red at its left edge, halfway down. */
      outlined += near_red (surface, area, &red);
      on_host += track->type == CHRONO_TRACK_THREAD;
      on_device += track->type == CHRONO_TRACK_STREAM;
    }
  /* Every call, and device work of them. */
  g_assert_cmpuint (on_host, ==, calls);
  g_assert_cmpuint (on_device, >=, calls);
  g_assert_cmpuint (outlined, >=, n_marks * 9 / 10);
  for (guint p = 0; p < chrono_trace_get_n_processes (trace); p++)
    collapsed += chrono_track_layout_is_collapsed (layout, p);
  g_assert_cmpuint (collapsed, >, 0);
  cairo_surface_destroy (surface);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/picture/png", test_png);
  g_test_add_func ("/picture/svg", test_svg);
  g_test_add_func ("/picture/pdf", test_pdf);
  g_test_add_func ("/picture/files", test_files);
  g_test_add_func ("/picture/cli", test_cli);
  g_test_add_func ("/picture/report", test_report);
  g_test_add_func ("/picture/finding-evidence", test_finding_evidence);
  g_test_add_func ("/picture/stacked", test_stacked);
  g_test_add_func ("/picture/stack", test_stack);

  return g_test_run ();
}
