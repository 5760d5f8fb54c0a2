/* bench-load.c: how fast and how lean loading is, next to yajl and json-glib
 *
 * Usage: bench-load [TRACES_DIR] [--big PATH] [--no-big] [--neuron] [--json-glib-limit MB] [--repeat N]
 *
 * For every JSON trace of TRACES_DIR of at least 500 KB (uncompressed) and
 * for a ~1 GB Kineto-shaped trace from the example generator (with
 * --neuron, a ~1 GB Neuron device profile from the test generator), it
 * measures:
 *   - ours: chrono_trace_load_file() on the original file, so decompression
 *     of .gz files is included;
 *   - yajl: yajl_parse() with callbacks that do nothing, over the bytes
 *     already decompressed into memory;
 *   - json-glib: json_parser_load_from_data() over the same bytes, up to
 *     --json-glib-limit MB (it needs about 2 KB per event).
 * Each measurement runs in a forked process so that its memory figures are
 * its own, --repeat times (3 by default); the fastest run of each reader
 * is kept, so that other work on the machine disturbs all three alike.
 * The fixed cost of one load (a trace of one event) is measured first and
 * shown as a share of every load. It reports; it always exits 0 unless it
 * cannot run at all.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <yajl/yajl_parse.h>

#include "chrono-example-trace.h"
#include "chrono-loader.h"
#include "chrono-source.h"
#include "bench-memory.h"
#include "neuron-gen.h"

#define MIN_BYTES             (500 * 1000)
#define BIG_BYTES             G_GUINT64_CONSTANT (1000000000)
#define MB                    1e6
#define TARGET_VS_YAJL        3.0
#define TARGET_VS_JSON_GLIB   50.0
#define TARGET_BYTES_PER_SPAN 64.0
#define TARGET_PEAK_RATIO     1.5

/* What one forked measurement sends back; plain data, through a pipe. */
typedef struct {
  gboolean ok;
  char     error[200];
  double   seconds;
  guint64  source_bytes;   /* uncompressed JSON */
  char     first_byte;     /* first non-blank one */
  gboolean decompressed;   /* the source was inflated into memory */
  guint64  events;
  guint64  spans;
  guint64  model_bytes;
  gint64   resident_delta; /* bytes beyond the file buffer, see measure_ours() */
  gint64   peak_delta;     /* VmHWM during the load minus VmRSS before it */
  gint64   anon_delta;     /* RssAnon after the load minus before it */
  gint64   peak_anon;      /* the most RssAnon during the load minus before it */
  guint64  faults;         /* page faults during the load */
} Measure;

typedef void (*MeasureFunc) (const char *path,
                             Measure    *m);

typedef struct {
  guint rows;
  guint met[4];
  guint measured[4];
  guint beyond_inflate[2];  /* speed targets above what inflating alone allows */
} Tally;

static char *big_tmp_path;
static guint repeat = 3;
static Measure fixed_cost;   /* loading a trace of one event */
static char *one_event_path; /* that trace, loaded before each measured one */

/* The pages of the program and its libraries are shared by every process
 * that runs them, and a forked child faults them in again as it first
 * runs each function: they are brought in before measuring, so that the
 * peak is what the load itself holds. */
/* Where the pages' bytes go, so that reading them is not optimised away. */
static volatile guint8 page_sink;

static void
touch_code_pages (void)
{
  g_autofree char *maps = NULL;
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_auto(GStrv) lines = NULL;
  gsize page = sysconf (_SC_PAGESIZE);

  if (!g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL))
    return;
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 start, end;
      char perms[5] = "";
      const char *path = strchr (lines[i], '/');

      if (path == NULL || sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x %4s",
                                  &start, &end, perms) != 3)
        continue;
      if (perms[0] != 'r' || (strstr (path, ".so") == NULL && g_strcmp0 (path, exe) != 0))
        continue;
      for (guint64 p = start; p < end; p += page)
        page_sink ^= *(const guint8 *) (gsize) p;
    }
}

/* -------------------------------------------------------------------- */
/* Measurements, each run in its own process                            */

