/* chrono-cli-example.c: chronoscope-cli example, writes an example trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>

#include <glib.h>

#include "chrono-cli.h"
#include "chrono-example-trace.h"
#include "chrono-format.h"

int
chrono_cli_example (int    argc,
                    char **argv)
{
  g_autofree char *size = NULL;
  g_autofree char *output = NULL;
  g_auto(GStrv) rest = NULL;
  gint steps = 0;
  gint rank = 0;
  gint world_size;
  gint streams;
  gint64 seed;
  gboolean gzip = FALSE;
  ChronoExampleOptions options;
  ChronoExampleCounts counts;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *uncompressed = NULL;
  g_autofree char *on_disk = NULL;
  gint64 started;

  chrono_example_options_init (&options);
  world_size = options.world_size;
  streams = options.n_streams;
  seed = options.seed;
  {
    const GOptionEntry entries[] = {
      { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "File to write", "FILE" },
      { "size", 's', 0, G_OPTION_ARG_STRING, &size, "Uncompressed size to reach (default 40MB)", "SIZE" },
      { "steps", 'n', 0, G_OPTION_ARG_INT, &steps, "Write N profiler steps instead", "N" },
      { "rank", 'r', 0, G_OPTION_ARG_INT, &rank, "Rank this trace comes from (default 0)", "R" },
      { "world-size", 'w', 0, G_OPTION_ARG_INT, &world_size, "Number of ranks (default 8)", "W" },
      { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "The same seed writes the same bytes (default 1)", "S" },
      { "streams", 0, 0, G_OPTION_ARG_INT, &streams, "Compute streams (default 2)", "N" },
      { "gzip", 'z', 0, G_OPTION_ARG_NONE, &gzip, "Compress with gzip", NULL },
      { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, NULL },
      G_OPTION_ENTRY_NULL
    };

    context = g_option_context_new ("-o FILE");
    g_option_context_set_summary (context,
                                  "Writes a PyTorch-profiler (Kineto) trace of one rank of data-parallel\n"
                                  "training: CPU ops, runtime calls, kernels on several streams, NCCL\n"
                                  "all-reduces, memory events and flows.");
    g_option_context_add_main_entries (context, entries, NULL);
    if (!g_option_context_parse (context, &argc, &argv, &error))
      {
        fprintf (stderr, "chronoscope-cli example: %s\n", error->message);
        return 2;
      }
  }

  if (output == NULL || rest != NULL)
    {
      fprintf (stderr, "chronoscope-cli example: %s\n",
               output == NULL ? "no output file: use -o FILE" : "unexpected arguments");
      return 2;
    }
  if (steps < 0 || rank < 0 || world_size < 1 || streams < 1)
    {
      fprintf (stderr, "chronoscope-cli example: steps, rank, world size and streams must be positive\n");
      return 2;
    }
  if (size != NULL && !chrono_format_parse_size (size, &options.target_bytes, &error))
    {
      fprintf (stderr, "chronoscope-cli example: %s\n", error->message);
      return 2;
    }
  options.n_steps = steps;
  options.rank = rank;
  options.world_size = world_size;
  options.seed = (guint64) seed;
  options.n_streams = streams;
  options.gzip = gzip;

  started = g_get_monotonic_time ();
  if (!chrono_example_trace_write (output, &options, &counts, &error))
    {
      fprintf (stderr, "chronoscope-cli example: %s\n", error->message);
      return 1;
    }

  uncompressed = g_format_size (counts.uncompressed_bytes);
  on_disk = g_format_size (counts.file_bytes);
  printf ("Wrote %s: %s%s%s%s, %" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT " steps, rank %u of %u, %.1f s\n",
          output, uncompressed,
          gzip ? " (" : "", gzip ? on_disk : "", gzip ? " gzip)" : "",
          counts.events, counts.steps, options.rank, options.world_size,
          (g_get_monotonic_time () - started) / 1e6);
  return 0;
}
