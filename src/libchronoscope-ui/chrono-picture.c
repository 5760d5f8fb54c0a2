/* chrono-picture.c: a timeline scene as a picture to share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <gio/gio.h>
#include <pango/pangocairo.h>

#include "chrono-palette.h"
#include "chrono-picture.h"
#include "chrono-text-layout.h"

#define MARGIN        12.0
#define TITLE_SIZE    1.5   /* times the scene's font */
#define LINE_GAP      4.0
#define SWATCH        12.0
#define LEGEND_GAP    18.0

static gboolean
has_text (const char *text)
{
  return text != NULL && *text != '\0';
}

static PangoLayout *
new_layout (ChronoTimelineScene *scene,
            const char          *text,
            double               size_factor,
            gboolean             bold)
{
  PangoContext *context = chrono_timeline_scene_get_pango_context (scene);
  PangoLayout *layout = pango_layout_new (context);
  g_autoptr(PangoFontDescription) font = pango_font_description_copy (pango_context_get_font_description (context));

  chrono_text_layout_disable_ligatures (layout);

  pango_font_description_set_size (font, (int) (pango_font_description_get_size (font) * size_factor));
  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  return layout;
}

static double
layout_height (PangoLayout *layout)
{
  int height;

  pango_layout_get_pixel_size (layout, NULL, &height);
  return height;
}

double
chrono_picture_get_title_height (ChronoTimelineScene        *scene,
                                 const ChronoPictureOptions *options)
{
  double height = 0;

  g_return_val_if_fail (CHRONO_IS_TIMELINE_SCENE (scene), 0);
  g_return_val_if_fail (options != NULL, 0);

  if (has_text (options->title))
    {
      g_autoptr(PangoLayout) layout = new_layout (scene, options->title, TITLE_SIZE, TRUE);
      height += layout_height (layout);
    }
  if (has_text (options->subtitle))
    {
      g_autoptr(PangoLayout) layout = new_layout (scene, options->subtitle, 1, FALSE);
      height += (height > 0 ? LINE_GAP : 0) + layout_height (layout);
    }
  return height > 0 ? height + 2 * MARGIN : 0;
}

static guint32
get_track_kinds (const ChronoTrack *track,
                 gint64             start,
                 gint64             end)
{
  guint32 kinds = 0;

  for (guint32 i = 0; i < track->n_spans && track->start[i] < end; i++)
    if (chrono_track_get_end (track, i) > start && track->kind[i] < 32)
      kinds |= 1u << track->kind[i];
  return kinds;
}

/* The kinds of the spans that show: on the rows inside the picture, a
 * collapsed process's tracks included, in the viewport's window. Spans
 * are sorted by start, so each track's walk stops at the window's end. */
static guint32
get_kinds_in_view (ChronoTimelineScene *scene)
{
  ChronoTrace *trace = chrono_timeline_scene_get_trace (scene);
  ChronoViewport *viewport = chrono_timeline_scene_get_viewport (scene);
  gint64 start = chrono_viewport_get_start_ns (viewport);
  gint64 end = chrono_viewport_get_end_ns (viewport);
  double area_top = chrono_timeline_scene_get_ruler_height (scene);
  double area_bottom = chrono_timeline_scene_get_height (scene);
  guint32 kinds = 0;

  for (guint r = 0; r < chrono_timeline_scene_get_n_rows (scene); r++)
    {
      const ChronoSceneRow *row = chrono_timeline_scene_get_row (scene, r);
      double top = chrono_timeline_scene_get_row_top (scene, row);

      if (top >= area_bottom || top + row->height <= area_top)
        continue;
      if (row->track != CHRONO_SCENE_NO_ROW)
        kinds |= get_track_kinds (chrono_trace_get_track (trace, row->track), start, end);
      else
        for (guint m = 0; m < row->n_members; m++)
          kinds |= get_track_kinds (chrono_trace_get_track (trace, chrono_timeline_scene_get_member (scene, row, m)),
                                    start, end);
    }
  return kinds;
}

typedef struct {
  ChronoKind   kind;
  PangoLayout *layout;
  double       width;
} LegendEntry;

static void
legend_entry_clear (gpointer data)
{
  g_clear_object (&((LegendEntry *) data)->layout);
}

/* The kinds in view in any of SCENES, named in the first one's font. */
static GArray *
get_legend (ChronoTimelineScene * const *scenes,
            guint                        n_scenes)
{
  GArray *entries = g_array_new (FALSE, TRUE, sizeof (LegendEntry));
  ChronoTimelineScene *scene = scenes[0];
  guint32 kinds = 0;

  for (guint i = 0; i < n_scenes; i++)
    kinds |= get_kinds_in_view (scenes[i]);

  g_array_set_clear_func (entries, legend_entry_clear);
  for (guint k = 0; k < 32; k++)
    if (kinds & (1u << k))
      {
        LegendEntry entry = { .kind = k };
        int width;

        entry.layout = new_layout (scene, chrono_kind_to_string (k), 1, FALSE);
        pango_layout_get_pixel_size (entry.layout, &width, NULL);
        entry.width = SWATCH + LINE_GAP + width;
        g_array_append_val (entries, entry);
      }
  return entries;
}

