/* chrono-job-page.h: a job of many ranks in a tab: its heat maps,
 * stragglers and ledgers, and the ranks chosen there in a timeline
 * beside them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-document-page.h"
#include "chrono-job-table.h"
#include "chrono-rank-chart-view.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_JOB_PAGE (chrono_job_page_get_type ())
G_DECLARE_FINAL_TYPE (ChronoJobPage, chrono_job_page, CHRONO, JOB_PAGE, GtkWidget)

/* FILE is a JOB.json or a folder of ranks (chrono_job_sniff()); a folder
 * is summarised in a worker thread. */
ChronoJobPage       *chrono_job_page_new            (GFile          *file,
                                                     ChronoJobSource source);
GFile               *chrono_job_page_get_file       (ChronoJobPage  *self);
char                *chrono_job_page_dup_title      (ChronoJobPage  *self);
/* Loading while the summaries are read or made; loaded once the job
 * shows. */
ChronoDocumentState  chrono_job_page_get_state      (ChronoJobPage  *self);
const GError        *chrono_job_page_get_error      (ChronoJobPage  *self);
void                 chrono_job_page_cancel         (ChronoJobPage  *self);
ChronoJobTable      *chrono_job_page_get_table      (ChronoJobPage  *self);

/* The charts: steps, collectives, ledgers. */
ChronoRankChartView *chrono_job_page_get_steps_view       (ChronoJobPage *self);
ChronoRankChartView *chrono_job_page_get_collectives_view (ChronoJobPage *self);
ChronoRankChartView *chrono_job_page_get_ledger_view      (ChronoJobPage *self);
/* The ranks loaded last, beside the charts, or NULL. */
ChronoDocumentPage  *chrono_job_page_get_document   (ChronoJobPage  *self);
/* Loads rank RANK (an index into the table's ranks) with the ranks it
 * waits for at step STEP or collective COLLECTIVE (G_MAXUINT: neither),
 * at that moment. */
void                 chrono_job_page_load_rank      (ChronoJobPage  *self,
                                                     guint           rank,
                                                     guint           step,
                                                     guint           collective);
/* The moment the last load shows, on its first rank's clock. */
gboolean             chrono_job_page_get_moment     (ChronoJobPage  *self,
                                                     gint64         *start_ns,
                                                     gint64         *end_ns);

G_END_DECLS
