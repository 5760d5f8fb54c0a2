/* chrono-background.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-background.h"

#include <errno.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

/* Niceness of background work above the thread that starts it: 10 more
 * leaves it about a tenth of a core that a frame also wants. */
#define BACKGROUND_NICE 10
#define MAX_NICE        19

typedef struct {
  GTask           *task;
  GTaskThreadFunc  func;
} Job;

/* Keeps the thread, and the threads it starts, off one of the cores it
 * may use, so that the frames and the display server always find one
 * free: niceness alone leaves them waiting behind work on both cores. */
static void
leave_a_core (id_t thread)
{
  cpu_set_t cpus;
  int last = -1;

  if (sched_getaffinity (thread, sizeof cpus, &cpus) != 0 || CPU_COUNT (&cpus) < 2)
    return;
  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET (c, &cpus))
      last = c;
  CPU_CLR (last, &cpus);
  if (sched_setaffinity (thread, sizeof cpus, &cpus) != 0)
    g_debug ("Could not keep background work off a core: %s", g_strerror (errno));
}

static gpointer
run_job (gpointer data)
{
  Job *job = data;
  id_t self = (id_t) gettid ();
  int nice;

  /* A thread of its own, because raising a thread's niceness cannot be
   * undone without privileges: a pooled thread would keep it. A new
   * thread starts with its creator's. */
  errno = 0;
  nice = getpriority (PRIO_PROCESS, self);
  if (errno != 0 || setpriority (PRIO_PROCESS, self, MIN (nice + BACKGROUND_NICE, MAX_NICE)) != 0)
    g_debug ("Could not lower the priority of background work: %s", g_strerror (errno));
  leave_a_core (self);
  job->func (job->task, g_task_get_source_object (job->task), g_task_get_task_data (job->task),
             g_task_get_cancellable (job->task));
  g_object_unref (job->task);
  g_free (job);
  return NULL;
}

void
chrono_background_run (GTask           *task,
                       GTaskThreadFunc  func,
                       const char      *name)
{
  g_autoptr(GError) error = NULL;
  Job *job = g_new (Job, 1);
  GThread *thread;

  job->task = g_object_ref (task);
  job->func = func;
  thread = g_thread_try_new (name, run_job, job, &error);
  if (thread != NULL)
    {
      g_thread_unref (thread);
      return;
    }
  g_debug ("No thread for %s (%s): running it in GIO's pool", name, error->message);
  g_object_unref (job->task);
  g_free (job);
  g_task_run_in_thread (task, func);
}
