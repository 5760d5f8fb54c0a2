/* chrono-json-scanner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "chrono-json-scanner.h"

static inline gboolean
is_ws (guint8 c)
{
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

void
chrono_json_skip_ws_run (ChronoJsonScanner *s)
{
  const guint8 *p = s->p;
  const guint8 *end = s->end;

#ifdef __SSE2__
  while (p + 16 <= end)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) p);
      __m128i ws = _mm_or_si128 (_mm_or_si128 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 (' ')),
                                               _mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\n'))),
                                 _mm_or_si128 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\r')),
                                               _mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\t'))));
      guint other = ~_mm_movemask_epi8 (ws) & 0xffff;

      if (other != 0)
        {
          s->p = p + __builtin_ctz (other);
          return;
        }
      p += 16;
    }
#endif
  while (p < end && is_ws (*p))
    p++;
  s->p = p;
}

ChronoJsonStatus
chrono_json_fail (ChronoJsonScanner *s,
                  const char        *expected)
{
  if (s->p >= s->end)
    return CHRONO_JSON_TRUNCATED;
  s->error_at = s->p;
  s->expected = expected;
  return CHRONO_JSON_SYNTAX;
}

/* Finds the next quote or backslash at or after P, or END. */
static inline const guint8 *
find_quote_or_escape (const guint8 *p,
                      const guint8 *end)
{
#ifdef __SSE2__
  const __m128i quote = _mm_set1_epi8 ('"');
  const __m128i bslash = _mm_set1_epi8 ('\\');

  while (p + 16 <= end)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) p);
      int mask = _mm_movemask_epi8 (_mm_or_si128 (_mm_cmpeq_epi8 (v, quote),
                                                  _mm_cmpeq_epi8 (v, bslash)));
      if (mask != 0)
        return p + __builtin_ctz (mask);
      p += 16;
    }
#endif
  while (p < end && *p != '"' && *p != '\\')
    p++;
  return p;
}

ChronoJsonStatus
chrono_json_read_long_string (ChronoJsonScanner *s,
                              ChronoJsonString  *out)
{
  const guint8 *p;

  if (s->p >= s->end)
    return CHRONO_JSON_TRUNCATED;
  if (*s->p != '"')
    return chrono_json_fail (s, "a string");

  p = s->p + 1;
  out->start = p;
  out->escaped = FALSE;
  for (;;)
    {
      p = find_quote_or_escape (p, s->end);
      if (p >= s->end)
        return CHRONO_JSON_TRUNCATED;
      if (*p == '"')
        break;
      out->escaped = TRUE;
      p += 2;   /* the backslash and the byte it escapes */
      if (p > s->end)
        return CHRONO_JSON_TRUNCATED;
    }
  out->len = p - out->start;
  s->p = p + 1;
  return CHRONO_JSON_OK;
}

/* Bytes that may continue a number: one table load instead of six tests. */
static const guint8 number_bytes[256] = {
  ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1,
  ['7'] = 1, ['8'] = 1, ['9'] = 1, ['-'] = 1, ['+'] = 1, ['.'] = 1, ['e'] = 1, ['E'] = 1,
};

static inline gboolean
is_number_byte (guint8 c)
{
  return number_bytes[c];
}

ChronoJsonStatus
chrono_json_read_number (ChronoJsonScanner *s,
                         const guint8     **start,
                         gsize             *len)
{
  const guint8 *p = s->p;

  if (p >= s->end)
    return CHRONO_JSON_TRUNCATED;
  if (*p == '-')
    p++;
  if (p < s->end && !(*p >= '0' && *p <= '9'))
    {
      s->p = p;
      return chrono_json_fail (s, "a number");
    }
  while (p < s->end && is_number_byte (*p))
    p++;
  /* A number that touches the end may continue in bytes not yet seen. */
  if (p >= s->end)
    return CHRONO_JSON_TRUNCATED;
  *start = s->p;
  *len = p - s->p;
  s->p = p;
  return CHRONO_JSON_OK;
}

static ChronoJsonStatus
skip_literal (ChronoJsonScanner *s,
              const char        *word,
              gsize              len)
{
  gsize have = s->end - s->p;

  if (have < len)
    {
      if (memcmp (s->p, word, have) == 0)
        return CHRONO_JSON_TRUNCATED;
      return chrono_json_fail (s, "a value");
    }
  if (memcmp (s->p, word, len) != 0)
    return chrono_json_fail (s, "a value");
  s->p += len;
  return CHRONO_JSON_OK;
}

