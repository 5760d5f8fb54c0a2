/* test-scanner.c: the primitives of the trace-event scanner
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-json-scanner.h"

static ChronoJsonScanner
scanner_for (const char *text)
{
  ChronoJsonScanner s = { (const guint8 *) text, (const guint8 *) text + strlen (text), NULL, NULL };
  return s;
}

static void
test_strings (void)
{
  ChronoJsonScanner s = scanner_for ("\"plain\" rest");
  ChronoJsonString str;

  g_assert_cmpint (chrono_json_read_string (&s, &str), ==, CHRONO_JSON_OK);
  g_assert_cmpint (str.len, ==, 5);
  g_assert_false (str.escaped);
  g_assert_cmpmem (str.start, str.len, "plain", 5);
  g_assert_cmpint (*s.p, ==, ' ');

  /* An escaped quote does not end the string; raw control bytes are kept. */
  s = scanner_for ("\"a\\\"b\tc\\\\\"x");
  g_assert_cmpint (chrono_json_read_string (&s, &str), ==, CHRONO_JSON_OK);
  g_assert_true (str.escaped);
  g_assert_cmpmem (str.start, str.len, "a\\\"b\tc\\\\", 8);
  g_assert_cmpint (*s.p, ==, 'x');

  /* Long strings take the vector path; the quote sits past 16 bytes. */
  s = scanner_for ("\"0123456789abcdef0123456789abcdef\\\"0123456789\"");
  g_assert_cmpint (chrono_json_read_string (&s, &str), ==, CHRONO_JSON_OK);
  g_assert_cmpint (str.len, ==, 44);

  s = scanner_for ("\"never closed");
  g_assert_cmpint (chrono_json_read_string (&s, &str), ==, CHRONO_JSON_TRUNCATED);
  s = scanner_for ("\"ends in an escape\\");
  g_assert_cmpint (chrono_json_read_string (&s, &str), ==, CHRONO_JSON_TRUNCATED);
  s = scanner_for ("x\"");
  g_assert_cmpint (chrono_json_read_string (&s, &str), ==, CHRONO_JSON_SYNTAX);
  g_assert_nonnull (s.expected);
}

static void
check_unescape (const char *escaped,
                const char *expected)
{
  ChronoJsonString str = { (const guint8 *) escaped, strlen (escaped), TRUE };
  g_autoptr(GString) out = g_string_new (NULL);

  g_assert_true (chrono_json_unescape (&str, out));
  g_assert_cmpstr (out->str, ==, expected);
}

static void
test_unescape (void)
{
  ChronoJsonString bad = { (const guint8 *) "a\\x", 3, TRUE };
  ChronoJsonString short_u = { (const guint8 *) "\\u12", 4, TRUE };
  g_autoptr(GString) out = g_string_new (NULL);

  check_unescape ("a\\nb\\tc\\\"d\\\\e\\/f\\b\\f\\r", "a\nb\tc\"d\\e/f\b\f\r");
  check_unescape ("caf\\u00e9", "café");
  check_unescape ("\\u20ac", "€");
  check_unescape ("\\ud83d\\ude00!", "😀!");
  /* Lone surrogates cannot be UTF-8: they become U+FFFD. */
  check_unescape ("\\ud83d", "\xef\xbf\xbd");
  check_unescape ("\\ude00x", "\xef\xbf\xbdx");
  g_assert_false (chrono_json_unescape (&bad, out));
  g_assert_false (chrono_json_unescape (&short_u, out));
}

static gint64
ns_of (const char *text)
{
  gint64 ns = G_MININT64;

  g_assert_true (chrono_json_parse_us_to_ns ((const guint8 *) text, strlen (text), &ns));
  return ns;
}

static gboolean
parses (const char *text)
{
  gint64 ns;
  return chrono_json_parse_us_to_ns ((const guint8 *) text, strlen (text), &ns);
}

