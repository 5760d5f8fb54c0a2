/* chrono-cli-compare.c: chronoscope-cli compare
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "chrono-cli.h"
#include "chrono-cli-load.h"
#include "chrono-comparison.h"
#include "chrono-diff-flame-painter.h"
#include "chrono-format.h"
#include "chrono-picture.h"

#define DEFAULT_FLAME_WIDTH 1600

gboolean
chrono_cli_compare_parse_steps (const char           *text,
                                ChronoCompareOptions *options)
{
  g_auto(GStrv) parts = g_strsplit (text, ":", 2);

  if (g_strv_length (parts) != 2 ||
      !g_ascii_string_to_signed (parts[0], 10, 0, G_MAXINT64, &options->first_step, NULL) ||
      !g_ascii_string_to_signed (parts[1], 10, 0, G_MAXINT64, &options->last_step, NULL) ||
      options->last_step < options->first_step)
    return FALSE;
  options->has_steps = TRUE;
  return TRUE;
}

gboolean
chrono_cli_compare_parse_align (const char           *text,
                                ChronoCompareOptions *options)
{
  if (strcmp (text, "step") == 0)
    options->align = CHRONO_COMPARE_ALIGN_STEP;
  else if (strcmp (text, "start") == 0)
    options->align = CHRONO_COMPARE_ALIGN_START;
  else if (g_str_has_prefix (text, "marker:") && text[strlen ("marker:")] != '\0')
    {
      options->align = CHRONO_COMPARE_ALIGN_MARKER;
      options->marker = text + strlen ("marker:");
    }
  else
    return FALSE;
  return TRUE;
}

/* FILE (or folder) loaded on its own. */
static ChronoTrace *
load (gpointer   file,
      GError   **error)
{
  char *one[] = { file, NULL };
  ChronoTrace *trace = chrono_cli_load_input (one, FALSE, 0, error);

  if (trace == NULL)
    return NULL;
  for (guint p = 0; p < chrono_trace_get_n_parts (trace); p++)
    if (chrono_trace_get_part (trace, p)->truncated)
      g_printerr ("%s: the file is incomplete; comparing what it holds\n", chrono_trace_get_part (trace, p)->path);
  return trace;
}

/* A and B loaded and analysed each in a thread of its own, at once. */
static gboolean
analyse (const char      *file_a,
         const char      *file_b,
         ChronoAnalysis **a,
         ChronoAnalysis **b,
         GError         **error)
{
  ChronoAnalysisOptions options;

  chrono_analysis_options_init (&options);
  chrono_cli_read_thresholds (&options.thresholds);
  return chrono_analysis_load_pair (load, (gpointer) file_a, (gpointer) file_b, &options, NULL, a, b, error);
}

typedef struct {
  ChronoDiffFlamePainter *painter;
  double      width;
  const char *title;
} FlameDraw;

static void
draw_flame (cairo_t  *cr,
            gpointer  data)
{
  FlameDraw *d = data;

  chrono_diff_flame_painter_draw_picture (d->painter, cr, d->width, d->title);
}

/* The differential flame graph of COMPARISON into PATH. */
static gboolean
write_flame (ChronoComparison *comparison,
             const char       *path,
             ChronoPictureFormat format,
             int               width,
             gboolean          dark,
             const char      **files,
             GError          **error)
{
  g_autoptr(ChronoComparisonTree) tree = chrono_comparison_tree_new (comparison);
  g_autoptr(ChronoDiffFlamePainter) painter = chrono_diff_flame_painter_new ();
  g_autofree char *a = g_path_get_basename (files[0]);
  g_autofree char *b = g_path_get_basename (files[1]);
  g_autofree char *a_step = chrono_format_duration (llround (chrono_comparison_tree_get_step_ns (tree, CHRONO_COMPARE_SIDE_A)));
  g_autofree char *b_step = chrono_format_duration (llround (chrono_comparison_tree_get_step_ns (tree, CHRONO_COMPARE_SIDE_B)));
  guint n = chrono_comparison_get_n_used (comparison);
  g_autofree char *title = g_strdup_printf (ngettext ("B %s against A %s · %u step · step time B %s, A %s",
                                                      "B %s against A %s · %u steps · step time B %s, A %s", n),
                                            b, a, n, b_step, a_step);
  FlameDraw d = { painter, width, title };

  chrono_diff_flame_painter_set_tree (painter, tree);
  chrono_diff_flame_painter_set_dark (painter, dark);
  return chrono_picture_render_to_file (format, width, chrono_diff_flame_painter_get_picture_height (painter, width),
                                        1, title, draw_flame, &d, path, error);
}

