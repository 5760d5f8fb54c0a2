/* chrono-cli-example.c: chronoscope-cli example, writes an example trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "chrono-cli.h"
#include "chrono-example-job.h"
#include "chrono-example-trace.h"
#include "chrono-format.h"

/* "3,17" */
static gboolean
parse_ranks (const char  *text,
             GArray      *out)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);

  for (guint i = 0; parts[i]; i++)
    {
      guint64 v;

      if (!g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, 0, G_MAXUINT, &v, NULL))
        return FALSE;
      g_array_append_vals (out, &(guint) { v }, 1);
    }
  return TRUE;
}

/* "RANK:A[:B],…" with A unsigned and B signed; B defaults to FALLBACK. */
static gboolean
parse_pairs (const char *text,
             gboolean    need_second,
             gint64      fallback,
             GArray     *ranks,
             GArray     *firsts,
             GArray     *seconds)
{
  g_auto(GStrv) items = g_strsplit (text, ",", -1);

  for (guint i = 0; items[i]; i++)
    {
      g_auto(GStrv) f = g_strsplit (g_strstrip (items[i]), ":", 3);
      guint n = g_strv_length (f);
      guint64 rank, first = 0;
      gint64 second = fallback;

      if (n < 2 || (need_second && n != 2) || (!need_second && n > 3) ||
          !g_ascii_string_to_unsigned (f[0], 10, 0, G_MAXUINT, &rank, NULL) ||
          (need_second ? !g_ascii_string_to_signed (f[1], 10, G_MININT64 / 1000, G_MAXINT64 / 1000, &second, NULL)
                       : !g_ascii_string_to_unsigned (f[1], 10, 0, G_MAXUINT, &first, NULL)) ||
          (n == 3 && !g_ascii_string_to_signed (f[2], 10, G_MININT64 / 1000, G_MAXINT64 / 1000, &second, NULL)))
        return FALSE;
      g_array_append_vals (ranks, &(guint) { rank }, 1);
      g_array_append_vals (firsts, &(guint) { first }, 1);
      g_array_append_vals (seconds, &(gint64) { second * 1000 }, 1);
    }
  return TRUE;
}

/* example --job: the ranks of a job, and what was planted in them. */
static int
example_job (int    argc,
             char **argv)
{
  g_autofree char *dir = NULL;
  gboolean job = FALSE;
  gint world_size = 8, steps = 4;
  gint64 seed = 1;
  g_autofree char *stragglers = NULL;
  g_autofree char *late = NULL;
  g_autofree char *offsets = NULL;
  g_autofree char *manifest_path = NULL;
  gint buckets = 4;
  gint64 delay_us = 2000, late_us = 1500;
  const GOptionEntry entries[] = {
    { "job", 0, 0, G_OPTION_ARG_NONE, &job, "Write the ranks of a job", NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &dir, "Folder to write the ranks to", "FOLDER" },
    { "world-size", 'w', 0, G_OPTION_ARG_INT, &world_size, "Number of ranks (default 8)", "W" },
    { "steps", 'n', 0, G_OPTION_ARG_INT, &steps, "Profiler steps (default 4)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "The same seed writes the same bytes (default 1)", "S" },
    { "buckets", 0, 0, G_OPTION_ARG_INT, &buckets, "All-reduces per step (default 4)", "N" },
    { "stragglers", 0, 0, G_OPTION_ARG_STRING, &stragglers, "Ranks whose data loading is slower every step", "R,R…" },
    { "straggler-delay-us", 0, 0, G_OPTION_ARG_INT64, &delay_us, "How much slower (default 2000)", "US" },
    { "late", 0, 0, G_OPTION_ARG_STRING, &late, "One-off late arrivals: RANK at its COLLECTIVE-th all-reduce (from 0), "
      "late by US (default 1500)", "RANK:COLLECTIVE[:US],…" },
    { "offsets", 0, 0, G_OPTION_ARG_STRING, &offsets, "Clock offsets: RANK's clock ahead by US (negative: behind)", "RANK:US,…" },
    { "manifest", 0, 0, G_OPTION_ARG_FILENAME, &manifest_path, "Write what was planted to FILE (default: standard output)", "FILE" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("--job -o FOLDER");
  g_autoptr(GArray) straggler_ranks = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) late_ranks = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) late_colls = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) late_delays = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) offset_ranks = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) offset_unused = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) offset_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) skews = g_array_new (FALSE, FALSE, sizeof (ChronoExampleSkew));
  g_autoptr(GArray) offs = g_array_new (FALSE, FALSE, sizeof (ChronoExampleOffset));
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) manifest = NULL;
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;
  ChronoExampleJobOptions options;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context,
                                "Writes rank-NNNN.pt.trace.json for every rank of a data-parallel job into\n"
                                "FOLDER, and what it planted (chronoscope.example-job/1) to --manifest.");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "chronoscope-cli example: %s\n", error->message);
      return 2;
    }
  if (argc > 1 || dir == NULL || world_size < 0 || steps < 0)
    {
      fprintf (stderr, "chronoscope-cli example: %s\n", dir == NULL ? "no output folder: use --job -o FOLDER"
                       : argc > 1 ? "unexpected arguments" : "the world size and steps must be positive");
      return 2;
    }
  if ((stragglers && !parse_ranks (stragglers, straggler_ranks)) ||
      (late && !parse_pairs (late, FALSE, late_us, late_ranks, late_colls, late_delays)) ||
      (offsets && !parse_pairs (offsets, TRUE, 0, offset_ranks, offset_unused, offset_ns)))
    {
      fprintf (stderr, "chronoscope-cli example: --stragglers wants R,R…, --late RANK:COLLECTIVE[:US],… and "
               "--offsets RANK:US,… (whole numbers)\n");
      return 2;
    }
  for (guint i = 0; i < late_ranks->len; i++)
    g_array_append_vals (skews, &(ChronoExampleSkew) { g_array_index (late_ranks, guint, i),
                                                       g_array_index (late_colls, guint, i),
                                                       g_array_index (late_delays, gint64, i) }, 1);
  for (guint i = 0; i < offset_ranks->len; i++)
    g_array_append_vals (offs, &(ChronoExampleOffset) { g_array_index (offset_ranks, guint, i),
                                                        g_array_index (offset_ns, gint64, i) }, 1);

  chrono_example_job_options_init (&options);
  options.world_size = world_size;
  options.n_steps = steps;
  options.n_buckets = MAX (buckets, 0);
  options.seed = (guint64) seed;
  options.stragglers = (guint *) straggler_ranks->data;
  options.n_stragglers = straggler_ranks->len;
  options.straggler_delay_ns = delay_us * 1000;
  options.skews = (ChronoExampleSkew *) skews->data;
  options.n_skews = skews->len;
  options.offsets = (ChronoExampleOffset *) offs->data;
  options.n_offsets = offs->len;

  manifest = chrono_example_job_write (dir, &options, &error);
  if (manifest == NULL)
    {
      fprintf (stderr, "chronoscope-cli example: %s\n", error->message);
      return 1;
    }
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, manifest);
  text = json_generator_to_data (gen, NULL);
  if (manifest_path == NULL)
    puts (text);
  else if (!g_file_set_contents_full (manifest_path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, &error))
    {
      fprintf (stderr, "chronoscope-cli example: %s\n", error->message);
      return 1;
    }
  return 0;
}

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

  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--job") == 0)
      return example_job (argc, argv);
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
                                  "all-reduces, memory events and flows. With --job, every rank of a job:\n"
                                  "see “chronoscope-cli example --job --help”.");
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
