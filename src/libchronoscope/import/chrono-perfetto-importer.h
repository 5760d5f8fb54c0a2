/* chrono-perfetto-importer.h: Perfetto protobuf traces (TrackEvent)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-loader.h"
#include "chrono-source.h"

G_BEGIN_DECLS

/* Whether SOURCE starts with a whole, well-formed TracePacket (waits for
 * the bytes it needs). */
gboolean chrono_perfetto_importer_sniff (ChronoSource       *source);

/* Reads SOURCE, a serialized perfetto.protos.Trace, into TRACE while the
 * source is still being decompressed. */
gboolean chrono_perfetto_importer_run   (ChronoTrace        *trace,
                                         ChronoSource       *source,
                                         GCancellable       *cancellable,
                                         ChronoProgressFunc  progress,
                                         gpointer            user_data,
                                         GError            **error);

G_END_DECLS
