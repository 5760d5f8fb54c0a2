/* chrono-query-page.h: SQL over the trace: an editor with the tables at
 * hand and the queries run before, the results in a table, errors inline;
 * a row's span or its time shown on the timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-findings-panel.h"
#include "chrono-query.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_QUERY_PAGE (chrono_query_page_get_type ())
G_DECLARE_FINAL_TYPE (ChronoQueryPage, chrono_query_page, CHRONO, QUERY_PAGE, GtkWidget)

/* Over PANEL's timeline's trace, with PANEL's analysis as tables once it
 * has one. */
GtkWidget         *chrono_query_page_new        (ChronoFindingsPanel *panel);
/* Sets the editor's text and runs it on a worker thread. */
void               chrono_query_page_run        (ChronoQueryPage     *self,
                                                 const char          *sql);
gboolean           chrono_query_page_is_running (ChronoQueryPage     *self);
/* The last query's rows, NULL when it failed. */
ChronoQueryResult *chrono_query_page_get_result (ChronoQueryPage     *self);
/* What the last query's failure said, or NULL. */
const char        *chrono_query_page_get_error  (ChronoQueryPage     *self);
/* The result's rows as the table shows them: ChronoQueryRow. */
GListModel        *chrono_query_page_get_rows   (ChronoQueryPage     *self);

G_END_DECLS
