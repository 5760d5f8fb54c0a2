/* chrono-export-dialog.h: Export Picture…: format, scale, theme, size,
 * title and legend of a picture of the timeline, with a preview
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-analysis.h"
#include "chrono-timeline-scene.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_EXPORT_DIALOG (chrono_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (ChronoExportDialog, chrono_export_dialog, CHRONO, EXPORT_DIALOG, GtkWindow)

/* SCENE as it will be drawn (its size and theme follow the dialog);
 * SUBTITLE under TITLE, which can be edited; STEM names the file. */
GtkWidget  *chrono_export_dialog_new         (GtkWindow           *parent,
                                              ChronoTimelineScene *scene,
                                              const char          *title,
                                              const char          *subtitle,
                                              const char          *stem);
/* The same for SCENES stacked in one picture; the height is the whole's,
 * each scene keeping its share of it. */
GtkWidget  *chrono_export_dialog_new_for_stack (GtkWindow                   *parent,
                                                ChronoTimelineScene * const *scenes,
                                                guint                        n_scenes,
                                                const char                  *title,
                                                const char                  *subtitle,
                                                const char                  *stem);
/* FINDING of ANALYSIS as the report draws it (chrono_finding_scene_new):
 * framed on its evidence, WIDTH px wide and as tall as its rows, in
 * STYLE_FROM's font; titled with the finding. */
GtkWidget  *chrono_export_dialog_new_for_finding (GtkWindow           *parent,
                                                  ChronoAnalysis      *analysis,
                                                  const ChronoFinding *finding,
                                                  GtkWidget           *style_from,
                                                  int                  width,
                                                  gboolean             dark);
/* Writes the picture as the dialog sets it into PATH, in the chosen
 * format whatever PATH's name. */
gboolean    chrono_export_dialog_write       (ChronoExportDialog  *self,
                                              const char          *path,
                                              GError             **error);
GdkPaintable *chrono_export_dialog_get_preview (ChronoExportDialog *self);
/* The scene it draws, the top one of a stack. */
ChronoTimelineScene *chrono_export_dialog_get_scene (ChronoExportDialog *self);

G_END_DECLS