/* The byte-at-a-time container walk, from *P to STOP (an escape may carry
 * it one byte past). TRUE when the container closed; *P is then just after
 * it. */
static inline gboolean
walk_bytes (const guint8 **pp,
            const guint8  *stop,
            gboolean      *in_string,
            gsize         *depth)
{
  const guint8 *p = *pp;

  for (; p < stop; p++)
    {
      if (*in_string)
        {
          if (*p == '\\')
            p++;   /* the escaped byte, even past STOP */
          else if (*p == '"')
            *in_string = FALSE;
        }
      else if (*p == '"')
        *in_string = TRUE;
      else if (*p == '{' || *p == '[')
        (*depth)++;
      else if ((*p == '}' || *p == ']') && --(*depth) == 0)
        {
          *pp = p + 1;
          return TRUE;
        }
    }
  *pp = p;
  return FALSE;
}

/* One 64-byte block of a container walk, given its bytes as bit masks:
 * BACKSLASHES, INSIDE (the bytes inside strings if the block started
 * outside one, opening quotes included), OPENS and CLOSES (brackets).
 * TRUE when the container closed; *P is then just after it, else just
 * after the block (or one byte more, when an escape straddles its end).
 * Blocks with a backslash take the byte-by-byte walk. Inlined into each
 * vector path, which only makes the masks. */
static inline __attribute__ ((always_inline)) gboolean
walk_block (const guint8 **pp,
            guint64        backslashes,
            guint64        inside,
            guint64        opens,
            guint64        closes,
            gboolean      *in_string,
            gsize         *depth)
{
  const guint8 *p = *pp;

  if (G_UNLIKELY (backslashes != 0))
    return walk_bytes (pp, p + 64, in_string, depth);
  inside ^= *in_string ? G_MAXUINT64 : 0;
  *in_string = inside >> 63;
  opens &= ~inside;
  closes &= ~inside;
  *pp = p + 64;
  if (closes == 0)
    {
      *depth += __builtin_popcountll (opens);
      return FALSE;
    }
  for (guint64 all = opens | closes; all != 0; all &= all - 1)
    {
      guint64 bit = all & -all;

      if (opens & bit)
        (*depth)++;
      else if (--(*depth) == 0)
        {
          *pp = p + __builtin_ctzll (bit) + 1;
          return TRUE;
        }
    }
  return FALSE;
}

#ifdef __SSE2__
/* The bytes of a 64-byte block equal to C, as a bit mask. */
static inline guint64
mask_sse2 (const __m128i v[4],
           guint8        c)
{
  __m128i vc = _mm_set1_epi8 ((char) c);
  guint64 mask = 0;

  for (guint k = 0; k < 4; k++)
    mask |= (guint64) (guint32) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v[k], vc)) << (16 * k);
  return mask;
}

/* Bit i set when an odd number of bits at or below i are: with quote
 * bits, the bytes inside strings (opening quote included). */
static inline guint64
prefix_xor64 (guint64 x)
{
  for (guint shift = 1; shift < 64; shift <<= 1)
    x ^= x << shift;
  return x;
}

/* skip_container's blocks with SSE2, which every x86-64 has. */
static gboolean
skip_blocks_sse2 (const guint8 **pp,
                  const guint8  *end,
                  gboolean      *in_string,
                  gsize         *depth)
{
  while (*pp + 64 <= end)
    {
      __m128i v[4];

      for (guint k = 0; k < 4; k++)
        v[k] = _mm_loadu_si128 ((const __m128i *) (*pp + 16 * k));
      if (walk_block (pp, mask_sse2 (v, '\\'), prefix_xor64 (mask_sse2 (v, '"')),
                      mask_sse2 (v, '{') | mask_sse2 (v, '['), mask_sse2 (v, '}') | mask_sse2 (v, ']'),
                      in_string, depth))
        return TRUE;
    }
  return FALSE;
}
#endif

/* AVX2 where the processor has it, chosen at run time; SSE2 otherwise. */
#if defined(__SSE2__) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_AVX2_PATH 1

static gboolean avx2_off;   /* tests run the SSE2 path too */

#define AVX2_TARGET __attribute__ ((target ("avx2,pclmul,popcnt")))

