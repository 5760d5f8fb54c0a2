/* chrono-document-page-private.h: what the document page's files share:
 * the page itself (chrono-document-page.c), its loading on a thread
 * (chrono-document-page-load.c) and its comparison with another trace
 * (chrono-document-page-comparison.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "chrono-document-page.h"

G_BEGIN_DECLS

/* Shared with the loading thread; only chrono-document-page-load.c looks
 * inside. */
typedef struct _LoadJob LoadJob;

struct _ChronoDocumentPage
{
  GtkWidget            parent_instance;

  GFile               *file;     /* the first of FILES */
  GListModel          *files;    /* GFile: shown as one document */
  ChronoTrace         *trace;
  GError              *error;
  ChronoDocumentState  state;
  GCancellable        *cancellable;
  LoadJob             *job;

  GtkStack            *stack;
  GtkLabel            *file_label;
  GtkProgressBar      *progress_bar;
  AdwStatusPage       *error_page;
  AdwViewStack        *view_stack;
  GtkToggleButton     *search_button;
  GtkMenuButton       *tracks_button;
  ChronoTimelineView  *timeline_view;
  GtkToggleButton     *all_flows_button;
  GtkMenuButton       *compare_button;

  /* The comparison with another trace, and one asked for while loading. */
  ChronoComparisonView *comparison_view;
  ChronoComparisonSetup *pending_setup;
  ChronoTrace         *pending_trace_b;

  /* The analysis beside the timeline, and the graph below it. */
  gboolean             show_findings;
  gboolean             show_graph;
  GtkPaned            *outer_paned;   /* findings | the rest */
  GtkPaned            *vertical_paned; /* timeline over graph */
  /* The annotations on the right. */
  gboolean             show_notes;
  GtkPaned            *notes_paned;    /* the rest | notes */
  GtkWidget           *notes_panel;
  guint                build_source;  /* builds the rest of a loaded page */
  guint                build_stage;
};

/* Reads the page's files on a thread, showing its progress. */
void chrono_document_page_load               (ChronoDocumentPage  *self);
/* The page stops listening to the loading thread, which may run on a
 * little after it is cancelled. */
void chrono_document_page_drop_load_job      (ChronoDocumentPage  *self);
void chrono_document_page_set_state          (ChronoDocumentPage  *self,
                                              ChronoDocumentState  state);
/* Shows the loaded trace: its timeline at once, the rest in turns. */
void chrono_document_page_build_views        (ChronoDocumentPage  *self,
                                              GPtrArray           *indexes);
/* Replaces any comparison with one against B, in front when SHOW. */
void chrono_document_page_start_comparison   (ChronoDocumentPage          *self,
                                              ChronoTrace                 *trace_b,
                                              const ChronoComparisonSetup *setup,
                                              gboolean                     show);
void chrono_document_page_restore_comparison (ChronoDocumentPage  *self);

G_END_DECLS