static void
set_error (Measure    *m,
           const char *message)
{
  m->ok = FALSE;
  g_strlcpy (m->error, message, sizeof m->error);
}

/* The whole decompressed file, copied into memory we own. */
static GBytes *
read_decompressed (const char  *path,
                   GError     **error)
{
  g_autoptr(ChronoSource) source = chrono_source_open (path, error);
  gboolean finished = FALSE;
  gsize available = 0;

  if (source == NULL)
    return NULL;
  while (!finished)
    available = chrono_source_wait (source, available, &finished);
  if (chrono_source_get_error (source, error))
    return NULL;
  return g_bytes_new (chrono_source_get_data (source), available);
}

static void
measure_probe (const char *path,
               Measure    *m)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = read_decompressed (path, &error);
  const char *p;
  const char *end;

  if (bytes == NULL)
    {
      set_error (m, error->message);
      return;
    }
  p = g_bytes_get_data (bytes, NULL);
  end = p + g_bytes_get_size (bytes);
  while (p < end && g_ascii_isspace (*p))
    p++;
  m->first_byte = p < end ? *p : '\0';
  m->source_bytes = g_bytes_get_size (bytes);
  m->ok = TRUE;
}

/* Decompression alone, through the same source the loader reads: what a
 * compressed load is bounded by. */
static void
measure_inflate (const char *path,
                 Measure    *m)
{
  g_autoptr(GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr(ChronoSource) source = chrono_source_open (path, &error);
  gboolean finished = FALSE;
  gsize available = 0;

  if (source == NULL)
    {
      set_error (m, error->message);
      return;
    }
  while (!finished)
    available = chrono_source_wait (source, available, &finished);
  m->seconds = (g_get_monotonic_time () - t0) / 1e6;
  m->source_bytes = available;
  m->ok = !chrono_source_get_error (source, NULL);
}

/* Resident bytes beyond the file buffer:
 *
 *   (VmRSS - RssFile) after the load - (VmRSS - RssFile) before it
 *     - the uncompressed size, when the source was inflated into memory
 *
 * Plain files are memory-mapped and their pages count as RssFile, so
 * leaving RssFile out leaves the file buffer out; a small inflated source
 * is anonymous memory of exactly the uncompressed size, a larger one the
 * pages of an unlinked file (RssFile). What remains is the model and
 * whatever the loader failed to give back. RssAnon alone, and its peak
 * (sampled), say the same without the subtraction. */
static void
measure_ours (const char *path,
              Measure    *m)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  const ChronoLoadStats *stats;
  BenchMemory before, after;
  BenchAnonPeak anon_peak;
  guint64 faults;
  gint64 start;

  /* What the process sets up once (types, thread caches, the allocator's
   * arenas) belongs to no load: a trace of one event is loaded first. */
  if (one_event_path != NULL)
    {
      g_autoptr(ChronoTrace) first = chrono_trace_load_file (one_event_path, NULL, NULL, NULL, NULL);
    }
#ifdef __GLIBC__
  /* The parent's freed memory is resident here too; the load trims the
   * heap at its end, which would count that memory as given back. */
  malloc_trim (0);
#endif
  touch_code_pages ();
  bench_reset_peak ();
  before = bench_memory_of (0);
  bench_anon_peak_start (&anon_peak, 0);
  faults = bench_page_faults ();
  start = g_get_monotonic_time ();
  trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);
  m->seconds = (g_get_monotonic_time () - start) / 1e6;
  m->faults = bench_page_faults () - faults;
  m->peak_anon = bench_anon_peak_stop (&anon_peak) - before.rss_anon;
  after = bench_memory_of (0);
  if (trace == NULL)
    {
      set_error (m, error->message);
      return;
    }

  stats = chrono_trace_get_stats (trace);
  m->source_bytes = chrono_trace_get_source_size (trace);
  m->decompressed = g_strcmp0 (chrono_trace_get_compression (trace), "none") != 0;
  m->events = stats->events;
  m->spans = stats->spans;
  m->model_bytes = chrono_trace_get_model_bytes (trace);
  m->resident_delta = (after.rss - after.rss_file) - (before.rss - before.rss_file);
  m->anon_delta = after.rss_anon - before.rss_anon;
  /* Small texts are inflated into memory, larger ones into a file. */
  if (m->decompressed && chrono_trace_get_text_dir (trace) == NULL)
    m->resident_delta -= m->source_bytes;
  m->peak_delta = after.hwm - before.rss;
  m->ok = TRUE;
}