AVX2_TARGET static inline guint64
mask_avx2 (__m256i lo,
           __m256i hi,
           guint8  c)
{
  __m256i vc = _mm256_set1_epi8 ((char) c);

  return (guint32) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (lo, vc)) |
         (guint64) (guint32) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (hi, vc)) << 32;
}

/* The same blocks with AVX2: two loads, and the prefix XOR of the quote
 * bits in one carry-less multiply. */
AVX2_TARGET static gboolean
skip_blocks_avx2 (const guint8 **pp,
                  const guint8  *end,
                  gboolean      *in_string,
                  gsize         *depth)
{
  while (*pp + 64 <= end)
    {
      __m256i lo = _mm256_loadu_si256 ((const __m256i *) *pp);
      __m256i hi = _mm256_loadu_si256 ((const __m256i *) (*pp + 32));
      guint64 quotes = mask_avx2 (lo, hi, '"');
      guint64 inside = (guint64) _mm_cvtsi128_si64 (_mm_clmulepi64_si128 (_mm_set_epi64x (0, (gint64) quotes),
                                                                          _mm_set1_epi8 ((char) 0xff), 0));

      if (walk_block (pp, mask_avx2 (lo, hi, '\\'), inside,
                      mask_avx2 (lo, hi, '{') | mask_avx2 (lo, hi, '['),
                      mask_avx2 (lo, hi, '}') | mask_avx2 (lo, hi, ']'),
                      in_string, depth))
        return TRUE;
    }
  return FALSE;
}
#endif

void
chrono_json_scanner_set_avx2 (gboolean enabled)
{
#ifdef HAVE_AVX2_PATH
  avx2_off = !enabled;
#endif
}

/* Skips a container by bracket depth, outside strings. Args are full of
 * short strings and brackets ("Input Dims": [[1], [], []]): each 64-byte
 * block's quotes give the bytes inside strings at once, and brackets
 * outside them are walked only when one closes; blocks with a backslash
 * take the byte-by-byte path. */
static ChronoJsonStatus
skip_container (ChronoJsonScanner *s)
{
  const guint8 *p = s->p + 1;
  const guint8 *end = s->end;
  gsize depth = 1;
  gboolean in_string = FALSE;
  gboolean closed = FALSE;

#ifdef HAVE_AVX2_PATH
  if (!avx2_off && __builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("pclmul") &&
      __builtin_cpu_supports ("popcnt"))
    closed = skip_blocks_avx2 (&p, end, &in_string, &depth);
  else
#endif
#ifdef __SSE2__
    closed = skip_blocks_sse2 (&p, end, &in_string, &depth);
#endif
  if (closed)
    {
      s->p = p;
      return CHRONO_JSON_OK;
    }

  if (walk_bytes (&p, end, &in_string, &depth))
    {
      s->p = p;
      return CHRONO_JSON_OK;
    }
  return CHRONO_JSON_TRUNCATED;
}

ChronoJsonStatus
chrono_json_skip_value (ChronoJsonScanner *s)
{
  ChronoJsonString str;
  const guint8 *start;
  gsize len;

  if (s->p >= s->end)
    return CHRONO_JSON_TRUNCATED;
  switch (*s->p)
    {
    case '"':
      return chrono_json_read_string (s, &str);
    case '{':
    case '[':
      return skip_container (s);
    case 't':
      return skip_literal (s, "true", 4);
    case 'f':
      return skip_literal (s, "false", 5);
    case 'n':
      return skip_literal (s, "null", 4);
    default:
      return chrono_json_read_number (s, &start, &len);
    }
}

ChronoJsonStatus
chrono_json_skip_value_like (ChronoJsonScanner *s,
                             const char        *like,
                             gsize              like_len)
{
  /* Only containers and strings end with their own text: 12 begins 123. */
  if (like_len > 0 && (*like == '[' || *like == '{' || *like == '"') && like_len <= (gsize) (s->end - s->p) &&
      memcmp (s->p, like, like_len) == 0)
    {
      s->p += like_len;
      return CHRONO_JSON_OK;
    }
  return chrono_json_skip_value (s);
}

/* A member search's masks for one block of 16 or 32 bytes: quotes, the
 * key's first byte one byte on, braces and backslashes. */
typedef struct {
  guint32 quotes;
  guint32 first;
  guint32 opens;
  guint32 closes;
  guint32 escapes;
} SearchMasks;

