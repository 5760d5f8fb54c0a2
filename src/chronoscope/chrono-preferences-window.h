/* chrono-preferences-window.h: the application's preferences: the
 * thresholds of the analysis
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define CHRONO_TYPE_PREFERENCES_WINDOW (chrono_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (ChronoPreferencesWindow, chrono_preferences_window, CHRONO, PREFERENCES_WINDOW, AdwPreferencesWindow)

/* SETTINGS: the application's; its "analysis" child holds the thresholds.
 * SAVED: whether changes outlast the session. */
GtkWidget *chrono_preferences_window_new (GSettings *settings,
                                          gboolean   saved);

G_END_DECLS