static int
yajl_noop (void *ctx)
{
  return 1;
}

static int
yajl_noop_boolean (void *ctx,
                   int   value)
{
  return 1;
}

static int
yajl_noop_number (void       *ctx,
                  const char *text,
                  size_t      len)
{
  return 1;
}

static int
yajl_noop_string (void                *ctx,
                  const unsigned char *text,
                  size_t               len)
{
  return 1;
}

/* Numbers come as text (yajl_number), so yajl converts nothing. */
static const yajl_callbacks noop_callbacks = {
  .yajl_null = yajl_noop,
  .yajl_boolean = yajl_noop_boolean,
  .yajl_number = yajl_noop_number,
  .yajl_string = yajl_noop_string,
  .yajl_start_map = yajl_noop,
  .yajl_map_key = yajl_noop_string,
  .yajl_end_map = yajl_noop,
  .yajl_start_array = yajl_noop,
  .yajl_end_array = yajl_noop,
};

static void
measure_yajl (const char *path,
              Measure    *m)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = read_decompressed (path, &error);
  const guchar *data;
  gsize len;
  yajl_handle parser;
  yajl_status status;
  gint64 start;

  if (bytes == NULL)
    {
      set_error (m, error->message);
      return;
    }
  data = g_bytes_get_data (bytes, &len);
  m->source_bytes = len;

  parser = yajl_alloc (&noop_callbacks, NULL, NULL);
  start = g_get_monotonic_time ();
  status = yajl_parse (parser, data, len);
  if (status == yajl_status_ok)
    status = yajl_complete_parse (parser);
  m->seconds = (g_get_monotonic_time () - start) / 1e6;
  if (status == yajl_status_ok)
    m->ok = TRUE;
  else
    {
      unsigned char *message = yajl_get_error (parser, 0, data, len);

      set_error (m, (const char *) message);
      yajl_free_error (parser, message);
    }
  yajl_free (parser);
}

static void
measure_json_glib (const char *path,
                   Measure    *m)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = read_decompressed (path, &error);
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *data;
  gsize len;
  gint64 start;

  if (bytes == NULL)
    {
      set_error (m, error->message);
      return;
    }
  data = g_bytes_get_data (bytes, &len);
  m->source_bytes = len;

  start = g_get_monotonic_time ();
  m->ok = json_parser_load_from_data (parser, data, len, &error);
  m->seconds = (g_get_monotonic_time () - start) / 1e6;
  if (!m->ok)
    set_error (m, error->message);
}

static Measure
run_child_once (MeasureFunc func,
                const char *path)
{
  Measure m = { 0 };
  int fds[2];
  pid_t pid;
  int status = 0;
  gssize got = 0;

  if (pipe (fds) != 0)
    g_error ("pipe: %s", g_strerror (errno));
  fflush (stdout);
  fflush (stderr);
  pid = fork ();
  if (pid < 0)
    g_error ("fork: %s", g_strerror (errno));
  if (pid == 0)
    {
      close (fds[0]);
      func (path, &m);
      /* smaller than PIPE_BUF: one write */
      _exit (write (fds[1], &m, sizeof m) == sizeof m ? 0 : 1);
    }

  close (fds[1]);
  while (got < (gssize) sizeof m)
    {
      gssize n = read (fds[0], (char *) &m + got, sizeof m - got);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      got += n;
    }
  close (fds[0]);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (got != sizeof m)
    {
      m = (Measure) { 0 };
      g_snprintf (m.error, sizeof m.error, "the measuring process died%s%s",
                  WIFSIGNALED (status) ? ": " : "",
                  WIFSIGNALED (status) ? g_strsignal (WTERMSIG (status)) : "");
    }
  return m;
}

