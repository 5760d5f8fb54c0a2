/* bench-search.c: how long a span-name search takes on a big trace, next
 * to one bare pass over every span's name id in the same run
 *
 * Usage: bench-search TRACE [TEXT...]
 *
 * For a 10-million-span trace: chronoscope-cli example --size 4.5GB -o big.json,
 * then bench-search big.json. Each search runs three times; the best
 * time counts. "step" is the mean time to go to the next match and say
 * its rank ("12 of 3,456"), as the search bar does. It reports; it exits
 * 0 unless it cannot run at all.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>

#include "chrono-loader.h"
#include "chrono-search.h"

#define RUNS  3
#define STEPS 100

/* What any search must at least do: read every span's name id once. */
static double
baseline_pass (ChronoTrace *trace,
               guint64     *n_spans)
{
  gint64 t0 = g_get_monotonic_time ();
  guint64 sum = 0;

  *n_spans = 0;
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      for (guint32 i = 0; i < track->n_spans; i++)
        sum += chrono_track_get_name (track, i);
      *n_spans += track->n_spans;
    }
  /* Keeps the loop from being optimised away. */
  if (sum == G_MAXUINT64)
    g_print (" ");
  return (g_get_monotonic_time () - t0) / 1e6;
}

int
main (int argc, char **argv)
{
  static const char * const default_texts[] = { "nccl", "aten::", "Memcpy", "zzz-no-match", "e" };
  const char * const *texts = default_texts;
  guint n_texts = G_N_ELEMENTS (default_texts);
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  double baseline = G_MAXDOUBLE;
  guint64 n_spans = 0;

  if (argc < 2)
    {
      g_printerr ("Usage: %s TRACE [TEXT...]\n", argv[0]);
      return 1;
    }
  if (argc > 2)
    {
      texts = (const char * const *) argv + 2;
      n_texts = argc - 2;
    }

  trace = chrono_trace_load_file (argv[1], NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  for (guint r = 0; r < RUNS; r++)
    baseline = MIN (baseline, baseline_pass (trace, &n_spans));
  g_print ("%s: %" G_GUINT64_FORMAT " spans, %u distinct strings\n", argv[1], n_spans,
           chrono_trace_get_n_strings (trace));
  g_print ("baseline (one pass over name ids): %.1f ms\n", baseline * 1e3);
  g_print ("%-16s %12s %10s %8s %10s\n", "text", "matches", "ms", "ratio", "step us");

  for (guint i = 0; i < n_texts; i++)
    {
      g_autoptr(ChronoSearch) search = NULL;
      double best = G_MAXDOUBLE, step = 0;
      ChronoSpanRef match;
      guint n, rank = 0;
      gint64 t0;

      for (guint r = 0; r < RUNS; r++)
        {
          g_clear_object (&search);
          t0 = g_get_monotonic_time ();
          search = chrono_search_new (trace, texts[i], NULL);
          best = MIN (best, (g_get_monotonic_time () - t0) / 1e6);
        }
      n = chrono_search_get_n_matches (search);

      t0 = g_get_monotonic_time ();
      if (chrono_search_step (search, NULL, 1, &match))
        for (guint s = 0; s < STEPS && chrono_search_step (search, &match, 1, &match); s++)
          rank += chrono_search_get_rank (search, match);
      step = (g_get_monotonic_time () - t0) / (double) STEPS;
      /* RANK keeps the loop from being optimised away. */
      g_print ("%-16s %12u %10.1f %8.1f %10.1f%s\n", texts[i], n, best * 1e3,
               best / MAX (baseline, 1e-9), step, rank == G_MAXUINT ? " " : "");
    }
  return 0;
}
