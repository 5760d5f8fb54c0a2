/* chrono-json-scanner.h: the primitives of the streaming trace-event scanner
 *
 * Not a general JSON parser: it walks values without building anything,
 * hands back byte ranges, and converts decimal time text straight into
 * integer nanoseconds. Every read is bounded by END; running into END
 * reports CHRONO_JSON_TRUNCATED so that a caller can wait for more data or
 * report a truncated file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

G_BEGIN_DECLS

typedef enum {
  CHRONO_JSON_OK,
  CHRONO_JSON_TRUNCATED,
  CHRONO_JSON_SYNTAX,
} ChronoJsonStatus;

typedef struct {
  const guint8 *p;
  const guint8 *end;
  const guint8 *error_at;   /* where a syntax error was found */
  const char   *expected;   /* what was expected there */
} ChronoJsonScanner;

typedef struct {
  const guint8 *start;      /* bytes between the quotes */
  gsize         len;
  gboolean      escaped;    /* contains backslash escapes */
} ChronoJsonString;

/* Past a run of white space longer than one space. */
void             chrono_json_skip_ws_run     (ChronoJsonScanner *s);

/* Every byte that can end white space in valid JSON is above ' ', and most
 * runs are none or one space; indented files take the vector path. */
static inline void
chrono_json_skip_ws (ChronoJsonScanner *s)
{
  if (G_LIKELY (s->p < s->end && *s->p > ' '))
    return;
  if (s->p + 1 < s->end && *s->p == ' ' && s->p[1] > ' ')
    {
      s->p++;
      return;
    }
  chrono_json_skip_ws_run (s);
}

ChronoJsonStatus chrono_json_fail            (ChronoJsonScanner *s,
                                              const char        *expected);
/* At the opening quote: reads a string (raw control bytes are accepted). */
ChronoJsonStatus chrono_json_read_long_string (ChronoJsonScanner *s,
                                               ChronoJsonString  *out);

/* Most strings in a trace are short keys and names: the first 16 bytes
 * are looked at inline before the general path. */
static inline ChronoJsonStatus
chrono_json_read_string (ChronoJsonScanner *s,
                         ChronoJsonString  *out)
{
#ifdef __SSE2__
  if (G_LIKELY (s->p + 17 <= s->end && *s->p == '"'))
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (s->p + 1));
      guint quotes = _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('"')));
      guint escapes = _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\\')));

      /* A closing quote with no backslash before it. */
      if (quotes != 0 && (escapes & ((quotes & -quotes) - 1)) == 0)
        {
          guint len = __builtin_ctz (quotes);

          out->start = s->p + 1;
          out->len = len;
          out->escaped = FALSE;
          s->p += len + 2;
          return CHRONO_JSON_OK;
        }
    }
#endif
  return chrono_json_read_long_string (s, out);
}
/* Reads a number's text without converting it. */
ChronoJsonStatus chrono_json_read_number     (ChronoJsonScanner *s,
                                              const guint8     **start,
                                              gsize             *len);
/* Inside an object, just after its '{' (FIRST) or after a member's value:
 * moves to the next member, setting KEY and leaving the scanner at its
 * value, or consumes the closing '}' and sets DONE. */
static inline ChronoJsonStatus
chrono_json_next_member (ChronoJsonScanner *s,
                         gboolean           first,
                         ChronoJsonString  *key,
                         gboolean          *done)
{
  ChronoJsonStatus st;

  chrono_json_skip_ws (s);
  if (s->p >= s->end)
    return CHRONO_JSON_TRUNCATED;
  *done = *s->p == '}';
  if (*done)
    {
      s->p++;
      return CHRONO_JSON_OK;
    }
  if (!first)
    {
      if (*s->p != ',')
        return chrono_json_fail (s, "',' or '}' in an object");
      s->p++;
      chrono_json_skip_ws (s);
    }
  if ((st = chrono_json_read_string (s, key)) != CHRONO_JSON_OK)
    return st;
  /* Writers put ":" or ": " after a key. */
  if (G_LIKELY (s->end - s->p >= 3 && s->p[0] == ':'))
    {
      if (s->p[1] > ' ')
        {
          s->p += 1;
          return CHRONO_JSON_OK;
        }
      if (s->p[1] == ' ' && s->p[2] > ' ')
        {
          s->p += 2;
          return CHRONO_JSON_OK;
        }
    }
  chrono_json_skip_ws (s);
  if (s->p >= s->end)
    return CHRONO_JSON_TRUNCATED;
  if (*s->p != ':')
    return chrono_json_fail (s, "':' after a key");
  s->p++;
  chrono_json_skip_ws (s);
  return s->p < s->end ? CHRONO_JSON_OK : CHRONO_JSON_TRUNCATED;
}