static void
test_time (void)
{
  g_assert_cmpint (ns_of ("0"), ==, 0);
  g_assert_cmpint (ns_of ("1"), ==, 1000);
  g_assert_cmpint (ns_of ("1.5"), ==, 1500);
  g_assert_cmpint (ns_of ("3.011"), ==, 3011);
  g_assert_cmpint (ns_of ("-1.5"), ==, -1500);
  g_assert_cmpint (ns_of ("1e3"), ==, 1000000);
  g_assert_cmpint (ns_of ("1.2345E2"), ==, 123450);
  g_assert_cmpint (ns_of ("2.5e-3"), ==, 3);   /* 2.5 ns: half away from zero */
  g_assert_cmpint (ns_of ("0.0004"), ==, 0);
  g_assert_cmpint (ns_of ("0.0005"), ==, 1);
  g_assert_cmpint (ns_of ("-0.0005"), ==, -1);
  g_assert_cmpint (ns_of ("1.0004999999"), ==, 1000);
  /* Epoch-scale microseconds that a double cannot hold to the ns. */
  g_assert_cmpint (ns_of ("1712195495406752.8"), ==, G_GINT64_CONSTANT (1712195495406752800));
  g_assert_cmpint (ns_of ("1712195495406752.123"), ==, G_GINT64_CONSTANT (1712195495406752123));
  g_assert_cmpint (ns_of ("4203669603018.756"), ==, G_GINT64_CONSTANT (4203669603018756));
  g_assert_cmpint (ns_of ("1735632360000000.0001"), ==, G_GINT64_CONSTANT (1735632360000000000));
  g_assert_cmpint (ns_of ("9223372036854775.807"), ==, G_MAXINT64);
  g_assert_cmpint (ns_of ("123456789.123456789123456789123456789123456789"), ==, G_GINT64_CONSTANT (123456789123));

  g_assert_false (parses (""));
  g_assert_false (parses ("-"));
  g_assert_false (parses ("."));
  g_assert_false (parses ("abc"));
  g_assert_false (parses ("1x"));
  g_assert_false (parses ("1e"));
  g_assert_false (parses ("9223372036854775.808"));  /* one ns past int64 */
  g_assert_false (parses ("1e400"));
}

/* Integer ns written as "%d.%03d" microseconds come back unchanged, across
 * the whole range profilers use. */
static void
test_time_round_trip (void)
{
  GRand *rand = g_rand_new_with_seed (42);

  for (guint i = 0; i < 200000; i++)
    {
      gint64 ns = ((gint64) g_rand_int (rand) << 31 | g_rand_int (rand)) >> (g_rand_int (rand) % 40);
      char text[64];

      if (i % 2)
        ns = -ns;
      g_snprintf (text, sizeof text, "%s%" G_GINT64_FORMAT ".%03" G_GINT64_FORMAT,
                  ns < 0 ? "-" : "", ABS (ns) / 1000, ABS (ns) % 1000);
      g_assert_cmpint (ns_of (text), ==, ns);
    }
  g_rand_free (rand);
}

static void
test_integers (void)
{
  gint64 v;
  guint64 u;

  g_assert_true (chrono_json_parse_int64 ((const guint8 *) "-9223372036854775808", 20, &v));
  g_assert_cmpint (v, ==, G_MININT64);
  g_assert_true (chrono_json_parse_int64 ((const guint8 *) "9223372036854775807", 19, &v));
  g_assert_cmpint (v, ==, G_MAXINT64);
  g_assert_false (chrono_json_parse_int64 ((const guint8 *) "9223372036854775808", 19, &v));
  g_assert_true (chrono_json_parse_uint64 ((const guint8 *) "10159970886766084423", 20, &u));
  g_assert_cmpuint (u, ==, G_GUINT64_CONSTANT (10159970886766084423));
  g_assert_true (chrono_json_parse_uint64 ((const guint8 *) "18446744073709551615", 20, &u));
  g_assert_false (chrono_json_parse_uint64 ((const guint8 *) "18446744073709551616", 20, &u));
  g_assert_false (chrono_json_parse_int64 ((const guint8 *) "12a", 3, &v));
  g_assert_false (chrono_json_parse_int64 ((const guint8 *) "", 0, &v));
}

/* A value that begins with a container or string read before ends where
 * it does; a number read before says nothing of the next. Either way the
 * end is where skipping finds it. */