/* The fastest of REPEAT runs; a failure is reported as it is. */
static Measure
run_child (MeasureFunc func,
           const char *path)
{
  Measure best = run_child_once (func, path);

  for (guint i = 1; i < repeat && best.ok; i++)
    {
      Measure m = run_child_once (func, path);

      if (!m.ok)
        return m;
      if (m.seconds < best.seconds)
        best = m;
    }
  return best;
}

/* -------------------------------------------------------------------- */
/* Report                                                               */

enum { T_YAJL, T_JSON_GLIB, T_SPAN, T_PEAK };

static const char *
verdict (Tally   *tally,
         guint    target,
         gboolean met)
{
  tally->measured[target]++;
  if (met)
    tally->met[target]++;
  return met ? "PASS" : "MISS";
}

static void
print_legend (guint json_glib_limit_mb)
{
  printf ("Loading traces: ours against a bare yajl parse and json-glib.\n"
          "  ours       chrono_trace_load_file() on the original file; .gz is decompressed as part of it\n"
          "  yajl       yajl_parse() with no-op callbacks over the decompressed bytes, already in memory\n"
          "  json-glib  json_parser_load_from_data() over the same bytes; \"-\" above %u MB\n"
          "  MB         uncompressed JSON (10^6 bytes); MB/s are of uncompressed JSON for all three\n"
          "  B/span     resident bytes per span beyond the file buffer, after a trace of one\n"
          "             event was loaded in the same process (see measure_ours());\n"
          "             model B/span is chrono_trace_get_model_bytes() / spans\n"
          "  peak       peak RSS during our load / (uncompressed file + model bytes); the\n"
          "             program's and libraries' own pages are made resident before it\n"
          "  inflate    compressed files only: MB/s of decompression alone, and its time\n"
          "             / our whole load time (1.00: the load costs no more than decompressing)\n"
          "  ceiling    compressed files only: inflate MB/s / yajl MB/s and / json-glib MB/s,\n"
          "             the most any loader that inflates the file could reach against them\n"
          "  plain      compressed files only: our MB/s on the same bytes stored uncompressed,\n"
          "             and that against yajl on the same bytes\n"
          "  anon       RssAnon after our load minus before it, per event (what the kernel cannot\n"
          "             drop without swap); peak anon: its most during the load (sampled every 2 ms), MB\n"
          "  flt/MB     page faults (minor and major, all threads) during our load per MB of JSON\n"
          "  fixed      the share of our load time that any load costs: loading a trace of one\n"
          "             event (threads, tables, the model's first blocks), measured first\n"
          "  Each measurement runs in its own forked process, %u times; the fastest is kept.\n"
          "Targets: ours >= %.0fx yajl, >= %.0fx json-glib, <= %.0f B/span, peak <= %.1fx (file + model)\n\n",
          json_glib_limit_mb, repeat, TARGET_VS_YAJL, TARGET_VS_JSON_GLIB, TARGET_BYTES_PER_SPAN,
          TARGET_PEAK_RATIO);
  printf ("%-44s %8s %9s %7s %7s %6s %5s | %9s %11s | %9s %11s | %11s %7s | %9s | %6s %8s %7s | %13s | %13s | %13s\n",
          "file", "MB", "events", "load s", "MB/s", "Mev/s", "fixed", "yajl MB/s", "ours/yajl",
          "j-g MB/s", "ours/j-g", "B/span", "model", "peak", "anon", "peak MB", "flt/MB", "inflate", "ceiling",
          "plain x yajl");
}

