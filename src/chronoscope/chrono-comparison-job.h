/* chrono-comparison-job.h: what a comparison view needs, made on worker
 * threads: B loaded when it is not open yet, both sides' tracks indexed
 * and analysed (A while B loads), and the comparison of the two
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "chrono-comparison.h"
#include "chrono-trace.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_COMPARISON_JOB (chrono_comparison_job_get_type ())
G_DECLARE_FINAL_TYPE (ChronoComparisonJob, chrono_comparison_job, CHRONO, COMPARISON_JOB, GObject)

/* B is TRACE_B when open already, else loaded from PATH_B (a file or a
 * profile folder). THRESHOLDS (nullable) are the analysis settings. */
ChronoComparisonJob *chrono_comparison_job_new          (ChronoTrace                *trace_a,
                                                        ChronoTrace                *trace_b,
                                                        const char                 *path_b,
                                                        const ChronoCompareOptions *options,
                                                        GSettings                  *thresholds);
/* The same traces compared again by OPTIONS: what FINISHED (a job that
 * succeeded) loaded, indexed and analysed is kept. */
ChronoComparisonJob *chrono_comparison_job_new_again    (ChronoComparisonJob        *finished,
                                                        const ChronoCompareOptions *options);
void                 chrono_comparison_job_run_async    (ChronoComparisonJob        *self,
                                                        GCancellable               *cancellable,
                                                        GAsyncReadyCallback         callback,
                                                        gpointer                    user_data);
/* The comparison, or NULL with an error that names the file at fault. */
ChronoComparison    *chrono_comparison_job_run_finish   (ChronoComparisonJob        *self,
                                                        GAsyncResult               *result,
                                                        GError                    **error);
/* From any thread: what it does now, and how far it is (negative when
 * it cannot tell). */
char                *chrono_comparison_job_dup_progress (ChronoComparisonJob        *self,
                                                        double                     *fraction);
/* Once it has finished. */
ChronoTrace         *chrono_comparison_job_get_trace    (ChronoComparisonJob        *self,
                                                        ChronoCompareSideId         side);
GPtrArray           *chrono_comparison_job_get_indexes  (ChronoComparisonJob        *self,
                                                        ChronoCompareSideId         side);

G_END_DECLS
