/* bench-memory-events.c: loading a trace with a million memory events,
 * against a trace of the same size without them
 *
 * Usage: bench-memory-events [--events N] [--repeat R] [--keep DIR]
 *
 * Writes two Kineto-shaped traces of the same bytes and events: N
 * "[memory]" instants as PyTorch writes them (Addr, Bytes, totals,
 * device), an allocation and its free inside each of N / 4 cpu_op spans
 * … and the same trace with the instants renamed "[marker]", which no
 * memory analysis reads. Each is loaded in a forked process R times (3
 * by default), the fastest kept; the memory trace is then analysed for
 * its memory as the app does on opening it. Prints:
 *   - load time of each, and their ratio;
 *   - the memory analysis's time, and load + analysis against the plain
 *     load (the whole cost of the memory events);
 *   - peak RSS of each process, and what the analysis adds per memory
 *     event.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "chrono-loader.h"
#include "chrono-memory.h"
#include "bench-memory.h"

typedef struct {
  gboolean ok;
  double   load_s;
  double   memory_s;
  gint64   rss_loaded;
  gint64   hwm_loaded;
  gint64   hwm_analysed;
  guint    devices;
} Run;

static void
write_trace (const char *path,
             guint64     n_events,
             const char *instant_name)
{
  FILE *f = fopen (path, "w");
  gint64 allocated = 0;

  g_assert (f != NULL);
  fputs ("{\"traceEvents\":[\n", f);
  for (guint64 k = 0; k < n_events / 4; k++)
    {
      gint64 ts = 10 + (gint64) k * 20;
      guint64 addr = 0x7f0000000000 + (k % 4096) * 0x100000;

      fprintf (f, "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::empty\",\"pid\":1,\"tid\":1,"
                  "\"ts\":%" G_GINT64_FORMAT ",\"dur\":15},\n", ts);
      /* Two allocations and their frees, as [memory] instants. */
      for (int e = 0; e < 4; e++)
        {
          gint64 bytes = (e < 2 ? 1 : -1) * (gint64) (512 * (1 + (k + e % 2) % 7));

          allocated += bytes;
          fprintf (f, "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"%s\",\"pid\":1,\"tid\":1,\"ts\":%" G_GINT64_FORMAT ","
                      "\"args\":{\"Total Reserved\":%" G_GINT64_FORMAT ",\"Total Allocated\":%" G_GINT64_FORMAT ","
                      "\"Bytes\":%" G_GINT64_FORMAT ",\"Addr\":%" G_GUINT64_FORMAT ",\"Device Id\":0,\"Device Type\":1}},\n",
                   instant_name, ts + 1 + e * 3, (gint64) 1 << 30, allocated, bytes, addr + (guint64) (e % 2));
        }
    }
  fputs ("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"bench\"}}\n]}\n", f);
  fclose (f);
}

static Run
measure_once (const char *path,
              gboolean    analyse)
{
  Run run = { 0 };
  int fds[2];
  pid_t pid;

  g_assert (pipe (fds) == 0);
  pid = fork ();
  if (pid == 0)
    {
      g_autoptr(ChronoTrace) trace = NULL;
      g_autoptr(ChronoMemory) memory = NULL;
      gint64 t0;
      BenchMemory m;

      close (fds[0]);
      bench_reset_peak ();
      t0 = g_get_monotonic_time ();
      trace = chrono_trace_load_file (path, NULL, NULL, NULL, NULL);
      run.load_s = (g_get_monotonic_time () - t0) / 1e6;
      m = bench_memory_of (0);
      run.rss_loaded = m.rss;
      run.hwm_loaded = m.hwm;
      if (trace != NULL && analyse)
        {
          t0 = g_get_monotonic_time ();
          memory = chrono_memory_new (trace, 0, 0, NULL, NULL);
          run.memory_s = (g_get_monotonic_time () - t0) / 1e6;
          run.devices = chrono_memory_get_n_devices (memory);
        }
      run.hwm_analysed = bench_memory_of (0).hwm;
      run.ok = trace != NULL;
      if (write (fds[1], &run, sizeof run) != sizeof run)
        _exit (1);
      _exit (0);
    }
  close (fds[1]);
  if (read (fds[0], &run, sizeof run) != sizeof run)
    run.ok = FALSE;
  close (fds[0]);
  waitpid (pid, NULL, 0);
  return run;
}

/* The fastest of REPEAT runs. */
static Run
measure (const char *path,
         gboolean    analyse,
         guint       repeat)
{
  Run best = { 0 };

  for (guint r = 0; r < repeat; r++)
    {
      Run run = measure_once (path, analyse);

      if (!run.ok)
        g_error ("cannot load %s", path);
      if (r == 0 || run.load_s + run.memory_s < best.load_s + best.memory_s)
        best = run;
    }
  return best;
}

int
main (int    argc,
      char **argv)
{
  gint64 n_events = 1000000;
  gint repeat = 3;
  g_autofree char *keep = NULL;
  GOptionEntry entries[] = {
    { "events", 0, 0, G_OPTION_ARG_INT64, &n_events, "Memory events in the trace (1,000,000)", "N" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "Loads of each trace, the fastest kept (3)", "R" },
    { "keep", 0, 0, G_OPTION_ARG_FILENAME, &keep, "Write the traces into DIR and keep them", "DIR" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- loading a trace with a million memory events");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *with = NULL;
  g_autofree char *without = NULL;
  Run a, b;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || n_events < 4 || repeat < 1)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "--events must be at least 4, --repeat at least 1");
      return 2;
    }
  dir = keep != NULL ? g_strdup (keep) : g_dir_make_tmp ("bench-memory-XXXXXX", NULL);
  if (dir == NULL || g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_printerr ("cannot make a folder for the traces\n");
      return 1;
    }
  with = g_build_filename (dir, "memory.json", NULL);
  without = g_build_filename (dir, "plain.json", NULL);
  write_trace (with, (guint64) n_events, "[memory]");
  write_trace (without, (guint64) n_events, "[marker]");

  b = measure (without, FALSE, (guint) repeat);
  a = measure (with, TRUE, (guint) repeat);
  if (a.devices != 1)
    g_error ("the memory analysis found %u devices, not 1", a.devices);

  printf ("%" G_GINT64_FORMAT " memory events, %" G_GINT64_FORMAT " spans; fastest of %d loads\n",
          n_events / 4 * 4, n_events / 4, repeat);
  printf ("load without memory events  %.3f s, peak RSS %.1f MB\n", b.load_s, b.hwm_loaded / 1e6);
  printf ("load with memory events     %.3f s, peak RSS %.1f MB  (%.2f x)\n", a.load_s, a.hwm_loaded / 1e6,
          a.load_s / b.load_s);
  printf ("memory analysis             %.3f s, peak RSS %.1f MB after it\n", a.memory_s, a.hwm_analysed / 1e6);
  printf ("load + memory analysis      %.2f x the load without memory events\n", (a.load_s + a.memory_s) / b.load_s);
  printf ("model                       %.1f bytes per event loaded (RSS after load / events)\n",
          (double) a.rss_loaded / (double) (n_events + n_events / 4));
  printf ("memory analysis             %.1f bytes per memory event (peak RSS it adds)\n",
          (double) (a.hwm_analysed - a.hwm_loaded) / (double) n_events);

  if (keep == NULL)
    {
      g_unlink (with);
      g_unlink (without);
      g_rmdir (dir);
    }
  return 0;
}