static Measure
bench_file (const char *path,
            const char *name,
            guint64     size,
            guint       json_glib_limit_mb,
            Tally      *tally)
{
  Measure ours = run_child (measure_ours, path);
  Measure yajl = run_child (measure_yajl, path);
  Measure jg = { 0 };
  gboolean with_json_glib = size <= (guint64) json_glib_limit_mb * MB;
  g_autofree char *shown = strlen (name) > 44 ? g_strdup_printf ("%.42s..", name) : g_strdup (name);
  double mb = size / MB;
  double ours_rate, yajl_rate = 0, jg_rate = 0;

  if (with_json_glib)
    jg = run_child (measure_json_glib, path);
  tally->rows++;

  if (!ours.ok)
    {
      printf ("%-44s %8.1f  ours failed: %s\n", shown, mb, ours.error);
      return ours;
    }
  ours_rate = mb / ours.seconds;
  printf ("%-44s %8.1f %9" G_GUINT64_FORMAT " %7.3f %7.1f %6.2f %4.0f%% |", shown, mb, ours.events,
          ours.seconds, ours_rate, ours.events / ours.seconds / 1e6,
          fixed_cost.ok ? MIN (100.0, 100.0 * fixed_cost.seconds / ours.seconds) : 0.0);

  if (yajl.ok)
    {
      yajl_rate = mb / yajl.seconds;
      printf (" %9.1f %6.1f %s |", yajl_rate, ours_rate / yajl_rate,
              verdict (tally, T_YAJL, ours_rate >= TARGET_VS_YAJL * yajl_rate));
    }
  else
    printf (" %9s %11s |", "error", "");

  if (jg.ok)
    {
      jg_rate = mb / jg.seconds;
      printf (" %9.1f %6.1f %s |", jg_rate, ours_rate / jg_rate,
              verdict (tally, T_JSON_GLIB, ours_rate >= TARGET_VS_JSON_GLIB * jg_rate));
    }
  else
    printf (" %9s %11s |", with_json_glib ? "error" : "-", "");

  if (ours.spans > 0)
    {
      double per_span = (double) ours.resident_delta / ours.spans;

      printf (" %6.1f %s %7.1f |", per_span, verdict (tally, T_SPAN, per_span <= TARGET_BYTES_PER_SPAN),
              (double) ours.model_bytes / ours.spans);
    }
  else
    printf (" %11s %7s |", "-", "-");

  {
    double ratio = (double) ours.peak_delta / (ours.source_bytes + ours.model_bytes);

    printf (" %4.2f %s", ratio, verdict (tally, T_PEAK, ratio <= TARGET_PEAK_RATIO));
  }
  printf (" | %6.1f %8.1f %7.0f", (double) ours.anon_delta / MAX (ours.events, 1), ours.peak_anon / MB,
          ours.faults / mb);

  /* A compressed load cannot beat its decompression: show how close it
   * comes, and what the same bytes load at when they are not compressed. */
  if (ours.decompressed)
    {
      Measure inflate = run_child (measure_inflate, path);
      g_autoptr(GBytes) bytes = read_decompressed (path, NULL);
      g_autofree char *plain = NULL;
      int fd = g_file_open_tmp ("bench-plain-XXXXXX.json", &plain, NULL);

      if (inflate.ok)
        {
          double inflate_rate = mb / inflate.seconds;

          printf (" | %7.1f %5.2f | %5.1f %5.0f", inflate_rate, inflate.seconds / ours.seconds,
                  yajl.ok ? inflate_rate / yajl_rate : 0.0, jg.ok ? inflate_rate / jg_rate : 0.0);
          if (yajl.ok && inflate_rate < TARGET_VS_YAJL * yajl_rate)
            tally->beyond_inflate[T_YAJL]++;
          if (jg.ok && inflate_rate < TARGET_VS_JSON_GLIB * jg_rate)
            tally->beyond_inflate[T_JSON_GLIB]++;
        }
      if (fd >= 0 && bytes != NULL &&
          g_file_set_contents (plain, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL))
        {
          Measure uncompressed = run_child (measure_ours, plain);

          if (uncompressed.ok && yajl.ok)
            printf (" | %7.1f %5.1f", mb / uncompressed.seconds, yajl.seconds / uncompressed.seconds);
        }
      if (fd >= 0)
        {
          close (fd);
          g_unlink (plain);
        }
    }
  printf ("\n");

  if (!yajl.ok)
    printf ("    yajl: %s\n", yajl.error);
  if (with_json_glib && !jg.ok)
    printf ("    json-glib: %s\n", jg.error);
  return ours;
}

