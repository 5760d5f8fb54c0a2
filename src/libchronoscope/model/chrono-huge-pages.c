/* chrono-huge-pages.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "chrono-huge-pages.h"

#define HUGE_PAGE ((guintptr) 2 << 20)

void
chrono_huge_pages_advise (gpointer p,
                          gsize    bytes)
{
#ifdef MADV_HUGEPAGE
  guintptr start = ((guintptr) p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  guintptr end = ((guintptr) p + bytes) & ~(HUGE_PAGE - 1);

  if (p != NULL && end > start)
    madvise ((void *) start, end - start, MADV_HUGEPAGE);
#endif
}

GArray *
chrono_huge_array_sized_new (guint element_size,
                             guint reserved)
{
  GArray *array = g_array_sized_new (FALSE, FALSE, element_size, reserved);
  gsize bytes = (gsize) reserved * element_size;

  if (bytes >= CHRONO_HUGE_BLOCK)
    chrono_huge_pages_advise (array->data, bytes);
  return array;
}

GArray *
chrono_huge_array_set_size (GArray *array,
                            guint   n)
{
  gsize bytes = (gsize) n * g_array_get_element_size (array);

  g_array_set_size (array, n);
  if (bytes >= CHRONO_HUGE_BLOCK)
    chrono_huge_pages_advise (array->data, bytes);
  return array;
}

/* The arrays of an analysis and of a load are written once, at up to a
 * gigabyte a second: on a virtual machine, faulting them in 4 KiB at a
 * time is a third of the analysis of a Neuron profile. glibc reads its
 * tunables only as a program starts, hence the restart; the restarted
 * program takes the setting out of its environment again, so that what
 * it starts runs as it would have. */
#define RESTARTED "CHRONOSCOPE_HUGE_PAGES_RESTARTED"

static gboolean restarted;

void
chrono_huge_pages_restart (char **argv)
{
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
  g_autofree char *mode = NULL;
  const char *preload = g_getenv ("LD_PRELOAD");

  if (g_getenv (RESTARTED) != NULL)
    {
      restarted = TRUE;
      g_unsetenv (RESTARTED);
      g_unsetenv ("GLIBC_TUNABLES");
      return;
    }
  if (g_getenv ("GLIBC_TUNABLES") != NULL ||
      /* Valgrind's tools would lose the program they run. */
      (preload != NULL && strstr (preload, "vgpreload") != NULL) ||
      !g_file_get_contents ("/sys/kernel/mm/transparent_hugepage/enabled", &mode, NULL, NULL) ||
      strstr (mode, "[madvise]") == NULL)
    return;
  g_setenv ("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", TRUE);
  g_setenv (RESTARTED, "1", TRUE);
  execv ("/proc/self/exe", argv);
  g_unsetenv ("GLIBC_TUNABLES");
  g_unsetenv (RESTARTED);
#endif
}

gboolean
chrono_huge_pages_restarted (void)
{
  return restarted;
}