/* The N bytes at A and B are equal: inlined, for the short keys a search
 * compares many times. */
static inline gboolean
same_bytes (const char *a,
            const char *b,
            gsize       n)
{
  for (; n >= 8; a += 8, b += 8, n -= 8)
    {
      guint64 x, y;

      memcpy (&x, a, 8);
      memcpy (&y, b, 8);
      if (x != y)
        return FALSE;
    }
  for (; n > 0; n--)
    if (*a++ != *b++)
      return FALSE;
  return TRUE;
}

/* One block of a member search, given its masks: the bytes inside
 * strings come from the quotes (a prefix XOR; *IN_STRING carries it to
 * the next block), up to the first backslash; up to the first brace
 * outside strings, a quote opening a string followed by KEY, a quote and
 * a colon is a key of this object, as walking the members would find
 * it, and a closing brace there ends the object without it. TRUE, with
 * *RESULT, once the search is decided. */
static inline __attribute__ ((always_inline)) gboolean
search_block (const char         *p,
              const char         *end,
              guint               width,
              const SearchMasks  *m,
              const char         *key,
              gsize               len,
              guint32            *in_string,
              const char        **value,
              ChronoJsonSearch   *result)
{
  guint32 all = width == 32 ? G_MAXUINT32 : (1u << width) - 1;
  guint32 inside = m->quotes, stops, before;

  inside ^= inside << 1;
  inside ^= inside << 2;
  inside ^= inside << 4;
  inside ^= inside << 8;
  if (width == 32)
    inside ^= inside << 16;
  inside = (inside & all) ^ *in_string;
  *in_string = inside >> (width - 1) & 1 ? all : 0;
  stops = ((m->opens | m->closes) & ~inside) | m->escapes;
  before = stops != 0 ? (stops & -stops) - 1 : G_MAXUINT32;
  for (guint32 c = m->quotes & inside & m->first & before; c != 0; c &= c - 1)
    {
      const char *q = p + __builtin_ctz (c), *r = q + len + 2;

      if (r > end || !same_bytes (q + 1, key, len) || q[len + 1] != '"')
        continue;
      while (r < end && is_ws (*r))
        r++;
      if (r >= end || *r != ':')
        continue;
      for (r++; r < end && is_ws (*r); r++)
        ;
      *value = r;
      *result = CHRONO_JSON_SEARCH_FOUND;
      return TRUE;
    }
  if (stops == 0)
    return FALSE;
  *result = (stops & -stops) & m->closes & ~m->escapes ? CHRONO_JSON_SEARCH_ABSENT : CHRONO_JSON_SEARCH_UNSURE;
  return TRUE;
}

#ifdef __SSE2__
static ChronoJsonSearch
search_blocks_sse2 (const char   *p,
                    const char   *end,
                    const char   *key,
                    gsize         len,
                    const char  **value)
{
  ChronoJsonSearch result = CHRONO_JSON_SEARCH_UNSURE;
  guint32 in_string = 0;

  for (; p + 17 <= end; p += 16)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) p);
      __m128i next = _mm_loadu_si128 ((const __m128i *) (p + 1));
      SearchMasks m = {
        (guint32) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('"'))),
        (guint32) _mm_movemask_epi8 (_mm_cmpeq_epi8 (next, _mm_set1_epi8 (key[0]))),
        (guint32) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('{'))),
        (guint32) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('}'))),
        (guint32) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\\'))),
      };

      if (search_block (p, end, 16, &m, key, len, &in_string, value, &result))
        break;
    }
  return result;
}
#endif

#ifdef HAVE_AVX2_PATH
AVX2_TARGET static ChronoJsonSearch
search_blocks_avx2 (const char   *p,
                    const char   *end,
                    const char   *key,
                    gsize         len,
                    const char  **value)
{
  ChronoJsonSearch result = CHRONO_JSON_SEARCH_UNSURE;
  guint32 in_string = 0;

  for (; p + 33 <= end; p += 32)
    {
      __m256i v = _mm256_loadu_si256 ((const __m256i *) p);
      __m256i next = _mm256_loadu_si256 ((const __m256i *) (p + 1));
      SearchMasks m = {
        (guint32) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (v, _mm256_set1_epi8 ('"'))),
        (guint32) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (next, _mm256_set1_epi8 (key[0]))),
        (guint32) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (v, _mm256_set1_epi8 ('{'))),
        (guint32) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (v, _mm256_set1_epi8 ('}'))),
        (guint32) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (v, _mm256_set1_epi8 ('\\'))),
      };

      if (search_block (p, end, 32, &m, key, len, &in_string, value, &result))
        break;
    }
  return result;
}
#endif

