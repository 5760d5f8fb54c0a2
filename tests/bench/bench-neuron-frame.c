/* bench-neuron-frame.c: whether the Neuron pages' work holds up frames
 *
 * Usage: xvfb-run -a -s "-screen 0 1920x1200x24" bench-neuron-frame [--hide-findings] PROFILE
 *
 * Opens PROFILE (a Neuron device profile, or a profile folder) in the
 * application's window, 1600 x 1000 px, on its timeline, and from the end
 * of loading pans the timeline a little every frame, so the window asks
 * for a frame at every tick of its frame clock. When the findings are
 * ready, the NeuronCores page, the Operators tab and the utilisation
 * lanes take their figures from them; whatever of that runs on the main
 * thread delays the next tick. It prints the ticks' intervals from the
 * findings' arrival until the NeuronCores page shows its figures and one
 * second more (p50, p95, max, and how many took over 16.7 ms and over
 * 33.4 ms, a frame missed), and, as the baseline, the same while the
 * findings were worked out on their worker thread. --hide-findings hides
 * the findings panel, to tell the Neuron pages' part from the panel's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <adwaita.h>

#include "app-test-utils.h"
#include "bench-frame-clock.h"
#include "chrono-application.h"
#include "chrono-document-page.h"
#include "chrono-neuron-page.h"

#define WINDOW_WIDTH 1600
#define WINDOW_HEIGHT 1000
#define AFTER_US G_USEC_PER_SEC

typedef struct {
  GArray    *before;        /* intervals in ms while the findings were worked out */
  GArray    *after;         /* from their arrival until the page is done, and AFTER_US more */
  gint64     last_tick;
  gint64     analysed_at;
  gint64     done_at;
  GtkWidget *neuron;
  ChronoFindingsPanel *panel;
  gboolean   finished;
} Ticks;

static gboolean
page_done (Ticks *t)
{
  GtkStack *stack = GTK_STACK (app_test_find_widget (t->neuron, GTK_TYPE_STACK));

  return g_strcmp0 (gtk_stack_get_visible_child_name (stack), "done") == 0;
}

static gboolean
tick_cb (GtkWidget     *timeline,
         GdkFrameClock *clock,
         gpointer       data)
{
  Ticks *t = data;
  ChronoViewport *viewport = chrono_timeline_get_viewport (CHRONO_TIMELINE (timeline));
  gint64 now = g_get_monotonic_time ();
  double ms = t->last_tick > 0 ? (now - t->last_tick) / 1e3 : NAN;

  t->last_tick = now;
  if (t->analysed_at == 0 && chrono_findings_panel_get_analysis (t->panel) != NULL)
    t->analysed_at = now;
  if (t->analysed_at > 0 && t->done_at == 0 && page_done (t))
    t->done_at = now;
  if (isfinite (ms))
    g_array_append_val (t->analysed_at == 0 ? t->before : t->after, ms);
  if (t->done_at > 0 && now - t->done_at > AFTER_US)
    {
      t->finished = TRUE;
      return G_SOURCE_REMOVE;
    }
  /* Pans by a pixel, so every tick draws. */
  chrono_viewport_pan (viewport, (t->before->len + t->after->len) % 2 ? 1 : -1);
  return G_SOURCE_CONTINUE;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static void
print_intervals (const char *title,
                 GArray     *ms)
{
  guint over_frame = 0, missed = 0;

  if (ms->len == 0)
    {
      printf ("%-40s no ticks\n", title);
      return;
    }
  g_array_sort (ms, compare_doubles);
  for (guint i = 0; i < ms->len; i++)
    {
      over_frame += g_array_index (ms, double, i) > 16.7;
      missed += g_array_index (ms, double, i) > 33.4;
    }
  printf ("%-40s %4u ticks, interval p50 %.1f p95 %.1f max %.1f ms; > 16.7 ms: %u, > 33.4 ms: %u\n", title, ms->len,
          g_array_index (ms, double, ms->len / 2), g_array_index (ms, double, (guint) (ms->len * 0.95)),
          g_array_index (ms, double, ms->len - 1), over_frame, missed);
}

static gboolean
finished (gpointer data)
{
  return ((Ticks *) data)->finished;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GArray) before = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) after = g_array_new (FALSE, FALSE, sizeof (double));
  ChronoWindow *window;
  ChronoDocumentPage *page;
  GtkWidget *timeline;
  Ticks ticks = { before, after };
  gint64 opened_at, loaded_at;
  gboolean hide_findings = FALSE;
  const GOptionEntry entries[] = {
    { "hide-findings", 0, 0, G_OPTION_ARG_NONE, &hide_findings, "Hide the findings panel", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) options = g_option_context_new ("PROFILE - frames while the Neuron pages fill");
  g_autoptr(GError) error = NULL;

  chrono_application_choose_renderer ();
  if (!app_test_init (&argc, &argv))
    return 77;
  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error) || argc != 2)
    {
      fprintf (stderr, "%s\n", error ? error->message : "Usage: bench-neuron-frame [--hide-findings] PROFILE");
      return 2;
    }

  window = app_test_get_window ();
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (window), BENCH_FRAME_TIMEOUT_MS));
  bench_frame_size_window (GTK_WIDGET (window), WINDOW_WIDTH, WINDOW_HEIGHT);
  file = g_file_new_for_path (argv[1]);
  opened_at = g_get_monotonic_time ();
  page = chrono_window_open_file (window, file);
  if (!app_test_wait_for_state (page, CHRONO_DOCUMENT_STATE_LOADED, 600000))
    {
      fprintf (stderr, "bench-neuron-frame: %s did not load\n", argv[1]);
      return 1;
    }
  loaded_at = g_get_monotonic_time ();
  if (hide_findings)
    chrono_document_page_set_show_findings (page, FALSE);
  ticks.neuron = app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_NEURON_PAGE);
  if (ticks.neuron == NULL)
    {
      fprintf (stderr, "bench-neuron-frame: %s has no NeuronCore\n", argv[1]);
      return 1;
    }
  ticks.panel = CHRONO_FINDINGS_PANEL (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_FINDINGS_PANEL));
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (app_test_find_widget (GTK_WIDGET (page), ADW_TYPE_VIEW_STACK)),
                                         "timeline");
  timeline = app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE);
  gtk_widget_add_tick_callback (timeline, tick_cb, &ticks, NULL);
  if (!app_test_spin_until (finished, &ticks, 600000))
    {
      fprintf (stderr, "bench-neuron-frame: the NeuronCores page did not fill\n");
      return 1;
    }

  printf ("profile %s\n", argv[1]);
  printf ("load %.2f s; findings %.2f s after loading; page filled %.0f ms after them\n",
          (loaded_at - opened_at) / 1e6, (ticks.analysed_at - loaded_at) / 1e6,
          (ticks.done_at - ticks.analysed_at) / 1e3);
  print_intervals ("ticks while the findings were worked out", before);
  print_intervals ("ticks from the findings to the page + 1 s", after);
  app_test_close_all_tabs (window);
  return 0;
}
