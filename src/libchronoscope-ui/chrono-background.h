/* chrono-background.h: work a window starts for itself after a trace is
 * open (findings, flow indexes), run where it does not take the cores
 * from drawing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* As g_task_run_in_thread(), on a thread of its own named NAME, 10 nice
 * levels below the caller's priority and off one of the cores the
 * caller may use: while the user pans, the frames and the display
 * server come first. FUNC returns TASK's result as usual. */
void chrono_background_run (GTask           *task,
                            GTaskThreadFunc  func,
                            const char      *name);

G_END_DECLS