ChronoJsonSearch
chrono_json_search_member (const char  *text,
                           gsize        available,
                           const char  *key,
                           gsize        len,
                           const char **value)
{
  const char *p = text, *end = text + available;

  while (p < end && is_ws (*p))
    p++;
  if (p >= end || *p != '{' || len == 0)
    return CHRONO_JSON_SEARCH_UNSURE;
  p++;
#ifdef HAVE_AVX2_PATH
  if (!avx2_off && __builtin_cpu_supports ("avx2"))
    return search_blocks_avx2 (p, end, key, len, value);
#endif
#ifdef __SSE2__
  return search_blocks_sse2 (p, end, key, len, value);
#else
  return CHRONO_JSON_SEARCH_UNSURE;
#endif
}

static gboolean
append_utf8 (GString *out,
             gunichar c)
{
  char buf[6];
  gint n = g_unichar_to_utf8 (c, buf);
  g_string_append_len (out, buf, n);
  return TRUE;
}

static gboolean
read_hex4 (const guint8 *p,
           const guint8 *end,
           gunichar     *out)
{
  gunichar v = 0;

  if (end - p < 4)
    return FALSE;
  for (int i = 0; i < 4; i++)
    {
      gint d = g_ascii_xdigit_value (p[i]);
      if (d < 0)
        return FALSE;
      v = (v << 4) | d;
    }
  *out = v;
  return TRUE;
}

gboolean
chrono_json_unescape (const ChronoJsonString *str,
                      GString                *out)
{
  const guint8 *p = str->start;
  const guint8 *end = str->start + str->len;

  g_string_truncate (out, 0);
  while (p < end)
    {
      const guint8 *q = memchr (p, '\\', end - p);
      gunichar c;

      if (q == NULL)
        {
          g_string_append_len (out, (const char *) p, end - p);
          break;
        }
      g_string_append_len (out, (const char *) p, q - p);
      if (q + 1 >= end)
        return FALSE;
      p = q + 2;
      switch (q[1])
        {
        case '"': g_string_append_c (out, '"'); break;
        case '\\': g_string_append_c (out, '\\'); break;
        case '/': g_string_append_c (out, '/'); break;
        case 'b': g_string_append_c (out, '\b'); break;
        case 'f': g_string_append_c (out, '\f'); break;
        case 'n': g_string_append_c (out, '\n'); break;
        case 'r': g_string_append_c (out, '\r'); break;
        case 't': g_string_append_c (out, '\t'); break;
        case 'u':
          if (!read_hex4 (p, end, &c))
            return FALSE;
          p += 4;
          if (c >= 0xd800 && c < 0xdc00)
            {
              gunichar lo;
              if (end - p >= 6 && p[0] == '\\' && p[1] == 'u' &&
                  read_hex4 (p + 2, end, &lo) && lo >= 0xdc00 && lo < 0xe000)
                {
                  c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
                  p += 6;
                }
              else
                c = 0xfffd;   /* a lone surrogate cannot be UTF-8 */
            }
          else if (c >= 0xdc00 && c < 0xe000)
            c = 0xfffd;
          append_utf8 (out, c);
          break;
        default:
          return FALSE;
        }
    }
  return TRUE;
}

/* Just after the '.' of a time in microseconds: the nanoseconds of its
 * fraction, rounded half away from zero by the next digit. *PP moves past
 * every digit. */
static inline guint
fraction_ns (const guint8 **pp,
             const guint8  *end)
{
  static const guint scale[4] = { 1000, 100, 10, 1 };
  const guint8 *p = *pp;
  guint frac = 0;
  gint nf = 0;
  guint round = 0;

  while (p < end && nf < 3 && *p >= '0' && *p <= '9')
    {
      frac = frac * 10 + (*p++ - '0');
      nf++;
    }
  if (p < end && *p >= '0' && *p <= '9')
    round = *p >= '5';
  while (p < end && *p >= '0' && *p <= '9')
    p++;
  *pp = p;
  return frac * scale[nf] + round;
}

