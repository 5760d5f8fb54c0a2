/* test-huge-pages.c: a column advised onto huge pages gets them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

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

/* A block advised by hand gets huge pages wherever the kernel gives them
 * on advice. */
static void
test_advised (void)
{
  g_autofree char *mode = NULL;
  const gsize size = 16 << 20;
  char *block;

  if (!g_file_get_contents ("/sys/kernel/mm/transparent_hugepage/enabled", &mode, NULL, NULL) ||
      strstr (mode, "[never]") != NULL)
    {
      g_test_skip ("no transparent huge pages on this kernel");
      return;
    }
  /* Mapped, not allocated: MALLOC_PERTURB_, which the test runner sets,
   * would write the block before the advice. */
  block = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (block != MAP_FAILED);
  chrono_huge_pages_advise (block, size);
  memset (block, 1, size);
  g_assert_cmpint (huge_kb_of (block + size / 2), >=, 2048);
  munmap (block, size);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/huge-pages/advised", test_advised);
  return g_test_run ();
}
