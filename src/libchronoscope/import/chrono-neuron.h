/* chrono-neuron.h: what the AWS Neuron importers share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "chrono-json-scanner.h"
#include "chrono-loader.h"
#include "chrono-trace-private.h"
#include "chrono-track-builder.h"

G_BEGIN_DECLS

typedef enum {
  CHRONO_NEURON_NONE,
  CHRONO_NEURON_DEVICE,   /* device profile JSON: instruction, dma, summary ... */
  CHRONO_NEURON_SYSTEM,   /* system_profile.json: trace_event(s), mem_usage, cpu_util */
} ChronoNeuronFormat;

/* Looks at the top-level keys of the JSON object at DATA (LEN bytes
 * available, from its '{'): the content decides, never the file name. */
ChronoNeuronFormat chrono_neuron_sniff    (const guint8 *data,
                                           gsize         len);

/* Reads a number, or a string that holds one ("4", "-709..."), as an
 * integer; signed and unsigned 64-bit values are both kept exactly (the
 * bits of a negative id are its unsigned value). Any other value is
 * skipped and *OK set to FALSE. */
ChronoJsonStatus   chrono_neuron_read_int (ChronoJsonScanner *s,
                                           guint64           *value,
                                           gboolean          *ok);
/* The same for a number that may have a fraction. */
ChronoJsonStatus   chrono_neuron_read_double (ChronoJsonScanner *s,
                                              gdouble           *value,
                                              gboolean          *ok);

/* A record's time: "timestamp" or "start_ts", "duration" or
 * "duration_ns"; a value of another type makes the time unusable. */
typedef struct {
  guint64  ts;
  guint64  dur;
  gboolean has_ts;
  gboolean has_dur;
  gboolean bad;
  const char   *bad_key;  /* the first time that is no number, and its value */
  const guint8 *bad_at;
} ChronoNeuronTimes;

/* At the value of KEY, one member of a record: reads it or skips it. */
typedef ChronoJsonStatus (*ChronoNeuronMemberFunc) (ChronoJsonScanner      *s,
                                                    const ChronoJsonString *key,
                                                    gpointer                record);

/* At a record's '{': reads its times into TIMES (cleared first; has_ts
 * is FALSE when a time is not a number) and hands every other member to
 * MEMBER. */
ChronoJsonStatus   chrono_neuron_read_record (ChronoJsonScanner      *s,
                                              ChronoNeuronTimes      *times,
                                              ChronoNeuronMemberFunc  member,
                                              gpointer                record);

static inline gboolean
chrono_neuron_str_is (const ChronoJsonString *str,
                      const char             *text,
                      gsize                   len)
{
  return str->len == len && memcmp (str->start, text, len) == 0;
}

/* Both Neuron JSON files are one object of tables, each an array of flat
 * records. The reader walks them, hands each record to the importer, and
 * owns what every importer needs: tracks by name, strings, time range,
 * warnings, truncation and syntax errors with their byte offset. */
typedef struct _ChronoNeuronReader ChronoNeuronReader;

/* At a record's '{': reads the record, leaving the scanner after it. */
typedef ChronoJsonStatus (*ChronoNeuronRecordFunc) (ChronoNeuronReader *reader,
                                                    guint               table,
                                                    gpointer            data);
/* At the value of a top-level key that is not a table: consumes it. */
typedef ChronoJsonStatus (*ChronoNeuronKeyFunc)    (ChronoNeuronReader     *reader,
                                                    const ChronoJsonString *key,
                                                    gpointer                data);

struct _ChronoNeuronReader
{
  ChronoTrace         *trace;
  const guint8        *base;
  ChronoJsonScanner    s;
  GCancellable        *cancellable;
  ChronoProgressFunc   progress;
  gpointer             progress_data;
  const char * const  *tables;        /* top-level keys holding records; NULL-terminated */
  ChronoNeuronRecordFunc record;
  ChronoNeuronKeyFunc  other;
  gpointer             data;