/* The value of eight ASCII digits loaded little-endian, the first in the
 * lowest byte (SWAR). */
static inline guint64
eight_digits_value (guint64 v)
{
  v = (v & 0x0f0f0f0f0f0f0f0full) * 2561 >> 8;
  v = (v & 0x00ff00ff00ff00ffull) * 6553601 >> 16;
  return (v & 0x0000ffff0000ffffull) * 42949672960001ull >> 32;
}

/* Eight ASCII digits at P, and their value. */
static inline gboolean
eight_digits (const guint8 *p,
              guint64      *value)
{
  guint64 v;

  memcpy (&v, p, 8);
  v = GUINT64_FROM_LE (v);
  if (((v & 0xf0f0f0f0f0f0f0f0ull) | (((v + 0x0606060606060606ull) & 0xf0f0f0f0f0f0f0f0ull) >> 4)) !=
      0x3333333333333333ull)
    return FALSE;
  *value = eight_digits_value (v);
  return TRUE;
}

static inline gboolean
ends_value (guint8 c)
{
  return c == ',' || c == '}' || c == ']' || is_ws (c);
}

gboolean
chrono_json_read_small_uint (ChronoJsonScanner *s,
                             guint64           *value)
{
  const guint8 *p = s->p;
  guint64 v = 0;

#ifdef __SSE2__
  /* Up to eight digits, counted and converted without a loop. */
  if (G_LIKELY (s->end - p >= 16))
    {
      __m128i bytes = _mm_loadu_si128 ((const __m128i *) p);
      guint other = _mm_movemask_epi8 (_mm_or_si128 (_mm_cmplt_epi8 (bytes, _mm_set1_epi8 ('0')),
                                                     _mm_cmpgt_epi8 (bytes, _mm_set1_epi8 ('9'))));
      guint n = __builtin_ctz (other | 0x10000);

      if (n >= 1 && n <= 8 && ends_value (p[n]))
        {
          guint64 w;

          memcpy (&w, p, 8);
          w = GUINT64_FROM_LE (w);
          /* Leading '0's make N digits eight. */
          if (n < 8)
            w = w << (8 * (8 - n)) | G_GUINT64_CONSTANT (0x3030303030303030) >> (8 * n);
          *value = eight_digits_value (w);
          s->p = p + n;
          return TRUE;
        }
    }
#endif
  while (p < s->end && p - s->p < 18 && *p >= '0' && *p <= '9')
    v = v * 10 + (*p++ - '0');
  if (p == s->p || p >= s->end || !ends_value (*p))
    return FALSE;
  *value = v;
  s->p = p;
  return TRUE;
}

gboolean
chrono_json_read_us_to_ns (ChronoJsonScanner *s,
                           gint64            *ns)
{
  const guint8 *p = s->p;
  const guint8 *end = s->end;
  guint64 ip = 0;
  guint64 eight;
  guint64 frac = 0;
  gint digits = 0;

  /* Up to 18 integer digits: no overflow, and epoch microseconds (16)
   * take two steps. */
  while (end - p >= 8 && digits <= 10 && eight_digits (p, &eight))
    {
      ip = ip * 100000000 + eight;
      p += 8;
      digits += 8;
    }
  while (p < end && *p >= '0' && *p <= '9' && digits < 18)
    {
      ip = ip * 10 + (*p++ - '0');
      digits++;
    }
  if (digits == 0 || ip > (guint64) G_MAXINT64 / 1000 - 1)
    return FALSE;
  if (p < end && *p == '.')
    {
      p++;
      frac = fraction_ns (&p, end);
    }
  /* It must end where chrono_json_read_number() would end it. */
  if (p >= end || is_number_byte (*p))
    return FALSE;
  *ns = (gint64) (ip * 1000 + frac);
  s->p = p;
  return TRUE;
}

