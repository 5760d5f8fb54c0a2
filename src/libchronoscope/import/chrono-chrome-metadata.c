/* chrono-chrome-metadata.c: what a trace says of itself beside its events,
 * the root object's other keys, and the counts and warnings the pass leaves
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <inttypes.h>

#include "chrono-chrome-importer-private.h"

/* -------------------------------------------------------------------- */
/* The root object's other keys                                         */

static void
keep_metadata (Importer               *imp,
               const ChronoJsonString *key,
               const guint8           *start)
{
  ChronoRange *range = g_new (ChronoRange, 1);

  range->offset = start - imp->base;
  range->length = (guint32) MIN (imp->s.p - start, G_MAXUINT32);
  g_hash_table_insert (imp->trace->metadata,
                       g_strndup ((const char *) key->start, key->len), range);
}

/* A key of the root object other than "traceEvents", the scan just past
 * its VALUE. Every key is kept whole; Kineto's mark the trace as one. */
void
chrono_chrome_note_root_key (Importer               *imp,
                             const ChronoJsonString *key,
                             const guint8           *value)
{
  ChronoJsonScanner *s = &imp->s;

  if (key_is (key, "baseTimeNanoseconds", 19))
    {
      gint64 base;
      const guint8 *text = value;
      gsize len = s->p - value;

      if (*text == '"')
        text++, len -= 2;
      if (chrono_json_parse_int64 (text, len, &base))
        {
          imp->trace->base_time_ns = base;
        }
    }
  else if (key_is (key, "systemTraceEvents", 17))
    chrono_trace_add_warning (imp->trace, "systemTraceEvents (ftrace text) is not shown");
  else if (key_is (key, "samples", 7) || key_is (key, "stackFrames", 11))
    chrono_trace_add_warning (imp->trace, "%.*s (sampled stacks) are not shown yet",
                              (int) key->len, key->start);
  if (key_is (key, "schemaVersion", 13) || key_is (key, "deviceProperties", 16) ||
      key_is (key, "distributedInfo", 15) || key_is (key, "baseTimeNanoseconds", 19))
    imp->kineto = TRUE;
  keep_metadata (imp, key, value);
}

/* -------------------------------------------------------------------- */
/* After the pass                                                       */

void
chrono_chrome_finish_stats (Importer *imp)
{
  ChronoLoadStats *stats = &imp->trace->stats;
  guint64 dropped = 0;
  GHashTableIter iter;
  gpointer key, value;

  stats->events = imp->events + imp->non_objects;
  if (imp->truncated_at > 0)
    chrono_trace_add_warning (imp->trace,
                              "the file ends inside the event array at byte %" G_GUINT64_FORMAT
                              ": loaded the %" G_GUINT64_FORMAT " complete events before it",
                              imp->truncated_at, stats->events);
  for (guint c = 1; c < 256; c++)
    if (imp->phase_counts[c] > 0)
      {
        char ph[2] = { (char) c, 0 };
        g_hash_table_insert (stats->phases, g_strdup (ph), GSIZE_TO_POINTER (imp->phase_counts[c]));
      }
  g_hash_table_iter_init (&iter, imp->odd_phases);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (stats->phases, g_strdup (key), value);

  for (guint c = 1; c < 256; c++)
    if (imp->dropped_by_phase[c] > 0)
      {
        dropped += imp->dropped_by_phase[c];
        switch (c)
          {
          case 'P':
            chrono_trace_add_warning (imp->trace, "%" G_GUINT64_FORMAT " sample events ('P') are not shown yet",
                                      imp->dropped_by_phase[c]);
            break;
          case 'N': case 'O': case 'D':
            chrono_trace_add_warning (imp->trace, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " object event ('%c') is not shown",
                                      "%" PRIu64 " object events ('%c') are not shown", imp->dropped_by_phase[c]),
                                      imp->dropped_by_phase[c], c);
            break;
          default:
            chrono_trace_add_warning (imp->trace, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " event of phase '%c' was not used",
                                      "%" PRIu64 " events of phase '%c' were not used", imp->dropped_by_phase[c]),
                                      imp->dropped_by_phase[c], c);
            break;
          }
      }
  if (imp->dropped_by_phase[0] > 0)
    {
      dropped += imp->dropped_by_phase[0];
      chrono_trace_add_warning (imp->trace, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " event has no one-letter \"ph\"",
                                "%" PRIu64 " events have no one-letter \"ph\"", imp->dropped_by_phase[0]),
                                imp->dropped_by_phase[0]);
    }
  if (imp->no_ts > 0)
    chrono_trace_add_warning (imp->trace, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " event has no \"ts\"", "%" PRIu64 " events have no \"ts\"", imp->no_ts), imp->no_ts);
  if (imp->bad_numbers > 0)
    chrono_trace_add_warning (imp->trace, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " timestamp or duration is not a number",
                              "%" PRIu64 " timestamps or durations are not numbers", imp->bad_numbers),
                              imp->bad_numbers);
  if (imp->stray_async_ends > 0)
    chrono_trace_add_warning (imp->trace, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " async end event matches no begin",
                              "%" PRIu64 " async end events match no begin", imp->stray_async_ends),
                              imp->stray_async_ends);
  if (imp->non_objects > 0)
    chrono_trace_add_warning (imp->trace, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " entry of the event array is not an object",
                              "%" PRIu64 " entries of the event array are not objects", imp->non_objects),
                              imp->non_objects);
  if (imp->malformed > MAX_SYNTAX_WARNINGS)
    chrono_trace_add_warning (imp->trace, "%" G_GUINT64_FORMAT " malformed events were skipped in all",
                              imp->malformed);
  stats->dropped = dropped + imp->non_objects + imp->malformed + imp->stray_async_ends;
}