  GPtrArray           *builders;
  GHashTable          *named_tracks;  /* (type, name id) -> builder */
  GString             *scratch;
  gint64               min_ts;
  gint64               max_ts;
  guint64              records;
  guint64              skipped;
  guint64              bad_values;    /* members of the wrong type, left out */
  guint32              until_progress;
};

/* Waits for all of SOURCE: the tables refer to each other across it.
 * TABLES are the top-level keys whose records go to RECORD, with DATA. */
void                chrono_neuron_reader_init   (ChronoNeuronReader     *reader,
                                                 ChronoTrace            *trace,
                                                 ChronoSource           *source,
                                                 const char * const     *tables,
                                                 ChronoNeuronRecordFunc  record,
                                                 ChronoNeuronKeyFunc     other,
                                                 gpointer                data);
/* Only what the model needs (rows, time range, the model made by
 * chrono_neuron_reader_finish), for tables that are not JSON. */
void                chrono_neuron_reader_init_model (ChronoNeuronReader *reader,
                                                     ChronoTrace        *trace);
/* Progress and cancellation, both optional. */
void                chrono_neuron_reader_watch  (ChronoNeuronReader     *reader,
                                                 GCancellable           *cancellable,
                                                 ChronoProgressFunc      progress,
                                                 gpointer                progress_data);
/* FALSE on a syntax error (the message names the file and the byte) or
 * cancellation; a truncated file is read as far as it goes. */
gboolean            chrono_neuron_reader_run    (ChronoNeuronReader     *reader,
                                                 GError                **error);
/* Makes the model: EDGES (ChronoSpanEdge) may be NULL. */
void                chrono_neuron_reader_finish (ChronoNeuronReader     *reader,
                                                 const char             *format,
                                                 GArray                 *edges);
void                chrono_neuron_reader_clear  (ChronoNeuronReader     *reader);

guint32             chrono_neuron_intern        (ChronoNeuronReader     *reader,
                                                 const ChronoJsonString *str);
guint32             chrono_neuron_intern_text   (ChronoNeuronReader     *reader,
                                                 const char             *text);
/* The row of TYPE called NAME in PROCESS, made with SORT_INDEX the first time. */
ChronoTrackBuilder *chrono_neuron_track         (ChronoNeuronReader     *reader,
                                                 guint32                 process,
                                                 ChronoTrackType         type,
                                                 guint32                 name,
                                                 gint64                  sort_index);
void                chrono_neuron_note_time     (ChronoNeuronReader     *reader,
                                                 gint64                  start,
                                                 gint64                  end);
/* Keeps the JSON value from START to END as trace metadata KEY. */
void                chrono_neuron_keep_metadata (ChronoNeuronReader     *reader,
                                                 const char             *key,
                                                 const guint8           *start,
                                                 const guint8           *end);
/* Counts a record that was left out, with a warning for the first few. */
void                chrono_neuron_skip_record   (ChronoNeuronReader     *reader,
                                                 const guint8           *start,
                                                 guint                   table,
                                                 const char             *what);
/* What a JSON value is, from its first byte: "an object", "a string" ... */
const char         *chrono_neuron_json_type     (const guint8           *value);
/* Counts a member of the record at RECORD whose value, at VALUE, is not
 * the EXPECTED type and is left out, with a warning for the first few
 * that names the field, both places and what it is. */
void                chrono_neuron_bad_value     (ChronoNeuronReader     *reader,
                                                 const guint8           *record,
                                                 guint                   table,
                                                 const ChronoJsonString *key,
                                                 const guint8           *value,
                                                 const char             *expected);
/* Skips a record whose time is missing or no number, saying which. */
void                chrono_neuron_skip_untimed  (ChronoNeuronReader     *reader,
                                                 const guint8           *record,
                                                 guint                   table,
                                                 const ChronoNeuronTimes *times);
/* A string member's value; any other value is skipped (OUT left alone). */
ChronoJsonStatus    chrono_neuron_read_string   (ChronoJsonScanner      *s,
                                                 ChronoJsonString       *out);

G_END_DECLS
