/* chrono-document-page.h: one trace in a tab: loading, failed or loaded
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-timeline-view.h"
#include "chrono-trace.h"

G_BEGIN_DECLS

typedef enum {
  CHRONO_DOCUMENT_STATE_LOADING,
  CHRONO_DOCUMENT_STATE_LOADED,
  CHRONO_DOCUMENT_STATE_FAILED,
  CHRONO_DOCUMENT_STATE_CANCELLED,
} ChronoDocumentState;

#define CHRONO_TYPE_DOCUMENT_STATE (chrono_document_state_get_type ())
GType chrono_document_state_get_type (void);

#define CHRONO_TYPE_DOCUMENT_PAGE (chrono_document_page_get_type ())
G_DECLARE_FINAL_TYPE (ChronoDocumentPage, chrono_document_page, CHRONO, DOCUMENT_PAGE, GtkWidget)

ChronoDocumentPage  *chrono_document_page_new       (GFile              *file);
ChronoDocumentPage  *chrono_document_page_new_for_files (GListModel     *files);
GFile               *chrono_document_page_get_file  (ChronoDocumentPage *self);
GListModel          *chrono_document_page_get_files (ChronoDocumentPage *self);
char                *chrono_document_page_dup_title (ChronoDocumentPage *self);
ChronoTrace         *chrono_document_page_get_trace (ChronoDocumentPage *self);
ChronoDocumentState  chrono_document_page_get_state (ChronoDocumentPage *self);
const GError        *chrono_document_page_get_error (ChronoDocumentPage *self);
void                 chrono_document_page_cancel    (ChronoDocumentPage *self);
ChronoTimelineView  *chrono_document_page_get_timeline_view (ChronoDocumentPage *self);
void                 chrono_document_page_start_search (ChronoDocumentPage *self);
void                 chrono_document_page_find      (ChronoDocumentPage *self,
                                                     int                 direction);

/* The findings panel beside the timeline, the graph pane below it. */
gboolean             chrono_document_page_get_show_findings (ChronoDocumentPage *self);
void                 chrono_document_page_set_show_findings (ChronoDocumentPage *self,
                                                             gboolean            show);
gboolean             chrono_document_page_get_show_notes    (ChronoDocumentPage *self);
void                 chrono_document_page_set_show_notes    (ChronoDocumentPage *self,
                                                             gboolean            show);
gboolean             chrono_document_page_get_show_graph    (ChronoDocumentPage *self);
void                 chrono_document_page_set_show_graph    (ChronoDocumentPage *self,
                                                             gboolean            show);

G_END_DECLS
