/* chrono-chrome-importer.h: Chrome Trace Event JSON (Kineto, Chrome, catapult)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-loader.h"
#include "chrono-source.h"

G_BEGIN_DECLS

/* Reads SOURCE (JSON object or array root) into TRACE while the source is
 * still being decompressed. */
gboolean chrono_chrome_importer_run (ChronoTrace        *trace,
                                     ChronoSource       *source,
                                     GCancellable       *cancellable,
                                     ChronoProgressFunc  progress,
                                     gpointer            user_data,
                                     GError            **error);

G_END_DECLS
