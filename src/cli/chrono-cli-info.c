/* chrono-cli-info.c: chronoscope-cli info
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>

#include <json-glib/json-glib.h>

#include "chrono-cli.h"
#include "chrono-cli-load.h"
#include "chrono-format.h"

static char *
summary_json (ChronoTrace *trace)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = chrono_cli_trace_summary (trace);

  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}

static char *
summary_text (ChronoTrace *trace,
              gdouble      seconds)
{
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);
  GString *out = g_string_new (NULL);
  guint n_tracks;
  g_autofree guint *order = chrono_trace_dup_track_order (trace, &n_tracks);
  g_autofree char *duration = chrono_format_duration (chrono_trace_get_end_ns (trace) -
                                                      chrono_trace_get_start_ns (trace));
  g_autofree char *size = NULL;
  guint last_process = G_MAXUINT;

  g_string_append_printf (out, "%s\n", chrono_trace_get_path (trace));
  size = chrono_format_bytes (chrono_trace_get_source_size (trace));
  g_string_append_printf (out, "  format      %s (%s), %s, read in %.2f s\n",
                          chrono_trace_get_format (trace), chrono_trace_get_compression (trace),
                          size, seconds);
  if (chrono_trace_get_text_dir (trace) != NULL)
    g_string_append_printf (out, "  text        decompressed into an unlinked file in %s\n",
                            chrono_trace_get_text_dir (trace));
  else if (g_strcmp0 (chrono_trace_get_compression (trace), "none") != 0)
    g_string_append (out, "  text        decompressed into memory\n");
  g_string_append_printf (out, "  duration    %s\n", duration);
  if (chrono_trace_get_rank (trace) >= 0 && chrono_trace_get_world_size (trace) > 0)
    g_string_append_printf (out, "  rank        %d of %d\n", chrono_trace_get_rank (trace),
                            chrono_trace_get_world_size (trace));
  else if (chrono_trace_get_rank (trace) >= 0)
    g_string_append_printf (out, "  rank        %d (the world size is not in the trace)\n", chrono_trace_get_rank (trace));
  g_string_append_printf (out, "  events      %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " spans, %"
                          G_GUINT64_FORMAT " async spans, %" G_GUINT64_FORMAT " instants, %" G_GUINT64_FORMAT " counter samples, %"
                          G_GUINT64_FORMAT " flows, %" G_GUINT64_FORMAT " launches)\n",
                          stats->events, stats->spans, stats->async_spans, stats->instants, stats->counter_samples,
                          stats->flows, stats->launch_links);
  g_string_append (out, "  kinds      ");
  for (guint k = 0; k < CHRONO_N_KINDS; k++)
    if (stats->kinds[k] > 0)
      g_string_append_printf (out, " %s %" G_GUINT64_FORMAT, chrono_kind_to_string (k), stats->kinds[k]);
  g_string_append_c (out, '\n');

  for (guint i = 0; i < n_tracks; i++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, order[i]);

      if (t->process != last_process)
        {
          const ChronoProcess *p = chrono_trace_get_process (trace, t->process);
          last_process = t->process;
          g_string_append_printf (out, "  %s\n", chrono_trace_get_string (trace, p->display_name));
        }
      g_string_append_printf (out, "    %-8s %-40s", chrono_track_type_to_string (t->type),
                              chrono_trace_get_string (trace, t->display_name));
      if (t->n_spans)
        g_string_append_printf (out, " %u spans", t->n_spans);
      if (t->n_instants)
        g_string_append_printf (out, " %u instants", t->n_instants);
      if (t->n_samples)
        g_string_append_printf (out, " %u samples", t->n_samples);
      g_string_append_c (out, '\n');
    }
  if (stats->truncated)
    g_string_append (out, "  TRUNCATED: the file is incomplete\n");
  for (guint i = 0; i < stats->warnings->len; i++)
    g_string_append_printf (out, "  warning: %s\n", (const char *) g_ptr_array_index (stats->warnings, i));
  return g_string_free (out, FALSE);
}

int
chrono_cli_info (int    argc,
                 char **argv)
{
  gboolean as_json = FALSE;
  gboolean merge = FALSE;
  g_auto(GStrv) files = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json, "One JSON object per file, one per line", NULL },
    { "merge", 0, 0, G_OPTION_ARG_NONE, &merge, "All files as one trace on a shared clock", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE… — summarise traces (a folder is read as one profile)");
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("chronoscope-cli info: %s\n", error->message);
      return 2;
    }
  if (files == NULL)
    {
      g_printerr ("chronoscope-cli info: no trace file given\n");
      return 2;
    }

  for (guint i = 0; i < chrono_cli_n_inputs (files, merge); i++)
    {
      g_autoptr(ChronoTrace) trace = NULL;
      g_autoptr(GError) load_error = NULL;
      g_autofree char *text = NULL;
      gint64 t0 = g_get_monotonic_time ();

      trace = chrono_cli_load_input (files, merge, i, &load_error);
      if (trace == NULL)
        {
          g_printerr ("%s\n", load_error->message);
          status = 1;
          continue;
        }
      text = as_json ? summary_json (trace)
                     : summary_text (trace, (g_get_monotonic_time () - t0) / 1e6);
      fputs (text, stdout);
      if (as_json)
        fputc ('\n', stdout);
      fflush (stdout);
    }
  return status;
}
