/* chrono-notes-panel.h: every annotation of a trace, to jump to, edit,
 * delete and filter
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-annotations.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_NOTES_PANEL (chrono_notes_panel_get_type ())
G_DECLARE_FINAL_TYPE (ChronoNotesPanel, chrono_notes_panel, CHRONO, NOTES_PANEL, GtkWidget)

/* ANNOTATIONS of TRACE; activating one emits "jump" with its id. */
GtkWidget *chrono_notes_panel_new       (ChronoAnnotations *annotations,
                                         ChronoTrace       *trace);
/* Shows only the annotations whose text or span contains TEXT, case
 * aside. */
void       chrono_notes_panel_set_filter (ChronoNotesPanel *self,
                                          const char       *text);
/* How many rows show. */
guint      chrono_notes_panel_get_n_shown (ChronoNotesPanel *self);

G_END_DECLS