gboolean
chrono_json_parse_us_to_ns (const guint8 *text,
                            gsize         len,
                            gint64       *ns)
{
  const guint8 *p = text;
  const guint8 *end = text + len;
  gboolean negative = FALSE;
  unsigned __int128 mant = 0;
  gint digits = 0;        /* significant digits kept in MANT */
  gint exp10 = 3;         /* ns = MANT * 10^exp10: the text is in us */
  gboolean any = FALSE;
  unsigned __int128 value;

  if (p < end && (*p == '-' || *p == '+'))
    negative = *p++ == '-';

  /* The common shapes, up to 18 integer digits (epoch microseconds have
   * 16) and any number of decimals, need no wide arithmetic. Rounding
   * half away from zero at the nanosecond looks at one more digit only. */
  {
    guint64 ip = 0;
    const guint8 *q = p;

    while (q < end && *q >= '0' && *q <= '9' && q - p < 18)
      ip = ip * 10 + (*q++ - '0');
    if (q > p && ip <= (guint64) G_MAXINT64 / 1000 - 1 && (q == end || *q < '0' || *q > '9'))
      {
        guint64 frac = 0;

        if (q < end && *q == '.')
          {
            q++;
            frac = fraction_ns (&q, end);
          }
        if (q == end)
          {
            gint64 v = (gint64) (ip * 1000 + frac);

            *ns = negative ? -v : v;
            return TRUE;
          }
      }
  }

  /* MANT holds up to 36 significant digits; later ones are below any
   * precision a profiler has and are dropped. */
  for (; p < end && *p >= '0' && *p <= '9'; p++, any = TRUE)
    {
      if (digits < 36)
        {
          mant = mant * 10 + (*p - '0');
          if (mant != 0)
            digits++;
        }
      else
        exp10++;
    }
  if (p < end && *p == '.')
    {
      for (p++; p < end && *p >= '0' && *p <= '9'; p++, any = TRUE)
        {
          if (digits < 36)
            {
              mant = mant * 10 + (*p - '0');
              if (mant != 0)
                digits++;
              exp10--;
            }
        }
    }
  if (!any)
    return FALSE;
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean eneg = FALSE;
      gint e = 0;

      p++;
      if (p < end && (*p == '-' || *p == '+'))
        eneg = *p++ == '-';
      if (p >= end || *p < '0' || *p > '9')
        return FALSE;
      for (; p < end && *p >= '0' && *p <= '9'; p++)
        if (e < 10000)
          e = e * 10 + (*p - '0');
      exp10 += eneg ? -e : e;
    }
  if (p != end)
    return FALSE;

  if (exp10 >= 0)
    {
      value = mant;
      for (gint i = 0; i < exp10; i++)
        {
          if (value > G_MAXINT64)
            return FALSE;
          value *= 10;
        }
    }
  else
    {
      unsigned __int128 div = 1;
      unsigned __int128 rem;

      if (-exp10 > 38)
        {
          *ns = 0;
          return TRUE;
        }
      for (gint i = 0; i < -exp10; i++)
        div *= 10;
      value = mant / div;
      rem = mant % div;
      /* Half away from zero, like llround. */
      if (rem * 2 >= div)
        value++;
    }
  if (value > (unsigned __int128) G_MAXINT64)
    return FALSE;
  *ns = negative ? -(gint64) value : (gint64) value;
  return TRUE;
}

gboolean
chrono_json_parse_uint64 (const guint8 *text,
                          gsize         len,
                          guint64      *value)
{
  guint64 v = 0;

  if (len == 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      guint d = text[i] - '0';
      if (d > 9)
        return FALSE;
      /* Nineteen digits cannot overflow. */
      if (i >= 19 && v > (G_MAXUINT64 - d) / 10)
        return FALSE;
      v = v * 10 + d;
    }
  *value = v;
  return TRUE;
}

gboolean
chrono_json_parse_int64 (const guint8 *text,
                         gsize         len,
                         gint64       *value)
{
  guint64 u;
  gboolean negative = len > 0 && text[0] == '-';

  if (negative)
    {
      text++;
      len--;
    }
  if (!chrono_json_parse_uint64 (text, len, &u))
    return FALSE;
  if (negative)
    {
      if (u > (guint64) G_MAXINT64 + 1)
        return FALSE;
      *value = (gint64) (0 - u);
    }
  else
    {
      if (u > G_MAXINT64)
        return FALSE;
      *value = (gint64) u;
    }
  return TRUE;
}

gboolean
chrono_json_parse_double (const guint8 *text,
                          gsize         len,
                          gdouble      *value)
{
  char buf[64];
  char *endp;

  if (len == 0 || len >= sizeof buf)
    return FALSE;
  memcpy (buf, text, len);
  buf[len] = '\0';
  *value = g_ascii_strtod (buf, &endp);
  return endp == buf + len;
}
