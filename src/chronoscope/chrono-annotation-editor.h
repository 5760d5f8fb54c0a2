/* chrono-annotation-editor.h: an annotation's text and colour, as it is
 * made and as it is edited: a small palette that reads in light and dark
 * and stays apart for colour-blind readers, and a custom colour
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CHRONO_TYPE_ANNOTATION_EDITOR (chrono_annotation_editor_get_type ())
G_DECLARE_FINAL_TYPE (ChronoAnnotationEditor, chrono_annotation_editor, CHRONO, ANNOTATION_EDITOR, GtkWidget)

GtkWidget  *chrono_annotation_editor_new       (void);
const char *chrono_annotation_editor_get_text  (ChronoAnnotationEditor *self);
void        chrono_annotation_editor_set_text  (ChronoAnnotationEditor *self,
                                                const char             *text);
/* 0xRRGGBBAA; 0 for the theme's accent colour. */
guint32     chrono_annotation_editor_get_color (ChronoAnnotationEditor *self);
void        chrono_annotation_editor_set_color (ChronoAnnotationEditor *self,
                                                guint32                 color);
/* What the empty text entry says. */
void        chrono_annotation_editor_set_placeholder (ChronoAnnotationEditor *self,
                                                      const char             *text);
/* Enter in the text entry activates the window's default widget. */
void        chrono_annotation_editor_set_activates_default (ChronoAnnotationEditor *self,
                                                            gboolean                activates);

/* The palette, in its order: its Nth colour, or 0 past its end. */
guint32     chrono_annotation_editor_palette_color (guint n);

G_END_DECLS
