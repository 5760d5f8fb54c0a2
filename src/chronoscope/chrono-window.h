/* chrono-window.h: a window of traces, one tab each
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "chrono-application.h"
#include "chrono-document-page.h"
#include "chrono-job-page.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_WINDOW (chrono_window_get_type ())
G_DECLARE_FINAL_TYPE (ChronoWindow, chrono_window, CHRONO, WINDOW, AdwApplicationWindow)

ChronoWindow       *chrono_window_new          (ChronoApplication *application);
ChronoDocumentPage *chrono_window_open_file    (ChronoWindow      *self,
                                                GFile             *file);
ChronoDocumentPage *chrono_window_open_files   (ChronoWindow      *self,
                                                GListModel        *files,
                                                gboolean           as_one);
ChronoDocumentPage *chrono_window_open_comparison (ChronoWindow   *self,
                                                  GFile          *a,
                                                  GFile          *b);
ChronoJobPage      *chrono_window_open_job     (ChronoWindow      *self,
                                                GFile             *file,
                                                ChronoJobSource    source);
void                chrono_window_choose_files (ChronoWindow      *self);
void                chrono_window_choose_files_as_one (ChronoWindow *self);
void                chrono_window_choose_folder (ChronoWindow     *self);
AdwTabView         *chrono_window_get_tab_view (ChronoWindow      *self);

G_END_DECLS