int
chrono_cli_compare (int    argc,
                    char **argv)
{
  g_autofree char *format = NULL;
  g_autofree char *steps = NULL;
  g_autofree char *align = NULL;
  g_autofree char *flame = NULL;
  g_autofree char *theme = NULL;
  int width = DEFAULT_FLAME_WIDTH;
  gboolean timing = FALSE;
  g_auto(GStrv) files = NULL;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: markdown (default) or json", "FORMAT" },
    { "steps", 's', 0, G_OPTION_ARG_STRING, &steps, "Compare steps N to M (ProfilerStep numbers, else positions from 0) instead of leaving out warm-up and outliers", "N:M" },
    { "align", 'a', 0, G_OPTION_ARG_STRING, &align, "Align by step (the default when both have steps), marker:NAME (every span named NAME) or start (the whole traces)", "HOW" },
    { "flame", 0, 0, G_OPTION_ARG_FILENAME, &flame, "Also draw the differential flame graph (B's tree, coloured by the change against A) into FILE: .png, .svg or .pdf", "FILE" },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &theme, "The flame graph's colours: light (the default) or dark", "THEME" },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, "The flame graph's width in px (default 1600)", "PX" },
    { "timing", 0, 0, G_OPTION_ARG_NONE, &timing, "Print loading, analysis and comparison times to standard error", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("A B — compare two runs: step time, where the difference comes from, operators and kernels");
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autoptr(ChronoAnalysis) b = NULL;
  g_autoptr(ChronoComparison) comparison = NULL;
  g_autofree char *text = NULL;
  ChronoCompareOptions options;
  ChronoPictureFormat flame_format = CHRONO_PICTURE_PNG;
  gint64 t0, t1;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("chronoscope-cli compare: %s\n", error->message);
      return 2;
    }
  if (format && strcmp (format, "json") != 0 && strcmp (format, "markdown") != 0)
    {
      g_printerr ("chronoscope-cli compare: unknown format “%s” (json or markdown)\n", format);
      return 2;
    }
  if (files == NULL || g_strv_length (files) != 2)
    {
      g_printerr ("chronoscope-cli compare: give two traces, A and B\n");
      return 2;
    }
  if (theme && strcmp (theme, "light") != 0 && strcmp (theme, "dark") != 0)
    {
      g_printerr ("chronoscope-cli compare: --theme wants light or dark, not “%s”\n", theme);
      return 2;
    }
  if (width < 200 || width > 20000)
    {
      g_printerr ("chronoscope-cli compare: --width wants 200 to 20000 px, not %d\n", width);
      return 2;
    }
  if (flame && !chrono_picture_format_for_path (flame, &flame_format))
    {
      g_printerr ("chronoscope-cli compare: --flame %s: the name must end in .png, .svg or .pdf\n", flame);
      return 2;
    }
  chrono_compare_options_init (&options);
  if (steps && !chrono_cli_compare_parse_steps (steps, &options))
    {
      g_printerr ("chronoscope-cli compare: --steps wants N:M, N at most M, not “%s”\n", steps);
      return 2;
    }
  if (align && !chrono_cli_compare_parse_align (align, &options))
    {
      g_printerr ("chronoscope-cli compare: --align wants step, start or marker:NAME, not “%s”\n", align);
      return 2;
    }

  t0 = g_get_monotonic_time ();
  if (!analyse (files[0], files[1], &a, &b, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  t1 = g_get_monotonic_time ();
  comparison = chrono_comparison_run (a, b, &options, NULL, &error);
  if (comparison == NULL)
    {
      g_printerr ("chronoscope-cli compare: %s\n", error->message);
      return 1;
    }
  if (timing)
    g_printerr ("load and analysis %.3f s, comparison %.3f s\n", (t1 - t0) / 1e6, (g_get_monotonic_time () - t1) / 1e6);

  if (flame && !write_flame (comparison, flame, flame_format, width, g_strcmp0 (theme, "dark") == 0,
                             (const char **) files, &error))
    {
      g_printerr ("chronoscope-cli compare: %s\n", error->message);
      return 1;
    }

  text = format && strcmp (format, "json") == 0 ? chrono_comparison_to_json (comparison)
                                                : chrono_comparison_to_markdown (comparison);
  fputs (text, stdout);
  fputc ('\n', stdout);
  return 0;
}
