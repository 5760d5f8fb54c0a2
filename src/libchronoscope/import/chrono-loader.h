/* chrono-loader.h: open any supported trace file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "chrono-trace.h"

G_BEGIN_DECLS

#define CHRONO_LOAD_ERROR (chrono_load_error_quark ())

typedef enum {
  CHRONO_LOAD_ERROR_IO,
  CHRONO_LOAD_ERROR_FORMAT,     /* not a format we read */
  CHRONO_LOAD_ERROR_SYNTAX,     /* malformed beyond recovery */
  CHRONO_LOAD_ERROR_CANCELLED,
} ChronoLoadError;

/* Every format read, for messages about files that are none of them. */
#define CHRONO_LOAD_FORMATS \
  "a Chrome trace event JSON file (PyTorch profiler, Kineto, Chrome, Perfetto's JSON), " \
  "an AWS Neuron profiler JSON file (device or system profile), a Neuron Explorer Parquet " \
  "table or a Perfetto protobuf trace, each plain or compressed with gzip, zstd or zip"

/* Called from the loading thread with bytes done and the total (the file
 * size for plain files, the compressed size otherwise). */
typedef void (*ChronoProgressFunc) (guint64 done, guint64 total, gpointer user_data);

GQuark       chrono_load_error_quark (void);

ChronoTrace *chrono_trace_load_file  (const char         *path,
                                      GCancellable       *cancellable,
                                      ChronoProgressFunc  progress,
                                      gpointer            user_data,
                                      GError            **error);
ChronoTrace *chrono_trace_load_bytes (GBytes             *bytes,
                                      const char         *display_name,
                                      GError            **error);

G_END_DECLS
