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

/* A merged trace keeps every file: the top byte of an args offset (or of
 * a metadata range) says which, 0 being the trace's own source and N the
 * Nth of more_sources. Files stay below 2^56 bytes. */
#define CHRONO_SOURCE_SHIFT 56
#define CHRONO_MAX_SOURCES  255
#define CHRONO_OFFSET_MASK  ((G_GUINT64_CONSTANT (1) << CHRONO_SOURCE_SHIFT) - 1)

/* A field of a table row: its key, and its value as the JSON text of the
 * row would read once parsed (a number's or a boolean's text, a
 * string's characters, not NUL-terminated); TEXT NULL for null. */
typedef void (*ChronoRowFieldFunc) (const char *key,
                                    const char *text,
                                    gsize       len,
                                    gpointer    user_data);

/* Args that are rows of a table rather than JSON text: ROW gives the
 * fields of the row an args offset names as the text of a JSON object
 * (freed with g_free), or NULL; FIELDS gives them one by one, without
 * that text (only those named in ONLY, NULL-terminated, when it is not
 * NULL), and FALSE for no such row. Both may be called from any
 * thread; rows asked for in the order of their offsets decode each part
 * of a table once. */
typedef struct _ChronoRowArgs ChronoRowArgs;
struct _ChronoRowArgs
{
  char    *(*row)    (ChronoRowArgs     *self,
                      guint64            offset);
  gboolean (*fields) (ChronoRowArgs      *self,
                      guint64             offset,
                      const char * const *only,
                      ChronoRowFieldFunc  func,
                      gpointer            user_data);
  void     (*free)   (ChronoRowArgs     *self);
};

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
  GPtrArray         *more_sources; /* a merged trace's further files, or NULL */
  /* ChronoRowArgs * or NULL per source (0: the trace's own, N: the Nth
   * of more_sources); NULL when no source has rows for args. */
  GPtrArray         *row_args;
  ChronoNeuronFacts *neuron_facts;
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
  GArray            *parts;        /* ChronoTracePart, by first_process */
  ChronoLoadStats    stats;
};

ChronoTrace *chrono_trace_new        (const char   *path,
                                      ChronoSource *source);
/* Frees the columns; chrono_track_free the track too. */
void         chrono_track_clear      (ChronoTrack  *track);
void         chrono_track_free       (ChronoTrack  *track);
/* Records the trace, now loaded, as the one part it is made of. */
void         chrono_trace_set_single_part (ChronoTrace *self);
/* Makes ROW_ARGS (owned) what the args offsets of source SOURCE name
 * (0: the trace's own). */
void         chrono_trace_set_row_args (ChronoTrace   *self,
                                        guint          source,
                                        ChronoRowArgs *row_args);
/* The fields of the table row OFFSET names (those named in ONLY, when
 * it is not NULL), to FUNC; FALSE (FUNC not called) when its source
 * keeps args as text. */
gboolean     chrono_trace_row_fields   (ChronoTrace        *self,
                                        guint64             offset,
                                        const char * const *only,
                                        ChronoRowFieldFunc  func,
                                        gpointer            user_data);
void         chrono_trace_add_warning (ChronoTrace *self,
                                       const char  *format,
                                       ...) G_GNUC_PRINTF (2, 3);
/* A warning about the format's own way of writing something, which the
 * load handled in full: nothing of the recording is lost by it. */
void         chrono_trace_add_quirk   (ChronoTrace *self,
                                       const char  *format,
                                       ...) G_GNUC_PRINTF (2, 3);
/* FROM's warnings after SELF's, each after "FILE: " when FILE is not
 * NULL, quirks kept quirks. */
void         chrono_trace_append_warnings (ChronoTrace *self,
                                           ChronoTrace *from,
                                           const char  *file);

/* One trace made of several, each moved onto a shared clock by adding
 * SHIFTS[i] nanoseconds (SHIFTS may be NULL): processes and tracks are
 * renumbered after those of the traces before, strings interned again,
 * args offsets tagged with their file; the parts of each follow those of
 * the traces before. The inputs are left without tracks and should be
 * dropped. At most CHRONO_MAX_SOURCES + 1 traces. */
ChronoTrace *chrono_trace_merge      (ChronoTrace * const *traces,
                                      const gint64        *shifts,
                                      guint                n_traces,
                                      const char          *name);

G_END_DECLS
