/* test-background.c: background work runs on its own thread, at a lower
 * CPU priority and off one of the caller's cores, and hands its result
 * back to the main context
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include "chrono-background.h"

typedef struct {
  int       nice;
  int       cpus;
  pid_t     tid;
  gboolean  cancelled;
} Seen;

/* How many cores thread TID may run on. */
static int
cpus_of (pid_t tid)
{
  cpu_set_t cpus;

  g_assert_cmpint (sched_getaffinity (tid, sizeof cpus, &cpus), ==, 0);
  return CPU_COUNT (&cpus);
}

static void
record_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Seen *seen = task_data;

  errno = 0;
  seen->nice = getpriority (PRIO_PROCESS, (id_t) gettid ());
  g_assert_cmpint (errno, ==, 0);
  seen->cpus = cpus_of (gettid ());
  seen->tid = gettid ();
  seen->cancelled = g_cancellable_is_cancelled (cancellable);
  g_task_return_int (task, 42);
}

static void
done_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  gssize *value = user_data;

  /* Called back in the main context, as for g_task_run_in_thread(). */
  g_assert_true (g_main_context_is_owner (g_main_context_default ()));
  *value = g_task_propagate_int (G_TASK (result), NULL);
}

static void
test_lower_priority (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GTask) task = NULL;
  Seen seen = { 0 };
  gssize value = -1;
  int main_nice, main_cpus = cpus_of (gettid ());

  errno = 0;
  main_nice = getpriority (PRIO_PROCESS, (id_t) gettid ());
  g_assert_cmpint (errno, ==, 0);
  task = g_task_new (NULL, cancellable, done_cb, &value);
  g_task_set_task_data (task, &seen, NULL);
  chrono_background_run (task, record_thread, "test-background");
  g_clear_object (&task);
  while (value == -1)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpint (value, ==, 42);
  g_assert_cmpint (seen.tid, !=, gettid ());
  g_assert_false (seen.cancelled);
  g_assert_cmpint (seen.nice, ==, MIN (main_nice + 10, 19));
  /* One core is left to the caller, when it has more than one. */
  g_assert_cmpint (seen.cpus, ==, main_cpus > 1 ? main_cpus - 1 : main_cpus);
  /* The caller's thread keeps its own priority and cores. */
  g_assert_cmpint (getpriority (PRIO_PROCESS, (id_t) gettid ()), ==, main_nice);
  g_assert_cmpint (cpus_of (gettid ()), ==, main_cpus);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/background/lower-priority", test_lower_priority);
  return g_test_run ();
}