static void
print_tally (const Tally *tally)
{
  static const char * const names[] = { "ours/yajl", "ours/json-glib", "B/span", "peak RSS" };

  printf ("\n%u files. Targets met:", tally->rows);
  for (guint t = 0; t < G_N_ELEMENTS (names); t++)
    printf ("%s %s %u/%u", t > 0 ? "," : "", names[t], tally->met[t], tally->measured[t]);
  printf ("\nOut of reach by decompression alone (inflating is slower than the target): "
          "ours/yajl on %u files, ours/json-glib on %u\n",
          tally->beyond_inflate[T_YAJL], tally->beyond_inflate[T_JSON_GLIB]);
}

/* -------------------------------------------------------------------- */

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
bench_directory (const char *dir_path,
                 guint       json_glib_limit_mb,
                 Tally      *tally)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, &error);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    {
      printf ("(no traces: %s)\n", error->message);
      return;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    if (!g_str_has_suffix (name, ".md"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir_path, names->pdata[i], NULL);
      Measure probe;

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        continue;
      probe = run_child_once (measure_probe, path);
      /* small files say little about speed; Perfetto protobuf is not JSON */
      if (!probe.ok || probe.source_bytes < MIN_BYTES || (probe.first_byte != '{' && probe.first_byte != '['))
        continue;
      bench_file (path, names->pdata[i], probe.source_bytes, json_glib_limit_mb, tally);
    }
}

static void
remove_big_and_exit (int signum)
{
  if (big_tmp_path != NULL)
    unlink (big_tmp_path);
  _exit (128 + signum);
}

/* What a generator wrote: bytes, events, and engine instructions. */
typedef gboolean (*WriteFunc) (const char  *path,
                               guint64     *bytes,
                               guint64     *events,
                               guint64     *instructions,
                               GError     **error);

static gboolean
write_example (const char  *path,
               guint64     *bytes,
               guint64     *events,
               guint64     *instructions,
               GError     **error)
{
  ChronoExampleOptions options;
  ChronoExampleCounts counts;

  chrono_example_options_init (&options);
  options.target_bytes = BIG_BYTES;
  if (!chrono_example_trace_write (path, &options, &counts, error))
    return FALSE;
  *bytes = counts.uncompressed_bytes;
  *events = counts.events;
  *instructions = 0;
  return TRUE;
}

static gboolean
write_neuron (const char  *path,
              guint64     *bytes,
              guint64     *events,
              guint64     *instructions,
              GError     **error)
{
  NeuronGenOptions options;
  NeuronGenCounts counts;

  neuron_gen_options_init (&options);
  options.target_bytes = BIG_BYTES;
  if (!neuron_gen_write_device (path, &options, &counts, error))
    return FALSE;
  *bytes = counts.bytes;
  *events = counts.instructions + counts.dma + counts.semaphore_updates + counts.cc_ops + counts.cc_instructions;
  *instructions = counts.instructions;
  return TRUE;
}

static void
bench_generated (const char *file_name,
                 const char *label,
                 WriteFunc   write,
                 guint       json_glib_limit_mb,
                 Tally      *tally)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("chrono-bench-XXXXXX", &error);
  guint64 bytes, events, instructions;
  gint64 start;

  if (dir == NULL)
    {
      printf ("(no generated trace: %s)\n", error->message);
      return;
    }
  big_tmp_path = g_build_filename (dir, file_name, NULL);
  signal (SIGINT, remove_big_and_exit);
  signal (SIGTERM, remove_big_and_exit);

  start = g_get_monotonic_time ();
  if (write (big_tmp_path, &bytes, &events, &instructions, &error))
    {
      Measure ours;

      printf ("(generated %s: %.1f MB, %" G_GUINT64_FORMAT " events in %.1f s)\n", big_tmp_path,
              bytes / MB, events, (g_get_monotonic_time () - start) / 1e6);
      ours = bench_file (big_tmp_path, label, bytes, json_glib_limit_mb, tally);
      if (ours.ok && instructions > 0)
        printf ("    %" G_GUINT64_FORMAT " instructions: %.1f resident B/instruction beyond the file, "
                "peak RSS %.1f MB beyond the start (file %.1f MB, model %.1f MB)\n",
                instructions, (double) ours.resident_delta / instructions, ours.peak_delta / MB,
                ours.source_bytes / MB, ours.model_bytes / MB);
    }
  else
    printf ("(no generated trace: %s)\n", error->message);

  g_unlink (big_tmp_path);
  g_rmdir (dir);
  signal (SIGINT, SIG_DFL);
  signal (SIGTERM, SIG_DFL);
  g_clear_pointer (&big_tmp_path, g_free);
}

