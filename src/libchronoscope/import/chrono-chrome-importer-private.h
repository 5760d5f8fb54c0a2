/* chrono-chrome-importer-private.h: the Chrome JSON importer's state, and
 * what the per-event scan shares with the work around it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "chrono-chrome-importer.h"
#include "chrono-json-scanner.h"
#include "chrono-trace-private.h"
#include "chrono-track-builder.h"

G_BEGIN_DECLS

#define MAX_SYNTAX_WARNINGS 10

/* An async event, kept until all are read to be matched in time order. */
typedef struct {
  gint64   ts;
  guint64  key;
  ChronoId pid;
  guint64  args_off;
  guint32  name;
  guint32  cat;
  guint32  seq;
  guint8   ph;
} AsyncEvent;

/* Only the scan looks inside. */
typedef struct _EventBlock EventBlock;

typedef struct _Importer {
  ChronoTrace        *trace;
  ChronoSource       *source;
  const guint8       *base;
  ChronoJsonScanner   s;
  gboolean            finished;
  GCancellable       *cancellable;
  ChronoProgressFunc  progress;
  gpointer            progress_data;

  guint64             phase_counts[256];
  guint64             dropped_by_phase[256];
  GHashTable         *odd_phases;      /* ph of more than one byte -> count */
  guint64             events;
  guint64             no_ts;
  guint64             bad_numbers;
  guint64             malformed;
  guint64             non_objects;
  guint64             stray_async_ends;

  GHashTable         *processes_int;   /* gint64 pid -> index + 1 */
  GHashTable         *processes_str;   /* string id -> index + 1 */
  ChronoId            last_pid;        /* the last process looked up */
  guint               last_process;    /* its index + 1, or 0 */
  GHashTable         *tracks;          /* ChronoTrackKey -> ChronoTrackBuilder */
  GPtrArray          *builders;
  ChronoTrackBuilder *recent_tracks[64];  /* by (pid, tid, type): most events hit */
  GHashTable         *counter_tracks;  /* char * key -> ChronoTrackBuilder */
  GHashTable         *async_open;      /* guint64 key -> GArray of AsyncOpen */
  GArray             *kind_cache;      /* name id -> KindCache */
  GArray             *flow_events;
  GArray             *v2_events;
  GArray             *async_events;    /* AsyncEvent, matched after the pass */
  GString            *scratch;

  GThread            *handler;
  GAsyncQueue        *full_blocks;
  GAsyncQueue        *free_blocks;
  EventBlock         *block;
  EventBlock         *all_blocks;
  guint64             seen;            /* entries of the array, scanned */
  guint64             truncated_at;

  /* Large files in memory are read as two halves at once: the second
   * half starts at a guessed event boundary and is used only if the first
   * half's scan lands exactly on it. */
  const guint8       *split_at;
  GThread            *second_thread;
  struct _Importer   *second;
  gint                abort_second;
  gint               *abort;           /* the second half's: the first's flag */
  gboolean            second_done;     /* reached the end of the array */
  gboolean            split_used;
  gboolean            split_tried;
  gboolean            handler_used;

  gint64              min_ts;
  gint64              max_ts;
  gboolean            kineto;
  guint               global_process;
} Importer;

/* LEN is a constant at every call: the compiler turns the memcmp into a
 * load or two and a compare. */
static inline gboolean
key_is (const ChronoJsonString *key,
        const char             *literal,
        gsize                   len)
{
  return key->len == len && memcmp (key->start, literal, len) == 0;
}

/* chrono-chrome-importer.c */
void chrono_chrome_importer_init (Importer     *imp,
                                  ChronoTrace  *trace,
                                  ChronoSource *source);
void chrono_chrome_importer_clear (Importer *imp);
gboolean chrono_chrome_parse_elements (Importer *imp,
                                       GError  **error);
guint chrono_chrome_process_for (Importer *imp,
                                 ChronoId  pid);
void chrono_chrome_stop_handler (Importer *imp);

/* chrono-chrome-halves.c */
void chrono_chrome_start_second_half (Importer *a);
gboolean chrono_chrome_join_second_half (Importer *a);
void chrono_chrome_discard_second_half (Importer *a);

/* chrono-chrome-metadata.c */
void chrono_chrome_note_root_key (Importer               *imp,
                                  const ChronoJsonString *key,
                                  const guint8           *value);
void chrono_chrome_finish_stats (Importer *imp);

G_END_DECLS