/* Entries left to right, on as many lines as the width needs. Draws
 * when CR is not NULL; returns the height either way. */
static double
lay_out_legend (ChronoTimelineScene *scene,
                GArray              *entries,
                cairo_t             *cr,
                double               top,
                const GdkRGBA       *text)
{
  double width = chrono_timeline_scene_get_width (scene);
  double x = MARGIN, y = 0, line = 0;

  if (entries->len == 0)
    return 0;
  for (guint i = 0; i < entries->len; i++)
    {
      LegendEntry *entry = &g_array_index (entries, LegendEntry, i);
      double height = MAX (SWATCH, layout_height (entry->layout));

      if (x > MARGIN && x + entry->width > width - MARGIN)
        {
          x = MARGIN;
          y += line + LINE_GAP;
          line = 0;
        }
      line = MAX (line, height);
      if (cr != NULL)
        {
          GdkRGBA color;

          chrono_palette_merged_color (entry->kind, chrono_timeline_scene_get_dark (scene), &color);
          gdk_cairo_set_source_rgba (cr, &color);
          cairo_rectangle (cr, x, top + MARGIN + y + (height - SWATCH) / 2, SWATCH, SWATCH);
          cairo_fill (cr);
          gdk_cairo_set_source_rgba (cr, text);
          cairo_move_to (cr, x + SWATCH + LINE_GAP, top + MARGIN + y + (height - layout_height (entry->layout)) / 2);
          pango_cairo_show_layout (cr, entry->layout);
        }
      x += entry->width + LEGEND_GAP;
    }
  return y + line + 2 * MARGIN;
}

static gboolean
valid_stack (ChronoTimelineScene * const *scenes,
             guint                        n_scenes)
{
  if (scenes == NULL || n_scenes == 0)
    return FALSE;
  for (guint i = 0; i < n_scenes; i++)
    if (!CHRONO_IS_TIMELINE_SCENE (scenes[i]))
      return FALSE;
  return TRUE;
}

static double
get_scenes_height (ChronoTimelineScene * const *scenes,
                   guint                        n_scenes)
{
  double height = 0;

  for (guint i = 0; i < n_scenes; i++)
    height += chrono_timeline_scene_get_height (scenes[i]);
  return height;
}

double
chrono_picture_get_stack_height (ChronoTimelineScene * const *scenes,
                                 guint                        n_scenes,
                                 const ChronoPictureOptions  *options)
{
  double height;

  g_return_val_if_fail (valid_stack (scenes, n_scenes), 0);
  g_return_val_if_fail (options != NULL, 0);

  height = chrono_picture_get_title_height (scenes[0], options) + get_scenes_height (scenes, n_scenes);
  if (options->legend)
    {
      g_autoptr(GArray) entries = get_legend (scenes, n_scenes);
      height += lay_out_legend (scenes[0], entries, NULL, 0, NULL);
    }
  return ceil (height);
}

double
chrono_picture_get_height (ChronoTimelineScene        *scene,
                           const ChronoPictureOptions *options)
{
  return chrono_picture_get_stack_height (&scene, 1, options);
}

/* The scenes drawn from NODES, one under the other; the first one's
 * width, theme and font are the picture's. */
