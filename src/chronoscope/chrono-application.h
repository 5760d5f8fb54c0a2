/* chrono-application.h: the Chronoscope application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define CHRONO_TYPE_APPLICATION (chrono_application_get_type ())
G_DECLARE_FINAL_TYPE (ChronoApplication, chrono_application, CHRONO, APPLICATION, AdwApplication)

ChronoApplication *chrono_application_new          (void);
GSettings         *chrono_application_get_settings (ChronoApplication *self);
gboolean           chrono_application_get_settings_saved (ChronoApplication *self);
void               chrono_application_choose_renderer (void);

G_END_DECLS