/* What any load costs, whatever its size: a trace of one event, with the
 * header a PyTorch profiler writes (reading it sets up json-glib). */
static void
measure_fixed_cost (void)
{
  static const char trace[] =
    "{\"schemaVersion\": 1, \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 1},"
    " \"deviceProperties\": [{\"id\": 0, \"name\": \"GPU\"}],"
    " \"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"a\", \"pid\": 0, \"tid\": 7,"
    " \"ts\": 0, \"dur\": 1, \"args\": {\"correlation\": 1}}]}";
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("bench-fixed-XXXXXX.json", &path, &error);

  if (fd < 0 || !g_file_set_contents (path, trace, -1, &error))
    printf ("(no fixed cost: %s)\n", error->message);
  else
    {
      one_event_path = g_steal_pointer (&path);
      fixed_cost = run_child (measure_ours, one_event_path);
      if (fixed_cost.ok)
        printf ("Fixed cost of a load (one event): %.3f ms, %.0f KB resident beyond the file, %.0f KB peak\n\n",
                fixed_cost.seconds * 1e3, fixed_cost.resident_delta / 1024.0, fixed_cost.peak_delta / 1024.0);
      else
        printf ("(no fixed cost: %s)\n\n", fixed_cost.error);
    }
  if (fd >= 0)
    close (fd);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *big = NULL;
  g_auto(GStrv) dirs = NULL;
  gboolean no_big = FALSE;
  gboolean neuron = FALSE;
  gint json_glib_limit_mb = 100;
  gint repeat_arg = 3;
  const GOptionEntry entries[] = {
    { "big", 0, 0, G_OPTION_ARG_FILENAME, &big, "Use this big trace instead of generating one", "PATH" },
    { "no-big", 0, 0, G_OPTION_ARG_NONE, &no_big, "Skip the big trace", NULL },
    { "neuron", 0, 0, G_OPTION_ARG_NONE, &neuron, "Also a ~1 GB generated Neuron device profile", NULL },
    { "json-glib-limit", 0, 0, G_OPTION_ARG_INT, &json_glib_limit_mb,
      "Largest file given to json-glib (default 100)", "MB" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat_arg, "Runs of each measurement; the fastest counts (default 3)", "N" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &dirs, NULL, NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[TRACES_DIR]");
  g_autoptr(GError) error = NULL;
  Tally tally = { 0 };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || json_glib_limit_mb < 0 || repeat_arg < 1 ||
      (dirs != NULL && g_strv_length (dirs) > 1))
    {
      fprintf (stderr, "bench-load: %s\n", error ? error->message : "expected one traces folder");
      return 2;
    }

  repeat = repeat_arg;
  print_legend (json_glib_limit_mb);
  measure_fixed_cost ();
  if (dirs != NULL)
    bench_directory (dirs[0], json_glib_limit_mb, &tally);
  if (big != NULL && !no_big)
    {
      Measure probe = run_child_once (measure_probe, big);
      g_autofree char *name = g_path_get_basename (big);

      if (probe.ok)
        bench_file (big, name, probe.source_bytes, json_glib_limit_mb, &tally);
      else
        printf ("(cannot read %s: %s)\n", big, probe.error);
    }
  else if (!no_big)
    bench_generated ("example-1GB.pt.trace.json", "generated example (Kineto-shaped)", write_example,
                     json_glib_limit_mb, &tally);
  if (neuron)
    bench_generated ("device_profile_model_1.json", "generated Neuron device profile", write_neuron,
                     json_glib_limit_mb, &tally);
  print_tally (&tally);
  if (one_event_path != NULL)
    g_unlink (one_event_path);
  g_free (one_event_path);
  return 0;
}
