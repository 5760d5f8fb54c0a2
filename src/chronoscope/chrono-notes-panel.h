/* chrono-notes-panel.h: the side pane of a trace's annotations: each with
 * its kind, text, colour, time and what it is on, to jump to, edit and
 * delete; filtered by text and kind
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
GtkWidget *chrono_notes_panel_new         (ChronoAnnotations *annotations,
                                           ChronoTrace       *trace);
/* How many rows the filter lets show. */
guint      chrono_notes_panel_get_n_shown (ChronoNotesPanel  *self);

G_END_DECLS
