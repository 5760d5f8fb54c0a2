/* test-huge-pages.c: a program started again for huge pages gets them from
 * malloc, and leaves nothing of it in the environment of what it starts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "chrono-huge-pages.h"

/* The AnonHugePages of the mapping that holds P, in kB, or -1. Advice
 * splits a mapping at 2 MiB bounds: ask about a block's middle. */
static gint64
huge_kb_of (gconstpointer p)
{
  g_autofree char *smaps = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean inside = FALSE;

  g_assert_true (g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL));
  lines = g_strsplit (smaps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 lo, hi;
      gint64 kb;

      /* A mapping's first line: "lo-hi perms …". */
      if (sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x ", &lo, &hi) == 2)
        inside = (guintptr) p >= lo && (guintptr) p < hi;
      else if (inside && sscanf (lines[i], "AnonHugePages: %" G_GINT64_FORMAT " kB", &kb) == 1)
        return kb;
    }
  return -1;
}

static void
test_restarted (void)
{
  const gsize size = 64 << 20;
  g_autofree char *block = NULL;

  if (!chrono_huge_pages_restarted ())
    {
      g_test_skip ("not started again: the kernel gives huge pages without advice or never, "
                   "GLIBC_TUNABLES was set, or malloc is a sanitizer's");
      return;
    }
  /* What the program starts sees the environment it was started with. */
  g_assert_null (g_getenv ("GLIBC_TUNABLES"));
  g_assert_null (g_getenv ("CHRONOSCOPE_HUGE_PAGES_RESTARTED"));

  block = g_malloc (size);
  memset (block, 1, size);
  g_assert_cmpint (huge_kb_of (block + size / 2), >, 0);
}

/* A block advised by hand gets huge pages wherever the kernel gives them
 * on advice, restarted or not. */
static void
test_advised (void)
{
  g_autofree char *mode = NULL;
  const gsize size = 16 << 20;
  g_autofree char *block = NULL;

  if (!g_file_get_contents ("/sys/kernel/mm/transparent_hugepage/enabled", &mode, NULL, NULL) ||
      strstr (mode, "[never]") != NULL)
    {
      g_test_skip ("no transparent huge pages on this kernel");
      return;
    }
  block = g_malloc (size);
  chrono_huge_pages_advise (block, size);
  memset (block, 1, size);
  g_assert_cmpint (huge_kb_of (block + size / 2), >=, 2048);
}

int
main (int    argc,
      char **argv)
{
  chrono_huge_pages_restart (argv);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/huge-pages/restarted", test_restarted);
  g_test_add_func ("/huge-pages/advised", test_advised);
  return g_test_run ();
}