static void
draw_picture (ChronoTimelineScene * const *scenes,
              guint                        n_scenes,
              const ChronoPictureOptions  *options,
              GskRenderNode * const       *nodes,
              cairo_t                     *cr)
{
  ChronoTimelineScene *scene = scenes[0];
  double width, title_height, y = MARGIN, top;
  GdkRGBA background, text, accent, dim;

  g_return_if_fail (valid_stack (scenes, n_scenes));
  g_return_if_fail (options != NULL);
  g_return_if_fail (cr != NULL);

  width = chrono_timeline_scene_get_width (scene);
  title_height = chrono_picture_get_title_height (scene, options);
  chrono_palette_canvas_colors (chrono_timeline_scene_get_dark (scene), &background, &text, &accent);
  dim = text;
  dim.alpha = 0.7;

  cairo_save (cr);
  gdk_cairo_set_source_rgba (cr, &background);
  cairo_rectangle (cr, 0, 0, width, chrono_picture_get_stack_height (scenes, n_scenes, options));
  cairo_fill (cr);

  if (has_text (options->title))
    {
      g_autoptr(PangoLayout) layout = new_layout (scene, options->title, TITLE_SIZE, TRUE);

      pango_layout_set_width (layout, (int) ((width - 2 * MARGIN) * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      gdk_cairo_set_source_rgba (cr, &text);
      cairo_move_to (cr, MARGIN, y);
      pango_cairo_show_layout (cr, layout);
      y += layout_height (layout) + LINE_GAP;
    }
  if (has_text (options->subtitle))
    {
      g_autoptr(PangoLayout) layout = new_layout (scene, options->subtitle, 1, FALSE);

      pango_layout_set_width (layout, (int) ((width - 2 * MARGIN) * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      gdk_cairo_set_source_rgba (cr, &dim);
      cairo_move_to (cr, MARGIN, y);
      pango_cairo_show_layout (cr, layout);
    }

  top = title_height;
  for (guint i = 0; i < n_scenes; i++)
    {
      cairo_save (cr);
      cairo_translate (cr, 0, top);
      chrono_timeline_scene_draw_node (scenes[i], nodes[i], cr);
      cairo_restore (cr);
      top += chrono_timeline_scene_get_height (scenes[i]);
    }

  if (options->legend)
    {
      g_autoptr(GArray) entries = get_legend (scenes, n_scenes);

      lay_out_legend (scene, entries, cr, top, &text);
    }
  cairo_restore (cr);
}

static GPtrArray *
get_nodes (ChronoTimelineScene * const *scenes,
           guint                        n_scenes)
{
  GPtrArray *nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);

  for (guint i = 0; i < n_scenes; i++)
    g_ptr_array_add (nodes, chrono_timeline_scene_get_node (scenes[i]));
  return nodes;
}

void
chrono_picture_draw_stack (ChronoTimelineScene * const *scenes,
                           guint                        n_scenes,
                           const ChronoPictureOptions  *options,
                           cairo_t                     *cr)
{
  g_autoptr(GPtrArray) nodes = NULL;

  g_return_if_fail (valid_stack (scenes, n_scenes));
  g_return_if_fail (options != NULL);
  g_return_if_fail (cr != NULL);

  nodes = get_nodes (scenes, n_scenes);
  draw_picture (scenes, n_scenes, options, (GskRenderNode * const *) nodes->pdata, cr);
}

void
chrono_picture_draw (ChronoTimelineScene        *scene,
                     const ChronoPictureOptions *options,
                     cairo_t                    *cr)
{
  chrono_picture_draw_stack (&scene, 1, options, cr);
}

gboolean
chrono_picture_format_for_path (const char          *path,
                                ChronoPictureFormat *format)
{
  const char *dot;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (format != NULL, FALSE);

  dot = strrchr (path, '.');
  if (dot == NULL || strchr (dot, G_DIR_SEPARATOR) != NULL)
    return FALSE;
  if (g_ascii_strcasecmp (dot, ".png") == 0)
    *format = CHRONO_PICTURE_PNG;
  else if (g_ascii_strcasecmp (dot, ".svg") == 0)
    *format = CHRONO_PICTURE_SVG;
  else if (g_ascii_strcasecmp (dot, ".pdf") == 0)
    *format = CHRONO_PICTURE_PDF;
  else
    return FALSE;
  return TRUE;
}

typedef struct {
  GOutputStream *stream;
  GError        *error;
} Writer;

static cairo_status_t
write_cb (void                *closure,
          const unsigned char *data,
          unsigned int         length)
{
  Writer *writer = closure;

  if (writer->error != NULL)
    return CAIRO_STATUS_WRITE_ERROR;
  if (!g_output_stream_write_all (writer->stream, data, length, NULL, NULL, &writer->error))
    return CAIRO_STATUS_WRITE_ERROR;
  return CAIRO_STATUS_SUCCESS;
}

gboolean
chrono_picture_render_to_stream (ChronoPictureFormat    format,
                                 double                 width,
                                 double                 height,
                                 double                 scale,
                                 const char            *title,
                                 ChronoPictureDrawFunc  draw,
                                 gpointer               data,
                                 GOutputStream         *stream,
                                 GError               **error)
{
  Writer writer = { stream, NULL };
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;

  g_return_val_if_fail (draw != NULL, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  scale = format == CHRONO_PICTURE_PNG ? CLAMP (scale, 1, CHRONO_PICTURE_MAX_SCALE) : 1;
  switch (format)
    {
    case CHRONO_PICTURE_PNG:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (width * scale),
                                            (int) ceil (height * scale));
      break;
    case CHRONO_PICTURE_SVG:
      surface = cairo_svg_surface_create_for_stream (write_cb, &writer, width, height);
      cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PX);
      break;
    case CHRONO_PICTURE_PDF:
      surface = cairo_pdf_surface_create_for_stream (write_cb, &writer, width, height);
      if (has_text (title))
        cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, title);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Chronoscope");
      break;
    default:
      g_return_val_if_reached (FALSE);
    }

  cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  draw (cr, data);
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS && format == CHRONO_PICTURE_PNG)
    status = cairo_surface_write_to_png_stream (surface, write_cb, &writer);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (writer.error != NULL)
    {
      g_propagate_error (error, writer.error);
      return FALSE;
    }
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("could not draw the picture: %s"),
                   cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

gboolean
chrono_picture_render_to_file (ChronoPictureFormat    format,
                               double                 width,
                               double                 height,
                               double                 scale,
                               const char            *title,
                               ChronoPictureDrawFunc  draw,
                               gpointer               data,
                               const char            *path,
                               GError               **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Written beside PATH, then moved over it. */
  file = g_file_new_for_path (path);
  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, error);
  if (stream == NULL)
    return FALSE;
  if (!chrono_picture_render_to_stream (format, width, height, scale, title, draw, data,
                                        G_OUTPUT_STREAM (stream), &local))
    {
      /* Closed after a cancel, the stream leaves PATH as it was. */
      g_autoptr(GCancellable) cancel = g_cancellable_new ();

      g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", path);
      g_cancellable_cancel (cancel);
      g_output_stream_close (G_OUTPUT_STREAM (stream), cancel, NULL);
      return FALSE;
    }
  return g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, error);
}