static void
test_skip_like (void)
{
  const struct { const char *text, *like; gsize end; } cases[] = {
    { "[[8, 1024], [], []], \"Ev Idx\": 1", "[[8, 1024], [], []]", 19 },
    { "[[8, 1024], [], []], \"Ev Idx\": 1", "[[8, 2048], [], []]", 19 },
    { "\"c10::BFloat16\", 1", "\"c10::BFloat16\"", 15 },
    { "123, 4", "12", 3 },
    { "{\"a\": [1]}, 2", "{\"a\": [1]}", 10 },
    { "[1]", "[1], 2, 3, 4", 3 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      ChronoJsonScanner s = scanner_for (cases[i].text);
      ChronoJsonScanner plain = scanner_for (cases[i].text);

      g_assert_cmpint (chrono_json_skip_value_like (&s, cases[i].like, strlen (cases[i].like)), ==, CHRONO_JSON_OK);
      g_assert_cmpint ((const char *) s.p - cases[i].text, ==, cases[i].end);
      g_assert_cmpint (chrono_json_skip_value (&plain), ==, CHRONO_JSON_OK);
      g_assert_true (plain.p == s.p);
    }
}

static void
test_skip (void)
{
  const char *values[] = {
    "{\"a\":\"}]\",\"b\":[1,{\"c\":\"\\\"}\"}],\"d\":{}}",
    "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]",
    "\"string with } and ] inside\"",
    "-12.5e-3",
    "true",
    "false",
    "null",
    "{\"long\":\"0123456789abcdef0123456789abcdef0123456789abcdef\",\"x\":[\"{\",\"[\"]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *text = g_strconcat (values[i], ",", NULL);
      gsize len = strlen (values[i]);
      ChronoJsonScanner s = scanner_for (text);

      g_assert_cmpint (chrono_json_skip_value (&s), ==, CHRONO_JSON_OK);
      g_assert_cmpint ((const char *) s.p - text, ==, len);

      /* Every proper prefix is incomplete, never accepted or overrun. */
      for (gsize cut = 0; cut < len; cut++)
        {
          ChronoJsonScanner t = { (const guint8 *) text, (const guint8 *) text + cut, NULL, NULL };
          ChronoJsonStatus st = chrono_json_skip_value (&t);

          g_assert_cmpint (st, !=, CHRONO_JSON_OK);
          g_assert_true (t.p <= t.end);
        }
    }
}

static void
test_garbage (void)
{
  const char *garbage[] = { "@", "tru!", "nul", "fals3", "-x", "}" };

  for (guint i = 0; i < G_N_ELEMENTS (garbage); i++)
    {
      g_autofree char *text = g_strconcat (garbage[i], " ", NULL);
      ChronoJsonScanner s = scanner_for (text);

      g_assert_cmpint (chrono_json_skip_value (&s), ==, CHRONO_JSON_SYNTAX);
      g_assert_nonnull (s.error_at);
      g_assert_nonnull (s.expected);
    }
}

static void
test_numbers (void)
{
  ChronoJsonScanner s = scanner_for ("1712195495406752.8,");
  const guint8 *start;
  gsize len;

  g_assert_cmpint (chrono_json_read_number (&s, &start, &len), ==, CHRONO_JSON_OK);
  g_assert_cmpint (len, ==, 18);
  /* A number that touches the end may go on in bytes not yet read. */
  s = scanner_for ("1712195");
  g_assert_cmpint (chrono_json_read_number (&s, &start, &len), ==, CHRONO_JSON_TRUNCATED);
}

/* Reading a time straight into nanoseconds agrees with reading its text
 * and converting it, or declines and leaves the scanner for that path. */
static void
test_read_time (void)
{
  const char *texts[] = {
    "0", "0.000", "1", "1.5", "3.011", "1.0004999999", "0.0005", "123.",
    "1712195495406752.8", "1712195495406752.123", "4203669603018.756",
    "1735632360000000.0001", "9223372036854775.807", "9223372036854775.808",
    "123456789012345678", "1234567890123456789", "00000012345678", "12345678",
    "-1.5", "1e3", "1.2345E2", "1.5.3", "1-2", "99999999999999999.9995",
  };
  const char *ends[] = { ",", "}", " ", "\n", "" };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    for (guint e = 0; e < G_N_ELEMENTS (ends); e++)
      {
        g_autofree char *text = g_strconcat (texts[i], ends[e], NULL);
        ChronoJsonScanner fast = scanner_for (text);
        ChronoJsonScanner slow = scanner_for (text);
        const guint8 *start;
        gsize len;
        gint64 ns = 0;
        gint64 expected = 0;
        gboolean read = chrono_json_read_us_to_ns (&fast, &ns);
        gboolean whole = chrono_json_read_number (&slow, &start, &len) == CHRONO_JSON_OK;

        if (read)
          {
            g_assert_true (whole);
            g_assert_true (chrono_json_parse_us_to_ns (start, len, &expected));
            g_assert_cmpint (ns, ==, expected);
            g_assert_true (fast.p == slow.p);
          }
        else
          g_assert_true (fast.p == (const guint8 *) text);
        /* The plain shapes up to epoch microseconds must be taken, unless
         * they touch the end. */
        if (*ends[e] != '\0' && strspn (texts[i], "0123456789.") == strlen (texts[i]) &&
            strchr (texts[i], '.') == strrchr (texts[i], '.') &&
            (strcspn (texts[i], ".") < 16 || (strcspn (texts[i], ".") == 16 && texts[i][0] == '1')))
          g_assert_true (read);
      }
}

/* Small integers are read with their value or declined, the scanner
 * left where it was; short and long buffers take different paths. */
static void
test_read_small_uint (void)
{
  const struct { const char *text; gboolean read; guint64 value; gsize len; } cases[] = {
    { "0,", TRUE, 0, 1 },
    { "7}", TRUE, 7, 1 },
    { "783658, \"tid\": 1", TRUE, 783658, 6 },
    { "12345678 ", TRUE, 12345678, 8 },
    { "123456789\n", TRUE, 123456789, 9 },
    { "007]", TRUE, 7, 3 },
    { "123456789012345678,", TRUE, G_GUINT64_CONSTANT (123456789012345678), 18 },
    { "1234567890123456789,", FALSE, 0, 0 },
    { "-5,", FALSE, 0, 0 },
    { "1.5,", FALSE, 0, 0 },
    { "1e3,", FALSE, 0, 0 },
    { "\"12\",", FALSE, 0, 0 },
    { "12", FALSE, 0, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (guint pad = 0; pad < 2; pad++)
      {
        /* Padding after the end moves the vector path in reach. */
        g_autofree char *text = g_strconcat (cases[i].text, pad ? "xxxxxxxxxxxxxxxx" : "", NULL);
        ChronoJsonScanner s = scanner_for (text);
        guint64 value = 0;

        if (!pad)
          s.end = s.p + strlen (cases[i].text);
        g_assert_cmpint (chrono_json_read_small_uint (&s, &value), ==, cases[i].read);
        if (cases[i].read)
          {
            g_assert_cmpuint (value, ==, cases[i].value);
            g_assert_cmpuint ((const char *) s.p - text, ==, cases[i].len);
          }
        else
          g_assert_true ((const char *) s.p == text);
      }
}

/* Containers longer than the vector blocks, with strings, escapes and
 * brackets across block edges, end where a byte-by-byte walk says. */
static void
skip_long_rounds (gboolean escapes)
{
  GRand *rand = g_rand_new_with_seed (7);
  /* Without escapes the vector blocks run whole; long strings with
   * brackets in them cross block edges. */
  const char *pieces[] = { "{", "}", "[", "]", "\"a\"", "\"}]\"", "1", ",", ":", " ",
                           "\"a longer string { with ] brackets } that spans a block edge [\"",
                           "\"\\\"\"", "\"\\\\\"" };
  guint n_pieces = escapes ? G_N_ELEMENTS (pieces) : G_N_ELEMENTS (pieces) - 2;

  for (guint round = 0; round < 2000; round++)
    {
      g_autoptr(GString) text = g_string_new ("{");
      gint depth = 1;

      while (depth > 0)
        {
          guint k = g_rand_int_range (rand, 0, n_pieces);

          if (k == 0 || k == 2)
            depth++;
          else if (k == 1 || k == 3)
            depth--;
          else if (text->len > 400 && g_rand_boolean (rand))
            {
              g_string_append_c (text, '}');
              depth--;
              continue;
            }
          g_string_append (text, pieces[k]);
        }
      {
        gsize len = text->len;
        ChronoJsonScanner s;

        g_string_append (text, ",{\"after\": 1}");
        s = scanner_for (text->str);
        g_assert_cmpint (chrono_json_skip_value (&s), ==, CHRONO_JSON_OK);
        g_assert_cmpuint ((const char *) s.p - text->str, ==, len);
      }
    }
  g_rand_free (rand);
}

static void
test_skip_long (void)
{
  /* The same containers on the narrower vector path too. */
  for (guint wide = 0; wide < 2; wide++)
    {
      chrono_json_scanner_set_avx2 (wide);
      skip_long_rounds (TRUE);
      skip_long_rounds (FALSE);
    }
}

/* The search says FOUND or ABSENT only where walking would agree, and
 * leaves the rest to the walk. */
static void
test_search_member (void)
{
  static const struct { const char *text; ChronoJsonSearch result; const char *value; } cases[] = {
    { "{\"External id\": 7, \"Input Dims\": [[1, 2]], \"Ev Idx\": 1}", CHRONO_JSON_SEARCH_FOUND, "[[1, 2]]" },
    { "{\"External id\": 7, \"Sequence number\": 3}", CHRONO_JSON_SEARCH_ABSENT, NULL },
    { "{\"name\": \"Input Dims\", \"x\": 1}", CHRONO_JSON_SEARCH_ABSENT, NULL },
    { "{\"name\": \"a}\", \"Input Dims\": [[3]]}", CHRONO_JSON_SEARCH_FOUND, "[[3]]" },
    { "{\"stack\": {\"Input Dims\": [[9]]}, \"Input Dims\": [[3]]}", CHRONO_JSON_SEARCH_UNSURE, NULL },
    { "{\"name\": \"a\\\"b\", \"Input Dims\": [[3]]}", CHRONO_JSON_SEARCH_UNSURE, NULL },
    { "[\"Input Dims\": 1]", CHRONO_JSON_SEARCH_UNSURE, NULL },
  };

  /* The AVX2 path where the processor has it, and the SSE2 path. */
  for (guint wide = 0; wide < 2; wide++)
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      for (guint pad = 0; pad < 70; pad++)
        {
          /* Every place in the blocks, with room after the object, as in a file. */
          g_autofree char *text = cases[i].text[0] == '{'
            ? g_strdup_printf ("{\"pad\": \"%*s\", %s, {\"Input Dims\": [[0]]}%80s", pad, "", cases[i].text + 1, "")
            : g_strdup_printf ("%s%80s", cases[i].text, "");
          const char *value = NULL;
          ChronoJsonSearch result;

          chrono_json_scanner_set_avx2 (wide);
          result = chrono_json_search_member (text, strlen (text), "Input Dims", 10, &value);
          g_assert_cmpint (result, ==, cases[i].result);
          if (cases[i].value != NULL)
            g_assert_true (strncmp (value, cases[i].value, strlen (cases[i].value)) == 0);
        }
  chrono_json_scanner_set_avx2 (TRUE);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scanner/strings", test_strings);
  g_test_add_func ("/scanner/unescape", test_unescape);
  g_test_add_func ("/scanner/time", test_time);
  g_test_add_func ("/scanner/time-round-trip", test_time_round_trip);
  g_test_add_func ("/scanner/integers", test_integers);
  g_test_add_func ("/scanner/numbers", test_numbers);
  g_test_add_func ("/scanner/skip", test_skip);
  g_test_add_func ("/scanner/skip-like", test_skip_like);
  g_test_add_func ("/scanner/skip-long", test_skip_long);
  g_test_add_func ("/scanner/read-time", test_read_time);
  g_test_add_func ("/scanner/read-small-uint", test_read_small_uint);
  g_test_add_func ("/scanner/garbage", test_garbage);
  g_test_add_func ("/scanner/search-member", test_search_member);
  return g_test_run ();
}
