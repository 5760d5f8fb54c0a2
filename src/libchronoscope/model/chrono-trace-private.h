/* chrono-trace-private.h: what importers fill in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-trace.h"
#include "chrono-string-table.h"
#include "chrono-source.h"

G_BEGIN_DECLS

typedef struct {
  guint64 offset;
  guint32 length;
} ChronoRange;

struct _ChronoTrace
{
  GObject            parent_instance;

  char              *path;
  const char        *format;
  ChronoSource      *source;       /* keeps the bytes that ranges point into */
  /* Args as compact JSON objects, written by importers of formats that
   * have no JSON text (protobuf); when set, args offsets index this
   * instead of the source. */
  GByteArray        *args_json;
  ChronoStringTable *strings;
  GArray            *processes;    /* ChronoProcess */
  GPtrArray         *tracks;       /* ChronoTrack *, freed with chrono_track_free */
  GArray            *flows;        /* ChronoFlow */
  GHashTable        *metadata;     /* key -> ChronoRange * */
  gint64             start_ns;
  gint64             end_ns;
  gint64             base_time_ns;
  gint               rank;
  gint               world_size;
  ChronoLoadStats    stats;
};

ChronoTrace *chrono_trace_new        (const char   *path,
                                      ChronoSource *source);
void         chrono_track_free       (ChronoTrack  *track);
void         chrono_trace_add_warning (ChronoTrace *self,
                                       const char  *format,
                                       ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS
