/* chrono-picture.h: a timeline scene as a picture to share: a title and
 * subtitle over it, a legend of its colours under it, written as PNG,
 * SVG or PDF without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-timeline-scene.h"

G_BEGIN_DECLS

typedef enum {
  CHRONO_PICTURE_PNG,
  CHRONO_PICTURE_SVG,
  CHRONO_PICTURE_PDF,
} ChronoPictureFormat;

typedef struct {
  const char *title;     /* NULL or "" for none */
  const char *subtitle;  /* likewise */
  gboolean    legend;    /* the kinds of span in view and their colours */
  double      scale;     /* PNG: device pixels per px, 1 to 4 */
} ChronoPictureOptions;

#define CHRONO_PICTURE_MAX_SCALE 4.0

/* From the name's extension, case aside; FALSE when it is none of them. */
gboolean chrono_picture_format_for_path (const char                 *path,
                                         ChronoPictureFormat        *format);

/* How tall the title and the legend make the picture, over and under
 * the scene; the picture is as wide as the scene. */
double   chrono_picture_get_title_height (ChronoTimelineScene        *scene,
                                          const ChronoPictureOptions *options);
double   chrono_picture_get_height       (ChronoTimelineScene        *scene,
                                          const ChronoPictureOptions *options);

/* The picture into CR from its origin, in px. */
void     chrono_picture_draw  (ChronoTimelineScene        *scene,
                               const ChronoPictureOptions *options,
                               cairo_t                    *cr);

/* Written atomically: PATH is left as it was on failure. SVG and PDF
 * draw every span as a shape (the scene is switched to vector), and
 * their text stays text. */
gboolean chrono_picture_write (ChronoTimelineScene        *scene,
                               const ChronoPictureOptions *options,
                               ChronoPictureFormat         format,
                               const char                 *path,
                               GError                    **error);
/* The same into STREAM, which is left open. */
gboolean chrono_picture_write_to_stream (ChronoTimelineScene        *scene,
                                         const ChronoPictureOptions *options,
                                         ChronoPictureFormat         format,
                                         GOutputStream              *stream,
                                         GError                    **error);

/* Any drawing as a picture: DRAW paints WIDTH × HEIGHT px into CR from
 * its origin; SCALE as in the options, TITLE (nullable) the PDF's. */
typedef void (*ChronoPictureDrawFunc) (cairo_t  *cr,
                                       gpointer  data);

gboolean chrono_picture_render_to_stream (ChronoPictureFormat    format,
                                          double                 width,
                                          double                 height,
                                          double                 scale,
                                          const char            *title,
                                          ChronoPictureDrawFunc  draw,
                                          gpointer               data,
                                          GOutputStream         *stream,
                                          GError               **error);
/* Written atomically, as chrono_picture_write. */
gboolean chrono_picture_render_to_file   (ChronoPictureFormat    format,
                                          double                 width,
                                          double                 height,
                                          double                 scale,
                                          const char            *title,
                                          ChronoPictureDrawFunc  draw,
                                          gpointer               data,
                                          const char            *path,
                                          GError               **error);

G_END_DECLS
