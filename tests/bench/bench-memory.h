/* bench-memory.h: resident memory, its anonymous part and page faults, for
 * the benchmarks
 *
 * Anonymous memory (RssAnon) is what the kernel cannot drop without swap;
 * a mapped file's pages (RssFile) it can, so the two are told apart.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib.h>

typedef struct {
  gint64 rss;
  gint64 rss_file;
  gint64 rss_anon;
  gint64 hwm;
} BenchMemory;

/* A "Key:   123 kB" line of a status file, in bytes; 0 if absent. */
static inline gint64
bench_status_bytes (const char *status,
                    const char *key)
{
  const char *line = strstr (status, key);

  if (line == NULL)
    return 0;
  return g_ascii_strtoll (line + strlen (key), NULL, 10) * 1024;
}

/* Of the process PID (0: this one); zeros once it has gone. */
static inline BenchMemory
bench_memory_of (int pid)
{
  g_autofree char *path = pid > 0 ? g_strdup_printf ("/proc/%d/status", pid) : g_strdup ("/proc/self/status");
  g_autofree char *status = NULL;
  BenchMemory mem = { 0 };

  if (g_file_get_contents (path, &status, NULL, NULL))
    {
      mem.rss = bench_status_bytes (status, "\nVmRSS:");
      mem.rss_file = bench_status_bytes (status, "\nRssFile:");
      mem.rss_anon = bench_status_bytes (status, "\nRssAnon:");
      mem.hwm = bench_status_bytes (status, "\nVmHWM:");
    }
  return mem;
}

/* Starts VmHWM afresh (Linux >= 4.0); without it the peak includes what
 * the process held before, which only makes the figure pessimistic. */
static inline void
bench_reset_peak (void)
{
  /* Written in place: g_file_set_contents() would write a file beside it
   * and rename it, which /proc refuses. A child starts with the VmHWM of
   * its parent at fork(), so without this the parent's size counts. */
  int fd = open ("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);

  if (fd < 0)
    return;
  if (write (fd, "5", 1) != 1)
    g_debug ("cannot reset the peak: %s", g_strerror (errno));
  close (fd);
}

/* The kernel keeps no peak of RssAnon: a thread samples it every 2 ms. */
typedef struct {
  GThread *thread;
  int      pid;
  gint     stop;   /* atomic */
  gint64   peak;
} BenchAnonPeak;

static inline gpointer
bench_anon_peak_main (gpointer data)
{
  BenchAnonPeak *p = data;

  while (!g_atomic_int_get (&p->stop))
    {
      p->peak = MAX (p->peak, bench_memory_of (p->pid).rss_anon);
      g_usleep (2000);
    }
  return NULL;
}

/* Samples the process PID (0: this one) until bench_anon_peak_stop(). */
static inline void
bench_anon_peak_start (BenchAnonPeak *p,
                       int            pid)
{
  p->pid = pid;
  p->stop = FALSE;
  p->peak = bench_memory_of (pid).rss_anon;
  p->thread = g_thread_new ("bench-anon-peak", bench_anon_peak_main, p);
}

static inline gint64
bench_anon_peak_stop (BenchAnonPeak *p)
{
  g_atomic_int_set (&p->stop, TRUE);
  g_thread_join (p->thread);
  if (p->pid == 0)
    p->peak = MAX (p->peak, bench_memory_of (0).rss_anon);
  return p->peak;
}

/* Page faults of this process so far, minor and major, all threads. */
static inline guint64
bench_page_faults (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_minflt + ru.ru_majflt;
}