typedef struct {
  ChronoTimelineScene * const *scenes;
  guint                        n_scenes;
  const ChronoPictureOptions  *options;
  GPtrArray                   *nodes;
} StackDraw;

static void
draw_stack (cairo_t  *cr,
            gpointer  data)
{
  StackDraw *d = data;

  draw_picture (d->scenes, d->n_scenes, d->options, (GskRenderNode * const *) d->nodes->pdata, cr);
}

/* The scenes ready to draw in FORMAT, with their drawings, which the
 * surface refers to until it is finished. */
static void
stack_draw_init (StackDraw                   *d,
                 ChronoTimelineScene * const *scenes,
                 guint                        n_scenes,
                 const ChronoPictureOptions  *options,
                 ChronoPictureFormat          format)
{
  /* An image of merged spans is exact only on whole pixels at 1x. */
  gboolean vector = format != CHRONO_PICTURE_PNG || CLAMP (options->scale, 1, CHRONO_PICTURE_MAX_SCALE) != 1;

  for (guint i = 0; i < n_scenes; i++)
    chrono_timeline_scene_set_vector (scenes[i], vector);
  *d = (StackDraw) { scenes, n_scenes, options, get_nodes (scenes, n_scenes) };
}

gboolean
chrono_picture_write_stack_to_stream (ChronoTimelineScene * const *scenes,
                                      guint                        n_scenes,
                                      const ChronoPictureOptions  *options,
                                      ChronoPictureFormat          format,
                                      GOutputStream               *stream,
                                      GError                     **error)
{
  StackDraw d;
  gboolean ok;

  g_return_val_if_fail (valid_stack (scenes, n_scenes), FALSE);
  g_return_val_if_fail (options != NULL, FALSE);

  stack_draw_init (&d, scenes, n_scenes, options, format);
  ok = chrono_picture_render_to_stream (format, chrono_timeline_scene_get_width (scenes[0]),
                                        chrono_picture_get_stack_height (scenes, n_scenes, options),
                                        options->scale, options->title, draw_stack, &d, stream, error);
  g_ptr_array_unref (d.nodes);
  return ok;
}

gboolean
chrono_picture_write_to_stream (ChronoTimelineScene        *scene,
                                const ChronoPictureOptions *options,
                                ChronoPictureFormat         format,
                                GOutputStream              *stream,
                                GError                    **error)
{
  return chrono_picture_write_stack_to_stream (&scene, 1, options, format, stream, error);
}

gboolean
chrono_picture_write_stack (ChronoTimelineScene * const *scenes,
                            guint                        n_scenes,
                            const ChronoPictureOptions  *options,
                            ChronoPictureFormat          format,
                            const char                  *path,
                            GError                     **error)
{
  StackDraw d;
  gboolean ok;

  g_return_val_if_fail (valid_stack (scenes, n_scenes), FALSE);
  g_return_val_if_fail (options != NULL, FALSE);

  stack_draw_init (&d, scenes, n_scenes, options, format);
  ok = chrono_picture_render_to_file (format, chrono_timeline_scene_get_width (scenes[0]),
                                      chrono_picture_get_stack_height (scenes, n_scenes, options),
                                      options->scale, options->title, draw_stack, &d, path, error);
  g_ptr_array_unref (d.nodes);
  return ok;
}

gboolean
chrono_picture_write (ChronoTimelineScene        *scene,
                      const ChronoPictureOptions *options,
                      ChronoPictureFormat         format,
                      const char                 *path,
                      GError                    **error)
{
  return chrono_picture_write_stack (&scene, 1, options, format, path, error);
}