/* Skips any value: string, number, literal, object or array. Containers are
 * skipped by matching brackets outside strings; their insides are checked
 * only by json-glib when someone asks for them. */
ChronoJsonStatus chrono_json_skip_value      (ChronoJsonScanner *s);
/* The same, but a value whose text begins with LIKE (LIKE_LEN bytes: the
 * whole text of an array, object or string read before, or none) ends
 * where LIKE does, and is not scanned: values repeat from call to call. */
ChronoJsonStatus chrono_json_skip_value_like (ChronoJsonScanner *s,
                                              const char        *like,
                                              gsize              like_len);

typedef enum {
  CHRONO_JSON_SEARCH_FOUND,
  CHRONO_JSON_SEARCH_ABSENT,
  CHRONO_JSON_SEARCH_UNSURE,
} ChronoJsonSearch;

/* Member KEY (LEN bytes, unquoted) of the object at TEXT (AVAILABLE
 * bytes to the end of its source), searched for 32 bytes at a time (16
 * without AVX2) rather than walked: FOUND with *VALUE at its value, or ABSENT, only
 * where that is sure to be what walking the members would say; UNSURE
 * (a backslash or a nested object first) leaves it to the walk. */
ChronoJsonSearch chrono_json_search_member   (const char        *text,
                                              gsize              available,
                                              const char        *key,
                                              gsize              len,
                                              const char       **value);
/* Where the processor has AVX2, containers are skipped 64 bytes at a
 * time; tests turn that off to run the 32-byte SSE2 path as well. */
void             chrono_json_scanner_set_avx2 (gboolean enabled);

/* Decodes escapes into OUT (cleared first); FALSE on a bad escape. */
gboolean         chrono_json_unescape        (const ChronoJsonString *str,
                                              GString                *out);
/* Reads a non-negative integer of at most 18 digits that a ',', '}', ']'
 * or white space ends. FALSE, with the scanner left where it was, for any
 * other shape: the caller then reads the text. */
gboolean         chrono_json_read_small_uint (ChronoJsonScanner *s,
                                              guint64           *value);
/* Reads a number of microseconds written as plain digits with an optional
 * fraction straight into nanoseconds, as chrono_json_parse_us_to_ns()
 * would convert its text. FALSE, with the scanner left where it was, for
 * any other shape (sign, exponent, too many digits, the end of the data):
 * the caller then reads the text. */
gboolean         chrono_json_read_us_to_ns   (ChronoJsonScanner *s,
                                              gint64            *ns);
/* Decimal text of microseconds to nanoseconds, rounded half away from zero
 * exactly as the text says (no double in between). */
gboolean         chrono_json_parse_us_to_ns  (const guint8 *text,
                                              gsize         len,
                                              gint64       *ns);
/* Integer text (no fraction); FALSE on overflow or junk. */
gboolean         chrono_json_parse_int64     (const guint8 *text,
                                              gsize         len,
                                              gint64       *value);
gboolean         chrono_json_parse_uint64    (const guint8 *text,
                                              gsize         len,
                                              guint64      *value);
gboolean         chrono_json_parse_double    (const guint8 *text,
                                              gsize         len,
                                              gdouble      *value);

G_END_DECLS
